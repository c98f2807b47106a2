"""The operator's ABORT of one update by its id, sans-IO (:class:`OtaAbort`; ``bb-edge deploy --abort``)."""

from __future__ import annotations

from collections.abc import Callable

from bb_edge.deployment.manifest import HOST_ID
from bb_edge.engine.ota.deployer import DEFAULT_RETRY_S, Outgoing
from bb_edge.engine.ota.messages import ABORT, NACK, PROTO_OTA, U32, OtaError, decode_nack
from bb_edge.wire import envelope as wire


class OtaAbort:
    """The operator's ABORT of an update by its id (``bb-edge deploy --abort UPDATE_ID``), sans-IO.

    For an update whose deployer is gone (it died after READY, or during a canary window): ABORT to every
    node every ``retry_s`` until each answers a NACK (``aborted``, or the code that ended the update there)
    or ``timeout_s`` passes. A node that staged it drops it; one that switched to it puts its previous
    program back (docs/wire.md "Program updates"). ``answered``: node -> NACK code; ``state``: ``done`` when
    every node answered, ``failed`` at the timeout.
    """

    def __init__(self, ids: dict[str, int], nodes: list[str], update_id: int, next_seq: Callable[[], int],
                 timeout_s: float = 60.0, retry_s: float = DEFAULT_RETRY_S, sender: int = HOST_ID) -> None:
        self.ids, self.nodes, self.update_id = ids, sorted(nodes), update_id & 0xFFFFFFFF
        self.names = {v: k for k, v in ids.items()}
        self.next_seq, self.timeout_s, self.retry_s, self.sender = next_seq, timeout_s, retry_s, sender
        self.answered: dict[str, int] = {}
        self.state = "new"
        self._deadline = self._resend = 0.0

    def start(self, now: float) -> list[Outgoing]:
        """ABORT to every node."""
        self.state, self._deadline = "aborting", now + self.timeout_s
        self._resend = now
        return self.poll(now)

    def on_envelope(self, env: wire.Envelope) -> None:
        """A node's NACK for this update id (anything else is ignored)."""
        node = self.names.get(env.sender)
        if env.protocol != PROTO_OTA or env.edge != NACK or node not in self.nodes:
            return
        try:
            uid, code, _ = decode_nack(bytes(env.payload_bytes()))
        except OtaError:
            return
        if uid == self.update_id:
            self.answered.setdefault(node, code)

    def poll(self, now: float) -> list[Outgoing]:
        """ABORT again to whoever has not answered; the state."""
        out: list[Outgoing] = []
        if self.state != "aborting":
            return out
        pending = [n for n in self.nodes if n not in self.answered]
        if not pending:
            self.state = "done"
        elif now > self._deadline:
            self.state = "failed"
        elif now >= self._resend:
            self._resend = now + self.retry_s
            for node in pending:
                env = wire.Envelope.for_bytes(U32.pack(self.update_id), sender=self.sender, receiver=self.ids[node],
                                              seq=self.next_seq(), kind=wire.KIND_CONTROL, protocol=PROTO_OTA,
                                              edge=ABORT)
                out.append(Outgoing(node, self.ids[node], wire.encode(env, max_payload=4)))
        return out
