"""Small stateful ONNX models (state outputs feed their own state inputs) and their independent oracle.

The oracle is one ONNX Runtime session of the whole, unsplit model looping over the steps with each state
output fed back to its input by hand: nothing of bb-edge's runs in it.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

F = TensorProto.FLOAT


def _init(name: str, rng: np.random.Generator, shape: list[int], scale: float = 0.5) -> onnx.TensorProto:
    return helper.make_tensor(name, F, shape, (rng.normal(size=shape) * scale).astype(np.float32).ravel().tolist())


def rnn2() -> onnx.ModelProto:
    """Two stacked hand-written RNN cells, ``h1' = tanh(x W1 + h1 U1)``, ``h2' = tanh(h1' W2 + h2 U2)``,
    ``y = h2' V``. States: ``h1_next -> h1`` and ``h2_next -> h2`` (one per layer, so a 2-node split keeps
    one state on each node)."""
    rng = np.random.default_rng(3)
    inits = [_init("W1", rng, [3, 5]), _init("U1", rng, [5, 5]), _init("W2", rng, [5, 4]),
             _init("U2", rng, [4, 4]), _init("V", rng, [4, 2])]
    nodes = [
        helper.make_node("MatMul", ["x", "W1"], ["a1"], name="l1_wx"),
        helper.make_node("MatMul", ["h1", "U1"], ["b1"], name="l1_uh"),
        helper.make_node("Add", ["a1", "b1"], ["p1"], name="l1_add"),
        helper.make_node("Tanh", ["p1"], ["h1_next"], name="l1_tanh"),
        helper.make_node("MatMul", ["h1_next", "W2"], ["a2"], name="l2_wx"),
        helper.make_node("MatMul", ["h2", "U2"], ["b2"], name="l2_uh"),
        helper.make_node("Add", ["a2", "b2"], ["p2"], name="l2_add"),
        helper.make_node("Tanh", ["p2"], ["h2_next"], name="l2_tanh"),
        helper.make_node("MatMul", ["h2_next", "V"], ["y"], name="head"),
    ]
    g = helper.make_graph(
        nodes, "rnn2",
        [helper.make_tensor_value_info("x", F, [1, 3]), helper.make_tensor_value_info("h1", F, [1, 5]),
         helper.make_tensor_value_info("h2", F, [1, 4])],
        [helper.make_tensor_value_info("y", F, [1, 2]), helper.make_tensor_value_info("h1_next", F, [1, 5]),
         helper.make_tensor_value_info("h2_next", F, [1, 4])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


RNN2_STATE = [("h1_next", "h1"), ("h2_next", "h2")]


def gru2(hidden: int = 6, frames: int = 2) -> onnx.ModelProto:
    """Two stacked ONNX ``GRU`` ops over a window of ``frames`` frames of 4 features (a streaming model):
    each layer's ``Y_h`` feeds its ``initial_h`` at the next window. States ``g1_h -> h1``, ``g2_h -> h2``."""
    rng = np.random.default_rng(5)
    inits = [_init("W1", rng, [1, 3 * hidden, 4]), _init("R1", rng, [1, 3 * hidden, hidden]),
             _init("B1", rng, [1, 6 * hidden], 0.1), _init("W2", rng, [1, 3 * hidden, hidden]),
             _init("R2", rng, [1, 3 * hidden, hidden]), _init("B2", rng, [1, 6 * hidden], 0.1),
             _init("V", rng, [hidden, 3]), helper.make_tensor("ax1", TensorProto.INT64, [1], [1]),
             helper.make_tensor("ax0", TensorProto.INT64, [1], [0])]
    nodes = [
        helper.make_node("GRU", ["x", "W1", "R1", "B1", "", "h1"], ["g1_y", "g1_h"], name="gru1",
                         hidden_size=hidden, linear_before_reset=1),
        helper.make_node("Squeeze", ["g1_y", "ax1"], ["g1_seq"], name="squeeze1"),  # [T, 1, H]
        helper.make_node("GRU", ["g1_seq", "W2", "R2", "B2", "", "h2"], ["g2_y", "g2_h"], name="gru2",
                         hidden_size=hidden, linear_before_reset=1),
        helper.make_node("Squeeze", ["g2_h", "ax0"], ["last"], name="squeeze2"),  # [1, H]
        helper.make_node("MatMul", ["last", "V"], ["y"], name="head"),
    ]
    g = helper.make_graph(
        nodes, "gru2",
        [helper.make_tensor_value_info("x", F, [frames, 1, 4]),
         helper.make_tensor_value_info("h1", F, [1, 1, hidden]),
         helper.make_tensor_value_info("h2", F, [1, 1, hidden])],
        [helper.make_tensor_value_info("y", F, [1, 3]), helper.make_tensor_value_info("g1_h", F, [1, 1, hidden]),
         helper.make_tensor_value_info("g2_h", F, [1, 1, hidden])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


GRU2_STATE = [("g1_h", "h1"), ("g2_h", "h2")]


def window() -> onnx.ModelProto:
    """A growing state: ``w' = concat(w, x)`` along a dynamic axis (a streaming window / a KV cache's shape);
    ``y = sum(w', axis 1)``. State ``w_next -> w``, 16 bytes per step."""
    nodes = [helper.make_node("Concat", ["w", "x"], ["w_next"], name="append", axis=1),
             helper.make_node("ReduceSum", ["w_next", "ax"], ["y"], name="sum", keepdims=0)]
    g = helper.make_graph(
        nodes, "window",
        [helper.make_tensor_value_info("x", F, [1, 1, 4]), helper.make_tensor_value_info("w", F, [1, "past", 4])],
        [helper.make_tensor_value_info("y", F, [1, 4]), helper.make_tensor_value_info("w_next", F, [1, None, 4])],
        [helper.make_tensor("ax", TensorProto.INT64, [1], [1])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def ort_loop(model: onnx.ModelProto, steps: dict[str, np.ndarray], pairs: list[tuple[str, str]],
             outputs: list[str]) -> list[dict[str, np.ndarray]]:
    """One ORT session of ``model`` over ``steps`` (arrays stacked on a leading step axis), each state output
    fed back to its input by hand; the state starts as zeros (a dynamic dim as 0). ``outputs`` per step."""
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    ins = {i.name: i for i in model.graph.input}
    state = {}
    for _, inp in pairs:
        dims = [d.dim_value if d.HasField("dim_value") else 0 for d in ins[inp].type.tensor_type.shape.dim]
        state[inp] = np.zeros(dims, np.float32)
    n = len(next(iter(steps.values())))
    got = []
    for t in range(n):
        feed = {k: v[t] for k, v in steps.items()} | state
        res = dict(zip([*outputs, *(o for o, _ in pairs)],
                       sess.run([*outputs, *(o for o, _ in pairs)], feed), strict=True))
        state = {inp: res[out] for out, inp in pairs}
        got.append({k: res[k] for k in outputs})
    return got
