"""The MicroPython training client of a learning fleet run as a process: hosted by CPython from its bundle
(CI), or in the real MicroPython VM behind a CPython MQTT bridge (BB_EDGE_LONG=1)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from tests.support.mpy_vm import cpython_paths, prepare_vm

LONG = os.environ.get("BB_EDGE_LONG") == "1"  # the client in the real MicroPython VM

LAUNCH = """import os, runpy, sys
os.chdir({here!r})
sys.path[:0] = {paths!r}
runpy.run_path("main.py", run_name="__main__")
"""


# The FedAvg client in the real MicroPython VM (the bundle's own lib/bbnode/*.mpy, train.bbt, shard.bbs), one
# line per input: "T ms" (tick), "E hex" (an envelope), "H" (hello); it answers "S hex" (an envelope to
# send), "V json" (an event) and "D" (done with this line).
VM_CLIENT = """
import json
from binascii import hexlify, unhexlify
from bbnode.train import Trainer
from bbnode.learn_client import FedAvgClient, Shard
cfg = json.load(open('config.json'))
lc = cfg['learn']
def send(b):
    print('S ' + hexlify(b).decode())
T = Trainer(open(lc['program'], 'rb').read())
C = FedAvgClient(T, Shard(open(lc['shard'], 'rb').read()), cfg['node_id'], lc['server_id'], send,
                 epochs=lc['epochs'], seed=lc['seed'], heartbeat_ms=lc['heartbeat_ms'], name=cfg['name'])
def on_line(s):
    if s.startswith('T '):
        C.tick(int(s[2:]))
    elif s.startswith('E '):
        C.handle(unhexlify(s[2:]))
    elif s == 'H':
        C.hello()
    for name, f in C.take_events():
        f['event'] = name
        print('V ' + json.dumps(f))
    print('D')
    return False
"""


# The VM client's host: bbnode/mqtt.py (MqttLink on umqtt.simple) under CPython moves envelopes between
# Mosquitto and the VM's stdin/stdout; the training itself runs in the VM. SIGTERM stops the VM too.
VM_BRIDGE = """import json, os, signal, subprocess, sys, time
os.chdir({here!r})
sys.path[:0] = {paths!r}
from bbnode.mqtt import MqttLink
cfg = json.load(open("config.json"))
vm = subprocess.Popen({vm_argv!r}, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def stop(signum, frame):
    vm.kill()
    vm.wait(10)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
link = MqttLink(cfg["mqtt"], cfg["name"], {{int(k): v for k, v in cfg["peers"].items()}})

class VmNode:
    def cmd(self, line):
        vm.stdin.write(line + "\\n")
        vm.stdin.flush()
        while True:
            out = vm.stdout.readline()
            if not out:
                raise SystemExit("the MicroPython VM exited")
            if out.startswith("S "):
                link.send(bytes.fromhex(out[2:].strip()))
            elif out.startswith("V "):
                with open("learn.log", "a") as f:
                    f.write(out[2:])
            elif out.startswith("D"):
                return

    def handle(self, buf):
        self.cmd("E " + bytes(buf).hex())

node = VmNode()
link.start(node)
print("node %s (id %d) connected: FedAvg client in the MicroPython VM" % (cfg["name"], cfg["node_id"]), flush=True)
node.cmd("H")
t0 = time.monotonic()
while link.running:
    node.cmd("T %d" % int((time.monotonic() - t0) * 1000))
    link.poll(100)
"""


def client_dir(dist: Path, dst: Path, port: int) -> Path:
    """A built bundle with the broker filled in (as an operator would) and a progress log."""
    shutil.copytree(dist, dst)
    cfg = json.loads((dst / "config.json").read_text())
    cfg["mqtt"].update({"host": "127.0.0.1", "port": port})
    cfg["learn"]["log"] = "learn.log"
    (dst / "config.json").write_text(json.dumps(cfg))
    return dst


def mpy_client_argv(dist: Path, tmp_path: Path, url: str) -> tuple[list[str], Path]:
    """argv of the MicroPython client (its bundle directory, broker filled in): CI runs the bundle's main.py
    hosted by CPython; the long setting trains in the real MicroPython VM behind bbnode/mqtt.py."""
    paths = cpython_paths(tmp_path)
    c = client_dir(dist, tmp_path / dist.name, int(url.rsplit(":", 1)[1]))
    if not LONG:
        (c / "_launch.py").write_text(LAUNCH.format(here=str(c), paths=paths))
        return [sys.executable, "-u", str(c / "_launch.py")], c
    driver, _ = prepare_vm(tmp_path / "mpylib")
    (c / "_vm_client.py").write_text(VM_CLIENT)
    vm_argv = [shutil.which("node") or "node", str(driver), str(c / "lib"), str(c), str(c / "_vm_client.py"),
               "64", "--lines"]
    (c / "_bridge.py").write_text(VM_BRIDGE.format(here=str(c), paths=paths, vm_argv=vm_argv))
    return [sys.executable, "-u", str(c / "_bridge.py")], c
