"""Build a bbrt node for a target: program + generated resolver + firmware (ELF, executable or ESP-IDF project).

Writes into ``out_dir``::

    program.bbrt          the node program (flashed to its own region/partition)
    src/bbrt_resolver.c   the generated op resolver (only the kernels used)
    bbrt.elf | bbrt-host  QEMU/host builds
    esp-idf/              ESP targets: a complete ESP-IDF project
    run.sh                how to start the node (QEMU / host)
    source/, Makefile     host-mqtt: the node's C sources and `make` to rebuild bbrt-mqtt on the device
    system-requirements.txt  host-mqtt: the device packages (libmosquitto >= the build's version)
    bbrt-build.json       the memory report and build facts (read by `bb-edge inspect`)
"""

from __future__ import annotations

import json
import secrets
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

from bb_edge.bbrt import native
from bb_edge.bbrt.errors import FitError, NativeBuildError
from bb_edge.bbrt.format import RECV, REQUEST_SLOTS, SEND, SESSION_SLOTS
from bb_edge.bbrt.lower import Lowered
from bb_edge.bbrt.qemu import qemu_command
from bb_edge.bbrt.resolver import resolver_source
from bb_edge.bbrt.widen import widen_lowered
from bb_edge.targets import TargetProfile

#: builder target kind -> (make goal, nm/size tool prefix)
KINDS = {
    "qemu-cortex-m3": ("cortex-m3", "arm-none-eabi-"),
    "qemu-rv32": ("rv32", "riscv64-unknown-elf-"),
    "qemu-cortex-m4": ("cortex-m4", "arm-none-eabi-"),  # CMSIS-style SMLAD kernels (BBRT_KERNELS_DSP)
    "qemu-cortex-m55": ("cortex-m55", "arm-none-eabi-"),  # Helium (MVE) inner loops (firmware/src/mve)
    "qemu-xtensa": ("xtensa", "xtensa-lx106-elf-"),  # LX106 (ESP8266 core) under QEMU sim
    "host": ("host", ""),
    "host-mqtt": ("host-mqtt", ""),  # the posix node on MQTT (firmware/ports/posix-mqtt, links libmosquitto)
}
#: kinds built with the DSP kernels (BBRT_KERNELS_DSP): their programs carry widened weights (bbrt/widen.py)
DSP_KINDS = {"qemu-cortex-m4"}
#: executables of the posix kinds (every other kind builds bbrt.elf)
EXECUTABLES = {"host": "bbrt-host", "host-mqtt": "bbrt-mqtt"}
STACK_RESERVE = 4096
BUILD_JSON = "bbrt-build.json"
HOST_MIN_PAYLOAD = 4096  # BBRT_MAX_PAYLOAD floor of the posix builds (over-the-air update chunks)
#: an MCU node's receive buffer (bbrt.h BBRT_RX_FRAME_SIZE): one link frame of 8-byte header + the largest
#: control envelope (96 + 128) + CRC; tensors arrive in fragments written straight into the arena
MCU_RX_FRAME_BYTES = 8 + 96 + 128 + 4
OTA_KEY_FILE = "ota_hmac.key"  # the node's update key (hex), mode 0600: posix bundles and OTA_MCU_KINDS
OTA_MCU_KINDS = {"qemu-cortex-m3"}  # MCU builds that take over-the-air updates with --ota (key compiled in)


def _kept_key(path: Path) -> str | None:
    """The key of the bundle this build replaces (``bb-edge build`` stages in a sibling temp dir), if valid."""
    try:
        text = path.read_text().strip()
        return text + "\n" if len(bytes.fromhex(text)) == 32 else None
    except (OSError, ValueError):
        return None


def max_payload(L: Lowered) -> int:
    """The largest edge payload of the program (the firmware's BBRT_MAX_PAYLOAD), at least 64."""
    sizes = [L.program.tensors[e.tensor].nbytes for e in L.program.edges if e.direction in (RECV, SEND)]
    return max([64, *sizes])


#: the longest control text an MCU node sends (bbrt_node.c send_control: at most 200 bytes), rounded up
MCU_CONTROL_PAYLOAD = 256


def tx_payload(L: Lowered) -> int:
    """An MCU node's transmit payload (BBRT_TX_PAYLOAD): its largest Send edge, at least a control text."""
    sizes = [L.program.tensors[e.tensor].nbytes for e in L.program.edges if e.direction == SEND]
    return max([MCU_CONTROL_PAYLOAD, *sizes])


