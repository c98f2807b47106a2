"""A federation through a broker outage: rounds time out and resume, the final model follows FedAvg's rules.

Real components: Mosquitto (with persistence, stopped by SIGTERM and started again on the same port,
as a broker host reboots), the Python FedAvg server and client processes (``bb-edge node``).

The server counts completed rounds (``"rounds_count": "completed"``): an aborted round does not use
up the run, so training resumes after the outage until ``rounds`` rounds are done.

Oracle: FedAvg's rules applied to what the server reports. Every round the server completed
(``RoundCompleted``) had its whole cohort (``min_clients`` = all clients: a round that loses an
update to the outage aborts, it never averages a part); an aborted round leaves the model as it
was. So the final model is the initial one plus, for each completed round in order, the
sample-weighted mean of every client's plain update from the model before it, recomputed here by
fresh engines (the clients' training is seeded by round and node).

CI: a 25 s broker outage (round_timeout 2 s: several rounds abort in it), then one client partitioned
for 8 s; ``BB_EDGE_LONG=1``: 60 s each.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.learn.fleet import LearningFleet
from bb_edge.adapters.ops.broker import free_port, mosquitto_binary
from bb_edge.deployment.manifest import load_deployment
from bb_edge.learn.deployment import write_learning_deployment
from tests.learn.test_learn_secagg_mqtt import _init, _plain_updates, _sizes, _weighted_mean

LONG = os.environ.get("BB_EDGE_LONG") == "1"
OUTAGE = 60.0 if LONG else 25.0
PARTITION = 60.0 if LONG else 8.0  # one client cut off (SIGSTOP: it neither sends nor reads) after the outage


def _broker(conf: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([mosquitto_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _events(fleet: LearningFleet, name: str, kind: str) -> list[str]:
    return [ln for ln in fleet.log_file(name).read_text(errors="replace").splitlines()
            if ln.startswith(f"event {kind} ")]


def _wait(pred: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def test_fedavg_survives_a_broker_outage(tmp_path: Path) -> None:
    """The broker is down for OUTAGE seconds after round 2, then client c1 is partitioned for PARTITION
    seconds: no node exits, the rounds in either abort, the clients reconnect (c1 with its process and
    state) and train again, all rounds are run, and the final model is FedAvg's."""
    # rounds take well under a second here, so the run must be long enough that the outage and the
    # partition both fall inside it (with 10 rounds a fast machine finished before the partition began)
    clients, rounds = 3, 40
    cfg = {"strategy": "fedavg", "clients": clients, "rounds": rounds, "seed": 5, "round_timeout": 2.0,
           "min_clients": clients, "heartbeat": 0.5, "start_after": 120.0, "rounds_count": "completed",
           "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}
    d = tmp_path / "dep"
    write_learning_deployment(d, cfg)
    port = free_port()
    (tmp_path / "db").mkdir()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
                    f"persistence_location {tmp_path / 'db'}/\n")
    broker = _broker(conf)
    time.sleep(0.5)
    fleet = LearningFleet(load_deployment(d), f"mqtt://127.0.0.1:{port}", {}, tmp_path / "work")
    names = ["server", *[f"c{i}" for i in range(clients)]]
    try:
        for n in names:
            fleet.spawn(n)
        fleet.wait_up(names, 120)
        fleet.go()
        _wait(lambda: len(_events(fleet, "server", "RoundCompleted")) >= 2, 120, "two rounds")
        os.kill(broker.pid, signal.SIGTERM)  # the broker host goes down
        broker.wait(10)
        before = len(_events(fleet, "server", "RoundCompleted"))
        time.sleep(OUTAGE)
        assert all(p.popen.poll() is None for p in fleet.procs.values()), "a node exited during the outage"
        broker = _broker(conf)  # back on the same port, with its sessions
        _wait(lambda: len(_events(fleet, "server", "RoundCompleted")) >= before + 2, 120, "rounds after the outage")
        cut = len(_events(fleet, "server", "RoundAborted"))
        victim = fleet.procs["c1"].popen
        os.kill(victim.pid, signal.SIGSTOP)  # c1 is partitioned: silent, its state kept
        at_cut = len(_events(fleet, "server", "RoundCompleted"))
        assert at_cut < rounds, f"the run finished ({at_cut} rounds) before c1 was partitioned: raise rounds"
        time.sleep(PARTITION)
        # a round aborts within round_timeout of its start; the bound only absorbs a loaded machine
        _wait(lambda: len(_events(fleet, "server", "RoundAborted")) > cut, 30, "a round to abort while c1 is cut off")
        cut_aborted = len(_events(fleet, "server", "RoundAborted")) - cut
        os.kill(victim.pid, signal.SIGCONT)
        _wait(lambda: len(_events(fleet, "server", "RoundCompleted")) >= rounds, 180, f"{rounds} completed rounds")
        _wait(lambda: bool(_events(fleet, "server", "TrainingFinished")), 30, "the server to finish")
    finally:
        fleet.stop_all()
        os.kill(broker.pid, signal.SIGTERM)
        broker.wait(10)
    done = _events(fleet, "server", "RoundCompleted")
    aborted = _events(fleet, "server", "RoundAborted")
    assert aborted, "no round timed out during the outage"
    assert cut_aborted > 0, "no round timed out while c1 was partitioned"
    assert len(done) > before, "no round completed after the broker came back"
    for n in names[1:]:  # every client reconnected and trained again after the outage
        assert len(_events(fleet, n, "LocalTrainingDone")) > before, n
    completed = []
    for ln in done:
        rnd, acc, coh = (int(re.search(rf" {k}=(\d+)", ln).group(1)) for k in ("round", "accepted", "cohort"))  # type: ignore[union-attr]
        assert acc == coh == clients, ln  # min_clients = all: only whole rounds are averaged
        completed.append(rnd)
    # ``rounds_count: completed``: an aborted round is retried under the next number, so the run has
    # exactly ``rounds`` completed rounds, numbered past the aborted ones
    assert sorted(completed) == completed and len(completed) == rounds and completed[-1] > rounds
    finals = [r for r in fleet.records("server") if r["kind"] == "final"]
    assert len(finals) == 1
    model = _init(cfg)
    everyone = [f"c{i}" for i in range(clients)]
    for rnd in completed:
        model = model + _weighted_mean(_plain_updates(cfg, everyone, model, rnd), _sizes(cfg))
    np.testing.assert_allclose(np.asarray(finals[0]["model"], dtype=np.float64), model, atol=1e-5)
