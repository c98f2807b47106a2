"""Build the C runtime with make and load the host library through ctypes."""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from bb_edge.bbrt.errors import NativeBuildError
from bb_edge.resources import package_data


def firmware_dir() -> Path:
    """The firmware/ source tree (repository root, or $BB_EDGE_FIRMWARE)."""
    env = os.environ.get("BB_EDGE_FIRMWARE")
    if env:
        return Path(env)
    return package_data("_firmware")


def sources_hash(extra: bytes = b"") -> str:
    """A hash of every firmware source file (cache key for builds)."""
    h = hashlib.sha256(extra)
    fw = firmware_dir()
    for p in sorted(fw.rglob("*")):
        if p.is_file() and "build" not in p.relative_to(fw).parts and p.suffix in {".c", ".h", ".S", ".ld", ""}:
            h.update(str(p.relative_to(fw)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """Where cached firmware builds go ($BB_EDGE_CACHE or ~/.cache/bb-edge)."""
    base = Path(os.environ.get("BB_EDGE_CACHE", Path.home() / ".cache" / "bb-edge"))
    return base / "bbrt"


#: make variables that name files (resolved against the caller's directory, not firmware/)
PATH_VARIABLES = frozenset({"RESOLVER"})


def make(goal: str, build: Path, **variables: str) -> Path:
    """Run ``make GOAL`` in firmware/ with BUILD=build; raise NativeBuildError on failure.

    make runs with firmware/ as its working directory (``-C``), so ``build`` and the
    path variables (:data:`PATH_VARIABLES`) are made absolute here: a relative
    ``-o dist/`` would otherwise be looked up under firmware/.
    """
    build = build.resolve()
    build.mkdir(parents=True, exist_ok=True)
    variables = {k: str(Path(v).resolve()) if k in PATH_VARIABLES and v else v for k, v in variables.items()}
    if shutil.which("make") is None:
        from bb_edge.tools import missing

        raise NativeBuildError(missing("make"))
    cmd = ["make", "-s", "-C", str(firmware_dir()), goal, f"BUILD={build}"]
    cmd += [f"{k}={v}" for k, v in variables.items()]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise NativeBuildError(f"firmware build `{' '.join(cmd)}` failed:\n{proc.stdout}\n{proc.stderr}")
    return build


def cached_build(goal: str, **variables: str) -> Path:
    """Build ``goal`` once per source hash and variables; return the build directory."""
    key = sources_hash((goal + repr(sorted(variables.items()))).encode())
    build = cache_dir() / f"{goal}-{key}"
    marker = build / ".ok"
    if not marker.exists():
        tmp = build.with_name(build.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        make(goal, tmp, **variables)
        (tmp / ".ok").write_text("ok")
        shutil.rmtree(build, ignore_errors=True)
        try:
            tmp.rename(build)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    return build


def host_executable(max_payload: int = 65536) -> Path:
    """The posix node executable (built and cached)."""
    return cached_build("host", MAX_PAYLOAD=str(max_payload), ARENA=str(8 << 20)) / "bbrt-host"


class EnvelopeStruct(ctypes.Structure):
    """ctypes mirror of bbrt_envelope_t."""

    _fields_ = [
        ("kind", ctypes.c_uint8), ("dtype", ctypes.c_uint8), ("rank", ctypes.c_uint8),
        ("flags", ctypes.c_uint16), ("protocol", ctypes.c_uint16),
        ("sender", ctypes.c_uint32), ("receiver", ctypes.c_uint32),
        ("seq", ctypes.c_uint64), ("request_id", ctypes.c_uint64), ("response_to", ctypes.c_uint64),
        ("edge", ctypes.c_uint32), ("scale", ctypes.c_float), ("zero_point", ctypes.c_int32),
        ("payload_len", ctypes.c_uint32), ("dims", ctypes.c_uint32 * 8),
        ("data", ctypes.c_void_p), ("step", ctypes.c_uint32),
    ]


STATUS_NAMES = {
    0: "OK", 1: "TRUNCATED", 2: "BAD_MAGIC", 3: "BAD_VERSION", 4: "BAD_KIND", 5: "BAD_FIELD",
    6: "BAD_DTYPE", 7: "BAD_RANK", 8: "TOO_LARGE", 9: "BAD_LENGTH", 10: "BAD_FRAME", 11: "BAD_CRC",
    12: "NO_SPACE", 20: "PROG_MAGIC", 21: "PROG_VERSION", 22: "PROG_TRUNCATED", 23: "PROG_CRC",
    24: "PROG_ALIGN", 25: "PROG_BOUNDS", 26: "PROG_OPCODE", 27: "PROG_UNSUPPORTED", 28: "PROG_TENSOR",
    29: "PROG_SHAPE", 30: "PROG_PARAM", 31: "PROG_EDGE", 32: "ARENA_SMALL", 33: "NOT_LITTLE_ENDIAN",
    40: "UNKNOWN_EDGE", 41: "EDGE_MISMATCH", 42: "WRONG_RECEIVER", 43: "DUPLICATE", 44: "STALE_EPOCH",
    45: "UNAUTHORISED", 46: "SESSION", 50: "RUN_INDEX",
}


def load_host_library(max_payload: int = 65536, sanitize: bool = True) -> ctypes.CDLL:
    """The C runtime as a shared library (UBSan-checked by default) with typed signatures."""
    san = "-fsanitize=undefined -fno-sanitize-recover=all" if sanitize else ""
    lib = ctypes.CDLL(str(cached_build("pylib", MAX_PAYLOAD=str(max_payload), SAN=san) / "libbbrt.so"))
    u8p = ctypes.c_char_p
    sz = ctypes.c_size_t
    lib.bbrt_env_decode.argtypes = [u8p, sz, sz, ctypes.POINTER(EnvelopeStruct)]
    lib.bbrt_env_encode.argtypes = [ctypes.POINTER(EnvelopeStruct), ctypes.c_void_p, sz, ctypes.POINTER(sz)]
    lib.bbrt_frame_encode.argtypes = [u8p, sz, ctypes.c_void_p, sz, ctypes.POINTER(sz)]
    lib.bbrt_frame_decode.argtypes = [u8p, sz, ctypes.c_void_p, sz, ctypes.POINTER(sz)]
    lib.bbrt_crc32_update.argtypes = [ctypes.c_uint32, u8p, sz]
    lib.bbrt_crc32_update.restype = ctypes.c_uint32
    lib.bbrtpy_load.argtypes = [ctypes.c_void_p, sz, ctypes.c_void_p, sz]
    lib.bbrtpy_node_init.argtypes = [ctypes.c_void_p, sz, ctypes.c_void_p, sz]
    lib.bbrtpy_node_feed.argtypes = [u8p, sz, ctypes.c_void_p, sz]
    lib.bbrtpy_node_feed.restype = ctypes.c_long
    lib.bbrtpy_node_stats.argtypes = [ctypes.c_void_p]
    return lib
