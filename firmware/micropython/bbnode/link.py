"""The link layer of docs/wire.md ("Link layer") for MicroPython, sans-IO.

The same state machine as bb_edge/wire/link.py, held to the same golden vectors (tests/vectors/link/):
time (``now``, integer milliseconds from any monotonic origin) and received frame bodies go in; frame
bodies (to ``write``), envelopes (to ``deliver``) and typed events (``events``: ``(name, fields)`` tuples,
``fields`` a dict named as in the vectors) come out. Nothing here reads a clock, touches a UART or sleeps:
the node loop (bbnode/node.py) does that, so a test replays whole sessions with a scripted ``now``.

Memory is preallocated at construction:

- ``window`` slots of ``frame`` bytes for DATA frames in flight (``frame``: the ``mtu`` option, else this
  end's ``max_frame``; a DATA frame never exceeds it nor the peer's ``max_frame``);
- a queue of ``queue_bytes`` holding every envelope until it is fully acknowledged, so a new link session
  (the peer rebooted) sends again, from lseq 1, every envelope not yet acknowledged, as the spec says;
- a reassembly arena of ``reassembly_budget`` bytes shared by at most ``max_msgs`` messages of at most
  ``max_chunks`` fragments each (compacted when its free space is split).

Bookkeeping lives in preallocated lists of small ints, so the steady state allocates per frame only (a few
memoryview objects, a big-int CRC on 32-bit ports), never per byte, and nothing grows with traffic.

Bad input (a truncated or forged HELLO, an ACK for a frame never sent, overlapping or out-of-range
fragments, a reassembly budget overrun, an epoch going backwards) gives an event and changes nothing else.

Why one file: the MicroPython port of bb_edge/wire/link.py, kept as one module like its model, so that the
three ports compare side by side. On the device a second module would cost import RAM.
"""
import struct

MAGIC0 = 0xBB
MAGIC1 = 0xA1
T_HELLO = 1
T_DATA = 2
T_ACK = 3
T_HEARTBEAT = 4
F_REPLY = 1
F_FRAG = 1
CAP_ARQ = 1
CAP_FRAG = 2
HDR = 8
FRAG_HDR = 20  # link header + msg_id, offset, total_len
RECORD = 52  # the hello record before its name
MAX_NAME = 64
MAX_HELLO = HDR + RECORD + MAX_NAME  # 124: a HELLO is always accepted, whatever max_frame says
MIN_FRAME = 64
START_FRAME = 256  # adaptive frame size (docs/wire.md "Frame size"): where a link starts ...
FRAME_FLOOR = 64  # ... never below (but an envelope's first frame, holding its header, is FIRST_FRAME) ...
FIRST_FRAME = 128
GROW_AFTER = 8  # ... doubled after this many clean full-size frames in a row (grow_after 0: always the cap)
OWN_MIN_VERSION = 1
OWN_MAX_VERSION = 1

_REC = "<BBHIIIHH"  # the hello record's fixed fields before program_hash
_QH = 12  # queue entry header: u32 length, u16 frames made, u16 frames acked, u32 state
_FRAMED = 1  # every frame of the entry was made
_DONE = 2  # every frame acknowledged (or given up): never sent again


