"""The link layer of docs/wire.md ("Link layer"): one sans-IO state machine per link end.

A :class:`Link` is driven like h11: the caller hands it frame bodies that came
off the line (:meth:`Link.receive`), envelopes to send (:meth:`Link.send`) and
the current time (every call takes ``now``, in seconds, from any monotonic
clock); it hands back frame bodies to put on the line (:meth:`Link.take_frames`)
and typed events (:meth:`Link.take_events`). It never reads a clock, starts a
thread or touches a descriptor, so a test can replay a whole session with a
fake ``now`` and the C (``firmware/src/bbrt_link.c``) and MicroPython
(``firmware/micropython/bbnode/link.py``) ports are held to the same golden
vectors (``tests/vectors/link/``).

The frame codec (:func:`encode_hello`, :func:`encode_data`,
:func:`encode_fragment`, :func:`encode_ack`, :func:`encode_heartbeat`,
:func:`parse_frame`) is usable on its own. The HELLO record itself is
:mod:`bb_edge.wire.hello`.

Why one file: the frame codec and the Link state machine are one protocol, mirrored line for line by
firmware/src/bbrt_link.c and firmware/micropython/bbnode/link.py and pinned by the same vectors; one file
per language keeps the three ports comparable side by side.
"""

from __future__ import annotations

import bisect
import struct
from collections import deque
from dataclasses import dataclass, field

from bb_edge.errors import WireError
from bb_edge.wire import hello as _hello
from bb_edge.wire.envelope import MAGIC as ENVELOPE_MAGIC
from bb_edge.wire.hello import CAP_ARQ, CAP_FRAG, HelloRecord

LINK_MAGIC = b"\xbb\xa1"
T_HELLO, T_DATA, T_ACK, T_HEARTBEAT = 1, 2, 3, 4
F_REPLY = 0x01  # HELLO
F_FRAG = 0x01  # DATA
HEADER_SIZE = 8
FRAG_HEADER_SIZE = 12
ACK_SIZE = 12
MAX_HELLO = HEADER_SIZE + _hello.RECORD_SIZE + _hello.MAX_NAME  # 124: always accepted, whatever max_frame says
MAX_WINDOW = _hello.MAX_WINDOW

_HEADER = struct.Struct("<2sBBI")
_FRAG = struct.Struct("<III")
_U32 = struct.Struct("<I")
PRESENCE = struct.Struct("<IB")  # node id, 1 up / 0 down: one HEARTBEAT presence record
_MASK32 = 0xFFFFFFFF
#: adaptive frame size (docs/wire.md, "Frame size"): a link starts at this size (or the cap, if lower) and
#: grows from there, because a frame already sent is never re-cut: a first window of 16 KiB frames on a line
#: with 5e-4 byte errors would each need ~3700 transmissions ...
START_FRAME = 256
#: ... never shrinks below this (or the cap, if lower) ...
FRAME_FLOOR = 64
#: ... except an envelope's first frame, at least this (or the cap): its chunk holds the whole envelope header
#: (64 + 8 per two dims), which a streaming receiver (the C node) validates from the first fragment alone
FIRST_FRAME = 128
#: ... and doubled after this many clean full-size DATA frames in a row (LinkConfig.grow_after)
GROW_AFTER = 8

# ------------------------------------------------------------------ events


@dataclass(frozen=True)
class LinkEvent:
    """Base class of everything a :class:`Link` reports."""


@dataclass(frozen=True)
class EnvelopeReceived(LinkEvent):
    """An envelope to hand up: a whole DATA frame, a reassembled message or (``bare``) a bare envelope."""

    envelope: bytes
    bare: bool = False


@dataclass(frozen=True)
class LinkUp(LinkEvent):
    """The handshake completed (first time, or a new link session): DATA flows at ``version``."""

    peer: HelloRecord
    version: int


@dataclass(frozen=True)
class VersionMismatch(LinkEvent):
    """The peer's version range does not meet ours: DATA is refused both ways."""

    peer: HelloRecord
    local_min: int
    local_max: int


@dataclass(frozen=True)
class PeerRestarted(LinkEvent):
    """A HELLO with a greater boot epoch (or another node id): a new link session started."""

    old_epoch: int
    new_epoch: int


@dataclass(frozen=True)
class EpochRegressed(LinkEvent):
    """A HELLO whose boot epoch is lower than the one known for the peer (ignored)."""

    known: int
    got: int


@dataclass(frozen=True)
class PeerDown(LinkEvent):
    """Nothing valid heard from the peer for ``dead_after`` seconds."""


@dataclass(frozen=True)
class PeerUp(LinkEvent):
    """A valid frame from a peer that was down."""


@dataclass(frozen=True)
class HeartbeatReceived(LinkEvent):
    """A HEARTBEAT frame; ``presence`` holds its ``(node_id, up)`` records (a hub's table)."""

    presence: tuple[tuple[int, bool], ...]


@dataclass(frozen=True)
class BadHello(LinkEvent):
    """A HELLO frame that breaks a rule (dropped, nothing changed); ``code`` as in hello.py."""

    code: str
    detail: str = ""


