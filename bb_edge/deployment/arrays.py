"""User arrays against a deployment: .npz inputs/outputs, batching, the checks of request and calibration arrays.

Every array a user hands in (``--inputs``, ``--calib``) is checked here
before any work starts: the file is an .npz archive, holds no pickled
objects, every graph input is present with a numeric dtype and a shape the
input contract accepts. A failure is an :class:`~bb_edge.errors.InputFileError`
naming the file, the input and the expected shape.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from bb_edge.deployment.manifest import Deployment, IOSpec
from bb_edge.errors import BBError, CalibrationShapeError, InputFileError
from bb_edge.paths import check_input_path


class CalibrationFileError(InputFileError, CalibrationShapeError):
    """A ``--calib`` file is unusable: an input-file problem that is also a calibration-shape problem."""


def read_npz(path: str | Path, option: str) -> dict[str, np.ndarray]:
    """Every array of an .npz archive, loaded without pickle; InputFileError for anything else."""
    p = check_input_path(path, option)
    if not zipfile.is_zipfile(p):
        raise InputFileError(f"{option} {p}: not an .npz archive; write one with "
                             f"numpy.savez({p.name!r}, NAME=array, ...)")
    arrays: dict[str, np.ndarray] = {}
    try:
        with np.load(p, allow_pickle=False) as data:
            for name in data.files:
                arrays[name] = data[name]
    except ValueError as exc:
        if "allow_pickle" in str(exc):
            raise InputFileError(f"{option} {p}: holds an object array (pickled Python objects); save numeric "
                                 f"arrays only, e.g. np.asarray(x, np.float32)") from None
        raise InputFileError(f"{option} {p}: cannot read an array ({exc}); rewrite it with numpy.savez") from None
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        raise InputFileError(f"{option} {p}: damaged .npz archive ({exc}); rewrite it with numpy.savez") from None
    return arrays


def _fits(shape: tuple[int, ...], contract: list[int]) -> bool:
    """Whether an array shape matches a contract shape (dims <= 0 are dynamic)."""
    return len(shape) == len(contract) and all(c <= 0 or a == c for a, c in zip(shape, contract))


def _shape_text(contract: list[int]) -> str:
    return "[" + ", ".join(str(d) if d > 0 else "?" for d in contract) + "]"


def _check_dtype(arr: np.ndarray, spec: IOSpec, option: str, path: Path) -> None:
    """Numeric arrays that cast to the contract dtype without changing kind (no str, object, float->int)."""
    want = np.dtype(spec.dtype)
    if arr.dtype.kind not in "biuf":
        raise InputFileError(f"{option} {path}: array {spec.name!r} has dtype {arr.dtype} (not numeric); "
                             f"input {spec.name!r} expects {want}, save it as np.asarray(x, np.{want})")
    if not np.can_cast(arr.dtype, want, casting="same_kind"):
        raise InputFileError(f"{option} {path}: array {spec.name!r} has dtype {arr.dtype}, which does not "
                             f"convert to the input's {want} without loss; save it as np.asarray(x, np.{want})")


def _missing(dep: Deployment, arrays: dict[str, np.ndarray], option: str, path: Path) -> None:
    missing = [i.name for i in dep.inputs if i.name not in arrays]
    if missing:
        raise InputFileError(f"{option} {path}: lacks arrays for inputs {missing} (it has {sorted(arrays)}); "
                             f"save them with numpy.savez(path, {', '.join(f'{m}=...' for m in missing)})")


def check_calibration(dep: Deployment, path: str | Path, option: str = "--calib") -> None:
    """Check a calibration .npz against the deployment's inputs, before any build work.

    Accepted per input (the rules of :func:`bb_edge.quant.calib.load_calibration`):
    one sample of the contract shape, a stack ``[N, *shape]``, or, when the
    contract's batch dimension is 1, ``[N, *shape[1:]]``.
    """
    try:
        _check_calibration(dep, Path(path), option)
    except InputFileError as exc:  # callers that catch the builders' CalibrationShapeError catch this too
        raise CalibrationFileError(str(exc)) from None


def _check_calibration(dep: Deployment, p: Path, option: str) -> None:
    arrays = read_npz(p, option)
    _missing(dep, arrays, option, p)
    for spec in dep.inputs:
        arr = arrays[spec.name]
        _check_dtype(arr, spec, option, p)
        shape = list(spec.shape)
        ok = (_fits(arr.shape, shape) or (arr.ndim == len(shape) + 1 and _fits(arr.shape[1:], shape))
              or (bool(shape) and shape[0] in (1, 0, -1) and arr.ndim == len(shape)
                  and _fits(arr.shape[1:], shape[1:])))
        if arr.dtype.kind == "f" and not np.isfinite(arr).all():  # NaN/inf would poison every quantization scale
            raise InputFileError(f"{option} {p}: array {spec.name!r} holds NaN or infinite values; calibrate on "
                                 f"real inputs (np.nan_to_num, or drop those samples)")
        if not ok or arr.size == 0:
            raise InputFileError(
                f"{option} {p}: array {spec.name!r} has shape {list(arr.shape)} but input {spec.name!r} expects "
                f"{_shape_text(shape)}; save one sample of that shape or a stack [N, "
                f"{', '.join(str(d) if d > 0 else '?' for d in shape)}]")


def load_requests(dep: Deployment, path: str | Path | None, count: int = 1,
                  seed: int = 0, option: str = "--inputs") -> list[dict[str, np.ndarray]]:
    """Requests from an .npz keyed by graph input name, or random inputs if no file.

    An array whose leading dimension is one more than the contract's rank is
    read as a stack of requests (``name`` of shape ``[R, *shape]``); all
    inputs must then be stacked. Arrays are cast to the contract dtype when
    that keeps their kind (float64 -> float32); anything else is an
    InputFileError that names the input and the shape it expects.
    """
    if path is None:
        rng = np.random.default_rng(seed)
        return [{i.name: rng.standard_normal([d if d > 0 else 1 for d in i.shape]).astype(i.dtype)
                 for i in dep.inputs} for _ in range(count)]
    p = Path(path)
    arrays = read_npz(p, option)
    _missing(dep, arrays, option, p)
    stacked: dict[str, bool] = {}
    for spec in dep.inputs:
        arr = arrays[spec.name]
        _check_dtype(arr, spec, option, p)
        if _fits(arr.shape, spec.shape):
            stacked[spec.name] = False
        elif arr.ndim == len(spec.shape) + 1 and _fits(arr.shape[1:], spec.shape):
            stacked[spec.name] = True
        else:
            raise InputFileError(
                f"{option} {p}: array {spec.name!r} has shape {list(arr.shape)} but input {spec.name!r} expects "
                f"{_shape_text(spec.shape)} (or a stack [R, ...] of requests); reshape it to the input's shape")
    if len(set(stacked.values())) > 1:
        raise InputFileError(f"{option} {p}: some inputs are stacks of requests and some single requests "
                             f"({stacked}); give every input the same layout")
    cast = {i.name: np.asarray(arrays[i.name], np.dtype(i.dtype)) for i in dep.inputs}
    if any(stacked.values()):
        n = min(int(cast[i.name].shape[0]) for i in dep.inputs)
        if n == 0:
            raise InputFileError(f"{option} {p}: the stacks hold no requests; give at least one")
        return [{i.name: _contiguous(cast[i.name][r]) for i in dep.inputs} for r in range(n)]
    return [{i.name: _contiguous(cast[i.name]) for i in dep.inputs}]


def _contiguous(a: np.ndarray) -> np.ndarray:
    """A C-contiguous array of ``a``'s shape (np.ascontiguousarray alone turns a 0-d scalar into shape [1])."""
    return np.ascontiguousarray(a).reshape(np.shape(a))


def save_outputs(path: str | Path, outputs: list[dict[str, np.ndarray]]) -> None:
    """Write outputs under their ONNX names (stacked on axis 0 if several requests)."""
    if not outputs:
        raise BBError("no outputs to write; the run completed no request")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if len(outputs) == 1:
        np.savez(str(path), **outputs[0])  # type: ignore[arg-type]
    else:
        np.savez(str(path), **{k: np.stack([o[k] for o in outputs]) for k in outputs[0]})  # type: ignore[arg-type]
