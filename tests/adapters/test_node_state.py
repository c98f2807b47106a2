"""``bb-edge node --state FILE``: a node SIGTERMed and restarted keeps its sequence, epoch and bindings.

Real Mosquitto (anonymous, so a sniffer sees every envelope), the middle node of the 3-way squeezenet as
a ``bb-edge node`` process with ``--state``, its peers in this process (their engine events are the
peers' view). The sniffer is the independent oracle: the middle node's sequence numbers over the
restart must be one unbroken run in one epoch.
"""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import numpy as np
import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from bb_edge.adapters.fleet.hostloop import (
    RetransmitBuffer,
    StateFileError,
    load_node_state,
    restore_node_state,
    save_node_state,
)
from bb_edge.adapters.fleet.mqtt_fleet import MqttFleet, host_endpoint, spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.deployment.arrays import load_requests
from bb_edge.deployment.manifest import Deployment
from bb_edge.engine import Engine, events
from bb_edge.learn.liveness import LivenessTable
from bb_edge.wire import envelope as wire
from tests.support.transport_helpers import LineCollector, assert_same_outputs, wait_until

pytest_plugins = ["tests.support.transport_fixtures"]

TIMEOUT = 90.0


class Sniffer:
    """Anonymous subscriber to every topic of the deployment: (sender, seq) of every envelope seen."""

    def __init__(self, port: int) -> None:
        self.seen: list[tuple[int, int]] = []
        self._lock = threading.Lock()
        ready = threading.Event()
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id="sniffer")
        c.on_connect = lambda cl, u, f, rc, p: (cl.subscribe("bb/#", qos=1), ready.set())
        c.on_message = self._on_message
        c.connect("127.0.0.1", port, keepalive=5)
        c.loop_start()
        self.c = c
        assert ready.wait(10)

    def _on_message(self, client: paho.Client, userdata: object, msg: paho.MQTTMessage) -> None:
        try:
            env = wire.decode(bytes(msg.payload))
        except Exception:
            return  # presence, control: not envelopes
        with self._lock:
            self.seen.append((env.sender, env.seq))

    def seqs(self, sender: int) -> list[int]:
        with self._lock:
            return sorted({s for snd, s in self.seen if snd == sender})

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def test_sigterm_restart_keeps_sequence_epoch_and_requests(squeeze_dir: Path, squeeze_dep: Deployment,
                                                           tmp_path: Path) -> None:
    dep = squeeze_dep
    names = dep.node_names
    mid = names[1]
    mid_id = dep.ids()[mid]
    requests = load_requests(dep, None, count=6, seed=11)
    reference = InProcFleet(dep).run(requests)
    files = write_broker_files(tmp_path / "broker", None)  # anonymous: the sniffer may read everything
    broker = Broker(files).start()
    url = files.url()
    state = tmp_path / "mid.state"
    extra = ["--state", str(state), "--state-interval", "0.5"]
    sniffer = Sniffer(files.port)
    fleet = MqttFleet(dep, url, nodes=[n for n in names if n != mid])
    fleet.start()
    host = host_endpoint(dep, url)
    proc = spawn_node(squeeze_dir, mid, url, extra=extra, stdout=subprocess.PIPE)
    log = LineCollector(proc)
    procs = [proc]
    try:
        host.wait_for_peers(names, TIMEOUT)
        base = 1000
        for i in range(2):
            host.submit(base + i, requests[i])
        got = [host.wait(base + i, TIMEOUT) for i in range(2)]
        assert stop_process(proc) == 0
        first = load_node_state(state)
        assert first.clean and first.node == mid
        wait_until(lambda: log.has("saved "), 10, "the saved line")
        before = sniffer.seqs(mid_id)
        # while the node is down, requests queue at the broker for it (its persistent session)
        for i in range(2, 6):
            host.submit(base + i, requests[i])
        proc = spawn_node(squeeze_dir, mid, url, extra=extra, stdout=subprocess.PIPE)
        procs.append(proc)
        log2 = LineCollector(proc)
        got += [host.wait(base + i, TIMEOUT) for i in range(2, 6)]
        wait_until(lambda: log2.has("restored "), 10, "the restored line")
        assert log2.has("clean shutdown"), log2.lines[:5]
        assert_same_outputs(got, reference)
        wait_until(lambda: len(sniffer.seqs(mid_id)) > len(before), 10, "the restarted node's envelopes")
        after = sniffer.seqs(mid_id)
    finally:
        for p in procs:
            stop_process(p)
        fleet_reports = fleet.stop()
        host.close()
        sniffer.close()
        broker.stop()
    assert fleet_reports
    # one epoch, one unbroken run of sequence numbers across the restart: no duplicate, no gap
    epochs = {s >> 32 for s in after}
    assert len(epochs) == 1, epochs
    new = [s for s in after if s not in set(before)]
    assert before and new and min(new) == max(before) + 1
    assert after == list(range(after[0], after[-1] + 1))
    # the peers' own view: nothing from the restarted node was dropped as a duplicate or a stale epoch
    for n, evs in fleet.events.items():
        bad = [e for e in evs if isinstance(e, (events.DuplicateDropped, events.StaleEpoch,
                                                events.EpochRegressed))]
        assert not bad, (n, bad[:3])
    assert host.stats.outputs == 6 * len(dep.outputs) and host.stats.duplicates == 0


