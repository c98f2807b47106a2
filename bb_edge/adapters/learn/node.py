"""One node of a learning deployment: the per-node construction the simulator and real nodes share.

``bb_edge/adapters/learn/simulator.py`` (every node in one process on a virtual clock) and
``bb-edge node LEARN_DIR --node NAME`` (one node per process, real clock,
MQTT or serial) build a node the same way, here: :func:`load_module` resolves
the deployment's ``learning`` object (plus run overrides) into a
:class:`~bb_edge.strategies.modules.StrategyModule`,
:func:`prepare_programs` prepares its training programs once,
:func:`build_engine` makes the node's :class:`~bb_edge.engine.Engine` and lets
the module bind components and register its protocol handlers, and
:func:`churn_plan` says which clients leave or join late. So the protocol
handlers that run on a virtual clock are exactly the ones that run on real
nodes.

:class:`LearningNode` adds what a real node needs around that engine: a clock
(seconds since a fleet-wide origin, so round deadlines, ``start_after`` and
gossip periods mean the same on every process and across a restart), the
wire deployment (node names and ids, for the transport) and a
:class:`ProgressLog` that appends JSON lines to a file: a ``round`` record
each time the node's view of the run progresses (with held-out accuracy when
the node can evaluate it: the FedAvg server, every gossip peer), a ``bytes``
record periodically, a ``fetched`` record when a late joiner took the current
model and a ``final`` record at shutdown.
``bb_edge/adapters/learn/fleet.py`` reads these logs to write the simulator's summary.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.backends.base import Backend, get_backend
from bb_edge.deployment.manifest import Deployment, NodeSpec
from bb_edge.engine import Engine, Limits
from bb_edge.engine import events as ev
from bb_edge.errors import DeploymentError
from bb_edge.strategies.base import Msg
from bb_edge.strategies.modules import StrategyModule, module_for
from bb_edge.training.setup import build_setup
from bb_edge.wire.envelope import BROADCAST, peek

__all__ = ["ChurnPlan", "LearningNode", "ProgressLog", "build_engine", "churn_plan", "load_module", "msg_name",
           "prepare_programs", "wire_deployment"]


def load_module(learning: Mapping[str, Any], directory: str | Path | None = None, *,
                overrides: Mapping[str, Any] | None = None, clients: int | None = None,
                seed: int | None = None, only_client: int | None = None,
                program_cache: str | Path | None = None) -> StrategyModule:
    """The strategy module of a ``learning`` object with ``overrides`` (e.g. ``rounds``) merged over it.

    ``only_client`` (per-client ``data.shards``): this process is that client and reads only its shard.
    ``program_cache``: a training program saved by the fleet driver (:mod:`bb_edge.training.cache`).
    """
    cfg = {**dict(learning), **dict(overrides or {})}
    setup = build_setup(cfg, directory, clients=clients, seed=seed, only_client=only_client,
                        program_cache=program_cache)
    return module_for(setup)


def prepare_programs(module: StrategyModule, backend: Backend | str = "ort") -> dict[str, Any]:
    """Every program the module's nodes run, prepared once on ``backend`` (shared by all local engines)."""
    be = get_backend(backend) if isinstance(backend, str) else backend
    return {k: be.prepare(m, k) for k, m in module.compute().items()}


def build_engine(module: StrategyModule, name: str, prepared: Mapping[str, Any], backend: Backend | str = "ort",
                 late: bool = False) -> Engine:
    """``name``'s engine: its peer table, the shared programs, and the module's components and handlers."""
    ids = module.roster().ids  # built once per module, not per engine
    if name not in ids:
        raise DeploymentError(f"no node {name!r} in this {module.name} deployment; nodes: {', '.join(ids)}")
    # the duplicate filter remembers every node of the roster: past Limits' default (4,096 senders) a
    # server of 10^4..10^5 clients would forget the earliest and take a late replay of theirs as fresh
    limits = Limits(max_senders=max(Limits.max_senders, len(ids)))
    eng = Engine(name, ids[name], module.peers_of(name), backend=backend, limits=limits)
    for k, p in prepared.items():
        eng.attach_compute(k, p)
    module.install(eng, name, late=late)
    return eng


