"""The MicroPython node's MQTT transport on the wire: bbnode/mqtt.py + micropython-lib's umqtt.simple
against a real Mosquitto, in a fleet with Python engines (bb_edge/adapters/transports/mqtt.py).

The MicroPython node is the built esp32-micropython bundle's main.py, config.json and program.bbrt,
run by CPython in its own process with the bbnode sources; umqtt.simple is the unmodified PyPI file.
Only module names are aliased for CPython (usocket/ustruct/ubinascii, and network.WLAN as an
already-connected interface): every MQTT byte is umqtt's, every reply Mosquitto's. The broker runs
the generated config (passwords, ACL, use_username_as_clientid) on a free loopback port.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint, stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.engine import events
from bb_edge.wire.topics import Topics
from tests.support.examples import sample_inputs, small_cnn
from tests.support.fleet import stop_fleet
from tests.support.mpy_vm import (
    build_lib,
    cpython_paths,
    ensure_vm,
    mqtt_node_dir,
    run_vm,
)
from tests.support.transport_helpers import CNode, RawClient, assert_same_outputs, wait_until

LAUNCH = """import json, runpy, sys
sys.path[:0] = {paths!r}
g = runpy.run_path("main.py", run_name="__main__")
print("STATS " + json.dumps({{"link": vars(g["link"].stats), "node": vars(g["node"].stats)}}), flush=True)
"""

PROGRAM_VERSION = "2026.11-r2"
REFUSED = """import json, sys
sys.path[:0] = {paths!r}
from bbnode.mqtt import MqttLink
from umqtt.simple import MQTTException
cfg = json.load(open("config.json"))
cfg["mqtt"]["password"] = "wrong"
try:
    MqttLink(cfg["mqtt"], "n1", {{}}).connect()
    print("CONNECTED")
except MQTTException as exc:
    print("REFUSED", exc.args[0])
"""


@pytest.fixture(scope="module")
def fleet_dirs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """small_cnn split n0 (Python) -> n1 (esp32-micropython, MQTT bundle) -> n2 (Python)."""
    d = tmp_path_factory.mktemp("dep")
    dist = tmp_path_factory.mktemp("dist")
    compile_model(small_cnn(), cuts=["p1", "g"], node_names=["n0", "n1", "n2"], out_dir=d)
    manifest = json.loads((d / "deployment.json").read_text())
    manifest["program_version"] = PROGRAM_VERSION  # carried into config.json, shown in the status record
    (d / "deployment.json").write_text(json.dumps(manifest, indent=1))
    calib = sample_inputs(16, seed=7)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in calib]))
    (res,) = build_all(d, ["n1=esp32-micropython"], dist, calib=d / "calib.npz", options={"transport": "mqtt"})
    return res.deployment_dir or d, dist  # the deployment with the int8 edges the build chose


def test_micropython_node_in_mqtt_fleet(fleet_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    """n1 is the MicroPython node on umqtt.simple; n0, n2 and the host are adapters/transports/mqtt.py clients with
    their own credentials under the generated ACL. Outputs equal the fleet with the C runtime as n1, bit
    for bit, before and after a broker restart (the node reconnects to its persistent session)."""
    t0 = time.monotonic()
    d, dist = fleet_dirs
    dep = load_deployment(d)
    files = write_broker_files(tmp_path / "broker", dep)
    url = files.url()
    node_dir = mqtt_node_dir(dist / "n1", tmp_path / "n1", {"host": "127.0.0.1", "port": files.port,
                                                         "password": files.passwords["n1"], "keepalive": 2})
    (node_dir / "_launch.py").write_text(LAUNCH.format(paths=cpython_paths(tmp_path)))
    (node_dir / "_refused.py").write_text(REFUSED.format(paths=cpython_paths(tmp_path)))
    requests = [{"x": s["x"]} for s in sample_inputs(4, seed=5)]
    blob = (dist / "n1" / "program.bbrt").read_bytes()
    from bb_edge.bbrt.format import parse

    ref = InProcFleet(dep, external={"n1": CNode(blob, parse(blob).arena_size)}).run(requests)

    broker = Broker(files).start()
    proc = None
    fleet = None
    host = None
    records: dict[str, dict] = {}
    try:
        # a wrong password is refused at CONNECT (return code 5, not authorized)
        res = subprocess.run([sys.executable, "_refused.py"], cwd=node_dir, capture_output=True, text=True,
                             timeout=20)
        assert res.stdout.strip() == "REFUSED 5", res.stdout + res.stderr
        fleet = MqttFleet(dep, url, nodes=["n0", "n2"])
        fleet.start()
        proc = subprocess.Popen([sys.executable, "_launch.py"], cwd=node_dir, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        host = host_endpoint(dep, url)
        host.wait_for_peers(["n0", "n1", "n2"], 15)
        got = host.run(requests[:2], timeout=15)
        broker.restart(down_for=0.2)
        host.transport.wait_connected(10)  # type: ignore[attr-defined]
        got += host.run(requests[2:], timeout=15)
        assert_same_outputs(got, ref)
        # its status record (bbnode/status.py), as bb-edge status reads it
        raw = RawClient(files.host, files.port, "_status", files.passwords["_status"], client_id="_status")
        raw.c.on_message = lambda c, u, m: records.__setitem__(m.topic.rsplit("/", 1)[1], json.loads(m.payload))
        raw.c.subscribe(Topics(dep.name).status("n1"), qos=1)
        wait_until(lambda: records.get("n1", {}).get("requests") == len(requests), 10, "n1's status record")
        raw.close()
        time.sleep(1.2)  # idle longer than keepalive/2: umqtt pings
        host.transport.publish(Topics(dep.name).control(), b"stop", qos=1)  # type: ignore[attr-defined]
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err[-3000:]
        stats = json.loads(next(x for x in out.splitlines() if x.startswith("STATS "))[6:])
        spoofed = {n: fleet.transport(n).stats.spoofed for n in ("n0", "n2")}
        spoofed["_host"] = host.transport.stats.spoofed  # type: ignore[attr-defined]
        reports = fleet.stop()
        fleet_events = fleet.events
    finally:
        if proc is not None and proc.poll() is None:
            stop_process(proc)  # type: ignore[arg-type]
            print("MicroPython node:", proc.communicate()[1][-3000:])
            print("broker log:", broker.log()[-3000:])
            print("fleet events:", {n: [e for e in evs if e.family == "infra"][:5] for n, evs in fleet.events.items()}
                  if fleet is not None else None)
        stop_fleet(broker, host=host, fleet=fleet)
    node = stats["node"]
    link = stats["link"]
    # one input envelope per request reached n1's node loop and was run
    assert node["inferences"] == len(requests), stats
    assert node["bad_envelopes"] == node["unknown_edge"] == node["edge_mismatch"] == node["not_for_me"] == 0
    # QoS 1: umqtt's publish(qos=1) returns only on the broker's PUBACK for its packet id
    assert link["sent"] == len(requests) + 1, stats  # outputs + HELLO
    assert link["reconnects"] >= 1 and link["connects"] >= 2 and link["pings"] >= 1, stats
    assert all(r.unconfirmed == 0 for r in reports.values()), reports
    for name, evs in fleet_events.items():
        bad = [e for e in evs if e.family == "infra" and not isinstance(e, events.DuplicateDropped)]
        assert bad == [], (name, bad)
    assert spoofed == {"n0": 0, "n2": 0, "_host": 0}, spoofed  # header sender == topic's {src}
    assert host.stats.outputs == len(requests)
    rec = records["n1"]
    assert rec["program"] == dep.name and rec["program_version"] == PROGRAM_VERSION, rec
    assert len(rec["program_hash"]) == 64 and rec["version"] == "micropython", rec
    assert rec["errors"] == 0 and rec["drops"] == 0 and rec["uptime_s"] >= 0, rec
    from bb_edge.adapters.ops.status_view import parse_record

    assert parse_record("n1", json.dumps(rec).encode()) == rec  # a record the status view takes
    assert time.monotonic() - t0 < 30


def test_mqtt_module_loads_in_vm(tmp_path: Path) -> None:
    """The .mpy build of bbnode/mqtt.py loads in the MicroPython VM; topics and routing match
    bb_edge/wire/topics.py (the client there is a recorder: umqtt is not in the VM)."""
    driver = ensure_vm()
    lib = build_lib(tmp_path / "lib")
    out = run_vm(driver, lib, tmp_path, """
