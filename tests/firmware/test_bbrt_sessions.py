"""Session slots on the C runtime: a GRU stage keeps its state h across requests (docs/bbrt.md "Session slots").

The program is one GRU time step (the ONNX GRU op, lowered to GRU_F32) with the state pair h_next -> h and a Gemm
head y. The host build and QEMU Cortex-M4 take 10 steps of one session, and two sessions interleaved; every output
equals one ONNX Runtime session looping over the same steps with h fed back by hand. Then the node's rules: steps in
order, the owner alone continues or closes, LRU eviction tells the evicted owner, a stateful program refuses a
request without a session, CTRL_SESSION_CLOSE frees the slot, and a dynamic state dim is refused at build time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from bb_edge.adapters.devices.serial_devices import HostDevice, QemuDevice, SerialDevice
from bb_edge.bbrt.errors import DynamicStateError
from bb_edge.bbrt.firmware import build_firmware
from bb_edge.bbrt.format import STATE, Op, parse
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.targets import load_target
from bb_edge.wire import Envelope, decode, encode
from bb_edge.wire.envelope import FLAG_SESSION
from tests.support.no_heap import check_no_heap

I, H, O = 6, 8, 3
X_EDGE, Y_EDGE = 1000, 1001
NODE = 5
CTRL_SESSION_CLOSE = 6
TOL = dict(rtol=1e-5, atol=1e-6)  # the float bbrt tests' tolerance against ORT (test_bbrt_more_ops_qemu)


def gru_step(h_dims: list[int | str] | None = None) -> onnx.ModelProto:
    """x [1,1,I], h [1,1,H] -> GRU (one step, linear_before_reset) -> h_next [1,1,H]; y = Gemm(h_next) [1,O]."""
    rng = np.random.default_rng(38)
    inits = {"W": (rng.standard_normal((1, 3 * H, I)) * 0.5).astype(np.float32),
             "R": (rng.standard_normal((1, 3 * H, H)) * 0.5).astype(np.float32),
             "B": (rng.standard_normal((1, 6 * H)) * 0.2).astype(np.float32),
             "flat": np.array([1, H], np.int64),
             "Wo": (rng.standard_normal((H, O)) * 0.5).astype(np.float32),
             "bo": (rng.standard_normal(O) * 0.1).astype(np.float32)}
    nodes = [helper.make_node("GRU", ["x", "W", "R", "B", "", "h"], ["", "h_next"], name="gru", hidden_size=H,
                              linear_before_reset=1),
             helper.make_node("Reshape", ["h_next", "flat"], ["hf"], name="flat"),
             helper.make_node("Gemm", ["hf", "Wo", "bo"], ["y"], name="head")]
    hd = h_dims if h_dims is not None else [1, 1, H]
    g = helper.make_graph(nodes, "gru_step",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, I]),
                           helper.make_tensor_value_info("h", TensorProto.FLOAT, hd)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, O]),
                           helper.make_tensor_value_info("h_next", TensorProto.FLOAT, hd)],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def ort_session(model: onnx.ModelProto, xs: np.ndarray) -> np.ndarray:
    """The oracle: one ORT session looping over the steps, h fed back by hand (zeros before step 0)."""
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    h = np.zeros((1, 1, H), np.float32)
    ys = []
    for x in xs:
        y, h = sess.run(["y", "h_next"], {"x": x, "h": h})
        ys.append(y)
    return np.stack(ys)


def lowered() -> Lowered:
    xs = np.random.default_rng(1).standard_normal((8, 1, 1, I)).astype(np.float32)
    calib = [{"x": x, "h": np.tanh(x[..., :1] * np.ones((1, 1, H), np.float32))} for x in xs]
    return lower(gru_step(), node_id=NODE, io_edges={"x": X_EDGE, "y": Y_EDGE}, precision="fp32", calib=calib,
                 state=[("h_next", "h")])


class Driver:
    """Sends session steps to a device as the host (owner 0) or a client slot, and collects what comes back."""

    def __init__(self, dev: SerialDevice) -> None:
        self.dev = dev
        self.seq = {0: 0}
        dev.control.clear()

    def _next(self, sender: int) -> int:
        self.seq[sender] = self.seq.get(sender, 0) + 1
        return (1 << 32) | self.seq[sender]

    def step(self, x: np.ndarray, session: int, step: int, request_id: int, *, sender: int = 0,
             flags_session: bool = True) -> None:
        env = Envelope.for_array(x, sender=sender, receiver=NODE, seq=self._next(sender), request_id=request_id,
                                 edge=X_EDGE)
        if flags_session:
            env.in_session(session, step)
        self.dev.send(encode(env))

    def close(self, session: int, request_id: int, sender: int = 0) -> None:
        env = Envelope.for_bytes(b"", sender=sender, receiver=NODE, seq=self._next(sender), edge=CTRL_SESSION_CLOSE,
                                 request_id=request_id).in_session(session, 0)
        self.dev.send(encode(env))

    def outputs(self, n: int, timeout: float = 30.0) -> dict[int, np.ndarray]:
        got = self.dev.wait_data(n, timeout)
        assert len(got) == n, (len(got), self.dev.errors)
        out = {}
        for raw in got:
            e = decode(raw)
            assert e.edge == Y_EDGE and not e.flags & FLAG_SESSION
            out[e.request_id] = e.array().copy()
        return out

    def errors(self, n: int, timeout: float = 10.0) -> list[tuple[int, int, str]]:
        """``n`` error envelopes: (receiver, request id, text)."""
        deadline = 0.0
        while len(self.dev.control) < n and deadline < timeout:
            self.dev.pump_for(0.1)
            deadline += 0.1
        errs = [(e.receiver, e.request_id, bytes(e.data).decode()) for e in self.dev.control if e.flags & 4]
        self.dev.control.clear()
        self.dev.errors.clear()
        return errs


@pytest.fixture(scope="module")
def L() -> Lowered:
    return lowered()


def test_state_pair_lowers_to_a_state_record_and_session_slots(L: Lowered) -> None:
    prog = parse(L.blob)
    (st,) = [e for e in prog.edges if e.direction == STATE]
    assert prog.tensors[st.tensor].shape == prog.tensors[st.peer].shape == (1, 1, H)
    assert sorted(e.edge_id for e in prog.edges if e.direction != STATE) == [X_EDGE, Y_EDGE]  # h is no edge
    assert Op.GRU_F32 in L.ops_used
    assert prog.state_bytes() == 4 * H
    assert prog.node_arena_bytes(sessions=4) == prog.node_arena_bytes(sessions=0) + 4 * 4 * H


def test_dynamic_state_dim_is_refused_at_build_time() -> None:
    with pytest.raises(DynamicStateError, match="'h'") as info:
        lower(gru_step([1, "batch", H]), precision="fp32", state=[("h_next", "h")])
    assert info.value.tensor == "h"


def _sessions_equal_ort(dev: SerialDevice) -> Driver:
    model = gru_step()
    rng = np.random.default_rng(2)
    xa = rng.standard_normal((10, 1, 1, I)).astype(np.float32)
    xb = rng.standard_normal((10, 1, 1, I)).astype(np.float32)
    xc = rng.standard_normal((4, 1, 1, I)).astype(np.float32)
    d = Driver(dev)
    # one session of 10 steps
    for k, x in enumerate(xa):
        d.step(x, session=11, step=k, request_id=100 + k)
    got = d.outputs(10)
    np.testing.assert_allclose(np.stack([got[100 + k] for k in range(10)]), ort_session(model, xa), **TOL)
    # two sessions interleaved (the host's 12 and client 3's 12: the same id, another owner)
    c3 = 0xFFFF0003
    for k in range(4):
        d.step(xb[k], session=12, step=k, request_id=200 + k)
        d.step(xc[k], session=12, step=k, request_id=(3 << 56) | (300 + k), sender=c3)
    got = d.outputs(8)
    np.testing.assert_allclose(np.stack([got[200 + k] for k in range(4)]), ort_session(model, xb[:4]), **TOL)
    np.testing.assert_allclose(np.stack([got[(3 << 56) | (300 + k)] for k in range(4)]), ort_session(model, xc),
                               **TOL)
    assert not d.errors(0)
    return d


def _session_rules(dev: SerialDevice, slots: int, d: Driver | None = None, open_before: int = 0) -> None:
    """Order, owner, no-session refusal, LRU eviction and close, on a node with ``slots`` session slots and no live
    session but ``open_before`` older ones (``d``: the driver that used the device before, whose sequence numbers go
    on)."""
    model = gru_step()
    rng = np.random.default_rng(3)
    xs = rng.standard_normal((6, 1, 1, I)).astype(np.float32)
    ref = ort_session(model, xs)
    d = d or Driver(dev)
    d.step(xs[0], 21, 0, 400)
    d.step(xs[1], 21, 1, 401)
    assert set(d.outputs(2)) == {400, 401}
    # out of order (a repeat of step 1, a skip to 3): refused to the owner, the state unchanged
    d.step(xs[1], 21, 1, 402)
    d.step(xs[3], 21, 3, 403)
    errs = d.errors(2)
    assert [(r, q) for r, q, _ in errs] == [(0, 402), (0, 403)]
    assert "step 1 is not the next step 2" in errs[0][2] and "SessionRefused" in errs[0][2]
    # another owner (client 4) cannot continue the host's session 21: for it, session 21 is not open
    d.step(xs[2], 21, 2, (4 << 56) | 1, sender=0xFFFF0004)
    (err,) = d.errors(1)
    assert err[0] == 0xFFFF0004 and "session is not open" in err[2]
    # ... nor close it: its close names its own (absent) session
    d.close(21, (4 << 56) | 2, sender=0xFFFF0004)
    d.step(xs[2], 21, 2, 404)
    np.testing.assert_allclose(d.outputs(1)[404], ref[2], **TOL)  # the refusals left the state as it was
    # a request without a session: a stateful program refuses it
    d.step(xs[3], 0, 0, 405, flags_session=False)
    (err,) = d.errors(1)
    assert err[1] == 405 and "must be steps of a session" in err[2]
    # LRU eviction: open `slots` more sessions; the least recently used end (the older ones, then 21), each owner told
    for k in range(slots):
        d.step(xs[0], 30 + k, 0, 500 + k)
    assert len(d.outputs(slots)) == slots
    errs = d.errors(open_before + 1)
    assert len(errs) == open_before + 1 and all("SessionEnded" in e[2] and "evicted" in e[2] for e in errs), errs
    assert errs[-1][:2] == (0, 404) and "SessionEnded: session 21 " in errs[-1][2]
    d.step(xs[3], 21, 3, 406)
    (err,) = d.errors(1)
    assert err[1] == 406 and "session is not open" in err[2]
    # CTRL_SESSION_CLOSE frees a slot: step 1 of the closed session is refused, a new session opens without eviction
    d.close(30, 600)
    d.step(xs[1], 30, 1, 601)
    (err,) = d.errors(1)
    assert err[1] == 601 and "session is not open" in err[2]
    d.step(xs[0], 40, 0, 602)
    np.testing.assert_allclose(d.outputs(1)[602], ref[0], **TOL)
    assert not d.errors(0)  # no eviction: the close made room


@pytest.fixture
def host_dist(L: Lowered, tmp_path: Path) -> Path:
    prof = load_target("host")
    prof = dataclasses.replace(prof, raw={**prof.raw, "session_slots": 3})
    facts = build_firmware(L, "host", tmp_path / "gru", node="gru", profile=prof)
    assert facts["session_slots"] == 3 and facts["session_bytes"] == 3 * 4 * H
    return tmp_path / "gru"


@pytest.fixture
def host_dev(host_dist: Path) -> Iterator[HostDevice]:
    dev = HostDevice(host_dist / "bbrt-host", host_dist / "program.bbrt", NODE).start()
    yield dev
    dev.stop()


def test_gru_state_across_requests_on_host_equals_ort(host_dev: HostDevice) -> None:
    _sessions_equal_ort(host_dev)


def test_session_rules_on_host(host_dist: Path) -> None:
    dev = HostDevice(host_dist / "bbrt-host", host_dist / "program.bbrt", NODE).start()
    try:
        _session_rules(dev, slots=3)
    finally:
        stats = dev.stop()
    assert "sessions=3 " in stats and "session_evicted=1 " in stats and "session_closed=1" in stats, stats


def test_gru_state_across_requests_on_qemu_cortex_m4(L: Lowered, tmp_path: Path) -> None:
    prof = load_target("qemu-cortex-m4")
    build_firmware(L, "qemu-cortex-m4", tmp_path / "m4", node="gru", profile=prof)
    check_no_heap(tmp_path / "m4" / "bbrt.elf", "arm-none-eabi-nm")  # no heap symbol with session slots
    with QemuDevice("cortex-m4", tmp_path / "m4" / "bbrt.elf", tmp_path / "m4" / "program.bbrt", NODE) as dev:
        d = _sessions_equal_ort(dev)  # leaves sessions 11 and 12 (two owners) open: 2 of the 4 slots
        _session_rules(dev, slots=4, d=d, open_before=3)
