"""Drive :class:`~bb_edge.engine.generation.Generation` s over a fleet: in process, over a broker or serial.

A *stepper* sends one session step and waits for its outputs; :func:`generate_many` keeps several sessions
going at once, their steps interleaved (every live session has one step in flight), and yields each token
as it arrives. :func:`open_stepper` starts the fleet the same way ``bb-edge run`` does (``inproc``,
``mqtt://`` with node threads or ``--processes``, ``serial://pty``) and stops it by pid at the end.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from bb_edge.deployment.manifest import Deployment
from bb_edge.engine import events
from bb_edge.engine.generation import Generation
from bb_edge.errors import BBError


class Stepper(Protocol):
    """Sends session steps to a fleet and collects their graph outputs."""

    def submit(self, inputs: dict[str, np.ndarray], session: int, step: int) -> int:
        """Send one step; a handle for :meth:`wait`."""

    def wait(self, handle: int, timeout: float) -> dict[str, np.ndarray]:
        """The step's graph outputs (BBError if a node refused or failed it, or on timeout)."""

    def close_session(self, session: int) -> None:
        """End a session at every stage."""


@dataclass
class TokenEvent:
    """One generated token of session ``session`` and when it arrived (``time.perf_counter``)."""

    session: int
    token: int
    at: float


class InprocStepper:
    """Steps through an :class:`~bb_edge.adapters.transports.inproc.InProcFleet` (this process)."""

    def __init__(self, fleet: Any) -> None:
        self.fleet = fleet
        self._rid = itertools.count(1)
        self._results: dict[int, dict[str, np.ndarray]] = {}
        self._want = {o.name for o in fleet.deployment.outputs}

    def submit(self, inputs: dict[str, np.ndarray], session: int, step: int) -> int:
        """Hand the step's inputs to the nodes that own them."""
        rid = next(self._rid)
        self.fleet.submit(rid, inputs, session=(session, step))
        self._results[rid] = {}
        return rid

    def wait(self, handle: int, timeout: float) -> dict[str, np.ndarray]:
        """Step the fleet until the step's outputs are out; BBError naming what a node refused if it stalls."""
        deadline = time.monotonic() + timeout
        while not self._want <= set(self._results[handle]):
            mark = len(self.fleet.events)
            moved = self.fleet.step()
            for node, e in self.fleet.events[mark:]:
                if isinstance(e, events.OutputReady) and e.request_id in self._results:
                    self._results[e.request_id][e.name] = e.value
                elif isinstance(e, events.SessionRefused | events.SessionEnded | events.ComputeFailed):
                    rid = getattr(e, "request_id", None)
                    if rid in (None, handle) and not isinstance(e, events.SessionEnded):
                        raise BBError(f"{type(e).__name__} at {node}: {getattr(e, 'reason', '')}"
                                      f"{getattr(e, 'error', '')}")
            if not moved and not self.fleet.advance():
                raise BBError(f"the fleet stalled before step {handle} answered")
            if time.monotonic() > deadline:
                raise BBError(f"step {handle} did not answer within {timeout} s")
        return self._results.pop(handle)

    def close_session(self, session: int) -> None:
        """Close at the input nodes (they pass it on) and let it travel."""
        self.fleet.close_session(session)


