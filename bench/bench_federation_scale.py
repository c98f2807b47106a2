"""Real FedAvg federations on one Mosquitto: C client processes at scale, then a heterogeneous fleet with dropouts.

Every client is its own OS process; the server is the Python ``bb-edge node`` server. The broker is
this bench's own Mosquitto (anonymous, loopback, a free port, ``max_connections -1``; the bench raises
its open-file limit to the hard limit first, which the broker inherits; stopped by pid).

1. **Scale** (``--clients N``, default 100; ``--full``: 1,000): N C FedAvg clients
   (``bbrt-learn-mqtt``, firmware/ports/posix-mqtt/learn_main.c, started in batches of 50, 0.2 s
   apart) + the Python server, softmax regression on digits (train rows augmented with small noise so
   that every client holds ``--per-client`` samples, default 30; iid), 2 local epochs, batch 10.
2. **Heterogeneous** (``--hetero N``, default 40; ``--full``: 100): 4 Python clients (``bb-edge node``),
   ``--qemu`` QEMU Cortex-M3 clients (the C client on the emulated MCU behind its serial bridge,
   bb_edge/adapters/learn/mcu_fleet.py; default 4, 0 skips), ``--mpy`` MicroPython clients (the
   esp32-micropython training bundle in the real MicroPython WebAssembly VM behind bbnode/mqtt.py, the
   harness of tests/micropython/test_micropython_train.py; default 4) and C posix clients for the rest
   (standing for microcontrollers: the same C client as the M3's). A clean run of ``--hetero-rounds`` rounds
   sets the target (its final accuracy); then the same fleet with 30% of all clients dropping out of
   each round (C clients leave a round's MODEL unanswered, ``--drop`` drawn per (client, round) at the
   rate that makes 30% of the whole fleet) runs up to 1.2x the rounds: the round where it first reaches
   the clean accuracy is reported.

Figures per run: seconds per round (server round records, wall clock, rounds after the first),
broker RSS, mean client RSS by kind (``/proc/PID/status`` VmRSS sampled mid-run), bytes each client
sent per round and the part outside the model payload (``bytes_out - 4 * parameters * updates``:
JOIN, heartbeats, envelope headers), per C client from its final progress line.

    python bench/bench_federation_scale.py [--clients 100] [--hetero 40] [--full]

Prints one table; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PY_CLIENTS = 4
DROP = 0.3


def rss_mb(pid: int) -> float:
    """Resident set size of ``pid`` in MiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def tree_rss_mb(pid: int) -> float:
    """RSS of ``pid`` and its direct children (a serial bridge and its QEMU)."""
    total = rss_mb(pid)
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        kids = []
    return total + sum(rss_mb(int(k)) for k in kids)


def write_dataset(d: Path, rows: int, seed: int = 5) -> None:
    """train.npz: digits' train split repeated with N(0, 0.03) noise up to ``rows``; the untouched hold-out."""
    from bb_edge.learn.data import SklearnSource

    x, y = SklearnSource("digits").arrays()
    x = np.asarray(x, np.float32).reshape(len(x), -1)
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(x))
    test, train = idx[:360], idx[360:]
    reps = np.resize(train, rows)
    xt = x[reps] + rng.normal(0, 0.03, (rows, x.shape[1])).astype(np.float32)
    np.savez(d / "train.npz", x=xt, y=y[reps].astype(np.int64), x_test=x[test], y_test=y[test].astype(np.int64))


