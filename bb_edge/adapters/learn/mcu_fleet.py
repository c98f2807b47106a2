"""MCU FedAvg clients in a learning fleet: the C training client (firmware/include/bbrt_learn.h) on a serial line.

A microcontroller does not speak MQTT; it speaks the link layer (docs/wire.md)
on a UART. :class:`McuLearnBridge` is the device's place in the fleet: it owns
the device's line (a QEMU pty or the posix build on a pty, through
:mod:`bb_edge.adapters.devices.serial_devices`), connects to the broker *as the device's
node* and moves envelopes both ways without looking inside them. The learning
protocol (JOIN, MODEL, UPDATE, HEARTBEAT; validation, training, the round
record) runs on the device; this process only moves bytes, so the server sees
the device exactly as it sees a Linux client.

``python -m bb_edge.adapters.learn.mcu_fleet LEARN_DIR --node c2 --transport URL
--bundle DIST/c2`` runs one bridge; it takes the ``bb-edge node`` arguments
the fleet runner passes (``--learning``, ``--clock-origin``, ``--progress``,
...) so :class:`~bb_edge.adapters.learn.fleet.LearningFleet` starts it like any
node (its ``launchers``). ``--record DIR`` keeps every MODEL sent to the
device and every UPDATE it sent (``.npy``, for the reference check);
``--power-cut ROUND:SECONDS`` kills the device that long after it reported
taking ROUND's model (``ModelTaken``, sent before it trains) and boots it again
on the same line (fault injection: a reboot mid-round).

The reference: :func:`round_batches` reproduces the device's batch order
(:c:func:`bbrt_learn_batch_order`: xorshift32 Fisher-Yates, full batches) and
:func:`reference_update` runs the same ONNX training program on ONNX Runtime
over those batches, so a device's update can be checked against it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.devices.serial_devices import PtyHostDevice, QemuDevice, SerialDevice
from bb_edge.adapters.learn.node import msg_name
from bb_edge.bundle.learning.mcu import IMAGE_MAGIC, write_image
from bb_edge.errors import BBError
from bb_edge.wire.envelope import peek

__all__ = ["IMAGE_MAGIC", "McuLearnBridge", "MpyHostedLearnDevice", "batch_order", "device_for_bundle",
           "learn_link_config", "main", "reference_update", "round_batches", "write_image"]

PROTO_FEDAVG_SERVER, PROTO_FEDAVG_CLIENT = 16, 17
MSG_MODEL, MSG_UPDATE = 2, 3
_M32 = 0xFFFFFFFF


def _mix(h: int, v: int) -> int:
    h = (h ^ v) & _M32
    h = (h * 0x9E3779B1) & _M32
    return h ^ (h >> 16)


def batch_order(n: int, seed: int, node_id: int, rnd: int, pass_: int) -> np.ndarray:
    """One pass's sample order exactly as the device draws it (``bbrt_learn_batch_order``)."""
    x = _mix(_mix(_mix(_mix(0x6A09E667, seed & _M32), node_id & _M32), rnd & _M32), pass_ & _M32) or 1
    order = list(range(n))
    for i in range(n, 1, -1):
        x ^= (x << 13) & _M32
        x ^= x >> 17
        x ^= (x << 5) & _M32
        j = x % i
        order[i - 1], order[j] = order[j], order[i - 1]
    return np.asarray(order, dtype=np.int64)


def round_batches(n: int, batch: int, epochs: int, steps: int, seed: int, node_id: int, rnd: int) -> list[np.ndarray]:
    """The device's mini-batches of round ``rnd``: full batches only, a new order per pass."""
    per_pass = n // batch
    total = steps if steps > 0 else epochs * per_pass
    out: list[np.ndarray] = []
    order = np.zeros(0, np.int64)
    at, p = n, 0
    for _ in range(total):
        if at + batch > n:
            order, at, p = batch_order(n, seed, node_id, rnd, p), 0, p + 1
        out.append(order[at:at + batch])
        at += batch
    return out


