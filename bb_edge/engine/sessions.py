"""Per-session state kept on a node: the bounded store of a stateful stage (docs/wire.md "Sessions").

A stage's program may name *state tensors*: outputs at step t that are its own inputs at step t+1 (a KV
cache, an RNN's h/c). The engine keeps them here, per session, and never sends them on the wire. A session
is ``(owner, session id)``: the owner is the client slot the request ids carry (0 for the host), so one
identity can never continue or close another's session. The store is bounded four ways: a byte budget for
the node, a per-session byte limit, a number of sessions and an idle timeout; past the budget the least
recently used session ends. Every end is returned to the engine as ``(session, reason)`` so that it can tell
the owner (a typed event), never silently.

Pure data structure: no clock (``now`` is an argument), no I/O.
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from bb_edge.wire.dtypes import CODE_TO_NUMPY

SessionKey = tuple[int, int]
"""``(owner slot, session id)``: the owner is 0 for the host, k for ``_client<k>``."""


@dataclass(frozen=True)
class StateSpec:
    """One state pair of a program: ``output`` at step t feeds ``input`` at step t+1.

    ``shape`` is the input's declared shape, -1 for a dynamic dim; the first step sees zeros of that shape
    with every dynamic dim 0 (an empty KV cache), unless the dim is the only one (then 1).
    """

    input: str
    output: str
    elem_type: int
    shape: tuple[int, ...]

    @cached_property
    def _dtype(self) -> np.dtype:
        return np.dtype(CODE_TO_NUMPY[self.elem_type])

    @cached_property
    def _static(self) -> tuple[tuple[int, int], ...]:
        """``(axis, size)`` of every static dim: what :meth:`problem` checks (once per state per step)."""
        return tuple((i, d) for i, d in enumerate(self.shape) if d >= 0)

    @cached_property
    def _initial(self) -> np.ndarray:
        zeros = np.zeros(tuple(0 if d < 0 else d for d in self.shape), dtype=self._dtype)
        zeros.flags.writeable = False  # shared by every session's first step: nothing may write to it
        return zeros

    def initial(self) -> np.ndarray:
        """The state before the first step: zeros, dynamic dims 0 (one read-only array, built once)."""
        return self._initial

    def problem(self, value: np.ndarray) -> str | None:
        """Why ``value`` cannot be this state's next input (dtype, rank, a static dim), or None."""
        want = self._dtype
        dtype = value.dtype
        if dtype is not want and dtype != want:  # ``is``: numpy's builtin dtypes are singletons, the usual case
            return f"state {self.output!r} -> {self.input!r} is {value.dtype}, the input takes {want}"
        shape = value.shape
        if len(shape) == len(self.shape):
            for i, d in self._static:  # a plain loop: this runs for every state of every step
                if shape[i] != d:
                    break
            else:
                return None
        return (f"state {self.output!r} has shape {list(value.shape)}; {self.input!r} takes "
                f"{[d if d >= 0 else '?' for d in self.shape]}")


StateCheck = tuple[tuple[str, ...], tuple[StateSpec, ...], np.dtype, int, "Callable[[Any], Any] | None",
                   tuple[int, ...]]
"""The check of a run of states that take the same dtype, rank and static dims (a decoder stage's 20 KV tensors
are one): ``(outputs, specs, dtype, rank, static dims' getter or None, their sizes)`` (:func:`state_checks`)."""


def state_checks(specs: Iterable[StateSpec]) -> tuple[StateCheck, ...]:
    """The checks of :func:`next_state` as plain tuples, computed once when a program is installed: a step reads
    no descriptor or cached property per state, and consecutive states with the same contract share one check.

    The static dims are read with one ``itemgetter`` that names every static axis twice (so it returns a tuple
    even for one axis) and compared with their sizes in one tuple comparison: no Python loop per dim.
    """
    runs: list[tuple[tuple[np.dtype, int, tuple[tuple[int, int], ...]], list[StateSpec]]] = []
    for spec in specs:
        key = (spec._dtype, len(spec.shape), spec._static)
        if runs and runs[-1][0] == key:
            runs[-1][1].append(spec)
        else:
            runs.append((key, [spec]))
    out = []
    for (dtype, rank, static), members in runs:
        axes = [i for i, _ in static]
        getter = operator.itemgetter(*axes, *axes) if axes else None
        out.append((tuple(m.output for m in members), tuple(members), dtype, rank, getter,
                    tuple(d for _, d in static) * 2))
    return tuple(out)


