"""Typed events the engine emits instead of raising.

Three families: :class:`NodeEvent` (lifecycle, peers), :class:`InfraEvent`
(wire, limits, faults: something was refused or dropped) and
:class:`AppEvent` (results the application consumes).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Event:
    """Base of every engine event."""

    @property
    def family(self) -> str:
        """``node``, ``infra`` or ``app``."""
        return "event"


@dataclass(frozen=True)
class NodeEvent(Event):
    """Lifecycle and membership."""

    @property
    def family(self) -> str:
        """Always ``node``."""
        return "node"


@dataclass(frozen=True)
class InfraEvent(Event):
    """Something on the wire or at a limit was refused, dropped or failed."""

    @property
    def family(self) -> str:
        """Always ``infra``."""
        return "infra"


@dataclass(frozen=True)
class AppEvent(Event):
    """A result for the application."""

    @property
    def family(self) -> str:
        """Always ``app``."""
        return "app"


# --- node -----------------------------------------------------------------


@dataclass(frozen=True)
class ProgramInstalled(NodeEvent):
    """A node program was installed; ``segments`` backend calls per request."""

    program: str
    segments: int


@dataclass(frozen=True)
class PeerUp(NodeEvent):
    """A peer was seen (HELLO or first envelope) or came back."""

    peer: str


@dataclass(frozen=True)
class PeerDown(NodeEvent):
    """A peer was reported gone (by the adapter's liveness or a BYE)."""

    peer: str
    reason: str = ""


@dataclass(frozen=True)
class RouteChanged(NodeEvent):
    """Envelopes for stage ``stage`` now go to node ``via`` (a standby, or the stage itself again)."""

    stage: str
    via: str
    reason: str = ""


# --- infra ----------------------------------------------------------------


@dataclass(frozen=True)
class EnvelopeRejected(InfraEvent):
    """Bytes from ``peer`` did not decode; ``code`` is the wire error code."""

    peer: str
    code: str
    message: str


@dataclass(frozen=True)
class EnvelopeTooLarge(InfraEvent):
    """An envelope exceeded the per-envelope cap and was dropped at the boundary."""

    peer: str
    size: int
    cap: int


@dataclass(frozen=True)
class SourceCapExceeded(InfraEvent):
    """A peer has too many bytes queued; its envelope was dropped (a flood)."""

    peer: str
    queued: int
    cap: int


@dataclass(frozen=True)
class IngressBudgetExceeded(InfraEvent):
    """The node's total ingress budget is full; the envelope was dropped."""

    peer: str
    size: int
    budget: int


@dataclass(frozen=True)
class DuplicateDropped(InfraEvent):
    """An envelope with an already-seen (sender, seq) was dropped (e.g. QoS 1 redelivery)."""

    peer: str
    sender: int
    seq: int


@dataclass(frozen=True)
class UnknownEdge(InfraEvent):
    """A data envelope named an edge (or protocol) this node has no handler for."""

    peer: str
    edge: int
    protocol: int = 0


@dataclass(frozen=True)
class Misaddressed(InfraEvent):
    """An envelope's receiver or sender does not match what the edge declares."""

    peer: str
    detail: str


@dataclass(frozen=True)
class ContractViolation(InfraEvent):
    """A tensor's dtype or shape broke its edge's contract."""

    peer: str
    edge: int
    expected: str
    got: str


@dataclass(frozen=True)
class StaleEnvelope(InfraEvent):
    """An envelope arrived for a request that already completed or was evicted."""

    peer: str
    request_id: int


@dataclass(frozen=True)
class RequestEvicted(InfraEvent):
    """Too many requests (or request bytes) open at once; the oldest unfinished one was dropped."""

    request_id: int
    missing: tuple[str, ...]
    reason: str = "open request limit"


@dataclass(frozen=True)
class RequestTimedOut(InfraEvent):
    """A request missed its deadline (or its per-hop budget) on ``node`` and was dropped.

    ``waiting_for`` names what had not arrived, e.g. ``"relu_out from s"``.
    """

    request_id: int
    node: str
    waiting_for: tuple[str, ...]


@dataclass(frozen=True)
class Unauthorised(InfraEvent):
    """``sender`` may not send this envelope (not the edge's producer, graph input not from the host ...).

    ``first`` is True for the first refusal of this sender, so an adapter can
    log once per sender and count the rest.
    """

    peer: str
    sender: int
    edge: int
    reason: str
    first: bool = True


@dataclass(frozen=True)
class StaleEpoch(InfraEvent):
    """An envelope's boot epoch (``seq >> 32``) is older than every epoch kept for its sender."""

    peer: str
    sender: int
    epoch: int
    oldest_kept: int


@dataclass(frozen=True)
class EpochRegressed(InfraEvent):
    """A HELLO announced a boot epoch lower than the one known for that node; nothing changed."""

    peer: str
    sender: int
    known: int
    got: int


@dataclass(frozen=True)
class VersionMismatch(InfraEvent):
    """A peer's HELLO version range has nothing in common with ours; its traffic is refused."""

    peer: str
    sender: int
    ours: tuple[int, int]
    theirs: tuple[int, int]


@dataclass(frozen=True)
class BadHello(InfraEvent):
    """A HELLO payload broke a rule of the hello record (``code`` as in docs/wire.md); nothing changed."""

    peer: str
    code: str
    message: str


@dataclass(frozen=True)
class ComputeFailed(InfraEvent):
    """A backend call failed; the request cannot complete."""

    request_id: int
    segment: str
    error: str


@dataclass(frozen=True)
class HandlerFailed(InfraEvent):
    """A protocol component raised while handling an envelope or tick."""

    protocol: int
    error: str


@dataclass(frozen=True)
class OutputRefused(InfraEvent):
    """The host refused an envelope on an output edge (wrong producer, shape, dtype, receiver, undecodable).

    ``reason`` starts with the kind of refusal: ``forged``, ``contract`` or ``receiver``.
    """

    peer: str
    sender: int
    edge: int
    request_id: int
    reason: str


@dataclass(frozen=True)
class RequestFailed(InfraEvent):
    """A node reported (ERROR envelope) that it cannot finish ``request_id``."""

    node: str
    request_id: int
    reason: str


# --- app ------------------------------------------------------------------


@dataclass(frozen=True)
class SessionRefused(InfraEvent):
    """A step of session ``session`` (owner slot ``owner``) was refused before it changed any state."""

    peer: str
    owner: int
    session: int
    step: int
    reason: str


@dataclass(frozen=True)
class SessionEnded(InfraEvent):
    """Session ``session`` of owner slot ``owner`` ended at this node: closed, idle, evicted or over its limit.

    Its state is gone; a later step is refused (``SessionRefused``), never served from a fresh state.
    """

    owner: int
    session: int
    steps: int
    reason: str


@dataclass(frozen=True)
class StateReplayRefused(InfraEvent):
    """A replay of session ``session``'s inputs (owner slot ``owner``) was refused; nothing changed here."""

    peer: str
    owner: int
    session: int
    step: int
    reason: str


@dataclass(frozen=True)
class StateDeltaRefused(InfraEvent):
    """A state delta for session ``session`` (owner slot ``owner``) was refused; the replica is unchanged."""

    peer: str
    owner: int
    session: int
    step: int
    reason: str


@dataclass(frozen=True)
class SessionOpened(AppEvent):
    """Session ``session`` of owner slot ``owner`` opened at this node (its step 0 arrived)."""

    owner: int
    session: int


@dataclass(frozen=True)
class OutputReady(AppEvent):
    """A graph output of request ``request_id`` was computed on this node."""

    request_id: int
    name: str
    value: np.ndarray = field(compare=False, repr=False)


@dataclass(frozen=True)
class RequestOpened(AppEvent):
    """Work for ``request_id`` started on this node (its first input arrived); telemetry opens a hop span."""

    request_id: int
    program: str = ""


@dataclass(frozen=True)
class SegmentComputed(AppEvent):
    """Segment ``segment`` of ``request_id`` ran on this node's backend (emitted right after it returns)."""

    request_id: int
    segment: str


@dataclass(frozen=True)
class RequestCompleted(AppEvent):
    """Everything this node does for ``request_id`` is done (all sends queued)."""

    request_id: int


@dataclass(frozen=True)
class ControlReceived(AppEvent):
    """A core control message (HELLO, PING, BYE, ERROR ...) arrived."""

    peer: str
    code: int
    payload: bytes


@dataclass(frozen=True)
class Custom(AppEvent):
    """An application-defined event emitted by a protocol component."""

    name: str
    data: dict[str, object] = field(default_factory=dict, compare=False)
