"""The C link layer (firmware/src/bbrt_link.c) and reboot-safe C nodes.

- golden vectors of tests/vectors/link/ through a ctypes harness (firmware/ports/posix/pyapi.c):
  hello records decode and re-encode identically, every invalid frame raises its event and
  changes nothing, scripted sessions replay with the same frames out and the same events;
- the C seq window replays tests/vectors/engine_rules.json when present;
- a v2-only Python link meets the v1-only posix C node: both report VersionMismatch;
- lossy pty (1% corrupted, 0.5% dropped bytes) between bb_edge.wire.link and the posix C node:
  every envelope exactly once, 16 KiB envelopes fragmented over a 4 KiB device MTU both ways;
- device reset: a QEMU Cortex-M3 node killed and restarted on the same pty mid-stream.

BB_EDGE_LONG=1 runs the lossy test with more envelopes.
"""

from __future__ import annotations

import ctypes
import json
import os
import struct
import time
from pathlib import Path
from typing import Any

import pytest

from bb_edge.bbrt.native import load_host_library
from tests.support.c_link import ECHO_N, HELLO_CODES, CLink, c_stats, echo_program, hello_record, link_vectors
from tests.support.transport_helpers import rules_program

VEC = Path(__file__).resolve().parents[1] / "vectors"
LINK = VEC / "link"


def comparable(expected: dict[str, Any]) -> dict[str, Any]:
    """The fields of a vector event the C harness reports."""
    name = expected["event"]
    keep = {"LinkUp": ("version", "boot_epoch"), "VersionMismatch": ("peer_min", "peer_max"),
            "PeerRestarted": ("old_epoch", "new_epoch"), "EpochRegressed": ("known", "got"),
            "BadHello": ("code",), "BadLinkFrame": ("code",), "AckUnknown": ("cum", "mask"),
            "FragmentRejected": ("msg_id", "code"), "ReassemblyTimeout": ("msg_id", "received"),
            "GaveUp": ("code",), "EnvelopeReceived": ("envelope_hex", "bare")}.get(name, ())
    out = {"event": name, **{k: expected[k] for k in keep if k in expected}}
    if name == "HeartbeatReceived":
        out["records"] = len(expected.get("presence", []))
    return out


# ------------------------------------------------------------------ vectors


def test_hello_records_decode_and_encode_identically() -> None:
    v = link_vectors()
    lib = load_host_library()
    lib.bbrtpy_hello_roundtrip.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
                                           ctypes.POINTER(ctypes.c_size_t)]
    n = 0
    for name, spec in v["valid"].items():
        if spec["type"] != 1:
            continue
        body = (LINK / f"{name}.bin").read_bytes()
        record = body[8:]
        assert record == hello_record(spec["hello"]), name  # the oracle: the vector's fields, packed here
        out = ctypes.create_string_buffer(256)
        written = ctypes.c_size_t(0)
        st = lib.bbrtpy_hello_roundtrip(record, len(record), out, len(out), ctypes.byref(written))
        assert st == 0, f"{name}: C hello decode/encode refused it ({HELLO_CODES.get(st, st)})"
        assert out.raw[:written.value] == record, name
        n += 1
    assert n >= 3


def established(v: dict[str, Any]) -> CLink:
    """A C link after the handshake of the vectors' `setup`."""
    setup = v["setup"]
    link = CLink(hello_record(setup["local_hello"]), setup["config"])
    link.step("start", 0)
    frames, events = link.step("receive", 0, bytes.fromhex(setup["peer_hello_hex"]))
    assert [e["event"] for e in events] == ["LinkUp"], events
    return link


def test_invalid_frames_raise_their_event_and_change_nothing() -> None:
    v = link_vectors()
    for name, spec in v["invalid"].items():
        body = (LINK / "invalid" / f"{name}.bin").read_bytes()
        if spec["session"]:
            link = established(v)
        else:
            link = CLink(hello_record(v["setup"]["local_hello"]), v["setup"]["config"])
            link.step("start", 0)
        before = link.state()
        frames, events = link.step("receive", 1000, body)
        got = [e for e in events]
        want = {"event": spec["event"]}
        if spec.get("code"):
            want["code"] = spec["code"]
        assert len(got) == 1 and all(got[0].get(k) == val for k, val in want.items()), (name, got, want)
        assert link.state() == before, f"{name} changed the link state"
        if name != "data_no_session":  # answered with a HELLO, as the spec says
            assert frames == [], (name, frames)


