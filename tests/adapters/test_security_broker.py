"""The generated brokers against a hostile node or site (issue 25, items 1 and 5), on real Mosquitto.

- Size limits: one node's credentials cannot make the broker hold more than the configured bytes for a
  stopped peer, and an envelope above ``message_size_limit`` is never delivered. Oracle: the sizes are
  computed here from the deployment's shapes, and the broker's RSS and the bytes the peer finally receives
  are measured.
- Least privilege for sites: with the site's own credentials and with the bridge's password (read from
  the site's ``mosquitto.conf``) a forged final output, a read of another site's nodes' traffic and a
  ``stop`` are all refused, while each allowed path (same clients, same brokers) does work, so every
  refusal is the ACL's and not a dead link. The bridge session is persistent: a message queued on the
  core while the site broker is down arrives after it restarts.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.deployment.manifest import HOST_NAME, Deployment, EdgeSpec, IOSpec
from bb_edge.wire import envelope as wire
from bb_edge.wire.topics import Topics
from tests.support.broker import MqttUser
from tests.support.transport_helpers import wait_until

pytest_plugins = ["tests.support.transport_fixtures"]

TIMEOUT = 30.0
ITEMSIZE = {"float32": 4, "int8": 1, "uint8": 1, "float16": 2, "int32": 4, "int64": 8}


def rss_kib(pid: int) -> int:
    """Resident set size of ``pid`` in KiB."""
    m = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
    assert m
    return int(m.group(1))


def largest_envelope(dep: Deployment) -> int:
    """The largest tensor the deployment sends, from its shapes (the oracle of message_size_limit)."""
    sizes = []
    tensors: list[EdgeSpec | IOSpec] = [*dep.edges, *dep.inputs, *dep.outputs]
    for x in tensors:
        n = 1
        for d in x.shape:
            n *= d
        sizes.append(n * ITEMSIZE[x.dtype])
    return max(sizes) + wire.data_offset(wire.MAX_RANK)


def test_broker_limits_bound_what_one_node_can_queue(squeeze_dep: Deployment, tmp_path: Path) -> None:
    """A node floods a stopped peer: the broker holds at most max_queued_bytes, oversize never passes."""
    dep = squeeze_dep
    first, second = dep.node_names[0], dep.node_names[1]
    files = write_broker_files(tmp_path / "b", dep)
    conf = files.conf.read_text()
    limit = int(re.search(r"^message_size_limit (\d+)$", conf, re.M).group(1))  # type: ignore[union-attr]
    queued = int(re.search(r"^max_queued_bytes (\d+)$", conf, re.M).group(1))  # type: ignore[union-attr]
    assert re.search(r"^max_queued_messages (\d+)$", conf, re.M)
    want = largest_envelope(dep)
    assert want <= limit <= 2 * want, (want, limit)  # the largest envelope passes, with bounded headroom
    assert 0 < queued <= 64 * limit
    topics = Topics(dep.name)
    with Broker(files) as broker:
        assert broker.pid is not None
        peer = MqttUser(files.port, second, files.passwords[second], (topics.inbox_filter(second),), clean=False)
        peer.close()  # the peer stops; its persistent session queues what is sent to it
        time.sleep(0.3)
        before = rss_kib(broker.pid)
        size = limit - 200
        n = 3 * queued // size + 2
        flood = MqttUser(files.port, first, files.passwords[first])
        for i in range(n):
            flood.publish(topics.inbox(second, first), i.to_bytes(4, "big") + bytes(size - 4))
        flood.close()
        big = MqttUser(files.port, first, files.passwords[first])
        big.c.publish(topics.inbox(second, first), b"BIG!" + bytes(limit + 1000), qos=1)  # refused by size
        time.sleep(0.5)
        big.c.loop_stop()
        grown = rss_kib(broker.pid) - before
        peer = MqttUser(files.port, second, files.passwords[second], (topics.inbox_filter(second),), clean=False)
        time.sleep(1.5)  # everything queued is delivered by now
        peer.close()
    received = peer.got
    assert received, "the queue delivered nothing: the flood did not reach the peer at all"
    assert not any(p.startswith(b"BIG!") for _, p in received)
    held = sum(len(p) for _, p in received)
    print(f"broker limits: message_size_limit {limit}, max_queued_bytes {queued}; flood {n} x {size} B = "
          f"{n * size >> 20} MiB to a stopped peer: {len(received)} delivered ({held >> 20} MiB), "
          f"broker RSS +{grown >> 10} MiB, the {limit + 1004} B envelope never delivered")
    # the queue holds at most max_queued_bytes (+ one message in flight); the flood was 3x that
    assert held <= queued + size, (held, queued, n * size)
    assert grown * 1024 < queued + 16 * 1024 * 1024, (grown, queued)


@pytest.fixture
def sites(squeeze_dep: Deployment, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A core broker accepting site ``east`` (serving the middle node) and that site's broker."""
    dep = squeeze_dep
    middle = dep.node_names[1]
    core = write_broker_files(tmp_path / "core", dep, accept_bridges={"east": [middle]})
    site = write_broker_files(tmp_path / "site", dep, site="east", site_nodes=[middle],
                              bridge_to=f"mqtt://127.0.0.1:{core.port}?creds={core.credentials}")
    return core, site


