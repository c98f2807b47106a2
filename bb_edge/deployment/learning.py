"""The roster of a learning deployment, read from its config alone.

A learning deployment (``deployment.json`` with a ``learning`` object) has no node list: its strategy
names the nodes. The names and wire ids follow from the strategy and the client count, so building a
bundle, writing a broker's ACL or listing nodes never loads the model or partitions the data. The
strategy modules (:mod:`bb_edge.strategies.modules`) take their roster from here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bb_edge.deployment.manifest import Deployment
from bb_edge.errors import DeploymentError

#: the client count when the config names none (bb_edge.training.setup.DEFAULTS agrees)
DEFAULT_CLIENTS = 10
#: strategies with a ``server`` (id 1) and clients ``c0..`` (ids 2..)
SERVER_STRATEGIES = frozenset({"fedavg", "diloco", "split", "splitfed"})
#: strategies of equal peers ``n0..`` (ids 1..)
PEER_STRATEGIES = frozenset({"gossip", "pushsum"})


def is_learning(deployment: Deployment | str | Path) -> bool:
    """True when the deployment (or ``DIR/deployment.json``) carries a ``learning`` object."""
    if isinstance(deployment, Deployment):
        return "learning" in deployment.extra
    try:
        return "learning" in json.loads((Path(deployment) / "deployment.json").read_text())
    except (OSError, ValueError, TypeError):
        return False


def client_count(learning: dict[str, Any]) -> int:
    """How many clients the config runs (plain split learning has one)."""
    if learning.get("strategy") == "split":
        return 1
    try:
        n = int(learning.get("clients", DEFAULT_CLIENTS))
    except (TypeError, ValueError):
        raise DeploymentError(f"learning.clients must be an integer, got {learning.get('clients')!r}") from None
    if n < 1:
        raise DeploymentError(f"learning.clients must be at least 1, got {n}")
    return n


def learning_clients(learning: dict[str, Any]) -> list[str]:
    """The client names: ``c0..`` under a server, ``n0..`` for peers."""
    strategy = learning.get("strategy")
    if strategy in SERVER_STRATEGIES:
        return [f"c{i}" for i in range(client_count(learning))]
    if strategy in PEER_STRATEGIES:
        return [f"n{i}" for i in range(client_count(learning))]
    known = ", ".join(sorted(SERVER_STRATEGIES | PEER_STRATEGIES))
    raise DeploymentError(f"unknown learning strategy {strategy!r}; use one of {known}")


def learning_roster(learning: dict[str, Any]) -> list[tuple[str, int]]:
    """Every node of the run as ``(name, wire id)``: the server first where there is one."""
    clients = learning_clients(learning)
    if learning.get("strategy") in SERVER_STRATEGIES:
        return [("server", 1)] + [(c, i + 2) for i, c in enumerate(clients)]
    return [(c, i + 1) for i, c in enumerate(clients)]


def learning_node_names(deployment: Deployment) -> list[str]:
    """The node names of a learning deployment (no model load, no data partitioning)."""
    return [name for name, _ in learning_roster(dict(deployment.extra["learning"]))]


def learning_peers(learning: dict[str, Any]) -> dict[str, set[str]]:
    """For every node of the run, the nodes it sends to (what its broker ACL lets it write).

    Under a server (FedAvg, DiLoCo, split, SplitFed) a client talks to the server only and the server
    to every client; equal peers (gossip, push-sum) may pick any other peer, so each reaches all.
    """
    names = [n for n, _ in learning_roster(learning)]
    if learning.get("strategy") in SERVER_STRATEGIES:
        clients = set(names) - {"server"}
        return {"server": clients, **{c: {"server"} for c in clients}}
    return {n: set(names) - {n} for n in names}


def learning_broadcasters(learning: dict[str, Any]) -> set[str]:
    """The nodes that broadcast (their HELLO): the server under a server strategy, every peer otherwise.

    A client under a server says HELLO to the server alone (``LearningNode.hello``), so it needs no
    broadcast topic.
    """
    names = [n for n, _ in learning_roster(learning)]
    return {"server"} if learning.get("strategy") in SERVER_STRATEGIES else set(names)
