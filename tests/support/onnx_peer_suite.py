"""The ONNX backend node-test suite as a peer suite for the ExecuTorch lowering (issue 26).

Shared by bench/bench_executorch_peer_suite.py (the whole suite, a table by op) and
tests/convert/test_executorch_peer_subset.py (a fixed subset in CI).

The installed onnx wheel carries no backend test data, only its generators
(``onnx.backend.test.case``); :func:`generate` writes every node case once into
``~/.cache/bb-edge/onnx-node-tests/<onnx version>/`` in the layout of
``python -m onnx.backend.test.cmd_tools generate-data`` (``model.onnx`` and
``test_data_set_N/{input,output}_K.pb``) plus a ``case.json`` with the op and the case's tolerances.

Each case runs twice: through ONNX Runtime (the reference: which cases a production runtime passes)
and through the path ``bb-edge build --target android-arm64`` takes (the ONNX->torch converter,
``torch.export``, XNNPACK lowering, ``.pte`` bytes) executed by the ExecuTorch runtime. Outputs are
compared as onnx's backend runner does (same dtype, ``assert_allclose`` with the case's rtol/atol).

One deliberate difference from a run-time backend: inputs the converter reads at conversion time
(shape, axes, pads, split sizes, Resize sizes/scales, an If condition; ``_STATIC_INPUTS`` of the
converter) are frozen to the data set's values as initializers, as ``compile --input-shape`` folding
does for a real model. A data-dependent output shape cannot be an ExecuTorch static program anyway.
"""

from __future__ import annotations

import json
import os
import shutil
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper

CACHE = Path(os.environ.get("BB_EDGE_CACHE", Path.home() / ".cache" / "bb-edge")) / "onnx-node-tests"


def cache_dir() -> Path:
    """The node cases of the installed onnx version (keyed by it)."""
    return CACHE / onnx.__version__


@dataclass
class Case:
    """One node test case: model, data sets and tolerances."""

    name: str
    op: str
    model: onnx.ModelProto
    data: list[tuple[list[Any], list[Any]]]
    rtol: float = 1e-3
    atol: float = 1e-7


@dataclass
class Outcome:
    """The result of one case on one runtime: ``ok`` or a failure class and its detail."""

    ok: bool
    cls: str = ""
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _value_proto(value: Any, vi: onnx.ValueInfoProto) -> bytes:
    t = vi.type
    if t.HasField("sequence_type"):
        return numpy_helper.from_list(value, vi.name).SerializeToString()
    if t.HasField("optional_type"):
        return numpy_helper.from_optional(value, vi.name).SerializeToString()
    if t.HasField("map_type"):
        return numpy_helper.from_dict(value, vi.name).SerializeToString()
    if isinstance(value, onnx.TensorProto):
        return value.SerializeToString()
    return numpy_helper.from_array(np.asarray(value), vi.name).SerializeToString()


def _read_value(path: Path, vi: onnx.ValueInfoProto) -> Any:
    t = vi.type
    raw = path.read_bytes()
    if t.HasField("sequence_type"):
        seq = onnx.SequenceProto()
        seq.ParseFromString(raw)
        return numpy_helper.to_list(seq)
    if t.HasField("optional_type"):
        opt = onnx.OptionalProto()
        opt.ParseFromString(raw)
        return numpy_helper.to_optional(opt)
    tp = onnx.TensorProto()
    tp.ParseFromString(raw)
    return numpy_helper.to_array(tp)


