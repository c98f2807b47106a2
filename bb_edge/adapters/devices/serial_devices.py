"""Devices that run a bbrt node behind a serial link: QEMU on a pty, the host build, a real port.

Each device is an ``ExternalNode`` for ``bb_edge.adapters.transports.inproc.InProcFleet``:
``send(envelope)`` hands one envelope to the link, ``receive()`` returns the
data envelopes the device produced since the last call (non-blocking).
Control traffic (HELLO, PONG, ERROR) is consumed here. Processes are started
by the device and stopped by pid.

The serial line speaks the link layer of docs/wire.md: this end drives the
sans-IO :class:`bb_edge.wire.link.Link` itself (no threads: every ``send``,
``receive`` and wait reads what arrived, runs the link's timers and writes
what it puts out), so envelopes are acknowledged, retransmitted, fragmented to
the device's ``max_frame`` and reassembled, and a device that reboots says
HELLO with a new boot epoch and gets every unacknowledged envelope again.
``link=False`` speaks bare v1 envelopes (a board whose firmware predates the
link layer).

Why one file: every device class is the same SerialDevice (link, control, statistics) over a different
byte pipe: a QEMU pty, a host process, a real port. The subclasses differ only in how they start
and stop, and hil.py and the tests pick among them.
"""

from __future__ import annotations

import errno
import os
import re
import select
import shutil
import signal
import subprocess
import time
import tty
from collections import deque
from pathlib import Path
from types import TracebackType
from typing import Any

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.qemu import qemu_command
from bb_edge.wire import Envelope, decode, encode, frame
from bb_edge.wire import link as L
from bb_edge.wire.envelope import KIND_CONTROL
from bb_edge.wire.framing import FrameDecoder
from bb_edge.wire.hello import CAP_ARQ, CAP_FRAG, OWN_MAX_VERSION, OWN_MIN_VERSION, HelloRecord

CTRL_HELLO, CTRL_PING, CTRL_PONG, CTRL_ERROR = 1, 2, 3, 5
#: sender id of this end's own PINGs: a sequence space apart from the host's (id 0), so the
#: device's duplicate window for the host never sees the probe's numbers
PROBE_ID = 0xFFFFFFFE
#: the largest link frame body this end sends or takes (the C runtime's BBRT_LINK_MTU)
DEVICE_MTU = 4096

_last_epoch = 0


def host_epoch() -> int:
    """A boot epoch for a new link end in this process: wall-clock seconds, strictly increasing."""
    global _last_epoch
    _last_epoch = max(int(time.time()) & 0xFFFFFFFF, _last_epoch + 1)
    return _last_epoch


def device_link_config() -> L.LinkConfig:
    """Timers for a device line: an emulator or a UART answers within tens of ms, a reboot takes seconds."""
    return L.LinkConfig(rto_initial=0.3, rto_min=0.05, rto_max=2.0, max_retries=200, hb_interval=0.5,
                        dead_after=3.0, reassembly_timeout=30.0)


