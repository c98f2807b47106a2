"""Peer selection: topologies, per-node sharing modes and a block filter.

:class:`PeerSelector` implements :class:`~bb_edge.learn.roles.PeerSelector`.
The topology gives each node its neighbours per round; the sharing modes and
the block filter are state that can change while running (and is part of the
snapshot):

* ``rw`` (read-write): sends and accepts;
* ``ro`` (read-only): accepts, never sends;
* ``wo`` (write-only): sends, ignores what it receives;
* ``off`` (offline): neither.

A node sends to a neighbour only if it can write, the neighbour can read and
neither blocks the other. ``accepts(node, sender)`` is the receiving side of
the same rule (and also requires the sender to be a neighbour this round).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from bb_edge.learn.roles import Component, ConfigError, register

__all__ = ["PeerSelector", "TOPOLOGIES", "MODES"]

TOPOLOGIES = ("star", "full", "ring", "grid", "local", "random")
MODES = ("rw", "ro", "wo", "off")


@register
@dataclass
class PeerSelector(Component):
    """Topology over ``nodes`` plus sharing modes and blocks (see the module docstring).

    * ``star``: ``nodes[0]`` (or ``center``) is connected to every other node;
    * ``full``: everyone to everyone;
    * ``ring``: previous and next (``k`` hops each side);
    * ``grid``: 2-D grid, row-major with ``cols`` columns (default ceil(sqrt(n))), 4-neighbourhood,
      ``torus`` wraps around;
    * ``local``: nodes within Euclidean ``radius`` of ``positions`` (or ``k`` hops on a ring
      when no positions are given);
    * ``random``: ``k`` peers drawn per (round, node) from ``seed``.
    """

    type_id: ClassVar[str] = "peers"
    nodes: list[int] = field(default_factory=list)
    topology: str = "full"
    k: int = 1
    center: int | None = None
    cols: int | None = None
    torus: bool = False
    positions: list[list[float]] | None = None
    radius: float = 1.0
    seed: int = 0
    modes: dict[str, str] = field(default_factory=dict, init=False)
    blocked: list[list[int]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.nodes = [int(n) for n in self.nodes]
        if len(set(self.nodes)) != len(self.nodes):
            raise ConfigError("PeerSelector nodes must be distinct")
        if self.topology not in TOPOLOGIES:
            raise ConfigError(f"unknown topology {self.topology!r}; use one of {TOPOLOGIES}")
        if self.positions is not None and len(self.positions) != len(self.nodes):
            raise ConfigError("positions must give one point per node")
        self._index = {n: i for i, n in enumerate(self.nodes)}

    # -- runtime switches ------------------------------------------------------
    def set_mode(self, node: int, mode: str) -> None:
        """Switch a node's sharing mode (``rw``, ``ro``, ``wo``, ``off``)."""
        if mode not in MODES:
            raise ConfigError(f"unknown sharing mode {mode!r}; use one of {MODES}")
        self._check(node)
        self.modes[str(node)] = mode

    def mode(self, node: int) -> str:
        """A node's current sharing mode (default ``rw``)."""
        return self.modes.get(str(node), "rw")

    def block(self, a: int, b: int | None = None) -> None:
        """Block the pair (a, b) in both directions, or every link of ``a`` when ``b`` is None."""
        entry = [a, -1 if b is None else b]
        if entry not in self.blocked:
            self.blocked.append(entry)

    def unblock(self, a: int, b: int | None = None) -> None:
        """Remove a block added by :meth:`block` with the same arguments."""
        entry = [a, -1 if b is None else b]
        if entry in self.blocked:
            self.blocked.remove(entry)

    def is_blocked(self, a: int, b: int) -> bool:
        """Whether the link between ``a`` and ``b`` is blocked."""
        for x, y in self.blocked:
            if y == -1 and x in (a, b):
                return True
            if {x, y} == {a, b}:
                return True
        return False

    # -- topology --------------------------------------------------------------
    def _check(self, node: int) -> int:
        if node not in self._index:
            raise ConfigError(f"node {node} is not part of this peer selector")
        return self._index[node]

    def neighbours(self, node: int, round: int = 0) -> list[int]:
        """The topology's neighbours of ``node`` in ``round`` (before modes/blocks), sorted."""
        i = self._check(node)
        n = len(self.nodes)
        t = self.topology
        out: set[int] = set()
        if t == "full":
            out = set(range(n)) - {i}
        elif t == "star":
            c = self._index[self.center] if self.center is not None else 0
            out = set(range(n)) - {c} if i == c else {c}
        elif t in ("ring",) or (t == "local" and self.positions is None):
            for h in range(1, self.k + 1):
                out |= {(i + h) % n, (i - h) % n}
            out.discard(i)
        elif t == "grid":
            cols = self.cols or math.ceil(math.sqrt(n))
            r, c = divmod(i, cols)
            rows = math.ceil(n / cols)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if self.torus:
                    rr, cc = rr % rows, cc % cols
                if 0 <= rr < rows and 0 <= cc < cols:
                    j = rr * cols + cc
                    if j < n and j != i:
                        out.add(j)
        elif t == "local":
            assert self.positions is not None
            pos = np.asarray(self.positions, dtype=np.float64)
            d = np.linalg.norm(pos - pos[i], axis=1)
            out = {int(j) for j in np.nonzero(d <= self.radius)[0] if j != i}
        else:  # random
            rng = np.random.default_rng([self.seed, round, i])
            others = [j for j in range(n) if j != i]
            k = min(self.k, len(others))
            out = {int(j) for j in rng.choice(others, size=k, replace=False)} if k else set()
        return sorted(self.nodes[j] for j in out)

    # -- the role ----------------------------------------------------------------
    def send_targets(self, node: int, round: int) -> list[int]:
        """Neighbours ``node`` sends to this round, after modes and blocks."""
        if self.mode(node) not in ("rw", "wo"):
            return []
        return [p for p in self.neighbours(node, round)
                if self.mode(p) in ("rw", "ro") and not self.is_blocked(node, p)]

    def refusal(self, node: int, sender: int) -> str | None:
        """Why ``node`` must refuse what ``sender`` sends it (``None``: the modes and blocks allow it).

        The receiving side of the sharing rules without the topology (a
        receiver does not know the round the sender drew its targets in):
        ``"unknown_peer"`` (not in the selector), ``"blocked"`` (the pair is
        blocked), ``"sharing_mode"`` (the receiver does not read, or the
        sender is a leech, ``ro``, or ``off``, and must not be sending).
        """
        if node not in self._index or sender not in self._index:
            return "unknown_peer"
        if self.is_blocked(node, sender):
            return "blocked"
        if self.mode(node) not in ("rw", "ro") or self.mode(sender) not in ("rw", "wo"):
            return "sharing_mode"
        return None

    def accepts(self, node: int, sender: int, round: int) -> bool:
        """Whether ``node`` takes ``sender``'s update this round."""
        if node not in self._index or sender not in self._index:
            return False
        if self.mode(node) not in ("rw", "ro") or self.mode(sender) not in ("rw", "wo"):
            return False
        if self.is_blocked(node, sender):
            return False
        # for the random topology, either side's draw links the pair
        return sender in self.neighbours(node, round) or node in self.neighbours(sender, round)
