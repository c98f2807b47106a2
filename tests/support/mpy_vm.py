"""Shared helpers for the MicroPython tests: npm install of the wasm VM, .mpy build, script runner."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import onnx

from bb_edge.mpy.cross import compile_package, runtime_dir
from tests.support.examples import small_cnn

MPY_DIR = runtime_dir()
# the npm harness of the MicroPython WebAssembly VM (package.json, lock file, driver) lives with the tests
VM_DIR = Path(__file__).resolve().parent / "mpy_vm"


def ensure_vm() -> Path:
    """Install the npm MicroPython WebAssembly VM (npm ci, bounded) if missing; return the driver script."""
    if not (VM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        npm = shutil.which("npm")
        assert npm, "npm is required for the MicroPython VM tests"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--prefix", str(VM_DIR)], check=True, timeout=300,
                       capture_output=True)
    return VM_DIR / "run_wasm.mjs"


def build_lib(dst: Path) -> Path:
    """Bytecode .mpy files of the bbnode package under dst (only .mpy: the VM cannot fall back to .py)."""
    compile_package(dst)
    return dst


def prepare_vm(dst: Path) -> tuple[Path, Path]:
    """The VM driver and a bytecode-only bbnode library under ``dst``, as ``run_vm`` takes them."""
    driver = ensure_vm()
    lib = build_lib(dst)
    assert not list(lib.rglob("*.py"))  # a .py would let the VM import source instead of the .mpy under test
    return driver, lib


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


# ------------------------------------------------------------- umqtt under CPython

UMQTT_VERSION = "1.3.4"
UMQTT_CACHE = VM_DIR / ".umqtt"

# The few MicroPython module names umqtt.simple and main.py import, for running them under CPython.
# usocket keeps MicroPython's stream API on a real TCP socket (read(n) blocks until n bytes or EOF and
# returns None when non-blocking with nothing to read; write(buf[, n]) writes all); nothing MQTT here.
CPYTHON_SHIMS = {
    "ustruct.py": "from struct import *  # noqa: F403\n",
    "ubinascii.py": "from binascii import *  # noqa: F403\n",
    "usocket.py": '''import socket as _socket
from socket import AF_INET, SOCK_STREAM, getaddrinfo  # noqa: F401


class socket(_socket.socket):
    """A TCP socket with MicroPython's stream methods."""

    def __init__(self, af=AF_INET, type=SOCK_STREAM, proto=0):
        super().__init__(af, type, proto)

    def read(self, n):
        buf = b""
        while len(buf) < n:
            try:
                chunk = self.recv(n - len(buf))
            except BlockingIOError:
                if not buf:
                    return None
                self.setblocking(True)
                continue
            if not chunk:
                break
            buf += chunk
        return buf

    def write(self, data, n=None):
        if isinstance(data, str):
            data = data.encode()
        data = memoryview(data)[:n] if n is not None else memoryview(data)
        self.sendall(data)
        return len(data)
''',
    "network.py": '''STA_IF = 0


class WLAN:
    """The host's network is already up."""

    def __init__(self, iface):
        pass

    def active(self, on=None):
        return True

    def connect(self, ssid, password):
        pass

    def isconnected(self):
        return True
''',
}


def fetch_umqtt(version: str = UMQTT_VERSION) -> Path:
    """micropython-lib's umqtt.simple from PyPI (``micropython-umqtt.simple``), cached under firmware/micropython.

    The sdist has no setup.py, so pip cannot install it; ``pip download --no-clean`` still fetches and
    unpacks it, and the unpacked ``umqtt/simple.py`` is copied out. Returns the directory to put on sys.path.
    """
    import os
    import tempfile

    dst = UMQTT_CACHE / version
    if (dst / "umqtt" / "simple.py").is_file():
        return dst
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-clean", "-d", f"{tmp}/dl",
                        f"micropython-umqtt.simple=={version}"], capture_output=True, timeout=180,
                       env=dict(os.environ, TMPDIR=tmp))
        found = sorted(Path(tmp).glob("pip-*/*/umqtt/simple.py"))
        assert found, f"pip download of micropython-umqtt.simple=={version} did not unpack umqtt/simple.py"
        (dst / "umqtt").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(found[0], dst / "umqtt" / "simple.py")
        pkg = found[0].parent.parent.glob("*.egg-info/PKG-INFO")
        for p in pkg:
            shutil.copyfile(p, dst / "PKG-INFO")
        (dst / "umqtt" / "__init__.py").write_text("")
    return dst


def write_shims(dst: Path) -> Path:
    """Write :data:`CPYTHON_SHIMS` into ``dst``; return it."""
    dst.mkdir(parents=True, exist_ok=True)
    for name, text in CPYTHON_SHIMS.items():
        (dst / name).write_text(text)
    return dst


def mqtt_node_dir(bundle: Path, dst: Path, mqtt: dict[str, object]) -> Path:
    """The bundle with config.json filled in (broker address, password) as an operator would."""
    shutil.copytree(bundle, dst)
    cfg = json.loads((dst / "config.json").read_text())
    assert cfg["transport"] == "mqtt" and cfg["mqtt"]["deployment"]
    cfg["mqtt"].update(mqtt)
    cfg["max_payload"] = 65536
    (dst / "config.json").write_text(json.dumps(cfg))
    return dst


def cpython_paths(tmp: Path) -> list[str]:
    """sys.path entries that host bbnode under CPython: the MicroPython shims, umqtt and the bbnode sources."""
    return [str(write_shims(tmp / "shims")), str(fetch_umqtt()), str(MPY_DIR)]
