"""What a user installs is the wheel: build it, install it in a fresh venv far from the checkout, use it.

The wheel is built with ``python -m build --wheel`` from a copy of the working tree (so the shared checkout
gets no build/ or egg-info litter), installed plainly (no extras: fp16 for the Jetson builder needs none) into
a new venv under the temp dir, and driven only through the venv's ``bb-edge`` script
from a scratch directory: ``targets``, ``demo``, ``compile``, ``build`` for host, qemu-cortex-m3,
esp32-micropython and jetson-orin-nano, ``run`` and ``hil`` (the host and QEMU builds answering over serial).

Offline-friendly: dependencies install from a wheelhouse (``$BB_EDGE_CACHE/wheelhouse``, default
``~/.cache/bb-edge/wheelhouse``) with ``--no-index``; only when that fails is the wheelhouse filled once with
``pip wheel`` through pip's configured index. Oracles: the checkout's targets/*.json names, a fresh ONNX
Runtime session in this process on the model the venv wrote, the bundle file lists the builders document.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from tests.support.fleet import stop_fleet
from tests.support.wheel import ROOT, build_wheel, check_ok, install_from_wheelhouse, run_cmd

TARGETS = ("host", "qemu-cortex-m3", "esp32-micropython", "jetson-orin-nano")


class Venv:
    """A fresh venv with the wheel installed, and a scratch directory to run it from."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.python = base / "venv" / "bin" / "python"
        self.scratch = base / "scratch"
        self.scratch.mkdir()
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        self.env.update(PATH=f"{base / 'venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
                        VIRTUAL_ENV=str(base / "venv"), COLUMNS="200", OMP_NUM_THREADS="1")

    def bb_edge(self, *args: str, timeout: float = 180) -> str:
        """Run the venv's console script in the scratch dir; its stdout, whitespace-normalised."""
        exe = self.base / "venv" / "bin" / "bb-edge"
        return check_ok(run_cmd([str(exe), *args], self.scratch, self.env, timeout))


def _install(venv: Venv, wheel: Path) -> None:
    check_ok(run_cmd([sys.executable, "-m", "venv", str(venv.base / "venv")], venv.base, venv.env, 120))
    # a plain install: `bb-edge build --target jetson` (fp16) must work from it
    install_from_wheelhouse(str(venv.python), wheel, venv.base, venv.env, 300)


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    base = tmp_path_factory.mktemp("wheel-install")
    assert not base.resolve().is_relative_to(ROOT), "the venv must live far from the checkout"
    v = Venv(base)
    _install(v, build_wheel(base))
    return v


def test_installed_package_is_the_wheel_not_the_checkout(venv: Venv) -> None:
    code = ("import json, sys, importlib.util as u, bb_edge, bb_edge.commands.demo as d; "
            "print(json.dumps({'file': bb_edge.__file__, 'demo': d.__file__, 'path': sys.path, "
            "'adapters': u.find_spec('adapters') is not None, 'sklearn': u.find_spec('sklearn') is not None}))")
    info = json.loads(check_ok(run_cmd([str(venv.python), "-c", code], venv.scratch, venv.env, 60)))
    site = venv.base / "venv"
    assert Path(info["file"]).resolve().is_relative_to(site.resolve()), info["file"]
    assert Path(info["demo"]).resolve().is_relative_to(site.resolve()), info["demo"]
    assert not [p for p in info["path"] if p and Path(p).resolve().is_relative_to(ROOT)], info["path"]
    assert not info["adapters"], "a top-level `adapters` package was installed"
    assert not info["sklearn"], "test extras leaked into the venv (scikit-learn)"


def test_wheel_carries_every_target_profile(venv: Venv) -> None:
    out = venv.bb_edge("targets")
    names = sorted(p.stem for p in (ROOT / "bb_edge" / "target_profiles").glob("*.json"))
    assert set(TARGETS) <= set(names)
    missing = [n for n in names if not re.search(rf"(^|\s|│){re.escape(n)}(\s|│|$)", out)]
    assert not missing, f"bb-edge targets from the wheel lacks {missing}:\n{out[:2000]}"


@pytest.fixture(scope="module")
def built(venv: Venv) -> Path:
    """demo -> compile -> build for the four targets, all from the venv; the scratch dir."""
    # the demo trains and writes the model, calibration and inputs the later commands use (relative paths)
    demo = venv.bb_edge("demo", "-o", "demo", "--requests", "120", timeout=300)
    assert re.search(r"held-out accuracy 0\.9\d\d over 120 digits", demo), demo[-1500:]
    venv.bb_edge("compile", "demo/digits.onnx", "--nodes", "3", "-o", "build")
    # building int8 bbrt nodes writes their int8 edges into dist/_deployment ("build" stays as compiled);
    # the float fleet (the in-process run, the Jetson bundle with Python peers) gets a deployment of its own
    venv.bb_edge("compile", "demo/digits.onnx", "--nodes", "3", "-o", "build-float")
    venv.bb_edge("build", "build", "--target", "n0=host", "--target", "n1=qemu-cortex-m3",
                 "--target", "n2=esp32-micropython", "--calib", "demo/calib.npz", "-o", "dist", timeout=300)
    venv.bb_edge("build", "build-float", "--target", "n0=jetson-orin-nano", "--calib", "demo/calib.npz",
                 "-o", "dist-jetson", timeout=300)
    return venv.scratch


