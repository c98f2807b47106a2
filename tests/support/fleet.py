"""Tearing down what a fleet test started: the in-process fleet, the host end, the node processes and the
broker, in that order; and reaping a serial node that exits once its line closes. One copy, so every fleet
test leaves nothing running whether it passed or failed."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from typing import Protocol

from bb_edge.adapters.fleet.mqtt_fleet import stop_process


class _Closes(Protocol):
    def close(self) -> object: ...


class _Stops(Protocol):
    def stop(self) -> object: ...


def stop_fleet(broker: _Stops, host: _Closes | None = None, procs: Iterable[subprocess.Popen[bytes]] = (),
               fleet: _Stops | None = None) -> None:
    """Stop what a fleet test started, last started first: ``fleet`` (in-process nodes), the ``host`` end,
    each node process in ``procs`` (SIGTERM, then SIGKILL if it lingers), then the ``broker``. ``None`` is
    something the test had not started yet."""
    if fleet is not None:
        fleet.stop()
    if host is not None:
        host.close()
    for p in procs:
        stop_process(p)
    broker.stop()


def reap_node(node: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """Wait up to ``grace`` seconds for a node process that exits by itself once its line is closed; stop it
    by pid (SIGTERM, then SIGKILL) if it lingers."""
    try:
        node.wait(grace)
    except subprocess.TimeoutExpired:
        stop_process(node, timeout=grace)
