"""The node state a restarted node resumes from: its engine snapshot and resend buffer, as bytes (sans-IO).

``bb-edge node --state FILE`` writes this blob atomically (bb_edge/adapters/fleet/hostloop.py); the
format is ``BBNODE1\\n``, a u32 header length, a JSON header, the engine snapshot, then every kept
envelope in header order. The header names the node and the deployment (:func:`deployment_digest`: its
name and every node's name and id), and every field is type-checked on reading, so a file of another
node or deployment, or a hand-edited one, is a :class:`StateFileError` and never restored.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from bb_edge.engine.retransmit import RetransmitBuffer
from bb_edge.errors import BBError

if TYPE_CHECKING:
    from bb_edge.engine.engine import Engine

NODE_STATE_MAGIC = b"BBNODE1\n"


class StateFileError(BBError):
    """A node state file (``bb-edge node --state``) is unreadable, truncated or of another node."""

    fix = "delete the state file (the node then starts in a new epoch) or pass the right --state FILE"


MAX_EPOCH = 0xFFFFFFFF  #: boot epochs are unsigned 32-bit and never wrap (docs/wire.md)


class EpochError(BBError):
    """A boot epoch is out of 1..2**32-1, or the next one would not be above the last (epochs never wrap)."""

    fix = ("give the node a new name or id (its epochs are used up), or fix the epoch file / clock; "
           "an epoch never goes backwards")


def check_epoch(epoch: object, where: str) -> int:
    """``epoch`` if it is an integer in 1..2**32-1; :class:`EpochError` naming ``where`` otherwise."""
    if isinstance(epoch, bool) or not isinstance(epoch, int) or not 1 <= epoch <= MAX_EPOCH:
        raise EpochError(f"{where}: boot epoch {epoch!r} is not in 1..{MAX_EPOCH} (epochs never wrap)")
    return epoch


def deployment_digest(deployment: str, ids: Mapping[str, int]) -> str:
    """SHA-256 (hex) of a deployment's identity as a state file records it: its name, every node's id."""
    canon = json.dumps({"deployment": deployment, "ids": dict(sorted(ids.items()))}, sort_keys=True)
    return hashlib.sha256(canon.encode()).hexdigest()


def engine_digest(engine: Engine, deployment: str = "") -> str:
    """:func:`deployment_digest` of the deployment ``engine`` was built for (named ``deployment``)."""
    return deployment_digest(deployment, engine.peers)


@dataclass
class NodeState:
    """What ``bb-edge node --state FILE`` keeps across restarts.

    ``engine`` is :meth:`Engine.snapshot` (sequence, boot epoch, duplicate
    windows, open requests, component state); ``retransmit`` what the node
    keeps to resend per request. ``clean`` is True when the file was written
    at the end of an orderly shutdown (after the final flush), so its
    sequence number is the last one the node sent; a periodic snapshot is not
    clean, envelopes may have left after it.
    """

    node: str
    clean: bool
    engine: bytes
    retransmit: list[tuple[int, str, int, bytes]] = field(default_factory=list)
    saved_at: float = 0.0
    deployment: str = ""  #: :func:`deployment_digest` of the deployment the node ran


def encode_node_state(engine: Engine, retransmit: RetransmitBuffer | None = None, *, clean: bool = False,
                      saved_at: float = 0.0, deployment: str = "") -> bytes:
    """The state blob of ``engine`` (and what ``retransmit`` keeps); ``saved_at`` is the caller's clock,
    ``deployment`` the deployment's name (recorded with its node ids as :func:`engine_digest`)."""
    kept: list[tuple[int, str, int, bytes]] = []
    if retransmit is not None:
        for rid, entries in retransmit.items():
            kept.extend((rid, peer, receiver, data) for peer, receiver, data in entries)
    snap = engine.snapshot()
    head = json.dumps({"node": engine.node, "clean": clean, "saved_at": saved_at,
                       "deployment": engine_digest(engine, deployment),
                       "engine": len(snap),
                       "retransmit": [[rid, peer, receiver, len(data)] for rid, peer, receiver, data in kept]},
                      sort_keys=True).encode()
    return b"".join([NODE_STATE_MAGIC, struct.pack("<I", len(head)), head, snap] + [d for *_, d in kept])


def _typed(head: dict[str, object], key: str, kind: type | tuple[type, ...], where: str) -> object:
    """``head[key]`` if it is of ``kind`` (a bool is never an int here); StateFileError naming the field."""
    if key not in head:
        raise StateFileError(f"{where}: node state header has no {key!r}")
    v = head[key]
    if isinstance(v, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)) \
            or not isinstance(v, kind):
        raise StateFileError(f"{where}: node state field {key!r} is {type(v).__name__} {v!r:.40}, not "
                             f"{getattr(kind, '__name__', kind)}")
    return v


def decode_node_state(data: bytes, where: str = "node state") -> NodeState:
    """Parse a blob of :func:`encode_node_state`; :class:`StateFileError` (naming ``where``) if it is not one.

    Every header field is type-checked: ``node`` and ``deployment`` strings, ``clean`` a bool, ``engine``
    and each resend entry's ``[request_id, peer, receiver, length]`` non-negative integers (and a string).
    """
    if not data.startswith(NODE_STATE_MAGIC) or len(data) < len(NODE_STATE_MAGIC) + 4:
        raise StateFileError(f"{where} is not a bb-edge node state file")
    off = len(NODE_STATE_MAGIC)
    (n,) = struct.unpack_from("<I", data, off)
    try:
        head = json.loads(data[off + 4: off + 4 + n])
    except (ValueError, UnicodeDecodeError) as exc:
        raise StateFileError(f"{where}: corrupt node state header: {exc}") from exc
    if not isinstance(head, dict):
        raise StateFileError(f"{where}: corrupt node state header: not a JSON object")
    node = str(_typed(head, "node", str, where))
    deployment = str(_typed(head, "deployment", str, where))
    clean = bool(_typed(head, "clean", bool, where))
    size = cast(int, _typed(head, "engine", int, where))
    saved_at = float(cast(float, _typed(head, "saved_at", (int, float), where))) if "saved_at" in head else 0.0
    raw = cast(list[Any], _typed(head, "retransmit", list, where))
    entries: list[tuple[int, str, int, int]] = []
    for k, e in enumerate(raw):
        ok = isinstance(e, list) and len(e) == 4 and all(
            isinstance(x, t) and not isinstance(x, bool) for x, t in zip(e, (int, str, int, int), strict=True))
        if not ok or any(x < 0 for x in (e[0], e[2], e[3])):
            raise StateFileError(f"{where}: node state field 'retransmit[{k}]' is {e!r:.60}, not "
                                 f"[request_id, peer, receiver, length]")
        entries.append((e[0], e[1], e[2], e[3]))
    pos = off + 4 + n
    if size < 0 or pos + size + sum(ln for *_, ln in entries) != len(data):
        raise StateFileError(f"{where}: truncated or padded node state ({len(data)} bytes)")
    engine_blob = data[pos: pos + size]
    pos += size
    kept = []
    for rid, peer, receiver, ln in entries:
        kept.append((rid, peer, receiver, data[pos: pos + ln]))
        pos += ln
    return NodeState(node, clean, engine_blob, kept, saved_at, deployment)
