"""Learning deployments: a deployment.json with a top-level ``learning`` object, and what it builds.

``write_learning_deployment(dir, learning, model=None)`` writes
``dir/deployment.json`` (format ``bb-edge/deployment`` v1, an empty node list:
the runner generates the nodes) plus the forward model as ``dir/model.onnx``.
``bb-edge run DIR`` then simulates it (``bb_edge.adapters.learn.simulator``).

The ``learning`` object (every key optional except ``strategy``)::

    {"strategy": "fedavg" | "diloco" | "gossip" | "pushsum" | "split" | "splitfed",
     "model": "model.onnx", "cut": "h0",
     "data": {"source": "digits", "test_fraction": 0.25,
              "partition": {"type": "partition.dirichlet", "alpha": 0.5}},
     "clients": 20, "rounds": 30, "epochs": 1, "local_steps": 0, "batch_size": 16,
     "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9},
     "aggregator": {"type": "mean"}, "codec": null | {"type": "codec.int8"},
     "attack": null | {"type": "attack.alie", "malicious": 5,
                       "knowledge": "colluders" | "omniscient", ...},
     "min_clients": 1, "clients_per_round": 0, "round_timeout": 5.0, "heartbeat": 1.0,
     "period": 1.0, "churn": {"leave": 0.3, "at_round": 10, "late_join": 0.0, "join_round": 5}}

``data.source`` is a bundled set (``digits``, ``iris``, ``breast_cancer``,
``wine``), ``"FILE.npz"`` (``x``, ``y``, optional ``x_test``, ``y_test``),
``"FILE.py:function"`` or a source spec; ``data.test`` an explicit hold-out;
``data.partition`` a partitioner spec, ``{"indices": "parts.npz" | [[...]]}``
or ``"FILE.py:function"`` (called with ``x, y, n_clients``); ``data.shards``
(``"shards/client{client}.npz"``) per-client files, each node reading only its
own. Paths are relative to the deployment directory. ``sample_cap``
(``"partition"``, the default, or an integer) bounds the sample count a
FedAvg client may claim. ``heartbeat`` is the shortest interval
between a client's heartbeats: a fleet sends its server at most
``heartbeat_rate`` heartbeats/s (default 100), so 1,000 clients beat every 10 s
(:func:`fleet_heartbeat`). FedAvg also takes ``"reask"`` (seconds into a round at which the server
sends its MODEL again to silent cohort clients; default half the
``round_timeout``, 0 never), ``"blocked": [client, ...]`` and
``"sharing": {client: "rw" | "ro" | "wo" | "off"}`` (the server refuses a
blocked client's JOIN and a leech's updates) and ``"secagg": {"threshold": t,
"frac_bits": 24}`` (secure aggregation with dropout recovery,
:mod:`bb_edge.strategies.secagg`).

Component specs are ``{"type": <type_id>, **config}`` (nested components as
``{"$component": type_id, "config": {...}}``).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from bb_edge.deployment.manifest import Deployment
from bb_edge.learn.data import Subset, load_arrays, load_client_shard, partition_from_spec, train_test_split
from bb_edge.learn.roles import ConfigError
from bb_edge.training.cache import load_program, program_key
from bb_edge.training.optim import SGD, Adam
from bb_edge.training.program import SoftmaxCrossEntropy, TrainingProgram
from bb_edge.training.runtime import ForwardRunner

if TYPE_CHECKING:  # the builders need onnx (~0.6 s with ml_dtypes): a node with a cached program never loads them
    import onnx

    from bb_edge.training.split import SplitPrograms

__all__ = ["write_learning_deployment", "fleet_heartbeat", "HEARTBEAT_RATE", "optimizer", "LearningSetup",
           "build_setup", "load_data", "load_forward", "cache_key", "DEFAULTS"]

DEFAULTS: dict[str, Any] = {
    "model": "model.onnx", "cut": "h0", "clients": 10, "rounds": 10, "epochs": 1, "local_steps": 0,
    "batch_size": 16, "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9},
    "data": {"source": "digits", "test_fraction": 0.25, "partition": {"type": "partition.iid"}},
    "aggregator": {"type": "mean"}, "codec": None, "attack": None, "min_clients": 1, "clients_per_round": 0,
    "round_timeout": 5.0, "heartbeat": 1.0, "period": 1.0, "churn": {}, "seed": 0,
}


#: heartbeats per second the whole fleet sends its server at most, unless ``heartbeat_rate`` says otherwise
HEARTBEAT_RATE = 100.0


def fleet_heartbeat(cfg: dict[str, Any]) -> float:
    """The seconds between two heartbeats of each client: ``heartbeat``, stretched to ``clients / heartbeat_rate``.

    Why: the server and its broker read every heartbeat (and an unanswered client's JOIN retries ride on it).
    1,000 clients at 2 s sent a clustered broker 500 messages/s, each a write replicated to three members,
    and the rounds' MODEL and UPDATE traffic queued behind them (issue 35). Every client and the server's
    liveness detector take this one value from the deployment, so all three clients (Python, C, MicroPython)
    follow it without anything new on the wire.
    """
    rate = float(cfg.get("heartbeat_rate", HEARTBEAT_RATE))
    if not rate > 0:
        raise ConfigError(f"heartbeat_rate must be > 0 heartbeats/s, not {cfg.get('heartbeat_rate')!r}")
    return max(float(cfg["heartbeat"]), int(cfg["clients"]) / rate)


def write_learning_deployment(directory: str | Path, learning: dict[str, Any],
                              model: onnx.ModelProto | None = None, name: str = "learning") -> Path:
    """Write ``deployment.json`` (with ``learning``) and ``model.onnx`` (default: a 64-32-10 MLP)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    cfg = dict(learning)
    if "strategy" not in cfg:
        raise ConfigError("a learning deployment needs a 'strategy'")
    cfg.setdefault("model", "model.onnx")
    import onnx

    from bb_edge.training.models import mlp

    onnx.save(model if model is not None else mlp([64, 32, 10], seed=int(cfg.get("seed", 0))), str(d / cfg["model"]))
    dep = Deployment(name=name, nodes=[], edges=[], inputs=[], outputs=[], extra={"learning": cfg})
    return dep.save(d)


def optimizer(spec: dict[str, Any]) -> Any:
    """SGD or Adam from ``{"kind": "sgd"|"adam", "lr": ..., ...}``."""
    kw = {k: v for k, v in spec.items() if k != "kind"}
    kind = spec.get("kind", "sgd")
    if kind == "sgd":
        return SGD(**kw)
    if kind == "adam":
        return Adam(**kw)
    raise ConfigError(f"unknown optimizer {kind!r}; use sgd or adam")


@dataclass
class LearningSetup:
    """Everything a learning run shares: config, forward model, training program, data, evaluator."""

    cfg: dict[str, Any]
    program: TrainingProgram
    parts: list[Subset]
    x_test: np.ndarray
    y_test: np.ndarray
    #: the three programs of a ``split`` / ``splitfed`` run (client forward, client step, server step)
    split: SplitPrograms | None = None
    #: the forward model's file (``learning.model``); a built-in 64-32-10 MLP when there is none
    model_path: Path | None = None

    @functools.cached_property
    def forward(self) -> onnx.ModelProto:
        """The forward model, read on first use (a node running a cached program never needs it)."""
        return load_forward(self.model_path, int(self.cfg["seed"]))

    @functools.cached_property
    def runner(self) -> ForwardRunner:
        """The held-out evaluator, built on first use: only a node that evaluates (a server, a gossip peer)
        pays for its ONNX Runtime session (about 9 MB in each FedAvg client process, issue 40)."""
        return ForwardRunner(self.forward)

    def accuracy(self, params: np.ndarray | dict[str, np.ndarray]) -> float:
        """Held-out accuracy of a parameter vector (or dict) of the forward model."""
        return self.runner.accuracy(self.x_test, self.y_test, params)


def build_setup(learning: dict[str, Any], directory: str | Path | None = None, clients: int | None = None,
                seed: int | None = None, only_client: int | None = None,
                program_cache: str | Path | None = None) -> LearningSetup:
    """Resolve defaults, load the model, build the training program and partition the data.

    ``only_client`` (with ``data.shards``): read only that client's shard
    file, the other clients' subsets are empty (a real node's view).
    ``program_cache``: a training program saved by :func:`bb_edge.training.cache.save_program`, used
    instead of building one when it was built from this model, loss and optimizer (split strategies
    always build: their three programs are cut from the forward model).
    """
    cfg = {**DEFAULTS, **learning}
    if clients is not None:
        cfg["clients"] = int(clients)
    if seed is not None:
        cfg["seed"] = int(seed)
    cfg["heartbeat"] = fleet_heartbeat(cfg)  # what every client is built with and the server's liveness expects
    path = Path(directory or ".") / cfg["model"]
    key = cache_key(cfg, directory) if program_cache is not None else None
    program = load_program(program_cache, key) if program_cache is not None and key is not None else None
    forward = None
    if program is None:
        from bb_edge.training.step import build_training_step

        forward = load_forward(path, int(cfg["seed"]))
        program = build_training_step(forward, None, SoftmaxCrossEntropy(), optimizer(cfg["optimizer"]))
    split = None
    if cfg["strategy"] in ("split", "splitfed"):
        from bb_edge.training.split import SplitPrograms

        assert forward is not None  # split strategies are never cached (cache_key)
        split = SplitPrograms(forward, str(cfg["cut"]), SoftmaxCrossEntropy(), optimizer(cfg["optimizer"]))
    parts, xte, yte = load_data(cfg, directory, only_client=only_client)
    setup = LearningSetup(cfg, program, parts, xte, yte, split, path)
    if forward is not None:
        setup.__dict__["forward"] = forward  # read already: the cached property keeps it
    return setup


def load_forward(path: Path | None, seed: int) -> onnx.ModelProto:
    """The forward model at ``path``, or the built-in 64-32-10 MLP (seeded) when there is no such file."""
    import onnx

    from bb_edge.training.models import mlp

    if path is not None and path.is_file():
        return onnx.load(str(path))
    return mlp([64, 32, 10], seed=seed)


def cache_key(cfg: dict[str, Any], directory: str | Path | None = None) -> str | None:
    """The :func:`~bb_edge.training.cache.program_key` of a resolved config's training program; ``None``
    when it cannot be cached (no model file, or a split strategy)."""
    path = Path(directory or ".") / cfg["model"]
    if cfg["strategy"] in ("split", "splitfed") or not path.is_file():
        return None
    return program_key(path.read_bytes(), SoftmaxCrossEntropy(), optimizer(cfg["optimizer"]))


def load_data(cfg: dict[str, Any], directory: str | Path | None = None,
              only_client: int | None = None) -> tuple[list[Subset], np.ndarray, np.ndarray]:
    """Per-client subsets and the hold-out arrays of a resolved learning config (see the module docstring).

    The hold-out is ``data.test`` if given, else the ``x_test``/``y_test`` the
    source carries, else a stratified ``test_fraction`` split of the source.
    With ``data.shards`` every client reads only its own shard file.
    """
    data = cfg.get("data") or {}
    if not isinstance(data, dict):
        raise ConfigError(f"'data' must be an object, got {type(data).__name__}")
    data = {**DEFAULTS["data"], **data}
    seed = int(cfg.get("seed", 0))
    n_parts = 1 if cfg["strategy"] == "split" else int(cfg["clients"])
    test_spec = data.get("test")
    if data.get("shards") is not None:
        if test_spec is None:
            raise ConfigError('"shards" needs a hold-out: add "test": "test.npz" (or FILE.py:function)')
        xte, yte, _ = load_arrays(test_spec, directory)
        if only_client is not None and not 0 <= only_client < n_parts:
            raise ConfigError(f"client {only_client} is not one of the {n_parts} clients")
        empty = Subset(np.zeros((0,) + xte.shape[1:], np.float32), np.zeros(0, yte.dtype), np.zeros(0, np.int64))
        parts = [load_client_shard(str(data["shards"]), i, directory) if only_client in (None, i) else empty
                 for i in range(n_parts)]
        return parts, xte, yte
    x, y, carried = load_arrays(data.get("source", "digits"), directory)
    if test_spec is not None:
        xtr, ytr = x, y
        xte, yte, _ = load_arrays(test_spec, directory)
    elif carried is not None:
        (xtr, ytr), (xte, yte) = (x, y), carried
    else:
        xtr, ytr, xte, yte = train_test_split(x, y, float(data.get("test_fraction", 0.25)), seed=seed)
    if xte.shape[1:] != xtr.shape[1:]:
        raise ConfigError(f"hold-out features {xte.shape[1:]} differ from training features {xtr.shape[1:]}")
    parts = partition_from_spec(data.get("partition") or {"type": "partition.iid"}, xtr, ytr, n_parts, seed,
                                directory)
    return parts, xte, yte


def dump(cfg: dict[str, Any]) -> str:
    """The config as stable JSON (for summaries)."""
    return json.dumps(cfg, sort_keys=True, default=str)
