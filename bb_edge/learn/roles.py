"""Roles of federated/decentralised learning, and the Component base with its registry.

A *role* is a typing.Protocol (:class:`Aggregator`, :class:`PreAggregator`,
:class:`Attack`, :class:`PeerSelector`, :class:`Codec`, :class:`DataSource`);
a strategy (FedAvg, gossip, split learning ...) is written against the roles
only. A *component* is a concrete implementation of a role: a dataclass whose
init fields are its JSON-able configuration, with a stable ``type_id`` and its
whole state as bytes (:meth:`Component.snapshot` / :meth:`Component.restore`),
so a node can checkpoint it or ship it over the wire as one UINT8 envelope.

Conventions shared by all components:

* model updates are flat float32 vectors in the layout of
  :class:`bb_edge.learn.autodiff.ParamLayout`;
* an *update* is a delta (client model minus the model it started from); an
  aggregator returns the delta to add to the global model. All robust rules
  here are translation-equivariant, so they can be applied to models too;
* randomness comes from ``numpy.random.default_rng([seed, counter])`` with the
  counter in the component's state: replaying a snapshot replays the draws;
* time is always an argument (seconds as float); nothing reads a clock.
"""

from __future__ import annotations

import dataclasses
import json
import struct
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

import numpy as np

from bb_edge.errors import BBError

__all__ = [
    "LearnError",
    "ConfigError",
    "RobustnessBoundError",
    "Component",
    "REGISTRY",
    "register",
    "create",
    "load_builtin_components",
    "from_snapshot",
    "pack_state",
    "unpack_state",
    "Aggregator",
    "PreAggregator",
    "Attack",
    "PeerSelector",
    "Codec",
    "DataSource",
    "as_matrix",
    "normalize_weights",
]


class LearnError(BBError):
    """Base of the typed errors raised by :mod:`bb_edge.learn` components."""

    fix = 'see docs/learning.md for the learning options'


class ConfigError(LearnError, ValueError):
    """A component was configured or called with inconsistent arguments."""


class RobustnessBoundError(LearnError, ValueError):
    """A robust rule's bound on Byzantine nodes does not hold (e.g. Bulyan needs n >= 4f+3)."""

    def __init__(self, rule: str, n: int, f: int, need: str) -> None:
        super().__init__(f"{rule} with f={f} needs {need}; got n={n} updates")
        self.rule, self.n, self.f, self.need = rule, n, f, need


# ---------------------------------------------------------------------------
# state serialisation: b"BBC1" | u32 header length | JSON header | raw arrays
# ---------------------------------------------------------------------------

_MAGIC = b"BBC1"


