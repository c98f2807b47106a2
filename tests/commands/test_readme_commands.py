"""The README's commands run verbatim, in order, from an empty scratch directory with relative paths.

The convention (documented in README.md as an HTML comment): a block (indented or fenced) right after
``<!-- run -->`` is run line by line; a fenced block right after ``<!-- file: NAME -->`` is written to NAME
first; a command ending in ``# hardware`` is left out by the extractor; unmarked blocks are not run.
The commands run with a base install (the checkout's wheel over a fresh venv of the base dependencies:
no extras, no scikit-learn) plus the system packages the README names.
Oracles: a fresh ONNX Runtime session in this process on the model the README's first command trains,
and the files each documented command says it writes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from tests.support.base_venv import base_install

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MARKER = re.compile(r"<!--\s*(run|file:\s*(?P<name>[\w./-]+))\s*-->")
HARDWARE = "# hardware"
TIMEOUT = float(os.environ.get("BB_README_TIMEOUT", "540"))  # the learning block adds ~80 s, the LLM one ~90 s


class ReadmeFormatError(ValueError):
    """A marker that is not followed by a block of the kind it needs."""


@dataclass
class Extracted:
    """What the README asks to run: commands in order, files to write first, commands left out."""

    commands: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def _block(lines: list[str], start: int) -> tuple[list[str], bool]:
    """The block starting at or after ``start`` (blank lines skipped): its lines and whether it is fenced."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and lines[i].startswith("```"):
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end == len(lines):
            raise ReadmeFormatError(f"line {i + 1}: fenced block never closed")
        return lines[i + 1:end], True
    body: list[str] = []
    while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
        body.append(lines[i][4:])
        i += 1
    while body and not body[-1].strip():
        body.pop()
    if not body:
        raise ReadmeFormatError(f"line {start}: a marker must be followed by an indented or fenced block")
    return body, False


def extract(text: str) -> Extracted:
    """Commands and files of every marked block, in README order."""
    lines = text.splitlines()
    out = Extracted()
    for n, line in enumerate(lines):
        m = MARKER.fullmatch(line.strip())
        if not m:
            continue
        body, fenced = _block(lines, n + 1)
        if m.group("name"):
            if not fenced:
                raise ReadmeFormatError(f"line {n + 1}: a file block must be fenced")
            out.files[m.group("name")] = "\n".join(body) + "\n"
            continue
        pending = ""
        for raw in body:
            cmd = pending + raw.strip()
            if cmd.endswith("\\"):  # a continued command line
                pending = cmd[:-1].rstrip() + " "
                continue
            pending = ""
            if not cmd:
                continue
            (out.skipped if cmd.endswith(HARDWARE) else out.commands).append(cmd)
    return out


def script(commands: list[str]) -> str:
    """One bash script: stop at the first failing command, announce each one."""
    lines = ["set -euo pipefail"]
    for c in commands:
        lines += [f"echo \"+++ [$SECONDS s]\" {shlex.quote(c)}", c]
    lines.append('echo "+++ [$SECONDS s] done"')
    return "\n".join(lines) + "\n"


def isolated(cmd: list[str]) -> list[str]:
    """``cmd`` in a network namespace of its own when this machine allows one (``unshare -n``, loopback up).

    The README's fixed port (18830) then cannot meet a broker of another run on the same machine (parallel
    CI jobs, other checkouts), which made the fleet commands reach a foreign broker ("Not authorized").
    """
    if shutil.which("unshare") and shutil.which("ip"):
        probe = subprocess.run(["unshare", "-n", "ip", "link", "set", "lo", "up"], capture_output=True)
        if probe.returncode == 0:  # same pid and process group: unshare execs bash
            return ["unshare", "-n", "bash", "-c", 'ip link set lo up && exec "$0" "$@"', *cmd]
    return cmd


def _stop_group(pgid: int, grace: float = 10.0) -> None:
    """Stop what the script left running (background `&` commands live in its process group).

    SIGTERM first: `bb-edge broker` then stops its mosquitto, which runs in a session of its own and
    would outlive a SIGKILL of the group.
    """
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def test_extractor_follows_the_convention() -> None:
    text = ("intro\n\n<!-- run -->\n\n    a one  # note\n    b --port X  # hardware\n\n    c\n\nprose\n\n"
            "    not run\n\n<!-- file: m.py -->\n```python\nx = 1\n```\n<!-- run -->\n```\nd \\\n  e\n```\n")
    got = extract(text)
    assert got.commands == ["a one  # note", "c", "d e"]
    assert got.skipped == ["b --port X  # hardware"]
    assert got.files == {"m.py": "x = 1\n"}
    with pytest.raises(ReadmeFormatError):
        extract("<!-- run -->\n\nprose, no block\n")
    with pytest.raises(ReadmeFormatError):
        extract("<!-- file: a.py -->\n    indented\n")


def test_readme_names_the_ci_command() -> None:
    text = README.read_text()
    # the convention is documented in the README itself, in comments that open and close in pairs
    assert "tests/commands/test_readme_commands.py runs every block" in text
    assert text.count("<!--") == text.count("-->")
    assert "\n    bash .ci/test.sh\n" in text
    run = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()
           if ln.strip() and not ln.lstrip().startswith("#")]
    assert run[-1] == "bash .ci/test.sh", run
    ex = extract(text)
    # what the README says needs hardware is exactly the flash without --dry-run
    assert ex.skipped and all("flash" in c and "--dry-run" not in c for c in ex.skipped), ex.skipped
    assert ex.commands[0].startswith("bb-edge demo"), "the first command must create what later ones use"
    assert not [c for c in ex.commands if "/work/" in c or re.search(r"(^|\s)/(tmp|home|root)/", c)]


def test_readme_commands_run_verbatim(tmp_path: Path) -> None:
    ex = extract(README.read_text())
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the learning block runs an example, as from a checkout
    for name, body in ex.files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body)
    # `bb-edge` is this checkout's wheel over a fresh venv of the base dependencies only (no extras, no test
    # tools: what the README's `pip install .` gives; tests/support/base_venv.py); /usr/sbin holds Debian's
    # mosquitto, a system package the README names
    base = base_install(tmp_path.parent / f"{tmp_path.name}-install")
    env = base.env()
    env.update(PATH=os.pathsep.join([env["PATH"], "/usr/sbin"]), COLUMNS="200", OMP_NUM_THREADS="1")
    probe = subprocess.run(["bash", "-c", "command -v bb-edge; python -c 'import bb_edge, sys; print(bb_edge.__file__)'"
                            "; python -c 'import sklearn' 2>&1 | tail -1"], env=env, capture_output=True, text=True,
                           cwd=tmp_path)
    assert probe.stdout.splitlines()[:2] == [str(base.site / "bin" / "bb-edge"),
                                             str(base.site / "bb_edge" / "__init__.py")], probe.stdout
    assert "No module named 'sklearn'" in probe.stdout  # a base install: the test extra is not there
    # a log file, not a pipe: background commands keep their stdout open after the script ends
    log_path = tmp_path.parent / f"{tmp_path.name}.log"
    with open(log_path, "w") as log_file:
        proc = subprocess.Popen(isolated(["bash", "-c", script(ex.commands)]), cwd=tmp_path, env=env, stdout=log_file,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            _stop_group(proc.pid)
            proc.wait()
            pytest.fail(f"README commands took over {TIMEOUT:.0f} s:\n{log_path.read_text()[-4000:]}")
        finally:
            _stop_group(proc.pid)
    log = log_path.read_text()
    ran = re.findall(r"^\+\+\+ \[\d+ s\] (.*)$", log, re.M)
    assert ran[-1:] == ["done"], f"failed at: {ran[-1] if ran else '?'}\n{log[-4000:]}"
    ran.pop()
    assert proc.returncode == 0, log[-4000:]
    assert ran == ex.commands

    # what the commands said they would leave behind
    for f in ["demo/digits.onnx", "build/deployment.json", "build-cut/deployment.json", "build-place/deployment.json",
              "build-net/deployment.json", "partition.png", "dist/n0/manifest.json", "dist/n1/manifest.json",
              "dist/n2/program.bbrt", "dist-mpy/n2/main.py", "dist-esp/n2/esp-idf/partitions.csv", "memory.png",
              "llm3/deployment.json", "llm3/tokenizer.json", "llm3/broker/credentials.json"]:
        assert (tmp_path / f).exists(), f
    # outputs against an independent ORT session on the trained model
    xs = np.load(tmp_path / "demo" / "inputs.npz")["pixels"]
    sess = ort.InferenceSession(str(tmp_path / "demo" / "digits.onnx"), providers=["CPUExecutionProvider"])
    want = np.concatenate([sess.run(None, {"pixels": row})[0] for row in xs])
    for out in ("out.npz", "out-mqtt.npz", "out-client.npz"):  # out-client.npz: bb-edge request to running nodes
        got = np.load(tmp_path / out)["probabilities"].reshape(-1, 10)
        np.testing.assert_allclose(got, want, atol=1e-5, err_msg=out)
    assert "top-1 agreement with float" in log  # the hil run reported on its QEMU devices
    # the language model block: both generations (in process, then over the broker) answer the prompt; that
    # they equal the unsplit ORT session token for token is tests/llm/test_llm_fleet.py's job
    assert log.count("Paris") >= 2, log[-3000:]
    assert log.count("bytes per token per hop: n0->n1") >= 2, log[-3000:]
    check_learning_fleets(tmp_path)
    check_stateful(tmp_path)


def check_stateful(here: Path) -> None:
    """The stateful block: run --session equals one ORT session of gru.onnx looping with the state fed back."""
    sess = ort.InferenceSession(str(here / "gru.onnx"), providers=["CPUExecutionProvider"])
    h1 = h2 = np.zeros((1, 1, 8), np.float32)
    want = []
    for x in np.load(here / "steps.npz")["x"]:
        y, h1, h2 = sess.run(["scores", "g1_h", "g2_h"], {"x": x, "h1": h1, "h2": h2})
        want.append(y)
    np.testing.assert_allclose(np.load(here / "gru-out.npz")["scores"], np.stack(want), rtol=1e-5, atol=1e-6)


def check_learning_fleets(here: Path) -> None:
    """The learning block: a fleet over the broker `bb-edge broker learn_dir/` provisioned, then the same
    with c3 on QEMU Cortex-M3 (`--target`). Oracles: the in-process simulator's accuracy, the ACL file, and
    FedAvg recomputed outside every runtime (ORT per client over its own batch order, weighted mean)."""
    from bb_edge.adapters.learn.simulator import simulate
    from bb_edge.deployment.manifest import load_deployment
    from tests.support.fedavg_oracle import fedavg_recomputed

    d = here / "learn_dir"
    learning = load_deployment(d).extra["learning"]
    # least privilege: a client may write only to the server's inbox (plus its own presence and status)
    acl = (d / "broker" / "acl").read_text().split("\n\n")
    c0 = next(b for b in acl if b.startswith("user c0\n"))
    assert [ln for ln in c0.splitlines() if "/in/" in ln and "write" in ln] == ["topic write bb/learning/in/server/c0"]
    assert "bcast/c0" not in c0
    sim = simulate(learning, d)
    runs = {name: json.loads((here / name).read_text()) for name in ("s.json", "s-m3.json")}
    for name, s in runs.items():
        assert s["rounds"] == learning["rounds"] and not s["rejections"], (name, s)
        assert s["events"].get("RoundCompleted") == learning["rounds"], (name, s["events"])
        # the byte breakdown and per-round timing of the process fleet
        assert s["server_bytes_sent"] > 0 and s["server_bytes_received"] > 0, name
        assert {"MODEL", "UPDATE"} <= set(s["bytes_by_type"]), (name, s["bytes_by_type"])
        assert len(s["round_seconds"]) == learning["rounds"] and sum(s["round_seconds"]) > 0, name
        assert s["seconds_per_round"] * learning["rounds"] < s["wall_time_s"], name  # not wall / rounds
    # Linux clients only: the simulator's run (at most one held-out sample apart: arrival order of the sums)
    assert abs(runs["s.json"]["final_accuracy"] - sim.final_accuracy) <= 1 / 400, (runs["s.json"], sim.final_accuracy)
    # with c3 on the M3: the server's final model is FedAvg over each client's own batch order
    want = fedavg_recomputed(d, {"c3": "mcu"})
    final = [json.loads(ln) for ln in (here / "m3-run" / "server.progress.jsonl").read_text().splitlines()
             if '"final"' in ln][-1]
    np.testing.assert_allclose(np.asarray(final["model"], np.float32), want, atol=1e-4, rtol=0)
    assert f"ModelTaken round={learning['rounds']}" in (here / "m3-run" / "c3.log").read_text()
