"""The sans-IO link layer (bb_edge/wire/link.py, docs/wire.md "Link layer"): golden vectors, state machine."""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.wire import link as L
from bb_edge.wire.framing import FrameDecoder, cobs_decode_py, frame
from bb_edge.wire.hello import HelloRecord
from tests.vectors.link import make_link_vectors as V

VEC = Path(__file__).resolve().parents[1] / "vectors" / "link"
DATA = json.loads((VEC / "link.json").read_text())
LONG = os.environ.get("BB_EDGE_LONG") == "1"


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
            link._last_heard, link._monitored, link.peer_down, list(link._pending), link._cutting, link._fsize,
            link._fgen, link._clean)


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


# ------------------------------------------------------ a simulated line


class Line:
    """Two links joined by a simulated serial line, driven with a fake clock (no threads, no sleeps).

    Every frame body is really serial-framed (COBS + CRC-32 + 0x00) and deframed by a FrameDecoder at
    the far end, after damage: per-byte flips (``corrupt``), per-byte drops (``drop``), whole frames lost
    (``loss``) and a random extra delay (``jitter``, which reorders frames).
    """

    def __init__(self, a: L.Link, b: L.Link, seed: int = 0, delay: float = 0.002, jitter: float = 0.0,
                 loss: float = 0.0, corrupt: float = 0.0, drop: float = 0.0) -> None:
        import random
        self.a, self.b = a, b
        self.rng = random.Random(seed)
        self.delay, self.jitter, self.loss, self.corrupt, self.drop = delay, jitter, loss, corrupt, drop
        self.now = 0.0
        self.flight: list[tuple[float, int, L.Link, bytes]] = []
        self.decoders = {id(a): FrameDecoder(1 << 20), id(b): FrameDecoder(1 << 20)}
        self.got: dict[int, list[bytes]] = {id(a): [], id(b): []}
        self.events: dict[int, list[L.LinkEvent]] = {id(a): [], id(b): []}
        self._n = 0
        self.bytes_on_wire = 0

    def _damage(self, raw: bytes) -> bytes:
        rng = self.rng
        if self.loss and rng.random() < self.loss:
            return b""
        if not (self.corrupt or self.drop):
            return raw
        buf = np.frombuffer(raw, dtype=np.uint8).copy()
        gen = np.random.default_rng(rng.getrandbits(64))
        if self.corrupt:
            hits = np.flatnonzero(gen.random(buf.size) < self.corrupt)
            buf[hits] ^= gen.integers(1, 256, hits.size, dtype=np.uint8)
        if self.drop:
            buf = buf[gen.random(buf.size) >= self.drop]
        return buf.tobytes()

    def _collect(self) -> None:
        for src, dst in ((self.a, self.b), (self.b, self.a)):
            for body in src.take_frames():
                raw = self._damage(frame(body))
                self.bytes_on_wire += len(raw)
                if raw:
                    self._n += 1
                    at = self.now + self.delay + (self.rng.random() * self.jitter if self.jitter else 0.0)
                    self.flight.append((at, self._n, dst, raw))
            for ev in src.take_events():
                if isinstance(ev, L.EnvelopeReceived):
                    self.got[id(src)].append(ev.envelope)
                else:
                    self.events[id(src)].append(ev)

    def start(self) -> None:
        """Both ends start at t=0."""
        self.a.start(0.0)
        self.b.start(0.0)
        self._collect()

    def run(self, until: float, done: Any = None, sends: list[tuple[float, L.Link, bytes]] | None = None) -> None:
        """Advance time event by event up to ``until`` (or until ``done()``); ``sends`` are (t, link, envelope)."""
        sends = sorted(sends or [], key=lambda s: s[0])
        si = 0
        while self.now < until and not (done is not None and si == len(sends) and done()):
            cands = [until]
            if self.flight:
                cands.append(min(f[0] for f in self.flight))
            for link in (self.a, self.b):
                d = link.next_deadline()
                if d is not None:
                    cands.append(d)
            if si < len(sends):
                cands.append(sends[si][0])
            self.now = max(self.now, min(cands))
            while si < len(sends) and sends[si][0] <= self.now:
                sends[si][1].send(sends[si][2], self.now)
                si += 1
            self.flight.sort(key=lambda f: (f[0], f[1]))
            while self.flight and self.flight[0][0] <= self.now:
                _, _, dst, raw = self.flight.pop(0)
                for body in self.decoders[id(dst)].feed(raw):
                    dst.receive(body, self.now)
            for link in (self.a, self.b):
                link.poll(self.now)
            self._collect()


