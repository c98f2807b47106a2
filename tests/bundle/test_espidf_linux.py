"""The ESP-IDF project `bb-edge build --target n1=esp32` writes, built by ESP-IDF itself for its linux target
(third_party/esp-idf-v5.5.5: ESP-IDF's CMake and Kconfig, FreeRTOS POSIX port, emulated esp_partition and
nvs_flash; only the UART is ours, firmware/ports/esp-idf/linux/port_linux.c), run as a fleet member on a pty.

The oracle is the host bbrt build of the same node (`--target n1=host`, the posix port): the linux-target app
must answer every request with the same bytes. Its flash is one image file written from `bb-edge flash`'s own
plan (offsets from partitions.csv): the partition table ESP-IDF's gen_esp32part.py made during the build, the
NVS image esp-idf-nvs-partition-gen made, and the program, which the app reads through esp_partition_mmap.

NOT exercised: the Xtensa/RISC-V compilers, the bootloader and app images, a real flash chip and UART, Wi-Fi
and MQTT (esp-mqtt is not carried), esptool against a chip.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.devices.serial_devices import PtyHostDevice
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bbrt.espidf import build_linux_target, idf_path, nvs_csv, nvs_image, parse_partitions
from bb_edge.bbrt.flash import flash, flash_plan, write_flash_image
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.targets import load_target
from tests.support.examples import sample_inputs, small_cnn

FLASH = load_target("esp32").flash_bytes
SEED = 41  # the boot-epoch seed in the test's NVS image: the first boot says 42


class EspLinuxDevice(PtyHostDevice):
    """The ESP-IDF linux-target app on a pty: flash image and UART named by $BBRT_FLASH / $BBRT_UART."""

    def __init__(self, elf: Path, flash_image: Path, node_id: int, **kw: Any) -> None:
        super().__init__(elf, flash_image, node_id, **kw)
        self.elf, self.flash_image = elf, flash_image

    def _launch(self) -> None:
        env = {**os.environ, "BBRT_FLASH": str(self.flash_image), "BBRT_UART": self._own.slave_path}
        self.proc = subprocess.Popen([str(self.elf)], env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _build(model_seed: int, root: Path, targets: tuple[str, ...]) -> tuple[Path, ...]:
    """A 3-node split of small_cnn(model_seed); n1 built for each of ``targets`` (one output per target)."""
    d = root / f"dep{model_seed}"
    compile_model(small_cnn(seed=model_seed), cuts=["p1", "g"], node_names=["n0", "n1", "n2"], out_dir=d)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in sample_inputs(8, seed=7)]))
    dists = []
    for t in targets:
        dists.append(root / f"{t}{model_seed}")
        build_all(d, [f"n1={t}"], dists[-1], calib=d / "calib.npz")
    return (d, *dists)


def _dep(dist: Path, d: Path) -> Deployment:
    return load_deployment(dist / "_deployment" if (dist / "_deployment").is_dir() else d)


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Model A (n1 for esp32 and for the host) and model B (same shapes, other weights; n1 for the host: its
    program is the update), and ESP-IDF's linux-target build of A's n1 (once)."""
    root = tmp_path_factory.mktemp("espidf-linux")
    a, b = _build(0, root, ("esp32", "host")), _build(3, root, ("host",))
    elf = build_linux_target(a[1] / "n1" / "esp-idf")
    return {"a": a, "b": b, "elf": elf, "root": root}


def _outputs(dep: Deployment, dev: Any, samples: list[dict[str, np.ndarray]]) -> list[np.ndarray]:
    f = InProcFleet(dep, external={"n1": dev})
    outs = [np.asarray(f.infer(s)["prob"], np.float32) for s in samples]
    assert not dev.errors
    return outs


def _host_outputs(exe: Path, program: Path, dep: Deployment, samples: list[dict[str, np.ndarray]],
                  tmp: Path) -> list[np.ndarray]:
    with PtyHostDevice(exe, program, dep.ids()["n1"], epoch_file=tmp / "host.epoch") as h:
        return _outputs(dep, h, samples)


