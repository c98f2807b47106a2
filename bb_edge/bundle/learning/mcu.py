"""MCU learning bundles: a FedAvg client on the no-heap C runtime (firmware/include/bbrt_learn.h).

``bb-edge build LEARN_DIR --target NODE=qemu-cortex-m3`` (or ``qemu-rv32``,
``host``) on a client of a FedAvg learning deployment lands here
(:mod:`bb_edge.bundle.builders.mcu_bbrt` sends learning deployments on). The bundle::

    learn.bin       the learning image the device reads from flash: its shard (x, y), settings
                    (node and server ids, epochs / local steps, batch, seed, heartbeat) and the
                    .bbrt training step (bb_edge/bbrt/train_lower.py); layout in bbrt_learn.h
    bbrt.elf | bbrt-learn   the client firmware (QEMU) or the posix build (host)
    run.sh          boots it (QEMU: the image in the flash region, boot epoch and round record
                    files through semihosting)
    manifest.json   node, ids, target, kind, the learning settings, figures, artifacts

Refusals are typed and happen before anything is built: the server or a
non-FedAvg node (``BuildError``), a codec (the client speaks raw float32),
a shard smaller than one batch, an op without a C training kernel
(``UnsupportedOpError``), a step or firmware that does not fit the target's RAM
(``FitError``, by how many bytes).
"""

from __future__ import annotations

import json
import shlex
import struct
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.bundle import BuildError, BuildRequest, BuildResult
from bb_edge.errors import BBError

__all__ = ["IMAGE_MAGIC", "LEARN_KINDS", "build_mcu_learning", "work_bytes", "write_image"]

IMAGE_MAGIC = 0x494C4242  # "BBLI"
IMAGE_VERSION = 1
IMAGE_HEADER = 96
_M32 = 0xFFFFFFFF

#: target profile -> (make goal, binutils prefix, QEMU machine kind or None for the posix build)
LEARN_KINDS: dict[str, tuple[str, str, str | None]] = {
    "qemu-cortex-m3": ("learn-cortex-m3", "arm-none-eabi-", "cortex-m3"),
    "qemu-rv32": ("learn-rv32", "riscv64-unknown-elf-", "rv32"),
    "host": ("learn-host", "", None),
    # ESP-IDF projects (bb_edge/bundle/learning/espidf.py): the goal and prefix of their size-proxy build
    "esp32": ("learn-cortex-m3", "arm-none-eabi-", "esp-idf"),
    "esp32s3": ("learn-cortex-m3", "arm-none-eabi-", "esp-idf"),
    "esp32c3": ("learn-rv32", "riscv64-unknown-elf-", "esp-idf"),
}
IMAGE = "learn.bin"
STACK_RESERVE = 4096
#: the link's largest frame body (BBRT_LINK_MTU of the MCU builds): the client's deframer holds one
LINK_MTU = 4096
#: link layer state, deframer, training and client structs of the MCU main (a lower bound, for the early check)
LINK_STATE_BYTES = 2048


def _up8(n: int) -> int:
    return (n + 7) & ~7


def work_bytes(param_count: int, n_samples: int, batch: int, features: int, max_payload: int) -> int:
    """The client's work area (``bbrt_learn_node_work_size``): models, order, batch, pending envelope, rx frame."""
    env = 96 + max_payload
    return (2 * _up8(4 * param_count) + _up8(2 * n_samples) + _up8(4 * batch * features) + _up8(4 * batch)
            + _up8(env) + _up8(LINK_MTU + 4))


def _align8(b: bytearray) -> None:
    b.extend(b"\0" * (-len(b) % 8))


def write_image(path: str | Path, *, node_id: int, server_id: int, x: np.ndarray, y: np.ndarray, epochs: int,
                steps: int, batch: int, seed: int, heartbeat_ms: int, program: bytes, name: str) -> int:
    """Write the learning image the device reads from flash (layout in bbrt_learn.h); returns its size."""
    x = np.ascontiguousarray(x, dtype="<f4")
    y = np.ascontiguousarray(y, dtype="<i4")
    if x.ndim != 2 or y.shape != (x.shape[0],):
        raise BBError(f"shard must be x [n, features] and y [n], got {x.shape} and {y.shape}")
    body = bytearray(IMAGE_HEADER)
    x_off = len(body)
    body += x.tobytes()
    _align8(body)
    y_off = len(body)
    body += y.tobytes()
    _align8(body)
    p_off = len(body)
    body += program
    _align8(body)
    raw = name.encode()[:16]
    struct.pack_into("<16I16s", body, 0, IMAGE_MAGIC, IMAGE_VERSION, len(body), node_id, server_id, x.shape[0],
                     x.shape[1], epochs, steps, batch, seed & _M32, heartbeat_ms, x_off, y_off, p_off, len(program),
                     raw)
    Path(path).write_bytes(bytes(body))
    return len(body)


