"""ROS 2 node vs the same program run directly: frames/s and added latency for a 224x224 camera model.

One run, one machine: onnx's light SqueezeNet ([1, 3, 224, 224] -> [1, 1000]) compiled as one node,
built as a ros2 bundle (``bb-edge build --target robot=ros2-kilted``, transport none) and

- *direct*: the node's engine in a fresh process of the same Python and environment, fed the converted
  tensor of the same rgb8 frame (``image_to_tensor`` + ``Engine.submit`` + ``poll`` until the output),
  one frame in flight;
- *ros2*: the bundle's rclpy node in its own process (the ROS 2 venv, Fast DDS), fed
  ``sensor_msgs/Image`` rgb8 frames by a separate rclpy process that keeps ``--window`` frames in flight
  and times publish -> output received (tests/support/ros2_peer.py).

Both run in alternating rounds (the machine's load changes), each in its own process with the same
Python and environment (OMP_NUM_THREADS=1). Prints frames/s of both, the ratio (goal >= 0.9x), the
median added latency, and the CPU time each process spent per frame (from /proc: unlike wall time, it
does not depend on what else the machine runs). Needs the ROS 2 venv that .ci/pip-preinstall.sh
prepares. Run from a checkout: ``python bench/bench_ros2.py [--frames N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")  # as tests/support/ros2.py's ros_env gives the node

from bb_edge.adapters.fleet.ros2_convert import Port, image_to_tensor  # noqa: E402
from bb_edge.bundle.build import build_all  # noqa: E402
from bb_edge.compiler import compile_model, load_deployment  # noqa: E402
from bb_edge.engine import Engine, events  # noqa: E402
from tests.support.models import light  # noqa: E402
from tests.support.ros2 import PYTHON, Peer, domain_for, ros_env  # noqa: E402
from tests.support.ros2_peer import frame_pixels  # noqa: E402


class Direct:
    """The node's engine run in this process, one frame in flight (the frame converted as the node does)."""

    def __init__(self, comp: Path) -> None:
        dep = load_deployment(comp)
        self.name = dep.inputs[0].name
        self.eng = Engine.for_node(dep, dep.node_names[0], backend="ort", outputs_to_host=False)
        self.port = Port(self.name, "float32", list(dep.inputs[0].shape), "/in", "sensor_msgs/Image", "NCHW")
        self.data = frame_pixels(0, "rgb8", 224, 224).tobytes()
        self.rid = 0
        self.run(3)  # warm-up

    def compute_ms(self) -> float:
        """Median of the last frames' compute alone (ORT run of the node's one segment)."""
        seg = self.eng.programs[next(iter(self.eng.programs))].prepared[0]
        x = {self.name: image_to_tensor(self.port, "rgb8", 224, 224, 224 * 3, 0, self.data)}
        times = []
        for _ in range(10):
            t = time.perf_counter()
            seg.run(x)
            times.append(time.perf_counter() - t)
        return statistics.median(times) * 1e3

    def run(self, frames: int) -> tuple[float, list[float]]:
        """(seconds, latencies) of ``frames`` frames."""
        lat = []
        t0 = time.perf_counter()
        for _ in range(frames):
            t = time.perf_counter()
            self.rid += 1
            self.eng.submit(self.rid, {self.name: image_to_tensor(self.port, "rgb8", 224, 224, 224 * 3, 0,
                                                                  self.data)})
            done = False
            while not done:
                self.eng.poll(time.monotonic())
                done = any(isinstance(e, events.OutputReady) for e in self.eng.drain_events())
            lat.append(time.perf_counter() - t)
        return time.perf_counter() - t0, lat


