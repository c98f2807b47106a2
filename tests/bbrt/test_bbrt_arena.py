"""Arena at the model's true lower bound: views alias their input, the planner reaches the bound.

Reshape, Flatten, Squeeze and Unsqueeze lower to COPY ops whose output shares the input's
bytes (planner.aliases); the runtime's COPY kernel then copies nothing. The checks:
the planned arena equals the program's lower bound; for float32 programs that bound
equals the activation lower bound measured on the ONNX graph before lowering
(planner.model_lower_bound), which is also checked against hand-computed figures; turning
aliasing off makes the reshape model's arena larger; and outputs stay correct (C runtime
against ONNX Runtime). With int8 graph edges (as ``bb-edge build`` makes them next to an int8
node) there is no float buffer and no QUANTIZE/DEQUANTIZE copy, and the arena equals the ONNX
graph's int8 bound on every model.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt import planner
from bb_edge.bbrt.format import RECV, SEND, Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.deployment.int8 import affine_params, quantize
from tests.support.examples import sample_inputs, small_cnn, small_mlp, tflm_cnn


def reshapes() -> onnx.ModelProto:
    """tf2onnx-style: an NHWC image reshaped to NCHW, conv, Flatten, Gemm, Unsqueeze + Squeeze."""
    rng = np.random.default_rng(1)
    inits = [numpy_helper.from_array(np.array([1, 3, 8, 8], np.int64), "shape"),
             numpy_helper.from_array((rng.standard_normal((4, 3, 3, 3)) * 0.3).astype(np.float32), "Wc"),
             numpy_helper.from_array((rng.standard_normal((10, 256)) * 0.1).astype(np.float32), "Wf"),
             numpy_helper.from_array(np.array([1], np.int64), "ax")]
    n = helper.make_node
    nodes = [n("Reshape", ["x", "shape"], ["xr"], name="nhwc"),
             n("Conv", ["xr", "Wc"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             n("Relu", ["c"], ["r"], name="relu"),
             n("Flatten", ["r"], ["f"], name="flat", axis=1),
             n("Gemm", ["f", "Wf"], ["l"], name="fc", transB=1),
             n("Unsqueeze", ["l", "ax"], ["u"], name="unsq"),
             n("Squeeze", ["u", "ax"], ["y"], name="sq")]
    g = helper.make_graph(nodes, "reshapes", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 8, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def feed_for(m: onnx.ModelProto, seed: int) -> dict[str, np.ndarray]:
    """A standard-normal feed for the model's single input."""
    i = m.graph.input[0]
    shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
    return {i.name: np.random.default_rng(seed).standard_normal(shape).astype(np.float32)}


MODELS = {"mlp": small_mlp, "cnn": small_cnn, "reshapes": reshapes}


def lowered(name: str, precision: str) -> tuple[onnx.ModelProto, Lowered]:
    """The model lowered as one node, calibrated on a few random feeds."""
    m = MODELS[name]()
    feeds = sample_inputs(4, seed=3) if name == "cnn" else [feed_for(m, s) for s in range(4)]
    return m, lower(m, precision=precision, calib=feeds)


def replan(L: Lowered, alias: bool) -> int:
    """The arena of the same program planned again, with or without aliasing."""
    prog = L.program
    live_in = {e.tensor for e in prog.edges if e.direction == RECV}
    live_out = {e.tensor for e in prog.edges if e.direction == SEND}
    planner.assign(prog, live_in, live_out, alias=alias)
    return prog.arena_size


