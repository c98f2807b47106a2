"""ONNX ops of the newer opsets for the ONNX->torch converter: Attention, RotaryEmbedding, LinearAttention,
CausalConvWithState, BitCast, windows and other ops the ONNX backend peer suite exercises (issue 26).

Merged into :data:`bb_edge.convert.torch_ops.EXTRA` (one op table, :data:`MORE`, and the inputs read as
constants at conversion time, :data:`MORE_STATIC`). Each op follows onnx's reference implementation
(``onnx/reference/ops``) step by step, with index tables and masks that depend only on static shapes
built in numpy, so ``torch.export`` sees plain ATen ops.

Why one file: one op table and its static-input list, kept apart from ``torch_ops`` so the two grow
without touching each other; each op is a few self-contained lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from bb_edge.errors import UnsupportedOpError

Tensor = torch.Tensor
OpFn = Callable[[list[Any], dict[str, Any]], list[Tensor]]

_NEG_INF = float("-inf")


def _opt(x: list[Any], i: int) -> Any:
    return x[i] if len(x) > i and x[i] is not None else None


# ---- Attention (opset 23/24) -----------------------------------------------------------------------

def _to_heads(t: Tensor, heads: int) -> Tensor:
    b, s, h = (int(v) for v in t.shape)
    return t.reshape(b, s, heads, h // heads).permute(0, 2, 1, 3)


def _allowed_bias(allowed: Tensor, dtype: torch.dtype) -> Tensor:
    zero = torch.zeros((), dtype=dtype)
    ninf = torch.full((), _NEG_INF, dtype=dtype)
    return torch.where(allowed, zero, ninf)


def _window_allowed(q: int, kv: int, offset: Any, left: int, right: int, causal: bool) -> Tensor:
    """Allowed (query, key) cells: ``offset`` a Python int, or a (batch,) tensor (result (batch, 1, q, kv))."""
    i_idx = torch.arange(q).reshape(q, 1)
    j_idx = torch.arange(kv).reshape(1, kv)
    if isinstance(offset, Tensor):
        diff = (i_idx + offset.long().reshape(-1, 1, 1)) - j_idx  # (batch, q, kv)
    else:
        diff = (i_idx + int(offset)) - j_idx
    allowed = torch.ones_like(diff, dtype=torch.bool)
    if causal:
        allowed = allowed & (diff >= 0)
    if left >= 0:
        allowed = allowed & (diff <= left)
    if right >= 0:
        allowed = allowed & (-diff <= right)
    return allowed.unsqueeze(1) if isinstance(offset, Tensor) else allowed


def attention(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Attention (23/24): 3-D/4-D, GQA, bool/float masks, causal, windows, softcap, KV cache, QK output."""
    Q, K, V = x[0], x[1], x[2]
    mask, past_k, past_v, nonpad = _opt(x, 3), _opt(x, 4), _opt(x, 5), _opt(x, 6)
    rank3 = Q.dim() == 3
    if rank3:
        qh, kvh = int(a["q_num_heads"]), int(a["kv_num_heads"])
        Q, K, V = _to_heads(Q, qh), _to_heads(K, kvh), _to_heads(V, kvh)
    dt = Q.dtype
    scale = a.get("scale")
    scale = 1 / math.sqrt(int(Q.shape[3])) if scale is None else float(scale)
    s = torch.tensor(np.sqrt(np.float32(scale)), dtype=dt) if dt != torch.float32 else torch.tensor(
        float(np.float32(np.sqrt(scale))))
    if past_k is not None:
        K = torch.cat([past_k, K], 2)
    if past_v is not None:
        V = torch.cat([past_v, V], 2)
    present_k, present_v = K, V
    q_len, kv_len = int(Q.shape[2]), int(K.shape[2])
    left, right = int(a.get("left_window_size", -1)), int(a.get("right_window_size", -1))
    causal = bool(a.get("is_causal", 0))
    if mask is not None and int(mask.shape[-1]) < kv_len:
        pad = kv_len - int(mask.shape[-1])
        if mask.dtype == torch.bool:
            mask = torch.cat([mask, torch.zeros(*mask.shape[:-1], pad, dtype=torch.bool)], -1)
        else:
            mask = torch.cat([mask, torch.full((*mask.shape[:-1], pad), _NEG_INF, dtype=mask.dtype)], -1)
    if mask is not None and mask.dtype == torch.bool:
        mask = _allowed_bias(mask, dt)
    bias = torch.zeros(q_len, kv_len, dtype=dt)
    if mask is not None:
        bias = bias + mask
    if causal or left >= 0 or right >= 0:
        if past_k is None and nonpad is not None:
            offset: Any = nonpad.reshape(-1) - q_len
        else:
            offset = int(past_k.shape[2]) if past_k is not None else 0
        bias = bias + _allowed_bias(_window_allowed(q_len, kv_len, offset, left, right, causal), dt)
    if nonpad is not None:
        keep = torch.arange(kv_len).reshape(1, kv_len) < nonpad.long().reshape(-1, 1)
        bias = bias + _allowed_bias(keep, dt).reshape(int(keep.shape[0]), 1, 1, kv_len)
    hq, hk = int(Q.shape[1]), int(K.shape[1])
    if hq != hk and hq % hk == 0:
        K = torch.repeat_interleave(K, hq // hk, dim=1)
        V = torch.repeat_interleave(V, hq // hk, dim=1)
    # 16-bit inputs: float32 arithmetic rounded to the input type after every op, reductions accumulated in
    # float32 (what the reference and ORT do; the runtime's own 16-bit kernels round differently)
    rd = _rounder(dt)
    work = torch.float32 if dt in (torch.float16, torch.bfloat16) else dt
    Q, K, V, s, bias = Q.to(work), K.to(work), V.to(work), s.to(work), bias.to(work)
    qk = rd(torch.matmul(rd(Q * s), rd(K * s).transpose(2, 3)))
    cap = float(a.get("softcap", 0.0) or 0.0)
    if cap > 0:
        qk = rd(rd(torch.tanh(rd(qk / cap))) * cap)
    qk_bias = rd(qk + bias)
    mode = int(a.get("qk_matmul_output_mode", 0))
    qk_out = qk_bias if mode == 2 else qk
    sp = a.get("softmax_precision")
    soft_rd = rd
    if sp is not None and int(sp):
        from bb_edge.convert.onnx_torch import _TORCH_DTYPES

        sdt = _TORCH_DTYPES.get(int(sp), torch.float32)
        soft_rd = _rounder(sdt)
    probs = _safe_softmax(qk_bias, soft_rd)
    masked_row = torch.amax(bias, dim=-1, keepdim=True) == _NEG_INF
    probs = torch.where(masked_row, torch.zeros((), dtype=probs.dtype), probs)
    if mode == 3:
        qk_out = probs
    y = torch.matmul(rd(probs), V).to(dt)
    if rank3:
        y = y.permute(0, 2, 1, 3)
        y = y.reshape(int(y.shape[0]), int(y.shape[1]), -1)
    return [y, present_k, present_v, qk_out.to(dt)]


def _rounder(dt: torch.dtype) -> Callable[[Tensor], Tensor]:
    """Rounding to ``dt`` and back to float32 for 16-bit float types; the identity otherwise."""
    if dt in (torch.float16, torch.bfloat16):
        return lambda t: t.to(dt).to(torch.float32)
    return lambda t: t


def _safe_softmax(t: Tensor, rd: Callable[[Tensor], Tensor]) -> Tensor:
    """Softmax over the last dim where an all -inf row gives zeros (onnx's reference); ``rd`` rounds each step."""
    m = torch.amax(t, dim=-1, keepdim=True)
    m = torch.where(m == _NEG_INF, torch.zeros((), dtype=t.dtype), m)
    e = rd(torch.exp(rd(t - m)))
    tot = rd(torch.sum(e, dim=-1, keepdim=True))
    tot = torch.where(tot == 0, torch.ones((), dtype=t.dtype), tot)
    return rd(e / tot)


# ---- RotaryEmbedding, LinearAttention, CausalConvWithState -----------------------------------------

def rotary_embedding(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX RotaryEmbedding (3-D with num_heads or 4-D, interleaved, partial rotary_embedding_dim)."""
    t, cos, sin, pos = x[0], x[1], x[2], _opt(x, 3)
    shape = [int(v) for v in t.shape]
    if t.dim() == 4:
        t = t.permute(0, 2, 1, 3)
    else:
        heads = int(a["num_heads"])
        t = t.reshape(shape[0], shape[1], heads, shape[2] // heads)
    head = int(t.shape[3])
    rd = int(a.get("rotary_embedding_dim", 0)) or head
    rot, keep = t[..., :rd], t[..., rd:]
    if pos is not None:
        p = pos.long()
        cos = torch.index_select(cos, 0, p.reshape(-1)).reshape(*p.shape, int(cos.shape[-1]))
        sin = torch.index_select(sin, 0, p.reshape(-1)).reshape(*p.shape, int(sin.shape[-1]))
    cos, sin = cos.unsqueeze(2), sin.unsqueeze(2)
    inter = bool(a.get("interleaved", 0))
    if inter:
        x1, x2 = rot[..., 0::2], rot[..., 1::2]
    else:
        x1, x2 = rot[..., :rd // 2], rot[..., rd // 2:]
    real = cos * x1 - sin * x2
    imag = sin * x1 + cos * x2
    if inter:
        rot = torch.stack([real, imag], -1).reshape(rot.shape)
    else:
        rot = torch.cat([real, imag], -1)
    out = torch.cat([rot, keep], -1)
    return [out.reshape(shape) if len(shape) == 3 else out.permute(0, 2, 1, 3)]


def linear_attention(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX LinearAttention (linear, gated, delta, gated_delta update rules; GQA; time loop unrolled)."""
    q, k, v, past, decay, beta = x[0], x[1], x[2], _opt(x, 3), _opt(x, 4), _opt(x, 5)
    rule = str(a.get("update_rule", "gated_delta"))
    hq, hk = int(a["q_num_heads"]), int(a["kv_num_heads"])
    gating, delta = rule in ("gated", "gated_delta"), rule in ("delta", "gated_delta")
    out_dt = q.dtype
    b, steps = int(q.shape[0]), int(q.shape[1])
    dk, dv = int(q.shape[2]) // hq, int(v.shape[2]) // hk
    q4, k4, v4 = (_to_heads(t, h).float() for t, h in ((q, hq), (k, hk), (v, hk)))
    if decay is not None:
        if int(decay.shape[-1]) == hk:
            decay = decay.reshape(b, steps, hk, 1).permute(0, 2, 1, 3)
        else:
            decay = _to_heads(decay, hk)
        decay = decay.float()
    if beta is not None:
        bl = int(beta.shape[-1])
        beta = beta.reshape(b, steps, bl, 1).permute(0, 2, 1, 3).float()
    state_dt = past.dtype if past is not None else out_dt
    state = past.float() if past is not None else torch.zeros(b, hk, dk, dv)
    sc = a.get("scale")
    scale = 1.0 / math.sqrt(dk) if sc is None or float(sc) == 0.0 else float(sc)
    group = hq // hk
    outs = []
    for i in range(steps):
        qt, kt, vt = q4[:, :, i, :], k4[:, :, i, :], v4[:, :, i, :]
        if gating:
            state = state * torch.exp(decay[:, :, i, :]).unsqueeze(-1)
        if delta:
            retrieved = torch.sum(state * kt.unsqueeze(-1), dim=2)
            vt = beta[:, :, i, :] * (vt - retrieved)
        state = state + kt.unsqueeze(-1) * vt.unsqueeze(-2)
        read = torch.repeat_interleave(state, group, dim=1) if group > 1 else state
        outs.append(scale * torch.sum(qt.unsqueeze(-1) * read, dim=2))
    y = torch.stack(outs, 2).permute(0, 2, 1, 3).reshape(b, steps, hq * dv)
    return [y.to(out_dt), state.to(state_dt)]


def causal_conv_with_state(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX CausalConvWithState (depthwise causal conv1d with a carried state; none/silu/swish)."""
    t, w, bias, past = x[0], x[1], _opt(x, 2), _opt(x, 3)
    act = str(a.get("activation", "none"))
    n, c = int(t.shape[0]), int(t.shape[1])
    k = int(w.shape[2])
    pad = past if past is not None else torch.zeros(n, c, k - 1, dtype=t.dtype)
    padded = torch.cat([pad, t], 2)
    y = F.conv1d(padded.float(), w.float(), bias.float() if bias is not None else None, groups=c)
    if act in ("silu", "swish"):
        y = y * torch.sigmoid(y)
    elif act != "none":
        raise UnsupportedOpError(f"CausalConvWithState activation={act} is not supported")
    return [y.to(t.dtype), padded[:, :, int(padded.shape[2]) - (k - 1):]]


# ---- BitCast ---------------------------------------------------------------------------------------

def _float_bits(t: Tensor, mbits: int, bias: int, width: int) -> Tensor:
    """The IEEE bit pattern of finite ``t`` as a signed integer of ``width`` bits (arithmetic, no view)."""
    ax = torch.abs(t)
    nz = ax > 0
    safe = torch.where(nz, ax, torch.ones((), dtype=t.dtype))
    e = torch.floor(torch.log2(safe))
    e = torch.where(safe / torch.pow(2.0, e).to(t.dtype) >= 2, e + 1, e)
    e = torch.where(safe / torch.pow(2.0, e).to(t.dtype) < 1, e - 1, e)
    e = torch.clamp(e, min=1 - bias)
    frac = safe / torch.pow(2.0, e).to(t.dtype)  # [1, 2), or below 1 for subnormals
    normal = frac >= 1
    mant = torch.round(torch.where(normal, frac - 1, frac) * float(2 ** mbits)).long()
    expo = torch.where(normal, e.long() + bias, torch.zeros((), dtype=torch.long))
    bits = torch.where(nz, expo * (2 ** mbits) + mant, torch.zeros((), dtype=torch.long))
    neg = torch.where(nz, t, 1 / t) < 0  # -0.0 too (1 / -0.0 = -inf)
    return torch.where(neg, bits + (-(2 ** (width - 1))), bits)  # the sign bit; -2**63 fits an int64


def _bits_float(b: Tensor, mbits: int, bias: int, width: int, dt: torch.dtype) -> Tensor:
    """The float whose IEEE bit pattern is the signed integer ``b`` (arithmetic, no view)."""
    b = b.long()
    neg = b < 0
    u = torch.where(neg, b + (2 ** (width - 1) - 1) + 1, b)  # the bits below the sign
    e = torch.div(u, 2 ** mbits, rounding_mode="floor")
    m = torch.remainder(u, 2 ** mbits).to(dt)
    p2 = torch.pow(2.0, torch.clamp(e, min=1).to(dt) - (bias + mbits))
    mag = torch.where(e > 0, (m + float(2 ** mbits)) * p2, m * p2)
    special = e == 2 ** (width - 1 - mbits) - 1
    mag = torch.where(special, torch.where(m == 0, torch.full((), float("inf"), dtype=dt),
                                           torch.full((), float("nan"), dtype=dt)), mag)
    return torch.where(neg, -mag, mag)


_IEEE = {torch.float32: (23, 127, 32, torch.int32), torch.float64: (52, 1023, 64, torch.int64)}


def bitcast(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX BitCast: between same-width integers a wrapping cast, float<->int by IEEE arithmetic (the
    ExecuTorch runtime has no dtype view)."""
    from bb_edge.convert.onnx_torch import _TORCH_DTYPES

    to = int(a["to"])
    t = x[0]
    dt = _TORCH_DTYPES.get(to)
    if dt is None or t.dtype.itemsize != dt.itemsize:
        raise UnsupportedOpError(f"BitCast of {t.dtype} to ONNX type {to} is not supported by the torch converter")
    if t.dtype in _IEEE and dt == _IEEE[t.dtype][3]:
        mb, bias, width, _ = _IEEE[t.dtype]
        return [_float_bits(t, mb, bias, width).to(dt)]
    if dt in _IEEE and t.dtype == _IEEE[dt][3]:
        mb, bias, width, _ = _IEEE[dt]
        return [_bits_float(t, mb, bias, width, dt)]
    if not t.dtype.is_floating_point and not dt.is_floating_point and dt != torch.bool:
        return [t.to(dt)]
    raise UnsupportedOpError(f"BitCast of {t.dtype} to {dt} is not supported by the torch converter")


# ---- Pad with a run-time constant value, windows, Det --------------------------------------------------

def pad_any_value(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Pad whose constant_value may be a run-time tensor (a CastLike of -inf in expanded functions)."""
    from bb_edge.convert.onnx_torch import _pad

    v = _opt(x, 2)
    if not isinstance(v, Tensor) or str(a.get("mode", "constant")) != "constant":
        return _pad([x[0], x[1], None if isinstance(v, Tensor) else v, *x[3:]], a)
    rest = [x[1], None, *x[3:]]
    y = _pad([x[0], *rest], a)[0]
    inside = _pad([torch.ones(x[0].shape, dtype=torch.float32), *rest], a)[0] > 0.5
    return [torch.where(inside, y, v.reshape(()).to(y.dtype))]


def _window(kind: str) -> OpFn:
    def run(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
        from bb_edge.convert.onnx_torch import _TORCH_DTYPES

        size = int(np.asarray(x[0]).reshape(-1)[0])
        n1 = size if int(a.get("periodic", 1)) else size - 1
        ni = np.arange(size, dtype=np.float64)
        if kind == "hann":
            w = np.sin(ni * np.pi / n1) ** 2
        elif kind == "hamming":
            a0 = 25 / 46
            w = a0 - (1 - a0) * np.cos(2 * np.pi * ni / n1)
        else:
            w = 0.42 - 0.5 * np.cos(2 * np.pi * ni / n1) + 0.08 * np.cos(4 * np.pi * ni / n1)
        dt = _TORCH_DTYPES.get(int(a.get("output_datatype", 1)), torch.float32)
        return [torch.from_numpy(w.astype(np.float32)).to(dt)]
    return run


def det(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Det by cofactor expansion (static size; up to 4x4)."""
    t = x[0]
    n = int(t.shape[-1])
    if n > 4:
        raise UnsupportedOpError("Det of matrices larger than 4x4 is not supported by the torch converter")

    def rec(m: Tensor, rows: list[int], cols: list[int]) -> Tensor:
        if len(rows) == 1:
            return m[..., rows[0], cols[0]]
        out = None
        for k, c in enumerate(cols):
            term = m[..., rows[0], c] * rec(m, rows[1:], cols[:k] + cols[k + 1:])
            out = term if out is None else (out - term if k % 2 else out + term)
        assert out is not None
        return out
    return [rec(t, list(range(n)), list(range(n)))]


# ---- scatter / gather with run-time indices ----------------------------------------------------------

def tensor_scatter(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX TensorScatter (KV-cache write at per-batch offsets; linear or circular)."""
    cache, upd, wi = x[0], x[1], _opt(x, 2)
    ax = int(a.get("axis", -2)) % cache.dim()
    size, u = int(cache.shape[ax]), int(upd.shape[ax])
    b = int(cache.shape[0])
    wi = wi.long().reshape(-1) if wi is not None else torch.zeros(b, dtype=torch.long)
    shape = [1] * cache.dim()
    shape[0] = b
    pos = wi.reshape(shape) + torch.arange(u).reshape([u if i == ax else 1 for i in range(cache.dim())])
    if str(a.get("mode", "linear")) == "circular":
        pos = torch.remainder(pos, size)
    return [torch.scatter(cache, ax, pos.expand(upd.shape), upd)]


def gather_nd(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX GatherND (batch_dims too) as one index_select on the flattened data."""
    data, idx = x[0], x[1].long()
    bd = int(a.get("batch_dims", 0))
    dshape = [int(v) for v in data.shape]
    ishape = [int(v) for v in idx.shape]
    k = ishape[-1]
    nb = int(np.prod(dshape[:bd])) if bd else 1
    tail = dshape[bd + k:]
    idx = idx.reshape(nb, -1, k)
    dims = torch.tensor(dshape[bd:bd + k], dtype=torch.long)
    idx = torch.where(idx < 0, idx + dims, idx)
    strides = torch.tensor([int(np.prod(dshape[bd + i + 1:bd + k])) for i in range(k)], dtype=torch.long)
    lin = torch.sum(idx * strides, dim=-1) + (torch.arange(nb) * int(np.prod(dshape[bd:bd + k]))).reshape(nb, 1)
    flat = data.reshape(nb * int(np.prod(dshape[bd:bd + k])), *tail)
    out = torch.index_select(flat, 0, lin.reshape(-1))
    return [out.reshape(*ishape[:-1], *tail)]


def reverse_sequence(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX ReverseSequence (run-time lengths): a gather along the time axis."""
    t, lens = x[0], x[1].long().reshape(-1)
    ba, ta = int(a.get("batch_axis", 1)), int(a.get("time_axis", 0))
    steps = int(t.shape[ta])
    shape = [1] * t.dim()
    shape[ba] = int(lens.shape[0])
    ln = lens.reshape(shape)
    tshape = [1] * t.dim()
    tshape[ta] = steps
    ti = torch.arange(steps).reshape(tshape)
    src = torch.where(ti < ln, ln - 1 - ti, ti)
    return [torch.gather(t, ta, src.expand(t.shape))]


def max_unpool(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX MaxUnpool: scatter the values at their (flattened) indices into zeros of the output shape."""
    t, idx = x[0], x[1].long()
    k = [int(v) for v in a["kernel_shape"]]
    r = len(k)
    st = [int(v) for v in a.get("strides", [1] * r)]
    pads = [int(v) for v in a.get("pads", [0] * 2 * r)]
    out = _opt(x, 2)
    if out is not None:
        shape = [int(v) for v in np.asarray(out).reshape(-1)]
    else:
        shape = [int(t.shape[0]), int(t.shape[1])] + [
            (int(t.shape[2 + i]) - 1) * st[i] + k[i] - pads[i] - pads[r + i] for i in range(r)]
    flat = torch.zeros(int(np.prod(shape)), dtype=t.dtype)
    return [flat.scatter(0, idx.reshape(-1), t.reshape(-1)).reshape(shape)]


# ---- integer and quantised matmul/conv ---------------------------------------------------------------

def _zp(x: list[Any], i: int, like: Tensor) -> Any:
    z = _opt(x, i)
    if z is None:
        return 0.0
    z = z.float()
    return z.reshape(-1, 1) if z.dim() == 1 and z.numel() > 1 and like.dim() >= 2 else z


def matmul_integer(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX MatMulInteger (zero points; exact in float32 for 8-bit operands of the usual sizes)."""
    A = x[0].float() - (_opt(x, 2).float() if _opt(x, 2) is not None else 0.0)
    bz = _opt(x, 3)
    B = x[1].float() - (bz.float() if bz is not None else 0.0)
    return [torch.round(torch.matmul(A, B)).to(torch.int32)]


def conv_integer(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX ConvInteger: Conv over zero-point-shifted operands, int32 out."""
    from bb_edge.convert.onnx_torch import _conv

    xz, wz = _opt(x, 2), _opt(x, 3)
    X = x[0].float() - (xz.float() if xz is not None else 0.0)
    wzf = wz.float().reshape(-1, *([1] * (x[1].dim() - 1))) if wz is not None and wz.numel() > 1 else (
        wz.float() if wz is not None else 0.0)
    W = x[1].float() - wzf
    return [torch.round(_conv([X, W], a)[0]).to(torch.int32)]


def qlinear_matmul(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX QLinearMatMul: integer matmul, requantised with a_scale*b_scale/y_scale (round half to even)."""
    A = x[0].float() - x[2].float()
    B = x[3].float() - x[5].float()
    acc = torch.matmul(A, B)
    scale = (x[1].float() * x[4].float()) / x[6].float()
    q = torch.round(acc * scale) + x[7].float()
    lo, hi = (0, 255) if x[7].dtype == torch.uint8 else (-128, 127)
    return [torch.clamp(q, lo, hi).to(x[7].dtype)]


def dynamic_quantize_linear(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX DynamicQuantizeLinear (uint8; scale from the range including 0; onnx's rounding)."""
    t = x[0].float()
    mx = torch.clamp(torch.amax(t), min=0.0)
    mn = torch.clamp(torch.amin(t), max=0.0)
    rng = torch.where(mx == mn, torch.ones(()), mx - mn)
    scale = rng / 255.0
    zp = torch.round(torch.clamp(0.0 - mn / scale, 0, 255))
    y = torch.clamp(torch.round(t / scale) + zp, 0, 255)
    return [y.to(torch.uint8), scale.to(x[0].dtype), zp.to(torch.uint8)]


# ---- static-shape rearrangements: CenterCropPad, AffineGrid, Col2Im ---------------------------------

def center_crop_pad(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX CenterCropPad (static target shape)."""
    t = x[0]
    r = t.dim()
    shape = [int(v) for v in np.asarray(x[1]).reshape(-1)]
    axes = [int(v) % r for v in a.get("axes", list(range(r)))]
    for ax, sh in zip(axes, shape):
        dim = int(t.shape[ax])
        if sh < dim:
            d = (dim - sh) // 2
            t = t.narrow(ax, d, sh)
        elif sh > dim:
            d = (sh - dim) // 2
            fp = [0, 0] * (r - 1 - ax) + [d, sh - dim - d]
            t = F.pad(t, fp)
    return [t]


def affine_grid(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX AffineGrid: the base grid built in numpy (onnx's reference), one matmul with theta."""
    from onnx.reference.ops.op_affine_grid import construct_original_grid

    theta = x[0]
    _, _, *size = (int(v) for v in np.asarray(x[1]).reshape(-1))
    grid = construct_original_grid(size, int(a.get("align_corners", 0)))
    homo = torch.from_numpy(np.ascontiguousarray(grid.reshape(-1, grid.shape[-1]).T, np.float32)).to(theta.dtype)
    out = torch.matmul(theta, homo).permute(0, 2, 1)
    return [out.reshape(int(theta.shape[0]), *size, len(size))]


def col2im(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Col2Im: a static 0/1 scatter matrix (onnx's index arithmetic) applied by one matmul."""
    t = x[0]
    img = [int(v) for v in np.asarray(x[1]).reshape(-1)]
    blk = [int(v) for v in np.asarray(x[2]).reshape(-1)]
    r = len(img)
    dil = [int(v) for v in a.get("dilations", [1] * r)]
    pads = [int(v) for v in a.get("pads", [0] * 2 * r)]
    st = [int(v) for v in a.get("strides", [1] * r)]
    cols = [(img[i] + pads[i] + pads[r + i] - (dil[i] * (blk[i] - 1) + 1)) // st[i] + 1 for i in range(r)]
    kn, ln = int(np.prod(blk)), int(np.prod(cols))
    m = np.zeros((kn * ln, int(np.prod(img))), np.float32)
    for c in range(kn):
        off = np.unravel_index(c, blk)
        for j in range(ln):
            ic = np.unravel_index(j, cols)
            pos = [ic[i] * st[i] - pads[i] + off[i] * dil[i] for i in range(r)]
            if all(0 <= p < s for p, s in zip(pos, img)):
                m[c * ln + j, np.ravel_multi_index(pos, img)] += 1
    n, ch = int(t.shape[0]), int(t.shape[1]) // kn
    y = torch.matmul(t.reshape(n, ch, kn * ln), torch.from_numpy(m).to(t.dtype))
    return [y.reshape(n, ch, *img)]


# ---- TfIdfVectorizer (integer pool) ------------------------------------------------------------------

def _tfidf_grams(a: dict[str, Any]) -> list[tuple[list[int], int]]:
    """(tokens, output index) of every pool n-gram within [min_gram_length, max_gram_length]."""
    pool = [int(v) for v in a.get("pool_int64s", [])]
    counts = [int(v) for v in a["ngram_counts"]]
    idx = [int(v) for v in a["ngram_indexes"]]
    lo, hi = int(a["min_gram_length"]), int(a["max_gram_length"])
    out: list[tuple[list[int], int]] = []
    gid = 0
    for i, start in enumerate(counts):
        n = i + 1
        end = counts[i + 1] if i + 1 < len(counts) else len(pool)
        for g in range((end - start) // n):
            if lo <= n <= hi:
                out.append((pool[start + g * n:start + (g + 1) * n], idx[gid]))
            gid += 1
    return out


def tfidf_vectorizer(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX TfIdfVectorizer over an integer pool: every (n-gram, skip) match counted with static windows."""
    if a.get("pool_strings"):
        raise UnsupportedOpError("TfIdfVectorizer over strings is not supported by the torch converter")
    t = x[0].long()
    length = int(t.shape[-1])
    lo, hi = int(a["min_gram_length"]), int(a["max_gram_length"])
    grams = _tfidf_grams(a)
    size = max(int(v) for v in a["ngram_indexes"]) + 1
    cols: list[Tensor] = []
    where: list[int] = []
    for d in range(1, int(a.get("max_skip_count", 0)) + 2):
        first = lo if d == 1 else max(lo, 2)
        for toks, oi in grams:
            n = len(toks)
            if n < first or n > hi or (n == 1 and d > 1):
                continue
            starts = length - d * (n - 1)
            if starts <= 0:
                continue
            pos = np.arange(starts)[:, None] + d * np.arange(n)[None, :]
            win = torch.index_select(t, t.dim() - 1, torch.from_numpy(pos.reshape(-1))).reshape(
                *t.shape[:-1], starts, n)
            hit = torch.amin((win == torch.tensor(toks, dtype=torch.long)).to(torch.float32), dim=-1)
            cols.append(torch.sum(hit, dim=-1))
            where.append(oi)
    if not cols:
        return [torch.zeros(*t.shape[:-1], size)]
    m = np.zeros((len(cols), size), np.float32)
    for k, oi in enumerate(where):
        m[k, oi] = 1.0
    freq = torch.matmul(torch.stack(cols, -1), torch.from_numpy(m))
    mode = str(a.get("mode", "TF"))
    w = a.get("weights")
    wt = torch.tensor([float(v) for v in w], dtype=torch.float32) if w is not None and len(w) else None
    if mode == "IDF":
        return [torch.where(freq > 0, wt if wt is not None else torch.ones(()), torch.zeros(()))]
    if mode == "TFIDF" and wt is not None:
        return [freq * wt]
    return [freq]


# ---- DeformConv (2-D) ---------------------------------------------------------------------------------

def deform_conv(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX DeformConv in 2-D: bilinear samples at offset positions (zeros outside), masked, then one
    grouped matmul with the weights (onnx's reference: GridSample with align_corners=1 per tap)."""
    X, W, off, B, mask = x[0], x[1], x[2], _opt(x, 3), _opt(x, 4)
    if X.dim() != 4:
        raise UnsupportedOpError("DeformConv beyond 2-D is not supported by the torch converter")
    n, ic, ih, iw = (int(v) for v in X.shape)
    oc = int(W.shape[0])
    kh, kw = (int(v) for v in a.get("kernel_shape", W.shape[2:]))
    dh, dw = (int(v) for v in a.get("dilations", [1, 1]))
    sh, sw = (int(v) for v in a.get("strides", [1, 1]))
    pads = [int(v) for v in a.get("pads", [0, 0, 0, 0])]
    group, og = int(a.get("group", 1)), int(a.get("offset_group", 1))
    oh, ow = int(off.shape[2]), int(off.shape[3])
    k, L = kh * kw, oh * ow
    off = off.reshape(n, og * k, 2, L)  # at most 4-D: XNNPACK takes up to 6 dims
    by = (np.arange(kh) * dh)[:, None, None, None] + (np.arange(oh) * sh - pads[0])[None, None, :, None]
    bx = (np.arange(kw) * dw)[None, :, None, None] + (np.arange(ow) * sw - pads[1])[None, None, None, :]
    base_y = np.tile(np.broadcast_to(by, (kh, kw, oh, ow)).reshape(k, L), (og, 1)).astype(np.float32)
    base_x = np.tile(np.broadcast_to(bx, (kh, kw, oh, ow)).reshape(k, L), (og, 1)).astype(np.float32)
    py = off[:, :, 0] + torch.from_numpy(base_y).to(X.dtype)
    px = off[:, :, 1] + torch.from_numpy(base_x).to(X.dtype)
    py, px = py.reshape(n, og, 1, k * L), px.reshape(n, og, 1, k * L)
    y0, x0 = torch.floor(py), torch.floor(px)
    fy, fx = py - y0, px - x0
    cpo = ic // og
    flat = X.reshape(n, og, cpo, ih * iw)
    cols = torch.zeros(n, og, cpo, k * L, dtype=X.dtype)
    for yy, wy in ((y0, 1 - fy), (y0 + 1, fy)):
        for xx, wx in ((x0, 1 - fx), (x0 + 1, fx)):
            ok = (yy >= 0) & (yy <= ih - 1) & (xx >= 0) & (xx <= iw - 1)
            idx = (torch.clamp(yy, 0, ih - 1) * iw + torch.clamp(xx, 0, iw - 1)).long()
            val = torch.gather(flat, 3, idx.expand(n, og, cpo, k * L))
            cols = cols + val * torch.where(ok, wy * wx, torch.zeros((), dtype=X.dtype))
    if mask is not None:
        cols = cols * mask.reshape(n, og, 1, k * L)
    cols = cols.reshape(n, group, (ic // group) * k, L)
    y = torch.matmul(W.reshape(group, oc // group, (ic // group) * k), cols).reshape(n, oc, oh, ow)
    return [y + B.reshape(1, -1, 1, 1) if B is not None else y]


# ---- GroupNormalization, MaxPool indices, QLinearConv, MelWeightMatrix -------------------------------

def group_norm(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX GroupNormalization (scale/bias per channel as in opset 21, or per group as in opset 18)."""
    t = x[0]
    g = int(a["num_groups"])
    n, c = int(t.shape[0]), int(t.shape[1])
    tf = t.float().reshape(n, g, -1)
    mean = torch.mean(tf, dim=-1, keepdim=True)
    var = torch.mean((tf - mean) ** 2, dim=-1, keepdim=True)
    y = ((tf - mean) / torch.sqrt(var + float(a.get("epsilon", 1e-5)))).reshape(t.shape)
    sc, b = x[1].float(), x[2].float()
    if int(sc.numel()) != c:
        sc, b = torch.repeat_interleave(sc, c // g), torch.repeat_interleave(b, c // g)
    shape = [1, c] + [1] * (t.dim() - 2)
    return [(y * sc.reshape(shape) + b.reshape(shape)).to(t.dtype)]


def max_pool_with_indices(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX MaxPool with its Indices output (2-D, symmetric pads): torch's plane indices made global
    (batch and channel offsets; storage_order=1 gives column-major indices)."""
    t = x[0]
    k = [int(v) for v in a["kernel_shape"]]
    if t.dim() != 4 or a.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID") or a.get("ceil_mode", 0):
        raise UnsupportedOpError("MaxPool with Indices is supported for 2-D explicit pads without ceil_mode")
    pads = [int(v) for v in a.get("pads", [0] * 4)] if a.get("auto_pad", "NOTSET") == "NOTSET" else [0] * 4
    if pads[:2] != pads[2:] or any(2 * p > kk for p, kk in zip(pads[:2], k)):
        raise UnsupportedOpError("MaxPool with Indices and asymmetric or large pads is not supported")
    st = [int(v) for v in a.get("strides", [1, 1])]
    dil = [int(v) for v in a.get("dilations", [1, 1])]
    y, idx = F.max_pool2d(t, k, st, pads[:2], dil, False, True)
    n, c, h, w = (int(v) for v in t.shape)
    if int(a.get("storage_order", 0)):
        idx = torch.remainder(idx, w) * h + torch.div(idx, w, rounding_mode="floor")
    base = (torch.arange(n * c, dtype=torch.long) * (h * w)).reshape(n, c, 1, 1)
    return [y, idx + base]


def qlinear_conv(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX QLinearConv: Conv over zero-point-shifted operands (+ int32 bias), requantised (half to even)."""
    from bb_edge.convert.onnx_torch import _conv

    X = x[0].float() - x[2].float()
    ws = x[4].float()
    wz = x[5].float()
    cshape = [-1] + [1] * (x[3].dim() - 1)
    W = x[3].float() - (wz.reshape(cshape) if wz.numel() > 1 else wz)
    acc = _conv([X, W, _opt(x, 8).float() if _opt(x, 8) is not None else None], a)[0]
    oshape = [1, -1] + [1] * (acc.dim() - 2)
    scale = x[1].float() * (ws.reshape(oshape) if ws.numel() > 1 else ws) / x[6].float()
    q = torch.round(acc * scale) + x[7].float()
    lo, hi = (0, 255) if x[7].dtype == torch.uint8 else (-128, 127)
    return [torch.clamp(q, lo, hi).to(x[7].dtype)]


def mel_weight_matrix(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX MelWeightMatrix (every input static: a constant, from onnx's reference)."""
    from onnx.reference.ops.op_mel_weight_matrix import MelWeightMatrix

    from bb_edge.convert.onnx_torch import _TORCH_DTYPES

    vals: list[Any] = [np.asarray(v).reshape(()) for v in x[:5]]
    out = MelWeightMatrix.eval(*vals, output_datatype=int(a.get("output_datatype", 1)))
    return [torch.from_numpy(np.asarray(out, np.float32)).to(
        _TORCH_DTYPES.get(int(a.get("output_datatype", 1)), torch.float32))]


# ---- TreeEnsemble (ai.onnx.ml 5) ---------------------------------------------------------------------

def _tree_cond(xf: Tensor, mode: int, split: float, members: list[float]) -> Tensor:
    if mode == 6:
        hit = torch.zeros_like(xf, dtype=torch.bool)
        for m in members:
            hit = hit | (xf == m)
        return hit
    return [xf <= split, xf < split, xf >= split, xf > split, xf == split, xf != split][mode]


def tree_ensemble(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ai.onnx.ml TreeEnsemble (SUM/AVERAGE, post_transform NONE): each leaf's weight times the indicator
    that a row reaches it (the product of its path's branch conditions, unrolled from the static trees)."""
    t = x[0]
    agg, post = int(a.get("aggregate_function", 1)), int(a.get("post_transform", 0))
    if agg not in (0, 1) or post != 0:
        raise UnsupportedOpError("TreeEnsemble with MIN/MAX aggregation or a post_transform is not supported")
    modes = [int(v) for v in np.asarray(a["nodes_modes"]).reshape(-1)]
    splits = np.asarray(a.get("nodes_splits", np.zeros(len(modes)))).reshape(-1).astype(np.float64)
    feats = [int(v) for v in a["nodes_featureids"]]
    tn, fn = [int(v) for v in a["nodes_truenodeids"]], [int(v) for v in a["nodes_falsenodeids"]]
    tl, fl = [int(v) for v in a["nodes_trueleafs"]], [int(v) for v in a["nodes_falseleafs"]]
    miss = [int(v) for v in a.get("nodes_missing_value_tracks_true", [0] * len(modes))]
    lw = np.asarray(a["leaf_weights"]).reshape(-1)
    lt = [int(v) for v in a["leaf_targetids"]]
    members: dict[int, list[float]] = {}
    mv = iter(np.asarray(a.get("membership_values", np.zeros(0))).reshape(-1).tolist())
    n_targets = int(a["n_targets"])
    roots = [int(v) for v in a["tree_roots"]]
    contrib = np.zeros((len(lw), n_targets))
    for k, tid in enumerate(lt):
        contrib[k, tid] = float(lw[k]) / (len(roots) if agg == 0 else 1)
    reach: list[Tensor] = [torch.zeros(int(t.shape[0]), dtype=t.dtype)] * len(lw)

    def walk(node: int, leaf: bool, ind: Tensor) -> None:
        if leaf:
            reach[node] = reach[node] + ind
            return
        if modes[node] == 6 and node not in members:
            members[node] = []
            for v in mv:
                if math.isnan(v):
                    break
                members[node].append(float(v))
        xf = t[:, feats[node]]
        c = _tree_cond(xf, modes[node], float(splits[node]), members.get(node, []))
        if miss[node]:
            c = c | torch.isnan(xf)
        cf = c.to(t.dtype)
        walk(tn[node], bool(tl[node]), ind * cf)
        walk(fn[node], bool(fl[node]), ind * (1 - cf))
    for r in roots:
        if tl[r] and fl[r] and tn[r] == fn[r]:
            walk(tn[r], True, torch.ones(int(t.shape[0]), dtype=t.dtype))
        else:
            walk(r, False, torch.ones(int(t.shape[0]), dtype=t.dtype))
    y = torch.matmul(torch.stack(reach, 1), torch.from_numpy(contrib).to(t.dtype))
    return [y.to(_np_torch_dtype(lw.dtype, t.dtype))]


def _np_torch_dtype(d: np.dtype, default: torch.dtype) -> torch.dtype:
    return {np.dtype(np.float32): torch.float32, np.dtype(np.float64): torch.float64,
            np.dtype(np.float16): torch.float16}.get(np.dtype(d), default)


def _lazy_scatter_elements(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    from bb_edge.convert.torch_ops import _scatter_elements

    return _scatter_elements(x, a)


#: the ops of this module, merged into the converter's op table
MORE: dict[str, OpFn] = {
    "Attention": attention,
    "RotaryEmbedding": rotary_embedding,
    "LinearAttention": linear_attention,
    "CausalConvWithState": causal_conv_with_state,
    "BitCast": bitcast,
    "Pad": pad_any_value,
    "HannWindow": _window("hann"), "HammingWindow": _window("hamming"), "BlackmanWindow": _window("blackman"),
    "Det": det, "TensorScatter": tensor_scatter, "GatherND": gather_nd, "ReverseSequence": reverse_sequence,
    "MaxUnpool": max_unpool, "MatMulInteger": matmul_integer, "ConvInteger": conv_integer,
    "QLinearMatMul": qlinear_matmul, "DynamicQuantizeLinear": dynamic_quantize_linear,
    "CenterCropPad": center_crop_pad, "AffineGrid": affine_grid, "Col2Im": col2im,
    "TfIdfVectorizer": tfidf_vectorizer, "DeformConv": deform_conv,
    "TreeEnsemble": tree_ensemble, "GroupNormalization": group_norm, "QLinearConv": qlinear_conv,
    "MelWeightMatrix": mel_weight_matrix,
    "Scatter": lambda x, a: _lazy_scatter_elements(x, a),
    "Binarizer": lambda x, a: [(x[0] > float(a.get("threshold", 0.0))).to(x[0].dtype)],
    "ArrayFeatureExtractor": lambda x, a: [torch.index_select(x[0], x[0].dim() - 1, x[1].long().reshape(-1))
                                           .reshape(*x[0].shape[:-1], -1)],
}

#: inputs of MORE ops read as numpy values at conversion time
MORE_STATIC: dict[str, set[int]] = {
    "Pad": {1, 3}, "HannWindow": {0}, "HammingWindow": {0}, "BlackmanWindow": {0}, "MaxUnpool": {2},
    "CenterCropPad": {1}, "AffineGrid": {1}, "Col2Im": {1, 2}, "MelWeightMatrix": {0, 1, 2, 3, 4},
}

#: (domain, op) pairs outside the default domain the converter takes
ML_OPS: frozenset[tuple[str, str]] = frozenset({("ai.onnx.ml", "Binarizer"), ("ai.onnx.ml", "ArrayFeatureExtractor"),
                                                ("ai.onnx.ml", "TreeEnsemble")})
