"""Helium (MVE) kernels of the Cortex-M55 build, bit for bit against the host build's portable kernels.

Random int8 layers (hypothesis: shapes, kernels, strides, padding, groups, input zero points and, scrambled,
every requantization multiplier and shift) are lowered and run by one Cortex-M55 harness ELF (every kernel,
built once and cached, firmware/src/mve/ compiled in) under QEMU mps3-an547, and by the host library (the
portable C loops); every output byte must be equal. The layers cover the four MVE paths: FC (4 rows per
pass, tails, the unfolded zero point), im2col convs (4 pixels x 2 channels per pass on interleaved patches,
1 pixel x 4 channels for the last pixels, gathered interior and edge patches, the VQSHL/VQDMULH/VRSHL
requantization for every shift and the scalar one for the multipliers it refuses), depthwise (stride 1 over
the flattened padded plane, 3x3 and other kernels; stride 2 and the transposed short-row plane), ADD
(same-shape, 4 lanes) and AVGPOOL's window sums. The oracle is independent of the device
code: the host library is built without MVE.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt import native
from bb_edge.bbrt.format import Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from tests.support.mlperf import harness_run
from tests.support.models import gemm_relu, unfold_fc

EXAMPLES = 40 if os.environ.get("BB_EDGE_LONG_TESTS") else 8
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def m55_elf() -> Path:
    """The Cortex-M55 (MVE) instruction-count harness with every kernel, cached across tests."""
    return native.cached_build("cortex-m55-bench", ARENA=str(256 << 10), MAX_PAYLOAD="65536",
                               OPT="-Os -DBENCH_RUNS=1") / "bench.elf"


def host_outputs(L: Lowered, xs: np.ndarray) -> np.ndarray:
    """The host build's output bytes for each input (portable kernels)."""
    h = HostProgram(L.blob, L.program)
    rin, sout = h.recv_tensors()[0], next(e.tensor for e in L.program.edges if e.direction == 1)
    outs = []
    for x in xs:
        h.run({rin: x[None]})
        outs.append(h.view(sout).copy().reshape(-1))
    return np.stack(outs)


def assert_m55_equals_host(L: Lowered, xs: np.ndarray, d: Path, opcode: Op) -> None:
    assert any(op.opcode == opcode for op in L.program.ops)
    assert L.program.arena_size <= 256 << 10
    out, _, _ = harness_run(L, xs, d, "cortex-m55", m55_elf())
    want = host_outputs(L, xs)
    assert out.shape == want.shape
    assert out.tobytes() == want.tobytes()


def scramble_rq(L: Lowered, seed: int) -> Lowered:
    """Every CONV_I8/FC_I8 requantization redrawn: shifts from -34 to +3, half of them at the edges (the MVE
    forms split at -1 and 0, below -31 and above 30 clamp), multipliers from 2^12 up, some zero and some
    below 2^9 (the MVE kernels take those with shifts >= 0 on the scalar path)."""
    rng = np.random.default_rng(seed)
    prog = L.program
    for op in prog.ops:
        if op.opcode in (Op.CONV_I8, Op.FC_I8):
            t = prog.tensors[op.inputs[3]]
            assert t.data is not None  # a constant
            rq = t.data.reshape(-1, 2).copy()
            # log-uniform multipliers: small ones keep results of the extreme shifts off the int8 rails
            m = np.minimum(np.exp2(rng.uniform(12, 31, len(rq))), 2**31 - 1).astype(np.int64)
            m = np.where(rng.random(len(rq)) < 0.05, rng.integers(1, 512, len(rq)), m)
            rq[:, 0] = m * (rng.random(len(rq)) > 0.1)
            edge = rng.choice([-34, -32, -31, -30, -3, -2, -1, 0, 1, 2, 3], len(rq))
            rq[:, 1] = np.where(rng.random(len(rq)) < 0.5, edge, rng.integers(-34, 4, len(rq)))
            t.data = rq.reshape(t.data.shape).astype(np.int32)
    return Lowered(program=prog, blob=prog.to_bytes(), precision=L.precision)


def scramble_add(L: Lowered, seed: int) -> Lowered:
    """Every ADD_I8's left shift, multipliers and shifts redrawn small (ls 0..3, shifts 0..-3): the roundings'
    ties (half away from zero, negative halves) come often instead of once in 2^20 elements."""
    rng = np.random.default_rng(seed)
    prog = L.program
    for op in prog.ops:
        if op.opcode == Op.ADD_I8:
            p = list(op.params)
            p[0] = int(rng.integers(0, 4))
            for i in (1, 3, 5):
                p[i], p[i + 1] = int(rng.integers(2**30, 2**31 - 1)), -int(rng.integers(0, 4))
            op.params = p
    return Lowered(program=prog, blob=prog.to_bytes(), precision=L.precision)


