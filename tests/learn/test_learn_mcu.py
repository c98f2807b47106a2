"""Microcontrollers that train: the C FedAvg client (firmware/include/bbrt_learn.h) on QEMU Cortex-M3.

Real components only: the client is built by ``bb-edge build LEARN_DIR --target c2=qemu-cortex-m3``
(the .bbrt training step of bb_edge/bbrt/train_lower.py, the shard baked into the learning image),
runs under QEMU on a pty with the link layer, and joins a FedAvg run on a real Mosquitto next to
Linux client processes (``bb-edge node``) and the MicroPython training client (the
``esp32-micropython`` bundle of learn_client.py, built with ``--train-arith int``: bbnode/train_int.py's
float32 in small ints) through its serial bridge
(bb_edge/adapters/learn/mcu_fleet.py).

Oracles: ONNX Runtime running the same ONNX training program over the device's batches
(:func:`reference_update`, the device's order reproduced independently in Python), an independent
FedAvg recomputation of the whole mixed run (ORT per client, each client kind's own batch order),
and the in-process simulator for the final accuracy.

CI: 4 clients (2 Linux, the M3, MicroPython's bundle main.py hosted by CPython as
tests/micropython/test_micropython_train.py's CI fleet does), 3 rounds, 2 local epochs. ``BB_EDGE_LONG=1``: 6 clients
(4 Linux, the M3, MicroPython in the real VM), 8 rounds, 2 local epochs.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.learn.fleet import run_learning_fleet
from bb_edge.adapters.learn.mcu_fleet import device_for_bundle
from bb_edge.adapters.learn.simulator import simulate
from bb_edge.bbrt.errors import FitError
from bb_edge.bundle.build import build_all
from bb_edge.deployment.manifest import load_deployment
from bb_edge.errors import BuildError
from bb_edge.training.models import mlp
from bb_edge.training.setup import write_learning_deployment
from bb_edge.wire import Envelope, encode
from tests.support.broker import start_broker, stop_broker
from tests.support.fedavg_oracle import fedavg_rounds
from tests.support.learn_device import (
    SERVER_ID,
    client_shard,
    model_env,
    reference_round,
    wait_learn,
    wait_reports,
)
from tests.support.mpy_client import mpy_client_argv

LONG = os.environ.get("BB_EDGE_LONG") == "1"
CLIENTS, ROUNDS, EPOCHS = (6, 8, 2) if LONG else (4, 3, 2)
MCU, MPY = f"c{CLIENTS - 2}", f"c{CLIENTS - 1}"
LEARNING: dict[str, Any] = {
    "strategy": "fedavg", "clients": CLIENTS, "rounds": ROUNDS, "epochs": EPOCHS, "seed": 5, "round_timeout": 60.0,
    "data": {"source": "digits", "partition": {"type": "partition.iid"}},
}

needs_qemu = pytest.mark.skipif(shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
                                reason="qemu-system-arm and arm-none-eabi-gcc are CI packages (.ci/apt-packages.txt)")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A softmax-regression digits deployment, its M3 and MicroPython client bundles (built once)."""
    root = tmp_path_factory.mktemp("mcu-learn")
    d = root / "dep"
    write_learning_deployment(d, LEARNING, model=mlp([64, 10], seed=5))
    # the MicroPython client trains in the int mode (bbnode/train_int.py: float32 in small ints)
    build_all(d, [f"{MCU}=qemu-cortex-m3", f"{MPY}=esp32-micropython"], root / "dist", None, {"train_arith": "int"})
    return d, root / "dist" / MCU


