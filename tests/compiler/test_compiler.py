"""Compiler: real models split 2/3/4 ways match one monolithic session; typed errors."""

from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import helper

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.compiler import compile_model, load_deployment, load_model
from bb_edge.deployment.ports import WIRE_DOMAIN, compute_model, wire_ports
from bb_edge.errors import (
    CrossNodeCycleError,
    CutNotFoundError,
    ModelError,
    NoFeasiblePlacementError,
    PlacementError,
    UnsupportedOpError,
)
from tests.support.models import light, monolithic, random_inputs

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


# ---------------------------------------------------------------- control flow, input shapes, balance, payloads

def _if_model() -> onnx.ModelProto:
    """x -> Relu -> a; If(sum(x) > 0) then a * W else -a, both branches reading a (and W) from the outer scope."""
    w = onnx.numpy_helper.from_array(np.arange(1, 5, dtype=np.float32).reshape(1, 4), "W")
    then_g = helper.make_graph([helper.make_node("Mul", ["a", "W"], ["t"], name="then_mul")], "then", [],
                               [helper.make_tensor_value_info("t", 1, [1, 4])])
    else_g = helper.make_graph([helper.make_node("Neg", ["a"], ["e"], name="else_neg")], "else", [],
                               [helper.make_tensor_value_info("e", 1, [1, 4])])
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="relu"),
        helper.make_node("ReduceSum", ["x"], ["s"], name="sum", keepdims=0),
        helper.make_node("Greater", ["s", "zero"], ["c"], name="gt"),
        helper.make_node("If", ["c"], ["b"], name="branch", then_branch=then_g, else_branch=else_g),
        helper.make_node("Sigmoid", ["b"], ["y"], name="out"),
    ]
    zero = onnx.numpy_helper.from_array(np.array(0.0, dtype=np.float32), "zero")
    g = helper.make_graph(nodes, "ifm", [helper.make_tensor_value_info("x", 1, [1, 4])],
                          [helper.make_tensor_value_info("y", 1, [1, 4])], initializer=[w, zero])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_if_is_placed_whole_and_its_outer_scope_reads_cross_nodes() -> None:
    model = load_model(_if_model())
    # the If sits on "q"; the tensor its branches read (a) is made on "p" and must arrive over an edge
    place = {"relu": "p", "sum": "p", "gt": "p", "branch": "q", "out": "r"}
    dep, programs = compile_model(model, place=place)
    assert ("a", "p", "q") in {(e.tensor, e.src, e.dst) for e in dep.edges}
    recv = [p for p in wire_ports(programs["q"]) if p.op == "Recv"]
    assert {p.tensor for p in recv} == {"a", "c"}
    assert "W" in {i.name for i in programs["q"].graph.initializer}  # read only inside the branch
    fleet = InProcFleet(dep, programs)
    for x in (np.array([[1, -2, 3, 4]], np.float32), np.array([[-1, -2, 3, -4]], np.float32)):
        ref = monolithic(model, {"x": x})["y"]
        assert np.array_equal(fleet.infer({"x": x})["y"], ref)


def test_automatic_split_keeps_if_whole_and_exact() -> None:
    model = load_model(_if_model())
    x = np.array([[1, -2, 3, 4]], np.float32)
    for n in (2, 3, 4):
        dep, programs = compile_model(model, nodes=n)
        assert sum(any(o.op_type == "If" for o in p.graph.node) for p in programs.values()) == 1
        assert np.array_equal(InProcFleet(dep, programs).infer({"x": x})["y"], monolithic(model, {"x": x})["y"])


