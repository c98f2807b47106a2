"""Power cuts during an update (issue 23, docs/transports.md "Power cuts"): every boot ends on a valid program.

- The QEMU Cortex-M3 node (its flash image a host file, firmware/ports/common/semihost.c), the posix C node
  (``--ota-state``) and the MicroPython node (bbnode's files, under CPython) are SIGKILLed at seeded random
  points in staging, verification, switching and the first run, and booted again from the same store
  (tests/support/power_cut.py): each boot answers with the old or the new program (y = x + c, computed here),
  the new one whenever SWITCHED had arrived, the old one whenever COMMIT had not been sent. CI runs 20 cuts
  on each; BB_EDGE_LONG=1 runs 200 each (as bench/bench_ota_power.py does).
- The boot record itself (bbrt_ota.c, through ctypes over a flash in a bytearray): a record write torn at every
  byte leaves the previous record in force; an image whose bytes no longer match its record's SHA-256 is never
  run (the other record's program, else the factory program, boots).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bb_edge.bbrt import native
from bb_edge.engine import ota
from tests.support import power_cut as pc

LONG = os.environ.get("BB_EDGE_LONG") == "1"
CUTS = 200 if LONG else 20
QEMU_CUTS = 200 if LONG else 20


def _check(report: pc.Report, cuts: int) -> None:
    bad = [t for t in report.trials if not t.valid]
    assert not bad and len(report.trials) == cuts, (report.line(), bad)
    phases = report.by_phase()
    assert all(phases[p] > 0 for p in pc.PHASES) or cuts < 10, phases  # every phase was cut
    assert any(t.after != t.before for t in report.trials) or cuts < 10  # some cuts still ended on the update


def test_posix_c_node_survives_power_cuts(tmp_path: Path) -> None:
    images = {k: pc.padded_program(c, 8192) for k, c in pc.CONSTS.items()}  # 32 KiB images, 2 KiB chunks
    (tmp_path / "a.bbrt").write_bytes(images["a"])
    (tmp_path / "key").write_text(pc.KEY.hex() + "\n")
    exe = native.host_executable()
    report = pc.run_power_cuts(lambda: pc.PosixLife(exe, tmp_path / "a.bbrt", tmp_path / "key",
                                                    tmp_path / "state"), images, CUTS, seed=23, chunk=2048)
    _check(report, CUTS)


def test_micropython_node_survives_kill_9(tmp_path: Path) -> None:
    images = {k: pc.padded_program(c, 8192) for k, c in pc.CONSTS.items()}
    (tmp_path / "program.bbrt").write_bytes(images["a"])
    report = pc.run_power_cuts(lambda: pc.MpyLife(tmp_path), images, CUTS, seed=24, chunk=2048,
                               target=ota.TARGET_MPY)
    _check(report, CUTS)


@pytest.fixture(scope="module")
def m3_elf() -> Path:
    """The Cortex-M3 node with the harness's key, node and deployment compiled in (built once per sources)."""
    return pc.m3_elf()


def test_qemu_cortex_m3_node_survives_power_cuts(m3_elf: Path, tmp_path: Path) -> None:
    images = {k: pc.padded_program(c, 512) for k, c in pc.CONSTS.items()}  # 2.4 KiB: 3 chunks, 10 flash pages
    (tmp_path / "a.bbrt").write_bytes(images["a"])
    report = pc.run_power_cuts(lambda: pc.QemuLife(m3_elf, tmp_path / "a.bbrt", tmp_path / "epoch",
                                                   tmp_path / "flash"),
                               images, QEMU_CUTS, seed=25, chunk=1024)
    _check(report, QEMU_CUTS)
    assert (tmp_path / "flash").stat().st_size > 4096  # the updates went to the flash image file


# ------------------------------------------------------------------ the boot record, byte by byte

READ = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint8),
                        ctypes.c_uint32)
WRITE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint8),
                         ctypes.c_uint32)


class FlashT(ctypes.Structure):
    """bbrt_ota_flash_t."""

    _fields_ = [("read", READ), ("write", WRITE), ("ctx", ctypes.c_void_p), ("slot_cap", ctypes.c_uint32),
                ("page", ctypes.c_uint32)]


class RecordT(ctypes.Structure):
    """bbrt_ota_record_t."""

    _fields_ = [("seq", ctypes.c_uint32), ("version", ctypes.c_uint64), ("loc", ctypes.c_uint32),
                ("len", ctypes.c_uint32), ("sha", ctypes.c_uint8 * 32)]


SLOT_CAP = 4096


class BytesFlash:
    """A flash area in a bytearray; ``budget`` bytes may still be written (a cut after them: the rest is lost)."""

    def __init__(self) -> None:
        self.mem = bytearray(b"\xff" * (4096 + 2 * SLOT_CAP))
        self.budget: int | None = None

        def read(_ctx: int, off: int, buf: ctypes._Pointer[ctypes.c_uint8], n: int) -> int:
            ctypes.memmove(buf, bytes(self.mem[off:off + n]), n)
            return 0

        def write(_ctx: int, off: int, buf: ctypes._Pointer[ctypes.c_uint8], n: int) -> int:
            data = ctypes.string_at(buf, n)
            if self.budget is not None:
                data = data[:self.budget]
                self.budget -= len(data)
            self.mem[off:off + len(data)] = data
            return 0 if len(data) == n else -1

        self._cbs = (READ(read), WRITE(write))
        self.t = FlashT(self._cbs[0], self._cbs[1], None, SLOT_CAP, 256)


