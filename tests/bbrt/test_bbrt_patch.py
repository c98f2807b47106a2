"""Patch-based execution of the first stages (bb_edge/bbrt/patch.py, issue 29): VWW and ResNet-8 below
their unpatched activation lower bound, bit-exact with TFLite on the C host build; the bands' pads and
views by hand; the rewrite refuses what it cannot band.
"""

from __future__ import annotations

import numpy as np
import pytest

from bb_edge.bbrt.format import Op
from bb_edge.bbrt.patch import _io, patch, patch_lowered
from tests.support.mlperf import lowered, reference, run_host

N_INPUTS = 2


@pytest.mark.parametrize("name", ["vww", "ic"])
def test_patched_below_the_bound_equals_tflite(name: str) -> None:
    L = lowered(name)
    bound = L.program.arena_lower_bound  # the unpatched program's: no plan of it can use less
    P = patch_lowered(L, int(0.8 * bound))
    assert P is not None and P.program.arena_size <= 0.8 * bound < L.program.arena_size
    _, x, y = reference(name)
    np.testing.assert_array_equal(run_host(P, x[:N_INPUTS]), y[:N_INPUTS].reshape(N_INPUTS, -1))
    assert P.patch["macs"] <= 1.06 * P.patch["unpatched_macs"]  # the halos cost a few percent
    assert Op.CONCAT in P.ops_used and (Op.GATHER_AXES in P.ops_used) == (name == "ic")  # ResNet's shortcut
    assert P.model_lower_bound == L.model_lower_bound  # reported against the unpatched bound


def test_bands_pads_and_input_views_by_hand() -> None:
    """VWW's first conv (3x3, stride 2, TFLite SAME on 96 rows: pad top 0, bottom 1) and depthwise conv (3x3,
    pads 1/1) in 3 bands of the 48-row output: each band reads its input rows as a view at their byte
    offset; the top pad only in the first band, the bottom pad only in the last."""
    prog = lowered("vww").program
    got = patch(prog, *_io(prog), 2, 3)
    assert got is not None
    p = got[0]
    from bb_edge.bbrt import planner

    planner.assign(p, *_io(p))
    convs = [op for op in p.ops if op.opcode == Op.CONV_I8][:6]  # band k: conv0, dw
    conv0, dw = convs[0::2], convs[1::2]
    # band rows of the 48-row output: [0,16) [16,32) [32,48); the dw reads rows -1..+1 of conv0's output
    assert [p.tensors[op.outputs[0]].shape[2] for op in dw] == [16, 16, 16]
    assert [p.tensors[op.outputs[0]].shape[2] for op in conv0] == [17, 18, 17]
    assert [(op.params[2], op.params[4]) for op in dw] == [(1, 0), (0, 0), (0, 1)]
    assert [(op.params[2], op.params[4]) for op in conv0] == [(0, 0), (0, 0), (0, 1)]
    # conv0's output rows [0,17) [15,33) [31,48) read input rows 2*r .. 2*r+2: [0,35) [30,67) [62,96) (the
    # last needs row 96: its bottom pad) of the NHWC image, as views at row * 96 * 3 bytes
    x = next(e.tensor for e in p.edges if e.direction == 0)
    assert [p.views[op.inputs[0]] for op in conv0] == [(x, 0), (x, 30 * 288), (x, 62 * 288)]
    assert [p.tensors[op.inputs[0]].shape for op in conv0] == [(1, 35, 96, 3), (1, 37, 96, 3), (1, 34, 96, 3)]
    assert all(p.tensors[op.inputs[0]].offset == p.tensors[x].offset + p.views[op.inputs[0]][1] for op in conv0)
    cat = next(op for op in p.ops if op.opcode == Op.CONCAT)
    assert cat.params[0] == 2 and cat.inputs == [op.outputs[0] for op in dw]


def test_what_cannot_be_banded_is_left_alone() -> None:
    prog = lowered("ad").program  # fully connected: no rows to band
    assert patch(prog, *_io(prog), 1, 2) is None
    assert patch_lowered(lowered("ad"), 1) is None
    vww = lowered("vww")
    assert patch_lowered(vww, 20_000) is None  # the 27 KiB input alone is over: no band count gets there
