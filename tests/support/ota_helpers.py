"""Helpers of the live-fleet OTA tests (test_ota.py, test_ota_c.py, test_ota_micropython.py): a tampered
image chunk and the NACKs a node answers with. One copy, so the Linux, C and MicroPython fleets are
attacked and read alike."""

from __future__ import annotations

import time
from typing import Any

from bb_edge.engine import ota
from bb_edge.wire import envelope as wire


def tamper_last_chunk(items: list[ota.Outgoing], node: str) -> list[ota.Outgoing]:
    """Flip a byte in ``node``'s last DATA chunk (after the deployer hashed and signed the real image)."""
    idx = max(i for i, o in enumerate(items) if o.peer == node)
    env = wire.decode(items[idx].data, max_payload=len(items[idx].data))
    body = bytearray(env.payload_bytes())
    body[-1] ^= 0x5A
    bad = wire.Envelope.for_bytes(bytes(body), sender=env.sender, receiver=env.receiver, seq=env.seq,
                                  kind=env.kind, protocol=env.protocol, edge=env.edge)
    items[idx] = ota.Outgoing(node, items[idx].receiver, wire.encode(bad, max_payload=len(body)))
    return items


def nacks(tap: Any, sender: int, deadline: float) -> list[tuple[int, int]]:
    """(update id, code) of the NACKs from ``sender`` until one arrives or ``deadline`` (others are dropped);
    ``tap`` is an OtaTap (its ``inbox`` of decoded envelopes)."""
    out: list[tuple[int, int]] = []
    while time.monotonic() < deadline and not out:
        while tap.inbox:
            env = tap.inbox.popleft()
            if env.sender == sender and env.edge == ota.NACK:
                uid, code, _ = ota.decode_nack(bytes(env.payload_bytes()))
                out.append((uid, code))
        time.sleep(0.02)  # the tap fills the inbox from the transport's thread
    return out
