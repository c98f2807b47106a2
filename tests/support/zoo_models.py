"""Small models built with onnx.helper that stand in for zoo architectures (a tiny GPT, a GRU tagger, an
embedding MLP): integer-input graphs the compiler, lowering and model-table tests share."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def _c(name: str, arr: object) -> onnx.TensorProto:
    return nh.from_array(np.asarray(arr), name)


def tiny_gpt(vocab: int = 32, d: int = 16, tmax: int = 16, seed: int = 0) -> onnx.ModelProto:
    """Embedding of int64 tokens + positions (Shape/Gather/Range plumbing), one causal attention head."""
    rng = np.random.default_rng(seed)

    def f(*s: int) -> np.ndarray:
        return (0.3 * rng.standard_normal(s)).astype(np.float32)

    inits = [_c("E", f(vocab, d)), _c("P", f(tmax, d)), _c("Wq", f(d, d)), _c("Wk", f(d, d)), _c("Wv", f(d, d)),
             _c("Wo", f(d, vocab)), _c("g", np.ones(d, np.float32)), _c("b", np.zeros(d, np.float32)),
             _c("zero_s", np.array(0, np.int64)), _c("one_s", np.array(1, np.int64)),
             _c("zero_1d", np.array([0], np.int64)), _c("scale", np.array(d ** -0.5, np.float32)),
             _c("neg", np.array(-1e9, np.float32)), _c("zf", np.array(0.0, np.float32))]
    nodes = [
        h.make_node("Gather", ["E", "tokens"], ["emb"], name="embed"),
        h.make_node("Shape", ["tokens"], ["tshape"], name="shape"),
        h.make_node("Gather", ["tshape", "one_s"], ["tlen"], name="tlen", axis=0),
        h.make_node("Range", ["zero_s", "tlen", "one_s"], ["pos"], name="range"),
        h.make_node("Gather", ["P", "pos"], ["pemb"], name="pos_embed"),
        h.make_node("Add", ["emb", "pemb"], ["x0"], name="add_pos"),
        h.make_node("LayerNormalization", ["x0", "g", "b"], ["x"], name="ln", axis=-1),
        h.make_node("MatMul", ["x", "Wq"], ["q"], name="q"),
        h.make_node("MatMul", ["x", "Wk"], ["k"], name="k"),
        h.make_node("MatMul", ["x", "Wv"], ["v"], name="v"),
        h.make_node("Transpose", ["k"], ["kt"], name="kt", perm=[0, 2, 1]),
        h.make_node("MatMul", ["q", "kt"], ["s0"], name="qk"),
        h.make_node("Mul", ["s0", "scale"], ["s"], name="scale_mul"),
        h.make_node("Unsqueeze", ["tlen", "zero_1d"], ["tlen1"], name="tlen1"),
        h.make_node("Concat", ["tlen1", "tlen1"], ["tt"], name="tt", axis=0),
        h.make_node("ConstantOfShape", ["tt"], ["ones"], name="ones", value=nh.from_array(np.ones(1, np.float32))),
        h.make_node("Trilu", ["ones"], ["tri"], name="tri", upper=0),
        h.make_node("Equal", ["tri", "zf"], ["masked"], name="eq"),
        h.make_node("Where", ["masked", "neg", "s"], ["sm"], name="where"),
        h.make_node("Softmax", ["sm"], ["p"], name="softmax", axis=-1),
        h.make_node("MatMul", ["p", "v"], ["a"], name="av"),
        h.make_node("Add", ["a", "x"], ["r"], name="resid"),
        h.make_node("MatMul", ["r", "Wo"], ["logits"], name="head"),
    ]
    g = h.make_graph(nodes, "tiny_gpt", [h.make_tensor_value_info("tokens", T.INT64, [1, "seq"])],
                     [h.make_tensor_value_info("logits", T.FLOAT, [1, "seq", vocab])], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)], producer_name="bb-edge-tests")


def gru_tagger(vocab: int = 50, d: int = 8, hidden: int = 8, classes: int = 5, seed: int = 1) -> onnx.ModelProto:
    """int64 ids [T, 1] -> embedding -> bidirectional GRU -> per-step tag logits."""
    rng = np.random.default_rng(seed)

    def f(*s: int) -> np.ndarray:
        return (0.3 * rng.standard_normal(s)).astype(np.float32)

    inits = [_c("E", f(vocab, d)), _c("W", f(2, 3 * hidden, d)), _c("R", f(2, 3 * hidden, hidden)),
             _c("B", f(2, 6 * hidden)), _c("Wc", f(2 * hidden, classes)), _c("shp", np.array([0, 0, -1], np.int64))]
    nodes = [
        h.make_node("Gather", ["E", "ids"], ["emb"], name="embed"),
        h.make_node("GRU", ["emb", "W", "R", "B"], ["Y", "Yh"], name="bigru", hidden_size=hidden,
                    direction="bidirectional"),
        h.make_node("Transpose", ["Y"], ["Yt"], name="yt", perm=[0, 2, 1, 3]),
        h.make_node("Reshape", ["Yt", "shp"], ["feat"], name="flat"),
        h.make_node("MatMul", ["feat", "Wc"], ["tags"], name="cls"),
    ]
    g = h.make_graph(nodes, "gru_tagger", [h.make_tensor_value_info("ids", T.INT64, ["T", 1])],
                     [h.make_tensor_value_info("tags", T.FLOAT, ["T", 1, classes])], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)], producer_name="bb-edge-tests")


#: zoo stand-ins by name: (builder, pinned integer input shapes)
ZOO_MODELS: dict[str, tuple[Callable[[], onnx.ModelProto], dict[str, list[int]]]] = {
    "tiny-gpt": (tiny_gpt, {"tokens": [1, 8]}), "gru-tagger": (gru_tagger, {"ids": [6, 1]})}


def embed_mlp(vocab: int = 20, d: int = 8, n: int = 6, seed: int = 2) -> onnx.ModelProto:
    """int64 ids [1, 4] -> embedding | cut | -> Gemm -> Relu: a C-runtime consumer behind an integer input."""
    rng = np.random.default_rng(seed)
    g = h.make_graph([
        h.make_node("Gather", ["E", "ids"], ["emb"], name="embed"),
        h.make_node("Reshape", ["emb", "flat"], ["e2"], name="flatten"),
        h.make_node("Gemm", ["e2", "W", "B"], ["hid"], name="fc", transB=1),
        h.make_node("Relu", ["hid"], ["y"], name="act"),
    ], "embed_mlp", [h.make_tensor_value_info("ids", T.INT64, [1, 4])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, n])],
        [_c("E", rng.standard_normal((vocab, d)).astype(np.float32)), _c("flat", np.array([1, 4 * d], np.int64)),
         _c("W", (0.3 * rng.standard_normal((n, 4 * d))).astype(np.float32)), _c("B", np.zeros(n, np.float32))])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
