"""One test per translated TFLite data-movement op, MAX_POOL_2D and int8 QUANTIZE, against the TFLite
interpreter (ai-edge-litert): every output byte of the host build must equal the interpreter's.

Models are written with the schema package's builder (tests/support/tflite_build.py); the input is a
4-D NHWC int8 tensor where the op allows it, so the translator's NCHW axis mapping is exercised too.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.tflite_build import M, O, T, act, build
from tests.support.tflite_oracle import bbrt_outputs, interpreter_outputs, random_input

S, Z = 0.07, -5  # one pair of parameters the movement ops keep


def check(data: bytes, n: int = 4) -> None:
    x = random_input(data, n)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))


def i32(name: str, values: list[int] | np.ndarray) -> T:
    v = np.array(values, np.int32)
    return T(name, v.shape, "INT32", v)


def one(op: str, x_shape: tuple[int, ...], y_shape: tuple[int, ...], consts: list[T],
        options: tuple[str, dict] | None = None) -> bytes:
    """x -> op(x, consts...) -> y."""
    tens = [act("x", x_shape, S, Z), *consts, act("y", y_shape, S, Z)]
    ins = [0, *range(1, 1 + len(consts))]
    return build(M(tens, [O(op, ins, [len(tens) - 1], options)], [0], [len(tens) - 1]))


@pytest.mark.parametrize("perm", [[0, 3, 1, 2], [0, 2, 1, 3], [0, 3, 2, 1]])
def test_transpose(perm: list[int]) -> None:
    xs = (1, 3, 4, 5)
    check(one("TRANSPOSE", xs, tuple(xs[p] for p in perm), [i32("perm", perm)]))


def test_transpose_3d() -> None:
    check(one("TRANSPOSE", (1, 6, 7), (1, 7, 6), [i32("perm", [0, 2, 1])]))


@pytest.mark.parametrize("axis", [3, 1, -2])
def test_concatenation(axis: int) -> None:
    """x concatenated with itself along ``axis`` (NHWC axis mapped to the NCHW value's)."""
    xs = (1, 4, 4, 3)
    ys = list(xs)
    ys[axis] *= 2
    tens = [act("x", xs, S, Z), act("y", tuple(ys), S, Z)]
    check(build(M(tens, [O("CONCATENATION", [0, 0], [1], ("ConcatenationOptions", {"Axis": axis}))], [0], [1])))


@pytest.mark.parametrize("op", ["PAD", "PADV2"])
def test_pad(op: str) -> None:
    pads = [[0, 0], [1, 2], [0, 3], [2, 1]]
    xs = (1, 3, 4, 2)
    ys = tuple(d + a + b for d, (a, b) in zip(xs, pads, strict=True))
    consts = [i32("pads", pads)]
    if op == "PADV2":
        consts.append(T("value", (1,), "INT8", np.array([17], np.int8), [S], [Z]))
    check(one(op, xs, ys, consts))


@pytest.mark.parametrize("begin,end,strides,bm,em,sm,ys", [
    ([0, 1, 0, 1], [1, 4, 5, 3], [1, 1, 2, 1], 0, 0, 0, (1, 3, 3, 2)),
    ([0, -1, 4, 0], [1, 0, 0, 3], [1, -1, -2, 1], 0, 0, 0, (1, 4, 2, 3)),
    ([0, 2, 0, 0], [1, 3, 5, 3], [1, 1, 1, 1], 0, 15 - 2, 2, (1, 5, 3)),
])
def test_strided_slice(begin: list[int], end: list[int], strides: list[int], bm: int, em: int, sm: int,
                       ys: tuple[int, ...]) -> None:
    check(one("STRIDED_SLICE", (1, 5, 5, 3), ys, [i32("b", begin), i32("e", end), i32("s", strides)],
              ("StridedSliceOptions", {"BeginMask": bm, "EndMask": em, "ShrinkAxisMask": sm})))


@pytest.mark.parametrize("axis,idx", [(3, [2, 0, 1, 1]), (1, [3, 0]), (2, [[0, 1], [2, 0]])])
def test_gather(axis: int, idx: list) -> None:
    xs = (1, 4, 3, 3)
    ind = np.array(idx, np.int32)
    ys = xs[:axis] + ind.shape + xs[axis + 1:]
    check(one("GATHER", xs, ys, [T("i", ind.shape, "INT32", ind)], ("GatherOptions", {"Axis": axis})))


def test_split_then_concatenation_reversed() -> None:
    """SPLIT in three along the channels, the parts concatenated back in the other order."""
    tens = [i32("axis", [3]), act("x", (1, 2, 3, 6), S, Z), *[act(f"p{k}", (1, 2, 3, 2), S, Z) for k in range(3)],
            act("y", (1, 2, 3, 6), S, Z)]
    check(build(M(tens, [O("SPLIT", [0, 1], [2, 3, 4], ("SplitOptions", {"NumSplits": 3})),
                         O("CONCATENATION", [4, 2, 3], [5], ("ConcatenationOptions", {"Axis": 3}))], [1], [5])))


def test_unpack_then_pack_on_another_axis() -> None:
    """UNPACK along H, PACK the rows back along W (a transpose made of both)."""
    tens = [act("x", (1, 3, 4, 2), S, Z), *[act(f"r{k}", (1, 4, 2), S, Z) for k in range(3)],
            act("y", (1, 4, 3, 2), S, Z)]
    check(build(M(tens, [O("UNPACK", [0], [1, 2, 3], ("UnpackOptions", {"Num": 3, "Axis": 1})),
                         O("PACK", [1, 2, 3], [4], ("PackOptions", {"ValuesCount": 3, "Axis": 2}))], [0], [4])))


@pytest.mark.parametrize("padding,k,stride,activation", [(0, 2, 2, 0), (1, 3, 2, 0), (0, 3, 1, 1), (1, 2, 1, 3)])
def test_max_pool_2d(padding: int, k: int, stride: int, activation: int) -> None:
    h, w = 7, 8
    oh = (h + stride - 1) // stride if padding == 0 else (h - k) // stride + 1
    ow = (w + stride - 1) // stride if padding == 0 else (w - k) // stride + 1
    tens = [act("x", (1, h, w, 3), 0.05, 9), act("y", (1, oh, ow, 3), 0.05, 9)]
    check(build(M(tens, [O("MAX_POOL_2D", [0], [1], ("Pool2DOptions", {
        "Padding": padding, "StrideW": stride, "StrideH": stride, "FilterWidth": k, "FilterHeight": k,
        "FusedActivationFunction": activation}))], [0], [1])))


@pytest.mark.parametrize("hw,ac,hp", [((8, 6), False, False), ((10, 3), True, False), ((7, 12), False, True),
                                      ((2, 9), True, True)])
def test_resize_nearest_neighbor(hw: tuple[int, int], ac: bool, hp: bool) -> None:
    """Up- and down-sampling (from 5x7), align_corners and half_pixel_centers."""
    check(one("RESIZE_NEAREST_NEIGHBOR", (1, 5, 7, 3), (1, *hw, 3), [i32("size", list(hw))],
              ("ResizeNearestNeighborOptions", {"AlignCorners": ac, "HalfPixelCenters": hp})))


@pytest.mark.parametrize("s_out,z_out", [(0.05, 3), (0.3, -128), (0.07, -5), (0.01, 100)])
def test_quantize_int8_to_int8(s_out: float, z_out: int) -> None:
    """QUANTIZE of an int8 tensor (a requantization), all 256 input values at once, against the reference
    kernels (TFLM's Requantize; the default resolver's optimized kernel rounds otherwise in places)."""
    tens = [act("x", (1, 256), S, Z), act("y", (1, 256), s_out, z_out)]
    data = build(M(tens, [O("QUANTIZE", [0], [1], None)], [0], [1]))
    x = np.arange(-128, 128, dtype=np.int8).reshape(1, 256)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))


