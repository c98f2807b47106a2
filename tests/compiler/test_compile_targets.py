"""``bb-edge compile --nodes N --target [NODE=]TARGET``: placement by each node's target profile (issue 29).

A 4-layer MLP (four 64x64 float32 Gemms, 16.6 KiB of parameters each) on ``mcu-bbrt`` profiles whose flash
leaves room for two layers, or one: the cuts follow the budgets, computed here by hand from the weights
(the oracle) and the documented estimates of bb_edge.compiler.budgets. Bad input is one typed line: a
node the placement does not have, a profile file that does not exist, a profile that cannot hold even the
runtime, and a model too big for the nodes given (FitError: over by how many bytes, try more --nodes).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.cli import main
from bb_edge.compiler.budgets import OP_RECORD_ESTIMATE, PROGRAM_OVERHEAD, RUNTIME_CODE_BYTES, RUNTIME_RAM_BYTES
from bb_edge.resources import package_data

LAYER = 64 * 64 * 4 + 64 * 4  # one Gemm's weights and bias, float32
N_LAYERS = 4


def bb(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI's entry point (bb_edge.cli.main, in this process: a subprocess would import onnx each time)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(["bb-edge", *args], code, out.getvalue(), err.getvalue())


def profile(path: Path, ram: int, flash: int) -> Path:
    """An mcu-bbrt profile (QEMU Cortex-M4) with these budgets."""
    prof = json.loads((package_data("target_profiles") / "qemu-cortex-m4.json").read_text())
    prof.update(name=path.stem, ram_bytes=ram, flash_bytes=flash)
    path.write_text(json.dumps(prof))
    return path


def flash_for(layers: int) -> int:
    """Flash that holds the runtime and ``layers`` Gemm+Relu pairs by the documented estimate, and no more."""
    return RUNTIME_CODE_BYTES + PROGRAM_OVERHEAD + layers * (LAYER + 2 * OP_RECORD_ESTIMATE) + 512


@pytest.fixture(autouse=True)
def _no_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BB_EDGE_DEBUG", raising=False)  # one line, no traceback


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    t = tmp_path_factory.mktemp("targets")
    rng = np.random.default_rng(0)
    nodes, inits, x = [], [], "x"
    for k in range(N_LAYERS):
        inits += [numpy_helper.from_array(rng.standard_normal((64, 64)).astype(np.float32), f"W{k}"),
                  numpy_helper.from_array(rng.standard_normal(64).astype(np.float32), f"B{k}")]
        nodes += [helper.make_node("Gemm", [x, f"W{k}", f"B{k}"], [f"h{k}"], name=f"fc{k}"),
                  helper.make_node("Relu", [f"h{k}"], [f"r{k}"], name=f"relu{k}")]
        x = f"r{k}"
    graph = helper.make_graph(nodes, "mlp4", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
                              [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, 64])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(t / "mlp4.onnx"))
    profile(t / "two.json", 64 * 1024, flash_for(2))
    profile(t / "one.json", 64 * 1024, flash_for(1))
    profile(t / "three.json", 64 * 1024, flash_for(3))
    profile(t / "tiny-ram.json", 4 * 1024, 1 << 20)
    return t


def layers_of(dep_dir: Path) -> dict[str, int]:
    """Gemms per node in the compiled manifest's programs."""
    dep = json.loads((dep_dir / "deployment.json").read_text())
    return {n["name"]: sum(o.op_type == "Gemm" for o in onnx.load(str(dep_dir / n["program"])).graph.node)
            for n in dep["nodes"]}


def test_cuts_follow_each_nodes_flash(ws: Path) -> None:
    r = bb("compile", str(ws / "mlp4.onnx"), "--nodes", "2", "--target", str(ws / "two.json"), "-o", str(ws / "a"))
    assert r.returncode == 0, r.stderr
    assert layers_of(ws / "a") == {"n0": 2, "n1": 2}
    dep = json.loads((ws / "a" / "deployment.json").read_text())
    assert all(n["target"] == str(ws / "two.json") for n in dep["nodes"])  # `bb-edge build` uses them
    est = dep["placement"]["nodes"]["n1"]
    ops = next(n["ops"] for n in dep["nodes"] if n["name"] == "n1")
    # the oracle: two layers' weights + records, and the runtime code, out of the profile's flash
    assert est["program_estimate"] == 2 * LAYER + PROGRAM_OVERHEAD + ops * OP_RECORD_ESTIMATE
    assert est["flash_budget"] == flash_for(2) - RUNTIME_CODE_BYTES
    assert est["ram_budget"] == 64 * 1024 - RUNTIME_RAM_BYTES
    assert "n0 on two: program ~" in r.stdout
    # n0 takes three layers, n1 only one: the cut moves to where the budgets allow
    r = bb("compile", str(ws / "mlp4.onnx"), "--nodes", "2", "--target", f"n0={ws / 'three.json'}",
           "--target", f"n1={ws / 'one.json'}", "-o", str(ws / "b"))
    assert r.returncode == 0, r.stderr
    assert layers_of(ws / "b") == {"n0": 3, "n1": 1}


def _one_line(r: subprocess.CompletedProcess[str], etype: str) -> str:
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {etype}: "), r.stderr
    return lines[0]


def test_bad_targets_are_one_typed_line(ws: Path) -> None:
    model, out = str(ws / "mlp4.onnx"), str(ws / "bad")
    line = _one_line(bb("compile", model, "--nodes", "2", "--target", f"n7={ws / 'two.json'}", "-o", out),
                     "UnknownNodeError")
    assert "'n7'" in line and "n0, n1" in line
    line = _one_line(bb("compile", model, "--nodes", "2", "--target", f"n0={ws / 'nope.json'}", "-o", out),
                     "UnknownTargetError")
    assert "nope.json" in line
    line = _one_line(bb("compile", model, "--nodes", "2", "--target", str(ws / "tiny-ram.json"), "-o", out),
                     "FitError")
    assert "cannot hold any program" in line and f"over by {RUNTIME_RAM_BYTES + 256 - 4096} bytes" in line
    # all four layers on one node: over by the two layers (and their records) the profile has no room for
    line = _one_line(bb("compile", model, "--nodes", "1", "--target", str(ws / "two.json"), "-o", out),
                     "FitError")
    assert f"over by {2 * (LAYER + 2 * OP_RECORD_ESTIMATE) - 512} bytes" in line and "--nodes 2" in line
    line = _one_line(bb("compile", model, "--cut", "r1", "--target", str(ws / "two.json"), "-o", out),
                     "PlacementError")
    assert "--nodes" in line
    line = _one_line(bb("compile", model, "--nodes", "2", "--target", str(ws / "two.json"), "--memory-limit",
                        "64KiB", "-o", out), "PlacementError")
    assert "not both" in line
    assert not (ws / "bad").exists()