def test_valid_frames_are_accepted_by_an_established_link() -> None:
    v = link_vectors()
    for name, spec in v["valid"].items():
        if spec["type"] == 1:
            continue
        link = established(v)
        body = (LINK / f"{name}.bin").read_bytes()
        frames, events = link.step("receive", 1000, body)
        names = [e["event"] for e in events]
        assert "BadLinkFrame" not in names and "BadHello" not in names, (name, events)
        if spec["type"] == 2 and not spec.get("msg_id"):
            assert events[0] == {"event": "EnvelopeReceived", "envelope_hex": spec["envelope_hex"],
                                 "bare": bool(spec.get("bare"))}, name
        if spec["type"] == 4:
            assert events == [{"event": "HeartbeatReceived", "records": len(spec["presence"])}]


def test_scripted_sessions_replay_identically() -> None:
    v = link_vectors()
    assert v["sessions"], "no scripted sessions"
    for sess in v["sessions"]:
        link = CLink(hello_record(sess["local_hello"]), sess["config"])
        for i, st in enumerate(sess["steps"]):
            data = bytes.fromhex(st.get("frame") or st.get("envelope") or "")
            frames, events = link.step(st["op"], st["t_ms"], data)
            where = f"{sess['name']} step {i} ({st['op']} at {st['t_ms']} ms)"
            assert frames == st["out"], f"{where}: frames {frames} != {st['out']}"
            assert events == [comparable(e) for e in st["events"]], f"{where}: events {events}"


# ------------------------------------------------------------ engine rules (seq window, authorisation)

VERDICT = {0: "accept", 43: "duplicate", 44: "stale_epoch", 45: "unauthorised", 41: "contract",
           40: "unknown_edge"}


def test_c_node_applies_the_engine_rules() -> None:
    """tests/vectors/engine_rules.json: every envelope gets the verdict the engine gives it."""
    path = VEC / "engine_rules.json"
    if not path.exists():
        pytest.skip("tests/vectors/engine_rules.json not there yet")
    from bb_edge.bbrt.host import aligned

    v = json.loads(path.read_text())
    dep = v["deployment"]
    assert dep["window"] == 64 and dep["epochs"] == 4, "the C window is 64 bits x 4 epochs"
    lib = load_host_library()
    lib.bbrtpy_node_handle.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t]
    blob = rules_program(dep)
    buf = aligned(len(blob))
    buf[:] = list(blob)
    out = ctypes.create_string_buffer(1 << 16)
    n = 0
    for case in v["cases"]:
        arena = aligned(1 << 16)
        assert lib.bbrtpy_node_init(buf.ctypes.data, len(blob), arena.ctypes.data, len(arena)) == 0
        for i, env in enumerate(case["envelopes"]):
            raw = bytes.fromhex(env["hex"])
            st = lib.bbrtpy_node_handle(raw, len(raw), out, len(out))
            got = VERDICT.get(st, f"status {st}")
            assert got == env["expect"], f"{case['name']} #{i} ({env['note']}): {got} != {env['expect']}"
            n += 1
    assert n >= 20


# ------------------------------------------------------------ Python link <-> posix C node on a pty


@pytest.fixture()
def echo(tmp_path: Path) -> tuple[Path, Path]:
    from bb_edge.bbrt.native import host_executable

    prog = tmp_path / "echo.bbrt"
    prog.write_bytes(echo_program(5))
    return host_executable(), prog


def request(i: int, seq: int, rng: Any) -> tuple[bytes, Any]:
    import numpy as np

    from bb_edge.wire import Envelope, encode

    x = rng.standard_normal((1, ECHO_N)).astype(np.float32)
    env = encode(Envelope.for_array(x, sender=0, receiver=5, seq=seq, request_id=i, edge=1))
    return env, np.maximum(x, 0)


def test_16k_envelopes_fragmented_over_the_4k_device_mtu_both_ways(echo: tuple[Path, Path], tmp_path: Path) -> None:
    import numpy as np

    from bb_edge.adapters.devices.serial_devices import PtyHostDevice
    from bb_edge.wire import decode

    exe, prog = echo
    dev = PtyHostDevice(exe, prog, 5, epoch_file=tmp_path / "epoch").start(20)
    rng = np.random.default_rng(3)
    want = {}
    try:
        assert dev.link is not None and dev.link.peer is not None and dev.link.peer.max_frame == 4096
        for i in range(1, 9):
            env, ref = request(i, (7 << 32) | i, rng)
            assert len(env) > 16384
            want[i] = ref
            dev.send(env)
        got = dev.wait_data(len(want), 30)
        frames_in = dev.link.counters.frames_in
    finally:
        err = dev.stop()
    outs = {decode(e).request_id: decode(e).array() for e in got}
    assert sorted(outs) == sorted(want)
    for i, ref in want.items():
        np.testing.assert_array_equal(outs[i], ref)
    st = c_stats(err)
    # 16,456-byte envelopes in frames of at most 4,096 bytes: 5 fragments each way per envelope
    assert st["inferences"] == len(want) and st["data_in"] >= 5 * len(want), err
    assert frames_in >= 5 * len(want)
    assert st["FragmentRejected"] == 0 and st["tx_dropped"] == 0, err


