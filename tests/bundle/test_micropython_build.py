"""`bb-edge build --target esp32-micropython` bundles and the mpremote deployment commands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bb_edge.bbrt.format import parse
from bb_edge.bbrt.host import HostProgram
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.errors import BuildError
from bb_edge.mpy.cross import mpy_header
from bb_edge.mpy.flash import flash, flash_commands
from tests.support.examples import small_cnn
from tests.support.mpy_vm import build_lib, ensure_vm, run_vm


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("dep")
    dist = tmp_path_factory.mktemp("dist")
    compile_model(small_cnn(), cuts=["r3"], node_names=["n0", "n1"], out_dir=d)
    build_all(d, ["n1=esp32-micropython"], dist)
    return dist / "n1"


def test_bundle_layout_and_mpy_identical_to_vm_tested(bundle: Path, tmp_path: Path) -> None:
    facts = json.loads((bundle / "build.json").read_text())
    assert facts["builder"] == "micropython" and facts["mpy_march"] == "xtensawin"
    for f in ("main.py", "config.json", "program.bbrt", "lib/bbnode/executor.mpy", "lib/bbnode/node.mpy",
              "lib/bbnode/envelope.mpy", "lib/bbnode/framing.mpy", "lib/bbnode/mqtt.mpy"):
        assert (bundle / f).is_file(), f
    # the runtime is pure bytecode: mpy-cross -march=xtensawin tags nothing (arch 0), so the bundle's .mpy
    # files are byte-identical to the ones the WebAssembly VM tests load
    ref = build_lib(tmp_path / "lib")
    for p in (bundle / "lib" / "bbnode").glob("*.mpy"):
        assert mpy_header(p) == (6, 0, 0), p
        assert p.read_bytes() == (ref / "bbnode" / p.name).read_bytes(), p
    cfg = json.loads((bundle / "config.json").read_text())
    assert cfg["name"] == "n1" and cfg["transport"] == "serial" and cfg["node_id"] == parse(
        (bundle / "program.bbrt").read_bytes()).node_id


def test_flash_dry_run_commands(bundle: Path) -> None:
    cmds = flash_commands(bundle, "/dev/ttyUSB0")
    assert all(c[1:5] == ["-m", "mpremote", "connect", "/dev/ttyUSB0"] for c in cmds)
    assert [c[5:] for c in cmds[:2]] == [["mkdir", ":lib"], ["mkdir", ":lib/bbnode"]]
    cp = cmds[-2]
    targets = [cp[i + 2] for i, a in enumerate(cp) if a == "cp"]
    assert targets[-1] == ":main.py" and ":program.bbrt" in targets and ":lib/bbnode/executor.mpy" in targets
    assert cmds[-1][-1] == "reset"
    lines = flash(bundle, "/dev/ttyUSB0", dry_run=True)
    assert len(lines) == len(cmds) and "mpremote connect /dev/ttyUSB0" in lines[0]
    with pytest.raises(BuildError):
        flash_commands(bundle.parent, "/dev/ttyUSB0")


def test_bundle_program_runs_in_vm_like_c(bundle: Path, tmp_path: Path) -> None:
    blob = (bundle / "program.bbrt").read_bytes()
    prog = parse(blob)
    recv = [e for e in prog.edges if e.direction == 0]
    sends = [e.tensor for e in prog.edges if e.direction == 1]
    assert len(recv) == 1
    t = prog.tensors[recv[0].tensor]
    rng = np.random.default_rng(3)
    x = np.maximum(rng.standard_normal(t.shape), 0).astype(np.float32)
    if t.dtype == 3:  # an int8 edge (build's default next to an int8 node): the payload is int8 bytes
        x = rng.integers(-128, 128, t.shape).astype(np.int8)
    (tmp_path / "prog.bbrt").write_bytes(blob)
    (tmp_path / "in.bin").write_bytes(x.tobytes())
    run_vm(ensure_vm(), build_lib(tmp_path / "lib"), tmp_path, f"""
import os
from bbnode.executor import Program
P = Program(open('prog.bbrt', 'rb').read())
P.write_bytes({recv[0].tensor}, open('in.bin', 'rb').read())
P.run()
os.mkdir('out')
open('out/y.bin', 'wb').write(b''.join(P.read_bytes(i) for i in {sends}))
""")
    h = HostProgram(blob, prog)
    h.run({recv[0].tensor: x})
    assert (tmp_path / "out" / "y.bin").read_bytes() == b"".join(h.view(i).tobytes() for i in sends)


def test_cli_flash_dry_run_detects_micropython_bundles(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bb_edge.cli import main

    assert main(["flash", str(bundle), "--port", "/dev/ttyUSB0", "--dry-run"]) == 0
    auto = capsys.readouterr().out
    assert main(["flash", str(bundle), "--port", "/dev/ttyUSB0", "--dry-run", "--target", "esp32-micropython"]) == 0
    explicit = capsys.readouterr().out
    assert auto == explicit and "mpremote connect /dev/ttyUSB0" in auto and "esptool" not in auto
