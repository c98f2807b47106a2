"""Data that ships inside the package: target profiles, firmware sources, the MicroPython runtime.

The target profiles (``bb_edge/target_profiles``) and the digits data (``bb_edge/_data``) live in the
package. The C runtime and the MicroPython runtime stay a top-level C project (``firmware/`` in a
checkout); the wheel's build step (setup.py) copies it to ``bb_edge/_firmware``. Code finds every one
of them through :func:`package_data`, installed or in a checkout.
"""

from __future__ import annotations

from pathlib import Path

from bb_edge.errors import BBError

_ROOT = Path(__file__).resolve().parent

#: names :func:`package_data` takes -> where a checkout keeps them when the package does not carry them
_CHECKOUT = {"_firmware": _ROOT.parent / "firmware"}


class MissingPackageDataError(BBError):
    """A data directory the package should carry is absent (a broken install)."""


def package_data(name: str) -> Path:
    """The directory of package data ``name`` (``target_profiles``, ``_firmware``, ``_data``), resolved.

    ``_firmware`` is ``bb_edge/_firmware`` in an installed wheel and the repository's ``firmware/`` in a
    checkout (an editable install). Raises :class:`MissingPackageDataError` if neither is there.
    """
    path = _ROOT / name
    if not path.is_dir() and name in _CHECKOUT:
        path = _CHECKOUT[name]
    if not path.is_dir():
        raise MissingPackageDataError(
            f"bb-edge's {name.strip('_')} data is missing from {_ROOT}; reinstall bb-edge "
            f"(`pip install --force-reinstall bb-edge`)")
    return path.resolve()
