"""What a learning client process loads: `bb-edge node` must not pull in what other commands or nodes need.

Issue 40: a FedAvg client process had grown to 146 MB and 1.75 CPU seconds, mostly at start-up, because
the CLI imported every command module (demo: onnx, ORT, matplotlib; build: rich), every client built the
server's held-out evaluator, loaded secure aggregation (cryptography) in runs without it, and built its own
training program, which loads onnx (~0.6 s with ml_dtypes) where the fleet driver had built it already
(``--program-cache``, bb_edge/training/cache.py). The test builds a client exactly as ``bb-edge node LEARN_DIR
--node c0 --program-cache FILE`` does, in a fresh interpreter, and lists its modules; the oracle is a fixed
list of what a client never uses.
No timings: the cost lives in bench/bench_learning_mqtt.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bb_edge.adapters.learn.node import load_module
from bb_edge.deployment.manifest import load_deployment
from bb_edge.training.cache import save_program
from bb_edge.training.setup import cache_key, write_learning_deployment

#: top-level packages (or bb_edge modules) a learning client never needs; each one came back at least once
NEVER = ("matplotlib", "PIL", "rich", "opentelemetry", "torch", "executorch", "tensorflow", "bb_edge.viz",
         "bb_edge.commands.demo", "bb_edge.commands.build", "bb_edge.commands.compile", "bb_edge.commands.run",
         "bb_edge.compiler", "bb_edge.bundle", "bb_edge.strategies.secagg", "cryptography", "onnx", "ml_dtypes",
         "bb_edge.training.step", "bb_edge.training.vjp")

#: run in a fresh interpreter: the command line of one fleet client, parsed and built as `bb-edge node` does
CLIENT = """
import json, sys
from bb_edge.cli import build_parser
from bb_edge.commands.node import _learning_node
from bb_edge.deployment.manifest import load_deployment
argv = ["node", sys.argv[1], "--node", "c0", "--transport", "mqtt://127.0.0.1:1883", "--learning", "{}",
        "--program-cache", sys.argv[2]]
args = build_parser(argv).parse_args(argv)
learn = _learning_node(load_deployment(args.dir), args)
print(json.dumps({"modules": sorted(sys.modules), "command": args.command,
                  "evaluator_built": "runner" in vars(learn.module.setup),
                  "program_bytes": len(learn.module.setup.program.model.SerializeToString())}))
"""


def _client_modules(tmp_path: Path) -> dict[str, object]:
    d = tmp_path / "dep"
    write_learning_deployment(d, {"strategy": "fedavg", "clients": 3, "rounds": 2, "seed": 0})
    module = load_module(load_deployment(d).extra["learning"], d)  # what `bb-edge run --processes` saves
    key = cache_key(module.cfg, d)
    assert key is not None
    save_program(tmp_path / "program.npz", module.setup.program, key)
    r = subprocess.run([sys.executable, "-c", CLIENT, str(d), str(tmp_path / "program.npz")], capture_output=True,
                       text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    out: dict[str, object] = json.loads(r.stdout.strip().splitlines()[-1])
    return out


def test_learning_client_loads_only_what_it_runs(tmp_path: Path) -> None:
    """A FedAvg client builds its engine without other commands' modules and without the evaluator."""
    got = _client_modules(tmp_path)
    modules = got["modules"]
    assert isinstance(modules, list)
    assert got["command"] == "node"
    assert "bb_edge.strategies.fedavg" in modules and "paho.mqtt.client" in modules  # it did build a client
    heavy = sorted({n for n in NEVER for m in modules if m == n or m.startswith(n + ".")})
    assert heavy == [], f"a learning client imports {heavy}; load them lazily where they are used"
    assert got["evaluator_built"] is False  # the held-out ORT session belongs to the server
    assert isinstance(got["program_bytes"], int) and got["program_bytes"] > 1000  # it runs the cached program


def test_cli_loads_every_command_only_when_none_is_named() -> None:
    """``bb-edge --help`` still lists every command; naming one registers that one alone."""
    from bb_edge.cli import build_parser, command_names

    def registered(argv: list[str] | None) -> set[str]:
        sub = next(a for a in build_parser(argv)._actions if a.dest == "command")
        assert isinstance(sub.choices, dict)
        return set(sub.choices)

    assert "node" in command_names() and "demo" in command_names()
    assert registered(None) == set(command_names()) == registered(["--version"])
    assert registered(["node", "d", "--node", "n0"]) == {"node"}
    assert registered(["--debug", "targets"]) == {"targets"}
    assert registered(["no-such-command"]) == set(command_names())  # the usage error lists every choice
