"""Read a .tflite flatbuffer into plain Python: tensors (with their data and quantization) and ops.

The flatbuffer is decoded with the ``tflite`` package (flatbuffers' generated Python for TFLite's
schema). Generated flatbuffer code trusts its input (no verifier), so every access here runs under
:func:`_guard`, which turns an out-of-range read into a :class:`TfliteFormatError` naming the part of
the file being read, and every vector length is checked against the file size before it is iterated,
so a corrupt length can neither hang nor exhaust memory. The checks that make a file usable (schema
version, indices in range, buffer offsets inside the file, quantization parameters that agree with
their tensor) are made here once, so the translator (:mod:`bb_edge.tflite.to_onnx`) works on
validated values only.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bb_edge.tflite.errors import TfliteFormatError, TfliteQuantError, TfliteUnsupportedError

#: the schema version every current TFLite converter writes (TFLITE_SCHEMA_VERSION in schema.fbs)
SCHEMA_VERSION = 3
FILE_IDENTIFIER = b"TFL3"
#: numpy dtypes of the TensorType values whose constant data the translator may read
NUMPY_OF = {"FLOAT32": np.float32, "FLOAT16": np.float16, "INT32": np.int32, "UINT8": np.uint8, "INT64": np.int64,
            "BOOL": np.bool_, "INT16": np.int16, "INT8": np.int8, "FLOAT64": np.float64, "UINT32": np.uint32,
            "UINT16": np.uint16}
#: integer ranges of the quantized dtypes (a zero point must lie inside)
QRANGE = {"INT8": (-128, 127), "UINT8": (0, 255), "INT16": (-32768, 32767), "INT32": (-(2**31), 2**31 - 1),
          "INT64": (-(2**63), 2**63 - 1)}
MAX_ELEMENTS = 2**31  # a tensor larger than this is no microcontroller model, and a corrupt shape


@dataclass(frozen=True)
class Quant:
    """A tensor's quantization: ``scale`` and ``zero_point`` per tensor (length 1) or per channel along ``axis``."""

    scale: np.ndarray
    zero_point: np.ndarray
    axis: int

    @property
    def per_tensor(self) -> bool:
        """One scale and zero point for the whole tensor."""
        return self.scale.size == 1


@dataclass
class TflTensor:
    """One tensor of the subgraph: name, TensorType name, shape, constant data (None for activations)."""

    index: int
    name: str
    dtype: str
    shape: tuple[int, ...]
    data: np.ndarray | None
    quant: Quant | None
    buffer: int
    variable: bool = False  # TFLite's is_variable: state an op keeps across invocations (SVDF's)


@dataclass
class TflOp:
    """One operator: builtin name, custom code (CUSTOM only), tensor indices (-1 = absent), its options."""

    index: int
    op: str
    custom: str | None
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    intermediates: tuple[int, ...] = ()  # the integer LSTM's scale-carrying intermediate tensors


@dataclass
class TflGraph:
    """The subgraph to compile, as read and checked."""

    tensors: list[TflTensor]
    ops: list[TflOp]
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    subgraph: int
    n_subgraphs: int


@contextmanager
def _guard(where: str) -> Iterator[None]:
    """Turn a read past the file (or any decoding slip of the generated code) into one typed error."""
    try:
        yield
    except (TfliteFormatError, TfliteQuantError, TfliteUnsupportedError):
        raise
    except (IndexError, struct.error, ValueError, OverflowError, TypeError, UnicodeDecodeError, AttributeError,
            MemoryError, RecursionError) as exc:
        raise TfliteFormatError(f"{where}: the flatbuffer is truncated or corrupt ({type(exc).__name__}: "
                                f"{str(exc)[:80]})") from exc


def _enum_names(cls: type) -> dict[int, str]:
    return {v: k for k, v in vars(cls).items() if not k.startswith("_") and isinstance(v, int)}


