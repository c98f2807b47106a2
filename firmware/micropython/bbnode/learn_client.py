"""FedAvg client role for a MicroPython node: the wire contract of bb_edge/learn/strategies/fedavg.py.

The Python server (protocol 16) and this client (protocol 17) exchange envelopes whose ``edge`` is the
message code and whose ``request_id`` is the round:

    client -> server   JOIN       int64 [samples]          at start, then in place of each HEARTBEAT until
                                                            the server answers (a MODEL_FULL or MODEL)
    server -> client   MODEL      float32 [size], round r   train E local epochs, answer UPDATE (r again:
                                                            the server re-asks a lost UPDATE: train, re-send)
    client -> server   UPDATE     float32 [size], round r   the delta (trained - received), its weight is
                                                            the JOIN's sample count
    client -> server   HEARTBEAT  uint8 [0]                 while idle (the server's phi-accrual detector)
    server -> client   MODEL_FULL float32 [size]            the current model (taken, not trained)

Every model is validated before anything changes (sender is the server, protocol, float32, shape
``(size,)``, a round not older than the last one trained, every value finite); a refusal is a typed event
``("ModelRefused", {"reason": ..., "round": ..., "detail": ...})`` in :attr:`FedAvgClient.events` (reasons
are bb_edge/learn/validation.py's ``RejectReason`` values) and the client keeps its model. With the int
trainer (bbnode/train_int.py, float32 in small ints) a value at or beyond 2**64 is ``norm_too_large``.

Batch order: each epoch shuffles the shard with a Fisher-Yates pass driven by xorshift32 seeded from
``(seed, node id, round)`` (:func:`round_seed`), the same sequence ``bb_edge.mpy.train.batch_order``
computes on the host, so ORT can run the very same batches as the reference.

Shard file (``BBS1``, little-endian): ``b"BBS1" u32 n u16 n_in u8 xtype u8 0`` then the features
(xtype 0: float32[n * n_in]; 1: a float32[256] table and uint8[n * n_in] codes into it) and uint16[n] labels.

Why one file: on the device every module costs import RAM. The FedAvg client and its MQTT and serial
drivers are only used together, and the file mirrors bb_edge/learn/strategies/fedavg.py's client.
"""
import struct

from bbnode import envelope as E
from bbnode.train import Trainer, TrainError, f32_from, zeros

PROTO_SERVER = 16
PROTO_CLIENT = 17
JOIN, MODEL, UPDATE, HEARTBEAT, MODEL_FULL = 1, 2, 3, 4, 6
FLOAT32, UINT8, INT64 = 1, 2, 7
SHARD_MAGIC = b"BBS1"
RECORD_MAGIC, RECORD_VERSION = 0x4E4C4242, 1  # "BBLN": the C client's bbrt_learn_record_t
INF = float("inf")


def round_seed(seed, node_id, rnd):
    """The xorshift32 state (never 0) that orders round ``rnd``'s batches on node ``node_id``."""
    s = (seed * 0x9E3779B1 + node_id * 0x85EBCA77 + rnd * 0xC2B2AE3D + 0x27D4EB2F) & 0xFFFFFFFF
    return s or 1


