"""The Byzantine scenario the project measures: 25 clients, 5 malicious, digits.

One definition of the attack x aggregator matrix, used by
``examples/byzantine_digits.py`` and the test that asserts on it.
"""

from __future__ import annotations

from typing import Any

#: FedAvg on digits, 25 clients, 20 rounds (IID, seed chosen by the caller)
BASE: dict[str, Any] = {"strategy": "fedavg", "clients": 25, "rounds": 20, "epochs": 2, "batch_size": 8}

_M = {"malicious": 5}

#: attack name -> attack spec bound on the 5 malicious clients (None: no attack)
ATTACKS: dict[str, dict[str, Any] | None] = {
    "none": None,
    "sign_flip": {"type": "attack.sign_flip", "scale": 4.0, **_M},
    "alie": {"type": "attack.alie", "n": 25, "f": 5, "knowledge": "omniscient", **_M},
    "ipm": {"type": "attack.ipm", "eps": 0.5, "knowledge": "omniscient", **_M},
    "label_flip": {"type": "attack.label_flip", **_M},
    "gaussian": {"type": "attack.gaussian", "sigma": 1.0, **_M},
}


def component_ref(type_id: str, **config: object) -> dict[str, Any]:
    """A nested component reference as the aggregator pipeline config expects it."""
    return {"$component": type_id, "config": config}


def bucketed(rule: dict[str, Any]) -> dict[str, Any]:
    """``rule`` behind bucketing with s=2."""
    return {"type": "pipeline", "pre": [component_ref("bucketing", s=2)], "rule": rule}


#: aggregator name -> spec; ``b+`` = with bucketing first
AGGREGATORS: dict[str, dict[str, Any]] = {
    "mean": {"type": "mean"},
    "median": {"type": "median"}, "b+median": bucketed(component_ref("median")),
    "trimmed": {"type": "trimmed_mean", "f": 5}, "b+trimmed": bucketed(component_ref("trimmed_mean", f=5)),
    "krum": {"type": "krum", "f": 5}, "b+krum": bucketed(component_ref("krum", f=5)),
    "cclip": {"type": "centered_clipping", "tau": 1.0},
    "b+cclip": bucketed(component_ref("centered_clipping", tau=1.0)),
}


def scenario(attack: str, aggregator: str) -> dict[str, Any]:
    """The learning config of one matrix cell."""
    return {**BASE, "attack": ATTACKS[attack], "aggregator": AGGREGATORS[aggregator]}


def format_matrix(acc: dict[tuple[str, str], float]) -> str:
    """The accuracy matrix as a text table, attacks down, aggregators across."""
    lines = [" " * 11 + "".join(f"{g:>10}" for g in AGGREGATORS)]
    for a in ATTACKS:
        lines.append(f"{a:<11}" + "".join(f"{acc[a, g]:>10.4f}" for g in AGGREGATORS))
    return "\n".join(lines)
