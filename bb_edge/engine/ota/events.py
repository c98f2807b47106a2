"""Events the OTA node end emits on its engine's bus (staged, refused, switched, rolled back)."""

from __future__ import annotations

from dataclasses import dataclass

from bb_edge.engine import events as ev
from bb_edge.engine.ota.messages import CODE_NAMES


@dataclass(frozen=True)
class OtaStaged(ev.Event):
    """A node verified an offered program (hash, signature, loader) and answered READY."""

    update_id: int
    sha256: bytes
    size: int


@dataclass(frozen=True)
class OtaRefused(ev.Event):
    """An update message was refused (a NACK went to the deployer); the current program stays."""

    peer: str
    update_id: int
    code: int
    reason: str

    @property
    def code_name(self) -> str:
        """The NACK code's name."""
        return CODE_NAMES.get(self.code, str(self.code))


@dataclass(frozen=True)
class OtaSwitched(ev.Event):
    """The node switched to the staged program at an idle point and passed its health check."""

    update_id: int
    old_hash: bytes
    new_hash: bytes


@dataclass(frozen=True)
class OtaRolledBack(ev.Event):
    """The switched program failed its health check; the old one runs again."""

    update_id: int
    reason: str
