"""Shared engine rule vectors (tests/vectors/engine_rules.json) held against the Python engine.

The C and MicroPython node loops check the same file. Every verdict in it was
written by hand from docs/wire.md ("Sequence numbers and boot epochs in
envelopes", "Who may send what"); the envelopes are generated here. Rewrite
the file with ``python -m tests.engine.test_engine_rules --write`` after changing a
case, and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.compiler import compile_model
from bb_edge.engine import Engine, Limits, events
from bb_edge.ir import record
from bb_edge.wire import Envelope, encode
from tests.support.ir_modules import Pair

PATH = Path(__file__).resolve().parents[1] / "vectors" / "engine_rules.json"
WINDOW, EPOCHS = 64, 4
NODE, NODE_ID, HOST, S = "m", 2, 0, 1
EDGE_H, EDGE_Y = 1, 3  # s -> m (tensor relu_out); host -> m (graph input y)
C1, C2 = 0xFFFF0001, 0xFFFF0002  # clients _client1 and _client2 (bb_edge/deployment/clients.py)

DOC = """Engine rule vectors: what a node does with each envelope it receives (docs/wire.md).

Format. "deployment" describes the receiving node: its name and id, the node ids of the fleet
(_host is always 0), the edges it consumes (id, producer, producer_id, consumer, kind "recv" for an
edge from another node or "graph_input" for one the host or a client sends, elem_type as in the envelope
dtype table, shape) and the duplicate filter's size: "window" bits below the highest n per epoch and
"epochs" kept per sender. "cases" is a list of independent runs; each starts from a fresh node and
feeds "envelopes" in order. Each envelope has "hex" (the whole envelope), "expect" (the verdict) and
"note". Verdicts: accept (passed every check; it was applied and moved the sender's window),
duplicate, stale_epoch, unauthorised, contract, unknown_edge.

Rules, in the order a node applies them (the first that fails gives the verdict; nothing changes
before all passed):
1. decode (docs/wire.md Validation), receiver is this node or broadcast;
2. the edge is known to this node (else unknown_edge);
3. authorisation: a recv edge only from its producer's id; a graph_input edge from id 0 (the host),
   or from client slot k (id 0xFFFF0000 + k, k in 1..255) when the request id's top byte is k
   (else unauthorised);
4. contract: dtype == elem_type, rank and every fixed dim equal (else contract);
5. freshness: epoch = seq >> 32, n = seq & 0xFFFFFFFF. Per sender the node keeps at most "epochs"
   windows, one per epoch, each with top (highest n applied) and a bitmap of the "window" numbers
   below top. An epoch older than every kept one: stale_epoch. In a kept epoch: n == top,
   top - n > window, or n's bit set: duplicate. Anything else (including an epoch newer than the
   oldest kept with no window yet) passes;
