"""The C FedAvg client straight on MQTT (firmware/ports/posix-mqtt/learn_main.c) in a mixed fleet.

Real components only: ``make learn-host-mqtt`` (libmosquitto), one real Mosquitto, the Python
server and two Python clients as ``bb-edge node`` processes, and 20 C client processes
(``bbrt-learn-mqtt``), each reading its learning image (shard, settings, .bbrt training step).

Oracle: the whole run recomputed outside every runtime, as tests/learn/test_learn_mcu.py does for
its mixed fleet: ONNX Runtime runs the ONNX training program per client over that client's own batch
order (the C client's xorshift order of :func:`round_batches`, numpy's for the Python clients), and
each round's model is the previous one plus the sample-weighted mean of the deltas (FedAvg).
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.learn.c_mqtt import build_client, client_argv, write_client_images
from bb_edge.adapters.learn.fleet import run_learning_fleet
from bb_edge.adapters.learn.node import load_module
from bb_edge.adapters.ops.broker import free_port, mosquitto_binary, passwd_text
from bb_edge.deployment.manifest import load_deployment
from bb_edge.errors import BBError
from bb_edge.training.models import mlp
from bb_edge.training.setup import write_learning_deployment
from tests.support.broker import start_broker, stop_broker
from tests.support.fedavg_oracle import fedavg_rounds

C_CLIENTS, PY_CLIENTS, ROUNDS = 20, 2, 3
LEARNING: dict[str, Any] = {
    "strategy": "fedavg", "clients": C_CLIENTS + PY_CLIENTS, "rounds": ROUNDS, "epochs": 1, "seed": 5,
    "batch_size": 16, "round_timeout": 60.0,
    "data": {"source": "digits", "partition": {"type": "partition.iid"}},
}


@pytest.fixture(scope="module")
def exe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``bbrt-learn-mqtt``, built once for the module (``make learn-host-mqtt``)."""
    assert Path("/usr/include/mosquitto.h").exists(), "libmosquitto-dev missing: bash .ci/test.sh installs it"
    assert shutil.which("cc"), "a C compiler is a CI package"
    return build_client(tmp_path_factory.mktemp("c-mqtt-build"))


def test_c_clients_on_mqtt_train_with_python_ones(exe: Path, tmp_path: Path) -> None:
    """20 C clients + 2 Python clients + the Python server over one Mosquitto, 3 rounds: every round
    completes with every client, the server's model equals the FedAvg recomputation, and each C client
    sent its updates and little else (JOIN, heartbeats, envelope headers)."""
    d = tmp_path / "dep"
    write_learning_deployment(d, LEARNING, model=mlp([64, 10], seed=5))
    dep = load_deployment(d)
    module = load_module(dep.extra["learning"], d)
    c_names = [f"c{i}" for i in range(PY_CLIENTS, PY_CLIENTS + C_CLIENTS)]
    images = write_client_images(d, c_names, tmp_path / "images")
    work = tmp_path / "work"
    broker, url = start_broker(tmp_path / "broker")
    try:
        cmds = {n: client_argv(exe, images[n], n, dep.name, url, start_file=work / "start",
                               progress=work / f"{n}.progress.jsonl", state_dir=tmp_path / "state")
                for n in c_names}
        res = run_learning_fleet(dep, url, workdir=work, commands=cmds, timeout=300)
    finally:
        stop_broker(broker)
    assert len(res.records) == ROUNDS and res.counts.get("RoundCompleted") == ROUNDS, res.counts
    assert not res.rejections, res.rejections
    oracle = fedavg_rounds(module, dict.fromkeys(c_names, "mcu"), ROUNDS)
    np.testing.assert_allclose(res.final_models["server"], oracle, atol=1e-4, rtol=0)
    # the Python clients hear each other's broadcast HELLOs on the shared broker: ignored, not refusals
    for n in ("server", "c0", "c1"):
        final = json.loads((work / f"{n}.progress.jsonl").read_text().splitlines()[-1])
        assert "Unauthorised" not in final["events"], (n, final["events"])
    n_params = module.setup.program.layout.size
    for n in c_names:
        final = json.loads((work / f"{n}.progress.jsonl").read_text().splitlines()[-1])
        assert final["events"]["UpdateSent"] == ROUNDS and final["update_bytes"] == ROUNDS * 4 * n_params, final
        assert final["spoofed"] == 0 and final["bad_envelopes"] == 0 and final["foreign"] == 0, final
        control = final["bytes_out"] - final["update_bytes"]
        assert 0 < control <= 1024 * ROUNDS, (n, control)  # JOIN, heartbeats, headers: under 1 KB a round


