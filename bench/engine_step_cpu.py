"""The engine's own CPU per stateful stage step, in process: warm, and with the caches wiped as ORT's run wipes them.

    python bench/engine_step_cpu.py [--steps 2000] [--past 100] [--node n1] [--cold] [--profile]

One node of the 3-node SmolLM2 split (compiled once into /tmp/bb-hop-trace/llm3, as bench/llm_hop_trace.py
does) is driven with encoded session envelopes from its upstream stage; ONNX Runtime's run is replaced by
fresh copies of one real run's outputs (its KV cache ``--past`` tokens long), so the thread CPU of each
``poll`` minus that stand-in is what the engine itself spends on a step: decode, admission, dedup, the
session's state in and out, the checks, the outbound envelope, the events.

``--cold`` reads 32 MB before each poll and inside the stand-in run, as a stage's weights do: measured here,
the same step costs ~50 us warm and ~330 us cold (bench/llm_hop_trace.py's "engine CPU" rows read ~400-500
us on a node), so the engine's cost on a node is cache misses over everything it touches, not instructions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--past", type=int, default=100, help="tokens in the KV cache the stand-in run returns")
    ap.add_argument("--node", default="n1")
    ap.add_argument("--cold", action="store_true", help="wipe the caches before each poll and in the run")
    ap.add_argument("--profile", action="store_true", help="cProfile the measured steps (slower; relative only)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "bb-hop-trace")
    a = ap.parse_args()

    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.engine.engine import Engine
    from bb_edge.llm.fleet import compile_gguf
    from bb_edge.llm.gguf_load import smollm2_path
    from bb_edge.wire import envelope as wire

    dep_dir = a.work / "llm3"
    if not dep_dir.exists():
        compile_gguf(smollm2_path(), dep_dir, nodes=3, weights="int4", context=512)
    dep = load_deployment(dep_dir)
    eng = Engine.for_node(dep, a.node)
    eng.set_boot_epoch(5)
    prog = eng.programs[a.node]
    if len(prog.segments) != 1 or len(prog.recv) != 1 or not prog.state:
        raise SystemExit(f"{a.node} is not a one-segment stateful stage with one received edge")
    (edge, port), = prog.recv.items()
    width = port.shape[-1]
    x = (np.random.default_rng(0).standard_normal((1, width)) * 0.1).astype(np.float16)
    feed: dict[str, np.ndarray] = {port.tensor: x}
    for name, spec in prog.state.items():
        feed[name] = np.zeros(tuple(a.past if d < 0 else d for d in spec.shape), spec._dtype)
    canned = prog.prepared[0].run(feed)
    big = np.ones(8_000_000, np.float32)  # 32 MB: more than the L2 and the L3 of the machine measured
    stand_in_ns = [0]

    class StandIn:
        """ORT's run replaced: fresh arrays like ORT's, the time spent here left out of the engine's."""

        def run(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
            c = time.thread_time_ns()
            if a.cold:
                big.sum()
            out = {k: v.copy() for k, v in canned.items()}
            stand_in_ns[0] += time.thread_time_ns() - c
            return out

    prog.prepared[0] = StandIn()  # type: ignore[call-overload]
    producer = eng.peers[port.peer]
    seq = [7 << 32]

    def envelope(step: int) -> bytes:
        seq[0] += 1
        env = wire.Envelope.for_array(x, sender=producer, receiver=eng.node_id, seq=seq[0],
                                      request_id=1000 + step, edge=edge)
        return wire.encode(env.in_session(42, step))

    now = [1.0]

    def step(raw: bytes) -> int:
        eng.deliver(port.peer, raw)
        now[0] += 0.001
        if a.cold:
            big.sum()
        stand_in_ns[0] = 0
        c = time.thread_time_ns()
        out = eng.poll(now[0])
        spent = time.thread_time_ns() - c - stand_in_ns[0]
        if len(out) != 1:
            raise SystemExit(f"a step sent {len(out)} envelopes: {eng.drain_events()}")
        eng.drain_events()
        return spent

    for s in range(50):  # warm-up: the session is open and its steps are in order
        step(envelope(s))
    raws = [envelope(s) for s in range(50, 50 + a.steps)]
    prof = cProfile.Profile() if a.profile else None
    if prof is not None:
        prof.enable()
    spent = [step(raw) for raw in raws]
    if prof is not None:
        prof.disable()
    print(f"{a.node}: {a.steps} steps, {'cold' if a.cold else 'warm'} caches, KV {a.past} tokens: engine CPU per "
          f"step median {statistics.median(spent) / 1e3:.1f} us, p25 {np.percentile(spent, 25) / 1e3:.1f}, "
          f"p90 {np.percentile(spent, 90) / 1e3:.1f}")
    if prof is not None:
        stats: Any = pstats.Stats(prof)
        stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
