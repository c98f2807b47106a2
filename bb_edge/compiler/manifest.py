"""deployment.json: the manifest tying per-node programs, edges and bindings together."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import onnx

from bb_edge.errors import DeploymentError

FORMAT = "bb-edge/deployment"
VERSION = 1
HOST_ID = 0
HOST_NAME = "_host"


@dataclass
class NodeSpec:
    """One node of a deployment."""

    name: str
    id: int
    program: str
    ops: int = 0
    param_bytes: int = 0
    flops: float = 0.0
    peak_activation_bytes: int = 0
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    target: str | None = None
    limits: dict[str, int] = field(default_factory=dict)


@dataclass
class EdgeSpec:
    """One cross-node edge with its typed contract."""

    id: int
    tensor: str
    src: str
    dst: str
    elem_type: int
    dtype: str
    shape: list[int]
    bytes_per_inference: int


@dataclass
class IOSpec:
    """A graph input or output: which node owns it and its host edge id."""

    name: str
    elem_type: int
    dtype: str
    shape: list[int]
    node: str
    edge_id: int


@dataclass
class Deployment:
    """A parsed deployment.json plus the directory it lives in."""

    name: str
    nodes: list[NodeSpec]
    edges: list[EdgeSpec]
    inputs: list[IOSpec]
    outputs: list[IOSpec]
    bindings: dict[str, dict[str, Any]] = field(default_factory=dict)
    directory: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def node(self, name: str) -> NodeSpec:
        """The node called ``name``; DeploymentError listing the nodes otherwise."""
        for n in self.nodes:
            if n.name == name:
                return n
        raise DeploymentError(
            f"deployment {self.name!r} has no node {name!r}; nodes: {', '.join(self.node_names)}"
        )

    @property
    def node_names(self) -> list[str]:
        """Node names in manifest order."""
        return [n.name for n in self.nodes]

    def ids(self) -> dict[str, int]:
        """Node name -> wire id, including the host endpoint (id 0)."""
        out = {n.name: n.id for n in self.nodes}
        out[HOST_NAME] = HOST_ID
        return out

    def program(self, name: str, programs: dict[str, onnx.ModelProto] | None = None) -> onnx.ModelProto:
        """Load a node's program (from ``programs`` if given, else from the directory)."""
        if programs is not None and name in programs:
            return programs[name]
        if self.directory is None:
            raise DeploymentError("deployment has no directory to load programs from")
        path = self.directory / self.node(name).program
        if not path.is_file():
            raise DeploymentError(f"program {path} is missing; re-run `bb-edge compile`")
        return onnx.load(str(path))

    def to_json(self) -> dict[str, Any]:
        """The manifest as a JSON-ready dict."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "nodes": [asdict(n) for n in self.nodes],
            "inputs": [asdict(i) for i in self.inputs],
            "outputs": [asdict(o) for o in self.outputs],
            "edges": [asdict(e) for e in self.edges],
            "bindings": self.bindings,
            **self.extra,
        }

    def save(self, directory: Path) -> Path:
        """Write deployment.json into ``directory``."""
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / "deployment.json"
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        self.directory = directory
        return path


def load_deployment(directory: str | Path) -> Deployment:
    """Read ``DIR/deployment.json``; DeploymentError says what is missing or wrong."""
    d = Path(directory)
    path = d / "deployment.json" if d.is_dir() else d
    if not path.is_file():
        raise DeploymentError(f"{path} not found; run `bb-edge compile ... -o {d}` first")
    try:
        raw = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise DeploymentError(f"{path} is not valid JSON: {exc}") from exc
    if raw.get("format") != FORMAT or raw.get("version") != VERSION:
        raise DeploymentError(f"{path} is not a {FORMAT} v{VERSION} manifest")
    known = {"format", "version", "name", "nodes", "inputs", "outputs", "edges", "bindings"}
    try:
        return Deployment(
            name=raw["name"],
            nodes=[NodeSpec(**n) for n in raw["nodes"]],
            edges=[EdgeSpec(**e) for e in raw["edges"]],
            inputs=[IOSpec(**i) for i in raw["inputs"]],
            outputs=[IOSpec(**o) for o in raw["outputs"]],
            bindings=raw.get("bindings", {}),
            directory=path.parent,
            extra={k: v for k, v in raw.items() if k not in known},
        )
    except (KeyError, TypeError) as exc:
        raise DeploymentError(f"{path} is missing or has a bad field: {exc}") from exc
