"""The transport's floor under a split decode: one token's ring of hops with plain paho and no compute.

    python bench/llm_hop_floor.py [--nodes 3] [--rounds 400] [--bytes 1224] [--qos 1]

A split decode's token travels host -> n0 -> ... -> n(N-1) -> host: N+1 hops over the broker, each one
message. Here N+1 processes with plain paho-mqtt clients (MQTT 3.1.1, QoS 1, manual acks, persistent
sessions, TCP_NODELAY, as bb-edge's transport) pass one ``--bytes`` message around that ring on a real Mosquitto; each
node republishes from inside ``on_message`` (on paho's network thread, as bb-edge's inline step does) and
acknowledges after. The host publishes the next round when the last node's message arrives. The median
round is the least time per token any paho-over-Mosquitto split can spend on its hops on this machine;
bench_llm_split's time per token minus the stages' ONNX Runtime time, minus this floor, is what bb-edge's
engine and host add.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _client(port: int, name: str, qos: int) -> object:
    import paho.mqtt.client as paho
    from paho.mqtt.enums import CallbackAPIVersion

    c = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"floor-{name}", clean_session=False,
                    protocol=paho.MQTTv311, manual_ack=True)
    c.max_inflight_messages_set(100)
    c.max_queued_messages_set(0)
    c.on_socket_open = _no_delay  # as bb-edge's transport: paho leaves Nagle on (40 ms waits on small writes)
    return c


def _no_delay(client: object, userdata: object, sock: object) -> None:
    import socket

    if hasattr(sock, "setsockopt"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _node(port: int, name: str, nxt: str, qos: int, ready: object) -> None:
    """Republish every message to ``nxt`` at once (inside on_message), then acknowledge it."""
    c = _client(port, name, qos)

    def on_message(cl: object, u: object, m: object) -> None:
        cl.publish(f"floor/{nxt}", m.payload, qos=qos)  # type: ignore[attr-defined]
        cl.ack(m.mid, m.qos)  # type: ignore[attr-defined]

    subscribed = threading.Event()
    c.on_message = on_message  # type: ignore[attr-defined]
    c.on_subscribe = lambda *a: subscribed.set()  # type: ignore[attr-defined]
    c.on_connect = lambda cl, *a: cl.subscribe(f"floor/{name}", qos=qos)  # type: ignore[attr-defined]
    c.connect("127.0.0.1", port)  # type: ignore[attr-defined]
    c.loop_start()  # type: ignore[attr-defined]
    subscribed.wait(10)
    ready.set()  # type: ignore[attr-defined]
    while True:
        time.sleep(3600)


def ring(port: int, nodes: int, rounds: int, size: int, qos: int) -> list[float]:
    """Seconds per round of ``rounds`` rounds host -> n0 -> ... -> host (the first 20 left out)."""
    ctx = mp.get_context("spawn")
    names = [f"n{i}" for i in range(nodes)]
    procs, readies = [], []
    for i, n in enumerate(names):
        ev = ctx.Event()
        p = ctx.Process(target=_node, args=(port, n, names[i + 1] if i + 1 < nodes else "host", qos, ev),
                        daemon=True)
        p.start()
        procs.append(p)
        readies.append(ev)
    try:
        for ev in readies:
            ev.wait(30)
        c = _client(port, "host", qos)
        back = threading.Event()

        def on_message(cl: object, u: object, m: object) -> None:
            cl.ack(m.mid, m.qos)  # type: ignore[attr-defined]
            back.set()

        subscribed = threading.Event()
        c.on_message = on_message  # type: ignore[attr-defined]
        c.on_subscribe = lambda *a: subscribed.set()  # type: ignore[attr-defined]
        c.on_connect = lambda cl, *a: cl.subscribe("floor/host", qos=qos)  # type: ignore[attr-defined]
        c.connect("127.0.0.1", port)  # type: ignore[attr-defined]
        c.loop_start()  # type: ignore[attr-defined]
        subscribed.wait(10)
        payload = os.urandom(size)
        times = []
        for _ in range(rounds + 20):
            back.clear()
            t0 = time.perf_counter()
            c.publish("floor/n0", payload, qos=qos)  # type: ignore[attr-defined]
            if not back.wait(10):
                raise RuntimeError("a round did not come back in 10 s")
            times.append(time.perf_counter() - t0)
        c.disconnect()  # type: ignore[attr-defined]
        c.loop_stop()  # type: ignore[attr-defined]
        return times[20:]
    finally:
        for p in procs:
            p.kill()
            p.join()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=400)
    ap.add_argument("--bytes", type=int, default=1224, help="message size (bb-edge's SmolLM2 hop: 1224)")
    ap.add_argument("--qos", type=int, default=1, choices=[0, 1])
    a = ap.parse_args()
    from bb_edge.adapters.ops.broker import Broker, write_broker_files

    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as d, Broker(write_broker_files(d, None, persistence=False)) as broker:
        t = sorted(ring(broker.port, a.nodes, a.rounds, a.bytes, a.qos))
    med = statistics.median(t) * 1e3
    print(f"plain paho ring, host + {a.nodes} nodes ({a.nodes + 1} hops), {a.bytes} B, QoS {a.qos}, {a.rounds} rounds;"
          f" load {load0:.1f} -> {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    print(f"ms per round: median {med:.3f}, p10 {t[len(t) // 10] * 1e3:.3f}, p90 {t[9 * len(t) // 10] * 1e3:.3f}; "
          f"per hop {med / (a.nodes + 1):.3f}")


if __name__ == "__main__":
    main()
