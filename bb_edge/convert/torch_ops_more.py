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
    qh, kvh = a.get("q_num_heads"), a.get("kv_num_heads")
    if rank3:
        Q, K, V = _to_heads(Q, int(qh)), _to_heads(K, int(kvh)), _to_heads(V, int(kvh))
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
    qk = torch.matmul(Q * s, (K * s).transpose(2, 3))
    cap = float(a.get("softcap", 0.0) or 0.0)
    if cap > 0:
        qk = torch.tanh(qk / cap) * cap
    qk_bias = qk + bias
    mode = int(a.get("qk_matmul_output_mode", 0))
    qk_out = qk_bias if mode == 2 else qk
    sp = a.get("softmax_precision")
    logits = qk_bias
    if sp is not None and int(sp):
        from bb_edge.convert.onnx_torch import _TORCH_DTYPES

        logits = logits.to(_TORCH_DTYPES.get(int(sp), torch.float32))
    probs = _safe_softmax(logits)
    masked_row = torch.amax(bias, dim=-1, keepdim=True) == _NEG_INF
    probs = torch.where(masked_row, torch.zeros((), dtype=probs.dtype), probs)
    if mode == 3:
        qk_out = probs
    y = torch.matmul(probs.to(dt), V)
    if rank3:
        y = y.permute(0, 2, 1, 3)
        y = y.reshape(int(y.shape[0]), int(y.shape[1]), -1)
    return [y, present_k, present_v, qk_out.to(dt)]


def _safe_softmax(t: Tensor) -> Tensor:
    """Softmax over the last dim where an all -inf row gives zeros (onnx's reference)."""
    m = torch.amax(t, dim=-1, keepdim=True)
    m = torch.where(m == _NEG_INF, torch.zeros((), dtype=t.dtype), m)
    e = torch.exp(t - m)
    tot = torch.sum(e, dim=-1, keepdim=True)
    tot = torch.where(tot == 0, torch.ones((), dtype=t.dtype), tot)
    return e / tot


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

def bitcast(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX BitCast (same bit width) as ``Tensor.view(dtype)``."""
    from bb_edge.convert.onnx_torch import _TORCH_DTYPES

    to = int(a["to"])
    extra = {4: torch.uint16, 12: torch.uint32, 13: torch.uint64}
    dt = _TORCH_DTYPES.get(to) or extra.get(to)
    if dt is None:
        raise UnsupportedOpError(f"BitCast to ONNX type {to} is not supported by the torch converter")
    return [x[0].view(dt)]


#: the ops of this module, merged into the converter's op table
MORE: dict[str, OpFn] = {
    "Attention": attention,
    "RotaryEmbedding": rotary_embedding,
    "LinearAttention": linear_attention,
    "CausalConvWithState": causal_conv_with_state,
    "BitCast": bitcast,
}

#: inputs of MORE ops read as numpy values at conversion time
MORE_STATIC: dict[str, set[int]] = {}
