"""CMSIS-NN-style int8 kernels (SMLAD, BBRT_KERNELS_DSP) and the folded-bias FC loop.

On the host the DSP code path runs with C versions of SXTB16/SMLAD (the same source the
Cortex-M4 build compiles with the real instructions); it must be bit-exact with the portable
kernel on random shapes (hypothesis), with int8 weights and with the weights widened to int16 pairs
(bb_edge/bbrt/widen.py, the DSP targets' programs), and so must an FC program whose input zero point is not
folded into the bias (the kernel's run-time correction). Under QEMU mps2-an386 the Cortex-M4
build runs the CNN's FC node bit-exact with the host build, and its ELF contains SMLAD.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt import host as host_mod
from bb_edge.bbrt import native
from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.format import Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bbrt.widen import kw_pad, w16_chunk
from bb_edge.bbrt.widen import widen_lowered as widened
from tests.support.models import gemm_relu, unfold_fc

EXAMPLES = 60 if os.environ.get("BB_EDGE_LONG_TESTS") else 15
SAN = "-fsanitize=undefined -fno-sanitize-recover=all"


def dsp_library(widened: bool = True) -> ctypes.CDLL:
    """The host library built with BBRT_KERNELS_DSP (C versions of SXTB16/SMLAD), typed like the default one;
    ``widened=False``: with BBRT_NO_WIDENED, as an M4 node whose program has no widened weights."""
    defs = " -DBBRT_KERNELS_DSP=1" + ("" if widened else " -DBBRT_NO_WIDENED=1")
    lib = ctypes.CDLL(str(native.cached_build("pylib", MAX_PAYLOAD="65536", SAN=SAN + defs) / "libbbrt.so"))
    lib.bbrtpy_load.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t]
    return lib


def run(L: Lowered, x: np.ndarray, lib: ctypes.CDLL | None = None) -> bytes:
    """Run the program once on ``x`` with the default or the given library; the output tensor's bytes."""
    orig = host_mod.load_host_library
    if lib is not None:
        host_mod.load_host_library = lambda *a, **k: lib  # type: ignore[assignment]
    try:
        h = HostProgram(L.blob, L.program)
    finally:
        host_mod.load_host_library = orig  # type: ignore[assignment]
    h.run({h.recv_tensors()[0]: x})
    out = next(e.tensor for e in L.program.edges if e.direction == 1)
    return h.view(out).tobytes()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 3), k=st.integers(1, 70), n=st.integers(1, 19), seed=st.integers(0, 2**16),
       shift=st.floats(-1.0, 1.0))
