"""Context: what a protocol component may do inside a poll (send, emit, compute)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from bb_edge.engine.events import Event
from bb_edge.wire.envelope import BROADCAST, KIND_DATA, Envelope

if TYPE_CHECKING:
    from bb_edge.engine.engine import Engine


class Context:
    """Handed to protocol components; every effect goes back through the engine."""

    def __init__(self, engine: Engine, now: float) -> None:
        self._engine = engine
        self.now = now

    @property
    def node(self) -> str:
        """This node's name."""
        return self._engine.node

    @property
    def node_id(self) -> int:
        """This node's wire id."""
        return self._engine.node_id

    @property
    def peers(self) -> dict[str, int]:
        """Known peers by name -> wire id (excluding this node)."""
        return {k: v for k, v in self._engine.peers.items() if k != self._engine.node}

    def send_array(self, peer: str, array: np.ndarray, *, protocol: int, edge: int = 0,
                   request_id: int = 0, kind: int = KIND_DATA) -> None:
        """Queue a tensor envelope to ``peer`` (``"*"`` broadcasts)."""
        env = Envelope.for_array(array, sender=self.node_id, receiver=self._rid(peer), seq=0,
                                 request_id=request_id, edge=edge, kind=kind, protocol=protocol)
        self._engine.queue_outbound(peer, env)

    def send_bytes(self, peer: str, payload: bytes, *, protocol: int, edge: int = 0,
                   request_id: int = 0, kind: int = KIND_DATA, flags: int = 0, response_to: int = 0) -> None:
        """Queue an opaque-bytes envelope to ``peer`` (``"*"`` broadcasts)."""
        env = Envelope.for_bytes(payload, sender=self.node_id, receiver=self._rid(peer), seq=0,
                                 kind=kind, protocol=protocol, edge=edge, request_id=request_id,
                                 flags=flags, response_to=response_to)
        self._engine.queue_outbound(peer, env)

    def emit(self, event: Event) -> None:
        """Publish an event on the engine's bus."""
        self._engine.emit(event)

    def binding(self, name: str) -> Any:
        """The component bound under ``name``."""
        return self._engine.bindings[name]

    def compute(self, key: str, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run a program prepared with :meth:`Engine.prepare_compute` synchronously."""
        return self._engine.compute(key, inputs)

    def _rid(self, peer: str) -> int:
        if peer == "*":
            return BROADCAST
        return self._engine.peers[peer]