@dataclass(frozen=True)
class BadLinkFrame(LinkEvent):
    """A link frame that is malformed or not acceptable now (dropped, nothing changed)."""

    code: str
    detail: str = ""


@dataclass(frozen=True)
class AckUnknown(LinkEvent):
    """An ACK covering a DATA frame never sent in this session (ignored)."""

    cum: int
    mask: int


@dataclass(frozen=True)
class FragmentRejected(LinkEvent):
    """A fragment refused (not acknowledged, nothing changed)."""

    msg_id: int
    code: str
    detail: str = ""


@dataclass(frozen=True)
class ReassemblyTimeout(LinkEvent):
    """A fragmented message not complete within the reassembly timeout of its first fragment."""

    msg_id: int
    received: int
    total_len: int


@dataclass(frozen=True)
class GaveUp(LinkEvent):
    """An envelope that will not be delivered: ``code`` RETRIES (the session was abandoned) or TOO_LARGE."""

    envelope: bytes
    code: str


# ------------------------------------------------------------------- codec


class LinkFrameError(WireError):
    """A frame body that is not a valid link frame; ``event`` names the event it raises."""

    def __init__(self, event: str, code: str, message: str) -> None:
        super().__init__(code, message)
        self.event = event


@dataclass(frozen=True)
class LinkFrame:
    """One decoded link frame (fields not used by its type are left at their defaults)."""

    type: int
    flags: int = 0
    lseq: int = 0
    hello: HelloRecord | None = None
    envelope: bytes = b""  # DATA: the envelope (whole) or the chunk (FRAG); bare envelopes too
    msg_id: int = 0
    offset: int = 0
    total_len: int = 0
    mask: int = 0
    presence: tuple[tuple[int, bool], ...] = ()
    bare: bool = False

    @property
    def frag(self) -> bool:
        """A DATA fragment."""
        return self.type == T_DATA and bool(self.flags & F_FRAG)

    @property
    def reply(self) -> bool:
        """A HELLO answering a HELLO."""
        return self.type == T_HELLO and bool(self.flags & F_REPLY)


def encode_hello(record: HelloRecord | bytes, reply: bool = False) -> bytes:
    """A HELLO frame body carrying ``record`` (a HelloRecord or its encoded bytes)."""
    raw = record.encode() if isinstance(record, HelloRecord) else bytes(record)
    return _HEADER.pack(LINK_MAGIC, T_HELLO, F_REPLY if reply else 0, 0) + raw


def encode_data(lseq: int, envelope: bytes | bytearray | memoryview) -> bytes:
    """A whole-envelope DATA frame body."""
    return b"".join((_HEADER.pack(LINK_MAGIC, T_DATA, 0, lseq), envelope))


def encode_fragment(lseq: int, msg_id: int, offset: int, total_len: int,
                    chunk: bytes | bytearray | memoryview) -> bytes:
    """A DATA frame body with FRAG set: fragment header, then the chunk."""
    return b"".join((_HEADER.pack(LINK_MAGIC, T_DATA, F_FRAG, lseq), _FRAG.pack(msg_id, offset, total_len), chunk))


def encode_ack(cum: int, mask: int) -> bytes:
    """An ACK frame body: cumulative ack and the 32-bit mask of frames received beyond it."""
    return _HEADER.pack(LINK_MAGIC, T_ACK, 0, cum) + _U32.pack(mask)


def encode_heartbeat(presence: list[tuple[int, bool]] | tuple[tuple[int, bool], ...] = ()) -> bytes:
    """A HEARTBEAT frame body, with presence records ``(node_id, up)`` when a hub sends it."""
    return _HEADER.pack(LINK_MAGIC, T_HEARTBEAT, 0, 0) + b"".join(PRESENCE.pack(n, int(u)) for n, u in presence)


