"""Who holds a TCP port, and which Mosquitto runs on a config file: read from ``/proc`` (Linux).

``bb-edge broker`` asks before it writes or starts anything: a port that is taken is a one-line
:class:`PortInUseError` naming the holder (when this user may see it), and the files of a broker that
is running (a ``mosquitto -c`` process on that config) are never rewritten (:class:`BrokerRunningError`).
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

from bb_edge.errors import BBError


class PortInUseError(BBError):
    """The TCP port a broker should listen on is already taken."""

    fix = "choose a free port with --port, or stop the process that holds it"


class BrokerRunningError(BBError):
    """A Mosquitto process runs on the config files a command would rewrite."""

    fix = "stop that broker first (kill PID), or write the files elsewhere with -o DIR"


@dataclass(frozen=True)
class Holder:
    """A process that listens on a port (or runs a config)."""

    pid: int
    command: str

    def __str__(self) -> str:
        return f"{self.command} (pid {self.pid})"


def port_free(host: str, port: int) -> bool:
    """Whether a listener could bind ``host:port`` right now (SO_REUSEADDR, as Mosquitto binds)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _listen_inodes(port: int) -> set[str]:
    """Socket inodes of TCP listeners on ``port`` (any address), from /proc/net/tcp and tcp6."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if len(cols) > 9 and cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(cols[9])
    return inodes


def _command(pid: int) -> str:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    return " ".join(a.decode(errors="replace") for a in argv if a)[:160] or "?"


def _pids() -> list[int]:
    try:
        return sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    except OSError:
        return []


def port_holder(port: int) -> Holder | None:
    """The process listening on TCP ``port``, if this user may see it (None otherwise)."""
    wanted = {f"socket:[{i}]" for i in _listen_inodes(port)}
    if not wanted:
        return None
    for pid in _pids():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") in wanted:
                    return Holder(pid, _command(pid))
            except OSError:
                continue
    return None


def check_port_free(host: str, port: int) -> None:
    """PortInUseError naming ``host:port`` and its holder when the port is taken."""
    if port_free(host, port):
        return
    holder = port_holder(port)
    who = f"held by {holder}" if holder else "held by another process (not visible to this user)"
    raise PortInUseError(f"port {port} on {host} is in use, {who}")


def mosquitto_on(conf: Path) -> Holder | None:
    """A running ``mosquitto -c CONF`` process on this config file (paths resolved from its cwd)."""
    want = conf.resolve()
    for pid in _pids():
        try:
            argv = [a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")]
        except OSError:
            continue
        if not argv or not os.path.basename(argv[0]).startswith("mosquitto"):
            continue
        for i, a in enumerate(argv[:-1]):
            if a in ("-c", "--config-file"):
                try:
                    cwd = os.readlink(f"/proc/{pid}/cwd")
                except OSError:
                    cwd = "/"
                if (Path(cwd) / argv[i + 1]).resolve() == want:
                    return Holder(pid, _command(pid))
    return None
