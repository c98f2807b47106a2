"""Helpers of the OTA tests (test_ota*.py, test_ota_c.py, test_ota_resume_c.py, test_ota_micropython.py): the
signing key and an in-process node+deployer harness, the models they update between, a tampered image chunk,
the NACKs a node answers with, and a serial line to a C node. One copy, so the Linux, C and MicroPython fleets
are built, attacked and read alike."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper

from bb_edge.bbrt.format import RECV, parse
from bb_edge.deployment.manifest import Deployment
from bb_edge.engine import Engine, ota
from bb_edge.wire import envelope as wire
from tests.support.models import random_inputs
from tests.support.transport_helpers import CNode


def tamper_last_chunk(items: list[ota.Outgoing], node: str) -> list[ota.Outgoing]:
    """Flip a byte in ``node``'s last DATA chunk (after the deployer hashed and signed the real image)."""
    idx = max(i for i, o in enumerate(items) if o.peer == node)
    env = wire.decode(items[idx].data, max_payload=len(items[idx].data))
    body = bytearray(env.payload_bytes())
    body[-1] ^= 0x5A
    bad = wire.Envelope.for_bytes(bytes(body), sender=env.sender, receiver=env.receiver, seq=env.seq,
                                  kind=env.kind, protocol=env.protocol, edge=env.edge)
    items[idx] = ota.Outgoing(node, items[idx].receiver, wire.encode(bad, max_payload=len(body)))
    return items


def nacks(tap: Any, sender: int, deadline: float) -> list[tuple[int, int]]:
    """(update id, code) of the NACKs from ``sender`` until one arrives or ``deadline`` (others are dropped);
    ``tap`` is an OtaTap (its ``inbox`` of decoded envelopes)."""
    out: list[tuple[int, int]] = []
    while time.monotonic() < deadline and not out:
        while tap.inbox:
            env = tap.inbox.popleft()
            if env.sender == sender and env.edge == ota.NACK:
                uid, code, _ = ota.decode_nack(bytes(env.payload_bytes()))
                out.append((uid, code))
        time.sleep(0.02)  # the tap fills the inbox from the transport's thread
    return out


#: the deployer's Ed25519 private key in the OTA tests
KEY = bytes(range(32))


def scaled_model(model: onnx.ModelProto, factor: float) -> onnx.ModelProto:
    """The same graph with every float initializer scaled: a retrained model with the same contract."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for init in m.graph.initializer:
        a = numpy_helper.to_array(init)
        if a.dtype == np.float32:
            init.CopyFrom(numpy_helper.from_array((a * factor).astype(np.float32), init.name))
    return m


def ota_cnn(seed: int = 0) -> onnx.ModelProto:
    """A small CNN (conv, relu, conv, relu, pool, gemm) with seeded random weights.

    The in-process unit tests use it (cheap to compile and run many times on 2 cores); the live-fleet
    test uses squeezenet with seeded weights (tests/support/models.py seeded_squeezenet).
    """
    from onnx import TensorProto, helper

    rng = np.random.default_rng(seed)

    def init(name: str, *shape: int) -> onnx.TensorProto:
        return numpy_helper.from_array((rng.standard_normal(shape) * 0.3).astype(np.float32), name)

    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c3"], ["r3"]),
        helper.make_node("GlobalAveragePool", ["r3"], ["p"]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("Gemm", ["f", "w4", "b4"], ["y"], transB=1),
    ]
    graph = helper.make_graph(
        nodes, "small_cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
        [init("w1", 8, 3, 3, 3), init("b1", 8), init("w2", 16, 8, 3, 3), init("b2", 16),
         init("w3", 16, 16, 3, 3), init("b3", 16), init("w4", 10, 16), init("b4", 10)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return model


def graph_inputs(model: onnx.ModelProto, seed: int) -> dict[str, np.ndarray]:
    """Random graph inputs (initializers listed as inputs in this old-IR model are left out)."""
    inits = {i.name for i in model.graph.initializer}
    return {k: v for k, v in random_inputs(model, seed).items() if k not in inits}


def public_key(private: bytes) -> bytes:
    """The raw Ed25519 public key of a raw 32-byte private key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return Ed25519PrivateKey.from_private_bytes(private).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


