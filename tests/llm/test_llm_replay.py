"""Rebuild by replay (issue 39, way (a)): the stage before a standby's stage keeps each session's inputs to it.

Same harness as tests/llm/test_llm_failover.py (tiny random-weight decoder, one ``bb-edge node`` process per
node on a real Mosquitto, four greedy sessions at once), compiled with ``--rebuild replay`` and standbys
for the first and the middle stage: the middle stage is SIGKILLed at a random token (n1b rebuilds every
session from n0's kept hidden states in one prefill), then the first (n0b rebuilds them from the token ids
the owner kept); the tokens must equal the unsplit ONNX Runtime decoder's. No state delta crosses the wire
at any time (node status counters). A session whose kept inputs passed their bound ends with a typed
SessionEnded, never a wrong token.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.fleet.generation import InprocStepper
from bb_edge.adapters.fleet.hostloop import StateFileError, restore_node_state
from bb_edge.adapters.fleet.mqtt_fleet import stop_process
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.deployment.manifest import load_deployment
from bb_edge.engine import events as ev
from bb_edge.engine.engine import Engine, Limits
from bb_edge.engine.node_state import decode_node_state, encode_node_state
from bb_edge.engine.replay import ReplaySnapshotError
from bb_edge.errors import PlacementError
from bb_edge.llm.fleet import compile_gguf
from tests.support.llm_failover import (
    CONTEXT,
    PROMPTS,
    TOKENS,
    LlmFleet,
    Run,
    advance,
    check_same,
    describe,
    gens,
    kill_at,
    run_generations,
    status_counters,
)

SEED = int(os.environ.get("BB_EDGE_FAILOVER_SEED", str(random.SystemRandom().randrange(1 << 30))))





@pytest.fixture(scope="module")
def replay_dir(tiny_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 3-stage tiny decoder, n0 and n1 with standbys n0b and n1b, rebuilt by replay."""
    out = tmp_path_factory.mktemp("replay")
    compile_gguf(tiny_gguf, out, nodes=3, context=CONTEXT, standby={"n0": "n0b", "n1": "n1b"}, rebuild="replay")
    return out


def test_compile_records_the_rebuild_way(replay_dir: Path, tiny_gguf: Path, tmp_path: Path) -> None:
    dep = load_deployment(replay_dir)
    assert dep.extra["rebuild"] == "replay" and dep.standby == {"n0": ["n0b"], "n1": ["n1b"]}
    hidden = int(dep.extra["llm"]["hidden"])
    keep = dep.node("n0").limits["replay_bytes"]
    assert keep >= CONTEXT * 2 * hidden  # the context's fp16 hidden states into n1
    assert dep.extra["placement"]["nodes"]["n0"]["replay_log_bytes"] == 4 * keep  # counted in n0's budget
    with pytest.raises(PlacementError, match="--rebuild 'copy'"):
        compile_gguf(tiny_gguf, tmp_path / "bad", nodes=3, context=CONTEXT, standby={"n1": "n1b"}, rebuild="copy")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "compile", str(tiny_gguf), "--nodes", "3", "--context",
                        str(CONTEXT), "--standby", "n2=n2b", "--rebuild", "replay", "-o", str(tmp_path / "cli")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "cli" / "deployment.json").read_text())["rebuild"] == "replay"
    assert "rebuilt by replay" in r.stdout