def parse_frame(body: bytes | bytearray | memoryview, max_frame: int = 0) -> LinkFrame:
    """Decode and check one frame body (structure only); raise :class:`LinkFrameError`.

    ``max_frame`` (if > 0) is this end's limit on DATA and HEARTBEAT bodies.
    Rules that need link state (session, window, reassembly) are the
    :class:`Link`'s.
    """
    # no copy of a (large) frame that is bytes or a view already: the envelope or chunk is copied out once
    b = body if isinstance(body, (bytes, memoryview)) else bytes(body)
    if b[:2] == ENVELOPE_MAGIC:
        return LinkFrame(type=T_DATA, envelope=bytes(b), bare=True)
    if len(b) < HEADER_SIZE:
        raise LinkFrameError("BadLinkFrame", "TRUNCATED", f"frame body of {len(b)} bytes, shorter than the header")
    magic, ftype, flags, lseq = _HEADER.unpack_from(b, 0)
    if magic != LINK_MAGIC:
        raise LinkFrameError("BadLinkFrame", "BAD_MAGIC", f"magic {magic.hex()} is neither link nor envelope")
    if ftype == T_HELLO:
        if flags & ~F_REPLY or lseq != 0:
            raise LinkFrameError("BadHello", "BAD_FIELD", f"HELLO header flags=0x{flags:02x} lseq={lseq}")
        try:
            rec = _hello.decode(memoryview(b)[HEADER_SIZE:])
        except WireError as exc:
            raise LinkFrameError("BadHello", exc.code, str(exc)) from None
        return LinkFrame(type=T_HELLO, flags=flags, hello=rec)
    if ftype not in (T_DATA, T_ACK, T_HEARTBEAT):
        raise LinkFrameError("BadLinkFrame", "BAD_TYPE", f"unknown link frame type {ftype}")
    if max_frame and len(b) > max_frame and ftype != T_ACK:
        raise LinkFrameError("BadLinkFrame", "TOO_LARGE", f"frame body of {len(b)} bytes exceeds {max_frame}")
    if ftype == T_DATA:
        if flags & ~F_FRAG:
            raise LinkFrameError("BadLinkFrame", "BAD_FIELD", f"DATA flags 0x{flags:02x}")
        if lseq == 0:
            raise LinkFrameError("BadLinkFrame", "BAD_FIELD", "DATA with lseq 0")
        if not flags & F_FRAG:
            if len(b) == HEADER_SIZE:
                raise LinkFrameError("BadLinkFrame", "BAD_LENGTH", "DATA frame without an envelope")
            return LinkFrame(type=T_DATA, lseq=lseq, envelope=bytes(b[HEADER_SIZE:]))
        if len(b) <= HEADER_SIZE + FRAG_HEADER_SIZE:
            raise LinkFrameError("BadLinkFrame", "BAD_LENGTH", "FRAG frame without fragment header and chunk")
        msg_id, offset, total = _FRAG.unpack_from(b, HEADER_SIZE)
        return LinkFrame(type=T_DATA, flags=flags, lseq=lseq, envelope=bytes(b[HEADER_SIZE + FRAG_HEADER_SIZE:]),
                         msg_id=msg_id, offset=offset, total_len=total)
    if flags:
        raise LinkFrameError("BadLinkFrame", "BAD_FIELD", f"flags 0x{flags:02x} on frame type {ftype}")
    if ftype == T_ACK:
        if len(b) != ACK_SIZE:
            raise LinkFrameError("BadLinkFrame", "BAD_LENGTH", f"ACK of {len(b)} bytes, not {ACK_SIZE}")
        return LinkFrame(type=T_ACK, lseq=lseq, mask=_U32.unpack_from(b, HEADER_SIZE)[0])
    # HEARTBEAT
    if lseq != 0:
        raise LinkFrameError("BadLinkFrame", "BAD_FIELD", f"HEARTBEAT with lseq {lseq}")
    payload = b[HEADER_SIZE:]
    if len(payload) % PRESENCE.size:
        raise LinkFrameError("BadLinkFrame", "BAD_LENGTH", f"presence payload of {len(payload)} bytes")
    recs = []
    for nid, up in PRESENCE.iter_unpack(payload):
        if up > 1:
            raise LinkFrameError("BadLinkFrame", "BAD_FIELD", f"presence state {up} for node {nid}")
        recs.append((nid, bool(up)))
    return LinkFrame(type=T_HEARTBEAT, presence=tuple(recs))


# ------------------------------------------------------------- the machine


@dataclass
class LinkConfig:
    """Timers (seconds) and limits of one link end.

    ``mtu`` (0: none) caps the DATA frames this end sends below the peer's
    ``max_frame``; under that cap the frame size adapts to the line
    (docs/wire.md, "Frame size"): halved on a loss, doubled after
    ``grow_after`` clean full-size frames (0: no adaptation, always the cap).
    ``karn`` exists so a test can show what Karn's rule prevents -- leave it on.
    """

    rto_initial: float = 0.2
    rto_min: float = 0.02
    rto_max: float = 2.0
    granularity: float = 0.001
    max_retries: int = 100
    hb_interval: float = 0.5
    dead_after: float = 2.0
    reassembly_budget: int = 64 * 1024 * 1024 + 96
    reassembly_timeout: float = 30.0
    mtu: int = 0
    karn: bool = True
    grow_after: int = GROW_AFTER


@dataclass
class LinkCounters:
    """What a link did (for stats and benches; not part of the vectors)."""

    frames_in: int = 0
    frames_out: int = 0
    data_out: int = 0
    retransmits: int = 0
    duplicates: int = 0
    acks_in: int = 0
    acks_out: int = 0
    hellos_out: int = 0
    heartbeats_in: int = 0
    heartbeats_out: int = 0
    envelopes_in: int = 0
    envelopes_out: int = 0
    rtt_samples: int = 0
    rejected: int = 0
    given_up: int = 0
    shrinks: int = 0
    grows: int = 0


@dataclass(eq=False)
class _Msg:
    """One outbound envelope: bytes cut into frames so far, frames made and acknowledged."""

    envelope: bytes
    frames: int = 0
    acked: int = 0
    cut: int = 0  # bytes already in frames (frames are cut one at a time, at the frame size of the moment)
    msg_id: int = 0  # FRAG message id, 0: sent whole

    @property
    def done(self) -> bool:
        """Every byte is in a frame and every frame is acknowledged."""
        return self.cut >= len(self.envelope) and self.acked == self.frames


