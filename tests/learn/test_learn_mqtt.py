"""Learning deployments on real nodes: one ``bb-edge node`` process per node over a real Mosquitto.

The oracle is the simulator (``bb_edge/adapters/learn/simulator.py``) run on the same
deployment with the same seed: the FedAvg fleet must reach the simulator's
final accuracy within one point (in practice the same model: every client
joins before round 1 and answers every round, and the aggregation order is
fixed), gossip within a looser margin (real timing changes who merges with
whom), split learning within one point.

CI setting: FedAvg in the issue's setting (20 clients, Dirichlet 0.5, 30
rounds: about 50 s on 2 cores), gossip with 4 peers x 6 periods, split with
one client x 2 epochs, DiLoCo with 3 workers, the sample-count liar with 6
clients and the faults test with 6 clients. ``BB_EDGE_LONG=1``: gossip with
8 peers x 15 periods, SplitFed (3 clients) and push-sum (4 peers).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.learn.fleet import LearningFleet, run_learning_fleet
from bb_edge.adapters.learn.node import churn_plan, load_module
from bb_edge.adapters.learn.simulator import simulate
from bb_edge.deployment.manifest import load_deployment
from bb_edge.training.setup import write_learning_deployment
from tests.support.processes import node_argvs, node_pids, starve
from tests.support.transport_helpers import wait_until

pytest_plugins = ["tests.support.broker"]  # mqtt_url: one Mosquitto per test, stopped by pid
LONG = os.environ.get("BB_EDGE_LONG") == "1"


def _digits(strategy: str, clients: int, rounds: int, **extra: Any) -> dict[str, Any]:
    return {"strategy": strategy, "clients": clients, "rounds": rounds, "seed": 5,
            "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}, **extra}


def test_fedavg_fleet_matches_simulator(tmp_path: Path, mqtt_url: str) -> None:
    """FedAvg digits, every node its own process: the simulator's accuracy within 1 point, same curve."""
    clients, rounds = 20, 30  # the setting: ~50 s on 2 cores, so CI runs it as is
    learning = _digits("fedavg", clients, rounds)
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    res = run_learning_fleet(load_deployment(d), mqtt_url, workdir=tmp_path / "work")
    sim = simulate(learning, d)
    assert len(res.records) == rounds
    assert abs(res.final_accuracy - sim.final_accuracy) <= 0.01, (res.final_accuracy, sim.final_accuracy)
    assert sim.final_accuracy > 0.5  # the run learnt something: the comparison is not between two failures
    # every round closed with the whole cohort, as in the simulator
    assert res.counts.get("RoundCompleted") == rounds
    # (a client starved of CPU for seconds may be suspected and sit out a round; the rest train every round)
    assert res.counts.get("LocalTrainingDone", 0) >= 0.9 * clients * rounds
    # the server's final model is the accuracy the summary reports (an independent evaluation)
    module = load_module(learning, d)
    assert module.setup.accuracy(res.final_models["server"]) == pytest.approx(res.final_accuracy)
    assert res.bytes_total > clients * rounds * module.setup.program.layout.size * 4  # models crossed the wire


def test_gossip_fleet_close_to_simulator(tmp_path: Path, mqtt_url: str) -> None:
    """Gossip peers as processes: real timing, so the margin is 5 points around the simulator."""
    peers, periods = (8, 15) if LONG else (4, 6)
    learning = _digits("gossip", peers, periods)
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    res = run_learning_fleet(load_deployment(d), mqtt_url, workdir=tmp_path / "work")
    sim = simulate(learning, d)
    assert len(res.records) == periods
    assert res.counts.get("ModelMerged", 0) >= peers  # models did travel between processes
    assert abs(res.final_accuracy - sim.final_accuracy) <= 0.05, (res.final_accuracy, sim.final_accuracy)
    assert res.final_accuracy > res.records[0].accuracy  # and they learnt over the periods


def test_split_fleet_matches_simulator(tmp_path: Path, mqtt_url: str) -> None:
    """Split learning, client half and server half in two processes: the simulator's accuracy within 1 point."""
    learning = _digits("split", 1, 2)
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    res = run_learning_fleet(load_deployment(d), mqtt_url, workdir=tmp_path / "work")
    sim = simulate(learning, d)
    assert abs(res.final_accuracy - sim.final_accuracy) <= 0.01, (res.final_accuracy, sim.final_accuracy)
    assert sim.final_accuracy > 0.5


