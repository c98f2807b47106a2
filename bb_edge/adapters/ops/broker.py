"""Mosquitto for a deployment: generated config, passwords, ACL, and the broker process.

:func:`write_broker_files` writes everything a Mosquitto 2.x broker needs to
carry one deployment under the topic layout of :mod:`bb_edge.wire.topics`:

- ``mosquitto.conf``: one loopback (or given) listener, persistence on (so a
  node's queued QoS-1 messages survive a broker restart), no anonymous access,
  ``use_username_as_clientid`` so a client can never take over another node's
  session, and size limits from the deployment (:class:`QueueLimits`:
  ``message_size_limit`` from the largest envelope plus headroom, per-client
  ``max_queued_messages`` / ``max_queued_bytes``);
- ``passwd``: one user per identity, PBKDF2-SHA512 hashes in Mosquitto's
  ``$7$`` format (no ``mosquitto_passwd`` binary needed);
- ``acl``: each node may publish only as itself (``in/<dst>/<self>`` for the
  peers it has an edge with, its own presence and broadcast topics) and read
  only its own inbox (plus presence, broadcast and control);
- ``credentials.json``: the plaintext passwords, for ``?creds=FILE`` in a
  transport URL (mode 0600).

The identities are the endpoints (nodes and ``_host``), the infrastructure
table :data:`INFRA_IDENTITIES` (``_status`` ...) and one ``_bridge_<site>`` per
accepted site. A *site* broker (``bridge_to``) holds only its own nodes'
identities, and its bridge carries only their topics (:func:`bridge_topics`).
Every name is an identifier (:mod:`bb_edge.names`) and every value goes
through :func:`bb_edge.names.config_value`; nothing is written until all of
it was generated.

Why one file: the identities, their ACL rules, the bridge's topics and the core's rules for a bridge are
one generator that must agree with itself; an extra identity (a deployer, a request client) is one entry of
:data:`INFRA_IDENTITIES`, and its passwd line, ACL and credentials follow from it.

:class:`Broker` starts ``mosquitto -c`` on those files, waits until the port
accepts connections, and stops (or restarts on the same port) by pid.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bb_edge.deployment.clients import DEFAULT_CLIENTS, client_ids
from bb_edge.deployment.manifest import DEPLOY_NAME, HOST_NAME, Deployment, EdgeSpec, IOSpec
from bb_edge.errors import BBError
from bb_edge.names import check_name, config_value
from bb_edge.wire.topics import Topics

STATUS_USER = "_status"  # read-only user of ``bb-edge status``


class BrokerError(BBError):
    """Mosquitto could not be configured, started or stopped."""

    fix = 'check that mosquitto is installed and the port is free (see docs/transports.md)'


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def password_hash(password: str, salt: bytes | None = None, iterations: int = 101) -> str:
    """Mosquitto 2.x ``$7$`` password hash (PBKDF2-HMAC-SHA512, 12-byte salt)."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def deployment_peers(dep: Deployment) -> dict[str, set[str]]:
    """For every endpoint (nodes and ``_host``), the endpoints it may send to.

    A node may send to the nodes it shares an edge with (either direction, so
    a PONG can answer a PING) and to the host if it owns a graph input or
    output; the host may send to every input/output owner. A learning node
    sends as its role allows (:func:`bb_edge.deployment.learning.learning_peers`:
    a client to its server only).
    """
    peers: dict[str, set[str]] = {n: set() for n in dep.node_names}
    peers[HOST_NAME] = set()
    if "learning" in dep.extra:  # a learning deployment names its nodes in its strategy (server, c0.., n0..)
        from bb_edge.deployment.learning import learning_peers

        for n, sends in learning_peers(dict(dep.extra["learning"])).items():
            peers.setdefault(n, set()).update(sends)
    for e in dep.edges:
        peers[e.src].add(e.dst)
        peers[e.dst].add(e.src)
    for io in list(dep.inputs) + list(dep.outputs):
        peers[io.node].add(HOST_NAME)
        peers[HOST_NAME].add(io.node)
        for c in client_ids(DEFAULT_CLIENTS):  # clients of a running fleet (bb-edge request) reach the same nodes
            peers.setdefault(c, set()).add(io.node)
            peers[io.node].add(c)
    # a standby talks to whoever its stage talks to, and they to it (stage failover)
    for stage, nodes in dep.standby.items():
        for sb in nodes:
            for other in list(peers.get(stage, ())):
                peers[sb].add(other)
                peers[other].add(sb)
        # a stateful stage's group (the stage and its standbys) streams state deltas to each other
        group = [stage, *nodes]
        for a in group:
            peers[a].update(b for b in group if b != a)
    # program updates (bb-edge deploy, docs/wire.md): with an ota key the host reaches every node and back
    if "ota" in dep.extra:
        for n in dep.node_names:
            peers[HOST_NAME].add(n)
            peers[n].add(HOST_NAME)
            peers[n].add(DEPLOY_NAME)  # a node answers the deployer (INFRA_IDENTITIES gives _deploy its own entry)
    return peers


