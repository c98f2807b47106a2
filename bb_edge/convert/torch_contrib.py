"""ONNX Runtime contrib ops (``com.microsoft``) of a decoder stage, as torch code for torch.export/ExecuTorch.

The stages :mod:`bb_edge.llm.onnx_build` writes use three of them; each follows ONNX Runtime's contrib-op
semantics (docs/ContribOperators.md) for the forms those graphs use, and refuses the others by name:

- ``GroupQueryAttention``: packed or separate Q/K/V, past K/V in BNSH without a shared buffer (the past holds
  exactly the tokens before this step), ``seqlens_k`` (valid tokens - 1 per row) and rotary inside
  (half-split or interleaved, positions ``seqlens_k + 1 - S + i``), causal over the present K/V.
  Refused: ``local_window_size``, ``softcap``, ``smooth_softmax``, ``position_ids``, ``attention_bias``.
- ``MatMulNBits``: 4- or 8-bit blocks dequantized as ``(q - zero_point) * scale`` then one float matmul;
  at ``accuracy_level`` 4 the activations are first rounded to int8 per block as ONNX Runtime's CPU int8
  path (MLAS) does, which leaves the two apart only by float summation order.
- ``GatherBlockQuantized``: 4- or 8-bit rows gathered, then dequantized the same way.

Lengths are derived from tensor *values* (``seqlens_k``), never read back to Python, so one exported
program serves every past length: the decoder stage is exported with dynamic sequence and past dims
(:func:`dynamic_dims`), and ``Shape`` of a dynamic dim becomes a tensor built from the symbolic size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import torch

from bb_edge.errors import UnsupportedOpError

Tensor = torch.Tensor
MS = "com.microsoft"


def _unpack(b: Tensor, bits: int) -> Tensor:
    """Packed uint8 [..., bytes] -> its values [..., bytes * 8 / bits] (element 2i in the low nibble)."""
    b = b.to(torch.int32)
    if bits == 8:
        return b
    hi = torch.div(b, 16, rounding_mode="floor")  # not >>/&: shifts are outside the core ATen opset ExecuTorch takes
    return torch.stack([b - hi * 16, hi], -1).reshape(*b.shape[:-1], b.shape[-1] * 2)


def _int8_blocks(t: Tensor, bs: int) -> Tensor:
    """``t`` [..., K] rounded as ONNX Runtime's int8 path (accuracy_level 4) quantizes the activations: per
    block of ``bs`` along K, symmetric, scale ``max|t| / 127``, to nearest even (a zero block stays zero)."""
    blocks = t.reshape(*t.shape[:-1], t.shape[-1] // bs, bs)
    scale = torch.amax(torch.abs(blocks), -1, keepdim=True) / 127.0
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))
    q = torch.where(scale > 0, torch.round(blocks / safe), torch.zeros_like(blocks))
    return (q * scale).reshape(t.shape)


def matmul_nbits(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ORT MatMulNBits: ``A @ dequant(B)^T (+ bias)``, B [N, K/block, block*bits/8] uint8."""
    bits, bs, k, n = int(a["bits"]), int(a["block_size"]), int(a["K"]), int(a["N"])
    if bits not in (4, 8):
        raise UnsupportedOpError(f"MatMulNBits with bits={bits} is not supported by the torch converter (4, 8)")
    if len(x) > 4 and x[4] is not None:
        raise UnsupportedOpError("MatMulNBits with g_idx is not supported by the torch converter")
    nb = (k + bs - 1) // bs
    q = _unpack(x[1], bits).reshape(n, nb, bs).to(torch.float32)
    scales = x[2].to(torch.float32).reshape(n, nb, 1)
    zp_in = x[3] if len(x) > 3 else None
    if zp_in is None:
        zp = torch.full((n, nb, 1), float(2 ** (bits - 1)))
    elif zp_in.dtype == torch.uint8:
        zp = _unpack(zp_in.reshape(n, -1), bits)[:, :nb].to(torch.float32).reshape(n, nb, 1)
    else:  # float zero points: dequantized as (q - zp) * scale too
        zp = zp_in.to(torch.float32).reshape(n, nb, 1)
    w = ((q - zp) * scales).reshape(n, nb * bs)[:, :k]
    a_in = x[0].to(torch.float32)
    if int(a.get("accuracy_level", 0)) == 4 and k % bs == 0:
        a_in = _int8_blocks(a_in, bs)
    y = torch.matmul(a_in, w.t())
    if len(x) > 5 and x[5] is not None:
        y = y + x[5].to(torch.float32)
    return [y.to(x[0].dtype)]


