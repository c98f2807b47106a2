"""``bb-edge broker DIR``: a local Mosquitto with generated config, passwords and ACL for a deployment.

``--bridge-to mqtt://CORE`` bridges it, as a site broker, to a core broker
generated with ``--accept-bridge SITE`` (docs/transports.md, "Fleets across
sites").

``--kind rabbitmq`` writes a RabbitMQ cluster's configuration instead (``DIR/cluster``: the same users
and topic permissions as the Mosquitto ACL, quorum-queue sessions, size limits) and, with ``--start``,
runs ``--members`` members on loopback ports (bb_edge/adapters/ops/rabbit.py).

Writes ``mosquitto.conf``, ``passwd``, ``acl`` and ``credentials.json`` into
``--out`` (default ``DIR/broker``), prints the transport URL to pass to
``bb-edge run`` / ``bb-edge node``, and runs the broker until SIGINT/SIGTERM
(``--write-only`` just writes the files).

Before it writes anything it checks that ``--port`` is free (a taken port is a
one-line ``PortInUseError`` naming the process that holds it; a warning with
``--write-only``) and that no Mosquitto runs on the files it would rewrite
(``BrokerRunningError``): a running broker's passwords are never replaced.
"""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path

from bb_edge.commands._args import name_list, tcp_port
from bb_edge.errors import InputFileError
from bb_edge.names import cli_name
from bb_edge.paths import check_input_path, check_output_dir


def site_nodes(text: str) -> tuple[str, list[str]]:
    """argparse type of ``--accept-bridge SITE=A,B``."""
    site, sep, nodes = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r}: give SITE=NODE,NODE (the nodes the site serves)")
    return cli_name(site), name_list(nodes)


def _check_not_running(out: Path, args: argparse.Namespace) -> None:
    """Before anything is written: the files of a running broker stay untouched, and the port must be free.

    With ``--write-only`` a taken port is a warning (the broker is started later, maybe elsewhere).
    """
    import sys

    from bb_edge.adapters.ops.ports import BrokerRunningError, PortInUseError, check_port_free, mosquitto_on

    running = mosquitto_on(out / "mosquitto.conf")
    if running is not None:
        raise BrokerRunningError(f"{out / 'mosquitto.conf'} is the config of a running broker, {running}; "
                                 "its passwd, acl and credentials.json were left as they are; stop it first "
                                 f"(kill {running.pid}) to regenerate them, or write elsewhere with -o DIR")
    try:
        check_port_free(args.host, args.port)
    except PortInUseError as exc:
        if not args.write_only:
            raise
        print(f"warning: {exc}; mosquitto started on these files will fail to listen", file=sys.stderr)


def _run_cluster(args: argparse.Namespace) -> int:
    """``--kind rabbitmq``: write a RabbitMQ cluster's files; with ``--start`` run its members until a signal."""
    from bb_edge.adapters.ops.rabbit import ClusterError, RabbitCluster, write_cluster_files
    from bb_edge.deployment.manifest import load_deployment

    out = Path(args.out) if args.out else Path(args.dir) / "cluster"
    check_output_dir(out, "-o")
    if args.bridge_to or args.accept_bridge or args.tls_cert:
        raise InputFileError("--kind rabbitmq takes no --bridge-to, --accept-bridge or TLS options (yet): every "
                             "site connects to the cluster's members directly")
    dep = load_deployment(args.dir)
    files = write_cluster_files(out, dep, members=args.members, port=args.port, host=args.host, prefix=args.prefix)
    print(f"wrote {files.definitions}, {files.credentials} and {len(files.members)} member configs under {out}")
    for m in files.members:
        print(f"member {m.index + 1}: {m.node} on {files.host}:{m.port}")
    print(f"transport URL: {files.url()}")
    if not args.start:
        return 0
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    cluster = RabbitCluster(files).start()
    print(f"rabbitmq cluster running (pids {', '.join(str(cluster.pid(i)) for i in range(len(files.members)))}); "
          "Ctrl-C stops it", flush=True)
    try:
        while not stop.wait(0.5):
            down = [m.node for m in files.members if cluster.pid(m.index) is None]
            if down:
                raise ClusterError(f"member(s) {', '.join(down)} exited (logs under {out})")
    finally:
        cluster.stop()
    return 0


