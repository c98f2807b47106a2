"""A linux-vm and a jetson bundle start on a "fresh device": a new venv holding only what the bundle's own
requirements.txt installs, each launched by its own run.sh against a real Mosquitto, serving requests whose
outputs match one ONNX Runtime session over the whole model.

The two families' requirements are identical (both are bb-edge's declared requirements, pinned), so one venv
serves both: that equality is asserted, not assumed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx

from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.bundle.artifacts import runtime_requirements
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from tests.support.fleet import stop_fleet
from tests.support.models import mlp, monolithic
from tests.support.transport_helpers import LineCollector, RawClient, wait_until


def test_requirements_are_bb_edges_declared_requirements(tmp_path: Path) -> None:
    """Every requirement bb-edge declares (jsonschema, cryptography, cobs among them) is pinned in a bundle."""
    import importlib.metadata as md

    from bb_edge.bundle.artifacts import pinned_requirements

    text = pinned_requirements()
    pinned = {ln.split("==")[0] for ln in text.splitlines() if ln and not ln.startswith("#")}
    declared = {n for n, _ in runtime_requirements()}
    assert {"jsonschema", "cryptography", "cobs", "numpy", "onnxruntime", "paho-mqtt"} <= declared
    assert pinned == declared
    for name in declared:
        assert f"{name}=={md.version(name)}" in text
    assert "pytest" not in text and "scikit-learn" not in text


def test_linux_and_jetson_bundles_run_in_a_fresh_venv(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    model = mlp(rng)
    onnx.save(model, str(tmp_path / "mlp.onnx"))
    comp, out = tmp_path / "comp", tmp_path / "dist"
    compile_model(str(tmp_path / "mlp.onnx"), nodes=2, out_dir=comp)
    dep = load_deployment(comp)
    names = [n.name for n in dep.nodes]
    # the jetson node produces the graph output: its launcher must send outputs to the host
    build_all(comp, [f"{names[0]}=linux-vm-x86_64", f"{names[1]}=jetson-orin-nano"], out, options={"precision": "fp32"})
    reqs = [(out / n / "requirements.txt").read_text() for n in names]
    assert reqs[0] == reqs[1], "linux-vm and jetson bundles declare different requirements"

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                          "-r", str(out / names[1] / "requirements.txt")],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr[-2000:]

    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    procs: list[subprocess.Popen[bytes]] = []
    host = None
    try:
        # what `source venv/bin/activate` does, and nothing from this test's interpreter
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env.update(PATH=f"{venv / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}", VIRTUAL_ENV=str(venv),
                   BB_TRANSPORT=files.url(), OMP_NUM_THREADS="1")
        for n in names:
            procs.append(subprocess.Popen([str(out / n / "run.sh")], cwd=out / n, env=env, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, start_new_session=True))
        logs = [LineCollector(p) for p in procs]
        host = host_endpoint(dep, files.url())
        wait_until(lambda: set(names) <= host.up or any(p.poll() is not None for p in procs), 60, "nodes up")
        assert all(p.poll() is None for p in procs), [lg.lines for lg in logs]
        inputs = [{"x": rng.standard_normal((1, 32)).astype(np.float32)} for _ in range(20)]
        got = host.run(inputs, timeout=60)
        assert len(got) == len(inputs)
        for r, g in zip(inputs, got):
            ref = monolithic(model, r)
            np.testing.assert_allclose(g["y"], ref["y"], rtol=1e-4, atol=1e-5)
        # the processes ran the venv's interpreter with the bundle's vendored bb_edge
        assert all("ModuleNotFoundError" not in "\n".join(lg.lines) for lg in logs)
        # both families publish a full status record (what bb-edge status shows)
        pw = json.loads(Path(files.credentials).read_text())  # type: ignore[arg-type]
        raw = RawClient(files.host, files.port, "_status", pw["_status"], client_id="_status")
        records: dict[str, dict] = {}
        raw.c.on_message = lambda c, u, m: records.__setitem__(m.topic.rsplit("/", 1)[1], json.loads(m.payload))
        raw.c.subscribe(f"bb/{dep.name}/status/+", qos=1)
        wait_until(lambda: set(names) <= set(records), 20, "status records of both bundles")
        raw.close()
        for n in names:
            r = records[n]
            assert r["program"] == dep.name and len(r["program_hash"]) == 64 and r["epoch"] > 0, r
            assert r["version"] and r["requests"] >= 0, r
    finally:
        stop_fleet(broker, host=host, procs=procs)