Rule = tuple[str, str]  # (access: "read" | "write" | "readwrite", topic)


def node_rules(me: str, allowed: set[str], topics: Topics) -> list[Rule]:
    """What endpoint ``me`` (a node or ``_host``) may read and write: its own topics, its peers' inboxes."""
    rules: list[Rule] = [("write", topics.inbox(dst, me)) for dst in sorted(allowed)]
    rules += [("read", topics.inbox_filter(me)), ("write", topics.presence(me)), ("read", topics.presence("+")),
              ("write", topics.broadcast(me)), ("read", topics.broadcast("+")),
              # control is per writer: the host and each request client write only their own ctl topic (a
              # node obeys stop only from ctl/_host, retry/done only for ids the writer owns); all read ctl/+
              ("read", topics.control("+")),
              *([("write", topics.control(me))] if me.startswith((HOST_NAME, "_client")) else []),
              ("write", topics.status(me)), ("read", topics.status("+"))]
    return rules


def _status_rules(dep: Deployment, topics: Topics) -> list[Rule]:
    """The operator's view (bb-edge status): presence and status records of any deployment, writes nothing."""
    return [("read", f"{topics.prefix}/+/presence/+"), ("read", f"{topics.prefix}/+/status/+")]


def _deploy_rules(dep: Deployment, topics: Topics) -> list[Rule] | None:
    """The deployer (bb-edge deploy), for a deployment that takes updates (an ``ota`` section): its own
    identity, so it never displaces the host. It writes only to the nodes' inboxes, reads only its own inbox
    and the HELLO broadcasts (program hashes)."""
    if "ota" not in dep.extra:
        return None
    return [*(("write", topics.inbox(n, DEPLOY_NAME)) for n in dep.node_names),
            ("read", topics.inbox_filter(DEPLOY_NAME)), ("write", topics.presence(DEPLOY_NAME)),
            ("read", topics.broadcast("+"))]


#: infrastructure identities beyond the nodes and ``_host``: one entry each (user -> its ACL rules, or None
#: when the deployment has no use for it). An identity here gets a password, a passwd line and its rules.
INFRA_IDENTITIES: dict[str, Callable[[Deployment, Topics], list[Rule] | None]] = {
    STATUS_USER: _status_rules,
    DEPLOY_NAME: _deploy_rules,
}


def bridge_rules(dep: Deployment, topics: Topics, nodes: Sequence[str]) -> list[Rule]:
    """The core's ACL for the bridge of a site serving ``nodes``: exactly those nodes' own topics.

    It may write what those nodes may write (their peers' inboxes, their presence, broadcast and status)
    and read what they may read (their inboxes, presence, broadcast, control). Control is read only: a
    ``stop``, an OTA offer or a retry comes from the core's host or deployer, never through a bridge.
    """
    peers = deployment_peers(dep)
    rules: list[Rule] = []
    for me in nodes:
        rules += [(a, t) for a, t in node_rules(me, peers[me], topics)
                  if a == "write" or t != topics.status("+")]
    # control never comes through a bridge: it only reads ctl/+
    return [(a, t) for a, t in rules if a == "read" or not t.startswith(topics.control(""))]


