"""In-process fleet: N engines in one process, connected by simulated links.

This adapter owns the (virtual) clock and routes every outbound envelope to
its peer's ``deliver``. An optional seeded :class:`LinkModel` adds latency,
jitter, loss and reordering. Device nodes that run elsewhere (a board or an
emulator on a serial link) join through :class:`ExternalNode`.

Two options make a pipeline of local nodes as fast as one session of the whole
model (bench/bench_pipeline.py, docs/engine.md):

- ``concurrent=True``: every node's segments run on a worker thread of its own
  (the engines issue ComputeCommands, ``inline_compute=False``), so the stages
  of a pipeline overlap on the host's cores. ONNX Runtime sessions then get
  ``cores // nodes`` intra-op threads (at least 1) instead of all cores each.
  Compute takes no virtual time, as inline: the clock does not move while a
  segment is running.
- ``zero_copy=True``: tensors pass between local engines as envelope objects
  whose payload is a read-only view of the producer's output
  (:mod:`bb_edge.engine.local`), and ``run`` hands graph inputs over as
  read-only views; nothing is encoded, decoded or copied, and every check of
  the receiving engine still applies. Envelopes to device nodes and to the host
  are encoded as before.

Why one file: routing, the virtual clock, the compute workers and the run loop all read and write one
fleet's state (its heap of deliveries, its engines, its results and failures); split, each part would
reach into the others' internals.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import os
import queue
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import onnx

from bb_edge.deployment.manifest import HOST_NAME, Deployment
from bb_edge.engine import ComputeCommand, Engine, events
from bb_edge.engine.edgequant import quant_of, to_wire
from bb_edge.engine.events import OutputRefused
from bb_edge.engine.host_session import output_contracts, output_problem, output_value
from bb_edge.engine.local import local_size
from bb_edge.errors import BBError, SessionError
from bb_edge.wire.envelope import BROADCAST, FLAG_ERROR, Envelope, decode, encode

# what travels on a simulated link: encoded bytes, or an envelope object between local engines (zero_copy)
Payload = bytes | Envelope


class FleetStalled(BBError):
    """The fleet stopped making progress before every output arrived."""

    fix = 'check that every node is running and reachable (docs/transports.md)'


class RequestFailedError(BBError):
    """A node reported a request failed (an error result, docs/wire.md "Error results"); the message is its text."""

    fix = "see the node's reason; `bb-edge run --debug` shows where"


class ExternalNode(Protocol):
    """A node running outside this process (device over serial, emulator ...)."""

    def send(self, envelope: bytes) -> None:
        """Deliver one envelope addressed to the node."""
        ...

    def receive(self) -> list[bytes]:
        """Envelopes the node produced since the last call (non-blocking)."""
        ...


@dataclass
class LinkModel:
    """Seeded model of every link: latency + jitter (seconds), loss and reorder probability."""

    latency: float = 0.0
    jitter: float = 0.0
    loss: float = 0.0
    reorder: float = 0.0
    bandwidth: float = 0.0  # bytes per second; 0 = unlimited
    seed: int = 0
    rng: np.random.Generator = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    def delay(self, nbytes: int) -> float | None:
        """Delivery delay for one envelope, or None when it is lost."""
        if self.loss and self.rng.random() < self.loss:
            return None
        d = self.latency
        if self.jitter:
            d += float(self.rng.uniform(0, self.jitter))
        if self.bandwidth:
            d += nbytes / self.bandwidth
        if self.reorder and self.rng.random() < self.reorder:
            d += self.latency + self.jitter + 1e-3
        return d


@dataclass
class LinkStats:
    """Bytes and envelopes carried, per sending node."""

    envelopes: dict[str, int] = field(default_factory=dict)
    bytes: dict[str, int] = field(default_factory=dict)
    lost: int = 0

    def add(self, sender: str, n: int) -> None:
        """Count one envelope of ``n`` bytes from ``sender``."""
        self.envelopes[sender] = self.envelopes.get(sender, 0) + 1
        self.bytes[sender] = self.bytes.get(sender, 0) + n


def host_cores() -> int:
    """CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class StageOccupancy:
    """Which nodes of a concurrent fleet have segment runs queued or running, or finished runs whose
    results the fleet has not routed yet (a routed result may start a run on the next node).

    A stage may take every core (:class:`~bb_edge.backends.ort.WideningOrtSegment`) only when
    :meth:`alone` says no other node computes and none is about to. The fleet holds ``lock`` while
    it routes results and dispatches commands, so a worker never sees the moment between the two.
    """

    def __init__(self, feeders: Iterable[str], entries: Iterable[str]) -> None:
        self.lock = threading.Lock()
        self.feeders = frozenset(feeders)  # nodes whose results go on to another node of this fleet
        self.entries = frozenset(entries)  # nodes that take the graph inputs of new requests
        self.backlog = False  # requests wait for a free slot in the window: an output admits one
        self.active: dict[str, int] = {}
        self.unrouted: dict[str, int] = {}

    def alone(self, node: str) -> bool:
        """True if no node other than ``node`` computes and nothing will start a run elsewhere soon."""
        with self.lock:
            if self.backlog and node not in self.entries:
                return False
            return (not any(v for n, v in self.unrouted.items() if n in self.feeders)
                    and not any(v for n, v in self.active.items() if n != node))

    def dispatched(self, node: str) -> None:
        """One more command queued on ``node`` (call with ``lock`` held)."""
        self.active[node] = self.active.get(node, 0) + 1

    def finished(self, node: str) -> None:
        """A run on ``node`` finished; its result waits for the fleet to route it (call with ``lock`` held)."""
        self.active[node] -= 1
        self.unrouted[node] = self.unrouted.get(node, 0) + 1

    def routed(self, node: str) -> None:
        """The fleet polled ``node``'s engine after that run finished (call with ``lock`` held)."""
        self.unrouted[node] -= 1


