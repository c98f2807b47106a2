"""25 clients, 5 malicious: attack x aggregator matrix on digits (mean vs robust rules, with/without bucketing).

    python examples/byzantine_digits.py --summary out.json [--curves curves.png]

Attacks: none, sign flip (x4), ALIE (Baruch et al. 2019, omniscient), IPM,
label flip, Gaussian noise. See docs/learning.md for the measured matrix.
"""

from __future__ import annotations

from _common import finish, parser, run

BASE = {"strategy": "fedavg", "clients": 25, "rounds": 20, "epochs": 2, "batch_size": 8}
M = {"malicious": 5}
ATTACKS = {"none": None,
           "sign_flip": {"type": "attack.sign_flip", "scale": 4.0, **M},
           "alie": {"type": "attack.alie", "n": 25, "f": 5, "knowledge": "omniscient", **M},
           "ipm": {"type": "attack.ipm", "eps": 0.5, "knowledge": "omniscient", **M},
           "label_flip": {"type": "attack.label_flip", **M},
           "gaussian": {"type": "attack.gaussian", "sigma": 1.0, **M}}


def c(type_id: str, **config: object) -> dict:
    return {"$component": type_id, "config": config}


def bucketed(rule: dict) -> dict:
    return {"type": "pipeline", "pre": [c("bucketing", s=2)], "rule": rule}


AGGS = {"mean": {"type": "mean"},
        "median": {"type": "median"}, "b+median": bucketed(c("median")),
        "trimmed": {"type": "trimmed_mean", "f": 5}, "b+trimmed": bucketed(c("trimmed_mean", f=5)),
        "krum": {"type": "krum", "f": 5}, "b+krum": bucketed(c("krum", f=5)),
        "cclip": {"type": "centered_clipping", "tau": 1.0}, "b+cclip": bucketed(c("centered_clipping", tau=1.0))}

if __name__ == "__main__":
    args = parser(__doc__).parse_args()
    res = {(a, g): run({**BASE, "attack": ATTACKS[a], "aggregator": AGGS[g]}, args) for a in ATTACKS for g in AGGS}
    print(" " * 11 + "".join(f"{g:>10}" for g in AGGS))
    for a in ATTACKS:
        print(f"{a:<11}" + "".join(f"{res[a, g].final_accuracy:>10.4f}" for g in AGGS))
    matrix = {a: {g: res[a, g].final_accuracy for g in AGGS} for a in ATTACKS}
    finish(args, {"matrix": matrix, "clients": 25, "malicious": 5, "rounds": BASE["rounds"]},
           {f"{a}/{g}": res[a, g] for a in ("sign_flip", "alie") for g in ("mean", "b+median")})
