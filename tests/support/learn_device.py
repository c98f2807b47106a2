"""Waiting on a training-client device (MCU on QEMU, posix, ESP-IDF host app, MicroPython on a pty): the
FedAvg client envelopes (protocol 16) it sends, decoded. One helper for every device test, so they all wait,
decode and select alike."""

from __future__ import annotations

import time
from typing import Any

from bb_edge.wire import Envelope, decode

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
