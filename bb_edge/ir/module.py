"""Module authoring: parameters, layers and recording a forward into ONNX."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import onnx
from onnx import helper, shape_inference

from bb_edge.errors import RecordingError
from bb_edge.ir import ops
from bb_edge.ir.graph import Graph, Value, current_graph, recording

DEFAULT_OPSET = 17
InputSpec = Mapping[str, tuple[Sequence[int | str], Any]]


class Parameter:
    """A trainable array; becomes an initializer named by its attribute path."""

    def __init__(self, array: np.ndarray | Sequence[float]) -> None:
        self.data = np.asarray(array)
        if self.data.dtype == np.float64:
            self.data = self.data.astype(np.float32)
        self.name: str | None = None

    def value(self) -> Value:
        """This parameter as a Value in the graph being recorded."""
        g = current_graph()
        if self.name is None:
            self.name = g.fresh("param")
        g.add_initializer(self.name, self.data)
        return Value(g, self.name, self.data.dtype, self.data.shape)


class Module:
    """Base class of a workload: subclass it and write ``forward`` on symbolic Values.

    Attributes that are Parameters, Modules, or lists/tuples of Modules are
    discovered automatically for naming. Set ``inputs`` (name -> (shape, dtype))
    on the class or pass it to :func:`record`.
    """

    inputs: InputSpec = {}

    def forward(self, *args: Value) -> Value | tuple[Value, ...] | dict[str, Value]:
        """The computation; override in subclasses."""
        raise NotImplementedError

    def __call__(self, *args: Any) -> Any:
        """Record ``forward`` on the arguments."""
        return self.forward(*args)

    def named_parameters(self, prefix: str = "") -> Iterator[tuple[str, Parameter]]:
        """(dotted name, Parameter) for every parameter, depth first."""
        for key, val in vars(self).items():
            path = f"{prefix}{key}"
            if isinstance(val, Parameter):
                yield path, val
            elif isinstance(val, Module):
                yield from val.named_parameters(path + ".")
            elif isinstance(val, (list, tuple)):
                for i, item in enumerate(val):
                    if isinstance(item, Module):
                        yield from item.named_parameters(f"{path}.{i}.")
                    elif isinstance(item, Parameter):
                        yield f"{path}.{i}", item


class Linear(Module):
    """y = x @ W^T + b, recorded as one Gemm."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        bound = 1.0 / np.sqrt(in_features)
        self.weight = Parameter(rng.uniform(-bound, bound, (out_features, in_features)).astype(np.float32))
        self.bias = Parameter(rng.uniform(-bound, bound, (out_features,)).astype(np.float32)) if bias else None

    def forward(self, x: Value) -> Value:  # type: ignore[override]
        """Gemm with transB=1."""
        return ops.gemm(x, self.weight, self.bias, trans_b=True)