def test_dsp_fc_is_bit_exact_with_portable(rows: int, k: int, n: int, seed: int, shift: float) -> None:
    m = gemm_relu(rows, k, n, np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    # an input range off zero: a nonzero input zero point, so the folding matters
    calib = [{"x": (rng.standard_normal((rows, k)) + shift).astype(np.float32)} for _ in range(3)]
    L = lower(m, precision="int8", calib=calib)
    fc = [op for op in L.program.ops if op.opcode == Op.FC_I8]
    assert fc and fc[0].params[2] == 1  # folded by the lowering
    x = calib[0]["x"]
    portable = run(L, x)
    assert run(L, x, dsp_library()) == portable
    assert run(unfold_fc(L), x) == portable
    S = scramble_rq(L, seed)  # every requantization shift, the DSP build's 32-bit path and mbqm
    assert run(S, x, dsp_library()) == run(S, x)
    # weights widened to int16 pairs (FC_I8 p[3] = 1) where K % 4 == 0, on a fresh lowering (unfold_fc
    # changed L's program), with every requantization shift
    S = scramble_rq(lower(m, precision="int8", calib=calib), seed)
    W = widened(S)
    assert [op.params[3:4] == [1] for op in W.program.ops if op.opcode == Op.FC_I8] == [k % 4 == 0 and k >= 8]
    assert run(W, x, dsp_library()) == run(S, x)
    if k % 4 == 0 and k >= 8:  # the portable build and a DSP build without them refuse widened weights
        with pytest.raises(BbrtError, match="PARAM"):
            run(W, x)
        with pytest.raises(BbrtError, match="PARAM"):
            run(W, x, dsp_library(widened=False))
        assert run(S, x, dsp_library(widened=False)) == run(S, x)


def conv3(c: int, m: int, h: int, w: int, pad: int, seed: int) -> onnx.ModelProto:
    """y = Relu(conv3x3(x)), stride 1: the kernel row the DSP path unrolls two outputs at a time."""
    rng = np.random.default_rng(seed)
    g = helper.make_graph(
        [helper.make_node("Conv", ["x", "W", "B"], ["h"], name="conv", pads=[pad] * 4),
         helper.make_node("Relu", ["h"], ["y"], name="act")], "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, m, h - 2 + 2 * pad, w - 2 + 2 * pad])],
        [numpy_helper.from_array((rng.standard_normal((m, c, 3, 3)) * 0.4).astype(np.float32), "W"),
         numpy_helper.from_array((rng.standard_normal(m) * 0.2).astype(np.float32), "B")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=st.integers(1, 4), m=st.integers(1, 4), h=st.integers(3, 9), w=st.integers(3, 21), pad=st.integers(0, 1),
       seed=st.integers(0, 2**16), shift=st.floats(-1.0, 1.0))
def test_dsp_conv_is_bit_exact_with_portable(c: int, m: int, h: int, w: int, pad: int, seed: int,
                                             shift: float) -> None:
    model = conv3(c, m, h, w, pad, seed)
    rng = np.random.default_rng(seed + 1)
    calib = [{"x": (rng.standard_normal((1, c, h, w)) + shift).astype(np.float32)} for _ in range(3)]
    L = lower(model, precision="int8", calib=calib)
    assert any(op.opcode == Op.CONV_I8 for op in L.program.ops)
    x = calib[0]["x"]
    assert run(L, x, dsp_library()) == run(L, x)


def conv_model(cg: int, mg: int, groups: int, kh: int, kw: int, h: int, w: int, stride: int, pad: int,
               seed: int) -> onnx.ModelProto:
    """y = Relu(conv(x)) with any kernel, stride, padding and group count (not depthwise unless cg = mg = 1)."""
    rng = np.random.default_rng(seed)
    c, m = cg * groups, mg * groups
    oh, ow = (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
    g = helper.make_graph(
        [helper.make_node("Conv", ["x", "W", "B"], ["h"], name="conv", pads=[pad] * 4, strides=[stride] * 2,
                          group=groups),
         helper.make_node("Relu", ["h"], ["y"], name="act")], "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, m, oh, ow])],
        [numpy_helper.from_array((rng.standard_normal((m, cg, kh, kw)) / np.sqrt(cg * kh * kw)).astype(np.float32),
                                 "W"),
         numpy_helper.from_array((rng.standard_normal(m) * 0.2).astype(np.float32), "B")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def scramble_rq(L: Lowered, seed: int) -> Lowered:
    """Every CONV_I8/FC_I8 requantization (multiplier, shift) redrawn: shifts from -34 to +1 (the DSP
    kernels' 32-bit path takes [-31, -2], mbqm the rest) and some zero multipliers."""
    rng = np.random.default_rng(seed)
    prog = L.program
    for op in prog.ops:
        if op.opcode in (Op.CONV_I8, Op.FC_I8):
            t = prog.tensors[op.inputs[3]]
            assert t.data is not None  # a constant
            rq = t.data.reshape(-1, 2).copy()
            rq[:, 0] = rng.integers(2**30, 2**31 - 1, len(rq)) * (rng.random(len(rq)) > 0.1)
            rq[:, 1] = rng.integers(-34, 2, len(rq))
            t.data = rq.reshape(t.data.shape).astype(np.int32)
    return Lowered(program=prog, blob=prog.to_bytes(), precision=L.precision)


@settings(max_examples=4 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cg=st.integers(1, 40), mg=st.integers(1, 9), groups=st.sampled_from([1, 1, 1, 2]), kh=st.integers(1, 3),
       kw=st.integers(1, 4), h=st.integers(3, 8), w=st.integers(4, 9), stride=st.integers(1, 2),
       pad=st.integers(0, 1), seed=st.integers(0, 2**16), scramble=st.booleans())
def test_dsp_blocked_conv_is_bit_exact_with_portable(cg: int, mg: int, groups: int, kh: int, kw: int, h: int, w: int,
                                                     stride: int, pad: int, seed: int, scramble: bool) -> None:
    """The DSP build's im2col blocks (2 pixels x 2 channels, widened or int8 patches, odd channel and
    pixel counts, patch tails, strides, padding, groups) and its 32-bit requantization equal the portable
    build (one pixel, one channel, mbqm)."""
    model = conv_model(cg, mg, groups, kh, kw, h, w, stride, pad, seed)
    rng = np.random.default_rng(seed + 1)
    c = cg * groups
    calib = [{"x": (rng.standard_normal((1, c, h, w)) + 0.5).astype(np.float32)} for _ in range(3)]
    L = lower(model, precision="int8", calib=calib)
    assert any(op.opcode == Op.CONV_I8 for op in L.program.ops)
    if scramble:
        L = scramble_rq(L, seed)
    x = calib[0]["x"]
    assert run(L, x, dsp_library()) == run(L, x)
    assert run(widened(L), x, dsp_library()) == run(L, x)  # the convs it can take widened (p[12] = 1)


@settings(max_examples=2 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cg=st.sampled_from([4, 8, 12, 16, 36, 100]), mg=st.sampled_from([2, 4, 6, 10, 66]), kh=st.integers(1, 3),
       kw=st.integers(1, 4), h=st.integers(3, 8), w=st.integers(4, 9), stride=st.integers(1, 2),
       pad=st.integers(0, 1), seed=st.integers(0, 2**16), shift=st.floats(-1.0, 1.0))
def test_dsp_widened_conv_is_bit_exact_with_portable(cg: int, mg: int, kh: int, kw: int, h: int, w: int,
                                                     stride: int, pad: int, seed: int, shift: float) -> None:
    """A conv with widened weights (CONV_I8 p[12] = 1: int16 pairs, the bias folded; 1x1 convs straight from the
    input, interior pairs, padded edges through the staging patch, odd pixel counts, more than 64 channels)
    equals the portable build on the int8 program, which refuses the widened one."""
    model = conv_model(cg, mg, 1, kh, kw, h, w, stride, pad, seed)
    rng = np.random.default_rng(seed + 1)
    calib = [{"x": (rng.standard_normal((1, cg, h, w)) + shift).astype(np.float32)} for _ in range(3)]
    L = lower(model, precision="int8", calib=calib)
    W = widened(L)
    conv = next(op for op in W.program.ops if op.opcode == Op.CONV_I8)
    y = W.program.tensors[conv.outputs[0]].shape
    rq = W.program.tensors[conv.inputs[3]].data
    assert rq is not None
    fast = all(m == 0 or -31 <= t <= -2 for m, t in rq.reshape(-1, 2))
    assert (conv.params[12:13] == [1]) == (w16_chunk(cg, kh * kw, mg) > 0 and y[2] * y[3] >= 2 and fast)
    x = calib[0]["x"]
    assert run(W, x, dsp_library()) == run(L, x)
    if conv.params[12:13] == [1]:
        with pytest.raises(BbrtError, match="PARAM"):
            run(W, x)



def widened_conv(cg: int, mg: int, kh: int, kw: int, h: int, w: int, stride: int, pad: int, seed: int,
                 scramble: bool) -> tuple[Lowered, Lowered, Any, np.ndarray]:
    """One int8 conv lowered from calibration off zero (redrawn requantizations with ``scramble``), its widened
    program, the widened program's CONV_I8 op and the input to run both on."""
    model = conv_model(cg, mg, 1, kh, kw, h, w, stride, pad, seed)
    rng = np.random.default_rng(seed + 1)
    calib = [{"x": (rng.standard_normal((1, cg, h, w)) + 0.3).astype(np.float32)} for _ in range(3)]
    L = lower(model, precision="int8", calib=calib)
    if scramble:
        L = scramble_rq(L, seed)
    W = widened(L)
    return L, W, next(op for op in W.program.ops if op.opcode == Op.CONV_I8), calib[0]["x"]

@settings(max_examples=2 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cg=st.sampled_from([1, 2, 3, 5, 6, 7, 9]), mg=st.sampled_from([2, 4, 8, 10]), kh=st.integers(1, 3),
       kw=st.integers(1, 4), h=st.integers(3, 8), w=st.integers(4, 9), stride=st.integers(1, 2),
       pad=st.integers(0, 1), seed=st.integers(0, 2**16), scramble=st.booleans())
def test_dsp_widened_odd_patch_conv_is_bit_exact_with_portable(cg: int, mg: int, kh: int, kw: int, h: int, w: int,
                                                               stride: int, pad: int, seed: int,
                                                               scramble: bool) -> None:
    """A conv whose patch P = Cg KH KW is not a multiple of 4 (an RGB stem: 3 x 3 x 3) is widened with zero kernel
    columns and as much more right padding (widen.kw_pad); with redrawn requantizations some channels shift by more
    than 22 (the SSAT path, no folded zero point). It equals the portable build on the int8 program."""
    L, W, conv, x = widened_conv(cg, mg, kh, kw, h, w, stride, pad, seed, scramble)
    orig = next(op for op in L.program.ops if op.opcode == Op.CONV_I8)
    e = kw_pad((mg, cg, kh, kw), list(orig.params))
    rq = W.program.tensors[conv.inputs[3]].data
    assert rq is not None
    fast = all(m == 0 or -31 <= t <= -2 for m, t in rq.reshape(-1, 2))
    y = W.program.tensors[conv.outputs[0]].shape
    if fast and y[2] * y[3] >= 2:
        assert conv.params[12] == 1 and conv.params[5] == orig.params[5] + e
        assert W.program.tensors[conv.inputs[1]].shape == (mg, cg, kh, kw + e) and cg * kh * (kw + e) % 4 == 0
    assert run(W, x, dsp_library()) == run(L, x)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cg=st.sampled_from([60, 64, 65, 96, 130, 320, 384]), k=st.sampled_from([1, 3]),
       mg=st.sampled_from([2, 6, 66, 70]),
       h=st.integers(2, 6), w=st.integers(2, 7), stride=st.integers(1, 2), pad=st.integers(0, 1),
       seed=st.integers(0, 2**16), scramble=st.booleans())
def test_dsp_widened_split_conv_is_bit_exact_with_portable(cg: int, k: int, mg: int, h: int, w: int, stride: int,
                                                           pad: int, seed: int, scramble: bool) -> None:
    """A widened conv whose pixel pair does not fit the patch buffer whole (ResNet-8's 64 x 3 x 3) runs its
    reduction in chunks of input channels (widen.w16_chunk, the sums added up in the buffer; 1x1 and 3x3,
    odd patches padded, borders through the staging patch, more than 64 output channels, redrawn shifts) and
    equals the portable build on the int8 program. (The float input stays within the host library's 64 KiB
    payload: Cg <= 384 at 42 pixels.)"""
    if (h + 2 * pad - k) // stride + 1 < 1 or (w + 2 * pad - k) // stride + 1 < 1:
        return
    L, W, conv, x = widened_conv(cg, mg, k, k, h, w, stride, pad, seed, scramble)
    wt = W.program.tensors[conv.inputs[1]]
    rq = W.program.tensors[conv.inputs[3]].data
    assert rq is not None
    y = W.program.tensors[conv.outputs[0]].shape
    if all(m == 0 or -31 <= t <= -2 for m, t in rq.reshape(-1, 2)) and y[2] * y[3] >= 2:
        kk = wt.shape[2] * wt.shape[3]
        assert conv.params[12] == 1 and (w16_chunk(cg, kk, mg) < cg) == (5 * cg * kk > 1536)  # split when too long
    assert run(W, x, dsp_library()) == run(L, x)


@pytest.mark.parametrize("cg,kh,mg,pad", [(64, 1, 7, 1), (64, 1, 7, 0), (12, 1, 5, 0), (30, 3, 5, 1), (40, 3, 4, 1),
                                          (100, 3, 3, 1), (180, 3, 2, 1)])
def test_dsp_conv_patch_sizes_are_bit_exact_with_portable(cg: int, kh: int, mg: int, pad: int) -> None:
    """Patch sizes on each side of the DSP build's limits: widened pair (P <= 307; straight from the input for
    1x1 convs without padding), int8 pair (P = 360, 900), one pixel at a time (P = 900 > 768), the row loop
    (P = 1620)."""
    model = conv_model(cg, mg, 1, kh, kh, 5, 7, 1, pad, cg)
    rng = np.random.default_rng(cg)
    calib = [{"x": (rng.standard_normal((1, cg, 5, 7)) + 0.3).astype(np.float32)} for _ in range(3)]
    L = scramble_rq(lower(model, precision="int8", calib=calib), cg)
    x = calib[0]["x"]
    assert run(L, x, dsp_library()) == run(L, x)


def test_roundf_even_is_exact() -> None:
    """The integer-only round-half-even against numpy's rint (clamped to +-2^30, NaN -> 0)."""
    lib = native.load_host_library()
    lib.bbrt_roundf_even.argtypes = [ctypes.c_float]
    lib.bbrt_roundf_even.restype = ctypes.c_int32
    rng = np.random.default_rng(5)
    edges = [0.0, -0.0, 2**30, -2**30, 2**31, 1e38, -np.inf, np.inf, np.nan, 1e-45, 0.49999997, 0.5000001,
             8388607.5, 8388608.5]
    xs = np.concatenate([rng.standard_normal(3000) * 10.0 ** rng.integers(-3, 11, 3000),
                         np.arange(-8, 8.5, 0.5), edges]).astype(np.float32)
    for x in xs:
        ref = 0 if np.isnan(x) else int(np.clip(np.rint(x), -2**30, 2**30))
        assert lib.bbrt_roundf_even(float(x)) == ref, x


needs_qemu = pytest.mark.skipif(shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
                                reason="qemu-system-arm / gcc-arm-none-eabi not installed")


@needs_qemu
def test_cortex_m4_build_runs_dsp_kernels_bit_exact_under_qemu(tmp_path: Path) -> None:
    from bb_edge.adapters.devices.serial_devices import HostDevice, QemuDevice
    from bb_edge.adapters.transports.inproc import InProcFleet
    from bb_edge.bundle.build import build_all
    from bb_edge.compiler.compile import compile_model
    from bb_edge.deployment.manifest import load_deployment
    from tests.support.examples import sample_inputs, small_cnn

    d, m4, hst = tmp_path / "dep", tmp_path / "m4", tmp_path / "host"
    compile_model(small_cnn(), cuts=["p1", "r3", "g"], node_names=["n0", "n1", "n2", "n3"], out_dir=d)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in sample_inputs(16, seed=7)]))
    (built,) = build_all(d, ["n3=qemu-cortex-m4"], m4, calib=d / "calib.npz")  # n3: Flatten, Gemm, Softmax
    build_all(d, ["n3=host"], hst, calib=d / "calib.npz")
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", str(m4 / "n3" / "bbrt.elf")], capture_output=True,
                         text=True, check=True).stdout
    assert "smlad" in dis and "sxtb16" in dis  # the target profile selected the DSP kernels
    dep = load_deployment(built.deployment_dir or d)  # the int8 edges the build chose
    nid = dep.ids()["n3"]
    samples = sample_inputs(3, seed=21)
    with QemuDevice("cortex-m4", m4 / "n3" / "bbrt.elf", m4 / "n3" / "program.bbrt", nid,
                    epoch_file=tmp_path / "epoch") as dev:
        fleet = InProcFleet(dep, external={"n3": dev})
        on_m4 = [fleet.infer(s)["prob"] for s in samples]
        assert not dev.errors
    with HostDevice(hst / "n3" / "bbrt-host", hst / "n3" / "program.bbrt", nid).start() as h:
        fleet = InProcFleet(dep, external={"n3": h})
        on_host = [fleet.infer(s)["prob"] for s in samples]
    for a, b in zip(on_m4, on_host):
        assert np.array_equal(a, b)


