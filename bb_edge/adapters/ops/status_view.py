"""The live fleet view of ``bb-edge status mqtt://HOST:PORT``: presence + status records -> a rich table.

Why one file: the model, its MQTT feed (one broker or every member of a cluster), the table and the
retained-record pruning are one view's parts and share the record format.

:class:`StatusModel` is the state of the view and has no I/O: it is fed the
retained presence (``up``/``down``, the broker's last will) and the status
records nodes publish every ``status_interval`` seconds (bb_edge/adapters/ops/telemetry.py),
with the time they arrived. A node is

- ``down`` when its presence says so (a clean stop, or the last will the broker
  publishes when the connection drops or the keepalive runs out), or when the
  phi-accrual detector (bb_edge.learn.liveness) over its status records
  reaches the threshold: a node that stops publishing (hung, stopped,
  partitioned with its TCP connection still open) is down after
  :meth:`StatusModel.bound` seconds without a record;
- ``gone`` when the latest record it has is a retained one older than that
  bound by the record's own wall-clock ``time`` (a node that left long ago:
  a finished learning run, a renamed node) and its presence is not ``up``;
  ``bb-edge status --prune DIR`` deletes the retained records of names not in
  the deployment;
- ``up`` otherwise, once it has been heard from.

Endpoints whose names start with ``_`` (``_host``, ``_client<k>``,
``_status``) are infrastructure, not nodes, and are not listed. Each row
shows the program: the deployment's name and ``program_version`` and the
first 8 hex digits of the program hash, kept at any terminal width.

A malformed status record (not JSON, not an object, wrong field types, a
name other than its topic's, over 8 KiB) is counted in ``refused``, keeps
the last good record and shows its node's row as ``invalid record``. Every
string from the broker (names, versions) is shown literally: never read as
rich markup, control characters escaped (:func:`literal`); nothing a node
publishes ends the view.

:class:`StatusClient` subscribes to ``{prefix}/+/presence/+`` and
``{prefix}/+/status/+`` (the read-only ``_status`` user of the generated ACL;
``?creds=FILE`` supplies its password) and :func:`render` draws the table.

A clustered broker (``mqtt://H1:P1,H2:P2,H3:P3``, ``bb-edge broker --kind rabbitmq``) keeps retained
messages per member (rabbitmq-server #8096): each member holds the presence and last record a node
published while connected *there*, and sends retained messages only to exact topic filters, never to
wildcards. The view therefore subscribes on every member of the URL, to the wildcards (live messages) and
to the exact presence and status topics of every node it knows (``names``: ``bb-edge status --deployment
DIR``, plus every node heard live), and merges:
live messages (not retained) are delivered by every member and win; of the retained ones, the status
record with the newest own ``time`` is kept (an older one from another member is neither the record nor a
heartbeat), and a node's retained presence is the one held by the member that also holds that newest
record (where the node was connected last), else ``up`` if any member holds ``up``.
"""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from bb_edge.learn.liveness import PhiAccrualDetector

MAX_RECORD = 8192
_FIELDS: dict[str, tuple[type, ...]] = {
    "node": (str,), "version": (str,), "program_hash": (str,), "epoch": (int,), "drops": (int,),
    "requests": (int,), "hop_ms": (int, float, type(None)), "compute_ms": (int, float, type(None)),
    "rtt_ms": (dict,), "open_requests": (int,), "program": (str,), "program_version": (str, type(None)),
    "time": (int, float), "errors": (int,), "uptime_s": (int, float),
}


@dataclass
class NodeStatus:
    """What the view knows about one node of one deployment."""

    deployment: str
    name: str
    presence: str | None = None
    record: dict[str, Any] | None = None
    last_record: float | None = None
    detector: PhiAccrualDetector = field(default_factory=PhiAccrualDetector)
    #: the latest record was malformed (the good one before it is kept)
    invalid: bool = False
    #: the latest record was retained and older than the detector's bound when it arrived
    expired: bool = False
    #: a clustered broker: the retained presence each member holds, the member holding the kept record
    #: (None: a live record), and whether a live presence message has been seen (it beats retained ones)
    member_presence: dict[int, str] = field(default_factory=dict)
    record_member: int | None = None
    live_presence: bool = False


