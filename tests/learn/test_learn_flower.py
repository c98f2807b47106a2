"""Flower interop: bb-edge microcontroller clients in a Flower federation with a stock FedAvg ServerApp.

Real components only: Flower 1.42.0 (its simulation runtime on Ray, in the venv
.ci/pip-preinstall.sh prepares, because flwr pins protobuf 6), a real Mosquitto, the C FedAvg client
built for QEMU Cortex-M3 behind its serial bridge (bb_edge/adapters/learn/mcu_fleet.py), the
MicroPython training client (its bundle's main.py hosted by CPython, as the CI fleet of
tests/learn/test_learn_mcu.py runs it) and two Flower Python clients (numpy softmax regression).
The Flower ClientApp of bb_edge/adapters/learn/flower.py relays the ServerApp's train messages
to the two bb-edge clients over MQTT.

Oracle: the whole run recomputed outside every runtime: each round, the numpy clients' function,
ONNX Runtime on the same training program over the M3's batch order (the C client's xorshift order
reproduced in Python) and over MicroPython's, then the sample-weighted mean of the four trained
models. Also: every M3 update the bridge recorded equals the ORT reference within 1e-4.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from bb_edge.adapters.learn.mcu_fleet import reference_update, round_batches
from bb_edge.adapters.learn.node import load_module
from bb_edge.adapters.transports.mqtt import MqttConfig
from bb_edge.bundle.build import build_all
from bb_edge.deployment.manifest import load_deployment
from bb_edge.mpy import train as mpy_train
from bb_edge.training.models import mlp
from bb_edge.training.setup import write_learning_deployment
from bb_edge.wire.topics import Topics
from tests.learn.flower_driver import numpy_train
from tests.support.broker import start_broker, stop_broker
from tests.support.mpy_client import mpy_client_argv

ROOT = Path(__file__).resolve().parents[2]
FLOWER_PY = Path(os.environ.get("BB_EDGE_FLOWER_PYTHON",
                                str(Path.home() / ".cache/bb-edge/venvs/flwr-1.42.0/bin/python")))
ROUNDS = 3
PY_CLIENTS, MCU, MPY = ["c0", "c1"], "c2", "c3"
LEARNING: dict[str, Any] = {
    "strategy": "fedavg", "clients": 4, "rounds": ROUNDS, "epochs": 2, "seed": 5, "round_timeout": 60.0,
    "data": {"source": "digits", "partition": {"type": "partition.iid"}},
}


def _wait_present(url: str, deployment: str, names: list[str], timeout: float) -> None:
    """Until every named node's retained presence says ``up`` (its MQTT client is connected)."""
    cfg = MqttConfig.from_url(url)
    topics = Topics(deployment, cfg.prefix)
    up: set[str] = set()
    c = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"flower-test-{os.getpid()}")
    c.on_message = lambda cl, u, m: up.add(m.topic.rsplit("/", 1)[-1]) if m.payload == b"up" else None
    c.connect(cfg.host, cfg.port)
    c.loop_start()
    try:
        for n in names:
            c.subscribe(topics.presence(n), qos=1)
        deadline = time.monotonic() + timeout
        while not set(names) <= up:
            assert time.monotonic() < deadline, f"nodes {sorted(set(names) - up)} never came up"
            time.sleep(0.1)
    finally:
        c.loop_stop()
        c.disconnect()


def _oracle(module: Any, init: np.ndarray) -> np.ndarray:
    prog, cfg, ids = module.setup.program, module.cfg, dict(module.nodes())
    b, e, seed = int(cfg["batch_size"]), int(cfg["epochs"]), int(cfg["seed"])
    vec = init.astype(np.float32)
    for r in range(1, ROUNDS + 1):
        models, weights = [], []
        for name, part in zip(module.clients(), module.setup.parts, strict=True):
            x, y, n = part.x.reshape(len(part.x), -1), part.y, len(part.x)
            if name in PY_CLIENTS:
                models.append(numpy_train(vec, x, y))
            else:
                if name == MCU:
                    batches = round_batches(n, b, e, 0, seed, ids[name], r)
                else:
                    batches = mpy_train.batch_order(n, batch_size=b, epochs=e, seed=seed, node_id=ids[name], rnd=r)
                models.append(vec + reference_update(prog, vec, x, y, batches))
            weights.append(n)
        vec = np.average(np.stack(models).astype(np.float64), axis=0, weights=weights).astype(np.float32)
    return vec


