"""MAXIMUM/MINIMUM, PRELU and RESIZE_BILINEAR against the TFLite interpreter's reference kernels (BUILTIN_REF).

Each test writes a small int8 .tflite with the schema package's builder (tests/support/tflite_build.py), runs
it through bb-edge (translation, lowering, the host build of bbrt) and checks every output byte equals the
interpreter's. The kernels: MAXMIN_I8 (raw bytes compared), PRELU_I8 (TFLite's two multipliers, two roundings
each), RESIZE_BILINEAR_I8 (TFLite's 10-bit source coordinates, rounded half away from zero).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from bb_edge.bbrt.format import RECV, SEND, Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import lower
from bb_edge.tflite import tflite_to_onnx
from bb_edge.tflite.errors import TfliteUnsupportedError
from tests.support.mlperf import qemu_arm_run
from tests.support.op_models import tconv_model
from tests.support.tflite_build import M, O, T, act, build, int8_ops_chain
from tests.support.tflite_oracle import bbrt_outputs, interpreter_outputs, interpreter_two, two_inputs

S, Z = 0.06, -9


@pytest.mark.parametrize("op", ["MAXIMUM", "MINIMUM"])
@pytest.mark.parametrize("sa,sb", [((1, 4, 5, 3), (1, 4, 5, 3)), ((1, 4, 5, 3), (1, 1, 1, 3)),
                                   ((1, 4, 5, 3), (1, 4, 1, 1)), ((2, 6), (6,))])
def test_maximum_minimum_broadcast(op: str, sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    """Two activations, the second broadcast (per channel, per row, a lower rank)."""
    rng = np.random.default_rng(sum(sa) + len(sb))
    ys = tuple(max(a, b) for a, b in zip(sa, (1,) * (len(sa) - len(sb)) + sb, strict=True))
    tens = [act("a", sa, S, Z), act("b", sb, S, Z), act("y", ys, S, Z)]
    data = build(M(tens, [O(op, [0, 1], [2], None)], [0, 1], [2]))
    two_inputs(data, rng.integers(-128, 128, sa).astype(np.int8), rng.integers(-128, 128, sb).astype(np.int8))


@pytest.mark.parametrize("op", ["MAXIMUM", "MINIMUM"])
def test_maximum_minimum_with_a_constant(op: str) -> None:
    """max(x, c) / min(x, c) with a per-channel constant (a clamp a converter did not fold)."""
    c = np.array([-128, 0, 40, 127], np.int8)
    tens = [act("x", (1, 5, 6, 4), S, Z), T("c", (4,), "INT8", c, [S], [Z]), act("y", (1, 5, 6, 4), S, Z)]
    data = build(M(tens, [O(op, [0, 1], [2], None)], [0], [2]))
    x = np.random.default_rng(3).integers(-128, 128, (3, 5, 6, 4)).astype(np.int8)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))


def test_maximum_of_differing_parameters_is_refused() -> None:
    tens = [act("a", (1, 8), S, Z), act("b", (1, 8), 0.1, Z), act("y", (1, 8), S, Z)]
    with pytest.raises(TfliteUnsupportedError, match="MAXIMUM"):
        tflite_to_onnx(build(M(tens, [O("MAXIMUM", [0, 1], [2], None)], [0, 1], [2])))


PRELU = [  # (x shape, alpha shape, s_x, z_x, s_alpha, z_alpha, s_y, z_y)
    ((1, 6, 7, 5), (1, 1, 5), 0.05, -3, 0.01, 0, 0.04, 10),  # per-channel slope (Keras' shared H, W axes)
    ((1, 6, 7, 5), (5,), 0.2, 100, 0.004, -20, 0.03, -128),  # saturates
    ((1, 4, 3, 6), (1, 4, 3, 6), 0.03, 0, 0.02, 5, 0.05, -1),  # a slope per element
    ((1, 2, 10), (10,), 0.07, -50, 0.03, 60, 0.09, 3),  # 3-D
]


@pytest.mark.parametrize("k", range(len(PRELU)))
def test_prelu(k: int) -> None:
    xs, als, sx, zx, sa, za, sy, zy = PRELU[k]
    rng = np.random.default_rng(20 + k)
    alpha = rng.integers(-128, 128, als).astype(np.int8)
    tens = [act("x", xs, sx, zx), T("alpha", als, "INT8", alpha, [sa], [za]), act("y", xs, sy, zy)]
    data = build(M(tens, [O("PRELU", [0, 1], [2], None)], [0], [2]))
    x = rng.integers(-128, 128, (3, *xs[1:])).astype(np.int8)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))


def test_prelu_alpha_an_activation() -> None:
    """The slope a second graph input (broadcast per channel)."""
    tens = [act("a", (1, 4, 5, 3), 0.05, 7), act("b", (1, 1, 1, 3), 0.02, -4), act("y", (1, 4, 5, 3), 0.03, 2)]
    data = build(M(tens, [O("PRELU", [0, 1], [2], None)], [0, 1], [2]))
    rng = np.random.default_rng(9)
    two_inputs(data, rng.integers(-128, 128, (1, 4, 5, 3)).astype(np.int8),
               rng.integers(-128, 128, (1, 1, 1, 3)).astype(np.int8))


@pytest.mark.parametrize("hw,size,ac,hp", [
    ((4, 5), (8, 10), False, False),  # 2x up
    ((4, 5), (7, 9), True, False),  # align_corners
    ((4, 5), (9, 11), False, True),  # half_pixel_centers (extrapolates at the edges)
    ((6, 8), (3, 5), False, False),  # down
    ((6, 8), (4, 3), False, True),
    ((3, 3), (1, 6), True, False),  # one output row with align_corners
])
def test_resize_bilinear(hw: tuple[int, int], size: tuple[int, int], ac: bool, hp: bool) -> None:
    tens = [act("x", (1, *hw, 3), S, Z), T("size", (2,), "INT32", np.array(size, np.int32)),
            act("y", (1, *size, 3), S, Z)]
    opts = ("ResizeBilinearOptions", {"AlignCorners": ac, "HalfPixelCenters": hp})
    data = build(M(tens, [O("RESIZE_BILINEAR", [0, 1], [2], opts)], [0], [2]))
    x = np.random.default_rng(hw[0] * 7 + size[1]).integers(-128, 128, (4, *hw, 3)).astype(np.int8)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))


def test_chain_on_qemu_cortex_m4_equals_the_interpreter(tmp_path: Path) -> None:
    """PRELU (per-channel slope) -> MAXIMUM with a constant -> RESIZE_BILINEAR (half_pixel_centers) ->
    MINIMUM with the PRELU output's resize -> TRANSPOSE_CONV (stride 2) -> BATCH_MATMUL by a constant on QEMU
    Cortex-M4: every byte equals BUILTIN_REF's (the new kernels, CONV_I8's two-rounding path and their loader
    checks built for the M4 with -Werror)."""
    data = int8_ops_chain()
    x = np.random.default_rng(12).integers(-128, 128, (3, 4, 6, 5)).astype(np.int8)
    want = interpreter_outputs(data, x, reference=True)
    L = lower(tflite_to_onnx(data), io_edges=None)
    assert {Op.PRELU_I8, Op.MAXMIN_I8, Op.RESIZE_BILINEAR_I8, Op.CONV_I8, Op.BATCH_MATMUL_I8} <= L.ops_used
    got, _, _ = qemu_arm_run(L, x, tmp_path, kind="cortex-m4")
    np.testing.assert_array_equal(got.reshape(want.shape), want)
    assert len(np.unique(want)) > 50  # not a saturated constant


@pytest.mark.parametrize("hw,k,s,padding,kw", [
    ((4, 5), (3, 3), 2, 0, {}),  # SAME, the usual 2x decoder upsampling
    ((4, 5), (3, 3), 2, 1, {"activation": 1}),  # VALID, fused RELU
    ((3, 3), (2, 2), 2, 1, {"per_channel": False}),
    ((4, 4), (3, 3), 1, 0, {"bias": False, "activation": 3}),  # stride 1, RELU6, no bias
    ((3, 4), (4, 2), 2, 0, {}),  # a non-square kernel
    ((5, 5), (5, 5), 3, 0, {"cin": 2, "cout": 6}),
    ((4, 3), (3, 3), 2, 1, {"out_hw": (10, 8)}),  # an output a row and a column past VALID's (bias only there)
])
def test_transpose_conv(hw: tuple[int, int], k: tuple[int, int], s: int, padding: int, kw: dict) -> None:
    """Bit-exact with BUILTIN_REF (two roundings; the default resolver's kernel rounds once and differs by one
    LSB on 1-7 of these outputs)."""
    data = tconv_model(hw, k, s, padding, **kw)
    x = np.random.default_rng(hw[0] + 10 * k[1]).integers(-128, 128, (4, *hw, kw.get("cin", 3))).astype(np.int8)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))


BMM = [  # (a shape, b shape, adj_x, adj_y, b constant)
    ((1, 24, 16), (1, 16, 30), False, False, False),
    ((1, 16, 24), (1, 30, 16), True, True, False),  # adj_x, adj_y
    ((1, 24, 16), (16, 30), False, False, True),  # constant weights of a lower rank (broadcast over the batch)
    ((1, 3, 12, 16), (1, 3, 16, 20), False, False, False),  # 4-D (attention heads)
    ((1, 2, 12, 7), (1, 1, 20, 7), False, True, False),  # a broadcast batch dim, adj_y
]


@pytest.mark.parametrize("k", range(len(BMM)))
def test_batch_matmul(k: int) -> None:
    """Operands and output with their own scales and zero points; the last case's output saturates."""
    xa, xb, adj_x, adj_y, const = BMM[k]
    rng = np.random.default_rng(40 + k)
    ea, eb = list(xa), list(xb)
    if adj_x:
        ea[-2], ea[-1] = ea[-1], ea[-2]
    if adj_y:
        eb[-2], eb[-1] = eb[-1], eb[-2]
    r = max(len(xa), len(xb))
    fa, fb = [1] * (r - len(ea)) + ea, [1] * (r - len(eb)) + eb
    ys = tuple(max(p, q) for p, q in zip(fa[:-2], fb[:-2], strict=True)) + (ea[-2], eb[-1])
    wb = rng.integers(-128, 128, xb).astype(np.int8)
    tb = T("b", xb, "INT8", wb, [0.02], [-7]) if const else act("b", xb, 0.02, -7)
    tens = [act("a", xa, 0.05, 12), tb, act("y", ys, 0.01 if k == 4 else 0.3, -3)]
    opts = ("BatchMatMulOptions", {"AdjX": adj_x, "AdjY": adj_y})
    xa_v = rng.integers(-128, 128, xa).astype(np.int8)
    if const:
        data = build(M(tens, [O("BATCH_MATMUL", [0, 1], [2], opts)], [0], [2]))
        x = rng.integers(-128, 128, (3, *xa[1:])).astype(np.int8)
        np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))
    else:
        data = build(M(tens, [O("BATCH_MATMUL", [0, 1], [2], opts)], [0, 1], [2]))
        two_inputs(data, xa_v, rng.integers(-128, 128, xb).astype(np.int8))