def session_slots(profile: TargetProfile) -> int:
    """Session slots a stateful node keeps (the profile's ``session_slots``, default BBRT_SESSION_SLOTS), >= 1."""
    return max(1, int(profile.get("session_slots", SESSION_SLOTS)))


def elf_sizes(elf: Path, prefix: str) -> dict[str, int]:
    """text/data/bss of an ELF (``size`` Berkeley format)."""
    tool = f"{prefix}size"
    if shutil.which(tool) is None:
        from bb_edge.tools import missing

        raise NativeBuildError(missing(tool))
    out = subprocess.run([tool, "-B", "-d", str(elf)], capture_output=True, text=True, check=True).stdout
    text, data, bss = (int(x) for x in out.splitlines()[1].split()[:3])
    return {"text": text, "data": data, "bss": bss}


def build_firmware(L: Lowered, kind: str, out_dir: Path, *, node: str, profile: TargetProfile,
                   deployment: str = "", peers: dict[int, str] | None = None,
                   transport: str | None = None, ota: bool = False,
                   program_version: str | None = None, widen: bool = True) -> dict[str, Any]:
    """Build the node for ``kind`` into ``out_dir``; check it fits; return the build facts.

    ``ota`` (``bb-edge build --ota``): an MCU kind of :data:`OTA_MCU_KINDS` gets a compiled-in update key
    and A/B program slots in RAM; posix kinds always take updates (their key is a file in the bundle).

    ``transport`` (``bb-edge build --transport``): an ``mqtt[s]://`` URL puts an ESP-IDF
    node on that broker with its credentials (bb_edge.bbrt.espidf.mqtt_settings).

    ``program_version`` (deployment.json's): a ``host-mqtt`` node's run.sh passes it, so its status record
    shows it (``bb-edge status``) next to the program's name (the deployment's) and hash.

    A :data:`DSP_KINDS` node gets its program with widened weights (bb_edge/bbrt/widen.py) when that fits the
    target's flash, else the int8 program; ``widen=False`` (``bb-edge build --no-widen``, a profile's
    ``"widen_weights": false``) keeps the int8 program anyway: half the weights' flash, more instructions.
    """
    if kind in DSP_KINDS and widen:  # the SMLAD kernels run faster on weights widened to int16 pairs (2 bytes each)
        W = widen_lowered(L)
        if W.blob != L.blob:
            try:
                return _build(W, kind, out_dir, node=node, profile=profile, deployment=deployment, peers=peers,
                              transport=transport, ota=ota, program_version=program_version, widened=True)
            except FitError as exc:
                if exc.resource != "flash":
                    raise  # not the widening's doing: the int8 program would not fit either
            # the widened weights overflow the flash: the int8 program (the same outputs, more instructions)
    return _build(L, kind, out_dir, node=node, profile=profile, deployment=deployment, peers=peers,
                  transport=transport, ota=ota, program_version=program_version)


