"""Serial transport over real pseudo-terminals (os.openpty) and pyserial URLs."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from adapters.fleet_serial import PtyFleet, PtyFleetOptions
from adapters.serial_link import FaultyPort, FdPort, PtyPair, SerialError, SerialLink, SerialSpec
from bb_edge.commands.run import run_deployment
from bb_edge.compiler.manifest import Deployment
from bb_edge.engine import events
from bb_edge.wire import Envelope, encode, frame
from tests._transport_helpers import assert_same_outputs, wait_until

pytest_plugins = ["tests._transport_fixtures"]

TIMEOUT = 60.0


def _env(seq: int, n: int = 16, sender: int = 1, receiver: int = 2) -> bytes:
    return encode(Envelope.for_array(np.arange(n, dtype=np.float32) + seq, sender=sender, receiver=receiver,
                                     seq=seq, request_id=seq, edge=1))


def test_url_parsing() -> None:
    s = SerialSpec.parse("serial:///dev/ttyUSB0?baud=57600&rto=0.5")
    assert (s.port, s.baud, s.rto, s.arq) == ("/dev/ttyUSB0", 57600, 0.5, True)
    assert SerialSpec.parse("serial:/dev/pts/4").port == "/dev/pts/4"
    assert SerialSpec.parse("serial:loop://?logging=debug&arq=0").port == "loop://?logging=debug"
    assert SerialSpec.parse("serial:loop://?arq=0").arq is False
    assert SerialSpec.parse("serial:socket://10.0.0.2:7000?baud=9600").port == "socket://10.0.0.2:7000"
    with pytest.raises(SerialError):
        SerialSpec.parse("mqtt://x")
    with pytest.raises(SerialError):
        SerialSpec.parse("serial:loop://?baud=fast")
    o = PtyFleetOptions.parse("serial://pty?corrupt=0.01&seed=3")
    assert (o.corrupt, o.seed) == (0.01, 3)


def test_loop_url_with_arq() -> None:
    """pyserial's loop:// device: the link hears itself, acks itself, and delivers each envelope once."""
    link = SerialLink.from_spec(SerialSpec.parse("serial:loop://?baud=115200&rto=0.05"))
    got: list[bytes] = []
    link.start(got.append)
    try:
        sent = [_env(i) for i in range(1, 21)]
        for e in sent:
            link.send(e)
        assert link.flush(10) == 0
        wait_until(lambda: len(got) == 20, 10, "20 envelopes over loop://")
        assert got == sent and link.stats.acks_in == 20
    finally:
        link.close()


def test_resync_after_garbage_cut_and_bad_crc() -> None:
    """Garbage, a cut frame, a wrong-CRC frame, noise with zeros: counted, dropped, resynchronised;
    only intact envelopes come out, in order."""
    pty = PtyPair.open()
    link = SerialLink.from_spec(SerialSpec.parse(f"serial://{pty.slave_path}?baud=115200&arq=0"))
    got: list[bytes] = []
    link.start(got.append)
    master = FdPort(pty.master)
    try:
        a, b, c, d = (_env(i, n=300) for i in (1, 2, 3, 4))
        bad = bytearray(frame(_env(9)))
        bad[40] ^= 0x5A  # payload byte: COBS still decodes, the CRC does not match
        cut = frame(_env(8))[:100]  # sender reset mid-frame
        stream = (b"\x13\x37garbage\xff\xfe" + b"\x00" + frame(a) + cut + b"\x00" + frame(b) + bytes(bad)
                  + os.urandom(64).replace(b"\x00", b"\x01") + b"\x00\x00" + frame(c)
                  + b"\x01\x02\x00\x05\x00" + frame(d))
        for i in range(0, len(stream), 97):  # arrives in odd-sized pieces
            master.write(stream[i:i + 97])
        wait_until(lambda: len(got) == 4, 10, "the four intact envelopes")
        time.sleep(0.1)
        assert got == [a, b, c, d]
        st = link.decoder.stats
        assert link.frames_dropped >= 4, st
        assert st.bad_crc + st.bad_cobs >= 3 and st.frames_ok == 4, st
    finally:
        link.close()
        pty.close()


