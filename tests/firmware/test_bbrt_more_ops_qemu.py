"""One program with every op of issue 26's C-runtime list on QEMU Cortex-M3 (soft float), against the host
build and ONNX Runtime: Transpose, Pad, Resize (nearest), Gather, Elu, LeakyRelu, PRelu, LSTM (both
directions) and GRU, lowered float32; and its int8 lowering (the data movement in int8, Elu/LeakyRelu as
tables, PRelu/LSTM/GRU float32 between QUANTIZE and DEQUANTIZE)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt.format import Op
from bb_edge.bbrt.lower import lower
from tests.support.no_heap import check_no_heap
from tests.support.mlperf import qemu_arm_run, run_host
from tests.support.graphs import every_new_op

NEW_OPS = {Op.TRANSPOSE, Op.GATHER_AXES, Op.ELU_F32, Op.LEAKYRELU_F32, Op.PRELU_F32, Op.LSTM_F32, Op.GRU_F32}


def test_every_new_op_on_cortex_m3_equals_host_and_ort(tmp_path: Path) -> None:
    m = every_new_op()
    xs = (np.random.default_rng(7).standard_normal((3, 1, 4, 6, 3)) * 1.5).astype(np.float32)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    ref = np.stack([sess.run(["y"], {"x": x})[0].reshape(-1) for x in xs])
    L = lower(m, precision="fp32", calib=[{"x": x} for x in xs])
    assert NEW_OPS <= L.ops_used
    inputs = xs.reshape(3, 4, 6, 3)[:, None]
    host = run_host(L, inputs)
    np.testing.assert_allclose(host, ref, rtol=1e-5, atol=1e-6)
    qemu, _, files = qemu_arm_run(L, inputs, tmp_path / "f32", kind="cortex-m3")
    np.testing.assert_array_equal(qemu, host)  # same IEEE single-precision operations in the same order
    check_no_heap(files["elf"], "arm-none-eabi-nm")  # no heap symbol in the ELF with the new kernels
    # int8: movement ops on int8 bytes, Elu/LeakyRelu as LUT_I8, PRelu/LSTM/GRU float32 in between
    Lq = lower(m, precision="int8", calib=[{"x": x} for x in xs])
    assert {Op.TRANSPOSE, Op.GATHER_AXES, Op.LUT_I8, Op.PRELU_F32, Op.LSTM_F32, Op.GRU_F32} <= Lq.ops_used
    hq = run_host(Lq, inputs)
    qq, _, _ = qemu_arm_run(Lq, inputs, tmp_path / "i8", kind="cortex-m3")
    np.testing.assert_array_equal(qq, hq)
    assert np.abs(hq - ref).max() <= 0.1 * np.abs(ref).max()  # int8 activations before the float RNNs


def test_embedding_with_int64_ids_on_cortex_m3_equals_host_and_ort(tmp_path: Path) -> None:
    """int64 token ids [1, 6] (the edge and tensor stay int64) -> Gather on a [40, 8] table (GATHER) -> Gemm ->
    Relu: float32 on QEMU Cortex-M3 equals the host build bit for bit and ORT within float rounding; int8 (the
    table stored int8) equals the host build and stays within int8 tolerance of ORT."""
    rng = np.random.default_rng(44)
    inits = {"E": rng.standard_normal((40, 8)).astype(np.float32), "shp": np.array([1, 48], np.int64),
             "W": (0.3 * rng.standard_normal((5, 48))).astype(np.float32), "B": np.zeros(5, np.float32)}
    g = helper.make_graph([helper.make_node("Gather", ["E", "ids"], ["emb"], name="embed"),
                           helper.make_node("Reshape", ["emb", "shp"], ["flat"], name="flat"),
                           helper.make_node("Gemm", ["flat", "W", "B"], ["h"], name="fc", transB=1),
                           helper.make_node("Relu", ["h"], ["y"], name="act")], "embed_fc",
                          [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    ids = rng.integers(-40, 40, (4, 1, 6)).astype(np.int64)  # negative ids count from the end
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    ref = np.stack([sess.run(["y"], {"ids": i})[0].reshape(-1) for i in ids])
    for prec, tol in (("fp32", 1e-5), ("int8", 0.05)):
        L = lower(m, precision=prec, calib=[{"ids": i} for i in ids])
        assert Op.GATHER in L.ops_used
        host = run_host(L, ids)
        qemu, _, files = qemu_arm_run(L, ids, tmp_path / prec, kind="cortex-m3")
        np.testing.assert_array_equal(qemu, host)
        if prec == "int8":
            sout = next(e.tensor for e in L.program.edges if e.direction == 1)
            t = L.program.tensors[sout]
            host = (host.astype(np.float32) - t.zero_point) * t.scale if t.dtype == 3 else host
        err = float(np.abs(host - ref).max() / np.abs(ref).max())
        print(f"embedding on Cortex-M3 {prec}: relative error vs ORT {err:.1e}")
        assert err <= tol, (prec, err)
        check_no_heap(files["elf"], "arm-none-eabi-nm")
    bad = ids[:1].copy()
    bad[0, 0, 3] = 40  # one past the table: the run returns RUN_INDEX (50) on the device too
    with pytest.raises(RuntimeError, match=r"QEMU runs: \['50'\]"):
        qemu_arm_run(L, bad, tmp_path / "int8", kind="cortex-m3")