class LinkError(ValueError):
    """A refused hello record; ``code`` is TRUNCATED, BAD_VERSION, BAD_FIELD or BAD_LENGTH."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


class Hello:
    """A hello record (docs/wire.md, "HELLO (type 1)"): version range, boot epoch, identity, capabilities."""

    def __init__(self, min_version=OWN_MIN_VERSION, max_version=OWN_MAX_VERSION, caps=CAP_ARQ | CAP_FRAG,
                 boot_epoch=1, node_id=0, max_frame=4096, window=8, name=b"", program_hash=b"\x00" * 32):
        self.min_version = min_version
        self.max_version = max_version
        self.caps = caps
        self.boot_epoch = boot_epoch
        self.node_id = node_id
        self.max_frame = max_frame
        self.window = window
        self.name = name.encode() if isinstance(name, str) else bytes(name)
        self.program_hash = bytes(program_hash)


def hello_decode(rec):
    """Decode and validate a hello record (bytes-like, exactly 52 + name_len bytes); raise LinkError(code)."""
    n = len(rec)
    if n < RECORD:
        raise LinkError("TRUNCATED")
    mn, mx, caps, epoch, node_id, max_frame, window, name_len = struct.unpack_from(_REC, rec, 0)
    if mn < 1 or mx < mn:
        raise LinkError("BAD_VERSION")
    if caps & ~(CAP_ARQ | CAP_FRAG):
        raise LinkError("BAD_FIELD")
    if epoch < 1 or max_frame < MIN_FRAME or window < 1 or window > 32 or name_len > MAX_NAME:
        raise LinkError("BAD_FIELD")
    if n < RECORD + name_len:
        raise LinkError("TRUNCATED")
    if n > RECORD + name_len:
        raise LinkError("BAD_LENGTH")
    name = bytes(rec[RECORD:RECORD + name_len])
    try:
        str(name, "utf-8")
    except UnicodeError:
        raise LinkError("BAD_FIELD")
    return Hello(mn, mx, caps, epoch, node_id, max_frame, window, name, bytes(rec[20:52]))


def hello_into(h, out, pos=0):
    """Write the hello record of ``h`` into ``out`` at ``pos``; return the end position."""
    struct.pack_into(_REC, out, pos, h.min_version, h.max_version, h.caps, h.boot_epoch, h.node_id, h.max_frame,
                     h.window, len(h.name))
    out[pos + 20:pos + 52] = h.program_hash
    out[pos + 52:pos + 52 + len(h.name)] = h.name
    return pos + 52 + len(h.name)


def header_into(out, pos, ftype, flags, lseq):
    """Write the 8-byte link header into ``out`` at ``pos``."""
    out[pos] = MAGIC0
    out[pos + 1] = MAGIC1
    out[pos + 2] = ftype
    out[pos + 3] = flags
    struct.pack_into("<I", out, pos + 4, lseq)


def check(body, n, lim):
    """The structural rules of a link frame body of ``n`` bytes, in the order of bb_edge/wire/link.py's
    ``parse_frame``: ``(None, None, hello_or_None)`` if it passes, else ``(event, code, None)``.

    ``lim`` is this end's limit on DATA and HEARTBEAT bodies (its max_frame, at least 124). A bare
    envelope (envelope magic) is the caller's to recognise first.
    """
    if n < HDR:
        return "BadLinkFrame", "TRUNCATED", None
    if body[0] != MAGIC0 or body[1] != MAGIC1:
        return "BadLinkFrame", "BAD_MAGIC", None
    t = body[2]
    fl = body[3]
    lseq0 = not (body[4] or body[5] or body[6] or body[7])
    if t == T_HELLO:
        if fl & ~F_REPLY or not lseq0:
            return "BadHello", "BAD_FIELD", None
        try:
            return None, None, hello_decode(memoryview(body)[HDR:n])
        except LinkError as exc:
            return "BadHello", exc.code, None
    code = None
    if t != T_DATA and t != T_ACK and t != T_HEARTBEAT:
        code = "BAD_TYPE"
    elif n > lim and t != T_ACK:
        code = "TOO_LARGE"
    elif t == T_DATA:
        if fl & ~F_FRAG or lseq0:
            code = "BAD_FIELD"
        elif n <= (FRAG_HDR if fl & F_FRAG else HDR):
            code = "BAD_LENGTH"
    elif fl:
        code = "BAD_FIELD"
    elif t == T_ACK:
        if n != 12:
            code = "BAD_LENGTH"
    elif not lseq0:
        code = "BAD_FIELD"
    elif (n - HDR) % 5:
        code = "BAD_LENGTH"
    else:
        for p in range(HDR + 4, n, 5):
            if body[p] > 1:
                code = "BAD_FIELD"
    return ("BadLinkFrame", code, None) if code is not None else _PASS


_PASS = (None, None, None)


def encode_hello(h, reply=False):
    """A HELLO frame body (bytes) carrying the record of ``h``."""
    out = bytearray(HDR + RECORD + len(h.name))
    header_into(out, 0, T_HELLO, F_REPLY if reply else 0, 0)
    hello_into(h, out, HDR)
    return bytes(out)


def encode_data(lseq, env):
    """A whole-envelope DATA frame body."""
    out = bytearray(HDR + len(env))
    header_into(out, 0, T_DATA, 0, lseq)
    out[HDR:] = env
    return bytes(out)


def encode_fragment(lseq, msg_id, offset, total_len, chunk):
    """A DATA frame body with FRAG set: fragment header, then the chunk."""
    out = bytearray(FRAG_HDR + len(chunk))
    header_into(out, 0, T_DATA, F_FRAG, lseq)
    struct.pack_into("<III", out, HDR, msg_id, offset, total_len)
    out[FRAG_HDR:] = chunk
    return bytes(out)


def encode_ack(cum, mask):
    """An ACK frame body: cumulative ack and the 32-bit mask of frames received beyond it."""
    out = bytearray(12)
    header_into(out, 0, T_ACK, 0, cum)
    struct.pack_into("<I", out, HDR, mask)
    return bytes(out)


def encode_heartbeat(presence=()):
    """A HEARTBEAT frame body with presence records ``(node_id, up)``."""
    out = bytearray(HDR + 5 * len(presence))
    header_into(out, 0, T_HEARTBEAT, 0, 0)
    for i, (nid, up) in enumerate(presence):
        struct.pack_into("<IB", out, HDR + 5 * i, nid, 1 if up else 0)
    return bytes(out)


def negotiate(min_a, max_a, min_b, max_b):
    """The highest common version, or 0 when the ranges do not meet."""
    v = max_a if max_a < max_b else max_b
    lo = min_a if min_a > min_b else min_b
    return v if v >= lo else 0


class Link:
    """One end of a point-to-point link; see the module docstring.

    ``write(mv)`` gets each frame body (a memoryview valid during the call); ``deliver(mv, bare)`` gets each
    received envelope (valid during the call; ``bare``: it came without a link header). Times are ms.
    """

    def __init__(self, hello, write, deliver, rto_initial=200, rto_min=20, rto_max=2000, granularity=1,
                 max_retries=100, hb_interval=500, dead_after=2000, reassembly_budget=65536,
                 reassembly_timeout=30000, mtu=0, queue_bytes=0, max_msgs=4, max_chunks=128,
                 grow_after=GROW_AFTER):
        self.hello = hello
        self.write = write
        self.deliver = deliver
        self.rto_initial = rto_initial
        self.rto_min = rto_min
        self.rto_max = rto_max
        self.granularity = granularity
        self.max_retries = max_retries
        self.hb_interval = hb_interval
        self.dead_after = dead_after
        self.budget = reassembly_budget
        self.reassembly_timeout = reassembly_timeout
        self.grow_after = grow_after
        self.fsize = START_FRAME  # adaptive DATA frame size (under the cap), its generation, clean frames
        self.fgen = 0
        self.clean = 0
        self.shrinks = 0
        self.grows = 0
        self.events = []
        fb = hello.max_frame if not mtu or mtu > hello.max_frame else mtu
        self.fbytes = fb if fb > FRAG_HDR + 1 else FRAG_HDR + 1
        w = hello.window
        self.slots = bytearray(w * self.fbytes)
        self.smv = memoryview(self.slots)
        self.s_lseq = [0] * w  # 0: free
        self.s_len = [0] * w
        self.s_tries = [0] * w
        self.s_sent = [0] * w
        self.s_dead = [0] * w
        self.s_txo = [0] * w  # order of the latest transmission
        self.s_fast = [0] * w  # resent because later frames got through: on a short timer of its own
        self.s_fast_n = [0] * w  # fast resends of it in a row (each doubles that timer, up to the RTO)
        self.s_entry = [0] * w  # queue position of the envelope the frame belongs to
        self.s_gen = [0] * w  # frame-size generation it was cut in (a loss halves the size once per generation)
        self.ctl = bytearray(MAX_HELLO)  # HELLO, ACK, HEARTBEAT
        self.cmv = memoryview(self.ctl)
        self.q = bytearray(queue_bytes or (2 * reassembly_budget + 4 * _QH))
        self.qmv = memoryview(self.q)
        self.q_start = 0
        self.q_end = 0
        self.f_pos = 0  # the entry being cut into frames
        self.f_off = 0  # its bytes already in frames
        self.f_msg = 0  # its msg_id when fragmented
        self.arena = bytearray(reassembly_budget)
        self.amv = memoryview(self.arena)
        self.max_chunks = max_chunks
        self.r_id = [0] * max_msgs  # 0: free
        self.r_start = [0] * max_msgs
        self.r_total = [0] * max_msgs
        self.r_got = [0] * max_msgs
        self.r_t0 = [0] * max_msgs
        self.r_n = [0] * max_msgs
        self.r_off = [0] * (max_msgs * max_chunks)
        self.r_len = [0] * (max_msgs * max_chunks)
        self.started = False
        self.peer = None
        self.up = False  # a link session: DATA flows
        self.mismatch = False
        self.version = 0
        self.hello_due = 0
        self.peer_down = False
        self.monitored = False
        self.last_heard = 0
        self.last_sent = 0
        self.srtt = -1  # 1/64 ms; -1: no sample yet
        self.rttvar = 0
        self.rto = rto_initial
        self.next_lseq = 1
        self.next_msg = 1
        self.txo = 0
        self.cum = 0
        self.mask = 0
        self.retransmits = 0
        self.rtt_samples = 0

    # ------------------------------------------------------------------ events
    def _event(self, name, fields=None):
        self.events.append((name, fields))

    def take_events(self):
        """The events since the last call: a list of ``(name, fields)``."""
        ev = self.events
        self.events = []
        return ev

    # ---------------------------------------------------------------- output
    def _emit(self, mv, now):
        self.last_sent = now
        self.write(mv)

    def _send_hello(self, reply, now):
        c = self.ctl
        header_into(c, 0, T_HELLO, F_REPLY if reply else 0, 0)
        n = hello_into(self.hello, c, HDR)
        self._emit(self.cmv[:n], now)
        if not reply:
            self.hello_due = now + self.rto

    def _send_ack(self, now):
        c = self.ctl
        header_into(c, 0, T_ACK, 0, self.cum)
        struct.pack_into("<I", c, 8, self.mask)
        self.write(self.cmv[:12])  # not _emit: an ACK does not put off a heartbeat (as link.py and the C port)

    def start(self, now):
        """Begin: send HELLO (repeated every RTO until the peer's arrives)."""
        self.started = True
        self.last_heard = now
        self.last_sent = now
        self._send_hello(False, now)

    # ------------------------------------------------------------------ send
    def room(self):
        """Largest envelope :meth:`send` accepts now (the queue keeps envelopes until acknowledged)."""
        free = len(self.q) - (self.q_end - self.q_start) - _QH
        return free if free > 0 else 0

    def unacked(self):
        """Bytes of envelopes queued or in flight and not yet acknowledged."""
        return self.q_end - self.q_start

    def send(self, env, now):
        """Queue one envelope (bytes-like); it goes out, whole or fragmented, as the window allows.

        Return False (nothing queued) if the queue has no room for it: the caller retries later.
        """
        n = len(env)
        if n == 0 or n > self.room():
            return False
        q = self.q
        if self.q_end + _QH + n > len(q):  # compact: entries slide to the front, positions follow
            s = self.q_start
            used = self.q_end - s
            q[0:used] = self.qmv[s:self.q_end]
            self.q_start = 0
            self.q_end = used
            self.f_pos -= s
            for i in range(len(self.s_lseq)):
                if self.s_lseq[i]:
                    self.s_entry[i] -= s
        e = self.q_end
        struct.pack_into("<IHHI", q, e, n, 0, 0, 0)
        q[e + _QH:e + _QH + n] = env
        self.q_end = e + _QH + n
        self._pump(now)
        return True

    def _limit(self):
        lim = self.peer.max_frame
        if lim > self.fbytes:
            lim = self.fbytes
        return lim if lim > FRAG_HDR + 1 else FRAG_HDR + 1

    def _flimit(self):
        """The DATA frame size of the moment: the adaptive size, under the cap (link.py _frame_limit)."""
        cap = self._limit()
        return cap if not self.grow_after or self.fsize > cap else self.fsize

    def frame_size(self):
        """The DATA frame size new frames are cut at now (0: no peer yet)."""
        return self._flimit() if self.peer is not None else 0

    def _resize(self, size):
        cur = self._flimit()
        if size != cur:
            if size < cur:
                self.shrinks += 1
            else:
                self.grows += 1
            self.fsize = size
            self.fgen += 1
        self.clean = 0

    def _lost(self, i):
        """Slot ``i`` is sent again: halve the size, once per size generation (a burst is one loss)."""
        self.clean = 0
        if self.grow_after and self.peer is not None and self.s_gen[i] == self.fgen:
            cap = self._limit()
            fl = cap if cap < FRAME_FLOOR else FRAME_FLOOR
            half = self._flimit() // 2
            self._resize(half if half > fl else fl)

    def _clean_frames(self, n):
        """``n`` full-size frames acked at their first try: after grow_after in a row, double the size."""
        self.clean += n
        if self.clean >= self.grow_after:
            cap = self._limit()
            t = 2 * self._flimit()
            self._resize(t if t < cap else cap)

    def _low(self):
        low = 0
        for v in self.s_lseq:
            if v and (low == 0 or v < low):
                low = v
        return low if low else self.next_lseq

    def _pump(self, now):
        """Cut queued envelopes into DATA frames and send what the window allows."""
        if not self.up:
            return
        pw = self.peer.window
        window = pw if pw < self.hello.window else self.hello.window
        q = self.q
        while self.f_pos < self.q_end:
            p = self.f_pos
            n, _fr, _ak, st = struct.unpack_from("<IHHI", q, p)
            if st & (_FRAMED | _DONE):
                self.f_pos = p + _QH + n
                self.f_off = 0
                continue
            if self.next_lseq > self._low() + window - 1:
                return
            limit = self._flimit()
            if self.f_off == 0:  # an envelope's first frame holds its whole header (link.py FIRST_FRAME)
                cap = self._limit()
                f1 = cap if cap < FIRST_FRAME else FIRST_FRAME
                if limit < f1:
                    limit = f1
            first = self.f_off == 0 and not self.f_msg  # whole or fragmented: decided at the first cut
            whole = first and HDR + n <= limit
            if first and not whole:
                if not (self.peer.caps & CAP_FRAG and self.hello.caps & CAP_FRAG):
                    struct.pack_into("<I", q, p + 8, _FRAMED | _DONE)
                    self._event("GaveUp", {"envelope": bytes(self.qmv[p + _QH:p + _QH + n]), "code": "TOO_LARGE"})
                    self._trim()
                    continue
                self.f_msg = self.next_msg
                self.next_msg = self.next_msg % 0xFFFFFFFF + 1
            slot = self.s_lseq.index(0)
            so = slot * self.fbytes
            s = self.slots
            lseq = self.next_lseq
            if whole:
                header_into(s, so, T_DATA, 0, lseq)
                s[so + HDR:so + HDR + n] = self.qmv[p + _QH:p + _QH + n]
                flen = HDR + n
                done = True
            else:
                k = n - self.f_off
                if k > limit - FRAG_HDR:
                    k = limit - FRAG_HDR
                header_into(s, so, T_DATA, F_FRAG, lseq)
                struct.pack_into("<III", s, so + HDR, self.f_msg, self.f_off, n)
                a = p + _QH + self.f_off
                s[so + FRAG_HDR:so + FRAG_HDR + k] = self.qmv[a:a + k]
                flen = FRAG_HDR + k
                self.f_off += k
                done = self.f_off == n
            frames = struct.unpack_from("<H", q, p + 4)[0] + 1
            struct.pack_into("<H", q, p + 4, frames)
            if done:
                struct.pack_into("<I", q, p + 8, _FRAMED)
                self.f_pos = p + _QH + n
                self.f_off = 0
                self.f_msg = 0
            self.next_lseq = lseq + 1
            self.s_lseq[slot] = lseq
            self.s_len[slot] = flen
            self.s_entry[slot] = p
            self.s_tries[slot] = 0
            self.s_fast_n[slot] = 0
            self.s_gen[slot] = self.fgen
            self._transmit(slot, now, False)

    def _transmit(self, i, now, retransmit, fast=False):
        """Put DATA slot ``i`` out. Its timer is the RTO; for a loss-detected (fast) resend 2 SRTT (at least
        rto_min, doubling with each fast resend of it in a row) if shorter: a noisy line loses the resend too
        and the window waits on it, but a loaded peer must not be flooded either."""
        self.s_tries[i] += 1
        self.s_fast[i] = 1 if fast else 0
        self.s_fast_n[i] = self.s_fast_n[i] + 1 if fast else 0
        self.txo += 1
        self.s_txo[i] = self.txo
        self.s_sent[i] = now
        rto = self.rto
        if fast and self.srtt >= 0:
            two = (self.srtt + 16) // 32  # 2 SRTT in ms, rounded (SRTT is kept in 1/64 ms)
            fn = self.s_fast_n[i] - 1
            t = (two if two > self.rto_min else self.rto_min) << (fn if fn < 16 else 16)
            if t < rto:
                rto = t
        self.s_dead[i] = now + rto
        if retransmit:
            self.retransmits += 1
            self._lost(i)
        so = i * self.fbytes
        self._emit(self.smv[so:so + self.s_len[i]], now)

    def _trim(self):
        """Drop fully acknowledged entries from the front of the queue."""
        q = self.q
        while self.q_start < self.q_end:
            n, _fr, _ak, st = struct.unpack_from("<IHHI", q, self.q_start)
            if not st & _DONE:
                break
            self.q_start += _QH + n
        if self.f_pos < self.q_start:
            self.f_pos = self.q_start
            self.f_off = 0
        if self.q_start == self.q_end:
            self.q_start = self.q_end = self.f_pos = 0
            self.f_off = 0

    # --------------------------------------------------------------- receive
    def receive(self, body, now):
        """Handle one received frame body (bytes-like, CRC already checked by the framer)."""
        n = len(body)
        if n >= 2 and body[0] == 0xBB and body[1] == 0xE1:
            if self.mismatch:
                self._event("BadLinkFrame", {"code": "VERSION"})
                return
            self._heard(now, False)
            self.deliver(body, True)  # a bare v1 envelope: no link layer, handed up unacknowledged
            return
        lim = self.hello.max_frame if self.hello.max_frame > MAX_HELLO else MAX_HELLO
        ev, code, rec = check(body, n, lim)
        if ev is not None:
            self._event(ev, {"code": code})
            return
        t = body[2]
        if t == T_HELLO:
            ok = self._on_hello(rec, body, now)
        elif t == T_DATA:
            ok = self._on_data(body, n, now)
        elif t == T_ACK:
            ok = self._on_ack(body, now)
        else:
            ok = True
            self._heard(now, True)
            pres = []
            for p in range(HDR, n, 5):
                pres.append([struct.unpack_from("<I", body, p)[0], body[p + 4]])
            self._event("HeartbeatReceived", {"presence": pres})
        if ok:
            self._pump(now)

    def _heard(self, now, monitor):
        self.last_heard = now
        if monitor:
            self.monitored = True
        if self.peer_down:
            self.peer_down = False
            self._event("PeerUp")
            for i in range(len(self.s_lseq)):  # resend at once what it missed, not after a backed-off timer
                if self.s_lseq[i]:
                    self.s_dead[i] = now
            self.rto = self._computed_rto()

    def _on_hello(self, rec, body, now):
        old = self.peer
        if old is not None and rec.node_id == old.node_id and rec.boot_epoch < old.boot_epoch:
            self._event("EpochRegressed", {"known": old.boot_epoch, "got": rec.boot_epoch})
            return False
        self._heard(now, True)
        if not body[3] & F_REPLY:
            self._send_hello(True, now)
        if old is not None and rec.node_id == old.node_id and rec.boot_epoch == old.boot_epoch:
            return True  # a repeat
        self.peer = rec
        if old is not None:
            self._event("PeerRestarted", {"old_epoch": old.boot_epoch, "new_epoch": rec.boot_epoch})
        self._new_session()
        v = negotiate(self.hello.min_version, self.hello.max_version, rec.min_version, rec.max_version)
        if not v:
            self.version = 0
            self.up = False
            self.mismatch = True
            self._event("VersionMismatch", {"node_id": rec.node_id, "peer_min": rec.min_version,
                                            "peer_max": rec.max_version})
            return True
        self.version = v
        self.up = True
        self.mismatch = False
        self._event("LinkUp", {"node_id": rec.node_id, "boot_epoch": rec.boot_epoch, "version": v})
        return True

    def _new_session(self):
        """Clear receive state; every envelope not fully acknowledged goes again, in order, from lseq 1."""
        self.cum = 0
        self.mask = 0
        for k in range(len(self.r_id)):
            self.r_id[k] = 0
        for i in range(len(self.s_lseq)):
            self.s_lseq[i] = 0
        q = self.q
        p = self.q_start
        while p < self.q_end:
            n, _fr, _ak, st = struct.unpack_from("<IHHI", q, p)
            if not st & _DONE:
                struct.pack_into("<HHI", q, p + 4, 0, 0, 0)
            p += _QH + n
        self.f_pos = self.q_start
        self.f_off = 0
        self.f_msg = 0
        self.next_lseq = 1
        self.next_msg = 1

    def _abandon(self, now):
        """A frame ran out of retries: give up every queued envelope and start a new session (next epoch)."""
        q = self.q
        p = self.q_start
        while p < self.q_end:
            n, _fr, _ak, st = struct.unpack_from("<IHHI", q, p)
            if not st & _DONE:
                self._event("GaveUp", {"envelope": bytes(self.qmv[p + _QH:p + _QH + n]), "code": "RETRIES"})
            p += _QH + n
        self.q_start = self.q_end = 0
        self._new_session()
        if self.fsize > START_FRAME:  # frames cut too big may be why: start small again
            self.fsize = START_FRAME
        self.fgen += 1
        self.hello.boot_epoch = (self.hello.boot_epoch + 1) & 0xFFFFFFFF or 1  # the peer must start over too
        self.peer = None
        self.up = False
        self.version = 0
        self.mismatch = False
        self.rto = self._computed_rto()
        self._send_hello(False, now)

    def _on_data(self, body, n, now):
        if not self.up:
            self._event("BadLinkFrame", {"code": "VERSION" if self.mismatch else "NO_SESSION"})
            if not self.mismatch:
                self._send_hello(False, now)
            return False
        lseq = struct.unpack_from("<I", body, 4)[0]
        d = lseq - self.cum
        if d <= 0 or (d <= 32 and self.mask >> (d - 1) & 1):
            self._heard(now, True)
            self._send_ack(now)  # a duplicate: its ack was lost
            return True
        if d > self.hello.window:
            self._event("BadLinkFrame", {"code": "OUT_OF_WINDOW"})
            return False
        k = -1
        if body[3] & F_FRAG:
            k = self._reassemble(body, n, lseq, now)
            if k < 0:
                return False  # refused: not acknowledged, nothing changed
        self.mask |= 1 << (d - 1)
        while self.mask & 1:
            self.mask >>= 1
            self.cum += 1
        self._send_ack(now)  # before anything the delivery makes the node send
        self._heard(now, True)
        if k < 0:
            self.deliver(memoryview(body)[HDR:n], False)
        elif k < len(self.r_id) and self.r_got[k] == self.r_total[k]:
            s = self.r_start[k]
            self.r_id[k] = 0
            self.deliver(self.amv[s:s + self.r_total[k]], False)
        return True

    # ---------------------------------------------------------- reassembly
    def _reassemble(self, body, n, lseq, now):
        """Place one fragment; return its message slot (len(r_id) for a repeat), or -1 after FragmentRejected."""
        mid, off, total = struct.unpack_from("<III", body, HDR)
        clen = n - FRAG_HDR
        if mid == 0:
            return self._refuse(mid, "BAD_FIELD")
        if off + clen > total or total <= clen:
            return self._refuse(mid, "OUT_OF_RANGE")
        k = -1
        for i in range(len(self.r_id)):
            if self.r_id[i] == mid:
                k = i
                break
        mc = self.max_chunks
        if k >= 0:
            if self.r_total[k] != total:
                return self._refuse(mid, "LENGTH_MISMATCH")
            b = k * mc
            for j in range(b, b + self.r_n[k]):
                o = self.r_off[j]
                ln = self.r_len[j]
                if o == off and ln == clen:
                    return len(self.r_id)  # the same chunk again (already held): nothing new
                if off < o + ln and o < off + clen:
                    return self._refuse(mid, "OVERLAP")
            if self.r_n[k] >= mc:
                return self._refuse(mid, "BUDGET")  # more pieces than this end keeps track of
        else:
            used = 0
            for i in range(len(self.r_id)):
                if self.r_id[i]:
                    used += self.r_total[i]
            if total > self.budget - used:
                return self._refuse(mid, "BUDGET")
            # messages start in lseq order: a message held while an earlier one is refused would wait
            # forever for fragments the window cannot reach (the refused frame pins the window)
            if lseq != self.cum + 1:
                return self._refuse(mid, "ORDER")
            start = self._alloc(total) if 0 in self.r_id else -1  # within the budget, but no free record
            if start < 0:
                return self._refuse(mid, "BUDGET")
            k = self.r_id.index(0)
            self.r_id[k] = mid
            self.r_start[k] = start
            self.r_total[k] = total
            self.r_got[k] = 0
            self.r_t0[k] = now
            self.r_n[k] = 0
        j = k * mc + self.r_n[k]
        self.r_off[j] = off
        self.r_len[j] = clen
        self.r_n[k] += 1
        self.r_got[k] += clen
        a = self.r_start[k] + off
        self.arena[a:a + clen] = memoryview(body)[FRAG_HDR:n]
        return k

    def _refuse(self, mid, code):
        self._event("FragmentRejected", {"msg_id": mid, "code": code})
        return -1

    def _alloc(self, total):
        """Start of a free region of ``total`` bytes in the arena (compacting if needed), or -1."""
        used = 0
        for i in range(len(self.r_id)):
            if self.r_id[i]:
                used += self.r_total[i]
        if total > self.budget - used or 0 not in self.r_id:
            return -1
        pos = 0
        moved = True
        while moved:  # first fit: a held region overlapping [pos, pos + total) pushes pos past it
            moved = False
            for i in range(len(self.r_id)):
                if self.r_id[i] and self.r_start[i] < pos + total and pos < self.r_start[i] + self.r_total[i]:
                    pos = self.r_start[i] + self.r_total[i]
                    moved = True
        if pos + total <= self.budget:
            return pos
        pos = 0  # compact: slide held messages down in address order; the free space is then at the end
        while True:
            best = -1
            for i in range(len(self.r_id)):
                if self.r_id[i] and self.r_start[i] >= pos and (best < 0 or self.r_start[i] < self.r_start[best]):
                    best = i
            if best < 0:
                return pos
            s = self.r_start[best]
            t = self.r_total[best]
            if s != pos:
                self.arena[pos:pos + t] = self.amv[s:s + t]
                self.r_start[best] = pos
            pos += t

    # ------------------------------------------------------------------ acks
    def _on_ack(self, body, now):
        cum = struct.unpack_from("<I", body, 4)[0]
        highest = self.next_lseq - 1 if self.up else 0
        top = cum
        for bi in range(3, -1, -1):  # cum + bit_length(mask), the mask read byte by byte (no 32-bit int)
            m = body[8 + bi]
            if m:
                top = cum + 8 * bi + _bit_length(m)
                break
        if top > highest:
            self._event("AckUnknown", {"cum": cum, "mask": struct.unpack_from("<I", body, 8)[0]})
            return False
        self._heard(now, True)
        newest = 0
        sample = -1
        acked = False
        clean = 0
        gen = self.fgen
        flim = self._flimit()
        w = len(self.s_lseq)
        q = self.q
        for i in range(w):
            v = self.s_lseq[i]
            if not v:
                continue
            if v > cum:
                d = v - cum - 1
                if d >= 32 or not body[8 + (d >> 3)] >> (d & 7) & 1:
                    continue
            acked = True
            # what was delivered after what: a frame sent before the latest transmission of a frame acked now
            # was lost or refused (a line does not reorder); a resent frame says so only if the ACK came at
            # least SRTT/2 after its resend (sooner, it answers an earlier transmission), as link.py
            if self.s_txo[i] > newest and (self.s_tries[i] == 1 or (
                    self.srtt >= 0 and (now - self.s_sent[i]) * 128 >= self.srtt)):
                newest = self.s_txo[i]
            if self.s_tries[i] == 1 and (sample < 0 or v > self.s_lseq[sample]):  # Karn: sent once only
                sample = i
            if self.grow_after and self.s_tries[i] == 1 and self.s_gen[i] == gen and 2 * self.s_len[i] > flim:
                clean += 1  # a full-size frame (a small one says nothing about full-size ones)
            p = self.s_entry[i]
            n, fr, ak, st = struct.unpack_from("<IHHI", q, p)
            ak += 1
            struct.pack_into("<H", q, p + 6, ak)
            if st & _FRAMED and ak == fr:
                struct.pack_into("<I", q, p + 8, _FRAMED | _DONE)
        if not acked:
            return True
        if sample >= 0:
            self._rtt_sample(now - self.s_sent[sample])
        for i in range(w):  # free what was acknowledged (after the sample read its send time)
            v = self.s_lseq[i]
            if v and (v <= cum or (v - cum - 1 < 32 and body[8 + ((v - cum - 1) >> 3)] >> ((v - cum - 1) & 7) & 1)):
                self.s_lseq[i] = 0
        self._trim()
        # RFC 6298 5.3: an ACK of new data restarts the timer of what is still in flight (as link.py)
        restart = now + self.rto
        for i in range(w):
            if self.s_lseq[i] and not self.s_fast[i] and self.s_dead[i] < restart:
                self.s_dead[i] = restart
        # a frame sent before one now acknowledged and still unacked was lost: resend it now, in lseq order
        for v in range(self._low(), self.next_lseq):
            for i in range(w):
                if self.s_lseq[i] == v:
                    if self.s_txo[i] < newest:
                        self._transmit(i, now, True, True)
                    break
        if clean and gen == self.fgen:  # counted after the losses this ACK shows (they may shrink the size)
            self._clean_frames(clean)
        return True

    def _rtt_sample(self, r):
        """RFC 6298 (2.2, 2.3): alpha 1/8, beta 1/4, SRTT and RTTVAR in 1/64 ms; any back-off is dropped."""
        self.rtt_samples += 1
        r64 = (r if r > 0 else 0) * 64
        if self.srtt < 0:
            self.srtt = r64
            self.rttvar = r64 // 2
        else:
            d = self.srtt - r64
            self.rttvar = (3 * self.rttvar + (d if d >= 0 else -d)) // 4
            self.srtt = (7 * self.srtt + r64) // 8
        self.rto = self._computed_rto()

    def _computed_rto(self):
        if self.srtt < 0:
            return self.rto_initial
        k = 4 * self.rttvar
        g = self.granularity * 64
        rto = (self.srtt + (k if k > g else g) + 63) // 64
        return self.rto_min if rto < self.rto_min else self.rto_max if rto > self.rto_max else rto

    def srtt_ms(self):
        """The smoothed RTT in ms (-1 before the first sample)."""
        return -1 if self.srtt < 0 else self.srtt // 64

    # ------------------------------------------------------------------ time
    def poll(self, now):
        """Run the timers due at ``now``: HELLO repeat, liveness, reassembly, retransmission, heartbeat."""
        if not self.started:
            return
        if self.peer is None and now >= self.hello_due:
            self._send_hello(False, now)
        # every test compares ``now`` with the very sum next_deadline() returns
        if self.dead_after > 0 and self.monitored and not self.peer_down and now >= self.last_heard + self.dead_after:
            self.peer_down = True
            self._event("PeerDown")
        for k in range(len(self.r_id)):
            if self.r_id[k] and now >= self.r_t0[k] + self.reassembly_timeout:
                self._event("ReassemblyTimeout", {"msg_id": self.r_id[k], "received": self.r_got[k],
                                                  "total_len": self.r_total[k]})
                self.r_id[k] = 0
        if not self.peer_down:
            w = len(self.s_lseq)
            expired = False
            for i in range(w):  # a frame out of retries ends the session before anything is resent
                if self.s_lseq[i] and self.s_dead[i] <= now:
                    if self.s_tries[i] >= self.max_retries:
                        self._abandon(now)
                        return
                    expired = True
            if expired:
                # back off when the oldest frame's timer expires (RFC 6298 5.5: one timer, for the earliest
                # frame); later frames expiring in its shadow, and fast resends, do not compound it
                low = self._low()
                for i in range(w):
                    if self.s_lseq[i] == low:
                        if self.s_dead[i] <= now and not self.s_fast[i]:
                            r = self.rto * 2
                            self.rto = r if r < self.rto_max else self.rto_max
                        break
                for v in range(low, self.next_lseq):  # expired frames, in lseq order
                    for i in range(w):
                        if self.s_lseq[i] == v:
                            if self.s_dead[i] <= now:  # a fast frame stays fast, its own timer doubling
                                self._transmit(i, now, True, self.s_fast[i])
                            break
        self._pump(now)
        if self.hb_interval > 0 and now >= self.last_sent + self.hb_interval:
            header_into(self.ctl, 0, T_HEARTBEAT, 0, 0)
            self._emit(self.cmv[:HDR], now)

    def next_deadline(self):
        """The earliest time (ms) :meth:`poll` has something to do, or None."""
        if not self.started:
            return None
        t = self.hello_due if self.peer is None else -1
        if self.hb_interval > 0:
            d = self.last_sent + self.hb_interval
            t = d if t < 0 or d < t else t
        if self.dead_after > 0 and self.monitored and not self.peer_down:
            d = self.last_heard + self.dead_after
            t = d if t < 0 or d < t else t
        if not self.peer_down:
            for i in range(len(self.s_lseq)):
                if self.s_lseq[i] and (t < 0 or self.s_dead[i] < t):
                    t = self.s_dead[i]
        for k in range(len(self.r_id)):
            if self.r_id[k]:
                d = self.r_t0[k] + self.reassembly_timeout
                t = d if t < 0 or d < t else t
        return None if t < 0 else t


def _bit_length(m):
    """Bits needed for a byte value m > 0."""
    i = 0
    while m:
        m >>= 1
        i += 1
    return i
