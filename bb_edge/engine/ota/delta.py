"""Weights-only program updates: per-tensor deltas of an ONNX program (docs/wire.md "Deltas").

A delta lists the initializers that differ between the running program (the *base*) and the new one,
each compressed (zlib or lzma, whichever is smaller). The node applies it to its running program and
must arrive at exactly the image the deployer offered: the OFFER_DELTA's signed manifest names the
full image's size and SHA-256, checked after the rebuild, so a delta can never yield an image the
deployer did not sign. Layout (little-endian)::

    b"BBD1", u16 count, then per tensor: u16 name_len, name (UTF-8), u8 codec (1 zlib, 2 lzma),
    u32 packed_len, packed (a compressed onnx.TensorProto)

:func:`make_delta` is the deployer's side, :func:`apply_delta` the node's. Sans-IO: bytes in, bytes out.
"""

from __future__ import annotations

import hashlib
import lzma
import struct
import zlib

import onnx

from bb_edge.errors import BBError

MAGIC = b"BBD1"
ZLIB, LZMA = 1, 2
_HEAD = struct.Struct("<4sH")
_NAME = struct.Struct("<H")
_PACK = struct.Struct("<BI")
#: the largest message protobuf serializes (2 GiB - 1): a rebuild past it is refused, typed, before it is tried
PROTOBUF_LIMIT = (1 << 31) - 1


class DeltaError(BBError):
    """A delta cannot be applied: malformed, or it names a tensor the base does not have."""


def base_hash(model: onnx.ModelProto) -> bytes:
    """The hash a delta's base is named by: SHA-256 of the deterministic serialization (a node's program hash)."""
    return hashlib.sha256(model.SerializeToString(deterministic=True)).digest()


def _rebuild(base: onnx.ModelProto, tensors: dict[str, onnx.TensorProto], limit: int = PROTOBUF_LIMIT) -> bytes:
    """``base`` with ``tensors`` in place of its initializers; DeltaError when the image would pass ``limit``
    (or protobuf's 2 GiB) bytes, estimated from the sizes before anything is copied or serialized."""
    old = {i.name: i.ByteSize() for i in base.graph.initializer if i.name in tensors}
    # each replaced initializer's bytes change by the difference (its length prefix by at most 5 bytes)
    estimate = base.ByteSize() + sum(t.ByteSize() - old.get(n, 0) + 5 for n, t in tensors.items())
    cap = min(limit, PROTOBUF_LIMIT)
    if estimate - 5 * len(tensors) > cap:
        raise DeltaError(f"the rebuilt image would be about {estimate} bytes, past "
                         f"{'the signed size' if cap == limit else 'protobuf' + chr(39) + 's 2 GiB limit'} ({cap})")
    m = onnx.ModelProto()
    m.CopyFrom(base)
    for init in m.graph.initializer:
        t = tensors.get(init.name)
        if t is not None:
            init.CopyFrom(t)
    try:
        return m.SerializeToString(deterministic=True)
    except ValueError as exc:  # protobuf refuses a message past 2 GiB
        raise DeltaError(f"the rebuilt image is past protobuf's 2 GiB limit: {exc}") from None


