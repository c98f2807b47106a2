"""ONNX control flow through the ExecuTorch lowering (issue 26): If decided at run time, Loop, Scan.

Oracle: ONNX Runtime on the same model and inputs. The If case runs as a real ``.pte`` on the ExecuTorch
runtime and must follow the condition input both ways; Loop and Scan run through the converter (the
torch module ``torch.export`` traces) in CI, and as ``.pte`` programs with BB_EDGE_LONG=1. Silero VAD (the
wheel's sample-rate If) runs converted in CI and as a ``.pte`` with BB_EDGE_LONG=1.
"""

from __future__ import annotations

import os

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

from bb_edge.backends.executorch import PteSegment
from bb_edge.bundle.artifacts import TOLERANCE
from bb_edge.convert.onnx_torch import to_torch, unsupported_ops
from bb_edge.convert.pte import export_pte
from bb_edge.errors import UnsupportedOpError

LONG = os.environ.get("BB_EDGE_LONG") == "1"
RNG = np.random.default_rng(26)


def _model(nodes: list[onnx.NodeProto], ins: list[onnx.ValueInfoProto], outs: list[onnx.ValueInfoProto],
           inits: list[onnx.TensorProto], opset: int = 17) -> onnx.ModelProto:
    m = h.make_model(h.make_graph(nodes, "g", ins, outs, inits), opset_imports=[h.make_opsetid("", opset)])
    onnx.checker.check_model(m, full_check=True)
    return m


def _sr_if() -> onnx.ModelProto:
    """``sr == 16000`` picks between two branches that read the same weight and input (silero's shape)."""
    w = (RNG.standard_normal((3, 4)) / 2).astype(np.float32)
    then = h.make_graph([h.make_node("MatMul", ["x", "w"], ["a"]), h.make_node("Relu", ["a"], ["t_out"])], "then", [],
                        [h.make_tensor_value_info("t_out", T.FLOAT, [2, 4])])
    other = h.make_graph([h.make_node("MatMul", ["x", "w"], ["b"]), h.make_node("Sigmoid", ["b"], ["e_out"])], "else",
                         [], [h.make_tensor_value_info("e_out", T.FLOAT, [2, 4])])
    return _model([h.make_node("Equal", ["sr", "k16"], ["is16"]),
                   h.make_node("If", ["is16"], ["y"], name="pick_rate", then_branch=then, else_branch=other)],
                  [h.make_tensor_value_info("x", T.FLOAT, [2, 3]), h.make_tensor_value_info("sr", T.INT64, [])],
                  [h.make_tensor_value_info("y", T.FLOAT, [2, 4])],
                  [numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.array(16000, np.int64), "k16")])


def _ort(m: onnx.ModelProto, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)


