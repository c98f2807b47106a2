"""Trust on the wire, in the simulator: sample-count caps, receiver-side sharing modes, bad updates.

Each test has a control run without the protection (a looser cap, or a
receiver that allows everything) showing the attack does land there, so the
test fails if the protection is removed.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.learn.simulator import simulate
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.deployment.manifest import Deployment, NodeSpec
from bb_edge.engine import Engine
from bb_edge.learn.roles import ConfigError
from bb_edge.strategies import events as lev
from bb_edge.strategies.base import PROTO_FEDAVG_SERVER, PROTO_GOSSIP, PROTO_PUSHSUM, Msg
from bb_edge.strategies.fedavg import FedAvgServer
from bb_edge.strategies.modules import module_for
from bb_edge.training.setup import build_setup
from bb_edge.wire import envelope as wire

LIAR = {"type": "attack.sample_count_lie", "samples": 10**9, "scale": 1.0, "malicious": 2}
BASE: dict[str, Any] = {"strategy": "fedavg", "clients": 10, "rounds": 8, "epochs": 1, "batch_size": 16}


# ------------------------------------------------------------------ sample counts


@pytest.mark.parametrize("rule", ["mean", "geometric_median"])
def test_sample_count_liar_is_clamped_to_its_partition(rule: str) -> None:
    res = simulate({**BASE, "aggregator": {"type": rule}, "attack": LIAR}, seed=0)
    assert res.counts.get("SampleCountClamped") == 2
    assert res.final_accuracy >= 0.8, res.final_accuracy


def test_sample_count_liar_dominates_without_a_tight_cap() -> None:
    """Control: a cap above the lie lets the two liars (sign-flipped updates) own the mean."""
    res = simulate({**BASE, "aggregator": {"type": "mean"}, "attack": LIAR, "sample_cap": 10**10}, seed=0)
    assert "SampleCountClamped" not in res.counts
    assert res.final_accuracy < 0.5, res.final_accuracy


def test_server_weights_are_the_claims_clamped_to_the_partition_sizes() -> None:
    setup = build_setup({**BASE, "attack": LIAR})
    mod = module_for(setup)
    engines = _engines(mod)
    _pump(engines, 0.0)
    srv = _server(engines)
    ids = dict(mod.nodes())
    sizes = {ids[c]: len(p.x) for c, p in zip(mod.clients(), setup.parts, strict=True)}
    assert srv.clients == sizes  # honest clients claim their size, liars are clamped to it
    clamped = [e for e in engines["server"].drain_events() if isinstance(e, lev.SampleCountClamped)]
    assert sorted(e.peer for e in clamped) == sorted(ids[c] for c in mod.malicious)
    assert all(e.claimed == 10**9 and e.cap == sizes[e.peer] for e in clamped)


@pytest.mark.parametrize("payload,why", [
    (np.array([0], np.int64), "< 1"),
    (np.array([-5], np.int64), "< 1"),
    (np.array([3.5], np.float32), "one integer"),
    (np.array([1, 2], np.int64), "one integer"),
])
def test_bad_join_sample_count_is_refused_and_not_admitted(payload: np.ndarray, why: str) -> None:
    mod = module_for(build_setup({**BASE, "clients": 2}))
    engines = _engines(mod)
    srv_engine = engines["server"]
    env = wire.Envelope.for_array(payload, sender=2, receiver=1, seq=50_000, edge=int(Msg.JOIN),
                                  protocol=PROTO_FEDAVG_SERVER)
    srv_engine.deliver("c0", wire.encode(env))
    srv_engine.poll(0.0)
    rej = [e for e in srv_engine.drain_events() if isinstance(e, lev.UpdateRejected)]
    assert [r.reason for r in rej] == ["bad_sample_count"] and why in rej[0].detail
    assert 2 not in _server(engines).clients


def test_sample_cap_must_be_partition_or_positive() -> None:
    with pytest.raises(ConfigError, match="sample_cap"):
        simulate({**BASE, "sample_cap": 0}, seed=0)


# ------------------------------------------------------------------ sharing modes


def _engines(mod: Any) -> dict[str, Engine]:
    engines: dict[str, Engine] = {}
    first: Engine | None = None
    for name, nid in mod.nodes():
        e = Engine(name, nid, mod.peers_of(name))
        if first is None:
            for key, model in mod.compute().items():  # every program the strategy runs, prepared once
                e.prepare_compute(key, model)
            first = e
        else:
            for key in mod.compute():
                e.attach_compute(key, first.compute_model(key))
        mod.install(e, name)
        engines[name] = e
    return engines


def _server(engines: dict[str, Engine]) -> FedAvgServer:
    return next(h for h in engines["server"].protocols.values() if isinstance(h, FedAvgServer))


def _pump(engines: dict[str, Engine], now: float) -> None:
    for _ in range(3):
        for name, e in list(engines.items()):
            for o in e.poll(now):
                for t in ([n for n in engines if n != name] if o.peer == "*" else [o.peer]):
                    engines[t].deliver(name, o.data)


def _run_decentralised(strategy: str, setup_peers: Any, periods: int = 12) -> list[tuple[str, Any]]:
    """A small gossip/push-sum fleet; ``setup_peers(name, selector)`` edits each node's own selector."""
    mod = module_for(build_setup({"strategy": strategy, "clients": 5, "rounds": periods, "batch_size": 16,
                                  "local_steps": 2, "topology": "full"}))
    engines = _engines(mod)
    ids = dict(mod.nodes())
    for name, e in engines.items():
        setup_peers(name, e.bindings["peers"], ids)
    dep = Deployment("t", [NodeSpec(n, i, "") for n, i in mod.nodes()], [], [], [])
    fleet = InProcFleet(dep, engines=dict(engines))
    events: list[tuple[str, Any]] = []
    while fleet.now < periods:
        fleet.step()
        events += list(fleet.events)
        fleet.events.clear()
        fleet.now += 0.25
    return events