def make_delta(old_image: bytes, new_image: bytes) -> tuple[bytes, bytes, bytes] | None:
    """``(delta, rebuilt image, base hash)`` when ``new_image`` differs from ``old_image`` in initializer
    values only; None otherwise (graph, names, shapes or metadata changed: ship the full program).

    The rebuilt image (what a node builds from its base and the delta, byte for byte) is what the deployer
    offers and signs; it is the new program, serialized deterministically.
    """
    try:
        old, new = onnx.load_from_string(old_image), onnx.load_from_string(new_image)
    except Exception:  # not ONNX: no delta
        return None
    old_t = {t.name: t for t in old.graph.initializer}
    new_t = {t.name: t for t in new.graph.initializer}
    if set(old_t) != set(new_t):
        return None
    changed = {n: t for n, t in new_t.items() if t.SerializeToString(deterministic=True)
               != old_t[n].SerializeToString(deterministic=True)}
    rebuilt = _rebuild(old, changed)
    if onnx.load_from_string(rebuilt) != new:  # something besides initializer values changed
        return None
    out = [_HEAD.pack(MAGIC, len(changed))]
    for name, t in sorted(changed.items()):
        raw = t.SerializeToString(deterministic=True)
        packed = min(((ZLIB, zlib.compress(raw, 9)), (LZMA, lzma.compress(raw))), key=lambda p: len(p[1]))
        nb = name.encode("utf-8")
        out += [_NAME.pack(len(nb)), nb, _PACK.pack(packed[0], len(packed[1])), packed[1]]
    return b"".join(out), rebuilt, base_hash(old)


def apply_delta(base: onnx.ModelProto, delta: bytes, max_size: int, total: int | None = None) -> bytes:
    """The full image ``delta`` rebuilds from ``base``; DeltaError when malformed, when a tensor is not
    in the base, when a tensor unpacks past ``max_size`` bytes, or when all of them together unpack past
    ``total`` (the signed full size: every unpacked tensor is part of the image) or the rebuilt image would.
    Nothing is decompressed beyond what the bound still allows. The caller checks the image's hash."""
    budget = max_size if total is None else min(max_size, total)
    if len(delta) < _HEAD.size:
        raise DeltaError(f"delta of {len(delta)} bytes")
    magic, count = _HEAD.unpack_from(delta)
    if magic != MAGIC:
        raise DeltaError("not a bb-edge delta (magic)")
    names = {t.name for t in base.graph.initializer}
    pos, tensors = _HEAD.size, {}
    for _ in range(count):
        if pos + _NAME.size > len(delta):
            raise DeltaError("delta ends inside a tensor header")
        (n,) = _NAME.unpack_from(delta, pos)
        pos += _NAME.size
        if pos + n + _PACK.size > len(delta):
            raise DeltaError("delta ends inside a tensor header")
        try:
            name = delta[pos:pos + n].decode("utf-8")
        except UnicodeDecodeError:
            raise DeltaError("tensor name is not UTF-8") from None
        pos += n
        codec, size = _PACK.unpack_from(delta, pos)
        pos += _PACK.size
        if name not in names or name in tensors:
            raise DeltaError(f"tensor {name!r} is not an initializer of the running program (or repeated)")
        if codec not in (ZLIB, LZMA) or pos + size > len(delta):
            raise DeltaError(f"tensor {name!r}: codec {codec} or length {size} invalid")
        packed = delta[pos:pos + size]
        pos += size
        room = min(max_size, budget)  # what this tensor may still unpack to
        try:
            if codec == ZLIB:
                d = zlib.decompressobj()
                raw = d.decompress(packed, room + 1)
            else:
                raw = lzma.LZMADecompressor().decompress(packed, room + 1)
        except (zlib.error, lzma.LZMAError) as exc:
            raise DeltaError(f"tensor {name!r} does not decompress: {exc}") from None
        if len(raw) > room:
            if room < max_size:
                raise DeltaError(f"the delta unpacks past the signed size ({total} bytes) at tensor {name!r}")
            raise DeltaError(f"tensor {name!r} unpacks past {max_size} bytes")
        budget -= len(raw)
        t = onnx.TensorProto()
        try:
            t.ParseFromString(raw)
        except Exception:  # protobuf's DecodeError
            raise DeltaError(f"tensor {name!r} is not a TensorProto") from None
        if t.name != name:
            raise DeltaError(f"tensor {name!r} carries the name {t.name!r}")
        tensors[name] = t
    if pos != len(delta):
        raise DeltaError(f"{len(delta) - pos} bytes after the last tensor")
    return _rebuild(base, tensors, PROTOBUF_LIMIT if total is None else total)
