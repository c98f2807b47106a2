"""Bad input: corrupt programs get typed errors; bad frames/envelopes are counted and the node keeps serving."""

from __future__ import annotations

import ctypes
import os
import shutil
import struct
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.devices.serial_devices import HostDevice
from tests.support.examples import small_cnn
from bb_edge.bbrt.format import HEADER_SIZE, TENSOR_RECORD, parse
from bb_edge.bbrt.host import aligned
from bb_edge.bbrt.lower import lower
from bb_edge.bbrt.native import STATUS_NAMES, host_executable, load_host_library
from bb_edge.wire import FLAG_ERROR, KIND_CONTROL, Envelope, decode, encode, frame
from bb_edge.wire.framing import FrameDecoder


@pytest.fixture(scope="module")
def blob() -> bytes:
    return lower(small_cnn(size=8), node_id=3, precision="int8", io_edges={"x": 1, "prob": 2}).blob


def fix_crc(b: bytearray) -> bytes:
    struct.pack_into("<I", b, 12, 0)
    struct.pack_into("<I", b, 12, zlib.crc32(bytes(b)) & 0xFFFFFFFF)
    return bytes(b)


def load(blob: bytes, arena: int = 1 << 16) -> str:
    lib = load_host_library()
    buf = aligned(max(8, len(blob)))
    buf[:len(blob)] = np.frombuffer(blob, np.uint8)
    ar = aligned(arena + 64)
    ar[:] = 0xA5
    st = lib.bbrtpy_load(buf.ctypes.data, len(blob), ar.ctypes.data, arena)
    assert (ar[arena:] == 0xA5).all()  # nothing written past the arena
    return STATUS_NAMES[st]


def test_valid_program_loads(blob: bytes) -> None:
    assert load(blob) == "OK"


