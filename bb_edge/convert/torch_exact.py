"""Exact forms of ONNX ops whose direct torch translation ExecuTorch refuses or computes differently.

Each function here replaces an entry of :data:`bb_edge.convert.torch_ops.EXTRA` (registered by
``EXTRA.update(EXACT)`` there) with a form built from ops every ExecuTorch build runs (Core ATen with
portable kernels): BitShift as multiplication/floor division by powers of two (``bitwise_*_shift`` are
not Core ATen), CumProd as an unrolled product (``cumprod`` is not Core ATen), integer Mod from a
truncating division (the runtime's ``remainder`` differs on mixed signs), TopK with onnx's tie order
(lower index first), NLL/SoftmaxCrossEntropy losses of any rank from ``gather``, ScatterND reductions
with their (static) indices unrolled, LRN from channel-window sums, tanh-Gelu written out.

Unsigned 16/32/64-bit values (ExecuTorch has no kernels for them) travel as a wider signed type
(:data:`WIDE`): uint16 as int32, uint32 as int64 (exact), uint64 as int64's bit pattern. The
interpreter masks uint16/uint32 results back to their width (wrap-around exact) and routes the ops
where uint64's order matters (compares, Max/Min, Div/Mod, right shift) through :func:`unsigned_op`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

Tensor = torch.Tensor
OpFn = Callable[[list[Any], dict[str, Any]], list[Tensor]]

#: ONNX unsigned element types -> (numpy dtype the program carries, bits)
WIDE: dict[int, tuple[np.dtype[Any], int]] = {4: (np.dtype(np.int32), 16), 12: (np.dtype(np.int64), 32),
                                              13: (np.dtype(np.int64), 64)}
_MIN64 = -(2 ** 63)
_MAX64 = 2 ** 63 - 1


def to_program(a: np.ndarray) -> np.ndarray:
    """An array as the program takes it: unsigned 16/32/64-bit as the wider signed type, others as they are."""
    if a.dtype == np.uint64:
        return a.view(np.int64)
    if a.dtype == np.uint32:
        return a.astype(np.int64)
    if a.dtype == np.uint16:
        return a.astype(np.int32)
    return a


def from_program(a: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    """A program output back in its ONNX dtype (the inverse of :func:`to_program`)."""
    if dtype == a.dtype:
        return a
    if dtype == np.uint64 and a.dtype == np.int64:
        return a.view(np.uint64)
    return a.astype(dtype)


def mask_unsigned(t: Tensor, elem_type: int) -> Tensor:
    """A widened uint16/uint32 result reduced to its width (two's-complement wrap-around, as the ONNX type)."""
    if elem_type in (4, 12) and not t.dtype.is_floating_point and t.dtype != torch.bool:
        return torch.bitwise_and(t, (1 << WIDE[elem_type][1]) - 1)
    return t


def _flip(t: Tensor) -> Tensor:
    """uint64 bit patterns in int64 mapped so that signed order is unsigned order."""
    return torch.bitwise_xor(t, _MIN64)


def _lshr1(t: Tensor) -> Tensor:
    """Logical shift right by one of an int64 bit pattern."""
    return torch.bitwise_and(torch.div(t, 2, rounding_mode="floor"), _MAX64)


def _udivmod64(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """Unsigned 64-bit quotient and remainder of bit patterns held in int64 (Hacker's Delight 9-3)."""
    a, b = torch.broadcast_tensors(a, b)
    big = b < 0  # divisor >= 2**63: quotient is 0 or 1
    bs = torch.where(big, torch.ones_like(b), b)
    q = torch.div(_lshr1(a), bs, rounding_mode="trunc") * 2
    r = a - q * bs
    q = torch.where(_flip(r) >= _flip(bs), q + 1, q)
    q_big = (_flip(a) >= _flip(b)).to(torch.int64)
    q = torch.where(big, q_big, q)
    return q, a - q * b


def unsigned_op(op: str, x: list[Any], a: dict[str, Any], fn: OpFn) -> list[Tensor] | None:
    """``op`` on uint64 operands (int64 bit patterns) where the signed result would differ; None otherwise."""
    if op in ("Less", "Greater", "LessOrEqual", "GreaterOrEqual"):
        return fn([_flip(v) if isinstance(v, Tensor) else v for v in x], a)
    if op in ("Max", "Min"):
        return [_flip(fn([_flip(v) for v in x], a)[0])]
    if op == "Div":
        return [_udivmod64(x[0], x[1])[0]]
    if op == "Mod":
        return [_udivmod64(x[0], x[1])[1]]
    return None


# ---- bit shifts ------------------------------------------------------------------------------------

_POW2 = np.array([1 << k if k < 63 else _MIN64 for k in range(64)], np.int64)


def _pow2(s: Tensor) -> Tensor:
    return torch.index_select(torch.from_numpy(_POW2), 0, s.reshape(-1)).reshape(s.shape)


def bitshift(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX BitShift on any integer type (onnx's reference: a shift outside [0, bits) gives 0, or -1 right of a
    negative), as multiplication / floor division by a power of two in int64, wrapped to the width."""
    t = x[0]
    bits = int(a.get("_bits", t.element_size() * 8))
    uns = bool(a.get("_unsigned", t.dtype == torch.uint8))
    w, s = torch.broadcast_tensors(t.to(torch.int64), x[1].to(torch.int64))
    valid = (s >= 0) & (s < bits)
    sc = torch.clamp(s, 0, bits - 1)
    if a.get("direction") == "LEFT":
        y = w * _pow2(sc)
        y = torch.where(valid, y, torch.zeros_like(y))
        if bits < 64:
            m = (1 << bits) - 1
            y = torch.bitwise_and(y, m)
            if not uns:  # sign-extend from the width
                y = torch.bitwise_and(y + (1 << (bits - 1)), m) - (1 << (bits - 1))
    else:
        half = _lshr1(w) if uns else torch.div(w, 2, rounding_mode="floor")
        y = torch.div(half, _pow2(torch.clamp(sc - 1, 0, 62)), rounding_mode="floor")
        y = torch.where(sc == 0, w, y)
        fill = torch.zeros_like(w) if uns else torch.where(w < 0, -torch.ones_like(w), torch.zeros_like(w))
        y = torch.where(valid, y, fill)
    return [y.to(t.dtype)]


# ---- reductions and scans --------------------------------------------------------------------------

def cumprod(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX CumProd (exclusive, reverse) as an unrolled running product along a static axis."""
    t = x[0]
    ax = int(np.asarray(x[1]).reshape(-1)[0]) % t.dim()
    n = int(t.shape[ax])
    order = list(range(n))[::-1] if a.get("reverse", 0) else list(range(n))
    out: list[Tensor | None] = [None] * n
    acc: Tensor | None = None
    for i in order:
        cur = t.narrow(ax, i, 1)
        if a.get("exclusive", 0):
            out[i] = torch.ones_like(cur) if acc is None else acc
            acc = cur if acc is None else acc * cur
        else:
            acc = cur if acc is None else acc * cur
            out[i] = acc
    return [torch.cat([o for o in out if o is not None], dim=ax).to(t.dtype)]


def mod(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Mod: integers from a truncating division (sign of the divisor, or of the dividend with fmod)."""
    p, q = x[0], x[1]
    if p.dtype.is_floating_point:
        return [torch.fmod(p, q) if a.get("fmod", 0) else torch.remainder(p, q)]
    r = p - torch.div(p, q, rounding_mode="trunc") * q
    if not a.get("fmod", 0):
        r = torch.where((r != 0) & ((r < 0) != (q < 0)), r + q, r)
    return [r.to(p.dtype)]


def topk(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX TopK with onnx's order: by value, equal values by lower index (a rank by pairwise comparison)."""
    t = x[0]
    k = int(np.asarray(x[1]).reshape(-1)[0])
    ax = int(a.get("axis", -1)) % t.dim()
    largest = bool(a.get("largest", 1))
    n = int(t.shape[ax])
    if n > 1024:  # pairwise ranks cost n*n; beyond this torch's order (ties unspecified)
        v, i = torch.topk(t, k, dim=ax, largest=largest, sorted=True)
        return [v, i]
    tm = t.movedim(ax, -1)
    vi, vj = tm.unsqueeze(-1), tm.unsqueeze(-2)
    idx = torch.arange(n)
    beats = (vj > vi) if largest else (vj < vi)
    ties = (vj == vi) & (idx.reshape(1, n) < idx.reshape(n, 1))
    rank = (beats | ties).to(torch.int32).sum(-1)  # [..., n]: place of element i
    onehot = (rank.unsqueeze(-2) == torch.arange(k, dtype=torch.int32).reshape(k, 1)).to(torch.int32)
    ind = torch.argmax(onehot, dim=-1)  # [..., k]
    vals = torch.gather(tm, -1, ind)
    return [vals.movedim(-1, ax), ind.movedim(-1, ax)]


def gelu(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Gelu; the tanh approximation written out (the runtime's fused form differs by ~5e-4)."""
    t = x[0]
    if a.get("approximate", "none") == "tanh":
        return [0.5 * t * (1.0 + torch.tanh(0.7978845608028654 * (t + 0.044715 * t * t * t)))]
    return [F.gelu(t)]


# ---- losses ----------------------------------------------------------------------------------------

def _nll(logp: Tensor, target: Tensor, weight: Tensor | None, a: dict[str, Any]) -> Tensor:
    red = str(a.get("reduction", "mean"))
    ii = a.get("ignore_index")
    tgt = target.long()
    keep = torch.ones_like(tgt, dtype=torch.bool) if ii is None else tgt != int(ii)
    safe = torch.where(keep, tgt, torch.zeros_like(tgt))
    picked = -torch.gather(logp, 1, safe.unsqueeze(1)).squeeze(1)
    w = (torch.index_select(weight, 0, safe.reshape(-1)).reshape(safe.shape) if weight is not None
         else torch.ones_like(picked))
    w = torch.where(keep, w, torch.zeros_like(w))
    loss = picked * w
    if red == "none":
        return loss
    if red == "sum":
        return loss.sum()
    return loss.sum() / w.sum()


def nll_loss(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX NegativeLogLikelihoodLoss of any rank (gather, weights, ignore_index, none/sum/mean)."""
    return [_nll(x[0], x[1], x[2] if len(x) > 2 and x[2] is not None else None, a)]


def softmax_ce_loss(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX SoftmaxCrossEntropyLoss (log_softmax over dim 1, then the NLL above; the log-prob output too)."""
    logp = torch.log_softmax(x[0], dim=1)
    return [_nll(logp, x[1], x[2] if len(x) > 2 and x[2] is not None else None, a), logp]


# ---- scatter, LRN ----------------------------------------------------------------------------------

_COMBINE: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "add": torch.add, "mul": torch.mul, "max": torch.maximum, "min": torch.minimum}


def scatter_nd(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX ScatterND; with a reduction, the static indices' updates are combined per target row (unrolled)."""
    t, upd = x[0], x[2]
    idx = np.asarray(x[1]).astype(np.int64)
    k = idx.shape[-1]
    flat = idx.reshape(-1, k)
    shape = [int(s) for s in t.shape]
    strides = np.array([int(np.prod(shape[i + 1:k])) for i in range(k)], np.int64)
    lin = (np.where(flat < 0, flat + np.array(shape[:k]), flat) * strides).sum(-1)
    tail = shape[k:]
    tv = t.reshape(int(np.prod(shape[:k])), *tail)
    uv = upd.reshape(len(flat), *tail)
    red = str(a.get("reduction", "none"))
    if red == "none":
        return [tv.index_copy(0, torch.from_numpy(lin), uv).reshape(shape)]
    rows = list(dict.fromkeys(int(v) for v in lin))
    accs = []
    for r in rows:
        acc = tv[r]
        for j in np.nonzero(lin == r)[0]:
            acc = _COMBINE[red](acc, uv[int(j)])
        accs.append(acc)
    out = tv.index_copy(0, torch.tensor(rows, dtype=torch.int64), torch.stack(accs))
    return [out.reshape(shape)]


def scatter_elements(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX ScatterElements; a reduction as a one-hot over the axis (the runtime has no ``scatter_reduce``)."""
    t, idx, upd = x[0], x[1].long(), x[2]
    ax = int(a.get("axis", 0)) % t.dim()
    n = int(t.shape[ax])
    idx = torch.where(idx < 0, idx + n, idx)
    red = str(a.get("reduction", "none"))
    if red == "none":
        return [torch.scatter(t, ax, idx, upd)]
    # hit[j, ...] = idx[...] == j, with the target index j as a new leading dim; the other dims of idx/upd
    # index t directly (ScatterElements' updates have idx's shape; t is at least as large)
    pos = torch.arange(n).reshape([n] + [1] * idx.dim())
    hit = idx.unsqueeze(0) == pos  # [n, *idx.shape]
    u = upd.unsqueeze(0)
    if red in ("add", "mul"):
        neutral = torch.zeros_like(u) if red == "add" else torch.ones_like(u)
        v = torch.where(hit, u, neutral)
        v = v.sum(dim=1 + ax) if red == "add" else torch.prod(v, dim=1 + ax)
    else:
        info = torch.finfo(t.dtype) if t.dtype.is_floating_point else torch.iinfo(t.dtype)
        fill = torch.full_like(u, info.min if red == "max" else info.max)
        v = torch.where(hit, u, fill)
        v = torch.amax(v, dim=1 + ax) if red == "max" else torch.amin(v, dim=1 + ax)
    any_hit = hit.any(dim=1 + ax)  # [n, *idx.shape without ax]
    v, any_hit = v.movedim(0, ax), any_hit.movedim(0, ax)  # idx's shape with the axis dim n
    region = t[tuple(slice(0, int(s)) if i != ax else slice(None) for i, s in enumerate(v.shape))]
    comb = _COMBINE[red](region, v)
    new = torch.where(any_hit, comb, region)
    pads = []
    for i in reversed(range(t.dim())):
        pads += [0, int(t.shape[i]) - int(new.shape[i])]
    if any(pads):
        keep = F.pad(torch.ones_like(new, dtype=torch.bool), pads, value=False)
        return [torch.where(keep, F.pad(new, pads), t)]
    return [new]


def lrn(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX LRN: the square sum over a channel window (onnx's floor/ceil halves), no 3-D pooling."""
    t = x[0]
    size = int(a["size"])
    c = int(t.shape[1])
    lo, hi = (size - 1) // 2, size - 1 - (size - 1) // 2
    sq = t * t
    z = torch.zeros_like(sq.narrow(1, 0, 1))
    padded = torch.cat([z] * lo + [sq] + [z] * hi, dim=1)
    s = padded.narrow(1, 0, c)
    for i in range(1, size):
        s = s + padded.narrow(1, i, c)
    alpha, beta, bias = float(a.get("alpha", 1e-4)), float(a.get("beta", 0.75)), float(a.get("bias", 1.0))
    return [t / torch.pow(bias + (alpha / size) * s, beta)]


def grid_sample(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX GridSample; 5-D (volumetric) linear/nearest with zeros/border padding by gathers (ExecuTorch has
    no ``grid_sampler_3d``), 4-D through torch's ``grid_sample``."""
    from bb_edge.convert.torch_ops import grid_sample as grid_sample_4d
    from bb_edge.errors import UnsupportedOpError

    t, grid = x[0], x[1]
    mode, pad = str(a.get("mode", "linear")), str(a.get("padding_mode", "zeros"))
    if t.dim() != 5:
        return grid_sample_4d(x, a)
    if mode not in ("linear", "bilinear", "nearest") or pad not in ("zeros", "border"):
        raise UnsupportedOpError(f"GridSample 5-D mode={mode} padding_mode={pad} is not supported by the torch "
                                 "converter")
    align = bool(a.get("align_corners", 0))
    n, c, d, h, w = (int(v) for v in t.shape)

    def unnorm(v: Tensor, size: int) -> Tensor:
        u = (v + 1) / 2 * (size - 1) if align else ((v + 1) * size - 1) / 2
        return torch.clamp(u, 0, size - 1) if pad == "border" else u

    ix, iy, iz = unnorm(grid[..., 0], w), unnorm(grid[..., 1], h), unnorm(grid[..., 2], d)
    flat = t.reshape(n, c, d * h * w)

    def at(zi: Tensor, yi: Tensor, xi: Tensor) -> Tensor:
        ok = (xi >= 0) & (xi <= w - 1) & (yi >= 0) & (yi <= h - 1) & (zi >= 0) & (zi <= d - 1)
        lin = ((torch.clamp(zi, 0, d - 1) * h + torch.clamp(yi, 0, h - 1)) * w + torch.clamp(xi, 0, w - 1)).long()
        g = torch.gather(flat, 2, lin.reshape(n, 1, -1).expand(n, c, -1)).reshape(n, c, *lin.shape[1:])
        return g * ok.unsqueeze(1).to(t.dtype)

    if mode == "nearest":
        return [at(torch.round(iz), torch.round(iy), torch.round(ix))]
    x0, y0, z0 = torch.floor(ix), torch.floor(iy), torch.floor(iz)
    fx, fy, fz = ix - x0, iy - y0, iz - z0
    out = None
    for dz, wz in ((0, 1 - fz), (1, fz)):
        for dy, wy in ((0, 1 - fy), (1, fy)):
            for dx, wx in ((0, 1 - fx), (1, fx)):
                term = at(z0 + dz, y0 + dy, x0 + dx) * (wz * wy * wx).unsqueeze(1)
                out = term if out is None else out + term
    assert out is not None
    return [out]


def batch_norm(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX BatchNormalization; with ``training_mode`` the batch's statistics and the running mean/var outputs."""
    t, scale, bias, mean, var = x[:5]
    eps = float(a.get("epsilon", 1e-5))
    if not a.get("training_mode", 0):
        return [F.batch_norm(t, mean, var, scale, bias, False, 0.0, eps)]
    dims = [d for d in range(t.dim()) if d != 1]
    bm = torch.mean(t, dim=dims)
    bv = torch.mean((t - bm.reshape(1, -1, *[1] * (t.dim() - 2))) ** 2, dim=dims)
    shape = [1, -1] + [1] * (t.dim() - 2)
    y = (t - bm.reshape(shape)) / torch.sqrt(bv.reshape(shape) + eps) * scale.reshape(shape) + bias.reshape(shape)
    mom = float(a.get("momentum", 0.9))
    return [y, mean * mom + bm * (1 - mom), var * mom + bv * (1 - mom)]


def concat(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Concat without its zero-size parts (ExecuTorch keeps no zero-size tensors; they add nothing)."""
    parts = [t for t in x if t is not None]
    full = [t for t in parts if t.numel() > 0]
    return [torch.cat(full or parts, dim=int(a["axis"]))]


EXACT: dict[str, OpFn] = {
    "BitShift": bitshift, "CumProd": cumprod, "Mod": mod, "TopK": topk, "Gelu": gelu,
    "NegativeLogLikelihoodLoss": nll_loss, "SoftmaxCrossEntropyLoss": softmax_ce_loss,
    "ScatterND": scatter_nd, "ScatterElements": scatter_elements, "LRN": lrn, "Concat": concat,
    "GridSample": grid_sample, "BatchNormalization": batch_norm,
}