def shuffle(order, n, state):
    """Fisher-Yates on ``order[:n]`` in place, xorshift32 (13, 17, 5); returns the next state."""
    for i in range(n):
        order[i] = i
    for i in range(n - 1, 0, -1):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        j = state % (i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    return state


class Shard:
    """A client's training data: ``x`` (n x n_in: array('f'), or uint8 codes into ``table``, a float32[256],
    for features with at most 256 distinct values: a quarter of the RAM, exact) and ``y`` (array('H'), n)."""

    def __init__(self, blob):
        if len(blob) < 12 or bytes(blob[:4]) != SHARD_MAGIC:
            raise TrainError("BAD_SHARD", "magic")
        n, n_in, xtype = struct.unpack_from("<IHB", blob, 4)
        start = 12 if xtype == 0 else 12 + 1024
        end = start + (4 if xtype == 0 else 1) * n * n_in
        if xtype > 1 or n < 1 or n > 65535 or n_in < 1 or len(blob) != end + 2 * n:
            raise TrainError("BAD_SHARD", "%d rows of %d (type %d), %d bytes" % (n, n_in, xtype, len(blob)))
        self.n = n
        self.n_in = n_in
        self.table = None if xtype == 0 else f32_from(memoryview(blob)[12:12 + 1024])
        self.x = f32_from(memoryview(blob)[start:end]) if xtype == 0 else bytearray(memoryview(blob)[start:end])
        self.y = zeros("H", n)
        for i in range(n):
            self.y[i] = blob[end + 2 * i] | blob[end + 2 * i + 1] << 8


class FedAvgClient:
    """The FedAvg client target on a MicroPython node (see the module docstring).

    ``send(envelope_bytes)`` publishes one envelope (``MqttLink.send``); :meth:`handle` takes a received
    envelope, :meth:`tick` (ms) joins and sends heartbeats. ``boot_epoch`` numbers the envelopes
    ``(boot_epoch << 32) | n`` as every bb-edge node does.
    """

    def __init__(self, trainer, shard, node_id, server_id=1, send=None, epochs=1, seed=0, boot_epoch=1,
                 heartbeat_ms=1000, name="node", program_hash=b"\x00" * 32):
        if shard.n_in != trainer.n_in:
            raise TrainError("BAD_SHARD", "%d features, the model takes %d" % (shard.n_in, trainer.n_in))
        for i in range(shard.n):
            if shard.y[i] >= trainer.n_classes:
                raise TrainError("BAD_SHARD", "label %d >= %d classes" % (shard.y[i], trainer.n_classes))
        self.trainer = trainer
        self.shard = shard
        # inputs as the trainer holds them (f32int encodings for the int trainer): converted once, here
        self.sx = shard.x if shard.table is not None else trainer.encode_inputs(shard.x)
        self.stab = None if shard.table is None else trainer.encode_inputs(shard.table)
        self.node_id = node_id
        self.server_id = server_id
        self._send = send
        self.epochs = epochs
        self.seed = seed
        self.boot_epoch = boot_epoch
        self.heartbeat_ms = heartbeat_ms
        self.name = name
        self.program_hash = program_hash
        self.max_payload = 4 * trainer.size
        self.start = zeros("f", trainer.size)  # the received model of the round (then the delta)
        self.order = zeros("H", shard.n)
        self.txbuf = bytearray(E.data_offset(1) + 4 * trainer.size)
        self.seq = 0
        self.round = 0  # the last round trained: a MODEL must be newer (the model's version)
        self.joined = False
        self.join_answered = False  # a valid model came from the server: no more JOINs this boot
        self.joins = 0  # JOINs sent (the first and the retries), as the C client's stats.joins
        self.last_tx = None
        self.events = []
        self.rounds_trained = 0
        self.last_loss = 0.0
        self.log_path = None
        self.idle = None  # called between training steps (a serial link keeps acking and heartbeating)
        self.taken = None  # called with the round once its model is validated and kept, before training
        self.state_path = None  # the round record (see save_state); None: rounds are not kept across a reboot
        self.pending = 0  # a round whose model was taken before a reboot and not answered: trained at tick

    # ------------------------------------------------------------------ output
    def _emit(self, kind, protocol, edge, dtype, dims, request_id, payload):
        self.seq += 1
        env = E.Envelope(kind=kind, protocol=protocol, sender=self.node_id, receiver=self.server_id,
                         seq=(self.boot_epoch << 32) | self.seq, request_id=request_id, edge=edge, dtype=dtype,
                         dims=dims)
        n = len(payload)
        doff = E.header_into(self.txbuf, env, n)
        if n:
            self.txbuf[doff:doff + n] = payload
        self._send(bytes(self.txbuf[:doff + n]))

    def hello(self):
        """The control HELLO (broadcast) with this node's hello record, as every bb-edge node sends at start."""
        from bbnode.link import CAP_ARQ, CAP_FRAG, Hello, hello_into
        h = Hello(1, 1, CAP_ARQ | CAP_FRAG, self.boot_epoch, self.node_id, 96 + self.max_payload, 8,
                  self.name.encode() if isinstance(self.name, str) else self.name, self.program_hash)
        rec = bytearray(52 + len(h.name))
        hello_into(h, rec)
        self.seq += 1
        env = E.Envelope(kind=E.KIND_CONTROL, protocol=1, sender=self.node_id, receiver=E.BROADCAST,
                         seq=(self.boot_epoch << 32) | self.seq, edge=1, dtype=UINT8, dims=(len(rec),))
        out = bytearray(E.data_offset(1) + len(rec))
        doff = E.header_into(out, env, len(rec))
        out[doff:] = rec
        self._send(bytes(out))

    def tick(self, now_ms):
        """A round resumed from the record first, then JOIN; a HEARTBEAT after ``heartbeat_ms`` without output,
        the JOIN again instead until the server answered it."""
        if self.pending:
            rnd = self.pending
            self.pending = 0
            self.events.append(("RoundResumed", {"round": rnd}))
            self._train_and_answer(rnd)
            self.last_tx = now_ms
        if not self.joined:
            self._join()
            self.joined = True
            self.last_tx = now_ms
            return
        if now_ms - self.last_tx >= self.heartbeat_ms:
            # unanswered, the heartbeat is the JOIN again: a JOIN lost on the way (a broker queue past its bound
            # drops messages it acknowledged, issue 35) would leave this client out of every round while it
            # still looked alive; the server counts a repeated JOIN of the same boot epoch once (the C client's
            # rule, firmware/src/bbrt_learn.c)
            if self.join_answered:
                self._emit(E.KIND_DATA, PROTO_SERVER, HEARTBEAT, UINT8, (0,), 0, b"")
            else:
                self._join()
            self.last_tx = now_ms

    def _join(self):
        self._emit(E.KIND_DATA, PROTO_SERVER, JOIN, INT64, (1,), 0, struct.pack("<q", self.shard.n))
        self.joins += 1

    # ------------------------------------------------------------------- input
    def _refuse(self, reason, rnd, detail):
        self.events.append(("ModelRefused", {"reason": reason, "round": rnd, "detail": detail}))
        return reason

    def flush_log(self):
        """Append the pending events to ``log_path`` as JSON lines (when set), emptying :attr:`events`."""
        if not self.log_path or not self.events:
            return
        import json
        with open(self.log_path, "a") as f:
            for ev_name, fields in self.take_events():
                rec = dict(fields)
                rec["event"] = ev_name
                f.write(json.dumps(rec) + "\n")

    def take_events(self):
        """Every event since the last call."""
        ev, self.events = self.events, []
        return ev

    def _load(self, payload):
        """Decode the model into ``start`` (scratch, not the model); False if a value is not finite."""
        st = self.start
        unpack = struct.unpack_from
        for i in range(self.trainer.size):
            v = unpack("<f", payload, 4 * i)[0]
            if v != v or v == INF or v == -INF:
                return False
            st[i] = v
        return True

    def handle(self, buf):
        """Handle one envelope from the transport; returns a status name ("OK", "TRAINED" or a refusal)."""
        try:
            env = E.decode(buf, 2 * self.max_payload)  # room for a float64 model: refused as wrong_dtype
        except E.EnvelopeError as exc:
            return self._refuse("bad_envelope", 0, exc.code)
        if env.receiver != self.node_id and env.receiver != E.BROADCAST:
            return "WRONG_RECEIVER"
        if env.kind != E.KIND_DATA or env.protocol != PROTO_CLIENT:
            return "OK"  # control traffic (HELLO, ...) and other protocols are not this role's
        if env.sender != self.server_id:
            return self._refuse("unknown_peer", env.request_id, "model from node %d" % env.sender)
        if env.edge != MODEL and env.edge != MODEL_FULL:
            return "OK"
        if env.dtype != FLOAT32:
            return self._refuse("wrong_dtype", env.request_id, "dtype %d, want float32" % env.dtype)
        if len(env.dims) != 1 or env.dims[0] != self.trainer.size:
            return self._refuse("wrong_shape", env.request_id, "dims %r, want (%d,)" % (env.dims, self.trainer.size))
        # a MODEL of the round last trained is the server asking again (its UPDATE did not arrive): trained again
        # (the same model, the same seeded order: the same update) and re-sent; an older round is stale
        if env.edge == MODEL and env.request_id < self.round:
            return self._refuse("stale_round", env.request_id, "round %d, last trained %d" % (env.request_id,
                                                                                              self.round))
        if not self._load(env.payload):
            return self._refuse("non_finite", env.request_id, "NaN or Inf in the model")
        try:  # the int trainer checks its range before it takes anything
            self.trainer.set_params(self.start)
        except TrainError as exc:
            return self._refuse("norm_too_large", env.request_id, str(exc))
        # validated and taken: from here on the model has changed
        self.join_answered = True
        P = self.trainer.params_f32()
        if env.edge == MODEL_FULL:
            self.events.append(("ModelFetched", {"round": env.request_id}))
            return "OK"
        self.pending = 0  # a newer model supersedes a round kept from before a reboot
        # the round's model is kept before training: a reboot from here on trains this round again
        self.save_state(self.round, env.request_id, env.request_id, P)
        if self.taken is not None:
            self.taken(env.request_id)
        self._train_and_answer(env.request_id)
        return "TRAINED"

    def _train_and_answer(self, rnd):
        """Train round ``rnd`` from the model in ``trainer.P``, send the UPDATE, keep the answered record."""
        P = self.trainer.params_f32()
        st = self.start
        for i in range(self.trainer.size):
            st[i] = P[i]
        self.train_round(rnd)
        P = self.trainer.params_f32()
        # delta = trained - received, float32 like the Python client's ``trained - start``
        for i in range(self.trainer.size):
            st[i] = P[i] - st[i]
        self._emit(E.KIND_DATA, PROTO_SERVER, UPDATE, FLOAT32, (self.trainer.size,), rnd, bytes(st))
        self.round = rnd
        self.rounds_trained += 1
        self.save_state(rnd, rnd, 0, P)
        self.events.append(("LocalTrainingDone", {"round": rnd, "loss": self.last_loss}))

    # ------------------------------------------------------------ round state
    def _record(self, answered, model_round, pending, model):
        head = struct.pack("<7I", RECORD_MAGIC, RECORD_VERSION, self.node_id, self.trainer.size, answered,
                           model_round, pending)
        body = bytes(model)
        from bbnode.framing import crc32
        return head + struct.pack("<I", crc32(body, crc32(head))) + body

    def save_state(self, answered, model_round, pending, model):
        """Keep the round record in ``state_path``: the layout of the C client's (bbrt_learn_record_t: magic
        "BBLN", version, node id, parameter count, last answered round, the model's round, the pending round,
        CRC-32 of those fields and the model) then the float32 model. Written beside the file and renamed over
        it, so a reset in the middle of a write leaves the previous record whole."""
        if not self.state_path:
            return
        import os
        tmp = self.state_path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self._record(answered, model_round, pending, model))
        try:
            os.rename(tmp, self.state_path)
        except OSError:  # a file system whose rename does not replace: remove first
            try:
                os.remove(self.state_path)
            except OSError:
                pass
            os.rename(tmp, self.state_path)

    def restore(self):
        """Take the round record at boot; returns why not ("OK", "NONE", "BAD_RECORD"). A record that does not
        check out (magic, version, node, size, CRC, finite values) changes nothing; a pending round is trained
        at the next :meth:`tick`."""
        if not self.state_path:
            return "NONE"
        try:
            with open(self.state_path, "rb") as f:
                blob = f.read()
        except OSError:
            return "NONE"
        n = self.trainer.size
        if len(blob) != 32 + 4 * n:
            return "BAD_RECORD"
        magic, version, node_id, count, answered, model_round, pending, crc = struct.unpack_from("<8I", blob)
        from bbnode.framing import crc32
        if (magic != RECORD_MAGIC or version != RECORD_VERSION or node_id != self.node_id or count != n
                or crc32(memoryview(blob)[32:], crc32(memoryview(blob)[:28])) != crc):
            return "BAD_RECORD"
        if not self._load(memoryview(blob)[32:]):
            return "BAD_RECORD"
        try:
            self.trainer.set_params(self.start)
        except TrainError:
            return "BAD_RECORD"
        # checked: from here on the record is the client's state
        self.round = answered
        self.pending = pending if pending > answered else 0
        self.events.append(("StateRestored", {"round": answered, "pending": self.pending}))
        return "OK"

    # ---------------------------------------------------------------- training
    def load_batch(self, lo, nb):
        """Rows ``order[lo:lo + nb]`` of the shard into the trainer's X and Y."""
        T = self.trainer
        # one name per statement: a 6-name unpacking builds a tuple on the heap (32 bytes every batch)
        X = T.X
        Y = T.Y
        SX = self.sx
        SY = self.shard.y
        order = self.order
        d = T.n_in
        tab = self.stab
        for r in range(nb):
            i = order[lo + r]
            Y[r] = SY[i]
            src = i * d
            dst = r * d
            if tab is None:
                for k in range(d):
                    X[dst + k] = SX[src + k]
            else:
                for k in range(d):
                    X[dst + k] = tab[SX[src + k]]

    def train_round(self, rnd):
        """E epochs over the shard from the model in ``trainer.P`` (optimizer state reset, as the Python
        client starts every round from ``program.initial_state()``)."""
        T = self.trainer
        T.reset_optimizer()
        n = self.shard.n
        B = T.batch
        state = round_seed(self.seed, self.node_id, rnd)
        # the int trainer's loss is summed as an encoding: its steps and this loop make no float object
        f32 = None
        if T.arith == "int":
            from bbnode import f32int as f32
        total = 0 if f32 is not None else 0.0
        steps = 0
        for _e in range(self.epochs):
            state = shuffle(self.order, n, state)
            lo = 0
            while lo < n:
                nb = B if n - lo > B else n - lo
                self.load_batch(lo, nb)
                T.step(nb)
                if self.idle is not None:
                    self.idle()
                if f32 is not None:
                    total = f32.add(total, T.loss_i[0])
                else:
                    total += T.loss[0]
                steps += 1
                lo += nb
        if f32 is not None:
            total = f32.to_float(total)
        self.last_loss = total / steps if steps else 0.0