def test_in_process_the_standby_rebuilds_the_primarys_cache_bit_for_bit(
        tiny_gguf: Path, kill_reference: dict[int, list[int]], tmp_path: Path) -> None:
    """n1 (an engine of an in-process fleet) goes silent after 10 tokens of each session: n1b's caches after
    the replay must equal n1's, every tensor bit for bit, and the generations finish with the reference's
    tokens. Two stages, so that n1 runs two layers: a replay that recomputed the decoded tokens' rows in one
    prefill gives the second layer's cache other bits (checked: this test then fails)."""
    compile_gguf(tiny_gguf, tmp_path, nodes=2, context=CONTEXT, standby={"n1": "n1b"}, rebuild="replay")
    with InProcFleet(load_deployment(tmp_path)) as fleet:
        stepper, gs = InprocStepper(fleet), gens()

        for s in gs:
            advance(stepper, gs, s, 10)
        held = {live.key: {k: v.copy() for k, v in live.state.items()} for live in fleet.engines["n1"].sessions}
        assert len(held) == len(gs)
        fleet.engines.pop("n1")  # silent from now on: what is sent to it is lost
        fleet.engines["n0"].push_event(ev.PeerDown("n1", "test"))
        standby, polled = fleet.engines["n1b"], []
        poll = standby.poll

        def recording_poll(now: float) -> list[Any]:
            out = poll(now)
            polled.append((standby.counters.get("replays_in", 0), standby.counters.get("requests_completed", 0)))
            return out

        standby.poll = recording_poll  # type: ignore[method-assign]
        while fleet.step() or fleet.advance():
            pass
        # each session resumes as soon as its own state is rebuilt: the poll that completes the first rebuilt
        # session's step returns before the other sessions' replays ran (before: all of them in one poll)
        first_out = next(replays for replays, done in polled if done)
        assert first_out == 1 and standby.counters["replay_yields"] == len(gs) - 1, polled
        for key, state in held.items():
            live = standby.sessions.get(key)
            assert live is not None and live.next_step == 10, f"session {key} not rebuilt on n1b"
            assert state.keys() == live.state.keys()
            for name, value in state.items():
                np.testing.assert_array_equal(live.state[name], value, err_msg=f"session {key} {name}")
        assert standby.counters["replays_in"] == len(gs) and fleet.engines["n0"].counters["replays_out"] == len(gs)
        for s in gs:
            advance(stepper, gs, s, TOKENS - 10)
    assert {s: g.tokens for s, g in gs.items()} == kill_reference


def test_the_stage_before_restarted_from_its_state_still_replays_with_the_same_tokens(
        tiny_gguf: Path, kill_reference: dict[int, list[int]], tmp_path: Path) -> None:
    """n0 (the stage before n1, which has the standby n1b) is stopped after 10 tokens of each session and
    restarted from its node state (the ``--state`` codec: encode, decode, restore into a new engine); 5
    tokens later n1 goes silent. n1b rebuilds every session from the hidden states n0 kept *before and
    after* its restart: the tokens equal the reference's. With the replay log left out of the snapshot
    the restarted n0 keeps its inputs from step 10 only and ends every session at the failover (checked:
    this test then fails)."""
    compile_gguf(tiny_gguf, tmp_path, nodes=2, context=CONTEXT, standby={"n1": "n1b"}, rebuild="replay")
    dep = load_deployment(tmp_path)
    with InProcFleet(dep) as fleet:
        stepper, gs = InprocStepper(fleet), gens()

        for s in gs:
            advance(stepper, gs, s, 10)
        old = fleet.engines["n0"]
        kept = old.replay_log.nbytes
        assert kept > 0 and len(old.replay_log.sessions("n1")) == len(gs)
        state = decode_node_state(encode_node_state(old, clean=True, deployment=dep.name))
        new = Engine.for_node(dep, "n0", backend="ort")
        restore_node_state(state, new, deployment=dep.name)
        assert new.replay_log.nbytes == kept  # restored whole, within the bound
        fleet.engines["n0"] = new
        for s in gs:
            advance(stepper, gs, s, 5)
        fleet.engines.pop("n1")  # silent from now on: what is sent to it is lost
        new.push_event(ev.PeerDown("n1", "test"))
        while fleet.step() or fleet.advance():
            pass
        assert new.counters.get("replays_impossible", 0) == 0, [e for _, e in fleet.events
                                                                 if isinstance(e, ev.SessionEnded)]
        assert fleet.engines["n1b"].counters["replays_in"] == len(gs)
        for s in gs:
            advance(stepper, gs, s, TOKENS - 15)
    assert {s: g.tokens for s, g in gs.items()} == kill_reference


