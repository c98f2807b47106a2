"""The Xtensa LX106 port (the ESP8266 core) under QEMU `-M sim -cpu lx106`.

The small CNN is split so that one node runs on the Xtensa ELF; the same node built for
the host runs the same program. The fleet outputs must be bit-identical (the Xtensa build
with its own soft-float and division helpers computes exactly what the host FPU does), the
emulated core must not fault (an unaligned access or any exception ends QEMU with status
100 + EXCCAUSE: the device would vanish), and the ELF links no heap. The soft-float and
division helpers of the port (firmware/ports/qemu-xtensa/rt.c) are also compared with the
host's hardware on random bit patterns.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.adapters.devices.serial_devices import HostDevice, QemuDevice
from bb_edge.adapters.transports.inproc import InProcFleet
from tests.support.examples import sample_inputs, small_cnn
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.resources import package_data

from tests.support.no_heap import check_no_heap

INT8_TOL = 0.05
#: samples per run: a short CI setting, more with BB_EDGE_LONG_TESTS=1
SAMPLES = 12 if os.environ.get("BB_EDGE_LONG_TESTS") else 3

pytestmark = pytest.mark.skipif(shutil.which("xtensa-lx106-elf-gcc") is None
                                or shutil.which("qemu-system-xtensa") is None,
                                reason="gcc-xtensa-lx106 / qemu-system-misc not installed (.ci/apt-packages.txt)")


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    d = tmp_path_factory.mktemp("dep")
    xt = tmp_path_factory.mktemp("xt")
    host = tmp_path_factory.mktemp("host")
    compile_model(small_cnn(), cuts=["p1", "r3", "g"], node_names=["n0", "n1", "n2", "n3"], out_dir=d)
    calib = sample_inputs(16, seed=7)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in calib]))
    (res,) = build_all(d, ["n1=qemu-xtensa"], xt, calib=d / "calib.npz")
    build_all(d, ["n1=host"], host, calib=d / "calib.npz")
    return res.deployment_dir or d, xt, host  # the deployment with the int8 edges the build chose


def test_xtensa_elf_is_lx106_and_links_no_heap(builds: tuple[Path, Path, Path]) -> None:
    _, xt, _ = builds
    elf = xt / "n1" / "bbrt.elf"
    head = subprocess.run(["xtensa-lx106-elf-readelf", "-h", str(elf)], capture_output=True, text=True,
                          check=True).stdout
    assert "Tensilica Xtensa" in head
    check_no_heap(elf, "xtensa-lx106-elf-nm")
    syms = subprocess.run(["xtensa-lx106-elf-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    assert "bbrt_k_conv_i8" in syms and "bbrt_k_fc_f32" not in syms  # the generated resolver, not all kernels


def test_small_cnn_on_xtensa_is_bit_exact_with_the_host_build(builds: tuple[Path, Path, Path]) -> None:
    d, xt, host = builds
    # the same lowering: one program, two builds of the runtime
    assert (xt / "n1" / "program.bbrt").read_bytes() == (host / "n1" / "program.bbrt").read_bytes()
    dep = load_deployment(d)
    nid = dep.ids()["n1"]
    samples = sample_inputs(SAMPLES, seed=99)
    ref = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    with QemuDevice("xtensa", xt / "n1" / "bbrt.elf", xt / "n1" / "program.bbrt", nid,
                    epoch_file=xt / "epoch") as dev:
        fleet = InProcFleet(dep, external={"n1": dev})
        on_xtensa = [fleet.infer(s)["prob"] for s in samples]
        assert not dev.errors and dev.bytes_in > 0
        # still running: a fault (unaligned access, illegal instruction) exits QEMU with 100 + EXCCAUSE
        assert dev.proc is not None and dev.proc.poll() is None
    with HostDevice(host / "n1" / "bbrt-host", host / "n1" / "program.bbrt", nid).start() as hdev:
        fleet = InProcFleet(dep, external={"n1": hdev})
        on_host = [fleet.infer(s)["prob"] for s in samples]
        assert not hdev.errors
    for s, a, b in zip(samples, on_xtensa, on_host):
        assert a.dtype == b.dtype and np.array_equal(a, b), np.abs(a - b).max()
        assert np.abs(a - ref.run(None, s)[0]).max() <= INT8_TOL
    assert int((xt / "epoch").read_text()) >= 1  # the boot epoch went through semihosting file I/O


class _RunScriptDevice(QemuDevice):
    """The Xtensa node started by its bundle's ``run.sh TTY`` (as a user would), on a pty this test owns."""

    def __init__(self, script: Path, node_id: int) -> None:
        super().__init__("xtensa", script.parent / "bbrt.elf", script.parent / "program.bbrt", node_id)
        self.script = script

    def _launch(self, timeout: float) -> None:
        assert self._own is not None
        self.proc = subprocess.Popen(["sh", str(self.script), self._own.slave_path], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        self.pty, self.fd = self._own.slave_path, self._own.master


def test_the_bundle_run_script_links_over_the_tty_it_is_given(builds: tuple[Path, Path, Path],
                                                               tmp_path: Path) -> None:
    """``run.sh TTY`` puts the node's console on TTY (not QEMU's lossy sim console): a fleet using it
    gives the QemuDevice run's outputs; without a TTY it says how to call it."""
    d, xt, _ = builds
    script = xt / "n1" / "run.sh"
    bare = subprocess.run(["sh", str(script)], capture_output=True, text=True, timeout=30)
    assert bare.returncode == 2 and "usage:" in bare.stderr and "TTY" in bare.stderr
    dep = load_deployment(d)
    samples = sample_inputs(2, seed=5)
    ref = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    (xt / "n1" / "program.bbrt.epoch").unlink(missing_ok=True)
    with _RunScriptDevice(script, dep.ids()["n1"]).start() as dev:
        fleet = InProcFleet(dep, external={"n1": dev})
        got = [fleet.infer(s)["prob"] for s in samples]
        assert not dev.errors and dev.bytes_in > 0
        assert dev.proc is not None and dev.proc.poll() is None
    for s, a in zip(samples, got):
        assert np.abs(a - ref.run(None, s)[0]).max() <= INT8_TOL
    # the script started QEMU from the bundle's directory: its epoch file is the bundle's
    assert int((xt / "n1" / "program.bbrt.epoch").read_text()) >= 1


@pytest.fixture(scope="module")
def rt(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    src = Path(str(package_data("_firmware"))) / "ports" / "qemu-xtensa" / "rt.c"
    lib = tmp_path_factory.mktemp("rt") / "rt.so"
    subprocess.run(["gcc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-fno-builtin", "-shared", "-fPIC",
                    "-DXT_RT_HOST", str(src), "-o", str(lib)], check=True, timeout=60)
    so = ctypes.CDLL(str(lib))
    for name, args in (("xt_rt_add", 2), ("xt_rt_mul", 2), ("xt_rt_u2f", 1)):
        getattr(so, name).restype = ctypes.c_uint32
        getattr(so, name).argtypes = [ctypes.c_uint32] * args
    so.xt_rt_i2f.restype = ctypes.c_uint32
    so.xt_rt_i2f.argtypes = [ctypes.c_int32]
    return so


def _same(got: int, ref: np.uint32) -> bool:
    """Equal bits, or both NaN (the NaN payload is not specified)."""
    if np.isnan(np.array([ref], np.uint32).view(np.float32)[0]):
        return (got & 0x7F800000) == 0x7F800000 and (got & 0x7FFFFF) != 0
    return got == int(ref)


def test_port_soft_float_matches_the_host_fpu(rt: ctypes.CDLL) -> None:
    rng = np.random.default_rng(3)
    n = 4000 * (10 if os.environ.get("BB_EDGE_LONG_TESTS") else 1)
    special = np.array([0, 0x80000000, 1, 0x80000001, 0x7FFFFF, 0x800000, 0x7F7FFFFF, 0x7F800000, 0xFF800000,
                        0x7FC00000, 0x3F800000, 0xBF800000, 0x00400000, 0x33800000, 0x4B000001], np.uint32)
    a = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    near = a ^ rng.integers(0, 2**26, n, dtype=np.uint64).astype(np.uint32)  # close exponents: cancellation
    far = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    xs = np.concatenate([a, a, np.repeat(special, len(special))])
    ys = np.concatenate([near, far, np.tile(special, len(special))])
    with np.errstate(all="ignore"):
        sums = (xs.view(np.float32) + ys.view(np.float32)).view(np.uint32)
        prods = (xs.view(np.float32) * ys.view(np.float32)).view(np.uint32)
    bad = [(hex(x), hex(y)) for x, y, s, p in zip(xs, ys, sums, prods)
           if not _same(rt.xt_rt_add(int(x), int(y)), s) or not _same(rt.xt_rt_mul(int(x), int(y)), p)]
    assert not bad, bad[:5]
    ints = np.concatenate([rng.integers(-2**31, 2**31, n), [0, 1, -1, 2**31 - 1, -2**31, 16777217, -16777217]])
    for i in ints.astype(np.int32):
        assert rt.xt_rt_i2f(int(i)) == int(np.float32(i).view(np.uint32)), i
    for u in rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32):
        assert rt.xt_rt_u2f(int(u)) == int(np.float32(u).view(np.uint32)), u


def test_unaligned_access_faults_are_reported(tmp_path: Path) -> None:
    """The oracle behind "no unaligned access faults": on QEMU's LX106 an unaligned l32i raises
    LoadStoreAlignmentCause (9) and the port's vectors exit with 100 + 9; an aligned one does not."""
    port = Path(str(package_data("_firmware"))) / "ports" / "qemu-xtensa"
    status = {}
    for name, offset in (("unaligned", 1), ("aligned", 4)):
        src = tmp_path / f"{name}.c"
        src.write_text("#include <stdint.h>\n"
                       "static uint8_t buf[16] __attribute__((aligned(4)));\n"
                       "int main(void) {\n"
                       f"    uint32_t v;\n    uint8_t *p = buf + {offset};\n"
                       '    __asm__ __volatile__("l32i %0, %1, 0" : "=a"(v) : "a"(p) : "memory");\n'
                       "    return (int)v;\n}\n")
        elf = tmp_path / f"{name}.elf"
        subprocess.run(["xtensa-lx106-elf-gcc", "-Os", "-ffreestanding", "-nostdlib", "-mlongcalls",
                        "-T", str(port / "link.ld"), str(src), str(port / "startup.S"), "-o", str(elf)],
                       check=True, timeout=60)
        status[name] = subprocess.run(["qemu-system-xtensa", "-M", "sim", "-cpu", "lx106", "-display", "none",
                                       "-monitor", "none", "-serial", "null", "-kernel", str(elf),
                                       "-semihosting-config", "enable=on,target=native"], timeout=30).returncode
    assert status == {"unaligned": 109, "aligned": 0}