from bbnode.mqtt import MqttLink, Topics, safe_segment
class C:
    def __init__(self, *a, **k):
        self.args = (a, k)
        self.pub = []
    def set_last_will(self, *a, **k):
        self.will = (a, k)
    def set_callback(self, f):
        self.cb = f
    def publish(self, topic, msg, retain=False, qos=0):
        self.pub.append((topic, qos))
l = MqttLink({'deployment': 'my/dep+#', 'host': 'h', 'password': 'pw'}, 'n1', {2: 'n2'}, client_class=C)
def env(receiver):
    b = bytearray(16)
    b[12:16] = receiver.to_bytes(4, 'little')
    return bytes(b)
for r in (2, 0, 0xFFFFFFFF, 0xFFFF0001, 0xFFFF00FF, 0xFFFF0100):
    l.send(env(r))
print('PUB', l.client.pub)
print('USER', l.client.args[1]['user'], l.client.args[0][0])
print('WILL', l.client.will)
print('TOPICS', Topics('my/dep+#').inbox('n1', '+'), Topics('x').control(), safe_segment('a b/c'))
""")
    # a client's outputs go to its inbox (_client<k> for 0xFFFF0000+k, k 1..255); an id past them to the host
    assert ("PUB [('bb/my_dep__/in/n2/n1', 1), ('bb/my_dep__/in/_host/n1', 1), ('bb/my_dep__/bcast/n1', 1), "
            "('bb/my_dep__/in/_client1/n1', 1), ('bb/my_dep__/in/_client255/n1', 1), "
            "('bb/my_dep__/in/_host/n1', 1)]") in out, out
    assert "USER n1 n1" in out
    assert "WILL (('bb/my_dep__/presence/n1', b'down'), {'qos': 1, 'retain': True})" in out or \
        "WILL (('bb/my_dep__/presence/n1', b'down'), {'retain': True, 'qos': 1})" in out
    assert "TOPICS bb/my_dep__/in/n1/+ bb/x/ctl/_host a_b_c" in out
    t = Topics("my/dep+#")
    assert t.inbox("n2", "n1") == "bb/my_dep__/in/n2/n1" and t.broadcast("n1") == "bb/my_dep__/bcast/n1"
