"""A C node resumes an interrupted program transfer over a serial line (docs/wire.md "Resumable transfer").

The posix C node (bbrt-host, ``--ota-state``: its boot record, transfer-progress record and program slots in
a file) runs on a real pty. A deploy is cut off after some chunks (the deployer's line closes: a killed
deployer), then either the node keeps running or it is killed (SIGKILL, a reboot), and ``bb-edge deploy``'s
serial path offers the same program again: the node answers RESUME at the byte it holds (every chunk it got
while it kept running; the last whole 4 KiB step written to its flash across a reboot), the deployer sends
only the rest (counted here), and the node switches to the new program (its HELLO hash is the image's
SHA-256, its answer equals the in-process C runtime on that program). A staged prefix corrupted in the
state file while the node is down is resumed, caught by the whole-image SHA-256 (NACK corrupt), never
run, and the next deploy starts over from byte 0 and succeeds. The QEMU Cortex-M3 node (its flash file through
semihosting) is cut off by a power cut (QEMU killed) mid-transfer and resumes from its flash after the boot.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.fleet.hostloop import sequence_base
from bb_edge.adapters.fleet.mqtt_fleet import stop_process
from bb_edge.adapters.ops.ota_deploy import Deploy, SerialTap, bbrt_bundles, deploy_over_serial, line_link, plan_update
from bb_edge.adapters.transports.serial_link import PtyPair, SerialSpec
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import HOST_NAME, load_deployment
from bb_edge.engine import ota
from bb_edge.wire import envelope as wire
from tests.support.ota_helpers import c_request, gemm_model, no_ed25519, over_the_line
from tests.support.fleet import reap_node

N = 96  # a 96x96 fp32 Gemm: a ~37 KB program, 10 chunks of 4,000 bytes on the line
STEP = 4096  # BBRT_OTA_RESUME_STEP: what a reboot keeps is whole steps


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three programs of one contract (seeds 0, 1, 2) built for ``n0=host``, all signed with the old key."""
    root = tmp_path_factory.mktemp("resume_c")
    out: dict[str, Path] = {}
    for tag, seed in (("old", 0), ("new", 1), ("new2", 2)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile_model(gemm_model(N, seed), nodes=1, out_dir=root / tag)
        build_all(root / tag, ["n0=host"], root / f"b-{tag}", options={"precision": "fp32"})
        out[tag], out[f"b-{tag}"] = root / tag, root / f"b-{tag}"
    key = (out["b-old"] / "n0" / "ota_hmac.key").read_text()
    for tag in ("new", "new2"):
        (out[f"b-{tag}"] / "n0" / "ota_hmac.key").write_text(key)
    return out


class _CutTap(SerialTap):
    """A deployer's line that carries only the first ``keep`` DATA chunks (then the deployer is cut off)."""

    def __init__(self, link: Any, keep: int) -> None:
        super().__init__(link)
        self.keep = keep
        self.chunks = 0
        self.data_sent = 0

    def send(self, peer: str, receiver: int, data: bytes) -> None:
        """Forward all but the DATA chunks past ``keep``."""
        env = wire.decode(data)
        if env.protocol == ota.PROTO_OTA and env.edge == ota.DATA:
            if self.chunks >= self.keep:
                return
            self.chunks += 1
            self.data_sent += len(env.payload_bytes()) - 8
        super().send(peer, receiver, data)


def _cut_deploy(line: str, cur: str, new: str, b_cur: Path, b_new: Path, keep: int) -> int:
    """Stage ``keep`` chunks of the new program, then close the line as a killed deployer would; bytes sent."""
    tap = _CutTap(line_link(SerialSpec.parse(f"serial:{line}"), name="deploy", node_id=0, node_name=HOST_NAME), keep)
    seq = [sequence_base()]  # as bb-edge deploy numbers its envelopes (fresh after any earlier deployer)

    def next_seq() -> int:
        seq[0] += 1
        return seq[0]

    tap.open()
    try:
        tap.peer_id(20)
        ups = plan_update(load_deployment(cur), load_deployment(new), no_ed25519, chunk=4000,
                          bundles=bbrt_bundles(b_new), current_bundles=bbrt_bundles(b_cur))
        d = Deploy(tap, load_deployment(cur).ids(), ups, next_seq, timeout_s=30, deployment=load_deployment(cur).name,
                   resume=True)
        d.start()
        deadline = time.monotonic() + 20
        while tap.data_sent < keep * 4000 and time.monotonic() < deadline:
            d.step()
            time.sleep(0.01)
        assert d.deployer.resumed == {"n0": 0}  # a fresh transfer: RESUME at 0
        assert tap.link.flush(20) == 0  # every kept chunk reached the node (link-layer acks)
        time.sleep(0.2)
        return tap.data_sent
    finally:
        tap.close()


def _start(builds: dict[str, Path], tmp: Path, pty: PtyPair) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sh", str(builds["b-old"] / "n0" / "run.sh"), "--epoch-file", str(tmp / "ep"),
                             "--ota-state", str(tmp / "state")],
                            stdin=pty.master, stdout=pty.master, stderr=subprocess.PIPE, start_new_session=True)


