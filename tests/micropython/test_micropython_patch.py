"""MicroPython runs a patched program (bb_edge/bbrt/patch.py) byte for byte as the C runtime does (issue 29).

VWW's first two convs (the 3x3/2 conv on the NHWC image and the depthwise conv, cut out of the QDQ model)
in 3 bands: input views at a byte offset, per-band pads, the bands joined by CONCAT. A small residual
block (stem conv on an NHWC input, conv, ADD of the two) in 2 bands adds the GATHER_AXES row slice of the
shortcut. The MicroPython executor indexes its arena by the planner's offsets like the C loader, so the
same program gives the same bytes: MicroPython == C host build of the patched program == C host build of
the unpatched one. The executor's GATHER_AXES is also held to the C kernel and ONNX Runtime on a float32
Pad (fill entries) -> nearest Resize -> Gather chain. Every inference allocation-free.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, utils

from bb_edge.bbrt import planner
from bb_edge.bbrt.format import RECV, SEND, Op, Program
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bbrt.patch import _io, patch
from tests.support.graphs import float_model as model
from tests.support.graphs import ort_run
from tests.support.graphs import randn as rand
from tests.support.mlperf import MODELS, MPY_BENCH_SCRIPT, lowered, reference
from tests.support.mpy_vm import prepare_vm, run_vm


def _group(name: str, x: str, y: str, cin: int, cout: int, sx: float, sy: float, rng: np.random.Generator,
           ) -> tuple[list[onnx.NodeProto], list[onnx.TensorProto]]:
    """DQ(x) -> Conv 3x3 pads 1 (per-channel int8 weights, int32 bias) -> Relu -> Q: int8 ``y``."""
    ws = rng.uniform(0.005, 0.02, cout).astype(np.float32)
    init = [onnx.numpy_helper.from_array(rng.integers(-127, 128, (cout, cin, 3, 3)).astype(np.int8), f"{name}_w"),
            onnx.numpy_helper.from_array(ws, f"{name}_ws"),
            onnx.numpy_helper.from_array(np.zeros(cout, np.int8), f"{name}_wz"),
            onnx.numpy_helper.from_array(rng.integers(-2000, 2000, cout).astype(np.int32), f"{name}_b"),
            onnx.numpy_helper.from_array((np.float32(sx) * ws).astype(np.float32), f"{name}_bs"),
            onnx.numpy_helper.from_array(np.zeros(cout, np.int32), f"{name}_bz"),
            helper.make_tensor(f"{name}_sy", TensorProto.FLOAT, [], [sy]),
            helper.make_tensor(f"{name}_zy", TensorProto.INT8, [], [-128])]
    nodes = [helper.make_node("DequantizeLinear", [x, "s_" + x, "z_" + x], [f"{x}_f{name}"], name=f"{name}_dq"),
             helper.make_node("DequantizeLinear", [f"{name}_w", f"{name}_ws", f"{name}_wz"], [f"{name}_wf"],
                              name=f"{name}_dqw", axis=0),
             helper.make_node("DequantizeLinear", [f"{name}_b", f"{name}_bs", f"{name}_bz"], [f"{name}_bf"],
                              name=f"{name}_dqb", axis=0),
             helper.make_node("Conv", [f"{x}_f{name}", f"{name}_wf", f"{name}_bf"], [f"{name}_c"], name=name,
                              kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", [f"{name}_c"], [f"{name}_r"], name=f"{name}_relu"),
             helper.make_node("QuantizeLinear", [f"{name}_r", f"{name}_sy", f"{name}_zy"], [y], name=f"{name}_q")]
    return nodes, init


def _residual() -> onnx.ModelProto:
    """int8 NHWC x [1, 8, 8, 3] -> stem conv (a) -> conv (b) -> Q(DQ(a) + DQ(b)): ResNet's first block, small."""
    rng = np.random.default_rng(29)
    n0, i0 = _group("stem", "xt", "a", 3, 4, 0.05, 0.06, rng)
    n1, i1 = _group("c1", "a", "b", 4, 4, 0.06, 0.05, rng)
    sc = [t for n, sv, zv in (("xt", 0.05, 3), ("a", 0.06, -128), ("b", 0.05, -128), ("y", 0.08, -10))
          for t in (helper.make_tensor(f"s_{n}", TensorProto.FLOAT, [], [sv]),
                    helper.make_tensor(f"z_{n}", TensorProto.INT8, [], [zv]))]
    tail = [helper.make_node("DequantizeLinear", ["a", "s_a", "z_a"], ["a_f"], name="dq_a"),
            helper.make_node("DequantizeLinear", ["b", "s_b", "z_b"], ["b_f"], name="dq_b"),
            helper.make_node("Add", ["a_f", "b_f"], ["s"], name="add"),
            helper.make_node("QuantizeLinear", ["s", "s_y", "z_y"], ["y"], name="q_y")]
    g = helper.make_graph([helper.make_node("Transpose", ["x"], ["xt"], name="to_nchw", perm=[0, 3, 1, 2]),
                           *n0, *n1, *tail], "res",
                          [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 8, 8, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 4, 8, 8])], sc + i0 + i1)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def _run_both(vm: tuple[Path, Path], tmp_path: Path, S: Lowered, P: Program, xs: list[np.ndarray]) -> None:
    """MicroPython on patched ``P`` == C host build of ``P`` == C host build of unpatched ``S``, per input."""
    driver, lib = vm
    blob = P.to_bytes()
    rin = next(e.tensor for e in P.edges if e.direction == RECV)
    sout = next(e.tensor for e in P.edges if e.direction == SEND)
    (tmp_path / "prog.bbrt").write_bytes(blob)
    for k, x in enumerate(xs):
        (tmp_path / f"in{k}.bin").write_bytes(x.tobytes())
    script = MPY_BENCH_SCRIPT.replace("RIN", str(rin)).replace("SOUT", str(sout)).replace("N)", f"{len(xs)})")
    res = json.loads(next(s for s in run_vm(driver, lib, tmp_path, script, timeout=300).splitlines()
                          if s.startswith("RESULT"))[len("RESULT "):])
    hp = HostProgram(blob, P)  # the host library runs the program it loaded last: one at a time
    got = []
    for x in xs:
        hp.run({rin: x})
        got.append(hp.view(sout).tobytes())
    ref = HostProgram(S.blob, S.program)
    for k, x in enumerate(xs):
        ref.run({next(e.tensor for e in S.program.edges if e.direction == RECV): x})
        want = ref.view(next(e.tensor for e in S.program.edges if e.direction == SEND)).tobytes()
        assert got[k] == want, f"input {k}"  # the C runtime: patched == unpatched
        assert (tmp_path / "out" / f"out{k}.bin").read_bytes() == want, f"input {k}"  # MicroPython == C
    assert res["alloc"] == [0] * len(xs), res


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return prepare_vm(tmp_path_factory.mktemp("mpylib"))


