"""Over-the-air update of a 1 MiB program over MQTT, and of a C node's program over a 115200-baud pty,
each as a ratio to the raw transfer of the same bytes.

MQTT: a one-node deployment whose program is a 512x512 Gemm (1 MiB of float32 weights) runs as a
``bb-edge node`` process on a local Mosquitto (anonymous). The update (``bb_edge.engine.ota``:
OFFER, DATA chunks, READY after SHA-256 + Ed25519 + onnx.checker + contract check + ORT session,
COMMIT, switch, health check, SWITCHED) is timed from the first publish to SWITCHED. The baseline,
measured in the same run on the same broker: a raw paho client publishing the same bytes in the same
chunk sizes (QoS 1) to a paho subscriber, timed until the last byte arrived.

Serial: the C node (``bb-edge build --target n0=host``: bbrt-host, int8) on one end of a pty, the
deployer (``bb_edge/adapters/ops/ota_deploy.py``: SerialTap over the link layer, HMAC-SHA-256 with the bundle's
key) on the other. A pty moves bytes as fast as the CPU, so the deployer's writes are paced at
115200 baud (10 bits a byte, 11520 B/s; the node's ACKs and replies are not paced). Timed from the
OFFER to SWITCHED (staged, SHA-256, HMAC, bbrt loader, contract, COMMIT, health check). Baseline:
the same bytes written raw through the same pacing to a reader on the other end. The deployer's link
is ``ota_deploy.line_link``: a window of about half a second of line time and an RTO floor of two
windows (the defaults, 32 frames and 0.2 s, resend frames still queued: ~6x slower). The image is a
Gemm whose int8 weights make it about --serial-size bytes: default 64 KiB (~6 s raw), since 1 MiB at
115200 baud is ~91 s raw per run; ``--serial-size 1048576`` measures the 1 MiB update.

Deltas and resume (skip with ``--no-delta``): for each MLPerf Tiny float model compiled to one node, the
per-tensor delta of a last-layer fine-tune (weights and bias of its last Gemm/MatMul/Conv nudged) over the full
program's bytes (goal <= 0.1); and a 1 MiB program's transfer interrupted after half its chunks and resumed by a
new deployer (RESUME), bytes and time against the same transfer uninterrupted, in process.

Serial resume (``--serial-resume``, alone): the C node (``--ota-state``) on the paced pty; a deploy cut off after
half its chunks, then (a) the node SIGKILLed and restarted, (b) the node left running, and the same program
deployed again (RESUME): DATA bytes and seconds against the same deploy uninterrupted on a fresh state file.

Traffic (``--traffic N``): N bad and N good ``bb-edge deploy`` runs under continuous traffic from a running
host over Mosquitto (the CLI test's scenario); prints how many outputs mixed programs and how many were lost.

    python bench/bench_ota.py [--repeat N] [--chunk BYTES] [--serial-size BYTES] [--serial-chunk BYTES]
                               [--no-mqtt | --no-serial] [--no-delta] [--traffic N] [--serial-resume]

Prints figures, asserts none.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import paho.mqtt.client as paho
from onnx import TensorProto, helper, numpy_helper
from paho.mqtt.enums import CallbackAPIVersion

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.fleet.hostloop import HostEndpoint, sequence_base  # noqa: E402
from bb_edge.adapters.fleet.mqtt_fleet import spawn_node, stop_process  # noqa: E402
from bb_edge.adapters.ops.broker import Broker, write_broker_files  # noqa: E402
from bb_edge.adapters.ops.ota_deploy import SERIAL_CHUNK, Deploy, OtaTap, plan_update  # noqa: E402
from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport  # noqa: E402
from bb_edge.commands.keygen import embed_public_key, make_keys  # noqa: E402
from bb_edge.compiler import compile_model  # noqa: E402
from bb_edge.deployment.manifest import HOST_NAME, load_deployment  # noqa: E402
from bb_edge.engine import ota  # noqa: E402

N = 512


def gemm_model(seed: int, n: int = N, name: str = "gemm1m") -> onnx.ModelProto:
    """y = x @ W^T + b with an n x n float32 W (n=512: a 1 MiB program; about n*n bytes once lowered to int8)."""
    rng = np.random.default_rng(seed)
    w = numpy_helper.from_array(rng.standard_normal((n, n)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), "b")
    g = helper.make_graph([helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)], name,
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, n])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, n])], [w, b])
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


BAUD = 115200


class PacedPort:
    """A port whose writes take as long as they would on a ``baud`` UART (8N1: 10 bits a byte)."""

    def __init__(self, port: Any, baud: int = BAUD) -> None:
        self.port = port
        self.rate = baud / 10.0
        self._free_at = 0.0
        self._lock = threading.Lock()

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read."""
        return int(self.port.in_waiting)

    def read(self, size: int = 1) -> bytes:
        """Read (not paced: the other end's bytes)."""
        return bytes(self.port.read(size))

    def write(self, data: bytes) -> int:
        """Write, then wait until the line would have sent the bytes."""
        with self._lock:
            start = max(self._free_at, time.perf_counter())
            self._free_at = start + len(data) / self.rate
            n = int(self.port.write(data) or 0)
            wait = self._free_at - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        return n

    def close(self) -> None:
        """Close the port."""
        self.port.close()


