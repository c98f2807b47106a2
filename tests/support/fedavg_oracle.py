"""FedAvg recomputed outside every runtime, for fleets that mix client kinds (tests of learning fleets).

Each client's round is ONNX Runtime running the deployment's training program over that client's own
batch order (a Linux client's numpy order, the C client's xorshift32 order, MicroPython's), from the
round's global model with fresh optimizer state; the new global model is the sample-weighted mean of
the deltas. Every client in every round: the oracle of a run whose cohort was whole.

For one round in process (the secure-aggregation and partition tests): each client's plaintext update, the
clients' sizes, the initial parameters and FedAvg's weighted mean.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.learn.mcu_fleet import reference_update, round_batches
from bb_edge.adapters.learn.node import build_engine, load_module, prepare_programs
from bb_edge.deployment.manifest import load_deployment
from bb_edge.learn.aggregators import Mean
from bb_edge.mpy import train as mpy_train
from bb_edge.strategies.base import PROTO_FEDAVG_CLIENT, PROTO_FEDAVG_SERVER, Msg
from bb_edge.training.setup import build_setup
from bb_edge.wire import envelope as wire


def fedavg_recomputed(directory: Path, kinds: dict[str, str]) -> np.ndarray:
    """The final global model of the learning deployment in ``directory``; ``kinds`` maps a client to
    ``"mcu"`` (the C client) or ``"mpy"`` (MicroPython); every other client is a Linux client."""
    module = load_module(load_deployment(directory).extra["learning"], directory)
    return fedavg_rounds(module, kinds, module.rounds)


def fedavg_rounds(module: Any, kinds: dict[str, str], rounds: int | list[int],
                  trained: dict[int, set[str]] | None = None) -> np.ndarray:
    """The global model after ``rounds`` rounds (1..rounds, or the listed rounds: those that completed) of the
    loaded learning ``module``'s fleet, ``kinds`` as for :func:`fedavg_recomputed`; ``trained`` names, per
    round, the clients whose deltas it averaged (default: every client)."""
    prog, cfg, ids = module.setup.program, module.cfg, dict(module.nodes())
    b, e, seed = int(cfg["batch_size"]), int(cfg["epochs"]), int(cfg["seed"])
    vec = prog.layout.flatten(prog.initial_params)
    for r in range(1, rounds + 1) if isinstance(rounds, int) else rounds:
        deltas, weights = [], []
        for name, part in zip(module.clients(), module.setup.parts, strict=True):
            if trained is not None and name not in trained[r]:
                continue
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


def plain_updates(cfg: dict[str, Any], names: list[str], start: np.ndarray, rnd: int = 1) -> dict[str, np.ndarray]:
    """Each named client's plaintext update of round ``rnd`` from ``start``: its plain FedAvg target's UPDATE."""
    plain = {k: v for k, v in cfg.items() if k not in ("secagg", "codec")}
    mod = load_module(plain)
    prepared = prepare_programs(mod)
    ids = dict(mod.nodes())
    out = {}
    for n in names:
        eng = build_engine(mod, n, prepared)
        env = wire.Envelope.for_array(start.astype(np.float32), sender=1, receiver=ids[n], seq=1, request_id=rnd,
                                      edge=int(Msg.MODEL), protocol=PROTO_FEDAVG_CLIENT)
        eng.deliver("server", wire.encode(env))
        sent = [wire.decode(o.data) for o in eng.poll(0.0)]
        upd = [e for e in sent if e.edge == Msg.UPDATE and e.protocol == PROTO_FEDAVG_SERVER]
        assert len(upd) == 1
        out[n] = np.array(upd[0].array(), dtype=np.float64)
    return out


def fedavg_server_rounds(cfg: dict[str, Any], names: list[str], rounds: list[int]) -> np.ndarray:
    """The server's global model after the listed completed ``rounds`` of the whole cohort ``names``, in the
    server's own arithmetic: a float32 model plus the float32 step of the ``mean`` aggregator over the
    updates in node-id order (as FedAvgServer closes a round), so the fleet's model can be held to it exactly
    rather than to a float64 replay whose drift grows with the round numbers' training trajectories."""
    ids = dict(load_module({k: v for k, v in cfg.items() if k not in ("secagg", "codec")}).nodes())
    sizes = client_sizes(cfg)
    order = sorted(names, key=lambda n: ids[n])
    model = initial_params(cfg).astype(np.float32)
    for rnd in rounds:
        ups = plain_updates(cfg, order, model.astype(np.float64), rnd)
        step = Mean().aggregate([ups[n].astype(np.float32) for n in order], [float(sizes[n]) for n in order])
        model = model + np.asarray(step, dtype=np.float32)
    return model.astype(np.float64)


def weighted_mean(updates: dict[str, np.ndarray], sizes: dict[str, int]) -> np.ndarray:
    """FedAvg's rule: the mean of the clients' updates weighted by their example counts."""
    total = sum(sizes[n] for n in updates)
    return np.asarray(sum(sizes[n] * updates[n] for n in updates) / total)


def client_sizes(cfg: dict[str, Any]) -> dict[str, int]:
    """Examples per client (``c0``, ``c1``, ...) of the learning config ``cfg``."""
    setup = build_setup({k: v for k, v in cfg.items() if k != "secagg"})
    return {f"c{i}": len(p.x) for i, p in enumerate(setup.parts)}


def initial_params(cfg: dict[str, Any]) -> np.ndarray:
    """The training program's initial parameters, flattened, in float64."""
    prog = build_setup(cfg).program
    return np.asarray(prog.layout.flatten(prog.initial_params), dtype=np.float64)
