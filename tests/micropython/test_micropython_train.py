"""The MicroPython training client: bbnode/train.py and bbnode/learn_client.py.

Oracles: ONNX Runtime running the deployment's own ONNX training program (build_training_step) on the
same shard, start model, seed and batch order (bb_edge.mpy.train.reference_update with the device's
xorshift batch order), and the simulator (bb_edge/adapters/learn/simulator.py) for the fleet's accuracy.

In the real MicroPython VM (npm WebAssembly port, bytecode .mpy only): a round's UPDATE envelope equals
ORT's update within 1e-4 (MLP 64-32-10 with momentum; softmax regression; Nesterov + weight decay over two
epochs); bad models are refused with typed events and leave the model untouched; the training step's
buffers are allocated at load (live heap flat over 20 steps, same buffer objects).

Over a real Mosquitto, one process each: the Python server, a Python client and two esp32-micropython
training bundles: c1 runs its main.py under CPython (bbnode + micropython-lib's umqtt.simple, as
tests/micropython/test_micropython_mqtt.py does), c2 trains in the MicroPython VM on the bundle's own .mpy files behind
bbnode/mqtt.py. The server's final model equals an independent FedAvg recomputation (ORT per client, the
device's batch order for the MicroPython clients) within 1e-4, and its accuracy is at least the simulator's
minus one point. CI: softmax regression, 3 rounds; ``BB_EDGE_LONG=1``: the MLP, 8 rounds, and 4x the rows
in the VM exactness tests.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest

from bb_edge.adapters.learn.fleet import run_learning_fleet
from bb_edge.adapters.learn.simulator import simulate
from bb_edge.bbrt.errors import FitError
from bb_edge.bundle.build import build_all
from bb_edge.deployment.manifest import load_deployment
from bb_edge.errors import BuildError
from bb_edge.learn.data import load_arrays
from bb_edge.mpy.train import (
    Layer,
    UnsupportedTrainingModel,
    batch_order,
    describe,
    export_description,
    export_shard,
    reference_update,
    shard_ram,
    trainer_ram,
)
from bb_edge.training import SoftmaxCrossEntropy, TrainingProgram, build_training_step
from bb_edge.training.models import mlp, small_cnn
from bb_edge.training.optim import SGD, Adam
from bb_edge.training.setup import write_learning_deployment
from bb_edge.wire.envelope import Envelope, decode, encode
from tests.support.broker import start_broker, stop_broker
from tests.support.fedavg_oracle import fedavg_recomputed
from tests.support.mpy_client import LAUNCH, VM_BRIDGE, VM_CLIENT, client_dir
from tests.support.mpy_vm import MPY_DIR, cpython_paths, prepare_vm, run_vm

LONG = os.environ.get("BB_EDGE_LONG") == "1"
NODE_ID, SERVER_ID = 4, 1


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return prepare_vm(tmp_path_factory.mktemp("mpylib"))


def _digits(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    x, y, _ = load_arrays("digits")
    idx = np.random.default_rng(seed).permutation(len(x))[:n]
    return np.asarray(x[idx], np.float32), np.asarray(y[idx], np.int64)


def _program(kind: str) -> tuple[TrainingProgram, onnx.ModelProto]:
    if kind == "softmax":
        fwd, opt = mlp([64, 10], seed=2), SGD(lr=0.1)
    elif kind == "mlp-nesterov":
        fwd, opt = mlp([64, 32, 10], seed=3), SGD(lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3)
    else:  # the learning deployments' default: MLP 64-32-10, SGD lr 0.05 momentum 0.9
        fwd, opt = mlp([64, 32, 10], seed=0), SGD(lr=0.05, momentum=0.9)
    return build_training_step(fwd, None, SoftmaxCrossEntropy(), opt), fwd


def _model_env(vec: np.ndarray, rnd: int, seq: int, *, edge: int = 2, sender: int = SERVER_ID) -> bytes:
    """A FedAvg MODEL envelope as the Python server sends it (send_vector: protocol 17, edge = message)."""
    return encode(Envelope.for_array(np.ascontiguousarray(vec), sender=sender, receiver=NODE_ID,
                                     seq=(1 << 32) | seq, request_id=rnd, edge=edge, protocol=17))


CLIENT_SCRIPT = """
import json, os
from bbnode.train import Trainer
from bbnode.learn_client import FedAvgClient, Shard
T = Trainer(open('t.bbt', 'rb').read())
S = Shard(open('s.bbs', 'rb').read())
sent = []
c = FedAvgClient(T, S, %(node)d, %(server)d, send=sent.append, epochs=%(epochs)d, seed=%(seed)d)
os.mkdir('out')
res = {'status': [], 'events': [], 'unchanged': []}
k = 0
while True:
    try:
        env = open('m%%d.bin' %% k, 'rb').read()
    except OSError:
        break
    before = bytes(T.P)
    st = c.handle(env)
    res['status'].append(st)
    res['unchanged'].append(bytes(T.P) == before)
    res['events'] += [[n, f.get('reason', ''), f.get('round', 0)] for n, f in c.take_events()]
    k += 1
