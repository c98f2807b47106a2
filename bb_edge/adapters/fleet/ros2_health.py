"""Health of the ROS 2 node (bb_edge.adapters.fleet.ros2_node): what it counts and its /diagnostics status.

:class:`Stats` is counted by the ROS executor thread (frames) and the host loop thread (requests,
links, failovers) under one lock; :func:`diagnostic_values` turns it and the telemetry status record
into the level, message and key/values of one ``diagnostic_msgs/DiagnosticStatus``.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from bb_edge.adapters.fleet.ros2_convert import Port


class Stats:
    """What /diagnostics reports, counted by the ROS side and the loop thread (one lock)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.frames_in = 0
        self.bad: dict[str, int] = {}
        self.last_bad = ""
        self.submitted = 0
        self.completed = 0
        self.failed: dict[str, int] = {}
        self.published = 0
        self.latency_ms: float | None = None  # ROS message in -> output published (EWMA)
        self.link: dict[str, str] = {}
        self.routes: dict[str, str] = {}  # stage -> the standby serving it after a failover
        self.bad_seen = 0  # bad frames at the previous diagnostics tick

    def bad_frame(self, reason: str, message: str) -> None:
        """Count one rejected frame."""
        with self.lock:
            self.bad[reason] = self.bad.get(reason, 0) + 1
            self.last_bad = message

    def latency(self, ms: float) -> None:
        """Fold one end-to-end latency into the EWMA."""
        with self.lock:
            self.latency_ms = ms if self.latency_ms is None else self.latency_ms + 0.2 * (ms - self.latency_ms)


def diagnostic_values(stats: Stats, status: dict[str, Any], state: str, transport: str,
                      ports: dict[str, list[Port]]) -> tuple[int, str, list[tuple[str, str]]]:
    """(level 0 OK / 1 WARN / 2 ERROR, message, key/values) of the node's DiagnosticStatus."""
    with stats.lock:
        bad = sum(stats.bad.values())
        fresh_bad = bad - stats.bad_seen
        stats.bad_seen = bad
        down = sorted(p for p, s in stats.link.items() if s == "down" and stats.routes.get(p, p) == p)
        moved = sorted(f"{st} -> {via}" for st, via in stats.routes.items() if via != st)
        failed = sum(stats.failed.values())
        values = [
            ("state", state), ("program_hash", str(status.get("program_hash", ""))),
            ("epoch", str(status.get("epoch", ""))), ("transport", transport),
            ("link", " ".join(f"{p}={s}" for p, s in sorted(stats.link.items())) or "none"),
            ("failover", " ".join(moved)),
            ("frames_in", str(stats.frames_in)), ("frames_bad", str(bad)),
            ("frames_bad_by_reason", json.dumps(dict(sorted(stats.bad.items())))),
            ("last_bad_frame", stats.last_bad),
            ("requests_submitted", str(stats.submitted)), ("requests_completed", str(stats.completed)),
            ("requests_failed", str(failed)),
            ("requests_failed_by_reason", json.dumps(dict(sorted(stats.failed.items())))),
            ("outputs_published", str(stats.published)),
            ("latency_ms", "" if stats.latency_ms is None else f"{stats.latency_ms:.3f}"),
            ("compute_ms", "" if status.get("compute_ms") is None else str(status["compute_ms"])),
            ("hop_ms", "" if status.get("hop_ms") is None else str(status["hop_ms"])),
            ("rtt_ms", json.dumps(status.get("rtt_ms", {}))),
            ("drops", str(status.get("drops", 0))),
            ("drops_by_reason", json.dumps(status.get("drops_by_reason", {}))),
            ("open_requests", str(status.get("open_requests", 0))),
            ("inputs", " ".join(p.topic for p in ports["inputs"])),
            ("outputs", " ".join(p.topic for p in ports["outputs"])),
        ]
    if state != "active":
        return 1, f"{state}: not serving", values
    if down:
        return 2, f"link down: {', '.join(down)}", values
    if moved:
        return 1, f"failed over: {', '.join(moved)}", values
    if fresh_bad:
        return 1, f"{fresh_bad} bad frame(s): {stats.last_bad}", values
    return 0, "active, serving", values
