"""What a node keeps to resend end to end, and the fleet control messages that ask for it (sans-IO).

Every node keeps the data envelopes it sent per request (bounded, :class:`RetransmitBuffer`); when the
host's deadline for a request passes it sends ``retry <ids>`` on the fleet control channel and every
node resends what it kept with the *same* ``(sender, seq)``; ``done <ids>`` lets it forget
(docs/transports.md, "Exactly once").
"""

from __future__ import annotations

from collections import OrderedDict


class RetransmitBuffer:
    """Data envelopes sent per request, kept for an end-to-end ``retry`` (bounded, oldest dropped first)."""

    def __init__(self, max_requests: int = 4096, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_requests = max_requests
        self.max_bytes = max_bytes
        self.bytes = 0
        self.dropped = 0
        self._by_request: OrderedDict[int, list[tuple[str, int, bytes]]] = OrderedDict()

    def keep(self, request_id: int, peer: str, receiver: int, data: bytes) -> None:
        """Remember one envelope of ``request_id``."""
        self._by_request.setdefault(request_id, []).append((peer, receiver, data))
        self.bytes += len(data)
        while self._by_request and (len(self._by_request) > self.max_requests or self.bytes > self.max_bytes):
            _, old = self._by_request.popitem(last=False)
            self.bytes -= sum(len(d) for _, _, d in old)
            self.dropped += 1

    def get(self, request_id: int) -> list[tuple[str, int, bytes]]:
        """What was kept for ``request_id`` (possibly nothing)."""
        return list(self._by_request.get(request_id, ()))

    def items(self) -> list[tuple[int, list[tuple[str, int, bytes]]]]:
        """Every kept request with its envelopes, oldest first (a copy)."""
        return [(rid, list(entries)) for rid, entries in self._by_request.items()]

    def replace(self, request_id: int, entries: list[tuple[str, int, bytes]]) -> None:
        """Keep ``entries`` for a kept request instead of what it held (re-addressed after a failover)."""
        if request_id in self._by_request:
            self.bytes += sum(len(d) for *_, d in entries) - sum(len(d) for *_, d in self._by_request[request_id])
            self._by_request[request_id] = list(entries)

    def forget(self, request_id: int) -> None:
        """Drop what was kept for ``request_id`` (it completed end to end)."""
        old = self._by_request.pop(request_id, None)
        if old:
            self.bytes -= sum(len(d) for _, _, d in old)

    def __len__(self) -> int:
        return len(self._by_request)


def parse_control(payload: bytes) -> tuple[str, list[int]] | None:
    """``(verb, request ids)`` of a fleet control message (``stop``, ``retry 7 9``, ``done 7``); None if bad."""
    try:
        parts = payload.decode("ascii").split()
    except UnicodeDecodeError:
        return None
    if not parts or parts[0] not in ("stop", "retry", "done") or len(parts) > 4097:
        return None
    try:
        ids = [int(x) for x in parts[1:]]
    except ValueError:
        return None
    if any(not 0 <= i < 2**64 for i in ids):
        return None
    return parts[0], ids


def control_from(payload: bytes, writer: str) -> tuple[str, list[int]] | None:
    """:func:`parse_control` of a message ``writer`` sent, reduced to what ``writer`` may ask; None if nothing.

    Least privilege (docs/transports.md, "Control"): ``stop`` only from the host (``_host``); ``retry`` and
    ``done`` only for the request ids ``writer`` owns (the owner slot in a request id's top byte: 0 the
    host, k ``_client<k>``), so a client can neither amplify nor erase another owner's retries. An unknown
    writer (a link that cannot tell) asks nothing.
    """
    from bb_edge.deployment.clients import ClientIdentityError, request_owner, slot_of_name
    from bb_edge.deployment.manifest import HOST_NAME

    parsed = parse_control(payload)
    if parsed is None:
        return None
    if writer == HOST_NAME:
        slot = 0
    else:
        try:
            slot = slot_of_name(writer) if writer.startswith("_client") else -1
        except ClientIdentityError:
            return None
        if slot < 0:
            return None
    verb, ids = parsed
    if verb == "stop":
        return parsed if slot == 0 else None
    own = [i for i in ids if request_owner(i) == slot]
    return (verb, own) if own else None
