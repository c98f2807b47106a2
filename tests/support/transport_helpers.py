"""Helpers for the transport tests (outputs comparison, waiting, child-process logs, TLS material)."""

from __future__ import annotations

import ctypes
import math
import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.ops.broker import TlsFiles
from bb_edge.bbrt.host import aligned
from bb_edge.bbrt.native import load_host_library
from bb_edge.wire.framing import FrameDecoder, frame


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


class RawClient:
    """A plain paho client with a node's credentials (an attacker, or a tool misusing them)."""

    def __init__(self, host: str, port: int, user: str | None, password: str | None, clean: bool = True,
                 client_id: str = "raw") -> None:
        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        self.connected = threading.Event()
        self.connect_rc: object = None
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean,
                        protocol=paho.MQTTv311)
        if user is not None:
            c.username_pw_set(user, password)
        c.on_connect = lambda cl, u, f, rc, p: (setattr(self, "connect_rc", rc), self.connected.set())
        c.connect(host, port, keepalive=5)
        c.loop_start()
        self.c = c
        if not self.connected.wait(10):
            raise AssertionError("raw client did not connect")

    def publish(self, topic: str, payload: bytes) -> None:
        """QoS-1 publish, waiting for the PUBACK."""
        self.c.publish(topic, payload, qos=1).wait_for_publish(10)

    def close(self) -> None:
        """Disconnect and stop the network thread."""
        self.c.disconnect()
        self.c.loop_stop()


def forged_envelope(sender: int, receiver: int, seq: int, request_id: int, edge: int,
                    dims: tuple[int, ...], dtype: int = 1, data: bytes = b"") -> bytes:
    """Encode an envelope header + dims by hand (any dims, including ones numpy cannot hold)."""
    import struct

    from bb_edge.wire import envelope as wire

    rank = len(dims)
    header = struct.pack("<2sBBHHIIQQQIBBHfiII", wire.MAGIC, wire.VERSION, wire.KIND_DATA, 0, 0, sender,
                         receiver, seq, request_id, 0, edge, dtype, rank, 0, 0.0, 0, len(data), 0)
    body = struct.pack(f"<{rank}I", *dims) + (b"\x00" * 4 if rank % 2 else b"")
    return header + body + data


class CNode:
    """The C runtime's node loop (host build via ctypes) as an InProcFleet external node: the reference."""

    def __init__(self, blob: bytes, arena_size: int) -> None:
        self.lib = load_host_library()
        self.blob = aligned(len(blob))
        self.blob[:] = np.frombuffer(blob, np.uint8)
        self.arena = aligned(max(8, arena_size))
        assert self.lib.bbrtpy_node_init(self.blob.ctypes.data, len(blob), self.arena.ctypes.data,
                                         len(self.arena)) == 0
        self.outbuf = ctypes.create_string_buffer(1 << 20)
        self.dec = FrameDecoder()
        self.out: list[bytes] = []

    def send(self, envelope: bytes) -> None:
        f = frame(envelope)
        n = self.lib.bbrtpy_node_feed(f, len(f), self.outbuf, len(self.outbuf))
        assert n >= 0
        self.out += self.dec.feed(self.outbuf.raw[:n])

    def receive(self) -> list[bytes]:
        out, self.out = self.out, []
        return out


def rules_program(dep: dict[str, Any]) -> bytes:
    """A bbrt program for the rule vectors' receiving node: each consumed edge a Recv edge from its producer,
    copied by a RELU op to a Send edge to the host (only the Recv side matters here)."""
    from bb_edge.bbrt.format import RECV, SEND, STORE_ARENA, EdgeRecord, Op, OpRecord, Program, Tensor

    tensors: list[Tensor] = []
    ops: list[OpRecord] = []
    edges: list[EdgeRecord] = []
    off = 0
    for k, e in enumerate(dep["edges"]):
        assert e["elem_type"] == 1, "float edges only"
        shape = tuple(e["shape"])
        size = ((4 * math.prod(shape) + 7) // 8) * 8
        tensors += [Tensor(f"in{k}", 1, shape, STORE_ARENA, off), Tensor(f"out{k}", 1, shape, STORE_ARENA, off + size)]
        off += 2 * size
        ops.append(OpRecord(Op.RELU_F32, [2 * k], [2 * k + 1]))
        edges.append(EdgeRecord(e["id"], e["producer_id"], RECV, 1, 2 * k))
        edges.append(EdgeRecord(1000 + k, 0, SEND, 1, 2 * k + 1))
    return Program(dep["node_id"], tensors, ops, edges, arena_size=off).to_bytes()
