"""The MicroPython FedAvg client over a serial line: ``bb-edge build LEARN_DIR --target c1=esp32-micropython
--transport serial`` writes the UART and link-layer settings; the bundle's own main.py runs
bbnode/learn_client.SerialClient (COBS + CRC-32 frames, bbnode/link.py's link layer) on a real pty, hosted by
CPython with bbnode's sources (machine.UART is the pty: adapters/mcu_learn.MPY_UART_SHIM).

In a FedAvg run on a real Mosquitto, the client joins through the serial<->MQTT bridge the C clients use
(bb_edge/adapters/learn/mcu_fleet.py, relaying envelopes unopened) next to a Linux client process. Oracle: ONNX Runtime
running the same ONNX training program over the device's batches (bb_edge.mpy.train.batch_order /
reference_update, independent of the device's code), for every round's update, within 1e-4.

CI: 2 clients, 2 rounds, 1 epoch. ``BB_EDGE_LONG=1``: 3 clients, 4 rounds, 2 epochs.
Not exercised here: the MicroPython VM (tests/micropython/test_micropython_train.py: runs the VM's trainer).
"""

from __future__ import annotations

import json
import os
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.learn.fleet import run_learning_fleet
from bb_edge.adapters.learn.mcu_fleet import device_for_bundle
from bb_edge.adapters.learn.node import load_module
from bb_edge.bundle.build import build_all
from bb_edge.deployment.manifest import load_deployment
from bb_edge.errors import BuildError
from bb_edge.mpy.train import batch_order, reference_update
from bb_edge.training.models import mlp
from bb_edge.training.setup import write_learning_deployment
from bb_edge.wire import Envelope, decode, encode
from tests.support.broker import start_broker, stop_broker
from tests.support.learn_device import wait_learn

