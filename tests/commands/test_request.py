"""``bb-edge request`` against a fleet of ``bb-edge node`` processes on a real Mosquitto with generated
credentials: two clients at once (``--client 1`` and ``--client 2``, each its own process) while the
host runs its own requests; every output equals one ONNX Runtime session over the whole model. Then the
Python Client API: request, async stream, and a typed timeout once a node is gone.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

from bb_edge.adapters.fleet.client import Client, RequestTimeout
from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.compiler import compile_model, load_deployment
from tests.support.fleet import stop_fleet
from tests.support.models import mlp, monolithic
from tests.support.transport_helpers import wait_until

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def bb_edge_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "bb_edge.cli", *args]


def test_two_clients_and_the_host_share_a_running_fleet(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    model = mlp(rng)
    onnx.save(model, str(tmp_path / "mlp.onnx"))
    comp = tmp_path / "c"
    compile_model(str(tmp_path / "mlp.onnx"), nodes=2, out_dir=comp)
    dep = load_deployment(comp)
    files = write_broker_files(tmp_path / "broker", dep)
    url = files.url()
    broker = Broker(files).start()
    nodes = [spawn_node(comp, n, url, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for n in dep.node_names]
    host = None
    try:
        host = host_endpoint(dep, url)
        wait_until(lambda: set(dep.node_names) <= host.up or any(p.poll() is not None for p in nodes), 60,
                   "nodes up")
        stacks = {k: rng.standard_normal((6, 1, 32)).astype(np.float32) for k in (1, 2)}
        procs = {}
        for k, x in stacks.items():
            np.savez(tmp_path / f"in{k}.npz", x=x)
            procs[k] = subprocess.Popen(
                bb_edge_cmd("request", str(comp), "--fleet", url, "--client", str(k), "--inputs",
                            str(tmp_path / f"in{k}.npz"), "--outputs", str(tmp_path / f"out{k}.npz"),
                            "--timeout", "60"),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
        host_x = [{"x": rng.standard_normal((1, 32)).astype(np.float32)} for _ in range(6)]
        host_got = host.run(host_x, timeout=60)  # the host's own path, at the same time
        for k, p in procs.items():
            out, _ = p.communicate(timeout=120)
            assert p.returncode == 0, out
            assert f"_client{k}: wrote 6 request(s)" in out, out
            got = np.load(tmp_path / f"out{k}.npz")["y"]
            want = np.stack([monolithic(model, {"x": stacks[k][i]})["y"] for i in range(6)])
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        for x, g in zip(host_x, host_got):
            np.testing.assert_allclose(g["y"], monolithic(model, x)["y"], rtol=1e-5, atol=1e-6)
        assert host.stats.refused == 0 and host.stats.outputs == 6  # no client's output reached the host
        r = subprocess.run(bb_edge_cmd("request", str(comp), "--fleet", url, "--client", "9"), capture_output=True,
                           text=True, timeout=60, env=ENV)
        assert r.returncode == 1 and "has no password for '_client9'" in r.stderr and "--client 1..4" in r.stderr, \
            r.stderr

        # --stream: a directory of request files, each one's outputs written as it completes
        (tmp_path / "sin").mkdir()
        (tmp_path / "sout").mkdir()
        singles = {f"r{i}.npz": rng.standard_normal((1, 32)).astype(np.float32) for i in range(3)}
        for name, x in singles.items():
            np.savez(tmp_path / "sin" / name, x=x)
        r = subprocess.run(bb_edge_cmd("request", str(comp), "--fleet", url, "--client", "4", "--stream",
                                       str(tmp_path / "sin"), "--outputs", str(tmp_path / "sout")),
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
        assert r.returncode == 0 and "3 request(s) from 3 file(s)" in r.stdout, (r.stdout, r.stderr)
        for name, x in singles.items():
            np.testing.assert_allclose(np.load(tmp_path / "sout" / name)["y"], monolithic(model, {"x": x})["y"],
                                       rtol=1e-5, atol=1e-6)

        # the Python API, under client 3
        with Client(comp, url, client=3) as c:
            c.wait_for_nodes(30)
            x = {"x": rng.standard_normal((1, 32)).astype(np.float32)}
            np.testing.assert_allclose(c.request(x, timeout=30)["y"], monolithic(model, x)["y"], rtol=1e-5, atol=1e-6)
            xs = [{"x": rng.standard_normal((1, 32)).astype(np.float32)} for _ in range(5)]

            async def collect() -> list[dict[str, np.ndarray]]:
                return [o async for o in c.stream(xs, window=2, timeout=30)]

            for x, o in zip(xs, asyncio.run(collect()), strict=True):
                np.testing.assert_allclose(o["y"], monolithic(model, x)["y"], rtol=1e-5, atol=1e-6)
            stop_process(nodes[-1])  # the output's node is gone: retried, then a typed timeout
            with pytest.raises(RequestTimeout, match="did not arrive within 2"):
                c.request(x, timeout=2.0, retry_after=0.5)
            assert c.endpoint.stats.retries >= 2
    finally:
        stop_fleet(broker, host=host, procs=nodes)


def test_request_refuses_bad_arguments(tmp_path: Path) -> None:
    for args, text in ((["--fleet", "mqtt:/localhost"], "mqtt:/localhost"),
                       (["--fleet", "inproc"], "unknown transport"),
                       (["--fleet", "mqtt://127.0.0.1:1", "--client", "0"], "client slot"),
                       (["--fleet", "mqtt://127.0.0.1:1", "--outputs", str(tmp_path / "no" / "o.npz")],
                        "does not exist")):
        r = subprocess.run(bb_edge_cmd("request", str(tmp_path), *args), capture_output=True, text=True,
                           timeout=60, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
        assert r.returncode != 0 and text in r.stderr, (args, r.stderr)
    assert not (tmp_path / "no").exists()