class LossyPtyDevice:
    """Damage on a device line, both ways: each byte corrupted with p=corrupt, dropped with p=drop."""

    def __init__(self, corrupt: float, drop: float, seed: int) -> None:
        import numpy as np

        self.rng = np.random.default_rng(seed)
        self.corrupt, self.drop = corrupt, drop
        self.corrupted = self.dropped = 0

    def damage(self, data: bytes) -> bytes:
        import numpy as np

        buf = np.frombuffer(data, np.uint8).copy()
        hits = np.flatnonzero(self.rng.random(buf.size) < self.corrupt)
        buf[hits] ^= self.rng.integers(1, 256, hits.size, dtype=np.uint8)
        keep = self.rng.random(buf.size) >= self.drop
        self.corrupted += int(hits.size)
        self.dropped += int(buf.size - keep.sum())
        return buf[keep].tobytes()


def lossy_device(exe: Path, prog: Path, epoch: Path, noise: LossyPtyDevice, frame: int) -> Any:
    from bb_edge.adapters.devices.serial_devices import PtyHostDevice
    from bb_edge.wire.link import LinkConfig

    class Lossy(PtyHostDevice):
        def write(self, data: bytes) -> None:
            super().write(noise.damage(data))

        def read_available(self, timeout: float = 0.0) -> bytes:
            raw = super().read_available(timeout)
            return noise.damage(raw) if raw else raw

    # a pty answers in ms: short timers on both ends (a timeout, not an RTT, paces a lossy line)
    cfg = LinkConfig(rto_initial=0.02, rto_min=0.005, rto_max=0.025, max_retries=100000, hb_interval=0.1,
                     dead_after=10.0, reassembly_timeout=120.0, mtu=frame)
    return Lossy(exe, prog, 5, epoch_file=epoch, max_frame=frame, config=cfg,
                 c_timers=(20, 5, 25, 100000, 100, 10000, 120000))


def test_lossy_pty_python_to_c_exactly_once(echo: tuple[Path, Path], tmp_path: Path) -> None:
    """1% of bytes corrupted and 0.5% dropped on both directions of a real pty: 1,000 envelopes
    (PINGs and 16 KiB tensors) from Python to the C node, each applied once there and answered once."""
    import numpy as np

    from bb_edge.adapters.devices.serial_devices import CTRL_PING, CTRL_PONG, PROBE_ID
    from bb_edge.wire import Envelope, decode, encode

    long = bool(os.environ.get("BB_EDGE_LONG"))
    total, big_every = (5000, 50) if long else (1000, 100)
    exe, prog = echo
    noise = LossyPtyDevice(0.01, 0.005, seed=11)
    # frames of 96 bytes: at 1.5% damaged bytes a 4 KiB frame would never arrive intact
    dev = lossy_device(exe, prog, tmp_path / "epoch", noise, 96).start(60)
    rng = np.random.default_rng(5)
    want_data: dict[int, Any] = {}
    want_pong: set[int] = set()
    pongs: list[int] = []
    outs: dict[int, list[Any]] = {}
    try:
        for i in range(1, total + 1):
            if i % big_every == 0:
                env, ref = request(i, (9 << 32) | i, rng)
                want_data[i] = ref
            else:
                dev._seq += 1
                seq = (dev._probe_epoch << 32) | dev._seq
                want_pong.add(seq)
                env = encode(Envelope.for_bytes(b"", sender=PROBE_ID, receiver=5, seq=seq, edge=CTRL_PING))
            dev.send(env)
            if i % 20 == 0:
                dev._pump(0.0)
        deadline = time.monotonic() + (600 if long else 240)
        while time.monotonic() < deadline:
            dev._pump(0.05)
            pongs += [e.response_to for e in dev.control if e.edge == CTRL_PONG and e.response_to in want_pong]
            dev.control.clear()
            for e in dev.receive():
                d = decode(e)
                outs.setdefault(d.request_id, []).append(d.array())
            if len(set(pongs)) == len(want_pong) and len(outs) == len(want_data):
                break
        dev.pump_for(1.0)  # last ACKs to the node
        probes = dev._seq
    finally:
        err = dev.stop()
    st = c_stats(err)
    assert len(pongs) == len(set(pongs)) == len(want_pong), f"{len(set(pongs))}/{len(want_pong)} PONGs; {err}"
    assert sorted(outs) == sorted(want_data), f"{len(outs)}/{len(want_data)} outputs; {err}"
    for i, arrs in outs.items():
        assert len(arrs) == 1, f"request {i} answered {len(arrs)} times"
        np.testing.assert_array_equal(arrs[0], want_data[i])
    # the device applied every envelope exactly once: one PONG per probe ever sent, one run per tensor
    assert st["pings"] == probes and st["inferences"] == len(want_data), err
    assert st["duplicates"] == 0 and st["tx_dropped"] == 0, err
    assert noise.corrupted > 0 and noise.dropped > 0 and st["bad_frames"] > 0
    print(f"lossy pty: {total} envelopes ({len(want_data)} of 16 KiB) exactly once; {noise.corrupted} bytes "
          f"corrupted, {noise.dropped} dropped; C retransmits {st['retransmits']}, bad frames {st['bad_frames']}")


