"""GGML weight blocks -> ONNX Runtime MatMulNBits operands, keeping the GGUF's numbers where possible.

MatMulNBits dequantizes a block of 32 as ``(q - zp) * scale`` with an integer zero point (the fast CPU path;
float zero points fall back to a reference kernel about 30x slower, measured here). GGML's blocks map as:

- Q4_0 ``d * (q - 8)``: scale d, default zero point 8, exact;
- Q8_0 ``d * q`` (int8 q): 8-bit, q + 128 with the default zero point 128, exact;
- Q4_1 ``d * q + m``: scale d, zero point 0, plus ``m`` times the block's sum of the input, which the builder
  adds as a small float MatMul (x's per-block sums @ m^T, 1/32 of the work): exact, fast kernel kept.

Anything else (F16/F32, other k-quants) is dequantized and requantized round-to-nearest per block.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bb_edge.llm.gguf_load import QuantTensor

BLOCK = 32


@dataclass
class NBits:
    """Operands of one MatMulNBits: packed ``b`` [N, K/32, bytes], ``scales`` [N*K/32], optional parts."""

    bits: int
    n: int
    k: int
    b: np.ndarray
    scales: np.ndarray
    zero_points: np.ndarray | None = None  # packed uint8, as MatMulNBits takes them
    block_mins: np.ndarray | None = None  # [K/32, N] float32: Q4_1's m, added through x's block sums

    def dequantize(self) -> np.ndarray:
        """The [N, K] float32 weight these operands stand for (for tests and the fp paths)."""
        nb = self.k // BLOCK
        if self.bits == 4:
            q = np.empty((self.n, nb, BLOCK), np.float32)
            q[..., 0::2] = self.b & 0xF
            q[..., 1::2] = self.b >> 4
        else:
            q = self.b.astype(np.float32)
        if self.zero_points is None:
            zp = np.full((self.n, nb), 2.0 ** (self.bits - 1), np.float32)
        elif self.bits == 4:
            zp = np.stack([self.zero_points & 0xF, self.zero_points >> 4], -1).reshape(self.n, -1)[:, :nb]
            zp = zp.astype(np.float32)
        else:
            zp = self.zero_points.reshape(self.n, nb).astype(np.float32)
        w = (q - zp[..., None]) * self.scales.reshape(self.n, nb, 1)
        if self.block_mins is not None:
            w = w + self.block_mins.T[..., None]
        return w.reshape(self.n, self.k).astype(np.float32)


def _pack4(q: np.ndarray) -> np.ndarray:
    """[N, nb, 32] values 0..15 -> [N, nb, 16] bytes, element 2i in the low nibble (MatMulNBits' order)."""
    return (q[..., 0::2] | (q[..., 1::2] << 4)).astype(np.uint8)


def _halves(raw: np.ndarray, n: int, nb: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    blocks = np.ascontiguousarray(raw).reshape(n, nb, size)
    return blocks, blocks[..., :2].copy().view(np.float16)[..., 0].astype(np.float32)


def from_gguf(t: QuantTensor, bits: int, *, exact_q4_1: bool = True) -> NBits:
    """MatMulNBits operands for GGUF weight ``t`` (rows N = out features, cols K) at ``bits`` (4 or 8).

    ``exact_q4_1=False`` requantizes Q4_1 to integer zero points (no extra MatMul; not the GGUF's numbers).
    """
    n, k = t.shape
    if k % BLOCK:
        raise ValueError(f"{t.name}: K={k} is not a multiple of {BLOCK}")
    nb = k // BLOCK
    if bits == 4 and t.kind == "Q4_1" and exact_q4_1:
        blocks, d = _halves(t.raw, n, nb, 20)
        m = blocks[..., 2:4].copy().view(np.float16)[..., 0].astype(np.float32)
        qs = blocks[..., 4:]
        q = np.concatenate([qs & 0xF, qs >> 4], axis=-1)  # GGML: element j low nibble, j+16 high nibble
        zp = np.zeros((n, (nb + 1) // 2), np.uint8)
        return NBits(4, n, k, _pack4(q), d.reshape(-1), zp, np.ascontiguousarray(m.T))
    if bits == 4 and t.kind == "Q4_0":
        blocks, d = _halves(t.raw, n, nb, 18)
        qs = blocks[..., 2:]
        q = np.concatenate([qs & 0xF, qs >> 4], axis=-1)
        return NBits(4, n, k, _pack4(q), d.reshape(-1))
    if bits == 8 and t.kind == "Q8_0" or bits == 4 and t.kind == "Q8_0":
        # an 8-bit GGUF tensor (the tied embedding/lm_head of Q4 files) stays 8-bit: exact, as llama.cpp runs it
        blocks, d = _halves(t.raw, n, nb, 34)
        q = (blocks[..., 2:].view(np.int8).astype(np.int16) + 128).astype(np.uint8)
        return NBits(8, n, k, np.ascontiguousarray(q), d.reshape(-1))
    return requantize(t.dequantize(), bits)


def requantize(w: np.ndarray, bits: int) -> NBits:
    """Round-to-nearest block quantization of float [N, K] ``w``: 4-bit asymmetric, 8-bit symmetric."""
    n, k = w.shape
    nb = k // BLOCK
    blocks = w.reshape(n, nb, BLOCK).astype(np.float32)
    if bits == 8:
        amax = np.abs(blocks).max(-1)
        scale = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
        q = np.clip(np.rint(blocks / scale[..., None]), -127, 127).astype(np.int16) + 128
        return NBits(8, n, k, q.astype(np.uint8), scale.reshape(-1))
    lo = np.minimum(blocks.min(-1), 0.0)
    hi = np.maximum(blocks.max(-1), 0.0)
    scale = np.where(hi > lo, (hi - lo) / 15.0, 1.0).astype(np.float32)
    zp = np.clip(np.rint(-lo / scale), 0, 15).astype(np.uint8)
    q = np.clip(np.rint(blocks / scale[..., None]) + zp[..., None], 0, 15).astype(np.uint8)
    zpp = np.zeros((n, (nb + 1) // 2), np.uint8)
    for j in range(nb):
        zpp[:, j // 2] |= (zp[:, j] << (4 * (j % 2))).astype(np.uint8)
    return NBits(4, n, k, _pack4(q), scale.reshape(-1), zpp)


def row_chunks(q: NBits, chunks: int) -> list[NBits]:
    """``q`` cut into ``chunks`` (at most one per row) NBits of consecutive rows, sizes differing by at most one."""
    nb = q.k // BLOCK
    cuts = np.linspace(0, q.n, min(chunks, q.n) + 1).round().astype(int)
    zp = None if q.zero_points is None else q.zero_points.reshape(q.n, -1)
    out = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        out.append(NBits(q.bits, int(b - a), q.k, q.b[a:b], q.scales.reshape(q.n, nb)[a:b].reshape(-1),
                         None if zp is None else zp[a:b].reshape(-1),
                         None if q.block_mins is None else q.block_mins[:, a:b]))
    return out


def concat_nbits(parts: list[NBits]) -> NBits | None:
    """One NBits with the rows of ``parts`` stacked (fused projections); None when their formats differ."""
    first = parts[0]
    same = all(p.bits == first.bits and p.k == first.k and (p.zero_points is None) == (first.zero_points is None)
               and (p.block_mins is None) == (first.block_mins is None) for p in parts)
    if not same:
        return None
    if len(parts) == 1:
        return first
    zp = None if first.zero_points is None else np.concatenate(
        [p.zero_points for p in parts if p.zero_points is not None])
    mins = None if first.block_mins is None else np.concatenate(
        [p.block_mins for p in parts if p.block_mins is not None], axis=1)
    return NBits(first.bits, sum(p.n for p in parts), first.k, np.concatenate([p.b for p in parts]),
                 np.concatenate([p.scales for p in parts]), zp, mins)
