"""MQTT transport against a real Mosquitto (started per test on a free loopback port, stopped by pid)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint, spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, BrokerFiles, acl_text, password_hash, write_broker_files
from bb_edge.adapters.transports.mqtt import MqttConfig, MqttError, MqttTransport
from bb_edge.commands.run import run_deployment
from bb_edge.deployment.manifest import Deployment
from bb_edge.engine import events
from bb_edge.wire import Envelope, encode
from bb_edge.wire.topics import Topics
from tests.support.transport_helpers import LineCollector, assert_same_outputs, make_tls, wait_until

pytest_plugins = ["tests.support.transport_fixtures"]

TIMEOUT = 60.0


# ------------------------------------------------------------------ units


def test_url_parsing(tmp_path: Path) -> None:
    creds = tmp_path / "c.json"
    creds.write_text('{"n0": "pw0"}')
    cfg = MqttConfig.from_url(f"mqtts://broker.example:8884?creds={creds}&qos=0&ca=/x/ca.pem&keepalive=5")
    assert (cfg.host, cfg.port, cfg.tls, cfg.qos, cfg.ca, cfg.keepalive) == ("broker.example", 8884, True, 0,
                                                                             "/x/ca.pem", 5)
    node = cfg.for_node("n0")
    assert (node.username, node.password) == ("n0", "pw0")
    assert MqttConfig.from_url("mqtts://h").port == 8883
    assert MqttConfig.from_url("mqtt://u:p%40ss@h:1").password == "p@ss"
    with pytest.raises(MqttError):
        MqttConfig.from_url("mqtt://h?qos=2")
    with pytest.raises(MqttError):
        cfg.for_node("n9")


def test_topics_and_acl(squeeze_dep: Deployment) -> None:
    t = Topics("my/dep+#", "bb")
    assert t.inbox("n1", "n0") == "bb/my_dep__/in/n1/n0"
    assert t.parse("bb/my_dep__/in/n1/n0") == ("in", "n1", "n0")
    assert t.parse("bb/my_dep__/presence/n2") == ("presence", "n2", "")
    assert t.parse("bb/other/in/n1/n0") is None
    acl = acl_text(squeeze_dep, Topics(squeeze_dep.name))
    base = f"bb/{squeeze_dep.name}"
    # n0 -> n1 is an edge, n0 -> n2 is not; everyone reads only its own inbox
    assert f"topic write {base}/in/n1/n0" in acl
    assert f"topic write {base}/in/n2/n0" not in acl
    assert f"topic read {base}/in/n0/+" in acl
    h = password_hash("secret", salt=bytes(12))
    assert h.startswith("$7$101$AAAAAAAAAAAAAAAA$")


# ------------------------------------------------------- identical outputs


def test_threads_identical_outputs(squeeze_dep: Deployment, broker: Broker, broker_files: BrokerFiles,
                                   squeeze_requests: list, squeeze_reference: list) -> None:
    """`bb-edge run --transport mqtt://` (threads) == in-process, bit for bit."""
    got = run_deployment(squeeze_dep, squeeze_requests, broker_files.url())
    assert_same_outputs(got, squeeze_reference)


def test_processes_identical_outputs_cli(squeeze_dir: Path, broker: Broker, broker_files: BrokerFiles,
                                         squeeze_requests: list, squeeze_reference: list,
                                         tmp_path: Path) -> None:
    """`bb-edge run DIR --transport mqtt://... --processes --outputs OUT` (one OS process per node)."""
    inp, out = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inp, **{k: np.stack([r[k] for r in squeeze_requests]) for k in squeeze_requests[0]})
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    res = subprocess.run([sys.executable, "-m", "bb_edge.cli", "run", str(squeeze_dir), "--transport",
                          broker_files.url(), "--processes", "--inputs", str(inp), "--outputs", str(out)],
                         capture_output=True, timeout=120, env=env, cwd=root)
    assert res.returncode == 0, res.stderr.decode() + res.stdout.decode()
    data = np.load(out)
    got = [{k: data[k][i] for k in data.files} for i in range(len(squeeze_requests))]
    assert_same_outputs(got, squeeze_reference)


def test_tls_with_passwords(squeeze_dep: Deployment, tmp_path: Path, squeeze_requests: list,
                            squeeze_reference: list) -> None:
    """mqtts:// with a private CA and per-node username/password."""
    tls = make_tls(tmp_path / "tls")
    files = write_broker_files(tmp_path / "broker", squeeze_dep, tls=tls)
    with Broker(files):
        url = files.url() + f"&ca={tls.cafile}"
        assert url.startswith("mqtts://")
        got = run_deployment(squeeze_dep, squeeze_requests[:1], url)
        assert_same_outputs(got, squeeze_reference[:1])
        # the same broker refuses a client that does not trust its certificate chain
        bad = MqttTransport(MqttConfig.from_url(files.url()), squeeze_dep.name, "n0", squeeze_dep.ids())
        bad.open(lambda p, d: None)
        with pytest.raises(MqttError):
            bad.wait_connected(2.0)
        bad.close(announce=False)


