"""A 3-member RabbitMQ cluster against one Mosquitto, in one run (issue 35, Build 3 and 4).

The same 3-stage squeezenet pipeline (three ``bb-edge node`` processes, the host in this process) runs on
one Mosquitto and then on the cluster (``bb-edge broker --kind rabbitmq``), both on loopback, sharing this
machine's cores. Printed in one table: requests/s through the pipeline on each, the cluster's ratio (goal
>= 0.5x), broker RSS (per member), and, with the member every client starts on SIGKILLed under traffic:
the host's reconnect time, the longest gap between two outputs, the p99 of the gaps between outputs in the
kill window (from the kill until the member is back; goal <= 2 s) and requests lost / outputs accepted twice
(the host's exactly-once count).

Then a FedAvg federation of C learning clients (``bbrt-learn-mqtt``, firmware/ports/posix-mqtt/learn_main.c;
the Python server as a ``bb-edge node`` process): seconds per round on one Mosquitto and on the cluster, and
on the cluster with the member every client starts on SIGKILLed at round 2 (brought back after the down
time): the reconnect storm (seconds from the kill until every client has re-announced ``up`` on another
member, seen live by a ``_status`` watcher) and the rounds completed / aborted.

    python bench/bench_cluster.py                 # CI size: 60 requests, 20 C clients x 6 rounds, down 5 s
    BB_BENCH_CLUSTER_LONG=1 python bench/bench_cluster.py   # 600 requests, 1,000 C clients, down 60 s
    BB_BENCH_CLUSTER_CLIENTS=300 ...              # another number of C clients (a machine too small for 1,000)
    BB_BENCH_CLUSTER_PARTS=fed-kill ...           # only some rows: pipeline, fed-mosquitto, fed-cluster, fed-kill

The FedAvg rows also count the updates a round lost: its cohort minus the updates it accepted (the server's
``RoundCompleted`` events), summed over the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

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
FED_CLIENTS = int(os.environ.get("BB_BENCH_CLUSTER_CLIENTS", "1000" if LONG else "20"))
FED_ROUNDS = 6
PARTS = set(os.environ.get("BB_BENCH_CLUSTER_PARTS", "pipeline,fed-mosquitto,fed-cluster,fed-kill").split(","))
NAN = float("nan")


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
        t_kill = t_back = None
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
                    if host.stats.outputs - base > seen:  # outputs that still come in while it reconnects
                        seen = host.stats.outputs - base
                        times.append(time.monotonic())
                    time.sleep(0.001)
                out["reconnect_s"] = time.monotonic() - t_kill
            if killer is not None and t_back is None and not killer.is_alive():
                t_back = time.monotonic()  # the killed member is back (its restart returned)
            time.sleep(0.001)
        took = time.monotonic() - t0
        if killer is not None:
            killer.join(600)
        out["rps"] = len(requests) / took
        out["lost"] = len(requests) - len(got)
        out["twice"] = host.stats.outputs - base - len(got)
        waits = [b - a for a, b in zip(times, times[1:])]
        out["max_gap_s"] = max(waits) if waits else 0.0
        # the kill window: from the kill until the member is back (or the run ends first); each gap between two
        # outputs that overlaps it counts, the one spanning the kill included
        end = t_back if t_back is not None else time.monotonic()
        window = [b - a for a, b in zip(times, times[1:]) if t_kill is not None and b > t_kill and a < end]
        out["p99_gap_s"] = float(np.percentile(window if kill is not None else waits, 99)) if waits else 0.0
        out["gaps"] = float(len(window) if kill is not None else len(waits))
    finally:
        for p in procs.values():
            stop_process(p)
        host.close()
    return out


def learning_dep(root: Path) -> Deployment:
    """A FedAvg digits deployment for FED_CLIENTS C clients (batch 1 at 1,000: a shard holds ~2 samples)."""
    from bb_edge.training.models import mlp
    from bb_edge.training.setup import write_learning_deployment

    learning = {"strategy": "fedavg", "clients": FED_CLIENTS, "rounds": FED_ROUNDS, "epochs": 1, "seed": 5,
                "batch_size": 16 if FED_CLIENTS <= 50 else 1, "round_timeout": 120.0, "heartbeat": 2.0,
                "data": {"source": "digits", "partition": {"type": "partition.iid"}}}
    write_learning_deployment(root, learning, model=mlp([64, 10], seed=5))
    return load_deployment(root)


class StormWatch:
    """Counts the clients that announce ``up`` live after :meth:`arm` (a ``_status`` subscriber on ``url``)."""

    def __init__(self, url: str, dep: str, names: set[str]) -> None:
        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        from bb_edge.adapters.transports.mqtt import MqttConfig

        cfg = MqttConfig.from_url(url).for_node("_status")
        self.names, self.seen, self.t0, self.done_at = names, set(), 0.0, None  # type: ignore[var-annotated]
        self.armed, self.dep = False, dep
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"_status-{os.getpid():x}-9", clean_session=True,
                        protocol=paho.MQTTv311)
        cfg.secure(c)
        # the filter _status may read (its topic permission is the ACL's bb/+/presence/+, not one deployment's)
        c.on_connect = lambda cl, u, f, rc, pr: cl.subscribe(f"{cfg.prefix}/+/presence/+", 1)
        c.on_message = self._on_message
        host, port = cfg.members[-1]  # the last member: not the one killed
        c.connect(host, port, 10)
        c.loop_start()
        self.c = c

    def _on_message(self, client, userdata, msg) -> None:  # type: ignore[no-untyped-def]
        _, dep, _, name = msg.topic.split("/", 3)
        if dep != self.dep:
            return
        # RabbitMQ never sends retained messages to a wildcard filter: all of these are live (it may still
        # mark a live message retained), so every "up" after arm() is a client (re)connecting
        if self.armed and msg.payload == b"up" and name in self.names:
            self.seen.add(name)
            if self.done_at is None and self.seen >= self.names:
                self.done_at = time.monotonic() - self.t0

    def arm(self) -> None:
        """From now on, count re-announcements."""
        self.t0, self.armed = time.monotonic(), True

    def stop(self) -> None:
        """Disconnect."""
        self.c.disconnect()
        self.c.loop_stop()


def federation(dep: Deployment, url: str, exe: Path, images: dict[str, Path], work: Path,
               kill=None, watch_url: str | None = None) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """FedAvg with the C clients on ``url``: seconds per round; with ``kill``, run at round 2, the storm."""
    import json

    from bb_edge.adapters.learn.c_mqtt import client_argv
    from bb_edge.adapters.learn.fleet import run_learning_fleet

    assert dep.directory is not None
    cmds = {n: client_argv(exe, images[n], n, dep.name, url, start_file=work / "start") for n in images}
    out: dict[str, float] = {}
    watch = StormWatch(watch_url, dep.name, set(images)) if watch_url else None

    def killer() -> None:
        server = work / "server.progress.jsonl"
        while not done.is_set():
            lines = server.read_text().splitlines() if server.exists() else []
            if sum(1 for ln in lines[:-1] if json.loads(ln).get("kind") == "round") >= 2:
                break
            time.sleep(0.05)
        else:
            return
        assert watch is not None and kill is not None
        watch.arm()
        kill()

    done = threading.Event()
    th = threading.Thread(target=killer, daemon=True)
    if kill is not None:
        th.start()
    try:
        res = run_learning_fleet(dep, url, workdir=work, commands=cmds, timeout=3600,
                                 connect_timeout=900 if LONG else 600)
    finally:
        done.set()
        if kill is not None:
            th.join(900)
        if watch is not None:
            watch.stop()
    summary = res.summary()
    rounds = summary["round_seconds"]
    out["s_per_round"] = float(sorted(rounds)[len(rounds) // 2]) if rounds else float("nan")  # the median
    out["worst_round_s"] = float(max(rounds)) if rounds else float("nan")
    out["completed"] = float(res.counts.get("RoundCompleted", 0))
    log = (work / "server.log").read_text(errors="replace").splitlines() if (work / "server.log").exists() else []
    fields = [dict(kv.split("=", 1) for kv in ln.split()[2:] if "=" in kv)
              for ln in log if ln.startswith("event RoundCompleted ")]
    out["lost"] = float(sum(int(f["cohort"]) - int(f["accepted"]) for f in fields))
    out["aborted"] = float(res.counts.get("RoundAborted", 0))
    if watch is not None:
        out["storm_s"] = watch.done_at if watch.done_at is not None else float("nan")
        out["reconnected"] = float(len(watch.seen))
    return out


def progress(label: str, figures: dict[str, float]) -> None:
    """One measurement as it is made (stderr: a long run killed midway keeps what it measured)."""
    print(f"[{time.strftime('%H:%M:%S')}] {label}: " + ", ".join(f"{k}={v:.3f}" for k, v in figures.items()),
          file=sys.stderr, flush=True)


def main() -> None:
    """Mosquitto, then the cluster, then the cluster with a member killed: one table."""
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "dep"
        subprocess.run([sys.executable, "-m", "bb_edge.cli", "compile", str(light("squeezenet")), "--nodes", "3",
                        "-o", str(d)], check=True, capture_output=True)
        dep = load_deployment(d)
        requests = load_requests(dep, None, count=REQUESTS, seed=1)
        from bb_edge.adapters.learn.c_mqtt import build_client, write_client_images

        fdep = learning_dep(Path(tmp) / "fed")
        exe = build_client(Path(tmp) / "cbuild")
        names = [f"c{i}" for i in range(FED_CLIENTS)]
        images = write_client_images(fdep.directory, names, Path(tmp) / "images")  # type: ignore[arg-type]
        none = {"rps": NAN, "lost": NAN, "twice": NAN, "max_gap_s": NAN, "p99_gap_s": NAN, "gaps": NAN}
        mosq, clu, killed, rss, mosq_rss = dict(none), dict(none), dict(none), [0, 0, 0], 0
        fnone = {"s_per_round": NAN, "worst_round_s": NAN, "completed": NAN, "aborted": NAN, "lost": NAN}
        fed_mosq, fed_clu, fed_kill = dict(fnone), dict(fnone), dict(fnone)
        if "pipeline" in PARTS:
            broker = Broker(write_broker_files(Path(tmp) / "mosq", dep)).start()
            try:
                mosq = pipeline(dep, broker.files.url(), requests)
                progress("pipeline, mosquitto", mosq)
                assert broker.pid is not None
                mosq_rss = rss_kib(broker.pid)
            finally:
                broker.stop()
        if "fed-mosquitto" in PARTS:
            fbroker = Broker(write_broker_files(Path(tmp) / "fmosq", fdep)).start()
            try:
                fed_mosq = federation(fdep, fbroker.files.url(), exe, images, Path(tmp) / "w-mosq")
                progress("FedAvg, mosquitto", fed_mosq)
            finally:
                fbroker.stop()
        t0 = time.monotonic()
        cluster = RabbitCluster(write_cluster_files(Path(tmp) / "cluster", dep, members=3)).start()
        started = time.monotonic() - t0
        try:
            url = cluster.files.url()

            def kill() -> None:
                cluster.kill(0)
                time.sleep(DOWN)
                # a member recovering 1,000 clients' quorum queues on a loaded machine takes minutes to listen
                cluster.start_member(0, timeout=900.0 if LONG else 120.0)

            if "pipeline" in PARTS:
                clu = pipeline(dep, url, requests)
                progress("pipeline, cluster", clu)
                rss = cluster.rss_kib()
                killed = pipeline(dep, url, requests, kill=kill)
                progress("pipeline, cluster, member killed", killed)
            creds = cluster.add_deployment(fdep)
            furl = "mqtt://" + ",".join(f"{cluster.files.host}:{m.port}" for m in cluster.files.members)
            furl += f"?creds={creds}"
            if "fed-cluster" in PARTS:
                fed_clu = federation(fdep, furl, exe, images, Path(tmp) / "w-clu")
                progress("FedAvg, cluster", fed_clu)
            if "fed-kill" in PARTS:
                fed_kill = federation(fdep, furl, exe, images, Path(tmp) / "w-kill", kill=kill, watch_url=furl)
                progress("FedAvg, cluster, member killed", fed_kill)
        finally:
            cluster.stop()
    print(f"{REQUESTS} requests, window {WINDOW}, 3 node processes, light squeezenet; cluster started in "
          f"{started:.0f} s; killed member down {DOWN:.0f} s")
    print(f"{'broker':34s} {'req/s':>7s} {'ratio':>6s} {'RSS MiB':>16s} {'reconnect s':>11s} {'max gap s':>9s} "
          f"{'p99 gap s':>9s} {'lost':>4s} {'twice':>5s}")
    print(f"{'mosquitto (1 process)':34s} {mosq['rps']:7.1f} {1.0:6.2f} {mosq_rss / 1024:16.1f} {'-':>11s} "
          f"{mosq['max_gap_s']:9.2f} {mosq['p99_gap_s']:9.2f} {mosq['lost']:4.0f} {mosq['twice']:5.0f}")
    per = "/".join(f"{r / 1024:.0f}" for r in rss)
    print(f"{'rabbitmq 3 members':34s} {clu['rps']:7.1f} {clu['rps'] / mosq['rps']:6.2f} {per:>16s} {'-':>11s} "
          f"{clu['max_gap_s']:9.2f} {clu['p99_gap_s']:9.2f} {clu['lost']:4.0f} {clu['twice']:5.0f}")
    print(f"{'rabbitmq, member 1 SIGKILLed':34s} {killed['rps']:7.1f} {killed['rps'] / mosq['rps']:6.2f} "
          f"{'':>16s} {killed.get('reconnect_s', float('nan')):11.2f} {killed['max_gap_s']:9.2f} "
          f"{killed['p99_gap_s']:9.2f} {killed['lost']:4.0f} {killed['twice']:5.0f}")
    print(f"(p99 gap: over all gaps between outputs; SIGKILLed row: over the {killed['gaps']:.0f} gaps in the kill "
          f"window, from the kill until the member was back or the run ended; goal <= 2 s)")
    print(f"\nFedAvg, {FED_CLIENTS} C clients (bbrt-learn-mqtt) + the Python server, {FED_ROUNDS} rounds, digits mlp")
    print(f"{'broker':34s} {'s/round':>8s} {'ratio':>6s} {'worst s':>8s} {'done':>5s} {'aborted':>7s} "
          f"{'storm s':>8s} {'back':>5s} {'lost':>5s}")
    for label, f in (("mosquitto (1 process)", fed_mosq), ("rabbitmq 3 members", fed_clu),
                     ("rabbitmq, member 1 SIGKILLed", fed_kill)):
        print(f"{label:34s} {f['s_per_round']:8.3f} {f['s_per_round'] / fed_mosq['s_per_round']:6.2f} "
              f"{f['worst_round_s']:8.2f} {f['completed']:5.0f} {f['aborted']:7.0f} "
              f"{f.get('storm_s', float('nan')):8.2f} {f.get('reconnected', float('nan')):5.0f} {f['lost']:5.0f}")


if __name__ == "__main__":
    main()