class EndpointStepper:
    """Steps through a host or client endpoint (:class:`~bb_edge.adapters.fleet.hostloop.HostEndpoint`).

    A step whose outputs are late is retried every ``retry_after`` s (``retry`` on the control topic: the
    nodes resend what they kept, a stage that already took the step answers it again from its session), so
    a step lost with a broker that died survives. Steps that answered are told ``done`` (the nodes drop what
    they kept to resend them) in batches of ``done_every`` and when a session closes: a ``done`` per step
    would be one more message per token to every node (measured: the one control message per token that
    broke "one message per hop per token"); the nodes keep at most ``done_every`` envelopes meanwhile.
    """

    def __init__(self, endpoint: Any, retry_after: float = 2.0, done_every: int = 32) -> None:
        self.endpoint = endpoint
        self.retry_after = retry_after
        self.done_every = done_every
        self._answered: list[int] = []
        self._answered_lock = threading.Lock()  # steps are taken on the caller's or (chained) the transport's thread
        self._n = time.time_ns() // 1000  # request ids above any an earlier run of this endpoint used

    @property
    def chains(self) -> bool:
        """Whether a step's answer can start the next step on the transport's thread (:meth:`when_done`): an
        endpoint that offers it over a transport that delivers on its network thread (MQTT)."""
        return callable(getattr(self.endpoint, "when_done", None)) and \
            bool(getattr(getattr(self.endpoint, "transport", None), "deliver_inline", False))

    def when_done(self, handle: int, fn: Any) -> None:
        """Call ``fn()`` once the step answered or failed (on the thread that received the answer)."""
        self.endpoint.when_done(handle, fn)

    def take(self, handle: int) -> dict[str, np.ndarray]:
        """The outputs of a step that answered; BBError with the node's reason if it failed."""
        out = dict(self.endpoint.wait(handle, 0.0))
        self._done(handle)
        return out

    def retry(self, handles: list[int]) -> None:
        """Ask for late steps again (the nodes resend what they kept; same sequence numbers)."""
        self.endpoint.retry(handles)

    def _done(self, handle: int) -> None:
        with self._answered_lock:
            self._answered.append(handle)
            full = len(self._answered) >= self.done_every
        if full:
            self.flush_done()

    def submit(self, inputs: dict[str, np.ndarray], session: int, step: int) -> int:
        """Send the step's inputs to their owners."""
        self._n += 1
        rid = int(self.endpoint.session.request_id(self._n))
        self.endpoint.submit(rid, inputs, (session, step))
        return rid

    def wait(self, handle: int, timeout: float) -> dict[str, np.ndarray]:
        """The step's outputs; BBError with the node's reason on a refusal or failure, or after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                out = dict(self.endpoint.wait(handle, max(0.01, min(self.retry_after, left))))
            except BBError:
                if self.endpoint.failure(handle) is not None or time.monotonic() >= deadline:
                    raise
                self.endpoint.retry([handle])
                continue
            self._done(handle)
            return out

    def wait_any(self, handles: list[int], timeout: float) -> int:
        """The first of ``handles`` that answered (or failed), waiting up to ``timeout`` s; the first handle is
        retried every ``retry_after`` s meanwhile, as :meth:`wait` retries the one it waits on. After
        ``timeout`` the first handle (its :meth:`wait` then raises the typed timeout)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            ready = self.endpoint.wait_any(handles, max(0.01, min(self.retry_after, left)))
            if ready is not None or time.monotonic() >= deadline:
                return handles[0] if ready is None else int(ready)
            self.endpoint.retry(handles[:1])

    def flush_done(self) -> None:
        """Tell the nodes every answered step is done (one control message)."""
        with self._answered_lock:
            done, self._answered = self._answered, []
        if done:
            self.endpoint.finished(done)

    def close_session(self, session: int) -> None:
        """Send the close to the input nodes (and the pending ``done``)."""
        self.flush_done()
        self.endpoint.close_session(session)


@dataclass
class GenerationStats:
    """What ``bb-edge generate`` prints: time to first token and decode speed per session."""

    started: float = 0.0
    first: dict[int, float] = field(default_factory=dict)
    last: dict[int, float] = field(default_factory=dict)
    tokens: dict[int, int] = field(default_factory=dict)

    def ttft(self, session: int) -> float:
        """Seconds from the start to the session's first token."""
        return self.first[session] - self.started

    def decode_rate(self, session: int) -> float:
        """Tokens per second after the first token (the decode phase)."""
        n = self.tokens.get(session, 0) - 1
        span = self.last.get(session, 0.0) - self.first.get(session, 0.0)
        return n / span if n > 0 and span > 0 else 0.0


def generate_many(stepper: Stepper, gens: dict[int, Generation], timeout: float = 120.0,
                  stats: GenerationStats | None = None, close: bool = True) -> Iterator[TokenEvent]:
    """Run every generation (session id -> Generation) to its end, steps interleaved; yield each token.

    Every live session has one step in flight: all are sent, then each answer is taken and the session's
    next step sent at once, so the stages of a split model work on several sessions together. A stepper
    with ``wait_any`` (a host or client endpoint) has its answers taken as they arrive, so a session that
    answers early (the first one a standby rebuilt after a failover) is not held behind a slower one; the
    others take them in turn. A stepper that ``chains`` (an endpoint over MQTT) sends each next step from the
    thread that received the answer (:func:`_generate_chained`): the sessions do not wait for the caller.
    """
    stats = stats or GenerationStats()
    stats.started = stats.started or time.perf_counter()
    if getattr(stepper, "chains", False):
        yield from _generate_chained(stepper, gens, timeout, stats, close)
        return
    inflight: dict[int, int] = {}
    try:
        for sid, gen in gens.items():
            inflight[sid] = stepper.submit(gen.next_step(), sid, gen.step)
        wait_any = getattr(stepper, "wait_any", None)
        while inflight:
            turn = list(inflight)
            if wait_any is not None:
                first = wait_any([inflight[s] for s in turn], timeout)
                turn = [next((s for s in turn if inflight[s] == first), turn[0])]
            for sid in turn:
                outs = stepper.wait(inflight.pop(sid), timeout)
                gen = gens[sid]
                token = gen.accept(outs)
                now = time.perf_counter()
                stats.first.setdefault(sid, now)
                stats.last[sid] = now
                stats.tokens[sid] = stats.tokens.get(sid, 0) + 1
                yield TokenEvent(sid, token, now)
                if gen.finished is None:
                    inflight[sid] = stepper.submit(gen.next_step(), sid, gen.step)
    finally:
        if close:
            for sid in gens:
                with contextlib.suppress(Exception):  # a fleet already gone cannot close; its state is gone too
                    stepper.close_session(sid)