@pytest.fixture(scope="module")
def ota_lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    """bbrt_ota.c with its dependencies as a shared library (C99, -Wall -Wextra -Werror -pedantic)."""
    cc = shutil.which("gcc") or shutil.which("cc")
    assert cc is not None, "a C compiler is required"
    fw = native.firmware_dir()
    out = tmp_path_factory.mktemp("ota_rec") / "libota_rec.so"
    srcs = ["bbrt_sha256.c", "bbrt_ota.c", "bbrt_base.c", "bbrt_wire.c", "bbrt_program.c", "bbrt_check.c",
            "bbrt_kernels.c", "bbrt_resolver_all.c"]
    subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wno-cast-align", "-O2", "-fPIC",
                    "-shared", f"-I{fw / 'include'}", *[str(fw / "src" / s) for s in srcs], "-o", str(out)],
                   check=True, timeout=180)
    lib = ctypes.CDLL(str(out))
    lib.bbrt_ota_flash_offset.restype = ctypes.c_uint32
    return lib


def _record(loc: int, image: bytes, version: int) -> RecordT:
    r = RecordT()
    r.loc, r.len, r.version = loc, len(image), version
    r.sha[:] = list(hashlib.sha256(image).digest())
    return r


def _put_image(lib: ctypes.CDLL, f: BytesFlash, loc: int, image: bytes) -> None:
    off = lib.bbrt_ota_flash_offset(ctypes.byref(f.t), loc)
    f.mem[off:off + len(image)] = image


def _boot(lib: ctypes.CDLL, f: BytesFlash) -> tuple[int, RecordT, bytes]:
    ram = ctypes.create_string_buffer(SLOT_CAP)
    r = RecordT()
    factory = lib.bbrt_ota_boot(ctypes.byref(f.t), ram, ctypes.c_size_t(SLOT_CAP), ctypes.byref(r))
    return factory, r, ram.raw[:r.len]


def test_a_torn_record_write_leaves_the_previous_record_in_force(ota_lib: ctypes.CDLL) -> None:
    """v1 in slot 1 is recorded; v2 is written to slot 2 and its record write is cut after k bytes, for every
    k: the boot runs v1 (version 1) until the whole record is written, then v2 (version 2); never anything else."""
    v1, v2 = bytes(range(200)) * 3, bytes(reversed(range(256))) * 5
    for k in range(0, 65):
        f = BytesFlash()
        _put_image(ota_lib, f, 1, v1)
        assert ota_lib.bbrt_ota_record_write(ctypes.byref(f.t), ctypes.byref(_record(1, v1, 1))) == 0
        _put_image(ota_lib, f, 2, v2)
        f.budget = k
        rc = ota_lib.bbrt_ota_record_write(ctypes.byref(f.t), ctypes.byref(_record(2, v2, 2)))
        factory, r, ran = _boot(ota_lib, f)
        assert factory == 0
        if k < 64:
            assert rc == -1 and (r.loc, r.version, ran) == (1, 1, v1), k
        else:
            assert rc == 0 and (r.loc, r.version, ran) == (2, 2, v2)
    # and a third record goes into the slot of the older one (v1's), so v2's record is never the one cut
    f.budget = None
    assert ota_lib.bbrt_ota_record_write(ctypes.byref(f.t), ctypes.byref(_record(1, v1, 3))) == 0
    assert _boot(ota_lib, f)[1].seq == 3


def test_an_image_that_does_not_match_its_record_never_runs(ota_lib: ctypes.CDLL) -> None:
    """A flipped byte in the newest record's image: the boot falls back to the other record's program; in
    both images: the factory program (loc 0), still with the highest version seen (a version never goes down)."""
    v1, v2 = b"\x01" * 700, b"\x02" * 900
    f = BytesFlash()
    _put_image(ota_lib, f, 1, v1)
    ota_lib.bbrt_ota_record_write(ctypes.byref(f.t), ctypes.byref(_record(1, v1, 4)))
    _put_image(ota_lib, f, 2, v2)
    ota_lib.bbrt_ota_record_write(ctypes.byref(f.t), ctypes.byref(_record(2, v2, 5)))
    assert _boot(ota_lib, f)[2] == v2
    off2 = ota_lib.bbrt_ota_flash_offset(ctypes.byref(f.t), 2)
    f.mem[off2 + 450] ^= 0x40
    factory, r, ran = _boot(ota_lib, f)
    assert (factory, r.loc, ran, r.version) == (0, 1, v1, 5)
    off1 = ota_lib.bbrt_ota_flash_offset(ctypes.byref(f.t), 1)
    f.mem[off1] ^= 0x01
    factory, r, _ = _boot(ota_lib, f)
    assert (factory, r.loc, r.len, r.version) == (1, 0, 0, 5)
    # a record whose CRC does not match is no record
    f2 = BytesFlash()
    _put_image(ota_lib, f2, 1, v1)
    ota_lib.bbrt_ota_record_write(ctypes.byref(f2.t), ctypes.byref(_record(1, v1, 6)))
    f2.mem[20] ^= 0x01  # inside the record's loc/len fields
    assert _boot(ota_lib, f2)[0] == 1
