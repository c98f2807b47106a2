"""The deployer's own check of a staged rollout's canaries (issue 37): :func:`probe_verifier`.

A canary's CANARY figures are its own word. ``bb-edge deploy --stages`` therefore recomputes each canary's
running program and the update side by side, on seeded requests of the node's contract, and a stage passes
only when these figures pass the operator's limits too (docs/wire.md "Staged rollouts").
"""

from __future__ import annotations

from collections.abc import Callable

from bb_edge.deployment.manifest import Deployment
from bb_edge.engine import ota


def probe_verifier(current: Deployment, updates: list[ota.NodeUpdate], count: int = 8,
                   seed: int = 0) -> Callable[[str], ota.CanaryStats | None]:
    """The deployer's own check of a canary's claim (``OtaDeployer(verify=...)``): it runs the node's running
    program and the update side by side on ``count`` seeded requests of the node's contract (graph inputs and
    received tensors) through the engine's own :meth:`~bb_edge.engine.Engine.evaluate`, and reports the same
    figures a canary does. A node that lies about its drift cannot push an update alone: the stage passes
    only when these figures pass the limits too. None for a node it cannot run (not ONNX, no running program).
    """
    import numpy as np
    import onnx

    from bb_edge.deployment.ports import wire_ports
    from bb_edge.engine import Engine
    from bb_edge.wire.dtypes import CODE_TO_NUMPY

    by_node = {u.node: u for u in updates}
    cache: dict[str, ota.CanaryStats | None] = {}

    def verify(node: str) -> ota.CanaryStats | None:
        u = by_node.get(node)
        if u is None or u.target != ota.TARGET_ONNX or u.previous is None:
            return None
        if node in cache:
            return cache[node]
        old, new = onnx.load_from_string(u.previous), onnx.load_from_string(u.image)
        eng = Engine.for_node(current, node, {node: old}, inline_compute=True)
        eng.install_variant(node, f"{node}@verify", new)
        inits = {i.name for i in old.graph.initializer}
        feeds = [(vi.name, vi.type.tensor_type.elem_type,
                  tuple(d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else 1
                        for d in vi.type.tensor_type.shape.dim)) for vi in old.graph.input if vi.name not in inits]
        feeds += [(p.tensor, onnx.TensorProto.FLOAT if p.quant else p.elem_type,
                   tuple(d if d > 0 else 1 for d in p.shape)) for p in wire_ports(old) if p.op == "Recv"]
        prog = eng.programs[node]
        names = [p.tensor for p in prog.sends] + list(prog.outputs)
        rng = np.random.default_rng(seed)
        drift, nonfinite, errors = 0.0, 0, 0
        for _ in range(count):
            values = {}
            for name, code, shape in feeds:
                dt = np.dtype(CODE_TO_NUMPY[code])
                values[name] = (rng.standard_normal(shape).astype(dt) if np.issubdtype(dt, np.floating)
                                else rng.integers(0, 2, shape).astype(dt))
            try:
                a, b = eng.evaluate(node, values), eng.evaluate(f"{node}@verify", values)
            except Exception:  # noqa: BLE001 - the update failing on a request is what is counted
                errors += 1
                continue
            for name in names:
                x, y = np.asarray(a.get(name)), np.asarray(b.get(name))
                if x.shape != y.shape:
                    errors += 1
                elif np.issubdtype(y.dtype, np.floating) and not np.all(np.isfinite(y)):
                    nonfinite += 1
                elif x.size:
                    scale = float(np.max(np.abs(x)))
                    diff = float(np.max(np.abs(x.astype(np.float64) - y.astype(np.float64))))
                    drift = max(drift, diff / scale if scale > 0 else diff)
        cache[node] = ota.CanaryStats(0, count, nonfinite, errors, drift)
        return cache[node]

    return verify
