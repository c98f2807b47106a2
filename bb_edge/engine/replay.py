"""Replay: how a stateful stage's standby rebuilds a session's state from the stage's own inputs.

The other rebuild way of a deployment with standbys (deployment.json ``rebuild``: ``replay``; the default,
``replicate``, is bb_edge/engine/replication.py). Under replay the primary sends its standby nothing: the
node *upstream* of the stage (the one that sends the stage its session steps; for a first stage, the
session's owner, engine/host_session.py) keeps what it sent, per session, as a :class:`ReplayLog`; a
standby that rebuilt a session by replay logs what its replayed steps computed for the next stage (the
very bytes its primary sent), so a later failover further down can be replayed too. When that node
re-routes the stage to its standby, or back to the stage (RouteChanged), it sends the new target one
``CTRL_STATE_REPLAY`` control envelope per live session, then the session's newest step again as a normal
data envelope. The replay's payload is a sequence of length-prefixed envelopes (the
wire's own codec): every step but the newest, one envelope per tensor the stage receives (``edge`` = its
data edge id, ``seq`` = the step, ``request_id`` = the step's). The standby runs them through its program
from an empty state *in the steps the primary ran* (a language model: the prompt in one prefill, then one
run per decoded token, none of them sending anything) and so holds the very state the primary held, bit
for bit; the newest step then runs as a normal step. Why not all the rows in one prefill: ONNX Runtime's
attention and 4-bit MatMul round differently for one row than for many, so the rebuilt cache would differ
from the primary's, and the tokens may too (docs/llm.md "Failover").

The log is bounded per session (``replay_bytes``): a session whose kept inputs pass it, or whose log does
not start at step 0 (this node took the session over by replication, or was restarted from a state
without the log), cannot be replayed and is ended with a typed event at failover, never rebuilt from
partial inputs. The log is part of the node's engine
snapshot (``bb-edge node --state``, :meth:`ReplayLog.snapshot` / :meth:`ReplayLog.from_snapshot`), so a
node restarted upstream of a stage can still replay to its standby; a snapshot's log that is malformed or
passes the bound is a :class:`ReplaySnapshotError` and nothing of it is restored. Pure data and codec: no
clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bb_edge.engine.replication import pack_tensor, unpack_tensors
from bb_edge.errors import BBError, WireError

SessionKey = tuple[int, int]
Steps = list[tuple[int, int, dict[int, np.ndarray]]]
"""Kept steps of one session: (step, request id, tensors by edge id)."""


@dataclass
class Kept:
    """The inputs one session sent a stage so far: per step, its request id and its tensors by edge id."""

    steps: Steps = field(default_factory=list)
    nbytes: int = 0
    last_request: int = 0  # the newest step's request id: where the owner is told if the session ends
    #: why the session cannot be replayed any more (its inputs passed the bound), or None
    lost: str | None = None


class ReplaySnapshotError(BBError):
    """The replay log of a node state snapshot is malformed or passes the node's replay bound."""

    fix = "delete the state file (the node then starts in a new epoch) or pass the right --state FILE"


