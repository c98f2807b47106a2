"""A .tflite keyword spotter with SVDF layers as a stateful deployment: `bb-edge compile` declares each SVDF's
activation state a session state pair (no --state), `bb-edge run --session` keeps it on the node between
steps, and every step's output equals ai-edge-litert's interpreter (BUILTIN_REF) invoked the same number of
times: in process on ONNX Runtime, onnx's reference evaluator and ExecuTorch (the engine's exact integer
SVDF, bb_edge/backends/tflite_ops.py), over real Mosquitto with one `bb-edge node` process per node, and as the
built host program (bbrt's SVDF_I8 with its STATE records). Sessions stay their owner's: another client's
continue and a continue after close are refused, typed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.devices.serial_devices import QemuDevice
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bbrt.format import RECV, SEND, STATE, parse
from bb_edge.bbrt.host import HostProgram
from bb_edge.commands.run import run_deployment
from bb_edge.compiler import compile_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.errors import SessionError
from bb_edge.tflite import load_tflite
from tests.support.tflite_build import SVDF_CASES as CASES
from tests.support.tflite_build import Case, svdf_kws_model, svdf_model
from tests.support.tflite_oracle import interpreter_steps, session_outputs

STEPS = 10
ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``bb-edge ARGS`` of this checkout in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=180, env=env)


def frames(n: int = STEPS, seed: int = 0) -> np.ndarray:
    """``n`` int8 feature frames [1, 20] (one audio window each)."""
    return np.random.default_rng(seed).integers(-128, 128, (n, 1, 20)).astype(np.int8)


def compiled(tmp_path: Path, nodes: int = 1, data: bytes | None = None) -> tuple[bytes, Path]:
    data = data or svdf_kws_model(fc=False)
    (tmp_path / "kws.tflite").write_bytes(data)
    out = tmp_path / f"d{nodes}"
    # two nodes: the first SVDF layer on n0, the rest on n1, so each keeps its own layer's state
    place = {"place": {"h0_Svdf": "n0", "*": "n1"}} if nodes == 2 else {"nodes": 1}
    compile_model(load_tflite(tmp_path / "kws.tflite"), out_dir=out, **place)  # type: ignore[arg-type]
    return data, out


def host_program_steps(blob: bytes, xs: np.ndarray) -> np.ndarray:
    """A built program.bbrt run once per step as the node's session slots keep its state: every STATE pair's
    next value saved after a step (all of them first: the planner may reuse a state input's bytes for a later
    op's next state), copied into its state input before the next one."""
    prog = parse(blob)
    hp = HostProgram(blob, prog)
    recv = next(e.tensor for e in prog.edges if e.direction == RECV)
    send = next(e.tensor for e in prog.edges if e.direction == SEND)
    pairs = [e for e in prog.edges if e.direction == STATE]
    slots = [np.zeros_like(hp.view(e.tensor)) for e in pairs]
    ys = []
    for x in xs:
        for e, s in zip(pairs, slots, strict=True):
            hp.view(e.tensor)[...] = s
        hp.run({recv: x})
        ys.append(hp.view(send).copy())
        slots = [hp.view(e.peer).copy() for e in pairs]
    return np.stack(ys)


@pytest.mark.parametrize("backend,nodes", [("ort", 1), ("executorch", 1), ("ort", 2)])
def test_session_steps_equal_the_interpreter_in_process(tmp_path: Path, backend: str, nodes: int) -> None:
    data, d = compiled(tmp_path, nodes)
    dep = load_deployment(d)
    pairs = {n: dep.state_pairs(n) for n in dep.node_names}
    assert sorted(p for v in pairs.values() for p in v) == [("state0_next", "state0"), ("state1_next", "state1"),
                                                                ("state2_next", "state2")]
    assert len([n for n, v in pairs.items() if v]) == nodes  # with 2 nodes each SVDF's state is on its own node
    xs = frames()
    want = interpreter_steps(data, xs)
    got = np.stack([o["h2"] for o in run_deployment(dep, [{"x": x} for x in xs], backend=backend, session=9)])
    np.testing.assert_array_equal(got, want)
    # the same frames as independent windows (every one a first step) differ: the state matters
    firsts = np.stack([interpreter_steps(data, xs[t:t + 1])[0] for t in range(STEPS)])
    assert (firsts != want).any()


@pytest.mark.parametrize("k", range(len(CASES)))
def test_one_svdf_session_on_the_reference_evaluator(tmp_path: Path, k: int) -> None:
    """Each SVDF case of test_tflite_svdf (batch 2, rank 3, a saturating state, ...) on onnx's reference evaluator
    (which has no DequantizeLinear at the translator's opset 17, so a lone SVDF rather than the keyword model)."""
    data, d = compiled(tmp_path, 1, svdf_model(CASES[k]))
    nb, ni = CASES[k][:2]
    xs = np.random.default_rng(k).integers(-128, 128, (STEPS, nb, ni)).astype(np.int8)
    got = run_deployment(load_deployment(d), [{"x": x} for x in xs], backend="reference", session=3)
    np.testing.assert_array_equal(np.stack([o["y"] for o in got]), interpreter_steps(data, xs))


@pytest.mark.parametrize("backend", ["ort", "reference"])
def test_ties_round_away_from_zero_in_the_engines(tmp_path: Path, backend: str) -> None:
    """test_tflite_svdf's tie case (both multipliers exactly 1/4, small inputs): TFLite's two roundings send a
    negative half away from zero; the engines' integer SVDF does too."""
    case: Case = (1, 4, 16, 2, 4, 2.0**-4, 5, 2.0**-10, 2.0**-16, 0)
    data, d = compiled(tmp_path, 1, svdf_model(case, swf=2.0**-8, swt=2.0**-8, wt_max=3, b_max=40))
    xs = np.random.default_rng(91).integers(2, 9, (12, 1, 4)).astype(np.int8)
    got = run_deployment(load_deployment(d), [{"x": x} for x in xs], backend=backend, session=4)
    np.testing.assert_array_equal(np.stack([o["y"] for o in got]), interpreter_steps(data, xs))


def test_a_closed_session_is_not_continued_in_process(tmp_path: Path) -> None:
    data, d = compiled(tmp_path)
    xs = [{"x": x} for x in frames(3)]
    with InProcFleet(load_deployment(d)) as fleet:
        got = fleet.run(xs[:2], session=5)
        fleet.close_session(5)
        with pytest.raises(SessionError, match=r"step 2 failed: SessionRefused: .*session is not open \(closed by "
                                               r"its owner\)"):
            fleet.run(xs[2:3], session=5, first_step=2)
    np.testing.assert_array_equal(np.stack([g["h2"] for g in got]),
                                  interpreter_steps(data, np.stack([x["x"] for x in xs[:2]])))


def test_cli_compile_build_and_run_session_in_process_and_over_mqtt_processes(tmp_path: Path) -> None:
    """`bb-edge compile kws.tflite --nodes 1`, `bb-edge build --target host` (its program stepped with the state
    in its STATE pairs = the interpreter), `bb-edge run --session` in process and with --transport mqtt://
    --processes (real Mosquitto): each = the interpreter; `run --inputs` is refused in one line. The model is the
    keyword spotter's three SVDF layers: its FULLY_CONNECTED runs on ONNX Runtime in float (DequantizeLinear ->
    MatMul -> QuantizeLinear), which can be 1 LSB from TFLite's integer kernel (1 of 40 logits here)."""
    data = svdf_kws_model(fc=False)
    (tmp_path / "kws.tflite").write_bytes(data)
    d, b = tmp_path / "d", tmp_path / "b"
    res = cli("compile", str(tmp_path / "kws.tflite"), "--nodes", "1", "-o", str(d))
    assert res.returncode == 0, res.stderr
    assert "keeps state" in res.stdout
    assert json.loads((d / "deployment.json").read_text())["state"]["n0"][0]["bytes"] == 2 * 16 * 8
    res = cli("build", str(d), "--target", "host", "-o", str(b))
    assert res.returncode == 0, res.stderr
    facts = json.loads((b / "n0" / "bbrt-build.json").read_text())
    assert facts["ops"].count("SVDF_I8") == 3 and facts["session_bytes"] == facts["session_slots"] * 2 * (128 + 72 + 32)
    xs = frames(seed=3)
    want = interpreter_steps(data, xs)
    np.testing.assert_array_equal(host_program_steps((b / "n0" / "program.bbrt").read_bytes(), xs), want)
    np.savez(tmp_path / "steps.npz", x=xs)
    res = cli("run", str(d), "--session", str(tmp_path / "steps.npz"), "--outputs", str(tmp_path / "a.npz"))
    assert res.returncode == 0, res.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "a.npz")["h2"], want)
    files = write_broker_files(tmp_path / "broker", load_deployment(d))
    with Broker(files):
        res = cli("run", str(d), "--transport", files.url(), "--processes", "--session", str(tmp_path / "steps.npz"),
                  "--outputs", str(tmp_path / "m.npz"))
    assert res.returncode == 0, res.stderr + res.stdout
    np.testing.assert_array_equal(np.load(tmp_path / "m.npz")["h2"], want)
    res = cli("run", str(d), "--inputs", str(tmp_path / "steps.npz"))
    assert res.returncode == 2 and "--session" in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_svdf_sessions_stay_their_owners_over_mqtt_node_processes(tmp_path: Path) -> None:
    """Two SVDF nodes (bb-edge node processes, real Mosquitto): client 1's session steps = the interpreter;
    client 2 naming client 1's session id is refused and leaves its state alone; after client 1's close its next
    step is refused."""
    from bb_edge.adapters.fleet.client import Client, RequestFailedError
    from bb_edge.adapters.fleet.mqtt_fleet import spawn_node, stop_process

    data, d = compiled(tmp_path, nodes=2)
    dep = load_deployment(d)
    files = write_broker_files(tmp_path / "broker", dep)
    url = files.url()
    xs = frames(5, seed=4)
    want = interpreter_steps(data, xs[:4])
    with Broker(files):
        nodes = [spawn_node(d, n, url, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for n in dep.node_names]
        try:
            with Client(d, url, client=1) as c1, Client(d, url, client=2) as c2:
                c1.wait_for_nodes(60)
                c2.wait_for_nodes(60)
                got = [c1.wait(c1.submit({"x": xs[t]}, session=(7, t)), timeout=30) for t in range(2)]
                with pytest.raises(RequestFailedError, match=r"SessionRefused.*session is not open \(it was never "
                                                             r"opened here\)"):
                    c2.wait(c2.submit({"x": xs[2]}, session=(7, 2)), timeout=30, retries=0)
                got += [c1.wait(c1.submit({"x": xs[t]}, session=(7, t)), timeout=30) for t in (2, 3)]
                np.testing.assert_array_equal(np.stack([g["h2"] for g in got]), want)
                c1.close_session(7)
                with pytest.raises(RequestFailedError, match=r"SessionRefused.*session is not open \(closed by its "
                                                             r"owner\)"):
                    c1.wait(c1.submit({"x": xs[4]}, session=(7, 4)), timeout=30, retries=0)
        finally:
            for p in nodes:
                stop_process(p)


def test_streaming_keyword_model_keeps_its_state_on_qemu_cortex_m4(tmp_path: Path) -> None:
    """Issue 36 Build 6: the keyword model compiled from its .tflite (`bb-edge compile`, `bb-edge build --target
    qemu-cortex-m4`) runs window by window on QEMU Cortex-M4, all three SVDF layers' int16 states kept in the node's
    session slot in the arena between windows: two sessions interleaved window by window, each equal to its own
    interpreter invoked once per window (with bbrt_node.c's copy of the slot into the program skipped, 35 of the
    40 logits differ)."""
    data = svdf_kws_model()
    (tmp_path / "kws.tflite").write_bytes(data)
    d, b = tmp_path / "d", tmp_path / "b"
    assert cli("compile", str(tmp_path / "kws.tflite"), "--nodes", "1", "-o", str(d)).returncode == 0
    res = cli("build", str(d), "--target", "qemu-cortex-m4", "-o", str(b))
    assert res.returncode == 0, res.stderr
    facts = json.loads((b / "n0" / "bbrt-build.json").read_text())
    assert facts["session_bytes"] == facts["session_slots"] * 2 * (128 + 72 + 32)  # both layers' states, each slot
    dep = load_deployment(d)
    node, x_edge = dep.node("n0").id, dep.inputs[0].edge_id
    rng = np.random.default_rng(12)
    runs = {3: rng.integers(-128, 128, (STEPS, 1, 20)).astype(np.int8),
            4: rng.integers(-128, 128, (STEPS, 1, 20)).astype(np.int8)}
    with QemuDevice("cortex-m4", b / "n0" / "bbrt.elf", b / "n0" / "program.bbrt", node) as dev:
        got = session_outputs(dev, runs, node, x_edge)
    for sid, xs in runs.items():
        np.testing.assert_array_equal(got[sid], interpreter_steps(data, xs))


def test_an_ota_update_of_an_svdf_program_is_validated_and_runs(tmp_path: Path) -> None:
    """A node's OTA loader prepares a new SVDF program as install does (its ``bb.tflite`` op expanded): the
    update validates, switches, and the next session's steps equal the interpreter on the new model."""
    from bb_edge.engine import ota

    case = CASES[0]
    old, new = svdf_model(case), svdf_model(case, swf=0.02)
    _, d = compiled(tmp_path, 1, old)
    (tmp_path / "new.tflite").write_bytes(new)
    _, programs = compile_model(load_tflite(tmp_path / "new.tflite"), out_dir=tmp_path / "dn", nodes=1)
    nb, ni = case[:2]
    xs = np.random.default_rng(5).integers(-128, 128, (STEPS, nb, ni)).astype(np.int8)
    want_new = interpreter_steps(new, xs)
    assert (want_new != interpreter_steps(old, xs)).any()  # the update is visible
    with InProcFleet(load_deployment(d)) as fleet:
        fleet.run([{"x": x} for x in xs[:2]], session=5)  # a session open across the update
        for name, eng in fleet.engines.items():
            loader = ota.OnnxLoader(eng)
            loader.switch(loader.validate(programs[name].SerializeToString()))
        got = fleet.run([{"x": x} for x in xs], session=6)
        # its state came from the old program: the session ends, typed, rather than mixing the two
        with pytest.raises(SessionError, match="the program was updated"):
            fleet.run([{"x": xs[2]}], session=5, first_step=2)
    np.testing.assert_array_equal(np.stack([g["y"] for g in got]), want_new)
