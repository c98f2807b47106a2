"""Builder ``ros2``: an ament_python package whose node is an rclpy lifecycle node serving the node program.

Package layout (the bundle directory is the package root; ``colcon build`` builds it)::

    package.xml (format 3: every run dependency), setup.py, setup.cfg, resource/<pkg>
    <pkg>/node.py     the console script <pkg>_node: bb_edge.adapters.fleet.ros2_node (docs/targets.md)
    lib/bb_edge       the bb_edge runtime, installed by setup.py next to the node
    launch/<pkg>.launch.py, config/params.yaml (ROS parameters), config/ports.json (graph ports, topics)
    program/          deployment.json + the node program;  requirements.txt (pip-only dependencies);  manifest.json

The node is a full fleet member: cross-node edges travel over the transport as envelopes (as with
``bb-edge node``); the *graph* inputs and outputs the node owns are ROS topics. The transport URL is
``--transport``, else ``$BB_TRANSPORT``, else the ``transport`` parameter (``bb-edge build --transport``,
default ``mqtt://localhost:1883``; ``none`` for a one-node deployment without a fleet).

Message mapping per port: an image input (``[1, C, H, W]``, ``[1, H, W, C]`` or ``[H, W, C]`` with C 1 or 3)
is ``sensor_msgs/Image``; a point set (``[1, N, 3]`` or ``[N, 3]`` float32) ``sensor_msgs/PointCloud2`` (fields
x, y, z); other float32 inputs ``std_msgs/Float32MultiArray``, uint8 inputs
``std_msgs/UInt8MultiArray``. Outputs are ``sensor_msgs/Image`` (one channel; the request's header carried
through) when their dtype has an encoding, else ``Float32MultiArray``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bb_edge.bundle import BuildRequest, BuildResult
from bb_edge.bundle.artifacts import (
    copy_runtime,
    figures,
    pinned_requirements,
    prepare_node,
    render,
    write_manifest,
    write_program_dir,
    write_text,
)
from bb_edge.deployment.manifest import Deployment, IOSpec

# the node's pure parts (conversions, message choice) live with the node; importing them loads no ROS
MSG_IMAGE, MSG_F32, MSG_U8 = "sensor_msgs/Image", "std_msgs/Float32MultiArray", "std_msgs/UInt8MultiArray"
MSG_POINTS = "sensor_msgs/PointCloud2"
OUTPUT_ENCODINGS = ("float32", "uint8", "int8", "int16", "uint16", "int32", "float64")


def points_shape(shape: list[int]) -> bool:
    """True when a contract is a point set: ``[1, N, 3]`` or ``[N, 3]`` (x, y, z), N > 3."""
    return (len(shape) == 3 and shape[0] in (1, -1) and shape[2] == 3 and shape[1] > 3) or \
        (len(shape) == 2 and shape[1] == 3 and shape[0] > 3)


def image_layout(shape: list[int]) -> str | None:
    """``NCHW``, ``NHWC`` or ``HWC`` when a contract's shape is an image (1 or 3 channels), else ``None``."""
    if len(shape) == 4 and shape[0] in (1, -1) and shape[1] in (1, 3) and shape[2] > 1 and shape[3] > 1:
        return "NCHW"
    if len(shape) == 4 and shape[0] in (1, -1) and shape[3] in (1, 3) and shape[1] > 1 and shape[2] > 1:
        return "NHWC"
    if len(shape) == 3 and shape[2] in (1, 3) and shape[0] > 1 and shape[1] > 1:
        return "HWC"
    return None


def message_type(spec: dict[str, Any], is_input: bool) -> str:
    """The ROS 2 message type carrying a tensor of this contract."""
    if is_input:
        if image_layout(list(spec["shape"])) is not None and spec["dtype"] in ("uint8", "float32"):
            return MSG_IMAGE
        if points_shape(list(spec["shape"])) and spec["dtype"] == "float32":
            return MSG_POINTS
        return MSG_U8 if spec["dtype"] == "uint8" else MSG_F32
    return MSG_IMAGE if spec["dtype"] in OUTPUT_ENCODINGS else MSG_F32


def topic_name(deployment: str, tensor: str) -> str:
    """A valid ROS 2 topic for a tensor: ``/bb/<deployment>/<tensor>`` with other characters as '_'."""
    clean = re.sub(r"[^A-Za-z0-9_/]", "_", f"bb/{deployment}/{tensor}")
    return "/" + re.sub(r"/+", "/", clean).strip("/")


def package_name(deployment: str, node: str) -> str:
    """The ament package name (lowercase, [a-z0-9_], starting with a letter)."""
    return re.sub(r"[^a-z0-9_]", "_", f"bb_{deployment}_{node}".lower())


