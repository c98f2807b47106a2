"""A clustered broker for a deployment: RabbitMQ with its MQTT plugin, configured like the Mosquitto ACLs.

Why RabbitMQ (issue 35): Debian's RabbitMQ 3.10 clusters without a license, speaks MQTT 3.1.1 with QoS 0/1,
keeps a QoS-1 subscriber's persistent session in a *quorum* queue (``mqtt.durable_queue_type = quorum``:
replicated on every member, so a member's death loses no queued message), and authorises every MQTT
publish and subscription against per-user topic permissions (regular expressions over the AMQP routing
key, where MQTT's ``/`` is ``.`` and ``+`` is ``*``). NATS 2.9's MQTT gateway needs JetStream on every
member and has no per-topic ACL tied to the MQTT username's inbox in one generated file.

:func:`write_cluster_files` writes, for ``members`` members on one host (``127.0.0.1``, ports
``port``, ``port+1`` ...):

- ``definitions.json`` (loaded by every member at boot): one user per identity of
  :func:`bb_edge.adapters.ops.broker.acl_rules` (SHA-256 salted hashes, RabbitMQ's own format), its
  queue permissions (only its own ``mqtt-subscription-<user>qos0/1`` queues and ``amq.topic``) and its
  topic permissions: exactly the Mosquitto ACL's topics, as anchored alternations; and a policy bounding
  every subscriber queue (``max-length`` / ``max-length-bytes`` from :class:`QueueLimits`, oldest dropped;
  a node many others write to, such as a FedAvg server, gets a bound that grows with them: :func:`fan_in_bounds`);
- ``memberN/rabbitmq.conf``: MQTT listener only (no AMQP), no anonymous login, quorum durable queues,
  ``max_message_size`` from the deployment, retained messages on disk, the members for peer discovery;
- ``home/.erlang.cookie`` (0400) and ``credentials.json`` (0600) for ``?creds=`` in the transport URL.

:class:`RabbitCluster` runs those members as this user without systemd: its own ``epmd`` on a private
port, member 1 first (it forms the cluster), then the others (they join it), each with its own node name,
data and log directories, all stopped by pid. Retained messages are kept per member (rabbitmq-server
#8096): clients re-publish their retained presence on every (re)connect (docs/transports.md).

Why one file: the configuration writer and the runner share one member layout (ports, node names, data
directories, cookie); ``bb-edge broker --start``, the tests and the bench use them together.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bb_edge.adapters.ops.broker import STATUS_USER, BrokerError, QueueLimits, Rule, acl_rules, free_port
from bb_edge.deployment.manifest import DEPLOY_NAME, HOST_NAME, Deployment
from bb_edge.names import check_name, config_value
from bb_edge.wire.topics import Topics

RABBIT_HOME = Path("/usr/lib/rabbitmq/bin")


class ClusterError(BrokerError):
    """A RabbitMQ cluster could not be configured, started or stopped."""

    fix = "check that rabbitmq-server is installed and the member ports are free (docs/transports.md)"


def rabbit_password_hash(password: str, salt: bytes | None = None) -> str:
    """RabbitMQ's ``rabbit_password_hashing_sha256``: base64(salt4 + sha256(salt4 + password))."""
    salt = salt if salt is not None else secrets.token_bytes(4)
    return base64.b64encode(salt + hashlib.sha256(salt + password.encode()).digest()).decode()


def routing_key(topic: str) -> str:
    """The AMQP routing key RabbitMQ's MQTT plugin checks for an MQTT topic or filter (``/``->``.``, ``+``->``*``)."""
    return topic.replace("/", ".").replace("+", "*")


def _alternation(keys: list[str]) -> str:
    """An anchored regex matching exactly the routing keys ``keys`` (literal, ``*``/``#`` included)."""
    if not keys:
        return "^$"  # matches no routing key the plugin builds (they are never empty)
    return "^(" + "|".join(re.escape(k) for k in sorted(set(keys))) + ")$"


def topic_permissions(rules: list[Rule]) -> tuple[str, str]:
    """``(write, read)`` regexes of one user's Mosquitto rules, over AMQP routing keys."""
    write = [routing_key(t) for a, t in rules if a in ("write", "readwrite")]
    read = [routing_key(t) for a, t in rules if a in ("read", "readwrite")]
    return _alternation(write), _alternation(read)


