"""Devices that run a bbrt node behind a serial link: QEMU on a pty, the host build, a real port.

Each device is an ``ExternalNode`` for ``bb_edge.adapters.inproc.InProcFleet``:
``send(envelope)`` frames and writes one envelope, ``receive()`` returns the
data envelopes the device produced since the last call (non-blocking).
Control traffic (HELLO, PONG) is consumed here. Processes are started by the
device and stopped by pid.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import time
import tty
from pathlib import Path
from types import TracebackType

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.qemu import qemu_command
from bb_edge.wire import Envelope, decode, encode, frame
from bb_edge.wire.envelope import KIND_CONTROL
from bb_edge.wire.framing import FrameDecoder

CTRL_HELLO, CTRL_PING, CTRL_PONG, CTRL_ERROR = 1, 2, 3, 5

class SerialDevice:
    """Common framing, control handling and statistics over a byte stream."""

    def __init__(self, node_id: int, host_id: int = 0, max_envelope: int = 1 << 20) -> None:
        self.node_id = node_id
        self.host_id = host_id
        self.decoder = FrameDecoder(max_envelope)
        self.bytes_out = 0
        self.bytes_in = 0
        self.control: list[Envelope] = []
        self.errors: list[str] = []
        self._seq = 1 << 40  # the probe's own sequence space
        self._pending: list[bytes] = []

    # byte transport: subclasses implement
    def write(self, data: bytes) -> None:  # pragma: no cover - abstract
        """Write raw bytes to the link."""
        raise NotImplementedError

    def read_available(self, timeout: float = 0.0) -> bytes:  # pragma: no cover - abstract
        """Bytes available on the link (waiting at most ``timeout`` for the first)."""
        raise NotImplementedError

    # ExternalNode
    def send(self, envelope: bytes) -> None:
        """Frame and write one envelope."""
        data = frame(envelope)
        self.bytes_out += len(data)
        self.write(data)

    def _pump(self, timeout: float = 0.0) -> None:
        raw = self.read_available(timeout)
        if not raw:
            return
        self.bytes_in += len(raw)
        for env in self.decoder.feed(raw):
            try:
                e = decode(env)
            except Exception:  # noqa: BLE001 - a bad envelope from the device is counted, not fatal
                self.errors.append("undecodable envelope from device")
                continue
            if e.kind == KIND_CONTROL:
                self.control.append(e)
                if e.edge == CTRL_ERROR:
                    self.errors.append(bytes(e.data).decode(errors="replace"))
                continue
            self._pending.append(env)

    def receive(self) -> list[bytes]:
        """Data envelopes produced by the device since the last call."""
        self._pump(0.0)
        out, self._pending = self._pending, []
        return out

    def wait_data(self, n: int, timeout: float) -> list[bytes]:
        """Block until ``n`` data envelopes arrived (or timeout); return them."""
        deadline = time.monotonic() + timeout
        while len(self._pending) < n and time.monotonic() < deadline:
            self._pump(min(0.05, max(0.0, deadline - time.monotonic())))
        out, self._pending = self._pending, []
        return out

    def ping(self, timeout: float = 10.0) -> float:
        """Send PING until a PONG answers; return the round-trip seconds."""
        deadline = time.monotonic() + timeout
        self.write(b"\x00")  # flush any partial frame in the device's receiver
        while time.monotonic() < deadline:
            self._seq += 1
            seq = self._seq
            t0 = time.monotonic()
            self.send(encode(Envelope.for_bytes(b"", sender=self.host_id, receiver=self.node_id, seq=seq,
                                                edge=CTRL_PING)))
            until = min(deadline, time.monotonic() + 1.0)
            while time.monotonic() < until:
                self._pump(0.05)
                for e in self.control:
                    if e.edge == CTRL_PONG and e.response_to == seq:
                        self.control.clear()
                        return time.monotonic() - t0
        raise BbrtError(f"device node {self.node_id} did not answer PING within {timeout:.0f} s "
                        f"(errors: {self.errors or 'none'})")


class _FdDevice(SerialDevice):
    """A device reached through one read/write file descriptor."""

    fd: int = -1

    def write(self, data: bytes) -> None:
        """Write all bytes (blocking until the kernel took them)."""
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.fd, view)
            except BlockingIOError:
                select.select([], [self.fd], [], 0.05)
                continue
            view = view[n:]

    def read_available(self, timeout: float = 0.0) -> bytes:
        """Everything readable now (after waiting up to ``timeout`` for the first byte)."""
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return b""
        chunks = []
        while True:
            try:
                b = os.read(self.fd, 65536)
            except (BlockingIOError, OSError):
                break
            if not b:
                break
            chunks.append(b)
            r, _, _ = select.select([self.fd], [], [], 0)
            if not r:
                break
        return b"".join(chunks)


class QemuDevice(_FdDevice):
    """A bbrt ELF under QEMU with its UART on a pty; stopped by pid."""

    def __init__(self, kind: str, elf: Path, program: Path, node_id: int, **kw: int) -> None:
        super().__init__(node_id, **kw)
        self.kind = kind
        self.cmd = qemu_command(kind, Path(elf), Path(program))
        self.proc: subprocess.Popen[bytes] | None = None
        self.pty: str | None = None

    def start(self, timeout: float = 20.0) -> QemuDevice:
        """Start QEMU, open its pty in raw mode and wait for the node to answer PING."""
        if shutil.which(self.cmd[0]) is None:
            raise BbrtError(f"{self.cmd[0]} is not installed (apt-get install qemu-system-arm qemu-system-misc)")
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        out = b""
        fd = self.proc.stdout.fileno()
        while self.pty is None and time.monotonic() < deadline:
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                out += chunk
                m = re.search(rb"char device redirected to (/dev/pts/\d+)", out)
                if m:
                    self.pty = m.group(1).decode()
        if self.pty is None:
            self.stop()
            raise BbrtError(f"QEMU did not report its pty: {out.decode(errors='replace')}")
        self.fd = os.open(self.pty, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)
        self.ping(timeout=max(1.0, deadline - time.monotonic()))
        return self

    def stop(self) -> None:
        """Close the pty and stop QEMU by its pid."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        self.proc = None

    def __enter__(self) -> QemuDevice:
        return self.start() if self.proc is None else self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