def generate(root: Path | None = None, force: bool = False) -> Path:
    """Write every node case of the installed onnx into ``root`` (default :func:`cache_dir`) once."""
    import warnings

    from onnx.backend.test.case.node import collect_testcases

    root = root or cache_dir()
    done = root / "COMPLETE"
    if done.exists() and not force:
        return root
    tmp = root.with_name(root.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    for c in cases:
        d = tmp / c.name
        d.mkdir(parents=True)
        model = c.model
        assert model is not None  # node cases always carry their model
        (d / "model.onnx").write_bytes(model.SerializeToString())
        op = model.graph.node[0].op_type if model.graph.node else ""
        (d / "case.json").write_text(json.dumps({"op": _op_of(c.name, model), "first": op,
                                                 "rtol": c.rtol, "atol": c.atol}))
        for i, (ins, outs) in enumerate(c.data_sets or []):
            s = d / f"test_data_set_{i}"
            s.mkdir()
            for j, v in enumerate(ins):
                (s / f"input_{j}.pb").write_bytes(_value_proto(v, model.graph.input[j]))
            for j, v in enumerate(outs):
                (s / f"output_{j}.pb").write_bytes(_value_proto(v, model.graph.output[j]))
    (tmp / "COMPLETE").write_text(str(len(cases)))
    shutil.rmtree(root, ignore_errors=True)
    tmp.rename(root)
    return root


def _op_of(name: str, model: onnx.ModelProto) -> str:
    """The op a case tests: the one node's op, else the node op whose name the case name starts with."""
    ops = [n.op_type for n in model.graph.node]
    if len(set(ops)) == 1:
        return ops[0]
    key = name.removeprefix("test_").replace("_", "").lower()
    best = max((o for o in set(ops) if key.startswith(o.lower())), key=len, default=None)
    return best or (ops[0] if ops else "?")


def case_names(root: Path | None = None) -> list[str]:
    """Every generated case name, sorted."""
    root = root or generate()
    return sorted(p.name for p in root.iterdir() if p.is_dir())


def load(name: str, root: Path | None = None) -> Case:
    """One generated case."""
    d = (root or cache_dir()) / name
    meta = json.loads((d / "case.json").read_text())
    model = onnx.load(str(d / "model.onnx"))
    data = []
    for s in sorted(d.glob("test_data_set_*")):
        ins = [_read_value(s / f"input_{j}.pb", vi) for j, vi in enumerate(model.graph.input)
               if (s / f"input_{j}.pb").exists()]
        outs = [_read_value(s / f"output_{j}.pb", vi) for j, vi in enumerate(model.graph.output)
                if (s / f"output_{j}.pb").exists()]
        data.append((ins, outs))
    return Case(name, meta["op"], model, data, meta["rtol"], meta["atol"])


def _compare(got: list[Any], ref: list[Any], rtol: float, atol: float) -> str:
    """'' when ``got`` matches ``ref`` as onnx's backend runner checks it, else why not."""
    if len(got) != len(ref):
        return f"{len(got)} outputs, expected {len(ref)}"
    for k, (g, r) in enumerate(zip(got, ref)):
        if isinstance(r, list):
            if not isinstance(g, list) or len(g) != len(r):
                return f"output {k}: sequence mismatch"
            why = _compare(g, r, rtol, atol)
            if why:
                return why
            continue
        if r is None:
            if g is not None:
                return f"output {k}: expected an empty optional"
            continue
        g, r = np.asarray(g), np.asarray(r)
        if g.dtype != r.dtype:
            return f"output {k}: dtype {g.dtype}, expected {r.dtype}"
        if g.shape != r.shape:
            return f"output {k}: shape {list(g.shape)}, expected {list(r.shape)}"
        if r.dtype == object or r.dtype.kind in "USb":
            if not np.array_equal(g, r):
                return f"output {k}: values differ"
            continue
        try:
            np.testing.assert_allclose(g, r, rtol=rtol, atol=atol)
        except AssertionError:
            err = np.abs(g.astype(np.float64) - r.astype(np.float64))
            return f"output {k}: max abs error {np.nanmax(err) if err.size else 0:.3g}"
    return ""


def run_ort(case: Case) -> Outcome:
    """The case through one ONNX Runtime CPU session."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.log_severity_level = 4
    try:
        sess = ort.InferenceSession(case.model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - a reference failure is data here
        return Outcome(False, "ort: load", _first_line(exc))
    names = [i.name for i in sess.get_inputs()]
    for ins, outs in case.data:
        try:
            got = sess.run(None, dict(zip(names, ins)))
        except Exception as exc:  # noqa: BLE001
            return Outcome(False, "ort: run", _first_line(exc))
        why = _compare(list(got), outs, case.rtol, case.atol)
        if why:
            return Outcome(False, "ort: mismatch", why)
    return Outcome(True)


def freeze_static_inputs(case: Case, data_set: int = 0) -> tuple[onnx.ModelProto, list[str]]:
    """The model with every input the converter reads at conversion time turned into an initializer, and its
    sequence inputs' element shapes pinned (:func:`~bb_edge.convert.torch_seq.pin_sequences`).

    Returns the model and the frozen input names. Values come from ``data_set``.
    """
    from bb_edge.convert.onnx_torch import static_input_names
    from bb_edge.convert.torch_seq import pin_sequences

    model = onnx.ModelProto()
    model.CopyFrom(case.model)
    ins, _ = case.data[data_set]
    values = {vi.name: v for vi, v in zip(model.graph.input, ins)}
    frozen = [n for n in static_input_names(model) if n in values and isinstance(values[n], np.ndarray)]
    for n in frozen:
        model.graph.initializer.append(numpy_helper.from_array(values[n], n))
    keep = [vi for vi in model.graph.input if vi.name not in frozen]
    for vi in keep:  # symbolic dims pinned from the data (as `compile --input-shape` does for a deployment)
        v = values.get(vi.name)
        dims = vi.type.tensor_type.shape.dim if vi.type.HasField("tensor_type") else []
        if isinstance(v, np.ndarray) and len(dims) == v.ndim and any(not d.HasField("dim_value") for d in dims):
            for d, size in zip(dims, v.shape):
                d.dim_value = int(size)
    del model.graph.input[:]
    model.graph.input.extend(keep)
    return pin_sequences(model, values), frozen


def _non_tensor_boundary(case: Case) -> bool:
    """Whether a graph input is neither a tensor nor a sequence of tensors (optional, map), or an output is
    neither of those nor an optional of one."""
    def ok(t: onnx.TypeProto) -> bool:
        return t.HasField("tensor_type") or (t.HasField("sequence_type") and t.sequence_type.elem_type.HasField(
            "tensor_type"))
    return any(not ok(vi.type) for vi in case.model.graph.input) or any(
        not ok(vi.type.optional_type.elem_type if vi.type.HasField("optional_type") else vi.type)
        for vi in case.model.graph.output)


def run_executorch(case: Case) -> Outcome:
    """The case through the ExecuTorch lowering (android-arm64's path) and the ExecuTorch runtime."""
    from bb_edge.backends.executorch import PteSegment
    from bb_edge.convert.onnx_torch import ProgramIO, unsupported_ops
    from bb_edge.convert.pte import export_pte

    if _non_tensor_boundary(case):
        return Outcome(False, "non-tensor input/output", "optional/map values")
    model, frozen = freeze_static_inputs(case)
    bad = unsupported_ops(model)
    if bad:
        ops = sorted({o.split(" (")[0] for o, _ in bad})
        return Outcome(False, "unsupported op", ", ".join(ops), {"ops": ops, "detail": [o for o, _ in bad]})
    try:
        pte = export_pte(model)
    except Exception as exc:  # noqa: BLE001 - each failure is a row of the table
        return Outcome(False, f"export: {type(exc).__name__}", _first_line(exc))
    io = ProgramIO(model)
    in_names, out_names = io.inputs, [vi.name for vi in model.graph.output]
    try:
        seg = PteSegment(pte, in_names, out_names, io)
    except Exception as exc:  # noqa: BLE001
        return Outcome(False, "runtime: load", _first_line(exc))
    all_names = [vi.name for vi in case.model.graph.input]
    for k, (ins, outs) in enumerate(case.data):
        feed = dict(zip(all_names, ins))
        if k and frozen and any(not np.array_equal(feed[n], case.data[0][0][all_names.index(n)]) for n in frozen):
            return Outcome(False, "frozen input varies", ",".join(frozen))
        try:
            res = seg.run({n: feed[n] for n in in_names})
        except Exception as exc:  # noqa: BLE001
            return Outcome(False, "runtime: execute", _first_line(exc))
        why = _compare([res[n] for n in out_names], outs, case.rtol, case.atol)
        if why:
            return Outcome(False, "mismatch", why)
    return Outcome(True, extra={"frozen": frozen})


def _first_line(exc: BaseException) -> str:
    s = str(exc).strip()
    line = s.splitlines()[0] if s else type(exc).__name__
    return line[:300]


def run_case(name: str, root: Path | None = None) -> dict[str, Any]:
    """Both runtimes on one case: ``{"name", "op", "ort": Outcome-as-dict, "et": ... or None}``.

    ExecuTorch runs only where ORT passes (the suite's denominator).
    """
    case = load(name, root)
    ort_o = run_ort(case)
    et_o: Outcome | None = None
    if ort_o.ok:
        try:
            et_o = run_executorch(case)
        except Exception as exc:  # noqa: BLE001 - the bench must see every case
            et_o = Outcome(False, f"harness: {type(exc).__name__}", _first_line(exc),
                           {"tb": traceback.format_exc(limit=3)})
    return {"name": name, "op": case.op, "ort": ort_o.__dict__, "et": et_o.__dict__ if et_o else None}


def cases_in_memory(names: list[str]) -> dict[str, Case]:
    """The named node cases straight from onnx's generators (no cache), by name."""
    import warnings

    from onnx.backend.test.case.node import collect_testcases

    want = set(names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = {c.name: c for c in collect_testcases(None) if c.name in want}
    missing = want - set(found)
    if missing:
        raise KeyError(f"onnx {onnx.__version__} has no node case(s) {sorted(missing)}")
    out = {}
    for n, c in found.items():
        assert c.model is not None  # node cases always carry their model
        out[n] = Case(n, _op_of(n, c.model), c.model, [([_plain(v) for v in i], [_plain(v) for v in o])
                                                       for i, o in c.data_sets or []], c.rtol, c.atol)
    return out


def _plain(v: Any) -> Any:
    """A generator's value as the cache reads it back (a TensorProto as its numpy array)."""
    return numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v


def run_converter(case: Case) -> Outcome:
    """The case through the ONNX->torch converter alone, eagerly (no export): the converter's share."""
    import torch

    from bb_edge.convert.onnx_torch import ProgramIO, to_torch, unsupported_ops

    if _non_tensor_boundary(case):
        return Outcome(False, "non-tensor input/output", "optional/map values")
    model, frozen = freeze_static_inputs(case)
    bad = unsupported_ops(model)
    if bad:
        return Outcome(False, "unsupported op", ", ".join(sorted({o.split(" (")[0] for o, _ in bad})))
    names = [vi.name for vi in case.model.graph.input]
    io = ProgramIO(model)
    try:
        mod = to_torch(model)
        for ins, outs in case.data:
            feed = dict(zip(names, ins))
            with torch.no_grad():
                got = mod(*[torch.from_numpy(np.array(a)) for a in io.feed(feed)])
            res = io.results(list(got))
            why = _compare([res[vi.name] for vi in model.graph.output], outs, case.rtol, case.atol)
            if why:
                return Outcome(False, "mismatch", why)
    except Exception as exc:  # noqa: BLE001 - each failure is a row
        return Outcome(False, f"convert: {type(exc).__name__}", _first_line(exc))
    return Outcome(True)


def assert_matches_ort(case: Case, run: Callable[[Case], Outcome], path: str) -> None:
    """Fail unless ORT passes ``case`` (the oracle) and ``run``, the lowering called ``path``, matches it."""
    ref = run_ort(case)
    assert ref.ok, f"the oracle fails {case.name}: {ref.cls} {ref.detail}"
    got = run(case)
    assert got.ok, f"{case.name} ({case.op}) through {path}: {got.cls}: {got.detail}"
