"""A separate rclpy process on the test's ROS 2 graph: publishes seeded frames, collects outputs and /diagnostics.

Run with the ROS 2 venv's Python (tests/support/ros2.py starts it). It reads one JSON command per line on
stdin and answers one JSON line on stdout:

- ``{"op": "wait", "in": TOPIC, "out": TOPIC}``: until the node's subscription and publisher are matched;
- ``{"op": "frames", "in": T, "out": T, "frames": [{"seed", "encoding", "height", "width", "stamp",
  "frame_id", "expect"}], "npz": PATH, "timeout": S}``: publish each frame (pixels from
  ``default_rng(seed)``, :func:`frame_pixels`), wait for the output with its stamp when ``expect`` is true
  (a frame expected to be refused waits ``refuse_wait`` seconds and must get nothing), and save the outputs
  to ``npz`` as ``out_<stamp>``; the answer lists each output's header and encoding;
- ``{"op": "diag", "name": S, "until": {"key": value, ...}, "has": {"key": substring, ...}, "level_at_least": N,
  "timeout": S}``: the newest DiagnosticStatus named ``name`` (received after the command) whose values equal
  ``until``'s, contain ``has``'s and whose level is at least N, as ``{"level", "message", "values"}``, or null;
- ``{"op": "param", "node": NAME, "get": [names], "set": {name: value}}``: the node's parameter services
  (what ``ros2 param get/set`` calls), as ``{"get": {name: value}, "set": [{"successful", "reason"}]}``;
- ``{"op": "lifecycle", "node": NAME}``: the lifecycle state label (``/NAME/get_state``);
- ``{"op": "quit"}``.
"""

from __future__ import annotations

import array
import json
import sys
import threading
import time
from typing import Any

import numpy as np


def frame_pixels(seed: int, encoding: str, height: int, width: int) -> np.ndarray:
    """The HWC pixels of a seeded frame (uint8 for 8-bit encodings, float32 for 32FC*)."""
    rng = np.random.default_rng(seed)
    chans = 3 if encoding in ("rgb8", "bgr8", "32FC3") else 1
    if encoding.startswith("32F"):
        return rng.standard_normal((height, width, chans)).astype(np.float32)
    return rng.integers(0, 256, (height, width, chans), dtype=np.uint8)


def cloud_points(seed: int, count: int) -> np.ndarray:
    """The [count, 3] float32 x, y, z of a seeded point cloud."""
    return np.random.default_rng(seed + 1000).standard_normal((count, 3)).astype(np.float32)


