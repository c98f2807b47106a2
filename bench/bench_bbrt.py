"""bbrt benchmarks: arena vs lower bound, Cortex-M3 code size, host instructions vs ONNX Runtime int8.

    python bench/bench_bbrt.py

Prints ratios; asserts nothing about speed. Instruction counts come from
valgrind --tool=callgrind: bbrt's posix build running one inference of the
program, against a Python process running ORT's int8 (QDQ) model of the same
program, each minus its own no-inference baseline.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from bb_edge.bbrt.examples import sample_inputs, small_cnn
from bb_edge.bbrt.firmware import elf_sizes
from bb_edge.bbrt.lower import lower
from bb_edge.bbrt.native import host_executable, make
from bb_edge.bbrt.reference import qdq_model
from bb_edge.bbrt.resolver import resolver_source
from bb_edge.wire import Envelope, encode, frame


def callgrind(cmd: list[str], stdin: bytes = b"") -> int:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "cg.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd], input=stdin,
                       capture_output=True, check=True)
        text = out.read_text()
    m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    assert m, "no callgrind summary"
    return int(m.group(1))


def main() -> None:
    model = small_cnn(size=32)
    calib = sample_inputs(16, size=32)
    L = lower(model, node_id=1, precision="int8", calib=calib, io_edges={"x": 1, "prob": 2})
    p = L.program
    print(f"small CNN (32x32) int8: {len(p.ops)} ops, program {len(L.blob)} B, constants {p.const_bytes()} B")
    print(f"arena: planned {p.arena_size} B, lower bound {p.arena_lower_bound} B, "
          f"ratio {p.arena_size / p.arena_lower_bound:.3f} (goal <= 1.05)")
    Lf = lower(model, node_id=1, precision="fp32", calib=calib, io_edges={"x": 1, "prob": 2})
    print(f"arena fp32: planned {Lf.program.arena_size} B, lower bound {Lf.program.arena_lower_bound} B, "
          f"ratio {Lf.program.arena_size / Lf.program.arena_lower_bound:.3f}")

    with tempfile.TemporaryDirectory() as d:
        res = Path(d) / "resolver.c"
        res.write_text(resolver_source(L.ops_used))
        make("cortex-m3", Path(d) / "m3", RESOLVER=str(res), OPT="-Os", ARENA=str(p.arena_size))
        s = elf_sizes(Path(d) / "m3" / "bbrt.elf", "arm-none-eabi-")
        kernels = ", ".join(sorted(o.name for o in L.ops_used))
        print(f"Cortex-M3 -Os runtime code (text, kernels of this CNN: {kernels}):"
              f" {s['text']} B = {s['text'] / 1024:.2f} KiB (goal <= 16 KiB)")
        make("cortex-m3", Path(d) / "m3all", OPT="-Os")
        s_all = elf_sizes(Path(d) / "m3all" / "bbrt.elf", "arm-none-eabi-")
        print(f"Cortex-M3 -Os with every kernel: {s_all['text']} B = {s_all['text'] / 1024:.2f} KiB")

        prog = Path(d) / "p.bbrt"
        prog.write_bytes(L.blob)
        x = calib[0]["x"]
        req = frame(encode(Envelope.for_array(x, sender=0, receiver=1, seq=1, request_id=1, edge=1)))
        exe = str(host_executable())
        base = callgrind([exe, str(prog)], b"")
        one = callgrind([exe, str(prog)], req)
        bbrt_ins = one - base
        qm, qn = qdq_model(L)
        qpath = Path(d) / "qdq.onnx"
        import onnx

        onnx.save(qm, str(qpath))
        np.save(Path(d) / "x.npy", x)
        script = (
            "import sys, numpy as np, onnxruntime as ort\n"
            "so = ort.SessionOptions(); so.intra_op_num_threads = 1; so.inter_op_num_threads = 1\n"
            f"s = ort.InferenceSession({str(qpath)!r}, so, providers=['CPUExecutionProvider'])\n"
            f"x = np.load({str(Path(d) / 'x.npy')!r})\n"
            "n = int(sys.argv[1])\n"
            "for _ in range(n): s.run(None, {'x': x})\n")
        r_lo = callgrind([sys.executable, "-c", script, "5"])
        r_hi = callgrind([sys.executable, "-c", script, "105"])
        ort_ins = (r_hi - r_lo) / 100
        print(f"host instructions per inference: bbrt {bbrt_ins:,} (incl. framing and envelope I/O), "
              f"ORT int8 QDQ {ort_ins:,.0f} (1 thread, steady state); ratio bbrt/ORT {bbrt_ins / ort_ins:.2f}")


if __name__ == "__main__":
    main()
