"""``bb-edge compile --state OUTPUT=INPUT``: state pairs stay on one node, off the host's inputs and outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from bb_edge.compiler import compile_model
from bb_edge.compiler.state import StatePairError, StateSplitError
from bb_edge.deployment.manifest import load_deployment, validate_manifest
from bb_edge.errors import FitError, NoFeasiblePlacementError
from tests.support.stateful_models import GRU2_STATE, RNN2_STATE, gru2, rnn2, window

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


@pytest.mark.parametrize("model,pairs", [(rnn2, RNN2_STATE), (gru2, GRU2_STATE)])
def test_two_nodes_each_keep_their_layers_state_and_the_host_sees_neither_end(model, pairs, tmp_path: Path) -> None:
    dep, programs = compile_model(model(), nodes=2, state=pairs, out_dir=tmp_path)
    assert dep.extra["state"] == {"n0": [{"output": pairs[0][0], "input": pairs[0][1], "bytes": dep.extra["state"]
                                          ["n0"][0]["bytes"]}],
                                  "n1": [{"output": pairs[1][0], "input": pairs[1][1], "bytes": dep.extra["state"]
                                          ["n1"][0]["bytes"]}]}
    assert [i.name for i in dep.inputs] == ["x"] and [o.name for o in dep.outputs] == ["y"]
    for node, (out, inp) in zip(("n0", "n1"), pairs, strict=True):
        g = programs[node].graph  # the engine takes the pair as the program's own graph input and output
        assert inp in {i.name for i in g.input} and out in {o.name for o in g.output}
        assert not any(e.tensor == inp for e in dep.edges)
    loaded = load_deployment(tmp_path)
    assert loaded.state_pairs("n0") == [pairs[0]] and loaded.state_pairs("n1") == [pairs[1]] and loaded.stateful


def test_auto_placement_never_cuts_between_a_pair() -> None:
    # rnn2's 9 ops: a cut may not fall inside l1_uh..l1_tanh (h1 -> h1_next) nor l2_uh..l2_tanh (h2 -> h2_next)
    dep, programs = compile_model(rnn2(), nodes=4, state=RNN2_STATE)
    ops = {n: [op.name for op in programs[n].graph.node if op.domain != "bb.wire"] for n in dep.node_names}
    assert ops == {"n0": ["l1_wx"], "n1": ["l1_uh", "l1_add", "l1_tanh"], "n2": ["l2_wx"],
                   "n3": ["l2_uh", "l2_add", "l2_tanh", "head"]}
    assert dep.extra["state"].keys() == {"n1", "n3"}
    with pytest.raises(NoFeasiblePlacementError, match="only 4 places to cut"):
        compile_model(rnn2(), nodes=6, state=RNN2_STATE)


def test_a_pair_split_by_a_cut_is_refused() -> None:
    with pytest.raises(StateSplitError, match="h1_next=h1 is split across nodes.*'l1_uh' on 'n0'"):
        compile_model(rnn2(), cuts=["a1"], state=RNN2_STATE)


@pytest.mark.parametrize("pair,message", [
    (("h1_next", "nope"), "'nope' is not a graph input"),
    (("nope", "h1"), "'nope' is not a tensor the model computes"),
    (("x", "h1"), "'x' is a graph input, not an op's output"),
    (("h2_next", "h1"), r"'h2_next' has shape \[1, 4\] but 'h1' takes \[1, 5\] \(dim 1 differs\)"),
    (("a1", "h2"), r"'a1' has shape \[1, 5\] but 'h2' takes \[1, 4\]"),
])
def test_bad_pairs_are_one_typed_error(pair: tuple[str, str], message: str) -> None:
    with pytest.raises(StatePairError, match=message):
        compile_model(rnn2(), nodes=1, state=[pair])


def test_a_dtype_mismatch_is_refused() -> None:
    m = rnn2()
    m.graph.node.append(helper.make_node("Cast", ["h1_next"], ["h1_int"], to=TensorProto.INT32, name="cast"))
    with pytest.raises(StatePairError, match="'h1_int' is int32 but 'h1' takes float32"):
        compile_model(m, nodes=1, state=[("h1_int", "h1")])


def test_cli_bad_state_is_one_line_and_non_zero(tmp_path: Path) -> None:
    onnx.save(rnn2(), tmp_path / "m.onnx")
    for args, word, code in ((["--state", "h1_next"], "OUTPUT=INPUT", 2),
                             (["--state", "h1_next=zz"], "StatePairError", 1),
                             (["--cut", "a1", "--state", "h1_next=h1"], "StateSplitError", 1)):
        res = cli("compile", str(tmp_path / "m.onnx"), *args, "-o", str(tmp_path / "o"))
        assert res.returncode == code and word in res.stderr, res.stderr
        assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_budget_from_profile_option_and_context(tmp_path: Path) -> None:
    dep, _ = compile_model(rnn2(), nodes=2, state=RNN2_STATE, targets=["linux-vm-x86_64"])
    assert {n.name: n.limits["state_budget"] for n in dep.nodes} == {"n0": 2**31 // 4, "n1": 2**31 // 4}
    dep, _ = compile_model(rnn2(), nodes=2, state=RNN2_STATE, state_budget_bytes=4096)
    assert {n.limits["state_budget"] for n in dep.nodes} == {4096}
    # a growing state (a dynamic dim) counts bytes per step x context, and is refused past the budget
    dep, _ = compile_model(window(), nodes=1, state=[("w_next", "w")], context=100, out_dir=tmp_path / "w")
    assert dep.extra["state"]["n0"] == [{"output": "w_next", "input": "w", "bytes": 1600, "bytes_per_step": 16}]
    assert dep.extra["context"] == 100 and "dynamic_inputs" not in dep.extra  # w is no host input
    with pytest.raises(FitError, match="keeps 16000 bytes of state per session at context 1000 but its state "
                                       "budget .* is 8000 bytes: over by 8000"):
        compile_model(window(), nodes=1, state=[("w_next", "w")], context=1000, state_budget_bytes=8000)
    res = cli("inspect", str(tmp_path / "w"), "--context", "1000")
    assert res.returncode == 0 and "15.6 KiB" in res.stdout and "w_next->w" in res.stdout, res.stdout


def test_weights_plus_state_over_a_profiles_ram_is_refused_with_the_bytes(tmp_path: Path) -> None:
    prof = json.loads((ROOT / "bb_edge/target_profiles/linux-vm-x86_64.json").read_text())
    prof.update(name="tiny-linux", ram_bytes=4096, state_budget_bytes=1 << 20)
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(prof))
    with pytest.raises(FitError, match=r"needs 8 bytes of weights \+ 16000 bytes of state at context 1000 = "
                                       r"16008 bytes but target 'tiny-linux' has 4096"):
        compile_model(window(), nodes=1, state=[("w_next", "w")], context=1000, targets=[str(path)])


def test_manifest_state_cross_references(tmp_path: Path) -> None:
    dep, _ = compile_model(rnn2(), nodes=2, state=RNN2_STATE)
    raw = dep.to_json()
    assert validate_manifest(raw) == []
    bad = json.loads(json.dumps(raw))
    bad["state"]["ghost"] = [{"output": "a", "input": "b"}]
    bad["state"]["n1"].append({"output": "h1_next", "input": "x"})
    bad["state"]["n0"].append({"output": "y", "input": "h9", "extra": 1})
    problems = validate_manifest(bad)
    assert any("unknown node 'ghost'" in p for p in problems)
    assert any("state output 'h1_next' is in two pairs" in p for p in problems)
    assert any("state input 'x' of 'n1' is also a graph input" in p for p in problems)
    assert any("'extra'" in p and "not allowed" in p for p in problems)
