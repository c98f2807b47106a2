"""``bb-edge deploy DIST --current DIR --fleet mqtt://HOST:PORT[?creds=FILE]|serial:PORT --key KEYFILE``.

Pushes DIST's per-node programs to the live fleet running DIR: checks node
ids, wire version and every contract first, stages every changed node,
commits only once all answered READY (Linux nodes switch together at one
request id, so no output mixes programs: docs/wire.md "Epoch-consistent
switch"), and aborts everywhere on the first refusal
(bb_edge/adapters/ops/ota_deploy.py, docs/wire.md "Program updates"). The
deployer connects as ``_deploy`` (its own broker identity and wire id, in the
broker files of a deployment with an ``ota`` section), so a running host keeps
its connection. If a node fails after COMMIT, every node that may have switched
is sent ABORT until it answers (docs/wire.md "Atomic fleet update"). ``serial:PORT``
updates the one node on that line (named by its HELLO). C nodes are updated
from their builds (``--bundles`` new, ``--current-bundles`` running: the
running bundle's HMAC key signs). Exit status 0 when every node switched, 4
when the update was refused or aborted.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bb_edge.commands._args import _check_url, non_negative_float, non_negative_int, positive_int


def positive_float(text: str) -> float:
    """argparse type: a finite number above 0 (the canary window: 0 would judge no request)."""
    value = non_negative_float(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number above 0")
    return value


def update_id(text: str) -> int:
    """argparse type: an update id (0..2**32-1, as `bb-edge deploy` prints it)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an update id; give a number 0..4294967295") from None
    if not 0 <= value <= 0xFFFFFFFF:
        raise argparse.ArgumentTypeError(f"{text!r} is not an update id; give a number 0..4294967295")
    return value


def mqtt_url(text: str) -> str:
    """argparse type: the fleet's broker, ``mqtt(s)://HOST:PORT[?creds=FILE]``."""
    return _check_url(text, ("mqtt", "mqtts", "serial"), "mqtt://HOST:PORT, mqtts://HOST:PORT or serial:PORT")


