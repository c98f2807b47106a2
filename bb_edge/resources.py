"""Data that ships inside the package: target profiles, firmware sources, the MicroPython runtime.

In a checkout, ``bb_edge/_targets``, ``bb_edge/_firmware`` and ``bb_edge/adapters`` are links to the
repository's top-level ``targets/``, ``firmware/`` and ``adapters/``; a wheel carries real copies at the
same places. Code finds them through :func:`package_data` either way.
"""

from __future__ import annotations

from pathlib import Path

from bb_edge.errors import BBError

_ROOT = Path(__file__).resolve().parent


class MissingPackageDataError(BBError):
    """A data directory the package should carry is absent (a broken install)."""


def package_data(name: str) -> Path:
    """The directory ``bb_edge/<name>`` (``_targets``, ``_firmware``), resolved; raises if it is missing."""
    path = (_ROOT / name).resolve()
    if not path.is_dir():
        raise MissingPackageDataError(
            f"bb-edge's {name.lstrip('_')} data is missing from {_ROOT}; reinstall bb-edge "
            f"(`pip install --force-reinstall bb-edge`)")
    return path
