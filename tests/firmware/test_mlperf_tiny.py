"""The five MLPerf Tiny int8 models on the C runtime, bit-exact with TFLite (issue 29).

The oracle is the TFLite interpreter's own output stored beside the models
(``../shared/models/mlperf-tiny/reference/*.npz``, ``tflite_output``): the QDQ ONNX models lower with
their own scales and zero points (bb_edge/bbrt/lower_qdq.py) and requantize with TFLite's integer
arithmetic, so every int8 output byte must be equal: on the host build for all 8 inputs, under QEMU
Cortex-M4 (DSP kernels) and Cortex-M55 (mps3-an547, Helium kernels) for all 8 inputs, and on Cortex-M3
and the M55 without MVE for one input. A float op between a
DequantizeLinear and the next QuantizeLinear is a typed UnsupportedQuantPattern.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import helper

from bb_edge.bbrt.format import Op
from bb_edge.bbrt.lower import lower
from bb_edge.bbrt.lower_qdq import UnsupportedQuantPattern, mbqm, softmax_table
from tests.support.mlperf import NAMES, lowered, qemu_arm_run, qemu_xtensa_run, reference, run_host

ONE_RUN = "-Os -DBENCH_RUNS=1"  # the harness times one run: the test wants outputs, not a figure


@pytest.mark.parametrize("name", NAMES)
def test_host_build_equals_tflite_on_all_inputs(name: str) -> None:
    _, x, y = reference(name)
    L = lowered(name)
    assert not ({Op.QUANTIZE, Op.DEQUANTIZE} & L.ops_used)  # int8 end to end: no float anywhere
    out = run_host(L, x)
    assert out.shape == y.reshape(len(y), -1).shape
    np.testing.assert_array_equal(out, y.reshape(len(y), -1))


@pytest.mark.parametrize("kind", ["cortex-m4", "cortex-m55"])  # the M4's DSP kernels, the M55's Helium ones
@pytest.mark.parametrize("name", NAMES)
def test_cortex_m_equals_tflite_on_all_inputs(name: str, kind: str, tmp_path: Path) -> None:
    _, x, y = reference(name)
    out, insns, _ = qemu_arm_run(lowered(name), x, tmp_path, kind=kind, opt=ONE_RUN)
    np.testing.assert_array_equal(out, y.reshape(len(y), -1))
    assert insns > 0


@pytest.mark.parametrize("name", ["kws", "ic"])
def test_cortex_m55_without_mve_equals_tflite_on_one_input(name: str, tmp_path: Path) -> None:
    _, x, y = reference(name)
    out, _, _ = qemu_arm_run(lowered(name), x[:1], tmp_path, kind="cortex-m55", opt=ONE_RUN, dsp=False)
    np.testing.assert_array_equal(out, y[:1].reshape(1, -1))


@pytest.mark.parametrize("name", ["ad", "kws", "ic"])
def test_cortex_m3_equals_tflite_on_one_input(name: str, tmp_path: Path) -> None:
    _, x, y = reference(name)
    out, _, _ = qemu_arm_run(lowered(name), x[:1], tmp_path, kind="cortex-m3", opt=ONE_RUN)
    np.testing.assert_array_equal(out, y[:1].reshape(1, -1))


def test_the_model_keeps_its_own_parameters() -> None:
    """Every int8 tensor of the program has the scale and zero point the QDQ model states."""
    m, _, _ = reference("kws")
    stated = {n.input[0]: (float(onnx.numpy_helper.to_array(i)), 0) for n in m.graph.node
              if n.op_type == "QuantizeLinear" for i in m.graph.initializer if i.name == n.input[1]}
    zps = {n.input[0]: int(onnx.numpy_helper.to_array(i)) for n in m.graph.node
           if n.op_type == "QuantizeLinear" for i in m.graph.initializer if i.name == n.input[2]}
    L = lower(m)
    q_out = {n.input[0]: n.output[0] for n in m.graph.node if n.op_type == "QuantizeLinear"}
    for f, q in q_out.items():
        assert L.qparams[q] == (float(np.float32(stated[f][0])), zps[f])


def test_softmax_table_and_requantization_are_tflites() -> None:
    """The pieces against hand-computed values: TFLite's single-rounding multiply and its exp table."""
    assert mbqm(3, 1 << 30, 0) == 2  # 1.5 rounds up
    assert mbqm(-3, 1 << 30, 0) == -1  # -1.5 rounds up too (TFLite's single rounding adds 2^(n-1))
    t = softmax_table(0.5)
    assert t[255] == np.float32(1.0) and t[254] == np.float32(np.exp(np.float32(-0.5)))


def test_a_float_op_between_dq_and_q_is_an_unsupported_quant_pattern() -> None:
    m, _, _ = reference("ad")
    relu = next(n for n in m.graph.node if n.op_type == "Relu")
    relu.op_type = "Sigmoid"  # no int8 kernel keeps this exact
    with pytest.raises(UnsupportedQuantPattern) as e:
        lower(m)
    assert e.value.node == relu.name and e.value.op == "Sigmoid"
    assert relu.name in str(e.value) and "Sigmoid" in str(e.value)


def test_an_unquantized_float_output_is_an_unsupported_quant_pattern() -> None:
    """An Add whose float output goes on to another float op (no QuantizeLinear) is refused by name."""
    m, _, _ = reference("ad")
    q = next(n for n in m.graph.node if n.op_type == "QuantizeLinear")
    relu = next(n for n in m.graph.node if n.output[0] == q.input[0])
    relu.op_type = "Tanh"
    m.graph.node.append(helper.make_node("Relu", [relu.output[0]], ["extra"], name="extra_relu"))
    with pytest.raises(UnsupportedQuantPattern):
        lower(m)


@pytest.mark.parametrize("name", ["ic", "vww", "strww"])
def test_nhwc_inputs_stay_nhwc_on_the_device(name: str) -> None:
    """The converter's input Transpose (NHWC -> NCHW) is folded into the first convs: the Recv tensor has
    the model's NHWC shape and no op copies it."""
    m, _, _ = reference(name)
    L = lowered(name)
    assert L.input_perm == {}
    recv = L.program.tensors[L.program.edges[0].tensor]
    assert recv.shape == tuple(d.dim_value or 1 for d in m.graph.input[0].type.tensor_type.shape.dim)
    readers = [op for op in L.program.ops if L.program.edges[0].tensor in op.inputs]
    assert readers and all(op.opcode == Op.CONV_I8 and op.params[15] == 1 for op in readers)


@pytest.mark.parametrize("name", ["kws", "strww"])
def test_xtensa_lx106_equals_tflite_on_one_input(name: str, tmp_path: Path) -> None:
    _, x, y = reference(name)
    out = qemu_xtensa_run(lowered(name), x[:1], tmp_path)
    np.testing.assert_array_equal(out, y[:1].reshape(1, -1))
