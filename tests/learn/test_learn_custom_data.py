"""Bring your own data (npz, FILE.py:function, own partitions, per-client shards) and honest byte accounting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.learn.simulator import simulate
from bb_edge.learn.data import load_client_shard, write_client_shards
from bb_edge.learn.roles import ConfigError
from bb_edge.training.setup import build_setup
from bb_edge.wire import envelope as wire

ROOT = Path(__file__).resolve().parents[2]


def test_custom_data_example_reproduces_numpy_fedavg_exactly(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "custom_data.py"), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = [ln for ln in out.stdout.splitlines() if "max |bb-edge - numpy|" in ln]
    assert len(lines) == 3 and all(ln.endswith("equal") for ln in lines), out.stdout


def _xy(n: int = 120, d: int = 64, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.random((n, d), dtype=np.float32), rng.integers(0, 10, n).astype(np.int64)


BASE = {"strategy": "fedavg", "clients": 3, "rounds": 1}


def test_npz_source_test_file_and_own_indices(tmp_path: Path) -> None:
    x, y = _xy()
    xt, yt = _xy(30, seed=1)
    np.savez(tmp_path / "tr.npz", x=x, y=y)
    np.savez(tmp_path / "te.npz", x=xt, y=yt)
    idx = [[0, 5, 7], list(range(10, 50)), list(range(50, 120))]
    s = build_setup({**BASE, "data": {"source": "tr.npz", "test": "te.npz", "partition": {"indices": idx}}},
                    tmp_path)
    assert [len(p) for p in s.parts] == [3, 40, 70]
    np.testing.assert_array_equal(s.parts[0].x, x[[0, 5, 7]])
    np.testing.assert_array_equal(s.x_test, xt)
    np.testing.assert_array_equal(s.y_test, yt)


def test_custom_partitioner_sees_the_users_train_split(tmp_path: Path) -> None:
    x, y = _xy(90)
    np.savez(tmp_path / "d.npz", x=x, y=y, x_test=x[:10], y_test=y[:10])
    (tmp_path / "p.py").write_text(
        "import numpy as np\n"
        "SEEN = []\n"
        "def split(x, y, n):\n"
        "    assert len(x) == 90 and x.shape[1] == 64\n"
        "    return [np.arange(i, 90, n) for i in range(n)]\n")
    s = build_setup({**BASE, "data": {"source": "d.npz", "partition": "p.py:split"}}, tmp_path)
    assert [len(p) for p in s.parts] == [30, 30, 30]
    np.testing.assert_array_equal(s.parts[1].y, y[1::3])


def test_component_specs_work(tmp_path: Path) -> None:
    s = build_setup({**BASE, "data": {"source": {"type": "data.sklearn", "name": "digits"}}})
    assert sum(len(p) for p in s.parts) + len(s.y_test) == 1797
    x, y = _xy(40)
    s = build_setup({**BASE, "data": {"source": {"type": "data.arrays", "x": x.tolist(), "y": y.tolist()},
                                      "test_fraction": 0.25}})
    assert sum(len(p) for p in s.parts) + len(s.y_test) == 40


@pytest.mark.parametrize("data,match", [
    ({"source": "data.arrays"}, 'needs its config: write {"type": \'data.arrays\''),
    ({"source": {"type": "data.sklearn", "bogus": 1}}, "data source 'data.sklearn'"),
    ({"source": {"name": "digits"}}, "needs a 'type'"),
    ({"source": "nope"}, "FILE.npz"),
    ({"source": "missing.npz"}, "not found"),
    ({"source": "missing.py:load"}, "no file"),
    ({"source": {"type": "partition.iid"}}, "not a data source"),
    ({"partition": {"indices": [[0, 1], [2]]}}, "2 index arrays for 3 clients"),
    ({"partition": {"indices": [[0], [1], [99999]]}}, "outside"),
    ({"partition": {"indices": [[0], [1.5], [2]]}}, "integer"),
    ({"shards": "s/client{client}.npz"}, "needs a hold-out"),
])
def test_bad_data_specs_are_config_errors_that_say_the_fix(tmp_path: Path, data: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match.replace("(", r"\(").replace("{", r"\{").replace("[", r"\[")):
        build_setup({**BASE, "data": data}, tmp_path)


def test_a_node_loads_only_its_own_shard(tmp_path: Path) -> None:
    s = build_setup({**BASE, "clients": 4})
    paths = write_client_shards(s.parts, tmp_path)
    for p in paths[:2] + paths[3:]:
        p.unlink()  # only client 2's file is left: it must still load
    got = load_client_shard("shards/client{client}.npz", 2, tmp_path)
    np.testing.assert_array_equal(got.x, s.parts[2].x)
    np.testing.assert_array_equal(got.y, s.parts[2].y)
    with pytest.raises(ConfigError, match="not found"):
        load_client_shard("shards/client{client}.npz", 1, tmp_path)


def test_loader_errors_are_typed(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def load():\n    raise RuntimeError('disk on fire')\n"
                                     "def shape():\n    return 1, 2, 3\n")
    with pytest.raises(ConfigError, match="disk on fire"):
        build_setup({**BASE, "data": {"source": "bad.py:load"}}, tmp_path)
    with pytest.raises(ConfigError, match=r"must give \(x, y\)"):
        build_setup({**BASE, "data": {"source": "bad.py:shape"}}, tmp_path)


# ------------------------------------------------------------------ accounting


def test_bytes_by_direction_round_and_type_against_envelope_sizes() -> None:
    clients, rounds = 4, 3
    res = simulate({"strategy": "fedavg", "clients": clients, "rounds": rounds, "batch_size": 32}, seed=0)
    s = res.summary()
    size = build_setup({"strategy": "fedavg"}).program.layout.size
    model_env = len(wire.encode(wire.Envelope.for_array(np.zeros(size, np.float32), sender=1, receiver=2, seq=1)))
    by_type = s["bytes_by_type"]
    # independent oracle: every round the server sends one MODEL to each client and gets one UPDATE back
    assert by_type["MODEL"] == rounds * clients * model_env
    assert by_type["UPDATE"] == rounds * clients * model_env
    assert by_type["MODEL_FULL"] == clients * model_env  # one per JOIN
    assert sum(by_type.values()) == res.bytes_total == sum(s["bytes_sent"].values())
    assert sum(s["bytes_received"].values()) == res.bytes_total  # unicast: each envelope received once
    for r in range(1, rounds + 1):
        assert s["bytes_by_round_and_type"][str(r)]["MODEL"] == clients * model_env
    # the server is excluded from the per-node figure: FedAvg's client traffic is all traffic, split over clients
    assert s["server"] == "server" and s["server_bytes_sent"] > 0
    assert res.bytes_per_node == pytest.approx(res.bytes_total / clients)
    assert s["bytes_received"]["server"] == sum(v for k, v in s["bytes_sent"].items() if k != "server")


def test_memory_is_measured_from_the_process() -> None:
    res = simulate({"strategy": "fedavg", "clients": 3, "rounds": 2, "batch_size": 32}, seed=0,
                   measure_memory=True)
    with open("/proc/self/status") as fh:
        hwm = next(float(ln.split()[1]) / 1024 for ln in fh if ln.startswith("VmHWM:"))
    assert res.peak_memory_mb is not None and 0 < res.peak_memory_mb <= hwm
    assert res.peak_memory_mb > 50  # the process holds ONNX Runtime and numpy: far above a traced heap
    assert res.peak_pss_mb is not None and 0 < res.peak_pss_mb <= hwm * 1.01


def test_build_setup_for_one_client_reads_only_its_shard(tmp_path: Path) -> None:
    full = build_setup({**BASE, "clients": 3})
    write_client_shards(full.parts, tmp_path)
    np.savez(tmp_path / "test.npz", x=full.x_test, y=full.y_test)
    (tmp_path / "shards" / "client0.npz").unlink()  # another node's file: not needed by client 1
    cfg = {**BASE, "clients": 3, "data": {"shards": "shards/client{client}.npz", "test": "test.npz"}}
    mine = build_setup(cfg, tmp_path, only_client=1)
    np.testing.assert_array_equal(mine.parts[1].x, full.parts[1].x)
    assert len(mine.parts[0]) == 0 and len(mine.parts[2]) == 0
    with pytest.raises(ConfigError, match="client0.npz"):
        build_setup(cfg, tmp_path)  # the whole fleet's view needs every shard