for i, b in enumerate(sent):
    open('out/sent%%d.bin' %% i, 'wb').write(b)
print('RESULT ' + json.dumps(res))
"""


# the same client on bbnode/train_int.IntTrainer (float32 in small ints)
INT_CLIENT_SCRIPT = CLIENT_SCRIPT.replace("from bbnode.train import Trainer",
                                          "from bbnode.train_int import IntTrainer as Trainer")


def _run_client(vm: tuple[Path, Path], d: Path, desc: bytes, shard: bytes, envs: list[bytes], *, epochs: int,
                seed: int, script: str = CLIENT_SCRIPT) -> tuple[dict[str, Any], list[Envelope]]:
    (d / "t.bbt").write_bytes(desc)
    (d / "s.bbs").write_bytes(shard)
    for k, e in enumerate(envs):
        (d / f"m{k}.bin").write_bytes(e)
    out = run_vm(*vm, d, script % {"node": NODE_ID, "server": SERVER_ID, "epochs": epochs, "seed": seed})
    res = json.loads([s for s in out.splitlines() if s.startswith("RESULT ")][-1][7:])
    sent = [decode((d / "out" / f"sent{i}.bin").read_bytes()) for i in range(len(list((d / "out").glob("sent*"))))]
    return res, sent


@pytest.mark.parametrize("kind,epochs,rows", [("mlp", 1, 36), ("softmax", 1, 40), ("mlp-nesterov", 2, 20)])
def test_vm_update_equals_ort(vm: tuple[Path, Path], tmp_path: Path, kind: str, epochs: int, rows: int) -> None:
    """One FedAvg round in the VM: MODEL in, UPDATE out; the delta equals ORT's on the device's batches."""
    rows = rows * 4 if LONG else rows
    prog, fwd = _program(kind)
    x, y = _digits(rows, seed=len(kind))
    rng = np.random.default_rng(7)
    start = (prog.layout.flatten(prog.initial_params) + rng.normal(0, 0.05, prog.layout.size)).astype(np.float32)
    rnd, seed = 3, 11
    res, sent = _run_client(vm, tmp_path, export_description(prog, fwd, batch_size=16, epochs=epochs, seed=seed),
                            export_shard(x, y), [_model_env(start, rnd, 9)], epochs=epochs, seed=seed)
    assert res["status"] == ["TRAINED"], res
    assert len(sent) == 1
    up = sent[0]
    assert (up.protocol, up.edge, up.request_id, up.sender, up.receiver) == (16, 3, rnd, NODE_ID, SERVER_ID)
    assert up.dims == (prog.layout.size,) and up.seq == (1 << 32) | 1
    delta = np.asarray(up.array(), np.float32)
    batches = batch_order(len(x), batch_size=16, epochs=epochs, seed=seed, node_id=NODE_ID, rnd=rnd)
    assert sum(len(b) for b in batches) == epochs * len(x)
    trained, _losses = reference_update(prog, start, x, y, batches)
    ref = trained - start
    assert np.abs(ref).max() > 1e-2  # the round moved the model: the comparison is not between two zeros
    np.testing.assert_allclose(delta, ref, rtol=0, atol=1e-4)
    # the batch order matters at this tolerance: another order gives another update (the oracle is not loose)
    other, _ = reference_update(prog, start, x, y, batch_order(len(x), batch_size=16, epochs=epochs, seed=seed + 1,
                                                               node_id=NODE_ID, rnd=rnd))
    assert np.abs((other - start) - delta).max() > 1e-4


def test_vm_refuses_bad_models_and_keeps_its_model(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """Wrong shape, dtype, sender, a stale round and NaN are typed refusals; the model stays as it was. The round
    last trained, sent again (the server re-asking for an UPDATE that did not arrive), is trained again: the
    same update, bit for bit."""
    prog, fwd = _program("softmax")
    x, y = _digits(16)
    n = prog.layout.size
    good = prog.layout.flatten(prog.initial_params)
    nan = good.copy()
    nan[5] = np.nan
    envs = [
        _model_env(good[:-1], 1, 1),  # wrong shape
        _model_env(good.astype(np.float64), 1, 2),  # wrong dtype
        _model_env(good, 1, 3, sender=7),  # not the server
        _model_env(nan, 1, 4),  # not finite
        _model_env(good, 2, 5),  # trained: round 2
        _model_env(good, 2, 6),  # round 2 again (a fresh seq): the server re-asks, trained again
        _model_env(good + 1, 1, 7),  # older: stale
        b"\xbb\xe1\x01" + bytes(40),  # not an envelope
    ]
    res, sent = _run_client(vm, tmp_path, export_description(prog, fwd), export_shard(x, y), envs, epochs=1, seed=0)
    assert res["status"] == ["wrong_shape", "wrong_dtype", "unknown_peer", "non_finite", "TRAINED", "TRAINED",
                             "stale_round", "bad_envelope"]
    # every refusal left the model as it was (the trained round changed it; the re-asked round ends where it did)
    assert res["unchanged"] == [True, True, True, True, False, True, True, True]
    refused = [e for e in res["events"] if e[0] == "ModelRefused"]
    assert [e[1] for e in refused] == ["wrong_shape", "wrong_dtype", "unknown_peer", "non_finite", "stale_round",
                                       "bad_envelope"]
    assert len(sent) == 2 and [u.request_id for u in sent] == [2, 2] and sent[0].dims == (n,)
    assert bytes(sent[0].data) == bytes(sent[1].data) and sent[0].seq != sent[1].seq  # the same update, re-sent


JOIN_SCRIPT = """
import json, os
from bbnode.train import Trainer
from bbnode.learn_client import FedAvgClient, Shard
T = Trainer(open('t.bbt', 'rb').read())
S = Shard(open('s.bbs', 'rb').read())
sent = []
c = FedAvgClient(T, S, %(node)d, %(server)d, send=sent.append, boot_epoch=3, heartbeat_ms=1000)
os.mkdir('out')
res = {'after': [], 'status': []}
# (time in ms, envelope file to hand the client first or None): ticks 1 s apart; a refused model (wrong shape)
# at 2.5 s answers nothing, the server's MODEL_FULL at 4.5 s answers the JOIN
plan = [(0, None), (500, None), (1000, None), (2000, None), (2500, 'm0.bin'), (3000, None), (4500, 'm1.bin'),
        (5000, None), (5500, None), (6000, None)]