def build_mcu_learning(req: BuildRequest) -> BuildResult:
    """Build the MCU FedAvg client bundle of ``req.node`` (see the module docstring)."""
    from bb_edge.bbrt import native
    from bb_edge.bbrt.errors import FitError
    from bb_edge.bbrt.firmware import elf_sizes
    from bb_edge.bbrt.qemu import qemu_command
    from bb_edge.bbrt.train_lower import check_training_fit, lower_training_step
    from bb_edge.deployment.learning import learning_clients, learning_roster
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.training.setup import build_setup

    prof = req.profile
    if prof.name not in LEARN_KINDS:
        raise BuildError(f"target {prof.name} cannot run a learning client; MCU learning clients build for "
                         f"{', '.join(LEARN_KINDS)} (or a linux-vm-*, jetson-* or ros2-* target)")
    goal, prefix, qemu = LEARN_KINDS[prof.name]
    dep = load_deployment(req.deployment_dir)
    learning = dict(dep.extra["learning"])
    strategy = str(learning.get("strategy"))
    names = dict(learning_roster(learning))
    clients = learning_clients(learning)
    if req.node not in names:
        raise BuildError(f"no node {req.node!r} in this {strategy} deployment; nodes: {', '.join(names)}")
    if strategy != "fedavg":
        raise BuildError(f"an MCU runs a FedAvg client; this deployment's strategy is {strategy}")
    if req.node not in clients:
        raise BuildError(f"{req.node} is the FedAvg server; an MCU target runs a client (c0, c1, ...): "
                         "put the server on a linux-vm-* target")
    setup = build_setup(learning, dep.directory)
    cfg = setup.cfg
    if cfg.get("codec"):
        raise BuildError(f"the MCU client sends raw float32 updates; remove codec {cfg['codec']!r} "
                         "or run this client on a Linux target")
    part = setup.parts[clients.index(req.node)]
    batch = int(cfg["batch_size"])
    if len(part.x) < batch:
        raise BuildError(f"{req.node}'s shard has {len(part.x)} samples, fewer than one batch of {batch}: "
                         "lower batch_size or give it more data")
    if len(part.x) > 65535:
        raise BuildError(f"{req.node}'s shard has {len(part.x)} samples; the MCU client takes at most 65535")
    node_id = names[req.node]
    lowered = lower_training_step(setup.program, batch, node_id)
    if prof.ram_bytes:
        check_training_fit(lowered, req.node, prof)
    x = part.x.reshape(len(part.x), -1)
    payload = max(64, _up8(4 * lowered.param_count))
    work = work_bytes(lowered.param_count, len(x), batch, x.shape[1], payload)
    if qemu is not None and prof.ram_bytes:  # refuse before a minute of compiling: the static buffers are known
        env = 96 + payload
        estimate = lowered.arena_bytes + work + 3 * env + 1024 + 32 + LINK_STATE_BYTES + STACK_RESERVE
        if estimate > prof.ram_bytes:
            raise FitError(req.node, prof.name, "ram (training client: step arena, model and update buffers, "
                           "link buffers)", estimate, prof.ram_bytes)
    out = Path(req.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    image_bytes = write_image(out / IMAGE, node_id=node_id, server_id=names["server"], x=x, y=part.y,
                              epochs=int(cfg["epochs"]), steps=int(cfg.get("local_steps") or 0), batch=batch,
                              seed=int(cfg["seed"]), heartbeat_ms=max(1, int(float(cfg["heartbeat"]) * 1000)),
                              program=lowered.blob, name=req.node)
    if qemu == "esp-idf":
        return _esp_bundle(req, out, strategy, dep, names, node_id, payload, max(8, lowered.arena_bytes), work,
                           {"param_count": lowered.param_count, "shard_samples": len(x),
                            "train_arena_bytes": lowered.arena_bytes, "train_arena_lower_bound": lowered.lower_bound,
                            "image_bytes": image_bytes})
    build = out / "build"
    native.make(goal, build, LEARN_PAYLOAD=str(payload), ARENA=str(max(8, lowered.arena_bytes)),
                LEARN_WORK=str(work), OPT="-Os")
    fw = "bbrt-learn" if qemu is None else "bbrt.elf"
    (out / fw).write_bytes((build / fw).read_bytes())
    (out / fw).chmod(0o755)
    sizes = elf_sizes(out / fw, prefix)
    for f in build.iterdir():
        f.unlink()
    build.rmdir()
    ram_need = sizes["data"] + sizes["bss"] + STACK_RESERVE
    flash_need = sizes["text"] + sizes["data"] + image_bytes
    if qemu is not None and prof.ram_bytes and ram_need > prof.ram_bytes:
        raise FitError(req.node, prof.name, "ram (training client)", ram_need, prof.ram_bytes)
    if qemu is not None and prof.flash_bytes and flash_need > prof.flash_bytes:
        raise FitError(req.node, prof.name, "flash (training client + image)", flash_need, prof.flash_bytes)
    if qemu is None:
        run = ('exec "$(dirname "$0")/bbrt-learn" "$(dirname "$0")/learn.bin" --serial "$1" '
               f'--epoch-file "$(dirname "$0")/{req.node}.epoch" --state-file "$(dirname "$0")/{req.node}.round"\n')
    else:
        cmd = qemu_command(qemu, Path(fw), Path(IMAGE), Path(f"{req.node}.epoch"), flash=False)
        cmd[-1] += f",arg={req.node}.round"
        run = 'cd "$(dirname "$0")" && exec ' + " ".join(shlex.quote(c) for c in cmd) + ' "$@"\n'
    (out / "run.sh").write_text("#!/bin/sh\n# boot the training client; its serial line is printed as a pty "
                                "(host: give the pty as $1)\n" + run)
    (out / "run.sh").chmod(0o755)
    figures: dict[str, Any] = {"param_count": lowered.param_count, "shard_samples": len(x),
                               "train_arena_bytes": lowered.arena_bytes, "train_arena_lower_bound": lowered.lower_bound,
                               "image_bytes": image_bytes, "code_bytes": sizes["text"],
                               "static_ram_bytes": sizes["data"] + sizes["bss"], "ram_need": ram_need,
                               "flash_need": flash_need}
    arts = {"image": IMAGE, "firmware": fw, "run": "run.sh", "manifest": "manifest.json"}
    manifest = {"format": "bb-edge/mcu-learning-bundle", "version": 1, "node": req.node, "node_id": node_id,
                "server_id": names["server"], "target": prof.name, "kind": "host" if qemu is None else "qemu",
                "qemu": qemu, "strategy": strategy, "role": "client", "learning": dep.extra["learning"],
                "figures": figures, "artifacts": arts}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, default=str) + "\n")
    return BuildResult(req.node, prof.name, out, {k: out / v for k, v in arts.items()}, figures)


