"""Kill harness for stateful stages: a split decoder over a real Mosquitto, one OS process per node.

Shared by tests/llm/test_llm_failover.py and bench/bench_llm_failover.py. :class:`LlmFleet` starts the
broker (generated config, managed by pid) and every node as ``bb-edge node`` (stage and standby processes,
each with a ``--state`` file so it can be restarted), plus the host endpoint. :func:`run_generations` runs
several greedy generations at once through :func:`~bb_edge.adapters.fleet.generation.generate_many` and
calls ``on_token`` after every token, where a test kills a stage, restarts one or stops the broker. What it
returns carries every session's tokens, the time of each token and the failure, if a session could not go
on, as text that names the stage killed and the token index (so a failing run says what to reproduce).

The pause of a kill is measured as the issue defines it: from the last token before the kill to the next
token after it (any session), plus the worst gap one session saw across the kill.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bb_edge.adapters.fleet.generation import EndpointStepper, InprocStepper, TokenEvent, generate_many
from bb_edge.adapters.fleet.hostloop import HostEndpoint
from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.engine.generation import Generation
from bb_edge.errors import BBError


@dataclass
class NodeProc:
    """One ``bb-edge node`` process and where its output and state go."""

    name: str
    proc: subprocess.Popen[bytes]
    log: Path
    state: Path

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc.poll() is None


class LlmFleet:
    """Broker + one process per node + host endpoint for a compiled deployment directory (module docstring)."""

    def __init__(self, directory: Path, work: Path, backend: str = "ort") -> None:
        self.directory = Path(directory)
        self.dep: Deployment = load_deployment(self.directory)
        self.work = Path(work)
        self.backend = backend
        self.broker = Broker(write_broker_files(self.work / "broker", self.dep))
        self.nodes: dict[str, NodeProc] = {}
        self.host: HostEndpoint | None = None
        self.killed: list[tuple[str, float]] = []  # (node, time.perf_counter() of the SIGKILL)

    @property
    def url(self) -> str:
        """The broker's transport URL (with the deployment's credentials)."""
        return self.broker.files.url()

    def start(self, timeout: float = 120.0) -> LlmFleet:
        """Start the broker, every node process and the host; wait until every node announced itself."""
        self.broker.start()
        for name in self.dep.node_names:
            self.spawn(name)
        self.host = host_endpoint(self.dep, self.url)
        self.wait_up(self.dep.node_names, timeout)
        # every node has written its first --state snapshot: a node killed at once can still be restarted from it
        deadline = time.monotonic() + timeout
        while not all(n.state.exists() for n in self.nodes.values()):
            if time.monotonic() > deadline:
                late = [n.name for n in self.nodes.values() if not n.state.exists()]
                raise BBError(f"no --state snapshot from {late}")
            time.sleep(0.05)
        return self

    def spawn(self, name: str) -> NodeProc:
        """Start (or restart from its ``--state`` file) node ``name`` as a ``bb-edge node`` process."""
        log = self.work / f"{name}.log"
        state = self.work / f"{name}.state"
        fh = open(log, "ab")  # noqa: SIM115 - the child owns it; closed when this process exits
        proc = spawn_node(self.directory, name, self.url, self.backend,
                          extra=["--state", str(state), "--state-interval", "1", "--quiet"],
                          stdout=fh, stderr=subprocess.STDOUT)
        fh.close()
        self.nodes[name] = NodeProc(name, proc, log, state)
        return self.nodes[name]

    def wait_up(self, names: list[str], timeout: float) -> None:
        """Until every node of ``names`` is up at the host; BBError naming a node process that exited."""
        assert self.host is not None
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.host.wait_for_peers(names, 0.5)
                return
            except BBError:
                dead = [n for n in names if n in self.nodes and not self.nodes[n].alive()]
                if dead or time.monotonic() > deadline:
                    raise BBError(f"nodes did not come up: {sorted(set(names) - self.host.up)}; exited: {dead}; "
                                  f"logs in {self.work}") from None

    def kill(self, name: str) -> float:
        """SIGKILL node ``name``'s process (by pid); the time of the kill (``time.perf_counter``)."""
        node = self.nodes[name]
        os.kill(node.proc.pid, signal.SIGKILL)
        at = time.perf_counter()
        node.proc.wait(20)
        self.killed.append((name, at))
        return at

    def stepper(self) -> EndpointStepper:
        """A stepper on the host endpoint."""
        assert self.host is not None
        return EndpointStepper(self.host)

    def log(self, name: str) -> str:
        """What node ``name`` printed so far."""
        p = self.nodes[name].log
        return p.read_text(errors="replace") if p.exists() else ""

    def stop(self) -> None:
        """Stop every node process (SIGTERM by pid), the host and the broker."""
        for node in self.nodes.values():
            with contextlib.suppress(Exception):
                stop_process(node.proc)
        if self.host is not None:
            with contextlib.suppress(Exception):
                self.host.close(2.0)
        self.broker.stop()

    def __enter__(self) -> LlmFleet:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class Run:
    """What :func:`run_generations` saw."""

    gens: dict[int, Generation]
    events: list[TokenEvent] = field(default_factory=list)
    error: str | None = None
    marks: dict[str, float] = field(default_factory=dict)  # label -> time.perf_counter() (a kill, an outage)
    mark_token: dict[str, int] = field(default_factory=dict)  # label -> tokens seen when it happened

    @property
    def tokens(self) -> dict[int, list[int]]:
        """Every session's tokens."""
        return {s: g.tokens for s, g in self.gens.items()}

    def pause(self, label: str) -> float | None:
        """Seconds from the last token before mark ``label`` to the first token after it (any session)."""
        at = self.marks.get(label)
        if at is None:
            return None
        before = [e.at for e in self.events if e.at <= at]
        after = [e.at for e in self.events if e.at > at]
        if not after:
            return None
        return min(after) - (max(before) if before else at)

    def session_pause(self, label: str) -> float | None:
        """The longest gap between two consecutive tokens of one session that spans mark ``label``."""
        return max(self.session_gaps(label), default=None)

    def session_gaps(self, label: str) -> list[float]:
        """Each session's gap between its two consecutive tokens that span mark ``label`` (sessions whose
        tokens span it), shortest first."""
        at = self.marks.get(label)
        if at is None:
            return []
        gaps = []
        for sid in self.gens:
            times = [e.at for e in self.events if e.session == sid]
            gaps += [b - a for a, b in zip(times, times[1:]) if a <= at < b]
        return sorted(gaps)