def test_one_percent_byte_corruption_exactly_once() -> None:
    """1% of all bytes corrupted in both directions of a real pty: every envelope arrives exactly once
    (ARQ + duplicate filter); the corrupt frames are counted and dropped."""
    pty = PtyPair.open()
    spec = SerialSpec.parse(f"serial://{pty.slave_path}?baud=115200&rto=0.02&retries=1000")
    a_port = FaultyPort(spec.open_port(), byte_rate=0.01, seed=1)
    b_port = FaultyPort(FdPort(pty.master), byte_rate=0.01, seed=2)
    a = SerialLink(a_port, rto=0.02, retries=1000, name="a", rate=1e7, backoff=1)
    b = SerialLink(b_port, rto=0.02, retries=1000, name="b", rate=1e7, backoff=1)
    got_a: list[bytes] = []
    got_b: list[bytes] = []
    lock = threading.Lock()

    def into(lst: list[bytes]):  # type: ignore[no-untyped-def]
        def f(env: bytes) -> None:
            with lock:
                lst.append(env)
        return f

    a.start(into(got_a))
    b.start(into(got_b))
    n = 120
    try:
        to_b = [_env(i, n=8, sender=1, receiver=2) for i in range(1, n + 1)]
        to_a = [_env(i, n=8, sender=2, receiver=1) for i in range(1, n + 1)]
        for x, y in zip(to_b, to_a, strict=True):
            a.send(x)
            b.send(y)
        wait_until(lambda: len(got_a) == n and len(got_b) == n, 90, "every envelope through 1% corruption")
        assert a.flush(30) == 0 and b.flush(30) == 0
        time.sleep(0.2)
    finally:
        a.close()
        b.close()
        pty.close()
    assert sorted(got_b) == sorted(to_b) and len(set(got_b)) == n  # nothing lost, nothing twice
    assert sorted(got_a) == sorted(to_a) and len(set(got_a)) == n
    dropped = a.frames_dropped + b.frames_dropped
    corrupted = a_port.bytes_corrupted + b_port.bytes_corrupted
    assert corrupted > 0 and dropped > 0
    assert a.stats.given_up == b.stats.given_up == 0
    print(f"1% byte corruption: {corrupted} bytes corrupted, {dropped} frames dropped, "
          f"{a.stats.retransmits + b.stats.retransmits} retransmissions, "
          f"{a.stats.duplicates + b.stats.duplicates} duplicates filtered, 0 lost")


# ------------------------------------------------------------- whole model


def test_threads_identical_outputs(squeeze_dep: Deployment, squeeze_requests: list,
                                   squeeze_reference: list) -> None:
    """`bb-edge run --transport serial://pty`: nodes on real ptys through the hub == in-process."""
    got = run_deployment(squeeze_dep, squeeze_requests, "serial://pty")
    assert_same_outputs(got, squeeze_reference)


def test_processes_identical_outputs_cli(squeeze_dir: Path, squeeze_requests: list, squeeze_reference: list,
                                         tmp_path: Path) -> None:
    """`bb-edge run DIR --transport serial://pty --processes`: each node opens /dev/pts/N in its own process."""
    inp, out = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inp, **{k: np.stack([r[k] for r in squeeze_requests]) for k in squeeze_requests[0]})
    root = Path(__file__).resolve().parent.parent
    res = subprocess.run([sys.executable, "-m", "bb_edge.cli", "run", str(squeeze_dir), "--transport",
                          "serial://pty", "--processes", "--inputs", str(inp), "--outputs", str(out)],
                         capture_output=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(root)), cwd=root)
    assert res.returncode == 0, res.stderr.decode() + res.stdout.decode()
    data = np.load(out)
    assert_same_outputs([{k: data[k][i] for k in data.files} for i in range(len(squeeze_requests))],
                        squeeze_reference)


def test_model_over_corrupted_lines(squeeze_dep: Deployment, squeeze_requests: list,
                                    squeeze_reference: list) -> None:
    """Every 5th frame corrupted and line noise before every 7th, on all six pty directions: identical
    outputs, frames dropped and counted, every envelope applied exactly once by its engine."""
    opts = PtyFleetOptions(rto=0.05, corrupt_every=5, noise_every=7)
    fleet = PtyFleet(squeeze_dep, opts)
    host = fleet.host()
    try:
        fleet.start_threads()
        fleet.wait_up(host, TIMEOUT)
        got = host.run(squeeze_requests, window=2, timeout=TIMEOUT)
    finally:
        reports = fleet.stop()
        engines = {n: loop.engine for n, loop in fleet.loops.items()}
    assert_same_outputs(got, squeeze_reference)
    dropped = fleet.frames_dropped()
    assert sum(dropped.values()) > 0, dropped
    assert all(r.unconfirmed == 0 for r in reports.values()), reports
    per_request = {"n0": 1, "n1": 1, "n2": 2}
    hellos = {"n0": 2, "n1": 2, "n2": 2}  # each node hears the other two nodes' HELLO
    n = len(squeeze_requests)
    for name, eng in engines.items():
        c = eng.counters
        assert c["duplicates"] == 0 and c["dropped"] == 0, c  # the link filtered every repeat
        assert c["envelopes_in"] == n * per_request[name] + hellos[name], (name, c)
        evs = fleet.events[name]
        assert sum(isinstance(e, events.RequestCompleted) for e in evs) == n
    assert host.stats.outputs == n and host.stats.duplicates == 0
    link_dups = sum(link.stats.duplicates for link in fleet.hub_links.values())
    print(f"corrupted serial fleet: frames dropped {dropped}, duplicates filtered at the hub {link_dups}")