def main() -> int:
    """Serve commands until ``quit`` or end of input."""
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import Image

    rclpy.init()
    node = rclpy.create_node("bb_edge_test_peer")
    reliable = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
    lock = threading.Lock()
    outputs: dict[int, Any] = {}
    diags: list[tuple[float, Any]] = []
    pubs: dict[str, Any] = {}
    subs: dict[str, Any] = {}
    inbox: dict[str, list[Any]] = {}  # raw-tensor outputs by topic (op "arrays")

    def on_diag(m: Any) -> None:
        with lock:
            for st in m.status:
                diags.append((time.monotonic(), st))
            del diags[:-200]

    node.create_subscription(DiagnosticArray, "/diagnostics", on_diag, 10)

    def pub(topic: str) -> Any:
        if topic not in pubs:
            pubs[topic] = node.create_publisher(Image, topic, reliable)
        return pubs[topic]

    def sub(topic: str) -> Any:
        if topic not in subs:
            def on_out(m: Any) -> None:
                stamp = int(m.header.stamp.sec) * 10**9 + int(m.header.stamp.nanosec) if hasattr(m, "header") \
                    else -1
                with lock:
                    outputs[stamp] = m
            subs[topic] = node.create_subscription(Image, topic, on_out, reliable)
        return subs[topic]

    ex = SingleThreadedExecutor()
    ex.add_node(node)
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            ex.spin_once(timeout_sec=0.05)

    th = threading.Thread(target=spin, daemon=True)
    th.start()

    def answer(obj: Any) -> None:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd["op"]
        if op == "quit":
            break
        if op == "wait":
            p, s = pub(cmd["in"]), sub(cmd["out"])
            deadline = time.monotonic() + float(cmd.get("timeout", 30))
            while (p.get_subscription_count() < 1 or s.get_publisher_count() < 1) and time.monotonic() < deadline:
                time.sleep(0.05)
            answer({"ok": p.get_subscription_count() >= 1 and s.get_publisher_count() >= 1})
        elif op == "frames":
            p = pub(cmd["in"])
            sub(cmd["out"])
            got: dict[str, np.ndarray] = {}
            info = []
            t_start = time.monotonic()
            for f in cmd["frames"]:
                pix = frame_pixels(f["seed"], f["encoding"], f["height"], f["width"])
                m = Image()
                m.header.stamp.sec, m.header.stamp.nanosec = divmod(int(f["stamp"]), 10**9)
                m.header.frame_id = f.get("frame_id", "camera")
                m.height, m.width, m.encoding = int(f["height"]), int(f["width"]), f["encoding"]
                m.step = int(pix.shape[1] * pix.shape[2] * pix.itemsize)
                m.data = pix.tobytes()
                stamp = int(f["stamp"])
                wait = float(cmd.get("timeout", 20)) if f.get("expect", True) else float(cmd.get("refuse_wait", 1.0))
                out = None
                for _attempt in range(3 if f.get("expect", True) else 1):
                    p.publish(m)
                    deadline = time.monotonic() + wait / 3 if f.get("expect", True) else time.monotonic() + wait
                    while time.monotonic() < deadline:
                        with lock:
                            out = outputs.pop(stamp, None)
                        if out is not None:
                            break
                        time.sleep(0.002)
                    if out is not None:
                        break
                if out is None:
                    info.append({"stamp": stamp, "got": False})
                    continue
                dtype = {"32FC1": np.float32, "mono8": np.uint8, "32SC1": np.int32}[out.encoding]
                arr = np.frombuffer(bytes(out.data), dtype=dtype).reshape(out.height, out.width)
                got[f"out_{stamp}"] = arr
                info.append({"stamp": stamp, "got": True, "frame_id": out.header.frame_id,
                             "encoding": out.encoding, "shape": [int(out.height), int(out.width)]})
            if cmd.get("npz"):
                np.savez(cmd["npz"], **got)
            answer({"frames": info, "seconds": time.monotonic() - t_start})
        elif op == "bench":
            # closed loop: keep ``window`` frames in flight; latency = publish -> output received
            p = pub(cmd["in"])
            sub(cmd["out"])
            pix = frame_pixels(int(cmd.get("seed", 0)), "rgb8", int(cmd["height"]), int(cmd["width"]))
            n, window = int(cmd["n"]), int(cmd.get("window", 1))
            sent: dict[int, float] = {}
            lat: list[float] = []
            t_start = time.monotonic()
            next_stamp, deadline = 1, time.monotonic() + float(cmd.get("timeout", 120))
            while len(lat) < n and time.monotonic() < deadline:
                while len(sent) < window and next_stamp <= n:
                    m = Image()
                    m.header.stamp.sec, m.header.stamp.nanosec = 0, next_stamp
                    m.height, m.width, m.encoding, m.step = pix.shape[0], pix.shape[1], "rgb8", pix.shape[1] * 3
                    m.data = pix.tobytes()
                    sent[next_stamp] = time.monotonic()
                    p.publish(m)
                    next_stamp += 1
                with lock:
                    done = [k for k in sent if k in outputs]
                    for k in done:
                        outputs.pop(k)
                now = time.monotonic()
                for k in done:
                    lat.append(now - sent.pop(k))
                if not done:
                    time.sleep(0.0005)
            answer({"seconds": time.monotonic() - t_start, "latencies": lat})
        elif op == "param":
            # ros2 param get/set through the node's parameter services
            from rclpy.parameter import Parameter, parameter_value_to_python
            from rclpy.parameter_client import AsyncParameterClient

            client = AsyncParameterClient(node, cmd["node"])
            client.wait_for_services(10.0)
            reply: dict[str, Any] = {}
            if cmd.get("set"):
                fut = client.set_parameters([Parameter(k, value=v) for k, v in cmd["set"].items()])
                deadline = time.monotonic() + 10
                while not fut.done() and time.monotonic() < deadline:
                    time.sleep(0.01)
                reply["set"] = [{"successful": r.successful, "reason": r.reason} for r in fut.result().results]
            if cmd.get("get"):
                fut = client.get_parameters(cmd["get"])
                deadline = time.monotonic() + 10
                while not fut.done() and time.monotonic() < deadline:
                    time.sleep(0.01)
                reply["get"] = dict(zip(cmd["get"], (parameter_value_to_python(v) for v in fut.result().values)))
            answer(reply)
        elif op == "lifecycle":
            from lifecycle_msgs.srv import GetState

            cli = node.create_client(GetState, f"/{cmd['node']}/get_state")
            cli.wait_for_service(10.0)
            fut = cli.call_async(GetState.Request())
            deadline = time.monotonic() + 10
            while not fut.done() and time.monotonic() < deadline:
                time.sleep(0.01)
            answer({"state": fut.result().current_state.label})
        elif op == "arrays":
            # raw tensors: Float32MultiArray in (seeded standard normal of n values), one request at a time;
            # every output topic ({topic: "image" | "f32"}) must answer before the next
            from sensor_msgs.msg import PointCloud2, PointField
            from std_msgs.msg import Float32MultiArray, MultiArrayDimension

            if cmd["in"] not in pubs:
                pubs[cmd["in"]] = node.create_publisher(Float32MultiArray, cmd["in"], reliable)
            if cmd.get("points_in") and cmd["points_in"] not in pubs:
                pubs[cmd["points_in"]] = node.create_publisher(PointCloud2, cmd["points_in"], reliable)
            inbox.clear()
            inbox.update({t: [] for t in cmd["out"]})
            for t, kind in cmd["out"].items():
                if t not in subs:
                    typ = Image if kind == "image" else Float32MultiArray
                    subs[t] = node.create_subscription(typ, t, lambda m, t=t: inbox.setdefault(t, []).append(m),
                                                       reliable)
            deadline = time.monotonic() + 20
            while any(subs[t].get_publisher_count() < 1 for t in cmd["out"]) and time.monotonic() < deadline:
                time.sleep(0.05)
            ins = [cmd["in"], *([cmd["points_in"]] if cmd.get("points_in") else [])]
            while any(pubs[t].get_subscription_count() < 1 for t in ins) and time.monotonic() < deadline:
                time.sleep(0.05)
            saved: dict[str, np.ndarray] = {}
            for i, seed in enumerate(cmd["seeds"]):
                x = np.random.default_rng(seed).standard_normal(int(cmd["n"])).astype(np.float32)
                if cmd.get("points_in"):  # x, y, z float32 and an intensity field between them and the next point
                    pts = cloud_points(seed, int(cmd["points"]))
                    rec = np.zeros(len(pts), dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("i", "<f4")])
                    rec["x"], rec["y"], rec["z"], rec["i"] = pts[:, 0], pts[:, 1], pts[:, 2], 7.0
                    c = PointCloud2()
                    c.height, c.width, c.point_step, c.row_step = 1, len(pts), 16, 16 * len(pts)
                    c.fields = [PointField(name=k, offset=4 * j, datatype=PointField.FLOAT32, count=1)
                                for j, k in enumerate("xyzi")]
                    c.data = rec.tobytes()
                    pubs[cmd["points_in"]].publish(c)
                m = Float32MultiArray()
                m.layout.dim = [MultiArrayDimension(label="d0", size=int(cmd["n"]), stride=int(cmd["n"]))]
                m.data = array.array("f", x.tobytes())
                pubs[cmd["in"]].publish(m)
                deadline = time.monotonic() + 15
                while any(not v for v in inbox.values()) and time.monotonic() < deadline:
                    time.sleep(0.005)
                for t, msgs in inbox.items():
                    if msgs:
                        o = msgs.pop(0)
                        if cmd["out"][t] == "image":
                            dt = {"32FC1": np.float32, "32SC1": np.int32}[o.encoding]
                            saved[f"{i}_{t}"] = np.frombuffer(bytes(o.data), dt).reshape(o.height, o.width)
                        else:
                            saved[f"{i}_{t}"] = np.array(o.data, np.float32)
            np.savez(cmd["npz"], **{k.replace("/", "_"): v for k, v in saved.items()})
            answer({"got": sorted(k.replace("/", "_") for k in saved)})
        elif op == "diag":
            deadline = time.monotonic() + float(cmd.get("timeout", 10))
            since = time.monotonic()
            found = None
            while found is None and time.monotonic() < deadline:
                with lock:
                    cands = [st for t, st in diags if t >= since and st.name == cmd["name"]]
                for st in reversed(cands):
                    vals = {kv.key: kv.value for kv in st.values}
                    level = st.level[0] if isinstance(st.level, bytes) else int(st.level)
                    cond, has = cmd.get("until") or {}, cmd.get("has") or {}
                    if level >= int(cmd.get("level_at_least", 0)) and all(vals.get(k) == v for k, v in cond.items()) \
                            and all(v in vals.get(k, "") for k, v in has.items()):
                        found = {"level": level, "message": st.message, "hardware_id": st.hardware_id,
                                 "values": vals}
                        break
                time.sleep(0.05)
            answer(found)
        else:
            answer({"error": f"unknown op {op}"})
    stop.set()
    th.join(2)
    node.destroy_node()
    rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
