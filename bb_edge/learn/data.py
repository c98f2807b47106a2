"""Data sources and partitioners (implementations of :class:`~bb_edge.learn.roles.DataSource`).

:class:`SklearnSource` loads the small data sets scikit-learn bundles (digits, iris,
breast_cancer, wine), from copies shipped inside bb-edge (``bb_edge/_data``:
``digits.npz``, ``tabular.npz``; values identical to scikit-learn's loaders, which
are not needed: nothing is imported or downloaded).
Partitioners split label vectors into per-client index arrays, seeded:

* :class:`IIDPartitioner`: a shuffled even split;
* :class:`DirichletPartitioner`: for each class, client proportions drawn from
  Dirichlet(alpha) (small alpha = strongly non-IID), re-drawn until every client
  holds at least ``min_size`` samples;
* :class:`ShardPartitioner`: sort by label, cut into ``n * shards_per_client``
  shards, deal ``shards_per_client`` shards to each client (McMahan et al.).

Bring your own data (the ``data`` object of a learning deployment, paths
relative to the deployment directory; see docs/learning.md):

* :class:`NpzSource` (``"source": "train.npz"``): arrays ``x``, ``y`` and
  optionally ``x_test``, ``y_test``;
* :class:`CallableSource` (``"source": "mydata.py:load"``): a function
  returning ``(x, y)``, ``(x, y, x_test, y_test)`` or a dict with those keys;
* an explicit hold-out (``"test": "test.npz"`` or ``"FILE.py:function"``);
* a per-client index partition (``"partition": {"indices": "parts.npz"}``,
  ``"FILE.py:function"`` or a JSON list of index lists), validated;
* per-client shard files (``"shards": "shards/client{client}.npz"``): each
  node loads only its own file (:func:`load_client_shard`);
  :func:`write_client_shards` writes them from any of the forms above.
"""

from __future__ import annotations

import abc
import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from bb_edge.learn.roles import Component, ConfigError, register

__all__ = [
    "ArraySource", "SklearnSource", "IIDPartitioner", "DirichletPartitioner", "ShardPartitioner",
    "Subset", "train_test_split", "SKLEARN_DATASETS", "NpzSource", "CallableSource", "load_callable",
    "source_from_spec", "load_arrays", "partition_from_spec", "write_client_shards", "load_client_shard",
    "bundled_dataset",
]

SKLEARN_DATASETS = ("digits", "iris", "breast_cancer", "wine")


@register
@dataclass
class ArraySource(Component):
    """In-memory arrays (kept as state, so the snapshot carries the data)."""

    type_id: ClassVar[str] = "data.arrays"
    x: Any = None
    y: Any = None

    def __post_init__(self) -> None:
        self.x = np.asarray(self.x, dtype=np.float32)
        y = np.asarray(self.y)
        # class labels stay int64; float targets (regression, with the MSE loss) stay float32
        self.y = y.astype(np.float32) if y.dtype.kind == "f" else y.astype(np.int64)
        if len(self.x) != len(self.y):
            raise ConfigError(f"x has {len(self.x)} rows but y has {len(self.y)}")

    def get_config(self) -> dict[str, Any]:
        """Empty: the arrays travel in the state."""
        return {"x": [], "y": []}

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """The arrays."""
        return {}, {"x": self.x, "y": self.y}

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Features and labels."""
        return self.x, self.y


@register
@dataclass
class SklearnSource(Component):
    """One of scikit-learn's bundled data sets; features scaled to [0, 1] per column when ``scale``."""

    type_id: ClassVar[str] = "data.sklearn"
    name: str = "digits"
    scale: bool = True

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Features (float32) and labels (int64)."""
        if self.name not in SKLEARN_DATASETS:
            raise ConfigError(f"unknown data set {self.name!r}; bundled ones: {SKLEARN_DATASETS}")
        x, y = bundled_dataset(self.name)
        if self.scale:
            lo, hi = x.min(axis=0), x.max(axis=0)
            x = (x - lo) / np.where(hi > lo, hi - lo, 1.0)
        return x.astype(np.float32), y


def bundled_dataset(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Raw features (float64, as scikit-learn's ``load_NAME().data``) and labels (int64) of a bundled set."""
    from bb_edge.resources import package_data

    d = package_data("_data")
    if name == "digits":
        with np.load(d / "digits.npz", allow_pickle=False) as z:
            return z["images"].reshape(len(z["labels"]), -1).astype(np.float64), z["labels"].astype(np.int64)
    with np.load(d / "tabular.npz", allow_pickle=False) as z:
        return z[f"{name}_data"].astype(np.float64), z[f"{name}_target"].astype(np.int64)