for now, f in plan:
    if f:
        res['status'].append(c.handle(open(f, 'rb').read()))
    c.tick(now)
    res['after'].append(len(sent))
res['joins'] = c.joins
for i, b in enumerate(sent):
    open('out/sent%%d.bin' %% i, 'wb').write(b)
print('RESULT ' + json.dumps(res))
"""


def test_vm_client_resends_its_join_until_the_server_answers(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """Issue 35, the C client's rule (firmware/src/bbrt_learn.c): until a valid model from the server answers
    it, the client's heartbeat is its JOIN again (a broker queue past its bound may drop the first one); a
    refused model is no answer; once answered, plain HEARTBEATs. Every JOIN is the same boot epoch's and carries
    the shard size, so the server (bb_edge/strategies/fedavg.py) counts the repeats as one join."""
    prog, fwd = _program("softmax")
    x, y = _digits(16)
    good = prog.layout.flatten(prog.initial_params)
    envs = [_model_env(good[:-1], 0, 1, edge=6), _model_env(good, 0, 2, edge=6)]  # MODEL_FULL, bad then good
    res, sent = _run_client(vm, tmp_path, export_description(prog, fwd), export_shard(x, y), envs, epochs=1,
                            seed=0, script=JOIN_SCRIPT)
    assert res["status"] == ["wrong_shape", "OK"]
    # an envelope at 0, 1, 2 and 3 s (none at 0.5 and 2.5 s: under heartbeat_ms since the last), then at 4.5 s
    # (the answer came just before) and 5.5 s
    assert res["after"] == [1, 1, 2, 3, 3, 4, 5, 5, 6, 6], res["after"]
    edges = [e.edge for e in sent]
    assert edges == [1, 1, 1, 1, 4, 4], edges  # JOIN at 0, 1, 2, 3 s; HEARTBEAT at 4.5, 5.5 s
    assert res["joins"] == 4
    joins = [e for e in sent if e.edge == 1]
    assert {e.seq >> 32 for e in sent} == {3} and len({e.seq for e in sent}) == len(sent)
    assert all(e.protocol == 16 and e.receiver == SERVER_ID and e.request_id == 0 for e in sent)
    assert all(np.array_equal(e.array(), np.array([16], np.int64)) for e in joins), [e.array() for e in joins]


def test_vm_refuses_bad_descriptions_and_shards(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """Malformed BBT1/BBS1 files are TrainError codes on the device, never a traceback or a huge allocation."""
    prog, fwd = _program("mlp")
    good = export_description(prog, fwd)
    hlen = struct.unpack_from("<I", good, 4)[0]
    hdr = json.loads(good[8:8 + hlen])

    def with_header(**kw: Any) -> bytes:
        text = json.dumps({**hdr, **kw}).encode()
        text += b" " * (-len(text) % 4)
        return good[:4] + struct.pack("<I", len(text)) + text + good[8 + hlen:]

    x, y = _digits(4)
    shard = export_shard(x, y)
    cases = {
        "magic": b"BBT0" + good[4:], "truncated": good[:-4], "not_json": good[:8] + b"{" * hlen + good[8 + hlen:],
        "version": with_header(version=2), "chain": with_header(layers=[{"in": 64, "out": 32, "act": "relu"},
                                                                          {"in": 16, "out": 10, "act": None}]),
        "size": with_header(size=5), "adam": with_header(optimizer={"kind": "adam"}),
        "lr": with_header(optimizer={"kind": "sgd", "lr": "fast"}), "batch": with_header(batch_size=10**9),
        "last_relu": with_header(layers=[{"in": 64, "out": 32, "act": "relu"}, {"in": 32, "out": 10, "act": "relu"}]),
    }
    shards = {"shard_magic": b"BBS0" + shard[4:], "shard_short": shard[:-1],
              "shard_type": shard[:10] + b"\x07" + shard[11:]}
    for k, v in {**cases, **shards}.items():
        (tmp_path / f"{k}.bin").write_bytes(v)
    (tmp_path / "t.bbt").write_bytes(good)
    out = run_vm(*vm, tmp_path, """