def _build(L: Lowered, kind: str, out_dir: Path, *, node: str, profile: TargetProfile, deployment: str,
           peers: dict[int, str] | None, transport: str | None, ota: bool,
           program_version: str | None, widened: bool = False) -> dict[str, Any]:
    """:func:`build_firmware` of the program as given (``widened``: it carries widened weights)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    prog_path = out_dir / "program.bbrt"
    prog_path.write_bytes(L.blob)
    src = out_dir / "src"
    src.mkdir(exist_ok=True)
    resolver = src / "bbrt_resolver.c"
    resolver.write_text(resolver_source(L.ops_used))
    mp = max_payload(L)
    if kind in EXECUTABLES:  # posix nodes: RAM is no constraint, and OTA DATA chunks fill the payload limit
        mp = max(mp, HOST_MIN_PAYLOAD)
    # the program's arena plus the request slots that stage Recv payloads and, for a stateful program, the session
    # slots (profile session_slots, default BBRT_SESSION_SLOTS) that keep each session's state (docs/bbrt.md)
    sessions = session_slots(profile)
    arena = max(8, L.program.node_arena_bytes(REQUEST_SLOTS, sessions))
    facts: dict[str, Any] = {
        "format": "bb-edge/bbrt-build", "version": 1, "node": node, "node_id": L.program.node_id,
        "target": profile.name, "kind": kind, "precision": L.precision, "max_payload": mp,
        "program": "program.bbrt", "program_bytes": len(L.blob),
        "arena_bytes": L.program.arena_size, "arena_lower_bound": L.program.arena_lower_bound,
        "model_lower_bound": L.model_lower_bound,
        "patch": L.patch,  # the first stages in bands (bb_edge/bbrt/patch.py), {} when not patched
        "request_slots": REQUEST_SLOTS, "slot_bytes": REQUEST_SLOTS * L.program.request_bytes(),
        "node_arena_bytes": arena,
        "session_slots": sessions if L.program.state_bytes() else 0,
        "session_bytes": sessions * L.program.state_bytes(),
        "const_bytes": L.program.const_bytes(),
        "rx_buffer_bytes": 96 + mp + 4 if kind in EXECUTABLES else MCU_RX_FRAME_BYTES,
        "ops": [op.opcode.name for op in L.program.ops],
        "kernels": sorted(op.name for op in L.ops_used),
        "edges": [{"edge_id": e.edge_id, "peer": e.peer, "dir": "recv" if e.direction == RECV else "send",
                   "elem_type": e.elem_type, "bytes": L.program.tensors[e.tensor].nbytes}
                  for e in L.program.edges if e.direction in (RECV, SEND)],
        "synthetic_calibration": L.synthetic_calibration,
        "ram_bytes": profile.ram_bytes, "flash_bytes": profile.flash_bytes,
    }
    artifacts: dict[str, str] = {"program": "program.bbrt", "resolver": "src/bbrt_resolver.c"}
    if kind in KINDS:
        goal, prefix = KINDS[kind]
        build = out_dir / "build"
        make_vars: dict[str, str] = {}
        if kind in EXECUTABLES or (ota and kind in OTA_MCU_KINDS):
            # the node's HMAC-SHA-256 update key, provisioned now (docs/transports.md "Program updates");
            # a rebuild into the same bundle keeps it, so the deployer's copy stays valid
            key = out_dir / OTA_KEY_FILE
            if not key.is_file():
                key.touch(mode=0o600)
                key.write_text(_kept_key(out_dir.parent / node / OTA_KEY_FILE) or secrets.token_hex(32) + "\n")
            artifacts["ota_key"] = OTA_KEY_FILE
            if kind in OTA_MCU_KINDS:  # compiled in; A/B slots in RAM with room for a program twice this size
                make_vars = {"OTA_KEY": key.read_text().strip(), "OTA_NODE": node, "OTA_DEPLOYMENT": deployment,
                            "OTA_SLOT": str(max(8192, (2 * len(L.blob) + 7) // 8 * 8))}
        from bb_edge.tools import missing, which

        cc = f"{prefix}gcc" if prefix else "cc"
        if which(cc) is None:  # before make: its "command not found" would bury the fix in a build log
            raise NativeBuildError(f"target kind {kind!r}: {missing(cc)}")
        if kind not in EXECUTABLES and not make_vars:  # the transmit buffer holds what the node sends
            tx = min(mp, tx_payload(L))
            if L.program.state_bytes():  # a session refusal or eviction notice names ids in up to 200 bytes
                tx = max(tx, MCU_CONTROL_PAYLOAD)
            make_vars["TX_PAYLOAD"] = str(tx)
            facts["tx_payload"] = int(make_vars["TX_PAYLOAD"])
        if kind in DSP_KINDS and not widened:  # the widened-weight kernels left out: flash for the int8 program
            make_vars["M4_KERNELS"] = "-DBBRT_KERNELS_DSP=1 -DBBRT_NO_WIDENED=1"
        native.make(goal, build, RESOLVER=str(resolver.resolve()), MAX_PAYLOAD=str(mp), ARENA=str(arena), OPT="-Os",
                    SESSIONS=str(sessions), **make_vars)
        name = EXECUTABLES.get(kind, "bbrt.elf")
        shutil.copy2(build / name, out_dir / name)
        if (build / "bbrt.map").exists():
            shutil.copy2(build / "bbrt.map", out_dir / "bbrt.map")
        shutil.rmtree(build, ignore_errors=True)
        artifacts["firmware"] = name
        sizes = elf_sizes(out_dir / name, prefix)
        facts["elf"] = sizes
        facts["code_bytes"] = sizes["text"]
        facts["code_size_source"] = name
        facts["static_ram_bytes"] = sizes["data"] + sizes["bss"]
        if kind == "host-mqtt":  # names and peers baked in; broker, credentials, TLS come as arguments
            args = ["--name", node, "--deployment", deployment,
                    *(a for i, n in sorted((peers or {}).items()) for a in ("--peer", f"{i}={n}")),
                    *(["--program-version", program_version] if program_version else [])]
            run = ('exec "$(dirname "$0")/bbrt-mqtt" "$(dirname "$0")/program.bbrt" '
                   + " ".join(shlex.quote(a) for a in args) + f' --ota-key "$(dirname "$0")/{OTA_KEY_FILE}" "$@"\n')
        elif kind == "host":
            run = ('exec "$(dirname "$0")/bbrt-host" "$(dirname "$0")/program.bbrt" --name ' + shlex.quote(node)
                   + " --deployment " + shlex.quote(deployment)
                   + f' --ota-key "$(dirname "$0")/{OTA_KEY_FILE}" "$@"\n')
        elif goal == "xtensa":
            run = _xtensa_run_script(qemu_command(goal, Path("bbrt.elf"), Path("program.bbrt")))
        else:
            cmd = qemu_command(goal, Path("bbrt.elf"), Path("program.bbrt"))
            run = 'cd "$(dirname "$0")" && exec ' + " ".join(cmd) + ' "$@"\n'
        if kind == "host-mqtt":
            artifacts.update(_posix_mqtt_sources(out_dir, resolver, max_payload=mp, arena=arena))
            run = ("# start this node on an MQTT broker: ./run.sh --host HOST --port PORT [--creds FILE] [--ca FILE]\n"
                   "# on another machine or architecture, first rebuild bbrt-mqtt from source/: make\n"
                   "# (needs a C compiler and libmosquitto's headers: Debian libmosquitto-dev)\n" + run)
        elif kind == "host":
            run = "# start this node: its link is stdin/stdout, or --serial PATH (a serial device or pty)\n" + run
        elif goal != "xtensa":
            run = "# start this node; its serial link is printed as a pty\n" + run
        (out_dir / "run.sh").write_text("#!/bin/sh\n" + run)
        (out_dir / "run.sh").chmod(0o755)
        artifacts["run"] = "run.sh"
    else:
        from bb_edge.bbrt.espidf import generate_project

        facts.update(generate_project(L, out_dir / "esp-idf", profile=profile, node=node, deployment=deployment,
                                      peers=peers or {}, resolver=resolver, max_payload=mp, arena=arena,
                                      transport=transport))
        artifacts["esp-idf"] = "esp-idf"
    facts["ram_need"] = facts["static_ram_bytes"] + STACK_RESERVE + int(profile.get("reserved_ram_bytes", 0))
    facts["flash_need"] = facts["code_bytes"] + len(L.blob) + int(profile.get("reserved_flash_bytes", 0))
    facts["artifacts"] = artifacts
    (out_dir / BUILD_JSON).write_text(json.dumps(facts, indent=1) + "\n")
    check_fit(facts, node, profile)
    return facts


#: the firmware sources of the posix MQTT node (firmware/Makefile's CORE + ports/posix-mqtt), shipped in its bundle
POSIX_MQTT_SOURCES = ("src/bbrt_base.c", "src/bbrt_wire.c", "src/bbrt_program.c", "src/bbrt_check.c",
                      "src/bbrt_kernels.c", "src/bbrt_node.c", "src/bbrt_link.c", "src/bbrt_sha256.c",
                      "src/bbrt_ota.c", "src/bbrt_node_ota.c", "ports/posix-mqtt/main.c")
SYSTEM_REQUIREMENTS = "system-requirements.txt"  # a host-mqtt bundle's device packages (libmosquitto)
POSIX_MQTT_HEADERS = ("include/bbrt.h", "include/bbrt_base.h", "include/bbrt_link.h", "include/bbrt_ota.h",
                      "src/bbrt_internal.h", "src/bbrt_kernels.h", "src/bbrt_resolver_table.h",
                      "ports/common/posix_epoch.h",
                      "ports/common/posix_io.h", "ports/common/posix_creds.h", "ports/common/posix_mqtt.h")


def _posix_mqtt_sources(out_dir: Path, resolver: Path, *, max_payload: int, arena: int) -> dict[str, str]:
    """Copy the node's C sources into ``out_dir/source`` with a Makefile that rebuilds ``bbrt-mqtt`` there.

    The bundle then starts on a device of another architecture: ``make`` compiles the same sources, with
    this build's payload limit, arena and op resolver, against the device's libmosquitto.
    """
    fw = native.firmware_dir()
    src = out_dir / "source"
    shutil.rmtree(src, ignore_errors=True)
    for rel in (*POSIX_MQTT_SOURCES, *POSIX_MQTT_HEADERS):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(fw / rel, src / rel)
    shutil.copy2(resolver, src / "src" / "bbrt_resolver.c")
    sources = " ".join(f"source/{s}" for s in (*POSIX_MQTT_SOURCES, "src/bbrt_resolver.c"))
    (out_dir / "Makefile").write_text(
        "# rebuild bbrt-mqtt from source/ (the firmware of this bundle's build): make\n"
        "# needs a C99 compiler and libmosquitto's headers and library (Debian: libmosquitto-dev)\n"
        "CC ?= cc\n"
        f"DEFS := -DBBRT_MAX_PAYLOAD={max_payload}u -DBBRT_ARENA_SIZE={arena}u -DBBRT_HOST_ARENA={arena}u "
        "-DBBRT_LINK_WINDOW=32u -DBBRT_LINK_MTU=4096u\n"
        "CFLAGS ?= -O2\n"
        "bbrt-mqtt: " + sources + "\n"
        "\t$(CC) -std=c99 -pedantic -Wall -Wextra -Werror -Wshadow -Wno-cast-align $(CFLAGS) $(DEFS) "
        "-Isource/include -Isource/src -Isource/ports/common -fno-tree-loop-distribute-patterns "
        "-ffunction-sections -fdata-sections " + sources + " -Wl,--gc-sections -lmosquitto -o $@\n"
        ".PHONY: clean\nclean:\n\trm -f bbrt-mqtt\n")
    (out_dir / SYSTEM_REQUIREMENTS).write_text(
        "# what bbrt-mqtt needs on the device (Debian package names); pip has nothing to install for it\n"
        f"libmosquitto1 >= {mosquitto_version()}  # run: bbrt-mqtt links libmosquitto.so.1 (built against this)\n"
        "libmosquitto-dev, make, a C99 compiler (gcc)  # only to rebuild bbrt-mqtt from source/: make\n")
    return {"source": "source", "makefile": "Makefile", "system_requirements": SYSTEM_REQUIREMENTS}


def mosquitto_version(header: Path = Path("/usr/include/mosquitto.h")) -> str:
    """The libmosquitto version of the build host's headers (``2.0.11``), the floor a bundle declares."""
    import re

    try:
        text = header.read_text()
    except OSError as exc:
        raise NativeBuildError(f"{header} is missing: install libmosquitto-dev to build host-mqtt") from exc
    parts = [re.search(rf"#define LIBMOSQUITTO_{k}\s+(\d+)", text) for k in ("MAJOR", "MINOR", "REVISION")]
    if not all(parts):
        raise NativeBuildError(f"{header} names no LIBMOSQUITTO_MAJOR/MINOR/REVISION")
    return ".".join(m.group(1) for m in parts if m)


