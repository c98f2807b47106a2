"""Flower interop: bb-edge clients (C on a microcontroller, MicroPython, Linux) inside a Flower federation.

A Flower ``ClientApp`` (:func:`client_app`) answers the ``train`` messages of a
stock Flower ``ServerApp`` (e.g. ``flwr.serverapp.strategy.FedAvg``) for the
SuperNodes that stand for bb-edge clients by relaying them over MQTT
(:class:`BbEdgeRelay`): the relay connects to the fleet's broker, sends the
client the Flower model as a bb-edge FedAvg ``MODEL`` (protocol 17, edge 2,
``request_id`` = Flower's server round, the float32 vector of
``ArrayRecord["w"]``) as the node ``server`` would, waits for its ``UPDATE``
(protocol 16, edge 3, the client's delta), checks it (sender, round, dtype,
size, finite) and replies to Flower with ``arrays`` = model + delta and
``metrics["num-examples"]`` = the client's sample count. The bb-edge client
runs unchanged: the C client on QEMU or a board behind its serial bridge
(:mod:`bb_edge.adapters.learn.mcu_fleet`), the MicroPython client, or
``bb-edge node``. SuperNodes without a relay run the caller's own Flower
``train`` function, so Flower Python clients and bb-edge clients share one
federation.

Flower is not a dependency of bb-edge: ``flwr`` (pinned ``1.42.0``; it needs
protobuf 6, which the main environment's onnx stack does not pin to) is
imported only when :func:`client_app` is called.
The relay is a plain MQTT client with its own client id, so several relays
(one per SuperNode, in Flower's worker processes) can be up at once.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from bb_edge.errors import BBError
from bb_edge.wire import envelope as wire
from bb_edge.wire.topics import Topics

__all__ = ["BbEdgeRelay", "FlowerRelayError", "client_app", "FLOWER_VERSION"]

FLOWER_VERSION = "1.42.0"
PROTO_FEDAVG_SERVER, PROTO_FEDAVG_CLIENT = 16, 17
MSG_MODEL, MSG_UPDATE = 2, 3


class FlowerRelayError(BBError):
    """A bb-edge client did not answer a Flower round (no valid UPDATE before the timeout)."""


@dataclass(frozen=True)
class BbEdgeRelay:
    """One bb-edge FedAvg client reached over MQTT as its server (see the module docstring).

    ``deployment`` is the learning deployment's name (the topic base), ``node``/``node_id`` the
    client's name and id, ``examples`` its sample count (what its JOIN says). ``epoch`` is the
    boot epoch of the relay's sequence numbers (``(epoch << 32) | round``: increasing, so the
    client's duplicate window admits every round once).
    """

    url: str
    deployment: str
    node: str
    node_id: int
    examples: int
    server_id: int = 1
    epoch: int = 1
    timeout: float = 300.0

    def train(self, vec: np.ndarray, rnd: int) -> np.ndarray:
        """Send ``vec`` as round ``rnd``'s MODEL and return the client's delta (its UPDATE)."""
        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        from bb_edge.adapters.transports.mqtt import MqttConfig

        cfg = MqttConfig.from_url(self.url)
        topics = Topics(self.deployment, cfg.prefix)
        start = np.ascontiguousarray(vec, dtype=np.float32).reshape(-1)
        env = wire.Envelope.for_array(start, sender=self.server_id, receiver=self.node_id,
                                      seq=(self.epoch << 32) | rnd, request_id=rnd, edge=MSG_MODEL,
                                      protocol=PROTO_FEDAVG_CLIENT)
        got: queue.Queue[np.ndarray] = queue.Queue()
        ready: queue.Queue[bool] = queue.Queue()
        refused: list[str] = []

        def on_message(client: Any, userdata: Any, msg: Any) -> None:
            try:
                e = wire.decode(bytes(msg.payload))
            except wire.WireError as exc:
                refused.append(str(exc))
                return
            if e.protocol != PROTO_FEDAVG_SERVER or e.edge != MSG_UPDATE:
                return  # JOIN, HEARTBEAT: the relay needs only the round's update
            if e.sender != self.node_id or e.request_id != rnd or e.dtype != 1:
                refused.append(f"update from {e.sender} for round {e.request_id} (dtype {e.dtype})")
                return
            delta = np.asarray(e.array(), dtype=np.float32).reshape(-1)
            if delta.size != start.size or not np.isfinite(delta).all():
                refused.append(f"update of {delta.size} values (or not finite), the model has {start.size}")
                return
            got.put(delta)

        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"flower-relay-{self.node}-{os.getpid()}",
                        clean_session=True, protocol=paho.MQTTv311)
        if cfg.username:
            c.username_pw_set(cfg.username, cfg.password)
        c.on_message = on_message
        c.on_subscribe = lambda *a: ready.put(True)
        c.connect(cfg.host, cfg.port)
        c.loop_start()
        try:
            c.subscribe(topics.inbox("server", self.node), qos=1)
            ready.get(timeout=30.0)
            c.publish(topics.inbox(self.node, "server"), wire.encode(env), qos=1)
            try:
                return got.get(timeout=self.timeout)
            except queue.Empty:
                raise FlowerRelayError(
                    f"{self.node}: no valid UPDATE for round {rnd} in {self.timeout:g} s"
                    + (f" (refused: {refused[-1]})" if refused else "")
                    + "; is the client connected to the broker with this deployment's name?") from None
        finally:
            c.loop_stop()
            c.disconnect()


def _vector(arrays: Any) -> np.ndarray:
    """The one float32 vector of an ``ArrayRecord`` (key ``w``, or its only array)."""
    nds = arrays.to_numpy_ndarrays()
    if len(nds) != 1:
        raise FlowerRelayError(f"a bb-edge client trains one flat vector; the ArrayRecord holds {len(nds)} arrays")
    return np.asarray(nds[0], dtype=np.float32).reshape(-1)


def client_app(relays: Mapping[int, BbEdgeRelay],
               python_train: Callable[[int, np.ndarray, int], tuple[np.ndarray, int]] | None = None) -> Any:
    """A Flower ``ClientApp``: SuperNodes whose ``partition-id`` is in ``relays`` relay to bb-edge clients.

    Any other SuperNode calls ``python_train(partition_id, model, round) -> (trained model,
    num_examples)``: a Flower Python client in the same federation.
    """
    from flwr.app import ArrayRecord, Context, Message, MetricRecord, RecordDict
    from flwr.clientapp import ClientApp

    app = ClientApp()

    @app.train()  # type: ignore[misc]
    def train(msg: Message, context: Context) -> Message:
        pid = int(context.node_config["partition-id"])
        rnd = int(msg.content["config"]["server-round"])
        start = _vector(msg.content["arrays"])
        relay = relays.get(pid)
        if relay is not None:
            trained, n = start + relay.train(start, rnd), relay.examples
        elif python_train is not None:
            trained, n = python_train(pid, start, rnd)
        else:
            raise FlowerRelayError(f"SuperNode partition {pid} has no bb-edge relay and no Python client")
        content = RecordDict({"arrays": ArrayRecord([np.asarray(trained, np.float32)]),
                              "metrics": MetricRecord({"num-examples": int(n)})})
        return Message(content=content, reply_to=msg)

    return app

