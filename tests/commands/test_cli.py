"""The CLI contract: compile, inspect, run, demo, targets (through the real console script)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx

from bb_edge.cli import main
from bb_edge.compiler import load_model
from tests.support.models import light, monolithic


def bb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                          timeout=300)


def test_compile_inspect_run_roundtrip(tmp_path: Path) -> None:
    out = tmp_path / "build"
    r = bb("compile", str(light("squeezenet")), "--nodes", "3", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["deployment.json", "n0.onnx", "n1.onnx", "n2.onnx"]
    r = bb("inspect", str(out), "--png", str(tmp_path / "p.png"))
    assert r.returncode == 0 and "bytes/inference" in r.stdout
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    model = load_model(light("squeezenet"))
    x = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32)
    np.savez(tmp_path / "in.npz", data_0=x)
    for backend in ("ort", "reference"):
        r = bb("run", str(out), "--inputs", str(tmp_path / "in.npz"), "--outputs", str(tmp_path / "o.npz"),
               "--backend", backend)
        assert r.returncode == 0, r.stderr
        got = np.load(tmp_path / "o.npz")
        ref = monolithic(model, {"data_0": x})
        assert set(got.files) == set(ref)
        assert all(np.abs(got[k] - v).max() <= 1e-5 for k, v in ref.items())


def test_compile_by_cut_and_by_place_file(tmp_path: Path) -> None:
    assert bb("compile", str(light("squeezenet")), "--cut", "r9", "-o", str(tmp_path / "c")).returncode == 0
    model = onnx.load(str(light("squeezenet")))
    place = tmp_path / "place.json"
    place.write_text(json.dumps({"*": "big", load_model(model).graph.node[0].name: "small"}))
    r = bb("compile", str(light("squeezenet")), "--place", str(place), "-o", str(tmp_path / "p"))
    assert r.returncode == 0, r.stderr


def test_errors_are_reported_not_raised(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["compile", str(light("squeezenet")), "--cut", "nope", "-o", str(tmp_path)]) == 1
    assert "CutNotFoundError" in capsys.readouterr().err
    assert main(["run", str(tmp_path / "missing")]) == 1
    assert main(["inspect", str(tmp_path / "missing")]) == 1


def test_inspect_model_lists_tensors() -> None:
    r = bb("inspect", str(light("squeezenet")), "--tensors")
    assert r.returncode == 0 and "r9" in r.stdout


def test_demo_runs_and_checks_itself(tmp_path: Path) -> None:
    r = bb("demo", "-o", str(tmp_path / "demo"), "--requests", "8")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "identical within 1e-5" in r.stdout
    assert (tmp_path / "demo" / "partition.png").exists()
    assert (tmp_path / "demo" / "deployment.json").exists()


def test_console_script_is_installed() -> None:
    r = subprocess.run(["bb-edge", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    for cmd in ("compile", "inspect", "run", "demo", "build", "targets"):
        assert cmd in r.stdout


def test_option_value_types() -> None:
    """argparse validators: sizes in the documented units, and nothing below the documented minimum."""
    import argparse

    import pytest

    from bb_edge.commands._args import byte_sizes, fleet_transport, name_list, positive_int

    assert byte_sizes("65536,64KiB,512k,2MiB,1G") == [65536, 64 * 1024, 512_000, 2 * 1024 * 1024, 10**9]
    assert positive_int("3") == 3
    assert name_list("cam,gw") == ["cam", "gw"]
    creds = Path(__file__)  # any existing file will do for the form check
    assert fleet_transport(f"mqtt://127.0.0.1:1883?creds={creds}") == f"mqtt://127.0.0.1:1883?creds={creds}"
    assert fleet_transport("serial://pty?corrupt=0.01") == "serial://pty?corrupt=0.01"
    from bb_edge.commands._args import bundle_transport, node_transport

    remote = "mqtts://broker.lan:8883?ca=/etc/bb-edge/ca.pem"  # a file on the target, not on the build host
    assert bundle_transport(remote) == remote and bundle_transport("none") == "none"
    with pytest.raises(argparse.ArgumentTypeError, match="ca=/etc/bb-edge/ca.pem is not a file"):
        node_transport(remote)
    for fn, bad in ((byte_sizes, "12 apples"), (byte_sizes, "0"), (positive_int, "0"), (name_list, "a,,b"),
                    (fleet_transport, "mqtt://h:99999"), (fleet_transport, "serial://pty?nosuch=1")):
        with pytest.raises(argparse.ArgumentTypeError):
            fn(bad)


def test_usage_errors_exit_2_and_debug_env(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert main(["compile", "m.onnx", "--nodes", "-1", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: UsageError: bb-edge compile: argument --nodes")
    monkeypatch.setenv("BB_EDGE_DEBUG", "1")
    assert main(["run", str(tmp_path / "missing")]) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert err.strip().splitlines()[-1].startswith("error: ") and "Deployment" in err.strip().splitlines()[-1]


def test_executorch_backend_is_selectable(tmp_path: Path) -> None:
    """``run --backend executorch`` runs every segment as a .pte and matches ONNX Runtime; node accepts it too."""
    import pytest

    from bb_edge.cli import build_parser
    from tests.support.tiny import tiny_model

    args = build_parser().parse_args(["node", "d", "--node", "n0", "--transport", "mqtt://h:1883",
                                      "--backend", "executorch"])
    assert args.backend == "executorch"
    pytest.importorskip("executorch.runtime")
    onnx.save(tiny_model(), str(tmp_path / "tiny.onnx"))
    assert bb("compile", str(tmp_path / "tiny.onnx"), "--cut", "h", "-o", str(tmp_path / "dep")).returncode == 0
    x = np.random.default_rng(3).standard_normal((1, 8)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x)
    r = bb("run", str(tmp_path / "dep"), "--inputs", str(tmp_path / "in.npz"), "--outputs", str(tmp_path / "et.npz"),
           "--backend", "executorch")
    assert r.returncode == 0, r.stderr
    ref = monolithic(tiny_model(), {"x": x})["y"]
    assert np.abs(np.load(tmp_path / "et.npz")["y"] - ref).max() <= 1e-5
