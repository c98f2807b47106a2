"""VWW int8 split across three Cortex-M4 nodes under QEMU, over serial links, bit-exact with TFLite (issue 29).

``bb-edge compile`` places the QDQ model by per-node memory budgets (cuts on int8 tensors only),
``bb-edge build`` gives one QEMU mps2-an386 image per node against target profiles of 64 KiB RAM and
128 KiB flash, and the fleet (the host relays envelopes over each node's serial link) returns TFLite's
int8 outputs byte for byte. The first node holds the 27 KiB input image and the 48x48 maps: over 64 KiB
of RAM as planned, so its build runs the first stages in bands (bb_edge/bbrt/patch.py, patch-based
execution as MCUNetV2) and fits; the others build unpatched. What does not fit is a FitError in bytes:
the whole model on one such MCU (flash, suggesting --nodes), and the first node on 48 KiB of RAM (over
even in bands).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.devices.serial_devices import QemuDevice
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bbrt.errors import FitError
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import load_deployment
from tests.support.mlperf import MODELS, m4_profile, reference

pytestmark = pytest.mark.filterwarnings("ignore:the memory limits:UserWarning")
KIB = 1024
#: inputs run through the fleet: the serial links carry the 27 KiB image each time (~15 s an input)
N_INPUTS = 8 if os.environ.get("BB_EDGE_LONG") else 2


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    t = tmp_path_factory.mktemp("vww3")
    small = m4_profile(t / "m4-64k.json", 64 * KIB, 128 * KIB)
    # per-node budgets of weights + activations: the first node holds the image, the others the weights
    compile_model(MODELS / "onnx" / "vww_int8.onnx", nodes=3, memory_limits=[160 * KIB, 110 * KIB, 110 * KIB],
                  input_shapes={"input_1_int8": [1, 96, 96, 3]}, out_dir=t / "dep")
    build_all(t / "dep", [f"n0={small}", f"n1={small}", f"n2={small}"], t / "dist")
    return t / "dep", t / "dist", small


def test_every_node_fits_64k_the_first_in_bands(split: tuple[Path, Path, Path]) -> None:
    facts = {n: json.loads((split[1] / n / "bbrt-build.json").read_text()) for n in ("n0", "n1", "n2")}
    assert all(f["ram_need"] <= 64 * KIB and f["flash_need"] <= 128 * KIB for f in facts.values())
    assert facts["n0"]["patch"]["bands"] >= 2 and not facts["n1"]["patch"] and not facts["n2"]["patch"]
    assert facts["n0"]["arena_bytes"] < facts["n0"]["patch"]["unpatched_arena"]
    assert facts["n0"]["tx_payload"] < facts["n0"]["max_payload"]  # sends 4.5 KiB, receives the 27 KiB image


def test_cuts_fall_on_int8_tensors(split: tuple[Path, Path, Path]) -> None:
    dep = load_deployment(split[0])
    assert [n.name for n in dep.nodes] == ["n0", "n1", "n2"]
    assert len(dep.edges) == 2 and all(e.dtype == "int8" for e in dep.edges)
    assert sum(e.bytes_per_inference for e in dep.edges) <= 8 * KIB


def test_what_does_not_fit_is_a_fit_error_in_bytes(split: tuple[Path, Path, Path], tmp_path: Path) -> None:
    dep_dir, _, small = split
    with pytest.raises(FitError) as e:  # the first node on 48 KiB of RAM: over even in bands
        build_all(dep_dir, [f"n0={m4_profile(tmp_path / 'm4-48k.json', 48 * KIB, 128 * KIB)}"], tmp_path / "n0")
    assert e.value.resource == "ram" and e.value.over > 0 and f"over by {e.value.over} bytes" in str(e.value)
    compile_model(MODELS / "onnx" / "vww_int8.onnx", nodes=1, input_shapes={"input_1_int8": [1, 96, 96, 3]},
                  out_dir=tmp_path / "one")
    with pytest.raises(FitError) as e:  # the whole model on one 128 KiB-flash MCU
        build_all(tmp_path / "one", [f"n0={small}"], tmp_path / "one-dist")
    assert e.value.over > 0 and "--nodes" in str(e.value)


def test_three_cortex_m4_nodes_over_serial_equal_tflite(split: tuple[Path, Path, Path], tmp_path: Path) -> None:
    dep_dir, dist, _ = split
    dep = load_deployment(dep_dir)
    ids = dep.ids()
    _, x, y = reference("vww")
    name_in, name_out = dep.inputs[0].name, dep.outputs[0].name

    def dev(n: str) -> QemuDevice:
        return QemuDevice("cortex-m4", dist / n / "bbrt.elf", dist / n / "program.bbrt", ids[n],
                          epoch_file=tmp_path / f"{n}.epoch")

    with dev("n0") as a, dev("n1") as b, dev("n2") as c:
        fleet = InProcFleet(dep, external={"n0": a, "n1": b, "n2": c})
        outs = [np.asarray(fleet.infer({name_in: x[k:k + 1]})[name_out]) for k in range(N_INPUTS)]
        assert not (a.errors or b.errors or c.errors)
    np.testing.assert_array_equal(np.stack(outs).reshape(N_INPUTS, -1), y[:N_INPUTS].reshape(N_INPUTS, -1))
