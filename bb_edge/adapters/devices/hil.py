"""Hardware-in-the-loop: some nodes on devices (board, QEMU, host build), the rest in-process.

``bb-edge hil DIR --device n1=qemu:cortex-m3 --device n2=/dev/ttyUSB0`` builds
the emulated/host nodes (a board must already be flashed with its build),
starts them, runs requests through ``bb_edge.adapters.transports.inproc.InProcFleet`` and reports
per-inference latency, bytes on each serial link and the output error against
the float reference.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from bb_edge.adapters.devices.serial_devices import HostDevice, PortDevice, QemuDevice, SerialDevice
from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.report import print_report
from bb_edge.deployment.manifest import load_deployment
from bb_edge.quant.calib import fleet_tensors, load_calibration, random_calibration

SPEC_TARGET = {"qemu:cortex-m3": "qemu-cortex-m3", "qemu:rv32": "qemu-rv32", "host": "host"}


@dataclass
class HilResult:
    """Figures of one hardware-in-the-loop run."""

    latencies: list[float] = field(default_factory=list)
    link_bytes: dict[str, dict[str, int]] = field(default_factory=dict)
    max_abs_error: float = 0.0
    mean_abs_error: float = 0.0
    top1_agreement: float = 1.0
    memory: dict[str, dict[str, Any]] = field(default_factory=dict)


def parse_devices(specs: list[str]) -> dict[str, str]:
    """``NODE=SPEC`` strings -> {node: spec}."""
    out = {}
    for s in specs:
        if "=" not in s:
            raise BbrtError(f"--device {s!r}: expected NODE=SPEC "
                            "(SPEC: a serial port, qemu:cortex-m3, qemu:rv32, host)")
        node, spec = s.split("=", 1)
        out[node] = spec
    return out


def start_devices(dep_dir: Path, devices: dict[str, str], build_dir: Path, calib: Path | None,
                  console: Console) -> tuple[dict[str, SerialDevice], dict[str, dict[str, Any]], Path]:
    """Build the emulated/host nodes, print their memory reports, start every device.

    Returns the devices, their memory reports and the deployment they were built from (the build may
    have made the devices' edges int8: then it is the build output's copy, docs/bbrt.md).
    """
    from bb_edge.bundle.build import build_all

    dep = load_deployment(dep_dir)
    ids = dep.ids()
    to_build = [f"{n}={SPEC_TARGET[s]}" for n, s in devices.items() if s in SPEC_TARGET]
    built = dep_dir
    if to_build:
        results = build_all(dep_dir, to_build, build_dir, calib=calib, console=console)
        built = results[0].deployment_dir or dep_dir
    memory: dict[str, dict[str, Any]] = {}
    started: dict[str, SerialDevice] = {}
    try:
        for node, spec in devices.items():
            if node not in ids:
                raise BbrtError(f"--device {node}={spec}: no node {node!r} in {dep_dir}")
            nd = build_dir / node
            if spec in SPEC_TARGET:
                memory[node] = print_report(nd, console)
            dev: SerialDevice
            if spec == "host":
                dev = HostDevice(nd / "bbrt-host", nd / "program.bbrt", ids[node]).start()
            elif spec.startswith("qemu:"):
                dev = QemuDevice(spec.split(":", 1)[1], nd / "bbrt.elf", nd / "program.bbrt", ids[node]).start()
            else:
                dev = PortDevice(spec, ids[node]).start()
            started[node] = dev
    except BaseException:
        stop_devices(started)
        raise
    return started, memory, built


def stop_devices(devs: dict[str, SerialDevice]) -> None:
    """Stop every started device (by pid / closing its port)."""
    for d in devs.values():
        d.stop()  # type: ignore[attr-defined]


def run_hil(dep_dir: str | Path, devices: dict[str, str], *, requests: int = 8, build_dir: str | Path | None = None,
            calib: Path | None = None, console: Console | None = None) -> HilResult:
    """Run ``requests`` inferences with ``devices`` on hardware/emulators; return the figures."""
    from bb_edge.adapters.transports.inproc import InProcFleet

    console = console or Console()
    dep_dir = Path(dep_dir)
    dep = load_deployment(dep_dir)
    bdir = Path(build_dir) if build_dir else dep_dir / "hil-build"
    samples = (load_calibration(dep, calib, limit=None, static=True) if calib is not None
               else random_calibration(dep, count=requests, seed=1234))
    samples = (samples * (requests // max(1, len(samples)) + 1))[:requests]
    refs = fleet_tensors(dep, samples)
    devs, memory, built = start_devices(dep_dir, devices, bdir, calib, console)
    res = HilResult(memory=memory)
    try:
        dep = load_deployment(built)  # the build may have made the devices' edges int8 (docs/bbrt.md)
        fleet = InProcFleet(dep, external=devs)  # type: ignore[arg-type]
        errs, agree = [], 0
        for s, ref in zip(samples, refs, strict=True):
            t0 = time.perf_counter()
            out = fleet.infer(s)
            res.latencies.append(time.perf_counter() - t0)
            for o in dep.outputs:
                e = np.abs(np.asarray(out[o.name], np.float32) - ref[o.name])
                errs.append((float(e.max()), float(e.mean())))
                agree += int(np.argmax(out[o.name]) == np.argmax(ref[o.name]))
        res.max_abs_error = max(e[0] for e in errs) if errs else 0.0
        res.mean_abs_error = float(np.mean([e[1] for e in errs])) if errs else 0.0
        res.top1_agreement = agree / max(1, len(errs))
        for node, d in devs.items():
            res.link_bytes[node] = {"to_device": d.bytes_out, "from_device": d.bytes_in,
                                    "bad_frames": d.decoder.dropped,
                                    "retransmits": d.link.counters.retransmits if d.link is not None else 0}
            if d.errors:
                console.print(f"[red]{node} reported errors:[/] {d.errors}")
    finally:
        stop_devices(devs)
    t = Table(title=f"hil: {len(res.latencies)} inferences")
    t.add_column("figure")
    t.add_column("value", justify="right")
    lat = np.array(res.latencies) * 1e3
    t.add_row("latency mean / p50 / max (ms)", f"{lat.mean():.2f} / {np.median(lat):.2f} / {lat.max():.2f}")
    for node, b in res.link_bytes.items():
        t.add_row(f"{node} link bytes to / from device (per inference)",
                  f"{b['to_device'] / len(lat):.0f} / {b['from_device'] / len(lat):.0f}")
        t.add_row(f"{node} bad frames / retransmissions", f"{b['bad_frames']} / {b['retransmits']}")
    t.add_row("output max / mean abs error vs float", f"{res.max_abs_error:.5f} / {res.mean_abs_error:.5f}")
    t.add_row("top-1 agreement with float", f"{res.top1_agreement:.2%}")
    console.print(t)
    return res
