"""Stage failover gap: the middle stage of a 3-node squeezenet pipeline is lost under load, a standby takes over.

Real Mosquitto on loopback; the middle stage is a ``bb-edge node`` process, the rest threads. The gap is
the longest wait between two consecutive outputs at the host around the loss, minus the median wait
(what the failover itself cost). Printed in ms and as a ratio to the in-process baseline: one request
through the in-process fleet in this process and run.

    python bench/bench_failover.py [--requests 200] [--signal KILL|STOP|both]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.fleet.hostloop import PeerWatch  # noqa: E402
from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint, spawn_node, stop_process  # noqa: E402
from bb_edge.adapters.ops.broker import Broker, write_broker_files  # noqa: E402
from bb_edge.adapters.transports.inproc import InProcFleet  # noqa: E402
from bb_edge.deployment.arrays import load_requests  # noqa: E402
from bb_edge.deployment.manifest import load_deployment  # noqa: E402
from tests.support.models import light  # noqa: E402


def one_run(out: Path, sig: signal.Signals, n: int) -> tuple[float, float]:
    dep = load_deployment(out)
    requests = load_requests(dep, None, count=n, seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        files = write_broker_files(Path(tmp) / "broker", dep)
        broker = Broker(files).start()
        fleet = MqttFleet(dep, files.url(), nodes=["n0", "n2", "n1b"])
        watch = PeerWatch.for_engine(fleet.loops["n0"], interval=0.25)
        fleet.start()
        proc = spawn_node(out, "n1", files.url(), extra=["--quiet"], stdout=subprocess.DEVNULL)
        host = host_endpoint(dep, files.url())
        times: list[float] = []
        try:
            host.wait_for_peers(dep.node_names, 60)
            assert watch is not None
            while len(watch.detectors["n1"].intervals) < 4:
                time.sleep(0.05)
            th = threading.Thread(target=lambda: host.run(requests, window=4, timeout=120), daemon=True)
            th.start()
            seen = 0
            killed_at = None
            while th.is_alive() or host.stats.outputs > seen:
                if host.stats.outputs > seen:
                    seen = host.stats.outputs
                    times.append(time.monotonic())
                if killed_at is None and seen >= n // 3:
                    os.kill(proc.pid, sig)
                    killed_at = time.monotonic()
                time.sleep(0.0005)
        finally:
            if sig == signal.SIGSTOP:
                os.kill(proc.pid, signal.SIGCONT)
            stop_process(proc)
            fleet.stop()
            host.close()
            broker.stop()
    waits = [b - a for a, b in zip(times, times[1:])]
    return max(waits), statistics.median(waits)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--signal", choices=["KILL", "STOP", "both"], default="both")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dep"
        subprocess.run([sys.executable, "-m", "bb_edge.cli", "compile", str(light("squeezenet")), "--nodes", "3",
                        "--standby", "n1=n1b", "-o", str(out)], check=True, capture_output=True)
        dep = load_deployment(out)
        fleet = InProcFleet(dep)
        reqs = load_requests(dep, None, count=10, seed=2)
        fleet.run(reqs[:2])
        t0 = time.perf_counter()
        fleet.run(reqs)
        base = (time.perf_counter() - t0) / len(reqs)
        print(f"baseline: in-process fleet, {base * 1000:.2f} ms per request")
        sigs = {"KILL": [signal.SIGKILL], "STOP": [signal.SIGSTOP]}.get(args.signal,
                                                                       [signal.SIGKILL, signal.SIGSTOP])
        for sig in sigs:
            worst, median = one_run(out, sig, args.requests)
            gap = worst - median
            how = "last will" if sig == signal.SIGKILL else "phi-accrual over PONGs, 0.25 s pings"
            print(f"{sig.name:8s} ({how}): failover gap {gap * 1000:.0f} ms "
                  f"(longest wait between outputs {worst * 1000:.0f} ms, median {median * 1000:.1f} ms); "
                  f"{gap / base:.1f}x the in-process request time")


if __name__ == "__main__":
    main()