def graph_ports(dep: Deployment, node: str) -> dict[str, list[dict[str, Any]]]:
    """The graph inputs/outputs ``node`` owns, each with its ROS topic and message type."""
    def port(s: IOSpec, is_input: bool) -> dict[str, Any]:
        spec: dict[str, Any] = {"name": s.name, "dtype": s.dtype, "shape": list(s.shape), "edge": s.edge_id}
        msg = message_type(spec, is_input)
        layout = image_layout(spec["shape"]) if msg == MSG_IMAGE and is_input else None
        return {**spec, "topic": topic_name(dep.name, s.name), "msg": msg, "layout": layout}
    return {"inputs": [port(s, True) for s in dep.inputs if s.node == node],
            "outputs": [port(s, False) for s in dep.outputs if s.node == node]}


def fleet_transport(request: BuildRequest) -> str:
    """The fleet transport URL written to params.yaml (``--transport``, else a local MQTT broker)."""
    url = str(request.options.get("transport") or "")
    return url if url.split(":", 1)[0] in ("mqtt", "mqtts", "serial") or url == "none" else "mqtt://localhost:1883"


def param_key(name: str) -> str:
    """A tensor name as a ROS parameter name segment ([A-Za-z0-9_])."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name) or "_"


def ros_params(node: str, program_dir: str, transport: str, ports: dict[str, list[dict[str, Any]]]) -> str:
    """config/params.yaml: the node's ROS parameters (``/**``: whatever the node is named at launch).

    Floats keep a decimal point (a parameter's type is fixed by its declared default).
    """
    lines = ["/**:", "  ros__parameters:", f"    node: {json.dumps(node)}",
             f"    program_dir: {json.dumps(program_dir)}", f"    transport: {json.dumps(transport)}",
             '    qos_inputs: "sensor_data"', '    qos_outputs: "reliable"', "    qos_depth: 10",
             "    diagnostics_period: 1.0", "    deadline_s: 0.0", "    heartbeat: 0.5", "    outputs_to_host: false",
             "    autostart: true"]
    if ports["inputs"]:
        lines.append("    inputs:")
        for p in ports["inputs"]:
            lines += [f"      {param_key(p['name'])}:", f"        topic: {json.dumps(p['topic'])}"]
            if p["msg"] == MSG_IMAGE:
                lines += [f"        scale: {1.0 / 255.0!r}", "        offset: 0.0", '        channel_order: "rgb"']
    if ports["outputs"]:
        lines.append("    outputs:")
        for p in ports["outputs"]:
            lines += [f"      {param_key(p['name'])}:", f"        topic: {json.dumps(p['topic'])}"]
    return "\n".join(lines) + "\n"


def build(request: BuildRequest) -> BuildResult:
    """Build a ros2 package bundle (see module docstring)."""
    nb = prepare_node(request)
    out = request.out_dir
    prof = request.profile
    pkg = package_name(nb.deployment.name, nb.node)
    ports = graph_ports(nb.deployment, nb.node)
    program = write_program_dir(nb, out) / nb.deployment.node(nb.node).program
    vals = {"PACKAGE": pkg, "NODE": nb.node, "DEPLOYMENT": nb.deployment.name}
    params = ros_params(nb.node, str(program.parent.relative_to(out)), fleet_transport(request), ports)
    arts: dict[str, Path] = {
        "program": program,
        "package_xml": write_text(out / "package.xml", render("ros2_package.xml", **vals)),
        "setup_py": write_text(out / "setup.py", render("ros2_setup.py.tmpl", **vals)),
        "setup_cfg": write_text(out / "setup.cfg", render("ros2_setup.cfg", **vals)),
        "resource": write_text(out / "resource" / pkg, ""),
        "node": write_text(out / pkg / "node.py", render("ros2_node.py.tmpl", **vals)),
        "launch": write_text(out / "launch" / f"{pkg}.launch.py", render("ros2_launch.py.tmpl", **vals)),
        "params": write_text(out / "config" / "params.yaml", params),
        "ports": write_text(out / "config" / "ports.json", json.dumps(ports, indent=1) + "\n"),
        "requirements": write_text(out / "requirements.txt", pinned_requirements(("jsonschema", "cobs"))),
    }
    write_text(out / pkg / "__init__.py", f'"""bb-edge node {nb.node} of {nb.deployment.name} (ROS 2)."""\n')
    copy_runtime(out)
    arts["manifest"] = write_manifest(request, nb, arts, ros_package=pkg, topics=ports,
                                      ros_distro=prof.get("ros_distro"), fleet_transport=fleet_transport(request))
    return BuildResult(nb.node, prof.name, out, arts, figures(nb, arts))
