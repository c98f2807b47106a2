"""The shared OFFER2 (anti-rollback) vectors, tests/vectors/ota_offer2.json, replayed against the three node ends.

- C: the posix node (bbrt-host, firmware/src/bbrt_ota.c + bbrt_node_ota.c) fed the envelopes as frames on
  its stdin, with ``--ota-state`` (its boot record and program slots in a file); a ``restart`` step starts a
  new process on the same state file, so the byte-identical replay meets an empty duplicate window. The
  three replay forms also on the Cortex-M3 build under QEMU (UART, link layer, flash image file).
- Python: bb_edge.engine.ota.OtaNode on a real Engine (node n1 of a one-node deployment), its slots and
  accepted version in bb_edge.adapters.ops.ota_store.FileSlots; a restart is a new Engine and OtaNode on
  the same directory. Its loader parses the .bbrt images with bb_edge.bbrt.format (the Engine does not run
  them: the oracle is the program hash it serves).
- MicroPython: bbnode (firmware/micropython, compiled to .mpy) in the MicroPython WebAssembly VM, its slots
  and version in files; a restart is a new Node and OtaNode on the same files.

Every node must give the pinned replies (READY/SWITCHED with the SHA-256 hashlib computes, NACKs by code
name), answer each request with the program the case names (y = x + c, computed here), and end on it.
"""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.bbrt.native import host_executable
from bb_edge.engine import ota
from bb_edge.wire import envelope as wire
from bb_edge.wire.framing import FrameDecoder, frame
from tests.support import power_cut as pc
from tests.vectors import ota_offer2 as V

VECTORS = json.loads(V.PATH.read_text())
PROGRAMS = {k: bytes.fromhex(v) for k, v in VECTORS["programs"].items()}
HASH_OF = {hashlib.sha256(v).digest(): k for k, v in PROGRAMS.items()}


def _cases(target: str) -> list[str]:
    return [c["name"] for c in VECTORS["cases"] if c["target"] == target]


def _case(target: str, name: str) -> dict[str, Any]:
    return next(c for c in VECTORS["cases"] if c["target"] == target and c["name"] == name)


def _segments(steps: list[Any]) -> list[list[bytes]]:
    """The envelopes between restarts."""
    segs: list[list[bytes]] = [[]]
    for s in steps:
        if isinstance(s, dict):
            segs.append([])
        else:
            segs[-1].append(bytes.fromhex(s))
    return segs


def _read(envs: list[bytes]) -> tuple[list[dict[str, Any]], list[str]]:
    """The node's OTA replies (as pinned) and which program answered each request."""
    replies: list[dict[str, Any]] = []
    outputs: list[str] = []
    x = np.array([VECTORS["x"]], np.float32)
    want = {k: x + np.array([c], np.float32) for k, c in VECTORS["consts"].items()}
    for data in envs:
        env = wire.decode(data, max_payload=len(data))
        if env.protocol == ota.PROTO_OTA:
            assert env.receiver == 0 and env.sender == VECTORS["node_id"]
            body = bytes(env.payload_bytes())
            if env.edge == ota.RESUME:
                continue  # ONNX and C nodes (docs/wire.md): how much of the offer they hold; not MicroPython
            if env.edge == ota.NACK:
                uid, code, _ = ota.decode_nack(body)
                replies.append({"type": ota.NACK, "update_id": uid, "code": ota.CODE_NAMES[code]})
            else:
                replies.append({"type": env.edge, "payload": body.hex()})
        elif env.kind == wire.KIND_DATA and env.edge == 11:
            y = env.array()
            outputs.append(next(k for k, w in want.items() if np.array_equal(y, w)))
    return replies, outputs


def test_vectors_are_what_the_python_deployer_sends() -> None:
    """The pinned envelopes are byte for byte the Python deployer's (OFFER2 layout, signed manifest, HMAC)."""
    assert VECTORS == json.loads(json.dumps(V.make()))
    names = {c["name"] for c in VECTORS["cases"]}
    assert {"replay_three_forms", "wrong_deployment", "wrong_node", "bad_signature", "unversioned_offer",
            "same_version", "explicit_rollback", "restart_keeps_version"} <= names


# ------------------------------------------------------------------ C (posix node, state file)


