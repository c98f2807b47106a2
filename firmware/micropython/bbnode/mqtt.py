"""MQTT transport with umqtt.simple (micropython-lib; frozen into the stock ESP32 firmware).

Topic layout of bb_edge/wire/topics.py (docs/transports.md), names from config.json:

    {prefix}/{deployment}/in/{dst}/{src}     one envelope per message, QoS 1
    {prefix}/{deployment}/bcast/{src}        broadcast envelopes
    {prefix}/{deployment}/presence/{name}    retained b"up" / b"down" (last will)
    {prefix}/{deployment}/ctl/_host          fleet control (b"stop"): only the host's topic (its own, ACL)
    {prefix}/{deployment}/status/{name}      retained status record (bbnode/status.py), every status_interval s

Like bb_edge/adapters/transports/mqtt.py: persistent session (clean_session=False; the broker forces client id =
user name), retained last will b"down", QoS 1 both ways, username = node name. Duplicates that
QoS 1 can produce are dropped by the receiving engine's (sender, seq) filter.

umqtt.simple is blocking and not re-entrant (publish() reads packets until its PUBACK and hands
any PUBLISH that arrives meanwhile to the callback), so the callback only queues envelopes;
``poll`` hands them to the node outside umqtt's read loop. A lost connection (OSError) is
re-established with back-off and the interrupted publish is resent (at-least-once).
"""
import time

from bbnode import envelope as E

HOST_NAME = "_host"  # the host endpoint (node id 0), as in bb_edge/deployment/manifest.py
PRESENCE_UP = b"up"
PRESENCE_DOWN = b"down"


def safe_segment(name):
    """A topic segment for ``name`` (``/ + #`` NUL and blanks become ``_``)."""
    out = "".join("_" if c in "/+#\x00 \t\r\n\x0b\x0c" else c for c in name)
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
        """The host's control topic: the only one whose ``stop`` a node obeys (clients write their own)."""
        return self.base + "/ctl/_host"

    def status(self, name):
        """Retained status record of ``name`` (bb-edge status)."""
        return "%s/status/%s" % (self.base, name)


class LinkStats:
    """Counters of one link."""

    def __init__(self):
        self.sent = 0
        self.received = 0
        self.connects = 0
        self.reconnects = 0
        self.pings = 0


