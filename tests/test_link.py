"""The sans-IO link layer (bb_edge/wire/link.py, docs/wire.md "Link layer"): golden vectors, state machine."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from bb_edge.wire import link as L
from bb_edge.wire.framing import FrameDecoder, cobs_decode_py, frame
from bb_edge.wire.hello import HelloRecord
from tests.vectors.link import make_link_vectors as V

VEC = Path(__file__).parent / "vectors" / "link"
DATA = json.loads((VEC / "link.json").read_text())


# ------------------------------------------------------------ golden vectors


@pytest.mark.parametrize("name", sorted(DATA["valid"]))
def test_valid_vector_decodes_and_encodes(name: str) -> None:
    """Each valid body decodes to the described fields (checked here against struct, an independent
    reading of the spec's offsets) and the fields encode to the identical bytes; the .frame file is
    COBS(body || crc32) || 0x00."""
    body = (VEC / f"{name}.bin").read_bytes()
    want = DATA["valid"][name]
    fr = L.parse_frame(body)
    assert V.frame_fields(fr) == want
    assert V.encode_fields(want) == body
    raw = (VEC / f"{name}.frame").read_bytes()
    assert raw[-1] == 0 and 0 not in raw[:-1]
    dec = cobs_decode_py(raw[:-1])
    assert dec[:-4] == body and struct.unpack("<I", dec[-4:])[0] == zlib.crc32(body)
    assert FrameDecoder().feed(raw) == [body] and frame(body) == raw
    if want.get("bare"):
        return
    magic, ftype, flags, lseq = struct.unpack_from("<2sBBI", body)
    assert (magic, ftype, flags, lseq) == (b"\xbb\xa1", want["type"], want["flags"], want["lseq"])
    if ftype == L.T_HELLO:
        h = want["hello"]
        fields = struct.unpack_from("<BBHIIIHH32s", body, 8)
        assert fields == (h["min_version"], h["max_version"], h["caps"], h["boot_epoch"], h["node_id"],
                          h["max_frame"], h["window"], len(h["name"].encode()), bytes.fromhex(h["program_hash_hex"]))
        assert body[60:].decode() == h["name"] and len(body) == 60 + len(h["name"].encode())
    elif ftype == L.T_DATA and flags & 1:
        assert struct.unpack_from("<III", body, 8) == (want["msg_id"], want["offset"], want["total_len"])
        assert body[20:].hex() == want["chunk_hex"]
    elif ftype == L.T_DATA:
        assert body[8:].hex() == want["envelope_hex"]
    elif ftype == L.T_ACK:
        assert len(body) == 12 and (lseq, struct.unpack_from("<I", body, 8)[0]) == (want["cum"], want["mask"])
    else:
        assert [[n, u] for n, u in struct.iter_unpack("<IB", body[8:])] == want["presence"]


def test_fragment_vectors_reassemble() -> None:
    """The three FRAG vectors carry one 300-byte envelope: first/middle/last chunks joined == it."""
    parts = [L.parse_frame((VEC / f"data_frag_{p}.bin").read_bytes()) for p in ("first", "middle", "last")]
    whole = b"".join(p.envelope for p in parts)
    assert len(whole) == parts[0].total_len == 300 and whole[:2] == b"\xbb\xe1"
    assert [p.offset for p in parts] == [0, 108, 216]


def _state(link: L.Link) -> tuple[Any, ...]:
    """Everything a peer's frame could change (liveness and counters left out where noted by the caller)."""
    return (link.peer, link.version, link.mismatch, link.cum, link.mask, link._ack_due,
            {k: (r.total_len, list(r.offsets), r.received) for k, r in link._reasm.items()}, link._reasm_bytes,
            [(s, f.tries, f.deadline) for s, f in link._inflight.items()], link._next_lseq, link.srtt, link.rto,
            link._last_heard, link._monitored, link.peer_down, list(link._pending), len(link._unsent))


@pytest.mark.parametrize("name", sorted(DATA["invalid"]))
def test_invalid_vector_raises_its_event_and_changes_nothing(name: str) -> None:
    """Each invalid body raises exactly its event and code, puts nothing on the line and leaves the
    link's state as it was."""
    verdict = DATA["invalid"][name]
    body = (VEC / "invalid" / f"{name}.bin").read_bytes()
    if verdict["session"]:
        link = V.setup_link()
    else:
        link = L.Link(V.SETUP_LOCAL, V.SETUP_CONFIG)
        link.start(0.0)
        link.take_frames()
    before = _state(link)
    link.receive(body, 1.0)
    evs = [V.event_json(e) for e in link.take_events()]
    assert len(evs) == 1 and evs[0]["event"] == verdict["event"], evs
    assert evs[0].get("code", "") == verdict["code"]
    frames = link.take_frames()
    if verdict["code"] == "NO_SESSION":  # the one refusal that answers: a HELLO, so the peer handshakes
        assert [L.parse_frame(f).type for f in frames] == [L.T_HELLO]
    else:
        assert frames == []
    assert _state(link) == before


@pytest.mark.parametrize("session", DATA["sessions"], ids=[s["name"] for s in DATA["sessions"]])
def test_scripted_session_replays(session: dict[str, Any]) -> None:
    """Replaying a scripted session gives, step by step, exactly the recorded frames and events."""
    link = L.Link(V.hello_from_fields(session["local_hello"]), V.config_from_json(session["config"]))
    assert link.local.encode().hex() == session["local_hello_hex"]
    for step in session["steps"]:
        assert step["t_ms"] == round(step["t"] * 1000)
        frames, events = V.replay_step(link, step)
        assert (frames, events) == (step["out"], step["events"]), step


def test_vectors_are_current() -> None:
    """Regenerating the vectors from the code gives the checked-in link.json (nothing drifted)."""
    data = {"valid": {n: V.frame_fields(L.parse_frame(b)) for n, b in V.valid_vectors().items()},
            "sessions": V.sessions()}
    assert data["valid"] == DATA["valid"]
    assert json.loads(json.dumps(data["sessions"])) == DATA["sessions"]
    for n, (body, _, _, _) in V.invalid_vectors().items():
        assert (VEC / "invalid" / f"{n}.bin").read_bytes() == body


def test_session_semantics_hand_checked() -> None:
    """Independent checks of what the first session means (not just what the code recorded)."""
    s = DATA["sessions"][0]
    steps = s["steps"]
    fr = [[L.parse_frame(bytes.fromhex(h)) for h in st["out"]] for st in steps]
    assert [f.type for f in fr[0]] == [L.T_HELLO] and not fr[0][0].reply
    assert fr[1][0].reply
    # the 300+ byte envelope to a 128-byte peer: 3 fragments of <= 128-byte bodies, chunks of 108
    frags = fr[3]
    assert [f.lseq for f in frags] == [2, 3, 4] and all(f.frag and f.msg_id == 1 for f in frags)
    assert [len(bytes.fromhex(h)) <= 128 for h in steps[3]["out"]] == [True] * 3
    assert b"".join(f.envelope for f in frags) == bytes.fromhex(steps[3]["envelope"])
    # ACK(1, 0b10): lseq 2 missing -> resent at once, byte-identical to its first transmission
    assert steps[4]["out"] == [steps[3]["out"][0]]
    # out-of-order inbound: ACKs (1,0), (1,0b10), (3,0), then the duplicate acked again without an event
    assert [(f.lseq, f.mask) for st in fr[6:10] for f in st] == [(1, 0), (1, 2), (3, 0), (3, 0)]
    assert steps[9]["events"] == []
    # timeout at 0.3 s resends lseq 5 unchanged
    assert steps[12]["out"] == steps[10]["out"]


# ----------------------------------------------------------- unit behaviour


def rec(node: int, epoch: int = 1, max_frame: int = 4096, window: int = 8, vmin: int = 1, vmax: int = 1,
        name: str = "") -> HelloRecord:
    """A hello record for tests."""
    return HelloRecord(vmin, vmax, 3, epoch, node, max_frame, window, name)


def test_rtt_estimator_follows_rfc6298() -> None:
    """SRTT/RTTVAR/RTO against the RFC 6298 formulas computed by hand for three samples."""
    cfg = L.LinkConfig(rto_min=0.001, rto_max=60.0, granularity=0.001, hb_interval=0, dead_after=0)
    a = L.Link(rec(1), cfg)
    a.start(0.0)
    a.receive(L.encode_hello(rec(2)), 0.0)
    a.take_frames()
    srtt = rttvar = 0.0
    t = 1.0
    for i, r in enumerate((0.100, 0.300, 0.050)):
        a.send(b"\xbb\xe1" + bytes(70), t)
        a.receive(L.encode_ack(i + 1, 0), t + r)
        if i == 0:
            srtt, rttvar = r, r / 2
        else:
            rttvar = 0.75 * rttvar + 0.25 * abs(srtt - r)
            srtt = 0.875 * srtt + 0.125 * r
        assert a.srtt == pytest.approx(srtt) and a.rttvar == pytest.approx(rttvar)
        assert a.rto == pytest.approx(srtt + max(0.001, 4 * rttvar))
        t += 1.0