class Harness:
    """One node's engine with the OTA handler, and a deployer; bytes pass between them in this process."""

    def __init__(self, dep: Deployment, programs: dict[str, onnx.ModelProto], node: str = "n0",
                 inline: bool = True) -> None:
        self.dep = dep
        self.engine = Engine.for_node(dep, node, programs, inline_compute=inline)
        self.node = node
        self.handler = ota.OtaNode(self.engine, ota.OnnxLoader(self.engine), ota.ed25519_verifier(public_key(KEY)))
        self.engine.register_protocol(self.handler)
        self.seq = (7 << 32)
        self.now = 0.0
        self.nacks: list[tuple[int, int, str]] = []
        self.replies: list[wire.Envelope] = []

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def deployer(self, image: bytes, key: bytes = KEY, uid: int = 1, **kw: object) -> ota.OtaDeployer:
        upd = ota.NodeUpdate(self.node, image, ota.TARGET_ONNX, ota.ed25519_signer(key), chunk=1024)
        return ota.OtaDeployer(self.dep.ids(), [upd], self.next_seq, uid, **kw)  # type: ignore[arg-type]

    def send(self, items: list[ota.Outgoing]) -> None:
        for o in items:
            self.engine.deliver("_host", o.data)

    def pump(self, d: ota.OtaDeployer | None = None, rounds: int = 3) -> None:
        for _ in range(rounds):
            self.now += 0.01
            for out in self.engine.poll(self.now):
                env = wire.decode(out.data, max_payload=len(out.data))
                if env.protocol == ota.PROTO_OTA:
                    self.replies.append(env)
                    if env.edge == ota.NACK:
                        self.nacks.append(ota.decode_nack(bytes(env.payload_bytes())))
                    if d is not None:
                        d.on_envelope(env)
            if d is not None:
                self.send(d.poll(self.now))

    def events(self, kind: type) -> list[object]:
        return [e for e in self.engine.drain_events() if isinstance(e, kind)]


#: seconds a live OTA fleet may take to start, update and answer
FLEET_TIMEOUT = float(os.environ.get("OTA_FLEET_TIMEOUT", "90"))


def model_hash(model: onnx.ModelProto) -> bytes:
    """SHA-256 of the model's deterministic serialization."""
    return hashlib.sha256(model.SerializeToString(deterministic=True)).digest()


def over_the_line(path: str, envelope: bytes | list[bytes], timeout: float = 20.0) -> list[bytes]:
    """Open the line as n0 (id 1), send the envelope(s), return the data envelopes that come back."""
    from bb_edge.adapters.transports.serial_link import SerialLink, SerialSpec

    got: list[bytes] = []
    link = SerialLink.from_spec(SerialSpec.parse(f"serial:{path}"), name="n0", node_id=1, node_name="n0")
    link.start(lambda data: got.append(bytes(data)))
    try:
        deadline = time.monotonic() + timeout
        while link.link.peer is None:
            assert time.monotonic() < deadline, "no link HELLO from the C node"
            time.sleep(0.02)
        for env in [envelope] if isinstance(envelope, bytes) else envelope:
            link.send(env)
        while not any(wire.decode(g).kind == wire.KIND_DATA for g in got):
            assert time.monotonic() < deadline, got
            time.sleep(0.02)
        return [g for g in got if wire.decode(g).kind == wire.KIND_DATA]
    finally:
        link.close()


def gemm_model(n: int, seed: int, poison: bool = False) -> onnx.ModelProto:
    """y = relu(x @ W^T + b); ``poison``: one weight is +inf (it loads, but a run on zeros gives NaN)."""
    from onnx import TensorProto, helper, numpy_helper

    w = np.random.default_rng(seed).standard_normal((n, n)).astype(np.float32)
    if poison:
        w[0, 0] = np.inf
    g = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w", "b"], ["g"], transB=1), helper.make_node("Relu", ["g"], ["y"])],
        "gemm_c", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, n])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, n])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.zeros(n, np.float32), "b")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def no_ed25519(message: bytes) -> bytes:
    """An Ed25519 signer that must never be called: only the HMAC-keyed C node is updated."""
    raise AssertionError("only the C node is updated here (HMAC with its bundle's key)")


def c_request(blob: bytes) -> tuple[Callable[[int], bytes], bytes]:
    """For the C program ``blob``: a request builder (a seeded input on its input edge, request id 7, the given
    seq) and the payload the in-process C runtime answers to it, the oracle a node running ``blob`` must match."""
    prog = parse(blob)
    edge = next(e for e in prog.edges if e.direction == RECV)
    x = np.random.default_rng(1).standard_normal(prog.tensors[edge.tensor].shape).astype(np.float32)

    def request(seq: int) -> bytes:
        return wire.encode(wire.Envelope.for_array(x, sender=0, receiver=prog.node_id, seq=seq, request_id=7,
                                                   edge=edge.edge_id))

    ref = CNode(blob, prog.arena_size)
    ref.send(request((1 << 32) | 1))
    return request, bytes(wire.decode(ref.receive()[-1]).payload_bytes())


def program_image(programs: dict[str, onnx.ModelProto], node: str = "n0") -> bytes:
    """The update image of ``node``'s program (its serialised ONNX)."""
    return programs[node].SerializeToString()


def ota_envelope(h: Harness, edge: int, payload: bytes, sender: int = 0) -> bytes:
    """An OTA message (protocol 24, ``edge`` = its id) to the harness's node, encoded, in the harness's seq series."""
    from bb_edge.engine import ota
    from bb_edge.wire import envelope as wire

    env = wire.Envelope.for_bytes(payload, sender=sender, receiver=h.engine.node_id, seq=h.next_seq(),
                                  kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA, edge=edge)
    return wire.encode(env, max_payload=max(1, len(payload)))