def test_widening_is_an_opt_out_of_the_build_and_the_profile(tmp_path: Path) -> None:
    """A Cortex-M4 node's weights are widened to int16 pairs by default; `bb-edge build --no-widen` (option widen
    False) and a profile with "widen_weights": false keep the int8 program (the same bytes as the lowering's),
    and a non-boolean widen_weights is refused when the profile is loaded."""
    import json

    from bb_edge.bbrt.format import DT_INT16, parse
    from bb_edge.bundle.build import build_all
    from bb_edge.compiler.compile import compile_model
    from bb_edge.resources import package_data
    from bb_edge.targets import TargetProfileError, load_target
    from tests.support.examples import sample_inputs, small_cnn

    d = tmp_path / "dep"
    compile_model(small_cnn(), cuts=["p1", "r3", "g"], node_names=["n0", "n1", "n2", "n3"], out_dir=d)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in sample_inputs(16, seed=7)]))
    prof = json.loads((package_data("target_profiles") / "qemu-cortex-m4.json").read_text())
    narrow = tmp_path / "m4-int8.json"
    narrow.write_text(json.dumps({**prof, "widen_weights": False}))

    def program(out: Path, spec: str, options: dict[str, object] | None = None) -> bytes:
        build_all(d, [f"n3={spec}"], out, calib=d / "calib.npz", options=options)
        return (out / "n3" / "program.bbrt").read_bytes()

    wide = program(tmp_path / "wide", "qemu-cortex-m4")
    assert any(t.dtype == DT_INT16 for t in parse(wide).tensors)  # the FC's weights, widened
    by_option = program(tmp_path / "opt", "qemu-cortex-m4", {"widen": False})
    by_profile = program(tmp_path / "prof", str(narrow))
    assert by_option == by_profile != wide
    assert not any(t.dtype == DT_INT16 for t in parse(by_option).tensors)
    # the int8 program's firmware leaves the widened-weight kernels out (BBRT_NO_WIDENED): less code
    code = {k: json.loads((tmp_path / k / "n3" / "bbrt-build.json").read_text())["code_bytes"] for k in ("wide", "opt")}
    assert code["opt"] < code["wide"], code  # an FC node: its widened row kernel (~0.9 KB)
    narrow.write_text(json.dumps({**prof, "widen_weights": "no"}))
    with pytest.raises(TargetProfileError, match="widen_weights"):
        load_target(str(narrow))


