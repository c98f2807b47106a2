"""Gather with run-time indices on the C runtime (GATHER, opcode 44; host build through ctypes).

Oracle: ONNX Runtime on the same model. The indices are a graph input of the ONNX dtype (int64 or int32):
the program holds them unquantized, the edge keeps that dtype. float32: bit-exact (the kernel copies
rows); int8: the table stored int8 with its own scale, within half a step of it. An out-of-range index is
the typed run status RUN_INDEX before any byte is written; the C loader refuses corrupted GATHER records;
a MicroPython build ships the kernel (bbnode/kernels_ext.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt.errors import BbrtError, UnsupportedNode
from bb_edge.bbrt.format import DT_INT8, DT_INT32, DT_INT64, RECV, Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from tests.support.op_models import gather_model

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ort_run(m: onnx.ModelProto, feed: dict[str, np.ndarray]) -> np.ndarray:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(["y"], feed)[0]


def c_run(L: Lowered, feed: dict[str, np.ndarray]) -> tuple[np.ndarray, HostProgram]:
    """Run on the host build; y dequantized as the program's Send tensor holds it."""
    h = HostProgram(L.blob, L.program)
    h.run({L.index[k]: v for k, v in feed.items()})
    t = L.program.tensors[L.index["y"]]
    y = h.view(L.index["y"]).copy()
    return ((y.astype(np.float32) - t.zero_point) * np.float32(t.scale) if t.dtype == DT_INT8 else y), h


@SETTINGS
@given(xshape=st.lists(st.integers(1, 4), min_size=1, max_size=4), data=st.data())
def test_runtime_indices_equal_ort_bit_exact(xshape: list[int], data: st.DataObject) -> None:
    """Any axis (negative too), indices of rank 0-2 with negative values, int64 or int32, float data input."""
    axis = data.draw(st.integers(-len(xshape), len(xshape) - 1))
    n = xshape[axis]
    ishape = data.draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    idt = np.dtype(data.draw(st.sampled_from([np.int64, np.int32])))
    rng = np.random.default_rng(len(xshape) * 7 + n)
    ids = rng.integers(-n, n, ishape).astype(idt)
    x = rng.standard_normal(xshape).astype(np.float32)
    m = gather_model(xshape, ishape, axis, None, idt)
    L = lower(m, precision="fp32", calib=[{"x": x, "ids": ids}])
    assert Op.GATHER in L.ops_used
    t = L.program.tensors[L.index["ids"]]
    assert t.dtype == (DT_INT64 if idt == np.int64 else DT_INT32)
    assert next(e.elem_type for e in L.program.edges if e.direction == RECV and e.tensor == L.index["ids"]) == t.dtype
    got, _ = c_run(L, {"x": x, "ids": ids})
    np.testing.assert_array_equal(got, ort_run(m, {"x": x, "ids": ids}))