def test_v2_only_hello_meets_the_v1_only_c_node(echo: tuple[Path, Path], tmp_path: Path) -> None:
    """Both ends report VersionMismatch; neither crashes; nothing passes."""
    from bb_edge.adapters.devices.serial_devices import PtyHostDevice
    from bb_edge.wire.link import LinkUp, VersionMismatch

    exe, prog = echo
    dev = PtyHostDevice(exe, prog, 5, epoch_file=tmp_path / "epoch", versions=(2, 2))
    dev._launch()
    dev.start_link()
    try:
        dev.pump_for(1.5)
        dev.send(b"\xbb\xe1" + b"\x00" * 62)  # queued, never sent: no session
        dev.pump_for(0.5)
        proc = dev.proc
        assert proc is not None and proc.poll() is None, "the C node died"
    finally:
        err = dev.stop()
    assert any(isinstance(e, VersionMismatch) for e in dev.link_events), dev.link_events
    assert not any(isinstance(e, LinkUp) for e in dev.link_events)
    st = c_stats(err)
    assert proc.returncode == 0, err
    assert st["VersionMismatch"] >= 1 and st["LinkUp"] == 0 and st["delivered"] == 0, err


# ------------------------------------------------------------ device reset (QEMU Cortex-M3)


def test_qemu_cortex_m3_reset_mid_stream(tmp_path: Path) -> None:
    """A QEMU Cortex-M3 node is SIGKILLed mid-stream and booted again on the same pty: it says HELLO
    with the next boot epoch (kept by the firmware through semihosting), its envelopes are fresh to
    the engine's duplicate filter, every later request completes and matches the float reference."""
    import shutil

    import numpy as np
    import onnxruntime as ort

    from bb_edge.adapters.devices.serial_devices import QemuDevice
    from bb_edge.bbrt.lower import lower
    from bb_edge.bbrt.native import cached_build
    from bb_edge.engine.dedup import DUPLICATE, SeqFilter
    from bb_edge.wire import Envelope, decode, encode
    from bb_edge.wire.link import PeerRestarted
    from tests.support.examples import sample_inputs, small_cnn

    assert shutil.which("qemu-system-arm"), "qemu-system-arm missing: bash .ci/test.sh installs it"
    model = small_cnn(size=8)
    low = lower(model, node_id=1, precision="int8", io_edges={"x": 1, "prob": 2},
                calib=sample_inputs(16, seed=7, size=8))
    prog = tmp_path / "program.bbrt"
    prog.write_bytes(low.blob)
    epoch_file = tmp_path / "epoch"
    ref = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    samples = sample_inputs(12, seed=99, size=8)
    seen = SeqFilter()  # the engine's duplicate filter, as the Python host applies it
    outputs: dict[int, np.ndarray] = {}
    late_dups: list[int] = []

    def collect(dev: QemuDevice, n: int, timeout: float, after_reset: bool) -> None:
        for raw in dev.wait_data(n, timeout):
            e = decode(raw)
            if seen.check(e.sender, e.seq) == DUPLICATE:
                if after_reset:
                    late_dups.append(e.request_id)
                continue
            seen.record(e.sender, e.seq)
            outputs[e.request_id] = np.asarray(e.array(), np.float32)

    dev = QemuDevice("cortex-m3", cached_build("cortex-m3") / "bbrt.elf", prog, 1, epoch_file=epoch_file,
                     own_pty=True)
    try:
        dev.start(30)
        epoch_before = int(epoch_file.read_text())
        for i in range(6):
            dev.send(encode(Envelope.for_array(samples[i]["x"], sender=0, receiver=1, seq=(3 << 32) | (i + 1),
                                               request_id=i, edge=1)))
        collect(dev, 3, 30, after_reset=False)
        dev.kill()  # mid-stream: requests 3..5 may be in flight or half done
        dev.restart(30)
        assert int(epoch_file.read_text()) == epoch_before + 1
        assert any(isinstance(e, PeerRestarted) for e in dev.link_events)
        later = list(range(6, 12))
        for i in later:
            dev.send(encode(Envelope.for_array(samples[i]["x"], sender=0, receiver=1, seq=(3 << 32) | (i + 1),
                                               request_id=i, edge=1)))
        deadline = time.monotonic() + 60
        while not set(later) <= set(outputs) and time.monotonic() < deadline:
            collect(dev, 1, 1.0, after_reset=True)
    finally:
        dev.stop()
    assert not late_dups, f"envelopes after the reset taken for duplicates: requests {late_dups}"
    assert set(later) <= set(outputs), f"missing after reset: {sorted(set(later) - set(outputs))}"
    for i, out in outputs.items():
        want = ref.run(None, samples[i])[0]
        assert np.abs(out - want).max() <= 0.05, f"request {i}: error {np.abs(out - want).max():.4f}"