def node_names(dep: Deployment) -> list[str]:
    """Every node of ``dep`` (a learning deployment names its nodes in its strategy)."""
    names = set(dep.node_names)
    if "learning" in dep.extra:
        from bb_edge.deployment.learning import learning_node_names

        names |= set(learning_node_names(dep))
    return sorted(names)


def cluster_rules(dep: Deployment, topics: Topics) -> dict[str, list[Rule]]:
    """The Mosquitto ACL (:func:`acl_rules`), plus each node's HELLO answers to any other node and the
    deployer's reads of presence and control.

    Mosquitto drops a denied publish silently; RabbitMQ closes the publisher's connection, and the client
    resends the unconfirmed publish on reconnect, so one denied envelope would cut a node off for good. An
    endpoint (node, host, request client) answers every node's HELLO broadcast in that node's inbox, as
    itself: that write is allowed here. It still writes only topics that end in its own name (it can forge
    nobody) and reads only its own inbox.
    """
    rules = acl_rules(dep, topics)
    if DEPLOY_NAME in rules:
        # the deployer's transport subscribes to presence and control like every endpoint's: a filter it may
        # not read makes RabbitMQ close the connection (Mosquitto drops the subscription), so it reads them
        # (it still writes only the nodes' inboxes and its own presence)
        rules[DEPLOY_NAME] = rules[DEPLOY_NAME] + [r for r in (("read", topics.presence("+")),
                                                               ("read", topics.control("+")))
                                                   if r not in rules[DEPLOY_NAME]]
    nodes = node_names(dep)
    endpoints = [u for u in rules if u in nodes or u == HOST_NAME or u.startswith("_client")]
    for me in endpoints:  # the host and request clients run the same engine and answer HELLOs too
        have = set(rules[me])
        rules[me] = rules[me] + [r for n in nodes if n != me and (r := ("write", topics.inbox(n, me))) not in have]
    # RabbitMQ checks a subscription's filter as a literal routing key: a C or MicroPython node subscribes to
    # ctl/_host alone (it obeys only the host), so whoever may read ctl/+ may also name that one topic
    for me, user_rules in rules.items():
        if ("read", topics.control("+")) in user_rules and ("read", topics.control(HOST_NAME)) not in user_rules:
            rules[me] = user_rules + [("read", topics.control(HOST_NAME))]
    return rules


def definitions(dep: Deployment, topics: Topics, passwords: Mapping[str, str], limits: QueueLimits) -> dict:
    """RabbitMQ definitions (users, permissions, topic permissions, queue-limit policy) for ``dep``."""
    rules = cluster_rules(dep, topics)
    users, perms, tperms = [], [], []
    for user, user_rules in rules.items():
        users.append({"name": user, "password_hash": rabbit_password_hash(passwords[user]),
                      "hashing_algorithm": "rabbit_password_hashing_sha256", "tags": ""})
        own = f"mqtt-subscription-{re.escape(user)}qos[01]"
        if user == STATUS_USER:  # the read-only view: one clean session per member, "_status-<hex>-<k>"
            own = f"mqtt-subscription-{re.escape(user)}(-[0-9a-f]+)*qos[01]"
        # declare, bind and consume only its own session queues; publish only through amq.topic, whose
        # topic permissions below are the ACL proper
        perms.append({"user": user, "vhost": "/", "configure": f"^{own}$",
                      "write": f"^(amq\\.topic|{own})$", "read": f"^(amq\\.topic|{own})$"})
        write, read = topic_permissions(user_rules)
        if user == STATUS_USER:  # RabbitMQ sends retained messages to exact filters only: one node's records
            read += f"|^{re.escape(topics.prefix)}\\.[^.*#]+\\.(presence|status)\\.[^.*#]+$"
        tperms.append({"user": user, "vhost": "/", "exchange": "amq.topic", "write": write, "read": read})
    policies = [{"vhost": "/", "name": "bb-session-limits", "pattern": "^mqtt-subscription-", "apply-to": "queues",
                 "priority": 0, "definition": {"max-length": limits.max_queued_messages,
                                                "max-length-bytes": limits.max_queued_bytes, "overflow": "drop-head"}}]
    for name, bound in sorted(fan_in_bounds(dep, limits).items()):
        policies.append({"vhost": "/", "name": f"bb-session-limits-{name}", "apply-to": "queues", "priority": 1,
                         "pattern": f"^mqtt-subscription-{re.escape(name)}qos[01]$",
                         "definition": {"max-length": bound, "max-length-bytes": limits.max_queued_bytes,
                                        "overflow": "drop-head"}})
    return {"rabbit_version": "3.10.8", "users": users, "vhosts": [{"name": "/"}], "permissions": perms,
            "topic_permissions": tperms, "policies": policies, "queues": [], "exchanges": [], "bindings": []}