def run_generations(fleet: LlmFleet, gens: dict[int, Generation],
                    on_token: Callable[[Run, TokenEvent], None] | None = None, timeout: float = 60.0) -> Run:
    """Run ``gens`` (session id -> greedy Generation) at once on ``fleet``; ``on_token`` after each token.

    A session that cannot go on (a node refused its step, it ended, no answer within ``timeout``) stops
    the run; :attr:`Run.error` says which and why.
    """
    run = Run(gens)
    it: Iterator[TokenEvent] = generate_many(fleet.stepper(), gens, timeout=timeout)
    try:
        for ev in it:
            run.events.append(ev)
            if on_token is not None:
                on_token(run, ev)
    except BBError as exc:
        live = sorted(s for s, g in gens.items() if g.finished is None)
        run.error = (f"{type(exc).__name__}: {exc} (sessions still open: {live}; tokens so far "
                     f"{ {s: len(g.tokens) for s, g in gens.items()} })")
    return run


def kill_at(fleet: LlmFleet, node: str, token: int, label: str = "kill") -> Callable[[Run, TokenEvent], None]:
    """An ``on_token`` that SIGKILLs ``node`` right after the ``token``-th token (1-based, all sessions)."""
    def hook(run: Run, ev: TokenEvent) -> None:
        if len(run.events) == token:
            run.marks[label] = fleet.kill(node)
            run.mark_token[label] = token
    return hook


def broker_outage_at(fleet: LlmFleet, token: int, down_for: float) -> Callable[[Run, TokenEvent], None]:
    """An ``on_token`` that stops the broker (by pid) after ``token`` tokens and, from a thread, starts it
    again ``down_for`` s later on the same port (the generation waits meanwhile)."""
    def back() -> None:
        time.sleep(down_for)
        fleet.broker.start()

    def hook(run: Run, ev: TokenEvent) -> None:
        if len(run.events) == token:
            fleet.broker.stop(sig=signal.SIGKILL)  # no goodbye: as a broker host losing power
            run.marks["outage"] = time.perf_counter()
            run.mark_token["outage"] = token
            threading.Thread(target=back, daemon=True).start()
    return hook


def status_counters(fleet: LlmFleet, wait: float = 3.0) -> dict[str, dict[str, Any]]:
    """Each node's ``bytes_*``, ``envelopes_*``, state delta and replay counters from its latest status record."""
    from bb_edge.adapters.ops.status_view import StatusClient, StatusModel

    model = StatusModel()
    client = StatusClient(fleet.url, model)
    client.start()
    try:
        time.sleep(wait)
        out = {}
        for (dep, name), st in model.nodes.items():
            if dep == fleet.dep.name and st.record:
                keys = ("bytes_", "envelopes_", "state_delta", "replay")
                out[name] = {k: v for k, v in st.record.items() if k.startswith(keys)}
        return out
    finally:
        client.stop()


def describe(run: Run, fleet: LlmFleet, what: str) -> str:
    """A failure message: what was done, the run's error, and the tail of each node's log."""
    keys = ("RouteChanged", "SessionRefused", "SessionEnded", "PeerDown", "restored", "Failed", "rror")
    tails = {n: [ln for ln in fleet.log(n).splitlines() if any(k in ln for k in keys)][-6:] for n in fleet.nodes}
    return (f"{what}: {run.error}; marks {run.mark_token}; node log tails: "
            f"{json.dumps(tails)[:3000]}")


# ------------------------------------------------------------------ the kill tests' workload and check

#: the kill tests' workload on the tiny decoder: four sessions at once, 40 greedy tokens each
CONTEXT = 256
TOKENS = 40  # per session
PROMPTS = {1: [1, 5, 9, 3, 17, 40, 2], 2: [7, 7, 100, 3], 3: [200, 11, 4, 4, 9, 60], 4: [33, 2]}


def gens() -> dict[int, Generation]:
    """A fresh generation per session of :data:`PROMPTS`."""
    return {s: Generation(p, TOKENS, CONTEXT) for s, p in PROMPTS.items()}


def advance(stepper: InprocStepper, gens: dict[int, Generation], session: int, steps: int) -> None:
    """Decode ``steps`` more tokens of ``session`` through an in-process fleet, one step after the other."""
    g = gens[session]
    for _ in range(steps):
        g.accept(stepper.wait(stepper.submit(g.next_step(), session, g.step), 60))


def check_same(run: Run, reference: dict[int, list[int]], fleet: LlmFleet, what: str) -> None:
    """Every session finished with the reference's tokens, none lost or repeated."""
    assert run.error is None, describe(run, fleet, what)
    assert run.tokens == reference, f"{what}: tokens differ from the uninterrupted run"
    per_session = {s: sum(1 for e in run.events if e.session == s) for s in PROMPTS}
    assert per_session == {s: TOKENS for s in PROMPTS}, f"{what}: a token lost or repeated: {per_session}"
