"""Serial transport (pyserial, ptys): a thin driver of the sans-IO link layer.

URL (``--transport``): ``serial:<port>[?baud=N&rto=S&retries=N&arq=0|1&hb=S&miss=N&mtu=N&window=N]``
where ``<port>`` is

- a device path: ``serial:///dev/ttyUSB0`` or ``serial:/dev/ttyUSB0``;
- any pyserial URL: ``serial:loop://``, ``serial:socket://HOST:PORT``,
  ``serial:rfc2217://HOST:PORT`` (pyserial's own query options pass through).

``baud`` (default 115200) is the line rate; ``rto`` (default 0.2 s) the
retransmission timeout before the first RTT sample; ``retries`` the
transmissions of one frame before the link session is given up; ``hb`` the
heartbeat interval and ``miss`` the heartbeats missed before the peer is down;
``mtu`` caps the DATA frames this end sends (default :data:`DEFAULT_SERIAL_MTU`, 0: no cap but the
peer's ``max_frame``); under the cap the link sizes its frames to the line (docs/wire.md, "Frame
size": from 256 bytes, halved on a loss, doubled after 8 clean full-size frames), so a clean UART or
pty gets large frames and a noisy one small frames that get through;
``window`` the unacknowledged frames this end accepts (1..32).

Everything the line protocol decides -- handshake and boot epochs, ACKs,
RTT/RTO, retransmission, fragmentation, heartbeats and liveness -- is
:class:`bb_edge.wire.link.Link` (docs/wire.md, "Link layer"). This module owns
what a state machine must not: the port, three threads (reader, writer,
timer), the clock and the COBS + CRC-32 framing (every frame body travels as
``COBS(body || crc32_le) || 0x00``, a write starts with 0x00 to flush a
receiver's partial frame after line noise).

``arq=0`` turns the link layer off: envelopes go out as bare frames and bare
frames come in (the v1 behaviour, e.g. a device runtime without the link
layer). With it on, bare envelopes from the peer are still handed up.

A serial link is point to point. A node on a serial port talks to a *hub*
(:class:`SerialHub`, the gateway or the ``bb-edge run --transport
serial://pty`` runner) that forwards each envelope to the link of its
``receiver`` and hands envelopes for node id 0 to the host endpoint. The hub
binds each line to the node on it: an envelope whose header ``sender`` is not
that node is dropped, reported as an
:class:`~bb_edge.adapters.transports.types.Impostor` event and logged once per
line and sender.

Why one file: everything here is the I/O half of one serial link: the port abstraction, the threads that
drive :class:`~bb_edge.wire.link.Link`, and the hub and transport built on that driver share its framing
and liveness callbacks. The line protocol itself is in bb_edge/wire/link.py.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import queue
import select
import struct
import termios
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlencode

import numpy as np
import serial

from bb_edge.adapters.transports.types import DeliverFn, EventFn, Impostor, PeerFn
from bb_edge.deployment.manifest import HOST_NAME
from bb_edge.errors import BBError
from bb_edge.wire import link as L
from bb_edge.wire.envelope import BROADCAST, KIND_CONTROL, PROTO_CONTROL, peek
from bb_edge.wire.framing import FrameDecoder, frame_parts
from bb_edge.wire.hello import CAP_ARQ, CAP_FRAG, OWN_MAX_VERSION, OWN_MIN_VERSION, HelloRecord

log = logging.getLogger("bb_edge.serial")

WRITE_COALESCE = 1 << 20  # bytes of queued frames put on the line in one write
_IOV_MAX = 1024  # buffers per os.writev (Linux's IOV_MAX)
READ_SIZE = 1 << 16  # bytes asked for per read on a descriptor (os.read allocates this much first)
#: bytes read back to back while the descriptor stays readable before they go to the link in one call: a pty
#: hands out at most 4 KiB per read, and a frame deframed, checked and acknowledged per read cost a lock, an
#: ACK and thread switches at both ends
READ_BATCH = 1 << 18
DEFAULT_MAX_FRAME = 1 << 18  # largest DATA frame body a Python end accepts (bigger envelopes are fragmented)
#: the cap on DATA frames a serial (UART, pty) end sends by default: none (0) -- the link layer adapts the
#: frame size to the line under the peer's max_frame (docs/wire.md, "Frame size"); a fixed 256 cost a clean
#: line nine tenths of its throughput
DEFAULT_SERIAL_MTU = 0
_DELIM = b"\x00"
CTRL_HELLO = 1
_last_epoch = 0
_epoch_lock = threading.Lock()


def next_epoch() -> int:
    """A link boot epoch for a new link in this process: wall-clock seconds, strictly increasing here."""
    global _last_epoch
    with _epoch_lock:
        _last_epoch = max(int(time.time()) & 0xFFFFFFFF, _last_epoch + 1)
        return _last_epoch


class SerialError(BBError):
    """A serial port could not be opened or a URL is malformed."""

    fix = 'check the port name, that it exists and that no other program holds it'


class Port(Protocol):
    """The part of a pyserial ``Serial`` a link uses."""

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read."""
        ...

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes (returns early on timeout)."""
        ...

    def write(self, data: bytes) -> int | None:
        """Write every byte of ``data``."""
        ...

    def close(self) -> None:
        """Release the port."""
        ...


# ------------------------------------------------------------------ ports


class FdPort:
    """A raw file descriptor (a pty master) with the pyserial calls a link needs."""

    def __init__(self, fd: int, timeout: float = 0.05) -> None:
        self.fd = fd
        self.timeout = timeout
        self._closed = False

    def fileno(self) -> int:
        """The descriptor (the link reads it directly)."""
        return self.fd

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read (FIONREAD)."""
        buf = fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0")
        return int(struct.unpack("<I", buf)[0])

    def read(self, size: int = 1) -> bytes:
        """Whatever is available, up to ``size`` bytes, waiting at most ``timeout``."""
        if self._closed:
            return b""
        r, _, _ = select.select([self.fd], [], [], self.timeout)
        if not r:
            return b""
        try:
            return os.read(self.fd, max(size, 1))
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.EBADF):  # other side closed
                time.sleep(self.timeout)
                return b""
            raise

    def write(self, data: bytes) -> int:
        """Write everything (blocking)."""
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]
        return len(data)

    def close(self) -> None:
        """Close the descriptor."""
        if not self._closed:
            self._closed = True
            os.close(self.fd)


