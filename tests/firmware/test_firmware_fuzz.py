"""Fuzz the program loader, the envelope decoder / node loop and the link layer (libFuzzer, ASan + UBSan).

A fixed budget per target; seeds are the golden vectors (envelope and link) and real lowered programs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bb_edge.bbrt.lower import lower
from bb_edge.bbrt.native import cached_build
from tests.support.graphs import every_new_op
from bb_edge.tflite import tflite_to_onnx
from tests.support.examples import small_cnn
from tests.support.tflite_build import int8_ops_chain, lstm_model, svdf_model

BUDGET_S = 60 if os.environ.get("BB_EDGE_LONG") == "1" else 10  # seconds of libFuzzer per target (CI: 10)
VEC = Path(__file__).resolve().parents[1] / "vectors"


@pytest.fixture(scope="module")
def fuzzers() -> Path:
    assert shutil.which("clang"), "clang missing: bash .ci/test.sh installs it"
    return cached_build("fuzz")


def run(binary: Path, corpus: Path, tmp: Path) -> None:
    proc = subprocess.run([str(binary), f"-max_total_time={BUDGET_S}", "-max_len=16384", "-timeout=10",
                           "-rss_limit_mb=3072", f"-artifact_prefix={tmp}/", str(corpus)],
                          capture_output=True, text=True, timeout=BUDGET_S + 120)
    tail = "\n".join(proc.stderr.splitlines()[-25:])
    assert proc.returncode == 0, f"{binary.name} found a crash:\n{tail}"
    assert "Done" in proc.stderr, tail


def test_fuzz_program_loader(fuzzers: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for p in ("int8", "fp32"):
        (corpus / f"cnn_{p}.bbrt").write_bytes(lower(small_cnn(size=8), precision=p).blob)
        # Transpose, Pad/Resize/Gather tables, Elu/LeakyRelu/PRelu, LSTM and GRU (opcodes 37-43)
        (corpus / f"more_ops_{p}.bbrt").write_bytes(lower(every_new_op(), precision=p).blob)
    # MAXMIN_I8, PRELU_I8, RESIZE_BILINEAR_I8, CONV_I8 p11 = 1, BATCH_MATMUL_I8 (opcodes 45-48, a .tflite's ops)
    (corpus / "tflite_ops_int8.bbrt").write_bytes(lower(tflite_to_onnx(int8_ops_chain()), io_edges=None).blob)
    svdf = svdf_model((2, 10, 6, 3, 4, 0.04, 0, 0.0002, 1.0, -128))  # SVDF_I8: two outputs, an int16 STATE pair
    (corpus / "tflite_svdf.bbrt").write_bytes(lower(tflite_to_onnx(svdf), io_edges=None).blob)
    lstm = lstm_model((3, 2, 4, 3, True), cell_clip=0.5)  # LSTM_I8: a Q vector, an int16 scratch output
    (corpus / "tflite_lstm.bbrt").write_bytes(lower(tflite_to_onnx(lstm), io_edges=None).blob)
    run(fuzzers / "fuzz_program", corpus, tmp_path)


def test_fuzz_envelope_decoder_and_node(fuzzers: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for f in list(VEC.glob("*.bin")) + list(VEC.glob("*.frame")) + list((VEC / "invalid").glob("*.bin")):
        shutil.copy(f, corpus / f.name)
    for f in (VEC / "link").glob("*.frame"):  # the node with the link layer attached takes these
        shutil.copy(f, corpus / f"link_{f.name}")
    run(fuzzers / "fuzz_envelope", corpus, tmp_path)


def test_fuzz_link_layer(fuzzers: Path, tmp_path: Path) -> None:
    """bbrt_link.c fed arbitrary frame bodies, sends, clock steps and peer HELLOs (fuzz_link.c)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    link = VEC / "link"
    for f in list(link.glob("*.bin")) + list((link / "invalid").glob("*.bin")):
        body = f.read_bytes()[:255]
        # one "receive" record per vector, after a clock step: the script format of fuzz_link.c
        (corpus / f.name).write_bytes(bytes([2, 5]) + bytes([0, len(body)]) + body)
    run(fuzzers / "fuzz_link", corpus, tmp_path)
