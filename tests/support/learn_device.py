"""Talking to a training-client device (MCU on QEMU, posix, ESP-IDF host app, MicroPython on a pty): the FedAvg
client envelopes (protocol 16) it sends, decoded; the model envelopes a server sends it; its text reports; its
data shard and the reference update it must compute. One helper for every device test, so they all wait,
decode and select alike."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.learn.mcu_fleet import reference_update, round_batches
from bb_edge.adapters.learn.node import load_module
from bb_edge.deployment.manifest import load_deployment
from bb_edge.wire import Envelope, decode, encode

CLIENT_PROTOCOL = 16  # FedAvg client -> server: JOIN (edge 1), UPDATE (edge 3)


def wait_learn(dev: Any, edge: int, timeout: float, seen: list[Envelope] | None = None) -> list[Envelope]:
    """The client envelopes on `edge` (1 JOIN, 3 UPDATE) among `seen` (already read) and what `dev` sends
    until one is there or `timeout` seconds pass; an empty list when none came."""
    envs = list(seen or [])
    deadline = time.monotonic() + timeout

    def hits() -> list[Envelope]:
        return [e for e in envs if e.protocol == CLIENT_PROTOCOL and e.edge == edge]

    while not hits() and time.monotonic() < deadline:
        envs += [decode(e) for e in dev.wait_data(1, 0.1)]
    return hits()


SERVER_ID = 1  # the FedAvg server's node id in the device tests' deployments


def client_shard(d: Path, node: str) -> tuple[Any, np.ndarray, np.ndarray, dict[str, int]]:
    """The learning module of deployment ``d``, ``node``'s shard (x flattened, y) and the node ids."""
    module = load_module(load_deployment(d).extra["learning"], d)
    part = module.setup.parts[module.clients().index(node)]
    return module, part.x.reshape(len(part.x), -1), part.y, dict(module.nodes())


def reference_round(module: Any, x: np.ndarray, y: np.ndarray, node_id: int, rnd: int, start: np.ndarray) -> np.ndarray:
    """The weights client ``node_id`` must send in round ``rnd`` from ``start``, recomputed on the host."""
    cfg = module.cfg
    batches = round_batches(len(x), int(cfg["batch_size"]), int(cfg["epochs"]), int(cfg["local_steps"]),
                            int(cfg["seed"]), node_id, rnd)
    return reference_update(module.setup.program, start, x, y, batches)


def model_env(vec: np.ndarray, node_id: int, rnd: int, seq: int, *, edge: int = 2, sender: int = SERVER_ID) -> bytes:
    """A server -> client model envelope (protocol 17) of round ``rnd`` carrying ``vec``."""
    return encode(Envelope.for_array(vec, sender=sender, receiver=node_id, seq=(9 << 32) | seq, request_id=rnd,
                                     edge=edge, protocol=17))


def wait_reports(dev: Any, want: str | None, timeout: float = 30.0) -> tuple[list[Any], list[str]]:
    """Data envelopes and device reports until a report starting with ``want`` (or ``timeout``)."""
    envs: list[Any] = []
    texts: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        envs += [decode(e) for e in dev.wait_data(1, 0.05)]
        texts += [bytes(c.data).decode() for c in dev.control if c.edge == 5]
        dev.control.clear()
        if want is not None and any(t.startswith(want) for t in texts):
            break
    return envs, texts
