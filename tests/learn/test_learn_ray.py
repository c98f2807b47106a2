"""Virtual clients on a real two-node Ray cluster (``bb-edge run --ray``): same model bytes, worker loss, bad address.

One cluster per module: ``ray start --head`` on 127.0.0.1 plus a second node (``ray start --address``),
each a ``--block`` process in its own process group with its own ports and ``--temp-dir``, stopped by
process group at teardown. The oracle is the in-process simulator (bb_edge/adapters/learn/simulator.py) on the same
config and seed. CI: 200 clients, 3 rounds; BB_EDGE_LONG=1: 1,000 clients, 5 rounds.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

# token authentication (Ray's default for new clusters) with a token of this module's own, never ~/.ray's;
# set before Ray is imported (it reads them once); restored when the module's cluster stops
AUTH = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": os.urandom(16).hex(), "RAY_USAGE_STATS_ENABLED": "0"}
_SAVED = {k: os.environ.get(k) for k in AUTH}
os.environ.update(AUTH)

ray = pytest.importorskip("ray")  # the [ray] extra is in the test extra: CI has it

from bb_edge.adapters.learn.ray_cluster import (  # noqa: E402
    RayClientCompute,
    RayClusterError,
    TrainMemo,
    _Entry,
    cluster_size,
    connect,
)
from bb_edge.adapters.learn.simulator import simulate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LONG = os.environ.get("BB_EDGE_LONG") == "1"
CLIENTS, ROUNDS = (1000, 5) if LONG else (200, 3)
CFG: dict[str, Any] = {"strategy": "fedavg", "clients": CLIENTS, "rounds": ROUNDS, "epochs": 1, "batch_size": 16,
                       "data": {"partition": {"type": "partition.iid"}}}
# quick failure detection on the head so a killed node is declared dead in about a second
HEALTH = {"RAY_health_check_initial_delay_ms": "0", "RAY_health_check_period_ms": "300",
          "RAY_health_check_timeout_ms": "300", "RAY_health_check_failure_threshold": "3"}


def _free_ports(n: int) -> list[int]:
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def _node_ports() -> list[str]:
    nm, om, agent, grpc, metrics, rt = _free_ports(6)
    return [f"--node-manager-port={nm}", f"--object-manager-port={om}", f"--dashboard-agent-listen-port={agent}",
            f"--dashboard-agent-grpc-port={grpc}", f"--metrics-export-port={metrics}",
            f"--runtime-env-agent-port={rt}", "--min-worker-port=0", "--max-worker-port=0", "--num-cpus=1",
            "--object-store-memory=200000000", "--node-ip-address=127.0.0.1", "--block", "--disable-usage-stats"]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a ``ray start --block`` and everything it started: its whole process group, at once.

    (SIGTERM makes a node drain for up to 30 s; nothing of this test cluster needs draining.)
    """
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


