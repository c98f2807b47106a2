"""``bb-edge deploy DIST --fleet mqtt://...``: push new per-node programs to a live fleet.

Checks first, before a byte is sent: every node of DIST exists in the running
deployment with the same id, the wire format and version are the same, and
every new program keeps its node's contract (edges, dtypes, shapes; see
:func:`bb_edge.engine.ota.contract_problem`). Then the sans-IO
:class:`~bb_edge.engine.ota.OtaDeployer` stages every node and commits only
once all of them answered READY; the first refusal or timeout sends ABORT to
every node, which keeps its old program.

``bb-edge deploy`` speaks as the deployer: its own broker identity and wire id
(``_deploy``, :data:`~bb_edge.deployment.manifest.DEPLOY_ID`, present when the
deployment has an ``ota`` section), so a running host keeps its connection and
its sequence numbers while a deploy runs. :class:`OtaTap` lets code that owns a
host endpoint update through the host's own transport instead (id 0).
"""

from __future__ import annotations

import collections
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bb_edge.deployment.manifest import DEPLOY_ID, DEPLOY_NAME, HOST_ID, HOST_NAME, Deployment, load_deployment
from bb_edge.engine import ota
from bb_edge.errors import BBError, WireError
from bb_edge.wire import envelope as wire
from bb_edge.wire import hello as hello_record

OFFER_BYTES = 53 + 63 + 32  # an OFFER2 with the longest deployment name and an HMAC-SHA-256 signature
# DATA bytes per envelope on a serial line: envelope (72 + 8 + chunk) in one 4 KiB link frame. The C link
# reassembles one fragmented message at a time; fragments of the next would wait for a resend (~1.5x slower)
SERIAL_CHUNK = 4000
TARGET_BY_SUFFIX = {".onnx": ota.TARGET_ONNX, ".bbrt": ota.TARGET_BBRT, ".py": ota.TARGET_MPY,
                    ".mpy": ota.TARGET_MPY}


@dataclass(frozen=True)
class BbrtBundle:
    """One C node's build output (``bb-edge build --target NODE=host-mqtt``): program, update key, payload limit."""

    program: Path
    key: bytes | None  # the HMAC-SHA-256 key provisioned at build time (ota_hmac.key), None if absent
    max_payload: int  # the firmware's BBRT_MAX_PAYLOAD: every OTA envelope must fit it
    target: int = ota.TARGET_BBRT  # TARGET_MPY for a MicroPython node (same .bbrt program, its own loader)