def acl_rules(dep: Deployment, topics: Topics, only: Sequence[str] | None = None,
              bridges: Mapping[str, Sequence[str]] | None = None) -> dict[str, list[Rule]]:
    """Every user's ACL rules: the endpoints (``only`` those nodes on a site broker), then infrastructure."""
    peers = deployment_peers(dep)
    users = sorted(peers) if only is None else sorted(only)
    out = {me: node_rules(me, peers[me], topics) for me in users}
    if "learning" in dep.extra:  # least privilege per learning role: a client under a server never broadcasts
        from bb_edge.deployment.learning import learning_broadcasters, learning_clients

        quiet = set(learning_clients(dict(dep.extra["learning"]))) - learning_broadcasters(dict(dep.extra["learning"]))
        for me in quiet & set(out):
            out[me] = [r for r in out[me] if r != ("write", topics.broadcast(me))]
    if only is None:
        out.update({user: rules for user, make in INFRA_IDENTITIES.items()
                    if (rules := make(dep, topics)) is not None})
    for site, nodes in sorted((bridges or {}).items()):
        out[bridge_user(site)] = bridge_rules(dep, topics, nodes)
    return out


def acl_text(dep: Deployment, topics: Topics, only: Sequence[str] | None = None,
             bridges: Mapping[str, Sequence[str]] | None = None) -> str:
    """The Mosquitto ACL file for ``dep`` (see the module docstring), every value through config_value."""
    lines = [f"# bb-edge ACL for deployment {config_value(dep.name, 'acl_user', 'deployment')}; generated, "
             f"do not edit", ""]
    for user, rules in acl_rules(dep, topics, only, bridges).items():
        lines.append(f"user {config_value(user, 'acl_user', 'user')}")
        lines += [f"topic {access} {config_value(topic, 'acl_topic', 'topic')}" for access, topic in rules]
        lines.append("")
    return "\n".join(lines)


def passwd_text(passwords: Mapping[str, str]) -> str:
    """Mosquitto's password file: one ``user:$7$...`` line per identity."""
    return "".join(f"{config_value(u, 'passwd_user', 'user')}:{password_hash(pw)}\n" for u, pw in passwords.items())


def message_size_limit(dep: Deployment) -> int:
    """The largest MQTT payload the broker accepts: the largest envelope the deployment sends, plus headroom.

    Static edges and graph inputs/outputs give their byte counts (a 25% + 4 KiB headroom over the
    largest, plus the widest envelope header); a deployment whose sizes are not known statically
    (symbolic dims, learning, program updates) falls back to its nodes' ``max_envelope`` limit.
    """
    from bb_edge.engine.engine import Limits
    from bb_edge.wire import envelope as wire

    names = dep.node_names
    if "learning" in dep.extra:
        from bb_edge.deployment.learning import learning_node_names

        names = learning_node_names(dep)
    top = dict(dep.extra.get("limits") or {})
    caps = [Limits.from_manifest(dep.limits_for(n) if n in dep.node_names else top).max_envelope
            for n in names] or [Limits().max_envelope]
    sizes: list[int] = []
    dynamic = "learning" in dep.extra
    tensors: list[EdgeSpec | IOSpec] = [*dep.edges, *dep.inputs, *dep.outputs]
    for x in tensors:
        if any(d is None or d < 0 for d in x.shape):
            dynamic = True
            continue
        n = 1
        for d in x.shape:
            n *= int(d)
        sizes.append(n * _ITEMSIZE.get(x.dtype, 8))
    if dynamic or not sizes:
        return max(caps)
    largest = max(sizes)
    if "ota" in dep.extra:
        largest = max(largest, 64 << 10)  # program update chunks (bb_edge.engine.ota, 16 KiB by default)
    limit = largest + largest // 4 + 4096 + wire.data_offset(wire.MAX_RANK)
    return min(limit, max(caps))


_ITEMSIZE = {"float32": 4, "uint8": 1, "int8": 1, "uint16": 2, "int16": 2, "int32": 4, "int64": 8, "bool": 1,
             "float16": 2, "float64": 8, "uint32": 4, "uint64": 8}


