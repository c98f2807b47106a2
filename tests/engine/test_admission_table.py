"""One table of hostile envelopes held against both receiving ends: a node's engine and the host session.

The host end (node 0) admits graph outputs through the same checks a node's engine makes
(bb_edge/engine/admission.py, the duplicate window): each row is refused at both ends with the same
kind of typed event, and the state after it equals the state without it, so the honest envelope that
follows is still accepted. Real engines on ONNX Runtime; the oracle is the honest envelope's fate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from bb_edge.compiler import compile_model
from bb_edge.engine import Engine, events
from bb_edge.engine.host_session import HostSession
from bb_edge.ir import record
from bb_edge.wire import Envelope, encode
from tests.support.ir_modules import Pair

GOOD_SEQ = (7 << 32) | 5  # epoch 7: an envelope of epoch 6 is then stale at both ends


@pytest.fixture(scope="module")
def pair():  # type: ignore[no-untyped-def]
    dep, programs = compile_model(record(Pair()))
    (edge,) = dep.edges
    (out,) = dep.outputs
    return dep, programs, edge, out


class NodeEnd:
    """Node ``m`` receiving the edge s -> m."""

    def __init__(self, dep: Any, programs: Any, edge: Any) -> None:
        self.ids = dep.ids()
        self.engine = Engine.for_node(dep, edge.dst, programs)
        self.engine.poll(0.0)
        self.engine.drain_events()
        shape = [max(d, 1) for d in edge.shape]
        self.good = Envelope.for_array(np.full(shape, 0.5, np.float32), sender=self.ids[edge.src],
                                       receiver=self.ids[edge.dst], seq=GOOD_SEQ, request_id=1, edge=edge.id)
        self.other = self.ids["_host"]  # a known node that does not produce this edge
        self.requests = 0

    def send(self, data: bytes) -> list[events.Event]:
        self.engine.deliver("wire", data)
        self.engine.poll(0.0)
        return [e for e in self.engine.drain_events() if e.family == "infra"]

    def state(self) -> bytes:
        return self.engine.snapshot(telemetry=False)

    def accepted(self) -> bool:
        return self.engine.open_requests > 0


class HostEnd:
    """The host receiving the output of ``m``."""

    def __init__(self, dep: Any, out: Any) -> None:
        self.ids = dep.ids()
        self.session = HostSession(dep, seq_base=0)
        self.session.submit(1, {i.name: np.zeros([max(d, 1) for d in i.shape], i.dtype) for i in dep.inputs})
        shape = [max(d, 1) for d in out.shape]
        self.good = Envelope.for_array(np.full(shape, 0.5, np.float32), sender=self.ids[out.node], receiver=0,
                                       seq=GOOD_SEQ, request_id=1, edge=out.edge_id)
        self.other = next(i for n, i in self.ids.items() if n not in ("_host", out.node))

    def send(self, data: bytes) -> list[events.Event]:
        before = len(self.session.events)
        self.session.receive("wire", data)
        return list(self.session.events)[before:]

    def state(self) -> bytes:
        s = self.session
        return repr((sorted((k, sorted(v)) for k, v in s._results.items()), s._dedup.to_json(),
                     s.stats.outputs)).encode()

    def accepted(self) -> bool:
        return self.session.stats.outputs == 1


def kind(e: events.Event) -> str:
    """The table's name for a refusal, whichever end made it."""
    if isinstance(e, events.EnvelopeRejected):
        return "malformed"
    if isinstance(e, events.Unauthorised) or (isinstance(e, events.OutputRefused) and
                                              e.reason.startswith(("forged", "unknown sender"))):
        return "forged"
    if isinstance(e, events.ContractViolation) or (isinstance(e, events.OutputRefused) and
                                                   e.reason.startswith("contract")):
        return "contract"
    if isinstance(e, events.Misaddressed) or (isinstance(e, events.OutputRefused) and
                                              e.reason.startswith("receiver")):
        return "misaddressed"
    if isinstance(e, events.DuplicateDropped):
        return "duplicate"
    if isinstance(e, events.StaleEpoch):
        return "stale"
    return type(e).__name__


Mutation = Callable[[Any], bytes]

# (name, what the peer sends, the kind of refusal both ends must give)
TABLE: list[tuple[str, Mutation, str]] = [
    ("another node forges the producer", lambda end: encode(replace(end.good, sender=end.other)), "forged"),
    ("an unknown sender id", lambda end: encode(replace(end.good, sender=4242)), "forged"),
    ("wrong dtype", lambda end: encode(Envelope.for_array(
        end.good.array().astype(np.int32), sender=end.good.sender, receiver=end.good.receiver, seq=GOOD_SEQ,
        request_id=1, edge=end.good.edge)), "contract"),
    ("wrong shape", lambda end: encode(Envelope.for_array(
        np.zeros((1, 3), np.float32), sender=end.good.sender, receiver=end.good.receiver, seq=GOOD_SEQ,
        request_id=1, edge=end.good.edge)), "contract"),
    ("addressed to another node", lambda end: encode(replace(end.good, receiver=77)), "misaddressed"),
    ("truncated", lambda end: encode(end.good)[:40], "malformed"),
    ("bad magic", lambda end: b"\x00\x00" + encode(end.good)[2:], "malformed"),
    ("trailing bytes", lambda end: encode(end.good) + b"\x00", "malformed"),
    ("an older boot epoch", lambda end: encode(replace(end.good, seq=(6 << 32) | 9)), "stale"),
]


@pytest.mark.parametrize("end_kind", ["node", "host"])
@pytest.mark.parametrize(("name", "mutate", "want"), TABLE, ids=[r[0] for r in TABLE])
def test_hostile_envelope_refused_alike_and_changes_nothing(pair, end_kind: str, name: str,  # type: ignore[no-untyped-def]
                                                            mutate: Mutation, want: str) -> None:
    dep, programs, edge, out = pair
    end: NodeEnd | HostEnd = NodeEnd(dep, programs, edge) if end_kind == "node" else HostEnd(dep, out)
    if want == "stale":  # the sender's epoch 7 is known: epoch 6 is older than every kept window
        assert end.send(encode(replace(end.good, seq=(7 << 32) | 1))) == []
    before = end.state()
    got = [kind(e) for e in end.send(mutate(end))]
    assert got == [want], (name, got)
    assert end.state() == before, name  # refused before anything changed
    assert end.send(encode(end.good)) == [] and end.accepted(), name  # the honest envelope still goes through


@pytest.mark.parametrize("end_kind", ["node", "host"])
def test_a_replayed_envelope_is_a_duplicate_at_both_ends(pair, end_kind: str) -> None:  # type: ignore[no-untyped-def]
    dep, programs, edge, out = pair
    end: NodeEnd | HostEnd = NodeEnd(dep, programs, edge) if end_kind == "node" else HostEnd(dep, out)
    assert end.send(encode(end.good)) == [] and end.accepted()
    after_first = end.state()
    assert [kind(e) for e in end.send(encode(end.good))] == ["duplicate"]
    assert end.state() == after_first