def next_state(specs: Iterable[StateSpec], values: dict[str, np.ndarray],
               checks: tuple[StateCheck, ...] | None = None) -> tuple[dict[str, np.ndarray], int] | str:
    """The state a finished step carries to the next (output name -> tensor) and its bytes, or why one of the
    state outputs in ``values`` cannot be its input (:meth:`StateSpec.problem`).

    One pass checks and sums every state of a step (20 for a 10-layer decoder stage), right after the backend ran.
    ``checks`` (:func:`state_checks` of ``specs``, computed once) makes the pass cheaper: the same checks, inline;
    only a refused state goes through :meth:`StateSpec.problem` for its message.
    """
    new: dict[str, np.ndarray] = {}
    size = 0
    ndarray = np.ndarray
    for outputs, members, want, rank, static, sizes in checks if checks is not None else state_checks(specs):
        for output, spec in zip(outputs, members):
            value = values[output]
            if type(value) is not ndarray:
                value = np.asarray(value)
            dtype = value.dtype
            shape = value.shape
            if not ((dtype is want or dtype == want) and len(shape) == rank
                    and (static is None or static(shape) == sizes)):
                problem = spec.problem(value)
                if problem is not None:
                    return problem
            new[output] = value
            size += value.nbytes
    return new, size


@dataclass
class Session:
    """One live session at one node: its next step and its state tensors."""

    owner: int
    session: int
    next_step: int = 0
    state: dict[str, np.ndarray] = field(default_factory=dict)
    nbytes: int = 0
    last_used: float = 0.0
    #: the request id of the last step seen: where the owner is told when the session ends
    last_request: int = 0
    #: the request id of the step running now (its state taken), 0 when idle
    busy: int = 0
    #: what the last step sent on (sends, then graph outputs): a retry of that step is answered from here
    last_outputs: list[np.ndarray] = field(default_factory=list)

    @property
    def key(self) -> SessionKey:
        """``(owner, session id)``."""
        return (self.owner, self.session)


@dataclass
class SessionLimits:
    """The bounds of a node's session store (deployment limits ``state_budget``, ``session_bytes``...)."""

    state_budget: int = 256 * 1024 * 1024
    session_bytes: int = 64 * 1024 * 1024
    max_sessions: int = 64
    idle_s: float = 600.0


