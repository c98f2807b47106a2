"""`bb-edge compile MODEL.tflite`: the five MLPerf Tiny int8 .tflite files, bit-exact with TFLite (issue 36).

The files in ../shared/models/mlperf-tiny/tflite are compiled as a user would (the CLI, no ONNX in
between that the user made), the compiled node program is lowered to bbrt, and its outputs must equal
the TFLite interpreter's stored outputs (``tflite_output``) byte for byte on all 8 reference inputs, on
the host build for all five models and under QEMU Cortex-M4 for KWS.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.cli import main
from bb_edge.tflite.reader import read_tflite
from tests.support.mlperf import MODELS, NAMES, qemu_arm_run, run_host

FILES = {"ad": "ad01_int8", "kws": "kws_ref_model", "ic": "pretrainedResnet_quant", "strww": "str_ww_ref_model",
         "vww": "vww_96_int8"}


def compiled(name: str, tmp: Path) -> Lowered:
    """``bb-edge compile MODEL.tflite --nodes 1 -o DIR`` and the node program lowered to bbrt."""
    assert main(["compile", str(MODELS / "tflite" / f"{FILES[name]}.tflite"), "--nodes", "1", "-o", str(tmp)]) == 0
    return lower(onnx.load(str(tmp / "n0.onnx")), io_edges=None)


@pytest.mark.parametrize("name", NAMES)
def test_compiled_tflite_equals_tflite_on_the_host(name: str, tmp_path: Path) -> None:
    ref = np.load(MODELS / "reference" / f"{name}_int8.npz")
    L = compiled(name, tmp_path)
    out = run_host(L, ref["input"])
    y = ref["tflite_output"]
    np.testing.assert_array_equal(out, y.reshape(len(y), -1))


def test_compiled_tflite_equals_tflite_on_cortex_m4(tmp_path: Path) -> None:
    ref = np.load(MODELS / "reference" / "kws_int8.npz")
    out, insns, _ = qemu_arm_run(compiled("kws", tmp_path / "c"), ref["input"], tmp_path / "q", kind="cortex-m4",
                                 opt="-Os -DBENCH_RUNS=1")
    np.testing.assert_array_equal(out, ref["tflite_output"].reshape(8, -1))
    assert insns > 0


@pytest.mark.parametrize("name", ["kws", "ic"])
def test_every_int8_tensor_keeps_the_files_parameters(name: str, tmp_path: Path) -> None:
    """The program's int8 tensors carry the .tflite's own scales and zero points, none made up."""
    g = read_tflite((MODELS / "tflite" / f"{FILES[name]}.tflite").read_bytes())
    stated = {(float(np.float32(t.quant.scale[0])), int(t.quant.zero_point[0])) for t in g.tensors
              if t.dtype == "INT8" and t.data is None and t.quant is not None}
    L = compiled(name, tmp_path)
    assert set(L.qparams.values()) == stated
