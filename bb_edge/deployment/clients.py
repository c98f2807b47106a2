"""Client identities: endpoints other than ``_host`` that send graph inputs and receive graph outputs.

A deployment has one host (``_host``, wire id 0) and up to :data:`MAX_CLIENTS` clients, numbered by slot
1..255: client ``k`` is named ``_client<k>`` and sends with wire id ``CLIENT_ID_BASE + k``. A request
carries its owner in the top byte of its 64-bit request id (slot 0 = the host, whose clock-derived ids
stay below 2**56), so every node on a request's path, not only the one that got its inputs, knows where
its graph outputs and error results go. A node accepts a graph input from a client only when the request
id names that client (:func:`may_submit`), so a client cannot have outputs sent to another.

Pure functions, no I/O: the engine, the host session and the transports share them.
"""

from __future__ import annotations

import re

from bb_edge.deployment.manifest import HOST_ID, HOST_NAME
from bb_edge.errors import BBError

CLIENT_PREFIX = "_client"
#: wire id of client slot k is CLIENT_ID_BASE + k (node ids are small; 0xFFFFFFFF is broadcast)
CLIENT_ID_BASE = 0xFFFF0000
MAX_CLIENTS = 255
OWNER_SHIFT = 56
#: client identities ``bb-edge broker`` provisions (credentials and ACL) for a deployment
DEFAULT_CLIENTS = 4


class ClientIdentityError(BBError):
    """A client name or slot outside the client range."""


def check_slot(slot: int) -> int:
    """``slot`` if it is a client slot (1..255), else ClientIdentityError."""
    if not isinstance(slot, int) or not 1 <= slot <= MAX_CLIENTS:
        raise ClientIdentityError(f"client slot {slot!r} is out of range; use 1..{MAX_CLIENTS} "
                                  f"(each client sharing a fleet needs its own)")
    return slot


def client_name(slot: int) -> str:
    """The endpoint name of client ``slot`` (``_client<slot>``): its MQTT identity and topic segment."""
    return f"{CLIENT_PREFIX}{check_slot(slot)}"


def client_id(slot: int) -> int:
    """The wire id client ``slot`` sends with."""
    return CLIENT_ID_BASE + check_slot(slot)


def slot_of_name(name: str) -> int:
    """The slot of a client name (``_client3`` -> 3, or a bare ``3``); ClientIdentityError otherwise."""
    m = re.fullmatch(rf"(?:{CLIENT_PREFIX})?([0-9]{{1,3}})", name.strip())
    if m is None:
        raise ClientIdentityError(f"{name!r} is not a client identity; use {CLIENT_PREFIX}1..{CLIENT_PREFIX}"
                                  f"{MAX_CLIENTS} (or the number alone)")
    return check_slot(int(m.group(1)))


def slot_of_id(wire_id: int) -> int | None:
    """The client slot of a wire sender id, or None when it is not a client's."""
    slot = wire_id - CLIENT_ID_BASE
    return slot if 1 <= slot <= MAX_CLIENTS else None


def client_ids(count: int = MAX_CLIENTS) -> dict[str, int]:
    """Name -> wire id of client slots 1..``count`` (what a transport adds to a deployment's ids)."""
    return {client_name(k): client_id(k) for k in range(1, count + 1)}


def request_owner(request_id: int) -> int:
    """The slot that owns ``request_id`` (0: the host)."""
    return (request_id >> OWNER_SHIFT) & 0xFF


def owned_request_id(slot: int, n: int) -> int:
    """Request id ``n`` (below 2**56) of client ``slot``."""
    return (check_slot(slot) << OWNER_SHIFT) | (n & ((1 << OWNER_SHIFT) - 1))


def reply_to(request_id: int) -> tuple[str, int]:
    """``(endpoint name, wire id)`` that graph outputs and error results of ``request_id`` go to."""
    slot = request_owner(request_id)
    return (HOST_NAME, HOST_ID) if slot == 0 else (client_name(slot), client_id(slot))


def may_submit(sender: int, request_id: int) -> bool:
    """True when ``sender`` may send graph inputs of ``request_id``: the host, or the client that owns it."""
    if sender == HOST_ID:
        return True
    slot = slot_of_id(sender)
    return slot is not None and request_owner(request_id) == slot
