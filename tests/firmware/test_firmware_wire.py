"""C envelope codec and COBS/CRC framing against the golden vectors (docs/wire.md)."""

from __future__ import annotations

import ctypes
import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

from bb_edge.bbrt.native import STATUS_NAMES, EnvelopeStruct, load_host_library
from bb_edge.wire import Envelope, encode, frame
from bb_edge.wire.framing import FrameDecoder

VEC = Path(__file__).resolve().parents[1] / "vectors"
SPEC = json.loads((VEC / "vectors.json").read_text())


@pytest.fixture(scope="module")
def lib() -> ctypes.CDLL:
    return load_host_library(max_payload=SPEC["max_payload"])


def c_decode(lib: ctypes.CDLL, buf: bytes, max_payload: int) -> tuple[str, EnvelopeStruct]:
    env = EnvelopeStruct()
    st = lib.bbrt_env_decode(buf, len(buf), max_payload, ctypes.byref(env))
    return STATUS_NAMES[st], env


def c_encode(lib: ctypes.CDLL, env: EnvelopeStruct, cap: int = 1 << 21) -> bytes:
    out = ctypes.create_string_buffer(cap)
    n = ctypes.c_size_t()
    st = lib.bbrt_env_encode(ctypes.byref(env), out, cap, ctypes.byref(n))
    assert STATUS_NAMES[st] == "OK"
    return out.raw[: n.value]


@pytest.mark.parametrize("name", sorted(SPEC["valid"]))
def test_golden_vector_decodes_and_reencodes_in_c(lib: ctypes.CDLL, name: str) -> None:
    want = SPEC["valid"][name]
    buf = (VEC / f"{name}.bin").read_bytes()
    st, env = c_decode(lib, buf, SPEC["max_payload"])
    assert st == "OK"
    for f in ("kind", "flags", "protocol", "sender", "receiver", "seq", "request_id", "response_to",
              "edge", "dtype", "zero_point", "payload_len", "step"):
        assert getattr(env, f) == want[f], f
    assert env.scale == pytest.approx(want["scale"], rel=1e-7)
    assert list(env.dims[: env.rank]) == want["dims"]
    off = env.data - ctypes.cast(ctypes.c_char_p(buf), ctypes.c_void_p).value if env.data else None
    if env.payload_len:
        assert off == len(buf) - env.payload_len  # in place: a pointer into the buffer
        assert off % 8 == 0
    assert buf[len(buf) - env.payload_len:].hex() == want["payload_hex"] or want["payload_len"] == 0
    assert c_encode(lib, env) == buf
    # serial framing: identical frame bytes, and the C deframer returns the envelope
    fr = (VEC / f"{name}.frame").read_bytes()
    out = ctypes.create_string_buffer(len(fr) + 16)
    n = ctypes.c_size_t()
    assert lib.bbrt_frame_encode(buf, len(buf), out, len(out), ctypes.byref(n)) == 0
    assert out.raw[: n.value] == fr
    dec = ctypes.create_string_buffer(len(buf) + 8)
    assert lib.bbrt_frame_decode(fr, len(fr), dec, len(dec), ctypes.byref(n)) == 0
    assert dec.raw[: n.value] == buf


@pytest.mark.parametrize("name", sorted(SPEC["invalid"]))
def test_invalid_vectors_refused_with_listed_code(lib: ctypes.CDLL, name: str) -> None:
    buf = (VEC / "invalid" / f"{name}.bin").read_bytes()
    st, _ = c_decode(lib, buf, SPEC["max_payload"])
    assert st == SPEC["invalid"][name]


def test_crc32_matches_zlib(lib: ctypes.CDLL) -> None:
    rng = np.random.default_rng(1)
    for n in (0, 1, 7, 255, 1000):
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        assert lib.bbrt_crc32_update(0, data, n) == zlib.crc32(data) & 0xFFFFFFFF


def test_random_envelopes_match_python_codec(lib: ctypes.CDLL) -> None:
    rng = np.random.default_rng(2)
    for i in range(200):
        rank = int(rng.integers(0, 5))
        shape = tuple(int(d) for d in rng.integers(0, 4, rank))
        dt = [np.float32, np.int8, np.uint8, np.int64, np.float16][i % 5]
        arr = rng.standard_normal(shape).astype(dt) if dt in (np.float32, np.float16) else \
            rng.integers(-5, 100, shape).astype(dt)
        quant = (0.1, 3) if dt in (np.int8, np.uint8) and i % 2 else None
        env = Envelope.for_array(arr, sender=i, receiver=7, seq=i * 1000 + 1, request_id=i, edge=i % 9,
                                 quant=quant)
        py = encode(env)
        st, cenv = c_decode(lib, py, 1 << 20)
        assert st == "OK"
        assert c_encode(lib, cenv) == py
        # framing of long payloads crosses 254-byte COBS blocks
        out = ctypes.create_string_buffer(len(py) * 2 + 16)
        n = ctypes.c_size_t()
        lib.bbrt_frame_encode(py, len(py), out, len(out), ctypes.byref(n))
        assert out.raw[: n.value] == frame(py)


def test_cobs_block_edges_match_python(lib: ctypes.CDLL) -> None:
    for n in (252, 253, 254, 255, 508, 509, 600):
        for fill in (b"\x01", b"\x00"):
            env = fill * n
            out = ctypes.create_string_buffer(n * 2 + 16)
            k = ctypes.c_size_t()
            lib.bbrt_frame_encode(env, n, out, len(out), ctypes.byref(k))
            fr = out.raw[: k.value]
            assert fr == frame(env)
            assert FrameDecoder().feed(fr) == [env]


def test_bad_frames_are_refused(lib: ctypes.CDLL) -> None:
    env = (VEC / "f32_rank2.bin").read_bytes()
    fr = bytearray(frame(env))
    fr[10] ^= 0x40 if fr[10] != 0x40 else 0x41
    out = ctypes.create_string_buffer(4096)
    n = ctypes.c_size_t()
    assert STATUS_NAMES[lib.bbrt_frame_decode(bytes(fr), len(fr), out, len(out), ctypes.byref(n))] in (
        "BAD_CRC", "BAD_FRAME")
    # COBS block running past the end of the frame
    bad = bytes([0x05, 1, 2]) + b"\x00"
    assert STATUS_NAMES[lib.bbrt_frame_decode(bad, len(bad), out, len(out), ctypes.byref(n))] == "BAD_FRAME"
    # too long for the buffer
    assert STATUS_NAMES[lib.bbrt_frame_decode(bytes(frame(env)), len(frame(env)), out, 16,
                                              ctypes.byref(n))] == "NO_SPACE"
    assert struct.calcsize("<I") == 4