def test_periodic_snapshot_after_kill_moves_to_a_new_epoch(squeeze_dep: Deployment, tmp_path: Path) -> None:
    """A killed node restarts from its last periodic snapshot: envelopes may have left after it, so the
    node continues in a new epoch (above the restored one), and a peer accepts it without a duplicate."""
    dep = squeeze_dep
    a, b = dep.node_names[0], dep.node_names[1]
    eng = Engine.for_node(dep, b)
    eng.set_boot_epoch(100)
    peer = Engine.for_node(dep, a)
    peer.set_boot_epoch(50)
    eng.hello(a)
    for o in eng.flush_outbound():
        peer.deliver(b, o.data)
    peer.poll(0.0)
    path = tmp_path / "b.state"
    save_node_state(path, eng, RetransmitBuffer(), clean=False)
    eng.ping(a)  # sent after the snapshot: the restored node must not reuse its number
    late = eng.flush_outbound()[0]
    peer.deliver(b, late.data)
    peer.poll(0.1)
    fresh = Engine.for_node(dep, b)
    epoch = restore_node_state(load_node_state(path), fresh, RetransmitBuffer(), now=5.0)
    assert epoch > 100
    fresh.hello(a)
    fresh.ping(a)
    out = fresh.flush_outbound()
    assert all(o.seq >> 32 == epoch for o in out) and all(o.seq > late.seq for o in out)
    peer.drain_events()
    for o in out:
        peer.deliver(b, o.data)
    peer.poll(0.2)
    evs = peer.drain_events()
    assert not [e for e in evs if isinstance(e, (events.DuplicateDropped, events.StaleEpoch))], evs
    assert sum(isinstance(e, events.ControlReceived) and e.code == 2 for e in evs) == 1  # the PING applied


def test_bindings_and_resend_buffer_survive(squeeze_dep: Deployment, tmp_path: Path) -> None:
    dep = squeeze_dep
    node = dep.node_names[0]
    eng = Engine.for_node(dep, node)
    table = LivenessTable()
    for t in (1.0, 2.0, 3.5):
        table.heartbeat(7, t)
    eng.bind("liveness", table)
    eng.set_boot_epoch(9)
    buf = RetransmitBuffer()
    buf.keep(42, "n1", 2, b"abc")
    buf.keep(43, "_host", 0, b"defg")
    path = tmp_path / "s.state"
    save_node_state(path, eng, buf, clean=True)
    fresh = Engine.for_node(dep, node)
    restored = LivenessTable()
    fresh.bind("liveness", restored)
    buf2 = RetransmitBuffer()
    assert restore_node_state(load_node_state(path), fresh, buf2, now=0.0) == 9
    assert restored.detectors[7].intervals == table.detectors[7].intervals
    assert restored.phi(7, 4.0) == pytest.approx(table.phi(7, 4.0))
    assert buf2.get(42) == [("n1", 2, b"abc")] and buf2.get(43) == [("_host", 0, b"defg")]
    assert fresh.boot_epoch == 9 and fresh.seq == eng.seq
    # a component missing at restore is a typed refusal, not a traceback
    with pytest.raises(StateFileError):
        restore_node_state(load_node_state(path), Engine.for_node(dep, node), None)


@pytest.mark.parametrize("mutate", [
    lambda b: b[:20],  # truncated
    lambda b: b"XXXX" + b[4:],  # wrong magic
    lambda b: b + b"\x00",  # padded
    lambda b: b[:12] + b"{" * 8 + b[20:],  # corrupt header
])
def test_corrupt_state_file_is_a_typed_error(squeeze_dep: Deployment, tmp_path: Path, mutate) -> None:  # type: ignore[no-untyped-def]
    eng = Engine.for_node(squeeze_dep, squeeze_dep.node_names[0])
    path = tmp_path / "s.state"
    save_node_state(path, eng, None, clean=True)
    path.write_bytes(mutate(path.read_bytes()))
    with pytest.raises(StateFileError):
        state = load_node_state(path)
        restore_node_state(state, Engine.for_node(squeeze_dep, squeeze_dep.node_names[0]))