def reference_update(program: Any, start: np.ndarray, x: np.ndarray, y: np.ndarray,
                     batches: Sequence[np.ndarray]) -> np.ndarray:
    """The float reference: ONNX Runtime runs ``program`` from ``start`` over ``batches``; returns trained - start.

    Fresh optimizer state, as the device starts every round (and FedAvgClient without
    ``keep_optimizer_state``).
    """
    from bb_edge.backends.base import get_backend

    seg = get_backend("ort").prepare(program.model, "train")
    layout = program.layout
    params = layout.unflatten(np.asarray(start, np.float32))
    state = program.initial_state()
    data_name = program.data_inputs[0].name
    label_dtype = program.labels.dtype if program.labels is not None else "int64"
    for idx in batches:
        feeds: dict[str, np.ndarray] = {data_name: np.ascontiguousarray(x[idx], np.float32),
                                        "labels": y[idx].astype(label_dtype)}
        feeds.update(params)
        feeds.update({"opt/" + k: v for k, v in state.items()})
        out = seg.run(feeds)
        params = {s.name: np.asarray(out["next/" + s.name]) for s in program.params}
        state = {s.name[len("opt/"):]: np.asarray(out["next/" + s.name]) for s in program.state}
    return layout.flatten(params) - np.asarray(start, np.float32)


# ------------------------------------------------------------------ devices

class QemuLearnDevice(QemuDevice):
    """A training client ELF under QEMU: the image in its flash region, the round record in ``state_file``."""

    def __init__(self, kind: str, elf: Path, image: Path, node_id: int, *, epoch_file: Path,
                 state_file: Path, **kw: Any) -> None:
        super().__init__(kind, elf, image, node_id, epoch_file=epoch_file, own_pty=True, flash=False, **kw)
        if "," in str(state_file) or " " in str(state_file):
            raise BBError(f"state file path {state_file} may not contain ',' or ' ' (QEMU option syntax)")
        i = self.cmd.index("-semihosting-config") + 1
        self.cmd[i] += f",arg={state_file}"  # the third semihosting word: learn_mcu_main.c's record file


class HostLearnDevice(PtyHostDevice):
    """The posix training client (``bbrt-learn``) on a pty, its round record in ``state_file``."""

    def __init__(self, exe: Path, image: Path, node_id: int, *, epoch_file: Path, state_file: Path,
                 **kw: Any) -> None:
        super().__init__(exe, image, node_id, epoch_file=epoch_file, **kw)
        self.cmd += ["--state-file", str(state_file)]

    def restart(self, timeout: float = 20.0) -> None:
        """Kill the process and start it again on the same pty; wait for its HELLO with a new epoch."""
        known = self.link.peer.boot_epoch if self.link is not None and self.link.peer is not None else 0
        self.kill()
        self._launch()
        deadline = time.monotonic() + timeout
        while self.link is not None and time.monotonic() < deadline:
            self._pump(0.05)
            if self.link.up and self.link.peer is not None and self.link.peer.boot_epoch > known:
                return
        raise BBError(f"device node {self.node_id} did not say HELLO with a new epoch after restart")


class EspIdfLearnDevice(HostLearnDevice):
    """The FedAvg client's ESP-IDF app built for ESP-IDF's linux target, on a pty: its flash (learning image,
    ``bbstate`` NVS) is the image file ``flash_image`` (docs/targets.md "ESP32 on ESP-IDF")."""

    def __init__(self, elf: Path, flash_image: Path, node_id: int, **kw: Any) -> None:
        super().__init__(elf, flash_image, node_id, epoch_file=flash_image, state_file=flash_image, **kw)
        self.elf, self.flash_image = elf, flash_image

    def _launch(self) -> None:
        env = {**os.environ, "BBRT_FLASH": str(self.flash_image), "BBRT_UART": self._own.slave_path}
        self.proc = subprocess.Popen([str(self.elf)], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)


def _esp_idf_linux_device(b: Path, man: dict[str, Any], sd: Path) -> EspIdfLearnDevice:
    """Build ``b``'s ESP-IDF project for the linux target (once per state dir) and write its flash image as
    esptool would write a chip: partition table at 0x8000, learn.bin at ``bblearn``; ``bbstate`` erased."""
    from bb_edge.bbrt.espidf import build_linux_target, parse_partitions
    from bb_edge.bbrt.flash import PARTITION_TABLE_OFFSET, flash_size, write_flash_image

    project = b / man["artifacts"]["project"]
    elf = build_linux_target(project, sd / f"{man['node']}-idf-build")
    image = sd / f"{man['node']}.flash"
    if not image.exists():
        rows = {r[0]: r for r in parse_partitions((project / "partitions.csv").read_text())}
        size = int(flash_size(b).removesuffix("MB")) << 20
        write_flash_image([(PARTITION_TABLE_OFFSET, sd / f"{man['node']}-idf-build" / "partition_table" /
                            "partition-table.bin"), (rows["bblearn"][3], b / man["artifacts"]["image"])], image, size)
    return EspIdfLearnDevice(elf, image, int(man["node_id"]), config=learn_link_config())


