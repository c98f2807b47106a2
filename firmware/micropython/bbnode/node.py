"""A fleet node: frames in, envelopes decoded, Recv edges joined per request_id, program run, Send edges out.

Mirrors firmware/src/bbrt_node.c message for message (same replies), so a MicroPython node and a C node are
interchangeable on a link. ``link`` is anything with ``write(bytes)`` (a ``machine.UART``, or an in-memory
object in tests); received bytes are fed with :meth:`Node.feed` (from ``uart.read()``) or whole envelopes with
:meth:`Node.handle` (MQTT).

On a serial line with ``link_layer=True`` the node speaks the link layer of docs/wire.md through
:class:`bbnode.link.Link` (HELLO with the boot epoch, acks and retransmission, fragmentation, heartbeats);
:meth:`Node.poll` runs its timers. Envelope ``seq`` is ``(boot_epoch << 32) | n`` with ``n`` from 1 at boot.
Every data envelope passes the engine's rules (bbnode/rules.py) before it changes anything: receiver, known
edge, declared producer (graph inputs only from the host), contract, then the per-sender seq window; the
window records it only once it was applied.
"""
from bbnode import envelope as E
from bbnode import framing
from bbnode import rules

CTRL_HELLO, CTRL_PING, CTRL_PONG, CTRL_BYE, CTRL_ERROR = 1, 2, 3, 4, 5
PROTO_DATAFLOW, PROTO_CONTROL = 0, 1
PROTO_OTA = 24  # program updates (bbnode/ota.py)


def boot_epoch(path="boot_epoch"):
    """Increment and return the boot epoch kept in the file ``path`` (1 on the first boot).

    Written before the node sends anything, so every boot gets a larger epoch than the last one
    (a file that cannot be read counts as epoch 0; one that cannot be written raises, as a node that
    cannot keep its epoch must not reuse one).
    """
    epoch = 0
    try:
        with open(path) as f:
            epoch = int(f.read().strip() or 0)
    except (OSError, ValueError):
        epoch = 0
    epoch = (epoch + 1) & 0xFFFFFFFF or 1
    with open(path, "w") as f:
        f.write(str(epoch))
    return epoch


class Stats:
    """Counters (the C node's ``bbrt_node_stats_t``)."""

    def __init__(self):
        self.frames_ok = 0
        self.bad_frames = 0
        self.bad_envelopes = 0
        self.not_for_me = 0
        self.pings = 0
        self.inferences = 0
        self.unknown_edge = 0
        self.edge_mismatch = 0
        self.evicted = 0
        self.run_errors = 0
        self.unauthorised = 0
        self.duplicates = 0
        self.stale_epoch = 0
        self.tx_dropped = 0
        self.bad_hello = 0
        self.epoch_regressed = 0
        self.link_events = {}


