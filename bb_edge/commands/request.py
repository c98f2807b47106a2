"""``bb-edge request DIR --fleet mqtt://HOST:PORT[?creds=FILE] --inputs IN.npz --outputs OUT.npz``
(or ``--stream IN_DIR --outputs OUT_DIR``: one request file each, outputs written as they complete).

Sends requests to a fleet that is already running (``bb-edge node`` processes, bundles' ``run.sh``)
as client ``_client<k>`` (``--client k``, default 1; every client sharing a fleet needs its own
slot) and writes the graph outputs. Unlike ``bb-edge run --transport``, it starts no nodes and does
not use the host's identity, so it runs beside the host and other clients. The Python API is
:class:`bb_edge.adapters.fleet.client.Client`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bb_edge.commands._args import non_negative_float, positive_int


def _client_slot(text: str) -> int:
    """A client slot 1..255 (``3`` or ``_client3``)."""
    from bb_edge.deployment.clients import ClientIdentityError, slot_of_name

    try:
        return slot_of_name(text)
    except ClientIdentityError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _mqtt_url(text: str) -> str:
    from bb_edge.commands._args import _check_url

    return _check_url(text, ("mqtt", "mqtts"), "mqtt://HOST:PORT[?creds=FILE] or mqtts://HOST:PORT[?...]")


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from bb_edge.adapters.fleet.client import Client
    from bb_edge.deployment.arrays import load_requests, save_outputs
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.paths import check_output_file, check_parent_exists

    if args.stream:
        return _stream(args)
    if args.outputs:
        check_output_file(args.outputs, "--outputs")
        check_parent_exists(args.outputs, "--outputs")
    dep = load_deployment(args.dir)
    requests = load_requests(dep, args.inputs, count=args.count)
    console = Console(stderr=True)
    with Client(dep, args.fleet, client=args.client, connect_timeout=args.connect_timeout) as client:
        client.wait_for_nodes(args.wait_nodes)
        outs = client.run(requests, window=args.window, timeout=args.timeout, retry_after=args.retry_after)
    if args.outputs:
        save_outputs(Path(args.outputs), outs)
        console.print(f"{client.name}: wrote {len(outs)} request(s) of outputs {sorted(outs[0])} to {args.outputs}",
                      markup=False, highlight=False)
    else:
        for k, v in outs[0].items():
            console.print(f"{k}: shape {list(v.shape)} {v.dtype}, first values {v.ravel()[:5]}",
                          markup=False, highlight=False)
    return 0


def _stream(args: argparse.Namespace) -> int:
    """``--stream DIR``: every ``*.npz`` in DIR (name order) is one request file; outputs go to
    ``--outputs DIR2/<same name>``, each written as soon as its request completes (async iteration)."""
    from bb_edge.adapters.fleet.client import Client
    from bb_edge.deployment.arrays import load_requests, save_outputs
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.errors import UsageError
    from bb_edge.paths import check_input_path, check_output_dir

    if args.inputs:
        raise UsageError("--stream DIR reads its requests from DIR; leave out --inputs")
    src = check_input_path(args.stream, "--stream", want_dir=True)
    if not args.outputs or not Path(args.outputs).is_dir():
        raise UsageError(f"--stream writes one .npz per request file into --outputs DIR; give an existing "
                         f"directory (got {args.outputs!r})")
    out_dir = check_output_dir(args.outputs, "--outputs")
    dep = load_deployment(args.dir)
    files = sorted(src.glob("*.npz"))
    if not files:
        raise UsageError(f"--stream {src}: no .npz files in it; put one request per file (numpy.savez)")
    per_file = [load_requests(dep, f, option="--stream") for f in files]  # every file checked before sending
    flat = [(f, r) for f, reqs in zip(files, per_file) for r in reqs]

    with Client(dep, args.fleet, client=args.client, connect_timeout=args.connect_timeout) as client:
        client.wait_for_nodes(args.wait_nodes)
        done: dict[Path, list[dict]] = {}
        n = 0
        for out in client.results((r for _, r in flat), window=args.window, timeout=args.timeout,
                                  retry_after=args.retry_after):
            f = flat[n][0]
            done.setdefault(f, []).append(out)
            n += 1
            if len(done[f]) == len(per_file[files.index(f)]):
                save_outputs(out_dir / f.name, done.pop(f))
                print(f"{client.name}: {f.name} -> {out_dir / f.name}", flush=True)
    print(f"{client.name}: {n} request(s) from {len(files)} file(s) in {src}", flush=True)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``request`` subcommand."""
    p = sub.add_parser("request", help="send requests to a running fleet as a client (starts no nodes)")
    p.add_argument("dir", help="the deployment directory the fleet runs (deployment.json)")
    p.add_argument("--fleet", required=True, type=_mqtt_url,
                   help="the fleet's broker: mqtt://HOST:PORT[?creds=FILE] (bb-edge broker writes the file)")
    p.add_argument("--inputs", help=".npz keyed by graph input name, one request or a stack (random if omitted)")
    p.add_argument("--outputs", help=".npz to write the graph outputs to (its directory must exist)")
    p.add_argument("--stream", metavar="DIR",
                   help="send every .npz in DIR (one request file each, name order) and write each one's outputs "
                        "to --outputs DIR as it completes")
    p.add_argument("--client", type=_client_slot, default=1,
                   help="client slot 1..255 (identity _client<k>); clients sharing a fleet need distinct slots")
    p.add_argument("--count", type=positive_int, default=1, help="random requests when --inputs is omitted")
    p.add_argument("--window", type=positive_int, default=4, help="requests in flight at once (default 4)")
    p.add_argument("--timeout", type=non_negative_float, default=60.0,
                   help="seconds a request may take, retries included (default 60)")
    p.add_argument("--retry-after", type=non_negative_float, default=5.0,
                   help="seconds before a late request is first retried (then doubling; default 5)")
    p.add_argument("--wait-nodes", type=non_negative_float, default=30.0,
                   help="seconds to wait for every node to be up (default 30)")
    p.add_argument("--connect-timeout", type=non_negative_float, default=20.0,
                   help="seconds to wait for the broker connection (default 20)")
    p.set_defaults(func=_run)
