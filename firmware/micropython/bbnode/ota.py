"""Over-the-air program updates, the node end (docs/wire.md "Program updates", protocol 24).

The same state machine as bb_edge/engine/ota/node.py's ``OtaNode`` and firmware/src/bbrt_ota.c, message for
message and NACK code for NACK code, without I/O: :meth:`OtaNode.message` takes one OTA message (sender,
type, payload bytes, ``now`` in ms) and :meth:`OtaNode.poll` takes ``now`` and whether the node is idle;
both return the replies to send to the deployer as ``(type, payload)`` pairs. Program bytes go to an
injected A/B slot store (:class:`FileSlots` on the node's filesystem, :class:`MemorySlots` in two
preallocated bytearrays); the running program is never touched before a COMMIT meets an idle point.

Checks, in order, before anything changes: sender is the host (id 0), message well formed, one update at a
time, a key is provisioned, target 3 (MicroPython program), signature kind 2 (HMAC-SHA-256), size within
the slot. DATA continues exactly where the slot ends; the SHA-256 is streamed as chunks arrive. When the
slot is full: the SHA-256, the HMAC over the signed message with this node's key, the program loader
(``bbnode.executor.Program``: header, CRC, tensors, opcodes) and the contract (node id, and every edge's
id, peer, direction, dtype and shape, an int8 edge's scale and zero point, as the running program's) are
checked, then READY. After COMMIT, at
the first idle point the node switches, runs the new program once (health: no exception, float outputs
finite), flips the active slot and answers SWITCHED; a failed health check puts the old program back
(NACK ``rolled_back``). Finished update ids are remembered: a repeated COMMIT of what runs answers SWITCHED
again; every ABORT is answered with a NACK, and an ABORT of the update last switched to puts the previous
program back first (docs/wire.md "Atomic fleet update").

Why one file: on the device every module costs import RAM, and the node end of the protocol, its HMAC,
slot stores and loader check are used only together. It mirrors bb_edge/engine/ota/node.py's OtaNode.
"""
import hashlib
import struct

PROTO_OTA = 24
OFFER, DATA, COMMIT, ABORT, READY, NACK, SWITCHED = 1, 2, 3, 4, 5, 6, 7
OFFER2 = 8  # versioned: the signed manifest covers deployment, node, target, size, version, update id, hash
OFFER2_HEADER = 53  # OFFER_HEADER + u64 version + u8 deployment name length
TARGET_MPY = 3
SIG_HMAC_SHA256 = 2
HOST_ID = 0
DEPLOY_ID = 0xFFFFFFFE  # bb-edge deploy's own wire id (_deploy; bb_edge/deployment/manifest.py)

OFFER_HEADER = 44  # u32 update id, u32 size, u8 target, u8 sig kind, u16 sig len, sha256[32]
DATA_HEADER = 8
MAX_SIGNATURE = 256
MAX_REASON = 200
STAGE_TIMEOUT_MS = 60000

# NACK codes (on the wire: the same numbers as bb_edge/engine/ota/messages.py)
BAD_MESSAGE = 1
BUSY = 2
TOO_LARGE = 3
TRUNCATED = 4
CORRUPT = 5
BAD_SIGNATURE = 6
INVALID_PROGRAM = 7
CONTRACT_MISMATCH = 8
WRONG_TARGET = 9
UNKNOWN_UPDATE = 10
ROLLED_BACK = 11
NOT_AUTHORISED = 12
NO_KEY = 13
ABORTED = 16  # the answer to every ABORT: this node does not run the update (and never will)
RUNNING = 0  # OtaNode.finished: the update runs
STALE_VERSION = 17  # anti-rollback: not above the highest version this node accepted
WRONG_DEPLOYMENT = 18
CODE_NAMES = {1: "bad_message", 2: "busy", 3: "too_large", 4: "truncated", 5: "corrupt", 6: "bad_signature",
              7: "invalid_program", 8: "contract_mismatch", 9: "wrong_target", 10: "unknown_update",
              11: "rolled_back", 12: "not_authorised", 13: "no_key", 16: "aborted",
              17: "stale_version", 18: "wrong_deployment"}