class Node:
    """One node running one program; output goes to ``send(envelope_bytes)``, or over the link layer, or
    framed to ``link.write``."""

    def __init__(self, program, link=None, max_payload=4096, send=None, boot_epoch=1, name="node",
                 link_layer=False, link_opts=None, program_hash=b"\x00" * 32, seq_window=1024, seq_epochs=4,
                 epoch_file=None):
        self.prog = program
        self.link = link
        self.max_payload = max_payload
        self._send = send
        self.boot_epoch = boot_epoch
        self.link_epoch = boot_epoch
        self.epoch_file = epoch_file
        self.name = name
        self.program_hash = program_hash
        self.stats = Stats()
        self.seq = 0  # n of the last envelope sent; the wire seq is (boot_epoch << 32) | n
        self.seqf = rules.SeqFilter(seq_window, seq_epochs)
        self.peer_epochs = {}  # sender -> boot epoch of its last HELLO
        self.now = 0
        self.pending = False
        self.pending_req = 0
        self.have = 0
        self.ota = None  # a bbnode.ota.OtaNode (main.py attaches one): over-the-air program updates
        self.clock = None  # ms clock read per handled envelope where no poll(now) runs (MQTT)
        self._bind(program)
        max_env = 96 + max_payload
        self.txbuf = bytearray(max_env + 4)
        self.ll = None
        if link_layer:
            from bbnode.link import Hello, Link
            opts = dict(link_opts or {})
            mtu = opts.pop("max_frame", 4096)
            window = opts.pop("window", 8)
            opts.setdefault("reassembly_budget", 2 * max_env)
            self.ll = Link(self.hello_record(mtu, window), self._write_frame, self._deliver, **opts)
            cap = mtu if mtu > max_env else max_env
            self.fbody = bytearray(mtu + 4)
        else:
            cap = max_env
        self.rx = framing.Deframer(cap)
        self.frame = bytearray(framing.max_frame(cap))

    def _bind(self, program):
        self.need = 0
        self.recv = {}
        for i, e in enumerate(program.edges):
            if e.direction == 0:
                self.need |= 1 << i
                self.recv[e.edge_id] = (i, e)

    def install(self, program, program_hash):
        """Run ``program`` from now on (an update switching at an idle point); HELLOs carry its hash."""
        self.prog = program
        self.program_hash = bytes(program_hash)
        self._bind(program)
        self.pending = False
        self.have = 0
        if self.ll is not None:
            self.ll.hello.program_hash = self.program_hash

    def _ota_out(self, replies):
        """Send the OTA replies to the deployer (host); a SWITCHED is followed by a HELLO with the new hash."""
        for t, payload in replies:
            env = E.Envelope(kind=E.KIND_CONTROL, protocol=PROTO_OTA, receiver=self.ota.reply_to, edge=t, dtype=2,
                             dims=(len(payload),))
            self._emit(env, payload)
            if t == 7 or self.ota.hello_due:  # SWITCHED, or an ABORT put the previous program back
                self.ota.hello_due = False
                self.hello()

    def _ota_poll(self):
        if self.ota is not None and self.ota.busy:
            self._ota_out(self.ota.poll(self.now, not self.pending))

    def hello_record(self, max_frame=None, window=8):
        """This node's hello record (docs/wire.md) as a :class:`bbnode.link.Hello`."""
        from bbnode.link import CAP_ARQ, CAP_FRAG, Hello
        return Hello(1, 1, CAP_ARQ | CAP_FRAG, self.boot_epoch, self.prog.node_id,
                     max_frame or 96 + self.max_payload, window, self.name, self.program_hash)

    # ------------------------------------------------------------------ output
    def _write_frame(self, mv):
        """The link layer's frame body out: COBS + CRC framed onto the line."""
        n = len(mv)
        self.fbody[:n] = mv
        m = framing.frame_into(self.fbody, n, self.frame)
        self.link.write(memoryview(self.frame)[:m])

    def _deliver(self, mv, bare):
        """An envelope from the link layer (``bare``: it came without a link header)."""
        self.handle(mv)

    def _emit(self, env, payload):
        self.seq += 1
        env.seq = (self.boot_epoch << 32) | self.seq
        env.sender = self.prog.node_id
        n = len(payload)
        doff = E.header_into(self.txbuf, env, n)
        if n:
            self.txbuf[doff:doff + n] = payload
        total = doff + n
        if self._send is not None:
            self._send(bytes(self.txbuf[:total]))
            return
        if self.ll is not None:
            if not self.ll.send(memoryview(self.txbuf)[:total], self.now):
                self.stats.tx_dropped += 1
            return
        m = framing.frame_into(self.txbuf, total, self.frame)
        self.link.write(memoryview(self.frame)[:m])

    def control(self, code, receiver, response_to=0, request_id=0, text=b""):
        """Send a control message (HELLO, PONG, ERROR, ...)."""
        text = bytes(text[:200])  # a hello record is at most 116 bytes
        env = E.Envelope(kind=E.KIND_CONTROL, protocol=PROTO_CONTROL, receiver=receiver, edge=code, dtype=2,
                         dims=(len(text),), request_id=request_id)
        if code == CTRL_PONG:
            env.flags = E.RESPONSE
            env.response_to = response_to
        if code == CTRL_ERROR:
            env.flags = E.ERROR
        self._emit(env, text)

    def hello(self, name=None):
        """Announce the node: the control envelope HELLO (broadcast) carrying the hello record."""
        from bbnode.link import hello_into
        if name is not None:
            self.name = name
        h = self.hello_record()
        rec = bytearray(52 + len(h.name))
        hello_into(h, rec)
        self.control(CTRL_HELLO, E.BROADCAST, text=rec)

    def _send_outputs(self, request_id):
        for e in self.prog.edges:
            if e.direction != 1:
                continue
            t = self.prog.tensors[e.tensor]
            to = e.peer if e.peer else rules.reply_to(request_id)  # a graph output: to the request's owner
            env = E.Envelope(kind=E.KIND_DATA, protocol=PROTO_DATAFLOW, receiver=to, request_id=request_id,
                             edge=e.edge_id, dtype=t.dtype, dims=t.dims)
            if t.dtype == 3 or t.dtype == 2:
                env.flags = E.QUANT
                env.scale = t.scale
                env.zero_point = t.zp
            self._emit(env, memoryview(t.bytes)[t.byte_base:t.byte_base + t.nbytes])

    # ------------------------------------------------------------------- input
    def _accept(self, env):
        hit = self.recv.get(env.edge)
        if hit is None:
            self.stats.unknown_edge += 1
            return "UNKNOWN_EDGE"
        i, e = hit
        if not rules.authorised(e.peer, env.sender, env.request_id):
            self.stats.unauthorised += 1
            return "UNAUTHORISED"
        t = self.prog.tensors[e.tensor]
        if env.dtype != t.dtype or len(env.payload) != t.nbytes or len(env.dims) != t.rank:
            self.stats.edge_mismatch += 1
            return "EDGE_MISMATCH"
        for k in range(t.rank):  # the contract is the shape, not only the byte count
            if env.dims[k] != t.dims[k]:
                self.stats.edge_mismatch += 1
                return "EDGE_MISMATCH"
        # an int8 edge's scale and zero point are contract (both ends quantize with them, as the C node)
        if env.flags & E.QUANT and t.dtype == 3 and (env.scale != t.scale or env.zero_point != t.zp):
            self.stats.edge_mismatch += 1
            return "EDGE_MISMATCH"
        verdict = self.seqf.check(env.sender, env.seq)
        if verdict == rules.DUPLICATE:
            self.stats.duplicates += 1
            return "DUPLICATE"
        if verdict == rules.STALE_EPOCH:
            self.stats.stale_epoch += 1
            return "STALE_EPOCH"
        # every check passed: from here on the envelope is applied, and only then recorded as seen
        if self.pending and self.pending_req != env.request_id:
            self.stats.evicted += 1
            self.have = 0
        self.pending = True
        self.pending_req = env.request_id
        if t.nbytes:  # copied as it is: never requantized
            t.bytes[t.byte_base:t.byte_base + t.nbytes] = env.payload
        self.seqf.record(env.sender, env.seq)
        self.have |= 1 << i
        if self.have & self.need == self.need:
            self.pending = False
            self.have = 0
            try:
                self.prog.run()
            except Exception as exc:  # noqa: BLE001 - reported to the peer like the C node does
                self.stats.run_errors += 1
                self.control(CTRL_ERROR, rules.reply_to(env.request_id), 0, env.request_id, str(exc).encode())
                return "RUN_ERROR"
            self.stats.inferences += 1
            self._send_outputs(env.request_id)
            self._ota_poll()  # an idle point: a committed update switches here
        return "OK"

    def handle(self, buf):
        """Handle one envelope (bytes-like); return a status name."""
        try:
            env = E.decode(buf, self.max_payload)
        except E.EnvelopeError as exc:
            self.stats.bad_envelopes += 1
            return exc.code
        if env.receiver != self.prog.node_id and env.receiver != E.BROADCAST:
            self.stats.not_for_me += 1
            return "WRONG_RECEIVER"
        if self.clock is not None:
            self.now = self.clock()
        if env.kind == E.KIND_CONTROL:
            if env.protocol == PROTO_OTA and self.ota is not None:
                self._ota_out(self.ota.message(env.sender, env.edge, env.payload, self.now))
                self._ota_poll()
            elif env.protocol == PROTO_CONTROL and env.edge == CTRL_PING:
                self.stats.pings += 1
                self.control(CTRL_PONG, env.sender, env.seq, env.request_id)
            elif env.protocol == PROTO_CONTROL and env.edge == CTRL_HELLO:
                from bbnode.link import LinkError, hello_decode
                try:
                    h = hello_decode(env.payload)
                except LinkError:
                    self.stats.bad_hello += 1
                    return "BAD_HELLO"
                if h.node_id != env.sender:
                    self.stats.bad_hello += 1
                    return "BAD_HELLO"
                known = self.peer_epochs.get(env.sender)
                if known is not None and h.boot_epoch < known:
                    self.stats.epoch_regressed += 1  # as the engine: an older epoch changes nothing
                    return "EPOCH_REGRESSED"
                if known is None or h.boot_epoch > known:
                    self.peer_epochs[env.sender] = h.boot_epoch
                    self.seqf.start_epoch(env.sender, h.boot_epoch)  # a reboot: a new, empty window
            return "OK"
        if env.protocol != PROTO_DATAFLOW:
            return "OK"
        return self._accept(env)

    def feed(self, data, now=None):
        """Feed received serial bytes (bytes or bytearray); ``now`` in ms drives the link layer's timers."""
        if now is not None:
            self.now = now
        if not isinstance(data, (bytes, bytearray)):
            data = bytes(data)
        rx = self.rx
        rx.feed(data, self._on_frame)
        self.stats.bad_frames = rx.bad_crc + rx.bad_cobs + rx.too_long + rx.too_short

    def _on_frame(self, body):
        self.stats.frames_ok += 1
        if self.ll is not None:
            self.ll.receive(body, self.now)
            self._link_events()
        else:
            self.handle(body)

    def poll(self, now):
        """Run the link layer's timers (HELLO repeats, retransmission, heartbeats, reassembly timeouts)."""
        self.now = now
        if self.ll is not None:
            self.ll.poll(now)
            self._link_events()
        self._ota_poll()

    def next_deadline(self):
        """When :meth:`poll` next has work (ms), or None."""
        return self.ll.next_deadline() if self.ll is not None else None

    def _link_events(self):
        ll = self.ll
        if not ll.events:
            return
        for name, _fields in ll.take_events():
            c = self.stats.link_events
            c[name] = c.get(name, 0) + 1
            if name == "LinkUp" and ll.peer is not None:
                self.seqf.start_epoch(ll.peer.node_id, ll.peer.boot_epoch)
        if ll.hello.boot_epoch != self.link_epoch:
            # the link gave up a session and moved to the next epoch: keep the file ahead of it, so the
            # next boot does not reuse an epoch the peer has already seen
            self.link_epoch = ll.hello.boot_epoch
            if self.epoch_file:
                with open(self.epoch_file, "w") as f:
                    f.write(str(self.link_epoch))


def serve_uart(node, uart, poll_ms=1):
    """Forever: read the UART, feed the node, run its link timers (on the device).

    ``time.ticks_ms`` wraps, so the node gets a monotonic ms count built from ``ticks_diff``.
    """
    import time
    last = time.ticks_ms()
    now = 0
    if node.ll is not None:
        node.ll.start(now)
    while True:
        t = time.ticks_ms()
        now += time.ticks_diff(t, last)
        last = t
        data = uart.read()
        if data:
            node.feed(data, now)
        node.poll(now)
        if not data:
            time.sleep_ms(poll_ms)