class StatusModel:
    """Per-node presence, latest status record and liveness (see the module docstring)."""

    def __init__(self, interval: float = 1.0, threshold: float = 8.0, min_std: float = 0.25,
                 acceptable_pause: float = 0.5) -> None:
        self.interval = interval
        self.threshold = threshold
        self.min_std = min_std
        self.acceptable_pause = acceptable_pause
        self.nodes: dict[tuple[str, str], NodeStatus] = {}
        self.refused = 0
        self._bound: float | None = None
        self._lock = threading.Lock()

    def _node(self, deployment: str, name: str) -> NodeStatus:
        key = (deployment, name)
        n = self.nodes.get(key)
        if n is None:
            det = PhiAccrualDetector(threshold=self.threshold, min_std=self.min_std,
                                     acceptable_pause=self.acceptable_pause, first_interval=self.interval)
            n = self.nodes[key] = NodeStatus(deployment, name, detector=det)
        return n

    def on_presence(self, deployment: str, name: str, payload: bytes, now: float, member: int | None = None) -> bool:
        """Record a presence message; False (and nothing changes) unless it is ``up`` or ``down``.

        ``member``: the index of the cluster member that delivered it as a retained message (None: live, or
        a single broker): see the module docstring.
        """
        if payload not in (b"up", b"down"):
            self.refused += 1
            return False
        with self._lock:
            n = self._node(deployment, name)
            if member is None:
                n.live_presence = True
                n.presence = payload.decode()
            else:
                n.member_presence[member] = payload.decode()
                if n.live_presence:
                    return True  # a live message already said where the node stands
                n.presence = _retained_presence(n)
            if payload == b"up":
                n.detector.heartbeat(max(now, n.detector.last or now))
        return True

    def on_status(self, deployment: str, name: str, payload: bytes, now: float, wall: float | None = None,
                  member: int | None = None) -> bool:
        """Record a status record (a heartbeat too); False if it is malformed (the row shows ``invalid record``).

        ``wall`` (seconds since 1970 when it arrived) against the record's own ``time`` tells a retained
        record of a node that is long gone: it is kept but is no heartbeat. ``member``: the cluster member
        that delivered it as a retained message (None: live, or a single broker); a retained record older
        than the one kept is dropped.
        """
        record = parse_record(name, payload)
        if record is None:
            self.refused += 1
            with self._lock:
                self._node(deployment, name).invalid = True
            return False
        stamped = record.get("time")
        old = (wall is not None and isinstance(stamped, (int, float)) and wall - stamped > self.bound())
        with self._lock:
            n = self._node(deployment, name)
            if member is not None and n.record is not None and isinstance(stamped, (int, float)) \
                    and stamped < float(n.record.get("time", 0.0)):
                return True  # another member's older snapshot of this node: not news
            n.record_member = member
            if member is not None and not n.live_presence:
                n.presence = _retained_presence(n)
            n.record = record
            n.invalid = False
            n.expired = bool(old)
            if not old:
                n.last_record = now
                n.detector.heartbeat(max(now, n.detector.last or now))
        return True

    def state(self, n: NodeStatus, now: float) -> str:
        """``up``, ``down``, ``gone``, ``invalid record`` or ``unknown`` (no presence, no record yet)."""
        if n.invalid:
            return "invalid record"
        if n.expired and n.presence != "up":
            return "gone"
        if n.presence == "down":
            return "down"
        if n.detector.last is not None and not n.detector.is_available(now):
            return "down"
        if n.record is None and n.presence is None:
            return "unknown"
        return "up"

    def bound(self) -> float:
        """Seconds after its last record at which a node publishing every ``interval`` s is declared down."""
        if self._bound is not None:
            return self._bound
        lo, hi = 0.0, 3600.0
        det = PhiAccrualDetector(threshold=self.threshold, min_std=self.min_std,
                                 acceptable_pause=self.acceptable_pause, first_interval=self.interval)
        for i in range(3):
            det.heartbeat(i * self.interval)
        last = 2 * self.interval
        for _ in range(60):  # bisection on the monotone phi(elapsed)
            mid = (lo + hi) / 2
            if det.phi(last + mid) >= self.threshold:
                hi = mid
            else:
                lo = mid
        self._bound = hi
        return hi

    def rows(self, now: float) -> list[dict[str, Any]]:
        """One dict per node, sorted by deployment and name, for :func:`render` (and tests)."""
        out = []
        with self._lock:
            for (dep, name), n in sorted(self.nodes.items()):
                if name.startswith("_"):
                    continue  # _host, _client<k>, _status: infrastructure, not nodes
                r = n.record or {}
                rtt = r.get("rtt_ms") or {}
                program = str(r.get("program") or "")
                if r.get("program_version"):
                    program += f" {r['program_version']}"
                out.append({
                    "deployment": dep, "node": name, "state": self.state(n, now),
                    "version": r.get("version", ""), "program": program,
                    "hash": str(r.get("program_hash", ""))[:8],
                    "epoch": r.get("epoch", ""), "hop_ms": r.get("hop_ms"), "compute_ms": r.get("compute_ms"),
                    "rtt_ms": {str(k): v for k, v in rtt.items() if isinstance(v, (int, float))},
                    "drops": r.get("drops", ""), "requests": r.get("requests", ""),
                    "seen_s": None if n.last_record is None else max(0.0, now - n.last_record),
                    "phi": n.detector.phi(now),
                })
        return out