def test_corrupt_programs_get_typed_errors(blob: bytes) -> None:
    prog = parse(blob)
    assert load(blob[:40]) == "PROG_TRUNCATED"
    assert load(blob[:-8]) == "PROG_TRUNCATED"
    b = bytearray(blob)
    b[HEADER_SIZE + 5] ^= 0xFF
    assert load(bytes(b)) == "PROG_CRC"
    b = bytearray(blob)
    b[0] = ord("X")
    assert load(bytes(b)) == "PROG_MAGIC"
    b = bytearray(blob)
    b[4] = 9
    assert load(fix_crc(b)) == "PROG_VERSION"
    # unknown opcode
    b = bytearray(blob)
    ops_off = struct.unpack_from("<I", b, 36)[0]
    struct.pack_into("<H", b, ops_off, 999)
    assert load(fix_crc(b)) == "PROG_OPCODE"
    # arena offset out of range
    b = bytearray(blob)
    i = next(i for i, t in enumerate(prog.tensors) if t.storage == 0 and t.nbytes)
    struct.pack_into("<I", b, HEADER_SIZE + i * TENSOR_RECORD + 36, prog.arena_size)
    assert load(fix_crc(b)) == "PROG_BOUNDS"
    # inconsistent shape: change the output channel count of a conv output
    b = bytearray(blob)
    conv = next(op for op in prog.ops if op.opcode.name == "CONV_I8")
    rec = HEADER_SIZE + conv.outputs[0] * TENSOR_RECORD
    struct.pack_into("<I", b, rec + 8, 3)  # dims[1]
    t = prog.tensors[conv.outputs[0]]
    struct.pack_into("<I", b, rec + 40, t.nbytes // t.shape[1] * 3)
    assert load(fix_crc(b)) == "PROG_SHAPE"
    # the caller's arena is too small
    assert load(blob, arena=prog.arena_size - 8) == "ARENA_SMALL"
    # constants table pointing outside the program
    b = bytearray(blob)
    struct.pack_into("<I", b, 48, len(blob))
    assert load(fix_crc(b)) == "PROG_BOUNDS"


def test_node_counts_bad_input_and_keeps_serving(blob: bytes) -> None:
    lib = load_host_library()
    buf = aligned(len(blob))
    buf[:] = np.frombuffer(blob, np.uint8)
    arena = aligned(1 << 16)
    assert lib.bbrtpy_node_init(buf.ctypes.data, len(blob), arena.ctypes.data, len(arena)) == 0
    out = ctypes.create_string_buffer(1 << 16)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
    good = frame(encode(Envelope.for_array(x, sender=0, receiver=3, seq=1, request_id=9, edge=1)))
    bad_crc = bytearray(good)
    bad_crc[20] = bad_crc[20] % 250 + 1
    wrong_edge = frame(encode(Envelope.for_array(x, sender=0, receiver=3, seq=2, request_id=9, edge=77)))
    wrong_shape = frame(encode(Envelope.for_array(x[:, :2], sender=0, receiver=3, seq=3, request_id=9, edge=1)))
    bad_env = frame(b"\xbb\xe1\x02" + b"\x00" * 61)
    garbage = rng.integers(1, 256, 3000, dtype=np.uint8).tobytes() + b"\x00"
    stream = garbage + bytes(bad_crc) + wrong_edge + wrong_shape + bad_env + good
    n = lib.bbrtpy_node_feed(stream, len(stream), out, len(out))
    envs = FrameDecoder().feed(out.raw[:n])
    data = [decode(e) for e in envs if decode(e).kind == 0]
    assert len(data) == 1 and data[0].request_id == 9 and data[0].edge == 2 and data[0].sender == 3
    stats = (ctypes.c_uint32 * 10)()
    lib.bbrtpy_node_stats(stats)
    frames_ok, bad_frames, bad_envelopes, unknown_edge, edge_mismatch = stats[:5]
    assert bad_frames >= 2 and bad_envelopes == 1 and unknown_edge == 1 and edge_mismatch == 1
    assert stats[5 + 1] == 1  # inferences


def test_posix_node_answers_ping_after_garbage(blob: bytes, tmp_path: pytest.TempPathFactory) -> None:
    p = tmp_path / "p.bbrt"  # type: ignore[operator]
    p.write_bytes(blob)
    dev = HostDevice(host_executable(), p, node_id=3).start()
    try:
        dev.write(bytes(range(1, 256)) * 20 + b"\x00")
        assert dev.ping(5.0) < 5.0
        x = np.zeros((1, 3, 8, 8), np.float32)
        dev.send(encode(Envelope.for_array(x, sender=0, receiver=3, seq=5, request_id=1, edge=1)))
        out = dev.wait_data(1, 5.0)
        assert decode(out[0]).array().shape == (1, 10)
    finally:
        err = dev.stop()
    assert "bad_frames=" in err and "inferences=1" in err


def _refusals(dev: Any, want: int, timeout: float = 20.0) -> list[str]:
    """The texts of the ERROR envelopes the device sends, after poking it with a frame end each time."""
    dec = FrameDecoder()
    texts: list[str] = []
    deadline = time.monotonic() + timeout
    while len(texts) < want and time.monotonic() < deadline:
        for raw in dec.feed(dev.read_available(0.2)):
            env = decode(raw)
            assert env.kind == KIND_CONTROL and env.flags & FLAG_ERROR and env.edge == 5, env  # 5: ERROR
            texts.append(bytes(env.data).decode())
        if texts:
            os.write(dev.fd, b"\x00")  # a frame end: the device answers it with its refusal again
    return texts


@pytest.mark.skipif(shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
                    reason="qemu-system-arm / gcc-arm-none-eabi not installed (.ci/apt-packages.txt)")
@pytest.mark.parametrize("goal", ["cortex-m3", "learn-cortex-m3"])
def test_an_mcu_with_a_corrupt_image_answers_every_frame_with_its_typed_error(goal: str, blob: bytes,
                                                                            tmp_path: Path) -> None:
    """An M3 node (program) and an M3 training client (learning image) whose flash holds a corrupt
    image never say HELLO: they answer at boot, and at every frame end after, with one bare ERROR
    envelope that names the loader's status."""
    from bb_edge.adapters.devices.serial_devices import QemuDevice
    from bb_edge.bbrt.native import cached_build

    bad = bytearray(blob)
    bad[0] = ord("X")  # the magic
    image = tmp_path / "bad.img"
    image.write_bytes(bytes(bad))
    dev = QemuDevice("cortex-m3", cached_build(goal) / "bbrt.elf", image, 3, epoch_file=tmp_path / "epoch",
                     own_pty=True)
    try:
        dev._launch(20.0)
        texts = _refusals(dev, 3)
    finally:
        dev.stop()
    want = "PROG_MAGIC" if goal == "cortex-m3" else "BAD_MAGIC"  # the learning image's own header
    assert len(texts) >= 3 and all(t == texts[0] for t in texts), texts
    assert texts[0].startswith(want), texts