# ------------------------------------------------------------ Python link <-> C link, simulated line


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_python_and_c_links_deliver_exactly_once_over_a_lossy_simulated_line(seed: int) -> None:
    """bb_edge.wire.link.Link and bbrt_link.c on one simulated line with a fake clock: 10% of frames
    lost, random delays (so frames also reorder), envelopes of 70 B..6 KB fragmented both ways over
    frames of at most 200 / 256 bytes, a reassembly budget of 8 KiB on the C side. Every envelope
    arrives exactly once on each side."""
    import random

    from bb_edge.wire.hello import HelloRecord
    from bb_edge.wire.link import EnvelopeReceived, Link, LinkConfig

    rnd = random.Random(seed)
    cfg_s = {"rto_initial": 0.05, "rto_min": 0.01, "rto_max": 0.2, "granularity": 0.001, "max_retries": 10000,
             "hb_interval": 0.1, "dead_after": 5.0, "reassembly_budget": 8192, "reassembly_timeout": 60.0}
    c_rec = HelloRecord(1, 1, 3, 9, 5, 256, 16, "c").encode()
    c = CLink(c_rec, cfg_s)
    py = Link(HelloRecord(1, 1, 3, 4, 0, 200, 32, "py"),
              LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=0.2, max_retries=10000, hb_interval=0.1,
                         dead_after=5.0))

    def env(i: int) -> bytes:
        n = rnd.choice([6, 100, 1000, 1500])
        return b"\xbb\xe1" + i.to_bytes(4, "little") + bytes(rnd.randrange(256) for _ in range(n * 4))

    to_c = [env(i) for i in range(60)]
    to_py = [env(1000 + i) for i in range(60)]
    line: list[tuple[int, str, bytes]] = []  # (arrival ms, to, body)
    got_c: list[bytes] = []
    got_py: list[bytes] = []
    backlog_c = list(to_py)  # the C end queues in its ring: retry while BUSY

    def carry(frames: list[str] | list[bytes], to: str, now: int) -> None:
        for f in frames:
            body = bytes.fromhex(f) if isinstance(f, str) else f
            if rnd.random() < 0.1:
                continue  # lost (or damaged: the CRC drops it)
            line.append((now + rnd.randint(1, 15), to, body))

    def c_step(op: str, now: int, data: bytes = b"") -> None:
        frames, events = c.step(op, now, data)
        got_c.extend(bytes.fromhex(e["envelope_hex"]) for e in events if e["event"] == "EnvelopeReceived")
        carry(frames, "py", now)

    now = 0
    c_step("start", now)
    py.start(now / 1000)
    for e in to_c:
        py.send(e, 0.0)
    carry(py.take_frames(), "c", now)
    while now < 120_000 and (len(got_c) < len(to_c) or len(got_py) < len(to_py)):
        now += 1
        due = [x for x in line if x[0] <= now]
        line[:] = [x for x in line if x[0] > now]
        for _, to, body in due:
            if to == "c":
                c_step("receive", now, body)
            else:
                py.receive(body, now / 1000)
        while backlog_c and c.lib.bbrtpy_link_send(backlog_c[0], len(backlog_c[0]), now) == 0:
            backlog_c.pop(0)
            c_step("poll", now)
        c_step("poll", now)
        py.poll(now / 1000)
        carry(py.take_frames(), "c", now)
        got_py.extend(e.envelope for e in py.take_events() if isinstance(e, EnvelopeReceived))
    assert sorted(got_c) == sorted(to_c) and len(got_c) == len(to_c), f"C got {len(got_c)}/{len(to_c)}"
    assert sorted(got_py) == sorted(to_py) and len(got_py) == len(to_py), f"Py got {len(got_py)}/{len(to_py)}"


