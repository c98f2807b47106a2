"""Host side of the MicroPython training client (firmware/micropython/bbnode/train.py, learn_client.py).

* :func:`describe` / :func:`export_description`: the ONNX training program of a learning deployment
  (``bb_edge.training.build_training_step``) as the compact ``BBT1`` description the device loads:
  layer sizes, activations, loss, the SGD rule and the parameters in the program's ``ParamLayout`` order.
  Anything the device cannot run (another op, transposes, Adam, FedProx, one-hot labels) is a typed
  :class:`UnsupportedTrainingModel`, at build time.
* :func:`export_shard`: a client's data as the ``BBS1`` file.
* :func:`batch_order`: the device's batch order (xorshift32 Fisher-Yates seeded from seed, node id and
  round), so :func:`reference_update` can run ONNX Runtime on exactly the device's batches: the float
  reference a MicroPython update is compared with.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import helper

from bb_edge.errors import BBError
from bb_edge.training import SoftmaxCrossEntropy, TrainingProgram, make_session
from bb_edge.training.optim import SGD

__all__ = ["UnsupportedTrainingModel", "Layer", "describe", "export_description", "export_shard",
           "shard_ram", "trainer_ram", "round_seed", "batch_order", "reference_update", "MAGIC", "SHARD_MAGIC"]

MAGIC = b"BBT1"
SHARD_MAGIC = b"BBS1"
FORMAT = "bb-edge/train"
VERSION = 1
MAX_DIM = 65535  # layer sizes and shard rows are uint16 on the device (array('H') labels and orders)


class UnsupportedTrainingModel(BBError):
    """The training program has something the MicroPython trainer cannot run; the message says what."""


@dataclass(frozen=True)
class Layer:
    """One dense layer ``y = x W^T + b`` (W: ``out x in``), optionally followed by Relu."""

    n_in: int
    n_out: int
    relu: bool
    weight: str
    bias: str


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def describe(program: TrainingProgram, forward: onnx.ModelProto) -> list[Layer]:
    """The dense layers of ``forward`` (Gemm, optional Relu, ...) checked against ``program``; typed refusals."""
    if not isinstance(program.loss, SoftmaxCrossEntropy) or program.loss.labels != "index":
        raise UnsupportedTrainingModel(f"loss {program.loss!r}: the device trains softmax cross-entropy with "
                                       "integer labels only")
    if not isinstance(program.optimizer, SGD):
        raise UnsupportedTrainingModel(f"optimizer {type(program.optimizer).__name__}: the device runs SGD "
                                       "(momentum, Nesterov and weight decay allowed); use {'kind': 'sgd'}")
    if program.proximal_mu:
        raise UnsupportedTrainingModel("FedProx (proximal_mu > 0) is not supported on the device")
    g = forward.graph
    inits = {t.name: t for t in g.initializer}
    if len(g.input) != 1 or len(program.data_inputs) != 1:
        raise UnsupportedTrainingModel("the device trains models with one input")
    cur = g.input[0].name
    layers: list[Layer] = []
    nodes = list(g.node)
    i = 0
    while i < len(nodes):
        n = nodes[i]
        if n.op_type != "Gemm":
            raise UnsupportedTrainingModel(f"op {n.op_type} ({n.name or n.output[0]}): the device trains chains "
                                           "of Gemm layers with Relu between them")
        a = _attrs(n)
        if a.get("transA", 0) or a.get("transB", 0) != 1 or a.get("alpha", 1.0) != 1.0 or a.get("beta", 1.0) != 1.0:
            raise UnsupportedTrainingModel(f"Gemm {n.name}: needs transA=0, transB=1, alpha=beta=1")
        if len(n.input) != 3 or n.input[0] != cur or n.input[1] not in inits or n.input[2] not in inits:
            raise UnsupportedTrainingModel(f"Gemm {n.name}: needs (previous output, weight, bias) with "
                                           "the weight and bias as initializers")
        w, b = inits[n.input[1]], inits[n.input[2]]
        if len(w.dims) != 2 or list(b.dims) != [w.dims[0]]:
            raise UnsupportedTrainingModel(f"Gemm {n.name}: weight {list(w.dims)}, bias {list(b.dims)}")
        n_out, n_in = int(w.dims[0]), int(w.dims[1])
        if layers and layers[-1].n_out != n_in:
            raise UnsupportedTrainingModel(f"Gemm {n.name}: takes {n_in} inputs, the layer before gives "
                                           f"{layers[-1].n_out}")
        if max(n_in, n_out) > MAX_DIM:
            raise UnsupportedTrainingModel(f"Gemm {n.name}: {n_out}x{n_in} is above the device's {MAX_DIM}")
        cur = n.output[0]
        relu = i + 1 < len(nodes) and nodes[i + 1].op_type == "Relu" and nodes[i + 1].input[0] == cur
        if relu:
            cur = nodes[i + 1].output[0]
            i += 1
        layers.append(Layer(n_in, n_out, relu, n.input[1], n.input[2]))
        i += 1
    if not layers or layers[-1].relu:
        raise UnsupportedTrainingModel("the last layer must be a Gemm giving the logits (no Relu after it)")
    if cur != program.output:
        raise UnsupportedTrainingModel(f"the chain ends at {cur!r}, the program trains {program.output!r}")
    order = tuple(name for L in layers for name in (L.weight, L.bias))
    if order != program.layout.names:
        raise UnsupportedTrainingModel(f"parameter order {program.layout.names} is not the layer order {order}")
    return layers


def export_description(program: TrainingProgram, forward: onnx.ModelProto, vector: np.ndarray | None = None, *,
                       batch_size: int = 16, epochs: int = 1, seed: int = 0) -> bytes:
    """The ``BBT1`` description (see bbnode/train.py) with ``vector`` (default: the program's initial
    parameters) as the starting model."""
    layers = describe(program, forward)
    opt = program.optimizer
    assert isinstance(opt, SGD)
    vec = program.layout.flatten(program.initial_params) if vector is None else np.asarray(vector, np.float32)
    if vec.shape != (program.layout.size,):
        raise UnsupportedTrainingModel(f"model vector of shape {vec.shape}, the program has {program.layout.size}")
    if not 1 <= int(batch_size) <= MAX_DIM:
        raise UnsupportedTrainingModel(f"batch size {batch_size} not in 1..{MAX_DIM}")
    header = {"format": FORMAT, "version": VERSION,
              "layers": [{"in": L.n_in, "out": L.n_out, "act": "relu" if L.relu else None} for L in layers],
              "loss": "softmax_cross_entropy",
              "optimizer": {"kind": "sgd", "lr": opt.lr, "momentum": opt.momentum, "nesterov": opt.nesterov,
                            "weight_decay": opt.weight_decay},
              "params": list(program.layout.names), "size": int(program.layout.size),
              "batch_size": int(batch_size), "epochs": int(epochs), "seed": int(seed)}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    return MAGIC + struct.pack("<I", len(text)) + text + vec.astype("<f4").tobytes()


def export_shard(x: np.ndarray, y: np.ndarray) -> bytes:
    """A client's data as ``BBS1`` (bbnode/learn_client.py): features with at most 256 distinct values
    (digits has 60) as uint8 codes into a float32[256] table (exact, about a quarter of the device RAM),
    else float32; uint16 labels."""
    x = np.asarray(x, np.float32).reshape(len(x), -1)
    y = np.asarray(y)
    if len(y) != len(x) or not 1 <= len(x) <= MAX_DIM or not 1 <= x.shape[1] <= MAX_DIM:
        raise UnsupportedTrainingModel(f"shard of {x.shape} rows and {len(y)} labels (1..{MAX_DIM} rows)")
    if y.dtype.kind not in "iu" or (y < 0).any() or (y > MAX_DIM).any():
        raise UnsupportedTrainingModel("shard labels must be integers in 0..65535")
    values, codes = np.unique(x, return_inverse=True)
    coded = len(values) <= 256
    if coded:
        table = np.zeros(256, np.float32)
        table[:len(values)] = values
        feats = table.astype("<f4").tobytes() + codes.reshape(-1).astype(np.uint8).tobytes()
    else:
        feats = x.astype("<f4").tobytes()
    return (SHARD_MAGIC + struct.pack("<IHBB", x.shape[0], x.shape[1], 1 if coded else 0, 0) + feats
            + y.astype("<u2").tobytes())


def shard_ram(n: int, n_in: int, small: bool) -> int:
    """Device bytes of a loaded shard (features + labels)."""
    return (n * n_in + 1024 if small else 4 * n * n_in) + 2 * n


def trainer_ram(layers: Sequence[Layer], batch_size: int, momentum: bool) -> int:
    """Device bytes of the trainer's buffers (bbnode/train.py): P, G, M, the round's start model, X, Y and
    per layer an output and its gradient."""
    size = sum(L.n_in * L.n_out + L.n_out for L in layers)
    acts = sum(L.n_out for L in layers)
    return 4 * size * (3 + int(momentum)) + 4 * batch_size * (layers[0].n_in + 2 * acts) + 2 * batch_size


def round_seed(seed: int, node_id: int, rnd: int) -> int:
    """bbnode.learn_client.round_seed: the xorshift32 state of round ``rnd`` on node ``node_id``."""
    s = (seed * 0x9E3779B1 + node_id * 0x85EBCA77 + rnd * 0xC2B2AE3D + 0x27D4EB2F) & 0xFFFFFFFF
    return s or 1


def _shuffle(n: int, state: int) -> tuple[list[int], int]:
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        j = state % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order, state


def batch_order(n: int, *, batch_size: int, epochs: int, seed: int, node_id: int, rnd: int) -> list[np.ndarray]:
    """The index batches the device trains on in round ``rnd`` (``epochs`` shuffles of ``range(n)``)."""
    state = round_seed(seed, node_id, rnd)
    out: list[np.ndarray] = []
    for _ in range(epochs):
        order, state = _shuffle(n, state)
        out += [np.asarray(order[i:i + batch_size]) for i in range(0, n, batch_size)]
    return out


def reference_update(program: TrainingProgram, start: np.ndarray, x: np.ndarray, y: np.ndarray,
                     batches: Sequence[np.ndarray], session: Any = None) -> tuple[np.ndarray, list[float]]:
    """ONNX Runtime running ``program`` from ``start`` (fresh optimizer state) over ``batches``: the trained
    vector and the losses. The float reference for a device's round."""
    sess = session if session is not None else make_session(program.model, "ort")
    layout = program.layout
    params = layout.unflatten(np.asarray(start, np.float32))
    state = program.initial_state()
    data = program.data_inputs[0].name
    outs = ["loss", *program.param_outputs, *program.state_outputs]
    losses: list[float] = []
    for idx in batches:
        feeds: dict[str, np.ndarray] = {data: np.asarray(x[idx], np.float32), "labels": np.asarray(y[idx], np.int64)}
        feeds.update(params)
        feeds.update({"opt/" + k: v for k, v in state.items()})
        res = dict(zip(outs, sess.run(outs, feeds), strict=True))
        losses.append(float(res["loss"]))
        params = {s.name: np.asarray(res["next/" + s.name]) for s in program.params}
        state = {s.name[len("opt/"):]: np.asarray(res["next/" + s.name]) for s in program.state}
    return layout.flatten(params), losses
