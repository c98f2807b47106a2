"""MQTT transport with umqtt.simple (device only: umqtt is not in the WebAssembly test VM).

Topic layout of adapters/mqtt_topics.py (docs/transports.md), names from config.json:

    {prefix}/{deployment}/in/{dst}/{src}     one envelope per message, QoS 1
    {prefix}/{deployment}/bcast/{src}        broadcast envelopes
    {prefix}/{deployment}/presence/{name}    retained b"up" / b"down" (last will)
    {prefix}/{deployment}/ctl                fleet control (b"stop")
"""
from bbnode import envelope as E


def safe_segment(name):
    """A topic segment for ``name`` (``/ + #`` NUL and blanks become ``_``)."""
    out = "".join("_" if c in "/+#\x00 \t\r\n" else c for c in name)
    return out or "_"


class Topics:
    """Topic names of one deployment."""

    def __init__(self, deployment, prefix="bb"):
        self.base = "%s/%s" % (prefix, safe_segment(deployment))

    def inbox(self, dst, src):
        """Envelopes from ``src`` to ``dst``."""
        return "%s/in/%s/%s" % (self.base, dst, src)

    def broadcast(self, src):
        """Broadcast envelopes of ``src``."""
        return "%s/bcast/%s" % (self.base, src)

    def presence(self, name):
        """Retained presence of ``name``."""
        return "%s/presence/%s" % (self.base, name)

    def control(self):
        """Fleet control topic."""
        return self.base + "/ctl"


class MqttLink:
    """Connects a Node to a broker: inbox envelopes go to ``node.handle``, outputs are published by receiver."""

    def __init__(self, cfg, name, peers):
        from umqtt.simple import MQTTClient  # device-only dependency
        self.t = Topics(cfg["deployment"], cfg.get("prefix", "bb"))
        self.name = safe_segment(name)
        self.peers = peers  # node id -> name
        self.client = MQTTClient(cfg.get("client_id", self.name), cfg["host"], port=cfg.get("port", 1883),
                                 user=cfg.get("user"), password=cfg.get("password"),
                                 keepalive=cfg.get("keepalive", 30), ssl=cfg.get("ssl", False))
        self.client.set_last_will(self.t.presence(self.name), b"down", retain=True, qos=1)
        self.node = None
        self.running = True

    def send(self, env_bytes):
        """Publish one envelope to its receiver's inbox (QoS 1)."""
        receiver = env_bytes[12] | env_bytes[13] << 8 | env_bytes[14] << 16 | env_bytes[15] << 24
        if receiver == E.BROADCAST:
            topic = self.t.broadcast(self.name)
        else:
            topic = self.t.inbox(safe_segment(self.peers.get(receiver, "host")), self.name)
        self.client.publish(topic, env_bytes, qos=1)

    def _on_msg(self, topic, msg):
        if topic == self.t.control().encode():
            if msg == b"stop":
                self.running = False
            return
        if self.node is not None:
            self.node.handle(msg)

    def serve(self, node):
        """Connect, announce, subscribe and dispatch until a b"stop" on the control topic."""
        self.node = node
        self.client.set_callback(self._on_msg)
        self.client.connect()
        self.client.publish(self.t.presence(self.name), b"up", retain=True, qos=1)
        self.client.subscribe(self.t.inbox(self.name, "+"), qos=1)
        self.client.subscribe(self.t.broadcast("+"), qos=1)
        self.client.subscribe(self.t.control(), qos=1)
        while self.running:
            self.client.wait_msg()
        self.client.publish(self.t.presence(self.name), b"down", retain=True, qos=1)
        self.client.disconnect()
