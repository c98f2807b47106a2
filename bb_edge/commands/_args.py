"""Argument checks shared by the CLI commands.

Two kinds:

- ``type=`` validators for argparse (:func:`positive_int`, :func:`byte_sizes`,
  :func:`fleet_transport` ...): a bad option value is a usage error (exit 2)
  before any command code runs;
- output-location checks (:func:`check_output_dir`, :func:`check_output_file`)
  that a command calls first thing, so a path that is a file, lies under a
  file or cannot be written fails in one line before minutes of work.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from bb_edge.errors import BBError
from bb_edge.names import is_name

_SIZE = re.compile(r"(?i)^\s*(\d+)\s*(k|m|g|ki|mi|gi|kb|mb|gb|kib|mib|gib)?\s*$")
_UNIT = {"": 1, "k": 1000, "kb": 1000, "m": 10**6, "mb": 10**6, "g": 10**9, "gb": 10**9,
         "ki": 1 << 10, "kib": 1 << 10, "mi": 1 << 20, "mib": 1 << 20, "gi": 1 << 30, "gib": 1 << 30}


def _bounded_int(text: str, low: int, high: int | None, want: str) -> int:
    """``text`` as an integer in ``low..high`` (``high`` None: no upper bound); the message names ``want``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {want}, got {text!r}") from None
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"expected {want}, got {value}")
    return value


def positive_int(text: str) -> int:
    """An integer >= 1 (counts, node numbers)."""
    return _bounded_int(text, 1, None, "a whole number >= 1")


def non_negative_int(text: str) -> int:
    """An integer >= 0."""
    return _bounded_int(text, 0, None, "a whole number >= 0")


def non_negative_float(text: str) -> float:
    """A finite number >= 0 (seconds, rates, tolerances)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number; give a number >= 0") from None
    if not value >= 0 or value == float("inf"):  # also rejects nan
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number >= 0")
    return value


def fraction(text: str) -> float:
    """A number in [0, 1]."""
    value = non_negative_float(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"{text!r} is above 1; give a fraction between 0 and 1")
    return value


def tcp_port(text: str) -> int:
    """A TCP port number, 1..65535."""
    return _bounded_int(text, 1, 65535, "a port number 1..65535")


def byte_size(text: str) -> int:
    """A byte count: ``65536``, ``64KiB``, ``512k``, ``2MiB``, ``1G`` (k/M/G = 1000s, Ki/Mi/Gi = 1024s)."""
    m = _SIZE.match(text)
    if not m:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a byte size; give bytes as a whole number, optionally with k, M, G, KiB, MiB, GiB")
    value = int(m.group(1)) * _UNIT[(m.group(2) or "").lower()]
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is zero; give a positive byte size")
    return value


def byte_sizes(text: str) -> list[int]:
    """Comma-separated byte sizes (one value, or one per node)."""
    return [byte_size(part) for part in text.split(",")]


def name_list(text: str) -> list[str]:
    """Comma-separated distinct names, each following the name rule (bb_edge.names)."""
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise argparse.ArgumentTypeError(f"{text!r} has an empty name; separate names with single commas")
    bad = [n for n in names if not is_name(n)]
    if bad:
        raise argparse.ArgumentTypeError(f"{bad[0]!r} is not a name: use a letter, then up to 62 letters, "
                                         f"digits, '-' or '_'")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise argparse.ArgumentTypeError(f"{text!r} repeats {', '.join(dup)}; every name must be distinct")
    return names


def _check_url(text: str, allowed: tuple[str, ...], usage: str, local: bool = True) -> str:
    """Parse ``text`` with the adapter that will use it, so a bad URL fails at the command line.

    ``local``: the URL is used on this machine, so files it names (``ca=``, ``creds=`` ...) must exist.
    """
    scheme = text.split(":", 1)[0] if ":" in text else text
    if scheme not in allowed:
        raise argparse.ArgumentTypeError(f"{text!r}: unknown transport {scheme!r}; use {usage}")
    try:
        if scheme in ("mqtt", "mqtts"):
            from bb_edge.adapters.transports.mqtt import MqttConfig

            cfg = MqttConfig.from_url(text)
            if not 1 <= cfg.port <= 65535:
                raise ValueError(f"port {cfg.port} is out of range 1..65535")
            for key in ("ca", "cert", "key", "creds"):  # files named in the URL must exist before connecting
                value = getattr(cfg, key)
                if local and value and not Path(value).is_file():
                    raise ValueError(f"{key}={value} is not a file")
        elif scheme == "serial" and "fleet" in allowed:
            from bb_edge.adapters.fleet.serial_fleet import PtyFleetOptions

            PtyFleetOptions.parse(text)
        elif scheme == "serial":
            from bb_edge.adapters.transports.serial_link import SerialSpec

            SerialSpec.parse(text)
    except (BBError, ValueError, TypeError) as exc:
        # urlsplit raises ValueError for mqtt://host:abc; the adapters raise their typed errors
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}; use {usage}") from None
    return text


def fleet_transport(text: str) -> str:
    """A whole-fleet transport for ``run``: ``inproc``, ``mqtt(s)://HOST:PORT[?...]`` or ``serial://pty[?...]``."""
    return _check_url(text, ("inproc", "mqtt", "mqtts", "serial", "fleet"),
                      "inproc, mqtt://HOST:PORT, mqtts://HOST:PORT or serial://pty[?corrupt=0.01...]")


