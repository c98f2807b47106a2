"""End-to-end check that the pieces compose: FedAvg on Dirichlet(0.5) digits with 20 clients."""

from __future__ import annotations

import numpy as np

from bb_edge.learn.aggregators import Mean
from bb_edge.learn.codecs import Int8Codec
from bb_edge.learn.data import DirichletPartitioner, SklearnSource, train_test_split
from bb_edge.learn.validation import UpdateValidator
from bb_edge.training import ForwardRunner, SoftmaxCrossEntropy, Trainer, build_training_step
from bb_edge.training.models import mlp
from bb_edge.training.optim import SGD


def test_fedavg_dirichlet_digits_with_int8_codec():
    x, y = SklearnSource("digits").arrays()
    xtr, ytr, xte, yte = train_test_split(x, y, 0.25, seed=0)
    parts = DirichletPartitioner(alpha=0.5, seed=0).subsets(xtr, ytr, 20)
    model = mlp([64, 32, 10], seed=0)
    prog = build_training_step(model, None, SoftmaxCrossEntropy(), SGD(0.05, momentum=0.9))
    tr = Trainer(prog)
    runner = ForwardRunner(model)
    codec = Int8Codec(chunk=512)
    validator = UpdateValidator(size=prog.layout.size, known_peers=set(range(20)))
    agg = Mean()
    glob = tr.vector()
    rng = np.random.default_rng(0)
    sent = raw = 0
    for _ in range(30):
        deltas, weights = [], []
        for cid, part in enumerate(parts):
            tr.load_vector(glob)
            tr.reset_state()
            for _ in range(2):
                tr.epoch(part.x, part.y, 8, rng)
            blob = codec.encode(tr.vector() - glob)
            sent += len(blob)
            raw += 4 * prog.layout.size
            res = validator.check(cid, codec.decode(blob))
            assert res.ok
            deltas.append(res.update)
            weights.append(len(part))
        glob = glob + agg.aggregate(deltas, weights)
    acc = runner.accuracy(xte, yte, glob)
    print("accuracy", acc, "compression", raw / sent)
    assert acc >= 0.93, acc
    assert raw / sent >= 3.5
