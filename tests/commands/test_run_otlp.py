"""`bb-edge run --otlp console|URL` (issue 24): every node's spans and metrics, in-process and from node processes.

Real OpenTelemetry SDK console exporter; real Mosquitto for the process fleet. The oracle is the deployment:
each node of it reports one hop span per request, and the request ids are the ones the run made.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bb_edge.adapters.ops.broker import Broker, free_port, write_broker_files
from tests.support.tiny import tiny_deployment


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_deployment(tmp_path_factory.mktemp("tiny"))


def bb(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    env.pop("OTEL_EXPORTER_OTLP_ENDPOINT", None)
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def records(text: str) -> list[dict]:
    """The JSON objects the console exporter printed, one after another (other lines skipped)."""
    dec, out, i = json.JSONDecoder(), [], 0
    while True:
        i = text.find("{", i)
        if i < 0:
            return out
        try:
            obj, i = dec.raw_decode(text, i)
            out.append(obj)
        except ValueError:
            i += 1


def hops(text: str) -> dict[str, set[int]]:
    got: dict[str, set[int]] = {}
    for r in records(text):
        if r.get("name") == "bb.hop":
            a = r["attributes"]
            got.setdefault(a["bb.node"], set()).add(a["bb.request_id"])
    return got


def test_run_otlp_console_in_process(dep: Path) -> None:
    r = bb("run", str(dep), "--count", "3", "--otlp", "console")
    assert r.returncode == 0, r.stderr[-2000:]
    assert hops(r.stderr) == {"n0": {1, 2, 3}, "n1": {1, 2, 3}}
    # the metrics are flushed at the end: envelope counters of both nodes
    assert '"bb.envelopes"' in r.stderr and '"n0"' in r.stderr
    assert hops(bb("run", str(dep), "--count", "1").stderr) == {}  # nothing without --otlp


def test_run_otlp_node_processes(dep: Path, tmp_path: Path) -> None:
    port = free_port()
    with Broker(write_broker_files(tmp_path / "broker", None, port=port, persistence=False)):
        url = f"mqtt://127.0.0.1:{port}"
        r = bb("run", str(dep), "--transport", url, "--otlp", "console", "--count", "2")
        assert r.returncode == 2 and "UsageError" in r.stderr and "--processes" in r.stderr, r.stderr
        r = bb("run", str(dep), "--transport", url, "--processes", "--otlp", "console", "--count", "2")
        assert r.returncode == 0, r.stderr[-2000:]
    # each node process exported its own spans (inherited endpoint), to the stderr it shares with the run
    # (the host's request ids carry its boot epoch: the same two ids on both nodes)
    got = hops(r.stderr)
    assert set(got) == {"n0", "n1"} and len(got["n0"]) == 2 and got["n0"] == got["n1"], got
