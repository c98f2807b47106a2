"""Recording Modules into ONNX: every listed op, parameters, placement, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.compiler import compile_model
from bb_edge.errors import RecordingError
from bb_edge.ir import BatchNorm2d, Conv2d, Linear, Module, Parameter, on, ops, record
from bb_edge.ir.load import record_from_file
from tests.support.models import monolithic

REQUIRED = {"Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Relu", "Sigmoid", "Tanh", "Softmax", "Conv",
            "MaxPool", "AveragePool", "GlobalAveragePool", "BatchNormalization", "Flatten", "Reshape",
            "Transpose", "Concat", "Identity", "Cast"}


class Everything(Module):
    inputs = {"img": ((2, 3, 8, 8), "float32"), "vec": (("batch", 6), "float32")}

    def __init__(self) -> None:
        self.conv = Conv2d(3, 8, 3, padding=1, seed=1)
        self.dw = Conv2d(8, 8, 3, padding=2, dilation=2, groups=8, seed=2)
        self.bn = BatchNorm2d(8, seed=3)
        self.fc = Linear(8 * 2 * 2, 6, seed=4)
        self.proj = Parameter(np.random.default_rng(5).standard_normal((6, 6)).astype(np.float32))

    def forward(self, img, vec):  # type: ignore[no-untyped-def, override]
        with on("camera"):
            x = ops.relu(self.bn(self.conv(img)))
            x = ops.max_pool(x, 2)
            y = ops.avg_pool(self.dw(x), 2, stride=2)
        with on("hub"):
            g = ops.global_avg_pool(x)
            y = ops.concat([y - g, y * 0.5], axis=1)
            y = ops.transpose(y, (0, 1, 3, 2)) / 2.0
            y = ops.sigmoid(y).reshape(2, 16, 2, 2)
            y = ops.flatten(ops.identity(y[0] if False else y))
            y = ops.gemm(y, np.ones((64, 32), np.float32) / 64)
        with on("cloud"):
            z = ops.tanh(self.fc(y)) + 1.0
            v = ops.matmul(vec, self.proj)
            w = ops.cast(ops.cast(v, "float64"), "float32")
            return {"probs": ops.softmax(z), "vec_out": w}


def test_every_listed_op_records_and_checks() -> None:
    model = record(Everything())
    onnx.checker.check_model(model, full_check=True)
    assert REQUIRED <= {n.op_type for n in model.graph.node}
    names = {i.name for i in model.graph.initializer}
    assert {"conv.weight", "conv.bias", "bn.scale", "fc.weight", "proj"} <= names
    assert [o.name for o in model.graph.output] == ["probs", "vec_out"]
    dims = model.graph.input[1].type.tensor_type.shape.dim
    assert dims[0].dim_param == "batch"


def test_placement_blocks_become_a_three_node_deployment_that_matches() -> None:
    model = record(Everything())
    dep, programs = compile_model(model)
    assert [n.name for n in dep.nodes] == ["camera", "hub", "cloud"]
    rng = np.random.default_rng(0)
    x = {"img": rng.standard_normal((2, 3, 8, 8)).astype(np.float32),
         "vec": rng.standard_normal((3, 6)).astype(np.float32)}
    out = InProcFleet(dep, programs).infer(x)
    ref = monolithic(model, x)
    for k in ref:
        assert np.abs(out[k] - ref[k]).max() <= 1e-5


def test_recording_errors_are_typed() -> None:
    class NoInputs(Module):
        def forward(self, x):  # type: ignore[no-untyped-def, override]
            return ops.relu(x)

    with pytest.raises(RecordingError, match="declares no inputs"):
        record(NoInputs())

    class BadShapes(Module):
        inputs = {"x": ((1, 4), "float32")}

        def forward(self, x):  # type: ignore[no-untyped-def, override]
            return ops.matmul(x, np.ones((5, 2), np.float32))

    with pytest.raises(RecordingError, match="shape inference|checker"):
        record(BadShapes())
    with pytest.raises(RecordingError):
        ops.relu(None)  # type: ignore[arg-type]
    with pytest.raises(RecordingError, match="not allowed"):
        with on("_host"):
            pass


def test_compile_from_python_file(tmp_path: Path) -> None:
    src = tmp_path / "net.py"
    src.write_text(
        "from bb_edge.ir import Linear, Module, on, ops\n"
        "class Net(Module):\n"
        "    inputs = {'x': ((1, 4), 'float32')}\n"
        "    def __init__(self):\n"
        "        self.a, self.b = Linear(4, 8), Linear(8, 2, seed=1)\n"
        "    def forward(self, x):\n"
        "        with on('a'):\n"
        "            h = ops.relu(self.a(x))\n"
        "        with on('b'):\n"
        "            return self.b(h)\n"
    )
    model = record_from_file(f"{src}:Net")
    assert model.graph.name == "Net"
    with pytest.raises(RecordingError, match="has no Module subclass 'Nope'"):
        record_from_file(f"{src}:Nope")