def broker_start(root: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Mosquitto for this run (its fd limit is this process's, raised in main)."""
    from bb_edge.adapters.ops.broker import free_port, mosquitto_binary

    port = free_port()
    conf = root / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_connections -1\n"
                    "max_queued_messages 10000\n")
    broker = subprocess.Popen([mosquitto_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return broker, f"mqtt://127.0.0.1:{port}"


def run(root: Path, exe: Path, clients: int, rounds: int, per_client: int, *, py: int = 0, qemu: int = 0,
        mpy: int = 0, drop: float = 0.0, round_timeout: float = 60.0, dist: Path | None = None,
        tag: str = "") -> dict[str, Any]:
    """One federation; its figures."""
    from bb_edge.adapters.learn.c_mqtt import client_argv, write_client_images
    from bb_edge.adapters.learn.fleet import LearningFleet
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.training.models import mlp
    from bb_edge.training.setup import write_learning_deployment

    d = root / f"dep-{tag}"
    cfg: dict[str, Any] = {"strategy": "fedavg", "clients": clients, "rounds": rounds, "seed": 5, "epochs": 2,
                           "batch_size": 10, "round_timeout": round_timeout, "heartbeat": 5.0,
                           "start_after": 600.0,
                           "data": {"source": "train.npz", "partition": {"type": "partition.iid"}}}
    write_learning_deployment(d, cfg, model=mlp([64, 10], seed=5))
    write_dataset(d, clients * per_client)
    dep = load_deployment(d)
    names = [f"c{i}" for i in range(clients)]
    py_names, m3_names = names[:py], names[py:py + qemu]
    mpy_names = names[py + qemu:py + qemu + mpy]
    c_names = names[py + qemu + mpy:]
    c_drop = min(1.0, drop * clients / max(len(c_names), 1))  # 30% of the whole fleet drops each round
    images = write_client_images(d, c_names, root / f"images-{tag}")
    broker, url = broker_start(root)
    work = root / f"work-{tag}"
    fleet = LearningFleet(dep, url, {}, work)
    fleet.start_file.unlink(missing_ok=True)
    for n in c_names:
        fleet.commands[n] = client_argv(exe, images[n], n, dep.name, url, start_file=fleet.start_file,
                                        progress=fleet.progress_file(n), drop=c_drop, drop_seed=7)
    for n in m3_names:
        assert dist is not None
        fleet.commands[n] = [sys.executable, "-m", "bb_edge.adapters.learn.mcu_fleet", str(d), "--node", n,
                             "--transport", url, "--bundle", str(dist / n), "--state-dir", str(root / f"st-{tag}"),
                             "--start-file", str(fleet.start_file), "--progress", str(fleet.progress_file(n))]
    for n in mpy_names:
        assert dist is not None
        fleet.commands[n] = mpy_vm_argv(dist / n, root / f"mpy-{tag}" / n, url)
    rss: dict[str, float] = {}
    try:
        t0 = time.monotonic()
        fleet.spawn("server")
        fleet.wait_up(["server"], 120)
        for i, n in enumerate(names):  # staggered: 50 at a time
            fleet.spawn(n)
            if i % 50 == 49:
                time.sleep(0.2)
        fleet.wait_up(names, 600)
        startup = time.monotonic() - t0
        fleet.go()
        sampled = False
        deadline = time.monotonic() + 120 + rounds * (round_timeout + 30)
        while time.monotonic() < deadline:
            recs = [r for r in fleet.records("server") if r["kind"] == "round"]
            if not sampled and len(recs) >= max(2, rounds // 2):
                rss = {n: (tree_rss_mb if n in m3_names or n in mpy_names else rss_mb)(p.popen.pid)
                       for n, p in fleet.procs.items()}
                rss["_broker"] = rss_mb(broker.pid)
                sampled = True
            if recs and recs[-1]["round"] >= rounds and recs[-1].get("finished"):
                break
            if any(p.popen.poll() is not None for p in fleet.procs.values()):
                dead = [n for n, p in fleet.procs.items() if p.popen.poll() is not None]
                raise RuntimeError(f"{tag}: node(s) {dead[:5]} exited; logs in {work}")
            time.sleep(0.5)
    finally:
        fleet.stop_all()
        os.kill(broker.pid, signal.SIGTERM)
        broker.wait(10)
    recs = [r for r in fleet.records("server") if r["kind"] == "round"]
    walls = [r["wall"] for r in recs]
    per_round = (walls[-1] - walls[0]) / max(len(walls) - 1, 1) if len(walls) > 1 else float("nan")
    sent, control, dropped = [], [], 0
    for n in c_names:
        f = [r for r in fleet.records(n) if r["kind"] == "final"]
        if f:
            sent.append(f[-1]["bytes_out"] / rounds)
            control.append((f[-1]["bytes_out"] - f[-1]["update_bytes"]) / rounds)
            dropped += int(f[-1]["events"]["RoundDropped"])
    acc = [(int(r["round"]), float(r["accuracy"])) for r in recs if r.get("accuracy") is not None]

    def mean(keys: list[str]) -> float:
        v = [rss[k] for k in keys if rss.get(k)]
        return sum(v) / len(v) if v else float("nan")

    return {"tag": tag, "clients": clients, "c": len(c_names), "py": len(py_names), "m3": len(m3_names),
            "mpy": len(mpy_names), "mpy_mb": mean(mpy_names),
            "rounds": recs[-1]["round"] if recs else 0, "s_round": per_round, "startup": startup,
            "broker_mb": rss.get("_broker", float("nan")), "server_mb": rss.get("server", float("nan")),
            "c_mb": mean(c_names), "py_mb": mean(py_names), "m3_mb": mean(m3_names),
            "sent": float(np.mean(sent)) if sent else float("nan"),
            "control": float(np.mean(control)) if control else float("nan"),
            "drop_frac": dropped / (clients * max(rounds, 1)), "acc": acc}


def main() -> None:
    """Scale run, clean and dropping heterogeneous runs; one table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=100, help="C clients of the scale run")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of the scale run")
    ap.add_argument("--per-client", type=int, default=30, help="samples per client")
    ap.add_argument("--hetero", type=int, default=40, help="clients of the heterogeneous runs (0: skip)")
    ap.add_argument("--hetero-rounds", type=int, default=10)
    ap.add_argument("--qemu", type=int, default=4, help="QEMU Cortex-M3 clients in the heterogeneous runs")
    ap.add_argument("--mpy", type=int, default=4, help="MicroPython VM clients in the heterogeneous runs")
    ap.add_argument("--full", action="store_true", help="the issue's sizes: 1,000 C clients, 100 heterogeneous")
    a = ap.parse_args()
    if a.full:
        a.clients, a.hetero = 1000, 100
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the broker inherits it: one fd per client
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from bb_edge.adapters.learn.c_mqtt import build_client

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        exe = build_client(root / "build")
        rows.append(run(root, exe, a.clients, a.rounds, a.per_client, tag="scale"))
        target_round = None
        if a.hetero:
            dist = None
            if a.qemu or a.mpy:
                dist = build_devices(root, a.hetero, a.hetero_rounds, a.per_client, a.qemu, a.mpy)
            clean = run(root, exe, a.hetero, a.hetero_rounds, a.per_client, py=PY_CLIENTS, qemu=a.qemu, mpy=a.mpy,
                        round_timeout=60.0, dist=dist, tag="clean")
            rows.append(clean)
            limit = math.ceil(1.2 * a.hetero_rounds)
            dropping = run(root, exe, a.hetero, limit, a.per_client, py=PY_CLIENTS, qemu=a.qemu, mpy=a.mpy, drop=DROP,
                           round_timeout=3.0, dist=dist, tag="drop30")
            rows.append(dropping)
            target = clean["acc"][-1][1] if clean["acc"] else float("nan")
            target_round = next((r for r, v in dropping["acc"] if v >= target), None)
    print(f"FedAvg digits (softmax regression, {a.per_client} samples per client, 2 epochs) over one Mosquitto, "
          "one OS process per client")
    print(f"{'run':>7}{'clients':>8}{'C/py/M3/mpy':>13}{'rounds':>7}{'s/round':>9}{'startup s':>10}{'broker MB':>10}"
          f"{'server MB':>10}{'C cl. MB':>9}{'py cl. MB':>10}{'M3 cl. MB':>10}{'mpy cl. MB':>11}{'B/cl/rnd':>9}"
          f"{'ctrl B':>7}"
          f"{'dropped':>8}{'final acc':>10}")
    for r in rows:
        acc = r["acc"][-1][1] if r["acc"] else float("nan")
        kinds = f"{r['c']}/{r['py']}/{r['m3']}/{r['mpy']}"
        print(f"{r['tag']:>7}{r['clients']:>8}{kinds:>13}{r['rounds']:>7}"
              f"{r['s_round']:>9.3f}{r['startup']:>10.1f}{r['broker_mb']:>10.1f}{r['server_mb']:>10.1f}"
              f"{r['c_mb']:>9.1f}{r['py_mb']:>10.1f}{r['m3_mb']:>10.1f}{r['mpy_mb']:>11.1f}{r['sent']:>9.0f}{r['control']:>7.0f}"
              f"{r['drop_frac']:>8.0%}{acc:>10.3f}")
    if a.hetero:
        print(f"clean run: accuracy {target:.3f} after {a.hetero_rounds} rounds; with 30% dropping each round it is "
              f"reached at round {target_round} (limit {math.ceil(1.2 * a.hetero_rounds)} = 1.2x): "
              f"{'within' if target_round is not None else 'NOT within'} 1.2x")


def build_devices(root: Path, clients: int, rounds: int, per_client: int, qemu: int, mpy: int) -> Path:
    """QEMU Cortex-M3 and MicroPython client bundles (``bb-edge build``) for the heterogeneous runs.

    Built against a deployment equal to the runs' but for ``rounds`` and ``round_timeout``, which the
    bundles do not hold (same data, partition, model and settings)."""
    from bb_edge.bundle.build import build_all
    from bb_edge.training.models import mlp
    from bb_edge.training.setup import write_learning_deployment

    d = root / "dep-devices"
    cfg = {"strategy": "fedavg", "clients": clients, "rounds": rounds, "seed": 5, "epochs": 2, "batch_size": 10,
           "round_timeout": 60.0, "heartbeat": 5.0, "start_after": 600.0,
           "data": {"source": "train.npz", "partition": {"type": "partition.iid"}}}
    write_learning_deployment(d, cfg, model=mlp([64, 10], seed=5))
    write_dataset(d, clients * per_client)
    targets = [f"c{i}=qemu-cortex-m3" for i in range(PY_CLIENTS, PY_CLIENTS + qemu)]
    targets += [f"c{i}=esp32-micropython" for i in range(PY_CLIENTS + qemu, PY_CLIENTS + qemu + mpy)]
    build_all(d, targets, root / "dist", None, {})
    return root / "dist"


def mpy_vm_argv(bundle: Path, dst: Path, url: str) -> list[str]:
    """A MicroPython training bundle run in the real MicroPython (WebAssembly) VM behind bbnode/mqtt.py.

    The harness of tests/micropython/test_micropython_train.py's fleet test (its VM client and bridge
    scripts; the VM's npm package installed once into a copy of tests/support/mpy_vm under /tmp)."""
    import shutil

    from bb_edge.mpy.cross import runtime_dir
    from tests.micropython.test_micropython_train import VM_BRIDGE, VM_CLIENT, _client_dir
    from tests.support.mpy_vm import VM_DIR, fetch_umqtt, write_shims

    vm_dir = Path(tempfile.gettempdir()) / "bb-edge-bench-mpy-vm"
    if not (vm_dir / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        shutil.copytree(VM_DIR, vm_dir, dirs_exist_ok=True, ignore=shutil.ignore_patterns("node_modules"))
        subprocess.run([shutil.which("npm") or "npm", "ci", "--no-audit", "--no-fund", "--prefix", str(vm_dir)],
                       check=True, timeout=300, capture_output=True)
    dst.parent.mkdir(parents=True, exist_ok=True)
    c = _client_dir(bundle, dst, int(url.rsplit(":", 1)[1]))
    paths = [str(write_shims(dst.parent / "shims")), str(fetch_umqtt()), str(runtime_dir())]
    (c / "_vm_client.py").write_text(VM_CLIENT)
    vm_argv = [shutil.which("node") or "node", str(vm_dir / "run_wasm.mjs"), str(c / "lib"), str(c),
               str(c / "_vm_client.py"), "64", "--lines"]
    (c / "_bridge.py").write_text(VM_BRIDGE.format(here=str(c), paths=paths, vm_argv=vm_argv))
    return [sys.executable, "-u", str(c / "_bridge.py")]


if __name__ == "__main__":
    main()
