"""Roles as typing.Protocols, and the Component contract.

A Component is a class implementing one or more roles, with a stable
``type_id`` and state to/from bytes so that an engine snapshot includes it.
Learning strategies (bb_edge.learn) are compositions of components bound to
an engine; the engine itself never changes for a new strategy. All roles are
importable from here: Backend is defined in :mod:`bb_edge.backends`, the
learning roles (Aggregator, PreAggregator, Attack, PeerSelector, Codec,
DataSource) in :mod:`bb_edge.learn.roles`, and re-exported below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from bb_edge.engine.context import Context
    from bb_edge.wire.envelope import Envelope


@runtime_checkable
class Component(Protocol):
    """Anything bound to an engine by name: stable type id, snapshot and restore."""

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
    given (send envelopes, emit events, read bindings, run compute), so it
    stays sans-IO like the engine.
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


# re-exported so that every role has one import path (bb_edge.roles). The
# learning roles load on first use only: the engine imports this module, and
# the core must not pull in bb_edge.learn at run time.
from bb_edge.backends.base import Backend  # noqa: E402

_LEARN_ROLES = ("Aggregator", "Attack", "Codec", "DataSource", "PeerSelector", "PreAggregator")

if TYPE_CHECKING:
    from bb_edge.learn.roles import (  # noqa: F401
        Aggregator,
        Attack,
        Codec,
        DataSource,
        PeerSelector,
        PreAggregator,
    )


def __getattr__(name: str) -> Any:
    """Load a learning role from :mod:`bb_edge.learn.roles` when it is first asked for."""
    if name in _LEARN_ROLES:
        from bb_edge.learn import roles as learn_roles

        value = getattr(learn_roles, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Aggregator", "Attack", "Backend", "Codec", "Component", "DataSource", "Index", "PeerSelector",
    "PreAggregator", "ProtocolHandler",
]
