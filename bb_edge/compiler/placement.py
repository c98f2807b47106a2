"""Placement: give every op a home node.

Four ways, all returning ``{op name: node name}``:

- :func:`place_by_annotation` reads ``bb.place`` node metadata written by
  ``with on("node"):`` blocks while recording a Module;
- :func:`place_by_map` takes an explicit op -> node map (``"*"`` = default);
- :func:`place_by_cuts` takes the tensors where pipeline stages meet;
- :func:`place_auto` splits into N stages balancing compute and parameter
  bytes under per-node memory limits while minimising bytes crossing cuts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx

from bb_edge.compiler.cost import op_costs, tensor_bytes
from bb_edge.compiler.load import tensor_types
from bb_edge.errors import CrossNodeCycleError, CutNotFoundError, NoFeasiblePlacementError, PlacementError

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
        for x in node.input:
            p = producer_op.get(x)
            if p and p in placed:
                placed[node.name] = placed[p]
                break
    consumers: dict[str, list[str]] = {}
    for node in g.node:
        for x in node.input:
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
        for x in node.input:
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


def place_auto(
    model: onnx.ModelProto,
    n_nodes: int,
    node_names: Sequence[str] | None = None,
    memory_limits: Sequence[int] | None = None,
    compute_weight: float = 0.5,
) -> Placement:
    """Split the op sequence into ``n_nodes`` contiguous stages.

    Minimises bytes crossing the cuts subject to every stage's load (a mix of
    its FLOP share and parameter-byte share) staying within a balance cap, and
    to each stage's parameters + peak activations fitting its memory limit.
    The cap starts at 15 % over a perfect split and is relaxed until a split
    exists; NoFeasiblePlacementError if none does.
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
    load = compute_weight * flops / max(flops.sum(), 1.0) + (1 - compute_weight) * params / max(params.sum(), 1.0)
    cum_load = np.concatenate([[0.0], np.cumsum(load)])
    cum_params = np.concatenate([[0.0], np.cumsum(params)])
    cross, live = _interval_bytes(model)
    limits = list(memory_limits) if memory_limits else [0] * n_nodes
    if n_nodes == 1:
        return {n.name: names[0] for n in g.node}
    cross_n = cross / max(cross.max(), 1.0)
    for tol in (0.15, 0.3, 0.5, 1.0, 2.0, float("inf")):
        cap = (1.0 / n_nodes) * (1 + tol)
        cuts = _dp(L, n_nodes, cum_load, cum_params, live, cross_n, cap, limits)
        if cuts is not None:
            break
    else:
        raise NoFeasiblePlacementError(
            f"no split of {L} ops into {n_nodes} nodes fits the memory limits {limits}; "
            f"add nodes, raise limits or quantize the model"
        )
    placement: Placement = {}
    bounds = [0, *[c + 1 for c in cuts], L]
    for k in range(n_nodes):
        for i in range(bounds[k], bounds[k + 1]):
            placement[g.node[i].name] = names[k]
    return placement


def _interval_bytes(model: onnx.ModelProto) -> tuple[np.ndarray, np.ndarray]:
    """cross[i]: bytes live across a cut after op i; live[i]: bytes live at op i."""
    g = model.graph
    types = tensor_types(model)
    L = len(g.node)
    inits = {i.name for i in g.initializer}
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for i, node in enumerate(g.node):
        for o in node.output:
            first.setdefault(o, i)
        for x in node.input:
            if x and x not in inits:
                first.setdefault(x, i)  # graph inputs start at their first consumer
                last[x] = i
    diff_cross = np.zeros(L + 1)
    diff_live = np.zeros(L + 1)
    for t, p in first.items():
        q = last.get(t, p)
        b = tensor_bytes(*types[t]) if t in types else 0
        diff_live[p] += b
        diff_live[q + 1] -= b
        if q > p:
            diff_cross[p] += b
            diff_cross[q] -= b
    return np.cumsum(diff_cross)[:L], np.cumsum(diff_live)[:L]


def _dp(
    L: int, N: int, cum_load: np.ndarray, cum_params: np.ndarray, live: np.ndarray,
    cross: np.ndarray, cap: float, limits: list[int],
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
                if k == N and b != L:
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
        for x in node.input:
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
