"""Run the C training step (firmware/include/bbrt_train.h) from Python: in-process through ctypes, as the
posix harness executable, or on QEMU Cortex-M3 (mps2-an385), all on the same .bbrt training program.

The batches file the harnesses read (:func:`batches_blob`): u32 ``"BBTD"``, u32 steps, u32 batch,
u32 features, then every step's x (float32, row-major) and then every step's labels (int32).
"""

from __future__ import annotations

import ctypes
import re
import struct
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.host import aligned
from bb_edge.bbrt.native import STATUS_NAMES, cached_build
from bb_edge.bbrt.train_lower import TrainLowered

TRAIN_STATUS = {50: "TRAIN_MANIFEST", 51: "TRAIN_BATCH", 52: "TRAIN_LABEL", 53: "TRAIN_SIZE", 54: "TRAIN_VALUE"}
BATCHES_MAGIC = 0x44544242  # "BBTD"


def status_name(st: int) -> str:
    """Name of a bbrt or bbrt_train status code."""
    return TRAIN_STATUS.get(st, STATUS_NAMES.get(st, str(st)))


class TrainError(BbrtError):
    """The C training step refused a program, a batch or a parameter vector (``status`` is its code)."""

    def __init__(self, what: str, status: int) -> None:
        self.status = status
        super().__init__(f"{what}: {status_name(status)}")


#: bytes reserved for the opaque bbrt_train_t (a few hundred bytes in C; not mirrored field by field here)
TRAIN_T_BYTES = 4096


class TrainHost:
    """A training program loaded by ``bbrt_train_load`` in-process (UBSan-checked host library)."""

    def __init__(self, lowered: TrainLowered, arena_size: int | None = None, sanitize: bool = True) -> None:
        san = "-fsanitize=undefined -fno-sanitize-recover=all" if sanitize else ""
        self.lib = ctypes.CDLL(str(cached_build("train-lib", SAN=san) / "libbbrt_train.so"))
        L = self.lib
        vp, sz, u32 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint32
        L.bbrt_train_load.argtypes = [vp, vp, sz, vp, sz]
        L.bbrt_train_step.argtypes = [vp, vp, vp, u32, ctypes.POINTER(ctypes.c_float)]
        L.bbrt_train_get_params.argtypes = [vp, vp, sz]
        L.bbrt_train_set_params.argtypes = [vp, vp, sz]
        L.bbrt_train_reset_state.argtypes = [vp]
        L.bbrt_train_arena_size.argtypes = [vp, sz]
        L.bbrt_train_arena_size.restype = u32
        self.lowered = lowered
        self.blob = aligned(len(lowered.blob))
        self.blob[:] = np.frombuffer(lowered.blob, np.uint8)
        self.arena = aligned(max(8, arena_size if arena_size is not None else lowered.arena_bytes))
        self.t = aligned(TRAIN_T_BYTES)
        st = L.bbrt_train_load(self.t.ctypes.data, self.blob.ctypes.data, len(self.blob), self.arena.ctypes.data,
                               len(self.arena))
        if st != 0:
            raise TrainError("bbrt_train_load refused the program", st)
        self.batch = lowered.batch
        self.param_count = lowered.param_count

    def step(self, x: np.ndarray, labels: np.ndarray) -> float:
        """One training step on a batch; returns the loss (before the update)."""
        xa = np.ascontiguousarray(x, np.float32)
        la = np.ascontiguousarray(labels, np.int32)
        loss = ctypes.c_float()
        st = self.lib.bbrt_train_step(self.t.ctypes.data, xa.ctypes.data, la.ctypes.data, len(la),
                                      ctypes.byref(loss))
        if st != 0:
            raise TrainError("bbrt_train_step refused the batch", st)
        return float(loss.value)

    def params(self) -> np.ndarray:
        """The flat parameter vector (ParamLayout order)."""
        out = np.empty(self.param_count, np.float32)
        st = self.lib.bbrt_train_get_params(self.t.ctypes.data, out.ctypes.data, self.param_count)
        if st != 0:
            raise TrainError("bbrt_train_get_params", st)
        return out

    def set_params(self, vec: np.ndarray) -> None:
        """Replace the parameters (the C side refuses a wrong length or a non-finite value)."""
        v = np.ascontiguousarray(vec, np.float32)
        st = self.lib.bbrt_train_set_params(self.t.ctypes.data, v.ctypes.data, len(v))
        if st != 0:
            raise TrainError("bbrt_train_set_params refused the vector", st)

    def reset_state(self) -> None:
        """Zero the optimizer state."""
        self.lib.bbrt_train_reset_state(self.t.ctypes.data)


