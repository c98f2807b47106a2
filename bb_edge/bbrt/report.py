"""Memory report of an MCU build: arena (planned vs lower bound), constants, code size, memory map.

``bb-edge inspect DIST/<node>`` calls :func:`is_mcu_build` and :func:`print_report`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.firmware import BUILD_JSON
from bb_edge.bbrt.format import STORE_ARENA, parse


def is_mcu_build(path: str | Path) -> bool:
    """True if ``path`` is a bbrt node build directory."""
    return (Path(path) / BUILD_JSON).is_file()


def memory_report(build_dir: str | Path) -> dict[str, Any]:
    """The memory facts of a build (see docs/bbrt.md), plus per-tensor arena placement."""
    d = Path(build_dir)
    if not is_mcu_build(d):
        raise BbrtError(f"{d} is not a bbrt build (no {BUILD_JSON}); run `bb-edge build ... --target <mcu>`")
    facts: dict[str, Any] = json.loads((d / BUILD_JSON).read_text())
    prog = parse((d / facts["program"]).read_bytes())
    facts["arena_ratio"] = (facts["arena_bytes"] / facts["arena_lower_bound"]) if facts["arena_lower_bound"] else 1.0
    # against the ONNX graph's own bound (before lowering): QUANTIZE/DEQUANTIZE copies and float32
    # edges count as overhead here; builds from before this figure fall back to the program's bound
    model = int(facts.setdefault("model_lower_bound", facts["arena_lower_bound"]))
    facts["model_arena_ratio"] = facts["arena_bytes"] / model if model else 1.0
    facts.setdefault("request_slots", 1)  # builds from before request slots
    facts.setdefault("slot_bytes", 0)
    facts.setdefault("node_arena_bytes", facts["arena_bytes"])
    facts["tensors"] = [{"index": i, "offset": t.offset, "bytes": t.nbytes, "dtype": t.dtype,
                         "shape": list(t.shape)} for i, t in enumerate(prog.tensors) if t.storage == STORE_ARENA]
    facts["ram_free"] = facts["ram_bytes"] - facts["ram_need"] if facts["ram_bytes"] else None
    facts["flash_free"] = facts["flash_bytes"] - facts["flash_need"] if facts["flash_bytes"] else None
    return facts


def _kib(n: float) -> str:
    return f"{n / 1024:.1f} KiB"


def render_memory_map(build_dir: str | Path, png_path: str | Path) -> Path:
    """Draw RAM (static, arena tensors over time) and flash (code, program) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = memory_report(build_dir)
    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [1, 2]})
    bars = [("code", r["code_bytes"], "tab:blue"), ("program", r["program_bytes"], "tab:orange")]
    bottom = 0
    for name, size, color in bars:
        ax0.bar(["flash"], [size], bottom=bottom, color=color, label=f"{name} {_kib(size)}")
        bottom += size
    slots = int(r["slot_bytes"])
    other = r["static_ram_bytes"] - r["arena_bytes"] - slots
    ax0.bar(["RAM"], [r["arena_bytes"]], color="tab:green", label=f"arena {_kib(r['arena_bytes'])}")
    if slots:
        ax0.bar(["RAM"], [slots], bottom=r["arena_bytes"], color="tab:olive",
                label=f"{r['request_slots']} request slots {_kib(slots)}")
    ax0.bar(["RAM"], [max(0, other)], bottom=r["arena_bytes"] + slots, color="tab:gray",
            label=f"rx buffer + runtime {_kib(max(0, other))}")
    ax0.set_ylabel("bytes")
    ax0.legend(fontsize=7)
    ax0.set_title(f"{r['node']} on {r['target']}")
    for t in r["tensors"]:
        ax1.barh(t["index"], t["bytes"], left=t["offset"], color="tab:green", edgecolor="k")
    ax1.axvline(r["arena_lower_bound"], color="r", ls="--", label=f"lower bound {r['arena_lower_bound']} B")
    ax1.axvline(r["arena_bytes"], color="k", ls=":", label=f"planned {r['arena_bytes']} B")
    ax1.set_xlabel("arena offset (bytes)")
    ax1.set_ylabel("tensor")
    ax1.legend(fontsize=7)
    ax1.set_title("arena plan")
    fig.tight_layout()
    out = Path(png_path)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def print_report(path: str | Path, console: Console | None = None, png: str | None = None) -> dict[str, Any]:
    """Print the memory report (and draw the map if ``png``); return the report."""
    console = console or Console()
    r = memory_report(path)
    t = Table(title=f"bbrt node {r['node']} (id {r['node_id']}) on {r['target']} [{r['precision']}]")
    t.add_column("item")
    t.add_column("bytes", justify="right")
    t.add_column("note")
    t.add_row("arena (planned)", str(r["arena_bytes"]),
              f"{r['model_arena_ratio']:.3f} x the model's activation lower bound")
    t.add_row("model lower bound", str(r["model_lower_bound"]),
              "ONNX graph before lowering: activations alive at once, views free")
    t.add_row("program lower bound", str(r["arena_lower_bound"]),
              f"with the program's own copies (float edges, QUANTIZE/DEQUANTIZE); arena {r['arena_ratio']:.3f} x")
    if r.get("patch"):  # the first stages in bands (docs/bbrt.md "Patch-based execution")
        p = r["patch"]
        t.add_row("patched", str(p["unpatched_arena"]),
                  f"arena unpatched; ops 1-{p['stage_ops']} in {p['bands']} bands, "
                  f"{p['macs'] / p['unpatched_macs'] - 1:+.1%} multiply-accumulates")
    if "slot_bytes" in r:
        t.add_row("request slots", str(r["slot_bytes"]),
                  f"{r['request_slots']} x staged Recv payloads (node arena {r['node_arena_bytes']})")
    t.add_row("constants", str(r["const_bytes"]), "weights, biases, requant tables, LUTs")
    t.add_row("program (.bbrt)", str(r["program_bytes"]), "flashed to its own region")
    t.add_row("rx buffer", str(r["rx_buffer_bytes"]), f"max payload {r['max_payload']}")
    t.add_row("runtime code", str(r["code_bytes"]), r.get("code_size_source", ""))
    t.add_row("static RAM", str(r["static_ram_bytes"]), "data + bss (arena, buffers)")
    ram_note = f"of {r['ram_bytes']} ({r['ram_free']} free)" if r["ram_bytes"] else ""
    flash_note = f"of {r['flash_bytes']} ({r['flash_free']} free)" if r["flash_bytes"] else ""
    t.add_row("RAM need", str(r["ram_need"]), ram_note)
    t.add_row("flash need", str(r["flash_need"]), flash_note)
    console.print(t)
    console.print(f"kernels linked: {', '.join(r['kernels'])}")
    if r.get("synthetic_calibration"):
        console.print("[yellow]calibrated on synthetic inputs: pass --calib for real ranges[/]")
    if png:
        console.print(f"memory map: {render_memory_map(path, png)}")
    return r
