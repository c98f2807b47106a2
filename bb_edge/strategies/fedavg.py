"""FedAvg (and DiLoCo) as protocol components: a server target and a client target.

Server (protocol 16) bindings: ``model`` (:class:`ModelState`, the global
model), ``aggregator`` (any Aggregator; robust rules and server optimizers
included), ``liveness`` (:class:`~bb_edge.learn.liveness.LivenessTable`),
optional ``codec``. Client (protocol 17) bindings: ``data`` (DataSource),
``model``, optional ``codec``, ``attack`` and ``collusion`` (simulated
Byzantine clients).

Round protocol: clients ``JOIN`` (sample count) and get ``MODEL_FULL`` back
(a late joiner starts from the current model). The server opens round r
with the live clients (phi-accrual), sends ``MODEL`` (request_id r), and
sets a deadline from ``ctx.now``. The JOIN's sample count (the client's
aggregation weight) is validated and clamped to the client's cap
(``sample_caps``, e.g. the partition size the deployment gave it, or one
``sample_cap`` for all): see :meth:`FedAvgServer._join_samples`. Each ``UPDATE`` is decoded and run through
:class:`~bb_edge.learn.validation.UpdateValidator`; refusals become
:class:`~bb_edge.strategies.events.UpdateRejected` and never reach the
aggregator. The round closes when the whole cohort answered, or at the
deadline with a partial aggregate if at least ``min_clients`` did, otherwise
with :class:`~bb_edge.strategies.events.RoundAborted`. ``reask`` seconds into
a round (default: half the round's timeout), the server sends the round's
``MODEL`` again to each cohort client that has not answered and is not
suspected: a MODEL or an UPDATE lost on the way (a broker member killed, a
queue past its bound) would otherwise shrink the round in silence. A client
answers a MODEL of the round it last answered by training it again (the same
model and seeded batch order, so the same update) and re-sending the UPDATE;
one that arrives twice is refused as a duplicate and counted once.

Sharing modes (a ``peers`` :class:`~bb_edge.learn.peers.PeerSelector` bound
on the server, from the config's ``blocked`` and ``sharing``): the server
checks every JOIN and UPDATE on receipt. A blocked client's JOIN is refused
(it never gets a model); a leech (``ro``) joins and reads every round's model
but is never in a cohort, and its updates are refused; both refusals are
:class:`~bb_edge.strategies.events.UpdateRejected` (``blocked``, ``sharing_mode``).
Secure aggregation (``secagg``) runs the same server and client with extra
phases: :mod:`bb_edge.strategies.secagg`.

DiLoCo (Douillard et al. 2023) is the same composition with other defaults:
workers keep their inner optimizer state across rounds and run ``local_steps``
steps; the outer optimizer is the server's aggregator (e.g. ``fedavgm``).

Why one file: the server and the client are the two ends of one round protocol (message codes, round
ids, deadlines, weights). DiLoCo is FedAvg with an outer optimizer, so it subclasses both here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from bb_edge.engine.context import Context
from bb_edge.learn.roles import Component, LearnError, register
from bb_edge.learn.validation import Rejection, RejectReason, UpdateValidator
from bb_edge.strategies import events as lev
from bb_edge.strategies.base import (
    PROTO_DILOCO_SERVER,
    PROTO_DILOCO_WORKER,
    PROTO_FEDAVG_CLIENT,
    PROTO_FEDAVG_SERVER,
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

__all__ = ["FedAvgServer", "FedAvgClient", "DiLoCoServer", "DiLoCoWorker", "Collusion"]


def _opt(ctx: Context, name: str) -> Any:
    try:
        return ctx.binding(name)
    except KeyError:
        return None


@register
@dataclass
class Collusion(Component):
    """Simulation only: the channel colluding Byzantine clients learn honest updates through.

    Bound (one shared object) on the malicious clients. With
    ``omniscient=False`` ALIE/IPM estimate the honest statistics from the
    colluders' own honest updates (Baruch et al.'s non-omniscient setting);
    with ``omniscient=True`` it is also bound on the honest clients, which
    post their updates too, and the colluders use every honest update of the
    round (the setting most robustness papers evaluate, e.g. Karimireddy et
    al. 2022, Allouah et al. 2023).
    """

    type_id: ClassVar[str] = "attack.collusion"
    members: int = 1
    omniscient: bool = False
    honest_members: int = 0
    posted: dict[int, dict[int, np.ndarray]] = field(default_factory=dict, init=False)
    posted_honest: dict[int, dict[int, np.ndarray]] = field(default_factory=dict, init=False)

    def post(self, round: int, node: int, update: np.ndarray, honest: bool = False) -> None:
        """Share one update of ``round``: a colluder's own honest update, or (``honest``) an honest client's."""
        book = self.posted_honest if honest else self.posted
        book.setdefault(round, {})[node] = np.array(update)
        for b in (self.posted, self.posted_honest):
            for r in [r for r in b if r < round - 2]:
                del b[r]

    def ready(self, round: int) -> bool:
        """Every colluder (and, omniscient, every honest member) has posted for ``round``."""
        if len(self.posted.get(round, {})) < self.members:
            return False
        return not self.omniscient or len(self.posted_honest.get(round, {})) >= self.honest_members

    def honest(self, round: int) -> list[np.ndarray]:
        """The honest updates the colluders know for ``round`` (in node order)."""
        got = self.posted_honest.get(round, {}) if self.omniscient else self.posted.get(round, {})
        if not got:
            got = self.posted.get(round, {})
        return [got[k] for k in sorted(got)]

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """Nothing persistent: the posts are per-round scratch."""
        return {}, {}


#: seconds in which a server answers one client's retried JOINs (same boot) once
REJOIN_QUIET = 1.0


@dataclass
class FedAvgServer(HandlerState):
    """Server target of FedAvg: cohorts, deadlines, validation, (robust) aggregation."""

    type_id: ClassVar[str] = "learn.handler.fedavg_server"

    size: int
    rounds: int
    min_clients: int = 1
    clients_per_round: int = 0
    round_timeout: float = 10.0
    start_after: float = 0.0
    start_clients: int = 1
    max_norm: float | None = None
    seed: int = 0
    sample_cap: int = 0
    sample_caps: dict[int, int] = field(default_factory=dict)
    strategy: str = "fedavg"
    rounds_count: str = "started"  # what ``rounds`` counts: rounds started, or rounds completed (outages)
    reask: float = -1.0  # seconds into a round to re-send MODEL to silent clients; < 0: half the timeout, 0: never
    protocol_id: int = PROTO_FEDAVG_SERVER
    client_protocol: int = PROTO_FEDAVG_CLIENT
    round: int = field(default=0, init=False)
    open: bool = field(default=False, init=False)
    finished: bool = field(default=False, init=False)
    deadline: float = field(default=0.0, init=False)
    next_start: float = field(default=0.0, init=False)
    cohort: set[int] = field(default_factory=set, init=False)
    clients: dict[int, int] = field(default_factory=dict, init=False)  # id -> samples
    received: dict[int, np.ndarray] = field(default_factory=dict, init=False)
    suspected: set[int] = field(default_factory=set, init=False)
    rejected: int = field(default=0, init=False)
    aborted: int = field(default=0, init=False)
    completed: int = field(default=0, init=False)

    # ------------------------------------------------------------ envelopes

    def cap_for(self, node: int) -> int:
        """The most samples ``node`` may be weighted by: its declared cap, else ``sample_cap``, else none (0)."""
        caps = [c for c in (self.sample_caps.get(node, 0), self.sample_cap) if c > 0]
        return min(caps) if caps else 0

    def _join_samples(self, env: Envelope, ctx: Context) -> int | None:
        """The validated sample count of a JOIN, clamped to the cap; ``None`` (after an event) if unusable.

        A count that is not one positive integer refuses the JOIN (the client
        is not admitted); a count above the cap is clamped to the cap with a
        :class:`~bb_edge.strategies.events.SampleCountClamped` event, so one client
        claiming 10^9 samples weighs no more than its declared share.
        """
        try:
            arr = np.asarray(env.array())
        except Exception as exc:  # an undecodable payload is a refused JOIN, never a traceback
            self._reject(ctx, env.sender, env.request_id, RejectReason.BAD_SAMPLE_COUNT, f"JOIN payload: {exc}")
            return None
        if arr.size != 1 or arr.dtype.kind not in "iu":
            self._reject(ctx, env.sender, env.request_id, RejectReason.BAD_SAMPLE_COUNT,
                         f"JOIN must carry one integer sample count, got {arr.dtype} x {arr.size}")
            return None
        claimed = int(arr.reshape(-1)[0])
        if claimed < 1:
            self._reject(ctx, env.sender, env.request_id, RejectReason.BAD_SAMPLE_COUNT,
                         f"sample count {claimed} < 1")
            return None
        cap = self.cap_for(env.sender)
        if cap and claimed > cap:
            ctx.emit(lev.SampleCountClamped(self.strategy, env.sender, claimed, cap))
            return cap
        return claimed

    def _member_ids(self, ctx: Context) -> frozenset[int]:
        """The deployment members' wire ids, taken once from the engine's (fixed) peer table.

        ``ctx.peers`` builds a new dict of every node on each call: testing a JOIN against it made a
        join phase quadratic in the fleet size. Kept outside the dataclass fields, so not snapshotted.
        """
        ids = self.__dict__.get("_members")
        if ids is None:
            ids = self.__dict__["_members"] = frozenset(ctx.peers.values())
        return ids

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """JOIN, UPDATE and HEARTBEAT from clients."""
        liveness = _opt(ctx, "liveness")
        # only members count as alive: a stranger's envelope must not create liveness state
        known = env.sender in self.clients or (env.edge == Msg.JOIN and env.sender in self._member_ids(ctx))
        if liveness is not None and known:
            liveness.heartbeat(env.sender, ctx.now)
            self.suspected.discard(env.sender)
        if env.edge == Msg.JOIN:
            if env.sender not in self._member_ids(ctx):
                self._reject(ctx, env.sender, env.request_id, RejectReason.UNKNOWN_PEER, "JOIN from a non-member")
                return
            if self._refusal(ctx, env.sender) == RejectReason.BLOCKED:  # a blocked client gets no model
                self._reject(ctx, env.sender, env.request_id, RejectReason.BLOCKED, "JOIN from a blocked client")
                return
            samples = self._join_samples(env, ctx)
            if samples is None:
                return
            repeated = self._repeated_join(env)
            self.clients[env.sender] = samples
            answered: dict[int, float] = self.__dict__.setdefault("_join_answered", {})
            if repeated and ctx.now - answered.get(env.sender, -math.inf) < REJOIN_QUIET:
                return  # the retries a stalled server finds queued: the first one's answer is on its way
            answered[env.sender] = ctx.now
            if not repeated:  # a retried JOIN is answered again but joins once
                ctx.emit(lev.PeerJoined(self.strategy, env.sender, samples))
            model: ModelState = ctx.binding("model")
            assert model.vector is not None
            send_vector(ctx, peer, model.vector, protocol=self.client_protocol, msg=Msg.MODEL_FULL,
                        request_id=self.round if self.open else model.round)
        elif env.edge == Msg.UPDATE:
            self._on_update(env, ctx)

    def _repeated_join(self, env: Envelope) -> bool:
        """Whether ``env`` (a JOIN) repeats one this client already sent in the same boot (its seq's epoch).

        A client re-sends its JOIN until it gets an answer (the C client: issue 35, where a broker queue past
        its bound dropped JOINs); a rebooted client's JOIN (a new epoch) is a new join. Kept outside the
        dataclass fields, so not snapshotted: after a server restart the first JOIN of each boot counts again.
        """
        epochs: dict[int, int] = self.__dict__.setdefault("_join_epochs", {})
        epoch = env.seq >> 32
        seen = env.sender in self.clients and epochs.get(env.sender) == epoch
        epochs[env.sender] = epoch
        return seen

    def _refusal(self, ctx: Context, sender: int) -> RejectReason | None:
        """The receiver-side sharing rule (bound ``peers``): ``BLOCKED``, ``SHARING_MODE`` (a leech) or ``None``."""
        peers = _opt(ctx, "peers")
        why = peers.refusal(ctx.node_id, sender) if peers is not None else None
        return None if why is None else RejectReason(why)

    def _reject(self, ctx: Context, sender: int, round: int, reason: RejectReason, detail: str) -> None:
        self.rejected += 1
        ctx.emit(lev.UpdateRejected(self.strategy, sender, round, reason.value, detail))

    def _on_update(self, env: Envelope, ctx: Context) -> None:
        sender, rnd = env.sender, env.request_id
        refused = self._refusal(ctx, sender)
        if refused is not None:  # checked first: a blocked or leech-only client's update is never looked at
            self._reject(ctx, sender, rnd, refused, f"node {sender} may not contribute updates ({refused.value})")
            return
        if sender not in self.clients:
            self._reject(ctx, sender, rnd, RejectReason.UNKNOWN_PEER, f"node {sender} never joined")
            return
        if not self.open or rnd != self.round:
            self._reject(ctx, sender, rnd, RejectReason.STALE_ROUND,
                         f"update for round {rnd}; round {self.round} is {'open' if self.open else 'closed'}")
            return
        if sender not in self.cohort:
            self._reject(ctx, sender, rnd, RejectReason.UNKNOWN_PEER, f"node {sender} is not in round {rnd}'s cohort")
            return
        if sender in self.received:
            self._reject(ctx, sender, rnd, RejectReason.DUPLICATE, "second update in this round")
            return
        vec, why = read_vector(env, _opt(ctx, "codec"))
        if vec is None:
            self._reject(ctx, sender, rnd, RejectReason.WRONG_DTYPE, why)
            return
        # the joined ids as a live view, not a new set per update (that made a round quadratic in the cohort)
        validator = UpdateValidator(self.size, self.clients.keys(), max_norm=self.max_norm)
        res = validator.check(sender, vec.reshape(-1) if vec.ndim == 1 else vec)
        if isinstance(res, Rejection):
            self._reject(ctx, sender, rnd, res.reason, res.detail)
            return
        self.received[sender] = res.update
        # every key of received passed `sender in self.cohort` above, so equal sizes = the whole cohort
        # answered (a set of received per update made a round quadratic in the cohort)
        if len(self.received) >= len(self.cohort):
            self._close(ctx)

    # ---------------------------------------------------------------- ticks

    def on_tick(self, now: float, ctx: Context) -> None:
        """Start rounds, enforce deadlines, track suspected peers."""
        model: ModelState = ctx.binding("model")
        model.pinned = True
        liveness = _opt(ctx, "liveness")
        if liveness is not None:
            for p in liveness.suspected(now):
                if p not in self.suspected:
                    self.suspected.add(p)
                    ctx.emit(lev.PeerSuspected(self.strategy, p, float(liveness.phi(p, now))))
        if self.finished:
            return
        if self.open:
            if now >= self.deadline:
                self._close(ctx)
            elif self.__dict__.get("_reask_at", math.inf) <= now:
                self._reask(ctx)
            return
        if (self.completed if self.rounds_count == "completed" else self.round) >= self.rounds:
            self.finished = True
            ctx.emit(lev.TrainingFinished(self.strategy, self.round))
            return
        if now < self.next_start or not self.clients:
            return
        if self.round == 0 and len(self.clients) < self.start_clients and now < self.start_after:
            return  # wait for every expected client, but not past start_after
        self._start(ctx)

    def _live(self, ctx: Context) -> list[int]:
        liveness = _opt(ctx, "liveness")
        ids = sorted(self.clients)
        ids = [c for c in ids if self._refusal(ctx, c) is None]  # leeches read the model, never in a cohort
        if liveness is None:
            return ids
        return [c for c in ids if liveness.phi(c, ctx.now) < liveness.threshold]

    def _start(self, ctx: Context) -> None:
        self.round += 1
        live = self._live(ctx)
        if self.clients_per_round and len(live) > self.clients_per_round:
            rng = np.random.default_rng([self.seed, self.round])
            live = sorted(int(c) for c in rng.choice(live, self.clients_per_round, replace=False))
        if len(live) < self.min_clients:
            self.aborted += 1
            ctx.emit(lev.RoundAborted(self.strategy, self.round, len(live), self.min_clients,
                                      f"only {len(live)} live clients at the start, minimum {self.min_clients}"))
            self.next_start = ctx.now + self.round_timeout
            return
        self.cohort = set(live)
        self.received = {}
        self.open = True
        self.deadline = ctx.now + self.round_timeout
        after = self.round_timeout / 2 if self.reask < 0 else self.reask
        # not a dataclass field (snapshots stay as they were): a restored open round is not re-asked
        self.__dict__["_reask_at"] = ctx.now + after if 0 < after < self.round_timeout else math.inf
        peers = _opt(ctx, "peers")
        leeches = [c for c in self.clients if peers is not None and c not in self.cohort and peers.mode(c) == "ro"]
        self._send_model(ctx, sorted(self.cohort) + sorted(leeches))  # a leech (ro) reads every round's model too
        ctx.emit(lev.RoundStarted(self.strategy, self.round, len(self.cohort), self.deadline))

    def _send_model(self, ctx: Context, ids: list[int]) -> None:
        """The open round's MODEL to ``ids`` (the codec's encoding when it applies to models)."""
        model: ModelState = ctx.binding("model")
        assert model.vector is not None
        names = {v: k for k, v in ctx.peers.items()}
        names[ctx.node_id] = ctx.node
        codec = _opt(ctx, "codec")
        if codec is not None and not getattr(codec, "applies_to_model", True):
            codec = None  # an update-only codec (DP noise) never touches the broadcast model
        for c in ids:
            send_vector(ctx, names[c], model.vector, protocol=self.client_protocol, msg=Msg.MODEL,
                        request_id=self.round, codec=codec)

    def _reask(self, ctx: Context) -> None:
        """Send the round's MODEL again to the cohort clients that have not answered and are not suspected."""
        self.__dict__["_reask_at"] = math.inf  # once per round: a second loss is the deadline's
        silent = [c for c in sorted(self.cohort) if c not in self.received and c not in self.suspected]
        if silent:
            self._send_model(ctx, silent)
            ctx.emit(lev.RoundReasked(self.strategy, self.round, len(silent)))

    def _close(self, ctx: Context) -> None:
        self.open = False
        ids = sorted(self.received)
        if len(ids) < self.min_clients:
            self.aborted += 1
            ctx.emit(lev.RoundAborted(self.strategy, self.round, len(ids), self.min_clients,
                                      f"deadline passed with {len(ids)} of {len(self.cohort)} updates"))
            return
        model: ModelState = ctx.binding("model")
        assert model.vector is not None
        agg = ctx.binding("aggregator")
        try:
            step = agg.aggregate([self.received[i] for i in ids], [float(self.clients[i]) for i in ids])
        except LearnError as exc:
            self.aborted += 1
            ctx.emit(lev.RoundAborted(self.strategy, self.round, len(ids), self.min_clients,
                                      f"aggregator {agg.type_id} refused: {exc}"))
            return
        if not np.isfinite(step).all():
            self.aborted += 1
            ctx.emit(lev.RoundAborted(self.strategy, self.round, len(ids), self.min_clients,
                                      "aggregate is not finite"))
            return
        model.set(model.vector + np.asarray(step, dtype=np.float32), self.round)
        self.completed += 1
        ctx.emit(lev.RoundCompleted(self.strategy, self.round, len(ids), len(self.cohort),
                                    len(ids) < len(self.cohort)))
        self.received = {}


