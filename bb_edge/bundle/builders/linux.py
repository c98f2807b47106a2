"""Builder ``linux``: a self-contained bundle for a Linux VM or server running ONNX Runtime.

Bundle layout::

    manifest.json          node, target, precision, artifacts (sizes), accuracy, I/O
    program/               deployment.json + this node's program (at the bundle's precision)
    model.<precision>.onnx the node's compute model (Send/Recv stripped) for other tools
    lib/                   vendored bb_edge + adapters (no install of bb-edge needed)
    requirements.txt       pinned runtime packages
    run.sh                 launcher: bb-edge node program/ --node N --transport $BB_TRANSPORT
    node.env               BB_TRANSPORT=... (the transport URL)
    bb-edge-<node>.service systemd unit
    README.md
"""

from __future__ import annotations

from pathlib import Path

from bb_edge.bundle import BuildRequest, BuildResult
from bb_edge.bundle.artifacts import (
    NodeBuild,
    copy_runtime,
    default_transport,
    figures,
    pinned_requirements,
    prepare_node,
    render,
    write_manifest,
    write_onnx,
    write_program_dir,
    write_text,
)
from bb_edge.names import check_name, config_value


def write_service_files(req: BuildRequest, nb: NodeBuild, launch: str) -> dict[str, Path]:
    """run.sh, node.env, the systemd unit, requirements.txt and the vendored runtime."""
    out = req.out_dir
    prof = req.profile
    values = {"NODE": nb.node, "DEPLOYMENT": nb.deployment.name, "TARGET": prof.name,
              "TRANSPORT": req.options.get("transport") or default_transport(prof.get("transport", "mqtt")),
              "THREADS": prof.get("threads", 1), "LAUNCH": launch}
    check_name(nb.node, "node")  # unit names, paths and ExecStart lines are built from these two
    check_name(nb.deployment.name, "deployment")
    for key in ("TRANSPORT", "TARGET"):  # one line each in node.env / the unit: no line breaks
        values[key] = config_value(str(values[key]), "conf", key.lower())
    arts = {
        "launcher": write_text(out / "run.sh", render("linux_run.sh", **values), executable=True),
        "env": write_text(out / "node.env", render("node.env", **values)),
        "systemd": write_text(out / f"bb-edge-{nb.node}.service", render("bbnode.service", **values)),
        "requirements": write_text(out / "requirements.txt", pinned_requirements()),
    }
    copy_runtime(out)
    return arts


def node_launch(nb: NodeBuild) -> str:
    """The launcher's python arguments: ``bb-edge node`` on the bundle's program directory."""
    return f'-m bb_edge.cli node "$HERE/program" --node {nb.node} --transport "$BB_TRANSPORT"'


def write_readme(req: BuildRequest, nb: NodeBuild, arts: dict[str, Path]) -> Path:
    """The bundle's README listing its files."""
    rows = "\n".join(f"| `{p.relative_to(req.out_dir)}` | {k} |" for k, p in arts.items()
                     if p.is_relative_to(req.out_dir))
    return write_text(req.out_dir / "README.md", render(
        "bundle_README.md", NODE=nb.node, DEPLOYMENT=nb.deployment.name, TARGET=req.profile.name,
        SUMMARY=req.profile.summary, FILES=rows, PRECISION=nb.precision))


def build(request: BuildRequest) -> BuildResult:
    """Build a linux-vm bundle (see module docstring)."""
    nb = prepare_node(request)
    out = request.out_dir
    arts: dict[str, Path] = {"program": write_program_dir(nb, out) / nb.deployment.node(nb.node).program}
    arts[f"onnx.{nb.precision}"] = write_onnx(nb.q_compute, out / f"model.{nb.precision}.onnx")
    arts.update(write_service_files(request, nb, node_launch(nb)))
    arts["manifest"] = write_manifest(request, nb, arts)
    arts["readme"] = write_readme(request, nb, arts)
    return BuildResult(nb.node, request.profile.name, out, arts, figures(nb, arts))