def _run(args: argparse.Namespace) -> int:
    from bb_edge.adapters.ops.ota_abort import abort_on_fleet
    from bb_edge.adapters.ops.ota_deploy import deploy_to_fleet
    from bb_edge.engine import ota
    from bb_edge.errors import UsageError

    if args.abort is not None:  # the operator frees nodes a dead deployer left with a staged update
        answered, nodes = abort_on_fleet(args.current, args.fleet, args.abort, timeout_s=args.timeout)
        for node in nodes:
            code = answered.get(node)
            print(f"{node}: " + (f"{ota.CODE_NAMES.get(code, code)}: does not run update {args.abort}"
                                 if code is not None else "no answer to the ABORT"))
        print(f"abort of update {args.abort} {'done' if len(answered) == len(nodes) else 'incomplete'} "
              f"({len(answered)} of {len(nodes)} nodes answered)")
        return 0 if len(answered) == len(nodes) else 4
    if args.dist is None:
        raise UsageError("give the deployment directory with the new programs (or --abort UPDATE_ID)")

    signer: ota.Signer
    if args.key is None:
        if not args.bundles:
            raise UsageError("--key is needed (only C nodes, updated from --bundles, sign with their own keys)")

        def no_key(message: bytes) -> bytes:
            raise ota.OtaError(ota.NO_KEY, "a Linux node changed too: give its signing key with --key")

        signer, kind = no_key, ota.SIG_ED25519
    else:
        try:
            key = bytes.fromhex(Path(args.key).read_text().strip())
        except (OSError, ValueError) as exc:
            raise UsageError(f"--key {args.key}: not a key written by `bb-edge keygen`: {exc}") from None
        if args.hmac:
            signer, kind = ota.hmac_signer(key), ota.SIG_HMAC_SHA256
        elif len(key) != 32:
            raise UsageError(f"--key {args.key}: an Ed25519 private key is 32 bytes, not {len(key)}")
        else:
            signer, kind = ota.ed25519_signer(key), ota.SIG_ED25519
    canary = ota.CanaryLimits(window_s=args.canary_window, max_drift=args.max_drift,
                              max_nonfinite=args.max_nonfinite, max_error_rate=args.max_error_rate,
                              max_latency_ratio=args.max_latency_ratio, min_requests=args.min_requests)
    try:
        report = deploy_to_fleet(args.dist, args.current, args.fleet, signer, kind, timeout_s=args.timeout,
                                 bundles=args.bundles, current_bundles=args.current_bundles,
                                 delta=not args.no_delta, stages=args.stages, canary=canary)
    except ota.OtaError as exc:
        print(f"refused before sending: {exc}")
        return 4
    for line in report.stages:
        print(line)
    for node, held in sorted(report.resumed.items()):
        print(f"{node}: resumed the transfer at byte {held} (held from an interrupted deploy of the same program)")
    for node, (sent, full) in sorted(report.sent.items()):
        if sent < full:
            print(f"{node}: weights-only change, sent a {sent}-byte delta for a {full}-byte program")
    for node, digest in sorted(report.switched.items()):
        print(f"{node}: switched to {digest[:16]}")
    for node, why in sorted(report.failures.items()):
        print(f"{node}: {why}")
    for node in report.reverted:
        print(f"{node}: put back on its previous program (the update failed after COMMIT)")
    for node in report.unreverted:
        print(f"{node}: did not answer the ABORT; it may still serve the update "
              f"({report.programs.get(node, 'program unknown')[:16]})")
    if not report.ok:  # one line per node that did not end on the intended program, and what it serves
        for node in report.nodes:
            if node not in report.switched:
                served = report.programs.get(node)
                print(f"{node}: not updated; serves {served[:16] if served else 'its previous program'}")
    print(f"deploy {report.state} ({len(report.nodes)} nodes, {report.seconds:.2f}s)")
    return 0 if report.ok else 4


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``deploy`` subcommand."""
    p = sub.add_parser("deploy", help="push new per-node programs to a live fleet (signed, A/B, all-or-none)")
    p.add_argument("dist", nargs="?", default=None,
                   help="compiled deployment directory with the new programs (not with --abort)")
    p.add_argument("--current", required=True, help="the deployment directory the fleet runs now")
    p.add_argument("--fleet", required=True, type=mqtt_url,
                   help="mqtt://HOST:PORT[?creds=FILE], or serial:PORT for the one node on a serial line")
    p.add_argument("--key", default=None, help="private key file from `bb-edge keygen` (ota_ed25519.key)")
    p.add_argument("--bundles", default=None, metavar="BUILD",
                   help="`bb-edge build -o BUILD` output with the C nodes' new programs (.bbrt)")
    p.add_argument("--current-bundles", default=None, metavar="BUILD",
                   help="the C nodes' running builds (their ota_hmac.key signs the update)")
    p.add_argument("--hmac", action="store_true", help="--key is a per-node HMAC key (C/MicroPython nodes)")
    p.add_argument("--timeout", type=positive_int, default=60, help="seconds for every phase (default 60)")
    p.add_argument("--no-delta", action="store_true",
                   help="ship full programs even where only weights changed (default: per-tensor deltas)")
    p.add_argument("--stages", default=None, metavar="S1,S2,...",
                   help="staged rollout: e.g. 10%%,50%%,100%% or n2,n1+n2,100%%; every stage but the last runs the "
                        "update in shadow on its nodes for --canary-window s, judged by the limits below")
    p.add_argument("--abort", type=update_id, default=None, metavar="UPDATE_ID",
                   help="send ABORT for this update id to every node of --current and wait for their answers "
                        "(frees nodes a deployer that died left with a staged update or a shadow canary)")
    p.add_argument("--canary-window", type=positive_float, default=10.0, metavar="S",
                   help="seconds per canary stage")
    p.add_argument("--max-drift", type=non_negative_float, default=0.05,
                   help="largest relative output drift of the update vs the running program (default 0.05)")
    p.add_argument("--max-nonfinite", type=non_negative_int, default=0,
                   help="mirrored outputs with NaN/inf allowed (default 0)")
    p.add_argument("--max-error-rate", type=non_negative_float, default=0.0,
                   help="update errors per mirrored request (default 0)")
    p.add_argument("--max-latency-ratio", type=non_negative_float, default=3.0,
                   help="p95 latency of the update / of the running program (default 3)")
    p.add_argument("--min-requests", type=non_negative_int, default=1,
                   help="mirrored requests a stage needs to pass (default 1)")
    p.set_defaults(func=_run)