def test_cli_refuses_a_corrupt_state_file(squeeze_dir: Path, squeeze_dep: Deployment, tmp_path: Path) -> None:
    bad = tmp_path / "bad.state"
    bad.write_bytes(b"BBNODE1\n" + np.uint32(3).tobytes() + b"{}}")
    r = subprocess.run(["bb-edge", "node", str(squeeze_dir), "--node", squeeze_dep.node_names[0],
                        "--transport", "mqtt://127.0.0.1:1", "--state", str(bad)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "Traceback" not in r.stderr and "node state" in r.stderr, r.stderr


# ---- issue 25: state files name their deployment and are type-checked; epochs are u32 and never wrap

def _header_edit(blob: bytes, **changes: object) -> bytes:
    """``blob`` with its JSON header fields replaced (the lengths of the parts kept)."""
    import json
    import struct

    (n,) = struct.unpack_from("<I", blob, 8)
    head = json.loads(blob[12:12 + n])
    head.update(changes)
    new = json.dumps(head).encode()
    return blob[:8] + struct.pack("<I", len(new)) + new + blob[12 + n:]


def test_a_state_file_of_another_deployment_is_refused(squeeze_dep: Deployment, tmp_path: Path) -> None:
    """The docs promised a StateFileError for another deployment's state; it was restored."""
    node = squeeze_dep.node_names[0]
    eng = Engine.for_node(squeeze_dep, node)
    eng.set_boot_epoch(7)
    path = tmp_path / "s.state"
    save_node_state(path, eng, None, clean=True, deployment="squeeze-a")
    with pytest.raises(StateFileError, match="another deployment"):
        restore_node_state(load_node_state(path), Engine.for_node(squeeze_dep, node), deployment="squeeze-b")
    fresh = Engine.for_node(squeeze_dep, node)
    assert restore_node_state(load_node_state(path), fresh, deployment="squeeze-a") == 7  # its own: restored
    # same name, other node ids (another compile of the deployment): refused too
    other = Engine(node, 99, {**squeeze_dep.ids(), node: 99})
    with pytest.raises(StateFileError, match="another deployment"):
        restore_node_state(load_node_state(path), other, deployment="squeeze-a")


@pytest.mark.parametrize("edit", [
    {"clean": "yes"}, {"clean": 1}, {"engine": "12"}, {"engine": True}, {"node": 5}, {"deployment": None},
    {"retransmit": 5}, {"retransmit": [[1, 2, 3, 4]]}, {"retransmit": [["1", "n1", 2, 0]]}, {"saved_at": "now"},
])
def test_hand_edited_field_types_are_a_typed_error(squeeze_dep: Deployment, tmp_path: Path,
                                                   edit: dict[str, object]) -> None:
    eng = Engine.for_node(squeeze_dep, squeeze_dep.node_names[0])
    path = tmp_path / "s.state"
    save_node_state(path, eng, None, clean=True)
    path.write_bytes(_header_edit(path.read_bytes(), **edit))
    with pytest.raises(StateFileError, match=f"'{next(iter(edit))}"):
        load_node_state(path)


def test_epochs_are_u32_and_never_wrap(squeeze_dep: Deployment, tmp_path: Path) -> None:
    """An epoch file of 2**40 was used as 1; the clock epoch wrapped in 2038; one at the cap was not moved on."""
    from bb_edge.adapters.fleet.hostloop import EpochError, boot_epoch, sequence_base

    ef = tmp_path / "epoch"
    ef.write_text(f"{2**40}\n")
    with pytest.raises(EpochError):
        boot_epoch(ef, now=1000.0)
    assert ef.read_text() == f"{2**40}\n"  # nothing written
    ef.write_text(f"{2**32 - 1}\n")
    with pytest.raises(EpochError, match="never wrap"):
        boot_epoch(ef, now=1000.0)
    ef.write_text("41\n")
    assert boot_epoch(ef, now=10.0) == 42 and ef.read_text() == "42\n"
    # 2040 (past 2**31 seconds): the clock epoch is used as it is, not masked down to 1970
    y2040 = 2_208_988_800
    assert boot_epoch(None, now=y2040) == y2040 and sequence_base(y2040) >> 32 == y2040
    with pytest.raises(EpochError):
        boot_epoch(None, now=2**32)  # 2106: refused, never wrapped to a small epoch
    with pytest.raises(EpochError):
        sequence_base(2**32)
    eng = Engine.for_node(squeeze_dep, squeeze_dep.node_names[0])
    eng.set_boot_epoch(y2040)
    assert eng.seq >> 32 == y2040  # the engine takes a u32 epoch above 2**31
    # after an unclean stop at the cap the node needs a new epoch: refused, not reused
    eng.set_boot_epoch(2**32 - 1)
    path = tmp_path / "s.state"
    save_node_state(path, eng, None, clean=False)
    with pytest.raises(EpochError):
        restore_node_state(load_node_state(path), Engine.for_node(squeeze_dep, squeeze_dep.node_names[0]))


def test_cli_checks_the_state_path_before_it_starts(squeeze_dir: Path, squeeze_dep: Deployment,
                                                    tmp_path: Path) -> None:
    """``--state afile/s.state`` under a file once started and died at the first snapshot."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    for option in ("--state", "--epoch-file"):
        r = subprocess.run(["bb-edge", "node", str(squeeze_dir), "--node", squeeze_dep.node_names[0],
                            "--transport", "mqtt://127.0.0.1:1", option, str(afile / "s.state")],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
        assert f"OutputPathError: {option}" in r.stderr, r.stderr
