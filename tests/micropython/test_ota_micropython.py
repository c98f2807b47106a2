"""Over-the-air updates of the MicroPython node (firmware/micropython/bbnode/ota.py).

Golden vectors (tests/vectors/ota_micropython.json) pin the protocol bytes: every message is made by the
Python deployer (bb_edge.engine.ota.OtaDeployer) for tiny .bbrt programs, every expected reply follows
docs/wire.md "Program updates" (READY/SWITCHED carry the image's SHA-256 computed here by hashlib, NACKs
the documented code). The .mpy build of bbnode runs them in the MicroPython WebAssembly VM, and its
HMAC-SHA-256 (written on hashlib.sha256) is checked against Python's ``hmac``. The live test runs the
built esp32-micropython bundle's main.py in an MQTT fleet (as tests/micropython/test_micropython_mqtt.py does) and
updates it mid-stream with ``Deploy`` over the host's transport.

Regenerate the vectors after a deliberate protocol change: ``python -m tests.micropython.test_ota_micropython``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import struct
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.bbrt.format import RECV, SEND, STORE_ARENA, STORE_CONST, EdgeRecord, Op, OpRecord, Program, Tensor
from bb_edge.engine import ota
from bb_edge.wire import envelope as wire
from bb_edge.wire import hello as hello_record
from tests.support.ota_helpers import nacks

VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "ota_micropython.json"
NODE, NODE_ID = "n1", 1
KEY = bytes(range(32))
OTHER_KEY = bytes(range(100, 132))
MAX_PROGRAM = 4096
CHUNK = 100
X = [1.0, -2.0, 0.5, 8.0]  # the request every case sends before and after its update
CONSTS = {"old": [1.0, 2.0, 3.0, 4.0], "new": [10.0, 20.0, 30.0, 40.0], "nan": [float("nan")] * 4}


def add_program(c: list[float], n: int = 4) -> bytes:
    """A node-1 .bbrt program: Recv edge 10 (x, 1xn float) from the host, y = x + c, Send edge 11 to the host."""
    inf = struct.unpack("<i", struct.pack("<f", float("inf")))[0]
    ninf = struct.unpack("<i", struct.pack("<f", float("-inf")))[0]
    tensors = [Tensor("x", 1, (1, n), STORE_ARENA, 0),
               Tensor("c", 1, (1, n), STORE_CONST, data=np.array([c[:n] + [0.0] * (n - len(c))], np.float32)),
               Tensor("y", 1, (1, n), STORE_ARENA, 32)]
    ops = [OpRecord(Op.ADD_F32, [0, 1], [2], [ninf, inf])]
    edges = [EdgeRecord(10, 0, RECV, 1, 0), EdgeRecord(11, 0, SEND, 1, 2)]
    return Program(NODE_ID, tensors, ops, edges, arena_size=64).to_bytes()


def add2_program(c: list[float]) -> bytes:
    """A node-1 program with two Recv edges (10: a, 12: b) joined per request: y = (a + b) + c, Send edge 11."""
    inf = struct.unpack("<i", struct.pack("<f", float("inf")))[0]
    ninf = struct.unpack("<i", struct.pack("<f", float("-inf")))[0]
    tensors = [Tensor("a", 1, (1, 4), STORE_ARENA, 0), Tensor("b", 1, (1, 4), STORE_ARENA, 32),
               Tensor("c", 1, (1, 4), STORE_CONST, data=np.array([c], np.float32)),
               Tensor("t", 1, (1, 4), STORE_ARENA, 64), Tensor("y", 1, (1, 4), STORE_ARENA, 96)]
    ops = [OpRecord(Op.ADD_F32, [0, 1], [3], [ninf, inf]), OpRecord(Op.ADD_F32, [3, 2], [4], [ninf, inf])]
    edges = [EdgeRecord(10, 0, RECV, 1, 0), EdgeRecord(12, 0, RECV, 1, 1), EdgeRecord(11, 0, SEND, 1, 4)]
    return Program(NODE_ID, tensors, ops, edges, arena_size=128).to_bytes()


def programs() -> dict[str, bytes]:
    """old/new (same contract), nan (loads, fails its first run's check), contract (1x5 edges), invalid;
    old2/new2: two inputs per request (the idle point)."""
    p = {k: add_program(c) for k, c in CONSTS.items()}
    p["old2"], p["new2"] = add2_program(CONSTS["old"]), add2_program(CONSTS["new"])
    p["contract"] = add_program(CONSTS["new"] + [50.0], n=5)
    p["invalid"] = bytes(len(p["new"]))  # right hash and MAC, the loader refuses it
    return p


class _Seq:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> int:
        self.n += 1
        return self.n


def _ota_env(seq: _Seq, edge: int, payload: bytes, sender: int = 0) -> str:
    env = wire.Envelope.for_bytes(payload, sender=sender, receiver=NODE_ID, seq=seq(), kind=wire.KIND_CONTROL,
                                  protocol=ota.PROTO_OTA, edge=edge)
    return wire.encode(env, max_payload=max(len(payload), 1)).hex()


def _request(seq: _Seq, rid: int, edge: int = 10) -> str:
    env = wire.Envelope.for_array(np.array([X], np.float32), sender=0, receiver=NODE_ID, seq=seq(), request_id=rid,
                                  edge=edge)
    return wire.encode(env).hex()


def _update(seq: _Seq, image: bytes, uid: int, key: bytes = KEY, target: int = ota.TARGET_MPY,
            sig_kind: int = ota.SIG_HMAC_SHA256) -> list[str]:
    """OFFER and every DATA chunk exactly as the Python deployer sends them."""
    upd = ota.NodeUpdate(NODE, image, target, ota.hmac_signer(key), sig_kind, CHUNK, versioned=True)
    d = ota.OtaDeployer({NODE: NODE_ID, "_host": 0}, [upd], seq, uid)
    return [o.data.hex() for o in d.start(0.0)]


def _ready(uid: int, image: bytes) -> dict[str, Any]:
    return {"type": ota.READY, "payload": (struct.pack("<I", uid) + hashlib.sha256(image).digest()).hex()}


def _switched(uid: int, image: bytes) -> dict[str, Any]:
    return {"type": ota.SWITCHED, "payload": (struct.pack("<I", uid) + hashlib.sha256(image).digest()).hex()}


def _nack(uid: int, code: int) -> dict[str, Any]:
    return {"type": ota.NACK, "update_id": uid, "code": ota.CODE_NAMES[code]}


def make_vectors() -> dict[str, Any]:
    """Every case: the envelopes the node gets (hex; an int is a poll at that ms), the replies it must send,
    and which program answers the request sent after the update."""
    p = programs()
    cases: list[dict[str, Any]] = []

    def case(name: str, steps: list[Any], replies: list[dict[str, Any]], runs: str, **kw: Any) -> None:
        # "outputs": the program that must answer each request, in order (default: one request, ``runs``)
        kw.setdefault("outputs", [runs])
        cases.append({"name": name, "steps": steps, "replies": replies, "runs": runs, **kw})

    s = _Seq()
    steps = [_request(s, 1), *_update(s, p["new"], 1), _request(s, 2), _ota_env(s, ota.COMMIT, struct.pack("<I", 1)),
             _ota_env(s, ota.COMMIT, struct.pack("<I", 1)), _request(s, 3)]
    case("update", steps, [_ready(1, p["new"]), _switched(1, p["new"]), _switched(1, p["new"])], "new",
         outputs=["old", "old", "new"],
         files=True,
         hello=hashlib.sha256(p["new"]).hexdigest())
    s = _Seq()
    msgs = _update(s, p["new"], 2)
    body = bytearray(bytes.fromhex(msgs[-1]))
    body[-1] ^= 1  # the last byte of the image: the SHA-256 differs
    msgs[-1] = body.hex()
    case("corrupt", [*msgs, _ota_env(s, ota.COMMIT, struct.pack("<I", 2)), _request(s, 1)],
         [_nack(2, ota.CORRUPT), _nack(2, ota.CORRUPT)], "old")
    s = _Seq()
    case("bad_mac", [*_update(s, p["new"], 3, key=OTHER_KEY), _request(s, 1)], [_nack(3, ota.BAD_SIGNATURE)], "old")
    s = _Seq()
    case("ed25519_kind", [*_update(s, p["new"], 4, sig_kind=ota.SIG_ED25519), _request(s, 1)],
         [_nack(4, ota.BAD_SIGNATURE)], "old")
    s = _Seq()
    case("contract", [*_update(s, p["contract"], 5), _request(s, 1)], [_nack(5, ota.CONTRACT_MISMATCH)], "old")
    s = _Seq()
    case("invalid", [*_update(s, p["invalid"], 6), _request(s, 1)], [_nack(6, ota.INVALID_PROGRAM)], "old")
    s = _Seq()
    msgs = _update(s, p["new"], 7)
    del msgs[2]  # a lost chunk: one NACK, the later chunks are dropped quietly
    case("truncated", [*msgs, _request(s, 1)], [_nack(7, ota.TRUNCATED)], "old")
    s = _Seq()
    case("wrong_target", [*_update(s, p["new"], 8, target=ota.TARGET_BBRT), _request(s, 1)],
         [_nack(8, ota.WRONG_TARGET)], "old")
    s = _Seq()
    digest = hashlib.sha256(p["new"]).digest()
    big = ota.Offer(9, MAX_PROGRAM + 1, ota.TARGET_MPY, ota.SIG_HMAC_SHA256, digest, bytes(32), 9).encode()
    case("too_large", [_ota_env(s, ota.OFFER2, big), _request(s, 1)], [_nack(9, ota.TOO_LARGE)], "old")
    s = _Seq()
    first = _update(s, p["new"], 10)
    second = _update(s, p["new"], 11)
    case("busy", [first[0], second[0], *first[1:], _ota_env(s, ota.COMMIT, struct.pack("<I", 10)), _request(s, 1)],
         [_nack(11, ota.BUSY), _ready(10, p["new"]), _switched(10, p["new"])], "new")
    s = _Seq()
    case("not_authorised", [_ota_env(s, ota.OFFER, bytes.fromhex(first[0])[64 + 8:], sender=2),
                            _ota_env(s, ota.ABORT, struct.pack("<I", 1), sender=2), _request(s, 1)], [], "old")
    s = _Seq()
    case("malformed", [_ota_env(s, ota.OFFER, b"\x01"), _ota_env(s, ota.DATA, b"\x01\x00"),
                       _ota_env(s, ota.COMMIT, b""), _ota_env(s, 99, b"1234"), _request(s, 1)],
         [_nack(0, ota.BAD_MESSAGE), _nack(0, ota.BAD_MESSAGE), _nack(0, ota.BAD_MESSAGE),
          _nack(int.from_bytes(b"1234", "little"), ota.BAD_MESSAGE)], "old")
    s = _Seq()
    case("unknown_update", [_ota_env(s, ota.DATA, ota.encode_data(12, 0, b"xx")),
                            _ota_env(s, ota.COMMIT, struct.pack("<I", 13)), _request(s, 1)],
         [_nack(12, ota.UNKNOWN_UPDATE), _nack(13, ota.UNKNOWN_UPDATE)], "old")
    s = _Seq()
    case("rollback", [*_update(s, p["nan"], 14), _ota_env(s, ota.COMMIT, struct.pack("<I", 14)), _request(s, 1)],
         [_ready(14, p["nan"]), _nack(14, ota.ROLLED_BACK)], "old")
    s = _Seq()
    case("abort", [*_update(s, p["new"], 15), _ota_env(s, ota.ABORT, struct.pack("<I", 15)),
                   _ota_env(s, ota.COMMIT, struct.pack("<I", 15)), _request(s, 1)],
         [_ready(15, p["new"]), _nack(15, ota.ABORTED), _nack(15, ota.ABORTED)], "old")
    s = _Seq()  # anti-rollback: on version 22, a validly signed version-21 update is stale, as is its rewritten id
    captured = _update(s, p["old"], 21)
    rewritten = []
    for h in captured:
        env = wire.decode(bytes.fromhex(h))
        body = bytearray(env.payload_bytes())
        body[:4] = struct.pack("<I", 23)
        rewritten.append(_ota_env(s, env.edge, bytes(body)))
    case("replay_stale", [*_update(s, p["new"], 22), _ota_env(s, ota.COMMIT, struct.pack("<I", 22)),
                          *(_ota_env(s, wire.decode(bytes.fromhex(h)).edge, bytes(wire.decode(bytes.fromhex(h))
                                                                                     .payload_bytes()))
                            for h in captured),
                          *rewritten, _ota_env(s, ota.COMMIT, struct.pack("<I", 21)), _request(s, 1)],
         [_ready(22, p["new"]), _switched(22, p["new"]), _nack(21, ota.STALE_VERSION), _nack(23, ota.STALE_VERSION),
          _nack(21, ota.STALE_VERSION)], "new", files=True)
    s = _Seq()  # an ABORT after the switch puts the previous program back (docs/wire.md "Atomic fleet update")
    case("abort_after_switch", [*_update(s, p["new"], 20), _ota_env(s, ota.COMMIT, struct.pack("<I", 20)),
                                _request(s, 1), _ota_env(s, ota.COMMIT, struct.pack("<I", 20)),
                                _ota_env(s, ota.ABORT, struct.pack("<I", 20)),
                                _ota_env(s, ota.COMMIT, struct.pack("<I", 20)), _request(s, 2)],
         [_ready(20, p["new"]), _switched(20, p["new"]), _switched(20, p["new"]), _nack(20, ota.ABORTED),
          _nack(20, ota.ABORTED)], "old", outputs=["new", "old"], files=True)
    s = _Seq()
    msgs = _update(s, p["new"], 16)
    case("stalled", [msgs[0], msgs[1], 61000, *msgs[2:], _request(s, 1)], [_nack(16, ota.TRUNCATED)], "old")
    s = _Seq()  # COMMIT while a request is half received: the switch waits for the inference completing it
    case("idle_point", [*_update(s, p["new2"], 18), _request(s, 1, 10), _ota_env(s, ota.COMMIT, struct.pack("<I", 18)),
                        _request(s, 1, 12), _request(s, 2, 12), _request(s, 2, 10)],
         [_ready(18, p["new2"]), _switched(18, p["new2"])], "new2", start="old2", outputs=["old2", "new2"])
    s = _Seq()  # the slot cannot be opened (here: its directory is missing; on a board: a full filesystem)
    case("slot_unwritable", [*_update(s, p["new"], 19), _request(s, 1)], [_nack(19, ota.TOO_LARGE)], "old",
         files=True, prefix="no_such_dir/ota")
    s = _Seq()
    case("no_key", [*_update(s, p["new"], 17), _request(s, 1)], [_nack(17, ota.NO_KEY)], "old", key=False)
    hmacs = []
    for n in (0, 1, 55, 56, 63, 64, 65, 200):
        for key in (b"k", KEY, bytes(range(64)), bytes(range(65)), bytes(range(200))):
            data = bytes((i * 7 + n) & 0xFF for i in range(n))
            hmacs.append({"key": key.hex(), "data": data.hex(), "mac": hmac.new(key, data, hashlib.sha256).hexdigest()})
    consts = {k: [None if v != v else v for v in c] for k, c in CONSTS.items()}
    consts["old2"], consts["new2"] = consts["old"], consts["new"]
    return {"node": NODE, "node_id": NODE_ID, "key": KEY.hex(), "max_program": MAX_PROGRAM, "x": X,
            "consts": consts, "inputs": {"old2": 2, "new2": 2},
            "programs": {k: v.hex() for k, v in p.items()}, "cases": cases, "hmac": hmacs}


# ------------------------------------------------------------------ the VM run

VM_MODULES = ("__init__", "envelope", "executor", "framing", "link", "node", "ota", "rules")
VM_SCRIPT = """
import binascii, hashlib, json
from bbnode import ota
from bbnode.executor import Program
from bbnode.node import Node
V = json.load(open("ota_micropython.json"))
P = {k: binascii.unhexlify(v) for k, v in V["programs"].items()}
key = binascii.unhexlify(V["key"])
res = {"cases": {}, "hmac": []}
for c in V["cases"]:
    out = []
    p0 = P[c.get("start", "old")]
    node = Node(Program(p0), send=out.append, name=V["node"], program_hash=hashlib.sha256(p0).digest())
    prefix = c.get("prefix", "slot_" + c["name"])
    store = ota.FileSlots(prefix) if c.get("files") else ota.MemorySlots(V["max_program"])
    node.ota = ota.OtaNode(V["node"], key if c.get("key", True) else None, store, ota.NodeLoader(node),
                           max_program=V["max_program"])
    for step in c["steps"]:
        if isinstance(step, int):
            node.poll(step)
        else:
            node.handle(binascii.unhexlify(step))
    active = ota.FileSlots(prefix).active_program() if c.get("files") else None
    res["cases"][c["name"]] = {"sent": [binascii.hexlify(b).decode() for b in out], "log": node.ota.log,
                               "active": binascii.hexlify(active).decode() if active else None,
                               "refusals": node.ota.refusals}
for h in V["hmac"]:
    mac = ota.hmac_sha256(binascii.unhexlify(h["key"]), binascii.unhexlify(h["data"]))
    res["hmac"].append(binascii.hexlify(mac).decode())
res["equal"] = [ota.equal(b"abc", b"abc"), ota.equal(b"abc", b"abd"), ota.equal(b"abc", b"ab")]
# hostile messages, one stateful node: every one must end as a reply or nothing, never an exception
F = json.load(open("fuzz.json"))
out = []
node = Node(Program(P["old"]), send=out.append, name=V["node"], program_hash=hashlib.sha256(P["old"]).digest())
node.ota = ota.OtaNode(V["node"], key, ota.MemorySlots(V["max_program"]), ota.NodeLoader(node),
                       max_program=V["max_program"])
errors = []
for i, m in enumerate(F["messages"]):
    try:
        node.handle(binascii.unhexlify(m))
    except Exception as exc:
        errors.append((i, repr(exc)))
node.poll(10 ** 9)  # any stage left open times out
node.handle(binascii.unhexlify(F["request"]))
res["fuzz"] = {"errors": errors, "sent": [binascii.hexlify(b).decode() for b in out], "refusals": node.ota.refusals}
import os
try:
    os.mkdir("out")
except OSError:
    pass
with open("out/result.json", "w") as f:  # a file: the VM's stdout splits very long lines
    f.write(json.dumps(res))
print("RESULT written")
"""


def fuzz_messages(n: int = 400, seed: int = 5) -> dict[str, Any]:
    """OTA envelopes from the host whose payloads are the vectors' own, cut short, extended, with bytes
    flipped (often in the OFFER/DATA headers) or random; then one request (it must still be answered)."""
    rng = np.random.default_rng(seed)
    pool = []
    for c in json.loads(VECTORS.read_text())["cases"]:
        for step in c["steps"]:
            if isinstance(step, str):
                env = wire.decode(bytes.fromhex(step))
                if env.protocol == ota.PROTO_OTA:
                    pool.append((env.edge, bytes(env.payload_bytes())))
    seq = _Seq()
    msgs = []
    for _ in range(n):
        edge, body = pool[int(rng.integers(len(pool)))]
        b = bytearray(body)
        how = int(rng.integers(4))
        if how == 0 and b:
            b = b[:int(rng.integers(len(b)))]
        elif how == 1:
            b += rng.integers(0, 256, int(rng.integers(1, 64)), dtype=np.uint8).tobytes()
        elif how == 2 and b:
            for _ in range(int(rng.integers(1, 4))):
                b[int(rng.integers(min(len(b), 48)))] ^= 1 << int(rng.integers(8))
        elif how == 3:
            b = bytearray(rng.integers(0, 256, int(rng.integers(0, 120)), dtype=np.uint8).tobytes())
        if rng.random() < 0.1:
            edge = int(rng.integers(0, 12))
        msgs.append(_ota_env(seq, edge, bytes(b)))
    return {"messages": msgs, "request": _request(seq, 1)}


def test_hostile_update_messages_never_raise(vm_result: dict[str, Any]) -> None:
    """400 mutated OTA messages into one node in the VM: no exception out of Node.handle, every reply a
    well-formed READY/NACK/SWITCHED (decoded by the Python codec), and the node still answers a request."""
    f = vm_result["fuzz"]
    assert f["errors"] == []
    replies, outs, _ = _outputs(f["sent"])
    assert f["refusals"] > 100 and sum(r["type"] == ota.NACK for r in replies) > 100
    assert all(r["type"] != ota.READY for r in replies)  # no mutated image carries a valid MAC
    v = json.loads(VECTORS.read_text())
    assert len(outs) == 1
    np.testing.assert_array_equal(outs[0][1], np.array([v["x"]], np.float32) + np.array([v["consts"]["old"]],
                                                                                       np.float32))


@pytest.fixture(scope="module")
def vm_result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The pinned vectors replayed by the .mpy build of bbnode in the MicroPython VM (one VM run)."""
    from bb_edge.mpy.cross import compile_file, runtime_dir
    from tests.support.mpy_vm import ensure_vm, run_vm

    d = tmp_path_factory.mktemp("mpy_ota")
    driver = ensure_vm()
    lib = d / "lib"
    for mod in VM_MODULES:  # bytecode only (the VM cannot fall back to .py): the modules the node imports
        compile_file(runtime_dir() / "bbnode" / f"{mod}.py", lib / "bbnode" / f"{mod}.mpy", "", f"bbnode/{mod}.py")
    data = d / "data"
    data.mkdir()
    (data / "ota_micropython.json").write_bytes(VECTORS.read_bytes())
    (data / "fuzz.json").write_text(json.dumps(fuzz_messages()))
    out = run_vm(driver, lib, data, VM_SCRIPT, timeout=120)
    assert "RESULT written" in out, out[-3000:]
    return dict(json.loads((data / "out" / "result.json").read_text()))


def test_vectors_are_what_the_python_deployer_sends() -> None:
    """The pinned messages are byte for byte the Python deployer's (OFFER layout, signed message, HMAC)."""
    assert json.loads(VECTORS.read_text()) == json.loads(json.dumps(make_vectors()))


def test_hmac_sha256_on_micropython_hashlib_matches_python_hmac(vm_result: dict[str, Any]) -> None:
    """bbnode.ota.hmac_sha256 in the VM equals hmac.new(key, data, sha256) for short, block-size and long keys."""
    pinned = json.loads(VECTORS.read_text())["hmac"]
    for h, got in zip(pinned, vm_result["hmac"], strict=True):
        assert got == hmac.new(bytes.fromhex(h["key"]), bytes.fromhex(h["data"]), hashlib.sha256).hexdigest()
    assert vm_result["equal"] == [True, False, False]


def _outputs(sent: list[str]) -> tuple[list[dict[str, Any]], list[tuple[int, np.ndarray]], list[bytes]]:
    """The node's envelopes, decoded by the Python codec: OTA replies, (position, output) pairs, HELLO hashes."""
    replies: list[dict[str, Any]] = []
    outs: list[tuple[int, np.ndarray]] = []
    hellos: list[bytes] = []
    for h in sent:
        env = wire.decode(bytes.fromhex(h))
        assert env.sender == NODE_ID
        if env.protocol == ota.PROTO_OTA:
            assert env.kind == wire.KIND_CONTROL and env.receiver == 0 and env.dtype == 2
            body = bytes(env.payload_bytes())
            if env.edge == ota.NACK:
                uid, code, reason = ota.decode_nack(body)
                assert reason  # every refusal says why
                replies.append({"type": ota.NACK, "update_id": uid, "code": ota.CODE_NAMES[code]})
            else:
                replies.append({"type": env.edge, "payload": body.hex()})
        elif env.kind == wire.KIND_CONTROL and env.edge == 1:
            hellos.append(hello_record.decode(bytes(env.payload_bytes())).program_hash)
        else:
            assert env.edge == 11
            outs.append((len(replies), env.array()))
    return replies, outs, hellos


@pytest.mark.parametrize("name", [c["name"] for c in json.loads(VECTORS.read_text())["cases"]]
                         if VECTORS.is_file() else [])
def test_micropython_node_replays_the_vectors(vm_result: dict[str, Any], name: str) -> None:
    """Each case's replies are the pinned ones; requests before the switch are answered by the old program
    (y = x + c_old, computed here), after it by the new one; a refused update leaves the old one running."""
    v = json.loads(VECTORS.read_text())
    spec = next(c for c in v["cases"] if c["name"] == name)
    got = vm_result["cases"][name]
    replies, outs, hellos = _outputs(got["sent"])
    assert replies == spec["replies"], got["log"]
    x = np.array([v["x"]], np.float32)
    want = {k: v["inputs"].get(k, 1) * x + np.array([[np.nan if c is None else c for c in cs]], np.float32)
            for k, cs in v["consts"].items()}  # y = x + c, or (x + x) + c with two inputs
    assert len(outs) == len(spec["outputs"]), "every request was answered once"
    switched_at = next((i for i, r in enumerate(replies) if r["type"] == ota.SWITCHED), None)
    reverted_at = next((i for i, r in enumerate(replies) if switched_at is not None and i > switched_at
                        and r.get("code") == "aborted"), None)
    for (pos, y), which in zip(outs, spec["outputs"], strict=True):
        np.testing.assert_array_equal(y, want[which])
        # answered by the new program exactly when it came after SWITCHED and before an ABORT put it back
        assert (which != spec.get("start", "old")) == (switched_at is not None and pos > switched_at
                                                       and (reverted_at is None or pos <= reverted_at))
    if switched_at is not None:  # a HELLO announces the SHA-256 of the program that runs in the end
        assert hellos and hellos[-1] == hashlib.sha256(bytes.fromhex(v["programs"][spec["runs"]])).digest()
    else:
        assert hellos == []
    if spec.get("files"):  # the A/B slot on the node's filesystem holds the new program, pointer flipped
        assert got["active"] == (v["programs"][spec["runs"]] if spec["runs"] != "old" else None)
    if name == "not_authorised":
        assert got["refusals"] == 2 and replies == []


# --------------------------------------------------------------- live fleet

LONG = os.environ.get("BB_EDGE_LONG") == "1"
PER_PHASE = 6 if LONG else 2
FLEET_TIMEOUT = 60.0

LIVE_LAUNCH = """import json, runpy, sys
sys.path[:0] = {paths!r}
g = runpy.run_path("main.py", run_name="__main__")
o = g["node"].ota
print("STATS " + json.dumps({{"node": vars(g["node"].stats), "refusals": o.refusals, "switched": o.switched,
                              "log": o.log}}), flush=True)
"""


@pytest.fixture(scope="module")
def mpy_fleet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """small_cnn seed 0 / seed 1 split n0 -> n1 -> n2 (same contract); n1 built for esp32-micropython (MQTT,
    int8 program, float32 edges)."""
    from bb_edge.bundle.build import build_all
    from bb_edge.commands.keygen import embed_public_key, make_keys
    from bb_edge.compiler.compile import compile_model
    from tests.support.examples import sample_inputs, small_cnn

    root = tmp_path_factory.mktemp("ota_mpy")
    calib = sample_inputs(16, seed=7)
    for tag, seed in (("old", 0), ("new", 1)):
        d = root / tag
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile_model(small_cnn(seed=seed), cuts=["p1", "g"], node_names=["n0", "n1", "n2"], out_dir=d)
        np.savez(d / "calib.npz", x=np.concatenate([c["x"] for c in calib]))
        # float32 edges: an int8 edge's parameters are contract (the peers refuse others), and seed 1
        # calibrates differently, so only float edges let the new n1 program keep the old contract
        build_all(d, ["n1=esp32-micropython"], root / f"dist-{tag}", calib=d / "calib.npz",
                  options={"transport": "mqtt", "float_edges": True})
    # an ``ota`` section (bb-edge keygen --deployment) makes the broker's ACL let the deployer reach every node
    _, pub = make_keys(root / "keys")
    embed_public_key(root / "old", pub)
    return {"old": root / "old", "new": root / "new", "dist_old": root / "dist-old", "dist_new": root / "dist-new"}


def test_build_provisions_the_key_and_the_deployer_signs_with_it(mpy_fleet: dict[str, Path]) -> None:
    """The esp32-micropython bundle carries its node's HMAC key (0600, copied to the board by flash) and the
    config main.py reads; plan_update offers n1's program.bbrt as target 3 under that key."""
    from bb_edge.adapters.ops.ota_deploy import bbrt_bundles, plan_update
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.mpy.flash import bundle_files

    b = mpy_fleet["dist_old"] / "n1"
    key = bytes.fromhex((b / "ota_hmac.key").read_text().strip())
    assert len(key) == 32 and (b / "ota_hmac.key").stat().st_mode & 0o077 == 0
    cfg = json.loads((b / "config.json").read_text())
    assert cfg["ota"]["key_file"] == "ota_hmac.key" and cfg["ota"]["max_program"] >= len(
        (b / "program.bbrt").read_bytes())
    assert {"ota_hmac.key", "ota_active", "lib/bbnode/ota.mpy"} <= set(bundle_files(b))
    running, built = bbrt_bundles(mpy_fleet["dist_old"]), bbrt_bundles(mpy_fleet["dist_new"])
    assert running["n1"].key == key != built["n1"].key  # every build provisions its own key
    dep = load_deployment(mpy_fleet["old"])
    ups = plan_update(dep, load_deployment(mpy_fleet["new"]), ota.hmac_signer(bytes(32)), ota.SIG_ED25519,
                      nodes=["n1"], bundles=built, current_bundles=running)
    (u,) = ups
    assert u.target == ota.TARGET_MPY and u.sig_kind == ota.SIG_HMAC_SHA256
    assert u.image == (mpy_fleet["dist_new"] / "n1" / "program.bbrt").read_bytes() != u.previous
    msg = ota.signed_message("n1", ota.TARGET_MPY, len(u.image), hashlib.sha256(u.image).digest())
    assert u.signer(msg) == hmac.new(key, msg, hashlib.sha256).digest()
    assert u.chunk + ota.DATA_HEADER <= cfg["max_payload"]


def test_provision_keeps_the_key_of_the_bundle_it_replaces(tmp_path: Path) -> None:
    """A rebuild into the same DIST keeps the node's key (the board and the deployer's copy stay valid); a
    first build makes a new random one; the slot pointer always says "run the built program"."""
    from bb_edge.mpy.ota import OTA_KEY_FILE, provision

    final, tmp1, tmp2 = tmp_path / "dist" / "n1", tmp_path / "dist" / ".n1.partial-1", tmp_path / "dist" / ".n1.p2"
    for d in (tmp1, tmp2):
        d.mkdir(parents=True)
    cfg = provision(tmp1, final, 1000)
    assert cfg == {"key_file": OTA_KEY_FILE, "slots": "ota", "max_program": 64 << 10}
    first = (tmp1 / OTA_KEY_FILE).read_text()
    assert len(bytes.fromhex(first.strip())) == 32 and (tmp1 / OTA_KEY_FILE).stat().st_mode & 0o077 == 0
    tmp1.rename(final)
    assert provision(tmp2, final, 100_000)["max_program"] == 200_000
    assert (tmp2 / OTA_KEY_FILE).read_text() == first and (tmp2 / OTA_KEY_FILE).stat().st_mode & 0o077 == 0
    assert (tmp2 / "ota_active").read_text().strip() == "built"
    other = tmp_path / "other"
    other.mkdir()
    assert provision(other, None, 10) and (other / OTA_KEY_FILE).read_text() != first


def test_micropython_node_updated_mid_stream(mpy_fleet: dict[str, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """n1 runs the bundle's main.py (bbnode + umqtt.simple, as tests/micropython/test_micropython_mqtt.py runs it)
    between two Python engines on Mosquitto. ``Deploy`` over the host's transport stages n1's new program
    while requests flow and switches it: every output before the switch equals the fleet with the C runtime
    running the old program as n1 (bit for bit), every output after it the new program, none lost; the HELLO
    carries the new hash; the slot on the node's filesystem holds it. Then a second update during one
    (busy), a corrupt image and a badly MACed one are refused and n1 keeps serving the new program; a
    restarted node boots the activated slot, and ``bb-edge deploy --bundles`` puts the old program back."""
    import shutil
    import subprocess
    import sys

    from bb_edge.adapters.fleet.hostloop import HostEndpoint
    from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, stop_process
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.adapters.ops.ota_deploy import BbrtBundle, Deploy, OtaTap, bbrt_bundles, plan_update
    from bb_edge.adapters.ops.status_view import NodeStatus, StatusClient, StatusModel
    from bb_edge.adapters.transports.inproc import InProcFleet
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport
    from bb_edge.bbrt.format import parse
    from bb_edge.cli import main
    from bb_edge.deployment.manifest import HOST_NAME, load_deployment
    from bb_edge.wire.topics import Topics
    from tests.support.examples import sample_inputs
    from tests.support.mpy_vm import cpython_paths, mqtt_node_dir
    from tests.support.transport_helpers import CNode, assert_same_outputs

    dep = load_deployment(mpy_fleet["old"])
    ids = dep.ids()
    running, built = bbrt_bundles(mpy_fleet["dist_old"]), bbrt_bundles(mpy_fleet["dist_new"])
    updates = plan_update(dep, load_deployment(mpy_fleet["new"]), ota.hmac_signer(bytes(32)), ota.SIG_ED25519,
                          nodes=["n1"], bundles=built, current_bundles=running)
    blobs = {k: (mpy_fleet[f"dist_{k}"] / "n1" / "program.bbrt").read_bytes() for k in ("old", "new")}
    n_req = 4 * PER_PHASE + 8
    requests = [{"x": s["x"]} for s in sample_inputs(n_req, seed=11)]
    # the oracle: the same fleet in-process with the C runtime as n1, running the old or the new program
    refs = {k: InProcFleet(dep, external={"n1": CNode(b, parse(b).arena_size)}).run(requests)
            for k, b in blobs.items()}
    files = write_broker_files(tmp_path / "broker", dep)
    url = files.url()
    node_dir = mqtt_node_dir(mpy_fleet["dist_old"] / "n1", tmp_path / "n1", {
        "host": "127.0.0.1", "port": files.port, "password": files.passwords["n1"], "keepalive": 5,
        "status_interval": 0.5})
    (node_dir / "_launch.py").write_text(LIVE_LAUNCH.format(paths=cpython_paths(tmp_path)))
    broker = Broker(files).start()
    model = StatusModel(interval=0.5)
    watcher = StatusClient(url, model)
    fleet = MqttFleet(dep, url, nodes=["n0", "n2"])
    tr = MqttTransport(MqttConfig.from_url(url), dep.name, HOST_NAME, ids)
    tap = OtaTap(tr)
    host = HostEndpoint(dep, tap)
    got: dict[int, dict[str, np.ndarray]] = {}
    phase: dict[int, str] = {}
    procs: list[subprocess.Popen[str]] = []
    closed = False

    def launch() -> subprocess.Popen[str]:
        p = subprocess.Popen([sys.executable, "_launch.py"], cwd=node_dir, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
        procs.append(p)
        return p

    def next_seq() -> int:  # the deployer numbers its envelopes in the host's sequence (same thread)
        return host.next_seq()

    def one(which: str) -> None:
        i = len(got)
        host.submit(i + 1, requests[i])
        got[i] = host.wait(i + 1, FLEET_TIMEOUT)
        phase[i] = which

    def status_hash(which: str) -> dict[str, Any]:
        """n1's latest status record (bb-edge status's model) once it names the program ``which``."""
        deadline = time.monotonic() + 15
        want = hashlib.sha256(blobs[which]).hexdigest()
        while True:
            rec = (model.nodes.get((dep.name, "n1")) or NodeStatus(dep.name, "n1")).record or {}
            if rec.get("program_hash") == want:
                return rec
            assert time.monotonic() < deadline, rec
            time.sleep(0.05)

    def hello_hash(which: str) -> None:
        deadline = time.monotonic() + 15
        while tap.program_hashes.get(ids["n1"]) != hashlib.sha256(blobs[which]).digest():
            assert time.monotonic() < deadline, tap.program_hashes
            time.sleep(0.05)

    def stop_node(p: subprocess.Popen[str]) -> dict[str, Any]:
        tr.publish(Topics(dep.name).control(), b"stop", qos=1)
        out, err = p.communicate(timeout=20)
        assert p.returncode == 0, err[-3000:]
        return dict(json.loads(next(x for x in out.splitlines() if x.startswith("STATS "))[6:]))

    try:
        watcher.start()
        fleet.start()
        host.open()
        tr.wait_connected(20.0)
        first = launch()
        host.wait_for_peers(["n0", "n1", "n2"], FLEET_TIMEOUT)
        hello_hash("old")
        for _ in range(PER_PHASE):
            one("old")
        rec = status_hash("old")  # the status record bb-edge status shows: up, epoch, requests
        assert rec["epoch"] >= 1 and rec["ota"] == {"switched": 0, "refusals": 0, "busy": False}, rec
        run = Deploy(tap, ids, updates, next_seq, timeout_s=FLEET_TIMEOUT, update_id=91, deployment=dep.name)
        run.start()
        deadline = time.monotonic() + FLEET_TIMEOUT
        while run.step() == "staging":  # requests keep flowing while n1 stages (a few: each takes a while here)
            if len(got) < 2 * PER_PHASE + 1:
                one("old")
            else:
                time.sleep(0.01)
            assert time.monotonic() < deadline, run.report()
        while run.step() not in ("done", "failed"):
            time.sleep(0.01)
            assert time.monotonic() < deadline
        report = run.report()
        assert report.ok, report
        assert len(got) > PER_PHASE, "requests were served while n1 staged"
        assert report.switched["n1"] == hashlib.sha256(blobs["new"]).hexdigest()
        for _ in range(PER_PHASE):
            one("new")
        hello_hash("new")  # the HELLO after SWITCHED names the new program
        assert status_hash("new")["ota"]["switched"] == 1
        assert model.rows(time.monotonic())[[r["node"] for r in model.rows(time.monotonic())].index("n1")][
            "state"] == "up"
        active = (node_dir / "ota_active").read_text().strip()
        assert (node_dir / f"ota_{active}.bbrt").read_bytes() == blobs["new"]

        back = plan_update(load_deployment(mpy_fleet["new"]), dep, ota.hmac_signer(bytes(32)), ota.SIG_ED25519,
                           nodes=["n1"], bundles=running, current_bundles={"n1": BbrtBundle(
                               built["n1"].program, running["n1"].key, running["n1"].max_payload,
                               ota.TARGET_MPY)})
        # a second update while one is in progress: the first OFFER stages, the second is refused BUSY
        busy1 = Deploy(tap, ids, back, next_seq, timeout_s=FLEET_TIMEOUT, update_id=92, deployment=dep.name)
        busy2 = Deploy(tap, ids, back, next_seq, timeout_s=FLEET_TIMEOUT, update_id=93, deployment=dep.name)
        tap.inbox.clear()
        busy1._ship(busy1.deployer.start(time.monotonic())[:1])
        busy2._ship(busy2.deployer.start(time.monotonic())[:1])
        assert nacks(tap, ids["n1"], time.monotonic() + 10) == [(93, ota.BUSY)]
        busy1._ship(busy1.deployer.abort(time.monotonic()))  # ABORT update 92
        one("new")
        corrupt = Deploy(tap, ids, back, next_seq, timeout_s=FLEET_TIMEOUT, update_id=94, deployment=dep.name)
        out = corrupt.deployer.start(time.monotonic())
        bad = wire.decode(out[-1].data, max_payload=len(out[-1].data))
        body = bytearray(bad.payload_bytes())
        body[-1] ^= 0x5A  # after the deployer hashed and signed the real image
        out[-1] = ota.Outgoing("n1", ids["n1"], wire.encode(wire.Envelope.for_bytes(
            bytes(body), sender=0, receiver=ids["n1"], seq=bad.seq, kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA,
            edge=ota.DATA), max_payload=len(body)))
        corrupt._ship(out)
        while corrupt.step() not in ("done", "failed"):
            time.sleep(0.01)
        assert corrupt.deployer.failures["n1"][0] == ota.CORRUPT, corrupt.report()
        one("new")
        forged = [ota.NodeUpdate(u.node, u.image, u.target, ota.hmac_signer(bytes(32)), u.sig_kind, u.chunk)
                  for u in back]
        rep = Deploy(tap, ids, forged, next_seq, timeout_s=FLEET_TIMEOUT, update_id=95,
                     deployment=dep.name).run()
        assert rep.state == "failed" and rep.failures["n1"].startswith("bad_signature"), rep
        one("new")
        assert first.poll() is None  # still serving
        stats = stop_node(first)  # b"stop" on the control topic ends n0 and n2 as well
        # a restart boots the activated slot: its first HELLO names the new program
        tap.program_hashes.pop(ids["n1"], None)
        second = launch()
        hello_hash("new")
        # `bb-edge deploy --bundles` puts the old program back: the running build is the new program with
        # the key n1 was flashed with (the key stays on the board across updates)
        host.close()  # this session ends here (the CLI connects as _deploy, it would not displace it)
        closed = True
        shutil.copytree(mpy_fleet["dist_new"] / "n1", tmp_path / "running" / "n1")
        shutil.copyfile(mpy_fleet["dist_old"] / "n1" / "ota_hmac.key", tmp_path / "running" / "n1" / "ota_hmac.key")
        rc = main(["deploy", str(mpy_fleet["old"]), "--current", str(mpy_fleet["old"]), "--fleet", url,
                   "--bundles", str(mpy_fleet["dist_old"]), "--current-bundles", str(tmp_path / "running"),
                   "--timeout", "30"])
        printed = capsys.readouterr().out
        assert rc == 0 and f"n1: switched to {hashlib.sha256(blobs['old']).hexdigest()[:16]}" in printed, printed
        ctl = MqttTransport(MqttConfig.from_url(url), dep.name, HOST_NAME, ids)
        ctl.open(lambda *a: None)
        ctl.wait_connected(20.0)
        ctl.control(b"stop")
        out2, err2 = second.communicate(timeout=20)
        ctl.close()
        assert second.returncode == 0, err2[-3000:]
        stats2 = json.loads(next(x for x in out2.splitlines() if x.startswith("STATS "))[6:])
        active = (node_dir / "ota_active").read_text().strip()
        assert (node_dir / f"ota_{active}.bbrt").read_bytes() == blobs["old"]
    finally:
        for p in procs:
            if p.poll() is None:
                stop_process(p)  # type: ignore[arg-type]
                print("MicroPython node:", p.communicate()[1][-3000:])
        watcher.stop()
        fleet.stop()
        if not closed:
            host.close()
        broker.stop()
    for i, y in got.items():  # before the switch the old program, after it the new one, none lost
        assert_same_outputs([y], [refs[phase[i]][i]])
    assert sorted(got) == list(range(len(got))) and set(phase.values()) == {"old", "new"}
    assert any(not np.array_equal(refs["old"][i]["prob"], refs["new"][i]["prob"]) for i in got)
    assert stats["switched"] == [91] and stats["refusals"] == 3, stats  # busy, corrupt, bad_signature
    assert [e[2] for e in stats["log"] if e[0] == "OtaRefused"] == [ota.BUSY, ota.CORRUPT, ota.BAD_SIGNATURE]
    assert stats["node"]["inferences"] == len(got), stats  # every request ran once on n1
    assert len(stats2["switched"]) == 1 and stats2["refusals"] == 0, stats2


# machine.UART on the pty master this process inherits as fd 0 (stdin) and fd 1 (stdout), for main.py
# under CPython; the launcher moves print() to stderr, so only frames go on the line
FD_UART_SHIM = '''import os


class UART:
    """The line: read fd 0, write fd 1 (a pty master; the other end is the slave path)."""

    def __init__(self, *args, **kwargs):
        os.set_blocking(0, False)

    def read(self):
        try:
            return os.read(0, 65536) or None
        except BlockingIOError:
            return None

    def write(self, data):
        view = memoryview(bytes(data))
        while view:
            try:
                view = view[os.write(1, view):]
            except BlockingIOError:
                import select
                select.select([], [1], [], 0.05)
        return len(data)
'''

SERIAL_LAUNCH = """import runpy, sys, time
sys.path[:0] = {paths!r}
sys.stdout = sys.stderr
time.ticks_ms = lambda: int(time.monotonic() * 1000)
time.ticks_diff = lambda a, b: a - b
time.sleep_ms = lambda ms: time.sleep(ms / 1000)
runpy.run_path("main.py", run_name="__main__")
"""


def test_deploy_over_a_serial_line(mpy_fleet: dict[str, Path], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``bb-edge deploy --fleet serial:PTY`` (the deployer the C nodes use) updates the serial
    esp32-micropython bundle's main.py (link layer on a pty): a request before the update gives the C
    runtime's output on the old program, one after it the new program's; the file slot holds it. A slot
    that no longer loads makes the restarted node boot the built program.bbrt."""
    import shutil
    import subprocess
    import sys

    from bb_edge.adapters.fleet.mqtt_fleet import stop_process
    from bb_edge.adapters.transports.serial_link import PtyPair
    from bb_edge.bbrt.format import RECV, parse
    from bb_edge.bundle.build import build_all
    from bb_edge.cli import main
    from bb_edge.mpy.cross import runtime_dir
    from tests.support.mpy_vm import write_shims
    from tests.support.ota_helpers import over_the_line
    from tests.support.transport_helpers import CNode

    build_all(mpy_fleet["old"], ["n1=esp32-micropython"], tmp_path / "dist-serial",
              calib=mpy_fleet["old"] / "calib.npz", options={"float_edges": True})  # serial: link layer on
    bundle = tmp_path / "dist-serial" / "n1"
    blobs = {"old": (bundle / "program.bbrt").read_bytes(),
             "new": (mpy_fleet["dist_new"] / "n1" / "program.bbrt").read_bytes()}
    prog = parse(blobs["old"])
    edge = next(e for e in prog.edges if e.direction == RECV)
    x = np.maximum(np.random.default_rng(4).standard_normal(prog.tensors[edge.tensor].shape), 0).astype(np.float32)

    def request(rid: int, seq: int) -> bytes:
        return wire.encode(wire.Envelope.for_array(x, sender=edge.peer, receiver=prog.node_id, seq=seq,
                                                   request_id=rid, edge=edge.edge_id))

    def reference(tag: str, rid: int) -> bytes:
        node = CNode(blobs[tag], parse(blobs[tag]).arena_size)
        node.send(request(rid, (1 << 32) | 1))
        return bytes(wire.decode(node.receive()[-1]).payload_bytes())

    node_dir = tmp_path / "node"
    shutil.copytree(bundle, node_dir)
    shims = write_shims(tmp_path / "shims")
    (shims / "machine.py").write_text(FD_UART_SHIM)
    (node_dir / "_launch.py").write_text(SERIAL_LAUNCH.format(paths=[str(shims), str(runtime_dir())]))
    pty = PtyPair.open()

    def launch() -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "_launch.py"], cwd=node_dir, stdin=pty.master, stdout=pty.master,
                                stderr=subprocess.PIPE, start_new_session=True)

    proc = launch()
    errs: list[str] = []
    # the node opens a sequence window at each link session's boot epoch (wall-clock seconds): requests carry
    # a later epoch, as a real n0 would after its own HELLO
    epoch = int(time.time()) + 1000
    try:
        before = over_the_line(pty.slave_path, request(1, (epoch << 32) | 1))
        assert bytes(wire.decode(before[-1]).payload_bytes()) == reference("old", 1) != reference("new", 1)
        rc = main(["deploy", str(mpy_fleet["old"]), "--current", str(mpy_fleet["old"]), "--fleet",
                   f"serial:{pty.slave_path}", "--bundles", str(mpy_fleet["dist_new"]), "--current-bundles",
                   str(tmp_path / "dist-serial"), "--timeout", "60"])
        printed = capsys.readouterr().out
        assert rc == 0, printed
        assert f"n1: switched to {hashlib.sha256(blobs['new']).hexdigest()[:16]}" in printed, printed
        after = over_the_line(pty.slave_path, request(2, ((epoch + 1000) << 32) | 1))
        assert bytes(wire.decode(after[-1]).payload_bytes()) == reference("new", 2)
        assert proc.poll() is None
        active = (node_dir / "ota_active").read_text().strip()
        assert (node_dir / f"ota_{active}.bbrt").read_bytes() == blobs["new"]
        # the active slot no longer loads (flash wear, a cut write): the node boots the built program
        stop_process(proc, timeout=10)  # type: ignore[arg-type]
        errs.append(proc.stderr.read().decode(errors="replace") if proc.stderr is not None else "")
        (node_dir / f"ota_{active}.bbrt").write_bytes(blobs["new"][:100])
        proc = launch()
        again = over_the_line(pty.slave_path, request(3, ((epoch + 2000) << 32) | 1))
        assert bytes(wire.decode(again[-1]).payload_bytes()) == reference("old", 3)
    finally:
        stop_process(proc, timeout=10)  # type: ignore[arg-type]
        errs.append(proc.stderr.read().decode(errors="replace") if proc.stderr is not None else "")
        pty.close()
    assert "Traceback" not in "".join(errs), errs
    assert "ota: active slot refused at boot" in errs[-1], errs[-1][-3000:]


if __name__ == "__main__":
    VECTORS.write_text(json.dumps(make_vectors(), indent=1) + "\n")
    print(f"wrote {VECTORS}")