def _envelope(i: int, size: int, sender: int = 1) -> bytes:
    """A real envelope with a distinct payload of ``size`` bytes."""
    from bb_edge.wire import Envelope, encode
    payload = (i.to_bytes(4, "little") * (size // 4 + 1))[:size]
    return encode(Envelope.for_bytes(payload, sender=sender, receiver=2, seq=i, kind=0, protocol=0, edge=1))


def _pair(cfg: L.LinkConfig | None = None, max_frame_b: int = 4096, window: int = 8,
          vb: tuple[int, int] = (1, 1), va: tuple[int, int] = (1, 1)) -> tuple[L.Link, L.Link]:
    cfg = cfg or L.LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=0.5, max_retries=1000, hb_interval=0.2,
                              dead_after=5.0, reassembly_timeout=60.0)
    a = L.Link(rec(1, epoch=3, max_frame=65536, window=window, vmin=va[0], vmax=va[1], name="a"), cfg)
    b = L.Link(rec(2, max_frame=max_frame_b, window=window, vmin=vb[0], vmax=vb[1], name="b"), cfg)
    return a, b


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=int(os.environ.get("BB_EDGE_LINK_EXAMPLES", "400" if LONG else "40")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), loss=st.sampled_from([0.0, 0.05, 0.2]),
       corrupt=st.sampled_from([0.0, 0.00002, 0.0001]), jitter=st.sampled_from([0.0, 0.01]),
       sizes=st.lists(st.sampled_from([1, 100, 3000, 16384]), min_size=1, max_size=12))
def test_exactly_once_under_loss_corruption_reordering(seed: int, loss: float, corrupt: float, jitter: float,
                                                        sizes: list[int]) -> None:
    """Envelopes both ways over a line that loses, corrupts and reorders frames: every envelope is
    handed up exactly once (16 KiB ones fragmented over b's 4 KiB max_frame), nothing is given up."""
    a, b = _pair()
    line = Line(a, b, seed=seed, loss=loss, corrupt=corrupt, jitter=jitter)
    line.start()
    to_b = [_envelope(i, s) for i, s in enumerate(sizes)]
    to_a = [_envelope(100 + i, s, sender=2) for i, s in enumerate(reversed(sizes))]
    sends = [(0.001 * i, a, e) for i, e in enumerate(to_b)] + [(0.001 * i, b, e) for i, e in enumerate(to_a)]
    line.run(600.0, lambda: a.unacked == 0 and b.unacked == 0, sends)
    assert sorted(line.got[id(b)]) == sorted(to_b)
    assert sorted(line.got[id(a)]) == sorted(to_a)
    for link in (a, b):
        assert not [e for e in line.events[id(link)] if isinstance(e, L.GaveUp)]


