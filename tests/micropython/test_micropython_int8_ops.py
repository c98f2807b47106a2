"""bbnode's kernels_ext (TRANSPOSE, GATHER, MAXMIN_I8, PRELU_I8, RESIZE_BILINEAR_I8, BATCH_MATMUL_I8) and
CONV_I8's two-rounding requantization (p11, TRANSPOSE_CONV) in the real MicroPython VM.

Programs: small int8 .tflite files written with the schema package's builder (tests/support/tflite_build.py,
shapes drawn from a seeded generator) translated and lowered as `bb-edge compile` does, and ONNX Gather
models with run-time int64/int32 indices. Every one runs in one VM session (the VM starts slowly); each
output must equal the C host build's bytes (HostProgram) and the independent oracle: the TFLite
interpreter's reference kernels (BUILTIN_REF) for the .tflite files, ONNX Runtime for Gather. The int8
programs' inference loops must allocate nothing, an out-of-range index must fail as RUN_INDEX before
anything is written, as in the C kernel, and a record the C loader refuses (one edited per case) must be
refused by the executor's load with the same status.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.format import RECV, SEND, Op, Program
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bundle.builders.micropython import MPY_OPCODES
from bb_edge.tflite import tflite_to_onnx
from tests.support.graphs import ort_run
from tests.support.mpy_vm import prepare_vm, run_vm
from tests.support.op_models import gather_model, tconv_model
from tests.support.tflite_build import M, O, T, act, build, int8_ops_chain

NEW = {Op.TRANSPOSE, Op.GATHER, Op.MAXMIN_I8, Op.PRELU_I8, Op.RESIZE_BILINEAR_I8, Op.BATCH_MATMUL_I8}
# ops whose MicroPython kernels allocate nothing per inference (the int8 programs here use only these)
ALLOC_FREE = NEW | {Op.CONV_I8, Op.GATHER_AXES, Op.COPY}


@dataclass
class Case:
    """A program, its samples (Recv tensor -> device-layout array) and the oracle's Send bytes per sample."""

    name: str
    L: Lowered
    feeds: list[dict[int, np.ndarray]]
    want: list[bytes]
    bad: list[dict[int, np.ndarray]] = field(default_factory=list)  # samples that must fail as RUN_INDEX


