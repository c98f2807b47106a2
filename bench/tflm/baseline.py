"""Build and run the TFLite Micro + CMSIS-NN baseline on QEMU Cortex-M (bench/bench_mlperf_tiny.py).

The library: TFLM's own Makefile (``microlite`` goal, ``TARGET=cortex_m_generic``,
``OPTIMIZED_KERNEL_DIR=cmsis_nn`` for the Cortex-M4 and the Cortex-M55, where ``TARGET_ARCH=cortex-m55`` gives
CMSIS-NN's MVE kernels; TFLM's reference kernels for the Cortex-M3), from the
tree :mod:`sources` prepares, with the machine's ``arm-none-eabi-gcc`` (the compiler bbrt's images use) and
TFLM's own shipped optimisation levels (its Makefile's defaults: ``CORE_OPTIMIZATION_LEVEL`` -Os,
``KERNEL_OPTIMIZATION_LEVEL`` and ``THIRD_PARTY_KERNEL_OPTIMIZATION_LEVEL`` -O2, so the kernels and CMSIS-NN
at -O2): each runtime is measured at its best shipped flags.
The app: ``harness/main.cc`` with the model's bytes as a const array in flash (section ``.model``), a
``MicroMutableOpResolver`` holding exactly the model's operators (read from the .tflite), the arena sized
to what the interpreter reports it used (two builds: measure, then size), newlib-nano for the C++ runtime
(Debian: libnewlib-arm-none-eabi, libstdc++-arm-none-eabi-dev and libstdc++-arm-none-eabi-newlib, which
holds the ``-lstdc++_nano`` the link takes).
Each core's board (:data:`CORES`) gives the QEMU machine, the app's flags and link script (the M55's:
``harness/link-m55.ld``, ports/qemu-cortex-m55's map) and the SysTick clock the instruction count divides by.
It runs under ``qemu-system-arm -icount shift=0`` with the same inputs file and output protocol as bbrt's
instruction-count harness, so both runtimes are timed the same way.
"""

from __future__ import annotations

import re
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HARNESS = Path(__file__).resolve().parent / "harness"
MAKEFILE = "tensorflow/lite/micro/tools/make/Makefile"
OPT = "-Os"  # TFLM's CORE_OPTIMIZATION_LEVEL (the interpreter core; the harness app)
#: TFLM's KERNEL_OPTIMIZATION_LEVEL and THIRD_PARTY_KERNEL_OPTIMIZATION_LEVEL (kernels, CMSIS-NN)
KERNEL_OPT = "-O2"


@dataclass(frozen=True)
class Board:
    """One core the baseline runs on: QEMU machine, TFLM's TARGET_ARCH and kernels, the app's flags and map."""

    machine: str
    arch: str  # TFLM TARGET_ARCH (and QEMU -cpu)
    kernels: str  # OPTIMIZED_KERNEL_DIR, "" for TFLM's reference kernels
    cpu: tuple[str, ...]  # the app's flags, matching the ABI TFLM's make uses for ``arch``
    link: str  # the harness link script
    inputs: int  # address of the inputs file ("BBIN")
    probe: int  # address of the arena probe ("ARNA")
    hz: int  # SysTick clock: instructions per tick = 1e9 / hz under -icount shift=0
    probe_arena: int  # arena of the probe build (the RAM region must hold it)


def _mps2(machine: str, arch: str, kernels: str) -> Board:
    """An MPS2 board (Cortex-M3/M4, 25 MHz): ports/qemu-cortex-m3's map, soft float as TFLM's target."""
    return Board(machine, arch, kernels, (f"-mcpu={arch}", "-mthumb", "-mfloat-abi=soft"), "link.ld",
                 inputs=0x00300000, probe=0x002FFF00, hz=25_000_000, probe_arena=1 << 20)


#: the M55 (SSE-300, 32 MHz): code in the 512 KiB ITCM, the model in SRAM (0x21000000), statics and arena in
#: the 512 KiB DTCM (ports/qemu-cortex-m55's map); -mfloat-abi=hard as TFLM's cortex-m55 target (FLOAT=hard)
CORES = {
    "cortex-m4": _mps2("mps2-an386", "cortex-m4", "cmsis_nn"),
    "cortex-m3": _mps2("mps2-an385", "cortex-m3", ""),
    "cortex-m55": Board("mps3-an547", "cortex-m55", "cmsis_nn",
                        ("-mcpu=cortex-m55", "-mthumb", "-mfpu=auto", "-mfloat-abi=hard"), "link-m55.ld",
                        inputs=0x21200000, probe=0x211FFF00, hz=32_000_000, probe_arena=384 << 10),
}