def gather_block_quantized(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ORT GatherBlockQuantized: rows of a block-quantized table gathered (gather_axis 0), then dequantized."""
    bits, bs = int(a.get("bits", 4)), int(a.get("block_size", 128))
    data, idx, scales = x[0], x[1].long(), x[2]
    if int(a.get("gather_axis", 0)) != 0 or int(a.get("quantize_axis", 1)) % data.dim() != data.dim() - 1:
        raise UnsupportedOpError("GatherBlockQuantized is supported by the torch converter for gather_axis 0 and "
                                 "the last quantize_axis only")
    if bits not in (4, 8):
        raise UnsupportedOpError(f"GatherBlockQuantized with bits={bits} is not supported by the torch converter")
    signed = data.dtype == torch.int8
    rows = data.shape[0]
    idx = torch.where(idx < 0, idx + rows, idx)
    got = torch.index_select(data, 0, idx.reshape(-1))
    if bits == 4 and not signed:
        q = _unpack(got, 4)
    else:
        q = got.to(torch.int32)
    q = q.to(torch.float32)
    k = q.shape[-1]
    nb = (k + bs - 1) // bs
    sc = torch.index_select(scales, 0, idx.reshape(-1)).to(torch.float32)
    zp_in = x[3] if len(x) > 3 else None
    if zp_in is None:
        zp = torch.zeros_like(sc) if signed else torch.full_like(sc, float(2 ** (bits - 1)))
    else:
        z = torch.index_select(zp_in, 0, idx.reshape(-1))
        zp = (_unpack(z, 4)[..., :nb] if bits == 4 and z.dtype == torch.uint8 else z).to(torch.float32)
    pad = nb * bs - k
    qb = torch.nn.functional.pad(q, [0, pad]) if pad else q
    deq = ((qb.reshape(*qb.shape[:-1], nb, bs) - zp.unsqueeze(-1)) * sc.unsqueeze(-1)).reshape(*qb.shape[:-1], -1)
    out = deq[..., :k].to(scales.dtype)
    return [out.reshape(*idx.shape, *data.shape[1:-1], k)]


def _rotate(t: Tensor, cos: Tensor, sin: Tensor, interleaved: bool) -> Tensor:
    """Rotary embedding on t [B, H, S, D] with cos/sin [B, 1, S, R/2] (R <= D; the rest passes)."""
    half = cos.shape[-1]
    rot, rest = t[..., : 2 * half], t[..., 2 * half:]
    if interleaved:
        x1, x2 = rot[..., 0::2], rot[..., 1::2]
        out = torch.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1).reshape(rot.shape)
    else:
        x1, x2 = rot[..., :half], rot[..., half:]
        out = torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1)
    return torch.cat([out, rest], -1) if rest.shape[-1] else out


def group_query_attention(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ORT GroupQueryAttention (see the module docstring for the forms taken): output, present K, present V."""
    for name, off in (("local_window_size", -1), ("softcap", 0.0), ("smooth_softmax", 0)):
        if float(a.get(name, off)) != float(off):
            raise UnsupportedOpError(f"GroupQueryAttention with {name}={a[name]} is not supported by the torch "
                                     f"converter")
    if any(len(x) > i and x[i] is not None for i in (9, 10, 11)):
        raise UnsupportedOpError("GroupQueryAttention with position_ids, attention_bias or head_sink is not "
                                 "supported by the torch converter")
    nh, kvh = int(a["num_heads"]), int(a["kv_num_heads"])
    q_in = x[0]
    dt = q_in.dtype
    b, s = q_in.shape[0], q_in.shape[1]
    if x[1] is None:  # packed QKV: [B, S, (nh + 2 kvh) * D]
        d = q_in.shape[2] // (nh + 2 * kvh)
        q, k, v = torch.split(q_in.to(torch.float32), [nh * d, kvh * d, kvh * d], dim=-1)
    else:
        d = q_in.shape[2] // nh
        q, k, v = q_in.to(torch.float32), x[1].to(torch.float32), x[2].to(torch.float32)
    q = q.reshape(b, s, nh, d).transpose(1, 2)
    k = k.reshape(b, s, kvh, d).transpose(1, 2)
    v = v.reshape(b, s, kvh, d).transpose(1, 2)
    seqlens = x[5].to(torch.int64).reshape(b, 1)  # valid tokens - 1, per row
    past_len = torch.clamp(seqlens + 1 - s, min=0)  # a first prompt (shorter than S when padded) starts at 0
    pos = past_len + torch.arange(s).reshape(1, s)  # [B, S]
    if int(a.get("do_rotary", 0)):
        cos = torch.index_select(x[7].to(torch.float32), 0, pos.reshape(-1)).reshape(b, 1, s, -1)
        sin = torch.index_select(x[8].to(torch.float32), 0, pos.reshape(-1)).reshape(b, 1, s, -1)
        inter = bool(int(a.get("rotary_interleaved", 0)))
        q, k = _rotate(q, cos, sin, inter), _rotate(k, cos, sin, inter)
    past_k, past_v = (x[3], x[4]) if len(x) > 4 else (None, None)
    # a static empty past (a prefill-only program) adds nothing; a symbolic one (maybe 0 at run time) is joined
    if past_k is not None and past_v is not None and not (isinstance(past_k.shape[2], int) and past_k.shape[2] == 0):
        k = torch.cat([past_k.to(torch.float32), k], 2)
        v = torch.cat([past_v.to(torch.float32), v], 2)
    t = k.shape[2]
    rep = nh // kvh
    kk = k.repeat_interleave(rep, dim=1) if rep > 1 else k
    vv = v.repeat_interleave(rep, dim=1) if rep > 1 else v
    scale = float(a.get("scale", 0.0)) or 1.0 / float(np.sqrt(d))
    scores = torch.matmul(q, kk.transpose(2, 3)) * scale  # [B, nh, S, T]
    kpos = torch.arange(t).reshape(1, 1, 1, t)
    allowed = (kpos <= pos.reshape(b, 1, s, 1)) & (kpos <= seqlens.reshape(b, 1, 1, 1))
    scores = torch.where(allowed, scores, torch.full((), float("-inf")))
    probs = torch.softmax(scores, -1)
    out = torch.matmul(probs, vv).transpose(1, 2).reshape(b, s, nh * d)
    return [out.to(dt), k.to(dt), v.to(dt)]


def shape(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Shape of a tensor whose dims may be symbolic (an int64 tensor built from the sizes)."""
    dims = list(x[0].shape)
    start, end = int(a.get("start", 0)), a.get("end")
    dims = dims[start:] if end is None else dims[start:int(end)]
    return [torch.stack([torch.ones((), dtype=torch.int64) * d for d in dims]) if dims
            else torch.zeros(0, dtype=torch.int64)]


#: contrib op name -> torch implementation
CONTRIB: dict[str, Any] = {"GroupQueryAttention": group_query_attention, "MatMulNBits": matmul_nbits,
                           "GatherBlockQuantized": gather_block_quantized}
#: (domain, op) pairs the converter takes from ONNX Runtime's contrib domain
CONTRIB_OPS: frozenset[tuple[str, str]] = frozenset((MS, op) for op in CONTRIB)


def has_dynamic_attention(model: onnx.ModelProto) -> bool:
    """Whether ``model`` holds a GroupQueryAttention (a decoder stage: exported with dynamic lengths)."""
    return any(n.op_type == "GroupQueryAttention" and n.domain == MS for n in model.graph.node)


def dynamic_dims(model: onnx.ModelProto) -> dict[str, tuple[int, int]]:
    """Symbolic input dims of a decoder stage -> (min, max) for torch.export: every named dim of a graph
    input, up to the rotary cache's length (the longest context the stage's GroupQueryAttention takes).
    Empty for other models (they export with their symbolic dims pinned to 1)."""
    if not has_dynamic_attention(model):
        return {}
    inits = {t.name: t for t in model.graph.initializer}
    gqa = next(n for n in model.graph.node if n.op_type == "GroupQueryAttention" and n.domain == MS)
    cache = inits.get(gqa.input[7]) if len(gqa.input) > 7 else None
    ctx = int(cache.dims[0]) if cache is not None else 4096
    names = {d.dim_param for i in model.graph.input if i.name not in inits
             for d in i.type.tensor_type.shape.dim if d.dim_param}
    return {n: (0 if "past" in n else 1, ctx) for n in sorted(names)}
