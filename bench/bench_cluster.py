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
on the cluster with two member kills (KILL_ROUNDS rounds): member 1 (with the server) SIGKILLed as round 2
opens and brought back after the down time, then member 2 the same once member 1 is back and another round
closed. For each kill: the connections the member held, and the seconds from the kill until each client
re-announced ``up`` (seen live by a ``_status`` watcher on member 3); the rounds completed / aborted, and the
final model against FedAvg recomputed outside the runtime (tests/support/fedavg_oracle.py, ORT per client
over its own batch order) over the completed rounds.

    python bench/bench_cluster.py                 # CI size: 60 requests, 20 C clients x 6 rounds, down 5 s
    BB_BENCH_CLUSTER_LONG=1 python bench/bench_cluster.py   # 600 requests, 1,000 C clients, down 60 s
    BB_BENCH_CLUSTER_CLIENTS=300 ...              # another number of C clients (a machine too small for 1,000)
    BB_BENCH_CLUSTER_PARTS=fed-kill ...           # only some rows: pipeline, fed-mosquitto, fed-cluster, fed-kill
    BB_BENCH_CLUSTER_KILL_ROUNDS=80 ...           # rounds of the member-kill row (12; 60 at full size)

The FedAvg rows also count the updates a round lost: its cohort minus the updates it accepted (the server's
``RoundCompleted`` events), summed over the run, and the connect storm: seconds from the fleet's launch until
every client was connected (``conn s``) and until the server had every client's JOIN (``join s``), and the
connections the clients made beyond one each (``extra``, from their exit counters: reconnects, handovers).

