"""ONNX's protobuf messages without the ``onnx`` package: what a serving node needs to read its program.

A node that loads an already split program only parses it, reads its graph and builds its segments'
sub-models; it never checks, converts or infers shapes. Importing ``onnx`` for that costs ~15 MB of resident
memory and ~0.6 s (its C++ extension, ml_dtypes, the operator schemas), which counts against the node's
memory goal (docs/llm.md). This module loads only ``onnx/onnx_ml_pb2.py``, the generated message classes,
which need nothing but ``google.protobuf`` (~2 MB). When ``onnx`` is already imported its own module is
used, so the classes are always the same ones (protobuf keeps one class per message descriptor, and adding
the identical file to the default pool again is a no-op; tests/deployment/test_onnx_proto.py checks both).

The helpers mirror :mod:`onnx.helper`'s for the few calls the serving path makes (``make_graph``,
``make_model``, ``make_tensor_value_info``, ``get_attribute_value``) and give the same messages.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import onnx

#: TensorProto.DataLocation.EXTERNAL
EXTERNAL = 1
#: AttributeProto.AttributeType values that get_attribute_value decodes
_FLOAT, _INT, _STRING, _TENSOR, _GRAPH, _FLOATS, _INTS, _STRINGS, _TENSORS, _GRAPHS = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
#: where the standalone module is registered (never ``onnx.*``: the onnx package stays unimported)
_MODULE_NAME = "bb_edge._onnx_ml_pb2"


@cache
def pb() -> ModuleType:
    """The module of ONNX's generated message classes (``ModelProto``, ``TensorProto`` ...)."""
    if "onnx" in sys.modules:  # already paid for: the same module, the same classes
        return sys.modules["onnx"].onnx_ml_pb2  # type: ignore[no-any-return]
    spec = importlib.util.find_spec("onnx")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the onnx package is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / "onnx_ml_pb2.py"
    file_spec = importlib.util.spec_from_file_location(_MODULE_NAME, path)
    if file_spec is None or file_spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(file_spec)
    sys.modules[_MODULE_NAME] = module  # the generated code registers its classes under its module's name
    file_spec.loader.exec_module(module)
    return module


def load(path: str | Path) -> onnx.ModelProto:
    """Parse an ONNX file; external data stays in its file (``onnx.load(..., load_external_data=False)``)."""
    model = pb().ModelProto()
    model.ParseFromString(Path(path).read_bytes())
    return model


def get_attribute_value(attr: Any) -> Any:
    """The value of an AttributeProto (:func:`onnx.helper.get_attribute_value` for the plain types)."""
    t = attr.type
    if t == _FLOAT:
        return attr.f
    if t == _INT:
        return attr.i
    if t == _STRING:
        return attr.s
    if t == _TENSOR:
        return attr.t
    if t == _GRAPH:
        return attr.g
    if t == _FLOATS:
        return list(attr.floats)
    if t == _INTS:
        return list(attr.ints)
    if t == _STRINGS:
        return list(attr.strings)
    if t == _TENSORS:
        return list(attr.tensors)
    if t == _GRAPHS:
        return list(attr.graphs)
    from onnx import helper  # the rare kinds (sparse tensors, type protos): onnx's own decoder

    return helper.get_attribute_value(attr)


def make_tensor_value_info(name: str, elem_type: int, shape: Sequence[int | str] | None) -> onnx.ValueInfoProto:
    """A ValueInfoProto of a tensor (:func:`onnx.helper.make_tensor_value_info`): ints are dims, strings params."""
    vi = pb().ValueInfoProto()
    vi.name = name
    tt = vi.type.tensor_type
    tt.elem_type = elem_type
    if shape is not None:
        dims = tt.shape.dim
        tt.shape.SetInParent()  # a rank-0 shape is a shape, not an unknown one
        for d in shape:
            dim = dims.add()
            if isinstance(d, int):
                dim.dim_value = d
            elif d is not None:
                dim.dim_param = d
    return vi


def make_graph(nodes: Iterable[Any], name: str, inputs: Iterable[Any], outputs: Iterable[Any],
               initializer: Iterable[Any] = ()) -> onnx.GraphProto:
    """A GraphProto (:func:`onnx.helper.make_graph` without doc string or value infos)."""
    g = pb().GraphProto()
    g.node.extend(nodes)
    g.name = name
    g.input.extend(inputs)
    g.output.extend(outputs)
    g.initializer.extend(initializer)
    return g


def make_model(graph: Any, opset_imports: Iterable[Any], ir_version: int) -> onnx.ModelProto:
    """A ModelProto of ``graph`` (:func:`onnx.helper.make_model` with its opsets and IR version given)."""
    m = pb().ModelProto()
    m.ir_version = ir_version
    m.graph.CopyFrom(graph)
    m.opset_import.extend(opset_imports)
    return m
