"""A Flower federation with bb-edge clients: stock FedAvg ServerApp, Flower's simulation runtime (Ray).

Run by tests/learn/test_learn_flower.py with the Flower venv's interpreter (``flwr`` pinned, see
.ci/pip-preinstall.sh): ``python tests/learn/flower_driver.py SPEC.json``. SPEC holds the broker URL,
the learning deployment's name, the relays (partition id -> bb-edge client), the Flower Python
clients' shards (.npz: x, y), the initial vector (.npy), the rounds and where to write the final
model. The Flower Python clients train softmax regression with full-batch gradient descent in numpy
(:func:`numpy_train`, which the test recomputes independently).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

STEPS, LR = 5, 0.5


def numpy_train(vec: np.ndarray, x: np.ndarray, y: np.ndarray, classes: int = 10) -> np.ndarray:
    """``STEPS`` full-batch gradient steps of softmax regression; ``vec`` = W (classes x features) then b."""
    f = x.shape[1]
    w = vec[:classes * f].reshape(classes, f).astype(np.float64)
    b = vec[classes * f:].astype(np.float64)
    onehot = np.eye(classes)[y]
    for _ in range(STEPS):
        z = x @ w.T + b
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) / len(x)
        w -= LR * g.T @ x
        b -= LR * g.sum(axis=0)
    return np.concatenate([w.reshape(-1), b]).astype(np.float32)


def main(spec_path: str) -> None:
    """Run the federation the spec describes and save the final model."""
    from flwr.app import ArrayRecord, Context
    from flwr.serverapp import Grid, ServerApp
    from flwr.serverapp.strategy import FedAvg
    from flwr.simulation import run_simulation

    from bb_edge.adapters.learn.flower import BbEdgeRelay, client_app

    spec = json.loads(Path(spec_path).read_text())
    relays = {int(pid): BbEdgeRelay(url=spec["url"], deployment=spec["deployment"], **r)
              for pid, r in spec["relays"].items()}
    shards = {int(pid): dict(np.load(p)) for pid, p in spec["python"].items()}

    def python_train(pid: int, start: np.ndarray, rnd: int) -> tuple[np.ndarray, int]:
        x, y = shards[pid]["x"], shards[pid]["y"]
        return numpy_train(start, x, y), len(x)

    init = np.load(spec["init"]).astype(np.float32)
    nodes = len(relays) + len(shards)
    server = ServerApp()

    @server.main()  # type: ignore[misc]
    def _main(grid: Grid, context: Context) -> None:
        strategy = FedAvg(fraction_train=1.0, fraction_evaluate=0.0, min_train_nodes=nodes,
                          min_available_nodes=nodes)
        result = strategy.start(grid=grid, initial_arrays=ArrayRecord([init]), num_rounds=int(spec["rounds"]))
        final = result.arrays.to_numpy_ndarrays()[0]
        np.save(spec["out"], np.asarray(final, dtype=np.float32))

    run_simulation(server_app=server, client_app=client_app(relays, python_train), num_supernodes=nodes,
                   backend_config={"client_resources": {"num_cpus": 1, "num_gpus": 0.0},
                                   "init_args": {"num_cpus": 2, "include_dashboard": False}})


if __name__ == "__main__":
    main(sys.argv[1])
