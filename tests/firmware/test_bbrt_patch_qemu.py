"""A patched program on QEMU Cortex-M4 (issue 29): ResNet-8 with its stem and first residual block in bands
(bb_edge/bbrt/patch.py: per-band pads, input views, the shortcut's GATHER_AXES slices, CONCAT) runs on the
SMLAD build and equals ``tflite_output`` byte for byte, in an arena below the unpatched lower bound.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bb_edge.bbrt.format import Op
from bb_edge.bbrt.patch import patch_lowered
from tests.support.mlperf import lowered, qemu_arm_run, reference

N_INPUTS = 2


def test_patched_resnet8_on_cortex_m4_equals_tflite(tmp_path: Path) -> None:
    L = lowered("ic")
    P = patch_lowered(L, int(0.8 * L.program.arena_lower_bound))
    assert P is not None and {Op.GATHER_AXES, Op.CONCAT} <= P.ops_used
    assert P.program.arena_size < 0.8 * L.program.arena_lower_bound
    _, x, y = reference("ic")
    out, _insns, _ = qemu_arm_run(P, x[:N_INPUTS], tmp_path, kind="cortex-m4", opt="-Os")
    np.testing.assert_array_equal(out, y[:N_INPUTS].reshape(N_INPUTS, -1))
