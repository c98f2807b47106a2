"""C-end link goodput over a pty, as a ratio to the raw bytes the same pty carries in the same run.

The far end is the posix C node (``bbrt-host --serial``, firmware/src/bbrt_link.c) running an echo
program (Relu on 4,096 float32: a 16 KiB envelope each way per request); the near end is
``bb_edge.adapters.devices.serial_devices.PtyHostDevice`` driving ``bb_edge.wire.link.Link``. Goodput = tensor
payload bytes delivered exactly once (both directions) per second. Raw = bytes/s of plain
``os.write``/``os.read`` through a pty pair (one writer thread, one reader) in this process.

Lines (both ends with the default adaptive frame size, docs/wire.md "Frame size", under the C
build's 4 KiB BBRT_LINK_MTU): clean; 1% of frames damaged (1-3 bytes each); 5e-4 of bytes corrupted,
against a sweep of fixed frame sizes (both ends' adaptation off) for the best fixed size; 1% of bytes
corrupted with 0.5% dropped (no goal: a frame of n bytes arrives intact with probability 0.985**n).
The table at the end has issue 40's goals and the frame size each end settled on (the C end's from its
exit statistics). Last, the C end's RTT estimate: a delay line of D ms each way in this process (frames
are held D ms before they are written, and D ms after they are read), SRTT as the C node reports it
at exit against the configured round trip 2D. Prints figures, asserts none.

    python bench/bench_link_c.py [--requests N] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.devices.serial_devices import PtyHostDevice  # noqa: E402
from bb_edge.bbrt.format import RECV, SEND, STORE_ARENA, EdgeRecord, Op, OpRecord, Program, Tensor  # noqa: E402
from bb_edge.bbrt.native import host_executable  # noqa: E402
from bb_edge.wire import Envelope, decode, encode  # noqa: E402
from bb_edge.wire.link import LinkConfig  # noqa: E402

N = 4096  # float32 elements per tensor: 16 KiB


def echo_program(node_id: int = 5) -> bytes:
    """Relu on [1, N] float32: graph input edge 1 from the host, output edge 2 to the host."""
    tensors = [Tensor("x", 1, (1, N), STORE_ARENA, 0), Tensor("y", 1, (1, N), STORE_ARENA, 4 * N)]
    edges = [EdgeRecord(1, 0, RECV, 1, 0), EdgeRecord(2, 0, SEND, 1, 1)]
    return Program(node_id, tensors, [OpRecord(Op.RELU_F32, [0], [1])], edges, arena_size=8 * N).to_bytes()


def raw_pty_bytes_per_s(total: int = 32 << 20, chunk: int = 65536) -> float:
    """Plain bytes through a pty pair: one writer thread, the reader here."""
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    buf = os.urandom(chunk)

    def writer() -> None:
        sent = 0
        while sent < total:
            sent += os.write(master, buf[: min(chunk, total - sent)])

    t = threading.Thread(target=writer, daemon=True)
    t0 = time.perf_counter()
    t.start()
    got = 0
    while got < total:
        got += len(os.read(slave, 1 << 16))
    dt = time.perf_counter() - t0
    t.join()
    os.close(master)
    os.close(slave)
    return total / dt


class Damage:
    """Seeded damage: per byte (corrupt, drop) or per write (a frame: 1-3 corrupted bytes)."""

    def __init__(self, byte_rate: float = 0.0, drop: float = 0.0, frame_rate: float = 0.0, seed: int = 1) -> None:
        self.rng = np.random.default_rng(seed)
        self.byte_rate, self.drop, self.frame_rate = byte_rate, drop, frame_rate

    def __call__(self, data: bytes) -> bytes:
        buf = np.frombuffer(data, np.uint8).copy()
        if self.byte_rate:
            hits = np.flatnonzero(self.rng.random(buf.size) < self.byte_rate)
            buf[hits] ^= self.rng.integers(1, 256, hits.size, dtype=np.uint8)
        if self.frame_rate:  # each 0x00-delimited frame in this write
            ends = np.flatnonzero(buf == 0)
            start = 0
            for end in ends:
                if end > start and self.rng.random() < self.frame_rate:
                    at = self.rng.integers(start, end, int(self.rng.integers(1, 4)))
                    buf[at] ^= self.rng.integers(1, 256, at.size, dtype=np.uint8)
                start = end + 1
        if self.drop:
            buf = buf[self.rng.random(buf.size) >= self.drop]
        return buf.tobytes()


def device(prog: Path, epoch: Path, damage: Damage | None, frame: int, fixed: bool = False) -> PtyHostDevice:
    """The C node on a pty, the damage applied to both directions at this end."""

    class Dev(PtyHostDevice):
        def write(self, data: bytes) -> None:
            super().write(damage(data) if damage else data)

        def read_available(self, timeout: float = 0.0) -> bytes:
            raw = super().read_available(timeout)
            return damage(raw) if damage and raw else raw

    fast = damage is not None  # a noisy line is paced by timeouts: keep them short (a pty answers in ms)
    cfg = LinkConfig(rto_initial=0.02 if fast else 0.2, rto_min=0.005 if fast else 0.02,
                     rto_max=0.025 if fast else 2.0, max_retries=100000, hb_interval=0.1, dead_after=10.0,
                     reassembly_timeout=120.0, mtu=frame, grow_after=0 if fixed else 8)
    timers = (20, 5, 25, 100000, 100, 10000, 120000) if fast else None
    # the C end adapts unless fixed: then it is held to `frame` by the max_frame the Python end advertises
    return Dev(host_executable(), prog, 5, epoch_file=epoch, max_frame=frame if fixed else 4096, config=cfg,
               c_timers=timers)


class DelayDevice(PtyHostDevice):
    """A line with a fixed one-way delay in each direction (held here, written/handed up when due)."""

    delay = 0.02
    _out: list[tuple[float, bytes]]
    _in: list[tuple[float, bytes]]

    def write(self, data: bytes) -> None:
        self._out = getattr(self, "_out", [])
        self._out.append((time.monotonic() + self.delay, data))
        self._release()

    def _release(self) -> None:
        now = time.monotonic()
        while getattr(self, "_out", None) and self._out[0][0] <= now:
            super().write(self._out.pop(0)[1])

    def read_available(self, timeout: float = 0.0) -> bytes:
        self._in = getattr(self, "_in", [])
        self._release()
        raw = super().read_available(min(timeout, 0.002))
        now = time.monotonic()
        if raw:
            self._in.append((now + self.delay, raw))
        out = b""
        while self._in and self._in[0][0] <= now:
            out += self._in.pop(0)[1]
        return out


def c_rtt(prog: Path, epoch: Path, delay: float, seconds: float = 6.0) -> tuple[float, int]:
    """(C SRTT in s, its RTT samples) after `seconds` of PINGs over a line of `delay` each way."""
    from bb_edge.adapters.devices.serial_devices import CTRL_PING, PROBE_ID

    dev = DelayDevice(host_executable(), prog, 5, epoch_file=epoch, max_frame=4096,
                      config=LinkConfig(rto_initial=0.5, rto_min=0.02, rto_max=2.0, hb_interval=0.1))
    dev.delay = delay
    dev.start(30)
    try:
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            dev._seq += 1
            seq = (dev._probe_epoch << 32) | dev._seq
            dev.send(encode(Envelope.for_bytes(b"", sender=PROBE_ID, receiver=5, seq=seq, edge=CTRL_PING)))
            dev.pump_for(0.05)
        dev.pump_for(2 * delay + 0.1)
    finally:
        err = dev.stop()
    stats = dict(part.split("=") for part in err.split() if "=" in part)
    return int(stats["srtt_ms"]) / 1000, int(stats["rtt_samples"])


def goodput(prog: Path, epoch: Path, requests: int, damage: Damage | None, frame: int = 0,
            fixed: bool = False) -> dict[str, Any]:
    """Payload bytes/s of `requests` echo round trips, every reply checked once; frame sizes at the end."""
    dev = device(prog, epoch, damage, frame, fixed).start(60)
    rng = np.random.default_rng(2)
    xs = [rng.standard_normal((1, N)).astype(np.float32) for _ in range(requests)]
    envs = [encode(Envelope.for_array(x, sender=0, receiver=5, seq=(11 << 32) | (i + 1), request_id=i, edge=1))
            for i, x in enumerate(xs)]
    got: dict[int, np.ndarray] = {}
    t0 = time.perf_counter()
    try:
        for e in envs:
            dev.send(e)
        deadline = time.monotonic() + float(os.environ.get("BB_BENCH_DEADLINE", "600"))
        while len(got) < requests and time.monotonic() < deadline:
            for raw in dev.wait_data(1, 0.5):
                d = decode(raw)
                assert d.request_id not in got, "a reply twice"
                got[d.request_id] = np.asarray(d.array())
        dt = time.perf_counter() - t0
        bytes_out = dev.bytes_out
        py_fs = dev.link.frame_size if dev.link is not None else 0
    finally:
        err = dev.stop()
    assert len(got) == requests, f"{len(got)}/{requests} replies; {err}"
    for i, x in enumerate(xs):
        np.testing.assert_array_equal(got[i], np.maximum(x, 0))
    payload = 2 * requests * 4 * N
    stats = dict(part.split("=", 1) for part in err.split() if "=" in part)
    return {"s": dt, "goodput": payload / dt, "wire_out": bytes_out, "py_frame": py_fs,
            "c_frame": int(stats.get("frame_size", "0")), "c_shrinks": int(stats.get("shrinks", "0"))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=64, help="16 KiB echo round trips per line (default 64)")
    ap.add_argument("--quick", action="store_true", help="8 requests per line")
    a = ap.parse_args()
    n = 8 if a.quick else a.requests
    raw = raw_pty_bytes_per_s()
    print(f"raw pty: {raw / 1e6:.1f} MB/s")
    with tempfile.TemporaryDirectory() as tmp:
        prog = Path(tmp) / "echo.bbrt"
        prog.write_bytes(echo_program())
        rows: list[tuple[str, str, float, str]] = []

        def run(name: str, dmg: Damage | None, reqs: int, frame: int = 0, fixed: bool = False) -> dict[str, Any]:
            r = goodput(prog, Path(tmp) / "epoch", reqs, dmg, frame, fixed)
            print(f"{name:52s} goodput {r['goodput'] / 1e6:7.3f} MB/s   ratio to raw {r['goodput'] / raw:.4f}"
                  f"   ({r['s']:.2f} s; frame size Python {r['py_frame']}, C {r['c_frame']})", flush=True)
            return r

        r = run("clean, adaptive frames", None, n)
        rows.append(("C node goodput / raw pty, clean", ">= 0.8", r["goodput"] / raw,
                     f"Py {r['py_frame']}, C {r['c_frame']}"))
        r = run("1% of frames damaged, adaptive frames", Damage(frame_rate=0.01, seed=3), n)
        rows.append(("same, 1% of frames damaged", ">= 0.6", r["goodput"] / raw,
                     f"Py {r['py_frame']}, C {r['c_frame']}"))
        best, best_fs = 0.0, 0
        for fs in (128, 256, 512, 1024):
            f = run(f"5e-4 bytes corrupted, fixed {fs}-byte frames", Damage(5e-4, seed=3), max(2, n // 2), fs, True)
            if f["goodput"] > best:
                best, best_fs = f["goodput"], fs
        r = run("5e-4 bytes corrupted, adaptive frames", Damage(5e-4, seed=3), max(2, n // 2))
        rows.append((f"5e-4 bytes corrupted, defaults / best fixed size ({best_fs} B)", ">= 0.5", r["goodput"] / best,
                     f"Py {r['py_frame']}, C {r['c_frame']}"))
        r = run("1% bytes corrupted + 0.5% dropped, adaptive frames", Damage(0.01, 0.005, seed=3), max(2, n // 8))
        rows.append(("1% bytes corrupted + 0.5% dropped / raw pty", "-", r["goodput"] / raw,
                     f"Py {r['py_frame']}, C {r['c_frame']}"))
        for d in (0.02, 0.05):
            srtt, samples = c_rtt(prog, Path(tmp) / "epoch", d, 3.0 if a.quick else 6.0)
            print(f"C end RTT estimate over a {2 * d * 1e3:.0f} ms round trip: SRTT {srtt * 1e3:.0f} ms "
                  f"({samples} samples), error {abs(srtt - 2 * d) / (2 * d):.1%}")
    print("\n| figure | goal | measured | frame size |\n|---|---|---|---|")
    for name, goal, val, fs in rows:
        print(f"| {name} | {goal} | {val:.4f} | {fs} |" if val < 0.01 else f"| {name} | {goal} | {val:.2f} | {fs} |")
    la = os.getloadavg()
    print(f"(load: {la[0]:.2f} {la[1]:.2f} {la[2]:.2f})")


if __name__ == "__main__":
    main()