# ---------------------------------------------------------------- depthwise conv and residual add (int8)
def mbqm(x: int, m: int, shift: int) -> int:
    """TFLite's single-rounding fixed-point multiply (the kernels' mbqm), in Python integers."""
    total = 31 - min(30, max(-31, shift))
    r = (x * m + (1 << (total - 1))) >> total
    return max(-(2**30 - 1), min(2**30 - 1, r))


def mbqm_smaller_than_one(x: int, m: int, shift: int) -> int:
    """TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp (its int8 ADD): a rounding doubling high
    multiply (round half up), then RoundingDivideByPOT (round half away from zero). A positive shift (a
    multiplier >= 1, e.g. the output of an Add + Relu whose calibration is all zero: a degenerate output
    scale) multiplies x by 2^shift first, saturated to int32, as TFLite's MultiplyByQuantizedMultiplier
    (bbrt's add_rq); a shift below -31 divides by 2^31."""
    e = min(31, -shift) if shift < 0 else 0
    if shift > 0:
        x = max(-(2**31), min(2**31 - 1, x << min(30, shift)))
    h = min(2**31 - 1, (x * m + (1 << 30)) >> 31)
    return h if e == 0 else (h + (1 << (e - 1)) - (h < 0)) >> e


def quantize(x: np.ndarray, scale: float, zp: int) -> np.ndarray:
    """bbrt's QUANTIZE: round half to even of x / scale in float32, + zero point, saturated."""
    q = np.rint(x.astype(np.float32) / np.float32(scale)).astype(np.int64) + zp
    return np.clip(q, -128, 127)


