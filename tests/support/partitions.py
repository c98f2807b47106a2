"""A FedAvg federation through a broker outage and a client partition (issue 28), as one function.

Shared by tests/learn/test_learn_partitions.py (CI: a 60 s outage) and bench/bench_partitions.py (the
issue's full 5-minute outage and 5-minute partition). Real components: Mosquitto with persistence,
stopped by SIGTERM and started again on the same port (a broker host reboots), the Python FedAvg server
and client processes (``bb-edge node``); the partitioned client is SIGSTOPped (it neither sends nor
reads, its process and state kept) and SIGCONTed.

Oracle: FedAvg's rules applied to what the server reports (see the test's docstring).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.learn.fleet import LearningFleet
from bb_edge.adapters.ops.broker import free_port, mosquitto_binary
from bb_edge.deployment.manifest import load_deployment
from bb_edge.training.setup import write_learning_deployment
from tests.support.fedavg_oracle import fedavg_server_rounds
from tests.support.transport_helpers import wait_until


def _broker(conf: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([mosquitto_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def events(fleet: LearningFleet, name: str, kind: str) -> list[str]:
    """The ``event KIND ...`` lines node ``name`` logged so far."""
    return [ln for ln in fleet.log_file(name).read_text(errors="replace").splitlines()
            if ln.startswith(f"event {kind} ")]


@dataclass
class PartitionRun:
    """What one run saw: counts before/after each fault, the server's rounds and its final model."""

    cfg: dict[str, Any]
    clients: int
    before: int = 0  # rounds completed when the broker went down
    outage_aborted: int = 0  # rounds aborted while the broker was down (seen once it was back)
    cut_aborted: int = 0  # rounds aborted while the client was partitioned
    recover_s: float = 0.0  # broker back -> next completed round
    rejoin_s: float = 0.0  # client resumed -> next completed round with it in the cohort
    exited: list[str] = field(default_factory=list)  # nodes that exited during a fault
    completed: list[int] = field(default_factory=list)  # round numbers the server completed
    cohorts: list[tuple[int, int]] = field(default_factory=list)  # (accepted, cohort) per completed round
    trained_after: dict[str, int] = field(default_factory=dict)  # client -> LocalTrainingDone events in all
    final: np.ndarray | None = None
    expected: np.ndarray | None = None  # FedAvg's rule over the completed rounds


def run_partitions(tmp: Path, outage: float, partition: float, clients: int = 3, rounds: int = 40) -> PartitionRun:
    """Broker down for ``outage`` s after round 2, then client c1 partitioned for ``partition`` s."""
    # rounds take well under a second here, so the run must be long enough that the outage and the
    # partition both fall inside it (with 10 rounds a fast machine finished before the partition began)
    cfg = {"strategy": "fedavg", "clients": clients, "rounds": rounds, "seed": 5, "round_timeout": 2.0,
           "min_clients": clients, "heartbeat": 0.5, "start_after": 120.0, "rounds_count": "completed",
           "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}
    d = tmp / "dep"
    write_learning_deployment(d, cfg)
    port = free_port()
    (tmp / "db").mkdir()
    conf = tmp / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
                    f"persistence_location {tmp / 'db'}/\n")
    run = PartitionRun(cfg, clients)
    broker = _broker(conf)
    time.sleep(0.5)
    fleet = LearningFleet(load_deployment(d), f"mqtt://127.0.0.1:{port}", {}, tmp / "work")
    names = ["server", *[f"c{i}" for i in range(clients)]]
    done = lambda: len(events(fleet, "server", "RoundCompleted"))  # noqa: E731
    aborted = lambda: len(events(fleet, "server", "RoundAborted"))  # noqa: E731
    try:
        for n in names:
            fleet.spawn(n)
        fleet.wait_up(names, 120)
        fleet.go()
        wait_until(lambda: done() >= 2, 120, "two rounds")
        os.kill(broker.pid, signal.SIGTERM)  # the broker host goes down
        broker.wait(10)
        run.before, a0 = done(), aborted()
        time.sleep(outage)
        run.exited += [n for n, p in fleet.procs.items() if p.popen.poll() is not None]
        broker = _broker(conf)  # back on the same port, with its sessions
        t0 = time.monotonic()
        wait_until(lambda: done() > run.before, 180, "a round after the outage")
        run.recover_s = time.monotonic() - t0
        wait_until(lambda: done() >= run.before + 2, 120, "rounds after the outage")
        run.outage_aborted = aborted() - a0
        cut = aborted()
        victim = fleet.procs["c1"].popen
        os.kill(victim.pid, signal.SIGSTOP)  # c1 is partitioned: silent, its state kept
        at_cut = done()
        assert at_cut < rounds, f"the run finished ({at_cut} rounds) before c1 was partitioned: raise rounds"
        time.sleep(partition)
        # a round aborts within round_timeout of its start; the bound only absorbs a loaded machine
        wait_until(lambda: aborted() > cut, 30, "a round to abort while c1 is cut off")
        run.cut_aborted = aborted() - cut
        run.exited += [n for n, p in fleet.procs.items() if p.popen.poll() is not None]
        at_cont = done()
        os.kill(victim.pid, signal.SIGCONT)
        t1 = time.monotonic()
        wait_until(lambda: done() > at_cont, 180, "a round after c1 came back")
        run.rejoin_s = time.monotonic() - t1
        wait_until(lambda: done() >= rounds, 300, f"{rounds} completed rounds")
        wait_until(lambda: bool(events(fleet, "server", "TrainingFinished")), 30, "the server to finish")
    finally:
        fleet.stop_all()
        os.kill(broker.pid, signal.SIGTERM)
        broker.wait(10)
    for ln in events(fleet, "server", "RoundCompleted"):
        rnd, acc, coh = (int(re.search(rf" {k}=(\d+)", ln).group(1)) for k in ("round", "accepted", "cohort"))  # type: ignore[union-attr]
        run.completed.append(rnd)
        run.cohorts.append((acc, coh))
    run.trained_after = {n: len(events(fleet, n, "LocalTrainingDone")) for n in names[1:]}
    finals = [r for r in fleet.records("server") if r["kind"] == "final"]
    if len(finals) == 1:
        run.final = np.asarray(finals[0]["model"], dtype=np.float64)
    run.expected = fedavg_server_rounds(cfg, [f"c{i}" for i in range(clients)], run.completed)
    return run
