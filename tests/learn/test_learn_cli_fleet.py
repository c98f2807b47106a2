"""Learning fleets from the CLI (issue 24, item 4): the broker a learning deployment gets, its seed, refusals.

- ``bb-edge broker LEARN_DIR``'s files on a real Mosquitto: under FedAvg a client's credentials reach the
  server's inbox and nothing else (not another client's inbox, not a broadcast), the server reaches every
  client; gossip peers each reach every other peer. Every refusal is checked next to an allowed path over
  the same clients and broker, so it is the ACL's and not a dead link.
- ``bb-edge run LEARN_DIR`` uses the deployment's ``seed`` unless ``--seed`` is given. Oracle: the in-process
  simulator with each seed (checked first to differ, so the comparison tells them apart).
- ``--target`` / ``--workdir`` outside a process fleet, a Linux target or an unknown node: one-line errors
  before anything is built.
- ``BB_EDGE_LONG=1``: ``--target c2=esp32-micropython`` (the bundle's main.py on a pty, hosted by CPython);
  oracle: FedAvg recomputed with ORT over each client's own batch order (tests/support/fedavg_oracle.py).

The fleets themselves (MQTT with generated credentials, a QEMU Cortex-M3 client through ``--target``) run
verbatim from the README: tests/commands/test_readme_commands.py.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.learn.simulator import simulate
from bb_edge.adapters.ops.broker import Broker, acl_rules, free_port, write_broker_files
from bb_edge.cli import main
from bb_edge.deployment.manifest import load_deployment
from bb_edge.training.models import mlp
from bb_edge.training.setup import write_learning_deployment
from bb_edge.wire.topics import Topics
from tests.support.broker import MqttUser
from tests.support.fedavg_oracle import fedavg_recomputed
from tests.support.transport_helpers import wait_until

LONG = os.environ.get("BB_EDGE_LONG") == "1"


def _dep(tmp_path: Path, strategy: str, clients: int, rounds: int = 1, seed: int = 0) -> Path:
    d = tmp_path / f"{strategy}-{seed}"
    write_learning_deployment(d, {"strategy": strategy, "clients": clients, "rounds": rounds, "seed": seed,
                                  "data": {"source": "digits", "partition": {"type": "partition.dirichlet",
                                                                              "alpha": 0.5}}},
                              model=mlp([64, 10], seed=seed))
    return d


def test_broker_gives_each_learning_role_its_own_least_privilege(tmp_path: Path) -> None:
    dep = load_deployment(_dep(tmp_path, "fedavg", 3))
    files = write_broker_files(tmp_path / "broker", dep, port=free_port(), persistence=False)
    pw = files.passwords
    assert {"server", "c0", "c1", "c2"} <= set(pw)  # the roster, from the config alone (no nodes list)
    t = Topics(dep.name, "bb")
    clients: list[MqttUser] = []
    with Broker(files):
        try:
            server = MqttUser(files.port, "server", pw["server"], (t.inbox_filter("server"),))
            c1 = MqttUser(files.port, "c1", pw["c1"], (t.inbox_filter("c1"), t.broadcast("+")))
            c0 = MqttUser(files.port, "c0", pw["c0"])
            clients += [server, c1, c0]
            c0.publish(t.inbox("c1", "c0"), b"forged update to another client")
            c0.publish(t.broadcast("c0"), b"a client's broadcast")
            c0.publish(t.inbox("server", "c0"), b"update")  # allowed: after the refused ones, on the same link
            server.publish(t.broadcast("server"), b"hello")
            server.publish(t.inbox("c1", "server"), b"model")
            wait_until(lambda: bool(server.topics()) and len(c1.topics()) >= 2, 10, "the allowed messages")
            time.sleep(0.3)  # anything refused that were to arrive would have by now
            assert server.topics() == [t.inbox("server", "c0")]
            assert sorted(c1.topics()) == sorted([t.broadcast("server"), t.inbox("c1", "server")])
        finally:
            for c in clients:
                c.close()
    # equal peers pick any other peer: each writes to every other inbox and says HELLO to all
    gossip = load_deployment(_dep(tmp_path, "gossip", 3))
    rules = acl_rules(gossip, Topics(gossip.name, "bb"))
    g = Topics(gossip.name, "bb")
    assert {r for r in rules["n0"] if r[0] == "write"} >= {("write", g.inbox("n1", "n0")),
                                                          ("write", g.inbox("n2", "n0")), ("write", g.broadcast("n0"))}
    assert ("write", g.inbox("n0", "n0")) not in rules["n0"]


def test_run_uses_the_deployments_seed_unless_seed_is_given(tmp_path: Path) -> None:
    d = _dep(tmp_path, "fedavg", 3, rounds=2, seed=3)
    learning = load_deployment(d).extra["learning"]
    own, zero = simulate(learning, d), simulate(learning, d, seed=0)
    assert own.final_accuracy != zero.final_accuracy  # the seeds make different runs: the check can tell
    assert main(["run", str(d), "--summary", str(tmp_path / "own.json")]) == 0
    assert main(["run", str(d), "--seed", "0", "--summary", str(tmp_path / "zero.json")]) == 0
    assert json.loads((tmp_path / "own.json").read_text())["final_accuracy"] == own.final_accuracy
    assert json.loads((tmp_path / "zero.json").read_text())["final_accuracy"] == zero.final_accuracy


@pytest.mark.parametrize("extra, says", [
    (["--target", "c0=qemu-cortex-m3"], "add --processes"),  # in-process: nothing to put a device in
    (["--workdir", "{tmp}/w", "--transport", "mqtt://127.0.0.1:1", "--processes", "--target", "c0=linux-vm-x86_64"],
     "not a microcontroller target"),
    (["--transport", "mqtt://127.0.0.1:1", "--processes", "--target", "c9=qemu-cortex-m3"], "no node 'c9'"),
    (["--transport", "mqtt://127.0.0.1:1", "--processes", "--target", "c0"], "give NODE=TARGET"),
])
def test_target_refusals_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
                                      says: str) -> None:
    d = _dep(tmp_path, "fedavg", 2)
    assert main(["run", str(d), *(a.replace("{tmp}", str(tmp_path)) for a in extra)]) != 0
    err = capsys.readouterr().err.strip()
    assert says in err and err.startswith("error: ") and len(err.splitlines()) == 1, err
    assert not (d / "dist").exists() and not (tmp_path / "w").exists()  # nothing was built or written


if LONG:  # collected only in the long setting (a MicroPython build and a fleet over a broker, ~40 s)

    def test_run_target_micropython_client_trains_fedavg(tmp_path: Path) -> None:
        """``bb-edge run ... --processes --target c2=esp32-micropython`` with the broker ``bb-edge broker``
        wrote: the bundle's own main.py trains on a pty behind its bridge; the server's final model is
        FedAvg recomputed over each client's own batch order (MicroPython's for c2)."""
        d = _dep(tmp_path, "fedavg", 3, rounds=2, seed=4)
        files = write_broker_files(tmp_path / "broker", load_deployment(d), port=free_port(), persistence=False)
        with Broker(files):
            code = main(["run", str(d), "--transport", files.url(), "--processes", "--target", "c2=esp32-micropython",
                         "--workdir", str(tmp_path / "work"), "--summary", str(tmp_path / "s.json")])
        assert code == 0
        s = json.loads((tmp_path / "s.json").read_text())
        assert s["rounds"] == 2 and not s["rejections"] and s["events"].get("RoundCompleted") == 2, s
        assert "device c2: LocalTrainingDone round=2" in (tmp_path / "work" / "c2.log").read_text()
        final = [json.loads(ln) for ln in (tmp_path / "work" / "server.progress.jsonl").read_text().splitlines()
                 if '"final"' in ln][-1]
        np.testing.assert_allclose(np.asarray(final["model"], np.float32), fedavg_recomputed(d, {"c2": "mpy"}),
                                   atol=1e-4, rtol=0)
