"""The learning data sets ship inside bb-edge: same values as scikit-learn's loaders, and no scikit-learn needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bb_edge.learn.data import SKLEARN_DATASETS, SklearnSource, bundled_dataset

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", SKLEARN_DATASETS)
def test_bundled_equals_sklearn(name: str) -> None:
    from sklearn import datasets  # the oracle (test extra only)

    bunch = getattr(datasets, f"load_{name}")()
    x, y = bundled_dataset(name)
    np.testing.assert_array_equal(x, bunch.data)
    np.testing.assert_array_equal(y, bunch.target)
    scaled, labels = SklearnSource(name).arrays()
    lo, hi = bunch.data.min(axis=0), bunch.data.max(axis=0)
    want = ((bunch.data - lo) / np.where(hi > lo, hi - lo, 1.0)).astype(np.float32)
    np.testing.assert_array_equal(scaled, want)
    assert labels.dtype == np.int64


def test_no_sklearn_import(tmp_path: Path) -> None:
    # scikit-learn made unimportable (a package of that name that raises ImportError, first on the path):
    # every bundled set still loads, and a learning example runs end to end
    block = tmp_path / "block" / "sklearn"
    block.mkdir(parents=True)
    (block / "__init__.py").write_text("raise ImportError('scikit-learn is blocked in this test')\n")
    env = {**os.environ, "PYTHONPATH": f"{block.parent}{os.pathsep}{ROOT}", "OMP_NUM_THREADS": "1"}
    code = ("import json\nfrom bb_edge.learn.data import SKLEARN_DATASETS, SklearnSource\n"
            "print(json.dumps({n: list(SklearnSource(n).arrays()[0].shape) for n in SKLEARN_DATASETS}))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"digits": [1797, 64], "iris": [150, 4], "wine": [178, 13],
                                    "breast_cancer": [569, 30]}
    r = subprocess.run([sys.executable, "-c", "import sklearn"], capture_output=True, text=True, env=env)
    assert "blocked in this test" in r.stderr  # the block works
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "split_digits.py"), "--summary",
                        str(tmp_path / "s.json")], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads((tmp_path / "s.json").read_text())["central_accuracy"] > 0.85
