"""``bb-edge run DIR --inputs IN.npz | --session STEPS.npz --outputs OUT.npz [--backend] [--transport]``."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.console import Console

from bb_edge.commands._args import (
    TargetAppend,
    fleet_transport,
    fraction,
    non_negative_float,
    non_negative_int,
    positive_int,
    target_spec,
)
from bb_edge.errors import BBError, SessionError, UsageError
from bb_edge.paths import check_output_dir, check_output_file, check_parent_exists

if TYPE_CHECKING:  # the compiler (onnx) is imported when a command runs, not when the CLI parses
    from bb_edge.deployment.manifest import Deployment


#: transport scheme -> the fleet launcher that runs a deployment over it
FLEETS = {"mqtt": "bb_edge.adapters.fleet.mqtt_fleet", "mqtts": "bb_edge.adapters.fleet.mqtt_fleet",
          "serial": "bb_edge.adapters.fleet.serial_fleet"}


def run_deployment(dep: Deployment, requests: list[dict[str, np.ndarray]], transport: str = "inproc",
                   backend: str = "ort", processes: bool = False,
                   otlp: str | None = None, session: int | None = None) -> list[dict[str, np.ndarray]]:
    """Run every request through the fleet over ``transport``; graph outputs per request.

    ``inproc`` runs all engines in this process; any other URL scheme is
    handled by the fleet launcher :data:`FLEETS` names for it (``run_deployment``).
    ``otlp`` (an OTLP/HTTP endpoint or ``console``) exports every node's spans and
    metrics: in-process engines from this process, node processes (``processes``)
    each their own (they inherit ``OTEL_EXPORTER_OTLP_ENDPOINT``).
    ``session`` (an id 1..2**64-1): the requests are the steps of one session of the host, in order, and
    every stateful stage keeps its state between them (docs/wire.md "Sessions"); the session is closed at
    the end. A refused step or an ended session is a SessionError.
    """
    scheme = transport.split(":", 1)[0] if transport != "inproc" else "inproc"
    if scheme == "inproc":
        from bb_edge.adapters.transports.inproc import InProcFleet

        if processes:
            raise BBError("--processes needs a network transport such as mqtt://HOST:PORT")
        # stages overlap on the host's cores and tensors pass between them as views: the same bytes out
        # as the sequential, encoded fleet (tests/adapters/test_inproc_pipeline.py), at a single session's speed
        with InProcFleet(dep, backend=backend, concurrent=len(requests) > 1, zero_copy=True) as fleet:
            if not otlp:
                return _inproc_run(fleet, requests, session)
            providers = _telemetry(otlp, dep, fleet.engines)
            try:
                return _inproc_run(fleet, requests, session)
            finally:
                for provider in providers:
                    provider.shutdown()  # exports what is buffered
    if otlp:
        if not processes:
            raise UsageError(f"--otlp with --transport {transport.split('?')[0]} needs --processes (each node "
                             "process exports its own telemetry); or drop --transport to run in-process")
        import os

        os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"] = otlp  # the node processes inherit it (bb-edge node --otlp)
    mod_name = FLEETS.get(scheme)
    if mod_name is None:
        raise BBError(f"unknown transport {transport!r}; use inproc, mqtt://HOST:PORT or serial://pty")
    mod = importlib.import_module(mod_name)
    kw = {"session": session} if session is not None else {}
    try:
        result: list[dict[str, np.ndarray]] = mod.run_deployment(dep, requests, transport, backend=backend,
                                                                 processes=processes, **kw)
    except BBError as exc:
        missing = getattr(exc, "missing", None) or {}
        why = next((w for w in missing.values() if w.startswith(("SessionEnded", "SessionRefused"))), None)
        if session is not None and why is not None:  # the first step a node refused, and why
            step = min(k for k, w in missing.items() if w == why)
            err = SessionError(f"step {step} failed: {why}")
            err.outputs = getattr(exc, "outputs", None)  # type: ignore[attr-defined]
            raise err from exc
        raise
    return result


def _inproc_run(fleet: Any, requests: list[dict[str, np.ndarray]], session: int | None) -> list[dict[str, np.ndarray]]:
    """Run ``requests`` on an in-process fleet, as the steps of ``session`` if given (closed at the end)."""
    if session is None:
        return list(fleet.run(requests))
    try:
        return list(fleet.run(requests, session=session))
    finally:
        fleet.close_session(session)


def new_session_id() -> int:
    """A session id for one ``run --session``: random, so runs against a long-lived fleet do not meet."""
    import secrets

    return secrets.randbelow(2**63 - 1) + 1


def _telemetry(otlp: str, dep: Deployment, engines: dict[str, Any]) -> list[Any]:
    """Attach telemetry to in-process ``engines``, exporting to ``otlp``; the providers to shut down at the end."""
    from bb_edge.adapters.ops.telemetry import Telemetry, providers

    tracer_provider, meter_provider = providers(otlp, service=f"bb-edge/{dep.name}")
    pv = dep.extra.get("program_version")
    for engine in engines.values():
        Telemetry(engine, dep.name, tracer_provider, meter_provider,
                  program_version=pv if isinstance(pv, str) else None)
    return [p for p in (tracer_provider, meter_provider) if p is not None]


def _save_partial(path: Path, outputs: list[dict[str, np.ndarray] | None]) -> None:
    """Outputs of the requests that finished, stacked, plus ``request_index`` (their positions)."""
    done = [(i, o) for i, o in enumerate(outputs) if o is not None]
    if not done:
        return
    arrays = {k: np.stack([o[k] for _, o in done]) for k in done[0][1]}
    arrays["request_index"] = np.array([i for i, _ in done], dtype=np.int64)
    np.savez(str(path), **arrays)  # type: ignore[arg-type]


def _run(args: argparse.Namespace) -> int:
    from bb_edge.deployment.arrays import load_requests, save_outputs
    from bb_edge.deployment.manifest import load_deployment

    # every output location is checked before work starts
    for option, value in (("--outputs", args.outputs), ("--summary", args.summary), ("--curves", args.curves)):
        if value:
            check_output_file(value, option)
            if option == "--outputs":
                check_parent_exists(value, option)  # never a mkdir of a directory the user did not name
            else:
                Path(value).parent.mkdir(parents=True, exist_ok=True)
    dep = load_deployment(args.dir)
    if getattr(args, "ray", None) and ("learning" not in dep.extra or args.transport != "inproc"):
        raise BBError("--ray trains the simulated clients of a learning deployment; use it without --transport "
                      "on a directory written by write_learning_deployment")
    if (getattr(args, "target", None) or getattr(args, "workdir", None)) and (
            "learning" not in dep.extra or args.transport == "inproc" or not args.processes):
        raise UsageError("--target and --workdir run a learning deployment as node processes; add --processes and "
                         "--transport mqtt://HOST:PORT")
    if getattr(args, "workdir", None):
        check_output_dir(args.workdir, "--workdir")  # before any build or node starts
    if "learning" in dep.extra:
        # a learning deployment (bb_edge.learn) runs rounds, not inference requests
        if args.otlp:
            if args.transport == "inproc":
                raise UsageError("--otlp on a learning deployment exports from node processes: add --transport "
                                 "URL --processes")
            import os

            os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"] = args.otlp  # each bb-edge node process exports its own
        if args.transport != "inproc":  # a real fleet: one bb-edge node process per node over the broker
            from bb_edge.adapters.learn.fleet import run_learning_processes

            return int(run_learning_processes(dep, args))
        from bb_edge.adapters.learn.simulator import run_learning  # type: ignore[import-not-found]

        return int(run_learning(dep, args))
    session = None
    if args.session:
        if args.inputs:
            raise UsageError("give --inputs (independent requests) or --session (the steps of one session), not both")
        requests = load_requests(dep, args.session, option="--session")
        session = new_session_id()
    elif dep.stateful:
        raise UsageError(f"{args.dir} keeps session state ({', '.join(dep.extra['state'])}): run its steps with "
                         f"--session STEPS.npz (arrays stacked on a leading step axis, one key per graph input)")
    else:
        requests = load_requests(dep, args.inputs, count=args.count)
    console = Console()
    what = f"{len(requests)} step(s) of one session" if session else f"{len(requests)} request(s)"
    try:
        with console.status(f"running {what} through {len(dep.nodes)} nodes over {args.transport}"):
            outs = run_deployment(dep, requests, args.transport, args.backend, args.processes, otlp=args.otlp,
                                  session=session)
    except BBError as exc:
        partial = getattr(exc, "outputs", None)  # RunIncomplete: keep what did arrive
        if args.outputs and partial:
            _save_partial(Path(args.outputs), partial)
            console.print(f"wrote {sum(o is not None for o in partial)} of {len(partial)} request(s) "
                          f"of outputs to {args.outputs} (request_index names them)")
        raise
    if args.outputs:
        save_outputs(Path(args.outputs), outs)
        console.print(f"wrote {len(outs)} {'step' if session else 'request'}(s) of outputs {sorted(outs[0])} to "
                      f"{args.outputs}" + (" (stacked on a leading step axis)" if session and len(outs) > 1 else ""))
    elif session:
        for t, out in enumerate(outs):
            for k, v in out.items():
                console.print(f"step {t} {k}: shape {list(v.shape)} {v.dtype}, first values {v.ravel()[:5]}")
    else:
        for k, v in outs[0].items():
            console.print(f"{k}: shape {list(v.shape)} {v.dtype}, first values {v.ravel()[:5]}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``run`` subcommand."""
    p = sub.add_parser("run", help="run a compiled deployment (whole fleet)")
    p.add_argument("dir", help="compiled deployment directory")
    p.add_argument("--inputs", help=".npz keyed by graph input name (random if omitted)")
    p.add_argument("--session", metavar="STEPS.npz",
                   help="run the steps of one session: arrays stacked on a leading step axis, one key per graph "
                        "input; stateful nodes (compile --state) keep their state between steps")
    p.add_argument("--outputs", help=".npz to write the graph outputs to")
    p.add_argument("--backend", default="ort", choices=["ort", "reference", "executorch"],
                   help="ort: ONNX Runtime (default); reference: onnx.reference; executorch: every segment "
                        "exported to a .pte and run by ExecuTorch (pip install bb-edge[executorch])")
    p.add_argument("--transport", default="inproc", type=fleet_transport,
                   help="inproc (default), mqtt://HOST:PORT[?creds=FILE] or serial://pty[?corrupt=RATE...]")
    p.add_argument("--processes", action="store_true", help="one OS process per node (network transports)")
    p.add_argument("--otlp", default=None, metavar="URL",
                   help="export every node's OpenTelemetry traces and metrics over OTLP/HTTP to URL, or print them "
                        "as JSON on stderr with `console` (in-process, or each node process with --processes); "
                        "needs bb-edge[telemetry]")
    p.add_argument("--count", type=positive_int, default=1, help="random requests to run when --inputs is omitted")
    learn = p.add_argument_group("learning deployments")
    learn.add_argument("--summary", help="write the final figures as JSON here")
    learn.add_argument("--rounds", type=positive_int, help="rounds to run (default: the deployment's)")
    learn.add_argument("--virtual-nodes", type=positive_int,
                       help="number of simulated clients (default: the deployment's)")
    learn.add_argument("--seed", type=non_negative_int, default=None,
                       help="seed for data, churn and links (default: the deployment's seed)")
    learn.add_argument("--churn", type=fraction, default=0.0, help="fraction of clients that leave mid-run")
    learn.add_argument("--latency", type=non_negative_float, default=0.0, help="link latency in seconds (simulated)")
    learn.add_argument("--bandwidth", type=non_negative_float, default=0.0,
                       help="link bandwidth in bytes/s (0 = unlimited)")
    learn.add_argument("--curves", help="write training curves (PNG) here")
    learn.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS|local",
                       help="train the virtual clients on a Ray cluster at HOST:PORT, or one started here (local; "
                            "the default when the flag has no value); pip install bb-edge[ray]")
    learn.add_argument("--target", action=TargetAppend, type=target_spec, metavar="NODE=TARGET", default=None,
                       help="with --processes: build NODE's learning bundle for TARGET and run it in the fleet "
                            "(qemu-cortex-m3 / qemu-rv32 / host under QEMU or on a pty, esp32-micropython's main.py "
                            "on a pty, each behind a serial bridge); repeatable")
    learn.add_argument("--workdir", help="with --processes: keep node logs, progress records and built bundles "
                                         "here (default: a temporary directory, removed at the end)")
    p.set_defaults(func=_run)
