"""The converter's ONNX Runtime contrib ops against ONNX Runtime itself, on random inputs (the oracle).

Each op is one small graph run by ORT's CPU kernels and by :func:`bb_edge.convert.onnx_torch.to_torch`
(eager torch): GroupQueryAttention over a prefill, a continued prompt and single-token steps,
rotary half-split and interleaved, packed and separate Q/K/V; MatMulNBits 4/8-bit with and without zero points
(accuracy_level 0, ORT's float path, and 4, its int8 activations); GatherBlockQuantized 8-bit as the
decoder's embedding uses it.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from onnx import TensorProto, helper, numpy_helper

from bb_edge.convert.onnx_torch import to_torch

F32 = TensorProto.FLOAT


def _model(node: onnx.NodeProto, inputs: list[onnx.ValueInfoProto], outputs: list[str],
           inits: list[onnx.TensorProto]) -> onnx.ModelProto:
    g = helper.make_graph([node], "contrib", inputs, [helper.make_tensor_value_info(o, F32, None) for o in outputs],
                          inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])


def _both(m: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    want = sess.run(None, feeds)
    mod = to_torch(m)
    with torch.no_grad():
        got = mod(*(torch.from_numpy(feeds[n]) for n in mod.input_names))
    return want, [g.numpy() for g in got]


@pytest.mark.parametrize("packed,interleaved", [(True, False), (False, True)])
def test_group_query_attention_equals_onnx_runtime_over_a_growing_cache(packed: bool, interleaved: bool) -> None:
    rng = np.random.default_rng(1)
    nh, kvh, d, ctx = 4, 2, 16, 32
    cos = rng.uniform(-1, 1, (ctx, d // 2)).astype(np.float32)
    sin = rng.uniform(-1, 1, (ctx, d // 2)).astype(np.float32)
    qkv = ["qkv", "", ""] if packed else ["q", "k", "v"]
    node = helper.make_node("GroupQueryAttention", [*qkv, "pk", "pv", "seqlens_k", "total", "cos", "sin"],
                            ["out", "ok", "ov"], domain="com.microsoft", num_heads=nh, kv_num_heads=kvh,
                            scale=0.3, do_rotary=1, rotary_interleaved=int(interleaved))
    ins = [helper.make_tensor_value_info(n, F32, None) for n in qkv if n]
    ins += [helper.make_tensor_value_info(n, F32, [1, kvh, "p", d]) for n in ("pk", "pv")]
    ins += [helper.make_tensor_value_info("seqlens_k", TensorProto.INT32, [1]),
            helper.make_tensor_value_info("total", TensorProto.INT32, [])]
    trig = [numpy_helper.from_array(cos, "cos"), numpy_helper.from_array(sin, "sin")]
    m = _model(node, ins, ["out", "ok", "ov"], trig)
    pk = pv = np.zeros((1, kvh, 0, d), np.float32)
    for s in (5, 3, 1, 1, 1):  # a prefill, a continued prompt, then token by token
        total = pk.shape[2] + s
        feeds = {"pk": pk, "pv": pv, "seqlens_k": np.array([total - 1], np.int32), "total": np.array(total, np.int32)}
        if packed:
            feeds["qkv"] = rng.standard_normal((1, s, (nh + 2 * kvh) * d)).astype(np.float32)
        else:
            feeds |= {"q": rng.standard_normal((1, s, nh * d)).astype(np.float32),
                      "k": rng.standard_normal((1, s, kvh * d)).astype(np.float32),
                      "v": rng.standard_normal((1, s, kvh * d)).astype(np.float32)}
        want, got = _both(m, feeds)
        for w, g in zip(want, got, strict=True):
            assert w.shape == g.shape
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
        pk, pv = want[1], want[2]


@pytest.mark.parametrize("bits,zero_points,bias,level", [
    (4, True, True, 0), (4, False, False, 0), (8, False, False, 0), (8, True, False, 0), (4, True, False, 4),
    (8, False, False, 4)])
def test_matmul_nbits_equals_onnx_runtime(bits: int, zero_points: bool, bias: bool, level: int) -> None:
    """accuracy_level 0 is ORT's float path, 4 its int8 activations (the decoder's): both to float rounding."""
    rng = np.random.default_rng(bits)
    k, n, bs = 64, 24, 32
    nb = k // bs
    b = rng.integers(0, 256, (n, nb, bs * bits // 8), dtype=np.uint8)
    scales = rng.uniform(0.01, 0.1, n * nb).astype(np.float32)
    inits = [numpy_helper.from_array(b, "B"), numpy_helper.from_array(scales, "scales")]
    names = ["A", "B", "scales"]
    if zero_points:
        zp = rng.integers(0, 256, n * ((nb * bits + 7) // 8), dtype=np.uint8)
        inits.append(numpy_helper.from_array(zp, "zp"))
        names.append("zp")
    if bias:
        names += ["", "bias"] if zero_points else ["", "", "bias"]
        inits.append(numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), "bias"))
    node = helper.make_node("MatMulNBits", names, ["Y"], domain="com.microsoft", K=k, N=n, bits=bits,
                            block_size=bs, accuracy_level=level)
    m = _model(node, [helper.make_tensor_value_info("A", F32, [2, 3, k])], ["Y"], inits)
    want, got = _both(m, {"A": rng.standard_normal((2, 3, k)).astype(np.float32)})
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-4)


def test_gather_block_quantized_equals_onnx_runtime() -> None:
    rng = np.random.default_rng(3)
    rows, k, bs = 10, 64, 32
    data = rng.integers(0, 256, (rows, k), dtype=np.uint8)
    scales = rng.uniform(0.01, 0.1, (rows, k // bs)).astype(np.float32)
    node = helper.make_node("GatherBlockQuantized", ["data", "ids", "scales"], ["Y"], domain="com.microsoft",
                            bits=8, block_size=bs, gather_axis=0, quantize_axis=1)
    m = _model(node, [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 4])], ["Y"],
               [numpy_helper.from_array(data, "data"), numpy_helper.from_array(scales, "scales")])
    want, got = _both(m, {"ids": np.array([[0, 9, 3, 3]], np.int64)})
    np.testing.assert_array_equal(got[0], want[0])