def _interpreter(data: bytes, xs: list[np.ndarray]) -> bytes:
    """BUILTIN_REF's output for the inputs ``xs`` (TFLite layout), as bbrt's Send tensor holds it (NCHW)."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    it = Interpreter(model_content=data, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), xs, strict=True):
        it.set_tensor(d["index"], x)
    it.invoke()
    y = it.get_tensor(it.get_output_details()[0]["index"])
    return np.ascontiguousarray(np.transpose(y, (0, 3, 1, 2)) if y.ndim == 4 else y).tobytes()


def tflite_case(name: str, data: bytes, samples: list[list[np.ndarray]]) -> Case:
    """A .tflite lowered as `bb-edge compile` does; each sample one array per graph input (TFLite layout)."""
    m = tflite_to_onnx(data, nchw_outputs=True)
    L = lower(m, io_edges=None)
    recv = [e.tensor for e in L.program.edges if e.direction == RECV]
    names = [i.name for i in m.graph.input]
    feeds = []
    for xs in samples:
        feeds.append({t: np.ascontiguousarray(np.transpose(x, L.input_perm[n]) if n in L.input_perm else x)
                      for t, n, x in zip(recv, names, xs, strict=True)})
    return Case(name, L, feeds, [_interpreter(data, xs) for xs in samples])


def i8(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.integers(-128, 128, shape).astype(np.int8)


def maxmin_cases(rng: np.random.Generator) -> list[Case]:
    """MAXIMUM/MINIMUM of two activations with a broadcast second operand, and with a constant."""
    out = []
    for k, op in enumerate(["MAXIMUM", "MINIMUM", "MAXIMUM", "MINIMUM"]):
        sa = (1, *(int(v) for v in rng.integers(1, 6, 3)))
        sb = tuple(d if rng.random() < 0.5 else 1 for d in sa)[4 - int(rng.integers(1, 5)):]
        s, z = float(rng.uniform(0.01, 0.2)), int(rng.integers(-20, 20))
        tens = [act("a", sa, s, z), act("b", sb, s, z), act("y", sa, s, z)]
        data = build(M(tens, [O(op, [0, 1], [2], None)], [0, 1], [2]))
        out.append(tflite_case(f"{op.lower()}{k}", data, [[i8(rng, sa), i8(rng, sb)] for _ in range(2)]))
    c = np.array([-128, 0, 40, 127], np.int8)
    tens = [act("x", (1, 3, 5, 4), 0.06, -9), T("c", (4,), "INT8", c, [0.06], [-9]), act("y", (1, 3, 5, 4), 0.06, -9)]
    data = build(M(tens, [O("MINIMUM", [0, 1], [2], None)], [0], [2]))
    out.append(tflite_case("minimum_const", data, [[i8(rng, (1, 3, 5, 4))] for _ in range(2)]))
    return out


def prelu_cases(rng: np.random.Generator) -> list[Case]:
    """PRELU with a per-channel, a per-element and an activation slope; random scales and zero points."""
    out = []
    for k, (xs, als) in enumerate([((1, 4, 5, 3), (1, 1, 3)), ((1, 3, 4, 5), (1, 3, 4, 5)), ((1, 2, 9), (9,))]):
        sx, sa, sy = (float(v) for v in rng.uniform(0.005, 0.2, 3))
        zx, za, zy = (int(v) for v in rng.integers(-100, 100, 3))
        tens = [act("x", xs, sx, zx), T("alpha", als, "INT8", i8(rng, als), [sa], [za]), act("y", xs, sy, zy)]
        data = build(M(tens, [O("PRELU", [0, 1], [2], None)], [0], [2]))
        out.append(tflite_case(f"prelu{k}", data, [[i8(rng, xs)] for _ in range(2)]))
    tens = [act("a", (1, 4, 5, 3), 0.05, 7), act("b", (1, 1, 1, 3), 0.02, -4), act("y", (1, 4, 5, 3), 0.03, 2)]
    data = build(M(tens, [O("PRELU", [0, 1], [2], None)], [0, 1], [2]))
    out.append(tflite_case("prelu_act", data, [[i8(rng, (1, 4, 5, 3)), i8(rng, (1, 1, 1, 3))] for _ in range(2)]))
    return out


def resize_cases(rng: np.random.Generator) -> list[Case]:
    """RESIZE_BILINEAR up and down, align_corners or half_pixel_centers (which extrapolates at the edges)."""
    out = []
    for k, (ac, hp) in enumerate([(False, False), (True, False), (False, True), (False, True)]):
        hw = tuple(int(v) for v in rng.integers(2, 7, 2))
        size = tuple(int(v) for v in rng.integers(1, 12, 2))
        tens = [act("x", (1, *hw, 3), 0.06, -9), T("size", (2,), "INT32", np.array(size, np.int32)),
                act("y", (1, *size, 3), 0.06, -9)]
        opts = ("ResizeBilinearOptions", {"AlignCorners": ac, "HalfPixelCenters": hp})
        data = build(M(tens, [O("RESIZE_BILINEAR", [0, 1], [2], opts)], [0], [2]))
        out.append(tflite_case(f"resize{k}", data, [[i8(rng, (1, *hw, 3))] for _ in range(2)]))
    return out


def bmm_cases(rng: np.random.Generator) -> list[Case]:
    """BATCH_MATMUL of two activations (3-D, 4-D with a broadcast batch dim, adj_x/adj_y) and by a constant."""
    out = []
    for k, (xa, xb, adj_x, adj_y, const) in enumerate([
            ((1, 5, 7), (1, 7, 6), False, False, False), ((1, 7, 5), (1, 6, 7), True, True, False),
            ((1, 2, 4, 9), (1, 1, 9, 3), False, False, False), ((1, 6, 8), (8, 5), False, False, True)]):
        ea, eb = list(xa), list(xb)
        if adj_x:
            ea[-2], ea[-1] = ea[-1], ea[-2]
        if adj_y:
            eb[-2], eb[-1] = eb[-1], eb[-2]
        r = max(len(xa), len(xb))
        fa, fb = [1] * (r - len(ea)) + ea, [1] * (r - len(eb)) + eb
        ys = tuple(max(p, q) for p, q in zip(fa[:-2], fb[:-2], strict=True)) + (ea[-2], eb[-1])
        sy = float(rng.uniform(0.01, 0.3))
        tb = T("b", xb, "INT8", i8(rng, xb), [0.02], [-7]) if const else act("b", xb, 0.02, -7)
        tens = [act("a", xa, 0.05, 12), tb, act("y", ys, sy, int(rng.integers(-10, 10)))]
        opts = ("BatchMatMulOptions", {"AdjX": adj_x, "AdjY": adj_y})
        data = build(M(tens, [O("BATCH_MATMUL", [0, 1], [2], opts)], [0] if const else [0, 1], [2]))
        samples = [[i8(rng, xa)] if const else [i8(rng, xa), i8(rng, xb)] for _ in range(2)]
        out.append(tflite_case(f"bmm{k}", data, samples))
    return out


def transpose_cases(rng: np.random.Generator) -> list[Case]:
    """TRANSPOSE of int8 activations (4-D and 3-D permutations; the lowering keeps a TRANSPOSE op)."""
    out = []
    for k, (xs, perm) in enumerate([((1, 3, 4, 5), [0, 2, 1, 3]), ((1, 2, 3, 4), [0, 3, 2, 1]),
                                    ((1, 6, 7), [0, 2, 1]), ((1, 4, 2, 3), [0, 1, 3, 2])]):
        ys = tuple(xs[p] for p in perm)
        tens = [act("x", xs, 0.07, -5), T("perm", (len(perm),), "INT32", np.array(perm, np.int32)),
                act("y", ys, 0.07, -5)]
        data = build(M(tens, [O("TRANSPOSE", [0, 1], [2], None)], [0], [2]))
        out.append(tflite_case(f"transpose{k}", data, [[i8(rng, xs)] for _ in range(2)]))
    return out


def tconv_cases(rng: np.random.Generator) -> list[Case]:
    """TRANSPOSE_CONV (CONV_I8 p11: TFLite's two roundings), per-channel and per-tensor weights."""
    out = []
    for k, (hw, kk, s, padding, kw) in enumerate([((3, 4), (3, 3), 2, 0, {}),
                                                  ((3, 3), (2, 2), 2, 1, {"per_channel": False, "activation": 1}),
                                                  ((4, 3), (3, 2), 1, 0, {"bias": False, "cin": 2, "cout": 3})]):
        data = tconv_model(hw, kk, s, padding, seed=k, **kw)
        out.append(tflite_case(f"tconv{k}", data, [[i8(rng, (1, *hw, kw.get("cin", 3)))] for _ in range(2)]))
    return out


def gather_cases(rng: np.random.Generator) -> list[Case]:
    """Gather with run-time indices: float32 data by int64 and int32 ids (negative ones too), and an int8
    embedding table (float output: the program dequantizes after the int8 GATHER)."""
    out = []
    for k, (xshape, ishape, axis, idt) in enumerate([([4, 3, 5], [2, 2], 1, np.int64), ([6, 4], [3], 0, np.int32),
                                                     ([2, 3, 7], [], -1, np.int64)]):
        n = xshape[axis]
        m = gather_model(xshape, ishape, axis, None, np.dtype(idt))
        sam = [{"x": rng.standard_normal(xshape).astype(np.float32), "ids": rng.integers(-n, n, ishape).astype(idt)}
               for _ in range(2)]
        L = lower(m, precision="fp32", calib=sam[:1])
        bad = [{L.index["x"]: sam[0]["x"], L.index["ids"]: np.full(ishape, v, idt)} for v in (n, -n - 1)]
        if idt == np.int64:
            bad.append({L.index["x"]: sam[0]["x"], L.index["ids"]: np.full(ishape, 2**40, idt)})
        out.append(Case(f"gather{k}", L, [{L.index[key]: v for key, v in s.items()} for s in sam],
                        [ort_run(m, s).tobytes() for s in sam], bad))
    table = rng.standard_normal((20, 8)).astype(np.float32)
    m = gather_model([20, 8], [2, 3], 0, table)
    ids = [rng.integers(-20, 20, (2, 3)).astype(np.int64) for _ in range(2)]
    L = lower(m, precision="int8", calib=[{"ids": i} for i in ids])
    c = Case("gather_int8_table", L, [{L.index["ids"]: i} for i in ids], [])
    c.want = [b"" for _ in ids]  # int8-quantized table: no ORT byte equality (the C build is the reference)
    out.append(c)
    return out


@functools.lru_cache(maxsize=1)
def all_cases() -> list[Case]:
    """Every program of the VM session (seeded: the same programs each run)."""
    rng = np.random.default_rng(2026)
    chain = int8_ops_chain()
    cases = [tflite_case("chain", chain, [[i8(rng, (1, 4, 6, 5))] for _ in range(2)])]
    for make in (maxmin_cases, prelu_cases, resize_cases, bmm_cases, transpose_cases, tconv_cases, gather_cases):
        cases += make(rng)
    return cases


def _edit(case: str, opcode: Op, how: str) -> tuple[str, bytes, Program]:
    """A copy of ``case``'s program with one record of ``opcode`` made invalid (``how``)."""
    prog = copy.deepcopy(next(c.L.program for c in all_cases() if c.name == case))
    op = next(o for o in prog.ops if o.opcode == opcode)
    op.params = [*op.params, *[0] * (16 - len(op.params))]  # the record holds 16; the list may stop early
    if how == "repeat_axis":  # TRANSPOSE: not a permutation
        op.params[1] = op.params[0]
    elif how == "axis":  # GATHER: an axis past the rank
        op.params[0] = 7
    elif how == "p0":  # MAXMIN_I8: neither max nor min
        op.params[0] = 2
    elif how == "stray_param":
        op.params[15] = 1
    elif how == "range":  # BATCH_MATMUL_I8: an empty output range
        op.params[2], op.params[3] = 5, 4
    elif how == "table":  # RESIZE_BILINEAR_I8: a source row past the input
        tab = prog.tensors[op.inputs[1]]
        assert tab.data is not None
        tab.data = tab.data.copy()
        tab.data.reshape(-1)[0] = 1000
    elif how == "p11":  # CONV_I8: p11 only 0 or 1
        op.params[11] = 2
    elif how == "shape":  # the output's dims reversed: the same bytes, not the shape the op makes
        t = prog.tensors[op.outputs[0]]
        assert t.shape != t.shape[::-1]
        t.shape = t.shape[::-1]
    return f"{opcode.name}:{how}", prog.to_bytes(), prog


def corrupt_programs() -> list[tuple[str, bytes, Program]]:
    """Programs the C loader refuses, one record of a kernels_ext opcode (or CONV_I8 p11) edited in each."""
    return [_edit("transpose0", Op.TRANSPOSE, "repeat_axis"), _edit("transpose0", Op.TRANSPOSE, "stray_param"),
            _edit("gather0", Op.GATHER, "axis"), _edit("gather1", Op.GATHER, "shape"),
            _edit("maximum0", Op.MAXMIN_I8, "p0"), _edit("prelu0", Op.PRELU_I8, "stray_param"),
            _edit("prelu0", Op.PRELU_I8, "shape"), _edit("resize0", Op.RESIZE_BILINEAR_I8, "table"),
            _edit("resize0", Op.RESIZE_BILINEAR_I8, "stray_param"), _edit("bmm0", Op.BATCH_MATMUL_I8, "range"),
            _edit("bmm0", Op.BATCH_MATMUL_I8, "shape"), _edit("tconv0", Op.CONV_I8, "p11")]


def host_bytes(L: Lowered, feeds: dict[int, np.ndarray]) -> bytes:
    hp = HostProgram(L.blob, L.program)
    hp.run(feeds)
    return b"".join(hp.view(e.tensor).tobytes() for e in L.program.edges if e.direction == SEND)


VM_SCRIPT = """
import gc, json, os
from bbnode.executor import Program
spec = json.load(open('spec.json'))
res = {}
os.mkdir('out')
def measure(run):  # a function: new module globals would grow the globals dict (an allocation)
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    for i in range(3):
        run()
    a1 = gc.mem_alloc()
    gc.enable()
    return a1 - a0
def feed(P, k, s, tag):
    for t in spec[k]['recv']:
        P.write_bytes(t, open('c%d_%s%d_%d.bin' % (k, tag, s, t), 'rb').read())
def run_case(k, c):
    P = Program(open('c%d.bbrt' % k, 'rb').read())
    for s in range(c['n']):
        feed(P, k, s, 's')
        P.run()
        with open('out/c%d_%d.bin' % (k, s), 'wb') as f:
            for t in c['send']:
                f.write(P.read_bytes(t))
    r = {'bad': []}
    for s in range(c['nbad']):
        for t in c['send']:
            P.write_bytes(t, bytes([0x5A]) * len(P.read_bytes(t)))
        feed(P, k, s, 'b')
        try:
            P.run()
            r['bad'].append('RAN')
        except ValueError as exc:
            same = all(P.read_bytes(t) == bytes([0x5A]) * len(P.read_bytes(t)) for t in c['send'])
            r['bad'].append(str(exc) + (' untouched' if same else ' written'))
    if c['alloc']:
        feed(P, k, 0, 's')
        P.run()
        r['alloc'] = measure(P.run)
    return r
for k in range(len(spec)):
    try:
        res[spec[k]['name']] = run_case(k, spec[k])
    except Exception as exc:  # one broken kernel fails its case, not the session
        res[spec[k]['name']] = {'error': repr(exc)}
    gc.collect()
ref = {}
for name in json.load(open('corrupt.json')):
    try:
        Program(open('bad_%s.bbrt' % name.replace(':', '_'), 'rb').read())
        ref[name] = 'LOADED'
    except ValueError as exc:
        ref[name] = str(exc)
res['_corrupt'] = ref
print('RES ' + json.dumps(res))
"""


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return prepare_vm(tmp_path_factory.mktemp("mpylib"))


@pytest.fixture(scope="module")
def vm_run(vm: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Case], Path, dict]:
    """Every case run once in one VM session: (cases, directory of the outputs, per-case results)."""
    driver, lib = vm
    d = tmp_path_factory.mktemp("ops")
    cases = all_cases()
    spec = []
    for k, c in enumerate(cases):
        (d / f"c{k}.bbrt").write_bytes(c.L.blob)
        for tag, samples in (("s", c.feeds), ("b", c.bad)):
            for s, f in enumerate(samples):
                for t, v in f.items():
                    (d / f"c{k}_{tag}{s}_{t}.bin").write_bytes(np.ascontiguousarray(v).tobytes())
        spec.append({"name": c.name, "n": len(c.feeds), "nbad": len(c.bad),
                     "recv": [e.tensor for e in c.L.program.edges if e.direction == RECV],
                     "send": [e.tensor for e in c.L.program.edges if e.direction == SEND],
                     "alloc": c.L.ops_used <= ALLOC_FREE})
    (d / "spec.json").write_text(json.dumps(spec))
    bad = corrupt_programs()
    for name, blob, _ in bad:
        (d / f"bad_{name.replace(':', '_')}.bbrt").write_bytes(blob)
    (d / "corrupt.json").write_text(json.dumps([n for n, _, _ in bad]))
    out = run_vm(driver, lib, d, VM_SCRIPT, timeout=600)
    res = json.loads(next(s for s in out.splitlines() if s.startswith("RES "))[4:])
    return cases, d, res