def test_loop_and_scan_bodies_read_outer_tensors_across_a_cut() -> None:
    # Loop: 3 times acc += a (a from the outer scope); Scan: running sum of rows plus a
    body = helper.make_graph(
        [helper.make_node("Add", ["acc_in", "a"], ["acc_out"], name="acc"),
         helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep")],
        "body", [helper.make_tensor_value_info("i", 7, []), helper.make_tensor_value_info("cond_in", 9, []),
                 helper.make_tensor_value_info("acc_in", 1, [1, 4])],
        [helper.make_tensor_value_info("cond_out", 9, []), helper.make_tensor_value_info("acc_out", 1, [1, 4])])
    scan_body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "row"], ["s_mid"], name="srow"),
         helper.make_node("Add", ["s_mid", "a_row"], ["s_out"], name="sa"),
         helper.make_node("Identity", ["s_out"], ["emit"], name="emit_id")],
        "sbody", [helper.make_tensor_value_info("s_in", 1, [4]), helper.make_tensor_value_info("row", 1, [4])],
        [helper.make_tensor_value_info("s_out", 1, [4]), helper.make_tensor_value_info("emit", 1, [4])])
    inits = [onnx.numpy_helper.from_array(np.array(3, np.int64), "M"),
             onnx.numpy_helper.from_array(np.array(True), "T"),
             onnx.numpy_helper.from_array(np.zeros((1, 4), np.float32), "z"),
             onnx.numpy_helper.from_array(np.zeros(4, np.float32), "z4"),
             onnx.numpy_helper.from_array(np.array([4], np.int64), "flat")]
    nodes = [helper.make_node("Relu", ["x"], ["a"], name="relu"),
             helper.make_node("Reshape", ["a", "flat"], ["a_row"], name="flat_a"),
             helper.make_node("Loop", ["M", "T", "z"], ["looped"], name="loop", body=body),
             helper.make_node("Scan", ["z4", "rows"], ["last", "sums"], name="scan", body=scan_body,
                              num_scan_inputs=1),
             helper.make_node("Mul", ["looped", "last"], ["y"], name="mix")]
    g = helper.make_graph(nodes, "cf", [helper.make_tensor_value_info("x", 1, [1, 4]),
                                        helper.make_tensor_value_info("rows", 1, [3, 4])],
                          [helper.make_tensor_value_info("y", 1, [1, 4]),
                           helper.make_tensor_value_info("sums", 1, [3, 4])], initializer=inits)
    model = load_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))
    place = {"relu": "p", "flat_a": "p", "loop": "q", "scan": "r", "mix": "p"}
    dep, programs = compile_model(model, place=place)
    crossing = {(e.tensor, e.dst) for e in dep.edges}
    assert ("a", "q") in crossing and ("a_row", "r") in crossing  # read only inside the bodies
    rng = np.random.default_rng(1)
    x = {"x": rng.standard_normal((1, 4)).astype(np.float32), "rows": rng.standard_normal((3, 4)).astype(np.float32)}
    ref = monolithic(model, x)
    out = InProcFleet(dep, programs).infer(x)
    for k, v in ref.items():
        assert np.array_equal(out[k], v), k
    # the Loop's cost counts its body 3 times (trip count M): 3 Adds of 4 elements + 3 Identities
    from bb_edge.compiler.cost import op_costs

    assert {c.name: c.flops for c in op_costs(model)}["loop"] == 3 * (4 + 1)


def _dynamic_matmul() -> onnx.ModelProto:
    w1 = onnx.numpy_helper.from_array(np.ones((64, 32), np.float32), "w1")
    w2 = onnx.numpy_helper.from_array(np.ones((32, 16), np.float32), "w2")
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"], name="mm1"),
             helper.make_node("MatMul", ["h", "w2"], ["y"], name="mm2")]
    g = helper.make_graph(nodes, "dyn", [helper.make_tensor_value_info("x", 1, ["batch", 64])],
                          [helper.make_tensor_value_info("y", 1, ["batch", 16])], initializer=[w1, w2])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_input_shape_pins_dynamic_dims_and_costs_follow() -> None:
    dep, _ = compile_model(_dynamic_matmul(), nodes=2)
    assert dep.extra["dynamic_inputs"] == {"x": [-1, 64]}
    assert [n.flops for n in dep.nodes] == [2 * 1 * 64 * 32, 2 * 1 * 32 * 16]  # batch counted as 1
    dep8, _ = compile_model(_dynamic_matmul(), nodes=2, input_shapes={"x": [8, 64]})
    assert "dynamic_inputs" not in dep8.extra
    assert [n.flops for n in dep8.nodes] == [2 * 8 * 64 * 32, 2 * 8 * 32 * 16]
    assert dep8.edges[0].shape == [8, 32] and dep8.edges[0].bytes_per_inference == 8 * 32 * 4
    for bad, why in [({"nope": [1, 64]}, "no graph input 'nope'"), ({"x": [8]}, "rank 2"),
                     ({"x": [8, 65]}, "fixed at 64")]:
        with pytest.raises(ModelError, match=why):
            compile_model(_dynamic_matmul(), nodes=2, input_shapes=bad)