def test_16k_envelopes_fragment_over_4k_frames() -> None:
    """A 16 KiB envelope to a peer with max_frame 4096 goes as 5 FRAG frames, none above 4096 bytes, and
    is reassembled byte-identical (grow_after 0: the frame size is the cap from the start)."""
    a, b = _pair()
    a.config.grow_after = 0
    line = Line(a, b)
    line.start()
    line.run(0.1)
    env = _envelope(7, 16384)
    a.send(env, line.now)
    frames = a.take_frames()
    parsed = [L.parse_frame(f) for f in frames]
    assert all(p.frag for p in parsed) and len(frames) == -(-len(env) // (4096 - 20)) == 5
    assert max(len(f) for f in frames) <= 4096 and [p.offset for p in parsed] == [i * 4076 for i in range(5)]
    for f in frames:
        b.receive(f, line.now)
    assert [e.envelope for e in b.take_events() if isinstance(e, L.EnvelopeReceived)] == [env]


def test_data_frames_as_parts_frame_to_the_same_bytes() -> None:
    """take_frame_parts hands a DATA frame out as (link header, payload), unjoined; framed with
    frame_parts it is byte for byte the frame of take_frames' joined body, and the far end gets the
    envelopes (whole and fragmented)."""
    from bb_edge.wire.framing import frame_parts
    a, b = _pair()
    a.config.grow_after = 0
    line = Line(a, b)
    line.start()
    line.run(0.1)
    envs = [_envelope(7, 16384), _envelope(8, 100)]
    for e in envs:
        a.send(e, line.now)
    parts = a.take_frame_parts()
    assert len(parts) == 6 and all(isinstance(p, tuple) and len(p[0]) == L.HEADER_SIZE for p in parts)
    dec = FrameDecoder(1 << 20)
    for p in parts:
        assert isinstance(p, tuple)
        body = b"".join(p)
        raw = b"".join(frame_parts(*p)) + b"\x00"
        assert raw == frame(body)
        for got in dec.feed(raw):
            b.receive(got, line.now)
    assert [e.envelope for e in b.take_events() if isinstance(e, L.EnvelopeReceived)] == envs


def test_reassembly_budget_and_timeout() -> None:
    """The budget bounds the bytes held by messages in reassembly (a refused fragment is not acked and is
    retried later, so nothing is lost once room frees up); an abandoned message times out."""
    cfg = L.LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=0.2, max_retries=10_000, hb_interval=0,
                       dead_after=0, reassembly_budget=20_000, reassembly_timeout=5.0)
    a, b = _pair(cfg, max_frame_b=1024, window=32)
    line = Line(a, b, seed=3, loss=0.1, jitter=0.005)
    line.start()
    envs = [_envelope(i, 16384) for i in range(6)]  # 16 KiB each: one at a time fits in the budget
    peak = 0

    def done() -> bool:
        nonlocal peak
        peak = max(peak, b._reasm_bytes)
        return a.unacked == 0

    line.run(300.0, done, [(0.0, a, e) for e in envs])
    assert sorted(line.got[id(b)]) == sorted(envs)
    assert 16384 < peak <= 20_000
    rej = [e for e in line.events[id(b)] if isinstance(e, L.FragmentRejected)]
    assert rej and {e.code for e in rej} == {"BUDGET", "ORDER"}  # refused, retried, never lost
    # an incomplete message (its sender gone) is dropped after the timeout and frees its bytes
    b.receive(L.encode_fragment(b.cum + 1, 99, 0, 20_000, b"x" * 100), line.now)
    assert b._reasm_bytes == 20_000
    b.poll(line.now + 4.9)
    assert b._reasm_bytes == 20_000
    b.poll(line.now + 5.1)
    assert b._reasm_bytes == 0
    assert [e for e in b.take_events() if isinstance(e, L.ReassemblyTimeout)] == [
        L.ReassemblyTimeout(99, 100, 20_000)]