class _Reader:
    """One pass over one file (state: the bytes and the decoded enums)."""

    def __init__(self, data: bytes) -> None:
        import tflite  # the schema package: imported when a .tflite is read, not at CLI start

        self.tfl = tflite
        self.buf = data
        self.types = _enum_names(tflite.TensorType)
        self.options_types = _enum_names(tflite.BuiltinOptions)

    def count(self, n: int, elem: int, what: str) -> int:
        """A vector length, checked to fit in the file (so a corrupt length cannot make a long loop)."""
        if n < 0 or n * elem > len(self.buf):
            raise TfliteFormatError(f"{what}: {n} entries do not fit in a file of {len(self.buf)} bytes "
                                    f"(a corrupt length or a truncated file)")
        return n

    def read(self, subgraph: int) -> TflGraph:
        buf = self.buf
        if len(buf) < 8:
            raise TfliteFormatError(f"truncated: {len(buf)} bytes, a TFLite flatbuffer has at least 8")
        if buf[4:8] != FILE_IDENTIFIER:
            raise TfliteFormatError(f"not a TFLite flatbuffer: file identifier {bytes(buf[4:8])!r}, expected "
                                    f"{FILE_IDENTIFIER!r}")
        root = struct.unpack_from("<I", buf, 0)[0]
        if root + 4 > len(buf):
            raise TfliteFormatError(f"truncated: the root table offset {root} is outside the file ({len(buf)} bytes)")
        with _guard("model table"):
            m = self.tfl.Model.GetRootAsModel(buf, 0)
            version = int(m.Version())
        if version != SCHEMA_VERSION:
            raise TfliteFormatError(f"schema version {version}: bb-edge reads TFLite schema version {SCHEMA_VERSION}")
        with _guard("subgraphs"):
            n_sub = self.count(m.SubgraphsLength(), 4, "subgraphs")
        if not 0 <= subgraph < n_sub:
            raise TfliteFormatError(f"subgraph index {subgraph} out of range: the file has {n_sub} subgraph(s)")
        with _guard("signature defs"):
            for k in range(self.count(m.SignatureDefsLength(), 4, "signature defs")):
                s = m.SignatureDefs(k)
                if s is not None and not 0 <= s.SubgraphIndex() < n_sub:
                    raise TfliteFormatError(f"signature def {k}: subgraph index {s.SubgraphIndex()} out of range "
                                            f"(the file has {n_sub} subgraph(s))")
        with _guard("operator codes"):
            codes = [self.opcode(m, k) for k in range(self.count(m.OperatorCodesLength(), 4, "operator codes"))]
        with _guard("buffers"):
            n_buf = self.count(m.BuffersLength(), 4, "buffers")
        with _guard(f"subgraph {subgraph}"):
            g = m.Subgraphs(subgraph)
            if g is None:
                raise TfliteFormatError(f"subgraph {subgraph} is missing")
            n_t = self.count(g.TensorsLength(), 4, "tensors")
            tensors = [self.tensor(m, g, k, n_buf) for k in range(n_t)]
            n_ops = self.count(g.OperatorsLength(), 4, "operators")
            ops = [self.operator(g, k, codes, n_t, n_sub) for k in range(n_ops)]
            ins = self.indices(g.InputsAsNumpy() if g.InputsLength() else [], n_t, "subgraph inputs",
                               allow_absent=False)
            outs = self.indices(g.OutputsAsNumpy() if g.OutputsLength() else [], n_t, "subgraph outputs",
                                allow_absent=False)
        return TflGraph(tensors, ops, ins, outs, subgraph, n_sub)

    def opcode(self, m: Any, k: int) -> tuple[str, str | None]:
        c = m.OperatorCodes(k)
        if c is None:
            raise TfliteFormatError(f"operator code {k} is missing")
        code = max(int(c.BuiltinCode()), int(c.DeprecatedBuiltinCode()))  # the schema's rule for codes >= 127
        name = self.tfl.utils.BUILTIN_OPCODE2NAME.get(code)
        if name is None:
            raise TfliteFormatError(f"operator code {k}: builtin code {code} is unknown to TFLite's schema")
        custom = c.CustomCode()
        return name, (custom.decode("utf-8", "replace") if custom is not None else None)

    def indices(self, arr: Any, n: int, what: str, allow_absent: bool = True) -> tuple[int, ...]:
        vals = tuple(int(v) for v in np.asarray(arr, np.int64).reshape(-1))
        for v in vals:
            if not (0 <= v < n or (allow_absent and v == -1)):
                raise TfliteFormatError(f"{what}: tensor index {v} out of range (the subgraph has {n} tensors)")
        return vals

    def tensor(self, m: Any, g: Any, k: int, n_buf: int) -> TflTensor:
        t = g.Tensors(k)
        if t is None:
            raise TfliteFormatError(f"tensor {k} is missing")
        raw = t.Name()
        name = raw.decode("utf-8", "replace") if raw else f"tensor{k}"
        dtype = self.types.get(int(t.Type()))
        if dtype is None:
            raise TfliteFormatError(f"tensor {k} ({name!r}): tensor type {t.Type()} is unknown to TFLite's schema")
        shape = tuple(int(d) for d in (t.ShapeAsNumpy() if self.count(t.ShapeLength(), 4, f"tensor {name!r} shape")
                                       else []))
        if any(d < 0 for d in shape) or math.prod(shape) > MAX_ELEMENTS:
            raise TfliteFormatError(f"tensor {k} ({name!r}): shape {list(shape)} is not a static shape of at most "
                                    f"2^31 elements")
        if t.Sparsity() is not None:
            raise TfliteUnsupportedError("sparse tensor", k, f"tensor {name!r} is stored sparse (densify it when "
                                         f"converting)")
        b = int(t.Buffer())
        if not 0 <= b < n_buf:
            raise TfliteFormatError(f"tensor {k} ({name!r}): buffer index {b} out of range (the file has {n_buf} "
                                    f"buffers)")
        return TflTensor(k, name, dtype, shape, self.data(m, b, name, dtype, shape), self.quant(t, name, dtype, shape),
                         b, bool(t.IsVariable()))

    def data(self, m: Any, b: int, name: str, dtype: str, shape: tuple[int, ...]) -> np.ndarray | None:
        buf = m.Buffers(b)
        if buf is None:
            return None
        off, size = int(buf.Offset()), int(buf.Size())
        if off > 1:  # data beside the flatbuffer (files over 2 GB): offset and size into the file
            if off + size > len(self.buf):
                raise TfliteFormatError(f"buffer {b} (tensor {name!r}): offset {off} + size {size} is outside the "
                                        f"file ({len(self.buf)} bytes)")
            raw = np.frombuffer(self.buf, np.uint8, count=size, offset=off)
        else:
            n = self.count(buf.DataLength(), 1, f"buffer {b}")
            if n == 0:
                return None
            raw = buf.DataAsNumpy()
        if raw.size == 0:
            return None
        np_t = NUMPY_OF.get(dtype)
        if np_t is None:
            return raw
        need = math.prod(shape) * np.dtype(np_t).itemsize
        if raw.size != need:
            raise TfliteFormatError(f"buffer {b} (tensor {name!r}): {raw.size} bytes, its shape {list(shape)} of "
                                    f"{dtype} needs {need}")
        return np.frombuffer(raw.tobytes(), np_t).reshape(shape)

    def quant(self, t: Any, name: str, dtype: str, shape: tuple[int, ...]) -> Quant | None:
        q = t.Quantization()
        if q is None or self.count(q.ScaleLength(), 4, f"tensor {name!r} scales") == 0:
            return None
        scale = np.asarray(q.ScaleAsNumpy(), np.float32).reshape(-1)
        nz = self.count(q.ZeroPointLength(), 8, f"tensor {name!r} zero points")
        zp = np.asarray(q.ZeroPointAsNumpy(), np.int64).reshape(-1) if nz else np.zeros(0, np.int64)
        if zp.size != scale.size:
            raise TfliteQuantError(name, f"{scale.size} scale(s) but {zp.size} zero point(s)")
        axis = int(q.QuantizedDimension())
        if scale.size > 1 and not (0 <= axis < len(shape) and shape[axis] == scale.size):
            raise TfliteQuantError(name, f"{scale.size} per-channel scales along dimension {axis} of shape "
                                   f"{list(shape)}")
        if not np.all(np.isfinite(scale)) or np.any(scale < 0) or (dtype != "INT32" and np.any(scale == 0)):
            raise TfliteQuantError(name, f"scale {scale[:4].tolist()} is not finite and positive")
        lo, hi = QRANGE.get(dtype, (-(2**63), 2**63 - 1))
        if np.any(zp < lo) or np.any(zp > hi):
            raise TfliteQuantError(name, f"zero point {zp[:4].tolist()} is outside the {dtype} range")
        return Quant(scale, zp, axis)

    def operator(self, g: Any, k: int, codes: list[tuple[str, str | None]], n_t: int, n_sub: int) -> TflOp:
        o = g.Operators(k)
        if o is None:
            raise TfliteFormatError(f"operator {k} is missing")
        ci = int(o.OpcodeIndex())
        if not 0 <= ci < len(codes):
            raise TfliteFormatError(f"operator {k}: opcode index {ci} out of range (the file has {len(codes)} "
                                    f"operator codes)")
        name, custom = codes[ci]
        ins = self.indices(o.InputsAsNumpy() if self.count(o.InputsLength(), 4, f"operator {k} inputs") else [],
                           n_t, f"operator {k} ({name}) inputs")
        outs = self.indices(o.OutputsAsNumpy() if self.count(o.OutputsLength(), 4, f"operator {k} outputs") else [],
                            n_t, f"operator {k} ({name}) outputs")
        mids = self.indices(o.IntermediatesAsNumpy() if self.count(o.IntermediatesLength(), 4,
                                                                    f"operator {k} intermediates") else [],
                            n_t, f"operator {k} ({name}) intermediates")
        op = TflOp(k, name, custom if name == "CUSTOM" else None, ins, outs, self.options(o, k, name), mids)
        for key in ("then_subgraph_index", "else_subgraph_index", "cond_subgraph_index", "body_subgraph_index",
                    "init_subgraph_index", "subgraph"):
            v = op.options.get(key)
            if v is not None and not 0 <= v < n_sub:
                raise TfliteFormatError(f"operator {k} ({name}): {key} {v} out of range (the file has {n_sub} "
                                        f"subgraph(s))")
        return op

    def options(self, o: Any, k: int, name: str) -> dict[str, Any]:
        """The builtin options the translator reads (and the subgraph indices of control flow), by field name."""
        fields = OPTION_FIELDS.get(name)
        if fields is None:
            return {}
        cls_name, names = fields
        table = o.BuiltinOptions()
        if table is None:  # no options table: TFLite's defaults (all fields zero/false)
            return {}
        want = getattr(self.tfl.BuiltinOptions, cls_name)
        if int(o.BuiltinOptionsType()) != want:
            raise TfliteFormatError(f"operator {k} ({name}): its options are "
                                    f"{self.options_types.get(int(o.BuiltinOptionsType()), '?')}, expected {cls_name}")
        opt = getattr(self.tfl, cls_name)()
        opt.Init(table.Bytes, table.Pos)
        return {snake: getattr(opt, camel)() for camel, snake in names}