def test_site_holds_only_its_nodes_credentials(squeeze_dep: Deployment, sites) -> None:  # type: ignore[no-untyped-def]
    """The site's files name only its own node: no _host, _status or other node's password anywhere."""
    core, site = sites
    middle = squeeze_dep.node_names[1]
    assert set(json.loads(site.credentials.read_text())) == {middle}
    assert [line.split(":")[0] for line in site.passwd.read_text().splitlines()] == [middle]
    others = [n for n in [*squeeze_dep.node_names, HOST_NAME] if n != middle]
    core_pw = json.loads(core.credentials.read_text())
    for text in (site.conf.read_text(), site.acl.read_text(), site.credentials.read_text()):
        assert not any(core_pw[o] in text for o in others)


def test_bridge_credentials_cannot_forge_read_or_stop(squeeze_dep: Deployment, sites) -> None:  # type: ignore[no-untyped-def]
    """Logged in to the core with the bridge's own password: only the site's node's topics are open."""
    dep = squeeze_dep
    first, middle, last = dep.node_names
    core, site = sites
    t = Topics(dep.name)
    bridge_pw = re.search(r"^remote_password (\S+)$", site.conf.read_text(), re.M).group(1)  # type: ignore[union-attr]
    pw = core.passwords
    with Broker(core):  # the site broker is not running: the bridge's identity is the attacker's alone
        host = MqttUser(core.port, HOST_NAME, pw[HOST_NAME], (t.inbox_filter(HOST_NAME),))
        tail = MqttUser(core.port, last, pw[last], (t.inbox_filter(last), t.control()))
        head = MqttUser(core.port, first, pw[first])
        spy = MqttUser(core.port, "_bridge_east", bridge_pw, (f"{t.base}/#", t.inbox_filter(first), t.control(),
                                                             t.inbox_filter(middle)))
        try:
            spy.publish(t.inbox(HOST_NAME, last), b"forged final output")  # posing as the last stage
            spy.publish(t.control(), b"stop")
            spy.publish(t.inbox(last, middle), b"allowed")  # the site's node's own edge: must arrive
            wait_until(lambda: (t.inbox(last, middle), b"allowed") in tail.got, TIMEOUT, "the allowed edge")
            host.publish(t.inbox(first, HOST_NAME), b"not for the site")
            head.publish(t.inbox(middle, first), b"for the site")
            wait_until(lambda: t.inbox(middle, first) in spy.topics(), TIMEOUT, "the site's own inbox")
            time.sleep(0.5)
            assert host.got == []  # no forged output reached the host
            assert tail.got == [(t.inbox(last, middle), b"allowed")]  # no stop reached a node
            assert t.inbox(first, HOST_NAME) not in spy.topics()  # another node's traffic is not readable
            assert t.control() not in spy.topics()  # (the spy wrote it: not echoed, nor readable as ctl write)
        finally:
            for c in (host, tail, head, spy):
                c.close()


def test_site_credentials_cannot_forge_or_stop_and_the_bridge_session_persists(  # type: ignore[no-untyped-def]
        squeeze_dep: Deployment, sites) -> None:
    """With the site's credentials: forged output and stop are refused; control from the core gets through;
    a message queued on the core while the site broker is down arrives after it restarts."""
    dep = squeeze_dep
    first, middle, last = dep.node_names
    core, site = sites
    t = Topics(dep.name)
    pw = core.passwords
    with Broker(core), Broker(site) as site_broker:
        host = MqttUser(core.port, HOST_NAME, pw[HOST_NAME], (t.inbox_filter(HOST_NAME),))
        tail = MqttUser(core.port, last, pw[last], (t.inbox_filter(last), t.control()))
        head = MqttUser(core.port, first, pw[first])
        mid = MqttUser(site.port, middle, site.passwords[middle], (t.inbox_filter(middle), t.control()), clean=False)
        try:
            wait_until(lambda: (mid.publish(t.inbox(last, middle), b"up") or  # type: ignore[func-returns-value]
                                (t.inbox(last, middle), b"up") in tail.got), TIMEOUT, "the bridge to come up")
            mid.publish(t.inbox(HOST_NAME, last), b"forged final output")
            mid.publish(t.control(), b"stop")
            host.publish(t.control(), b"stop from the core")
            wait_until(lambda: (t.control(), b"stop from the core") in mid.got, TIMEOUT, "control to reach the site")
            time.sleep(0.5)
            assert host.got == []
            assert (t.control(), b"stop") not in tail.got
            # the core's _host identity does not exist on the site broker
            intruder = MqttUser(site.port, HOST_NAME, pw[HOST_NAME])
            assert getattr(intruder.rc, "is_failure", False), intruder.rc
            intruder.c.loop_stop()
            # the bridge's session on the core is persistent: queued while the site is down, delivered after
            site_broker.stop()
            time.sleep(0.5)
            head.publish(t.inbox(middle, first), b"while the site was down")
            site_broker.start()
            wait_until(lambda: (t.inbox(middle, first), b"while the site was down") in mid.got, TIMEOUT,
                       "the queued message after the site broker restarted")
        finally:
            for c in (host, tail, head, mid):
                c.close()