def _compute_worker(engine: Engine, work: queue.SimpleQueue[ComputeCommand | None], finished: queue.SimpleQueue[str],
                    busy: dict[str, float], occupancy: StageOccupancy | None = None) -> None:
    """One node's compute thread: run each command, hand the result back through the engine's ingress.

    It holds no reference to the fleet, so a fleet nobody keeps is collected and its
    finalizer stops the workers. ONNX Runtime releases the GIL while a session runs.
    """
    while True:
        cmd = work.get()
        if cmd is None:
            return
        result: dict[str, np.ndarray] | BaseException
        t0 = time.perf_counter()
        try:
            result = engine.run_command(cmd)
        except Exception as exc:  # the engine turns it into ComputeFailed for that request
            result = exc
        busy[engine.node] = busy.get(engine.node, 0.0) + time.perf_counter() - t0  # only this worker writes it
        if occupancy is None:
            engine.complete(cmd.cmd_id, result)
            finished.put(engine.node)
            continue
        with occupancy.lock:  # the fleet's next step sees the result, the count and the token together
            engine.complete(cmd.cmd_id, result)
            occupancy.finished(engine.node)
            finished.put(engine.node)


def _stop_workers(queues: list[queue.SimpleQueue[ComputeCommand | None]]) -> None:
    for q in queues:
        q.put(None)