def direct_worker(program_dir: Path) -> None:
    """``--direct-worker DIR``: serve ``run N`` / ``compute`` lines on stdin with JSON answers (a fresh
    process like the node's: the orchestrating process has built bundles and holds other sessions)."""
    direct = Direct(program_dir)
    for line in sys.stdin:
        word, *rest = line.split()
        if word == "run":
            seconds, lat = direct.run(int(rest[0]))
            print(json.dumps({"seconds": seconds, "latencies": lat}), flush=True)
        elif word == "compute":
            print(json.dumps({"compute_ms": direct.compute_ms()}), flush=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class DirectProcess:
    """:class:`Direct` in its own process, with the node's environment."""

    def __init__(self, program_dir: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([str(PYTHON), __file__, "--direct-worker", str(program_dir)], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line: str) -> dict[str, object]:
        """One command, its answer."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def run(self, frames: int) -> tuple[float, list[float]]:
        """(seconds, latencies) of ``frames`` frames."""
        r = self.ask(f"run {frames}")
        return float(r["seconds"]), [float(x) for x in r["latencies"]]  # type: ignore[arg-type,union-attr]

    def compute_ms(self) -> float:
        """The worker's compute time per frame."""
        return float(self.ask("compute")["compute_ms"])  # type: ignore[arg-type]

    def close(self) -> None:
        """End the worker."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(30)


def main() -> None:
    """Run both, interleaved in rounds (the machine's load changes), and print the comparison."""
    if len(sys.argv) == 3 and sys.argv[1] == "--direct-worker":
        direct_worker(Path(sys.argv[2]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=50, help="frames per round and side")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--window", type=int, default=1, help="frames in flight from the ROS publisher")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        compile_model(str(light("squeezenet")), nodes=1, node_names=["robot"], out_dir=d / "comp")
        build_all(d / "comp", ["robot=ros2-kilted"], d / "dist", options={"transport": "none"})
        out = d / "dist" / "robot"
        man = json.loads((out / "manifest.json").read_text())
        tin, tout = man["topics"]["inputs"][0]["topic"], man["topics"]["outputs"][0]["topic"]
        env = ros_env(domain_for(71))
        node = subprocess.Popen([str(PYTHON), str(out / man["ros_package"] / "node.py"), "--ros-args", "-p",
                                 "qos_inputs:=reliable"], cwd=out, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        peer = Peer(env, d / "peer.log")
        direct = DirectProcess(out / "program", env)
        rounds: list[tuple[float, float]] = []
        cpu = [0.0, 0.0]  # CPU seconds of the direct worker and of the ROS node over the measured rounds
        lat_d: list[float] = []
        lat_r: list[float] = []
        try:
            assert peer.ask(op="wait", **{"in": tin, "out": tout}, timeout=60)["ok"], peer.stderr()
            peer.ask(op="bench", **{"in": tin, "out": tout}, n=5, window=1, height=224, width=224)  # warm-up
            for _ in range(args.rounds):
                c0 = cpu_seconds(direct.proc.pid)
                t_d, ld = direct.run(args.frames)
                c1 = cpu_seconds(node.pid)
                cpu[0] += cpu_seconds(direct.proc.pid) - c0
                res = peer.ask(op="bench", **{"in": tin, "out": tout}, n=args.frames, window=args.window,
                               height=224, width=224)
                assert len(res["latencies"]) == args.frames, f"{len(res['latencies'])} of {args.frames} answered"
                cpu[1] += cpu_seconds(node.pid) - c1
                rounds.append((args.frames / t_d, args.frames / float(res["seconds"])))
                lat_d += ld
                lat_r += [float(x) for x in res["latencies"]]
            diag = peer.ask(op="diag", name=f"bb_edge: {man['ros_package']}", timeout=5) or {"values": {}}
            compute_direct = direct.compute_ms()
        finally:
            direct.close()
            peer.close()
            node.terminate()
            node.wait(30)
    fps_d = statistics.median(r[0] for r in rounds)
    fps_r = statistics.median(r[1] for r in rounds)
    med_d, med_r = statistics.median(lat_d) * 1e3, statistics.median(lat_r) * 1e3
    print(f"squeezenet 224x224 rgb8: {args.rounds} rounds x {args.frames} frames per side, ROS window {args.window}")
    print(f"  direct (engine, no ROS):     {fps_d:7.1f} frames/s, median latency {med_d:6.2f} ms")
    print(f"  ros2 node (rclpy, Fast DDS): {fps_r:7.1f} frames/s, median latency {med_r:6.2f} ms "
          f"(p90 {float(np.percentile(lat_r, 90)) * 1e3:.2f} ms)")
    n = args.frames * args.rounds
    print(f"  CPU per frame: direct {cpu[0] / n * 1e3:.2f} ms, ros2 node {cpu[1] / n * 1e3:.2f} ms "
          f"-> {cpu[0] / cpu[1]:.2f}x frames per CPU-second (load-independent)")
    print(f"  engine compute: direct {compute_direct:.2f} ms, ros2 node {diag['values'].get('compute_ms')} ms "
          f"(EWMA from /diagnostics)")
    print(f"  per round ros2/direct: {' '.join(f'{r / q:.2f}' for q, r in rounds)}")
    print(f"  ratio ros2/direct: {fps_r / fps_d:.2f}x throughput (goal >= 0.9x), "
          f"{med_r - med_d:+.2f} ms median latency")


if __name__ == "__main__":
    main()
