"""Split learning and SplitFed: cut-layer activations forward, gradients back, over the wire.

The three programs the targets run on the engine (client forward, client
step taking ``grad/<cut>``, server step returning ``grad/<cut>``) are a
:class:`~bb_edge.training.split.SplitPrograms`, built by the build wing
(:func:`bb_edge.training.setup.build_setup`) and handed in.

Per mini-batch a :class:`SplitClient` (protocol 20) sends ``LABELS`` (int64
``[B]``) and ``ACTIVATIONS`` (float32 ``[B, cut]``) with request_id = its
step; the :class:`SplitServer` (protocol 19) runs its half's training step
and answers ``GRADIENTS`` (float32 ``[B, cut]``, same request_id); the client
then runs its own step. Chained, the two steps are exactly the whole model's
step. With ``splitfed`` the clients (training in parallel against one server
half) also send their client half after every epoch (``CLIENT_MODEL``,
request_id = epoch); the server averages the halves it got by the deadline and
sends the average back (SplitFed, Thapa et al. 2022).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from bb_edge.engine.context import Context
from bb_edge.learn.validation import Rejection, RejectReason, UpdateValidator
from bb_edge.strategies import events as lev
from bb_edge.strategies.base import (
    PROTO_SPLIT_CLIENT,
    PROTO_SPLIT_SERVER,
    HandlerState,
    ModelState,
    Msg,
    run_step,
)
from bb_edge.wire.envelope import Envelope

if TYPE_CHECKING:  # built by the build wing and handed in: a type, not a dependency
    from bb_edge.training.split import SplitPrograms

__all__ = ["SplitServer", "SplitClient"]

#: at most this many half-received (labels, activations) steps per joined client
_PENDING_PER_CLIENT = 4


def _refuse(ctx: Context, strategy: str, env: Envelope, reason: RejectReason, detail: str) -> None:
    ctx.emit(lev.UpdateRejected(strategy, env.sender, env.request_id, reason.value, detail))


def _tensor(ctx: Context, strategy: str, env: Envelope) -> np.ndarray | None:
    """The envelope's tensor, or ``None`` after a typed refusal (never a traceback)."""
    try:
        return np.array(env.array())
    except Exception as exc:  # any decoding complaint: the message is unusable
        _refuse(ctx, strategy, env, RejectReason.WRONG_DTYPE, f"payload is not a tensor: {exc}")
        return None


def _check_cut(ctx: Context, strategy: str, env: Envelope, arr: np.ndarray, width: int | None,
               rows: int | None = None) -> bool:
    """Activations / gradients at the cut: float32 ``(rows, width)``, finite; else a typed refusal."""
    if arr.dtype != np.float32:
        _refuse(ctx, strategy, env, RejectReason.WRONG_DTYPE, f"cut tensor is {arr.dtype}, expected float32")
        return False
    if arr.ndim != 2 or (width is not None and arr.shape[1] != width) or (rows is not None and len(arr) != rows):
        _refuse(ctx, strategy, env, RejectReason.WRONG_SHAPE,
                f"cut tensor {arr.shape}, expected ({rows if rows is not None else 'N'}, {width})")
        return False
    if not np.isfinite(arr).all():
        _refuse(ctx, strategy, env, RejectReason.NON_FINITE, "cut tensor holds NaN or Inf")
        return False
    return True