def test_qdq_matmul_of_two_activations_equals_batch_matmul() -> None:
    """An ONNX QDQ model's DQ -> MatMul -> Q of two int8 activations (a QDQ converter's attention product)
    lowers to BATCH_MATMUL_I8: its bytes equal the TFLite interpreter's BATCH_MATMUL with the same parameters."""
    (sa, za), (sb, zb), (sy, zy) = (0.05, 12), (0.02, -7), (0.3, -3)
    inits = [helper.make_tensor(n, TensorProto.FLOAT, [], [v]) for n, v in (("sa", sa), ("sb", sb), ("sy", sy))]
    inits += [helper.make_tensor(n, TensorProto.INT8, [], [v]) for n, v in (("za", za), ("zb", zb), ("zy", zy))]
    g = helper.make_graph([helper.make_node("DequantizeLinear", ["a", "sa", "za"], ["af"], name="dqa"),
                           helper.make_node("DequantizeLinear", ["b", "sb", "zb"], ["bf"], name="dqb"),
                           helper.make_node("MatMul", ["af", "bf"], ["yf"], name="mm"),
                           helper.make_node("QuantizeLinear", ["yf", "sy", "zy"], ["y"], name="q")], "qdq_mm",
                          [helper.make_tensor_value_info("a", TensorProto.INT8, [2, 24, 16]),
                           helper.make_tensor_value_info("b", TensorProto.INT8, [2, 16, 30])],
                          [helper.make_tensor_value_info("y", TensorProto.INT8, [2, 24, 30])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    L = lower(m, io_edges=None)
    assert Op.BATCH_MATMUL_I8 in L.ops_used
    rng = np.random.default_rng(50)
    xa, xb = rng.integers(-128, 128, (2, 24, 16)).astype(np.int8), rng.integers(-128, 128, (2, 16, 30)).astype(np.int8)
    hp = HostProgram(L.blob, L.program)
    recv = [e.tensor for e in L.program.edges if e.direction == RECV]
    hp.run({recv[0]: xa, recv[1]: xb})
    got = hp.view(next(e.tensor for e in L.program.edges if e.direction == SEND)).reshape(2, 24, 30)
    data = build(M([act("a", (2, 24, 16), sa, za), act("b", (2, 16, 30), sb, zb), act("y", (2, 24, 30), sy, zy)],
                   [O("BATCH_MATMUL", [0, 1], [2], None)], [0, 1], [2]))
    np.testing.assert_array_equal(got, interpreter_two(data, xa, xb))
