"""``bb-edge status``: the live fleet view, in a real terminal (tmux), over a real Mosquitto with its ACL.

Three ``bb-edge node`` processes publish status records; ``bb-edge status`` runs in a detached tmux
session and ``capture-pane`` is what an operator would see. A SIGKILLed node shows ``down`` (the broker's
last will); a SIGSTOPped one, whose TCP connection stays open so no will fires before the keepalive, shows
``down`` within the phi-accrual detector's bound, well before the keepalive would have said so.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.adapters.ops.status_view import StatusModel, parse_record
from bb_edge.deployment.manifest import Deployment
from tests.support.transport_helpers import RawClient, assert_same_outputs

pytest_plugins = ["tests.support.transport_fixtures"]

TIMEOUT = 60.0
INTERVAL = 0.5


# ------------------------------------------------------------------ units


def _record(name: str, **kw: object) -> bytes:
    r = {"node": name, "version": "0.1.0", "program_hash": "ab" * 32, "epoch": 7, "hop_ms": 1.5,
         "rtt_ms": {"n1": 0.4}, "drops": 0, "requests": 3}
    r.update(kw)
    return json.dumps(r).encode()


@pytest.mark.parametrize("payload", [
    b"not json", b"[1, 2]", _record("n9"), _record("n0", epoch="7"), _record("n0", drops=True),
    _record("n0", rtt_ms=[1]), b"{" + b" " * 9000 + b"}", _record("n0", hop_ms=None) + b"x",
    _record("n0", program=3), _record("n0", time="now"),
])
def test_a_malformed_record_is_an_invalid_record_row(payload: bytes) -> None:
    """The last good record is kept; the row says "invalid record" until a good one arrives."""
    m = StatusModel(interval=1.0)
    assert m.on_status("d", "n0", _record("n0"), 0.0)
    before = m.rows(0.5)
    assert not m.on_status("d", "n0", payload, 0.4)
    after = m.rows(0.5)
    assert m.refused == 1 and after[0]["state"] == "invalid record"
    assert {**after[0], "state": "up"} == before[0]
    assert parse_record("n0", payload) is None
    assert m.on_status("d", "n0", _record("n0"), 0.45) and m.rows(0.5)[0]["state"] == "up"


def test_infrastructure_identities_are_not_nodes_and_old_records_are_gone() -> None:
    import time as _time

    m = StatusModel(interval=1.0)
    wall = _time.time()
    for infra in ("_host", "_client1", "_status"):
        assert m.on_presence("d", infra, b"down", 0.0)
    assert m.on_status("d", "n0", _record("n0", time=wall - 0.2), 0.0, wall=wall)
    # retained records of a finished run: written an hour ago, their nodes' last will says down
    assert m.on_status("d", "c7", _record("c7", time=wall - 3600), 0.0, wall=wall)
    assert m.on_presence("d", "c7", b"down", 0.0)
    assert m.on_status("d", "c8", _record("c8", time=wall - 3600), 0.0, wall=wall)
    rows = {r["node"]: r["state"] for r in m.rows(0.1)}
    assert rows == {"n0": "up", "c7": "gone", "c8": "gone"}
    assert m.on_status("d", "c8", _record("c8", time=wall + 1), 1.0, wall=wall + 1)  # it came back
    assert {r["node"]: r["state"] for r in m.rows(1.1)}["c8"] == "up"


def test_strings_from_the_broker_are_shown_literally() -> None:
    """Rich markup in a name or version is text; control characters are escaped; width stays 80."""
    from rich.console import Console

    from bb_edge.adapters.ops.status_view import literal, render

    m = StatusModel(interval=1.0)
    evil = "[bold red]n1[/]"
    assert m.on_status("d", evil, _record(evil, version="\x1b[2J\x07", program="digits\nx",
                                           program_version="[link=x]v2[/link]"), 0.0)
    assert not m.on_status("d", "n\x1b]0;pwned\x07", b"garbage", 0.0)
    console = Console(width=200, record=True, color_system=None)
    console.print(render(m, 0.1, title="[blink]t[/]"))
    text = console.export_text()
    assert evil in text and "[link=x]v2[/link]" in text and "[blink]t[/]" in text, text
    assert "\\x1b" in text and "\x1b" not in text and "\x07" not in text and "digits\\nx" in text, text
    assert "invalid record" in text
    assert literal("a\tb") == "a\\tb" and len(literal("x" * 500)) == 64


def test_detector_bound_and_presence() -> None:
    m = StatusModel(interval=1.0)
    for t in range(10):
        assert m.on_status("d", "n0", _record("n0"), float(t))
        assert m.on_status("d", "n1", _record("n1"), float(t))
    bound = m.bound()
    assert 1.0 < bound < 5.0  # after the interval, before a keepalive-based will (15 s by default)
    assert [r["state"] for r in m.rows(9.0 + bound * 0.9)] == ["up", "up"]
    assert [r["state"] for r in m.rows(9.0 + bound * 1.1)] == ["down", "down"]
    assert m.on_presence("d", "n1", b"down", 9.5)
    assert [r["state"] for r in m.rows(9.6)] == ["up", "down"]
    assert not m.on_presence("d", "n1", b"maybe", 9.7) and m.refused == 1


def test_a_narrow_terminal_hides_columns_but_never_cuts_nodes_states_or_programs() -> None:
    """At 80 and 60 columns every node name, state, program (name and version) and hash shows whole and the
    caption names what is hidden; with no width (piped output) every column shows; two deployments keep
    the column."""
    from rich.console import Console

    from bb_edge.adapters.ops.status_view import render

    m = StatusModel(interval=1.0)
    for n in ("camera-front-left", "n1", "n2"):
        assert m.on_status("squeezenet-demo", n, _record(n, rtt_ms={"n1": 0.4, "n2": 12.25},
                                                         program="squeezenet-demo", program_version="2026.11-r3",
                                                         program_hash="c0ffee12" + "ab" * 28), 0.0)
    assert m.on_presence("squeezenet-demo", "n2", b"down", 0.1)

    def lines(width: int | None) -> list[str]:
        console = Console(width=width or 1000, record=True, color_system=None)
        console.print(render(m, 0.5, width=width))
        return console.export_text().splitlines()

    for width in (80, 72):
        out = lines(width)
        assert max(len(x) for x in out) <= width, out
        text = "\n".join(out)
        for name, state in (("camera-front-left", "up"), ("n1", "up"), ("n2", "down")):
            assert any(re.search(rf"│ {name}\s+│ {state}\s+│ squeezenet-demo 2026.11-r3\s+│ c0ffee12\s+│", x)
                       for x in out), text
        assert "hidden to fit: bb-edge" in " ".join(text.split()) and "…" not in text, text
    full = "\n".join(lines(None))
    for header in ("bb-edge", "program", "hash", "epoch", "hop ms", "compute ms", "rtt ms", "drops", "reqs", "seen"):
        assert header in full
    assert "n1:0.4 n2:12.2" in full and "hidden" not in full and "bb-edge fleet: squeezenet-demo" in full
    assert m.on_status("other", "n0", _record("n0"), 0.2)
    assert "deployment" in "\n".join(lines(None))


def test_prune_and_gone_on_a_real_broker(tmp_path: Path) -> None:
    """Retained records of an old run on Mosquitto: ``status --once`` shows them gone (``_host`` not at all),
    ``status --prune DIR`` deletes the names not in DIR's deployment and keeps the rest."""
    import numpy as np
    import onnx

    from bb_edge.compiler import compile_model
    from tests.support.models import mlp

    onnx.save(mlp(np.random.default_rng(0)), str(tmp_path / "m.onnx"))
    compile_model(str(tmp_path / "m.onnx"), nodes=2, out_dir=tmp_path / "c")
    dep_name = json.loads((tmp_path / "c" / "deployment.json").read_text())["name"]
    files = write_broker_files(tmp_path / "broker")  # anonymous: anyone may clear a retained record
    broker = Broker(files).start()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    try:
        raw = RawClient(files.host, files.port, None, None, client_id="old-run")
        base = f"bb/{dep_name}"
        old = time.time() - 3600
        for name in ("n0", "c7", "c8"):
            raw.c.publish(f"{base}/status/{name}", _record(name, time=old), qos=1, retain=True).wait_for_publish(5)
            raw.c.publish(f"{base}/presence/{name}", b"down", qos=1, retain=True).wait_for_publish(5)
        raw.c.publish(f"{base}/presence/_host", b"down", qos=1, retain=True).wait_for_publish(5)
        raw.close()
        url = files.url()
        r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "status", url, "--once", "1"], capture_output=True,
                           text=True, timeout=60, env=env)
        assert r.returncode == 0, r.stderr
        rows = {n: (_row(r.stdout, n) or "") for n in ("n0", "c7", "c8", "_host")}
        assert all(" gone " in rows[n] for n in ("n0", "c7", "c8")) and rows["_host"] == "", r.stdout
        r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "status", url, "--prune", str(tmp_path / "c")],
                           capture_output=True, text=True, timeout=60, env=env)
        assert r.returncode == 0 and "pruned the retained records of 2 name(s)" in r.stdout and "c7, c8" in r.stdout, \
            (r.stdout, r.stderr)
        r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "status", url, "--once", "1"], capture_output=True,
                           text=True, timeout=60, env=env)
        assert _row(r.stdout, "n0") and not _row(r.stdout, "c7") and not _row(r.stdout, "c8"), r.stdout
    finally:
        broker.stop()


