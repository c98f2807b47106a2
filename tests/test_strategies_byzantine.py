"""25 clients with 5 malicious: a robust rule with bucketing holds, plain FedAvg degrades."""

from __future__ import annotations

from adapters.learnsim import simulate

BASE = {"strategy": "fedavg", "clients": 25, "rounds": 20, "epochs": 2, "batch_size": 8}
ATTACKS = {"sign_flip": {"type": "attack.sign_flip", "scale": 4.0, "malicious": 5},
           "alie": {"type": "attack.alie", "n": 25, "f": 5, "malicious": 5}}
AGGS = {"mean": {"type": "mean"},
        "bucketing+median": {"type": "pipeline", "pre": [{"$component": "bucketing", "config": {"s": 2}}],
                             "rule": {"$component": "median", "config": {}}}}


def test_attack_aggregator_matrix():
    acc = {(a, g): simulate({**BASE, "attack": ATTACKS[a], "aggregator": AGGS[g]}, seed=0).final_accuracy
           for a in ATTACKS for g in AGGS}
    print("\n" + " " * 12 + "".join(f"{g:>18}" for g in AGGS))
    for a in ATTACKS:
        print(f"{a:<12}" + "".join(f"{acc[a, g]:>18.4f}" for g in AGGS))
    for a in ATTACKS:
        assert acc[a, "bucketing+median"] >= 0.88, (a, acc)
    assert acc["sign_flip", "mean"] <= acc["sign_flip", "bucketing+median"] - 0.2  # visibly degraded