def test_c_frame_size_adapts_down_on_a_noisy_line_and_back_up_on_a_clean_one() -> None:
    """The C end's DATA frame size (docs/wire.md "Frame size"): on a simulated line where each byte is
    corrupted with probability 0.2% (a frame of n framed bytes is lost with 1 - 0.998**n, as the CRC
    would drop it) it falls from the start size to 64-128 bytes, and every 1.5 KB envelope it sends
    still arrives exactly once; on a clean line it grows back to the cap (the Python peer's max_frame
    2048, under the build's BBRT_LINK_MTU)."""
    import random

    from bb_edge.wire.framing import frame
    from bb_edge.wire.hello import HelloRecord
    from bb_edge.wire.link import EnvelopeReceived, Link, LinkConfig

    rnd = random.Random(7)
    cfg_s = {"rto_initial": 0.05, "rto_min": 0.01, "rto_max": 0.2, "granularity": 0.001, "max_retries": 10000,
             "hb_interval": 0.1, "dead_after": 5.0, "reassembly_budget": 8192, "reassembly_timeout": 60.0}
    c = CLink(HelloRecord(1, 1, 3, 9, 5, 4096, 16, "c").encode(), cfg_s)
    py = Link(HelloRecord(1, 1, 3, 4, 0, 2048, 32, "py"),
              LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=0.2, max_retries=10000, hb_interval=0.1,
                         dead_after=5.0))
    p_byte = [0.002]
    line: list[tuple[int, str, bytes]] = []
    got: list[bytes] = []
    sizes: list[int] = []

    def carry(frames: list[str] | list[bytes], to: str, now: int) -> None:
        for f in frames:
            body = bytes.fromhex(f) if isinstance(f, str) else f
            if rnd.random() < 1.0 - (1.0 - p_byte[0]) ** len(frame(body)):
                continue  # a byte error: the receiver's CRC check drops the frame
            line.append((now + 2, to, body))

    def run(envs: list[bytes], start: int) -> int:
        now, backlog, want = start, list(envs), len(got) + len(envs)
        while now < start + 600_000 and len(got) < want:
            now += 1
            due = [x for x in line if x[0] <= now]
            line[:] = [x for x in line if x[0] > now]
            for _, to, body in due:
                if to == "c":
                    carry(c.step("receive", now, body)[0], "py", now)
                else:
                    py.receive(body, now / 1000)
            while backlog and c.lib.bbrtpy_link_send(backlog[0], len(backlog[0]), now) == 0:
                backlog.pop(0)
            carry(c.step("poll", now)[0], "py", now)
            py.poll(now / 1000)
            carry(py.take_frames(), "c", now)
            got.extend(e.envelope for e in py.take_events() if isinstance(e, EnvelopeReceived))
            sizes.append(c.frame_size())
        return now

    carry(c.step("start", 0)[0], "py", 0)
    py.start(0.0)
    carry(py.take_frames(), "c", 0)
    noisy = [b"\xbb\xe1" + i.to_bytes(4, "little") + bytes(rnd.randrange(256) for _ in range(1500)) for i in range(20)]
    now = run(noisy, 0)
    assert sorted(got) == sorted(noisy), f"{len(got)}/{len(noisy)} envelopes"
    assert sizes[0] in (0, 256) and 64 <= c.frame_size() <= 128 and min(s for s in sizes if s) == 64, sizes[-1]
    p_byte[0] = 0.0
    clean = [b"\xbb\xe1" + i.to_bytes(4, "little") + bytes(2000) for i in range(100, 160)]
    run(clean, now)
    assert sorted(got) == sorted(noisy + clean) and c.frame_size() == 2048