# -------------------------------------------------------------------- tmux


def _tmux(sock: str, *args: str) -> str:
    r = subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, timeout=20)
    return r.stdout


def _row(screen: str, node: str) -> str | None:
    for line in screen.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃|]", line)]
        if node in cells:
            return line
    return None


def _wait_screen(sock: str, pred, timeout: float, what: str) -> str:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = _tmux(sock, "capture-pane", "-p", "-t", "view")
        if pred(screen):
            return screen
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; screen:\n{screen}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed (.ci/apt-packages.txt)")
def test_status_view_under_tmux(squeeze_dir: Path, squeeze_dep: Deployment, tmp_path: Path,
                                squeeze_requests: list, squeeze_reference: list) -> None:
    dep = squeeze_dep
    names = dep.node_names
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    url = files.url()
    procs = {n: spawn_node(squeeze_dir, n, url, extra=["--status-interval", str(INTERVAL), "--quiet"],
                           stdout=subprocess.DEVNULL) for n in names}
    host = host_endpoint(dep, url)
    sock = f"bbtest-{uuid.uuid4().hex[:8]}"
    stopped: list[int] = []
    try:
        host.wait_for_peers(names, TIMEOUT)
        got = [host.wait(_submit(host, 900 + i, r), TIMEOUT) for i, r in enumerate(squeeze_requests)]
        assert_same_outputs(got, squeeze_reference)
        # the ACL: the view's read-only user cannot write a status record. It reads them, so a write that
        # got through would come back to it (tried before the view connects: mosquitto pins the client id to
        # the user name, so the two would take turns)
        pw = json.loads(Path(files.credentials).read_text())  # type: ignore[arg-type]
        raw = RawClient(files.host, files.port, "_status", pw["_status"], client_id="_status")
        echoed: list[bytes] = []
        raw.c.on_message = lambda c, u, m: echoed.append(bytes(m.payload))
        raw.c.subscribe(f"bb/{dep.name}/status/{names[2]}", qos=1)
        time.sleep(1.0)  # the retained record arrives: reads are allowed
        assert echoed and b'"version": "0.1.0"' in echoed[-1].replace(b'":"', b'": "')
        raw.publish(f"bb/{dep.name}/status/{names[2]}", _record(names[2], version="forged"))
        time.sleep(1.0)
        raw.close()
        assert not any(b"forged" in e for e in echoed)
        cmd = f"{sys.executable} -m bb_edge.cli status '{url}' --interval {INTERVAL} --refresh 0.1"
        _tmux(sock, "new-session", "-d", "-s", "view", "-x", "200", "-y", "30", "-e", "TERM=xterm-256color",
              "-e", "COLUMNS=200", "-e", "LINES=30", "-e", f"PYTHONPATH={os.getcwd()}", cmd)
        model = StatusModel(interval=INTERVAL)
        # every node up, with a hop latency (ms) and its RTT to a neighbour
        screen = _wait_screen(sock, lambda s: all(
            (row := _row(s, n)) is not None and " up " in row and re.search(r"n\d:\d+\.\d", row)
            and re.search(r"│\s*\d+\.\d+\s*│", row) for n in names), TIMEOUT, "every node up with latencies")
        assert f"bb-edge fleet on {url.split('?')[0]}: {dep.name}" in screen  # one deployment: in the title
        header = next(line for line in screen.splitlines() if "bb-edge" in line and "node" in line)
        version_col = [c.strip() for c in re.split(r"[│┃|]", header)].index("bb-edge")
        assert _row(screen, "_host") is None  # infrastructure, not a node
        for n in names:
            row = _row(screen, n)
            assert row is not None
            cells = [c.strip() for c in re.split(r"[│┃|]", row)]
            assert cells[version_col] == "0.1.0", cells  # the forged record never arrived
        # SIGKILL: the broker publishes the last will as the socket closes
        victim = names[2]
        os.kill(procs[victim].pid, signal.SIGKILL)
        procs[victim].wait(10)
        t0 = time.monotonic()
        _wait_screen(sock, lambda s: (r := _row(s, victim)) is not None and " down " in r,
                     model.bound() + 2.0, f"{victim} down after SIGKILL")
        killed_after = time.monotonic() - t0
        assert "forged" not in _tmux(sock, "capture-pane", "-p", "-t", "view")
        # SIGSTOP: connection open, no will for 1.5 x keepalive (15 s): only the detector can see it
        frozen = names[1]
        os.kill(procs[frozen].pid, signal.SIGSTOP)
        stopped.append(procs[frozen].pid)
        t0 = time.monotonic()
        screen = _wait_screen(sock, lambda s: (r := _row(s, frozen)) is not None and " down " in r,
                              model.bound() + 2.0, f"{frozen} down after SIGSTOP")
        frozen_after = time.monotonic() - t0
        assert frozen_after < 1.5 * 10, frozen_after
        assert " up " in (_row(screen, names[0]) or "")
        print(f"status view: SIGKILL shown down after {killed_after:.2f}s, SIGSTOP after {frozen_after:.2f}s "
              f"(detector bound {model.bound():.2f}s)")
    finally:
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)
        _tmux(sock, "kill-server")
        for p in procs.values():
            stop_process(p)
        host.close()
        broker.stop()


def _submit(host, rid: int, inputs: dict) -> int:  # type: ignore[no-untyped-def]
    host.submit(rid, inputs)
    return rid