# refusals that end an update: its chunks still in flight are then dropped without a NACK each
_ENDS_AN_UPDATE = (TOO_LARGE, TRUNCATED, CORRUPT, BAD_SIGNATURE, INVALID_PROGRAM, CONTRACT_MISMATCH,
                   WRONG_TARGET, NO_KEY, STALE_VERSION, WRONG_DEPLOYMENT)


class OtaError(Exception):
    """A refused update message: ``code`` is a NACK code, ``reason`` says why."""

    def __init__(self, code, reason):
        super().__init__(code, reason)
        self.code = code
        self.reason = reason


# ------------------------------------------------------------- signatures
def hmac_sha256(key, msg):
    """HMAC-SHA-256 (RFC 2104) on hashlib.sha256 (MicroPython's has no ``hmac`` module nor ``copy()``)."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    k = bytearray(64)
    k[:len(key)] = key
    ipad = bytearray(64)
    opad = bytearray(64)
    for i in range(64):
        ipad[i] = k[i] ^ 0x36
        opad[i] = k[i] ^ 0x5C
    inner = hashlib.sha256(ipad)
    inner.update(msg)
    outer = hashlib.sha256(opad)
    outer.update(inner.digest())
    return outer.digest()


def equal(a, b):
    """Compare two byte strings in time independent of where they differ (a MAC check must not leak)."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= a[i] ^ b[i]
    return d == 0


def signed_message(node, target, size, sha256):
    """What the deployer signs for one node (bb_edge.engine.ota.signed_message): bound to the node name."""
    name = node.encode() if isinstance(node, str) else bytes(node)
    return b"bb-edge/ota/1\0" + name + b"\0" + struct.pack("<BI", target, size) + bytes(sha256)


def signed_manifest(deployment, node, target, size, version, uid, sha256):
    """What the deployer signs in an OFFER2 (bb_edge/engine/ota/messages.py ``signed_manifest``)."""
    return (b"bb-edge/ota/2\0" + deployment.encode() + b"\0" + node.encode() + b"\0"
            + struct.pack("<BIQI", target, size, version, uid) + sha256)


def load_key(path):
    """The HMAC key in the file ``path`` (hex, as ``bb-edge keygen`` writes it), or None without one."""
    if not path:
        return None
    import binascii
    try:
        with open(path) as f:
            text = f.read().strip()
        return binascii.unhexlify(text) if text else None
    except (OSError, ValueError):
        return None


def nack_payload(uid, code, reason):
    """A NACK payload (reason clipped to MAX_REASON bytes)."""
    r = reason.encode() if isinstance(reason, str) else bytes(reason)
    return struct.pack("<IH", uid, code) + r[:MAX_REASON]


