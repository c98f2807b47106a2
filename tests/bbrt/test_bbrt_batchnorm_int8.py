"""int8 BatchNormalization on the C runtime (host build): folded into the Conv/Gemm before it, or a float32
per-channel scale and shift between DEQUANTIZE and QUANTIZE when it stands alone.

Oracle: ONNX Runtime on the float model, relative to the output's largest magnitude, against the int8
tolerance the build uses (bundle.artifacts.TOLERANCE["int8"]); the folded programs also hold no op for the
BatchNormalization at all.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt.format import Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import lower
from bb_edge.bundle.artifacts import TOLERANCE


def _bn(rng: np.random.Generator, name: str, c: int) -> dict[str, np.ndarray]:
    return {f"{name}_s": rng.uniform(0.5, 2.0, c).astype(np.float32),
            f"{name}_b": rng.standard_normal(c).astype(np.float32),
            f"{name}_m": rng.standard_normal(c).astype(np.float32),
            f"{name}_v": rng.uniform(0.2, 3.0, c).astype(np.float32)}


def _bn_node(x: str, name: str, y: str) -> onnx.NodeProto:
    return helper.make_node("BatchNormalization", [x, f"{name}_s", f"{name}_b", f"{name}_m", f"{name}_v"], [y],
                            name=name, epsilon=1e-3)


def _model(nodes: list[onnx.NodeProto], xshape: list[int], inits: dict[str, np.ndarray],
           outputs: tuple[str, ...] = ("y",)) -> onnx.ModelProto:
    g = helper.make_graph(nodes, "m", [helper.make_tensor_value_info("x", TensorProto.FLOAT, xshape)],
                          [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _int8_vs_ort(m: onnx.ModelProto, xshape: list[int], seed: int = 0) -> tuple[float, set[Op]]:
    rng = np.random.default_rng(seed)
    xs = [rng.standard_normal(xshape).astype(np.float32) for _ in range(8)]
    L = lower(m, precision="int8", calib=[{"x": x} for x in xs])
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    h = HostProgram(L.blob, L.program)
    worst = 0.0
    for x in xs:
        h.run({L.float_index["x"]: x})
        for o in m.graph.output:
            ref = sess.run([o.name], {"x": x})[0]
            got = h.view(L.float_index[o.name]).reshape(ref.shape)
            worst = max(worst, float(np.abs(got - ref).max() / np.abs(ref).max()))
    return worst, {op.opcode for op in L.program.ops}


def test_conv_batchnorm_relu_folds_into_one_int8_conv() -> None:
    rng = np.random.default_rng(1)
    inits = {"W": (0.3 * rng.standard_normal((6, 3, 3, 3))).astype(np.float32),
             "Cb": rng.standard_normal(6).astype(np.float32), **_bn(rng, "bn", 6)}
    m = _model([helper.make_node("Conv", ["x", "W", "Cb"], ["c"], name="conv", pads=[1, 1, 1, 1]),
                _bn_node("c", "bn", "b"), helper.make_node("Relu", ["b"], ["y"], name="relu")], [1, 3, 8, 8], inits)
    err, ops = _int8_vs_ort(m, [1, 3, 8, 8])
    print(f"int8 Conv+BatchNormalization+Relu (folded): {err:.1e} relative to ORT float")
    assert ops == {Op.QUANTIZE, Op.CONV_I8, Op.DEQUANTIZE}  # the BatchNormalization and the Relu are in the conv
    assert err <= 0.05, err


@pytest.mark.parametrize("trans_b,bias_shape", [(1, [4]), (0, [1, 4]), (1, None)])
def test_gemm_batchnorm_folds_into_one_int8_fc(trans_b: int, bias_shape: list[int] | None) -> None:
    rng = np.random.default_rng(2)
    w = (0.3 * rng.standard_normal((4, 10) if trans_b else (10, 4))).astype(np.float32)
    inits = {"W": w, **_bn(rng, "bn", 4)}
    ins = ["x", "W"]
    if bias_shape is not None:
        inits["C"] = rng.standard_normal(bias_shape).astype(np.float32)
        ins.append("C")
    m = _model([helper.make_node("Gemm", ins, ["g"], name="fc", transB=trans_b, alpha=0.7, beta=1.5),
                _bn_node("g", "bn", "y")], [1, 10], inits)
    err, ops = _int8_vs_ort(m, [1, 10])
    print(f"int8 Gemm(transB={trans_b}, bias {bias_shape})+BatchNormalization (folded): {err:.1e}")
    assert ops == {Op.QUANTIZE, Op.FC_I8, Op.DEQUANTIZE}
    assert err <= 0.05, err


def test_standalone_batchnorm_runs_float32_between_dequantize_and_quantize() -> None:
    """An input BatchNormalization (no conv before it), and one after a conv whose output is also a graph
    output (folding would change that output): each a float32 Mul and Add, the rest int8."""
    rng = np.random.default_rng(3)
    inits = {"W": (0.3 * rng.standard_normal((5, 3, 1, 1))).astype(np.float32), **_bn(rng, "bn0", 3),
             **_bn(rng, "bn1", 5)}
    m = _model([_bn_node("x", "bn0", "x1"), helper.make_node("Conv", ["x1", "W"], ["c"], name="conv"),
                _bn_node("c", "bn1", "y")], [1, 3, 4, 4], inits, outputs=("y", "c"))
    err, ops = _int8_vs_ort(m, [1, 3, 4, 4])
    print(f"int8 standalone BatchNormalization (float32 scale+shift): {err:.1e}")
    assert {Op.MUL_F32, Op.ADD_F32, Op.CONV_I8, Op.QUANTIZE, Op.DEQUANTIZE} <= ops
    assert err <= TOLERANCE["int8"] / 3, err


def test_hard_swish_and_hardsigmoid_after_a_folded_batchnorm_are_int8_tables() -> None:
    """PaddleOCR's blocks: Conv+BatchNormalization, hard-swish as Add(3), Clip(0, 6), Mul, Div(6), then
    HardSigmoid. Div by a scalar constant and HardSigmoid are one LUT_I8 each (a single rounding)."""
    rng = np.random.default_rng(4)
    inits = {"W": (0.3 * rng.standard_normal((4, 3, 3, 3))).astype(np.float32), **_bn(rng, "bn", 4),
             "three": np.array(3.0, np.float32), "zero": np.array(0.0, np.float32),
             "six": np.array(6.0, np.float32), "six_d": np.array([6.0], np.float32)}
    m = _model([helper.make_node("Conv", ["x", "W"], ["c"], name="conv", pads=[1, 1, 1, 1]),
                _bn_node("c", "bn", "b"),
                helper.make_node("Add", ["b", "three"], ["b3"], name="add3"),
                helper.make_node("Clip", ["b3", "zero", "six"], ["cl"], name="relu6"),
                helper.make_node("Mul", ["b", "cl"], ["mu"], name="mul"),
                helper.make_node("Div", ["mu", "six_d"], ["hs"], name="div6"),
                helper.make_node("HardSigmoid", ["hs"], ["y"], name="hsig", alpha=0.2, beta=0.5)],
               [1, 3, 6, 6], inits)
    err, ops = _int8_vs_ort(m, [1, 3, 6, 6])
    print(f"int8 Conv+BN+hard-swish+HardSigmoid: {err:.1e} relative to ORT float")
    assert Op.LUT_I8 in ops and not ops & {Op.MUL_F32, Op.ADD_F32}
    assert err <= 0.05, err