class BaselineError(RuntimeError):
    """The baseline could not be built or run (the message says which step)."""


def _run(cmd: list[str], cwd: Path | None = None, timeout: float = 3600) -> str:
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if p.returncode:
        raise BaselineError(f"{' '.join(cmd[:3])}… failed:\n{p.stdout[-3000:]}")
    return p.stdout


#: rounding of the requantization: "single" is the TFLite interpreter's (TFLITE_SINGLE_ROUNDING, and
#: CMSIS_NN_USE_SINGLE_ROUNDING for CMSIS-NN; the oracle ``tflite_output`` and bbrt use it); "double" is
#: TFLM's default build (gemmlowp's doubling high multiply then a rounding shift)
ROUNDING = {"single": ["-DTFLITE_SINGLE_ROUNDING=1", "-DCMSIS_NN_USE_SINGLE_ROUNDING"], "double": []}


def _gendir(rounding: str) -> str:
    """make's BASE_GENDIR: one per rounding and kernel level, so a build at other levels is never reused."""
    return f"gen-{rounding}-k{KERNEL_OPT[1:]}"


def _make_args(core: str, rounding: str) -> list[str]:
    arch, kernels = CORES[core].arch, CORES[core].kernels
    args = ["-f", MAKEFILE, "TARGET=cortex_m_generic", f"TARGET_ARCH={arch}", "TARGET_TOOLCHAIN_ROOT=/usr/bin/",
            "BUILD_TYPE=release", f"CORE_OPTIMIZATION_LEVEL={OPT}", f"KERNEL_OPTIMIZATION_LEVEL={KERNEL_OPT}",
            f"THIRD_PARTY_KERNEL_OPTIMIZATION_LEVEL={KERNEL_OPT}", f"BASE_GENDIR={_gendir(rounding)}"]
    if rounding != "double":  # the make's own defines, restated: a command-line value replaces them
        defines = ([f"-D{kernels.upper()}"] if kernels else []) + ["-DKERNELS_OPTIMIZED_FOR_SPEED"]
        args.append("ADDITIONAL_DEFINES=" + " ".join(defines + ROUNDING[rounding]))
    return args + ([f"OPTIMIZED_KERNEL_DIR={kernels}"] if kernels else [])


def library(tree: Path, core: str, rounding: str = "single", jobs: int = 2) -> Path:
    """libtensorflow-microlite.a for ``core`` (make builds it once per tree, then finds it up to date)."""
    _run(["make", f"-j{jobs}", *_make_args(core, rounding), "microlite"], cwd=tree)
    libs = sorted(tree.glob(f"{_gendir(rounding)}/cortex_m_generic_{CORES[core].arch}_release*/lib/"
                            "libtensorflow-microlite.a"))
    libs = [p for p in libs if ("cmsis_nn" in str(p)) == bool(CORES[core].kernels)]
    if not libs:
        raise BaselineError(f"no libtensorflow-microlite.a for {core} under {tree}/{_gendir(rounding)}")
    return libs[0]


def _fbs_enum(tree: Path) -> dict[int, str]:
    text = (tree / "tensorflow/compiler/mlir/lite/schema/schema.fbs").read_text()
    body = text[text.index("enum BuiltinOperator"):]
    body = body[body.index("{") + 1:body.index("}")]
    return {int(v): k for k, v in re.findall(r"^\s*([A-Z0-9_]+)\s*=\s*(\d+)", body, re.M)}


def _operator_codes(model: bytes) -> list[int]:
    """Builtin operator codes of a .tflite flatbuffer (Model.operator_codes; deprecated or int32 field)."""

    def table(pos: int) -> tuple[int, int, int]:
        vt = pos - struct.unpack_from("<i", model, pos)[0]
        vt_len = struct.unpack_from("<H", model, vt)[0]
        return pos, vt, vt_len

    def field(t: tuple[int, int, int], idx: int) -> int:
        pos, vt, vt_len = t
        off = 4 + 2 * idx
        return struct.unpack_from("<H", model, vt + off)[0] if off < vt_len else 0

    root = table(struct.unpack_from("<I", model, 0)[0])
    f = field(root, 1)
    vec = root[0] + f + struct.unpack_from("<I", model, root[0] + f)[0]
    codes = []
    for i in range(struct.unpack_from("<I", model, vec)[0]):
        ep = vec + 4 + 4 * i
        oc = table(ep + struct.unpack_from("<I", model, ep)[0])
        dep = field(oc, 0)
        new = field(oc, 3)
        d = struct.unpack_from("<b", model, oc[0] + dep)[0] if dep else 0
        n = struct.unpack_from("<i", model, oc[0] + new)[0] if new else 0
        codes.append(max(d, n))
    return codes


