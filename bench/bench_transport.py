"""Transport throughput, as ratios to the raw medium measured in the same run.

MQTT: envelopes/s from one MqttTransport to another (QoS 1, persistent
sessions, manual acks, sender check) divided by messages/s of two raw
paho-mqtt clients (same QoS, same in-flight window, same payload sizes) on the
same Mosquitto. Serial: envelope bytes/s from one SerialLink to another over a
pty (COBS + CRC framing, ARQ acks, deframing, duplicate filter) divided by the
raw bytes/s the same pty carries. Goals (issue 40) in the table printed at the end, with the DATA
frame size each serial case settled on (docs/wire.md, "Frame size"). Prints figures, asserts none.

    python bench/bench_transport.py [--quick] [--serial-only | --link-only | --mqtt-only] [--runs N]

Serial is CPU-bound in this process: both links (sender and receiver) share
one GIL with the framing (COBS encoding from the ``cobs`` package, ~39 us per 64 KiB, decoding from
``corncobs``, ~7.6 us, plus CRC-32 from ISA-L, ~1.3 us), while the raw figure is one
os.write/os.read pair per chunk. On a 2-CPU machine the ratio varies run to
run (0.55-0.8 measured); ``--runs``
prints every run, and the figure reported is best adapter run / best raw run. The CPU time per envelope
of both ends (raw / link, least of the runs) is printed too: it moves far less with the machine's load.
bench_link_sim.py runs the noisy-line cases on a simulated line, free of load.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import select
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.ops.broker import Broker, write_broker_files  # noqa: E402
from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport  # noqa: E402
from bb_edge.adapters.transports.serial_link import FaultyPort, FdPort, PtyPair, SerialLink, SerialSpec  # noqa: E402
from bb_edge.wire import Envelope, encode  # noqa: E402

INFLIGHT = 100


def envelopes(size: int, n: int, sender: int = 1, receiver: int = 2) -> list[bytes]:
    """``n`` encoded envelopes of exactly ``size`` bytes."""
    payload = np.random.default_rng(0).integers(0, 256, size - 64, dtype=np.uint8)
    return [encode(Envelope.for_array(payload, sender=sender, receiver=receiver, seq=i + 1, edge=1))
            for i in range(n)]


# ------------------------------------------------------------------- MQTT


def raw_paho(port: int, size: int, n: int, tag: str) -> float:
    """Messages/s between two plain paho clients (QoS 1), publishing the same ``n`` envelopes as the adapter."""
    done = threading.Event()
    count = [0]

    def on_message(c: paho.Client, u: object, m: paho.MQTTMessage) -> None:
        count[0] += 1
        c.ack(m.mid, m.qos)
        if count[0] == n:
            done.set()

    sub = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"rawsub{tag}", clean_session=False,
                      manual_ack=True)
    sub.on_message = on_message
    subscribed = threading.Event()
    sub.on_subscribe = lambda *a: subscribed.set()
    sub.on_connect = lambda c, *a: c.subscribe(f"raw/{tag}", qos=1)
    sub.max_inflight_messages_set(INFLIGHT)
    sub.connect("127.0.0.1", port)
    sub.loop_start()
    pub = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"rawpub{tag}", clean_session=False)
    pub.max_inflight_messages_set(INFLIGHT)
    pub.max_queued_messages_set(0)
    pub.connect("127.0.0.1", port)
    pub.loop_start()
    subscribed.wait(10)
    # n distinct payloads, as the adapter sends: one payload sent n times stays in the CPU cache
    # (measured at 64 KiB: ~25 us per message cheaper than distinct ones, same code)
    payloads = envelopes(size, n)
    t0 = time.perf_counter()
    for payload in payloads:
        pub.publish(f"raw/{tag}", payload, qos=1)
    done.wait(120)
    dt = time.perf_counter() - t0
    for c in (pub, sub):
        c.disconnect()
        c.loop_stop()
    return n / dt


def adapter_mqtt(port: int, size: int, n: int, tag: str) -> float:
    """Envelopes/s from one MqttTransport to another."""
    ids = {"a": 1, "b": 2}
    cfg = MqttConfig.from_url(f"mqtt://127.0.0.1:{port}?inflight={INFLIGHT}")
    dep = f"bench{tag}"
    a, b = MqttTransport(cfg, dep, "a", ids), MqttTransport(cfg, dep, "b", ids)
    done = threading.Event()
    count = [0]

    def deliver(peer: str, data: bytes) -> None:
        count[0] += 1
        if count[0] == n:
            done.set()

    b.open(deliver)
    a.open(lambda p, d: None)
    a.wait_connected(10)
    b.wait_connected(10)
    time.sleep(0.2)  # b's subscription is in place
    envs = envelopes(size, n)
    t0 = time.perf_counter()
    for e in envs:
        a.send("b", 2, e)
    done.wait(120)
    dt = time.perf_counter() - t0
    a.close()
    b.close()
    return n / dt


def bench_mqtt(quick: bool) -> dict[int, float]:
    """Ratios adapter/raw at 1 KiB and 64 KiB."""
    ratios = {}
    with tempfile.TemporaryDirectory() as d:
        files = write_broker_files(d, None, persistence=False, max_inflight=INFLIGHT)
        with Broker(files) as broker:
            for size, n in ((1024, 2000 if quick else 6000), (65536, 300 if quick else 1000)):
                raw, ad = [], []
                for rep in range(2 if quick else 3):
                    raw.append(raw_paho(broker.port, size, n, f"{size}r{rep}"))
                    ad.append(adapter_mqtt(broker.port, size, n, f"{size}a{rep}"))
                ratios[size] = max(ad) / max(raw)
                print(f"MQTT {size // 1024:>3} KiB: raw paho {max(raw):9.0f} msg/s, adapter {max(ad):9.0f} env/s, "
                      f"ratio {ratios[size]:.2f}")
    return ratios


# ----------------------------------------------------------------- serial


def _raw_reader_proc(path: str, total: int, conn: Connection) -> None:
    rd = SerialSpec.parse(f"serial://{path}").open_port()
    conn.send("ready")
    c0 = time.process_time()
    got = 0
    while got < total:
        k = rd.in_waiting
        got += len(rd.read(k if k else 1))
    conn.send(time.process_time() - c0)
    rd.close()


def _link_reader_proc(path: str, n: int, conn: Connection) -> None:
    b = SerialLink(SerialSpec.parse(f"serial://{path}").open_port(), rate=100e6, name="b")
    done = threading.Event()
    count = [0]

    def deliver(env: bytes) -> None:
        count[0] += 1
        if count[0] == n:
            done.set()

    b.start(deliver)
    conn.send("ready")
    c0 = time.process_time()
    done.wait(120)
    conn.send(time.process_time() - c0)
    time.sleep(0.5)  # let the last acks out before closing
    b.close()


def raw_pty_processes(total: int, chunk: int = 65536) -> tuple[float, float]:
    """(bytes/s, CPU seconds of both processes) through a raw pty, the reader in its own process (as the far
    end of a line is)."""
    pty = PtyPair.open()
    parent, child = mp.get_context("fork").Pipe()
    proc = mp.get_context("fork").Process(target=_raw_reader_proc, args=(pty.slave_path, total, child))
    proc.start()
    parent.recv()
    wr = FdPort(pty.master)
    data = bytes(chunk)
    c0, t0 = time.process_time(), time.perf_counter()
    for _ in range(total // chunk):
        wr.write(data)
    cpu = parent.recv()
    dt = time.perf_counter() - t0
    cpu += time.process_time() - c0
    proc.join(30)
    pty.close()
    return total / dt, cpu


def adapter_serial_processes(size: int, n: int) -> tuple[float, int, float]:
    """(envelope bytes/s, settled frame size, CPU seconds of both processes) from a SerialLink here to one in
    another process (ARQ on)."""
    pty = PtyPair.open()
    parent, child = mp.get_context("fork").Pipe()
    proc = mp.get_context("fork").Process(target=_link_reader_proc, args=(pty.slave_path, n, child))
    proc.start()
    parent.recv()
    a = SerialLink(FdPort(pty.master), rate=100e6, name="a")
    a.start(lambda e: None)
    envs = envelopes(size, n)
    c0, t0 = time.process_time(), time.perf_counter()
    for e in envs:
        a.send(e)
    cpu = parent.recv()
    dt = time.perf_counter() - t0
    cpu += time.process_time() - c0
    a.flush(30)
    fs = a.stats.frame_size
    a.close()
    proc.join(30)
    pty.close()
    return n * size / dt, fs, cpu


def raw_pty(total: int, chunk: int = 65536) -> float:
    """Bytes/s through a raw pty (master writes, pyserial reads the slave); see raw_pty_cpu."""
    return raw_pty_cpu(total, chunk)[0]


def raw_pty_cpu(total: int, chunk: int = 65536) -> tuple[float, float]:
    """(bytes/s, CPU seconds) through a raw pty (master writes, pyserial reads the slave)."""
    pty = PtyPair.open()
    rd = SerialSpec.parse(f"serial://{pty.slave_path}").open_port()
    wr = FdPort(pty.master)
    got = [0]

    def reader() -> None:
        while got[0] < total:
            k = rd.in_waiting
            got[0] += len(rd.read(k if k else 1))

    th = threading.Thread(target=reader, daemon=True)
    data = bytes(chunk)
    c0, t0 = time.process_time(), time.perf_counter()
    th.start()
    for _ in range(total // chunk):
        wr.write(data)
    th.join(120)
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    rd.close()
    pty.close()
    return total / dt, cpu


def _send_until_delivered(a: SerialLink, b: SerialLink, envs: list[bytes], timeout: float, flush: bool) -> float:
    """Start both links, send ``envs`` from ``a``, wait (at most ``timeout`` s) until ``b`` delivered them all.

    Returns the seconds from the first send; with ``flush`` also until ``a`` holds no unacknowledged envelope.
    """
    done = threading.Event()
    got = [0]

    def deliver(env: bytes) -> None:
        got[0] += 1
        if got[0] == len(envs):
            done.set()

    a.start(lambda e: None)
    b.start(deliver)
    t0 = time.perf_counter()
    for e in envs:
        a.send(e)
    done.wait(timeout)
    if flush:
        a.flush(30)
    return time.perf_counter() - t0


def adapter_serial(size: int, n: int) -> tuple[float, int, float]:
    """(envelope bytes/s, settled frame size, CPU seconds) from a SerialLink on the master to one on the slave
    (ARQ on)."""
    pty = PtyPair.open()
    a = SerialLink(FdPort(pty.master), rate=100e6, name="a")
    b = SerialLink(SerialSpec.parse(f"serial://{pty.slave_path}").open_port(), rate=100e6, name="b")
    envs = envelopes(size, n)
    c0 = time.process_time()
    dt = _send_until_delivered(a, b, envs, 120, flush=True)
    cpu = time.process_time() - c0
    fs = a.stats.frame_size
    a.close()
    b.close()
    pty.close()
    return n * size / dt, fs, cpu


def bench_serial(quick: bool, runs: int = 2, processes: bool = False) -> tuple[float, int, float]:
    """Ratio of envelope bytes/s to raw pty bytes/s (64 KiB envelopes), raw and adapter runs interleaved, the
    settled frame size, and the ratio of CPU per envelope (raw / link, both ends, the least of the runs).

    With ``processes`` the receiving end (raw reader or SerialLink) runs in its
    own process, as the node at the far end of a serial line does; otherwise
    both ends share this process and its GIL. CPU time is the figure to trust on a loaded machine: the
    wall-clock ratio moves with whatever else runs.
    """
    size, n = 65536, 200 if quick else 600
    raws: list[float] = []
    ads: list[float] = []
    sizes: list[int] = []
    raw_cpu: list[float] = []
    ad_cpu: list[float] = []
    for i in range(runs):
        rate, cpu = raw_pty_processes(size * n) if processes else raw_pty_cpu(size * n)
        raws.append(rate)
        raw_cpu.append(cpu / n)
        rate, fs, cpu = adapter_serial_processes(size, n) if processes else adapter_serial(size, n)
        ads.append(rate)
        sizes.append(fs)
        ad_cpu.append(cpu / n)
        if runs > 2:
            print(f"  run {i + 1}: raw {raws[-1] / 1e6:6.1f} MB/s, adapter {ads[-1] / 1e6:6.1f} MB/s, "
                  f"ratio {ads[-1] / raws[-1]:.2f}; CPU per envelope raw {raw_cpu[-1] * 1e6:.0f} us, "
                  f"link {ad_cpu[-1] * 1e6:.0f} us")
    raw, ad = max(raws), max(ads)
    ratio = ad / raw
    where = "ends in two processes" if processes else "both ends in one process"
    print(f"serial 64 KiB ({where}): raw pty {raw / 1e6:8.1f} MB/s, adapter {ad / 1e6:8.1f} MB/s, "
          f"ratio {ratio:.2f}, frame size {sizes[ads.index(ad)]}; CPU per envelope (both ends, least of "
          f"{runs}): raw {min(raw_cpu) * 1e6:.0f} us, link {min(ad_cpu) * 1e6:.0f} us")
    return ratio, sizes[ads.index(ad)], min(raw_cpu) / min(ad_cpu)


# ------------------------------------------------- link layer: noise and delay


def _faulty_pair(byte_rate: float, drop_rate: float, mtu: int, rto: float, backoff: int, fixed: bool = False,
                 retries: int = 100_000) -> tuple[SerialLink, SerialLink, PtyPair]:
    """Two SerialLinks on one pty, both directions damaged (FaultyPort), sending frames of at most ``mtu``
    (with ``fixed``, exactly ``mtu``: the adaptive frame size off)."""
    pty = PtyPair.open()
    kw: dict[str, Any] = dict(rto=rto, backoff=backoff, retries=retries, heartbeat=0.2, miss=50, mtu=mtu)
    a = SerialLink(FaultyPort(FdPort(pty.master), byte_rate=byte_rate, drop_rate=drop_rate, seed=1),
                   name="a", node_id=1, **kw)
    b = SerialLink(FaultyPort(SerialSpec.parse(f"serial://{pty.slave_path}").open_port(), byte_rate=byte_rate,
                              drop_rate=drop_rate, seed=2), name="b", node_id=2, **kw)
    if fixed:
        a.link.config.grow_after = b.link.config.grow_after = 0
    return a, b, pty


@dataclass
class Goodput:
    """One noisy-line run: envelope bytes/s delivered, payload share of wire bytes, where the size settled."""

    rate: float
    useful: float
    frame_size: int
    given_up: int
    delivered: int


def link_goodput(size: int, n: int, byte_rate: float, drop_rate: float, mtu: int = 0, rto: float = 0.2,
                 backoff: int = 4, fixed: bool = False, retries: int = 100_000, timeout: float = 600) -> Goodput:
    """Envelopes from ``a`` to ``b`` over a noisy pty: goodput (envelope bytes/s delivered) and what it cost."""
    a, b, pty = _faulty_pair(byte_rate, drop_rate, mtu, rto, backoff, fixed, retries)
    got = [0]
    done = threading.Event()

    def deliver(env: bytes) -> None:
        got[0] += 1
        if got[0] == n:
            done.set()

    a.start(lambda e: None)
    b.start(deliver)
    t0 = time.perf_counter()
    for e in envelopes(size, n):
        a.send(e)
    while not done.wait(0.05) and time.perf_counter() - t0 < timeout:
        if got[0] + a.stats.given_up >= n:
            break
    dt = time.perf_counter() - t0
    wire = a.stats.bytes_out + b.stats.bytes_out
    out = Goodput(got[0] * size / dt, got[0] * size / max(wire, 1), a.stats.frame_size, a.stats.given_up, got[0])
    a.close()
    b.close()
    pty.close()
    return out


def bench_goodput(quick: bool) -> dict[str, tuple[float, int]]:
    """Link goodput under corruption as ratios (with the settled frame size), Python ends, defaults.

    ``1% frames``: ~1% of 64 KiB frames corrupted (a byte rate of 1.5e-7), ratio to the raw pty rate.
    ``5e-4 line``: 16 KiB envelopes at 5e-4 byte errors: the defaults vs the best fixed frame size of a sweep
    (fixed sizes with the adaptation off), goal 0 given up and >= 0.5 of the best. ``1% bytes``: 1 KiB
    envelopes at 1% byte errors (a frame of L bytes survives with 0.99**L), ratio to the raw pty (no goal).
    """
    raw = raw_pty(65536 * (100 if quick else 300))
    out: dict[str, tuple[float, int]] = {}
    g = link_goodput(65536, 100 if quick else 300, 0.01 / 65536, 0.0)
    out["1% frames"] = (g.rate / raw, g.frame_size)
    print(f"goodput, ~1% of 64 KiB frames corrupted: {g.rate / 1e6:8.1f} MB/s = {g.rate / raw:.2f} of raw pty "
          f"{raw / 1e6:.1f} MB/s; payload {g.useful:.0%} of wire bytes; frame size {g.frame_size}")
    n16 = 60 if quick else 200
    g = link_goodput(16384, n16, 5e-4, 0.0, retries=200)
    best, best_size = 0.0, 0
    for fs in (128, 256, 512, 1024, 2048):
        f = link_goodput(16384, n16 // 2, 5e-4, 0.0, mtu=fs, fixed=True, retries=200, timeout=120)
        print(f"  5e-4 byte errors, 16 KiB envelopes, fixed {fs:5d}-byte frames: {f.rate / 1e3:8.1f} kB/s, "
              f"{f.given_up} given up, payload {f.useful:.0%} of wire bytes")
        if f.given_up == 0 and f.rate > best:
            best, best_size = f.rate, fs
    out["5e-4 line"] = (g.rate / best if best and g.given_up == 0 else 0.0, g.frame_size)
    print(f"goodput, 5e-4 byte errors, 16 KiB envelopes, defaults: {g.rate / 1e3:8.1f} kB/s, {g.given_up} given "
          f"up, {g.delivered}/{n16} delivered = {g.rate / max(best, 1):.2f} of the best fixed size ({best_size} B, "
          f"{best / 1e3:.1f} kB/s); frame size {g.frame_size}")
    n_small = 200 if quick else 1000
    g = link_goodput(1024, n_small, 0.01, 0.0, rto=0.005, backoff=2)
    out["1% bytes"] = (g.rate / raw, g.frame_size)
    print(f"goodput, 1% of bytes corrupted, 1 KiB envelopes: {g.rate / 1e3:8.1f} kB/s = {g.rate / raw:.4f} of raw "
          f"pty {raw / 1e6:.1f} MB/s; payload {g.useful:.0%} of wire bytes; frame size {g.frame_size}")
    return out


def print_table(rows: list[tuple[str, str, float | None, int | None]]) -> None:
    """The table of issue 40: figure, goal, measured ratio, the frame size the link settled on."""
    print("\n| figure | goal | measured | frame size |\n|---|---|---|---|")
    for name, goal, val, fs in rows:
        v = "-" if val is None else (f"{val:.4f}" if val < 0.01 else f"{val:.2f}")
        print(f"| {name} | {goal} | {v} | {'-' if fs is None else fs} |")
    print(f"(load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f})")


class _Relay:
    """Two ptys joined by threads that hold every chunk ``delay`` seconds (a line with latency)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.ptys = (PtyPair.open(), PtyPair.open())
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._pump, args=(s.master, d.master), daemon=True)
                         for s, d in (self.ptys, self.ptys[::-1])]
        for t in self._threads:
            t.start()

    def _pump(self, src: int, dst: int) -> None:
        held: list[tuple[float, bytes]] = []
        while not self._stop.is_set():
            now = time.monotonic()
            while held and held[0][0] <= now:
                os.write(dst, held.pop(0)[1])
            r, _, _ = select.select([src], [], [], min(0.002, max(0.0, held[0][0] - now)) if held else 0.002)
            if r:
                try:
                    held.append((time.monotonic() + self.delay, os.read(src, 65536)))
                except OSError:
                    pass

    def close(self) -> None:
        """Stop the threads and close the ptys."""
        self._stop.set()
        for t in self._threads:
            t.join(2)
        for p in self.ptys:
            p.close()


