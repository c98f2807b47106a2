"""MLPerf Tiny int8 models on bbrt: instructions, arena, static RAM, code and flash per model (issue 29).

Each model's QDQ ONNX is lowered with its own quantization (bb_edge/bbrt/lower_qdq.py) and run under
QEMU mps2-an386 (Cortex-M4, SMLAD kernels) with ``-icount shift=0`` through the instruction-count
harness (firmware/ports/qemu-cortex-m4/bench_main.c), on the stored reference inputs: the bench checks
that the outputs equal ``tflite_output`` before it reports a figure. Columns:

- instructions: per inference on the Cortex-M4 (SysTick ticks x 40 under -icount), and with the
  portable kernels (M4_KERNELS=) for the DSP kernels' gain, both measured here;
- arena: the planned arena; bound: the activation lower bound of the ONNX graph (int8, 1 byte each);
- static RAM: .data + .bss of the inference app (loader, kernels, arena); bbrt's M4 build: kernels -O2 (the
  Makefile's KERNEL_OPT, as TFLM ships its kernels), the rest -Os;
- code: .text of that app (weights are not in it); flash: code + the .bbrt program (weights included) as the
  M4 runs it: its FC and conv weights widened to int16 pairs where the DSP kernels take them so
  (bb_edge/bbrt/widen.py, 2 bytes per weight);
- slowest op: the opcode taking most instructions, and its share;
- bbrt patched (vww, ic): the same program with its first stages run in bands (bb_edge/bbrt/patch.py,
  as MCUNetV2), patched to at most 0.8x the unpatched program's arena lower bound with the fewest extra
  MACs; its arena is shown against that unpatched bound, its outputs checked against TFLite too.

The baseline, measured in the same run: TFLite Micro with CMSIS-NN (``OPTIMIZED_KERNEL_DIR=cmsis_nn``)
from pinned tflite-micro / CMSIS-NN / CMSIS_6 commits (bench/tflm/sources.py), built by TFLM's own
Makefile with the same ``arm-none-eabi-gcc`` at TFLM's shipped optimisation levels (core -Os, kernels and
CMSIS-NN -O2: its Makefile's KERNEL_OPTIMIZATION_LEVEL / THIRD_PARTY_KERNEL_OPTIMIZATION_LEVEL), running
the original ``.tflite`` on the same QEMU board with the same inputs and the same SysTick/-icount counter
(bench/tflm/). Its outputs must
equal ``tflite_output`` too before a figure is printed. TFLM columns: instructions, the arena the
interpreter reports (``arena_used_bytes``; the app is rebuilt with exactly that arena), static RAM
(.data + .bss, arena and interpreter objects included), code (.text, the model's bytes excluded) and
flash (code + the .tflite). Each model's rows: TFLM first, then bbrt, then bbrt / TFLM with the issue's goals
(instructions <= 0.6, arena <= 0.8, code <= 0.5, flash <= 1.0), then the published best cycles and bbrt / published.

TFLM needs its third-party sources, which its Makefile would download: pass ``--tflm-sources DIR``, a
directory with git repositories of tensorflow/tflite-micro, google/flatbuffers, google/gemmlowp,
google/ruy, mborgerding/kissfft, ARM-software/CMSIS_6, ARM-software/Cortex_DFP and ARM-software/CMSIS-NN
(as ``DIR/<owner>+<name>/repo`` or ``DIR/<name>``); the prepared tree and library are cached under
``~/.cache/bb-edge/tflm``. System packages: gcc-arm-none-eabi, libnewlib-arm-none-eabi,
libstdc++-arm-none-eabi-dev, libstdc++-arm-none-eabi-newlib (its ``-lstdc++_nano``), qemu-system-arm.
Without ``--tflm-sources`` the TFLM columns say "not built". For scale only: the best closed MLPerf Tiny v1.x
submissions on a 120 MHz Cortex-M4 run KWS in ~5.2 M cycles, VWW 10.7 M, ResNet-8 19.8 M and the anomaly
autoencoder 0.49 M.

``--m3`` adds a second table for continuity with bench/bench_bbrt.py: the same models on QEMU mps2-an385
(Cortex-M3), bbrt's portable kernels against TFLM's reference kernels (the same pinned tree built without
``OPTIMIZED_KERNEL_DIR``, the same single-rounding defines and optimisation levels), outputs checked the same way.

``--m55`` adds a Cortex-M55 table (QEMU mps3-an547, Helium): bbrt's portable kernels with their MVE inner loops
(firmware/src/mve/) and the same build for a Cortex-M55 without MVE (``-mcpu=cortex-m55+nomve``), outputs checked
the same way; instructions = SysTick ticks x 31.25 (32 MHz) under -icount shift=0. With ``--tflm-sources`` the
table starts with TFLM+CMSIS-NN built for the Cortex-M55 (``TARGET_ARCH=cortex-m55``: CMSIS-NN's MVE kernels,
``ARM_MATH_MVEI``, at the same shipped levels) on the same board and inputs, outputs checked the same way, and
gives bbrt MVE / TFLM MVE for instructions, arena and code against the M4 goals.

Run: PYTHONPATH=. python bench/bench_mlperf_tiny.py [--models ad,kws] [--quick] [--tflm-sources DIR] [--m3] [--m55]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bb_edge.bbrt.firmware import elf_sizes  # noqa: E402
from bb_edge.bbrt.patch import patch_lowered  # noqa: E402
from bb_edge.bbrt.widen import widen_lowered  # noqa: E402
from tests.support.mlperf import MODELS, NAMES, lowered, qemu_arm_run, reference  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent / "tflm"))
import baseline  # noqa: E402
import sources  # noqa: E402

#: published figures for scale (cycles, 120 MHz Cortex-M4, best closed submissions; from the issue)
PUBLISHED = {"kws": 5.2e6, "vww": 10.7e6, "ic": 19.8e6, "ad": 0.49e6}
#: models measured patched too, to this fraction of the unpatched program's arena lower bound
PATCHED, PATCH_TO = ("vww", "ic"), 0.8


def measure_patched(name: str, d: Path, n: int) -> dict[str, object] | None:
    """The patched program's figures (outputs checked against TFLite first), None if it cannot be patched."""
    _, x, y = reference(name)
    L = lowered(name)
    bound = L.program.arena_lower_bound
    P = patch_lowered(L, int(PATCH_TO * bound))
    if P is None:
        return None
    out, insns, info = qemu_arm_run(P, x[:n], d, kind="cortex-m4", opt="-Os")
    if not np.array_equal(out, y[:n].reshape(n, -1)):
        raise SystemExit(f"{name}: the patched program's outputs differ from tflite_output; no figure reported")
    sizes = elf_sizes(Path(info["elf"]), "arm-none-eabi-")
    return {"insns": insns, "arena": P.program.arena_size, "bound": bound, "ram": sizes["data"] + sizes["bss"],
            "code": sizes["text"], "flash": sizes["text"] + len(widen_lowered(P).blob), "bands": P.patch["bands"],
            "stage": P.patch["stage_ops"], "macs": P.patch["macs"] / P.patch["unpatched_macs"] - 1}