class HostDevice(SerialDevice):
    """The posix build (bbrt-host) as a child process on stdin/stdout pipes."""

    def __init__(self, exe: Path, program: Path, node_id: int, **kw: int) -> None:
        super().__init__(node_id, **kw)
        self.cmd = [str(exe), str(program)]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> HostDevice:
        """Start the process and wait for PONG."""
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.ping(timeout)
        return self

    def write(self, data: bytes) -> None:
        """Write to the process's stdin."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read_available(self, timeout: float = 0.0) -> bytes:
        """Read what the process wrote to stdout."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            return b""
        try:
            return os.read(fd, 1 << 20)
        except BlockingIOError:
            return b""

    def stop(self) -> str:
        """Close stdin (the node exits at end of input); return its stderr (statistics)."""
        if self.proc is None:
            return ""
        assert self.proc.stdin is not None and self.proc.stderr is not None
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        err = self.proc.stderr.read().decode(errors="replace")
        for f in (self.proc.stdout, self.proc.stderr):
            if f is not None:
                f.close()
        self.proc = None
        return err

    def __enter__(self) -> HostDevice:
        return self.start() if self.proc is None else self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


class PortDevice(_FdDevice):
    """A real board on a serial port (pyserial), e.g. an ESP32 flashed with `bb-edge flash`."""

    def __init__(self, port: str, node_id: int, baud: int = 921600, **kw: int) -> None:
        super().__init__(node_id, **kw)
        self.port, self.baud = port, baud
        self._ser: object | None = None

    def start(self, timeout: float = 10.0) -> PortDevice:
        """Open the port and wait for PONG."""
        import serial  # pyserial

        ser = serial.Serial(self.port, self.baud, timeout=0)
        self._ser = ser
        self.fd = ser.fileno()
        self.ping(timeout)
        return self

    def stop(self) -> None:
        """Close the port."""
        if self._ser is not None:
            self._ser.close()  # type: ignore[attr-defined]
            self._ser = None
            self.fd = -1
