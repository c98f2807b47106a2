"""State deltas: how a stateful stage's primary keeps its standbys' copies of every session current.

After each committed step the node serving a stage sends each other member of its stage group (the stage
and its standbys, deployment.json ``standby``) one ``CTRL_STATE_DELTA`` control envelope (flag SESSION: the
session id and the step it completes). Its payload is a sequence of length-prefixed envelopes (the wire's own
codec, so every inner tensor is decoded with the usual limits):

- one per state tensor, ``edge`` = the tensor's index among the program's state inputs (sorted by name):
  ``seq`` 0 replaces the tensor whole; ``seq`` = axis + 1 appends the payload along that axis at
  ``request_id`` = the length already held there (a KV cache grows by the new tokens' rows only);
- one per tensor the step sent on (``edge`` = ``OUTPUT_BASE`` + its index among the program's sends, then
  its graph outputs), so that a standby that takes over can answer the step's retry with the very bytes
  the primary sent, even if the primary died between its delta and its outputs.

The primary queues the delta before the step's outputs on the same link, so a standby never lags behind what
the next stage has seen. A *full* delta (every tensor whole, ``seq`` 0) brings a member that was down, or
restarted from an older snapshot, up to date in one message.

A receiver applies a delta only when all of it checks out: the sender is a member of its stage group, the
step is the session's next (a replayed or skipping delta is refused), an append continues exactly where the
held tensor ends, shapes and dtypes match the program's state. Otherwise nothing changes (a typed event).
Pure functions: no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bb_edge.engine.sessions import StateSpec
from bb_edge.errors import WireError
from bb_edge.wire import envelope as wire
from bb_edge.wire.framing import StreamDecoder, length_prefix

#: inner ``edge`` of the step's sent tensors: OUTPUT_BASE + index among (sends, then graph outputs)
OUTPUT_BASE = 1 << 16


def pack_tensor(value: np.ndarray, sender: int, seq: int, edge: int, request_id: int = 0) -> bytes:
    """One tensor as a length-prefixed envelope: the inner codec of STATE_DELTA and STATE_REPLAY payloads."""
    arr = np.ascontiguousarray(value)
    env = wire.Envelope.for_array(arr, sender=sender, receiver=sender, seq=seq, edge=edge, request_id=request_id)
    return length_prefix(wire.encode(env, max_payload=max(arr.nbytes, 1)))


def unpack_tensors(payload: bytes, max_bytes: int) -> list[wire.Envelope] | str:
    """The inner envelopes of a packed payload, each decoded within ``max_bytes``, or why the payload is not
    one; a malformed inner envelope raises WireError or ValueError."""
    envs = StreamDecoder(max_envelope=max_bytes).feed(payload)
    if sum(len(e) + 4 for e in envs) != len(payload):
        return "trailing bytes after the last tensor"
    return [wire.decode(raw, max_payload=max_bytes) for raw in envs]


@dataclass
class Delta:
    """A decoded, not yet applied, state delta: tensors by state index, and the step's outputs."""

    replace: dict[int, np.ndarray]
    append: dict[int, tuple[int, int, np.ndarray]]  # index -> (axis, offset, rows)
    outputs: dict[int, np.ndarray]

    @property
    def full(self) -> bool:
        """Every state tensor is given whole (a catch-up): it may start a session at any step."""
        return not self.append


def grown_axis(old: np.ndarray, new: np.ndarray) -> int | None:
    """The one axis along which ``new`` extends ``old`` (same dtype, ``old`` a prefix), else None."""
    if old.dtype != new.dtype or old.ndim != new.ndim:
        return None
    axes = [a for a in range(new.ndim) if old.shape[a] != new.shape[a]]
    if len(axes) != 1 or new.shape[axes[0]] < old.shape[axes[0]]:
        return None
    ax = axes[0]
    head = new[tuple(slice(0, old.shape[ax]) if a == ax else slice(None) for a in range(new.ndim))]
    return ax if np.array_equal(head, old) else None


def encode_delta(specs: list[StateSpec], old: dict[str, np.ndarray], new: dict[str, np.ndarray],
                 outputs: list[np.ndarray], sender: int, full: bool = False) -> bytes:
    """The payload of a CTRL_STATE_DELTA: appends where ``new`` extends ``old``, whole tensors elsewhere."""
    parts = []
    for i, spec in enumerate(specs):
        value = np.ascontiguousarray(new[spec.output])
        before = old.get(spec.input)
        ax = None if full or before is None else grown_axis(before, value)
        if ax is None:
            parts.append(pack_tensor(value, sender, 0, i))
        else:
            assert before is not None
            rows = value[tuple(slice(before.shape[ax], None) if a == ax else slice(None) for a in range(value.ndim))]
            parts.append(pack_tensor(rows, sender, ax + 1, i, request_id=int(before.shape[ax])))
    parts.extend(pack_tensor(value, sender, 0, OUTPUT_BASE + j) for j, value in enumerate(outputs))
    return b"".join(parts)


def decode_delta(payload: bytes, specs: list[StateSpec], n_outputs: int, max_bytes: int) -> Delta | str:
    """The delta in ``payload``, or why it is refused (a malformed or out-of-contract inner envelope)."""
    out = Delta({}, {}, {})
    try:
        envs = unpack_tensors(payload, max_bytes)
        if isinstance(envs, str):
            return envs
        for env in envs:
            arr = np.array(env.array())
            if env.edge >= OUTPUT_BASE:
                j = env.edge - OUTPUT_BASE
                if not 0 <= j < n_outputs or j in out.outputs:
                    return f"output index {j} is not one of the step's {n_outputs} outputs, or repeated"
                out.outputs[j] = arr
                continue
            if not 0 <= env.edge < len(specs) or env.edge in out.replace or env.edge in out.append:
                return f"state index {env.edge} is not one of {len(specs)} state tensors, or repeated"
            spec = specs[env.edge]
            if arr.dtype != spec.initial().dtype or arr.ndim != len(spec.shape):
                return f"state {spec.input!r}: {arr.dtype} rank {arr.ndim} is not the program's"
            if env.seq == 0:
                out.replace[env.edge] = arr
            elif 1 <= env.seq <= arr.ndim and spec.shape[env.seq - 1] < 0:
                out.append[env.edge] = (env.seq - 1, env.request_id, arr)
            else:
                return f"state {spec.input!r}: axis {env.seq - 1} cannot grow"
    except (WireError, ValueError) as exc:
        return f"malformed delta: {exc}"
    if len(out.replace) + len(out.append) != len(specs):
        return f"the delta carries {len(out.replace) + len(out.append)} of {len(specs)} state tensors"
    return out


def apply_delta(specs: list[StateSpec], held: dict[str, np.ndarray], delta: Delta) -> dict[str, np.ndarray] | str:
    """The state after ``delta`` (keyed by state output name, as sessions keep it), or why it does not fit."""
    new: dict[str, np.ndarray] = {}
    for i, spec in enumerate(specs):
        if i in delta.replace:
            value = delta.replace[i]
        else:
            ax, offset, rows = delta.append[i]
            base = held.get(spec.output, spec.initial())
            if base.shape[ax] != offset:
                return f"state {spec.input!r} holds {base.shape[ax]} rows on axis {ax}; the delta appends at {offset}"
            if any(base.shape[a] != rows.shape[a] for a in range(rows.ndim) if a != ax):
                return f"state {spec.input!r}: the appended rows' shape {list(rows.shape)} does not fit"
            value = np.concatenate([base, rows], axis=ax)
        problem = spec.problem(value)
        if problem is not None:
            return problem
        new[spec.output] = value
    return new