def bbrt_bundles(directory: str | Path) -> dict[str, BbrtBundle]:
    """The C node bundles under a ``bb-edge build -o DIR`` directory (``DIR/NODE/bbrt-build.json``), by node;
    MicroPython bundles (``DIR/NODE/build.json``, builder micropython) too, with target 3.

    Raises :class:`~bb_edge.engine.ota.OtaError` (BAD_MESSAGE, NO_KEY) for a bundle whose files are unusable.
    """
    from bb_edge.bbrt.firmware import BUILD_JSON

    out: dict[str, BbrtBundle] = {}
    for facts_path in sorted(Path(directory).glob(f"*/{BUILD_JSON}")):
        b = facts_path.parent
        try:
            facts = json.loads(facts_path.read_text())
            node, mp, prog = str(facts["node"]), int(facts["max_payload"]), b / str(facts["program"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ota.OtaError(ota.BAD_MESSAGE, f"{facts_path}: not a bbrt build report: {exc}") from None
        out[node] = BbrtBundle(prog, _bundle_key(b), mp)
    out.update(_mpy_bundles(Path(directory)))  # esp32-micropython bundles: the same key scheme, target 3
    return out


def _bundle_key(bundle: Path) -> bytes | None:
    """The bundle's provisioned update key (hex in ``ota_hmac.key``), None if it has none."""
    from bb_edge.bbrt.firmware import OTA_KEY_FILE  # the same file name for C and MicroPython bundles

    path = bundle / OTA_KEY_FILE
    if not path.is_file():
        return None
    try:
        return bytes.fromhex(path.read_text().strip())
    except ValueError:
        raise ota.OtaError(ota.NO_KEY, f"{path}: not a hex key") from None


def _mpy_bundles(directory: Path) -> dict[str, BbrtBundle]:
    """The MicroPython bundles under a build directory (``DIR/NODE/build.json``, builder micropython), by node."""
    from bb_edge.mpy.ota import MIN_MAX_PROGRAM

    out: dict[str, BbrtBundle] = {}
    for facts_path in sorted(directory.glob("*/build.json")):
        b = facts_path.parent
        try:
            facts = json.loads(facts_path.read_text())
            if not isinstance(facts, dict) or facts.get("builder") != "micropython":
                continue
            cfg = json.loads((b / "config.json").read_text())
            node, mp = str(facts["node"]), int(cfg["max_payload"])
            int(cfg.get("ota", {}).get("max_program", MIN_MAX_PROGRAM))  # a bundle without it is refused here
            prog = b / str(cfg.get("program", "program.bbrt"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ota.OtaError(ota.BAD_MESSAGE, f"{b}: not a MicroPython bundle: {exc}") from None
        out[node] = BbrtBundle(prog, _bundle_key(b), mp, ota.TARGET_MPY)
    return out


def plan_update(current: Deployment, new: Deployment, signer: ota.Signer, sig_kind: int = ota.SIG_ED25519,
                chunk: int | None = None, nodes: list[str] | None = None, *,
                bundles: dict[str, BbrtBundle] | None = None,
                current_bundles: dict[str, BbrtBundle] | None = None, delta: bool = True) -> list[ota.NodeUpdate]:
    """Check DIST against the running deployment and build one :class:`NodeUpdate` per changed node.

    ``bundles`` (:func:`bbrt_bundles` of the new build) and ``current_bundles`` (of the build the fleet
    runs) make their nodes C nodes: the new ``.bbrt`` program is offered, signed with HMAC-SHA-256
    under the key provisioned in the *running* bundle, in chunks that fit the node's payload limit.
    Raises :class:`~bb_edge.engine.ota.OtaError` (UNKNOWN_NODE, CONTRACT_MISMATCH, BAD_MESSAGE,
    NO_KEY) before anything is sent. Nodes whose program bytes did not change are left out. With
    ``delta``, an ONNX node whose new program changes only initializer values gets a per-tensor delta
    (:mod:`bb_edge.engine.ota.delta`) when it is under half the full image.
    """
    bundles = bundles or {}
    current_bundles = current_bundles or {}
    if (new.to_json().get("format"), new.to_json().get("version")) != (current.to_json().get("format"),
                                                                       current.to_json().get("version")):
        raise ota.OtaError(ota.CONTRACT_MISMATCH, "DIST uses another deployment format/wire version")
    ids = current.ids()
    updates = []
    for spec in new.nodes:
        if nodes is not None and spec.name not in nodes:
            continue
        if ids.get(spec.name) != spec.id:
            raise ota.OtaError(ota.UNKNOWN_NODE, f"{spec.name!r} (id {spec.id}) is not a node of the running "
                                                 f"deployment {current.name!r}")
        if new.directory is None or current.directory is None:
            raise BBError("deploy needs both deployments loaded from directories")
        path = new.directory / spec.program
        old_path = current.directory / current.node(spec.name).program
        node_signer, node_kind = signer, sig_kind
        limit = int(current.limits_for(spec.name).get("max_payload", wire.DEFAULT_MAX_PAYLOAD))
        if spec.name in bundles or spec.name in current_bundles:
            if spec.name not in bundles or spec.name not in current_bundles:
                raise ota.OtaError(ota.WRONG_TARGET, f"{spec.name}: a C node needs its bundle in both the new "
                                                     f"and the running build")
            running = current_bundles[spec.name]
            if running.key is None:
                raise ota.OtaError(ota.NO_KEY, f"{spec.name}: its running bundle has no update key "
                                               f"(ota_hmac.key); rebuild it with `bb-edge build`")
            path, old_path = bundles[spec.name].program, running.program
            node_signer, node_kind = ota.hmac_signer(running.key), ota.SIG_HMAC_SHA256
            limit = min(limit, running.max_payload)
            if limit - ota.DATA_HEADER < 1 or limit < OFFER_BYTES:
                raise ota.OtaError(ota.TOO_LARGE, f"{spec.name}: payload limit {limit} cannot carry an OFFER")
        target = bundles[spec.name].target if spec.name in bundles else TARGET_BY_SUFFIX.get(path.suffix)
        if target is None:
            raise ota.OtaError(ota.WRONG_TARGET, f"{path.name}: unknown program kind")
        image = path.read_bytes()
        previous = old_path.read_bytes() if old_path.is_file() else None
        if previous == image:
            continue
        # the deployment's ONNX contract (a C node's .bbrt is lowered from it; the node checks its own too)
        if new.directory is not None and (new.directory / spec.program).suffix == ".onnx":
            problem = ota.contract_problem(current.program(spec.name), new.program(spec.name))
            if problem is not None:
                raise ota.OtaError(ota.CONTRACT_MISMATCH, f"{spec.name}: {problem}")
        size = min(chunk or 32 << 10, limit - ota.DATA_HEADER)
        upd = ota.NodeUpdate(spec.name, image, target, node_signer, node_kind, size, previous)
        if delta and target == ota.TARGET_ONNX and previous is not None:
            from bb_edge.engine.ota.delta import make_delta

            made = make_delta(previous, image)
            if made is not None and len(made[0]) < len(image) // 2:
                upd.image, upd.delta, upd.base = made[1], made[0], made[2]
        updates.append(upd)
    return updates


class OtaTap:
    """Wraps a host transport: OTA replies and HELLOs go to the deployer, everything else on to the host."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.inbox: collections.deque[wire.Envelope] = collections.deque()
        self.program_hashes: dict[int, bytes] = {}  # node id -> hash from its latest HELLO
        self.listening = True

    def open(self, deliver: Any, on_peer: Any = None, on_control: Any = None) -> None:
        """Open the wrapped transport with a delivering function that looks at OTA traffic first."""
        def tap(peer: str, data: bytes, ack: Any = None) -> None:
            if self._take(bytes(data)):
                if ack is not None:
                    ack()
                return
            if ack is None:
                deliver(peer, data)
            else:
                deliver(peer, data, ack)

        self.inner.open(tap, on_peer, on_control) if on_control is not None else self.inner.open(tap, on_peer)

    def _take(self, data: bytes) -> bool:
        try:
            env = wire.decode(data)
        except WireError:
            return False
        if env.kind == wire.KIND_CONTROL and env.protocol == wire.PROTO_CONTROL and env.edge == 1:
            try:
                self.program_hashes[env.sender] = hello_record.decode(bytes(env.payload_bytes())).program_hash
            except (WireError, ValueError):
                pass
            return False  # the host sees HELLOs as before
        if env.protocol == ota.PROTO_OTA:
            self.inbox.append(env)  # deque.append: safe from the transport's thread
            return True
        return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@dataclass
class DeployReport:
    """How a deployment update ended."""

    state: str
    nodes: list[str]
    switched: dict[str, str] = field(default_factory=dict)  # node -> new program hash (hex)
    failures: dict[str, str] = field(default_factory=dict)  # node -> "code_name: reason"
    seconds: float = 0.0
    reverted: list[str] = field(default_factory=list)  # committed, then answered the ABORT: previous program
    unreverted: list[str] = field(default_factory=list)  # committed, never answered the ABORT: may run the update
    programs: dict[str, str] = field(default_factory=dict)  # node -> hash (hex) it last announced in a HELLO
    sent: dict[str, tuple[int, int]] = field(default_factory=dict)  # node -> (bytes streamed, full program bytes)
    stages: list[str] = field(default_factory=list)  # a staged rollout: one line per canary stage judged
    resumed: dict[str, int] = field(default_factory=dict)  # node -> bytes it already held (a resumed transfer)
    streamed: dict[str, int] = field(default_factory=dict)  # node -> DATA payload bytes this deploy sent

    @property
    def ok(self) -> bool:
        """Every node switched."""
        return self.state == "done"


class Deploy:
    """Drive one :class:`OtaDeployer` over a tapped transport (call :meth:`step` or :meth:`run`)."""

    def __init__(self, tap: OtaTap | SerialTap, ids: dict[str, int], updates: list[ota.NodeUpdate],
                 next_seq: Callable[[], int], timeout_s: float = 60.0,
                 commit_gate: Callable[[], bool] | None = None, clock: Callable[[], float] = time.monotonic,
                 update_id: int | None = None, sender: int = HOST_ID, deployment: str = "",
                 version: int | None = None, stages: list[list[str]] | None = None,
                 canary: ota.CanaryLimits | None = None, resume: bool = False,
                 verify: Callable[[str], ota.CanaryStats | None] | None = None) -> None:
        self.tap = tap
        self.clock = clock
        uid = update_id if update_id is not None else int(time.time() * 1000) & 0xFFFFFFFF
        # the program version: wall-clock milliseconds unless given, so every later deploy is newer
        version = version if version is not None else int(time.time() * 1000)
        self.deployer = ota.OtaDeployer(ids, updates, next_seq, uid, timeout_s=timeout_s, commit_gate=commit_gate,
                                        sender=sender, version=version, deployment=deployment, stages=stages,
                                        canary=canary, resume=resume, verify=verify)
        self.t0 = clock()

    def _ship(self, out: list[ota.Outgoing]) -> None:
        for o in out:
            self.tap.send(o.peer, o.receiver, o.data)

    def start(self) -> None:
        """Send OFFER and every chunk."""
        self.t0 = self.clock()
        self._ship(self.deployer.start(self.clock()))

    def step(self) -> str:
        """Hand replies to the deployer and send what it answers; the deployer's state."""
        while self.tap.inbox:
            self.deployer.on_envelope(self.tap.inbox.popleft())
        self._ship(self.deployer.poll(self.clock()))
        return self.deployer.state

    def run(self, interval: float = 0.01) -> DeployReport:
        """Start, then step until done or failed."""
        self.start()
        while self.step() not in ("done", "failed"):
            time.sleep(interval)
        return self.report()

    def report(self) -> DeployReport:
        """The outcome so far."""
        d = self.deployer
        return DeployReport(d.state, sorted(d.updates), {n: h.hex() for n, h in d.switched.items()},
                            {n: f"{ota.CODE_NAMES.get(c, c)}: {r}" for n, (c, r) in d.failures.items()},
                            self.clock() - self.t0, list(d.reverted), list(d.unreverted),
                            {n: self.tap.program_hashes[d.ids[n]].hex() for n in d.updates
                             if d.ids.get(n) in self.tap.program_hashes},
                            {n: (len(u.delta or u.image), len(u.image)) for n, u in d.updates.items()},
                            list(d.stage_log), {n: o for n, o in d.resumed.items() if o}, dict(d.streamed))


class SerialTap:
    """The deployer's end of a serial link (``serial:`` URL): the host (id 0) facing the one node on the line.

    The link layer (adapters/transports/serial_link.py) carries the envelopes; OTA replies go to :attr:`inbox`, HELLO
    records to :attr:`program_hashes`; the node at the other end is named by its link HELLO (node id).
    """

    def __init__(self, link: Any) -> None:
        self.link = link
        self.inbox: collections.deque[wire.Envelope] = collections.deque()
        self.program_hashes: dict[int, bytes] = {}

    def open(self) -> None:
        """Start the link (its HELLO goes out at once)."""
        self.link.start(self._on_envelope)

    def _on_envelope(self, data: bytes) -> None:
        try:
            env = wire.decode(bytes(data))
        except WireError:
            return  # not an envelope: nothing a deployer acts on
        if env.kind == wire.KIND_CONTROL and env.protocol == wire.PROTO_CONTROL and env.edge == 1:
            try:
                self.program_hashes[env.sender] = hello_record.decode(bytes(env.payload_bytes())).program_hash
            except (WireError, ValueError):
                pass
        elif env.protocol == ota.PROTO_OTA:
            self.inbox.append(env)

    def peer_id(self, timeout: float) -> int:
        """The node id of the link's peer, from its HELLO; OtaError(TIMEOUT) when none came in time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            peer = self.link.link.peer
            if peer is not None:
                return int(peer.node_id)
            time.sleep(0.02)
        raise ota.OtaError(ota.TIMEOUT, f"no link HELLO from the node on the line in {timeout:.0f}s")

    def send(self, peer: str, receiver: int, data: bytes) -> None:
        """One envelope onto the line (``peer``/``receiver`` name the node at its other end)."""
        self.link.send(data)

    def close(self) -> None:
        """Stop the link."""
        self.link.close()


def line_link(spec: Any, port: Any = None, **kw: Any) -> Any:
    """A host-end :class:`~adapters.serial_link.SerialLink` whose timers suit a bulk transfer at the line's baud.

    A 4 KiB frame takes ~0.36 s at 115200 baud: the default window (32 frames, 11 s of line time) and
    RTO (0.2 s) would resend frames still queued behind the others (measured: 6x the line time for
    256 KiB). So the window holds about half a second of line time (at least 2 frames) and the RTO
    floor is two windows' worth. ``port``: an already open port (default: the URL's).
    """
    from bb_edge.adapters.transports.serial_link import SerialLink
    from bb_edge.wire import link as L

    frame_s = 4096 * 10 / spec.baud
    window = max(2, min(spec.window, int(0.5 / frame_s) + 1))
    rto = max(spec.rto, 2 * window * frame_s)
    cfg = L.LinkConfig(rto_initial=rto, rto_min=rto, rto_max=4 * rto, max_retries=spec.retries,
                       hb_interval=spec.hb, dead_after=max(spec.hb * max(1, spec.miss), 2 * rto), mtu=spec.mtu)
    return SerialLink(port if port is not None else spec.open_port(), spec.baud, spec.rto, spec.retries, spec.arq,
                      heartbeat=spec.hb, miss=spec.miss, mtu=spec.mtu, window=window, config=cfg, **kw)


def deploy_over_serial(dist: str | Path, current: str | Path, url: str, signer: ota.Signer,
                       sig_kind: int = ota.SIG_ED25519, timeout_s: float = 60.0, *,
                       bundles: str | Path | None = None, current_bundles: str | Path | None = None,
                       hello_timeout: float = 20.0, chunk: int = SERIAL_CHUNK) -> DeployReport:
    """``bb-edge deploy --fleet serial:PORT``: update the one node on a serial line (found by its HELLO)."""
    from bb_edge.adapters.fleet.hostloop import sequence_base
    from bb_edge.adapters.transports.serial_link import SerialSpec

    cur = load_deployment(current)
    new = load_deployment(dist)
    tap = SerialTap(line_link(SerialSpec.parse(url), name="deploy", node_id=0, node_name=HOST_NAME))
    seq = [sequence_base()]

    def next_seq() -> int:
        seq[0] += 1
        return seq[0]

    tap.open()
    try:
        nid = tap.peer_id(hello_timeout)
        node = {i: n for n, i in cur.ids().items()}.get(nid)
        if node is None or node == HOST_NAME:
            raise ota.OtaError(ota.UNKNOWN_NODE, f"the node on {url} says it is id {nid}, which is not a node "
                                                 f"of the running deployment {cur.name!r}")
        updates = plan_update(cur, new, signer, sig_kind, chunk=chunk, nodes=[node],
                              bundles=bbrt_bundles(bundles) if bundles else None,
                              current_bundles=bbrt_bundles(current_bundles) if current_bundles else None)
        if not updates:
            return DeployReport("done", [])
        return Deploy(tap, cur.ids(), updates, next_seq, timeout_s=timeout_s, deployment=cur.name,
                      resume=True).run()
    finally:
        tap.close()


def parse_stages(text: str, nodes: list[str]) -> list[list[str]]:
    """``--stages``: comma-separated stages, each ``P%`` of ``nodes`` (sorted, rounded up) or node names joined
    by ``+``; cumulative. The last stage must be every node: the fleet switches together (the epoch switch),
    the stages before it run the update in shadow on their nodes. Raises OtaError(UNKNOWN_NODE, BAD_MESSAGE)."""
    import math

    order = sorted(nodes)
    out: list[list[str]] = []
    for item in (x.strip() for x in text.split(",")):
        if item.endswith("%"):
            try:
                pct = float(item[:-1])
            except ValueError:
                raise ota.OtaError(ota.BAD_MESSAGE, f"--stages: {item!r} is not a percentage") from None
            if not 0 < pct <= 100:
                raise ota.OtaError(ota.BAD_MESSAGE, f"--stages: {item!r} is not in (0, 100]%")
            group = order[:max(1, math.ceil(pct / 100 * len(order)))]
        else:
            group = [n for n in item.split("+") if n]
            unknown = sorted(set(group) - set(order))
            if unknown or not group:
                raise ota.OtaError(ota.UNKNOWN_NODE, f"--stages: {unknown or item!r} not nodes of this update "
                                                     f"({', '.join(order)})")
        out.append(sorted(set(group) | (set(out[-1]) if out else set())))
    if not out or set(out[-1]) != set(order):
        raise ota.OtaError(ota.BAD_MESSAGE, "--stages: the last stage must be every updated node (100%): the fleet "
                                            "switches together")
    return out


def deploy_to_fleet(dist: str | Path, current: str | Path, url: str, signer: ota.Signer,
                    sig_kind: int = ota.SIG_ED25519, timeout_s: float = 60.0, *,
                    bundles: str | Path | None = None, current_bundles: str | Path | None = None,
                    delta: bool = True, stages: str | None = None,
                    canary: ota.CanaryLimits | None = None) -> DeployReport:
    """``bb-edge deploy``: connect as ``_deploy`` to the broker at ``url`` (or the serial line of a ``serial:``
    URL) and update every changed node; ``bundles``/``current_bundles``: the C nodes' builds (new, running)."""
    from bb_edge.adapters.fleet.hostloop import sequence_base
    from bb_edge.adapters.ops.ota_verify import probe_verifier
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport

    if url.startswith("serial:"):
        return deploy_over_serial(dist, current, url, signer, sig_kind, timeout_s, bundles=bundles,
                                  current_bundles=current_bundles)
    cur = load_deployment(current)
    new = load_deployment(dist)
    updates = plan_update(cur, new, signer, sig_kind,
                          bundles=bbrt_bundles(bundles) if bundles else None,
                          current_bundles=bbrt_bundles(current_bundles) if current_bundles else None, delta=delta)
    if not updates:
        return DeployReport("done", [])
    plan = parse_stages(stages, [u.node for u in updates]) if stages else None
    ids = cur.ids()
    if DEPLOY_NAME not in ids:
        raise ota.OtaError(ota.NO_KEY, f"the running deployment {cur.name!r} has no 'ota' section, so the broker has "
                                       f"no {DEPLOY_NAME} identity: run `bb-edge keygen --deployment DIR`, then "
                                       f"`bb-edge broker DIR` again")
    tap = OtaTap(MqttTransport(MqttConfig.from_url(url), cur.name, DEPLOY_NAME, ids))
    tap.open(lambda peer, data, ack=None: None)
    seq = [sequence_base()]

    def next_seq() -> int:
        seq[0] += 1
        return seq[0]

    try:
        tap.inner.wait_connected(20.0)
        return Deploy(tap, ids, updates, next_seq, timeout_s=timeout_s, sender=DEPLOY_ID, deployment=cur.name,
                      stages=plan, canary=canary, resume=True,
                      verify=probe_verifier(cur, updates) if plan else None).run()
    finally:
        tap.inner.flush(10.0)
        tap.inner.close()


