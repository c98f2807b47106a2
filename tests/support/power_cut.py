"""Power cuts during an update (issue 23): cut a node (SIGKILL) at seeded random points, boot it again from the
same persistent store, and check it runs a valid program (old or new, never neither, never a partial image).

One harness for three node ends, each a :class:`Life` (one boot of the node until it is cut):

- ``PosixLife``: the posix C node (bbrt-host) with ``--ota-state FILE``, envelopes as frames on its stdin;
- ``QemuLife``: the Cortex-M3 build under QEMU over its UART (the link layer), its flash image a host file;
- ``MpyLife``: bbnode (firmware/micropython) under CPython with its files (FileSlots), frames on stdin.

A trial deploys the program the node does not run (a higher version each time) and cuts it in one phase,
chosen by the seeded generator: ``staging`` (after k of the DATA chunks, then a random delay), ``verification``
(a random delay after the last chunk, up to the measured time to READY), ``switching`` (after COMMIT, up to the
measured time to SWITCHED) or ``first_run`` (after a request to the new program). The next boot answers a
request; the oracle is y = x + c of the old and the new program (computed here). A boot is valid when the
answer is one of them, the new one if SWITCHED had arrived before the cut (the record was durable), the old
one if COMMIT had not been sent (READY alone never switches a node, even across a reboot). The next trial
starts on whatever that boot runs.
"""

from __future__ import annotations

import hashlib
import os
import signal
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.bbrt.format import RECV, SEND, STORE_ARENA, STORE_CONST, EdgeRecord, Op, OpRecord, Program, Tensor
from bb_edge.engine import ota
from bb_edge.wire import envelope as wire
from bb_edge.wire.framing import FrameDecoder, frame

NODE, NODE_ID, DEPLOYMENT = "n1", 1, "fleet-a"
KEY = bytes(range(32))
X = np.array([[1.0, -2.0, 0.5, 8.0]], np.float32)
CONSTS = {"a": [1.0, 2.0, 3.0, 4.0], "b": [10.0, 20.0, 30.0, 40.0]}
PHASES = ("staging", "verification", "switching", "first_run")


def m3_elf() -> Path:
    """The Cortex-M3 node with KEY, NODE and DEPLOYMENT compiled in (make cortex-m3 OTA_...), built once per
    source hash (bb_edge.bbrt.native.cached_build)."""
    from bb_edge.bbrt import native

    return native.cached_build("cortex-m3", RESOLVER=str(native.firmware_dir() / "src" / "bbrt_resolver_all.c"),
                               OTA_KEY=KEY.hex(), OTA_NODE=NODE, OTA_DEPLOYMENT=DEPLOYMENT, OTA_SLOT="8192",
                               OPT="-Os") / "bbrt.elf"


def padded_program(c: list[float], pad_floats: int) -> bytes:
    """A node-1 .bbrt program y = x + c (Recv edge 10, Send edge 11) carrying ``pad_floats`` more constant
    floats (an unused tensor), so an image takes many chunks and flash pages to write."""
    inf = struct.unpack("<i", struct.pack("<f", float("inf")))[0]
    ninf = struct.unpack("<i", struct.pack("<f", float("-inf")))[0]
    pad = np.arange(pad_floats, dtype=np.float32).reshape(1, pad_floats) * (c[0] + 0.5)
    tensors = [Tensor("x", 1, (1, 4), STORE_ARENA, 0),
               Tensor("c", 1, (1, 4), STORE_CONST, data=np.array([c], np.float32)),
               Tensor("y", 1, (1, 4), STORE_ARENA, 32),
               Tensor("pad", 1, (1, pad_floats), STORE_CONST, data=pad)]
    ops = [OpRecord(Op.ADD_F32, [0, 1], [2], [ninf, inf])]
    edges = [EdgeRecord(10, 0, RECV, 1, 0), EdgeRecord(11, 0, SEND, 1, 2)]
    return Program(NODE_ID, tensors, ops, edges, arena_size=64).to_bytes()