@dataclass
class QueueLimits:
    """Mosquitto's size limits for one deployment (the conf lines of :meth:`conf_lines`)."""

    message_size_limit: int
    max_queued_messages: int
    max_queued_bytes: int

    @classmethod
    def for_deployment(cls, dep: Deployment) -> QueueLimits:
        """Limits from the deployment: the largest envelope, and per client at most 1,000 queued messages
        or 16 of the largest envelopes (at least 1 MiB), never more than the nodes' ingress budget."""
        from bb_edge.engine.engine import Limits

        size = message_size_limit(dep)
        budget = min((Limits.from_manifest(dep.limits_for(n)).ingress_budget for n in dep.node_names),
                     default=Limits().ingress_budget)
        return cls(size, 1000, min(max(16 * size, 1 << 20), budget))

    def conf_lines(self) -> list[str]:
        """``message_size_limit``, ``max_queued_messages``, ``max_queued_bytes`` (per client)."""
        return [f"message_size_limit {self.message_size_limit}", f"max_queued_messages {self.max_queued_messages}",
                f"max_queued_bytes {self.max_queued_bytes}"]


@dataclass
class TlsFiles:
    """Server-side TLS material for the broker listener (PEM paths)."""

    cafile: str
    certfile: str
    keyfile: str


@dataclass
class BrokerFiles:
    """Paths of a generated broker configuration."""

    directory: Path
    conf: Path
    passwd: Path | None
    acl: Path | None
    credentials: Path | None
    port: int
    host: str
    tls: bool = False
    passwords: dict[str, str] = field(default_factory=dict)

    def url(self, user: str | None = None) -> str:
        """The transport URL clients use for this broker (``?creds=`` when passwords exist)."""
        scheme = "mqtts" if self.tls else "mqtt"
        q = f"?creds={self.credentials}" if self.credentials else ""
        auth = f"{user}@" if user else ""
        return f"{scheme}://{auth}{self.host}:{self.port}{q}"


