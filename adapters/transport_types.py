"""Types shared by the host loop and every transport (MQTT, serial, in-process).

They live here, not in :mod:`bb_edge.adapters.hostloop`, so that a transport
module can name them without importing the host loop (which itself imports
transports lazily): ``hostloop -> mqtt -> hostloop`` was an import cycle.
:mod:`bb_edge.adapters.hostloop` re-exports every name for older imports.
"""

from __future__ import annotations

import math
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from bb_edge.compiler.manifest import Deployment
from bb_edge.engine import events
from bb_edge.engine.edgequant import INT8, dequantize_edge, quant_of, quant_problem
from bb_edge.errors import WireError
from bb_edge.wire import envelope as wire

AckFn = Callable[[], None]
"""Confirms one inbound message to its link (MQTT PUBACK); called once, on the loop thread."""

PeerFn = Callable[[str, bool, str], None]
"""``on_peer(name, up, reason)``: liveness news from a transport."""

EventFn = Callable[[events.Event], None]
"""``on_event(event)``: a typed refusal seen by the transport itself (impostor, foreign topic)."""


class DeliverFn(Protocol):
    """``deliver(peer, envelope, ack=None)``: one inbound envelope, from any thread.

    A transport that can hold back its confirmation (MQTT manual ack) passes
    ``ack``; the receiver calls it once the envelope was applied, so an
    envelope is never confirmed to the broker before the engine saw it.
    """

    def __call__(self, peer: str, data: bytes, ack: AckFn | None = None) -> None:
        """Hand over one envelope."""
        ...


class Transport(Protocol):
    """What a host loop needs from a link (MQTT client, serial port ...)."""

    def open(self, deliver: DeliverFn, on_peer: PeerFn | None = None,
             on_control: Callable[[bytes], None] | None = None) -> None:
        """Start I/O; call ``deliver(peer, envelope[, ack])`` for each inbound envelope (any thread)."""
        ...

    def send(self, peer: str, receiver: int, data: bytes) -> None:
        """Ship one encoded envelope to ``peer`` (node id ``receiver``); must not block for long."""
        ...

    def stop_inbound(self) -> None:
        """Stop handing inbound envelopes to ``deliver`` (they stay with the link/broker)."""
        ...

    def flush(self, timeout: float) -> int:
        """Wait up to ``timeout`` s until every sent envelope is confirmed; return how many are not."""
        ...

    def close(self) -> None:
        """Release every resource (after :meth:`flush`)."""
        ...


@dataclass
class ShutdownReport:
    """What happened to in-flight work when a loop stopped."""

    node: str
    envelopes_sent: int
    unconfirmed: int
    open_requests: int
    pending_ingress: int

    @property
    def clean(self) -> bool:
        """True when every sent envelope was confirmed and nothing was left unprocessed."""
        return self.unconfirmed == 0 and self.pending_ingress == 0

    def __str__(self) -> str:
        return (f"{self.node}: sent {self.envelopes_sent} envelope(s), {self.unconfirmed} unconfirmed, "
                f"{self.open_requests} open request(s), {self.pending_ingress} unprocessed inbound")


def envelope_ids(data: bytes) -> tuple[int, int, int]:
    """``(sender, receiver, seq)`` read straight from an envelope header (no validation)."""
    if len(data) < wire.HEADER_SIZE:
        raise WireError("TRUNCATED", f"{len(data)} bytes is shorter than an envelope header")
    sender, receiver, seq = struct.unpack_from("<IIQ", data, 8)
    return sender, receiver, seq


def envelope_request(data: bytes) -> int | None:
    """The header's ``request_id`` (None if ``data`` is shorter than a header; no validation)."""
    if len(data) < wire.HEADER_SIZE:
        return None
    return int(struct.unpack_from("<Q", data, 24)[0])


