"""Compiler: real models split 2/3/4 ways match one monolithic session; typed errors."""

from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import helper

from bb_edge.adapters.inproc import InProcFleet
from bb_edge.compiler import compile_model, load_deployment, load_model
from bb_edge.compiler.program import WIRE_DOMAIN, compute_model, wire_ports
from bb_edge.errors import (
    CrossNodeCycleError,
    CutNotFoundError,
    ModelError,
    NoFeasiblePlacementError,
    PlacementError,
    UnsupportedOpError,
)
from tests._models import light, monolithic, random_inputs

MODELS = ["squeezenet", "resnet50", "shufflenet", "inception_v1"]


@pytest.fixture(scope="module", params=MODELS)
def real_model(request: pytest.FixtureRequest) -> tuple[str, onnx.ModelProto, dict, dict]:
    model = load_model(light(request.param))
    x = random_inputs(model, seed=3)
    return request.param, model, x, monolithic(model, x)


def _check_programs(programs: dict[str, onnx.ModelProto]) -> None:
    for prog in programs.values():
        onnx.checker.check_model(prog)
        assert any(o.domain == WIRE_DOMAIN for o in prog.opset_import)
        onnx.checker.check_model(compute_model(prog))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_real_model_automatic_split_matches_monolithic(real_model, n: int) -> None:  # type: ignore[no-untyped-def]
    name, model, x, ref = real_model
    dep, programs = compile_model(model, nodes=n)
    assert len(dep.nodes) == n and all(s.ops > 0 for s in dep.nodes)
    _check_programs(programs)
    out = InProcFleet(dep, programs).infer(x)
    for k, v in ref.items():
        assert np.abs(out[k] - v).max() <= 1e-5, (name, n, k)


def _cuts_for(model: onnx.ModelProto, n: int) -> list[str]:
    """Cut tensors on the model's main path: outputs of evenly spaced single-consumer-spanning ops."""
    dep, _ = compile_model(model, nodes=n)
    return list(dict.fromkeys(e.tensor for e in dep.edges if e.src != e.dst))[: n - 1]


