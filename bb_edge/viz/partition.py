"""Draw a deployment's partition: nodes as boxes, edges labelled with bytes per inference."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

from bb_edge.deployment.manifest import Deployment  # noqa: E402


def human_bytes(n: float) -> str:
    """1536 -> '1.5 KiB'."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def draw_partition(dep: Deployment, path: str | Path) -> Path:
    """Write a PNG (or SVG, by suffix) of the partition and return its path."""
    n = len(dep.nodes)
    fig_w = max(6.0, 3.2 * n)
    fig, ax = plt.subplots(figsize=(fig_w, 4.2))
    ax.set_xlim(0, n * 3.2)
    ax.set_ylim(0, 4.2)
    ax.axis("off")
    pos: dict[str, tuple[float, float]] = {}
    total_flops = sum(x.flops for x in dep.nodes) or 1.0
    for i, node in enumerate(dep.nodes):
        x, y = 0.4 + i * 3.2, 1.6
        pos[node.name] = (x, y)
        share = node.flops / total_flops
        ax.add_patch(FancyBboxPatch((x, y), 2.2, 1.4, boxstyle="round,pad=0.05",
                                    fc=plt.cm.viridis(0.25 + 0.6 * share), ec="black", alpha=0.85))
        ax.text(x + 1.1, y + 1.1, f"{node.name} (id {node.id})", ha="center", fontsize=10, weight="bold",
                color="white")
        ax.text(x + 1.1, y + 0.7, f"{node.ops} ops, {share:.0%} FLOPs", ha="center", fontsize=8, color="white")
        ax.text(x + 1.1, y + 0.35, f"params {human_bytes(node.param_bytes)}", ha="center", fontsize=8,
                color="white")
        ax.text(x + 1.1, y + 0.08, f"peak act {human_bytes(node.peak_activation_bytes)}", ha="center",
                fontsize=7, color="white")
    for k, e in enumerate(dep.edges):
        (x0, y0), (x1, _) = pos[e.src], pos[e.dst]
        forward = x1 > x0
        lane = (k % 3) * 0.25
        sy = y0 + 1.4 + 0.1 + lane if forward else y0 - 0.1 - lane
        start = (x0 + (2.2 if forward else 0.0), sy)
        end = (x1 + (0.0 if forward else 2.2), sy)
        ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12,
                                     connectionstyle=f"arc3,rad={-0.25 if forward else 0.25}", color="black"))
        mx = (start[0] + end[0]) / 2
        ax.text(mx, sy + (0.45 if forward else -0.55), f"#{e.id} {e.tensor[:18]}\n{human_bytes(e.bytes_per_inference)}",
                ha="center", fontsize=7)
    for io in dep.inputs:
        x, y = pos[io.node]
        ax.annotate(f"in: {io.name[:16]}", (x + 0.2, y), xytext=(x + 0.2, 0.3), fontsize=7,
                    arrowprops={"arrowstyle": "-|>", "color": "gray"})
    for io in dep.outputs:
        x, y = pos[io.node]
        ax.annotate(f"out: {io.name[:16]}", (x + 2.0, 0.3), xytext=(x + 1.4, 0.3), fontsize=7,
                    textcoords="data", xycoords="data",
                    arrowprops={"arrowstyle": "<|-", "color": "gray"})
    ax.set_title(f"deployment {dep.name}: {n} nodes, "
                 f"{human_bytes(sum(e.bytes_per_inference for e in dep.edges))} across cuts per inference")
    out = Path(path)
    fig.savefig(out, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return out
