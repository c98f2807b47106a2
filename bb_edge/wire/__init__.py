"""Wire envelope v1 codec, framing and the sans-IO link layer (see docs/wire.md)."""

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
from bb_edge.wire.link import Link, LinkConfig

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
    "Link",
    "LinkConfig",
    "StreamDecoder",
    "decode",
    "encode",
    "frame",
    "length_prefix",
]