@pytest.mark.parametrize("name,cuts", [
    ("squeezenet", ["r9"]),
    ("squeezenet", ["r9", "r40"]),
    ("resnet50", ["r56", "r118", "r150"]),
    ("inception_v1", ["r9", "r109"]),
])
def test_real_model_cut_list_matches_monolithic(name: str, cuts: list[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    model = load_model(light(name))
    x = random_inputs(model, seed=5)
    ref = monolithic(model, x)
    dep, _ = compile_model(model, cuts=cuts, out_dir=tmp_path)
    assert len(dep.nodes) == len(cuts) + 1
    dep = load_deployment(tmp_path)  # through the files, as the CLI does
    for spec in dep.nodes:
        onnx.checker.check_model(onnx.load(str(tmp_path / spec.program)))
    out = InProcFleet(dep).infer(x)
    for k, v in ref.items():
        assert np.abs(out[k] - v).max() <= 1e-5


def test_edges_carry_the_typed_contract_on_both_ends() -> None:
    model = load_model(light("squeezenet"))
    dep, programs = compile_model(model, nodes=3)
    for e in dep.edges:
        send = [p for p in wire_ports(programs[e.src]) if p.op == "Send" and p.edge_id == e.id]
        recv = [p for p in wire_ports(programs[e.dst]) if p.op == "Recv" and p.edge_id == e.id]
        assert len(send) == len(recv) == 1
        assert (send[0].elem_type, list(send[0].shape)) == (recv[0].elem_type, list(recv[0].shape)) \
            == (e.elem_type, e.shape)
        assert send[0].peer == e.dst and recv[0].peer == e.src
        assert e.bytes_per_inference == int(np.prod(e.shape)) * 4


def test_manifest_round_trips_and_names_programs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    compile_model(light("shufflenet"), nodes=2, out_dir=tmp_path, node_names=["cam", "gw"])
    raw = json.loads((tmp_path / "deployment.json").read_text())
    assert raw["format"] == "bb-edge/deployment" and [n["name"] for n in raw["nodes"]] == ["cam", "gw"]
    dep = load_deployment(tmp_path)
    assert dep.to_json()["edges"] == raw["edges"]
    assert {i.node for i in dep.inputs} == {"cam"} and {o.node for o in dep.outputs} == {"gw"}
    ids = [e.id for e in dep.edges] + [i.edge_id for i in dep.inputs] + [o.edge_id for o in dep.outputs]
    assert len(ids) == len(set(ids))


def test_memory_limits_steer_and_refuse_automatic_placement() -> None:
    model = load_model(light("squeezenet"))
    dep, _ = compile_model(model, nodes=2)
    total = sum(n.param_bytes for n in dep.nodes)
    with pytest.raises(NoFeasiblePlacementError, match="memory limits"):
        compile_model(model, nodes=2, memory_limits=[total // 4, total // 4])
    # a small first node: the split moves so that node 0 fits its limit
    n0 = dep.nodes[0]
    limit = n0.peak_activation_bytes + n0.param_bytes // 2
    dep2, _ = compile_model(model, nodes=2, memory_limits=[limit, 10**9])
    assert dep2.nodes[0].param_bytes < n0.param_bytes
    assert dep2.nodes[0].param_bytes + dep2.nodes[0].peak_activation_bytes <= limit


def test_cut_not_found_is_typed_and_helpful() -> None:
    with pytest.raises(CutNotFoundError, match="no_such_tensor"):
        compile_model(light("squeezenet"), cuts=["no_such_tensor"])


def test_placement_missing_and_unknown_ops_in_map() -> None:
    model = load_model(light("squeezenet"))
    first = model.graph.node[0].name
    with pytest.raises(PlacementError, match="missing"):
        compile_model(model, place={first: "a"})
    with pytest.raises(PlacementError, match="does not have"):
        compile_model(model, place={"nope": "a", "*": "b"})
    dep, _ = compile_model(model, place={first: "a", "*": "b"})
    assert [n.name for n in dep.nodes] == ["a", "b"]


def test_no_placement_at_all_says_how_to_fix() -> None:
    with pytest.raises(PlacementError, match="--nodes"):
        compile_model(light("squeezenet"))


def _tiny(op: str = "Relu", domain: str = "") -> onnx.ModelProto:
    nodes = [helper.make_node("Relu", ["x"], ["a"], name="r0"),
             helper.make_node(op, ["a"], ["b"], name="odd", domain=domain),
             helper.make_node("Relu", ["b"], ["y"], name="r2")]
    g = helper.make_graph(nodes, "t", [helper.make_tensor_value_info("x", 1, [1, 4])],
                          [helper.make_tensor_value_info("y", 1, [1, 4])])
    imports = [helper.make_opsetid("", 17)] + ([helper.make_opsetid(domain, 1)] if domain else [])
    return helper.make_model(g, opset_imports=imports)


def test_unsupported_and_unknown_ops_are_typed_errors() -> None:
    with pytest.raises(UnsupportedOpError, match="com.microsoft"):
        compile_model(_tiny("FusedGemm", "com.microsoft"), nodes=2)
    with pytest.raises((UnsupportedOpError, ModelError), match="Relux|unknown|checker"):
        compile_model(_tiny("Relux"), nodes=2)


def test_invalid_model_is_a_model_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"this is not protobuf at all \x00\x01\x02")
    with pytest.raises(ModelError):
        compile_model(bad, nodes=2)
    with pytest.raises(ModelError, match="no such"):
        compile_model(tmp_path / "missing.onnx", nodes=2)


def test_cross_node_cycle_is_refused_in_pipeline_mode_and_runs_otherwise() -> None:
    model = load_model(_tiny())
    place = {"r0": "a", "odd": "b", "r2": "a"}
    with pytest.raises(CrossNodeCycleError, match="a -> b -> a"):
        compile_model(model, place=place, allow_cycles=False)
    dep, programs = compile_model(model, place=place)
    x = np.array([[-1, 2, -3, 4]], dtype=np.float32)
    assert np.array_equal(InProcFleet(dep, programs).infer({"x": x})["y"], np.maximum(x, 0))


def test_constant_subgraphs_are_folded_into_parameters() -> None:
    raw = onnx.load(str(light("squeezenet")))
    assert any(n.op_type == "ConstantOfShape" for n in raw.graph.node)
    model = load_model(raw)
    assert not any(n.op_type == "ConstantOfShape" for n in model.graph.node)
    assert len(model.graph.initializer) > 0