def test_c_clients_read_their_password_from_credentials_json(exe: Path, tmp_path: Path) -> None:
    """A Mosquitto with passwords (no anonymous clients) and the URL's ``?creds=credentials.json``, as the
    Python nodes take it: C clients read their own entry and train 2 rounds with a Python client and the
    server; a C client that presents another client's password is refused (exit 4) before it sends anything."""
    learning = {**LEARNING, "clients": 3, "rounds": 2}
    d = tmp_path / "dep"
    write_learning_deployment(d, learning, model=mlp([64, 10], seed=5))
    dep = load_deployment(d)
    images = write_client_images(d, ["c1", "c2"], tmp_path / "images")
    pw = {n: secrets.token_urlsafe(18) for n in ("server", "c0", "c1", "c2")}
    b = tmp_path / "broker"
    b.mkdir()
    (b / "passwd").write_text(passwd_text(pw))
    (b / "credentials.json").write_text(json.dumps(pw))
    port = free_port()
    # "user": started as root, mosquitto would drop to user "mosquitto" and lose access to the passwd file
    (b / "mosquitto.conf").write_text(f"user {pwd.getpwuid(os.getuid()).pw_name}\nlistener {port} 127.0.0.1\n"
                                      f"allow_anonymous false\npassword_file {b / 'passwd'}\npersistence false\n")
    broker = subprocess.Popen([mosquitto_binary(), "-c", str(b / "mosquitto.conf")], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    url = f"mqtt://127.0.0.1:{port}?creds={b / 'credentials.json'}"
    work = tmp_path / "work"
    try:
        time.sleep(0.5)
        cmds = {n: client_argv(exe, images[n], n, dep.name, url, start_file=work / "start",
                               progress=work / f"{n}.progress.jsonl") for n in ("c1", "c2")}
        assert "--creds" in cmds["c1"]
        res = run_learning_fleet(dep, url, workdir=work, commands=cmds, timeout=180)
        (tmp_path / "pw").write_text(pw["c2"])
        bad = subprocess.run([str(exe), str(images["c1"]), "--name", "c1", "--deployment", dep.name, "--host",
                              "127.0.0.1", "--port", str(port), "--password-file", str(tmp_path / "pw"),
                              "--connect-timeout", "5"], capture_output=True, text=True, timeout=30)
    finally:
        stop_broker(broker)
    assert res.counts.get("RoundCompleted") == 2 and not res.rejections, res.counts
    for n in ("c1", "c2"):
        final = json.loads((work / f"{n}.progress.jsonl").read_text().splitlines()[-1])
        assert final["events"]["UpdateSent"] == 2, final
    assert bad.returncode == 4 and "refused the connection" in bad.stderr, (bad.returncode, bad.stderr)


def test_images_are_refused_before_a_process_starts(tmp_path: Path) -> None:
    """A non-FedAvg deployment, an unknown client and a shard smaller than a batch are typed errors."""
    d = tmp_path / "dep"
    write_learning_deployment(d, {**LEARNING, "batch_size": 4096}, model=mlp([64, 10], seed=5))
    with pytest.raises(BBError, match="fewer than one batch"):
        write_client_images(d, ["c0"], tmp_path / "i")
    with pytest.raises(BBError, match="no client 'c99'"):
        write_client_images(d, ["c99"], tmp_path / "i")
    for url in ("serial:///dev/ttyUSB0", "mqtts://127.0.0.1:8883", "mqtt://127.0.0.1:1883?ca=ca.pem"):
        with pytest.raises(BBError, match="mqtt://HOST:PORT"):
            client_argv("x", "y", "c0", "dep", url)


def test_fleet_pacing_options(exe: Path, tmp_path: Path) -> None:
    """Issue 35's connect storm: ``first_member`` rotates a cluster's member list (client k starts on member
    k mod n), ``backoff_max`` / ``connect_spread`` reach the client, which takes them (it then fails only to
    connect: exit 5) and refuses values out of range (usage: exit 2)."""
    d = tmp_path / "dep"
    write_learning_deployment(d, LEARNING, model=mlp([64, 10], seed=5))
    (image,) = write_client_images(d, ["c0"], tmp_path / "i").values()
    dead = [free_port() for _ in range(3)]
    url = "mqtt://" + ",".join(f"127.0.0.1:{p}" for p in dead)
    for k in range(4):
        argv = client_argv(exe, image, "c0", "dep", url, first_member=k)
        hosts = argv[argv.index("--host") + 1].split(",")
        assert hosts == [f"127.0.0.1:{dead[(k + i) % 3]}" for i in range(3)], (k, hosts)
    argv = client_argv(exe, image, "c0", "dep", url, backoff_max=0.2, connect_spread=0.2)
    assert argv[argv.index("--backoff-max") + 1] == "0.2" and argv[argv.index("--connect-spread") + 1] == "0.2"
    r = subprocess.run([*argv, "--connect-timeout", "0.5"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 5 and "no connection to" in r.stderr, r.stderr
    for opt, bad in (("--backoff-max", "0"), ("--backoff-max", "x"), ("--connect-spread", "-1"),
                     ("--connect-spread", "99999")):
        r = subprocess.run([str(exe), str(image), "--name", "c0", "--deployment", "dep", opt, bad],
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 2 and "usage:" in r.stderr, (opt, bad, r.stderr)


def test_client_calls_no_allocator(exe: Path) -> None:
    """The client and its runtime import no heap function: every allocation is inside libmosquitto.so."""
    out = subprocess.run(["nm", "-D", "--undefined-only", str(exe)], capture_output=True, text=True, check=True,
                         timeout=20).stdout
    imported = {ln.split()[-1].split("@")[0] for ln in out.splitlines() if ln.strip()}
    assert "mosquitto_publish" in imported and "mosquitto_username_pw_set" in imported
    heap = {"malloc", "calloc", "realloc", "free", "strdup", "strndup", "aligned_alloc", "posix_memalign"}
    assert not imported & heap, sorted(imported & heap)