@dataclass
class Subset:
    """A view of a source restricted to ``indices`` (what one client holds)."""

    x: np.ndarray
    y: np.ndarray
    indices: np.ndarray

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Features and labels of the subset."""
        return self.x, self.y

    def __len__(self) -> int:
        return len(self.y)


def train_test_split(
    x: np.ndarray, y: np.ndarray, test_fraction: float = 0.25, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stratified split into ``(x_train, y_train, x_test, y_test)``."""
    rng = np.random.default_rng(seed)
    test: list[np.ndarray] = []
    for c in np.unique(y):
        idx = rng.permutation(np.nonzero(y == c)[0])
        test.append(idx[: int(round(test_fraction * len(idx)))])
    te = np.sort(np.concatenate(test))
    mask = np.ones(len(y), dtype=bool)
    mask[te] = False
    return x[mask], y[mask], x[te], y[te]


class _Partitioner(Component, abc.ABC):
    """Base of the partitioners: :meth:`split` is theirs, :meth:`subsets` shared."""

    @abc.abstractmethod
    def split(self, y: np.ndarray, n_clients: int) -> list[np.ndarray]:
        """Per-client index arrays (sorted)."""

    def subsets(self, x: np.ndarray, y: np.ndarray, n_clients: int) -> list[Subset]:
        """Per-client :class:`Subset` views of ``(x, y)``."""
        return [Subset(x[i], y[i], i) for i in self.split(y, n_clients)]


@register
@dataclass
class IIDPartitioner(_Partitioner):
    """Shuffled near-even split."""

    type_id: ClassVar[str] = "partition.iid"
    seed: int = 0

    def split(self, y: np.ndarray, n_clients: int) -> list[np.ndarray]:
        """Per-client index arrays."""
        perm = np.random.default_rng(self.seed).permutation(len(y))
        return [np.sort(p) for p in np.array_split(perm, n_clients)]


@register
@dataclass
class DirichletPartitioner(_Partitioner):
    """Label-skewed split with per-class Dirichlet(alpha) client proportions."""

    type_id: ClassVar[str] = "partition.dirichlet"
    alpha: float = 0.5
    seed: int = 0
    min_size: int = 10
    max_tries: int = 1000
    tries: int = field(default=0, init=False)

    def split(self, y: np.ndarray, n_clients: int) -> list[np.ndarray]:
        """Per-client index arrays; raises ConfigError if ``min_size`` cannot be met."""
        rng = np.random.default_rng(self.seed)
        classes = np.unique(y)
        if self.min_size * n_clients > len(y):
            raise ConfigError(f"{len(y)} samples cannot give {n_clients} clients {self.min_size} each")
        for attempt in range(1, self.max_tries + 1):
            parts: list[list[int]] = [[] for _ in range(n_clients)]
            for c in classes:
                idx = rng.permutation(np.nonzero(y == c)[0])
                p = rng.dirichlet(np.full(n_clients, self.alpha))
                cuts = (np.cumsum(p) * len(idx)).astype(int)[:-1]
                for k, chunk in enumerate(np.split(idx, cuts)):
                    parts[k].extend(int(i) for i in chunk)
            if min(len(p) for p in parts) >= self.min_size:
                self.tries = attempt
                return [np.sort(np.asarray(p, dtype=np.int64)) for p in parts]
        raise ConfigError(f"Dirichlet(alpha={self.alpha}) split did not reach min_size={self.min_size}")


