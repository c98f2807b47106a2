"""Seconds per FedAvg round over MQTT (one process per node) relative to the simulator, at 20 clients.

Starts its own Mosquitto (anonymous, loopback, a free port; stopped by pid),
writes a digits FedAvg deployment (Dirichlet 0.5), runs it once in the
simulator (in-process baseline, virtual clock) and once as a real fleet
(``bb-edge run --processes``: 21 ``bb-edge node`` processes), and prints
seconds per round for both (from the first to the last closed round, so
process start-up is not counted) and their ratio, plus the fleet's start-up
time and both final accuracies. Prints figures; asserts nothing.

    python bench/bench_learning_mqtt.py [--clients 20] [--rounds 10]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def per_round(walls: list[float]) -> float:
    """Mean seconds between closed rounds (excludes setup and the first round)."""
    return (walls[-1] - walls[0]) / max(len(walls) - 1, 1)


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
            fleet = run_learning_fleet(load_deployment(d), f"mqtt://127.0.0.1:{port}", workdir=Path(tmp) / "work")
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


if __name__ == "__main__":
    main()
