"""Training steps on bbrt (issue 14): instructions per step against ONNX Runtime, and arena against its bound.

    python bench/bench_bbrt_train.py                 # both models, batch 8, 40 steps
    python bench/bench_bbrt_train.py --batch 32 --steps 20
    python bench/bench_bbrt_train.py --no-callgrind  # only the M3 (-icount) and arena figures (seconds, not minutes)

For each model (softmax regression 64->10, MLP 64-32-10; SoftmaxCrossEntropy with index labels,
SGD momentum 0.9) the same ONNX training program runs three ways on the same digits batches:

* bbrt posix: the harness firmware/ports/posix/bbrt_train_main.c under valgrind callgrind with
  ``--toggle-collect=bbrt_train_step``: exactly the instructions inside the C training step
  (batch copy-in, every kernel, the in-place update), divided by the steps;
* ORT: onnxruntime (1 thread, no spinning) running the ONNX training program from Python under
  callgrind in the same run style: ``--dump-before=getppid`` splits the run at two ``os.getppid()``
  markers around the steps (after a warm-up step), and the part between them over the steps is one
  steady-state step (session.run with its Python feed/fetch, the way bb-edge's Trainer drives ORT);
* bbrt on QEMU Cortex-M3 (mps2-an385, soft float): the harness ELF under ``-icount shift=0``
  counts SysTick ticks per step (x40 = instructions).

The ratios are bbrt/ORT on x86 (goal <= 1.0) and arena / lower bound (goal <= 1.05); the lower
bound is the largest total size of the tensors alive at one op of the lowered step (weights,
optimizer state, gradients, activations, batch), which no plan of these tensors can beat.
Prints figures; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx

from bb_edge.bbrt.native import cached_build
from bb_edge.bbrt.train_host import batches_blob, run_qemu_m3
from bb_edge.bbrt.train_lower import TrainLowered, lower_training_step, training_footprint
from bb_edge.learn.data import SklearnSource
from bb_edge.targets import load_target
from bb_edge.training import SoftmaxCrossEntropy, TrainingProgram, build_training_step
from bb_edge.training.models import mlp
from bb_edge.training.optim import SGD

MODELS = {"softmax 64-10": (64, 10), "mlp 64-32-10": (64, 32, 10)}

ORT_SCRIPT = """
import os, sys
import numpy as np, onnxruntime as ort
d = np.load(sys.argv[2])
so = ort.SessionOptions(); so.intra_op_num_threads = 1; so.inter_op_num_threads = 1
so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
# no spin-waiting thread pools: spinning would count instructions that depend on scheduling
so.add_session_config_entry("session.intra_op.allow_spinning", "0")
so.add_session_config_entry("session.inter_op.allow_spinning", "0")
s = ort.InferenceSession(sys.argv[1], so, providers=["CPUExecutionProvider"])
pn = [n for n in d.files if n.startswith("p:")]
feeds = {n[2:]: d[n] for n in pn}
outs = ["loss"] + ["next/" + n[2:] for n in pn]
xs, ys = d["xs"], d["ys"]
s.run(outs, dict(feeds, x=xs[0], labels=ys[0]))  # warm: the first run plans and allocates
os.getppid()  # marker: callgrind dumps here (--dump-before=getppid)
for i in range(len(ys)):
    r = s.run(outs, dict(feeds, x=xs[i], labels=ys[i]))
    feeds = dict(zip([o[5:] for o in outs[1:]], r[1:]))
os.getppid()  # marker
"""


def program(sizes: tuple[int, ...]) -> TrainingProgram:
    """The issue's training step for an MLP of ``sizes``."""
    return build_training_step(mlp(sizes, seed=3), loss=SoftmaxCrossEntropy(labels="index"),
                               optimizer=SGD(lr=0.1, momentum=0.9))


def batches(steps: int, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """``steps`` shuffled digits batches."""
    x, y = SklearnSource("digits").arrays()
    idx = np.random.default_rng(0).permutation(len(y))
    idx = np.resize(idx, steps * batch).reshape(steps, batch)
    return x[idx], y[idx]


def callgrind_total(path: Path) -> int:
    """The instruction total of one callgrind output file."""
    text = path.read_text()
    m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    return int(m.group(1)) if m else 0


def c_posix(L: TrainLowered, xs: np.ndarray, ys: np.ndarray, d: Path) -> float:
    """Instructions per step inside bbrt_train_step (posix harness, callgrind)."""
    exe = cached_build("train-host", ARENA=str(1 << 20)) / "bbrt-train"
    (d / "p.bbrt").write_bytes(L.blob)
    (d / "b.bin").write_bytes(batches_blob(xs, ys))
    out = d / "c.cg"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--toggle-collect=bbrt_train_step",
                    str(exe), str(d / "p.bbrt"), str(d / "b.bin"), str(d / "o.bin")], capture_output=True, check=True,
                   timeout=1800)
    return callgrind_total(out) / len(ys)