class Conv2d(Module):
    """2-D convolution layer (NCHW)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, dilation: int = 1, groups: int = 1, bias: bool = True, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        fan_in = in_channels // groups * kernel_size * kernel_size
        bound = 1.0 / np.sqrt(fan_in)
        self.weight = Parameter(rng.uniform(-bound, bound, (out_channels, in_channels // groups,
                                                              kernel_size, kernel_size)).astype(np.float32))
        self.bias = Parameter(rng.uniform(-bound, bound, (out_channels,)).astype(np.float32)) if bias else None
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups

    def forward(self, x: Value) -> Value:  # type: ignore[override]
        """Conv."""
        return ops.conv(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class BatchNorm2d(Module):
    """Inference-mode batch normalization with (seeded) running statistics."""

    def __init__(self, channels: int, eps: float = 1e-5, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.scale = Parameter(rng.uniform(0.5, 1.5, channels).astype(np.float32))
        self.bias = Parameter(rng.uniform(-0.1, 0.1, channels).astype(np.float32))
        self.mean = Parameter(rng.uniform(-0.1, 0.1, channels).astype(np.float32))
        self.var = Parameter(rng.uniform(0.5, 1.5, channels).astype(np.float32))
        self.eps = eps

    def forward(self, x: Value) -> Value:  # type: ignore[override]
        """BatchNormalization."""
        return ops.batch_norm(x, self.scale, self.bias, self.mean, self.var, self.eps)


class Sequential(Module):
    """Apply layers (Modules or callables on a Value) in order."""

    def __init__(self, *layers: Any) -> None:
        self.layers = list(layers)

    def forward(self, x: Value) -> Value:  # type: ignore[override]
        """Each layer in turn."""
        for layer in self.layers:
            x = layer(x)
        return x


def record(module: Module, inputs: InputSpec | None = None, name: str | None = None,
           opset: int = DEFAULT_OPSET) -> onnx.ModelProto:
    """Record ``module.forward`` on symbolic inputs into a checked, shape-inferred ModelProto.

    ``inputs`` maps input names (in forward's argument order) to (shape,
    dtype); a shape entry may be a string for a symbolic dimension.
    """
    spec = dict(inputs if inputs is not None else module.inputs)
    if not spec:
        raise RecordingError(f"{type(module).__name__} declares no inputs: set `inputs = {{'x': ((1, 4), "
                             f"'float32')}}` on the class or pass inputs= to record()")
    for pname, param in module.named_parameters():
        param.name = pname
    g = Graph()
    graph_inputs = []
    args = []
    for iname, (shape, dtype) in spec.items():
        dt = np.dtype(dtype)
        graph_inputs.append(helper.make_tensor_value_info(iname, helper.np_dtype_to_tensor_dtype(dt), list(shape)))
        g._names[iname] = 1
        args.append(Value(g, iname, dt, tuple(d if isinstance(d, int) else -1 for d in shape)))
    with recording(g):
        try:
            result = module.forward(*args)
        except RecordingError:
            raise
        except Exception as exc:
            raise RecordingError(f"recording {type(module).__name__}.forward failed: {type(exc).__name__}: {exc}") \
                from exc
        outs = _outputs(result)
        final: list[tuple[str, Value]] = []
        for oname, val in outs:
            if val.name == oname:
                final.append((oname, val))
            else:
                # give outputs their public names via Identity so cut lists can name them
                node = helper.make_node("Identity", [val.name], [oname], name=g.fresh(f"{oname}_output"))
                if g.nodes:
                    node.metadata_props.extend(g.nodes[-1].metadata_props)
                g.nodes.append(node)
                final.append((oname, Value(g, oname, val.dtype, None)))
    graph = helper.make_graph(
        g.nodes, name or type(module).__name__, graph_inputs,
        [helper.make_tensor_value_info(o, helper.np_dtype_to_tensor_dtype(v.dtype), None) for o, v in final],
        initializer=list(g.initializers.values()),
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="bb-edge")
    model.ir_version = 8
    try:
        inferred = shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except Exception as exc:
        raise RecordingError(f"the recorded graph fails ONNX shape inference: {exc}") from exc
    known = {v.name: v for v in inferred.graph.value_info}
    for out in inferred.graph.output:
        if not out.type.tensor_type.HasField("shape") and out.name in known:
            out.CopyFrom(known[out.name])
    try:
        onnx.checker.check_model(inferred)
    except onnx.checker.ValidationError as exc:
        raise RecordingError(f"the recorded graph fails onnx.checker: {exc}") from exc
    return inferred


def _outputs(result: Any) -> list[tuple[str, Value]]:
    if isinstance(result, Value):
        return [("output", result)]
    if isinstance(result, dict):
        return [(str(k), v) for k, v in result.items()]
    if isinstance(result, (tuple, list)):
        return [(f"output{i}", v) for i, v in enumerate(result)]
    raise RecordingError(f"forward must return a Value, a tuple or a dict of Values, not {type(result).__name__}")
