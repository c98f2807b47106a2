"""C FedAvg clients straight on MQTT: the posix-mqtt build of the C training client (``bbrt-learn-mqtt``).

``firmware/ports/posix-mqtt/learn_main.c`` runs the C FedAvg client of
``firmware/include/bbrt_learn.h`` as one small OS process on a broker, with the
envelope, topics and credentials of the Python clients: no serial line, no
bridge process. A learning fleet mixes it with Python clients and the Python
server (:class:`~bb_edge.adapters.learn.fleet.LearningFleet` ``commands``).

- :func:`build_client` compiles the binary once (``make learn-host-mqtt``);
- :func:`write_client_images` writes each client's learning image (its shard,
  settings and the .bbrt training step, bb_edge/bundle/learning/mcu.py's layout);
- :func:`client_argv` is the command line of one client process.

The client's batch order is :func:`~bb_edge.adapters.learn.mcu_fleet.round_batches`,
so :func:`~bb_edge.adapters.learn.mcu_fleet.reference_update` recomputes its updates.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from bb_edge.bundle.learning.mcu import write_image
from bb_edge.errors import BBError

__all__ = ["BINARY", "build_client", "client_argv", "write_client_images"]

BINARY = "bbrt-learn-mqtt"
#: the largest model envelope of this build (float32 parameters x 4 bytes)
PAYLOAD = 65536


def build_client(build_dir: str | Path) -> Path:
    """Compile ``bbrt-learn-mqtt`` into ``build_dir`` (libmosquitto); returns the executable."""
    from bb_edge.bbrt import native

    out = native.make("learn-host-mqtt", Path(build_dir), LEARN_PAYLOAD=str(PAYLOAD))
    return out / BINARY


def write_client_images(deployment_dir: str | Path, names: Sequence[str], out_dir: str | Path) -> dict[str, Path]:
    """The learning image of each client in ``names`` (``out_dir/NAME.bin``) from a FedAvg deployment."""
    from bb_edge.bbrt.train_lower import lower_training_step
    from bb_edge.deployment.learning import learning_roster
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.training.setup import build_setup

    dep = load_deployment(deployment_dir)
    learning = dict(dep.extra["learning"])
    if learning.get("strategy") != "fedavg":
        raise BBError(f"the C MQTT client runs FedAvg; this deployment's strategy is {learning.get('strategy')}")
    setup = build_setup(learning, dep.directory)
    cfg = setup.cfg
    if cfg.get("codec"):
        raise BBError(f"the C client sends raw float32 updates; remove codec {cfg['codec']!r}")
    ids = dict(learning_roster(learning))
    clients = [n for n in ids if n != "server"]
    batch = int(cfg["batch_size"])
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    blob = lower_training_step(setup.program, batch, 0).blob
    if 4 * setup.program.layout.size > PAYLOAD:
        raise BBError(f"the model has {setup.program.layout.size} parameters; bbrt-learn-mqtt takes at most "
                      f"{PAYLOAD // 4}")
    paths: dict[str, Path] = {}
    for name in names:
        if name not in clients:
            raise BBError(f"no client {name!r} in {deployment_dir}; clients: c0..c{len(clients) - 1}")
        part = setup.parts[clients.index(name)]
        if len(part.x) < batch:
            raise BBError(f"{name}'s shard has {len(part.x)} samples, fewer than one batch of {batch}: lower "
                          "batch_size or give it more data")
        paths[name] = out / f"{name}.bin"
        write_image(paths[name], node_id=ids[name], server_id=ids["server"], x=part.x.reshape(len(part.x), -1),
                    y=part.y, epochs=int(cfg["epochs"]), steps=int(cfg.get("local_steps") or 0), batch=batch,
                    seed=int(cfg["seed"]), heartbeat_ms=max(1, int(float(cfg["heartbeat"]) * 1000)), program=blob,
                    name=name)
    return paths


def client_argv(exe: str | Path, image: str | Path, node: str, deployment: str, url: str, *,
                start_file: str | Path | None = None, progress: str | Path | None = None,
                state_dir: str | Path | None = None, drop: float = 0.0, drop_seed: int = 0,
                lose_update: int = 0, first_member: int = 0, backoff_max: float = 0.0,
                connect_spread: float = 0.0) -> list[str]:
    """The command line of one C client process on the broker of ``url`` (``mqtt://HOST:PORT[?creds=F]``;
    a cluster's ``mqtt://H1:P1,H2:P2,H3:P3[?creds=F]``: the client hands over to the next member when its own
    goes away).

    A fleet on a cluster: ``first_member`` (e.g. the client's index) rotates the member list so that clients
    start spread over the members, not all on the first; ``backoff_max`` caps its reconnect back-off (seconds;
    0: the client's 2); ``connect_spread`` makes its first connection wait a random 0..S seconds.
    """
    from bb_edge.adapters.fleet.c_mqtt_node import member_args
    from bb_edge.adapters.transports.mqtt import MqttConfig

    u = urlsplit(url)
    query = parse_qs(u.query)
    if u.scheme != "mqtt" or set(query) - {"creds"}:
        raise BBError(f"{url!r}: the C MQTT client takes mqtt://HOST:PORT[,HOST:PORT...][?creds=credentials.json] "
                      "(no TLS in this build; put the broker on loopback or a trusted link)")
    cfg = MqttConfig.from_url(url)  # its MqttError is a BBError: one line
    if len(cfg.members) > 1:
        k = first_member % len(cfg.members)
        cfg.members = cfg.members[k:] + cfg.members[:k]
    argv = [str(exe), str(image), "--name", node, "--deployment", deployment, *member_args(cfg)]
    if "creds" in query:  # the broker's credentials.json (bb-edge broker): the client reads its own entry
        argv += ["--creds", query["creds"][0]]
    if start_file is not None:
        argv += ["--start-file", str(start_file)]
    if progress is not None:
        argv += ["--progress", str(progress)]
    if state_dir is not None:
        Path(state_dir).mkdir(parents=True, exist_ok=True)
        argv += ["--epoch-file", str(Path(state_dir) / f"{node}.epoch"),
                 "--state-file", str(Path(state_dir) / f"{node}.round")]
    if drop > 0.0:
        argv += ["--drop", repr(float(drop)), "--drop-seed", str(int(drop_seed))]
    if backoff_max > 0.0:
        argv += ["--backoff-max", repr(float(backoff_max))]
    if connect_spread > 0.0:
        argv += ["--connect-spread", repr(float(connect_spread))]
    if lose_update > 0:  # fault injection (tests): round lose_update's first UPDATE is never published
        argv += ["--lose-update", str(int(lose_update))]
    return argv