class InProcFleet:
    """Every node of a deployment as an Engine in this process.

    ``concurrent`` runs each node's compute on a thread of its own and
    ``zero_copy`` passes tensors between local nodes without copies (see the
    module docstring); both keep outputs bit-identical to the sequential,
    encoded run. A concurrent fleet holds threads: :meth:`close` it, or use it
    as a context manager (a fleet that is garbage collected stops them too).
    """

    def __init__(
        self,
        deployment: Deployment,
        programs: dict[str, onnx.ModelProto] | None = None,
        backend: Any = "ort",
        link: LinkModel | None = None,
        external: dict[str, ExternalNode] | None = None,
        engines: dict[str, Engine] | None = None,
        concurrent: bool = False,
        zero_copy: bool = False,
        **engine_kwargs: Any,
    ) -> None:
        self.deployment = deployment
        self.link = link
        self.external = dict(external or {})
        self.ids = deployment.ids()
        self.names = {v: k for k, v in self.ids.items()}
        self.engines: dict[str, Engine] = dict(engines or {})
        self.concurrent = concurrent
        self.zero_copy = zero_copy
        local = [s.name for s in deployment.nodes if s.name not in self.external and s.name not in self.engines]
        self._occupancy: StageOccupancy | None = None
        backends: dict[str, Any] = {}
        if concurrent:
            engine_kwargs.setdefault("inline_compute", False)
            if backend in ("ort", "onnxruntime"):
                from bb_edge.backends.ort import WideningOrtBackend

                # one thread pool per stage, all overlapping: cores // stages threads each, so the
                # stages share the cores instead of each pool claiming all of them (oversubscribed
                # pools measured 0.80x one session on 2 cores, one thread per stage 0.97x+); a stage
                # that computes alone (the pipeline filling or draining) takes every core instead
                self._occupancy = StageOccupancy((e.src for e in deployment.edges if e.dst in local),
                                                 (i.node for i in deployment.inputs))
                narrow = max(1, host_cores() // max(1, len(local)))
                backends = {name: WideningOrtBackend(narrow, host_cores(), functools.partial(
                    self._occupancy.alone, name)) for name in local}
        if zero_copy:
            engine_kwargs.setdefault("local_payloads", True)
        for name in local:
            self.engines[name] = Engine.for_node(deployment, name, programs, backend=backends.get(name, backend),
                                                 **engine_kwargs)
        self.now = 0.0
        self._heap: list[tuple[float, int, str, str, Payload]] = []
        self._tie = itertools.count()
        self.stats = LinkStats()
        self.events: list[tuple[str, events.Event]] = []
        self._next_request = 1  # request ids are never reused within a fleet
        #: request id -> the first error result a node sent for it (its text and the node)
        self.failures: dict[int, str] = {}
        self._host_seq = 0
        self._outputs = output_contracts(deployment)
        self._work: dict[str, queue.SimpleQueue[ComputeCommand | None]] = {}
        self._finished: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._computing = 0  # commands handed to workers and not yet reported finished
        self._done_tokens: list[str] = []  # finished commands taken from the queue, not yet counted
        self._finalizer: weakref.finalize | None = None
        self.busy: dict[str, float] = {}  # seconds each node's compute worker spent running commands

    # ------------------------------------------------------------- workers

    def _dispatch(self, name: str, cmds: list[ComputeCommand]) -> None:
        """Queue ComputeCommands on the node's worker thread (started on first use)."""
        work = self._work.get(name)
        if work is None:
            work = self._work[name] = queue.SimpleQueue()
            threading.Thread(target=_compute_worker, args=(self.engines[name], work, self._finished, self.busy,
                                                           self._occupancy),
                             name=f"bb-edge-compute-{name}", daemon=True).start()
            if self._finalizer is not None:
                self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _stop_workers, list(self._work.values()))
        for cmd in cmds:
            if self._occupancy is not None:
                self._occupancy.dispatched(name)
            work.put(cmd)
            self._computing += 1

    def _await_compute(self, timeout: float) -> bool:
        """Block until a worker finishes a command (True) or ``timeout`` s pass (False).

        The finished command is counted by the next :meth:`step`, which polls its engine.
        """
        try:
            self._done_tokens.append(self._finished.get(timeout=max(timeout, 0.0)))
        except queue.Empty:
            return False
        return True

    def _take_finished(self) -> list[str]:
        """Nodes of every command the workers finished so far (counted once each)."""
        tokens, self._done_tokens = self._done_tokens, []
        while True:
            try:
                tokens.append(self._finished.get_nowait())
            except queue.Empty:
                return tokens

    def close(self) -> None:
        """Stop the compute threads (a concurrent fleet starts them on first use)."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self._work.clear()

    def __enter__(self) -> InProcFleet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------- routing

    def _route(self, sender: str, peer: str, receiver: int, data: bytes) -> None:
        self._send(sender, peer, receiver, data)

    def _route_local(self, sender: str, peer: str, receiver: int, env: Envelope) -> None:
        """Route an envelope object of a ``zero_copy`` engine (encoded only if it leaves the process)."""
        self._send(sender, peer, receiver, env)

    def _send(self, sender: str, peer: str, receiver: int, data: Payload) -> None:
        self.stats.add(sender, local_size(data) if isinstance(data, Envelope) else len(data))
        targets: Iterable[str]
        if receiver == BROADCAST or peer == "*":
            targets = [n for n in list(self.engines) + list(self.external) if n != sender]
        else:
            targets = [self.names.get(receiver, peer)]
        for t in targets:
            if t == HOST_NAME:
                self._to_host(sender, encode(data, max_payload=len(data.data)) if isinstance(data, Envelope)
                              else data)
                continue
            delay = (self.link.delay(local_size(data) if isinstance(data, Envelope) else len(data))
                     if self.link else 0.0)
            if delay is None:
                self.stats.lost += 1
                continue
            heapq.heappush(self._heap, (self.now + delay, next(self._tie), sender, t, data))

    def _to_host(self, sender: str, data: bytes) -> None:
        """Graph outputs sent to the host endpoint (device nodes do this) become OutputReady events.

        As on a real host, an output is accepted only from its declared producer
        with its declared dtype and shape; anything else is an OutputRefused event.
        """
        try:
            env = decode(data)
        except BBError:
            return
        if env.flags & FLAG_ERROR:  # an error result for a request (a refused session step, a failed compute)
            text = bytes(env.payload_bytes()[:1024]).decode("utf-8", errors="replace").strip()
            self.failures.setdefault(env.request_id, f"{text} (from {sender})")
            self.events.append((sender, events.RequestFailed(sender, env.request_id, text)))
            return
        spec = self._outputs.get(env.edge)
        if spec is None or env.kind != 0:
            return
        problem = output_problem(env, spec, self.names)
        if problem is not None or env.sender != self.ids.get(sender):
            self.events.append((sender, OutputRefused(sender, env.sender, env.edge, env.request_id,
                                                      problem or f"header sender {env.sender} is not {sender!r}")))
            return
        self.events.append((sender, events.OutputReady(env.request_id, spec.name, output_value(env, spec))))

    def _deliver_due(self) -> int:
        n = 0
        while self._heap and self._heap[0][0] <= self.now + 1e-12:
            _, _, sender, target, data = heapq.heappop(self._heap)
            if target in self.engines:
                if isinstance(data, Envelope):
                    self.engines[target].deliver_local(sender, data)
                else:
                    self.engines[target].deliver(sender, data)
            elif target in self.external:
                # a device gets bytes: the one copy a real link makes anyway
                self.external[target].send(encode(data, max_payload=len(data.data))
                                           if isinstance(data, Envelope) else data)
            n += 1
        return n

    def step(self) -> bool:
        """Deliver what is due, poll every engine once, route the results; True if anything moved."""
        if self._occupancy is None:
            return self._step()
        with self._occupancy.lock:  # routing and dispatch look atomic to the workers' alone() check
            return self._step()

    def _step(self) -> bool:
        finished = self._take_finished() if self.concurrent else []
        moved = self._deliver_due() > 0
        for name, ext in self.external.items():
            for data in ext.receive():
                moved = True
                try:
                    env = decode(data)
                except BBError:
                    continue  # the receiving engine would reject it anyway; count as noise
                self._route(name, self.names.get(env.receiver, "*"), env.receiver, data)
        for name, eng in self.engines.items():
            out = eng.poll(self.now)
            for o in out:
                if o.envelope is not None:
                    self._route_local(name, o.peer, o.receiver, o.envelope)
                else:
                    self._route(name, o.peer, o.receiver, o.data)
            news = eng.drain_events()
            for e in news:
                self.events.append((name, e))
            cmds = eng.take_commands() if self.concurrent and not eng.inline_compute else []
            if cmds:
                self._dispatch(name, cmds)
            # an event is progress too: a finished last stage yields only OutputReady, and the run
            # loop must then admit the next request rather than decide the fleet is stalled
            moved = moved or bool(out) or bool(cmds) or bool(news)
        for node in finished:  # their results were routed by the polls above
            self._computing -= 1
            if self._occupancy is not None:
                self._occupancy.routed(node)
        return moved

    def advance(self) -> bool:
        """Jump the virtual clock to the next scheduled delivery; False if none."""
        if not self._heap:
            return False
        self.now = max(self.now, self._heap[0][0])
        return True

    # ---------------------------------------------------------------- runs

    def submit(self, request_id: int, inputs: dict[str, np.ndarray], copy: bool = True,
               session: tuple[int, int] | None = None) -> None:
        """Hand graph inputs to the nodes that own them (copied unless ``copy=False``: see Engine.submit).

        ``session`` = ``(session id, step)``: the request is that step of one of the host's sessions
        (docs/wire.md "Sessions"); stateful stages keep the session's state between steps.
        """
        by_node: dict[str, dict[str, np.ndarray]] = {}
        for spec in self.deployment.inputs:
            if spec.name not in inputs:
                raise BBError(f"missing graph input {spec.name!r}; inputs are "
                              f"{[i.name for i in self.deployment.inputs]}")
            by_node.setdefault(spec.node, {})[spec.name] = inputs[spec.name]
        edge_of = {i.name: i.edge_id for i in self.deployment.inputs}
        quant = {i.name: quant_of(i) for i in self.deployment.inputs}  # int8 on the wire: the host quantizes
        for node, values in by_node.items():
            if node in self.external:
                # a device node owns this input: send it as the host endpoint (id 0) would
                for name, value in values.items():
                    self._host_seq += 1
                    arr, q = to_wire(value, quant[name])
                    env = Envelope.for_array(arr, sender=0, receiver=self.ids[node], quant=q,
                                             seq=self._host_seq, request_id=request_id, edge=edge_of[name])
                    if session is not None:
                        env.in_session(*session)
                    self._route(HOST_NAME, node, self.ids[node], encode(env))
                continue
            self.engines[node].submit(request_id, values, copy=copy, session=session)

    def close_session(self, session: int) -> None:
        """End the host's session ``session`` at every stage: the nodes owning graph inputs pass it on."""
        for node in dict.fromkeys(i.node for i in self.deployment.inputs):
            if node in self.engines:
                self.engines[node].close_session(session, owner=0)
        while self.step():
            pass

    def run(self, requests: Sequence[dict[str, np.ndarray]], window: int = 4,
            real_timeout: float = 60.0, session: int | None = None,
            first_step: int = 0) -> list[dict[str, np.ndarray]]:
        """Run many requests (at most ``window`` in flight); outputs in request order.

        With ``zero_copy`` the input arrays are read in place: leave them alone
        until this returns. ``session``: request k is step ``first_step + k`` of the host's session
        ``session`` (the steps may be in flight together: each stage runs them in step order). A request a
        node reports failed raises :class:`RequestFailedError`, or :class:`~bb_edge.errors.SessionError`
        when the node refused or ended its session.
        """
        want = {o.name for o in self.deployment.outputs}
        results: dict[int, dict[str, np.ndarray]] = {}
        base = self._next_request
        self._next_request += len(requests)
        next_req = 0
        done = 0
        start = time.monotonic()
        while done < len(requests):
            while next_req < len(requests) and next_req - done < window:
                self.submit(base + next_req, requests[next_req], copy=not self.zero_copy,
                            session=(session, first_step + next_req) if session is not None else None)
                results[base + next_req] = {}
                next_req += 1
            if self._occupancy is not None:
                with self._occupancy.lock:
                    self._occupancy.backlog = next_req < len(requests)
            mark = len(self.events)
            moved = self.step()
            for _, e in self.events[mark:]:
                if isinstance(e, events.OutputReady) and e.request_id in results:
                    results[e.request_id][e.name] = e.value
            done = sum(1 for r in range(base, base + next_req) if want <= set(results[r]))
            failed = next((r for r in range(base, base + next_req) if r in self.failures
                           and not want <= set(results[r])), None)
            if failed is not None:
                why = self.failures[failed]
                what = f"step {first_step + failed - base}" if session is not None else f"request {failed - base}"
                kind = SessionError if why.startswith(("SessionEnded:", "SessionRefused:")) else RequestFailedError
                raise kind(f"{what} failed: {why}")
            if moved or done >= len(requests):
                continue
            if self._computing:
                # compute takes no virtual time: wait for the workers before the clock moves
                if self._await_compute(real_timeout - (time.monotonic() - start)):
                    continue
                raise FleetStalled(f"fleet stalled with {done}/{len(requests)} requests complete: "
                                   f"{self._computing} segment runs still computing after {real_timeout} s")
            if self.advance():
                continue
            if self.external and time.monotonic() - start < real_timeout:
                time.sleep(0.0005)  # waiting on a device: real time has to pass
                continue
            problems = [f"{n}: {e}" for n, e in self.events if e.family == "infra"][-5:]
            raise FleetStalled(
                f"fleet stalled with {done}/{len(requests)} requests complete "
                f"(lost envelopes: {self.stats.lost}); recent problems: {problems or 'none'}"
            )
        return [results[base + i] for i in range(len(requests))]

    def infer(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run one request through the fleet and return the graph outputs."""
        return self.run([inputs], window=1)[0]