@dataclass
class FedAvgClient(HandlerState):
    """Client target of FedAvg: join, train on each round's model, send the (codec'd) delta."""

    type_id: ClassVar[str] = "learn.handler.fedavg_client"

    program: TrainingProgram
    server: str
    train_key: str = "train"
    epochs: int = 1
    batch_size: int = 16
    local_steps: int = 0
    keep_optimizer_state: bool = False
    heartbeat_interval: float = 1.0
    collusion_patience: float = 1.0
    seed: int = 0
    strategy: str = "fedavg"
    protocol_id: int = PROTO_FEDAVG_CLIENT
    server_protocol: int = PROTO_FEDAVG_SERVER
    joined: bool = field(default=False, init=False)
    last_sent: float = field(default=-math.inf, init=False)
    opt_state: dict[str, np.ndarray] | None = field(default=None, init=False)
    pending: tuple[int, np.ndarray, float] | None = field(default=None, init=False)
    rounds_trained: int = field(default=0, init=False)

    def on_tick(self, now: float, ctx: Context) -> None:
        """Join, heartbeat while idle (the JOIN again until the server answered it), release a colluding update."""
        if not self.joined:
            self._send_join(ctx)
            self.__dict__["_join_unanswered"] = True
            self.joined, self.last_sent = True, now
        if self.pending is not None:
            rnd, own, since = self.pending
            coll = _opt(ctx, "collusion")
            if coll is None or coll.ready(rnd) or now - since >= self.collusion_patience:
                self._send_update(ctx, rnd, own, coll.honest(rnd) if coll is not None else [own])
        if now - self.last_sent >= self.heartbeat_interval:
            # until the server answered (a MODEL_FULL or MODEL), the heartbeat is the JOIN again: a JOIN lost on
            # the way (a broker queue past its bound drops messages it acknowledged, issue 35) would leave this
            # client out of every round while it still looked alive; the server answers a repeated JOIN of the
            # same boot epoch and counts it once (as the C client, firmware/src/bbrt_learn.c)
            if self.__dict__.get("_join_unanswered"):
                self._send_join(ctx)
            else:
                ctx.send_bytes(self.server, b"", protocol=self.server_protocol, edge=int(Msg.HEARTBEAT))
            self.last_sent = now

    def _send_join(self, ctx: Context) -> None:
        """The JOIN: this client's sample count (what a simulated sample-count liar claims instead) as int64.

        Whether it is still unanswered is kept outside the dataclass fields, so not snapshotted (old snapshots
        restore as they are): a client restored with ``joined`` set sends heartbeats, as it did before.
        """
        x, _ = ctx.binding("data").arrays()
        samples = len(x)
        attack = _opt(ctx, "attack")
        if attack is not None and hasattr(attack, "claim_samples"):  # simulated sample-count liar
            samples = int(attack.claim_samples(samples))
        ctx.send_array(self.server, np.array([samples], dtype=np.int64), protocol=self.server_protocol,
                       edge=int(Msg.JOIN))

    def _train_local(self, ctx: Context, start: np.ndarray, x: np.ndarray, y: np.ndarray, rnd: int,
                     model: ModelState) -> np.ndarray:
        """Train round `rnd` locally from `start` on (x, y): the seeded batch order, the kept optimizer state, the
        local model (unless pinned) and the LocalTrainingDone event; returns the trained vector. One place for
        every client that trains a round (FedAvg, SecAgg), so their updates stay the same for the same data."""
        rng = np.random.default_rng([self.seed, ctx.node_id, rnd])
        state = self.opt_state if self.keep_optimizer_state else None
        trained, st, loss, steps = local_train(ctx, self.train_key, self.program, start, x, y, epochs=self.epochs,
                                               batch_size=self.batch_size, rng=rng, steps=self.local_steps,
                                               state=state)
        self.opt_state = st
        self.rounds_trained += 1
        if not model.pinned:
            model.set(trained, rnd)
        ctx.emit(lev.LocalTrainingDone(self.strategy, rnd, loss, steps))
        return trained

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """MODEL (train and answer) and MODEL_FULL (take the current model)."""
        if peer != self.server:
            return
        model: ModelState = ctx.binding("model")
        if env.edge == Msg.MODEL_FULL:
            vec, _ = read_vector(env)
            if vec is not None and vec.dtype == np.float32 and vec.size == self.program.layout.size:
                self.__dict__["_join_unanswered"] = False  # the server knows this client: no more JOINs
                if not model.pinned:
                    model.set(vec.reshape(-1), env.request_id)
                if env.request_id > 0:
                    ctx.emit(lev.ModelFetched(self.strategy, peer, env.request_id))
            return
        if env.edge != Msg.MODEL:
            return
        vec, _ = read_vector(env, _opt(ctx, "codec"))
        if vec is None or vec.size != self.program.layout.size or not np.isfinite(vec).all():
            return
        self.__dict__["_join_unanswered"] = False
        start = vec.reshape(-1).astype(np.float32)
        x, y = ctx.binding("data").arrays()
        attack = _opt(ctx, "attack")
        if attack is not None:
            x, y = attack.poison(x, y)
        trained = self._train_local(ctx, start, x, y, env.request_id, model)
        delta = trained - start
        if attack is None:
            coll = _opt(ctx, "collusion")
            if coll is not None:  # omniscient simulation: honest updates are visible to the colluders
                coll.post(env.request_id, ctx.node_id, delta, honest=True)
        if attack is not None:
            coll = _opt(ctx, "collusion")
            if coll is not None:
                coll.post(env.request_id, ctx.node_id, delta)
                self.pending = (env.request_id, delta, ctx.now)
                self.on_tick(ctx.now, ctx)
                return
            self._send_update(ctx, env.request_id, delta, [delta])
            return
        self._send_update(ctx, env.request_id, delta, [])

    def _send_update(self, ctx: Context, rnd: int, own: np.ndarray, honest: list[np.ndarray]) -> None:
        self.pending = None
        attack = _opt(ctx, "attack")
        vec = attack.craft(own, honest or [own]) if attack is not None else own
        codec = _opt(ctx, "codec")
        vec = np.asarray(vec)
        if codec is not None and not np.isfinite(vec).all():
            codec = None  # a codec refuses non-finite values; send them raw so the server sees them
        send_vector(ctx, self.server, vec, protocol=self.server_protocol, msg=Msg.UPDATE, request_id=rnd,
                    codec=codec)
        self.last_sent = ctx.now


@dataclass
class DiLoCoServer(FedAvgServer):
    """DiLoCo outer loop: FedAvgServer whose aggregator is the outer optimizer (e.g. ``fedavgm``)."""

    type_id: ClassVar[str] = "learn.handler.diloco_server"

    strategy: str = "diloco"
    protocol_id: int = PROTO_DILOCO_SERVER
    client_protocol: int = PROTO_DILOCO_WORKER


@dataclass
class DiLoCoWorker(FedAvgClient):
    """DiLoCo inner loop: ``local_steps`` steps with the inner optimizer state kept across rounds."""

    type_id: ClassVar[str] = "learn.handler.diloco_worker"

    local_steps: int = 50
    keep_optimizer_state: bool = True
    strategy: str = "diloco"
    protocol_id: int = PROTO_DILOCO_WORKER
    server_protocol: int = PROTO_DILOCO_SERVER
