"""Launch the C runtime's posix MQTT node (a ``host-mqtt`` bundle) as a process of a fleet.

``bb-edge build DIR --target NODE=host-mqtt -o dist/`` writes ``dist/NODE/`` with
``bbrt-mqtt`` (firmware/ports/posix-mqtt: the bbrt node loop on libmosquitto),
``program.bbrt`` and ``run.sh`` (node name, deployment and peer ids baked in).
:func:`spawn_c_mqtt_node` starts that ``run.sh`` against the broker of a transport
URL (the same ``mqtt://`` / ``mqtts://`` URLs as ``bb-edge node``; docs/transports.md):
host, port (every member of a cluster's ``mqtt://H1:P1,H2:P2`` URL) and TLS CA become
arguments, the node's password (from ``creds=`` or the URL) goes in the environment
(``BBRT_MQTT_PASSWORD``), never on the command line.

Stop the process by pid with :func:`bb_edge.adapters.fleet.mqtt_fleet.stop_process`
(SIGTERM: it announces ``down`` and prints its counters on stderr), or publish
``stop`` on the fleet control topic.

The node takes signed program updates (``bb-edge deploy --bundles``; run.sh passes the
``ota_hmac.key`` its build provisioned) and publishes the status record of
bb_edge/adapters/ops/telemetry.py every ``status_interval`` seconds, so ``bb-edge status`` shows it.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

from bb_edge.adapters.transports.mqtt import MqttConfig, MqttError

#: exit codes of bbrt-mqtt (firmware/ports/posix-mqtt/main.c)
EXIT_STOPPED = 0
EXIT_USAGE = 2
EXIT_PROGRAM_REFUSED = 3
EXIT_BROKER_REFUSED = 4
EXIT_NO_CONNECTION = 5

_COUNTER = re.compile(r"(\w+)=(\d+)")


def member_args(cfg: MqttConfig) -> list[str]:
    """``--host``/``--port`` of the C MQTT mains: one broker, or a cluster's members as ``--host H1:P1,H2:P2``
    (ports/common/posix_mqtt.h: a lost member hands over to the next with the same session)."""
    if len(cfg.members) <= 1:
        return ["--host", cfg.host, "--port", str(cfg.port)]
    return ["--host", ",".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in cfg.members)]


def c_node_args(url: str, node: str, *, epoch_file: str | Path | None = None,
                keepalive: int | None = None, connect_timeout: float | None = None,
                status_interval: float | None = None) -> tuple[list[str], dict[str, str]]:
    """``(arguments after run.sh, extra environment)`` for ``node`` on the broker of ``url``.

    Raises :class:`~bb_edge.adapters.transports.mqtt.MqttError` for a URL the C node cannot honour
    (a client certificate: the posix port authenticates with a password only).
    """
    cfg = MqttConfig.from_url(url).for_node(node)
    if cfg.cert or cfg.key:
        raise MqttError("the C MQTT node does not take a client certificate (cert=/key=); use a password")
    args = [*member_args(cfg), "--prefix", cfg.prefix,
            "--keepalive", str(keepalive if keepalive is not None else cfg.keepalive),
            "--connect-timeout", str(connect_timeout if connect_timeout is not None else cfg.connect_timeout)]
    if cfg.username is not None:
        args += ["--user", cfg.username]
    if cfg.tls:
        if not cfg.ca:
            raise MqttError("mqtts:// for the C MQTT node needs ca=FILE (it has no system CA lookup)")
        args += ["--ca", cfg.ca] + (["--insecure"] if cfg.insecure else [])
    if epoch_file is not None:
        args += ["--epoch-file", str(epoch_file)]
    if status_interval is not None:  # seconds between status records (0: none); the node's default is 2
        if not status_interval >= 0:
            raise MqttError(f"status_interval must be >= 0 seconds, got {status_interval}")
        args += ["--status-interval", str(status_interval)]
    env = {"BBRT_MQTT_PASSWORD": cfg.password} if cfg.password is not None else {}
    return args, env


def spawn_c_mqtt_node(bundle: str | Path, url: str, node: str | None = None, *,
                      epoch_file: str | Path | None = None, keepalive: int | None = None,
                      connect_timeout: float | None = None, extra: list[str] | None = None,
                      status_interval: float | None = None, **popen: Any) -> subprocess.Popen[bytes]:
    """Start the ``host-mqtt`` bundle in ``bundle`` (its ``run.sh``) on the broker of ``url``.

    ``node`` defaults to the bundle's own node (its ``bbrt-build.json``); ``epoch_file``
    defaults to ``bundle/boot-epoch`` (the node's boot epoch, bumped on every start).
    The process gets its own session so it can be stopped by pid.
    """
    b = Path(bundle)
    run = b / "run.sh"
    if not run.is_file() or not (b / "bbrt-mqtt").is_file():
        raise MqttError(f"{b} is not a host-mqtt bundle (no run.sh / bbrt-mqtt); build it with "
                        f"`bb-edge build DIR --target NODE=host-mqtt`")
    if node is None:
        import json

        node = str(json.loads((b / "bbrt-build.json").read_text())["node"])
    args, env = c_node_args(url, node, epoch_file=epoch_file if epoch_file is not None else b / "boot-epoch",
                            keepalive=keepalive, connect_timeout=connect_timeout,
                            status_interval=status_interval)
    full_env = {**os.environ, **env, **popen.pop("env", {})}
    return subprocess.Popen(["sh", str(run), *args, *(extra or [])], env=full_env, start_new_session=True,
                            stdin=subprocess.DEVNULL, **popen)


def parse_counters(stderr: str) -> dict[str, int]:
    """The ``name=value`` counters the node prints on exit (``bbrt-mqtt:`` and ``bbrt:`` lines)."""
    out: dict[str, int] = {}
    for line in stderr.splitlines():
        if line.startswith(("bbrt-mqtt: connects=", "bbrt: frames_ok=", "bbrt: duplicates=", "bbrt-ota: ")):
            out.update({k: int(v) for k, v in _COUNTER.findall(line)})
    return out