def write_broker_files(
    directory: str | Path,
    dep: Deployment | None = None,
    port: int | None = None,
    host: str = "127.0.0.1",
    prefix: str = "bb",
    persistence: bool = True,
    tls: TlsFiles | None = None,
    passwords: dict[str, str] | None = None,
    max_inflight: int = 100,
    bridge_to: str | None = None,
    site: str = "site",
    accept_bridges: Mapping[str, Sequence[str]] | None = None,
    site_nodes: Sequence[str] | None = None,
) -> BrokerFiles:
    """Write mosquitto.conf (+ passwd, acl, credentials.json when ``dep`` is given).

    Without a deployment the broker is anonymous and unrestricted (benchmarks,
    quick trials). ``bridge_to`` (``mqtt[s]://CORE:PORT?creds=FILE``) makes
    this a *site* broker for ``site_nodes`` only, bridged to a core broker
    (:func:`bridge_text`): its credentials and ACL hold just those nodes.
    ``accept_bridges`` maps each site a *core* broker accepts a bridge from to
    the nodes it serves (a ``_bridge_<site>`` user each, :func:`bridge_rules`).
    Every name is checked (:mod:`bb_edge.names`) and every value written
    through :func:`bb_edge.names.config_value` before any file is written.
    """
    check_name(prefix, "--prefix")
    check_name(site, "--site")
    bridges = {check_name(k, "--accept-bridge"): list(v) for k, v in (accept_bridges or {}).items()}
    if dep is not None:
        check_name(dep.name, "deployment")
        known = set(dep.node_names)
        if "learning" in dep.extra:
            from bb_edge.deployment.learning import learning_node_names

            known |= set(learning_node_names(dep))
        for where, nodes in [("--site-nodes", site_nodes or []), *((f"--accept-bridge {k}", v)
                                                                   for k, v in bridges.items())]:
            ghosts = [n for n in nodes if n not in known]
            if ghosts or (where != "--site-nodes" and not nodes):
                raise BrokerError(f"{where}: {', '.join(ghosts) or 'no nodes'}: give nodes of deployment "
                                  f"{dep.name!r} ({', '.join(sorted(known))})")
    if bridge_to is not None:
        if dep is None:
            raise BrokerError("a bridge carries one deployment's topics: give the deployment")
        if not site_nodes:
            raise BrokerError("--bridge-to needs --site-nodes A,B: the nodes this site serves (its broker holds "
                              "only their credentials)")
    d = Path(directory).resolve()
    port = port if port is not None else free_port(host)
    conf = [
        "# generated by bb-edge (bb_edge/adapters/ops/broker.py)",
        "per_listener_settings false",
        # started as root, mosquitto would drop to user "mosquitto" and lose access to these files
        f"user {config_value(pwd.getpwuid(os.getuid()).pw_name, 'conf', 'user')}",
        f"listener {port} {config_value(host, 'conf', '--host')}",
        f"max_inflight_messages {max_inflight}",
        # small envelopes go out at once: with Nagle a reply waits for the peer's delayed ACK (~40 ms a hop)
        "set_tcp_nodelay true",
        *(QueueLimits.for_deployment(dep).conf_lines() if dep is not None else
          ["max_queued_messages 1000000", "max_queued_bytes 0"]),
        "persistent_client_expiration 1d",
        f"log_dest file {config_value(str(d / 'mosquitto.log'), 'conf', '-o')}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        "connection_messages true",
        "log_timestamp true",
    ]
    if tls is not None:
        conf += [f"cafile {config_value(tls.cafile, 'conf', '--tls-ca')}",
                 f"certfile {config_value(tls.certfile, 'conf', '--tls-cert')}",
                 f"keyfile {config_value(tls.keyfile, 'conf', '--tls-key')}", "tls_version tlsv1.2"]
    if persistence:
        conf += ["persistence true", f"persistence_location {config_value(str(d / 'data'), 'conf', '-o')}/",
                 "persistence_file mosquitto.db", "autosave_interval 30"]
    else:
        conf.append("persistence false")
    files = BrokerFiles(d, d / "mosquitto.conf", None, None, None, port, host, tls is not None)
    texts: dict[Path, str] = {}
    if dep is None:
        conf.append("allow_anonymous true")
    else:
        topics = Topics(dep.name, prefix)
        only = list(site_nodes or []) if bridge_to is not None else None
        rules = acl_rules(dep, topics, only, bridges)
        pw = {u: (passwords or {}).get(u) or secrets.token_urlsafe(18) for u in rules}
        files.passwords = pw
        files.passwd, files.acl, files.credentials = d / "passwd", d / "acl", d / "credentials.json"
        texts[files.passwd] = passwd_text(pw)
        texts[files.acl] = acl_text(dep, topics, only, bridges)
        texts[files.credentials] = json.dumps(pw, indent=1) + "\n"
        conf += ["allow_anonymous false", f"password_file {config_value(str(files.passwd), 'conf', '-o')}",
                 f"acl_file {config_value(str(files.acl), 'conf', '-o')}", "use_username_as_clientid true"]
    if bridge_to is not None and dep is not None:
        conf.append(bridge_text(bridge_to, Topics(dep.name, prefix), site, dep, list(site_nodes or [])))
    texts[files.conf] = "\n".join(conf) + "\n"
    # everything was generated and checked: only now is anything created
    d.mkdir(parents=True, exist_ok=True)
    if persistence:
        (d / "data").mkdir(exist_ok=True)
    for path, text in texts.items():
        secret = path in (files.passwd, files.credentials) or (path == files.conf and bridge_to is not None)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if secret else 0o644)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        if secret:
            os.chmod(path, 0o600)  # also when the file existed with wider permissions
    return files


def bridge_user(site: str) -> str:
    """The core broker's user for the bridge of ``site`` (mosquitto pins client ids to user names)."""
    try:
        return f"_bridge_{check_name(site, 'site')}"
    except BBError as exc:
        raise BrokerError(str(exc)) from None


def bridge_topics(dep: Deployment, topics: Topics, nodes: Sequence[str]) -> list[tuple[str, str]]:
    """``(topic, direction)`` of a site's bridge: only its nodes' own topics cross, control only inwards.

    Out (site -> core): what the site's nodes may write for peers elsewhere, their presence, broadcast and
    status. In (core -> site): their inboxes, every presence and broadcast, and control (issued on the core).
    """
    peers = deployment_peers(dep)
    local = set(nodes)
    out: list[tuple[str, str]] = []
    for me in sorted(local):
        out += [(topics.inbox(dst, me), "out") for dst in sorted(peers[me] - local)]
        out += [(topics.presence(me), "out"), (topics.broadcast(me), "out"), (topics.status(me), "out"),
                (topics.inbox_filter(me), "in")]
    return out + [(topics.presence("+"), "in"), (topics.broadcast("+"), "in"), (topics.control("+"), "in")]


