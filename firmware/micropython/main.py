# bb-edge MicroPython node: loads config.json and program.bbrt, then serves UART or MQTT.
import json

from bbnode.executor import Program
from bbnode.node import Node, boot_epoch, serve_uart
from bbnode.ota import FileSlots, NodeLoader, OtaNode, load_key

with open("config.json") as f:
    CFG = json.load(f)
if "learn" in CFG:  # a FedAvg training client bundle (bbnode/learn_client.py): no .bbrt program
    from bbnode.learn_client import main as learn_main

    learn_main(CFG)
    raise SystemExit(0)
# over-the-air updates (bbnode/ota.py): an activated A/B slot runs instead of the built program; one
# that no longer loads falls back to it
OTA_CFG = CFG.get("ota", {})
SLOTS = FileSlots(OTA_CFG.get("slots", "ota"))
BLOB = SLOTS.active_program()
PROG = None
if BLOB is not None:
    try:
        PROG = Program(BLOB)
    except Exception as exc:  # noqa: BLE001 - any loader failure: run the program the bundle was built with
        print("ota: active slot refused at boot:", exc)
if PROG is None:
    with open(CFG.get("program", "program.bbrt"), "rb") as f:
        BLOB = f.read()
    PROG = Program(BLOB)
try:  # the hello record carries the program's SHA-256 (zeros where hashlib is missing)
    import hashlib

    PHASH = hashlib.sha256(BLOB).digest()
except (ImportError, AttributeError):
    PHASH = b"\x00" * 32
del BLOB
# envelope seq = (boot_epoch << 32) | n: a rebooted node is never taken for a duplicate by its peers
EPOCH_FILE = CFG.get("epoch_file", "boot_epoch")
EPOCH = boot_epoch(EPOCH_FILE)
NAME = CFG.get("name", "node")


def attach_ota(node):
    """The OTA handler with the key provisioned at build time (none: every OFFER is refused, no_key)."""
    node.ota = OtaNode(NAME, load_key(OTA_CFG.get("key_file")), SLOTS, NodeLoader(node),
                       max_program=OTA_CFG.get("max_program", 65536), deployment=CFG.get("deployment", ""))


if CFG.get("transport", "serial") == "mqtt":
    import time

    import network
    from bbnode.mqtt import MqttLink

    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    if CFG.get("wifi") and CFG["wifi"].get("ssid"):
        wlan.connect(CFG["wifi"]["ssid"], CFG["wifi"]["password"])
        while not wlan.isconnected():
            time.sleep(0.1)
    peers = {int(k): v for k, v in CFG.get("peers", {}).items()}
    link = MqttLink(CFG["mqtt"], NAME, peers)
    node = Node(PROG, max_payload=CFG.get("max_payload", 4096), send=link.send, boot_epoch=EPOCH, name=NAME,
                program_hash=PHASH)
    node.clock = lambda: int(time.time() * 1000)  # drives OTA stage timeouts (no poll loop over MQTT)
    attach_ota(node)
    from bbnode import status

    # the status record bb-edge status shows (program name, version and hash, epoch, drops, errors, uptime),
    # retained on the status topic
    STARTED = time.time()
    link.status = lambda: status.encode(node, link.name, time.time(), link.stats.received, CFG.get("deployment", ""),
                                        CFG.get("program_version"), time.time() - STARTED)
    link.start(node)
    node.hello(NAME)
    link.serve()
else:
    from machine import UART

    u = CFG.get("uart", {})
    uart = UART(u.get("id", 1), baudrate=u.get("baud", 921600), tx=u.get("tx"), rx=u.get("rx"),
                rxbuf=u.get("rxbuf", 8192))
    lk = CFG.get("link", {})
    node = Node(PROG, uart, max_payload=CFG.get("max_payload", 4096), boot_epoch=EPOCH, name=NAME,
                program_hash=PHASH, link_layer=lk.get("enabled", True), epoch_file=EPOCH_FILE,
                link_opts={k: v for k, v in lk.items() if k != "enabled"})
    attach_ota(node)
    serve_uart(node, uart)