def test_qdq_transpose_between_quantized_tensors_lowers() -> None:
    """An ONNX QDQ model with DequantizeLinear -> Transpose -> QuantizeLinear between int8 tensors (a QDQ
    converter's form) lowers to TRANSPOSE, not UnsupportedQuantPattern; its bytes equal ONNX Runtime's."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    from bb_edge.bbrt.format import RECV, SEND, Op
    from bb_edge.bbrt.host import HostProgram
    from bb_edge.bbrt.lower import lower

    s = helper.make_tensor("s", TensorProto.FLOAT, [], [S])
    z = helper.make_tensor("z", TensorProto.INT8, [], [Z])
    g = helper.make_graph([helper.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"], name="dq"),
                           helper.make_node("Transpose", ["xf"], ["tf"], name="t", perm=[0, 2, 1]),
                           helper.make_node("QuantizeLinear", ["tf", "s", "z"], ["y"], name="q")], "qdq_t",
                          [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 5, 7])],
                          [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 7, 5])], [s, z])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    L = lower(m, io_edges=None)
    assert Op.TRANSPOSE in [o.opcode for o in L.program.ops]
    x = np.random.default_rng(4).integers(-128, 128, (1, 5, 7)).astype(np.int8)
    want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    hp = HostProgram(L.blob, L.program)
    hp.run({next(e.tensor for e in L.program.edges if e.direction == RECV): x})
    got = hp.view(next(e.tensor for e in L.program.edges if e.direction == SEND)).reshape(want.shape)
    np.testing.assert_array_equal(got, want)
