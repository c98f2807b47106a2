"""In-process fleet: N engines in one process, connected by simulated links.

This adapter owns the (virtual) clock and routes every outbound envelope to
its peer's ``deliver``. An optional seeded :class:`LinkModel` adds latency,
jitter, loss and reordering. Device nodes that run elsewhere (a board or an
emulator on a serial link) join through :class:`ExternalNode`.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import onnx

from bb_edge.adapters.transport_types import OutputRefused, output_contracts, output_problem, output_value
from bb_edge.compiler.manifest import HOST_NAME, Deployment
from bb_edge.engine import Engine, events
from bb_edge.engine.edgequant import quant_of, to_wire
from bb_edge.errors import BBError
from bb_edge.wire.envelope import BROADCAST, Envelope, decode, encode


class FleetStalled(BBError):
    """The fleet stopped making progress before every output arrived."""


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


class InProcFleet:
    """Every node of a deployment as an Engine in this process."""

    def __init__(
        self,
        deployment: Deployment,
        programs: dict[str, onnx.ModelProto] | None = None,
        backend: Any = "ort",
        link: LinkModel | None = None,
        external: dict[str, ExternalNode] | None = None,
        engines: dict[str, Engine] | None = None,
        **engine_kwargs: Any,
    ) -> None:
        self.deployment = deployment
        self.link = link
        self.external = dict(external or {})
        self.ids = deployment.ids()
        self.names = {v: k for k, v in self.ids.items()}
        self.engines: dict[str, Engine] = dict(engines or {})
        for spec in deployment.nodes:
            if spec.name in self.external or spec.name in self.engines:
                continue
            self.engines[spec.name] = Engine.for_node(deployment, spec.name, programs, backend=backend,
                                                      **engine_kwargs)
        self.now = 0.0
        self._heap: list[tuple[float, int, str, str, bytes]] = []
        self._tie = itertools.count()
        self.stats = LinkStats()
        self.events: list[tuple[str, events.Event]] = []
        self._next_request = 1  # request ids are never reused within a fleet
        self._host_seq = 0
        self._outputs = output_contracts(deployment)

    # ------------------------------------------------------------- routing

    def _route(self, sender: str, peer: str, receiver: int, data: bytes) -> None:
        self.stats.add(sender, len(data))
        targets: Iterable[str]
        if receiver == BROADCAST or peer == "*":
            targets = [n for n in list(self.engines) + list(self.external) if n != sender]
        else:
            targets = [self.names.get(receiver, peer)]
        for t in targets:
            if t == HOST_NAME:
                self._to_host(sender, data)
                continue
            delay = self.link.delay(len(data)) if self.link else 0.0
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
                self.engines[target].deliver(sender, data)
            elif target in self.external:
                self.external[target].send(data)
            n += 1
        return n

    def step(self) -> bool:
        """Deliver what is due, poll every engine once, route the results; True if anything moved."""
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
                self._route(name, o.peer, o.receiver, o.data)
            for e in eng.drain_events():
                self.events.append((name, e))
            moved = moved or bool(out)
        return moved

    def advance(self) -> bool:
        """Jump the virtual clock to the next scheduled delivery; False if none."""
        if not self._heap:
            return False
        self.now = max(self.now, self._heap[0][0])
        return True

    # ---------------------------------------------------------------- runs

    def submit(self, request_id: int, inputs: dict[str, np.ndarray]) -> None:
        """Hand graph inputs to the nodes that own them."""
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
                    self._route(HOST_NAME, node, self.ids[node], encode(env))
                continue
            self.engines[node].submit(request_id, values)

    def run(self, requests: Sequence[dict[str, np.ndarray]], window: int = 4,
            real_timeout: float = 60.0) -> list[dict[str, np.ndarray]]:
        """Run many requests (at most ``window`` in flight); outputs in request order."""
        want = {o.name for o in self.deployment.outputs}
        results: dict[int, dict[str, np.ndarray]] = {}
        base = self._next_request
        self._next_request += len(requests)
        next_req = 0
        done = 0
        start = time.monotonic()
        while done < len(requests):
            while next_req < len(requests) and next_req - done < window:
                self.submit(base + next_req, requests[next_req])
                results[base + next_req] = {}
                next_req += 1
            mark = len(self.events)
            moved = self.step()
            for _, e in self.events[mark:]:
                if isinstance(e, events.OutputReady) and e.request_id in results:
                    results[e.request_id][e.name] = e.value
            done = sum(1 for r in range(base, base + next_req) if want <= set(results[r]))
            if moved or done >= len(requests):
                continue
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
