"""25 clients, 5 malicious: attack x aggregator matrix on digits (mean vs robust rules, with/without bucketing).

    python examples/byzantine_digits.py --summary out.json [--curves curves.png]

Attacks: none, sign flip (x4), ALIE (Baruch et al. 2019, omniscient), IPM,
label flip, Gaussian noise. See docs/learning.md for the measured matrix.
"""

from __future__ import annotations

from _common import finish, parser, run

from bb_edge.learn.byzantine import AGGREGATORS, ATTACKS, BASE, format_matrix, scenario

if __name__ == "__main__":
    args = parser(__doc__).parse_args()
    res = {(a, g): run(scenario(a, g), args) for a in ATTACKS for g in AGGREGATORS}
    print(format_matrix({k: r.final_accuracy for k, r in res.items()}))
    matrix = {a: {g: res[a, g].final_accuracy for g in AGGREGATORS} for a in ATTACKS}
    finish(args, {"matrix": matrix, "clients": 25, "malicious": 5, "rounds": BASE["rounds"]},
           {f"{a}/{g}": res[a, g] for a in ("sign_flip", "alie") for g in ("mean", "b+median")})