@dataclass
class SplitServer(HandlerState):
    """Server half of split learning / SplitFed (protocol 19). Bindings: ``model`` (server half)."""

    type_id: ClassVar[str] = "learn.handler.split_server"

    programs: SplitPrograms
    splitfed: bool = False
    fed_timeout: float = 10.0
    strategy: str = "split"
    protocol_id: int = PROTO_SPLIT_SERVER
    client_protocol: int = PROTO_SPLIT_CLIENT
    opt_state: dict[str, np.ndarray] | None = field(default=None, init=False)
    clients: dict[int, str] = field(default_factory=dict, init=False)
    pending: dict[tuple[int, int], dict[str, np.ndarray]] = field(default_factory=dict, init=False)
    fed_round: int = field(default=0, init=False)
    fed_got: dict[int, np.ndarray] = field(default_factory=dict, init=False)
    fed_deadline: float | None = field(default=None, init=False)
    steps: int = field(default=0, init=False)

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """JOIN, LABELS + ACTIVATIONS (answered with GRADIENTS) and CLIENT_MODEL (SplitFed)."""
        if env.edge == Msg.JOIN:
            if env.sender not in ctx.peers.values():  # only deployment members may join
                _refuse(ctx, self.strategy, env, RejectReason.UNKNOWN_PEER, "JOIN from a non-member")
                return
            self.clients[env.sender] = peer
            return
        if env.sender not in self.clients:
            ctx.emit(lev.UpdateRejected(self.strategy, env.sender, env.request_id, "unknown_peer",
                                        "split message from a node that never joined"))
            return
        if env.edge in (Msg.LABELS, Msg.ACTIVATIONS):
            arr = _tensor(ctx, self.strategy, env)
            if arr is None:
                return
            if env.edge == Msg.ACTIVATIONS:
                if not _check_cut(ctx, self.strategy, env, arr, self.programs.server.data_inputs[0].shape[1]):
                    return
            elif arr.ndim != 1 or arr.dtype.kind not in "iu":
                _refuse(ctx, self.strategy, env, RejectReason.WRONG_DTYPE,
                        f"labels must be a 1-D integer array, got {arr.dtype} {arr.shape}")
                return
            key = (env.sender, env.request_id)
            if key not in self.pending and \
                    sum(1 for s, _ in self.pending if s == env.sender) >= _PENDING_PER_CLIENT:
                # a client never needs more open steps than this: refuse instead of growing without bound
                _refuse(ctx, self.strategy, env, RejectReason.STALE_ROUND,
                        f"more than {_PENDING_PER_CLIENT} unfinished steps from this client")
                return
            slot = self.pending.setdefault(key, {})
            slot["labels" if env.edge == Msg.LABELS else "acts"] = arr
            if len(slot) == 2:
                del self.pending[key]
                self._step(ctx, peer, env.request_id, slot["acts"], slot["labels"])
        elif env.edge == Msg.CLIENT_MODEL and self.splitfed:
            got = _tensor(ctx, self.strategy, env)
            if got is None:
                return
            res = UpdateValidator(self.programs.client.layout.size, {env.sender}).check(env.sender, got.reshape(-1))
            if isinstance(res, Rejection):
                _refuse(ctx, self.strategy, env, res.reason, res.detail)
                return
            vec = res.update
            if env.request_id != self.fed_round + 1:
                ctx.emit(lev.UpdateRejected(self.strategy, env.sender, env.request_id, "stale_round",
                                            f"SplitFed round {self.fed_round + 1} is open"))
                return
            self.fed_got[env.sender] = vec
            if self.fed_deadline is None:
                self.fed_deadline = ctx.now + self.fed_timeout
            if set(self.fed_got) >= set(self.clients):
                self._fed_close(ctx)

    def _step(self, ctx: Context, peer: str, rid: int, acts: np.ndarray, labels: np.ndarray) -> None:
        prog = self.programs.server
        model: ModelState = ctx.binding("model")
        assert model.vector is not None
        if acts.dtype != np.float32 or acts.ndim != 2 or len(acts) != len(labels):
            ctx.emit(lev.UpdateRejected(self.strategy, 0, rid, "wrong_shape",
                                        f"activations {acts.dtype} {acts.shape}, labels {labels.shape}"))
            return
        state = self.opt_state if self.opt_state is not None else prog.initial_state()
        gname = "grad/" + self.programs.cut
        params, self.opt_state, extra = run_step(
            ctx, "split.server", prog, {self.programs.cut: acts, "labels": labels.astype(np.int64)},
            prog.layout.unflatten(model.vector), state, (gname,))
        model.set(prog.layout.flatten(params))
        self.steps += 1
        ctx.send_array(peer, extra[gname].astype(np.float32), protocol=self.client_protocol,
                       edge=int(Msg.GRADIENTS), request_id=rid)

    def _fed_close(self, ctx: Context) -> None:
        self.fed_round += 1
        avg = np.mean(np.stack(list(self.fed_got.values())), axis=0).astype(np.float32)
        for sender in sorted(self.fed_got):
            ctx.send_array(self.clients[sender], avg, protocol=self.client_protocol, edge=int(Msg.CLIENT_MODEL),
                           request_id=self.fed_round)
        ctx.emit(lev.RoundCompleted(self.strategy, self.fed_round, len(self.fed_got), len(self.clients),
                                    len(self.fed_got) < len(self.clients)))
        self.fed_got, self.fed_deadline = {}, None

    def on_tick(self, now: float, ctx: Context) -> None:
        """SplitFed deadline: average what arrived (partial round)."""
        if self.fed_deadline is not None and now >= self.fed_deadline and self.fed_got:
            self._fed_close(ctx)