def serve_mqtt(client, link, poll_ms=100):
    """Run the client over ``bbnode.mqtt.MqttLink`` until a ``stop`` on the control topic (on the device)."""
    import time
    link.start(client)
    print("node %s (id %d) connected, FedAvg client of %d samples" % (client.name, client.node_id, client.shard.n))
    client.hello()
    t0 = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)
    while link.running:
        now = (time.ticks_diff(time.ticks_ms(), t0) if hasattr(time, "ticks_ms") else
               int(time.time() * 1000) - t0)
        client.tick(now)
        link.poll(poll_ms)
        client.flush_log()
    try:
        link.client.publish(link.t.presence(link.name), b"down", retain=True, qos=1)
        link.client.disconnect()
    except (OSError, IndexError):
        pass


CTRL_HELLO, CTRL_PING, CTRL_PONG, CTRL_ERROR = 1, 2, 3, 5
PROTO_CONTROL = 1


class SerialClient:
    """A :class:`FedAvgClient` on a serial line (``machine.UART``): COBS + CRC-32 frames and the link layer of
    docs/wire.md (bbnode/link.py: HELLO with the boot epoch, acks, retransmission, fragmentation), as an
    inference node's ``Node(link_layer=True)``. The client JOINs once the link is up; PING is answered with
    PONG; the client's events go to the host as control ERROR texts (``ModelRefused stale_round round=3``,
    ``ModelTaken round=0``, ``LocalTrainingDone round=2``), as the C client reports them. While a round
    trains, the link's timers run between steps (acks, heartbeats) and envelopes that arrive are handled
    after the round."""

    def __init__(self, client, uart, link_opts=None, epoch_file=None):
        from bbnode import framing
        from bbnode.link import CAP_ARQ, CAP_FRAG, Hello, Link
        opts = dict(link_opts or {})
        mtu = opts.pop("max_frame", 4096)
        window = opts.pop("window", 4)
        max_env = 96 + client.max_payload
        opts.setdefault("reassembly_budget", 2 * max_env)
        name = client.name.encode() if isinstance(client.name, str) else client.name
        h = Hello(1, 1, CAP_ARQ | CAP_FRAG, client.boot_epoch, client.node_id, mtu, window, name,
                  client.program_hash)
        self.client = client
        self.uart = uart
        self.epoch_file = epoch_file
        self.link_epoch = client.boot_epoch
        self.ll = Link(h, self._write_frame, self._deliver, **opts)
        cap = mtu if mtu > max_env else max_env
        self.rx = framing.Deframer(cap)
        self.fbody = bytearray(cap + 4)
        self.frame = bytearray(framing.max_frame(cap))
        self.now = 0
        self.training = False
        self.later = []  # envelopes that arrived while a round trained
        self.reported = 0
        self.tx_dropped = 0
        self.t0 = None
        client._send = self._send
        client.idle = self._idle
        client.taken = self._taken

    # ---------------------------------------------------------------- line
    def _write_frame(self, mv):
        from bbnode import framing
        n = len(mv)
        self.fbody[:n] = mv
        m = framing.frame_into(self.fbody, n, self.frame)
        self.uart.write(memoryview(self.frame)[:m])

    def _send(self, env):
        if not self.ll.send(env, self.now):
            self.tx_dropped += 1

    def _deliver(self, mv, bare):
        buf = bytes(mv)
        if self.training:
            self.later.append(buf)
            return
        self._handle(buf)

    def _handle(self, buf):
        if len(buf) >= 64 and buf[6] | buf[7] << 8 == PROTO_CONTROL:
            try:
                env = E.decode(buf, 256)
            except E.EnvelopeError:
                return
            if env.edge == CTRL_PING and env.receiver == self.client.node_id:
                self._control(CTRL_PONG, env.sender, env.seq, env.request_id, b"")
            return
        self.training = True
        try:
            self.client.handle(buf)
        finally:
            self.training = False
        self._report()

    def _control(self, code, receiver, response_to, request_id, text):
        c = self.client
        c.seq += 1
        env = E.Envelope(kind=E.KIND_CONTROL, protocol=PROTO_CONTROL, sender=c.node_id, receiver=receiver,
                         seq=(c.boot_epoch << 32) | c.seq, request_id=request_id, edge=code, dtype=UINT8,
                         dims=(len(text),))
        if code == CTRL_PONG:
            env.flags = E.RESPONSE
            env.response_to = response_to
        if code == CTRL_ERROR:
            env.flags = E.ERROR
        out = bytearray(E.data_offset(1) + len(text))
        doff = E.header_into(out, env, len(text))
        out[doff:] = text
        self._send(bytes(out))

    def _taken(self, rnd):
        """Said before the round trains (the host's power-cut fault injection keys on it)."""
        self._report()
        if self.ll.up:
            self._control(CTRL_ERROR, 0, 0, 0, ("ModelTaken round=%d" % rnd).encode())

    def _report(self):
        """The client's new events to the host, one control ERROR text each."""
        evs = self.client.events
        for i in range(self.reported, len(evs)):
            name, f = evs[i]
            if name == "ModelFetched":
                text = "ModelTaken round=%d" % f["round"]
            elif name == "ModelRefused":
                text = "ModelRefused %s round=%d" % (f["reason"], f["round"])
            else:
                text = "%s round=%d" % (name, f.get("round", 0))
            if self.ll.up:
                self._control(CTRL_ERROR, 0, 0, 0, text.encode())
        self.reported = len(evs)

    # -------------------------------------------------------------- timers
    def _clock(self):
        import time
        if hasattr(time, "ticks_ms"):
            t = time.ticks_ms()
            if self.t0 is None:
                self.t0 = t
            return time.ticks_diff(t, self.t0)
        return int(time.time() * 1000)

    def feed(self, data, now):
        """Received serial bytes."""
        self.now = now
        self.rx.feed(data, self._on_frame)

    def _on_frame(self, body):
        self.ll.receive(body, self.now)
        self._link_events()

    def poll(self, now):
        """Link timers, the client's JOIN / heartbeats once the link is up, envelopes kept during training."""
        self.now = now
        self.ll.poll(now)
        self._link_events()
        while self.later and not self.training:
            self._handle(self.later.pop(0))
        if not self.ll.up:
            return
        self.training = True  # tick may train a round resumed from the record
        try:
            self.client.tick(now)
        finally:
            self.training = False
        self._report()
        self.client.flush_log()
        if not self.client.log_path:
            self.client.events = []  # reported already: nothing keeps them (RAM)
        self.reported = len(self.client.events)

    def _idle(self):
        """Between training steps: read the line (acks; envelopes wait) and run the link's timers."""
        self.now = self._clock()
        data = self.uart.read()
        if data:
            self.rx.feed(data, self._on_frame)
        self.ll.poll(self.now)
        self._link_events()

    def _link_events(self):
        ll = self.ll
        if ll.events:
            ll.take_events()
        if ll.hello.boot_epoch != self.link_epoch:
            # the link moved to a new session epoch: keep the epoch file ahead of it (as Node does)
            self.link_epoch = ll.hello.boot_epoch
            if self.epoch_file:
                with open(self.epoch_file, "w") as f:
                    f.write(str(self.link_epoch))

    def serve(self, poll_ms=1):
        """Forever: read the UART, feed the link, run its timers and the client's (on the device)."""
        import time
        self.ll.start(self._clock())
        while True:
            now = self._clock()
            data = self.uart.read()
            if data:
                self.feed(data, now)
            self.poll(now)
            if not data:
                if hasattr(time, "sleep_ms"):
                    time.sleep_ms(poll_ms)
                else:
                    time.sleep(poll_ms / 1000)


