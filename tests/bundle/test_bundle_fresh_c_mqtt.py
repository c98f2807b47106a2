"""The C MQTT node bundle (``host-mqtt``) on a "fresh device": each bundle directory is copied alone into
an empty directory, one is rebuilt there from its own ``source/`` with its own Makefile against the
system libmosquitto, and both start with their own ``run.sh`` on a real Mosquitto with generated
credentials. The fleet is C end to end (entry and exit node), so it proves the C node serves clients:

- ``bb-edge request`` as ``_client1`` and ``_client2`` at once (two processes), while the host runs its
  own requests: every output equals one ONNX Runtime session over the whole model, and no client's
  output reaches the host (the C node routes a graph output to the request's owner);
- ``bb-edge status --once`` lists both C nodes with the program's name, ``program_version`` and hash,
  and their status records carry requests, drops, errors and uptime.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx

from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from tests.support.fleet import stop_fleet
from tests.support.models import mlp, monolithic
from tests.support.transport_helpers import LineCollector, RawClient, wait_until

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80"}
VERSION = "2026.11-r7"


def bb_edge_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "bb_edge.cli", *args]


def test_c_mqtt_bundles_on_a_fresh_device_serve_two_clients_and_show_in_status(tmp_path: Path) -> None:
    assert Path("/usr/include/mosquitto.h").exists(), "libmosquitto-dev missing: bash .ci/test.sh installs it"
    rng = np.random.default_rng(11)
    model = mlp(rng)
    onnx.save(model, str(tmp_path / "mlp.onnx"))
    comp, dist = tmp_path / "comp", tmp_path / "dist"
    compile_model(str(tmp_path / "mlp.onnx"), nodes=2, out_dir=comp)
    manifest = json.loads((comp / "deployment.json").read_text())
    manifest["program_version"] = VERSION  # the operator's release name: shown by bb-edge status
    (comp / "deployment.json").write_text(json.dumps(manifest, indent=1))
    dep = load_deployment(comp)
    names = dep.node_names
    build_all(comp, [f"{n}=host-mqtt" for n in names], dist, options={"precision": "fp32"})

    # the device: each bundle directory alone, nothing else of this checkout
    device = tmp_path / "device"
    for n in names:
        shutil.copytree(dist / n, device / n)
    # the device packages it declares: libmosquitto at least the version it was built against
    from bb_edge.bbrt.firmware import mosquitto_version

    sysreq = (device / names[1] / "system-requirements.txt").read_text()
    assert f"libmosquitto1 >= {mosquitto_version()}" in sysreq and "libmosquitto-dev" in sysreq, sysreq
    ldd = subprocess.run(["ldd", str(device / names[1] / "bbrt-mqtt")], capture_output=True, text=True, timeout=30)
    assert "libmosquitto.so.1 => /" in ldd.stdout and "not found" not in ldd.stdout, ldd.stdout
    # one bundle rebuilt from its own sources and Makefile (what a device of another architecture does)
    (device / names[0] / "bbrt-mqtt").unlink()
    mk = subprocess.run(["make", "-s"], cwd=device / names[0], capture_output=True, text=True, timeout=300)
    assert mk.returncode == 0, mk.stdout + mk.stderr
    assert (device / names[0] / "bbrt-mqtt").stat().st_mode & 0o111
    run_sh = (device / names[0] / "run.sh").read_text()
    assert "pty" not in run_sh and "--program-version" in run_sh, run_sh

    files = write_broker_files(tmp_path / "broker", dep)
    url = files.url()
    broker = Broker(files).start()
    procs: list[subprocess.Popen[bytes]] = []
    host = None
    try:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        for n in names:
            procs.append(subprocess.Popen(
                [str(device / n / "run.sh"), "--host", files.host, "--port", str(files.port),
                 "--creds", str(files.credentials), "--status-interval", "0.5"],
                cwd=device / n, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True))
        logs = [LineCollector(p) for p in procs]
        host = host_endpoint(dep, url)
        wait_until(lambda: set(names) <= host.up or any(p.poll() is not None for p in procs), 60, "C nodes up")
        assert all(p.poll() is None for p in procs), [lg.lines for lg in logs]

        stacks = {k: rng.standard_normal((8, 1, 32)).astype(np.float32) for k in (1, 2)}
        clients = {}
        for k, stack in stacks.items():
            np.savez(tmp_path / f"in{k}.npz", x=stack)
            clients[k] = subprocess.Popen(
                bb_edge_cmd("request", str(comp), "--fleet", url, "--client", str(k), "--inputs",
                            str(tmp_path / f"in{k}.npz"), "--outputs", str(tmp_path / f"out{k}.npz"),
                            "--timeout", "60"),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
        host_x = [{"x": rng.standard_normal((1, 32)).astype(np.float32)} for _ in range(4)]
        host_got = host.run(host_x, timeout=60)  # the host's own requests, at the same time
        for k, cp in clients.items():
            out, _ = cp.communicate(timeout=120)
            assert cp.returncode == 0, out
            assert f"_client{k}: wrote 8 request(s)" in out, out
            got = np.load(tmp_path / f"out{k}.npz")["y"]
            want = np.stack([monolithic(model, {"x": stacks[k][i]})["y"] for i in range(8)])
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        for hx, g in zip(host_x, host_got, strict=True):
            np.testing.assert_allclose(g["y"], monolithic(model, hx)["y"], rtol=1e-4, atol=1e-5)
        assert host.stats.refused == 0 and host.stats.outputs == 4  # no client's output reached the host

        # the status records: program name/version/hash, counters, uptime (what bb-edge status reads)
        pw = json.loads(Path(files.credentials).read_text())  # type: ignore[arg-type]
        raw = RawClient(files.host, files.port, "_status", pw["_status"], client_id="_status")
        records: dict[str, dict] = {}
        raw.c.on_message = lambda c, u, m: records.__setitem__(m.topic.rsplit("/", 1)[1], json.loads(m.payload))
        raw.c.subscribe(f"bb/{dep.name}/status/+", qos=1)
        wait_until(lambda: all(records.get(n, {}).get("requests", 0) == 20 for n in names), 20,
                   "status records counting 20 requests")
        raw.close()
        for n in names:
            r = records[n]
            assert r["program"] == dep.name and r["program_version"] == VERSION, r
            assert len(r["program_hash"]) == 64 and r["epoch"] > 0 and r["version"] == "bbrt-c", r
            assert r["errors"] == 0 and r["drops"] == 0 and r["uptime_s"] > 0, r
        st = subprocess.run(bb_edge_cmd("status", url, "--once", "2"), capture_output=True, text=True,
                            timeout=60, env=ENV)
        assert st.returncode == 0, st.stderr
        for n in names:
            row = next(ln for ln in st.stdout.splitlines() if f" {n} " in ln)
            assert "up" in row and f"{dep.name} {VERSION}" in row and records[n]["program_hash"][:8] in row, \
                st.stdout
            assert " 20 " in row, st.stdout  # requests served: 16 of the clients, 4 of the host
    finally:
        stop_fleet(broker, host=host, procs=procs)
