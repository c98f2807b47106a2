"""Seconds per FedAvg round over MQTT (one process per node) relative to the simulator, at 20 clients.

Starts its own Mosquitto (anonymous, loopback, a free port; stopped by pid),
writes a digits FedAvg deployment (Dirichlet 0.5), runs it once in the
simulator (in-process baseline, virtual clock) and once as a real fleet
(``bb-edge run --processes``: 21 ``bb-edge node`` processes), and prints
seconds per round for both (from the first to the last closed round, so
process start-up is not counted) and their ratio, plus the fleet's start-up
time and both final accuracies, and what each node process cost: peak RSS (VmHWM) and CPU seconds
(user + system), sampled from /proc every 0.1 s while the fleet runs (issue 40's goals: <= 100 MB and
<= 1.0 s per client process, <= 15 s for the whole run at 20 clients / 30 rounds). Prints figures;
asserts nothing.

    python bench/bench_learning_mqtt.py [--clients 20] [--rounds 10]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def per_round(walls: list[float]) -> float:
    """Mean seconds between closed rounds (excludes setup and the first round)."""
    return (walls[-1] - walls[0]) / max(len(walls) - 1, 1)


class NodeSampler:
    """Peak RSS and CPU seconds of every ``bb_edge.cli node`` process under ``workdir``, from /proc."""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.rss: dict[str, int] = {}  # node name -> peak RSS bytes
        self.cpu: dict[str, float] = {}  # node name -> CPU seconds at the last sample
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._tick = os.sysconf("SC_CLK_TCK")

    def _sample(self) -> None:
        for pid in (p for p in os.listdir("/proc") if p.isdigit()):
            try:
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if b"node" not in argv or not any(self.marker.encode() in a for a in argv):
                    continue
                name = argv[argv.index(b"--node") + 1].decode()
                status = Path(f"/proc/{pid}/status").read_text()
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, ValueError, IndexError):
                continue
            hwm = [int(x.split()[1]) * 1024 for x in status.splitlines() if x.startswith("VmHWM:")]
            if hwm:
                self.rss[name] = max(self.rss.get(name, 0), hwm[0])
            self.cpu[name] = (int(stat[11]) + int(stat[12])) / self._tick  # utime, stime

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            self._sample()

    def __enter__(self) -> NodeSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


def main() -> None:
    """Run both and print the ratio."""
    from bb_edge.adapters.learn.fleet import run_learning_fleet
    from bb_edge.adapters.learn.simulator import simulate
    from bb_edge.adapters.ops.broker import free_port, mosquitto_binary
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.training.setup import write_learning_deployment

    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=10)
    a = ap.parse_args()
    learning = {"strategy": "fedavg", "clients": a.clients, "rounds": a.rounds, "seed": 0,
                "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "dep"
        write_learning_deployment(d, learning)
        sim = simulate(learning, d)
        port = free_port()
        conf = Path(tmp) / "mosquitto.conf"
        conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        broker = subprocess.Popen([mosquitto_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            t0 = time.perf_counter()
            with NodeSampler(str(d)) as sampler:
                fleet = run_learning_fleet(load_deployment(d), f"mqtt://127.0.0.1:{port}",
                                           workdir=Path(tmp) / "work")
            total = time.perf_counter() - t0
        finally:
            os.kill(broker.pid, signal.SIGTERM)
            broker.wait(10)
    s_sim = per_round([r.wall_time for r in sim.records])
    s_mqtt = per_round([r.wall_time for r in fleet.records])
    startup = fleet.records[0].wall_time if fleet.records else float("nan")
    print(f"FedAvg digits, {a.clients} clients, {a.rounds} rounds, {os.cpu_count()} cores")
    print(f"simulator (in-process, virtual clock): {s_sim * 1000:8.1f} ms/round  accuracy {sim.final_accuracy:.4f}")
    print(f"MQTT, one process per node:            {s_mqtt * 1000:8.1f} ms/round  accuracy {fleet.final_accuracy:.4f}")
    print(f"ratio MQTT / simulator: {s_mqtt / s_sim:.2f}x   (fleet start-up to round 1: {startup:.1f} s, "
          f"whole run {total:.1f} s)")
    clients = [n for n in sampler.rss if n in sampler.cpu and "server" not in n and "aggregator" not in n]
    others = [n for n in sampler.rss if n not in clients]
    if clients:
        rss = [sampler.rss[n] / 2**20 for n in clients]
        cpu = [sampler.cpu[n] for n in clients]
        print(f"client processes ({len(clients)}): peak RSS median {statistics.median(rss):.0f} MB "
              f"(max {max(rss):.0f}), CPU median {statistics.median(cpu):.2f} s (max {max(cpu):.2f}); "
              f"goals <= 100 MB, <= 1.0 s")
    for n in others:
        print(f"{n}: peak RSS {sampler.rss[n] / 2**20:.0f} MB, CPU {sampler.cpu.get(n, 0.0):.2f} s")
    la = os.getloadavg()
    print(f"(load: {la[0]:.2f} {la[1]:.2f} {la[2]:.2f})")


if __name__ == "__main__":
    main()
