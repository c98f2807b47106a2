"""In-process pipelines: zero-copy tensors between local engines, concurrent stages, same results.

The oracle for results is the sequential, encoded fleet (bit-identical) and one
ONNX Runtime session over the whole model (within float tolerance); the oracle
for "no copy" is numpy's shares_memory between what one stage's session
returned and what the next stage's session was given, and the encoded fleet,
where the same check must come out False.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import onnx
import pytest

from bb_edge.adapters.transports.inproc import InProcFleet, RequestFailedError
from bb_edge.backends.ort import OrtBackend
from bb_edge.compiler import compile_model, load_model
from bb_edge.engine import Engine, events
from bb_edge.errors import WireError
from bb_edge.ir import record
from bb_edge.wire import Envelope, encode
from bb_edge.wire.envelope import FLAG_QUANT, data_offset
from tests.support.ir_modules import Mlp
from tests.support.models import light, monolithic, random_inputs


class Recording:
    """A real ORT backend that records every segment call: inputs, outputs and the thread it ran on."""

    name = "ort"

    def __init__(self, fail_request_input: np.ndarray | None = None) -> None:
        self.inner = OrtBackend(intra_op_threads=1)
        self.calls: list[tuple[str, dict[str, np.ndarray], dict[str, np.ndarray], str, float, float]] = []
        self.lock = threading.Lock()
        self.fail_on = fail_request_input

    def prepare(self, model: onnx.ModelProto, key: str) -> Any:
        seg = self.inner.prepare(model, key)
        outer = self

        class _Seg:
            def run(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
                if outer.fail_on is not None and any(v is outer.fail_on or np.shares_memory(v, outer.fail_on)
                                                     for v in inputs.values()):
                    raise RuntimeError("injected backend failure")
                t0 = time.perf_counter()
                out = seg.run(inputs)
                with outer.lock:
                    outer.calls.append((key, dict(inputs), out, threading.current_thread().name,
                                        t0, time.perf_counter()))
                return out

        return _Seg()

    def materialize_from_wire(self, env: Envelope) -> np.ndarray:
        return self.inner.materialize_from_wire(env)

    def given(self, tensor: str) -> list[np.ndarray]:
        return [c[1][tensor] for c in self.calls if tensor in c[1]]

    def produced(self, tensor: str) -> list[np.ndarray]:
        return [c[2][tensor] for c in self.calls if tensor in c[2]]


@pytest.fixture(scope="module")
def squeeze():  # type: ignore[no-untyped-def]
    model = load_model(str(light("squeezenet")))
    dep, programs = compile_model(model, nodes=3)
    return model, dep, programs


def _requests(model: onnx.ModelProto, n: int) -> list[dict[str, np.ndarray]]:
    return [random_inputs(model, seed=s) for s in range(n)]


def test_zero_copy_hands_tensors_through_and_results_are_bit_identical(squeeze) -> None:  # type: ignore[no-untyped-def]
    model, dep, programs = squeeze
    reqs = _requests(model, 2)
    encoded_be, zero_be = Recording(), Recording()
    encoded = InProcFleet(dep, programs, backend=encoded_be).run(reqs)
    zc_fleet = InProcFleet(dep, programs, backend=zero_be, zero_copy=True)
    zero = zc_fleet.run(reqs)
    for a, b, r in zip(encoded, zero, reqs):
        for name in a:
            assert np.array_equal(a[name], b[name])
            np.testing.assert_allclose(b[name], monolithic(model, r)[name], rtol=1e-4, atol=1e-5)
    assert len(dep.edges) == 2
    for e in dep.edges:
        (sent0, sent1), (got0, got1) = zero_be.produced(e.tensor), zero_be.given(e.tensor)
        # the next stage's session reads the very buffer the previous stage's session wrote
        assert np.shares_memory(sent0, got0) and np.shares_memory(sent1, got1)
        assert not got0.flags.writeable  # ...through a view it cannot write through
        (esent0, _), (egot0, _) = encoded_be.produced(e.tensor), encoded_be.given(e.tensor)
        assert not np.shares_memory(esent0, egot0)  # the encoded path copies: the check can fail
        assert np.array_equal(esent0, egot0)
    (x_name,) = reqs[0]
    assert np.shares_memory(zero_be.given(x_name)[0], reqs[0][x_name])  # graph inputs: no copy either
    assert not np.shares_memory(encoded_be.given(x_name)[0], reqs[0][x_name])
    # what is counted is what the encoded envelopes would have been: header + dims + payload
    for e in dep.edges:
        want = 2 * (data_offset(len(e.shape)) + e.bytes_per_inference)
        assert zc_fleet.engines[e.src].counters["bytes_out"] == want
        assert zc_fleet.engines[e.dst].counters["bytes_in"] == want


def test_concurrent_stages_run_on_their_own_threads_and_match(squeeze) -> None:  # type: ignore[no-untyped-def]
    model, dep, programs = squeeze
    reqs = _requests(model, 4)
    reference = InProcFleet(dep, programs).run(reqs)
    be = Recording()
    before = {t.name for t in threading.enumerate()}
    with InProcFleet(dep, programs, backend=be, concurrent=True, zero_copy=True) as fleet:
        out = fleet.run(reqs, window=3, real_timeout=120)
        again = fleet.run(reqs[:1], window=1, real_timeout=120)  # the workers serve later runs too
        workers = {t.name for t in threading.enumerate()} - before
    assert workers == {f"bb-edge-compute-{n.name}" for n in dep.nodes}
    for a, b in zip(reference, out):
        assert all(np.array_equal(a[k], b[k]) for k in a)
    assert all(np.array_equal(reference[0][k], again[0][k]) for k in reference[0])
    threads = {c[0].split(".")[0]: {c2[3] for c2 in be.calls if c2[0] == c[0]} for c in be.calls}
    assert threads == {n.name: {f"bb-edge-compute-{n.name}"} for n in dep.nodes}
    deadline = time.monotonic() + 10
    while any(t.name in workers for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(t.name in workers for t in threading.enumerate()), "close() left compute threads running"


class _TimedSession:
    """An ORT session that records when each run starts and ends, and whether it is the wide one."""

    def __init__(self, inner: Any, node: str, wide: bool, log: list[tuple[str, bool, float, float]],
                 lock: threading.Lock) -> None:
        self.inner, self.node, self.wide, self.log, self.lock = inner, node, wide, log, lock

    def run(self, names: list[str], feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        t0 = time.perf_counter()
        out = self.inner.run(names, feeds)
        with self.lock:
            self.log.append((self.node, self.wide, t0, time.perf_counter()))
        return out  # type: ignore[no-any-return]


def test_a_stage_computing_alone_takes_every_core_and_never_overlaps(squeeze) -> None:  # type: ignore[no-untyped-def]
    """The default concurrent ORT fleet gives each stage cores // stages threads, and the whole machine
    to a stage that computes alone: the first stage's first run (the pipeline filling) and the last
    stage's last run (draining) are wide, no wide run overlaps another run, and results are the
    sequential fleet's bit for bit."""
    from bb_edge.adapters.transports.inproc import host_cores
    from bb_edge.backends.ort import WideningOrtSegment

    assert host_cores() >= 2, "this property needs a host with two cores or more"
    model, dep, programs = squeeze
    reqs = _requests(model, 5)
    reference = InProcFleet(dep, programs).run(reqs)
    log: list[tuple[str, bool, float, float]] = []
    lock = threading.Lock()
    with InProcFleet(dep, programs, concurrent=True, zero_copy=True) as fleet:
        for name, eng in fleet.engines.items():
            (prog,) = eng.programs.values()
            for seg in prog.prepared:
                assert isinstance(seg, WideningOrtSegment)
                assert seg.session.get_session_options().intra_op_num_threads == max(1, host_cores() // 3)
                assert seg.wide.get_session_options().intra_op_num_threads == host_cores()
                seg.session = _TimedSession(seg.session, name, False, log, lock)  # type: ignore[assignment]
                seg.wide = _TimedSession(seg.wide, name, True, log, lock)  # type: ignore[assignment]
        out = fleet.run(reqs, window=4, real_timeout=120)
    for a, b in zip(reference, out):
        assert all(np.array_equal(a[k], b[k]) for k in a)
    first, last = dep.nodes[0].name, dep.nodes[-1].name
    runs = {n.name: sorted((r for r in log if r[0] == n.name), key=lambda r: r[2]) for n in dep.nodes}
    assert all(len(v) == len(reqs) for v in runs.values()), runs
    assert runs[first][0][1] and runs[last][-1][1]  # filling and draining: wide
    assert not all(r[1] for r in log)  # the stages shared the cores in between
    for node, wide, t0, t1 in log:
        if wide:  # while a wide run computed, nothing else did
            others = [r for r in log if r[0] != node and r[2] < t1 and r[3] > t0]
            assert not others, (node, others)


def test_concurrent_backend_failure_is_a_typed_event_not_a_hang(squeeze) -> None:  # type: ignore[no-untyped-def]
    model, dep, programs = squeeze
    reqs = _requests(model, 2)
    (x_name,) = reqs[0]
    be = Recording(fail_request_input=reqs[1][x_name])
    with InProcFleet(dep, programs, backend=be, concurrent=True, zero_copy=True) as fleet:
        # the node's error result ends the run at once with a typed error naming it (not a stall)
        with pytest.raises(RequestFailedError, match="request 1 failed: ComputeFailed: request 2 at n0.*injected"):
            fleet.run(reqs, window=2, real_timeout=120)
        failed = [(n, e) for n, e in fleet.events if isinstance(e, events.ComputeFailed)]
        ready = {e.request_id for _, e in fleet.events if isinstance(e, events.OutputReady)}
    # request ids start at 1: the second request failed at its first stage; the first was never failed
    assert [(n, e.request_id, "injected" in e.error) for n, e in failed] == [("n0", 2, True)]
    assert ready <= {1}


def _edge_into(dep: Any, node: str) -> Any:
    return next(e for e in dep.edges if e.dst == node)


def _good(dep: Any, node: str, **fields: Any) -> Envelope:
    e = _edge_into(dep, node)
    ids = dep.ids()
    arr = np.random.default_rng(0).standard_normal(e.shape).astype(np.float32)
    env = Envelope.for_array(arr, sender=ids[e.src], receiver=ids[node], seq=5, request_id=7, edge=e.id)
    for k, v in fields.items():
        setattr(env, k, v)
    return env


def test_hostile_local_envelopes_are_refused_like_encoded_ones() -> None:
    model = record(Mlp())
    dep, programs = compile_model(model)
    eng = Engine.for_node(dep, "m", programs, local_payloads=True)
    ids = dep.ids()
    eng.drain_events()  # ProgramInstalled
    start = eng.snapshot(telemetry=False)
    f32 = np.zeros(_edge_into(dep, "m").shape, np.float32)
    cases: list[tuple[str, Any, str | None]] = [
        ("length", _good(dep, "m", dims=(1, 15)), "BAD_LENGTH"),
        ("dtype", _good(dep, "m", dtype=200), "BAD_DTYPE"),
        ("flags", _good(dep, "m", flags=0x80), "BAD_FIELD"),
        ("quant on float", _good(dep, "m", flags=FLAG_QUANT, scale=0.5), "BAD_FIELD"),
        ("kind", _good(dep, "m", kind=7), "BAD_KIND"),
        ("rank", _good(dep, "m", dims=(1,) * 9), "BAD_RANK"),
        ("negative seq", _good(dep, "m", seq=-1), None),
        ("float view", _good(dep, "m", data=memoryview(f32)), None),
        ("not an envelope", b"\xbb\xe1", None),
        ("sender", _good(dep, "m", sender=ids["e"]), "Unauthorised"),
        ("shape", _good(dep, "m", dims=(1, 8), data=memoryview(np.zeros((1, 8), np.float32)).cast("B")),
         "ContractViolation"),
        ("receiver", _good(dep, "m", receiver=ids["e"]), "Misaddressed"),
    ]
    for what, env, code in cases:
        eng.deliver_local("s", env)
        assert eng.poll(0.0) == [], what
        evs = eng.drain_events()
        assert len(evs) == 1, (what, evs)
        got = evs[0].code if isinstance(evs[0], events.EnvelopeRejected) else type(evs[0]).__name__
        if code is not None:
            assert got == code, (what, evs)
        else:
            assert isinstance(evs[0], events.EnvelopeRejected) and got != "INTERNAL", (what, evs)
        if code in ("Unauthorised", "ContractViolation", "Misaddressed"):
            # the same envelope encoded takes the same path to the same refusal (the bytes oracle)
            oracle = Engine.for_node(dep, "m", programs)
            oracle.drain_events()
            oracle.deliver("s", encode(env))
            oracle.poll(0.0)
            assert [type(e).__name__ for e in oracle.drain_events()] == [code], what
        elif code is not None:
            with pytest.raises(WireError) as refused:  # bytes with these fields cannot even be made
                encode(env)
            assert refused.value.code == code, what
        assert eng.snapshot(telemetry=False) == start, f"{what} changed state"
    # the sender changing the header after handing it over changes nothing: the engine keeps its own copy
    env = _good(dep, "m")
    eng.deliver_local("s", env)
    env.request_id, env.edge = 99, 12345
    (out,) = eng.poll(0.0)  # m computes request 7 and sends its result on to e, as an object
    assert (out.request_id, out.edge, out.peer, out.data) == (7, _edge_into(dep, "e").id, "e", b"")
    assert out.envelope is not None and out.size == data_offset(2) + out.envelope.array().nbytes
    assert [e.request_id for e in eng.drain_events() if isinstance(e, events.RequestCompleted)] == [7]
    # a too-large local envelope is dropped before it is kept, as a too-large encoded one
    small = Engine.for_node(dep, "m", programs, limits=type(eng.limits)(max_envelope=100))
    small.drain_events()
    small.deliver_local("s", _good(dep, "m"))
    small.poll(0.0)
    assert [type(e).__name__ for e in small.drain_events()] == ["EnvelopeTooLarge"]


class EngineDevice:
    """An ExternalNode that is a real engine behind encoded bytes, as a device on a link would be."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.got: list[bytes] = []

    def send(self, envelope: bytes) -> None:
        assert isinstance(envelope, bytes)  # a device only ever gets bytes, never an in-process object
        self.got.append(envelope)
        self.engine.deliver("fleet", envelope)

    def receive(self) -> list[bytes]:
        return [o.data for o in self.engine.poll(0.0)]


@pytest.mark.parametrize("device", ["m", "e"])
def test_zero_copy_fleet_encodes_for_devices_and_the_host(device: str) -> None:
    model = record(Mlp())
    dep, programs = compile_model(model)
    reqs = [{"x": np.random.default_rng(s).standard_normal((1, 8)).astype(np.float32)} for s in range(5)]
    plain = InProcFleet(dep, programs).run(reqs)
    dev = EngineDevice(Engine.for_node(dep, device, programs, outputs_to_host=True))
    with InProcFleet(dep, programs, external={device: dev}, concurrent=True, zero_copy=True) as fleet:
        out = fleet.run(reqs, window=3, real_timeout=60)
    assert len(dev.got) == len(reqs)  # one encoded envelope per request reached the device
    for a, b, r in zip(plain, out, reqs):
        assert all(np.array_equal(a[k], b[k]) for k in a)
        want = monolithic(model, r)
        assert set(b) == set(want)
        for k in b:
            np.testing.assert_allclose(b[k], want[k], rtol=1e-5, atol=1e-6)


def test_concurrent_fleet_admits_the_next_request_after_a_bare_output(squeeze) -> None:  # type: ignore[no-untyped-def]
    """With one request in flight, the step that sees the last stage finish moves nothing but an
    OutputReady event; the run must admit the next request instead of calling the fleet stalled
    (it did: `bb-edge run` stopped at 36 of 450 requests on a loaded machine)."""
    model, dep, programs = squeeze
    reqs = _requests(model, 3)
    reference = InProcFleet(dep, programs).run(reqs)
    with InProcFleet(dep, programs, concurrent=True, zero_copy=True) as fleet:
        out = fleet.run(reqs, window=1, real_timeout=120)
    for a, b in zip(reference, out):
        assert all(np.array_equal(a[k], b[k]) for k in a)
