"""Int8 edges end to end (issue 16, item 1): the build makes the edges of an int8 bbrt node int8.

small_cnn split n0 -> n1 -> n2 -> n3 with n1 built for the host C runtime (the posix build, a real
process on pipes) and the rest in-process Python engines (ONNX Runtime). Checked against
independent oracles: the float32 model in ONNX Runtime, the same fleet built with
``--float-edges``, and the bytes on the wire. A payload quantized with other parameters is refused
by both kinds of node before it changes anything.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.adapters.devices.serial_devices import HostDevice
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bbrt.format import RECV, SEND, Op, parse
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.deployment.ports import wire_ports
from bb_edge.engine import events
from bb_edge.engine.edgequant import dequantize_edge, quantize_edge
from bb_edge.quant.edges import apply_int8_edges
from bb_edge.wire import Envelope, decode, encode
from tests.support.examples import sample_inputs, small_cnn

INT8_TOL = 0.05  # max abs error on the class probabilities (as tests/firmware/test_bbrt_e2e.py)
DT_INT8 = 3


def _compile(d: Path) -> Path:
    compile_model(small_cnn(), cuts=["p1", "r3", "g"], node_names=["n0", "n1", "n2", "n3"], out_dir=d)
    calib = sample_inputs(16, seed=7)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in calib]))
    return d / "calib.npz"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The split compiled once, n1 built for the host C runtime (int8 edges, the default)."""
    d, dist = tmp_path_factory.mktemp("dep"), tmp_path_factory.mktemp("dist")
    (res,) = build_all(d, ["n1=host"], dist, calib=_compile(d))
    assert res.deployment_dir is not None  # the build's own copy (dist/_deployment): d is left as compiled
    return res.deployment_dir, dist


def _edges(dep: Deployment) -> dict[tuple[str, str], object]:
    return {(e.src, e.dst): e for e in dep.edges}


def _run(dep: Deployment, dist: Path, n: int = 3) -> tuple[float, int, int, str]:
    """Worst error vs ORT float over ``n`` samples, bytes to / from the C node, its exit statistics."""
    ref = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    dev = HostDevice(dist / "n1" / "bbrt-host", dist / "n1" / "program.bbrt", dep.ids()["n1"]).start()
    try:
        fleet = InProcFleet(dep, external={"n1": dev})
        worst = 0.0
        for s in sample_inputs(n, seed=99):
            worst = max(worst, float(np.abs(fleet.infer(s)["prob"] - ref.run(None, s)[0]).max()))
        assert not dev.errors
        sent, got = dev.bytes_out, dev.bytes_in
    finally:
        stats = dev.stop()
    return worst, sent, got, stats


def test_build_makes_the_int8_nodes_edges_int8_with_one_set_of_parameters(built: tuple[Path, Path]) -> None:
    d, dist = built
    dep = load_deployment(d)
    e = _edges(dep)
    into, out_of, far = e[("n0", "n1")], e[("n1", "n2")], e[("n2", "n3")]
    assert into.dtype == out_of.dtype == "int8" and into.quant and out_of.quant  # type: ignore[attr-defined]
    assert far.dtype == "float32" and far.quant is None  # type: ignore[attr-defined]  # no end built now
    assert into.bytes_per_inference == int(np.prod(into.shape))  # type: ignore[attr-defined]  # 1 byte each
    prog = parse((dist / "n1" / "program.bbrt").read_bytes())
    # the C program: no QUANTIZE/DEQUANTIZE, its edge tensors int8 with exactly the manifest's parameters
    assert not {Op.QUANTIZE, Op.DEQUANTIZE} & {op.opcode for op in prog.ops}
    for edge, spec in ((next(x for x in prog.edges if x.direction == RECV), into),
                       (next(x for x in prog.edges if x.direction == SEND), out_of)):
        t = prog.tensors[edge.tensor]
        assert edge.elem_type == t.dtype == DT_INT8
        assert np.float32(t.scale) == np.float32(spec.quant["scale"])  # type: ignore[attr-defined]
        assert t.zero_point == spec.quant["zero_point"]  # type: ignore[attr-defined]
    # the Python ends carry the same parameters in their bb.wire ops
    n0_send = next(p for p in wire_ports(dep.program("n0")) if p.op == "Send")
    n2_recv = next(p for p in wire_ports(dep.program("n2")) if p.op == "Recv")
    assert n0_send.quant == (into.quant["scale"], into.quant["zero_point"])  # type: ignore[attr-defined]
    assert n2_recv.quant == (out_of.quant["scale"], out_of.quant["zero_point"])  # type: ignore[attr-defined]
    assert n0_send.elem_type == DT_INT8 and n0_send.compute_elem_type == 1


