"""Weights-only updates as per-tensor deltas (bb_edge/engine/ota/delta.py, OFFER_DELTA in engine/ota/node.py).

Real components: ONNX programs compiled by bb_edge, a real engine with the OTA handler and ONNX Runtime,
the real deployer. Oracles: SHA-256 of the new program (the node must run exactly it) and ORT outputs.
"""

from __future__ import annotations

import warnings

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.compiler import compile_model
from bb_edge.engine import events as ev
from bb_edge.engine import ota
from bb_edge.engine.ota.delta import DeltaError, apply_delta, make_delta
from bb_edge.wire import envelope as wire
from tests.support.ota_helpers import KEY, Harness, model_hash


def mlp(seed: int, hidden: int = 256) -> onnx.ModelProto:
    """x[1,256] -> Gemm(256x256) -> Relu -> Gemm(256x10): 270 KB of float32 weights, 10 KB in the last layer."""
    rng = np.random.default_rng(seed)
    w1 = rng.standard_normal((256, hidden)).astype(np.float32) * 0.05
    b1 = rng.standard_normal(hidden).astype(np.float32) * 0.05
    w2 = rng.standard_normal((hidden, 10)).astype(np.float32) * 0.05
    b2 = rng.standard_normal(10).astype(np.float32) * 0.05
    g = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"]), helper.make_node("Relu", ["h"], ["r"]),
         helper.make_node("Gemm", ["r", "w2", "b2"], ["y"])], "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 256])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
        [numpy_helper.from_array(a, n) for a, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"))])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def fine_tuned(model: onnx.ModelProto, seed: int = 1) -> onnx.ModelProto:
    """The same model with its last layer (w2, b2) retrained: new values, same names and shapes."""
    rng = np.random.default_rng(seed)
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for init in m.graph.initializer:
        if init.name in ("w2", "b2"):
            a = numpy_helper.to_array(init)
            init.CopyFrom(numpy_helper.from_array((a + rng.standard_normal(a.shape) * 0.01).astype(np.float32),
                                                  init.name))
    return m


@pytest.fixture(scope="module")
def programs() -> dict[str, object]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        base = mlp(0)
        dep, old = compile_model(base, nodes=1)
        _, new = compile_model(fine_tuned(base), nodes=1)
        _, other = compile_model(fine_tuned(base, seed=2), nodes=1)
    n = dep.node_names[0]
    return {"dep": dep, "node": n, "old": old, "new": new, "other": other}


def _update(p: dict, delta: bytes, image: bytes, base: bytes, chunk: int = 1024) -> ota.NodeUpdate:
    u = ota.NodeUpdate(p["node"], image, ota.TARGET_ONNX, ota.ed25519_signer(KEY), chunk=chunk)
    u.delta, u.base = delta, base
    return u


def _deploy(h: Harness, u: ota.NodeUpdate, drop: int | None = None) -> ota.OtaDeployer:
    d = ota.OtaDeployer(h.dep.ids(), [u], h.next_seq, 5)
    out = d.start(h.now)
    if drop is not None:  # lose one DATA chunk: a transfer gap
        datas = [i for i, o in enumerate(out) if wire.decode(o.data, max_payload=len(o.data)).edge == ota.DATA]
        out.pop(datas[drop])
    h.send(out)
    h.pump(d, rounds=8)
    return d


def test_last_layer_fine_tune_ships_a_tenth_of_the_program(programs) -> None:  # type: ignore[no-untyped-def]
    """The delta of a last-layer fine-tune is <= 0.1 of the full program; the node rebuilds it, checks the
    signed full-image hash, switches, and computes ORT's output of the fine-tuned model."""
    from tests.support.models import monolithic

    n = programs["node"]
    old_image = programs["old"][n].SerializeToString()
    new_image = programs["new"][n].SerializeToString()
    made = make_delta(old_image, new_image)
    assert made is not None
    delta, rebuilt, base = made
    assert onnx.load_from_string(rebuilt) == programs["new"][n]
    ratio = len(delta) / len(new_image)
    assert ratio <= 0.1, ratio
    h = Harness(programs["dep"], programs["old"], n)
    d = _deploy(h, _update(programs, delta, rebuilt, base))
    assert d.state == "done", d.failures
    assert h.engine.program_hash == model_hash(programs["new"][n])
    x = {"x": np.random.default_rng(3).standard_normal((1, 256)).astype(np.float32)}
    got: dict[str, np.ndarray] = {}
    h.engine.subscribe(lambda e: got.update({e.name: e.value}), ev.OutputReady)
    h.engine.submit(10**6, x)
    h.pump(rounds=3)
    np.testing.assert_allclose(got["y"], monolithic(fine_tuned(mlp(0)), x)["y"], rtol=1e-5, atol=1e-6)


def test_delta_refusals_are_typed(programs) -> None:  # type: ignore[no-untyped-def]
    """A delta against a program the node does not run: bad_delta_base. A delta that applies but does not
    rebuild the signed image: delta_mismatch. A lost chunk: truncated (a transfer gap). Each time the node
    keeps its program."""
    n = programs["node"]
    old_image = programs["old"][n].SerializeToString()
    new_image = programs["new"][n].SerializeToString()
    other_image = programs["other"][n].SerializeToString()
    delta, rebuilt, base = make_delta(old_image, new_image)  # type: ignore[misc]
    old_hash = model_hash(programs["old"][n])
    # the node runs "other": the delta's base is not its program
    h = Harness(programs["dep"], programs["other"], n)
    d = _deploy(h, _update(programs, delta, rebuilt, base))
    assert d.state == "failed" and d.failures[n][0] == ota.BAD_DELTA_BASE, d.failures
    assert h.engine.program_hash == model_hash(programs["other"][n])
    # a delta to "other" offered as the signed "new" image
    wrong, _, _ = make_delta(old_image, other_image)  # type: ignore[misc]
    h = Harness(programs["dep"], programs["old"], n)
    d = _deploy(h, _update(programs, wrong, rebuilt, base))
    assert d.state == "failed" and d.failures[n][0] == ota.DELTA_MISMATCH, d.failures
    assert h.engine.program_hash == old_hash
    # a gap in the delta's chunks
    h = Harness(programs["dep"], programs["old"], n)
    d = _deploy(h, _update(programs, delta, rebuilt, base, chunk=256), drop=1)
    assert d.state == "failed" and d.failures[n][0] == ota.TRUNCATED, d.failures
    assert h.engine.program_hash == old_hash


@pytest.mark.parametrize("cut", ["magic", "name", "tail", "codec"])
def test_malformed_deltas_raise_delta_error(programs, cut: str) -> None:  # type: ignore[no-untyped-def]
    n = programs["node"]
    delta, _, _ = make_delta(programs["old"][n].SerializeToString(),  # type: ignore[misc]
                             programs["new"][n].SerializeToString())
    bad = {"magic": b"XXXX" + delta[4:], "name": delta[:8] + b"\xff" + delta[9:], "tail": delta + b"\0",
           "codec": delta[:6 + 2 + 2] + b"\x09" + delta[11:]}[cut]
    with pytest.raises(DeltaError):
        apply_delta(programs["old"][n], bad, 1 << 20)


def test_a_graph_change_is_not_a_delta(programs) -> None:  # type: ignore[no-untyped-def]
    n = programs["node"]
    changed = onnx.ModelProto()
    changed.CopyFrom(programs["new"][n])
    changed.graph.node[0].name = "renamed"
    assert make_delta(programs["old"][n].SerializeToString(), changed.SerializeToString()) is None


def test_an_interrupted_transfer_resumes_where_the_node_stands(programs) -> None:  # type: ignore[no-untyped-def]
    """A deployer dies after half the chunks reached the node. A new deploy of the same program (a new update
    id and version, as a restarted `bb-edge deploy` makes) is answered RESUME at the bytes the node holds and
    sends only the rest; the node verifies the whole image against the new signed manifest and switches."""
    n = programs["node"]
    image = programs["new"][n].SerializeToString()
    h = Harness(programs["dep"], programs["old"], n)
    upd = ota.NodeUpdate(n, image, ota.TARGET_ONNX, ota.ed25519_signer(KEY), chunk=4096)
    d1 = ota.OtaDeployer(h.dep.ids(), [upd], h.next_seq, 1, resume=True, version=1)
    h.send(d1.start(h.now))
    h.now += 0.01
    for out in h.engine.poll(h.now):  # RESUME 0: d1 streams every chunk, and its process dies after half arrived
        d1.on_envelope(wire.decode(out.data, max_payload=len(out.data)))
    chunks = d1.take()
    assert d1.resumed == {n: 0} and len(chunks) > 4
    half = len(chunks) // 2
    h.send(chunks[:half])
    d2 = ota.OtaDeployer(h.dep.ids(), [upd], h.next_seq, 2, resume=True, version=2)
    h.send(d2.start(h.now))
    h.pump(d2, rounds=8)
    assert d2.state == "done", d2.failures
    assert d2.resumed == {n: half * 4096} and d2.streamed[n] == len(image) - half * 4096
    assert h.engine.program_hash == model_hash(programs["new"][n])


def test_cli_deploy_resumes_a_transfer_cut_off_over_mosquitto(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Over a real broker: a deployer (``_deploy``) offers a node a 270 KB program, sends half its chunks and
    disconnects. ``bb-edge deploy`` of the same program is answered RESUME at the bytes the node holds, says
    so, sends the rest and exits 0; the node then computes ORT's output of the new model."""
    import os
    import shutil
    import subprocess
    import sys
    import time
    from pathlib import Path

    from bb_edge.adapters.fleet.hostloop import sequence_base
    from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.adapters.ops.ota_deploy import OtaTap, plan_update
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport
    from bb_edge.deployment.manifest import DEPLOY_ID, DEPLOY_NAME, load_deployment
    from tests.support.models import monolithic

    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile_model(mlp(0), nodes=1, out_dir=old_dir)
        compile_model(mlp(5), nodes=1, out_dir=new_dir)
    cli = [sys.executable, "-m", "bb_edge.cli"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    out = subprocess.run([*cli, "keygen", "-o", str(tmp_path / "keys"), "--deployment", str(old_dir)],
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    shutil.copy(old_dir / "deployment.json", new_dir / "deployment.json")
    dep, new = load_deployment(old_dir), load_deployment(new_dir)
    key_file = tmp_path / "keys" / "ota_ed25519.key"
    signer = ota.ed25519_signer(bytes.fromhex(key_file.read_text().strip()))
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    url = files.url()
    node = dep.node_names[0]
    proc = spawn_node(old_dir, node, url, extra=["--quiet", "--status-interval", "0"], stdout=subprocess.DEVNULL)
    host = host_endpoint(dep, url)
    try:
        host.wait_for_peers([node], 60)
        (upd,) = plan_update(dep, new, signer, delta=False)
        tap = OtaTap(MqttTransport(MqttConfig.from_url(url), dep.name, DEPLOY_NAME, dep.ids()))
        tap.open(lambda peer, data, ack=None: None)
        tap.inner.wait_connected(20.0)
        seq = [sequence_base()]

        def next_seq() -> int:
            seq[0] += 1
            return seq[0]

        from bb_edge.adapters.ops.ota_store import version_now

        # a version above the node's floor (the bundle's ota.program_version, written by keygen)
        d = ota.OtaDeployer(dep.ids(), [upd], next_seq, 7, resume=True, version=version_now(), sender=DEPLOY_ID,
                            deployment=dep.name)
        for o in d.start(0.0):
            tap.send(o.peer, o.receiver, o.data)
        deadline = time.monotonic() + 30
        while not d.resumed:
            assert time.monotonic() < deadline, "no RESUME"
            while tap.inbox:
                d.on_envelope(tap.inbox.popleft())
            time.sleep(0.02)
        chunks = d.take()
        half = len(chunks) // 2
        assert half >= 2
        for o in chunks[:half]:
            tap.send(o.peer, o.receiver, o.data)
        tap.inner.flush(10.0)
        tap.inner.close()  # the deployer is cut off
        time.sleep(0.5)
        out = subprocess.run([*cli, "deploy", str(new_dir), "--current", str(old_dir), "--fleet", url,
                              "--key", str(key_file), "--timeout", "30"],
                             capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 0, (out.stdout, out.stderr)
        assert f"{node}: resumed the transfer at byte {half * upd.chunk}" in out.stdout, out.stdout
        x = {"x": np.random.default_rng(3).standard_normal((1, 256)).astype(np.float32)}
        host.submit(10**9, x)
        np.testing.assert_allclose(host.wait(10**9, 60)["y"], monolithic(mlp(5), x)["y"], rtol=1e-5, atol=1e-6)
    finally:
        stop_process(proc)
        host.close()
        broker.stop()


def test_a_restarted_node_resumes_the_transfer_it_kept(programs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The node keeps a transfer's offer and bytes in its slot directory (FileSlots): after half the chunks it
    restarts (a new engine and handler on the same directory); the next deploy of the same program is told
    RESUME at those bytes and sends the rest. A kept transfer ends with the stage: nothing is left after."""
    from bb_edge.adapters.ops.ota_store import FileSlots
    from tests.support.ota_helpers import public_key

    n = programs["node"]
    image = programs["new"][n].SerializeToString()

    def node() -> Harness:
        h = Harness(programs["dep"], programs["old"], n)
        h.handler = ota.OtaNode(h.engine, ota.OnnxLoader(h.engine), ota.ed25519_verifier(public_key(KEY)),
                                store=FileSlots(tmp_path / "slots"))
        h.engine.register_protocol(h.handler)
        return h

    h = node()
    upd = ota.NodeUpdate(n, image, ota.TARGET_ONNX, ota.ed25519_signer(KEY), chunk=4096)
    d1 = ota.OtaDeployer(h.dep.ids(), [upd], h.next_seq, 1, resume=True, version=1)
    h.send(d1.start(h.now))
    h.now += 0.01
    for out in h.engine.poll(h.now):
        d1.on_envelope(wire.decode(out.data, max_payload=len(out.data)))
    chunks = d1.take()
    half = len(chunks) // 2
    h.send(chunks[:half])
    h.pump(rounds=1)  # the node takes them; then it restarts
    assert (tmp_path / "slots" / "partial_data").stat().st_size == half * 4096
    h = node()  # restarted: the kept transfer is its stage again
    assert h.handler.current is not None and len(h.handler.current.buf) == half * 4096
    d2 = ota.OtaDeployer(h.dep.ids(), [upd], h.next_seq, 2, resume=True, version=2)
    h.send(d2.start(h.now))
    h.pump(d2, rounds=8)
    assert d2.state == "done", d2.failures
    assert d2.resumed == {n: half * 4096} and d2.streamed[n] == len(image) - half * 4096
    assert h.engine.program_hash == model_hash(programs["new"][n])
    assert not (tmp_path / "slots" / "partial_data").exists()


def _packed_tensor(name: str, nbytes: int) -> bytes:
    """One delta entry: tensor ``name`` of ``nbytes`` zero bytes, lzma-packed (a few KB on the wire)."""
    import lzma
    import struct

    raw = numpy_helper.from_array(np.zeros(nbytes // 4, np.float32), name).SerializeToString()
    packed = lzma.compress(raw)
    nb = name.encode()
    return struct.pack("<H", len(nb)) + nb + struct.pack("<BI", 2, len(packed)) + packed


def test_a_delta_is_bounded_by_the_signed_size_before_it_unpacks(programs) -> None:  # type: ignore[no-untyped-def]
    """Issue 37, finding 3: the total a delta may unpack is the signed full size, checked while unpacking,
    so a few KB cannot balloon a node. Oracle: tracemalloc's peak stays near the bound, not the 2 x 24 MiB
    the entries would unpack to; a rebuild past protobuf's 2 GiB limit (here lowered) is a DeltaError."""
    import struct
    import tracemalloc

    from bb_edge.engine.ota import delta as delta_mod

    base = programs["old"][programs["node"]]
    bomb = struct.pack("<4sH", b"BBD1", 2) + _packed_tensor("w1", 24 << 20) + _packed_tensor("w2", 24 << 20)
    assert len(bomb) < 16 << 10
    tracemalloc.start()
    try:
        with pytest.raises(DeltaError, match="signed size"):
            apply_delta(base, bomb, 64 << 20, total=1 << 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak  # the bound (1 MiB) plus lzma's own 8 MiB dictionary; unbounded: 2 x 24 MiB
    # within the per-tensor bound and the total, but past what protobuf can serialize (limit lowered here)
    n = programs["node"]
    delta, rebuilt, _ = make_delta(base.SerializeToString(), programs["new"][n].SerializeToString())  # type: ignore[misc]
    old_limit = delta_mod.PROTOBUF_LIMIT
    delta_mod.PROTOBUF_LIMIT = len(rebuilt) // 2
    try:
        with pytest.raises(DeltaError, match="2 GiB"):
            apply_delta(base, delta, 64 << 20, total=len(rebuilt))
    finally:
        delta_mod.PROTOBUF_LIMIT = old_limit


def test_an_unsigned_delta_is_refused_before_it_is_unpacked(programs, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 37, finding 3: a delta whose manifest does not verify (another key) is refused bad_signature
    before one byte is decompressed. Oracle: apply_delta is never called (spied)."""
    from bb_edge.engine.ota import delta as delta_mod

    n = programs["node"]
    delta, rebuilt, base = make_delta(programs["old"][n].SerializeToString(),  # type: ignore[misc]
                                      programs["new"][n].SerializeToString())
    calls: list[int] = []
    real = delta_mod.apply_delta
    monkeypatch.setattr(delta_mod, "apply_delta", lambda *a, **k: calls.append(1) or real(*a, **k))
    h = Harness(programs["dep"], programs["old"], n)
    u = _update(programs, delta, rebuilt, base)
    u.signer = ota.ed25519_signer(b"\x01" * 32)  # not the node's key
    d = _deploy(h, u)
    assert d.state == "failed" and d.failures[n][0] == ota.BAD_SIGNATURE, d.failures
    assert calls == []
    assert h.engine.program_hash == model_hash(programs["old"][n])


def test_a_signed_delta_that_changes_an_output_shape_is_rolled_back(programs) -> None:  # type: ignore[no-untyped-def]
    """Issue 37, finding 7: new weights that make the graph output [1, 20] against the declared [1, 10]
    fail the update's health check (the contract's output shapes): rolled_back, the old program runs."""
    n = programs["node"]
    wide = onnx.ModelProto()
    wide.CopyFrom(programs["old"][n])
    rng = np.random.default_rng(3)
    for init in wide.graph.initializer:
        a = numpy_helper.to_array(init)
        if a.ndim == 2 and a.shape[1] == 10:
            init.CopyFrom(numpy_helper.from_array(rng.standard_normal((a.shape[0], 20)).astype(np.float32),
                                                  init.name))
        elif a.shape == (10,):
            init.CopyFrom(numpy_helper.from_array(rng.standard_normal(20).astype(np.float32), init.name))
    made = make_delta(programs["old"][n].SerializeToString(), wide.SerializeToString())
    assert made is not None  # initializer values only: a delta
    delta, rebuilt, base = made
    h = Harness(programs["dep"], programs["old"], n)
    d = _deploy(h, _update(programs, delta, rebuilt, base))
    assert d.state == "failed" and d.failures[n][0] == ota.ROLLED_BACK, (d.state, d.failures)
    assert "shape" in d.failures[n][1]
    assert h.engine.program_hash == model_hash(programs["old"][n])
