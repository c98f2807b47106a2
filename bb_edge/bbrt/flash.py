"""Flash an ESP32 node build with esptool: firmware + NVS + program partition, or the program only.

Every offset comes from the project's own partition table (``esp-idf/partitions.csv``, the file ESP-IDF's
gen_esp32part.py turns into ``build/partition_table/partition-table.bin``): the app at the factory partition,
the NVS image at ``nvs``, the program at ``bbrt``. :func:`write_flash_image` writes the same plan into a
flash image file instead of a chip: the flash ESP-IDF's linux target emulates (docs/targets.md).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.espidf import parse_partitions
from bb_edge.bbrt.firmware import BUILD_JSON
from bb_edge.targets import load_target

#: ESP-IDF's defaults (CONFIG_PARTITION_TABLE_OFFSET, CONFIG_ESPTOOLPY_FLASHMODE_DIO)
PARTITION_TABLE_OFFSET = 0x8000
FLASH_MODE = "dio"


def _facts(d: Path) -> dict[str, object]:
    if not (d / BUILD_JSON).is_file():
        raise BbrtError(f"{d} is not a bbrt build; run `bb-edge build DIR --target esp32|esp32s3|esp32c3`")
    facts: dict[str, object] = json.loads((d / BUILD_JSON).read_text())
    if "esp_chip" not in facts:
        raise BbrtError(f"{d} was built for {facts['target']}, not an ESP32 chip: only ESP builds are flashed "
                        "(QEMU and host builds run with their run.sh)")
    return facts


def partitions(build_dir: str | Path) -> dict[str, tuple[int, int]]:
    """{partition name: (offset, size)} of a node build's ``esp-idf/partitions.csv``."""
    table = Path(build_dir) / "esp-idf" / "partitions.csv"
    if not table.is_file():
        raise BbrtError(f"{table} is missing: rebuild the node with `bb-edge build DIR --target esp32`")
    return {r[0]: (r[3], r[4]) for r in parse_partitions(table.read_text())}


def flash_size(build_dir: str | Path) -> str:
    """The flash size the project's sdkconfig.defaults sets (``CONFIG_ESPTOOLPY_FLASHSIZE_4MB=y`` -> ``4MB``)."""
    text = (Path(build_dir) / "esp-idf" / "sdkconfig.defaults").read_text()
    m = re.search(r"^CONFIG_ESPTOOLPY_FLASHSIZE_(\d+MB)=y$", text, re.M)
    if m is None:
        raise BbrtError(f"{build_dir}/esp-idf/sdkconfig.defaults sets no CONFIG_ESPTOOLPY_FLASHSIZE_*")
    return m.group(1)


def flash_plan(build_dir: str | Path, *, program_only: bool = False,
               with_app: bool = True) -> list[tuple[int, Path]]:
    """(offset, file) pairs esptool writes: bootloader, partition table, app (``with_app``), NVS image and
    program, offsets from the partition table; only the program with ``program_only``."""
    d = Path(build_dir)
    facts = _facts(d)
    parts = partitions(d)
    if "bbrt" not in parts:
        raise BbrtError(f"{d}/esp-idf/partitions.csv has no bbrt partition")
    program = (parts["bbrt"][0], d / "program.bbrt")
    if program_only:
        return [program]
    idf = d / "esp-idf" / "build"
    plan: list[tuple[int, Path]] = []
    if with_app:
        prof = load_target(str(facts["target"]))
        plan.append((int(prof.get("bootloader_offset", 0)), idf / "bootloader" / "bootloader.bin"))
    plan.append((PARTITION_TABLE_OFFSET, idf / "partition_table" / "partition-table.bin"))
    if with_app:
        plan.append((parts["factory"][0], idf / "bbrt_node.bin"))
    nvs = d / "esp-idf" / "nvs.bin"
    if "nvs" in parts and nvs.is_file():
        plan.append((parts["nvs"][0], nvs))
    plan.append(program)
    return plan


def flash_commands(build_dir: str | Path, port: str, *, program_only: bool = False,
                   baud: int | None = None) -> list[list[str]]:
    """The exact esptool command lines for a node build (``python -m esptool ...``)."""
    d = Path(build_dir)
    facts = _facts(d)
    prof = load_target(str(facts["target"]))
    baud = baud or int(prof.get("baud", 921600))
    base = [sys.executable, "-m", "esptool", "--chip", str(facts["esp_chip"]), "--port", port, "--baud", str(baud)]
    pairs = [a for off, f in flash_plan(d, program_only=program_only) for a in (f"0x{off:x}", str(f))]
    if program_only:
        return [base + ["write_flash", *pairs]]
    return [base + ["write_flash", "--flash_mode", FLASH_MODE, "--flash_size", flash_size(d), *pairs]]


def write_flash_image(plan: list[tuple[int, Path]], image: str | Path, size: int) -> Path:
    """Write ``plan`` into the flash image file ``image`` as esptool writes a chip: a new image is ``size`` bytes
    of 0xFF (erased flash); an existing one keeps what the plan does not cover (NVS survives a program update)."""
    img = Path(image)
    data = bytearray(img.read_bytes()) if img.is_file() else bytearray(b"\xff" * size)
    if len(data) != size:
        raise BbrtError(f"{img} holds {len(data)} bytes, not the {size} of the flash")
    for off, f in plan:
        blob = Path(f).read_bytes()
        if off + len(blob) > size:
            raise BbrtError(f"{f} ({len(blob)} bytes) at 0x{off:x} runs past the {size}-byte flash")
        data[off:off + len(blob)] = blob
    tmp = img.with_name(img.name + ".tmp")
    tmp.write_bytes(bytes(data))
    tmp.replace(img)
    return img


def flash(build_dir: str | Path, port: str, *, program_only: bool = False, dry_run: bool = False,
          baud: int | None = None) -> list[str]:
    """Run (or with ``dry_run`` only return) the esptool commands; return them as shell lines."""
    cmds = flash_commands(build_dir, port, program_only=program_only, baud=baud)
    lines = [shlex.join(c) for c in cmds]
    if dry_run:
        return lines
    if not program_only:
        app = Path(build_dir) / "esp-idf" / "build" / "bbrt_node.bin"
        if not app.is_file():
            raise BbrtError(f"{app} is missing: build the firmware first (cd {Path(build_dir) / 'esp-idf'} && "
                            "idf.py build), or flash only the program with --program-only")
    for c in cmds:
        proc = subprocess.run(c)
        if proc.returncode:
            raise BbrtError(f"esptool failed ({proc.returncode}): {shlex.join(c)}")
    return lines
