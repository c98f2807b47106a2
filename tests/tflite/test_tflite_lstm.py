"""UNIDIRECTIONAL_SEQUENCE_LSTM int8 (8x8->16, a Keras LSTM as the converter writes it) against the TFLite
interpreter's reference kernel.

Each case is one .tflite written by hand (tests/support/tflite_build.py: int8 input and output, int8 weights,
int32 biases, int8 output state and int16 cell state variables, the five intermediates), run once on a fresh
interpreter (BUILTIN_REF) and once through bb-edge (tflite_to_onnx -> lower -> the C loader and LSTM_I8 on the
host build, and on QEMU Cortex-M4). Every output byte of every step must be equal.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from bb_edge.bbrt.format import RECV, SEND, Op, parse
from bb_edge.bbrt.host import HostProgram, aligned
from bb_edge.bbrt.lower import lower
from bb_edge.bbrt.native import STATUS_NAMES, load_host_library
from bb_edge.cli import main
from bb_edge.compiler.load import check_ops
from bb_edge.tflite import tflite_to_onnx
from bb_edge.tflite.errors import TfliteUnsupportedError
from tests.support.mlperf import qemu_arm_run
from tests.support.tflite_build import LstmCase, lstm_model

# (case, lstm_model keywords): (steps, batch, inputs, cells, time_major)
CASES: list[tuple[LstmCase, dict[str, object]]] = [
    ((6, 2, 5, 7, True), {}),
    ((5, 1, 4, 3, False), {}),  # batch-major, as Keras exports (time_major false)
    ((6, 2, 5, 7, True), {"hz": (0.03, 5)}),  # a hidden scale and zero point of their own
    ((5, 1, 4, 3, False), {"cell_log2": -9}),  # the cell state's tanh on Q6.9
    ((6, 2, 5, 7, True), {"cell_log2": -15}),  # ... and on Q0.15
    ((8, 1, 6, 8, False), {"cell_clip": 0.3}),  # TFLite's quantized cell clip
    ((6, 2, 5, 7, True), {"zx": -128, "sx": 0.1, "zy": 20, "sy": 0.01, "w_scale": 0.001}),
    ((28, 1, 28, 20, False), {"cell_clip": 10.0, "w_scale": 0.01}),  # the shape of TFLM's mnist_lstm example
    # power-of-two scales (gate multipliers 1/4 ... 2): many gate sums fall on a half, which TFLite's two roundings
    # send away from zero and a single rounding up; a fine hidden scale lets a 1-LSB gate reach a few outputs
    ((6, 2, 5, 7, True), {"sx": 2.0**-4, "w_scale": 2.0**-10, "zx": 0, "sy": 2.0**-6, "zy": 0, "hz": (2.0**-10, 0)}),
]


def x_for(case: LstmCase, seed: int) -> np.ndarray:
    nt, nb, ni, _, tm = case
    return np.random.default_rng(seed).integers(-128, 128, (nt, nb, ni) if tm else (nb, nt, ni)).astype(np.int8)


def interpreter_output(data: bytes, x: np.ndarray) -> np.ndarray:
    """BUILTIN_REF's output of a fresh interpreter invoked once (its states start from TFLite's reset values)."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    it = Interpreter(model_content=data, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    i, o = it.get_input_details()[0], it.get_output_details()[0]
    it.set_tensor(i["index"], x)
    it.invoke()
    return np.asarray(it.get_tensor(o["index"])).copy()


def program_output(blob: bytes, x: np.ndarray) -> np.ndarray:
    """The C loader's run of a program blob on the host build (one RECV, one SEND)."""
    prog = parse(blob)
    hp = HostProgram(blob, prog)
    recv = next(e.tensor for e in prog.edges if e.direction == RECV)
    send = next(e.tensor for e in prog.edges if e.direction == SEND)
    hp.run({recv: x})
    return hp.view(send).copy()


