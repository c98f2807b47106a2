"""Where one hop's time goes: SmolLM2 split over ``bb-edge node`` processes on Mosquitto, every stage stamped.

    python bench/llm_hop_trace.py [--nodes 3] [--tokens 64] [--reps 3] [--work DIR]

Every process (the host here, each node) loads bench/llm_hop_probe.py through a generated ``sitecustomize``
and stamps, with ``time.monotonic_ns`` (one clock across processes), the publish call, the socket write, the
receiving network thread's wake-up, the packet's first byte read, ``on_message``, the engine's ``poll`` and
the host's stepper. The stamps of one token are lined up by the envelope's request id, and each stage's
median (and 90th percentile) over every decoded token is printed, with the load average. Medians of
per-stage differences do not depend on how fast the CPU is at that moment as much as a tokens/s figure does,
but every stage includes waits for a core on a loaded machine: read them with the load.

Stages of a hop from sender S to receiver R:

- ``S pub->send``: ``publish()`` called -> the write of its PUBLISH to S's socket starts (paho's queue, a
  wake-up of S's network thread when the caller is another thread);
- ``S send->R wake``: the write starts -> R's network thread returns from ``select`` (kernel, Mosquitto,
  kernel, the scheduler waking R);
- ``R wake->msg``: R reads and parses the packet, up to ``on_message``;
- ``R msg->poll``: ``on_message`` up to the engine's ``poll`` (the transport's checks, deliver, the inbox);
- ``R poll``: the engine's ``poll`` (ONNX Runtime's compute of the stage and the engine around it);
- ``R poll->pub``: ``poll`` returned -> the output's ``publish()`` called.
At the host: ``host msg->waited`` (on_message on paho's thread -> the outputs taken, by the generate loop or
a chained step) and ``host waited->pub(next)`` (the next step built and published).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SITE = "import os\nif os.environ.get('BB_HOP_TRACE'):\n    import llm_hop_probe\n    llm_hop_probe.install()\n"


def load(trace: Path) -> dict[str, list[list[str]]]:
    """Every process's records: name -> rows (the first field is the kind)."""
    out: dict[str, list[list[str]]] = {}
    for f in sorted(trace.glob("*.tsv")):
        out[f.name.rsplit("-", 1)[0]] = [line.rstrip("\n").split("\t") for line in f.open()]
    return out