class FaultyPort:
    """Wrap a port and damage the bytes it writes (seeded, for fault tests).

    ``byte_rate``: probability that each byte is replaced by a different
    random byte; ``frame_rate``: probability that a write (one frame) gets
    1-3 corrupted bytes; ``noise_rate``: probability that a burst of 1-32
    random bytes is written before a write. ``frame_every`` / ``noise_every``
    do the same deterministically to every N-th write. ``drop_rate``:
    probability that each byte is left out (a UART overrun).
    """

    def __init__(self, port: Port, byte_rate: float = 0.0, frame_rate: float = 0.0,
                 noise_rate: float = 0.0, seed: int = 0, frame_every: int = 0, noise_every: int = 0,
                 drop_rate: float = 0.0) -> None:
        self.port = port
        self.byte_rate = byte_rate
        self.drop_rate = drop_rate
        self.bytes_dropped = 0
        self.frame_rate = frame_rate
        self.noise_rate = noise_rate
        self.frame_every = frame_every
        self.noise_every = noise_every
        self.writes = 0
        self.rng = np.random.default_rng(seed)
        self.bytes_corrupted = 0
        self.noise_bursts = 0
        self._lock = threading.Lock()

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read on the wrapped port."""
        return self.port.in_waiting

    def read(self, size: int = 1) -> bytes:
        """Read from the wrapped port (undamaged)."""
        return self.port.read(size)

    def _hits(self, n: int, rate: float) -> np.ndarray:
        """Distinct positions among ``n`` bytes, each hit with probability ``rate`` (a Bernoulli process:
        the count drawn from the binomial, then that many positions -- not one uniform draw per byte,
        which cost ~5 ms per MiB written and, in a bench, was charged to the link)."""
        k = int(self.rng.binomial(n, rate)) if n else 0
        if not k:
            return np.zeros(0, dtype=np.int64)
        return np.asarray(self.rng.choice(n, k, replace=False), dtype=np.int64)

    def damage(self, data: bytes) -> bytes:
        """``data`` with the configured corruption applied (``data`` itself when nothing hits it)."""
        with self._lock:
            self.writes += 1
            hits = self._hits(len(data), self.byte_rate) if self.byte_rate else np.zeros(0, dtype=np.int64)
            hit_frame = bool(self.frame_every and self.writes % self.frame_every == 0)
            if self.frame_rate and self.rng.random() < self.frame_rate:
                hit_frame = True
            if hit_frame and data:
                hits = np.concatenate([hits, self.rng.integers(0, len(data), int(self.rng.integers(1, 4)))])
            drops = self._hits(len(data), self.drop_rate) if self.drop_rate else None
            out = data
            if hits.size or (drops is not None and drops.size):
                buf = np.frombuffer(data, dtype=np.uint8).copy()
                if hits.size:
                    buf[hits] ^= self.rng.integers(1, 256, hits.size, dtype=np.uint8)
                    self.bytes_corrupted += int(hits.size)
                if drops is not None and drops.size:
                    self.bytes_dropped += int(drops.size)
                    buf = np.delete(buf, drops)
                out = buf.tobytes()
            if (self.noise_rate and self.rng.random() < self.noise_rate) or (
                    self.noise_every and self.writes % self.noise_every == 0):
                self.noise_bursts += 1
                out = self.rng.integers(0, 256, int(self.rng.integers(1, 33)), dtype=np.uint8).tobytes() + out
            return out

    def write(self, data: bytes) -> int | None:
        """Write a damaged copy of ``data``."""
        return self.port.write(self.damage(data))

    def close(self) -> None:
        """Close the wrapped port."""
        self.port.close()


@dataclass
class PtyPair:
    """A pseudo-terminal in raw mode: ``master`` fd (hub side) and ``slave_path`` (node side)."""

    master: int
    slave: int
    slave_path: str

    @classmethod
    def open(cls) -> PtyPair:
        """Open a pty pair, both ends raw (no echo, no line editing, 8-bit clean)."""
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        return cls(master, slave, os.ttyname(slave))

    def close(self) -> None:
        """Close both ends."""
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


_OURS = ("baud", "rto", "retries", "arq", "rate", "hb", "miss", "mtu", "window")


@dataclass
class SerialSpec:
    """A parsed ``serial:`` URL."""

    port: str
    baud: int = 115200
    rto: float = 0.2
    retries: int = 200
    arq: bool = True
    rate: float = 0.0
    hb: float = 0.5
    miss: int = 4
    mtu: int = DEFAULT_SERIAL_MTU
    window: int = 32

    @classmethod
    def parse(cls, url: str) -> SerialSpec:
        """Parse ``serial:<port>[?options]`` (see the module docstring)."""
        if not url.startswith("serial:"):
            raise SerialError(f"not a serial URL: {url!r} (use serial:///dev/ttyUSB0 or serial:loop://)")
        rest = url[len("serial:"):]
        base, _, query = rest.partition("?")
        ours: dict[str, str] = {}
        theirs: list[tuple[str, str]] = []
        for k, v in parse_qsl(query, keep_blank_values=True):
            (ours.__setitem__(k, v) if k in _OURS else theirs.append((k, v)))
        if base.startswith("//") and "://" not in base[2:]:
            base = base[2:]  # serial:///dev/ttyUSB0 -> /dev/ttyUSB0
        if not base:
            raise SerialError(f"{url!r} names no port")
        port = base + ("?" + urlencode(theirs) if theirs else "")
        try:
            spec = cls(port, int(ours.get("baud", 115200)), float(ours.get("rto", 0.2)),
                       int(ours.get("retries", 200)), ours.get("arq", "1") not in ("0", "false", "no"),
                       float(ours.get("rate", 0.0)), float(ours.get("hb", 0.5)), int(ours.get("miss", 4)),
                       int(ours.get("mtu", DEFAULT_SERIAL_MTU)), int(ours.get("window", 32)))
        except ValueError as exc:
            raise SerialError(f"bad option in {url!r}: {exc}") from exc
        if not 1 <= spec.window <= L.MAX_WINDOW:
            raise SerialError(f"window={spec.window} in {url!r}: use 1..{L.MAX_WINDOW}")
        if spec.mtu and spec.mtu < L.HEADER_SIZE + L.FRAG_HEADER_SIZE + 1:
            raise SerialError(f"mtu={spec.mtu} in {url!r}: 0 (none) or at least 21 bytes")
        if spec.rto <= 0 or spec.retries < 1:
            raise SerialError(f"rto and retries in {url!r} must be positive")
        return spec

    def open_port(self, timeout: float = 0.05) -> Port:
        """Open the port with pyserial (raw, 8N1, no flow control)."""
        try:
            p: Port = serial.serial_for_url(self.port, baudrate=self.baud, timeout=timeout)
        except (serial.SerialException, ValueError, OSError) as exc:
            raise SerialError(f"cannot open serial port {self.port!r}: {exc}") from exc
        return p


# ------------------------------------------------------------------- link


def _writev_all(fd: int, parts: list[bytes | memoryview]) -> None:
    """Write every byte of ``parts`` to a blocking descriptor, in as few os.writev calls as it takes."""
    i = 0
    while i < len(parts):
        batch = parts[i:i + _IOV_MAX]
        n = os.writev(fd, batch)
        want = sum(len(b) for b in batch)
        if n < want:  # a short write: finish the rest of this batch byte-exact
            rest = memoryview(b"".join(batch))[n:]
            while rest:
                rest = rest[os.write(fd, rest):]
        i += _IOV_MAX


@dataclass
class LinkStats:
    """Counters of one serial link (the link layer's and the driver's)."""

    frames_out: int = 0
    bytes_out: int = 0
    writes: int = 0
    envelopes_in: int = 0
    acks_in: int = 0
    acks_out: int = 0
    retransmits: int = 0
    duplicates: int = 0
    not_envelopes: int = 0
    given_up: int = 0
    heartbeats_in: int = 0
    heartbeats_out: int = 0
    downs: int = 0
    ups: int = 0
    rtt_samples: int = 0
    frame_size: int = 0  # the DATA frame size the link cuts at now (docs/wire.md, "Frame size")
    shrinks: int = 0
    grows: int = 0


class SerialLink:
    """One end of a serial line: drives a :class:`bb_edge.wire.link.Link` with a port, threads and a clock.

    The reader thread deframes what arrives and hands each frame body to the
    link; the timer thread calls ``poll`` at the link's next deadline; what
    the link puts out is framed by the thread that made it (under the lock, so
    in order) and the writer thread writes it (whatever is queued in one
    write). Every call into the link holds one lock;
    callbacks run outside it, on the thread that produced the event.

    Callbacks: ``on_envelope`` (given to :meth:`start`) gets each inbound
    envelope; :attr:`on_liveness` ``(up)`` the peer's state (up at its
    handshake, down after ``heartbeat * miss`` of silence, up again at its
    next frame); :attr:`on_heartbeat` the presence records of each heartbeat
    received (a hub's table); :attr:`on_link_event` every other link event
    (VersionMismatch, EpochRegressed, BadHello, GaveUp, ...).
    """

    def __init__(self, port: Port, baud: int = 115200, rto: float = 0.2, retries: int = 200,
                 arq: bool = True, name: str = "serial", rate: float = 0.0, backoff: int = 4,
                 heartbeat: float = 0.0, miss: int = 4, *, node_id: int = 0, node_name: str = "",
                 boot_epoch: int | None = None, mtu: int = DEFAULT_SERIAL_MTU, window: int = 32,
                 max_frame: int = DEFAULT_MAX_FRAME, config: L.LinkConfig | None = None,
                 versions: tuple[int, int] = (OWN_MIN_VERSION, OWN_MAX_VERSION)) -> None:
        self.port = port
        self.baud = baud
        self.rate = rate if rate > 0 else baud / 10.0
        self.arq = arq
        self.name = name
        self.heartbeat = heartbeat
        if config is None:
            # rto_max: the back-off cap (rto * 2**backoff): a serial line loses frames to noise, not to
            # congestion, so waiting longer does not help it
            config = L.LinkConfig(rto_initial=rto, rto_min=min(rto, 0.02), rto_max=rto * 2 ** backoff,
                                  max_retries=retries, hb_interval=heartbeat,
                                  dead_after=heartbeat * max(1, miss) if heartbeat > 0 else 0.0, mtu=mtu)
        hello = HelloRecord(versions[0], versions[1], CAP_ARQ | CAP_FRAG,
                            next_epoch() if boot_epoch is None else boot_epoch, node_id, max_frame, window,
                            node_name or name[:64])
        self.link = L.Link(hello, config)
        self.decoder = FrameDecoder(max(max_frame, L.MAX_HELLO))
        self.on_liveness: Callable[[bool], None] | None = None
        self.on_heartbeat: Callable[[tuple[tuple[int, bool], ...]], None] | None = None
        self.on_link_event: Callable[[L.LinkEvent], None] | None = None
        self.peer_alive = False
        self._on_envelope: Callable[[bytes], None] | None = None
        self._inbound = True
        self._lock = threading.Condition()  # guards the link; the timer thread waits on it
        # framed bytes (0x00, then COBS(body || crc) 0x00 per frame) and their frame count, in line order
        self._wq: queue.SimpleQueue[tuple[list[bytes | memoryview], int] | None] = queue.SimpleQueue()
        self._queued = 0  # frames handed to the writer and not yet written (under _lock)
        # flush() calls waiting (under _lock): only they need a wake-up when the queue drains. Why: the timer
        # thread waits on the same Condition, and waking it at every frame written or received (a receiver's
        # link is always "all acked") cost a thread switch per frame
        self._flushers = 0
        self._sleep_until = 0.0  # when the timer thread wakes up by itself (0: it is not asleep)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._w = LinkStats()  # driver-side counters (writes, bytes, liveness, non-envelopes)

    @classmethod
    def from_spec(cls, spec: SerialSpec, name: str = "serial", **kw: Any) -> SerialLink:
        """Open the port of a parsed URL (``kw``: node_id, node_name, boot_epoch, ...)."""
        return cls(spec.open_port(), spec.baud, spec.rto, spec.retries, spec.arq, name, spec.rate,
                   heartbeat=spec.hb, miss=spec.miss, mtu=spec.mtu, window=spec.window, **kw)

    def start(self, on_envelope: Callable[[bytes], None]) -> None:
        """Start the reader, writer and (with the link layer) timer threads; the link sends its HELLO."""
        self._on_envelope = on_envelope
        targets: list[Callable[[], None]] = [self._reader, self._writer]
        if self.arq:
            with self._lock:
                self.link.start(time.monotonic())
                self._flush_link()
            targets.append(self._timer)
        for t in targets:
            th = threading.Thread(target=t, name=f"{self.name}-{t.__name__.strip('_')}", daemon=True)
            th.start()
            self._threads.append(th)

    # ------------------------------------------------------------ the link

    def _put_frames(self, bodies: list[bytes] | list[bytes | tuple[bytes, bytes]]) -> None:
        """Frame ``bodies`` and queue them for the writer (caller holds the lock, so the line order is the
        order the link emitted them in).

        Why here and not in the writer: the writer then only writes (os.writev releases the GIL), and the
        COBS encoding of the next frames runs on the thread that made them while the line carries the last
        ones; encoding in the writer left the line idle for every batch's encoding (~40 us per 64 KiB).
        """
        parts: list[bytes | memoryview] = [_DELIM]
        for b in bodies:
            parts.extend(frame_parts(b) if isinstance(b, bytes) else frame_parts(*b))
            parts.append(_DELIM)
        self._queued += len(bodies)
        self._wq.put((parts, len(bodies)))

    def _flush_link(self) -> list[L.LinkEvent]:
        """Hand the link's frames to the writer and return its events (caller holds the lock)."""
        frames = self.link.take_frame_parts()
        if frames:
            self._put_frames(frames)
        if self._flushers and self.link.unacked == 0:
            self._lock.notify_all()  # flush() waiters
        elif self._sleep_until:
            dl = self.link.next_deadline()
            if dl is not None and dl < self._sleep_until:
                self._lock.notify_all()  # the timer: its next deadline moved earlier
        return self.link.take_events()

    def _dispatch(self, evs: list[L.LinkEvent]) -> None:
        """Run callbacks for link events (no lock held: a callback may send on another link)."""
        for ev in evs:
            if isinstance(ev, L.EnvelopeReceived):
                self._w.envelopes_in += 1
                if self._on_envelope is not None:
                    self._on_envelope(ev.envelope)
            elif isinstance(ev, (L.LinkUp, L.PeerUp)):
                self._liveness(True)
            elif isinstance(ev, L.PeerDown):
                self._liveness(False)
            elif isinstance(ev, L.HeartbeatReceived):
                if self.on_heartbeat is not None:
                    self.on_heartbeat(ev.presence)
            else:
                if isinstance(ev, (L.BadLinkFrame, L.BadHello)):
                    self._w.not_envelopes += 1
                if isinstance(ev, (L.VersionMismatch, L.EpochRegressed, L.GaveUp)):
                    log.warning("%s: %s", self.name, _describe(ev))
                if self.on_link_event is not None:
                    self.on_link_event(ev)

    def _liveness(self, up: bool) -> None:
        if up == self.peer_alive:
            return
        self.peer_alive = up
        if up:
            self._w.ups += 1
        else:
            self._w.downs += 1
        if self.on_liveness is not None:
            self.on_liveness(up)

    def set_presence(self, presence: list[tuple[int, bool]]) -> None:
        """Presence records carried by this end's heartbeats (a hub's table); a change goes out at once."""
        with self._lock:
            self.link.set_presence(presence)
            self._lock.notify_all()

    # ------------------------------------------------------------- sending

    def send(self, envelope: bytes) -> None:
        """Queue one envelope for the line (returns at once)."""
        if not self.arq:
            with self._lock:
                self._put_frames([bytes(envelope)])
            return
        with self._lock:
            self.link.send(envelope, time.monotonic())
            evs = self._flush_link()
        if evs:
            self._dispatch(evs)

    def _writer(self) -> None:
        """Write queued framed bytes, everything queued (up to WRITE_COALESCE bytes) in one write."""
        wq = self._wq
        fd = self.port.fileno() if isinstance(self.port, FdPort) else -1  # blocking: os.writev writes it all
        while True:
            item = wq.get()
            if item is None:
                return
            parts, frames = list(item[0]), item[1]
            stop = False
            size = sum(len(b) for b in parts)
            while size < WRITE_COALESCE:
                try:
                    nxt = wq.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                parts.extend(nxt[0])
                frames += nxt[1]
                size += sum(len(b) for b in nxt[0])
            # one write for the lot: each write is a GIL release and re-acquire, which costs far more under
            # contention than the call; a descriptor takes the buffers as they are (no joined copy)
            try:
                if fd >= 0:
                    _writev_all(fd, parts)
                else:
                    self.port.write(b"".join(parts))
            except (OSError, serial.SerialException):
                if self._stop.is_set():
                    return
            st = self._w
            st.writes += 1
            st.frames_out += frames
            st.bytes_out += size
            with self._lock:
                self._queued -= frames
                if self._flushers:
                    self._lock.notify_all()
            if stop:
                return

    def _timer(self) -> None:
        """Call the link's ``poll`` at its next deadline (woken early by any call that moves it)."""
        with self._lock:
            while not self._stop.is_set():
                self.link.poll(time.monotonic())
                evs = self._flush_link()
                if evs:
                    self._lock.release()
                    try:
                        self._dispatch(evs)
                    finally:
                        self._lock.acquire()
                    continue
                dl = self.link.next_deadline()
                now = time.monotonic()
                wait = 0.5 if dl is None else dl - now
                if wait > 0:
                    wait = min(max(wait, 0.001), 0.5)
                    self._sleep_until = now + wait
                    self._lock.wait(wait)
                    self._sleep_until = 0.0

    # ----------------------------------------------------------- receiving

    def _reader(self) -> None:
        fd = -1
        port = self.port.port if isinstance(self.port, FaultyPort) else self.port  # FaultyPort damages writes only
        if isinstance(port, (FdPort, serial.Serial)):  # a plain descriptor (not rfc2217://, socket://...)
            try:
                fd = port.fileno()
            except (OSError, ValueError, AttributeError, serial.SerialException):
                fd = -1
        if fd >= 0:
            self._read_fd(fd)
        else:
            self._read_port()

    def _got(self, data: bytes) -> None:
        """Deframe ``data`` and hand every frame body to the link (one lock, one ACK for the chunk)."""
        # views of the decoded frames: the link copies each envelope out of its frame once
        bodies = self.decoder.feed_views(data)
        if not bodies:
            return
        if not self.arq:
            for b in bodies:
                if b[:2] == MAGIC_ENVELOPE and self._inbound:
                    self._w.envelopes_in += 1
                    if self._on_envelope is not None:
                        self._on_envelope(bytes(b))
                else:
                    self._w.not_envelopes += 1
            return
        if not self._inbound:  # DATA and bare envelopes stay unacknowledged: the sender retries later
            bodies = [b for b in bodies if b[:2] == L.LINK_MAGIC and (len(b) < 3 or b[2] != L.T_DATA)]
        now = time.monotonic()
        with self._lock:
            for b in bodies:
                self.link.receive(b, now)
            evs = self._flush_link()
        if evs:
            self._dispatch(evs)

    def _read_fd(self, fd: int) -> None:
        """Read the port's descriptor directly: poll, then read while it stays readable (up to READ_BATCH
        bytes, nothing waited for) and hand that to the link at once."""
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while not self._stop.is_set():
            if not poller.poll(50):
                continue
            chunks: list[bytes] = []
            size = 0
            failed = False
            while size < READ_BATCH:
                try:
                    data = os.read(fd, READ_SIZE)
                except BlockingIOError:
                    break
                except OSError:  # other side closed (EIO on a pty), port closed under us
                    failed = True
                    break
                if not data:
                    failed = True
                    break
                chunks.append(data)
                size += len(data)
                if not poller.poll(0):
                    break
            if chunks:
                self._got(chunks[0] if len(chunks) == 1 else b"".join(chunks))
            if failed:
                if self._stop.is_set():
                    return
                time.sleep(0.05)

    def _read_port(self) -> None:
        port = self.port
        while not self._stop.is_set():
            try:
                n = port.in_waiting
                data = port.read(n if n > 0 else 1)
                if data and n == 0:
                    more = port.in_waiting
                    if more:
                        data += port.read(more)
            except (OSError, serial.SerialException, TypeError):
                if self._stop.is_set():
                    return
                time.sleep(0.05)
                continue
            if data:
                self._got(data)

    # ------------------------------------------------------------ state

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the counters."""
        c = self.link.counters
        w = self._w
        return LinkStats(frames_out=w.frames_out, bytes_out=w.bytes_out, writes=w.writes,
                         envelopes_in=w.envelopes_in, acks_in=c.acks_in, acks_out=c.acks_out,
                         retransmits=c.retransmits, duplicates=c.duplicates, not_envelopes=w.not_envelopes,
                         given_up=c.given_up, heartbeats_in=c.heartbeats_in, heartbeats_out=c.heartbeats_out,
                         downs=w.downs, ups=w.ups, rtt_samples=c.rtt_samples, frame_size=self.link.frame_size,
                         shrinks=c.shrinks, grows=c.grows)

    @property
    def srtt(self) -> float | None:
        """The link's smoothed round-trip time (None before the first sample)."""
        with self._lock:
            return self.link.srtt

    @property
    def unacked(self) -> int:
        """Envelopes queued or sent and not yet acknowledged."""
        with self._lock:
            return self.link.unacked if self.arq else 0

    def stop_inbound(self) -> None:
        """Stop accepting (and acknowledging) inbound envelopes."""
        self._inbound = False

    def flush(self, timeout: float) -> int:
        """Wait until everything is written (and acked with the link layer); return envelopes still pending."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._flushers += 1
            try:
                while self._queued > 0 or (self.arq and self.link.unacked):
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._lock.wait(min(left, 0.05))
            finally:
                self._flushers -= 1
            return self.link.unacked if self.arq else max(self._queued, 0)

    def close(self) -> None:
        """Stop the threads and close the port."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._wq.put(None)
        with self._lock:
            self._lock.notify_all()
        for th in self._threads:
            th.join(2.0)
        try:
            self.port.close()
        except (OSError, serial.SerialException):
            pass

    @property
    def frames_dropped(self) -> int:
        """Frames the decoder dropped (bad CRC, bad stuffing, overlong, too short)."""
        return self.decoder.dropped


MAGIC_ENVELOPE = b"\xbb\xe1"


def _describe(ev: L.LinkEvent) -> str:
    """One line for a log."""
    if isinstance(ev, L.VersionMismatch):
        return (f"version mismatch: peer {ev.peer.name or ev.peer.node_id} speaks "
                f"{ev.peer.min_version}..{ev.peer.max_version}, we speak {ev.local_min}..{ev.local_max}")
    if isinstance(ev, L.EpochRegressed):
        return f"peer boot epoch went back from {ev.known} to {ev.got} (HELLO ignored)"
    if isinstance(ev, L.GaveUp):
        return f"gave up an envelope of {len(ev.envelope)} bytes ({ev.code})"
    return type(ev).__name__


def presence_table(payload: bytes) -> dict[int, bool]:
    """Decode presence records (``u32 node_id, u8 up`` repeated): ``{node id: up}``."""
    n = len(payload) - len(payload) % L.PRESENCE.size
    return {nid: bool(up) for nid, up in L.PRESENCE.iter_unpack(payload[:n])}


def _is_hello(env: bytes) -> bool:
    head = peek(env)
    return head is not None and (head.kind, head.protocol, head.edge) == (KIND_CONTROL, PROTO_CONTROL, CTRL_HELLO)


# -------------------------------------------------------------- transport


class SerialTransport:
    """A node's transport over one serial link to a hub (implements ``hostloop.Transport``).

    The link's HELLO names this node (``ids[node]``). Peer presence comes from
    the hub's heartbeats (a table of node states): every change becomes
    ``on_peer(name, up, reason)``, which the host loop turns into ``PeerUp`` /
    ``PeerDown`` engine events. Silence of the hub itself is reported as the
    host (``_host``) going down.
    """

    def __init__(self, link: SerialLink, ids: dict[str, int], node: str) -> None:
        self.link = link
        self.node = node
        self.names = {v: k for k, v in ids.items()}
        self.peers_up: dict[str, bool] = {}
        self._on_peer: PeerFn | None = None

    @classmethod
    def from_url(cls, url: str, ids: dict[str, int], node: str, boot_epoch: int | None = None) -> SerialTransport:
        """Open the port named by a ``serial:`` URL."""
        link = SerialLink.from_spec(SerialSpec.parse(url), name=node, node_id=ids.get(node, 0), node_name=node,
                                    boot_epoch=boot_epoch)
        return cls(link, ids, node)

    def _peer(self, name: str, up: bool, reason: str) -> None:
        if name != self.node and self.peers_up.get(name) != up:
            self.peers_up[name] = up
            if self._on_peer is not None:
                self._on_peer(name, up, reason)

    def _hub_heartbeat(self, presence: tuple[tuple[int, bool], ...]) -> None:
        for nid, up in presence:
            name = self.names.get(nid)
            if name is not None:
                self._peer(name, up, "" if up else "serial heartbeat lost (hub)")

    def _hub_liveness(self, up: bool) -> None:
        self._peer(HOST_NAME, up, "" if up else "serial heartbeat lost")

    def open(self, deliver: DeliverFn, on_peer: PeerFn | None = None, on_control: Any = None) -> None:
        """Start the link; inbound envelopes go to ``deliver(sender name, bytes)``."""
        names = self.names
        self._on_peer = on_peer

        def got(env: bytes) -> None:
            head = peek(env)
            sender = head.sender if head is not None else -1
            deliver(names.get(sender, "serial"), env)

        self.link.on_heartbeat = self._hub_heartbeat
        self.link.on_liveness = self._hub_liveness
        self.link.start(got)

    def send(self, peer: str, receiver: int, data: bytes) -> None:
        """Every envelope goes down the one line; the hub routes it by ``receiver``."""
        self.link.send(data)

    def stop_inbound(self) -> None:
        """Stop delivering inbound envelopes."""
        self.link.stop_inbound()

    def flush(self, timeout: float) -> int:
        """Wait for acks; return envelopes not acknowledged."""
        return self.link.flush(timeout)

    def close(self) -> None:
        """Close the line."""
        self.link.close()


@dataclass
class HubStats:
    """Counters of a hub."""

    routed: int = 0
    unroutable: int = 0
    impostors: int = 0


class SerialHub:
    """Routes envelopes between serial links by receiver id; the host endpoint's transport.

    Each link is bound to the node of the deployment on that line (its
    ``ids`` entry): an envelope whose header ``sender`` is not that node is
    dropped with an :class:`~bb_edge.adapters.transports.types.Impostor` event
    (counted in ``stats.impostors``, logged once per line and sender), and so
    is a link HELLO naming another node id. Envelopes for node id 0 go to the
    host's ``deliver``; broadcasts go to every other link. Liveness: a node is
    *up* from its link handshake (or its envelope HELLO), and *down* when its
    link's heartbeats stop (see :class:`SerialLink`). Each change goes to the
    host (``on_peer``) and, as the presence table carried by every hub
    heartbeat, to every node.
    """

    def __init__(self, links: dict[str, SerialLink], ids: dict[str, int]) -> None:
        self.links = links
        self.ids = ids
        self.names = {v: k for k, v in ids.items()}
        self.stats = HubStats()
        self.state: dict[str, bool] = {}
        self._lock = threading.Lock()
        self._deliver: DeliverFn | None = None
        self._on_peer: PeerFn | None = None
        self._on_event: EventFn | None = None
        self._logged: set[tuple[str, int]] = set()

    @property
    def unroutable(self) -> int:
        """Envelopes for a receiver with no link."""
        return self.stats.unroutable

    def set_event_sink(self, on_event: EventFn | None) -> None:
        """Report refusals seen by the hub (impostors) as typed events to ``on_event``."""
        self._on_event = on_event

    def open(self, deliver: DeliverFn, on_peer: PeerFn | None = None, on_control: Any = None) -> None:
        """Start every link."""
        self._deliver, self._on_peer = deliver, on_peer
        for name, link in self.links.items():
            link.on_liveness = self._liveness(name)
            link.on_link_event = self._link_event(name)
            link.start(self._router(name))

    def _liveness(self, name: str) -> Callable[[bool], None]:
        return lambda up: self.mark(name, up, "" if up else "serial heartbeat lost")

    def _link_event(self, name: str) -> Callable[[L.LinkEvent], None]:
        def f(ev: L.LinkEvent) -> None:
            if isinstance(ev, (L.LinkUp, L.VersionMismatch)) and ev.peer.node_id != self.ids.get(name):
                self._impostor(name, ev.peer.node_id, f"link HELLO on {name!r}'s line names node id "
                                                      f"{ev.peer.node_id}, not {self.ids.get(name)}")
        return f

    def _impostor(self, line: str, sender: int, detail: str) -> None:
        self.stats.impostors += 1
        if self._on_event is not None:
            self._on_event(Impostor(line, sender, detail))
        with self._lock:
            first = (line, sender) not in self._logged and len(self._logged) < 4096
            if first:
                self._logged.add((line, sender))
        if first:
            log.warning("serial hub: dropped an impostor on %s's line: %s (logged once per sender)", line, detail)

    def mark(self, name: str, up: bool, reason: str) -> None:
        """Record node ``name`` up or down; tell the host and (next heartbeat, at once) every node."""
        with self._lock:
            if self.state.get(name) == up:
                return
            self.state[name] = up
            table = [(self.ids[n], u) for n, u in sorted(self.state.items()) if n in self.ids]
        for link in self.links.values():
            link.set_presence(table)
        if self._on_peer is not None:
            self._on_peer(name, up, reason)

    def _router(self, src: str) -> Callable[[bytes], None]:
        return lambda env: self._route(src, env)

    def _route(self, src: str, env: bytes) -> None:
        want = self.ids.get(src)
        head = peek(env)
        if head is None:
            self._impostor(src, -1, f"{len(env)} bytes is shorter than an envelope header")
            return
        sender, receiver = head.sender, head.receiver
        if sender != want:
            self._impostor(src, sender, f"line of {src!r} (id {want}) carried an envelope from sender {sender}")
            return
        self.stats.routed += 1
        if receiver == 0:
            if self._deliver is not None:
                self._deliver(src, env)
        elif receiver == BROADCAST:
            if _is_hello(env):
                self.mark(src, True, "hello")
            for name, link in self.links.items():
                if name != src:
                    link.send(env)
        else:
            dst = self.names.get(receiver)
            if dst in self.links:
                self.links[dst].send(env)
            else:
                self.stats.unroutable += 1

    def send(self, peer: str, receiver: int, data: bytes) -> None:
        """Send an envelope from the host to node ``peer``."""
        self.links[peer].send(data)

    def stop_inbound(self) -> None:
        """Stop accepting inbound envelopes on every link."""
        for link in self.links.values():
            link.stop_inbound()

    def flush(self, timeout: float) -> int:
        """Wait for every link's acks; return envelopes still unacknowledged."""
        deadline = time.monotonic() + timeout
        return sum(link.flush(max(0.0, deadline - time.monotonic())) for link in self.links.values())

    def close(self) -> None:
        """Close every link."""
        for link in self.links.values():
            link.close()
