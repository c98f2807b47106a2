"""Mosquitto for a deployment: generated config, passwords, ACL, and the broker process.

:func:`write_broker_files` writes everything a Mosquitto 2.x broker needs to
carry one deployment under the topic layout of :mod:`bb_edge.wire.topics`:

- ``mosquitto.conf``: one loopback (or given) listener, persistence on (so a
  node's queued QoS-1 messages survive a broker restart), no anonymous access,
  ``use_username_as_clientid`` so a client can never take over another node's
  session;
- ``passwd``: one user per node plus ``_host`` (and ``_deploy`` with an ``ota`` section), PBKDF2-SHA512 hashes in
  Mosquitto's ``$7$`` format (no ``mosquitto_passwd`` binary needed);
- ``acl``: each node may publish only as itself (``in/<dst>/<self>`` for the
  peers it has an edge with, its own presence and broadcast topics) and read
  only its own inbox (plus presence, broadcast and control);
- ``credentials.json``: the plaintext passwords, for ``?creds=FILE`` in a
  transport URL. Keep it private (mode 0600).

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bb_edge.deployment.manifest import DEPLOY_NAME, HOST_NAME, Deployment
from bb_edge.errors import BBError
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
    output; the host may send to every input/output owner.
    """
    peers: dict[str, set[str]] = {n: set() for n in dep.node_names}
    peers[HOST_NAME] = set()
    for e in dep.edges:
        peers[e.src].add(e.dst)
        peers[e.dst].add(e.src)
    for io in list(dep.inputs) + list(dep.outputs):
        peers[io.node].add(HOST_NAME)
        peers[HOST_NAME].add(io.node)
    # a standby talks to whoever its stage talks to, and they to it (stage failover)
    for stage, nodes in dep.standby.items():
        for sb in nodes:
            for other in list(peers.get(stage, ())):
                peers[sb].add(other)
                peers[other].add(sb)
    # program updates (bb-edge deploy, docs/wire.md): with an ota key the host reaches every node and back
    if "ota" in dep.extra:
        for n in dep.node_names:
            peers[HOST_NAME].add(n)
            peers[n].add(HOST_NAME)
            peers[n].add(DEPLOY_NAME)  # a node answers the deployer (acl_text gives _deploy its own entry)
    return peers


def acl_text(dep: Deployment, topics: Topics) -> str:
    """The Mosquitto ACL file for ``dep`` (see the module docstring)."""
    lines = [f"# bb-edge ACL for deployment {dep.name!r}; generated, do not edit", ""]
    for me, allowed in sorted(deployment_peers(dep).items()):
        lines.append(f"user {me}")
        for dst in sorted(allowed):
            lines.append(f"topic write {topics.inbox(dst, me)}")
        lines.append(f"topic read {topics.inbox_filter(me)}")
        lines.append(f"topic write {topics.presence(me)}")
        lines.append(f"topic read {topics.presence('+')}")
        lines.append(f"topic write {topics.broadcast(me)}")
        lines.append(f"topic read {topics.broadcast('+')}")
        lines.append(f"topic {'readwrite' if me == HOST_NAME else 'read'} {topics.control()}")
        lines.append(f"topic write {topics.status(me)}")
        lines.append(f"topic read {topics.status('+')}")
        lines.append("")
    if "ota" in dep.extra:
        # the deployer (bb-edge deploy): its own identity, so it never displaces the host. It writes only to the
        # nodes' inboxes, reads only its own inbox and the HELLO broadcasts (program hashes)
        lines += [f"user {DEPLOY_NAME}", *(f"topic write {topics.inbox(n, DEPLOY_NAME)}" for n in dep.node_names),
                  f"topic read {topics.inbox_filter(DEPLOY_NAME)}", f"topic write {topics.presence(DEPLOY_NAME)}",
                  f"topic read {topics.broadcast('+')}", ""]
    # the operator's view (bb-edge status): reads presence and status records of any deployment, writes nothing
    lines += [f"user {STATUS_USER}", f"topic read {topics.prefix}/+/presence/+",
              f"topic read {topics.prefix}/+/status/+", ""]
    return "\n".join(lines)


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
    accept_bridges: Sequence[str] = (),
) -> BrokerFiles:
    """Write mosquitto.conf (+ passwd, acl, credentials.json when ``dep`` is given).

    Without a deployment the broker is anonymous and unrestricted (benchmarks,
    quick trials). ``bridge_to`` (``mqtt[s]://CORE:PORT[?creds=FILE]``) makes
    this a *site* broker bridged to a core broker (:func:`bridge_text`);
    ``accept_bridges`` names the sites a *core* broker accepts bridges from
    (a ``_bridge_<site>`` user each, see :func:`bridge_user`).
    """
    d = Path(directory).resolve()
    d.mkdir(parents=True, exist_ok=True)
    port = port if port is not None else free_port(host)
    conf = [
        "# generated by bb-edge (bb_edge/adapters/ops/broker.py)",
        "per_listener_settings false",
        # started as root, mosquitto would drop to user "mosquitto" and lose access to these files
        f"user {pwd.getpwuid(os.getuid()).pw_name}",
        f"listener {port} {host}",
        f"max_inflight_messages {max_inflight}",
        # small envelopes go out at once: with Nagle a reply waits for the peer's delayed ACK (~40 ms a hop)
        "set_tcp_nodelay true",
        "max_queued_messages 1000000",
        "max_queued_bytes 0",
        "persistent_client_expiration 1d",
        f"log_dest file {d / 'mosquitto.log'}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        "connection_messages true",
        "log_timestamp true",
    ]
    if tls is not None:
        conf += [f"cafile {tls.cafile}", f"certfile {tls.certfile}", f"keyfile {tls.keyfile}",
                 "tls_version tlsv1.2"]
    if persistence:
        (d / "data").mkdir(exist_ok=True)
        conf += ["persistence true", f"persistence_location {d / 'data'}/", "persistence_file mosquitto.db",
                 "autosave_interval 30"]
    else:
        conf.append("persistence false")
    files = BrokerFiles(d, d / "mosquitto.conf", None, None, None, port, host, tls is not None)
    if dep is None:
        conf.append("allow_anonymous true")
    else:
        topics = Topics(dep.name, prefix)
        users = [*dep.node_names, HOST_NAME, *([DEPLOY_NAME] if "ota" in dep.extra else []), STATUS_USER,
                 *(bridge_user(x) for x in accept_bridges)]
        pw = dict(passwords or {})
        for u in users:
            pw.setdefault(u, secrets.token_urlsafe(18))
        files.passwords = pw
        files.passwd = d / "passwd"
        files.passwd.write_text("".join(f"{u}:{password_hash(pw[u])}\n" for u in users))
        files.acl = d / "acl"
        files.acl.write_text(acl_text(dep, topics) + "".join(
            f"user {bridge_user(x)}\ntopic readwrite {topics.base}/#\n\n" for x in accept_bridges))
        files.credentials = d / "credentials.json"
        files.credentials.write_text(json.dumps({u: pw[u] for u in users}, indent=1) + "\n")
        for p in (files.passwd, files.credentials):
            os.chmod(p, 0o600)
        conf += ["allow_anonymous false", f"password_file {files.passwd}", f"acl_file {files.acl}",
                 "use_username_as_clientid true"]
    if bridge_to is not None:
        if dep is None:
            raise BrokerError("a bridge carries one deployment's topics: give the deployment")
        conf.append(bridge_text(bridge_to, Topics(dep.name, prefix), site))
    files.conf.write_text("\n".join(conf) + "\n")
    if bridge_to is not None:
        os.chmod(files.conf, 0o600)  # it holds the bridge's password for the core broker
    return files