def pack_state(meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> bytes:
    """Serialise JSON-able ``meta`` plus named arrays into deterministic bytes (no pickle)."""
    manifest = []
    blobs = []
    off = 0
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        if a.dtype.byteorder == ">":
            a = a.astype(a.dtype.newbyteorder("<"))
        raw = a.tobytes()
        manifest.append([name, a.dtype.str, list(a.shape), off, len(raw)])
        blobs.append(raw)
        off += len(raw)
    header = json.dumps({"meta": meta, "arrays": manifest}, sort_keys=True, separators=(",", ":")).encode()
    return _MAGIC + struct.pack("<I", len(header)) + header + b"".join(blobs)


def unpack_state(data: bytes) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Inverse of :func:`pack_state`; raises :class:`ConfigError` on malformed bytes."""
    mv = memoryview(data)
    if len(mv) < 8 or bytes(mv[:4]) != _MAGIC:
        raise ConfigError("not a component snapshot (bad magic)")
    (hlen,) = struct.unpack_from("<I", mv, 4)
    if 8 + hlen > len(mv):
        raise ConfigError("truncated component snapshot header")
    try:
        header = json.loads(bytes(mv[8:8 + hlen]))
    except ValueError as exc:
        raise ConfigError(f"bad component snapshot header: {exc}") from exc
    base = 8 + hlen
    arrays: dict[str, np.ndarray] = {}
    for name, dt, shape, off, n in header["arrays"]:
        dtype = np.dtype(dt)
        if dtype.hasobject or base + off + n > len(mv):
            raise ConfigError(f"bad array {name!r} in component snapshot")
        arrays[name] = np.frombuffer(mv[base + off:base + off + n], dtype=dtype).reshape(shape).copy()
    return header["meta"], arrays


# ---------------------------------------------------------------------------
# Component base and registry
# ---------------------------------------------------------------------------

REGISTRY: dict[str, type[Component]] = {}
C = TypeVar("C", bound="type[Component]")


def register(cls: C) -> C:
    """Class decorator: add a component class to :data:`REGISTRY` under its ``type_id``."""
    tid = cls.type_id
    if tid in REGISTRY and REGISTRY[tid] is not cls:
        raise ConfigError(f"type_id {tid!r} is already registered by {REGISTRY[tid].__qualname__}")
    REGISTRY[tid] = cls
    return cls


def _encode_config(value: Any) -> Any:
    if isinstance(value, Component):
        return {"$component": value.type_id, "config": value.get_config()}
    if isinstance(value, list | tuple):
        return [_encode_config(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode_config(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    return value


def _decode_config(value: Any) -> Any:
    if isinstance(value, dict) and "$component" in value:
        return create(value["$component"], **{k: _decode_config(v) for k, v in value["config"].items()})
    if isinstance(value, list):
        return [_decode_config(v) for v in value]
    if isinstance(value, dict):
        return {k: _decode_config(v) for k, v in value.items()}
    return value


class Component:
    """Base of every component: stable ``type_id``, JSON config, state as bytes.

    It is a :class:`bb_edge.roles.Snapshottable`, so an engine snapshot keeps it when bound.
    Subclasses are dataclasses; their ``init=True`` fields are the config,
    ``init=False`` fields are state. Override :meth:`get_state` /
    :meth:`set_state` when the state is not just those fields.
    """

    type_id: ClassVar[str] = "component"

    def get_config(self) -> dict[str, Any]:
        """Constructor arguments (JSON-able; nested components are encoded)."""
        if not dataclasses.is_dataclass(self):
            return {}
        return {f.name: _encode_config(getattr(self, f.name)) for f in dataclasses.fields(self) if f.init}

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """Mutable state as (JSON-able scalars, named arrays); default: ``init=False`` fields."""
        meta: dict[str, Any] = {}
        arrays: dict[str, np.ndarray] = {}
        if dataclasses.is_dataclass(self):
            for f in dataclasses.fields(self):
                if f.init:
                    continue
                v = getattr(self, f.name)
                if isinstance(v, np.ndarray):
                    arrays[f.name] = v
                elif v is None or isinstance(v, int | float | str | bool | list | dict):
                    meta[f.name] = v
                else:
                    raise ConfigError(f"{type(self).__name__}.{f.name}: override get_state for {type(v)}")
        return meta, arrays

    def set_state(self, meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
        """Restore what :meth:`get_state` returned."""
        for k, v in meta.items():
            setattr(self, k, v)
        for k, a in arrays.items():
            setattr(self, k, a)
        if dataclasses.is_dataclass(self):
            for f in dataclasses.fields(self):
                if not f.init and f.name not in meta and f.name not in arrays:
                    has_factory = f.default_factory is not dataclasses.MISSING
                    default = f.default_factory() if has_factory else f.default
                    setattr(self, f.name, default)

    def snapshot(self) -> bytes:
        """Config and state as bytes (``type_id`` included)."""
        meta, arrays = self.get_state()
        return pack_state({"type_id": self.type_id, "config": self.get_config(), "state": meta}, arrays)

    def restore(self, data: bytes) -> None:
        """Restore config and state from :meth:`snapshot` bytes of the same ``type_id``."""
        meta, arrays = unpack_state(data)
        if meta.get("type_id") != self.type_id:
            raise ConfigError(f"snapshot is of {meta.get('type_id')!r}, not {self.type_id!r}")
        fresh = create(self.type_id, **{k: _decode_config(v) for k, v in meta["config"].items()})
        self.__dict__.update(fresh.__dict__)
        self.set_state(meta["state"], arrays)


BUILTIN_MODULES = ("aggregators", "attacks", "peers", "codecs", "data", "liveness")


def load_builtin_components() -> None:
    """Import the built-in component modules so that their classes are registered."""
    import importlib

    for mod in BUILTIN_MODULES:
        importlib.import_module(f"bb_edge.learn.{mod}")


def create(type_id: str, **config: Any) -> Component:
    """Instantiate a registered component from its ``type_id`` and config."""
    if type_id not in REGISTRY:
        load_builtin_components()
    if type_id not in REGISTRY:
        raise ConfigError(f"unknown component type_id {type_id!r}; known: {sorted(REGISTRY)}")
    return REGISTRY[type_id](**{k: _decode_config(v) for k, v in config.items()})


def from_snapshot(data: bytes) -> Component:
    """Rebuild any registered component (config and state) from snapshot bytes."""
    meta, _ = unpack_state(data)
    comp = create(str(meta.get("type_id")), **meta.get("config", {}))
    comp.restore(data)
    return comp


# ---------------------------------------------------------------------------
# Roles
# ---------------------------------------------------------------------------


@runtime_checkable
class Aggregator(Protocol):
    """Combines n update vectors into one (the delta added to the global model)."""

    type_id: ClassVar[str]

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Aggregate ``updates`` (each shape ``(d,)``); ``weights`` e.g. sample counts."""
        ...

    def snapshot(self) -> bytes:
        """Config and state (server-optimizer moments, centers) as bytes."""
        ...

    def restore(self, data: bytes) -> None:
        """Restore from :meth:`snapshot` bytes."""
        ...


@runtime_checkable
class PreAggregator(Protocol):
    """Transforms the update list before an aggregator (bucketing, clipping, NNM)."""

    type_id: ClassVar[str]

    def transform(
        self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None
    ) -> tuple[list[np.ndarray], list[float]]:
        """Return the transformed updates and their weights."""
        ...


@runtime_checkable
class Attack(Protocol):
    """What a simulated malicious node binds: poisons its data and/or crafts its update."""

    type_id: ClassVar[str]

    def poison(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Data poisoning before local training (identity for model attacks)."""
        ...

    def craft(self, own: np.ndarray, honest: Sequence[np.ndarray]) -> np.ndarray:
        """The update to send, given the node's own honest update and (omniscient) honest ones."""
        ...


@runtime_checkable
class PeerSelector(Protocol):
    """Who talks to whom, per round; sharing modes and blocks can change while running."""

    type_id: ClassVar[str]

    def send_targets(self, node: int, round: int) -> list[int]:
        """Peers ``node`` sends its model/update to in ``round``."""
        ...

    def accepts(self, node: int, sender: int, round: int) -> bool:
        """Whether ``node`` takes an update from ``sender`` in ``round``."""
        ...

    def refusal(self, node: int, sender: int) -> str | None:
        """Why ``node`` refuses anything from ``sender`` (``"blocked"``, ``"sharing_mode"``,
        ``"unknown_peer"``), or ``None``: the receiver-side check, independent of the round."""
        ...


@runtime_checkable
class Codec(Protocol):
    """Encodes an update vector to bytes for one UINT8 envelope, and back."""

    type_id: ClassVar[str]

    def encode(self, vec: np.ndarray) -> bytes:
        """Encode a float32 vector (may update codec state, e.g. error feedback)."""
        ...

    def decode(self, data: bytes) -> np.ndarray:
        """Decode bytes produced by :meth:`encode` to a float32 vector."""
        ...


@runtime_checkable
class DataSource(Protocol):
    """A labelled data set held by one node (or the whole pool before partitioning)."""

    type_id: ClassVar[str]

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Features ``x`` (float32) and integer labels ``y``."""
        ...


# ---------------------------------------------------------------------------
# helpers shared by the component modules
# ---------------------------------------------------------------------------


def as_matrix(updates: Sequence[np.ndarray]) -> np.ndarray:
    """Stack update vectors to an ``(n, d)`` float array; rejects empty/ragged input."""
    if len(updates) == 0:
        raise ConfigError("no updates to aggregate")
    first = np.asarray(updates[0])
    if first.ndim != 1:
        raise ConfigError(f"updates must be 1-D vectors, got shape {first.shape}")
    for u in updates:
        if np.shape(u) != first.shape:
            raise ConfigError(f"updates have different shapes: {first.shape} vs {np.shape(u)}")
    mat = np.stack([np.asarray(u) for u in updates])
    if not np.issubdtype(mat.dtype, np.floating):
        mat = mat.astype(np.float32)
    return mat


def normalize_weights(weights: Sequence[float] | None, n: int) -> np.ndarray:
    """Weights as a float64 vector summing to 1 (uniform when ``None``)."""
    if weights is None:
        return np.full(n, 1.0 / n)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (n,):
        raise ConfigError(f"{w.shape[0] if w.ndim else 0} weights for {n} updates")
    if (w < 0).any() or not np.isfinite(w).all() or w.sum() <= 0:
        raise ConfigError("weights must be finite, non-negative and not all zero")
    return w / w.sum()
