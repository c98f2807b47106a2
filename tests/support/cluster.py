"""What the tests on the 3-member RabbitMQ cluster share (tests/adapters/test_cluster_rabbit.py, issue 35; the
cluster itself is the ``cluster`` fixture of tests/support/cluster_fixtures.py):

- :func:`fedavg_on_cluster`: a FedAvg digits deployment imported into the running cluster, with its URL;
- :func:`c_client_commands`: the C learning clients' command lines on that URL (``bbrt-learn-mqtt``);
- :class:`MemberKill`: SIGKILL a member once a condition holds, bring it back after ``down`` seconds;
- :func:`server_events`: the FedAvg server's events of one kind, read from its log;
- :func:`cli_env`: the environment a ``python -m bb_edge.cli`` subprocess of this tree runs with.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bb_edge.adapters.ops.rabbit import RabbitCluster
from bb_edge.deployment.manifest import Deployment, load_deployment

ROOT = Path(__file__).resolve().parents[2]


def cli_env() -> dict[str, str]:
    """The environment of a ``python -m bb_edge.cli`` subprocess that runs this tree's code."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def cluster_url(cluster: RabbitCluster, creds: Path) -> str:
    """The multi-member URL of ``cluster`` with the credentials file ``creds`` (of an added deployment)."""
    files = cluster.files
    return "mqtt://" + ",".join(f"{files.host}:{m.port}" for m in files.members) + f"?creds={creds}"


def fedavg_on_cluster(cluster: RabbitCluster, root: Path, **learning: Any) -> tuple[Deployment, str]:
    """A FedAvg deployment (digits, iid, mlp 64-10, seed 5, one epoch; ``learning`` adds or overrides keys)
    written under ``root/fed``, its users imported into the running ``cluster``: ``(deployment, URL)``."""
    from bb_edge.training.models import mlp
    from bb_edge.training.setup import write_learning_deployment

    base = {"strategy": "fedavg", "epochs": 1, "seed": 5,
            "data": {"source": "digits", "partition": {"type": "partition.iid"}}}
    d = root / "fed"
    write_learning_deployment(d, {**base, **learning}, model=mlp([64, 10], seed=5))
    dep = load_deployment(d)
    return dep, cluster_url(cluster, cluster.add_deployment(dep))


def c_client_commands(root: Path, dep: Deployment, url: str, names: list[str], work: Path,
                      **per_client: Callable[[str], Any]) -> dict[str, list[str]]:
    """Build ``bbrt-learn-mqtt`` under ``root``, write each client's image and return its command line on
    ``url`` (common start file in ``work``, progress file ``root/NAME.progress``); ``per_client`` gives
    further :func:`~bb_edge.adapters.learn.c_mqtt.client_argv` arguments as functions of the client's name."""
    from bb_edge.adapters.learn.c_mqtt import build_client, client_argv, write_client_images

    assert dep.directory is not None
    exe = build_client(root / "cbuild")
    images = write_client_images(dep.directory, names, root / "images")
    return {n: client_argv(exe, images[n], n, dep.name, url, start_file=work / "start",
                           progress=root / f"{n}.progress", **{k: f(n) for k, f in per_client.items()})
            for n in names}


def server_events(work: Path, kind: str) -> list[dict[str, str]]:
    """The ``key=value`` fields of each ``event KIND ...`` line of the fleet's server log, in order."""
    log = (work / "server.log").read_text(errors="replace").splitlines()
    return [dict(kv.split("=", 1) for kv in ln.split()[2:] if "=" in kv)
            for ln in log if ln.startswith(f"event {kind} ")]


class MemberKill:
    """A thread that waits until ``when()`` holds, SIGKILLs member ``victim``, keeps it down ``down`` seconds
    and starts it again. ``note()`` (if given) is recorded at the kill and before the restart (``notes``);
    ``log`` says what happened. As a context manager it stops waiting on exit and joins the thread."""

    def __init__(self, cluster: RabbitCluster, when: Callable[[], bool], down: float, victim: int = 0,
                 note: Callable[[], Any] | None = None) -> None:
        self.cluster, self.when, self.down, self.victim, self.note = cluster, when, down, victim, note
        self.log: list[str] = []
        self.notes: list[Any] = []
        self._stop = threading.Event()
        self._th = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set() and not self.when():
            time.sleep(0.02)
        if self._stop.is_set():
            return
        if self.note is not None:
            self.notes.append(self.note())
        self.cluster.kill(self.victim)
        self.log.append(f"SIGKILL member {self.victim + 1}")
        time.sleep(self.down)
        if self.note is not None:
            self.notes.append(self.note())  # before the restart: what was made while the member was down
        self.cluster.start_member(self.victim)
        self.log.append(f"member {self.victim + 1} back")

    def __enter__(self) -> MemberKill:
        self._th.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._th.join(300)
