"""Telemetry of a node: OpenTelemetry traces and metrics, and the status record on MQTT.

Built from what the engine already produces (its typed events, delivered
synchronously through :meth:`Engine.subscribe`, and its ``counters``); the
engine stays sans-IO. The clock lives here:

- a *hop span* ``bb.hop`` per request per node, from :class:`RequestOpened`
  (its first input arrived) to :class:`RequestCompleted` (or the event that
  ended it: timed out, evicted, failed), with ``bb.request_id``. Every hop of
  one request, on every node, lands in one trace: the trace id is derived
  from the deployment name and the request id, so nothing extra travels on
  the wire;
- a *compute span* ``bb.segment`` per segment run, a child of its hop span,
  timed around the backend call (the prepared segments are wrapped);
- metrics ``bb.envelopes`` and ``bb.bytes`` (direction in/out, read from the
  engine's counters), ``bb.drops`` (by reason: the refusal event's type),
  ``bb.rtt`` (PING/PONG per peer), ``bb.queue.depth`` (ingress not yet polled
  + open requests), ``bb.compute.duration`` and ``bb.hop.duration``.

:func:`providers` makes OTLP/HTTP exporting providers when an endpoint is
configured (``--otlp URL`` or ``OTEL_EXPORTER_OTLP_ENDPOINT``; ``--otlp console``
prints spans and metrics as JSON on stderr, no collector needed) and returns
``(None, None)`` otherwise: nothing is exported then. opentelemetry-sdk is
the optional extra ``bb-edge[telemetry]``; without it a node still publishes
its status record.

The status record (:meth:`Telemetry.status`) is a small JSON object a node
publishes, retained, on ``{prefix}/{deployment}/status/{node}`` every
``status_interval`` seconds; ``bb-edge status`` renders it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from bb_edge.engine import Engine, events
from bb_edge.errors import BBError

CTRL_PONG = 3  # core control code of a PONG (docs/wire.md)
STATUS_VERSION = 1


class TelemetryError(BBError):
    """Telemetry was asked for (an OTLP endpoint) but cannot be set up (the optional extra is missing)."""


def _otel() -> Any:
    try:
        from opentelemetry import trace
    except ImportError as exc:
        raise TelemetryError("OpenTelemetry export needs the optional extra: pip install 'bb-edge[telemetry]'") \
            from exc
    return trace


def console_providers(service: str = "bb-edge", out: Any = None,
                      export_interval_s: float = 5.0) -> tuple[Any, Any]:
    """``(tracer_provider, meter_provider)`` printing spans and metrics as JSON to ``out`` (stderr by default).

    ``--otlp console``: see a node's telemetry with no collector running.
    """
    import sys

    _otel()
    try:
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import ConsoleMetricExporter, PeriodicExportingMetricReader
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor
    except ImportError as exc:
        raise TelemetryError("console telemetry needs the optional extra: pip install 'bb-edge[telemetry]'") \
            from exc
    stream = out if out is not None else sys.stderr
    resource = Resource.create({"service.name": service})
    tp = TracerProvider(resource=resource)
    tp.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=stream)))
    reader = PeriodicExportingMetricReader(ConsoleMetricExporter(out=stream),
                                           export_interval_millis=export_interval_s * 1000)
    return tp, MeterProvider(resource=resource, metric_readers=[reader])


def providers(endpoint: str | None = None, service: str = "bb-edge",
              export_interval_s: float = 5.0) -> tuple[Any, Any]:
    """``(tracer_provider, meter_provider)`` exporting OTLP/HTTP to ``endpoint``, or ``(None, None)``.

    ``endpoint`` defaults to ``OTEL_EXPORTER_OTLP_ENDPOINT``; with neither,
    nothing is set up and nothing is exported. ``console`` prints to stderr instead
    (:func:`console_providers`).
    """
    endpoint = endpoint or os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or None
    if not endpoint:
        return None, None
    if endpoint == "console":
        return console_providers(service, export_interval_s=export_interval_s)
    _otel()
    try:
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as exc:
        raise TelemetryError("OTLP export needs the optional extra: pip install 'bb-edge[telemetry]'") from exc
    base = endpoint.rstrip("/")
    resource = Resource.create({"service.name": service})
    tp = TracerProvider(resource=resource)
    tp.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{base}/v1/traces")))
    reader = PeriodicExportingMetricReader(OTLPMetricExporter(endpoint=f"{base}/v1/metrics"),
                                           export_interval_millis=export_interval_s * 1000)
    mp = MeterProvider(resource=resource, metric_readers=[reader])
    return tp, mp


def trace_id_for(deployment: str, request_id: int) -> int:
    """The 128-bit trace id of one request of a deployment (the same on every node)."""
    digest = hashlib.sha256(f"{deployment}\x00{request_id}".encode()).digest()
    return int.from_bytes(digest[:16], "big") or 1


def _rid(request_id: int) -> int | str:
    # OpenTelemetry integer attributes are int64; a larger request id is carried as text
    return request_id if request_id < 2**63 else str(request_id)


class _TimedSegment:
    """A prepared segment whose ``run`` is timed (the adapter's clock, not the engine's)."""

    def __init__(self, inner: Any, sink: Callable[[int, int, float], None]) -> None:
        self.inner = inner
        self.sink = sink

    def run(self, inputs: Any) -> Any:
        t0, p0 = time.time_ns(), time.perf_counter()
        try:
            return self.inner.run(inputs)
        finally:
            self.sink(t0, time.time_ns(), time.perf_counter() - p0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Telemetry:
    """Spans, metrics and the status record of one node's engine (see the module docstring).

    Call :meth:`attach` with the node's host loop; the engine's events reach
    :meth:`on_event` synchronously on the loop thread.
    """

    def __init__(self, engine: Engine, deployment: str = "", tracer_provider: Any = None,
                 meter_provider: Any = None, version: str | None = None, ewma: float = 0.2,
                 program_version: str | None = None) -> None:
        self.engine = engine
        self.deployment = deployment
        #: the deployment's ``program_version`` (deployment.json), shown by ``bb-edge status`` with the hash
        self.program_version = program_version
        if version is None:
            from bb_edge import __version__ as version
        self.version = str(version)
        self.ewma = ewma
        self.tracer = tracer_provider.get_tracer("bb_edge") if tracer_provider is not None else None
        self._hops: dict[int, tuple[Any, int]] = {}  # request id -> (span, start ns)
        self._compute: tuple[int, int, float] | None = None
        self._pings: dict[str, float] = {}
        self.rtt_ms: dict[str, float] = {}
        self.hop_ms: float | None = None
        self.compute_ms: float | None = None
        self.drops: dict[str, int] = {}
        self.hops_done = 0
        self.pings_sent = 0
        self._loop: Any = None
        self._meter_setup(meter_provider)
        self._instrument()
        engine.subscribe(self.on_event)

    # ---------------------------------------------------------------- setup

    def _meter_setup(self, meter_provider: Any) -> None:
        self._drop_counter: Any = None
        self._compute_hist: Any = None
        self._hop_hist: Any = None
        self._rtt_hist: Any = None
        if meter_provider is None:
            return
        from opentelemetry.metrics import Observation

        # one scope per node: instruments are unique per scope, and an in-process fleet shares a provider
        m = meter_provider.get_meter(f"bb_edge/{self.engine.node}")
        node = {"bb.node": self.engine.node}

        def counter(key_in: str, key_out: str) -> Callable[[Any], Iterable[Any]]:
            def cb(options: Any) -> Iterable[Any]:
                c = dict(self.engine.counters)  # a C-level copy: the loop thread keeps counting
                return [Observation(c.get(key_in, 0), {**node, "direction": "in"}),
                        Observation(c.get(key_out, 0), {**node, "direction": "out"})]
            return cb

        def depth(options: Any) -> Iterable[Any]:
            inbox = len(self._loop._inbox) if self._loop is not None else 0
            return [Observation(self.engine.pending_ingress + inbox, {**node, "queue": "ingress"}),
                    Observation(self.engine.open_requests, {**node, "queue": "open_requests"})]

        m.create_observable_counter("bb.envelopes", [counter("envelopes_in", "envelopes_out")], unit="1",
                                    description="envelopes through the engine")
        m.create_observable_counter("bb.bytes", [counter("bytes_in", "bytes_out")], unit="By",
                                    description="envelope bytes through the engine")
        m.create_observable_gauge("bb.queue.depth", [depth], unit="1",
                                  description="ingress items not yet polled, and open requests")
        self._drop_counter = m.create_counter("bb.drops", unit="1",
                                              description="envelopes refused or dropped, by reason")
        self._compute_hist = m.create_histogram("bb.compute.duration", unit="s",
                                                 description="segment compute time")
        self._hop_hist = m.create_histogram("bb.hop.duration", unit="s",
                                            description="time a request spends on this node")
        self._rtt_hist = m.create_histogram("bb.rtt", unit="s", description="PING/PONG round trip per peer")
        self._attrs = node

    def _instrument(self) -> None:
        for prog in self.engine.programs.values():
            prog.prepared = [p if isinstance(p, _TimedSegment) else _TimedSegment(p, self._computed)
                             for p in prog.prepared]

    def _computed(self, start_ns: int, end_ns: int, seconds: float) -> None:
        self._compute = (start_ns, end_ns, seconds)

    def attach(self, loop: Any, status_interval: float = 2.0, ping_interval: float | None = None) -> None:
        """Publish the status record (and PING neighbours for RTT) every interval on ``loop``'s thread."""
        self._loop = loop
        publish = getattr(loop.transport, "publish_status", None)
        self._neighbours = sorted(self._peers())

        def tick(now: float) -> None:
            self.ping(now)
            if callable(publish):
                publish(json.dumps(self.status()).encode())

        if status_interval > 0:
            loop.call_every(status_interval if ping_interval is None else min(status_interval, ping_interval),
                            tick)

    def _peers(self) -> set[str]:
        names: set[str] = set()
        for prog in self.engine.programs.values():
            names.update(p.peer for p in prog.recv.values())
            names.update(p.peer for p in prog.sends)
        names.discard(self.engine.node)
        return names

    def ping(self, now: float) -> None:
        """PING every neighbour not already waiting for a PONG (RTT comes back as ControlReceived)."""
        for peer in self._neighbours:
            if peer not in self._pings or now - self._pings[peer] > 10.0:
                self._pings[peer] = time.monotonic()
                self.engine.ping(peer)
                self.pings_sent += 1

    # --------------------------------------------------------------- events

    def on_event(self, e: events.Event) -> None:
        """Turn one engine event into spans and metric points (called synchronously by the engine)."""
        if isinstance(e, events.RequestOpened):
            start = time.time_ns()
            span = None
            if self.tracer is not None:
                span = self.tracer.start_span("bb.hop", context=self._request_context(e.request_id),
                                              start_time=start,
                                              attributes={"bb.request_id": _rid(e.request_id),
                                                          "bb.node": self.engine.node,
                                                          "bb.epoch": self.engine.boot_epoch})
            self._hops[e.request_id] = (span, start)
        elif isinstance(e, events.SegmentComputed):
            self._on_segment(e)
        elif isinstance(e, events.RequestCompleted):
            self._end_hop(e.request_id, "ok")
        elif isinstance(e, (events.RequestTimedOut, events.RequestEvicted, events.ComputeFailed)):
            self._end_hop(e.request_id, type(e).__name__)
            self._drop(type(e).__name__)
        elif isinstance(e, events.ControlReceived) and e.code == CTRL_PONG:
            sent = self._pings.pop(e.peer, None)
            if sent is not None:
                rtt = time.monotonic() - sent
                old = self.rtt_ms.get(e.peer)
                ms = rtt * 1000.0
                self.rtt_ms[e.peer] = ms if old is None else old + self.ewma * (ms - old)
                if self._rtt_hist is not None:
                    self._rtt_hist.record(rtt, {**self._attrs, "bb.peer": e.peer})
        elif isinstance(e, events.InfraEvent):
            self._drop(type(e).__name__)

    def _request_context(self, request_id: int) -> Any:
        from opentelemetry import trace
        from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

        # a remote parent with the request's trace id: every node's hop joins one trace per request
        parent = SpanContext(trace_id=trace_id_for(self.deployment, request_id),
                             span_id=(trace_id_for(self.deployment, request_id) & (2**64 - 1)) or 1,
                             is_remote=True, trace_flags=TraceFlags(TraceFlags.SAMPLED))
        return trace.set_span_in_context(NonRecordingSpan(parent))

    def _on_segment(self, e: events.SegmentComputed) -> None:
        timed, self._compute = self._compute, None
        if timed is None:
            return  # computed elsewhere (inline_compute=False): no local timing to report
        start, end, seconds = timed
        ms = seconds * 1000.0
        self.compute_ms = ms if self.compute_ms is None else self.compute_ms + self.ewma * (ms - self.compute_ms)
        if self._compute_hist is not None:
            self._compute_hist.record(seconds, {**self._attrs, "bb.segment": e.segment})
        hop = self._hops.get(e.request_id)
        if self.tracer is not None and hop is not None and hop[0] is not None:
            from opentelemetry import trace

            span = self.tracer.start_span("bb.segment", context=trace.set_span_in_context(hop[0]),
                                          start_time=start,
                                          attributes={"bb.request_id": _rid(e.request_id),
                                                      "bb.node": self.engine.node, "bb.segment": e.segment})
            span.end(end_time=end)

    def _end_hop(self, request_id: int, outcome: str) -> None:
        hop = self._hops.pop(request_id, None)
        if hop is None:
            return
        span, start = hop
        end = time.time_ns()
        seconds = (end - start) / 1e9
        if outcome == "ok":
            self.hops_done += 1
            ms = seconds * 1000.0
            self.hop_ms = ms if self.hop_ms is None else self.hop_ms + self.ewma * (ms - self.hop_ms)
            if self._hop_hist is not None:
                self._hop_hist.record(seconds, self._attrs)
        if span is not None:
            span.set_attribute("bb.outcome", outcome)
            span.end(end_time=end)

    def _drop(self, reason: str) -> None:
        self.drops[reason] = self.drops.get(reason, 0) + 1
        if self._drop_counter is not None:
            self._drop_counter.add(1, {**self._attrs, "reason": reason})

    # --------------------------------------------------------------- status

    def status(self) -> dict[str, Any]:
        """The status record: up, bb-edge version, program (deployment name, version, hash), epoch, latencies (ms),
        drops, counters; ``time`` (wall clock) lets a view tell a retained record of a node long gone."""
        c = dict(self.engine.counters)
        return {
            "v": STATUS_VERSION, "node": self.engine.node, "up": True, "version": self.version,
            "program": self.deployment, "program_version": self.program_version,
            "program_hash": self.engine.program_hash.hex(), "epoch": self.engine.boot_epoch,
            "hop_ms": None if self.hop_ms is None else round(self.hop_ms, 3),
            "compute_ms": None if self.compute_ms is None else round(self.compute_ms, 3),
            "rtt_ms": {k: round(v, 3) for k, v in sorted(self.rtt_ms.items())},
            "drops": sum(self.drops.values()), "drops_by_reason": dict(sorted(self.drops.items())),
            "requests": c.get("requests_completed", 0), "envelopes_in": c.get("envelopes_in", 0),
            "envelopes_out": c.get("envelopes_out", 0), "bytes_in": c.get("bytes_in", 0),
            "bytes_out": c.get("bytes_out", 0), "open_requests": self.engine.open_requests,
            # what keeping a stateful stage's standby current costs (state deltas) or cost at failover (replays)
            "state_delta_bytes_out": c.get("state_delta_bytes_out", 0),
            "replay_bytes_out": c.get("replay_bytes_out", 0), "replays_in": c.get("replays_in", 0),
            "time": time.time(),
        }