6. accept: apply, then record: a new epoch gets a window {top = n, empty bitmap}. It is a
   probation window when the epoch is more than 1 above the newest regular (non-probation) window's
   epoch (a jump); a sender has at most one: a new jump replaces the probation epoch kept. Any other
   new epoch (the sender's first, one adjacent to or below its newest regular epoch) gets a regular
   window. Past "epochs" windows the one with the smallest epoch is forgotten. n > top slides the
   window up; n < top sets n's bit.
Envelopes refused at any step do not touch the window, so seq 2**63 on an unknown edge, a forged
producer or a wrong shape cannot silence the real sender; and valid far-future epochs share one
probation window, so however many distinct ones arrive, the sender's real epoch keeps its window.
"""


def _deployment() -> tuple[Any, dict[str, Any]]:
    dep, programs = compile_model(record(Pair()))
    return dep, programs


def _env(sender: int, seq: int, edge: int = EDGE_H, rid: int = 1, array: np.ndarray | None = None) -> str:
    a = np.ones((1, 4), np.float32) if array is None else array
    return encode(Envelope.for_array(a, sender=sender, receiver=NODE_ID, seq=seq, request_id=rid,
                                     edge=edge)).hex()


def _seq(epoch: int, n: int) -> int:
    return (epoch << 32) | n


def _cases() -> list[dict[str, Any]]:
    e1 = 1

    def v(sender: int, seq: int, expect: str, note: str, edge: int = EDGE_H,
          array: np.ndarray | None = None, owner: int = 0) -> dict[str, Any]:
        v.rid += 1  # type: ignore[attr-defined]
        rid = (owner << 56) | v.rid  # type: ignore[attr-defined]
        return {"hex": _env(sender, seq, edge, rid, array), "expect": expect, "note": note}

    v.rid = 0  # type: ignore[attr-defined]
    wrong_shape = np.ones((1, 3), np.float32)
    wrong_dtype = np.ones((1, 4), np.int32)
    return [
        {"name": "in_order_and_duplicates", "envelopes": [
            v(S, _seq(e1, 1), "accept", "first envelope of epoch 1"),
            v(S, _seq(e1, 2), "accept", "next"),
            v(S, _seq(e1, 2), "duplicate", "n == top"),
            v(S, _seq(e1, 1), "duplicate", "bit set"),
            v(S, _seq(e1, 5), "accept", "a gap is fine"),
            v(S, _seq(e1, 3), "accept", "late but unseen, inside the window"),
            v(S, _seq(e1, 3), "duplicate", "now seen"),
            v(S, _seq(e1, 4), "accept", "the other hole"),
        ]},
        {"name": "window_edge", "envelopes": [
            v(S, _seq(e1, 1), "accept", ""),
            v(S, _seq(e1, 100), "accept", "top = 100"),
            v(S, _seq(e1, 36), "accept", "top - n == 64 == window: still inside"),
            v(S, _seq(e1, 35), "duplicate", "top - n == 65 > window: too old"),
            v(S, _seq(e1, 99), "accept", "just below top"),
            v(S, _seq(e1, 100), "duplicate", "top"),
            v(S, _seq(e1, 165), "accept", "slides by 65: 100 is now bit 64, outside"),
            v(S, _seq(e1, 101), "accept", "top - n == 64, never seen"),
            v(S, _seq(e1, 100), "duplicate", "top - n == 65: below the window"),
        ]},
        {"name": "far_future_unknown_edge_then_normal", "envelopes": [
            v(S, 2**63, "unknown_edge", "issue 11: seq 2**63 on an unknown edge", edge=99),
            v(S, _seq(e1, 1), "accept", "the refused envelope did not move any window"),
            v(S, _seq(e1, 2), "accept", ""),
        ]},
        {"name": "far_future_valid_then_normal", "envelopes": [
            v(S, _seq(e1, 1), "accept", ""),
            v(S, 2**63, "accept", "a valid envelope in epoch 2**31 opens a window of its own"),
            v(S, _seq(e1, 2), "accept", "epoch 1 keeps working"),
            v(S, 2**63, "duplicate", ""),
            v(S, _seq(e1, 2), "duplicate", ""),
        ]},
        {"name": "refused_envelopes_do_not_move_the_window", "envelopes": [
            v(S, _seq(e1, 1000), "unknown_edge", "", edge=77),
            v(S, _seq(e1, 1000), "contract", "wrong shape", array=wrong_shape),
            v(S, _seq(e1, 1000), "contract", "wrong dtype", array=wrong_dtype),
            v(HOST, _seq(e1, 1000), "unauthorised", "host forging s's edge"),
            v(S, _seq(e1, 1), "accept", "1000 was never recorded, so 1 is not below the window"),
            v(S, _seq(e1, 1000), "accept", "and 1000 itself is still fresh"),
        ]},
        {"name": "new_epoch_after_reboot", "envelopes": [
            v(S, _seq(1, 1), "accept", ""),
            v(S, _seq(1, 2), "accept", ""),
            v(S, _seq(2, 1), "accept", "rebooted: n counts from 1 again in epoch 2"),
            v(S, _seq(2, 2), "accept", ""),
            v(S, _seq(1, 3), "accept", "epoch 1 is still kept: late envelopes from before the reboot"),
            v(S, _seq(1, 2), "duplicate", ""),
            v(S, _seq(2, 1), "duplicate", ""),
        ]},
        {"name": "stale_epochs", "envelopes": [
            v(S, _seq(5, 1), "accept", ""),
            v(S, _seq(3, 1), "stale_epoch", "older than every kept epoch"),
            v(S, _seq(6, 1), "accept", ""),
            v(S, _seq(7, 1), "accept", ""),
            v(S, _seq(8, 1), "accept", "four epochs kept: 5 6 7 8"),
            v(S, _seq(9, 1), "accept", "a fifth: epoch 5 is forgotten"),
            v(S, _seq(5, 2), "stale_epoch", "5 is now older than every kept epoch"),
            v(S, _seq(6, 1), "duplicate", "6 is still kept"),
            v(S, _seq(6, 2), "accept", ""),
        ]},
        {"name": "middle_epoch", "envelopes": [
            v(S, _seq(3, 1), "accept", ""),
            v(S, _seq(5, 1), "accept", ""),
            v(S, _seq(4, 1), "accept", "4 is newer than the oldest kept (3): it gets a window"),
            v(S, _seq(4, 1), "duplicate", ""),
            v(S, _seq(2, 1), "stale_epoch", ""),
        ]},
        {"name": "far_future_epochs_cannot_fill_the_window", "envelopes": [
            v(S, _seq(5, 1), "accept", "the sender's real epoch"),
            v(S, _seq(2**31, 1), "accept", "issue 25: a far-future epoch takes the probation window"),
            v(S, _seq(2**31 + 1, 1), "accept", "the next replaces it (adjacent to it, but not to 5)"),
            v(S, _seq(2**31 + 2, 1), "accept", ""),
            v(S, _seq(2**31 + 3, 1), "accept", "four distinct far-future epochs, one window in all"),
            v(S, _seq(5, 2), "accept", "the real epoch keeps working (it was stale_epoch)"),
            v(S, _seq(5, 2), "duplicate", "and keeps its duplicate window"),
            v(S, _seq(6, 1), "accept", "its next boot (adjacent: a regular window)"),
            v(S, _seq(2**31 + 3, 1), "duplicate", "the probation epoch is still kept"),
            v(S, _seq(2**31, 2), "accept", "a replaced probation epoch is newer than the oldest: fresh"),
            v(S, _seq(5, 3), "accept", ""),
            v(S, _seq(7, 1), "accept", ""),
            v(S, _seq(8, 1), "accept", "windows 6 7 8 and the probation epoch: 5 forgotten"),
            v(S, _seq(5, 4), "stale_epoch", "older than every kept epoch"),
        ]},
        {"name": "authorisation", "envelopes": [
            v(HOST, _seq(e1, 1), "unauthorised", "only s produces edge 1"),
            v(7, _seq(e1, 1), "unauthorised", "an id not in the deployment"),
            v(NODE_ID, _seq(e1, 1), "unauthorised", "not even the consumer itself"),
            v(S, _seq(e1, 1), "unauthorised", "a graph input edge from a node", edge=EDGE_Y),
            v(HOST, _seq(e1, 1), "accept", "graph input from the host", edge=EDGE_Y),
            v(S, _seq(e1, 1), "accept", "the forged copies of (s, seq) did not poison s's window"),
            v(HOST, _seq(e1, 1), "duplicate", "(host, seq) was applied above", edge=EDGE_Y),
            v(HOST, _seq(e1, 2), "contract", "authorised but the wrong shape", edge=EDGE_Y,
              array=wrong_shape),
            v(HOST, _seq(e1, 2), "accept", "", edge=EDGE_Y),
        ]},
        {"name": "clients", "envelopes": [
            v(C1, _seq(e1, 1), "accept", "graph input from client 1 for a request it owns", edge=EDGE_Y, owner=1),
            v(C2, _seq(e1, 1), "unauthorised", "client 2 sending a request client 1 owns", edge=EDGE_Y, owner=1),
            v(C1, _seq(e1, 2), "unauthorised", "client 1 sending a request the host owns", edge=EDGE_Y),
            v(C1, _seq(e1, 2), "unauthorised", "a client on a node's edge", owner=1),
            v(C1 + 255, _seq(e1, 1), "unauthorised", "id 0xFFFF0100: past the client range", edge=EDGE_Y,
              owner=0),
            v(C2, _seq(e1, 1), "accept", "client 2's own request: the refusal did not move its window",
              edge=EDGE_Y, owner=2),
            v(C1, _seq(e1, 1), "duplicate", "each client has its own window", edge=EDGE_Y, owner=1),
            v(HOST, _seq(e1, 1), "accept", "the host may send a request of any owner", edge=EDGE_Y, owner=3),
        ]},
    ]


def build() -> dict[str, Any]:
    """The whole vector file (deployment description checked against a real compile in the tests)."""
    dep, _ = _deployment()
    ids = dep.ids()
    (edge,) = dep.edges
    (y_in,) = [i for i in dep.inputs if i.node == NODE]
    edges = [
        {"id": edge.id, "producer": edge.src, "producer_id": ids[edge.src], "consumer": edge.dst,
         "kind": "recv", "tensor": edge.tensor, "elem_type": edge.elem_type, "shape": edge.shape},
        {"id": y_in.edge_id, "producer": "_host", "producer_id": 0, "consumer": y_in.node,
         "kind": "graph_input", "tensor": y_in.name, "elem_type": y_in.elem_type, "shape": y_in.shape},
    ]
    return {
        "doc": DOC,
        "deployment": {"node": NODE, "node_id": ids[NODE], "ids": ids, "edges": edges,
                       "window": WINDOW, "epochs": EPOCHS},
        "cases": _cases(),
    }


VERDICTS = {events.DuplicateDropped: "duplicate", events.StaleEpoch: "stale_epoch",
            events.Unauthorised: "unauthorised", events.ContractViolation: "contract",
            events.UnknownEdge: "unknown_edge"}


def _verdict(evs: list[events.Event]) -> str:
    refusals = [VERDICTS[type(e)] for e in evs if type(e) in VERDICTS]
    others = [e for e in evs if e.family == "infra" and type(e) not in VERDICTS]
    assert not others, others
    assert len(refusals) <= 1, refusals
    return refusals[0] if refusals else "accept"


@pytest.fixture(scope="module")
def vectors() -> dict[str, Any]:
    return json.loads(PATH.read_text())


def test_vector_deployment_matches_a_real_compile(vectors: dict[str, Any]) -> None:
    fresh = build()
    assert vectors["deployment"] == fresh["deployment"]
    assert vectors["doc"] == fresh["doc"]


def test_file_is_what_the_generator_writes(vectors: dict[str, Any]) -> None:
    assert vectors == build(), "regenerate with python -m tests.engine.test_engine_rules --write and review the diff"


def test_python_engine_gives_every_verdict(vectors: dict[str, Any]) -> None:
    dep, programs = _deployment()
    d = vectors["deployment"]
    limits = Limits(dedup_window=d["window"], dedup_epochs=d["epochs"])
    seen = set()
    for case in vectors["cases"]:
        eng = Engine.for_node(dep, d["node"], programs, limits=limits)
        eng.drain_events()
        for i, v in enumerate(case["envelopes"]):
            eng.deliver("wire", bytes.fromhex(v["hex"]))
            eng.poll(0.0)
            got = _verdict(eng.drain_events())
            assert got == v["expect"], f"{case['name']}[{i}] ({v['note']}): expected {v['expect']}, got {got}"
            seen.add(got)
    assert seen == {"accept", "duplicate", "stale_epoch", "unauthorised", "contract", "unknown_edge"}


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        PATH.write_text(json.dumps(build(), indent=1) + "\n")
        print(f"wrote {PATH}")