def _kill(node: subprocess.Popen[bytes]) -> None:
    """SIGKILL the node's process group (a power cut: nothing is flushed that was not already durable)."""
    os.killpg(node.pid, signal.SIGKILL)
    node.wait(10)


def _answer(builds: dict[str, Path], tag: str, line: str) -> None:
    """The node's answer to one request equals the in-process C runtime on program ``tag``."""
    from bb_edge.bbrt.format import RECV, parse
    from tests.support.transport_helpers import CNode

    blob = (builds[f"b-{tag}"] / "n0" / "program.bbrt").read_bytes()
    prog = parse(blob)
    request, want = c_request(blob)
    for attempt in range(3):  # a fresh line each time (the deployer's line just closed: its link may linger)
        try:
            got = over_the_line(line, request(((int(time.time()) + 10 + attempt) & 0x7FFFFFFF) << 32 | 1), 8.0)
            break
        except AssertionError:
            if attempt == 2:
                raise
    assert bytes(wire.decode(got[-1]).payload_bytes()) == want


def _image(builds: dict[str, Path], tag: str) -> bytes:
    return (builds[f"b-{tag}"] / "n0" / "program.bbrt").read_bytes()


def test_c_node_resumes_after_a_reboot_and_after_a_deployer_cut(builds: dict[str, Path], tmp_path: Path) -> None:
    """Reboot mid-transfer: the deploy resumes at the last whole step in flash. Deployer cut, node alive: the
    next deploy resumes at the exact byte. Each time the deployer sends only the rest, and the node runs it."""
    img = _image(builds, "new")
    assert len(img) > 4 * STEP
    pty = PtyPair.open()
    node = _start(builds, tmp_path, pty)
    try:
        sent = _cut_deploy(pty.slave_path, str(builds["old"]), str(builds["new"]), builds["b-old"], builds["b-new"],
                           keep=5)
        assert sent == 20000
        _kill(node)  # a reboot mid-transfer
        node = _start(builds, tmp_path, pty)
        report = deploy_over_serial(builds["new"], builds["old"], f"serial:{pty.slave_path}", no_ed25519,
                                    timeout_s=60, bundles=builds["b-new"], current_bundles=builds["b-old"])
        held = sent // STEP * STEP  # 16384: four whole steps were durable
        assert report.ok, report
        assert report.resumed == {"n0": held} and report.streamed == {"n0": len(img) - held}, report
        assert report.switched["n0"] == hashlib.sha256(img).hexdigest()
        _answer(builds, "new", pty.slave_path)

        # the deployer is cut off, the node keeps running: it holds every chunk it got
        img2 = _image(builds, "new2")
        sent = _cut_deploy(pty.slave_path, str(builds["new"]), str(builds["new2"]), builds["b-new"],
                           builds["b-new2"], keep=3)
        report = deploy_over_serial(builds["new2"], builds["new"], f"serial:{pty.slave_path}", no_ed25519,
                                    timeout_s=60, bundles=builds["b-new2"], current_bundles=builds["b-new"])
        assert report.ok, report
        assert report.resumed == {"n0": sent} and report.streamed == {"n0": len(img2) - sent}, report
        assert report.switched["n0"] == hashlib.sha256(img2).hexdigest()
        _answer(builds, "new2", pty.slave_path)
    finally:
        pty.close()
        reap_node(node)


