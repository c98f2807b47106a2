"""``bb-edge node DIR --node NAME --transport URL``: run one node of a deployment in this process.

The transport is ``mqtt://HOST:PORT[?creds=FILE]``, ``mqtts://...`` or a
serial port (``serial:///dev/ttyUSB0?baud=115200``, ``serial:loop://``); see
docs/transports.md. The node runs until SIGINT/SIGTERM (or a ``stop`` on the
fleet control topic), then flushes in-flight envelopes and prints a shutdown
report. Node events (peers up/down, dropped envelopes, completed requests)
are printed one per line as ``event <Type> key=value ...``.
"""

from __future__ import annotations

import argparse
import gc
import sys
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from bb_edge.commands._args import node_transport, non_negative_float, non_negative_int
from bb_edge.errors import BBError, DeploymentError, UsageError
from bb_edge.names import cli_name

if TYPE_CHECKING:  # the engine and compiler (onnx) load when the command runs, not when the CLI parses
    from bb_edge.engine import events


def positive_float(text: str) -> float:
    """argparse type: a finite number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"{text} must be a positive number of seconds")
    return value


def backoff(text: str) -> tuple[float, float]:
    """argparse type of ``--reconnect-backoff MIN,MAX`` (seconds)."""
    from bb_edge.adapters.transports.mqtt import MqttError, parse_backoff

    try:
        return parse_backoff(text)
    except MqttError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def format_event(e: events.Event) -> str:
    """One line for an event: ``event <Type> field=value ...`` (arrays shown by shape)."""
    parts = [f"event {type(e).__name__}"]
    for f in fields(e):
        v = getattr(e, f.name)
        if hasattr(v, "shape"):
            v = f"<{v.dtype}{list(v.shape)}>"
        elif isinstance(v, bytes):
            v = v[:32]
        parts.append(f"{f.name}={v}")
    return " ".join(parts)


def _hello(engine: Any, learn: Any) -> None:
    """A learning node announces itself to its own peers (:meth:`LearningNode.hello`); any other to all."""
    if learn is not None:
        learn.hello()
    else:
        engine.hello()


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bb_edge.adapters.fleet.hostloop import (
        HostLoop,
        load_node_state,
        restore_node_state,
        save_node_state,
        seed_sequence,
        transport_for,
    )
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.engine import Engine, events
    from bb_edge.paths import check_output_file

    for option, value in (("--state", args.state), ("--epoch-file", args.epoch_file)):
        if value:  # checked before the node starts: a path under a file fails here, not at the first snapshot
            check_output_file(value, option)
    dep = load_deployment(args.dir)
    learn = None
    if "learning" in dep.extra:
        # a learning deployment: the node's engine is built as the simulator builds it (bb_edge/adapters/learn/node.py)
        learn = _learning_node(dep, args)
        engine = learn.engine
        dep = learn.deployment  # node names and ids for the transport
    elif args.node not in dep.node_names:
        raise DeploymentError(f"--node {args.node}: no such node in {args.dir}; nodes: {', '.join(dep.node_names)}")
    else:
        backend: Any = args.backend
        if args.threads and args.backend == "ort":
            from bb_edge.backends.ort import OrtBackend

            backend = OrtBackend(intra_op_threads=args.threads)
        engine = Engine.for_node(dep, args.node, backend=backend,
                                 outputs_to_host=not args.no_outputs_to_host)
        from bb_edge.adapters.ops.ota_store import attach_ota

        attach_ota(engine, dep, args.node, args.dir)  # program updates (docs/wire.md); the active A/B slot runs
    state = load_node_state(args.state) if args.state and Path(args.state).exists() else None
    if state is None:
        seed_sequence(engine, state_file=args.epoch_file)  # seq = (boot epoch << 32) | n
        # announces the node (the serial hub waits for it; MQTT peers log PeerUp); a learning client
        # announces itself to its server only
        _hello(engine, learn)
    # per-request telemetry events become spans (--otlp), not lines
    quiet: set[type] = {events.RequestOpened, events.SegmentComputed}
    if args.quiet:
        quiet.add(events.OutputReady)

    def show(evs: list[events.Event]) -> None:
        for e in evs:
            if type(e) not in quiet and not (args.quiet and isinstance(e, events.RequestCompleted)):
                print(format_event(e), flush=True)

    url = args.transport
    if args.reconnect_backoff is not None and url.split(":", 1)[0] in ("mqtt", "mqtts"):
        url += ("&" if "?" in url else "?") + f"reconnect={args.reconnect_backoff[0]},{args.reconnect_backoff[1]}"
    transport = transport_for(url, dep, args.node)
    # inline: an envelope is applied on the transport's thread that received it (fewer thread wake-ups per hop);
    # not for learning nodes, whose training steps may outlast the transport's keepalive
    loop = HostLoop(engine, transport, on_events=show, flush_timeout=args.flush_timeout, inline=learn is None,
                    **({"clock": learn.clock} if learn is not None else {}))
    if state is not None:
        # restore before the HELLO: it must announce the restored (or next) epoch
        epoch = restore_node_state(state, engine, loop.retransmit, now=loop.clock(),
                                   epoch_file=args.epoch_file, deployment=dep.name)
        _hello(engine, learn)
        print(f"restored {args.state}: epoch {epoch} seq {engine.seq} open requests {engine.open_requests} "
              f"({'clean shutdown' if state.clean else 'periodic snapshot: new epoch'})", flush=True)
    if args.state:
        state_path = args.state

        def snapshot(now: float) -> None:
            save_node_state(state_path, engine, loop.retransmit, clean=False, deployment=dep.name)

        loop.call_every(args.state_interval, snapshot)
    from bb_edge.adapters.fleet.hostloop import PeerWatch
    from bb_edge.adapters.ops.telemetry import Telemetry, providers

    if args.heartbeat > 0:  # phi-accrual over PONGs from stages that have standbys (stage failover)
        PeerWatch.for_engine(loop, interval=args.heartbeat)

    # OTLP only when an endpoint is configured (--otlp or OTEL_EXPORTER_OTLP_ENDPOINT); the status record always
    tracer_provider, meter_provider = providers(args.otlp, service=f"bb-edge/{dep.name}/{args.node}")
    pv = dep.extra.get("program_version")
    Telemetry(engine, dep.name, tracer_provider, meter_provider,
              program_version=pv if isinstance(pv, str) else None).attach(loop, status_interval=args.status_interval)
    loop.install_signal_handlers()
    wait_connected = getattr(transport, "wait_connected", None)
    if callable(wait_connected):
        cfg = getattr(transport, "cfg", None)
        if cfg is not None:  # says the node is up and trying (a restart waiting for its broker is visible)
            print(f"connecting to {cfg.host}:{cfg.port} as {args.node} (reconnect back-off "
                  f"{cfg.reconnect_min:g}..{cfg.reconnect_max:g} s)", flush=True)
        loop.open()
        try:  # a bounded first connect: an unreachable broker is a one-line error, not a silent retry loop
            wait_connected(args.connect_timeout)
        except BBError:
            transport.close()
            raise
    print(f"node {args.node} (id {engine.node_id}) of {dep.name!r} on {args.transport.split('?')[0]}",
          flush=True)
    if learn is not None and args.start_file:
        learn.wait_start(args.start_file, lambda: loop.stopping)  # the fleet's common start (bb-edge run)
    progress = _learning_progress(learn, loop, show, args)
    # what start-up built (the program, its sessions, the imports) lives as long as the node: moved out of the
    # collector's reach, a full collection no longer walks it (measured in an LLM stage: ~7 ms every ~200 tokens)
    gc.collect()
    gc.freeze()
    report = loop.run()
    if progress is not None:
        progress.final()
    if args.state:  # after the final flush: the sequence number saved is the last one sent
        save_node_state(args.state, engine, loop.retransmit, clean=True, deployment=dep.name)
        print(f"saved {args.state}: epoch {engine.boot_epoch} seq {engine.seq}", flush=True)
    for provider in (tracer_provider, meter_provider):
        if provider is not None:
            provider.shutdown()  # exports what is buffered
    print(f"shutdown {report}", flush=True)
    sys.stdout.flush()
    return 0 if report.unconfirmed == 0 else 3


def _learning_node(dep: Any, args: argparse.Namespace) -> Any:
    """The :class:`~bb_edge.adapters.learn.node.LearningNode` of ``--node`` (``--learning`` overrides merged)."""
    import json

    from bb_edge.adapters.learn.node import LearningNode

    try:
        overrides = json.loads(args.learning) if args.learning else {}
    except ValueError as exc:
        raise UsageError(f"--learning is not a JSON object: {exc}") from None
    if not isinstance(overrides, dict):
        raise UsageError("--learning must be a JSON object of learning settings, e.g. '{\"rounds\": 5}'")
    try:
        return LearningNode.load(dep, args.node, overrides=overrides, backend=args.backend, late=args.late,
                                 origin=args.clock_origin, program_cache=args.program_cache)
    except BBError:
        raise  # typed already (ConfigError says the fix)
    except (ValueError, TypeError, KeyError) as exc:  # a setting of the wrong type: one line, not a traceback
        raise DeploymentError(f"learning deployment {args.dir}: bad setting ({type(exc).__name__}: {exc}); "
                              "check its learning object and --learning") from None


def _learning_progress(learn: Any, loop: Any, show: Any, args: argparse.Namespace) -> Any:
    """Attach a progress log (``--progress FILE``) to a learning node's loop; ``None`` otherwise."""
    if learn is None or not args.progress:
        return None
    from bb_edge.adapters.learn.node import ProgressLog

    log = ProgressLog(args.progress, learn)

    def on_events(evs: list[Any]) -> None:
        show(evs)
        log.on_events(evs)
        log.check(loop.clock())

    loop.on_events = on_events
    send = loop.transport.send

    def counted_send(peer: str, receiver: int, data: bytes) -> None:
        log.count_sent(peer, receiver, data)  # bytes by peer and message type, for the fleet's summary
        send(peer, receiver, data)

    loop.transport.send = counted_send
    loop.call_every(0.05, log.check)  # progress that is not an event (a gossip period) is noticed too
    loop.call_every(0.5, log.bytes)
    return log


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``node`` subcommand."""
    p = sub.add_parser("node", help="run one node of a compiled deployment over a transport")
    p.add_argument("dir", help="compiled deployment directory")
    p.add_argument("--node", required=True, type=cli_name, help="node name from deployment.json")
    p.add_argument("--transport", required=True, type=node_transport,
                   help="mqtt://HOST:PORT[?creds=FILE], mqtts://..., or serial:PORT[?baud=N]")
    p.add_argument("--backend", default="ort", choices=["ort", "reference", "executorch"],
                   help="ort: ONNX Runtime (default); reference: onnx.reference; executorch: every segment "
                        "exported to a .pte and run by ExecuTorch (pip install bb-edge[executorch])")
    p.add_argument("--threads", type=non_negative_int, default=0,
                   help="ONNX Runtime intra-op threads per segment (default 0: ORT's choice, the cores)")
    p.add_argument("--no-outputs-to-host", action="store_true",
                   help="keep graph outputs local instead of sending them to the host endpoint")
    p.add_argument("--flush-timeout", type=non_negative_float, default=10.0,
                   help="seconds to wait for in-flight envelopes at shutdown")
    p.add_argument("--connect-timeout", type=float, default=None,
                   help="seconds to wait for the first broker connection (default: the URL's "
                        "connect_timeout, 30); then exit with status 1")
    p.add_argument("--reconnect-backoff", type=backoff, default=None, metavar="MIN,MAX",
                   help="MQTT: seconds between connection attempts after a lost or refused connection, doubling "
                        "from MIN to MAX (default 0.05,2: a restarted broker sees its nodes back within 2 s)")
    p.add_argument("--epoch-file", default=None,
                   help="file keeping this node's boot epoch (seq = epoch << 32 | n); default: the clock")
    p.add_argument("--state", default=None, metavar="FILE",
                   help="keep node state (sequence, epoch, duplicate windows, open requests, resend buffer, "
                        "component state) in FILE: restored at start, saved periodically and at shutdown")
    p.add_argument("--state-interval", type=positive_float, default=5.0,
                   help="seconds between periodic state snapshots (default 5)")
    p.add_argument("--otlp", default=None, metavar="URL",
                   help="export OpenTelemetry traces and metrics over OTLP/HTTP to URL, or print them as JSON "
                        "on stderr with `console` (default: $OTEL_EXPORTER_OTLP_ENDPOINT; none: no export); "
                        "needs bb-edge[telemetry]")
    p.add_argument("--status-interval", type=non_negative_float, default=1.0,
                   help="seconds between status records on the status topic and neighbour PINGs "
                        "(default 1; 0: none)")
    p.add_argument("--heartbeat", type=non_negative_float, default=0.5,
                   help="seconds between PINGs to downstream stages that have standbys; their PONGs feed the "
                        "phi-accrual detector that triggers failover (default 0.5; 0: the broker's last will only)")
    p.add_argument("--quiet", action="store_true", help="do not print per-request events")
    learn = p.add_argument_group("learning deployments")
    learn.add_argument("--learning", default=None, metavar="JSON",
                       help="settings merged over the deployment's learning object, e.g. '{\"rounds\": 5}'")
    learn.add_argument("--late", action="store_true", help="join late: fetch the current model first")
    learn.add_argument("--clock-origin", type=float, default=None, metavar="UNIX_TIME",
                       help="the fleet's time zero (round deadlines, start_after, gossip periods); "
                            "default: when this process starts. Give the same value on every node and restart")
    learn.add_argument("--start-file", default=None, metavar="FILE",
                       help="once connected, wait until FILE exists and take the clock origin from it "
                            "(how bb-edge run starts every node of a learning fleet at once)")
    learn.add_argument("--program-cache", default=None, metavar="FILE",
                       help="run the training program saved in FILE by `bb-edge run --processes` instead of "
                            "building it (a program built from another model or optimizer is ignored)")
    learn.add_argument("--progress", default=None, metavar="FILE",
                       help="append JSON lines about this node's rounds, bytes and final model to FILE")
    p.set_defaults(func=_run)