def bench_rtt(quick: bool) -> dict[float, float]:
    """SRTT vs the configured round trip over delayed ptys; returns {rtt: relative error}."""
    errs: dict[float, float] = {}
    for one_way in (0.005, 0.025, 0.1):
        relay = _Relay(one_way)
        url = "serial://{}?rto=0.02&hb=0"
        a = SerialLink.from_spec(SerialSpec.parse(url.format(relay.ptys[0].slave_path)), name="a", node_id=1)
        b = SerialLink.from_spec(SerialSpec.parse(url.format(relay.ptys[1].slave_path)), name="b", node_id=2)
        a.start(lambda e: None)
        b.start(lambda e: None)
        for e in envelopes(256, 20 if quick else 60):
            a.send(e)
            time.sleep(2.5 * one_way)
        a.flush(30)
        srtt = a.srtt or 0.0
        rtt = 2 * one_way
        errs[rtt] = abs(srtt - rtt) / rtt
        print(f"RTT {rtt * 1000:6.1f} ms: SRTT {srtt * 1000:6.1f} ms, error {errs[rtt]:.1%} "
              f"({a.stats.rtt_samples} samples, {a.stats.retransmits} retransmissions)")
        a.close()
        b.close()
        relay.close()
    return errs


def main() -> None:
    """Run both benchmarks and print the ratios."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--serial-only", action="store_true", help="skip MQTT (no broker needed)")
    ap.add_argument("--link-only", action="store_true", help="only the link layer: goodput under noise, RTT")
    ap.add_argument("--mqtt-only", action="store_true", help="only MQTT vs raw paho")
    ap.add_argument("--runs", type=int, default=2, help="serial runs (raw and adapter interleaved)")
    args = ap.parse_args()
    rows: list[tuple[str, str, float | None, int | None]] = []
    if not (args.link_only or args.serial_only):
        m = bench_mqtt(args.quick)
        rows += [("MQTT adapter / raw paho, 1 KiB", ">= 0.95", m[1024], None),
                 ("MQTT adapter / raw paho, 64 KiB", ">= 0.95", m[65536], None)]
    if not (args.link_only or args.mqtt_only):
        s1, f1, c1 = bench_serial(args.quick, args.runs)
        s2, f2, c2 = bench_serial(args.quick, args.runs, processes=True)
        rows += [("serial goodput / raw pty, 64 KiB, clean, one process", ">= 0.8", s1, f1),
                 ("same, ends in two processes", ">= 0.8", s2, f2),
                 ("CPU per 64 KiB envelope, raw pty / link, one process", "-", c1, None),
                 ("same, ends in two processes", "-", c2, None)]
    if not args.mqtt_only:
        g = bench_goodput(args.quick)
        rows += [("goodput, ~1% of 64 KiB frames corrupted / raw pty", ">= 0.6", *g["1% frames"]),
                 ("5e-4 byte errors, 16 KiB, defaults / best fixed size (0 given up)", ">= 0.5", *g["5e-4 line"]),
                 ("goodput, 1% of bytes corrupted, 1 KiB / raw pty", "-", *g["1% bytes"])]
        if args.link_only:
            bench_rtt(args.quick)
    print_table(rows)


if __name__ == "__main__":
    main()