def raw_serial(path: str, master: int, data: bytes, chunk: int) -> float:
    """Seconds to get ``data`` through the paced pty (writes of ``chunk`` bytes) to a reader on the master."""
    import serial

    got = [0]
    done = threading.Event()

    def reader() -> None:
        while got[0] < len(data):
            try:
                got[0] += len(os.read(master, 1 << 16))
            except OSError:
                return
        done.set()

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    port = PacedPort(serial.serial_for_url(path, baudrate=BAUD, timeout=0.05))
    t0 = time.perf_counter()
    for o in range(0, len(data), chunk):
        port.write(data[o:o + chunk])
    done.wait(600)
    dt = time.perf_counter() - t0
    port.close()
    return dt


def bench_serial(root: Path, size: int, repeat: int, chunk_bytes: int) -> None:
    """The C node's update over a paced pty vs the raw paced transfer of the same bytes."""
    from bb_edge.adapters.ops.ota_deploy import Deploy, SerialTap, bbrt_bundles, line_link
    from bb_edge.adapters.transports.serial_link import PtyPair, SerialSpec
    from bb_edge.bundle.build import build_all

    n = max(16, int(round(size ** 0.5)))
    dirs, builds = [], []
    for i in range(repeat + 1):
        d, b = root / f"c{i}", root / f"cb{i}"
        compile_model(gemm_model(i, n, "gemm_c"), nodes=1, out_dir=d)
        build_all(d, ["n0=host"], b)
        dirs.append(d)
        builds.append(b)
    key = (builds[0] / "n0" / "ota_hmac.key").read_text()
    for b in builds[1:]:  # one node, one key: each later build is an image for the running node
        (b / "n0" / "ota_hmac.key").write_text(key)
    pty = PtyPair.open()
    node = subprocess.Popen(["sh", str(builds[0] / "n0" / "run.sh"), "--epoch-file", str(root / "epoch")],
                            stdin=pty.master, stdout=pty.master, stderr=subprocess.DEVNULL, start_new_session=True)
    ota_s, raw_s, image = [], [], b""
    try:
        spec = SerialSpec.parse(f"serial:{pty.slave_path}")
        tap = SerialTap(line_link(spec, PacedPort(spec.open_port()), name="deploy", node_id=0, node_name=HOST_NAME))
        tap.open()
        seq = [sequence_base()]

        def next_seq() -> int:
            seq[0] += 1
            return seq[0]

        tap.peer_id(20)
        dep = load_deployment(dirs[0])
        for i in range(repeat):
            updates = plan_update(load_deployment(dirs[i]), load_deployment(dirs[i + 1]), _no_key, chunk=chunk_bytes,
                                  bundles=bbrt_bundles(builds[i + 1]), current_bundles=bbrt_bundles(builds[i]))
            image, chunk = updates[0].image, updates[0].chunk
            run = Deploy(tap, dep.ids(), updates, next_seq, timeout_s=600, update_id=200 + i, deployment=dep.name)
            t0 = time.perf_counter()
            report = run.run(interval=0.001)
            ota_s.append(time.perf_counter() - t0)
            if not report.ok:
                raise SystemExit(f"serial update failed: {report}")
        tap.close()
        stop_process(node)  # the raw baseline reads the master end itself
        for _ in range(repeat):
            raw_s.append(raw_serial(pty.slave_path, pty.master, image, chunk + ota.DATA_HEADER))
    finally:
        stop_process(node)
        pty.close()
    o, r = statistics.median(ota_s), statistics.median(raw_s)
    print(f"C node program: {len(image) / 1024:.1f} KiB over a {BAUD}-baud pty, chunks of {chunk} B, {repeat} runs")
    print(f"OTA update (stage + SHA-256 + HMAC + load + commit + switch): {o:.2f} s (median)")
    print(f"raw paced transfer of the same bytes:                        {r:.2f} s (median)")
    print(f"ratio OTA / raw: {o / r:.2f}x")


