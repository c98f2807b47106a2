"""The link layer of docs/wire.md ("Link layer") for MicroPython, sans-IO.

Time (``now``, integer milliseconds from any monotonic origin) and received frame bodies go in; frame bodies
(to ``write``), whole envelopes (to ``deliver``) and typed events (``events``, ``(name, detail)`` tuples) come
out. Nothing here reads a clock, touches a UART or sleeps: the node loop (bbnode/node.py) does that, so the
same state machine replays the golden vectors in tests.

Memory is preallocated at construction: ``window`` slots of ``max_frame + 4`` bytes for unacknowledged frames
(the 4 spare bytes let the serial framer append the CRC in place), a queue of ``queue_bytes`` for envelopes
waiting for a window slot, and a reassembly arena of ``reassembly_budget`` bytes shared by at most
``max_msgs`` messages of at most ``max_chunks`` fragments each. Bookkeeping lives in preallocated lists of
small ints. The steady state allocates only per frame (a few memoryview objects, a CRC that is a big int on
32-bit ports), never per byte; nothing grows with traffic.

Bad input (a truncated or forged HELLO, an ACK for a frame never sent, overlapping or out-of-range fragments,
a reassembly budget overrun, an epoch going backwards) gives an event and changes nothing else.
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
HELLO_FIXED = 60  # link header + the 52-byte hello record
RECORD = 52
MAX_NAME = 64
MIN_FRAME = 64
MAX_WINDOW = 30  # the receive mask is kept in a small int (31 bits on 32-bit ports)
OWN_MIN_VERSION = 1
OWN_MAX_VERSION = 1

# event names (the typed events of bb_edge/wire/link.py)
LINK_UP = "LinkUp"
VERSION_MISMATCH = "VersionMismatch"
EPOCH_REGRESSED = "EpochRegressed"
PEER_RESTARTED = "PeerRestarted"
BAD_HELLO = "BadHello"
BAD_LINK_FRAME = "BadLinkFrame"
ACK_UNKNOWN = "AckUnknown"
FRAGMENT_REJECTED = "FragmentRejected"
REASSEMBLY_TIMEOUT = "ReassemblyTimeout"
GAVE_UP = "GaveUp"
PEER_DOWN = "PeerDown"
PEER_UP = "PeerUp"

_REC = "<BBHIIIHH"  # the hello record's fixed fields before program_hash


class LinkError(ValueError):
    """A refused link frame or hello record; ``code`` is TRUNCATED, BAD_VERSION, BAD_FIELD, BAD_LENGTH, ..."""

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


def header_into(out, ftype, flags, lseq):
    """Write the 8-byte link header into ``out``."""
    out[0] = MAGIC0
    out[1] = MAGIC1
    out[2] = ftype
    out[3] = flags
    struct.pack_into("<I", out, 4, lseq)


def negotiate(min_a, max_a, min_b, max_b):
    """The highest common version, or 0 when the ranges do not meet."""
    v = max_a if max_a < max_b else max_b
    lo = min_a if min_a > min_b else min_b
    return v if v >= lo else 0


class Link:
    """One end of a point-to-point link; see the module docstring.

    ``write(mv)`` gets each frame body as a memoryview of a buffer with 4 spare bytes after it (valid during
    the call); ``deliver(mv)`` gets each received envelope (valid during the call). Times are integer ms.
    """

    def __init__(self, hello, write, deliver, rto_initial=1000, rto_min=100, rto_max=8000, max_retries=10,
                 hb_interval=1000, dead_after=3500, reassembly_budget=65536, reassembly_timeout=10000,
                 queue_bytes=None, max_msgs=4, max_chunks=64, granularity=1):
        if hello.window > MAX_WINDOW:
            raise ValueError("window above %d" % MAX_WINDOW)
        self.hello = hello
        self.write = write
        self.deliver = deliver
        self.rto_initial = rto_initial
        self.rto_min = rto_min
        self.rto_max = rto_max
        self.max_retries = max_retries
        self.hb_interval = hb_interval
        self.dead_after = dead_after
        self.budget = reassembly_budget
        self.reassembly_timeout = reassembly_timeout
        self.granularity = granularity
        self.events = []
        mf = hello.max_frame
        self.slots = bytearray(hello.window * (mf + 4))
        self.smv = memoryview(self.slots)
        self.stride = mf + 4
        w = hello.window
        self.s_lseq = [0] * w  # 0: free
        self.s_len = [0] * w
        self.s_tx = [0] * w
        self.s_sent = [0] * w
        self.ctl = bytearray(HELLO_FIXED + MAX_NAME + 4)  # HELLO, ACK, HEARTBEAT
        self.cmv = memoryview(self.ctl)
        qb = queue_bytes if queue_bytes is not None else 2 * reassembly_budget + 64
        self.q = bytearray(qb)
        self.qmv = memoryview(self.q)
        self.q_start = 0  # first byte of the head entry (its 4-byte length)
        self.q_end = 0
        self.q_off = 0  # bytes of the head envelope already put into frames
        self.q_msg = 0  # msg_id of the head envelope while it is being fragmented
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
        self.stats_retransmits = 0
        self.stats_dropped = 0
        self.stats_acks_sent = 0
        self._reset_peer()
        self.started = False
        self.last_tx = 0
        self.last_rx = 0
        self.hello_at = 0

    def _reset_peer(self):
        self.peer = None
        self.peer_epoch = 0
        self.version = 0
        self.up = False
        self.mismatch = False
        self.peer_alive = False
        self.win = 1
        self.frame_cap = self.hello.max_frame
        self.next_lseq = 1
        self.next_msg = 1
        self.cum = 0
        self.mask = 0
        self.srtt = -1  # units of 1/64 ms; -1: no sample yet
        self.rttvar = 0
        self.rto = self.rto_initial

    # ------------------------------------------------------------------ events
    def _event(self, name, detail=None):
        self.events.append((name, detail))

    def take_events(self):
        """The events since the last call (a list of ``(name, detail)``)."""
        ev = self.events
        self.events = []
        return ev

    # ---------------------------------------------------------------- output
    def _send_hello(self, now, reply):
        c = self.ctl
        header_into(c, T_HELLO, F_REPLY if reply else 0, 0)
        n = hello_into(self.hello, c, HDR)
        self._out(self.cmv[:n], now)

    def _send_ack(self, now):
        c = self.ctl
        header_into(c, T_ACK, 0, self.cum)
        struct.pack_into("<I", c, 8, self.mask)
        self.stats_acks_sent += 1
        self._out(self.cmv[:12], now)

    def _send_heartbeat(self, now):
        header_into(self.ctl, T_HEARTBEAT, 0, 0)
        self._out(self.cmv[:HDR], now)

    def _out(self, mv, now):
        self.last_tx = now
        self.write(mv)

    def start(self, now):
        """Begin: send HELLO (repeated every RTO until the peer's arrives)."""
        self.started = True
        self.last_rx = now
        self._send_hello(now, False)
        self.hello_at = now + self.rto

    # ------------------------------------------------------------------ send
    def queued(self):
        """Bytes waiting in the queue (not yet all in window slots)."""
        return self.q_end - self.q_start

    def room(self):
        """Largest envelope :meth:`send` accepts now."""
        free = len(self.q) - (self.q_end - self.q_start) - 4
        return free if free > 0 else 0

    def in_flight(self):
        """Unacknowledged DATA frames."""
        n = 0
        for v in self.s_lseq:
            if v:
                n += 1
        return n

    def send(self, env, now):
        """Queue one envelope (bytes-like); return False if the queue has no room or versions mismatch."""
        n = len(env)
        if self.mismatch or n == 0 or n > self.room():
            return False
        q = self.q
        if self.q_end + 4 + n > len(q):  # compact: the head entry moves to the front
            used = self.q_end - self.q_start
            if used:
                q[0:used] = self.qmv[self.q_start:self.q_end]
            self.q_start = 0
            self.q_end = used
        struct.pack_into("<I", q, self.q_end, n)
        q[self.q_end + 4:self.q_end + 4 + n] = env
        self.q_end += 4 + n
        self._pump(now)
        return True

    def _free_slot(self):
        base = 0
        free = -1
        for i in range(len(self.s_lseq)):
            v = self.s_lseq[i]
            if v == 0:
                if free < 0:
                    free = i
            elif base == 0 or v < base:
                base = v
        return free, base

    def _pump(self, now):
        """Move queued envelopes into window slots as DATA frames and transmit them."""
        while self.up and self.q_end > self.q_start:
            slot, base = self._free_slot()
            if slot < 0 or (base and self.next_lseq >= base + self.win):
                return
            qs = self.q_start
            n = struct.unpack_from("<I", self.q, qs)[0]
            so = slot * self.stride
            cap = self.frame_cap
            s = self.slots
            lseq = self.next_lseq
            if self.q_off == 0 and n + HDR <= cap:
                header_into(self.smv[so:so + HDR], T_DATA, 0, lseq)
                s[so + HDR:so + HDR + n] = self.qmv[qs + 4:qs + 4 + n]
                flen = HDR + n
                done = True
            else:
                if self.q_off == 0:
                    self.q_msg = self.next_msg
                    self.next_msg += 1
                k = n - self.q_off
                if k > cap - FRAG_HDR:
                    k = cap - FRAG_HDR
                header_into(self.smv[so:so + HDR], T_DATA, F_FRAG, lseq)
                struct.pack_into("<III", s, so + HDR, self.q_msg, self.q_off, n)
                a = qs + 4 + self.q_off
                s[so + FRAG_HDR:so + FRAG_HDR + k] = self.qmv[a:a + k]
                flen = FRAG_HDR + k
                self.q_off += k
                done = self.q_off == n
            if done:
                self.q_off = 0
                self.q_start = qs + 4 + n
                if self.q_start == self.q_end:
                    self.q_start = self.q_end = 0
            self.next_lseq = lseq + 1
            self.s_lseq[slot] = lseq
            self.s_len[slot] = flen
            self.s_tx[slot] = 1
            self.s_sent[slot] = now
            self._out(self.smv[so:so + flen], now)

    # --------------------------------------------------------------- receive
    def receive(self, body, now):
        """Handle one received frame body (bytes-like, CRC already checked by the framer)."""
        n = len(body)
        if n >= 2 and body[0] == 0xBB and body[1] == 0xE1:
            self.deliver(body)  # a bare v1 envelope: no link layer, handed up unacknowledged
            return
        if n < HDR or body[0] != MAGIC0 or body[1] != MAGIC1:
            self._event(BAD_LINK_FRAME, "BAD_MAGIC" if n >= 2 else "TRUNCATED")
            return
        t = body[2]
        if t == T_HELLO:
            self._on_hello(body, n, now)
        elif t == T_DATA:
            self._on_data(body, n, now)
        elif t == T_ACK:
            self._on_ack(body, n, now)
        elif t == T_HEARTBEAT:
            if body[3] or body[4] or body[5] or body[6] or body[7] or (n - HDR) % 5:
                self._event(BAD_LINK_FRAME, "BAD_FIELD")
                return
            self._alive(now)
        else:
            self._event(BAD_LINK_FRAME, "BAD_TYPE")

    def _alive(self, now):
        self.last_rx = now
        if not self.peer_alive:
            self.peer_alive = True
            if self.peer is not None:
                self._event(PEER_UP, self.peer.node_id)

    def _on_hello(self, body, n, now):
        if body[3] & ~F_REPLY or body[4] or body[5] or body[6] or body[7]:
            self._event(BAD_HELLO, "BAD_FIELD")
            return
        try:
            h = hello_decode(memoryview(body)[HDR:n])
        except LinkError as exc:
            self._event(BAD_HELLO, exc.code)
            return
        if h.boot_epoch < self.peer_epoch:
            self._event(EPOCH_REGRESSED, h.boot_epoch)
            return
        if h.boot_epoch > self.peer_epoch:
            restarted = self.peer_epoch != 0
            self._new_session(h, now)
            if restarted:
                self._event(PEER_RESTARTED, h.boot_epoch)
            if self.mismatch:
                self._event(VERSION_MISMATCH, (h.min_version, h.max_version))
            else:
                self._event(LINK_UP, self.version)
        self._alive(now)
        if not body[3] & F_REPLY:
            self._send_hello(now, True)
        self._pump(now)

    def _new_session(self, h, now):
        """A newer boot epoch: clear receive state, renumber unacknowledged frames from lseq 1 and resend."""
        self.peer = h
        self.peer_epoch = h.boot_epoch
        self.version = negotiate(OWN_MIN_VERSION, OWN_MAX_VERSION, h.min_version, h.max_version)
        self.mismatch = self.version == 0
        self.up = not self.mismatch
        self.win = h.window if h.window < self.hello.window else self.hello.window
        cap = h.max_frame if h.max_frame < self.hello.max_frame else self.hello.max_frame
        self.frame_cap = cap
        self.cum = 0
        self.mask = 0
        for k in range(len(self.r_id)):
            self.r_id[k] = 0
        # renumber the unacknowledged frames from lseq 1 in their original order and send them again
        order = [i for i in range(len(self.s_lseq)) if self.s_lseq[i]]
        order.sort(key=lambda i: self.s_lseq[i])
        for j in range(len(order)):
            i = order[j]
            so = i * self.stride
            self.s_lseq[i] = j + 1
            struct.pack_into("<I", self.slots, so + 4, j + 1)
            if self.up and j < self.win and self.s_len[i] <= cap:
                self.s_tx[i] += 1  # sent more than once: Karn's rule keeps it out of the RTT estimate
                self.s_sent[i] = now
                self._out(self.smv[so:so + self.s_len[i]], now)
        self.next_lseq = len(order) + 1

    def _on_data(self, body, n, now):
        if body[3] & ~F_FRAG:
            self._event(BAD_LINK_FRAME, "BAD_FIELD")
            return
        if not self.up:
            self.stats_dropped += 1
            if not self.mismatch:
                self._send_hello(now, False)
            return
        lseq = struct.unpack_from("<I", body, 4)[0]
        frag = body[3] & F_FRAG
        if lseq == 0 or n <= (FRAG_HDR if frag else HDR):
            self._event(BAD_LINK_FRAME, "BAD_LENGTH" if lseq else "BAD_FIELD")
            return
        d = lseq - self.cum
        if d <= 0 or (d <= 31 and self.mask >> (d - 1) & 1):
            self._alive(now)
            self._send_ack(now)  # a duplicate: its ack was lost
            return
        if d > self.hello.window:
            self.stats_dropped += 1  # beyond the window we advertised: the sender resends in order
            return
        if frag:
            k = self._reassemble(body, n, now)
            if k < 0:
                return  # refused: not acknowledged, nothing changed
        self._alive(now)
        self.mask |= 1 << (d - 1)
        while self.mask & 1:
            self.mask >>= 1
            self.cum += 1
        if not frag:
            self.deliver(memoryview(body)[HDR:n])
        elif self.r_got[k] == self.r_total[k]:
            s = self.r_start[k]
            self.r_id[k] = 0
            self.deliver(self.amv[s:s + self.r_total[k]])
        self._send_ack(now)

    # ---------------------------------------------------------- reassembly
    def _reassemble(self, body, n, now):
        """Place one fragment; return its message slot, or -1 after a FragmentRejected event."""
        msg_id, off, total = struct.unpack_from("<III", body, HDR)
        clen = n - FRAG_HDR
        if total <= clen or total > self.budget or off + clen > total or msg_id == 0:
            self._event(FRAGMENT_REJECTED, "RANGE")
            return -1
        k = -1
        for i in range(len(self.r_id)):
            if self.r_id[i] == msg_id:
                k = i
                break
        mc = self.max_chunks
        if k >= 0:
            if self.r_total[k] != total:
                self._event(FRAGMENT_REJECTED, "TOTAL_LEN")
                return -1
            b = k * mc
            for j in range(b, b + self.r_n[k]):
                o = self.r_off[j]
                ln = self.r_len[j]
                if o == off and ln == clen:
                    return k  # the same chunk again (already held): nothing to add
                if off < o + ln and o < off + clen:
                    self._event(FRAGMENT_REJECTED, "OVERLAP")
                    return -1
            if self.r_n[k] >= mc:
                self._event(FRAGMENT_REJECTED, "TOO_MANY_CHUNKS")
                return -1
        else:
            start = self._alloc(total)
            if start < 0:
                self._event(FRAGMENT_REJECTED, "BUDGET")
                return -1
            for i in range(len(self.r_id)):
                if self.r_id[i] == 0:
                    k = i
                    break
            self.r_id[k] = msg_id
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

    def _alloc(self, total):
        """Start of a free region of ``total`` bytes in the arena (compacting if needed), or -1."""
        used = 0
        free_slot = False
        for i in range(len(self.r_id)):
            if self.r_id[i]:
                used += self.r_total[i]
            else:
                free_slot = True
        if not free_slot or used + total > self.budget:
            return -1
        pos = 0
        while True:  # first fit: the lowest held region that starts below pos + total pushes pos past it
            moved = False
            for i in range(len(self.r_id)):
                if self.r_id[i] and self.r_start[i] < pos + total and pos < self.r_start[i] + self.r_total[i]:
                    pos = self.r_start[i] + self.r_total[i]
                    moved = True
            if not moved:
                break
        if pos + total <= self.budget:
            return pos
        # compact: slide held messages down in address order, then the free space is at the end
        pos = 0
        while True:
            best = -1
            for i in range(len(self.r_id)):
                if self.r_id[i] and self.r_start[i] >= pos and (best < 0 or self.r_start[i] < self.r_start[best]):
                    best = i
            if best < 0:
                break
            s = self.r_start[best]
            t = self.r_total[best]
            if s != pos:
                self.arena[pos:pos + t] = self.amv[s:s + t]
                self.r_start[best] = pos
            pos += t
        return pos

    # ------------------------------------------------------------------ acks
    def _on_ack(self, body, n, now):
        if n != 12 or body[3]:
            self._event(BAD_LINK_FRAME, "BAD_LENGTH" if n != 12 else "BAD_FIELD")
            return
        cum = struct.unpack_from("<I", body, 4)[0]
        last = self.next_lseq - 1
        if cum > last:
            self._event(ACK_UNKNOWN, cum)
            return
        # the mask byte by byte: bit i means lseq cum + 1 + i (no 32-bit int on the way)
        for bi in range(4):
            m = body[8 + bi]
            if m and cum + 1 + 8 * bi + _top_bit(m) > last:
                self._event(ACK_UNKNOWN, cum)
                return
        if self.peer is None:
            return
        self._alive(now)
        sample = -1
        for i in range(len(self.s_lseq)):
            v = self.s_lseq[i]
            if not v:
                continue
            acked = v <= cum
            if not acked:
                d = v - cum - 1
                if d < 32 and body[8 + (d >> 3)] >> (d & 7) & 1:
                    acked = True
            if acked:
                if self.s_tx[i] == 1:  # Karn's rule: only a frame sent once gives an RTT sample
                    r = now - self.s_sent[i]
                    if r > sample:
                        sample = r
                self.s_lseq[i] = 0
        if sample >= 0:
            self._rtt_sample(sample)
        self._pump(now)

    def _rtt_sample(self, r):
        """RFC 6298 with alpha 1/8, beta 1/4; SRTT and RTTVAR kept in 1/64 ms."""
        r64 = r * 64
        if self.srtt < 0:
            self.srtt = r64
            self.rttvar = r64 // 2
        else:
            d = self.srtt - r64
            if d < 0:
                d = -d
            self.rttvar = (3 * self.rttvar + d) // 4
            self.srtt = (7 * self.srtt + r64) // 8
        k = 4 * self.rttvar
        g = self.granularity * 64
        rto = (self.srtt + (k if k > g else g) + 63) // 64
        self.rto = self.rto_min if rto < self.rto_min else self.rto_max if rto > self.rto_max else rto

    def srtt_ms(self):
        """The smoothed RTT in ms (-1 before the first sample)."""
        return -1 if self.srtt < 0 else self.srtt // 64

    # ------------------------------------------------------------------ time
    def poll(self, now):
        """Timers: HELLO repeats, retransmission, reassembly timeouts, heartbeats, peer liveness."""
        if not self.started:
            self.start(now)
        if self.peer is None:
            if now >= self.hello_at:
                self._send_hello(now, False)
                self.hello_at = now + self.rto
            return
        expired = False
        for i in range(len(self.s_lseq)):
            v = self.s_lseq[i]
            if v and now - self.s_sent[i] >= self.rto:
                if self.s_tx[i] >= self.max_retries:
                    self.s_lseq[i] = 0
                    self._event(GAVE_UP, v)
                    continue
                if not self.up:
                    continue
                so = i * self.stride
                self.s_tx[i] += 1
                self.s_sent[i] = now
                self.stats_retransmits += 1
                self._out(self.smv[so:so + self.s_len[i]], now)
                expired = True
        if expired:  # exponential back-off, once per expiry round
            r = self.rto * 2
            self.rto = r if r < self.rto_max else self.rto_max
        for k in range(len(self.r_id)):
            if self.r_id[k] and now - self.r_t0[k] >= self.reassembly_timeout:
                self._event(REASSEMBLY_TIMEOUT, self.r_id[k])
                self.r_id[k] = 0
        if self.peer_alive and now - self.last_rx >= self.dead_after:
            self.peer_alive = False
            self._event(PEER_DOWN, self.peer.node_id)
        if self.up and now - self.last_tx >= self.hb_interval:
            self._send_heartbeat(now)
        self._pump(now)

    def next_deadline(self):
        """The earliest time (ms) :meth:`poll` has something to do, or None."""
        if not self.started:
            return None
        if self.peer is None:
            return self.hello_at
        t = self.last_tx + self.hb_interval if self.up else None
        if self.peer_alive:
            d = self.last_rx + self.dead_after
            if t is None or d < t:
                t = d
        for i in range(len(self.s_lseq)):
            if self.s_lseq[i]:
                d = self.s_sent[i] + self.rto
                if t is None or d < t:
                    t = d
        for k in range(len(self.r_id)):
            if self.r_id[k]:
                d = self.r_t0[k] + self.reassembly_timeout
                if t is None or d < t:
                    t = d
        return t


def _top_bit(m):
    """Index of the highest set bit of a byte (m > 0)."""
    i = 0
    while m > 1:
        m >>= 1
        i += 1
    return i