def batches_blob(xs: np.ndarray, ys: np.ndarray) -> bytes:
    """The harnesses' batches file: xs [steps, batch, features], ys [steps, batch]."""
    xs = np.ascontiguousarray(xs, np.float32)
    ys = np.ascontiguousarray(ys, np.int32)
    steps, batch = ys.shape
    feats = int(np.prod(xs.shape[2:]))
    return struct.pack("<4I", BATCHES_MAGIC, steps, batch, feats) + xs.tobytes() + ys.tobytes()


def run_posix(lowered: TrainLowered, xs: np.ndarray, ys: np.ndarray, *, wrapper: list[str] | None = None,
              timeout: float = 120.0) -> tuple[np.ndarray, np.ndarray]:
    """Run the steps through the posix harness executable; returns (losses, final parameter vector).

    ``wrapper`` prefixes the command (e.g. valgrind). The arena is the build's static 1 MiB.
    """
    exe = cached_build("train-host", ARENA=str(1 << 20)) / "bbrt-train"
    with tempfile.TemporaryDirectory() as d:
        prog, data, out = Path(d) / "p.bbrt", Path(d) / "b.bin", Path(d) / "o.bin"
        prog.write_bytes(lowered.blob)
        data.write_bytes(batches_blob(xs, ys))
        r = subprocess.run([*(wrapper or []), str(exe), str(prog), str(data), str(out)], capture_output=True,
                           text=True, timeout=timeout)
        if r.returncode != 0:
            raise BbrtError(f"bbrt-train failed ({r.returncode}): {r.stderr.strip()[-400:]}")
        raw = np.frombuffer(out.read_bytes(), np.float32)
    steps = ys.shape[0]
    return raw[:steps].copy(), raw[steps:].copy()


def m3_elf(arena: int) -> Path:
    """The QEMU mps2-an385 training harness ELF for an arena of ``arena`` bytes (built and cached)."""
    return cached_build("cortex-m3-train", ARENA=str(align8(arena)), OPT="-O2") / "train.elf"


def align8(n: int) -> int:
    """n rounded up to 8."""
    return (n + 7) // 8 * 8


def run_qemu_m3(lowered: TrainLowered, xs: np.ndarray, ys: np.ndarray, *, timeout: float = 300.0,
                icount: bool = True) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Run the steps on QEMU Cortex-M3; returns (losses, final parameters, SysTick ticks per step).

    Under ``-icount shift=0`` one tick is 40 instructions (25 MHz SysTick, 1 ns per instruction).
    """
    elf = m3_elf(lowered.arena_bytes)
    with tempfile.TemporaryDirectory() as d:
        prog, data = Path(d) / "p.bbrt", Path(d) / "b.bin"
        prog.write_bytes(lowered.blob)
        blob = batches_blob(xs, ys)
        if len(blob) > 0x100000:
            raise BbrtError(f"batches file of {len(blob)} bytes exceeds the harness's 1 MiB data region")
        data.write_bytes(blob)
        cmd = ["qemu-system-arm", "-M", "mps2-an385", "-cpu", "cortex-m3", "-display", "none", "-monitor", "none",
               "-serial", "null", *(["-icount", "shift=0"] if icount else []), "-kernel", str(elf),
               "-device", f"loader,file={prog},addr=0x00100000", "-device", f"loader,file={data},addr=0x00200000",
               "-semihosting-config", "enable=on,target=native"]
        # semihosting console output may arrive on QEMU's stderr: read both as one stream
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    text = r.stdout
    if "load 0" not in text:
        m = re.search(r"load (\d+)", text)
        raise TrainError("bbrt_train_load on the M3", int(m.group(1)) if m else -1)
    if "step_error" in text or "done" not in text:
        raise BbrtError(f"the M3 harness did not finish: {text[-400:]!r}")
    ticks = [int(v) for v in re.findall(r"^ticks (\d+)$", text, re.M)]
    loss = np.array([int(v, 16) for v in re.findall(r"^loss ([0-9a-f]{8})$", text, re.M)], np.uint32).view(np.float32)
    par = np.array([int(v, 16) for v in re.findall(r"^p ([0-9a-f]{8})$", text, re.M)], np.uint32).view(np.float32)
    if len(par) != lowered.param_count:
        raise BbrtError(f"the M3 harness printed {len(par)} parameters, expected {lowered.param_count}")
    return loss, par, ticks