def wire_deployment(module: StrategyModule, name: str) -> Deployment:
    """The node names and ids of a learning run as a :class:`Deployment` (what transports address)."""
    return Deployment(name=name, nodes=[NodeSpec(n, i, "") for n, i in module.nodes()], edges=[], inputs=[],
                      outputs=[])


@dataclass
class ChurnPlan:
    """Which clients leave (after ``leave_round``) and which join late (at ``join_round``)."""

    leaving: set[str]
    late: set[str]
    leave_round: int
    join_round: int


def churn_plan(module: StrategyModule) -> ChurnPlan:
    """The seeded churn of a run (``churn``: ``leave``, ``late_join``, ``at_round``, ``join_round``)."""
    names = module.clients()
    churn_cfg = dict(module.cfg.get("churn") or {})
    rng = np.random.default_rng([int(module.cfg["seed"]), 99])
    order = [names[int(i)] for i in rng.permutation(len(names))]
    n_leave = int(round(float(churn_cfg.get("leave", 0.0)) * len(names)))
    n_late = int(round(float(churn_cfg.get("late_join", 0.0)) * len(names)))
    return ChurnPlan(set(order[:n_leave]), set(order[n_leave:n_leave + n_late]),
                     int(churn_cfg.get("at_round", max(module.rounds // 2, 1))),
                     int(churn_cfg.get("join_round", max(module.rounds // 4, 1))))


def msg_name(data: bytes) -> str:
    """The learning message type of an encoded envelope (``edgeN`` when not a :class:`Msg`)."""
    head = peek(data)
    if head is None:
        return "short"
    try:
        return Msg(head.edge).name
    except ValueError:
        return f"edge{head.edge}"


class ProgressLog:
    """JSON lines about one node's progress (see the module docstring); every write is flushed."""

    def __init__(self, path: str | Path, node: LearningNode) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.node = node
        self.done = -1
        self.finished = False
        self.counts: dict[str, int] = {}
        self.sent_to: dict[str, int] = {}  # peer ("*": a broadcast) -> bytes this node sent it
        self.sent_by_type: dict[str, int] = {}  # learning message type -> bytes this node sent

    def count_sent(self, peer: str, receiver: int, data: bytes) -> None:
        """Count one envelope this node hands to its transport, by peer and by message type (the
        simulator's :class:`~bb_edge.adapters.learn.simulator.Traffic` breakdown, per process)."""
        key = "*" if receiver == BROADCAST or peer == "*" else peer
        self.sent_to[key] = self.sent_to.get(key, 0) + len(data)
        kind = msg_name(data)
        self.sent_by_type[kind] = self.sent_by_type.get(kind, 0) + len(data)

    def _write(self, record: dict[str, Any]) -> None:
        # one O_APPEND write per line (the final record is ~15 KB): a reader polling the file never sees
        # half a line from this writer, and a line is either all there or absent
        data = (json.dumps(record) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)

    def on_events(self, evs: list[ev.Event]) -> None:
        """Count learning events (rejections by reason) for the summary; a ``fetched`` record when a late
        joiner took the current model (the fleet runner waits for it before ending the run)."""
        for e in evs:
            key = type(e).__name__
            if key == "UpdateRejected":
                key = "rejected:" + str(getattr(e, "reason", "?"))
            self.counts[key] = self.counts.get(key, 0) + 1
            if key == "ModelFetched":
                self._write({"kind": "fetched", "node": self.node.name, "round": int(getattr(e, "round", 0)),
                             "wall": time.time()})

    def check(self, now: float) -> None:
        """Append a ``round`` record when the node's progress or finished flag changed."""
        p, fin = self.node.progress(now)
        if p is None or (p <= self.done and fin == self.finished):
            return
        self.done, self.finished = p, fin
        self._write({"kind": "round", "node": self.node.name, "round": p, "finished": fin,
                     "accuracy": self.node.accuracy(), "now": now, "wall": time.time(),
                     "bytes_out": self.node.engine.counters["bytes_out"]})

    def bytes(self, now: float) -> None:
        """Append a ``bytes`` record (cumulative bytes this node sent)."""
        self._write({"kind": "bytes", "node": self.node.name, "now": now, "wall": time.time(),
                     "bytes_out": self.node.engine.counters["bytes_out"]})

    def final(self) -> None:
        """Append the ``final`` record: bytes, event counts and the node's model vector (as a list)."""
        model = self.node.engine.bindings.get("model")
        vec = getattr(model, "vector", None)
        self._write({"kind": "final", "node": self.node.name, "wall": time.time(),
                     "bytes_out": self.node.engine.counters["bytes_out"], "events": self.counts,
                     "sent_to": self.sent_to, "sent_by_type": self.sent_by_type,
                     "model_round": int(getattr(model, "round", 0)),
                     "model": None if vec is None else [float(v) for v in np.asarray(vec).reshape(-1)]})


@dataclass
class LearningNode:
    """One node of a learning deployment, built for a real transport (see the module docstring)."""

    module: StrategyModule
    name: str
    engine: Engine
    deployment: Deployment
    origin: float = field(default_factory=time.time)

    @classmethod
    def load(cls, dep: Deployment, name: str, *, overrides: Mapping[str, Any] | None = None,
             backend: str = "ort", late: bool = False, origin: float | None = None,
             program_cache: str | Path | None = None) -> LearningNode:
        """Build node ``name`` of the learning deployment ``dep`` (``overrides`` merged over its config).

        ``program_cache`` (ONNX Runtime only): run the training program the fleet driver saved there
        (:mod:`bb_edge.training.cache`) instead of building it, when it was built from the same model.
        """
        learning = dep.extra["learning"]
        only = None
        shards = isinstance(learning.get("data"), dict) and learning["data"].get("shards") is not None
        m = re.fullmatch(r"[cn](\d+)", name)
        if shards and m:  # a client node of a sharded data set reads only its own shard file
            only = int(m.group(1))
        module = load_module(learning, dep.directory, overrides=overrides, only_client=only,
                             program_cache=program_cache if backend == "ort" else None)
        be = get_backend(backend)
        eng = build_engine(module, name, prepare_programs(module, be), be, late=late)
        return cls(module, name, eng, wire_deployment(module, dep.name),
                   time.time() if origin is None else float(origin))

    def hello(self) -> None:
        """Announce this node to its peers: the server to everyone, a client to the server only.

        A client's engine knows the server and itself, not the other clients; a broadcast HELLO
        would reach each of them as a refusal (``Unauthorised``), N x (N - 1) per start.
        """
        if self.name == "server" or "server" not in self.engine.peers:
            self.engine.hello()
            return
        self.engine.hello("server")

    def clock(self) -> float:
        """Seconds since the fleet's origin (wall clock: the same origin means the same time on every node)."""
        return time.time() - self.origin

    def wait_start(self, path: str | Path, stopping: Callable[[], bool] = lambda: False,
                   poll: float = 0.05) -> None:
        """Wait until ``path`` holds the fleet's origin (a UNIX time), take it, then sleep until it.

        A file that is not a number yet (being written) is read again; a stop
        request ends the wait early.
        """
        p = Path(path)
        while not stopping():
            try:
                self.origin = float(p.read_text().strip())
                break
            except (OSError, ValueError):
                time.sleep(poll)
        while not stopping():
            left = -self.clock()  # read once: a second read may already be past the origin (a negative sleep)
            if left <= 0:
                break
            time.sleep(min(poll, left))

    def progress(self, now: float) -> tuple[int | None, bool]:
        """(rounds done, finished) as this node alone sees them; ``None`` if it cannot tell (a FedAvg client)."""
        view = {self.name: self.engine}
        try:
            return int(self.module.progress(now, view)), bool(self.module.finished(now, view))
        except (KeyError, StopIteration, AttributeError):
            return None, False

    def accuracy(self) -> float | None:
        """Held-out accuracy of this node's model, or ``None`` if it alone cannot be evaluated."""
        try:
            acc = float(self.module.evaluate({self.name: self.engine}))
        except (KeyError, StopIteration, AttributeError, ValueError, TypeError):
            return None
        return acc if np.isfinite(acc) else None
