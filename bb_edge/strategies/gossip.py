"""Gossip learning with age-weighted merging (Hegedus, Danner and Jelasity 2019).

Every ``period`` seconds a node sends its model (``GOSSIP``, request_id = its
age in samples trained) to one peer drawn from the bound ``peers`` selector.
On receipt the sender is checked against the receiver's sharing rules
(:meth:`~bb_edge.learn.peers.PeerSelector.refusal`: blocked pairs and leech
or offline senders are refused) and the model is validated (dtype, shape,
finite); refusals are :class:`~bb_edge.strategies.events.UpdateRejected`. Then it
merges ``(a_l * m_l + a_r * m_r) / (a_l + a_r)`` with age
``max(a_l, a_r)``, trains on its local data and adds the samples it saw to
the age. A node started with ``fetch_on_join`` first asks a peer for its
current model (``FETCH`` -> ``MODEL_FULL``) and trains only after adopting it.

Bindings: ``model`` (:class:`ModelState`), ``data``, ``peers``
(:class:`~bb_edge.learn.peers.PeerSelector` over wire ids), optional ``codec``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from bb_edge.engine.context import Context
from bb_edge.learn.validation import Rejection, RejectReason, UpdateValidator
from bb_edge.strategies import events as lev
from bb_edge.strategies.base import (
    PROTO_GOSSIP,
    HandlerState,
    ModelState,
    Msg,
    local_train,
    read_vector,
    send_vector,
)
from bb_edge.wire.envelope import Envelope

if TYPE_CHECKING:  # programs are built by the build wing (bb_edge.training) and handed in
    from bb_edge.training.program import TrainingProgram

__all__ = ["GossipNode", "refuse_by_sharing"]


def _reject(ctx: Context, strategy: str, env: Envelope, reason: RejectReason, detail: str) -> None:
    ctx.emit(lev.UpdateRejected(strategy, env.sender, env.request_id, reason.value, detail))


def refuse_by_sharing(ctx: Context, env: Envelope, strategy: str) -> bool:
    """Receiver-side sharing rules: ``True`` if ``env``'s sender may send to this node.

    Otherwise emits :class:`~bb_edge.strategies.events.UpdateRejected` (``blocked``,
    ``sharing_mode`` or ``unknown_peer``) and returns ``False``; the caller
    drops the envelope before touching any state.
    """
    why = ctx.binding("peers").refusal(ctx.node_id, env.sender)
    if why is None:
        return True
    _reject(ctx, strategy, env, RejectReason(why), f"node {ctx.node_id} refuses node {env.sender}: {why}")
    return False


@dataclass
class GossipNode(HandlerState):
    """One gossip-learning node (protocol 18)."""

    type_id: ClassVar[str] = "learn.handler.gossip"

    program: TrainingProgram
    period: float = 1.0
    epochs: int = 1
    local_steps: int = 0
    batch_size: int = 16
    merge: str = "age"  # "age" (Hegedus et al.) or "mean"
    fetch_on_join: bool = False
    fetch_timeout: float = 2.0
    seed: int = 0
    train_key: str = "train"
    strategy: str = "gossip"
    protocol_id: int = PROTO_GOSSIP
    started: bool = field(default=False, init=False)
    fetch_sent: float | None = field(default=None, init=False)
    next_wake: float | None = field(default=None, init=False)
    wakes: int = field(default=0, init=False)
    merges: int = field(default=0, init=False)

    def _target(self, ctx: Context) -> str | None:
        names = {v: k for k, v in ctx.peers.items()}
        selector = ctx.binding("peers")
        cands = [t for t in selector.send_targets(ctx.node_id, self.wakes) if t in names and t != ctx.node_id]
        if not cands:
            return None
        rng = np.random.default_rng([self.seed, ctx.node_id, self.wakes])
        return names[int(cands[int(rng.integers(len(cands)))])]

    def on_tick(self, now: float, ctx: Context) -> None:
        """Fetch (late joiner), then send the model to one peer every ``period``."""
        if not self.started:
            if not self.fetch_on_join:
                self._start(now, ctx)
            elif self.fetch_sent is None:
                target = self._target(ctx)
                if target is not None:
                    ctx.send_bytes(target, b"", protocol=self.protocol_id, edge=int(Msg.FETCH))
                self.fetch_sent = now
            elif now - self.fetch_sent >= self.fetch_timeout:
                self._start(now, ctx)  # nobody answered: start from the node's own model
            return
        if self.next_wake is not None and now >= self.next_wake:
            target = self._target(ctx)
            model: ModelState = ctx.binding("model")
            if target is not None and model.vector is not None:
                send_vector(ctx, target, model.vector, protocol=self.protocol_id, msg=Msg.GOSSIP,
                            request_id=int(model.age), codec=_codec(ctx))
            self.wakes += 1
            self.next_wake += self.period

    def _start(self, now: float, ctx: Context) -> None:
        self.started = True
        # desynchronise nodes within the first period (seeded)
        self.next_wake = now + float(np.random.default_rng([self.seed, ctx.node_id]).uniform(0, self.period))

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """FETCH (answer with the model), MODEL_FULL (adopt) and GOSSIP (merge and train)."""
        model: ModelState = ctx.binding("model")
        size = self.program.layout.size
        if env.edge == Msg.FETCH:
            # answering is sending: only to a peer this node may write to (the receiving rule, reversed)
            why = ctx.binding("peers").refusal(env.sender, ctx.node_id)
            if why is not None:
                _reject(ctx, self.strategy, env, RejectReason(why),
                        f"FETCH from node {env.sender}, which this node does not send to: {why}")
                return
            if self.started and model.vector is not None:
                ctx.send_array(peer, model.vector, protocol=self.protocol_id, edge=int(Msg.MODEL_FULL),
                               request_id=int(model.age))
            return
        if env.edge == Msg.MODEL_FULL:
            vec, _ = read_vector(env)
            if not self.started and vec is not None and vec.dtype == np.float32 and vec.size == size \
                    and np.isfinite(vec).all():
                model.set(vec.reshape(-1))
                model.age = float(env.request_id)
                ctx.emit(lev.ModelFetched(self.strategy, peer, env.request_id))
                self._start(ctx.now, ctx)
            return
        if env.edge != Msg.GOSSIP or not self.started:
            return
        if not refuse_by_sharing(ctx, env, self.strategy):
            return
        vec, why = read_vector(env, _codec(ctx))
        if vec is None or model.vector is None:
            _reject(ctx, self.strategy, env, RejectReason.WRONG_DTYPE, why or "no model yet")
            return
        res = UpdateValidator(size, {env.sender}).check(env.sender, vec.reshape(-1) if vec.ndim == 1 else vec)
        if isinstance(res, Rejection):
            _reject(ctx, self.strategy, env, res.reason, res.detail)
            return
        vec = res.update
        a_l, a_r = model.age, float(env.request_id)
        if self.merge == "age" and a_l + a_r > 0:
            merged = (a_l * model.vector + a_r * vec.reshape(-1)) / (a_l + a_r)
        else:
            merged = 0.5 * (model.vector + vec.reshape(-1))
        age = max(a_l, a_r)
        x, y = ctx.binding("data").arrays()
        rng = np.random.default_rng([self.seed, ctx.node_id, self.merges])
        self.merges += 1
        trained, _, loss, steps = local_train(ctx, self.train_key, self.program, merged.astype(np.float32), x, y,
                                              epochs=self.epochs, batch_size=self.batch_size, rng=rng,
                                              steps=self.local_steps)
        model.set(trained)
        model.age = age + steps * self.batch_size if self.local_steps else age + self.epochs * len(x)
        ctx.emit(lev.ModelMerged(self.strategy, peer, model.age))


def _codec(ctx: Context) -> object | None:
    try:
        return ctx.binding("codec")
    except KeyError:
        return None
