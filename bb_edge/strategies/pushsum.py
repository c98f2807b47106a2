"""Push-sum averaging (Kempe, Dobra and Gehrke 2003), optionally with local SGD (stochastic gradient push).

Each node holds ``(s, w)`` with estimate ``z = s / w``. Every ``period`` it
(optionally) trains ``z`` locally, sets ``s = w * z``, keeps half of
``(s, w)`` and sends the other half to one peer as one float32 vector
``[s..., w]`` (``PUSH``). Receiving adds. The sum of all ``s`` and ``w``
(nodes plus envelopes in flight) is conserved, so without training every
``z`` converges to the average of the initial models.

Bindings: ``model`` (:class:`ModelState`: ``vector`` = z, ``age`` = w),
``peers``, optional ``data`` (training when ``train`` is true).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from bb_edge.engine.context import Context
from bb_edge.learn.validation import Rejection, RejectReason, UpdateValidator
from bb_edge.strategies import events as lev
from bb_edge.strategies.base import PROTO_PUSHSUM, HandlerState, ModelState, Msg, local_train
from bb_edge.strategies.gossip import _reject, refuse_by_sharing
from bb_edge.wire.envelope import Envelope

if TYPE_CHECKING:  # programs are built by the build wing (bb_edge.training) and handed in
    from bb_edge.training.program import TrainingProgram

__all__ = ["PushSumNode"]


@dataclass
class PushSumNode(HandlerState):
    """One push-sum node (protocol 21)."""

    type_id: ClassVar[str] = "learn.handler.pushsum"

    program: TrainingProgram | None = None
    train: bool = False
    period: float = 1.0
    local_steps: int = 1
    batch_size: int = 16
    seed: int = 0
    train_key: str = "train"
    strategy: str = "pushsum"
    protocol_id: int = PROTO_PUSHSUM
    next_wake: float | None = field(default=None, init=False)
    wakes: int = field(default=0, init=False)
    s: np.ndarray | None = field(default=None, init=False)
    w: float = field(default=1.0, init=False)

    def _sync(self, model: ModelState) -> None:
        if self.s is None and model.vector is not None:
            self.s = model.vector.astype(np.float64) * self.w
        if self.s is not None:
            model.vector = (self.s / self.w).astype(np.float32)
            model.age = self.w

    def on_tick(self, now: float, ctx: Context) -> None:
        """Every ``period``: train (optional), keep half, push half to one peer."""
        model: ModelState = ctx.binding("model")
        self._sync(model)
        if self.next_wake is None:
            self.next_wake = now + float(np.random.default_rng([self.seed, ctx.node_id]).uniform(0, self.period))
        if now < self.next_wake or self.s is None:
            return
        self.next_wake += self.period
        if self.train and self.program is not None:
            x, y = ctx.binding("data").arrays()
            rng = np.random.default_rng([self.seed, ctx.node_id, self.wakes])
            z, _, loss, steps = local_train(ctx, self.train_key, self.program, (self.s / self.w).astype(np.float32),
                                            x, y, epochs=1, batch_size=self.batch_size, rng=rng,
                                            steps=self.local_steps)
            self.s = z.astype(np.float64) * self.w
            ctx.emit(lev.LocalTrainingDone(self.strategy, self.wakes, loss, steps))
        names = {v: k for k, v in ctx.peers.items()}
        cands = [t for t in ctx.binding("peers").send_targets(ctx.node_id, self.wakes) if t in names]
        self.wakes += 1
        if cands:
            rng = np.random.default_rng([self.seed, ctx.node_id, self.wakes, 1])
            target = names[int(cands[int(rng.integers(len(cands)))])]
            self.s, self.w = self.s / 2, self.w / 2
            msg = np.concatenate([self.s, [self.w]]).astype(np.float32)
            # keep exactly what the receiver will add (float32 on the wire) so mass is conserved
            self.s = self.s.astype(np.float32).astype(np.float64)
            self.w = float(np.float32(self.w))
            ctx.send_array(target, msg, protocol=self.protocol_id, edge=int(Msg.PUSH), request_id=self.wakes)
        self._sync(model)

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """PUSH: add the received half."""
        if env.edge != Msg.PUSH:
            return
        if not refuse_by_sharing(ctx, env, self.strategy):
            return
        model: ModelState = ctx.binding("model")
        self._sync(model)
        if self.s is None:
            return
        try:
            raw = env.array()
        except Exception as exc:  # undecodable payload: typed refusal, never a traceback
            _reject(ctx, self.strategy, env, RejectReason.WRONG_DTYPE, f"payload is not a tensor: {exc}")
            return
        res = UpdateValidator(self.s.size + 1, {env.sender}).check(env.sender, np.asarray(raw).reshape(-1))
        if isinstance(res, Rejection):
            _reject(ctx, self.strategy, env, res.reason, res.detail)
            return
        vec = res.update.astype(np.float64)
        if vec[-1] <= 0:
            _reject(ctx, self.strategy, env, RejectReason.BAD_WEIGHT, f"push-sum weight {vec[-1]} <= 0")
            return
        self.s = self.s + vec[:-1]
        self.w = self.w + float(vec[-1])
        self._sync(model)
        ctx.emit(lev.ModelMerged(self.strategy, peer, self.w))
