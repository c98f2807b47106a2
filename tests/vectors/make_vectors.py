"""Regenerate the golden envelope vectors: ``python tests/vectors/make_vectors.py``.

The vectors are checked in; tests decode and re-encode them with the Python
codec and the C runtime and compare byte for byte. Regenerate only when the
wire format version changes.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

from bb_edge.wire import Envelope, decode, encode, frame
from bb_edge.wire.envelope import FLAG_ERROR, FLAG_RESPONSE, FLAG_SESSION, KIND_CONTROL, PROTO_CONTROL

HERE = Path(__file__).parent


def vectors() -> dict[str, Envelope]:
    """The named golden envelopes."""
    rng = np.random.default_rng(20261123)
    v: dict[str, Envelope] = {}
    v["f32_rank2"] = Envelope.for_array(
        np.arange(12, dtype=np.float32).reshape(3, 4) / 8, sender=1, receiver=2, seq=1,
        request_id=7, edge=1)
    v["f32_rank4_image"] = Envelope.for_array(
        rng.standard_normal((1, 3, 4, 4)).astype(np.float32), sender=2, receiver=3, seq=42,
        request_id=0x0102030405060708, edge=3)
    v["int8_quant"] = Envelope.for_array(
        rng.integers(-128, 127, size=(1, 10), dtype=np.int8), sender=3, receiver=1, seq=9,
        request_id=5, edge=2, quant=(0.0235, -3))
    v["uint8_quant_rank1"] = Envelope.for_array(
        np.arange(0, 255, 17, dtype=np.uint8), sender=4, receiver=1, seq=10, edge=4,
        quant=(0.5, 128))
    v["int64_rank3_odd"] = Envelope.for_array(
        np.array([[[1, -2, 3]]], dtype=np.int64), sender=1, receiver=4, seq=2**40, edge=5)
    # a one-element rank-1 tensor (pinned before for_array kept 0-d arrays at rank 0)
    v["scalar_f32"] = Envelope.for_array(np.array([3.5], dtype=np.float32), sender=1,
                                         receiver=2, seq=3, edge=6)
    v["rank0_f32"] = Envelope.for_array(np.array(-1.25, dtype=np.float32), sender=1,
                                        receiver=2, seq=15, edge=6)
    v["empty_tensor"] = Envelope.for_array(np.zeros((0, 4), dtype=np.float32), sender=1,
                                           receiver=2, seq=4, edge=7)
    v["f16_rank8"] = Envelope.for_array(
        np.arange(2 * 1 * 1 * 2 * 1 * 1 * 2 * 1, dtype=np.float16).reshape(2, 1, 1, 2, 1, 1, 2, 1),
        sender=5, receiver=6, seq=11, edge=8)
    v["control_hello"] = Envelope.for_bytes(b"sensor", sender=1, receiver=0xFFFFFFFF, seq=1,
                                            edge=1)
    v["control_pong"] = Envelope.for_bytes(b"", sender=2, receiver=1, seq=77, edge=3,
                                           flags=FLAG_RESPONSE, response_to=76)
    v["control_error"] = Envelope.for_bytes(b"unknown edge 9", sender=2, receiver=1,
                                            seq=78, edge=5, flags=FLAG_ERROR, kind=KIND_CONTROL,
                                            protocol=PROTO_CONTROL)
    v["learning_bytes"] = Envelope.for_bytes(bytes(range(256)) * 2, sender=7, receiver=8,
                                             seq=1000, kind=0, protocol=16, edge=0,
                                             request_id=12)
    # a 0-d tensor of every wire dtype (issue 26: scalars cross every edge, transport and runtime as rank 0)
    for k, (name, value) in enumerate(RANK0.items()):
        v[f"rank0_{name}"] = Envelope.for_array(np.array(value[1], dtype=value[0]), sender=1, receiver=2,
                                                seq=100 + k, request_id=k, edge=9)
    # sessions (docs/wire.md "Sessions"): a data step (session id in response_to, step at offset 60), an int8 step
    # of a client's session, and the owner's CTRL_SESSION_CLOSE (control code 6) naming the session
    v["session_step"] = Envelope.for_array(
        np.arange(8, dtype=np.float32).reshape(1, 8) / 4, sender=0, receiver=3, seq=2**32 + 5,
        request_id=0x0000000000000021, edge=1000).in_session(0x0123456789ABCDEF, 7)
    v["session_step_int8"] = Envelope.for_array(
        np.array([[-3, 0, 5, 127]], dtype=np.int8), sender=0xFFFF0002, receiver=3, seq=9,
        request_id=(2 << 56) | 4, edge=1001, quant=(0.125, -1)).in_session(2**64 - 1, 2**32 - 1)
    v["session_close"] = Envelope.for_bytes(b"", sender=0xFFFF0002, receiver=3, seq=10, edge=6,
                                            request_id=2 << 56).in_session(77, 0)
    return v


#: the 0-d vectors beside rank0_f32: dtype and a value whose bytes show the byte order
RANK0: dict[str, tuple[str, object]] = {
    "u8": ("u1", 200), "i8": ("i1", -7), "u16": ("<u2", 0xBEEF), "i16": ("<i2", -12345), "i32": ("<i4", -2**31 + 5),
    "i64": ("<i8", 16000), "bool": ("?", True), "f16": ("<f2", -0.099975586), "f64": ("<f8", 1e300 / 3),
    "u32": ("<u4", 0xDEADBEEF), "u64": ("<u8", 2**64 - 3),
}


def invalid(valid: bytes) -> dict[str, tuple[bytes, str]]:
    """Malformed envelopes derived from a valid one, with the error each must raise."""
    out: dict[str, tuple[bytes, str]] = {}
    out["short_header"] = (valid[:40], "TRUNCATED")
    out["bad_magic"] = (b"\x00\x00" + valid[2:], "BAD_MAGIC")
    out["bad_version"] = (valid[:2] + b"\x02" + valid[3:], "BAD_VERSION")
    out["bad_kind"] = (valid[:3] + b"\x07" + valid[4:], "BAD_KIND")
    out["bad_flags"] = (valid[:4] + struct.pack("<H", 0x80) + valid[6:], "BAD_FIELD")
    out["bad_dtype"] = (valid[:44] + b"\x08" + valid[45:], "BAD_DTYPE")
    out["bad_rank"] = (valid[:45] + b"\x09" + valid[46:], "BAD_RANK")
    out["quant_on_float"] = (valid[:4] + struct.pack("<H", 1) + valid[6:], "BAD_FIELD")
    out["truncated_payload"] = (valid[:-4], "TRUNCATED")
    out["trailing_bytes"] = (valid + b"\x00\x00", "BAD_LENGTH")
    big = bytearray(valid)
    struct.pack_into("<I", big, 56, 0xFFFFFFF0)
    out["huge_payload_len"] = (bytes(big), "TOO_LARGE")
    wrong = bytearray(valid)
    struct.pack_into("<I", wrong, 64, 4)  # dims[0] 3 -> 4, payload unchanged
    out["dims_mismatch"] = (bytes(wrong), "BAD_LENGTH")
    ovf = bytearray(valid)
    struct.pack_into("<II", ovf, 64, 0xFFFFFFFF, 0xFFFFFFFF)
    out["dims_overflow"] = (bytes(ovf), "BAD_LENGTH")
    stray = bytearray(valid)
    struct.pack_into("<f", stray, 48, 1.0)  # scale set without the QUANT flag
    out["scale_without_quant"] = (bytes(stray), "BAD_FIELD")
    step = bytearray(valid)
    struct.pack_into("<I", step, 60, 3)  # a step without the SESSION flag
    out["step_without_session"] = (bytes(step), "BAD_FIELD")
    return out


def invalid_session(valid_session: bytes) -> dict[str, tuple[bytes, str]]:
    """Malformed session envelopes: a zero session id, SESSION with RESPONSE."""
    out: dict[str, tuple[bytes, str]] = {}
    zero = bytearray(valid_session)
    struct.pack_into("<Q", zero, 32, 0)
    out["session_zero_id"] = (bytes(zero), "BAD_FIELD")
    resp = bytearray(valid_session)
    struct.pack_into("<H", resp, 4, FLAG_SESSION | FLAG_RESPONSE)
    out["session_with_response"] = (bytes(resp), "BAD_FIELD")
    return out


def invalid_quant(valid_quant: bytes, valid_odd_rank: bytes) -> dict[str, tuple[bytes, str]]:
    """Malformed quantized / odd-rank envelopes."""
    out: dict[str, tuple[bytes, str]] = {}
    neg = bytearray(valid_quant)
    struct.pack_into("<f", neg, 48, -0.5)
    out["quant_negative_scale"] = (bytes(neg), "BAD_FIELD")
    nan = bytearray(valid_quant)
    struct.pack_into("<I", nan, 48, 0x7FC00000)
    out["quant_nan_scale"] = (bytes(nan), "BAD_FIELD")
    pad = bytearray(valid_odd_rank)
    pad[64 + 4 * 3] = 1  # rank 3: padding bytes 76..79 must be zero
    out["nonzero_dims_padding"] = (bytes(pad), "BAD_FIELD")
    return out


def main() -> None:
    """Write the vectors and vectors.json."""
    desc: dict[str, object] = {"valid": {}, "invalid": {}, "max_payload": 1 << 20}
    (HERE / "invalid").mkdir(exist_ok=True)
    for name, env in vectors().items():
        raw = encode(env)
        (HERE / f"{name}.bin").write_bytes(raw)
        (HERE / f"{name}.frame").write_bytes(frame(raw))
        desc["valid"][name] = {  # type: ignore[index]
            "kind": env.kind, "flags": env.flags, "protocol": env.protocol,
            "sender": env.sender, "receiver": env.receiver, "seq": env.seq,
            "request_id": env.request_id, "response_to": env.response_to, "edge": env.edge,
            "dtype": env.dtype, "dims": list(env.dims), "scale": decode(raw).scale,
            "zero_point": env.zero_point, "payload_len": len(env.data),
            "payload_hex": bytes(env.data).hex(), "length": len(raw), "step": env.step,
        }
    base = encode(vectors()["f32_rank2"])
    bad = invalid(base)
    bad.update(invalid_quant(encode(vectors()["int8_quant"]), encode(vectors()["int64_rank3_odd"])))
    bad.update(invalid_session(encode(vectors()["session_step"])))
    for name, (raw, code) in bad.items():
        (HERE / "invalid" / f"{name}.bin").write_bytes(raw)
        desc["invalid"][name] = code  # type: ignore[index]
    (HERE / "vectors.json").write_text(json.dumps(desc, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
