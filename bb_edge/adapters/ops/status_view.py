"""The live fleet view of ``bb-edge status mqtt://HOST:PORT``: presence + status records -> a rich table.

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
- ``up`` otherwise, once it has been heard from.

A malformed status record (not JSON, not an object, wrong field types, a
name other than its topic's, over 8 KiB) is counted in ``refused`` and
changes nothing.

:class:`StatusClient` subscribes to ``{prefix}/+/presence/+`` and
``{prefix}/+/status/+`` (the read-only ``_status`` user of the generated ACL;
``?creds=FILE`` supplies its password) and :func:`render` draws the table.
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
    "rtt_ms": (dict,), "open_requests": (int,),
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
        self._lock = threading.Lock()

    def _node(self, deployment: str, name: str) -> NodeStatus:
        key = (deployment, name)
        n = self.nodes.get(key)
        if n is None:
            det = PhiAccrualDetector(threshold=self.threshold, min_std=self.min_std,
                                     acceptable_pause=self.acceptable_pause, first_interval=self.interval)
            n = self.nodes[key] = NodeStatus(deployment, name, detector=det)
        return n

    def on_presence(self, deployment: str, name: str, payload: bytes, now: float) -> bool:
        """Record a presence message; False (and nothing changes) unless it is ``up`` or ``down``."""
        if payload not in (b"up", b"down"):
            self.refused += 1
            return False
        with self._lock:
            n = self._node(deployment, name)
            n.presence = payload.decode()
            if payload == b"up":
                n.detector.heartbeat(max(now, n.detector.last or now))
        return True

    def on_status(self, deployment: str, name: str, payload: bytes, now: float) -> bool:
        """Record a status record (a heartbeat too); False (nothing changes) if it is malformed."""
        record = parse_record(name, payload)
        if record is None:
            self.refused += 1
            return False
        with self._lock:
            n = self._node(deployment, name)
            n.record = record
            n.last_record = now
            n.detector.heartbeat(max(now, n.detector.last or now))
        return True

    def state(self, n: NodeStatus, now: float) -> str:
        """``up``, ``down`` or ``unknown`` (presence seen, no status record yet)."""
        if n.presence == "down":
            return "down"
        if n.detector.last is not None and not n.detector.is_available(now):
            return "down"
        if n.record is None and n.presence is None:
            return "unknown"
        return "up"

    def bound(self) -> float:
        """Seconds after its last record at which a node publishing every ``interval`` s is declared down."""
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
        return hi

    def rows(self, now: float) -> list[dict[str, Any]]:
        """One dict per node, sorted by deployment and name, for :func:`render` (and tests)."""
        out = []
        with self._lock:
            for (dep, name), n in sorted(self.nodes.items()):
                r = n.record or {}
                rtt = r.get("rtt_ms") or {}
                out.append({
                    "deployment": dep, "node": name, "state": self.state(n, now),
                    "version": r.get("version", ""), "program": str(r.get("program_hash", ""))[:12],
                    "epoch": r.get("epoch", ""), "hop_ms": r.get("hop_ms"), "compute_ms": r.get("compute_ms"),
                    "rtt_ms": {str(k): v for k, v in rtt.items() if isinstance(v, (int, float))},
                    "drops": r.get("drops", ""), "requests": r.get("requests", ""),
                    "seen_s": None if n.last_record is None else max(0.0, now - n.last_record),
                    "phi": n.detector.phi(now),
                })
        return out


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


#: (header, key, right-justified); node and state always show
_COLUMNS = (("node", "node", False), ("state", "state", False), ("version", "version", False),
            ("program", "program", False), ("epoch", "epoch", True), ("hop ms", "hop", True),
            ("compute ms", "compute", True), ("rtt ms", "rtt", False), ("drops", "drops", True),
            ("reqs", "reqs", True), ("seen", "seen", True))
#: the columns a narrow terminal hides, first hidden first
_HIDE_ORDER = ("program", "compute", "epoch", "version", "rtt", "reqs", "deployment", "drops", "hop", "seen")
#: the widest an RTT list is laid out before it wraps
_RTT_WIDTH = 24


def render(model: StatusModel, now: float, title: str = "bb-edge fleet", width: int | None = None) -> Any:
    """A rich Table of :meth:`StatusModel.rows`, at most ``width`` characters wide when given.

    One deployment goes into the title instead of a column. Node names and states always show:
    a terminal too narrow for every column hides the least telling ones (the caption says which)
    rather than cutting every cell.
    """
    from rich.table import Table

    rows = model.rows(now)
    deployments = sorted({r["deployment"] for r in rows})
    one = len(deployments) == 1
    cells = [{"deployment": r["deployment"], "node": r["node"], "state": r["state"], "version": str(r["version"]),
              "program": r["program"], "epoch": str(r["epoch"]), "hop": _ms(r["hop_ms"]),
              "compute": _ms(r["compute_ms"]),
              "rtt": " ".join(f"{k}:{v:.1f}" for k, v in sorted(r["rtt_ms"].items())) or "-",
              "drops": str(r["drops"]), "reqs": str(r["requests"]),
              "seen": "-" if r["seen_s"] is None else f"{r['seen_s']:.1f}s"} for r in rows]
    columns = list(_COLUMNS if one else (("deployment", "deployment", False), *_COLUMNS))
    widths = {key: max([len(header)] + [len(c[key]) for c in cells]) for header, key, _ in columns}
    widths["rtt"] = min(widths["rtt"], _RTT_WIDTH)
    hidden: list[str] = []
    for key in _HIDE_ORDER:
        if width is None or 1 + sum(widths[k] + 3 for _, k, _ in columns) <= width:
            break
        for col in [c for c in columns if c[1] == key]:
            columns.remove(col)
            hidden.append(col[0])
    caption = (f"down after {model.bound():.1f} s without a status record (phi >= {model.threshold:g}) "
               "or on the broker's last will")
    if hidden:
        caption += f"; hidden to fit: {', '.join(hidden)}"
    table = Table(title=f"{title}: {deployments[0]}" if one else title, caption=caption)
    for header, key, right in columns:
        table.add_column(header, justify="right" if right else "left", no_wrap=key != "rtt",
                         overflow="fold" if key == "rtt" else "ellipsis", min_width=widths[key])
    for c in cells:
        style = {"up": "green", "down": "bold red"}.get(c["state"], "yellow")
        table.add_row(*(f"[{style}]{c[key]}[/]" if key == "state" else c[key] for _, key, _ in columns))
    return table


class StatusClient:
    """An MQTT subscriber feeding a :class:`StatusModel` (presence + status topics of every deployment)."""

    def __init__(self, url: str, model: StatusModel, user: str = "_status") -> None:
        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        from bb_edge.adapters.transports.mqtt import MqttConfig

        self.model = model
        self.cfg = MqttConfig.from_url(url)
        if self.cfg.creds or self.cfg.password:
            self.cfg = self.cfg.for_node(user)
        self.prefix = self.cfg.prefix
        self.connected = threading.Event()
        self.refused: list[str] = []
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"{user}-{id(self):x}", clean_session=True,
                        protocol=paho.MQTTv311)
        self.cfg.secure(c)
        c.on_connect = self._on_connect
        c.on_message = self._on_message
        c.reconnect_delay_set(1, 2)
        self.client = c

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if rc.is_failure:
            self.refused.append(str(rc))
            return
        client.subscribe([(f"{self.prefix}/+/presence/+", 1), (f"{self.prefix}/+/status/+", 1)])
        self.connected.set()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        parts = msg.topic.split("/")
        if len(parts) != 4 or parts[0] != self.prefix:
            return
        _, dep, kind, name = parts
        now = time.monotonic()
        if kind == "presence":
            self.model.on_presence(dep, name, bytes(msg.payload), now)
        elif kind == "status":
            self.model.on_status(dep, name, bytes(msg.payload), now)

    def start(self, timeout: float = 10.0) -> None:
        """Connect and start the network thread; BBError if refused or not connected within ``timeout``."""
        from bb_edge.errors import BBError

        self.client.connect_async(self.cfg.host, self.cfg.port, keepalive=10)
        self.client.loop_start()
        deadline = time.monotonic() + timeout
        while not self.connected.wait(0.05):
            if self.refused:
                self.stop()
                raise BBError(f"broker refused the status view: {self.refused[-1]}")
            if time.monotonic() > deadline:
                self.stop()
                raise BBError(f"no connection to {self.cfg.host}:{self.cfg.port} in {timeout}s")

    def stop(self) -> None:
        """Disconnect and stop the network thread."""
        self.client.disconnect()
        self.client.loop_stop()


def run_view(url: str, interval: float = 1.0, threshold: float = 8.0, refresh: float = 0.25,
             once: float | None = None, connect_timeout: float = 10.0) -> int:
    """``bb-edge status``: a live rich view until SIGINT/SIGTERM, or one table after ``once`` seconds."""
    import signal

    from rich.console import Console
    from rich.live import Live

    model = StatusModel(interval=interval, threshold=threshold)
    client = StatusClient(url, model)
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