def _leech(name: str, sel: Any, ids: dict[str, int]) -> None:
    # n0 is a leech (read-only) in everybody's table but its own: it keeps sending anyway
    if name != "n0":
        sel.set_mode(ids["n0"], "ro")


def _block(name: str, sel: Any, ids: dict[str, int]) -> None:
    # n1 blocked n2, but n2 does not know and keeps sending to it
    if name == "n1":
        sel.block(ids["n1"], ids["n2"])


def _nothing(name: str, sel: Any, ids: dict[str, int]) -> None:
    return None


def _merged(events: list[tuple[str, Any]], at: str | None, peer: str) -> int:
    return sum(1 for node, e in events
               if isinstance(e, lev.ModelMerged) and e.peer == peer and at in (None, node))


@pytest.mark.parametrize("strategy", ["gossip", "pushsum"])
def test_receivers_refuse_leech_and_blocked_senders(strategy: str) -> None:
    control = _run_decentralised(strategy, _nothing)
    # control: without receiver rules the leech's and the blocked sender's models are merged
    assert _merged(control, None, "n0") > 0 and _merged(control, "n1", "n2") > 0

    leech = _run_decentralised(strategy, _leech)
    assert _merged(leech, None, "n0") == 0
    refused = [e for _, e in leech if isinstance(e, lev.UpdateRejected)]
    assert refused and {e.reason for e in refused} == {"sharing_mode"} and {e.sender for e in refused} == {1}

    blocked = _run_decentralised(strategy, _block)
    assert _merged(blocked, "n1", "n2") == 0
    refused_at = [(node, e.reason, e.sender) for node, e in blocked if isinstance(e, lev.UpdateRejected)]
    assert refused_at and set(refused_at) == {("n1", "blocked", 3)}
    assert _merged(blocked, "n1", "n3") > 0  # n1 still takes everybody else's


@pytest.mark.parametrize("strategy,proto,edge", [("gossip", PROTO_GOSSIP, Msg.GOSSIP),
                                                 ("pushsum", PROTO_PUSHSUM, Msg.PUSH)])
def test_bad_decentralised_updates_are_typed_and_leave_the_model_alone(strategy: str, proto: int,
                                                                        edge: Msg) -> None:
    mod = module_for(build_setup({"strategy": strategy, "clients": 3, "rounds": 1, "topology": "full"}))
    engines = _engines(mod)
    for e in engines.values():
        e.poll(0.0)  # start (no fetch on join)
    target = engines["n1"]
    before = np.array(target.bindings["model"].vector)
    size = before.size + (1 if strategy == "pushsum" else 0)
    nan = np.zeros(size, np.float32)
    nan[0] = np.nan
    bad = [nan, np.zeros(size - 1, np.float32), np.zeros(size, np.float64)]
    for i, arr in enumerate(bad):
        env = wire.Envelope.for_array(arr, sender=1, receiver=2, seq=70_000 + i, request_id=5, edge=int(edge),
                                      protocol=proto)
        target.deliver("n0", wire.encode(env))
    target.poll(0.0)
    rej = sorted(e.reason for e in target.drain_events() if isinstance(e, lev.UpdateRejected))
    assert rej == ["non_finite", "wrong_dtype", "wrong_shape"]
    np.testing.assert_array_equal(target.bindings["model"].vector, before)


# ------------------------------------------------------------------ split learning


def _split_fleet() -> tuple[Any, dict[str, Engine]]:
    mod = module_for(build_setup({"strategy": "split", "clients": 1, "rounds": 1, "batch_size": 8}))
    return mod, _engines(mod)