MPY_UART_SHIM = '''"""machine.UART on a pseudo-terminal (raw mode): a MicroPython bundle's main.py hosted by CPython."""
import os
import select
import tty


class UART:
    """The bundle's UART; here the pty slave whose path is in BB_UART_PATH."""

    def __init__(self, uart_id, baudrate=0, tx=None, rx=None, rxbuf=0):
        self.fd = os.open(os.environ["BB_UART_PATH"], os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)

    def read(self):
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return None
        except OSError:  # the host closed the line: the board is switched off
            raise SystemExit(0)
        return data or None

    def write(self, data):
        view = memoryview(bytes(data))
        while view:
            try:
                view = view[os.write(self.fd, view):]
            except BlockingIOError:
                select.select([], [self.fd], [], 0.05)
        return len(data)
'''

MPY_LAUNCH = """import os, runpy, sys
sys.path[:0] = {paths!r}
os.chdir({here!r})
runpy.run_path("main.py", run_name="__main__")
"""


class MpyHostedLearnDevice(HostLearnDevice):
    """A MicroPython training client bundle (``--target cN=esp32-micropython --transport serial``) whose own
    main.py runs under CPython with bbnode's sources, its UART a pty (:data:`MPY_UART_SHIM`).

    The bundle's files are copied into ``node_dir`` (its flash: boot epoch, round record and log live there);
    :meth:`restart` SIGKILLs the process and boots it again on the same pty, as a reset of the board.
    """

    def __init__(self, bundle: Path, node_dir: Path, node_id: int, **kw: Any) -> None:
        import shutil

        from bb_edge.mpy.cross import runtime_dir

        node_dir = node_dir.resolve()  # the launcher changes into it: a relative path would not be found there
        node_dir.mkdir(parents=True, exist_ok=True)
        for f in ("main.py", "config.json", "train.bbt", "shard.bbs"):
            if not (node_dir / f).exists() or f == "main.py":
                shutil.copyfile(bundle / f, node_dir / f)
        shims = node_dir / "_shims"
        shims.mkdir(exist_ok=True)
        (shims / "machine.py").write_text(MPY_UART_SHIM)
        launch = node_dir / "_launch.py"
        launch.write_text(MPY_LAUNCH.format(paths=[str(shims), str(runtime_dir())], here=str(node_dir)))
        super().__init__(Path(sys.executable), node_dir / "config.json", node_id,
                         epoch_file=node_dir / "boot_epoch", state_file=node_dir / "round", **kw)
        self.cmd = [sys.executable, str(launch)]
        self.node_dir = node_dir

    def _launch(self) -> None:
        import subprocess

        env = dict(os.environ, BB_UART_PATH=self._own.slave_path)
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, env=env, cwd=str(self.node_dir))


def learn_link_config() -> Any:
    """The host end's link timers for a training client's line.

    An emulated UART takes input at ~10 KB/s (QEMU's CMSDK UART: one byte per main-loop turn), so a
    whole 2.7 KB model frame outlived the default first RTO and went twice. Frames of at most 512 bytes
    (the model arrives fragmented, reassembled by the device's link) and a 1 s first RTO keep one copy.
    """
    from bb_edge.wire import link as L

    return L.LinkConfig(rto_initial=1.0, rto_min=0.2, rto_max=4.0, max_retries=200, hb_interval=0.5,
                        dead_after=10.0, reassembly_timeout=30.0, mtu=512)


def device_for_bundle(bundle: str | Path, state_dir: str | Path | None = None) -> SerialDevice:
    """The (not yet started) device of an MCU learning bundle (``bb-edge build ... --target NODE=qemu-cortex-m3``)."""
    b = Path(bundle)
    if not (b / "manifest.json").exists() and (b / "shard.bbs").exists():  # a MicroPython training client
        try:
            cfg = json.loads((b / "config.json").read_text())
        except (OSError, ValueError) as exc:
            raise BBError(f"{b}: not a MicroPython training bundle ({exc})") from None
        if cfg.get("transport") != "serial" or "learn" not in cfg:
            raise BBError(f"{b}: a MicroPython training bundle on a serial line is built with "
                          "bb-edge build LEARN_DIR --target NODE=esp32-micropython --transport serial")
        sd = Path(state_dir) if state_dir is not None else b / "flash"
        return MpyHostedLearnDevice(b, sd / str(cfg["name"]), int(cfg["node_id"]), config=learn_link_config())
    try:
        man = json.loads((b / "manifest.json").read_text())
    except (OSError, ValueError) as exc:
        raise BBError(f"{b}: not an MCU learning bundle ({exc}); build one with "
                      "bb-edge build LEARN_DIR --target NODE=qemu-cortex-m3") from None
    if man.get("format") != "bb-edge/mcu-learning-bundle":
        raise BBError(f"{b}: manifest format {man.get('format')!r} is not an MCU learning bundle")
    sd = Path(state_dir) if state_dir is not None else b
    sd.mkdir(parents=True, exist_ok=True)
    node_id = int(man["node_id"])
    image = b / man["artifacts"]["image"]
    epoch, state = sd / f"{man['node']}.epoch", sd / f"{man['node']}.round"
    if man["kind"] == "esp-idf":  # the generated ESP-IDF app, built by ESP-IDF for its linux target
        return _esp_idf_linux_device(b, man, sd)
    fw = b / man["artifacts"]["firmware"]
    if man["kind"] == "host":
        return HostLearnDevice(fw, image, node_id, epoch_file=epoch, state_file=state, config=learn_link_config())
    return QemuLearnDevice(man["qemu"], fw, image, node_id, epoch_file=epoch, state_file=state,
                           config=learn_link_config())


