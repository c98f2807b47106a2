"""Patch-based execution of a program's first stages (as MCUNetV2): a rewrite of the lowered program.

The leading ops of an int8 program (CONV_I8 of any group, ADD_I8) up to a stage output ``Y`` are
repeated once per horizontal band of ``Y``'s rows. Each band computes, for every tensor of the stage,
only the rows its consumers need (the halo of each conv recomputed by the neighbouring bands), so
the arena holds one band's intermediates at a time instead of the full-size maps:

- a conv's band gets its pads per band: the top pad only where its rows start at the top of the map,
  the bottom pad only where they reach its bottom (``pt' = pt + lo_in - lo_out*s``, ``pb'`` what makes
  the output rows come out), so every output pixel is the same arithmetic on the same bytes and the
  result is bit-exact with the unpatched program;
- the stage input, when NHWC (a graph input read in place, CONV_I8 p15 = 1), is read per band as a
  view at a byte offset of the input (rows of an NHWC map are contiguous: no copy); an NCHW input,
  or a band tensor a consumer needs fewer rows of (ResNet's shortcut into ADD_I8), is sliced by a
  GATHER_AXES copy;
- the bands of ``Y`` (NCHW: a row band is not contiguous) are joined by one CONCAT along H.

The runtime needs nothing new: a view is a tensor record whose offset lies inside its base's bytes
(:attr:`bb_edge.bbrt.format.Program.views`, placed by the planner), the loader checks every tensor
against the arena as before, and the C runtime, the host build and MicroPython run the program as any
other. :func:`patch_for_budget` picks the stage end and band count with the fewest extra
multiply-accumulates whose planned arena is within a budget; builds call it only when a node does not
fit its target's RAM (docs/bbrt.md "Patch-based execution").
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from bb_edge.bbrt import planner
from bb_edge.bbrt.format import DT_INT8, DT_INT32, RECV, SEND, STORE_ARENA, STORE_CONST, Op, OpRecord, Program, Tensor
from bb_edge.bbrt.lower import Lowered
from bb_edge.bbrt.lower_ops import gather_table

MAX_BANDS = 8  # one CONCAT joins the bands: at most 8 inputs (MAX_OP_IN)
STAGE_OPS = (Op.CONV_I8, Op.ADD_I8)


@dataclass(frozen=True)
class Patched:
    """One patched program: the stage's last op (exclusive end index), the bands and the figures."""

    program: Program
    end: int
    bands: int
    macs: int  # multiply-accumulates of the whole program after patching
    base_macs: int  # ... and before
    renumber: dict[int, int]  # tensor indices of the unpatched program -> the patched one's (those kept)

    @property
    def overhead(self) -> float:
        """Extra multiply-accumulates of the halos, as a fraction of the unpatched program's."""
        return self.macs / self.base_macs - 1.0 if self.base_macs else 0.0


def _nchw(prog: Program, op: OpRecord, t: int) -> tuple[int, int, int]:
    """(C, H, W) of input ``t`` of ``op`` (an NHWC input of a conv with p15 = 1 transposed back)."""
    s = prog.tensors[t].shape
    if op.opcode == Op.CONV_I8 and len(op.params) > 15 and op.params[15] == 1 and op.inputs[0] == t:
        return s[3], s[1], s[2]
    return s[1], s[2], s[3]


def conv_macs(prog: Program, op: OpRecord) -> int:
    """Multiply-accumulates of one CONV_I8 (output elements x input channels per group x kernel area)."""
    w = prog.tensors[op.inputs[1]].shape
    return prog.tensors[op.outputs[0]].count * w[1] * w[2] * w[3]


def program_macs(prog: Program) -> int:
    """Multiply-accumulates of a program's CONV_I8 ops."""
    return sum(conv_macs(prog, op) for op in prog.ops if op.opcode == Op.CONV_I8)


def _stage_ok(prog: Program, end: int, live_out: set[int]) -> int | None:
    """The stage input if ops [0, end) are a patchable stage: CONV_I8 (dilation 1) and ADD_I8 of rank-4
    int8 tensors, one external arena input, every inner tensor read only inside, the last op's output
    the only tensor read after it. None otherwise."""
    ops = prog.ops[:end]
    if not ops or any(op.opcode not in STAGE_OPS for op in ops):
        return None
    made = {op.outputs[0] for op in ops}
    ext = set()
    for op in ops:
        if op.opcode == Op.CONV_I8 and (op.params[6] != 1 or op.params[7] != 1):
            return None
        acts = op.inputs[:1] if op.opcode == Op.CONV_I8 else op.inputs
        for t in acts:
            if t not in made:
                ext.add(t)
        for t in op.inputs[1:] if op.opcode == Op.CONV_I8 else ():
            if prog.tensors[t].storage != STORE_CONST:
                return None
        if any(len(prog.tensors[t].shape) != 4 or prog.tensors[t].dtype != DT_INT8 for t in acts + op.outputs):
            return None
        if op.opcode == Op.ADD_I8 and any(prog.tensors[t].shape != prog.tensors[op.outputs[0]].shape for t in acts):
            return None  # a broadcast ADD: its rows are not the output's
    y = ops[-1].outputs[0]
    later = {t for op in prog.ops[end:] for t in op.inputs}
    if len(ext) != 1 or (made - {y}) & (later | live_out) or prog.tensors[y].shape[2] < 2:
        return None
    (x,) = ext
    return x if prog.tensors[x].storage == STORE_ARENA else None


