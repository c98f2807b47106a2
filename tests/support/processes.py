"""Finding and stopping the node processes of a running fleet by pid (from /proc): the CPU-starvation helper
the churn and trust tests use to make a node late for real."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path


def node_pids(directory: Path) -> list[int]:
    """Pids of live ``bb-edge node`` processes of the deployment in ``directory`` (from /proc)."""
    pids = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            argv = (p / "cmdline").read_bytes().split(b"\0")
            state = (p / "stat").read_text().split(")")[-1].split()[0]
        except OSError:
            continue
        if b"node" in argv and str(directory).encode() in argv and state != "Z":
            pids.append(int(p.name))
    return pids


def node_argvs(directory: Path) -> Iterator[tuple[int, list[bytes]]]:
    """(pid, argv) of each live ``bb-edge node`` process of ``directory``; one that exits meanwhile is skipped."""
    for pid in node_pids(directory):
        try:
            yield pid, Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue


def node_pid(directory: Path, node: str) -> int | None:
    """Pid of the live ``bb-edge node DIR --node NODE`` process of ``directory`` (from /proc), if any."""
    for pid, argv in node_argvs(directory):
        if b"--node" in argv and argv[argv.index(b"--node") + 1] == node.encode():
            return pid
    return None


def starve(directory: Path, work: Path, node: str, ready: Callable[[], bool], cancel: threading.Event,
           hold: float = 1.5) -> None:
    """CPU starvation of one node process, for real: SIGSTOP it once ``ready()``, SIGCONT it ``hold``
    seconds after the server's progress log (in ``work``) says finished, or as soon as the server process is
    gone. For a helper thread; gives up (resuming the node) when ``cancel`` is set.

    What a loaded 2-core CI machine does to a node now and then, made sure: the rest of the fleet finishes
    the run without it, and whatever it still sends comes after the server's last round.
    """
    while not ready():
        if cancel.is_set():
            return
        time.sleep(0.002)
    pid = node_pid(directory, node)
    server = node_pid(directory, "server")
    if pid is None or server is None:
        return
    os.kill(pid, signal.SIGSTOP)
    progress = work / "server.progress.jsonl"
    try:
        while not cancel.is_set() and not (progress.exists() and '"finished": true' in progress.read_text()):
            time.sleep(0.01)
        until = time.monotonic() + hold
        while not cancel.is_set() and time.monotonic() < until and node_pid(directory, "server") == server:
            time.sleep(0.01)
    finally:
        os.kill(pid, signal.SIGCONT)
