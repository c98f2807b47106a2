"""Update codecs (implementations of :class:`~bb_edge.learn.roles.Codec`) and secure aggregation.

Every codec turns a float32 vector into bytes for one UINT8 envelope and back.
Formats are little-endian and self-describing (a 4-byte tag, then sizes):

* ``Float32Codec`` (``raw``): the 4-byte values.
* ``Int8Codec``: symmetric per-chunk int8 quantisation, one float32 scale per
  ``chunk`` values (optionally stochastic rounding). ~3.9x smaller than float32.
* ``TopKCodec``: the ``k`` largest-magnitude entries (u32 index + f32 value),
  with error feedback: what was not sent is added to the next vector.
* ``GaussianDPCodec``: clip to L2 norm ``clip`` and add N(0, (sigma*clip)^2)
  noise (the Gaussian mechanism, applied at the client), sent as float32.

Secure aggregation (:class:`SecAggClient`, :func:`secagg_unmask_sum`) is the
pairwise-mask protocol of Bonawitz et al. (CCS 2017) without double masking:
clients agree on pairwise seeds by Diffie-Hellman, mask fixed-point updates so
the masks cancel in the sum, and Shamir-share their DH secret so that the
server can remove the masks of clients that drop out after masking, with any
``threshold`` surviving clients' shares.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from bb_edge.learn.roles import Component, ConfigError, LearnError, register

__all__ = [
    "Float32Codec", "Int8Codec", "TopKCodec", "GaussianDPCodec", "CodecError",
    "SecAggClient", "secagg_unmask_sum", "shamir_split", "shamir_combine", "to_fixed", "from_fixed",
    "DH_PRIME", "FIELD_PRIME",
]


class CodecError(LearnError, ValueError):
    """Bytes handed to a decoder are malformed or of another codec."""


def _check_tag(data: bytes, tag: bytes, min_len: int) -> memoryview:
    mv = memoryview(data)
    if len(mv) < min_len or bytes(mv[:4]) != tag:
        raise CodecError(f"not a {tag.decode()} payload (or truncated)")
    return mv


@register
@dataclass
class Float32Codec(Component):
    """Identity codec: float32 values."""

    type_id: ClassVar[str] = "codec.raw"

    def encode(self, vec: np.ndarray) -> bytes:
        """Tag + u32 n + float32 data."""
        v = np.asarray(vec, dtype="<f4").reshape(-1)
        return b"RAW1" + struct.pack("<I", v.size) + v.tobytes()

    def decode(self, data: bytes) -> np.ndarray:
        """Inverse of :meth:`encode`."""
        mv = _check_tag(data, b"RAW1", 8)
        (n,) = struct.unpack_from("<I", mv, 4)
        if len(mv) != 8 + 4 * n:
            raise CodecError("raw payload length does not match its count")
        return np.frombuffer(mv[8:], dtype="<f4").astype(np.float32)


@register
@dataclass
class Int8Codec(Component):
    """Symmetric int8 quantisation with one float32 scale per ``chunk`` values."""

    type_id: ClassVar[str] = "codec.int8"
    chunk: int = 2048
    stochastic: bool = False
    seed: int = 0
    calls: int = field(default=0, init=False)

    def encode(self, vec: np.ndarray) -> bytes:
        """Tag, u32 n, u32 chunk, float32 scales, int8 values."""
        v = np.asarray(vec, dtype=np.float32).reshape(-1)
        if not np.isfinite(v).all():
            raise CodecError("cannot quantise non-finite values")
        n, c = v.size, self.chunk
        nchunks = -(-n // c)
        padded = np.zeros(nchunks * c, dtype=np.float32)
        padded[:n] = v
        blocks = padded.reshape(nchunks, c)
        scale = np.abs(blocks).max(axis=1) / 127.0
        scale[scale == 0] = 1.0
        q = blocks / scale[:, None]
        if self.stochastic:
            rng = np.random.default_rng([self.seed, self.calls])
            self.calls += 1
            q = np.floor(q + rng.random(q.shape))
        else:
            q = np.rint(q)
        qi = np.clip(q, -127, 127).astype(np.int8).reshape(-1)[:n]
        return b"IQ81" + struct.pack("<II", n, c) + scale.astype("<f4").tobytes() + qi.tobytes()

    def decode(self, data: bytes) -> np.ndarray:
        """Inverse of :meth:`encode` (up to the quantisation error)."""
        mv = _check_tag(data, b"IQ81", 12)
        n, c = struct.unpack_from("<II", mv, 4)
        if c == 0:
            raise CodecError("int8 payload has chunk 0")
        nchunks = -(-n // c)
        if len(mv) != 12 + 4 * nchunks + n:
            raise CodecError("int8 payload length does not match its header")
        scale = np.frombuffer(mv[12:12 + 4 * nchunks], dtype="<f4")
        q = np.frombuffer(mv[12 + 4 * nchunks:], dtype=np.int8).astype(np.float32)
        return np.asarray(q * np.repeat(scale, c)[:n], dtype=np.float32)


@register
@dataclass
class TopKCodec(Component):
    """Top-k sparsification (``k`` entries, or ``fraction`` of them) with error feedback."""

    type_id: ClassVar[str] = "codec.topk"
    k: int | None = None
    fraction: float = 0.01
    error_feedback: bool = True
    residual: np.ndarray | None = field(default=None, init=False)

    def encode(self, vec: np.ndarray) -> bytes:
        """Tag, u32 n, u32 k, u32 indices (ascending), float32 values; updates the residual."""
        v = np.asarray(vec, dtype=np.float32).reshape(-1)
        acc = v + self.residual if (self.error_feedback and self.residual is not None
                                    and self.residual.shape == v.shape) else v.copy()
        n = v.size
        k = min(n, self.k if self.k is not None else max(1, int(round(self.fraction * n))))
        idx = np.sort(np.argpartition(-np.abs(acc), k - 1)[:k]) if k < n else np.arange(n)
        vals = acc[idx].astype("<f4")
        if self.error_feedback:
            res = acc.copy()
            res[idx] = 0.0
            self.residual = res
        return b"TOPK" + struct.pack("<II", n, k) + idx.astype("<u4").tobytes() + vals.tobytes()

    def decode(self, data: bytes) -> np.ndarray:
        """Dense vector with zeros outside the sent indices."""
        mv = _check_tag(data, b"TOPK", 12)
        n, k = struct.unpack_from("<II", mv, 4)
        if len(mv) != 12 + 8 * k or k > n:
            raise CodecError("top-k payload length does not match its header")
        idx = np.frombuffer(mv[12:12 + 4 * k], dtype="<u4")
        if k and int(idx.max()) >= n:
            raise CodecError("top-k index out of range")
        out = np.zeros(n, dtype=np.float32)
        out[idx] = np.frombuffer(mv[12 + 4 * k:], dtype="<f4")
        return out


@register
@dataclass
class GaussianDPCodec(Component):
    """Gaussian mechanism: clip to L2 norm ``clip``, add N(0, (sigma*clip)^2) per coordinate.

    Applied to client updates only (``applies_to_model`` is false: a server
    broadcasts its model as is). The noise of call k on node ``node`` is drawn
    from ``default_rng([seed, node, k])`` (``[seed, k]`` when ``node`` is 0),
    so every client draws its own noise and a run can be replayed; ``seed``
    ``None`` draws from fresh OS entropy (what a deployment that needs the
    privacy guarantee uses: a seed in a shared config is known to the server).
    The mean of k clients' updates then carries noise of standard deviation
    ``sigma * clip * sqrt(sum(w_i^2))`` per coordinate (``w`` the
    normalised aggregation weights; ``sigma * clip / sqrt(k)`` for equal ones).
    """

    type_id: ClassVar[str] = "codec.dp_gaussian"
    applies_to_model: ClassVar[bool] = False
    clip: float = 1.0
    sigma: float = 1.0
    seed: int | None = 0
    node: int = 0
    calls: int = field(default=0, init=False)

    def encode(self, vec: np.ndarray) -> bytes:
        """Clipped, noised float32 vector (``RAW1`` format)."""
        v = np.asarray(vec, dtype=np.float64).reshape(-1)
        norm = float(np.linalg.norm(v))
        if norm > self.clip:
            v = v * (self.clip / norm)
        if self.seed is None:
            rng = np.random.default_rng()
        else:
            rng = np.random.default_rng([self.seed, self.node, self.calls] if self.node else [self.seed, self.calls])
        self.calls += 1
        v = v + rng.normal(0.0, self.sigma * self.clip, size=v.shape)
        return Float32Codec().encode(v.astype(np.float32))

    def decode(self, data: bytes) -> np.ndarray:
        """The noised vector."""
        return Float32Codec().decode(data)


# ---------------------------------------------------------------------------
# secure aggregation
# ---------------------------------------------------------------------------

# RFC 3526 group 14 (2048-bit MODP), generator 2
DH_PRIME = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
DH_G = 2
FIELD_PRIME = 2**521 - 1  # Mersenne prime, field of the Shamir shares


def shamir_split(secret: int, n: int, t: int, rng: np.random.Generator) -> dict[int, int]:
    """Shares ``x -> f(x)`` for x = 1..n of a degree t-1 polynomial with f(0) = secret."""
    if not 1 <= t <= n:
        raise ConfigError(f"Shamir threshold {t} must be in 1..{n}")
    coeffs = [secret] + [int.from_bytes(rng.bytes(64), "little") % FIELD_PRIME for _ in range(t - 1)]
    return {x: sum(c * pow(x, i, FIELD_PRIME) for i, c in enumerate(coeffs)) % FIELD_PRIME
            for x in range(1, n + 1)}


def shamir_combine(shares: Mapping[int, int]) -> int:
    """Lagrange interpolation at 0 of the given shares."""
    total = 0
    xs = list(shares)
    for xi in xs:
        num, den = 1, 1
        for xj in xs:
            if xj != xi:
                num = num * (-xj) % FIELD_PRIME
                den = den * (xi - xj) % FIELD_PRIME
        total = (total + shares[xi] * num * pow(den, -1, FIELD_PRIME)) % FIELD_PRIME
    return total


def _prg_mask(shared: int, a: int, b: int, n: int) -> np.ndarray:
    lo, hi = min(a, b), max(a, b)
    digest = hashlib.sha256(shared.to_bytes(256, "big") + struct.pack("<II", lo, hi)).digest()
    rng = np.random.Generator(np.random.PCG64(int.from_bytes(digest, "little")))
    return rng.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32)


def _signed_mask(shared: int, me: int, other: int, n: int) -> np.ndarray:
    m = _prg_mask(shared, me, other, n)
    return m if me < other else (np.uint32(0) - m).astype(np.uint32)


def to_fixed(vec: np.ndarray, frac_bits: int) -> np.ndarray:
    """Float vector to two's-complement fixed point in uint32 (wraps modulo 2^32)."""
    return np.rint(np.asarray(vec, np.float64) * (1 << frac_bits)).astype(np.int64).astype(np.uint32)