def test_cli_input_shape_and_estimate_wording(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    src = tmp_path / "dyn.onnx"
    onnx.save(_dynamic_matmul(), str(src))

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                              timeout=120, env={**__import__("os").environ, "COLUMNS": "200"})

    r = cli("compile", str(src), "--nodes", "2", "-o", str(tmp_path / "a"))
    assert r.returncode == 0 and "(estimate)" in r.stdout and "--input-shape x=" in r.stdout, r.stdout
    assert "estimate" in cli("inspect", str(tmp_path / "a")).stdout
    assert "estimate" in cli("inspect", str(src)).stdout
    r = cli("compile", str(src), "--nodes", "2", "--input-shape", "x=8,64", "-o", str(tmp_path / "b"))
    assert r.returncode == 0 and "estimate" not in r.stdout and "2.1 MFLOP" not in r.stdout, r.stdout
    assert json.loads((tmp_path / "b" / "deployment.json").read_text())["inputs"][0]["shape"] == [8, 64]
    r = cli("compile", str(src), "--nodes", "2", "--input-shape", "x=8,abc", "-o", str(tmp_path / "c"))
    assert r.returncode != 0 and "Traceback" not in r.stderr and "NAME=D1,D2" in r.stderr


def _chain_of_matmuls(widths: list[int]) -> onnx.ModelProto:
    """x [1, w0] through MatMuls w_i x w_{i+1}: op i costs exactly 2 * w_i * w_{i+1} FLOPs."""
    nodes, inits = [], []
    for i in range(len(widths) - 1):
        inits.append(onnx.numpy_helper.from_array(np.full((widths[i], widths[i + 1]), 0.01, np.float32), f"w{i}"))
        nodes.append(helper.make_node("MatMul", [f"t{i}", f"w{i}"], [f"t{i + 1}"], name=f"mm{i}"))
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("t0", 1, [1, widths[0]])],
                          [helper.make_tensor_value_info(f"t{len(widths) - 1}", 1, [1, widths[-1]])],
                          initializer=inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _best_bottleneck(costs: list[float], n: int) -> float:
    """Brute force: the smallest possible largest stage over every split into n contiguous stages."""
    from itertools import combinations

    best = float("inf")
    for cuts in combinations(range(1, len(costs)), n - 1):
        bounds = [0, *cuts, len(costs)]
        best = min(best, max(sum(costs[a:b]) for a, b in zip(bounds, bounds[1:])))
    return best


