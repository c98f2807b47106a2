"""A/B program slots in files, and the wiring of the OTA handler into a Linux node (``bb-edge node``).

A node's slots live next to its deployment: ``DIR/ota/NODE/slot_a``,
``slot_b``, ``active`` (one letter) and ``version`` (the highest program
version it accepted: anti-rollback, kept across restarts). A staged program is written to the
inactive slot (temp file, fsync, rename); switching rewrites ``active`` the
same way, so a power cut leaves either the old or the new pointer, never a
torn one. At start a node whose ``active`` slot exists runs that program
instead of the one compiled into the deployment.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from bb_edge.deployment.manifest import Deployment
from bb_edge.engine import Engine, ota
from bb_edge.errors import DeploymentError

SLOTS = ("a", "b")


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)  # atomic on POSIX: readers see the old file or the new one


class FileSlots:
    """A :class:`~bb_edge.engine.ota.SlotStore` of two files and an atomically written pointer."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)  # created by the first stage: a node never updated writes nothing
        self.staged: str | None = None
        self.previous: str | None = None  # what `active` said before the last activate ("" = no file)

    @property
    def active(self) -> str | None:
        """The active slot's letter, or None (the deployment's own program runs)."""
        try:
            text = (self.dir / "active").read_text().strip()
        except OSError:
            return None
        return text if text in SLOTS and (self.dir / f"slot_{text}").is_file() else None

    def active_program(self) -> bytes | None:
        """The bytes of the active slot, if one was ever activated."""
        slot = self.active
        return None if slot is None else (self.dir / f"slot_{slot}").read_bytes()

    def stage(self, data: bytes) -> None:
        """Write the inactive slot (the active one is never touched)."""
        slot = "b" if self.active == "a" else "a"
        self.previous = None  # the other slot is overwritten: nothing to go back to
        self.dir.mkdir(parents=True, exist_ok=True)
        _write_atomic(self.dir / f"slot_{slot}", data)
        self.staged = slot

    def activate(self) -> None:
        """Point ``active`` at the staged slot."""
        if self.staged is not None:
            self.previous = self.active or ""
            _write_atomic(self.dir / "active", self.staged.encode())
            self.staged = None

    def revert(self) -> None:
        """Point ``active`` back where the last :meth:`activate` found it (no file: the deployment's program)."""
        if self.previous is None:
            return
        if self.previous:
            _write_atomic(self.dir / "active", self.previous.encode())
        else:
            (self.dir / "active").unlink(missing_ok=True)
        self.previous = None

    def accepted_version(self) -> int:
        """The highest program version this node switched to (``version``, 0 when absent or unreadable)."""
        try:
            return int((self.dir / "version").read_text().strip())
        except (OSError, ValueError):
            return 0

    def accept_version(self, version: int) -> None:
        """Raise the stored version (written atomically, before the switch is announced)."""
        if version > self.accepted_version():
            self.dir.mkdir(parents=True, exist_ok=True)
            _write_atomic(self.dir / "version", str(version).encode())

    def begin_partial(self, header: bytes, data: bytes = b"") -> None:
        """Start (or re-head) a transfer kept across restarts: its offer ``header`` and the bytes so far."""
        self.dir.mkdir(parents=True, exist_ok=True)
        _write_atomic(self.dir / "partial_data", data)
        _write_atomic(self.dir / "partial_offer", header)

    def append_partial(self, chunk: bytes) -> None:
        """Append received bytes (no fsync: a torn tail is a shorter prefix, and RESUME says where it ends)."""
        with open(self.dir / "partial_data", "ab") as f:
            f.write(chunk)

    def load_partial(self) -> tuple[bytes, bytes] | None:
        """``(header, bytes so far)`` of a transfer a restart interrupted, or None."""
        try:
            return (self.dir / "partial_offer").read_bytes(), (self.dir / "partial_data").read_bytes()
        except OSError:
            return None

    def clear_partial(self) -> None:
        """Forget the interrupted transfer (it ended: staged, refused or aborted)."""
        for name in ("partial_offer", "partial_data"):
            (self.dir / name).unlink(missing_ok=True)

    def discard(self) -> None:
        """Delete the staged slot's file."""
        if self.staged is not None:
            (self.dir / f"slot_{self.staged}").unlink(missing_ok=True)
            self.staged = None


