"""The ROS 2 node of a ``ros2`` bundle: an rclpy lifecycle node serving one node of a deployment.

The bundle's console script (``<pkg>_node``) calls :func:`main`. The node

- *configure*: loads the program, builds the engine and its host loop on the fleet transport
  (``transport`` parameter, ``$BB_TRANSPORT`` overrides it; ``none`` for a deployment of this one
  node) and starts the loop thread: cross-node edges travel as envelopes, as with ``bb-edge node``;
- *activate*: subscribes the graph inputs the node owns (``sensor_msgs/Image``,
  ``std_msgs/Float32MultiArray`` or ``UInt8MultiArray``) and publishes the graph outputs it owns,
  each with the request's header (stamp, frame id) carried through;
- *deactivate* / *cleanup*: unsubscribes / stops the loop (in-flight envelopes flushed);
- always: ``diagnostic_msgs/DiagnosticArray`` on ``/diagnostics`` (state, program hash, latencies,
  bad frames, drops, link state).

With ``autostart`` (the default) the node configures and activates itself, as a lifecycle manager
would. A frame that does not fit the model's input (encoding, size, channels, dtype) raises
:class:`FrameRejected` in the conversion; the node counts it by reason, reports it on /diagnostics and
answers nothing. The conversions are pure numpy (:mod:`bb_edge.adapters.fleet.ros2_convert`).
"""

from __future__ import annotations

import argparse
import array
import json
import os
import sys
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.fleet.ros2_convert import (
    FrameRejected,
    Port,
    array_to_tensor,
    image_to_tensor,
    layout_dims,
    points_to_tensor,
    tensor_to_image,
)
from bb_edge.adapters.fleet.ros2_health import Stats, diagnostic_values
from bb_edge.bundle.builders.ros2 import MSG_F32, MSG_IMAGE, MSG_POINTS, MSG_U8, param_key
from bb_edge.errors import BBError

__all__ = ["FrameRejected", "Port", "array_to_tensor", "image_to_tensor", "tensor_to_image", "main"]

# what a plain-pip ROS 2 install needs for this node (the ``ros`` extra of bb-edge lists the same)
ROS_PIP_PACKAGES = ("ros-rclpy", "ros-std-msgs", "ros-sensor-msgs", "ros-diagnostic-msgs",
                    "ros-lifecycle-msgs", "ros-rcl-interfaces", "ros-rmw-fastrtps-cpp")

class RosParameterError(BBError):
    """A parameter of the node has a value it cannot use."""


class RosMissingError(BBError):
    """rclpy or a message package is not importable: ROS 2 is not installed (or not sourced)."""


class _NoLink:
    """The transport of ``--transport none``: a node without peers; nothing leaves the process."""

    def __init__(self) -> None:
        self.dropped = 0

    def open(self, deliver: Any, on_peer: Any = None, on_control: Any = None) -> None:
        """Nothing to open."""

    def send(self, peer: str, receiver: int, data: bytes) -> None:
        """Count and drop."""
        self.dropped += 1

    def stop_inbound(self) -> None:
        """Nothing inbound."""

    def flush(self, timeout: float) -> int:
        """Nothing in flight."""
        return 0

    def close(self) -> None:
        """Nothing to close."""


def load_ports(path: Path) -> dict[str, list[Port]]:
    """The graph inputs/outputs of the bundle's config/ports.json."""
    raw = json.loads(path.read_text())
    return {k: [Port.from_json(d) for d in raw[k]] for k in ("inputs", "outputs")}


