"""The C runtime's node loop on a secured broker: firmware/ports/posix-mqtt (libmosquitto) against a real
Mosquitto running `bb-edge broker`'s generated config (allow_anonymous false, per-node passwords, ACL,
use_username_as_clientid) on a free loopback port.

small_cnn is split n0 (Python) -> n1 (C, the built ``host-mqtt`` bundle, launched by
bb_edge/adapters/fleet/c_mqtt_node.py) -> n2 (Python); the host and the Python nodes are bb_edge/adapters/transports/mqtt.py clients with
their own credentials. Every process is stopped by pid.

BB_EDGE_LONG=1 runs 8 requests per phase (CI default: 2).
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.adapters.ops.broker import Broker, BrokerFiles, write_broker_files
from bb_edge.adapters.fleet.c_mqtt_node import (
    EXIT_BROKER_REFUSED,
    EXIT_NO_CONNECTION,
    parse_counters,
    spawn_c_mqtt_node,
)
from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint, stop_process
from bb_edge.adapters.fleet.hostloop import RunIncomplete
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.wire.topics import Topics
from tests.support.examples import sample_inputs, small_cnn
from bb_edge.bbrt.format import parse
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.engine import events
from bb_edge.wire import envelope as wire
from tests.support.transport_helpers import CNode, RawClient, assert_same_outputs, make_tls
from tests.support.no_heap import HEAP_SYMBOLS
from tests.support.fleet import stop_fleet

INT8_TOL = 0.05  # max abs error on the class probabilities (as tests/firmware/test_bbrt_e2e.py)
PER_PHASE = 8 if os.environ.get("BB_EDGE_LONG") == "1" else 2


@pytest.fixture(scope="module")
def fleet_dirs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """small_cnn split n0 (Python) -> n1 (host-mqtt bundle: bbrt-mqtt + program.bbrt + run.sh) -> n2."""
    assert Path("/usr/include/mosquitto.h").exists(), "libmosquitto-dev missing: bash .ci/test.sh installs it"
    d = tmp_path_factory.mktemp("dep")
    dist = tmp_path_factory.mktemp("dist")
    compile_model(small_cnn(), cuts=["p1", "g"], node_names=["n0", "n1", "n2"], out_dir=d)
    calib = sample_inputs(16, seed=7)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in calib]))
    (res,) = build_all(d, ["n1=host-mqtt"], dist, calib=d / "calib.npz")
    return res.deployment_dir or d, dist  # the deployment with the int8 edges the build chose


def _stop(proc: subprocess.Popen[bytes]) -> str:
    """Stop a node process by pid; its stderr."""
    stop_process(proc, timeout=10)
    return proc.stderr.read().decode(errors="replace") if proc.stderr is not None else ""


def _fleet(dep: Deployment, url: str) -> MqttFleet:
    fleet = MqttFleet(dep, url, nodes=["n0", "n2"])
    fleet.start()
    return fleet


def test_bundle_layout(fleet_dirs: tuple[Path, Path]) -> None:
    """The host-mqtt build is the posix MQTT node: its run.sh carries the node's name, deployment and the
    deployment's node ids; the executable links libmosquitto (the node runtime itself is static)."""
    d, dist = fleet_dirs
    dep = load_deployment(d)
    b = dist / "n1"
    run = (b / "run.sh").read_text()
    assert "bbrt-mqtt" in run and f"--deployment {dep.name}" in run and "--name n1" in run
    for name, i in dep.ids().items():
        if name in dep.node_names:
            assert f"--peer {i}={name}" in run
    ldd = subprocess.run(["ldd", str(b / "bbrt-mqtt")], capture_output=True, text=True, timeout=20).stdout
    assert "libmosquitto" in ldd
    # the node runtime and the port call no allocator: every heap call is inside libmosquitto.so
    imported = {ln.split()[-1].split("@")[0] for ln in subprocess.run(
        ["nm", "-D", "--undefined-only", str(b / "bbrt-mqtt")], capture_output=True, text=True, check=True,
        timeout=20).stdout.splitlines() if ln.strip()}
    assert "mosquitto_will_set" in imported and "mosquitto_username_pw_set" in imported
    assert not imported & HEAP_SYMBOLS, sorted(imported & HEAP_SYMBOLS)