def _retained_presence(n: NodeStatus) -> str | None:
    """The retained presence of a node on a cluster: the member holding its newest record decides, else
    ``up`` if any member holds ``up``; a single broker's is its one retained message."""
    if n.record_member is not None and n.record_member in n.member_presence:
        return n.member_presence[n.record_member]
    held = set(n.member_presence.values())
    return "up" if "up" in held else ("down" if held else None)


def parse_record(name: str, payload: bytes) -> dict[str, Any] | None:
    """The status record in ``payload`` if it is well formed and names ``name``; None otherwise."""
    if len(payload) > MAX_RECORD:
        return None
    try:
        record = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(record, dict) or record.get("node") != name:
        return None
    for key, types in _FIELDS.items():
        if key in record and not isinstance(record[key], types):
            return None
        if isinstance(record.get(key), bool):
            return None  # a JSON true is an int to Python, not a count
    for v in (record.get("hop_ms"), record.get("compute_ms")):
        if isinstance(v, float) and not math.isfinite(v):
            return None
    return record


def _ms(v: Any) -> str:
    return f"{v:.1f}" if isinstance(v, (int, float)) else "-"


def literal(value: object, limit: int = 64) -> str:
    """``value`` as a string safe to show: control and other unprintable characters escaped
    (``\\x1b``), at most ``limit`` characters. Shown through rich ``Text``, never parsed as markup."""
    text = str(value)
    out = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
    return out if len(out) <= limit else out[:limit - 1] + "…"


#: (header, key, right-justified); node, state, program and hash always show
_COLUMNS = (("node", "node", False), ("state", "state", False), ("program", "program", False),
            ("hash", "hash", False), ("epoch", "epoch", True), ("hop ms", "hop", True),
            ("compute ms", "compute", True), ("rtt ms", "rtt", False), ("drops", "drops", True),
            ("reqs", "reqs", True), ("seen", "seen", True), ("bb-edge", "version", False))
#: the columns a narrow terminal hides, first hidden first (never node, state, program, hash)
_HIDE_ORDER = ("version", "compute", "epoch", "rtt", "reqs", "deployment", "drops", "hop", "seen")
#: the widest an RTT list is laid out before it wraps
_RTT_WIDTH = 24
_STYLE = {"up": "green", "down": "bold red", "gone": "dim", "invalid record": "bold magenta"}


