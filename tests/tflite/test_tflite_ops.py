"""One test per translated TFLite op against the TFLite interpreter (ai-edge-litert) on random int8 inputs.

Each model is written with the schema package's builder (tests/support/tflite_build.py) with its own
scales and zero points; bb-edge translates it, lowers it to bbrt and runs the host build; every output
byte must equal the interpreter's.
"""

from __future__ import annotations

import numpy as np
import pytest

from bb_edge.bbrt.format import RECV, SEND
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import lower
from bb_edge.tflite import tflite_to_onnx
from tests.support.tflite_build import M, O, T, act, build, conv_model
from tests.support.tflite_oracle import bbrt_outputs, interpreter_outputs, random_input


def check(data: bytes, n: int = 6) -> None:
    x = random_input(data, n)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x))


@pytest.mark.parametrize("padding,stride,activation,per_channel", [(0, 1, 1, True), (1, 2, 0, True),
                                                                   (0, 2, 3, False), (1, 1, 2, True)])
def test_conv_2d(padding: int, stride: int, activation: int, per_channel: bool) -> None:
    check(conv_model(padding=padding, stride=stride, activation=activation, per_channel=per_channel))


@pytest.mark.parametrize("padding,stride,activation", [(0, 1, 1), (1, 2, 0), (0, 2, 3)])
def test_depthwise_conv_2d(padding: int, stride: int, activation: int) -> None:
    check(conv_model(depthwise=True, padding=padding, stride=stride, activation=activation, cin=5))


@pytest.mark.parametrize("activation,bias", [(0, True), (1, True), (3, False)])
def test_fully_connected(activation: int, bias: bool) -> None:
    rng = np.random.default_rng(1)
    sx, sw = 0.04, 0.006
    tens = [act("x", (1, 24), sx, -7), T("w", (10, 24), "INT8", rng.integers(-127, 128, (10, 24)).astype(np.int8),
                                         [sw], [0]),
            T("b", (10,), "INT32", rng.integers(-3000, 3000, 10).astype(np.int32), [sx * sw], [0]),
            act("y", (1, 10), 0.1, 4)]
    ins = [0, 1, 2] if bias else [0, 1, -1]
    check(build(M(tens, [O("FULLY_CONNECTED", ins, [3], ("FullyConnectedOptions",
                                                         {"FusedActivationFunction": activation}))], [0], [3])))


def test_fully_connected_of_a_4d_input_flattens_in_nhwc_order() -> None:
    """A [1, 1, 1, C] input (an average pool's output) flattens as TFLite does."""
    rng = np.random.default_rng(2)
    tens = [act("x", (1, 1, 1, 16), 0.05, 0), T("w", (4, 16), "INT8", rng.integers(-127, 128, (4, 16)).astype(np.int8),
                                                [0.01], [0]),
            T("b", (4,), "INT32", np.arange(4, dtype=np.int32) * 100, [0.0005], [0]), act("y", (1, 4), 0.2, -3)]
    check(build(M(tens, [O("FULLY_CONNECTED", [0, 1, 2], [3], ("FullyConnectedOptions", {}))], [0], [3])))


@pytest.mark.parametrize("activation", [0, 1])
def test_add(activation: int) -> None:
    """TFLite's reference int8 ADD (BUILTIN_REF: TFLM's arithmetic) rounds each of its three requantizations
    twice (MultiplyByQuantizedMultiplierSmallerThanOneExp); without a fused RELU the negative halves show it."""
    tens = [act("a", (1, 4, 5, 3), 0.05, -3), act("b", (1, 4, 5, 3), 0.11, 7), act("y", (1, 4, 5, 3), 0.12, -1)]
    data = build(M(tens, [O("ADD", [0, 1], [2], ("AddOptions", {"FusedActivationFunction": activation}))],
                   [0, 1], [2]))
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    rng = np.random.default_rng(3)
    xa = rng.integers(-128, 128, (4, 4, 5, 3)).astype(np.int8)
    xb = rng.integers(-128, 128, (4, 4, 5, 3)).astype(np.int8)
    it = Interpreter(model_content=data, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    ia, ib = it.get_input_details()
    want = []
    for k in range(4):
        it.set_tensor(ia["index"], xa[k:k + 1])
        it.set_tensor(ib["index"], xb[k:k + 1])
        it.invoke()
        want.append(it.get_tensor(it.get_output_details()[0]["index"]).copy())
    L = lower(tflite_to_onnx(data, nchw_outputs=True), io_edges=None)
    hp = HostProgram(L.blob, L.program)
    recv = {e.tensor: e for e in L.program.edges if e.direction == RECV}
    by_name = {L.program.tensors[t].name: t for t in recv}
    sout = next(e.tensor for e in L.program.edges if e.direction == SEND)
    for k in range(4):  # the inputs go in NHWC (the device takes the transposed layout: input_perm)
        feeds = {by_name[n if n in by_name else f"{n}_nchw"]:
                 np.transpose(v[k:k + 1], L.input_perm.get(n, [0, 1, 2, 3])) for n, v in (("a", xa), ("b", xb))}
        hp.run(feeds)
        got = hp.view(sout).copy().reshape(1, 3, 4, 5).transpose(0, 2, 3, 1)
        np.testing.assert_array_equal(got, want[k])


@pytest.mark.parametrize("padding,k,stride", [(1, 2, 2), (0, 3, 2), (1, 4, 4)])
def test_average_pool_2d(padding: int, k: int, stride: int) -> None:
    h, w = 8, 7
    oh = (h + stride - 1) // stride if padding == 0 else (h - k) // stride + 1
    ow = (w + stride - 1) // stride if padding == 0 else (w - k) // stride + 1
    tens = [act("x", (1, h, w, 4), 0.07, -9), act("y", (1, oh, ow, 4), 0.07, -9)]
    check(build(M(tens, [O("AVERAGE_POOL_2D", [0], [1], ("Pool2DOptions", {
        "Padding": padding, "StrideW": stride, "StrideH": stride, "FilterWidth": k, "FilterHeight": k}))], [0], [1])))


def test_softmax() -> None:
    tens = [act("x", (1, 12), 0.11, 5), act("y", (1, 12), 1 / 256, -128)]
    check(build(M(tens, [O("SOFTMAX", [0], [1], ("SoftmaxOptions", {"Beta": 1.0}))], [0], [1])))


def test_reshape_then_softmax() -> None:
    """RESHAPE of an int8 tensor (a view, same parameters) between ops."""
    tens = [act("x", (1, 1, 1, 10), 0.2, 1), T("s", (2,), "INT32", np.array([1, 10], np.int32)),
            act("r", (1, 10), 0.2, 1), act("y", (1, 10), 1 / 256, -128)]
    check(build(M(tens, [O("RESHAPE", [0, 1], [2], None), O("SOFTMAX", [2], [3], ("SoftmaxOptions", {"Beta": 1.0}))],
                  [0], [3])))
