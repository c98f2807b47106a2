"""Envelope v1 and framing: golden vectors, invalid vectors, fuzzing."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bb_edge.errors import WireError
from bb_edge.wire import Envelope, FrameDecoder, StreamDecoder, decode, encode, frame, framing, length_prefix
from bb_edge.wire.dtypes import CODE_TO_NUMPY
from bb_edge.wire.framing import cobs_decode, cobs_decode_py, cobs_encode, cobs_encode_py

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
SPEC = json.loads((VECTORS / "vectors.json").read_text())


@pytest.mark.parametrize("name", sorted(SPEC["valid"]))
def test_golden_vector_decodes_and_reencodes_byte_for_byte(name: str) -> None:
    raw = (VECTORS / f"{name}.bin").read_bytes()
    want = SPEC["valid"][name]
    env = decode(raw, max_payload=SPEC["max_payload"])
    for key in ("kind", "flags", "protocol", "sender", "receiver", "seq", "request_id", "response_to",
                "edge", "dtype", "zero_point", "step"):
        assert getattr(env, key) == want[key], key
    assert list(env.dims) == want["dims"]
    assert env.scale == pytest.approx(want["scale"], rel=0, abs=0)
    assert bytes(env.data).hex() == want["payload_hex"]
    assert len(raw) == want["length"]
    assert encode(env) == raw
    # data starts 8-byte aligned
    assert (len(raw) - want["payload_len"]) % 8 == 0


@pytest.mark.parametrize("name", sorted(SPEC["valid"]))
def test_golden_frames_deframe_to_the_envelope(name: str) -> None:
    raw = (VECTORS / f"{name}.bin").read_bytes()
    fr = (VECTORS / f"{name}.frame").read_bytes()
    assert frame(raw) == fr
    assert fr.count(0) == 1 and fr.endswith(b"\x00")
    assert FrameDecoder().feed(fr) == [raw]


@pytest.mark.parametrize("name", sorted(SPEC["invalid"]))
def test_invalid_vectors_are_refused_with_their_code(name: str) -> None:
    raw = (VECTORS / "invalid" / f"{name}.bin").read_bytes()
    with pytest.raises(WireError) as info:
        decode(raw, max_payload=SPEC["max_payload"])
    assert info.value.code == SPEC["invalid"][name]


def test_vectors_are_what_the_generator_writes() -> None:
    from tests.vectors.make_vectors import vectors

    for name, env in vectors().items():
        assert encode(env) == (VECTORS / f"{name}.bin").read_bytes(), name


def test_layout_offsets_match_the_spec() -> None:
    env = Envelope.for_array(np.arange(3, dtype=np.float32), sender=0x01020304, receiver=5, seq=6,
                             request_id=7, edge=8)
    raw = encode(env)
    assert raw[:2] == b"\xbb\xe1" and raw[2] == 1 and raw[3] == 0
    assert struct.unpack_from("<I", raw, 8)[0] == 0x01020304
    assert struct.unpack_from("<Q", raw, 16)[0] == 6
    assert struct.unpack_from("<Q", raw, 24)[0] == 7
    assert struct.unpack_from("<I", raw, 40)[0] == 8
    assert raw[44] == 1 and raw[45] == 1
    assert struct.unpack_from("<I", raw, 56)[0] == 12
    assert struct.unpack_from("<I", raw, 64)[0] == 3
    assert raw[72:] == np.arange(3, dtype=np.float32).tobytes()


def test_encode_refuses_what_decode_would_refuse() -> None:
    with pytest.raises(WireError) as info:
        encode(Envelope(sender=1, receiver=2, seq=1, dtype=1, dims=(2,), data=b"\x00" * 4))
    assert info.value.code == "BAD_LENGTH"
    with pytest.raises(WireError):
        encode(Envelope(sender=1, receiver=2, seq=1, dtype=1, dims=(1,), data=b"\x00" * 4, flags=1))
    with pytest.raises(WireError) as info:
        encode(Envelope.for_bytes(b"x" * 100, sender=1, receiver=2, seq=1), max_payload=10)
    assert info.value.code == "TOO_LARGE"


def test_frame_decoder_resynchronises_after_noise_and_cut_frames() -> None:
    envs = [encode(Envelope.for_bytes(bytes([i]) * (i * 37 % 300), sender=1, receiver=2, seq=i + 1))
            for i in range(20)]
    stream = bytearray()
    for i, e in enumerate(envs):
        f = frame(e)
        if i % 5 == 1:
            stream += f[: len(f) // 2]  # a cut frame: the next delimiter ends it
            stream += b"\x00"
        if i % 7 == 3:
            # line noise; the sender's leading 0x00 (docs/wire.md) ends it before the frame
            stream += b"\x13\x37noise\xff\xfe\x00"
        stream += f
    dec = FrameDecoder()
    got = []
    for k in range(0, len(stream), 13):
        got += dec.feed(bytes(stream[k:k + 13]))
    assert got == envs
    assert dec.dropped >= 4 + 3


def test_noise_without_a_delimiter_costs_exactly_the_next_frame() -> None:
    envs = [encode(Envelope.for_bytes(b"payload%d" % i, sender=1, receiver=2, seq=i + 1)) for i in range(3)]
    dec = FrameDecoder()
    got = dec.feed(frame(envs[0]) + b"garbage" + frame(envs[1]) + frame(envs[2]))
    assert got == [envs[0], envs[2]]
    assert dec.dropped == 1


def test_corrupted_frames_never_reach_the_caller() -> None:
    rng = np.random.default_rng(1)
    envs = [encode(Envelope.for_array(rng.standard_normal(50).astype(np.float32), sender=1, receiver=2,
                                      seq=i + 1)) for i in range(200)]
    stream = bytearray(b"".join(frame(e) for e in envs))
    flips = rng.choice(len(stream), size=len(stream) // 100, replace=False)
    for idx in flips:
        stream[idx] ^= int(rng.integers(1, 256))
    dec = FrameDecoder()
    got = dec.feed(bytes(stream))
    assert set(got) <= set(envs)  # nothing corrupt gets through
    assert len(got) + dec.dropped >= 150
    assert dec.dropped > 0


def test_stream_decoder_and_oversize_refusal() -> None:
    envs = [encode(Envelope.for_bytes(b"abc" * i, sender=1, receiver=2, seq=i + 1)) for i in range(5)]
    data = b"".join(length_prefix(e) for e in envs)
    dec = StreamDecoder()
    assert dec.feed(data[:50]) + dec.feed(data[50:]) == envs
    with pytest.raises(WireError):
        StreamDecoder(max_envelope=100).feed(struct.pack("<I", 1000))


# ---------------------------------------------------------------- fuzzing

dtypes = st.sampled_from(sorted(CODE_TO_NUMPY))


@st.composite
def envelopes(draw: st.DrawFn) -> Envelope:
    code = draw(dtypes)
    dims = tuple(draw(st.lists(st.integers(0, 4), min_size=0, max_size=8)))
    n = int(np.prod(dims)) if dims else 1
    data = draw(st.binary(min_size=n * CODE_TO_NUMPY[code].itemsize, max_size=n * CODE_TO_NUMPY[code].itemsize))
    quant = code in (2, 3) and draw(st.booleans())
    return Envelope(
        sender=draw(st.integers(0, 2**32 - 1)), receiver=draw(st.integers(0, 2**32 - 1)),
        seq=draw(st.integers(0, 2**64 - 1)), request_id=draw(st.integers(0, 2**64 - 1)),
        response_to=draw(st.integers(0, 2**64 - 1)), edge=draw(st.integers(0, 2**32 - 1)),
        kind=draw(st.integers(0, 1)), protocol=draw(st.integers(0, 0xFFFF)),
        flags=(1 if quant else 0) | draw(st.sampled_from([0, 2, 4, 6])), dtype=code, dims=dims,
        scale=float(np.float32(draw(st.floats(float(np.float32(1e-6)), 1e3, width=32)))) if quant else 0.0,
        zero_point=draw(st.integers(-(2**31), 2**31 - 1)) if quant else 0, data=data,
    )


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(envelopes())
def test_fuzz_roundtrip(env: Envelope) -> None:
    raw = encode(env)
    back = decode(raw)
    assert encode(back) == raw
    assert FrameDecoder().feed(frame(raw)) == [raw]


@settings(max_examples=4000, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_decoder_never_raises_anything_but_wire_error(data: bytes) -> None:
    try:
        env = decode(data, max_payload=1 << 16)
    except WireError:
        return
    assert encode(env) == data


@settings(max_examples=2000, deadline=None)
@given(envelopes(), st.integers(0, 10**6), st.integers(1, 255))
def test_fuzz_mutated_envelopes(env: Envelope, pos: int, xor: int) -> None:
    raw = bytearray(encode(env))
    raw[pos % len(raw)] ^= xor
    try:
        back = decode(bytes(raw))
    except WireError:
        return
    assert encode(back) == bytes(raw)


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=1200))
def test_fuzz_cobs_roundtrip(data: bytes) -> None:
    enc = cobs_encode(data)
    assert 0 not in enc
    assert cobs_decode(enc) == data
    assert zlib.crc32(data) == zlib.crc32(cobs_decode(enc))


def _runs() -> st.SearchStrategy[bytes]:
    """Byte strings built from zero-free runs near multiples of 254 (the COBS block edges)."""
    run = st.builds(lambda n, b: bytes([b]) * n,
                    st.sampled_from([0, 1, 2, 253, 254, 255, 507, 508, 509, 762, 1016]), st.integers(1, 255))
    return st.lists(st.one_of(run, st.binary(max_size=40)), max_size=6).map(lambda parts: b"\x00".join(parts))


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.binary(max_size=2000), _runs(), _runs().map(lambda b: b + b"\x00")))
def test_cobs_encoder_is_byte_identical_to_the_reference(data: bytes) -> None:
    """The fast encoder (C extension when installed) produces exactly the pure-Python reference's bytes,
    including the final 0x01 code after a trailing zero-free run of a multiple of 254 bytes."""
    ref = cobs_encode_py(data)
    assert cobs_encode(data) == ref
    assert cobs_encode(bytearray(data)) == ref and cobs_encode(memoryview(data)) == ref
    assert cobs_decode(ref) == data == cobs_decode_py(ref)
    assert framing.frame(data) == cobs_encode_py(data + struct.pack("<I", zlib.crc32(data))) + b"\x00"
    # what a serial link writes: the same frame as buffers, the CRC appended without copying the body
    assert b"".join(framing.frame_parts(data)) == framing.frame_body(data)
    # and a link header and its payload framed one after the other, unjoined (any split point)
    for cut in {0, 1, len(data) // 2, len(data)}:
        assert b"".join(framing.frame_parts(data[:cut], data[cut:])) == framing.frame_body(data)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4096, 9000), st.sampled_from([0.0, 0.004, 0.5]),
       st.one_of(st.just(b""), _runs(), _runs().map(lambda b: b + b"\x00")),
       st.sampled_from([b"\xbb\xa1\x02\x00\x05\x00\x00\x00", b"\xbb\xa1\x02\x00\x05\x00\x00\x01", b""]))
def test_large_frames_framed_unjoined_are_byte_identical(seed: int, size: int, zeros: float, tail: bytes,
                                                         header: bytes) -> None:
    """A link header and a payload of 4 KiB or more (framed unjoined, each encoded on its own) give the bytes
    of the reference frame of the joined body, whatever the payload ends with; a header that does not end
    in a zero byte (lseq >= 2**24) is joined."""
    rng = np.random.default_rng(seed)
    bulk = rng.integers(1, 256, size, dtype=np.uint8)
    bulk[rng.random(size) < zeros] = 0
    payload = bulk.tobytes() + tail
    ref = cobs_encode_py(header + payload + struct.pack("<I", zlib.crc32(header + payload)))
    assert b"".join(framing.frame_parts(header, payload)) == ref
    assert b"".join(framing.frame_parts(header + payload)) == ref


@settings(max_examples=3000, deadline=None)
@given(st.binary(max_size=600).map(lambda b: b.replace(b"\x00", b"\x01")))
def test_cobs_decoder_accepts_and_refuses_like_the_reference(block: bytes) -> None:
    """On any zero-free block the fast decoder returns the reference's bytes or both refuse it."""
    try:
        ref: bytes | None = cobs_decode_py(block)
    except WireError:
        ref = None
    try:
        got: bytes | None = cobs_decode(block)
    except WireError:
        got = None
    assert got == ref


def test_cobs_block_edges_keep_the_final_code_byte() -> None:
    for n in (254, 508, 762):
        assert cobs_encode(b"\x07" * n).endswith(b"\x01")
        assert cobs_encode(b"\x00" + b"\x07" * n) == cobs_encode_py(b"\x00" + b"\x07" * n)
    assert cobs_encode(b"") == b"\x01" == cobs_encode_py(b"")


def test_c_cobs_extension_is_in_use() -> None:
    """The base dependencies ``cobs`` and ``corncobs`` are installed, so framing uses their native codecs
    (``corncobs`` decodes; the pure Python is the fallback)."""
    assert framing._cobs_ext is not None
    assert framing._corn_decode is not None