class DedupFilter:
    """Bounded memory of seen ``(sender, seq)`` pairs (thread-safe)."""

    def __init__(self, size: int = 1 << 16) -> None:
        self.size = size
        self._seen: OrderedDict[tuple[int, int], None] = OrderedDict()
        self._lock = threading.Lock()

    def seen(self, sender: int, seq: int) -> bool:
        """True if the pair was remembered (does not record it)."""
        with self._lock:
            return (sender, seq) in self._seen

    def first_time(self, sender: int, seq: int) -> bool:
        """True the first time a pair is seen (and records it), False for a repeat."""
        key = (sender, seq)
        with self._lock:
            if key in self._seen:
                return False
            self._seen[key] = None
            if len(self._seen) > self.size:
                self._seen.popitem(last=False)
            return True


# ------------------------------------------------------- output contracts


@dataclass(frozen=True)
class OutputContract:
    """What the host accepts on one output edge: its producer, dtype (ONNX elem type) and shape."""

    name: str
    producer: str
    producer_id: int
    elem_type: int
    shape: tuple[int, ...]
    #: an output carried as int8 (deployment.json ``quant``): its parameters; the host dequantizes
    quant: tuple[float, int] | None = None


def output_contracts(dep: Deployment) -> dict[int, OutputContract]:
    """Output edge id -> contract, from the deployment (an int8-carried output expects elem type 3)."""
    ids = dep.ids()
    return {o.edge_id: OutputContract(o.name, o.node, ids[o.node], o.elem_type if quant_of(o) is None else INT8,
                                      tuple(o.shape), quant_of(o))
            for o in dep.outputs}


def output_value(env: wire.Envelope, spec: OutputContract) -> np.ndarray:
    """The output's float value: a copy of the payload, dequantized when the output is carried as int8."""
    arr = np.array(env.array())
    return arr if spec.quant is None else dequantize_edge(arr, spec.quant)


def output_problem(env: wire.Envelope, spec: OutputContract, names: dict[int, str]) -> str | None:
    """Why the host must refuse ``env`` on ``spec``'s edge (producer, dtype, shape, size), or None."""
    if env.sender != spec.producer_id:
        return (f"forged: output {spec.name!r} is produced by {spec.producer!r}, "
                f"not {names.get(env.sender, f'id {env.sender}')!r}")
    want = f"elem_type {spec.elem_type} shape {list(spec.shape)}"
    if env.dtype != spec.elem_type or len(env.dims) != len(spec.shape):
        return f"contract: output {spec.name!r} has elem_type {env.dtype} shape {list(env.dims)}, expected {want}"
    for d, s in zip(env.dims, spec.shape):
        if s > 0 and d != s:
            return f"contract: output {spec.name!r} has shape {list(env.dims)}, expected {want}"
    if spec.quant is not None and (bad := quant_problem(env, spec.quant)) is not None:
        return f"contract: output {spec.name!r} has {bad[1]}, expected {bad[0]}"
    # bound the element count before numpy sees the dims: (0, 2**32-1, 2**32-1) is 0 elements but
    # makes numpy raise "array is too big"
    if math.prod(d for d in env.dims if d) > 1 << 40:
        return f"contract: output {spec.name!r} has shape {list(env.dims)}, too large"
    return None


# ------------------------------------------------- events raised by adapters


@dataclass(frozen=True)
class Impostor(events.InfraEvent):
    """An envelope whose header ``sender`` is not the node its topic/line names was dropped."""

    peer: str
    sender: int
    detail: str


@dataclass(frozen=True)
class OutputRefused(events.InfraEvent):
    """The host refused an envelope on an output edge (wrong producer, shape, dtype, undecodable)."""

    peer: str
    sender: int
    edge: int
    request_id: int
    reason: str


@dataclass(frozen=True)
class RequestFailed(events.InfraEvent):
    """A node reported (ERROR envelope) that it cannot finish ``request_id``."""

    node: str
    request_id: int
    reason: str


@dataclass(frozen=True)
class SessionReset(events.InfraEvent):
    """The broker had no session for this client on a reconnect: whatever was queued for it is gone.

    Someone connected with this node's credentials and a clean session (or
    the broker lost its database). Recovery is the host's deadline retry.
    """

    node: str
    detail: str
