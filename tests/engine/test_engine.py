"""The sans-IO engine: segments, bad input as events, caps, async completion, snapshot/replay."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bb_edge.adapters.transports.inproc import InProcFleet, LinkModel
from bb_edge.compiler import compile_model, load_model
from bb_edge.engine import Engine, Limits, events
from bb_edge.ir import record
from bb_edge.wire import Envelope, decode, encode
from tests.support.ir_modules import Mlp, Pair
from tests.support.models import light, monolithic, random_inputs


@pytest.fixture(scope="module")
def mlp():  # type: ignore[no-untyped-def]
    model = record(Mlp())
    dep, programs = compile_model(model)
    return model, dep, programs


def _engines(dep, programs, **kw):  # type: ignore[no-untyped-def]
    return {n.name: Engine.for_node(dep, n.name, programs, **kw) for n in dep.nodes}


def _pump(engines, now=0.0, rounds=10):  # type: ignore[no-untyped-def]
    """Route outbound envelopes between engines until quiet; return app events per node."""
    evs = {n: [] for n in engines}
    for _ in range(rounds):
        moved = False
        for name, eng in engines.items():
            for o in eng.poll(now):
                moved = True
                if o.peer in engines:
                    engines[o.peer].deliver(name, o.data)
            evs[name] += eng.drain_events()
        if not moved:
            break
    return evs


def test_one_backend_call_per_pipeline_stage(mlp) -> None:  # type: ignore[no-untyped-def]
    model, dep, programs = mlp
    engines = _engines(dep, programs)
    for eng in engines.values():
        assert len(eng.programs[eng.node].segments) == 1
    x = np.random.default_rng(0).standard_normal((1, 8)).astype(np.float32)
    engines["s"].submit(1, {"x": x})
    evs = _pump(engines)
    out = [e for e in evs["e"] if isinstance(e, events.OutputReady)]
    assert len(out) == 1 and np.allclose(out[0].value, monolithic(model, {"x": x})["output"], atol=1e-6)
    assert all(eng.counters["segments_run"] == 1 for eng in engines.values())


def test_async_completion_lets_compute_run_elsewhere(mlp) -> None:  # type: ignore[no-untyped-def]
    model, dep, programs = mlp
    engines = _engines(dep, programs, inline_compute=False)
    x = np.ones((1, 8), dtype=np.float32)
    engines["s"].submit(7, {"x": x})
    result = None
    for _ in range(20):
        for name, eng in engines.items():
            for o in eng.poll(0.0):
                engines[o.peer].deliver(name, o.data)
            for cmd in eng.take_commands():
                assert cmd.request_id == 7
                eng.complete(cmd.cmd_id, eng.run_command(cmd))  # a worker would do this
            for e in eng.drain_events():
                if isinstance(e, events.OutputReady):
                    result = e.value
    assert result is not None and np.allclose(result, monolithic(model, {"x": x})["output"], atol=1e-6)


def test_failed_completion_is_an_event_not_an_exception(mlp) -> None:  # type: ignore[no-untyped-def]
    _, dep, programs = mlp
    eng = Engine.for_node(dep, "s", programs, inline_compute=False)
    eng.submit(1, {"x": np.ones((1, 8), np.float32)})
    eng.poll(0.0)
    (cmd,) = eng.take_commands()
    eng.complete(cmd.cmd_id, RuntimeError("GPU fell off the bus"))
    eng.poll(0.0)
    failed = [e for e in eng.drain_events() if isinstance(e, events.ComputeFailed)]
    assert failed and "GPU fell off" in failed[0].error and eng.open_requests == 0


def _data_env(dep, edge_id: int, array: np.ndarray, seq: int, rid: int = 1, sender: str | None = None) -> bytes:  # type: ignore[no-untyped-def]
    e = next(e for e in dep.edges if e.id == edge_id)
    ids = dep.ids()
    return encode(Envelope.for_array(array, sender=ids[sender or e.src], receiver=ids[e.dst], seq=seq,
                                     request_id=rid, edge=edge_id))


def test_bad_input_becomes_typed_events_and_the_node_keeps_serving(mlp) -> None:  # type: ignore[no-untyped-def]
    model, dep, programs = mlp
    eng = Engine.for_node(dep, "m", programs)
    edge_in = next(e for e in dep.edges if e.dst == "m")
    good = np.ones(edge_in.shape, np.float32)
    ids = dep.ids()
    eng.deliver("s", b"\x00garbage" * 10)                                              # malformed
    eng.deliver("s", _data_env(dep, edge_in.id, good, 1)[:-3])                         # truncated
    eng.deliver("s", _data_env(dep, edge_in.id, np.ones((1, 3), np.float32), 2))       # wrong shape
    eng.deliver("s", _data_env(dep, edge_in.id, good.astype(np.float64), 3))           # wrong dtype
    eng.deliver("s", encode(Envelope.for_array(good, sender=ids["s"], receiver=ids["m"], seq=4, edge=999)))
    eng.deliver("s", _data_env(dep, edge_in.id, good, 5, sender="e"))                  # wrong sender
    eng.deliver("s", encode(Envelope.for_array(good, sender=ids["s"], receiver=ids["e"], seq=6,
                                               edge=edge_in.id)))                      # not for us
    eng.deliver("s", _data_env(dep, edge_in.id, good, 7, rid=42))                      # valid
    eng.deliver("s", _data_env(dep, edge_in.id, good, 7, rid=42))                      # duplicate
    out = eng.poll(0.0)
    evs = eng.drain_events()
    kinds = [type(e).__name__ for e in evs if e.family == "infra"]
    assert kinds == ["EnvelopeRejected", "EnvelopeRejected", "ContractViolation", "ContractViolation",
                     "UnknownEdge", "Unauthorised", "Misaddressed", "DuplicateDropped"]
    assert [d.code for d in evs if isinstance(d, events.EnvelopeRejected)] == ["BAD_MAGIC", "TRUNCATED"]
    assert len(out) == 1 and decode(out[0].data).request_id == 42


def test_size_caps_and_ingress_budget_are_events(mlp) -> None:  # type: ignore[no-untyped-def]
    _, dep, programs = mlp
    edge_in = next(e for e in dep.edges if e.dst == "m")
    env = _data_env(dep, edge_in.id, np.ones(edge_in.shape, np.float32), 1)
    eng = Engine.for_node(dep, "m", programs, limits=Limits(max_envelope=len(env) - 1))
    eng.drain_events()
    eng.deliver("s", env)
    assert eng.drain_events() == []  # deliver only queues: events come from poll
    assert eng.poll(0.0) == []
    assert isinstance(eng.drain_events()[-1], events.EnvelopeTooLarge)

    eng = Engine.for_node(dep, "m", programs, limits=Limits(per_source_bytes=3 * len(env),
                                                             ingress_budget=5 * len(env)))
    for i in range(10):  # a flooding peer
        eng.deliver("s", _data_env(dep, edge_in.id, np.ones(edge_in.shape, np.float32), i + 1, rid=i + 1))
    for i in range(5):
        eng.deliver("e", _data_env(dep, edge_in.id, np.ones(edge_in.shape, np.float32), 100 + i, rid=100 + i,
                                   sender="s"))
    out = eng.poll(0.0)  # the batch queued before this poll is admitted together
    evs = eng.drain_events()
    assert sum(isinstance(e, events.SourceCapExceeded) for e in evs) == 7
    assert sum(isinstance(e, events.IngressBudgetExceeded) for e in evs) == 3
    assert len(out) == 5  # everything accepted was served
    # the budget frees up once drained
    eng.deliver("s", _data_env(dep, edge_in.id, np.ones(edge_in.shape, np.float32), 500, rid=500))
    assert len(eng.poll(0.0)) == 1


def test_open_request_limit_evicts_the_oldest(mlp) -> None:  # type: ignore[no-untyped-def]
    # a two-input node would wait forever for a missing input; use the receiver side of a 3-node split
    _, dep, programs = mlp
    eng = Engine.for_node(dep, "m", programs, inline_compute=False, limits=Limits(max_open_requests=2))
    edge_in = next(e for e in dep.edges if e.dst == "m")
    for rid in range(1, 5):
        eng.deliver("s", _data_env(dep, edge_in.id, np.ones(edge_in.shape, np.float32), rid, rid=rid))
    eng.poll(0.0)
    evicted = [e for e in eng.drain_events() if isinstance(e, events.RequestEvicted)]
    assert [e.request_id for e in evicted] == [1, 2]


def test_ping_pong_hello_bye(mlp) -> None:  # type: ignore[no-untyped-def]
    _, dep, programs = mlp
    engines = _engines(dep, programs)
    engines["s"].ping("e")
    engines["s"].hello()
    for o in engines["s"].flush_outbound():
        targets = [o.peer] if o.peer != "*" else ["m", "e"]
        for t in targets:
            engines[t].deliver("s", o.data)
    replies = engines["e"].poll(0.0)
    pong = [o for o in replies if decode(o.data).edge == 3]
    assert len(pong) == 1 and decode(pong[0].data).response_to == 1
    hello_back = [decode(o.data) for o in replies if decode(o.data).edge == 1]  # a HELLO is answered once
    assert len(hello_back) == 1 and hello_back[0].flags & 2 and hello_back[0].receiver == dep.ids()["s"]
    for o in replies:
        engines["s"].deliver("e", o.data)
    assert [decode(o.data).edge for o in engines["s"].poll(0.0)] == []  # an answer is not answered again
    got = [e for e in engines["s"].drain_events() if isinstance(e, events.ControlReceived)]
    assert sorted(g.code for g in got) == [1, 3]
    engines["m"].poll(0.0)
    assert any(isinstance(e, events.PeerUp) and e.peer == "s" for e in engines["m"].drain_events())


def test_snapshot_mid_stream_restores_and_replays_bit_for_bit() -> None:
    model = load_model(light("squeezenet"))
    dep, programs = compile_model(model, nodes=3)
    rng = np.random.default_rng(9)
    inputs = [rng.standard_normal((1, 3, 224, 224)).astype(np.float32) for _ in range(4)]
    # record the ingress of the middle node while the fleet runs
    fleet = InProcFleet(dep, programs)
    recorded: list[tuple[str, bytes]] = []
    mid = fleet.engines["n1"]
    original = mid.deliver

    def spy(peer: str, data: bytes) -> None:  # type: ignore[override]
        recorded.append((peer, bytes(data)))
        original(peer, data)

    mid.deliver = spy  # type: ignore[method-assign]
    fleet.run([{"data_0": x} for x in inputs], window=4)
    assert len(recorded) == 4

    def replay(eng: Engine, items: list[tuple[str, bytes]]) -> list[bytes]:
        out = []
        for peer, data in items:
            eng.deliver(peer, data)
            out += [o.data for o in eng.poll(1.0)]
        return out

    a = Engine.for_node(dep, "n1", programs)
    first = replay(a, recorded[:2])
    a.deliver(*recorded[2])  # queued but not yet polled: part of the snapshot
    snap = a.snapshot()
    rest_a = replay(a, recorded[3:])
    a_tail = [o.data for o in a.poll(2.0)]
    b = Engine.for_node(dep, "n1", programs)
    b.restore(snap)
    rest_b = replay(b, recorded[3:])
    b_tail = [o.data for o in b.poll(2.0)]
    sends = sum(1 for e in dep.edges if e.src == "n1")
    assert len(first) == 2 * sends and len(rest_a + a_tail) == 2 * sends
    assert rest_a + a_tail == rest_b + b_tail
    # and the restored run equals a straight run from the start
    c = Engine.for_node(dep, "n1", programs)
    assert replay(c, recorded) == first + rest_a + a_tail


def test_snapshot_keeps_partial_requests_and_dedup() -> None:
    dep, programs = compile_model(record(Pair()))
    (edge,) = dep.edges
    (y_in,) = [i for i in dep.inputs if i.node == "m"]
    a = Engine.for_node(dep, "m", programs)
    h = np.random.default_rng(1).standard_normal((1, 4)).astype(np.float32)
    y = np.random.default_rng(2).standard_normal((1, 4)).astype(np.float32)
    from_host = encode(Envelope.for_array(y, sender=0, receiver=dep.ids()["m"], seq=11, request_id=1,
                                          edge=y_in.edge_id))
    a.deliver("s", _data_env(dep, edge.id, h, 10))
    a.poll(0.0)
    assert a.open_requests == 1
    b = Engine.for_node(dep, "m", programs)
    b.restore(a.snapshot())
    b.deliver("s", _data_env(dep, edge.id, h, 10))  # a redelivery after restore is still a duplicate
    b.deliver("_host", from_host)
    b.poll(0.0)
    evs = b.drain_events()
    assert any(isinstance(e, events.DuplicateDropped) for e in evs)
    outs = [e for e in evs if isinstance(e, events.OutputReady)]
    assert len(outs) == 1 and np.allclose(outs[0].value, np.tanh(h + y), atol=1e-6)  # h is the edge value
    a.deliver("_host", from_host)
    a.poll(0.0)
    ref = [e for e in a.drain_events() if isinstance(e, events.OutputReady)]
    assert np.array_equal(outs[0].value, ref[0].value)


def test_lossless_link_model_with_latency_and_reordering_still_matches() -> None:
    model = load_model(light("shufflenet"))
    dep, programs = compile_model(model, nodes=3)
    xs = [random_inputs(model, seed=s) for s in range(3)]
    fleet = InProcFleet(dep, programs, link=LinkModel(latency=0.01, jitter=0.02, reorder=0.5, seed=3))
    outs = fleet.run(xs, window=3)
    for x, o in zip(xs, outs):
        ref = monolithic(model, x)
        assert all(np.abs(o[k] - v).max() <= 1e-5 for k, v in ref.items())
    assert fleet.now > 0.01


# ------------------------------------------------------------------ fuzzing


@pytest.fixture(scope="module")
def fuzz_engine(mlp):  # type: ignore[no-untyped-def]
    _, dep, programs = mlp
    return dep, Engine.for_node(dep, "m", programs)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(data=st.binary(max_size=400), mutate=st.integers(0, 2000), xor=st.integers(0, 255))
def test_fuzz_engine_never_raises_on_wire_input(fuzz_engine, data: bytes, mutate: int, xor: int) -> None:  # type: ignore[no-untyped-def]
    dep, eng = fuzz_engine
    edge_in = next(e for e in dep.edges if e.dst == "m")
    valid = bytearray(_data_env(dep, edge_in.id, np.ones(edge_in.shape, np.float32), mutate + 1, rid=mutate))
    valid[mutate % len(valid)] ^= xor
    eng.deliver("s", data)
    eng.deliver("s", bytes(valid))
    eng.poll(float(mutate))
    internal = [e for e in eng.drain_events() if isinstance(e, events.EnvelopeRejected) and e.code == "INTERNAL"]
    assert internal == [] and eng.pending_ingress == 0