def _xtensa_run_script(cmd: list[str]) -> str:
    """run.sh for the Xtensa sim board: its console is QEMU's own stdin/stdout on the TTY given.

    The sim board has no UART; with ``-serial pty`` QEMU's 16-byte console input buffer loses
    bytes under load, so the link goes through QEMU's stdio instead (as QemuDevice does).
    """
    cmd = list(cmd)
    cmd[cmd.index("-serial") + 1] = "none"
    return ("# start this node: ./run.sh TTY, where TTY is the pty or serial device the host's link uses\n"
            '[ -n "$1" ] || { echo "usage: $0 TTY (a pty or serial device: the line to the host)" >&2; exit 2; }\n'
            'tty="$1"; shift\n'
            'stty raw -echo <"$tty" || exit 2\n'
            'exec <"$tty" >"$tty"\n'
            'cd "$(dirname "$0")" && exec ' + " ".join(cmd) + ' "$@"\n')


def check_fit(facts: dict[str, Any], node: str, profile: TargetProfile) -> None:
    """Raise FitError if the node needs more RAM or flash than the target has."""
    if profile.ram_bytes and facts["ram_need"] > profile.ram_bytes:
        raise FitError(node, profile.name, "ram", int(facts["ram_need"]), profile.ram_bytes)
    if profile.flash_bytes and facts["flash_need"] > profile.flash_bytes:
        raise FitError(node, profile.name, "flash", int(facts["flash_need"]), profile.flash_bytes)
    part = int(profile.get("program_partition_bytes", 0))
    if part and facts["program_bytes"] > part:
        raise FitError(node, profile.name, "flash (program partition)", int(facts["program_bytes"]), part)