def test_micropython_runs_the_patched_program_as_c(vm: tuple[Path, Path], tmp_path: Path) -> None:
    L = lowered("vww")
    name_of = {v: k for k, v in L.index.items()}
    dw_out = name_of[L.program.ops[1].outputs[0]]
    utils.extract_model(str(MODELS / "onnx" / "vww_int8.onnx"), str(tmp_path / "m.onnx"), ["input_1_int8"], [dw_out])
    S = lower(onnx.load(str(tmp_path / "m.onnx")), io_edges=None)
    got = patch(S.program, *_io(S.program), 2, 3)
    assert got is not None
    P = got[0]
    planner.assign(P, *_io(P))
    assert P.views and sum(op.opcode == Op.CONV_I8 for op in P.ops) == 6
    _run_both(vm, tmp_path, S, P, [reference("vww")[1][0:1]])


def test_micropython_runs_a_patched_residual_block_as_c(vm: tuple[Path, Path], tmp_path: Path) -> None:
    S = lower(_residual(), io_edges=None)
    assert [op.opcode for op in S.program.ops] == [Op.CONV_I8, Op.CONV_I8, Op.ADD_I8]
    got = patch(S.program, *_io(S.program), 3, 2)
    assert got is not None
    P = got[0]
    planner.assign(P, *_io(P))
    assert sum(op.opcode == Op.GATHER_AXES for op in P.ops) == 2  # the shortcut's rows, one slice a band
    rng = np.random.default_rng(4)
    _run_both(vm, tmp_path, S, P, [rng.integers(-128, 128, (1, 8, 8, 3)).astype(np.int8) for _ in range(3)])


def test_micropython_gather_axes_pad_resize_gather_as_c(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """GATHER_AXES in general (float32; Pad's fill entries, nearest Resize's repeats, Gather's reorder):
    MicroPython == C host build == ONNX Runtime."""
    m = model([helper.make_node("Pad", ["x", "p", "v"], ["xp"], name="pad"),
               helper.make_node("Resize", ["xp", "", "s"], ["xr"], name="rs", mode="nearest"),
               helper.make_node("Gather", ["xr", "i"], ["y"], name="ga", axis=3)], {"x": [1, 2, 3, 4]},
              {"p": np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64), "v": np.array(3.0, np.float32),
               "s": np.array([1, 1, 2, 1.5], np.float32), "i": np.array([2, 0, 9, 1, 1], np.int64)})
    x = rand(np.random.default_rng(6), (1, 2, 3, 4))
    L = lower(m, precision="fp32", calib=[{"x": x}])
    assert Op.GATHER_AXES in L.ops_used
    S = copy.copy(L)
    _run_both(vm, tmp_path, S, L.program, [x])
    hp = HostProgram(L.blob, L.program)
    hp.run({L.float_index["x"]: x})
    np.testing.assert_array_equal(hp.view(L.float_index["y"]), ort_run(m, {"x": x}))
