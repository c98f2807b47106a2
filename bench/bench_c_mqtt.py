"""The C node on MQTT (firmware/ports/posix-mqtt), as ratios to baselines measured in the same run.

small_cnn is split n0 -> n1 -> n2 and n1 is built for ``host-mqtt``. A paho client with n0's credentials
publishes n0's real output envelope to n1's inbox (a fresh seq and request id each time) and waits
for n1's answer on n2's inbox, on the generated broker (passwords, ACL, persistent sessions, QoS 1).
The figures, with a window of 1 (one request at a time) and of 8:

- C node over MQTT, requests/s;
- the same C node loop in-process (ctypes, no broker), requests/s: the ratio is the cost of the broker
  round trip and the port;
- raw broker round trips: a paho client with n1's credentials echoes each message from n1's inbox to
  n2's inbox (same sizes, QoS 1). The ratio C/raw shows what the C port and the inference add to the
  broker path (above 1: the C node is quicker than a Python echo).

    python bench/bench_c_mqtt.py [--requests N]

Prints figures, asserts none.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.fleet.c_mqtt_node import spawn_c_mqtt_node  # noqa: E402
from bb_edge.adapters.fleet.mqtt_fleet import stop_process  # noqa: E402
from bb_edge.adapters.ops.broker import Broker, write_broker_files  # noqa: E402
from bb_edge.adapters.transports.inproc import InProcFleet  # noqa: E402
from bb_edge.bbrt.format import parse  # noqa: E402
from bb_edge.bundle.build import build_all  # noqa: E402
from bb_edge.compiler.compile import compile_model  # noqa: E402
from bb_edge.deployment.manifest import load_deployment  # noqa: E402
from bb_edge.wire import envelope as wire  # noqa: E402
from bb_edge.wire.topics import Topics  # noqa: E402
from tests.firmware.test_firmware_mqtt import RecordingCNode  # noqa: E402
from tests.support.examples import sample_inputs, small_cnn  # noqa: E402


class Client:
    """A paho client that counts the messages of one subscription."""

    def __init__(self, port: int, user: str, password: str, sub: str | None = None) -> None:
        self.got = 0
        self.cond = threading.Condition()
        self.c = paho.Client(CallbackAPIVersion.VERSION2, client_id=user, clean_session=True,
                             protocol=paho.MQTTv311)
        self.c.username_pw_set(user, password)
        self.c.max_inflight_messages_set(100)
        self.c.on_message = self._on
        self.on_payload = None
        ready = threading.Event()
        self.c.on_connect = lambda *a: ready.set()
        self.c.connect("127.0.0.1", port, 30)
        self.c.loop_start()
        assert ready.wait(10)
        if sub:
            self.c.subscribe(sub, qos=1)
            time.sleep(0.2)

    def _on(self, c: paho.Client, u: object, m: paho.MQTTMessage) -> None:
        if self.on_payload is not None:
            self.on_payload(bytes(m.payload))
        with self.cond:
            self.got += 1
            self.cond.notify_all()

    def wait(self, n: int, timeout: float = 60) -> None:
        """Block until ``n`` messages arrived."""
        with self.cond:
            assert self.cond.wait_for(lambda: self.got >= n, timeout), (self.got, n)

    def close(self) -> None:
        """Disconnect and stop the network thread."""
        self.c.disconnect()
        self.c.loop_stop()


def drive(sender: Client, receiver: Client, topic: str, msgs: list[bytes], window: int) -> float:
    """Publish ``msgs`` with at most ``window`` unanswered; requests/s."""
    start_count = receiver.got
    t0 = time.perf_counter()
    for i, m in enumerate(msgs):
        if i >= window:
            receiver.wait(start_count + i - window + 1)
        sender.c.publish(topic, m, qos=1)
    receiver.wait(start_count + len(msgs))
    return len(msgs) / (time.perf_counter() - t0)


def main() -> None:
    """Build, start the broker and the C node, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        d = tmp / "dep"
        compile_model(small_cnn(), cuts=["p1", "g"], node_names=["n0", "n1", "n2"], out_dir=d)
        np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in sample_inputs(16, seed=7)]))
        build_all(d, ["n1=host-mqtt"], tmp / "dist", calib=d / "calib.npz")
        dep = load_deployment(d)
        blob = (tmp / "dist" / "n1" / "program.bbrt").read_bytes()
        rec = RecordingCNode(blob, parse(blob).arena_size)
        InProcFleet(dep, external={"n1": rec}).run([{"x": sample_inputs(1, seed=3)[0]["x"]}])
        real = wire.decode(next(e for e in rec.inbound if wire.decode(e).kind == wire.KIND_DATA))
        n = args.requests

        def batch(base: int) -> list[bytes]:
            return [wire.encode(replace(real, seq=real.seq + base + i + 1, request_id=base + i + 1000))
                    for i in range(n)]

        # in-process baseline: the same node loop through ctypes
        msgs = batch(0)
        t0 = time.perf_counter()
        for m in msgs:
            rec.send(m)
            rec.receive()
        inproc = n / (time.perf_counter() - t0)

        files = write_broker_files(tmp / "broker", dep)
        t = Topics(dep.name)
        pw = files.passwords
        with Broker(files):
            # raw broker round trip: a Python echo in n1's place (n1's credentials and ACL)
            n2 = Client(files.port, "n2", pw["n2"], t.inbox_filter("n2"))
            n0 = Client(files.port, "n0", pw["n0"])
            echo = Client(files.port, "n1", pw["n1"], t.inbox_filter("n1"))
            out_len = len(rec.outbound[-1])
            echo.on_payload = lambda p: echo.c.publish(t.inbox("n2", "n1"), p[:out_len].ljust(out_len, b"\0"),
                                                       qos=1)
            raw = {w: drive(n0, n2, t.inbox("n1", "n0"), batch(10_000 * w), w) for w in (1, 8)}
            echo.close()
            proc = spawn_c_mqtt_node(tmp / "dist" / "n1", files.url(), stderr=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL)
            try:
                time.sleep(1.0)
                c_node = {w: drive(n0, n2, t.inbox("n1", "n0"), batch(100_000 * w), w) for w in (1, 8)}
            finally:
                stop_process(proc)
                n0.close()
                n2.close()
        print(f"in-process C node loop (ctypes):  {inproc:9.0f} requests/s")
        for w in (1, 8):
            print(f"window {w}: C node over MQTT {c_node[w]:7.0f} req/s | raw broker echo {raw[w]:7.0f} msg/s | "
                  f"C/raw {c_node[w] / raw[w]:.2f} | C MQTT/in-process {c_node[w] / inproc:.3f}")


if __name__ == "__main__":
    main()
