"""Accuracy of a quantized compute model against its float original."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
import onnx
import onnxruntime as ort

Sample = dict[str, np.ndarray]


@dataclass
class AccuracyReport:
    """Figures of one quantized artifact against the float program on the given samples.

    ``drop`` is the figure ``--max-accuracy-drop`` limits: for classifier outputs
    (rank-2, at least 2 classes) it is ``1 - top1_agreement``; otherwise the
    maximum absolute error relative to the float output's largest magnitude.
    """

    precision: str
    samples: int
    max_abs_error: float
    mean_abs_error: float
    rel_max_error: float
    top1_agreement: float | None
    float_bytes: int
    quant_bytes: int
    per_output: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def size_ratio(self) -> float:
        """Quantized model size over float model size."""
        return self.quant_bytes / self.float_bytes if self.float_bytes else 1.0

    @property
    def drop(self) -> float:
        """The figure compared with --max-accuracy-drop (see class docstring)."""
        if self.top1_agreement is not None:
            return 1.0 - self.top1_agreement
        return self.rel_max_error

    @property
    def drop_name(self) -> str:
        """What :attr:`drop` measures, for messages."""
        return "top-1 disagreement" if self.top1_agreement is not None else "relative max error"

    def to_json(self) -> dict[str, object]:
        """Plain-JSON figures (for manifests and the report)."""
        d = asdict(self)
        d["size_ratio"] = self.size_ratio
        d["drop"] = self.drop
        d["drop_name"] = self.drop_name
        return d


def _run_all(model: onnx.ModelProto, samples: list[Sample]) -> list[dict[str, np.ndarray]]:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    in_names = [i.name for i in sess.get_inputs()]
    return [dict(zip(names, sess.run(names, {k: s[k] for k in in_names}))) for s in samples]


def is_classifier_output(arr: np.ndarray) -> bool:
    """Rank-2 float output with at least two columns (logits or probabilities)."""
    return arr.ndim == 2 and arr.shape[1] >= 2 and arr.dtype.kind == "f"


def check_accuracy(float_model: onnx.ModelProto, quant_model: onnx.ModelProto, samples: list[Sample],
                   precision: str, classifier_outputs: set[str] | None = None) -> AccuracyReport:
    """Run both compute models on ``samples`` and compare every output.

    Top-1 agreement is measured on ``classifier_outputs`` (by default every
    rank-2 output; builders pass the deployment's graph outputs, so that edge
    activations are judged by their error, not by an argmax).
    """
    ref = _run_all(float_model, samples)
    got = _run_all(quant_model, samples)
    max_err = 0.0
    sums = 0.0
    count = 0
    scale = 0.0
    agree = total = 0
    per: dict[str, dict[str, float]] = {}
    for r, g in zip(ref, got):
        for k, rv in r.items():
            gv = g[k].astype(np.float64)
            d = np.abs(rv.astype(np.float64) - gv)
            max_err = max(max_err, float(d.max(initial=0.0)))
            sums += float(d.sum())
            count += d.size
            scale = max(scale, float(np.abs(rv).max(initial=0.0)))
            p = per.setdefault(k, {"max_abs_error": 0.0})
            p["max_abs_error"] = max(p["max_abs_error"], float(d.max(initial=0.0)))
            if is_classifier_output(rv) and (classifier_outputs is None or k in classifier_outputs):
                agree += int((rv.argmax(axis=1) == gv.argmax(axis=1)).sum())
                total += rv.shape[0]
    return AccuracyReport(
        precision=precision, samples=len(samples), max_abs_error=max_err,
        mean_abs_error=sums / count if count else 0.0,
        rel_max_error=max_err / scale if scale else max_err,
        top1_agreement=agree / total if total else None,
        float_bytes=float_model.ByteSize(), quant_bytes=quant_model.ByteSize(), per_output=per)


def enforce_max_drop(node: str, report: AccuracyReport, limit: float | None) -> None:
    """Raise AccuracyDropError when the report's drop exceeds ``limit``."""
    from bb_edge.quant.quantize import AccuracyDropError

    if limit is not None and report.drop > limit:
        raise AccuracyDropError(node, report.precision, report.drop_name, report.drop, limit)