# ------------------------------------------------------------------ faults


def _completed(ev_list: list[events.Event]) -> int:
    return sum(1 for e in ev_list if isinstance(e, events.RequestCompleted))


def test_broker_restart_mid_stream(squeeze_dep: Deployment, broker: Broker, broker_files: BrokerFiles,
                                   squeeze_requests: list, squeeze_reference: list) -> None:
    """Kill the broker mid-run (inputs published while it is down); every envelope reaches its engine
    exactly once and every output is right."""
    fleet = MqttFleet(squeeze_dep, broker_files.url())
    fleet.start()
    engines = {n: loop.engine for n, loop in fleet.loops.items()}
    transports = {n: fleet.transport(n) for n in fleet.loops}
    host = host_endpoint(squeeze_dep, broker_files.url())
    reqs = squeeze_requests * 2  # 6 requests
    refs = squeeze_reference * 2
    base = 1000
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        for i in range(3):
            host.submit(base + i, reqs[i])
        first = host.wait(base, TIMEOUT)
        broker.stop()  # SIGTERM by pid: mosquitto saves sessions and queued messages
        for i in range(3, 6):  # published while the broker is down: queued by the host's client
            host.submit(base + i, reqs[i])
        time.sleep(0.3)
        broker.start()  # same port, same persistence file
        got = [first] + [host.wait(base + i, TIMEOUT) for i in range(1, 6)]
    finally:
        reports = fleet.stop()
        left = host.close()
    assert_same_outputs(got, refs)
    assert left == 0 and all(r.unconfirmed == 0 for r in reports.values()), reports
    assert all(tr.stats.disconnects >= 1 and tr.stats.connects >= 2 for tr in transports.values())
    # data envelopes each node receives per request: its cross-node edges in, plus the graph inputs it owns
    per_request = {n: sum(e.dst == n for e in squeeze_dep.edges) + sum(i.node == n for i in squeeze_dep.inputs)
                   for n in squeeze_dep.node_names}
    duplicates = 0
    for name, evs in fleet.events.items():
        infra = [e for e in evs if e.family == "infra" and not isinstance(e, events.DuplicateDropped)]
        assert infra == [], infra
        assert _completed(evs) == 6, (name, _completed(evs))
        c = engines[name].counters
        applied = c["envelopes_in"] - c["duplicates"] - c["dropped"]
        assert applied == 6 * per_request[name], (name, c)  # zero lost, zero applied twice
        duplicates += c["duplicates"]
    assert host.stats.outputs == 6
    print(f"broker restart: {duplicates} QoS-1 redeliveries dropped by the engines, "
          f"{host.stats.duplicates} by the host")