def _f(*pairs: str) -> list[tuple[str, str]]:
    return [(p, "".join("_" + c.lower() if c.isupper() else c for c in p).lstrip("_")) for p in pairs]


#: op -> (options table, [(accessor, key)]): the fields the translator uses
OPTION_FIELDS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "CONV_2D": ("Conv2DOptions", _f("Padding", "StrideW", "StrideH", "FusedActivationFunction", "DilationWFactor",
                                    "DilationHFactor")),
    "DEPTHWISE_CONV_2D": ("DepthwiseConv2DOptions", _f("Padding", "StrideW", "StrideH", "DepthMultiplier",
                                                       "FusedActivationFunction", "DilationWFactor",
                                                       "DilationHFactor")),
    "FULLY_CONNECTED": ("FullyConnectedOptions", _f("FusedActivationFunction", "WeightsFormat", "KeepNumDims",
                                                    "AsymmetricQuantizeInputs")),
    "ADD": ("AddOptions", _f("FusedActivationFunction")),
    "SUB": ("SubOptions", _f("FusedActivationFunction")),
    "MUL": ("MulOptions", _f("FusedActivationFunction")),
    "LEAKY_RELU": ("LeakyReluOptions", _f("Alpha")),
    "MEAN": ("ReducerOptions", _f("KeepDims")),
    "SUM": ("ReducerOptions", _f("KeepDims")),
    "RESIZE_NEAREST_NEIGHBOR": ("ResizeNearestNeighborOptions", _f("AlignCorners", "HalfPixelCenters")),
    "SVDF": ("SVDFOptions", _f("Rank", "FusedActivationFunction", "AsymmetricQuantizeInputs")),
    "UNIDIRECTIONAL_SEQUENCE_LSTM": ("UnidirectionalSequenceLSTMOptions", _f(
        "FusedActivationFunction", "CellClip", "ProjClip", "TimeMajor", "AsymmetricQuantizeInputs")),
    "BATCH_MATMUL": ("BatchMatMulOptions", _f("AdjX", "AdjY", "AsymmetricQuantizeInputs")),
    "TRANSPOSE_CONV": ("TransposeConvOptions", _f("Padding", "StrideW", "StrideH", "FusedActivationFunction")),
    "RESIZE_BILINEAR": ("ResizeBilinearOptions", _f("AlignCorners", "HalfPixelCenters")),
    "AVERAGE_POOL_2D": ("Pool2DOptions", _f("Padding", "StrideW", "StrideH", "FilterWidth", "FilterHeight",
                                            "FusedActivationFunction")),
    "MAX_POOL_2D": ("Pool2DOptions", _f("Padding", "StrideW", "StrideH", "FilterWidth", "FilterHeight",
                                        "FusedActivationFunction")),
    "SOFTMAX": ("SoftmaxOptions", _f("Beta")),
    "CONCATENATION": ("ConcatenationOptions", _f("Axis", "FusedActivationFunction")),
    "STRIDED_SLICE": ("StridedSliceOptions", _f("BeginMask", "EndMask", "EllipsisMask", "NewAxisMask",
                                                "ShrinkAxisMask", "Offset")),
    "GATHER": ("GatherOptions", _f("Axis", "BatchDims")),
    "SPLIT": ("SplitOptions", _f("NumSplits")),
    "PACK": ("PackOptions", _f("ValuesCount", "Axis")),
    "UNPACK": ("UnpackOptions", _f("Num", "Axis")),
    "IF": ("IfOptions", _f("ThenSubgraphIndex", "ElseSubgraphIndex")),
    "WHILE": ("WhileOptions", _f("CondSubgraphIndex", "BodySubgraphIndex")),
    "CALL_ONCE": ("CallOnceOptions", _f("InitSubgraphIndex")),
    "CALL": ("CallOptions", _f("Subgraph")),
}


def read_tflite(data: bytes, subgraph: int = 0) -> TflGraph:
    """Decode and check subgraph ``subgraph`` of a .tflite file's bytes; TfliteError (typed) for a bad file."""
    with _guard("file"):
        return _Reader(bytes(data)).read(subgraph)