class SessionStore:
    """The sessions of one node, least recently used first (module docstring)."""

    def __init__(self, limits: SessionLimits | None = None) -> None:
        self.limits = limits or SessionLimits()
        self._sessions: OrderedDict[SessionKey, Session] = OrderedDict()
        self.nbytes = 0
        # no later than the earliest idle expiry (a lower bound, so that no step walks every session): lowered
        # when a session goes idle, made exact again by expire(), which walks them anyway
        self._due = float("inf")

    def __len__(self) -> int:
        return len(self._sessions)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(list(self._sessions.values()))

    def get(self, key: SessionKey) -> Session | None:
        """The live session ``key``, or None (never opened, closed or ended)."""
        return self._sessions.get(key)

    def open(self, key: SessionKey, now: float, request_id: int) -> tuple[Session | None, list[tuple[Session, str]]]:
        """Open session ``key`` at step 0: the new session, and the sessions ended to make room.

        None when it cannot open even after ending every idle one (all are mid-step).
        """
        ended: list[tuple[Session, str]] = []
        while len(self._sessions) >= self.limits.max_sessions:
            victim = self._lru_idle(exclude=key)
            if victim is None:
                return None, ended
            ended.append((self._drop(victim.key), f"evicted: the node holds at most {self.limits.max_sessions} "
                                                  f"sessions"))
        s = Session(key[0], key[1], last_used=now, last_request=request_id)
        self._sessions[key] = s
        self._idle_at(now)
        return s, ended

    def take(self, key: SessionKey, request_id: int, now: float) -> dict[str, np.ndarray]:
        """Mark the session busy with ``request_id`` and return its state tensors (read-only views).

        The dict returned is the session's own (no copy per step): the caller reads it and never changes it;
        a commit replaces it whole.
        """
        s = self._sessions[key]
        s.busy = request_id
        s.last_request = request_id
        s.last_used = now
        self._sessions.move_to_end(key)
        return s.state

    def commit(self, key: SessionKey, state: dict[str, np.ndarray], now: float,
               nbytes: int | None = None) -> list[tuple[Session, str]]:
        """Store the state a finished step produced, advance the step; the sessions ended by the budget.

        The session itself ends (listed first) when its state alone passes the per-session limit. ``nbytes``:
        the state's size when the caller already summed it (the engine does, as it checks each tensor).
        """
        s = self._sessions[key]
        size = sum(int(v.nbytes) for v in state.values()) if nbytes is None else nbytes
        s.busy = 0
        s.last_used = now
        self._idle_at(now)
        if size > self.limits.session_bytes or size > self.limits.state_budget:
            limit = min(self.limits.session_bytes, self.limits.state_budget)
            return [(self._drop(key), f"state limit: {size} bytes of state after step {s.next_step}, "
                                      f"the limit is {limit} bytes")]
        self.nbytes += size - s.nbytes
        s.state, s.nbytes = state, size
        s.next_step += 1
        self._sessions.move_to_end(key)
        return self._within_budget(key)

    def replace(self, key: SessionKey, state: dict[str, np.ndarray], next_step: int, now: float,
                request_id: int) -> tuple[Session | None, list[tuple[Session, str]]]:
        """Set session ``key``'s state as of ``next_step`` (a replica kept current by its primary).

        Opens the session when it is not live here; the sessions ended to make room are returned. None when
        the state alone exceeds the per-session limit or no idle session can make room.
        """
        size = sum(int(v.nbytes) for v in state.values())
        if size > min(self.limits.session_bytes, self.limits.state_budget):
            return None, []
        s = self._sessions.get(key)
        ended: list[tuple[Session, str]] = []
        if s is None:
            s, ended = self.open(key, now, request_id)
            if s is None:
                return None, ended
        self.nbytes += size - s.nbytes
        s.state, s.nbytes, s.next_step, s.last_used, s.last_request = state, size, next_step, now, request_id
        if not s.busy:
            self._idle_at(now)
        self._sessions.move_to_end(key)
        return s, ended + self._within_budget(key)

    def release(self, key: SessionKey) -> None:
        """A step that took the state did not finish (failed, evicted): the state stays as it was."""
        s = self._sessions.get(key)
        if s is not None:
            s.busy = 0
            self._idle_at(s.last_used)

    def close(self, key: SessionKey) -> Session | None:
        """End session ``key`` on its owner's request; the session, or None if it was not live."""
        return self._drop(key) if key in self._sessions else None

    def expire(self, now: float) -> list[tuple[Session, str]]:
        """End every idle session whose last step is older than the idle timeout."""
        out = []
        for s in list(self._sessions.values()):
            if not s.busy and now - s.last_used > self.limits.idle_s:
                out.append((self._drop(s.key), f"idle for more than {self.limits.idle_s:g} s"))
        self._recompute_due()
        return out

    def next_due(self) -> float:
        """No later than the earliest time a session could go idle-expired (inf when none).

        A lower bound kept as sessions go idle (a poll asks every time): past it, :meth:`expire` ends what is
        due and makes it exact again.
        """
        return self._due

    def shift(self, delta: float) -> None:
        """Move every session's last use by ``delta`` s (a restored snapshot taken on another clock)."""
        for s in self._sessions.values():
            s.last_used += delta
        self._recompute_due()

    def _idle_at(self, last_used: float) -> None:
        due = last_used + self.limits.idle_s
        if due < self._due:
            self._due = due

    def _recompute_due(self) -> None:
        self._due = min((s.last_used + self.limits.idle_s for s in self._sessions.values() if not s.busy),
                        default=float("inf"))

    def restore(self, sessions: list[Session]) -> None:
        """Replace every session (a snapshot being restored); steps in flight are retried, so none is busy."""
        self._sessions = OrderedDict((s.key, s) for s in sessions)
        for s in sessions:
            s.busy = 0
        self.nbytes = sum(s.nbytes for s in sessions)
        self._recompute_due()

    def _within_budget(self, keep: SessionKey) -> list[tuple[Session, str]]:
        """End least recently used idle sessions (never ``keep``) until the state fits the budget."""
        ended: list[tuple[Session, str]] = []
        while self.nbytes > self.limits.state_budget:
            victim = self._lru_idle(exclude=keep)
            if victim is None:
                break
            ended.append((self._drop(victim.key), f"evicted: the node's state budget is "
                                                  f"{self.limits.state_budget} bytes"))
        return ended

    def _lru_idle(self, exclude: SessionKey) -> Session | None:
        return next((s for k, s in self._sessions.items() if k != exclude and not s.busy), None)

    def _drop(self, key: SessionKey) -> Session:
        s = self._sessions.pop(key)
        self.nbytes -= s.nbytes
        return s