class Cluster:
    """The test's two-node cluster: head and worker processes, the GCS address."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.env = dict(os.environ, PYTHONPATH=str(ROOT), **AUTH, **HEALTH)
        self.ray = shutil.which("ray") or str(Path(sys.executable).parent / "ray")
        (gcs,) = _free_ports(1)
        self.address = f"127.0.0.1:{gcs}"
        self.head = self._start(["--head", f"--port={gcs}", "--include-dashboard=false",
                                 f"--temp-dir={tmp / 'ray'}"], "head")
        # started together: the worker node retries the head's address until it answers
        self.worker = self._start([f"--address={self.address}"], "worker")
        self._wait_port(gcs)

    def _start(self, extra: list[str], name: str) -> subprocess.Popen[bytes]:
        log = open(self.tmp / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        return subprocess.Popen([self.ray, "start", *extra, *_node_ports()], stdout=log, stderr=subprocess.STDOUT,
                                env=self.env, cwd=str(self.tmp), start_new_session=True)

    def _wait_port(self, port: int) -> None:
        end = time.monotonic() + 60
        while time.monotonic() < end and self.head.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError((self.tmp / "head.log").read_text())

    def stop(self) -> None:
        for p in (self.worker, self.head):
            _stop(p)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    tmp = Path(tmp_path_factory.mktemp("raycl"))
    c = Cluster(tmp)
    try:
        for attempt in range(4):  # a loaded machine may open the GCS port before the GCS answers
            try:
                connect(c.address)
                break
            except RayClusterError:
                if attempt == 3:
                    raise
                ray.shutdown()
                time.sleep(3)
        end = time.monotonic() + 120
        while cluster_size(c.address)["nodes"] < 2 and time.monotonic() < end:  # the second node registers
            time.sleep(0.3)
        yield c
    finally:
        import ray as ray_

        ray_.shutdown()
        c.stop()
        shutil.rmtree(tmp / "ray", ignore_errors=True)
        for k, v in _SAVED.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="module")
def in_process() -> Any:
    """The oracle: the in-process simulator, no Ray."""
    return simulate(CFG, seed=0)


def _same_summary(a: dict[str, Any], b: dict[str, Any]) -> None:
    wall = {"wall_time_s", "seconds_per_round", "peak_memory_mb", "peak_rss_mb", "peak_pss_mb", "ray"}
    assert {k: v for k, v in a.items() if k not in wall} == {k: v for k, v in b.items() if k not in wall}


def test_fedavg_digits_on_two_ray_nodes_gives_the_in_process_model_bytes(cluster: Cluster, in_process: Any) -> None:
    assert cluster_size(cluster.address) == {"address": cluster.address, "nodes": 2, "cpus": 2}
    rc = RayClientCompute(batch_size=CLIENTS // 8)
    res = simulate(CFG, seed=0, client_compute=rc)
    assert res.model is not None and in_process.model is not None
    assert res.model.tobytes() == in_process.model.tobytes()
    _same_summary(res.summary(), in_process.summary())
    # the training really ran on the cluster, on both nodes, in batches: none fell back to the driver
    assert rc.clients_remote == CLIENTS * ROUNDS and rc.memo.hits == CLIENTS * ROUNDS and rc.memo.misses == 0
    assert rc.tasks == 8 * ROUNDS and len(rc.by_node) == 2 and not rc.events


class _Recorder:
    """A ``client_compute`` that computes nothing: it keeps the in-process run's engines to read their codecs."""

    def __init__(self) -> None:
        self.engines: dict[str, Any] = {}

    def attach(self, module: Any, engines: dict[str, Any]) -> None:
        self.engines = engines

    def prefetch(self, fleet: Any) -> None:
        pass

    def status(self) -> str:
        return ""


@pytest.mark.parametrize("codec", [{"type": "codec.topk", "fraction": 0.05},  # error-feedback residual
                                   {"type": "codec.dp_gaussian", "clip": 1.0, "sigma": 0.05, "seed": 3}])  # calls
