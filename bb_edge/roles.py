"""The engine-side contracts, as typing.Protocols: protocol handlers, snapshottable bindings, indexes.

The engine relies on these and nothing else of what is bound to it: a :class:`ProtocolHandler` handles
one protocol's envelopes, a :class:`Snapshottable` binding goes into the engine's snapshot. Each role
lives where its family does, and is imported from there: Backend in :mod:`bb_edge.backends.base`, the
learning roles (Aggregator, PreAggregator, Attack, PeerSelector, Codec, DataSource) and the learning
:class:`~bb_edge.learn.roles.Component` base (a :class:`Snapshottable` with a JSON config and a registry)
in :mod:`bb_edge.learn.roles`. Learning strategies are compositions of components bound to an engine;
the engine itself never changes for a new strategy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from bb_edge.engine.context import Context
    from bb_edge.wire.envelope import Envelope


@runtime_checkable
class Snapshottable(Protocol):
    """A binding whose state the engine's snapshot keeps: stable type id, snapshot and restore."""

    type_id: str

    def snapshot(self) -> bytes:
        """Serialize the component's state."""
        ...

    def restore(self, state: bytes) -> None:
        """Replace the component's state with a snapshot."""
        ...


@runtime_checkable
class ProtocolHandler(Protocol):
    """The Protocol role: handles envelopes of one protocol id and periodic ticks.

    It acts only through the :class:`~bb_edge.engine.context.Context` it is
    given (send envelopes, emit events, read bindings, run compute) and the
    engine's public methods (e.g. the program swap an update needs), never
    through the engine's private state, so it stays sans-IO like the engine.
    """

    protocol_id: int

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """Handle one decoded, validated envelope addressed to this protocol."""
        ...

    def on_tick(self, now: float, ctx: Context) -> None:
        """Called once per engine poll with the caller's clock."""
        ...


@runtime_checkable
class Index(Protocol):
    """Maps keys (names, ids) to values a component looks up."""

    def lookup(self, key: str) -> Any:
        """The value for ``key``."""
        ...


__all__ = ["Index", "ProtocolHandler", "Snapshottable"]
