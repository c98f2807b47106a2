"""Learning bundles: a node of a learning deployment (``learning`` in deployment.json) for a Linux-class target.

``bb-edge build LEARN_DIR --target NODE=T`` with T a ``linux`` (linux-vm-*),
``jetson`` (jetson-*) or ``ros2`` (ros2-*) profile lands here
(:data:`bb_edge.bundle.BUILDERS` sends a learning deployment to :func:`build_learning`). The
bundle trains: launched from its directory, ``./run.sh`` runs ``bb-edge node
program --node NODE --transport $BB_TRANSPORT`` on the vendored runtime, which
builds the node's engine and strategy handlers exactly as the simulator does
(``bb_edge/adapters/learn/node.py``) and joins the fleet over the broker.

Bundle layout::

    manifest.json   node, target, strategy, role, the learning config, artifacts
    program/        the learning deployment: deployment.json, model.onnx and its data files
    lib/            vendored bb_edge + adapters (no install of bb-edge needed)
    requirements.txt, run.sh, node.env (BB_TRANSPORT=...), bb-edge-<node>.service, README.md

Extra arguments to ``run.sh`` go to ``bb-edge node`` (``--state FILE``,
``--learning JSON``, ``--progress FILE``). A Jetson bundle runs the training
program on ONNX Runtime's CPU provider (training steps are small; the
profile's providers are listed in the manifest); a ROS 2 bundle trains
without ROS topics (learning traffic is envelopes on the fleet transport).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bb_edge.bundle import BuildError, BuildRequest, BuildResult
from bb_edge.bundle.artifacts import copy_runtime, default_transport, pinned_requirements, render, write_text
from bb_edge.deployment.learning import learning_clients, learning_node_names
from bb_edge.deployment.manifest import load_deployment

__all__ = ["build_learning"]


def _copy_program(src: Path, dst: Path, skip: Path) -> None:
    """Copy the learning deployment (config, model, data files) into ``dst``, leaving out the build output."""
    src, skip = src.resolve(), skip.resolve()

    def ignore(directory: str, names: list[str]) -> set[str]:
        out = {n for n in names if n.startswith(".") or n == "__pycache__"}
        return out | {n for n in names if (Path(directory) / n).resolve() in (skip, skip.parent)}

    shutil.copytree(src, dst, ignore=ignore)


def build_learning(req: BuildRequest) -> BuildResult:
    """Build the learning bundle of ``req.node`` (see the module docstring)."""
    dep = load_deployment(req.deployment_dir)
    learning = dict(dep.extra["learning"])
    strategy = str(learning.get("strategy"))
    names = learning_node_names(dep)
    if req.node not in names:
        raise BuildError(f"no node {req.node!r} in this {strategy} deployment; nodes: {', '.join(names)}")
    prof = req.profile
    if prof.builder not in ("linux", "jetson", "ros2"):
        raise BuildError(f"target {prof.name} ({prof.builder}) cannot run a learning node: use a linux-vm-*, "
                         "jetson-* or ros2-* target")
    out = req.out_dir
    _copy_program(Path(req.deployment_dir), out / "program", out)
    values = {"NODE": req.node, "DEPLOYMENT": dep.name, "TARGET": prof.name,
              "TRANSPORT": req.options.get("transport") or default_transport(prof.get("transport", "mqtt")),
              "THREADS": prof.get("threads", 1),
              "LAUNCH": f'-m bb_edge.cli node "$HERE/program" --node {req.node} --transport "$BB_TRANSPORT"'}
    arts: dict[str, Path] = {
        "program": out / "program" / "deployment.json",
        "launcher": write_text(out / "run.sh", render("linux_run.sh", **values), executable=True),
        "env": write_text(out / "node.env", render("node.env", **values)),
        "systemd": write_text(out / f"bb-edge-{req.node}.service", render("bbnode.service", **values)),
        "requirements": write_text(out / "requirements.txt", pinned_requirements()),
    }
    copy_runtime(out)
    role = "client" if req.node in learning_clients(learning) else "server"
    manifest = {"format": "bb-edge/learning-bundle", "version": 1, "node": req.node, "target": prof.name,
                "builder": prof.builder, "strategy": strategy, "role": role,
                "learning": dep.extra["learning"],
                "execution_providers": prof.get("execution_providers", ["CPUExecutionProvider"]),
                "artifacts": {k: str(p.relative_to(out)) for k, p in arts.items()}}
    arts["manifest"] = write_text(out / "manifest.json", json.dumps(manifest, indent=1, default=str) + "\n")
    arts["readme"] = write_text(out / "README.md", (
        f"# Learning bundle: node {req.node} ({role}) of {dep.name!r}, {strategy}, for {prof.name}\n\n"
        "Run from this directory: `BB_TRANSPORT=mqtt://BROKER:1883 ./run.sh` (or edit node.env). The node\n"
        "joins training over the broker; extra arguments go to `bb-edge node` (e.g. `--state node.state`).\n"))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return BuildResult(req.node, prof.name, out, arts, {"bundle_bytes": size, "strategy": strategy,
                                                         "role": role})
