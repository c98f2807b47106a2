"""`bb-edge run DIR` on a learning deployment: 100 virtual nodes, churn, latency, summary and curves."""

from __future__ import annotations

import json

from bb_edge.cli import main
from bb_edge.training.setup import write_learning_deployment


def test_bb_edge_run_learning_deployment_with_100_virtual_nodes(tmp_path):
    d = tmp_path / "dep"
    write_learning_deployment(d, {"strategy": "fedavg", "clients": 10, "rounds": 10, "batch_size": 16,
                                  "data": {"partition": {"type": "partition.dirichlet", "alpha": 0.5,
                                                         "min_size": 5}}})
    assert json.loads((d / "deployment.json").read_text())["learning"]["strategy"] == "fedavg"
    assert (d / "model.onnx").is_file()
    summary, png = tmp_path / "s.json", tmp_path / "c.png"
    rc = main(["run", str(d), "--virtual-nodes", "100", "--rounds", "3", "--seed", "1", "--churn", "0.3",
               "--latency", "0.05", "--bandwidth", "1e6", "--summary", str(summary), "--curves", str(png)])
    assert rc in (0, None)
    s = json.loads(summary.read_text())
    assert s["nodes"] == 100 and s["rounds"] == 3 and s["departed"] == 30
    assert len(s["accuracy_per_round"]) == 3 and s["bytes_per_node"] > 0 and s["wall_time_s"] > 0
    assert s["accuracy_per_round"][-1] > s["accuracy_per_round"][0]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_strategy_runs_from_a_deployment(tmp_path):
    for strategy in ("gossip", "pushsum", "splitfed", "diloco"):
        d = tmp_path / strategy
        write_learning_deployment(d, {"strategy": strategy, "clients": 4, "rounds": 2, "local_steps": 4})
        out = tmp_path / f"{strategy}.json"
        assert main(["run", str(d), "--summary", str(out)]) in (0, None)
        s = json.loads(out.read_text())
        assert s["strategy"] == strategy and s["rounds"] == 2 and s["bytes_total"] > 0