def dequantize(q: np.ndarray, scale: float, zp: int) -> bytes:
    """bbrt's DEQUANTIZE of int8 values: the float32 output bytes."""
    return ((q.astype(np.int64) - zp).astype(np.float32) * np.float32(scale)).astype(np.float32).tobytes()


def depthwise(c: int, h: int, w: int, k: tuple[int, int], s: int, pad: tuple[int, int], d: int, relu6: bool,
              seed: int) -> onnx.ModelProto:
    """y = Clip(0, 6) or Relu of a depthwise conv (group = channels)."""
    rng = np.random.default_rng(seed)
    act = helper.make_node("Clip", ["h", "lo", "hi"], ["y"], name="act") if relu6 else \
        helper.make_node("Relu", ["h"], ["y"], name="act")
    inits = [numpy_helper.from_array((rng.standard_normal((c, 1, *k)) * 0.5).astype(np.float32), "W"),
             numpy_helper.from_array((rng.standard_normal(c) * 0.3).astype(np.float32), "B")]
    if relu6:
        inits += [numpy_helper.from_array(np.array(0.0, np.float32), "lo"),
                  numpy_helper.from_array(np.array(6.0, np.float32), "hi")]
    g = helper.make_graph(
        [helper.make_node("Conv", ["x", "W", "B"], ["h"], name="conv", group=c, kernel_shape=list(k),
                          strides=[s, s], dilations=[d, d], pads=[pad[0], pad[1], pad[0], pad[1]]), act],
        "dw", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def conv_i8_reference(L: Lowered, x: np.ndarray) -> bytes:
    """The program's QUANTIZE, CONV_I8 (integers straight from its definition: padding taps add nothing),
    DEQUANTIZE, in Python: the independent oracle of the depthwise kernels."""
    prog = L.program
    (op,) = [o for o in prog.ops if o.opcode == Op.CONV_I8]
    tx, tw, tb, trq, ty = (prog.tensors[i] for i in (*op.inputs, op.outputs[0]))
    sh, sw, pt, pl, _, _, dh, dw, grp, amin, amax = op.params[:11]
    q = quantize(x, tx.scale, tx.zero_point)[0]
    assert tw.data is not None and tb.data is not None and trq.data is not None
    wt, b, rq = tw.data.astype(np.int64), tb.data.astype(np.int64), trq.data.astype(np.int64)
    m_out, c_in = wt.shape[0], q.shape[0]
    _, _, oh, ow = ty.shape
    out = np.zeros((m_out, oh, ow), np.int64)
    for oc in range(m_out):
        ic = oc // (m_out // grp) * (c_in // grp)
        for oy in range(oh):
            for ox in range(ow):
                acc = int(b[oc])
                for ky in range(wt.shape[2]):
                    for kx in range(wt.shape[3]):
                        iy, ix = oy * sh - pt + ky * dh, ox * sw - pl + kx * dw
                        if 0 <= iy < q.shape[1] and 0 <= ix < q.shape[2]:
                            acc += (int(q[ic, iy, ix]) - tx.zero_point) * int(wt[oc, 0, ky, kx])
                r = mbqm(acc, int(rq[2 * oc]), int(rq[2 * oc + 1])) + ty.zero_point
                out[oc, oy, ox] = min(amax, max(amin, r))
    return dequantize(out, ty.scale, ty.zero_point)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=st.integers(1, 5), h=st.integers(1, 9), w=st.integers(1, 13), kh=st.sampled_from([1, 2, 3, 3, 4, 5]),
       kw=st.sampled_from([1, 2, 3, 3, 4, 5]), s=st.sampled_from([1, 1, 2, 3, 4]), pt=st.integers(0, 2),
       pl=st.integers(0, 2), d=st.sampled_from([1, 1, 2]), relu6=st.booleans(),
       seed=st.integers(0, 2**16), shift=st.floats(-1.0, 1.0))