#: messages one writer may have waiting in a node's session queue: a JOIN, an UPDATE and the heartbeats of a
#: stall of its reader (tens of seconds at a 1-2 s heartbeat)
PER_WRITER = 32


def fan_in_bounds(dep: Deployment, limits: QueueLimits) -> dict[str, int]:
    """The session-queue bound (messages) of each node that more writers send to than the default holds.

    Why: a full queue drops its *oldest* messages (``drop-head``), which RabbitMQ had already acknowledged
    (PUBACK) to their publishers: they are lost for good. One bound for every queue (``max_queued_messages``,
    1,000) is far too small for a FedAvg server with hundreds of clients: behind their heartbeats its queue
    reached 1,000 within seconds of a stall, and JOINs and UPDATEs were dropped (issue 35: 41 of 150 JOINs
    arrived after a 25 s stall, 477 of 500 at full load). So a node's queue holds ``PER_WRITER`` messages per
    node that sends to it. (``overflow: reject-publish`` would refuse instead of drop, but RabbitMQ 3.10's MQTT
    plugin answers a refused publish by crashing the publisher's connection: 120 clients reconnected up to 49
    times each and the round aborted.)
    """
    if "learning" not in dep.extra:
        return {}
    from bb_edge.deployment.learning import learning_peers

    writers: dict[str, int] = {}
    for sends_to in learning_peers(dict(dep.extra["learning"])).values():
        for n in sends_to:
            writers[n] = writers.get(n, 0) + 1
    return {n: PER_WRITER * k for n, k in writers.items() if PER_WRITER * k > limits.max_queued_messages}


@dataclass
class Member:
    """One cluster member: its node name, MQTT port and directory."""

    index: int
    node: str
    port: int
    directory: Path


@dataclass
class ClusterFiles:
    """Paths and ports of a generated cluster configuration."""

    directory: Path
    host: str
    members: list[Member]
    definitions: Path | None
    credentials: Path | None
    passwords: dict[str, str] = field(default_factory=dict)

    def url(self, user: str | None = None) -> str:
        """The multi-member transport URL (``mqtt://h:p1,h:p2,h:p3?creds=...``)."""
        q = f"?creds={self.credentials}" if self.credentials else ""
        auth = f"{user}@" if user else ""
        return f"mqtt://{auth}" + ",".join(f"{self.host}:{m.port}" for m in self.members) + q

    def member_url(self, i: int) -> str:
        """The URL of member ``i`` alone."""
        q = f"?creds={self.credentials}" if self.credentials else ""
        return f"mqtt://{self.host}:{self.members[i].port}{q}"