def _import_ros() -> dict[str, Any]:
    """The rclpy modules and message types the node uses, or one :class:`RosMissingError` line."""
    try:
        import rclpy
        from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
        from rcl_interfaces.msg import ParameterDescriptor
        from rclpy import lifecycle, qos
        from sensor_msgs.msg import Image, PointCloud2
        from std_msgs.msg import Float32MultiArray, MultiArrayDimension, UInt8MultiArray
    except ImportError as exc:
        raise RosMissingError(
            f"ROS 2 is not importable ({exc}); source a ROS 2 install (Humble or later: rclpy, std_msgs, "
            f"sensor_msgs, diagnostic_msgs, lifecycle_msgs) or pip install {' '.join(ROS_PIP_PACKAGES)}") from None
    return {"rclpy": rclpy, "lifecycle": lifecycle, "qos": qos, "Image": Image, "Points": PointCloud2,
            "F32": Float32MultiArray,
            "U8": UInt8MultiArray, "Dim": MultiArrayDimension, "DiagnosticArray": DiagnosticArray,
            "DiagnosticStatus": DiagnosticStatus, "KeyValue": KeyValue, "Descriptor": ParameterDescriptor}


def make_node(ros: dict[str, Any], share: Path, package: str, transport_override: str | None) -> Any:
    """The lifecycle node (a class built here: rclpy is imported only when a node runs)."""
    lc = ros["lifecycle"]
    qos = ros["qos"]
    ok = lc.TransitionCallbackReturn.SUCCESS
    Descriptor = ros["Descriptor"]

    class BbEdgeNode(lc.LifecycleNode):  # type: ignore[misc,name-defined]
        """bb-edge node as an rclpy lifecycle node (see the module docstring)."""

        def __init__(self) -> None:
            super().__init__(package)
            self.ports = load_ports(share / "config" / "ports.json")
            ro = Descriptor(read_only=True)
            self.p_node = self._param("node", "", "deployment node this ROS node serves", ro)
            self.p_program = self._param("program_dir", "program", "deployment directory (in the package share)",
                                         ro)
            self.p_transport = self._param("transport", "none", "fleet transport URL ($BB_TRANSPORT overrides)",
                                           ro)
            self.p_qos_in = self._param("qos_inputs", "sensor_data", "sensor_data (best effort) or reliable")
            self.p_qos_out = self._param("qos_outputs", "reliable", "sensor_data or reliable")
            self._param("qos_depth", 10, "history depth of subscriptions and publishers", ro)
            self._param("diagnostics_period", 1.0, "seconds between /diagnostics messages", ro)
            self._param("deadline_s", 0.0, "request deadline in seconds (0: the deployment's)", ro)
            self._param("autostart", True, "configure and activate at start", ro)
            self._param("outputs_to_host", False, "also send graph outputs to the fleet's host endpoint", ro)
            self._param("heartbeat", 0.5, "seconds between PINGs to stages with a standby (failover)", ro)
            for p in self.ports["inputs"]:
                k = f"inputs.{param_key(p.name)}"
                p.topic = str(self._param(f"{k}.topic", p.topic, f"topic of graph input {p.name}", ro))
                self._param(f"{k}.msg", p.msg, "message type", ro)
                if p.msg == MSG_IMAGE:
                    p.scale = float(self._param(f"{k}.scale", p.scale, "8-bit pixel -> float: pixel*scale+offset"))
                    p.offset = float(self._param(f"{k}.offset", p.offset, "8-bit pixel -> float offset"))
                    p.channel_order = str(self._param(f"{k}.channel_order", p.channel_order,
                                                      "the model's channel order (rgb or bgr)"))
                    if p.channel_order not in ("rgb", "bgr"):
                        raise RosParameterError(f"parameter {k}.channel_order is {p.channel_order!r}; set rgb or bgr")
                self._param(f"{k}.conversion", p.conversion, "how a frame becomes the model input", ro)
            for p in self.ports["outputs"]:
                k = f"outputs.{param_key(p.name)}"
                p.topic = str(self._param(f"{k}.topic", p.topic, f"topic of graph output {p.name}", ro))
                p.msg = str(self._param(f"{k}.msg", p.msg, "sensor_msgs/Image (header carried) or "
                                        "std_msgs/Float32MultiArray", ro))
            self.add_on_set_parameters_callback(self._on_set)
            self.stats = Stats()
            self.state = "unconfigured"
            self.loop: Any = None
            self.thread: threading.Thread | None = None
            self.telemetry: Any = None
            self.subs: list[Any] = []
            self.pubs: dict[str, Any] = {}
            self.headers: OrderedDict[int, tuple[Any, float]] = OrderedDict()
            self.pending: dict[str, np.ndarray] = {}
            self.pending_header: Any = None
            self.lock = threading.Lock()
            self.rid = time.time_ns() // 1000
            self.url = "none"
            self.diag_pub = self.create_publisher(ros["DiagnosticArray"], "/diagnostics", 10)
            self.create_timer(float(self.get_parameter("diagnostics_period").value), self.publish_diagnostics)

        def _param(self, name: str, default: Any, doc: str, desc: Any = None) -> Any:
            d = Descriptor(description=doc, read_only=bool(desc is not None and desc.read_only))
            return self.declare_parameter(name, default, d).value

        def _on_set(self, params: list[Any]) -> Any:
            from rcl_interfaces.msg import SetParametersResult

            for prm in params:
                name = prm.name
                for p in self.ports["inputs"]:
                    k = f"inputs.{param_key(p.name)}"
                    if name == f"{k}.scale":
                        p.scale = float(prm.value)
                    elif name == f"{k}.offset":
                        p.offset = float(prm.value)
                    elif name == f"{k}.channel_order":
                        if prm.value not in ("rgb", "bgr"):
                            return SetParametersResult(successful=False, reason="channel_order is rgb or bgr")
                        p.channel_order = str(prm.value)
            return SetParametersResult(successful=True)

        def _qos(self, which: str) -> Any:
            depth = int(self.get_parameter("qos_depth").value)
            if str(self.get_parameter(which).value) == "sensor_data":
                return qos.QoSProfile(depth=depth, reliability=qos.ReliabilityPolicy.BEST_EFFORT,
                                      history=qos.HistoryPolicy.KEEP_LAST)
            return qos.QoSProfile(depth=depth, reliability=qos.ReliabilityPolicy.RELIABLE,
                                  history=qos.HistoryPolicy.KEEP_LAST)

        # ------------------------------------------------------------- lifecycle

        def on_configure(self, state: Any) -> Any:
            from bb_edge.adapters.fleet.hostloop import HostLoop, PeerWatch, seed_sequence, transport_for
            from bb_edge.adapters.ops.telemetry import Telemetry
            from bb_edge.deployment.manifest import load_deployment
            from bb_edge.engine import Engine

            dep = load_deployment(share / str(self.p_program))
            url = transport_override or os.environ.get("BB_TRANSPORT") or str(self.p_transport)
            linked = url not in ("", "none")
            deadline = float(self.get_parameter("deadline_s").value)
            to_host = linked and bool(self.get_parameter("outputs_to_host").value)
            engine = Engine.for_node(dep, str(self.p_node), backend="ort", outputs_to_host=to_host,
                                     deadline_s=deadline if deadline > 0 else None)
            seed_sequence(engine)
            transport = transport_for(url, dep, str(self.p_node)) if linked else _NoLink()
            # idle long: frames (submit) and envelopes wake the loop; a short idle cost ~1 ms CPU per frame
            self.loop = HostLoop(engine, transport, idle=0.25, on_events=self._on_events)
            pv = dep.extra.get("program_version")  # shown by bb-edge status next to the program's hash
            self.telemetry = Telemetry(engine, dep.name, program_version=pv if isinstance(pv, str) else None)
            self.telemetry.attach(self.loop, status_interval=2.0)
            # stage failover to a standby (deployment.json "standby"): phi-accrual over PONGs, as bb-edge node
            PeerWatch.for_engine(self.loop, interval=float(self.get_parameter("heartbeat").value))
            for peer in sorted(self.telemetry._peers()):
                self.stats.link[peer] = "unknown"
            if linked:
                engine.hello()
            self.url = url.split("?")[0] if linked else "none"
            self.thread = self.loop.start_thread()
            self.state = "inactive"
            self.get_logger().info(f"configured: node {self.p_node} (id {engine.node_id}) of {dep.name} on "
                                   f"{self.url}")
            return ok

        def on_activate(self, state: Any) -> Any:
            types = {MSG_IMAGE: ros["Image"], MSG_F32: ros["F32"], MSG_U8: ros["U8"], MSG_POINTS: ros["Points"]}
            for p in self.ports["outputs"]:
                self.pubs[p.name] = self.create_publisher(types[p.msg], p.topic, self._qos("qos_outputs"))
            for p in self.ports["inputs"]:
                self.subs.append(self.create_subscription(types[p.msg], p.topic,
                                                          lambda m, p=p: self.on_frame(p, m),
                                                          self._qos("qos_inputs")))
            self.state = "active"
            self.get_logger().info(f"active: {[p.topic for p in self.ports['inputs']]} -> "
                                   f"{[p.topic for p in self.ports['outputs']]}")
            return super().on_activate(state)

        def on_deactivate(self, state: Any) -> Any:
            for s in self.subs:
                self.destroy_subscription(s)
            self.subs.clear()
            for pub in self.pubs.values():
                self.destroy_publisher(pub)
            self.pubs.clear()
            self.state = "inactive"
            return super().on_deactivate(state)

        def on_cleanup(self, state: Any) -> Any:
            self.stop_loop()
            self.state = "unconfigured"
            return ok

        def on_shutdown(self, state: Any) -> Any:
            self.stop_loop()
            self.state = "finalized"
            return ok

        def stop_loop(self) -> Any:
            """Stop the host loop (it flushes in-flight envelopes); its shutdown report, if it ran."""
            report = None
            if self.loop is not None and self.thread is not None:
                self.loop.request_stop()
                self.thread.join(30)
                report = self.loop.report
            self.loop, self.thread = None, None
            return report

        # ----------------------------------------------------------------- data

        def on_frame(self, port: Port, msg: Any) -> None:
            """A message on an input topic: convert (or count it bad); submit once every input has one."""
            t0 = time.monotonic()
            with self.stats.lock:
                self.stats.frames_in += 1
            try:
                if port.msg == MSG_IMAGE:
                    arr = image_to_tensor(port, msg.encoding, int(msg.height), int(msg.width), int(msg.step),
                                          int(msg.is_bigendian), msg.data)
                elif port.msg == MSG_POINTS:
                    arr = points_to_tensor(port, [(f.name, int(f.offset), int(f.datatype), int(f.count))
                                                  for f in msg.fields], int(msg.point_step),
                                           int(msg.height) * int(msg.width), int(msg.is_bigendian), msg.data)
                else:
                    arr = array_to_tensor(port, port.msg, [int(d.size) for d in msg.layout.dim], msg.data)
            except FrameRejected as exc:
                self.stats.bad_frame(exc.reason, f"{port.name}: {exc}")
                return
            header = getattr(msg, "header", None)
            with self.lock:
                self.pending[port.name] = arr
                if header is not None:
                    self.pending_header = header
                if len(self.pending) < len(self.ports["inputs"]) or self.loop is None:
                    return
                feeds, self.pending = self.pending, {}
                self.rid += 1
                rid = self.rid
                self.headers[rid] = (self.pending_header, t0)
                while len(self.headers) > 4096:
                    self.headers.popitem(last=False)
            with self.stats.lock:
                self.stats.submitted += 1
            self.loop.submit(rid, feeds)

        def _on_events(self, evs: list[Any]) -> None:
            from bb_edge.engine import events

            for e in evs:
                if isinstance(e, events.OutputReady):
                    self.publish_output(e.request_id, e.name, np.asarray(e.value))
                elif isinstance(e, events.RequestCompleted):
                    with self.lock:
                        hdr = self.headers.pop(e.request_id, None)
                    with self.stats.lock:
                        self.stats.completed += 1
                    if hdr is not None:
                        self.stats.latency((time.monotonic() - hdr[1]) * 1e3)
                elif isinstance(e, (events.RequestTimedOut, events.RequestEvicted, events.RequestFailed,
                                    events.ComputeFailed)):
                    with self.lock:
                        self.headers.pop(e.request_id, None)
                    with self.stats.lock:
                        k = type(e).__name__
                        self.stats.failed[k] = self.stats.failed.get(k, 0) + 1
                elif isinstance(e, events.PeerUp):
                    with self.stats.lock:
                        self.stats.link[e.peer] = "up"
                elif isinstance(e, events.PeerDown):
                    with self.stats.lock:
                        self.stats.link[e.peer] = "down"
                elif isinstance(e, events.RouteChanged):
                    with self.stats.lock:
                        self.stats.routes[e.stage] = e.via

        def publish_output(self, rid: int, name: str, arr: np.ndarray) -> None:
            """Publish one graph output with its request's header."""
            port = next((p for p in self.ports["outputs"] if p.name == name), None)
            pub = self.pubs.get(name)
            if port is None or pub is None:
                return
            with self.lock:
                hdr = self.headers.get(rid)
            img = tensor_to_image(arr) if port.msg == MSG_IMAGE else None
            if img is not None:
                m = ros["Image"]()
                if hdr is not None and hdr[0] is not None:
                    m.header = hdr[0]
                m.encoding, m.height, m.width, m.step = img[0], img[1], img[2], img[3]
                m.data = img[4]
            else:
                m = ros["F32"]()
                m.layout.dim = [ros["Dim"](label=lb, size=s, stride=st) for lb, s, st in layout_dims(arr.shape)]
                m.data = array.array("f", np.ascontiguousarray(arr, dtype=np.float32).tobytes())
            pub.publish(m)
            with self.stats.lock:
                self.stats.published += 1

        def publish_diagnostics(self) -> None:
            """One DiagnosticArray on /diagnostics."""
            status = self.telemetry.status() if self.telemetry is not None else {}
            level, message, values = diagnostic_values(self.stats, status, self.state, self.url, self.ports)
            st = ros["DiagnosticStatus"](level=bytes([level]), name=f"bb_edge: {package}",
                                        message=message, hardware_id=str(self.p_node))
            st.values = [ros["KeyValue"](key=k, value=v) for k, v in values]
            arr = ros["DiagnosticArray"]()
            arr.header.stamp = self.get_clock().now().to_msg()
            arr.status = [st]
            self.diag_pub.publish(arr)

    return BbEdgeNode()


