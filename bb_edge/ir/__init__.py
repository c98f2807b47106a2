"""The bb-edge IR: author a workload as a Module and record it into ONNX.

Example::

    from bb_edge.ir import Module, Linear, on, ops, record

    class Net(Module):
        inputs = {"x": ((1, 64), "float32")}
        def __init__(self):
            self.fc1, self.fc2 = Linear(64, 32), Linear(32, 10, seed=1)
        def forward(self, x):
            with on("sensor"):
                h = ops.relu(self.fc1(x))
            with on("gateway"):
                return ops.softmax(self.fc2(h))

    model = record(Net())   # onnx.ModelProto with placement metadata
"""

from bb_edge.ir import ops
from bb_edge.ir.graph import Value, on
from bb_edge.ir.module import BatchNorm2d, Conv2d, Linear, Module, Parameter, Sequential, record

__all__ = ["BatchNorm2d", "Conv2d", "Linear", "Module", "Parameter", "Sequential", "Value", "on", "ops", "record"]
