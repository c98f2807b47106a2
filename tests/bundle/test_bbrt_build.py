"""`bb-edge build` for MCU targets: ELF/ESP-IDF outputs, generated resolver, memory report, fit check, flash."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt.errors import FitError
from bb_edge.bbrt.flash import flash
from bb_edge.bbrt.report import memory_report, render_memory_map
from bb_edge.bundle.build import build_all
from bb_edge.cli import main as cli
from bb_edge.compiler.compile import compile_model
from tests.support.examples import small_cnn
from tests.support.no_heap import check_no_heap


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("dep")
    dist = tmp_path_factory.mktemp("dist")
    compile_model(small_cnn(), cuts=["p1", "r3", "g"], node_names=["n0", "n1", "n2", "n3"], out_dir=d)
    build_all(d, ["n0=esp32", "n1=qemu-cortex-m3", "n2=qemu-rv32", "n3=esp32c3"], dist)
    return d, dist


def nm(elf: Path, tool: str) -> str:
    return subprocess.run([tool, str(elf)], capture_output=True, text=True, check=True).stdout


def test_qemu_elves_link_only_used_kernels_and_no_heap(built: tuple[Path, Path]) -> None:
    _, dist = built
    syms = nm(dist / "n1" / "bbrt.elf", "arm-none-eabi-nm")
    assert "bbrt_k_conv_i8" in syms and "bbrt_k_softmax_i8" not in syms and "bbrt_k_fc_f32" not in syms
    check_no_heap(dist / "n1" / "bbrt.elf", "arm-none-eabi-nm")
    check_no_heap(dist / "n2" / "bbrt.elf", "riscv64-unknown-elf-nm")
    assert "bbrt_k_add_i8" in nm(dist / "n2" / "bbrt.elf", "riscv64-unknown-elf-nm")


def test_memory_report_and_map(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, dist = built
    r = memory_report(dist / "n1")
    assert r["arena_bytes"] >= r["arena_lower_bound"] > 0
    assert r["arena_ratio"] <= 1.05
    # Cortex-M3 -Os with this node's kernels, plus ~5 KiB of link layer (bbrt_link.c) and semihosting
    assert 0 < r["code_bytes"] < 24 * 1024
    assert r["ram_need"] <= r["ram_bytes"] and r["const_bytes"] > 0
    png = render_memory_map(dist / "n1", tmp_path / "map.png")
    assert png.stat().st_size > 1000
    assert cli(["inspect", str(dist / "n2"), "--png", str(tmp_path / "n2.png")]) == 0
    assert (tmp_path / "n2.png").is_file()


def test_esp_idf_project_structure(built: tuple[Path, Path]) -> None:
    _, dist = built
    for node, chip in (("n0", "esp32"), ("n3", "esp32c3")):
        p = dist / node / "esp-idf"
        for f in ("CMakeLists.txt", "sdkconfig.defaults", "partitions.csv", "main/CMakeLists.txt", "main/main.c",
                  "main/Kconfig.projbuild", "main/bbrt_config.h", "main/bbrt/bbrt.h", "main/bbrt/bbrt_resolver.c",
                  "program.bbrt"):
            assert (p / f).is_file(), f
        assert "project.cmake" in (p / "CMakeLists.txt").read_text()
        assert f'CONFIG_IDF_TARGET="{chip}"' in (p / "sdkconfig.defaults").read_text()
        rows = [r.split(",") for r in (p / "partitions.csv").read_text().splitlines() if not r.startswith("#")]
        data = [r for r in rows if r[0].strip() == "bbrt"]
        assert data and data[0][1].strip() == "data"
        assert "esp_partition_mmap" in (p / "main" / "main.c").read_text()
        assert "mqtt_client.h" in (p / "main" / "main.c").read_text()
        # built without --transport: a UART node, no broker credentials; the MQTT options exist in Kconfig
        assert "CONFIG_BBRT_TRANSPORT_UART=y" in (p / "sdkconfig.defaults").read_text()
        assert not (p / "sdkconfig.credentials").exists()
        kconfig = (p / "main" / "Kconfig.projbuild").read_text()
        for key in ("BBRT_MQTT_USERNAME", "BBRT_MQTT_PASSWORD", "BBRT_MQTT_KEEPALIVE", "BBRT_MQTT_TLS_BUNDLE",
                    "BBRT_MQTT_TLS_CA_PEM"):
            assert f"config {key}\n" in kconfig, key
        facts = json.loads((dist / node / "bbrt-build.json").read_text())
        assert facts["esp_chip"] == chip and facts["code_bytes"] > 0
        assert "not run" in facts["idf_build"]


def test_flash_dry_run_prints_exact_esptool_commands(built: tuple[Path, Path], capsys: pytest.CaptureFixture) -> None:
    _, dist = built
    full = flash(dist / "n0", "/dev/ttyUSB0", dry_run=True)
    assert len(full) == 1 and "-m esptool --chip esp32 --port /dev/ttyUSB0" in full[0]
    assert "0x1000" in full[0] and "0x8000" in full[0] and "0x110000" in full[0] and "program.bbrt" in full[0]
    prog = flash(dist / "n3", "/dev/ttyACM0", program_only=True, dry_run=True)
    assert "write_flash 0x110000" in prog[0] and "bootloader" not in prog[0] and "--chip esp32c3" in prog[0]
    assert cli(["flash", str(dist / "n3"), "--port", "/dev/ttyACM0", "--program-only", "--dry-run"]) == 0
    assert "esptool" in capsys.readouterr().out
    # esptool itself is installed (the test extra) and its CLI parses these arguments
    out = subprocess.run([sys.executable, "-m", "esptool", "version"], capture_output=True, text=True)
    assert out.returncode == 0


def test_node_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    w = numpy_helper.from_array((onnx.numpy_helper.to_array(numpy_helper.from_array(
        __import__("numpy").ones((32, 3, 3, 3), "float32")))), "W")
    g = helper.make_graph([helper.make_node("Conv", ["x", "W"], ["y"], name="c", pads=[1, 1, 1, 1])], "big",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 64, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32, 64, 64])], [w])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    d = tmp_path / "dep"
    compile_model(m, nodes=1, node_names=["big"], out_dir=d)
    with pytest.raises(FitError) as e:
        build_all(d, ["big=qemu-cortex-m3"], tmp_path / "dist")
    assert e.value.resource == "ram" and e.value.over > 0 and "over by" in str(e.value)
    assert not (tmp_path / "dist" / "big").exists()