def _need(prog: Program, op: OpRecord, rows: tuple[int, int], t: int) -> tuple[int, int]:
    """Rows of input ``t`` that output rows ``rows`` of ``op`` read."""
    if op.opcode == Op.ADD_I8:
        return rows
    h = _nchw(prog, op, t)[1]
    s, pt, kh = op.params[0], op.params[2], prog.tensors[op.inputs[1]].shape[2]
    return max(0, rows[0] * s - pt), min(h, (rows[1] - 1) * s - pt + kh)


def _rows(prog: Program, end: int, x: int, lo: int, hi: int) -> dict[int, tuple[int, int]]:
    """Rows of each stage tensor (and of the input ``x``) that output rows [lo, hi) of the stage need."""
    y = prog.ops[end - 1].outputs[0]
    rows: dict[int, tuple[int, int]] = {y: (lo, hi)}
    for op in reversed(prog.ops[:end]):
        r = rows.get(op.outputs[0])
        if r is None:
            continue
        acts = op.inputs[:1] if op.opcode == Op.CONV_I8 else op.inputs
        for t in acts:
            a, b = _need(prog, op, r, t)
            old = rows.get(t)
            rows[t] = (a, b) if old is None else (min(old[0], a), max(old[1], b))
    return rows


def patch(prog: Program, live_in: set[int], live_out: set[int], end: int,
          bands: int) -> tuple[Program, dict[int, int]] | None:
    """The program with ops [0, end) run in ``bands`` bands of the stage output's rows (not yet planned) and
    the renumbering of the tensors it kept (old index -> new), or None when the stage is not patchable
    (see :func:`_stage_ok`) or a view would break the 8-byte alignment."""
    x = _stage_ok(prog, end, live_out)
    if x is None:
        return None
    y = prog.ops[end - 1].outputs[0]
    yt = prog.tensors[y]
    h = yt.shape[2]
    if not 2 <= bands <= min(MAX_BANDS, h):
        return None
    cuts = [h * k // bands for k in range(bands + 1)]
    tensors = [copy.copy(t) for t in prog.tensors]
    views: dict[int, tuple[int, int]] = {}
    ops: list[OpRecord] = []
    outs: list[int] = []
    readers = [op for op in prog.ops[:end] if x in op.inputs]
    nhwc = [op.opcode == Op.CONV_I8 and len(op.params) > 15 and op.params[15] == 1 for op in readers]
    x_nhwc = any(nhwc)
    if x_nhwc and not all(nhwc):
        return None

    def band(t: int, r: tuple[int, int], tag: str) -> int:
        src = prog.tensors[t]
        shape = list(src.shape)
        shape[1 if t == x and x_nhwc else 2] = r[1] - r[0]
        tensors.append(Tensor(f"{src.name}@{tag}", src.dtype, tuple(shape), STORE_ARENA, 0, src.scale,
                              src.zero_point))
        return len(tensors) - 1

    def rows_of(t: int, have: tuple[int, int], held: int, want: tuple[int, int], k: int) -> int:
        """A tensor holding rows ``want`` of ``t`` from its band ``held`` (rows ``have``): itself, or a
        GATHER_AXES slice."""
        if have == want:
            return held
        n, c, _hh, w = tensors[held].shape
        out = band(t, want, f"b{k}r{want[0]}")
        tab = gather_table([np.arange(n), np.arange(c), np.arange(want[0] - have[0], want[1] - have[0]),
                            np.arange(w)])
        tensors.append(Tensor(f"{prog.tensors[t].name}@b{k}r{want[0]}__rows", DT_INT32, tab.shape, STORE_CONST,
                              data=tab))
        ops.append(OpRecord(Op.GATHER_AXES, [held, len(tensors) - 1], [out], [0], f"patch b{k} rows"))
        return out

    for k in range(bands):
        rows = _rows(prog, end, x, cuts[k], cuts[k + 1])
        held: dict[int, int] = {}
        rx = rows[x]
        if x_nhwc:  # a view of the input's rows: no copy
            xs = prog.tensors[x].shape
            off = rx[0] * xs[2] * xs[3]  # int8 NHWC: a row is W*C bytes
            if off % 8:
                return None
            held[x] = band(x, rx, f"b{k}")
            views[held[x]] = (x, off)
        else:
            held[x] = rows_of(x, (0, prog.tensors[x].shape[2]), x, rx, k)
        for op in prog.ops[:end]:
            ro = rows.get(op.outputs[0])
            if ro is None:  # an output the stage's output does not need
                return None
            new = copy.copy(op)
            new.params = list(op.params)
            new.name = f"{op.name}@b{k}"
            if op.opcode == Op.CONV_I8:
                t = op.inputs[0]
                want = _need(prog, op, ro, t)
                xin = rows_of(t, rows[t], held[t], want, k) if not (t == x and x_nhwc) else held[t]
                if t == x and x_nhwc and want != rx:
                    return None  # an NHWC input read with different rows by two convs: not handled
                s, pt, kh = op.params[0], op.params[2], prog.tensors[op.inputs[1]].shape[2]
                top = pt + want[0] - ro[0] * s
                bottom = (ro[1] - ro[0] - 1) * s + kh - (want[1] - want[0]) - top
                if top < 0 or bottom < 0 or top > pt or bottom > op.params[4]:
                    return None
                new.params[2], new.params[4] = top, bottom
                new.inputs = [xin, *op.inputs[1:]]
            else:
                new.inputs = [rows_of(t, rows[t], held[t], ro, k) for t in op.inputs]
            held[op.outputs[0]] = band(op.outputs[0], ro, f"b{k}")
            new.outputs = [held[op.outputs[0]]]
            ops.append(new)
        outs.append(held[y])
    ops.append(OpRecord(Op.CONCAT, outs, [y], [2], f"patch concat {yt.name}"))
    ops += [copy.copy(op) for op in prog.ops[end:]]
    out = Program(prog.node_id, tensors, ops, [copy.copy(e) for e in prog.edges])
    out.views = views
    return out, _drop_unused(out, live_in, live_out)


def _drop_unused(prog: Program, live_in: set[int], live_out: set[int]) -> dict[int, int]:
    """Remove tensors no op, edge or view reads (the stage's full-size maps), renumbering in place."""
    used = {t for op in prog.ops for t in op.inputs + op.outputs} | {e.tensor for e in prog.edges}
    used |= live_in | live_out | set(prog.views) | {b for b, _ in prog.views.values()}
    keep = [i for i in range(len(prog.tensors)) if i in used]
    new = {old: i for i, old in enumerate(keep)}
    prog.tensors = [prog.tensors[i] for i in keep]
    for op in prog.ops:
        op.inputs = [new[t] for t in op.inputs]
        op.outputs = [new[t] for t in op.outputs]
    for e in prog.edges:
        e.tensor = new[e.tensor]
    prog.views = {new[v]: (new[b], off) for v, (b, off) in prog.views.items()}
    return new


def _io(prog: Program) -> tuple[set[int], set[int]]:
    """(Recv tensors, Send tensors) of a program: the planner's live-in and live-out."""
    return ({e.tensor for e in prog.edges if e.direction == RECV},
            {e.tensor for e in prog.edges if e.direction == SEND})


def candidates(prog: Program) -> list[Patched]:
    """Every patchable (stage end, band count) of a program, planned, with its figures."""
    live_in, live_out = _io(prog)
    base = program_macs(prog)
    out = []
    for end in range(1, len(prog.ops) + 1):
        if _stage_ok(prog, end, live_out) is None:
            if prog.ops[end - 1].opcode not in STAGE_OPS:
                break
            continue
        for bands in range(2, MAX_BANDS + 1):
            got = patch(prog, live_in, live_out, end, bands)
            if got is None:
                continue
            p, renumber = got
            planner.assign(p, *_io(p))
            out.append(Patched(p, end, bands, program_macs(p), base, renumber))
    return out


def patch_for_budget(prog: Program, budget: int) -> Patched | None:
    """The patched program with the fewest extra multiply-accumulates whose arena is at most ``budget``
    bytes (then the smallest arena), or None when no stage/band count gets there. A candidate whose
    greedy plan misses the budget but whose lower bound meets it is re-planned with
    :func:`bb_edge.bbrt.planner.plan_best`."""
    for c in sorted(candidates(prog), key=lambda c: (c.macs, c.program.arena_size, c.bands)):
        if c.program.arena_size > budget and c.program.arena_lower_bound <= budget:
            planner.assign(c.program, *_io(c.program), best=True)
        if c.program.arena_size <= budget:
            return c
    return None


def patch_lowered(L: Lowered, budget: int) -> Lowered | None:
    """A copy of a lowered program patched to an arena of at most ``budget`` bytes
    (:func:`patch_for_budget`; tensor indices renumbered, the blob re-serialized, the unpatched
    ``model_lower_bound`` kept to report against), or None when patching cannot get there."""
    if L.precision != "int8":
        return None
    got = patch_for_budget(L.program, budget)
    if got is None:
        return None
    out = copy.copy(L)
    out.program = got.program
    out.blob = got.program.to_bytes()
    out.index = {k: got.renumber[v] for k, v in L.index.items() if v in got.renumber}
    out.float_index = {k: got.renumber[v] for k, v in L.float_index.items() if v in got.renumber}
    out.ops_used = set(L.ops_used) | {op.opcode for op in got.program.ops}
    out.patch = {"stage_ops": got.end, "bands": got.bands, "macs": got.macs, "unpatched_macs": got.base_macs,
                 "unpatched_arena": L.program.arena_size}
    return out