def _run(args: argparse.Namespace) -> int:
    if args.kind == "rabbitmq":
        return _run_cluster(args)
    from bb_edge.adapters.ops.broker import Broker, BrokerError, TlsFiles, write_broker_files
    from bb_edge.deployment.manifest import load_deployment

    out = Path(args.out) if args.out else Path(args.dir) / "broker"
    check_output_dir(out, "-o")  # before any work: a bad -o fails in one line
    for option, value in (("--tls-ca", args.tls_ca), ("--tls-cert", args.tls_cert), ("--tls-key", args.tls_key)):
        if value:
            check_input_path(value, option)
    if args.tls_cert and not args.tls_key:
        raise InputFileError("--tls-cert needs --tls-key (the server key in PEM); pass both")
    dep = load_deployment(args.dir)
    _check_not_running(out, args)
    tls = TlsFiles(args.tls_ca, args.tls_cert, args.tls_key) if args.tls_cert else None
    files = write_broker_files(out, dep, port=args.port, host=args.host, prefix=args.prefix,
                               persistence=not args.no_persistence, tls=tls, bridge_to=args.bridge_to,
                               site=args.site, accept_bridges=dict(args.accept_bridge or ()),
                               site_nodes=args.site_nodes)
    if args.bridge_to:
        print(f"bridge: site {args.site} -> {args.bridge_to.split('?')[0]} (the topics of "
              f"{', '.join(args.site_nodes)}; control only from the core)")
    print(f"wrote {files.conf}, {files.passwd}, {files.acl}, {files.credentials}")
    print(f"transport URL: {files.url()}" + (f"&ca={args.tls_ca}" if tls else ""))
    if args.write_only:
        return 0
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    broker = Broker(files).start()
    print(f"mosquitto running (pid {broker.pid}) on {files.host}:{files.port}; Ctrl-C stops it", flush=True)
    try:
        while not stop.wait(0.5):
            if broker.pid is None:
                log = [ln for ln in broker.log().splitlines() if ln.strip()]
                raise BrokerError(f"mosquitto exited: {log[-1] if log else 'no log line'} "
                                  f"(log: {files.directory / 'mosquitto.log'})")
    finally:
        broker.stop()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``broker`` subcommand."""
    p = sub.add_parser("broker", help="run a local Mosquitto with generated ACLs for a deployment")
    p.add_argument("dir", help="compiled deployment directory")
    p.add_argument("-o", "--out", help="directory for the generated files (default DIR/broker)")
    p.add_argument("--host", default="127.0.0.1", help="listen address (default loopback)")
    p.add_argument("--port", type=tcp_port, default=1883, help="listen port (default 1883)")
    p.add_argument("--prefix", default="bb", type=cli_name, help="first topic segment (a name)")
    p.add_argument("--no-persistence", action="store_true", help="do not keep sessions across restarts")
    p.add_argument("--tls-ca", help="CA certificate (PEM) for TLS")
    p.add_argument("--tls-cert", help="server certificate (PEM); enables TLS (mqtts://)")
    p.add_argument("--tls-key", help="server key (PEM)")
    p.add_argument("--bridge-to", metavar="URL", default=None,
                   help="bridge this (site) broker to a core broker: mqtt[s]://CORE:PORT[?creds=FILE] with the "
                        "core's credentials.json (user _bridge_SITE); topics and ACLs are kept")
    p.add_argument("--site", default="site", type=cli_name, help="this site's name for --bridge-to (default: site)")
    p.add_argument("--site-nodes", type=name_list, default=None, metavar="A,B",
                   help="with --bridge-to: the nodes this site serves; its broker holds only their credentials")
    p.add_argument("--accept-bridge", action="append", metavar="SITE=A,B", type=site_nodes,
                   help="on the core broker: accept the bridge of SITE serving nodes A,B (adds user _bridge_SITE "
                        "allowed exactly those nodes' topics; repeatable)")
    p.add_argument("--write-only", action="store_true", help="write the files, do not start mosquitto")
    p.add_argument("--kind", choices=("mosquitto", "rabbitmq"), default="mosquitto",
                   help="mosquitto (one broker, default) or rabbitmq (a cluster: --members, --start)")
    p.add_argument("--members", type=int, default=3, help="with --kind rabbitmq: cluster members (default 3) "
                   "on ports PORT, PORT+1 ...")
    p.add_argument("--start", action="store_true", help="with --kind rabbitmq: run the members until Ctrl-C")
    p.set_defaults(func=_run)
