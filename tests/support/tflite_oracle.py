"""Run a .tflite in the TFLite interpreter (ai-edge-litert, the oracle) and through bb-edge on the host build."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bb_edge.bbrt.format import RECV, SEND
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import lower
from bb_edge.tflite import tflite_to_onnx
from bb_edge.wire import Envelope, decode, encode
from tests.support.mlperf import run_host

if TYPE_CHECKING:
    from bb_edge.adapters.devices.serial_devices import SerialDevice


def interpreter_outputs(data: bytes, x: np.ndarray, reference: bool = False) -> np.ndarray:
    """TFLite's int8 output for each input (batch of 1 each), stacked, in TFLite's own layout.

    The default resolver, or with ``reference`` the reference kernels (BUILTIN_REF, the arithmetic TFLite
    Micro and CMSIS-NN run: MultiplyByQuantizedMultiplier with two roundings); the default resolver's ADD
    (XNNPACK) and int8 QUANTIZE round differently by one LSB in places.
    """
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    kind = OpResolverType.BUILTIN_REF if reference else OpResolverType.AUTO
    it = Interpreter(model_content=data, experimental_op_resolver_type=kind)
    it.allocate_tensors()
    i, o = it.get_input_details()[0], it.get_output_details()[0]
    ys = []
    for k in range(len(x)):
        it.set_tensor(i["index"], x[k:k + 1])
        it.invoke()
        ys.append(it.get_tensor(o["index"]).copy())
    return np.concatenate(ys)


def bbrt_outputs(data: bytes, x: np.ndarray) -> np.ndarray:
    """bb-edge's output for each input: the .tflite translated, lowered, run on the host build (4-D outputs NHWC)."""
    m = tflite_to_onnx(data, nchw_outputs=True)
    out = run_host(lower(m, io_edges=None), x)
    dims = [d.dim_value for d in m.graph.output[0].type.tensor_type.shape.dim]
    y = out.reshape(len(x), *dims[1:])
    return np.transpose(y, (0, 2, 3, 1)) if len(dims) == 4 else y


def random_input(data: bytes, n: int, seed: int = 0) -> np.ndarray:
    """``n`` int8 inputs of the model's input shape (batch 1 each), stacked."""
    from ai_edge_litert.interpreter import Interpreter

    shape = Interpreter(model_content=data).get_input_details()[0]["shape"]
    return np.random.default_rng(seed).integers(-128, 128, (n, *shape[1:])).astype(np.int8)


def interpreter_two(data: bytes, xa: np.ndarray, xb: np.ndarray) -> np.ndarray:
    """BUILTIN_REF's output of a model with two inputs (a, b), in TFLite's layout."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    it = Interpreter(model_content=data, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    ia, ib = it.get_input_details()
    it.set_tensor(ia["index"], xa)
    it.set_tensor(ib["index"], xb)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])


def two_inputs(data: bytes, xa: np.ndarray, xb: np.ndarray) -> None:
    """Both operands activations: every output byte of the host build equals BUILTIN_REF's."""
    want = interpreter_two(data, xa, xb)
    m = tflite_to_onnx(data, nchw_outputs=True)
    L = lower(m, io_edges=None)
    hp = HostProgram(L.blob, L.program)
    recv = [e.tensor for e in L.program.edges if e.direction == RECV]  # in graph-input order: a, b
    feeds = {}
    for k, (n, v) in enumerate((("a", xa), ("b", xb))):  # a layout move of an input is the host's (input_perm)
        feeds[recv[k]] = np.transpose(v, L.input_perm[n]) if n in L.input_perm else v
    hp.run(feeds)
    got = hp.view(next(e.tensor for e in L.program.edges if e.direction == SEND)).copy()
    if want.ndim == 4:
        got = got.reshape(want.shape[0], want.shape[3], want.shape[1], want.shape[2]).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(got.reshape(want.shape), want)


def interpreter_steps(data: bytes, xs: np.ndarray) -> np.ndarray:
    """BUILTIN_REF's outputs of one interpreter invoked once per step (its variable state carried)."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    it = Interpreter(model_content=data, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    i, o = it.get_input_details()[0], it.get_output_details()[0]
    ys = []
    for x in xs:
        it.set_tensor(i["index"], x)
        it.invoke()
        ys.append(it.get_tensor(o["index"]).copy())
    return np.stack(ys)


def session_outputs(dev: SerialDevice, runs: dict[int, np.ndarray], node: int, edge: int) -> dict[int, np.ndarray]:
    """Each session's steps interleaved (session id -> its step inputs), step k of every session sent before
    any step k + 1, as a client waits for a step's result; the outputs in step order."""
    by_id: dict[int, np.ndarray] = {}
    seq = 0
    n = min(len(v) for v in runs.values())
    for k in range(n):
        for sid, xs in runs.items():
            seq += 1
            env = Envelope.for_array(xs[k], sender=0, receiver=node, seq=(1 << 32) | seq,
                                     request_id=sid * 1000 + k, edge=edge).in_session(sid, k)
            dev.send(encode(env))
        got = dev.wait_data(len(runs), 30.0)
        assert len(got) == len(runs), dev.errors
        for raw in got:
            e = decode(raw)
            by_id[e.request_id] = e.array().copy()
    return {sid: np.stack([by_id[sid * 1000 + k] for k in range(n)]) for sid in runs}
