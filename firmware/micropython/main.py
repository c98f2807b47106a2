# bb-edge MicroPython node: loads config.json and program.bbrt, then serves UART or MQTT.
import json

from bbnode.executor import Program
from bbnode.node import Node, serve_uart

with open("config.json") as f:
    CFG = json.load(f)
with open(CFG.get("program", "program.bbrt"), "rb") as f:
    PROG = Program(f.read())

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
    try:  # peers drop (sender, seq) pairs they have seen: start above any earlier incarnation's numbers
        import ntptime

        ntptime.settime()
    except Exception:  # noqa: BLE001 - no NTP: the RTC's time, still increasing across soft resets
        pass
    peers = {int(k): v for k, v in CFG.get("peers", {}).items()}
    link = MqttLink(CFG["mqtt"], CFG.get("name", "node"), peers)
    node = Node(PROG, max_payload=CFG.get("max_payload", 4096), send=link.send)
    node.seq = time.time_ns() if hasattr(time, "time_ns") else int(time.time()) * 1000000000
    link.start(node)
    node.hello(CFG.get("name", "node"))
    link.serve()
else:
    from machine import UART

    u = CFG.get("uart", {})
    uart = UART(u.get("id", 1), baudrate=u.get("baud", 921600), tx=u.get("tx"), rx=u.get("rx"),
                rxbuf=u.get("rxbuf", 8192))
    node = Node(PROG, uart, max_payload=CFG.get("max_payload", 4096))
    node.hello(CFG.get("name", "node"))
    serve_uart(node, uart)
