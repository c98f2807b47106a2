"""The status record ``bb-edge status`` reads (bb_edge/adapters/ops/status_view.py), built for a MicroPython node.

The same fields as bb_edge/adapters/ops/telemetry.py's ``Telemetry.status`` where the node has them: version,
program hash (the running program's SHA-256: it changes when an update switches), boot epoch, drops
by reason, completed requests, envelopes in and out, open requests, the program's name (the deployment's)
and ``program_version`` (config.json's, from deployment.json); ``hop_ms``/``compute_ms`` are ``None`` and
``rtt_ms`` empty (the node measures no latencies). Like the C node it adds ``errors`` (failed runs) and
``uptime_s``; ``ota`` adds the update counters.
Published retained, QoS 1, on ``{prefix}/{deployment}/status/{name}`` by bbnode/mqtt.py.
"""
import json

STATUS_VERSION = 1
VERSION = "micropython"
# Stats counters that are drops, under the reason names the engine uses where one exists
DROPS = (("bad_frames", "bad_frame"), ("bad_envelopes", "bad_envelope"), ("not_for_me", "wrong_receiver"),
         ("unknown_edge", "unknown_edge"), ("edge_mismatch", "contract"), ("unauthorised", "unauthorised"),
         ("duplicates", "duplicate"), ("stale_epoch", "stale_epoch"), ("evicted", "evicted"),
         ("run_errors", "run_error"), ("tx_dropped", "tx_dropped"), ("bad_hello", "bad_hello"))


def _hex(b):
    return "".join("%02x" % x for x in b)


def record(node, name, now, received=0, program="", program_version=None, uptime=None):
    """The record of ``node`` as a dict (``name``: its topic segment, ``now``: seconds, ``received``:
    envelopes the transport handed in, ``program``/``program_version``: the deployment's name and release,
    ``uptime``: seconds since the node started)."""
    s = node.stats
    drops = {}
    for attr, reason in DROPS:
        n = getattr(s, attr, 0)
        if n:
            drops[reason] = n
    total = 0
    for v in drops.values():
        total += v
    rec = {"v": STATUS_VERSION, "node": name, "up": True, "version": VERSION,
           "program_hash": _hex(node.program_hash), "epoch": node.boot_epoch, "hop_ms": None,
           "compute_ms": None, "rtt_ms": {}, "drops": total, "drops_by_reason": drops,
           "requests": s.inferences, "envelopes_in": received, "envelopes_out": node.seq,
           "open_requests": 1 if node.pending else 0, "time": now, "program": program,
           "program_version": program_version if program_version else None, "errors": s.run_errors}
    if uptime is not None:
        rec["uptime_s"] = round(uptime, 1)
    o = node.ota
    if o is not None:
        rec["ota"] = {"switched": len(o.switched), "refusals": o.refusals, "busy": o.busy}
    return rec


def encode(node, name, now, received=0, program="", program_version=None, uptime=None):
    """:func:`record` as JSON bytes."""
    return json.dumps(record(node, name, now, received, program, program_version, uptime)).encode()
