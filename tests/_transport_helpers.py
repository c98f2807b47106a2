"""Helpers for the transport tests (outputs comparison, waiting, child-process logs, TLS material)."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bb_edge.adapters.broker import TlsFiles


def assert_same_outputs(got: list[dict[str, np.ndarray]], want: list[dict[str, np.ndarray]]) -> None:
    """Bit-identical outputs, request by request."""
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert sorted(g) == sorted(w)
        for k in w:
            assert g[k].dtype == w[k].dtype and g[k].shape == w[k].shape
            np.testing.assert_array_equal(g[k], w[k])


def wait_until(pred: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``pred`` until true; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.02)


class LineCollector:
    """Collect a child process's stdout lines in a background thread."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self._th = threading.Thread(target=self._pump, daemon=True)
        self._th.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))

    def has(self, text: str, after: int = 0) -> bool:
        """True if a line at index >= ``after`` contains ``text``."""
        return any(text in line for line in self.lines[after:])


def make_tls(directory: Path) -> TlsFiles:
    """A throwaway CA and a server certificate for 127.0.0.1/localhost (openssl CLI)."""
    d = directory
    d.mkdir(parents=True, exist_ok=True)

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True, timeout=60)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
        "-subj", "/CN=bb-edge test CA", "-days", "2")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
        "-subj", "/CN=localhost")
    (d / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.crt", "-days", "2", "-extfile", "ext.cnf")
    for f in ("ca.key", "server.key"):
        os.chmod(d / f, 0o600)
    return TlsFiles(str(d / "ca.crt"), str(d / "server.crt"), str(d / "server.key"))
