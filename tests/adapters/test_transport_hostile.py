"""Issue 11 reproductions over a real Mosquitto (free loopback port, stopped by pid), real node processes.

Each test names the defect it guards: a poison envelope to the host and to a
node, a forged final output, a far-future ``seq`` followed by normal traffic,
SIGKILL of a node under load, a clean-session connect with a node's
credentials, a wrong-shape input, an unreachable broker.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.fleet.hostloop import (
    HostEndpoint,
    HostLoop,
    Impostor,
    OutputRefused,
    RunIncomplete,
    SessionReset,
    boot_epoch,
    seed_sequence,
)
from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint, spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, BrokerFiles
from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport
from bb_edge.deployment.manifest import HOST_NAME, Deployment
from bb_edge.engine import Engine, events
from bb_edge.wire import Envelope, encode
from bb_edge.wire.topics import Topics
from tests.support.transport_helpers import RawClient, assert_same_outputs, forged_envelope, wait_until

pytest_plugins = ["tests.support.transport_fixtures"]

TIMEOUT = 60.0
POISON_DIMS = (0, 2**32 - 1, 2**32 - 1)


def _host(dep: Deployment, url: str) -> tuple[HostEndpoint, MqttTransport]:
    host = host_endpoint(dep, url)
    assert isinstance(host.transport, MqttTransport)
    return host, host.transport


def _out(dep: Deployment) -> tuple[int, str]:
    """(edge id, producer) of the deployment's single graph output."""
    (o,) = dep.outputs
    return o.edge_id, o.node


def _in(dep: Deployment) -> tuple[int, str]:
    """(edge id, owner) of the deployment's single graph input."""
    (i,) = dep.inputs
    return i.edge_id, i.node


# ----------------------------------------------------------------- poison


