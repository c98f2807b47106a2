"""Builder ``ros2``: an ament_python package whose node maps ROS 2 topics to the node program.

Package layout (the bundle directory is the package root)::

    package.xml (format 3), setup.py, setup.cfg, resource/<pkg>
    <pkg>/node.py     the fleet node: engine + host loop on the deployment's transport (MQTT), graph
                      inputs from subscribed topics, graph outputs published (rclpy, or Cyclone DDS without ROS)
    <pkg>/msgs.py     std_msgs/sensor_msgs types in DDS form for the no-ROS path
    launch/<pkg>.launch.py, config/params.yaml (transport, topics, message types, program directory)
    program/          deployment.json + the node program;  lib/  vendored bb_edge + adapters;  manifest.json

The node is a full fleet member: cross-node edges travel over the transport as
envelopes (as with ``bb-edge node``); only the *graph* inputs and outputs the
node owns are mapped to ROS topics. The transport URL is ``--transport``, else
``$BB_TRANSPORT``, else ``transport`` in params.yaml (``bb-edge build
--transport``, default ``mqtt://localhost:1883``; ``none`` for a one-node
deployment without a fleet).

Message mapping, per graph input/output of the node: an image-like input
(``[1, C, H, W]`` with C in 1/3/4, or uint8 ``[H, W, C]``) is ``sensor_msgs/Image``
(``32FC*`` or 8-bit encodings, HWC pixels, values as sent); everything else is
``std_msgs/Float32MultiArray`` (one layout dim per axis).
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


def message_type(spec: dict[str, Any], is_input: bool) -> str:
    """The ROS 2 message type carrying a tensor of this contract."""
    shape = spec["shape"]
    image = (len(shape) == 4 and shape[1] in (1, 3, 4) and shape[2] > 1 and shape[3] > 1) or \
        (len(shape) == 3 and shape[2] in (1, 3, 4) and spec["dtype"] == "uint8")
    return "sensor_msgs/Image" if image and is_input else "std_msgs/Float32MultiArray"


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
        return {**spec, "topic": topic_name(dep.name, s.name), "msg": message_type(spec, is_input)}
    return {"inputs": [port(s, True) for s in dep.inputs if s.node == node],
            "outputs": [port(s, False) for s in dep.outputs if s.node == node]}


def fleet_transport(request: BuildRequest) -> str:
    """The fleet transport URL written to params.yaml (``--transport``, else a local MQTT broker)."""
    url = str(request.options.get("transport") or "")
    return url if url.split(":", 1)[0] in ("mqtt", "mqtts", "serial") or url == "none" else "mqtt://localhost:1883"


def build(request: BuildRequest) -> BuildResult:
    """Build a ros2 package bundle (see module docstring)."""
    nb = prepare_node(request)
    out = request.out_dir
    prof = request.profile
    pkg = package_name(nb.deployment.name, nb.node)
    ports = graph_ports(nb.deployment, nb.node)
    program = write_program_dir(nb, out) / nb.deployment.node(nb.node).program
    vals = {"PACKAGE": pkg, "NODE": nb.node, "DEPLOYMENT": nb.deployment.name}
    params = (f"{pkg}:\n  ros__parameters:\n"
              f"    node: {json.dumps(nb.node)}\n"
              f"    program_dir: {json.dumps(str(program.parent.relative_to(out)))}\n"
              f"    transport: {json.dumps(fleet_transport(request))}\n"
              f"    outputs_to_host: true\n"
              f"    domain_id: {int(prof.get('dds_domain', 0))}\n"
              f"    ros_distro: {json.dumps(prof.get('ros_distro', 'humble'))}\n"
              f"    inputs: {json.dumps(ports['inputs'])}\n"
              f"    outputs: {json.dumps(ports['outputs'])}\n")
    arts: dict[str, Path] = {
        "program": program,
        "package_xml": write_text(out / "package.xml", render("ros2_package.xml", **vals)),
        "setup_py": write_text(out / "setup.py", render("ros2_setup.py.tmpl", **vals)),
        "setup_cfg": write_text(out / "setup.cfg", render("ros2_setup.cfg", **vals)),
        "resource": write_text(out / "resource" / pkg, ""),
        "node": write_text(out / pkg / "node.py", render("ros2_node.py.tmpl", **vals)),
        "msgs": write_text(out / pkg / "msgs.py", render("ros2_msgs.py.tmpl")),
        "launch": write_text(out / "launch" / f"{pkg}.launch.py", render("ros2_launch.py.tmpl", **vals)),
        "params": write_text(out / "config" / "params.yaml", params),
        "requirements": write_text(out / "requirements.txt", pinned_requirements(("cyclonedds",))),
    }
    write_text(out / pkg / "__init__.py", f'"""bb-edge node {nb.node} of {nb.deployment.name} (ROS 2)."""\n')
    copy_runtime(out)
    arts["manifest"] = write_manifest(request, nb, arts, ros_package=pkg, topics=ports,
                                      ros_distro=prof.get("ros_distro"), fleet_transport=fleet_transport(request))
    return BuildResult(nb.node, prof.name, out, arts, figures(nb, arts))
