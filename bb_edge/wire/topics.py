"""The MQTT topic layout of a deployment (see docs/transports.md).

    {prefix}/{deployment}/in/{dst}/{src}     one envelope per message, QoS 1; dst reads, src writes
    {prefix}/{deployment}/bcast/{src}        broadcast envelopes (receiver 0xFFFFFFFF); all read
    {prefix}/{deployment}/presence/{name}    retained b"up" / b"down" (last will); all read
    {prefix}/{deployment}/ctl/{writer}       control (b"stop", b"retry 7", b"done 7"); only ``writer`` writes it
                                             (``_host`` or a ``_client<k>``, the broker's ACL), nodes read
                                             ``ctl/+``: a node obeys ``stop`` only from ``ctl/_host`` and a
                                             retry/done only for request ids ``writer`` owns
    {prefix}/{deployment}/status/{name}      retained JSON status record (adapters/ops/telemetry.py); name writes,
                                             all read (and the read-only ``_status`` user of ``bb-edge status``)

Putting the sender in the topic lets the broker's ACL pin identities: a node
may only write topics that end in its own name, and the adapter drops any
envelope whose header ``sender`` disagrees with the topic's ``src``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

#: the only writer whose ``stop`` a node obeys (the host endpoint's name, bb_edge.deployment.manifest.HOST_NAME)
CONTROL_HOST = "_host"

_UNSAFE = re.compile(r"[/+#\x00\s]")


def safe_segment(name: str) -> str:
    """A topic segment for ``name`` (wildcards, separators and blanks become ``_``)."""
    return _UNSAFE.sub("_", name) or "_"


@dataclass(frozen=True)
class Topics:
    """Topic names for one deployment under ``prefix``."""

    deployment: str
    prefix: str = "bb"

    @cached_property
    def base(self) -> str:
        """``{prefix}/{deployment}`` (computed once: every topic built or parsed starts with it)."""
        return f"{self.prefix}/{safe_segment(self.deployment)}"

    def inbox(self, dst: str, src: str) -> str:
        """Topic carrying envelopes from ``src`` to ``dst``."""
        return f"{self.base}/in/{dst}/{src}"

    def inbox_filter(self, dst: str) -> str:
        """Subscription filter for every envelope addressed to ``dst``."""
        return f"{self.base}/in/{dst}/+"

    def broadcast(self, src: str) -> str:
        """Topic of broadcast envelopes sent by ``src`` (``+`` for the filter)."""
        return f"{self.base}/bcast/{src}"

    def presence(self, name: str) -> str:
        """Retained presence of ``name`` (``+`` for the filter)."""
        return f"{self.base}/presence/{name}"

    def status(self, name: str) -> str:
        """Retained status record of ``name`` (``+`` for the filter)."""
        return f"{self.base}/status/{name}"

    def control(self, writer: str = CONTROL_HOST) -> str:
        """The control topic ``writer`` publishes on (``+`` for the nodes' filter); the host's by default."""
        return f"{self.base}/ctl/{writer}"

    def parse(self, topic: str) -> tuple[str, str, str] | None:
        """``(kind, a, b)`` for a topic of this layout: ``("in", dst, src)``,
        ``("bcast", src, "")``, ``("presence", name, "")``, ``("status", name, "")``, ``("ctl", writer, "")``;
        None otherwise."""
        base = self.base + "/"
        if not topic.startswith(base):
            return None
        parts = topic[len(base):].split("/")
        if parts[0] == "in" and len(parts) == 3:
            return "in", parts[1], parts[2]
        if parts[0] in ("bcast", "presence", "status") and len(parts) == 2:
            return parts[0], parts[1], ""
        if parts[0] == "ctl" and len(parts) == 2:
            return "ctl", parts[1], ""
        return None