def analyse(recs: dict[str, list[list[str]]], rids: set[int], order: list[str]) -> dict[str, list[float]]:
    """Per-stage durations (us) for every request id in ``rids`` along the chain ``order`` (host first)."""
    first: dict[tuple[str, str, int], list[str]] = {}
    for proc, rows in recs.items():
        for r in rows:
            kind = r[0]
            rid = int(r[4]) if kind in ("send", "pub", "msg", "submit", "waited") else -1
            if kind == "poll":
                first.setdefault((proc, "polls", 0), [])
                first[(proc, "polls", 0)].append(r)  # type: ignore[arg-type]
                continue
            if rid in rids and (proc, kind, rid) not in first:
                first[(proc, kind, rid)] = r
    polls = {p: sorted((int(r[1]), int(r[2])) for r in first.get((p, "polls", 0), [])) for p in order}  # type: ignore[misc]

    def poll_after(proc: str, t: int) -> tuple[int, int] | None:
        for a, b in polls[proc]:
            if a >= t:
                return a, b
        return None

    st: dict[str, list[float]] = defaultdict(list)
    chain = order + [order[0]]
    for rid in sorted(rids):
        total = 0.0
        ok = True
        for s, r in zip(chain, chain[1:]):
            pub, send, msg = first.get((s, "pub", rid)), first.get((s, "send", rid)), first.get((r, "msg", rid))
            if not (pub and send and msg):
                ok = False
                break
            hop = f"{s}->{r}"
            # the write's start: its end also waits for the GIL after the syscall (measured: up to 10 ms under load)
            st[f"{hop} S pub->send"].append((int(send[1]) - int(pub[1])) / 1e3)
            st[f"{hop} S send->R wake"].append((int(msg[6]) - int(send[1])) / 1e3)
            st[f"{hop} R wake->msg"].append((int(msg[1]) - int(msg[6])) / 1e3)
            st[f"{hop} R firstbyte->msg"].append((int(msg[1]) - int(msg[7])) / 1e3)
            st[f"{hop} S pub -> R msg"].append((int(msg[1]) - int(pub[1])) / 1e3)
            total += (int(msg[1]) - int(pub[1])) / 1e3
            if r != order[0]:
                p = poll_after(r, int(msg[1]))
                nxt = first.get((r, "pub", rid))
                if p and nxt:
                    st[f"{hop} R msg->poll"].append((p[0] - int(msg[1])) / 1e3)
                    st[f"{hop} R poll"].append((p[1] - p[0]) / 1e3)
                    st[f"{hop} R poll->pub"].append((int(nxt[1]) - p[1]) / 1e3)
            else:
                w = first.get((r, "waited", rid))
                if w:
                    st["host msg->waited"].append((int(w[2]) - int(msg[1])) / 1e3)
        if ok:
            st["sum of pub->msg over hops"].append(total)
    # the host's turn: outputs in hand -> the next step's publish
    waited = sorted((int(r[2]), int(r[4])) for r in recs[order[0]] if r[0] == "waited")
    subs = sorted((int(r[1]), int(r[2]), int(r[4])) for r in recs[order[0]] if r[0] == "submit")
    pubs = {int(r[4]): int(r[1]) for r in recs[order[0]] if r[0] == "pub" and int(r[4]) in rids}
    for t, rid in waited:
        nxt = next((s for s in subs if s[0] >= t), None)
        if rid in rids and nxt and nxt[2] in pubs:
            st["host waited->pub(next)"].append((pubs[nxt[2]] - t) / 1e3)
    return st


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--context", type=int, default=512)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "bb-hop-trace")
    ap.add_argument("--url-options", default="", help="extra ?options of the transport URL (e.g. qos=0)")
    a = ap.parse_args()

    from bb_edge.adapters.fleet.generation import GenerationStats, generate_many, open_stepper
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.engine.generation import Generation
    from bb_edge.llm.fleet import compile_gguf
    from bb_edge.llm.gguf_load import smollm2_path

    dep_dir = a.work / f"llm{a.nodes}"
    if not dep_dir.exists():
        compile_gguf(smollm2_path(), dep_dir, nodes=a.nodes, weights="int4", context=a.context)
    dep = load_deployment(dep_dir)
    trace = Path(tempfile.mkdtemp(prefix="trace-", dir=a.work))
    site = a.work / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITE)
    os.environ["BB_HOP_TRACE"] = str(trace)
    os.environ["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")])
    import llm_hop_probe

    llm_hop_probe.install()
    load0 = os.getloadavg()
    rates = []
    rids: set[int] = set()
    with contextlib.ExitStack() as stack:
        broker = Broker(write_broker_files(a.work / "broker", dep)).start()
        stack.callback(broker.stop)
        url = broker.files.url()
        if a.url_options:
            url += ("&" if "?" in url else "?") + a.url_options
        stepper = stack.enter_context(open_stepper(dep, url, processes=True, node_args=["--threads", "1"]))
        list(generate_many(stepper, {1: Generation([504, 3458, 282, 4649, 314], 4, a.context)}))  # warm-up
        mark = len(llm_hop_probe._recs)
        for rep in range(a.reps):
            stats = GenerationStats()
            gen = Generation([504, 3458, 282, 4649, 314], a.tokens, a.context)
            list(generate_many(stepper, {10 + rep: gen}, stats=stats))
            rates.append(stats.decode_rate(10 + rep))
        # decode steps only (the prefill step of each generation is left out): submits after the first token
        subs = [r for r in llm_hop_probe._recs[mark:] if r[0] == "submit"]
        per_rep = len(subs) // a.reps
        for i in range(a.reps):
            rids |= {int(r[4]) for r in subs[i * per_rep + 1:(i + 1) * per_rep]}
    llm_hop_probe._dump()
    load1 = os.getloadavg()
    recs = load(trace)
    order = ["host", *dep.node_names]
    st = analyse(recs, rids, order)
    print(f"{a.nodes} nodes, {a.tokens} tokens x {a.reps}, {len(rids)} decode steps; load average "
          f"{load0[0]:.1f} -> {load1[0]:.1f} ({os.cpu_count()} cores); decode tok/s per rep "
          f"{', '.join(f'{r:.1f}' for r in rates)}; ms/token median {1000 / statistics.median(rates):.2f}")
    for proc in dep.node_names:  # ONNX Runtime's run alone: wall vs the thread's CPU (the gap is waiting for a core)
        runs = [r for r in recs.get(proc, []) if r[0] == "ort"][-len(rids):]
        if runs:
            st[f"{proc} ORT run wall"] = [(int(r[2]) - int(r[1])) / 1e3 for r in runs]
            st[f"{proc} ORT run thread CPU"] = [int(r[4]) / 1e3 for r in runs]
            # the engine's own CPU in a poll that ran the stage: the poll's thread CPU minus its ORT run's
            polls = [r for r in recs[proc] if r[0] == "poll"]
            ends = sorted((int(r[2]), int(r[4])) for r in runs)
            spans = sorted((int(r[1]), int(r[2])) for r in runs)
            own, pre, post = [], [], []
            for p in polls:
                a, b = int(p[1]), int(p[2])
                inside = [c for e, c in ends if a <= e <= b]
                if inside:
                    own.append((int(p[5]) - sum(inside)) / 1e3)
                    first = next(sp for sp in spans if a <= sp[0] <= b)
                    last = [sp for sp in spans if a <= sp[1] <= b][-1]
                    pre.append((first[0] - a) / 1e3)  # the poll's start -> ORT's run (decode, admit, inject)
                    post.append((b - last[1]) / 1e3)  # ORT's end -> the poll's end (state, outputs, encode)
            st[f"{proc} engine CPU in those polls"] = own[-len(rids):]
            st[f"{proc} poll before ORT (wall)"] = pre[-len(rids):]
            st[f"{proc} poll after ORT (wall)"] = post[-len(rids):]
    print(f"{'stage':40s} {'median us':>10s} {'p90 us':>9s} {'n':>5s}")
    for k, v in st.items():
        v = sorted(v)
        print(f"{k:40s} {statistics.median(v):10.0f} {v[int(0.9 * (len(v) - 1))]:9.0f} {len(v):5d}")


if __name__ == "__main__":
    main()