@needs_qemu
def test_m3_client_refuses_bad_models_and_matches_the_reference(built: tuple[Path, Path], tmp_path: Path) -> None:
    """JOIN with its shard size; every bad model is a typed refusal that leaves the stored model as it was;
    a good round's update equals ORT on the same program, shard and batch order within 1e-4."""
    d, bundle = built
    module, x, y, ids = client_shard(d, MCU)
    nid = ids[MCU]
    n = module.setup.program.layout.size
    dev = device_for_bundle(bundle, tmp_path)
    record = tmp_path / f"{MCU}.round"
    dev.start(timeout=60.0)  # type: ignore[attr-defined]
    try:
        join = wait_learn(dev, 1, 10)
        assert join and np.asarray(join[0].array()).tolist() == [len(x)]  # JOIN carries the shard's sample count
        start = (np.random.default_rng(1).normal(0, 0.1, n)).astype(np.float32)
        dev.send(model_env(start, nid, 0, 1, edge=6))  # MODEL_FULL: the device takes the current model
        _, texts = wait_reports(dev, "ModelTaken round=0")
        assert any(t.startswith("ModelTaken round=0") for t in texts), texts
        kept = record.read_bytes()  # the device saves the record before it reports ModelTaken
        bad = {"WRONG_SHAPE": model_env(start[:-1], nid, 1, 2),
               "WRONG_DTYPE": encode(Envelope.for_array(start.view(np.int32), sender=SERVER_ID, receiver=nid,
                                                        seq=(9 << 32) | 3, request_id=1, edge=2, protocol=17)),
               "WRONG_SENDER": model_env(start, nid, 1, 4, sender=ids["c0"]),
               "NOT_FINITE": model_env(np.where(np.arange(n) == 7, np.nan, start).astype(np.float32), nid, 1, 5),
               "STALE_ROUND": model_env(start, nid, 0, 6)}
        for reason, env in bad.items():
            dev.send(env)
            envs, texts = wait_reports(dev, "ModelRefused")
            assert f"ModelRefused {reason}" in texts[-1], (reason, texts)
            assert not [e for e in envs if e.edge == 3]  # no update for a refused model
            assert record.read_bytes() == kept  # the device kept its model and round state
        dev.send(model_env(start, nid, 1, 7))
        envs, _ = wait_reports(dev, None, 0.0)
        upd = wait_learn(dev, 3, 60, envs)
        assert upd and upd[0].request_id == 1
        got = np.asarray(upd[0].array(), np.float32)
        ref = reference_round(module, x, y, nid, 1, start)
        assert np.abs(ref).max() > 1e-3  # training moved the model: the comparison is not 0 == 0
        np.testing.assert_allclose(got, ref, atol=1e-4, rtol=0)
        # a wrong batch order is caught: the reference of another round's order differs by far more
        assert np.abs(reference_round(module, x, y, nid, 2, start) - got).max() > 1e-3
        # answered: the record says round 1, with the trained model (start + update)
        rec = record.read_bytes()
        magic, _v, node_id, count, answered, model_round, pending, _crc = struct.unpack_from("<8I", rec)
        assert (magic, node_id, count, answered, model_round, pending) == (0x4E4C4242, nid, n, 1, 1, 0)
        np.testing.assert_allclose(np.frombuffer(rec[32:], "<f4"), start + got, atol=1e-6)
        # round 1 again (a fresh seq): the server re-asks for an UPDATE that did not arrive; the device trains the
        # round again (same model, same order) and re-sends the same update
        dev.send(model_env(start, nid, 1, 8))
        envs, _ = wait_reports(dev, None, 0.0)
        resent = wait_learn(dev, 3, 60, [e for e in envs if e.seq != upd[0].seq])
        assert resent and resent[0].request_id == 1 and resent[0].seq != upd[0].seq
        assert bytes(resent[0].data) == bytes(upd[0].data)
        dev.send(model_env(start, nid, 2, 7))  # the seq of the applied round-1 model: a duplicate, whatever it carries
        _, texts = wait_reports(dev, "ModelRefused")
        assert texts[-1] == "ModelRefused DUPLICATE round=2", texts
        assert record.read_bytes() == rec
        # a record that does not check out (one model byte flipped) is not restored: a fresh start trains round 1
        # (an intact one is: the mixed fleet's M3 resumes its round from it, and the posix test's round is stale)
        record.write_bytes(rec[:40] + bytes([rec[40] ^ 0x40]) + rec[41:])
        dev.restart()  # type: ignore[attr-defined]
        dev.send(model_env(start, nid, 1, 21))
        envs, texts = wait_reports(dev, None, 0.0)
        again = wait_learn(dev, 3, 60, envs)
        assert again and again[0].request_id == 1
        np.testing.assert_allclose(np.asarray(again[0].array()), ref, atol=1e-4, rtol=0)
    finally:
        dev.stop()  # type: ignore[attr-defined]


