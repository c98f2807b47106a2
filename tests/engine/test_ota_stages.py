"""Staged rollouts gated on model health (``bb-edge deploy --stages``; engine/ota/node.py SHADOW/CANARY).

A live 3-node fleet over Mosquitto serves a running host's continuous traffic. A deliberately drifting update
(every weight x1.25) staged as ``n2,100%`` is judged on n2's shadow runs and aborted; the fleet keeps the old
program (every output equals ORT on the old model). A good one (x1.001) passes its canary stage and the fleet
switches. Oracles: ONNX Runtime on the whole old and new models; the deployer's exit status and lines.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.ops.ota_deploy import parse_stages
from bb_edge.compiler import compile_model
from bb_edge.engine import ota
from tests.engine.test_ota import FLEET_TIMEOUT, _inputs, _scaled, small_cnn
from tests.support.models import monolithic


def test_parse_stages() -> None:
    nodes = ["n2", "n0", "n1"]
    assert parse_stages("10%,50%,100%", nodes) == [["n0"], ["n0", "n1"], ["n0", "n1", "n2"]]
    assert parse_stages("n2,n1+n2,100%", nodes) == [["n2"], ["n1", "n2"], ["n0", "n1", "n2"]]
    for bad, code in (("n2,n1", ota.BAD_MESSAGE), ("n7,100%", ota.UNKNOWN_NODE), ("x%,100%", ota.BAD_MESSAGE),
                      ("0%,100%", ota.BAD_MESSAGE)):
        with pytest.raises(ota.OtaError) as exc:
            parse_stages(bad, nodes)
        assert exc.value.code == code, bad


def test_canary_limits_judge_each_figure() -> None:
    lim = ota.CanaryLimits(max_drift=0.05, max_latency_ratio=2.0, min_requests=2)
    ok = ota.CanaryStats(1, requests=5, max_drift=0.01, p95_old_ms=1.0, p95_new_ms=1.5)
    assert lim.problem(ok) is None
    for bad, word in ((ota.CanaryStats(1, requests=1), "mirrored requests"),
                      (ota.CanaryStats(1, requests=5, nonfinite=1), "not finite"),
                      (ota.CanaryStats(1, requests=5, errors=1), "error rate"),
                      (ota.CanaryStats(1, requests=5, max_drift=0.2), "drift"),
                      (ota.CanaryStats(1, requests=5, p95_old_ms=1.0, p95_new_ms=3.0), "latency")):
        assert word in (lim.problem(bad) or ""), bad
    back = ota.CanaryStats.decode(ok.encode())
    assert (back.requests, back.p95_old_ms, back.p95_new_ms) == (5, 1.0, 1.5) and abs(back.max_drift - 0.01) < 1e-6


def test_staged_rollout_aborts_a_drifting_canary_and_completes_a_good_one(tmp_path: Path) -> None:
    from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.deployment.manifest import load_deployment

    old = small_cnn()
    model = {"old": old, "drift": _scaled(old, 1.25), "good": _scaled(old, 1.001)}
    dirs = {k: tmp_path / k for k in model}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, m in model.items():
            compile_model(m, nodes=3, out_dir=dirs[k])
    cli = [sys.executable, "-m", "bb_edge.cli"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    out = subprocess.run([*cli, "keygen", "-o", str(tmp_path / "keys"), "--deployment", str(dirs["old"])],
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    for k in ("drift", "good"):
        shutil.copy(dirs["old"] / "deployment.json", dirs[k] / "deployment.json")
    dep = load_deployment(dirs["old"])
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    url = files.url()
    procs = [spawn_node(dirs["old"], n, url, extra=["--quiet", "--status-interval", "0"],
                        stdout=subprocess.DEVNULL) for n in dep.node_names]
    host = host_endpoint(dep, url)
    x = _inputs(old, 9)
    want = {k: monolithic(m, x)["y"] for k, m in model.items()}
    assert not np.allclose(want["old"], want["good"], rtol=1e-4, atol=1e-5)
    answers: list[str] = []
    stop = threading.Event()
    try:
        host.wait_for_peers(dep.node_names, FLEET_TIMEOUT)

        def traffic() -> None:
            rid = 1000
            while not stop.is_set():
                rid += 1
                host.submit(rid, x)
                try:
                    y = host.wait(rid, FLEET_TIMEOUT)["y"]
                except Exception as exc:  # noqa: BLE001 - counted
                    answers.append(f"lost: {exc}")
                    continue
                answers.append(next((k for k, w in want.items() if np.allclose(y, w, rtol=1e-5, atol=1e-6)),
                                    "mixed"))

        worker = threading.Thread(target=traffic, daemon=True)
        worker.start()
        deploy = [*cli, "deploy", "--current", str(dirs["old"]), "--fleet", url, "--timeout", "30",
                  "--key", str(tmp_path / "keys" / "ota_ed25519.key"), "--stages", "n2,100%",
                  "--canary-window", "1.5", "--max-drift", "0.05", "--min-requests", "3"]
        out = subprocess.run([*deploy, str(dirs["drift"])], capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 4, (out.stdout, out.stderr)
        assert "n2: canary_failed: output drift" in out.stdout and "stage 1 (n2):" in out.stdout, out.stdout
        assert "switched to" not in out.stdout and "n2: not updated; serves" in out.stdout, out.stdout
        mark = len(answers)
        time.sleep(0.5)
        assert set(answers[mark:]) == {"old"}, answers[mark:]
        out = subprocess.run([*deploy, str(dirs["good"])], capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 0 and "-- passed" in out.stdout and "deploy done" in out.stdout, \
            (out.stdout, out.stderr)
        mark = len(answers)
        time.sleep(0.5)
        stop.set()
        worker.join(FLEET_TIMEOUT)
        assert answers[mark + 1:] and set(answers[mark + 1:]) == {"good"}, answers[mark:]
        print(f"staged rollouts: {len(answers)} requests, {answers.count('mixed')} mixed, "
              f"{sum(a.startswith('lost') for a in answers)} lost")
        assert set(answers) <= {"old", "good"}, [a for a in answers if a not in ("old", "good")][:5]
    finally:
        stop.set()
        for p in procs:
            stop_process(p)
        host.close()
        broker.stop()