def test_embedding_table_int8_within_half_a_step_and_ids_through_a_reshape() -> None:
    """A [50, 8] table gathered by int64 ids [2, 3] (reshaped first, a COPY of int64): int8 stores the table
    at a quarter of the bytes; every element within half its quantization step of ORT."""
    rng = np.random.default_rng(4)
    table = rng.standard_normal((50, 8)).astype(np.float32)
    g = helper.make_graph([helper.make_node("Reshape", ["ids", "shp"], ["ids2"], name="flat"),
                           helper.make_node("Gather", ["E", "ids2"], ["y"], name="embed")], "m",
                          [helper.make_tensor_value_info("ids", TensorProto.INT64, [2, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(table, "E"),
                           numpy_helper.from_array(np.array([6], np.int64), "shp")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    ids = rng.integers(0, 50, (2, 3)).astype(np.int64)
    ref = ort_run(m, {"ids": ids})
    f32, _ = c_run(lower(m, precision="fp32", calib=[{"ids": ids}]), {"ids": ids})
    np.testing.assert_array_equal(f32, ref)
    Lq = lower(m, precision="int8", calib=[{"ids": ids}])
    tab = next(t for t in Lq.program.tensors if t.name == "E")
    assert tab.dtype == DT_INT8
    q, _ = c_run(Lq, {"ids": ids})
    err = float(np.abs(q - ref).max())
    print(f"int8 embedding: max error {err:.2e}, step {tab.scale:.2e}, |ref| max {np.abs(ref).max():.2f}")
    assert err <= 0.5 * tab.scale + 1e-6


def test_an_out_of_range_index_is_a_typed_run_error_before_anything_is_written() -> None:
    table = np.arange(40, dtype=np.float32).reshape(10, 4)
    m = gather_model([10, 4], [3], 0, table)
    L = lower(m, precision="fp32", calib=[{"ids": np.array([0, 1, 2], np.int64)}])
    h = HostProgram(L.blob, L.program)
    y = h.view(L.index["y"])
    for bad in ([0, 10, 1], [0, -11, 1], [2**40, 0, 0], [0, 0, -(2**40)]):
        y[...] = -7.0
        with pytest.raises(BbrtError, match="RUN_INDEX"):
            h.run({L.index["ids"]: np.array(bad, np.int64)})
        assert np.all(y == -7.0)  # nothing written: every index is checked first
    h.run({L.index["ids"]: np.array([9, -10, -1], np.int64)})
    np.testing.assert_array_equal(y, table[[9, 0, 9]])


def _corrupt(L: Lowered, edit: str) -> None:
    op = next(o for o in L.program.ops if o.opcode == Op.GATHER)
    if edit == "axis":
        op.params[0] = 2
    elif edit == "param":
        op.params[:] = [op.params[0], 0, 0, 1]
    elif edit == "float_indices":
        L.program.tensors[op.inputs[1]].dtype = 1  # float "indices", and the edge that writes them agrees
        for e in L.program.edges:
            if e.tensor == op.inputs[1]:
                e.elem_type = 1
    elif edit == "out_shape":
        t = L.program.tensors[op.outputs[0]]
        t.shape = (t.shape[0] + 1, *t.shape[1:])
    elif edit == "scaled_int64":
        L.program.tensors[op.inputs[1]].scale = 0.5
    with pytest.raises(BbrtError, match="PROG_PARAM|PROG_SHAPE|PROG_TENSOR|PROG_BOUNDS"):
        HostProgram(L.program.to_bytes(), L.program)


@pytest.mark.parametrize("edit", ["axis", "param", "float_indices", "out_shape", "scaled_int64"])
def test_the_c_loader_refuses_corrupted_gather_records(edit: str) -> None:
    m = gather_model([10, 4], [3], 0, np.ones((10, 4), np.float32))
    _corrupt(lower(m, precision="fp32", calib=[{"ids": np.array([0, 1, 2], np.int64)}]), edit)


def test_an_integer_tensor_read_by_another_op_is_refused_naming_it() -> None:
    """Integer tensors are indices only: an op that would read one as data is a typed refusal naming it."""
    g = helper.make_graph([helper.make_node("Concat", ["ids", "k"], ["y"], name="cat", axis=0)], "m",
                          [helper.make_tensor_value_info("ids", TensorProto.INT64, [3])],
                          [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
                          [numpy_helper.from_array(np.array([1], np.int64), "k")])
    with pytest.raises(UnsupportedNode, match="integer tensor 'ids'") as e:
        lower(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), precision="int8")
    assert (e.value.node, e.value.op) == ("cat", "Concat")


def test_a_micropython_build_of_a_gather_node_ships_the_kernel(tmp_path: Path) -> None:
    """The MicroPython executor runs GATHER (bbnode/kernels_ext.py, in the VM: tests/micropython/
    test_micropython_int8_ops.py): `build` accepts the node and its bundle holds that module's .mpy."""
    import json

    from bb_edge.bundle.build import build_all
    from bb_edge.compiler import compile_model
    from tests.support.zoo_models import embed_mlp

    compile_model(embed_mlp(), cuts=["e2"], out_dir=tmp_path / "c")
    build_all(tmp_path / "c", ["n0=esp32-micropython"], tmp_path / "dist")
    facts = json.loads(next((tmp_path / "dist").rglob("build.json")).read_text())
    assert facts["builder"] == "micropython" and "lib/bbnode/kernels_ext.mpy" in facts["files"]
