"""What every strategy shares: protocol ids, message codes, the model binding, local training.

Message layout (all strategies, one wire): protocol id = the *receiving*
role (table below), ``edge`` = the message code (:class:`Msg`),
``request_id`` = the round (gossip: the sender's model age; split: the
step). A model or update is one float32 vector envelope of the
:class:`~bb_edge.training.ParamLayout` size, or, when a ``codec`` is
bound, the codec's bytes as one UINT8 envelope. Everything else is small:
``JOIN`` carries ``int64 [samples]``, ``HEARTBEAT`` and ``FETCH`` are empty.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from bb_edge.engine.context import Context
from bb_edge.learn.roles import Component, ConfigError, pack_state, register, unpack_state
from bb_edge.wire.envelope import Envelope

if TYPE_CHECKING:  # programs are built by the build wing (bb_edge.training) and handed in
    from bb_edge.training.program import TrainingProgram

__all__ = [
    "PROTO_FEDAVG_SERVER", "PROTO_FEDAVG_CLIENT", "PROTO_GOSSIP", "PROTO_SPLIT_SERVER",
    "PROTO_SPLIT_CLIENT", "PROTO_PUSHSUM", "PROTO_DILOCO_SERVER", "PROTO_DILOCO_WORKER",
    "Msg", "ModelState", "HandlerState", "install_handler", "handler_binding", "CtxSession", "send_vector",
    "read_vector", "run_step", "local_train",
]

PROTO_FEDAVG_SERVER = 16
PROTO_FEDAVG_CLIENT = 17
PROTO_GOSSIP = 18
PROTO_SPLIT_SERVER = 19
PROTO_SPLIT_CLIENT = 20
PROTO_PUSHSUM = 21
PROTO_DILOCO_SERVER = 22
PROTO_DILOCO_WORKER = 23

UINT8 = 2
FLOAT = 1


class Msg(enum.IntEnum):
    """Message codes carried in the envelope's ``edge`` field."""

    JOIN = 1  # client -> server: int64 [samples]; answered by MODEL_FULL
    MODEL = 2  # server -> cohort: global model of round request_id (vector or codec bytes)
    UPDATE = 3  # client -> server: delta of round request_id (vector or codec bytes)
    HEARTBEAT = 4  # any -> server: empty; feeds the phi-accrual detector
    FETCH = 5  # late joiner -> peer: empty; answered by MODEL_FULL
    MODEL_FULL = 6  # float32 current model (request_id = round or age)
    ACTIVATIONS = 7  # split client -> server: float32 [B, cut] (request_id = step)
    LABELS = 8  # split client -> server: int64 [B] (request_id = step)
    GRADIENTS = 9  # split server -> client: float32 [B, cut] (request_id = step)
    CLIENT_MODEL = 10  # SplitFed: client half up / averaged client half down (request_id = round)
    GOSSIP = 11  # gossip: model, request_id = age
    PUSH = 12  # push-sum: float32 [s..., w]
    # secure aggregation (bb_edge/strategies/secagg.py): UINT8 messages, request_id = round
    SA_KEY = 13  # client -> server: its DH public key of the round
    SA_ROSTER = 14  # server -> participants: every participant's key
    SA_SHARES = 15  # client -> server: sealed shares per holder; server -> holder: the ones it holds + weight
    SA_UNMASK = 16  # server -> survivors: the ids that dropped after sharing
    SA_REVEAL = 17  # survivor -> server: its shares of the dropped clients' secrets


@register
@dataclass
class ModelState(Component):
    """A node's model binding: the flat parameter vector, its round and (gossip) age.

    ``pinned`` is set by a server target: a client target installed on the
    same node then trains on copies and leaves the binding to the server.
    """

    type_id: ClassVar[str] = "learn.model"
    vector: np.ndarray | None = field(default=None, init=False)
    round: int = field(default=0, init=False)
    age: float = field(default=0.0, init=False)
    pinned: bool = field(default=False, init=False)

    def set(self, vec: np.ndarray, round: int | None = None) -> None:
        """Replace the vector (copied, float32) and optionally the round."""
        self.vector = np.array(vec, dtype=np.float32)
        if round is not None:
            self.round = int(round)


