"""Data sources and partitioners (implementations of :class:`~bb_edge.learn.roles.DataSource`).

:class:`SklearnSource` loads scikit-learn's *bundled* data sets (digits, iris,
breast_cancer, wine; files shipped inside the package, nothing downloaded).
Partitioners split label vectors into per-client index arrays, seeded:

* :class:`IIDPartitioner`: a shuffled even split;
* :class:`DirichletPartitioner`: for each class, client proportions drawn from
  Dirichlet(alpha) (small alpha = strongly non-IID), re-drawn until every client
  holds at least ``min_size`` samples;
* :class:`ShardPartitioner`: sort by label, cut into ``n * shards_per_client``
  shards, deal ``shards_per_client`` shards to each client (McMahan et al.).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from bb_edge.learn.roles import Component, ConfigError, register

__all__ = [
    "ArraySource", "SklearnSource", "IIDPartitioner", "DirichletPartitioner", "ShardPartitioner",
    "Subset", "train_test_split", "SKLEARN_DATASETS",
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
        self.y = np.asarray(self.y, dtype=np.int64)
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
        from sklearn import datasets

        loaders = {"digits": datasets.load_digits, "iris": datasets.load_iris,
                   "breast_cancer": datasets.load_breast_cancer, "wine": datasets.load_wine}
        if self.name not in loaders:
            raise ConfigError(f"unknown data set {self.name!r}; bundled ones: {SKLEARN_DATASETS}")
        bunch = loaders[self.name]()
        x = np.asarray(bunch.data, dtype=np.float64)
        if self.scale:
            lo, hi = x.min(axis=0), x.max(axis=0)
            x = (x - lo) / np.where(hi > lo, hi - lo, 1.0)
        return x.astype(np.float32), np.asarray(bunch.target, dtype=np.int64)


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


class _Partitioner(Component):
    def split(self, y: np.ndarray, n_clients: int) -> list[np.ndarray]:
        """Per-client index arrays (sorted)."""
        raise NotImplementedError

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
