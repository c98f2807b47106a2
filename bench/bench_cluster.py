"""A 3-member RabbitMQ cluster against one Mosquitto, in one run (issue 35, Build 3 and 4, pipeline part).

The same 3-stage squeezenet pipeline (three ``bb-edge node`` processes, the host in this process) runs on
one Mosquitto and then on the cluster (``bb-edge broker --kind rabbitmq``), both on loopback, sharing this
machine's cores. Printed in one table: requests/s through the pipeline on each, the cluster's ratio (goal
>= 0.5x), broker RSS (per member), and, with the member every client starts on SIGKILLed under traffic:
the host's reconnect time, the longest gap between two outputs, and requests lost / outputs accepted twice
(the host's exactly-once count).

    python bench/bench_cluster.py                 # CI size: 60 requests, the member down 5 s
    BB_BENCH_CLUSTER_LONG=1 python bench/bench_cluster.py   # 600 requests, the member down 60 s
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process  # noqa: E402
from bb_edge.adapters.ops.broker import Broker, write_broker_files  # noqa: E402
from bb_edge.adapters.ops.rabbit import RabbitCluster, write_cluster_files  # noqa: E402
from bb_edge.deployment.arrays import load_requests  # noqa: E402
from bb_edge.deployment.manifest import Deployment, load_deployment  # noqa: E402
from tests.adapters.test_security_broker import rss_kib  # noqa: E402
from tests.support.models import light  # noqa: E402

LONG = os.environ.get("BB_BENCH_CLUSTER_LONG") == "1"
REQUESTS = 600 if LONG else 60
DOWN = 60.0 if LONG else 5.0
WINDOW = 8


def pipeline(dep: Deployment, url: str, requests: list, kill=None) -> dict[str, float]:  # type: ignore[no-untyped-def,type-arg]
    """Run ``requests`` through node processes on ``url``; ``kill()`` (if given) runs at one third."""
    assert dep.directory is not None
    procs = {n: spawn_node(dep.directory, n, url, extra=["--quiet"], stdout=subprocess.DEVNULL)
             for n in dep.node_names}
    host = host_endpoint(dep, url)
    out: dict[str, float] = {}
    times: list[float] = []
    try:
        host.wait_for_peers(dep.node_names, 60)
        host.run(requests[:4], window=4, timeout=60)  # warm: models loaded, sessions made
        base = host.stats.outputs
        got: list = []  # type: ignore[type-arg]
        th = threading.Thread(target=lambda: got.extend(host.run(requests, window=WINDOW, timeout=600,
                                                                 retry_after=3.0)), daemon=True)
        t0 = time.monotonic()
        th.start()
        seen, killer = 0, None
        while th.is_alive():
            if host.stats.outputs - base > seen:
                seen = host.stats.outputs - base
                times.append(time.monotonic())
            if kill is not None and killer is None and seen >= len(requests) // 3:
                connects = host.transport.stats.connects  # type: ignore[attr-defined]
                t_kill = time.monotonic()
                killer = threading.Thread(target=kill, daemon=True)
                killer.start()
                while host.transport.stats.connects == connects and th.is_alive():  # type: ignore[attr-defined]
                    time.sleep(0.005)
                out["reconnect_s"] = time.monotonic() - t_kill
            time.sleep(0.001)
        took = time.monotonic() - t0
        if killer is not None:
            killer.join(600)
        out["rps"] = len(requests) / took
        out["lost"] = len(requests) - len(got)
        out["twice"] = host.stats.outputs - base - len(got)
        waits = [b - a for a, b in zip(times, times[1:])]
        out["max_gap_s"] = max(waits) if waits else 0.0
    finally:
        for p in procs.values():
            stop_process(p)
        host.close()
    return out


def main() -> None:
    """Mosquitto, then the cluster, then the cluster with a member killed: one table."""
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "dep"
        subprocess.run([sys.executable, "-m", "bb_edge.cli", "compile", str(light("squeezenet")), "--nodes", "3",
                        "-o", str(d)], check=True, capture_output=True)
        dep = load_deployment(d)
        requests = load_requests(dep, None, count=REQUESTS, seed=1)
        broker = Broker(write_broker_files(Path(tmp) / "mosq", dep)).start()
        try:
            mosq = pipeline(dep, broker.files.url(), requests)
            assert broker.pid is not None
            mosq_rss = rss_kib(broker.pid)
        finally:
            broker.stop()
        t0 = time.monotonic()
        cluster = RabbitCluster(write_cluster_files(Path(tmp) / "cluster", dep, members=3)).start()
        started = time.monotonic() - t0
        try:
            url = cluster.files.url()
            clu = pipeline(dep, url, requests)
            rss = cluster.rss_kib()

            def kill() -> None:
                cluster.kill(0)
                time.sleep(DOWN)
                cluster.start_member(0)

            killed = pipeline(dep, url, requests, kill=kill)
        finally:
            cluster.stop()
    print(f"{REQUESTS} requests, window {WINDOW}, 3 node processes, light squeezenet; cluster started in "
          f"{started:.0f} s; killed member down {DOWN:.0f} s")
    print(f"{'broker':34s} {'req/s':>7s} {'ratio':>6s} {'RSS MiB':>16s} {'reconnect s':>11s} {'max gap s':>9s} "
          f"{'lost':>4s} {'twice':>5s}")
    print(f"{'mosquitto (1 process)':34s} {mosq['rps']:7.1f} {1.0:6.2f} {mosq_rss / 1024:16.1f} {'-':>11s} "
          f"{mosq['max_gap_s']:9.2f} {mosq['lost']:4.0f} {mosq['twice']:5.0f}")
    per = "/".join(f"{r / 1024:.0f}" for r in rss)
    print(f"{'rabbitmq 3 members':34s} {clu['rps']:7.1f} {clu['rps'] / mosq['rps']:6.2f} {per:>16s} {'-':>11s} "
          f"{clu['max_gap_s']:9.2f} {clu['lost']:4.0f} {clu['twice']:5.0f}")
    print(f"{'rabbitmq, member 1 SIGKILLed':34s} {killed['rps']:7.1f} {killed['rps'] / mosq['rps']:6.2f} "
          f"{'':>16s} {killed.get('reconnect_s', float('nan')):11.2f} {killed['max_gap_s']:9.2f} "
          f"{killed['lost']:4.0f} {killed['twice']:5.0f}")


if __name__ == "__main__":
    main()
