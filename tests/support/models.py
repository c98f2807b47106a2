"""Shared helpers for tests: onnx's bundled real models, a monolithic reference run, small bbrt test graphs."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt.format import Op
from bb_edge.bbrt.lower import Lowered

LIGHT = Path(os.path.dirname(onnx.__file__)) / "backend" / "test" / "data" / "light"


def light(name: str) -> Path:
    """Path of one of onnx's bundled 'light' models (real architectures)."""
    return LIGHT / f"light_{name}.onnx"


def monolithic(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Outputs of one ONNX Runtime session over the whole model."""
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    return dict(zip(names, sess.run(names, inputs)))


def random_inputs(model: onnx.ModelProto, seed: int = 0) -> dict[str, np.ndarray]:
    """Random float32 inputs matching the model's input shapes (symbolic dims = 1)."""
    rng = np.random.default_rng(seed)
    out = {}
    for i in model.graph.input:
        dims = [d.dim_value if d.HasField("dim_value") else 1 for d in i.type.tensor_type.shape.dim]
        out[i.name] = rng.standard_normal(dims).astype(np.float32)
    return out


def gemm_relu(rows: int, k: int, n: int, rng: np.random.Generator) -> onnx.ModelProto:
    """y = Relu(x W^T + b), x [rows, k] (FC_I8 once lowered to int8); weights drawn from ``rng``."""
    g = helper.make_graph(
        [helper.make_node("Gemm", ["x", "W", "B"], ["h"], name="fc", transB=1),
         helper.make_node("Relu", ["h"], ["y"], name="act")], "fc",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, n])],
        [numpy_helper.from_array((rng.standard_normal((n, k)) * 0.5).astype(np.float32), "W"),
         numpy_helper.from_array((rng.standard_normal(n) * 0.2).astype(np.float32), "B")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def mlp(rng: np.random.Generator) -> onnx.ModelProto:
    """x[1,32] -> Gemm 64 -> Relu -> Gemm 32: a small model whose two halves have equal compute (2 nodes)."""
    def w(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.3).astype(np.float32)
    g = helper.make_graph(
        [helper.make_node("Gemm", ["x", "W1", "B1"], ["h"], name="fc1", transB=1),
         helper.make_node("Relu", ["h"], ["a"], name="act"),
         helper.make_node("Gemm", ["a", "W2", "B2"], ["y"], name="fc2", transB=1)], "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 32])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32])],
        [numpy_helper.from_array(w(64, 32), "W1"), numpy_helper.from_array(w(64), "B1"),
         numpy_helper.from_array(w(32, 64), "W2"), numpy_helper.from_array(w(32), "B2")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def unfold_fc(L: Lowered) -> Lowered:
    """The program as lowered before the zero-point folding: raw FC bias, FC_I8 param 2 = 0.

    Older programs look like this; the kernels must then correct for the input zero point at run time.
    """
    prog = L.program
    for op in prog.ops:
        if op.opcode == Op.FC_I8:
            op.params[2] = 0
            zx = prog.tensors[op.inputs[0]].zero_point
            w = prog.tensors[op.inputs[1]].data.astype(np.int64)
            b = prog.tensors[op.inputs[2]]
            b.data = (b.data.astype(np.int64) + zx * w.sum(axis=1)).astype(np.int32)
    return Lowered(program=prog, blob=prog.to_bytes(), precision=L.precision)


def seeded_squeezenet(seed: int) -> onnx.ModelProto:
    """onnx's light squeezenet (the same graph, edges, dtypes and shapes) with seeded random weights.

    The bundled model makes every weight with ConstantOfShape(0.02), so its softmax is uniform and two
    copies cannot be told apart. Here each conv weight is an initializer drawn He-scaled (normal,
    std sqrt(2 / fan_in)) so activations keep their scale through the 26 conv+relu layers, and each
    bias normal(0, 0.05); ``seed`` picks the weights (old = 0, new = 1 in the OTA tests). The initializers
    are no longer listed as graph inputs (IR 7), so the only input is ``data_0`` [1, 3, 224, 224].
    """
    src = onnx.load(str(light("squeezenet")))
    rng = np.random.default_rng(seed)
    shapes = {i.name: numpy_helper.to_array(i) for i in src.graph.initializer}
    weights: dict[str, np.ndarray] = {}
    nodes = []
    for node in src.graph.node:
        if node.op_type == "ConstantOfShape":  # weight = fill(shape): draw it instead (He init)
            shape = tuple(int(d) for d in shapes[node.input[0]])
            fan_in = int(np.prod(shape[1:]))
            weights[node.output[0]] = (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        else:
            nodes.append(node)
    for name, a in shapes.items():
        if not name.endswith("__SHAPE"):
            weights[name] = (rng.standard_normal(a.shape) * 0.05).astype(np.float32)
    graph = helper.make_graph(
        nodes, src.graph.name, [i for i in src.graph.input if i.name not in shapes], list(src.graph.output),
        [numpy_helper.from_array(a, name) for name, a in sorted(weights.items())])
    model = helper.make_model(graph, opset_imports=list(src.opset_import))
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model