On the cluster the clients are paced (issue 35's connect storm, docs/transports.md): client ``ci`` starts on
member ``i mod 3`` (``client_argv(first_member=i)``), its first connection waits a random 0..S s with
S = clients / CONNECT_RATE, and its reconnect back-off is jittered and capped at BACKOFF_MAX s.
``BB_BENCH_CLUSTER_PACING=0`` runs them as before (all on member 1, no spread, 2 s cap) for a paired
comparison. The member-kill row then reports, for the clients that were on the killed member: how many
connections it held at the kill (``on``), how many clients re-announced ``up`` after it (``back``) and the
p50 / max of their seconds from the kill to that re-announcement (goal: all within 30 s).
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
#: the member-kill row's rounds: room for two kills, each member down DOWN s and restarted
KILL_ROUNDS = int(os.environ.get("BB_BENCH_CLUSTER_KILL_ROUNDS", "60" if LONG else "12"))
PACING = os.environ.get("BB_BENCH_CLUSTER_PACING", "1") == "1"
#: first connections per second the fleet is spread over (clients / CONNECT_RATE seconds)
CONNECT_RATE = float(os.environ.get("BB_BENCH_CLUSTER_CONNECT_RATE", "25"))
BACKOFF_MAX = 8.0 if FED_CLIENTS >= 500 else 2.0
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
        self.back: dict[str, float] = {}  # client -> seconds from arm() to its first "up" after it
        self.kills: list[dict[str, float]] = []  # each arm()'s back
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
            self.back.setdefault(name, time.monotonic() - self.t0)
            if self.done_at is None and self.seen >= self.names:
                self.done_at = time.monotonic() - self.t0

    def arm(self) -> None:
        """From now on, count re-announcements (each arm starts a new ``back`` in ``kills``)."""
        self.back = {}
        self.kills.append(self.back)
        self.t0, self.armed = time.monotonic(), True

    def stop(self) -> None:
        """Disconnect."""
        self.c.disconnect()
        self.c.loop_stop()


def established(port: int) -> int:
    """TCP connections established to local ``port`` (the server side: the clients of a member)."""
    n = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for ln in lines:
            f = ln.split()
            if f[3] == "01" and int(f[1].rsplit(":", 1)[1], 16) == port:  # state 01: ESTABLISHED
                n += 1
    return n


def exit_counters(work: Path, names: list[str]) -> tuple[int, int]:
    """``(connects, handovers)`` summed over the C clients' exit lines in their logs."""
    import re

    connects = handovers = 0
    for n in names:
        text = (work / f"{n}.log").read_text(errors="replace") if (work / f"{n}.log").exists() else ""
        m = re.findall(r"connects=(\d+) handovers=(\d+)", text)
        if m:
            connects += int(m[-1][0])
            handovers += int(m[-1][1])
    return connects, handovers


def federation(dep: Deployment, url: str, exe: Path, images: dict[str, Path], work: Path,
               cluster: RabbitCluster | None = None, victims: tuple[int, ...] = (), paced: bool = False,
               rounds: int | None = None) -> dict[str, float]:
    """FedAvg with the C clients on ``url``: seconds per round, the connect storm; with ``victims``, those
    members of ``cluster`` SIGKILLed in turn (the first as round 2 opens, each next one once the previous is
    back and another round has closed; each down DOWN s), the reconnect times of the clients each one held,
    and whether the final model equals the FedAvg oracle (when every round took its whole cohort)."""
    import json

    from bb_edge.adapters.learn.c_mqtt import client_argv
    from bb_edge.adapters.learn.fleet import run_learning_fleet

    assert dep.directory is not None
    names = sorted(images, key=lambda n: int(n[1:]))
    pace: dict[str, float] = {}
    if paced:
        pace = {"backoff_max": BACKOFF_MAX, "connect_spread": len(names) / CONNECT_RATE}
    cmds = {n: client_argv(exe, images[n], n, dep.name, url, start_file=work / "start",
                           first_member=i if paced else 0, **pace) for i, n in enumerate(names)}
    out: dict[str, float] = {}
    watch = StormWatch(url, dep.name, set(images)) if victims else None
    launched = time.monotonic()
    joins: dict[str, float] = {}

    def joiner() -> None:  # the connect storm: every client connected (the start file), every JOIN taken
        log = work / "server.log"
        while not done.is_set() and "joined" not in joins:
            if "connected" not in joins and (work / "start").exists():
                joins["connected"] = time.monotonic() - launched
            text = log.read_text(errors="replace") if log.exists() else ""
            if text.count("event PeerJoined ") >= len(names):
                joins["joined"] = time.monotonic() - launched
            time.sleep(0.5)

    def rounds_done() -> int:
        server = work / "server.progress.jsonl"
        lines = server.read_text().splitlines() if server.exists() else []
        return sum(1 for ln in lines[:-1] if json.loads(ln).get("kind") == "round")  # the last may be partial

    def killer() -> None:
        assert watch is not None and cluster is not None
        at = 2
        for k, victim in enumerate(victims):
            while not done.is_set() and rounds_done() < at:
                time.sleep(0.05)
            if done.is_set():
                return
            # its clients (and the server, on member 1) at the kill
            out[f"on_{k + 1}"] = float(established(cluster.files.members[victim].port))
            out[f"member_{k + 1}"] = float(victim + 1)
            watch.arm()
            cluster.kill(victim)
            time.sleep(DOWN)
            # a member recovering 1,000 clients' quorum queues on a loaded machine takes minutes to listen
            cluster.start_member(victim, timeout=900.0 if LONG else 120.0)
            at = rounds_done() + 1

    done = threading.Event()
    th = threading.Thread(target=killer, daemon=True)
    jt = threading.Thread(target=joiner, daemon=True)
    jt.start()
    if victims:
        th.start()
    try:
        res = run_learning_fleet(dep, url, workdir=work, commands=cmds, timeout=3600, rounds=rounds,
                                 connect_timeout=900 if LONG else 600)
    finally:
        done.set()
        jt.join(60)
        if victims:
            th.join(1800)
        if watch is not None:
            watch.stop()
    out["connected_s"] = joins.get("connected", NAN)
    out["joined_s"] = joins.get("joined", NAN)
    connects, handovers = exit_counters(work, names)
    out["extra_connects"] = float(connects - len(names))
    out["handovers"] = float(handovers)
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
        for k, back_k in enumerate(watch.kills):
            back = sorted(back_k.values())
            out[f"back_{k + 1}"] = float(len(back))
            out[f"back_p50_{k + 1}_s"] = float(np.percentile(back, 50)) if back else NAN
            out[f"back_max_{k + 1}_s"] = back[-1] if back else NAN
        out["model_diff"] = oracle_diff(dep, res.final_models.get("server"), fields, names)
    return out


def oracle_diff(dep: Deployment, model, completed: list[dict[str, str]], names: list[str]) -> float:  # type: ignore[no-untyped-def]
    """max |server's final model - FedAvg recomputed outside the runtime| over the completed rounds (every
    client a C one: its own batch order, ORT per client); NaN when a round took less than the whole fleet
    (which clients trained would then be needed) or the server left no model."""
    from bb_edge.adapters.learn.node import load_module
    from tests.support.fedavg_oracle import fedavg_rounds

    if model is None or not completed or any(int(f["accepted"]) != len(names) for f in completed):
        return NAN
    assert dep.directory is not None
    module = load_module(dep.extra["learning"], dep.directory)
    want = fedavg_rounds(module, dict.fromkeys(names, "mcu"), [int(f["round"]) for f in completed])
    return float(np.max(np.abs(np.asarray(model, dtype=np.float64).reshape(-1) - want)))


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
        fnone = {"s_per_round": NAN, "worst_round_s": NAN, "completed": NAN, "aborted": NAN, "lost": NAN,
                 "connected_s": NAN, "joined_s": NAN, "extra_connects": NAN}
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
                fed_clu = federation(fdep, furl, exe, images, Path(tmp) / "w-clu", paced=PACING)
                progress("FedAvg, cluster", fed_clu)
            if "fed-kill" in PARTS:
                fed_kill = federation(fdep, furl, exe, images, Path(tmp) / "w-kill", cluster=cluster,
                                      victims=(0, 1), paced=PACING, rounds=KILL_ROUNDS)
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
    pacing = (f"paced: start member i mod 3, first connect spread over {FED_CLIENTS / CONNECT_RATE:.0f} s, "
              f"back-off cap {BACKOFF_MAX:g} s" if PACING else "unpaced: every client starts on member 1")
    print(f"\nFedAvg, {FED_CLIENTS} C clients (bbrt-learn-mqtt) + the Python server, {FED_ROUNDS} rounds, digits mlp; "
          f"cluster rows {pacing}")
    print(f"{'broker':34s} {'s/round':>8s} {'ratio':>6s} {'worst s':>8s} {'done':>5s} {'aborted':>7s} {'lost':>5s} "
          f"{'conn s':>7s} {'join s':>7s} {'extra':>6s}")
    for label, f in (("mosquitto (1 process)", fed_mosq), ("rabbitmq 3 members", fed_clu),
                     ("rabbitmq, member 1 SIGKILLed", fed_kill)):
        print(f"{label:34s} {f['s_per_round']:8.3f} {f['s_per_round'] / fed_mosq['s_per_round']:6.2f} "
              f"{f['worst_round_s']:8.2f} {f['completed']:5.0f} {f['aborted']:7.0f} {f['lost']:5.0f} "
              f"{f.get('connected_s', NAN):7.1f} {f.get('joined_s', NAN):7.1f} {f.get('extra_connects', NAN):6.0f}")
    for k in (1, 2):
        print(f"kill {k} (member {fed_kill.get(f'member_{k}', NAN):.0f}): {fed_kill.get(f'on_{k}', NAN):.0f} "
              f"connections on it; {fed_kill.get(f'back_{k}', NAN):.0f} clients re-announced up after it, "
              f"p50 {fed_kill.get(f'back_p50_{k}_s', NAN):.2f} s, max {fed_kill.get(f'back_max_{k}_s', NAN):.2f} s "
              f"(goal: the killed member's within 30 s)")
    print(f"member-kill row ({KILL_ROUNDS} rounds): final model vs FedAvg recomputed over the completed rounds, "
          f"max |diff| {fed_kill.get('model_diff', NAN):.2e} (NaN: not every round took the whole fleet)")


if __name__ == "__main__":
    main()