def from_fixed(vec: np.ndarray, frac_bits: int) -> np.ndarray:
    """Inverse of :func:`to_fixed` for a (summed) uint32 vector."""
    return np.asarray(vec.astype(np.uint32).view(np.int32).astype(np.float64) / (1 << frac_bits),
                      dtype=np.float32)


@register
@dataclass
class SecAggClient(Component):
    """One client of pairwise-mask secure aggregation (see the module docstring).

    Round flow: every client publishes :meth:`public_key`; each sends
    :meth:`share_secret` shares to the others (share of client ``x`` for
    holder ``y`` is ``shares[y]``); each sends :meth:`encode` of its update
    (masked, fixed point). If clients drop after masking, survivors send the
    shares they hold of the dropped clients' secrets and the server calls
    :func:`secagg_unmask_sum`. Sums must stay within +/- 2^(31-frac_bits).
    """

    type_id: ClassVar[str] = "codec.secagg"
    node: int = 1
    seed: int = 0
    frac_bits: int = 16
    peers: dict[str, int] = field(default_factory=dict, init=False)

    def _secret(self) -> int:
        h = hashlib.sha256(struct.pack("<qI", self.seed, self.node) + b"bb-secagg").digest()
        return int.from_bytes(h, "big") | 1

    def public_key(self) -> int:
        """``g^secret mod p``."""
        return pow(DH_G, self._secret(), DH_PRIME)

    def set_peers(self, public_keys: Mapping[int, int]) -> None:
        """The public keys of every participant of the round (this node's own may be included)."""
        self.peers = {str(k): int(v) for k, v in public_keys.items() if int(k) != self.node}

    def share_secret(self, holders: Sequence[int], threshold: int) -> dict[int, int]:
        """Shamir shares of this client's DH secret, one per holder id (share x = position + 1)."""
        ordered = sorted(holders)
        rng = np.random.default_rng([self.seed, self.node, 7])
        sh = shamir_split(self._secret(), len(ordered), threshold, rng)
        return {h: sh[i + 1] for i, h in enumerate(ordered)}

    def encode(self, vec: np.ndarray) -> bytes:
        """Masked fixed-point update: ``SAG1``, u32 node, u32 n, uint32 values."""
        if not self.peers:
            raise ConfigError("SecAggClient.set_peers must be called before encode")
        secret = self._secret()
        return self.masked(vec, {int(o): pow(pub, secret, DH_PRIME) for o, pub in self.peers.items()})

    def masked(self, vec: np.ndarray, shared: Mapping[int, int]) -> bytes:
        """:meth:`encode` with the DH shared secrets (peer id -> ``pub^secret mod p``) already computed."""
        fx = to_fixed(vec, self.frac_bits)
        for other, sec in shared.items():
            if int(other) != self.node:
                fx = fx + _signed_mask(sec, self.node, int(other), fx.size)
        return b"SAG1" + struct.pack("<II", self.node, fx.size) + fx.astype("<u4").tobytes()

    def decode(self, data: bytes) -> np.ndarray:
        """The masked vector as uint32 (meaningless alone; sum it with :func:`secagg_unmask_sum`)."""
        mv = _check_tag(data, b"SAG1", 12)
        _, n = struct.unpack_from("<II", mv, 4)
        if len(mv) != 12 + 4 * n:
            raise CodecError("secagg payload length does not match its header")
        return np.frombuffer(mv[12:], dtype="<u4").astype(np.uint32)