def _esp_bundle(req: BuildRequest, out: Path, strategy: str, dep: Any, names: dict[str, int], node_id: int,
                payload: int, arena: int, work: int, figures: dict[str, Any]) -> BuildResult:
    """The ESP-IDF project of an ESP32 training client next to its learning image (espidf_learn.py)."""
    from bb_edge.bundle.learning.espidf import generate_learn_project

    project = out / "esp-idf"
    facts = generate_learn_project(project, profile=req.profile, node=req.node, node_id=node_id, image=out / IMAGE,
                                   payload=payload, arena=arena, work=work)
    figures = {**figures, **{k: facts[k] for k in ("code_bytes", "static_ram_bytes", "ram_need", "app_need",
                                                  "record_bytes", "state_partition_bytes")}}
    arts = {"image": IMAGE, "project": "esp-idf", "partitions": "esp-idf/partitions.csv", "manifest": "manifest.json"}
    manifest = {"format": "bb-edge/mcu-learning-bundle", "version": 1, "node": req.node, "node_id": node_id,
                "server_id": names["server"], "target": req.profile.name, "kind": "esp-idf", "qemu": None,
                "strategy": strategy, "role": "client", "learning": dep.extra["learning"],
                "figures": figures, "esp_idf": facts, "artifacts": arts}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, default=str) + "\n")
    return BuildResult(req.node, req.profile.name, out, {k: out / v for k, v in arts.items()}, figures)


def build(req: BuildRequest) -> BuildResult:
    """A learning node for an ``mcu-bbrt`` target: a FedAvg client where the C runtime trains, else the refusal."""
    from bb_edge.bundle.learning.linux import build_learning

    return build_mcu_learning(req) if req.profile.name in LEARN_KINDS else build_learning(req)