def ota_settings(dep: Deployment) -> dict[str, object]:
    """The deployment's ``ota`` object (``public_key`` hex, ``hmac_nodes``), or {}."""
    raw = dep.extra.get("ota", {})
    if not isinstance(raw, dict):
        raise DeploymentError("deployment.json: 'ota' must be an object")
    return raw


def version_now() -> int:
    """A program version on ``bb-edge deploy``'s scale: wall-clock milliseconds (every later deploy is newer)."""
    return int(time.time() * 1000)


def program_version(dep: Deployment) -> int:
    """``ota.program_version``: the version of the programs this deployment ships (0: none recorded).

    ``bb-edge keygen --deployment`` records it (wall-clock milliseconds, the scale ``bb-edge deploy`` versions
    updates on); a node installed from the bundle refuses any update at or below it."""
    raw = ota_settings(dep).get("program_version", 0)
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < 1 << 63:
        raise DeploymentError(f"deployment.json: ota.program_version {raw!r} is not a version (0..2**63-1)")
    return raw


def verifier_for(dep: Deployment, node: str, hmac_key_file: str | Path | None = None) -> tuple[
        ota.Verifier | None, int]:
    """The node's signature verifier and kind: HMAC with a provisioned key file, else Ed25519, else None."""
    settings = ota_settings(dep)
    if hmac_key_file is not None:
        try:  # the file holds hex, as bb-edge build provisions it and bb-edge deploy --hmac reads it
            secret = bytes.fromhex(Path(hmac_key_file).read_text().strip())
        except (OSError, ValueError) as exc:
            raise DeploymentError(f"{hmac_key_file}: not a hex HMAC key as `bb-edge build` writes it: {exc}") from None
        return ota.hmac_verifier(secret), ota.SIG_HMAC_SHA256
    key = settings.get("public_key")
    if key is None:
        return None, ota.SIG_ED25519  # every OFFER is refused with NO_KEY
    try:
        raw = bytes.fromhex(str(key))
        return ota.ed25519_verifier(raw), ota.SIG_ED25519
    except ValueError as exc:
        raise DeploymentError(f"deployment.json: ota.public_key is not a 32-byte hex Ed25519 key: {exc}") from None


def attach_ota(engine: Engine, dep: Deployment, node: str, directory: str | Path | None = None,
               hmac_key_file: str | Path | None = None) -> ota.OtaNode:
    """Register the OTA handler on a Linux node's engine, running the active slot's program if there is one.

    Call before the node's first HELLO, so that it announces the program it really runs.
    """
    base = Path(directory) if directory is not None else dep.directory
    if base is None:
        raise DeploymentError("OTA slots need the deployment directory")
    slots = FileSlots(base / "ota" / node)
    loader = ota.OnnxLoader(engine, node)
    image = slots.active_program()
    if image is not None:
        try:
            loader.switch(loader.validate(image))
        except ota.OtaError as exc:  # a slot that no longer loads: run the compiled program
            print(f"ota: active slot of {node} refused at start ({exc}); running the deployment's program",
                  flush=True)
    floor = program_version(dep)
    if floor:  # the bundle's own version is the anti-rollback floor of a fresh node (MCUboot's image header)
        slots.accept_version(floor)
    verifier, kind = verifier_for(dep, node, hmac_key_file)
    handler = ota.OtaNode(engine, loader, verifier, sig_kind=kind, store=slots, deployment=dep.name,
                          clock=time.perf_counter)
    engine.register_protocol(handler)
    return handler