# ------------------------------------------------------------------ slots
class MemorySlots:
    """A/B slots in two bytearrays of ``capacity`` bytes, allocated once (no storage needed)."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.bufs = [bytearray(capacity), bytearray(capacity)]
        self.active = None  # slot index of the running program (None: the program the node booted)
        self.staged = None
        self.size = 0

    def accepted_version(self):
        """The highest version switched to (in RAM: a reboot forgets it; FileSlots keeps it)."""
        return getattr(self, "version", 0)

    def accept_version(self, version):
        """Raise the accepted version."""
        self.version = max(self.accepted_version(), version)

    def begin(self, size):
        """Start writing ``size`` bytes to the inactive slot."""
        self.staged = 1 if self.active == 0 else 0
        self.size = size
        self.previous = None  # the other slot is overwritten: nothing to go back to

    def write(self, offset, chunk):
        """Write ``chunk`` at ``offset`` of the staged slot (the caller checked the bounds)."""
        self.bufs[self.staged][offset:offset + len(chunk)] = chunk

    def read(self):
        """The staged image (a view of exactly ``size`` bytes)."""
        return memoryview(self.bufs[self.staged])[:self.size]

    def activate(self):
        """The staged slot becomes the active one."""
        if self.staged is not None:
            self.previous, self.active, self.staged = self.active, self.staged, None

    def revert(self):
        """Back to the slot the last activate left (an ABORT after the switch)."""
        self.active, self.previous = getattr(self, "previous", None), None

    def discard(self):
        """Forget the staged slot."""
        self.staged = None


class FileSlots:
    """A/B slots as files ``PREFIX_a.bbrt`` / ``PREFIX_b.bbrt``; ``PREFIX_active`` names the active one.

    The pointer is replaced by ``os.rename`` of a fully written temporary file, so a power cut leaves
    either the old or the new pointer, never half of one.
    """

    def __init__(self, prefix="ota"):
        self.prefix = prefix
        self.staged = None
        self.f = None
        self.active = None
        try:
            with open(prefix + "_active") as f:
                a = f.read().strip()
            if a in ("a", "b"):
                self.active = a
        except OSError:
            pass

    def path(self, slot):
        """The file of slot ``"a"`` or ``"b"``."""
        return "%s_%s.bbrt" % (self.prefix, slot)

    def active_program(self):
        """The active slot's bytes, or None when no update was ever activated."""
        if self.active is None:
            return None
        try:
            with open(self.path(self.active), "rb") as f:
                return f.read()
        except OSError:
            return None

    def accepted_version(self):
        """The highest version switched to (``PREFIX_version``; 0 when absent)."""
        try:
            with open(self.prefix + "_version") as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return 0

    def accept_version(self, version):
        """Raise ``PREFIX_version`` (temp file + rename, as the pointer)."""
        import os
        if version <= self.accepted_version():
            return
        tmp = self.prefix + "_version.tmp"
        with open(tmp, "w") as f:
            f.write(str(version))
        try:
            os.rename(tmp, self.prefix + "_version")
        except OSError:  # FAT refuses an existing target
            try:
                os.remove(self.prefix + "_version")
            except OSError:
                pass
            os.rename(tmp, self.prefix + "_version")

    def begin(self, size):
        """Open the inactive slot's file for writing."""
        self._close()
        self.staged = "b" if self.active == "a" else "a"
        self.previous = None  # the other slot is overwritten: nothing to go back to
        self.f = open(self.path(self.staged), "wb")

    def write(self, offset, chunk):
        """Append ``chunk`` (chunks arrive in order: the caller checked ``offset``)."""
        self.f.write(chunk)

    def read(self):
        """The staged image (closes the file first)."""
        self._close()
        with open(self.path(self.staged), "rb") as f:
            return f.read()

    def activate(self):
        """Point ``PREFIX_active`` at the staged slot (atomic rename)."""
        import os
        if self.staged is None:
            return
        self._close()
        self._point(self.staged)
        self.previous = self.active or ""
        self.active, self.staged = self.staged, None

    def revert(self):
        """Point ``PREFIX_active`` back where the last activate found it (none: the booted program.bbrt)."""
        import os
        prev = getattr(self, "previous", None)
        if prev is None:
            return
        if prev:
            self._point(prev)
        else:
            try:
                os.remove(self.prefix + "_active")
            except OSError:
                pass
        self.active, self.previous = prev or None, None

    def _point(self, slot):
        import os
        tmp = self.prefix + "_active.tmp"
        with open(tmp, "w") as f:
            f.write(slot)
        try:
            os.rename(tmp, self.prefix + "_active")  # littlefs (the ESP32 default) replaces the target
        except OSError:  # FAT refuses an existing target: remove it first (a cut here boots program.bbrt)
            try:
                os.remove(self.prefix + "_active")
            except OSError:
                pass
            os.rename(tmp, self.prefix + "_active")

    def discard(self):
        """Delete the staged slot's file."""
        import os
        self._close()
        if self.staged is not None:
            try:
                os.remove(self.path(self.staged))
            except OSError:
                pass
            self.staged = None

    def _close(self):
        if self.f is not None:
            self.f.close()
            self.f = None