class SerialDevice:
    """The link layer (or bare framing), control handling and statistics over a byte stream."""

    def __init__(self, node_id: int, host_id: int = 0, max_envelope: int = 1 << 20, *, link: bool = True,
                 max_frame: int = DEVICE_MTU, window: int = 32,
                 versions: tuple[int, int] = (OWN_MIN_VERSION, OWN_MAX_VERSION),
                 config: L.LinkConfig | None = None) -> None:
        self.node_id = node_id
        self.host_id = host_id
        self.decoder = FrameDecoder(max(max_envelope, L.MAX_HELLO))
        self.bytes_out = 0
        self.bytes_in = 0
        self.control: list[Envelope] = []
        self.errors: list[str] = []
        #: the latest link events other than envelopes (LinkUp, PeerRestarted, VersionMismatch, GaveUp, ...)
        self.link_events: deque[L.LinkEvent] = deque(maxlen=4096)
        self._probe_epoch = host_epoch()
        self._seq = 0
        self._pending: list[bytes] = []
        self.link: L.Link | None = None
        if link:
            hello = HelloRecord(versions[0], versions[1], CAP_ARQ | CAP_FRAG, host_epoch(), host_id, max_frame,
                                window, "host")
            self.link = L.Link(hello, config or device_link_config())

    # byte transport: subclasses implement
    def write(self, data: bytes) -> None:  # pragma: no cover - abstract
        """Write raw bytes to the link."""
        raise NotImplementedError

    def read_available(self, timeout: float = 0.0) -> bytes:  # pragma: no cover - abstract
        """Bytes available on the link (waiting at most ``timeout`` for the first)."""
        raise NotImplementedError

    # the link layer
    def start_link(self) -> None:
        """Send this end's first HELLO (a no-op without the link layer)."""
        if self.link is not None:
            self.link.start(time.monotonic())
            self._flush()

    def _flush(self) -> None:
        """Frame and write what the link put out; hand up what it delivered."""
        assert self.link is not None
        frames = self.link.take_frames()
        if frames:
            data = b"".join(frame(f) for f in frames)
            self.bytes_out += len(data)
            self.write(data)
        for ev in self.link.take_events():
            if isinstance(ev, L.EnvelopeReceived):
                self._on_envelope(ev.envelope)
            elif not isinstance(ev, L.HeartbeatReceived):
                self.link_events.append(ev)

    @property
    def link_up(self) -> bool:
        """A link session with the device is established (always True without the link layer)."""
        return self.link is None or self.link.up

    def wait_link(self, timeout: float) -> None:
        """Pump until the device's HELLO arrived and the link is up; BbrtError on a mismatch or timeout."""
        deadline = time.monotonic() + timeout
        while not self.link_up and time.monotonic() < deadline:
            self._pump(min(0.05, max(0.0, deadline - time.monotonic())))
            if any(isinstance(e, L.VersionMismatch) for e in self.link_events):
                raise BbrtError(f"device node {self.node_id}: link versions do not meet ({self.link_events[-1]})")
        if not self.link_up:
            raise BbrtError(f"device node {self.node_id} sent no link HELLO within {timeout:.0f} s "
                            f"(errors: {self.errors or 'none'})")

    # ExternalNode
    def send(self, envelope: bytes) -> None:
        """Hand one envelope to the link (or frame and write it bare)."""
        if self.link is None:
            data = frame(envelope)
            self.bytes_out += len(data)
            self.write(data)
            return
        self.link.send(envelope, time.monotonic())
        self._flush()

    def _on_envelope(self, env: bytes) -> None:
        try:
            e = decode(env)
        except Exception:  # noqa: BLE001 - a bad envelope from the device is counted, not fatal
            self.errors.append("undecodable envelope from device")
            return
        if e.kind == KIND_CONTROL:
            self.control.append(e)
            if e.edge == CTRL_ERROR:
                self.errors.append(bytes(e.data).decode(errors="replace"))
            return
        self._pending.append(env)

    def _pump(self, timeout: float = 0.0) -> None:
        if self.link is not None:  # wait no longer than the link's next timer
            dl = self.link.next_deadline()
            if dl is not None:
                timeout = max(0.0, min(timeout, dl - time.monotonic()))
        raw = self.read_available(timeout)
        self.bytes_in += len(raw)
        bodies = self.decoder.feed(raw) if raw else []
        if self.link is None:
            for body in bodies:
                self._on_envelope(body)
            return
        now = time.monotonic()
        for body in bodies:
            self.link.receive(body, now)
        self.link.poll(time.monotonic())
        self._flush()

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

    def pump_for(self, seconds: float) -> None:
        """Keep the link running (ACKs, retransmissions, heartbeats) for ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._pump(min(0.05, max(0.0, deadline - time.monotonic())))

    def ping(self, timeout: float = 10.0) -> float:
        """Send PING until a PONG answers; return the round-trip seconds."""
        deadline = time.monotonic() + timeout
        if self.link is None:
            self.write(b"\x00")  # flush any partial frame in the device's receiver
        else:
            self.wait_link(timeout)
        while time.monotonic() < deadline:
            self._seq += 1
            seq = (self._probe_epoch << 32) | self._seq
            t0 = time.monotonic()
            self.send(encode(Envelope.for_bytes(b"", sender=PROBE_ID, receiver=self.node_id, seq=seq,
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
    #: seconds a write may wait for the line (a dead device must not hang the host)
    write_timeout = 2.0
    _backlog: bytes = b""

    def write(self, data: bytes) -> None:
        """Write all bytes; what the line does not take within ``write_timeout`` is dropped (the link resends).

        While the line is full, what the device sends is read into a backlog: a device blocked
        writing to us cannot drain its input, so both ends would otherwise wait on each other.
        """
        view = memoryview(data)
        deadline = time.monotonic() + self.write_timeout
        while view and self.fd >= 0:
            try:
                n = os.write(self.fd, view)
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return
                r, _, _ = select.select([self.fd], [self.fd], [], 0.05)
                if r:
                    self._backlog += self._read_now()
                continue
            except OSError as exc:
                if exc.errno == errno.EIO:  # no one on the other side (a device restarting)
                    return
                raise
            view = view[n:]

    def read_available(self, timeout: float = 0.0) -> bytes:
        """Everything readable now (after waiting up to ``timeout`` for the first byte)."""
        if self._backlog:
            out, self._backlog = self._backlog, b""
            return out + self._read_now() if self.fd >= 0 else out
        if self.fd < 0:
            time.sleep(timeout)
            return b""
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return b""
        return self._read_now(timeout)

    def _read_now(self, timeout: float = 0.0) -> bytes:
        """What can be read without waiting."""
        chunks = []
        while True:
            try:
                b = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            except OSError:  # EIO: the other side is closed (a device restarting); do not spin
                time.sleep(min(timeout, 0.02))
                break
            if not b:
                break
            chunks.append(b)
            r, _, _ = select.select([self.fd], [], [], 0)
            if not r:
                break
        return b"".join(chunks)


def _stop_pid(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    """Stop one child by its pid (``sig``, then SIGKILL after 5 s) and reap it."""
    if proc is None:
        return
    if proc.poll() is None:
        os.kill(proc.pid, sig)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(5)


class _OwnPty:
    """A pty pair this process keeps open across device restarts: the device gets the slave path."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.slave_path = os.ttyname(self.slave)

    def close(self) -> None:
        """Close both ends."""
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class QemuDevice(_FdDevice):
    """A bbrt ELF under QEMU with its UART on a pty; stopped by pid.

    The firmware keeps its boot epoch in ``epoch_file`` through semihosting
    (default: ``<program>.epoch``). With ``own_pty`` this process creates the
    pty and keeps it across :meth:`kill` / :meth:`restart`, so a restarted
    device comes back on the same line, as a rebooted board does.
    """

    def __init__(self, kind: str, elf: Path, program: Path, node_id: int, *, epoch_file: Path | None = None,
                 own_pty: bool = False, flash: bool = True, **kw: Any) -> None:
        super().__init__(node_id, **kw)
        self.kind = kind
        self.cmd = qemu_command(kind, Path(elf), Path(program), epoch_file, flash=flash)
        self.proc: subprocess.Popen[bytes] | None = None
        self.pty: str | None = None
        # Xtensa: QEMU's sim console (-serial) loses input bytes under load (its 16-byte input buffer
        # is filled by the main loop while the vCPU's simcall drains it), so the port's console goes
        # to QEMU's own stdin/stdout instead, where a simcall is a plain read()/write() on a pty we own
        self._stdio = kind == "xtensa"
        self._own = _OwnPty() if own_pty or self._stdio else None

    def _launch(self, timeout: float) -> None:
        if shutil.which(self.cmd[0]) is None:
            from bb_edge.tools import missing

            raise BbrtError(missing(self.cmd[0]))
        if self._own is not None:
            cmd = list(self.cmd)
            if self._stdio:  # no sim console: the simcalls on fds 0/1 reach the pty directly
                cmd[cmd.index("-serial") + 1] = "none"
                self.proc = subprocess.Popen(cmd, stdin=self._own.slave, stdout=self._own.slave,
                                             stderr=subprocess.DEVNULL, start_new_session=True)
            else:
                cmd[cmd.index("-serial") + 1] = self._own.slave_path
                self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                             start_new_session=True)
            self.pty = self._own.slave_path
            self.fd = self._own.master
            return
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

    def start(self, timeout: float = 20.0) -> QemuDevice:
        """Start QEMU, open its pty in raw mode, do the link handshake and wait for PING to be answered."""
        deadline = time.monotonic() + timeout
        self._launch(timeout)
        self.start_link()
        self.ping(timeout=max(1.0, deadline - time.monotonic()))
        return self

    def kill(self) -> None:
        """SIGKILL QEMU by its pid (a power cut); the pty stays open with ``own_pty``."""
        _stop_pid(self.proc, signal.SIGKILL)
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        self.proc = None

    def restart(self, timeout: float = 20.0) -> None:
        """Boot the device again on the same pty (``own_pty``) and wait for its new HELLO."""
        if self._own is None:
            raise BbrtError("restart needs own_pty=True (the same line across the reboot)")
        self.kill()
        known = self.link.peer.boot_epoch if self.link is not None and self.link.peer is not None else 0
        self._launch(timeout)
        deadline = time.monotonic() + timeout
        while self.link is not None and time.monotonic() < deadline:
            self._pump(0.05)
            if self.link.up and self.link.peer is not None and self.link.peer.boot_epoch > known:
                return
        if self.link is not None:
            raise BbrtError(f"device node {self.node_id} did not say HELLO with a new epoch after restart")

    def stop(self) -> None:
        """Close the pty and stop QEMU by its pid."""
        if self._own is None and self.fd >= 0:
            os.close(self.fd)
        self.fd = -1
        self.kill()
        if self._own is not None:
            self._own.close()
            self._own = None

    def __enter__(self) -> QemuDevice:
        return self.start() if self.proc is None else self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def _epoch_args(link: bool, program: Path, epoch_file: Path | None,
                c_timers: tuple[int, ...] | None = None) -> list[str]:
    """bbrt-host arguments for the link layer: the boot epoch file (default ``<program>.epoch``) and,
    optionally, the C end's timers in ms (rto_initial, rto_min, rto_max, max_retries, hb, dead, reasm)."""
    if not link:
        return []
    args = ["--epoch-file", str(epoch_file or program.with_name(program.name + ".epoch"))]
    if c_timers is not None:
        if len(c_timers) != 7:
            raise BbrtError(f"c_timers needs 7 values in ms, got {c_timers}")
        args += ["--link", ",".join(str(int(v)) for v in c_timers)]
    return args


