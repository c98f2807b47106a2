"""Types shared by the host loop and every transport (MQTT, serial, in-process): the transport protocol,
its callbacks, the shutdown report and the refusals only a transport can see (impostors, lost sessions).

They live here, not in :mod:`bb_edge.adapters.fleet.hostloop`, so that a transport module can name them
without importing the host loop. The host's own refusals (:class:`~bb_edge.engine.events.OutputRefused`,
:class:`~bb_edge.engine.events.RequestFailed`) are engine events, re-exported here for the transports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bb_edge.engine import events
from bb_edge.engine.events import OutputRefused, RequestFailed

AckFn = Callable[[], None]
"""Confirms one inbound message to its link (MQTT PUBACK); called once, by the thread that stepped the engine."""

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
             on_control: Callable[[bytes, str], None] | None = None) -> None:
        """Start I/O; call ``deliver(peer, envelope[, ack])`` for each inbound envelope (any thread) and
        ``on_control(payload, writer)`` for each control message, ``writer`` the identity the link
        authenticated for it (MQTT: the topic's writer segment, which the broker's ACL pins)."""
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


# ------------------------------------------------- events raised by adapters


@dataclass(frozen=True)
class Impostor(events.InfraEvent):
    """An envelope whose header ``sender`` is not the node its topic/line names was dropped."""

    peer: str
    sender: int
    detail: str


@dataclass(frozen=True)
class SessionReset(events.InfraEvent):
    """The broker had no session for this client on a reconnect: whatever was queued for it is gone.

    Someone connected with this node's credentials and a clean session (or
    the broker lost its database). Recovery is the host's deadline retry.
    """

    node: str
    detail: str


__all__ = ["AckFn", "DeliverFn", "EventFn", "Impostor", "OutputRefused", "PeerFn", "RequestFailed", "SessionReset",
           "ShutdownReport", "Transport"]
