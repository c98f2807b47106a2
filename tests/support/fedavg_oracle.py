"""FedAvg recomputed outside every runtime, for fleets that mix client kinds (tests of learning fleets).

Each client's round is ONNX Runtime running the deployment's training program over that client's own
batch order (a Linux client's numpy order, the C client's xorshift32 order, MicroPython's), from the
round's global model with fresh optimizer state; the new global model is the sample-weighted mean of
the deltas. Every client in every round: the oracle of a run whose cohort was whole.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bb_edge.adapters.learn.mcu_fleet import reference_update, round_batches
from bb_edge.adapters.learn.node import load_module
from bb_edge.deployment.manifest import load_deployment
from bb_edge.mpy import train as mpy_train


def fedavg_recomputed(directory: Path, kinds: dict[str, str]) -> np.ndarray:
    """The final global model of the learning deployment in ``directory``; ``kinds`` maps a client to
    ``"mcu"`` (the C client) or ``"mpy"`` (MicroPython); every other client is a Linux client."""
    module = load_module(load_deployment(directory).extra["learning"], directory)
    prog, cfg, ids = module.setup.program, module.cfg, dict(module.nodes())
    b, e, seed = int(cfg["batch_size"]), int(cfg["epochs"]), int(cfg["seed"])
    vec = prog.layout.flatten(prog.initial_params)
    for r in range(1, module.rounds + 1):
        deltas, weights = [], []
        for name, part in zip(module.clients(), module.setup.parts, strict=True):
            x, y, n = part.x.reshape(len(part.x), -1), part.y, len(part.x)
            if kinds.get(name) == "mcu":  # xorshift32 Fisher-Yates, full batches (bbrt_learn_batch_order)
                batches = round_batches(n, b, e, 0, seed, ids[name], r)
            elif kinds.get(name) == "mpy":
                batches = mpy_train.batch_order(n, batch_size=b, epochs=e, seed=seed, node_id=ids[name], rnd=r)
            else:  # FedAvgClient: default_rng([seed, node id, round]), a permutation per epoch
                rng = np.random.default_rng([seed, ids[name], r])
                batches = [o[i:i + b] for o in (rng.permutation(n) for _ in range(e)) for i in range(0, n, b)]
            deltas.append(reference_update(prog, vec, x, y, batches))
            weights.append(n)
        vec = (vec + np.average(np.stack(deltas), axis=0, weights=weights)).astype(np.float32)
    return vec