def _encode(value: Any, arrays: dict[str, np.ndarray]) -> Any:
    """JSON-able form of a handler field; arrays go to ``arrays`` (tagged containers keep their types)."""
    if isinstance(value, np.ndarray):
        key = f"a{len(arrays)}"
        arrays[key] = value
        return {"$a": key}
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, bytes):  # e.g. secure aggregation's masked updates and share boxes
        return {"$b": value.hex()}
    if isinstance(value, set | frozenset):
        return {"$set": [_encode(v, arrays) for v in sorted(value)]}
    if isinstance(value, tuple):
        return {"$tuple": [_encode(v, arrays) for v in value]}
    if isinstance(value, list):
        return [_encode(v, arrays) for v in value]
    if isinstance(value, dict):  # insertion order kept: iteration order can change float sums
        return {"$dict": [[_encode(k, arrays), _encode(v, arrays)] for k, v in value.items()]}
    raise ConfigError(f"handler state of type {type(value).__name__} cannot be snapshotted")


def _decode(value: Any, arrays: Mapping[str, np.ndarray]) -> Any:
    """Inverse of :func:`_encode`."""
    if isinstance(value, list):
        return [_decode(v, arrays) for v in value]
    if isinstance(value, dict):
        if "$a" in value:
            return np.array(arrays[value["$a"]])
        if "$b" in value:
            return bytes.fromhex(value["$b"])
        if "$set" in value:
            return {_decode(v, arrays) for v in value["$set"]}
        if "$tuple" in value:
            return tuple(_decode(v, arrays) for v in value["$tuple"])
        if "$dict" in value:
            return {_hashable(_decode(k, arrays)): _decode(v, arrays) for k, v in value["$dict"]}
    return value


def _hashable(key: Any) -> Any:
    return tuple(_hashable(k) for k in key) if isinstance(key, list | tuple) else key


class HandlerState(Component):
    """Mixin making a protocol handler (a dataclass) a snapshot-able :class:`Component`.

    A handler's ``init=True`` fields are how the strategy module built it
    (programs, peer names, periods): a restored node is built the same way, so
    they are not in the snapshot. Its ``init=False`` fields (round
    bookkeeping, received updates, optimizer state, push-sum ``s``/``w``,
    ...) are: numpy arrays, scalars, bytes, and lists, tuples, sets and dicts
    of them (dict insertion order is kept). :func:`install_handler` registers
    the handler *and* binds it as ``protocol.<id>``, so
    :meth:`bb_edge.engine.Engine.snapshot` includes it like any bound
    component. Handler classes are not in the component registry (they
    cannot be built from JSON alone).
    """

    type_id: ClassVar[str] = "learn.handler"

    def get_config(self) -> dict[str, Any]:
        """Nothing: a handler's construction arguments are not JSON (programs); the node is rebuilt."""
        return {}

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """Every ``init=False`` field, encoded."""
        arrays: dict[str, np.ndarray] = {}
        meta = {f.name: _encode(getattr(self, f.name), arrays)
                for f in dataclasses.fields(self) if not f.init}  # type: ignore[arg-type]
        return meta, arrays

    def set_state(self, meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
        """Restore the ``init=False`` fields."""
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if not f.init:
                if f.name not in meta:
                    raise ConfigError(f"{self.type_id} snapshot has no field {f.name!r}")
                setattr(self, f.name, _decode(meta[f.name], arrays))

    def snapshot(self) -> bytes:
        """State as bytes (``BBC1``, ``type_id`` included, no config)."""
        meta, arrays = self.get_state()
        return pack_state({"type_id": self.type_id, "state": meta}, arrays)

    def restore(self, data: bytes) -> None:
        """Replace the state with :meth:`snapshot` bytes of the same ``type_id``."""
        meta, arrays = unpack_state(data)
        if meta.get("type_id") != self.type_id:
            raise ConfigError(f"snapshot is of {meta.get('type_id')!r}, not {self.type_id!r}")
        self.set_state(meta["state"], arrays)


def handler_binding(protocol_id: int) -> str:
    """The binding name under which a handler of ``protocol_id`` is snapshotted."""
    return f"protocol.{protocol_id}"


def install_handler(engine: Any, handler: Any) -> None:
    """Register ``handler`` on ``engine`` and bind it as ``protocol.<id>`` (so snapshots include its state)."""
    engine.register_protocol(handler)
    engine.bind(handler_binding(handler.protocol_id), handler)


class CtxSession:
    """A session-like view (``run(names, feeds)``) of a program prepared on the engine (``ctx.compute``)."""

    def __init__(self, ctx: Context, key: str) -> None:
        self.ctx, self.key = ctx, key

    def run(self, output_names: Any, feeds: Any, /) -> Any:
        """Run the shared prepared program; outputs in the order of ``output_names``."""
        out = self.ctx.compute(self.key, dict(feeds))
        return [out[n] for n in output_names]


def send_vector(ctx: Context, peer: str, vec: np.ndarray, *, protocol: int, msg: Msg, request_id: int,
                codec: Any = None) -> None:
    """Send a model/update: codec bytes (UINT8) when a codec is given, else one float32 vector."""
    if codec is not None:
        ctx.send_bytes(peer, codec.encode(vec), protocol=protocol, edge=int(msg), request_id=request_id)
    else:
        ctx.send_array(peer, np.ascontiguousarray(vec, dtype=np.float32), protocol=protocol,
                       edge=int(msg), request_id=request_id)


def read_vector(env: Envelope, codec: Any = None) -> tuple[np.ndarray | None, str]:
    """The vector an envelope carries (codec bytes or a tensor) or ``(None, why)`` if undecodable."""
    if env.dtype == UINT8 and len(env.dims) == 1 and codec is not None:
        try:
            return np.asarray(codec.decode(env.payload_bytes())), ""
        except Exception as exc:  # any codec complaint means the update is unusable
            return None, f"codec {getattr(codec, 'type_id', '?')} could not decode: {exc}"
    try:
        return np.array(env.array()), ""
    except Exception as exc:
        return None, f"payload is not a tensor: {exc}"


def run_step(ctx: Context, key: str, program: TrainingProgram, data: Mapping[str, np.ndarray],
             params: Mapping[str, np.ndarray], state: Mapping[str, np.ndarray],
             extra_outputs: tuple[str, ...] = ()) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray],
                                                           dict[str, np.ndarray]]:
    """One training step of ``program`` on the engine: returns (new params, new state, extra outputs)."""
    feeds: dict[str, np.ndarray] = dict(data)
    feeds.update(params)
    feeds.update({"opt/" + k: v for k, v in state.items()})
    out = ctx.compute(key, feeds)
    new_p = {s.name: np.asarray(out["next/" + s.name]) for s in program.params}
    new_s = {s.name[len("opt/"):]: np.asarray(out["next/" + s.name]) for s in program.state}
    return new_p, new_s, {k: np.asarray(out[k]) for k in extra_outputs}


