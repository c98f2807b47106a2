"""25 clients, 5 malicious: attack x aggregator matrix on digits (sign flip, ALIE; mean vs robust rules).

    python examples/byzantine_digits.py --summary out.json [--curves curves.png]
"""

from __future__ import annotations

from _common import finish, parser, run

BASE = {"strategy": "fedavg", "clients": 25, "rounds": 20, "epochs": 2, "batch_size": 8}
ATTACKS = {"none": None,
           "sign_flip": {"type": "attack.sign_flip", "scale": 4.0, "malicious": 5},
           "alie": {"type": "attack.alie", "n": 25, "f": 5, "malicious": 5}}


def bucketed(rule: dict) -> dict:
    return {"type": "pipeline", "pre": [{"$component": "bucketing", "config": {"s": 2}}], "rule": rule}


AGGS = {"mean": {"type": "mean"},
        "bucket+median": bucketed({"$component": "median", "config": {}}),
        "bucket+trimmed": bucketed({"$component": "trimmed_mean", "config": {"f": 5}})}

if __name__ == "__main__":
    args = parser(__doc__).parse_args()
    res = {(a, g): run({**BASE, "attack": ATTACKS[a], "aggregator": AGGS[g]}, args) for a in ATTACKS for g in AGGS}
    print(" " * 12 + "".join(f"{g:>16}" for g in AGGS))
    for a in ATTACKS:
        print(f"{a:<12}" + "".join(f"{res[a, g].final_accuracy:>16.4f}" for g in AGGS))
    matrix = {a: {g: res[a, g].final_accuracy for g in AGGS} for a in ATTACKS}
    finish(args, {"matrix": matrix, "clients": 25, "malicious": 5, "rounds": BASE["rounds"]},
           {f"{a}/{g}": res[a, g] for a in ("sign_flip",) for g in AGGS})