# ----------------------------------------------------------------- loader
def contract(prog):
    """What peers rely on: node id and every edge's (id, peer, direction, dtype, dims), sorted; an int8
    edge's scale and zero point too (the C node and the Python engine refuse other parameters)."""
    out = []
    for e in prog.edges:
        t = prog.tensors[e.tensor]
        q = (t.scale, t.zp) if t.dtype == 3 else (0.0, 0)
        out.append((e.edge_id, e.peer, e.direction, t.dtype, tuple(t.dims), q))
    out.sort()
    return prog.node_id, out


class NodeLoader:
    """The MicroPython node's loader: ``bbnode.executor.Program`` validates, ``Node.install`` switches."""

    def __init__(self, node):
        self.node = node

    def validate(self, image):
        """A loaded Program for ``image`` with the running program's contract, else OtaError."""
        from bbnode.executor import Program
        try:
            prog = Program(image)
        except Exception as exc:  # noqa: BLE001 - any loader failure (ProgramError, MemoryError) refuses it
            raise OtaError(INVALID_PROGRAM, "the program loader refused it: %s" % (exc,))
        old, new = contract(self.node.prog), contract(prog)
        if old[0] != new[0]:
            raise OtaError(CONTRACT_MISMATCH, "program is for node id %d, not %d" % (new[0], old[0]))
        if old[1] != new[1]:
            raise OtaError(CONTRACT_MISMATCH, "edges differ: %r instead of %r" % (new[1], old[1]))
        return prog

    def switch(self, prog, program_hash):
        """Run ``prog`` from now on; returns what :meth:`restore` puts back."""
        token = (self.node.prog, self.node.program_hash)
        self.node.install(prog, program_hash)
        return token

    def health(self, prog):
        """Run the new program once (on whatever its buffers hold); float Send outputs must be finite."""
        prog.run()
        for e in prog.edges:
            t = prog.tensors[e.tensor]
            if e.direction == 1 and t.dtype == 1:
                buf, base = t.buf, t.base
                for j in range(t.count):
                    v = buf[base + j]
                    if v - v != 0.0:  # NaN and +-inf give NaN; every finite value gives 0.0
                        raise OtaError(ROLLED_BACK, "output edge %d is not finite" % e.edge_id)

    def restore(self, token):
        """Put the replaced program back."""
        self.node.install(token[0], token[1])


# ------------------------------------------------------------------- node
class _Staging:
    def __init__(self, uid, size, target, sig_kind, sha, sig, now, version=None, deployment=""):
        self.version = version
        self.deployment = deployment
        self.uid = uid
        self.size = size
        self.target = target
        self.sig_kind = sig_kind
        self.sha = sha
        self.sig = sig
        self.started = now
        self.got = 0
        self.h = hashlib.sha256()
        self.staged = None
        self.ready = False
        self.commit = False

    def same(self, o):
        return (self.uid, self.size, self.target, self.sig_kind, self.sha, self.sig) == (
            o.uid, o.size, o.target, o.sig_kind, o.sha, o.sig)