def test_c_node_joins_secured_fleet(fleet_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    """n1 (C) joins with its generated credentials; outputs equal the fleet with the same C runtime run
    in-process, bit for bit, and the float reference within int8 tolerance: before and after a broker
    restart (it reconnects to its persistent session), and for a request sent while n1 was stopped (the
    broker queued it in n1's session; the restarted node's new boot epoch keeps its seq fresh)."""
    d, dist = fleet_dirs
    dep = load_deployment(d)
    files = write_broker_files(tmp_path / "broker", dep)
    url = files.url()
    requests = [{"x": s["x"]} for s in sample_inputs(2 * PER_PHASE + 1, seed=5)]
    blob = (dist / "n1" / "program.bbrt").read_bytes()
    ref = InProcFleet(dep, external={"n1": CNode(blob, parse(blob).arena_size)}).run(requests)
    sess = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    floats = [sess.run(None, r)[0] for r in requests]

    broker = Broker(files).start()
    procs: list[subprocess.Popen[bytes]] = []
    fleet = host = None
    errs: list[str] = []
    try:
        fleet = _fleet(dep, url)
        procs.append(spawn_c_mqtt_node(dist / "n1", url, keepalive=5, stderr=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL))
        host = host_endpoint(dep, url)
        host.wait_for_peers(["n0", "n1", "n2"], 15)
        got = host.run(requests[:PER_PHASE], timeout=20)
        broker.restart(down_for=0.3)
        host.transport.wait_connected(10)  # type: ignore[attr-defined]
        got += host.run(requests[PER_PHASE:2 * PER_PHASE], timeout=20)
        time.sleep(1.0)  # the C node reconnects within its back-off cap (2 s) of the restart
        errs.append(_stop(procs[0]))
        # a request while n1 is away: n0 publishes into n1's persistent session; a new n1 process gets it
        late: list[dict[str, np.ndarray]] = []
        th = threading.Thread(target=lambda: late.extend(host.run(requests[2 * PER_PHASE:], timeout=30)))
        th.start()
        time.sleep(1.0)
        assert th.is_alive()  # nothing can answer it yet
        procs.append(spawn_c_mqtt_node(dist / "n1", url, keepalive=5, stderr=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL))
        th.join(40)
        assert not th.is_alive()
        got += late
        host.transport.publish(Topics(dep.name).control(), b"stop", qos=1)  # type: ignore[attr-defined]
        procs[1].wait(10)
        assert procs[1].returncode == 0
        errs.append(procs[1].stderr.read().decode(errors="replace") if procs[1].stderr else "")
        reports = fleet.stop()
        fleet_events = fleet.events
    finally:
        for p in procs:
            if p.poll() is None:
                print("C node:", _stop(p)[-3000:])
        print("broker log:", broker.log()[-2000:])
        stop_fleet(broker, host=host, fleet=fleet)
    assert_same_outputs(got, ref)
    worst = max(float(np.abs(g["prob"] - f).max()) for g, f in zip(got, floats, strict=True))
    assert worst <= INT8_TOL, worst
    first, second = parse_counters(errs[0]), parse_counters(errs[1])
    assert first["inferences"] == 2 * PER_PHASE and second["inferences"] == 1, errs
    # the broker restart: a reconnect that found its session (CONNACK session present), none lost
    assert first["reconnects"] >= 1 and first["session_resumed"] >= 1 and first["session_resets"] == 0, errs[0]
    assert second["session_resumed"] == 0 and second["connects"] == 1, errs[1]
    assert second["epoch"] > first["epoch"] >= 1, errs  # boot-epoch file bumped per start
    for c in (first, second):
        assert c["spoofed"] == c["foreign"] == c["publish_errors"] == c["oversize"] == 0, errs
        assert c["bad_envelopes"] == c["unknown_edge"] == c["edge_mismatch"] == c["run_errors"] == 0, errs
    assert all(r.unconfirmed == 0 for r in reports.values()), reports
    for name, evs in fleet_events.items():
        bad = [e for e in evs if e.family == "infra" and not isinstance(e, events.DuplicateDropped)]
        assert bad == [], (name, bad)


def test_wrong_password_is_refused(fleet_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    """A wrong password, or none, is refused at CONNECT: the C node says so and exits 4 at once (no retry
    loop, no hang); an unreachable broker ends with exit 5 after --connect-timeout."""
    d, dist = fleet_dirs
    dep = load_deployment(d)
    files = write_broker_files(tmp_path / "broker", dep)
    with Broker(files):
        for url in (f"mqtt://n1:wrong@127.0.0.1:{files.port}", f"mqtt://127.0.0.1:{files.port}",
                    f"mqtt://n1:{files.passwords['n0']}@127.0.0.1:{files.port}"):  # another node's password
            t0 = time.monotonic()
            p = spawn_c_mqtt_node(dist / "n1", url, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
            try:
                _, err = p.communicate(timeout=10)
            finally:
                if p.poll() is None:
                    stop_process(p)
            text = err.decode(errors="replace")
            assert p.returncode == EXIT_BROKER_REFUSED, (url, text)
            assert "the broker refused the connection" in text and "connects=0" in text, text
            assert time.monotonic() - t0 < 5
    port = files.port  # the broker is gone: nothing listens there now
    p = spawn_c_mqtt_node(dist / "n1", f"mqtt://n1:x@127.0.0.1:{port}", connect_timeout=1.0,
                          stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    _, err = p.communicate(timeout=15)
    assert p.returncode == EXIT_NO_CONNECTION and b"no connection" in err, err


def _misrouted(files: BrokerFiles, dep: Deployment, dist: Path, observer: tuple[str | None, str | None]) -> int:
    """Run one request with n1 told that n2's id is ``_host``: n1 publishes its output on in/_host/n1, a
    topic its ACL does not grant (n1 owns no graph input or output). Returns how many envelopes a _host
    subscriber saw there within 3 s; asserts the C node did compute and publish."""
    url = files.url()
    ids = dep.ids()
    broker = Broker(files).start()
    fleet = host = watch = None
    proc = None
    seen: list[bytes] = []
    try:
        fleet = _fleet(dep, url)
        proc = spawn_c_mqtt_node(dist / "n1", url, extra=["--peer", f"{ids['n2']}=_host"],
                                 stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        watch = RawClient("127.0.0.1", files.port, observer[0], observer[1], client_id="_watch")
        watch.c.on_message = lambda c, u, m: seen.append(bytes(m.payload))
        watch.c.subscribe(Topics(dep.name).inbox_filter("_host"), qos=1)
        host = host_endpoint(dep, url)
        host.wait_for_peers(["n0", "n1", "n2"], 15)
        with pytest.raises(RunIncomplete):  # the output never reaches n2: the run gives up
            host.run([{"x": sample_inputs(1, seed=3)[0]["x"]}], timeout=3, retry_after=10)
        time.sleep(0.5)
        err = _stop(proc)
    finally:
        if proc is not None and proc.poll() is None:
            _stop(proc)
        if watch is not None:
            watch.close()
        stop_fleet(broker, host=host, fleet=fleet)
    c = parse_counters(err)
    assert c["inferences"] == 1 and c["sent"] >= 2 and c["publish_errors"] == 0, err  # HELLO + the output
    return len([s for s in seen if int.from_bytes(s[8:12], "little") == ids["n1"]])


def test_acl_stops_a_publish_to_a_peer_without_an_edge(fleet_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    """Under the generated ACL the misrouted envelope never arrives; on an open broker (no ACL, the
    oracle) the very same run delivers it, so it is the ACL that stops it."""
    d, dist = fleet_dirs
    dep = load_deployment(d)
    secured = write_broker_files(tmp_path / "secured", dep)
    assert _misrouted(secured, dep, dist, ("_host", secured.passwords["_host"])) == 0
    open_files = write_broker_files(tmp_path / "open", None)
    assert _misrouted(open_files, dep, dist, (None, None)) == 1


def test_c_node_over_tls(fleet_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    """mqtts:// with the CA file: the C node verifies the broker's certificate and serves a request; with a
    CA that did not sign it the TLS handshake fails and the node gives up after its connect timeout."""
    d, dist = fleet_dirs
    dep = load_deployment(d)
    tls = make_tls(tmp_path / "tls")
    files = write_broker_files(tmp_path / "broker", dep, tls=tls)
    url = files.url() + f"&ca={tls.cafile}"
    req = [{"x": sample_inputs(1, seed=11)[0]["x"]}]
    blob = (dist / "n1" / "program.bbrt").read_bytes()
    ref = InProcFleet(dep, external={"n1": CNode(blob, parse(blob).arena_size)}).run(req)
    other = make_tls(tmp_path / "other")
    broker = Broker(files).start()
    fleet = host = proc = None
    try:
        fleet = _fleet(dep, url)
        proc = spawn_c_mqtt_node(dist / "n1", url, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        host = host_endpoint(dep, url)
        host.wait_for_peers(["n0", "n1", "n2"], 15)
        assert_same_outputs(host.run(req, timeout=20), ref)
        err = _stop(proc)
        assert parse_counters(err)["inferences"] == 1, err
        bad = spawn_c_mqtt_node(dist / "n1", files.url() + f"&ca={other.cafile}", connect_timeout=1.5,
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        _, e2 = bad.communicate(timeout=15)
        assert bad.returncode == EXIT_NO_CONNECTION, e2
    finally:
        if proc is not None and proc.poll() is None:
            _stop(proc)
        stop_fleet(broker, host=host, fleet=fleet)


class RecordingCNode(CNode):
    """The reference C node that also keeps the envelopes it was sent and sent back (n0 -> n1 -> n2)."""

    def __init__(self, blob: bytes, arena_size: int) -> None:
        super().__init__(blob, arena_size)
        self.inbound: list[bytes] = []
        self.outbound: list[bytes] = []

    def send(self, envelope: bytes) -> None:
        self.inbound.append(bytes(envelope))
        super().send(envelope)

    def receive(self) -> list[bytes]:
        out = super().receive()
        self.outbound += out
        return out


def test_hostile_inbox_changes_nothing(fleet_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    """What a peer with valid credentials publishes into n1's inbox is checked before it is used: short
    garbage and an envelope whose header names another sender (impostor) are dropped by the port, a
    corrupt envelope and a wrong edge by the node loop, a replay as a duplicate. Then n1 answers the real
    input exactly as the in-process C node does (the state after the hostile messages equals the state
    without them), and only once."""
    d, dist = fleet_dirs
    dep = load_deployment(d)
    ids = dep.ids()
    blob = (dist / "n1" / "program.bbrt").read_bytes()
    rec = RecordingCNode(blob, parse(blob).arena_size)
    InProcFleet(dep, external={"n1": rec}).run([{"x": sample_inputs(1, seed=21)[0]["x"]}])
    real = next(e for e in rec.inbound if wire.decode(e).kind == wire.KIND_DATA)
    want = next(wire.decode(e) for e in rec.outbound if wire.decode(e).kind == wire.KIND_DATA)
    files = write_broker_files(tmp_path / "broker", dep)
    t = Topics(dep.name)
    broker = Broker(files).start()
    proc = None
    n0 = n2 = None
    got: list[bytes] = []
    try:
        n2 = RawClient("127.0.0.1", files.port, "n2", files.passwords["n2"], client_id="n2")
        n2.c.on_message = lambda c, u, m: got.append(bytes(m.payload))
        n2.c.subscribe(t.inbox_filter("n2"), qos=1)
        proc = spawn_c_mqtt_node(dist / "n1", files.url(), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        n0 = RawClient("127.0.0.1", files.port, "n0", files.passwords["n0"], client_id="n0")
        n0.c.subscribe(t.presence("n1"), qos=1)
        ready = threading.Event()
        n0.c.on_message = lambda c, u, m: ready.set() if m.payload == b"up" else None
        assert ready.wait(15)
        env = wire.decode(real)
        impostor = bytearray(real)
        impostor[8:12] = ids["n2"].to_bytes(4, "little")  # header claims n2, topic (ACL) says n0
        corrupt = bytearray(real[:40])
        wrong_edge = wire.encode(replace(env, edge=env.edge + 1000, seq=env.seq + 1))
        for bad in (b"\x00" * 7, bytes(impostor), bytes(corrupt), wrong_edge):
            n0.publish(t.inbox("n1", "n0"), bad)
        n0.publish(t.inbox("n1", "n0"), real)
        n0.publish(t.inbox("n1", "n0"), real)  # a replay: same (sender, seq)
        deadline = time.monotonic() + 10
        while not got and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # a second answer, if any, would be here by now
        err = _stop(proc)
    finally:
        if proc is not None and proc.poll() is None:
            _stop(proc)
        for c in (n0, n2):
            if c is not None:
                c.close()
        broker.stop()
    data = [wire.decode(g) for g in got if wire.decode(g).kind == wire.KIND_DATA]
    assert len(data) == 1, err
    out = data[0]
    assert (out.sender, out.receiver, out.edge, out.request_id, out.dims) == \
        (want.sender, want.receiver, want.edge, want.request_id, want.dims)
    assert bytes(out.data) == bytes(want.data) and (out.scale, out.zero_point) == (want.scale, want.zero_point)
    c = parse_counters(err)
    assert c["spoofed"] == 2 and c["bad_envelopes"] == 1 and c["unknown_edge"] == 1, err
    assert c["duplicates"] == 1 and c["inferences"] == 1 and c["received"] == 4, err


def test_password_sources(fleet_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    """run.sh takes the password from the broker's credentials.json (--creds, the node's entry) or a file
    (--password-file); a credentials file without the node's entry is a usage error (exit 2)."""
    d, dist = fleet_dirs
    files = write_broker_files(tmp_path / "broker", load_deployment(d))
    (tmp_path / "pw").write_text(files.passwords["n1"] + "\n")
    (tmp_path / "other.json").write_text('{"n0": "x"}')
    run = ["sh", str(dist / "n1" / "run.sh"), "--port", str(files.port), "--epoch-file", str(tmp_path / "ep")]
    with Broker(files) as broker:
        for extra in (["--creds", str(files.credentials)], ["--password-file", str(tmp_path / "pw")]):
            before = broker.log().count(" as n1 (")
            p = subprocess.Popen(run + extra, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 start_new_session=True)
            try:  # the broker logs each accepted CONNECT ("New client connected ... as n1 (...u'n1')")
                deadline = time.monotonic() + 10
                while broker.log().count(" as n1 (") == before and time.monotonic() < deadline:
                    time.sleep(0.05)
            finally:
                err = _stop(p)
            assert p.returncode == 0 and parse_counters(err)["connects"] == 1, err
        bad = subprocess.run(run + ["--creds", str(tmp_path / "other.json")], capture_output=True, text=True,
                             timeout=10)
    assert bad.returncode == 2 and "has no password for n1" in bad.stderr
    exe = [str(dist / "n1" / "bbrt-mqtt"), str(dist / "n1" / "program.bbrt"), "--name", "n1", "--deployment", "d"]
    for args in (["--port", "abc"], ["--port", "0"], ["--keepalive", "x"], ["--connect-timeout", "-1"],
                 ["--peer", "7"], ["--peer", "x=n2"], ["--bogus", "1"], ["--port"]):
        r = subprocess.run(exe + args, capture_output=True, text=True, timeout=10)
        assert r.returncode == 2 and "connects=" not in r.stderr, (args, r.stderr)  # refused before any connect


def test_last_will_and_clean_down(fleet_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    """A killed C node (SIGKILL: no chance to say goodbye) is announced "down" by the broker from its last
    will, retained; a stopped one (SIGTERM) publishes "down" itself. "up" is retained while it runs."""
    import signal

    d, dist = fleet_dirs
    dep = load_deployment(d)
    files = write_broker_files(tmp_path / "broker", dep)
    topic = Topics(dep.name).presence("n1")

    def presence_now() -> bytes:
        """The retained presence of n1, as a new subscriber gets it."""
        seen: list[bytes] = []
        c = RawClient("127.0.0.1", files.port, "_host", files.passwords["_host"], client_id="_host")
        c.c.on_message = lambda cl, u, m: seen.append(bytes(m.payload))
        c.c.subscribe(topic, qos=1)
        deadline = time.monotonic() + 5
        while not seen and time.monotonic() < deadline:
            time.sleep(0.02)
        c.close()
        return seen[0] if seen else b""

    with Broker(files):
        for sig in (signal.SIGKILL, signal.SIGTERM):
            p = spawn_c_mqtt_node(dist / "n1", files.url(), stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
            try:
                deadline = time.monotonic() + 10
                while presence_now() != b"up" and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert presence_now() == b"up"
                os.kill(p.pid, sig)
                p.wait(10)
            finally:
                if p.poll() is None:
                    stop_process(p)
            deadline = time.monotonic() + 5
            while presence_now() != b"down" and time.monotonic() < deadline:
                time.sleep(0.1)
            assert presence_now() == b"down", sig
