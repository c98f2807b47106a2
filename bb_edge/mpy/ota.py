"""Over-the-air updates for MicroPython nodes, build and deploy side (docs/micropython.md "Program updates").

At build time (:func:`provision`) every esp32-micropython bundle gets its node's HMAC-SHA-256 update key,
``ota_hmac.key`` (32 random bytes as hex, mode 0600; the same file name and format as the C runtime's
host-mqtt bundles, so one deployer serves both), an ``ota`` section in config.json telling main.py where
the key and the A/B slots are, and an ``ota_active`` pointer that says "run the built program" (copying the
bundle to a board therefore also resets a pointer left there by an earlier update). Rebuilding into the same
output directory keeps the key, so the deployer's copy stays valid.

At deploy time (:func:`mpy_bundles`, through adapters/ota_deploy.py ``bbrt_bundles``) the MicroPython
bundles of a build directory are found by their build.json; the deployer offers their ``program.bbrt`` as
target 3 (MicroPython program), signed with the key of the bundle the fleet runs, in chunks that fit the
node's ``max_payload``.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from dataclasses import dataclass
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


@dataclass(frozen=True)
class MpyBundle:
    """One MicroPython node's build output: its program, provisioned update key and payload limit."""

    program: Path
    key: bytes | None
    max_payload: int
    max_program: int


def read_key(path: Path) -> bytes | None:
    """The hex key in ``path``, or None when the file is missing; ValueError when it is not hex."""
    if not path.is_file():
        return None
    return bytes.fromhex(path.read_text().strip())


def mpy_bundles(directory: str | Path) -> dict[str, MpyBundle]:
    """The MicroPython bundles under a ``bb-edge build -o DIR`` directory (``DIR/NODE/build.json``), by node.

    Raises :class:`~bb_edge.engine.ota.OtaError` (BAD_MESSAGE, NO_KEY) for a bundle whose files are unusable.
    """
    from bb_edge.engine import ota

    out: dict[str, MpyBundle] = {}
    for facts_path in sorted(Path(directory).glob("*/build.json")):
        b = facts_path.parent
        try:
            facts = json.loads(facts_path.read_text())
            if not isinstance(facts, dict) or facts.get("builder") != "micropython":
                continue
            cfg = json.loads((b / "config.json").read_text())
            node, mp = str(facts["node"]), int(cfg["max_payload"])
            limit = int(cfg.get("ota", {}).get("max_program", MIN_MAX_PROGRAM))
            prog = b / str(cfg.get("program", "program.bbrt"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ota.OtaError(ota.BAD_MESSAGE, f"{b}: not a MicroPython bundle: {exc}") from None
        try:
            key = read_key(b / OTA_KEY_FILE)
        except ValueError:
            raise ota.OtaError(ota.NO_KEY, f"{b / OTA_KEY_FILE}: not a hex key") from None
        out[node] = MpyBundle(prog, key, mp, limit)
    return out

