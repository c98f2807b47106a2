"""No heap: no malloc/free/realloc/calloc/sbrk symbol in any built firmware ELF; an int8 node
(int8 edges) links no soft-float helper and no 64-bit division."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bb_edge.bbrt.native import cached_build, host_executable, make
from tests.support.no_heap import HEAP_SYMBOLS, check_no_heap, elf_symbols


def test_host_executable_has_no_heap_symbols() -> None:
    check_no_heap(host_executable())


@pytest.mark.parametrize("goal,nm", [("cortex-m3", "arm-none-eabi-nm"), ("rv32", "riscv64-unknown-elf-nm")])
def test_mcu_elves_have_no_heap_symbols(goal: str, nm: str) -> None:
    assert shutil.which(nm), f"{nm} missing: bash .ci/test.sh installs it"
    check_no_heap(cached_build(goal) / "bbrt.elf", nm)


# ---- int8-only programs (issue 16, code size) ----

#: 64-bit division helpers (Cortex-M3 divides 32-bit in hardware; checks must never need these)
DIV64 = {"__aeabi_ldivmod", "__aeabi_uldivmod", "__udivmoddi4", "__divdi3", "__udivdi3", "__moddi3", "__umoddi3"}
#: ARM EABI and libgcc soft-float helpers: float/double arithmetic, compares, conversions
SOFT_FLOAT = re.compile(r"^__aeabi_[fd][a-z0-9]+$|^__aeabi_u?[il]2[fd]$|^__[a-z]+[sd]f[0-9]$"
                        r"|^__fix(uns)?[sd]f[sd]i$|^__float(un)?[sd]i[sd]f$|^__extendsfdf2$|^__truncdfsf2$")
#: the int8 ops of the MLP and of the bench CNN with int8 edges (what the int8_elf fixture links)
INT8_OPS = {"CONV_I8", "CONV_POOL_I8", "FC_I8", "MAXPOOL_I8", "ADD_I8", "MUL_I8", "LUT_I8", "COPY"}


def soft_float_callers(elf: Path) -> dict[str, set[str]]:
    """Functions of ``elf`` that call an ARM soft-float helper (from the disassembly)."""
    out = subprocess.run(["arm-none-eabi-objdump", "-d", str(elf)], capture_output=True, text=True,
                         check=True).stdout
    callers: dict[str, set[str]] = {}
    fn = ""
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([A-Za-z0-9_.]+)>:$", line)
        if m:
            fn = m.group(1)
            continue
        c = re.search(r"\bbl\s+[0-9a-f]+ <(__aeabi_[a-z0-9]+|__[a-z]+sf[0-9]|bbrt_roundf_even|bbrt_expf)>", line)
        if c and not fn.startswith("__"):
            callers.setdefault(fn, set()).add(c.group(1))
    return callers


@pytest.fixture(scope="module")
def int8_elf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Cortex-M3 ELF whose generated resolver holds an int8 MLP/CNN's ops (no float op)."""
    from bb_edge.bbrt.format import Op
    from bb_edge.bbrt.resolver import resolver_source

    assert shutil.which("arm-none-eabi-gcc"), "arm-none-eabi-gcc missing: bash .ci/test.sh installs it"
    d = tmp_path_factory.mktemp("int8")
    res = d / "bbrt_resolver.c"
    res.write_text(resolver_source({Op[name] for name in INT8_OPS}))
    return make("cortex-m3", d / "build", RESOLVER=str(res)) / "bbrt.elf"


def test_int8_program_links_no_heap_and_no_64bit_division(int8_elf: Path) -> None:
    syms = elf_symbols(int8_elf, "arm-none-eabi-nm")
    check_no_heap(int8_elf, "arm-none-eabi-nm")
    assert not syms & DIV64, sorted(syms & DIV64)


def test_int8_program_links_only_its_ops_checks(int8_elf: Path) -> None:
    syms = elf_symbols(int8_elf, "arm-none-eabi-nm")
    assert {"bbrt_c_conv_i8", "bbrt_c_fc_i8", "bbrt_c_copy"} <= syms
    # the checks of ops the program does not use are gone, with their kernels
    assert not {"bbrt_c_conv_f32", "bbrt_c_matmul_f32", "bbrt_c_softmax_i8", "bbrt_c_concat"} & syms
    assert not {"bbrt_k_conv_f32", "bbrt_k_matmul_f32"} & syms


def test_int8_runtime_core_calls_no_soft_float(int8_elf: Path) -> None:
    callers = soft_float_callers(int8_elf)
    assert not callers, f"soft-float called from the node firmware: {callers}"
    # the oracle is live: the all-kernels build (float ops linked) does call soft-float from its kernels
    full = soft_float_callers(cached_build("cortex-m3") / "bbrt.elf")
    assert "bbrt_k_conv_f32" in full or "bbrt_k_fc_f32" in full


def test_int8_node_firmware_links_no_soft_float_helper(int8_elf: Path) -> None:
    """The whole int8 node (wire codec, link, node loop, loader, checks, kernels): no soft-float symbol.

    The node copies an int8 edge's payload as it is (its scale is contract, compared on its bits),
    and the envelope codec validates scales on their bits, so nothing pulls in a float helper.
    """
    syms = elf_symbols(int8_elf, "arm-none-eabi-nm")
    assert not {s for s in syms if SOFT_FLOAT.match(s)}, sorted(s for s in syms if SOFT_FLOAT.match(s))
    assert not syms & DIV64 and not syms & HEAP_SYMBOLS
    full = elf_symbols(cached_build("cortex-m3") / "bbrt.elf", "arm-none-eabi-nm")  # the pattern finds them
    assert {"__aeabi_fmul", "__aeabi_fadd"} <= {s for s in full if SOFT_FLOAT.match(s)}


def test_int8_edges_leave_only_int8_ops() -> None:
    """With int8 edges the MLP's program is FC_I8 only (inside int8_elf's op set); float32 edges add
    QUANTIZE/DEQUANTIZE, whose kernels are float code."""
    import numpy as np

    from tests.support.examples import small_mlp
    from bb_edge.bbrt.lower import lower

    m = small_mlp()
    calib = [{"x": np.random.default_rng(s).standard_normal((1, 64)).astype(np.float32)} for s in range(4)]
    floaty = lower(m, calib=calib)
    y = m.graph.output[0].name
    int8 = lower(m, calib=calib, io_quant={"x": floaty.qparams["x"], y: floaty.qparams[y]})
    assert {op.name for op in int8.ops_used} <= INT8_OPS
    assert {"QUANTIZE", "DEQUANTIZE"} <= {op.name for op in floaty.ops_used}
