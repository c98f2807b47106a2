"""OpenTelemetry traces and metrics from the engine's events and counters (bb_edge/adapters/ops/telemetry.py).

A 3-node squeezenet over a real Mosquitto with the opentelemetry-sdk in-memory exporter and metric reader:
one hop span per request per node carrying the request id (one trace per request across nodes), one
compute span per segment under its hop, and metric values equal to the engine's counters and to what the
test itself injected. The OTLP path is exercised end to end: ``bb-edge node --otlp URL`` posts to a real
HTTP receiver in this process, which decodes the protobuf.
"""

from __future__ import annotations

import http.server
import subprocess
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest  # noqa: E402
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import InMemoryMetricReader  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint, spawn_node, stop_process  # noqa: E402
from bb_edge.adapters.ops.broker import Broker, write_broker_files  # noqa: E402
from bb_edge.adapters.ops.telemetry import Telemetry, providers, trace_id_for  # noqa: E402
from bb_edge.deployment.manifest import Deployment  # noqa: E402
from bb_edge.wire import envelope as wire  # noqa: E402
from tests.support.transport_helpers import RawClient, assert_same_outputs, wait_until  # noqa: E402

pytest_plugins = ["tests.support.transport_fixtures"]

TIMEOUT = 60.0


def _points(reader: InMemoryMetricReader) -> dict[str, list[tuple[dict[str, Any], Any]]]:
    out: dict[str, list[tuple[dict[str, Any], Any]]] = {}
    data = reader.get_metrics_data()
    for rm in data.resource_metrics:
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                for p in m.data.data_points:
                    out.setdefault(m.name, []).append((dict(p.attributes), p))
    return out


def _value(points: dict[str, list[tuple[dict[str, Any], Any]]], name: str, **attrs: Any) -> Any:
    found = [p for a, p in points.get(name, []) if all(a.get(k) == v for k, v in attrs.items())]
    assert len(found) == 1, (name, attrs, [a for a, _ in points.get(name, [])])
    return found[0]


def test_spans_per_hop_and_metrics_equal_counters(squeeze_dep: Deployment, tmp_path: Path,
                                                  squeeze_requests: list, squeeze_reference: list) -> None:
    dep = squeeze_dep
    files = write_broker_files(tmp_path / "broker", None)  # anonymous: the test injects refused envelopes
    broker = Broker(files).start()
    exporter = InMemorySpanExporter()
    tp = TracerProvider()
    tp.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    mp = MeterProvider(metric_readers=[reader])
    fleet = MqttFleet(dep, files.url())
    loops = dict(fleet.loops)  # fleet.stop() forgets them; the engines stay for the comparison
    tele = {n: Telemetry(loop.engine, dep.name, tp, mp) for n, loop in fleet.loops.items()}
    for n, loop in fleet.loops.items():
        tele[n].attach(loop, status_interval=0.2)
    fleet.start()
    host = host_endpoint(dep, files.url())
    names = dep.node_names
    base = 5_000
    raw = None
    try:
        host.wait_for_peers(names, TIMEOUT)
        got = [host.wait(_submit(host, base + i, r), TIMEOUT) for i, r in enumerate(squeeze_requests)]
        assert_same_outputs(got, squeeze_reference)
        # refused input the test counts itself: 2 envelopes on an unknown edge, and one PING sent twice. They
        # come as the host, which sends nothing else to this node: no real sender's duplicate window moves
        victim = names[1]
        ids = dep.ids()
        seq = 1 << 40
        raw = RawClient(files.host, files.port, None, None, client_id="forger")
        topic = fleet.transport(victim).topics.inbox(victim, "_host")
        for i in range(2):
            env = wire.Envelope.for_array(np.zeros(1, np.float32), sender=0, receiver=ids[victim],
                                          seq=seq + i, request_id=1, edge=999)
            raw.publish(topic, wire.encode(env))
        ping = wire.encode(wire.Envelope.for_bytes(b"", sender=0, receiver=ids[victim], seq=seq + 2, edge=2))
        raw.publish(topic, ping)
        raw.publish(topic, ping)
        wait_until(lambda: tele[victim].drops.get("DuplicateDropped", 0) == 1
                   and tele[victim].drops.get("UnknownEdge", 0) == 2, TIMEOUT, "the injected drops")
        wait_until(lambda: all(t.rtt_ms for t in tele.values()), TIMEOUT, "an RTT per node")
    finally:
        if raw is not None:
            raw.close()
        fleet.stop()
        host.close()
        broker.stop()
    # ---- traces: one hop span per request per node, one compute span per segment, one trace per request
    spans = exporter.get_finished_spans()
    hops = [s for s in spans if s.name == "bb.hop"]
    segs = [s for s in spans if s.name == "bb.segment"]
    rids = [base + i for i in range(len(squeeze_requests))]
    for rid in rids:
        mine = [s for s in hops if s.attributes["bb.request_id"] == rid]
        assert sorted(s.attributes["bb.node"] for s in mine) == sorted(names), mine
        assert {s.context.trace_id for s in mine} == {trace_id_for(dep.name, rid)}
        assert all(s.attributes["bb.outcome"] == "ok" and s.end_time >= s.start_time for s in mine)
        for hop in mine:
            node = hop.attributes["bb.node"]
            children = [s for s in segs if s.parent is not None and s.parent.span_id == hop.context.span_id]
            n_segments = len(next(iter(loops[node].engine.programs.values())).segments)
            assert len(children) == n_segments, (node, rid, len(children), n_segments)
            assert all(c.attributes["bb.request_id"] == rid for c in children)
            assert all(hop.start_time <= c.start_time <= c.end_time <= hop.end_time for c in children)
    assert len(hops) == len(rids) * len(names)
    # ---- metrics: equal to the engine's counters, the transports' own counts and the injected refusals
    points = _points(reader)
    for n in names:
        eng = loops[n].engine
        tr = loops[n].transport
        assert _value(points, "bb.envelopes", **{"bb.node": n, "direction": "in"}).value == \
            eng.counters["envelopes_in"] == tr.stats.received
        assert _value(points, "bb.envelopes", **{"bb.node": n, "direction": "out"}).value == \
            eng.counters["envelopes_out"] == tr.stats.sent
        assert _value(points, "bb.bytes", **{"bb.node": n, "direction": "out"}).value == eng.counters["bytes_out"]
        compute = _value(points, "bb.compute.duration", **{"bb.node": n, "bb.segment":
                                                           next(iter(eng.programs.values())).segments[0].key})
        assert compute.count == len(rids)
        assert _value(points, "bb.hop.duration", **{"bb.node": n}).count == len(rids)
        assert _value(points, "bb.queue.depth", **{"bb.node": n, "queue": "open_requests"}).value == \
            eng.open_requests
    assert _value(points, "bb.drops", **{"bb.node": victim, "reason": "UnknownEdge"}).value == 2
    assert _value(points, "bb.drops", **{"bb.node": victim, "reason": "DuplicateDropped"}).value == \
        loops[victim].engine.counters["duplicates"] == 1
    rtt = points["bb.rtt"]
    assert {a["bb.node"] for a, _ in rtt} == set(names)


