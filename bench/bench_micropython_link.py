"""MicroPython link layer speed: bytes/s through bbnode/link.py in the MicroPython VM vs bb_edge/wire/link.py.

    python bench/bench_micropython_link.py

Two link ends exchange 16 KiB envelopes (fragmented over a 4 KiB MTU, every frame COBS + CRC framed and
deframed, acks flowing back) in one process: both MicroPython ends in the WebAssembly VM (bytecode .mpy
of firmware/micropython/bbnode), then both Python ends (bb_edge.wire.link with bb_edge.wire.framing) in
CPython, the in-process baseline. Prints delivered envelope bytes per second and the ratio. No faults,
no clock: this is the cost of the protocol and the framing per byte. Asserts nothing.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.wire.framing import FrameDecoder, frame  # noqa: E402
from bb_edge.wire.hello import HelloRecord  # noqa: E402
from bb_edge.wire.link import EnvelopeReceived, Link, LinkConfig  # noqa: E402
from tests.support.mpy_vm import build_lib, ensure_vm, run_vm  # noqa: E402

N = 200
ENV = bytes(range(256)) * 64  # 16 KiB

VM = f"""
import time
from bbnode import link as L, framing as F
wires = [[], []]
fb = bytearray(4100)
fr = bytearray(F.max_frame(4096) + 1)
def mk(k):
    def write(mv):
        n = len(mv)
        fb[:n] = mv
        m = F.frame_into(fb, n, fr)
        wires[k].append(bytes(fr[:m]))
    return write
got = [0]
def deliver(mv, bare):
    got[0] += len(mv)
cfg = dict(hb_interval=0, dead_after=0, reassembly_budget=40000)
A = L.Link(L.Hello(node_id=0, max_frame=4096), mk(0), deliver, **cfg)
B = L.Link(L.Hello(node_id=1, max_frame=4096), mk(1), deliver, **cfg)
dA = F.Deframer(4096)
dB = F.Deframer(4096)
A.start(0)
B.start(0)
env = bytes(range(256)) * 64
t0 = time.ticks_us()
for i in range({N}):
    A.send(env, i)
    for _ in range(3):
        for k, (link, d) in enumerate(((B, dB), (A, dA))):
            data = b''.join(wires[k])
            wires[k] = []
            d.feed(data, lambda mv: link.receive(mv, i))
print('US', time.ticks_diff(time.ticks_us(), t0), got[0])
"""


def python_rate() -> float:
    cfg = LinkConfig(hb_interval=0, dead_after=0)
    a = Link(HelloRecord(1, 1, 3, 1, 0, 4096, 8, "a"), cfg)
    b = Link(HelloRecord(1, 1, 3, 1, 1, 4096, 8, "b"), cfg)
    da, db = FrameDecoder(8192), FrameDecoder(8192)
    a.start(0.0)
    b.start(0.0)
    got = 0
    t0 = time.perf_counter()
    for i in range(N):
        a.send(ENV, i / 1000)
        for _ in range(3):
            for src, dst, dec in ((a, b, db), (b, a, da)):
                for body in dec.feed(b"".join(frame(x) for x in src.take_frames())):
                    dst.receive(body, i / 1000)
                got += sum(len(e.envelope) for e in dst.take_events() if isinstance(e, EnvelopeReceived))
    assert got == N * len(ENV)
    return got / (time.perf_counter() - t0)


def main() -> None:
    with tempfile.TemporaryDirectory() as td:
        work = Path(td)
        lib = build_lib(work / "lib")
        out = run_vm(ensure_vm(), lib, work, VM, timeout=600)
        us, got = map(int, [s for s in out.splitlines() if s.startswith("US")][-1].split()[1:])
        assert got == N * len(ENV)
    m = got / (us / 1e6)
    p = python_rate()
    print(f"{'link, 16 KiB over 4 KiB MTU':<30}{'MicroPython B/s':>18}{'CPython B/s':>16}{'ratio MPy/Py':>14}")
    print(f"{'both ends, framed':<30}{m:>18,.0f}{p:>16,.0f}{m / p:>14.3f}  (1/{p / m:,.0f})")


if __name__ == "__main__":
    main()
