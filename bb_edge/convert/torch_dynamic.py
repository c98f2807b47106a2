"""Ops whose output shape depends on the data (NonZero, Unique, NonMaxSuppression) for ``torch.export``/ExecuTorch.

Recipe (ExecuTorch 1.5.1): every op computes at a static bound (the element, row or box count) with
elementwise comparison matrices, ``cumsum`` and ``scatter``; only the last step is dynamic, a slice of the
leading dim to a count read with ``.item()`` and bounded with ``torch._check(0 <= k <= bound)``, so
ExecuTorch plans memory at the bound and its runtime returns the true shape. The dynamic dim must lead:
a ``[r, k]`` tensor has the unbacked stride ``k`` that ExecuTorch's dim-order pass cannot order
(``GuardOnDataDependentSymNode: u < 1`` in ``exir/tensor.py``), so NonZero's program output is ``[k, r]``
and :class:`~bb_edge.convert.onnx_torch.ProgramIO` transposes it back; likewise Unique's values along an
axis other than 0 (:func:`leading_axes`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

Tensor = torch.Tensor

def leading_axes(op: str, attrs: dict[str, Any]) -> dict[int, int]:
    """``{output index: axis}``: outputs the op makes with their data-dependent dim first, and where the
    graph's value has it (the interpreter moves it there; a program output crosses with it first)."""
    if op == "NonZero":
        return {0: 1}
    if op == "Unique" and attrs.get("axis") is not None and int(attrs["axis"]) != 0:
        return {0: int(attrs["axis"])}
    return {}


def _bounded(n: Tensor, bound: int) -> Any:
    """``n`` (a 0-d int tensor) as an unbacked size in ``[0, bound]``."""
    k = n.item()
    torch._check(k >= 0)
    torch._check(k <= bound)
    return k


def _compact(keep: Tensor, values: Tensor) -> Tensor:
    """The rows of ``values`` ([n, ...]) where ``keep`` ([n] bool), in order, at the static size n (rest 0)."""
    n = keep.shape[0]
    pos = torch.cumsum(keep.to(torch.int64), 0) - 1
    tgt = torch.where(keep, pos, torch.full_like(pos, n))
    shape = [n + 1, *values.shape[1:]]
    idx = tgt.reshape([n] + [1] * (values.dim() - 1)).expand(values.shape)
    return torch.zeros(shape, dtype=values.dtype).scatter(0, idx, values)[:n]


def nonzero_rows(x: Tensor) -> Tensor:
    """The indices of the non-zero elements of ``x`` as ``[k, rank]`` (row-major order)."""
    flat = (x != 0).reshape(-1)
    n = flat.shape[0]
    rem = torch.arange(n, dtype=torch.int64)
    coords = []
    for s in reversed(list(x.shape)):
        coords.append(rem % s)
        rem = torch.div(rem, s, rounding_mode="floor")
    rows = torch.stack(list(reversed(coords)), 1) if coords else torch.zeros(n, 0, dtype=torch.int64)
    k = _bounded(flat.to(torch.int64).sum(), n)
    return _compact(flat, rows)[:k]


