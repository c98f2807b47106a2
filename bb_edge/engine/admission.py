"""The checks every receiving end makes before an envelope changes anything: nodes and the host alike.

An engine (:mod:`bb_edge.engine.engine`) and the host session (:mod:`bb_edge.engine.host_session`) admit
an envelope through these same functions, in the same order: decode with the size limits, bound the
dims, check the receiver, check that the sender is the edge's producer (or one of its standbys), check
the edge contract (dtype, shape, int8 parameters), then the duplicate window (:class:`SeqFilter`), which
moves only once the envelope was applied. Each end turns a refusal into its typed event.
"""

from __future__ import annotations

from collections.abc import Iterable

from bb_edge.engine import events
from bb_edge.engine.dedup import DUPLICATE, FRESH, SeqFilter, split_seq
from bb_edge.engine.edgequant import quant_problem
from bb_edge.wire import envelope as wire
from bb_edge.wire.dtypes import CODE_TO_NUMPY


def decode_checked(payload: bytes | bytearray | memoryview, max_payload: int) -> wire.Envelope:
    """Decode one envelope and bound its dims before anything makes an array; WireError if it fails.

    An empty tensor may name any dims (``(0, 2**32-1, 2**32-1)`` is zero elements): the bound keeps
    numpy from ever being asked for an impossible shape.
    """
    env = wire.decode(payload, max_payload=max_payload)
    wire.check_shape(env, max_payload)
    return env


def stale_event(window: SeqFilter, peer: str, env: wire.Envelope) -> events.Event | None:
    """Why the duplicate window drops ``env`` (DuplicateDropped or StaleEpoch), or None when it is fresh.

    Reads the window only: the caller records the envelope once it was applied.
    """
    verdict = window.check(env.sender, env.seq)
    if verdict == FRESH:
        return None
    if verdict == DUPLICATE:
        return events.DuplicateDropped(peer, env.sender, env.seq)
    oldest = window.oldest_epoch(env.sender)
    return events.StaleEpoch(peer, env.sender, split_seq(env.seq)[0], oldest if oldest is not None else 0)


def producer_ok(sender: int, producer_id: int | None, standby_ids: Iterable[int | None] = ()) -> bool:
    """True when ``sender`` is the edge's producer or one of the producer's standbys."""
    return sender == producer_id or any(sender == s for s in standby_ids if s is not None)


def contract_problem(env: wire.Envelope, elem_type: int, shape: tuple[int, ...] | list[int],
                     quant: tuple[float, int] | None = None) -> tuple[str, str] | None:
    """``(expected, got)`` when the envelope breaks the edge contract, else None.

    The contract is the edge's elem type and shape (a dim of -1, dynamic, matches any size) and, for an edge
    carried as int8, its scale and zero point.
    """
    dims = env.dims
    ok = env.dtype == elem_type and env.dtype in CODE_TO_NUMPY and len(dims) == len(shape)
    if ok:
        for d, s in zip(dims, shape):  # a plain loop, no generator: every data envelope comes through here
            if s >= 0 and d != s:
                ok = False
                break
    if not ok:  # the messages are built only for a refusal
        return f"elem_type {elem_type} shape {list(shape)}", f"elem_type {env.dtype} shape {list(env.dims)}"
    if quant is not None:
        return quant_problem(env, quant)
    return None