LONG = os.environ.get("BB_EDGE_LONG") == "1"
CLIENTS, ROUNDS, EPOCHS = (3, 4, 2) if LONG else (2, 2, 1)
MPY = f"c{CLIENTS - 1}"
SERVER_ID = 1
LEARNING: dict[str, Any] = {
    "strategy": "fedavg", "clients": CLIENTS, "rounds": ROUNDS, "epochs": EPOCHS, "seed": 5, "round_timeout": 60.0,
    "data": {"source": "digits", "partition": {"type": "partition.iid"}},
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A softmax-regression digits deployment and its MicroPython client bundle on a serial line."""
    root = tmp_path_factory.mktemp("mpy-serial")
    d = root / "dep"
    write_learning_deployment(d, LEARNING, model=mlp([64, 10], seed=5))
    build_all(d, [f"{MPY}=esp32-micropython"], root / "dist", options={"transport": "serial:///dev/ttyUSB0"})
    return d, root / "dist" / MPY


def _reference(d: Path, node: str, rnd: int, start: np.ndarray) -> np.ndarray:
    module = load_module(load_deployment(d).extra["learning"], d)
    part = module.setup.parts[module.clients().index(node)]
    x = part.x.reshape(len(part.x), -1)
    cfg = module.cfg
    batches = batch_order(len(x), batch_size=int(cfg["batch_size"]), epochs=int(cfg["epochs"]), seed=int(cfg["seed"]),
                          node_id=dict(module.nodes())[node], rnd=rnd)
    trained, _ = reference_update(module.setup.program, start, x, part.y, batches)
    return trained - np.asarray(start, np.float32)


def test_serial_bundle_config(built: tuple[Path, Path]) -> None:
    """--transport serial: UART and link sections, no MQTT or Wi-Fi; a queue that holds an update."""
    d, bundle = built
    cfg = json.loads((bundle / "config.json").read_text())
    assert cfg["transport"] == "serial" and "mqtt" not in cfg and "wifi" not in cfg
    assert cfg["link"]["enabled"] and cfg["uart"]["baud"] > 0
    n = load_module(load_deployment(d).extra["learning"], d).setup.program.layout.size
    assert cfg["link"]["queue_bytes"] > 96 + 4 * n and cfg["link"]["reassembly_budget"] >= 96 + 4 * n


def test_serial_client_on_a_pty_matches_ort_and_refuses_stale(built: tuple[Path, Path], tmp_path: Path) -> None:
    """On a pty: PONG, JOIN with the shard size, MODEL_FULL taken, a round's update equals ORT within 1e-4, the
    same round asked again re-sends the same update bytes, an older round is a typed refusal reported over the
    line and answered by nothing."""
    d, bundle = built
    module = load_module(load_deployment(d).extra["learning"], d)
    nid = dict(module.nodes())[MPY]
    n = module.setup.program.layout.size
    part = module.setup.parts[module.clients().index(MPY)]
    dev = device_for_bundle(bundle, tmp_path / "flash")
    dev.start(timeout=30.0)  # type: ignore[attr-defined]  # link handshake and PING -> PONG
    try:
        join = wait_learn(dev, 1, 15)
        assert join and np.asarray(join[0].array()).tolist() == [len(part.x)]
        start = np.random.default_rng(3).normal(0, 0.1, n).astype(np.float32)

        def model(vec: np.ndarray, rnd: int, seq: int, edge: int = 2) -> bytes:
            return encode(Envelope.for_array(vec, sender=SERVER_ID, receiver=nid, seq=(9 << 32) | seq,
                                             request_id=rnd, edge=edge, protocol=17))

        dev.send(model(start, 0, 1, edge=6))
        dev.send(model(start, 1, 2))
        upd = wait_learn(dev, 3, 60)
        assert upd and upd[0].request_id == 1
        ref = _reference(d, MPY, 1, start)
        assert np.abs(ref).max() > 1e-3
        np.testing.assert_allclose(np.asarray(upd[0].array(), np.float32), ref, atol=1e-4, rtol=0)
        # the round record (the C client's layout): round 1 answered with start + update, CRC-32 as zlib's
        rec = (tmp_path / "flash" / MPY / "learn.state").read_bytes()
        magic, _v, node_id, count, answered, model_round, pending, crc = struct.unpack_from("<8I", rec)
        assert (magic, node_id, count, answered, model_round, pending) == (0x4E4C4242, nid, n, 1, 1, 0)
        assert crc == zlib.crc32(rec[:28] + rec[32:])
        np.testing.assert_allclose(np.frombuffer(rec[32:], "<f4"), start + ref, atol=1e-4)
        dev.send(model(start, 1, 3))  # round 1 again: the server re-asks; the round is trained again, the same bytes
        again = wait_learn(dev, 3, 60)
        assert again and again[0].request_id == 1 and bytes(again[0].data) == bytes(upd[0].data)
        dev.send(model(start, 0, 4))  # a MODEL of a round older than the one trained: stale
        texts: list[str] = []
        late: list[Any] = []
        deadline = time.monotonic() + 10
        while not any(t.startswith("ModelRefused") for t in texts) and time.monotonic() < deadline:
            late += [decode(e) for e in dev.wait_data(1, 0.1)]
            texts += [bytes(c.data).decode() for c in dev.control if c.edge == 5]
            dev.control.clear()
        assert "ModelRefused stale_round round=0" in texts, texts
        assert not [e for e in late if e.edge == 3]
    finally:
        dev.stop()  # type: ignore[attr-defined]


def test_fedavg_run_with_a_serial_micropython_client(built: tuple[Path, Path], tmp_path: Path) -> None:
    """FedAvg digits over Mosquitto: a Linux client process and the MicroPython client on its pty behind the
    serial<->MQTT bridge. The MicroPython process is SIGKILLed right after it kept the last round's model and
    started again on the same pty: it resumes that round from its record file and the run finishes. Every
    round completes with every client, no update is refused, and each of the MicroPython client's updates
    equals ORT from the model it was sent, within 1e-4."""
    d, bundle = built
    broker, url = start_broker(tmp_path / "broker")
    rec, work = tmp_path / "rec", tmp_path / "work"
    cmd = [sys.executable, "-m", "bb_edge.adapters.learn.mcu_fleet", str(d), "--node", MPY, "--transport", url,
           "--bundle", str(bundle), "--state-dir", str(tmp_path / "flash"), "--record", str(rec),
           "--progress", str(work / f"{MPY}.progress.jsonl"), "--start-file", str(work / "start"),
           "--power-cut", f"{ROUNDS}:0"]  # SIGKILL as soon as it took the last round's model; boot it again
    try:
        res = run_learning_fleet(load_deployment(d), url, workdir=work, commands={MPY: cmd}, timeout=300)
    finally:
        stop_broker(broker)
    log = (work / f"{MPY}.log").read_text()
    assert len(res.records) == ROUNDS and res.counts.get("RoundCompleted") == ROUNDS, (res.counts, log[-1500:])
    assert not res.rejections, res.rejections
    assert "power cut" in log and "back with boot epoch 2" in log, log[-2000:]
    assert f"RoundResumed round={ROUNDS}" in log, log[-2000:]  # trained again from its round record
    for r in range(1, ROUNDS + 1):
        start = np.load(rec / f"model-r{r}-0.npy")
        ups = sorted(rec.glob(f"update-r{r}-*.npy"))
        assert ups, f"no update of round {r} from the MicroPython client: {log[-1500:]}"
        ref = _reference(d, MPY, r, start)
        for u in ups:
            np.testing.assert_allclose(np.load(u), ref, atol=1e-4, rtol=0)


def test_build_refuses_other_transports(tmp_path: Path) -> None:
    """A transport that is neither MQTT nor serial is a typed refusal."""
    d = tmp_path / "dep"
    write_learning_deployment(d, {**LEARNING, "clients": 2}, model=mlp([64, 10], seed=5))
    with pytest.raises(BuildError, match="MQTT or serial"):
        build_all(d, ["c1=esp32-micropython"], tmp_path / "dist", options={"transport": "tcp://x:1"})
