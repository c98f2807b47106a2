"""A FedAvg federation on one Mosquitto as client count grows: seconds per round, memory, bytes, control traffic.

For each client count: starts its own Mosquitto (anonymous, loopback, a free port; stopped by pid),
writes a digits FedAvg deployment (Dirichlet 0.5, the 64-32-10 MLP), starts the server and every
client as its own ``bb-edge node`` process (:class:`~bb_edge.adapters.learn.fleet.LearningFleet`),
and prints, for the rounds after the first:

- seconds per round (server's round records, wall clock), and the ratio to the smallest run's;
- the broker's RSS and the mean client RSS (``/proc/PID/status`` VmRSS, sampled mid-run; shared
  library pages are counted in every process, so the sum over clients overstates the machine's use);
- bytes each client sent per round, and the part outside the model payload (JOIN, HEARTBEAT, HELLO,
  envelope headers): ``bytes_out - rounds_trained * 4 * parameters`` over the rounds, per client.

The issue's 1,000-client run of the C FedAvg client (posix, libmosquitto) is not here: the C
training client speaks the link layer on a serial line (``bbrt_learn_node``), and no posix MQTT
port of it exists yet; a Python client process costs what the RSS column says.

    python bench/bench_federation_scale.py [--clients 10 30] [--rounds 10]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def rss_mb(pid: int) -> float:
    """Resident set size of ``pid`` in MiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def run(clients: int, rounds: int, root: Path) -> dict[str, Any]:
    """One federation of ``clients`` client processes; its figures."""
    from bb_edge.adapters.learn.fleet import LearningFleet
    from bb_edge.adapters.learn.node import load_module
    from bb_edge.adapters.ops.broker import free_port, mosquitto_binary
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.learn.deployment import write_learning_deployment

    cfg = {"strategy": "fedavg", "clients": clients, "rounds": rounds, "seed": 5, "round_timeout": 30.0,
           "heartbeat": 1.0, "start_after": 300.0,
           "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}
    d = root / f"dep{clients}"
    write_learning_deployment(d, cfg)
    port = free_port()
    conf = root / f"mosquitto{clients}.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_connections -1\n")
    broker = subprocess.Popen([mosquitto_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    fleet = LearningFleet(load_deployment(d), f"mqtt://127.0.0.1:{port}", {}, root / f"work{clients}")
    names = ["server", *[f"c{i}" for i in range(clients)]]
    rss: dict[str, float] = {}
    try:
        t0 = time.monotonic()
        for n in names:
            fleet.spawn(n)
        fleet.wait_up(names, 600)
        startup = time.monotonic() - t0
        fleet.go()
        sampled = False
        deadline = time.monotonic() + 60 + rounds * 60
        while time.monotonic() < deadline:
            recs = [r for r in fleet.records("server") if r["kind"] == "round"]
            if not sampled and len(recs) >= max(2, rounds // 2):
                rss = {n: rss_mb(p.popen.pid) for n, p in fleet.procs.items()}
                rss["_broker"] = rss_mb(broker.pid)
                sampled = True
            if recs and recs[-1]["round"] >= rounds and recs[-1].get("finished"):
                break
            time.sleep(0.2)
    finally:
        fleet.stop_all()
        os.kill(broker.pid, signal.SIGTERM)
        broker.wait(10)
    recs = [r for r in fleet.records("server") if r["kind"] == "round"]
    walls = [r["wall"] for r in recs]
    per_round = (walls[-1] - walls[0]) / max(len(walls) - 1, 1) if len(walls) > 1 else float("nan")
    size = load_module(cfg, d).setup.program.layout.size
    finals = {n: [r for r in fleet.records(n) if r["kind"] == "final"] for n in names[1:]}
    sent, control = [], []
    for f in finals.values():
        if not f:
            continue
        trained = f[-1]["events"].get("LocalTrainingDone", 0)
        sent.append(f[-1]["bytes_out"] / rounds)
        control.append((f[-1]["bytes_out"] - trained * 4 * size) / rounds)
    cl = [v for k, v in rss.items() if k.startswith("c")]
    return {"clients": clients, "rounds": recs[-1]["round"] if recs else 0, "s_round": per_round, "startup": startup,
            "broker_mb": rss.get("_broker", 0.0), "server_mb": rss.get("server", 0.0),
            "client_mb": sum(cl) / len(cl) if cl else 0.0,
            "sent": sum(sent) / len(sent) if sent else 0.0, "control": sum(control) / len(control) if control else 0.0}


def main() -> None:
    """Run each client count; print one table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, nargs="+", default=[10, 30])
    ap.add_argument("--rounds", type=int, default=10)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [run(n, a.rounds, Path(tmp)) for n in a.clients]
    base = rows[0]["s_round"]
    print(f"FedAvg digits over one Mosquitto, one bb-edge node process per client, {a.rounds} rounds")
    print(f"{'clients':>8}{'rounds':>8}{'s/round':>9}{'x':>6}{'startup s':>11}{'broker MB':>11}{'server MB':>11}"
          f"{'client MB':>11}{'B/client/rnd':>14}{'control B':>11}")
    for r in rows:
        print(f"{r['clients']:>8}{r['rounds']:>8}{r['s_round']:>9.3f}{r['s_round'] / base:>6.2f}{r['startup']:>11.1f}"
              f"{r['broker_mb']:>11.1f}{r['server_mb']:>11.1f}{r['client_mb']:>11.1f}{r['sent']:>14.0f}"
              f"{r['control']:>11.0f}")


if __name__ == "__main__":
    main()
