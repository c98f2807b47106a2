"""GGUF in: config and tensors of a real GGUF file, its tokenizer, typed errors for files we cannot convert."""

from __future__ import annotations

from pathlib import Path

import gguf
import numpy as np
import pytest
import tokenizers

from bb_edge.llm.gguf_load import (
    CorruptGGUFError,
    GGUFError,
    LlamaGGUF,
    UnknownArchitectureError,
    load_gguf,
    write_tokenizer,
)
from bb_edge.llm.quant_blocks import from_gguf
from bb_edge.llm.tiny import tiny_vocab


def test_config_and_tensors_come_from_the_file(tiny: LlamaGGUF) -> None:
    c = tiny.config
    assert (c.n_layers, c.hidden, c.n_heads, c.n_kv_heads, c.intermediate) == (4, 64, 4, 2, 128)
    assert c.vocab == len(tiny_vocab()) and c.head_dim == 16 and c.eos_token_id == 2
    assert tiny.layer(0, "attn_q").kind == "Q4_1" and tiny.embedding.kind == "Q8_0"
    assert tiny.lm_head is tiny.embedding  # tied, as in SmolLM2
    assert tiny.layer(3, "ffn_down").shape == (64, 128)
    assert c.kv_bytes_per_layer(100) == 2 * 2 * 100 * 16 * 4


@pytest.mark.parametrize("what", ["attn_q", "attn_k", "ffn_gate", "ffn_down"])
def test_matmulnbits_operands_equal_ggufs_dequantization(tiny: LlamaGGUF, what: str) -> None:
    t = tiny.layer(1, what)
    q = from_gguf(t, 4)
    assert q.bits == 4 and q.block_mins is not None
    np.testing.assert_array_equal(q.dequantize(), t.dequantize())  # the oracle: gguf's own dequantize
    e = from_gguf(tiny.embedding, 4)
    assert e.bits == 8
    np.testing.assert_array_equal(e.dequantize(), tiny.embedding.dequantize())


def test_tokenizer_round_trips_without_network(tiny_gguf: Path, tmp_path: Path) -> None:
    path = write_tokenizer(tiny_gguf, tmp_path / "tok")
    tok = tokenizers.Tokenizer.from_file(str(path))
    enc = tok.encode("the answer is in there")
    assert tok.decode(enc.ids) == "the answer is in there"
    vocab = tiny_vocab()
    assert "Ġthe" in [vocab[i] for i in enc.ids]  # the merges were applied, not bytes only


def test_unknown_architecture_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "falcon.gguf"
    w = gguf.GGUFWriter(str(path), "falcon")
    w.add_block_count(1)
    w.add_tensor("token_embd.weight", np.zeros((4, 32), np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    with pytest.raises(UnknownArchitectureError, match="'falcon'"):
        load_gguf(path)


def test_truncated_file_is_a_typed_error(tiny_gguf: Path, tmp_path: Path) -> None:
    data = tiny_gguf.read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptGGUFError):
        load_gguf(cut)
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a gguf file at all" * 10)
    with pytest.raises(CorruptGGUFError):
        load_gguf(junk)
    with pytest.raises(GGUFError, match="no such file"):
        load_gguf(tmp_path / "absent.gguf")
