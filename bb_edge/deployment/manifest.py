"""deployment.json: the manifest tying per-node programs, edges and bindings together.

Why one file: the dataclasses, loading and the cross-reference checks describe one document; every later
stage reads deployment.json through them, and each check follows the structure the dataclasses define.
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Any

from bb_edge.deployment import onnx_proto
from bb_edge.errors import DeploymentError

if TYPE_CHECKING:  # onnx (with ml_dtypes, ~0.6 s CPU) is imported where a program is loaded or checked
    import onnx

FORMAT = "bb-edge/deployment"
VERSION = 1
HOST_ID = 0
HOST_NAME = "_host"
# the deployer (`bb-edge deploy`): its own wire id and broker identity, in ids() of a deployment with an
# ``ota`` section (docs/wire.md "Program updates"), so deploying never speaks as (or displaces) the host
DEPLOY_ID = 0xFFFFFFFE
DEPLOY_NAME = "_deploy"


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
    #: an int8 edge of a float tensor: {"scale", "zero_point"} the sender quantizes with (docs/bbrt.md)
    quant: dict[str, Any] | None = None


@dataclass
class IOSpec:
    """A graph input or output: which node owns it and its host edge id."""

    name: str
    elem_type: int
    dtype: str
    shape: list[int]
    node: str
    edge_id: int
    #: the wire carries this float32 input/output as int8: the host quantizes/dequantizes with these
    quant: dict[str, Any] | None = None


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
        if "ota" in self.extra:
            out[DEPLOY_NAME] = DEPLOY_ID
        return out

    @property
    def standby(self) -> dict[str, list[str]]:
        """Stage node -> its standby nodes (``standby`` in deployment.json; empty when none)."""
        raw = self.extra.get("standby")
        return {k: list(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    def state_pairs(self, stage: str) -> list[tuple[str, str]]:
        """``(output, input)`` state pairs of ``stage``'s program (``state`` in deployment.json; docs/wire.md
        "Sessions"): kept per session on the node, never on the wire."""
        raw = self.extra.get("state")
        entries = raw.get(stage, []) if isinstance(raw, dict) else []
        return [(e["output"], e["input"]) for e in entries if isinstance(e, dict)]

    @property
    def stateful(self) -> bool:
        """True when some stage keeps per-session state: requests are then steps of sessions."""
        raw = self.extra.get("state")
        return isinstance(raw, dict) and any(raw.values())

    def stage_of(self, name: str) -> str:
        """The stage node ``name`` stands by for, or ``name`` itself when it is not a standby."""
        return next((stage for stage, nodes in self.standby.items() if name in nodes), name)

    def add_standby(self, stage: str, node: str) -> NodeSpec:
        """Declare ``node`` (new, with the next free id) a standby of ``stage``: it runs the stage's program."""
        spec = self.node(stage)
        if self.stage_of(stage) != stage:
            raise DeploymentError(f"--standby {stage}={node}: {stage!r} is itself a standby")
        if node in self.node_names or node == HOST_NAME:
            raise DeploymentError(f"--standby {stage}={node}: {node!r} is already a node name")
        new = NodeSpec(name=node, id=max(n.id for n in self.nodes) + 1, program=spec.program, ops=spec.ops,
                       param_bytes=spec.param_bytes, flops=spec.flops,
                       peak_activation_bytes=spec.peak_activation_bytes, target=spec.target,
                       limits=dict(spec.limits))
        self.nodes.append(new)
        table = self.standby
        table.setdefault(stage, []).append(node)
        self.extra["standby"] = table
        return new

    def limits_for(self, name: str) -> dict[str, Any]:
        """The runtime limits of node ``name``: deployment-wide ``limits``, then the node's own on top."""
        merged: dict[str, Any] = {}
        top = self.extra.get("limits")
        if isinstance(top, dict):
            merged.update(top)
        merged.update(self.node(name).limits or {})
        return merged

    @property
    def deadline_s(self) -> float | None:
        """Seconds a request may stay open on a node (``deadline_s`` in deployment.json), if set."""
        return _positive(self.extra.get("deadline_s"))

    @property
    def hop_budget_s(self) -> float | None:
        """Seconds a request may wait at one node for its next input (``hop_budget_s``), if set."""
        return _positive(self.extra.get("hop_budget_s"))

    def program(self, name: str, programs: dict[str, onnx.ModelProto] | None = None,
                weights: bool = True) -> onnx.ModelProto:
        """Load a node's program (from ``programs`` if given, else from the directory).

        A program saved with its weights in a side file (ONNX external data, as ``bb-edge compile model.gguf``
        writes them) comes back whole unless ``weights=False``: then its initializers still point at the
        file, for a backend that maps it instead of copying it (:func:`weights_dir`).
        """
        if programs is not None and name in programs:
            return programs[name]
        if self.directory is None:
            raise DeploymentError("deployment has no directory to load programs from")
        path = self.directory / self.node(name).program
        if not path.is_file():
            raise DeploymentError(f"program {path} is missing; re-run `bb-edge compile`")
        if weights:
            import onnx  # here, not at the top: a node that loads no program (a learning client) skips onnx

            model = onnx.load(str(path))
        else:  # a serving node: parsed by the message classes alone, without onnx's ~15 MB (onnx_proto.py)
            model = onnx_proto.load(path)
        if not weights and has_external_weights(model):
            set_weights_dir(model, path.parent)
        return model

    def to_json(self) -> dict[str, Any]:
        """The manifest as a JSON-ready dict."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "nodes": [asdict(n) for n in self.nodes],
            "inputs": [_without_none_quant(asdict(i)) for i in self.inputs],
            "outputs": [_without_none_quant(asdict(o)) for o in self.outputs],
            "edges": [_without_none_quant(asdict(e)) for e in self.edges],
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


def _without_none_quant(d: dict[str, Any]) -> dict[str, Any]:
    """A float edge writes no ``quant`` key: manifests without int8 edges stay as they were."""
    if d.get("quant") is None:
        d.pop("quant", None)
    return d


def _positive(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def load_deployment(directory: str | Path) -> Deployment:
    """Read and validate ``DIR/deployment.json``; DeploymentError lists every problem found.

    The file is checked against ``bb_edge/deployment/schema.json`` and
    then for cross references (:func:`validate_manifest`) before anything in
    it is used; no program file is read here.
    """
    d = Path(directory)
    path = d / "deployment.json" if d.is_dir() else d
    if not path.is_file():
        raise DeploymentError(f"{path} not found; run `bb-edge compile ... -o {d}` first")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidDeploymentError(path, [f"not UTF-8 text (byte {exc.start})"]) from exc
    except OSError as exc:
        raise DeploymentError(f"{path} cannot be read: {exc.strerror or exc}") from exc
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidDeploymentError(path, [f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"]
                                     ) from exc
    problems = validate_manifest(raw, path.parent)
    if problems:
        raise InvalidDeploymentError(path, problems)
    known = {"format", "version", "name", "nodes", "inputs", "outputs", "edges", "bindings"}
    return Deployment(
        name=raw["name"],
        nodes=[NodeSpec(**n) for n in raw["nodes"]],
        edges=[EdgeSpec(**{**e, "shape": _dims(e["shape"])}) for e in raw["edges"]],
        inputs=[IOSpec(**{**i, "shape": _dims(i["shape"])}) for i in raw["inputs"]],
        outputs=[IOSpec(**{**o, "shape": _dims(o["shape"])}) for o in raw["outputs"]],
        bindings=raw.get("bindings", {}),
        directory=path.parent,
        extra={k: v for k, v in raw.items() if k not in known},
    )


class InvalidDeploymentError(DeploymentError):
    """deployment.json fails its schema or cross-reference checks; ``problems`` lists every one."""

    def __init__(self, path: Path | str, problems: list[str], fix: str | None = None) -> None:
        self.path = Path(path)
        self.problems = list(problems)
        n = len(self.problems)
        shown = self.problems[:MAX_LISTED]
        more = f"; and {n - len(shown)} more" if n > len(shown) else ""
        fix = fix or f"fix {'them' if n != 1 else 'it'} or recompile with `bb-edge compile`"
        super().__init__(f"{path} has {n} problem{'s' if n != 1 else ''}: {'; '.join(shown)}{more}; {fix}")


#: Problems spelled out in the one-line message (the ``problems`` attribute has them all).
MAX_LISTED = 8


def _dims(shape: list[int | None]) -> list[int]:
    """Manifest dims with ``null`` (dynamic) written as -1, the form edge contracts use."""
    return [-1 if d is None else int(d) for d in shape]


@functools.lru_cache(maxsize=1)
def manifest_schema() -> dict[str, Any]:
    """The JSON Schema of deployment.json (shipped as package data; do not modify the returned dict)."""
    path = Path(__file__).resolve().parent / "schema.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def _where(parts: Any) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "top level"


def validate_manifest(raw: Any, directory: Path | None = None) -> list[str]:
    """Every problem of a parsed deployment.json: schema violations, then cross references.

    Cross-reference checks: unique node names and ids, unique edge ids (edges,
    graph inputs and outputs share one id space), edges between two different
    known nodes, one producer per tensor, inputs/outputs/bindings on known
    nodes, dtype names matching elem_type, an acyclic node graph when
    ``pipeline`` is set, and program paths that stay inside ``directory``
    (checked by name: nothing is read). Returns [] when the manifest is valid.
    """
    import jsonschema  # imported here: only loading a manifest needs it

    validator = jsonschema.Draft202012Validator(manifest_schema())
    problems = [f"{_where(e.absolute_path)}: {_short(e)}"
                for e in sorted(validator.iter_errors(raw), key=lambda e: list(map(str, e.absolute_path)))]
    if not isinstance(raw, dict):
        return problems
    problems += _cross_references(raw, directory)
    return problems


def _short(err: Any) -> str:
    """A jsonschema message without the (possibly huge) offending instance."""
    if err.validator in ("type", "enum", "const", "pattern", "minimum", "maximum", "exclusiveMinimum"):
        inst = json.dumps(err.instance)
        inst = inst if len(inst) <= 40 else inst[:37] + "..."
        expected = {"type": lambda v: " or ".join(_describe({"type": t}) for t in ([v] if isinstance(v, str) else v)),
                    "enum": lambda v: "one of " + ", ".join(map(str, v)),
                    "const": lambda v: json.dumps(v), "pattern": lambda v: f"a name matching {v}",
                    "minimum": lambda v: f">= {v}", "maximum": lambda v: f"<= {v}",
                    "exclusiveMinimum": lambda v: f"> {v}"}[err.validator](err.validator_value)
        return f"{inst} should be {expected}"
    if err.validator == "anyOf":
        inst = json.dumps(err.instance)
        inst = inst if len(inst) <= 40 else inst[:37] + "..."
        return f"{inst} should be " + " or ".join(_describe(sub) for sub in err.validator_value)
    if err.validator == "minItems":
        return "must not be empty" if err.validator_value == 1 else f"needs at least {err.validator_value} items"
    if err.validator == "additionalProperties":
        return err.message.replace(" were unexpected", " not allowed").replace(" was unexpected", " not allowed")
    return str(err.message if len(err.message) <= 120 else err.message[:117] + "...")


def _describe(schema: dict[str, Any]) -> str:
    """A few words for a simple subschema, e.g. ``an integer >= -1`` or ``null``."""
    kind = schema.get("type", "value")
    words = "null" if kind == "null" else f"a{'n' if str(kind)[0] in 'aeiou' else ''} {kind}"
    if "minimum" in schema:
        words += f" >= {schema['minimum']}"
    return words


def _cross_references(raw: dict[str, Any], directory: Path | None) -> list[str]:
    def items(key: str) -> list[dict[str, Any]]:
        v = raw.get(key)
        return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []

    nodes, edges, ins, outs = items("nodes"), items("edges"), items("inputs"), items("outputs")
    problems: list[str] = []
    names = [n.get("name") for n in nodes]
    problems += [f"node name {n!r} is used {names.count(n)} times" for n in _dupes(names)]
    ids = [n.get("id") for n in nodes]
    problems += [f"node id {i} is used {ids.count(i)} times" for i in _dupes(ids)]
    known = {n for n in names if isinstance(n, str)}
    edge_ids = [e.get("id") for e in edges] + [x.get("edge_id") for x in ins + outs]
    problems += [f"edge id {i} is used {edge_ids.count(i)} times (edges, inputs and outputs share ids)"
                 for i in _dupes(edge_ids)]
    producer: dict[str, str] = {}
    for k, e in enumerate(edges):
        for end in ("src", "dst"):
            if isinstance(e.get(end), str) and e[end] not in known:
                problems.append(f"edges[{k}] (id {e.get('id')}) {end} {e[end]!r} is not a node")
        if e.get("src") == e.get("dst") and isinstance(e.get("src"), str):
            problems.append(f"edges[{k}] (id {e.get('id')}) goes from {e['src']!r} to itself")
        t, src = e.get("tensor"), e.get("src")
        if isinstance(t, str) and isinstance(src, str):
            if producer.setdefault(t, src) != src:
                problems.append(f"tensor {t!r} is sent by two nodes ({producer[t]!r} and {src!r})")
    for key, group in (("inputs", ins), ("outputs", outs)):
        io_names = [x.get("name") for x in group]
        problems += [f"{key} name {n!r} is listed {io_names.count(n)} times" for n in _dupes(io_names)]
        for k, x in enumerate(group):
            if isinstance(x.get("node"), str) and x["node"] not in known:
                problems.append(f"{key}[{k}] ({x.get('name')!r}) is on unknown node {x['node']!r}")
    dtypes = set(manifest_schema()["$defs"]["dtype"]["enum"])  # others are reported by the schema already
    for x in edges + ins + outs:
        et, dt = x.get("elem_type"), x.get("dtype")
        if isinstance(et, int) and isinstance(dt, str) and dt in dtypes and _dtype_of(et) not in (None, dt):
            what = x.get("tensor") or x.get("name")
            problems.append(f"{what!r} has dtype {dt!r} but elem_type {et} is {_dtype_of(et)!r}")
    for x in edges:  # an edge's quant parameters describe its int8 wire contract
        if isinstance(x.get("quant"), dict) and x.get("elem_type") != 3:
            problems.append(f"edge {x.get('id')} ({x.get('tensor')!r}) has quant parameters but elem_type "
                            f"{x.get('elem_type')}, not 3 (int8)")
    for x in ins + outs:  # a graph input/output's quant parameters quantize its float values on the wire
        if isinstance(x.get("quant"), dict) and x.get("elem_type") != 1:
            problems.append(f"{x.get('name')!r} has quant parameters but elem_type {x.get('elem_type')}, not 1 "
                            f"(float32)")
    declared = {"inputs": {x.get("name") for x in ins if isinstance(x.get("name"), str)},
                "outputs": {x.get("name") for x in outs if isinstance(x.get("name"), str)}}
    for k, n in enumerate(nodes):
        for key in ("inputs", "outputs"):
            lst = n.get(key)
            for x in lst if isinstance(lst, list) else []:
                if isinstance(x, str) and x not in declared[key]:  # non-strings: the schema reports them
                    problems.append(f"nodes[{k}] ({n.get('name')!r}) lists {key[:-1]} {x!r}, which is not in "
                                    f"the deployment's {key}")
        prog = n.get("program")
        if isinstance(prog, str) and prog:
            bad = _program_path_problem(prog, directory)
            if bad:
                problems.append(f"nodes[{k}] ({n.get('name')!r}) program {prog!r} {bad}")
    raw_standby = raw.get("standby")
    standby: dict[str, Any] = raw_standby if isinstance(raw_standby, dict) else {}
    problems += _standby_problems(standby, nodes, edges, ins + outs, known)
    raw_state = raw.get("state")
    problems += _state_problems(raw_state if isinstance(raw_state, dict) else {}, edges, ins, outs, known, standby)
    # a stage and its standbys share one program; any other sharing is a mistake
    stage_of: dict[Any, str] = {sb: stage for stage, sbs in standby.items() if isinstance(sbs, list)
                                for sb in sbs if isinstance(sb, str)}
    programs = [n.get("program") for n in nodes
                if not (isinstance(n.get("name"), str) and n.get("name") in stage_of)]
    problems += [f"program {p!r} is shared by {programs.count(p)} nodes" for p in _dupes(programs)]
    bindings = raw.get("bindings")
    if isinstance(bindings, dict):
        problems += [f"bindings name unknown node {b!r}" for b in bindings if b not in known]
    if raw.get("pipeline") is True:
        cycle = _node_cycle(edges)
        if cycle:
            problems.append(f"pipeline deployment sends data around a cycle of nodes {' -> '.join(cycle)}")
    return problems


def _standby_problems(standby: dict[str, Any], nodes: list[dict[str, Any]], edges: list[dict[str, Any]],
                      ios: list[dict[str, Any]], known: set[Any]) -> list[str]:
    """Cross references of the ``standby`` map: known nodes, one role each, the stage's program."""
    problems: list[str] = []
    # names and programs of the wrong type are the schema's to report; only hashable strings are compared here
    program = {n.get("name"): n.get("program") for n in nodes if isinstance(n.get("name"), str)}
    seen: dict[str, str] = {}
    for stage, sbs in standby.items():
        if stage not in known:
            problems.append(f"standby names unknown stage node {stage!r}")
            continue
        for sb in sbs if isinstance(sbs, list) else []:
            if not isinstance(sb, str):
                continue  # the schema reports it
            if sb not in known:
                problems.append(f"standby of {stage!r}: {sb!r} is not a node")
                continue
            if sb == stage:
                problems.append(f"standby of {stage!r} is the stage itself")
            if sb in seen and seen[sb] != stage:
                problems.append(f"node {sb!r} stands by for two stages ({seen[sb]!r} and {stage!r})")
            seen[sb] = stage
            if sb in standby:
                problems.append(f"node {sb!r} is a standby and has standbys of its own")
            if program.get(sb) != program.get(stage):
                problems.append(f"standby {sb!r} runs {program.get(sb)!r}, not its stage's program "
                                f"{program.get(stage)!r}")
            if any(sb in (e.get("src"), e.get("dst")) for e in edges) or any(x.get("node") == sb for x in ios):
                problems.append(f"standby {sb!r} is an endpoint of edges or graph inputs/outputs; it takes "
                                f"its stage {stage!r}'s")
    return problems


