"""The MicroPython node runtime in the real MicroPython VM (npm WebAssembly port, driven from Node).

Covered in the VM: envelope codec (golden vectors), serial framing, .bbrt executor (int8 and
float32, bit-identical to the C host runtime), the node loop over an in-memory UART (frame for
frame identical to the C node), and the allocation-free int8 inference loop. Not covered: umqtt
itself (the MQTT transport runs against Mosquitto in tests/micropython/test_micropython_mqtt.py) and machine.UART.
"""

from __future__ import annotations

import ctypes
import json
import shutil
from pathlib import Path

import numpy as np
import onnx
import pytest

from bb_edge.bbrt.format import Op as FmtOp
from bb_edge.bbrt.host import HostProgram, aligned
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bbrt.native import load_host_library
from bb_edge.wire.envelope import Envelope, encode
from bb_edge.wire.envelope import decode as decode_envelope
from bb_edge.wire.framing import FrameDecoder, cobs_encode, frame
from tests.support.examples import sample_inputs, small_cnn
from tests.support.models import gemm_relu, unfold_fc
from tests.support.mpy_vm import cnn_without_softmax, prepare_vm, run_vm

VECTORS = Path(__file__).resolve().parents[1] / "vectors"


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return prepare_vm(tmp_path_factory.mktemp("mpylib"))


def test_golden_vectors_decode_and_reencode_in_vm(vm: tuple[Path, Path], tmp_path: Path) -> None:
    driver, lib = vm
    shutil.copytree(VECTORS, tmp_path / "vectors")
    out = run_vm(driver, lib, tmp_path, """
import json
from bbnode import envelope as E, framing as F
spec = json.load(open('vectors/vectors.json'))
res = {'valid': {}, 'invalid': {}}
for name in spec['valid']:
    b = open('vectors/%s.bin' % name, 'rb').read()
    fr = open('vectors/%s.frame' % name, 'rb').read()
    e = E.decode(b, spec['max_payload'])
    d = F.Deframer(len(b) + 8)
    got = [n for n in (d.push(x) for x in fr) if n >= 0]
    res['valid'][name] = {'kind': e.kind, 'flags': e.flags, 'protocol': e.protocol, 'sender': e.sender,
        'receiver': e.receiver, 'seq': e.seq, 'request_id': e.request_id, 'response_to': e.response_to,
        'edge': e.edge, 'dtype': e.dtype, 'dims': list(e.dims), 'scale': e.scale, 'zero_point': e.zero_point,
        'payload_len': len(e.payload), 'step': e.step, 'reencoded': E.encode(e) == b, 'frame': F.encode(b) == fr,
        'deframed': len(got) == 1 and bytes(d.env[:got[0]]) == b}
for name in spec['invalid']:
    try:
        E.decode(open('vectors/invalid/%s.bin' % name, 'rb').read(), spec['max_payload'])
        res['invalid'][name] = 'ACCEPTED'
    except E.EnvelopeError as exc:
        res['invalid'][name] = exc.code
print(json.dumps(res))
""")
    res = json.loads(out.strip().splitlines()[-1])
    spec = json.loads((VECTORS / "vectors.json").read_text())
    assert set(res["valid"]) == set(spec["valid"])
    for name, v in spec["valid"].items():
        got = res["valid"][name]
        assert got["reencoded"] and got["frame"] and got["deframed"], name
        for k in ("kind", "flags", "protocol", "sender", "receiver", "seq", "request_id", "response_to", "edge",
                  "dtype", "dims", "zero_point", "payload_len", "step"):
            assert got[k] == v[k], (name, k)
        assert np.float32(got["scale"]) == np.float32(v["scale"]), name
    assert res["invalid"] == spec["invalid"]


def _c_outputs(blob: bytes, program, feed_idx: int, xs: list[np.ndarray]) -> list[list[bytes]]:  # type: ignore[no-untyped-def]
    h = HostProgram(blob, program)
    outs = []
    for x in xs:
        h.run({feed_idx: x})
        outs.append([h.view(e.tensor).tobytes() for e in program.edges if e.direction == 1])
    return outs


def _assert_executor_equals_c(vm: tuple[Path, Path], tmp_path: Path, L: Lowered, xi: int,
                              feeds: list[dict[str, np.ndarray]]) -> None:
    """Run ``L`` on every feed (input tensor ``xi``) in bbnode's executor in the VM: its Send tensors' bytes
    must equal the C runtime's (host build) for each sample."""
    driver, lib = vm
    (tmp_path / "prog.bbrt").write_bytes(L.blob)
    for k, f in enumerate(feeds):
        (tmp_path / f"in{k}.bin").write_bytes(f["x"].astype("<f4").tobytes())
    sends = [e.tensor for e in L.program.edges if e.direction == 1]
    run_vm(driver, lib, tmp_path, f"""
from bbnode.executor import Program
import os
P = Program(open('prog.bbrt', 'rb').read())
os.mkdir('out')
for k in range({len(feeds)}):
    P.write_bytes({xi}, open('in%d.bin' % k, 'rb').read())
    P.run()
    with open('out/out%d.bin' % k, 'wb') as f:
        for t in {sends}:
            f.write(P.read_bytes(t))
""")
    ref = _c_outputs(L.blob, L.program, xi, [f["x"] for f in feeds])
    for k in range(len(feeds)):
        assert (tmp_path / "out" / f"out{k}.bin").read_bytes() == b"".join(ref[k]), f"sample {k}"


