"""MCU FedAvg client round time: the C client (bbrt_learn.h) on QEMU Cortex-M3 and as the posix build vs ORT.

    python bench/bench_learn_mcu.py [--rounds 5] [--epochs 1]

A softmax-regression digits deployment (3 clients, iid, batch 16) is built for client c2 as
``qemu-cortex-m3`` and ``host``. Each device gets ``--rounds`` MODEL envelopes over its pty (link
layer, 512-byte frames) and answers each with its UPDATE: the figure is the wall time from sending a
MODEL to receiving its UPDATE (model down the line, E local epochs on the device, update up), and the
link bytes per round. The baseline is ONNX Runtime in this process running the same ONNX training
program over the same batches (``reference_update``). Prints ms per round, the ratio to ORT and the
largest difference between the device's update and ORT's. Asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bb_edge.adapters.learn.mcu_fleet import device_for_bundle, reference_update, round_batches  # noqa: E402
from bb_edge.adapters.learn.node import load_module  # noqa: E402
from bb_edge.bundle.build import build_all  # noqa: E402
from bb_edge.training.models import mlp  # noqa: E402
from bb_edge.training.setup import write_learning_deployment  # noqa: E402
from bb_edge.wire import Envelope, decode, encode  # noqa: E402


def main() -> None:
    """Build, run, print (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--epochs", type=int, default=1)
    args = ap.parse_args()
    learning = {"strategy": "fedavg", "clients": 3, "rounds": args.rounds, "epochs": args.epochs, "seed": 5,
                "data": {"source": "digits", "partition": {"type": "partition.iid"}}}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "dep"
        write_learning_deployment(d, learning, model=mlp([64, 10], seed=5))
        module = load_module(learning, d)
        prog, cfg = module.setup.program, module.cfg
        nid = dict(module.nodes())["c2"]
        part = module.setup.parts[module.clients().index("c2")]
        x, y = part.x.reshape(len(part.x), -1), part.y
        starts = [prog.layout.flatten(prog.initial_params) + np.float32(0.01 * r) for r in range(args.rounds)]
        batches = [round_batches(len(x), int(cfg["batch_size"]), args.epochs, 0, int(cfg["seed"]), nid, r + 1)
                   for r in range(args.rounds)]
        t0 = time.perf_counter()
        refs = [reference_update(prog, s, x, y, b) for s, b in zip(starts, batches, strict=True)]
        ort_ms = (time.perf_counter() - t0) * 1e3 / args.rounds  # includes one session per round, as on a node
        print(f"shard {len(x)} rows, {len(batches[0])} steps/round, {prog.layout.size} parameters; "
              f"ORT in-process: {ort_ms:.2f} ms/round")
        for target in ("host", "qemu-cortex-m3"):
            dist = Path(tmp) / target
            build_all(d, [f"c2={target}"], dist)
            dev = device_for_bundle(dist / "c2", Path(tmp) / f"state-{target}")
            dev.start(timeout=60.0)  # type: ignore[attr-defined]
            times, err = [], 0.0
            b0 = dev.bytes_in + dev.bytes_out
            try:
                for r in range(args.rounds):
                    env = Envelope.for_array(starts[r], sender=1, receiver=nid, seq=(7 << 32) | (r + 1),
                                             request_id=r + 1, edge=2, protocol=17)
                    t = time.perf_counter()
                    dev.send(encode(env))
                    got = None
                    while got is None and time.perf_counter() - t < 120:
                        for e in dev.wait_data(1, 0.01):
                            m = decode(e)
                            if m.protocol == 16 and m.edge == 3 and m.request_id == r + 1:
                                got = np.asarray(m.array(), np.float32)
                    times.append((time.perf_counter() - t) * 1e3)
                    if got is None:
                        raise SystemExit(f"{target}: no update for round {r + 1}")
                    err = max(err, float(np.abs(got - refs[r]).max()))
            finally:
                dev.stop()  # type: ignore[attr-defined]
            ms = float(np.median(times))
            per_round = (dev.bytes_in + dev.bytes_out - b0) / args.rounds
            print(f"{target:>15}: {ms:8.1f} ms/round (median of {args.rounds}), {ms / ort_ms:7.1f}x ORT, "
                  f"{per_round / 1024:.1f} KiB on the line per round, max |update - ORT| {err:.1e}")


if __name__ == "__main__":
    main()
