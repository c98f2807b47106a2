"""MUL, SUB, ADD with broadcast, MEAN and the int8 activations against the TFLite interpreter's reference kernels.

The oracle is ai-edge-litert with BUILTIN_REF (the arithmetic TFLite Micro runs: MUL's and LEAKY_RELU's
MultiplyByQuantizedMultiplier rounds twice, MEAN folds 1/n into one multiplier; the default resolver's
optimized MUL, MEAN and LEAKY_RELU round otherwise by one in places). LOGISTIC and TANH are the same table in
both. Unary ops see all 256 input values at once; scales include ones that saturate.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bb_edge.bbrt.lower import lower
from bb_edge.tflite import tflite_to_onnx
from tests.support.mlperf import qemu_arm_run
from tests.support.tflite_build import M, O, T, act, build
from tests.support.tflite_oracle import bbrt_outputs, interpreter_outputs, two_inputs

ALL = np.arange(-128, 128, dtype=np.int8).reshape(1, 4, 8, 8)  # every int8 value, as a 4-D NHWC tensor
PARAMS = [(0.05, 3, 0.04, -7), (0.2, -100, 0.01, 20), (0.011, 120, 0.3, -128)]  # (s_x, z_x, s_y, z_y)


def check_unary(op: str, sx: float, zx: int, sy: float, zy: int, options: tuple[str, dict] | None = None) -> None:
    tens = [act("x", (1, 4, 8, 8), sx, zx), act("y", (1, 4, 8, 8), sy, zy)]
    data = build(M(tens, [O(op, [0], [1], options)], [0], [1]))
    np.testing.assert_array_equal(bbrt_outputs(data, ALL), interpreter_outputs(data, ALL, reference=True))


@pytest.mark.parametrize("sx,zx,sy,zy", PARAMS)
def test_logistic(sx: float, zx: int, sy: float, zy: int) -> None:
    check_unary("LOGISTIC", sx, zx, 1 / 256, -128)  # TFLite's int8 LOGISTIC output: 1/256, -128


@pytest.mark.parametrize("sx,zx,sy,zy", PARAMS)
def test_tanh(sx: float, zx: int, sy: float, zy: int) -> None:
    check_unary("TANH", sx, zx, 1 / 128, 0)  # TFLite's int8 TANH output: 1/128, 0


@pytest.mark.parametrize("sx,zx,sy,zy", PARAMS)
def test_hard_swish(sx: float, zx: int, sy: float, zy: int) -> None:
    check_unary("HARD_SWISH", sx, zx, sy, zy)


@pytest.mark.parametrize("alpha,p", [(0.1, PARAMS[0]), (0.3, PARAMS[1]), (-0.2, PARAMS[2]), (1.7, PARAMS[0])])
def test_leaky_relu(alpha: float, p: tuple[float, int, float, int]) -> None:
    check_unary("LEAKY_RELU", *p, ("LeakyReluOptions", {"Alpha": alpha}))


@pytest.mark.parametrize("op", ["RELU", "RELU6", "RELU_N1_TO_1"])
def test_relu_ops(op: str) -> None:
    for p in PARAMS[:2]:
        check_unary(op, *p)


BCAST = [((1, 4, 5, 3), (1, 4, 5, 3)), ((1, 4, 5, 3), (1, 1, 1, 3)), ((1, 4, 5, 3), (1, 4, 1, 1)),
         ((1, 4, 5, 3), (3,)), ((2, 6), (1, 6))]


@pytest.mark.parametrize("op", ["MUL", "SUB", "ADD"])
@pytest.mark.parametrize("k", range(len(BCAST)))
def test_binary_broadcast(op: str, k: int) -> None:
    """Random parameters per case (the third saturates: a small output scale), a fused RELU on every other."""
    rng = np.random.default_rng(10 + k)
    sa_, sb_ = BCAST[k]
    ys = tuple(max(a, b) for a, b in zip(sa_, (1,) * (len(sa_) - len(sb_)) + sb_, strict=True))
    sy = 0.002 if k == 2 else float(rng.uniform(0.02, 0.2))
    tens = [act("a", sa_, float(rng.uniform(0.01, 0.2)), int(rng.integers(-128, 128))),
            act("b", sb_, float(rng.uniform(0.01, 0.2)), int(rng.integers(-128, 128))),
            act("y", ys, sy, int(rng.integers(-100, 100)))]
    opts = {"MUL": "MulOptions", "SUB": "SubOptions", "ADD": "AddOptions"}[op]
    data = build(M(tens, [O(op, [0, 1], [2], (opts, {"FusedActivationFunction": k % 2}))], [0, 1], [2]))
    two_inputs(data, rng.integers(-128, 128, sa_).astype(np.int8), rng.integers(-128, 128, sb_).astype(np.int8))


@pytest.mark.parametrize("op", ["MUL", "SUB", "ADD"])
def test_binary_with_a_constant(op: str) -> None:
    """x op c with c a per-channel-shaped int8 constant (a folded scale or offset)."""
    c = np.array([-128, 5, 127], np.int8)
    tens = [act("x", (1, 4, 8, 3), 0.06, -4), T("c", (3,), "INT8", c, [0.03], [2]), act("y", (1, 4, 8, 3), 0.05, 1)]
    data = build(M(tens, [O(op, [0, 1], [2], (f"{op.title()}Options", {}))], [0], [2]))
    x = np.random.default_rng(5).integers(-128, 128, (3, 4, 8, 3)).astype(np.int8)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))


@pytest.mark.parametrize("xs,axes,keep,sx,zx,sy,zy", [
    ((1, 5, 7, 6), [1, 2], True, 0.05, -3, 0.02, 4),  # global average pooling, keep_dims
    ((1, 5, 7, 6), [1, 2], False, 0.1, 60, 0.01, -100),  # saturates
    ((1, 4, 3, 6), [3], True, 0.07, 0, 0.05, 0),  # over the channels
    ((1, 4, 3, 6), [2], False, 0.03, 10, 0.03, 10),  # one spatial axis (a transpose first)
    ((1, 12, 10), [1], False, 0.04, -20, 0.04, -20),  # over time of a 1-D model
])
def test_mean(xs: tuple[int, ...], axes: list[int], keep: bool, sx: float, zx: int, sy: float, zy: int) -> None:
    ys = tuple(1 if k in axes else d for k, d in enumerate(xs)) if keep else \
        tuple(d for k, d in enumerate(xs) if k not in axes)
    tens = [act("x", xs, sx, zx), T("ax", (len(axes),), "INT32", np.array(axes, np.int32)), act("y", ys, sy, zy)]
    data = build(M(tens, [O("MEAN", [0, 1], [2], ("ReducerOptions", {"KeepDims": keep}))], [0], [2]))
    x = np.random.default_rng(6).integers(-128, 128, (4, *xs[1:])).astype(np.int8)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x, reference=True))


def test_chain_on_qemu_cortex_m4_equals_the_interpreter(tmp_path: Path) -> None:
    """HARD_SWISH -> MUL by a constant -> SUB of two activations -> LEAKY_RELU -> MEAN over H, W -> LOGISTIC
    on QEMU Cortex-M4: every output byte equals BUILTIN_REF's (the new kernel paths built for the M4)."""
    c = np.array([-3, 90, 127, -128, 1, 40, -77, 8], np.int8)
    tens = [act("x", (1, 6, 6, 8), 0.05, -10), act("h", (1, 6, 6, 8), 0.03, -50),
            T("c", (8,), "INT8", c, [0.02], [-1]), act("m", (1, 6, 6, 8), 0.04, 7),
            act("d", (1, 6, 6, 8), 0.06, 0), act("l", (1, 6, 6, 8), 0.05, 30),
            T("ax", (2,), "INT32", np.array([1, 2], np.int32)), act("g", (1, 8), 0.02, 5),
            act("y", (1, 8), 1 / 256, -128)]
    data = build(M(tens, [O("HARD_SWISH", [0], [1], None), O("MUL", [1, 2], [3], ("MulOptions", {})),
                          O("SUB", [3, 1], [4], ("SubOptions", {})),
                          O("LEAKY_RELU", [4], [5], ("LeakyReluOptions", {"Alpha": 0.2})),
                          O("MEAN", [5, 6], [7], ("ReducerOptions", {"KeepDims": False})),
                          O("LOGISTIC", [7], [8], None)], [0], [8]))
    x = np.random.default_rng(7).integers(-128, 128, (3, 6, 6, 8)).astype(np.int8)
    want = interpreter_outputs(data, x, reference=True)
    L = lower(tflite_to_onnx(data), io_edges=None)
    got, _, _ = qemu_arm_run(L, x, tmp_path, kind="cortex-m4")
    np.testing.assert_array_equal(got.reshape(want.shape), want)


@pytest.mark.parametrize("xs,axes,keep", [((1, 5, 7, 3), [1, 2], True), ((1, 6, 10), [2], False)])
def test_sum(xs: tuple[int, ...], axes: list[int], keep: bool) -> None:
    """SUM against the default resolver, whose int8 SUM computes TFLM's QuantizedMeanOrSum (BUILTIN_REF's int8
    SUM in ai-edge-litert 2.3.0 gives other values, e.g. -1 where the sum saturates at 127)."""
    ys = tuple(1 if k in axes else d for k, d in enumerate(xs)) if keep else \
        tuple(d for k, d in enumerate(xs) if k not in axes)
    tens = [act("x", xs, 0.03, -9), T("ax", (len(axes),), "INT32", np.array(axes, np.int32)), act("y", ys, 0.9, 11)]
    data = build(M(tens, [O("SUM", [0, 1], [2], ("ReducerOptions", {"KeepDims": keep}))], [0], [2]))
    x = np.random.default_rng(8).integers(-128, 128, (4, *xs[1:])).astype(np.int8)
    np.testing.assert_array_equal(bbrt_outputs(data, x), interpreter_outputs(data, x))