def _no_key(message: bytes) -> bytes:
    raise SystemExit("the serial bench updates only the C node (HMAC with its bundle's key)")


def _cut_tap(link: Any, keep: int) -> Any:
    """A SerialTap that forwards only the first ``keep`` DATA chunks (a deployer killed midway)."""
    from bb_edge.adapters.ops.ota_deploy import SerialTap
    from bb_edge.wire import envelope as wire

    class CutTap(SerialTap):
        chunks = 0

        def send(self, peer: str, receiver: int, data: bytes) -> None:
            env = wire.decode(data)
            if env.protocol == ota.PROTO_OTA and env.edge == ota.DATA:
                self.chunks += 1
                if self.chunks > keep:
                    return
            super().send(peer, receiver, data)

    return CutTap(link)


def bench_serial_resume(root: Path, size: int, chunk_bytes: int) -> None:
    """A C node's transfer over a paced pty cut after half its chunks, the node killed (SIGKILL) and restarted
    on its ``--ota-state`` file, then resumed by a new deploy: bytes and seconds against the same deploy
    uninterrupted (measured in the same run, on a fresh state file)."""
    import signal

    from bb_edge.adapters.ops.ota_deploy import bbrt_bundles, line_link
    from bb_edge.adapters.transports.serial_link import PtyPair, SerialSpec
    from bb_edge.bundle.build import build_all

    n = max(16, int(round(size ** 0.5)))
    dirs, builds = [root / "r0", root / "r1"], [root / "rb0", root / "rb1"]
    for i in range(2):
        compile_model(gemm_model(i, n, "gemm_c"), nodes=1, out_dir=dirs[i])
        build_all(dirs[i], ["n0=host"], builds[i])
    (builds[1] / "n0" / "ota_hmac.key").write_text((builds[0] / "n0" / "ota_hmac.key").read_text())
    cur = load_deployment(dirs[0])
    pty = PtyPair.open()

    def start(state: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen(["sh", str(builds[0] / "n0" / "run.sh"), "--epoch-file", str(root / "repoch"),
                                 "--ota-state", str(state)], stdin=pty.master, stdout=pty.master,
                                stderr=subprocess.DEVNULL, start_new_session=True)

    def deploy(keep: int | None) -> tuple[int, float, int, bool]:
        """One deploy (cut after ``keep`` chunks if given): DATA bytes sent, seconds, RESUME offset, ok."""
        spec = SerialSpec.parse(f"serial:{pty.slave_path}")
        tap = _cut_tap(line_link(spec, PacedPort(spec.open_port()), name="deploy", node_id=0, node_name=HOST_NAME),
                       keep if keep is not None else 1 << 30)
        tap.open()
        seq = [sequence_base()]

        def next_seq() -> int:
            seq[0] += 1
            return seq[0]

        try:
            tap.peer_id(20)
            updates = plan_update(cur, load_deployment(dirs[1]), _no_key, chunk=chunk_bytes,
                                  bundles=bbrt_bundles(builds[1]), current_bundles=bbrt_bundles(builds[0]))
            run = Deploy(tap, cur.ids(), updates, next_seq, timeout_s=600, deployment=cur.name, resume=True)
            t0 = time.perf_counter()
            if keep is None:
                report = run.run(interval=0.001)
                return report.streamed.get("n0", 0), time.perf_counter() - t0, report.resumed.get("n0", 0), report.ok
            run.start()
            deadline = time.monotonic() + 30
            while not run.deployer.streamed and time.monotonic() < deadline:  # every chunk goes at RESUME
                run.step()
                time.sleep(0.001)
            tap.link.flush(120)
            return min(run.deployer.streamed.get("n0", 0), keep * chunk_bytes), time.perf_counter() - t0, 0, False
        finally:
            tap.close()

    try:
        node = start(root / "s-full")
        full_b, full_s, _, ok = deploy(None)
        stop_process(node)
        if not ok:
            raise SystemExit("serial resume bench: the uninterrupted deploy failed")
        chunks = -(-full_b // chunk_bytes)
        rows = []
        for kill in (True, False):
            state = root / f"s-cut-{kill}"
            node = start(state)
            cut_b, cut_s, _, _ = deploy(chunks // 2)
            if kill:  # a reboot mid-transfer: the node resumes from its flash (whole 4 KiB steps)
                os.killpg(node.pid, signal.SIGKILL)
                node.wait(10)
                node = start(state)
            rest_b, rest_s, held, ok = deploy(None)
            stop_process(node)
            if not ok:
                raise SystemExit("serial resume bench: the resumed deploy failed")
            rows.append((kill, cut_b, cut_s, rest_b, rest_s, held))
    finally:
        pty.close()
    print(f"C node resumed transfer over a {BAUD}-baud pty: {full_b} B program, {full_s:.2f} s uninterrupted")
    for kill, cut_b, cut_s, rest_b, rest_s, held in rows:
        print(f"  cut after {cut_b} B, {'node SIGKILLed and restarted' if kill else 'node kept running'}: resumed at "
              f"byte {held}; bytes {cut_b} + {rest_b} = {(cut_b + rest_b) / full_b:.3f}x the uninterrupted transfer "
              f"(starting over: {(cut_b + full_b) / full_b:.3f}x); seconds {cut_s:.2f} + {rest_s:.2f} = "
              f"{(cut_s + rest_s) / full_s:.2f}x")


MLPERF = Path(__file__).resolve().parents[1].parent / "shared" / "models" / "mlperf-tiny" / "onnx"


def _last_layer_fine_tune(model: onnx.ModelProto, seed: int = 1) -> onnx.ModelProto:
    """The model with the initializers of its last Gemm/MatMul/Conv (weight and bias) nudged: a fine-tune."""
    import numpy as np
    from onnx import numpy_helper

    m = onnx.ModelProto()
    m.CopyFrom(model)
    inits = {t.name: t for t in m.graph.initializer}
    last = next(n for n in reversed(m.graph.node) if n.op_type in ("Gemm", "MatMul", "Conv")
                and any(i in inits for i in n.input))
    rng = np.random.default_rng(seed)
    for name in (i for i in last.input if i in inits):
        a = numpy_helper.to_array(inits[name])
        if a.dtype == np.float32:
            inits[name].CopyFrom(numpy_helper.from_array(
                (a + rng.standard_normal(a.shape).astype(np.float32) * 0.01).astype(np.float32), name))
    return m


def bench_delta_resume() -> None:
    """Delta bytes / full bytes for a last-layer fine-tune of each MLPerf Tiny float model (one node), and the
    overhead of a transfer interrupted at half and resumed (in process: a real engine and OTA handler)."""
    import warnings

    from bb_edge.engine import Engine
    from bb_edge.engine.ota.delta import make_delta
    from bb_edge.wire import envelope as wire

    for path in sorted(MLPERF.glob("*_fp32.onnx")):
        base = onnx.load(path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dep, old = compile_model(base, nodes=1)
            _, new = compile_model(_last_layer_fine_tune(base), nodes=1)
        n = dep.node_names[0]
        a, b = old[n].SerializeToString(), new[n].SerializeToString()
        made = make_delta(a, b)
        if made is None:
            print(f"{path.stem}: not a weights-only change")
            continue
        print(f"{path.stem}: last-layer fine-tune delta {len(made[0])} B / full {len(b)} B = "
              f"{len(made[0]) / len(b):.4f}")
    # resumed transfer: a 1 MiB Gemm program, interrupted after half its chunks, resumed by a new deploy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dep, old = compile_model(gemm_model(0), nodes=1)
        _, new = compile_model(gemm_model(1), nodes=1)
    n = dep.node_names[0]
    image = new[n].SerializeToString()
    key = bytes(range(32))
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    pub = Ed25519PrivateKey.from_private_bytes(key).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def run(interrupt: bool) -> tuple[int, float]:
        eng = Engine.for_node(dep, n, old)
        eng.register_protocol(ota.OtaNode(eng, ota.OnnxLoader(eng), ota.ed25519_verifier(pub)))
        seq = [5 << 32]

        def next_seq() -> int:
            seq[0] += 1
            return seq[0]

        upd = ota.NodeUpdate(n, image, ota.TARGET_ONNX, ota.ed25519_signer(key), chunk=32 << 10)
        now, sent = 0.0, 0
        t0 = time.perf_counter()
        deployers = [ota.OtaDeployer(dep.ids(), [upd], next_seq, 1, resume=True, version=1)]
        if interrupt:
            deployers.append(ota.OtaDeployer(dep.ids(), [upd], next_seq, 2, resume=True, version=2))
        for k, d in enumerate(deployers):
            out = d.start(now)
            for _ in range(200):
                if interrupt and k == 0 and len(out) > 2:
                    out = out[:len(out) // 2]  # the first deployer dies after half its chunks
                for o in out:
                    sent += len(o.data)
                    eng.deliver("_host", o.data)
                now += 0.01
                for o in eng.poll(now):
                    d.on_envelope(wire.decode(o.data, max_payload=len(o.data)))
                out = d.poll(now)
                if d.state == "done" or (interrupt and k == 0 and d.resumed):
                    break
        if deployers[-1].state != "done":
            raise SystemExit(f"resume bench: {deployers[-1].failures}")
        return sent, time.perf_counter() - t0

    full_b, full_s = run(False)
    res_b, res_s = run(True)
    print(f"resumed transfer ({len(image)} B, interrupted at half): {res_b} B sent vs {full_b} B uninterrupted "
          f"(overhead {res_b / full_b - 1:+.2%}), time ratio {res_s / full_s:.2f}x (in process)")


def bench_traffic(runs: int) -> None:
    """``bb-edge deploy`` under continuous traffic from a running host over Mosquitto: ``runs`` bad and ``runs``
    good updates (the scenario of tests/engine/test_ota.py ``test_cli_deploys_under_traffic_never_mix_programs``,
    run here with that count); prints its mixed and lost counts."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root), BB_EDGE_OTA_TRAFFIC_RUNS=str(runs))
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-s", "-p", "no:cacheprovider",
                          "tests/engine/test_ota.py", "-k", "test_cli_deploys_under_traffic_never_mix_programs"],
                         cwd=root, env=env, capture_output=True, text=True, timeout=600 + 120 * runs)
    line = next((x for x in out.stdout.splitlines() if "deploys under traffic" in x), None)
    print(line or f"traffic runs failed:\n{out.stdout[-2000:]}")


def main() -> None:
    """Run the bench and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=32 << 10)
    ap.add_argument("--serial-size", type=int, default=64 << 10,
                    help="bytes of the C node's program over the pty (default 64 KiB; 1048576 for 1 MiB, ~91 s raw)")
    ap.add_argument("--serial-chunk", type=int, default=SERIAL_CHUNK,
                    help=f"DATA bytes per envelope over the pty (default {SERIAL_CHUNK}: one link frame each)")
    ap.add_argument("--no-mqtt", action="store_true", help="only the serial bench")
    ap.add_argument("--no-serial", action="store_true", help="only the MQTT bench")
    ap.add_argument("--no-delta", action="store_true", help="skip the delta and resumed-transfer figures")
    ap.add_argument("--serial-resume", action="store_true",
                    help="only the C node's resumed transfer over the pty (cut, SIGKILL, resume) vs uninterrupted")
    ap.add_argument("--traffic", type=int, default=0, metavar="N",
                    help="also N bad + N good `bb-edge deploy` runs under traffic: mixed and lost outputs")
    args = ap.parse_args()
    if args.serial_resume:
        with tempfile.TemporaryDirectory() as tmp:
            bench_serial_resume(Path(tmp), args.serial_size, args.serial_chunk)
        return
    if not args.no_delta:
        bench_delta_resume()
    if args.traffic:
        bench_traffic(args.traffic)
    if not args.no_serial:
        with tempfile.TemporaryDirectory() as tmp:
            bench_serial(Path(tmp), args.serial_size, args.repeat, args.serial_chunk)
    if args.no_mqtt:
        return
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

                run = Deploy(tap, dep.ids(), updates, next_seq, timeout_s=120, update_id=100 + i, deployment=dep.name)
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
