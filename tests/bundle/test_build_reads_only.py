"""``bb-edge build`` never writes to the compile directory: a stage never rewrites its input.

The compile directory is hashed (every file's path and bytes) before and after a build for each kind of
target; it must not change. Where an int8 node changes the edge contract, the changed deployment is the
build output's ``_deployment`` and the bundles are built from it; one compile directory feeds any number
of independent builds, and builds into one output in separate runs agree on their edges.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from bb_edge.bundle.build import BUILT_DEPLOYMENT, build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import load_deployment
from tests.support.examples import sample_inputs, small_cnn

# (target, node built): ExecuTorch exports the classifier head (n3); the others build the conv stage n1
TARGETS = [("host", "n1"), ("qemu-cortex-m3", "n1"), ("esp32-micropython", "n1"), ("jetson-orin-nano", "n1"),
           ("ros2-humble", "n1"), ("linux-vm-x86_64", "n1"), ("android-arm64", "n3")]


def tree_digest(d: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(d.rglob("*")):
        h.update(str(p.relative_to(d)).encode() + b"\0")
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("compiled")
    compile_model(small_cnn(), cuts=["p1", "r3", "g"], node_names=["n0", "n1", "n2", "n3"], out_dir=d)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in sample_inputs(8, seed=7)]))
    return d


@pytest.mark.parametrize(("target", "node"), TARGETS, ids=[t for t, _ in TARGETS])
def test_build_leaves_the_compile_directory_unchanged(compiled: Path, tmp_path: Path, target: str, node: str) -> None:
    before = tree_digest(compiled)
    (res,) = build_all(compiled, [f"{node}={target}"], tmp_path / "dist", calib=compiled / "calib.npz",
                       options={"transport": "mqtt://broker:1883"})
    assert tree_digest(compiled) == before, f"build --target {node}={target} wrote to the compile directory"
    assert (tmp_path / "dist" / node).is_dir() and res.deployment_dir is not None
    built = load_deployment(res.deployment_dir)
    int8 = [e for e in built.edges if e.quant is not None]
    if target in ("host", "qemu-cortex-m3", "esp32-micropython"):  # an int8 bbrt node: its edges go int8
        assert res.deployment_dir == tmp_path / "dist" / BUILT_DEPLOYMENT
        assert {(e.src, e.dst) for e in int8} == {("n0", "n1"), ("n1", "n2")}
        assert not any(e.quant is not None for e in load_deployment(compiled).edges)
    else:  # a Python-engine node changes no contract: built straight from the compile directory
        assert res.deployment_dir == compiled and int8 == []


def test_one_compile_directory_feeds_independent_builds_and_one_output_keeps_its_edges(
        compiled: Path, tmp_path: Path) -> None:
    before = tree_digest(compiled)
    calib = compiled / "calib.npz"
    (a,) = build_all(compiled, ["n1=host"], tmp_path / "a", calib=calib)
    (b,) = build_all(compiled, ["n2=linux-vm-x86_64"], tmp_path / "b", calib=calib)
    assert b.deployment_dir == compiled  # the int8 build into "a" did not reach the build into "b"
    # a second run into the same output starts from that output's deployment: n2 gets n1's int8 edge
    (c,) = build_all(compiled, ["n2=linux-vm-x86_64"], tmp_path / "a", calib=calib)
    assert c.deployment_dir == a.deployment_dir == tmp_path / "a" / BUILT_DEPLOYMENT
    edge = next(e for e in load_deployment(c.deployment_dir).edges if (e.src, e.dst) == ("n1", "n2"))
    assert edge.quant is not None
    assert tree_digest(compiled) == before