class OtaNode:
    """The node end of the update protocol.

    ``name`` is the node name the deployer signs for, ``key`` its HMAC-SHA-256 key (None: every OFFER is
    refused with ``no_key``), ``store`` the A/B slots, ``loader`` validates/switches/checks/restores
    (:class:`NodeLoader`), ``max_program`` bounds the declared size before a byte is stored.
    """

    def __init__(self, name, key, store, loader, max_program=65536, stage_timeout_ms=STAGE_TIMEOUT_MS,
                 deployment=""):
        self.deployment = deployment  # the name a signed manifest must carry
        self.name = name
        self.key = bytes(key) if key else None
        self.store = store
        self.loader = loader
        self.max_program = max_program
        self.stage_timeout_ms = stage_timeout_ms
        self.current = None
        self.switched = []  # update ids switched to, oldest first (a repeated COMMIT is then no error)
        self.finished = {}  # update id -> RUNNING or the code that ended it (the last 16; bb_edge/engine/ota/node.py)
        self.order = []
        self.revertible = None  # (update id, restore token) of the last switch, until another update stages
        self.revert_pending = None  # an ABORT of the running update, applied at the idle point
        self.hello_due = False  # the node sends a HELLO after these replies (the program changed)
        self.reply_to = HOST_ID
        self.refusals = 0
        self.log = []  # the last 8 (event, update id, code, reason): OtaRefused/OtaSwitched/OtaRolledBack
        self.last_switch = None  # (update id, old hash, new hash) of the latest switch

    # ---------------------------------------------------------------- input
    def message(self, sender, mtype, payload, now):
        """Validate one OTA message completely, then apply it; the replies [(type, payload)]."""
        payload = bytes(payload)
        uid = struct.unpack_from("<I", payload, 0)[0] if len(payload) >= 4 else 0
        if sender != HOST_ID and sender != DEPLOY_ID:
            self.refusals += 1
            self._note("OtaRefused", uid, NOT_AUTHORISED, "OTA messages come from the deployer, not id %d" % sender)
            return []  # no reply: the sender is not the deployer
        self.reply_to = sender  # replies (and those poll() makes later) go to whichever deployer spoke last
        out = self._timeout(now)
        try:
            if mtype == OFFER2:
                self._offer(payload, now)
            elif mtype == OFFER:
                if len(payload) < OFFER_HEADER:
                    raise OtaError(BAD_MESSAGE, "OFFER of %d bytes, header needs %d" % (len(payload), OFFER_HEADER))
                raise OtaError(BAD_SIGNATURE, "an unversioned OFFER: this node takes only OFFER2 (anti-rollback)")
            elif mtype == DATA:
                out += self._data(payload)
            elif mtype == COMMIT:
                out += self._commit(self._u32(payload, "COMMIT"))
            elif mtype == ABORT:
                out += self._abort(self._u32(payload, "ABORT"))
            else:
                raise OtaError(BAD_MESSAGE, "message type %d is not for a node" % mtype)
        except OtaError as exc:
            out.append(self._refuse(uid, exc.code, exc.reason))
        return out

    def poll(self, now, idle):
        """Stage timeouts, and the switch (or the revert) itself once ``idle`` (no request half-received)."""
        out = self._timeout(now)
        if self.revert_pending is not None and idle:
            out += self._revert()
        st = self.current
        if st is not None and st.commit and idle:
            out += self._switch(st)
        return out

    @property
    def busy(self):
        """An update is being staged or waits for its idle point."""
        return self.current is not None or self.revert_pending is not None

    # ------------------------------------------------------------- messages
    @staticmethod
    def _u32(payload, what):
        if len(payload) != 4:
            raise OtaError(BAD_MESSAGE, "%s of %d bytes, expected 4" % (what, len(payload)))
        return struct.unpack("<I", payload)[0]

    def _timeout(self, now):
        st = self.current
        if st is None or st.ready or now - st.started <= self.stage_timeout_ms:
            return []
        self.current = None
        self.store.discard()
        return [self._refuse(st.uid, TRUNCATED, "staging timed out with %d of %d bytes" % (st.got, st.size))]

    def _offer(self, payload, now):
        if len(payload) < OFFER2_HEADER:
            raise OtaError(BAD_MESSAGE, "OFFER2 of %d bytes, header needs %d" % (len(payload), OFFER2_HEADER))
        uid, size, target, sig_kind, sig_len = struct.unpack_from("<IIBBH", payload, 0)
        version, name_len = struct.unpack_from("<QB", payload, OFFER_HEADER)
        if sig_len > MAX_SIGNATURE or len(payload) != OFFER2_HEADER + name_len + sig_len:
            raise OtaError(BAD_MESSAGE, "OFFER2 lengths (%d, %d) do not match its %d bytes"
                           % (name_len, sig_len, len(payload)))
        if size == 0:
            raise OtaError(BAD_MESSAGE, "OFFER2 of an empty program")
        try:
            deployment = bytes(payload[OFFER2_HEADER:OFFER2_HEADER + name_len]).decode()
        except UnicodeError:
            raise OtaError(BAD_MESSAGE, "OFFER2 deployment name is not UTF-8")
        st = _Staging(uid, size, target, sig_kind, payload[12:44], payload[OFFER2_HEADER + name_len:], now,
                      version, deployment)
        stale = version <= self.store.accepted_version()
        if uid in self.finished:
            runs = self.finished[uid] == RUNNING and self.switched[-1:] == [uid]
            if runs or not stale:
                return  # a late or repeated OFFER of an update already ended (or of what runs): nothing new
        if self.current is not None:
            if self.current.same(st):
                return  # the same OFFER again (the deployer retried): nothing new
            raise OtaError(BUSY, "update %d is in progress" % self.current.uid)
        if self.key is None:
            raise OtaError(NO_KEY, "no update key is provisioned on this node")
        if target != TARGET_MPY:
            raise OtaError(WRONG_TARGET, "this node loads micropython programs, not target %d" % target)
        if sig_kind != SIG_HMAC_SHA256:
            raise OtaError(BAD_SIGNATURE, "signature kind %d, this node verifies %d" % (sig_kind, SIG_HMAC_SHA256))
        if size > self.max_program:
            raise OtaError(TOO_LARGE, "%d bytes, this node takes at most %d" % (size, self.max_program))
        if deployment != self.deployment:
            raise OtaError(WRONG_DEPLOYMENT, "the update is for deployment %r, this node runs %r"
                           % (deployment, self.deployment))
        if stale:
            raise OtaError(STALE_VERSION, "version %d is not above %d, the highest this node accepted"
                           % (version, self.store.accepted_version()))
        self.revertible = None  # staging overwrites the slot the previous program is in
        try:
            self.store.begin(size)
        except (OSError, MemoryError) as exc:  # no room for the slot: refused, nothing staged
            raise OtaError(TOO_LARGE, "cannot open the inactive slot: %s" % (exc,))
        self.current = st

    def _data(self, payload):
        if len(payload) < DATA_HEADER:
            raise OtaError(BAD_MESSAGE, "DATA of %d bytes" % len(payload))
        uid, offset = struct.unpack_from("<II", payload, 0)
        st = self.current
        if st is None or st.uid != uid:
            if uid in self.finished:
                return []  # chunks of an update already ended: its one NACK (or SWITCHED) said it
            raise OtaError(UNKNOWN_UPDATE, "no update %d is being staged" % uid)
        if st.ready:
            return []  # a late duplicate of a chunk already verified
        n = len(payload) - DATA_HEADER
        if offset != st.got or offset + n > st.size:
            self.current = None  # a gap or an overrun: the image cannot be what was offered
            self.store.discard()
            raise OtaError(TRUNCATED, "chunk at %d+%d, expected offset %d of %d" % (offset, n, st.got, st.size))
        chunk = memoryview(payload)[DATA_HEADER:]
        try:
            self.store.write(offset, chunk)
        except (OSError, MemoryError) as exc:  # e.g. the filesystem is full: the image cannot be complete
            self.current = None
            self.store.discard()
            raise OtaError(TRUNCATED, "writing the slot failed at %d: %s" % (offset, exc))
        st.h.update(chunk)
        st.got += n
        if st.got == st.size:
            return self._verify(st)
        return []

    def _verify(self, st):
        try:
            if st.h.digest() != st.sha:
                raise OtaError(CORRUPT, "SHA-256 of the received image differs from the offer's")
            mac = hmac_sha256(self.key, signed_manifest(self.deployment, self.name, st.target, st.size, st.version,
                                                        st.uid, st.sha))
            if not equal(mac, st.sig):
                raise OtaError(BAD_SIGNATURE, "the signature does not verify with this node's key")
            try:
                image = self.store.read()
            except (OSError, MemoryError) as exc:
                raise OtaError(INVALID_PROGRAM, "cannot read the staged image back: %s" % (exc,))
            st.staged = self.loader.validate(image)
            image = None  # the loader copied what it keeps: the image's RAM is free again
        except OtaError:
            self.current = None
            self.store.discard()
            raise
        st.ready = True
        st.h = None
        self._note("OtaStaged", st.uid, 0, "")
        return [(READY, struct.pack("<I", st.uid) + st.sha)]

    def _finish(self, uid, code):
        if uid not in self.finished:
            self.order.append(uid)
        self.finished[uid] = code
        while len(self.order) > 16:
            self.finished.pop(self.order.pop(0), None)

    def _commit(self, uid):
        st = self.current
        if st is None or st.uid != uid:
            code = self.finished.get(uid)
            if code == RUNNING:
                if self.revertible is not None and self.revertible[0] == uid and self.revert_pending is None:
                    return [(SWITCHED, struct.pack("<I", uid) + self.loader.node.program_hash)]
                return []
            if code is not None:
                raise OtaError(code, "update %d already ended; this node does not run it" % uid)
            raise OtaError(UNKNOWN_UPDATE, "no update %d is staged" % uid)
        if not st.ready:
            raise OtaError(UNKNOWN_UPDATE, "update %d is not verified yet" % uid)
        st.commit = True  # the node calls poll(now, idle) right after: the switch happens at the idle point
        return []

    def _abort(self, uid):
        st = self.current
        if st is not None and st.uid == uid:
            self.current = None
            self.store.discard()
        if self.finished.get(uid) == RUNNING and self.revertible is not None and self.revertible[0] == uid:
            self.revert_pending = uid  # put the previous program back at the idle point, then answer
            return []
        if self.revert_pending == uid:
            return []
        if uid not in self.finished:
            self._finish(uid, ABORTED)  # a COMMIT arriving after this ABORT is refused
        code = self.finished[uid]
        return [(NACK, nack_payload(uid, code, "this node does not run update %d" % uid))]

    def _revert(self):
        uid, self.revert_pending = self.revert_pending, None
        token = self.revertible[1]
        self.revertible = None
        self.loader.restore(token)
        self.store.revert()
        self._finish(uid, ABORTED)
        self._note("OtaRolledBack", uid, ABORTED, "aborted by the deployer after the switch")
        self.hello_due = True
        return [(NACK, nack_payload(uid, ABORTED, "aborted: the previous program runs again"))]

    def _switch(self, st):
        self.current = None
        uid = st.uid
        old_hash = self.loader.node.program_hash if hasattr(self.loader, "node") else b""
        try:
            token = self.loader.switch(st.staged, st.sha)
        except Exception as exc:  # noqa: BLE001 - the old program keeps running
            self.store.discard()
            return [self._refuse(uid, ROLLED_BACK, "switch failed: %s" % (exc,))]
        try:
            self.loader.health(st.staged)
        except Exception as exc:  # noqa: BLE001 - any failure of the first run rolls back
            self.loader.restore(token)
            self.store.discard()
            reason = "health check failed: %s" % (exc.reason if isinstance(exc, OtaError) else exc,)
            self._note("OtaRolledBack", uid, ROLLED_BACK, reason)
            return [self._refuse(uid, ROLLED_BACK, reason)]
        try:
            self.store.accept_version(st.version)  # durable before SWITCHED: a replay of it is now stale
            self.store.activate()
        except OSError as exc:  # the pointer did not flip: a reboot would run the old program, so do that now
            self.loader.restore(token)
            self.store.discard()
            return [self._refuse(uid, ROLLED_BACK, "cannot switch the slot pointer: %s" % (exc,))]
        self.switched.append(uid)
        del self.switched[:-8]
        self._finish(uid, RUNNING)
        self.revertible = (uid, token)
        self.last_switch = (uid, old_hash, st.sha)
        self._note("OtaSwitched", uid, 0, "")
        return [(SWITCHED, struct.pack("<I", uid) + st.sha)]

    def _refuse(self, uid, code, reason):
        if code in _ENDS_AN_UPDATE or code == ROLLED_BACK:
            self._finish(uid, code)
        self.refusals += 1
        self._note("OtaRefused", uid, code, reason)
        return (NACK, nack_payload(uid, code, reason))

    def _note(self, name, uid, code, reason):
        self.log.append((name, uid, code, reason))
        del self.log[:-8]