# ------------------------------------------------------------------ bridge

class McuLearnBridge:
    """Envelopes between a device's serial line and the broker, as the device's node (module docstring)."""

    def __init__(self, device: SerialDevice, transport: Any, node: str, ids: dict[str, int],
                 record: Path | None = None, power_cut: tuple[int, float] | None = None,
                 log: Any = None) -> None:
        self.device, self.transport, self.node, self.ids = device, transport, node, ids
        self.names = {i: n for n, i in ids.items()}
        self.record = record
        self.power_cut = power_cut
        self.log = log or sys.stdout
        self.inbox: deque[tuple[bytes, Any]] = deque()
        self.stopping = threading.Event()
        self.bytes_out = 0
        self.sent_to: dict[str, int] = {}  # as ProgressLog counts a bb-edge node's bytes (the fleet's summary)
        self.sent_by_type: dict[str, int] = {}
        self.counts: dict[str, int] = {}
        self._cut_at: float | None = None
        self._cut_done = False
        if record is not None:
            record.mkdir(parents=True, exist_ok=True)

    def _say(self, text: str) -> None:
        print(text, file=self.log, flush=True)

    def _deliver(self, peer: str, data: bytes, ack: Any = None) -> None:
        """From the transport's thread: queue for the loop (the device line has one owner)."""
        self.inbox.append((bytes(data), ack))

    def _keep(self, kind: str, env: bytes) -> None:
        """Record a MODEL / UPDATE payload (float32 vector) as ``<kind>-r<round>-<n>.npy``."""
        head = peek(env)
        if self.record is None or head is None or len(env) < 72:
            return
        rnd, off, plen = head.request_id, head.data_offset, head.payload_len
        vec = np.frombuffer(env[off:off + plen - plen % 4], dtype="<f4")
        n = len(list(self.record.glob(f"{kind}-r{rnd}-*.npy")))
        np.save(self.record / f"{kind}-r{rnd}-{n}.npy", vec)

    @staticmethod
    def _head(env: bytes) -> tuple[int, int, int] | None:
        """(protocol, receiver, edge) of an envelope, or None if it is too short to be one."""
        head = peek(env)
        return None if head is None else (head.protocol, head.receiver, head.edge)

    def step(self, wait: float = 0.02) -> None:
        """One loop turn: transport -> device, device -> transport, device control, power cut."""
        while self.inbox:
            env, ack = self.inbox.popleft()
            h = self._head(env)
            if h is not None and h[0] == PROTO_FEDAVG_CLIENT and h[2] == MSG_MODEL:
                self._keep("model", env)
            self.device.send(env)
            if ack is not None:
                ack()  # handed to the device's link, which delivers it (and resends it after a reboot)
        for env in self.device.wait_data(1, wait):
            h = self._head(env)
            if h is None:
                continue
            protocol, receiver, edge = h
            if protocol == PROTO_FEDAVG_SERVER and edge == MSG_UPDATE:
                self._keep("update", env)
            peer = self.names.get(receiver)
            if peer is None:
                self.counts["unroutable"] = self.counts.get("unroutable", 0) + 1
                continue
            self.transport.send(peer, receiver, env)
            self.bytes_out += len(env)
            self.sent_to[peer] = self.sent_to.get(peer, 0) + len(env)
            kind = msg_name(env)
            self.sent_by_type[kind] = self.sent_by_type.get(kind, 0) + len(env)
        for e in self.device.control:  # typed events of the device (ModelRefused ..., RoundResumed ...)
            if e.edge == 5:
                text = bytes(e.data).decode(errors="replace")
                key = text.split(" ")[0] + (":" + text.split(" ")[1] if text.startswith("ModelRefused") else "")
                self.counts[key] = self.counts.get(key, 0) + 1
                self._say(f"device {self.node}: {text}")
                cut = self.power_cut
                if cut is not None and self._cut_at is None and text == f"ModelTaken round={cut[0]}":
                    self._cut_at = time.monotonic() + cut[1]  # the device kept the round's model: now train
        self.device.control.clear()
        self.device.errors.clear()
        if self._cut_at is not None and not self._cut_done and time.monotonic() >= self._cut_at:
            self._cut_done = True  # one power cut per run
            self._say(f"power cut: {self.node} restarts mid-round")
            self.device.restart()  # type: ignore[attr-defined]
            self._say(f"device {self.node} back with boot epoch "
                      f"{self.device.link.peer.boot_epoch if self.device.link and self.device.link.peer else '?'}")

    def run(self) -> None:
        """Relay until :attr:`stopping` is set."""
        while not self.stopping.is_set():
            self.step()


