"""Write bb_edge/_data/tabular.npz: scikit-learn's bundled iris, wine and breast_cancer tables, once.

bb-edge reads them (``data.sklearn``, ``"source": "iris"``) without scikit-learn installed; run this
script again only to regenerate the file (it needs scikit-learn). The digits live in digits.npz
(uint8 images and labels; bb_edge/_data/README.md). Arrays: ``NAME_data`` (float64, exactly
``load_NAME().data``) and ``NAME_target`` (uint8).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from sklearn import datasets

OUT = Path(__file__).resolve().parents[1] / "bb_edge" / "_data" / "tabular.npz"


def main() -> None:
    """Write the file."""
    arrays = {}
    for name in ("iris", "wine", "breast_cancer"):
        bunch = getattr(datasets, f"load_{name}")()
        arrays[f"{name}_data"] = np.asarray(bunch.data, dtype=np.float64)
        arrays[f"{name}_target"] = np.asarray(bunch.target, dtype=np.uint8)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