def test_depthwise_dsp_and_portable_equal_the_integer_reference(c: int, h: int, w: int, kh: int, kw: int, s: int,
                                                                pt: int, pl: int, d: int, relu6: bool, seed: int,
                                                                shift: float) -> None:
    """Depthwise CONV_I8 (band strips, SMLAD pair rows, 3x3 and Hx1 paths) on odd channel counts, strides,
    padding and dilation: portable and DSP builds both equal the integer reference."""
    pt, pl = min(pt, (kh - 1) * d), min(pl, (kw - 1) * d)  # a padding inside the dilated kernel
    if h + 2 * pt < (kh - 1) * d + 1 or w + 2 * pl < (kw - 1) * d + 1:
        return
    model = depthwise(c, h, w, (kh, kw), s, (pt, pl), d, relu6, seed)
    rng = np.random.default_rng(seed + 1)
    calib = [{"x": (rng.standard_normal((1, c, h, w)) + shift).astype(np.float32)} for _ in range(3)]
    L = lower(model, precision="int8", calib=calib)
    (conv,) = [op for op in L.program.ops if op.opcode == Op.CONV_I8]
    assert conv.params[8] == c  # depthwise: one group per channel
    x = calib[0]["x"]
    ref = conv_i8_reference(L, x)
    assert run(L, x) == ref
    assert run(L, x, dsp_library()) == ref


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=st.integers(1, 9), h=st.integers(1, 17), w=st.integers(1, 5), pad=st.integers(0, 1), relu6=st.booleans(),
       seed=st.integers(0, 2**16), shift=st.floats(-1.0, 1.0))
