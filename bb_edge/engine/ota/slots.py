"""A/B program slots a node stages updates into: the :class:`SlotStore` contract and an in-memory store.

The file-backed store is an adapter (bb_edge/adapters/ops/ota_store.py ``FileSlots``); flash slots live
in the C ports.
"""

from __future__ import annotations

from typing import Protocol


class SlotStore(Protocol):
    """A/B program slots: ``stage`` writes the inactive slot, ``activate`` flips the active pointer."""

    def stage(self, data: bytes) -> None:
        """Write ``data`` to the inactive slot (the active one is never touched)."""
        ...

    def activate(self) -> None:
        """Make the staged slot the active one (atomically)."""
        ...

    def discard(self) -> None:
        """Forget the staged slot (after an abort or a rollback)."""
        ...

    def revert(self) -> None:
        """Point the active pointer back where the last :meth:`activate` found it (an ABORT after a switch)."""
        ...

    def accepted_version(self) -> int:
        """The highest program version this node ever switched to (0: none); survives restarts."""
        ...

    def accept_version(self, version: int) -> None:
        """Record ``version`` as accepted (durably, before the switch is announced)."""
        ...


class MemorySlots:
    """A :class:`SlotStore` in memory (tests, nodes without storage)."""

    def __init__(self) -> None:
        self.slots: list[bytes | None] = [None, None]
        self.active = 0
        self.staged: int | None = None
        self.previous: int | None = None

    def stage(self, data: bytes) -> None:
        """Keep ``data`` in the inactive slot."""
        self.staged = 1 - self.active
        self.slots[self.staged] = bytes(data)
        self.previous = None  # the other slot is overwritten: nothing to go back to

    def activate(self) -> None:
        """Flip to the staged slot."""
        if self.staged is not None:
            self.previous, self.active, self.staged = self.active, self.staged, None

    def revert(self) -> None:
        """Flip back to the slot the last activate left."""
        if self.previous is not None:
            self.active, self.previous = self.previous, None

    def accepted_version(self) -> int:
        """The highest version accepted (kept in memory)."""
        return getattr(self, "version", 0)

    def accept_version(self, version: int) -> None:
        """Raise the accepted version."""
        self.version = max(self.accepted_version(), version)

    def discard(self) -> None:
        """Drop the staged slot."""
        if self.staged is not None:
            self.slots[self.staged] = None
            self.staged = None
