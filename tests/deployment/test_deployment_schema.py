"""deployment.json validation: JSON Schema (bb_edge/schemas) plus cross-reference checks, every problem at once."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.compiler import compile_model, load_deployment
from bb_edge.deployment.manifest import InvalidDeploymentError, manifest_schema, validate_manifest
from bb_edge.errors import DeploymentError, PlacementError


def _chain() -> onnx.ModelProto:
    """x -> Relu -> Neg -> Relu -> y, three ops to put on three nodes."""
    nodes = [helper.make_node("Relu", ["x"], ["a"], name="r0"),
             helper.make_node("Neg", ["a"], ["b"], name="n1"),
             helper.make_node("Relu", ["b"], ["y"], name="r2")]
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", 1, [1, 4])],
                          [helper.make_tensor_value_info("y", 1, [1, 4])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    d = tmp_path_factory.mktemp("dep")
    compile_model(_chain(), place={"r0": "a", "n1": "b", "r2": "c"}, out_dir=d, name="chain")
    return d, json.loads((d / "deployment.json").read_text())


def _write(tmp_path: Path, src: Path, raw: Any) -> Path:
    d = tmp_path / "dep"
    d.mkdir()
    for p in src.glob("*.onnx"):
        (d / p.name).write_bytes(p.read_bytes())
    (d / "deployment.json").write_text(json.dumps(raw))
    return d


def _problems(tmp_path: Path, compiled: tuple[Path, dict[str, Any]], edit: Any) -> list[str]:
    src, raw = compiled
    raw = copy.deepcopy(raw)
    edited = edit(raw)
    raw = raw if edited is None else edited
    d = _write(tmp_path, src, raw)
    with pytest.raises(InvalidDeploymentError) as info:
        load_deployment(d)
    assert isinstance(info.value, DeploymentError)
    return info.value.problems


def test_compiled_manifest_is_valid_loads_and_runs(compiled: tuple[Path, dict[str, Any]]) -> None:
    d, raw = compiled
    assert validate_manifest(raw, d) == []
    assert raw["nodes"][0]["limits"]["max_payload"] > 0 and raw["pipeline"] is False
    dep = load_deployment(d)
    x = np.array([[-1, 2, -3, 4]], dtype=np.float32)
    assert np.array_equal(InProcFleet(dep).infer({"x": x})["y"], np.maximum(-np.maximum(x, 0), 0))


def test_schema_file_ships_in_the_package() -> None:
    import bb_edge

    path = Path(bb_edge.__file__).parent / "deployment" / "schema.json"
    assert path.is_file() and manifest_schema()["properties"]["format"]["const"] == "bb-edge/deployment"


def _nodes_dup_name(r: dict[str, Any]) -> None:
    r["nodes"][1]["name"] = "a"


def _nodes_dup_id(r: dict[str, Any]) -> None:
    r["nodes"][2]["id"] = r["nodes"][0]["id"]


def _edge_dup_id(r: dict[str, Any]) -> None:
    r["edges"][1]["id"] = r["edges"][0]["id"]


def _edge_missing_node(r: dict[str, Any]) -> None:
    r["edges"][0]["dst"] = "ghost"


def _cycle(r: dict[str, Any]) -> None:
    r["pipeline"] = True
    r["edges"].append({**r["edges"][0], "id": 99, "tensor": "back", "src": "c", "dst": "a"})


def _bad_dtype(r: dict[str, Any]) -> None:
    r["edges"][0]["dtype"] = "float33"


def _dtype_mismatch(r: dict[str, Any]) -> None:
    r["edges"][0]["dtype"] = "int64"


def _string_shape(r: dict[str, Any]) -> None:
    r["edges"][0]["shape"] = "1,4"


def _string_dim(r: dict[str, Any]) -> None:
    r["inputs"][0]["shape"] = [1, "4"]


def _no_outputs(r: dict[str, Any]) -> None:
    r["outputs"] = []
    r["nodes"][2]["outputs"] = []


def _no_inputs(r: dict[str, Any]) -> None:
    r["inputs"] = []
    r["nodes"][0]["inputs"] = []


def _input_unknown_node(r: dict[str, Any]) -> None:
    r["inputs"][0]["node"] = "ghost"


def _traversal(r: dict[str, Any]) -> None:
    r["nodes"][0]["program"] = "../../../etc/passwd"


def _absolute(r: dict[str, Any]) -> None:
    r["nodes"][0]["program"] = "/etc/passwd"


def _self_edge(r: dict[str, Any]) -> None:
    r["edges"][0]["dst"] = r["edges"][0]["src"]


def _two_producers(r: dict[str, Any]) -> None:
    r["edges"].append({**r["edges"][0], "id": 98, "src": "c", "dst": "b"})


@pytest.mark.parametrize("edit,expected", [
    (lambda r: [], ["top level: [] should be an object"]),
    (_nodes_dup_name, ["node name 'a' is used 2 times"]),
    (_nodes_dup_id, ["node id 1 is used 2 times"]),
    (_edge_dup_id, ["edge id 1 is used 2 times"]),
    (_edge_missing_node, ["edges[0] (id 1) dst 'ghost' is not a node"]),
    (_cycle, ["pipeline deployment sends data around a cycle of nodes a -> b -> c -> a"]),
    (_bad_dtype, ["edges[0].dtype: \"float33\" should be one of"]),
    (_dtype_mismatch, ["'a' has dtype 'int64' but elem_type 1 is 'float32'"]),
    (_string_shape, ["edges[0].shape: \"1,4\" should be an array"]),
    (_string_dim, ["inputs[0].shape[1]: \"4\" should be an integer >= -1 or null"]),
    (_no_outputs, ["outputs: must not be empty"]),
    (_no_inputs, ["inputs: must not be empty"]),
    (_input_unknown_node, ["inputs[0] ('x') is on unknown node 'ghost'"]),
    (_traversal, ["nodes[0] ('a') program '../../../etc/passwd' leaves the deployment directory"]),
    (_absolute, ["nodes[0] ('a') program '/etc/passwd' is absolute"]),
    (_self_edge, ["edges[0] (id 1) goes from 'a' to itself"]),
    (_two_producers, ["tensor 'a' is sent by two nodes ('a' and 'c')"]),
], ids=["list", "dup-node-name", "dup-node-id", "dup-edge-id", "edge-to-missing-node", "pipeline-cycle",
        "bad-dtype", "dtype-mismatch", "string-shape", "string-dim", "no-outputs", "no-inputs",
        "input-unknown-node", "path-traversal", "absolute-path", "self-edge", "two-producers"])
def test_each_bad_manifest_is_one_typed_error(tmp_path: Path, compiled: tuple[Path, dict[str, Any]],
                                               edit: Any, expected: list[str]) -> None:
    problems = _problems(tmp_path, compiled, edit)
    for want in expected:
        assert any(p.startswith(want) for p in problems), (want, problems)


def test_every_problem_is_reported_in_one_error(tmp_path: Path, compiled: tuple[Path, dict[str, Any]]) -> None:
    def three(r: dict[str, Any]) -> None:
        _nodes_dup_id(r)
        _edge_missing_node(r)
        _bad_dtype(r)

    src, raw = compiled
    raw = copy.deepcopy(raw)
    three(raw)
    d = _write(tmp_path, src, raw)
    with pytest.raises(InvalidDeploymentError) as info:
        load_deployment(d)
    assert len(info.value.problems) == 3, info.value.problems
    msg = str(info.value)
    assert "has 3 problems:" in msg and msg.endswith("fix them or recompile with `bb-edge compile`")
    assert "\n" not in msg


def test_not_utf8_and_not_json_are_typed(tmp_path: Path) -> None:
    (tmp_path / "deployment.json").write_bytes(b'{"name": "\xff\xfe"}')
    with pytest.raises(InvalidDeploymentError, match="not UTF-8"):
        load_deployment(tmp_path)
    (tmp_path / "deployment.json").write_text('{"name": ')
    with pytest.raises(InvalidDeploymentError, match="not valid JSON"):
        load_deployment(tmp_path)


def test_null_dims_are_dynamic(tmp_path: Path, compiled: tuple[Path, dict[str, Any]]) -> None:
    src, raw = compiled
    raw = copy.deepcopy(raw)
    raw["inputs"][0]["shape"] = [None, 4]
    dep = load_deployment(_write(tmp_path, src, raw))
    assert dep.inputs[0].shape == [-1, 4]


def test_learning_deployment_still_loads(tmp_path: Path) -> None:
    from bb_edge.training.setup import write_learning_deployment

    write_learning_deployment(tmp_path, {"strategy": "fedavg", "clients": 2, "rounds": 1})
    dep = load_deployment(tmp_path)
    assert dep.nodes == [] and dep.extra["learning"]["strategy"] == "fedavg"


def test_duplicate_names_refused_at_compile() -> None:
    with pytest.raises(PlacementError, match="distinct"):
        compile_model(_chain(), nodes=2, node_names=["a", "a"])


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "COLUMNS": "200"})


def test_cli_prints_one_line_and_never_reads_outside_programs(tmp_path: Path,
                                                               compiled: tuple[Path, dict[str, Any]]) -> None:
    # the program points at a FIFO outside the directory: opening it for reading would block the run,
    # so a prompt refusal shows nothing was read before validation
    fifo = tmp_path / "outside.onnx"
    os.mkfifo(fifo)
    src, raw = compiled
    raw = copy.deepcopy(raw)
    raw["nodes"][0]["program"] = "../outside.onnx"
    _nodes_dup_id(raw)
    d = _write(tmp_path, src, raw)
    r = _cli("run", str(d), timeout=60)
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "has 2 problems" in lines[0] and "outside.onnx" in lines[0] and "recompile" in lines[0]


def test_cli_names_duplicate_refused(tmp_path: Path) -> None:
    model = tmp_path / "chain.onnx"
    onnx.save(_chain(), str(model))
    r = _cli("compile", str(model), "--nodes", "2", "--names", "a,a", "-o", str(tmp_path / "out"))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert not (tmp_path / "out" / "deployment.json").exists()


def test_mutated_manifests_never_raise_anything_but_the_typed_error(
        tmp_path: Path, compiled: tuple[Path, dict[str, Any]]) -> None:
    """Seeded random edits anywhere in a valid manifest: each loads, or fails as InvalidDeploymentError."""
    import random

    src, base = compiled
    values: list[Any] = [None, 0, -1, 1.5, "", "x", "../x", [], {}, [None], [1, "a"], {"a": 1}, True, 2**40,
                         "a", "b", "/abs", 1, 2, 3]

    def paths(o: Any, p: tuple[Any, ...] = ()) -> Any:
        yield p
        if isinstance(o, dict):
            for k, v in o.items():
                yield from paths(v, (*p, k))
        elif isinstance(o, list):
            for i, v in enumerate(o):
                yield from paths(v, (*p, i))

    where = list(paths(base))[1:]
    d = _write(tmp_path, src, base)
    rng = random.Random(7)
    refused = 0
    for _ in range(int(os.environ.get("BB_EDGE_MANIFEST_MUTATIONS", "400"))):
        raw = copy.deepcopy(base)
        for _ in range(rng.randint(1, 3)):
            p = rng.choice(where)
            try:
                o = raw
                for k in p[:-1]:
                    o = o[k]
                if rng.random() < 0.2 and isinstance(o, dict):
                    del o[p[-1]]
                else:
                    o[p[-1]] = rng.choice(values)
            except (KeyError, IndexError, TypeError):
                pass  # an earlier edit removed this path
        (d / "deployment.json").write_text(json.dumps(raw))
        try:
            json.dumps(load_deployment(d).to_json())
        except InvalidDeploymentError as exc:
            refused += 1
            assert "\n" not in str(exc) and exc.problems
    assert refused > 300