@pytest.mark.parametrize("precision", ["fp32", "int8"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_planned_arena_equals_the_lower_bound(name: str, precision: str) -> None:
    _, L = lowered(name, precision)
    assert L.program.arena_size == L.program.arena_lower_bound > 0
    assert 0 < L.model_lower_bound <= L.program.arena_lower_bound
    if precision == "fp32":  # no QUANTIZE/DEQUANTIZE copies: the program reaches the model's bound
        assert L.program.arena_size == L.model_lower_bound


def test_model_lower_bound_matches_hand_computed_figures() -> None:
    # MLP fp32: x (256 B) and h0 (192 B) alive at the first Gemm; int8: 64 + 48 (the 112 B)
    assert lowered("mlp", "fp32")[1].model_lower_bound == 256 + 192
    assert lowered("mlp", "int8")[1].model_lower_bound == 64 + 48
    # reshapes fp32: at the conv, the image (192 floats, viewed as NCHW) and the conv output (256 floats)
    assert lowered("reshapes", "fp32")[1].model_lower_bound == 4 * (192 + 256)


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_views_alias_and_copy_nothing(precision: str) -> None:
    m, L = lowered("reshapes", precision)
    copies = [op for op in L.program.ops if op.opcode == Op.COPY]
    assert len(copies) == 4
    for op in copies:  # one offset for input and output
        assert L.program.tensors[op.inputs[0]].offset == L.program.tensors[op.outputs[0]].offset
    with_alias = L.program.arena_size
    assert replan(L, alias=False) > with_alias  # the feature: without it the reshapes cost bytes
    replan(L, alias=True)
    feed = feed_for(m, 11)
    ref = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]
    blob = L.program.to_bytes()
    h = HostProgram(blob, L.program)
    recv = h.recv_tensors()
    h.run({recv[0]: feed["x"]})
    out = h.view(L.float_index["y"]) if "y" in L.float_index else h.view(L.index["y"])
    tol = 1e-5 if precision == "fp32" else 0.1 * float(np.abs(ref).max())
    np.testing.assert_allclose(np.asarray(out, np.float32).reshape(ref.shape), ref, atol=tol, rtol=1e-5)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_int8_edges_put_the_arena_at_the_models_bound(name: str) -> None:
    m, floaty = lowered(name, "int8")  # float32 graph edges: the parameters their producers give them
    feeds = sample_inputs(4, seed=3) if name == "cnn" else [feed_for(m, s) for s in range(4)]
    x, y = m.graph.input[0].name, m.graph.output[0].name
    # the input's from its calibration range, as the build does (a Reshape-first model never quantizes x itself)
    xs = np.concatenate([f[x].ravel() for f in feeds])
    qx = floaty.qparams.get(x, affine_params(float(xs.min()), float(xs.max())))
    L = lower(m, precision="int8", calib=feeds, io_quant={x: qx, y: floaty.qparams[y]})
    assert not {Op.QUANTIZE, Op.DEQUANTIZE} & {op.opcode for op in L.program.ops}
    assert L.program.arena_size == L.program.arena_lower_bound == L.model_lower_bound == floaty.model_lower_bound
    if name == "mlp":  # the figure, against 2.86x with a float32 input edge
        assert L.program.arena_size == 64 + 48 < floaty.program.arena_size


def test_conv_pool_fusion_goes_below_the_graph_bound_with_the_same_bytes() -> None:
    """CONV_POOL_I8 (lower(fuse_pool=True), the C builds' lowering) never holds the conv output: the bench
    CNN's arena is its first conv output plus the pooled output, half the ONNX graph's bound, and the C
    runtime computes the same bytes as CONV_I8 + MAXPOOL_I8 (the oracle: the unfused program)."""
    m = tflm_cnn()
    feeds = [feed_for(m, s) for s in range(4)]
    floaty = lower(m, precision="int8", calib=feeds)
    q = {"x": floaty.qparams["x"], "y": floaty.qparams["y"]}
    plain = lower(m, precision="int8", calib=feeds, io_quant=q)
    fused = lower(m, precision="int8", calib=feeds, io_quant=q, fuse_pool=True)
    assert Op.CONV_POOL_I8 in {op.opcode for op in fused.program.ops}
    assert Op.MAXPOOL_I8 not in {op.opcode for op in fused.program.ops}
    assert plain.program.arena_size == plain.model_lower_bound == 8 * 144 + 16 * 144  # conv1 + 1x1 conv outputs
    assert fused.program.arena_size == fused.program.arena_lower_bound == 8 * 144 + 16 * 36  # conv1 + pooled
    for seed in range(4):
        x = np.random.default_rng(50 + seed).standard_normal((1, 3, 12, 12)).astype(np.float32) * (1 + seed)
        outs = []
        for L in (plain, fused):
            h = HostProgram(L.blob, L.program)
            recv = h.recv_tensors()[0]
            h.run({recv: quantize(x, *q["x"])})
            outs.append(h.view(L.index["y"]).tobytes())
        assert outs[0] == outs[1]
