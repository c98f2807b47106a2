"""Names are identifiers, and generated config files are written by one quoting helper.

One rule holds for every name a user or a manifest chooses (node, stage, standby, deployment, site, topic
prefix): :data:`NAME_PATTERN`, a letter then up to 62 letters, digits, ``-`` or ``_``. Such a name is a
safe file name, MQTT topic level, Mosquitto user, C identifier suffix and shell word, so nothing that
builds a path or a config from it needs to escape it. Identities starting with ``_`` (``_host``,
``_status``, ``_bridge_SITE`` ...) are reserved for the infrastructure and never match the rule.

:func:`config_value` is the one place a value enters a generated config file (Mosquitto's conf, passwd and
acl, systemd units, ROS launch files, ESP-IDF sdkconfig): it quotes the value for that format or raises
:class:`ConfigValueError` for what the format cannot represent (a newline anywhere, a ``:`` in a passwd
user, a wildcard in an ACL topic ...).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from typing import Literal

from bb_edge.errors import BBError

#: the one rule for user-chosen names (also in bb_edge/deployment/schema.json as $defs/name)
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]{0,62}$"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,62}")
#: an infrastructure identity: ``_`` then a name (``_host``, ``_status``, ``_bridge_site1``)
_RESERVED = re.compile(r"_[A-Za-z0-9][A-Za-z0-9_-]{0,62}")


class BadNameError(BBError):
    """A node, stage, deployment, site or prefix name is not an identifier."""

    fix = "use a letter, then up to 62 letters, digits, '-' or '_' (e.g. n1, camera-front, site_2)"


class ConfigValueError(BBError):
    """A value cannot be written into a generated config file without changing its meaning."""

    fix = "use a name matching ^[A-Za-z][A-Za-z0-9_-]{0,62}$ and paths without control characters"


def is_name(value: object) -> bool:
    """True when ``value`` is a string following the name rule."""
    return isinstance(value, str) and _NAME.fullmatch(value) is not None


def check_name(value: object, what: str) -> str:
    """``value`` if it follows the name rule; :class:`BadNameError` naming ``what`` otherwise."""
    if not is_name(value):
        raise BadNameError(f"{what} {value!r} is not a name: use a letter, then up to 62 letters, digits, "
                           f"'-' or '_'")
    return str(value)


def check_names(values: Iterable[object], what: str) -> list[str]:
    """Every value of ``values`` checked with :func:`check_name`."""
    return [check_name(v, what) for v in values]


def is_identity(value: object) -> bool:
    """A name, or a reserved infrastructure identity (``_host``, ``_bridge_site1`` ...)."""
    return is_name(value) or (isinstance(value, str) and _RESERVED.fullmatch(value) is not None)


def cli_name(text: str) -> str:
    """argparse ``type=`` for an option that takes one name (exit 2 with the rule otherwise)."""
    if not is_name(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a name: use a letter, then up to 62 letters, "
                                         f"digits, '-' or '_'")
    return text


ConfigKind = Literal["conf", "passwd_user", "acl_user", "acl_topic", "systemd", "kconfig", "python", "xml"]
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def config_value(value: str, kind: ConfigKind, where: str = "value") -> str:
    """``value`` as it must appear in a generated config of ``kind``; ConfigValueError if it cannot.

    - ``conf``: a Mosquitto option's value (the rest of the line): no control characters;
    - ``passwd_user`` / ``acl_user``: an identity (:func:`is_identity`);
    - ``acl_topic``: a topic without control characters or spaces; ``+``/``#`` only as whole levels;
    - ``systemd``: a double-quoted word with ``%``, ``\\``, ``"`` and ``$`` escaped;
    - ``kconfig``: a double-quoted sdkconfig string (``\\`` and ``"`` escaped);
    - ``python``: a Python string literal; ``xml``: XML attribute text (both escape everything but
      control characters, which are refused so that a reviewer reads exactly what runs).
    """
    if not isinstance(value, str):
        raise ConfigValueError(f"{where} {value!r} is not text")
    if _CONTROL.search(value):
        raise ConfigValueError(f"{where} {value!r} holds a control character (newline, tab ...), which would "
                               f"change the generated {kind} file")
    if kind in ("passwd_user", "acl_user"):
        if not is_identity(value):
            raise ConfigValueError(f"{where} {value!r} cannot be a broker user: use a name")
        return value
    if kind == "acl_topic":
        levels = value.split("/")
        if " " in value or not value or any(("+" in lv or "#" in lv) and lv not in ("+", "#") for lv in levels) \
                or ("#" in levels and levels.index("#") != len(levels) - 1):
            raise ConfigValueError(f"{where} {value!r} is not a valid ACL topic (no spaces; + and # only as "
                                   f"whole levels, # last)")
        return value
    if kind == "conf":
        return value
    if kind == "systemd":
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%").replace("$", "$$") + '"'
    if kind == "kconfig":
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if kind == "python":
        return repr(value)
    if kind == "xml":
        return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
                .replace("'", "&apos;"))
    raise ConfigValueError(f"unknown config kind {kind!r}")
