"""Split learning over the wire vs the same model trained centrally; SplitFed; the model cut."""

from __future__ import annotations

import numpy as np

from bb_edge.adapters.learn.simulator import simulate
from bb_edge.learn.data import SklearnSource, train_test_split
from bb_edge.training import SoftmaxCrossEntropy, Trainer, build_training_step, make_session
from bb_edge.training.models import mlp
from bb_edge.training.optim import SGD
from bb_edge.training.split import split_forward


def test_split_forward_halves_chain_to_the_whole_model():
    m = mlp([64, 32, 10], seed=3)
    client, server = split_forward(m, "h0")
    x = np.random.default_rng(0).random((5, 64), dtype=np.float32)
    whole = make_session(m).run(["logits"], {"x": x[:1]})[0]
    h = make_session(client).run(["h0"], {"x": x[:1]})[0]
    assert h.shape == (1, 32)
    np.testing.assert_allclose(make_session(server).run(["logits"], {"h0": h})[0], whole, rtol=1e-5, atol=1e-6)


def test_split_learning_within_one_point_of_central():
    epochs, bs, seed = 8, 16, 0
    res = simulate({"strategy": "split", "rounds": epochs, "batch_size": bs,
                    "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9}}, seed=seed)
    # the same model, optimizer and batch order, trained in one process
    x, y = SklearnSource("digits").arrays()
    xtr, ytr, xte, yte = train_test_split(x, y, 0.25, seed=seed)
    model = mlp([64, 32, 10], seed=seed)
    tr = Trainer(build_training_step(model, None, SoftmaxCrossEntropy(), SGD(0.05, momentum=0.9)))
    for ep in range(epochs):
        order = np.random.default_rng([seed, 2, ep]).permutation(len(xtr))
        for i in range(0, len(order), bs):
            tr.step(xtr[order[i:i + bs]], ytr[order[i:i + bs]])
    from bb_edge.training import ForwardRunner

    central = ForwardRunner(model).accuracy(xte, yte, tr.vector())
    print(f"split {res.final_accuracy:.4f} vs central {central:.4f}")
    assert len(res.records) == epochs
    assert abs(res.final_accuracy - central) <= 0.01
    assert central >= 0.93


def test_splitfed_averages_client_halves():
    res = simulate({"strategy": "splitfed", "clients": 4, "rounds": 4, "batch_size": 16}, seed=0)
    assert res.counts.get("RoundCompleted", 0) == 4
    assert res.final_accuracy >= 0.85, res.final_accuracy