def test_codec_clients_encode_on_ray_with_the_in_process_bytes_summary_and_codec_state(
        cluster: Cluster, codec: dict[str, Any]) -> None:
    """Training and encoding of codec clients run in the Ray batches; the driver encodes nothing.

    Oracle: the in-process simulator on the same config and seed (model bytes, summary, and every
    client's codec state after the run: a state not carried back from the tasks changes all three).
    """
    cfg = {**CFG, "codec": codec}
    rec = _Recorder()
    base = simulate(cfg, seed=0, client_compute=rec)
    rc = RayClientCompute(batch_size=CLIENTS // 4)
    res = simulate(cfg, seed=0, client_compute=rc)
    assert res.model is not None and base.model is not None
    assert res.model.tobytes() == base.model.tobytes()
    s, b = res.summary(), base.summary()
    _same_summary(s, b)
    assert b["events"] and b["bytes_by_type"]["UPDATE"] > 0
    # every update was trained and encoded on the cluster: counters nonzero and matching the run
    assert rc.memo.hits == rc.codec_hits == rc.clients_remote == CLIENTS * ROUNDS
    assert rc.memo.misses == rc.codec_misses == 0 and not rc.events
    # in batches, even where the server's top-k encodes the model once per client (each a different start)
    assert rc.tasks == 4 * ROUNDS
    summary = rc.summary(cluster_size(cluster.address))["ray"]
    assert (summary["codec_remote"], summary["codec_in_driver"]) == (CLIENTS * ROUNDS, 0)
    # each client's codec ends in the in-process state (residual / noise-call counter)
    ray_codecs = {c: rc._codecs[int(i)].inner for c, i in ((f"c{k}", k + 2) for k in range(CLIENTS))}
    for name, codec_ in ray_codecs.items():
        m1, a1 = codec_.get_state()
        m0, a0 = rec.engines[name].bindings["codec"].get_state()
        assert m1 == m0 and set(a1) == set(a0) and all(np.array_equal(a1[k], a0[k]) for k in a0), name
    if codec["type"] == "codec.dp_gaussian":
        assert all(c.calls == ROUNDS for c in ray_codecs.values())


def test_memo_answers_only_the_exact_training() -> None:
    """A recorded result is refused when any input differs (then the client trains in the driver)."""
    x, y = np.zeros((4, 2), np.float32), np.zeros(4, np.int64)
    start = np.ones(3, np.float32)
    result = (start + 1, {}, 0.5, 1)

    def entry() -> _Entry:
        return _Entry(start.copy(), x, y, (1, 16, 0), dict(np.random.default_rng([0, 5, 1]).bit_generator.state),
                      None, result)

    def take(memo: TrainMemo, **kw: Any) -> Any:
        args: dict[str, Any] = {"start": start, "x": x, "y": y, "epochs": 1, "batch_size": 16,
                                "rng": np.random.default_rng([0, 5, 1]), "steps": 0, "state": None}
        args.update(kw)
        return memo.take(5, args.pop("start"), args.pop("x"), args.pop("y"), **args)

    for bad in ({"rng": np.random.default_rng([0, 5, 2])}, {"start": start * 2}, {"x": x.copy()},
                {"epochs": 2}, {"state": {"m": np.zeros(1)}}):
        memo = TrainMemo()
        memo.put(5, entry())
        assert take(memo, **bad) is None and memo.misses == 1, bad
    memo = TrainMemo()
    memo.put(5, entry())
    assert take(memo) is result and memo.hits == 1
    assert take(memo) is None  # taken once: a second training of the node is not answered


def _cli(args: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200", **AUTH)
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], cwd=str(cwd), env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_cli_run_with_ray_records_the_cluster_and_refuses_an_unreachable_address(
        cluster: Cluster, in_process: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bb_edge.cli import main
    from bb_edge.training.setup import write_learning_deployment

    d = tmp_path / "dep"
    write_learning_deployment(d, CFG)
    # in this process: the module's driver connection is reused (and left open), its workers are warm
    rc = main(["run", str(d), "--virtual-nodes", str(CLIENTS), "--rounds", "1", "--ray", cluster.address,
               "--summary", str(tmp_path / "s.json")])
    assert rc == 0
    s = json.loads((tmp_path / "s.json").read_text())
    assert s["ray"]["nodes"] == 2 and s["ray"]["cpus"] == 2 and s["ray"]["clients_remote"] == CLIENTS
    assert s["ray"]["address"] == cluster.address and s["ray"]["events"] == []
    assert s["accuracy_per_round"] == in_process.summary()["accuracy_per_round"][:1]

    capsys.readouterr()
    # --ray simulates clients: with a real transport it is a typed refusal before anything starts
    assert main(["run", str(d), "--ray", cluster.address, "--transport", "mqtt://127.0.0.1:1"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--ray" in err[0] and "--transport" in err[0]

    (closed,) = _free_ports(1)  # nothing listens there
    t0 = time.monotonic()
    p = _cli(["run", str(d), "--ray", f"127.0.0.1:{closed}"], tmp_path, timeout=60)
    assert time.monotonic() - t0 < 30
    assert p.returncode == 1
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "RayClusterError" in lines[0] and f"127.0.0.1:{closed}" in lines[0], p.stderr
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout


def test_a_worker_node_killed_mid_round_is_retried_elsewhere_and_recorded(cluster: Cluster, in_process: Any) -> None:
    """Documented outcome: Ray re-runs the lost tasks on the head; same model bytes; RayNodeLost in the summary."""
    rc = RayClientCompute(batch_size=CLIENTS // 8)
    killed: list[int] = []

    def kill_worker(rnd: int) -> None:
        if rnd == 2 and not killed:  # round 2's batches are queued or running on both nodes
            os.killpg(cluster.worker.pid, signal.SIGKILL)
            killed.append(rnd)

    rc.on_submit = kill_worker
    t0 = time.monotonic()
    res = simulate(CFG, seed=0, client_compute=rc)
    rc.close()
    end = time.monotonic() + 10
    while not rc.events and time.monotonic() < end:  # GCS declares the node dead after its health checks
        time.sleep(0.3)
        rc.close()
    assert killed == [2] and time.monotonic() - t0 < 120
    assert res.model is not None and res.model.tobytes() == in_process.model.tobytes()
    lost = [e for e in rc.events if e.type == "RayNodeLost"]
    assert len(lost) == 1 and lost[0].round >= 2, rc.events
    assert not [e for e in rc.events if e.type == "RayBatchFailed"]
    summary = rc.summary(cluster_size(cluster.address))["ray"]
    assert summary["nodes"] == 1 and summary["events"][0]["type"] == "RayNodeLost"
    assert rc.memo.misses == 0  # every client's training still came from the cluster