def measure(name: str, d: Path, quick: bool) -> dict[str, object]:
    """Every figure of one model (the outputs checked against TFLite first)."""
    _, x, y = reference(name)
    L = lowered(name)
    n = 1 if quick else len(x)
    out, insns, info = qemu_arm_run(L, x[:n], d / "dsp", kind="cortex-m4", opt="-Os")
    if not np.array_equal(out, y[:n].reshape(n, -1)):
        raise SystemExit(f"{name}: the Cortex-M4 outputs differ from tflite_output; no figure reported")
    _, portable, _ = qemu_arm_run(L, x[:1], d / "portable", kind="cortex-m4", opt="-Os", dsp=False)
    sizes = elf_sizes(Path(info["elf"]), "arm-none-eabi-")
    per_op: dict[str, float] = info["per_op"]
    # convs by kind (what holds the figure back): pointwise, depthwise, full (kh x kw), with their MACs
    kinds: dict[str, list[float]] = {}
    for op, ins in zip(L.program.ops, info["ops"], strict=True):
        if op.opcode.name != "CONV_I8":
            continue
        w = L.program.tensors[op.inputs[1]].shape
        ys = L.program.tensors[op.outputs[0]].shape
        k = "pointwise" if w[2:] == (1, 1) and op.params[8] == 1 else \
            ("depthwise" if w[1] == 1 and op.params[8] > 1 else f"full {w[2]}x{w[3]}")
        macs = float(np.prod(ys)) * w[1] * w[2] * w[3]
        acc = kinds.setdefault(k, [0.0, 0.0])
        acc[0] += ins
        acc[1] += macs
    slow = max(per_op, key=lambda k: per_op[k])
    patched = measure_patched(name, d / "patched", n) if name in PATCHED else None
    flash = sizes["text"] + len(widen_lowered(L).blob)  # the program the M4 ran
    return {"insns": insns, "portable": portable, "arena": L.program.arena_size, "bound": L.model_lower_bound,
            "ram": sizes["data"] + sizes["bss"], "code": sizes["text"], "flash": flash,
            "weights": L.program.const_bytes(), "slow": slow, "slow_share": per_op[slow] / sum(per_op.values()),
            "inputs": n, "per_op": per_op, "patched": patched,
            "convs": {k: f"{v[0]:,.0f} insns / {v[1]:,.0f} MACs = {v[0] / max(v[1], 1):.1f}" for k, v in kinds.items()}}


