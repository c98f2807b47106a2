"""Wire envelope v1 codec and framing (see docs/wire.md)."""

from bb_edge.wire.envelope import (
    BROADCAST,
    FLAG_ERROR,
    FLAG_QUANT,
    FLAG_RESPONSE,
    HEADER_SIZE,
    KIND_CONTROL,
    KIND_DATA,
    MAX_RANK,
    PROTO_CONTROL,
    PROTO_DATAFLOW,
    Envelope,
    decode,
    encode,
)
from bb_edge.wire.framing import FrameDecoder, StreamDecoder, frame, length_prefix

__all__ = [
    "BROADCAST",
    "FLAG_ERROR",
    "FLAG_QUANT",
    "FLAG_RESPONSE",
    "HEADER_SIZE",
    "KIND_CONTROL",
    "KIND_DATA",
    "MAX_RANK",
    "PROTO_CONTROL",
    "PROTO_DATAFLOW",
    "Envelope",
    "FrameDecoder",
    "StreamDecoder",
    "decode",
    "encode",
    "frame",
    "length_prefix",
]
