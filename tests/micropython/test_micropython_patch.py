"""MicroPython runs a patched program (bb_edge/bbrt/patch.py) byte for byte as the C runtime does (issue 29).

VWW's first two convs (the 3x3/2 conv on the NHWC image and the depthwise conv, cut out of the QDQ model)
in 3 bands: input views at a byte offset, per-band pads, the bands joined by CONCAT. The MicroPython
executor indexes its arena by the planner's offsets like the C loader, so the same program gives the same
bytes: MicroPython == C host build of the patched program == C host build of the unpatched one.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import utils

from bb_edge.bbrt import planner
from bb_edge.bbrt.format import RECV, SEND, Op
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import lower
from bb_edge.bbrt.patch import _io, patch
from tests.micropython.test_micropython_mlperf import SCRIPT
from tests.support.mlperf import MODELS, lowered, reference
from tests.support.mpy_vm import prepare_vm, run_vm


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return prepare_vm(tmp_path_factory.mktemp("mpylib"))


def test_micropython_runs_the_patched_program_as_c(vm: tuple[Path, Path], tmp_path: Path) -> None:
    driver, lib = vm
    L = lowered("vww")
    name_of = {v: k for k, v in L.index.items()}
    dw_out = name_of[L.program.ops[1].outputs[0]]
    utils.extract_model(str(MODELS / "onnx" / "vww_int8.onnx"), str(tmp_path / "m.onnx"), ["input_1_int8"], [dw_out])
    S = lower(onnx.load(str(tmp_path / "m.onnx")), io_edges=None)
    got = patch(S.program, *_io(S.program), 2, 3)
    assert got is not None
    P = got[0]
    planner.assign(P, *_io(P))
    assert P.views and sum(op.opcode == Op.CONV_I8 for op in P.ops) == 6
    blob = P.to_bytes()
    rin = next(e.tensor for e in P.edges if e.direction == RECV)
    sout = next(e.tensor for e in P.edges if e.direction == SEND)
    x = reference("vww")[1][:1]
    (tmp_path / "prog.bbrt").write_bytes(blob)
    (tmp_path / "in0.bin").write_bytes(x.astype(np.int8).tobytes())
    script = SCRIPT.replace("RIN", str(rin)).replace("SOUT", str(sout)).replace("N)", "1)")
    res = json.loads(next(s for s in run_vm(driver, lib, tmp_path, script, timeout=300).splitlines()
                          if s.startswith("RESULT"))[len("RESULT "):])
    hp = HostProgram(blob, P)
    hp.run({rin: x})
    ref = HostProgram(S.blob, S.program)
    ref.run({next(e.tensor for e in S.program.edges if e.direction == RECV): x})
    want = ref.view(next(e.tensor for e in S.program.edges if e.direction == SEND)).tobytes()
    assert hp.view(sout).tobytes() == want  # the C runtime: patched == unpatched
    assert (tmp_path / "out" / "out0.bin").read_bytes() == want  # MicroPython == C
    assert res["alloc"] == [0], res