class HostDevice(SerialDevice):
    """The posix build (bbrt-host) as a child process on stdin/stdout pipes."""

    def __init__(self, exe: Path, program: Path, node_id: int, *, epoch_file: Path | None = None,
                 **kw: Any) -> None:
        super().__init__(node_id, **kw)
        self.cmd = [str(exe), str(program), *_epoch_args(self.link is not None, Path(program), epoch_file)]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> HostDevice:
        """Start the process, do the link handshake and wait for PONG."""
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.start_link()
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


class PtyHostDevice(_FdDevice):
    """The posix build on a pty (``bbrt-host --serial``), the way a board sits on a UART.

    The pty is this process's and outlives :meth:`kill` / :meth:`restart`.
    """

    def __init__(self, exe: Path, program: Path, node_id: int, *, epoch_file: Path | None = None,
                 c_timers: tuple[int, ...] | None = None, **kw: Any) -> None:
        super().__init__(node_id, **kw)
        self._own = _OwnPty()
        self.fd = self._own.master
        self.cmd = [str(exe), str(program), "--serial", self._own.slave_path,
                    *_epoch_args(self.link is not None, Path(program), epoch_file, c_timers)]
        self.proc: subprocess.Popen[bytes] | None = None

    def _launch(self) -> None:
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)

    def start(self, timeout: float = 10.0) -> PtyHostDevice:
        """Start the node on the pty, do the link handshake and wait for PONG."""
        self._launch()
        self.start_link()
        self.ping(timeout)
        return self

    def kill(self) -> None:
        """SIGKILL the node by its pid."""
        _stop_pid(self.proc, signal.SIGKILL)
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()
        self.proc = None

    def stop(self) -> str:
        """Close the pty (the node reads EIO and exits); return its stderr (statistics)."""
        err = ""
        self._own.close()
        self.fd = -1
        if self.proc is not None:
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
            if self.proc.stderr is not None:
                err = self.proc.stderr.read().decode(errors="replace")
                self.proc.stderr.close()
            self.proc = None
        return err

    def __enter__(self) -> PtyHostDevice:
        return self.start() if self.proc is None else self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


class PortDevice(_FdDevice):
    """A real board on a serial port (pyserial), e.g. an ESP32 flashed with `bb-edge flash`."""

    def __init__(self, port: str, node_id: int, baud: int = 921600, *, link: bool = True, **kw: Any) -> None:
        # link layer on: every bbrt port speaks it on its UART, the ESP-IDF one included (docs/targets.md)
        super().__init__(node_id, link=link, **kw)
        self.port, self.baud = port, baud
        self._ser: object | None = None

    def start(self, timeout: float = 10.0) -> PortDevice:
        """Open the port and wait for PONG."""
        import serial  # pyserial

        ser = serial.Serial(self.port, self.baud, timeout=0)
        self._ser = ser
        self.fd = ser.fileno()
        self.start_link()
        self.ping(timeout)
        return self

    def stop(self) -> None:
        """Close the port."""
        if self._ser is not None:
            self._ser.close()  # type: ignore[attr-defined]
            self._ser = None
            self.fd = -1