def _parse_cut(text: str) -> tuple[int, float]:
    try:
        r, s = text.split(":", 1)
        return int(r), float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--power-cut wants ROUND:SECONDS, got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    """``python -m bb_edge.adapters.learn.mcu_fleet LEARN_DIR --node N --transport URL --bundle DIR``."""
    p = argparse.ArgumentParser(prog="bb_edge.adapters.learn.mcu_fleet", description=__doc__.split("\n")[0])
    p.add_argument("dir")
    p.add_argument("--node", required=True)
    p.add_argument("--transport", required=True)
    p.add_argument("--bundle", required=True, help="the node's MCU learning bundle (bb-edge build)")
    p.add_argument("--state-dir", default=None, help="boot epoch and round record files (default: the bundle)")
    p.add_argument("--record", default=None, help="keep MODEL/UPDATE vectors here (.npy)")
    p.add_argument("--power-cut", type=_parse_cut, default=None, metavar="ROUND:SECONDS")
    p.add_argument("--progress", default=None)
    # what the fleet runner passes every node; the device has its own clock and settings
    for flag in ("--learning", "--clock-origin", "--start-file", "--status-interval", "--backend"):
        p.add_argument(flag, default=None)
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--late", action="store_true")
    args = p.parse_args(argv)
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport
    from bb_edge.deployment.learning import learning_roster
    from bb_edge.deployment.manifest import load_deployment

    try:
        dep = load_deployment(args.dir)
        ids = dict(learning_roster(dep.extra["learning"]))
        if args.node not in ids:
            raise BBError(f"no node {args.node!r} in {args.dir}; nodes: {', '.join(ids)}")
        device = device_for_bundle(args.bundle, args.state_dir)
        if device.node_id != ids[args.node]:
            raise BBError(f"bundle {args.bundle} is node id {device.node_id}, not {args.node} (id {ids[args.node]})")
        device.start(timeout=60.0)  # type: ignore[attr-defined]
    except BBError as exc:
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    transport = MqttTransport(MqttConfig.from_url(args.transport), dep.name, args.node, ids)
    bridge = McuLearnBridge(device, transport, args.node, ids, Path(args.record) if args.record else None,
                            args.power_cut)
    signal.signal(signal.SIGTERM, lambda *_: bridge.stopping.set())
    signal.signal(signal.SIGINT, lambda *_: bridge.stopping.set())
    try:
        transport.open(bridge._deliver)
        transport.wait_connected(30.0)
        print(f"node {args.node} (id {ids[args.node]}) of {dep.name!r} on {args.transport.split('?')[0]} "
              f"(device: {type(device).__name__})", flush=True)
        # the fleet's common start: the device's link is kept alive, what it sends (its JOIN) waits here
        while args.start_file and not Path(args.start_file).exists() and not bridge.stopping.is_set():
            device.pump_for(0.05)
        bridge.run()
    finally:
        transport.stop_inbound()
        transport.flush(2.0)
        transport.close()
        device.stop()  # type: ignore[attr-defined]
        if args.progress:
            with open(args.progress, "a") as f:
                f.write(json.dumps({"kind": "final", "node": args.node, "wall": time.time(),
                                    "bytes_out": bridge.bytes_out, "events": bridge.counts,
                                    "sent_to": bridge.sent_to, "sent_by_type": bridge.sent_by_type,
                                    "model_round": 0, "model": None}) + "\n")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
