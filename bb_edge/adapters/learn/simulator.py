"""Simulate a learning deployment: N engines in one process on the in-process fleet, virtual clock.

``simulate(learning, ...)`` builds one :class:`~bb_edge.engine.Engine` per
node (the strategy module binds its components and registers its protocol
handlers), prepares every training program ONCE and attaches it to all
engines (``attach_compute``), wires them with :class:`InProcFleet` and a
seeded :class:`LinkModel` (latency, jitter, loss, bandwidth), and drives the
virtual clock. Churn: a seeded fraction of clients leaves at a round (their
engines stop being polled and envelopes to them are dropped), another joins
late (their engines start then and fetch the current model first).
``run_learning`` is the ``bb-edge run DIR`` entry point for deployments with
a ``learning`` object.

Accounting: every envelope is counted once as sent (by its sender) and once
per receiver as received, by round (the round open when it was routed) and
by message type (the learning ``Msg`` in the envelope's edge field). The
per-node figure (``bytes_per_node``) is the mean over the clients/peers only
(sent + received), never the server. ``measure_memory`` records the
process's peak RSS (``VmHWM``) and the largest PSS sampled at each round
from ``/proc`` (Linux), not tracemalloc (which slows the run and misses
memory held outside the Python heap).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.learn.node import build_engine, churn_plan, load_module, msg_name, prepare_programs
from bb_edge.adapters.transports.inproc import InProcFleet, LinkModel
from bb_edge.backends.base import get_backend
from bb_edge.deployment.manifest import Deployment, NodeSpec
from bb_edge.engine import Engine
from bb_edge.strategies import events as lev
from bb_edge.strategies.modules import StrategyModule
from bb_edge.wire.envelope import BROADCAST

_msg_name = msg_name  # one naming of message types for the simulator and node processes


@dataclass
class Traffic:
    """Bytes by direction and node, by round and by message type."""

    sent: dict[str, int] = field(default_factory=dict)
    received: dict[str, int] = field(default_factory=dict)
    by_type: dict[str, int] = field(default_factory=dict)
    by_round: dict[int, int] = field(default_factory=dict)
    by_round_type: dict[int, dict[str, int]] = field(default_factory=dict)

    def add(self, sender: str, targets: list[str], n: int, kind: str, rnd: int) -> None:
        """Count one envelope of ``n`` bytes sent by ``sender`` to ``targets``."""
        self.sent[sender] = self.sent.get(sender, 0) + n
        for t in targets:
            self.received[t] = self.received.get(t, 0) + n
        self.by_type[kind] = self.by_type.get(kind, 0) + n
        self.by_round[rnd] = self.by_round.get(rnd, 0) + n
        per = self.by_round_type.setdefault(rnd, {})
        per[kind] = per.get(kind, 0) + n


class _AccountingFleet(InProcFleet):
    """The in-process fleet with :class:`Traffic` accounting (round set by the simulation loop)."""

    def __init__(self, *args: Any, round_of: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.traffic = Traffic()
        # the round open when an envelope is routed (after the handler that sent it ran)
        self.round_of = round_of or (lambda: 1)

    def due_envelopes(self) -> list[tuple[str, Any]]:
        """(target, envelope or bytes) of every delivery due at the current time (the next step's)."""
        return [(t, d) for when, _, _, t, d in self._heap if when <= self.now + 1e-12]

    def _route(self, sender: str, peer: str, receiver: int, data: bytes) -> None:
        if receiver == BROADCAST or peer == "*":
            targets = [n for n in list(self.engines) + list(self.external) if n != sender]
        else:
            targets = [self.names.get(receiver, peer)]
        self.traffic.add(sender, targets, len(data), _msg_name(data), int(self.round_of()))
        super()._route(sender, peer, receiver, data)


def _proc_memory_mb() -> tuple[float | None, float | None]:
    """(peak RSS ``VmHWM``, current PSS) of this process in MiB from /proc; ``None`` where unavailable."""
    def field_kb(path: str, key: str) -> float | None:
        try:
            with open(path) as fh:
                for line in fh:
                    if line.startswith(key):
                        return float(line.split()[1])
        except OSError:
            return None
        return None

    hwm = field_kb("/proc/self/status", "VmHWM:")
    pss = field_kb("/proc/self/smaps_rollup", "Pss:")
    return (None if hwm is None else hwm / 1024, None if pss is None else pss / 1024)


class SimulationError(RuntimeError):
    """The simulation could not make progress (virtual-time limit reached)."""


@dataclass
class RoundRecord:
    """Figures after one round."""

    round: int
    accuracy: float
    virtual_time: float
    wall_time: float
    bytes_total: int
    bytes_per_node: float
    live_nodes: int


@dataclass
class SimResult:
    """What a simulation produced: per-round records and counted events."""

    strategy: str
    nodes: int
    records: list[RoundRecord] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    rejections: dict[str, int] = field(default_factory=dict)
    departed: list[str] = field(default_factory=list)
    joined: list[str] = field(default_factory=list)
    wall_time: float = 0.0
    bytes_total: int = 0
    bytes_per_node: float = 0.0
    peak_memory_mb: float | None = None
    peak_pss_mb: float | None = None
    traffic: Traffic = field(default_factory=Traffic)
    server: str | None = None
    model: np.ndarray | None = field(default=None, repr=False)
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. the Ray cluster a run used (learn_ray)

    @property
    def final_accuracy(self) -> float:
        """Accuracy after the last round."""
        return self.records[-1].accuracy if self.records else float("nan")

    def summary(self) -> dict[str, Any]:
        """The final figures as a JSON-ready dict."""
        rounds = len(self.records)
        return {
            "strategy": self.strategy, "nodes": self.nodes, "rounds": rounds,
            "final_accuracy": self.final_accuracy,
            "best_accuracy": max((r.accuracy for r in self.records), default=float("nan")),
            "accuracy_per_round": [round(r.accuracy, 4) for r in self.records],
            "bytes_total": self.bytes_total, "bytes_per_node": self.bytes_per_node,
            "bytes_per_round": [r.bytes_total for r in self.records],
            "wall_time_s": self.wall_time, "seconds_per_round": self.wall_time / max(rounds, 1),
            "virtual_time_s": self.records[-1].virtual_time if self.records else 0.0,
            "bytes_sent": dict(sorted(self.traffic.sent.items())),
            "bytes_received": dict(sorted(self.traffic.received.items())),
            "bytes_by_type": dict(sorted(self.traffic.by_type.items())),
            "bytes_by_round_and_type": {str(r): dict(sorted(v.items()))
                                        for r, v in sorted(self.traffic.by_round_type.items())},
            "server": self.server,
            "server_bytes_sent": self.traffic.sent.get(self.server, 0) if self.server else 0,
            "server_bytes_received": self.traffic.received.get(self.server, 0) if self.server else 0,
            "events": self.counts, "rejections": self.rejections,
            "departed": len(self.departed), "joined_late": len(self.joined),
            "peak_memory_mb": self.peak_memory_mb, "peak_rss_mb": self.peak_memory_mb,
            "peak_pss_mb": self.peak_pss_mb, **self.extra,
        }


def simulate(learning: dict[str, Any], directory: str | Path | None = None, *, rounds: int | None = None,
             clients: int | None = None, seed: int | None = None, churn: float | None = None,
             latency: float = 0.0, jitter: float = 0.0, bandwidth: float = 0.0, loss: float = 0.0,
             tick: float = 0.25, progress: bool = False, measure_memory: bool = False,
             max_virtual_time: float | None = None, client_compute: Any = None) -> SimResult:
    """Run a learning config to the end on the in-process fleet (see the module docstring).

    ``client_compute`` (e.g. :class:`adapters.learn_ray.RayClientCompute`) runs the clients' local
    training elsewhere in batches: ``attach(module, engines)`` once, ``prefetch(fleet)`` before every
    step (it trains the clients whose MODEL is about to be delivered), ``status()`` for the progress bar.
    The handlers, aggregation and clock stay here, so the result is the in-process one.
    """
    cfg = dict(learning)
    if rounds is not None:
        cfg["rounds"] = int(rounds)
    if churn:
        cfg["churn"] = {**cfg.get("churn", {}), "leave": float(churn)}
    wall0 = time.perf_counter()
    module = load_module(cfg, directory, clients=clients, seed=seed)
    setup = module.setup
    seed_ = int(setup.cfg["seed"])
    names = module.clients()
    plan = churn_plan(module)
    leaving, late, leave_round, join_round = plan.leaving, plan.late, plan.leave_round, plan.join_round

    backend = get_backend("ort")
    prepared = prepare_programs(module, backend)
    all_nodes = module.nodes()
    # one code path with real nodes (bb-edge node): bb_edge/adapters/learn/node.py builds every engine
    engines: dict[str, Engine] = {name: build_engine(module, name, prepared, backend, late=name in late)
                                  for name, _ in all_nodes}
    dep = Deployment(name=f"learn-{module.name}", nodes=[NodeSpec(n, i, "") for n, i in all_nodes], edges=[],
                     inputs=[], outputs=[])
    link = LinkModel(latency=latency, jitter=jitter, bandwidth=bandwidth, loss=loss, seed=seed_)
    fleet = _AccountingFleet(dep, link=link, engines=dict(engines))

    def round_of() -> int:
        return min(module.progress(fleet.now, fleet.engines), module.rounds) + 1

    fleet.round_of = round_of
    if client_compute is not None:
        client_compute.attach(module, engines)
    for n in late:  # late joiners are built now but polled only from their join round
        fleet.engines.pop(n)
    result = SimResult(module.name, len(names))
    result.server = next((n for n, _ in all_nodes if n not in set(names)), None)
    pss_peak: list[float] = []
    done_rounds = 0
    result.extra["_status"] = client_compute.status if client_compute is not None else None
    limit = max_virtual_time or (module.rounds + 5) * max(float(setup.cfg["round_timeout"]),
                                                           float(setup.cfg["period"])) * 4 + 60.0
    bar: Any = None
    if progress:
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        bar.add_task(f"{module.name} x{len(names)}", total=module.rounds)
    try:
        while not module.finished(fleet.now, fleet.engines):
            if client_compute is not None:
                client_compute.prefetch(fleet)
            moved = fleet.step()
            for _, e in fleet.events:
                key = type(e).__name__
                if isinstance(e, lev.UpdateRejected):
                    result.rejections[e.reason] = result.rejections.get(e.reason, 0) + 1
                if isinstance(e, lev.LocalTrainingDone | lev.ModelMerged | lev.RoundStarted):
                    key = "_" + key
                result.counts[key] = result.counts.get(key, 0) + 1
            fleet.events.clear()
            before = done_rounds
            done_rounds = _record(module, fleet, result, done_rounds, wall0, bar, leaving, late, engines,
                                  leave_round, join_round)
            if measure_memory and done_rounds != before:
                pss = _proc_memory_mb()[1]
                if pss is not None:
                    pss_peak.append(pss)
            if moved:
                continue
            t0 = fleet.now
            if not fleet.advance() or fleet.now > t0 + tick:
                fleet.now = t0 + tick
            if fleet.now > limit:
                raise SimulationError(f"{module.name}: no end after {fleet.now:.1f} virtual seconds "
                                      f"({done_rounds}/{module.rounds} rounds)")
        _record(module, fleet, result, done_rounds, wall0, bar, leaving, late, engines, leave_round, join_round)
    finally:
        if bar is not None:
            bar.stop()
    result.extra.pop("_status", None)
    result.wall_time = time.perf_counter() - wall0
    result.bytes_total = sum(fleet.stats.bytes.values())
    result.traffic = fleet.traffic
    t = fleet.traffic
    result.bytes_per_node = sum(t.sent.get(n, 0) + t.received.get(n, 0) for n in names) / max(len(names), 1)
    result.model = module.global_vector(engines)
    if measure_memory:
        hwm, pss = _proc_memory_mb()
        result.peak_memory_mb = hwm
        result.peak_pss_mb = max(pss_peak + ([pss] if pss is not None else []), default=None)
    return result


def _record(module: StrategyModule, fleet: InProcFleet, result: SimResult, done_rounds: int, wall0: float,
            bar: Any, leaving: set[str], late: set[str], engines: dict[str, Engine], leave_round: int,
            join_round: int) -> int:
    """Evaluate every round completed since the last call; apply churn at its round."""
    p = min(module.progress(fleet.now, fleet.engines), module.rounds)
    while done_rounds < p:
        done_rounds += 1
        total = sum(fleet.stats.bytes.values())
        result.records.append(RoundRecord(done_rounds, module.evaluate(fleet.engines), fleet.now,
                                          time.perf_counter() - wall0, total,
                                          total / max(len(fleet.engines), 1), len(fleet.engines)))
        if bar is not None:
            bar.update(bar.task_ids[0], completed=done_rounds,
                       description=f"{module.name} x{result.nodes} acc {result.records[-1].accuracy:.3f}"
                                   + (f" {result.extra['_status']()}" if result.extra.get("_status") else ""))
        if done_rounds == leave_round:
            for n in sorted(leaving):
                fleet.engines.pop(n, None)
                result.departed.append(n)
        if done_rounds == join_round:
            for n in sorted(late):
                fleet.engines[n] = engines[n]
                result.joined.append(n)
    return done_rounds


def write_curves(results: dict[str, SimResult], path: str | Path) -> None:
    """Accuracy per round and against MB sent, one line per run, as a PNG (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    for label, res in results.items():
        xs = [r.round for r in res.records]
        ys = [r.accuracy for r in res.records]
        a.plot(xs, ys, marker=".", label=label)
        b.plot([r.bytes_total / 2**20 for r in res.records], ys, marker=".", label=label)
    a.set_xlabel("round")
    a.set_ylabel("held-out accuracy")
    b.set_xlabel("MB sent (all nodes)")
    for ax in (a, b):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(str(path), dpi=100)
    plt.close(fig)


def run_learning(dep: Deployment, args: argparse.Namespace) -> int:
    """``bb-edge run DIR`` for a learning deployment: simulate, print, write summary/curves."""
    from rich.console import Console

    console = Console()
    learning = dict(dep.extra["learning"])
    if getattr(args, "ray", None):  # client compute on a Ray cluster (pip install bb-edge[ray])
        from bb_edge.adapters.learn.ray_cluster import run_learning_ray

        return run_learning_ray(dep, args, console)
    res = simulate(learning, dep.directory, rounds=getattr(args, "rounds", None),
                   clients=getattr(args, "virtual_nodes", None), seed=getattr(args, "seed", None),
                   churn=getattr(args, "churn", 0.0) or None, latency=getattr(args, "latency", 0.0) or 0.0,
                   bandwidth=getattr(args, "bandwidth", 0.0) or 0.0, progress=console.is_terminal)
    return report_run(console, res, args, "virtual nodes", "KiB/node (sent + received, server excluded)")


def report_run(console: Any, res: SimResult, args: argparse.Namespace, nodes: str, per_node: str) -> int:
    """Print a learning run's one-line result and write ``--summary`` (JSON) / ``--curves`` if asked; 0.

    ``nodes`` names what ran (``"virtual nodes"``, ``"node processes"``), ``per_node`` the unit of
    the per-node byte figure: the simulator and the process fleet count bytes differently.
    """
    s = res.summary()
    console.print(f"{s['strategy']}: {s['nodes']} {nodes}, {s['rounds']} rounds, "
                  f"accuracy {s['final_accuracy']:.4f}, {s['bytes_per_node'] / 1024:.1f} {per_node}, "
                  f"{s['wall_time_s']:.2f} s wall ({s['seconds_per_round']:.3f} s/round)")
    if getattr(args, "summary", None):
        Path(args.summary).write_text(json.dumps(s, indent=1) + "\n")
    if getattr(args, "curves", None):
        write_curves({s["strategy"]: res}, args.curves)
    return 0
