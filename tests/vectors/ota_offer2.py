"""Shared OFFER2 (anti-rollback) vectors: one file, replayed against the Python, C and MicroPython node ends.

tests/vectors/ota_offer2.json holds, for each node target (``bbrt``: the C node, ``micropython``), the
envelopes the host sends (made by the Python deployer, bb_edge.engine.ota.OtaDeployer, with HMAC-SHA-256
under ``key``), ``restart`` steps (the node starts again from its persistent store: the C node's state file,
the MicroPython node's files, the Python node's slot directory) and the replies each node must give:
READY/SWITCHED with the image's SHA-256 (hashlib here), or a NACK with its code name. Requests (edge 10,
y = x + c) check which program answers. The three replay forms of issue 23 are in ``replay_three_forms``:
a captured older update with fresh seqs, with a rewritten update id, and byte for byte after a restart.

Regenerate after a deliberate protocol change: ``python -m tests.vectors.ota_offer2``.
"""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.bbrt.format import RECV, SEND, STORE_ARENA, STORE_CONST, EdgeRecord, Op, OpRecord, Program, Tensor
from bb_edge.engine import ota
from bb_edge.wire import envelope as wire

PATH = Path(__file__).with_name("ota_offer2.json")
NODE, NODE_ID, DEPLOYMENT = "n1", 1, "fleet-a"
KEY = bytes(range(32))
OTHER_KEY = bytes(range(100, 132))
CHUNK = 100
X = [1.0, -2.0, 0.5, 8.0]
CONSTS = {"old": [1.0, 2.0, 3.0, 4.0], "new": [10.0, 20.0, 30.0, 40.0], "newer": [100.0, 200.0, 300.0, 400.0]}
TARGETS = {"bbrt": ota.TARGET_BBRT, "micropython": ota.TARGET_MPY}


def add_program(c: list[float]) -> bytes:
    """A node-1 .bbrt program: Recv edge 10 (x, 1x4 float) from the host, y = x + c, Send edge 11 to the host."""
    inf = struct.unpack("<i", struct.pack("<f", float("inf")))[0]
    ninf = struct.unpack("<i", struct.pack("<f", float("-inf")))[0]
    tensors = [Tensor("x", 1, (1, 4), STORE_ARENA, 0),
               Tensor("c", 1, (1, 4), STORE_CONST, data=np.array([c], np.float32)),
               Tensor("y", 1, (1, 4), STORE_ARENA, 32)]
    ops = [OpRecord(Op.ADD_F32, [0, 1], [2], [ninf, inf])]
    edges = [EdgeRecord(10, 0, RECV, 1, 0), EdgeRecord(11, 0, SEND, 1, 2)]
    return Program(NODE_ID, tensors, ops, edges, arena_size=64).to_bytes()


class _Seq:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> int:
        self.n += 1
        return self.n


def _env(seq: _Seq, edge: int, payload: bytes) -> str:
    env = wire.Envelope.for_bytes(payload, sender=0, receiver=NODE_ID, seq=seq(), kind=wire.KIND_CONTROL,
                                  protocol=ota.PROTO_OTA, edge=edge)
    return wire.encode(env, max_payload=max(len(payload), 1)).hex()


def _request(seq: _Seq, rid: int) -> str:
    env = wire.Envelope.for_array(np.array([X], np.float32), sender=0, receiver=NODE_ID, seq=seq(), request_id=rid,
                                  edge=10)
    return wire.encode(env).hex()


def _update(seq: _Seq, target: int, image: bytes, uid: int, version: int, *, key: bytes = KEY,
            deployment: str = DEPLOYMENT, node: str = NODE, versioned: bool = True) -> list[str]:
    """OFFER2 and every DATA chunk exactly as the Python deployer sends them (``node``: whom it signs for)."""
    upd = ota.NodeUpdate(node, image, target, ota.hmac_signer(key), ota.SIG_HMAC_SHA256, CHUNK,
                         versioned=versioned)
    d = ota.OtaDeployer({node: NODE_ID, "_host": 0}, [upd], seq, uid, version=version, deployment=deployment)
    return [o.data.hex() for o in d.start(0.0)]


def _commit(seq: _Seq, uid: int) -> str:
    return _env(seq, ota.COMMIT, struct.pack("<I", uid))


def _reseq(seq: _Seq, hexenv: str, uid: int | None = None) -> str:
    """A captured envelope with a fresh seq (and, given ``uid``, its update id rewritten)."""
    env = wire.decode(bytes.fromhex(hexenv))
    body = bytearray(env.payload_bytes())
    if uid is not None:
        body[:4] = struct.pack("<I", uid)
    return _env(seq, env.edge, bytes(body))


def _ok(kind: int, uid: int, image: bytes) -> dict[str, Any]:
    return {"type": kind, "payload": (struct.pack("<I", uid) + hashlib.sha256(image).digest()).hex()}


def _nack(uid: int, code: int) -> dict[str, Any]:
    return {"type": ota.NACK, "update_id": uid, "code": ota.CODE_NAMES[code]}


RESTART = {"restart": True}