@pytest.mark.parametrize("widths,n", [
    ([16, 64, 64, 64, 64, 64, 64, 16], 3),     # even ops: the cap holds
    ([16, 32, 512, 32, 32, 32, 32, 32, 16], 3),  # two big ops around width 512
    ([8, 8, 1024, 8, 8, 8], 4),                # one op far above the cap
    ([32] * 12, 5),                            # equal ops, 11 of them: too coarse for 5 stages
    ([32] * 13, 4),                            # equal ops, 12 of them: exactly even
    ([16, 64, 64, 64, 64, 64, 64, 64, 16], 2),
])
def test_automatic_placement_meets_its_balance_or_says_why(widths: list[int], n: int) -> None:
    from bb_edge.compiler.compile import PlacementWarning
    from bb_edge.compiler.placement import BALANCE_CAP

    costs = [2.0 * a * b for a, b in zip(widths, widths[1:])]  # independent of bb-edge's cost model
    total = sum(costs)
    with __import__("warnings").catch_warnings(record=True) as caught:
        __import__("warnings").simplefilter("always")
        dep, programs = compile_model(_chain_of_matmuls(widths), nodes=n)
    flops = [s.flops for s in dep.nodes]
    # every node's FLOPs are the hand-computed cost of the ops in its program
    for s in dep.nodes:
        mine = [int(op.name[2:]) for op in programs[s.name].graph.node if op.op_type == "MatMul"]
        assert s.flops == sum(costs[i] for i in mine)
    cap = (1 + BALANCE_CAP) * total / n
    best = _best_bottleneck(costs, n)
    warned = [w for w in caught if issubclass(w.category, PlacementWarning)]
    if best <= cap:
        assert max(flops) <= cap + 1e-6 and not warned and not dep.extra["placement"]["warnings"]
    else:
        assert max(flops) == pytest.approx(best)  # as balanced as contiguous stages allow
        assert len(warned) == 1 and dep.extra["placement"]["warnings"] == [str(warned[0].message)]
        if max(costs) > cap:
            assert f"op 'mm{costs.index(max(costs))}' (MatMul) alone is" in str(warned[0].message)


def test_real_model_balance_within_cap_or_explained() -> None:
    from bb_edge.compiler.placement import BALANCE_CAP

    model = load_model(light("squeezenet"))
    for n in (2, 3):
        dep, _ = compile_model(model, nodes=n)
        total = sum(s.flops for s in dep.nodes)
        within = max(s.flops for s in dep.nodes) <= (1 + BALANCE_CAP) * total / n + 1e-6
        assert within or dep.extra["placement"]["warnings"]
        assert within == (not dep.extra["placement"]["warnings"])


def test_edges_larger_than_max_payload_are_refused_with_the_fix(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from bb_edge.compiler.compile import EdgeTooLargeError

    model = _chain_of_matmuls([16, 64, 64, 16])
    dep, _ = compile_model(model, nodes=3, max_payload=256, out_dir=tmp_path)  # largest edge: 64 floats
    raw = json.loads((tmp_path / "deployment.json").read_text())
    assert all(node["limits"]["max_payload"] == 256 for node in raw["nodes"])
    assert load_deployment(tmp_path).node("n1").limits == {"max_payload": 256}
    with pytest.raises(EdgeTooLargeError, match=r"limits\.max_payload.*--max-payload") as info:
        compile_model(model, nodes=3, max_payload=255)
    assert "edge 1 't1' n0->n1: 256 bytes > 255" in str(info.value)
    assert isinstance(info.value, PlacementError)
    with pytest.raises(EdgeTooLargeError, match="input 't0'"):
        compile_model(model, nodes=3, max_payload=63)


def test_tensors_the_wire_cannot_carry_are_never_cut() -> None:
    from bb_edge.deployment.manifest import InvalidDeploymentError

    nodes = [helper.make_node("Relu", ["x"], ["a"], name="r"),
             helper.make_node("Cast", ["a"], ["h"], to=onnx.TensorProto.BFLOAT16, name="c"),
             helper.make_node("Cast", ["h"], ["y0"], to=onnx.TensorProto.FLOAT, name="d"),
             helper.make_node("Neg", ["y0"], ["y"], name="n")]
    g = helper.make_graph(nodes, "bf", [helper.make_tensor_value_info("x", 1, [1, 4])],
                          [helper.make_tensor_value_info("y", 1, [1, 4])])
    model = load_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))
    dep, programs = compile_model(model, nodes=3)
    assert "h" not in {e.tensor for e in dep.edges}  # the bfloat16 tensor stays on one node
    x = np.array([[1, -2, 3, 4]], np.float32)
    assert np.array_equal(InProcFleet(dep, programs).infer({"x": x})["y"], monolithic(model, {"x": x})["y"])
    with pytest.raises(InvalidDeploymentError, match="bfloat16.*the wire carries"):
        compile_model(model, place={"c": "p", "*": "q"})
