"""Builder for profiles whose ``builder`` is ``micropython``: a node on stock MicroPython firmware.

The bundle (``request.out_dir``):

    lib/bbnode/*.mpy   the node runtime compiled by mpy-cross (-march from the profile's ``mpy_march``)
    main.py            starts the node (config.json + program.bbrt) on boot
    config.json        node name/id, transport (serial UART pins or MQTT), payload limit
    program.bbrt       the node program, lowered like the C runtime's (same bytes, same outputs)
    ota_hmac.key       the node's HMAC-SHA-256 update key (hex, 0600; kept when rebuilt into the same DIST)
    ota_active         the A/B slot pointer reset to "built" (bb_edge/mpy/ota.py)
    build.json         what was built (read by ``bb-edge flash`` / :mod:`bb_edge.mpy.flash`)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from bb_edge.bbrt.format import Op
from bb_edge.bundle import BuildError, BuildRequest, BuildResult, lower_request
from bb_edge.mpy.cross import MARCH, compile_package, runtime_dir

BUILD_JSON = "build.json"
#: opcodes the MicroPython executor implements (firmware/micropython/bbnode/executor.py ``KERNELS``, and
#: bbnode/kernels_ext.py's; CONV_I8's p11 too). Not SVDF_I8: its state needs a session slot the node has not.
MPY_OPCODES = frozenset(range(1, 27)) | {Op.TRANSPOSE, Op.GATHER_AXES, Op.GATHER, Op.MAXMIN_I8, Op.PRELU_I8,
                                         Op.RESIZE_BILINEAR_I8, Op.BATCH_MATMUL_I8}


def node_config(request: BuildRequest, node_id: int, peers: dict[int, str], deployment: str) -> dict[str, Any]:
    """The config.json of one node."""
    prof = request.profile
    transport = str(request.options.get("transport") or prof.get("transport", "serial"))
    cfg: dict[str, Any] = {"name": request.node, "node_id": node_id, "deployment": deployment,
                           "program": "program.bbrt", "transport": transport,
                           "max_payload": int(prof.get("max_payload", 4096)),
                           "peers": {str(k): v for k, v in sorted(peers.items())}}
    if transport == "mqtt":
        cfg["mqtt"] = {"host": str(request.options.get("mqtt_host", "192.168.1.10")), "port": 1883,
                       "deployment": deployment, "prefix": "bb", "keepalive": 30,
                       "password": None}  # fill in from the broker's credentials.json (user = node name)
        cfg["wifi"] = {"ssid": "", "password": ""}
    else:
        cfg["uart"] = dict(prof.get("uart", {"id": 1, "baud": 921600}))
        # the link layer of docs/wire.md (bbnode/link.py): times in ms, sizes in bytes
        max_env = 96 + int(cfg["max_payload"])
        # RAM: window x max_frame (frames in flight) + queue_bytes + reassembly_budget, ~33 KB at 4 KiB;
        # the queue holds every output envelope until it is acknowledged (build() sizes it for two
        # inferences' outputs: 12 bytes of queue header + 96 of envelope header + data per Send edge)
        cfg["link"] = {"enabled": True, "max_frame": min(4096, max_env + 8), "window": 4,
                       "rto_initial": 200, "rto_min": 20, "rto_max": 2000, "max_retries": 100,
                       "hb_interval": 500, "dead_after": 2000, "reassembly_budget": 2 * max_env,
                       "reassembly_timeout": 30000, "queue_bytes": 2 * (max_env + 12)}
    return cfg


def build(request: BuildRequest) -> BuildResult:
    """Build one MicroPython node bundle into ``request.out_dir``."""
    dep, L, precision = lower_request(request)
    lacking = sorted({f"{op.name or '?'} ({Op(op.opcode).name})" for op in L.program.ops
                      if int(op.opcode) not in MPY_OPCODES})
    if lacking:  # refused here, not by the executor's loader on the device
        raise BuildError(f"node {request.node!r}: the MicroPython executor has no kernel for {', '.join(lacking)}; "
                         f"build this node for a C-runtime target (e.g. --target {request.node}=host)")
    prof = request.profile
    march = str(prof.get("mpy_march", MARCH.get(prof.arch, "")))
    if march not in ("", "xtensawin", "rv32imc", "armv7emsp", "armv6m", "x64"):
        raise BuildError(f"target {prof.name!r}: unsupported mpy_march {march!r}")
    out = Path(request.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    mpys = compile_package(out / "lib", march)
    shutil.copyfile(runtime_dir() / "main.py", out / "main.py")
    (out / "program.bbrt").write_bytes(L.blob)
    node_id = L.program.node_id
    peers = {n.id: n.name for n in dep.nodes}
    cfg = node_config(request, node_id, peers, dep.name)
    pv = dep.extra.get("program_version")
    if isinstance(pv, str) and pv:  # shown by bb-edge status (bbnode/status.py)
        cfg["program_version"] = pv
    # over-the-air updates: the per-node HMAC key and the slot pointer (bb_edge/mpy/ota.py)
    from bb_edge.mpy.ota import ACTIVE_FILE, OTA_KEY_FILE, provision

    cfg["ota"] = provision(out, out.parent / request.node, len(L.blob), prof.get("ota_max_program"))
    if "link" in cfg:
        outs = sum(12 + 96 + L.program.tensors[e.tensor].nbytes for e in L.program.edges if e.direction == 1)
        cfg["link"]["queue_bytes"] = max(cfg["link"]["queue_bytes"], 2 * outs)
    (out / "config.json").write_text(json.dumps(cfg, indent=1) + "\n")
    files = ["main.py", "config.json", "program.bbrt", OTA_KEY_FILE, ACTIVE_FILE]
    files += [str(p.relative_to(out)) for p in mpys]
    code_bytes = sum(p.stat().st_size for p in mpys)
    facts = {"target": prof.name, "node": request.node, "builder": "micropython", "mpy_march": march,
             "precision": precision, "files": files, "program_bytes": len(L.blob),
             "arena_bytes": L.program.arena_size, "code_bytes": code_bytes,
             "synthetic_calibration": request.calib is None}
    (out / BUILD_JSON).write_text(json.dumps(facts, indent=1) + "\n")
    artifacts = {"main": out / "main.py", "config": out / "config.json", "program": out / "program.bbrt",
                 "lib": out / "lib", "build": out / BUILD_JSON}
    figures = {"arena_bytes": L.program.arena_size, "arena_lower_bound": L.program.arena_lower_bound,
               "const_bytes": L.program.const_bytes(), "code_bytes": code_bytes, "program_bytes": len(L.blob)}
    figures["precision"] = precision  # the build report names it
    return BuildResult(node=request.node, target=prof.name, out_dir=out, artifacts=artifacts, figures=figures)
