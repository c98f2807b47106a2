"""Transpose, Pad, Resize (nearest), Gather, Elu, LeakyRelu, PRelu, LSTM and GRU on the C runtime (host build).

float32: the C kernels against ONNX Runtime (data movement bit-exact, the rest within 1e-5 relative).
int8: data movement keeps the bytes, so the C result equals numpy's op on the program's own int8 input;
Elu/LeakyRelu tables equal the lowering's formula (quantize(f(dequantize(x)))) on every element. Refusals:
typed UnsupportedNode at lowering, PROG_PARAM/PROG_SHAPE from the C loader for a corrupted program.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import helper

from bb_edge.bbrt.errors import BbrtError, UnsupportedNode
from bb_edge.bbrt.format import DT_INT8, Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bbrt.lower_ops import RESIZE_COORD, RESIZE_NEAREST
from bb_edge.deployment.int8 import dequantize, quantize
from tests.support.graphs import float_model as model
from tests.support.graphs import ort_run
from tests.support.graphs import randn as rand

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def c_run(m: onnx.ModelProto, feed: dict[str, np.ndarray], precision: str = "fp32",
          out: str = "y") -> tuple[np.ndarray, Lowered, HostProgram]:
    """Lower, run on the host build; the output as the program computed it (int8 in an int8 program).

    Outputs are read from the float32 Send tensors (alive to the end; an int8 tensor's bytes may be reused
    once its DEQUANTIZE ran): an int8 output is recovered exactly as rint(f / s) + z.
    """
    calib = [feed, {k: v * np.float32(-0.7) for k, v in feed.items()}]
    L = lower(m, precision=precision, calib=calib)
    h = HostProgram(L.blob, L.program)
    h.run({L.float_index[k]: v for k, v in feed.items()})
    f = h.view(L.float_index[out]).copy()
    t = L.program.tensors[L.index[out]]
    if t.dtype == DT_INT8:
        return (np.rint(f / np.float32(t.scale)) + t.zero_point).astype(np.int8), L, h
    return f, L, h


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=6)


# ---------------------------------------------------------------- Transpose
@SETTINGS
@given(shape=shapes, data=st.data())
def test_transpose_any_perm_equals_ort_and_moves_int8_bytes(shape: list[int], data: st.DataObject) -> None:
    perm = data.draw(st.permutations(list(range(len(shape)))))
    rng = np.random.default_rng(len(shape))
    m = model([helper.make_node("Transpose", ["x"], ["y"], name="tr", perm=perm)], {"x": shape})
    x = rand(rng, shape)
    got, _, _ = c_run(m, {"x": x})
    np.testing.assert_array_equal(got, ort_run(m, {"x": x}))
    # int8: a Relu first makes the input int8 inside the program, then TRANSPOSE moves its bytes
    mq = model([helper.make_node("Relu", ["x"], ["r"], name="relu"),
                helper.make_node("Transpose", ["r"], ["y"], name="tr", perm=perm)], {"x": shape}, outputs=("y", "r"))
    got, L, h = c_run(mq, {"x": x}, "int8")
    assert got.dtype == np.int8 and Op.TRANSPOSE in L.ops_used
    op = next(o for o in L.program.ops if o.opcode == Op.TRANSPOSE)
    assert L.program.tensors[op.inputs[0]].dtype == DT_INT8
    np.testing.assert_array_equal(got, c_run(mq, {"x": x}, "int8", out="r")[0].transpose(perm))


def test_transpose_default_perm_reverses() -> None:
    m = model([helper.make_node("Transpose", ["x"], ["y"], name="tr")], {"x": [2, 3, 4]})
    x = rand(np.random.default_rng(0), (2, 3, 4))
    np.testing.assert_array_equal(c_run(m, {"x": x})[0], x.transpose())


# ---------------------------------------------------------------- Pad
@SETTINGS
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), data=st.data())
def test_pad_constant_equals_ort(shape: list[int], data: st.DataObject) -> None:
    r = len(shape)
    pads = data.draw(st.lists(st.integers(0, 3), min_size=2 * r, max_size=2 * r))
    value = data.draw(st.sampled_from([0.0, 1.5, -2.0]))
    m = model([helper.make_node("Pad", ["x", "p", "v"], ["y"], name="pad")], {"x": shape},
              {"p": np.array(pads, np.int64), "v": np.array(value, np.float32)})
    x = rand(np.random.default_rng(r), shape)
    np.testing.assert_array_equal(c_run(m, {"x": x})[0], ort_run(m, {"x": x}))


def test_pad_int8_fills_the_quantized_value_and_opset18_axes() -> None:
    m = model([helper.make_node("Relu", ["x"], ["r"], name="relu"),
               helper.make_node("Pad", ["r", "p", "", "ax"], ["y"], name="pad")], {"x": [1, 2, 3, 4]},
              {"p": np.array([1, 2, 0, 1], np.int64), "ax": np.array([1, -1], np.int64)}, outputs=("y", "r"), opset=18)
    x = rand(np.random.default_rng(1), (1, 2, 3, 4))
    np.testing.assert_array_equal(c_run(m, {"x": x})[0], ort_run(m, {"x": x}))
    got, L, _ = c_run(m, {"x": x}, "int8")
    _, z = L.qparams["r"]
    ref = np.pad(c_run(m, {"x": x}, "int8", out="r")[0], [(0, 0), (1, 0), (0, 0), (2, 1)], constant_values=z)
    np.testing.assert_array_equal(got, ref)


def test_pad_opset10_attributes() -> None:
    m = model([helper.make_node("Pad", ["x"], ["y"], name="pad", pads=[0, 1, 2, 0, 0, 1], value=3.0)],
              {"x": [2, 3, 2]}, opset=10)
    x = rand(np.random.default_rng(2), (2, 3, 2))
    np.testing.assert_array_equal(c_run(m, {"x": x})[0], ort_run(m, {"x": x}))


# ---------------------------------------------------------------- Resize (nearest)
@pytest.mark.parametrize("coord", RESIZE_COORD)
@pytest.mark.parametrize("nearest", RESIZE_NEAREST)
def test_resize_nearest_every_mode_equals_ort(coord: str, nearest: str) -> None:
    x = rand(np.random.default_rng(3), (1, 2, 5, 7))
    for scales, sizes in (([1, 1, 2.0, 1.5], None), ([1, 1, 0.6, 0.5], None), (None, [1, 2, 3, 11])):
        ins = ["x", "", "s"] if scales is not None else ["x", "", "", "sz"]
        inits = {"s": np.array(scales, np.float32)} if scales is not None else {"sz": np.array(sizes, np.int64)}
        m = model([helper.make_node("Resize", ins, ["y"], name="rs", mode="nearest",
                                    coordinate_transformation_mode=coord, nearest_mode=nearest)], {"x": [1, 2, 5, 7]},
                  inits)
        np.testing.assert_array_equal(c_run(m, {"x": x})[0], ort_run(m, {"x": x}), err_msg=f"{scales} {sizes}")


def test_resize_int8_moves_bytes() -> None:
    m = model([helper.make_node("Relu", ["x"], ["r"], name="relu"),
               helper.make_node("Resize", ["r", "", "s"], ["y"], name="rs", mode="nearest")], {"x": [1, 2, 3, 3]},
              {"s": np.array([1, 1, 2, 2], np.float32)}, outputs=("y", "r"))
    x = rand(np.random.default_rng(4), (1, 2, 3, 3))
    got, L, _ = c_run(m, {"x": x}, "int8")
    assert Op.GATHER_AXES in L.ops_used and got.dtype == np.int8
    np.testing.assert_array_equal(got, c_run(m, {"x": x}, "int8", out="r")[0].repeat(2, axis=2).repeat(2, axis=3))


# ---------------------------------------------------------------- Gather (constant indices)
@SETTINGS
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), data=st.data())
def test_gather_constant_indices_equals_ort(shape: list[int], data: st.DataObject) -> None:
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    ind_shape = data.draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    ind = np.array(data.draw(st.lists(st.integers(-n, n - 1), min_size=int(np.prod(ind_shape)),
                                      max_size=int(np.prod(ind_shape)))), np.int64).reshape(ind_shape)
    if len(shape) - 1 + ind.ndim > 6:
        return
    m = model([helper.make_node("Gather", ["x", "i"], ["y"], name="ga", axis=axis)], {"x": shape}, {"i": ind})
    x = rand(np.random.default_rng(5), shape)
    got, L, _ = c_run(m, {"x": x})
    np.testing.assert_array_equal(got, ort_run(m, {"x": x}))
    assert Op.GATHER_AXES in L.ops_used


# ---------------------------------------------------------------- Elu, LeakyRelu, PRelu
@pytest.mark.parametrize("op,alpha", [("Elu", 1.0), ("Elu", 0.3), ("LeakyRelu", 0.01), ("LeakyRelu", 0.25)])
def test_elu_leakyrelu_float_and_int8_tables(op: str, alpha: float) -> None:
    m = model([helper.make_node(op, ["x"], ["y"], name="act", alpha=alpha)], {"x": [2, 3, 4, 5]})
    x = rand(np.random.default_rng(6), (2, 3, 4, 5), 2.5)
    got, _, _ = c_run(m, {"x": x})
    np.testing.assert_allclose(got, ort_run(m, {"x": x}), rtol=1e-5, atol=1e-6)
    got, L, _ = c_run(m, {"x": x}, "int8")
    assert got.dtype == np.int8 and Op.LUT_I8 in L.ops_used
    xq = quantize(x, *L.qparams["x"])  # the program's QUANTIZE of its float input
    real = dequantize(xq, *L.qparams["x"]).astype(np.float32)
    f = np.where(real > 0, real, np.float32(alpha) * (np.exp(real) - 1)) if op == "Elu" else \
        np.where(real >= 0, real, np.float32(alpha) * real)
    np.testing.assert_array_equal(got, quantize(f.astype(np.float32), *L.qparams["y"]))


@pytest.mark.parametrize("slope_shape", [[1], [3, 1, 1], [5], [1, 3, 4, 5]])
def test_prelu_slope_broadcast(slope_shape: list[int]) -> None:
    rng = np.random.default_rng(7)
    m = model([helper.make_node("PRelu", ["x", "s"], ["y"], name="pr")], {"x": [2, 3, 4, 5]},
              {"s": rand(rng, slope_shape)})
    x = rand(rng, (2, 3, 4, 5))
    np.testing.assert_array_equal(c_run(m, {"x": x})[0], ort_run(m, {"x": x}))
    got, L, _ = c_run(m, {"x": x}, "int8")  # float32 between the int8 ops: the float result
    assert "pr" in L.float_nodes
    np.testing.assert_array_equal(got, ort_run(m, {"x": x}))


# ---------------------------------------------------------------- LSTM, GRU
def rnn_model(op: str, T: int, B: int, n_in: int, H: int, direction: str, init_state: str, outputs: tuple[str, ...],
              rng: np.random.Generator, **attrs: object) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    g = 4 if op == "LSTM" else 3
    D = 2 if direction == "bidirectional" else 1
    inits = {"W": rand(rng, (D, g * H, n_in), 0.5), "R": rand(rng, (D, g * H, H), 0.5),
             "B": rand(rng, (D, 2 * g * H), 0.5)}
    inputs = {"x": [T, B, n_in]}
    feed = {"x": rand(rng, (T, B, n_in))}
    names = ["x", "W", "R", "B", ""]
    states = ["h0"] + (["c0"] if op == "LSTM" else [])
    for s in states:
        if init_state == "runtime":
            inputs[s] = [D, B, H]
            feed[s] = rand(rng, (D, B, H))
        elif init_state == "const":
            inits[s] = rand(rng, (D, B, H))
    if init_state != "absent":
        names += states
    outs = [o if o in outputs else "" for o in ("y", "yh", "yc")[:3 if op == "LSTM" else 2]]
    while outs and not outs[-1]:
        outs.pop()
    n = helper.make_node(op, names, outs, name="rnn", hidden_size=H, direction=direction, **attrs)  # type: ignore[arg-type]
    return model([n], inputs, inits, outputs=outputs), feed


@pytest.mark.parametrize("op", ["LSTM", "GRU"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
@pytest.mark.parametrize("init_state", ["absent", "const", "runtime"])
def test_rnn_equals_ort(op: str, direction: str, init_state: str) -> None:
    rng = np.random.default_rng(hash((op, direction, init_state)) % 2**32)
    outputs = ("y", "yh", "yc") if op == "LSTM" else ("y", "yh")
    for lbr in ((0,) if op == "LSTM" else (0, 1)):
        attrs = {"linear_before_reset": lbr} if op == "GRU" else {}
        m, feed = rnn_model(op, 6, 2, 3, 5, direction, init_state, outputs, rng, **attrs)
        for out in outputs:
            got, L, _ = c_run(m, feed, out=out)
            np.testing.assert_allclose(got, ort_run(m, feed, out), rtol=1e-5, atol=1e-6, err_msg=f"{out} lbr={lbr}")


@SETTINGS
@given(T=st.integers(1, 7), B=st.integers(1, 3), n_in=st.integers(1, 6), H=st.integers(1, 9),
       op=st.sampled_from(["LSTM", "GRU"]), direction=st.sampled_from(["forward", "reverse", "bidirectional"]))
def test_rnn_random_shapes_equal_ort(T: int, B: int, n_in: int, H: int, op: str, direction: str) -> None:
    m, feed = rnn_model(op, T, B, n_in, H, direction, "runtime", ("y",), np.random.default_rng(T * 100 + H),
                        **({"linear_before_reset": 1} if op == "GRU" else {}))
    np.testing.assert_allclose(c_run(m, feed)[0], ort_run(m, feed), rtol=1e-5, atol=1e-6)


def test_int8_program_keeps_the_lstm_float_between_quantize_and_dequantize() -> None:
    """Gemm (int8) -> LSTM (float32) -> Gemm (int8): the LSTM reads a DEQUANTIZE and feeds a QUANTIZE."""
    rng = np.random.default_rng(8)
    H = 6
    nodes = [helper.make_node("MatMul", ["x", "W1"], ["a"], name="fc1"),
             helper.make_node("LSTM", ["a", "W", "R", "B"], ["s"], name="lstm", hidden_size=H),
             helper.make_node("Reshape", ["s", "shape"], ["s2"], name="rs"),
             helper.make_node("MatMul", ["s2", "W2"], ["y"], name="fc2")]
    m = model(nodes, {"x": [5, 1, 4]}, {"W1": rand(rng, (4, 3)), "W": rand(rng, (1, 4 * H, 3), 0.5),
                                       "R": rand(rng, (1, 4 * H, H), 0.5), "B": rand(rng, (1, 8 * H), 0.5),
                                       "shape": np.array([5, H], np.int64), "W2": rand(rng, (H, 2))})
    x = rand(rng, (5, 1, 4))
    got, L, _ = c_run(m, {"x": x}, "int8")
    codes = [o.opcode for o in L.program.ops]
    i = codes.index(Op.LSTM_F32)
    j = codes.index(Op.FC_I8, i)  # fc2, int8 again after a QUANTIZE of the (float Reshape of the) LSTM output
    assert codes[i - 1] == Op.DEQUANTIZE and Op.QUANTIZE in codes[i + 1:j] and "lstm" in L.float_nodes
    ref = ort_run(m, {"x": x})
    s, z = L.qparams["y"]
    assert np.abs(dequantize(got, s, z) - ref).max() <= 4 * s + 0.05 * np.abs(ref).max()


# ---------------------------------------------------------------- refusals
REFUSED = {
    "pad_negative": (lambda: model([helper.make_node("Pad", ["x", "p"], ["y"], name="n")], {"x": [2, 3]},
                                   {"p": np.array([0, -1, 0, 1], np.int64)}), "Pad", "negative"),
    "pad_reflect": (lambda: model([helper.make_node("Pad", ["x", "p"], ["y"], name="n", mode="reflect")], {"x": [2, 3]},
                                  {"p": np.array([0, 1, 0, 1], np.int64)}), "Pad", "reflect"),
    "resize_linear": (lambda: model([helper.make_node("Resize", ["x", "", "s"], ["y"], name="n", mode="linear")],
                                    {"x": [1, 1, 2, 2]}, {"s": np.array([1, 1, 2, 2], np.float32)}),
                      "Resize", "linear"),
    "resize_crop": (lambda: model([helper.make_node("Resize", ["x", "roi", "s"], ["y"], name="n", mode="nearest",
                                                    coordinate_transformation_mode="tf_crop_and_resize")],
                                  {"x": [1, 1, 2, 2]}, {"roi": np.array([0, 0, 0, 0, 1, 1, 1, 1], np.float32),
                                                        "s": np.array([1, 1, 2, 2], np.float32)}),
                    "Resize", "tf_crop_and_resize"),
    "lstm_clip": (lambda: rnn_model("LSTM", 2, 1, 2, 3, "forward", "absent", ("y",), np.random.default_rng(0),
                                    clip=1.0)[0], "LSTM", "clip"),
    "gru_activation": (lambda: rnn_model("GRU", 2, 1, 2, 3, "forward", "absent", ("y",), np.random.default_rng(0),
                                         activations=["Relu", "Tanh"])[0], "GRU", "activations"),
    "lstm_input_forget": (lambda: rnn_model("LSTM", 2, 1, 2, 3, "forward", "absent", ("y",),
                                            np.random.default_rng(0), input_forget=1)[0], "LSTM", "input_forget"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_unsupported_attributes_are_typed_refusals_naming_node_and_op(case: str) -> None:
    make, op, word = REFUSED[case]
    m = make()
    with pytest.raises(UnsupportedNode, match=word) as e:
        lower(m, precision="fp32")
    assert e.value.node in ("n", "rnn") and e.value.op == op and e.value.fix


def _corrupt(L: Lowered, code: Op, edit: str) -> None:
    op = next(o for o in L.program.ops if o.opcode == code)
    if edit == "perm":
        op.params[1] = op.params[0]  # not a permutation
    elif edit == "table":
        t = L.program.tensors[op.inputs[1]]
        assert t.data is not None
        t.data = t.data.copy()
        t.data[0] = 99  # beyond the input dim
    elif edit == "scratch":
        s = L.program.tensors[op.inputs[-1]]
        s.shape = (s.shape[0] - 1,)
    elif edit == "mode":
        op.params[1] = 3
    with pytest.raises(BbrtError, match="PROG_PARAM|PROG_SHAPE|PROG_BOUNDS|ARENA"):
        HostProgram(L.program.to_bytes(), L.program)


def test_the_c_loader_refuses_bad_params_and_tables() -> None:
    rng = np.random.default_rng(9)
    m = model([helper.make_node("Transpose", ["x"], ["y"], name="tr", perm=[1, 0, 2])], {"x": [2, 3, 4]})
    _corrupt(lower(m, precision="fp32", calib=[{"x": rand(rng, (2, 3, 4))}]), Op.TRANSPOSE, "perm")
    m = model([helper.make_node("Pad", ["x", "p"], ["y"], name="pad")], {"x": [2, 3]},
              {"p": np.array([0, 1, 0, 1], np.int64)})
    _corrupt(lower(m, precision="fp32", calib=[{"x": rand(rng, (2, 3))}]), Op.GATHER_AXES, "table")
    for edit in ("scratch", "mode"):
        mm, feed = rnn_model("GRU", 3, 1, 2, 4, "forward", "absent", ("y",), rng)
        _corrupt(lower(mm, precision="fp32", calib=[feed]), Op.GRU_F32, edit)
