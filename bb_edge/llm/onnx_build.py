"""Write a llama decoder as one ONNX graph with per-layer KV state, from a loaded GGUF.

The graph follows what onnxruntime-genai's model builder writes for llama on CPU (ONNX Runtime's
GroupQueryAttention with rotary embedding, MatMulNBits), with opset 23's standard RMSNormalization and
optimum's tensor names: inputs ``input_ids``, ``attention_mask``, ``past_key_values.{i}.key/value``
([batch, kv_heads, past, head_dim]); outputs ``logits``, ``present.{i}.key/value``. Built node by node
with onnx.helper so the GGUF's quantized blocks go in unchanged (see :mod:`bb_edge.llm.quant_blocks`),
which neither torch.onnx nor the model builder does from a GGUF.

The hidden state between layers is one named tensor, ``/model/layers.{i}/output`` (the residual stream),
listed in the model's metadata: :mod:`bb_edge.llm.split` cuts there.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from bb_edge.llm.gguf_load import LlamaConfig, LlamaGGUF, QuantTensor
from bb_edge.llm.quant_blocks import NBits, concat_nbits, from_gguf, requantize, row_chunks

WEIGHTS = ("int4", "int8", "fp16", "fp32")
#: metadata_props key holding the decoder's description (JSON): config, layer boundaries, weights format
META_KEY = "bb_edge.llm"
#: MatMulNBits ops the head is cut into (``_Graph.linear``'s ``chunks``: the last node's load-time peak)
HEAD_CHUNKS = 8
EMBED_OUT = "/model/embed_tokens/output"


def layer_output(i: int) -> str:
    """Name of the residual stream after decoder layer ``i`` (a split point)."""
    return f"/model/layers.{i}/output"


def past_names(i: int) -> tuple[str, str]:
    """Graph input names of layer ``i``'s past K and V."""
    return f"past_key_values.{i}.key", f"past_key_values.{i}.value"


def present_names(i: int) -> tuple[str, str]:
    """Graph output names of layer ``i``'s present K and V."""
    return f"present.{i}.key", f"present.{i}.value"


