"""MQTT transport (paho-mqtt 2.x): one envelope per message, one client per node.

URL: ``mqtt://[user[:password]@]host[:port][,host[:port]...][?options]`` or
``mqtts://...`` (TLS, default port 8883). Several hosts name the members of one
clustered broker (``bb-edge broker --kind rabbitmq``): the client connects to the
first and, whenever its member goes away or refuses it, reconnects to the next,
with the same client id and persistent session, so the queue the cluster kept
for it is delivered there (a redelivered envelope is dropped by the engine's
``(sender, seq)`` filter as from any broker). Options:

==================  ==========================================================
``creds=FILE``      JSON ``{name: password}`` (``bb-edge broker`` writes it);
                    the username is the node name unless the URL gives one
``ca=FILE``         CA bundle for TLS (``mqtts``); system CAs otherwise
``cert=``/``key=``  client certificate and key (TLS)
``insecure=1``      do not verify the broker's host name (TLS)
``qos=0|1``         QoS of envelopes (default 1)
``prefix=bb``       first topic segment
``keepalive=10``    seconds; a dead node's last will fires after 1.5x this
``clean=0``         1 for a clean session (nothing queued while away)
``inflight=100``    QoS-1 messages in flight per client
``connect_timeout`` seconds :meth:`MqttTransport.wait_connected` waits by
                    default (30); ``bb-edge node`` exits non-zero after it
``reconnect=A,B``   back-off between connection attempts, seconds: the first
                    retry after A, doubling up to B (default 0.05,2; the very
                    first attempt is immediate); ``bb-edge node
                    --reconnect-backoff A,B`` sets it. Each wait is jittered
                    (a random half to whole of it), and a connection lost
                    within ``STABLE_S`` of its CONNACK (e.g. RabbitMQ closing
                    it for a duplicate client id) starts the next wait from
                    double the last one, not from A
==================  ==========================================================

Topics are laid out by :class:`bb_edge.wire.topics.Topics`. The session is
persistent (``clean_session=False``, client id = node name), so a node that
reconnects, or restarts, receives what the broker queued for it. Inbound
messages are acknowledged by hand (paho ``manual_ack``): the transport passes
an ``ack`` to ``deliver`` and the host loop calls it after the engine's
``poll`` applied the envelope (``deliver_inline``: the host loop runs that step
on paho's network thread, inside ``on_message``; an ack from an earlier connection
is not sent: the broker redelivers that message anyway). After
:meth:`MqttTransport.stop_inbound` messages are left unacknowledged and the
broker redelivers them to the node's next session. QoS-1 redelivery can
duplicate an envelope: the engine's ``(sender, seq)`` filter drops it
(``DuplicateDropped``). An envelope whose header ``sender`` is not the node
named in its topic is counted (``stats.spoofed``), reported as an
:class:`~bb_edge.adapters.transports.types.Impostor` event, logged once per
topic sender and dropped (acknowledged) here.

Why one file: the URL options above are the transport's whole configuration; MqttConfig parses them and
MqttTransport is the one paho client they configure (callbacks, acks, publish accounting), so a reader
finds every knob next to what it changes.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import logging
import random
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from bb_edge.adapters.transports.types import AckFn, DeliverFn, EventFn, Impostor, PeerFn, SessionReset
from bb_edge.deployment.clients import client_ids
from bb_edge.errors import BBError
from bb_edge.wire.envelope import BROADCAST, peek_sender
from bb_edge.wire.topics import Topics

PRESENCE_UP = b"up"
_PUBLISH, _DISCONNECT = 0x30, 0xE0  # MQTT packet types (high nibble of the first byte)
PRESENCE_DOWN = b"down"
#: seconds a connection must stay up before its loss restarts the reconnect back-off from its minimum (why:
#: RabbitMQ registers each CONNECT's client id in one cluster-wide Raft log; a registration applied late
#: closes the newer connection, and a client that reconnects at once after each such kick feeds the log more)
STABLE_S = 5.0

log = logging.getLogger("bb_edge.mqtt")


class MqttError(BBError):
    """The MQTT transport could not connect or was refused."""

    fix = 'start a broker (`bb-edge broker DIR`) or check HOST:PORT and credentials in the URL'


#: the query options an mqtt:// URL may carry (anything else is a typo and refused)
URL_OPTIONS = frozenset({"ca", "cert", "key", "creds", "insecure", "clean", "prefix", "qos", "keepalive",
                         "inflight", "connect_timeout", "reconnect"})

def parse_backoff(text: str) -> tuple[float, float]:
    """``"MIN,MAX"`` seconds of reconnect back-off (0 < MIN <= MAX <= 3600); MqttError saying the form."""
    lo, sep, hi = text.partition(",")
    try:
        a, b = float(lo), float(hi if sep else lo)
    except ValueError:
        raise MqttError(f"reconnect back-off {text!r} is not MIN,MAX in seconds (e.g. 0.05,2)") from None
    if not (0 < a <= b <= 3600):
        raise MqttError(f"reconnect back-off {text!r}: need 0 < MIN <= MAX <= 3600 seconds (e.g. 0.05,2)")
    return a, b


def _member(text: str, url: str, form: str, default_port: int) -> tuple[str, int]:
    """``(host, port)`` of one member ``HOST[:PORT]`` / ``[V6]:PORT`` of a URL; MqttError naming it."""
    u = urlsplit(f"mqtt://{text}")
    try:
        host, port = u.hostname, u.port
    except ValueError:
        raise MqttError(f"{url!r}: member {text!r} has a bad port (give 1..65535); write it as {form}") from None
    if not text or not host:
        raise MqttError(f"{url!r}: an empty member in the host list; write it as {form}")
    return host, port or default_port


@dataclass
class MqttConfig:
    """Broker address, security and session settings (parsed from a transport URL)."""

    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    ca: str | None = None
    cert: str | None = None
    key: str | None = None
    insecure: bool = False
    username: str | None = None
    password: str | None = None
    creds: str | None = None
    qos: int = 1
    prefix: str = "bb"
    keepalive: int = 10
    clean: bool = False
    inflight: int = 100
    connect_timeout: float = 30.0
    reconnect_min: float = 0.05
    reconnect_max: float = 2.0
    members: list[tuple[str, int]] = field(default_factory=list)

    @classmethod
    def from_url(cls, url: str) -> MqttConfig:
        """Parse ``mqtt://`` / ``mqtts://`` URLs (see the module docstring)."""
        scheme, sep, rest = url.partition("://")
        if not sep or scheme not in ("mqtt", "mqtts"):
            raise MqttError(f"not an MQTT URL: {url!r} (use mqtt://HOST:PORT or mqtts://HOST:PORT)")
        form = "mqtt://HOST:PORT[,HOST:PORT...][?creds=FILE] or mqtts://HOST:PORT[?ca=FILE...]"
        tls = scheme == "mqtts"
        netloc = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        userinfo, at, hosts = netloc.rpartition("@")
        members = [_member(h, url, form, 8883 if tls else 1883) for h in hosts.split(",")] if hosts else []
        # the first member stands for all of them in the single-host parser below
        u = urlsplit(f"{scheme}://{userinfo}{at}{hosts.split(',')[0]}{rest[len(netloc):]}")
        if not members or not u.netloc or not u.hostname:
            raise MqttError(f"{url!r} names no broker host; write it as {form}")
        if u.path not in ("", "/") or u.fragment:
            raise MqttError(f"{url!r} has a path {u.path!r}{' and a fragment' if u.fragment else ''}, which an "
                            f"MQTT URL does not take; write it as {form}")
        try:
            q = {k: v[-1] for k, v in parse_qs(u.query, keep_blank_values=True, strict_parsing=bool(u.query)).items()}
        except ValueError as exc:
            raise MqttError(f"bad query in {url!r} ({exc}); write options as ?key=value&key=value") from None
        unknown = sorted(set(q) - URL_OPTIONS)
        if unknown:
            raise MqttError(f"{url!r}: unknown option {', '.join(unknown)}; MQTT URLs take "
                            f"{', '.join(sorted(URL_OPTIONS))}")
        tls = u.scheme == "mqtts"
        cfg = cls(host=members[0][0], port=members[0][1], tls=tls,
                  username=unquote(u.username) if u.username else None,
                  password=unquote(u.password) if u.password else None, members=members)
        cfg.ca, cfg.cert, cfg.key, cfg.creds = q.get("ca"), q.get("cert"), q.get("key"), q.get("creds")
        cfg.insecure = q.get("insecure", "0") in ("1", "true", "yes")
        cfg.clean = q.get("clean", "0") in ("1", "true", "yes")
        cfg.prefix = q.get("prefix", cfg.prefix)
        try:
            cfg.qos = int(q.get("qos", cfg.qos))
            cfg.keepalive = int(q.get("keepalive", cfg.keepalive))
            cfg.inflight = int(q.get("inflight", cfg.inflight))
            cfg.connect_timeout = float(q.get("connect_timeout", cfg.connect_timeout))
        except ValueError as exc:
            raise MqttError(f"bad number in {url!r}: {exc}") from exc
        if cfg.qos not in (0, 1):
            raise MqttError(f"qos must be 0 or 1, not {cfg.qos}")
        if "reconnect" in q:
            cfg.reconnect_min, cfg.reconnect_max = parse_backoff(q["reconnect"])
        return cfg

    def for_node(self, name: str) -> MqttConfig:
        """This config with the credentials of ``name`` (from ``creds=`` unless the URL has a user)."""
        if self.username is not None:
            return replace(self)
        password = self.password
        if self.creds:
            try:
                table = json.loads(open(self.creds).read())
            except (OSError, ValueError) as exc:
                raise MqttError(f"cannot read credentials {self.creds}: {exc}") from exc
            if name not in table:
                raise MqttError(f"{self.creds} has no password for {name!r}")
            password = table[name]
        return replace(self, username=name if (password is not None) else None, password=password)


    def secure(self, client: paho.Client) -> None:
        """Give a paho ``client`` this config's user/password and, for ``mqtts``, its TLS settings."""
        if self.username is not None:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(ca_certs=self.ca, certfile=self.cert, keyfile=self.key,
                           cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
            if self.insecure:  # mqtts with a self-signed broker certificate, by the user's choice
                client.tls_insecure_set(True)

@dataclass
class MqttStats:
    """Counters of one MQTT transport."""

    sent: int = 0
    confirmed: int = 0
    received: int = 0
    spoofed: int = 0
    foreign: int = 0
    connects: int = 0
    disconnects: int = 0
    session_resets: int = 0
    refused: list[str] = field(default_factory=list)
    subscribe_failures: list[str] = field(default_factory=list)


def _accepts_ack(fn: Any) -> bool:
    """Whether a deliver callback takes the third ``ack`` argument (callbacks from before it do not)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    if any(p.kind == p.VAR_POSITIONAL for p in params) or any(p.name == "ack" for p in params):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                  and p.default is p.empty]
    return len(positional) >= 3


def _no_delay(client: paho.Client, userdata: Any, sock: Any) -> None:
    """TCP_NODELAY on the broker connection (paho leaves Nagle on).

    Why: a node sends its output PUBLISH and then the PUBACK of what it received; with Nagle the small
    second packet waits for the broker's delayed ACK of the first (up to 40 ms on Linux), on every hop of
    every token. Measured on loopback: QoS-1 round trip 47 ms -> 0.4 ms.
    """
    with contextlib.suppress(OSError, AttributeError):  # a websocket wrapper or a closed socket: keep as is
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class MqttTransport:
    """One node's MQTT client (implements :class:`bb_edge.adapters.fleet.hostloop.Transport`)."""

    #: a host loop may step its engine inside ``deliver`` (paho's network thread): what the step publishes
    #: and acknowledges is written by the same thread once ``on_message`` returns, with no wake-up of another
    deliver_inline = True

    def __init__(self, config: MqttConfig, deployment: str, node: str, ids: dict[str, int]) -> None:
        self.cfg = config.for_node(node)
        self.node = node
        self.topics = Topics(deployment, self.cfg.prefix)
        # clients (bb_edge.deployment.clients) may send graph inputs; the engine checks the request is theirs
        self.ids = {**client_ids(), **dict(ids)}
        self.stats = MqttStats()
        self.peers_up: dict[str, bool] = {}
        self._deliver: DeliverFn | None = None
        self._on_peer: PeerFn | None = None
        self._on_control: Any = None
        self._on_event: EventFn | None = None
        self._takes_ack = False
        self._generation = 0  # connection number: a held ack is only valid on the connection it came in on
        self._logged: set[tuple[str, int]] = set()
        self._inbound = True
        self._connected = threading.Event()
        # publish/PUBACK accounting without a Condition per message (measured: ~4 us of ~90 us per 1 KiB
        # envelope): a plain Lock counts publishes, the network thread alone counts PUBACKs
        # (stats.confirmed), and the Condition is touched only while flush() waits (_waiters > 0)
        self._count_lock = threading.Lock()
        self._published = 0
        self._lock = threading.Condition()
        self._waiters = 0
        self._closed = False
        self._net_thread = -1
        self._topic_cache: dict[str, str] = {}
        self._parsed: dict[str, tuple[str, str, str] | None] = {}  # inbound topic -> Topics.parse (a few per peer)
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=node, clean_session=self.cfg.clean,
                        protocol=paho.MQTTv311, manual_ack=True)
        self.cfg.secure(c)
        c.will_set(self.topics.presence(node), PRESENCE_DOWN, qos=1, retain=True)
        self._rng = random.Random()  # jitter: seeded from the OS, so clients that lost a member together differ
        self._backoff = self.cfg.reconnect_min
        self._up_at: float | None = None  # monotonic time of the last CONNACK accepted
        c.reconnect_delay_set(self._jittered(self._backoff), self.cfg.reconnect_max)  # type: ignore[arg-type]
        c.max_inflight_messages_set(self.cfg.inflight)
        c.max_queued_messages_set(0)
        self._member = 0  # index into cfg.members of the member this client connects to
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_connect_fail = lambda client, userdata: self._next_member()
        c.on_message = self._on_message
        c.on_publish = self._on_publish
        c.on_subscribe = self._on_subscribe
        c.on_socket_open = _no_delay
        self.client = c

    # ---------------------------------------------------------- callbacks

    def _next_member(self) -> None:
        """Point the client at the next member of a clustered broker (no-op for a single-host URL).

        paho reconnects to ``_host``/``_port`` from its network thread; its public setters refuse while the
        socket is not fully closed, and this runs in that thread between two attempts, so the fields are set
        directly.
        """
        members = self.cfg.members
        if len(members) > 1 and not self._closed:
            self._member = (self._member + 1) % len(members)
            self.client._host, self.client._port = members[self._member]  # type: ignore[attr-defined]

    def _jittered(self, delay: float) -> float:
        """A random half to whole of ``delay`` (never below the URL's minimum)."""
        return max(self.cfg.reconnect_min, delay * (0.5 + 0.5 * self._rng.random()))

    @property
    def member(self) -> tuple[str, int]:
        """``(host, port)`` of the member this client is (or will next be) connected to."""
        return self.cfg.members[self._member] if self.cfg.members else (self.cfg.host, self.cfg.port)

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if rc.is_failure:
            self.stats.refused.append(str(rc))
            self._next_member()  # a member without a majority refuses ("Server unavailable"): try the next
            return
        self.stats.connects += 1
        self._generation += 1
        self._up_at = time.monotonic()
        if self.stats.connects > 1 and not self.cfg.clean and not getattr(flags, "session_present", True):
            # our persistent session vanished while we were away (a clean-session connect with our
            # credentials, or a broker that lost its database): say so, the host's retry recovers the queue
            self.stats.session_resets += 1
            detail = "the broker had no session on reconnect: messages queued for this node were discarded"
            log.warning("%s: %s", self.node, detail)
            if self._on_event is not None:
                self._on_event(SessionReset(self.node, detail))
        qos = self.cfg.qos
        client.subscribe([(self.topics.inbox_filter(self.node), qos), (self.topics.presence("+"), 1),
                          (self.topics.broadcast("+"), qos), (self.topics.control("+"), 1)])
        self.publish(self.topics.presence(self.node), PRESENCE_UP, qos=1, retain=True)
        self._net_thread = threading.get_ident()  # paho's network thread (on_connect runs on it)
        self._connected.set()

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        self.stats.disconnects += 1
        self._connected.clear()
        # paho restarts its back-off at its minimum after every CONNACK: this client sets that minimum, from
        # the floor after a connection that held, doubling after one closed within seconds
        lived = time.monotonic() - self._up_at if self._up_at is not None else 0.0
        self._backoff = (self.cfg.reconnect_min if lived >= STABLE_S
                         else min(self._backoff * 2.0, self.cfg.reconnect_max))
        client.reconnect_delay_set(self._jittered(self._backoff), self.cfg.reconnect_max)  # type: ignore[arg-type]
        self._next_member()  # its member went away: the next one holds the same session (quorum queues)

    def _on_subscribe(self, client: paho.Client, userdata: Any, mid: int, codes: Any, props: Any) -> None:
        for code in codes:
            if code.is_failure:
                self.stats.subscribe_failures.append(str(code))

    def _on_publish(self, client: paho.Client, userdata: Any, mid: int, rc: Any, props: Any) -> None:
        self.stats.confirmed += 1  # paho runs on_publish under its callback mutex: one writer at a time
        if self._waiters:  # read after the count: flush() registers before it reads the count
            with self._lock:
                self._lock.notify_all()

    @property
    def _pending(self) -> int:
        """Publishes not yet confirmed by a PUBACK (QoS 0 ones confirm at once)."""
        return self._published - self.stats.confirmed

    def _ack_fn(self, mid: int, qos: int) -> AckFn:
        gen = self._generation

        def ack() -> None:
            # after a reconnect the broker resends unacknowledged messages (and may reuse the mid)
            if gen == self._generation and not self._closed:
                self.client.ack(mid, qos)
        return ack

    def _on_message(self, client: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
        if not self._inbound:
            return  # unacknowledged: the broker keeps it for the next session
        topic = msg.topic
        try:
            parsed = self._parsed[topic]
        except KeyError:
            parsed = self.topics.parse(topic)
            if len(self._parsed) < 4096:  # foreign topics cannot grow it without bound
                self._parsed[topic] = parsed
        payload = msg.payload
        qos = msg.qos
        if parsed is None:
            self.stats.foreign += 1
        elif parsed[0] in ("in", "bcast"):
            src = parsed[2] if parsed[0] == "in" else parsed[1]
            if parsed[0] == "in" and parsed[1] != self.node:
                self.stats.foreign += 1
            elif src != self.node and self._envelope(src, bytes(payload), msg.mid if qos > 0 else -1, qos):
                return  # handed over with its ack: the receiver confirms it once applied
        elif parsed[0] == "presence":
            name = parsed[1]
            up = payload == PRESENCE_UP
            if name != self.node and self.peers_up.get(name) != up:
                self.peers_up[name] = up
                if self._on_peer is not None:
                    self._on_peer(name, up, "" if up else "last will / offline")
        elif parsed[0] == "ctl" and self._on_control is not None:
            self._on_control(bytes(payload), parsed[1])  # the writer the ACL pinned to this topic
        if qos > 0:
            client.ack(msg.mid, qos)

    def _envelope(self, src: str, payload: bytes, mid: int, qos: int) -> bool:
        """Hand one envelope to ``deliver`` (True) or drop an impostor (False: the caller acks it).

        ``mid`` is the message id to acknowledge (-1 for QoS 0); the ``ack`` closure is made only for a
        ``deliver`` that takes it.
        """
        want = self.ids.get(src)
        sender = peek_sender(payload)
        if want is None or sender != want:
            self.stats.spoofed += 1
            detail = (f"topic names {src!r} (id {want}) but the header says sender {sender}"
                      if sender >= 0 else f"{len(payload)} bytes is shorter than an envelope header")
            if self._on_event is not None:
                self._on_event(Impostor(src, sender, detail))
            key = (src, sender if sender in self.ids.values() else -2)  # garbage senders share one line
            if key not in self._logged:
                self._logged.add(key)
                log.warning("%s: dropped an impostor envelope: %s (logged once per sender)", self.node, detail)
            return False
        self.stats.received += 1
        if self._deliver is None:
            return False
        if self._takes_ack:
            self._deliver(src, payload, self._ack_fn(mid, qos) if mid >= 0 else None)
            return True
        self._deliver(src, payload)  # an older two-argument callback: confirmed once handed over
        return False

    def set_event_sink(self, on_event: EventFn | None) -> None:
        """Report refusals seen by the transport itself (impostors) as typed events to ``on_event``."""
        self._on_event = on_event

    # ----------------------------------------------------------- transport

    def open(self, deliver: DeliverFn, on_peer: PeerFn | None = None, on_control: Any = None) -> None:
        """Connect (asynchronously, reconnecting with back-off) and start the network thread."""
        self._deliver, self._on_peer, self._on_control = deliver, on_peer, on_control
        self._takes_ack = _accepts_ack(deliver)
        self.client.connect_async(self.cfg.host, self.cfg.port, keepalive=self.cfg.keepalive)
        self.client.loop_start()

    def wait_connected(self, timeout: float | None = None) -> None:
        """Block until the first connection is up; MqttError if refused or ``timeout`` passes.

        ``timeout`` defaults to the URL's ``connect_timeout``.
        """
        timeout = self.cfg.connect_timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while not self._connected.wait(0.05):
            if len(self.stats.refused) >= max(1, len(self.cfg.members)):  # every member said no
                raise MqttError(f"{self.node}: broker refused the connection: {self.stats.refused[-1]}")
            if time.monotonic() > deadline:
                where = ",".join(f"{h}:{p}" for h, p in self.cfg.members) or f"{self.cfg.host}:{self.cfg.port}"
                raise MqttError(f"{self.node}: no connection to {where} in {timeout}s")

    def topic_for(self, peer: str, receiver: int) -> str:
        """Topic an envelope for ``peer`` is published on."""
        if receiver == BROADCAST or peer == "*":
            return self.topics.broadcast(self.node)
        t = self._topic_cache.get(peer)
        if t is None:
            t = self._topic_cache[peer] = self.topics.inbox(peer, self.node)
        return t

    def send(self, peer: str, receiver: int, data: bytes) -> None:
        """Publish one envelope (queued by paho while disconnected, resent after reconnect)."""
        self.stats.sent += 1
        # publish() inlined with the cached inbox topic: this runs once per envelope
        topic = self._topic_cache.get(peer) if receiver != BROADCAST else None
        if topic is None:
            topic = self.topic_for(peer, receiver)
        with self._count_lock:
            self._published += 1
        self.client.publish(topic, data, qos=self.cfg.qos)
        if self._net_thread == threading.get_ident():
            self._write_now()

    def _write_now(self) -> None:
        """On paho's network thread (an inline step inside ``on_message``): write what is queued at once.

        Why: paho only queues a publish made inside a callback; it is written once ``on_message`` returns
        and the loop's next ``select`` runs, after the rest of the step (the retransmit copy, the PUBACK,
        the events). Measured (bench/llm_hop_trace.py, 3 nodes): publish -> socket write ~200 us a hop
        idle, ms under load, against ~20 us written here. Only this thread takes packets off paho's queue
        (other threads append), so it writes the queue's head while it is safe to: a QoS-0 PUBLISH or a
        DISCONNECT runs paho callbacks under the callback lock ``on_message`` holds, and a full socket
        or a lost connection is left to paho's loop, which handles it outside any callback.
        """
        c = self.client
        out = getattr(c, "_out_packet", None)  # paho 2.x's queue of outbound packets
        if out is None or not hasattr(c, "_sock_send"):  # another paho: its own loop writes it, as before
            return
        written = False
        while out:
            packet = out[0]
            cmd = packet["command"] & 0xF0
            if cmd == _DISCONNECT or (cmd == _PUBLISH and packet["qos"] == 0):
                break
            try:
                n = c._sock_send(packet["packet"][packet["pos"]:])
            except (OSError, AttributeError, ValueError):  # BlockingIOError included: the loop writes it
                break
            packet["pos"] += n
            packet["to_process"] -= n
            if packet["to_process"] > 0:
                break
            out.popleft()
            written = True
        if written:
            with c._msgtime_mutex:  # keepalive: paho sends a PINGREQ only after a quiet keepalive period
                c._last_msg_out = paho.time_func()

    def publish(self, topic: str, data: bytes, qos: int | None = None, retain: bool = False) -> None:
        """Publish raw bytes on ``topic``, tracking confirmation for :meth:`flush`."""
        with self._count_lock:
            self._published += 1
        self.client.publish(topic, data, qos=self.cfg.qos if qos is None else qos, retain=retain)

    def publish_status(self, payload: bytes) -> None:
        """Publish this node's status record (retained, QoS 1) on its status topic (adapters/ops/telemetry.py)."""
        if self._connected.is_set():  # a stale record is worse than none: skip while disconnected
            self.publish(self.topics.status(self.node), payload, qos=1, retain=True)

    def control(self, payload: bytes) -> None:
        """Publish on this identity's own control topic (only ``_host`` and clients may: the ACL drops it
        for nodes; a node obeys ``stop`` only from ``_host``)."""
        self.publish(self.topics.control(self.node), payload, qos=1)

    def stop_inbound(self) -> None:
        """Stop delivering (and acknowledging) inbound envelopes."""
        self._inbound = False

    def flush(self, timeout: float) -> int:
        """Wait for PUBACKs of everything published; return how many are still missing."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._waiters += 1
            try:
                while self._pending > 0:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._lock.wait(min(left, 0.25))  # bounded: a notify racing the registration is not lost
            finally:
                self._waiters -= 1
            return max(self._pending, 0)

    def close(self, announce: bool = True) -> None:
        """Announce ``down`` (retained), disconnect and stop the network thread."""
        if self._closed:
            return
        self._closed = True
        if announce and self._connected.is_set():
            self.publish(self.topics.presence(self.node), PRESENCE_DOWN, qos=1, retain=True)
            self.flush(2.0)
        self.client.disconnect()
        self.client.loop_stop()