def write_cluster_files(directory: str | Path, dep: Deployment, members: int = 3, port: int | None = None,
                        host: str = "127.0.0.1", prefix: str = "bb",
                        passwords: dict[str, str] | None = None) -> ClusterFiles:
    """Write a ``members``-member RabbitMQ cluster's configuration for ``dep`` (see the module docstring).

    Members listen on ``host:port+i`` (free ports when ``port`` is None); everything is generated and
    checked before any file is written.
    """
    check_name(prefix, "--prefix")
    check_name(dep.name, "deployment")
    if not 1 <= members <= 9:
        raise ClusterError(f"--members {members}: give 1 to 9 members (3 tolerates one member down)")
    d = Path(directory).resolve()
    ports = [free_port(host) for _ in range(members)] if port is None else [port + i for i in range(members)]
    if any(not 0 < p < 65536 for p in ports):
        raise ClusterError(f"--port {port}: the members need ports {ports[0]}..{ports[-1]} below 65536")
    tag = secrets.token_hex(3)
    ms = [Member(i, f"bb{i + 1}-{tag}@localhost", p, d / f"member{i + 1}") for i, p in enumerate(ports)]
    topics = Topics(dep.name, prefix)
    limits = QueueLimits.for_deployment(dep)
    users = cluster_rules(dep, topics)
    pw = {u: (passwords or {}).get(u) or secrets.token_urlsafe(18) for u in users}
    defs, creds = d / "definitions.json", d / "credentials.json"
    files = ClusterFiles(d, host, ms, defs, creds, pw)
    texts: dict[Path, str] = {defs: json.dumps(definitions(dep, topics, pw, limits), indent=1) + "\n",
                              creds: json.dumps(pw, indent=1) + "\n",
                              d / "enabled_plugins": "[rabbitmq_mqtt].\n",
                              d / "cluster.json": json.dumps({"nodes": [m.node for m in ms], "ports": ports,
                                                              "host": host}) + "\n"}
    for m in ms:
        # member 1 forms the cluster alone; the others discover it and join (no boot race between them)
        seeds = [ms[0].node] if m.index == 0 else [ms[0].node, m.node]
        conf = ["# generated by bb-edge (bb_edge/adapters/ops/rabbit.py)",
                "listeners.tcp = none",
                f"mqtt.listeners.tcp.default = {config_value(host, 'conf', '--host')}:{m.port}",
                "mqtt.allow_anonymous = false",
                "mqtt.durable_queue_type = quorum",
                "mqtt.vhost = /",
                "mqtt.exchange = amq.topic",
                "mqtt.tcp_listen_options.nodelay = true",
                "mqtt.prefetch = 100",
                "mqtt.subscription_ttl = 86400000",
                "mqtt.retained_message_store = rabbit_mqtt_retained_msg_store_dets",
                f"max_message_size = {max(limits.message_size_limit, 4096)}",
                f"load_definitions = {config_value(str(files.definitions), 'conf', '-o')}",
                "loopback_users = none",
                "cluster_formation.peer_discovery_backend = classic_config",
                *(f"cluster_formation.classic_config.nodes.{k + 1} = {n}" for k, n in enumerate(seeds)),
                "cluster_partition_handling = pause_minority",
                "log.console = false",
                "log.file.level = info"]
        texts[m.directory / "rabbitmq.conf"] = "\n".join(conf) + "\n"
    d.mkdir(parents=True, exist_ok=True)
    for m in ms:
        m.directory.mkdir(exist_ok=True)
    (d / "home").mkdir(exist_ok=True)
    cookie = d / "home" / ".erlang.cookie"
    if not cookie.exists():
        fd = os.open(cookie, os.O_WRONLY | os.O_CREAT, 0o400)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(20).upper())
    for path, text in texts.items():
        secret = path in (files.credentials, files.definitions)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if secret else 0o644)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
    return files


def rabbit_script(name: str = "rabbitmq-server") -> str:
    """Path of a RabbitMQ script (the package's own, which runs as the calling user)."""
    p = RABBIT_HOME / name
    if not p.exists():
        from bb_edge.tools import missing

        raise ClusterError(missing("rabbitmq-server"))
    return str(p)


def _epmd_binary() -> str:
    found = shutil.which("epmd") or next((str(p) for p in sorted(Path("/usr/lib/erlang").glob("erts-*/bin/epmd"))),
                                         None)
    if not found:
        from bb_edge.tools import missing

        raise ClusterError(missing("rabbitmq-server"))
    return found