class _Graph:
    """Nodes and initializers being collected, with a per-input cache of Q4_1's block sums."""

    def __init__(self, weights: str, accuracy_level: int, exact_q4_1: bool = True) -> None:
        self.exact_q4_1 = exact_q4_1
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.weights = weights
        self.accuracy_level = accuracy_level
        self._block_sums: dict[str, str] = {}

    def node(self, op: str, inputs: list[str], name: str, n_out: int = 1, domain: str = "",
             **attrs: Any) -> list[str]:
        outs = [f"{name}/output_{j}" if n_out > 1 else f"{name}/output" for j in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, domain=domain, **attrs))
        return outs

    def init(self, name: str, arr: np.ndarray) -> str:
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), name))
        return name

    def block_sums(self, x: str, k: int) -> str:
        """x's sums over each block of 32 along its last axis ([..., K/32]), once per x."""
        if x not in self._block_sums:
            shape = self.init(f"{x}/block_shape", np.array([0, 0, k // 32, 32], np.int64))
            r = self.node("Reshape", [x, shape], f"{x}/blocks")[0]
            axes = self.init(f"{x}/block_axes", np.array([-1], np.int64))
            self._block_sums[x] = self.node("ReduceSum", [r, axes], f"{x}/block_sums", keepdims=0)[0]
        return self._block_sums[x]

    def linear(self, x: str, t: QuantTensor | list[QuantTensor], name: str, chunks: int = 1) -> str:
        """x @ t^T in the chosen weights format; a list of weights is one op on their rows stacked (fused QKV).

        ``chunks`` > 1 cuts a MatMulNBits into that many ops on consecutive rows, their outputs concatenated
        (each output column is the same dot product either way). Why: ONNX Runtime repacks a MatMulNBits'
        weight when the session loads, holding the mapped original and the packed copy at once; for the
        vocabulary-wide head that peak was 27 MB of the last node's RSS, in chunks it is an eighth of it.
        """
        ts = t if isinstance(t, list) else [t]
        k = ts[0].shape[1]
        if self.weights in ("fp32", "fp16"):
            w = np.concatenate([w.dequantize() for w in ts]).T
            if self.weights == "fp16":
                w16 = self.init(f"{name}.weight_fp16", w.astype(np.float16))
                wname = self.node("Cast", [w16], f"{name}/cast_weight", to=TensorProto.FLOAT)[0]
            else:
                wname = self.init(f"{name}.weight", w)
            return self.node("MatMul", [x, wname], f"{name}/MatMul")[0]
        parts = [self._nbits(w) for w in ts]
        q = concat_nbits(parts)
        if q is None:  # different block formats (e.g. Q8_0 next to Q4_1): requantize the stack
            q = requantize(np.concatenate([p.dequantize() for p in parts]), parts[0].bits)
        if chunks > 1:
            ys = [self._matmul_nbits(x, part, f"{name}/chunk{c}") for c, part in enumerate(row_chunks(q, chunks))]
            y = self.node("Concat", ys, f"{name}/chunks", axis=-1)[0]
        else:
            y = self._matmul_nbits(x, q, name)
        if q.block_mins is None:
            return y
        mins = self.init(f"{name}.block_mins", q.block_mins)
        extra = self.node("MatMul", [self.block_sums(x, k), mins], f"{name}/block_mins_MatMul")[0]
        return self.node("Add", [y, extra], f"{name}/add_block_mins")[0]

    def _matmul_nbits(self, x: str, q: NBits, name: str) -> str:
        ins = [x, self.init(f"{name}.qweight", q.b), self.init(f"{name}.scales", q.scales)]
        if q.zero_points is not None:
            ins.append(self.init(f"{name}.qzeros", q.zero_points))
        return self.node("MatMulNBits", ins, f"{name}/MatMulNBits", domain="com.microsoft", K=q.k, N=q.n,
                         bits=q.bits, block_size=32, accuracy_level=self.accuracy_level)[0]

    def embedding_nbits(self, t: QuantTensor) -> NBits | None:
        """8-bit symmetric blocks for the embedding table in the int formats, None for a float table."""
        if self.weights not in ("int4", "int8"):
            return None
        q = self._nbits(t) if t.kind == "Q8_0" or self.weights == "int8" else None
        return q if q is not None and q.bits == 8 and q.zero_points is None and q.block_mins is None else None

    def _nbits(self, t: QuantTensor) -> NBits:
        if self.weights == "int4" or t.kind == "Q8_0":
            return from_gguf(t, 4 if self.weights == "int4" else 8, exact_q4_1=self.exact_q4_1)
        return requantize(t.dequantize(), 8)

    def rms_norm(self, x: str, t: QuantTensor, eps: float, name: str) -> str:
        w = self.init(f"{name}.weight", t.dequantize().reshape(-1))
        return self.node("RMSNormalization", [x, w], name, axis=-1, epsilon=eps, stash_type=1)[0]


def rope_cache(cfg: LlamaConfig, max_len: int) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin caches [max_len, head_dim/2] as Hugging Face's LlamaRotaryEmbedding computes them."""
    hd = cfg.head_dim
    inv_freq = (1.0 / (cfg.rope_theta ** (np.arange(0, hd, 2, dtype=np.int64).astype(np.float32) / hd)))
    freqs = np.outer(np.arange(max_len, dtype=np.float32), inv_freq.astype(np.float32)).astype(np.float32)
    return np.cos(freqs).astype(np.float32), np.sin(freqs).astype(np.float32)


def build_decoder(model: LlamaGGUF, weights: str = "int4", *, accuracy_level: int = 4,
                  max_context: int | None = None, exact_q4_1: bool = True) -> onnx.ModelProto:
    """The whole decoder as one ONNX model (opset 23 + com.microsoft), weights in format ``weights``.

    ``accuracy_level`` is MatMulNBits' (4: int8 activations in the dot products, as llama.cpp does for its
    quantized types; 0: float). ``max_context`` sizes the rotary caches (default the model's context).
    ``exact_q4_1=False`` requantizes Q4_1 weights to MatMulNBits' integer zero points (lossy, fewer ops).
    """
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be one of {WEIGHTS}, not {weights!r}")
    cfg = model.config
    ctx = max_context or cfg.context_length
    g = _Graph(weights, accuracy_level, exact_q4_1)
    f32 = TensorProto.FLOAT
    kv_shape: list[str | int] = ["batch_size", cfg.n_kv_heads, "past_sequence_length", cfg.head_dim]
    present_shape: list[str | int] = ["batch_size", cfg.n_kv_heads, "total_sequence_length", cfg.head_dim]
    inputs = [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch_size", "sequence_length"]),
              helper.make_tensor_value_info("attention_mask", TensorProto.INT64,
                                            ["batch_size", "total_sequence_length"])]
    outputs = [helper.make_tensor_value_info("logits", f32, ["batch_size", "sequence_length", cfg.vocab])]

    # GroupQueryAttention's lengths from the mask: seqlens_k = tokens seen - 1, total = mask width
    one = g.init("/model/const_1", np.array(1, np.int64))
    ax1 = g.init("/model/const_axes_1", np.array([1], np.int64))
    mask_sum = g.node("ReduceSum", ["attention_mask", ax1], "/model/attn_mask_reformat/ReduceSum", keepdims=0)[0]
    seqlens = g.node("Sub", [mask_sum, one], "/model/attn_mask_reformat/Sub")[0]
    seqlens = g.node("Cast", [seqlens], "/model/attn_mask_reformat/seqlens_k", to=TensorProto.INT32)[0]
    shape = g.node("Shape", ["attention_mask"], "/model/attn_mask_reformat/Shape")[0]
    total = g.node("Gather", [shape, one], "/model/attn_mask_reformat/Gather", axis=0)[0]
    total = g.node("Cast", [total], "/model/attn_mask_reformat/total_seq_len", to=TensorProto.INT32)[0]
    cos, sin = rope_cache(cfg, ctx)
    cos_name, sin_name = g.init("cos_cache", cos), g.init("sin_cache", sin)

    emb_q = g.embedding_nbits(model.embedding)
    if emb_q is not None:
        # 8-bit blocks gathered as stored (Q8_0 exactly): a quarter of a float32 table's memory
        nb = emb_q.k // 32
        g.nodes.append(helper.make_node(
            "GatherBlockQuantized", [g.init("model.embed_tokens.qweight", emb_q.b.reshape(emb_q.n, emb_q.k)),
                                     "input_ids", g.init("model.embed_tokens.scales", emb_q.scales.reshape(-1, nb))],
            [EMBED_OUT], name="/model/embed_tokens", domain="com.microsoft", bits=8, block_size=32, gather_axis=0,
            quantize_axis=1))
    elif weights == "fp16":
        table = g.init("model.embed_tokens.weight_fp16", model.embedding.dequantize().astype(np.float16))
        h16 = g.node("Gather", [table, "input_ids"], "/model/embed_tokens/Gather")[0]
        g.nodes.append(helper.make_node("Cast", [h16], [EMBED_OUT], name="/model/embed_tokens", to=f32))
    else:
        table = g.init("model.embed_tokens.weight", model.embedding.dequantize())
        g.nodes.append(helper.make_node("Gather", [table, "input_ids"], [EMBED_OUT], name="/model/embed_tokens"))
    h = EMBED_OUT
    ff_split = g.init("/model/ff_split", np.array([cfg.intermediate, cfg.intermediate], np.int64))
    for i in range(cfg.n_layers):
        p = f"/model/layers.{i}"
        x = g.rms_norm(h, model.layer(i, "attn_norm"), cfg.rms_eps, f"{p}/input_layernorm")
        qkv = g.linear(x, [model.layer(i, w) for w in ("attn_q", "attn_k", "attn_v")], f"{p}/attn/qkv_proj")
        pk, pv = past_names(i)
        ok, ov = present_names(i)
        g.nodes.append(helper.make_node(
            "GroupQueryAttention", [qkv, "", "", pk, pv, seqlens, total, cos_name, sin_name],
            [f"{p}/attn/GroupQueryAttention/output_0", ok, ov], name=f"{p}/attn/GroupQueryAttention",
            domain="com.microsoft", num_heads=cfg.n_heads, kv_num_heads=cfg.n_kv_heads,
            scale=float(1.0 / np.sqrt(cfg.head_dim)), do_rotary=1, rotary_interleaved=0))
        inputs += [helper.make_tensor_value_info(n, f32, kv_shape) for n in (pk, pv)]
        outputs += [helper.make_tensor_value_info(n, f32, present_shape) for n in (ok, ov)]
        o = g.linear(f"{p}/attn/GroupQueryAttention/output_0", model.layer(i, "attn_output"), f"{p}/attn/o_proj")
        h = g.node("Add", [h, o], f"{p}/residual_add_attn")[0]
        x = g.rms_norm(h, model.layer(i, "ffn_norm"), cfg.rms_eps, f"{p}/post_attention_layernorm")
        gate_up = g.linear(x, [model.layer(i, "ffn_gate"), model.layer(i, "ffn_up")], f"{p}/mlp/gate_up_proj")
        gate, up = g.node("Split", [gate_up, ff_split], f"{p}/mlp/Split", n_out=2, axis=-1)
        sig = g.node("Sigmoid", [gate], f"{p}/mlp/act_fn/Sigmoid")[0]
        act = g.node("Mul", [gate, sig], f"{p}/mlp/act_fn/Mul")[0]
        prod = g.node("Mul", [act, up], f"{p}/mlp/Mul")[0]
        down = g.linear(prod, model.layer(i, "ffn_down"), f"{p}/mlp/down_proj")
        g.nodes.append(helper.make_node("Add", [h, down], [layer_output(i)], name=f"{p}/residual_add_mlp"))
        h = layer_output(i)
    x = g.rms_norm(h, model.tensors["output_norm.weight"], cfg.rms_eps, "/model/norm")
    logits = g.linear(x, model.lm_head, "/lm_head", chunks=HEAD_CHUNKS)
    g.nodes.append(helper.make_node("Identity", [logits], ["logits"], name="/lm_head/logits"))

    graph = helper.make_graph(g.nodes, "llama_decoder", inputs, outputs, g.inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23), helper.make_opsetid("com.microsoft", 1)],
                          producer_name="bb-edge")
    m.ir_version = 11
    meta = {"config": asdict(cfg), "weights": weights, "exact_q4_1": exact_q4_1, "max_context": ctx,
            "embed_output": EMBED_OUT,
            "layer_outputs": [layer_output(i) for i in range(cfg.n_layers)], "source": model.path.name}
    helper.set_model_props(m, {META_KEY: json.dumps(meta)})
    return m


def decoder_meta(m: onnx.ModelProto) -> dict:
    """The description :func:`build_decoder` stored in ``m`` (KeyError when ``m`` has none)."""
    props = {p.key: p.value for p in m.metadata_props}
    return dict(json.loads(props[META_KEY]))
