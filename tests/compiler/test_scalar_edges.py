"""Scalars are values (issue 26): a 0-d tensor keeps rank 0 across edges, transports, runtimes and codecs.

Oracles: one ONNX Runtime session over the whole model, and the golden vectors (tests/vectors/rank0_*),
which tests/wire, tests/firmware/test_firmware_wire.py (C) and tests/micropython/test_micropython_vm.py
(MicroPython) decode and re-encode byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from bb_edge.commands.run import run_deployment
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.arrays import load_requests
from bb_edge.deployment.manifest import load_deployment
from bb_edge.wire import Envelope, decode, encode
from bb_edge.wire.dtypes import CODE_TO_NUMPY
from tests.vectors.make_vectors import RANK0

VECTORS = Path(__file__).resolve().parents[1] / "vectors"


def scalar_gate() -> onnx.ModelProto:
    """sr (0-d int64) -> Equal -> a 0-d bool that crosses to the node choosing between two branches."""
    g = h.make_graph([
        h.make_node("Equal", ["sr", "k16"], ["is16"], name="is16k"),
        h.make_node("Mul", ["x", "two"], ["x2"], name="double"),
        h.make_node("ReduceSum", ["x"], ["tot"], name="total", keepdims=0),
        h.make_node("Where", ["is16", "x2", "x"], ["y0"], name="choose"),
        h.make_node("Add", ["y0", "tot"], ["y"], name="shift"),
    ], "scalar_gate",
        [h.make_tensor_value_info("x", T.FLOAT, [4]), h.make_tensor_value_info("sr", T.INT64, [])],
        [h.make_tensor_value_info("y", T.FLOAT, [4])],
        [nh.from_array(np.array(16000, np.int64), "k16"), nh.from_array(np.array(2.0, np.float32), "two")])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


@pytest.mark.parametrize("backend", ["ort", "reference"])
def test_a_zero_d_bool_and_float_cross_nodes_from_an_npz(tmp_path: Path, backend: str) -> None:
    """`bb-edge run`'s path: requests from an .npz (a 0-d sr), zero-copy in-process fleet, 0-d bool and float edges."""
    model = scalar_gate()
    compile_model(model, cuts=["is16"], out_dir=tmp_path / "c")
    dep = load_deployment(tmp_path / "c")
    scalar_edges = [e for e in dep.edges if list(e.shape) == []]
    assert {e.tensor for e in scalar_edges} == {"is16", "tot"}  # a bool and a float, both 0-d
    x = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
    np.savez(tmp_path / "in.npz", x=x, sr=np.array(16000, np.int64))
    (req,) = load_requests(dep, tmp_path / "in.npz")
    assert req["sr"].shape == ()  # np.ascontiguousarray alone makes it [1]
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    reqs = [req, dict(req, sr=np.array(8000, np.int64))]  # two requests: the concurrent pipeline too
    for r, out in zip(reqs, run_deployment(dep, reqs, backend=backend), strict=True):
        np.testing.assert_array_equal(out["y"], sess.run(None, r)[0])


def test_zero_d_of_every_wire_dtype_round_trips_as_rank_0() -> None:
    """Every wire dtype encodes a 0-d array as rank 0 and decodes it to the same value (the golden vectors)."""
    spec = json.loads((VECTORS / "vectors.json").read_text())
    covered = {np.dtype(dt) for dt, _ in RANK0.values()} | {np.dtype("<f4")}
    assert covered == set(CODE_TO_NUMPY.values())
    for name, (dt, value) in RANK0.items():
        raw = (VECTORS / f"rank0_{name}.bin").read_bytes()
        want = np.array(value, dtype=dt)
        assert encode(Envelope.for_array(want, sender=1, receiver=2, seq=spec["valid"][f"rank0_{name}"]["seq"],
                                         request_id=spec["valid"][f"rank0_{name}"]["request_id"], edge=9)) == raw
        got = decode(raw, max_payload=spec["max_payload"]).array()
        assert got.shape == () and got.dtype == want.dtype and got.tobytes() == want.tobytes(), name
        assert spec["valid"][f"rank0_{name}"]["dims"] == []
