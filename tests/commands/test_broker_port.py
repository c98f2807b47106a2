"""`bb-edge broker` checks its port and never rewrites the files of a running broker (issue 24, items 6-7).

Reproduces the issue: with the port taken it printed "mosquitto running", then exited 1 with the reason only
in its log, having regenerated passwd and credentials.json, so the broker holding the port refused everyone.
Real Mosquitto, real sockets; the holder is named from /proc.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bb_edge.adapters.ops.broker import free_port
from tests.support.tiny import tiny_deployment


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_deployment(tmp_path_factory.mktemp("tiny"))


def bb(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "BB_EDGE_DEBUG"}
    env["PATH"] = env.get("PATH", "") + ":/usr/sbin"
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                          timeout=60, env=env)


def one_line_error(r: subprocess.CompletedProcess[str], kind: str) -> str:
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {kind}: "), r.stderr
    assert "Traceback" not in r.stderr and "mosquitto running" not in r.stdout
    return lines[0]


def test_taken_port_is_named_before_anything_is_written(dep: Path, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = tmp_path / "b"
        line = one_line_error(bb("broker", str(dep), "--port", str(port), "-o", str(out)), "PortInUseError")
        assert f"port {port} on 127.0.0.1 is in use" in line
        assert f"(pid {os.getpid()})" in line, line  # the holder: this test's process
        assert "--port" in line  # the fix
        assert not out.exists()
        # --write-only: the files are written, with a warning that the port is taken
        r = bb("broker", str(dep), "--port", str(port), "-o", str(out), "--write-only")
        assert r.returncode == 0, r.stderr
        assert f"warning: port {port} on 127.0.0.1 is in use" in r.stderr
        assert (out / "credentials.json").is_file()


def test_running_broker_keeps_its_passwords(dep: Path, tmp_path: Path) -> None:
    out, port = tmp_path / "b", free_port()
    env = {**os.environ, "PATH": os.environ.get("PATH", "") + ":/usr/sbin"}
    proc = subprocess.Popen([sys.executable, "-m", "bb_edge.cli", "broker", str(dep), "--port", str(port),
                             "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        line = ""
        while "mosquitto running" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line or proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert "mosquitto running" in line
        before = {f: (out / f).read_bytes() for f in ("passwd", "acl", "credentials.json", "mosquitto.conf")}
        # same port: the broker of these very files holds it; another port: the files are still its own
        for args in ([], ["--port", str(free_port()), "--write-only"]):
            port_args = ["--port", str(port)] if "--port" not in args else []
            err = one_line_error(bb("broker", str(dep), "-o", str(out), *port_args, *args), "BrokerRunningError")
            assert "mosquitto" in err and "left as they are" in err and "kill" in err, err
        assert {f: (out / f).read_bytes() for f in before} == before
        # a second broker on the port of a running one, with its own files: refused, naming mosquitto's pid
        err = one_line_error(bb("broker", str(dep), "--port", str(port), "-o", str(tmp_path / "c")), "PortInUseError")
        assert "mosquitto" in err, err
        assert not (tmp_path / "c").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