import json
from bbnode.train import Trainer, TrainError
from bbnode.learn_client import Shard
res = {}
for k in NAMES:
    try:
        (Shard if k.startswith('shard') else Trainer)(open(k + '.bin', 'rb').read())
        res[k] = 'ACCEPTED'
    except TrainError as exc:
        res[k] = exc.code
T = Trainer(open('t.bbt', 'rb').read())
for nb in (0, T.batch + 1):
    try:
        T.step(nb)
        res['step' + str(nb)] = 'ACCEPTED'
    except TrainError as exc:
        res['step' + str(nb)] = exc.code
print('RESULT ' + json.dumps(res))
""".replace("NAMES", repr(sorted({**cases, **shards}))))
    res = json.loads([s for s in out.splitlines() if s.startswith("RESULT ")][-1][7:])
    assert res == {"magic": "BAD_MAGIC", "truncated": "TRUNCATED", "not_json": "BAD_HEADER", "version": "BAD_VERSION",
                   "chain": "BAD_LAYERS", "size": "BAD_LAYERS", "adam": "BAD_OPTIMIZER", "lr": "BAD_OPTIMIZER",
                   "batch": "BAD_HEADER", "last_relu": "BAD_LAYERS", "shard_magic": "BAD_SHARD",
                   "shard_short": "BAD_SHARD", "shard_type": "BAD_SHARD", "step0": "BAD_BATCH", "step17": "BAD_BATCH"}


def test_vm_training_step_allocations_flat(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """20 steps, each its own VM call: no buffer is replaced and nothing a step allocates outlives it (the
    live heap after a collection is flat); the transient bytes of a step (GC disabled) are reported: boxed
    float results on this port. (gc.collect() inside one VM call frees nothing here, so each step is a call.)"""
    prog, fwd = _program("mlp")
    x, y = _digits(32)
    (tmp_path / "t.bbt").write_bytes(export_description(prog, fwd))
    (tmp_path / "s.bbs").write_bytes(export_shard(x, y))
    (tmp_path / "_script.py").write_text("""
import gc
from bbnode.train import Trainer
from bbnode.learn_client import FedAvgClient, Shard, shuffle
T = Trainer(open('t.bbt', 'rb').read(), 8)  # batch 8: the property does not depend on it, the time does
c = FedAvgClient(T, Shard(open('s.bbs', 'rb').read()), 4, send=lambda b: None)
shuffle(c.order, c.shard.n, 99)
c.load_batch(0, 8)
def ids():
    return [id(b) for b in [T.P, T.G, T.M, T.X, T.Y, T.loss] + T.H + T.D]