def test_int8_fleet_matches_float_and_carries_a_quarter_of_the_bytes(built: tuple[Path, Path],
                                                                     tmp_path: Path) -> None:
    d, dist = built
    worst, sent8, got8, stats = _run(load_deployment(d), dist)
    assert worst <= INT8_TOL, f"int8-edge fleet error {worst:.4f} exceeds {INT8_TOL}"
    assert re.search(r"edge_mismatch=0\b", stats), stats
    # oracle: the same fleet with --float-edges (copied, so the module's deployment stays int8)
    d2, dist2 = tmp_path / "dep", tmp_path / "dist"
    shutil.copytree(d, d2)
    (res2,) = build_all(d2, ["n1=host"], dist2, calib=d2 / "calib.npz", options={"float_edges": True})
    dep2 = load_deployment(res2.deployment_dir or d2)
    assert all(e.quant is None and e.dtype == "float32" for e in dep2.edges)
    prog2 = parse((dist2 / "n1" / "program.bbrt").read_bytes())
    assert {Op.QUANTIZE, Op.DEQUANTIZE} <= {op.opcode for op in prog2.ops}  # float edges convert inside
    worst32, sent32, got32, _ = _run(dep2, dist2)
    assert worst32 <= INT8_TOL
    # the payloads are 1/4 of the float ones; headers, frames and the link's ACKs add the same to both
    assert sent8 < 0.5 * sent32 and got8 < 0.5 * got32, (sent8, sent32, got8, got32)


def test_c_node_refuses_other_parameters_before_using_them(built: tuple[Path, Path]) -> None:
    d, dist = built
    dep = load_deployment(d)
    ids = dep.ids()
    into = _edges(dep)[("n0", "n1")]
    q = (float(into.quant["scale"]), int(into.quant["zero_point"]))  # type: ignore[attr-defined]
    x = np.random.default_rng(1).standard_normal(into.shape).astype(np.float32)  # type: ignore[attr-defined]
    dev = HostDevice(dist / "n1" / "bbrt-host", dist / "n1" / "program.bbrt", ids["n1"]).start()
    try:
        def send(quant: tuple[float, int], seq: int, rid: int) -> None:
            env = Envelope.for_array(quantize_edge(x, quant), sender=ids["n0"], receiver=ids["n1"],
                                     seq=(7 << 32) | seq, request_id=rid, edge=into.id, quant=quant)  # type: ignore[attr-defined]
            dev.send(encode(env))

        send((q[0] * 2, q[1]), 1, 1)  # other scale: refused
        send((q[0], q[1] + 1 if q[1] < 127 else q[1] - 1), 2, 2)  # other zero point: refused
        send(q, 3, 3)  # the contract's: runs
        out = dev.wait_data(1, 10.0)
        dev.pump_for(0.3)
        out += dev.receive()
    finally:
        stats = dev.stop()
    envs = [decode(o) for o in out]
    assert [e.request_id for e in envs if e.kind == 0] == [3]
    assert re.search(r"edge_mismatch=2\b", stats), stats
    assert re.search(r"inferences=1\b", stats), stats


def test_python_ends_quantize_dequantize_and_refuse_other_parameters(tmp_path: Path) -> None:
    """Two Python engines on an int8 edge (no C node): the sender quantizes, the receiver dequantizes."""
    d = tmp_path / "dep"
    _compile(d)
    dep = load_deployment(d)
    e = _edges(dep)[("n1", "n2")]
    q = (0.05, -7)
    dep = apply_int8_edges(d, {e.id: q}, {})  # type: ignore[attr-defined]
    fleet = InProcFleet(dep)
    ref = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    s = sample_inputs(1, seed=4)[0]
    out = fleet.infer(s)["prob"]
    assert np.abs(out - ref.run(None, s)[0]).max() <= INT8_TOL
    # a payload quantized with other parameters is refused before it reaches a request
    n2 = fleet.engines["n2"]
    n2.deliver("n1", encode(Envelope.for_array(quantize_edge(np.ones(e.shape, np.float32), (0.5, 0)),
                                                sender=dep.ids()["n1"], receiver=dep.ids()["n2"],
                                                seq=(9 << 32) | 1, request_id=77, edge=e.id, quant=(0.5, 0))))  # type: ignore[attr-defined]
    n2.poll(fleet.now)
    evs = n2.drain_events()
    bad = [x for x in evs if isinstance(x, events.ContractViolation)]
    assert bad and "scale" in bad[0].expected, evs  # other parameters: refused
    assert not any(getattr(x, "request_id", None) == 77 for x in evs if not isinstance(x, events.ContractViolation))


