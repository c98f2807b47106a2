"""The MLPerf Tiny reference models (../shared/models/mlperf-tiny beside the checkout) and how to run them.

Shared by tests/firmware/test_mlperf_tiny.py and bench/bench_mlperf_tiny.py: load a model's QDQ ONNX
and its stored TFLite outputs, lower it, run it on the host build (ctypes) or under QEMU through the
Cortex-M instruction-count harness (firmware/ports/qemu-cortex-m4/bench_main.c, inputs mode).
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from bb_edge.bbrt.format import NP_OF, RECV, SEND, Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bbrt.native import make
from bb_edge.bbrt.resolver import resolver_source
from bb_edge.bbrt.widen import widen_lowered as widened
from bb_edge.resources import package_data

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / ".." / "shared" / "models" / "mlperf-tiny"
#: the five int8 models (README of MODELS)
NAMES = ("ad", "kws", "ic", "vww", "strww")
#: kind -> (QEMU machine, make goal, program address, inputs address) of the harness (bench_main.c)
QEMU_ARM = {"cortex-m3": ("mps2-an385", "cortex-m3-bench", 0x00100000, 0x00300000),
            "cortex-m4": ("mps2-an386", "cortex-m4-bench", 0x00100000, 0x00300000),
            "cortex-m55": ("mps3-an547", "cortex-m55-bench", 0x21000000, 0x21200000)}


def reference(name: str) -> tuple[onnx.ModelProto, np.ndarray, np.ndarray]:
    """(QDQ ONNX model, the 8 int8 inputs in the ONNX layout, TFLite's int8 outputs)."""
    ref = np.load(MODELS / "reference" / f"{name}_int8.npz")
    return onnx.load(str(MODELS / "onnx" / f"{name}_int8.onnx")), ref["input"], ref["tflite_output"]


def lowered(name: str) -> Lowered:
    """The model lowered as one int8 node (its own scales and zero points)."""
    return lower(reference(name)[0], io_edges=None)


def device_input(L: Lowered, x: np.ndarray) -> np.ndarray:
    """One input as the device takes it (transposed when the lowering moved the model's input Transpose)."""
    perm = next(iter(L.input_perm.values()), None)
    return np.ascontiguousarray(np.transpose(x, perm) if perm else x)


def run_host(L: Lowered, inputs: np.ndarray) -> np.ndarray:
    """Outputs of the host build (ctypes) for each input (batch of 1 each), stacked."""
    hp = HostProgram(L.blob, L.program)
    rin = next(e.tensor for e in L.program.edges if e.direction == RECV)
    sout = next(e.tensor for e in L.program.edges if e.direction == SEND)
    outs = []
    for k in range(len(inputs)):
        hp.run({rin: device_input(L, inputs[k:k + 1])})
        outs.append(hp.view(sout).copy().reshape(-1))
    return np.stack(outs)


def qemu_arm_run(L: Lowered, inputs: np.ndarray, d: Path, kind: str = "cortex-m4",
                 opt: str = "-Os", dsp: bool = True) -> tuple[np.ndarray, float, dict[str, Any]]:
    """Outputs under QEMU (``kind``: cortex-m3, cortex-m4 or cortex-m55), instructions per inference (-icount),
    and the build's files (elf, program, inputs) with instructions per opcode (per_op). ``dsp=False``: the
    portable kernels (M4: no SMLAD kernels; M55: built +nomve, no Helium)."""
    goal = QEMU_ARM[kind][1]
    if kind == "cortex-m4" and dsp:  # the DSP kernels take their weights widened (bb_edge/bbrt/widen.py)
        L = widened(L)
    d.mkdir(parents=True, exist_ok=True)
    res = d / "resolver.c"
    res.write_text(resolver_source(L.ops_used))
    extra = {} if dsp else {"cortex-m4": {"M4_KERNELS": ""}, "cortex-m55": {"M55_MVE": "0"}}.get(kind, {})
    edge_bytes = max(L.program.tensors[e.tensor].nbytes for e in L.program.edges)
    build = make(goal, d / f"build-{kind}{'' if dsp else '-portable'}", RESOLVER=str(res), OPT=opt,
                 ARENA=str(max(8, L.program.arena_size)), MAX_PAYLOAD=str(max(4096, edge_bytes)), **extra)
    return harness_run(L, inputs, d, kind, build / "bench.elf")


def harness_run(L: Lowered, inputs: np.ndarray, d: Path, kind: str,
                elf: Path) -> tuple[np.ndarray, float, dict[str, Any]]:
    """Run a built harness ``elf`` (make goal ``<kind>-bench``, its arena large enough) on ``L`` and ``inputs``
    under QEMU: outputs, instructions per inference, files and per-op instructions (as :func:`qemu_arm_run`)."""
    machine, _, prog_addr, inputs_addr = QEMU_ARM[kind]
    d.mkdir(parents=True, exist_ok=True)
    prog = d / "p.bbrt"
    prog.write_bytes(L.blob)
    rdt = NP_OF[L.program.tensors[next(e.tensor for e in L.program.edges if e.direction == RECV)].dtype]
    sdt = NP_OF[L.program.tensors[next(e.tensor for e in L.program.edges if e.direction == SEND)].dtype]
    blob = b"".join(device_input(L, inputs[k:k + 1]).astype(rdt).tobytes() for k in range(len(inputs)))
    inp = d / "inputs.bin"
    inp.write_bytes(b"BBIN" + struct.pack("<I", len(inputs)) + blob)
    out = subprocess.run(["qemu-system-arm", "-M", machine, "-cpu", kind, "-display", "none", "-monitor", "none",
                          "-serial", "null", "-icount", "shift=0", "-kernel", str(elf),
                          "-device", f"loader,file={prog},addr=0x{prog_addr:08x}",
                          "-device", f"loader,file={inp},addr=0x{inputs_addr:08x}",
                          "-semihosting-config", "enable=on,target=native"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600).stdout
    if "load 0" not in out:
        raise RuntimeError(f"QEMU harness failed: {out[-2000:]}")
    runs = re.findall(r"^run (\d+)", out, re.M)
    if runs != ["0"] * len(inputs):
        raise RuntimeError(f"QEMU runs: {runs}: {out[-2000:]}")
    outs = np.stack([np.frombuffer(bytes.fromhex(h), sdt) for h in re.findall(r"^out ([0-9a-f]*)", out, re.M)])
    ticks = int(re.search(r"ticks (\d+)", out).group(1))  # type: ignore[union-attr]
    nruns = int(re.search(r"runs (\d+)", out).group(1))  # type: ignore[union-attr]
    hz = re.search(r"^hz (\d+)", out, re.M)
    per_tick = 1e9 / int(hz.group(1)) if hz else 40.0  # -icount shift=0: 1 instruction per ns of virtual time
    per_op: dict[str, float] = {}
    ops: list[float] = []  # instructions of each op, in program order
    for code, t in zip(re.findall(r"^op (\d+)", out, re.M), re.findall(r"^opticks (\d+)", out, re.M), strict=True):
        per_op[Op(int(code)).name] = per_op.get(Op(int(code)).name, 0.0) + int(t) * per_tick / nruns
        ops.append(int(t) * per_tick / nruns)
    return outs, ticks * per_tick / nruns, {"elf": elf, "program": prog, "inputs": inp, "per_op": per_op, "ops": ops}


def m4_profile(path: Path, ram: int, flash: int) -> Path:
    """A Cortex-M4 (QEMU mps2-an386) target profile with these RAM and flash budgets, written to ``path``."""
    prof = json.loads((package_data("target_profiles") / "qemu-cortex-m4.json").read_text())
    prof.update(name=f"cortex-m4-{ram // 1024}k-ram-{flash // 1024}k-flash", ram_bytes=ram, flash_bytes=flash,
                summary=f"Cortex-M4, {ram // 1024} KiB RAM, {flash // 1024} KiB flash (QEMU mps2-an386)")
    path.write_text(json.dumps(prof, indent=1) + "\n")
    return path


def qemu_xtensa_run(L: Lowered, inputs: np.ndarray, d: Path) -> np.ndarray:
    """Outputs of the Xtensa LX106 build (QEMU sim) for each input (the program must be <= 192 KiB)."""
    d.mkdir(parents=True, exist_ok=True)
    res = d / "resolver.c"
    res.write_text(resolver_source(L.ops_used))
    prog = d / "p.bbrt"
    prog.write_bytes(L.blob)
    inp = d / "inputs.bin"
    inp.write_bytes(b"BBIN" + struct.pack("<I", len(inputs))
                    + b"".join(device_input(L, inputs[k:k + 1]).astype(np.int8).tobytes() for k in range(len(inputs))))
    edge_bytes = max(L.program.tensors[e.tensor].nbytes for e in L.program.edges)
    build = make("xtensa-bench", d / "build", RESOLVER=str(res), OPT="-Os", ARENA=str(max(8, L.program.arena_size)),
                 MAX_PAYLOAD=str(max(4096, edge_bytes)))
    out = subprocess.run(["qemu-system-xtensa", "-M", "sim", "-cpu", "lx106", "-display", "none", "-monitor", "none",
                          "-serial", "stdio", "-kernel", str(build / "bench.elf"),
                          "-device", f"loader,file={prog},addr=0x3ff40000",
                          "-device", f"loader,file={inp},addr=0x3ff70000",
                          "-semihosting-config", "enable=on,target=native"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=600).stdout
    runs = re.findall(r"^run (\d+)", out, re.M)
    if "load 0" not in out or runs != ["0"] * len(inputs):
        raise RuntimeError(f"xtensa harness failed: {out[-2000:]}")
    return np.stack([np.frombuffer(bytes.fromhex(h), np.int8) for h in re.findall(r"^out ([0-9a-f]*)", out, re.M)])


#: the MicroPython bench: load prog.bbrt, run it on in<k>.bin into out/, print memory and timings as JSON
MPY_BENCH_SCRIPT = """
import gc, json, os, time
from bbnode.executor import Program
blob = open('prog.bbrt', 'rb').read()
gc.collect()
a0 = gc.mem_alloc()
t0 = time.ticks_ms()
P = Program(blob)
load_ms = time.ticks_diff(time.ticks_ms(), t0)
gc.collect()
load = gc.mem_alloc() - a0
del blob
gc.collect()
os.mkdir('out')
res = {'load_bytes': load, 'load_ms': load_ms, 'arena_bytes': P.arena_size, 'ms': [], 'alloc': []}
for k in range(N):
    P.write_bytes(RIN, open('in%d.bin' % k, 'rb').read())
    gc.collect()
    gc.disable()
    t0 = time.ticks_ms()
    a0 = gc.mem_alloc()
    P.run()
    a1 = gc.mem_alloc()
    t1 = time.ticks_ms()
    gc.enable()
    res['alloc'].append(a1 - a0)
    res['ms'].append(time.ticks_diff(t1, t0))
    with open('out/out%d.bin' % k, 'wb') as f:
        f.write(P.read_bytes(SOUT))
print('RESULT', json.dumps(res))
"""
