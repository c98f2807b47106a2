"""Ahead-of-time arena planning: offsets by tensor lifetime (greedy by size, like TFLM).

A tensor is alive from the op that writes it (or the start, for Recv inputs)
to the last op that reads it (or the end, for Send outputs). Two tensors whose
lifetimes overlap never share bytes. The lower bound is the largest total size
of tensors alive at one op: no plan can use less.
"""

from __future__ import annotations

from dataclasses import dataclass

from bb_edge.bbrt.format import ALIGN, STORE_ARENA, Program, align


@dataclass(frozen=True)
class Interval:
    """Lifetime [first, last] (op indices, inclusive) and size of one arena tensor."""

    tensor: int
    first: int
    last: int
    size: int


def lifetimes(prog: Program, live_in: set[int], live_out: set[int]) -> list[Interval]:
    """Lifetimes of every arena tensor of a program."""
    n_ops = len(prog.ops)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for t in live_in:
        first[t] = -1
        last[t] = max(last.get(t, -1), -1)
    for i, op in enumerate(prog.ops):
        for t in op.outputs:
            first.setdefault(t, i)
            last[t] = max(last.get(t, i), i)
        for t in op.inputs:
            first.setdefault(t, i)
            last[t] = max(last.get(t, i), i)
    for t in live_out:
        first.setdefault(t, n_ops)
        last[t] = n_ops
    out = []
    for t, f in first.items():
        ten = prog.tensors[t]
        if ten.storage != STORE_ARENA:
            continue
        out.append(Interval(t, f, last[t], align(ten.nbytes)))
    return out


def lower_bound(intervals: list[Interval]) -> int:
    """Largest sum of sizes of tensors alive at the same op index."""
    if not intervals:
        return 0
    points = sorted({iv.first for iv in intervals} | {iv.last for iv in intervals})
    best = 0
    for p in points:
        best = max(best, sum(iv.size for iv in intervals if iv.first <= p <= iv.last))
    return best


def plan(intervals: list[Interval]) -> tuple[dict[int, int], int]:
    """Greedy-by-size placement: each tensor at the lowest offset free over its lifetime.

    Returns (offset per tensor, arena bytes).
    """
    placed: list[tuple[Interval, int]] = []
    offsets: dict[int, int] = {}
    for iv in sorted(intervals, key=lambda v: (-v.size, v.first, v.tensor)):
        busy = sorted((off, off + p.size) for p, off in placed if not (p.last < iv.first or iv.last < p.first))
        cand = 0
        for lo, hi in busy:
            if cand + iv.size <= lo:
                break
            cand = max(cand, align(hi, ALIGN))
        offsets[iv.tensor] = cand
        placed.append((iv, cand))
    size = max((off + iv.size for iv, off in placed), default=0)
    return offsets, size


def assign(prog: Program, live_in: set[int], live_out: set[int]) -> None:
    """Plan the arena of a program in place (offsets, arena_size, arena_lower_bound)."""
    ivs = lifetimes(prog, live_in, live_out)
    offsets, size = plan(ivs)
    for t, off in offsets.items():
        prog.tensors[t].offset = off
    prog.arena_size = align(size)
    prog.arena_lower_bound = lower_bound(ivs)