def test_idf_linux_app_is_a_fleet_member_bit_for_bit(fleet: dict[str, Any], tmp_path: Path) -> None:
    """ESP-IDF builds the generated project for linux; the app, flashed from `bb-edge flash`'s plan, reads its
    program via esp_partition_mmap, its name and epoch seed from the NVS image, joins the fleet on a pty and
    answers as the host bbrt build does, bit for bit. A restart takes the next epoch from ESP-IDF's NVS; a
    model-only update (program partition alone, same firmware) survives a restart and answers as model B's
    host build."""
    (da, esp_a, host_a), (db, host_b) = fleet["a"], fleet["b"]
    n1 = esp_a / "n1"
    # one lowering for both targets: the host build's program is the ESP node's program
    assert (n1 / "program.bbrt").read_bytes() == (host_a / "n1" / "program.bbrt").read_bytes()
    program_b = host_b / "n1" / "program.bbrt"
    assert program_b.read_bytes() != (n1 / "program.bbrt").read_bytes()
    dep_a, dep_b = _dep(esp_a, da), _dep(host_b, db)
    samples = sample_inputs(4, seed=99)
    # the NVS image: ESP-IDF's generator, a seed the test chooses
    (tmp_path / "nvs.csv").write_text(nvs_csv("n1", epoch_seed=SEED))
    nvs = nvs_image(tmp_path / "nvs.csv", tmp_path / "nvs.bin")
    assert nvs is not None
    plan = [(off, nvs if f.name == "nvs.bin" else f) for off, f in flash_plan(n1, with_app=False)]
    assert [f.name for _, f in plan] == ["partition-table.bin", "nvs.bin", "program.bbrt"]
    image = write_flash_image(plan, tmp_path / "flash.bin", FLASH)
    dev = EspLinuxDevice(fleet["elf"], image, dep_a.ids()["n1"], epoch_file=tmp_path / "unused.epoch")
    try:
        dev.start(30.0)
        assert dev.link is not None and dev.link.peer is not None
        assert (dev.link.peer.boot_epoch, dev.link.peer.name) == (SEED + 1, "n1")
        got = _outputs(dep_a, dev, samples)
        # a restart: ESP-IDF's nvs_flash kept the epoch in the image file
        dev.kill()
        dev._launch()
        dev.start_link()
        dev.ping(30.0)
        assert dev.link.peer is not None and dev.link.peer.boot_epoch == SEED + 2
        # a model-only update: the program partition alone, as `bb-edge flash --program-only` writes it
        plan = [(off, program_b) for off, _ in flash_plan(n1, program_only=True)]
        assert [off for off, _ in plan] == [parse_partitions((n1 / "esp-idf" / "partitions.csv").read_text())[3][3]]
        dev.kill()
        write_flash_image(plan, image, FLASH)
        dev._launch()
        dev.start_link()
        dev.ping(30.0)
        assert dev.link.peer is not None and dev.link.peer.boot_epoch == SEED + 3  # NVS survived the update
        got_b = _outputs(dep_b, dev, samples)
    finally:
        err = dev.stop()
    exe = host_a / "n1" / "bbrt-host"  # the posix build of A's n1 (B has the same ops and shapes)
    ref = _host_outputs(exe, n1 / "program.bbrt", dep_a, samples, tmp_path)
    ref_b = _host_outputs(exe, program_b, dep_b, samples, tmp_path)
    for g, r in zip(got + got_b, ref + ref_b, strict=True):
        assert g.tobytes() == r.tobytes(), err
    assert any(not np.array_equal(g, r) for g, r in zip(got, got_b, strict=True))  # B is another model


def test_partition_table_and_flash_offsets_are_esp_idfs(fleet: dict[str, Any]) -> None:
    """ESP-IDF's gen_esp32part.py (run by ESP-IDF's build) turned partitions.csv into partition-table.bin; decoded
    by the same tool, its offsets are the ones `bb-edge flash --dry-run` passes to esptool, and the flash size is
    the sdkconfig's."""
    n1 = fleet["a"][1] / "n1"
    binary = n1 / "esp-idf" / "build" / "partition_table" / "partition-table.bin"
    sys.path.insert(0, str(idf_path() / "components" / "partition_table"))
    try:
        import gen_esp32part  # ESP-IDF's own tool, carried in third_party
    finally:
        sys.path.pop(0)
    decoded = gen_esp32part.PartitionTable.from_binary(binary.read_bytes())
    table = {p.name: (p.name, "", "", p.offset, p.size) for p in decoded}
    assert set(table) == {"nvs", "phy_init", "factory", "bbrt"}
    line = flash(n1, "/dev/ttyUSB0", dry_run=True)[0]
    pairs = dict(re.findall(r"(0x[0-9a-f]+) (\S+)", line))
    assert int(next(k for k, v in pairs.items() if v.endswith("nvs.bin")), 16) == table["nvs"][3]
    assert int(next(k for k, v in pairs.items() if v.endswith("program.bbrt")), 16) == table["bbrt"][3]
    assert int(next(k for k, v in pairs.items() if v.endswith("bbrt_node.bin")), 16) == table["factory"][3]
    assert int(next(k for k, v in pairs.items() if v.endswith("partition-table.bin")), 16) == 0x8000
    assert "--flash_size 4MB" in line and "--flash_mode dio" in line
    prog = flash(n1, "/dev/ttyUSB0", program_only=True, dry_run=True)[0]
    assert prog.endswith(f"write_flash 0x{table['bbrt'][3]:x} {n1 / 'program.bbrt'}")
    # the NVS image bb-edge build wrote is esp-idf-nvs-partition-gen's, one NVS partition long
    assert (n1 / "esp-idf" / "nvs.bin").stat().st_size == table["nvs"][4]