@dataclass(eq=False)
class _Out:
    """One outbound DATA frame: payload after the link header, its message, timers."""

    msg: _Msg
    flags: int
    payload: bytes
    lseq: int = 0
    sent_at: float = 0.0
    deadline: float = 0.0
    tries: int = 0
    tx: int = 0  # order of the latest transmission (loss detection: sent before something acked)
    fast: bool = False  # resent because later frames got through: on a short timer of its own (see _transmit)
    fast_n: int = 0  # fast resends in a row (each doubles that timer, up to the RTO)
    gen: int = 0  # frame-size generation it was cut in (a loss shrinks the size once per generation)


@dataclass(eq=False)
class _Reasm:
    """A fragmented message being reassembled."""

    total_len: int
    first_at: float
    buf: bytearray
    offsets: list[int] = field(default_factory=list)  # sorted chunk offsets
    ends: dict[int, int] = field(default_factory=dict)  # offset -> end
    received: int = 0


class Link:
    """One end of a point-to-point link (docs/wire.md, "Link layer"): sans-IO."""

    def __init__(self, local: HelloRecord, config: LinkConfig | None = None) -> None:
        self.local = local
        self.config = config or LinkConfig()
        self.counters = LinkCounters()
        self.presence: tuple[tuple[int, bool], ...] = ()
        # frame bodies, a DATA frame as (link header, payload): see take_frame_parts
        self._frames: list[bytes | tuple[bytes, bytes]] = []
        self._events: list[LinkEvent] = []
        self._started = False
        # peer and session
        self.peer: HelloRecord | None = None
        self.version: int | None = None  # negotiated; None: no session (no hello, or mismatch)
        self.mismatch = False
        self._hello_due = 0.0
        # liveness
        self.peer_down = False
        self._monitored = False
        self._last_heard = 0.0
        self._last_sent = 0.0
        self._hb_now = False
        # RTT (RFC 6298)
        self.srtt: float | None = None
        self.rttvar = 0.0
        self.rto = self.config.rto_initial
        # outbound
        self._pending: deque[bytes] = deque()
        self._cutting: _Msg | None = None  # the envelope being cut into frames
        self._fsize = START_FRAME  # adaptive DATA frame size (under the cap)
        self._fgen = 0  # bumped at every size change
        self._clean = 0  # clean full-size frames acked in a row
        self._inflight: dict[int, _Out] = {}  # lseq -> frame, insertion order == lseq order
        self._msgs: dict[int, _Msg] = {}  # id() -> message, submission order
        self._next_lseq = 1
        self._next_msg = 1
        self._tx = 0
        # inbound
        self.cum = 0
        self.mask = 0
        self._ack_due = False
        self._reasm: dict[int, _Reasm] = {}
        self._reasm_bytes = 0

    # ------------------------------------------------------------ public

    def start(self, now: float) -> None:
        """Begin: send HELLO (repeated every RTO until the peer's arrives)."""
        self._started = True
        self._last_heard = self._last_sent = now
        self._send_hello(False, now)

    def send(self, envelope: bytes, now: float) -> None:
        """Queue one envelope; it goes out (whole or fragmented) as the window allows."""
        self._pending.append(bytes(envelope))
        self._pump(now)

    def receive(self, body: bytes | bytearray | memoryview, now: float) -> None:
        """Handle one frame body that came off the line (CRC already checked by the deframer)."""
        self.counters.frames_in += 1
        try:
            fr = parse_frame(body, self._accept_limit())
        except LinkFrameError as exc:
            self.counters.rejected += 1
            self._events.append(BadHello(exc.code, str(exc)) if exc.event == "BadHello"
                                else BadLinkFrame(exc.code, str(exc)))
            return
        if fr.bare:
            if self.mismatch:
                self.counters.rejected += 1
                self._events.append(BadLinkFrame("VERSION", "bare envelope from a peer whose version mismatches"))
                return
            self._heard(now, monitor=False)
            self.counters.envelopes_in += 1
            self._events.append(EnvelopeReceived(fr.envelope, bare=True))
            return
        # a handler returns False for a frame it refused (event emitted, nothing changed, not even liveness)
        if fr.type == T_HELLO:
            ok = self._on_hello(fr, now)
        elif fr.type == T_DATA:
            ok = self._on_data(fr, now)
        elif fr.type == T_ACK:
            ok = self._on_ack(fr, now)
        else:
            ok = True
            self._heard(now, monitor=True)
            self.counters.heartbeats_in += 1
            self._events.append(HeartbeatReceived(fr.presence))
        if ok:
            self._pump(now)

    def poll(self, now: float) -> None:
        """Run the timers due at ``now``: retransmission, HELLO repeat, heartbeat, liveness, reassembly."""
        if not self._started:
            return
        c = self.config
        if self.peer is None and now >= self._hello_due:
            self._send_hello(False, now)
        # every test compares ``now`` with the very sum next_deadline() returns (no float drift between them)
        if c.dead_after > 0 and self._monitored and not self.peer_down and now >= self._last_heard + c.dead_after:
            self.peer_down = True
            self._events.append(PeerDown())
        for mid, r in list(self._reasm.items()):
            if now >= r.first_at + c.reassembly_timeout:
                self._drop_reasm(mid)
                self._events.append(ReassemblyTimeout(mid, r.received, r.total_len))
        if self._inflight and not self.peer_down:
            expired = [f for f in self._inflight.values() if f.deadline <= now]
            if expired:
                if any(f.tries >= c.max_retries for f in expired):
                    self._abandon(now)
                    return
                # back off when the oldest frame's timer expires (RFC 6298 5.5: one timer, for the
                # earliest frame); later frames expiring in its shadow do not compound it
                oldest = next(iter(self._inflight.values()))
                if expired[0] is oldest and not oldest.fast:
                    self.rto = min(self.rto * 2, c.rto_max)
                for f in expired:  # a fast frame stays fast, its own timer doubling (see _transmit)
                    self._transmit(f, now, retransmit=True, fast=f.fast)
        self._pump(now)
        if c.hb_interval > 0 and (self._hb_now or now >= self._last_sent + c.hb_interval):
            self._hb_now = False
            self._emit(encode_heartbeat(self._presence_fitting()), now)
            self.counters.heartbeats_out += 1

    def next_deadline(self) -> float | None:
        """The earliest ``now`` at which :meth:`poll` has something to do (None: nothing scheduled)."""
        if not self._started:
            return None
        c = self.config
        cands: list[float] = []
        if self.peer is None:
            cands.append(self._hello_due)
        if c.hb_interval > 0:
            cands.append(self._last_sent + (0.0 if self._hb_now else c.hb_interval))
        if c.dead_after > 0 and self._monitored and not self.peer_down:
            cands.append(self._last_heard + c.dead_after)
        if self._inflight and not self.peer_down:
            cands.append(min(f.deadline for f in self._inflight.values()))
        cands.extend(r.first_at + c.reassembly_timeout for r in self._reasm.values())
        return min(cands) if cands else None

    def take_frames(self) -> list[bytes]:
        """Frame bodies to put on the line, in order (an ACK first when one is due)."""
        return [f if isinstance(f, bytes) else b"".join(f) for f in self.take_frame_parts()]

    def take_frame_parts(self) -> list[bytes | tuple[bytes, bytes]]:
        """As :meth:`take_frames`, but a DATA frame comes as its (link header, payload) pair, unjoined.

        Why: a framer that encodes the two one after the other (framing.frame_parts) spares a copy of
        every DATA frame (64 KiB for a 64 KiB envelope), made with the GIL held on the sending thread.
        """
        out = self._frames
        if self._ack_due:
            self._ack_due = False
            self.counters.acks_out += 1
            out.insert(0, encode_ack(self.cum, self.mask))
        self._frames = []
        self.counters.frames_out += len(out)
        return out

    def take_events(self) -> list[LinkEvent]:
        """Events since the last call, in the order they happened."""
        out, self._events = self._events, []
        return out

    def set_presence(self, presence: list[tuple[int, bool]] | tuple[tuple[int, bool], ...]) -> None:
        """Presence records for outgoing heartbeats (a hub's table); a change goes out at the next poll."""
        new = tuple((int(n), bool(u)) for n, u in presence)
        if new != self.presence:
            self.presence = new
            self._hb_now = True

    @property
    def unacked(self) -> int:
        """Envelopes queued or sent and not yet fully acknowledged."""
        return len(self._msgs) + len(self._pending)

    @property
    def up(self) -> bool:
        """A link session is established (DATA can flow)."""
        return self.version is not None

    # ---------------------------------------------------------- internals

    def _accept_limit(self) -> int:
        return max(self.local.max_frame, MAX_HELLO)

    def _heard(self, now: float, monitor: bool) -> None:
        self._last_heard = now
        if monitor:
            self._monitored = True
        if self.peer_down:
            self.peer_down = False
            self._events.append(PeerUp())
            for f in self._inflight.values():  # resend at once what it missed, not after a backed-off timer
                f.deadline = now
            self.rto = self._computed_rto()

    def _emit(self, body: bytes | tuple[bytes, bytes], now: float) -> None:
        self._frames.append(body)
        self._last_sent = now

    def _send_hello(self, reply: bool, now: float) -> None:
        self._emit(encode_hello(self.local, reply), now)
        self.counters.hellos_out += 1
        if not reply:
            self._hello_due = now + self.rto

    def _on_hello(self, fr: LinkFrame, now: float) -> bool:
        rec = fr.hello
        assert rec is not None
        old = self.peer
        if old is not None and rec.node_id == old.node_id and rec.boot_epoch < old.boot_epoch:
            self.counters.rejected += 1
            self._events.append(EpochRegressed(old.boot_epoch, rec.boot_epoch))
            return False
        self._heard(now, monitor=True)
        if not fr.reply:
            self._send_hello(True, now)
        if old is not None and rec.node_id == old.node_id and rec.boot_epoch == old.boot_epoch:
            return True  # a repeat
        self.peer = rec
        if old is not None:
            self._events.append(PeerRestarted(old.boot_epoch, rec.boot_epoch))
        self._new_session()
        v = self.local.version_with(rec)
        if v is None:
            self.version = None
            self.mismatch = True
            self._events.append(VersionMismatch(rec, self.local.min_version, self.local.max_version))
            return True
        self.version = v
        self.mismatch = False
        self._events.append(LinkUp(rec, v))
        return True

    def _new_session(self) -> None:
        """Clear receive state; requeue every envelope not fully acknowledged, in order, from lseq 1."""
        self.cum = 0
        self.mask = 0
        self._ack_due = False
        self._reasm.clear()
        self._reasm_bytes = 0
        again = [m.envelope for m in self._msgs.values()]
        self._msgs.clear()
        self._inflight.clear()
        self._cutting = None
        self._pending.extendleft(reversed(again))
        self._next_lseq = 1
        self._next_msg = 1

    def _abandon(self, now: float) -> None:
        """A frame ran out of retries: give up every queued envelope and start a new session (new epoch)."""
        for m in list(self._msgs.values()):
            self._events.append(GaveUp(m.envelope, "RETRIES"))
        for e in self._pending:
            self._events.append(GaveUp(e, "RETRIES"))
        self.counters.given_up += len(self._msgs) + len(self._pending)
        self._fsize = min(self._fsize, START_FRAME)  # frames cut too big may be why: start small again
        self._fgen += 1
        self._msgs.clear()
        self._pending.clear()
        self._new_session()
        # the peer must clear its receive state too: only a greater epoch tells it so
        rec = self.local
        self.local = HelloRecord(rec.min_version, rec.max_version, rec.caps, (rec.boot_epoch + 1) & _MASK32 or 1,
                                 rec.node_id, rec.max_frame, rec.window, rec.name, rec.program_hash)
        self.peer = None
        self.version = None
        self.mismatch = False
        self.rto = self._computed_rto()
        self._send_hello(False, now)

    # DATA in

    def _on_data(self, fr: LinkFrame, now: float) -> bool:
        if self.version is None:
            self.counters.rejected += 1
            code = "VERSION" if self.mismatch else "NO_SESSION"
            self._events.append(BadLinkFrame(code, "DATA without a link session"))
            if not self.mismatch:
                self._send_hello(False, now)
            return False
        lseq = fr.lseq
        if lseq <= self.cum or (lseq - self.cum <= 32 and self.mask >> (lseq - self.cum - 1) & 1):
            self._heard(now, monitor=True)
            self.counters.duplicates += 1
            self._ack_due = True
            return True
        if lseq > self.cum + self.local.window:
            self.counters.rejected += 1
            self._events.append(BadLinkFrame("OUT_OF_WINDOW", f"lseq {lseq} beyond {self.cum} + window"))
            return False
        if fr.frag:
            if not self._on_fragment(fr, now):
                return False
        else:
            self.counters.envelopes_in += 1
            self._events.append(EnvelopeReceived(fr.envelope))
        # record lseq: set its bit, then slide cum over the received prefix
        self.mask |= 1 << (lseq - self.cum - 1)
        while self.mask & 1:
            self.mask >>= 1
            self.cum += 1
        self._ack_due = True
        self._heard(now, monitor=True)
        return True

    def _on_fragment(self, fr: LinkFrame, now: float) -> bool:
        """Check and store one fragment; False (event emitted, nothing changed) if refused."""
        mid, off, total, chunk = fr.msg_id, fr.offset, fr.total_len, fr.envelope
        end = off + len(chunk)

        def refuse(code: str, detail: str) -> bool:
            self.counters.rejected += 1
            self._events.append(FragmentRejected(mid, code, detail))
            return False

        if mid == 0:
            return refuse("BAD_FIELD", "msg_id 0")
        if end > total or total <= len(chunk):
            return refuse("OUT_OF_RANGE", f"chunk [{off}, {end}) of a {total}-byte message")
        r = self._reasm.get(mid)
        if r is None:
            if total > self.config.reassembly_budget - self._reasm_bytes:
                return refuse("BUDGET", f"{total} bytes over the reassembly budget "
                                        f"({self._reasm_bytes} of {self.config.reassembly_budget} in use)")
            # messages start in lseq order: a message held while an earlier one is refused would wait
            # forever for fragments the window cannot reach (the refused frame pins the window)
            if fr.lseq != self.cum + 1:
                return refuse("ORDER", f"a new message at lseq {fr.lseq} while lseq {self.cum + 1} is missing")
        else:
            if total != r.total_len:
                return refuse("LENGTH_MISMATCH", f"total_len {total}, earlier fragments said {r.total_len}")
            i = bisect.bisect_left(r.offsets, off)
            if i < len(r.offsets) and r.offsets[i] == off and r.ends[off] == end:
                return True  # the same chunk again (already held): accept, nothing new
            if (i < len(r.offsets) and r.offsets[i] < end) or (i > 0 and r.ends[r.offsets[i - 1]] > off):
                return refuse("OVERLAP", f"chunk [{off}, {end}) overlaps one already held")
        if r is None:
            r = self._reasm[mid] = _Reasm(total, now, bytearray(total))
            self._reasm_bytes += total
            i = 0
        r.buf[off:end] = chunk
        r.offsets.insert(i, off)
        r.ends[off] = end
        r.received += len(chunk)
        if r.received == r.total_len:
            self._drop_reasm(mid)
            self.counters.envelopes_in += 1
            self._events.append(EnvelopeReceived(bytes(r.buf)))
        return True

    def _drop_reasm(self, mid: int) -> None:
        r = self._reasm.pop(mid)
        self._reasm_bytes -= r.total_len

    # ACK in

    def _on_ack(self, fr: LinkFrame, now: float) -> bool:
        cum, mask = fr.lseq, fr.mask
        highest = self._next_lseq - 1 if self.version is not None else 0
        top = cum + mask.bit_length()  # highest lseq the ACK claims
        if top > highest:
            self.counters.rejected += 1
            self._events.append(AckUnknown(cum, mask))
            return False
        self._heard(now, monitor=True)
        self.counters.acks_in += 1
        acked = [f for s, f in self._inflight.items() if s <= cum or (mask >> (s - cum - 1)) & 1]
        if not acked:
            return True
        # what was delivered after what: a frame sent before the latest transmission of a frame acked now and
        # still unacked was lost (or refused, e.g. a fragment ORDER): a line does not reorder. A resent frame
        # says so only if the ACK came at least SRTT/2 after its resend (sooner, it answers an earlier
        # transmission); waiting for the RTO after every repaired loss stalled noisy lines (issue 40)
        srtt = self.srtt
        newest_tx = max((f.tx for f in acked if f.tries == 1 or (srtt is not None and 2 * (now - f.sent_at) >= srtt)),
                        default=0)
        sample: _Out | None = None
        clean = 0
        gen = self._fgen
        for f in acked:
            del self._inflight[f.lseq]
            m = f.msg
            m.acked += 1
            if m.done:
                self._msgs.pop(id(m), None)
            if (f.tries == 1 or not self.config.karn) and (sample is None or f.lseq > sample.lseq):
                sample = f
            if f.tries == 1 and self._full_size(f):
                clean += 1
        if sample is not None:
            self._rtt_sample(now - sample.sent_at)
        # RFC 6298 5.3: an ACK of new data restarts the timer of what is still in flight. Per-frame timers that
        # ran from each frame's own send time fired for the back of every window on a slow line (a QEMU UART
        # carries ~2 KB/s: 16 frames queue for seconds) and the resends buried the line (issue 40)
        restart = now + self.rto
        for f in self._inflight.values():
            if not f.fast and f.deadline < restart:
                f.deadline = restart
        # a frame sent before one that is now acknowledged and still unacked was lost: resend it now
        # (sender policy, not wire format: a line does not reorder)
        for f in list(self._inflight.values()):
            if f.tx < newest_tx:
                self._transmit(f, now, retransmit=True, fast=True)
        if clean and gen == self._fgen:  # counted after the losses this ACK shows (they may shrink the size)
            self._clean_frames(clean)
        return True

    def _rtt_sample(self, r: float) -> None:
        """RFC 6298 (2.2, 2.3): alpha 1/8, beta 1/4; the RTO is recomputed (any back-off dropped)."""
        self.counters.rtt_samples += 1
        r = max(r, 0.0)
        if self.srtt is None:
            self.srtt = r
            self.rttvar = r / 2
        else:
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - r)
            self.srtt = 0.875 * self.srtt + 0.125 * r
        self.rto = self._computed_rto()

    def _computed_rto(self) -> float:
        c = self.config
        if self.srtt is None:
            return c.rto_initial
        return min(max(self.srtt + max(c.granularity, 4 * self.rttvar), c.rto_min), c.rto_max)

    # DATA out

    def _frame_cap(self) -> int:
        """Largest DATA frame body to send: the peer's max_frame, under our own mtu if set."""
        assert self.peer is not None
        lim = self.peer.max_frame
        if self.config.mtu:
            lim = min(lim, self.config.mtu)
        return max(lim, HEADER_SIZE + FRAG_HEADER_SIZE + 1)

    def _frame_limit(self) -> int:
        """The DATA frame size of the moment: the adaptive size, under the cap (docs/wire.md, "Frame size")."""
        cap = self._frame_cap()
        return cap if self._fsize > cap or not self.config.grow_after else self._fsize

    def _first_limit(self) -> int:
        """The size of an envelope's first frame: the frame size, at least FIRST_FRAME (under the cap)."""
        return max(self._frame_limit(), min(self._frame_cap(), FIRST_FRAME))

    @property
    def frame_size(self) -> int:
        """The DATA frame size new frames are cut at now (0: no peer yet)."""
        return self._frame_limit() if self.peer is not None else 0

    def _resize(self, size: int) -> None:
        if size != self._frame_limit():
            if size < self._frame_limit():
                self.counters.shrinks += 1
            else:
                self.counters.grows += 1
            self._fsize = size
            self._fgen += 1
        self._clean = 0

    def _lost_frame(self, f: _Out) -> None:
        """A DATA frame is sent again: halve the size, once per size generation (a burst is one loss)."""
        self._clean = 0
        if self.config.grow_after and self.peer is not None and f.gen == self._fgen:
            cap = self._frame_cap()
            self._resize(max(self._frame_limit() // 2, min(cap, FRAME_FLOOR)))

    def _full_size(self, f: _Out) -> bool:
        """A frame cut at the size of the moment and more than half of it (a small one says nothing)."""
        return bool(self.config.grow_after) and f.gen == self._fgen and \
            2 * (HEADER_SIZE + len(f.payload)) > self._frame_limit()

    def _clean_frames(self, n: int) -> None:
        """``n`` full-size frames acked at their first try: after grow_after in a row, double the size."""
        self._clean += n
        if self._clean >= self.config.grow_after:
            self._resize(min(2 * self._frame_limit(), self._frame_cap()))

    def _pump(self, now: float) -> None:
        """Cut frames from queued envelopes, one at a time at the frame size of the moment, as the window allows."""
        if self.version is None or self.peer is None:
            return
        window = min(self.local.window, self.peer.window)
        while True:
            low = next(iter(self._inflight)) if self._inflight else self._next_lseq
            if self._next_lseq > low + window - 1:
                return
            m = self._cutting
            if m is None:
                if not self._pending:
                    return
                m = self._start(self._pending.popleft())
                if m is None:
                    continue
            f = self._cut(m)
            f.lseq = self._next_lseq
            self._next_lseq += 1
            self._inflight[f.lseq] = f
            self._transmit(f, now, retransmit=False)

    def _start(self, env: bytes) -> _Msg | None:
        """Begin cutting ``env``: whole if it fits the frame size now, else fragmented (or TOO_LARGE)."""
        m = _Msg(env)
        if HEADER_SIZE + len(env) > self._first_limit():
            if not (self.peer is not None and self.peer.caps & CAP_FRAG and self.local.caps & CAP_FRAG):
                self.counters.given_up += 1
                self._events.append(GaveUp(env, "TOO_LARGE"))
                return None
            m.msg_id = self._next_msg
            self._next_msg = self._next_msg % _MASK32 + 1
        self._msgs[id(m)] = m
        self._cutting = m
        self.counters.envelopes_out += 1
        return m

    def _cut(self, m: _Msg) -> _Out:
        """The next frame of ``m``; a fragment takes what the frame size of the moment leaves for the chunk."""
        env = m.envelope
        m.frames += 1
        if not m.msg_id:
            m.cut = len(env)
            f = _Out(m, 0, env, gen=self._fgen)
        else:
            off = m.cut
            step = (self._first_limit() if off == 0 else self._frame_limit()) - HEADER_SIZE - FRAG_HEADER_SIZE
            m.cut = min(off + step, len(env))
            payload = b"".join((_FRAG.pack(m.msg_id, off, len(env)), memoryview(env)[off:m.cut]))
            f = _Out(m, F_FRAG, payload, gen=self._fgen)
        if m.cut >= len(env):
            self._cutting = None
        return f

    def _transmit(self, f: _Out, now: float, retransmit: bool, fast: bool = False) -> None:
        """Put one DATA frame out; its timer is the RTO, or for a loss-detected resend 2 SRTT (doubling
        with each fast resend of it in a row) if shorter: a noisy line loses the resend too, and the window
        waits on it, but a loaded end must not be flooded either."""
        f.tries += 1
        f.fast = fast
        f.fast_n = f.fast_n + 1 if fast else 0
        self._tx += 1
        f.tx = self._tx
        f.sent_at = now
        rto = self.rto
        if fast and self.srtt is not None:
            rto = min(rto, max(2 * self.srtt, self.config.rto_min) * 2 ** min(f.fast_n - 1, 16))
        f.deadline = now + rto
        if retransmit:
            self.counters.retransmits += 1
            self._lost_frame(f)
        self.counters.data_out += 1
        self._emit((_HEADER.pack(LINK_MAGIC, T_DATA, f.flags, f.lseq), f.payload), now)

    def _presence_fitting(self) -> tuple[tuple[int, bool], ...]:
        """Presence records that fit in the peer's max_frame."""
        if self.peer is None:
            return self.presence
        room = (self.peer.max_frame - HEADER_SIZE) // PRESENCE.size
        return self.presence[:max(room, 0)]


__all__ = [
    "CAP_ARQ",
    "CAP_FRAG",
    "LINK_MAGIC",
    "AckUnknown",
    "BadHello",
    "BadLinkFrame",
    "EnvelopeReceived",
    "EpochRegressed",
    "FragmentRejected",
    "GaveUp",
    "HeartbeatReceived",
    "Link",
    "LinkConfig",
    "LinkEvent",
    "LinkFrame",
    "LinkFrameError",
    "LinkUp",
    "PeerDown",
    "PeerRestarted",
    "PeerUp",
    "ReassemblyTimeout",
    "VersionMismatch",
    "encode_ack",
    "encode_data",
    "encode_fragment",
    "encode_heartbeat",
    "encode_hello",
    "parse_frame",
]
