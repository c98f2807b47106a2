"""A learning deployment as a real fleet: one ``bb-edge node`` process per node over a broker.

``bb-edge run LEARN_DIR --transport mqtt://HOST:PORT --processes`` (or
``--transport serial://pty``: every node on its own pseudo-terminal, star-wired
to a hub in this process, :func:`serial_hub`) lands in
:func:`run_learning_fleet`. It resolves the deployment exactly as the
simulator does (``bb_edge/adapters/learn/node.py``) and starts every node at once
(a node with its own command, ``commands``, once the servers are connected),
each as ``bb-edge node LEARN_DIR --node NAME --transport URL --learning JSON
--clock-origin T --progress FILE`` in its own OS process; a node connects,
then waits for the start file before it sends anything. Every node shares one clock origin, so round
deadlines and gossip periods mean the same everywhere. Churn follows the
simulator's plan: leaving clients are SIGTERMed after ``at_round``, late
joiners are started with the others but with ``--late`` and their own start
file, written at ``join_round``: connected already, they JOIN at once and
fetch the current model.

Progress comes from the nodes' JSON-lines logs (:class:`~bb_edge.adapters.
learn_node.ProgressLog`): the FedAvg/DiLoCo server records each closed round
with its held-out accuracy; gossip and push-sum peers record each period with
their own accuracy (a round's accuracy is the mean over the same evenly spread
peers the simulator evaluates); split clients record their epochs and the
final accuracy joins the final client and server halves. When every node that
reports progress reports ``finished`` (and every released late joiner has
fetched the model: a ``fetched`` record), the fleet is stopped with SIGTERM in
causal order (:meth:`LearningFleet.finish`): clients first, so what a slow
client still sends (a starved blocked client's JOIN, a leech's update) reaches
the servers, then the servers once they saw the clients go. Each node writes
its final model and counts; a node that reported progress but left no final
record is a :class:`FleetRunError`, never a summary silently missing its
counts. The result is a
:class:`~bb_edge.adapters.learn.simulator.SimResult`, so ``--summary`` and
``--curves`` are the simulator's. ``bytes_total`` is the sum of the bytes every
node sent; ``bytes_per_node`` the mean a client sent.

Why one file: it is the one driver of a learning deployment as OS processes: starting, churn, watching
progress logs and the result all work on the same LearningFleet and plan. The serial hub wiring
(serial_hub) is the one piece that could move, and it is short.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

import bb_edge
from bb_edge.adapters.fleet.serial_fleet import PtyFleet, PtyFleetOptions
from bb_edge.adapters.learn.node import churn_plan, load_module, wire_deployment
from bb_edge.adapters.learn.simulator import RoundRecord, SimResult, report_run
from bb_edge.deployment.manifest import Deployment
from bb_edge.errors import BBError
from bb_edge.strategies.base import ModelState
from bb_edge.strategies.modules import StrategyModule
from bb_edge.training.cache import save_program
from bb_edge.training.setup import cache_key

__all__ = ["FleetResult", "FleetRunError", "LearningFleet", "device_commands", "device_targets", "is_serial_fleet",
           "node_argv", "run_learning_fleet", "run_learning_processes", "serial_hub"]


class FleetRunError(BBError):
    """The learning fleet did not finish (a node exited early, or the run passed its time limit)."""


def node_argv(directory: str | Path, node: str, url: str, overrides: dict[str, Any], origin: float,
              progress: str | Path, late: bool = False, extra: list[str] | None = None,
              start_file: str | Path | None = None) -> list[str]:
    """argv that runs one learning node in its own process (``bb-edge node``)."""
    argv = [sys.executable, "-m", "bb_edge.cli", "node", str(directory), "--node", node, "--transport", url,
            "--learning", json.dumps(overrides), "--clock-origin", repr(origin), "--progress", str(progress),
            "--status-interval", "0", "--quiet"]
    if start_file is not None:
        argv += ["--start-file", str(start_file)]
    return argv + (["--late"] if late else []) + list(extra or [])


@dataclass
class _Proc:
    name: str
    popen: subprocess.Popen[bytes]
    log: IO[bytes]
    log_start: int = 0  # the log is appended to across restarts: this incarnation's lines start here


@dataclass
class LearningFleet:
    """The node processes of one learning run and their progress logs (see the module docstring)."""

    dep: Deployment
    url: str
    overrides: dict[str, Any]
    workdir: Path
    origin: float = field(default_factory=time.time)
    procs: dict[str, _Proc] = field(default_factory=dict)
    extra: dict[str, list[str]] = field(default_factory=dict)
    # node -> its own argv instead of ``bb-edge node`` (e.g. the MicroPython training bundle,
    # tests/micropython/test_micropython_train.py); it must print ``node NAME (id N)`` once connected
    commands: dict[str, list[str]] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)  # per-node transport URLs (serial: each node's pty)
    exits: dict[str, int | None] = field(default_factory=dict)  # node -> exit status of its last stop

    def __post_init__(self) -> None:
        self.workdir = Path(self.workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)

    @property
    def start_file(self) -> Path:
        """The file whose appearance starts every node's clock (it holds the origin)."""
        return self.workdir / "start"

    def late_start_file(self, name: str) -> Path:
        """The start file of late joiner ``name`` (written at its join round, with the fleet's origin)."""
        return self.workdir / f"start.{name}"

    def go(self, lead: float = 0.5, name: str | None = None) -> None:
        """Start the fleet: write the origin (now + ``lead``) to :attr:`start_file` (atomically).

        With ``name``: release that late joiner (already running, connected and
        waiting) now, on the fleet's origin.
        """
        if name is None:
            self.origin = time.time() + lead
        target = self.start_file if name is None else self.late_start_file(name)
        tmp = target.with_suffix(".tmp")
        tmp.write_text(repr(self.origin))
        os.replace(tmp, target)

    def progress_file(self, name: str) -> Path:
        """Where node ``name`` writes its progress lines."""
        return self.workdir / f"{name}.progress.jsonl"

    def log_file(self, name: str) -> Path:
        """Where node ``name``'s stdout and stderr go."""
        return self.workdir / f"{name}.log"

    def spawn(self, name: str, late: bool = False) -> subprocess.Popen[bytes]:
        """Start node ``name`` (its own session, so signals reach only it); its output goes to its log."""
        assert self.dep.directory is not None
        env = dict(os.environ)
        root = str(Path(bb_edge.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.setdefault("OMP_NUM_THREADS", "1")  # 21 processes on a few cores: no thread pools each
        log = open(self.log_file(name), "ab")
        start = log.tell()
        argv = node_argv(self.dep.directory, name, self.urls.get(name, self.url), self.overrides, self.origin,
                         self.progress_file(name), late, self.extra.get(name),
                         self.late_start_file(name) if late else self.start_file)
        argv = self.commands.get(name, argv)
        p = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        self.procs[name] = _Proc(name, p, log, start)
        return p

    def wait_up(self, names: list[str], timeout: float) -> None:
        """Wait until each node printed its ``node NAME (id N) ...`` line (its transport is connected)."""
        deadline = time.monotonic() + timeout
        for n in names:
            while True:
                with open(self.log_file(n), "rb") as f:
                    f.seek(self.procs[n].log_start)
                    text = f.read().decode(errors="replace")
                if f"node {n} (id " in text:
                    break
                p = self.procs[n].popen
                if p.poll() is not None:
                    raise FleetRunError(f"node {n} exited with status {p.returncode} before connecting: "
                                        f"{text.strip()[-800:]}")
                if time.monotonic() > deadline:
                    raise FleetRunError(f"node {n} did not connect within {timeout:.0f} s")
                time.sleep(0.1)

    def stop(self, name: str, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int | None:
        """Signal node ``name`` by pid (SIGTERM: clean shutdown, SIGKILL after ``timeout``); its exit status."""
        pr = self.procs.pop(name, None)
        if pr is None:
            return None
        p = pr.popen
        if p.poll() is None:
            os.kill(p.pid, sig)
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                os.kill(p.pid, signal.SIGKILL)
                p.wait(timeout)
        pr.log.close()
        self.exits[name] = p.returncode
        return p.returncode

    def finish(self, servers: list[str], timeout: float = 10.0) -> None:
        """End a finished run in causal order: clients first, then (once they saw them go) the servers.

        A client may still have work in hand when the server finishes (on a
        loaded machine a starved blocked client may not even have sent its
        JOIN yet, or a leech its update): SIGTERMed, it runs what it already
        received, sends what that produced and flushes it to the broker, then
        publishes its ``down`` presence. Over MQTT a server is stopped only once
        its log shows every stopped client's ``PeerDown`` (delivered after
        that client's earlier messages, so everything it sent was applied and
        counted), bounded by ``timeout``; over serial the order alone applies.
        """
        clients = [n for n in self.procs if n not in servers]
        marks = {s: self._log_size(s) for s in servers if s in self.procs}
        for n in clients:  # in parallel: each drains and flushes on its own
            p = self.procs[n].popen
            if p.poll() is None:
                os.kill(p.pid, signal.SIGTERM)
        for n in clients:
            self.stop(n)
        watched = [c for c in clients if c not in self.commands]  # a custom command may announce nothing
        if self.url.split(":", 1)[0] in ("mqtt", "mqtts") and watched:
            deadline = time.monotonic() + timeout
            for s, mark in marks.items():
                while not self._saw_down(s, mark, watched) and time.monotonic() < deadline:
                    if self.procs[s].popen.poll() is not None:
                        break  # it exited on its own: its own report says why
                    time.sleep(0.05)
        self.stop_all()

    def _log_size(self, name: str) -> int:
        f = self.log_file(name)
        return f.stat().st_size if f.exists() else 0

    def _saw_down(self, server: str, mark: int, clients: list[str]) -> bool:
        """Whether ``server``'s log, past byte ``mark``, has a ``PeerDown`` line for each of ``clients``."""
        with open(self.log_file(server), "rb") as f:
            f.seek(mark)
            text = f.read().decode(errors="replace")
        return all(f"event PeerDown peer={c} " in text for c in clients)

    def stop_all(self) -> None:
        """Stop every node still running (SIGTERM to all first, so they shut down in parallel)."""
        for pr in self.procs.values():
            if pr.popen.poll() is None:
                os.kill(pr.popen.pid, signal.SIGTERM)
        for n in list(self.procs):
            self.stop(n)

    def records(self, name: str) -> list[dict[str, Any]]:
        """Every complete progress line node ``name`` wrote so far."""
        f = self.progress_file(name)
        if not f.exists():
            return []
        out = []
        for line in f.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue  # a line being written right now
        return out


@dataclass
class FleetResult(SimResult):
    """A :class:`SimResult` plus every node's final model vector (from its ``final`` progress record)."""

    final_models: dict[str, np.ndarray] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """The simulator's summary; the timing is the nodes' own: ``round_seconds`` lists each round's real
        seconds from the fleet's start as the server's (or the sampled peers') round records stamp it, and
        ``seconds_per_round`` is their mean (not wall time over rounds: start-up and shutdown are left out)."""
        s = super().summary()
        ends = [r.virtual_time for r in self.records]
        s["round_seconds"] = [round(b - a, 4) for a, b in zip([0.0, *ends], ends, strict=False)]
        s["seconds_per_round"] = ends[-1] / len(ends) if ends else 0.0
        return s


class _Frozen:
    """A stand-in engine for a strategy module's ``evaluate``: only the ``model`` binding, from a final record."""

    def __init__(self, vector: list[float], round: int) -> None:
        m = ModelState()
        m.set(np.asarray(vector, dtype=np.float32), round)
        self.bindings: dict[str, Any] = {"model": m}


def _servers(module: StrategyModule) -> list[str]:
    clients = set(module.clients())
    return [n for n, _ in module.nodes() if n not in clients]


def run_learning_fleet(dep: Deployment, url: str, *, rounds: int | None = None, clients: int | None = None,
                       seed: int | None = None, churn: float | None = None, timeout: float | None = None,
                       workdir: str | Path | None = None, connect_timeout: float = 120.0,
                       overrides: dict[str, Any] | None = None,
                       commands: dict[str, list[str]] | None = None) -> FleetResult:
    """Run the learning deployment ``dep`` as one process per node over ``url``; the simulator's result type."""
    if dep.directory is None:
        raise BBError("a learning fleet needs a deployment loaded from a directory")
    ov: dict[str, Any] = dict(overrides or {})
    if rounds is not None:
        ov["rounds"] = int(rounds)
    if clients is not None:
        ov["clients"] = int(clients)
    if seed is not None:
        ov["seed"] = int(seed)
    if churn:
        ov["churn"] = {**dict(dep.extra["learning"].get("churn") or {}), "leave": float(churn)}
    if url.startswith("serial:") and not is_serial_fleet(url):
        raise BBError(f"{url!r}: a whole learning fleet over serial needs serial://pty (one pty pair per node, "
                      "a hub here); on real ports start each node with bb-edge node DIR --node NAME --transport "
                      "serial:///dev/ttyUSB0 behind a hub")
    learning = dep.extra["learning"]
    # real processes start seconds apart: the server waits for every expected client (as the simulator's
    # start_after does on its virtual clock), bounded by the connect timeout
    ov.setdefault("start_after", max(float(learning.get("start_after", 0.0)), connect_timeout))
    module = load_module(learning, dep.directory, overrides=ov)
    plan = churn_plan(module)
    if plan.late and "start_clients" not in learning:  # round 1 starts without the late joiners
        ov["start_clients"] = len(module.clients()) - len(plan.late)
    tmp = None
    if workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="bb-edge-learn-")
        workdir = tmp.name
    wd = Path(workdir)
    wd.mkdir(parents=True, exist_ok=True)
    fleet = LearningFleet(dep, url, ov, wd, commands=dict(commands or {}))
    key = cache_key(module.cfg, dep.directory)
    if key is not None:  # every node runs the program built here: no node builds its own (nor loads onnx)
        cache = save_program(wd / "training-program.npz", module.setup.program, key)
        for n, _ in module.nodes():
            fleet.extra[n] = ["--program-cache", str(cache), *fleet.extra.get(n, [])]
    hub = serial_hub(module, dep.name, url) if is_serial_fleet(url) else None
    if hub is not None:
        fleet.urls = {n: hub.node_url(n) for n, _ in module.nodes()}
    for n, _ in module.nodes():
        fleet.progress_file(n).unlink(missing_ok=True)
    cfg = module.cfg
    limit = timeout or connect_timeout + (module.rounds + 5) * max(float(cfg["round_timeout"]),
                                                                   float(cfg["period"])) * 4 + 60.0
    wall0 = time.perf_counter()
    result = FleetResult(module.name, len(module.clients()))
    previous = _exit_on_sigterm()
    try:
        for f in [fleet.start_file, *(fleet.late_start_file(n) for n in plan.late)]:
            f.unlink(missing_ok=True)
        servers = _servers(module)
        first = module.clients()
        # a bb-edge node sends nothing before the start file, so servers and clients start together (one
        # start-up time, not two); a node with its own command may not wait, so it starts once the servers
        # are connected (its first message must find them subscribed)
        own = [n for n in first if n in fleet.commands]
        for n in servers + [n for n in first if n not in own]:  # late joiners too: connected now, released later
            fleet.spawn(n, late=n in plan.late)
        fleet.wait_up(servers, connect_timeout)
        for n in own:
            fleet.spawn(n, late=n in plan.late)
        fleet.wait_up(first, connect_timeout)
        fleet.go()  # one common time zero: every node starts its rounds / periods now
        _watch(module, fleet, plan, result, wall0, time.monotonic() + limit)
        fleet.finish(servers)  # clients first: what they still send reaches the servers' final counts
    finally:
        fleet.stop_all()  # also on SIGTERM of this runner: no node process is left behind
        if hub is not None:
            hub.stop()  # after the nodes: the hub closes its links and the ptys
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    _finish(module, fleet, result)
    result.wall_time = time.perf_counter() - wall0
    if tmp is not None:
        tmp.cleanup()
    return result


def is_serial_fleet(url: str) -> bool:
    """Whether ``url`` asks for a pty-wired serial fleet (``serial://pty[?options]``)."""
    return url.split("?", 1)[0] in ("serial://pty", "serial:pty")


def serial_hub(module: StrategyModule, name: str, url: str) -> PtyFleet:
    """One pty pair per learning node, star-wired to a hub routing between them (started, no node yet).

    The hub (this process) is :class:`~bb_edge.adapters.fleet.serial_fleet.PtyFleet`'s: the same routing,
    sender checks and heartbeats as an inference fleet over serial; ``url``'s options (``hb``, ``rto``,
    ``corrupt`` ...) apply. Each node process opens its own pty (:meth:`PtyFleet.node_url`). Learning nodes
    talk only to each other, so what the hub would deliver to the host (id 0) is dropped.
    """
    hub = PtyFleet(wire_deployment(module, name), PtyFleetOptions.parse(url))

    def to_host(peer: str, data: bytes, ack: Callable[[], None] | None = None) -> None:
        return None

    hub.hub.open(to_host)
    return hub


def _exit_on_sigterm() -> Any:
    """Turn SIGTERM into SystemExit (so ``finally`` stops the node processes); the previous handler, or None."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    return signal.signal(signal.SIGTERM, handler)


def _watch(module: StrategyModule, fleet: LearningFleet, plan: Any, result: SimResult, wall0: float,
           deadline: float, fetch_grace: float = 30.0) -> None:
    """Follow the progress logs until the run is over; apply churn at its rounds; fill ``result.records``."""
    names = [n for n, _ in module.nodes()]
    departed: set[str] = set()
    joined = False
    done = 0
    over_at: float | None = None
    while True:
        recs = {n: fleet.records(n) for n in names}
        rounds = {n: [r for r in rs if r["kind"] == "round"] for n, rs in recs.items()}
        servers = [n for n in _servers(module) if rounds[n]]
        if module.name in ("fedavg", "diloco") and servers:
            progress = rounds[servers[0]][-1]["round"]
        else:
            live = [n for n in module.clients() if rounds[n] and n not in departed]
            progress = min((rounds[n][-1]["round"] for n in live), default=0)
        progress = min(progress, module.rounds)
        while done < progress:
            done += 1
            result.records.append(_round_record(module, done, rounds, recs, departed, wall0))
            if done == plan.leave_round:
                for n in sorted(plan.leaving):
                    fleet.stop(n)
                    departed.add(n)
                    result.departed.append(n)
            if done == plan.join_round and not joined:
                joined = True
                for n in sorted(plan.late):
                    fleet.go(name=n)
                    result.joined.append(n)
        if module.name in ("fedavg", "diloco"):  # the server alone says when the run is over
            expect = _servers(module)
        else:  # every running node reports its own progress
            expect = [n for n in fleet.procs if n not in departed]
        if expect and all(rounds[n] and rounds[n][-1]["finished"] for n in expect) and done >= module.rounds:
            # a released late joiner is part of the run until it took the current model: on a loaded machine
            # its JOIN/FETCH may still be on its way when the others finish (bounded: it may never get one)
            fetching = [n for n in result.joined if n in fleet.procs and n not in fleet.commands
                        and not any(r["kind"] == "fetched" for r in recs[n])]
            if over_at is None:
                over_at = time.monotonic()
            if not fetching or time.monotonic() > over_at + fetch_grace:
                return
        dead = [n for n, pr in fleet.procs.items() if pr.popen.poll() is not None]
        if dead:
            raise FleetRunError(f"node(s) {', '.join(dead)} exited during the run; logs in {fleet.workdir}")
        if time.monotonic() > deadline:
            raise FleetRunError(f"{module.name}: no end in time ({done}/{module.rounds} rounds); "
                                f"logs in {fleet.workdir}")
        time.sleep(0.1)


def _round_record(module: StrategyModule, k: int, rounds: dict[str, list[dict[str, Any]]],
                  recs: dict[str, list[dict[str, Any]]], departed: set[str], wall0: float) -> RoundRecord:
    """The figures of round ``k`` from the progress logs."""
    at = {n: next((r for r in rs if r["round"] >= k), None) for n, rs in rounds.items()}
    servers = [n for n in _servers(module) if (at.get(n) or {}).get("accuracy") is not None]
    if module.name in ("fedavg", "diloco") and servers:
        src = at[servers[0]]
        assert src is not None
        acc = float(src["accuracy"])
    else:  # the simulator's _mean_acc: up to 10 evenly spread live peers
        live = [n for n in module.clients() if at.get(n) is not None and n not in departed]
        pick = [live[int(i)] for i in np.linspace(0, len(live) - 1, min(10, len(live))).round()] if live else []
        got = [at[n] for n in pick]
        accs = [float(r["accuracy"]) for r in got if r is not None and r["accuracy"] is not None]
        acc = float(np.mean(accs)) if accs else float("nan")
        src = at[pick[0]] if pick else None
    wall = float(src["wall"]) if src is not None else time.time()
    now = float(src["now"]) if src is not None else 0.0
    total = 0
    for rs in recs.values():  # every node's bytes sent up to this round's time
        before = [r["bytes_out"] for r in rs if r["kind"] in ("round", "bytes") and r["wall"] <= wall]
        total += before[-1] if before else 0
    live_n = len([n for n in module.clients() if rounds.get(n) or n not in departed])
    return RoundRecord(k, acc, now, time.perf_counter() - wall0, int(total), total / max(len(recs), 1), live_n)


def _finish(module: StrategyModule, fleet: LearningFleet, result: FleetResult) -> None:
    """Totals, counted events and (where rounds carry no accuracy, e.g. split) the final accuracy."""
    finals: dict[str, dict[str, Any]] = {}
    missing = []
    for n, _ in module.nodes():
        recs = fleet.records(n)
        fs = [r for r in recs if r["kind"] == "final"]
        if fs:
            finals[n] = fs[-1]
        elif n not in fleet.commands and (n in _servers(module) or any(r["kind"] == "round" for r in recs)):
            missing.append(n)  # it reported progress but not its end: its counts and model are not in the summary
    if missing:
        tails = "; ".join(f"{n} (exit {fleet.exits.get(n)}): "
                          f"{_tail(fleet.log_file(n))}" for n in missing)
        raise FleetRunError(f"no final record from {', '.join(missing)}, so the summary would lack their counts "
                            f"and models; logs in {fleet.workdir}: {tails}")
    result.bytes_total = int(sum(f["bytes_out"] for f in finals.values()))
    _traffic(module, finals, result)
    cl = [finals[n]["bytes_out"] for n in module.clients() if n in finals]
    result.bytes_per_node = float(np.mean(cl)) if cl else 0.0
    for f in finals.values():
        for k, v in f["events"].items():
            if k.startswith("rejected:"):
                result.rejections[k[9:]] = result.rejections.get(k[9:], 0) + int(v)
            else:
                result.counts[k] = result.counts.get(k, 0) + int(v)
    if result.records and not np.isfinite(result.records[-1].accuracy):
        frozen: dict[str, Any] = {n: _Frozen(f["model"], f["model_round"]) for n, f in finals.items()
                                  if f["model"] is not None}
        try:
            result.records[-1].accuracy = float(module.evaluate(frozen))
        except (KeyError, StopIteration, AttributeError):
            pass
    result.final_models = {n: np.asarray(f["model"], dtype=np.float32)
                           for n, f in finals.items() if f["model"] is not None}


def _traffic(module: StrategyModule, finals: dict[str, dict[str, Any]], result: FleetResult) -> None:
    """The simulator's byte breakdown from every node's final record: bytes sent (by node, to each peer,
    by message type); what a node sent to a peer that peer received (a broadcast: every other node)."""
    names = [n for n, _ in module.nodes()]
    servers = _servers(module)
    result.server = servers[0] if servers else None
    t = result.traffic
    for n, f in finals.items():
        t.sent[n] = t.sent.get(n, 0) + int(f["bytes_out"])
        for peer, b in (f.get("sent_to") or {}).items():
            for r in ([m for m in names if m != n] if peer == "*" else [peer]):
                t.received[r] = t.received.get(r, 0) + int(b)
        for kind, b in (f.get("sent_by_type") or {}).items():
            t.by_type[kind] = t.by_type.get(kind, 0) + int(b)


def _tail(path: Path, chars: int = 400) -> str:
    """The last ``chars`` characters of a node's log (for an error message)."""
    try:
        return path.read_text(errors="replace").strip()[-chars:]
    except OSError:
        return "(no log)"


def device_targets(dep: Deployment, specs: list[str], url: str) -> dict[str, tuple[str, str]]:
    """``--target NODE=TARGET`` of ``bb-edge run``, checked before anything is built or written:
    node -> (target, builder). Only microcontroller targets (an MCU profile or MicroPython) run behind a
    bridge; the bridge speaks MQTT for the device, so the fleet's transport must be ``mqtt[s]://``."""
    from bb_edge.deployment.learning import learning_roster
    from bb_edge.errors import UsageError
    from bb_edge.targets import load_target, resolve_target

    if url.split(":", 1)[0] not in ("mqtt", "mqtts"):
        raise UsageError(f"--target runs a device behind a bridge to the broker; use --transport mqtt://HOST:PORT, "
                         f"not {url.split('?')[0]}")
    ids = dict(learning_roster(dict(dep.extra["learning"])))
    out: dict[str, tuple[str, str]] = {}
    for spec in specs:
        node, sep, target = spec.partition("=")
        if not sep or not node or not target:
            raise UsageError(f"--target {spec!r}: give NODE=TARGET, e.g. c2=qemu-cortex-m3")
        if node not in ids:
            raise UsageError(f"--target {spec}: no node {node!r} in {dep.directory}; nodes: {', '.join(ids)}")
        if node in out:
            raise UsageError(f"--target: node {node} is given twice")
        builder = load_target(resolve_target(target)[0]).builder
        if builder not in ("mcu-bbrt", "micropython"):
            raise UsageError(f"--target {spec}: {target} is not a microcontroller target (a Linux node runs as "
                             "bb-edge node already); use qemu-cortex-m3, qemu-rv32, host or esp32-micropython")
        out[node] = (target, builder)
    return out


def device_commands(dep: Deployment, targets: dict[str, tuple[str, str]], url: str, workdir: Path,
                    console: Any = None) -> dict[str, list[str]]:
    """Build each node's learning bundle (:func:`device_targets`) into ``workdir/dist`` and return the argv
    that runs it in the fleet: its serial bridge, :mod:`bb_edge.adapters.learn.mcu_fleet`.

    An MCU profile (``qemu-cortex-m3``, ``qemu-rv32``, ``host``) runs its firmware under QEMU or on a pty;
    ``esp32-micropython`` is built for a serial line and its own ``main.py`` runs on a pty (hosted by
    CPython, :class:`~bb_edge.adapters.learn.mcu_fleet.MpyHostedLearnDevice`).
    """
    from bb_edge.bundle.build import build_all

    assert dep.directory is not None
    workdir = workdir.resolve()
    out: dict[str, list[str]] = {}
    for node, (target, builder) in targets.items():
        dist = workdir / "dist"
        build_all(Path(dep.directory), [f"{node}={target}"], dist, None,
                  {"transport": "serial"} if builder == "micropython" else {}, console=console)
        out[node] = [sys.executable, "-m", "bb_edge.adapters.learn.mcu_fleet", str(dep.directory), "--node", node,
                     "--transport", url, "--bundle", str(dist / node), "--state-dir", str(workdir / "state"),
                     "--progress", str(workdir / f"{node}.progress.jsonl"), "--start-file", str(workdir / "start")]
    return out


def run_learning_processes(dep: Deployment, args: argparse.Namespace) -> int:
    """``bb-edge run LEARN_DIR --transport URL --processes``: run the fleet, print, write summary/curves.

    ``--target NODE=TARGET`` builds and runs that node as a device (:func:`device_commands`);
    ``--workdir DIR`` keeps the node logs, progress records and bundles.
    """
    from rich.console import Console

    console = Console()
    targets = device_targets(dep, list(args.target), args.transport) if getattr(args, "target", None) else {}
    tmp = None
    if getattr(args, "workdir", None):
        wd = Path(args.workdir)
        wd.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="bb-edge-learn-")
        wd = Path(tmp.name)
    try:
        commands = device_commands(dep, targets, args.transport, wd, console) if targets else {}
        res = run_learning_fleet(dep, args.transport, rounds=getattr(args, "rounds", None),
                                 clients=getattr(args, "virtual_nodes", None), seed=getattr(args, "seed", None),
                                 churn=getattr(args, "churn", 0.0) or None, workdir=wd, commands=commands)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return report_run(console, res, args, "node processes", "KiB sent/client")