@needs_qemu
def test_m3_training_firmware_has_no_heap(built: tuple[Path, Path]) -> None:
    """nm: the training client links no allocator."""
    _, bundle = built
    out = subprocess.run(["arm-none-eabi-nm", str(bundle / "bbrt.elf")], capture_output=True, text=True, check=True)
    names = {line.split()[-1] for line in out.stdout.splitlines() if line.strip()}
    assert "bbrt_learn_handle" in names and "bbrt_train_step" in names  # the right ELF
    assert not names & {"malloc", "free", "calloc", "realloc", "_sbrk", "sbrk", "_malloc_r"}


def test_build_refusals_are_typed(tmp_path: Path) -> None:
    """The server on an MCU, a codec, and a step that does not fit 64 KiB are refused before compiling."""
    d = tmp_path / "dep"
    write_learning_deployment(d, {**LEARNING, "clients": 2}, model=mlp([64, 10], seed=5))
    with pytest.raises(BuildError, match="FedAvg server"):
        build_all(d, ["server=qemu-cortex-m3"], tmp_path / "d1")
    dc = tmp_path / "codec"
    write_learning_deployment(dc, {**LEARNING, "clients": 2, "codec": {"type": "codec.int8"}},
                              model=mlp([64, 10], seed=5))
    with pytest.raises(BuildError, match="codec"):
        build_all(dc, ["c0=qemu-cortex-m3"], tmp_path / "d2")
    dm = tmp_path / "mlp"
    write_learning_deployment(dm, {**LEARNING, "clients": 2})  # the 64-32-10 MLP: 2410 parameters
    with pytest.raises(FitError) as info:
        build_all(dm, ["c0=qemu-cortex-m3"], tmp_path / "d3")
    assert info.value.have == 65536 and info.value.over > 0 and "ram" in info.value.resource
    assert not (tmp_path / "d3" / "c0" / "bbrt.elf").exists()


@needs_qemu
def test_mixed_fleet_with_an_m3_client_rebooted_mid_round(built: tuple[Path, Path], tmp_path: Path) -> None:
    """FedAvg digits over Mosquitto: Linux client processes, the M3 client over its pty and the MicroPython
    client. The M3 loses power while round 2 trains, resumes it from its round record and the run finishes;
    every M3 update equals the ORT reference; the server's model equals an independent recomputation of
    the mixed run; the final accuracy is at least the simulator's minus 1 point."""
    d, bundle = built
    module, x, y, ids = client_shard(d, MCU)
    broker, url = start_broker(tmp_path / "broker")
    rec, work = tmp_path / "rec", tmp_path / "work"
    cmd = [sys.executable, "-m", "bb_edge.adapters.learn.mcu_fleet", str(d), "--node", MCU, "--transport", url,
           "--bundle", str(bundle), "--state-dir", str(tmp_path / "state"), "--record", str(rec),
           "--power-cut", "2:0", "--progress", str(work / f"{MCU}.progress.jsonl"),
           "--start-file", str(work / "start")]  # the fleet's common start (LearningFleet.start_file)
    try:
        mpy_cmd, mpy_dir = mpy_client_argv(bundle.parent / MPY, tmp_path, url)
        res = run_learning_fleet(load_deployment(d), url, workdir=work, commands={MCU: cmd, MPY: mpy_cmd},
                                 timeout=900)
    finally:
        stop_broker(broker)
    log = (work / f"{MCU}.log").read_text()
    assert "power cut" in log and "back with boot epoch 2" in log, log[-2000:]
    assert "RoundResumed round=2" in log, log[-2000:]  # it rebooted with round 2 taken and not answered
    assert len(res.records) == ROUNDS and res.counts.get("RoundCompleted") == ROUNDS, (res.counts, log[-1500:])
    assert not res.rejections, res.rejections  # every update (the M3's too) passed the server's validation
    for r in range(1, ROUNDS + 1):
        start = np.load(rec / f"model-r{r}-0.npy")
        ups = sorted(rec.glob(f"update-r{r}-*.npy"))
        assert ups, f"no update of round {r} from the M3 client"
        ref = reference_round(module, x, y, ids[MCU], r, start)
        for u in ups:
            np.testing.assert_allclose(np.load(u), ref, atol=1e-4, rtol=0)
    assert json.loads((mpy_dir / "config.json").read_text())["learn"]["arith"] == "int"  # the int mode trained
    mpy_log = [json.loads(line) for line in (mpy_dir / "learn.log").read_text().splitlines()]
    assert [e["round"] for e in mpy_log if e["event"] == "LocalTrainingDone"] == list(range(1, ROUNDS + 1))
    # the whole mixed run, recomputed independently (every round had every client: the cohort was whole)
    oracle = fedavg_rounds(module, {MCU: "mcu", MPY: "mpy"}, ROUNDS)
    np.testing.assert_allclose(res.final_models["server"], oracle, atol=1e-4, rtol=0)
    sim = simulate(LEARNING, d)
    assert sim.final_accuracy > 0.5
    assert res.final_accuracy >= sim.final_accuracy - 0.01, (res.final_accuracy, sim.final_accuracy)
    final = [json.loads(line) for line in (work / f"{MCU}.progress.jsonl").read_text().splitlines()]
    assert final and final[-1]["bytes_out"] > ROUNDS * module.setup.program.layout.size * 4  # updates went out