def _eager(m: onnx.ModelProto, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    mod = to_torch(m)
    with torch.no_grad():
        return [t.numpy() for t in mod(*[torch.from_numpy(feed[n]) for n in mod.input_names])]


def test_runtime_if_follows_its_condition_in_a_pte() -> None:
    m = _sr_if()
    assert unsupported_ops(m) == []
    seg = PteSegment(export_pte(m), ["x", "sr"], ["y"])
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    got = {}
    for sr in (16000, 8000):
        feed = {"x": x, "sr": np.array(sr, np.int64)}
        ref = _ort(m, feed)[0]
        got[sr] = seg.run(feed)["y"]
        np.testing.assert_allclose(got[sr], ref, rtol=1e-6, atol=1e-6)
    # the branches differ (relu vs sigmoid): one program, and the result flips with the input value
    assert np.abs(got[16000] - got[8000]).max() > 0.1


def test_if_whose_branches_differ_in_shape_is_refused_naming_it() -> None:
    then = h.make_graph([h.make_node("Identity", ["x"], ["t"])], "then", [],
                        [h.make_tensor_value_info("t", T.FLOAT, ["n", 3])])
    other = h.make_graph([h.make_node("Concat", ["x", "x"], ["e"], axis=0)], "else", [],
                         [h.make_tensor_value_info("e", T.FLOAT, ["n", 3])])
    m = _model([h.make_node("If", ["c"], ["y"], name="grow", then_branch=then, else_branch=other)],
               [h.make_tensor_value_info("x", T.FLOAT, [2, 3]), h.make_tensor_value_info("c", T.BOOL, [])],
               [h.make_tensor_value_info("y", T.FLOAT, ["n", 3])], [])
    with pytest.raises(UnsupportedOpError, match=r"If node 'grow'.*\[2, 3\] and \[4, 3\]"):
        to_torch(m)


def _loop(trips: int | None, stop_at: float | None = None) -> onnx.ModelProto:
    """acc += x * (i + 1) each iteration, scan output acc; with ``stop_at``: run while sum(acc) < stop_at."""
    body_nodes = [h.make_node("Cast", ["i"], ["fi"], to=T.FLOAT), h.make_node("Add", ["fi", "one"], ["f1"]),
                  h.make_node("Mul", ["x", "f1"], ["dx"]), h.make_node("Add", ["acc_in", "dx"], ["acc_out"])]
    outs = [h.make_tensor_value_info("c_out", T.BOOL, []), h.make_tensor_value_info("acc_out", T.FLOAT, [2, 3])]
    if stop_at is None:
        body_nodes.append(h.make_node("Identity", ["c_in"], ["c_out"]))
        body_nodes.append(h.make_node("Identity", ["acc_out"], ["scan"]))
        outs.append(h.make_tensor_value_info("scan", T.FLOAT, [2, 3]))
    else:
        body_nodes += [h.make_node("ReduceSum", ["acc_out"], ["s"], keepdims=0),
                       h.make_node("Less", ["s", "limit"], ["c_out"])]
    body = h.make_graph(body_nodes, "body", [h.make_tensor_value_info("i", T.INT64, []),
                                              h.make_tensor_value_info("c_in", T.BOOL, []),
                                              h.make_tensor_value_info("acc_in", T.FLOAT, [2, 3])], outs)
    inits = [numpy_helper.from_array(np.array(1.0, np.float32), "one"),
             numpy_helper.from_array(np.array(True), "go")]
    if stop_at is not None:
        inits.append(numpy_helper.from_array(np.array(stop_at, np.float32), "limit"))
    ins = [h.make_tensor_value_info("x", T.FLOAT, [2, 3]), h.make_tensor_value_info("acc0", T.FLOAT, [2, 3])]
    if trips is None:
        ins.append(h.make_tensor_value_info("M", T.INT64, []))
    else:
        inits.append(numpy_helper.from_array(np.array(trips, np.int64), "M"))
    louts = [h.make_tensor_value_info("acc", T.FLOAT, [2, 3])]
    if stop_at is None:
        louts.append(h.make_tensor_value_info("all", T.FLOAT, [trips or 1, 2, 3]))
    return _model([h.make_node("Loop", ["M", "go", "acc0"], [o.name for o in louts], name="accumulate", body=body)],
                  ins, louts, inits)


def test_loop_with_static_trip_count_unrolls_like_ort() -> None:
    m = _loop(4)
    feed = {"x": RNG.standard_normal((2, 3)).astype(np.float32), "acc0": RNG.standard_normal((2, 3)).astype(np.float32)}
    for got, ref in zip(_eager(m, feed), _ort(m, feed), strict=True):
        assert got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)
    if LONG:
        seg = PteSegment(export_pte(m), ["x", "acc0"], ["acc", "all"])
        out = seg.run(feed)
        for k, ref in zip(("acc", "all"), _ort(m, feed), strict=True):
            np.testing.assert_allclose(out[k], ref, rtol=1e-6, atol=1e-6)


def test_loop_condition_computed_at_run_time_is_exact_by_masking() -> None:
    m = _loop(6, stop_at=4.0)
    x = np.full((2, 3), 0.25, np.float32)
    stops = set()
    for a0 in (0.0, 0.7, -2.0):  # the loop stops after a different number of iterations for each
        feed = {"x": x, "acc0": np.full((2, 3), a0, np.float32)}
        got, ref = _eager(m, feed)[0], _ort(m, feed)[0]
        np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)
        stops.add(float(ref[0, 0]))
    assert len(stops) == 3


def test_loop_without_static_trip_count_is_refused_naming_it() -> None:
    m = _loop(None)
    bad = unsupported_ops(m)
    assert bad and bad[0][1] == "accumulate" and "trip count" in bad[0][0]
    with pytest.raises(UnsupportedOpError, match="accumulate"):
        to_torch(m)