def test_versions_v2_only_meets_v1_only() -> None:
    """A v2-only link and a v1-only link: both report VersionMismatch, neither crashes, no data passes
    either way, HELLOs are still answered; the v1 end upgraded (new epoch, 1..2) then links at v2."""
    a, b = _pair(va=(2, 2), vb=(1, 1))
    line = Line(a, b)
    line.start()
    line.run(2.0, sends=[(0.5, a, _envelope(1, 100)), (0.5, b, _envelope(2, 100, sender=2))])
    for link in (a, b):
        mm = [e for e in line.events[id(link)] if isinstance(e, L.VersionMismatch)]
        assert len(mm) == 1 and not link.up and link.mismatch
        assert not [e for e in line.events[id(link)] if isinstance(e, L.LinkUp)]
    assert line.got[id(a)] == [] and line.got[id(b)] == []
    assert a.unacked == 1 and b.unacked == 1  # held, never sent
    assert a.counters.data_out == 0 and b.counters.data_out == 0
    # the v1-only node reboots with firmware that speaks 1..2: the queued envelopes now flow at v2
    b2 = L.Link(rec(2, epoch=2, max_frame=4096, vmin=1, vmax=2, name="b"), b.config)
    line.b = b2
    line.decoders[id(b2)] = FrameDecoder(1 << 20)
    line.got[id(b2)], line.events[id(b2)] = [], []
    b2.start(line.now)
    line._collect()
    line.run(line.now + 2.0, lambda: a.unacked == 0)
    assert line.got[id(b2)] == [_envelope(1, 100)]
    ups = [e for e in line.events[id(a)] if isinstance(e, L.LinkUp)]
    assert len(ups) == 1 and ups[0].version == 2


def test_karn_rule_keeps_srtt_unbiased() -> None:
    """The RTT steps from 0.05 s to 0.3 s: the first frames after the step time out and are resent before
    the ACK of their first transmission arrives. With Karn's rule those ACKs give no sample, the backed-off
    RTO carries over to the next frame, and SRTT converges to 0.3 s (within 20%). Timed from the
    retransmission instead (the rule removed), every frame keeps being resent and the samples keep
    SRTT near half the RTT. Fake time, deterministic delays."""
    def run(karn: bool) -> float:
        cfg = L.LinkConfig(rto_initial=0.2, rto_min=0.01, rto_max=5.0, max_retries=1000, hb_interval=0,
                           dead_after=0, karn=karn)
        a, b = _pair(cfg)
        line = Line(a, b, delay=0.025)
        line.start()
        line.run(1.0)
        line.run(21.0, sends=[(1.0 + 1.0 * i, a, _envelope(i, 50)) for i in range(20)])
        assert a.srtt is not None and abs(a.srtt - 0.05) < 0.005
        line.delay = 0.15  # one way: RTT 0.3 s from now on
        line.run(80.0, sends=[(21.0 + 1.0 * i, a, _envelope(100 + i, 50)) for i in range(50)])
        assert len(line.got[id(b)]) == 70 and a.counters.retransmits > 0
        return a.srtt

    assert abs(run(True) - 0.3) / 0.3 < 0.2
    assert abs(run(False) - 0.3) / 0.3 > 0.3  # the case really discriminates


def test_new_epoch_resends_whole_envelopes() -> None:
    """The peer reboots while a fragmented envelope is half acknowledged: after its new HELLO the whole
    envelope is sent again from its first fragment (the peer lost its partial reassembly) and arrives once."""
    a, b = _pair()
    line = Line(a, b)
    line.start()
    line.run(0.5)
    env = _envelope(1, 16384)
    a.send(env, line.now)
    frames = a.take_frames()
    for f in frames[:2]:  # the peer gets two fragments, acks them, then dies
        b.receive(f, line.now)
    a.receive(b.take_frames()[0], line.now + 0.01)
    assert a.unacked == 1
    b2 = L.Link(rec(2, epoch=9, max_frame=4096, name="b"), b.config)
    line.b, line.now = b2, line.now + 0.02
    line.decoders[id(b2)] = FrameDecoder(1 << 20)
    line.got[id(b2)], line.events[id(b2)] = [], []
    a.take_events()
    line.events[id(a)] = []
    b2.start(line.now)
    line._collect()
    line.run(line.now + 5.0, lambda: a.unacked == 0)
    assert line.got[id(b2)] == [env]
    assert [type(e).__name__ for e in line.events[id(a)] if not isinstance(e, L.HeartbeatReceived)] == [
        "PeerRestarted", "LinkUp"]


