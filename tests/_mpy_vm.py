"""Shared helpers for the MicroPython tests: npm install of the wasm VM, .mpy build, script runner."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import onnx

from bb_edge.bbrt.examples import small_cnn
from bb_edge.mpy.cross import compile_package, runtime_dir

MPY_DIR = runtime_dir()


def ensure_vm() -> Path:
    """Install the npm MicroPython WebAssembly VM (npm ci, bounded) if missing; return the driver script."""
    if not (MPY_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        npm = shutil.which("npm")
        assert npm, "npm is required for the MicroPython VM tests"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--prefix", str(MPY_DIR)], check=True, timeout=300,
                       capture_output=True)
    return MPY_DIR / "run_wasm.mjs"


def build_lib(dst: Path) -> Path:
    """Bytecode .mpy files of the bbnode package under dst (only .mpy: the VM cannot fall back to .py)."""
    compile_package(dst)
    return dst


def run_vm(driver: Path, lib: Path, data: Path, script: str, timeout: float = 240.0) -> str:
    """Run ``script`` in the VM with lib on sys.path and data as cwd; return stdout (fails on a Python error)."""
    sfile = data / "_script.py"
    sfile.write_text(script)
    node = shutil.which("node")
    assert node, "node is required for the MicroPython VM tests"
    proc = subprocess.run([node, str(driver), str(lib), str(data), str(sfile)], capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f"MicroPython VM failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def cnn_without_softmax() -> onnx.ModelProto:
    """small_cnn up to the logits (every op has an allocation-free int8 kernel)."""
    m = small_cnn()
    g = m.graph
    del g.node[-1]
    del g.output[:]
    g.output.append(onnx.helper.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, [1, 10]))
    return m
