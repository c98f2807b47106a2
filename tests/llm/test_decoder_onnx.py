"""The ONNX decoder built from a GGUF: names as optimum writes them, logits equal to transformers' model.

The oracle is transformers' own GGUF loader (it dequantizes the same file into LlamaForCausalLM), so the
graph's RoPE, grouped-query attention, norms, Q/K un-permutation and Q4_1 mapping are checked by an
implementation that shares none of this code.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
import torch
from transformers import AutoModelForCausalLM

from bb_edge.llm.gguf_load import LlamaGGUF
from bb_edge.llm.onnx_build import build_decoder, decoder_meta
from bb_edge.llm.reference import Decoder

IDS = [40, 51, 263, 7, 99, 200, 12, 5, 77, 140, 31]


@pytest.fixture(scope="module")
def hf_logits(tiny_gguf: Path) -> np.ndarray:
    hf = AutoModelForCausalLM.from_pretrained(str(tiny_gguf.parent), gguf_file=tiny_gguf.name,
                                              dtype=torch.float32).eval()
    with torch.no_grad():
        return hf(torch.tensor([IDS])).logits[0].numpy()


def _prefill_then_steps(d: Decoder, split_at: int) -> np.ndarray:
    """Logits of every position, the first ``split_at`` in one prefill and the rest one token a step."""
    d.stage.reset()
    feeds = {"input_ids": np.asarray([IDS[:split_at]], np.int64), "attention_mask": np.ones((1, split_at), np.int64)}
    rows = [d.stage.run(feeds)["logits"][0]]
    for pos in range(split_at, len(IDS)):
        rows.append(d.step([IDS[pos]], pos)[None])
    return np.concatenate(rows)


def test_io_names_are_optimums(tiny: LlamaGGUF) -> None:
    m = build_decoder(tiny, "int4")
    onnx.checker.check_model(m)
    ins = [i.name for i in m.graph.input]
    outs = [o.name for o in m.graph.output]
    assert ins[:2] == ["input_ids", "attention_mask"]
    assert ins[2:4] == ["past_key_values.0.key", "past_key_values.0.value"] and len(ins) == 2 + 2 * 4
    assert outs[0] == "logits" and outs[-1] == "present.3.value"
    assert sorted({n.op_type for n in m.graph.node} & {"MatMulNBits", "GroupQueryAttention"}) == [
        "GroupQueryAttention", "MatMulNBits"]
    assert decoder_meta(m)["layer_outputs"][-1] == "/model/layers.3/output"


@pytest.mark.parametrize(("weights", "accuracy_level", "atol"), [
    ("fp32", 4, 1e-4),
    ("int4", 0, 1e-3),  # Q4_1 blocks kept exactly: only float rounding differs
    ("fp16", 4, 0.1),  # fp16 rounding of the weights
])
def test_logits_match_transformers(tiny: LlamaGGUF, hf_logits: np.ndarray, weights: str, accuracy_level: int,
                                   atol: float) -> None:
    d = Decoder(build_decoder(tiny, weights, accuracy_level=accuracy_level))
    for split_at in (len(IDS), 4, 1):  # one prefill; prefill then KV-cached steps
        np.testing.assert_allclose(_prefill_then_steps(d, split_at), hf_logits, atol=atol, rtol=0)


def test_int4_and_int8_fast_paths_stay_close(tiny: LlamaGGUF, hf_logits: np.ndarray) -> None:
    # accuracy_level 4 quantizes activations to int8 per block (as llama.cpp does); bounded, not exact
    scale = np.abs(hf_logits).max()
    for weights in ("int4", "int8"):
        got = _prefill_then_steps(Decoder(build_decoder(tiny, weights)), 3)
        assert np.abs(got - hf_logits).max() < 0.15 * scale, weights


def test_unknown_weights_format(tiny: LlamaGGUF) -> None:
    with pytest.raises(ValueError, match="weights must be one of"):
        build_decoder(tiny, "int3")