def bridge_user(site: str) -> str:
    """The core broker's user for the bridge of ``site`` (mosquitto pins client ids to user names)."""
    if not site or not all(c.isalnum() or c in "-_" for c in site):
        raise BrokerError(f"site name {site!r}: use letters, digits, - and _")
    return f"_bridge_{site}"


def bridge_text(url: str, topics: Topics, site: str) -> str:
    """The mosquitto.conf ``connection`` section bridging this (site) broker to the core at ``url``.

    Every topic of the deployment (``{prefix}/{deployment}/#``) travels both
    ways at QoS 1 with a persistent bridge session, so nothing queued is lost
    while the link is down. The topic layout is unchanged, so each broker's
    ACL keeps pinning identities for its own clients: a site client can only
    write what the site ACL allows, and only what it wrote crosses. The
    bridge logs in to the core as ``_bridge_<site>`` (``bb-edge broker
    --accept-bridge SITE`` on the core); its password comes from the URL or
    from the core's ``credentials.json`` (``?creds=``).
    """
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttError

    try:
        cfg = MqttConfig.from_url(url).for_node(bridge_user(site))
    except MqttError as exc:
        raise BrokerError(f"--bridge-to {url}: {exc}") from exc
    lines = [
        "",
        f"# bridge: site {site!r} -> core {cfg.host}:{cfg.port}",
        f"connection bb-{site}",
        f"address {cfg.host}:{cfg.port}",
        f"remote_clientid {bridge_user(site)}",
        f"local_clientid {bridge_user(site)}-local",
        "cleansession false",
        "try_private true",  # mosquitto to mosquitto: nothing is echoed back over the bridge
        "notifications false",  # no $SYS connection notices: the core's ACL would refuse them
        "restart_timeout 1 10",
        f"keepalive_interval {max(5, cfg.keepalive)}",
        "bridge_protocol_version mqttv311",
        f"topic {topics.base}/# both 1",
    ]
    if cfg.username is not None:
        lines.append(f"remote_username {cfg.username}")
    if cfg.password is not None:
        lines.append(f"remote_password {cfg.password}")
    if cfg.tls:
        lines.append(f"bridge_cafile {cfg.ca}" if cfg.ca else "bridge_capath /etc/ssl/certs")
        if cfg.insecure:
            lines.append("bridge_insecure true")
    return "\n".join(lines)


def mosquitto_binary() -> str:
    """Path of the mosquitto executable (PATH, then /usr/sbin)."""
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)), None)
    if not found:
        raise BrokerError("mosquitto not found; install it (Debian: apt-get install mosquitto)")
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
