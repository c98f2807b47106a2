"""Bad .tflite files: one typed error naming what is wrong, never a crash; the parser under mutation fuzzing.

Each file is wrong in one named way (tests/support/tflite_build.py writes it). The fuzz mutates the five
MLPerf Tiny files and small built ones (byte flips, 32-bit words set to edge values, truncation) and
requires every outcome to be a translation or a TfliteError: BB_EDGE_FUZZ_N sets the count (2000 by default).
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bb_edge.errors import BBError
from bb_edge.tflite import TfliteError, TfliteFormatError, TfliteQuantError, TfliteUnsupportedError, tflite_to_onnx
from tests.support.mlperf import MODELS
from tests.support.tflite_build import M, O, T, act, build, conv_model

ROOT = Path(__file__).resolve().parents[2]


def softmax_model(**kw: object) -> M:
    return M([act("x", (1, 8), 0.1, 0), act("y", (1, 8), 1 / 256, -128)],
             [O("SOFTMAX", [0], [1], ("SoftmaxOptions", {"Beta": 1.0}))], [0], [1], **kw)  # type: ignore[arg-type]


def test_unknown_schema_version() -> None:
    with pytest.raises(TfliteFormatError, match="schema version 7"):
        tflite_to_onnx(build(softmax_model(version=7)))


def test_custom_op_is_named() -> None:
    m = softmax_model()
    m.ops = [O("CUSTOM", [0], [1], custom="MyFancyOp")]
    with pytest.raises(TfliteUnsupportedError, match="MyFancyOp"):
        tflite_to_onnx(build(m))


def test_buffer_offset_outside_the_file() -> None:
    m = M([act("x", (1, 8), 0.1, 0), T("s", (2,), "INT32", None, buffer_offset=(10**6, 8)), act("y", (1, 8), 0.1, 0)],
          [O("RESHAPE", [0, 1], [2])], [0], [2])
    with pytest.raises(TfliteFormatError, match="outside the file"):
        tflite_to_onnx(build(m))


@pytest.mark.parametrize("tensor,why", [
    (T("x", (1, 8), "INT8", None, None, None), "no quantization parameters"),
    (T("x", (1, 8), "INT8", None, [0.1, 0.2], [0]), "2 scale"),
    (T("x", (1, 8), "INT8", None, [0.1], [300]), "outside the INT8 range"),
    (T("x", (1, 8), "INT8", None, [-0.5], [0]), "not finite and positive"),
    (T("x", (1, 8), "INT8", None, [0.1, 0.1, 0.1], [0, 0, 0], axis=1), "per-channel scales along dimension 1"),
])
def test_missing_or_inconsistent_quantization(tensor: T, why: str) -> None:
    m = softmax_model()
    m.tensors[0] = tensor
    with pytest.raises(TfliteQuantError, match=why) as e:
        tflite_to_onnx(build(m))
    assert e.value.tensor == "x"


def test_subgraph_index_out_of_range() -> None:
    with pytest.raises(TfliteFormatError, match="subgraph index 2 out of range"):
        tflite_to_onnx(build(softmax_model(signature_subgraph=2)))
    with pytest.raises(TfliteFormatError, match="subgraph index 1 out of range"):
        tflite_to_onnx(build(softmax_model()), subgraph=1)


def test_truncated_file_at_every_length_of_a_small_model() -> None:
    """Cut anywhere: a typed error (a cut of only trailing bytes no table reaches may still read)."""
    data = build(softmax_model())
    read = 0
    for n in range(len(data)):
        try:
            tflite_to_onnx(data[:n])
            read += 1
        except TfliteError:
            pass
    assert read <= 16, read
    with pytest.raises(TfliteFormatError, match="truncated"):
        tflite_to_onnx(data[:len(data) // 2])


def test_int16_activations_are_refused_naming_the_op() -> None:
    m = softmax_model()
    m.tensors = [act("x", (1, 8), 0.1, 0, "INT16"), act("y", (1, 8), 1 / 32768, 0, "INT16")]
    with pytest.raises(TfliteUnsupportedError, match=r"op 0 \(SOFTMAX\).*int16") as e:
        tflite_to_onnx(build(m))
    assert e.value.op == "SOFTMAX"


def test_an_op_outside_the_table_is_refused_by_name() -> None:
    m = M([act("x", (1, 4, 4, 2), 0.1, 0), act("y", (1, 4, 4, 2), 0.1, 0)], [O("SQUARE", [0], [1], None)], [0], [1])
    with pytest.raises(TfliteUnsupportedError, match="SQUARE") as e:
        tflite_to_onnx(build(m))
    assert e.value.op == "SQUARE"


def test_cli_prints_one_line_and_exits_non_zero(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(build(softmax_model(version=2)))
    env = {k: v for k, v in os.environ.items() if k != "BB_EDGE_DEBUG"}
    env["PYTHONPATH"] = str(ROOT)
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "compile", str(bad), "--nodes", "1", "-o",
                        str(tmp_path / "out")], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "TfliteFormatError" in lines[0] and "schema version 2" in lines[0], r.stderr
    assert "Traceback" not in r.stderr


EDGE_WORDS = (0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFF, 8, 3)


def mutate(data: bytes, rng: np.random.Generator) -> bytes:
    """One mutation: 1-4 flipped bytes, a 32-bit word set to an edge value, or a truncation."""
    b = bytearray(data)
    kind = rng.integers(0, 10)
    if kind == 0:
        return bytes(b[:int(rng.integers(0, len(b)))])
    if kind < 4:
        pos = int(rng.integers(0, max(1, len(b) - 4))) & ~3
        struct.pack_into("<I", b, pos, EDGE_WORDS[int(rng.integers(0, len(EDGE_WORDS)))])
        return bytes(b)
    for _ in range(int(rng.integers(1, 5))):
        b[int(rng.integers(0, len(b)))] ^= 1 << int(rng.integers(0, 8))
    return bytes(b)


def test_fuzz_mutated_flatbuffers_raise_only_typed_errors() -> None:
    n = int(os.environ.get("BB_EDGE_FUZZ_N", "2000"))
    seeds = [build(softmax_model()), conv_model(), conv_model(depthwise=True),
             (MODELS / "tflite" / "kws_ref_model.tflite").read_bytes(),
             (MODELS / "tflite" / "str_ww_ref_model.tflite").read_bytes()]
    rng = np.random.default_rng(36)
    outcomes = {"translated": 0, "typed": 0}
    for k in range(n):
        data = mutate(seeds[k % len(seeds)], rng)
        try:
            tflite_to_onnx(data)
            outcomes["translated"] += 1
        except BBError:
            outcomes["typed"] += 1
        except Exception as exc:  # noqa: BLE001 - the failure this test looks for
            pytest.fail(f"mutation {k} (seed file {k % len(seeds)}): untyped {type(exc).__name__}: {exc}")
    assert outcomes["typed"] > n // 10, outcomes  # the mutations do reach the checks