if LONG:  # collected only in the long setting (a second firmware build): RV32 runs the same client

    def _device_round_matches_reference(d: Path, target: str, tmp_path: Path, seed: int, boot_s: float,
                                        update_s: float) -> tuple[Any, np.ndarray, int]:
        """Build c0 for ``target``, boot it on a pty and check one round's update against ORT within 1e-4.

        Returns the running device (the caller stops it), the round's start vector and c0's id."""
        build_all(d, [f"c0={target}"], tmp_path / "dist")
        module, x, y, ids = client_shard(d, "c0")
        n = module.setup.program.layout.size
        dev = device_for_bundle(tmp_path / "dist" / "c0", tmp_path)
        dev.start(timeout=boot_s)
        try:
            start = (np.random.default_rng(seed).normal(0, 0.1, n)).astype(np.float32)
            dev.send(model_env(start, ids["c0"], 1, 1))
            upd = wait_learn(dev, 3, update_s)
            assert upd, f"no update from the {target} client"
            np.testing.assert_allclose(np.asarray(upd[0].array()), reference_round(module, x, y, ids["c0"], 1, start),
                                       atol=1e-4, rtol=0)
        except BaseException:
            dev.stop()
            raise
        return dev, start, ids["c0"]

    def test_rv32_client_matches_the_reference(built: tuple[Path, Path], tmp_path: Path) -> None:
        """The client on QEMU RV32 (rv32imc, soft float): one round's update equals ORT within 1e-4."""
        dev, _, _ = _device_round_matches_reference(built[0], "qemu-rv32", tmp_path, 2, 60.0, 120)
        dev.stop()

    def test_posix_client_keeps_its_round_in_a_file(built: tuple[Path, Path], tmp_path: Path) -> None:
        """The posix build (``--target c0=host``) on a pty: a round's update equals ORT, and after a restart the
        round record from its --state-file makes an older model stale; the answered round, asked again, is
        trained again and its update re-sent (ORT's again)."""
        dev, start, c0 = _device_round_matches_reference(built[0], "host", tmp_path, 3, 30.0, 60)
        try:
            dev.restart()
            dev.send(model_env(start, c0, 0, 2, edge=6))  # a MODEL_FULL of round 0: older than the kept round 1
            _, texts = wait_reports(dev, "ModelRefused")
            assert texts[-1] == "ModelRefused STALE_ROUND round=0", texts
            dev.send(model_env(start, c0, 1, 3))  # round 1 again: the server re-asks its UPDATE
            envs, _ = wait_reports(dev, None, 0.0)
            again = wait_learn(dev, 3, 60, envs)
            assert again and again[0].request_id == 1
            module, x, y, _ = client_shard(built[0], "c0")
            np.testing.assert_allclose(np.asarray(again[0].array()), reference_round(module, x, y, c0, 1, start),
                                       atol=1e-4, rtol=0)
        finally:
            dev.stop()  # type: ignore[attr-defined]
