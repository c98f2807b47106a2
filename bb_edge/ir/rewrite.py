"""ONNX graph rewrites shared by compile (folding after ``--input-shape``) and the model converters.

An ``If`` whose condition is a constant (after pinning, a batch-size check usually is) is replaced by the
branch it always takes, so that no later pass sees a control-flow op that is not one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
from onnx import helper, numpy_helper


def constant_value(node: onnx.NodeProto) -> np.ndarray | None:
    """The value of a Constant node from whichever value attribute it carries; None for other forms."""
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        if a.name == "value":
            return np.asarray(numpy_helper.to_array(v))
        if a.name in ("value_float", "value_floats"):
            return np.array(v, np.float32)
        if a.name in ("value_int", "value_ints"):
            return np.array(v, np.int64)
    return None


def constant_values(g: onnx.GraphProto) -> dict[str, np.ndarray]:
    """Every value of ``g`` known without running it: initializers and Constant outputs (decodable ones)."""
    out = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    for n in g.node:
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            v = constant_value(n)
            if v is not None:
                out[n.output[0]] = v
    return out


def rename_reads(g: onnx.GraphProto, rn: Callable[[str], str]) -> None:
    """Rename, in place, the enclosing-scope values a subgraph (and graphs nested in it) reads."""
    for n in g.node:
        ins = [rn(x) if x else x for x in n.input]
        del n.input[:]
        n.input.extend(ins)
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                rename_reads(a.g, rn)
            elif a.type == onnx.AttributeProto.GRAPHS:
                for sub in a.graphs:
                    rename_reads(sub, rn)
    for o in g.output:
        o.name = rn(o.name)


def inline_static_ifs(model: onnx.ModelProto) -> onnx.ModelProto:
    """The model with every top-level If whose condition is a constant replaced by its taken branch.

    The branch's own values get the If's name as a prefix (reads of them in graphs nested in the branch
    are renamed too); its outputs become Identity nodes writing the If's outputs, so readers are
    unchanged. Repeats until no such If is left (an inlined branch may hold another). Returns ``model``
    itself when there is nothing to inline, a new model otherwise. Values are unchanged: the branch is
    what ONNX Runtime would run.
    """
    consts = constant_values(model.graph)
    if not any(n.op_type == "If" and n.domain in ("", "ai.onnx") and n.input[0] in consts
               for n in model.graph.node):
        return model
    m = onnx.ModelProto()
    m.CopyFrom(model)
    nodes: list[onnx.NodeProto] = []
    for k, n in enumerate(model.graph.node):
        if n.op_type != "If" or n.domain not in ("", "ai.onnx") or n.input[0] not in consts:
            nodes.append(n)
            continue
        cond = bool(np.asarray(consts[n.input[0]]).reshape(-1)[0])
        branch = next(helper.get_attribute_value(a) for a in n.attribute
                      if a.name == ("then_branch" if cond else "else_branch"))
        prefix = f"{n.name or f'if{k}'}/"
        produced = {o for bn in branch.node for o in bn.output if o} | {t.name for t in branch.initializer}
        # a branch output its nodes compute takes the If output's name (no Identity); others get an Identity
        node_made = {o for bn in branch.node for o in bn.output if o}
        outs = [(bo.name, no) for bo, no in zip(branch.output, n.output) if no]
        counts = {b: sum(b == x for x, _ in outs) for b, _ in outs}
        direct = {b: no for b, no in outs if b in node_made and counts[b] == 1}

        def rn(x: str, produced: set[str] = produced, prefix: str = prefix,
               direct: dict[str, str] = direct) -> str:
            return direct.get(x) or (prefix + x if x in produced else x)
        for t in branch.initializer:
            t2 = onnx.TensorProto()
            t2.CopyFrom(t)
            t2.name = rn(t.name)
            m.graph.initializer.append(t2)
        for j, bn in enumerate(branch.node):
            b2 = onnx.NodeProto()
            b2.CopyFrom(bn)
            b2.name = prefix + (bn.name or f"{bn.op_type}_{j}")
            del b2.input[:], b2.output[:]
            b2.input.extend(rn(x) if x else x for x in bn.input)
            b2.output.extend(rn(x) if x else x for x in bn.output)
            for a in b2.attribute:  # a nested If/Loop/Scan reads the renamed values too
                if a.type == onnx.AttributeProto.GRAPH:
                    rename_reads(a.g, rn)
            nodes.append(b2)
        for bo, no in zip(branch.output, n.output):
            if no and bo.name not in direct:
                nodes.append(helper.make_node("Identity", [rn(bo.name)], [no], name=f"{prefix}out/{no}"))
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    return inline_static_ifs(m)
