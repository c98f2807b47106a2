"""Sequence values of a static length through the ONNX->ExecuTorch lowering (torch_seq.py, issue 26).

A sequence graph input crosses the program as its pinned elements, a sequence output as its length then its
elements (ProgramIO rebuilds the list); the oracle is ONNX Runtime on the same model and inputs.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto
from onnx import helper as h

from bb_edge.backends.executorch import PteSegment
from bb_edge.convert.onnx_torch import ProgramIO, unsupported_ops
from bb_edge.convert.pte import export_pte
from bb_edge.convert.torch_seq import pin_sequences
from bb_edge.errors import UnsupportedOpError

SEQ_F = h.make_sequence_type_proto(h.make_tensor_type_proto(TensorProto.FLOAT, None))


def _model(split_input: bool = False) -> onnx.ModelProto:
    """seq (input) -> erase the first, append x split and concatenated again, length, (seq[1] + x, x)."""
    c = h.make_tensor
    nodes = [
        h.make_node("SequenceErase", ["seq", "zero"], ["s1"], name="erase"),
        h.make_node("SplitToSequence", ["x", "split"] if split_input else ["x"], ["parts"], axis=0, name="split"),
        h.make_node("ConcatFromSequence", ["parts"], ["joined"], axis=0, name="concat"),
        h.make_node("SequenceInsert", ["s1", "joined"], ["s2"], name="insert"),
        h.make_node("SequenceAt", ["s2", "minus3"], ["first"], name="at"),
        h.make_node("Add", ["first", "x"], ["y"], name="add"),
        h.make_node("SequenceLength", ["s2"], ["n"], name="len"),
        h.make_node("SequenceConstruct", ["y", "x"], ["pair"], name="construct"),
    ]
    inits = [c("zero", TensorProto.INT64, [], [0]), c("minus3", TensorProto.INT64, [], [-3])]
    ins = [h.make_value_info("seq", SEQ_F), h.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])]
    if split_input:
        ins.append(h.make_tensor_value_info("split", TensorProto.INT64, [2]))
    g = h.make_graph(nodes, "seq", ins, [h.make_value_info("s2", SEQ_F),
                                         h.make_tensor_value_info("n", TensorProto.INT64, []),
                                         h.make_value_info("pair", SEQ_F)], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 18)])


def test_sequences_cross_the_program_and_match_ort() -> None:
    rng = np.random.default_rng(26)
    feed = {"seq": [rng.standard_normal(s).astype(np.float32) for s in ([2, 3], [4, 3], [1, 3])],
            "x": rng.standard_normal([4, 3]).astype(np.float32)}
    model = pin_sequences(_model(), feed)
    io = ProgramIO(model)
    assert len(io.feed(feed)) == 4  # three elements and x
    seg = PteSegment(export_pte(model), io.inputs, [o.name for o in model.graph.output], io)
    got = seg.run(feed)
    so = ort.SessionOptions()
    so.log_severity_level = 4
    ref = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feed)
    for name, want in zip(["s2", "n", "pair"], ref):
        if isinstance(want, list):
            assert isinstance(got[name], list) and len(got[name]) == len(want), name
            for a, b in zip(got[name], want):
                np.testing.assert_allclose(a, b, rtol=1e-6)
        else:
            np.testing.assert_array_equal(got[name], want)


def test_unpinned_sequence_and_run_time_length_are_refused() -> None:
    with pytest.raises(UnsupportedOpError, match="'seq'"):
        ProgramIO(_model())
    feed = {"seq": [np.zeros([2, 3], np.float32)]}
    bad = unsupported_ops(pin_sequences(_model(split_input=True), feed))
    assert ("SplitToSequence (run-time 'split')", "split") in bad


def test_if_with_a_run_time_condition_returns_a_sequence() -> None:
    """Both branches give 2-element sequences: their elements cross torch.cond flat, the list is rebuilt."""
    x = h.make_tensor_value_info("x", TensorProto.FLOAT, [3])
    then_g = h.make_graph([h.make_node("Relu", ["x"], ["r"]), h.make_node("SequenceConstruct", ["x", "r"], ["t"])],
                          "then", [], [h.make_value_info("t", SEQ_F)])
    else_g = h.make_graph([h.make_node("Neg", ["x"], ["m"]), h.make_node("SequenceConstruct", ["m", "x"], ["e"])],
                          "else", [], [h.make_value_info("e", SEQ_F)])
    g = h.make_graph([h.make_node("If", ["c"], ["s"], then_branch=then_g, else_branch=else_g, name="if")], "ifseq",
                     [h.make_tensor_value_info("c", TensorProto.BOOL, []), x], [h.make_value_info("s", SEQ_F)])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    io = ProgramIO(model)
    seg = PteSegment(export_pte(model), io.inputs, ["s"], io)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for c in (True, False):
        feed = {"c": np.array(c), "x": np.array([-1.0, 0.5, 2.0], np.float32)}
        got, want = seg.run(feed)["s"], sess.run(None, feed)[0]
        assert len(got) == len(want) == 2
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
