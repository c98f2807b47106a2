"""Bad input to every CLI command: one typed line on stderr, a non-zero exit, a traceback only with --debug.

Each case runs the real console entry point (``python -m bb_edge.cli``) as a
subprocess against one tiny compiled deployment shared by the module. The
table says which error type the line must name and which exit code to expect
(2: the command line itself, checked by argparse ``type=`` validators; 1: a
problem found while working). Also here: a relative ``-o`` on a bbrt target,
which once failed because make runs inside firmware/.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.support.tiny import tiny_model

TIMEOUT = 120


def bb(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the CLI as a user would, with the environment's debug switch cleared."""
    env = {k: v for k, v in os.environ.items() if k != "BB_EDGE_DEBUG"}
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=cwd, env=env)


def _unwritable_dir(base: Path) -> Path | None:
    """A directory this process cannot create files in: chmod 0500 for a normal user, /sys for root."""
    d = base / "readonly"
    d.mkdir()
    d.chmod(stat.S_IRUSR | stat.S_IXUSR)
    for cand in (d, Path("/sys"), Path("/proc")):
        try:
            fd, probe = tempfile.mkstemp(dir=cand)
        except OSError:
            return cand
        os.close(fd)
        os.unlink(probe)
    return None


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One compiled 2-node deployment and every kind of bad file, as format values for the table."""
    from bb_edge.compiler.compile import compile_model

    root = tmp_path_factory.mktemp("badinput")
    model = root / "tiny.onnx"
    onnx.save(tiny_model(), str(model))
    compile_model(model, cuts=["h"], out_dir=root / "dep")
    np.savez(root / "good.npz", x=np.ones((1, 8), np.float32))
    np.savez(root / "object.npz", x=np.array([{"a": 1}], dtype=object))
    np.savez(root / "strings.npz", x=np.array([["a"] * 8]))
    np.savez(root / "shape9.npz", x=np.ones((1, 9), np.float32))  # reshape (1,8) once failed untyped
    np.savez(root / "noinput.npz", z=np.ones((1, 8), np.float32))
    np.savez(root / "nan.npz", x=np.full((1, 8), np.nan, np.float32))
    np.save(root / "plain.npy", np.ones((1, 8), np.float32))
    (root / "text.npz").write_text("not a zip archive\n")
    (root / "afile").write_text("a regular file\n")
    (root / "adir").mkdir()
    (root / "nobuilder.json").write_text('{"name": "mine", "ram_bytes": 1048576}')
    (root / "notjson.json").write_text("{builder: ")
    (root / "place.json").write_text("[1, 2]")
    (root / "nested.json").write_text('{"a": ' * 100_000 + "1" + "}" * 100_000)  # RecursionError in json
    (root / "boom.py").write_text("raise RuntimeError('a bug in the user module')\n")
    ro = _unwritable_dir(root)
    return {"t": str(root), "model": str(model), "dep": str(root / "dep"), "file": str(root / "afile"),
            "dir": str(root / "adir"), "ro": str(ro) if ro else ""}


# (case id, argv with {placeholders} from the ws fixture, error type named on the line, exit code)
CASES: list[tuple[str, str, str, int]] = [
    # output locations: a file, under a file, not writable; checked before any work
    ("compile-o-is-file", "compile {model} --cut h -o {file}", "OutputPathError", 1),
    ("compile-o-under-file", "compile {model} --cut h -o {file}/sub", "OutputPathError", 1),
    ("compile-o-unwritable", "compile {model} --cut h -o {ro}/out", "OutputPathError", 1),
    ("build-o-is-file", "build {dep} --target n1=host -o {file}", "OutputPathError", 1),
    ("build-o-under-file", "build {dep} --target n1=host -o {file}/dist", "OutputPathError", 1),
    ("build-o-unwritable", "build {dep} --target n1=host -o {ro}/dist", "OutputPathError", 1),
    ("broker-o-is-file", "broker {dep} -o {file} --write-only", "OutputPathError", 1),
    ("broker-o-under-file", "broker {dep} -o {file}/b --write-only", "OutputPathError", 1),
    ("broker-o-unwritable", "broker {dep} -o {ro}/b --write-only", "OutputPathError", 1),
    ("run-outputs-is-dir", "run {dep} --outputs {dir}", "OutputPathError", 1),
    ("run-outputs-under-file", "run {dep} --outputs {file}/o.npz", "OutputPathError", 1),
    ("run-outputs-unwritable", "run {dep} --outputs {ro}/o.npz", "OutputPathError", 1),
    ("run-outputs-missing-parent", "run {dep} --outputs {t}/nodir/o.npz", "OutputPathError", 1),
    ("run-transport-one-slash", "run {dep} --transport mqtt:/localhost", "UsageError", 2),
    ("run-transport-unknown-option", "run {dep} --transport mqtt://localhost:1883?cred=x", "UsageError", 2),
    ("inspect-png-is-dir", "inspect {dep} --png {dir}", "OutputPathError", 1),
    ("inspect-png-under-file", "inspect {dep} --png {file}/p.png", "OutputPathError", 1),
    ("inspect-png-unwritable", "inspect {dep} --png {ro}/p.png", "OutputPathError", 1),
    # --inputs
    ("inputs-missing", "run {dep} --inputs {t}/missing.npz", "InputFileError", 1),
    ("inputs-directory", "run {dep} --inputs {dir}", "InputFileError", 1),
    ("inputs-not-zip", "run {dep} --inputs {t}/text.npz", "InputFileError", 1),
    ("inputs-npy-not-npz", "run {dep} --inputs {t}/plain.npy", "InputFileError", 1),
    ("inputs-object-array", "run {dep} --inputs {t}/object.npz", "InputFileError", 1),
    ("inputs-string-dtype", "run {dep} --inputs {t}/strings.npz", "InputFileError", 1),
    ("inputs-wrong-shape", "run {dep} --inputs {t}/shape9.npz", "InputFileError", 1),
    ("inputs-no-such-input", "run {dep} --inputs {t}/noinput.npz", "InputFileError", 1),
    # --calib
    ("calib-missing", "build {dep} --target n1=host --calib {t}/missing.npz -o {t}/d", "CalibrationFileError", 1),
    ("calib-directory", "build {dep} --target n1=host --calib {dir} -o {t}/d", "CalibrationFileError", 1),
    ("calib-not-zip", "build {dep} --target n1=host --calib {t}/text.npz -o {t}/d", "CalibrationFileError", 1),
    ("calib-object-array", "build {dep} --target n1=host --calib {t}/object.npz -o {t}/d", "CalibrationFileError", 1),
    ("calib-string-dtype", "build {dep} --target n1=host --calib {t}/strings.npz -o {t}/d", "CalibrationFileError", 1),
    ("calib-wrong-shape", "build {dep} --target n1=host --calib {t}/shape9.npz -o {t}/d", "CalibrationFileError", 1),
    ("calib-not-finite", "build {dep} --target n1=host --calib {t}/nan.npz -o {t}/d", "CalibrationFileError", 1),
    ("hil-calib-wrong-shape", "hil {dep} --device n1=host --calib {t}/shape9.npz", "CalibrationFileError", 1),
    # targets
    ("target-json-no-builder", "build {dep} --target n1={t}/nobuilder.json -o {t}/d", "TargetProfileError", 1),
    ("target-json-not-json", "build {dep} --target n1={t}/notjson.json -o {t}/d", "TargetProfileError", 1),
    ("target-unknown", "build {dep} --target n1=no-such-board -o {t}/d", "UnknownTargetError", 1),
    ("target-unknown-node", "build {dep} --target n9=host -o {t}/d", "BuildError", 1),
    # issue 37, finding 10: a deeply nested profile, a repeated node, an empty node or profile
    ("target-json-nested-build", "build {dep} --target n1={t}/nested.json -o {t}/d", "TargetProfileError", 1),
    ("target-json-nested-compile", "compile {model} --nodes 2 --target {t}/nested.json -o {t}/c",
     "TargetProfileError", 1),
    ("target-node-repeated-compile", "compile {model} --nodes 2 --target n0=host --target n0=jetson -o {t}/c",
     "UsageError", 2),
    ("target-node-repeated-build", "build {dep} --target n1=host --target n1=jetson -o {t}/d", "UsageError", 2),
    ("target-empty-node", "build {dep} --target =host -o {t}/d", "UsageError", 2),
    ("target-empty-profile", "build {dep} --target n1= -o {t}/d", "UsageError", 2),
    ("target-two-equals", "build {dep} --target n1=host=x -o {t}/d", "UsageError", 2),
    ("target-bad-node-name", "build {dep} --target n/1=host -o {t}/d", "UsageError", 2),
    # issue 37, finding 5: canary limits and --abort are checked by argparse (nan passes every comparison)
    ("deploy-max-drift-nan", "deploy {dep} --current {dep} --fleet mqtt://127.0.0.1:1 --max-drift nan",
     "UsageError", 2),
    ("deploy-canary-window-nan", "deploy {dep} --current {dep} --fleet mqtt://127.0.0.1:1 --canary-window nan",
     "UsageError", 2),
    ("deploy-canary-window-inf", "deploy {dep} --current {dep} --fleet mqtt://127.0.0.1:1 --canary-window inf",
     "UsageError", 2),
    ("deploy-error-rate-negative", "deploy {dep} --current {dep} --fleet mqtt://127.0.0.1:1 --max-error-rate -1",
     "UsageError", 2),
    ("deploy-latency-ratio-inf", "deploy {dep} --current {dep} --fleet mqtt://127.0.0.1:1 --max-latency-ratio inf",
     "UsageError", 2),
    ("deploy-min-requests-negative", "deploy {dep} --current {dep} --fleet mqtt://127.0.0.1:1 --min-requests -1",
     "UsageError", 2),
    ("deploy-abort-not-an-id", "deploy --current {dep} --fleet mqtt://127.0.0.1:1 --abort x", "UsageError", 2),
    # option values: argparse type= validators, exit 2
    ("memory-limit-not-a-size", "compile {model} --nodes 2 --memory-limit abc -o {t}/c", "UsageError", 2),
    ("nodes-zero", "compile {model} --nodes 0 -o {t}/c", "UsageError", 2),
    ("names-repeated", "compile {model} --nodes 2 --names a,a -o {t}/c", "UsageError", 2),
    ("count-negative", "run {dep} --count -5", "UsageError", 2),
    ("mqtt-port-not-a-number", "run {dep} --transport mqtt://host:abc", "UsageError", 2),
    ("serial-corrupt-not-a-number", "run {dep} --transport serial://pty?corrupt=abc", "UsageError", 2),
    ("transport-unknown-scheme", "run {dep} --transport foo://bar", "UsageError", 2),
    ("node-transport-http", "node {dep} --node n1 --transport http://x", "UsageError", 2),
    ("mqtt-creds-missing", "run {dep} --transport mqtt://127.0.0.1:1883?creds={t}/missing.json", "UsageError", 2),
    ("node-mqtt-port-range", "node {dep} --node n1 --transport mqtt://h:70000", "UsageError", 2),
    ("broker-port-zero", "broker {dep} --port 0 --write-only", "UsageError", 2),
    ("build-accuracy-drop-negative", "build {dep} --target host --max-accuracy-drop -1 -o {t}/d", "UsageError", 2),
    ("build-precision-unknown", "build {dep} --target host --precision int3 -o {t}/d", "UsageError", 2),
    ("hil-requests-zero", "hil {dep} --device n1=host -n 0", "UsageError", 2),
    ("hil-device-not-serial", "hil {dep} --device n1=/dev/null -n 1", "SerialException", 1),
    ("hil-device-not-a-port", "hil {dep} --device n1=no-such-port", "UsageError", 2),
    ("memory-limits-per-node-count", "compile {model} --nodes 2 --memory-limit 1,2,3 -o {t}/c", "UsageError", 2),
    ("unknown-command", "frobnicate", "UsageError", 2),
    ("unknown-option", "run {dep} --no-such-option", "UsageError", 2),
    # files and directories that must exist
    ("compile-model-missing", "compile {t}/missing.onnx --nodes 2 -o {t}/c", "InputFileError", 1),
    ("compile-model-is-dir", "compile {dir} --nodes 2 -o {t}/c", "InputFileError", 1),
    ("compile-module-raises", "compile {t}/boom.py:Net --nodes 2 -o {t}/c", "RecordingError", 1),
    ("compile-not-onnx", "compile {t}/text.npz --nodes 2 -o {t}/c", "ModelError", 1),
    ("compile-place-not-a-map", "compile {model} --place {t}/place.json -o {t}/c", "InputFileError", 1),
    ("run-no-deployment", "run {t}/missing", "DeploymentError", 1),
    ("inspect-missing", "inspect {t}/missing", "InputFileError", 1),
    ("node-unknown-node", "node {dep} --node n9 --transport mqtt://127.0.0.1:1883", "DeploymentError", 1),
    ("flash-missing-build", "flash {t}/missing --port /dev/null --dry-run", "InputFileError", 1),
]

#: one case per error type is also run with --debug (each run costs about a second)
DEBUG_CASES = ["compile-o-under-file", "inputs-wrong-shape", "target-json-no-builder", "target-unknown",
               "count-negative", "run-no-deployment"]


def _argv(template: str, ws: dict[str, str]) -> list[str]:
    if "{ro}" in template and not ws["ro"]:
        pytest.skip("every directory is writable for this user; no unwritable location to test")
    return [part.format(**ws) for part in template.split()]


def _assert_one_line(r: subprocess.CompletedProcess[str], etype: str, code: int) -> str:
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    assert len(lines) == 1 and lines[0] == r.stderr.strip(), r.stderr
    assert lines[0].startswith(f"error: {etype}: "), lines[0]
    assert "; " in lines[0], f"no fix after the problem: {lines[0]}"
    return lines[0]


@pytest.mark.parametrize("case,template,etype,code", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_typed_line(ws: dict[str, str], case: str, template: str, etype: str, code: int) -> None:
    r = bb(*_argv(template, ws))
    _assert_one_line(r, etype, code)


@pytest.mark.parametrize("case", DEBUG_CASES)
def test_debug_shows_the_traceback(ws: dict[str, str], case: str) -> None:
    _, template, etype, code = next(c for c in CASES if c[0] == case)
    argv = _argv(template, ws)
    r = bb(*argv, "--debug")  # accepted anywhere on the command line
    assert r.returncode == code
    assert "Traceback (most recent call last)" in r.stderr, r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith(f"error: {etype}: ")


def test_messages_name_what_to_fix(ws: dict[str, str]) -> None:
    """The reshape case names the input and the shape it expects; output errors name the blocking file."""
    template = next(c[1] for c in CASES if c[0] == "calib-wrong-shape")
    line = _assert_one_line(bb(*_argv(template, ws)), "CalibrationFileError", 1)
    assert "'x'" in line and "[1, 9]" in line and "[1, 8]" in line and "cannot reshape" not in line
    line = _assert_one_line(bb("run", ws["dep"], "--outputs", ws["file"] + "/o.npz"), "OutputPathError", 1)
    assert f"{ws['file']} is a file" in line


def test_bad_output_fails_before_work(ws: dict[str, str]) -> None:
    """A bad -o is reported before compiling: the model does not even have to exist."""
    r = bb("compile", ws["t"] + "/missing.onnx", "--nodes", "2", "-o", ws["file"])
    _assert_one_line(r, "OutputPathError", 1)


def test_relative_output_on_a_bbrt_target(ws: dict[str, str], tmp_path: Path) -> None:
    """``build DIR -o dist/`` relative to the working directory on the host C runtime (make runs in firmware/)."""
    if shutil.which("make") is None or shutil.which("cc") is None:
        pytest.skip("make and a C compiler are needed for a bbrt build")
    shutil.copytree(ws["dep"], tmp_path / "build")
    np.savez(tmp_path / "calib.npz", x=np.random.default_rng(1).standard_normal((4, 1, 8)).astype(np.float32))
    r = bb("build", "build/", "--target", "n1=host", "--calib", "calib.npz", "-o", "dist/", "--no-report",
           cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    node = tmp_path / "dist" / "n1"
    assert (node / "bbrt-host").read_bytes()[:4] == b"\x7fELF"
    assert (node / "program.bbrt").stat().st_size > 0
    assert not list((tmp_path / "dist").glob(".n1.partial-*")), "the temporary build dir was left behind"
    # the relative location inspects like an absolute one
    r = bb("inspect", "dist/n1", "--png", "mem/map.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "mem" / "map.png").read_bytes()[:4] == b"\x89PNG"


def _profiles_on_disk() -> dict[str, dict[str, object]]:
    """The oracle for families: the profile files themselves, read with json (not bb_edge.targets)."""
    import json

    from bb_edge.resources import package_data

    return {p.stem: json.loads(p.read_text()) for p in sorted(package_data("target_profiles").glob("*.json"))}


def test_every_family_has_one_default_and_resolves_to_it() -> None:
    from bb_edge.targets import load_target, resolve_target

    profiles = _profiles_on_disk()
    fams: dict[str, list[str]] = {}
    for name, raw in profiles.items():
        if raw.get("family"):
            fams.setdefault(str(raw["family"]), []).append(name)
    assert {"jetson", "esp32", "ros2", "android", "linux-vm"} <= set(fams)  # the documented families
    for fam, members in fams.items():
        defaults = [m for m in members if profiles[m].get("family_default") is True]
        assert len(defaults) == 1, (fam, defaults)
        assert resolve_target(fam)[0] == defaults[0]
        assert load_target(fam).name == defaults[0]
    for name in profiles:  # a profile name is never shadowed by a family
        assert load_target(name).name == name


def test_family_default_must_be_unique(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from bb_edge.targets import TargetProfileError, load_target

    for n in ("a1", "a2"):
        (tmp_path / f"{n}.json").write_text(json.dumps({"name": n, "builder": "linux", "family": "fam",
                                                        "family_default": True}))
    monkeypatch.setenv("BB_EDGE_TARGETS", str(tmp_path))
    with pytest.raises(TargetProfileError, match="2 default profiles"):
        load_target("fam")


def test_build_with_a_family_prints_the_chosen_profile(ws: dict[str, str], tmp_path: Path) -> None:
    """``--target NODE=FAMILY`` builds the family's default and says so (linux-vm: no compiler needed)."""
    default = next(n for n, raw in _profiles_on_disk().items()
                   if raw.get("family") == "linux-vm" and raw.get("family_default") is True)
    r = bb("build", ws["dep"], "--target", "n0=linux-vm", "-o", str(tmp_path / "dist"), "--no-report")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"target family linux-vm -> {default}" in r.stdout
    assert f"built n0 -> {tmp_path / 'dist' / 'n0'} ({default})" in " ".join(r.stdout.split())
    assert (tmp_path / "dist" / "n0" / "manifest.json").is_file()


