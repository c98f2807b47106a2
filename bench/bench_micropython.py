"""MicroPython node runtime speed: inferences per second in the MicroPython VM vs the C runtime.

    python bench/bench_micropython.py

The same .bbrt program (small_cnn, int8 and float32) runs in the MicroPython WebAssembly VM
(the npm port under Node; bytecode .mpy of firmware/micropython/bbnode) and in the C runtime's
host build (firmware/ posix build through ctypes, -O2). Prints inferences/s and the ratio
MicroPython / C. The WebAssembly VM is a JIT-compiled interpreter on this CPU: on an ESP32 at
240 MHz expect the MicroPython figure to be roughly 20-50x lower again. Asserts nothing.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.bbrt.host import HostProgram  # noqa: E402
from bb_edge.bbrt.lower import lower  # noqa: E402
from tests.support.examples import sample_inputs, small_cnn  # noqa: E402
from tests.support.mpy_vm import build_lib, ensure_vm, run_vm  # noqa: E402


def c_rate(L, x, seconds: float = 1.0) -> float:  # type: ignore[no-untyped-def]
    h = HostProgram(L.blob, L.program)
    idx = L.float_index["x"]
    h.run({idx: x})
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        h.run({idx: x})
        n += 1
    return n / (time.perf_counter() - t0)


def mpy_rate(L, x, work: Path, lib: Path, n: int) -> float:  # type: ignore[no-untyped-def]
    (work / "prog.bbrt").write_bytes(L.blob)
    (work / "in.bin").write_bytes(x.astype("<f4").tobytes())
    out = run_vm(ensure_vm(), lib, work, f"""
import time
from bbnode.executor import Program
P = Program(open('prog.bbrt', 'rb').read())
P.write_bytes({L.float_index["x"]}, open('in.bin', 'rb').read())
P.run()
def go(n):
    t0 = time.ticks_us()
    for i in range(n):
        P.run()
    return time.ticks_diff(time.ticks_us(), t0)
print('US', go({n}))
""", timeout=600)
    us = int([s for s in out.splitlines() if s.startswith("US")][-1].split()[1])
    return n / (us / 1e6)


def main() -> None:
    feeds = sample_inputs(4)
    x = feeds[0]["x"]
    with tempfile.TemporaryDirectory() as td:
        work = Path(td)
        lib = build_lib(work / "lib")
        print(f"{'program':<16}{'MicroPython inf/s':>20}{'C host inf/s':>16}{'ratio MPy/C':>14}")
        for prec, n in (("int8", 20), ("fp32", 10)):
            L = lower(small_cnn(), precision=prec, calib=feeds)
            m = mpy_rate(L, x, work, lib, n)
            c = c_rate(L, x)
            print(f"{'small_cnn ' + prec:<16}{m:>20.2f}{c:>16.0f}{m / c:>14.2e}  (1/{c / m:,.0f})")


if __name__ == "__main__":
    main()
