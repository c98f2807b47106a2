"""Clients share a fleet with the host, sans-IO: a client's HostSession (``client=k``) drives two node engines
by hand; outputs go back to the client that owns the request (and only to it), and match ONNX Runtime
over the whole model. A client cannot submit under another client's request ids: the node refuses it
with a typed event and is left as it was. The host's own path is unchanged (receiver 0, ``_host``).
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from bb_edge.compiler import compile_model, load_deployment
from bb_edge.deployment.clients import (
    ClientIdentityError,
    client_id,
    client_name,
    owned_request_id,
    reply_to,
    request_owner,
    slot_of_name,
)
from bb_edge.deployment.manifest import HOST_NAME, Deployment
from bb_edge.engine import Engine, events
from bb_edge.engine.host_session import HostSession
from bb_edge.wire import envelope as wire
from tests.support.models import mlp, monolithic


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> tuple[onnx.ModelProto, Deployment]:
    d = tmp_path_factory.mktemp("mlp")
    model = mlp(np.random.default_rng(11))
    onnx.save(model, str(d / "mlp.onnx"))
    compile_model(str(d / "mlp.onnx"), nodes=2, out_dir=d / "c")
    return model, load_deployment(d / "c")


def engines(dep: Deployment) -> dict[str, Engine]:
    return {n: Engine.for_node(dep, n, outputs_to_host=True) for n in dep.node_names}


def pump(engs: dict[str, Engine], sessions: dict[str, HostSession], sends: list[tuple[str, int, bytes]],
         sender: str) -> list[tuple[str, str, int]]:
    """Deliver envelopes until quiet; return (from, to, receiver id) of everything that left an engine."""
    queue = [(sender, peer, data) for peer, _, data in sends]
    log: list[tuple[str, str, int]] = []
    t = 1.0
    while queue:
        src, dst, data = queue.pop(0)
        if dst in engs:
            engs[dst].deliver(src, data)
            t += 0.01
            for o in engs[dst].poll(t):
                log.append((dst, o.peer, o.receiver))
                queue.append((dst, o.peer, o.data))
        elif dst in sessions:
            sessions[dst].receive(src, data)
    return log


def test_identity_helpers() -> None:
    assert client_name(3) == "_client3" and slot_of_name("_client3") == 3 == slot_of_name("3")
    rid = owned_request_id(7, 12345)
    assert request_owner(rid) == 7 and reply_to(rid) == ("_client7", client_id(7))
    assert reply_to(1_780_000_000_000_000) == (HOST_NAME, 0)  # the host's clock-derived ids stay its own
    for bad in ("_client0", "_client256", "_host", "x1"):
        with pytest.raises(ClientIdentityError):
            slot_of_name(bad)


def test_two_clients_and_the_host_share_the_fleet(fleet: tuple[onnx.ModelProto, Deployment]) -> None:
    model, dep = fleet
    engs = engines(dep)
    sessions = {HOST_NAME: HostSession(dep, 1 << 32), "_client1": HostSession(dep, 2 << 32, client=1),
                "_client2": HostSession(dep, 3 << 32, client=2)}
    rng = np.random.default_rng(2)
    asked: dict[str, tuple[int, dict[str, np.ndarray]]] = {}
    for i, (name, s) in enumerate(sessions.items()):
        x = {"x": rng.standard_normal((1, 32)).astype(np.float32)}
        rid = s.request_id(1000 + i) if name != HOST_NAME else 1_780_000_000_000_000 + i
        asked[name] = (rid, x)
        log = pump(engs, sessions, s.submit(rid, x), name)
        outs = [(src, dst, recv) for src, dst, recv in log if dst not in engs]
        assert outs and all(dst == name and recv == s.own_id for _, dst, recv in outs), log
    for name, s in sessions.items():
        rid, x = asked[name]
        assert s.done(rid), name
        np.testing.assert_allclose(s.take(rid)["y"], monolithic(model, x)["y"], rtol=1e-5, atol=1e-6)
        assert s.stats.refused == 0 and s.stats.unexpected == 0


def test_a_client_cannot_submit_for_another(fleet: tuple[onnx.ModelProto, Deployment]) -> None:
    _, dep = fleet
    engs = engines(dep)
    owner = dep.inputs[0].node
    eve = HostSession(dep, 5 << 32, client=2)
    x = {"x": np.zeros((1, 32), np.float32)}
    with pytest.raises(Exception, match="not one _client2 owns"):
        eve.submit(owned_request_id(1, 77), x)  # the session refuses to make it
    # forged by hand: sender _client2, request owned by _client1
    env = wire.Envelope.for_array(x["x"], sender=client_id(2), receiver=dep.ids()[owner], seq=(5 << 32) + 1,
                                  request_id=owned_request_id(1, 77), edge=dep.inputs[0].edge_id)
    engs[owner].poll(0.5)
    before = engs[owner].snapshot(telemetry=False)
    engs[owner].deliver("_client2", wire.encode(env))
    out = engs[owner].poll(0.5)
    evs = engs[owner].drain_events()
    assert out == [] and any(isinstance(e, events.Unauthorised) and "owns request" in e.reason for e in evs), evs
    assert engs[owner].counters["unauthorised"] == 1 and engs[owner].open_requests == 0
    assert engs[owner].snapshot(telemetry=False) == before
    # the same envelope from the owner is served
    env.sender = client_id(1)
    engs[owner].deliver("_client1", wire.encode(env))
    engs[owner].poll(1.1)
    assert engs[owner].open_requests or engs[owner].counters["segments_run"] > 0


def test_one_client_flooding_cannot_evict_the_hosts_requests(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 37, finding 9: per-client budgets at the node. A client floods partial requests (one of two
    inputs each); it may keep at most ``client_requests`` of them open, evicting only its own, and the
    host's partial requests opened before the flood stay open and complete. Oracle: ONNX Runtime (via
    :func:`monolithic`) on the host's whole requests, and the node's open-request count per owner."""
    from onnx import TensorProto, helper

    from bb_edge.engine.engine import Limits

    g = helper.make_graph([helper.make_node("Add", ["x", "z"], ["y"])], "add2",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4]),
                           helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.save(model, str(tmp_path / "add2.onnx"))
    compile_model(str(tmp_path / "add2.onnx"), nodes=1, out_dir=tmp_path / "c")
    dep = load_deployment(tmp_path / "c")
    node = dep.node_names[0]
    eng = Engine.for_node(dep, node, outputs_to_host=True,
                          limits=Limits(max_open_requests=16, client_requests=4, client_bytes=1 << 20))
    host, flood = HostSession(dep, 1 << 32), HostSession(dep, 2 << 32, client=1)
    rng = np.random.default_rng(5)
    t = [1.0]

    def feed(sender: str, sends: list[tuple[str, int, bytes]]) -> list[tuple[str, bytes]]:
        out = []
        for _, _, data in sends:
            eng.deliver(sender, data)
            t[0] += 0.001
            out += [(o.peer, o.data) for o in eng.poll(t[0])]
        return out

    xs = {rid: {"x": rng.standard_normal((1, 4)).astype(np.float32),
                "z": rng.standard_normal((1, 4)).astype(np.float32)} for rid in (11, 12)}
    rest = {}
    for rid, v in xs.items():
        sends = host.submit(rid, v)
        assert len(sends) == 2
        feed(HOST_NAME, sends[:1])  # half a request each: open at the node
        rest[rid] = sends[1:]
    zero = np.zeros((1, 4), np.float32)
    for n in range(200):
        feed("_client1", flood.submit(flood.request_id(n), {"x": zero, "z": zero})[:1])
    evicted = [e.request_id for e in eng.drain_events() if isinstance(e, events.RequestEvicted)]
    assert len(evicted) == 200 - 4 and {request_owner(r) for r in evicted} == {1}, evicted[:5]
    assert eng.open_requests == 2 + 4  # the host's two, and the client's budget
    for rid, v in xs.items():
        for peer, data in feed(HOST_NAME, rest[rid]):
            if peer == HOST_NAME:
                host.receive(node, data)
        assert host.done(rid), rid
        np.testing.assert_allclose(host.take(rid)["y"], monolithic(model, v)["y"], rtol=1e-6)