class Life:
    """One boot of a node until it is cut: send envelopes, read what it sent, SIGKILL it."""

    proc: subprocess.Popen[bytes]

    def __init__(self) -> None:
        self.got: list[wire.Envelope] = []
        self.raw: list[bytes] = []  # the same envelopes, as received
        self.lock = threading.Lock()

    def _take(self, data: bytes) -> None:
        try:
            env = wire.decode(data, max_payload=len(data))
        except Exception:  # noqa: BLE001 - a torn last frame of a cut node is no reply
            return
        with self.lock:
            self.got.append(env)
            self.raw.append(bytes(data))

    def send(self, envelope: bytes) -> None:
        """Deliver one envelope to the node."""
        raise NotImplementedError

    def seen(self, edge: int, protocol: int = ota.PROTO_OTA) -> list[wire.Envelope]:
        """What the node sent so far with this protocol and edge."""
        with self.lock:
            return [e for e in self.got if e.protocol == protocol and e.edge == edge]

    def outputs(self) -> list[np.ndarray]:
        """The outputs (edge 11) it sent so far."""
        with self.lock:
            return [e.array() for e in self.got if e.kind == wire.KIND_DATA and e.edge == 11]

    def wait(self, pred: Any, timeout: float) -> bool:
        """Poll ``pred()`` until true or ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred():
                return True
            time.sleep(0.002)
        return bool(pred())

    def wait_more(self, edge: int, n: int, timeout: float) -> bool:
        """Wait until more than ``n`` OTA messages of type ``edge`` came."""
        return self.wait(lambda: len(self.seen(edge)) > n, timeout)

    def wait_outputs(self, n: int, timeout: float) -> bool:
        """Wait until ``n`` outputs came."""
        return self.wait(lambda: len(self.outputs()) >= n, timeout)

    def cut(self) -> None:
        """Power off: SIGKILL the process group, nothing flushed."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.close()

    def close(self) -> None:
        """Release the transport (after the process is gone)."""


class _PipeLife(Life):
    """A node on stdin/stdout frames (no link layer)."""

    def __init__(self, cmd: list[str], cwd: Path | None = None) -> None:
        super().__init__()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=cwd, start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        dec = FrameDecoder()
        assert self.proc.stdout is not None
        while True:
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return
            for env in dec.feed(chunk):
                self._take(env)

    def send(self, envelope: bytes) -> None:
        """One frame on its stdin (a cut node's closed pipe is ignored)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(frame(envelope))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def close(self) -> None:
        """Close the pipes."""
        self.reader.join(5)
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass


class PosixLife(_PipeLife):
    """The posix C node with its state file."""

    def __init__(self, exe: Path, factory: Path, key_file: Path, state: Path) -> None:
        super().__init__([str(exe), str(factory), "--name", NODE, "--deployment", DEPLOYMENT, "--ota-key",
                          str(key_file), "--ota-state", str(state)])


MPY_LAUNCH = """import hashlib, os, sys, time
sys.path.insert(0, {runtime!r})
from bbnode import framing, ota
from bbnode.executor import Program
from bbnode.node import Node
slots = ota.FileSlots("ota")
blob = slots.active_program()
if blob is None:
    with open("program.bbrt", "rb") as f:
        blob = f.read()
out = sys.stdout.buffer
def send(env):
    out.write(framing.encode(bytes(env)))
    out.flush()
node = Node(Program(blob), send=send, name={node!r}, max_payload=65536, program_hash=hashlib.sha256(blob).digest())
node.ota = ota.OtaNode({node!r}, bytes.fromhex({key!r}), slots, ota.NodeLoader(node), max_program=1 << 20,
                       deployment={deployment!r})
while True:
    data = os.read(0, 65536)
    if not data:
        break
    node.feed(data, int(time.monotonic() * 1000))