@register
@dataclass
class ShardPartitioner(_Partitioner):
    """Sort by label, cut into shards, give each client ``shards_per_client`` random shards."""

    type_id: ClassVar[str] = "partition.shards"
    shards_per_client: int = 2
    seed: int = 0

    def split(self, y: np.ndarray, n_clients: int) -> list[np.ndarray]:
        """Per-client index arrays."""
        rng = np.random.default_rng(self.seed)
        order = np.argsort(y, kind="stable")
        shards = np.array_split(order, n_clients * self.shards_per_client)
        deal = rng.permutation(len(shards))
        return [np.sort(np.concatenate([shards[j] for j in deal[k::n_clients]])) for k in range(n_clients)]


# ---------------------------------------------------------------------------
# bring your own data
# ---------------------------------------------------------------------------

_FIX = ('use a bundled name (digits, iris, breast_cancer, wine), "FILE.npz" (arrays x, y, optional '
        'x_test, y_test), "FILE.py:function" (returning (x, y) or (x, y, x_test, y_test)), or a spec '
        '{"type": "data.npz", "path": ...} / {"type": "data.arrays", "x": [[...]], "y": [...]}')


def _resolve(path: str | Path, directory: str | Path | None) -> Path:
    p = Path(path)
    return p if p.is_absolute() or directory is None else Path(directory) / p


def load_callable(ref: str, directory: str | Path | None = None) -> Callable[..., Any]:
    """The function named by ``"FILE.py:function"`` (FILE relative to ``directory``); ConfigError if missing."""
    file, sep, name = ref.rpartition(":")
    if not sep or not file.endswith(".py") or not name.isidentifier():
        raise ConfigError(f"{ref!r} is not FILE.py:function")
    path = _resolve(file, directory)
    if not path.is_file():
        raise ConfigError(f"{ref!r}: no file {path}")
    mod_name = f"_bb_edge_user_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise ConfigError(f"{ref!r}: cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module  # dataclasses and pickling in the user's file need it registered
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's file failing to import is a config problem, typed
        raise ConfigError(f"{ref!r}: importing {path} failed: {type(exc).__name__}: {exc}") from exc
    fn = getattr(module, name, None)
    if not callable(fn):
        raise ConfigError(f"{ref!r}: {path} has no function {name!r}")
    return fn  # type: ignore[no-any-return]


def _as_xy(x: Any, y: Any, what: str) -> tuple[np.ndarray, np.ndarray]:
    try:
        src = ArraySource(x, y)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{what}: x and y must be numeric arrays of equal length ({exc})") from exc
    if src.x.ndim < 2 or len(src.x) == 0:
        raise ConfigError(f"{what}: x must be a non-empty (samples, features...) array, got shape {src.x.shape}")
    if not np.isfinite(src.x).all():
        raise ConfigError(f"{what}: x holds NaN or Inf")
    return src.x, src.y


def _split_result(res: Any, what: str) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """``(x, y, test)`` from a tuple of 2 or 4 arrays or a mapping with x, y[, x_test, y_test]."""
    if hasattr(res, "keys"):
        keys = set(res.keys())
        if not {"x", "y"} <= keys:
            raise ConfigError(f"{what}: needs arrays 'x' and 'y' (has {sorted(keys)})")
        test = None
        if {"x_test", "y_test"} <= keys:
            test = _as_xy(res["x_test"], res["y_test"], what + " (x_test, y_test)")
        x, y = _as_xy(res["x"], res["y"], what)
        return x, y, test
    if isinstance(res, tuple | list) and len(res) in (2, 4):
        x, y = _as_xy(res[0], res[1], what)
        return x, y, (_as_xy(res[2], res[3], what + " (test)") if len(res) == 4 else None)
    raise ConfigError(f"{what}: must give (x, y), (x, y, x_test, y_test) or a dict with those keys, "
                      f"got {type(res).__name__}")