def _state_problems(state: dict[str, Any], edges: list[dict[str, Any]], ins: list[dict[str, Any]],
                    outs: list[dict[str, Any]], known: set[Any], standby: dict[str, Any]) -> list[str]:
    """Cross references of the ``state`` map: a known stage node, each name in one pair, neither end on the host
    side (not a graph input/output, no edge into the node carries the input). That both are graph input and
    output of the node's program is checked when an engine installs it (nothing is read here)."""
    problems: list[str] = []
    host_in = {x.get("name") for x in ins if isinstance(x.get("name"), str)}  # others: the schema reports them
    host_out = {x.get("name") for x in outs if isinstance(x.get("name"), str)}
    standbys = {sb for sbs in standby.values() if isinstance(sbs, list) for sb in sbs if isinstance(sb, str)}
    seen_in: dict[str, str] = {}
    seen_out: dict[str, str] = {}
    for node, pairs in state.items():
        if node not in known:
            problems.append(f"state names unknown node {node!r}")
            continue
        if node in standbys:
            problems.append(f"state of {node!r}: a standby keeps its stage's state pairs, not its own")
        for p in pairs if isinstance(pairs, list) else []:
            if not isinstance(p, dict) or not isinstance(p.get("input"), str) or not isinstance(p.get("output"), str):
                continue  # the schema reports it
            i, o = p["input"], p["output"]
            for name, seen, role in ((i, seen_in, "input"), (o, seen_out, "output")):
                if name in seen:
                    problems.append(f"state {role} {name!r} is in two pairs ({seen[name]!r} and {node!r})")
                seen[name] = node
            if i in host_in:
                problems.append(f"state input {i!r} of {node!r} is also a graph input: the host would feed it")
            if o in host_out:
                problems.append(f"state output {o!r} of {node!r} is also a graph output: it would go on the wire")
            if any(e.get("tensor") == i and e.get("dst") == node for e in edges):
                problems.append(f"state input {i!r} of {node!r} arrives on an edge: it must be the node's own")
    return problems