"""


class MpyLife(_PipeLife):
    """bbnode under CPython in ``directory`` (program.bbrt, FileSlots ``ota_*``)."""

    def __init__(self, directory: Path) -> None:
        from bb_edge.mpy.cross import runtime_dir

        (directory / "_launch.py").write_text(MPY_LAUNCH.format(runtime=str(runtime_dir()), node=NODE,
                                                                key=KEY.hex(), deployment=DEPLOYMENT))
        super().__init__([sys.executable, "_launch.py"], cwd=directory)


class QemuLife(Life):
    """The Cortex-M3 build under QEMU, its UART on a pty spoken with the link layer, its flash a host file."""

    def __init__(self, elf: Path, factory: Path, epoch: Path, flash: Path, timeout: float = 30.0) -> None:
        from bb_edge.adapters.transports.serial_link import FdPort, PtyPair, SerialLink
        from bb_edge.bbrt.qemu import qemu_command
        from bb_edge.deployment.manifest import HOST_NAME

        super().__init__()
        self.pty = PtyPair.open()
        cmd = qemu_command("cortex-m3", elf, factory, epoch, flash)
        cmd[cmd.index("-serial") + 1] = self.pty.slave_path
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        self.link = SerialLink(FdPort(self.pty.master), name="deploy", node_id=0, node_name=HOST_NAME)
        self.link.start(lambda d: self._take(bytes(d)))
        end = time.monotonic() + timeout
        while self.link.link.peer is None:
            assert time.monotonic() < end and self.proc.poll() is None, "no link HELLO from the QEMU node"
            time.sleep(0.01)

    def send(self, envelope: bytes) -> None:
        """One envelope over the link (reliable, in order)."""
        self.link.send(envelope)

    def close(self) -> None:
        """Close the link and the pty."""
        self.link.close()
        try:
            os.close(self.pty.slave)
        except OSError:
            pass


@dataclass
class Trial:
    """One cut: where, what the deployer had heard, what the next boot ran."""

    phase: str
    delay_ms: float
    ready: bool
    committed: bool
    switched: bool
    before: str
    after: str  # "a", "b", or "neither" (no or a wrong answer)
    valid: bool


@dataclass
class Report:
    """Every trial of one run."""

    trials: list[Trial] = field(default_factory=list)

    @property
    def valid(self) -> int:
        """Boots that ended on a valid program."""
        return sum(t.valid for t in self.trials)

    def by_phase(self) -> dict[str, int]:
        """Cuts per phase."""
        return {p: sum(t.phase == p for t in self.trials) for p in PHASES}

    def line(self) -> str:
        """The summary line (bench/bench_ota_power.py prints it)."""
        n = len(self.trials)
        phases = ", ".join(f"{p} {k}" for p, k in self.by_phase().items())
        switched = sum(t.before != t.after for t in self.trials)
        return f"{self.valid}/{n} valid boots ({phases}; {switched} boots on the new program)"


class _Seq:
    def __init__(self) -> None:
        self.n = (int(time.time()) & 0x7FFFFFFF) << 32

    def __call__(self) -> int:
        self.n += 1
        return self.n


def _request(seq: _Seq, rid: int) -> bytes:
    env = wire.Envelope.for_array(X, sender=0, receiver=NODE_ID, seq=seq(), request_id=rid, edge=10)
    return wire.encode(env)


def _which(y: np.ndarray | None) -> str:
    for k, c in CONSTS.items():
        if y is not None and np.array_equal(y, X + np.array([c], np.float32)):
            return k
    return "neither"


def _answer(life: Life, seq: _Seq, rid: int, timeout: float) -> str:
    n = len(life.outputs())
    life.send(_request(seq, rid))
    life.wait(lambda: len(life.outputs()) > n, timeout)
    outs = life.outputs()
    return _which(outs[-1] if len(outs) > n else None)


def run_power_cuts(boot: Any, images: dict[str, bytes], cuts: int, seed: int, chunk: int,
                   timeout: float = 30.0, target: int = ota.TARGET_BBRT) -> Report:
    """``cuts`` trials on the node ``boot()`` starts (a :class:`Life` on the same persistent store each time);
    ``target``: the node's program kind (bbrt for C nodes, micropython)."""
    rng = np.random.default_rng(seed)
    seq = _Seq()
    report = Report()
    life = boot()
    rid = 1
    cur = _answer(life, seq, rid, timeout)
    assert cur == "a", f"the first boot must run the factory program, answered {cur}"
    # the times the phases take on this node, measured once on an uncut update and back
    timing: dict[str, float] = {}
    version = 0
    for want in ("b", "a"):
        version += 1
        t = _deploy(life, seq, images[want], version, chunk, timeout, timing, target)
        assert t == "switched", t
        rid += 1
        t0 = time.monotonic()
        assert _answer(life, seq, rid, timeout) == want
        timing["first_run"] = max(timing.get("first_run", 0.0), time.monotonic() - t0)
    for _ in range(cuts):
        other = "b" if cur == "a" else "a"
        version += 1
        phase = PHASES[int(rng.integers(len(PHASES)))]
        delay = float(rng.uniform(0.0, 1.5 * timing.get(phase, 0.002)))
        upd = ota.NodeUpdate(NODE, images[other], target, ota.hmac_signer(KEY), ota.SIG_HMAC_SHA256, chunk)
        d = ota.OtaDeployer({NODE: NODE_ID, "_host": 0}, [upd], seq, version, version=version,
                            deployment=DEPLOYMENT)
        msgs = [o.data for o in d.start(0.0)]
        n_ready = len(life.seen(ota.READY))
        n_switched = len(life.seen(ota.SWITCHED))
        committed = False
        if phase == "staging":
            k = int(rng.integers(1, len(msgs)))  # OFFER2 and k-1 chunks (not the last)
            for m in msgs[:k]:
                life.send(m)
        else:
            for m in msgs:
                life.send(m)
            if phase != "verification" and life.wait_more(ota.READY, n_ready, timeout):
                life.send(_commit(seq, version))
                committed = True
                if phase == "first_run" and life.wait_more(ota.SWITCHED, n_switched, timeout):
                    rid += 1
                    life.send(_request(seq, rid))
        time.sleep(delay)
        life.cut()
        ready = len(life.seen(ota.READY)) > n_ready
        switched = len(life.seen(ota.SWITCHED)) > n_switched
        life = boot()
        rid += 1
        after = _answer(life, seq, rid, timeout)
        valid = after in (cur, other) and (not switched or after == other) and (committed or after == cur)
        report.trials.append(Trial(phase, delay * 1000.0, ready, committed, switched, cur, after, valid))
        if after not in ("a", "b"):
            break  # nothing sensible to continue from
        cur = after
    life.cut()
    return report


