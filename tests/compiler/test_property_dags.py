"""Property: random DAGs of supported ops with random placements compile, check and match ORT."""

from __future__ import annotations

import numpy as np
import onnx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import helper, numpy_helper

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.compiler import compile_model
from tests.support.models import monolithic

UNARY = ["Relu", "Sigmoid", "Tanh", "Softmax", "Identity"]
BINARY = ["Add", "Sub", "Mul", "MatMulW", "GemmW", "ConcatW"]


@st.composite
def dags(draw: st.DrawFn) -> tuple[onnx.ModelProto, dict[str, str]]:
    n_ops = draw(st.integers(2, 14))
    n_nodes = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    tensors = ["x", "z"]
    nodes, inits, place = [], [], {}
    for i in range(n_ops):
        kind = draw(st.sampled_from(UNARY + BINARY))
        a = draw(st.sampled_from(tensors))
        out = f"t{i}"
        name = f"op{i}"
        if kind in UNARY:
            nodes.append(helper.make_node(kind, [a], [out], name=name))
        elif kind == "MatMulW":
            w = f"w{i}"
            inits.append(numpy_helper.from_array(rng.standard_normal((4, 4)).astype(np.float32) / 2, w))
            nodes.append(helper.make_node("MatMul", [a, w], [out], name=name))
        elif kind == "GemmW":
            w, b = f"w{i}", f"b{i}"
            inits.append(numpy_helper.from_array(rng.standard_normal((4, 4)).astype(np.float32) / 2, w))
            inits.append(numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), b))
            nodes.append(helper.make_node("Gemm", [a, w, b], [out], name=name, transB=1))
        elif kind == "ConcatW":
            b_in = draw(st.sampled_from(tensors))
            w = f"w{i}"
            inits.append(numpy_helper.from_array(rng.standard_normal((8, 4)).astype(np.float32) / 3, w))
            nodes.append(helper.make_node("Concat", [a, b_in], [f"c{i}"], name=f"{name}c", axis=1))
            place[f"{name}c"] = f"p{draw(st.integers(0, n_nodes - 1))}"
            nodes.append(helper.make_node("MatMul", [f"c{i}", w], [out], name=name))
        else:
            b_in = draw(st.sampled_from(tensors))
            nodes.append(helper.make_node(kind, [a, b_in], [out], name=name))
        place[name] = f"p{draw(st.integers(0, n_nodes - 1))}"
        tensors.append(out)
    outs = [tensors[-1]] + draw(st.lists(st.sampled_from(tensors[2:-1]), max_size=2, unique=True)) \
        if len(tensors) > 3 else [tensors[-1]]
    graph = helper.make_graph(
        nodes, "random_dag",
        [helper.make_tensor_value_info("x", 1, [2, 4]), helper.make_tensor_value_info("z", 1, [2, 4])],
        [helper.make_tensor_value_info(o, 1, [2, 4]) for o in dict.fromkeys(outs)],
        initializer=inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), place


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dags(), st.integers(0, 1000))
def test_random_dag_random_placement_matches_monolithic(case: tuple[onnx.ModelProto, dict[str, str]],
                                                        seed: int) -> None:
    model, place = case
    onnx.checker.check_model(model)
    dep, programs = compile_model(model, place=place)
    for prog in programs.values():
        onnx.checker.check_model(prog)
    rng = np.random.default_rng(seed)
    x = {"x": rng.standard_normal((2, 4)).astype(np.float32), "z": rng.standard_normal((2, 4)).astype(np.float32)}
    ref = monolithic(model, x)
    out = InProcFleet(dep, programs).infer(x)
    assert set(out) == set(ref)
    for k, v in ref.items():
        assert np.abs(out[k] - v).max() <= 1e-5, k
