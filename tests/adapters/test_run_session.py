"""``bb-edge run DIR --session STEPS.npz``: the steps of one session through a split stateful model, in process
and over MQTT node processes (real Mosquitto), equal to one ORT session looping with the state fed back by hand;
and the bad inputs of sessions (a state whose shape changes, a session continued after close or eviction)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.commands.run import run_deployment
from bb_edge.compiler import compile_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.errors import SessionError
from tests.support.stateful_models import GRU2_STATE, RNN2_STATE, gru2, ort_loop, rnn2, window

ROOT = Path(__file__).resolve().parents[2]
MODELS = {"rnn2": (rnn2, RNN2_STATE), "gru2": (gru2, GRU2_STATE), "window": (window, [("w_next", "w")])}


def steps_for(model: onnx.ModelProto, n: int, seed: int = 0) -> np.ndarray:
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    return np.random.default_rng(seed).normal(size=(n, *shape)).astype(np.float32)


def compiled(tmp_path: Path, name: str, nodes: int) -> Path:
    make, pairs = MODELS[name]
    out = tmp_path / f"{name}{nodes}"
    compile_model(make(), nodes=nodes, state=pairs, out_dir=out)
    return out


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=180, env=env)


@pytest.mark.parametrize("name,nodes", [("rnn2", 2), ("gru2", 2), ("gru2", 1), ("window", 1)])
def test_in_process_session_equals_ort_looping_by_hand(tmp_path: Path, name: str, nodes: int) -> None:
    make, pairs = MODELS[name]
    d = compiled(tmp_path, name, nodes)
    dep = load_deployment(d)
    if nodes == 2:  # the state is on each node
        assert set(dep.extra["state"]) == {"n0", "n1"}
    xs = steps_for(make(), 7)
    got = run_deployment(dep, [{"x": x} for x in xs], session=42)
    want = ort_loop(make(), {"x": xs}, pairs, ["y"])
    for t, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_allclose(g["y"], w["y"], rtol=1e-6, atol=1e-7, err_msg=f"step {t}")
    # the same steps as independent requests would differ: the state matters
    assert not np.allclose(got[-1]["y"], ort_loop(make(), {"x": xs[-1:]}, pairs, ["y"])[0]["y"])


def test_cli_session_in_process_and_over_mqtt_processes(tmp_path: Path) -> None:
    d = compiled(tmp_path, "gru2", 2)
    xs = steps_for(gru2(), 6, seed=1)
    np.savez(tmp_path / "steps.npz", x=xs)
    want = np.stack([w["y"] for w in ort_loop(gru2(), {"x": xs}, GRU2_STATE, ["y"])])
    res = cli("run", str(d), "--session", str(tmp_path / "steps.npz"), "--outputs", str(tmp_path / "a.npz"))
    assert res.returncode == 0, res.stderr
    np.testing.assert_allclose(np.load(tmp_path / "a.npz")["y"], want, rtol=1e-6, atol=1e-7)
    files = write_broker_files(tmp_path / "broker", load_deployment(d))
    with Broker(files):
        res = cli("run", str(d), "--transport", files.url(), "--processes", "--session", str(tmp_path / "steps.npz"),
                  "--outputs", str(tmp_path / "b.npz"))
    assert res.returncode == 0, res.stderr + res.stdout
    np.testing.assert_allclose(np.load(tmp_path / "b.npz")["y"], want, rtol=1e-6, atol=1e-7)
    # a stateful deployment's steps are never run as independent requests
    res = cli("run", str(d), "--inputs", str(tmp_path / "steps.npz"))
    assert res.returncode == 2 and "--session" in res.stderr and len(res.stderr.strip().splitlines()) == 1


def reshaping() -> onnx.ModelProto:
    """``h' = slice(concat(z, z), 0:k)`` with ``z = tanh(x + h)``: ``k`` (an input) decides the state's width."""
    nodes = [helper.make_node("Add", ["x", "h"], ["s"], name="add"), helper.make_node("Tanh", ["s"], ["z"], name="t"),
             helper.make_node("Concat", ["z", "z"], ["zz"], name="cat", axis=1),
             helper.make_node("Slice", ["zz", "zero", "k", "one"], ["h_next"], name="slice"),
             helper.make_node("ReduceSum", ["h_next", "one"], ["y"], name="sum", keepdims=1)]
    g = helper.make_graph(
        nodes, "reshaping",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4]),
         helper.make_tensor_value_info("k", TensorProto.INT64, [1]),
         helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1]),
         helper.make_tensor_value_info("h_next", TensorProto.FLOAT, [1, None])],
        [helper.make_tensor("zero", TensorProto.INT64, [1], [0]),
         helper.make_tensor("one", TensorProto.INT64, [1], [1])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_a_state_whose_shape_changes_ends_the_session_with_one_typed_error(tmp_path: Path) -> None:
    compile_model(reshaping(), nodes=1, state=[("h_next", "h")], out_dir=tmp_path / "d")
    xs = steps_for(reshaping(), 4)
    ks = np.array([[4], [4], [5], [4]], np.int64)  # step 2 leaves a [1, 5] state for a [1, 4] input
    np.savez(tmp_path / "steps.npz", x=xs, k=ks)
    res = cli("run", str(tmp_path / "d"), "--session", str(tmp_path / "steps.npz"))
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert res.stderr.startswith("error: SessionError: step 3 failed: SessionRefused") and \
        "bad state: state 'h_next' has shape [1, 5]; 'h' takes [1, 4]" in res.stderr, res.stderr


def test_a_session_continued_after_close_or_eviction_is_refused(tmp_path: Path) -> None:
    dep = load_deployment(compiled(tmp_path, "rnn2", 2))
    xs = [{"x": x} for x in steps_for(rnn2(), 4)]
    with InProcFleet(dep) as fleet:
        fleet.run(xs[:2], session=5)
        fleet.close_session(5)
        with pytest.raises(SessionError, match=r"step 2 failed: SessionRefused: .*session is not open \(closed by "
                                               r"its owner\)"):
            fleet.run(xs[2:3], session=5, first_step=2)
    for spec in dep.nodes:
        spec.limits["max_sessions"] = 1  # a second session evicts the first (LRU)
    with InProcFleet(dep) as fleet:
        fleet.run(xs[:2], session=1)
        fleet.run(xs[:1], session=2)
        with pytest.raises(SessionError, match=r"step 2 failed: Session(Refused|Ended): .*evicted: the node holds at "
                                               r"most 1 sessions"):
            fleet.run(xs[2:3], session=1, first_step=2)
        # the session that stayed is whole: its next step equals ORT looping by hand
        got = fleet.run(xs[1:2], session=2, first_step=1)
    want = ort_loop(rnn2(), {"x": np.stack([x["x"] for x in xs[:2]])}, RNN2_STATE, ["y"])
    np.testing.assert_allclose(got[0]["y"], want[1]["y"], rtol=1e-6, atol=1e-7)


def test_clients_own_their_sessions_over_mqtt_node_processes(tmp_path: Path) -> None:
    """Client 2 naming client 1's session id reaches only its own (never opened) session: refused, and client 1's
    state is untouched; a step after the owner's close is refused (the close of a client, whose id no deployment
    lists, reaches the engine). Real Mosquitto, one process per node."""
    from bb_edge.adapters.fleet.client import Client, RequestFailedError
    from bb_edge.adapters.fleet.mqtt_fleet import spawn_node, stop_process

    d = compiled(tmp_path, "rnn2", 2)
    dep = load_deployment(d)
    files = write_broker_files(tmp_path / "broker", dep)
    url = files.url()
    xs = [{"x": x} for x in steps_for(rnn2(), 5, seed=2)]
    want = ort_loop(rnn2(), {"x": np.stack([x["x"] for x in xs])}, RNN2_STATE, ["y"])
    with Broker(files):
        nodes = [spawn_node(d, n, url, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for n in dep.node_names]
        try:
            with Client(d, url, client=1) as c1, Client(d, url, client=2) as c2:
                c1.wait_for_nodes(60)
                c2.wait_for_nodes(60)
                got = [c1.wait(c1.submit(xs[t], session=(5, t)), timeout=30) for t in range(2)]
                with pytest.raises(RequestFailedError, match=r"SessionRefused.*session is not open \(it was never "
                                                             r"opened here\)"):
                    c2.wait(c2.submit(xs[2], session=(5, 2)), timeout=30, retries=0)
                c2.close_session(5)  # closes client 2's own session 5 (none): client 1's stays
                got += [c1.wait(c1.submit(xs[t], session=(5, t)), timeout=30) for t in (2, 3)]
                for t, g in enumerate(got):
                    np.testing.assert_allclose(g["y"], want[t]["y"], rtol=1e-6, atol=1e-7, err_msg=f"step {t}")
                c1.close_session(5)
                with pytest.raises(RequestFailedError, match=r"SessionRefused.*session is not open \(closed by its "
                                                             r"owner\)"):
                    c1.wait(c1.submit(xs[4], session=(5, 4)), timeout=30, retries=0)
        finally:
            for p in nodes:
                stop_process(p)
