"""A fleet node: frames in, envelopes decoded, Recv edges joined per request_id, program run, Send edges out.

Mirrors firmware/src/bbrt_node.c message for message (same replies, same seq numbering), so a
MicroPython node and a C node are interchangeable on a link. ``link`` is anything with
``write(bytes)`` (a ``machine.UART``, or an in-memory object in tests); received bytes are fed
with :meth:`Node.feed` (from ``uart.read()``) or whole envelopes with :meth:`Node.handle` (MQTT).
"""
from bbnode import envelope as E
from bbnode import framing

CTRL_HELLO, CTRL_PING, CTRL_PONG, CTRL_BYE, CTRL_ERROR = 1, 2, 3, 4, 5
PROTO_DATAFLOW, PROTO_CONTROL = 0, 1


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


class Node:
    """One node running one program; output goes to ``send(envelope_bytes)`` or, framed, to ``link.write``."""

    def __init__(self, program, link=None, max_payload=4096, send=None):
        self.prog = program
        self.link = link
        self.max_payload = max_payload
        self._send = send
        self.rx = framing.Deframer(96 + max_payload)
        self.stats = Stats()
        self.seq = 0
        self.pending = False
        self.pending_req = 0
        self.have = 0
        self.need = 0
        self.recv = {}
        for i, e in enumerate(program.edges):
            if e.direction == 0:
                self.need |= 1 << i
                self.recv[e.edge_id] = (i, e)
        self.txbuf = bytearray(96 + max_payload + 4)
        self.frame = bytearray(framing.max_frame(96 + max_payload))

    # ------------------------------------------------------------------ output
    def _emit(self, env, payload):
        self.seq += 1
        env.seq = self.seq
        env.sender = self.prog.node_id
        n = len(payload)
        doff = E.header_into(self.txbuf, env, n)
        if n:
            self.txbuf[doff:doff + n] = payload
        total = doff + n
        if self._send is not None:
            self._send(bytes(self.txbuf[:total]))
            return
        c = framing.crc32(memoryview(self.txbuf)[:total])
        for k in range(4):
            self.txbuf[total + k] = (c >> (8 * k)) & 0xFF
        pos = framing.cobs_encode_into(self.txbuf, total + 4, self.frame, 0)
        self.frame[pos] = 0
        self.link.write(memoryview(self.frame)[:pos + 1])

    def control(self, code, receiver, response_to=0, request_id=0, text=b""):
        """Send a control message (HELLO, PONG, ERROR, ...)."""
        text = bytes(text[:200])
        env = E.Envelope(kind=E.KIND_CONTROL, protocol=PROTO_CONTROL, receiver=receiver, edge=code, dtype=2,
                         dims=(len(text),), request_id=request_id)
        if code == CTRL_PONG:
            env.flags = E.RESPONSE
            env.response_to = response_to
        if code == CTRL_ERROR:
            env.flags = E.ERROR
        self._emit(env, text)

    def hello(self, name):
        """Announce the node (HELLO, broadcast)."""
        self.control(CTRL_HELLO, E.BROADCAST, text=name.encode() if isinstance(name, str) else name)

    def _send_outputs(self, request_id):
        for e in self.prog.edges:
            if e.direction != 1:
                continue
            t = self.prog.tensors[e.tensor]
            env = E.Envelope(kind=E.KIND_DATA, protocol=PROTO_DATAFLOW, receiver=e.peer, request_id=request_id,
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
        t = self.prog.tensors[e.tensor]
        if env.dtype != t.dtype or len(env.payload) != t.nbytes:
            self.stats.edge_mismatch += 1
            return "EDGE_MISMATCH"
        if self.pending and self.pending_req != env.request_id:
            self.stats.evicted += 1
            self.have = 0
        self.pending = True
        self.pending_req = env.request_id
        if env.flags & E.QUANT and t.dtype == 3 and (env.scale != t.scale or env.zero_point != t.zp):
            from bbnode.executor import f32, roundeven, sat
            if not env.scale > 0.0 or env.scale > 3.0e38:
                self.stats.edge_mismatch += 1
                return "EDGE_MISMATCH"
            s = f32(env.scale / t.scale)
            p = env.payload
            for j in range(t.count):
                q = p[j] - 256 if p[j] > 127 else p[j]
                t.buf[t.base + j] = sat(roundeven(f32(f32(float(q - env.zero_point)) * s)) + t.zp, -128, 127)
        elif t.nbytes:
            t.bytes[t.byte_base:t.byte_base + t.nbytes] = env.payload
        self.have |= 1 << i
        if self.have & self.need == self.need:
            self.pending = False
            self.have = 0
            try:
                self.prog.run()
            except Exception as exc:  # noqa: BLE001 - reported to the peer like the C node does
                self.stats.run_errors += 1
                self.control(CTRL_ERROR, 0, 0, env.request_id, str(exc).encode())
                return "RUN_ERROR"
            self.stats.inferences += 1
            self._send_outputs(env.request_id)
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
        if env.kind == E.KIND_CONTROL:
            if env.protocol == PROTO_CONTROL and env.edge == CTRL_PING:
                self.stats.pings += 1
                self.control(CTRL_PONG, env.sender, env.seq, env.request_id)
            return "OK"
        if env.protocol != PROTO_DATAFLOW:
            return "OK"
        return self._accept(env)

    def feed(self, data):
        """Feed received serial bytes."""
        rx = self.rx
        for b in data:
            bad0 = rx.bad_crc + rx.bad_cobs + rx.too_long + rx.too_short
            n = rx.push(b)
            if n >= 0:
                self.stats.frames_ok += 1
                self.handle(memoryview(rx.env)[:n])
            elif b == 0:
                self.stats.bad_frames += rx.bad_crc + rx.bad_cobs + rx.too_long + rx.too_short - bad0


def serve_uart(node, uart, poll_ms=1):
    """Forever: read the UART, feed the node (on the device)."""
    import time
    while True:
        data = uart.read()
        if data:
            node.feed(data)
        else:
            time.sleep_ms(poll_ms)