def test_give_up_starts_a_new_session_both_sides() -> None:
    """A peer that swallows one frame forever: after max_retries the sender reports GaveUp, bumps its epoch
    and the peer starts a new session too; later envelopes flow again."""
    cfg = L.LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=0.1, max_retries=4, hb_interval=0, dead_after=0)
    a, b = _pair(cfg)
    line = Line(a, b)
    line.start()
    line.run(0.5)
    epoch = a.local.boot_epoch
    lost = _envelope(1, 100)
    real_receive = b.receive

    def swallow(body: bytes | bytearray | memoryview, now: float) -> None:
        fr = L.parse_frame(body)
        if fr.type == L.T_DATA and fr.envelope == lost:
            return
        real_receive(body, now)

    b.receive = swallow  # type: ignore[method-assign]
    line.run(5.0, lambda: a.unacked == 0, sends=[(0.6, a, lost)])
    assert [e for e in line.events[id(a)] if isinstance(e, L.GaveUp)] == [L.GaveUp(lost, "RETRIES")]
    assert a.local.boot_epoch == epoch + 1
    line.run(line.now + 1.0, lambda: a.up)
    assert any(isinstance(e, L.PeerRestarted) for e in line.events[id(b)])
    b.receive = real_receive  # type: ignore[method-assign]
    nxt = _envelope(2, 100)
    line.run(line.now + 5.0, lambda: a.unacked == 0, sends=[(line.now + 0.01, a, nxt)])
    assert line.got[id(b)] == [nxt]


def test_hostile_frames_change_nothing_mid_session() -> None:
    """In a session with frames in flight, a partial reassembly and RTT state, each hostile frame of the
    issue (forged/truncated HELLO, ACK for a frame never sent, overlapping / out-of-range / over-budget
    fragments, an epoch going backwards) raises its event and leaves every piece of state as it was."""
    cfg = L.LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=1.0, hb_interval=0.5, dead_after=2.0,
                       reassembly_budget=20_000)
    a, b = _pair(cfg)
    line = Line(a, b)
    line.start()
    line.run(0.5, sends=[(0.1, a, _envelope(1, 100))])
    b.send(_envelope(2, 100, sender=2), line.now)
    b.take_frames()  # in flight, never delivered
    b.receive(L.encode_fragment(b.cum + 1, 5, 0, 10_000, b"y" * 1000), line.now)
    b.take_frames()
    b.take_events()
    peer_epoch = b.peer.boot_epoch if b.peer else 0
    hostile = {
        "forged HELLO (bad window)": (V._raw_hello(node=1, epoch=peer_epoch + 1, window=0), "BadHello"),
        "truncated HELLO": (L.encode_hello(rec(1, epoch=peer_epoch + 1))[:30], "BadHello"),
        "epoch backwards": (L.encode_hello(rec(1, epoch=peer_epoch - 1)), "EpochRegressed"),
        "ACK never sent": (L.encode_ack(b._next_lseq + 3, 0), "AckUnknown"),
        "ACK mask never sent": (L.encode_ack(0, 1 << 20), "AckUnknown"),
        "overlap": (L.encode_fragment(b.cum + 1, 5, 500, 10_000, b"z" * 1000), "FragmentRejected"),
        "out of range": (L.encode_fragment(b.cum + 1, 6, 9_900, 10_000, b"z" * 200), "FragmentRejected"),
        "length mismatch": (L.encode_fragment(b.cum + 1, 5, 2000, 12_000, b"z" * 100), "FragmentRejected"),
        "over budget": (L.encode_fragment(b.cum + 1, 7, 0, 15_000, b"z" * 100), "FragmentRejected"),
        "out of window": (L.encode_data(b.cum + 9, _envelope(3, 10)), "BadLinkFrame"),
        "garbage": (b"\xbb\xa1\x07" + bytes(20), "BadLinkFrame"),
    }
    assert peer_epoch == 3
    for what, (body, event) in hostile.items():
        before = _state(b)
        b.receive(body, line.now + 0.3)
        evs = b.take_events()
        assert [type(e).__name__ for e in evs] == [event], what
        assert b.take_frames() == [], what
        assert _state(b) == before, what


