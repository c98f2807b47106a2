"""``compile --input-value``: freeze graph inputs as constants so that what they decide folds."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

from bb_edge.errors import InputValueError

#: ``{graph input name: its elements as text}`` as given by ``compile --input-value``.
InputValues = dict[str, list[str]]


def freeze_inputs(model: onnx.ModelProto, input_values: InputValues) -> None:
    """Replace graph inputs by initializers holding ``input_values``; InputValueError listing every problem.

    Each value is given as text, one element per element of the input's (pinned) shape, and must fit
    the input's dtype (an integer in range for an integer input: ``sr=16000`` for an int64 scalar). A frozen input is no
    longer fed at run time: an If it decides (silero VAD's sample rate) folds away.
    """
    inputs = {i.name: i for i in model.graph.input}
    problems: list[str] = []
    frozen: list[onnx.TensorProto] = []
    for name, texts in input_values.items():
        vi = inputs.get(name)
        if vi is None:
            problems.append(f"no graph input {name!r} (inputs: {', '.join(inputs)})")
            continue
        tt = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
        if not vi.type.HasField("tensor_type") or not tt.HasField("shape") or any(d < 0 for d in dims):
            problems.append(f"{name} has no static shape ({dims or 'unknown rank'}); pin it with --input-shape")
            continue
        if len(texts) != int(np.prod(dims, dtype=np.int64)):
            problems.append(f"{name} has shape {dims} ({int(np.prod(dims, dtype=np.int64))} elements), "
                            f"--input-value gives {len(texts)}")
            continue
        dtype = np.dtype(helper.tensor_dtype_to_np_dtype(tt.elem_type))
        try:
            value = np.array([_element(t, dtype) for t in texts], dtype).reshape(dims)
        except ValueError as exc:
            problems.append(f"{name} ({dtype}): {exc}")
            continue
        frozen.append(numpy_helper.from_array(value, name))
    if problems:
        raise InputValueError("--input-value: " + "; ".join(problems))
    names = {t.name for t in frozen}
    keep = [i for i in model.graph.input if i.name not in names]
    del model.graph.input[:]
    model.graph.input.extend(keep)
    model.graph.initializer.extend(frozen)


def _element(text: str, dtype: np.dtype) -> object:
    """One ``--input-value`` element parsed for ``dtype``; ValueError saying why it does not fit."""
    t = text.strip()
    if dtype == np.bool_:
        if t.lower() in ("1", "true"):
            return True
        if t.lower() in ("0", "false"):
            return False
        raise ValueError(f"{text!r} is not a boolean (true/false/1/0)")
    if np.issubdtype(dtype, np.integer):
        try:
            v = int(t)
        except ValueError:
            raise ValueError(f"{text!r} is not an integer") from None
        info = np.iinfo(dtype)
        if not info.min <= v <= info.max:
            raise ValueError(f"{v} is out of range [{info.min}, {info.max}]")
        return v
    if np.issubdtype(dtype, np.floating):
        try:
            return float(t)
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
    raise ValueError(f"inputs of dtype {dtype} cannot be frozen")
