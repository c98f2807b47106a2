"""Training-step programs: gradients vs finite differences, backends agree, updates, learning."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.errors import ModelError, UnsupportedOpError
from bb_edge.training import (
    MSE,
    ForwardRunner,
    ParamLayout,
    SoftmaxCrossEntropy,
    Trainer,
    build_training_step,
    make_session,
    parameterized_forward,
    with_params,
)
from bb_edge.training.models import mlp, small_cnn
from bb_edge.training.optim import SGD, Adam, Yogi, numpy_step


def _model(nodes, inits, x_shape, out, out_shape, dtype="float64"):
    el = TensorProto.DOUBLE if dtype == "float64" else TensorProto.FLOAT
    g = helper.make_graph(
        nodes, "m", [helper.make_tensor_value_info("x", el, list(x_shape))],
        [helper.make_tensor_value_info(out, el, list(out_shape))],
        initializer=[numpy_helper.from_array(v.astype(dtype), k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def _conv_model(stride, pool, hw=7, pads=(1, 1, 1, 1), dilation=1, dtype="float64"):
    rng = np.random.default_rng(3)
    c, m = 2, 3
    inits = {"w": rng.standard_normal((m, c, 3, 3)) * 0.5, "b": rng.standard_normal(m) * 0.1}
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], strides=[stride, stride], pads=list(pads),
                              dilations=[dilation, dilation]),
             helper.make_node("Tanh", ["c"], ["t"])]
    x = "t"
    if pool == "MaxPool":
        nodes.append(helper.make_node("MaxPool", [x], ["p"], kernel_shape=[3, 3], strides=[2, 2],
                                      pads=[1, 1, 1, 1]))
        x = "p"
    elif pool == "AveragePool":
        nodes.append(helper.make_node("AveragePool", [x], ["p"], kernel_shape=[2, 2], strides=[1, 1]))
        x = "p"
    elif pool == "GlobalAveragePool":
        nodes.append(helper.make_node("GlobalAveragePool", [x], ["p"]))
        x = "p"
    nodes.append(helper.make_node("Flatten", [x], ["f"], axis=1))
    model = _model(nodes, inits, (1, c, hw, hw), "f", (1, 1), dtype)
    # infer the flattened size, then add the classifier
    del model.graph.output[0].type.tensor_type.shape.dim[:]
    feat = make_session(model, "reference").run(["f"], {"x": np.zeros((1, c, hw, hw), dtype)})[0].shape[1]
    inits["fw"] = rng.standard_normal((feat, 4)) * 0.3
    inits["fb"] = rng.standard_normal(4) * 0.1
    nodes += [helper.make_node("MatMul", ["f", "fw"], ["mm"]), helper.make_node("Add", ["mm", "fb"], ["y"])]
    return _model(nodes, inits, (1, c, hw, hw), "y", (1, 4), dtype)


def _misc_model():
    """Sub/Mul/Div broadcasting, Sigmoid, Softmax, LeakyRelu, Transpose, Reshape, Unsqueeze/Squeeze."""
    rng = np.random.default_rng(5)
    inits = {
        "w": rng.standard_normal((3, 4)), "s": rng.uniform(0.5, 1.5, (1, 4)),
        "d": rng.uniform(1.0, 2.0, (4,)), "o": rng.standard_normal((4, 1)) * 0.5,
        "shape": np.asarray([-1, 4], dtype=np.int64), "ax": np.asarray([1], dtype=np.int64),
    }
    inits_f = {k: v for k, v in inits.items() if v.dtype != np.int64}
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["a"]),
        helper.make_node("Mul", ["a", "s"], ["b"]),
        helper.make_node("Sub", ["b", "d"], ["c"]),
        helper.make_node("Sigmoid", ["c"], ["e"]),
        helper.make_node("Div", ["e", "d"], ["f"]),
        helper.make_node("LeakyRelu", ["f"], ["g"], alpha=0.2),
        helper.make_node("Transpose", ["g"], ["gt"], perm=[1, 0]),
        helper.make_node("Transpose", ["gt"], ["g2"], perm=[1, 0]),
        helper.make_node("Unsqueeze", ["g2", "ax"], ["u"]),
        helper.make_node("Squeeze", ["u", "ax"], ["sq"]),
        helper.make_node("Reshape", ["sq", "shape"], ["r"]),
        helper.make_node("Softmax", ["r"], ["sm"], axis=1),
        helper.make_node("Mul", ["sm", "r"], ["h"]),
        helper.make_node("Add", ["h", "o"], ["y"]),  # (N,4) + (4,1) -> (4,4) when N == 4
    ]
    el = TensorProto.DOUBLE
    g = helper.make_graph(
        nodes, "misc", [helper.make_tensor_value_info("x", el, [4, 3])],
        [helper.make_tensor_value_info("y", el, [4, 4])],
        initializer=[numpy_helper.from_array(v.astype(np.float64), k) for k, v in inits_f.items()]
        + [numpy_helper.from_array(inits["shape"], "shape"), numpy_helper.from_array(inits["ax"], "ax")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def _grad_check(model, loss, x, labels, batch_dim="N", input_grads=(), tol=1e-6):
    prog = build_training_step(model, None, loss, None, batch_dim=batch_dim, input_grads=input_grads)
    onnx.checker.check_model(prog.model, full_check=True)
    sess = make_session(prog.model, "reference")
    params = {k: v.astype(np.float64) for k, v in prog.initial_params.items()}
    outs = ["loss", *prog.param_outputs, *["grad/" + i for i in input_grads]]

    def run(p, xx):
        return sess.run(outs, {"x": xx, "labels": labels, **p})

    res = run(params, x)
    analytic = dict(zip(outs[1:], res[1:], strict=True))
    eps = 1e-6
    checked = 0
    rng = np.random.default_rng(0)
    for name, p in params.items():
        flat = p.reshape(-1)
        for idx in rng.choice(flat.size, size=min(flat.size, 6), replace=False):
            plus = {k: v.copy() for k, v in params.items()}
            minus = {k: v.copy() for k, v in params.items()}
            plus[name].reshape(-1)[idx] += eps
            minus[name].reshape(-1)[idx] -= eps
            num = (run(plus, x)[0] - run(minus, x)[0]) / (2 * eps)
            ana = analytic["grad/" + name].reshape(-1)[idx]
            assert abs(num - ana) <= tol * max(1.0, abs(num)), (name, idx, num, ana)
            checked += 1
    for name in input_grads:
        flat = x.reshape(-1)
        for idx in rng.choice(flat.size, size=6, replace=False):
            xp, xm = x.copy(), x.copy()
            xp.reshape(-1)[idx] += eps
            xm.reshape(-1)[idx] -= eps
            num = (run(params, xp)[0] - run(params, xm)[0]) / (2 * eps)
            ana = analytic["grad/" + name].reshape(-1)[idx]
            assert abs(num - ana) <= tol * max(1.0, abs(num)), (name, idx, num, ana)
            checked += 1
    assert checked > 0
    return prog


RNG = np.random.default_rng(42)


@pytest.mark.parametrize("act", ["Relu", "Sigmoid", "Tanh"])
@pytest.mark.parametrize("use_matmul", [False, True])
def test_mlp_gradients_match_finite_differences(act, use_matmul):
    m = mlp([5, 7, 3], act, seed=1, dtype="float64", use_matmul=use_matmul)
    x = RNG.standard_normal((6, 5))
    _grad_check(m, SoftmaxCrossEntropy(), x, RNG.integers(0, 3, 6), input_grads=("x",))


def test_mse_and_onehot_losses():
    m = mlp([4, 6, 2], "Tanh", seed=2, dtype="float64")
    x = RNG.standard_normal((5, 4))
    _grad_check(m, MSE(), x, RNG.standard_normal((5, 2)))
    soft = RNG.dirichlet(np.ones(2), size=5)
    _grad_check(m, SoftmaxCrossEntropy("onehot"), x, soft)


@pytest.mark.parametrize("stride,pool,hw", [(1, "MaxPool", 7), (2, "None", 8), (2, "AveragePool", 7),
                                            (1, "GlobalAveragePool", 6)])
def test_conv_pool_gradients(stride, pool, hw):
    m = _conv_model(stride, pool, hw)
    x = RNG.standard_normal((3, 2, hw, hw))
    _grad_check(m, SoftmaxCrossEntropy(), x, RNG.integers(0, 4, 3), input_grads=("x",))


def test_conv_dilated_asymmetric_pads():
    m = _conv_model(2, "None", 9, pads=(0, 1, 2, 0), dilation=2)
    x = RNG.standard_normal((2, 2, 9, 9))
    _grad_check(m, MSE(), x, RNG.standard_normal((2, 4)), input_grads=("x",))


def test_misc_ops_broadcasting():
    m = _misc_model()
    x = RNG.standard_normal((4, 3))
    _grad_check(m, MSE(), x, RNG.standard_normal((4, 4)), batch_dim=None, input_grads=("x",))


def _ort_vs_ref(model, x, y, opt, steps=3):
    prog = build_training_step(model, None, SoftmaxCrossEntropy(), opt)
    onnx.checker.check_model(prog.model, full_check=True)
    a = Trainer(prog, make_session(prog.model, "ort"))
    b = Trainer(prog, make_session(prog.model, "reference"))
    for _ in range(steps):
        la, lb = a.step(x, y), b.step(x, y)
        assert la == pytest.approx(lb, rel=1e-5, abs=1e-6)
    for k in a.params:
        np.testing.assert_allclose(a.params[k], b.params[k], rtol=1e-4, atol=1e-5)
    for k in a.state:
        np.testing.assert_allclose(a.state[k], b.state[k], rtol=1e-4, atol=1e-6)
    return a


@pytest.mark.parametrize("opt", [SGD(0.1), SGD(0.05, momentum=0.9, nesterov=True, weight_decay=1e-3),
                                 Adam(0.01), Yogi(0.01)])
def test_ort_and_reference_agree_float32(opt):
    x = RNG.standard_normal((8, 1, 8, 8)).astype(np.float32)
    y = RNG.integers(0, 10, 8)
    t = _ort_vs_ref(small_cnn(seed=4), x, y, opt)
    assert t.steps == 3
    _ort_vs_ref(mlp([6, 5, 3], seed=1, use_matmul=True), x.reshape(8, -1)[:, :6], y % 3, opt)


@pytest.mark.parametrize("opt", [SGD(0.1, momentum=0.9, weight_decay=0.01),
                                 SGD(0.2, momentum=0.5, nesterov=True),
                                 Adam(0.01, weight_decay=0.01), Yogi(0.02)])
def test_onnx_update_equals_numpy_optimizer(opt):
    m = mlp([4, 5, 3], "Tanh", seed=3, dtype="float64")
    x = RNG.standard_normal((6, 4))
    y = RNG.integers(0, 3, 6)
    gprog = build_training_step(m, None, SoftmaxCrossEntropy(), None)
    gsess = make_session(gprog.model, "reference")
    prog = build_training_step(m, None, SoftmaxCrossEntropy(), opt)
    tr = Trainer(prog, make_session(prog.model, "reference"))
    params = dict(tr.params)
    state = {k: v.copy() for k, v in tr.state.items()}
    for _ in range(3):
        g = gsess.run(list(gprog.param_outputs), {"x": x, "labels": y, **params})
        grads = {p.name: v for p, v in zip(gprog.params, g, strict=True)}
        params, state = numpy_step(opt, params, grads, state)
        tr.step(x, y)
    for k in params:
        np.testing.assert_allclose(tr.params[k], params[k], rtol=1e-10, atol=1e-12)
    for k in state:
        np.testing.assert_allclose(tr.state[k], state[k], rtol=1e-10, atol=1e-12)


def test_fedprox_term_pulls_towards_global():
    m = mlp([4, 5, 3], seed=3, dtype="float64")
    x = RNG.standard_normal((6, 4))
    y = RNG.integers(0, 3, 6)
    mu = 0.7
    plain = build_training_step(m, None, SoftmaxCrossEntropy(), None)
    prox = build_training_step(m, None, SoftmaxCrossEntropy(), None, proximal_mu=mu)
    p0 = plain.initial_params
    anchor = {k: v + 0.3 for k, v in p0.items()}
    g0 = make_session(plain.model, "reference").run(list(plain.param_outputs), {"x": x, "labels": y, **p0})
    feeds = {"x": x, "labels": y, **p0, **{"global/" + k: v for k, v in anchor.items()}}
    g1 = make_session(prox.model, "reference").run(list(prox.param_outputs), feeds)
    for s, a, b in zip(plain.params, g0, g1, strict=True):
        np.testing.assert_allclose(b, a + mu * (p0[s.name] - anchor[s.name]), rtol=1e-12, atol=1e-12)


def test_split_learning_programs_chain_to_full_gradient():
    """Client program (no loss, upstream grad in) + server program (input grad out) == whole-model grad."""
    rng = np.random.default_rng(9)
    full = mlp([5, 6, 3], "Tanh", seed=7, dtype="float64", use_matmul=True)
    x = rng.standard_normal((4, 5))
    y = rng.integers(0, 3, 4)
    whole = build_training_step(full, None, SoftmaxCrossEntropy(), None)
    ref = dict(zip(whole.param_outputs, make_session(whole.model, "reference").run(
        list(whole.param_outputs), {"x": x, "labels": y, **whole.initial_params}), strict=True))
    init = {k: numpy_helper.to_array(t) for k, t in ((t.name, t) for t in full.graph.initializer)}
    el = TensorProto.DOUBLE
    client = helper.make_model(helper.make_graph(
        [helper.make_node("MatMul", ["x", "fc0.weight"], ["m"]),
         helper.make_node("Add", ["m", "fc0.bias"], ["z"]),
         helper.make_node("Tanh", ["z"], ["h"])], "client", [helper.make_tensor_value_info("x", el, [1, 5])],
        [helper.make_tensor_value_info("h", el, [1, 6])],
        initializer=[numpy_helper.from_array(init[k], k) for k in ("fc0.weight", "fc0.bias")]),
        opset_imports=[helper.make_opsetid("", 17)])
    server = helper.make_model(helper.make_graph(
        [helper.make_node("MatMul", ["h", "fc1.weight"], ["m"]),
         helper.make_node("Add", ["m", "fc1.bias"], ["y"])],
        "server", [helper.make_tensor_value_info("h", el, [1, 6])],
        [helper.make_tensor_value_info("y", el, [1, 3])],
        initializer=[numpy_helper.from_array(init[k], k) for k in ("fc1.weight", "fc1.bias")]),
        opset_imports=[helper.make_opsetid("", 17)])
    for mm in (client, server):
        mm.ir_version = 8
    cprog = build_training_step(client, "h", None, None)
    sprog = build_training_step(server, "y", SoftmaxCrossEntropy(), None, input_grads=("h",))
    assert cprog.grad_input is not None and cprog.grad_input.name == "grad/h"
    h = make_session(client, "reference").run(["h"], {"x": x})[0]
    souts = ["grad/h", *sprog.param_outputs]
    s = dict(zip(souts, make_session(sprog.model, "reference").run(
        souts, {"h": h, "labels": y, **sprog.initial_params}), strict=True))
    c = dict(zip(cprog.param_outputs, make_session(cprog.model, "reference").run(
        list(cprog.param_outputs), {"x": x, "grad/h": s["grad/h"], **cprog.initial_params}), strict=True))
    for k, v in {**s, **c}.items():
        if k != "grad/h":
            np.testing.assert_allclose(v, ref[k], rtol=1e-12, atol=1e-12)


def test_layout_roundtrip_and_errors():
    prog = build_training_step(small_cnn(), None, SoftmaxCrossEntropy(), SGD(0.1))
    lay = prog.layout
    assert lay.names == ("conv.weight", "conv.bias", "fc.weight", "fc.bias")
    assert lay.size == 4 * 9 + 4 + 10 * 64 + 10
    vec = lay.flatten(prog.initial_params)
    assert vec.dtype == np.float32 and vec.shape == (lay.size,)
    back = lay.unflatten(vec)
    for k, v in prog.initial_params.items():
        np.testing.assert_array_equal(back[k], v)
    with pytest.raises(ValueError):
        lay.unflatten(vec[:-1])
    with pytest.raises(ValueError):
        lay.flatten({**prog.initial_params, "fc.bias": np.zeros(3, np.float32)})
    assert ParamLayout(prog.params).offsets["conv.bias"] == (36, 40)


def test_unsupported_and_bad_inputs_are_typed_errors():
    m = mlp([4, 3], seed=0)
    with pytest.raises(ModelError):
        build_training_step(m, "nope", SoftmaxCrossEntropy(), SGD())
    with pytest.raises(ModelError):
        build_training_step(m, None, SoftmaxCrossEntropy(), SGD(), params=["not_a_param"])
    el = TensorProto.FLOAT
    bad = helper.make_model(helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["a"]), helper.make_node("Erf", ["a"], ["y"])], "g",
        [helper.make_tensor_value_info("x", el, [1, 2])], [helper.make_tensor_value_info("y", el, [1, 2])],
        initializer=[numpy_helper.from_array(np.eye(2, dtype=np.float32), "w")]),
        opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(UnsupportedOpError):
        build_training_step(bad, None, MSE(), SGD())


def test_forward_runner_and_with_params_agree():
    m = small_cnn(seed=2)
    prog = build_training_step(m, None, SoftmaxCrossEntropy(), SGD(0.5))
    tr = Trainer(prog)
    x = RNG.standard_normal((5, 1, 8, 8)).astype(np.float32)
    y = RNG.integers(0, 10, 5)
    for _ in range(2):
        tr.step(x, y)
    fr = ForwardRunner(m)
    a = fr(x, tr.vector())
    b = make_session(with_params(m, tr.params), "ort").run(["logits"], {"x": x[:1]})[0]
    np.testing.assert_allclose(a[:1], b, rtol=1e-5, atol=1e-5)
    pm, specs = parameterized_forward(m)
    assert [s.name for s in specs] == list(tr.layout.names)
    assert {i.name for i in pm.graph.input} == {"x", *tr.layout.names}


def test_tiny_mlp_learns_digits_on_ort():
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    d = load_digits()
    x = (d.data / 16.0).astype(np.float32)
    xtr, xte, ytr, yte = train_test_split(x, d.target, test_size=0.25, random_state=0, stratify=d.target)
    m = mlp([64, 32, 10], seed=0)
    prog = build_training_step(m, None, SoftmaxCrossEntropy(), Adam(0.01))
    tr = Trainer(prog, make_session(prog.model, "ort"))
    rng = np.random.default_rng(0)
    first = tr.epoch(xtr, ytr, 32, rng)
    for _ in range(5):
        last = tr.epoch(xtr, ytr, 32, rng)
    assert last < first
    acc = ForwardRunner(m).accuracy(xte, yte, tr.vector())
    assert acc >= 0.93, acc