@register
@dataclass
class NpzSource(Component):
    """Arrays ``x``, ``y`` (and optionally ``x_test``, ``y_test``) from an ``.npz`` file."""

    type_id: ClassVar[str] = "data.npz"
    path: str = ""
    directory: str | None = None

    def load(self) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
        """Train arrays and the optional hold-out pair."""
        p = _resolve(self.path, self.directory)
        if not p.is_file():
            raise ConfigError(f"data file {p} not found")
        try:
            with np.load(p, allow_pickle=False) as z:
                return _split_result({k: z[k] for k in z.files}, str(p))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{p} is not a readable .npz without pickles: {exc}") from exc

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Features and labels."""
        x, y, _ = self.load()
        return x, y


@register
@dataclass
class CallableSource(Component):
    """Arrays from a user function ``"FILE.py:function"`` (called with no arguments)."""

    type_id: ClassVar[str] = "data.callable"
    ref: str = ""
    directory: str | None = None

    def load(self) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
        """Train arrays and the optional hold-out pair."""
        fn = load_callable(self.ref, self.directory)
        try:
            res = fn()
        except Exception as exc:  # the user's loader failing is reported, typed, with its message
            raise ConfigError(f"{self.ref}() failed: {type(exc).__name__}: {exc}") from exc
        return _split_result(res, self.ref)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Features and labels."""
        x, y, _ = self.load()
        return x, y


def source_from_spec(spec: Any, directory: str | Path | None = None) -> Any:
    """A data source from a deployment's ``"source"`` (or ``"test"``) value; ConfigError saying the fix."""
    d = None if directory is None else str(directory)
    if isinstance(spec, str):
        if spec in SKLEARN_DATASETS:
            return SklearnSource(spec)
        if spec.endswith(".npz"):
            return NpzSource(spec, d)
        if ".py:" in spec:
            return CallableSource(spec, d)
        if spec.startswith("data."):
            raise ConfigError(f'"source": {spec!r} is a component type, which needs its config: '
                              f'write {{"type": {spec!r}, ...}}; or {_FIX}')
        raise ConfigError(f"unknown data set {spec!r}; {_FIX}")
    if isinstance(spec, dict):
        from bb_edge.learn.roles import create

        kind = spec.get("type")
        if not isinstance(kind, str):
            raise ConfigError(f"data source spec needs a 'type': {spec!r}; {_FIX}")
        cfg = {k: v for k, v in spec.items() if k != "type"}
        if kind in ("data.npz", "data.callable"):
            cfg.setdefault("directory", d)
        try:
            src = create(kind, **cfg)
        except TypeError as exc:  # wrong keys for the component: say which it takes
            raise ConfigError(f"data source {kind!r}: {exc}; {_FIX}") from exc
        if not hasattr(src, "arrays"):
            raise ConfigError(f"{kind!r} is not a data source (no arrays()); {_FIX}")
        return src
    raise ConfigError(f"data source must be a string or a spec object, got {type(spec).__name__}; {_FIX}")