IDS = ids()
def on_line(s):
    gc.collect()
    live = gc.mem_alloc()  # the live heap after a collection, before this call's step
    if s == 'END':
        print('END', live, ids() == IDS, T.steps)
        return True
    gc.disable()
    a0 = gc.mem_alloc()
    T.step(8)
    a1 = gc.mem_alloc()
    gc.enable()
    print('STEP', live, a1 - a0)  # printed, not stored: storing the samples would be measured too
    return False
""")
    driver, lib = vm
    proc = subprocess.run([shutil.which("node") or "node", str(driver), str(lib), str(tmp_path),
                           str(tmp_path / "_script.py"), "16", "--lines"], input="step\n" * 21 + "END\n",
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    steps = [s.split() for s in proc.stdout.splitlines() if s.startswith("STEP ")]
    end = [s.split() for s in proc.stdout.splitlines() if s.startswith("END ")][-1]
    assert len(steps) == 21 and end[2] == "True" and end[3] == "21"  # same buffer objects after 21 steps
    live = [int(s[1]) for s in steps[1:]] + [int(end[1])]  # from the end of step 1 (first call warms caches)
    per = [int(s[2]) for s in steps[1:]]
    print(f"bytes per step (float temporaries): {min(per)}..{max(per)}; live heap {live[0]}..{max(live)}")
    assert len(live) == 21 and max(live) == min(live), live  # nothing a step allocates outlives it
    assert all(p % 16 == 0 for p in per)  # GC blocks of boxed float results


INT_STEPS_SCRIPT = """
import gc, os
from array import array
from bbnode.train_int import IntTrainer
from bbnode.learn_client import FedAvgClient, Shard, shuffle
T = IntTrainer(open('t.bbt', 'rb').read(), NB)
c = FedAvgClient(T, Shard(open('s.bbs', 'rb').read()), 4, send=lambda b: None)
shuffle(c.order, c.shard.n, 99)
per = array('i', [-1] * 20)
loss = array('f', [0.0] * 20)
def run():
    c.load_batch(0, NB)
    T.step(NB)  # one step first: the measured ones are 2..21
    gc.collect()
    gc.disable()  # for all 20 steps: a step that allocated would show in its own mem_alloc difference
    for i in range(20):
        c.load_batch((i + 1) * NB % (c.shard.n - NB + 1), NB)
        a0 = gc.mem_alloc()
        T.step(NB)
        a1 = gc.mem_alloc()
        per[i] = a1 - a0
        loss[i] = T.loss[0]
    gc.enable()