def test_node_killed_and_restarted(squeeze_dir: Path, squeeze_dep: Deployment, broker: Broker,
                                   broker_files: BrokerFiles, squeeze_requests: list,
                                   squeeze_reference: list) -> None:
    """SIGKILL a node process: the others report PeerDown (last will); what is sent to it meanwhile is
    queued by the broker; restarted, it rejoins (PeerUp) and completes the work."""
    url = broker_files.url()
    procs = {n: spawn_node(squeeze_dir, n, url, stdout=subprocess.PIPE) for n in squeeze_dep.node_names}
    logs = {n: LineCollector(p) for n, p in procs.items()}
    host = host_endpoint(squeeze_dep, url)
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        assert_same_outputs([host.wait(host_submit(host, 1, squeeze_requests[0]), TIMEOUT)],
                            squeeze_reference[:1])
        mark = len(logs["n0"].lines)
        os.kill(procs["n1"].pid, signal.SIGKILL)
        procs["n1"].wait(10)
        wait_until(lambda: logs["n0"].has("event PeerDown peer=n1", mark), TIMEOUT, "n0 to report n1 down")
        wait_until(lambda: logs["n2"].has("event PeerDown peer=n1", 0), TIMEOUT, "n2 to report n1 down")
        wait_until(lambda: "n1" not in host.up, TIMEOUT, "host to see n1 down")
        rid = host_submit(host, 2, squeeze_requests[1])  # n0 computes; its envelope for n1 waits at the broker
        wait_until(lambda: logs["n0"].has("event RequestCompleted request_id=2", mark), TIMEOUT,
                   "n0 to finish its part of request 2")
        assert not host.done(rid)
        mark = len(logs["n0"].lines)
        procs["n1"] = spawn_node(squeeze_dir, "n1", url, stdout=subprocess.PIPE)
        logs["n1"] = LineCollector(procs["n1"])
        assert_same_outputs([host.wait(rid, TIMEOUT)], squeeze_reference[1:2])
        wait_until(lambda: logs["n0"].has("event PeerUp peer=n1", mark), TIMEOUT, "n0 to see n1 rejoin")
        assert_same_outputs([host.wait(host_submit(host, 3, squeeze_requests[2]), TIMEOUT)],
                            squeeze_reference[2:3])
    finally:
        codes = {n: stop_process(p) for n, p in procs.items()}
        host.close()
    assert codes == {"n0": 0, "n1": 0, "n2": 0}, {n: logs[n].lines[-5:] for n in logs}
    for n in squeeze_dep.node_names:
        wait_until(lambda n=n: logs[n].has("shutdown "), 10, f"{n} shutdown report")
        line = next(x for x in logs[n].lines if x.startswith("shutdown "))
        assert " 0 unconfirmed" in line, line
        # StaleEnvelope is allowed: a node killed after computing but before its ack reached the broker gets
        # that input again, recomputes, and the next node drops the repeat for its completed request
        assert not logs[n].has("event StaleEpoch") and not logs[n].has("event Misaddressed"), logs[n].lines
    assert host.stats.outputs == 3 and host.stats.duplicates >= 0


def test_publish_inside_on_message_is_written_before_it_returns(squeeze_dep: Deployment, broker: Broker,
                                                                 broker_files: BrokerFiles) -> None:
    """An inline step publishes from inside ``on_message`` (paho's network thread): the transport writes it
    to the socket there, not once the callback returns. n0's callback sends to n1 and then waits, inside the
    callback, for n1 to have it; paho alone would write it only after the wait."""
    ids = squeeze_dep.ids()
    url = broker_files.url()
    tr = {n: MqttTransport(MqttConfig.from_url(url), squeeze_dep.name, n, ids) for n in ("n0", "n1")}
    n1_got = threading.Event()
    seen_inside: list[bool] = []

    def env(sender: str, receiver: str, seq: int) -> bytes:
        return encode(Envelope.for_bytes(b"x", sender=ids[sender], receiver=ids[receiver], seq=seq, edge=99))

    def n0_deliver(peer: str, data: bytes, ack: object) -> None:
        tr["n0"].send("n1", ids["n1"], env("n0", "n1", 1))
        seen_inside.append(n1_got.wait(20))  # still inside on_message
        if callable(ack):
            ack()

    def n1_deliver(peer: str, data: bytes, ack: object) -> None:
        n1_got.set()
        if callable(ack):
            ack()

    tr["n0"].open(n0_deliver)
    tr["n1"].open(n1_deliver)
    try:
        for t in tr.values():
            t.wait_connected(10)
        wait_until(lambda: tr["n1"].peers_up.get("n0") is True, 10, "n0 up at n1")
        tr["n1"].send("n0", ids["n0"], env("n1", "n0", 1))
        wait_until(lambda: bool(seen_inside), 30, "n0's callback")
        assert seen_inside == [True]
        assert tr["n0"].flush(10) == 0 and tr["n1"].flush(10) == 0
    finally:
        for t in tr.values():
            t.close()


def host_submit(host, rid: int, inputs: dict) -> int:  # type: ignore[no-untyped-def]
    host.submit(rid, inputs)
    return rid


# --------------------------------------------------------------------- ACL