def main(argv: list[str] | None = None, share: str | Path | None = None, package: str = "bb_edge_node") -> int:
    """Run the node until SIGINT/SIGTERM (console script of the bundle)."""
    args = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog=f"{package}_node")
    ap.add_argument("--transport", default=None,
                    help="fleet transport URL (default: $BB_TRANSPORT, else the transport parameter)")
    opts, ros_args = ap.parse_known_args(args)
    root = Path(share) if share is not None else Path.cwd()
    try:
        ros = _import_ros()
    except RosMissingError as exc:
        print(f"error: RosMissingError: {exc}", file=sys.stderr, flush=True)
        return 2
    if "--params-file" not in ros_args:  # the package's parameters first; the caller's -p NAME:=V override them
        ros_args = ["--ros-args", "--params-file", str(root / "config" / "params.yaml"), *ros_args]
    rclpy = ros["rclpy"]
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.signals import SignalHandlerOptions

    # SIGINT/SIGTERM stop the spin below; the node then flushes its loop before rclpy shuts down
    rclpy.init(args=[sys.argv[0], *ros_args], signal_handler_options=SignalHandlerOptions.NO)
    try:
        node = make_node(ros, root, package, opts.transport)
    except BBError as exc:
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        rclpy.try_shutdown()
        return 2
    import signal

    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if bool(node.get_parameter("autostart").value):
        node.trigger_configure()
        node.trigger_activate()
    print(f"ros2 node {package}: {node.state}", flush=True)
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    try:
        while not stop.is_set() and rclpy.ok():
            executor.spin_once(timeout_sec=0.1)
    finally:
        report = node.stop_loop()
        node.destroy_node()
        rclpy.try_shutdown()
    print(f"shutdown {report} ({node.stats.frames_in} frame(s) in, {sum(node.stats.bad.values())} bad, "
          f"{node.stats.published} output(s) published)", flush=True)
    return 0 if report is None or report.unconfirmed == 0 else 3
