"""Kernel tests against ONNX Runtime.

float32: the C kernels within 1e-5 of ORT. int8: the C kernels within 1 LSB of
ORT's quantized result for the same quantization (a QDQ model carrying the
lowering's scales, zero points, per-channel weights and biases).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import lower
from tests.support.reference import qdq_model

RNG = np.random.default_rng(1234)


def vi(name: str, shape: list[int]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def model(nodes: list[onnx.NodeProto], inputs: dict[str, list[int]], outputs: list[str],
          inits: dict[str, np.ndarray] | None = None, opset: int = 17) -> onnx.ModelProto:
    g = helper.make_graph(nodes, "k", [vi(k, v) for k, v in inputs.items()],
                          [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in (inits or {}).items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def w(*shape: int, s: float = 0.4) -> np.ndarray:
    return (RNG.standard_normal(shape) * s).astype(np.float32)


def conv(x: str, y: str, wshape: tuple[int, ...], bias: bool = True, **attrs: object) -> tuple[list, dict]:
    inits = {f"{y}_W": w(*wshape)}
    ins = [x, f"{y}_W"]
    if bias:
        inits[f"{y}_B"] = w(wshape[0], s=0.2)
        ins.append(f"{y}_B")
    return [helper.make_node("Conv", ins, [y], name=f"{y}_conv", **attrs)], inits


def case_conv(**attrs: object) -> Callable[[], tuple[onnx.ModelProto, dict[str, np.ndarray]]]:
    def make() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        g = int(attrs.get("group", 1))  # type: ignore[call-overload]
        cin, cout = (6, 6) if g > 1 else (3, 5)
        k = attrs.pop("k", 3) if "k" in attrs else 3
        nodes, inits = conv("x", "y", (cout, cin // g, k, k), **attrs)  # type: ignore[arg-type]
        return model(nodes, {"x": [1, cin, 9, 10]}, ["y"], inits), {"x": w(1, cin, 9, 10, s=1.0)}
    return make


def case_conv_act(act: str) -> Callable[[], tuple[onnx.ModelProto, dict[str, np.ndarray]]]:
    def make() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        nodes, inits = conv("x", "c", (4, 3, 3, 3), pads=[1, 1, 1, 1])
        if act == "Relu":
            nodes.append(helper.make_node("Relu", ["c"], ["y"], name="act"))
        else:
            inits["lo"], inits["hi"] = np.array(0, np.float32), np.array(6, np.float32)
            nodes.append(helper.make_node("Clip", ["c", "lo", "hi"], ["y"], name="act"))
        return model(nodes, {"x": [1, 3, 6, 6]}, ["y"], inits), {"x": w(1, 3, 6, 6, s=3.0)}
    return make


def case_unary(op: str, **attrs: object) -> Callable[[], tuple[onnx.ModelProto, dict[str, np.ndarray]]]:
    def make() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        inits: dict[str, np.ndarray] = {}
        ins = ["x"]
        if op == "Clip":
            inits = {"lo": np.array(-1.0, np.float32), "hi": np.array(2.5, np.float32)}
            ins = ["x", "lo", "hi"]
        n = helper.make_node(op, ins, ["y"], name="op", **attrs)
        return model([n], {"x": [2, 3, 4, 5]}, ["y"], inits), {"x": w(2, 3, 4, 5, s=2.5)}
    return make


def case_pool(op: str, **attrs: object) -> Callable[[], tuple[onnx.ModelProto, dict[str, np.ndarray]]]:
    def make() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        n = helper.make_node(op, ["x"], ["y"], name="pool", **attrs)
        return model([n], {"x": [1, 4, 9, 8]}, ["y"]), {"x": w(1, 4, 9, 8, s=2.0)}
    return make


def case_binary(op: str, bshape: list[int], const: bool = False,
                relu: bool = False) -> Callable[[], tuple[onnx.ModelProto, dict[str, np.ndarray]]]:
    def make() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        out = "s" if relu else "y"
        nodes = [helper.make_node(op, ["a", "b"], [out], name="bin")]
        if relu:
            nodes.append(helper.make_node("Relu", ["s"], ["y"], name="relu"))
        inputs = {"a": [1, 4, 5, 6]}
        feed = {"a": w(1, 4, 5, 6, s=2.0)}
        inits = {}
        if const:
            inits["b"] = w(*bshape, s=1.5)
        else:
            inputs["b"] = bshape
            feed["b"] = w(*bshape, s=1.0)
        return model(nodes, inputs, ["y"], inits), feed
    return make


def case_gemm(trans_b: int, alpha: float = 1.0, beta: float = 1.0) -> Callable:
    def make() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        wt = w(7, 12) if trans_b else w(12, 7)
        n = helper.make_node("Gemm", ["x", "W", "C"], ["y"], name="gemm", transB=trans_b, alpha=alpha, beta=beta)
        return model([n], {"x": [3, 12]}, ["y"], {"W": wt, "C": w(7)}), {"x": w(3, 12, s=1.0)}
    return make


def case_matmul_const() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    n = helper.make_node("MatMul", ["x", "W"], ["y"], name="mm")
    return model([n], {"x": [2, 3, 8]}, ["y"], {"W": w(8, 5)}), {"x": w(2, 3, 8, s=1.0)}


def case_matmul_dyn() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    n = helper.make_node("MatMul", ["a", "b"], ["y"], name="mm")
    return model([n], {"a": [2, 3, 4], "b": [2, 4, 5]}, ["y"]), {"a": w(2, 3, 4, s=1.0), "b": w(2, 4, 5, s=1.0)}


def case_softmax() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    n = helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=-1)
    return model([n], {"x": [3, 10]}, ["y"]), {"x": w(3, 10, s=3.0)}


def case_reshape_flatten() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    nodes = [helper.make_node("Flatten", ["x"], ["f"], name="flat", axis=1),
             helper.make_node("Reshape", ["f", "shape"], ["y"], name="rs")]
    return (model(nodes, {"x": [2, 3, 2, 2]}, ["y"], {"shape": np.array([2, 2, 6], np.int64)}),
            {"x": w(2, 3, 2, 2, s=1.0)})


def case_concat() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    n1, i1 = conv("x", "c1", (3, 2, 1, 1))
    n2, i2 = conv("x", "c2", (4, 2, 3, 3), pads=[1, 1, 1, 1])
    cat = helper.make_node("Concat", ["c1", "c2"], ["y"], name="cat", axis=1)
    return model(n1 + n2 + [cat], {"x": [1, 2, 5, 5]}, ["y"], {**i1, **i2}), {"x": w(1, 2, 5, 5, s=1.0)}


CASES: dict[str, Callable[[], tuple[onnx.ModelProto, dict[str, np.ndarray]]]] = {
    "conv3x3_pad1": case_conv(pads=[1, 1, 1, 1]),
    "conv_stride2_asym_pad": case_conv(strides=[2, 2], pads=[0, 1, 1, 0]),
    "conv_dilation2": case_conv(dilations=[2, 2], pads=[2, 2, 2, 2]),
    "conv_nobias_5x5": case_conv(k=5, pads=[2, 2, 2, 2], bias=False),
    "conv_depthwise": case_conv(group=6, pads=[1, 1, 1, 1]),
    "conv_grouped": case_conv(group=2, strides=[2, 1], pads=[1, 1, 1, 1]),
    "conv_same_upper": case_conv(auto_pad="SAME_UPPER", strides=[2, 2]),
    "conv_relu_fused": case_conv_act("Relu"),
    "conv_relu6_fused": case_conv_act("Clip"),
    "gemm_transB": case_gemm(1),
    "gemm_alpha_beta": case_gemm(0, alpha=0.5, beta=2.0),
    "matmul_const": case_matmul_const,
    "matmul_dynamic": case_matmul_dyn,
    "maxpool2x2": case_pool("MaxPool", kernel_shape=[2, 2], strides=[2, 2]),
    "maxpool3x3_pad": case_pool("MaxPool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
    "avgpool_excl_pad": case_pool("AveragePool", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    "avgpool_incl_pad": case_pool("AveragePool", kernel_shape=[3, 2], strides=[2, 2], pads=[1, 1, 1, 1],
                                  count_include_pad=1),
    "global_avgpool": case_pool("GlobalAveragePool"),
    "add_same": case_binary("Add", [1, 4, 5, 6]),
    "add_bcast_channel": case_binary("Add", [1, 4, 1, 1]),
    "add_const_relu": case_binary("Add", [6], const=True, relu=True),
    "mul_bcast": case_binary("Mul", [4, 1, 6]),
    "mul_const_scalar": case_binary("Mul", [1], const=True),
    "relu": case_unary("Relu"),
    "clip": case_unary("Clip"),
    "sigmoid": case_unary("Sigmoid"),
    "tanh": case_unary("Tanh"),
    "softmax": case_softmax,
    "reshape_flatten": case_reshape_flatten,
    "concat": case_concat,
}


def run_c(L, feed: dict[str, np.ndarray]) -> HostProgram:  # type: ignore[no-untyped-def]
    h = HostProgram(L.blob, L.program)
    h.run({L.float_index[k]: v for k, v in feed.items()})
    return h


@pytest.mark.parametrize("name", sorted(CASES))
def test_float32_within_1e5_of_ort(name: str) -> None:
    m, feed = CASES[name]()
    ref = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(["y"], feed)[0]
    L = lower(m, precision="fp32", calib=[feed])
    h = run_c(L, feed)
    got = h.view(L.float_index["y"])
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_int8_within_1_lsb_of_ort_qdq(name: str) -> None:
    m, feed = CASES[name]()
    calib = [feed] + [{k: v * f for k, v in feed.items()} for f in (0.5, -0.8)]
    L = lower(m, precision="int8", calib=calib)
    h = run_c(L, feed)
    got = h.view(L.index["y"])
    if got.dtype == np.float32:  # float-only op (dynamic MatMul) or a lossless float copy
        ref_f = ort.InferenceSession(m.SerializeToString()).run(["y"], feed)[0]
        np.testing.assert_allclose(got, ref_f, rtol=1e-5, atol=1e-5)
        return
    qm, qnames = qdq_model(L)
    sess = ort.InferenceSession(qm.SerializeToString(), providers=["CPUExecutionProvider"])
    ref = sess.run([qnames["y"]], feed)[0]
    assert got.dtype == np.int8
    diff = np.abs(got.astype(np.int32) - ref.astype(np.int32))
    assert diff.max() <= 1, f"{name}: max diff {diff.max()} LSB ({(diff > 1).sum()} elements)"


def test_int8_program_is_smaller_than_float() -> None:
    m, feed = CASES["conv3x3_pad1"]()
    assert len(lower(m, precision="int8", calib=[feed]).blob) < len(lower(m, precision="fp32", calib=[feed]).blob)