def render(model: StatusModel, now: float, title: str = "bb-edge fleet", width: int | None = None) -> Any:
    """A rich Table of :meth:`StatusModel.rows`, at most ``width`` characters wide when given.

    One deployment goes into the title instead of a column. Node names, states, programs and hashes
    always show: a terminal too narrow for every column hides the least telling ones (the caption
    says which) rather than cutting every cell. Every cell is a literal rich ``Text``.
    """
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    rows = model.rows(now)
    deployments = sorted({r["deployment"] for r in rows})
    one = len(deployments) == 1
    cells = [{"deployment": literal(r["deployment"]), "node": literal(r["node"]), "state": r["state"],
              "version": literal(r["version"], 16), "program": literal(r["program"], 32) or "-",
              "hash": literal(r["hash"]) or "-", "epoch": literal(r["epoch"]), "hop": _ms(r["hop_ms"]),
              "compute": _ms(r["compute_ms"]),
              "rtt": " ".join(f"{literal(k, 16)}:{v:.1f}" for k, v in sorted(r["rtt_ms"].items())) or "-",
              "drops": literal(r["drops"]), "reqs": literal(r["requests"]),
              "seen": "-" if r["seen_s"] is None else f"{r['seen_s']:.1f}s"} for r in rows]
    columns = list(_COLUMNS if one else (("deployment", "deployment", False), *_COLUMNS))
    widths = {key: max([len(header)] + [cell_len(c[key]) for c in cells]) for header, key, _ in columns}
    widths["rtt"] = min(widths["rtt"], _RTT_WIDTH)
    hidden: list[str] = []
    for key in _HIDE_ORDER:
        if width is None or 1 + sum(widths[k] + 3 for _, k, _ in columns) <= width:
            break
        for col in [c for c in columns if c[1] == key]:
            columns.remove(col)
            hidden.append(col[0])
    caption = (f"down after {model.bound():.1f} s without a status record (phi >= {model.threshold:g}) "
               "or on the broker's last will; gone: only an old retained record")
    if model.refused:
        caption += f"; {model.refused} invalid message(s) ignored"
    if hidden:
        caption += f"; hidden to fit: {', '.join(hidden)}"
    table = Table(title=Text(f"{title}: {deployments[0]}" if one else title), caption=Text(caption))
    for header, key, right in columns:
        table.add_column(header, justify="right" if right else "left", no_wrap=key != "rtt",
                         overflow="fold" if key == "rtt" else "ellipsis", min_width=widths[key])
    for c in cells:
        table.add_row(*(Text(c[key], style=_STYLE.get(c["state"], "yellow") if key == "state" else "")
                        for _, key, _ in columns))
    return table


