"""Envelopes handed between engines in one process as objects, without encoding (zero-copy).

An in-process adapter may pass a data envelope as a :class:`~bb_edge.wire.Envelope`
whose payload is a read-only view of the sender's tensor instead of its
encoded bytes (``Engine(local_payloads=True)`` produces them,
:meth:`Engine.deliver_local` takes them). The receiver applies the same
rules as :func:`bb_edge.wire.decode` would to the bytes :func:`bb_edge.wire.encode`
would have made: :func:`check_local` refuses with the same WireError codes
whatever encode would refuse to produce or decode would reject, and every
later check (receiver, authorisation, contract, freshness, budgets) is the
one encoded envelopes go through. Only the byte-level fields that an object
does not have (magic, version, reserved bytes, dims padding) are not there
to check.
"""

from __future__ import annotations

import math

from bb_edge.errors import WireError
from bb_edge.wire import envelope as wire
from bb_edge.wire.dtypes import CODE_TO_NUMPY

_U32_MAX = 0xFFFFFFFF
_U64_MAX = 0xFFFFFFFFFFFFFFFF


def local_size(env: wire.Envelope) -> int:
    """Bytes the envelope would take encoded (header, dims, payload): what budgets and counters charge."""
    return wire.data_offset(len(env.dims)) + len(env.data)


def check_local(env: wire.Envelope, max_payload: int) -> None:
    """Raise WireError (decode's codes) unless ``env`` is an envelope v1 could carry within ``max_payload``."""
    if not isinstance(env, wire.Envelope):
        raise WireError("BAD_FIELD", f"an in-process envelope must be an Envelope, not {type(env).__name__}")
    for value, name, limit in (
        (env.sender, "sender", _U32_MAX), (env.receiver, "receiver", _U32_MAX), (env.edge, "edge", _U32_MAX),
        (env.seq, "seq", _U64_MAX), (env.request_id, "request_id", _U64_MAX),
        (env.response_to, "response_to", _U64_MAX), (env.protocol, "protocol", 0xFFFF),
        (env.kind, "kind", 0xFF), (env.flags, "flags", 0xFFFF), (env.dtype, "dtype", 0xFF),
        (env.step, "step", _U32_MAX),
    ):
        # bool is an int subclass but no field of the header is a flag of its own
        if type(value) is not int or not 0 <= value <= limit:
            raise WireError("BAD_FIELD", f"{name}={value!r} is not an integer in 0..{limit}")
    if env.kind not in (wire.KIND_DATA, wire.KIND_CONTROL):
        raise WireError("BAD_KIND", f"kind {env.kind} is not 0 (data) or 1 (control)")
    if env.flags & ~wire.KNOWN_FLAGS:
        raise WireError("BAD_FIELD", f"unknown flag bits 0x{env.flags & ~wire.KNOWN_FLAGS:04x}")
    if env.flags & wire.FLAG_SESSION and (env.flags & wire.FLAG_RESPONSE or env.response_to == 0):
        raise WireError("BAD_FIELD", "a session envelope needs a non-zero session id and no RESPONSE flag")
    if env.step and not env.flags & wire.FLAG_SESSION:
        raise WireError("BAD_FIELD", f"step {env.step} without the SESSION flag")
    if env.dtype not in CODE_TO_NUMPY:
        raise WireError("BAD_DTYPE", f"dtype code {env.dtype} is not in the wire dtype table")
    if not isinstance(env.dims, tuple) or len(env.dims) > wire.MAX_RANK:
        raise WireError("BAD_RANK", f"dims {env.dims!r} are not a tuple of rank <= {wire.MAX_RANK}")
    if any(type(d) is not int or not 0 <= d <= _U32_MAX for d in env.dims):
        raise WireError("BAD_FIELD", f"dims {env.dims} out of u32 range")
    if env.flags & wire.FLAG_QUANT:
        if env.dtype not in (2, 3):
            raise WireError("BAD_FIELD", "QUANT flag is only valid for INT8/UINT8 payloads")
        if not (isinstance(env.scale, float) and math.isfinite(env.scale) and env.scale > 0.0):
            raise WireError("BAD_FIELD", f"quantization scale {env.scale} must be finite and > 0")
        if type(env.zero_point) is not int or not -(2**31) <= env.zero_point < 2**31:
            raise WireError("BAD_FIELD", f"zero_point {env.zero_point!r} is not an i32")
    elif env.scale != 0.0 or env.zero_point != 0:
        raise WireError("BAD_FIELD", "scale/zero_point must be 0 without the QUANT flag")
    data = env.data
    if isinstance(data, memoryview):
        # a view the receiver keeps: flat bytes, one contiguous block, and not writable through it
        if data.format != "B" or data.ndim != 1 or not data.c_contiguous or not data.readonly:
            raise WireError("BAD_FIELD", "payload view must be read-only, contiguous, flat bytes")
    elif not isinstance(data, bytes):
        raise WireError("BAD_FIELD", f"payload must be bytes or a memoryview, not {type(data).__name__}")
    n = len(data)
    if n > max_payload:
        raise WireError("TOO_LARGE", f"payload {n} bytes exceeds the maximum {max_payload}")
    expected = CODE_TO_NUMPY[env.dtype].itemsize
    for d in env.dims:
        expected *= d
    if expected != n:
        raise WireError("BAD_LENGTH", f"payload is {n} bytes but dims {env.dims} need {expected}")
