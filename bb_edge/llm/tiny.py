"""A tiny random-weight llama written as a real GGUF file, for fast tests of the whole GGUF -> ONNX path.

Written with the `gguf` package's writer the way llama.cpp's convert_hf_to_gguf.py writes a llama: Q and K
rows permuted for GGML's RoPE, layer weights Q4_1 and the (tied) embedding Q8_0 like the SmolLM2 file, and a
byte-level BPE tokenizer (GPT-2's 256 byte symbols, a few merges, three control tokens).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

#: a few merges so that the tokenizer is a real BPE, not only bytes
_MERGES = ["Ġ t", "h e", "Ġt he", "Ġ a", "i n", "e r", "o n", "Ġ s"]
_SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def _bytes_to_unicode() -> list[str]:
    """GPT-2's printable stand-ins for the 256 byte values (byte-level BPE's base alphabet)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), 256))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    table = dict(zip(bs, cs))
    return [chr(table[b]) for b in range(256)]


def tiny_vocab() -> list[str]:
    """Control tokens, then the byte alphabet, then one token per merge."""
    return _SPECIAL + _bytes_to_unicode() + [m.replace(" ", "") for m in _MERGES]


def _permute(w: np.ndarray, n_head: int) -> np.ndarray:
    """convert_hf_to_gguf's Q/K permutation (Hugging Face's half-split RoPE -> GGML's pairs)."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def write_tiny_gguf(path: str | Path, *, n_layers: int = 4, hidden: int = 64, n_heads: int = 4,
                    n_kv_heads: int = 2, intermediate: int = 128, context: int = 256, seed: int = 0) -> Path:
    """Write a random-weight llama GGUF to ``path`` and return it (deterministic in ``seed``)."""
    import gguf
    from gguf import GGMLQuantizationType as Q
    from gguf.quants import quantize

    rng = np.random.default_rng(seed)
    vocab = tiny_vocab()
    hd = hidden // n_heads
    path = Path(path)
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_name("bb-edge tiny llama")
    w.add_block_count(n_layers)
    w.add_context_length(context)
    w.add_embedding_length(hidden)
    w.add_feed_forward_length(intermediate)
    w.add_head_count(n_heads)
    w.add_head_count_kv(n_kv_heads)
    w.add_rope_freq_base(10000.0)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_dimension_count(hd)
    w.add_vocab_size(len(vocab))
    w.add_file_type(3)  # mostly Q4_1
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("gpt-2")
    w.add_token_list(vocab)
    w.add_token_types([3] * len(_SPECIAL) + [1] * (len(vocab) - len(_SPECIAL)))
    w.add_token_merges(_MERGES)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_add_bos_token(False)

    def add(name: str, arr: np.ndarray, qtype: Q) -> None:
        arr = arr.astype(np.float32)
        if qtype == Q.F32:
            w.add_tensor(name, arr)
        else:
            w.add_tensor(name, quantize(arr, qtype), raw_shape=quantize(arr, qtype).shape, raw_dtype=qtype)

    def rnd(*shape: int, scale: float = 0.15) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32) * scale

    add("token_embd.weight", rnd(len(vocab), hidden, scale=1.0), Q.Q8_0)
    for i in range(n_layers):
        b = f"blk.{i}."
        add(b + "attn_norm.weight", 1.0 + rnd(hidden, scale=0.1), Q.F32)
        add(b + "attn_q.weight", _permute(rnd(n_heads * hd, hidden), n_heads), Q.Q4_1)
        add(b + "attn_k.weight", _permute(rnd(n_kv_heads * hd, hidden), n_kv_heads), Q.Q4_1)
        add(b + "attn_v.weight", rnd(n_kv_heads * hd, hidden), Q.Q4_1)
        add(b + "attn_output.weight", rnd(hidden, n_heads * hd), Q.Q4_1)
        add(b + "ffn_norm.weight", 1.0 + rnd(hidden, scale=0.1), Q.F32)
        add(b + "ffn_gate.weight", rnd(intermediate, hidden), Q.Q4_1)
        add(b + "ffn_up.weight", rnd(intermediate, hidden), Q.Q4_1)
        add(b + "ffn_down.weight", rnd(hidden, intermediate), Q.Q4_1)
    add("output_norm.weight", 1.0 + rnd(hidden, scale=0.1), Q.F32)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def write_foreign_gguf(path: str | Path, architecture: str) -> Path:
    """A GGUF of another ``architecture`` with one block and no tensors: what the loader must refuse by name."""
    import gguf

    w = gguf.GGUFWriter(str(path), architecture)
    w.add_block_count(1)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return Path(path)
