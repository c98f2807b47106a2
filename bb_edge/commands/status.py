"""``bb-edge status mqtt://HOST:PORT[?creds=FILE]``: a live view of every node on a broker.

Built from the retained presence topics and the status records nodes publish
(``bb-edge node --status-interval``): up or down, version, program hash,
epoch, per-hop and compute latency, RTT to each neighbour, drops and
completed requests. A node is down on the broker's last will or when the
phi-accrual detector over its status records reaches the threshold
(adapters/status_view.py). Refreshes until Ctrl-C; ``--once S`` prints one
table after S seconds and exits.
"""

from __future__ import annotations

import argparse
import signal
import threading
import time

from bb_edge.commands._args import non_negative_float


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.live import Live

    from bb_edge.adapters.status_view import StatusClient, StatusModel, render

    model = StatusModel(interval=args.interval, threshold=args.threshold)
    client = StatusClient(args.url, model)
    client.start(args.connect_timeout)
    title = f"bb-edge fleet on {args.url.split('?')[0]}"
    console = Console()
    try:
        if args.once is not None:
            time.sleep(args.once)
            console.print(render(model, time.monotonic(), title))
            return 0
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        with Live(render(model, time.monotonic(), title), console=console, refresh_per_second=4,
                  screen=False) as live:
            while not stop.wait(args.refresh):
                live.update(render(model, time.monotonic(), title))
    finally:
        client.stop()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``status`` subcommand."""
    p = sub.add_parser("status", help="live view of every node on an MQTT broker (presence + status records)")
    p.add_argument("url", help="mqtt://HOST:PORT[?creds=FILE] (the read-only _status user of the generated ACL)")
    p.add_argument("--interval", type=non_negative_float, default=1.0,
                   help="the nodes' status interval in seconds (the detector's first guess; default 1)")
    p.add_argument("--threshold", type=non_negative_float, default=8.0,
                   help="phi-accrual threshold at which a silent node is shown down (default 8)")
    p.add_argument("--refresh", type=non_negative_float, default=0.25, help="seconds between redraws")
    p.add_argument("--once", type=non_negative_float, default=None, metavar="S",
                   help="print one table after S seconds and exit (no live view)")
    p.add_argument("--connect-timeout", type=non_negative_float, default=10.0,
                   help="seconds to wait for the broker connection")
    p.set_defaults(func=_run)