def _dupes(values: list[Any]) -> list[Any]:
    seen: dict[Any, int] = {}
    for v in values:
        if isinstance(v, (str, int)) and not isinstance(v, bool):
            seen[v] = seen.get(v, 0) + 1
    return [v for v, c in seen.items() if c > 1]


#: numpy dtype names of the ONNX element types a manifest may name (schema.json ``elemType``)
_ELEM_DTYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64", 9: "bool",
                10: "float16", 11: "float64", 12: "uint32", 13: "uint64"}


def _dtype_of(elem_type: int) -> str | None:
    """The numpy dtype name of an ONNX element type (a table: a serving node does not import onnx for it)."""
    return _ELEM_DTYPES.get(elem_type)


def _program_path_problem(prog: str, directory: Path | None) -> str | None:
    """Why a program path could leave the deployment directory, or None (decided by name only)."""
    pure = PurePosixPath(prog.replace("\\", "/"))
    if pure.is_absolute() or PureWindowsPath(prog).drive:
        return "is absolute; programs must be file names inside the deployment directory"
    if ".." in pure.parts:
        return "leaves the deployment directory; programs must be file names inside it"
    if directory is not None:
        base = directory.resolve()
        if not (base / prog).resolve().is_relative_to(base):
            return "resolves outside the deployment directory (a link?)"
    return None


