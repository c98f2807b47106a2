"""A FedAvg training client for stock MicroPython (``bb-edge build LEARN_DIR --target cN=esp32-micropython``).

The micropython builder lands here for a learning deployment. The bundle::

    lib/bbnode/*.mpy   the node runtime, with train.py and learn_client.py (mpy-cross, the profile's -march)
    main.py            boot script: config.json's ``learn`` section starts the training client
    config.json        node name/id, the server's id, MQTT broker (fill in host/password) and Wi-Fi, or with
                       ``--transport serial`` the UART and link-layer settings (a host bridge,
                       bb_edge/adapters/learn/mcu_fleet.py, relays the line to the broker), and ``learn``
    train.bbt          the deployment's ONNX training program as a BBT1 description (bb_edge/mpy/train.py)
    shard.bbs          this client's partition of the training data (BBS1)
    build.json         what was built, with the device RAM the trainer and the shard take

Refused with a typed error: a node that is not a FedAvg client (the server and other strategies run on
Linux-class targets), a codec or ``local_steps`` (the device exchanges raw float32 vectors and trains whole
epochs), a training program the device cannot run (``UnsupportedTrainingModel``), and a client whose
trainer + shard RAM exceeds the profile's ``ram_bytes`` (``FitError``, saying by how much).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.bbrt.errors import FitError
from bb_edge.bundle import BuildError, BuildRequest, BuildResult
from bb_edge.mpy.cross import MARCH, compile_package, runtime_dir

__all__ = ["build_training_client"]


def build_training_client(request: BuildRequest) -> BuildResult:
    """Build the MicroPython FedAvg client bundle of ``request.node`` (see the module docstring)."""
    from bb_edge.deployment.learning import learning_clients, learning_roster
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.mpy.train import (
        describe,
        export_description,
        export_shard,
        shard_ram,
        trainer_ram,
    )
    from bb_edge.training.setup import build_setup

    dep = load_deployment(request.deployment_dir)
    learning = dep.extra["learning"]
    m = re.fullmatch(r"c(\d+)", request.node)
    shards = isinstance(learning.get("data"), dict) and learning["data"].get("shards") is not None
    strategy = str(learning.get("strategy"))
    if strategy != "fedavg":
        raise BuildError(f"target {request.profile.name}: a MicroPython node can be a FedAvg client only, this "
                         f"deployment runs {strategy}; build its nodes for linux-vm-*, jetson-* or ros2-*")
    ids = dict(learning_roster(learning))
    clients = learning_clients(learning)
    if request.node not in ids:
        raise BuildError(f"no node {request.node!r} in this fedavg deployment; nodes: {', '.join(ids)}")
    if request.node not in clients:
        raise BuildError(f"{request.node} is the FedAvg server: build it for a linux-vm-*, jetson-* or ros2-* "
                         "target; MicroPython nodes are clients")
    setup = build_setup(learning, dep.directory, only_client=int(m.group(1)) if (m and shards) else None)
    cfg = setup.cfg
    if cfg.get("codec"):
        raise BuildError(f"codec {cfg['codec']!r}: the MicroPython client exchanges raw float32 models and "
                         "updates; remove 'codec' from the learning config")
    if int(cfg.get("local_steps") or 0):
        raise BuildError("local_steps: the MicroPython client trains whole epochs; set 'epochs' instead")
    transport = str(request.options.get("transport") or "mqtt")
    if transport.startswith("serial"):
        transport = "serial"
    if transport not in ("mqtt", "serial"):
        raise BuildError(f"a MicroPython training client talks MQTT or serial (got --transport {transport})")
    arith = str(request.options.get("train_arith") or "float")
    if arith not in ("float", "int"):
        raise BuildError(f"--train-arith {arith}: 'float' (bbnode/train.py) or 'int' (bbnode/train_int.py)")
    part = setup.parts[clients.index(request.node)]
    layers = describe(setup.program, setup.forward)
    batch = int(cfg["batch_size"])
    desc = export_description(setup.program, setup.forward, batch_size=batch, epochs=int(cfg["epochs"]),
                              seed=int(cfg["seed"]))
    shard = export_shard(part.x, part.y)
    small = shard[10] == 1
    prof = request.profile
    opt = setup.program.optimizer
    need = trainer_ram(layers, batch, bool(getattr(opt, "momentum", 0.0))) + shard_ram(len(part.x), part.x.shape[1],
                                                                                         small)
    if arith == "int":  # IntTrainer: the model as float32 for the wire, the shard's features as encodings
        need += 4 * int(setup.program.layout.size) + (4 * 256 if small else 4 * len(part.x) * part.x.shape[1])
    if prof.ram_bytes and need > prof.ram_bytes:
        # the trainer's buffers and the shard (more clients give smaller shards; a smaller batch or model)
        raise FitError(request.node, prof.name, "ram", need, int(prof.ram_bytes))
    march = str(prof.get("mpy_march", MARCH.get(prof.arch, "")))
    out = Path(request.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    mpys = compile_package(out / "lib", march)
    shutil.copyfile(runtime_dir() / "main.py", out / "main.py")
    (out / "train.bbt").write_bytes(desc)
    (out / "shard.bbs").write_bytes(shard)
    config: dict[str, Any] = {
        "name": request.node, "node_id": ids[request.node], "deployment": dep.name, "transport": transport,
        "peers": {str(ids["server"]): "server"},
        "learn": {"role": "fedavg-client", "program": "train.bbt", "shard": "shard.bbs",
                  "epochs": int(cfg["epochs"]), "seed": int(cfg["seed"]), "server_id": ids["server"],
                  "state": "learn.state",  # the round record (bbnode/learn_client.FedAvgClient.save_state)
                  "heartbeat_ms": int(round(1000 * float(cfg["heartbeat"])))}}
    if arith == "int":  # bbnode/learn_client.main trains with bbnode/train_int.IntTrainer
        config["learn"]["arith"] = "int"
    if transport == "mqtt":
        config["mqtt"] = {"host": str(request.options.get("mqtt_host", "192.168.1.10")), "port": 1883,
                          "deployment": dep.name, "prefix": "bb", "keepalive": 30,
                          "password": None}  # fill in from the broker's credentials.json (user = node name)
        config["wifi"] = {"ssid": "", "password": ""}
    else:  # the UART and the link layer (bbnode/learn_client.SerialClient); a host bridge relays to the broker
        max_env = 96 + 4 * int(setup.program.layout.size)
        config["uart"] = dict(prof.get("uart", {"id": 1, "baud": 921600}))
        # frames of at most 512 bytes (a model arrives in fragments); a round trains for seconds between
        # link polls on a slow device, so the peer is declared dead only after 30 s of silence
        config["link"] = {"enabled": True, "max_frame": 512, "window": 4, "rto_initial": 1000, "rto_min": 200,
                          "rto_max": 4000, "max_retries": 200, "hb_interval": 500, "dead_after": 30000,
                          "reassembly_budget": 2 * max_env, "reassembly_timeout": 30000,
                          "queue_bytes": 3 * (max_env + 12) + 1024}
    (out / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    files = ["main.py", "config.json", "train.bbt", "shard.bbs"] + [str(p.relative_to(out)) for p in mpys]
    code_bytes = sum(p.stat().st_size for p in mpys)
    facts = {"target": prof.name, "node": request.node, "builder": "micropython", "role": "fedavg-client",
             "mpy_march": march, "files": files, "layers": [[L.n_in, L.n_out, L.relu] for L in layers],
             "params": int(setup.program.layout.size), "samples": len(part.x), "shard_uint8": small,
             "ram_need": need, "ram_bytes": prof.ram_bytes, "code_bytes": code_bytes,
             "description_bytes": len(desc), "shard_bytes": len(shard), "train_arith": arith,
             "labels": np.bincount(np.asarray(part.y, np.int64), minlength=layers[-1].n_out).tolist()}
    (out / "build.json").write_text(json.dumps(facts, indent=1) + "\n")
    artifacts = {"main": out / "main.py", "config": out / "config.json", "program": out / "train.bbt",
                 "shard": out / "shard.bbs", "lib": out / "lib", "build": out / "build.json"}
    figures = {"ram_need": need, "code_bytes": code_bytes, "description_bytes": len(desc), "shard_bytes": len(shard),
               "params": int(setup.program.layout.size), "samples": len(part.x)}
    return BuildResult(node=request.node, target=prof.name, out_dir=out, artifacts=artifacts, figures=figures)
