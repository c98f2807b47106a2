"""Split by decoder layers: chaining the stage sessions, each keeping its own KV, gives the unsplit tokens."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from bb_edge.errors import PlacementError
from bb_edge.llm.gguf_load import LlamaGGUF
from bb_edge.llm.onnx_build import build_decoder
from bb_edge.llm.reference import Decoder, StageChain
from bb_edge.llm.split import even_ranges, split_decoder

PROMPTS = [[40, 51, 263, 7, 99], [3, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110]]


@pytest.fixture(scope="module", params=["int4", "fp32"])
def decoder(request: pytest.FixtureRequest, tiny: LlamaGGUF) -> onnx.ModelProto:
    return build_decoder(tiny, request.param)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_chain_tokens_equal_the_unsplit_session(decoder: onnx.ModelProto, n: int) -> None:
    ref = Decoder(decoder)
    stages = split_decoder(decoder, n)
    chain = StageChain([s.model for s in stages])
    for prompt in PROMPTS:
        want = ref.generate(prompt, 32)
        assert len(set(want)) > 3, want  # a degenerate model would make the comparison weak
        assert chain.generate(prompt, 32) == want
    # the stages compute what the whole graph does, not only the same argmax
    ref.stage.reset()
    for st in chain.stages:
        st.reset()
    np.testing.assert_array_equal(chain.step(PROMPTS[0], 0), ref.step(PROMPTS[0], 0))


def test_stage_interfaces_and_state(tiny: LlamaGGUF) -> None:
    stages = split_decoder(build_decoder(tiny, "int4"), 3)
    assert [list(s.layers) for s in stages] == [[0, 1], [2], [3]]
    assert [(s.takes, s.gives) for s in stages] == [
        ("input_ids", "/model/layers.1/output"), ("/model/layers.1/output", "/model/layers.2/output"),
        ("/model/layers.2/output", "logits")]
    assert stages[1].state == (("present.2.key", "past_key_values.2.key"),
                               ("present.2.value", "past_key_values.2.value"))
    for s in stages:
        onnx.checker.check_model(s.model)
        ins = [i.name for i in s.model.graph.input]
        assert ins[:2] == [s.takes, "attention_mask"]
        assert sorted(ins[2:]) == sorted(p for _, p in s.state)
        assert [o.name for o in s.model.graph.output] == [s.gives] + [p for p, _ in s.state]
    ops = [{n.op_type for n in s.model.graph.node} for s in stages]
    assert "Gather" in ops[0] and "MatMulNBits" in ops[2]
    assert sum(n.name == "/lm_head/logits" for s in stages for n in s.model.graph.node) == 1


def test_kv_bytes_per_stage_match_the_state_held(tiny: LlamaGGUF) -> None:
    cfg = tiny.config
    stages = split_decoder(build_decoder(tiny, "int4"), 2)
    chain = StageChain([s.model for s in stages])
    prompt = PROMPTS[1]
    chain.generate(prompt, 10)
    context = len(prompt) + 10 - 1  # the last token is produced, never fed back
    assert chain.kv_bytes() == [s.kv_bytes(context, cfg.n_kv_heads, cfg.head_dim) for s in stages]
    assert chain.hops == [("/model/layers.1/output", cfg.hidden * 4)]


def test_bad_splits_are_refused(tiny: LlamaGGUF) -> None:
    m = build_decoder(tiny, "fp32")
    with pytest.raises(PlacementError):
        split_decoder(m, 5)
    with pytest.raises(PlacementError, match="do not cover"):
        split_decoder(m, 2, layer_ranges=[range(0, 2), range(3, 4)])
    assert even_ranges(30, 4) == [range(0, 8), range(8, 16), range(16, 23), range(23, 30)]
