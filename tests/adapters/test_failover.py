"""Stage failover: the middle node of a 3-node pipeline SIGKILLed under load, a standby configured.

``bb-edge compile --standby n1=n1b`` declares the standby; the broker's generated ACL lets it talk to the
stage's neighbours. The middle stage runs as a ``bb-edge node`` process, everything else (first and last
stage, the standby) as threads on the same real Mosquitto. When the broker publishes the killed node's
last will, the upstream engine re-routes the stage to the standby (RouteChanged) and resends what it kept
for requests still in flight. Every request must complete exactly once with the outputs of the
in-process reference, bit for bit.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.fleet.hostloop import PeerWatch
from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint, spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.deployment.arrays import load_requests
from bb_edge.deployment.manifest import Deployment, InvalidDeploymentError, load_deployment
from bb_edge.engine import Engine, events
from tests.support.models import light
from tests.support.transport_helpers import LineCollector, assert_same_outputs, wait_until

pytest_plugins = ["tests.support.transport_fixtures"]

N_REQUESTS = int(os.environ.get("BB_EDGE_FAILOVER_REQUESTS", "200" if os.environ.get("BB_EDGE_LONG") else "60"))
TIMEOUT = 120.0


@pytest.fixture(scope="module")
def standby_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("standby")
    r = subprocess.run(["bb-edge", "compile", str(light("squeezenet")), "--nodes", "3", "--standby", "n1=n1b",
                        "--standby", "n0=n0b",
                        "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return out


def test_compile_standby_manifest(standby_dir: Path, tmp_path: Path) -> None:
    dep = load_deployment(standby_dir)
    assert dep.standby == {"n1": ["n1b"], "n0": ["n0b"]}
    assert dep.node("n1b").program == dep.node("n1").program and dep.node("n1b").id not in (
        dep.node("n0").id, dep.node("n1").id, dep.node("n2").id)
    raw = json.loads((standby_dir / "deployment.json").read_text())
    for bad, why in ((lambda r: r["standby"].update({"nX": ["n1b"]}), "unknown stage"),
                     (lambda r: r["standby"].update({"n1": ["n9"]}), "is not a node"),
                     (lambda r: r["standby"].update({"n2": ["n1b"]}), "two stages"),
                     (lambda r: r["standby"].update({"n0": ["n1b"]}), "runs"),
                     (lambda r: r["standby"].update({"n1": ["n1"]}), "the stage itself")):
        broken = json.loads(json.dumps(raw))
        bad(broken)
        d = tmp_path / why.replace(" ", "_")
        d.mkdir()
        (d / "deployment.json").write_text(json.dumps(broken))
        for f in standby_dir.glob("*.onnx"):
            (d / f.name).write_bytes(f.read_bytes())
        with pytest.raises(InvalidDeploymentError, match=why):
            load_deployment(d)


def test_engine_route_table(standby_dir: Path) -> None:
    """Sans-IO: PeerDown of the stage routes its envelopes to the standby; PeerUp routes them back."""
    dep = load_deployment(standby_dir)
    up = Engine.for_node(dep, "n0", outputs_to_host=True)
    x = load_requests(dep, None, count=1, seed=3)[0]
    up.push_event(events.PeerDown("n1", "last will"))
    up.submit(1, {k: v for k, v in x.items()})
    out = up.poll(0.0)
    evs = up.drain_events()
    assert events.RouteChanged("n1", "n1b", "n1 down (last will)") in evs
    data = [o for o in out if o.kind == 0 or o.request_id == 1]
    assert data and all(o.peer == "n1b" and o.receiver == dep.node("n1b").id for o in data)
    # the standby's output is accepted downstream (producer or its standby), a stranger's is not
    sb = Engine.for_node(dep, "n1b")
    for o in data:
        sb.deliver("n0", o.data)
    sent = sb.poll(0.0)
    down = Engine.for_node(dep, "n2")
    for o in sent:
        if o.peer == "n2":
            down.deliver("n1b", o.data)
    down.poll(0.0)
    dev = down.drain_events()
    assert not [e for e in dev if isinstance(e, events.Unauthorised)], dev
    assert any(isinstance(e, events.RequestCompleted) and e.request_id == 1 for e in dev)
    up.push_event(events.PeerUp("n1"))
    up.poll(0.1)
    assert events.RouteChanged("n1", "n1", "n1 up") in up.drain_events() and up.route("n1") == "n1"


@pytest.mark.parametrize("stage,sig", [("n1", signal.SIGKILL), ("n1", signal.SIGSTOP), ("n0", signal.SIGKILL)],
                         ids=["middle-sigkill", "middle-sigstop", "first-sigkill"])
def test_stage_lost_under_load(standby_dir: Path, tmp_path: Path, squeeze_dep: Deployment, stage: str,
                               sig: signal.Signals) -> None:
    """SIGKILL: the broker's last will declares the stage down. SIGSTOP: the connection stays open (no will
    for 1.5 keepalives), so the phi-accrual detector over PONGs has to. The first stage owns the graph
    input: there the host re-routes the inputs of open requests to its standby."""
    dep = load_deployment(standby_dir)
    requests = load_requests(dep, None, count=N_REQUESTS, seed=5)
    reference = InProcFleet(squeeze_dep).run(requests)  # the same model without a standby
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    url = files.url()
    fleet = MqttFleet(dep, url, nodes=[n for n in dep.node_names if n != stage])
    loops = dict(fleet.loops)
    watcher = "n0" if stage == "n1" else "_host"
    watch = PeerWatch.for_engine(loops["n0"] if stage == "n1" else loops["n0b"], interval=0.25)
    assert watch is not None and sorted(watch.detectors) == ["n1"]
    fleet.start()
    proc = spawn_node(standby_dir, stage, url, stdout=subprocess.PIPE)
    log = LineCollector(proc)
    host = host_endpoint(dep, url)
    result: dict[str, object] = {}
    try:
        host.wait_for_peers(dep.node_names, TIMEOUT)
        wait_until(lambda: len(watch.detectors["n1"].intervals) >= 4, TIMEOUT, "PONGs from the stage")

        def run() -> None:
            try:
                result["outs"] = host.run(requests, window=4, timeout=TIMEOUT, retry_after=10.0)
            except Exception as exc:  # reported below
                result["error"] = exc

        th = threading.Thread(target=run, daemon=True)
        th.start()
        wait_until(lambda: host.stats.outputs >= N_REQUESTS // 4, TIMEOUT, "a quarter of the outputs")
        os.kill(proc.pid, sig)
        killed_at = time.monotonic()
        before = host.stats.outputs
        assert before < N_REQUESTS, "every request finished before the kill: raise BB_EDGE_FAILOVER_REQUESTS"
        wait_until(lambda: host.stats.outputs > before, TIMEOUT, "an output after the kill")
        gap = time.monotonic() - killed_at
        th.join(TIMEOUT)
        assert not th.is_alive()
    finally:
        if sig == signal.SIGSTOP:
            os.kill(proc.pid, signal.SIGCONT)
        stop_process(proc)
        reports = fleet.stop()
        host.close()
        broker.stop()
    assert "error" not in result, result.get("error")
    outs = result["outs"]
    assert isinstance(outs, list)
    assert_same_outputs(outs, reference)
    assert host.stats.outputs == N_REQUESTS * len(dep.outputs)  # one first copy per output, no more
    standby = stage + "b"
    done_by_standby = {e.request_id for e in fleet.events[standby] if isinstance(e, events.RequestCompleted)}
    assert done_by_standby, "the standby computed nothing"
    assert not [e for e in fleet.events["n2"] if isinstance(e, events.Unauthorised)]
    assert all(r.unconfirmed == 0 for r in reports.values()), reports
    if watcher == "_host":  # the host re-addressed the inputs of open requests to the first stage's standby
        assert host.failover_resent + host.stats.inputs_resent > 0
        print(f"failover (first stage, {sig.name}): first output {gap * 1000:.0f} ms after the signal; the host "
              f"resent {host.failover_resent} input(s) to the standby, which completed {len(done_by_standby)} "
              f"of {N_REQUESTS} requests; the host dropped {host.stats.duplicates} duplicate output(s)")
        return
    n0 = fleet.events["n0"]
    routed = [e for e in n0 if isinstance(e, events.RouteChanged) and (e.stage, e.via) == ("n1", "n1b")]
    assert routed, [e for e in n0 if isinstance(e, (events.PeerDown, events.RouteChanged))]
    if sig == signal.SIGSTOP:
        assert "phi-accrual" in routed[0].reason, routed
        assert gap < 15.0  # well before the last will (1.5 x the 10 s keepalive) could have fired
    print(f"failover ({sig.name}, {routed[0].reason}): first output {gap * 1000:.0f} ms after the signal; "
          f"{loops['n0'].failover_resent} envelope(s) "
          f"resent to the standby, which completed {len(done_by_standby)} of {N_REQUESTS} requests; the host "
          f"dropped {host.stats.duplicates} duplicate output(s)")
    assert loops["n0"].failover_resent > 0  # in-flight requests continued from the upstream's resend buffer
    assert np.isfinite(gap)
    assert log.lines  # the killed node had started and printed
