"""fp16 / int8 artifact latency and size as ratios to fp32 on this host (a real model: onnx's squeezenet).

    python bench/bench_quant.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.devices.measure import onnx_latency_ms  # noqa: E402
from bb_edge.compiler import compile_model  # noqa: E402
from bb_edge.deployment.ports import compute_model  # noqa: E402
from bb_edge.quant import quantize_compute  # noqa: E402
from bb_edge.quant.calib import fleet_tensors, node_samples, random_calibration  # noqa: E402
from tests.support.models import light  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        dep, programs = compile_model(str(light("squeezenet")), nodes=1, out_dir=Path(d) / "c")
        compute = compute_model(programs["n0"])
        samples = node_samples(compute, fleet_tensors(dep, random_calibration(dep, 8), programs))
        base_path = Path(d) / "fp32.onnx"
        base_path.write_bytes(compute.SerializeToString())
        base_ms = onnx_latency_ms(base_path, repeats=30)
        base_size = base_path.stat().st_size
        print(f"fp32: {base_size} B, {base_ms:.2f} ms (squeezenet, ONNX Runtime CPU, 1 thread)")
        for prec in ("fp16", "int8", "int8-dynamic"):
            q = quantize_compute(compute, prec, samples)
            p = Path(d) / f"{prec}.onnx"
            p.write_bytes(q.SerializeToString())
            ms = onnx_latency_ms(p, repeats=30)
            print(f"{prec:13s} size {p.stat().st_size / base_size:.3f}x  latency {ms / base_ms:.3f}x fp32")


if __name__ == "__main__":
    main()