CASE_NAMES = ["chain", "maximum0", "minimum1", "maximum2", "minimum3", "minimum_const", "prelu0", "prelu1", "prelu2",
              "prelu_act", "resize0", "resize1", "resize2", "resize3", "bmm0", "bmm1", "bmm2", "bmm3", "transpose0",
              "transpose1", "transpose2", "transpose3", "tconv0", "tconv1", "tconv2", "gather0", "gather1", "gather2",
              "gather_int8_table"]


def test_the_cases_cover_every_new_kernel() -> None:
    assert [c.name for c in all_cases()] == CASE_NAMES
    used = set().union(*(c.L.ops_used for c in all_cases()))
    assert NEW <= used and NEW <= MPY_OPCODES and Op.SVDF_I8 not in MPY_OPCODES
    tconv = [o for c in all_cases() if c.name.startswith("tconv") for o in c.L.program.ops if o.opcode == Op.CONV_I8]
    assert tconv and all(o.params[11] == 1 for o in tconv)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_vm_equals_host_build_and_oracle(vm_run: tuple[list[Case], Path, dict], name: str) -> None:
    """The VM's Send bytes equal the C host build's, and the interpreter's (or ORT's) where it has them."""
    cases, d, res = vm_run
    k, c = next((k, c) for k, c in enumerate(cases) if c.name == name)
    assert "error" not in res[name], res[name]
    for s, f in enumerate(c.feeds):
        ref = host_bytes(c.L, f)
        assert (d / "out" / f"c{k}_{s}.bin").read_bytes() == ref, f"{name} sample {s}: VM != host build"
        if c.want[s]:
            assert ref == c.want[s], f"{name} sample {s}: host build != oracle"
    assert len(set(np.frombuffer(ref, np.int8).tolist())) > 3  # not a saturated constant