def _nonneg(v: object) -> bool:
    """True for a non-negative int that is not a bool (JSON has no other integers)."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


class ReplayLog:
    """What this node sent each stage with a standby, per session, bounded by ``max_bytes`` per session."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._kept: dict[tuple[str, SessionKey], Kept] = {}

    def record(self, stage: str, skey: SessionKey, step: int, request_id: int, edge: int,
               value: np.ndarray) -> None:
        """Keep ``value``, sent to ``stage`` on ``edge`` as step ``step`` of session ``skey``."""
        kept = self._kept.setdefault((stage, skey), Kept())
        kept.last_request = max(kept.last_request, request_id) if kept.steps else request_id
        if kept.lost is not None:
            return
        if kept.steps and (kept.steps[-1][0] > step or (kept.steps[-1][0] == step and edge in kept.steps[-1][2])):
            return  # a resend of a step: kept already
        if kept.steps and kept.steps[-1][0] == step:
            kept.steps[-1][2][edge] = value
        else:
            kept.steps.append((step, request_id, {edge: value}))
        kept.nbytes += int(value.nbytes)
        if kept.nbytes > self.max_bytes:
            kept.steps, kept.lost = [], (f"its inputs to {stage} passed the replay bound of {self.max_bytes} bytes "
                                         f"(the context) at step {step}")

    def sessions(self, stage: str) -> list[tuple[SessionKey, Kept]]:
        """Every session with inputs kept for ``stage``."""
        return [(k[1], v) for k, v in self._kept.items() if k[0] == stage]

    def forget(self, skey: SessionKey) -> None:
        """The session ended here: nothing of it is kept any more."""
        for k in [k for k in self._kept if k[1] == skey]:
            del self._kept[k]

    @property
    def nbytes(self) -> int:
        """Bytes kept for every session."""
        return sum(k.nbytes for k in self._kept.values())

    def snapshot(self, put: Callable[[np.ndarray], int]) -> list[dict[str, Any]]:
        """JSON-ready log for an engine snapshot; ``put`` stores a tensor and returns its index."""
        return [{"stage": stage, "owner": skey[0], "session": skey[1], "last_request": k.last_request,
                 "lost": k.lost, "steps": [[step, rid, {str(e): put(v) for e, v in values.items()}]
                                           for step, rid, values in k.steps]}
                for (stage, skey), k in self._kept.items()]

    @classmethod
    def from_snapshot(cls, max_bytes: int, entries: object, tensors: list[np.ndarray],
                      stages: Collection[str]) -> ReplayLog:
        """The log :meth:`snapshot` wrote (``tensors`` its stored tensors, ``stages`` the peers this node may
        send to); :class:`ReplaySnapshotError` if any of it is malformed, names an unknown stage, repeats a
        session, keeps steps out of order or more than ``max_bytes`` for one session. Builds a new log, so
        a refused snapshot leaves nothing half-restored."""
        log = cls(max_bytes)
        if not isinstance(entries, list):
            raise ReplaySnapshotError(f"replay log is {type(entries).__name__}, not a list")
        for i, e in enumerate(entries):
            where = f"replay log entry {i}"
            if not isinstance(e, dict) or set(e) != {"stage", "owner", "session", "last_request", "lost", "steps"}:
                raise ReplaySnapshotError(f"{where} is not a kept session record")
            stage, lost, steps = e["stage"], e["lost"], e["steps"]
            if not isinstance(stage, str) or stage not in stages:
                raise ReplaySnapshotError(f"{where}: stage {stage!r:.40} is not one this node sends to")
            if not (_nonneg(e["owner"]) and _nonneg(e["session"]) and _nonneg(e["last_request"])):
                raise ReplaySnapshotError(f"{where}: owner, session and last_request must be integers >= 0")
            if not (lost is None or isinstance(lost, str)) or not isinstance(steps, list) or (lost and steps):
                raise ReplaySnapshotError(f"{where}: 'lost' must be null or text (then no steps), 'steps' a list")
            key = (stage, (int(e["owner"]), int(e["session"])))
            if key in log._kept:
                raise ReplaySnapshotError(f"{where}: session {key[1]} to {stage} is logged twice")
            kept = Kept(last_request=int(e["last_request"]), lost=lost)
            for step_rec in steps:
                if not (isinstance(step_rec, list) and len(step_rec) == 3 and _nonneg(step_rec[0])
                        and _nonneg(step_rec[1]) and isinstance(step_rec[2], dict) and step_rec[2]):
                    raise ReplaySnapshotError(f"{where}: a step is not [step, request id, {{edge: tensor}}]")
                step, rid, refs = step_rec
                if kept.steps and step <= kept.steps[-1][0]:
                    raise ReplaySnapshotError(f"{where}: step {step} is not after step {kept.steps[-1][0]}")
                values: dict[int, np.ndarray] = {}
                for edge, idx in refs.items():
                    if not edge.isdigit() or not _nonneg(idx) or idx >= len(tensors):
                        raise ReplaySnapshotError(f"{where}: step {step} has edge {edge!r:.20} -> tensor {idx!r:.20}")
                    values[int(edge)] = tensors[idx]
                    kept.nbytes += int(tensors[idx].nbytes)
                if kept.nbytes > max_bytes:
                    raise ReplaySnapshotError(f"{where}: keeps more than the replay bound of {max_bytes} bytes")
                kept.steps.append((step, rid, values))
            log._kept[key] = kept
        return log


def replay_problem(steps: Steps, edges: set[int]) -> str | None:
    """Why ``steps`` cannot be replayed (not kept from step 0, a gap, an edge missing), or None."""
    if not steps or steps[0][0] != 0:
        return ("its inputs are not kept from step 0 (this node took the session over mid-way, or was restarted "
                "from a state without them)")
    if [s for s, _, _ in steps] != list(range(len(steps))):
        return "a step of its inputs is missing"
    if any(set(values) != edges for _, _, values in steps):
        return "a kept step lacks one of the stage's edges"
    return None


def encode_replay(steps: Steps, sender: int) -> bytes:
    """The payload of a CTRL_STATE_REPLAY: per step, one length-prefixed envelope per edge (``edge`` = the
    edge id, ``seq`` = the step, ``request_id`` = the step's request id)."""
    return b"".join(pack_tensor(values[edge], sender, step, edge, request_id=rid)
                    for step, rid, values in steps for edge in sorted(values))


def decode_replay(payload: bytes, edges: set[int], max_bytes: int) -> Steps | str:
    """The replayed steps (0, 1, ... in order, each with every one of ``edges``), or why they are refused."""
    steps: Steps = []
    try:
        envs = unpack_tensors(payload, max_bytes)
        if isinstance(envs, str):
            return envs
        for env in envs:
            if env.edge not in edges:
                return f"edge {env.edge} is not one this stage receives ({sorted(edges)})"
            if not steps or steps[-1][0] != env.seq:
                steps.append((env.seq, env.request_id, {}))
            step, rid, values = steps[-1]
            if env.edge in values or env.request_id != rid:
                return f"step {step}: edge {env.edge} repeated, or two request ids"
            values[env.edge] = np.array(env.array())
    except (WireError, ValueError) as exc:
        return f"malformed replay: {exc}"
    return replay_problem(steps, edges) or steps
