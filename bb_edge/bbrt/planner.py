"""Ahead-of-time arena planning: offsets by tensor lifetime (greedy by size, like TFLM).

A tensor is alive from the op that writes it (or the start, for Recv inputs)
to the last op that reads it (or the end, for Send outputs). Two tensors whose
lifetimes overlap never share bytes, except aliases: the output of a COPY
(Reshape, Flatten, Squeeze, Unsqueeze, Identity) is its input's bytes viewed
with another shape, so both get one offset and one merged lifetime, and the
runtime's COPY kernel sees the same pointer and copies nothing. The lower bound
is the largest total size of tensors (alias groups) alive at one op: no plan can
use less. :func:`model_lower_bound` measures the same on the ONNX graph before
lowering (no QUANTIZE/DEQUANTIZE copies, views free), the bound `inspect`
reports the arena against.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import onnx

from bb_edge.bbrt.format import ALIGN, STORE_ARENA, Op, Program, align

#: ONNX ops whose output is a view of their input (same bytes, another shape)
VIEW_OPS = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout"}


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


def aliases(prog: Program) -> dict[int, int]:
    """Alias roots: for every COPY whose input and output are arena tensors of the same byte size,
    the output maps to the root of its input (chains of views share one root)."""
    root: dict[int, int] = {}
    for op in prog.ops:
        if op.opcode != Op.COPY or len(op.inputs) != 1:
            continue
        x, y = prog.tensors[op.inputs[0]], prog.tensors[op.outputs[0]]
        if x.storage == STORE_ARENA and y.storage == STORE_ARENA and x.nbytes == y.nbytes and x.dtype == y.dtype:
            root[op.outputs[0]] = root.get(op.inputs[0], op.inputs[0])
    return root


def merge(intervals: list[Interval], root: dict[int, int]) -> list[Interval]:
    """One interval per alias group (tensor = the root): the union of lifetimes, the largest size."""
    groups: dict[int, Interval] = {}
    for iv in intervals:
        r = root.get(iv.tensor, iv.tensor)
        g = groups.get(r)
        if g is None:
            groups[r] = Interval(r, iv.first, iv.last, iv.size)
        else:
            groups[r] = Interval(r, min(g.first, iv.first), max(g.last, iv.last), max(g.size, iv.size))
    return list(groups.values())


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
    return plan_ordered(intervals, ORDERS[0])


def _apply(prog: Program, ivs: list[Interval], root: dict[int, int], offsets: dict[int, int], size: int) -> None:
    """Write a plan into ``prog``: each planned tensor's offset, each alias at its root's offset, the arena
    size (aligned) and the lower bound of ``ivs`` (one place for :func:`assign` and :func:`assign_training`)."""
    for t, off in offsets.items():
        prog.tensors[t].offset = off
    for t, r in root.items():
        if r in offsets:
            prog.tensors[t].offset = offsets[r] + (prog.views[t][1] if t in prog.views else 0)
    prog.arena_size = align(size)
    prog.arena_lower_bound = lower_bound(ivs)


def assign(prog: Program, live_in: set[int], live_out: set[int], *, alias: bool = True, best: bool = False) -> None:
    """Plan the arena of a program in place (offsets, arena_size, arena_lower_bound).

    With ``alias`` (the default) COPY outputs share their input's bytes (:func:`aliases`). A view of
    ``prog.views`` (tensor -> (base, byte offset)) always shares its base's: placed at the base's offset
    plus its own, alive as long as the base group. ``best``: the smallest of :func:`plan_best`'s orders.
    """
    root = aliases(prog) if alias else {}
    for v, (b, _off) in prog.views.items():  # a view at a byte offset: its base's bytes and lifetime
        root[v] = root.get(b, b)
    ivs = merge(lifetimes(prog, live_in, live_out), root)
    _apply(prog, ivs, root, *(plan_best(ivs) if best else plan(ivs)))


def model_lower_bound(model: onnx.ModelProto, shapes: dict[str, tuple[int, ...]],
                      itemsize: Callable[[str], int], fused: frozenset[str] | set[str] = frozenset()) -> int:
    """The activation lower bound of an ONNX graph, measured before lowering.

    Tensors are the graph's activations (not initializers or Constants), sized
    ``prod(shape) * itemsize(name)`` rounded up to the runtime's 8-byte tensor alignment;
    graph inputs are alive from the start, graph outputs to the end, every other tensor from
    its producer to its last consumer (in node order); view ops (:data:`VIEW_OPS`) share
    their input's storage, and so does an activation applied to a ``fused`` tensor (a Conv/Gemm
    output whose Relu/Clip is folded into the op: one buffer, as in any fusing runtime). The
    result is the largest total alive at one node: the least memory any runtime needs for
    these activations at these element sizes.
    """
    consts = {i.name for i in model.graph.initializer}
    consts |= {n.output[0] for n in model.graph.node if n.op_type == "Constant"}
    nodes = [n for n in model.graph.node if n.op_type != "Constant"]
    root: dict[str, str] = {}
    for n in nodes:
        if n.input and n.input[0] not in consts and (n.op_type in VIEW_OPS or n.input[0] in fused):
            root[n.output[0]] = root.get(n.input[0], n.input[0])
    end = len(nodes)
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    size: dict[str, int] = {}

    def touch(name: str, at: int) -> None:
        if not name or name in consts or name not in shapes:
            return
        r = root.get(name, name)
        n_el = 1
        for d in shapes[name]:
            n_el *= int(d)
        # a fused pre-activation tensor is the activation's buffer: its group takes the activation's size
        size[r] = max(size.get(r, 0), 0 if name in fused else align(n_el * itemsize(name)))
        first[r] = min(first.get(r, at), at)
        last[r] = max(last.get(r, at), at)

    for i in model.graph.input:
        touch(i.name, -1)
    for k, n in enumerate(nodes):
        for name in list(n.input) + list(n.output):
            touch(name, k)
    for o in model.graph.output:
        touch(o.name, end)
    ivs = [Interval(0, first[r], last[r], size[r]) for r in size]
    return lower_bound(ivs)


#: placement orders :func:`plan_best` tries (greedy by size first, as :func:`plan`)
ORDERS: tuple[Callable[[Interval], tuple[int, ...]], ...] = (
    lambda v: (-v.size, v.first, v.tensor),
    lambda v: (-(v.last - v.first), -v.size, v.tensor),
    lambda v: (-v.size * (v.last - v.first + 1), v.tensor),
    lambda v: (v.first, -v.size, v.tensor),
)


def plan_ordered(intervals: list[Interval], key: Callable[[Interval], tuple[int, ...]]) -> tuple[dict[int, int], int]:
    """Like :func:`plan` with the placement order given by ``key``."""
    placed: list[tuple[Interval, int]] = []
    offsets: dict[int, int] = {}
    for iv in sorted(intervals, key=key):
        busy = sorted((off, off + p.size) for p, off in placed if not (p.last < iv.first or iv.last < p.first))
        cand = 0
        for lo, hi in busy:
            if cand + iv.size <= lo:
                break
            cand = max(cand, align(hi, ALIGN))
        offsets[iv.tensor] = cand
        placed.append((iv, cand))
    return offsets, max((off + iv.size for iv, off in placed), default=0)


def plan_best(intervals: list[Interval]) -> tuple[dict[int, int], int]:
    """The smallest of the greedy placements in :data:`ORDERS` (a training step has a few dozen tensors:
    trying four orders costs nothing and the best is often the lower bound)."""
    best = min((plan_ordered(intervals, k) for k in ORDERS), key=lambda r: r[1])
    bound = align(lower_bound(intervals))
    # then seeded random orders (deterministic: the same program always gets the same plan) until one
    # reaches the lower bound
    for seed in range(RANDOM_ORDERS):
        if best[1] <= bound:
            break
        cand = plan_ordered(intervals, _rank_key({iv.tensor: r for r, iv in enumerate(_shuffled(intervals, seed))}))
        if cand[1] < best[1]:
            best = cand
    return best


RANDOM_ORDERS = 200


def _rank_key(rank: dict[int, int]) -> Callable[[Interval], tuple[int, ...]]:
    """A placement key putting tensors in the order ``rank`` gives."""
    return lambda v: (rank[v.tensor],)


def _shuffled(intervals: list[Interval], seed: int) -> list[Interval]:
    """A deterministic pseudo-random permutation (an LCG: no global random state)."""
    out = sorted(intervals, key=lambda v: v.tensor)
    x = seed * 2654435761 + 1
    for i in range(len(out) - 1, 0, -1):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        j = (x >> 33) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def assign_training(prog: Program, persistent: set[int], live_in: set[int], live_out: set[int]) -> None:
    """Plan a training-step program: ``persistent`` tensors (parameters, optimizer state) live the whole
    step and across steps, so each gets bytes of its own; everything else (batch, activations, gradients)
    is planned by lifetime like any intermediate. A COPY never aliases a persistent tensor (its bytes
    must survive the step), other COPYs alias as in :func:`assign`.
    """
    root = {t: r for t, r in aliases(prog).items() if t not in persistent and r not in persistent}
    ivs = merge(lifetimes(prog, live_in | persistent, live_out | persistent), root)
    _apply(prog, ivs, root, *plan_best(ivs))
