"""The ONNX backend node-test suite through ``--backend executorch``, against ONNX Runtime (issue 26).

Every node case of the installed onnx (generated once into ~/.cache/bb-edge/onnx-node-tests/<version>,
see tests/support/onnx_peer_suite.py) runs through ONNX Runtime (the reference) and, where ORT passes,
through the lowering ``bb-edge build --target android-arm64`` uses (ONNX->torch, torch.export, XNNPACK,
.pte) executed by the ExecuTorch runtime. Printed: a table by op (cases ORT passes, cases ExecuTorch
passes), the pass rate as a fraction of what ORT passes (goal >= 95%), and every failure grouped by class.

Inputs the converter reads at conversion time (shapes, axes, pads, sizes, If conditions) are frozen to
the data set's values, as pinning and folding does for a real model (tests/support/onnx_peer_suite.py).

Cases run in ``--workers`` worker processes (default 1; each restarted if a case crashes it; 120 s per case
at most); ExecuTorch runs only on cases ORT passes. A second worker pays only on idle cores: on a 2-core host
at load average 10, ten cases took 85 s with one worker and 107 s with two. Results are kept in
<cache>/results-<key>.jsonl, keyed by the converter's source, so a rerun resumes. ``--sample N --seed S``
runs a seeded uniform random sample of N of the suite's cases (an estimate of the whole suite's rate; the
sample's size and seed are printed and go to ``--json``); ``--budget-min`` stops starting cases after that
many minutes (the cases done are again a uniform sample, seed 26); ``--no-eager`` skips the converter-alone
pass over every case.

Run: PYTHONPATH=. python bench/bench_executorch_peer_suite.py [--ops LSTM,GRU] [--sample 600 --seed 26]
[--workers 2] [--no-eager] [--fresh] [--json OUT]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support import onnx_peer_suite as suite  # noqa: E402

TIMEOUT_S = 120.0


def _init_worker() -> None:
    import warnings

    warnings.simplefilter("ignore")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch

    torch.set_num_threads(1)


def _warm() -> None:
    """Import and run the export path once (minutes of imports on a loaded host are not a case's time)."""
    import numpy as np
    from onnx import TensorProto, helper

    from bb_edge.convert.pte import export_pte

    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "warm",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    export_pte(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]))
    del np


def _key() -> str:
    import importlib.metadata as md

    import executorch  # noqa: F401 - its version is part of the key

    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for f in ("bb_edge/convert/onnx_torch.py", "bb_edge/convert/torch_ops.py", "bb_edge/convert/pte.py",
              "bb_edge/convert/torch_control.py", "bb_edge/convert/torch_seq.py", "bb_edge/convert/torch_dynamic.py",
              "bb_edge/convert/torch_ops_more.py", "bb_edge/convert/torch_exact.py", "bb_edge/backends/executorch.py",
              "tests/support/onnx_peer_suite.py"):
        h.update((root / f).read_bytes())
    for pkg in ("executorch", "torch", "onnxruntime"):
        h.update(md.version(pkg).encode())
    return h.hexdigest()[:12]


