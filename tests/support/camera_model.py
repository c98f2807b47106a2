"""A small seeded 224x224 camera model (two strided convolutions, a classifier head) for the ROS 2 tests."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# ops of the split used by tests/bundle/test_targets_ros2_fleet.py: the ROS node runs the first
# convolution and the head, the remote stage (over MQTT) the second convolution
REMOTE_OPS = ("c2", "r2")


def camera_model(seed: int = 0, size: int = 224, channels: int = 3) -> onnx.ModelProto:
    """image [1, C, size, size] float32 -> probs [1, 10] float32."""
    rng = np.random.default_rng(seed)

    def w(name: str, *shape: int) -> onnx.TensorProto:
        return numpy_helper.from_array((rng.standard_normal(shape) * 0.3).astype(np.float32), name)

    nodes = [
        helper.make_node("Conv", ["image", "w1", "b1"], ["h1"], name="c1", strides=[4, 4], kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["h1"], ["a1"], name="r1"),
        helper.make_node("Conv", ["a1", "w2", "b2"], ["h2"], name="c2", strides=[2, 2], kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["h2"], ["a2"], name="r2"),
        helper.make_node("GlobalAveragePool", ["a2"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flat"),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["logits"], name="fc"),
        helper.make_node("Softmax", ["logits"], ["probs"], name="sm", axis=1),
    ]
    graph = helper.make_graph(
        nodes, "camera",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, channels, size, size])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10])],
        [w("w1", 8, channels, 3, 3), w("b1", 8), w("w2", 8, 8, 3, 3), w("b2", 8), w("wf", 8, 10), w("bf", 10)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bb-edge-tests")
    onnx.checker.check_model(model)
    return model


def vector_model(seed: int = 0, n: int = 16, points: int = 32) -> onnx.ModelProto:
    """x [1, n] float32 and pts [1, points, 3] float32 -> (scores [1, 4] float32, label [1] int64):
    a raw-tensor and point-cloud model (Float32MultiArray and PointCloud2 inputs)."""
    rng = np.random.default_rng(seed)
    w = numpy_helper.from_array(rng.standard_normal((n, 4)).astype(np.float32), "w")
    wp = numpy_helper.from_array(rng.standard_normal((3, 4)).astype(np.float32), "wp")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["sx"], name="mm"),
             helper.make_node("ReduceMean", ["pts"], ["centroid"], name="mean", axes=[1], keepdims=0),
             helper.make_node("MatMul", ["centroid", "wp"], ["sp"], name="mmp"),
             helper.make_node("Add", ["sx", "sp"], ["scores"], name="add"),
             helper.make_node("ArgMax", ["scores"], ["label"], name="am", axis=1, keepdims=0)]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, n]),
              helper.make_tensor_value_info("pts", TensorProto.FLOAT, [1, points, 3])]
    graph = helper.make_graph(nodes, "vector", inputs,
                              [helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 4]),
                               helper.make_tensor_value_info("label", TensorProto.INT64, [1])], [w, wp])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bb-edge-tests")
    onnx.checker.check_model(model)
    return model
