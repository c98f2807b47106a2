"""MicroPython training step speed: bbnode/train.py in the MicroPython VM vs ONNX Runtime, same program.

    python bench/bench_micropython_train.py [--steps 20]

The deployments' ONNX training program (MLP 64-32-10 and softmax regression 64->10, SGD momentum 0.9,
batch 16, digits) runs one step at a time on ONNX Runtime in this process (the baseline) and, exported as
its BBT1 description, in bbnode/train.py (boxed floats) and bbnode/train_int.py (int mode: float32 in small
ints, bbnode/f32int.py): in the MicroPython WebAssembly VM (bytecode .mpy under Node) and under CPython (the
same source, as the MQTT tests host it). Prints ms per step, the ratio to ORT, the VM's bytes allocated per
step (boxed float results for train.py, nothing is retained; 0 for the int mode) and the int mode's time as
a ratio to the boxed mode's. On an ESP32 at 240 MHz expect the VM figures to be roughly 20-50x higher
again. Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bb_edge.learn.data import load_arrays  # noqa: E402
from bb_edge.mpy.cross import runtime_dir  # noqa: E402
from bb_edge.mpy.train import export_description, export_shard, reference_update  # noqa: E402
from bb_edge.training import SoftmaxCrossEntropy, build_training_step, make_session  # noqa: E402
from bb_edge.training.models import mlp  # noqa: E402
from bb_edge.training.optim import SGD  # noqa: E402
from tests.support.mpy_vm import build_lib, ensure_vm, run_vm  # noqa: E402

BATCH = 16


def ort_ms(prog, x, y, steps: int) -> float:  # type: ignore[no-untyped-def]
    sess = make_session(prog.model, "ort")
    start = prog.layout.flatten(prog.initial_params)
    batches = [np.arange(i * BATCH, (i + 1) * BATCH) % len(x) for i in range(steps)]
    reference_update(prog, start, x, y, batches[:2], sess)  # warm up
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        reference_update(prog, start, x, y, batches, sess)
        best = min(best, (time.perf_counter() - t0) / steps)
    return best * 1e3


SCRIPT = """
import gc, time
from bbnode.TRAINER_MODULE import TRAINER_CLASS as Trainer
from bbnode.learn_client import FedAvgClient, Shard, shuffle
T = Trainer(open('t.bbt', 'rb').read())
c = FedAvgClient(T, Shard(open('s.bbs', 'rb').read()), 4, send=lambda b: None)
shuffle(c.order, c.shard.n, 1)
c.load_batch(0, 16)
T.step(16)
gc.collect()
gc.disable()
a0 = gc.mem_alloc()
T.step(16)
a1 = gc.mem_alloc()
gc.enable()
t0 = time.ticks_ms() if hasattr(time, 'ticks_ms') else time.time() * 1000
for i in range(STEPS):
    T.step(16)
t1 = time.ticks_ms() if hasattr(time, 'ticks_ms') else time.time() * 1000
print('RESULT', (t1 - t0) / STEPS, a1 - a0)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20)
    args = ap.parse_args()
    x, y, _ = load_arrays("digits")
    x, y = np.asarray(x[:64], np.float32), np.asarray(y[:64], np.int64)
    driver = ensure_vm()
    with tempfile.TemporaryDirectory() as tmp:
        lib = build_lib(Path(tmp) / "lib")
        for name, sizes in (("mlp 64-32-10", [64, 32, 10]), ("softmax 64->10", [64, 10])):
            fwd = mlp(sizes, seed=0)
            prog = build_training_step(fwd, None, SoftmaxCrossEntropy(), SGD(lr=0.05, momentum=0.9))
            work = Path(tmp) / name.split()[0]
            work.mkdir()
            (work / "t.bbt").write_bytes(export_description(prog, fwd))
            (work / "s.bbs").write_bytes(export_shard(x, y))
            base = ort_ms(prog, x, y, args.steps)
            vm_ms = {}
            for mode, (module, cls) in MODES.items():
                script = SCRIPT.replace("STEPS", str(args.steps)).replace("TRAINER_MODULE", module)
                out = run_vm(driver, lib, work, script.replace("TRAINER_CLASS", cls), timeout=900)
                ms, vm_bytes = (float(v) for v in out.split("RESULT")[-1].split())
                vm_ms[mode] = ms
                if str(runtime_dir()) not in sys.path:
                    sys.path.insert(0, str(runtime_dir()))
                cwd = os.getcwd()
                os.chdir(work)
                try:
                    ns: dict[str, object] = {}
                    exec(_cpython_script(args.steps, module, cls), ns)  # the same bbnode source under CPython
                    cpy_ms = float(ns["MS"])  # type: ignore[arg-type]
                finally:
                    os.chdir(cwd)
                print(f"{name}, batch {BATCH}, {mode}: ORT {base:.3f} ms/step (baseline); MicroPython VM "
                      f"{ms:.1f} ms/step ({ms / base:.0f}x), {vm_bytes / 1e6:.2f} MB allocated/step "
                      f"({vm_bytes:.0f} bytes); CPython-hosted bbnode {cpy_ms:.1f} ms/step ({cpy_ms / base:.0f}x)")
            print(f"{name}, batch {BATCH}: int mode / boxed mode in the VM: {vm_ms['int'] / vm_ms['boxed']:.2f}x")


# mode -> (bbnode module, trainer class)
MODES = {"boxed": ("train", "Trainer"), "int": ("train_int", "IntTrainer")}


def _cpython_script(steps: int, module: str = "train", cls: str = "Trainer") -> str:
    return f"""
import time
from bbnode.{module} import {cls} as Trainer
from bbnode.learn_client import FedAvgClient, Shard, shuffle
T = Trainer(open('t.bbt', 'rb').read())
c = FedAvgClient(T, Shard(open('s.bbs', 'rb').read()), 4, send=lambda b: None)
shuffle(c.order, c.shard.n, 1)
c.load_batch(0, 16)
T.step(16)
t0 = time.perf_counter()
for i in range({steps}):
    T.step(16)
MS = (time.perf_counter() - t0) / {steps} * 1000
"""


if __name__ == "__main__":
    main()
