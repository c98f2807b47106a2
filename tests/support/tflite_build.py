"""Write small .tflite flatbuffers with the ``tflite`` schema package's builder functions (test inputs).

One op (or a few) with int8 tensors, their own scales and zero points: the per-op tests run such a file
in the TFLite interpreter (the oracle) and through bb-edge; the bad-input tests write files that are
wrong in one named way (a schema version, a custom op, a buffer offset past the end, ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flatbuffers
import numpy as np
import tflite

TYPES = {"FLOAT32": 0, "INT32": 2, "UINT8": 3, "INT64": 4, "INT16": 7, "INT8": 9}
CODES = {v: k for k, v in tflite.utils.BUILTIN_OPCODE2NAME.items()}


@dataclass
class T:
    """A tensor: name, dtype, shape, constant data, per-tensor or per-channel (scale, zero point, axis)."""

    name: str
    shape: tuple[int, ...]
    dtype: str = "INT8"
    data: np.ndarray | None = None
    scale: list[float] | None = None
    zero_point: list[int] | None = None
    axis: int = 0
    buffer_offset: tuple[int, int] | None = None  # (offset, size) into the file instead of inline data
    variable: bool = False  # is_variable: state an op keeps across invocations (SVDF's activation state)


@dataclass
class O:  # noqa: E742 - short on purpose: the tests write many
    """An op: builtin name (or CUSTOM with ``custom``), tensor indices, options as (table name, {field: value})."""

    op: str
    inputs: list[int]
    outputs: list[int]
    options: tuple[str, dict[str, Any]] | None = None
    custom: str | None = None
    intermediates: list[int] | None = None  # the op's intermediate tensors (the integer LSTM's scales)


@dataclass
class M:
    """A model of one subgraph (``version`` and ``signature_subgraph`` for the bad-input tests)."""

    tensors: list[T]
    ops: list[O]
    inputs: list[int]
    outputs: list[int]
    version: int = 3
    signature_subgraph: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _vec(b: flatbuffers.Builder, start: Any, values: list[Any], kind: str) -> int:
    start(b, len(values))
    for v in reversed(values):
        getattr(b, f"Prepend{kind}")(v)
    return b.EndVector()


def build(m: M) -> bytes:
    """The .tflite bytes of ``m``."""
    b = flatbuffers.Builder(4096)
    bufs = []
    for t in [None, *m.tensors]:
        data = None if t is None or t.data is None else np.ascontiguousarray(t.data).tobytes()
        dv = b.CreateByteVector(data) if data else None
        tflite.BufferStart(b)
        if dv is not None:
            tflite.BufferAddData(b, dv)
        if t is not None and t.buffer_offset is not None:
            tflite.BufferAddOffset(b, t.buffer_offset[0])
            tflite.BufferAddSize(b, t.buffer_offset[1])
        bufs.append(tflite.BufferEnd(b))
    tens = []
    for k, t in enumerate(m.tensors):
        name = b.CreateString(t.name)
        shape = _vec(b, tflite.TensorStartShapeVector, list(t.shape), "Int32")
        q = None
        if t.scale is not None:
            sv = _vec(b, tflite.QuantizationParametersStartScaleVector, [float(s) for s in t.scale], "Float32")
            zv = _vec(b, tflite.QuantizationParametersStartZeroPointVector, [int(z) for z in (t.zero_point or [])],
                      "Int64")
            tflite.QuantizationParametersStart(b)
            tflite.QuantizationParametersAddScale(b, sv)
            tflite.QuantizationParametersAddZeroPoint(b, zv)
            tflite.QuantizationParametersAddQuantizedDimension(b, t.axis)
            q = tflite.QuantizationParametersEnd(b)
        tflite.TensorStart(b)
        tflite.TensorAddShape(b, shape)
        tflite.TensorAddType(b, TYPES[t.dtype])
        tflite.TensorAddBuffer(b, k + 1)
        tflite.TensorAddName(b, name)
        if q is not None:
            tflite.TensorAddQuantization(b, q)
        if t.variable:
            tflite.TensorAddIsVariable(b, True)
        tens.append(tflite.TensorEnd(b))
    names = []
    for o in m.ops:
        key = (o.op, o.custom)
        if key not in names:
            names.append(key)
    codes = []
    for op, custom in names:
        cc = b.CreateString(custom) if custom else None
        tflite.OperatorCodeStart(b)
        tflite.OperatorCodeAddDeprecatedBuiltinCode(b, min(CODES[op], 127))
        tflite.OperatorCodeAddBuiltinCode(b, CODES[op])
        tflite.OperatorCodeAddVersion(b, 1)
        if cc is not None:
            tflite.OperatorCodeAddCustomCode(b, cc)
        codes.append(tflite.OperatorCodeEnd(b))
    ops = []
    for o in m.ops:
        iv = _vec(b, tflite.OperatorStartInputsVector, o.inputs, "Int32")
        ov = _vec(b, tflite.OperatorStartOutputsVector, o.outputs, "Int32")
        mv = None if o.intermediates is None else _vec(b, tflite.OperatorStartIntermediatesVector, o.intermediates,
                                                       "Int32")
        opt = None
        if o.options is not None:
            cls, fields = o.options
            getattr(tflite, f"{cls}Start")(b)
            for k, v in fields.items():
                getattr(tflite, f"{cls}Add{k}")(b, v)
            opt = getattr(tflite, f"{cls}End")(b)
        tflite.OperatorStart(b)
        tflite.OperatorAddOpcodeIndex(b, names.index((o.op, o.custom)))
        tflite.OperatorAddInputs(b, iv)
        tflite.OperatorAddOutputs(b, ov)
        if mv is not None:
            tflite.OperatorAddIntermediates(b, mv)
        if opt is not None:
            tflite.OperatorAddBuiltinOptionsType(b, getattr(tflite.BuiltinOptions, o.options[0]))  # type: ignore[index]
            tflite.OperatorAddBuiltinOptions(b, opt)
        ops.append(tflite.OperatorEnd(b))
    tv = _vec(b, tflite.SubGraphStartTensorsVector, tens, "UOffsetTRelative")
    inv = _vec(b, tflite.SubGraphStartInputsVector, m.inputs, "Int32")
    outv = _vec(b, tflite.SubGraphStartOutputsVector, m.outputs, "Int32")
    opv = _vec(b, tflite.SubGraphStartOperatorsVector, ops, "UOffsetTRelative")
    tflite.SubGraphStart(b)
    tflite.SubGraphAddTensors(b, tv)
    tflite.SubGraphAddInputs(b, inv)
    tflite.SubGraphAddOutputs(b, outv)
    tflite.SubGraphAddOperators(b, opv)
    sg = tflite.SubGraphEnd(b)
    sigs = None
    if m.signature_subgraph is not None:
        key = b.CreateString("serving_default")
        tflite.SignatureDefStart(b)
        tflite.SignatureDefAddSignatureKey(b, key)
        tflite.SignatureDefAddSubgraphIndex(b, m.signature_subgraph)
        sig = tflite.SignatureDefEnd(b)
        sigs = _vec(b, tflite.ModelStartSignatureDefsVector, [sig], "UOffsetTRelative")
    sgv = _vec(b, tflite.ModelStartSubgraphsVector, [sg], "UOffsetTRelative")
    cv = _vec(b, tflite.ModelStartOperatorCodesVector, codes, "UOffsetTRelative")
    bv = _vec(b, tflite.ModelStartBuffersVector, bufs, "UOffsetTRelative")
    desc = b.CreateString("bb-edge test")
    tflite.ModelStart(b)
    tflite.ModelAddVersion(b, m.version)
    tflite.ModelAddOperatorCodes(b, cv)
    tflite.ModelAddSubgraphs(b, sgv)
    tflite.ModelAddDescription(b, desc)
    tflite.ModelAddBuffers(b, bv)
    if sigs is not None:
        tflite.ModelAddSignatureDefs(b, sigs)
    b.Finish(tflite.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())


#: an SVDF test case: (batch, inputs, filters, rank, memory, s_x, z_x, s_state, s_y, z_y)
Case = tuple[int, int, int, int, int, float, int, float, float, int]


def svdf_model(case: Case, bias: bool = True, act_fn: int = 1, state_zp: int = 0, swf: float = 0.01,
               swt: float = 0.0003, wt_max: int = 32768, b_max: int = 5000) -> bytes:
    """One int8 SVDF (TFLM's keyword models): ``case`` (batch, inputs, filters, rank, memory, s_x, z_x, s_state,
    s_y, z_y), random int8 feature weights, int16 time weights, int32 bias, an int16 variable state."""
    nb, ni, nf, rank, nm, sx, zx, ss, sy, zy = case
    rng = np.random.default_rng(60 + nf + ni)
    wf = rng.integers(-128, 128, (nf, ni)).astype(np.int8)
    wt = rng.integers(-wt_max, wt_max, (nf, nm)).astype(np.int16)
    b = rng.integers(-b_max, b_max, nf // rank).astype(np.int32)
    tens = [act("x", (nb, ni), sx, zx), T("wf", (nf, ni), "INT8", wf, [swf], [0]),
            T("wt", (nf, nm), "INT16", wt, [swt], [0]), T("b", (nf // rank,), "INT32", b, [sx * swf], [0]),
            T("state", (nb, nf * nm), "INT16", None, [ss], [state_zp], variable=True),
            act("y", (nb, nf // rank), sy, zy)]
    opts = ("SVDFOptions", {"Rank": rank, "FusedActivationFunction": act_fn})
    return build(M(tens, [O("SVDF", [0, 1, 2, 3 if bias else -1, 4], [5], opts)], [0], [5]))


LstmCase = tuple[int, int, int, int, bool]  # (steps, batch, inputs, cells, time_major)


def lstm_model(case: LstmCase, sx: float = 0.05, zx: int = 3, sy: float = 0.02, zy: int = -2,
               hz: tuple[float, int] | None = None, cell_log2: int = -11, act_fn: int = 4, cell_clip: float = 0.0,
               w_scale: float = 0.004, peephole: bool = False, projection: bool = False, seed: int = 0) -> bytes:
    """One int8 UNIDIRECTIONAL_SEQUENCE_LSTM (8x8->16, as the converter writes a Keras LSTM): int8 input and
    output, per-tensor int8 weights, int32 biases, an int8 output state and int16 cell state (variables), the
    five intermediates (four gate scales 2^-12, the hidden scale and zero point ``hz``, default the output's)."""
    nt, nb, ni, nc, tm = case
    rng = np.random.default_rng(40 + seed + ni + nc)
    ws = [w_scale * (1 + 0.25 * k) for k in range(8)]
    tens = [act("x", (nt, nb, ni) if tm else (nb, nt, ni), sx, zx)]
    for k in range(4):
        tens.append(T(f"wx{k}", (nc, ni), "INT8", rng.integers(-127, 128, (nc, ni)).astype(np.int8), [ws[k]], [0]))
    for k in range(4):
        tens.append(T(f"wh{k}", (nc, nc), "INT8", rng.integers(-127, 128, (nc, nc)).astype(np.int8), [ws[4 + k]], [0]))
    for k in range(4):
        tens.append(T(f"b{k}", (nc,), "INT32", rng.integers(-3000, 3000, nc).astype(np.int32), [sx * ws[k]], [0]))
    tens += [T("h", (nb, nc), "INT8", None, [sy], [zy], variable=True),
             T("c", (nb, nc), "INT16", None, [2.0 ** cell_log2], [0], variable=True),
             act("y", (nt, nb, nc) if tm else (nb, nt, nc), sy, zy)]
    hs, hzp = hz if hz is not None else (sy, zy)
    tens += [T(f"g{k}", (), "INT16", None, [2.0 ** -12], [0]) for k in range(4)]
    tens.append(T("hid", (), "INT8", None, [hs], [hzp]))
    ins = [0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, 9, 10, 11, 12, -1, -1, 13, 14, -1, -1, -1, -1]
    if peephole:
        tens.append(T("p", (nc,), "INT16", rng.integers(-100, 100, nc).astype(np.int16), [0.001], [0]))
        ins[9:12] = [len(tens) - 1] * 3
    if projection:
        tens.append(T("pw", (nc, nc), "INT8", rng.integers(-127, 128, (nc, nc)).astype(np.int8), [0.004], [0]))
        ins[16] = len(tens) - 1
    opts = ("UnidirectionalSequenceLSTMOptions", {"FusedActivationFunction": act_fn, "CellClip": cell_clip,
                                                  "TimeMajor": tm})
    return build(M(tens, [O("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [15], opts, intermediates=[16, 17, 18, 19, 20])],
                   [0], [15]))


def act(name: str, shape: tuple[int, ...], scale: float, zp: int, dtype: str = "INT8") -> T:
    """An int8 activation tensor."""
    return T(name, shape, dtype, None, [scale], [zp])


def conv_model(depthwise: bool = False, padding: int = 0, stride: int = 1, activation: int = 1,
               per_channel: bool = True, cin: int = 3, cout: int = 4, hw: tuple[int, int] = (6, 5),
               k: tuple[int, int] = (3, 3),
               seed: int = 0) -> bytes:
    """A CONV_2D (or DEPTHWISE_CONV_2D) of an int8 NHWC input, int8 weights, int32 bias, a fused activation."""
    rng = np.random.default_rng(seed)
    n_out = cin if depthwise else cout
    wshape = (1, *k, n_out) if depthwise else (n_out, *k, cin)
    w = rng.integers(-127, 128, wshape).astype(np.int8)
    ws = (rng.uniform(0.002, 0.01, n_out) if per_channel else np.array([0.005])).astype(np.float32)
    sx = 0.05
    bias = rng.integers(-2000, 2000, n_out).astype(np.int32)
    oh = (hw[0] + stride - 1) // stride if padding == 0 else (hw[0] - k[0]) // stride + 1
    ow = (hw[1] + stride - 1) // stride if padding == 0 else (hw[1] - k[1]) // stride + 1
    tens = [act("x", (1, *hw, cin), sx, 3),
            T("w", wshape, "INT8", w, ws.tolist(), [0] * ws.size, 3 if depthwise else 0),
            T("b", (n_out,), "INT32", bias, (np.float64(sx) * ws).astype(np.float32).tolist(), [0] * ws.size, 0),
            act("y", (1, oh, ow, n_out), 0.08, -5)]
    opts = {"Padding": padding, "StrideW": stride, "StrideH": stride, "FusedActivationFunction": activation}
    if depthwise:
        opts["DepthMultiplier"] = 1
    name = "DEPTHWISE_CONV_2D" if depthwise else "CONV_2D"
    return build(M(tens, [O(name, [0, 1, 2], [3], ("DepthwiseConv2DOptions" if depthwise else "Conv2DOptions", opts))],
                   [0], [3]))


def int8_ops_chain() -> bytes:
    """PRELU -> MAXIMUM -> RESIZE_BILINEAR (x2) -> MINIMUM -> TRANSPOSE_CONV -> BATCH_MATMUL of a [1, 4, 6, 5] int8
    input (the QEMU test of those ops, and a seed of the program-loader fuzzer)."""
    rng = np.random.default_rng(12)
    alpha = np.array([-100, 3, 60, 127, -128], np.int8)
    c = np.array([-20, 5, -128, 0, 30], np.int8)
    w = rng.integers(-127, 128, (4, 3, 3, 5)).astype(np.int8)
    ws = rng.uniform(0.002, 0.01, 4).astype(np.float32)
    bias = rng.integers(-2000, 2000, 4).astype(np.int32)
    rhs = rng.integers(-128, 128, (4, 3)).astype(np.int8)
    tens = [act("x", (1, 4, 6, 5), 0.05, -3), T("alpha", (1, 1, 5), "INT8", alpha, [0.01], [2]),
            act("p", (1, 4, 6, 5), 0.04, 6), T("c", (5,), "INT8", c, [0.04], [6]), act("m", (1, 4, 6, 5), 0.04, 6),
            T("size", (2,), "INT32", np.array([7, 9], np.int32)), act("r", (1, 7, 9, 5), 0.04, 6),
            act("q", (1, 7, 9, 5), 0.04, 6), act("n", (1, 7, 9, 5), 0.04, 6),
            T("os", (4,), "INT32", np.array([1, 14, 18, 4], np.int32)),
            T("w", w.shape, "INT8", w, ws.tolist(), [0] * 4, 0),
            T("b", (4,), "INT32", bias, (np.float64(0.04) * ws).astype(np.float32).tolist(), [0] * 4, 0),
            act("t", (1, 14, 18, 4), 0.1, -2), T("rhs", (4, 3), "INT8", rhs, [0.02], [3]),
            act("y", (1, 14, 18, 3), 0.3, 1)]
    rs = ("ResizeBilinearOptions", {"AlignCorners": False, "HalfPixelCenters": True})
    tc = ("TransposeConvOptions", {"Padding": 0, "StrideW": 2, "StrideH": 2, "FusedActivationFunction": 1})
    return build(M(tens, [O("PRELU", [0, 1], [2], None), O("MAXIMUM", [2, 3], [4], None),
                          O("RESIZE_BILINEAR", [4, 5], [6], rs), O("RESIZE_BILINEAR", [2, 5], [7], rs),
                          O("MINIMUM", [6, 7], [8], None), O("TRANSPOSE_CONV", [9, 10, 8, 11], [12], tc),
                          O("BATCH_MATMUL", [12, 13], [14], None)], [0], [14]))
