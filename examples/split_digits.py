"""Split learning on digits (cut after the first layer) vs the same model trained centrally, plus SplitFed.

    python examples/split_digits.py --summary out.json [--curves curves.png]
"""

from __future__ import annotations

import numpy as np
from _common import finish, parser, run

from bb_edge.learn.data import SklearnSource, train_test_split
from bb_edge.training import ForwardRunner, SoftmaxCrossEntropy, Trainer, build_training_step
from bb_edge.training.models import mlp
from bb_edge.training.optim import SGD

EPOCHS, BS = 8, 16

if __name__ == "__main__":
    args = parser(__doc__).parse_args()
    split = run({"strategy": "split", "cut": "h0", "rounds": EPOCHS, "batch_size": BS,
                 "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9}}, args)
    sfed = run({"strategy": "splitfed", "clients": 5, "cut": "h0", "rounds": EPOCHS, "batch_size": BS,
                "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9}}, args)
    x, y = SklearnSource("digits").arrays()
    xtr, ytr, xte, yte = train_test_split(x, y, 0.25, seed=args.seed)
    model = mlp([64, 32, 10], seed=args.seed)
    tr = Trainer(build_training_step(model, None, SoftmaxCrossEntropy(), SGD(0.05, momentum=0.9)))
    for ep in range(EPOCHS):
        order = np.random.default_rng([args.seed, 2, ep]).permutation(len(xtr))
        for i in range(0, len(order), BS):
            tr.step(xtr[order[i:i + BS]], ytr[order[i:i + BS]])
    central = ForwardRunner(model).accuracy(xte, yte, tr.vector())
    print(f"split {split.final_accuracy:.4f}  central {central:.4f}  splitfed(5) {sfed.final_accuracy:.4f}")
    finish(args, {**split.summary(), "central_accuracy": central, "splitfed": sfed.summary()},
           {"split": split, "splitfed x5": sfed})
