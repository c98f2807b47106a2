"""Checks of the paths a user hands in, made before any work starts: inputs exist and are readable,
outputs can be written. Each failure is one typed error that names the option, the path and the fix.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bb_edge.errors import InputFileError, OutputPathError


def check_input_path(path: str | Path, option: str, want_dir: bool = False) -> Path:
    """An existing, readable file (or directory when ``want_dir``); InputFileError otherwise."""
    p = Path(path)
    if not p.exists():
        raise InputFileError(f"{option} {p}: no such {'directory' if want_dir else 'file'}; check the path")
    if want_dir and not p.is_dir():
        raise InputFileError(f"{option} {p}: is a file, not a directory; give a directory")
    if not want_dir and p.is_dir():
        raise InputFileError(f"{option} {p}: is a directory, not a file; give a file")
    if not os.access(p, os.R_OK):
        raise InputFileError(f"{option} {p}: is not readable; change its permissions")
    return p


def _first_existing(path: Path) -> Path:
    """``path`` or its nearest existing ancestor."""
    p = path
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def _probe_writable(directory: Path, option: str, target: Path) -> None:
    """Create and remove a file in ``directory``: the one test of writability that root and read-only mounts obey."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".bb-edge-probe-", dir=directory)
    except OSError as exc:
        raise OutputPathError(f"{option} {target}: cannot write in {directory} ({exc.strerror}); "
                              f"choose a directory you can write to") from None
    os.close(fd)
    os.unlink(probe)


def _check_ancestors(path: Path, option: str) -> Path:
    """The nearest existing ancestor of ``path``; OutputPathError if it is a file."""
    anc = _first_existing(path.parent if path.parent != path else path)
    if not anc.is_dir():
        raise OutputPathError(f"{option} {path}: {anc} is a file, so nothing can be created under it; "
                              f"choose a path whose parent is a directory")
    return anc


def check_output_dir(path: str | Path, option: str = "-o") -> Path:
    """Check that ``path`` can be (or already is) a writable directory; return it. Creates nothing."""
    p = Path(path)
    if p.exists():
        if not p.is_dir():
            raise OutputPathError(f"{option} {p}: is a file, not a directory; remove it or choose another "
                                  f"output directory")
        _probe_writable(p, option, p)
        return p
    _probe_writable(_check_ancestors(p, option), option, p)
    return p


def check_output_file(path: str | Path, option: str) -> Path:
    """Check that a file can be written at ``path`` (parents may be missing and are made later); return it."""
    p = Path(path)
    if p.is_dir():
        raise OutputPathError(f"{option} {p}: is a directory; give a file name (e.g. {p / 'out'}"
                              f"{'.png' if 'png' in option else '.npz'})")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputPathError(f"{option} {p}: the file is not writable; change its permissions or choose "
                              f"another name")
    _probe_writable(_check_ancestors(p, option), option, p)
    return p


def path_inside(base: str | Path, *parts: str, option: str = "-o") -> Path:
    """``base/parts...`` resolved; OutputPathError unless it lies strictly inside ``base``.

    Called before a path built from a name (a node's bundle, a key file) is created or deleted, so that no
    name (``..``, ``/etc``, a symlink's target) reaches outside the output directory.
    """
    root = Path(base).resolve()
    target = root.joinpath(*parts).resolve()
    if target == root or not target.is_relative_to(root):
        raise OutputPathError(f"{option} {base}: {'/'.join(parts)!r} would be written at {target}, outside "
                              f"{root}; use names that are identifiers")
    return target


def check_parent_exists(path: str | Path, option: str) -> Path:
    """An output file whose directory already exists: bb-edge never creates a directory the user did not name."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise OutputPathError(f"{option} {p}: directory {parent} does not exist; create it first "
                              f"(mkdir -p {parent}) or choose a path in an existing directory")
    return p
