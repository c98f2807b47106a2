"""Weights widened to 16-bit at compile time for the Cortex-M4/M7 DSP kernels (BBRT_KERNELS_DSP only).

The DSP build's FC and im2col conv inner loops unpack every int8 weight word with two SXTB16 before its
SMLADs; stored as the int16 pairs SMLAD takes, a weight word pair is one LDRD and the unpacking is gone (FC
13 instructions per 16 MACs instead of 21, conv 12 instead of 17), for twice the weights' flash. CMSIS-NN
does not do this for s8; it costs flash only. :func:`widen_for_dsp` rewrites a lowered program for a DSP
target: each FC_I8 it can widen gets int16 weights in the kernel's order and ``p[3] = 1``, each CONV_I8
(one group, even M, mm_rq8f shifts, a reduction chunk: :func:`w16_chunk`) ``p[12] = 1`` and its bias with
-zx * sum(w) folded in (exact: the im2col patch pads with zx). A patch P = Cg KH KW that is not a multiple of 4
gets zero kernel columns (:func:`kw_pad`); one too long to widen whole runs in chunks of input channels. The
portable and Helium builds refuse such an op (the loader's check), so a widened program is built for DSP
targets only (``bb-edge build --no-widen`` or a profile's ``"widen_weights": false`` keeps the int8 one).

Layout of an FC's widened weights (K % 4 == 0): rows in blocks of 4 (the last Nn % 4 rows one by one), per
group of 4 elements k..k+3 each row of the block in turn as (w[k], w[k+2], w[k+1], w[k+3]): the pairs of
SXTB16(x) and SXTB16 ROR 8(x).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from bb_edge.bbrt.format import DT_INT8, DT_INT16, Op, OpRecord, Program
from bb_edge.bbrt.lower import Lowered

#: BBRT_FC_WIDE_MAX (firmware/src/bbrt_kernels.h): the longest FC row whose x the kernel widens on the stack
FC_WIDE_MAX = 768
#: BBRT_IM2COL_MAX (firmware/src/bbrt_kernels.h): a widened conv's pixel pair and staging patch, 5 P bytes
IM2COL_MAX = 1536


def fc_layout(w: np.ndarray) -> np.ndarray:
    """An FC's int8 weights (Nn, K), K % 4 == 0, as the widened kernel reads them: int16, same shape."""
    n, k = w.shape
    g = w.astype(np.int16).reshape(n, k // 4, 4)[:, :, [0, 2, 1, 3]]  # (row, group, pair order)
    full = n // 4 * 4
    blocks = g[:full].reshape(full // 4, 4, k // 4, 4).transpose(0, 2, 1, 3)  # (block, group, row, 4)
    return np.concatenate([blocks.reshape(-1), g[full:].reshape(-1)]).reshape(n, k)


def conv_layout(w: np.ndarray) -> np.ndarray:
    """A conv's int8 weights (M, Cg, KH, KW), M even, P = Cg KH KW with P % 4 == 0, as the widened kernel
    reads them: int16, same shape; per channel pair and group of 4 elements channel oc's pairs, then oc + 1's."""
    m = w.shape[0]
    g = w.astype(np.int16).reshape(m // 2, 2, -1, 4)[:, :, :, [0, 2, 1, 3]]  # (pair, channel, group, 4)
    return np.ascontiguousarray(g.transpose(0, 2, 1, 3)).reshape(w.shape)


#: BBRT_IM2COL_OC (firmware/src/bbrt_kernels.h): output channels per im2col block
IM2COL_OC = 64


def w16_chunk(cg: int, kk: int, m: int) -> int:
    """bbrt_conv_w16_chunk (firmware/src/bbrt_kernels.h): input channels per reduction chunk of a widened conv,
    Cg when its pair fits :data:`IM2COL_MAX` whole, else the largest divisor whose chunk fits with the block's
    sums (the kernel adds the chunks up: no more stack), 0 for none."""
    oc = min(m, IM2COL_OC)
    if cg * kk % 4 == 0 and 5 * cg * kk <= IM2COL_MAX:
        return cg
    return next((c for c in range(min(cg // 2, IM2COL_MAX // 5), 0, -1)
                 if cg % c == 0 and c * kk % 4 == 0 and 5 * c * kk + 8 * oc <= IM2COL_MAX), 0)


def kw_pad(shape: tuple[int, ...], params: list[int]) -> int:
    """Zero kernel columns that make a conv's patch P = Cg KH KW a multiple of 4 (0 if it is one; -1 if the
    conv cannot take them: a dilated row). Appended on the right with as much more right padding (params[5]),
    they leave the output shape alone and add nothing: their taps read the image or its padding (zx) times 0,
    and the folded bias -zx * sum(w) is unchanged. The widened kernel then runs P + Cg KH e as 16-bit pairs."""
    cg, kh, kw = shape[1], shape[2], shape[3]
    e = next(e for e in range(4) if cg * kh * (kw + e) % 4 == 0)
    return e if e == 0 or params[7] == 1 else -1


def _conv_widenable(prog: Program, op: OpRecord) -> bool:
    w, y, rq = prog.tensors[op.inputs[1]], prog.tensors[op.outputs[0]], prog.tensors[op.inputs[3]]
    b, zx = prog.tensors[op.inputs[2]], prog.tensors[op.inputs[0]].zero_point
    p = list(op.params) + [0] * (16 - len(op.params))
    if w.dtype != DT_INT8 or w.data is None or b.data is None or rq.data is None:
        return False
    e = kw_pad(w.shape, p)
    if e < 0 or p[5] + e > 65535:  # the loader's pad bound
        return False
    m, pk = w.shape[0], int(np.prod(w.shape[1:3])) * (w.shape[3] + e)
    r = rq.data.reshape(-1, 2).astype(np.int64)
    fast = bool(np.all((r[:, 0] == 0) | ((r[:, 1] >= -31) & (r[:, 1] <= -2))))  # mm_rq8f on every channel
    folded = b.data.astype(np.int64) - zx * w.data.reshape(m, -1).astype(np.int64).sum(axis=1)
    kk = w.shape[2] * (w.shape[3] + e)
    return (p[8] == 1 and p[11] == 0 and p[12] == 0 and m % 2 == 0 and pk % 4 == 0
            and w16_chunk(w.shape[1], kk, m) > 0 and y.shape[2] * y.shape[3] >= 2 and fast
            and np.abs(folded).max() <= 2**30)  # the loader's bias bound


def _fc_widenable(prog: Program, op: OpRecord) -> bool:
    x, w = prog.tensors[op.inputs[0]], prog.tensors[op.inputs[1]]
    k = w.shape[1]
    folded = len(op.params) > 2 and op.params[2] == 1
    return (w.dtype == DT_INT8 and w.data is not None and k % 4 == 0 and 8 <= k <= FC_WIDE_MAX
            and (folded or x.zero_point == 0))


def _readers(prog: Program, t: int) -> list[OpRecord]:
    return [o for o in prog.ops if t in o.inputs]


def _group_widenable(prog: Program, group: list[OpRecord]) -> bool:
    """Every op reading a weight tensor can take it widened (the bands of a patched program share one), and
    for convs they share one bias (folded once) that nothing else reads, with one input zero point."""
    code = group[0].opcode
    w = group[0].inputs[1]
    if any(o.opcode != code or o.inputs.index(w) != 1 for o in group) or len(_readers(prog, w)) != len(group):
        return False
    if code == Op.FC_I8:
        return all(_fc_widenable(prog, o) for o in group)
    b = group[0].inputs[2]
    return (all(o.inputs[2] == b and _conv_widenable(prog, o) for o in group) and len(_readers(prog, b)) == len(group)
            and len({prog.tensors[o.inputs[0]].zero_point for o in group}) == 1)


def widen_for_dsp(prog: Program) -> Program:
    """A copy of ``prog`` with the FC_I8 and CONV_I8 weights that the DSP kernels can take widened (int16,
    FC p[3] = 1, conv p[12] = 1 with the bias folded)."""
    tensors = list(prog.tensors)
    groups: dict[int, list[OpRecord]] = {}
    for op in prog.ops:
        if op.opcode in (Op.FC_I8, Op.CONV_I8):
            groups.setdefault(op.inputs[1], []).append(op)
    flag: dict[int, int] = {}  # id(op) -> the param index to set
    pads: dict[int, int] = {}  # id(op) -> zero kernel columns added (kw_pad): as much more right padding
    for wi, group in groups.items():
        if not _group_widenable(prog, group):
            continue
        w = tensors[wi]
        assert w.data is not None
        if group[0].opcode == Op.FC_I8:
            tensors[wi] = dataclasses.replace(w, dtype=DT_INT16, data=fc_layout(w.data))
        else:
            bi, zx = group[0].inputs[2], tensors[group[0].inputs[0]].zero_point
            b = tensors[bi]
            assert b.data is not None
            e = kw_pad(w.shape, list(group[0].params) + [0] * 16)
            wp = np.pad(w.data, ((0, 0), (0, 0), (0, 0), (0, e)))  # zero columns (kw_pad)
            tensors[wi] = dataclasses.replace(w, dtype=DT_INT16, shape=wp.shape, data=conv_layout(wp))
            for o in group:
                pads[id(o)] = e
            wsum = w.data.reshape(w.shape[0], -1).astype(np.int64).sum(axis=1)
            tensors[bi] = dataclasses.replace(b, data=(b.data - zx * wsum).astype(np.int32))
        for o in group:
            flag[id(o)] = 3 if o.opcode == Op.FC_I8 else 12
    ops = []
    for op in prog.ops:
        if id(op) in flag:
            params = list(op.params) + [0] * (flag[id(op)] + 1 - len(op.params))
            params[flag[id(op)]] = 1
            if id(op) in pads:
                params[5] += pads[id(op)]
            op = dataclasses.replace(op, params=params)
        ops.append(op)
    return dataclasses.replace(prog, tensors=tensors, ops=ops)


def widen_lowered(L: Lowered) -> Lowered:
    """``L`` for a DSP target (Cortex-M4/M7): :func:`widen_for_dsp` of its program, re-serialized."""
    prog = widen_for_dsp(L.program)
    return dataclasses.replace(L, program=prog, blob=prog.to_bytes())
