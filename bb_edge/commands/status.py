"""``bb-edge status mqtt://HOST:PORT[?creds=FILE]``: a live view of every node on a broker.

Built from the retained presence topics and the status records nodes publish
(``bb-edge node --status-interval``): up or down, version, program hash,
epoch, per-hop and compute latency, RTT to each neighbour, drops and
completed requests. A node is down on the broker's last will or when the
phi-accrual detector over its status records reaches the threshold
(bb_edge/adapters/ops/status_view.py). Refreshes until Ctrl-C; ``--once S`` prints one
table after S seconds and exits. Rows are nodes (``_host`` and clients are not), each with its program
(deployment name, ``program_version``, hash); a retained record of a node long gone shows ``gone``,
and ``--prune DIR`` deletes those of names not in DIR's deployment. On a cluster's
``mqtt://H1:P1,H2:P2,...`` it reads every member; ``--deployment DIR`` names the nodes whose retained
records it asks each member for (RabbitMQ sends retained messages to exact topics only).
"""

from __future__ import annotations

import argparse

from bb_edge.commands._args import _check_url, non_negative_float


def _mqtt_url(text: str) -> str:
    return _check_url(text, ("mqtt", "mqtts"), "mqtt://HOST:PORT[?creds=FILE] or mqtts://HOST:PORT[?...]")


def _run(args: argparse.Namespace) -> int:
    from bb_edge.adapters.ops.status_view import prune, run_view

    if args.prune:
        from bb_edge.deployment.manifest import load_deployment

        dep = load_deployment(args.prune)
        gone = prune(args.url, dep.name, dep.node_names)
        print(f"pruned the retained records of {len(gone)} name(s) not in {dep.name!r}"
              + (f": {', '.join(gone)}" if gone else ""))
        return 0

    names: dict[str, list[str]] = {}
    for d in args.deployment or []:
        from bb_edge.deployment.manifest import load_deployment

        dep = load_deployment(d)
        names.setdefault(dep.name, []).extend(dep.node_names)
    # the clock, the MQTT client and the redraw loop live in the adapter (bb_edge/ stays sans-IO)
    return run_view(args.url, interval=args.interval, threshold=args.threshold, refresh=args.refresh,
                    once=args.once, connect_timeout=args.connect_timeout, names=names)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``status`` subcommand."""
    p = sub.add_parser("status", help="live view of every node on an MQTT broker (presence + status records)")
    p.add_argument("url", type=_mqtt_url,
                   help="mqtt://HOST:PORT[?creds=FILE] (the read-only _status user of the generated ACL)")
    p.add_argument("--interval", type=non_negative_float, default=1.0,
                   help="the nodes' status interval in seconds (the detector's first guess; default 1)")
    p.add_argument("--threshold", type=non_negative_float, default=8.0,
                   help="phi-accrual threshold at which a silent node is shown down (default 8)")
    p.add_argument("--refresh", type=non_negative_float, default=0.25, help="seconds between redraws")
    p.add_argument("--once", type=non_negative_float, default=None, metavar="S",
                   help="print one table after S seconds and exit (no live view)")
    p.add_argument("--connect-timeout", type=non_negative_float, default=10.0,
                   help="seconds to wait for the broker connection")
    p.add_argument("--deployment", metavar="DIR", action="append",
                   help="on a clustered broker (mqtt://H1:P1,H2:P2,...), also list DIR's nodes that are not "
                        "publishing now (RabbitMQ keeps retained records per member, for exact topics only)")
    p.add_argument("--prune", metavar="DIR",
                   help="delete the retained records of names not in DIR's deployment (old runs, renamed nodes)")
    p.set_defaults(func=_run)