def secagg_unmask_sum(
    masked: Mapping[int, bytes],
    public_keys: Mapping[int, int],
    dropped_shares: Mapping[int, Mapping[int, int]] | None = None,
    holders: Sequence[int] | None = None,
    frac_bits: int = 16,
) -> np.ndarray:
    """Server side: sum of the surviving clients' updates.

    ``masked`` maps surviving node -> :meth:`SecAggClient.encode` bytes.
    ``public_keys`` holds every client that masked (survivors and dropped).
    ``dropped_shares[d]`` maps holder id -> share of dropped client ``d``'s
    secret (at least the threshold of them), ``holders`` the full sorted holder
    list used by :meth:`SecAggClient.share_secret`.
    """
    total: np.ndarray | None = None
    for node, data in masked.items():
        mv = _check_tag(data, b"SAG1", 12)
        sender, n = struct.unpack_from("<II", mv, 4)
        if sender != node or len(mv) != 12 + 4 * n:
            raise CodecError(f"secagg payload of node {node} is malformed")
        vec = np.frombuffer(mv[12:], dtype="<u4").astype(np.uint32)
        total = vec.copy() if total is None else (total + vec).astype(np.uint32)
    if total is None:
        raise ConfigError("no masked updates to sum")
    dropped = [d for d in public_keys if d not in masked]
    if dropped:
        if dropped_shares is None or holders is None:
            raise ConfigError(f"clients {dropped} dropped: their secrets' shares are needed")
        order = sorted(holders)
        for d in dropped:
            got = dropped_shares.get(d, {})
            secret = shamir_combine({order.index(h) + 1: s for h, s in got.items()})
            if pow(DH_G, secret, DH_PRIME) != public_keys[d]:
                raise LearnError(f"shares of dropped client {d} do not reconstruct its secret")
            for s in masked:
                shared = pow(public_keys[s], secret, DH_PRIME)
                # survivor s added _signed_mask(shared, s, d): remove it
                total = (total - _signed_mask(shared, s, d, total.size)).astype(np.uint32)
    return from_fixed(total, frac_bits)