def test_frame_size_adapts_down_on_a_noisy_line_and_back_up_on_a_clean_one() -> None:
    """docs/wire.md "Frame size": on a line corrupting 0.2% of bytes the sender's DATA frame size falls from
    the start size (256) to 64-128 bytes (frames that small mostly get through), with fragments of
    one envelope cut at different sizes; every envelope still arrives exactly once, byte-identical. On a
    clean line the size climbs back to the cap; ``grow_after=0`` keeps the cap whatever the line does."""
    a, b = _pair(max_frame_b=16384)
    line = Line(a, b, seed=5, corrupt=0.002)
    line.start()
    line.run(0.5)
    assert a.frame_size == L.START_FRAME
    seen_sizes: dict[int, set[int]] = {}
    take = a.take_frames

    def spy() -> list[bytes]:
        out = take()
        for body in out:
            fr = L.parse_frame(body)
            if fr.frag:
                seen_sizes.setdefault(fr.msg_id, set()).add(len(fr.envelope))
        return out

    a.take_frames = spy  # type: ignore[method-assign]
    noisy = [_envelope(i, 16384) for i in range(12)]
    line.run(900.0, lambda: a.unacked == 0, [(0.5 + 0.001 * i, a, e) for i, e in enumerate(noisy)])
    assert a.unacked == 0 and sorted(line.got[id(b)]) == sorted(noisy)
    assert 64 <= a.frame_size <= 128, a.frame_size
    assert a.counters.shrinks >= 2
    # some envelope's full-size fragments (all but its last) were cut at more than one size
    assert any(len(s) > 2 for s in seen_sizes.values()), seen_sizes
    assert not [e for e in line.events[id(a)] if isinstance(e, L.GaveUp)]
    line.corrupt = 0.0
    clean = [_envelope(100 + i, 16384) for i in range(12)]
    t0 = line.now
    line.run(t0 + 900.0, lambda: a.unacked == 0, [(t0 + 0.001 * i, a, e) for i, e in enumerate(clean)])
    assert sorted(line.got[id(b)]) == sorted(noisy + clean)
    assert a.frame_size == 16384

    fixed = L.LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=0.5, max_retries=1000, hb_interval=0.2,
                         dead_after=5.0, reassembly_timeout=60.0, grow_after=0)
    a, b = _pair(cfg=fixed)
    line = Line(a, b, seed=5, corrupt=0.0002)
    line.start()
    envs = [_envelope(i, 16384) for i in range(3)]
    line.run(900.0, lambda: a.unacked == 0, [(0.5 + 0.001 * i, a, e) for i, e in enumerate(envs)])
    assert sorted(line.got[id(b)]) == sorted(envs) and a.frame_size == 4096
    assert a.counters.retransmits > 0 and a.counters.shrinks == 0


def test_lying_peer_frames_are_refused_or_reassembled() -> None:
    """A peer that advertised max_frame 64 and then sends frames up to this end's own max_frame is
    reassembled (the limit a receiver enforces is its own); above it, TOO_LARGE, nothing acked; a HELLO
    advertising max_frame below 64 is BadHello BAD_FIELD and brings no session up."""
    me = L.Link(rec(1, max_frame=1024, name="me"))
    me.start(0.0)
    me.take_frames()
    raw = bytearray(L.encode_hello(rec(2, max_frame=64, name="liar")))
    me.receive(bytes(raw), 0.0)
    assert [type(e).__name__ for e in me.take_events()] == ["LinkUp"]
    me.take_frames()
    env = _envelope(1, 1500)
    me.receive(L.encode_fragment(1, 9, 0, len(env), env[:1000]), 0.1)  # 1020 bytes: over 64, under 1024
    me.receive(L.encode_fragment(2, 9, 1000, len(env), env[1000:]), 0.1)
    assert [e.envelope for e in me.take_events() if isinstance(e, L.EnvelopeReceived)] == [env]
    me.take_frames()
    me.receive(L.encode_data(3, _envelope(2, 1100)), 0.2)
    evs = me.take_events()
    assert len(evs) == 1 and isinstance(evs[0], L.BadLinkFrame) and evs[0].code == "TOO_LARGE"
    assert me.take_frames() == [] and me.cum == 2
    small = bytearray(L.encode_hello(rec(3, epoch=2, max_frame=64, name="tiny")))
    struct.pack_into("<I", small, 8 + 12, 20)  # max_frame 20: below a link header plus fragment header
    fresh = L.Link(rec(1, max_frame=1024, name="me"))
    fresh.start(0.0)
    fresh.receive(bytes(small), 0.0)
    evs = fresh.take_events()
    assert len(evs) == 1 and isinstance(evs[0], L.BadHello) and evs[0].code == "BAD_FIELD" and not fresh.up