def _env(arr: np.ndarray, sender: int, receiver: int, edge: Msg, rid: int, seq: int, proto: int) -> bytes:
    return wire.encode(wire.Envelope.for_array(arr, sender=sender, receiver=receiver, seq=seq, request_id=rid,
                                               edge=int(edge), protocol=proto))


def test_split_server_refuses_bad_cut_tensors_labels_strangers_and_floods() -> None:
    from bb_edge.strategies.base import PROTO_SPLIT_SERVER

    mod, engines = _split_fleet()
    ids = dict(mod.nodes())
    server, client = "server", mod.clients()[0]
    _pump(engines, 0.0)  # JOIN, first steps
    srv = engines[server]
    srv.poll(0.0)  # take what the client already sent; nothing new reaches the server after this
    srv.drain_events()
    before = np.array(srv.bindings["model"].vector)
    cid, sid = ids[client], ids[server]
    bad = [
        (np.zeros((8, 31), np.float32), Msg.ACTIVATIONS),  # wrong width at the cut
        (np.full((8, 32), np.nan, np.float32), Msg.ACTIVATIONS),
        (np.zeros((8, 32), np.float64), Msg.ACTIVATIONS),
        (np.zeros(8, np.float32), Msg.LABELS),  # labels must be integers
    ]
    for i, (arr, edge) in enumerate(bad):
        srv.deliver(client, _env(arr, cid, sid, edge, 900 + i, 80_000 + i, PROTO_SPLIT_SERVER))
    srv.deliver(client, _env(np.array([5], np.int64), 77, sid, Msg.JOIN, 0, 80_100, PROTO_SPLIT_SERVER))
    for i in range(10):  # labels for ten different steps, activations never: bounded, then refused
        srv.deliver(client, _env(np.zeros(8, np.int64), cid, sid, Msg.LABELS, 1_000 + i, 80_200 + i,
                                 PROTO_SPLIT_SERVER))
    srv.poll(0.0)
    reasons = [e.reason for e in srv.drain_events() if isinstance(e, lev.UpdateRejected)]
    assert sorted(reasons[:5]) == ["non_finite", "unknown_peer", "wrong_dtype", "wrong_dtype", "wrong_shape"]
    assert reasons[5:] and set(reasons[5:]) == {"stale_round"}
    handler = next(h for h in srv.protocols.values() if hasattr(h, "pending"))
    assert len(handler.pending) <= 4 + 1 and 77 not in handler.clients
    np.testing.assert_array_equal(srv.bindings["model"].vector, before)


def test_split_client_refuses_bad_gradients_and_keeps_its_model() -> None:
    from bb_edge.strategies.base import PROTO_SPLIT_CLIENT

    mod, engines = _split_fleet()
    ids = dict(mod.nodes())
    client = mod.clients()[0]
    cli = engines[client]
    cli.poll(0.0)  # JOIN + the first step's labels and activations; now waiting for GRADIENTS of step 1
    handler = next(h for h in cli.protocols.values() if hasattr(h, "waiting"))
    assert handler.waiting == "grad"
    before = np.array(cli.bindings["model"].vector)
    for i, g in enumerate([np.zeros((8, 31), np.float32), np.full((8, 32), np.inf, np.float32),
                           np.zeros((3, 32), np.float32)]):
        cli.deliver("server", _env(g, ids["server"], ids[client], Msg.GRADIENTS, handler.step, 90_000 + i,
                                   PROTO_SPLIT_CLIENT))
    cli.poll(0.0)
    reasons = sorted(e.reason for e in cli.drain_events() if isinstance(e, lev.UpdateRejected))
    assert reasons == ["non_finite", "wrong_shape", "wrong_shape"]
    np.testing.assert_array_equal(cli.bindings["model"].vector, before)
    assert handler.waiting == "grad"


def test_gossip_fetch_from_a_blocked_peer_gets_no_model() -> None:
    mod = module_for(build_setup({"strategy": "gossip", "clients": 3, "rounds": 1, "topology": "full"}))
    engines = _engines(mod)
    ids = dict(mod.nodes())
    for e in engines.values():
        e.poll(0.0)
    n1 = engines["n1"]
    n1.bindings["peers"].block(ids["n1"], ids["n0"])
    for i, sender in enumerate(("n0", "n2")):
        env = wire.Envelope.for_array(np.zeros(0, np.uint8), sender=ids[sender], receiver=ids["n1"], seq=60_000 + i,
                                      edge=int(Msg.FETCH), protocol=PROTO_GOSSIP)
        n1.deliver(sender, wire.encode(env))
    out = n1.poll(0.0)
    full = [o.peer for o in out if wire.decode(o.data).edge == Msg.MODEL_FULL]
    assert full == ["n2"]  # the unblocked peer gets the model, the blocked one a typed refusal
    rej = [(e.reason, e.sender) for e in n1.drain_events() if isinstance(e, lev.UpdateRejected)]
    assert rej == [("blocked", ids["n0"])]


