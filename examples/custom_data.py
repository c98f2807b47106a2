"""Bring your own data: FedAvg on a fixed synthetic softmax-regression task, checked against numpy exactly.

The task is framework-neutral: 5 features, 3 classes, 360 training rows
split by the user's OWN index partition into 4 clients of unequal size
(30, 60, 110, 160 rows), a separate hold-out set, a one-layer linear model.
Each client runs one full-batch SGD step per round (lr 0.5, no momentum), so
FedAvg with sample-count weights is exactly full-batch gradient descent on
the union, which numpy computes independently here. The run is repeated
with the three ways of giving the data (an .npz plus an index file, a
``FILE.py:function`` loader, per-client shard files each node reads alone)
and every final model must equal numpy's to float32 precision.

    python examples/custom_data.py [--out DIR] [--summary s.json]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

D, K, SIZES, ROUNDS, LR = 5, 3, (30, 60, 110, 160), 6, 0.5


def load() -> dict[str, np.ndarray]:
    """The fixed data set (also the ``custom_data.py:load`` loader of the deployment): train and hold-out."""
    rng = np.random.default_rng(1234)
    w_true = rng.normal(size=(D, K))
    x = rng.normal(size=(sum(SIZES) + 120, D)).astype(np.float32)
    y = np.argmax(x @ w_true + 0.3 * rng.normal(size=(len(x), K)), axis=1).astype(np.int64)
    n = sum(SIZES)
    return {"x": x[:n], "y": y[:n], "x_test": x[n:], "y_test": y[n:]}


def partition(x: np.ndarray, y: np.ndarray, n_clients: int) -> list[np.ndarray]:
    """The user's own partition (also usable as ``"partition": "custom_data.py:partition"``)."""
    perm = np.random.default_rng(7).permutation(len(y))
    cuts = np.cumsum(SIZES)[:-1]
    return [np.sort(p) for p in np.split(perm, cuts)][:n_clients]


def numpy_fedavg(w: np.ndarray, b: np.ndarray, x: np.ndarray, y: np.ndarray,
                 parts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The oracle: ROUNDS rounds of FedAvg (one full-batch step per client, weights = shard sizes), float64.

    ``w`` is (K, D) as the model stores it (Gemm with transB=1).
    """
    w, b = w.astype(np.float64), b.astype(np.float64)
    n = sum(len(p) for p in parts)
    for _ in range(ROUNDS):
        dw, db = np.zeros_like(w), np.zeros_like(b)
        for p in parts:
            xi, yi = x[p].astype(np.float64), y[p]
            z = xi @ w.T + b
            z -= z.max(axis=1, keepdims=True)
            prob = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
            prob[np.arange(len(p)), yi] -= 1.0
            gw, gb = prob.T @ xi / len(p), prob.mean(axis=0)  # mean cross-entropy gradient of the shard
            dw += len(p) / n * (-LR * gw)  # the client's delta, weighted by its sample count
            db += len(p) / n * (-LR * gb)
        w, b = w + dw, b + db
    return w, b


def learning(data: dict[str, Any]) -> dict[str, Any]:
    """The learning config around a ``data`` object."""
    return {"strategy": "fedavg", "clients": len(SIZES), "rounds": ROUNDS, "epochs": 1,
            "batch_size": max(SIZES), "optimizer": {"kind": "sgd", "lr": LR, "momentum": 0.0}, "data": data}


def main() -> int:
    from _common import parser

    from bb_edge.adapters.learn.simulator import simulate
    from bb_edge.learn.data import Subset, write_client_shards
    from bb_edge.training.models import mlp
    from bb_edge.training.setup import build_setup, write_learning_deployment

    args = parser(__doc__).parse_args()
    import json
    import tempfile

    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="bb-custom-"))
    out.mkdir(parents=True, exist_ok=True)
    arrays = load()
    x, y = arrays["x"], arrays["y"]
    parts = partition(x, y, len(SIZES))
    np.savez(out / "train.npz", x=x, y=y)
    np.savez(out / "test.npz", x=arrays["x_test"], y=arrays["y_test"])
    np.savez(out / "parts.npz", **{f"client{i}": p for i, p in enumerate(parts)})
    write_client_shards([Subset(x[p], y[p], p) for p in parts], out)
    here = Path(__file__).resolve()
    forms = {
        "npz + index file": {"source": "train.npz", "test": "test.npz", "partition": {"indices": "parts.npz"}},
        "FILE.py:function": {"source": f"{here}:load", "partition": f"{here}:partition"},
        "per-client shards": {"shards": "shards/client{client}.npz", "test": "test.npz"},
    }
    model = mlp([D, K], seed=3)
    from onnx import numpy_helper
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    want_w, want_b = numpy_fedavg(init["fc0.weight"], init["fc0.bias"], x, y, parts)
    summary: dict[str, Any] = {}
    ok = True
    for name, data in forms.items():
        cfg = learning(data)
        d = out / name.replace(" ", "_").replace(".", "").replace(":", "").replace("+", "and")
        write_learning_deployment(d, cfg, model=model)
        for f in ("train.npz", "test.npz", "parts.npz"):
            (d / f).write_bytes((out / f).read_bytes())
        (d / "shards").mkdir(exist_ok=True)
        for f in (out / "shards").iterdir():
            (d / "shards" / f.name).write_bytes(f.read_bytes())
        res = simulate(cfg, d)
        assert res.model is not None
        got = build_setup(cfg, d).program.layout.unflatten(res.model)  # the vector's layout, by name
        err = max(float(np.abs(got["fc0.weight"] - want_w).max()), float(np.abs(got["fc0.bias"] - want_b).max()))
        same = err <= 1e-5
        ok &= same
        print(f"{name:<20} accuracy {res.final_accuracy:.4f}  max |bb-edge - numpy| = {err:.2e}  "
              f"{'equal' if same else 'DIFFERENT'}")
        summary[name] = {"final_accuracy": res.final_accuracy, "max_abs_error": err,
                         "bytes_per_node": res.bytes_per_node}
    if args.summary:
        Path(args.summary).write_text(json.dumps(summary, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
