"""The simulator's scale work (issue 17) changes no result: pinned model hashes, and per-run (not per-engine) tables.

The hashes were computed with the simulator as it was BEFORE the set-up and JOIN paths were made
linear (shared roster, member-id set): same seed -> same model bytes, same per-round accuracy, bytes
and events. Set-up cost is checked by counting, never by timing: the roster is built once per
strategy module however many engines are built from it.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from bb_edge.adapters.learn.node import build_engine, load_module, prepare_programs
from bb_edge.adapters.learn.simulator import simulate
from bb_edge.backends.base import get_backend
from bb_edge.deployment.manifest import HOST_NAME

# (config, simulate kwargs, sha256 of model bytes + figures) recorded before the change (commit 833a923);
# "fedavg" without the server's re-ask of silent clients (``reask: 0``, the rule added later), so the pin still
# says nothing else moved; "fedavg-reask" the same run with the default re-ask, recorded when it was added
FEDAVG = {"strategy": "fedavg", "clients": 12, "rounds": 3, "epochs": 1, "batch_size": 16,
          "data": {"partition": {"type": "partition.iid"}}}
PINNED = {
    "fedavg": ({**FEDAVG, "reask": 0}, {"latency": 0.01, "jitter": 0.02, "churn": 0.2},
               "048ef3adbb9c3806f1a41a3410af0e89308d85ccb52da449d1866d970f1aea66"),
    "fedavg-reask": (FEDAVG, {"latency": 0.01, "jitter": 0.02, "churn": 0.2},
                     "c99ae877de2f937cd0c576e4516e0532e4390975a7a7a2744902e0286cd36b57"),
    "gossip": ({"strategy": "gossip", "clients": 8, "rounds": 3, "epochs": 1, "batch_size": 16},
               {"latency": 0.01, "jitter": 0.01},
               "78c486a53fd06e8ec3bdaee0bf866c9700bad5c1f3af4d53c3ee2a671e017e25"),
}


def _digest(cfg: dict, kw: dict) -> str:
    res = simulate(cfg, seed=3, **kw)
    h = hashlib.sha256()
    if res.model is not None:
        h.update(res.model.tobytes())
    s = res.summary()
    h.update(json.dumps([s[k] for k in ("accuracy_per_round", "bytes_per_round", "events", "bytes_sent")],
                        sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(PINNED))
def test_same_seed_same_model_bytes_as_before(name: str) -> None:
    cfg, kw, want = PINNED[name]
    assert _digest(cfg, kw) == want


@pytest.mark.parametrize("n", [5, 40])
def test_roster_built_once_per_module_and_client_peer_tables_stay_small(n: int) -> None:
    module = load_module({"strategy": "fedavg", "clients": n, "rounds": 1,
                          "data": {"partition": {"type": "partition.iid"}}}, seed=0)
    backend = get_backend("ort")
    prepared = prepare_programs(module, backend)
    engines = {name: build_engine(module, name, prepared, backend) for name, _ in module.nodes()}
    assert module.roster_builds == 1  # not one per engine: set-up stays linear in the fleet size
    assert len(engines) == n + 1
    # independent oracle: the wire ids the module's own node list gives
    ids = dict(module.nodes())
    assert engines["server"].peers == {**ids, HOST_NAME: 0}
    for c in module.clients():
        assert engines[c].peers == {"server": 1, c: ids[c], HOST_NAME: 0}
    with pytest.raises(TypeError):
        module.roster().ids["c0"] = 99  # type: ignore[index]  # shared by every engine: read-only


def test_dedup_window_jump_clears_exactly_the_numbers_passed() -> None:
    """The byte-wise clear of a window jump (a server's seq moves by the cohort size) equals a bit-by-bit clear."""
    import random

    from bb_edge.engine.dedup import _Window

    def bitwise(w: _Window, n: int) -> None:  # the rule spelled out: every number passed leaves the window
        w.ring.extend(bytes((w.size + 7) // 8 - len(w.ring)))  # the reference holds the whole ring
        if n - w.top >= w.size:
            w.ring[:] = bytes(len(w.ring))
        else:
            for k in range(w.top + 1, n + 1):
                i = k % w.size
                w.ring[i >> 3] &= ~(1 << (i & 7)) & 0xFF
        w.top = n
        i = n % w.size
        w.ring[i >> 3] |= 1 << (i & 7)

    rng = random.Random(1)
    for _ in range(600):
        win = rng.choice([1, 3, 7, 8, 15, 16, 17, 63, 64, 100, 1024])
        a = _Window(win, rng.randrange(50))
        b = _Window(win, a.top)
        for _ in range(30):
            if rng.random() < 0.5:  # some late numbers inside the window, so there are bits to clear
                k = a.top - rng.randrange(win + 1)
                if k >= 0:
                    a._set(k)
                    b._set(k)
            n = a.top + rng.randrange(1, 2 * win + 3)
            a.advance(n)
            bitwise(b, n)
            # the ring under test is allocated only up to its highest set slot: the rest reads as clear
            assert len(a.ring) <= len(b.ring)
            assert (a.top, bytes(a.ring).ljust(len(b.ring), b"\0")) == (b.top, bytes(b.ring))
