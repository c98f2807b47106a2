"""``bb-edge deploy --abort UPDATE_ID``: ABORT one update on every node of a running fleet (issue 37).

For an update whose deployer is gone: the sans-IO :class:`~bb_edge.engine.ota.OtaAbort` sends ABORT until
every node answers; this module moves its bytes over the fleet's broker as ``_deploy``.
"""

from __future__ import annotations

import time
from pathlib import Path

from bb_edge.adapters.ops.ota_deploy import OtaTap
from bb_edge.deployment.manifest import DEPLOY_ID, DEPLOY_NAME, load_deployment
from bb_edge.engine import ota


def abort_on_fleet(current: str | Path, url: str, update_id: int,
                   timeout_s: float = 60.0) -> tuple[dict[str, int], list[str]]:
    """``bb-edge deploy --abort UPDATE_ID``: as ``_deploy``, ABORT ``update_id`` on every node of the running
    deployment until each answers (:class:`~bb_edge.engine.ota.OtaAbort`); ``(node -> NACK code, nodes)``."""
    from bb_edge.adapters.fleet.hostloop import sequence_base
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport

    if url.startswith("serial:"):
        raise ota.OtaError(ota.BAD_MESSAGE, "--abort speaks to a fleet's broker (mqtt://), not a serial line")
    cur = load_deployment(current)
    ids = cur.ids()
    if DEPLOY_NAME not in ids:
        raise ota.OtaError(ota.NO_KEY, f"the running deployment {cur.name!r} has no 'ota' section: nothing to abort")
    tap = OtaTap(MqttTransport(MqttConfig.from_url(url), cur.name, DEPLOY_NAME, ids))
    tap.open(lambda peer, data, ack=None: None)
    seq = [sequence_base()]

    def next_seq() -> int:
        seq[0] += 1
        return seq[0]

    nodes = list(cur.node_names)
    job = ota.OtaAbort(ids, nodes, update_id, next_seq, timeout_s=timeout_s, sender=DEPLOY_ID)
    try:
        tap.inner.wait_connected(20.0)
        out = job.start(time.monotonic())
        while True:
            for o in out:
                tap.send(o.peer, o.receiver, o.data)
            while tap.inbox:
                job.on_envelope(tap.inbox.popleft())
            out = job.poll(time.monotonic())
            if job.state != "aborting":
                return dict(job.answered), nodes
            time.sleep(0.02)
    finally:
        tap.inner.flush(10.0)
        tap.inner.close()