# ------------------------------------------------------------------ FedAvg sharing modes, over MQTT


def _without_peers(learning: dict[str, Any], keep: list[str]) -> dict[str, Any]:
    """The same run with only the ``keep`` clients: their own index partitions, no sharing rules."""
    parts = build_setup(learning).parts
    idx = [[int(i) for i in parts[int(c[1:])].indices] for c in keep]
    cfg = {k: v for k, v in learning.items() if k not in ("blocked", "sharing")}
    return {**cfg, "clients": len(keep), "data": {**learning["data"], "partition": {"indices": idx}}}


def test_fedavg_server_refuses_blocked_and_leech_clients_in_process() -> None:
    """Simulator: the blocked client is never admitted, the leech's updates are refused every round, and the
    model is the run of the other clients alone; control: without the rules every client counts."""
    learning = {**BASE, "clients": 4, "rounds": 3, "seed": 5,
                "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}
    guarded = simulate({**learning, "blocked": ["c2"], "sharing": {"c3": "ro"}})
    alone = simulate(_without_peers(learning, ["c0", "c1"]))
    everyone = simulate(learning)
    assert guarded.rejections == {"blocked": 1, "sharing_mode": 3}
    assert guarded.model is not None and alone.model is not None and everyone.model is not None
    np.testing.assert_array_equal(guarded.model, alone.model)
    assert np.abs(everyone.model - alone.model).max() > 1e-3
    # the same rules hold in secure-aggregation rounds (the leech's key is refused, not just out of phase)
    secure = simulate({**learning, "blocked": ["c2"], "sharing": {"c3": "ro"}, "secagg": {"threshold": 2}})
    assert secure.rejections == {"blocked": 1, "sharing_mode": 3} and secure.model is not None
    np.testing.assert_allclose(secure.model, alone.model, atol=1e-4)
    with pytest.raises(ConfigError, match="sharing"):
        simulate({**learning, "sharing": {"c3": "leech"}})
    with pytest.raises(ConfigError, match="name no client"):
        simulate({**learning, "blocked": ["c9"]})


def test_blocked_and_leech_clients_contained_over_mqtt(tmp_path: Path) -> None:
    """One process per node over a real Mosquitto: the server process refuses the blocked client's JOIN and
    the leech's updates with typed events (in the run's summary), and its final model equals the run of the
    other client alone (the simulator on its own index partition).

    Both misbehaving clients are starved of CPU (SIGSTOP) until 1.5 s after the server finished: the blocked
    one from before its JOIN, the leech from the end of its first local training (a leech stopped before the
    round's model reached it has nothing to send: a stopping node reads no new input). So the refusals are
    counted only because the fleet ends in causal order (clients first, the server once it saw them go;
    bb_edge/adapters/learn/fleet.py ``LearningFleet.finish``): stopping everything at once lost them on a loaded
    machine."""
    from bb_edge.adapters.learn.fleet import run_learning_fleet
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.training.setup import write_learning_deployment
    from tests.learn.test_learn_mqtt import start_broker, starve, stop_broker

    learning = {**BASE, "clients": 3, "rounds": 3, "seed": 5, "blocked": ["c1"], "sharing": {"c2": "ro"},
                "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    work = tmp_path / "work"

    def started() -> bool:  # the fleet's start file: c1 is about to JOIN
        return (work / "start").exists()

    def leech_trained() -> bool:  # it holds an update the server must refuse
        log = work / "c2.log"
        return log.exists() and "event LocalTrainingDone strategy=fedavg round=1 " in log.read_text()

    cancel = threading.Event()
    starvers = [threading.Thread(target=starve, args=(d, work, "c1", started, cancel), daemon=True),
                threading.Thread(target=starve, args=(d, work, "c2", leech_trained, cancel), daemon=True)]
    broker, url = start_broker(tmp_path / "broker")
    try:
        for t in starvers:
            t.start()
        res = run_learning_fleet(load_deployment(d), url, workdir=work)
    finally:
        cancel.set()
        for t in starvers:
            t.join(10)
        stop_broker(broker)
    assert res.rejections.get("blocked") == 1 and res.rejections.get("sharing_mode", 0) >= 1, res.rejections
    log = (tmp_path / "work" / "server.log").read_text()
    assert "event UpdateRejected strategy=fedavg sender=3 round=0 reason=blocked" in log
    assert "sender=4" in log and "reason=sharing_mode" in log
    alone = simulate(_without_peers(learning, ["c0"]), d)
    assert alone.model is not None
    np.testing.assert_allclose(res.final_models["server"], alone.model, atol=1e-6)
