"""Over-the-air update of a 1 MiB program over MQTT, as a ratio to the raw transfer of the same bytes.

A one-node deployment whose program is a 512x512 Gemm (1 MiB of float32 weights) runs as a
``bb-edge node`` process on a local Mosquitto (anonymous). The update (``bb_edge.engine.ota``:
OFFER, DATA chunks, READY after SHA-256 + Ed25519 + onnx.checker + contract check + ORT session,
COMMIT, switch, health check, SWITCHED) is timed from the first publish to SWITCHED. The baseline,
measured in the same run on the same broker: a raw paho client publishing the same bytes in the same
chunk sizes (QoS 1) to a paho subscriber, timed until the last byte arrived.

    python bench/bench_ota.py [--repeat N] [--chunk BYTES]

Prints figures, asserts none.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import onnx
import paho.mqtt.client as paho
from onnx import TensorProto, helper, numpy_helper
from paho.mqtt.enums import CallbackAPIVersion

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.broker import Broker, write_broker_files  # noqa: E402
from bb_edge.adapters.fleet_mqtt import spawn_node, stop_process  # noqa: E402
from bb_edge.adapters.hostloop import HostEndpoint, sequence_base  # noqa: E402
from bb_edge.adapters.mqtt import MqttConfig, MqttTransport  # noqa: E402
from bb_edge.adapters.ota_deploy import Deploy, OtaTap, plan_update  # noqa: E402
from bb_edge.commands.keygen import embed_public_key, make_keys  # noqa: E402
from bb_edge.compiler import compile_model  # noqa: E402
from bb_edge.compiler.manifest import HOST_NAME, load_deployment  # noqa: E402
from bb_edge.engine import ota  # noqa: E402

N = 512


def gemm_model(seed: int) -> onnx.ModelProto:
    """y = x @ W^T + b with a 512x512 float32 W: a 1 MiB program."""
    rng = np.random.default_rng(seed)
    w = numpy_helper.from_array(rng.standard_normal((N, N)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.standard_normal(N).astype(np.float32), "b")
    g = helper.make_graph([helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)], "gemm1m",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, N])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, N])], [w, b])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def raw_transfer(port: int, chunks: list[bytes]) -> float:
    """Seconds for a paho publisher to get ``chunks`` (QoS 1) to a paho subscriber."""
    total = sum(len(c) for c in chunks)
    got = [0]
    done = threading.Event()
    ready = threading.Event()

    def on_message(client: paho.Client, userdata: object, msg: paho.MQTTMessage) -> None:
        got[0] += len(msg.payload)
        if got[0] >= total:
            done.set()

    sub = paho.Client(CallbackAPIVersion.VERSION2, client_id="bench-sub")
    sub.on_connect = lambda c, u, f, rc, p: (c.subscribe("bench/raw", qos=1), ready.set())
    sub.on_message = on_message
    sub.connect("127.0.0.1", port)
    sub.loop_start()
    pub = paho.Client(CallbackAPIVersion.VERSION2, client_id="bench-pub")
    pub.max_inflight_messages_set(100)
    pub.connect("127.0.0.1", port)
    pub.loop_start()
    ready.wait(10)
    time.sleep(0.2)
    t0 = time.perf_counter()
    for c in chunks:
        pub.publish("bench/raw", c, qos=1)
    done.wait(60)
    dt = time.perf_counter() - t0
    for c in (pub, sub):
        c.loop_stop()
        c.disconnect()
    return dt


def main() -> None:
    """Run the bench and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=32 << 10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        old_dir = root / "old"
        compile_model(gemm_model(0), nodes=1, out_dir=old_dir)
        priv, pub = make_keys(root / "keys")
        embed_public_key(old_dir, pub)
        dep = load_deployment(old_dir)
        signer = ota.ed25519_signer(bytes.fromhex(priv))
        dists = []
        for i in range(args.repeat):
            d = root / f"new{i}"
            compile_model(gemm_model(i + 1), nodes=1, out_dir=d)
            dists.append(load_deployment(d))
        files = write_broker_files(root / "broker", None)
        broker = Broker(files).start()
        url = files.url()
        node = spawn_node(old_dir, dep.node_names[0], url, extra=["--quiet", "--status-interval", "0"],
                          stdout=subprocess.DEVNULL)
        tr = MqttTransport(MqttConfig.from_url(url), dep.name, HOST_NAME, dep.ids())
        tap = OtaTap(tr)
        host = HostEndpoint(dep, tap, seq_base=sequence_base())
        try:
            host.open()
            tr.wait_connected(20)
            host.wait_for_peers(dep.node_names, 60)
            ota_s, raw_s = [], []
            current = dep
            for i, new in enumerate(dists):
                updates = plan_update(current, new, signer, chunk=args.chunk)
                size = len(updates[0].image)

                def next_seq() -> int:
                    host._seq += 1
                    return host._seq

                run = Deploy(tap, dep.ids(), updates, next_seq, timeout_s=120, update_id=100 + i)
                t0 = time.perf_counter()
                report = run.run(interval=0.001)
                ota_s.append(time.perf_counter() - t0)
                if not report.ok:
                    raise SystemExit(f"update failed: {report}")
                current = new
                data = updates[0].image
                chunks = [data[o:o + args.chunk] for o in range(0, len(data), args.chunk)]
                raw_s.append(raw_transfer(files.port, chunks))
            o, r = statistics.median(ota_s), statistics.median(raw_s)
            print(f"program: {size / 2**20:.2f} MiB in {len(chunks)} chunks of {args.chunk} B, {args.repeat} runs")
            print(f"OTA update (stage + verify + commit + switch): {o * 1e3:.0f} ms (median)")
            print(f"raw paho transfer of the same bytes:          {r * 1e3:.0f} ms (median)")
            print(f"ratio OTA / raw: {o / r:.1f}x")
        finally:
            stop_process(node)
            host.close()
            broker.stop()


if __name__ == "__main__":
    main()