def test_depthwise_over_the_whole_plane_equals_the_integer_reference(c: int, h: int, w: int, pad: int, relu6: bool,
                                                                     seed: int, shift: float) -> None:
    """A depthwise kernel as large as its plane (the streaming model's 15x1 over 15x1): without padding the DSP
    build takes one dot product per channel (dw_whole_plane, odd lengths, short tails), with padding the band;
    portable and DSP builds both equal the integer reference."""
    model = depthwise(c, h, w, (h, w), 1, (pad, pad), 1, relu6, seed)
    rng = np.random.default_rng(seed + 1)
    calib = [{"x": (rng.standard_normal((1, c, h, w)) + shift).astype(np.float32)} for _ in range(3)]
    L = lower(model, precision="int8", calib=calib)
    x = calib[0]["x"]
    ref = conv_i8_reference(L, x)
    assert run(L, x) == ref
    assert run(L, x, dsp_library()) == ref


@pytest.mark.parametrize("shape", [(1, 5, 3, 1), (1, 3, 7, 1), (1, 4, 9, 9), (1, 64, 25, 5)])
def test_depthwise_hx1_and_model_shapes_equal_the_integer_reference(shape: tuple[int, int, int, int]) -> None:
    """The streaming model's Hx1 maps (kernel Kx1) and KWS's 25x5 map, both builds."""
    c, h, w = shape[1:]
    for k, s, pad, relu6 in [((3, 1) if w == 1 else (3, 3), 1, (0, 0) if w == 1 else (1, 1), False),
                             ((min(h, 10), 1) if w == 1 else (3, 3), 2 if w > 1 else 1, (0, 0), True)]:
        model = depthwise(c, h, w, k, s, pad, 1, relu6, 7)
        rng = np.random.default_rng(3)
        calib = [{"x": (rng.standard_normal((1, c, h, w)) + 0.7).astype(np.float32)} for _ in range(3)]
        L = lower(model, precision="int8", calib=calib)
        x = calib[0]["x"]
        ref = conv_i8_reference(L, x)
        assert run(L, x) == ref
        assert run(L, x, dsp_library()) == ref


