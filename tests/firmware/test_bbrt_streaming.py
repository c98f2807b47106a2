"""Streaming receive on the C node (issue 16, item 2): a fragmented data envelope is validated from its
header fragment and its payload written straight into the edge's arena slot, fragment by fragment; the
whole envelope is never staged. Also the C link's fast-resend timer, which doubles with each fast
resend in a row exactly as the Python link's does.

- a QEMU Cortex-M3 node whose receive buffer (one link frame) is smaller than its input edge serves
  it bit-exact; the buffer sizes come from the ELF's symbol table and the frame size from its HELLO;
- a hostile line to the posix node: a fragmented envelope whose last fragment never arrives (it times
  out), one refused at its header (unknown edge) and one with a corrupted fragment; the node keeps
  serving, never runs the half-written request, and the next request on that edge is bit-exact;
- the C and Python links resend a loss-detected frame at the same milliseconds.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from tests.support.c_link import CLink, c_stats, echo_program, hello_record, link_vectors

QEMU_N = 1000  # float32 elements: a 4,000-byte input edge, ten times the MCU node's receive buffer


def elf_symbol_sizes(elf: Path, names: set[str]) -> dict[str, int]:
    """Sizes of the named (static) data symbols of an ARM ELF, from its symbol table."""
    out = subprocess.run(["arm-none-eabi-nm", "-S", str(elf)], capture_output=True, text=True, check=True).stdout
    sizes: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] in names:
            sizes[parts[3]] = int(parts[1], 16)
    return sizes


def test_qemu_node_receive_buffer_is_smaller_than_its_edge_and_outputs_are_bit_exact(tmp_path: Path) -> None:
    """The Cortex-M3 node's receive buffer is smaller than the 4,000-byte input edge it serves and it
    has no staging buffer; the node announces one such frame in its HELLO, so the host fragments every
    request, and each answer equals numpy's relu bit for bit."""
    from bb_edge.adapters.devices.serial_devices import QemuDevice
    from bb_edge.bbrt.native import cached_build
    from bb_edge.wire import Envelope, decode, encode

    assert shutil.which("qemu-system-arm"), "qemu-system-arm missing: bash .ci/test.sh installs it"
    elf = cached_build("cortex-m3") / "bbrt.elf"
    sizes = elf_symbol_sizes(elf, {"rxbuf", "rasm", "txbuf"})
    edge_bytes = 4 * QEMU_N
    # one link frame to receive into, and no staging area at all in a build without updates
    assert sizes["rxbuf"] < edge_bytes and "rasm" not in sizes, sizes
    prog = tmp_path / "echo.bbrt"
    prog.write_bytes(echo_program(1, QEMU_N))
    rng = np.random.default_rng(16)
    xs = {i: rng.standard_normal((1, QEMU_N)).astype(np.float32) for i in range(1, 4)}
    dev = QemuDevice("cortex-m3", elf, prog, 1, epoch_file=tmp_path / "epoch", own_pty=True)
    try:
        dev.start(60)
        assert dev.link is not None and dev.link.peer is not None
        frame = dev.link.peer.max_frame
        # the frame the node takes is what its receive buffer holds (body + CRC), not the edge
        assert frame + 4 <= sizes["rxbuf"] and frame < edge_bytes, (frame, sizes)
        for i, x in xs.items():
            dev.send(encode(Envelope.for_array(x, sender=0, receiver=1, seq=(2 << 32) | i, request_id=i, edge=1)))
        got = dev.wait_data(len(xs), 60)
        frames_out = dev.link.counters.data_out
    finally:
        dev.stop()
    outs = {decode(e).request_id: decode(e).array() for e in got}
    assert sorted(outs) == sorted(xs)
    for i, x in xs.items():
        np.testing.assert_array_equal(outs[i], np.maximum(x, 0))
    assert frames_out >= len(xs) * (edge_bytes // frame), "the requests were not fragmented"


# ------------------------------------------------------------ hostile line to the posix node


class FrameFilter:
    """What the host writes to the node, frame by frame: drop or damage chosen fragments. Fragments are
    told by their header (offset, total length) and content, not by a fixed chunk size: the link cuts
    its frames at an adaptive size, so the fragments of one envelope may differ in size."""

    def __init__(self) -> None:
        self.drop_tail: set[bytes] = set()  # envelopes whose last fragment is never delivered
        self.damage_once: set[bytes] = set()  # envelopes whose second fragment is damaged once
        self.dropped = self.damaged = 0

    def apply(self, data: bytes) -> bytes:
        from bb_edge.wire.framing import cobs_decode_py

        out = bytearray()
        for raw in data.split(b"\x00"):
            if not raw:
                continue
            body = cobs_decode_py(raw)[:-4]  # frame body without its CRC
            frag = len(body) > 20 and body[2] == 2 and body[3] & 1
            chunk = body[20:] if frag else b""
            offset = int.from_bytes(body[12:16], "little") if frag else 0
            total = int.from_bytes(body[16:20], "little") if frag else 0

            mine = [e for e in self.drop_tail | self.damage_once
                    if total == len(e) and e[offset:offset + len(chunk)] == chunk]
            if any(e in self.drop_tail and offset + len(chunk) == total for e in mine):
                self.dropped += 1
                continue
            enc = bytearray(raw + b"\x00")
            hit = [e for e in mine if e in self.damage_once and offset > 0]
            if hit:
                self.damage_once.discard(hit[0])
                self.damaged += 1
                mid = len(enc) // 2
                enc[mid] = enc[mid] ^ 0x55 or 0x01  # never a zero byte: the frame stays one frame
            out += enc
        return bytes(out)


def test_truncated_refused_and_corrupt_fragmented_messages_leave_the_node_serving(tmp_path: Path) -> None:
    """16 KiB requests in fragments (cut at the adaptive frame size) to the posix node: one refused at
    its header fragment (an unknown edge: acked, counted, dropped), one whose last fragment never arrives (the node's
    reassembly timer drops it; the host link gives up), then a request with the same request id whose
    second fragment is damaged once. Only that last request runs, once, bit-exact."""
    from bb_edge.adapters.devices.serial_devices import PtyHostDevice
    from bb_edge.bbrt.native import host_executable
    from bb_edge.wire import Envelope, decode, encode
    from bb_edge.wire.link import GaveUp, LinkConfig

    n = 4096
    prog = tmp_path / "echo.bbrt"
    prog.write_bytes(echo_program(5, n))
    filt = FrameFilter()

    class Hostile(PtyHostDevice):
        def write(self, data: bytes) -> None:
            super().write(filt.apply(data))

    cfg = LinkConfig(rto_initial=0.02, rto_min=0.005, rto_max=0.05, max_retries=25, hb_interval=0.1,
                     dead_after=10.0)
    dev = Hostile(host_executable(), prog, 5, epoch_file=tmp_path / "epoch", config=cfg,
                  c_timers=(20, 5, 50, 1000, 100, 10000, 300))
    rng = np.random.default_rng(9)
    x_bad, x_cut, x_ok = (rng.standard_normal((1, n)).astype(np.float32) for _ in range(3))

    def env(x: Any, seq: int, edge: int = 1) -> bytes:
        return encode(Envelope.for_array(x, sender=0, receiver=5, seq=(4 << 32) | seq, request_id=7, edge=edge))

    outs: list[bytes] = []
    try:
        dev.start(20)
        assert dev.link is not None and dev.link.peer is not None
        chunk = dev.link.peer.max_frame - 20
        assert chunk < len(env(x_ok, 1)) // 3, "not fragmented"
        dev.send(env(x_bad, 1, edge=9))  # refused at its header: no such edge
        dev.pump_for(0.5)
        cut = env(x_cut, 2)
        filt.drop_tail.add(cut)  # its last fragment, forever
        dev.send(cut)
        deadline = time.monotonic() + 30
        while not any(isinstance(e, GaveUp) for e in dev.link_events) and time.monotonic() < deadline:
            dev._pump(0.05)
            outs += dev.receive()
        assert any(isinstance(e, GaveUp) for e in dev.link_events), "the host link never gave the cut message up"
        dev.wait_link(20)
        ok = env(x_ok, 3)
        filt.damage_once.add(ok)  # its second fragment fails the CRC once
        dev.send(ok)
        outs += dev.wait_data(1, 30)
        dev.pump_for(0.5)
        outs += dev.receive()
    finally:
        err = dev.stop()
    st = c_stats(err)
    assert filt.dropped >= 1 and filt.damaged == 1
    assert len(outs) == 1, f"{len(outs)} outputs: the cut or refused request ran; {err}"
    np.testing.assert_array_equal(decode(outs[0]).array(), np.maximum(x_ok, 0))
    assert st["inferences"] == 1 and st["unknown_edge"] == 1, err
    assert st["bad_frames"] >= 1, err
    assert st["ReassemblyTimeout"] == 1, err  # the cut message was dropped by the node's own timer


def test_rest_of_a_timed_out_message_is_taken_and_dropped_not_refused_forever(tmp_path: Path) -> None:
    """A slow line: a 16 KiB request's head reaches the posix node, the rest is held back past the node's
    reassembly timeout (300 ms) and then arrives. The node acknowledges and drops the rest (it never runs
    the half-received request) instead of refusing it forever, which pinned the window until the host
    link gave the whole session up; the host link gives nothing up and the next request runs once."""
    from bb_edge.adapters.devices.serial_devices import PtyHostDevice
    from bb_edge.bbrt.native import host_executable
    from bb_edge.wire import Envelope, decode, encode
    from bb_edge.wire.framing import cobs_decode_py
    from bb_edge.wire.link import GaveUp, LinkConfig

    n = 4096
    prog = tmp_path / "echo.bbrt"
    prog.write_bytes(echo_program(5, n))
    held: list[bytes] = []
    hold = {"total": 0, "until": 0.0}

    class Slow(PtyHostDevice):
        def write(self, data: bytes) -> None:
            out = bytearray()
            for raw in data.split(b"\x00"):
                if not raw:
                    continue
                body = cobs_decode_py(raw)[:-4]
                frag = len(body) > 20 and body[2] == 2 and body[3] & 1
                if frag and int.from_bytes(body[16:20], "little") == hold["total"] \
                        and int.from_bytes(body[12:16], "little") > 0 and time.monotonic() < hold["until"]:
                    held.append(raw + b"\x00")  # the rest of the held message waits in the "line"
                    continue
                if held and time.monotonic() >= hold["until"]:
                    out += b"".join(held)
                    held.clear()
                out += raw + b"\x00"
            if out:
                super().write(bytes(out))

    cfg = LinkConfig(rto_initial=0.02, rto_min=0.005, rto_max=0.05, max_retries=40, hb_interval=0.1,
                     dead_after=10.0)
    dev = Slow(host_executable(), prog, 5, epoch_file=tmp_path / "epoch", config=cfg,
               c_timers=(20, 5, 50, 1000, 100, 10000, 300))
    rng = np.random.default_rng(11)
    x_slow, x_ok = (rng.standard_normal((1, n)).astype(np.float32) for _ in range(2))

    def env(x: Any, seq: int) -> bytes:
        return encode(Envelope.for_array(x, sender=0, receiver=5, seq=(4 << 32) | seq, request_id=seq, edge=1))

    outs: list[bytes] = []
    try:
        dev.start(20)
        assert dev.link is not None and dev.link.peer is not None
        slow = env(x_slow, 1)
        assert dev.link.peer.max_frame - 20 < len(slow) // 3, "not fragmented"
        hold["total"], hold["until"] = len(slow), time.monotonic() + 0.8
        dev.send(slow)
        end = time.monotonic() + 4
        while (dev.link.unacked or time.monotonic() < hold["until"] + 0.2) and time.monotonic() < end:
            dev._pump(0.02)
            if held and time.monotonic() >= hold["until"]:
                dev.write(b"")  # release what the line held
            outs += dev.receive()
        assert held == [] and dev.link.unacked == 0, "the rest of the timed-out message was never taken"
        dev.send(env(x_ok, 2))
        outs += dev.wait_data(1, 20)
        dev.pump_for(0.3)
        outs += dev.receive()
        gave_up = [e for e in dev.link_events if isinstance(e, GaveUp)]
    finally:
        err = dev.stop()
    st = c_stats(err)
    assert not gave_up, f"the host link gave up {len(gave_up)} envelopes: the node refused the rest forever"
    assert st["ReassemblyTimeout"] == 1, err  # the head was dropped by the node's own timer
    assert [decode(e).request_id for e in outs] == [2] and st["inferences"] == 1, err
    np.testing.assert_array_equal(decode(outs[0]).array(), np.maximum(x_ok, 0))


# ------------------------------------------------------------ fast-resend timer, C vs Python


def test_c_fast_resend_timer_doubles_like_the_python_link() -> None:
    """One scripted line for both ends: an RTT sample of 30 ms, then frames 2..4 sent and only 3 and 4
    acknowledged. Frame 2 is resent at once (loss detected) on a 2 SRTT timer that doubles with each
    fast resend in a row, up to the RTO. Both ends resend it at the same milliseconds."""
    from bb_edge.wire.hello import HelloRecord
    from bb_edge.wire.link import Link, LinkConfig

    v = link_vectors()
    setup = v["setup"]
    cfg = setup["config"]
    env = bytes.fromhex(v["valid"]["data_whole"]["envelope_hex"])
    peer_hello = bytes.fromhex(setup["peer_hello_hex"])
    ack = lambda cum, mask: bytes.fromhex("bba10300") + cum.to_bytes(4, "little") + mask.to_bytes(4, "little")  # noqa: E731
    script: list[tuple[int, str, bytes]] = [
        (0, "start", b""), (0, "receive", peer_hello), (1000, "send", env), (1030, "receive", ack(1, 0)),
        (2000, "send", env), (2000, "send", env), (2000, "send", env), (2010, "receive", ack(1, 0b110)),
    ]

    def resends_c() -> list[tuple[int, int]]:
        c = CLink(hello_record(setup["local_hello"]), cfg)
        sent: list[tuple[int, int]] = []
        steps = [(t, op, d) for t, op, d in script] + [(t, "poll", b"") for t in range(2011, 2500)]
        for t, op, d in steps:
            frames, _ = c.step(op, t, d)
            sent += [(t, int.from_bytes(bytes.fromhex(f)[4:8], "little")) for f in frames
                     if bytes.fromhex(f)[2] == 2]
        return sent

    def resends_py() -> list[tuple[int, int]]:
        h = setup["local_hello"]
        py = Link(HelloRecord(h["min_version"], h["max_version"], h["caps"], h["boot_epoch"], h["node_id"],
                              h["max_frame"], h["window"], h["name"]),
                  LinkConfig(rto_initial=cfg["rto_initial"], rto_min=cfg["rto_min"], rto_max=cfg["rto_max"],
                             granularity=cfg["granularity"], max_retries=int(cfg["max_retries"]),
                             hb_interval=cfg["hb_interval"], dead_after=cfg["dead_after"],
                             reassembly_timeout=cfg["reassembly_timeout"]))
        sent: list[tuple[int, int]] = []
        steps = [(t, op, d) for t, op, d in script] + [(t, "poll", b"") for t in range(2011, 2500)]
        for t, op, d in steps:
            now = (t + 0.5) / 1000  # half a ms late: float deadlines never straddle a poll
            if op == "start":
                py.start(now)
            elif op == "receive":
                py.receive(d, now)
            elif op == "send":
                py.send(d, now)
            else:
                py.poll(now)
            sent += [(t, int.from_bytes(f[4:8], "little")) for f in py.take_frames() if f[2] == 2]
        return sent

    c, py = resends_c(), resends_py()
    assert c == py, f"C {c}\nPy {py}"
    again = [t for t, lseq in c if lseq == 2 and t > 2000]
    gaps = [b - a for a, b in zip(again, again[1:])]
    # the rule worked by hand: samples of 30 and 10 ms give SRTT 27.5 (RFC 6298), so 2 SRTT = 55 ms;
    # RTTVAR 0.75 * 15 + 0.25 * |30 - 10| = 16.25, RTO 27.5 + 65 = 92.5 (93 in whole ms): the doubled
    # 110 ms is capped there (a flat timer would resend every 55 ms)
    assert again[0] == 2010 and gaps[0] == 55, again
    assert set(gaps[1:]) == {93}, gaps