def local_train(ctx: Context, key: str, program: TrainingProgram, start: np.ndarray, x: np.ndarray,
                y: np.ndarray, *, epochs: int, batch_size: int, rng: np.random.Generator, steps: int = 0,
                state: dict[str, np.ndarray] | None = None) -> tuple[np.ndarray, dict[str, np.ndarray], float, int]:
    """Train from ``start`` on ``(x, y)``: ``steps`` mini-batches if > 0, else ``epochs`` passes.

    Returns (final vector, optimizer state, mean loss, steps run). A ``local_train_memo`` binding
    (set by a simulator that ran this exact training elsewhere, e.g. bb_edge/adapters/learn/ray_cluster.py) may
    answer instead; it answers only when the start vector, data, settings and seeded generator match.
    """
    try:
        memo = ctx.binding("local_train_memo")
    except KeyError:
        memo = None
    if memo is not None:
        hit = memo.take(ctx.node_id, start, x, y, epochs=epochs, batch_size=batch_size, rng=rng, steps=steps,
                        state=state)
        if hit is not None:
            return tuple(hit)  # type: ignore[return-value]
    layout = program.layout
    params = layout.unflatten(start)
    st = dict(state) if state is not None else program.initial_state()
    losses: list[float] = []
    data_name = program.data_inputs[0].name
    label_dtype = program.labels.dtype if program.labels is not None else "int64"

    def batches() -> Any:
        while True:
            order = rng.permutation(len(x))
            for i in range(0, len(x), batch_size):
                yield order[i:i + batch_size]

    total = steps if steps > 0 else epochs * -(-len(x) // batch_size)
    it = batches()
    for _ in range(total if len(x) else 0):
        idx = next(it)
        params, st, extra = run_step(ctx, key, program, {data_name: x[idx], "labels": y[idx].astype(label_dtype)},
                                     params, st, ("loss",))
        losses.append(float(extra["loss"]))
    return layout.flatten(params), st, float(np.mean(losses)) if losses else float("nan"), len(losses)