def test_corrupted_frame_is_resent_when_the_ack_shows_the_gap_not_by_its_timer() -> None:
    """Fast resend (docs/wire.md, ACK): the receiver acks the frames after a corrupted one at once, its
    mask showing the gap, and the sender resends the missing frame on that ACK. No ``poll`` is ever
    called, so no timer can fire: the CRC drops the corrupted frame and the envelope arrives anyway,
    long before the sender's RTO; a corrupted *last* frame (no later frame to show the gap) waits for it."""
    from bb_edge.adapters.transports.serial_link import FaultyPort

    cfg = L.LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=0.5, max_retries=1000, hb_interval=0.2,
                       dead_after=5.0, reassembly_timeout=60.0, grow_after=0)  # whole envelopes: 1 frame each
    a, b = _pair(cfg, max_frame_b=65536)
    decoders = {id(a): FrameDecoder(1 << 17), id(b): FrameDecoder(1 << 17)}
    damage = FaultyPort(port=None, frame_every=2, seed=1)  # type: ignore[arg-type]  # damage() only
    got: list[bytes] = []
    now = 0.0

    def carry(src: L.Link, dst: L.Link, hit: int = 0) -> int:
        """Frame src's output, corrupting DATA frame ``hit`` (lseq) on the way; feed dst. Frames carried."""
        frames = src.take_frames()
        for body in frames:
            wire = frame(body)
            if hit and body[2] == L.T_DATA and int.from_bytes(body[4:8], "little") == hit:
                damage.writes = 1  # the next damage() call is the 2nd write: frame_every=2 hits it
                wire = damage.damage(wire)
            for out in decoders[id(dst)].feed(wire):
                dst.receive(out, now)
        got.extend(e.envelope for e in b.take_events() if isinstance(e, L.EnvelopeReceived))
        return len(frames)

    a.start(now)
    b.start(now)
    while carry(a, b) + carry(b, a):
        pass
    assert a.up and b.up
    envs = [_envelope(i, 3000) for i in range(1, 5)]
    for e in envs:
        a.send(e, now)
    now = 0.001
    carry(a, b, hit=2)  # lseq 1..4 go out; lseq 2 arrives corrupted
    assert decoders[id(b)].dropped == 1 and sorted(got) == sorted(envs[:1] + envs[2:])
    deadline = min(f.deadline for f in a._inflight.values())
    now = 0.002
    carry(b, a)  # the ACK: cum 1, mask 0b11 -- a resends lseq 2 at once
    assert a.counters.retransmits == 1
    now = 0.003
    carry(a, b)
    carry(b, a)
    assert sorted(got) == sorted(envs) and a.unacked == 0 and now < deadline
    assert b.counters.duplicates == 0
    # the last frame of a burst corrupted: nothing after it shows the gap, so only the timer resends it
    a.send(_envelope(9, 3000), now)
    carry(a, b, hit=5)
    carry(b, a)
    assert a.counters.retransmits == 1 and a.unacked == 1
    now = max(f.deadline for f in a._inflight.values())
    a.poll(now)
    carry(a, b)
    carry(b, a)
    assert a.counters.retransmits == 2 and a.unacked == 0 and len(got) == 5
