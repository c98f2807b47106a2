"""C and MicroPython nodes answer the request's owner: a graph output (a Send edge to peer 0) of a request
whose id's top byte is client slot k goes to ``_client<k>`` (wire id 0xFFFF0000 + k), one of the host's
(top byte 0) to the host; a graph input from a client for a request it does not own gets no answer.

One echo program (Relu on [1, 4] float32, graph input edge 1, graph output edge 2) runs in the C node loop
(the host build through ctypes) and in the MicroPython node (bbnode, in the MicroPython VM); the receivers
and payloads of their answers are compared with bb_edge.deployment.clients.reply_to and numpy's Relu.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from bb_edge.deployment.clients import client_id, owned_request_id, reply_to
from bb_edge.wire import Envelope, encode
from bb_edge.wire import envelope as wire
from tests.support.c_link import echo_program
from tests.support.mpy_vm import build_lib, ensure_vm, run_vm
from tests.support.transport_helpers import CNode

NODE_ID, N = 1, 4
X = np.array([[-1.5, 2.0, -3.0, 4.25]], np.float32)
#: (sender, request id, answered): the host's own request, client 1's and 2's own, client 2 sending 1's
REQUESTS = [(0, 11, True), (client_id(1), owned_request_id(1, 12), True), (client_id(2), owned_request_id(2, 13), True),
            (client_id(2), owned_request_id(1, 14), False), (0, owned_request_id(3, 15), True)]

VM = r"""
import json
from binascii import hexlify, unhexlify
from bbnode.executor import Program
from bbnode.node import Node
spec = json.load(open('requests.json'))
sent = []
node = Node(Program(open('echo.bbrt', 'rb').read()), send=lambda b: sent.append(bytes(b)))
out = []
for h in spec:
    del sent[:]
    node.handle(unhexlify(h))
    out.append([hexlify(b).decode() for b in sent])
print(json.dumps(out))
"""


def _envelopes() -> list[bytes]:
    return [encode(Envelope.for_array(X, sender=s, receiver=NODE_ID, seq=(1 << 32) | (i + 1), request_id=rid,
                                      edge=1)) for i, (s, rid, _) in enumerate(REQUESTS)]


def _check(answers: list[list[bytes]], who: str) -> None:
    for (sender, rid, answered), out in zip(REQUESTS, answers, strict=True):
        data = [wire.decode(b) for b in out if wire.decode(b).kind == wire.KIND_DATA]
        if not answered:
            assert data == [], f"{who}: a request of another client was answered: {data}"
            continue
        assert len(data) == 1, (who, sender, out)
        (e,) = data
        assert (e.receiver, e.request_id, e.edge) == (reply_to(rid)[1], rid, 2), (who, hex(e.receiver), hex(rid))
        np.testing.assert_array_equal(e.array(), np.maximum(X, 0))


def test_c_node_answers_the_requests_owner() -> None:
    blob = echo_program(NODE_ID, N)
    node = CNode(blob, 8 * N)
    answers = []
    for env in _envelopes():
        node.send(env)
        answers.append(node.receive())
    _check(answers, "C node")


def test_micropython_node_answers_the_requests_owner(tmp_path: Path) -> None:
    (tmp_path / "echo.bbrt").write_bytes(echo_program(NODE_ID, N))
    (tmp_path / "requests.json").write_text(json.dumps([e.hex() for e in _envelopes()]))
    out = run_vm(ensure_vm(), build_lib(tmp_path / "lib"), tmp_path, VM)
    answers = [[bytes.fromhex(h) for h in row] for row in json.loads(out.strip().splitlines()[-1])]
    _check(answers, "MicroPython node")