@pytest.mark.parametrize("precision", ["int8", "fp32"])
def test_executor_outputs_equal_c_runtime(vm: tuple[Path, Path], tmp_path: Path, precision: str) -> None:
    """bbnode's executor and the C runtime give the same output bytes for small_cnn, int8 and float32."""
    feeds = sample_inputs(3)
    L = lower(small_cnn(), precision=precision, calib=feeds)
    _assert_executor_equals_c(vm, tmp_path, L, L.float_index["x"], feeds)


def _gemm_off_zero(rows: int, k: int, n: int, seed: int) -> tuple[onnx.ModelProto, list[dict[str, np.ndarray]]]:
    """y = Relu(x W^T + b) with calibration inputs off zero (a nonzero input zero point for FC_I8)."""
    rng = np.random.default_rng(seed)
    m = gemm_relu(rows, k, n, rng)
    return m, [{"x": (rng.standard_normal((rows, k)) + 0.8).astype(np.float32)} for _ in range(3)]


@pytest.mark.parametrize("folded", [True, False])
def test_executor_fc_zero_point_equals_c_runtime(vm: tuple[Path, Path], tmp_path: Path, folded: bool) -> None:
    """FC_I8 with a nonzero input zero point, folded into the bias (param 2 = 1) or not (older programs)."""
    m, feeds = _gemm_off_zero(3, 37, 9, 11)
    L = lower(m, precision="int8", calib=feeds)
    fc = [op for op in L.program.ops if op.opcode == FmtOp.FC_I8]
    assert fc and fc[0].params[2] == 1 and L.program.tensors[fc[0].inputs[0]].zero_point != 0
    if not folded:
        L = unfold_fc(L)
    _assert_executor_equals_c(vm, tmp_path, L, next(e.tensor for e in L.program.edges if e.direction == 0), feeds)


def test_int8_inference_loop_allocates_nothing(vm: tuple[Path, Path], tmp_path: Path) -> None:
    driver, lib = vm
    feeds = sample_inputs(2)
    L = lower(cnn_without_softmax(), precision="int8", calib=feeds)
    (tmp_path / "prog.bbrt").write_bytes(L.blob)
    (tmp_path / "in.bin").write_bytes(feeds[0]["x"].astype("<f4").tobytes())
    out = run_vm(driver, lib, tmp_path, f"""
import gc
from bbnode.executor import Program
P = Program(open('prog.bbrt', 'rb').read())
P.write_bytes({L.float_index["x"]}, open('in.bin', 'rb').read())
P.run()
def measure(n):
    run = P.run
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    for i in range(n):
        run()
    a1 = gc.mem_alloc()
    gc.enable()
    return a1 - a0
measure(1)
print('ALLOC', measure(20))
""")
    line = [s for s in out.splitlines() if s.startswith("ALLOC")][-1]
    assert int(line.split()[1]) == 0, line


def test_node_loop_frames_equal_c_node(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """Frames in over an in-memory UART; the frames out are byte-identical to the C node's."""
    driver, lib = vm
    feeds = sample_inputs(2)
    L = lower(small_cnn(), precision="int8", calib=feeds, node_id=3)
    recv = next(e for e in L.program.edges if e.direction == 0)
    stream = b"\x00garbage\x00"
    for k, f in enumerate(feeds):
        env = Envelope(kind=0, protocol=0, sender=0, receiver=3, seq=10 + k, request_id=100 + k, edge=recv.edge_id,
                       dtype=1, dims=(1, 3, 16, 16), data=f["x"].astype("<f4").tobytes())
        stream += frame(encode(env))
    ping = Envelope(kind=1, protocol=1, sender=0, receiver=3, seq=50, request_id=7, edge=2, dtype=2, dims=(0,),
                    data=b"")
    stream += frame(encode(ping)) + cobs_encode(b"\x01\x02\x03") + b"\x00"
    lib_c = load_host_library()
    blob = aligned(len(L.blob))
    blob[:] = np.frombuffer(L.blob, np.uint8)
    arena = aligned(max(8, L.program.arena_size))
    assert lib_c.bbrtpy_node_init(blob.ctypes.data, len(L.blob), arena.ctypes.data, len(arena)) == 0
    outbuf = ctypes.create_string_buffer(1 << 20)
    ref = b""
    for i in range(0, len(stream), 37):
        chunk = stream[i:i + 37]
        n = lib_c.bbrtpy_node_feed(chunk, len(chunk), outbuf, len(outbuf))
        assert n >= 0
        ref += outbuf.raw[:n]
    # the C node numbers its envelopes (boot_epoch << 32) | n; the VM node boots with the same epoch
    epoch = decode_envelope(FrameDecoder().feed(ref)[0]).seq >> 32
    (tmp_path / "prog.bbrt").write_bytes(L.blob)
    (tmp_path / "stream.bin").write_bytes(stream)
    run_vm(driver, lib, tmp_path, """
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
data = open('stream.bin', 'rb').read()
for i in range(0, len(data), 37):
    n.feed(data[i:i + 37])
os.mkdir('out')
open('out/frames.bin', 'wb').write(u.out)
print('STATS', n.stats.inferences, n.stats.pings, n.stats.bad_frames)
""".replace("EPOCH", str(epoch)))
    got = (tmp_path / "out" / "frames.bin").read_bytes()
    assert ref.count(b"\x00") == 3  # two outputs and a PONG
    assert got == ref
