"""A federation through a broker outage: rounds time out and resume, the final model follows FedAvg's rules.

Real components: Mosquitto (with persistence, stopped by SIGTERM and started again on the same port,
as a broker host reboots), the Python FedAvg server and client processes (``bb-edge node``); the
scenario is tests/support/partitions.py, which bench/bench_partitions.py runs at the issue's full length.

The server counts completed rounds (``"rounds_count": "completed"``): an aborted round does not use
up the run, so training resumes after the outage until ``rounds`` rounds are done.

Oracle: FedAvg's rules applied to what the server reports, in the server's float32 arithmetic.
Every round the server completed
(``RoundCompleted``) had its whole cohort (``min_clients`` = all clients: a round that loses an
update to the outage aborts, it never averages a part); an aborted round leaves the model as it
was. So the final model is the initial one plus, for each completed round in order, the
sample-weighted mean of every client's plain update from the model before it, recomputed here by
fresh engines (the clients' training is seeded by round and node).

CI: a 60 s broker outage (round_timeout 2 s: many rounds abort in it), then one client partitioned
for 10 s; ``BB_EDGE_LONG=1``: 300 s each (as bench/bench_partitions.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from tests.support.partitions import run_partitions

LONG = os.environ.get("BB_EDGE_LONG") == "1"
OUTAGE = 300.0 if LONG else 60.0
PARTITION = 300.0 if LONG else 10.0  # one client cut off (SIGSTOP: it neither sends nor reads) after the outage


def test_fedavg_survives_a_broker_outage(tmp_path: Path) -> None:
    """The broker is down for OUTAGE seconds after round 2, then client c1 is partitioned for PARTITION
    seconds: no node exits, the rounds in either abort, the clients reconnect (c1 with its process and
    state) and train again, all rounds are run, and the final model is FedAvg's."""
    rounds = 40
    run = run_partitions(tmp_path, OUTAGE, PARTITION, clients=3, rounds=rounds)
    assert not run.exited, f"nodes exited during a fault: {run.exited}"
    assert run.outage_aborted > 0, "no round timed out during the outage"
    assert run.cut_aborted > 0, "no round timed out while c1 was partitioned"
    for n, k in run.trained_after.items():  # every client reconnected and trained again after the outage
        assert k > run.before, n
    assert all(acc == coh == run.clients for acc, coh in run.cohorts), run.cohorts  # only whole rounds averaged
    # ``rounds_count: completed``: an aborted round is retried under the next number, so the run has
    # exactly ``rounds`` completed rounds, numbered past the aborted ones
    assert sorted(run.completed) == run.completed and len(run.completed) == rounds and run.completed[-1] > rounds
    assert run.final is not None and run.expected is not None
    # the oracle replays the server's float32 arithmetic and the clients' ORT training programs, so the fleet's
    # model equals it to float32 rounding (a float64 replay drifted up to 1.3e-3 on some rounds' trajectories)
    np.testing.assert_allclose(run.final, run.expected, rtol=1e-6, atol=1e-7)
