"""`bb-edge demo`: a trained classifier split over three nodes, exact against ORT, accurate on held-out digits.

Oracles: scikit-learn's own copy of the digits (for the data shipped in the package), a fresh ONNX Runtime
session on the model the demo writes (for accuracy and for `bb-edge run` on the compiled split), and the
labels. The int8 sensor on the host C runtime runs when make and cc are present (they are in CI).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.commands.demo import load_digits

NATIVE = shutil.which("make") is not None and shutil.which("cc") is not None
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"COLUMNS": "120", "OMP_NUM_THREADS": "1"}


def bb_edge(*args: str, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=timeout)


def test_shipped_digits_equal_scikit_learn() -> None:
    datasets = pytest.importorskip("sklearn.datasets")
    x, y = load_digits()
    bunch = datasets.load_digits()
    assert x.shape == (1797, 64) and x.dtype == np.float32
    np.testing.assert_array_equal(x * 16.0, bunch.data.astype(np.float32))
    np.testing.assert_array_equal(y, bunch.target)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path_factory.mktemp("demo") / "out"
    return out, bb_edge("demo", "-o", str(out), cwd=out.parent)


def test_demo_prints_held_out_accuracy_of_a_trained_split(demo: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    out, proc = demo
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    text = " ".join(proc.stdout.split())  # rich wraps lines at the terminal width
    final = re.search(r"held-out accuracy (\d\.\d+) over (\d+) digits", text)
    assert final, text[-2000:]
    printed, count = float(final.group(1)), int(final.group(2))
    assert printed >= 0.9 and count == 450
    assert "identical within 1e-5" in text

    # independent oracle: the trained model the demo wrote, on a fresh ORT session, against the labels
    xs = np.load(out / "inputs.npz")["pixels"]
    labels = np.load(out / "labels.npy")
    sess = ort.InferenceSession(str(out / "digits.onnx"), providers=["CPUExecutionProvider"])
    probs = np.concatenate([sess.run(None, {"pixels": row})[0] for row in xs])
    accuracy = float(np.mean(np.argmax(probs, axis=1) == labels))
    assert accuracy >= 0.9, accuracy
    assert f"one ORT session: held-out accuracy {accuracy:.3f} (450 digits)" in text
    if NATIVE:
        assert (out / "dist" / "sensor" / "program.bbrt").is_file()
        assert "sensor on the C runtime, int8" in text, text[-2000:]
        int8 = re.search(r"int8 program on the C runtime .*?held-out accuracy (\d\.\d+), top-1 agreement with "
                         r"float (\d+\.\d)%", text)
        assert int8 and float(int8.group(1)) >= 0.9 and float(int8.group(2)) >= 95.0, text[-2000:]
        assert abs(float(int8.group(1)) - printed) < 1e-9  # the summary reports the fleet it ended with
    else:
        assert "note: step 4 skipped" in text


def test_compiled_split_runs_with_bb_edge_run_and_matches_ort(
        demo: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    out, proc = demo
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = bb_edge("run", str(out), "--inputs", str(out / "inputs.npz"), "--outputs", "out.npz",
                  cwd=tmp_path)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    got = np.load(tmp_path / "out.npz")["probabilities"].reshape(-1, 10)
    xs = np.load(out / "inputs.npz")["pixels"]
    sess = ort.InferenceSession(str(out / "digits.onnx"), providers=["CPUExecutionProvider"])
    want = np.concatenate([sess.run(None, {"pixels": row})[0] for row in xs])
    np.testing.assert_allclose(got, want, atol=1e-5)
    assert float(np.mean(np.argmax(got, axis=1) == np.load(out / "labels.npy"))) >= 0.9


def test_demo_needs_no_scikit_learn_and_notes_the_float_fallback(tmp_path: Path) -> None:
    # sys.modules[name] = None makes every import of it fail, as on a plain `pip install .`
    code = ("import sys; sys.modules['sklearn'] = None; from bb_edge.cli import main; "
            "sys.exit(main(['demo', '--no-native', '--requests', '60', '--epochs', '6']))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                          timeout=180)
    text = " ".join(proc.stdout.split())
    assert proc.returncode == 0, text[-2000:] + proc.stderr[-2000:]
    assert "note: step 4 skipped, --no-native given" in text
    final = re.search(r"held-out accuracy (\d\.\d+) over 60 digits \(all nodes float\)", text)
    assert final and float(final.group(1)) >= 0.85, text[-2000:]


@pytest.mark.parametrize("args", [["--epochs", "0"], ["--requests", "-5"], ["--requests", "abc"]])
def test_bad_demo_options_are_one_line_errors(args: list[str], tmp_path: Path) -> None:
    proc = bb_edge("demo", *args, cwd=tmp_path, timeout=60)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "expected a whole number >= 1" in proc.stderr