class StatusClient:
    """MQTT subscribers feeding a :class:`StatusModel` (presence + status topics of every deployment): one per
    member of a clustered broker's URL, whose retained snapshots differ (see the module docstring)."""

    def __init__(self, url: str, model: StatusModel, user: str = "_status",
                 names: dict[str, list[str]] | None = None) -> None:
        from dataclasses import replace

        from bb_edge.adapters.transports.mqtt import MqttConfig

        self.model = model
        self.cfg = MqttConfig.from_url(url)
        if self.cfg.creds or self.cfg.password:
            self.cfg = self.cfg.for_node(user)
        self.prefix = self.cfg.prefix
        self.connected = threading.Event()
        self.refused: list[str] = []
        members = self.cfg.members or [(self.cfg.host, self.cfg.port)]
        self.configs = [replace(self.cfg, host=h, port=p) for h, p in members]
        self.clients = [self._client(user, i) for i in range(len(self.configs))]
        self.client = self.clients[0]
        self._up: set[int] = set()
        #: (deployment, node) whose exact topics every member is asked for (retained snapshots)
        self.known: set[tuple[str, str]] = {(d, n) for d, ns in (names or {}).items() for n in ns}
        self._lock = threading.Lock()

    def _exact(self, pairs: set[tuple[str, str]]) -> list[tuple[str, int]]:
        return [(f"{self.prefix}/{d}/{k}/{n}", 1) for d, n in sorted(pairs) for k in ("presence", "status")]

    def _learn(self, dep: str, name: str) -> None:
        """A node heard live: ask every member for its exact topics (their retained snapshots)."""
        with self._lock:
            if (dep, name) in self.known:
                return
            self.known.add((dep, name))
        for i in sorted(self._up):
            self.clients[i].subscribe(self._exact({(dep, name)}))

    def _client(self, user: str, i: int) -> Any:
        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        cluster = len(self.configs) > 1
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"{user}-{id(self):x}-{i}", clean_session=True,
                        protocol=paho.MQTTv311)
        self.configs[i].secure(c)
        c.on_connect = lambda client, u, f, rc, pr: self._on_connect(client, u, f, rc, pr, i)
        c.on_message = lambda client, u, msg: self._on_message(client, u, msg, i if cluster else None)
        c.reconnect_delay_set(1, 2)
        return c

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any, i: int = 0) -> None:
        if rc.is_failure:
            self.refused.append(str(rc))
            return
        with self._lock:
            exact = self._exact(self.known) if len(self.configs) > 1 else []
        client.subscribe([(f"{self.prefix}/+/presence/+", 1), (f"{self.prefix}/+/status/+", 1), *exact])
        self._up.add(i)
        self.connected.set()

    def _on_message(self, client: Any, userdata: Any, msg: Any, member: int | None = None) -> None:
        try:
            parts = msg.topic.split("/")
            if len(parts) != 4 or parts[0] != self.prefix:
                return
            _, dep, kind, name = parts
            now = time.monotonic()
            if not msg.payload:
                return  # a retained record deleted (--prune)
            held = member if msg.retain else None  # a member's own retained snapshot, or live news
            if member is not None:  # (RabbitMQ may mark a live message retained: learn from any)
                self._learn(dep, name)
            if kind == "presence":
                self.model.on_presence(dep, name, bytes(msg.payload), now, member=held)
            elif kind == "status":
                self.model.on_status(dep, name, bytes(msg.payload), now, wall=time.time(), member=held)
        except Exception:  # nothing a node publishes ends the view
            self.model.refused += 1

    def start(self, timeout: float = 10.0) -> None:
        """Connect (every member) and start the network threads; BBError if refused or no member connected
        within ``timeout``. On a cluster it waits up to ``timeout`` for the other members' snapshots too."""
        from bb_edge.errors import BBError

        for c, cfg in zip(self.clients, self.configs, strict=True):
            c.connect_async(cfg.host, cfg.port, keepalive=10)
            c.loop_start()
        deadline = time.monotonic() + timeout
        while not self.connected.wait(0.05):
            if len(self.refused) >= len(self.clients):
                self.stop()
                raise BBError(f"broker refused the status view: {self.refused[-1]}")
            if time.monotonic() > deadline:
                self.stop()
                where = ",".join(f"{c.host}:{c.port}" for c in self.configs)
                raise BBError(f"no connection to {where} in {timeout}s")
        while len(self._up) + len(self.refused) < len(self.clients) and time.monotonic() < deadline:
            time.sleep(0.05)  # a member that is down is skipped; its snapshot comes when it returns

    def stop(self) -> None:
        """Disconnect and stop the network threads."""
        for c in self.clients:
            c.disconnect()
            c.loop_stop()


def run_view(url: str, interval: float = 1.0, threshold: float = 8.0, refresh: float = 0.25,
             once: float | None = None, connect_timeout: float = 10.0,
             names: dict[str, list[str]] | None = None) -> int:
    """``bb-edge status``: a live rich view until SIGINT/SIGTERM, or one table after ``once`` seconds;
    ``names`` (deployment -> nodes) are looked up on every member of a cluster (see the module docstring)."""
    import signal

    from rich.console import Console
    from rich.live import Live

    model = StatusModel(interval=interval, threshold=threshold)
    client = StatusClient(url, model, names=names)
    client.start(connect_timeout)
    title = f"bb-edge fleet on {url.split('?')[0]}"
    console = Console()
    # on a terminal, fit its width (read at every refresh: it may be resized); piped, print every column
    fit = console.is_terminal
    if not fit:
        console = Console(width=1000)

    def table() -> Any:
        return render(model, time.monotonic(), title, console.width if fit else None)

    try:
        if once is not None:
            time.sleep(once)
            console.print(table())
            return 0
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        with Live(table(), console=console, refresh_per_second=4) as live:
            while not stop.wait(refresh):
                live.update(table())
    finally:
        client.stop()
    return 0