@pytest.mark.parametrize("columns", [80, 60])
def test_targets_table_never_shortens_a_name(columns: int) -> None:
    env = {**os.environ, "COLUMNS": str(columns)}
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "targets"], capture_output=True, text=True,
                       timeout=TIMEOUT, env=env)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert all(len(ln) <= columns for ln in lines)
    cells = [ln.split() for ln in lines]
    profiles = _profiles_on_disk()
    for name, raw in profiles.items():  # every name whole at the start of its row, with its family next to it
        row = next((c for c in cells if c and c[0] == name), None)
        assert row is not None, f"{name} not shown whole in\n{r.stdout}"
        assert row[1].rstrip("*") == raw.get("family", "-")
        assert row[1].endswith("*") == (raw.get("family_default") is True)


@pytest.fixture(scope="module")
def lossy(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A model int8 quantization ruins: one weight row of 1000 on an input that is always 0 in the data.

    Per-tensor int8 weights then get a step of about 8, every other weight rounds to 0, and the output
    loses everything the input carried. A target profile like linux-vm-arm64 (default int8-dynamic).
    """
    import json

    from bb_edge.compiler.compile import compile_model
    from bb_edge.resources import package_data

    root = tmp_path_factory.mktemp("lossy")
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((8, 16)).astype(np.float32)
    w1[0, :] = 1000.0
    w2 = rng.standard_normal((16, 1)).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["x", "W1"], ["h"], name="fc1"),
             helper.make_node("Relu", ["h"], ["r"], name="relu"),
             helper.make_node("MatMul", ["r", "W2"], ["y"], name="fc2")]
    graph = helper.make_graph(nodes, "lossy", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1])],
                              [numpy_helper.from_array(w1, "W1"), numpy_helper.from_array(w2, "W2")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(root / "lossy.onnx"))
    compile_model(root / "lossy.onnx", nodes=1, out_dir=root / "dep")
    x = rng.standard_normal((16, 1, 8)).astype(np.float32)
    x[:, :, 0] = 0.0
    np.savez(root / "calib.npz", x=x)
    prof = json.loads((package_data("target_profiles") / "linux-vm-arm64.json").read_text())
    prof.update(name="lossy-vm", family_default=False)
    (root / "lossy-vm.json").write_text(json.dumps(prof))
    return {"root": root, "dep": root / "dep", "calib": root / "calib.npz", "target": root / "lossy-vm.json"}


def _rel_error(model: Path, calib: Path, quantized: Path) -> float:
    """The oracle: relative max error of ``quantized`` against the float model, computed here with ORT."""
    import onnxruntime as ort

    xs = np.load(calib)["x"]
    run = {p: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]) for p in (model, quantized)}
    ref = np.stack([run[model].run(None, {run[model].get_inputs()[0].name: x})[0] for x in xs])
    got = np.stack([run[quantized].run(None, {run[quantized].get_inputs()[0].name: x})[0] for x in xs])
    return float(np.abs(ref - got).max() / np.abs(ref).max())


def test_inaccurate_default_precision_is_refused_then_flagged_when_asked(lossy: dict[str, Path],
                                                                         tmp_path: Path) -> None:
    from bb_edge.bundle.artifacts import TOLERANCE

    base = ["build", str(lossy["dep"]), "--target", str(lossy["target"]), "--calib", str(lossy["calib"])]
    r = bb(*base, "-o", str(tmp_path / "refused"), "--no-report")
    line = _assert_one_line(r, "AccuracyError", 1)
    assert "node 'n0'" in line and "int8-dynamic" in line and f"tolerance {TOLERANCE['int8-dynamic']:g}" in line
    assert "--accept-inaccurate" in line and not (tmp_path / "refused" / "n0").exists()

    r = bb(*base, "--precision", "int8-dynamic", "-o", str(tmp_path / "asked"))  # named explicitly: built
    assert r.returncode == 0, r.stderr
    node = tmp_path / "asked" / "n0"
    err = _rel_error(lossy["root"] / "lossy.onnx", lossy["calib"], node / "model.int8-dynamic.onnx")
    assert err > TOLERANCE["int8-dynamic"], err  # the flag below is about a real loss
    assert "warning: node n0 (lossy-vm) artifact onnx.int8-dynamic" in " ".join(r.stdout.split())
    md = (tmp_path / "asked" / "build-report.md").read_text()
    row = next(ln for ln in md.splitlines() if ln.startswith("| n0 |"))
    assert "**NO** (> 0.15)" in row and "## Over tolerance" in md

    r = bb(*base, "--accept-inaccurate", "-o", str(tmp_path / "accepted"), "--no-report")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "accepted" / "n0" / "model.int8-dynamic.onnx").is_file()


def test_accurate_default_precision_is_built_and_not_flagged(lossy: dict[str, Path], tmp_path: Path) -> None:
    """The control: with data that uses input 0, int8-dynamic is within tolerance and builds as the default."""
    x = np.random.default_rng(5).standard_normal((16, 1, 8)).astype(np.float32)
    np.savez(tmp_path / "calib.npz", x=x)  # input 0 varies: the 1000-row dominates float and int8 alike
    r = bb("build", str(lossy["dep"]), "--target", str(lossy["target"]), "--calib", str(tmp_path / "calib.npz"),
           "-o", str(tmp_path / "d"))
    assert r.returncode == 0, r.stderr
    err = _rel_error(lossy["root"] / "lossy.onnx", tmp_path / "calib.npz",
                     tmp_path / "d" / "n0" / "model.int8-dynamic.onnx")
    assert err <= 0.15, err
    row = next(ln for ln in (tmp_path / "d" / "build-report.md").read_text().splitlines() if ln.startswith("| n0 |"))
    assert "| yes |" in row and "warning:" not in r.stdout
