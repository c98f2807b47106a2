"""Builder for profiles whose ``builder`` is ``mcu-bbrt``: a node on the no-heap C runtime.

Lowers the node program to .bbrt (int8 by default, calibrated on ``--calib``
or synthetic inputs), generates the op resolver, then builds the firmware:
an ELF for QEMU targets, an executable for ``host``, an ESP-IDF project for
ESP32 chips. A node over its target's RAM is rebuilt once with its first stages run in bands
(bb_edge.bbrt.patch: bit-exact, a few percent more multiply-accumulates) when that brings the arena
down by the bytes it is over; a node that still does not fit is refused (FitError).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bb_edge.bbrt.errors import FitError
from bb_edge.bbrt.firmware import build_firmware
from bb_edge.bbrt.lower import Lowered
from bb_edge.bbrt.patch import patch_lowered
from bb_edge.bundle import BuildRequest, BuildResult, lower_request

KIND_OF = {"qemu-cortex-m3": "qemu-cortex-m3", "qemu-rv32": "qemu-rv32", "host": "host",
           "esp32": "esp-idf", "esp32s3": "esp-idf", "esp32c3": "esp-idf"}


def _program_version(value: object) -> str | None:
    """deployment.json's ``program_version`` when it is a non-empty string, else None."""
    return value if isinstance(value, str) and value else None


def build(request: BuildRequest) -> BuildResult:
    """Build one MCU node bundle into ``request.out_dir``."""
    # Conv + MaxPool in one C kernel (CONV_POOL_I8): the conv output is never held (docs/bbrt.md;
    # bb_edge.bundle.lowering.FUSE_POOL_BUILDERS)
    dep, L, precision = lower_request(request)
    prof = request.profile
    L.synthetic_calibration = request.calib is None
    kind = str(prof.get("kind", KIND_OF.get(prof.name, "esp-idf")))
    peers = {n.id: n.name for n in dep.nodes}
    url = str(request.options.get("transport") or "")
    # DSP targets' weights widened to int16 pairs unless the build (--no-widen) or the profile opts out (flash)
    widen = request.options.get("widen", True) is not False and prof.get("widen_weights", True) is not False

    def firmware(lowered: Lowered) -> dict[str, Any]:
        return build_firmware(lowered, kind, Path(request.out_dir), node=request.node, profile=prof,
                              deployment=dep.name, peers=peers,
                              transport=url if url.startswith(("mqtt://", "mqtts://")) else None,
                              ota=bool(request.options.get("ota")),
                              program_version=_program_version(dep.extra.get("program_version")),
                              widen=widen)

    try:
        facts = firmware(L)
    except FitError as e:  # over on RAM: the first stages in bands, if that saves the bytes (docs/bbrt.md)
        patched = patch_lowered(L, L.program.arena_size - e.over) if e.resource == "ram" else None
        if patched is None:
            raise
        facts = firmware(patched)
    out = Path(request.out_dir)
    artifacts = {k: out / v for k, v in facts["artifacts"].items()}
    figures = {k: facts[k] for k in ("arena_bytes", "arena_lower_bound", "const_bytes", "code_bytes",
                                     "program_bytes", "ram_need", "flash_need")}
    figures["precision"] = precision  # the build report names it
    return BuildResult(node=request.node, target=prof.name, out_dir=out, artifacts=artifacts, figures=figures)
