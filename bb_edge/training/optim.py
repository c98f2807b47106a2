"""Optimizer specifications shared by training programs (ONNX) and numpy code.

An optimizer spec is a small frozen dataclass. The same spec is used

* by :func:`bb_edge.training.build_training_step`, which emits the update
  as standard ONNX ops inside the training-step program, and
* by :func:`numpy_step`, a plain numpy implementation of the identical rule
  (used by server optimizers such as FedAvgM/FedAdam/FedYogi, and by tests to
  check the ONNX update).

Update rules (``g`` is the gradient, weight decay is added to ``g`` first):

* :class:`SGD`: ``v <- mu*v + g``; ``p <- p - lr*(g + mu*v)`` if Nesterov,
  else ``p <- p - lr*v`` (``v`` only exists when ``momentum > 0``).
* :class:`Adam`: ``t <- t+1``; ``m <- b1*m + (1-b1)*g``;
  ``v <- b2*v + (1-b2)*g^2``; ``p <- p - lr * m_hat / (sqrt(v_hat) + eps)``.
* :class:`Yogi`: as Adam but ``v <- v - (1-b2) * g^2 * sign(v - g^2)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["SGD", "Adam", "Yogi", "OptimizerSpec", "state_slots", "init_state", "numpy_step"]


@dataclass(frozen=True)
class SGD:
    """Stochastic gradient descent, optionally with (Nesterov) momentum."""

    lr: float = 0.01
    momentum: float = 0.0
    nesterov: bool = False
    weight_decay: float = 0.0


@dataclass(frozen=True)
class Adam:
    """Adam (Kingma & Ba) with bias correction."""

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    weight_decay: float = 0.0


@dataclass(frozen=True)
class Yogi:
    """Yogi (Zaheer et al. 2018): Adam with an additive second-moment update."""

    lr: float = 1e-2
    beta1: float = 0.9
    beta2: float = 0.99
    eps: float = 1e-3
    weight_decay: float = 0.0


OptimizerSpec = SGD | Adam | Yogi


def state_slots(spec: OptimizerSpec) -> tuple[str, ...]:
    """Per-parameter state slot names of an optimizer (e.g. ``("m", "v")``)."""
    if isinstance(spec, SGD):
        return ("m",) if spec.momentum > 0 else ()
    return ("m", "v")


def uses_step(spec: OptimizerSpec) -> bool:
    """True when the optimizer keeps a global step counter (bias correction)."""
    return not isinstance(spec, SGD)


def init_state(spec: OptimizerSpec, params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Zero optimizer state for ``params``: keys ``"<slot>/<param>"`` and ``"step"``."""
    state: dict[str, np.ndarray] = {}
    for slot in state_slots(spec):
        for name, p in params.items():
            state[f"{slot}/{name}"] = np.zeros_like(p)
    if uses_step(spec):
        state["step"] = np.zeros((), dtype=np.float32)
    return state


def numpy_step(
    spec: OptimizerSpec,
    params: dict[str, np.ndarray],
    grads: dict[str, np.ndarray],
    state: dict[str, np.ndarray],
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Apply one optimizer step in numpy; returns ``(new_params, new_state)``.

    Inputs are not modified. ``state`` has the layout of :func:`init_state`.
    """
    new_p: dict[str, np.ndarray] = {}
    new_s: dict[str, np.ndarray] = {}
    if isinstance(spec, SGD):
        for name, p in params.items():
            g = grads[name] + spec.weight_decay * p if spec.weight_decay else grads[name]
            if spec.momentum > 0:
                v = spec.momentum * state[f"m/{name}"] + g
                new_s[f"m/{name}"] = v.astype(p.dtype)
                d = g + spec.momentum * v if spec.nesterov else v
            else:
                d = g
            new_p[name] = (p - spec.lr * d).astype(p.dtype)
        return new_p, new_s
    t = float(state["step"]) + 1.0
    new_s["step"] = np.asarray(t, dtype=state["step"].dtype)
    for name, p in params.items():
        g = grads[name] + spec.weight_decay * p if spec.weight_decay else grads[name]
        m = spec.beta1 * state[f"m/{name}"] + (1 - spec.beta1) * g
        v0 = state[f"v/{name}"]
        g2 = g * g
        if isinstance(spec, Yogi):
            v = v0 - (1 - spec.beta2) * g2 * np.sign(v0 - g2)
        else:
            v = spec.beta2 * v0 + (1 - spec.beta2) * g2
        mhat = m / (1 - spec.beta1**t)
        vhat = v / (1 - spec.beta2**t)
        new_p[name] = (p - spec.lr * mhat / (np.sqrt(vhat) + spec.eps)).astype(p.dtype)
        new_s[f"m/{name}"] = m.astype(p.dtype)
        new_s[f"v/{name}"] = v.astype(p.dtype)
    return new_p, new_s