def _generate_chained(stepper: Any, gens: dict[int, Generation], timeout: float, stats: GenerationStats,
                      close: bool) -> Iterator[TokenEvent]:
    """:func:`generate_many` with each session's next step sent from the thread that received its answer.

    The answer's token is accepted and the next step submitted by a continuation (``when_done``) on the
    transport's network thread; this thread only yields the tokens from a queue, and retries steps that are
    late (every ``retry_after`` s, as :meth:`EndpointStepper.wait` does) or gives up after ``timeout``.
    Once this generator ends (or is closed), no continuation sends another step.
    """
    # (token, whether it was its session's last): the session's Generation runs ahead on the network thread,
    # so its ``finished`` read here may already be a later token's
    got: queue.SimpleQueue[tuple[TokenEvent, bool] | BaseException] = queue.SimpleQueue()
    lock = threading.Lock()
    inflight: dict[int, list[float]] = {}  # session -> [handle, sent, sent or last retried] (monotonic)
    stopped = threading.Event()

    def send(sid: int) -> int:  # under ``lock``
        gen = gens[sid]
        handle = stepper.submit(gen.next_step(), sid, gen.step)
        inflight[sid] = [handle, time.monotonic(), time.monotonic()]
        return int(handle)

    def answered(sid: int, handle: int) -> None:
        try:
            token = gens[sid].accept(stepper.take(handle))
            event = TokenEvent(sid, token, time.perf_counter())
            last = gens[sid].finished is not None
            nxt = None
            with lock:
                inflight.pop(sid, None)
                if not last and not stopped.is_set():
                    nxt = send(sid)
            got.put((event, last))
            if nxt is not None:
                stepper.when_done(nxt, functools.partial(answered, sid, nxt))
        except BaseException as exc:  # the caller's thread raises it
            got.put(exc)

    try:
        with lock:
            first = {sid: send(sid) for sid in gens}
        for sid, handle in first.items():
            stepper.when_done(handle, functools.partial(answered, sid, handle))
        live = len(gens)
        while live:
            try:
                item: tuple[TokenEvent, bool] | BaseException | None = got.get(
                    timeout=max(0.01, float(stepper.retry_after)))
            except queue.Empty:
                item = None
            now = time.monotonic()
            with lock:  # late steps (of any session: the others may keep answering meanwhile)
                late = [v for v in inflight.values() if now - v[2] >= stepper.retry_after]
                for v in late:
                    v[2] = now
                stuck = [int(v[0]) for v in inflight.values() if now - v[1] > timeout]
                if late and not stuck:
                    # under the lock: a retry goes out before the session's next step (a continuation sends
                    # that under this lock too, after it took the answer), never after it
                    stepper.retry([int(v[0]) for v in late])
            if stuck:
                raise BBError(f"step {stuck[0]} did not answer within {timeout} s")
            if item is None:
                continue
            if isinstance(item, BaseException):
                raise item
            event, last = item
            stats.first.setdefault(event.session, event.at)
            stats.last[event.session] = event.at
            stats.tokens[event.session] = stats.tokens.get(event.session, 0) + 1
            live -= last
            yield event
    finally:
        with lock:
            stopped.set()
        if close:
            for sid in gens:
                with contextlib.suppress(Exception):
                    stepper.close_session(sid)


@contextlib.contextmanager
def open_stepper(dep: Deployment, transport: str = "inproc", backend: str = "ort",
                 processes: bool = False, up_timeout: float = 120.0,
                 node_args: list[str] | None = None) -> Iterator[Stepper]:
    """A stepper on a fleet of ``dep`` started here over ``transport`` (stopped, by pid, on exit).

    ``node_args``: extra ``bb-edge node`` arguments of each MQTT node process (e.g. ``["--threads", "1"]``).
    """
    scheme = transport.split(":", 1)[0] if transport != "inproc" else "inproc"
    if scheme == "inproc":
        if processes:
            raise BBError("--processes needs a network transport such as mqtt://HOST:PORT")
        from bb_edge.adapters.transports.inproc import InProcFleet

        with InProcFleet(dep, backend=backend, zero_copy=True) as local:
            yield InprocStepper(local)
        return
    if scheme in ("mqtt", "mqtts"):
        from bb_edge.adapters.fleet.mqtt_fleet import running_fleet

        with running_fleet(dep, transport, backend, processes, up_timeout, node_args) as host:
            yield EndpointStepper(host)
        return
    if scheme == "serial":
        from bb_edge.adapters.fleet.serial_fleet import PtyFleet, PtyFleetOptions

        pty = PtyFleet(dep, PtyFleetOptions.parse(transport), backend)
        phost = pty.host()
        try:
            pty.start_processes() if processes else pty.start_threads()
            pty.wait_up(phost, up_timeout)
            yield EndpointStepper(phost)
        finally:
            pty.stop()
        return
    raise BBError(f"unknown transport {transport!r}; use inproc, mqtt://HOST:PORT or serial://pty")