def bridge_text(url: str, topics: Topics, site: str, dep: Deployment, nodes: Sequence[str]) -> str:
    """The mosquitto.conf ``connection`` section bridging this (site) broker to the core at ``url``.

    Only the topics of :func:`bridge_topics` travel, at QoS 1, with a persistent session on both ends
    (``cleansession false``, ``local_cleansession false``), so nothing queued is lost while the link is
    down. The bridge logs in to the core as ``_bridge_<site>`` (``bb-edge broker --accept-bridge
    SITE=NODES`` on the core), whose ACL there allows exactly those topics; its password comes from the
    URL or from the core's ``credentials.json`` (``?creds=``) and is required.
    """
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttError

    user = bridge_user(site)
    try:
        cfg = MqttConfig.from_url(url).for_node(user)
    except MqttError as exc:
        raise BrokerError(f"--bridge-to {url}: {exc}") from exc
    if cfg.password is None:
        raise BrokerError(f"--bridge-to {url.split('?')[0]}: no password for {user}; add ?creds=CORE/credentials.json "
                          f"of a core broker made with --accept-bridge {site}=NODES")
    lines = [
        "",
        f"# bridge: site {site} -> core",
        f"connection bb-{site}",
        f"address {config_value(cfg.host, 'conf', '--bridge-to host')}:{cfg.port}",
        f"remote_clientid {user}",
        f"local_clientid {user}-local",
        "cleansession false",
        "local_cleansession false",
        "try_private true",  # mosquitto to mosquitto: nothing is echoed back over the bridge
        "notifications false",  # no $SYS connection notices: the core's ACL would refuse them
        "restart_timeout 1 10",
        f"keepalive_interval {max(5, cfg.keepalive)}",
        "bridge_protocol_version mqttv311",
        *(f"topic {config_value(t, 'acl_topic', 'topic')} {way} 1" for t, way in bridge_topics(dep, topics, nodes)),
        f"remote_username {user}",
        f"remote_password {config_value(cfg.password, 'conf', 'bridge password')}",
    ]
    if cfg.tls:
        lines.append(f"bridge_cafile {config_value(cfg.ca, 'conf', 'ca')}" if cfg.ca
                     else "bridge_capath /etc/ssl/certs")
        if cfg.insecure:
            lines.append("bridge_insecure true")
    return "\n".join(lines)


def mosquitto_binary() -> str:
    """Path of the mosquitto executable (PATH, then /usr/sbin)."""
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)), None)
    if not found:
        from bb_edge.tools import missing

        raise BrokerError(missing("mosquitto"))
    return found


class Broker:
    """A Mosquitto process on a generated config, managed by pid."""

    def __init__(self, files: BrokerFiles) -> None:
        self.files = files
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def port(self) -> int:
        """The listener port."""
        return self.files.port

    @property
    def pid(self) -> int | None:
        """Pid of the running broker, if any."""
        return self.proc.pid if self.proc is not None and self.proc.poll() is None else None

    def start(self, timeout: float = 10.0) -> Broker:
        """Start mosquitto and wait until it accepts TCP connections."""
        if self.pid is not None:
            return self
        from bb_edge.adapters.ops.ports import check_port_free

        check_port_free(self.files.host, self.files.port)  # else the connect test below reaches the other holder
        self.proc = subprocess.Popen([mosquitto_binary(), "-c", str(self.files.conf)],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise BrokerError(f"mosquitto exited with {self.proc.returncode}: {err.strip()} "
                                  f"(log: {self.files.directory / 'mosquitto.log'})")
            try:
                with socket.create_connection((self.files.host, self.files.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise BrokerError(f"mosquitto did not listen on {self.files.host}:{self.files.port} "
                          f"within {timeout}s")

    def stop(self, timeout: float = 10.0, sig: int = signal.SIGTERM) -> None:
        """Stop the broker by pid (SIGTERM saves the persistence database), then reap it."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            os.kill(proc.pid, sig)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout)
        if proc.stderr is not None:
            proc.stderr.close()

    def restart(self, down_for: float = 0.0) -> None:
        """Stop, optionally stay down for ``down_for`` seconds, start again on the same port."""
        self.stop()
        if down_for:
            time.sleep(down_for)
        self.start()

    def log(self) -> str:
        """The broker's log file so far."""
        p = self.files.directory / "mosquitto.log"
        return p.read_text(errors="replace") if p.exists() else ""

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