def test_scan_reverse_and_axis_matches_ort() -> None:
    """A running sum over axis 1 of the scan input, scanned backwards, output stacked on axis 1."""
    body = h.make_graph([h.make_node("Add", ["s_in", "xt"], ["s_out"]), h.make_node("Identity", ["s_out"], ["y_t"])],
                        "body", [h.make_tensor_value_info("s_in", T.FLOAT, [2]),
                                 h.make_tensor_value_info("xt", T.FLOAT, [2])],
                        [h.make_tensor_value_info("s_out", T.FLOAT, [2]),
                         h.make_tensor_value_info("y_t", T.FLOAT, [2])])
    m = _model([h.make_node("Scan", ["s0", "xs"], ["s", "ys"], name="cumsum", body=body, num_scan_inputs=1,
                            scan_input_axes=[1], scan_input_directions=[1], scan_output_axes=[1])],
               [h.make_tensor_value_info("s0", T.FLOAT, [2]), h.make_tensor_value_info("xs", T.FLOAT, [2, 5])],
               [h.make_tensor_value_info("s", T.FLOAT, [2]), h.make_tensor_value_info("ys", T.FLOAT, [2, 5])], [])
    feed = {"s0": RNG.standard_normal(2).astype(np.float32), "xs": RNG.standard_normal((2, 5)).astype(np.float32)}
    for got, ref in zip(_eager(m, feed), _ort(m, feed), strict=True):
        assert got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("file,samples", [("silero_vad_op18_ifless.onnx", 512), ("silero_vad.onnx", 256)])
def test_silero_vad_sample_rate_if_matches_ort_both_ways(file: str, samples: int) -> None:
    """The wheel's models: ``sr`` (0-d int64) picks the 16 kHz or 8 kHz branch at run time."""
    from bb_edge.compiler import load_model
    from tests.support.production_models import VAD_WHEEL, fetch_wheel_models

    path = fetch_wheel_models(*VAD_WHEEL) / file
    m = load_model(path, {"input": [1, samples], "state": [2, 1, 128]})
    assert [n.op_type for n in m.graph.node].count("If") == 1 and unsupported_ops(m) == []
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])  # the unpinned model
    mod = to_torch(m)
    seg = PteSegment(export_pte(m), mod.input_names, mod.output_names) if LONG else None
    outs = {}
    for sr in (16000, 8000):
        feed = {"input": (0.1 * RNG.standard_normal((1, samples))).astype(np.float32),
                "state": (0.1 * RNG.standard_normal((2, 1, 128))).astype(np.float32), "sr": np.array(sr, np.int64)}
        ref = sess.run(None, feed)
        got = _eager(m, feed) if seg is None else [seg.run(feed)[n] for n in mod.output_names]
        for g, r in zip(got, ref, strict=True):  # the model table's float tolerance, relative to the output's scale
            assert g.shape == r.shape
            assert np.abs(g - r).max() <= TOLERANCE["fp32"] * max(float(np.abs(r).max()), 1e-6), (sr, g, r)
        outs[sr] = got[0]
    assert outs[16000].shape == outs[8000].shape == (1, 1)


def test_silero_vad_branch_invalid_at_pinned_shape_is_refused_naming_the_if() -> None:
    """silero_vad.onnx's 8 kHz branch cannot run on 512 samples (ORT fails on it too): a typed refusal."""
    from bb_edge.compiler import load_model
    from tests.support.production_models import VAD_WHEEL, fetch_wheel_models

    path = fetch_wheel_models(*VAD_WHEEL) / "silero_vad.onnx"
    feed = {"input": np.zeros((1, 512), np.float32), "state": np.zeros((2, 1, 128), np.float32),
            "sr": np.array(8000, np.int64)}
    with pytest.raises(Exception, match="LSTM"):  # the oracle agrees the branch is invalid at this size
        ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, feed)
    m = load_model(path, {"input": [1, 512], "state": [2, 1, 128]})
    bad = unsupported_ops(m)
    assert [(op.split(" ")[0], node) for op, node in bad] == [("If", "If_0")] and "else_branch" in bad[0][0]
    with pytest.raises(UnsupportedOpError, match="else_branch"):
        to_torch(m)