def resolver_header(tree: Path, model: bytes) -> str:
    """``resolver.h``: BENCH_N_OPS and add_ops() registering exactly the model's operators."""
    names = _fbs_enum(tree)
    api = (tree / "tensorflow/lite/micro/micro_mutable_op_resolver.h").read_text()
    methods = {m.lower(): m for m in re.findall(r"TfLiteStatus (Add[A-Za-z0-9]+)\(", api)}
    calls = []
    for code in sorted(set(_operator_codes(model))):
        key = "add" + names[code].replace("_", "").lower()
        if key not in methods:
            raise BaselineError(f"TFLM has no resolver method for {names[code]}")
        calls.append(f"    r.{methods[key]}();  // {names[code]}")
    return ("#pragma once\n" f"#define BENCH_N_OPS {len(calls)}\n"
            "template <typename R> static void add_ops(R &r) {\n" + "\n".join(calls) + "\n}\n")


def model_header(model: bytes) -> str:
    """``model_data.h``: the .tflite bytes as a const array in the ``.model`` flash section."""
    rows = ",\n".join(", ".join(f"0x{b:02x}" for b in model[i:i + 24]) for i in range(0, len(model), 24))
    return ("#pragma once\n"
            "__attribute__((section(\".model\"), aligned(16))) static const unsigned char g_model[] = {\n"
            f"{rows}\n}};\nstatic const unsigned int g_model_len = {len(model)};\n")


def app(tree: Path, lib: Path, core: str, model: bytes, d: Path, arena: int, rounding: str = "single") -> Path:
    """The harness ELF for one model and arena size."""
    d.mkdir(parents=True, exist_ok=True)
    (d / "model_data.h").write_text(model_header(model))
    (d / "resolver.h").write_text(resolver_header(tree, model))
    b = CORES[core]
    cpu = list(b.cpu)
    dl = tree / "tensorflow/lite/micro/tools/make/downloads"
    inc = [f"-I{tree}", f"-I{dl}/flatbuffers/include", f"-I{dl}/gemmlowp", f"-I{dl}/ruy", f"-I{d}",
           f"-I{dl}/cmsis/CMSIS/Core/Include"]
    defs = ["-DTF_LITE_STATIC_MEMORY", "-DTF_LITE_DISABLE_X86_NEON", "-DTF_LITE_STRIP_ERROR_STRINGS",
            "-DNDEBUG", f"-DARENA_SIZE={arena}", f"-DINPUTS_ADDR={b.inputs:#x}u", f"-DPROBE_ADDR={b.probe:#x}u",
            f"-DCPU_HZ={b.hz}u"] + (["-DCMSIS_NN"] if b.kernels else []) + ROUNDING[rounding]
    common = [*cpu, OPT, "-ffunction-sections", "-fdata-sections", "-fno-common"]
    elf = d / "tflm.elf"
    _run(["arm-none-eabi-gcc", *common, "-c", str(HARNESS / "boot.c"), "-o", str(d / "boot.o")])
    _run(["arm-none-eabi-g++", *common, "-std=c++17", "-fno-rtti", "-fno-exceptions", "-fno-threadsafe-statics",
          "-fno-unwind-tables", *inc, *defs, "-c", str(HARNESS / "main.cc"), "-o", str(d / "main.o")])
    _run(["arm-none-eabi-g++", *cpu, "-nostartfiles", "--specs=nano.specs", "--specs=nosys.specs",
          "-T", str(HARNESS / b.link), "-Wl,--gc-sections", str(d / "boot.o"), str(d / "main.o"), str(lib),
          "-lm", "-o", str(elf)])
    syms = _run(["arm-none-eabi-nm", str(elf)])
    if re.search(r" [TtW] (malloc|_malloc_r|_sbrk)$", syms, re.M):
        raise BaselineError("the TFLM app links malloc: the comparison assumes no heap on either side")
    return elf


@dataclass
class Run:
    """One QEMU run of the harness: outputs per input, instructions per inference, arena TFLM used."""

    outputs: np.ndarray
    insns: float
    arena_used: int