def test_flower_fedavg_trains_a_federation_with_m3_and_micropython_clients(tmp_path: Path) -> None:
    """Stock Flower FedAvg (ServerApp) + 2 Flower Python clients + the QEMU M3 and MicroPython bb-edge clients
    through the relay ClientApp, 3 rounds: the final model is the sample-weighted mean, recomputed."""
    assert FLOWER_PY.exists(), f"{FLOWER_PY}: the Flower venv is prepared by .ci/pip-preinstall.sh"
    d = tmp_path / "dep"
    write_learning_deployment(d, LEARNING, model=mlp([64, 10], seed=5))
    dist = tmp_path / "dist"
    build_all(d, [f"{MCU}=qemu-cortex-m3", f"{MPY}=esp32-micropython"], dist, None, {"train_arith": "int"})
    dep = load_deployment(d)
    module = load_module(dep.extra["learning"], d)
    ids = dict(module.nodes())
    parts = dict(zip(module.clients(), module.setup.parts, strict=True))
    prog = module.setup.program
    init = np.asarray(prog.layout.flatten(prog.initial_params), dtype=np.float32)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    broker, url = start_broker(tmp_path / "broker")
    rec = tmp_path / "rec"
    procs: list[subprocess.Popen[bytes]] = []
    try:
        with open(tmp_path / "m3.log", "wb") as m3_log, open(tmp_path / "mpy.log", "wb") as mpy_log:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "bb_edge.adapters.learn.mcu_fleet", str(d), "--node", MCU, "--transport", url,
                 "--bundle", str(dist / MCU), "--state-dir", str(tmp_path / "state"), "--record", str(rec)],
                stdout=m3_log, stderr=subprocess.STDOUT, env=env))
            mpy_cmd, mpy_dir = mpy_client_argv(dist / MPY, tmp_path, url)
            procs.append(subprocess.Popen(mpy_cmd, stdout=mpy_log, stderr=subprocess.STDOUT, env=env, cwd=mpy_dir))
        _wait_present(url, dep.name, [MCU, MPY], 120)
        shards = {}
        for i, n in enumerate(PY_CLIENTS):
            p = parts[n]
            shards[str(i)] = str(tmp_path / f"{n}.npz")
            np.savez(shards[str(i)], x=p.x.reshape(len(p.x), -1).astype(np.float32), y=p.y)
        np.save(tmp_path / "init.npy", init)
        spec = {"url": url, "deployment": dep.name, "rounds": ROUNDS, "init": str(tmp_path / "init.npy"),
                "out": str(tmp_path / "final.npy"), "python": shards,
                "relays": {"2": {"node": MCU, "node_id": ids[MCU], "examples": len(parts[MCU].x), "timeout": 240.0},
                           "3": {"node": MPY, "node_id": ids[MPY], "examples": len(parts[MPY].x), "timeout": 240.0}}}
        (tmp_path / "spec.json").write_text(json.dumps(spec))
        run = subprocess.run([str(FLOWER_PY), str(ROOT / "tests/learn/flower_driver.py"), str(tmp_path / "spec.json")],
                             capture_output=True, text=True, timeout=900, env={**env, "RAY_DEDUP_LOGS": "0"})
        assert run.returncode == 0, (run.stdout[-3000:], run.stderr[-3000:])
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        stop_broker(broker)
    log = run.stdout + run.stderr
    assert "Received 4 results and 0 failures" in log, log[-3000:]
    final = np.load(tmp_path / "final.npy")
    expect = _oracle(module, init)
    assert np.abs(expect - init).max() > 1e-2  # the federation trained: the comparison is not init == init
    np.testing.assert_allclose(final, expect, atol=1e-4, rtol=0)
    # every M3 update the bridge saw equals ONNX Runtime over the device's batch order
    cfg, part = module.cfg, parts[MCU]
    x, y = part.x.reshape(len(part.x), -1), part.y
    for r in range(1, ROUNDS + 1):
        start = np.load(rec / f"model-r{r}-0.npy")
        batches = round_batches(len(x), int(cfg["batch_size"]), int(cfg["epochs"]), 0, int(cfg["seed"]), ids[MCU], r)
        np.testing.assert_allclose(np.load(rec / f"update-r{r}-0.npy"), reference_update(prog, start, x, y, batches),
                                   atol=1e-4, rtol=0)
    mpy_events = [json.loads(line) for line in (mpy_dir / "learn.log").read_text().splitlines()]
    assert [e["round"] for e in mpy_events if e["event"] == "LocalTrainingDone"] == list(range(1, ROUNDS + 1))
