"""Clients of a running fleet vs the host, as ratios measured in the same run.

One Mosquitto with generated credentials, the fleet's nodes as engines in this process (MqttFleet), a
2-node MLP. Figures, each against the host's own requests/s (``host_endpoint(...).run``) measured first
in the same run:

- one client (``Client.run``, identity ``_client1``): its requests/s / the host's (goal ~1: the same
  state machine, only the identity differs);
- two clients at once (threads, ``_client1`` and ``_client2``): their summed requests/s / the host's
  (the fleet is shared: > 1 means the nodes pipeline the two streams).

    python bench/bench_client.py [--requests N] [--window W] [--runs R]

Host and one client run alternately ``--runs`` times; the figures are the best of each.

Prints figures, asserts none (outputs are checked against ONNX Runtime).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.fleet.client import Client  # noqa: E402
from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint  # noqa: E402
from bb_edge.adapters.ops.broker import Broker, write_broker_files  # noqa: E402
from bb_edge.compiler import compile_model, load_deployment  # noqa: E402
from tests.support.models import mlp, monolithic  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--window", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    model = mlp(rng)
    with tempfile.TemporaryDirectory(prefix="bb-bench-client-") as d:
        tmp = Path(d)
        onnx.save(model, str(tmp / "m.onnx"))
        compile_model(str(tmp / "m.onnx"), nodes=2, out_dir=tmp / "c")
        dep = load_deployment(tmp / "c")
        files = write_broker_files(tmp / "broker", dep)
        url = files.url()
        broker = Broker(files).start()
        fleet = MqttFleet(dep, url)
        try:
            fleet.start()
            reqs = [{"x": rng.standard_normal((1, 32)).astype(np.float32)} for _ in range(args.requests)]
            want = [monolithic(model, r)["y"] for r in reqs]

            def check(got: list[dict[str, np.ndarray]]) -> None:
                for g, w in zip(got, want, strict=True):
                    np.testing.assert_allclose(g["y"], w, rtol=1e-5, atol=1e-6)

            host = host_endpoint(dep, url)
            host.wait_for_peers(dep.node_names, 30)
            c1, c2 = Client(dep, url, client=1), Client(dep, url, client=2)
            c1.wait_for_nodes(30)
            c2.wait_for_nodes(30)
            host.run(reqs[:20], window=args.window)  # warm-up
            c1.run(reqs[:20], window=args.window)
            host_rps = one_rps = 0.0
            for _ in range(args.runs):  # alternated, best of each: the machine is shared
                t = time.perf_counter()
                check(host.run(reqs, window=args.window))
                host_rps = max(host_rps, len(reqs) / (time.perf_counter() - t))
                t = time.perf_counter()
                check(c1.run(reqs, window=args.window))
                one_rps = max(one_rps, len(reqs) / (time.perf_counter() - t))
                print(f"run: host best {host_rps:.0f}/s, client best {one_rps:.0f}/s", flush=True)
            host.close()

            results: dict[int, list[dict[str, np.ndarray]]] = {}

            def go(k: int, c: Client) -> None:
                results[k] = c.run(reqs, window=args.window)

            threads = [threading.Thread(target=go, args=(k, c)) for k, c in ((1, c1), (2, c2))]
            t = time.perf_counter()
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            two_rps = 2 * len(reqs) / (time.perf_counter() - t)
            for got in results.values():
                check(got)
            c1.close()
            c2.close()
        finally:
            fleet.stop()
            broker.stop()
    print(f"host            {host_rps:8.1f} requests/s (baseline)")
    print(f"one client      {one_rps:8.1f} requests/s  ratio {one_rps / host_rps:.2f}")
    print(f"two clients     {two_rps:8.1f} requests/s  ratio {two_rps / host_rps:.2f} (summed, sharing the fleet)")


if __name__ == "__main__":
    main()
