"""Attacks a simulated malicious node binds (implementations of :class:`~bb_edge.learn.roles.Attack`).

Model attacks change the update sent (``craft``); data attacks change the
local data before training (``poison``). Omniscient attacks (ALIE, IPM,
Mimic) read the honest updates of the round, as in their papers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import ClassVar

import numpy as np

from bb_edge.learn.roles import Component, ConfigError, as_matrix, register

__all__ = [
    "NoAttack", "SignFlip", "LabelFlip", "GaussianNoise", "NonFinite", "ALIE", "InnerProductManipulation",
    "Mimic", "SampleCountLie", "alie_z",
]


class _ModelAttack(Component):
    """Base of model attacks: data is left alone."""

    def poison(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Identity (model attacks do not touch the data)."""
        return x, y


@register
@dataclass
class NoAttack(_ModelAttack):
    """Honest behaviour (useful as a placeholder)."""

    type_id: ClassVar[str] = "attack.none"

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """The node's own update."""
        return np.asarray(own)


@register
@dataclass
class SignFlip(_ModelAttack):
    """Send ``-scale * own``."""

    type_id: ClassVar[str] = "attack.sign_flip"
    scale: float = 1.0

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """The negated (scaled) own update."""
        return np.asarray((-self.scale * np.asarray(own)).astype(np.float32))


@register
@dataclass
class LabelFlip(Component):
    """Data poisoning: label ``y`` becomes ``num_classes - 1 - y``; the update is then sent as is."""

    type_id: ClassVar[str] = "attack.label_flip"
    num_classes: int = 10

    def poison(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Flipped labels."""
        return x, (self.num_classes - 1 - np.asarray(y)).astype(np.asarray(y).dtype)

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """The own update (trained on flipped labels)."""
        return np.asarray(own)


@register
@dataclass
class GaussianNoise(_ModelAttack):
    """Send ``N(0, sigma^2)`` noise (``replace=True``) or the own update plus that noise."""

    type_id: ClassVar[str] = "attack.gaussian"
    sigma: float = 1.0
    replace: bool = True
    seed: int = 0
    mu: float = 0.0
    fixed_noise: bool = False
    calls: int = field(default=0, init=False)

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """Noise ``N(mu, sigma^2)`` seeded by ``seed`` and the call counter.

        ``fixed_noise=True`` draws from ``default_rng(seed)`` on every call, so
        every round sends the same vector (ByzPy's ``GaussianAttack(seed=...)``).
        """
        rng = np.random.default_rng(self.seed if self.fixed_noise else [self.seed, self.calls])
        self.calls += 1
        noise = rng.normal(self.mu, self.sigma, size=np.shape(own))
        base = 0.0 if self.replace else np.asarray(own, dtype=np.float64)
        return np.asarray((base + noise).astype(np.float32))


@register
@dataclass
class NonFinite(_ModelAttack):
    """Send a vector of NaN (``value="nan"``), +Inf (``"inf"``) or -Inf (``"-inf"``)."""

    type_id: ClassVar[str] = "attack.non_finite"
    value: str = "nan"

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """The non-finite vector."""
        vals = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf}
        if self.value not in vals:
            raise ConfigError(f"NonFinite value must be one of {sorted(vals)}")
        return np.full(np.shape(own), vals[self.value], dtype=np.float32)


def alie_z(n: int, f: int) -> float:
    """ALIE's z_max (Baruch et al. 2019): s = floor(n/2 + 1) - f; z = Phi^-1((n - s) / n)."""
    s = n // 2 + 1 - f
    p = (n - s) / n
    if not 0.0 < p < 1.0:
        raise ConfigError(f"ALIE is undefined for n={n}, f={f}")
    return float(NormalDist().inv_cdf(p))


@register
@dataclass
class ALIE(_ModelAttack):
    """A Little Is Enough: ``mean + direction * z * std`` of the honest updates (coordinate-wise).

    ``direction=-1`` (default) moves against the honest spread as bb-edge always
    did; ``direction=1`` is ByzPy's ``LittleAttack`` (``mu + z * sigma``).
    """

    type_id: ClassVar[str] = "attack.alie"
    n: int = 25
    f: int = 5
    z: float | None = None
    direction: int = -1

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """The ALIE update."""
        if self.direction not in (-1, 1):
            raise ConfigError(f"ALIE direction must be -1 or 1, got {self.direction!r}")
        mat = as_matrix(honest).astype(np.float64)
        z = self.z if self.z is not None else alie_z(self.n, self.f)
        return np.asarray((mat.mean(axis=0) + self.direction * z * mat.std(axis=0)).astype(np.float32))


@register
@dataclass
class InnerProductManipulation(_ModelAttack):
    """IPM (Xie et al. 2020): ``-eps * mean(honest)``."""

    type_id: ClassVar[str] = "attack.ipm"
    eps: float = 0.1

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """The IPM update."""
        return np.asarray((-self.eps * as_matrix(honest).astype(np.float64).mean(axis=0)).astype(np.float32))


@register
@dataclass
class Mimic(_ModelAttack):
    """Mimic (Karimireddy et al. 2022): copy the honest update of index ``target``."""

    type_id: ClassVar[str] = "attack.mimic"
    target: int = 0

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """A copy of one honest update."""
        if not honest:
            raise ConfigError("Mimic needs the honest updates of the round")
        return np.asarray(honest[self.target % len(honest)]).copy()


@register
@dataclass
class SampleCountLie(_ModelAttack):
    """Claim ``samples`` training samples at JOIN (to dominate weighted rules) and send ``-scale * own``."""

    type_id: ClassVar[str] = "attack.sample_count_lie"
    samples: int = 10**9
    scale: float = 1.0

    def claim_samples(self, actual: int) -> int:
        """The sample count announced instead of ``actual``."""
        return int(self.samples)

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """The negated (scaled) own update."""
        return np.asarray((-self.scale * np.asarray(own)).astype(np.float32))
