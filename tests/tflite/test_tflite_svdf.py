"""SVDF int8 (TFLM's keyword models) against the TFLite interpreter's reference kernel, step after step.

TFLite keeps SVDF's int16 activation state in a variable tensor across invocations; bbrt keeps it as a
STATE pair (SVDF_I8 reads the state input, writes the next state; the node copies it back into the
session's slot). Each test invokes the interpreter (BUILTIN_REF) and the host build the same number of
times, in order, copying the next state into the state input between runs as the node's session does,
and checks every output byte of every step; the node itself (its session slots) runs on QEMU Cortex-M4.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.devices.serial_devices import QemuDevice
from bb_edge.bbrt.firmware import build_firmware
from bb_edge.bbrt.format import RECV, SEND, STATE, Op, Program, parse
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import lower
from bb_edge.cli import main
from bb_edge.compiler.load import check_ops
from bb_edge.targets import load_target
from bb_edge.tflite import tflite_to_onnx
from bb_edge.tflite.errors import TfliteUnsupportedError
from tests.support.tflite_build import SVDF_CASES as CASES
from tests.support.tflite_build import Case, svdf_model
from tests.support.tflite_oracle import interpreter_steps, session_outputs

STEPS = 12
NODE, X_EDGE, Y_EDGE = 5, 1000, 1001


def bbrt_steps(data: bytes, xs: np.ndarray) -> np.ndarray:
    """The host build's outputs, one run per step; between runs the next state goes to the state input."""
    L = lower(tflite_to_onnx(data), io_edges=None)
    assert Op.SVDF_I8 in L.ops_used
    return program_steps(L.blob, L.program, xs)


def program_steps(blob: bytes, program: Program, xs: np.ndarray) -> np.ndarray:
    """``program`` run by the C loader once per step, the next state copied to the state input between runs."""
    hp = HostProgram(blob, program)
    edges = program.edges
    recv = next(e.tensor for e in edges if e.direction == RECV)
    send = next(e.tensor for e in edges if e.direction == SEND)
    (st,) = [e for e in edges if e.direction == STATE]
    hp.view(st.tensor)[...] = 0  # a session's first step starts from zeros (bbrt_node.c), as TFLite's variable
    ys = []
    for x in xs:
        hp.run({recv: x})
        ys.append(hp.view(send).copy())
        hp.view(st.tensor)[...] = hp.view(st.peer)  # what the node's session_copy does after a step
    return np.stack(ys)


@pytest.mark.parametrize("k", range(len(CASES)))
def test_svdf_steps_equal_the_interpreter(k: int) -> None:
    data = svdf_model(CASES[k])
    nb, ni = CASES[k][:2]
    xs = np.random.default_rng(80 + k).integers(-128, 128, (STEPS, nb, ni)).astype(np.int8)
    np.testing.assert_array_equal(bbrt_steps(data, xs), interpreter_steps(data, xs))


def test_svdf_rounds_ties_away_from_zero() -> None:
    """Both multipliers exactly 1/4 (s_x s_wf / s_state and s_state s_wt / s_y), small inputs and time weights so
    a state step of 1 shows in the output: a quarter of the negative sums fall on a half, which TFLite's two
    roundings (MultiplyByQuantizedMultiplier) send away from zero and a single rounding sends up."""
    case: Case = (1, 4, 16, 2, 4, 2.0**-4, 5, 2.0**-10, 2.0**-16, 0)
    data = svdf_model(case, swf=2.0**-8, swt=2.0**-8, wt_max=3, b_max=40)
    xs = np.random.default_rng(91).integers(2, 9, (STEPS, 1, 4)).astype(np.int8)
    np.testing.assert_array_equal(bbrt_steps(data, xs), interpreter_steps(data, xs))


def test_svdf_without_bias() -> None:
    data = svdf_model(CASES[1], bias=False)
    xs = np.random.default_rng(90).integers(-128, 128, (STEPS, 1, 20)).astype(np.int8)
    np.testing.assert_array_equal(bbrt_steps(data, xs), interpreter_steps(data, xs))


@pytest.mark.parametrize("act_fn,state_zp,why", [(0, 0, "RELU"), (1, 5, "zero point 5")])
def test_svdf_outside_tflite_integer_kernel_is_refused(act_fn: int, state_zp: int, why: str) -> None:
    with pytest.raises(TfliteUnsupportedError, match=f"SVDF.*{why}"):
        tflite_to_onnx(svdf_model(CASES[0], act_fn=act_fn, state_zp=state_zp))


def test_svdf_state_lives_in_the_node_session_slots_on_qemu_cortex_m4(tmp_path: Path) -> None:
    """The node on QEMU Cortex-M4 (bbrt_node.c, the generated resolver): two sessions interleaved, each keeping its
    own int16 state in its session slot, each equal to its own interpreter invoked step by step."""
    data = svdf_model(CASES[1])
    L = lower(tflite_to_onnx(data), node_id=NODE, io_edges={"x": X_EDGE, "y": Y_EDGE})
    out = tmp_path / "m4"
    facts = build_firmware(L, "qemu-cortex-m4", out, node="svdf", profile=load_target("qemu-cortex-m4"))
    assert facts["session_bytes"] == facts["session_slots"] * 2 * 12 * 8  # int16 [1, F*M] a slot
    rng = np.random.default_rng(95)
    runs = {5: rng.integers(-128, 128, (STEPS, 1, 20)).astype(np.int8),
            6: rng.integers(-128, 128, (STEPS, 1, 20)).astype(np.int8)}
    with QemuDevice("cortex-m4", out / "bbrt.elf", out / "program.bbrt", NODE) as dev:
        got = session_outputs(dev, runs, NODE, X_EDGE)
    for sid, xs in runs.items():
        np.testing.assert_array_equal(got[sid], interpreter_steps(data, xs))


def test_svdf_model_passes_the_compile_op_check() -> None:
    """`bb-edge compile` takes the translator's bb.tflite::Svdf as the kit's own op (a "bb." domain)."""
    m = tflite_to_onnx(svdf_model(CASES[0]))
    assert [(n.domain, n.op_type) for n in m.graph.node if n.domain] == [("bb.tflite", "Svdf")]
    check_ops(m)


def test_cli_compile_then_build_gives_the_host_bundle(tmp_path: Path) -> None:
    """`bb-edge compile S.tflite --nodes 1` then `bb-edge build --target host`: the node program keeps the file's
    int8 input parameters through the partition (a QDQ program again), the build runs no float calibration
    (ONNX Runtime has no kernel for bb.tflite::Svdf) and its program.bbrt, stepped 12 times, equals the
    interpreter."""
    data = svdf_model(CASES[1])
    (tmp_path / "s.tflite").write_bytes(data)
    assert main(["compile", str(tmp_path / "s.tflite"), "--nodes", "1", "-o", str(tmp_path / "d")]) == 0
    assert main(["build", str(tmp_path / "d"), "--target", "host", "-o", str(tmp_path / "b")]) == 0
    facts = json.loads((tmp_path / "b" / "n0" / "bbrt-build.json").read_text())
    assert "SVDF_I8" in facts["ops"] and facts["session_bytes"] == facts["session_slots"] * 2 * 12 * 8
    blob = (tmp_path / "b" / "n0" / "program.bbrt").read_bytes()
    xs = np.random.default_rng(97).integers(-128, 128, (STEPS, 1, 20)).astype(np.int8)
    np.testing.assert_array_equal(program_steps(blob, parse(blob), xs), interpreter_steps(data, xs))