run()
os.mkdir('out')
open('out/p.bin', 'wb').write(bytes(T.params_f32()))
print('PER', ' '.join(str(v) for v in per), 'LOSS', ' '.join(str(v) for v in loss))
"""


@pytest.mark.parametrize("kind", ["mlp", "softmax"])
def test_vm_int_training_step_allocates_nothing(vm: tuple[Path, Path], tmp_path: Path, kind: str) -> None:
    """IntTrainer (bbnode/train_int.py, float32 in small ints) in the VM, GC disabled: gc.mem_alloc() is the
    same before and after each of 20 steps (0 bytes a step, where the float Trainer allocates a boxed float
    per result), and the 21 steps' model is bit for bit CPython's run of the same module (int arithmetic:
    the VM's 31-bit small ints give the same bits) and moved from the start."""
    nb = 16 if LONG else (1 if kind == "mlp" else 4)  # the property does not depend on it, the time does
    prog, fwd = _program(kind)
    x, y = _digits(48)
    desc, shard = export_description(prog, fwd), export_shard(x, y)
    (tmp_path / "t.bbt").write_bytes(desc)
    (tmp_path / "s.bbs").write_bytes(shard)
    script = INT_STEPS_SCRIPT.replace("NB", str(nb))
    out = run_vm(*vm, tmp_path, script)
    line = [s for s in out.splitlines() if s.startswith("PER ")][-1].split()
    per = [int(v) for v in line[1:21]]
    vm_loss = [float(v) for v in line[22:]]
    assert per == [0] * 20, per  # strict: not one byte allocated by any of the 20 steps
    # the oracle for what the steps computed: the same source under CPython
    sys.path.insert(0, str(MPY_DIR))
    try:
        from bbnode.learn_client import FedAvgClient, Shard, shuffle
        from bbnode.train_int import IntTrainer
    finally:
        sys.path.remove(str(MPY_DIR))
    T = IntTrainer(desc, nb)
    c = FedAvgClient(T, Shard(shard), 4, send=lambda b: None)
    shuffle(c.order, c.shard.n, 99)
    losses = []
    for i in range(21):
        c.load_batch(i * nb % (c.shard.n - nb + 1), nb)
        T.step(nb)
        losses.append(T.loss[0])
    vm_p = (tmp_path / "out" / "p.bin").read_bytes()
    assert vm_p == bytes(T.params_f32())
    assert np.allclose(vm_loss, losses[1:], rtol=1e-6) and 0.5 < losses[0] < 5
    start = prog.layout.flatten(prog.initial_params)
    assert np.abs(np.frombuffer(vm_p, "<f4") - start).max() > 1e-3  # the 21 steps trained


ROUND_ALLOC_SCRIPT = """
import gc
from bbnode.train import Trainer
from bbnode.train_int import IntTrainer
from bbnode.learn_client import FedAvgClient, Shard
blob = open('t.bbt', 'rb').read()
shard = Shard(open('s.bbs', 'rb').read())
res = []
for cls in (IntTrainer, Trainer):
    for batch in (4, 1):
        c = FedAvgClient(cls(blob, batch), shard, 4, send=lambda b: None, epochs=1)
        c.train_round(1)
        gc.collect()
        gc.disable()
        a0 = gc.mem_alloc()
        c.train_round(2)
        a1 = gc.mem_alloc()
        gc.enable()
        res.append(a1 - a0)
print('ROUND', ' '.join(str(v) for v in res))
"""


def test_vm_int_round_allocates_nothing_per_step(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """A whole local round (shuffle, batch loads, steps, the loss sum) in the VM, GC disabled: with batch 1 the
    int-mode round makes 4x the steps of batch 4 and allocates exactly the same bytes (the per-epoch xorshift
    shuffle's big ints), so a step and its loop allocate nothing; the float trainer's rounds differ."""
    prog, fwd = _program("softmax")
    x, y = _digits(8)
    (tmp_path / "t.bbt").write_bytes(export_description(prog, fwd))
    (tmp_path / "s.bbs").write_bytes(export_shard(x, y))
    out = run_vm(*vm, tmp_path, ROUND_ALLOC_SCRIPT)
    line = [s for s in out.splitlines() if s.startswith("ROUND ")][-1]
    int4, int1, float4, float1 = (int(v) for v in line.split()[1:])
    assert int4 == int1, (int4, int1)
    assert float1 - float4 > 100_000, (float4, float1)  # the boxed steps' bytes: the comparison discriminates


@pytest.mark.parametrize("kind,epochs,rows", [("mlp", 1, 36), ("mlp-nesterov", 2, 20)]
                         + ([("softmax", 1, 40)] if LONG else []))  # CI time: softmax's steps are checked above
def test_vm_int_update_equals_ort(vm: tuple[Path, Path], tmp_path: Path, kind: str, epochs: int, rows: int) -> None:
    """The int-mode client (IntTrainer) in the VM: one round's UPDATE equals ORT running the same ONNX training
    program on the device's batches within 1e-4; a model value beyond the int range (2**64) is refused
    (norm_too_large) first, leaving the model unchanged."""
    rows = rows * 4 if LONG else rows
    prog, fwd = _program(kind)
    x, y = _digits(rows, seed=len(kind))
    rng = np.random.default_rng(7)
    start = (prog.layout.flatten(prog.initial_params) + rng.normal(0, 0.05, prog.layout.size)).astype(np.float32)
    huge = start.copy()
    huge[3] = 3e19
    rnd, seed = 3, 11
    res, sent = _run_client(vm, tmp_path, export_description(prog, fwd, batch_size=16, epochs=epochs, seed=seed),
                            export_shard(x, y), [_model_env(huge, 2, 8), _model_env(start, rnd, 9)], epochs=epochs,
                            seed=seed, script=INT_CLIENT_SCRIPT)
    assert res["status"] == ["norm_too_large", "TRAINED"], res
    assert res["unchanged"] == [True, False]
    assert len(sent) == 1 and sent[0].request_id == rnd and sent[0].dims == (prog.layout.size,)
    delta = np.asarray(sent[0].array(), np.float32)
    batches = batch_order(len(x), batch_size=16, epochs=epochs, seed=seed, node_id=NODE_ID, rnd=rnd)
    trained, _losses = reference_update(prog, start, x, y, batches)
    ref = trained - start
    assert np.abs(ref).max() > 1e-2
    np.testing.assert_allclose(delta, ref, rtol=0, atol=1e-4)
    other, _ = reference_update(prog, start, x, y, batch_order(len(x), batch_size=16, epochs=epochs, seed=seed + 1,
                                                               node_id=NODE_ID, rnd=rnd))
    assert np.abs((other - start) - delta).max() > 1e-4


def test_describe_refuses_what_the_device_cannot_train() -> None:
    """A conv model, Adam and FedProx are typed build-time refusals; the MLP's description round-trips."""
    conv = small_cnn()
    with pytest.raises(UnsupportedTrainingModel, match="Conv"):
        describe(build_training_step(conv, None, SoftmaxCrossEntropy(), SGD(0.1)), conv)
    fwd = mlp([64, 32, 10])
    with pytest.raises(UnsupportedTrainingModel, match="Adam"):
        describe(build_training_step(fwd, None, SoftmaxCrossEntropy(), Adam()), fwd)
    with pytest.raises(UnsupportedTrainingModel, match="FedProx"):
        describe(build_training_step(fwd, None, SoftmaxCrossEntropy(), SGD(0.1), proximal_mu=0.1), fwd)
    prog = build_training_step(fwd, None, SoftmaxCrossEntropy(), SGD(0.1))
    blob = export_description(prog, fwd)
    hlen = struct.unpack_from("<I", blob, 4)[0]
    hdr = json.loads(blob[8:8 + hlen])
    assert [(L["in"], L["out"], L["act"]) for L in hdr["layers"]] == [(64, 32, "relu"), (32, 10, None)]
    assert np.array_equal(np.frombuffer(blob[8 + hlen:], "<f4"), prog.layout.flatten(prog.initial_params))


def _fedavg_learning(rounds: int, lr: float = 0.05) -> dict[str, Any]:
    return {"strategy": "fedavg", "clients": 3, "rounds": rounds, "seed": 3, "round_timeout": 60.0,
            "optimizer": {"kind": "sgd", "lr": lr, "momentum": 0.9},
            "data": {"source": "digits", "partition": {"type": "partition.iid"}}}


def test_build_refuses_server_and_oversized_client(tmp_path: Path) -> None:
    """The server is not a MicroPython role, nor is a codec; a shard too big for the ESP32's RAM is a FitError by
    how much."""
    d = tmp_path / "dep"
    write_learning_deployment(d, _fedavg_learning(2))
    with pytest.raises(BuildError, match="server"):
        build_all(d, ["server=esp32-micropython"], tmp_path / "dist1")
    coded = tmp_path / "coded"
    write_learning_deployment(coded, {**_fedavg_learning(2), "codec": {"type": "codec.int8"}})
    with pytest.raises(BuildError, match="codec"):
        build_all(coded, ["c0=esp32-micropython"], tmp_path / "dist3")
    big = tmp_path / "big"
    write_learning_deployment(big, {**_fedavg_learning(2), "clients": 1})
    with pytest.raises(FitError) as exc:
        build_all(big, ["c0=esp32-micropython"], tmp_path / "dist2")
    assert exc.value.over > 0 and exc.value.resource == "ram"


def test_build_selects_the_int_mode(tmp_path: Path) -> None:
    """``--train-arith int`` (build option ``train_arith``): the bundle's config.json says ``"arith": "int"``, the
    device's trainer_for then builds an IntTrainer from the bundle's own train.bbt (a Trainer without the
    flag); the RAM figure counts the float32 model copy; an unknown mode is a typed error on both sides."""
    d = tmp_path / "dep"
    write_learning_deployment(d, _fedavg_learning(2), model=mlp([64, 10], seed=3))
    build_all(d, ["c0=esp32-micropython"], tmp_path / "int", None, {"train_arith": "int"})
    with pytest.raises(BuildError, match="train-arith"):
        build_all(d, ["c0=esp32-micropython"], tmp_path / "bad", None, {"train_arith": "fixed"})
    sys.path.insert(0, str(MPY_DIR))
    try:
        from bbnode.learn_client import trainer_for
        from bbnode.train import Trainer, TrainError
        from bbnode.train_int import IntTrainer
    finally:
        sys.path.remove(str(MPY_DIR))
    b = tmp_path / "int" / "c0"
    lc = json.loads((b / "config.json").read_text())["learn"]
    assert lc["arith"] == "int"
    assert (b / "lib" / "bbnode" / "f32int.mpy").is_file() and (b / "lib" / "bbnode" / "train_int.mpy").is_file()
    blob = (b / "train.bbt").read_bytes()
    t = trainer_for(lc, blob)
    assert type(t) is IntTrainer and bytes(t.params_f32()) == blob[-4 * t.size:]  # the model, bit for bit
    assert type(trainer_for({k: v for k, v in lc.items() if k != "arith"}, blob)) is Trainer
    with pytest.raises(TrainError, match="BAD_CONFIG"):
        trainer_for({**lc, "arith": "double"}, blob)
    huge = bytearray(blob)
    huge[-4:] = struct.pack("<f", 3e19)  # a parameter beyond the int mode's 2**64
    with pytest.raises(TrainError, match="RANGE"):
        IntTrainer(bytes(huge))
    with pytest.raises(TrainError, match="BAD_BATCH"):
        t.step(17)
    facts = json.loads((b / "build.json").read_text())
    layers = [Layer(i, o, r, "", "") for i, o, r in facts["layers"]]
    float_need = trainer_ram(layers, 16, True) + shard_ram(facts["samples"], 64, True)  # the float trainer's
    assert facts["train_arith"] == "int" and facts["shard_uint8"]
    assert facts["ram_need"] == float_need + 4 * 650 + 4 * 256  # + the float32 model copy, the encoded table


def test_fedavg_fleet_with_micropython_clients(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """Python server + a Python client + two MicroPython training bundles over Mosquitto, one process each:
    c1 is the bundle's main.py (CPython hosting bbnode + umqtt), c2 trains in the real MicroPython VM (the
    bundle's .mpy files) behind bbnode/mqtt.py. The server's model equals an independent FedAvg
    recomputation within 1e-4; its accuracy is at least the simulator's minus one point."""
    # CI: softmax regression (29 VM steps of 87 ms a round), 3 rounds; long: the MLP 64-32-10 (290 ms a step)
    rounds = 8 if LONG else 3
    learning = _fedavg_learning(rounds, lr=0.05 if LONG else 0.1)
    d = tmp_path / "dep"
    write_learning_deployment(d, learning, model=None if LONG else mlp([64, 10], seed=3))
    t0 = time.monotonic()
    build_all(d, ["c1=esp32-micropython", "c2=esp32-micropython"], tmp_path / "dist")
    broker, url = start_broker(tmp_path / "broker")
    port = int(url.rsplit(":", 1)[1])
    paths = cpython_paths(tmp_path)
    c1 = client_dir(tmp_path / "dist" / "c1", tmp_path / "c1", port)
    (c1 / "_launch.py").write_text(LAUNCH.format(here=str(c1), paths=paths))
    c2 = client_dir(tmp_path / "dist" / "c2", tmp_path / "c2", port)
    (c2 / "_vm_client.py").write_text(VM_CLIENT)
    driver = vm[0]
    vm_argv = [shutil.which("node") or "node", str(driver), str(c2 / "lib"), str(c2), str(c2 / "_vm_client.py"),
               "64", "--lines"]
    (c2 / "_bridge.py").write_text(VM_BRIDGE.format(here=str(c2), paths=paths, vm_argv=vm_argv))
    t1 = time.monotonic()
    try:
        res = run_learning_fleet(load_deployment(d), url, workdir=tmp_path / "work", connect_timeout=60,
                                 commands={"c1": [sys.executable, "-u", str(c1 / "_launch.py")],
                                           "c2": [sys.executable, "-u", str(c2 / "_bridge.py")]})
    finally:
        stop_broker(broker)
    for c in (c1, c2):
        log = [json.loads(s) for s in (c / "learn.log").read_text().splitlines()]
        trained = [e["round"] for e in log if e["event"] == "LocalTrainingDone"]
        assert trained == list(range(1, rounds + 1)), (c.name, log)  # every round answered
        assert not [e for e in log if e["event"] == "ModelRefused"], log
    assert res.counts.get("RoundCompleted") == rounds and not res.rejections, (res.counts, res.rejections)
    t2 = time.monotonic()
    oracle = fedavg_recomputed(d, {"c1": "mpy", "c2": "mpy"})  # c0 is a Linux client
    np.testing.assert_allclose(res.final_models["server"], oracle, rtol=0, atol=1e-4)
    sim = simulate(learning, d)
    print(f"fleet with two MicroPython clients {res.final_accuracy:.4f}, simulator {sim.final_accuracy:.4f}; "
          f"build {t1 - t0:.1f} s, fleet {t2 - t1:.1f} s, oracle + simulator {time.monotonic() - t2:.1f} s")
    assert sim.final_accuracy > 0.5
    assert res.final_accuracy >= sim.final_accuracy - 0.01, (res.final_accuracy, sim.final_accuracy)
