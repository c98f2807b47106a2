"""Pipeline and codec benchmarks for the core substrate (ratios against in-process baselines).

1. Throughput of a 3-node split of a real model (onnx's squeezenet, batch 32)
   over the in-process adapter with its stages running concurrently and tensors
   handed through without copies (``InProcFleet(concurrent=True, zero_copy=True)``),
   as a ratio to the same model in one ONNX Runtime session with ORT's default
   settings in this process (goal >= 0.95). The sequential, encoded fleet (the
   adapter's default) is measured alongside for reference.
2. Envelope encode + decode of a 1 MiB tensor as a ratio to a plain bytes
   copy of the same buffer (goal >= 0.5).

Other processes share the cores, so each round times the single session and
the fleets back to back (in alternating order) and the ratio is taken per
round; the median over the rounds is the figure, min..max its spread.

Run: python bench/bench_pipeline.py [--requests N] [--rounds N] [--model squeezenet]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
import onnx
import onnxruntime as ort

from bb_edge.adapters.transports.inproc import InProcFleet, host_cores
from bb_edge.compiler import compile_model, load_model
from bb_edge.wire import Envelope, decode, encode

LIGHT = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")


def with_batch(model: onnx.ModelProto, batch: int) -> onnx.ModelProto:
    """The same model with its leading input dimension set to ``batch`` (shapes re-inferred)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for vi in list(m.graph.input) + list(m.graph.output):
        dims = vi.type.tensor_type.shape.dim
        if dims:
            dims[0].ClearField("dim_param")
            dims[0].dim_value = batch
    del m.graph.value_info[:]
    return load_model(m)


def best_of(fn, repeats: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_pipeline(model_name: str, batch: int, requests: int, rounds: int = 7) -> float:
    model = with_batch(load_model(os.path.join(LIGHT, f"light_{model_name}.onnx")), batch)
    dep, programs = compile_model(model, nodes=3)
    rng = np.random.default_rng(0)
    name = model.graph.input[0].name
    xs = [rng.standard_normal([d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim])
          .astype(np.float32) for _ in range(requests)]
    # the baseline: one session, ORT's default options (all cores, its own threading defaults)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    fleet = InProcFleet(dep, programs, concurrent=True, zero_copy=True)
    plain = InProcFleet(dep, programs)  # sequential, encoded: the adapter's default
    ref = sess.run(None, {name: xs[0]})  # warm up all three, and check they agree
    for f in (fleet, plain):
        out = f.run([{name: xs[0]}])[0]
        assert all(np.allclose(out[o.name], r, rtol=1e-4, atol=1e-5) for o, r in zip(sess.get_outputs(), ref))

    def mono() -> None:
        for x in xs:
            sess.run(None, {name: x})

    def split() -> None:
        fleet.run([{name: x} for x in xs], window=4)

    def sequential() -> None:
        plain.run([{name: x} for x in xs], window=4)

    # each round times all three back to back, so load from other processes hits them alike; the order
    # alternates so that neither always runs first
    t: dict[str, list[float]] = {"mono": [], "split": [], "sequential": []}
    fns = {"mono": mono, "split": split, "sequential": sequential}
    for r in range(rounds):
        for key in (("mono", "split", "sequential") if r % 2 == 0 else ("sequential", "split", "mono")):
            t[key].append(best_of(fns[key], 1))
    fleet.close()
    busy = dict(fleet.busy)
    ratios = [m / s for m, s in zip(t["mono"], t["split"])]
    seq_ratios = [m / s for m, s in zip(t["mono"], t["sequential"])]
    ratio = statistics.median(ratios)
    cut_bytes = sum(e.bytes_per_inference for e in dep.edges)
    print(f"pipeline: {model_name} batch {batch}, 3 nodes ({', '.join(str(n.ops) for n in dep.nodes)} ops), "
          f"{cut_bytes / 2**20:.1f} MiB across cuts per request; {requests} requests x {rounds} rounds, "
          f"{host_cores()} cores")
    print(f"  monolithic ORT: {requests / statistics.median(t['mono']):8.2f} req/s   "
          f"3-node in-process: {requests / statistics.median(t['split']):8.2f} req/s (concurrent, zero-copy)   "
          f"{requests / statistics.median(t['sequential']):8.2f} req/s (sequential, encoded)")
    print(f"  sequential encoded split/monolithic = {statistics.median(seq_ratios):.3f} "
          f"(min {min(seq_ratios):.3f}, max {max(seq_ratios):.3f})")
    print(f"  throughput ratio split/monolithic = {ratio:.3f}  (min {min(ratios):.3f}, max {max(ratios):.3f}; "
          f"goal >= 0.95)")
    wall = sum(t["split"])
    print("  per-stage busy time (concurrent split, all rounds): " + ", ".join(
        f"{n} {b:.2f} s = {b / wall:.0%} of {wall:.2f} s" for n, b in sorted(busy.items()))
        + f"; one session {sum(t['mono']):.2f} s; load {os.getloadavg()[0]:.1f}")
    return ratio


def bench_codec(size: int = 1 << 20, repeats: int = 200) -> float:
    arr = np.random.default_rng(1).standard_normal(size // 4).astype(np.float32)
    raw_bytes = arr.tobytes()

    def codec() -> None:
        for i in range(repeats):
            data = encode(Envelope.for_array(arr, sender=1, receiver=2, seq=i + 1, edge=1))
            out = decode(data)
            out.array()

    def copy() -> None:
        for _ in range(repeats):
            bytes(bytearray(raw_bytes))

    t_codec = statistics.median(best_of(codec, 1) for _ in range(5))
    t_copy = statistics.median(best_of(copy, 1) for _ in range(5))
    ratio = t_copy / t_codec
    mib = size / 2**20 * repeats
    print(f"codec: 1 MiB float32 tensor, encode+decode {mib / t_codec:8.0f} MiB/s, "
          f"bytes copy {mib / t_copy:8.0f} MiB/s")
    print(f"  codec/copy throughput ratio = {ratio:.3f}  (goal >= 0.5)")
    return ratio


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", default="squeezenet")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--requests", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    bench_pipeline(args.model, args.batch, args.requests, args.rounds)
    bench_codec()


if __name__ == "__main__":
    main()