def _reference(scratch: Path) -> np.ndarray:
    """Probabilities of the demo's trained model on its inputs, from a fresh ORT session in this process."""
    xs = np.load(scratch / "demo" / "inputs.npz")["pixels"]
    sess = ort.InferenceSession(str(scratch / "demo" / "digits.onnx"), providers=["CPUExecutionProvider"])
    return np.concatenate([sess.run(None, {"pixels": row})[0] for row in xs])


def test_bundles_for_four_targets(built: Path) -> None:
    from bb_edge.compiler import load_deployment

    # the int8 bbrt nodes' edges went int8 in the build's own copy (dist/_deployment; "build" is only read);
    # the Jetson-only "build-float" stays float32
    assert all(e.quant is not None for e in load_deployment(built / "dist" / "_deployment").edges)
    assert all(e.quant is None for e in load_deployment(built / "build").edges)
    assert all(e.quant is None for e in load_deployment(built / "build-float").edges)
    dist = built / "dist"
    for node, files in (("n0", ["bbrt-host", "program.bbrt", "bbrt-build.json"]),
                        ("n1", ["bbrt.elf", "program.bbrt", "run.sh"]),
                        ("n2", ["main.py", "program.bbrt", "config.json", "lib"])):
        for f in files:
            assert (dist / node / f).exists(), f"{node}: {f}"
    jetson = built / "dist-jetson" / "n0"
    for f in ["manifest.json", "jetson_node.py", "model.fp16.onnx", "model.int8.onnx", "run.sh", "node.env",
              "program/deployment.json", "lib/bb_edge/cli.py"]:
        assert (jetson / f).exists(), f"jetson: {f}"
    assert json.loads((jetson / "manifest.json").read_text())["precision"] == "fp16"


def test_run_from_the_wheel_matches_ort(venv: Venv, built: Path) -> None:
    venv.bb_edge("run", "build-float", "--inputs", "demo/inputs.npz", "--outputs", "out.npz")
    got = np.load(built / "out.npz")["probabilities"].reshape(-1, 10)
    np.testing.assert_allclose(got, _reference(built), atol=1e-5)


def test_host_and_qemu_builds_from_the_wheel_serve(venv: Venv, built: Path) -> None:
    # compiled from the firmware sources inside the wheel, they answer over serial
    hil = venv.bb_edge("hil", "build", "--device", "n0=host", "--device", "n1=qemu:cortex-m3",
                       "--calib", "demo/calib.npz", timeout=300)
    agree = re.search(r"top-1 agreement with float │? *(\d+\.\d+)%", hil)
    assert agree and float(agree.group(1)) >= 87.5, hil[-2000:]


def test_jetson_bundle_joins_a_fleet_over_mqtt(venv: Venv, built: Path) -> None:
    """n0 from its Jetson bundle (run.sh, vendored lib), n1 and n2 as `bb-edge node` from the venv."""
    from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.compiler import load_deployment
    from tests.support.transport_helpers import LineCollector, wait_until

    dep = load_deployment(built / "build-float")
    files = write_broker_files(built / "broker", dep)
    broker = Broker(files).start()
    procs: list[subprocess.Popen[bytes]] = []
    host = None
    try:
        env = dict(venv.env, BB_TRANSPORT=files.url())
        procs.append(subprocess.Popen([str(built / "dist-jetson" / "n0" / "run.sh"), "--quiet"], cwd=built, env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True))
        for node in ("n1", "n2"):
            procs.append(subprocess.Popen(
                [str(venv.base / "venv" / "bin" / "bb-edge"), "node", "build-float", "--node", node, "--quiet",
                 "--transport", files.url()], cwd=built, env=env, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, start_new_session=True))
        logs = [LineCollector(p) for p in procs]
        host = host_endpoint(dep, files.url())
        wait_until(lambda: {"n0", "n1", "n2"} <= host.up or any(p.poll() is not None for p in procs), 90,
                   "nodes up")
        assert all(p.poll() is None for p in procs), [lg.lines for lg in logs]
        xs = np.load(built / "demo" / "inputs.npz")["pixels"][:16]
        got = np.concatenate([g["probabilities"] for g in host.run([{"pixels": x} for x in xs], timeout=60)])
        want = _reference(built)[:16]
        np.testing.assert_allclose(got, want, atol=1e-2)  # n0 runs its fp16 model
        assert np.array_equal(np.argmax(got, axis=1), np.argmax(want, axis=1))
    finally:
        stop_fleet(broker, host=host, procs=procs)