@dataclass
class SplitClient(HandlerState):
    """Client half of split learning / SplitFed (protocol 20). Bindings: ``data``, ``model`` (client half)."""

    type_id: ClassVar[str] = "learn.handler.split_client"

    programs: SplitPrograms
    server: str
    epochs: int = 1
    batch_size: int = 32
    splitfed: bool = False
    seed: int = 0
    strategy: str = "split"
    protocol_id: int = PROTO_SPLIT_CLIENT
    server_protocol: int = PROTO_SPLIT_SERVER
    joined: bool = field(default=False, init=False)
    epoch: int = field(default=0, init=False)
    step: int = field(default=0, init=False)
    cursor: int = field(default=0, init=False)
    order: np.ndarray | None = field(default=None, init=False)
    waiting: str = field(default="", init=False)  # "", "grad", "fed", "done"
    opt_state: dict[str, np.ndarray] | None = field(default=None, init=False)
    batch: np.ndarray | None = field(default=None, init=False)
    losses: list[float] = field(default_factory=list, init=False)

    def on_tick(self, now: float, ctx: Context) -> None:
        """Join, then keep one mini-batch in flight."""
        if not self.joined:
            x, _ = ctx.binding("data").arrays()
            ctx.send_array(self.server, np.array([len(x)], dtype=np.int64), protocol=self.server_protocol,
                           edge=int(Msg.JOIN))
            self.joined = True
        if self.waiting == "":
            self._send_batch(ctx)

    def _send_batch(self, ctx: Context) -> None:
        x, y = ctx.binding("data").arrays()
        if self.order is None or self.cursor >= len(self.order):
            self.order = np.random.default_rng([self.seed, ctx.node_id, self.epoch]).permutation(len(x))
            self.cursor = 0
        idx = self.order[self.cursor:self.cursor + self.batch_size]
        self.cursor += len(idx)
        self.batch = idx
        model: ModelState = ctx.binding("model")
        assert model.vector is not None
        params = self.programs.client.layout.unflatten(model.vector)
        h = ctx.compute("split.fwd", {self.programs.client.data_inputs[0].name: x[idx], **params})[self.programs.cut]
        self.step += 1
        ctx.send_array(self.server, y[idx].astype(np.int64), protocol=self.server_protocol, edge=int(Msg.LABELS),
                       request_id=self.step)
        ctx.send_array(self.server, np.asarray(h, dtype=np.float32), protocol=self.server_protocol,
                       edge=int(Msg.ACTIVATIONS), request_id=self.step)
        self.waiting = "grad"

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """GRADIENTS (finish the step) and CLIENT_MODEL (adopt the SplitFed average)."""
        if peer != self.server:
            return
        model: ModelState = ctx.binding("model")
        prog = self.programs.client
        if env.edge == Msg.GRADIENTS and self.waiting == "grad" and env.request_id == self.step:
            assert model.vector is not None and self.batch is not None
            x, _ = ctx.binding("data").arrays()
            g = _tensor(ctx, self.strategy, env)
            if g is None or not _check_cut(ctx, self.strategy, env, g, prog.grad_input.shape[1]
                                           if prog.grad_input is not None else None, len(self.batch)):
                return
            state = self.opt_state if self.opt_state is not None else prog.initial_state()
            params, self.opt_state, _ = run_step(
                ctx, "split.client", prog, {prog.data_inputs[0].name: x[self.batch], "grad/" + self.programs.cut: g},
                prog.layout.unflatten(model.vector), state)
            model.set(prog.layout.flatten(params))
            self.waiting = ""
            assert self.order is not None
            if self.cursor >= len(self.order):
                self.epoch += 1
                if not self.splitfed:
                    model.round = self.epoch  # SplitFed: once the averaged half is back
                if self.splitfed:
                    ctx.send_array(self.server, model.vector, protocol=self.server_protocol,
                                   edge=int(Msg.CLIENT_MODEL), request_id=self.epoch)
                    self.waiting = "fed"
                elif self.epoch >= self.epochs:
                    self.waiting = "done"
                    ctx.emit(lev.TrainingFinished(self.strategy, self.epoch))
                else:
                    ctx.emit(lev.LocalTrainingDone(self.strategy, self.epoch, float("nan"), self.step))
        elif env.edge == Msg.CLIENT_MODEL and self.waiting == "fed":
            got = _tensor(ctx, self.strategy, env)
            if got is None:
                return
            res = UpdateValidator(prog.layout.size, {env.sender}).check(env.sender, got.reshape(-1))
            if isinstance(res, Rejection):  # a bad average is refused; the client keeps its own half
                _refuse(ctx, self.strategy, env, res.reason, res.detail)
            else:
                model.set(res.update)
            model.round = self.epoch
            if self.epoch >= self.epochs:
                self.waiting = "done"
                ctx.emit(lev.TrainingFinished(self.strategy, self.epoch))
            else:
                self.waiting = ""
