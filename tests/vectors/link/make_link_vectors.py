"""Regenerate the golden link-layer vectors: ``python -m tests.vectors.link.make_link_vectors``.

Writes, next to this file:

- ``<name>.bin``: one link frame body (what :func:`bb_edge.wire.link.parse_frame` reads);
- ``<name>.frame``: the same body serial-framed, ``COBS(body || crc32_le) || 0x00``;
- ``invalid/<name>.bin``: bodies every implementation must refuse with the listed event and code;
- ``link.json``: the fields of every valid vector, the verdict of every invalid one and the scripted
  sessions (see its ``doc`` key).

The vectors are checked in; the Python link (tests/wire/test_link.py), the C link (firmware/src/bbrt_link.c)
and the MicroPython link (firmware/micropython/bbnode/link.py) are all held to them. Regenerate only when
docs/wire.md ("Link layer") changes, and say so in the commit.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.wire import Envelope, encode, frame
from bb_edge.wire import link as L
from bb_edge.wire.hello import CAP_ARQ, CAP_FRAG, HelloRecord

HERE = Path(__file__).parent
CAPS = CAP_ARQ | CAP_FRAG

DOC = """Golden vectors of the link layer (docs/wire.md, "Link layer (serial and stream links)").

valid.<name>: <name>.bin is the frame body, <name>.frame the same body serial-framed. Fields: type
(1 HELLO, 2 DATA, 3 ACK, 4 HEARTBEAT), flags, lseq, and per type: hello (the record's fields),
envelope_hex (DATA whole, or a bare envelope with bare=true), msg_id/offset/total_len/chunk_hex (DATA with
FRAG), cum/mask (ACK), presence [[node_id, up], ...] (HEARTBEAT). Decoding gives these fields; encoding
the fields gives the identical bytes.

invalid.<name>: invalid/<name>.bin must raise exactly {event, code} and change nothing else. With
"session": true the body is received at t=1.0 on a link that has completed the handshake of `setup` (its
local hello and config; receive setup.peer_hello_hex at t=0 after start(0)), otherwise on a freshly
started link.

sessions[]: scripted sessions. Build a link with `local_hello` (fields) and `config` (seconds), then run
each step in order at its time t (seconds; t_ms is the same in milliseconds): op "start" -> start(t),
"receive" -> receive(bytes.fromhex(frame), t), "send" -> send(bytes.fromhex(envelope), t), "poll" ->
poll(t). After every step, take_frames() must equal `out` (frame bodies, hex, in order) and
take_events() must equal `events` (each {"event": name, ...fields}). Times are chosen well away from
every timer boundary so that an implementation in integer milliseconds agrees.
"""


def _env(seq: int, nbytes: int, sender: int = 1, receiver: int = 0) -> bytes:
    """A real data envelope whose payload is ``nbytes`` of a uint8 ramp (deterministic)."""
    data = (np.arange(nbytes, dtype=np.uint32) * 7 + seq).astype(np.uint8)
    return encode(Envelope.for_array(data, sender=sender, receiver=receiver, seq=seq, request_id=seq, edge=3))


def _hello_fields(h: HelloRecord) -> dict[str, Any]:
    return {"min_version": h.min_version, "max_version": h.max_version, "caps": h.caps,
            "boot_epoch": h.boot_epoch, "node_id": h.node_id, "max_frame": h.max_frame, "window": h.window,
            "name": h.name, "program_hash_hex": h.program_hash.hex()}


def hello_from_fields(d: dict[str, Any]) -> HelloRecord:
    """The HelloRecord described by :func:`_hello_fields` output."""
    return HelloRecord(d["min_version"], d["max_version"], d["caps"], d["boot_epoch"], d["node_id"],
                       d["max_frame"], d["window"], d["name"], bytes.fromhex(d["program_hash_hex"]))


def frame_fields(fr: L.LinkFrame) -> dict[str, Any]:
    """The JSON description of one decoded frame."""
    d: dict[str, Any] = {"type": fr.type, "flags": fr.flags, "lseq": fr.lseq}
    if fr.bare:
        d.update(bare=True, envelope_hex=fr.envelope.hex())
    elif fr.type == L.T_HELLO:
        assert fr.hello is not None
        d["hello"] = _hello_fields(fr.hello)
    elif fr.type == L.T_DATA and fr.frag:
        d.update(msg_id=fr.msg_id, offset=fr.offset, total_len=fr.total_len, chunk_hex=fr.envelope.hex())
    elif fr.type == L.T_DATA:
        d["envelope_hex"] = fr.envelope.hex()
    elif fr.type == L.T_ACK:
        d.update(cum=fr.lseq, mask=fr.mask)
    else:
        d["presence"] = [[n, int(u)] for n, u in fr.presence]
    return d


def encode_fields(d: dict[str, Any]) -> bytes:
    """Encode a frame from its JSON description (the inverse of :func:`frame_fields`)."""
    if d.get("bare"):
        return bytes.fromhex(d["envelope_hex"])
    t = d["type"]
    if t == L.T_HELLO:
        return L.encode_hello(hello_from_fields(d["hello"]), reply=bool(d["flags"] & L.F_REPLY))
    if t == L.T_DATA and d["flags"] & L.F_FRAG:
        return L.encode_fragment(d["lseq"], d["msg_id"], d["offset"], d["total_len"], bytes.fromhex(d["chunk_hex"]))
    if t == L.T_DATA:
        return L.encode_data(d["lseq"], bytes.fromhex(d["envelope_hex"]))
    if t == L.T_ACK:
        return L.encode_ack(d["cum"], d["mask"])
    return L.encode_heartbeat([(n, bool(u)) for n, u in d["presence"]])


def event_json(ev: L.LinkEvent) -> dict[str, Any]:
    """One event as the vectors describe it."""
    name = type(ev).__name__
    if isinstance(ev, L.EnvelopeReceived):
        return {"event": name, "envelope_hex": ev.envelope.hex(), "bare": ev.bare}
    if isinstance(ev, L.LinkUp):
        return {"event": name, "node_id": ev.peer.node_id, "boot_epoch": ev.peer.boot_epoch, "version": ev.version}
    if isinstance(ev, L.VersionMismatch):
        return {"event": name, "node_id": ev.peer.node_id, "peer_min": ev.peer.min_version,
                "peer_max": ev.peer.max_version}
    if isinstance(ev, L.PeerRestarted):
        return {"event": name, "old_epoch": ev.old_epoch, "new_epoch": ev.new_epoch}
    if isinstance(ev, L.EpochRegressed):
        return {"event": name, "known": ev.known, "got": ev.got}
    if isinstance(ev, (L.BadHello, L.BadLinkFrame)):
        return {"event": name, "code": ev.code}
    if isinstance(ev, L.AckUnknown):
        return {"event": name, "cum": ev.cum, "mask": ev.mask}
    if isinstance(ev, L.FragmentRejected):
        return {"event": name, "msg_id": ev.msg_id, "code": ev.code}
    if isinstance(ev, L.ReassemblyTimeout):
        return {"event": name, "msg_id": ev.msg_id, "received": ev.received, "total_len": ev.total_len}
    if isinstance(ev, L.GaveUp):
        return {"event": name, "envelope_hex": ev.envelope.hex(), "code": ev.code}
    if isinstance(ev, L.HeartbeatReceived):
        return {"event": name, "presence": [[n, int(u)] for n, u in ev.presence]}
    return {"event": name}


CONFIG_KEYS = ("rto_initial", "rto_min", "rto_max", "granularity", "max_retries", "hb_interval", "dead_after",
               "reassembly_budget", "reassembly_timeout", "mtu", "grow_after")


def config_json(c: L.LinkConfig) -> dict[str, Any]:
    """The config fields a session needs."""
    return {k: getattr(c, k) for k in CONFIG_KEYS}


def config_from_json(d: dict[str, Any]) -> L.LinkConfig:
    """The LinkConfig of a session."""
    return L.LinkConfig(**{k: d[k] for k in CONFIG_KEYS})


def replay_step(link: L.Link, step: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """Run one scripted step; return (frames out as hex, events as JSON)."""
    t, op = step["t"], step["op"]
    if op == "start":
        link.start(t)
    elif op == "receive":
        link.receive(bytes.fromhex(step["frame"]), t)
    elif op == "send":
        link.send(bytes.fromhex(step["envelope"]), t)
    elif op == "poll":
        link.poll(t)
    else:
        raise ValueError(f"unknown op {op!r}")
    return [f.hex() for f in link.take_frames()], [event_json(e) for e in link.take_events()]


# ----------------------------------------------------------------- vectors

HUB = HelloRecord(1, 1, CAPS, 5, 0, 256, 4, "hub")
N1 = HelloRecord(1, 1, CAPS, 1, 1, 128, 4, "n1", bytes(range(32)))


def valid_vectors() -> dict[str, bytes]:
    """Named valid frame bodies."""
    env = _env(3, 24)
    big = _env(9, 228)  # 300 bytes: three fragments at a 128-byte max_frame (chunks of 108)
    assert len(big) == 300
    v = {
        "hello_request": L.encode_hello(N1),
        "hello_reply": L.encode_hello(HUB, reply=True),
        "hello_noname": L.encode_hello(HelloRecord(1, 3, CAP_ARQ, 0xFFFFFFFF, 0xFFFFFFFE, 64, 32)),
        "ack_cum": L.encode_ack(7, 0),
        "ack_cum_mask": L.encode_ack(5, 0b1011),
        "data_whole": L.encode_data(1, env),
        "data_frag_first": L.encode_fragment(2, 1, 0, 300, big[0:108]),
        "data_frag_middle": L.encode_fragment(3, 1, 108, 300, big[108:216]),
        "data_frag_last": L.encode_fragment(4, 1, 216, 300, big[216:300]),
        "heartbeat_empty": L.encode_heartbeat(),
        "heartbeat_presence": L.encode_heartbeat([(1, True), (2, False), (7, True)]),
        "bare_envelope": env,
    }
    return v


def _raw_hello(min_v: int = 1, max_v: int = 1, caps: int = CAPS, epoch: int = 1, node: int = 1,
               max_frame: int = 128, window: int = 4, name: bytes = b"n1", name_len: int | None = None,
               flags: int = 0, lseq: int = 0) -> bytes:
    rec = struct.pack("<BBHIIIHH32s", min_v, max_v, caps, epoch, node, max_frame, window,
                      len(name) if name_len is None else name_len, bytes(32)) + name
    return struct.pack("<2sBBI", L.LINK_MAGIC, L.T_HELLO, flags, lseq) + rec


def invalid_vectors() -> dict[str, tuple[bytes, str, str, bool]]:
    """name -> (body, event, code, needs a session)."""
    env = _env(4, 16)
    hdr = struct.Struct("<2sBBI")
    return {
        "short_header": (L.LINK_MAGIC + b"\x04\x00\x00", "BadLinkFrame", "TRUNCATED", False),
        "bad_magic": (b"\xbb\xa2" + hdr.pack(L.LINK_MAGIC, 4, 0, 0)[2:], "BadLinkFrame", "BAD_MAGIC", False),
        "unknown_type": (hdr.pack(L.LINK_MAGIC, 9, 0, 0), "BadLinkFrame", "BAD_TYPE", False),
        "hello_truncated": (_raw_hello()[:40], "BadHello", "TRUNCATED", False),
        "hello_name_cut": (_raw_hello()[:-1], "BadHello", "TRUNCATED", False),
        "hello_trailing": (_raw_hello() + b"\x00", "BadHello", "BAD_LENGTH", False),
        "hello_window_zero": (_raw_hello(window=0), "BadHello", "BAD_FIELD", False),
        "hello_window_33": (_raw_hello(window=33), "BadHello", "BAD_FIELD", False),
        "hello_name_len_65": (_raw_hello(name=b"x" * 65), "BadHello", "BAD_FIELD", False),
        "hello_bad_version": (_raw_hello(min_v=2, max_v=1), "BadHello", "BAD_VERSION", False),
        "hello_version_zero": (_raw_hello(min_v=0, max_v=1), "BadHello", "BAD_VERSION", False),
        "hello_epoch_zero": (_raw_hello(epoch=0), "BadHello", "BAD_FIELD", False),
        "hello_unknown_caps": (_raw_hello(caps=0x8003), "BadHello", "BAD_FIELD", False),
        "hello_small_frame": (_raw_hello(max_frame=63), "BadHello", "BAD_FIELD", False),
        "hello_bad_utf8": (_raw_hello(name=b"\xff\xfe"), "BadHello", "BAD_FIELD", False),
        "hello_bad_flags": (_raw_hello(flags=0x02), "BadHello", "BAD_FIELD", False),
        "hello_nonzero_lseq": (_raw_hello(lseq=1), "BadHello", "BAD_FIELD", False),
        "ack_short": (L.encode_ack(1, 0)[:11], "BadLinkFrame", "BAD_LENGTH", False),
        "ack_long": (L.encode_ack(1, 0) + b"\x00\x00\x00\x00", "BadLinkFrame", "BAD_LENGTH", False),
        "ack_flags": (hdr.pack(L.LINK_MAGIC, L.T_ACK, 1, 1) + b"\x00" * 4, "BadLinkFrame", "BAD_FIELD", False),
        "data_lseq_zero": (L.encode_data(0, env), "BadLinkFrame", "BAD_FIELD", False),
        "data_empty": (hdr.pack(L.LINK_MAGIC, L.T_DATA, 0, 1), "BadLinkFrame", "BAD_LENGTH", False),
        "data_bad_flags": (hdr.pack(L.LINK_MAGIC, L.T_DATA, 0x80, 1) + env, "BadLinkFrame", "BAD_FIELD", False),
        "frag_no_chunk": (L.encode_fragment(1, 1, 0, 300, b""), "BadLinkFrame", "BAD_LENGTH", False),
        "frag_short_header": (hdr.pack(L.LINK_MAGIC, L.T_DATA, L.F_FRAG, 1) + b"\x01\x00\x00\x00",
                              "BadLinkFrame", "BAD_LENGTH", False),
        "heartbeat_partial_record": (L.encode_heartbeat([(1, True)]) + b"\x02\x00", "BadLinkFrame", "BAD_LENGTH",
                                     False),
        "heartbeat_bad_state": (L.encode_heartbeat()[:8] + struct.pack("<IB", 1, 2), "BadLinkFrame", "BAD_FIELD",
                                False),
        "heartbeat_lseq": (hdr.pack(L.LINK_MAGIC, L.T_HEARTBEAT, 0, 3), "BadLinkFrame", "BAD_FIELD", False),
        "data_too_large": (L.encode_data(1, _env(5, 300)), "BadLinkFrame", "TOO_LARGE", True),
        "data_no_session": (L.encode_data(1, env), "BadLinkFrame", "NO_SESSION", False),
        "data_out_of_window": (L.encode_data(5, env), "BadLinkFrame", "OUT_OF_WINDOW", True),
        "ack_unknown": (L.encode_ack(3, 0), "AckUnknown", "", True),
        "ack_unknown_mask": (L.encode_ack(0, 0b100), "AckUnknown", "", True),
        "frag_out_of_range": (L.encode_fragment(1, 1, 250, 300, b"\x11" * 60), "FragmentRejected", "OUT_OF_RANGE",
                              True),
        "frag_not_fragmented": (L.encode_fragment(1, 1, 0, 60, b"\x11" * 60), "FragmentRejected", "OUT_OF_RANGE",
                                True),
        "frag_msg_id_zero": (L.encode_fragment(1, 0, 0, 300, b"\x11" * 60), "FragmentRejected", "BAD_FIELD", True),
        "frag_over_budget": (L.encode_fragment(1, 1, 0, 5000, b"\x11" * 60), "FragmentRejected", "BUDGET", True),
        "frag_new_message_out_of_order": (L.encode_fragment(2, 1, 0, 300, b"\x11" * 60), "FragmentRejected", "ORDER",
                                          True),
        "hello_epoch_regressed": (L.encode_hello(HelloRecord(1, 1, CAPS, 1, 1, 128, 4, "n1")), "EpochRegressed", "",
                                  True),
    }


SETUP_LOCAL = HelloRecord(1, 1, CAPS, 5, 0, 256, 4, "hub")
SETUP_PEER = HelloRecord(1, 1, CAPS, 2, 1, 128, 4, "n1")
SETUP_CONFIG = L.LinkConfig(hb_interval=0.0, dead_after=0.0, reassembly_budget=4096, reassembly_timeout=10.0)


def setup_link() -> L.Link:
    """The link the ``session: true`` invalid vectors are received on (handshake done, nothing sent)."""
    link = L.Link(SETUP_LOCAL, SETUP_CONFIG)
    link.start(0.0)
    link.receive(L.encode_hello(SETUP_PEER), 0.0)
    link.take_frames()
    evs = link.take_events()
    assert [type(e).__name__ for e in evs] == ["LinkUp"], evs
    return link


# ----------------------------------------------------------------- sessions


def _session(name: str, doc: str, local: HelloRecord, config: L.LinkConfig,
             steps: list[tuple[float, str, bytes]], expect: list[list[str]]) -> dict[str, Any]:
    """Run ``steps`` on a fresh link and record its outputs; ``expect`` is the hand-written event-name
    list of every step (an independent check that the recording says what the session means)."""
    link = L.Link(local, config)
    out_steps = []
    assert len(steps) == len(expect), name
    for (t, op, data), want in zip(steps, expect, strict=True):
        step: dict[str, Any] = {"t": round(t, 6), "t_ms": round(t * 1000), "op": op}
        if op == "receive":
            step["frame"] = data.hex()
        elif op == "send":
            step["envelope"] = data.hex()
        frames, events = replay_step(link, step)
        assert [e["event"] for e in events] == want, (name, step, events)
        step["out"] = frames
        step["events"] = events
        out_steps.append(step)
    return {"name": name, "doc": doc, "local_hello": _hello_fields(local), "local_hello_hex": local.encode().hex(),
            "config": config_json(config), "steps": out_steps}


def sessions() -> list[dict[str, Any]]:
    """The scripted sessions."""
    out = []
    cfg = L.LinkConfig(rto_initial=0.2, rto_min=0.02, rto_max=1.0, granularity=0.001, max_retries=10,
                       hb_interval=0.0, dead_after=0.0, reassembly_budget=4096, reassembly_timeout=10.0)
    hub = HelloRecord(1, 1, CAPS, 5, 0, 256, 4, "hub")
    n1 = HelloRecord(1, 1, CAPS, 1, 1, 128, 4, "n1")
    e1, e2, e6 = _env(1, 16, 0, 1), _env(2, 236, 0, 1), _env(6, 8, 0, 1)
    e3, e4, e5 = _env(3, 8), _env(4, 8), _env(5, 8)
    out.append(_session(
        "handshake_data_loss_retransmit",
        "Handshake; a whole envelope and a 3-fragment one to a peer with max_frame 128; an ACK shows lseq 2 lost "
        "(lseq 3 acked): lseq 2 is resent at once; its ACK gives no RTT sample (Karn). Inbound DATA out of "
        "order, then a duplicate (acked again, not handed up). Losing lseq 2 halved the frame size (128 -> 64), "
        "yet the next 80-byte envelope goes whole (an envelope's first frame is at least 128 bytes: it holds the "
        "envelope header). A timeout resends lseq 5 with the backed-off RTO.",
        hub, cfg,
        [(0.0, "start", b""),
         (0.010, "receive", L.encode_hello(n1)),
         (0.020, "send", e1),
         (0.030, "send", e2),
         (0.040, "receive", L.encode_ack(1, 0b10)),
         (0.050, "receive", L.encode_ack(4, 0)),
         (0.060, "receive", L.encode_data(1, e3)),
         (0.070, "receive", L.encode_data(3, e5)),
         (0.080, "receive", L.encode_data(2, e4)),
         (0.090, "receive", L.encode_data(2, e4)),
         (0.100, "send", e6),
         (0.110, "poll", b""),
         (0.300, "poll", b""),
         (0.400, "receive", L.encode_ack(5, 0)),
         (0.410, "receive", L.encode_ack(6, 0))],
        [[], ["LinkUp"], [], [], [], [], ["EnvelopeReceived"], ["EnvelopeReceived"], ["EnvelopeReceived"], [],
         [], [], [], [], ["AckUnknown"]]))
    n1b = HelloRecord(1, 1, CAPS, 2, 1, 128, 4, "n1")
    out.append(_session(
        "peer_reboot_new_epoch",
        "A session with n1 at epoch 1; hub sends two envelopes, the first is acked. n1 reboots (HELLO epoch 2): "
        "a new session, the unacknowledged envelope is renumbered lseq 1 and sent again; n1's new lseq 1 is a "
        "new envelope, not a duplicate. A HELLO from the old epoch then raises EpochRegressed and changes nothing.",
        hub, cfg,
        [(0.0, "start", b""),
         (0.010, "receive", L.encode_hello(n1, reply=True)),
         (0.020, "send", e1),
         (0.021, "send", e6),
         (0.030, "receive", L.encode_ack(1, 0)),
         (0.040, "receive", L.encode_data(1, e3)),
         (0.050, "receive", L.encode_hello(n1b)),
         (0.060, "receive", L.encode_data(1, e4)),
         (0.070, "receive", L.encode_hello(n1)),
         (0.080, "receive", L.encode_hello(n1b, reply=True)),
         (0.090, "receive", L.encode_ack(1, 0))],
        [[], ["LinkUp"], [], [], [], ["EnvelopeReceived"], ["PeerRestarted", "LinkUp"], ["EnvelopeReceived"],
         ["EpochRegressed"], [], []]))
    v2 = HelloRecord(2, 2, CAPS, 3, 0, 256, 4, "hub-v2")
    out.append(_session(
        "version_mismatch",
        "A v2-only end meets a v1-only peer: VersionMismatch, HELLOs still answered, DATA refused both ways "
        "(nothing sent, inbound DATA and bare envelopes dropped).",
        v2, cfg,
        [(0.0, "start", b""),
         (0.010, "receive", L.encode_hello(n1)),
         (0.020, "send", e1),
         (0.030, "receive", L.encode_data(1, e3)),
         (0.040, "receive", e4),
         (0.050, "receive", L.encode_hello(n1)),
         (0.500, "poll", b"")],
        [[], ["VersionMismatch"], [], ["BadLinkFrame"], ["BadLinkFrame"], [], []]))
    fcfg = L.LinkConfig(rto_initial=0.2, rto_min=0.02, rto_max=1.0, granularity=0.001, max_retries=10,
                        hb_interval=0.0, dead_after=0.0, reassembly_budget=1000, reassembly_timeout=1.0)
    hub8 = HelloRecord(1, 1, CAPS, 5, 0, 512, 8, "hub")
    big = _env(7, 228)  # 300 bytes
    big2 = _env(8, 728)  # 800 bytes
    out.append(_session(
        "fragments_refused_and_timeout",
        "Reassembly with a 1000-byte budget and a 1 s timeout: overlapping, length-changing, out-of-range and "
        "over-budget fragments are refused (not acked); a message left incomplete times out; then a message "
        "that now fits: its lseq 4 fragment arrives first and is refused (ORDER: a new message starts only at "
        "lseq cum + 1), lseq 3 starts it (its chunk is the second half: offsets may come in any order), the "
        "resent lseq 4 completes it.",
        hub8, fcfg,
        [(0.0, "start", b""),
         (0.010, "receive", L.encode_hello(n1)),
         (0.100, "receive", L.encode_fragment(1, 1, 0, 300, big[0:100])),
         (0.110, "receive", L.encode_fragment(2, 1, 50, 300, big[50:150])),
         (0.120, "receive", L.encode_fragment(2, 1, 100, 400, big[100:200])),
         (0.130, "receive", L.encode_fragment(2, 2, 0, 800, big2[0:100])),
         (0.140, "receive", L.encode_fragment(2, 3, 250, 300, big[200:300])),
         (0.150, "receive", L.encode_fragment(2, 1, 100, 300, big[100:200])),
         (0.600, "poll", b""),
         (1.200, "poll", b""),
         (1.300, "receive", L.encode_fragment(4, 2, 0, 800, big2[0:400])),
         (1.310, "receive", L.encode_fragment(3, 2, 400, 800, big2[400:800])),
         (1.320, "receive", L.encode_fragment(4, 2, 0, 800, big2[0:400]))],
        [[], ["LinkUp"], [], ["FragmentRejected"], ["FragmentRejected"], ["FragmentRejected"],
         ["FragmentRejected"], [], [], ["ReassemblyTimeout"], ["FragmentRejected"], [], ["EnvelopeReceived"]]))
    hcfg = L.LinkConfig(rto_initial=0.2, rto_min=0.02, rto_max=1.0, granularity=0.001, max_retries=2,
                        hb_interval=1.0, dead_after=3.0, reassembly_budget=4096, reassembly_timeout=10.0)
    out.append(_session(
        "heartbeats_liveness_give_up",
        "Heartbeats after 1 s of silence; the peer is down after 3 s without a valid frame, up at its next one "
        "(and what it missed is resent at once). A frame still unacknowledged after max_retries (2) "
        "transmissions ends the session: GaveUp for every envelope not acknowledged, and a HELLO with the "
        "next epoch so the peer starts a new session too.",
        hub, hcfg,
        [(0.0, "start", b""),
         (0.010, "receive", L.encode_hello(n1)),
         (1.050, "poll", b""),
         (1.100, "receive", L.encode_heartbeat([(2, True)])),
         (2.200, "poll", b""),
         (2.300, "send", e1),
         (4.200, "poll", b""),
         (4.500, "receive", L.encode_heartbeat()),
         (4.510, "poll", b""),
         (5.100, "poll", b"")],
        [[], ["LinkUp"], [], ["HeartbeatReceived"], [], [], ["PeerDown"], ["PeerUp", "HeartbeatReceived"], [],
         ["GaveUp"]]))
    acfg = L.LinkConfig(rto_initial=0.2, rto_min=0.02, rto_max=1.0, granularity=0.001, max_retries=10,
                        hb_interval=0.0, dead_after=0.0, reassembly_budget=4096, reassembly_timeout=10.0,
                        grow_after=2)
    n1k = HelloRecord(1, 1, CAPS, 1, 1, 1024, 4, "n1")
    a1, a2, a3 = _env(9, 2428), _env(10, 1128), _env(11, 1128)  # 2500, 1200, 1200 bytes
    out.append(_session(
        "adaptive_frame_size",
        "The DATA frame size adapts (docs/wire.md, \"Frame size\"), grow_after 2, peer max_frame 1024: a "
        "2500-byte envelope starts in 256-byte frames (the start size); an ACK of four clean full-size frames "
        "doubles it once (512) and the rest of the envelope is cut at 512 (fragments change size "
        "mid-envelope). The ACK showing lseq 5 lost halves it (256); lseq 6-7 in that ACK do not count "
        "as clean. A 1200-byte envelope: four clean 256-byte frames double it, its last fragment is cut at "
        "512 and times out: 256 again. A third envelope's whole window times out at once: one halving (a "
        "burst is one loss: its frames were cut in one size generation), 128, and its rest is cut at 128; "
        "two clean 128-byte frames double it back to 256 (the next envelope's frames). Its lseq 21 is lost (resent at "
        "once, 128 again); the ACK of that resend shows lseq 23 and 24 missing, sent before it: resent at once "
        "too (a line does not reorder), without waiting for their RTO.",
        hub8, acfg,
        [(0.0, "start", b""),
         (0.010, "receive", L.encode_hello(n1k)),
         (0.020, "send", a1),
         (0.030, "receive", L.encode_ack(4, 0)),
         (0.040, "receive", L.encode_ack(4, 0b1110)),
         (0.050, "receive", L.encode_ack(8, 0)),
         (0.060, "send", a2),
         (0.070, "receive", L.encode_ack(12, 0)),
         (0.500, "poll", b""),
         (0.600, "receive", L.encode_ack(13, 0)),
         (0.610, "send", a3),
         (1.500, "poll", b""),
         (1.600, "receive", L.encode_ack(17, 0)),
         (1.610, "receive", L.encode_ack(20, 0)),
         (1.620, "send", a1),
         (1.630, "receive", L.encode_ack(20, 0b10)),
         (1.640, "receive", L.encode_ack(22, 0))],
        [[], ["LinkUp"], [], [], [], [], [], [], [], [], [], [], [], [], [], [], []]))
    out.append(_session(
        "slow_line_ack_restarts_timer",
        "A slow line (RFC 6298 5.3): three envelopes go out at once; each ACK of new data restarts the timer "
        "of the frames still in flight, so the back of the window is not resent while ACKs keep coming (its "
        "own timer, from its send time, would have fired at 0.22 s and 0.75 s). When the ACKs stop, lseq 3 is "
        "resent once the restarted RTO has run out.",
        hub, cfg,
        [(0.0, "start", b""),
         (0.010, "receive", L.encode_hello(n1)),
         (0.020, "send", e1),
         (0.021, "send", e6),
         (0.022, "send", e3),
         (0.150, "receive", L.encode_ack(1, 0)),
         (0.300, "poll", b""),
         (0.450, "receive", L.encode_ack(2, 0)),
         (0.900, "poll", b""),
         (1.200, "poll", b"")],
        [[], ["LinkUp"], [], [], [], [], [], [], [], []]))
    slow = out[-1]["steps"]
    assert slow[6]["out"] == [] and slow[8]["out"] == [] and len(slow[9]["out"]) == 1, slow
    return out


def build() -> dict[str, Any]:
    """Write every file; return link.json's content."""
    (HERE / "invalid").mkdir(exist_ok=True)
    valid = {}
    for name, body in valid_vectors().items():
        (HERE / f"{name}.bin").write_bytes(body)
        (HERE / f"{name}.frame").write_bytes(frame(body))
        valid[name] = frame_fields(L.parse_frame(body))
        assert encode_fields(valid[name]) == body, name
    invalid = {}
    for name, (body, event, code, session) in invalid_vectors().items():
        (HERE / "invalid" / f"{name}.bin").write_bytes(body)
        link = setup_link() if session else L.Link(SETUP_LOCAL, SETUP_CONFIG)
        if not session:
            link.start(0.0)
            link.take_frames()
        link.receive(body, 1.0)
        evs = [event_json(e) for e in link.take_events()]
        assert len(evs) == 1 and evs[0]["event"] == event and evs[0].get("code", "") == code, (name, evs)
        invalid[name] = {"event": event, "code": code, "session": session}
    data = {
        "doc": DOC,
        "valid": valid,
        "invalid": invalid,
        "setup": {"local_hello": _hello_fields(SETUP_LOCAL), "peer_hello_hex": L.encode_hello(SETUP_PEER).hex(),
                  "config": config_json(SETUP_CONFIG)},
        "sessions": sessions(),
    }
    (HERE / "link.json").write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    return data


if __name__ == "__main__":
    d = build()
    print(f"{len(d['valid'])} valid, {len(d['invalid'])} invalid, {len(d['sessions'])} sessions -> {HERE}")