def test_cli_run_processes_writes_summary_and_curves(tmp_path: Path, mqtt_url: str) -> None:
    """``bb-edge run LEARN_DIR --transport mqtt://... --processes`` writes the simulator's summary keys."""
    learning = _digits("fedavg", 3, 3)
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    out = subprocess.run([sys.executable, "-m", "bb_edge.cli", "run", str(d), "--transport", mqtt_url,
                          "--processes", "--summary", str(tmp_path / "s.json"), "--curves",
                          str(tmp_path / "c.png"), "--seed", "5"],
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr
    s = json.loads((tmp_path / "s.json").read_text())
    sim = simulate(learning, d).summary()
    assert set(sim) <= set(s)
    assert s["rounds"] == 3 and s["nodes"] == 3
    assert abs(s["final_accuracy"] - sim["final_accuracy"]) <= 0.01
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the simulator's byte breakdown, counted by the node processes: the server sent the models and
    # received the updates (as in-process, give or take HELLOs and heartbeats of real links)
    assert s["server"] == "server" and set(sim["bytes_by_type"]) - {"JOIN"} <= set(s["bytes_by_type"])
    for k in ("MODEL", "UPDATE"):
        assert s["bytes_by_type"][k] == sim["bytes_by_type"][k], (k, s["bytes_by_type"], sim["bytes_by_type"])
    assert s["server_bytes_sent"] >= sim["server_bytes_sent"]
    assert s["server_bytes_received"] >= s["bytes_by_type"]["UPDATE"]
    # per-round timing from the server's round records, not wall time over rounds
    assert len(s["round_seconds"]) == 3
    assert s["seconds_per_round"] == pytest.approx(sum(s["round_seconds"]) / 3, abs=1e-3)
    assert s["seconds_per_round"] * 3 < s["wall_time_s"]


def _round_lines(fleet: LearningFleet, name: str) -> list[dict[str, Any]]:
    return [r for r in fleet.records(name) if r["kind"] == "round"]


def _events(fleet: LearningFleet, name: str, kind: str) -> list[str]:
    return [ln for ln in fleet.log_file(name).read_text(errors="replace").splitlines()
            if ln.startswith(f"event {kind} ")]


def test_killed_clients_and_server_restart(tmp_path: Path, mqtt_url: str) -> None:
    """3 clients SIGKILLed mid-round: the round closes at its deadline; restarted, they rejoin.
    The server SIGTERMed and restarted with ``--state``: it resumes at the round it had reached."""
    clients, rounds = 6, 100000  # rounds take tens of ms: the fleet is stopped long before the last
    learning = _digits("fedavg", clients, rounds, round_timeout=3.0, min_clients=2, heartbeat=0.5,
                       start_after=120.0)
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    dep = load_deployment(d)
    fleet = LearningFleet(dep, mqtt_url, {}, tmp_path / "work")
    state = tmp_path / "server.state"
    fleet.extra["server"] = ["--state", str(state), "--state-interval", "0.5"]
    names = [f"c{i}" for i in range(clients)]
    try:
        fleet.spawn("server")
        fleet.wait_up(["server"], 120)
        for n in names:
            fleet.spawn(n)
        fleet.wait_up(names, 120)
        fleet.go()
        wait_until(lambda: len(_round_lines(fleet, "server")) >= 2, 120, "two rounds")
        victims = names[:3]
        for n in victims:  # mid-run, with no warning: the next rounds' cohorts still list them
            fleet.stop(n, signal.SIGKILL)
        short = [ln for ln in _events(fleet, "server", "RoundCompleted")]

        def partial_rounds() -> list[str]:
            return [ln for ln in _events(fleet, "server", "RoundCompleted")
                    if f"cohort={clients} partial=True" in ln and ln not in short]

        wait_until(lambda: bool(partial_rounds()), 30, "a round closed without the killed clients")
        k = int(partial_rounds()[0].split("round=")[1].split()[0])
        start = next(ln for ln in _events(fleet, "server", "RoundStarted") if f" round={k} " in ln)
        deadline = float(start.split("deadline=")[1].split()[0])
        wait_until(lambda: any(r["round"] >= k for r in _round_lines(fleet, "server")), 10, "the round record")
        closed = next(r for r in _round_lines(fleet, "server") if r["round"] >= k)
        assert closed["now"] >= deadline - 0.05  # it waited for the deadline, then aggregated what it had
        accepted = int(partial_rounds()[0].split("accepted=")[1].split()[0])
        assert clients - 3 <= accepted < clients  # (a victim may have answered this round before it died)
        for n in victims:  # restarted: a fresh process JOINs again and gets the current model
            fleet.spawn(n)
        joined_before = len(_events(fleet, "server", "PeerJoined"))
        wait_until(lambda: len(_events(fleet, "server", "PeerJoined")) >= joined_before + 3, 60, "the rejoin")
        wait_until(lambda: any("partial=False" in ln for ln in _events(fleet, "server", "RoundCompleted")[-2:]), 60,
                   "a full round after the rejoin")
        trained = sum(len(_events(fleet, n, "LocalTrainingDone")) for n in victims)
        assert trained >= 3  # the restarted clients trained in the rounds after they rejoined
        # the server's own restart: SIGTERM (clean snapshot), then the same command again
        before = _round_lines(fleet, "server")[-1]["round"]
        assert fleet.stop("server") == 0
        assert state.exists()
        fleet.spawn("server")
        fleet.wait_up(["server"], 120)
        assert "restored" in fleet.log_file("server").read_text()
        wait_until(lambda: len(_round_lines(fleet, "server")) > 0 and
                   _round_lines(fleet, "server")[-1]["round"] > before, 60, "a round after the server restart")
        new_rounds = [r["round"] for r in _round_lines(fleet, "server")]
        # the progress log carries the first run's lines too: after the restart the server continued
        # from the round it had reached instead of starting again at 1
        restart_at = max(i for i, r in enumerate(new_rounds) if r == before)
        assert all(r >= before for r in new_rounds[restart_at:])
        assert not any("round=1 " in ln for ln in _events(fleet, "server", "RoundStarted")[-3:])
    finally:
        fleet.stop_all()
    acc = _round_lines(fleet, "server")[-1]["accuracy"]
    assert acc is not None and np.isfinite(acc)


def test_sharded_client_node_reads_only_its_shard(tmp_path: Path) -> None:
    """A real client node of a sharded data set loads its own shard file; the others need not exist."""
    from bb_edge.adapters.learn.node import LearningNode
    from bb_edge.learn.data import Subset, write_client_shards

    rng = np.random.default_rng(0)
    parts = [Subset(rng.normal(size=(n, 64)).astype(np.float32), rng.integers(0, 10, n), np.arange(n))
             for n in (7, 11, 13)]
    d = tmp_path / "dep"
    write_learning_deployment(d, {"strategy": "fedavg", "clients": 3, "rounds": 1, "sample_cap": 100,
                                  "data": {"shards": "shards/client{client}.npz", "test": "test.npz"}})
    write_client_shards(parts, d)
    np.savez(d / "test.npz", x=parts[0].x, y=parts[0].y)
    for i in (0, 2):  # this machine holds client 1's shard only
        (d / "shards" / f"client{i}.npz").unlink()
    node = LearningNode.load(load_deployment(d), "c1")
    x, y = node.engine.bindings["data"].arrays()
    np.testing.assert_array_equal(x, parts[1].x)
    np.testing.assert_array_equal(y, parts[1].y)


def test_sample_count_liar_contained_over_mqtt(tmp_path: Path, mqtt_url: str) -> None:
    """A client process that claims 10^9 samples (and sends its negated update) is clamped by the server
    process to its partition size: the fleet learns as the simulator does. Control (simulator): without
    the clamp the liar dominates the weighted mean."""
    learning = _digits("fedavg", 6, 8, attack={"type": "attack.sample_count_lie", "malicious": 1,
                                                "samples": 10**9})
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    fleet_dir = tmp_path / "work"
    res = run_learning_fleet(load_deployment(d), mqtt_url, workdir=fleet_dir)
    sim = simulate(learning, d)
    server_log = (fleet_dir / "server.log").read_text()
    clamped = [ln for ln in server_log.splitlines() if ln.startswith("event SampleCountClamped ")]
    assert len(clamped) == 1 and "claimed=1000000000" in clamped[0], clamped
    assert abs(res.final_accuracy - sim.final_accuracy) <= 0.01, (res.final_accuracy, sim.final_accuracy)
    assert res.final_accuracy > 0.5
    control = simulate({**learning, "sample_cap": 10**9}, d)
    assert control.final_accuracy < res.final_accuracy - 0.3, (control.final_accuracy, res.final_accuracy)


# SplitFed joins the long setting only (collected, not skipped, with BB_EDGE_LONG=1): on a loaded 2-core
# machine its 0.01 margin was missed once in four runs; plain split learning runs in CI above.
@pytest.mark.parametrize("strategy,nodes,rounds,margin", [
    ("diloco", 3, 3, 0.01),
    ("pushsum", 4, 5, 0.05),
    *([("splitfed", 3, 2, 0.01)] if LONG else []),
])
def test_other_roles_close_to_simulator(tmp_path: Path, mqtt_url: str, strategy: str, nodes: int, rounds: int,
                                        margin: float) -> None:
    """DiLoCo workers and push-sum peers (and SplitFed halves, long) as processes match the simulator."""
    learning = _digits(strategy, nodes, rounds)
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    res = run_learning_fleet(load_deployment(d), mqtt_url, workdir=tmp_path / "work")
    sim = simulate(learning, d)
    assert len(res.records) == rounds
    assert abs(res.final_accuracy - sim.final_accuracy) <= margin, (res.final_accuracy, sim.final_accuracy)


def test_learning_node_bad_input_is_one_line(tmp_path: Path) -> None:
    """A wrong node name, a non-object --learning (usage: 2) and a mistyped setting: a typed one-line error."""
    d = tmp_path / "dep"
    write_learning_deployment(d, _digits("fedavg", 2, 1))
    cases = [(["--node", "nope"], "DeploymentError: no node 'nope'", 1),
             (["--node", "c0", "--learning", "[1]"], "UsageError: --learning must be a JSON object", 2),
             (["--node", "server", "--learning", '{"rounds": "x"}'], "DeploymentError: learning deployment", 1)]
    for extra, want, status in cases:
        out = subprocess.run([sys.executable, "-m", "bb_edge.cli", "node", str(d), "--transport",
                              "mqtt://127.0.0.1:1", "--connect-timeout", "1", *extra],
                             capture_output=True, text=True, timeout=120)
        text = out.stdout + out.stderr
        assert out.returncode == status and want in text and "Traceback" not in text, text


def test_churn_late_joiner_fetches_the_model(tmp_path: Path, mqtt_url: str) -> None:
    """The simulator's churn plan on processes: a late joiner is released at its round and fetches the
    current model (ModelFetched), a leaver is stopped after its round, the run completes.

    The late joiner is starved of CPU (SIGSTOP) from the fleet's start until 1.5 s after the server finished,
    so it is released while stopped and JOINs after the last round: the run is not over before it fetched
    (bb_edge/adapters/learn/fleet.py waits for its ``fetched`` record), so the fetch is counted however slow the
    joiner is."""
    learning = _digits("fedavg", 4, 6, churn={"late_join": 0.25, "join_round": 2, "leave": 0.25, "at_round": 4})
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    work = tmp_path / "work"
    (late,) = churn_plan(load_module(learning, d)).late
    server_progress = work / "server.progress.jsonl"
    cancel = threading.Event()

    def started() -> bool:  # the fleet's common start: the late joiner waits for its own release now
        return (work / "start").exists()

    starver = threading.Thread(target=starve, args=(d, work, late, started, cancel), daemon=True)
    starver.start()
    try:
        res = run_learning_fleet(load_deployment(d), mqtt_url, workdir=work)
    finally:
        cancel.set()
        starver.join(10)
    assert '"finished": true' in server_progress.read_text()
    sim = simulate(learning, d)
    assert (res.joined, res.departed) == (sim.joined, sim.departed) and res.joined and res.departed
    assert res.counts.get("ModelFetched") == 1  # the late joiner took the model of the round it joined at
    fetched = (tmp_path / "work" / f"{res.joined[0]}.log").read_text()
    line = fetched.split("event ModelFetched ")[1].split("\n")[0]
    # released when the runner sees round 2 close; the server does not wait for it, so a round or two
    # may have closed meanwhile (rounds take tens of ms): the model fetched is of round >= 2, never older
    assert int(line.split("round=")[1].split()[0]) >= 2, line
    assert len(res.records) == 6
    # who trained in which round depends on wall-clock timing here, so only a sanity bound against the
    # simulator (the churn-free tests above compare to 1 point)
    assert res.final_accuracy > 0.7 and abs(res.final_accuracy - sim.final_accuracy) <= 0.15


def _runner_workdir(directory: Path) -> Path:
    """The work directory of the runner whose node processes run ``directory`` (from a node's argv)."""
    for _, argv in node_argvs(directory):
        if b"--progress" in argv:
            return Path(argv[argv.index(b"--progress") + 1].decode()).parent
    raise AssertionError(f"no node process of {directory} with --progress")


def test_sigterm_to_the_runner_stops_every_node(tmp_path: Path, mqtt_url: str) -> None:
    """``bb-edge run --processes`` SIGTERMed mid-run leaves no node process behind."""
    d = tmp_path / "dep"
    write_learning_deployment(d, _digits("fedavg", 3, 100000))
    runner = subprocess.Popen([sys.executable, "-m", "bb_edge.cli", "run", str(d), "--transport", mqtt_url,
                               "--processes"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        wait_until(lambda: len(node_pids(d)) == 4, 120, "four node processes")
        # mid-run, not a guess of it: the runner's start file (in its temporary work directory, the
        # parent of each node's --progress file) says every node is connected and the rounds are on
        work = _runner_workdir(d)
        wait_until(lambda: (work / "start").exists(), 120, "the fleet's start")
        os.kill(runner.pid, signal.SIGTERM)
        runner.wait(60)
        wait_until(lambda: not node_pids(d), 30, "the node processes to exit")
    finally:
        for pid in node_pids(d):  # only if the test failed: do not leave them running
            os.kill(pid, signal.SIGKILL)
        if runner.poll() is None:
            os.kill(runner.pid, signal.SIGKILL)
            runner.wait(10)