def test_int8_programs_allocate_nothing_per_inference(vm_run: tuple[list[Case], Path, dict]) -> None:
    cases, _, res = vm_run
    measured = {c.name: res[c.name].get("alloc") for c in cases if c.L.ops_used <= ALLOC_FREE}
    assert {"chain", "maximum0", "prelu0", "resize0", "bmm0", "transpose0", "tconv0"} <= set(measured)
    assert None not in measured.values(), measured
    grew = {k: v for k, v in measured.items() if v}
    assert not grew, f"bytes allocated in 3 inferences: {grew}"


def test_out_of_range_gather_index_is_run_index_before_anything_is_written(
        vm_run: tuple[list[Case], Path, dict]) -> None:
    cases, _, res = vm_run
    for c in cases:
        if c.bad:
            assert res[c.name].get("bad") == ["RUN_INDEX untouched"] * len(c.bad), (c.name, res[c.name])
            for f in c.bad:  # the C kernel refuses the same samples
                with pytest.raises(Exception, match="RUN_INDEX"):
                    host_bytes(c.L, f)


def test_corrupted_records_are_refused_at_load_as_the_c_loader_refuses_them(
        vm_run: tuple[list[Case], Path, dict]) -> None:
    """Each edited record: the C loader's status (PROG_PARAM or PROG_SHAPE) is the VM executor's error."""
    _, _, res = vm_run
    for name, blob, prog in corrupt_programs():
        with pytest.raises(BbrtError, match="PROG_") as e:
            HostProgram(blob, prog)
        want = re.search(r"PROG_[A-Z]+", str(e.value))
        assert want is not None and want.group(0) in ("PROG_PARAM", "PROG_SHAPE"), (name, str(e.value))
        assert res["_corrupt"][name] == want.group(0), (name, res["_corrupt"][name], str(e.value))


