"""Small float graphs from a list of nodes, ONNX Runtime's answer on them, and seeded normal arrays: the op
tests of the C runtime and its MicroPython twin build their cases from these."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def float_model(nodes: list[onnx.NodeProto], inputs: dict[str, list[int]], inits: dict[str, np.ndarray] | None = None,
                outputs: tuple[str, ...] = ("y",), opset: int = 17) -> onnx.ModelProto:
    """A graph of ``nodes`` over float32 ``inputs`` (name -> shape) and ``inits``; outputs of unknown shape."""
    ins = [helper.make_tensor_value_info(k, TensorProto.FLOAT, v) for k, v in inputs.items()]
    g = helper.make_graph(nodes, "m", ins,
                          [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in (inits or {}).items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def ort_run(m: onnx.ModelProto, feed: dict[str, np.ndarray], out: str = "y") -> np.ndarray:
    """Output ``out`` of one ONNX Runtime session on ``m`` (warnings silenced)."""
    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run([out], feed)[0]


def randn(rng: np.random.Generator, shape: tuple[int, ...] | list[int], s: float = 1.0) -> np.ndarray:
    """Standard-normal float32 values of ``shape`` times ``s``."""
    return (rng.standard_normal(shape) * s).astype(np.float32)


def every_new_op() -> onnx.ModelProto:
    """NHWC [1,4,6,3] -> Transpose -> Pad -> Resize x0.5 -> Gather -> Elu -> LeakyRelu -> PRelu -> [3,1,9]
    -> bidirectional LSTM (H 5) -> [3,1,10] -> GRU (H 4, linear_before_reset) -> Y [3,1,1,4]."""
    rng = np.random.default_rng(26)

    def r(*s: int, k: float = 0.5) -> np.ndarray:
        return (rng.standard_normal(s) * k).astype(np.float32)

    inits: dict[str, np.ndarray] = {
             "pads": np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "scales": np.array([1, 1, 0.5, 0.5], np.float32),
             "idx": np.array([3, 1, 0], np.int64), "slope": r(3, 1, 1), "s1": np.array([3, 1, 9], np.int64),
             "LW": r(2, 20, 9), "LR": r(2, 20, 5), "LB": r(2, 40), "s2": np.array([3, 1, 10], np.int64),
             "GW": r(1, 12, 10), "GR": r(1, 12, 4), "GB": r(1, 24)}
    nodes = [helper.make_node("Transpose", ["x"], ["t"], name="transpose", perm=[0, 3, 1, 2]),
             helper.make_node("Pad", ["t", "pads"], ["p"], name="pad"),
             helper.make_node("Resize", ["p", "", "scales"], ["rs"], name="resize", mode="nearest",
                              coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
             helper.make_node("Gather", ["rs", "idx"], ["g"], name="gather", axis=3),
             helper.make_node("Elu", ["g"], ["e"], name="elu", alpha=0.8),
             helper.make_node("LeakyRelu", ["e"], ["lr"], name="leaky", alpha=0.2),
             helper.make_node("PRelu", ["lr", "slope"], ["pr"], name="prelu"),
             helper.make_node("Reshape", ["pr", "s1"], ["seq"], name="to_seq"),
             helper.make_node("LSTM", ["seq", "LW", "LR", "LB"], ["ly"], name="lstm", hidden_size=5,
                              direction="bidirectional"),
             helper.make_node("Reshape", ["ly", "s2"], ["seq2"], name="to_seq2"),
             helper.make_node("GRU", ["seq2", "GW", "GR", "GB"], ["y"], name="gru", hidden_size=4,
                              linear_before_reset=1)]
    g = helper.make_graph(nodes, "every_new_op", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