def _submit(host: Any, rid: int, inputs: dict[str, np.ndarray]) -> int:
    host.submit(rid, inputs)
    return rid


def test_no_endpoint_no_export(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT", raising=False)
    assert providers(None) == (None, None)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    tp, mp = providers(None)
    assert isinstance(tp, TracerProvider) and isinstance(mp, MeterProvider)
    tp.shutdown()
    mp.shutdown(timeout_millis=100)


def test_console_exporter_prints_hop_spans(squeeze_dep: Deployment, squeeze_requests: list) -> None:
    """``--otlp console``: a node's hop and segment spans, with the request id, printed as JSON."""
    import io
    import json as _json

    from bb_edge.adapters.ops.telemetry import Telemetry, console_providers
    from bb_edge.engine import Engine

    out = io.StringIO()
    tp, mp = console_providers("bb-edge/test", out=out, export_interval_s=3600)
    node = squeeze_dep.inputs[0].node
    eng = Engine.for_node(squeeze_dep, node)
    Telemetry(eng, squeeze_dep.name, tp, mp)
    eng.submit(41, squeeze_requests[0])
    eng.poll(0.0)
    eng.poll(0.1)
    tp.force_flush()
    spans = [_json.loads(chunk) for chunk in out.getvalue().split("\n}\n") if chunk.strip()
             for chunk in [chunk + "\n}"]]
    names = {sp["name"] for sp in spans}
    assert "bb.segment" in names and "bb.hop" in names, names
    assert any(sp["attributes"].get("bb.request_id") == 41 for sp in spans if sp["name"] == "bb.hop")
    tp.shutdown()
    mp.shutdown(timeout_millis=100)


class _Collector(http.server.BaseHTTPRequestHandler):
    """A minimal OTLP/HTTP receiver: decodes trace export requests into (name, attributes)."""

    spans: list[tuple[str, dict[str, Any]]] = []
    metric_posts = 0

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/v1/traces":
            req = ExportTraceServiceRequest()
            req.ParseFromString(body)
            for rs in req.resource_spans:
                for ss in rs.scope_spans:
                    for s in ss.spans:
                        attrs = {a.key: (a.value.int_value or a.value.string_value) for a in s.attributes}
                        type(self).spans.append((s.name, attrs))
        elif self.path == "/v1/metrics":
            type(self).metric_posts += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def test_node_cli_exports_otlp(squeeze_dir: Path, squeeze_dep: Deployment, tmp_path: Path,
                               squeeze_requests: list, squeeze_reference: list,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``bb-edge node --otlp URL``: the node processes post their spans to a real OTLP/HTTP receiver."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    th = threading.Thread(target=server.serve_forever, daemon=True)
    th.start()
    otlp = f"http://127.0.0.1:{server.server_address[1]}"
    files = write_broker_files(tmp_path / "broker", squeeze_dep)
    broker = Broker(files).start()
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT", raising=False)  # only --otlp names the endpoint
    procs = [spawn_node(squeeze_dir, n, files.url(), extra=["--otlp", otlp, "--quiet"],
                        stdout=subprocess.DEVNULL) for n in squeeze_dep.node_names]
    host = host_endpoint(squeeze_dep, files.url())
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        got = [host.wait(_submit(host, 77 + i, r), TIMEOUT) for i, r in enumerate(squeeze_requests)]
        assert_same_outputs(got, squeeze_reference)
    finally:
        codes = [stop_process(p) for p in procs]  # SIGTERM: shutdown flushes the exporters
        host.close()
        broker.stop()
        server.shutdown()
    assert codes == [0] * len(procs)
    hops = [(a["bb.node"], a["bb.request_id"]) for n, a in _Collector.spans if n == "bb.hop"]
    want = {(n, 77 + i) for n in squeeze_dep.node_names for i in range(len(squeeze_requests))}
    assert sorted(hops) == sorted(want)
    assert _Collector.metric_posts >= len(procs)
