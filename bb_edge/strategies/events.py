"""Typed events of the learning strategies (emitted through ``ctx.emit``).

App events report progress (rounds, fetched models, finished training);
infra events report something refused or given up (rejected updates, aborted
rounds, suspected peers). Node/peer ids are wire ids, rounds are ints.
"""

from __future__ import annotations

from dataclasses import dataclass

from bb_edge.engine.events import AppEvent, InfraEvent, NodeEvent

__all__ = [
    "RoundStarted", "RoundReasked", "RoundCompleted", "RoundAborted", "UpdateRejected", "ModelFetched",
    "PeerJoined", "PeerSuspected", "LocalTrainingDone", "ModelMerged", "TrainingFinished",
    "SecAggRecovered", "SecAggWithheld",
]


@dataclass(frozen=True)
class RoundStarted(AppEvent):
    """A server opened round ``round`` with ``cohort`` clients; updates are due by ``deadline``."""

    strategy: str
    round: int
    cohort: int
    deadline: float


@dataclass(frozen=True)
class RoundReasked(AppEvent):
    """A server sent round ``round``'s MODEL again to ``clients`` cohort clients that had not answered."""

    strategy: str
    round: int
    clients: int


@dataclass(frozen=True)
class RoundCompleted(AppEvent):
    """A round was aggregated from ``accepted`` of ``cohort`` updates (``partial`` if fewer)."""

    strategy: str
    round: int
    accepted: int
    cohort: int
    partial: bool


@dataclass(frozen=True)
class RoundAborted(InfraEvent):
    """A round ended without an aggregate: too few clients (``got`` < ``minimum``) or a failed rule."""

    strategy: str
    round: int
    got: int
    minimum: int
    reason: str


@dataclass(frozen=True)
class UpdateRejected(InfraEvent):
    """An update from ``sender`` was refused (``reason`` is a ``RejectReason`` value) and never aggregated."""

    strategy: str
    sender: int
    round: int
    reason: str
    detail: str


@dataclass(frozen=True)
class ModelFetched(AppEvent):
    """A (late-joining) node took the current model from ``peer`` before training."""

    strategy: str
    peer: str
    round: int


@dataclass(frozen=True)
class PeerJoined(AppEvent):
    """A server registered client ``peer`` holding ``samples`` examples."""

    strategy: str
    peer: int
    samples: int


@dataclass(frozen=True)
class SampleCountClamped(InfraEvent):
    """A client claimed more samples than its cap; the server weighs it by the cap instead."""

    strategy: str
    peer: int
    claimed: int
    cap: int


@dataclass(frozen=True)
class PeerSuspected(NodeEvent):
    """The phi-accrual detector suspects ``peer`` (phi >= threshold); it leaves the cohorts."""

    strategy: str
    peer: int
    phi: float


@dataclass(frozen=True)
class LocalTrainingDone(AppEvent):
    """A node finished local training for ``round`` (mean loss over its steps)."""

    strategy: str
    round: int
    loss: float
    steps: int


@dataclass(frozen=True)
class ModelMerged(AppEvent):
    """A decentralised node merged a model from ``peer`` (gossip: ages, push-sum: weights)."""

    strategy: str
    peer: str
    age: float


@dataclass(frozen=True)
class TrainingFinished(AppEvent):
    """This node's part of the run is over (all rounds or epochs done)."""

    strategy: str
    rounds: int


@dataclass(frozen=True)
class SecAggRecovered(AppEvent):
    """Secure aggregation removed the masks of ``dropped`` clients with the shares of ``survivors``."""

    strategy: str
    round: int
    dropped: int
    survivors: int


@dataclass(frozen=True)
class SecAggWithheld(InfraEvent):
    """Fault injection (``secagg.withhold``): this client shared its secret and withholds its masked update."""

    strategy: str
    round: int