def test_edge_quantization_rounds_like_the_c_runtime() -> None:
    """Round half to even in float32, saturate: the same int8 as ONNX QuantizeLinear (the oracle)."""
    from onnx import TensorProto, helper

    x = np.array([-1000.0, -0.075, -0.025, 0.0, 0.025, 0.075, 0.1249, 6.4, 1000.0], np.float32)
    q = (0.05, -3)
    g = helper.make_graph([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])], "q",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [len(x)])],
                          [helper.make_tensor_value_info("y", TensorProto.INT8, [len(x)])],
                          [helper.make_tensor("s", TensorProto.FLOAT, [], [q[0]]),
                           helper.make_tensor("z", TensorProto.INT8, [], [q[1]])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_array_equal(quantize_edge(x, q), want)
    np.testing.assert_allclose(dequantize_edge(want, q), (want.astype(np.float32) - q[1]) * np.float32(q[0]))


def test_python_node_takes_an_int8_graph_input_from_the_host(tmp_path: Path) -> None:
    """A graph input carried as int8 (its node later runs in Python, e.g. a standby or `bb-edge node`):
    the engine takes the host's int8 envelope and refuses a float32 one on that edge."""
    from bb_edge.engine import Engine

    d = tmp_path / "dep"
    _compile(d)
    q = (0.03, 5)
    dep = apply_int8_edges(d, {}, {"x": q})
    spec = dep.inputs[0]
    eng = Engine.for_node(dep, spec.node)
    x = sample_inputs(1, seed=2)[0]["x"]

    def deliver(arr: np.ndarray, quant: tuple[float, int] | None, seq: int) -> list[events.Event]:
        eng.deliver("_host", encode(Envelope.for_array(arr, sender=0, receiver=dep.ids()[spec.node], quant=quant,
                                                       seq=(3 << 32) | seq, request_id=seq, edge=spec.edge_id)))
        eng.poll(0.0)
        return eng.drain_events()

    bad = deliver(x, None, 1)
    assert any(isinstance(e, events.ContractViolation) for e in bad), bad
    good = deliver(quantize_edge(x, q), q, 2)
    assert not any(isinstance(e, events.ContractViolation) for e in good), good
    assert any(isinstance(e, events.SegmentComputed) and e.request_id == 2 for e in good), good


def test_micropython_node_takes_int8_edges_like_the_c_node(tmp_path: Path) -> None:
    """The MicroPython node (bbnode/node.py in the WebAssembly VM) on an int8 graph input: other
    parameters are refused (EDGE_MISMATCH), the contract's are copied as they are; its frames out
    are byte-identical to the C node's on the same stream."""
    import ctypes

    from bb_edge.bbrt.host import aligned
    from bb_edge.bbrt.lower import lower
    from bb_edge.bbrt.native import load_host_library
    from bb_edge.wire.framing import FrameDecoder, frame
    from tests.support.mpy_vm import prepare_vm, run_vm

    feeds = sample_inputs(2)
    floaty = lower(small_cnn(), calib=feeds, node_id=3)
    q = floaty.qparams["x"]
    L = lower(small_cnn(), calib=feeds, node_id=3, io_quant={"x": q})
    recv = next(e for e in L.program.edges if e.direction == RECV)
    assert L.program.tensors[recv.tensor].dtype == DT_INT8
    xq = quantize_edge(feeds[0]["x"], q)
    stream = b""
    for k, quant in enumerate([(q[0] * 2, q[1]), (q[0], q[1] - 1 if q[1] > -128 else q[1] + 1), q]):
        stream += frame(encode(Envelope.for_array(xq, sender=0, receiver=3, seq=10 + k, request_id=100 + k,
                                                  edge=recv.edge_id, quant=quant)))
    lib_c = load_host_library()
    blob = aligned(len(L.blob))
    blob[:] = np.frombuffer(L.blob, np.uint8)
    arena = aligned(max(8, L.program.arena_size))
    assert lib_c.bbrtpy_node_init(blob.ctypes.data, len(L.blob), arena.ctypes.data, len(arena)) == 0
    outbuf = ctypes.create_string_buffer(1 << 20)
    n = lib_c.bbrtpy_node_feed(stream, len(stream), outbuf, len(outbuf))
    ref = outbuf.raw[:n]
    outs = [decode(f) for f in FrameDecoder().feed(ref)]
    assert [e.request_id for e in outs] == [102]  # only the envelope with the contract's parameters ran
    driver, lib = prepare_vm(tmp_path / "lib")
    (tmp_path / "prog.bbrt").write_bytes(L.blob)
    (tmp_path / "stream.bin").write_bytes(stream)
    out = run_vm(driver, lib, tmp_path, """
import os
from bbnode.executor import Program
from bbnode.node import Node
class Uart:
    def __init__(self):
        self.out = bytearray()
    def write(self, b):
        self.out.extend(b)
u = Uart()
n = Node(Program(open('prog.bbrt', 'rb').read()), u, max_payload=65536, boot_epoch=EPOCH)
n.feed(open('stream.bin', 'rb').read())
os.mkdir('out')
open('out/frames.bin', 'wb').write(u.out)
print('STATS', n.stats.inferences, n.stats.edge_mismatch)
""".replace("EPOCH", str(outs[0].seq >> 32)))
    assert "STATS 1 2" in out, out
    assert (tmp_path / "out" / "frames.bin").read_bytes() == ref


def test_nodes_built_in_separate_runs_share_their_edge(built: tuple[Path, Path], tmp_path: Path) -> None:
    """n2 built later, alone: the n1 -> n2 edge keeps the parameters n1 was built with, and the fleet
    with both C nodes (from the two runs) matches float."""
    d, dist = built
    d2, dist2 = tmp_path / "dep", tmp_path / "dist"
    shutil.copytree(d, d2)
    before = _edges(load_deployment(d2))[("n1", "n2")].quant  # type: ignore[attr-defined]
    (res2,) = build_all(d2, ["n2=host"], dist2, calib=d2 / "calib.npz")
    dep = load_deployment(res2.deployment_dir or d2)
    e = _edges(dep)
    assert e[("n1", "n2")].quant == before  # type: ignore[attr-defined]
    assert e[("n2", "n3")].dtype == "int8" and e[("n0", "n1")].dtype == "int8"  # type: ignore[attr-defined]
    ids = dep.ids()
    ref = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    with HostDevice(dist / "n1" / "bbrt-host", dist / "n1" / "program.bbrt", ids["n1"]).start() as a, \
            HostDevice(dist2 / "n2" / "bbrt-host", dist2 / "n2" / "program.bbrt", ids["n2"]).start() as b:
        fleet = InProcFleet(dep, external={"n1": a, "n2": b})
        for s in sample_inputs(2, seed=5):
            assert np.abs(fleet.infer(s)["prob"] - ref.run(None, s)[0]).max() <= INT8_TOL
        assert not a.errors and not b.errors


def test_host_loop_over_serial_carries_graph_input_and_output_as_int8(tmp_path: Path) -> None:
    """The host loop (bb-edge run --transport serial://pty, real ptys) on a deployment whose graph input
    and output are int8 on the wire: it quantizes x, the Python nodes dequantize/quantize, it
    dequantizes prob. Every output value sits on the int8 grid of the output's parameters."""
    from bb_edge.commands.run import run_deployment

    d = tmp_path / "dep"
    compile_model(small_cnn(), cuts=["g"], node_names=["n0", "n1"], out_dir=d)
    qx, qy = (0.02, 3), (1.0 / 256, -128)
    dep = apply_int8_edges(d, {_edges(load_deployment(d))[("n0", "n1")].id: (0.01, -5)},  # type: ignore[attr-defined]
                           {"x": qx, "prob": qy})
    assert dep.inputs[0].quant and dep.outputs[0].quant and dep.inputs[0].dtype == "float32"
    ref = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    requests = sample_inputs(3, seed=8)
    outs = run_deployment(dep, requests, "serial://pty")
    for s, o in zip(requests, outs, strict=True):
        y = o["prob"]
        assert y.dtype == np.float32
        grid = y / np.float32(qy[0]) + qy[1]
        np.testing.assert_allclose(grid, np.rint(grid), atol=1e-3)  # dequantized int8, not a float32 result
        assert np.abs(y - ref.run(None, s)[0]).max() <= INT8_TOL