def _retained(cfg: Any, user: str, topics: list[str], settle: float) -> dict[str, bytes]:
    """Retained messages on ``topics`` (wildcards allowed), collected for ``settle`` seconds."""
    import paho.mqtt.client as paho
    from paho.mqtt.enums import CallbackAPIVersion

    from bb_edge.errors import BBError

    got: dict[str, bytes] = {}
    ready = threading.Event()
    refused: list[str] = []
    c = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"{user}-prune-{id(got):x}", clean_session=True,
                    protocol=paho.MQTTv311)
    cfg.secure(c)

    def on_connect(client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if rc.is_failure:
            refused.append(str(rc))
        else:
            client.subscribe([(t, 1) for t in topics])
        ready.set()

    def on_message(client: Any, userdata: Any, msg: Any) -> None:
        if msg.retain and msg.payload:
            got[msg.topic] = bytes(msg.payload)

    c.on_connect, c.on_message = on_connect, on_message
    c.connect_async(cfg.host, cfg.port, keepalive=10)
    c.loop_start()
    try:
        if not ready.wait(10.0) or refused:
            raise BBError(f"no connection to {cfg.host}:{cfg.port} as {user!r}"
                          f"{': ' + refused[-1] if refused else ''}; check the URL and its credentials")
        time.sleep(settle)
    finally:
        c.disconnect()
        c.loop_stop()
    return got


def _clear(cfg: Any, client_id: str, topics: list[str]) -> None:
    """Publish an empty retained message (MQTT's delete) on each of ``topics`` as ``cfg``'s user."""
    import paho.mqtt.client as paho
    from paho.mqtt.enums import CallbackAPIVersion

    c = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True, protocol=paho.MQTTv311)
    cfg.secure(c)
    try:
        c.connect(cfg.host, cfg.port, keepalive=10)
    except OSError:
        return  # the check after clearing reports what is left
    c.loop_start()
    try:
        for t in topics:
            c.publish(t, b"", qos=1, retain=True).wait_for_publish(5.0)
    except (RuntimeError, ValueError):
        pass
    finally:
        c.disconnect()
        c.loop_stop()


def prune(url: str, deployment: str, nodes: list[str], settle: float = 1.0) -> list[str]:
    """Delete the retained status and presence records of names not in ``nodes`` under ``deployment``.

    Each name is cleared under its own credentials when ``?creds=`` has them (the generated ACL lets
    an identity write only its own records), else as the URL's user. Infrastructure names (``_host``,
    ...) are kept. Returns the names pruned; BBError naming those the broker would not let go.
    """
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttError
    from bb_edge.errors import BBError

    base = MqttConfig.from_url(url)
    reader = base.for_node("_status") if (base.creds or base.password) and base.username is None else base
    root = f"{base.prefix}/{deployment}"
    kinds = ("status", "presence")

    def stale() -> list[str]:
        found = _retained(reader, "_status", [f"{root}/{k}/+" for k in kinds], settle)
        names = {t.rsplit("/", 1)[1] for t in found}
        return sorted(n for n in names if n not in nodes and not n.startswith("_"))

    gone = stale()
    for name in gone:
        try:
            cfg = base.for_node(name)
        except MqttError:
            cfg = base  # no password of its own: the URL's user
        _clear(cfg, name if cfg.username == name else f"bb-prune-{name}", [f"{root}/{k}/{name}" for k in kinds])
    left = stale() if gone else []
    if left:
        raise BBError(f"the broker kept the records of {', '.join(left)} (its ACL lets no one here write them); "
                      f"prune with credentials that may write {root}/status/+ (or with those names' own)")
    return gone
