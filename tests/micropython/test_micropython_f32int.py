"""bbnode/f32int.py: float32 arithmetic in small ints, the allocation-free path of MicroPython training.

Oracle: numpy float32 (``a + b``, ``a - b``, ``a * b``, ``a / b`` are IEEE round-to-nearest-even, so the
int results must equal them bit for bit for in-range values; ``np.exp`` within 2 ulp; ``ln`` in float64
for the loss's log). CPython runs the module itself under hypothesis; the same checks on a fixed sample
run inside the MicroPython WebAssembly VM on the bytecode .mpy, so MicroPython's own int semantics
(31-bit small ints, floor shifts of negatives) are exercised, and every VM result must equal CPython's.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bb_edge.mpy.cross import compile_file
from tests.support.mpy_vm import MPY_DIR, ensure_vm, run_vm

if str(MPY_DIR) not in sys.path:
    sys.path.insert(0, str(MPY_DIR))

from bbnode import f32int as F  # noqa: E402

LO, HI = 2.0**-63, 2.0**64
LONG = os.environ.get("BB_EDGE_LONG") == "1"
SETTINGS = settings(max_examples=5000 if LONG else 150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def f32(bits: int) -> np.float32:
    return np.array([bits], np.uint32).view(np.float32)[0]


def enc(v: np.float32) -> int:
    b = np.float32(v).tobytes()
    return F.from_bytes(b, 0)


def dec(x: int) -> np.float32:
    b = bytearray(4)
    F.into_bytes(b, 0, x)
    return np.frombuffer(bytes(b), np.float32)[0]


def ulps(a: np.float32, b: np.float32) -> int:
    return abs(int(np.float32(a).view(np.int32)) - int(np.float32(b).view(np.int32)))


def in_range(v: np.float32) -> bool:
    return v == 0 or LO <= abs(float(v)) < HI


def value(lo_exp: int = -63, hi_exp: int = 63) -> st.SearchStrategy[np.float32]:
    """Any float32 with an unbiased exponent in [lo_exp, hi_exp] (every mantissa, either sign)."""
    return st.builds(lambda s, e, m: f32((s << 31) | ((e + 127) << 23) | m), st.integers(0, 1),
                     st.integers(lo_exp, hi_exp), st.integers(0, (1 << 23) - 1))


def short(lo_exp: int, hi_exp: int) -> st.SearchStrategy[np.float32]:
    """A float32 whose significand has at most 14 bits: products of two round at an exact half often."""
    return st.builds(lambda s, e, m: f32((s << 31) | ((e + 127) << 23) | (m << 10)), st.integers(0, 1),
                     st.integers(lo_exp, hi_exp), st.integers(0, (1 << 13) - 1))


def pair(lo_exp: int = -63, hi_exp: int = 63) -> st.SearchStrategy[tuple[np.float32, np.float32]]:
    """Two independent values, two short significands (ties in a product), or b near +-a (cancellation,
    exact halves in a sum: the rounding corner cases)."""
    near = st.builds(lambda a, k, s, sh: (a, f32((int(np.float32(a).view(np.uint32)) + k) & 0xFFFFFFFF
                                               ^ (s << 31)) * np.float32(2.0**sh)),
                     value(lo_exp + 30, hi_exp - 30), st.integers(-3, 3), st.integers(0, 1), st.integers(-26, 26))
    return st.one_of(st.tuples(value(lo_exp, hi_exp), value(lo_exp, hi_exp)),
                     st.tuples(short(lo_exp, hi_exp), short(lo_exp, hi_exp)), near)


def check_exact(op: str, a: np.float32, b: np.float32) -> None:
    with np.errstate(all="ignore"):
        ref = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[op]
    assume(in_range(a) and in_range(b) and in_range(ref) and np.isfinite(ref))
    got = dec(getattr(F, op)(enc(a), enc(b)))
    assert got.view(np.uint32) == ref.view(np.uint32) or (got == 0 and ref == 0), (op, a, b, got, ref)


@SETTINGS
@given(pair())
def test_add_sub_bit_exact(ab: tuple[np.float32, np.float32]) -> None:
    a, b = ab
    check_exact("add", a, b)
    check_exact("sub", a, b)


@SETTINGS
@given(pair(-31, 31))
def test_mul_div_bit_exact(ab: tuple[np.float32, np.float32]) -> None:
    a, b = ab
    check_exact("mul", a, b)
    check_exact("div", a, b)


@settings(max_examples=2000 if LONG else 60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.tuples(value(-20, 20), value(-20, 20)), st.tuples(short(-20, 20), short(-20, 20))),
                min_size=1, max_size=12), value(-20, 20), st.integers(0, 3))
def test_dot_is_the_loop_of_mul_and_add(terms: list[tuple[np.float32, np.float32]], s0: np.float32,
                                        zeros: int) -> None:
    """dot() (the trainer's inner loop, mul and add inlined) gives the bits of add(s, mul(a, b)) term by term,
    strided as the backward pass reads its operands, with zero terms mixed in (the skipped ones)."""
    from array import array
    n = len(terms)
    a = [enc(t[0]) if (i + zeros) % 4 else 0 for i, t in enumerate(terms)]
    b = [enc(t[1]) for t in terms]
    A = array("i", [v for x in a for v in (x, 7)])  # stride 2: every other cell is not the operand's
    B = array("i", [v for x in b for v in (x, -5, 3)])  # stride 3
    s = ref = enc(s0)
    for i in range(n):
        ref = F.add(ref, F.mul(a[i], b[i]))
    assert F.dot(s, A, 0, 2, B, 0, 3, n) == ref


@SETTINGS
@given(st.floats(-43.5, 44.0, width=32))
def test_exp_within_two_ulp(x: float) -> None:
    xf = np.float32(x)
    ref = np.exp(xf)
    assume(LO <= ref < HI)
    assert ulps(dec(F.exp(enc(xf))), ref) <= 2, (xf, dec(F.exp(enc(xf))), ref)


@SETTINGS
@given(value(-63, 62).map(abs))
def test_log_for_the_loss(x: np.float32) -> None:
    assume(x > 0)
    got = dec(F.log(enc(x)))
    exact = np.log(np.float64(x))
    assert ulps(got, np.float32(exact)) <= 2 or abs(float(got) - exact) <= 2.0**-26, (x, got, exact)


@SETTINGS
@given(value(), value())
def test_int_order_is_float_order(a: np.float32, b: np.float32) -> None:
    assert (enc(a) < enc(b)) == (a < b) and (enc(a) == enc(b)) == (a == b)
    assert dec(F.fmax(enc(a), enc(b))) == max(a, b)
    assert dec(enc(a)).view(np.uint32) == a.view(np.uint32)  # in range: the encoding round-trips bit for bit


def test_range_edges_are_typed() -> None:
    """Out of range: flush to zero below 2**-63, F32Overflow at 2**64, for infinity/NaN and x / 0."""
    big, tiny = enc(np.float32(2.0**40)), enc(np.float32(2.0**-40))
    for bad in (lambda: F.mul(big, big), lambda: F.add(enc(np.float32(1.8e19)), enc(np.float32(1.8e19))),
                lambda: F.div(big, tiny), lambda: F.div(big, 0), lambda: F.exp(enc(np.float32(50.0))),
                lambda: F.from_bits(0, 0x7F80), lambda: F.from_bits(1, 0x7FC0), lambda: F.from_bytes(
                    np.float32(2.0**64).tobytes(), 0), lambda: F.log(0), lambda: F.log(-F.ONE)):
        with pytest.raises(F.F32Overflow):
            bad()
    assert F.mul(tiny, tiny) == 0 and F.exp(enc(np.float32(-50.0))) == 0
    assert F.from_bytes(np.float32(2.0**-64).tobytes(), 0) == 0  # below the 7-bit exponent: zero
    assert dec(F.from_bytes(np.float32(2.0**-63).tobytes(), 0)) == np.float32(2.0**-63)
    assert dec(F.from_bytes(np.float32(-(2.0**64) * (1 - 2**-24)).tobytes(), 0)) == np.float32(-(2.0**64)
                                                                                               * (1 - 2**-24))
    assert F.exp(0) == F.ONE and F.log(F.ONE) == 0 and dec(F.from_int(-12345)) == -12345


# ------------------------------------------------------------------------------------------- in the VM
VM_OPS = ("add", "sub", "mul", "div", "exp", "log")

VM_SCRIPT = """
import os
from bbnode import f32int as F
blob = open('pairs.bin', 'rb').read()
n = len(blob) // 12
out = bytearray(4 * len(OPS) * n)
o = 0
for i in range(n):
    a = F.from_bytes(blob, 12 * i)
    b = F.from_bytes(blob, 12 * i + 4)
    c = F.from_bytes(blob, 12 * i + 8)
    for r in (F.add(a, b), F.sub(a, b), F.mul(a, b), F.div(a, b), F.exp(c), F.log(b if b > 0 else -b)):
        F.into_bytes(out, o, r)
        o += 4
os.mkdir('out')
open('out/res.bin', 'wb').write(out)
print('DONE', n)
""".replace("OPS", repr(VM_OPS))


def _vm_sample(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n triples: a and b with random exponents in +-18 and +-30 (products and quotients stay in range), half
    of the b near +-a times 2**+-12 (cancellation and ties); c, exp's argument, uniform in [-43, 44]."""
    rng = np.random.default_rng(14)

    def bits(e: np.ndarray) -> np.ndarray:
        return ((rng.integers(0, 2, n).astype(np.uint32) << 31) | ((e + 127).astype(np.uint32) << 23)
                | rng.integers(0, 1 << 23, n).astype(np.uint32))

    a = bits(rng.integers(-18, 19, n)).view(np.float32)
    b = bits(rng.integers(-30, 31, n)).view(np.float32)
    near = rng.random(n) < 0.5
    nb = ((a.view(np.uint32) + rng.integers(-3, 4, n).astype(np.uint32)) ^ (rng.integers(0, 2, n).astype(np.uint32)
                                                                           << 31)).view(np.float32)
    b = np.where(near, nb * np.float32(2.0) ** rng.integers(-12, 13, n).astype(np.float32), b).astype(np.float32)
    c = rng.uniform(-43, 44, n).astype(np.float32)
    a[:4] = [0.0, 1.0, -43.0, 44.0]
    b[:4] = [1.5, -1.0, 2.0**-30, 3.0]
    c[:4] = [0.0, -43.0, 44.0, 1e-9]
    return a, b, c


def test_vm_sample_matches_numpy_and_cpython(tmp_path: Path) -> None:
    """The fixed sample in the MicroPython VM: add/sub/mul/div bit-exact with numpy float32, exp within
    2 ulp, and every result (exp and log too) identical to CPython running the same module."""
    a, b, c = _vm_sample(400)
    lib = tmp_path / "lib"
    for name in ("__init__", "f32int"):  # the module under test as bytecode (no .py the VM could fall back to)
        compile_file(MPY_DIR / "bbnode" / f"{name}.py", lib / "bbnode" / f"{name}.mpy", "", f"bbnode/{name}.py")
    vm = (ensure_vm(), lib)
    data = tmp_path / "data"
    data.mkdir()
    (data / "pairs.bin").write_bytes(np.stack([a, b, c], 1).astype("<f4").tobytes())
    out = run_vm(*vm, data, VM_SCRIPT, timeout=120)
    assert f"DONE {len(a)}" in out
    res = np.frombuffer((data / "out" / "res.bin").read_bytes(), "<f4").reshape(len(a), len(VM_OPS))
    with np.errstate(all="ignore"):
        refs = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b, "exp": np.exp(c)}
    checked = 0
    for i in range(len(a)):
        ea, eb = enc(a[i]), enc(b[i])
        cpy = [F.add(ea, eb), F.sub(ea, eb), F.mul(ea, eb), F.div(ea, eb), F.exp(enc(c[i])), F.log(abs(eb))]
        assert [struct.pack("<f", dec(x)) for x in cpy] == [struct.pack("<f", v) for v in res[i]], i
        for k, op in enumerate(VM_OPS[:5]):
            ref = refs[op][i]
            if not in_range(ref):
                continue
            checked += 1
            if op == "exp":
                assert ulps(res[i, k], ref) <= 2, (c[i], res[i, k], ref)
            else:
                assert res[i, k].view(np.uint32) == ref.view(np.uint32) or res[i, k] == ref == 0, (op, a[i], b[i])
    assert checked > 1900  # nearly every sample is in range: the comparison is not vacuous
    exact = np.log(np.abs(b).astype(np.float64))
    assert np.all((np.abs(res[:, 5] - exact) <= 2.0**-26) | (np.abs(res[:, 5] - exact) <= 2.5 * np.spacing(
        np.abs(exact).astype(np.float32)))), "log"