def measure_tflm(name: str, tree: Path, d: Path, quick: bool, core: str = "cortex-m4") -> baseline.Figures:
    """TFLM+CMSIS-NN's figures for one model on ``core`` (its outputs checked against TFLite first)."""
    _, x, y = reference(name)
    n = 1 if quick else len(x)
    fig = baseline.measure(tree, core, MODELS / "tflite" / f"{baseline.TFLITE[name]}.tflite", x[:n], d)
    if not np.array_equal(fig.outputs, y[:n].reshape(n, -1)):
        raise SystemExit(f"{name}: TFLM's {core} outputs differ from tflite_output; no figure reported")
    return fig


#: bbrt / TFLM goals of issue 36 (Build 3 and 5: the same on the Cortex-M4 and the Cortex-M55)
GOALS = {"insns": 0.6, "arena": 0.8, "code": 0.5, "flash": 1.0}


def _cell(v: float, goal: float) -> str:
    return f"**{v:.2f}**" if v <= goal else f"{v:.2f} (goal {goal})"


def table(res: dict[str, dict[str, object]], tflm: dict[str, baseline.Figures]) -> None:
    """The Cortex-M4 table: per model TFLM+CMSIS-NN at its shipped levels, bbrt, bbrt / TFLM with the goals,
    then the published best cycles with bbrt / published."""
    print("| model | runtime | instructions (M4) | arena | static RAM | code | flash | slowest op (share) |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for name, r in res.items():
        t = tflm.get(name)
        p = r.get("patched")
        if t is None:
            print(f"| {name} | TFLM+CMSIS-NN | not built (--tflm-sources) | | | | | |")
        else:
            print(f"| {name} | TFLM+CMSIS-NN (core {baseline.OPT}, kernels {baseline.KERNEL_OPT}) | {t.insns:,.0f} "
                  f"| {t.arena:,} | {t.ram:,} | {t.code:,} | {t.flash:,} | |")
        print(f"| {name} | bbrt (SMLAD, kernels -O2; portable {r['portable']:,.0f}) | {r['insns']:,.0f} "
              f"| {r['arena']:,} (bound {r['bound']:,}) | {r['ram']:,} | {r['code']:,} | {r['flash']:,} "
              f"| {r['slow']} ({r['slow_share']:.0%}) |")
        if isinstance(p, dict):
            print(f"| {name} | bbrt patched (ops 1-{p['stage']} in {p['bands']} bands, {p['macs']:+.1%} MACs) "
                  f"| {p['insns']:,.0f} | {p['arena']:,} (unpatched bound {p['bound']:,}) | {p['ram']:,} "
                  f"| {p['code']:,} | {p['flash']:,} | |")
        if t is not None:
            ratios = {"insns": float(r["insns"]) / t.insns, "arena": float(r["arena"]) / t.arena,  # type: ignore[arg-type]
                      "code": float(r["code"]) / t.code, "flash": float(r["flash"]) / t.flash}  # type: ignore[arg-type]
            cells = {k: _cell(v, GOALS[k]) for k, v in ratios.items()}
            ram = float(r["ram"]) / t.ram  # type: ignore[arg-type]
            print(f"| {name} | bbrt / TFLM | {cells['insns']} | {cells['arena']} | {ram:.2f} | {cells['code']} "
                  f"| {cells['flash']} | |")
            if isinstance(p, dict):
                print(f"| {name} | bbrt patched / TFLM | {p['insns'] / t.insns:.2f} | {p['arena'] / t.arena:.2f} "
                      f"| {p['ram'] / t.ram:.2f} | {p['code'] / t.code:.2f} | {p['flash'] / t.flash:.2f} | |")
        pub = PUBLISHED.get(name)
        if pub:
            mine = float(r["insns"])  # type: ignore[arg-type]
            print(f"| {name} | published best (cycles, 120 MHz M4) | {pub:,.0f} | | | | "
                  f"| bbrt / published {_cell(mine / pub, 1.0)} |")
    print("\nBoth runtimes bit-exact with tflite_output on every input run (checked before each row); "
          f"TFLM {sources.TFLM_COMMIT}, CMSIS-NN {sources.THIRD_PARTY[-1].commit[:9]}, "
          f"arm-none-eabi-gcc, TFLM's shipped levels: core {baseline.OPT}, kernels and CMSIS-NN "
          f"{baseline.KERNEL_OPT}; bbrt on the M4: kernels -O2, the rest -Os. Published best: closed MLPerf Tiny "
          "v1.x, 120 MHz Cortex-M4, cycles (bbrt's instructions over them; cycles are at least instructions on an "
          "M4).")


def measure_m3(name: str, tree: Path | None, d: Path, quick: bool) -> tuple[dict[str, float], baseline.Figures | None]:
    """The continuity column on QEMU mps2-an385 (Cortex-M3): bbrt's portable kernels and TFLM's reference
    kernels (no OPTIMIZED_KERNEL_DIR, same single rounding and levels), both checked against TFLite first."""
    _, x, y = reference(name)
    L = lowered(name)
    n = 1 if quick else len(x)
    want = y[:n].reshape(n, -1)
    out, insns, info = qemu_arm_run(L, x[:n], d / "bbrt-m3", kind="cortex-m3", opt="-Os")
    if not np.array_equal(out, want):
        raise SystemExit(f"{name}: bbrt's Cortex-M3 outputs differ from tflite_output; no figure reported")
    sizes = elf_sizes(Path(info["elf"]), "arm-none-eabi-")
    mine = {"insns": insns, "arena": float(L.program.arena_size), "ram": float(sizes["data"] + sizes["bss"]),
            "code": float(sizes["text"]), "flash": float(sizes["text"] + len(L.blob))}
    if tree is None:
        return mine, None
    fig = baseline.measure(tree, "cortex-m3", MODELS / "tflite" / f"{baseline.TFLITE[name]}.tflite", x[:n],
                           d / "tflm-m3")
    if not np.array_equal(fig.outputs, want):
        raise SystemExit(f"{name}: TFLM's Cortex-M3 reference-kernel outputs differ from tflite_output; "
                         "no figure reported")
    return mine, fig


def table_m3(res: dict[str, tuple[dict[str, float], baseline.Figures | None]]) -> None:
    """The second table: bbrt vs TFLM's reference kernels on the Cortex-M3, with bbrt/TFLM ratios."""
    print("\n| model (Cortex-M3) | instructions bbrt / TFLM ref | ratio | arena bbrt / TFLM | ratio "
          "| static RAM bbrt / TFLM | ratio | code bbrt / TFLM | ratio | flash bbrt / TFLM | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, (r, t) in res.items():
        if t is None:
            print(f"| {name} | {r['insns']:,.0f} / not built (--tflm-sources) | | {r['arena']:,.0f} | "
                  f"| {r['ram']:,.0f} | | {r['code']:,.0f} | | {r['flash']:,.0f} | |")
            continue
        theirs = {"insns": t.insns, "arena": t.arena, "ram": t.ram, "code": t.code, "flash": t.flash}
        cells = " | ".join(f"{r[k]:,.0f} / {theirs[k]:,.0f} | {r[k] / theirs[k]:.2f}" for k in theirs)
        print(f"| {name} | {cells} |")
    print("\nCortex-M3 (QEMU mps2-an385, -icount shift=0): bbrt's portable kernels against TFLM's reference "
          f"kernels (TFLM {sources.TFLM_COMMIT}, no OPTIMIZED_KERNEL_DIR, single rounding, "
          f"arm-none-eabi-gcc, core {baseline.OPT}, kernels {baseline.KERNEL_OPT}); "
          f"both bit-exact with tflite_output on every input run.")


def measure_m55(name: str, tree: Path | None, d: Path, quick: bool) -> tuple[dict[str, float],
                                                                          baseline.Figures | None]:
    """bbrt on QEMU mps3-an547 (Cortex-M55) with and without MVE, and TFLM+CMSIS-NN's MVE build when ``tree``
    is given; every output checked against TFLite first."""
    _, x, y = reference(name)
    L = lowered(name)
    n = 1 if quick else len(x)
    want = y[:n].reshape(n, -1)
    out, mve, info = qemu_arm_run(L, x[:n], d / "mve", kind="cortex-m55", opt="-Os")
    out2, scalar, info2 = qemu_arm_run(L, x[:n], d / "nomve", kind="cortex-m55", opt="-Os", dsp=False)
    if not (np.array_equal(out, want) and np.array_equal(out2, want)):
        raise SystemExit(f"{name}: bbrt's Cortex-M55 outputs differ from tflite_output; no figure reported")
    sizes, sizes2 = elf_sizes(Path(info["elf"]), "arm-none-eabi-"), elf_sizes(Path(info2["elf"]), "arm-none-eabi-")
    mine = {"mve": mve, "nomve": scalar, "code": float(sizes["text"]), "code_nomve": float(sizes2["text"]),
            "arena": float(L.program.arena_size)}
    return mine, (measure_tflm(name, tree, d / "tflm-m55", quick, "cortex-m55") if tree is not None else None)


def table_m55(res: dict[str, tuple[dict[str, float], baseline.Figures | None]],
              m4: dict[str, dict[str, object]]) -> None:
    """The Cortex-M55 table: TFLM+CMSIS-NN (MVE) first, bbrt with MVE and bbrt / TFLM with the goals, then
    bbrt without MVE, the M4 SMLAD build and the published best M4 cycles."""
    print("\n| model (Cortex-M55) | instructions TFLM MVE / bbrt MVE | ratio | arena TFLM / bbrt | ratio "
          "| code TFLM / bbrt | ratio | bbrt without MVE (code) | MVE gain | bbrt M4 SMLAD | published best M4 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, (r, t) in res.items():
        m4i = float(m4[name]["insns"]) if name in m4 else 0.0  # type: ignore[arg-type]
        pub = PUBLISHED.get(name)
        if t is None:
            ins, ar, co = (f"not built / {r['mve']:,.0f} | ", f"not built / {r['arena']:,.0f} | ",
                           f"not built / {r['code']:,.0f} | ")
        else:
            ins = f"{t.insns:,.0f} / {r['mve']:,.0f} | {_cell(r['mve'] / t.insns, GOALS['insns'])}"
            ar = f"{t.arena:,} / {r['arena']:,.0f} | {_cell(r['arena'] / t.arena, GOALS['arena'])}"
            co = f"{t.code:,} / {r['code']:,.0f} | {_cell(r['code'] / t.code, GOALS['code'])}"
        print(f"| {name} | {ins} | {ar} | {co} | {r['nomve']:,.0f} ({r['code_nomve']:,.0f}) "
              f"| {r['nomve'] / r['mve']:.2f}x | {f'{m4i:,.0f}' if m4i else '-'} | {f'{pub:,.0f}' if pub else '-'} |")
    print("\nCortex-M55 (QEMU mps3-an547, -icount shift=0, SysTick at 32 MHz: ticks x 31.25). bbrt: -mcpu=cortex-m55 "
          "-mfloat-abi=hard -Os, MVE loops at -O2. TFLM+CMSIS-NN: TFLM's cortex_m_generic TARGET_ARCH=cortex-m55 "
          f"(CMSIS-NN's MVE kernels), core {baseline.OPT}, kernels and CMSIS-NN {baseline.KERNEL_OPT}. Every output "
          "of all three builds bit-exact with tflite_output on every input run; ratios bbrt / TFLM.")


def main() -> None:
    """Measure the selected models and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(NAMES))
    ap.add_argument("--quick", action="store_true", help="one reference input per model instead of 8")
    ap.add_argument("--tflm-sources", type=Path, default=None,
                    help="directory of the baseline's git repositories (module docstring); without it, no TFLM columns")
    ap.add_argument("--m3", action="store_true",
                    help="also the Cortex-M3 table: bbrt vs TFLM's reference kernels (mps2-an385)")
    ap.add_argument("--m55", action="store_true",
                    help="also the Cortex-M55 table: bbrt with and without Helium, TFLM+CMSIS-NN MVE (mps3-an547)")
    args = ap.parse_args()
    res: dict[str, dict[str, object]] = {}
    tflm: dict[str, baseline.Figures] = {}
    tree = sources.prepare(args.tflm_sources) if args.tflm_sources else None
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            res[name] = measure(name, Path(tmp) / name, args.quick)
            print(f"{name}: {res[name]['insns']:,.0f} instructions; per op: "
                  + ", ".join(f"{k} {v:,.0f}" for k, v in sorted(res[name]["per_op"].items(),  # type: ignore[attr-defined]
                                                                  key=lambda kv: -kv[1])), file=sys.stderr)
            for k, v in res[name]["convs"].items():  # type: ignore[attr-defined]
                print(f"  {name} CONV_I8 {k}: {v} instructions per MAC", file=sys.stderr)
            if tree is not None:
                tflm[name] = measure_tflm(name, tree, Path(tmp) / f"tflm-{name}", args.quick)
                print(f"{name}: TFLM+CMSIS-NN {tflm[name].insns:,.0f} instructions", file=sys.stderr)
    table(res, tflm)
    if args.m55:
        with tempfile.TemporaryDirectory() as tmp:
            table_m55({name: measure_m55(name, tree, Path(tmp) / name, args.quick)
                       for name in args.models.split(",")}, res)
    if args.m3:
        with tempfile.TemporaryDirectory() as tmp:
            table_m3({name: measure_m3(name, tree, Path(tmp) / name, args.quick) for name in args.models.split(",")})


if __name__ == "__main__":
    main()
