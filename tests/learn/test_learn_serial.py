"""Learning over serial lines: every node a ``bb-edge node`` process on its own pseudo-terminal.

``run_learning_fleet(dep, "serial://pty")`` (``bb-edge run LEARN_DIR --transport
serial://pty --processes``) opens one real pty pair per node, star-wired to the
serial hub in the test process (the hub an inference fleet over serial uses:
bb_edge/adapters/fleet/serial_fleet.py), and starts each node with ``--transport
serial:///dev/pts/N``. The oracle is the simulator on the same deployment and
seed: every client joins before round 1 and answers every round, so the
server's final model is the simulator's, bit for bit.

CI setting: a server and 2 clients for 3 rounds. ``BB_EDGE_LONG=1``: 3
clients for 5 rounds, through the CLI with ``--summary``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.learn.fleet import run_learning_fleet
from bb_edge.adapters.learn.simulator import simulate
from bb_edge.deployment.manifest import load_deployment
from bb_edge.errors import BBError
from bb_edge.training.setup import write_learning_deployment

LONG = os.environ.get("BB_EDGE_LONG") == "1"


def _cfg(clients: int, rounds: int) -> dict[str, Any]:
    return {"strategy": "fedavg", "clients": clients, "rounds": rounds, "seed": 5,
            "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}


def test_fedavg_over_ptys_equals_the_simulator(tmp_path: Path) -> None:
    cfg = _cfg(2, 3)
    d = tmp_path / "dep"
    write_learning_deployment(d, cfg)
    work = tmp_path / "work"
    res = run_learning_fleet(load_deployment(d), "serial://pty", workdir=work, connect_timeout=90)
    sim = simulate(cfg, d)
    assert sim.model is not None and sim.final_accuracy > 0.5
    np.testing.assert_array_equal(res.final_models["server"], sim.model)
    assert len(res.records) == 3 and res.counts.get("RoundCompleted") == 3
    assert res.counts.get("LocalTrainingDone") == 2 * 3
    for n in ("server", "c0", "c1"):  # each node really ran on its own pty, not on a broker
        assert f"node {n} (id " in (log := (work / f"{n}.log").read_text()) and "on serial:///dev/pts/" in log, log
    assert res.bytes_total > 2 * 3 * 2 * sim.model.size * 4  # models went both ways over the lines


def test_serial_learning_fleet_needs_ptys(tmp_path: Path) -> None:
    """One real port cannot carry a whole fleet: a typed error that says what to do."""
    d = tmp_path / "dep"
    write_learning_deployment(d, _cfg(2, 1))
    with pytest.raises(BBError, match="serial://pty"):
        run_learning_fleet(load_deployment(d), "serial:///dev/ttyUSB0")
    with pytest.raises(BBError, match="unknown option"):
        run_learning_fleet(load_deployment(d), "serial://pty?bogus=1")


# the CLI form with more clients runs in the long setting only (BB_EDGE_LONG=1); CI runs the fleet above
if LONG:
    def test_cli_run_over_ptys_writes_the_summary(tmp_path: Path) -> None:
        cfg = _cfg(3, 5)
        d = tmp_path / "dep"
        write_learning_deployment(d, cfg)
        out = subprocess.run([sys.executable, "-m", "bb_edge.cli", "run", str(d), "--transport", "serial://pty",
                              "--processes", "--summary", str(tmp_path / "s.json"), "--seed", "5"],
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stdout + out.stderr
        s = json.loads((tmp_path / "s.json").read_text())
        sim = simulate(cfg, d).summary()
        assert s["rounds"] == 5 and abs(s["final_accuracy"] - sim["final_accuracy"]) <= 1e-9
