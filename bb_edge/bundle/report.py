"""The build report: markdown + PNG with per-node sizes, precision, error against float, latency, memory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bb_edge.bundle import BuildResult
from bb_edge.bundle.artifacts import TOLERANCE, over_tolerance


def _fmt_bytes(n: float | None) -> str:
    if n is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def _rows(results: list[BuildResult]) -> list[tuple[BuildResult, str, int, str, dict[str, Any]]]:
    """(result, artifact key, size, precision, accuracy figures) for every model artifact of the build."""
    rows = []
    for r in results:
        f: dict[str, Any] = r.figures
        acc = f.get("accuracy") or {}
        variants = f.get("variants") or {}
        for key, size in (f.get("sizes") or {}).items():
            if not key.startswith(("onnx", "pte", "ort")) or key == "ort_config":
                continue
            prec = key.split(".", 1)[1] if key.startswith("onnx.") else f.get("precision", "")
            a = variants.get(prec) or (acc if prec == f.get("precision") else {})
            rows.append((r, key, size, prec, a))
        if not any(row[0] is r for row in rows):  # a C-runtime or MicroPython node: its program is the artifact
            key, path = next(((k, p) for k, p in r.artifacts.items() if k == "program"),
                             next(iter(r.artifacts.items()), ("-", None)))
            size = f.get("program_bytes") or (path.stat().st_size if path is not None and path.is_file() else 0)
            rows.append((r, f"{key}" if path is None else path.name, int(size), str(f.get("precision", "-")), acc))
    return rows


def _num(value: object) -> str:
    return f"{value:.3g}" if isinstance(value, (int, float)) else "-"


def _latency(value: object) -> str:
    """A latency cell: milliseconds, the reason it was not measured, or "-" (not an ONNX/ExecuTorch artifact)."""
    if isinstance(value, (int, float)):
        return f"{value:.2f}"
    return str(value) if value else "-"


def flagged(results: list[BuildResult]) -> list[str]:
    """One line per artifact whose error exceeds its precision's tolerance (:data:`TOLERANCE`)."""
    out = []
    for r, key, _size, prec, a in _rows(results):
        tol = over_tolerance(prec, a.get("drop"))
        if tol is not None:
            out.append(f"node {r.node} ({r.target}) artifact {key}: {a.get('drop_name', 'error')} "
                       f"{a['drop']:.3g} exceeds the {prec} tolerance {tol:g}")
    return out


def report_markdown(results: list[BuildResult], title: str = "bb-edge build report") -> str:
    """One table row per node artifact (at least one per node): size, ratio to float, error figures,
    tolerance flag, latency on this host ("not measured: why" where a dim is symbolic or the run fails)."""
    lines = [f"# {title}", "", "| node | target | precision | artifact | size | vs float | max abs err | "
             "rel err | top-1 agree | within tolerance | latency (ms, this host) | memory est. |",
             "|---" * 12 + "|"]
    for r, key, size, prec, a in _rows(results):
        f: dict[str, Any] = r.figures
        lat = f.get("latency_ms") or {}
        fb = f.get("float_bytes") or 0
        top1 = a.get("top1_agreement")
        tol = over_tolerance(prec, a.get("drop"))
        within = "-" if a.get("drop") is None else (f"**NO** (> {tol:g})" if tol is not None else "yes")
        lines.append(
            f"| {r.node} | {r.target} | {prec} | `{key}` | {_fmt_bytes(size)} | "
            f"{f'{size / fb:.2f}x' if fb else '-'} | {_num(a.get('max_abs_error'))} | "
            f"{_num(a.get('rel_max_error'))} | "
            f"{'-' if top1 is None else f'{top1:.3f}'} | {within} | "
            f"{_latency(lat.get(key))} | {_fmt_bytes(f.get('memory_bytes') or f.get('arena_bytes'))} |")
    tols = ", ".join(f"{p} {t:g}" for p, t in TOLERANCE.items())
    lines += ["", "Errors are against the float node program on the calibration data "
              "(or seeded random inputs when no --calib was given). Latency is the median of repeated "
              "single-threaded runs on the build host, not the target.",
              "", f"Tolerances (top-1 disagreement for classifier outputs, else relative max error): {tols}. "
              "A row over its tolerance is flagged; such a precision is only built as a node's default "
              "when asked for explicitly (--precision P or --accept-inaccurate).", ""]
    flags = flagged(results)
    if flags:
        lines += ["## Over tolerance", "", *(f"- {line}" for line in flags), ""]
    return "\n".join(lines)


def report_png(results: list[BuildResult], path: Path) -> Path:
    """Bar charts: artifact size and latency per node artifact."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels, sizes, lats = [], [], []
    for r in results:
        for key, size in (r.figures.get("sizes") or {}).items():
            if key.startswith(("onnx", "pte", "ort")) and key != "ort_config":
                labels.append(f"{r.node}\n{key}")
                sizes.append(size / 1024)
                ms = (r.figures.get("latency_ms") or {}).get(key, 0.0)
                lats.append(ms if isinstance(ms, (int, float)) else 0.0)  # "not measured: ..." draws no bar
    fig, axes = plt.subplots(1, 2, figsize=(max(6, 1.2 * len(labels) + 2), 4))
    axes[0].bar(range(len(labels)), sizes, color="tab:blue")
    axes[0].set_ylabel("KiB")
    axes[0].set_title("artifact size")
    axes[1].bar(range(len(labels)), lats, color="tab:orange")
    axes[1].set_ylabel("ms (this host)")
    axes[1].set_title("latency")
    for ax in axes:
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def write_report(results: list[BuildResult], out: Path) -> tuple[Path, Path]:
    """``out/build-report.md`` and ``out/build-report.png``."""
    md = out / "build-report.md"
    md.write_text(report_markdown(results))
    return md, report_png(results, out / "build-report.png")