@pytest.fixture(scope="module")
def c_node(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("offer2_c")
    (d / "old.bbrt").write_bytes(PROGRAMS["old"])
    (d / "key").write_text(VECTORS["key"] + "\n")
    return {"exe": host_executable(), "dir": d}


def run_c_segment(c_node: dict[str, Path], state: Path, envs: list[bytes]) -> tuple[list[bytes], str]:
    """One life of the posix C node: boot from ``state`` (or the factory program), take ``envs``, exit at EOF."""
    cmd = [str(c_node["exe"]), str(c_node["dir"] / "old.bbrt"), "--name", VECTORS["node"], "--deployment",
           VECTORS["deployment"], "--ota-key", str(c_node["dir"] / "key"), "--ota-state", str(state)]
    proc = subprocess.run(cmd, input=b"".join(frame(e) for e in envs), capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return FrameDecoder().feed(proc.stdout), proc.stderr.decode(errors="replace")


@pytest.mark.parametrize("name", _cases("bbrt"))
def test_c_node_replays_the_offer2_vectors(c_node: dict[str, Path], tmp_path: Path, name: str) -> None:
    spec = _case("bbrt", name)
    state = tmp_path / "ota.state"
    out: list[bytes] = []
    for seg in _segments(spec["steps"]):
        got, _ = run_c_segment(c_node, state, seg)
        out += got
    replies, outputs = _read(out)
    assert replies == spec["replies"]
    assert outputs == spec["outputs"]
    # a new life boots an updated slot exactly when an update was switched to (else the factory program)
    _, err = run_c_segment(c_node, state, [])
    assert ("bbrt-ota: boot slot=0" in err) == (not any(r["type"] == ota.SWITCHED for r in spec["replies"])), err


@pytest.fixture(scope="module")
def m3_elf() -> Path:
    """The Cortex-M3 node with the vectors' key, node name and deployment compiled in."""
    assert bytes.fromhex(VECTORS["key"]) == pc.KEY and (VECTORS["node"], VECTORS["deployment"]) == (pc.NODE,
                                                                                                     pc.DEPLOYMENT)
    return pc.m3_elf()


def test_qemu_cortex_m3_node_refuses_the_three_replays(m3_elf: Path, tmp_path: Path) -> None:
    """The ``replay_three_forms`` case on the Cortex-M3 build under QEMU, over its UART with the link layer;
    the restart is a power cut (QEMU killed) and a boot from the same flash image file."""
    spec = _case("bbrt", "replay_three_forms")
    (tmp_path / "old.bbrt").write_bytes(PROGRAMS["old"])
    out: list[bytes] = []
    for seg in _segments(spec["steps"]):
        life = pc.QemuLife(m3_elf, tmp_path / "old.bbrt", tmp_path / "epoch", tmp_path / "flash")
        try:
            requests = sum(wire.decode(e).kind == wire.KIND_DATA for e in seg)
            for e in seg:
                life.send(e)
                # paced: sent as one burst, an OTA message answered by a NACK is sometimes lost on this node
                # (its transmit ring holds one envelope; see the report of issue 23), unpaced replays differ
                time.sleep(0.05)
            # the link delivers in order both ways: the last request's answer comes after every reply
            assert life.wait_outputs(requests, 60), life.raw
        finally:
            life.cut()
        out += life.raw
    replies, outputs = _read(out)
    assert replies == spec["replies"]
    assert outputs == spec["outputs"]


def test_c_node_takes_hostile_offer2_messages(c_node: dict[str, Path], tmp_path: Path) -> None:
    """Every OFFER2/DATA/COMMIT of the vectors cut short, extended, with bytes flipped (often in the name and
    signature lengths, the version, the size) or replaced by random bytes, fresh seqs, to one posix C node with
    its state file: it neither crashes nor switches (every signature is now wrong or the version stale), every
    reply is a READY or a typed NACK, and a request afterwards is answered by the factory program."""
    rng = np.random.default_rng(23)
    pool = [wire.decode(bytes.fromhex(h)) for c in VECTORS["cases"] if c["target"] == "bbrt"
            for h in c["steps"] if isinstance(h, str)]
    pool = [e for e in pool if e.protocol == ota.PROTO_OTA]
    msgs: list[bytes] = []
    seq = 1
    for _ in range(600):
        env = pool[int(rng.integers(len(pool)))]
        body = bytearray(env.payload_bytes())
        how = int(rng.integers(5))
        if how == 0 and body:
            body = body[:int(rng.integers(len(body)))]
        elif how == 1:
            body += rng.integers(0, 256, int(rng.integers(1, 80)), dtype=np.uint8).tobytes()
        elif how == 2 and body:
            for _ in range(int(rng.integers(1, 4))):  # the OFFER2 header fields: ids, size, lengths, version
                body[int(rng.integers(min(len(body), 60)))] ^= 1 << int(rng.integers(8))
        elif how == 3:
            body = bytearray(rng.integers(0, 256, int(rng.integers(0, 120)), dtype=np.uint8).tobytes())
        else:
            body[:4] = struct.pack("<I", int(rng.integers(1, 40)))
        edge = env.edge if rng.random() < 0.9 else int(rng.integers(0, 12))
        msgs.append(wire.encode(wire.Envelope.for_bytes(bytes(body), sender=0, receiver=1, seq=seq,
                                                        kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA, edge=edge),
                                max_payload=max(len(body), 1)))
        seq += 1
    x = np.array([VECTORS["x"]], np.float32)
    msgs.append(wire.encode(wire.Envelope.for_array(x, sender=0, receiver=1, seq=seq, request_id=9, edge=10)))
    got, err = run_c_segment(c_node, tmp_path / "state", msgs)
    replies, outputs = _read(got)
    assert outputs == ["old"], err
    assert {r["type"] for r in replies} <= {ota.READY, ota.NACK}
    assert "ota_switches=0" in err, err


# ------------------------------------------------------------------ Python (OtaNode on an Engine)


class BbrtImageLoader:
    """A ProgramLoader for .bbrt images (bb_edge.bbrt.format parses them); it serves their hash."""

    def __init__(self, engine: Any, target: int) -> None:
        self.engine, self.target = engine, target

    def validate(self, data: bytes) -> bytes:
        """The image parsed by the .bbrt reader (INVALID_PROGRAM when it does not)."""
        from bb_edge.bbrt.format import parse

        try:
            parse(data)
        except Exception as exc:
            raise ota.OtaError(ota.INVALID_PROGRAM, str(exc)) from None
        return data

    def switch(self, staged: bytes) -> bytes:
        """Serve the staged image (its hash); the token is the previous hash."""
        token: bytes = self.engine.program_hash
        self.engine.program_hash = hashlib.sha256(staged).digest()
        return token

    def health(self, staged: bytes) -> None:
        """Nothing to run here."""

    def restore(self, token: bytes) -> None:
        """Serve the previous hash again."""
        self.engine.program_hash = token


@pytest.fixture(scope="module")
def py_deployment() -> tuple[Any, Any]:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from bb_edge.compiler.compile import compile_model

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    c = numpy_helper.from_array(np.ones((1, 4), np.float32), "c")
    m = helper.make_model(helper.make_graph([helper.make_node("Add", ["x", "c"], ["y"])], "g", [x], [y], [c]),
                          opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    dep, progs = compile_model(m, nodes=1, node_names=[VECTORS["node"]])
    assert dep.ids()[VECTORS["node"]] == VECTORS["node_id"]
    return dep, progs


@pytest.mark.parametrize("target,name", [(t, n) for t in V.TARGETS for n in _cases(t)])
def test_python_node_replays_the_offer2_vectors(py_deployment: tuple[Any, Any], tmp_path: Path, target: str,
                                                name: str) -> None:
    from bb_edge.adapters.ops.ota_store import FileSlots
    from bb_edge.engine import Engine

    dep, progs = py_deployment
    spec = _case(target, name)
    key = bytes.fromhex(VECTORS["key"])
    out: list[bytes] = []
    now = 0.0
    handler = None
    for seg in _segments(spec["steps"]):
        engine = Engine.for_node(dep, VECTORS["node"], progs, inline_compute=True)
        store = FileSlots(tmp_path / "slots")
        engine.program_hash = hashlib.sha256(store.active_program() or PROGRAMS["old"]).digest()
        handler = ota.OtaNode(engine, BbrtImageLoader(engine, V.TARGETS[target]), ota.hmac_verifier(key),
                              sig_kind=ota.SIG_HMAC_SHA256, store=store, deployment=VECTORS["deployment"])
        engine.register_protocol(handler)
        for data in seg:
            env = wire.decode(data, max_payload=len(data))
            if env.protocol != ota.PROTO_OTA:
                continue  # requests: the Engine runs ONNX, not these images (the hash is the oracle)
            engine.deliver("_host", data)
            now += 0.01
            out += [o.data for o in engine.poll(now)]
    replies, _ = _read(out)
    assert replies == spec["replies"]
    assert handler is not None and HASH_OF[handler.engine.program_hash] == spec["runs"]


# ------------------------------------------------------------------ MicroPython (bbnode in the VM)

VM_MODULES = ("__init__", "envelope", "executor", "framing", "link", "node", "ota", "rules")
VM_SCRIPT = """
import binascii, hashlib, json
from bbnode import ota
from bbnode.executor import Program
from bbnode.node import Node
V = json.load(open("ota_offer2.json"))
P = {k: binascii.unhexlify(v) for k, v in V["programs"].items()}
key = binascii.unhexlify(V["key"])
res = {}
for c in V["cases"]:
    if c["target"] != "micropython":
        continue
    out = []
    prefix = "s_" + c["name"]
    node = None
    def boot():
        p0 = ota.FileSlots(prefix).active_program() or P["old"]
        n = Node(Program(p0), send=out.append, name=V["node"], program_hash=hashlib.sha256(p0).digest())
        n.ota = ota.OtaNode(V["node"], key, ota.FileSlots(prefix), ota.NodeLoader(n), max_program=4096,
                            deployment=V["deployment"])
        return n
    node = boot()
    for step in c["steps"]:
        if isinstance(step, dict):
            node = boot()
        else:
            node.handle(binascii.unhexlify(step))
    active = ota.FileSlots(prefix).active_program()
    res[c["name"]] = {"sent": [binascii.hexlify(b).decode() for b in out],
                      "active": binascii.hexlify(active).decode() if active else None}
import os
try:
    os.mkdir("out")
except OSError:
    pass
with open("out/offer2.json", "w") as f:
    f.write(json.dumps(res))
print("RESULT written")
"""


@pytest.fixture(scope="module")
def vm_offer2(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The shared vectors replayed by the .mpy build of bbnode in the MicroPython VM (one VM run)."""
    from bb_edge.mpy.cross import compile_file, runtime_dir
    from tests.support.mpy_vm import ensure_vm, run_vm

    d = tmp_path_factory.mktemp("mpy_offer2")
    driver = ensure_vm()
    lib = d / "lib"
    for mod in VM_MODULES:
        compile_file(runtime_dir() / "bbnode" / f"{mod}.py", lib / "bbnode" / f"{mod}.mpy", "", f"bbnode/{mod}.py")
    data = d / "data"
    data.mkdir()
    (data / "ota_offer2.json").write_bytes(V.PATH.read_bytes())
    out = run_vm(driver, lib, data, VM_SCRIPT, timeout=120)
    assert "RESULT written" in out, out[-3000:]
    return dict(json.loads((data / "out" / "offer2.json").read_text()))


@pytest.mark.parametrize("name", _cases("micropython"))
def test_micropython_node_replays_the_offer2_vectors(vm_offer2: dict[str, Any], name: str) -> None:
    spec = _case("micropython", name)
    got = vm_offer2[name]
    replies, outputs = _read([bytes.fromhex(h) for h in got["sent"]])
    assert replies == spec["replies"]
    assert outputs == spec["outputs"]
    switched = any(r["type"] == ota.SWITCHED for r in spec["replies"])
    assert got["active"] == (VECTORS["programs"][spec["runs"]] if switched else None)


def test_signed_manifest_layout_is_the_documented_one() -> None:
    """docs/wire.md: prefix, deployment NUL node NUL, u8 target, u32 size, u64 version, u32 update id, hash."""
    sha = bytes(range(32))
    m = ota.signed_manifest("fleet-a", "n1", 2, 300, 7, 9, sha)
    assert m == b"bb-edge/ota/2\0fleet-a\0n1\0" + struct.pack("<BIQI", 2, 300, 7, 9) + sha