def cases_for(target_name: str, p: dict[str, bytes]) -> list[dict[str, Any]]:
    """Every case for one node target: steps (envelope hex or RESTART), replies, the program each request meets."""
    t = TARGETS[target_name]
    out: list[dict[str, Any]] = []

    def case(name: str, steps: list[Any], replies: list[dict[str, Any]], outputs: list[str], runs: str) -> None:
        out.append({"name": name, "target": target_name, "steps": steps, "replies": replies, "outputs": outputs,
                    "runs": runs})

    s = _Seq()
    captured = [*_update(s, t, p["new"], 1, 1), _commit(s, 1)]  # version 1: the update an attacker recorded
    steps: list[Any] = [_request(s, 1), *captured, _request(s, 2), *_update(s, t, p["newer"], 2, 2), _commit(s, 2)]
    steps += [_reseq(s, h) for h in captured]  # 1. fresh seqs
    steps += [_reseq(s, h, uid=5) for h in captured]  # 2. the update id rewritten (5)
    steps += [_request(s, 3), RESTART, *captured, _request(s, 4)]  # 3. byte for byte after a restart
    case("replay_three_forms", steps,
         [_ok(ota.READY, 1, p["new"]), _ok(ota.SWITCHED, 1, p["new"]), _ok(ota.READY, 2, p["newer"]),
          _ok(ota.SWITCHED, 2, p["newer"]), _nack(1, ota.STALE_VERSION), _nack(1, ota.STALE_VERSION),
          _nack(5, ota.STALE_VERSION), _nack(5, ota.STALE_VERSION), _nack(1, ota.STALE_VERSION),
          _nack(1, ota.STALE_VERSION)],
         ["old", "new", "newer", "newer"], "newer")
    s = _Seq()
    case("wrong_deployment", [*_update(s, t, p["new"], 3, 3, deployment="fleet-b"), _commit(s, 3), _request(s, 1)],
         [_nack(3, ota.WRONG_DEPLOYMENT), _nack(3, ota.WRONG_DEPLOYMENT)], ["old"], "old")
    s = _Seq()  # the manifest names n2: n1 cannot tell from the wire, its MAC over its own name fails
    case("wrong_node", [*_update(s, t, p["new"], 4, 4, node="n2"), _commit(s, 4), _request(s, 1)],
         [_nack(4, ota.BAD_SIGNATURE), _nack(4, ota.BAD_SIGNATURE)], ["old"], "old")
    s = _Seq()
    case("bad_signature", [*_update(s, t, p["new"], 5, 5, key=OTHER_KEY), _commit(s, 5), _request(s, 1)],
         [_nack(5, ota.BAD_SIGNATURE), _nack(5, ota.BAD_SIGNATURE)], ["old"], "old")
    s = _Seq()  # the old unversioned OFFER: its signature covers no version, so it is never taken
    case("unversioned_offer", [*_update(s, t, p["new"], 6, 6, versioned=False), _commit(s, 6), _request(s, 1)],
         [_nack(6, ota.BAD_SIGNATURE), _nack(6, ota.BAD_SIGNATURE)], ["old"], "old")
    s = _Seq()  # not newer: the same version again under a new update id and image
    case("same_version", [*_update(s, t, p["new"], 7, 7), _commit(s, 7), *_update(s, t, p["newer"], 8, 7),
                          _commit(s, 8), _request(s, 1)],
         [_ok(ota.READY, 7, p["new"]), _ok(ota.SWITCHED, 7, p["new"]), _nack(8, ota.STALE_VERSION),
          _nack(8, ota.STALE_VERSION)], ["new"], "new")
    s = _Seq()  # a rollback is a newer manifest naming the older image; it survives a restart, v10 stays stale
    v10 = [*_update(s, t, p["new"], 10, 10), _commit(s, 10)]
    case("explicit_rollback", [*v10, *_update(s, t, p["old"], 11, 11), _commit(s, 11), _request(s, 1), RESTART,
                               _request(s, 2), *v10, _request(s, 3)],
         [_ok(ota.READY, 10, p["new"]), _ok(ota.SWITCHED, 10, p["new"]), _ok(ota.READY, 11, p["old"]),
          _ok(ota.SWITCHED, 11, p["old"]), _nack(10, ota.STALE_VERSION), _nack(10, ota.STALE_VERSION)],
         ["old", "old", "old"], "old")
    s = _Seq()  # the accepted version survives a restart; the next version is taken
    case("restart_keeps_version", [*_update(s, t, p["new"], 12, 12), _commit(s, 12), RESTART, _request(s, 1),
                                   *_update(s, t, p["newer"], 13, 12), _commit(s, 13),
                                   *_update(s, t, p["newer"], 14, 13), _commit(s, 14), _request(s, 2)],
         [_ok(ota.READY, 12, p["new"]), _ok(ota.SWITCHED, 12, p["new"]), _nack(13, ota.STALE_VERSION),
          _nack(13, ota.STALE_VERSION), _ok(ota.READY, 14, p["newer"]), _ok(ota.SWITCHED, 14, p["newer"])],
         ["new", "newer"], "newer")
    return out


def make() -> dict[str, Any]:
    """The whole vector file."""
    p = {k: add_program(c) for k, c in CONSTS.items()}
    return {"node": NODE, "node_id": NODE_ID, "deployment": DEPLOYMENT, "key": KEY.hex(), "x": X,
            "consts": CONSTS, "programs": {k: v.hex() for k, v in p.items()},
            "cases": [c for name in TARGETS for c in cases_for(name, p)]}


if __name__ == "__main__":
    PATH.write_text(json.dumps(make(), indent=1) + "\n")
