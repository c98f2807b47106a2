"""A fixed subset of the ONNX backend node tests through the ExecuTorch lowering (issue 26).

The cases cover the ops the converter gained for real models (LSTM, GRU, RNN, If, Loop, Scan, Resize, ConvTranspose,
SAME pooling, static shape plumbing, ...). Each runs through ONNX Runtime (the oracle must pass it) and
through android-arm64's path: ONNX->torch, torch.export, XNNPACK lowering, .pte bytes executed by the
ExecuTorch runtime, compared with the case's expected outputs at the suite's tolerances.
The whole suite is bench/bench_executorch_peer_suite.py.
"""

from __future__ import annotations

import os

import pytest

from tests.support.onnx_peer_suite import Case, assert_matches_ort, cases_in_memory, run_executorch

#: in CI (about 25 exports); BB_EDGE_LONG=1 adds LONG_EXTRA
SUBSET = [
    "test_lstm_defaults", "test_lstm_bidirectional", "test_gru_seq_length", "test_gru_reverse", "test_if",
    "test_resize_upsample_scales_nearest", "test_resize_downsample_sizes_nearest",
    "test_resize_upsample_scales_linear", "test_resize_upsample_scales_cubic",
    "test_convtranspose", "test_convtranspose_pads", "test_convtranspose_output_shape",
    "test_averagepool_2d_same_lower", "test_shape", "test_maxpool_3d_default",
    "test_scan9_sum",  # control flow (If is test_if above; Loop: test_loop11 below, 19 s of exports)
    # exact forms and the program boundary (torch_exact.py): unsigned types widened, shifts, ties, signs,
    # zero-size values, static indices, folded If conditions
    "test_bitshift_right_uint64", "test_div_uint64", "test_mul_uint32", "test_top_k_same_values",
    "test_mod_mixed_sign_int8", "test_reduce_max_empty_set", "test_castlike_FLOAT_to_DOUBLE",
    "test_scatternd_add", "test_cumprod_1d_exclusive", "test_affine_grid_2d_expanded",
    # static-length sequences (torch_seq.py): N tensors at the boundary, SequenceMap per element, If over lists
    "test_sequence_insert_at_front", "test_sequence_map_extract_shapes", "test_if_seq",
    # data-dependent output shapes (torch_dynamic.py): bounded, sliced to a count the runtime reads
    "test_nonzero_example", "test_unique_sorted_with_axis_3d", "test_nonmaxsuppression_two_batches",
]
LONG_EXTRA = [
    "test_lstm_with_peepholes", "test_gru_with_initial_bias", "test_rnn_seq_length",
    "test_resize_downsample_sizes_linear_pytorch_half_pixel", "test_upsample_nearest",
    "test_convtranspose_1d", "test_convtranspose_autopad_same", "test_convtranspose_group_2",
    "test_convtranspose_dilations", "test_layer_normalization_2d_axis0",
    "test_loop11", "test_scan_sum", "test_scan9_multi_state", "test_scan9_scalar",
    "test_bitshift_left_int8_negative_shift", "test_scatter_elements_with_reduction_mul", "test_lrn_default",
    "test_averagepool_3d_default", "test_split_zero_size_splits_opset13", "test_nllloss_NCd1d2d3d4d5_mean_weight",
    "test_hammingwindow_expanded", "test_causal_conv_with_state_kernel_size_one_expanded", "test_tril_zero",
    "test_loop13_seq", "test_sequence_map_add_2_sequences_expanded",
]
if os.environ.get("BB_EDGE_LONG") == "1":
    SUBSET += LONG_EXTRA


@pytest.fixture(scope="module")
def cases() -> dict[str, Case]:
    return cases_in_memory(SUBSET)


@pytest.mark.parametrize("name", SUBSET)
def test_case_matches_through_executorch(name: str, cases: dict[str, Case]) -> None:
    assert_matches_ort(cases[name], run_executorch, "ExecuTorch")