@pytest.mark.parametrize("k", range(len(CASES)))
def test_lstm_equals_the_interpreter(k: int) -> None:
    case, kw = CASES[k]
    data = lstm_model(case, **kw)  # type: ignore[arg-type]
    x = x_for(case, 70 + k)
    L = lower(tflite_to_onnx(data), io_edges=None)
    assert Op.LSTM_I8 in L.ops_used
    want = interpreter_output(data, x)
    np.testing.assert_array_equal(program_output(L.blob, x).reshape(want.shape), want)
    assert len(np.unique(want)) > min(20, want.size // 3)  # not a saturated constant


def test_lstm_on_qemu_cortex_m4_equals_the_interpreter(tmp_path: Path) -> None:
    """The kernel and its loader check built for the M4 (-Werror), batch 2, time-major, a cell clip."""
    case: LstmCase = (7, 2, 6, 9, True)
    data = lstm_model(case, cell_clip=0.5, hz=(0.025, -7))
    xs = np.stack([x_for(case, 99 + k) for k in range(3)])  # three inferences, each from fresh states
    L = lower(tflite_to_onnx(data), io_edges=None)
    got, _, _ = qemu_arm_run(L, xs, tmp_path, kind="cortex-m4")
    want = np.stack([interpreter_output(data, x) for x in xs])
    np.testing.assert_array_equal(got.reshape(want.shape), want)
    assert len(np.unique(want)) > 30  # not a saturated constant (the clip bounds |h| to 18 steps here)


def _load(blob: bytes) -> str:
    """The C loader's status for ``blob`` (host library), with a 64 KiB arena."""
    lib = load_host_library()
    buf = aligned(len(blob))
    buf[:] = np.frombuffer(blob, np.uint8)
    arena = aligned(1 << 16)
    return str(STATUS_NAMES[lib.bbrtpy_load(buf.ctypes.data, len(blob), arena.ctypes.data, 1 << 16)])


# (Q index or "scratch", value, status): Q[19] log2 cell scale, Q[21] time-major, Q[1] a shift, Q[18] hidden zp
BAD_LOADS = [(19, -8, "PROG_PARAM"), (19, -16, "PROG_PARAM"), (21, 2, "PROG_PARAM"), (1, 31, "PROG_PARAM"),
             (0, -1, "PROG_PARAM"), (18, 128, "PROG_PARAM"), (20, -1, "PROG_PARAM"), ("scratch", -1, "PROG_SHAPE")]


@pytest.mark.parametrize("k", range(len(BAD_LOADS)))
def test_lstm_program_with_bad_parameters_is_refused_at_load(k: int) -> None:
    """The loader's LSTM_I8 check (bbrt_check.c) refuses a parameter vector the kernel cannot run and a scratch
    one value short; the unchanged program loads."""
    L = lower(tflite_to_onnx(lstm_model((3, 2, 4, 3, True))), io_edges=None)
    assert _load(L.program.to_bytes()) == "OK"
    prog = copy.deepcopy(L.program)
    op = next(o for o in prog.ops if o.opcode == Op.LSTM_I8)
    where, value, status = BAD_LOADS[k]
    if where == "scratch":
        s = prog.tensors[op.outputs[1]]
        s.shape = (s.count - 1,)
    else:
        q = prog.tensors[op.inputs[4]]
        assert q.data is not None
        q.data = q.data.copy()
        q.data[int(where)] = value
    assert _load(prog.to_bytes()) == status


@pytest.mark.parametrize("kw,why", [({"peephole": True}, "peephole"), ({"projection": True}, "projection"),
                                    ({"act_fn": 1}, "TANH"), ({"cell_log2": -8}, "2\\^-15..2\\^-9")])
def test_lstm_outside_the_standard_integer_kernel_is_refused(kw: dict[str, object], why: str) -> None:
    with pytest.raises(TfliteUnsupportedError, match=f"UNIDIRECTIONAL_SEQUENCE_LSTM.*{why}"):
        tflite_to_onnx(lstm_model((3, 1, 4, 3, True), **kw))  # type: ignore[arg-type]


def test_cli_compile_then_build_gives_the_host_bundle(tmp_path: Path) -> None:
    """`bb-edge compile L.tflite --nodes 1` then `bb-edge build --target host`: bb.tflite::Lstm passes the op check
    and the bundle's program.bbrt equals the interpreter."""
    case, kw = CASES[1]
    data = lstm_model(case, **kw)  # type: ignore[arg-type]
    check_ops(tflite_to_onnx(data))
    (tmp_path / "l.tflite").write_bytes(data)
    assert main(["compile", str(tmp_path / "l.tflite"), "--nodes", "1", "-o", str(tmp_path / "d")]) == 0
    assert main(["build", str(tmp_path / "d"), "--target", "host", "-o", str(tmp_path / "b")]) == 0
    facts = json.loads((tmp_path / "b" / "n0" / "bbrt-build.json").read_text())
    assert "LSTM_I8" in facts["ops"]
    x = x_for(case, 5)
    want = interpreter_output(data, x)
    got = program_output((tmp_path / "b" / "n0" / "program.bbrt").read_bytes(), x)
    np.testing.assert_array_equal(got.reshape(want.shape), want)
