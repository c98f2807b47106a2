"""Placement: give every op a home node.

Four ways, all returning ``{op name: node name}``:

- :func:`place_by_annotation` reads ``bb.place`` node metadata written by
  ``with on("node"):`` blocks while recording a Module;
- :func:`place_by_map` takes an explicit op -> node map (``"*"`` = default);
- :func:`place_by_cuts` takes the tensors where pipeline stages meet;
- :func:`place_auto` splits into N stages balancing compute under per-node
  memory limits while minimising bytes crossing cuts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import onnx

from bb_edge.compiler.budgets import NodeBudget, StageFit
from bb_edge.compiler.cost import op_costs, tensor_bytes
from bb_edge.compiler.load import is_qdq, tensor_types, unknown_rank
from bb_edge.deployment.ports import node_reads
from bb_edge.errors import CrossNodeCycleError, CutNotFoundError, NoFeasiblePlacementError, PlacementError
from bb_edge.wire.envelope import CODE_TO_NUMPY

PLACE_KEY = "bb.place"
Placement = dict[str, str]


def default_names(n: int) -> list[str]:
    """Node names used when the caller gives none: n0, n1, ..."""
    return [f"n{i}" for i in range(n)]


def annotation(node: onnx.NodeProto) -> str | None:
    """The ``bb.place`` metadata of an op, if any."""
    for p in node.metadata_props:
        if p.key == PLACE_KEY:
            return p.value
    return None


def place_by_annotation(model: onnx.ModelProto, default: str | None = None) -> Placement:
    """Placement from ``bb.place`` metadata; unannotated ops follow their producers.

    An op with no annotation takes the node of its first annotated input's
    producer, else of its first annotated consumer, else ``default``.
    """
    g = model.graph
    placed: Placement = {}
    producer_op = {o: n.name for n in g.node for o in n.output}
    for node in g.node:
        a = annotation(node)
        if a:
            placed[node.name] = a
            continue
        for x in node_reads(node):
            p = producer_op.get(x)
            if p and p in placed:
                placed[node.name] = placed[p]
                break
    consumers: dict[str, list[str]] = {}
    for node in g.node:
        for x in node_reads(node):
            consumers.setdefault(x, []).append(node.name)
    for node in reversed(g.node):
        if node.name in placed:
            continue
        for o in node.output:
            for c in consumers.get(o, []):
                if c in placed:
                    placed[node.name] = placed[c]
                    break
            if node.name in placed:
                break
    missing = [n.name for n in g.node if n.name not in placed]
    if missing:
        if default is None:
            raise PlacementError(
                f"{len(missing)} ops have no placement (e.g. {missing[:3]}): annotate them with "
                f"`with on('node'):` in the Module, or compile with --nodes N / --cut / --place"
            )
        for m in missing:
            placed[m] = default
    return placed


def place_by_map(model: onnx.ModelProto, mapping: dict[str, str]) -> Placement:
    """Placement from an explicit op-name -> node map; ``"*"`` sets the default node."""
    names = [n.name for n in model.graph.node]
    unknown = sorted(set(mapping) - set(names) - {"*"})
    if unknown:
        raise PlacementError(f"placement names ops the model does not have: {unknown[:5]}; op names: {names[:5]}...")
    default = mapping.get("*")
    missing = [n for n in names if n not in mapping and default is None]
    if missing:
        raise PlacementError(
            f"placement is missing {len(missing)} ops (e.g. {missing[:3]}); add them or a \"*\" default"
        )
    return {n: mapping.get(n, default or "") for n in names}


def place_by_cuts(model: onnx.ModelProto, cuts: Sequence[str], node_names: Sequence[str] | None = None) -> Placement:
    """Pipeline placement from cut tensors: stage k+1 starts after the k-th cut tensor.

    Every op's stage is the largest stage of its inputs, where a cut tensor
    advances the stage of its consumers by one.
    """
    g = model.graph
    known = {o for n in g.node for o in n.output} | {i.name for i in g.input}
    for c in cuts:
        if c not in known:
            close = sorted(known, key=lambda k: (c not in k, len(k)))[:3]
            raise CutNotFoundError(
                f"cut tensor {c!r} is not produced by any op or graph input; nearby names: {close}. "
                f"List tensors with `bb-edge inspect MODEL.onnx --tensors`."
            )
    cutset = set(cuts)
    stage_of: dict[str, int] = {i.name: 0 for i in g.input}
    for i in g.initializer:
        stage_of[i.name] = 0
    op_stage: dict[str, int] = {}
    for node in g.node:
        s = 0
        for x in node_reads(node):
            if not x:
                continue
            base = stage_of.get(x, 0)
            s = max(s, base + (1 if x in cutset else 0))
        op_stage[node.name] = s
        for o in node.output:
            stage_of[o] = s
    n_stages = max(op_stage.values(), default=0) + 1
    names = list(node_names) if node_names else default_names(n_stages)
    if len(names) < n_stages:
        raise PlacementError(f"cuts make {n_stages} stages but only {len(names)} node names were given")
    used = sorted(set(op_stage.values()))
    if len(used) != len(cuts) + 1:
        raise PlacementError(
            f"{len(cuts)} cut tensors gave {len(used)} non-empty stages; cut tensors must lie on "
            f"one path through the model, in order (got {list(cuts)})"
        )
    remap = {s: i for i, s in enumerate(used)}
    return {op: names[remap[s]] for op, s in op_stage.items()}


#: Documented balance: every stage's share of the compute stays within this
#: fraction over a perfect split (docs/architecture.md, "Loading and placement").
BALANCE_CAP = 0.15


@dataclass
class AutoPlacement:
    """What automatic placement chose and why: per-node compute shares and any balance warnings."""

    placement: Placement
    shares: list[float]  # each node's share of the model's FLOPs, in node order
    cap: float  # the share every node had to stay within
    warnings: list[str] = field(default_factory=list)
    #: with budgets: per node, the estimates placement checked (flash, ram, ram_unpatched, budgets)
    estimates: list[dict[str, object]] = field(default_factory=list)


def place_auto(
    model: onnx.ModelProto,
    n_nodes: int,
    node_names: Sequence[str] | None = None,
    memory_limits: Sequence[int] | None = None,
) -> Placement:
    """Split the op sequence into ``n_nodes`` contiguous stages (see :func:`place_auto_report`)."""
    return place_auto_report(model, n_nodes, node_names, memory_limits).placement


def place_auto_report(
    model: onnx.ModelProto,
    n_nodes: int,
    node_names: Sequence[str] | None = None,
    memory_limits: Sequence[int] | None = None,
    budgets: Sequence[NodeBudget | None] | None = None,
    together: Sequence[tuple[int, int]] = (),
) -> AutoPlacement:
    """Split the op sequence into ``n_nodes`` contiguous stages, balanced in compute.

    Minimises bytes crossing the cuts subject to every stage's FLOP share
    staying within :data:`BALANCE_CAP` over a perfect split (1/N), and to each
    stage's parameters + peak activations fitting its memory limit. When no
    split can meet the cap (one op is larger than it, or the ops are too
    coarse), the cap becomes the best achievable bottleneck and a warning says
    why; memory limits relax it further, stepwise. NoFeasiblePlacementError if
    nothing fits. Tensors of unknown rank or of a dtype the wire cannot carry
    are never cut.

    ``budgets`` (from target profiles, bb_edge.compiler.budgets) replace
    ``memory_limits``: each stage's program estimate must fit its node's flash
    budget and its arena estimate + transmit buffer its RAM budget; a split
    that cannot fit is a FitError saying by how many bytes the best split is
    over, on which node.

    ``together``: op index ranges ``(first, last)`` never cut (a state pair's ops, bb_edge.compiler.state).
    """
    g = model.graph
    L = len(g.node)
    names = list(node_names) if node_names else default_names(n_nodes)
    if n_nodes < 1 or n_nodes > L:
        raise NoFeasiblePlacementError(f"cannot split {L} ops into {n_nodes} nodes")
    if len(names) != n_nodes:
        raise PlacementError(f"{n_nodes} nodes but {len(names)} names")
    costs = op_costs(model)
    flops = np.array([c.flops for c in costs], dtype=np.float64)
    params = np.array([c.param_bytes for c in costs], dtype=np.float64)
    share = flops / flops.sum() if flops.sum() > 0 else np.full(L, 1.0 / L)
    cum_load = np.concatenate([[0.0], np.cumsum(share)])
    cum_params = np.concatenate([[0.0], np.cumsum(params)])
    cross, live, forbidden = _interval_bytes(model)
    for first, last in together:
        forbidden[first:last] = True
    cross_raw = cross.copy()
    limits = list(memory_limits) if memory_limits else [0] * n_nodes
    fit = StageFit(model, budgets, params, live, cross_raw) if budgets and any(budgets) else None
    if budgets is not None and len(budgets) != n_nodes:
        raise PlacementError(f"{n_nodes} nodes but {len(budgets)} budgets")
    if n_nodes == 1 and fit is None:
        return AutoPlacement({n.name: names[0] for n in g.node}, [1.0], 1.0)
    blocks = _blocks(share, forbidden)
    if len(blocks) < n_nodes:
        raise NoFeasiblePlacementError(
            f"cannot split {L} ops into {n_nodes} nodes: only {len(blocks) - 1} places to cut (tensors of unknown "
            f"rank or of a dtype the wire cannot carry never cross nodes); use fewer nodes")
    if fit is not None:
        flat, zeros = np.zeros(L + 1), np.zeros(L)
        fit.check(n_nodes, names, lambda slack: _dp(L, n_nodes, flat, cum_params, live, zeros, float("inf"),
                                                    [0] * n_nodes, forbidden, fit, slack))
    documented = (1.0 + BALANCE_CAP) / n_nodes
    best = _min_bottleneck(blocks, n_nodes)
    warnings: list[str] = []
    if best > documented + 1e-12:
        warnings.append(_why_unbalanced(g, share, blocks, best, documented, n_nodes, together))
    cap = max(documented, best) * (1 + 1e-9)
    cross_n = cross / max(cross.max(), 1.0)
    cuts = None
    for relax in (1.0, 1.3, 1.5, 2.0, 3.0, float("inf")):
        cuts = _dp(L, n_nodes, cum_load, cum_params, live, cross_n, cap * relax, limits, forbidden, fit)
        if cuts is not None:
            if relax > 1.0:
                what = "target budgets" if fit else f"memory limits {limits}"
                warnings.append(
                    f"the {what} leave no split within {cap:.0%} of the compute per node; "
                    f"the cap was relaxed to {min(cap * relax, 1.0):.0%} (raise the limits or add nodes)")
                cap = min(cap * relax, 1.0)
            break
    if cuts is None:
        raise NoFeasiblePlacementError(
            f"no split of {L} ops into {n_nodes} nodes fits the memory limits {limits}; "
            f"add nodes, raise limits or quantize the model"
        )
    placement: Placement = {}
    bounds = [0, *[c + 1 for c in cuts], L]
    shares = []
    for k in range(n_nodes):
        shares.append(float(cum_load[bounds[k + 1]] - cum_load[bounds[k]]))
        for i in range(bounds[k], bounds[k + 1]):
            placement[g.node[i].name] = names[k]
    estimates = [fit.estimate(k, bounds[k], bounds[k + 1]) for k in range(n_nodes)] if fit else []
    return AutoPlacement(placement, shares, cap, warnings, estimates)


def _blocks(share: np.ndarray, forbidden: np.ndarray) -> list[tuple[int, int, float]]:
    """Maximal op runs ``(first, last, share)`` that no allowed cut divides."""
    out: list[tuple[int, int, float]] = []
    start = 0
    for i in range(len(share)):
        if i == len(share) - 1 or not forbidden[i]:
            out.append((start, i, float(share[start:i + 1].sum())))
            start = i + 1
    return out


def _stages_needed(blocks: list[tuple[int, int, float]], cap: float) -> int:
    """Fewest contiguous stages with every stage's share <= cap (greedy is optimal for this)."""
    count, acc = 1, 0.0
    for _, _, b in blocks:
        if b > cap:
            return len(blocks) + 1
        if acc + b > cap:
            count, acc = count + 1, b
        else:
            acc += b
    return count


def _min_bottleneck(blocks: list[tuple[int, int, float]], n: int) -> float:
    """Smallest achievable largest-stage share over splits into ``n`` contiguous stages (bisection)."""
    lo = max(b for _, _, b in blocks)
    hi = max(lo, sum(b for _, _, b in blocks))
    if _stages_needed(blocks, lo) <= n:
        return lo
    for _ in range(60):
        mid = (lo + hi) / 2
        if _stages_needed(blocks, mid) <= n:
            hi = mid
        else:
            lo = mid
    return hi


def _why_unbalanced(g: onnx.GraphProto, share: np.ndarray, blocks: list[tuple[int, int, float]],
                    best: float, documented: float, n: int, together: Sequence[tuple[int, int]] = ()) -> str:
    """One sentence on why no split meets the documented cap."""
    head = (f"automatic placement cannot keep every node within {BALANCE_CAP:.0%} of an even split "
            f"({documented:.1%} of the compute each for {n} nodes)")
    big = int(np.argmax(share))
    if share[big] > documented:
        op = g.node[big]
        return (f"{head}: op {op.name!r} ({op.op_type}) alone is {share[big]:.1%} of the compute and runs whole "
                f"on one node; the busiest node gets {best:.1%}. Use fewer nodes or place by hand (--place)")
    first, last, b = max(blocks, key=lambda t: t[2])
    if b > documented:
        why = ("keep a state pair (--state) on one node" if any(a < last and b_ > first for a, b_ in together)
               else "pass a tensor that cannot cross nodes (unknown rank or a dtype the wire cannot carry)")
        return (f"{head}: ops {g.node[first].name!r}..{g.node[last].name!r} ({b:.1%} of the compute) {why}, "
                f"so they stay together; use fewer nodes or place by hand (--place)")
    return (f"{head}: the ops are too coarse for {n} contiguous stages, the best split puts {best:.1%} on "
            f"one node. Use fewer nodes or a cut list (--cut)")


def _interval_bytes(model: onnx.ModelProto) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """cross[i]: bytes live across a cut after op i; live[i]: bytes live at op i; forbidden[i]: no cut there.

    A cut after op i is forbidden when a tensor no edge can carry (unknown rank, or a
    dtype the wire has no code for) is live across it.
    """
    g = model.graph
    types = tensor_types(model)
    L = len(g.node)
    inits = {i.name for i in g.initializer}
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for i, node in enumerate(g.node):
        for o in node.output:
            first.setdefault(o, i)
        for x in node_reads(node):
            if x and x not in inits:
                first.setdefault(x, i)  # graph inputs start at their first consumer
                last[x] = i
    diff_cross = np.zeros(L + 1)
    diff_live = np.zeros(L + 1)
    diff_forbid = np.zeros(L + 1)
    # tensors no edge can carry: rank unknown, or a dtype the wire has no code for (bfloat16, strings)
    stuck = unknown_rank(model) | {t for t, (et, _) in types.items() if et not in CODE_TO_NUMPY}
    # a QDQ model: float tensors are the float view of int8 data inside a DequantizeLinear -> op ->
    # QuantizeLinear group, which the int8 runtimes never hold; a cut falls on the int8 tensors only
    qdq_float = {t for t, (et, _) in types.items() if et == onnx.TensorProto.FLOAT} if is_qdq(model) else set()
    stuck |= qdq_float
    if qdq_float:  # an int8 tensor stays live through its DequantizeLinear -> op -> QuantizeLinear group
        reach = {t: last.get(t, first.get(t, 0)) for t in qdq_float}
        for node in reversed(g.node):
            ends = [reach[o] for o in node.output if o in reach]
            for x in node_reads(node):
                if x in reach and ends:
                    reach[x] = max(reach[x], *ends)
        for node in g.node:
            if node.op_type == "DequantizeLinear" and node.input[0] in last and node.output[0] in reach:
                last[node.input[0]] = max(last[node.input[0]], reach[node.output[0]])
    for t, p in first.items():
        q = last.get(t, p)
        b = tensor_bytes(*types[t]) if t in types and t not in qdq_float else 0
        diff_live[p] += b
        diff_live[q + 1] -= b
        if q > p:
            diff_cross[p] += b
            diff_cross[q] -= b
            if t in stuck:
                diff_forbid[p] += 1
                diff_forbid[q] -= 1
    return np.cumsum(diff_cross)[:L], np.cumsum(diff_live)[:L], np.cumsum(diff_forbid)[:L] > 0


def _dp(
    L: int, N: int, cum_load: np.ndarray, cum_params: np.ndarray, live: np.ndarray,
    cross: np.ndarray, cap: float, limits: list[int], forbidden: np.ndarray, fit: StageFit | None = None,
    slack: int = 0,
) -> list[int] | None:
    """Cut positions (after op index) minimising total normalised cross bytes, or None."""
    inf = float("inf")
    # best[k][j]: min cost placing ops 0..j-1 into k stages; arg for backtracking
    best = np.full((N + 1, L + 1), inf)
    arg = np.full((N + 1, L + 1), -1, dtype=np.int64)
    best[0][0] = 0.0
    # running max of live bytes over [a, b) via sparse lookup is cheap enough with a loop per a
    for k in range(1, N + 1):
        lim = limits[k - 1]
        for a in range(k - 1, L):
            if best[k - 1][a] == inf:
                continue
            base = best[k - 1][a] + (cross[a - 1] if a > 0 else 0.0)
            peak = 0.0
            for b in range(a + 1, L + 1):  # stage = ops a..b-1
                if cum_load[b] - cum_load[a] > cap + 1e-12:
                    break
                peak = max(peak, live[b - 1])
                if lim and (cum_params[b] - cum_params[a]) + peak > lim:
                    break
                if (k == N and b != L) or (b != L and forbidden[b - 1]):
                    continue
                if fit is not None:
                    over = fit.over(k - 1, a, b, peak, slack)
                    if over > 0:
                        break
                    if over < 0:
                        continue
                if base < best[k][b]:
                    best[k][b] = base
                    arg[k][b] = a
    if best[N][L] == inf:
        return None
    cuts: list[int] = []
    j = L
    for k in range(N, 0, -1):
        a = int(arg[k][j])
        if k > 1:
            cuts.append(a - 1)
        j = a
    return sorted(cuts)


def check_no_cross_node_cycle(model: onnx.ModelProto, placement: Placement) -> None:
    """Raise CrossNodeCycleError if data flows A -> B -> ... -> A between nodes."""
    g = model.graph
    producer = {o: placement[n.name] for n in g.node for o in n.output}
    edges: dict[str, set[str]] = {}
    for node in g.node:
        dst = placement[node.name]
        for x in node_reads(node):
            src = producer.get(x)
            if src and src != dst:
                edges.setdefault(src, set()).add(dst)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(u: str) -> None:
        state[u] = 1
        stack.append(u)
        for v in sorted(edges.get(u, ())):
            if state.get(v) == 1:
                cyc = stack[stack.index(v):] + [v]
                raise CrossNodeCycleError(
                    f"placement sends data around a cycle of nodes {' -> '.join(cyc)}; a node would "
                    f"wait on its own output. Move the ops between these nodes onto one node, or use "
                    f"a cut list (pipeline stages never form cycles)."
                )
            if v not in state:
                visit(v)
        stack.pop()
        state[u] = 2

    for u in sorted(edges):
        if u not in state:
            visit(u)
