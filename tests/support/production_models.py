"""Production ONNX models from pinned wheels (OCR, voice activity, file-type detection): the cases, how
their dynamic dims are pinned, the wheels fetched once into a cache, and plausible inputs for them."""

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

from bb_edge.compiler import load_model
from tests.support.zoo_models import ZOO_MODELS as ZOO

LONG = os.environ.get("BB_EDGE_LONG") == "1"  # the OCR models at their full input sizes
CACHE = Path(os.environ.get("BB_EDGE_CACHE", Path.home() / ".cache" / "bb-edge")) / "models"


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


OCR_WHEEL = ("rapidocr-onnxruntime", "1.4.4")


VAD_WHEEL = ("silero-vad", "6.2.3")


_VAD_FEED = {"input": [1, 512], "state": [2, 1, 128]}  # one 32 ms window at 16 kHz


CASES = {
    "ocr-det": Case(OCR_WHEEL, "ch_PP-OCRv4_det_infer.onnx", {"x": [1, 3, 640, 640] if LONG else [1, 3, 64, 64]}),
    "ocr-rec": Case(OCR_WHEEL, "ch_PP-OCRv4_rec_infer.onnx", {"x": [1, 3, 48, 320] if LONG else [1, 3, 48, 96]}),
    # the classifier is exact to one float32 ulp-scale rounding (its split segments fuse differently)
    "ocr-cls": Case(OCR_WHEEL, "ch_ppocr_mobile_v2.0_cls_infer.onnx", {"x": [1, 3, 48, 192]}, atol=1e-6),
    # folding its pinned shape plumbing (bit-exact: test_pinned_shape_plumbing_folds_bit_exact) moves the 4-way
    # cut, and ORT fuses the segments differently from one session: within 1e-8
    "magika": Case(("magika", "1.0.3"), "model.onnx", {"bytes": [1, 2048]}, atol=1e-8),
    # silero's If models: ORT cannot type their branches with a fixed `input` length, so it stays dynamic
    "vad": Case(VAD_WHEEL, "silero_vad.onnx", feed=_VAD_FEED),
    "vad-16k-op15": Case(VAD_WHEEL, "silero_vad_16k_op15.onnx", feed=_VAD_FEED),
    "vad-half": Case(VAD_WHEEL, "silero_vad_half.onnx", feed=_VAD_FEED),
    "vad-op18-ifless": Case(VAD_WHEEL, "silero_vad_op18_ifless.onnx", feed=_VAD_FEED),
    "vad-16k-sequence": Case(VAD_WHEEL, "silero_vad_16k_sequence.onnx", {"input": [4, 576]}),
    "vad-openvino-16k": Case(VAD_WHEEL, "silero_vad_openvino_16k.onnx"),
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


def plausible_inputs(model: onnx.ModelProto, feed: dict[str, list[int]], seed: int = 0) -> dict[str, np.ndarray]:
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


def load_case(name: str) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """Model ``name`` (a zoo stand-in or a production case) loaded with its pins, and inputs for it."""
    if name in ZOO:
        make, pins = ZOO[name]
        model = load_model(make(), pins)
        rng = np.random.default_rng(0)
        return model, {k: rng.integers(0, 20, v).astype(np.int64) for k, v in pins.items()}  # valid ids
    case = CASES[name]
    model = load_model(fetch_wheel_models(*case.wheel) / case.file, case.shapes or None)
    return model, plausible_inputs(model, case.feed)
