"""Engine snapshots include strategy (protocol handler) state: restore mid-run, replay, identical bytes."""

from __future__ import annotations

import numpy as np
import pytest

from bb_edge.backends.base import get_backend
from bb_edge.engine import Engine
from bb_edge.strategies.base import HandlerState, handler_binding
from bb_edge.strategies.fedavg import FedAvgServer
from bb_edge.strategies.modules import StrategyModule, module_for
from bb_edge.training.setup import build_setup


class Run:
    """A fleet of engines pumped in a fixed order; one node's ingress and outbound bytes are recorded."""

    def __init__(self, cfg: dict, watch: str) -> None:
        self.mod: StrategyModule = module_for(build_setup(cfg))
        backend = get_backend("ort")
        self.prepared = {k: backend.prepare(m, k) for k, m in self.mod.compute().items()}
        self.engines = {name: self.build(name) for name, _ in self.mod.nodes()}
        self.watch = watch
        self.inbox: list[tuple[str, bytes]] = []
        self.log: list[tuple[float, list[tuple[str, bytes]], list[tuple[str, bytes]]]] = []
        self.recording = False

    def build(self, name: str) -> Engine:
        """An engine for ``name`` built exactly as the simulator builds it."""
        eng = Engine(name, dict(self.mod.nodes())[name], self.mod.peers_of(name))
        for k, p in self.prepared.items():
            eng.attach_compute(k, p)
        self.mod.install(eng, name)
        return eng

    def step(self, now: float) -> None:
        """Poll every engine once at ``now`` and route what they sent."""
        for name, eng in self.engines.items():
            out = eng.poll(now)
            if name == self.watch and self.recording:
                self.log.append((now, self.inbox, [(o.peer, o.data) for o in out]))
                self.inbox = []
            for o in out:
                for t in ([n for n in self.engines if n != name] if o.peer == "*" else [o.peer]):
                    if t in self.engines:
                        if t == self.watch and self.recording:
                            self.inbox.append((name, o.data))
                        self.engines[t].deliver(name, o.data)


def _replay(run: Run, snap: bytes) -> Engine:
    """A fresh engine for the watched node, restored from ``snap`` and fed the recorded ingress."""
    fresh = run.build(run.watch)
    fresh.restore(snap)
    for i, (now, inbox, sent) in enumerate(run.log):
        for peer, data in inbox:
            fresh.deliver(peer, data)
        got = [(o.peer, o.data) for o in fresh.poll(now)]
        assert got == sent, f"poll {i} at t={now}: outbound envelopes differ after restore"
    return fresh


@pytest.mark.parametrize("watch", ["server", "c1"])
def test_fedavg_snapshot_after_round_k_replays_identically(watch):
    cfg = {"strategy": "fedavg", "clients": 4, "rounds": 5, "epochs": 1, "batch_size": 32,
           "aggregator": {"type": "pipeline", "pre": [{"$component": "bucketing", "config": {"s": 2}}],
                          "rule": {"$component": "centered_clipping", "config": {"tau": 1.0}}}}
    run = Run(cfg, watch)
    server = run.engines["server"].protocols[16]
    assert isinstance(server, FedAvgServer)
    now = 0.0
    while server.round < 3:  # round 2 closed (the same poll opens round 3)
        run.step(now)
        now += 0.25
    eng = run.engines[watch]
    handler = eng.bindings[handler_binding(16 if watch == "server" else 17)]
    assert isinstance(handler, HandlerState)
    snap = eng.snapshot()
    run.recording = True
    while not server.finished:
        run.step(now)
        now += 0.25
    assert server.round == 5 and sum(len(s) for _, _, s in run.log) > 0
    fresh = _replay(run, snap)
    np.testing.assert_array_equal(fresh.bindings["model"].vector, eng.bindings["model"].vector)
    assert fresh.bindings[handler_binding(handler.protocol_id)].snapshot() == handler.snapshot()
    if watch == "server":
        assert fresh.bindings["aggregator"].snapshot() == eng.bindings["aggregator"].snapshot()


def test_pushsum_snapshot_after_some_steps_replays_identically():
    cfg = {"strategy": "pushsum", "clients": 5, "rounds": 8, "local_steps": 2, "batch_size": 16}
    run = Run(cfg, "n2")
    now = 0.0
    for _ in range(14):
        run.step(now)
        now += 0.25
    eng = run.engines["n2"]
    handler = eng.bindings[handler_binding(21)]
    assert handler.wakes > 0 and handler.s is not None
    snap = eng.snapshot()
    run.recording = True
    for _ in range(20):
        run.step(now)
        now += 0.25
    assert any(inbox for _, inbox, _ in run.log) and any(sent for _, _, sent in run.log)
    fresh = _replay(run, snap)
    restored = fresh.bindings[handler_binding(21)]
    np.testing.assert_array_equal(restored.s, handler.s)
    assert restored.w == handler.w
    np.testing.assert_array_equal(fresh.bindings["model"].vector, eng.bindings["model"].vector)


def test_without_handler_state_the_replay_diverges():
    """Control: restoring only the bound components (old behaviour) does not reproduce the run."""
    cfg = {"strategy": "fedavg", "clients": 3, "rounds": 4, "epochs": 1, "batch_size": 32}
    run = Run(cfg, "server")
    server = run.engines["server"].protocols[16]
    now = 0.0
    while server.round < 3:
        run.step(now)
        now += 0.25
    snap = run.engines["server"].snapshot()
    run.recording = True
    while not server.finished:
        run.step(now)
        now += 0.25
    fresh = run.build("server")
    fresh.restore(snap)
    fresh.bindings[handler_binding(16)].restore(run.build("server").bindings[handler_binding(16)].snapshot())
    with pytest.raises(AssertionError):
        for now_, inbox, sent in run.log:
            for peer, data in inbox:
                fresh.deliver(peer, data)
            assert [(o.peer, o.data) for o in fresh.poll(now_)] == sent


def test_split_and_gossip_handlers_round_trip_their_state():
    for strategy in ("splitfed", "gossip"):
        run = Run({"strategy": strategy, "clients": 3, "rounds": 2, "batch_size": 64}, "c0" if "split" in strategy
                  else "n0")
        for i in range(12):
            run.step(i * 0.25)
        for eng in run.engines.values():
            for name, comp in eng.bindings.items():
                if isinstance(comp, HandlerState):
                    blob = comp.snapshot()
                    other = run.build(eng.node).bindings[name]
                    other.restore(blob)
                    assert other.snapshot() == blob, (strategy, eng.node, name)
