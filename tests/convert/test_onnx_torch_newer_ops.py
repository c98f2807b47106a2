"""The converter's newer-opset ops (bb_edge/convert/torch_ops_more.py) on ONNX backend node cases (issue 26).

Each case must pass ONNX Runtime (the oracle) and then match the case's expected outputs at the suite's
tolerances: a few through the whole ExecuTorch path (torch.export, XNNPACK, .pte run by the ExecuTorch
runtime), more through the converter alone (eager torch, a fraction of a second each). The *_expanded
cases are the same ops as onnx function bodies: shape arithmetic on a frozen input, an If on a folded
condition, a Pad whose value is a run-time tensor. BitCast's IEEE arithmetic is checked bit for bit
against numpy views. The whole suite is bench/bench_executorch_peer_suite.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from bb_edge.convert.torch_ops_more import _bits_float, _float_bits
from tests.support.onnx_peer_suite import Case, assert_matches_ort, cases_in_memory, run_converter, run_executorch

#: through the ExecuTorch runtime (each an export, a few seconds)
EXECUTORCH = [
    "test_attention_4d_gqa_with_past_and_present", "test_attention_3d_diff_heads_sizes_attn_mask",
    "test_rotary_embedding_interleaved", "test_causal_conv_with_state_silu_with_past_state",
    "test_bitcast_float32_to_int32", "test_deform_conv_with_mask_bias",
]
#: through the converter alone
EAGER = [
    "test_attention_4d_attn_mask_bool_4d", "test_attention_4d_gqa_causal", "test_attention_4d_softcap_neginf_mask",
    "test_attention_4d_with_past_and_present_qk_matmul_bias", "test_attention_local_window_ext_cache_rank2_mask",
    "test_attention_4d_causal_nonpad_attn_mask_composition",
    "test_attention_24_qk_matmul_output_mode3_softmax_precision",
    "test_attention_4d_gqa_with_past_and_present_fp16", "test_attention_3d_gqa_softcap",
    "test_rotary_embedding_with_interleaved_rotary_dim", "test_rotary_embedding_3d_input",
    "test_linear_attention_gated_delta_gqa", "test_linear_attention_prefill_with_past",
    "test_causal_conv_with_state_kernel_size_one", "test_bitcast_int64_to_float64", "test_bitcast_int8_to_uint8",
    "test_hannwindow_symmetric", "test_blackmanwindow", "test_det_nd", "test_tensorscatter_3d",
    "test_gathernd_example_int32", "test_reversesequence_batch", "test_maxunpool_export_without_output_shape",
    "test_matmulinteger", "test_convinteger_without_padding", "test_qlinearmatmul_3D_uint8_float32",
    "test_dynamicquantizelinear_min_adjusted", "test_center_crop_pad_crop_and_pad", "test_affine_grid_3d",
    "test_col2im_dilations", "test_scatter_without_axis", "test_ai_onnx_ml_binarizer",
    "test_ai_onnx_ml_array_feature_extractor", "test_tfidfvectorizer_tf_batch_uniandbigrams_skip5",
    "test_ai_onnx_ml_tree_ensemble_set_membership", "test_maxpool_with_argmax_2d_precomputed_strides",
    "test_group_normalization_example", "test_qlinearconv", "test_melweightmatrix",
    "test_tfidfvectorizer_tf_onlybigrams_levelempty",
    "test_hammingwindow_expanded", "test_center_crop_pad_crop_axes_hwc_expanded",
    "test_rotary_embedding_interleaved_expanded", "test_attention_causal_boolmask_nan_robustness_expanded",
]


@pytest.fixture(scope="module")
def cases() -> dict[str, Case]:
    out = cases_in_memory(EXECUTORCH + EAGER)
    for c in out.values():  # the generators give some scalars as numpy scalars; sessions take arrays
        c.data = [([np.asarray(v) if isinstance(v, np.generic) else v for v in ins], outs) for ins, outs in c.data]
    return out


@pytest.mark.parametrize("name", EXECUTORCH)
def test_case_matches_through_executorch(name: str, cases: dict[str, Case]) -> None:
    assert_matches_ort(cases[name], run_executorch, "ExecuTorch")


@pytest.mark.parametrize("name", EAGER)
def test_case_matches_through_the_converter(name: str, cases: dict[str, Case]) -> None:
    assert_matches_ort(cases[name], run_converter, "the converter")


def test_bitcast_arithmetic_is_bit_exact() -> None:
    rng = np.random.default_rng(26)
    f = (rng.standard_normal(3000) * 10.0 ** rng.integers(-44, 38, 3000)).astype(np.float32)
    f = np.concatenate([f[np.isfinite(f)], np.array([0, 1, 0.5, 3.4e38, 1.1754944e-38, 1e-45, -1e-42], np.float32)])
    assert np.array_equal(_float_bits(torch.from_numpy(f), 23, 127, 32).to(torch.int32).numpy(), f.view(np.int32))
    i = rng.integers(-2 ** 31, 2 ** 31 - 1, 3000).astype(np.int32)
    got = _bits_float(torch.from_numpy(i), 23, 127, 32, torch.float32).numpy()
    ref = i.view(np.float32)
    assert np.all((got.view(np.int32) == i) | (np.isnan(ref) & np.isnan(got)))
    d = rng.standard_normal(3000) * 10.0 ** rng.integers(-300, 300, 3000)
    assert np.array_equal(_float_bits(torch.from_numpy(d), 52, 1023, 64).numpy(), d.view(np.int64))