def conv_model(cg: int, mg: int, groups: int, kh: int, kw: int, h: int, w: int, stride: tuple[int, int],
               pad: int, seed: int, residual: bool = False) -> onnx.ModelProto:
    """y = Relu(conv(x)) (+ x when ``residual``: an int8 ADD of two same-shape tensors)."""
    rng = np.random.default_rng(seed)
    c, m = cg * groups, mg * groups
    oh, ow = (h + 2 * pad - kh) // stride[0] + 1, (w + 2 * pad - kw) // stride[1] + 1
    nodes = [helper.make_node("Conv", ["x", "W", "B"], ["h"], name="conv", pads=[pad] * 4, strides=list(stride),
                              group=groups),
             helper.make_node("Relu", ["h"], ["r" if residual else "y"], name="act")]
    if residual:
        nodes.append(helper.make_node("Add", ["r", "x"], ["y"], name="add"))
    g = helper.make_graph(
        nodes, "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, m, oh, ow])],
        [numpy_helper.from_array((rng.standard_normal((m, cg, kh, kw)) / np.sqrt(cg * kh * kw)).astype(np.float32),
                                 "W"),
         numpy_helper.from_array((rng.standard_normal(m) * 0.2).astype(np.float32), "B")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def lowered_conv(model: onnx.ModelProto, shape: tuple[int, ...], seed: int, off: float) -> tuple[Lowered, np.ndarray]:
    rng = np.random.default_rng(seed + 1)
    calib = [{"x": (rng.standard_normal(shape) + off).astype(np.float32)} for _ in range(3)]
    return lower(model, precision="int8", calib=calib), np.concatenate([c["x"] for c in calib])


@SETTINGS
@given(rows=st.integers(1, 3), k=st.integers(1, 80), n=st.integers(1, 21), seed=st.integers(0, 2**16),
       shift=st.floats(-1.0, 1.0), variant=st.sampled_from(["lowered", "unfolded", "scrambled"]))
def test_mve_fc_is_bit_exact_with_portable(rows: int, k: int, n: int, seed: int, shift: float, variant: str,
                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    m = gemm_relu(rows, k, n, np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    calib = [{"x": (rng.standard_normal((rows, k)) + shift).astype(np.float32)} for _ in range(3)]
    L = lower(m, precision="int8", calib=calib)
    L = unfold_fc(L) if variant == "unfolded" else scramble_rq(L, seed) if variant == "scrambled" else L
    xs = np.stack([c["x"] for c in calib])
    assert_m55_equals_host(L, xs, tmp_path_factory.mktemp("mve"), Op.FC_I8)


@SETTINGS
@given(cg=st.integers(1, 40), mg=st.integers(1, 11), groups=st.sampled_from([1, 1, 1, 2]), kh=st.integers(1, 3),
       kw=st.integers(1, 4), h=st.integers(3, 9), w=st.integers(4, 11), stride=st.integers(1, 2),
       pad=st.integers(0, 1), seed=st.integers(0, 2**16), scramble=st.booleans())
def test_mve_conv_is_bit_exact_with_portable(cg: int, mg: int, groups: int, kh: int, kw: int, h: int, w: int,
                                             stride: int, pad: int, seed: int, scramble: bool,
                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    """im2col convs, 1x1 and general: channel counts around the 4-channel pass, patch tails, strides, padding."""
    c = cg * groups
    L, xs = lowered_conv(conv_model(cg, mg, groups, kh, kw, h, w, (stride, stride), pad, seed), (1, c, h, w), seed,
                         0.5)
    if scramble:
        L = scramble_rq(L, seed)
    assert_m55_equals_host(L, xs, tmp_path_factory.mktemp("mve"), Op.CONV_I8)


@SETTINGS
@given(ch=st.integers(1, 9), kh=st.sampled_from([1, 3, 3, 5, 10]), kw=st.sampled_from([1, 3, 3, 4]),
       h=st.integers(3, 30), w=st.integers(3, 30), sh=st.integers(1, 2), sw=st.integers(1, 2), pad=st.integers(0, 1),
       seed=st.integers(0, 2**16), scramble=st.booleans())
def test_mve_depthwise_is_bit_exact_with_portable(ch: int, kh: int, kw: int, h: int, w: int, sh: int, sw: int,
                                                  pad: int, seed: int, scramble: bool,
                                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    """Depthwise convs: 3x3 at stride 1 and 2, other kernels (the any-row loop), short rows (transposed)."""
    h, w = max(h, kh), max(w, kw)
    L, xs = lowered_conv(conv_model(1, 1, ch, kh, kw, h, w, (sh, sw), pad, seed), (1, ch, h, w), seed, 0.3)
    if scramble:
        L = scramble_rq(L, seed)
    assert_m55_equals_host(L, xs, tmp_path_factory.mktemp("mve"), Op.CONV_I8)


@pytest.mark.parametrize(("ch", "h", "w", "stride", "pad"), [
    (5, 12, 12, 2, 1),   # stride 2 (vww's shape): row by row, the band's padding kept from channel to channel
    (3, 13, 11, 2, 0),   # stride 2, no padding, odd sizes
    (3, 9, 12, 1, 1),    # stride 1, rows under BBRT_MVE_DW_ROWW: the flat plane, copied out
    (2, 8, 123, 1, 1),   # stride 1, row by row, rows of 125 bytes: the last gather offsets reach 255 exactly
    (2, 8, 124, 1, 1),   # rows of 126: past a byte, the 4-lane multiply-accumulate path
])
def test_mve_depthwise_gather_edges_are_bit_exact(ch: int, h: int, w: int, stride: int, pad: int,
                                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    """The gathered depthwise (one byte gather and VMLADAV per output) at its limits, scrambled requantizations."""
    L, xs = lowered_conv(conv_model(1, 1, ch, 3, 3, h, w, (stride, stride), pad, 7), (1, ch, h, w), 7, 0.3)
    assert_m55_equals_host(scramble_rq(L, 7), xs, tmp_path_factory.mktemp("mve"), Op.CONV_I8)


@SETTINGS
@given(c=st.integers(1, 6), h=st.integers(1, 9), w=st.integers(1, 13), seed=st.integers(0, 2**16),
       off=st.floats(-1.0, 1.0), scramble=st.booleans())
def test_mve_add_is_bit_exact_with_portable(c: int, h: int, w: int, seed: int, off: float, scramble: bool,
                                            tmp_path_factory: pytest.TempPathFactory) -> None:
    """A residual ADD (Relu(conv(x)) + x): same-shape int8 operands, element counts around the 4-lane pass."""
    L, xs = lowered_conv(conv_model(c, 1, 1, 1, 1, h, w, (1, 1), 0, seed, residual=True), (1, c, h, w), seed, off)
    if scramble:
        L = scramble_add(L, seed)
    assert_m55_equals_host(L, xs, tmp_path_factory.mktemp("mve"), Op.ADD_I8)


@SETTINGS
@given(c=st.integers(1, 4), h=st.integers(1, 9), w=st.integers(1, 37), k=st.integers(1, 6), s=st.integers(1, 3),
       pad=st.integers(0, 2), include=st.booleans(), glob=st.booleans(), seed=st.integers(0, 2**16))
def test_mve_avgpool_is_bit_exact_with_portable(c: int, h: int, w: int, k: int, s: int, pad: int, include: bool,
                                                glob: bool, seed: int,
                                                tmp_path_factory: pytest.TempPathFactory) -> None:
    """AVGPOOL_I8's window sums (16 bytes per VADDVA; a window of whole rows summed as one run, as a global
    pool), clipped windows and both counts."""
    k = min(k, h, w)
    kh, kw = (h, w) if glob else (k, k)
    pad = 0 if glob else min(pad, k - 1)
    g = helper.make_graph(
        [helper.make_node("AveragePool", ["x"], ["y"], name="pool", kernel_shape=[kh, kw], strides=[s, s],
                          pads=[pad] * 4, count_include_pad=int(include))],
        "pool", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    rng = np.random.default_rng(seed)
    calib = [{"x": (rng.standard_normal((1, c, h, w)) * 3 + 1).astype(np.float32)} for _ in range(3)]
    L = lower(model, precision="int8", calib=calib)
    assert_m55_equals_host(L, np.concatenate([d["x"] for d in calib]), tmp_path_factory.mktemp("mve"), Op.AVGPOOL_I8)


@pytest.mark.parametrize(("h", "w", "seed"), [(32, 32, -1), (13, 79, 1), (37, 29, 2), (32, 33, 3), (32, 32, 4)])
def test_mve_add_tables_are_bit_exact_with_portable(h: int, w: int, seed: int,
                                                    tmp_path_factory: pytest.TempPathFactory) -> None:
    """A same-shape residual ADD of at least 1,024 elements (the per-input tables, word gathers; tails of 0, 3
    and 1), as lowered (seed -1) and with its roundings scrambled (every shift 0 to -3: ties in most elements)."""
    L, xs = lowered_conv(conv_model(1, 1, 1, 1, 1, h, w, (1, 1), 0, 11, residual=True), (1, 1, h, w), 11, -0.3)
    if seed >= 0:
        L = scramble_add(L, seed)
    assert_m55_equals_host(L, xs, tmp_path_factory.mktemp("mve"), Op.ADD_I8)


def test_m55_harness_elf_has_helium_instructions() -> None:
    """The ELF the tests run really contains MVE code (VMLADAV, shown as vmlav, and VRMULH): the comparison is
    not portable against portable."""
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", "-m", "armv8.1-m.main", str(m55_elf())],
                         capture_output=True, text=True, check=True).stdout
    assert "vmlav" in dis and "vrmulh.s32" in dis and "vctp.8" in dis