def _nonzero(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    return [nonzero_rows(x[0])]  # [k, r]: the interpreter moves k last (leading_axes)


def _unique(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Unique: values, first indices, inverse indices and counts (sorted or in first-occurrence order)."""
    t = x[0]
    axis = a.get("axis")
    if axis is None:
        rows = t.reshape(-1, 1)
    else:
        axis = int(axis) % t.dim()
        rows = torch.movedim(t, axis, 0).reshape(t.shape[axis], -1)
    n, cols = rows.shape
    a_, b_ = rows[:, None, :], rows[None, :, :]  # [j, i, c]: row j against row i
    eq = torch.ones(n, n, dtype=torch.bool)
    lt = torch.zeros(n, n, dtype=torch.bool)  # lt[j, i]: row j < row i (lexicographic)
    for c in range(cols):
        lt = lt | (eq & (a_[..., c] < b_[..., c]))
        eq = eq & (a_[..., c] == b_[..., c])
    j = torch.arange(n, dtype=torch.int64)
    first = torch.where(eq, j[:, None], torch.full((n, n), n, dtype=torch.int64)).amin(0)
    is_first = first == j
    if int(a.get("sorted", 1)):
        gid = (is_first[:, None] & lt).to(torch.int64).sum(0)
    else:
        gid = (is_first[:, None] & (j[:, None] < first[None, :])).to(torch.int64).sum(0)
    k = _bounded(is_first.to(torch.int64).sum(), n)
    slot = torch.where(is_first, gid, torch.full_like(gid, n))
    vals = torch.zeros(n + 1, cols, dtype=rows.dtype).scatter(0, slot[:, None].expand(n, cols), rows)[:k]
    firsts = torch.zeros(n + 1, dtype=torch.int64).scatter(0, slot, j)[:k]
    counts = (gid[None, :] == j[:, None]).to(torch.int64).sum(1)[:k]
    # along an axis: the unique slices first (the interpreter moves that dim to ``axis``, leading_axes)
    y = vals.reshape(-1) if axis is None else vals.reshape([-1, *[s for d, s in enumerate(t.shape) if d != axis]])
    return [y, firsts, gid, counts]


def _scalar(v: Any, default: float) -> float:
    return default if v is None or np.asarray(v).size == 0 else float(np.asarray(v).reshape(-1)[0])


def _nms(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX NonMaxSuppression: greedy selection unrolled over the (static) box count, then compaction."""
    boxes, scores = x[0], x[1]
    limit = int(_scalar(x[2] if len(x) > 2 else None, 0))
    iou_thr = _scalar(x[3] if len(x) > 3 else None, 0.0)
    has_thr = len(x) > 4 and x[4] is not None and np.asarray(x[4]).size > 0
    score_thr = _scalar(x[4] if len(x) > 4 else None, 0.0)
    nb, nc, nbox = scores.shape
    if int(a.get("center_point_box", 0)):
        cx, cy, w, h = boxes.unbind(-1)
        x0, x1, y0, y1 = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    else:
        ya, xa, yb, xb = boxes.unbind(-1)
        x0, x1, y0, y1 = torch.minimum(xa, xb), torch.maximum(xa, xb), torch.minimum(ya, yb), torch.maximum(ya, yb)
    iw = torch.minimum(x1[:, :, None], x1[:, None, :]) - torch.maximum(x0[:, :, None], x0[:, None, :])
    ih = torch.minimum(y1[:, :, None], y1[:, None, :]) - torch.maximum(y0[:, :, None], y0[:, None, :])
    inter = torch.clamp(iw, min=0) * torch.clamp(ih, min=0)
    area = (x1 - x0) * (y1 - y0)
    union = area[:, :, None] + area[:, None, :] - inter
    ok = (iw > 0) & (ih > 0) & (area[:, :, None] > 0) & (area[:, None, :] > 0) & (union > 0)
    over = ok & (inter / torch.where(ok, union, torch.ones_like(union)) > iou_thr)  # [b, n, n]
    # order: score descending, ties by index ascending; rank[b, c, i] = boxes before box i
    j = torch.arange(nbox, dtype=torch.int64)
    sj, si = scores[:, :, :, None], scores[:, :, None, :]
    before = (sj > si) | ((sj == si) & (j[:, None] < j[None, :]))
    rank = before.to(torch.int64).sum(2)  # [b, c, n]
    order = torch.zeros_like(rank).scatter(2, rank, j.expand(nb, nc, nbox))  # order[.., t] = box at rank t
    valid = scores > score_thr if has_thr else torch.ones_like(scores, dtype=torch.bool)
    over_bc = over[:, None].expand(nb, nc, nbox, nbox)
    suppressed = torch.zeros(nb, nc, nbox, dtype=torch.bool)
    count = torch.zeros(nb, nc, dtype=torch.int64)
    keeps = []
    for t in range(nbox):
        box = order[:, :, t]  # [b, c]
        keep = (torch.gather(valid, 2, box[..., None])[..., 0] & ~torch.gather(suppressed, 2, box[..., None])[..., 0]
                & (count < limit))
        row = torch.gather(over_bc, 2, box[..., None, None].expand(nb, nc, 1, nbox))[:, :, 0]  # [b, c, n]
        suppressed = suppressed | (keep[..., None] & row)
        count = count + keep.to(torch.int64)
        keeps.append(keep)
    keep_all = torch.stack(keeps, 2).reshape(-1)  # (b, c, t) order
    bi = torch.arange(nb, dtype=torch.int64)[:, None, None].expand(nb, nc, nbox)
    ci = torch.arange(nc, dtype=torch.int64)[None, :, None].expand(nb, nc, nbox)
    triples = torch.stack([bi, ci, order], 3).reshape(-1, 3)
    k = _bounded(keep_all.to(torch.int64).sum(), nb * nc * nbox)
    return [_compact(keep_all, triples)[:k]]


#: the op table entries (merged into the converter's table by :mod:`bb_edge.convert.torch_ops`)
DYNAMIC: dict[str, Any] = {"NonZero": _nonzero, "Unique": _unique, "NonMaxSuppression": _nms}
#: inputs read at conversion time (NonMaxSuppression's limit and thresholds)
DYNAMIC_STATIC: dict[str, set[int]] = {"NonMaxSuppression": {2, 3, 4}}
