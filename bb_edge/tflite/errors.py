"""Typed errors of the .tflite reader and translator: each names what was wrong, and where."""

from __future__ import annotations

from bb_edge.errors import ModelError, UnsupportedOpError


class TfliteError(ModelError):
    """A .tflite file bb-edge cannot compile (the base of the errors below)."""

    fix = "export the model again with the TFLite converter, or give an ONNX QDQ model"


class TfliteFormatError(TfliteError):
    """The file is not a readable TFLite flatbuffer: truncated, a bad offset or index, an unknown schema version."""


class TfliteQuantError(TfliteError):
    """A tensor's quantization parameters are missing or inconsistent (``tensor``: its name)."""

    def __init__(self, tensor: str, why: str) -> None:
        self.tensor = tensor
        super().__init__(f"tensor {tensor!r}: {why}")


class TfliteUnsupportedError(TfliteError, UnsupportedOpError):
    """An op (or an op's option or dtype) the translation to bbrt's int8 lowering does not cover (``op``)."""

    fix = "see docs/bbrt.md (Compiling a .tflite) for the ops bb-edge translates"

    def __init__(self, op: str, index: int, why: str) -> None:
        self.op, self.index = op, index
        super().__init__(f"op {index} ({op}): {why}")