def test_corrupted_staged_prefix_is_caught_by_the_image_hash(builds: dict[str, Path], tmp_path: Path) -> None:
    """A byte of the staged prefix flipped in the node's flash while it is down: the transfer resumes, the
    whole-image SHA-256 refuses it (corrupt), the node keeps its old program; the next deploy starts at 0."""
    img = _image(builds, "new")
    pty = PtyPair.open()
    node = _start(builds, tmp_path, pty)
    try:
        _cut_deploy(pty.slave_path, str(builds["old"]), str(builds["new"]), builds["b-old"], builds["b-new"], keep=5)
        _kill(node)
        state = bytearray((tmp_path / "state").read_bytes())
        assert state[4096 + 100:4096 + 164] == img[100:164]  # flash slot 1 (the factory program runs) holds it
        state[4096 + 100] ^= 0x40
        (tmp_path / "state").write_bytes(bytes(state))
        node = _start(builds, tmp_path, pty)
        report = deploy_over_serial(builds["new"], builds["old"], f"serial:{pty.slave_path}", no_ed25519,
                                    timeout_s=60, bundles=builds["b-new"], current_bundles=builds["b-old"])
        assert report.state == "failed" and report.failures["n0"].startswith("corrupt"), report
        assert report.resumed == {"n0": 16384}, report
        _answer(builds, "old", pty.slave_path)  # never ran the corrupted image: the old program answers
        report = deploy_over_serial(builds["new"], builds["old"], f"serial:{pty.slave_path}", no_ed25519,
                                    timeout_s=60, bundles=builds["b-new"], current_bundles=builds["b-old"])
        assert report.ok and report.resumed == {} and report.streamed == {"n0": len(img)}, report
        _answer(builds, "new", pty.slave_path)
    finally:
        pty.close()
        reap_node(node)


def test_qemu_cortex_m3_node_resumes_after_a_power_cut(tmp_path: Path) -> None:
    """The QEMU Cortex-M3 node (its flash image file through semihosting) is killed after ~9 KB of chunks (its
    64 KiB of RAM hold four program sizes: a 48x48 Gemm, ~10 KB); booted again from the same flash
    file, the next deploy over its UART resumes at byte 8192 (two whole steps) and it switches to the new
    program."""
    from bb_edge.adapters.transports.serial_link import FdPort, SerialLink
    from bb_edge.bbrt.qemu import qemu_command

    b: dict[str, Path] = {}
    for tag, seed in (("old", 0), ("new", 1)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile_model(gemm_model(48, seed), nodes=1, out_dir=tmp_path / tag)
        b[tag] = tmp_path / f"m3-{tag}"
        build_all(tmp_path / tag, ["n0=qemu-cortex-m3"], b[tag], options={"precision": "fp32", "ota": True})
    (b["new"] / "n0" / "ota_hmac.key").write_text((b["old"] / "n0" / "ota_hmac.key").read_text())
    img = (b["new"] / "n0" / "program.bbrt").read_bytes()
    pty = PtyPair.open()
    cmd = qemu_command("cortex-m3", b["old"] / "n0" / "bbrt.elf", b["old"] / "n0" / "program.bbrt", tmp_path / "ep",
                       tmp_path / "flash")
    cmd[cmd.index("-serial") + 1] = pty.slave_path

    def boot() -> subprocess.Popen[bytes]:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    qemu = boot()
    tap = _CutTap(SerialLink(FdPort(pty.master), name="deploy", node_id=0, node_name=HOST_NAME), keep=0)
    tap.open()
    seq = [sequence_base()]

    def next_seq() -> int:
        seq[0] += 1
        return seq[0]

    cur, new = load_deployment(tmp_path / "old"), load_deployment(tmp_path / "new")
    try:
        tap.peer_id(60)
        ups = plan_update(cur, new, no_ed25519, chunk=1000, bundles=bbrt_bundles(b["new"]),
                          current_bundles=bbrt_bundles(b["old"]))
        tap.keep = 9000 // ups[0].chunk + 1  # DATA envelopes fit the MCU's payload limit: ~9 KB of small chunks
        d = Deploy(tap, cur.ids(), ups, next_seq, timeout_s=60, deployment=cur.name, resume=True)
        d.start()
        deadline = time.monotonic() + 30
        while tap.chunks < tap.keep and time.monotonic() < deadline:
            d.step()
            time.sleep(0.01)
        assert d.deployer.resumed == {"n0": 0}
        assert tap.link.flush(30) == 0 and tap.data_sent > 2 * STEP
        time.sleep(0.5)
        before = tap.link.link.peer.boot_epoch
        stop_process(qemu, timeout=5)  # the power cut
        qemu = boot()
        deadline = time.monotonic() + 60
        while tap.link.link.peer.boot_epoch == before:  # its link HELLO after the boot (a new boot epoch)
            assert time.monotonic() < deadline, "no HELLO from the rebooted QEMU node"
            time.sleep(0.05)
        tap.keep = 1 << 30
        report = Deploy(tap, cur.ids(), ups, next_seq, timeout_s=60, deployment=cur.name, resume=True).run()
        assert report.ok, report
        assert report.resumed == {"n0": 8192} and report.streamed == {"n0": len(img) - 8192}, report
        assert report.switched["n0"] == hashlib.sha256(img).hexdigest()
    finally:
        tap.close()
        stop_process(qemu, timeout=10)
        os.close(pty.slave)
