"""Load a Module class from ``FILE.py:ClassName`` and record it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import onnx

from bb_edge.errors import RecordingError
from bb_edge.ir.module import Module, record


def record_from_file(spec: str) -> onnx.ModelProto:
    """Import FILE.py, instantiate ClassName() and record it."""
    file, _, cls_name = spec.rpartition(":")
    path = Path(file)
    if not path.is_file():
        raise RecordingError(f"{file}: no such Python file")
    mod_name = f"bb_user_{path.stem}"
    loader_spec = importlib.util.spec_from_file_location(mod_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise RecordingError(f"cannot import {file}")
    mod = importlib.util.module_from_spec(loader_spec)
    sys.modules[mod_name] = mod
    loader_spec.loader.exec_module(mod)
    cls = getattr(mod, cls_name, None)
    if cls is None or not (isinstance(cls, type) and issubclass(cls, Module)):
        found = [k for k, v in vars(mod).items() if isinstance(v, type) and issubclass(v, Module) and v is not Module]
        raise RecordingError(f"{file} has no Module subclass {cls_name!r}; it has {found}")
    return record(cls(), name=cls_name)
