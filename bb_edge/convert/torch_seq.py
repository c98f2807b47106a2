"""Sequence and optional values in the ONNX->torch converter, where their length (or presence) is static.

Inside the converter a sequence is a Python list of tensors and an optional is its value or ``None``. At the
program boundary (:class:`~bb_edge.convert.onnx_torch.ProgramIO`) a sequence graph input of N elements crosses
as N tensor inputs; its element shapes are pinned into the model (:func:`pin_sequences`, model metadata
``bb.sequence_shapes``) from the values it will run on, since an ONNX sequence type carries no length. A
sequence output crosses as its length (an int64 ``[1]`` tensor) followed by its elements; an optional output as
a presence flag (int64 ``[1]``) then its value when present. An op whose result
length depends on run-time data (a SplitToSequence or SequenceAt position computed at run time) is refused with
:class:`~bb_edge.errors.UnsupportedOpError` by the converter's up-front check (its position input is static).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import torch

from bb_edge.errors import UnsupportedOpError

Tensor = torch.Tensor
OpFn = Callable[[list[Any], dict[str, Any]], list[Any]]

#: model metadata key holding ``{input name: [[numpy dtype str, shape], ...]}`` of pinned sequence inputs
SEQ_META = "bb.sequence_shapes"


def is_sequence(vi: onnx.ValueInfoProto) -> bool:
    """Whether a value info declares a sequence of tensors."""
    return vi.type.HasField("sequence_type")


def optional_inner(vi: onnx.ValueInfoProto) -> onnx.TypeProto | None:
    """The type an optional value info wraps (None when it is not an optional)."""
    return vi.type.optional_type.elem_type if vi.type.HasField("optional_type") else None


def elem_dtype(vi: onnx.ValueInfoProto) -> np.dtype[Any]:
    """The numpy element type of a tensor, sequence or optional value info (float32 when undeclared)."""
    t = optional_inner(vi) or vi.type
    t = t.sequence_type.elem_type if t.HasField("sequence_type") else t
    et = t.tensor_type.elem_type if t.HasField("tensor_type") else 0
    return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(et)) if et else np.dtype(np.float32)


def pin_sequences(model: onnx.ModelProto, values: dict[str, Any]) -> onnx.ModelProto:
    """The model with the element dtypes and shapes of its sequence graph inputs pinned from ``values``."""
    pins = {vi.name: [[str(np.asarray(e).dtype), list(np.shape(e))] for e in values[vi.name]]
            for vi in model.graph.input if is_sequence(vi) and isinstance(values.get(vi.name), list)}
    if not pins:
        return model
    m = onnx.ModelProto()
    m.CopyFrom(model)
    keep = [p for p in m.metadata_props if p.key != SEQ_META]
    del m.metadata_props[:]
    m.metadata_props.extend(keep)
    onnx.helper.set_model_props(m, {**{p.key: p.value for p in keep}, SEQ_META: json.dumps(pins)})
    return m


def sequence_inputs(model: onnx.ModelProto, strict: bool = True) -> dict[str, list[tuple[np.dtype[Any], list[int]]]]:
    """Each sequence graph input's pinned elements (dtype, shape); UnsupportedOpError for one not pinned
    (unless not ``strict``: a loop body or branch takes its sequence operands as lists)."""
    meta: dict[str, Any] = next((json.loads(p.value) for p in model.metadata_props if p.key == SEQ_META), {})
    out: dict[str, list[tuple[np.dtype[Any], list[int]]]] = {}
    for vi in model.graph.input:
        if vi.type.HasField("tensor_type"):
            continue
        if not strict and vi.name not in meta:
            continue
        if not is_sequence(vi) or vi.name not in meta:
            kind = vi.type.WhichOneof("value")
            raise UnsupportedOpError(
                f"graph input {vi.name!r} is a {kind} whose length the converter cannot know; pin it with "
                f"bb_edge.convert.torch_seq.pin_sequences (sequences of a static length only)")
        out[vi.name] = [(np.dtype(d), [int(s) for s in shp]) for d, shp in meta[vi.name]]
    return out


def _pos(p: Any, n: int, default: int) -> int:
    """A static position (numpy value or None) as a non-negative index into a sequence of length ``n``."""
    if p is None:
        return default
    k = int(np.asarray(p).reshape(-1)[0])
    return k + n if k < 0 else k


def _insert(x: list[Any], a: dict[str, Any]) -> list[Any]:
    seq = list(x[0])
    seq.insert(_pos(x[2] if len(x) > 2 else None, len(seq), len(seq)), x[1])
    return [seq]


def _erase(x: list[Any], a: dict[str, Any]) -> list[Any]:
    seq = list(x[0])
    del seq[_pos(x[1] if len(x) > 1 else None, len(seq), len(seq) - 1)]
    return [seq]


def _concat(x: list[Any], a: dict[str, Any]) -> list[Any]:
    axis = int(a["axis"])
    if int(a.get("new_axis", 0)):
        return [torch.stack(list(x[0]), dim=axis)]
    return [torch.cat(list(x[0]), dim=axis)]


def _split(x: list[Any], a: dict[str, Any]) -> list[Any]:
    t = x[0]
    axis = int(a.get("axis", 0))
    axis = axis + t.dim() if axis < 0 else axis
    size = int(t.shape[axis])
    split = x[1] if len(x) > 1 else None
    if split is None:
        parts = list(torch.split(t, 1, dim=axis))
        return [[p.squeeze(axis) for p in parts] if not int(a.get("keepdims", 1)) else parts]
    s = np.asarray(split).reshape(-1)
    if np.asarray(split).ndim == 0:
        return [list(torch.split(t, int(s[0]), dim=axis))]
    if int(s.sum()) != size:
        raise UnsupportedOpError(f"SplitToSequence split {s.tolist()} does not add up to {size}")
    return [list(torch.split(t, [int(v) for v in s], dim=axis))]


def _empty(x: list[Any], a: dict[str, Any]) -> list[Any]:
    return [[]]


#: sequence/optional ops without subgraphs (SequenceMap is run by the converter: its body is a submodule)
SEQ_OPS: dict[str, OpFn] = {
    "SequenceConstruct": lambda x, a: [list(x)],
    "SequenceEmpty": _empty,
    "SequenceInsert": _insert,
    "SequenceErase": _erase,
    "SequenceAt": lambda x, a: [x[0][_pos(x[1], len(x[0]), 0)]],
    "SequenceLength": lambda x, a: [torch.tensor(len(x[0]), dtype=torch.int64)],
    "ConcatFromSequence": _concat,
    "SplitToSequence": _split,
    "Optional": lambda x, a: [x[0] if x else None],
    "OptionalHasElement": lambda x, a: [torch.tensor(bool(x) and x[0] is not None)],
    "OptionalGetElement": lambda x, a: [x[0]],
}

#: positions/splits read at conversion time: a run-time one makes the length data-dependent (refused)
SEQ_STATIC_INPUTS = {"SequenceInsert": {2}, "SequenceErase": {1}, "SequenceAt": {1}, "SplitToSequence": {1}}

SEQ_MAP = "SequenceMap"


def run_sequence_map(bodies: Any, n_out: int, args: list[Any], outer: list[Any]) -> list[Any]:
    """SequenceMap: the body once per element of the sequence inputs (tensor inputs passed whole each time).

    ``bodies``: one module shared by every element, or one per element (specialised to its shape).
    """
    n = len(args[0])
    if any(isinstance(v, list) and len(v) != n for v in args):
        raise UnsupportedOpError("SequenceMap over sequences of different lengths")
    if len(bodies) not in (1, n):
        raise UnsupportedOpError(f"SequenceMap body specialised for {len(bodies)} elements, got {n}")
    rows = [bodies[i if len(bodies) > 1 else 0](*[v[i] if isinstance(v, list) else v for v in args], *outer)
            for i in range(n)]
    return [[r[k] for r in rows] for k in range(n_out)]


def flatten_optional(value: Any) -> list[Tensor]:
    """An optional output as the program returns it: a presence flag (int64 ``[1]``), then its value."""
    if value is None:
        return [torch.zeros([1], dtype=torch.int64)]
    return [torch.ones([1], dtype=torch.int64),
            *(flatten_output(value) if isinstance(value, list) else [value.clone()])]


def flatten_output(value: Any) -> list[Tensor]:
    """A sequence output as the program returns it: its length, then its elements (copies, not aliases)."""
    return [torch.tensor([len(value)], dtype=torch.int64), *[v.clone() for v in value]]