class MqttLink:
    """Connects a Node to a broker: inbox envelopes go to ``node.handle``, outputs are published by receiver.

    ``cfg`` is config.json's ``mqtt`` object: host, port, deployment, prefix, password (from the
    broker's credentials.json; the user is the node name unless ``user`` is given), keepalive, ssl.
    """

    def __init__(self, cfg, name, peers, client_class=None):
        if client_class is None:
            from umqtt.simple import MQTTClient as client_class  # device-side dependency
        self.t = Topics(cfg["deployment"], cfg.get("prefix", "bb"))
        self.name = safe_segment(name)
        self.peers = dict(peers)  # node id -> name
        self.peers.setdefault(0, HOST_NAME)
        self.peers.setdefault(0xFFFFFFFE, "_deploy")  # bb-edge deploy (its OTA replies go to its own inbox)
        self.keepalive = cfg.get("keepalive", 30)
        self.backoff = (cfg.get("reconnect_min", 0.05), cfg.get("reconnect_max", 2.0))
        password = cfg.get("password")
        user = cfg.get("user", self.name if password is not None else None)
        self.client = client_class(cfg.get("client_id", self.name), cfg["host"], port=cfg.get("port", 1883),
                                   user=user, password=password, keepalive=self.keepalive,
                                   ssl=cfg.get("ssl", False))
        self.client.set_last_will(self.t.presence(self.name), PRESENCE_DOWN, retain=True, qos=1)
        self.client.set_callback(self._on_msg)
        self.inbox = []
        self.node = None
        self.running = True
        self.connected = False
        self.poller = None
        self.last_tx = time.time()
        self.stats = LinkStats()
        self.status = None  # a callable returning the status record (bytes): published every status_interval s
        self.status_interval = cfg.get("status_interval", 2)
        self.last_status = 0

    # ------------------------------------------------------------ connection
    def connect(self):
        """Connect (persistent session), announce ``up``, subscribe to inbox, broadcasts and control.

        Raises OSError when the broker is unreachable, umqtt's MQTTException when it refuses.
        """
        self.connected = False
        try:
            import select
        except ImportError:  # older ports
            import uselect as select
        self.client.connect(clean_session=False)
        self.poller = select.poll()
        self.poller.register(self.client.sock, select.POLLIN)
        self.stats.connects += 1
        self.connected = True
        # subscribe before announcing: peers start sending on "up", and the broker queues only for
        # subscriptions that exist (the first session of a node has none)
        self.client.subscribe(self.t.inbox(self.name, "+"), qos=1)
        self.client.subscribe(self.t.broadcast("+"), qos=1)
        self.client.subscribe(self.t.control(), qos=1)
        self.client.publish(self.t.presence(self.name), PRESENCE_UP, retain=True, qos=1)
        self.last_tx = time.time()

    def reconnect(self, attempts=0):
        """Drop the socket and connect again with back-off (forever when ``attempts`` is 0)."""
        delay, most = self.backoff
        n = 0
        while True:
            self.connected = False
            try:
                self.client.sock.close()
            except Exception:  # noqa: BLE001 - already closed or never opened
                pass
            try:
                self.connect()
                self.stats.reconnects += 1
                return
            except (OSError, IndexError):
                n += 1
                if attempts and n >= attempts:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, most)

    # ---------------------------------------------------------------- output
    def peer_name(self, receiver):
        """The endpoint name of a wire id: a peer, a client (``_client<k>`` for 0xFFFF0000+k: the owner of
        a request whose outputs this node produced), else the host."""
        name = self.peers.get(receiver)
        if name is not None:
            return name
        slot = receiver - 0xFFFF0000
        return "_client%d" % slot if 1 <= slot <= 255 else HOST_NAME

    def send(self, env_bytes):
        """Publish one envelope to its receiver's inbox (QoS 1; resent after a reconnect)."""
        receiver = env_bytes[12] | env_bytes[13] << 8 | env_bytes[14] << 16 | env_bytes[15] << 24
        if receiver == E.BROADCAST:
            topic = self.t.broadcast(self.name)
        else:
            topic = self.t.inbox(safe_segment(self.peer_name(receiver)), self.name)
        while True:
            try:
                self.client.publish(topic, env_bytes, qos=1)
                break
            except (OSError, IndexError):
                self.reconnect()
        self.stats.sent += 1
        self.last_tx = time.time()

    # ----------------------------------------------------------------- input
    def _on_msg(self, topic, msg):
        if topic == self.t.control().encode():
            if msg == b"stop":
                self.running = False
            return
        self.stats.received += 1
        self.inbox.append(msg)

    def poll(self, timeout_ms=1000):
        """Wait up to ``timeout_ms`` for a packet, read it, hand queued envelopes to the node, keep alive."""
        try:
            if self.poller.poll(timeout_ms):
                self.client.wait_msg()
            if self.keepalive and time.time() - self.last_tx >= self.keepalive / 2:
                self.client.ping()
                self.stats.pings += 1
                self.last_tx = time.time()
        except (OSError, IndexError):
            self.reconnect()
        while self.inbox and self.node is not None:
            self.node.handle(self.inbox.pop(0))
        if self.status is not None and self.connected and time.time() - self.last_status >= self.status_interval:
            self.publish_status()

    def publish_status(self):
        """Publish the status record (retained, QoS 1) on this node's status topic."""
        self.last_status = time.time()
        try:
            self.client.publish(self.t.status(self.name), self.status(), retain=True, qos=1)
        except (OSError, IndexError):
            self.reconnect()

    def start(self, node):
        """Attach ``node`` and connect (retrying while the broker is unreachable)."""
        self.node = node
        try:
            self.connect()
        except (OSError, IndexError):
            self.reconnect()

    def serve(self, node=None):
        """Dispatch until a b"stop" on the control topic, then announce ``down`` and disconnect."""
        if node is not None and not self.connected:
            self.start(node)
        while self.running:
            self.poll(1000)
        try:
            self.client.publish(self.t.presence(self.name), PRESENCE_DOWN, retain=True, qos=1)
            self.client.disconnect()
        except (OSError, IndexError):
            pass