def node_transport(text: str) -> str:
    """One node's transport for ``node``: ``mqtt(s)://HOST:PORT[?...]`` or ``serial:PORT[?baud=N]``."""
    return _check_url(text, ("mqtt", "mqtts", "serial"),
                      "mqtt://HOST:PORT, mqtts://HOST:PORT or serial:///dev/ttyUSB0[?baud=N]")


def bundle_transport(text: str) -> str:
    """A transport written into bundles by ``build``: ``none`` (one-node fleets) or a node transport URL.

    Files it names live on the target, not here, so only the URL's form is checked.
    """
    if text == "none":
        return text
    return _check_url(text, ("mqtt", "mqtts", "serial"),
                      "none, mqtt://HOST:PORT, mqtts://HOST:PORT or serial:///dev/ttyUSB0[?baud=N]", local=False)


#: backends a node's bundle may compute with (``build --node-backend``)
NODE_BACKENDS = ("ort", "executorch")


def node_backend(text: str) -> tuple[str, str]:
    """``NODE=BACKEND`` (``build --node-backend``): a node name and one of :data:`NODE_BACKENDS`."""
    node, sep, backend = text.partition("=")
    if not sep or not is_name(node.strip()):
        raise argparse.ArgumentTypeError(f"expected NODE=BACKEND (e.g. n1=ort), got {text!r}")
    if backend.strip() not in NODE_BACKENDS:
        raise argparse.ArgumentTypeError(f"backend {backend!r}: expected one of {', '.join(NODE_BACKENDS)}")
    return node.strip(), backend.strip()


def target_spec(text: str) -> str:
    """argparse type: ``[NODE=]TARGET`` (a node name, then a non-empty profile name, family or .json path)."""
    node, eq, profile = text.partition("=")
    if not eq:
        node, profile = "", text
    elif not is_name(node):
        raise argparse.ArgumentTypeError(f"{text!r}: {node!r} before '=' is not a node name; use NODE=TARGET "
                                         f"(or a bare TARGET for every node)")
    if not profile.strip() or "=" in profile:
        raise argparse.ArgumentTypeError(f"{text!r}: give one target profile, family or .json file "
                                         f"(NODE=TARGET or TARGET)")
    return text


class TargetAppend(argparse.Action):
    """``--target`` repeated: each ``[NODE=]TARGET`` once per node (and one bare default), so a second
    ``--target n0=...`` is a usage error instead of silently replacing the first."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        have = list(getattr(namespace, self.dest, None) or [])
        key = str(values).partition("=")[0] if "=" in str(values) else ""
        if any((v.partition("=")[0] if "=" in v else "") == key for v in have):
            raise argparse.ArgumentError(self, f"{values!r}: " + (f"node {key!r} already has a target"
                                                                   if key else "a default target is already given")
                                         + "; give each node one --target")
        setattr(namespace, self.dest, have + [values])