class _Client:
    """A raw paho client for ACL probing."""

    def __init__(self, files: BrokerFiles, user: str | None, password: str | None, cid: str) -> None:
        self.got: list[tuple[str, bytes]] = []
        self.connect_rc: object = None
        self.suback: list[object] = []
        self.connected = threading.Event()
        self.subscribed = threading.Event()
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=cid)
        if user is not None:
            c.username_pw_set(user, password)
        c.on_connect = lambda cl, u, f, rc, p: (setattr(self, "connect_rc", rc), self.connected.set())
        c.on_message = lambda cl, u, m: self.got.append((m.topic, m.payload))
        c.on_subscribe = lambda cl, u, mid, codes, p: (self.suback.extend(codes), self.subscribed.set())
        c.connect(files.host, files.port, keepalive=5)
        c.loop_start()
        self.c = c
        self.connected.wait(10)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def test_acl_refuses_impostors(squeeze_dep: Deployment, broker: Broker, broker_files: BrokerFiles) -> None:
    """Under the generated config: wrong identity is refused at connect; a node can neither publish as
    another node, nor into the inbox of a node it has no edge to, nor read another node's inbox."""
    pw = broker_files.passwords
    t = Topics(squeeze_dep.name)
    ids = squeeze_dep.ids()
    got: dict[str, list[bytes]] = {"n1": [], "n2": []}
    victims = {n: MqttTransport(MqttConfig.from_url(broker_files.url()), squeeze_dep.name, n, ids)
               for n in ("n1", "n2")}
    for n, tr in victims.items():
        tr.open(lambda peer, data, n=n: got[n].append(data))
        tr.wait_connected(10)
    clients: list[_Client] = []
    try:
        # identity: n0's password for user n1, no password, unknown user -> refused
        for user, password in (("n1", pw["n0"]), (None, None), ("mallory", "x")):
            c = _Client(broker_files, user, password, f"probe-{user}")
            clients.append(c)
            assert c.connected.is_set() and getattr(c.connect_rc, "is_failure", False), (user, c.connect_rc)
        n0 = _Client(broker_files, "n0", pw["n0"], "ignored-cid")  # client id is forced to "n0"
        clients.append(n0)
        assert n0.connect_rc is not None and not getattr(n0.connect_rc, "is_failure", True)

        def env(sender: int, receiver: int) -> bytes:
            return encode(Envelope.for_bytes(b"x", sender=sender, receiver=receiver, seq=7, edge=99))

        # reading another node's inbox: mosquitto 2.0 grants the SUBACK for MQTT 3.1.1 but the read ACL
        # filters every message on it (checked below: n0.got stays empty while n1 receives)
        n0.c.subscribe(t.inbox_filter("n1"), qos=1)
        assert n0.subscribed.wait(10)
        # publishing as n2 into n1's inbox; publishing into n2's inbox (no n0->n2 edge)
        n0.c.publish(t.inbox("n1", "n2"), env(ids["n2"], ids["n1"]), qos=1).wait_for_publish(5)
        n0.c.publish(t.inbox("n2", "n0"), env(ids["n0"], ids["n2"]), qos=1).wait_for_publish(5)
        n0.c.publish(t.presence("n1"), b"down", qos=1).wait_for_publish(5)
        # allowed topic, forged header sender: the broker passes it, the adapter drops it
        n0.c.publish(t.inbox("n1", "n0"), env(ids["n2"], ids["n1"]), qos=1).wait_for_publish(5)
        # positive control: a legitimate envelope on an edge topic gets through
        n0.c.publish(t.inbox("n1", "n0"), env(ids["n0"], ids["n1"]), qos=1).wait_for_publish(5)
        wait_until(lambda: len(got["n1"]) == 1, 10, "the legitimate envelope")
        time.sleep(0.5)
        assert len(got["n1"]) == 1 and got["n2"] == []
        assert victims["n1"].stats.spoofed == 1
        assert victims["n2"].peers_up.get("n1") is True  # the forged presence did not land
        assert n0.got == []
    finally:
        for c in clients:
            c.close()
        for tr in victims.values():
            tr.close()


def test_broker_command(squeeze_dir: Path, squeeze_dep: Deployment, tmp_path: Path) -> None:
    """`bb-edge broker DIR`: generated config, a node connects with its credentials, SIGTERM stops it."""
    from bb_edge.adapters.ops.broker import free_port

    port = free_port()
    out = tmp_path / "brk"
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "bb_edge.cli", "broker", str(squeeze_dir), "-o", str(out),
                             "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=dict(os.environ, PYTHONPATH=str(root)), cwd=root, start_new_session=True)
    log = LineCollector(proc)
    try:
        wait_until(lambda: log.has("mosquitto running"), 20, "the broker to start")
        url = next(x for x in log.lines if x.startswith("transport URL: ")).split(": ", 1)[1]
        assert url == f"mqtt://127.0.0.1:{port}?creds={out / 'credentials.json'}"
        assert (out / "acl").read_text() == acl_text(squeeze_dep, Topics(squeeze_dep.name))
        tr = MqttTransport(MqttConfig.from_url(url), squeeze_dep.name, "n2", squeeze_dep.ids())
        tr.open(lambda p, d: None)
        tr.wait_connected(10)
        tr.close()
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        code = proc.wait(20)
    assert code == 0, log.lines
    with pytest.raises(OSError):
        import socket

        socket.create_connection(("127.0.0.1", port), timeout=1).close()