def test_karn_no_rtt_sample_from_a_retransmitted_frame() -> None:
    """A frame sent twice and then acknowledged gives the C link no RTT sample (Karn's rule)."""
    v = link_vectors()
    link = established(v)
    env = bytes.fromhex(v["valid"]["data_whole"]["envelope_hex"])
    link.step("send", 1000, env)
    link.step("poll", 1300)  # past the initial RTO (200 ms): sent again
    assert link.state()[9] == 0
    frames, events = link.step("receive", 1310, bytes.fromhex("bba103000100000000000000"))
    assert events == [] and link.state()[7] == 0  # acknowledged, released
    assert link.state()[9] == 0, "an RTT sample was taken from a retransmitted frame"
    assert link.state()[5] == 400, "the backed-off RTO stays until a valid sample"
    link.step("send", 2000, env)
    link.step("receive", 2030, bytes.fromhex("bba103000200000000000000"))
    assert link.state()[9] == 1 and link.state()[6] == 30  # a frame sent once: sample of 30 ms


def test_given_up_session_restarts_with_the_stored_epoch() -> None:
    """After max_retries the C link gives every envelope up and says HELLO with the next epoch; with an
    epoch source (the port's non-volatile counter) that epoch is the stored one, so a reboot later
    still comes back with a greater epoch than any the peer has seen."""
    v = link_vectors()
    cfg = dict(v["setup"]["config"], max_retries=2)
    link = CLink(hello_record(v["setup"]["local_hello"]), cfg)
    link.step("start", 0)
    link.step("receive", 0, bytes.fromhex(v["setup"]["peer_hello_hex"]))
    link.lib.bbrtpy_link_epoch_source.argtypes = [ctypes.c_uint32]
    link.lib.bbrtpy_link_epoch_source(77)
    link.step("send", 10, bytes.fromhex(v["valid"]["data_whole"]["envelope_hex"]))
    link.step("poll", 300)  # second transmission
    frames, events = link.step("poll", 1300)  # out of retries
    assert [e["event"] for e in events] == ["GaveUp"] and events[0]["code"] == "RETRIES"
    assert len(frames) == 1 and frames[0][:8] == "bba10100"  # a HELLO, no REPLY
    epoch = struct.unpack_from("<I", bytes.fromhex(frames[0]), 8 + 4)[0]
    assert epoch == 77, epoch
    assert link.state()[0] == 0  # no session until the peer answers


def test_qemu_cortex_m3_reset_inside_a_fleet(tmp_path: Path) -> None:
    """The same reset inside a fleet: Python n0 -> QEMU Cortex-M3 n1 -> Python n2 -> n3. Requests are
    in flight when n1 is SIGKILLed; after its new HELLO the Python engine behind it reports no
    DuplicateDropped and every later request completes within int8 tolerance of the float model."""
    import numpy as np
    import onnxruntime as ort

    from bb_edge.adapters.devices.serial_devices import QemuDevice
    from bb_edge.adapters.transports.inproc import InProcFleet
    from bb_edge.bundle.build import build_all
    from bb_edge.compiler.compile import compile_model
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.engine import events
    from tests.support.examples import sample_inputs, small_cnn

    d, dist = tmp_path / "dep", tmp_path / "dist"
    compile_model(small_cnn(), cuts=["p1", "r3", "g"], node_names=["n0", "n1", "n2", "n3"], out_dir=d)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in sample_inputs(16, seed=7)]))
    (res,) = build_all(d, ["n1=qemu-cortex-m3"], dist, calib=d / "calib.npz")
    dep = load_deployment(res.deployment_dir or d)
    ref = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    samples = sample_inputs(12, seed=99)
    dev = QemuDevice("cortex-m3", dist / "n1" / "bbrt.elf", dist / "n1" / "program.bbrt", dep.ids()["n1"],
                     epoch_file=tmp_path / "epoch", own_pty=True)
    with dev:
        fleet = InProcFleet(dep, external={"n1": dev})
        before = fleet.run(samples[:3], window=2)
        for k in (900, 901):  # in flight when the device dies (they may be lost with it)
            fleet.submit(k, samples[3 + k - 900])
        t0 = time.monotonic()
        while time.monotonic() - t0 < 0.3:
            fleet.step()
        dev.kill()
        dev.restart(30)
        mark = len(fleet.events)
        after = fleet.run(samples[5:], window=4)
        dups = [e for _, e in fleet.events[mark:] if isinstance(e, events.DuplicateDropped)]
        assert not dev.errors
    assert not dups, f"after the reset: {dups[:3]}"
    for s, out in zip(samples[:3] + samples[5:], before + after, strict=True):
        assert np.abs(out["prob"] - ref.run(None, s)[0]).max() <= 0.05