def _qemu(elf: Path, core: str, files: dict[int, Path]) -> str:
    loaders = [a for addr, f in files.items() for a in ("-device", f"loader,file={f},addr=0x{addr:08x}")]
    return subprocess.run(["qemu-system-arm", "-M", CORES[core].machine, "-cpu", core, "-display", "none",
                           "-monitor", "none", "-serial", "null", "-icount", "shift=0", "-kernel", str(elf),
                           *loaders, "-semihosting-config", "enable=on,target=native"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1800).stdout


def loads_with(elf: Path, core: str, arena: int, d: Path) -> bool:
    """Whether AllocateTensors succeeds when the interpreter gets ``arena`` bytes (harness probe mode)."""
    f = d / "arena.bin"
    f.write_bytes(b"ARNA" + struct.pack("<I", arena))
    return "load 0" in _qemu(elf, core, {CORES[core].probe: f})


def run(elf: Path, core: str, inputs: np.ndarray, d: Path) -> Run:
    """Run ``elf`` on QEMU with ``inputs`` (int8, one row per inference) and parse the harness output."""
    blob = b"".join(np.ascontiguousarray(x).astype(np.int8).tobytes() for x in inputs)
    inp = d / "inputs.bin"
    inp.write_bytes(b"BBIN" + struct.pack("<I", len(inputs)) + blob)
    out = _qemu(elf, core, {CORES[core].inputs: inp})
    if "load 0" not in out:
        raise BaselineError(f"TFLM harness failed: {out[-2000:]}")
    runs = re.findall(r"^run (\d+)", out, re.M)
    if runs != ["0"] * len(inputs):
        raise BaselineError(f"TFLM Invoke statuses {runs}: {out[-2000:]}")
    outs = np.stack([np.frombuffer(bytes.fromhex(h), np.int8) for h in re.findall(r"^out ([0-9a-f]*)", out, re.M)])
    ticks = int(re.search(r"ticks (\d+)", out).group(1))  # type: ignore[union-attr]
    nruns = int(re.search(r"runs (\d+)", out).group(1))  # type: ignore[union-attr]
    used = int(re.search(r"arena_used (\d+)", out).group(1))  # type: ignore[union-attr]
    hz = int(re.search(r"^hz (\d+)", out, re.M).group(1))  # type: ignore[union-attr]
    return Run(outs, ticks * (1e9 / hz) / nruns, used)


def sections(elf: Path) -> dict[str, int]:
    """Section sizes of ``elf`` (``size -A``)."""
    out = _run(["arm-none-eabi-size", "-A", "-d", str(elf)])
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\.\S+)\s+(\d+)\s+\d+", out, re.M)}


#: the .tflite file of each int8 model (shared/models/mlperf-tiny/make_reference.py's pairs)
TFLITE = {"ad": "ad01_int8", "kws": "kws_ref_model", "ic": "pretrainedResnet_quant", "vww": "vww_96_int8",
          "strww": "str_ww_ref_model"}


@dataclass
class Figures:
    """TFLM's figures for one model: outputs checked by the caller against ``tflite_output``."""

    outputs: np.ndarray
    insns: float
    arena: int
    ram: int
    code: int
    flash: int


def measure(tree: Path, core: str, tflite: Path, inputs: np.ndarray, d: Path, rounding: str = "single") -> Figures:
    """Build the app twice (the smallest arena AllocateTensors accepts searched, then the app sized to it)
    and run every input on the sized one."""
    lib = library(tree, core, rounding)
    model = tflite.read_bytes()
    big = app(tree, lib, core, model, d / "probe", CORES[core].probe_arena, rounding)
    used = run(big, core, inputs[:1], d / "probe").arena_used
    # arena_used_bytes leaves out the alignment slack AllocateTensors needs: search upwards from it
    lo, hi = used, used + 64
    while not loads_with(big, core, hi, d / "probe"):
        lo, hi = hi, hi * 2 - used
    while hi - lo > 16:
        mid = (lo + hi) // 32 * 16
        lo, hi = (lo, mid) if loads_with(big, core, mid, d / "probe") else (mid, hi)
    arena = hi
    elf = app(tree, lib, core, model, d / "sized", arena, rounding)
    res = run(elf, core, inputs, d / "sized")
    s = sections(elf)
    code = s.get(".text", 0)
    # flash as bbrt's column counts it: code + the model (bbrt: code + the .bbrt program with its weights)
    return Figures(res.outputs, res.insns, arena, s.get(".data", 0) + s.get(".bss", 0), code,
                   code + s.get(".model", 0))