def _commit(seq: _Seq, uid: int) -> bytes:
    env = wire.Envelope.for_bytes(struct.pack("<I", uid), sender=0, receiver=NODE_ID, seq=seq(),
                                  kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA, edge=ota.COMMIT)
    return wire.encode(env, max_payload=4)


def _deploy(life: Life, seq: _Seq, image: bytes, version: int, chunk: int, timeout: float,
            timing: dict[str, float], target: int) -> str:
    """An uncut update; records how long verification (last chunk to READY) and switching took."""
    upd = ota.NodeUpdate(NODE, image, target, ota.hmac_signer(KEY), ota.SIG_HMAC_SHA256, chunk)
    d = ota.OtaDeployer({NODE: NODE_ID, "_host": 0}, [upd], seq, version, version=version, deployment=DEPLOYMENT)
    msgs = [o.data for o in d.start(0.0)]
    n_ready, n_sw = len(life.seen(ota.READY)), len(life.seen(ota.SWITCHED))
    t0 = time.monotonic()
    for m in msgs:
        life.send(m)
    timing["staging"] = max(timing.get("staging", 0.0), time.monotonic() - t0)
    t1 = time.monotonic()
    if not life.wait_more(ota.READY, n_ready, timeout):
        return f"no READY: {[(e.edge, bytes(e.payload_bytes())[:6].hex()) for e in life.seen(ota.NACK)]}"
    timing["verification"] = max(timing.get("verification", 0.0), time.monotonic() - t1)
    t2 = time.monotonic()
    life.send(_commit(seq, version))
    if not life.wait(lambda: len(life.seen(ota.SWITCHED)) > n_sw, timeout):
        return "no SWITCHED"
    timing["switching"] = max(timing.get("switching", 0.0), time.monotonic() - t2)
    return "switched"


def sha(data: bytes) -> str:
    """Short SHA-256 hex of an image (for messages)."""
    return hashlib.sha256(data).hexdigest()[:12]