def _node_cycle(edges: list[dict[str, Any]]) -> list[str] | None:
    graph: dict[str, set[str]] = {}
    for e in edges:
        s, d = e.get("src"), e.get("dst")
        if isinstance(s, str) and isinstance(d, str) and s != d:
            graph.setdefault(s, set()).add(d)
    state: dict[str, int] = {}
    for root in sorted(graph):
        if root in state:
            continue
        stack: list[tuple[str, list[str]]] = [(root, sorted(graph.get(root, ())))]
        path = [root]
        state[root] = 1
        while stack:
            u, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                state[u] = 2
                continue
            v = todo.pop(0)
            if state.get(v) == 1:
                return path[path.index(v):] + [v]
            if v not in state:
                state[v] = 1
                path.append(v)
                stack.append((v, sorted(graph.get(v, ()))))
    return None


#: metadata key of a program whose weights stay in their side file: the directory the file's location is relative to
WEIGHTS_DIR_KEY = "bb_edge.weights_dir"


def has_external_weights(model: onnx.ModelProto) -> bool:
    """Whether some initializer of ``model`` keeps its bytes in an external data file (not loaded)."""
    return any(t.data_location == onnx_proto.EXTERNAL for t in model.graph.initializer)


def set_weights_dir(model: onnx.ModelProto, directory: Path | str) -> None:
    """Record where ``model``'s external weights live (a runtime mark: never saved with the program)."""
    for p in model.metadata_props:
        if p.key == WEIGHTS_DIR_KEY:
            p.value = str(directory)
            return
    model.metadata_props.add(key=WEIGHTS_DIR_KEY, value=str(directory))


def weights_dir(model: onnx.ModelProto) -> str | None:
    """The directory :func:`set_weights_dir` recorded, or None (weights inside the model).

    A stand-in that holds only serialised bytes (a learning client's cached training program) has no
    metadata and so no external weights."""
    props = getattr(model, "metadata_props", ())
    return next((p.value for p in props if p.key == WEIGHTS_DIR_KEY), None)


def with_weights(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` whole: a copy with its external weights read in (``model`` itself when it has none)."""
    d = weights_dir(model)
    if d is None or not has_external_weights(model):
        return model
    import onnx
    from onnx.external_data_helper import load_external_data_for_model

    full = onnx.ModelProto()
    full.CopyFrom(model)
    load_external_data_for_model(full, d)
    keep = [p for p in full.metadata_props if p.key != WEIGHTS_DIR_KEY]
    del full.metadata_props[:]
    full.metadata_props.extend(keep)
    return full