def test_poison_envelope_to_host_is_refused_and_acked(squeeze_dep: Deployment, broker: Broker,
                                                      broker_files: BrokerFiles,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    """(0, 2**32-1, 2**32-1) on the output edge from its real producer: an OutputRefused event, a log line,
    and the message is acknowledged: a new host session does not get it again (no poison redelivery)."""
    ids = squeeze_dep.ids()
    edge, producer = _out(squeeze_dep)
    t = Topics(squeeze_dep.name)
    host, tr = _host(squeeze_dep, broker_files.url())
    rid = 77
    host.submit(rid, {i.name: np.zeros([max(d, 1) for d in i.shape], i.dtype) for i in squeeze_dep.inputs})
    attacker = RawClient(broker_files.host, broker_files.port, producer, broker_files.passwords[producer],
                         clean=True)
    try:
        with caplog.at_level(logging.WARNING, logger="bb_edge.hostloop"):
            poison = forged_envelope(ids[producer], 0, 123, rid, edge, POISON_DIMS)
            attacker.publish(t.inbox(HOST_NAME, producer), poison)
            attacker.publish(t.inbox(HOST_NAME, producer), forged_envelope(ids[producer], 0, 124, rid, edge,
                                                                           POISON_DIMS))
            wait_until(lambda: host.stats.refused == 2, 10, "the host to refuse both poison envelopes")
        refused = [e for e in host.events if isinstance(e, OutputRefused)]
        assert len(refused) == 2 and all(e.request_id == rid and e.edge == edge for e in refused), refused
        assert "contract" in refused[0].reason and str(list(POISON_DIMS)) in refused[0].reason
        assert not host.done(rid)
        # logged once per sender, not once per envelope
        lines = [r for r in caplog.records if "refused an envelope" in r.getMessage()]
        assert len(lines) == 1, [r.getMessage() for r in lines]
        # the host is still alive: a well-formed output from the producer is accepted
        good = Envelope.for_array(np.full((1, 1000, 1, 1), 0.5, np.float32), sender=ids[producer], receiver=0,
                                  seq=125, request_id=rid, edge=edge)
        attacker.publish(t.inbox(HOST_NAME, producer), encode(good))
        out = host.wait(rid, 10)
        np.testing.assert_array_equal(out[squeeze_dep.outputs[0].name], np.full((1, 1000, 1, 1), 0.5, np.float32))
    finally:
        attacker.close()
        host.close()
    # a new incarnation of the host (same persistent session): the poison was acknowledged, nothing comes back
    host2, tr2 = _host(squeeze_dep, broker_files.url())
    try:
        time.sleep(1.0)
        assert tr2.stats.received == 0 and host2.stats.refused == 0, (tr2.stats, host2.stats)
    finally:
        host2.close()


def test_poison_envelope_to_node(squeeze_dep: Deployment, broker: Broker, broker_files: BrokerFiles,
                                 squeeze_requests: list, squeeze_reference: list) -> None:
    """The same dims on the graph-input edge of the node owning it: a typed event on that node (no
    exception on its loop thread), an error result for that request at the host, then normal traffic."""
    ids = squeeze_dep.ids()
    edge, owner = _in(squeeze_dep)
    fleet = MqttFleet(squeeze_dep, broker_files.url())
    fleet.start()
    host, tr = _host(squeeze_dep, broker_files.url())
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        tr.send(owner, ids[owner], forged_envelope(0, ids[owner], 2**40, 5, edge, POISON_DIMS))
        wait_until(lambda: any(e.family == "infra" for e in fleet.events[owner]), 10,
                   f"{owner} to report the poison envelope")
        infra = [e for e in fleet.events[owner] if e.family == "infra"]
        assert all(not isinstance(e, events.HandlerFailed) for e in infra), infra
        assert fleet.threads[owner].is_alive()
        got = host.run(squeeze_requests, timeout=TIMEOUT)
        assert_same_outputs(got, squeeze_reference)
    finally:
        reports = fleet.stop()
        host.close()
    assert all(r.unconfirmed == 0 and r.pending_ingress == 0 for r in reports.values()), reports
    # acknowledged: the next incarnation of the node is not handed the poison again
    fleet2 = MqttFleet(squeeze_dep, broker_files.url(), nodes=[owner])
    fleet2.start()
    try:
        time.sleep(1.0)
        assert fleet2.transport(owner).stats.received == 0, fleet2.transport(owner).stats
    finally:
        fleet2.stop()


# ----------------------------------------------------------------- forgery


def test_forged_final_output_refused(squeeze_dep: Deployment, broker: Broker, broker_files: BrokerFiles,
                                     squeeze_requests: list, squeeze_reference: list,
                                     caplog: pytest.LogCaptureFixture) -> None:
    """A node that does not produce the final output sends one (right shape, wrong values); the producer
    sends an int64 (3,) tensor on it; a node lies about its identity in the header. The host refuses all
    three with typed events and still returns the real output."""
    ids = squeeze_dep.ids()
    edge, producer = _out(squeeze_dep)
    liar = next(n for n in squeeze_dep.node_names if n != producer and n in {i.node for i in squeeze_dep.inputs})
    fleet = MqttFleet(squeeze_dep, broker_files.url())
    fleet.start()
    host, tr = _host(squeeze_dep, broker_files.url())
    rid = 4242
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        with caplog.at_level(logging.WARNING):
            host.submit(rid, squeeze_requests[0])
            shape = tuple(squeeze_dep.outputs[0].shape)
            fake = Envelope.for_array(np.zeros(shape, np.float32), sender=ids[liar], receiver=0, seq=2**40,
                                      request_id=rid, edge=edge)
            fleet.transport(liar).send(HOST_NAME, 0, encode(fake))
            wrong = Envelope.for_array(np.arange(3, dtype=np.int64), sender=ids[producer], receiver=0,
                                       seq=2**40 + 1, request_id=rid, edge=edge)
            fleet.transport(producer).send(HOST_NAME, 0, encode(wrong))
            impostor = Envelope.for_array(np.zeros(shape, np.float32), sender=ids[producer], receiver=0,
                                          seq=2**40 + 2, request_id=rid, edge=edge)
            fleet.transport(liar).send(HOST_NAME, 0, encode(impostor))
            got = host.wait(rid, TIMEOUT)
            wait_until(lambda: host.stats.refused >= 2 and tr.stats.spoofed >= 1, 10, "three refusals")
        assert_same_outputs([got], squeeze_reference[:1])
        refused = {e.reason.split(":")[0]: e for e in host.events if isinstance(e, OutputRefused)}
        assert refused["forged"].sender == ids[liar], refused
        assert "int64" in refused["contract"].reason or "elem_type 7" in refused["contract"].reason, refused
        imp = [e for e in host.events if isinstance(e, Impostor)]
        assert len(imp) == 1 and imp[0].peer == liar and imp[0].sender == ids[producer], imp
        assert host.stats.outputs == 1
        assert any("impostor" in r.getMessage() for r in caplog.records)
    finally:
        fleet.stop()
        host.close()


def test_far_future_seq_then_normal_traffic(squeeze_dep: Deployment, broker: Broker, broker_files: BrokerFiles,
                                            squeeze_requests: list, squeeze_reference: list) -> None:
    """seq 2**63 (and 2**64-1) from the host on an unknown edge and on the input edge with a bad shape,
    then ordinary requests: every one completes (the duplicate window was not poisoned)."""
    ids = squeeze_dep.ids()
    edge, owner = _in(squeeze_dep)
    fleet = MqttFleet(squeeze_dep, broker_files.url())
    fleet.start()
    host, tr = _host(squeeze_dep, broker_files.url())
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        for seq in (2**63, 2**64 - 1):
            tr.send(owner, ids[owner], encode(Envelope.for_array(np.zeros(3, np.float32), sender=0,
                                                                 receiver=ids[owner], seq=seq, request_id=9,
                                                                 edge=999)))
            tr.send(owner, ids[owner], encode(Envelope.for_array(np.zeros(3, np.float32), sender=0,
                                                                 receiver=ids[owner], seq=seq, request_id=9,
                                                                 edge=edge)))
        wait_until(lambda: sum(e.family == "infra" for e in fleet.events[owner]) >= 4, 10, "four refusals")
        got = host.run(squeeze_requests * 2, timeout=TIMEOUT)
        assert_same_outputs(got, squeeze_reference * 2)
        assert not any(isinstance(e, events.DuplicateDropped) for e in fleet.events[owner])
    finally:
        fleet.stop()
        host.close()


# ------------------------------------------------------------ exactly once


def test_sigkill_node_under_load_exactly_once(squeeze_dir: Path, squeeze_dep: Deployment, broker: Broker,
                                              broker_files: BrokerFiles, squeeze_requests: list,
                                              squeeze_reference: list) -> None:
    """Node processes; SIGKILL the middle node while requests stream, restart it: every output arrives,
    is right, and is accepted exactly once (nodes ack after apply; the host retries late requests)."""
    url = broker_files.url()
    n = int(os.environ.get("BB_HOSTILE_REQUESTS", "24"))
    reqs = [squeeze_requests[i % len(squeeze_requests)] for i in range(n)]
    refs = [squeeze_reference[i % len(squeeze_reference)] for i in range(n)]
    victim = squeeze_dep.node_names[len(squeeze_dep.node_names) // 2]
    procs = {nm: spawn_node(squeeze_dir, nm, url, stdout=subprocess.DEVNULL) for nm in squeeze_dep.node_names}
    host, tr = _host(squeeze_dep, url)
    killed = threading.Event()

    def chaos() -> None:
        deadline = time.monotonic() + TIMEOUT
        while host.stats.outputs < max(3, n // 4) and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(procs[victim].pid, signal.SIGKILL)
        procs[victim].wait(10)
        killed.set()
        time.sleep(1.0)
        procs[victim] = spawn_node(squeeze_dir, victim, url, stdout=subprocess.DEVNULL)

    th = threading.Thread(target=chaos, daemon=True)
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        th.start()
        got = host.run(reqs, window=8, timeout=TIMEOUT * 2, retry_after=3.0)
        th.join(TIMEOUT)
    finally:
        codes = {nm: stop_process(p) for nm, p in procs.items()}
        host.close()
    assert killed.is_set()
    assert_same_outputs(got, refs)
    assert host.stats.outputs == n, host.stats  # each output accepted once; repeats only counted
    assert codes == dict.fromkeys(squeeze_dep.node_names, 0), codes
    print(f"SIGKILL under load: {n} requests, {host.stats.retries} retried, "
          f"{host.stats.duplicates} duplicate outputs dropped by the host")


def test_node_acks_only_after_apply(squeeze_dep: Deployment, broker: Broker, broker_files: BrokerFiles,
                                    squeeze_requests: list, squeeze_reference: list) -> None:
    """An envelope a node received but did not apply yet (its loop has not polled) is not acknowledged: the
    node's next session gets it again and completes the request. Once applied, it is acknowledged."""
    edge, owner = _in(squeeze_dep)
    host, tr = _host(squeeze_dep, broker_files.url())
    first = MqttFleet(squeeze_dep, broker_files.url(), nodes=[owner])
    loop = first.loops[owner]
    loop.open()  # connected, but no loop thread: nothing is polled, so nothing is applied
    first.transport(owner).wait_connected(10)
    try:
        host.submit(11, squeeze_requests[0])
        wait_until(lambda: first.transport(owner).stats.received == 1, 30, f"{owner} to receive the input")
        time.sleep(0.3)
        assert loop.acked == 0
    finally:
        first.transport(owner).close(announce=False)  # the process "dies" holding an unapplied envelope
    second = MqttFleet(squeeze_dep, broker_files.url(), nodes=[owner])
    second.start()
    try:
        wait_until(lambda: any(isinstance(e, events.RequestCompleted) and e.request_id == 11
                               for e in second.events[owner]), 20, "the redelivered input to be applied")
        assert second.loops[owner].acked == 1
    finally:
        second.stop()
    third = MqttFleet(squeeze_dep, broker_files.url(), nodes=[owner])
    third.start()
    try:
        time.sleep(1.0)
        assert third.transport(owner).stats.received == 0  # applied and acknowledged: not delivered again
    finally:
        third.stop()
        host.close()


def test_clean_session_connect_with_node_credentials(squeeze_dep: Deployment, broker: Broker,
                                                     broker_files: BrokerFiles, squeeze_requests: list,
                                                     squeeze_reference: list) -> None:
    """While a node is down, a client connects with its credentials and clean_session=True: Mosquitto
    discards the node's queue (the broker cannot prevent it). The host's deadline retry makes the other
    nodes resend what they kept (same seq), so nothing is lost and nothing is applied twice."""
    names = squeeze_dep.node_names
    victim = next(e.dst for e in squeeze_dep.edges)  # a node fed by another node, not by the host
    fleet = MqttFleet(squeeze_dep, broker_files.url())
    fleet.start()
    host, tr = _host(squeeze_dep, broker_files.url())
    result: dict[str, object] = {}
    try:
        host.wait_for_peers(names, TIMEOUT)
        fleet.stop_node(victim)  # clean stop: its persistent session stays, messages for it queue
        upstream = next(e.src for e in squeeze_dep.edges if e.dst == victim)
        mark = sum(isinstance(e, events.RequestCompleted) for e in fleet.events[upstream])

        def run() -> None:
            try:
                result["out"] = host.run(squeeze_requests, timeout=TIMEOUT, retry_after=2.0)
            except Exception as exc:  # reported below
                result["err"] = exc

        th = threading.Thread(target=run, daemon=True)
        th.start()
        wait_until(lambda: sum(isinstance(e, events.RequestCompleted) for e in fleet.events[upstream]) - mark
                   >= len(squeeze_requests), TIMEOUT, f"{upstream} to finish its part (queued for {victim})")
        time.sleep(0.3)
        wiper = RawClient(broker_files.host, broker_files.port, victim, broker_files.passwords[victim],
                          clean=True)
        wiper.close()
        fleet.add_node(victim)
        fleet.start()
        th.join(TIMEOUT * 2)
    finally:
        fleet.stop()
        host.close()
    assert "err" not in result, result.get("err")
    assert_same_outputs(result["out"], squeeze_reference)  # type: ignore[arg-type]
    assert host.stats.retries >= 1, host.stats  # the queue really was lost: only the retry recovered it
    assert host.stats.outputs == len(squeeze_requests)
    infra = [e for e in fleet.events[victim] if e.family == "infra" and not isinstance(e, events.DuplicateDropped)]
    assert infra == [], infra


def test_session_reset_while_connected_is_reported(squeeze_dep: Deployment, broker: Broker,
                                                   broker_files: BrokerFiles, squeeze_requests: list,
                                                   squeeze_reference: list) -> None:
    """A clean-session connect with a running node's credentials takes its client id over and discards its
    session; the node, reconnecting, finds no session (CONNACK session_present=0) and reports SessionReset
    instead of carrying on silently. The fleet keeps working (subscriptions are renewed on every connect)."""
    victim = squeeze_dep.node_names[-1]
    fleet = MqttFleet(squeeze_dep, broker_files.url())
    fleet.start()
    host, tr = _host(squeeze_dep, broker_files.url())
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        assert_same_outputs(host.run(squeeze_requests[:1], timeout=TIMEOUT), squeeze_reference[:1])
        wiper = RawClient(broker_files.host, broker_files.port, victim, broker_files.passwords[victim],
                          clean=True)
        wiper.close()
        wait_until(lambda: any(isinstance(e, SessionReset) for e in fleet.events[victim]), 20,
                   f"{victim} to report its lost session")
        assert fleet.transport(victim).stats.session_resets == 1
        assert all(fleet.transport(n).stats.session_resets == 0 for n in squeeze_dep.node_names if n != victim)
        got = host.run(squeeze_requests, timeout=TIMEOUT, retry_after=2.0)
        assert_same_outputs(got, squeeze_reference)
    finally:
        fleet.stop()
        host.close()


def test_engine_events_only_on_the_loop_thread(squeeze_dep: Deployment, broker: Broker,
                                               broker_files: BrokerFiles, squeeze_requests: list) -> None:
    """Transports run on their own threads, but every engine event (peer news, impostors, refusals,
    results) is emitted on the node's loop thread: the adapter only queues bytes for it."""
    ids = squeeze_dep.ids()
    edge, owner = _in(squeeze_dep)
    fleet = MqttFleet(squeeze_dep, broker_files.url(), nodes=[owner])
    seen: list[tuple[str, str]] = []
    fleet.loops[owner].engine.subscribe(lambda e: seen.append((type(e).__name__, threading.current_thread().name)))
    fleet.start()
    host, tr = _host(squeeze_dep, broker_files.url())
    try:
        other = next(n for n in squeeze_dep.node_names if n != owner)
        tr.send(owner, ids[owner], encode(Envelope.for_array(np.zeros(3, np.float32), sender=ids[other],
                                                             receiver=ids[owner], seq=1, edge=edge)))
        tr.send(owner, ids[owner], b"\x00" * 80)  # undecodable
        host.submit(31, squeeze_requests[0])
        wait_until(lambda: {"Impostor", "EnvelopeRejected", "RequestCompleted", "PeerUp"}
                   <= {k for k, _ in seen}, 20, "the events")
    finally:
        fleet.stop()
        host.close()
    assert {t for _, t in seen} == {f"hostloop-{owner}"}, seen


def test_an_inline_node_applies_each_envelope_on_the_receiving_thread_and_acks_it_after(
        squeeze_dep: Deployment, broker: Broker, broker_files: BrokerFiles, squeeze_requests: list,
        squeeze_reference: list) -> None:
    """``HostLoop(inline=True)`` (``bb-edge node``): the envelope is applied, computed and acknowledged on
    paho's network thread, one step at a time under the loop's step lock, never while the loop thread steps;
    the outputs are the reference's."""
    fleet = MqttFleet(squeeze_dep, broker_files.url())
    seen: list[tuple[str, str, bool]] = []
    loops = []
    for name in squeeze_dep.node_names:
        plain = fleet.loops[name]
        loop = fleet.loops[name] = HostLoop(plain.engine, plain.transport, on_events=plain.on_events, inline=True)
        loops.append(loop)
        loop.engine.subscribe(lambda e, lp=loop: seen.append(  # type: ignore[misc]
            (type(e).__name__, threading.current_thread().name, lp.stepping)))
    fleet.start()
    host, tr = _host(squeeze_dep, broker_files.url())
    try:
        host.wait_for_peers(squeeze_dep.node_names, TIMEOUT)
        got = host.run(squeeze_requests[:3], window=1, timeout=TIMEOUT)
    finally:
        fleet.stop()
        host.close()
    assert_same_outputs(got, squeeze_reference[:3])
    assert all(lp.inline_steps >= 3 and lp.acked >= 3 for lp in loops), [(lp.inline_steps, lp.acked) for lp in loops]
    done = [(t, held) for k, t, held in seen if k == "RequestCompleted"]
    assert done and all(held for _, held in done), done  # every step ran under the step lock
    assert all(t.startswith(("paho-mqtt-client-", "hostloop-")) for t, _ in done), done
    assert any(t.startswith("paho-mqtt-client-") for t, _ in done), done  # applied where it was received


# ------------------------------------------------------------ fail fast


def test_wrong_shape_input_fails_fast_naming_the_request(squeeze_dep: Deployment, broker: Broker,
                                                         broker_files: BrokerFiles, squeeze_requests: list,
                                                         squeeze_reference: list) -> None:
    """A wrong-shape input: the owning node's ContractViolation comes back as an error result, so the run
    stops in seconds with that reason for that request and returns the outputs that did arrive."""
    from bb_edge.commands.run import run_deployment

    bad = {k: np.zeros((1, 3, 8, 8), v.dtype) for k, v in squeeze_requests[0].items()}
    reqs = [squeeze_requests[0], bad, squeeze_requests[1]]
    t0 = time.monotonic()
    with pytest.raises(RunIncomplete) as info:
        run_deployment(squeeze_dep, reqs, broker_files.url())
    took = time.monotonic() - t0
    exc = info.value
    assert list(exc.missing) == [1], exc.missing
    assert "ContractViolation at " + _in(squeeze_dep)[1] in exc.missing[1], exc.missing
    assert f"for request {exc.missing[1].split('for request ')[1].split(':')[0]}" in str(exc)
    assert exc.outputs[1] is None
    assert_same_outputs([exc.outputs[0], exc.outputs[2]], squeeze_reference[:2])  # type: ignore[list-item]
    assert took < 30, took  # not the 120 s timeout
    print(f"wrong shape: failed in {took:.1f}s: {exc}")


def test_partial_outputs_file(tmp_path: Path, squeeze_reference: list) -> None:
    """What `bb-edge run` writes when a run is incomplete: the finished requests stacked plus request_index."""
    from bb_edge.commands.run import _save_partial

    out = tmp_path / "partial.npz"
    _save_partial(out, [squeeze_reference[0], None, squeeze_reference[2]])
    data = np.load(out)
    np.testing.assert_array_equal(data["request_index"], [0, 2])
    for k, v in squeeze_reference[0].items():
        np.testing.assert_array_equal(data[k][0], v)
        np.testing.assert_array_equal(data[k][1], squeeze_reference[2][k])


def _cli(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, PYTHONPATH=str(root)), cwd=root)


def test_node_unreachable_broker_fails_fast(squeeze_dir: Path) -> None:
    """`bb-edge node --transport mqtt://127.0.0.1:1` (nothing listening): one line, non-zero, bounded."""
    t0 = time.monotonic()
    res = _cli(["node", str(squeeze_dir), "--node", "n0", "--transport", "mqtt://127.0.0.1:1",
                "--connect-timeout", "1.5"], timeout=60)
    took = time.monotonic() - t0
    assert res.returncode != 0
    err = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(err) == 1 and "MqttError" in err[0] and "127.0.0.1:1" in err[0], res.stderr
    assert took < 30, took
    # the URL option does the same
    res = _cli(["node", str(squeeze_dir), "--node", "n0", "--transport", "mqtt://127.0.0.1:1?connect_timeout=1"],
               timeout=60)
    assert res.returncode != 0 and "in 1.0s" in res.stderr, res.stderr


# ------------------------------------------------------------ boot epochs


def test_boot_epochs_monotone(tmp_path: Path, squeeze_dep: Deployment) -> None:
    """With a state file two boots in the same second get different epochs; seq = (epoch << 32) | n."""
    f = tmp_path / "epoch"
    a = boot_epoch(f, now=1_700_000_000.2)
    b = boot_epoch(f, now=1_700_000_000.7)
    c = boot_epoch(f, now=1_600_000_000.0)  # a clock that went backwards
    assert (a, b, c) == (1_700_000_000, 1_700_000_001, 1_700_000_002)
    eng = Engine.for_node(squeeze_dep, "n0", backend="reference")
    first = seed_sequence(eng, state_file=f)
    assert first >> 32 == int(f.read_text()) >= max(1_700_000_003, int(time.time()) - 1)
    assert first & 0xFFFFFFFF == 0 and eng.boot_epoch == first >> 32
    eng2 = Engine.for_node(squeeze_dep, "n0", backend="reference")
    assert seed_sequence(eng2) >> 32 >= int(time.time()) - 1  # clock epoch without a state file
    assert seed_sequence(Engine.for_node(squeeze_dep, "n0", backend="reference"), base=5) == 5  # old API


def test_url_connect_timeout() -> None:
    """connect_timeout is parsed from the URL."""
    assert MqttConfig.from_url("mqtt://h:1?connect_timeout=2.5").connect_timeout == 2.5
    assert MqttConfig.from_url("mqtt://h:1").connect_timeout == 30.0


def test_retransmit_buffer_and_control_parsing() -> None:
    """The per-request resend buffer is bounded (oldest requests go first) and forgets on `done`; control
    messages that are not `stop`/`retry ids`/`done ids` are ignored, not half-applied."""
    from bb_edge.adapters.fleet.hostloop import RetransmitBuffer, parse_control

    buf = RetransmitBuffer(max_requests=3, max_bytes=100)
    for rid in range(1, 5):
        buf.keep(rid, "n1", 2, bytes([rid]) * 10)
    assert len(buf) == 3 and buf.get(1) == [] and buf.get(4) == [("n1", 2, bytes([4]) * 10)]
    buf.keep(5, "n1", 2, b"x" * 95)  # over the byte cap: older requests are dropped until it fits
    assert buf.bytes <= 100 and buf.get(5) and not buf.get(2)
    buf.forget(5)
    assert buf.bytes == 0 and len(buf) == 0
    assert parse_control(b"retry 7 9") == ("retry", [7, 9])
    assert parse_control(b"done 1") == ("done", [1])
    assert parse_control(b" stop\n") == ("stop", [])
    for bad in (b"retry not-a-number", b"\xff\xfe", b"", b"retry -1", b"reboot 1", b"retry " + str(2**64).encode()):
        assert parse_control(bad) is None, bad


def test_inproc_host_applies_the_same_output_contract(squeeze_dep: Deployment) -> None:
    """The in-process fleet's host side (outputs device nodes send to id 0) refuses forged producers, wrong
    dtypes and the (0, 2**32-1, 2**32-1) dims, and accepts the real producer's output."""
    from bb_edge.adapters.transports.inproc import InProcFleet

    ids = squeeze_dep.ids()
    edge, producer = _out(squeeze_dep)
    liar = next(n for n in squeeze_dep.node_names if n != producer)
    shape = tuple(squeeze_dep.outputs[0].shape)
    fleet = InProcFleet(squeeze_dep, backend="reference")
    value = np.full(shape, 0.25, np.float32)

    def env(sender: str, arr: np.ndarray) -> bytes:
        return encode(Envelope.for_array(arr, sender=ids[sender], receiver=0, seq=1, request_id=3, edge=edge))

    fleet._to_host(liar, env(liar, value))
    fleet._to_host(producer, env(producer, np.arange(3, dtype=np.int64)))
    fleet._to_host(producer, forged_envelope(ids[producer], 0, 2, 3, edge, POISON_DIMS))
    fleet._to_host(liar, env(producer, value))  # header claims the producer, the link says otherwise
    fleet._to_host(producer, env(producer, value))
    refused = [e for _, e in fleet.events if isinstance(e, OutputRefused)]
    ready = [e for _, e in fleet.events if isinstance(e, events.OutputReady)]
    assert len(refused) == 4, refused
    assert refused[0].reason.startswith("forged") and refused[1].reason.startswith("contract")
    assert str(list(POISON_DIMS)) in refused[2].reason
    assert len(ready) == 1 and ready[0].request_id == 3
    np.testing.assert_array_equal(ready[0].value, value)
