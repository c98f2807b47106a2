"""Builder ``ros2``: an ament_python package whose node maps ROS 2 topics to the node program.

Package layout (the bundle directory is the package root)::

    package.xml (format 3), setup.py, setup.cfg, resource/<pkg>
    <pkg>/node.py     subscribes input topics, computes, publishes outputs (rclpy, or Cyclone DDS without ROS)
    <pkg>/msgs.py     std_msgs/sensor_msgs types in DDS form for the no-ROS path
    launch/<pkg>.launch.py, config/params.yaml (topics, message types, program)
    program/          deployment.json + the node program;  lib/  vendored bb_edge;  manifest.json

Message mapping, per tensor of the node's compute model: an image-like input
(``[1, C, H, W]`` with C in 1/3/4, or uint8 ``[H, W, C]``) is ``sensor_msgs/Image``;
everything else is ``std_msgs/Float32MultiArray`` (one layout dim per axis).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bb_edge.build import BuildRequest, BuildResult
from bb_edge.build.artifacts import (
    copy_runtime,
    figures,
    io_contract,
    pinned_requirements,
    prepare_node,
    render,
    write_manifest,
    write_program_dir,
    write_text,
)


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


def build(request: BuildRequest) -> BuildResult:
    """Build a ros2 package bundle (see module docstring)."""
    nb = prepare_node(request)
    out = request.out_dir
    prof = request.profile
    pkg = package_name(nb.deployment.name, nb.node)
    io = io_contract(nb)
    ports = {k: [{**s, "topic": topic_name(nb.deployment.name, s["name"]),
                  "msg": message_type(s, k == "inputs")} for s in v] for k, v in io.items()}
    program = write_program_dir(nb, out) / nb.deployment.node(nb.node).program
    vals = {"PACKAGE": pkg, "NODE": nb.node, "DEPLOYMENT": nb.deployment.name}
    params = (f"{pkg}:\n  ros__parameters:\n"
              f"    program: {json.dumps(str(program.relative_to(out)))}\n"
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
                                      ros_distro=prof.get("ros_distro"))
    return BuildResult(nb.node, prof.name, out, arts, figures(nb, arts))