def test_node_with_int64_ids_answers_frame_for_frame_as_the_c_node(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """An embedding node (int8 table, GATHER by int64 ids from the wire) under bbnode's node loop: the frames
    it sends for two requests equal the C node's (bbrtpy_node_feed), the ids arriving as an INT64 envelope."""
    import ctypes

    from bb_edge.bbrt.host import aligned
    from bb_edge.bbrt.native import load_host_library
    from bb_edge.wire.envelope import Envelope, encode
    from bb_edge.wire.envelope import decode as decode_envelope
    from bb_edge.wire.framing import FrameDecoder, frame

    rng = np.random.default_rng(5)
    m = gather_model([20, 8], [2, 3], 0, rng.standard_normal((20, 8)).astype(np.float32))
    ids = [rng.integers(-20, 20, (2, 3)).astype(np.int64) for _ in range(2)]
    L = lower(m, precision="int8", calib=[{"ids": i} for i in ids], node_id=3)
    assert Op.GATHER in L.ops_used
    recv = next(e for e in L.program.edges if e.direction == RECV)
    assert L.program.tensors[recv.tensor].dtype == 7  # INT64 on the wire
    stream = b""
    for k, i in enumerate(ids):
        env = Envelope(kind=0, protocol=0, sender=0, receiver=3, seq=10 + k, request_id=100 + k, edge=recv.edge_id,
                       dtype=7, dims=(2, 3), data=i.astype("<i8").tobytes())
        stream += frame(encode(env))
    lib_c = load_host_library()
    blob = aligned(len(L.blob))
    blob[:] = np.frombuffer(L.blob, np.uint8)
    arena = aligned(max(8, L.program.arena_size))
    assert lib_c.bbrtpy_node_init(blob.ctypes.data, len(L.blob), arena.ctypes.data, len(arena)) == 0
    outbuf = ctypes.create_string_buffer(1 << 20)
    n = lib_c.bbrtpy_node_feed(stream, len(stream), outbuf, len(outbuf))
    assert n > 0
    ref = outbuf.raw[:n]
    assert len(FrameDecoder().feed(ref)) == 2  # one output per request
    epoch = decode_envelope(FrameDecoder().feed(ref)[0]).seq >> 32
    (tmp_path / "prog.bbrt").write_bytes(L.blob)
    (tmp_path / "stream.bin").write_bytes(stream)
    driver, lib = vm
    run_vm(driver, lib, tmp_path, """
import os
from bbnode.executor import Program
from bbnode.node import Node
class Uart:
    def __init__(self):
        self.out = bytearray()
    def write(self, b):
        self.out.extend(b)
u = Uart()
n = Node(Program(open('prog.bbrt', 'rb').read()), u, max_payload=65536, boot_epoch=EPOCH)
n.feed(open('stream.bin', 'rb').read())
os.mkdir('out')
open('out/frames.bin', 'wb').write(u.out)
""".replace("EPOCH", str(epoch)))
    assert (tmp_path / "out" / "frames.bin").read_bytes() == ref
