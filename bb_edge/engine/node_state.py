"""The node state a restarted node resumes from: its engine snapshot and resend buffer, as bytes (sans-IO).

``bb-edge node --state FILE`` writes this blob atomically (bb_edge/adapters/fleet/hostloop.py); the
format is ``BBNODE1\\n``, a u32 header length, a JSON header, the engine snapshot, then every kept
envelope in header order.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bb_edge.engine.retransmit import RetransmitBuffer
from bb_edge.errors import BBError

if TYPE_CHECKING:
    from bb_edge.engine.engine import Engine

NODE_STATE_MAGIC = b"BBNODE1\n"


class StateFileError(BBError):
    """A node state file (``bb-edge node --state``) is unreadable, truncated or of another node."""


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


def encode_node_state(engine: Engine, retransmit: RetransmitBuffer | None = None, *, clean: bool = False,
                      saved_at: float = 0.0) -> bytes:
    """The state blob of ``engine`` (and what ``retransmit`` keeps); ``saved_at`` is the caller's clock."""
    kept: list[tuple[int, str, int, bytes]] = []
    if retransmit is not None:
        for rid, entries in retransmit.items():
            kept.extend((rid, peer, receiver, data) for peer, receiver, data in entries)
    snap = engine.snapshot()
    head = json.dumps({"node": engine.node, "clean": clean, "saved_at": saved_at,
                       "engine": len(snap),
                       "retransmit": [[rid, peer, receiver, len(data)] for rid, peer, receiver, data in kept]},
                      sort_keys=True).encode()
    return b"".join([NODE_STATE_MAGIC, struct.pack("<I", len(head)), head, snap] + [d for *_, d in kept])


def decode_node_state(data: bytes, where: str = "node state") -> NodeState:
    """Parse a blob of :func:`encode_node_state`; :class:`StateFileError` (naming ``where``) if it is not one."""
    if not data.startswith(NODE_STATE_MAGIC) or len(data) < len(NODE_STATE_MAGIC) + 4:
        raise StateFileError(f"{where} is not a bb-edge node state file")
    off = len(NODE_STATE_MAGIC)
    (n,) = struct.unpack_from("<I", data, off)
    try:
        head = json.loads(data[off + 4: off + 4 + n])
        node, clean, size = str(head["node"]), bool(head["clean"]), int(head["engine"])
        entries = [(int(r), str(p), int(rc), int(ln)) for r, p, rc, ln in head["retransmit"]]
        saved_at = float(head.get("saved_at", 0.0))
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise StateFileError(f"{where}: corrupt node state header: {exc}") from exc
    pos = off + 4 + n
    if size < 0 or any(ln < 0 for *_, ln in entries) or \
            pos + size + sum(ln for *_, ln in entries) != len(data):
        raise StateFileError(f"{where}: truncated or padded node state ({len(data)} bytes)")
    engine_blob = data[pos: pos + size]
    pos += size
    kept = []
    for rid, peer, receiver, ln in entries:
        kept.append((rid, peer, receiver, data[pos: pos + ln]))
        pos += ln
    return NodeState(node, clean, engine_blob, kept, saved_at)
