"""Over-the-air updates for MicroPython nodes, build and deploy side (docs/micropython.md "Program updates").

At build time (:func:`provision`) every esp32-micropython bundle gets its node's HMAC-SHA-256 update key,
``ota_hmac.key`` (32 random bytes as hex, mode 0600; the same file name and format as the C runtime's
host-mqtt bundles, so one deployer serves both), an ``ota`` section in config.json telling main.py where
the key and the A/B slots are, and an ``ota_active`` pointer that says "run the built program" (copying the
bundle to a board therefore also resets a pointer left there by an earlier update). Rebuilding into the same
output directory keeps the key, so the deployer's copy stays valid.

At deploy time (bb_edge/adapters/ops/ota_deploy.py ``bbrt_bundles``) the MicroPython bundles of a build
directory are found by their build.json; the deployer offers their ``program.bbrt`` as target 3
(MicroPython program), signed with the key of the bundle the fleet runs, in chunks that fit the node's
``max_payload``.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path
from typing import Any

OTA_KEY_FILE = "ota_hmac.key"  # the same name as bb_edge.bbrt.firmware.OTA_KEY_FILE (C host-mqtt bundles)
ACTIVE_FILE = "ota_active"  # bbnode.ota.FileSlots("ota"): names the active slot, "a" or "b"
SLOTS_PREFIX = "ota"
MIN_MAX_PROGRAM = 64 << 10


def _write_key(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")


def provision(out_dir: Path, final_dir: Path | None, program_bytes: int, max_program: int | None = None) -> dict[
        str, Any]:
    """Write the update key and the slot pointer into ``out_dir``; the config.json ``ota`` section.

    ``final_dir`` is where the bundle ends up (``bb-edge build`` builds in a temporary directory): a key
    already there is kept. ``max_program`` bounds an offered program (default: twice this one, at least
    64 KiB): the node refuses a larger OFFER (``too_large``) before storing a byte.
    """
    key = out_dir / OTA_KEY_FILE
    old = final_dir / OTA_KEY_FILE if final_dir is not None else None
    if old is not None and old.is_file() and old.resolve() != key.resolve():
        shutil.copyfile(old, key)
        os.chmod(key, 0o600)
    if not key.is_file():
        _write_key(key, secrets.token_hex(32))
    (out_dir / ACTIVE_FILE).write_text("built\n")  # neither "a" nor "b": the built program.bbrt runs
    limit = max_program if max_program is not None else max(MIN_MAX_PROGRAM, 2 * program_bytes)
    return {"key_file": OTA_KEY_FILE, "slots": SLOTS_PREFIX, "max_program": int(limit)}