def _in_order(link: CLink, t_ms: int, body: bytes) -> list[str]:
    """One receive step of the C link: what it did, in order ("ACK", "DATA", "deliver", or an event name)."""
    link.lib.bbrtpy_link_receive(body, len(body), t_ms)
    n = link.lib.bbrtpy_link_out_len()
    raw = link.out.raw[:n]
    link.lib.bbrtpy_link_out(link.out, len(link.out))
    out, i = [], 0
    while i < len(raw):
        kind, ln = raw[i], struct.unpack_from("<I", raw, i + 1)[0]
        data = raw[i + 5:i + 5 + ln]
        i += 5 + ln
        if kind == 1:
            out.append({2: "DATA", 3: "ACK"}.get(data[2], "frame"))
        else:
            out.append("deliver" if kind == 2 else "event")
    return out


def test_c_acks_a_data_frame_before_handing_its_envelope_up() -> None:
    """The C end puts the ACK of a DATA frame out before it hands the envelope up (whole, or the last
    fragment of a message): a handler that computes for seconds (an MCU running a model) must not hold
    the ACK meanwhile, or the sender resends the frame while the node computes. link.py and the
    MicroPython port do the same; the frames out keep their order (ACK first)."""
    from bb_edge.wire.link import encode_data, encode_fragment

    v = link_vectors()
    link = established(v)
    env = bytes.fromhex(v["valid"]["data_whole"]["envelope_hex"])
    assert _in_order(link, 10, encode_data(1, env)) == ["ACK", "deliver"]
    big = env + bytes(range(200))
    assert _in_order(link, 20, encode_fragment(2, 1, 0, len(big), big[:150])) == ["ACK"]
    assert _in_order(link, 30, encode_fragment(3, 1, 150, len(big), big[150:])) == ["ACK", "deliver"]
    assert link.state()[2] == 3  # cum: all three frames taken


def test_c_resends_a_corrupted_frame_when_the_ack_shows_the_gap_not_by_its_timer() -> None:
    """Fast resend in the C link: it sends lseq 1..4 to a Python link, lseq 2 arrives corrupted (the
    Python deframer's CRC drops it), the Python end acks 1, 3 and 4 (cum 1, mask 0b11) and the C end
    resends lseq 2 in its answer to that ACK. The C end is never polled, so no timer of its can fire; every
    envelope arrives exactly once."""
    from bb_edge.wire.framing import FrameDecoder, frame
    from bb_edge.wire.hello import HelloRecord
    from bb_edge.wire.link import EnvelopeReceived, Link, LinkConfig

    cfg_s = {"rto_initial": 0.05, "rto_min": 0.01, "rto_max": 0.2, "granularity": 0.001, "max_retries": 100,
             "hb_interval": 0.0, "dead_after": 0.0, "reassembly_budget": 8192, "reassembly_timeout": 60.0}
    c = CLink(HelloRecord(1, 1, 3, 9, 5, 4096, 16, "c").encode(), cfg_s)
    py = Link(HelloRecord(1, 1, 3, 4, 0, 4096, 16, "py"),
              LinkConfig(rto_initial=0.05, rto_min=0.01, rto_max=0.2, hb_interval=0.0, dead_after=0.0))
    dec = FrameDecoder(8192)
    got: list[bytes] = []
    sent_lseq: list[int] = []

    def to_py(frames: list[str], now: int, hit: int = 0) -> None:
        for f in frames:
            body = bytes.fromhex(f)
            wire = bytearray(frame(body))
            if body[2] == 2:
                lseq = int.from_bytes(body[4:8], "little")
                sent_lseq.append(lseq)
                if lseq == hit:
                    wire[len(wire) // 2] ^= 0x5A  # a byte error mid-frame
            for out in dec.feed(bytes(wire)):
                py.receive(out, now / 1000)
        got.extend(e.envelope for e in py.take_events() if isinstance(e, EnvelopeReceived))

    def to_c(now: int) -> list[str]:
        frames: list[str] = []
        for body in py.take_frames():
            frames += c.step("receive", now, body)[0]
        return frames

    frames, _ = c.step("start", 0)
    py.start(0.0)
    to_py(frames, 0)
    to_py(to_c(0), 0)
    to_c(0)
    assert c.state()[0] == 1 and py.up
    envs = [b"\xbb\xe1" + bytes([i]) * 100 for i in range(1, 5)]
    frames = []
    for e in envs:
        frames += c.step("send", 1, e)[0]
    to_py(frames, 1, hit=2)
    assert dec.dropped == 1 and sorted(got) == sorted(envs[:1] + envs[2:])
    again = to_c(3)  # the ACK (cum 1, mask 0b11), 3 ms after the send: the RTO is 50 ms
    to_py(again, 4)
    assert sent_lseq == [1, 2, 3, 4, 2], sent_lseq
    assert sorted(got) == sorted(envs) and len(got) == 4
    to_c(5)
    assert c.state()[7] == 0  # nothing unacknowledged