def add_model(a_shape: list[int], b_shape: list[int]) -> onnx.ModelProto:
    """y = Relu(a + b) with two graph inputs (numpy broadcasting)."""
    out = list(np.broadcast_shapes(tuple(a_shape), tuple(b_shape)))
    g = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["h"], name="add"), helper.make_node("Relu", ["h"], ["y"], name="act")],
        "add", [helper.make_tensor_value_info("a", TensorProto.FLOAT, a_shape),
                helper.make_tensor_value_info("b", TensorProto.FLOAT, b_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def run2(L: Lowered, a: np.ndarray, b: np.ndarray, lib: ctypes.CDLL | None = None) -> bytes:
    """Run a two-input program once (inputs in edge order); the output tensor's bytes."""
    orig = host_mod.load_host_library
    if lib is not None:
        host_mod.load_host_library = lambda *a, **k: lib  # type: ignore[assignment]
    try:
        h = HostProgram(L.blob, L.program)
    finally:
        host_mod.load_host_library = orig  # type: ignore[assignment]
    ra, rb = h.recv_tensors()[:2]
    h.run({ra: a, rb: b})
    return h.view(next(e.tensor for e in L.program.edges if e.direction == 1)).tobytes()


def add_i8_reference(L: Lowered, a: np.ndarray, b: np.ndarray) -> bytes:
    """QUANTIZE both, ADD_I8 as TFLite defines it (left shift, two input multipliers, the output's; each a
    TFLite's double rounding, MultiplyByQuantizedMultiplierSmallerThanOneExp), DEQUANTIZE, in Python."""
    prog = L.program
    (op,) = [o for o in prog.ops if o.opcode == Op.ADD_I8]
    ta, tb, ty = (prog.tensors[i] for i in (*op.inputs, op.outputs[0]))
    ls, ma, sa, mb, sb, my, sy, lo, hi = op.params[:9]
    qa = np.broadcast_to(quantize(a, ta.scale, ta.zero_point), ty.shape)
    qb = np.broadcast_to(quantize(b, tb.scale, tb.zero_point), ty.shape)
    rq = mbqm_smaller_than_one
    out = np.array([min(hi, max(lo, rq(rq((int(u) - ta.zero_point) << ls, ma, sa)
                                       + rq((int(v) - tb.zero_point) << ls, mb, sb), my, sy) + ty.zero_point))
                    for u, v in zip(qa.ravel(), qb.ravel())], np.int64)
    return dequantize(out, ty.scale, ty.zero_point)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=st.integers(1, 5), h=st.integers(1, 6), w=st.integers(1, 9),
       kind=st.sampled_from(["same", "b per channel", "a per channel", "b scalar"]), alias=st.booleans(),
       seed=st.integers(0, 2**16), shift=st.floats(-2.0, 2.0), scale=st.floats(0.05, 20.0))
def test_add_i8_dsp_and_portable_equal_the_reference_also_in_place(c: int, h: int, w: int, kind: str, alias: bool,
                                                                   seed: int, shift: float, scale: float) -> None:
    """ADD_I8's flat same-shape loop and broadcast runs, both builds, equal TFLite's integer add; also with
    the output placed over an input (the in-place residual add: each element read before it is written)."""
    check_add(c, h, w, kind, alias, seed, shift, scale)


@pytest.mark.parametrize("alias,seed,shift,scale", [(False, 1, 0.5, 1.0), (True, 2, -1.0, 7.0), (True, 3, 1.5, 0.1)])
def test_add_i8_long_same_shape_runs_equal_the_reference(alias: bool, seed: int, shift: float, scale: float) -> None:
    """Same-shape runs of 1024 elements and more, whose input terms come from 256-entry tables, both builds."""
    check_add(16, 8, 9, "same", alias, seed, shift, scale)


def check_add(c: int, h: int, w: int, kind: str, alias: bool, seed: int, shift: float, scale: float) -> None:
    """One ADD_I8 program on random inputs: the portable and the DSP host builds equal add_i8_reference."""
    full, chan = [1, c, h, w], [1, c, 1, 1]
    a_shape, b_shape = {"same": (full, full), "b per channel": (full, chan), "a per channel": (chan, full),
                        "b scalar": (full, [1])}[kind]
    rng = np.random.default_rng(seed)
    calib = [{"a": (rng.standard_normal(a_shape) + shift).astype(np.float32),
              "b": (rng.standard_normal(b_shape) * scale).astype(np.float32)} for _ in range(3)]
    L = lower(add_model(a_shape, b_shape), precision="int8", calib=calib)
    (op,) = [o for o in L.program.ops if o.opcode == Op.ADD_I8]
    if alias:  # y over the full-shape input (the input is dead after the add)
        src = op.inputs[0] if a_shape == full else op.inputs[1]
        L.program.tensors[op.outputs[0]].offset = L.program.tensors[src].offset
        L = Lowered(program=L.program, blob=L.program.to_bytes(), precision=L.precision)
    a, b = calib[0]["a"], calib[0]["b"]
    ref = add_i8_reference(L, a, b)
    assert run2(L, a, b) == ref
    assert run2(L, a, b, dsp_library()) == ref


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=st.integers(1, 3), h=st.integers(2, 9), w=st.integers(2, 11), k=st.integers(1, 6), s=st.integers(1, 3),
       pad=st.integers(0, 2), include=st.booleans(), seed=st.integers(0, 2**16))
def test_avgpool_i8_dsp_is_bit_exact_with_portable(c: int, h: int, w: int, k: int, s: int, pad: int, include: bool,
                                                   seed: int) -> None:
    """AVGPOOL_I8's window sums (4 bytes per SMLAD step in the DSP build), clipped windows and both counts."""
    k = min(k, h, w)
    pad = min(pad, k - 1)
    g = helper.make_graph(
        [helper.make_node("AveragePool", ["x"], ["y"], name="pool", kernel_shape=[k, k], strides=[s, s],
                          pads=[pad] * 4, count_include_pad=int(include))],
        "pool", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    rng = np.random.default_rng(seed)
    calib = [{"x": (rng.standard_normal((1, c, h, w)) * 3 + 1).astype(np.float32)} for _ in range(3)]
    L = lower(model, precision="int8", calib=calib)
    assert any(op.opcode == Op.AVGPOOL_I8 for op in L.program.ops)
    x = calib[0]["x"]
    assert run(L, x, dsp_library()) == run(L, x)