class RabbitCluster:
    """The members of :func:`write_cluster_files` as processes of this user, managed by pid."""

    def __init__(self, files: ClusterFiles) -> None:
        self.files = files
        self.epmd_port = free_port()
        self.dist_ports = [free_port() for _ in files.members]
        self.epmd: subprocess.Popen[bytes] | None = None
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        # users known to the running cluster: topic permissions (write, read) and passwords (add_deployment)
        self._granted: dict[str, tuple[str, str]] = {}
        self._passwords: dict[str, str] = {}

    def _env(self, m: Member) -> dict[str, str]:
        d = self.files.directory
        return {**os.environ, "HOME": str(d / "home"), "ERL_EPMD_PORT": str(self.epmd_port),
                "RABBITMQ_NODENAME": m.node, "RABBITMQ_NODE_PORT": str(free_port()),
                "RABBITMQ_DIST_PORT": str(self.dist_ports[m.index]),
                "RABBITMQ_CONFIG_FILE": str(m.directory / "rabbitmq.conf"),
                "RABBITMQ_ADVANCED_CONFIG_FILE": str(m.directory / "advanced.config"),
                "RABBITMQ_CONF_ENV_FILE": str(m.directory / "rabbitmq-env.conf"),
                "RABBITMQ_MNESIA_BASE": str(m.directory / "data"), "RABBITMQ_LOG_BASE": str(m.directory / "log"),
                "RABBITMQ_PID_FILE": str(m.directory / "rabbit.pid"),
                "RABBITMQ_ENABLED_PLUGINS_FILE": str(d / "enabled_plugins")}

    def pid(self, i: int) -> int | None:
        """Pid of member ``i``'s Erlang VM (the ``beam.smp`` that serves it), if it runs."""
        p = self.procs.get(i)
        if p is None or p.poll() is not None:
            return None
        try:
            return int((self.files.members[i].directory / "rabbit.pid").read_text().strip())
        except (OSError, ValueError):
            return None

    def _launch(self, i: int) -> None:
        m = self.files.members[i]
        log = open(m.directory / "server.out", "ab")
        # cwd: the Erlang VM writes its crash dumps (MnesiaCore.*, erl_crash.dump) where it was started,
        # so a member starts in its own directory rather than the caller's working tree
        self.procs[i] = subprocess.Popen([rabbit_script()], env=self._env(m), stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                         cwd=m.directory)
        log.close()

    def _wait(self, idx: list[int], timeout: float, whole: bool = True) -> None:
        """Until members ``idx`` listen; past ``timeout`` stop the cluster (``whole``) or only those members."""
        deadline = time.monotonic() + timeout
        left = list(idx)
        while left:
            for i in list(left):
                p, m = self.procs[i], self.files.members[i]
                if p.poll() is not None:
                    raise ClusterError(f"member {m.node} exited with {p.returncode} (log: {m.directory / 'log'})")
                try:
                    with socket.create_connection((self.files.host, m.port), timeout=0.2):
                        left.remove(i)
                except OSError:
                    pass
            if left and time.monotonic() > deadline:
                for i in left:  # a restarted member that did not come back stops alone; the others serve
                    self.kill(i, signal.SIGTERM)
                if whole:
                    self.stop()
                raise ClusterError(f"members {', '.join(self.files.members[i].node for i in left)} did not listen "
                                  f"within {timeout:.0f}s (logs under {self.files.directory})")
            time.sleep(0.1)

    def start(self, timeout: float = 120.0) -> RabbitCluster:
        """Start epmd, member 1, then the others together; return once every MQTT listener accepts."""
        from bb_edge.adapters.ops.ports import check_port_free

        for m in self.files.members:
            check_port_free(self.files.host, m.port)
        if self.epmd is None:
            self.epmd = subprocess.Popen([_epmd_binary(), "-port", str(self.epmd_port)], stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self._launch(0)
        self._wait([0], timeout)
        rest = list(range(1, len(self.files.members)))
        for i in rest:
            self._launch(i)
        self._wait(rest, timeout)
        return self

    def kill(self, i: int, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to member ``i``'s VM by pid (SIGKILL: the member dies at once) and reap it."""
        pid, p = self.pid(i), self.procs.pop(i, None)
        if pid is not None:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        if p is not None:
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                os.kill(p.pid, signal.SIGKILL)
                p.wait(10)

    def start_member(self, i: int, timeout: float = 120.0) -> None:
        """Start member ``i`` again (it rejoins from its own data directory; past ``timeout`` it stops alone)."""
        self._launch(i)
        self._wait([i], timeout, whole=False)

    def add_deployment(self, dep: Deployment, prefix: str = "bb", timeout: float = 120.0) -> Path:
        """Let another deployment's nodes use this running cluster: its users, permissions and topic
        permissions are imported through a live member (``rabbitmqctl import_definitions``; the cluster's
        database replicates them to every member) and merged into ``definitions.json``, which a restarted
        member applies again at boot. New users get fresh passwords;
        identities the cluster already has (``_host``, ``_status`` ...) keep theirs and get the union of
        both deployments' topic permissions. Returns ``credentials-<deployment>.json`` (0600) for ``?creds=``.
        """
        check_name(dep.name, "deployment")
        topics = Topics(dep.name, prefix)
        if not self._granted and self.files.definitions is not None:
            base = json.loads(self.files.definitions.read_text())
            self._granted = {t["user"]: (t["write"], t["read"]) for t in base["topic_permissions"]}
            self._passwords = dict(self.files.passwords)
        pw = {u: self._passwords.get(u) or secrets.token_urlsafe(18) for u in cluster_rules(dep, topics)}
        defs_obj = definitions(dep, topics, pw, QueueLimits.for_deployment(dep))
        for t in defs_obj["topic_permissions"]:
            if t["user"] in self._granted:  # a shared identity: what it had, or what this deployment gives
                old_w, old_r = self._granted[t["user"]]
                t["write"], t["read"] = f"(?:{old_w})|(?:{t['write']})", f"(?:{old_r})|(?:{t['read']})"
        d = self.files.directory
        defs, creds = d / f"definitions-{dep.name}.json", d / f"credentials-{dep.name}.json"
        for path, text in ((defs, json.dumps(defs_obj)), (creds, json.dumps(pw, indent=1) + "\n")):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(text)
        live = [i for i in range(len(self.files.members)) if self.pid(i) is not None]
        if not live:
            raise ClusterError(f"no member of {d} runs: start the cluster before adding {dep.name}")
        m = self.files.members[live[0]]
        r = subprocess.run([rabbit_script("rabbitmqctl"), "-n", m.node, "import_definitions", str(defs)],
                           env=self._env(m), capture_output=True, text=True, timeout=timeout)
        if r.returncode != 0:
            last = (r.stderr.strip() or r.stdout.strip() or "no output").splitlines()[-1]
            raise ClusterError(f"importing {dep.name}'s users into {m.node} failed: {last}")
        self._granted.update({t["user"]: (t["write"], t["read"]) for t in defs_obj["topic_permissions"]})
        self._passwords.update(pw)
        self._fold_into_boot_definitions(defs_obj)
        return creds

    def _fold_into_boot_definitions(self, added: dict) -> None:
        """Merge ``added`` (definitions just imported) into the file every member loads at boot.

        Why: a member applies ``load_definitions`` each time it starts, and the import overwrites the
        cluster-wide entries it names. Without this, a member restarted after :meth:`add_deployment` put
        back the first deployment's topic permissions of every shared identity (``n0``, ``_host`` ...):
        their next subscription or publish on the added deployment's topics was refused and RabbitMQ closed
        the connection, on every member, for good (issue 35: a deploy after a member's restart got no
        RESUME and the fleet answered nothing). Users, permissions and topic permissions are keyed by
        user, policies by name; what was added last wins, as it did in the running cluster.
        """
        path = self.files.definitions
        if path is None:
            return
        merged = json.loads(path.read_text())
        for section, key in (("users", ("name",)), ("permissions", ("user", "vhost")),
                             ("topic_permissions", ("user", "vhost", "exchange")), ("policies", ("vhost", "name"))):
            table = {tuple(e[k] for k in key): e for e in merged.get(section, [])}
            table.update({tuple(e[k] for k in key): e for e in added.get(section, [])})
            merged[section] = list(table.values())
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(json.dumps(merged, indent=1) + "\n")
        os.replace(tmp, path)  # a member booting now reads the old file or the new one, never half of it

    def rss_kib(self) -> list[int]:
        """Resident set size of each running member's VM, KiB (0 for a member that is down)."""
        out = []
        for i in range(len(self.files.members)):
            pid = self.pid(i)
            try:
                text = Path(f"/proc/{pid}/status").read_text() if pid else ""
            except OSError:
                text = ""
            m = re.search(r"VmRSS:\s+(\d+)", text)
            out.append(int(m.group(1)) if m else 0)
        return out

    def stop(self) -> None:
        """Stop every member (SIGTERM by pid, SIGKILL after 30 s) and the private epmd."""
        for i in list(self.procs):
            self.kill(i, signal.SIGTERM)
        if self.epmd is not None:
            self.epmd.kill()
            self.epmd.wait(10)
            self.epmd = None

    def __enter__(self) -> RabbitCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