def load_arrays(spec: Any, directory: str | Path | None = None) -> tuple[
        np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """``(x, y, test)`` of a source spec (``test`` is None unless the source carries a hold-out)."""
    src = source_from_spec(spec, directory)
    if hasattr(src, "load"):
        return src.load()  # type: ignore[no-any-return]
    x, y = src.arrays()
    return _as_xy(x, y, str(spec)) + (None,)


def _check_parts(parts: Any, n_rows: int, n_clients: int, what: str) -> list[np.ndarray]:
    if not isinstance(parts, Sequence | np.ndarray) or isinstance(parts, str | bytes):
        raise ConfigError(f"{what}: must give a list of per-client index arrays, got {type(parts).__name__}")
    if len(parts) != n_clients:
        raise ConfigError(f"{what}: {len(parts)} index arrays for {n_clients} clients")
    out: list[np.ndarray] = []
    for i, p in enumerate(parts):
        arr = np.asarray(p)
        if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
            raise ConfigError(f"{what}: client {i}'s indices must be a 1-D integer array, got {arr.dtype} "
                              f"{arr.shape}")
        arr = arr.astype(np.int64)
        if arr.size == 0:
            raise ConfigError(f"{what}: client {i} gets no samples")
        if arr.min() < 0 or arr.max() >= n_rows:
            raise ConfigError(f"{what}: client {i} has indices outside 0..{n_rows - 1}")
        out.append(arr)
    return out


def partition_from_spec(spec: Any, x: np.ndarray, y: np.ndarray, n_clients: int, seed: int,
                        directory: str | Path | None = None) -> list[Subset]:
    """Per-client subsets of the (user's) train arrays from a deployment's ``"partition"`` value.

    A partitioner spec (``{"type": "partition.dirichlet", ...}``), the user's
    own indices (``{"indices": "parts.npz"}``: arrays ``client0``,
    ``client1``, ... or ``0``, ``1``, ...; ``{"indices": [[...], ...]}``), or
    ``"FILE.py:function"`` called as ``function(x, y, n_clients)``.
    """
    what = f"partition {spec!r}"[:120]
    if isinstance(spec, str) and ".py:" in spec:
        fn = load_callable(spec, directory)
        try:
            parts = fn(x, y, n_clients)
        except Exception as exc:  # a failing user partitioner is typed, with its message
            raise ConfigError(f"{spec}(x, y, {n_clients}) failed: {type(exc).__name__}: {exc}") from exc
        idx = _check_parts(parts, len(y), n_clients, what)
    elif isinstance(spec, dict) and "indices" in spec:
        ind = spec["indices"]
        if isinstance(ind, str):
            p = _resolve(ind, directory)
            if not p.is_file():
                raise ConfigError(f"{what}: no file {p}")
            with np.load(p, allow_pickle=False) as z:
                keys = [f"client{i}" for i in range(n_clients)]
                if not set(keys) <= set(z.files):
                    keys = [str(i) for i in range(n_clients)]
                missing = [k for k in keys if k not in z.files]
                if missing:
                    raise ConfigError(f"{what}: {p} lacks arrays {missing[:3]} (name them client0, client1, ...)")
                ind = [z[k] for k in keys]
        idx = _check_parts(ind, len(y), n_clients, what)
    elif isinstance(spec, dict):
        from bb_edge.learn.roles import create

        cfg = {k: v for k, v in spec.items() if k != "type"}
        cfg.setdefault("seed", seed)
        kind = spec.get("type", "partition.iid")
        try:
            part = create(str(kind), **cfg)
        except TypeError as exc:
            raise ConfigError(f"partitioner {kind!r}: {exc}") from exc
        if not hasattr(part, "split"):
            raise ConfigError(f"{kind!r} is not a partitioner (no split())")
        idx = _check_parts(part.split(y, n_clients), len(y), n_clients, what)
    else:
        raise ConfigError(f"{what}: use a partitioner spec, {{\"indices\": FILE.npz | [[...], ...]}} "
                          "or \"FILE.py:function\"")
    return [Subset(x[i], y[i], i) for i in idx]


def write_client_shards(parts: Sequence[Subset], directory: str | Path,
                        template: str = "shards/client{client}.npz") -> list[Path]:
    """One ``.npz`` (``x``, ``y``) per client under ``directory``, named by ``template`` (``{client}`` = index)."""
    out = []
    for i, p in enumerate(parts):
        path = _resolve(template.format(client=i), directory)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=p.x, y=p.y)
        out.append(path)
    return out


def load_client_shard(template: str, client: int, directory: str | Path | None = None) -> Subset:
    """Client ``client``'s own shard file (nothing else is read): what a real node loads."""
    if "{client}" not in template:
        raise ConfigError(f'shards template {template!r} must contain "{{client}}"')
    path = _resolve(template.format(client=client), directory)
    if not path.is_file():
        raise ConfigError(f"client {client}'s shard {path} not found")
    x, y, _ = NpzSource(str(path)).load()
    return Subset(x, y, np.arange(len(y)))