def run_all(names: list[str], results: Path, budget_s: float | None = None,
            workers: int = 1) -> dict[str, dict[str, Any]]:
    """Cases in ``names`` not yet in ``results``, in ``workers`` worker processes, in a seeded random order (a
    run cut short by ``budget_s`` is a uniform sample); the results by name of every case done."""
    import random
    import threading
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    done: dict[str, dict[str, Any]] = {}
    if results.exists():
        for line in results.read_text().splitlines():
            r = json.loads(line)
            done[r["name"]] = r
    todo = [n for n in names if n not in done]
    random.Random(26).shuffle(todo)
    t0 = time.monotonic()
    lock = threading.Lock()
    queue = list(reversed(todo))

    def loop(prog: Any, task: Any, out: Any) -> None:
        pool = _restart(None)
        try:
            while True:
                with lock:
                    if not queue or (budget_s is not None and time.monotonic() - t0 > budget_s):
                        return
                    name = queue.pop()
                    prog.update(task, case=name)
                fut = pool.submit(suite.run_case, name)
                try:
                    r = fut.result(timeout=TIMEOUT_S)
                except (cf.TimeoutError, cf.process.BrokenProcessPool) as exc:
                    pool = _restart(pool)
                    why = "timeout" if isinstance(exc, cf.TimeoutError) else "worker crashed"
                    r = {"name": name, "op": "?", "ort": {"ok": True}, "et": {"ok": False, "cls": f"harness: {why}",
                                                                          "detail": why, "extra": {}}}
                    try:
                        r["op"] = suite.load(name).op
                    except Exception:  # noqa: BLE001
                        pass
                with lock:
                    done[name] = r
                    out.write(json.dumps(r) + "\n")
                    out.flush()
                    prog.advance(task)
        finally:
            _stop(pool)

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[case]}")) as prog, results.open("a") as out:
        task = prog.add_task("peer suite", total=len(names), completed=len(names) - len(todo), case="")
        threads = [threading.Thread(target=loop, args=(prog, task, out)) for _ in range(max(1, workers))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return {n: done[n] for n in names if n in done}


def _stop(pool: cf.ProcessPoolExecutor) -> None:
    for p in list((getattr(pool, "_processes", None) or {}).values()):
        p.kill()  # our own worker, by its process object
    pool.shutdown(wait=False, cancel_futures=True)


def _restart(pool: cf.ProcessPoolExecutor | None) -> cf.ProcessPoolExecutor:
    if pool is not None:
        _stop(pool)
    fresh = cf.ProcessPoolExecutor(1, initializer=_init_worker)
    fresh.submit(_warm).result()  # no case timeout while the worker imports torch/executorch
    return fresh


def converter_pass(names: list[str]) -> dict[str, bool | None]:
    """Every case through ORT and the converter alone (eager torch, no export): None where ORT fails."""
    from rich.progress import track

    out: dict[str, bool | None] = {}
    _init_worker()
    for n in track(names, description="converter (eager)"):
        case = suite.load(n)
        out[n] = suite.run_converter(case).ok if suite.run_ort(case).ok else None
    return out


def report(res: dict[str, dict[str, Any]], total_names: int | None = None,
           eager: dict[str, bool | None] | None = None) -> dict[str, Any]:
    """Print the table by op, the pass rate and the failures grouped; the figures as a dict."""
    from rich.console import Console
    from rich.table import Table

    con = Console()
    by_op: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    groups: dict[str, list[str]] = defaultdict(list)
    for r in res.values():
        row = by_op[r["op"]]
        row[0] += 1
        if not r["ort"]["ok"]:
            continue
        row[1] += 1
        et = r["et"]
        if et["ok"]:
            row[2] += 1
        else:
            key = et["cls"] + (f": {et['detail']}" if et["cls"] == "unsupported op" else "")
            groups[key].append(f"{r['name']}" + ("" if et["cls"] == "unsupported op" else f" ({et['detail']})"))
    t = Table(title="ONNX node tests: ExecuTorch vs ONNX Runtime, by op")
    for c in ("op", "cases", "ORT passes", "ExecuTorch passes", "rate"):
        t.add_column(c, justify="left" if c == "op" else "right")
    for op in sorted(by_op):
        n, o, e = by_op[op]
        t.add_row(op, str(n), str(o), str(e), f"{e / o:.0%}" if o else "-")
    con.print(t)
    total = len(res)
    ort_ok = sum(v[1] for v in by_op.values())
    et_ok = sum(v[2] for v in by_op.values())
    if eager is not None:
        e_ort = sum(v is not None for v in eager.values())
        e_ok = sum(bool(v) for v in eager.values())
        con.print(f"converter alone (eager torch), all {len(eager)} cases: ORT passes {e_ort}, the converter "
                  f"matches {e_ok} = [bold]{e_ok / max(e_ort, 1):.1%}[/] of what ORT passes")
    if total_names is not None and total < total_names:
        con.print(f"[yellow]ExecuTorch run cut short by --budget-min: {total} of {total_names} cases, a uniform "
                  f"sample (seed 26)[/]")
    con.print(f"cases {total}; ORT passes {ort_ok}; ExecuTorch passes {et_ok} = "
              f"[bold]{et_ok / max(ort_ok, 1):.1%}[/] of what ORT passes (goal >= 95%)")
    classes: Counter[str] = Counter()
    for k, v in groups.items():
        classes[k.split(":")[0] if not k.startswith("unsupported") else "unsupported op"] += len(v)
    con.print("failure classes: " + ", ".join(f"{k} {v}" for k, v in classes.most_common()))
    for k, v in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        con.print(f"[bold]{len(v):4d}[/] {k}", soft_wrap=True)
        con.print("      " + "; ".join(v[:6]) + (f"; ... (+{len(v) - 6})" if len(v) > 6 else ""), soft_wrap=True,
                  markup=False)
    figures: dict[str, Any] = {"cases": total, "of_cases": total_names or total, "ort_passes": ort_ok,
                               "executorch_passes": et_ok, "rate": et_ok / max(ort_ok, 1), "classes": dict(classes)}
    if eager is not None:
        figures["converter_eager"] = {"ort_passes": sum(v is not None for v in eager.values()),
                                      "matches": sum(bool(v) for v in eager.values())}
    return figures


def main() -> None:
    """Generate (once), run, print."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ops", help="only cases of these ops (comma-separated)")
    ap.add_argument("--cases", help="only these case names (comma-separated)")
    ap.add_argument("--fresh", action="store_true", help="ignore stored results")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--budget-min", type=float, help="stop starting ExecuTorch cases after this many minutes "
                    "(the cases done are a uniform random sample); default: run all")
    ap.add_argument("--no-eager", action="store_true", help="skip the converter-alone pass over every case")
    ap.add_argument("--sample", type=int, help="run a seeded uniform random sample of this many cases")
    ap.add_argument("--seed", type=int, default=26, help="the sample's seed (default 26)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    args = ap.parse_args()
    root = suite.generate()
    names = suite.case_names(root)
    if args.ops:
        want = set(args.ops.split(","))
        names = [n for n in names if suite.load(n, root).op in want]
    if args.cases:
        names = [n for n in names if n in set(args.cases.split(","))]
    n_all = len(names)
    if args.sample and args.sample < len(names):
        import random

        names = sorted(random.Random(args.seed).sample(names, args.sample))
        print(f"a seeded random sample: {len(names)} cases (--sample {args.sample} --seed {args.seed})")
    results = root.parent / f"results-{onnx_version()}-{_key()}.jsonl"
    if args.fresh and results.exists():
        results.unlink()
    eager = None if args.no_eager else converter_pass(names)
    budget = args.budget_min * 60 if args.budget_min else None
    figures = report(run_all(names, results, budget, args.workers), len(names), eager)
    figures["sample"] = {"size": len(names), "of": n_all, "seed": args.seed} if len(names) < n_all else None
    if figures["sample"]:
        print(f"(a seeded uniform random sample: {len(names)} of the {n_all} cases, seed {args.seed})")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


def onnx_version() -> str:
    """The installed onnx version (the cache key)."""
    import onnx

    return onnx.__version__


if __name__ == "__main__":
    main()