def _ctl_node(dep: Deployment, files: object, node: str) -> object:
    """A real node loop (engine + MQTT transport with the generated credentials), its buffer pre-seeded."""
    from bb_edge.adapters.fleet.hostloop import HostLoop
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport
    from bb_edge.engine import Engine

    url = files.url()  # type: ignore[attr-defined]
    tr = MqttTransport(MqttConfig.from_url(url), dep.name, node, dep.ids())
    return HostLoop(Engine.for_node(dep, node), tr)


def test_a_client_cannot_stop_the_fleet_nor_retry_or_forget_others_requests(squeeze_dep: Deployment,
                                                                              tmp_path: Path) -> None:
    """Issue 37, findings 1 and 2: control is per identity (``{base}/ctl/<writer>``, enforced by the ACL) and
    a node obeys ``stop`` only from ``_host`` and ``retry``/``done`` only for request ids its writer owns.

    Oracle: the node keeps running after every forged stop, resends nothing for another owner's ids and
    still holds them after a forged ``done``; the allowed paths (the client's own ids, the host's stop)
    work on the same clients and broker, so each refusal is the rule's, not a dead link."""
    from bb_edge.deployment.clients import owned_request_id
    from bb_edge.wire.topics import Topics as T

    dep = squeeze_dep
    node = dep.node_names[0]
    files = write_broker_files(tmp_path / "b", dep)
    assert files.acl is not None
    acl = files.acl.read_text()
    t = T(dep.name)
    # before any node runs: the generated ACL gives no client a write on the fleet's control
    assert sorted(re.findall(rf"^topic (?:read)?write {re.escape(t.base)}/ctl.*$", acl, re.M)) == \
        sorted(f"topic write {t.base}/ctl/{who}" for who in [HOST_NAME] + [f"_client{k}" for k in range(1, 5)])
    host_rid, mine, theirs = 7, owned_request_id(1, 7), owned_request_id(2, 7)
    with Broker(files):
        loop = _ctl_node(dep, files, node)
        for rid in (host_rid, mine, theirs):
            loop.retransmit.keep(rid, node, 1, b"x" * 64)  # type: ignore[attr-defined]
        th = loop.start_thread()  # type: ignore[attr-defined]
        loop.transport.wait_connected(10)  # type: ignore[attr-defined]
        client = MqttUser(files.port, "_client1", files.passwords["_client1"])
        host = MqttUser(files.port, HOST_NAME, files.passwords[HOST_NAME])
        try:
            for topic in (f"{t.base}/ctl", t.control(HOST_NAME), t.control("_client1")):
                client.publish(topic, b"stop")  # the fleet topic, the host's and its own
            client.publish(t.control("_client1"), f"retry {host_rid} {theirs}".encode())
            client.publish(t.control("_client1"), f"done {host_rid} {theirs}".encode())
            client.publish(t.control(HOST_NAME), f"done {host_rid} {theirs}".encode())  # ACL: not the client's
            client.publish(t.control("_client1"), f"retry {mine}".encode())  # allowed: its own request
            wait_until(lambda: loop.resent >= 1, TIMEOUT, "the client's own retry")  # type: ignore[attr-defined]
            time.sleep(0.5)  # the forged messages went first on the same connection
            assert not loop.stopping and th.is_alive()  # type: ignore[attr-defined]
            assert loop.resent == 1  # type: ignore[attr-defined]
            assert loop.retransmit.get(host_rid) and loop.retransmit.get(theirs)  # type: ignore[attr-defined]
            client.publish(t.control("_client1"), f"done {mine}".encode())
            wait_until(lambda: not loop.retransmit.get(mine), TIMEOUT, "the client's own done")  # type: ignore[attr-defined]
            host.publish(t.control(HOST_NAME), b"stop")
            th.join(TIMEOUT)
            assert not th.is_alive()
        finally:
            client.close()
            host.close()
            loop.request_stop()  # type: ignore[attr-defined]
            th.join(TIMEOUT)