def trainer_for(lc, blob):
    """The trainer config.json's ``learn`` section asks for: ``"arith": "int"`` -> bbnode/train_int.IntTrainer
    (float32 in small ints: a step allocates nothing), absent or ``"float"`` -> bbnode/train.Trainer;
    anything else is TrainError BAD_CONFIG."""
    arith = lc.get("arith", "float")
    if arith == "int":
        from bbnode.train_int import IntTrainer
        return IntTrainer(blob)
    if arith != "float":
        raise TrainError("BAD_CONFIG", "learn.arith %r: 'float' or 'int'" % (arith,))
    return Trainer(blob)


def main(cfg):
    """Boot a training client from config.json's ``learn`` section (main.py calls this); serves until stopped.

    ``learn``: ``program`` (the BBT1 description), ``shard`` (BBS1), ``epochs``, ``seed``, ``server_id``,
    ``heartbeat_ms``, optional ``log`` (a file that gets one JSON line per trained round), optional ``state``
    (the round record file, :meth:`FedAvgClient.save_state`), optional ``arith``: ``"int"`` trains with
    bbnode/train_int.IntTrainer (float32 in small ints, no allocation per step), otherwise
    bbnode/train.Trainer. Transport: MQTT (``mqtt`` section, as an inference node's) or, with
    ``"transport": "serial"``, the ``uart`` and ``link`` sections (:class:`SerialClient`).
    """
    from bbnode.mqtt import MqttLink
    from bbnode.node import boot_epoch
    lc = cfg["learn"]
    with open(lc.get("program", "train.bbt"), "rb") as f:
        trainer = trainer_for(lc, f.read())
    with open(lc.get("shard", "shard.bbs"), "rb") as f:
        shard = Shard(f.read())
    epoch_file = cfg.get("epoch_file", "boot_epoch")
    epoch = boot_epoch(epoch_file)
    name = cfg.get("name", "node")
    if cfg.get("transport") == "serial":  # the UART with the link layer; a host bridge relays to the fleet
        from machine import UART
        u = cfg.get("uart", {})
        uart = UART(u.get("id", 1), baudrate=u.get("baud", 921600), tx=u.get("tx"), rx=u.get("rx"),
                    rxbuf=u.get("rxbuf", 8192))
        client = FedAvgClient(trainer, shard, cfg["node_id"], lc.get("server_id", 1), None,
                              epochs=lc.get("epochs", 1), seed=lc.get("seed", 0), boot_epoch=epoch,
                              heartbeat_ms=lc.get("heartbeat_ms", 1000), name=name)
        client.log_path = lc.get("log")
        client.state_path = lc.get("state")
        client.restore()
        lk = {k: v for k, v in cfg.get("link", {}).items() if k != "enabled"}
        line = SerialClient(client, uart, lk, epoch_file)
        print("node %s (id %d) on its UART, FedAvg client of %d samples" % (name, client.node_id, shard.n))
        line.serve()
        return client, line
    if cfg.get("wifi") and cfg["wifi"].get("ssid"):
        import time

        import network
        wlan = network.WLAN(network.STA_IF)
        wlan.active(True)
        wlan.connect(cfg["wifi"]["ssid"], cfg["wifi"]["password"])
        while not wlan.isconnected():
            time.sleep(0.1)
    link = MqttLink(cfg["mqtt"], name, {int(k): v for k, v in cfg.get("peers", {}).items()})
    client = FedAvgClient(trainer, shard, cfg["node_id"], lc.get("server_id", 1), link.send,
                          epochs=lc.get("epochs", 1), seed=lc.get("seed", 0), boot_epoch=epoch,
                          heartbeat_ms=lc.get("heartbeat_ms", 1000), name=name)
    client.log_path = lc.get("log")
    client.state_path = lc.get("state")
    client.restore()
    serve_mqtt(client, link)
    return client, link
