"""The hello record codec (bb_edge/wire/hello.py) against the byte layout of docs/wire.md."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bb_edge.errors import WireError
from bb_edge.wire import hello


def _manual(min_v: int, max_v: int, caps: int, epoch: int, nid: int, frame: int, window: int,
            name: bytes, h: bytes) -> bytes:
    # an independent oracle: the table of docs/wire.md written out field by field
    return (bytes([min_v, max_v]) + caps.to_bytes(2, "little") + epoch.to_bytes(4, "little")
            + nid.to_bytes(4, "little") + frame.to_bytes(4, "little") + window.to_bytes(2, "little")
            + len(name).to_bytes(2, "little") + h + name)


def test_layout_matches_the_spec_table() -> None:
    rec = hello.HelloRecord(1, 2, hello.CAP_ARQ | hello.CAP_FRAG, 7, 3, 4096, 8, "n1", bytes(range(32)))
    raw = rec.encode()
    assert raw == _manual(1, 2, 3, 7, 3, 4096, 8, b"n1", bytes(range(32)))
    assert len(raw) == 52 + 2
    assert hello.decode(raw) == rec


@settings(max_examples=300, deadline=None)
@given(min_v=st.integers(1, 255), span=st.integers(0, 255), caps=st.integers(0, 3),
       epoch=st.integers(1, 2**32 - 1), nid=st.integers(0, 2**32 - 1), frame=st.integers(64, 2**32 - 1),
       window=st.integers(1, 32), name=st.text(max_size=16), h=st.binary(min_size=32, max_size=32))
def test_round_trip(min_v: int, span: int, caps: int, epoch: int, nid: int, frame: int, window: int,
                    name: str, h: bytes) -> None:
    rec = hello.HelloRecord(min_v, min(255, min_v + span), caps, epoch, nid, frame, window, name, h)
    assert hello.decode(rec.encode()) == rec


@pytest.mark.parametrize("mutate, code", [
    (lambda b: b[:51], "TRUNCATED"),
    (lambda b: b[:-1], "TRUNCATED"),
    (lambda b: b + b"x", "BAD_LENGTH"),
    (lambda b: b"\x00" + b[1:], "BAD_VERSION"),
    (lambda b: b[:1] + b"\x00" + b[2:], "BAD_VERSION"),
    (lambda b: b[:2] + b"\x04\x00" + b[4:], "BAD_FIELD"),
    (lambda b: b[:4] + b"\x00\x00\x00\x00" + b[8:], "BAD_FIELD"),
    (lambda b: b[:12] + struct.pack("<I", 63) + b[16:], "BAD_FIELD"),
    (lambda b: b[:16] + struct.pack("<H", 0) + b[18:], "BAD_FIELD"),
    (lambda b: b[:16] + struct.pack("<H", 33) + b[18:], "BAD_FIELD"),
    (lambda b: b[:18] + struct.pack("<H", 65) + b[20:], "BAD_FIELD"),
    (lambda b: b[:-2] + b"\xff\xfe", "BAD_FIELD"),
])
def test_every_rule_is_enforced(mutate, code: str) -> None:  # type: ignore[no-untyped-def]
    good = hello.HelloRecord(1, 1, 0, 1, 5, 64, 1, "ab").encode()
    with pytest.raises(WireError) as info:
        hello.decode(mutate(good))
    assert info.value.code == code


def test_negotiation() -> None:
    assert hello.negotiate(1, 3, 2, 5) == 3
    assert hello.negotiate(1, 1, 1, 1) == 1
    assert hello.negotiate(2, 2, 1, 1) is None
    assert hello.negotiate(1, 1, 2, 2) is None