def test_over_processes_the_stage_before_restarted_from_its_state_file_then_the_stage_killed_same_tokens(
        tiny_gguf: Path, kill_reference: dict[int, list[int]], tmp_path: Path) -> None:
    """``bb-edge node`` processes, standby n1b for n1 only: n0 is stopped (SIGTERM: its clean --state file)
    and restarted from that file mid-generation, then n1 is SIGKILLed; n1b rebuilds every session from what
    n0 kept before and after its restart, and every token equals the reference's (with the replay log left
    out of the snapshot, n0 ends every session at the failover: checked)."""
    compile_gguf(tiny_gguf, tmp_path / "dep", nodes=3, context=CONTEXT, standby={"n1": "n1b"}, rebuild="replay")
    rng = random.Random(SEED + 41)
    total = len(PROMPTS) * TOKENS
    restart = rng.randrange(8, total // 2)
    kill = rng.randrange(restart + 8, total - 12)
    what = (f"replay: stop n0 and restart it from --state after token {restart}, kill -9 n1 (standby n1b) after "
            f"token {kill} (BB_EDGE_FAILOVER_SEED={SEED})")
    with LlmFleet(tmp_path / "dep", tmp_path / "run") as fleet:
        kill_n1 = kill_at(fleet, "n1", kill)

        def hook(run: Run, event: object) -> None:
            if len(run.events) == restart:
                stop_process(fleet.nodes["n0"].proc)  # clean: the node writes its --state file as it stops
                fleet.spawn("n0")
                fleet.wait_up(["n0"], 120)  # blocks the generation: the restart happens between two tokens
            kill_n1(run, event)  # type: ignore[arg-type]

        run = run_generations(fleet, gens(), hook, timeout=120)
        check_same(run, kill_reference, fleet, what)
        counters = status_counters(fleet, 2.5)
    assert "restored" in fleet.log("n0"), fleet.log("n0")[-2000:]
    assert counters["n1b"]["replays_in"] > 0 and counters["n0"]["replay_bytes_out"] > 0, counters


def test_a_corrupt_or_oversize_replay_log_in_a_snapshot_is_a_typed_error_nothing_restored(
        tiny_gguf: Path, tmp_path: Path) -> None:
    compile_gguf(tiny_gguf, tmp_path, nodes=2, context=CONTEXT, standby={"n1": "n1b"}, rebuild="replay")
    dep = load_deployment(tmp_path)
    with InProcFleet(dep) as fleet:
        stepper, gs = InprocStepper(fleet), gens()
        for s in gs:
            for _ in range(3):
                gs[s].accept(stepper.wait(stepper.submit(gs[s].next_step(), s, gs[s].step), 60))
        blob = fleet.engines["n0"].snapshot()
    off = len(blob.split(b"\n", 1)[0]) + 1
    (n,) = np.frombuffer(blob[off: off + 4], dtype="<u4")
    meta = json.loads(blob[off + 4: off + 4 + int(n)])
    assert len(meta["replay_log"]) == len(gs)

    def with_log(log: object) -> bytes:
        head = json.dumps({**meta, "replay_log": log}, sort_keys=True).encode()
        return blob[:off] + np.uint32(len(head)).tobytes() + head + blob[off + 4 + int(n):]

    first = meta["replay_log"][0]
    bad = {
        "not a list": {"x": 1},
        "unknown stage": [{**first, "stage": "n9"}],
        "session logged twice": [first, first],
        "steps out of order": [{**first, "steps": first["steps"][::-1]}],
        "tensor index out of range": [{**first, "steps": [[0, 1, {"1": 10 ** 6}]]}],
        "negative owner": [{**first, "owner": -1}],
    }
    for why, log in bad.items():
        eng = Engine.for_node(dep, "n0", backend="ort")
        seq = eng.seq
        with pytest.raises(ReplaySnapshotError):
            eng.restore(with_log(log))
        assert eng.seq == seq and eng.replay_log.nbytes == 0 and not list(eng.sessions), why
    # the bound: a node whose replay_bytes is now below what a session kept refuses the snapshot
    small = Engine.for_node(dep, "n0", backend="ort",
                            limits=dataclasses.replace(Limits.from_manifest(dep.limits_for("n0")), replay_bytes=16))
    with pytest.raises(ReplaySnapshotError, match="replay bound"):
        small.restore(blob)
    assert not list(small.sessions)
    # through the node state codec it is the state file's typed error
    eng = Engine.for_node(dep, "n0", backend="ort")
    state = decode_node_state(encode_node_state(fleet.engines["n0"], clean=True, deployment=dep.name))
    state.engine = with_log([{**first, "stage": "n9"}])
    with pytest.raises(StateFileError, match="ReplaySnapshotError"):
        restore_node_state(state, eng, deployment=dep.name)


def test_kill_the_middle_then_the_first_stage_replay_rebuilds_every_session_with_the_same_tokens(
        replay_dir: Path, kill_reference: dict[int, list[int]], tmp_path: Path) -> None:
    rng = random.Random(SEED + 31)
    total = len(PROMPTS) * TOKENS
    middle = rng.randrange(8, total // 2)
    first = rng.randrange(middle + 8, total - 12)
    what = (f"replay: kill -9 n1 (standby n1b) after token {middle}, then n0 (standby n0b) after token {first} "
            f"(BB_EDGE_FAILOVER_SEED={SEED})")
    with LlmFleet(replay_dir, tmp_path) as fleet:
        kill_middle, kill_first = kill_at(fleet, "n1", middle, "middle"), kill_at(fleet, "n0", first, "first")

        def hook(run: Run, ev: object) -> None:
            kill_middle(run, ev)  # type: ignore[arg-type]
            kill_first(run, ev)  # type: ignore[arg-type]

        run = run_generations(fleet, gens(), hook)
        print(f"{what}: pauses {run.pause('middle')} s, {run.pause('first')} s")
        check_same(run, kill_reference, fleet, what)
        counters = status_counters(fleet, 2.5)
    assert not fleet.nodes["n1"].alive() and not fleet.nodes["n0"].alive()
    # no state delta ever crossed (steady state nor failover); both standbys rebuilt sessions from replays
    assert {n: c.get("state_delta_bytes_out", 0) for n, c in counters.items()} == dict.fromkeys(counters, 0), counters
    assert counters["n1b"]["replays_in"] > 0 and counters["n0b"]["replays_in"] > 0, counters


def test_a_session_whose_kept_inputs_passed_their_bound_ends_typed_never_a_wrong_token(
        replay_dir: Path, kill_reference: dict[int, list[int]], tmp_path: Path) -> None:
    small = tmp_path / "dep"
    shutil.copytree(replay_dir, small)
    manifest = json.loads((small / "deployment.json").read_text())
    n0 = next(n for n in manifest["nodes"] if n["name"] == "n0")
    n0["limits"]["replay_bytes"] = 64  # less than one token's hidden state: no session can be replayed
    (small / "deployment.json").write_text(json.dumps(manifest))
    token = random.Random(SEED + 37).randrange(8, 40)
    what = f"replay past its bound: kill -9 n1 after token {token} (BB_EDGE_FAILOVER_SEED={SEED})"
    with LlmFleet(small, tmp_path / "run") as fleet:
        run = run_generations(fleet, gens(), kill_at(fleet, "n1", token), timeout=30)
    # n0 ended each session (SessionEnded to its last step, or SessionRefused to the step that came next),
    # naming why: the typed reason reaches the owner, not a token from a state that was never rebuilt
    assert run.error is not None and "cannot rebuild it after n1 went down" in run.error \
        and "replay bound" in run.error, describe(run, fleet, what)
    for s, toks in run.tokens.items():  # every token served before the end is the right one
        assert toks == kill_reference[s][:len(toks)], f"{what}: session {s} got a wrong token"
