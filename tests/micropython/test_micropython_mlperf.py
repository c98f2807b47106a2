"""MicroPython runs MLPerf Tiny's anomaly autoencoder (ad), keyword spotting (kws) and streaming wake word
(strww, NHWC input read in place) int8 models (issue 29).

The programs are the same QDQ lowerings the C runtime runs (bb_edge/bbrt/lower_qdq.py: the models' own
scales, TFLite's integer requantization, AVGPOOL_I8 in TFLite's integer mode, SOFTMAX_I8 with TFLite's exp
table). bbnode's executor runs them in the real MicroPython VM (WebAssembly port, a 32-bit port with boxed
floats and 31-bit small ints, as the ESP32) and every output byte must equal both the C host build's and
the TFLite interpreter's stored output (``tflite_output``, the independent oracle), and an inference must
allocate nothing (``gc.mem_alloc()`` unchanged, GC disabled).

Memory: this VM port neither bounds its heap nor frees anything inside one script run, so the RAM the
loaded program holds is counted on the same executor under CPython (every ``array`` it keeps: arenas,
constants, threshold and lookup tables) and must stay within HELD_BUDGET, with the program file on top
while it loads: an ESP32 with 2 MiB or more of PSRAM as MicroPython heap holds any of the three; a board
without PSRAM (about 100-200 KiB of heap) holds none (ad's weights alone are 272 KiB).

The models' reference outputs do not reach the cases where TFLite's average pool (sum of codes, rounded
half away from zero) and softmax (its float exp table) differ from the runtime's own int8 modes, so small
QDQ models built here hold those kernels to the C runtime on random inputs where they do; two more do the
same for the NHWC-input conv (as ic, vww and strww's first convs) and the executor's pointwise loop.

CI: inputs 0 and 1 of each model; ``BB_EDGE_LONG=1``: all 8.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from bb_edge.bbrt.format import RECV, SEND, Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import lower
from tests.support.mlperf import MPY_BENCH_SCRIPT, device_input, lowered, reference, run_host
from tests.support.mpy_vm import prepare_vm, run_vm

LONG = os.environ.get("BB_EDGE_LONG") == "1"
N_INPUTS = 8 if LONG else 2
HELD_BUDGET = 1 << 20  # bytes the loaded program may hold (half of a 2 MiB PSRAM heap)
MPY_DIR = Path(__file__).resolve().parents[2] / "firmware" / "micropython"


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return prepare_vm(tmp_path_factory.mktemp("mpylib"))


@pytest.mark.parametrize("name", ["ad", "kws", "strww"])
def test_micropython_equals_c_runtime_and_tflite(vm: tuple[Path, Path], tmp_path: Path, name: str) -> None:
    """Same QDQ program, same bytes out: MicroPython == C host build == TFLite, allocation-free inference."""
    driver, lib = vm
    _, x, y = reference(name)
    x, y = x[:N_INPUTS], y[:N_INPUTS].reshape(N_INPUTS, -1)
    L = lowered(name)
    rin = next(e.tensor for e in L.program.edges if e.direction == RECV)
    sout = next(e.tensor for e in L.program.edges if e.direction == SEND)
    (tmp_path / "prog.bbrt").write_bytes(L.blob)
    for k in range(N_INPUTS):
        (tmp_path / f"in{k}.bin").write_bytes(device_input(L, x[k:k + 1]).astype(np.int8).tobytes())
    script = MPY_BENCH_SCRIPT.replace("RIN", str(rin)).replace("SOUT", str(sout)).replace("N)", f"{N_INPUTS})")
    out = run_vm(driver, lib, tmp_path, script, timeout=600)
    res = json.loads(next(s for s in out.splitlines() if s.startswith("RESULT"))[len("RESULT "):])
    got = np.stack([np.frombuffer((tmp_path / "out" / f"out{k}.bin").read_bytes(), np.int8)
                    for k in range(N_INPUTS)])
    np.testing.assert_array_equal(got, run_host(L, x))  # the C runtime on the same program
    np.testing.assert_array_equal(got, y)  # TFLite's own outputs
    assert res["alloc"] == [0] * N_INPUTS, res  # the int8 path (softmax included) allocates nothing
    assert res["arena_bytes"] == L.program.arena_size
    held = held_bytes(L.blob)
    assert held["arena"] == L.program.arena_size + 8 + 4 * 2  # int8 arena (+8) and the empty float arena (2 cells)
    assert sum(held.values()) + len(L.blob) <= HELD_BUDGET, held
    print(f"\n{name}: held {held} (program file {len(L.blob)} B; the VM's load allocates {res['load_bytes']} B "
          f"with garbage, in {res['load_ms']} ms), ms per inference in the VM {res['ms']}")


def held_bytes(blob: bytes) -> dict[str, int]:
    """Bytes of every ``array`` the loaded executor keeps (arenas, constants, kernel tables), by kind."""
    import array
    import sys

    sys.path.insert(0, str(MPY_DIR))
    try:
        from bbnode.executor import Program
    finally:
        sys.path.remove(str(MPY_DIR))
    P = Program(blob)

    def size(a: object) -> int:
        return a.itemsize * len(a) if isinstance(a, array.array) else 0

    consts = sum(size(t.buf) for t in P.tensors if t.storage == 1)
    tables = sum(size(v) for k in P.kernels for v in vars(k).values())
    return {"arena": size(P.arena_b) + size(P.arena_f), "constants": consts, "tables": tables}


def _qdq_model(op: onnx.NodeProto, shape: list[int], out_shape: list[int], sx: float, zx: int, sy: float,
               zy: int) -> onnx.ModelProto:
    """int8 x -> DequantizeLinear -> ``op`` (reads "xf", writes "yf") -> QuantizeLinear -> int8 y."""
    init = [helper.make_tensor("sx", TensorProto.FLOAT, [], [sx]), helper.make_tensor("zx", TensorProto.INT8, [], [zx]),
            helper.make_tensor("sy", TensorProto.FLOAT, [], [sy]), helper.make_tensor("zy", TensorProto.INT8, [], [zy])]
    g = helper.make_graph(
        [helper.make_node("DequantizeLinear", ["x", "sx", "zx"], ["xf"], name="dq"), op,
         helper.make_node("QuantizeLinear", ["yf", "sy", "zy"], ["y"], name="q"),
         helper.make_node("DequantizeLinear", ["y", "sy", "zy"], ["yd"], name="dq_out")],
        "k", [helper.make_tensor_value_info("x", TensorProto.INT8, shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT8, out_shape)], init)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def _conv(nhwc: bool) -> onnx.ModelProto:
    """int8 x -> DQ -> Conv (per-channel int8 weights, int32 bias) -> Q. ``nhwc``: a 3x3/2 conv behind the
    converter's NHWC -> NCHW Transpose, which the lowering drops (the conv reads the NHWC input in place,
    CONV_I8 p15 = 1); else a pointwise conv (the executor's folded-bias loop) whose requantization step is
    below one accumulator unit, so an accumulator off by one shows in the output."""
    rng = np.random.default_rng(3)
    sx, ws = 0.05, rng.uniform(0.002, 0.02, 4).astype(np.float32)
    sy = 0.04 if nhwc else 0.0002
    init = [helper.make_tensor("sx", TensorProto.FLOAT, [], [sx]), helper.make_tensor("zx", TensorProto.INT8, [], [7]),
            helper.make_tensor("sy", TensorProto.FLOAT, [], [sy]),
            helper.make_tensor("zy", TensorProto.INT8, [], [-5]),
            onnx.numpy_helper.from_array(rng.integers(-127, 128, (4, 3, 3, 3) if nhwc else (4, 3, 1, 1))
                                         .astype(np.int8), "w"),
            onnx.numpy_helper.from_array(ws, "ws"), onnx.numpy_helper.from_array(np.zeros(4, np.int8), "wz"),
            onnx.numpy_helper.from_array(rng.integers(-3000, 3000, 4).astype(np.int32), "b"),
            onnx.numpy_helper.from_array((np.float32(sx) * ws).astype(np.float32), "bs"),
            onnx.numpy_helper.from_array(np.zeros(4, np.int32), "bz")]
    conv = (helper.make_node("Conv", ["xf", "wf", "bf"], ["yf"], name="conv", kernel_shape=[3, 3], strides=[2, 2],
                             pads=[1, 1, 1, 1]) if nhwc else
            helper.make_node("Conv", ["xf", "wf", "bf"], ["yf"], name="conv", kernel_shape=[1, 1]))
    g = helper.make_graph(
        ([helper.make_node("Transpose", ["x"], ["xt"], name="to_nchw", perm=[0, 3, 1, 2])] if nhwc else []) +
        [helper.make_node("DequantizeLinear", ["xt" if nhwc else "x", "sx", "zx"], ["xf"], name="dq"),
         helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wf"], name="dq_w", axis=0),
         helper.make_node("DequantizeLinear", ["b", "bs", "bz"], ["bf"], name="dq_b", axis=0), conv,
         helper.make_node("QuantizeLinear", ["yf", "sy", "zy"], ["y"], name="q")],
        "k", [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 7, 6, 3] if nhwc else [1, 3, 7, 6])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 4, 4, 3] if nhwc else [1, 4, 7, 6])], init)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


KERNEL_MODELS = {
    "conv_nhwc": (lambda: _conv(True), Op.CONV_I8),
    "conv_pointwise": (lambda: _conv(False), Op.CONV_I8),
    # 3x3 windows, stride 2, one pixel of padding not counted: window counts 4, 6 and 9, many exact halves
    "avgpool": (lambda: _qdq_model(helper.make_node("AveragePool", ["xf"], ["yf"], name="pool", kernel_shape=[3, 3],
                                                    strides=[2, 2], pads=[1, 1, 1, 1]),
                                   [1, 16, 9, 9], [1, 16, 5, 5], 0.05, -3, 0.05, -3), Op.AVGPOOL_I8),
    "softmax": (lambda: _qdq_model(helper.make_node("Softmax", ["xf"], ["yf"], name="softmax", axis=-1),
                                   [64, 12], [64, 12], 0.0625, 5, 1.0 / 256, -128), Op.SOFTMAX_I8),
}


@pytest.mark.parametrize("kind", sorted(KERNEL_MODELS))
def test_tflite_mode_kernels_equal_c_runtime(vm: tuple[Path, Path], tmp_path: Path, kind: str) -> None:
    """AVGPOOL_I8 in TFLite's integer mode, SOFTMAX_I8 with TFLite's exp table, CONV_I8 on an NHWC input
    (p15 = 1) and a pointwise CONV_I8 (the folded-bias loop): MicroPython == C."""
    driver, lib = vm
    make, opcode = KERNEL_MODELS[kind]
    L = lower(make(), io_edges=None)
    op = next(o for o in L.program.ops if o.opcode == opcode)
    params = list(op.params) + [0] * 16
    if kind == "avgpool":
        assert params[9] == 1  # TFLite's integer mode
    elif kind == "softmax":
        assert len(op.inputs) == 2  # TFLite's exp table
    elif kind == "conv_nhwc":
        assert params[15] == 1  # the NHWC input read in place
    else:
        pointwise = params[0] == params[1] == 1 and not any(params[2:6])  # stride 1, no padding
        assert L.program.tensors[op.inputs[1]].shape[2:] == (1, 1) and pointwise
    rin = next(e.tensor for e in L.program.edges if e.direction == RECV)
    sout = next(e.tensor for e in L.program.edges if e.direction == SEND)
    shape = L.program.tensors[rin].shape
    rng = np.random.default_rng(29)
    xs = [rng.integers(-128, 128, shape).astype(np.int8) for _ in range(8)]
    (tmp_path / "prog.bbrt").write_bytes(L.blob)
    for k, x in enumerate(xs):
        (tmp_path / f"in{k}.bin").write_bytes(x.tobytes())
    script = MPY_BENCH_SCRIPT.replace("RIN", str(rin)).replace("SOUT", str(sout)).replace("N)", f"{len(xs)})")
    res = json.loads(next(s for s in run_vm(driver, lib, tmp_path, script).splitlines()
                          if s.startswith("RESULT"))[len("RESULT "):])
    hp = HostProgram(L.blob, L.program)
    for k, x in enumerate(xs):
        hp.run({rin: x})
        assert (tmp_path / "out" / f"out{k}.bin").read_bytes() == hp.view(sout).tobytes(), f"input {k}"
    assert res["alloc"] == [0] * len(xs), res


def test_threshold_tables_give_the_c_requantization() -> None:
    """Compact (byte) and full (int32) threshold tables against the C arithmetic itself (lower_qdq.mbqm,
    then zero point and activation bounds) for random layers, including multipliers whose thresholds leave
    the small-int range (they must fall back to full tables) and accumulators around every threshold."""
    import sys

    from bb_edge.bbrt.lower_qdq import mbqm

    sys.path.insert(0, str(MPY_DIR))
    try:
        from bbnode.executor import thr_channels
    finally:
        sys.path.remove(str(MPY_DIR))
    rng = np.random.default_rng(7)
    kinds = set()
    for case in range(60):
        n = int(rng.integers(1, 5))
        shifts = rng.integers(-20, 3, n) if case % 3 else rng.integers(-40, 12, n)
        rq = [int(v) for m, sh in zip(rng.integers(1 << 30, 1 << 31, n), shifts, strict=True) for v in (m, sh)]
        zy = int(rng.integers(-128, 128))
        lo, hi = sorted(int(v) for v in rng.integers(-128, 128, 2))
        tables, tbase, b0, step = thr_channels(rq, n, zy, lo, hi)
        kinds.add(tables.typecode)
        for c in range(n):
            j = tbase[c] >> 8
            thr = [b0[j] + k * step[j] + tables[tbase[c] + k] for k in range(lo + 129, hi + 129)]
            # accumulators strictly inside the saturated thresholds +-(2**30 - 1) ("never" / "always")
            probes = {0, 1, -1, (1 << 30) - 2, 2 - (1 << 30)} | {t + d for t in thr for d in (-1, 0)}
            for acc in probes:
                if not 1 - (1 << 30) < acc < (1 << 30) - 1:
                    continue
                want = min(hi, max(lo, mbqm(acc, rq[2 * c], rq[2 * c + 1]) + zy))
                got = lo + sum(1 for t in thr if t <= acc)  # thresholds ascend: the search's answer
                assert got == want, (case, c, acc)
    assert kinds == {"B", "i"}  # both forms were exercised