def ort_python(tp: TrainingProgram, xs: np.ndarray, ys: np.ndarray, d: Path) -> float:
    """Instructions per step of ORT running the ONNX training program: one callgrind run, split by
    ``--dump-before=getppid`` at two markers the script calls around its steps (libc's getppid, which
    nothing else in the run calls); the part between them, over the steps."""
    onnx.save(tp.model, str(d / "step.onnx"))
    arrays = {"xs": xs.astype(np.float32), "ys": ys.astype(np.int64)}
    arrays.update({"p:" + k: v for k, v in tp.initial_params.items()})
    arrays.update({"p:opt/" + k: v for k, v in tp.initial_state().items()})
    np.savez(d / "data.npz", **arrays)
    (d / "ort.py").write_text(ORT_SCRIPT)
    out = d / "ort.cg"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-before=getppid",
                    sys.executable, str(d / "ort.py"), str(d / "step.onnx"), str(d / "data.npz")],
                   capture_output=True, check=True, timeout=3600)
    parts = sorted(d.glob("ort.cg.*"))
    if [p.name for p in parts] != ["ort.cg.1", "ort.cg.2"]:
        raise RuntimeError(f"expected two marker dumps, got {[p.name for p in parts]}")
    return callgrind_total(d / "ort.cg.2") / len(ys)


def m3_code_bytes(L: TrainLowered, d: Path) -> int:
    """.text of the M3 training harness linked with only this program's kernels (generated resolver, -Os)."""
    from bb_edge.bbrt.firmware import elf_sizes
    from bb_edge.bbrt.native import make
    from bb_edge.bbrt.resolver import resolver_source

    res = d / "resolver.c"
    res.write_text(resolver_source(L.ops_used))
    make("cortex-m3-train", d / "m3", RESOLVER=str(res), ARENA=str(L.arena_bytes), OPT="-Os")
    return int(elf_sizes(d / "m3" / "train.elf", "arm-none-eabi-")["text"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--no-callgrind", action="store_true", help="skip the valgrind runs (minutes)")
    args = ap.parse_args()
    if not args.no_callgrind and shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (.ci/apt-packages.txt); or use --no-callgrind")
    xs, ys = batches(args.steps, args.batch)
    targets = [load_target(n) for n in ("qemu-cortex-m3", "esp32", "qemu-rv32")]
    print(f"batch {args.batch}, {args.steps} steps, SGD momentum 0.9, float32")
    for name, sizes in MODELS.items():
        tp = program(sizes)
        L = lower_training_step(tp, args.batch)
        bd = L.breakdown()
        print(f"\n{name}: {len(L.program.ops)} ops, program {len(L.blob):,} B")
        print(f"  arena {bd['arena']:,} B (params {bd['params']:,} + momentum {bd['optimizer_state']:,} + "
              f"planned {bd['planned']:,}), lower bound {bd['lower_bound']:,} B: "
              f"arena/bound {bd['arena'] / bd['lower_bound']:.3f}")
        for row in training_footprint(L, targets):
            print(f"  fit {row['target']}: need {row['need']:,} of {row['ram']:,} B"
                  + ("" if row["fits"] else f": over by {row['over']:,} B"))
        _, _, ticks = run_qemu_m3(L, xs[:min(args.steps, 20)], ys[:min(args.steps, 20)])
        m3 = float(np.median(ticks)) * 40
        with tempfile.TemporaryDirectory() as tmp:
            code = m3_code_bytes(L, Path(tmp))
        print(f"  Cortex-M3 (QEMU -icount, soft float): {m3:,.0f} instructions/step; harness code {code:,} B "
              f"(loader, checks, {len(L.ops_used)} kernels, soft float; -Os)")
        if not args.no_callgrind:
            with tempfile.TemporaryDirectory() as tmp:
                c = c_posix(L, xs, ys, Path(tmp))
                o = ort_python(tp, xs, ys, Path(tmp))
            print(f"  x86 instructions/step: bbrt {c:,.0f}, ORT {o:,.0f} (1 thread, from Python): "
                  f"bbrt/ORT {c / o:.3f}")


if __name__ == "__main__":
    main()
