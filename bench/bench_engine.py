"""Engine validation benchmarks (ratios against in-process baselines).

1. Requests through one node engine (decode, authorise, contract, duplicate
   window, byte budget, ONNX Runtime) as a ratio to the same segment run
   directly on its prepared ONNX Runtime session (the cost of the engine).
2. Hostile envelopes refused per second (forged producer, unknown edge,
   wrong shape, stale epoch) as a ratio to valid envelopes accepted per
   second (goal >= 1: refusing must not cost more than serving).
3. The duplicate window (65,536 bits per epoch) check + record per second as
   a ratio to adding to a Python set (the unbounded filter it replaces).

Run: python bench/bench_engine.py [--requests N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bb_edge.compiler import compile_model
from bb_edge.engine import Engine
from bb_edge.engine.dedup import SeqFilter
from bb_edge.ir import Module, on, ops, record
from bb_edge.wire import Envelope, encode


class Pair(Module):
    """s sends relu(x) to m; m joins it with its own graph input y."""

    inputs = {"x": ((1, 64), "float32"), "y": ((1, 64), "float32")}

    def forward(self, x, y):  # type: ignore[no-untyped-def, override]
        with on("s"):
            h = ops.relu(x)
        with on("m"):
            return ops.tanh(ops.add(h, y))


def _env(sender: int, seq: int, edge: int, rid: int, value: np.ndarray) -> bytes:
    return encode(Envelope.for_array(value, sender=sender, receiver=2, seq=seq, request_id=rid, edge=edge))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=5000)
    args = ap.parse_args()
    n = args.requests
    dep, programs = compile_model(record(Pair()))
    (edge,) = dep.edges
    (y_in,) = [i for i in dep.inputs if i.node == "m"]
    v = np.random.default_rng(0).standard_normal((1, 64)).astype(np.float32)
    valid = [(_env(1, (3 << 32) | r, edge.id, r, v), _env(0, (3 << 32) | r, y_in.edge_id, r, v))
             for r in range(1, n + 1)]

    # 1. engine vs the bare session
    eng = Engine.for_node(dep, "m", programs)
    t = time.perf_counter()
    for a, b in valid:
        eng.deliver("s", a)
        eng.deliver("_host", b)
        eng.poll(0.0)
        eng.drain_events()
    engine_rps = n / (time.perf_counter() - t)
    assert eng.counters["requests_completed"] == n
    seg = eng.programs["m"].prepared[0]
    feeds = {name: v for name in eng.programs["m"].segments[0].inputs}
    t = time.perf_counter()
    for _ in range(n):
        seg.run(feeds)
    bare_rps = n / (time.perf_counter() - t)
    print(f"1. engine {engine_rps:,.0f} requests/s vs bare ORT session {bare_rps:,.0f} runs/s: "
          f"ratio {engine_rps / bare_rps:.2f}")

    # 2. refusing vs accepting
    bad_shape = np.ones((1, 63), np.float32)
    hostile = []
    for r in range(1, n + 1):
        hostile += [_env(0, (3 << 32) | r, edge.id, r, v), _env(1, (3 << 32) | r, 99, r, v),
                    _env(1, (3 << 32) | r, edge.id, r, bad_shape), _env(1, (1 << 32) | r, edge.id, r, v)]
    eng = Engine.for_node(dep, "m", programs)
    eng.deliver("s", _env(1, 3 << 32, edge.id, 10**9, v))  # s has spoken in epoch 3: epoch 1 is stale
    eng.poll(0.0)
    t = time.perf_counter()
    for i in range(0, len(hostile), 4):
        for h in hostile[i:i + 4]:
            eng.deliver("x", h)
        eng.poll(0.0)
        eng.drain_events()
    refused_ps = len(hostile) / (time.perf_counter() - t)
    assert eng.counters["unauthorised"] == n and eng.counters["stale_epoch"] == n
    accepted_ps = 2 * engine_rps
    print(f"2. refused {refused_ps:,.0f} hostile envelopes/s vs accepted {accepted_ps:,.0f} valid envelopes/s: "
          f"ratio {refused_ps / accepted_ps:.2f} (goal >= 1)")

    # 3. the window vs a set
    m = 200_000
    f = SeqFilter(window=1 << 16)
    t = time.perf_counter()
    for k in range(1, m + 1):
        if f.check(1, (3 << 32) | k) == "fresh":
            f.record(1, (3 << 32) | k)
    win_ps = m / (time.perf_counter() - t)
    seen: set[tuple[int, int]] = set()
    t = time.perf_counter()
    for k in range(1, m + 1):
        if (1, k) not in seen:
            seen.add((1, k))
    set_ps = m / (time.perf_counter() - t)
    print(f"3. duplicate window {win_ps:,.0f}/s vs Python set {set_ps:,.0f}/s: ratio {win_ps / set_ps:.2f} "
          f"(bounded memory: {(1 << 16) // 8} bytes per epoch instead of one set entry per envelope)")


if __name__ == "__main__":
    main()
