"""On-device training: forward, backward and SGD for a chain of dense layers with softmax cross-entropy.

The model comes as a *training description* (``BBT1``), the compact export of bb-edge's ONNX training
program (``bb_edge.mpy.train.export_description``): layer sizes, activations, the optimizer and the
initial parameters. Covered: Gemm (``y = x W^T + b``) layers with an optional Relu between them, e.g.
softmax regression 64->10 or the MLP 64-32-10; loss = mean softmax cross-entropy over the batch (integer
labels), optimizer SGD with optional (Nesterov) momentum and weight decay -- the rules of
bb_edge/learn/optim.py.

File layout (little-endian)::

    b"BBT1"  u32 header_len  header (JSON, space-padded to a multiple of 4)  float32[size] parameters

The parameters are one flat float32 vector in the ONNX program's ``ParamLayout`` order (``fc0.weight``
(out x in, row-major), ``fc0.bias``, ``fc1.weight``, ...): the same vector FedAvg sends as one envelope,
so a model from the server is copied in with no reordering.

Memory: every buffer (parameters, gradients, momentum, per-layer activations and their gradients, the
batch and its labels) is an ``array`` allocated by :class:`Trainer` at load; :meth:`Trainer.step` creates
no buffer, list, slice or tuple. Every stored value goes through an ``array('f')`` cell, i.e. is rounded
to float32 like ONNX Runtime's tensors; sums are accumulated in a local float (double on the WebAssembly
VM, float on an ESP32) before they are stored. On ports with boxed floats (MICROPY_OBJ_REPR_A: the ESP32
and the WebAssembly VM) each float *result* is still a transient heap object; nothing is retained.
"""
import json
import math
import struct
from array import array

MAGIC = b"BBT1"
FORMAT = "bb-edge/train"
VERSION = 1


def zeros(typecode, n):
    """A zero-filled ``array`` of ``n`` items (MicroPython copies a bytearray initializer byte for byte)."""
    try:
        return array(typecode, [0]) * n  # CPython (the node's code also runs there in the MQTT tests)
    except TypeError:
        return array(typecode, bytearray(n * struct.calcsize(typecode)))


def f32_from(buf):
    """An ``array('f')`` holding the little-endian float32 bytes of ``buf``."""
    a = array("f")
    if hasattr(a, "frombytes"):  # CPython
        a.frombytes(bytes(buf))
        return a
    return array("f", bytearray(buf))  # MicroPython: a bytearray initializer is copied as raw bytes


class TrainError(ValueError):
    """A description or input the trainer refuses; ``code`` names the rule (BAD_MAGIC, BAD_LAYERS, ...)."""

    def __init__(self, code, detail=""):
        super().__init__(code + (": " + detail if detail else ""))
        self.code = code


def parse(blob):
    """(header dict, offset of the float32 parameters) of a ``BBT1`` description; TrainError if malformed."""
    if len(blob) < 8 or bytes(blob[:4]) != MAGIC:
        raise TrainError("BAD_MAGIC")
    hlen = struct.unpack_from("<I", blob, 4)[0]
    if hlen % 4 or 8 + hlen > len(blob):
        raise TrainError("TRUNCATED", "header")
    try:
        hdr = json.loads(bytes(blob[8:8 + hlen]))
    except ValueError:
        raise TrainError("BAD_HEADER", "not JSON") from None
    if not isinstance(hdr, dict) or hdr.get("format") != FORMAT or hdr.get("version") != VERSION:
        raise TrainError("BAD_VERSION", "want %s v%d" % (FORMAT, VERSION))
    layers = hdr.get("layers")
    if not isinstance(layers, list) or not layers:
        raise TrainError("BAD_LAYERS")
    size = 0
    prev = None
    for i, L in enumerate(layers):
        n_in, n_out, act = L.get("in"), L.get("out"), L.get("act")
        if not isinstance(n_in, int) or not isinstance(n_out, int) or not 0 < n_in <= 65535 or \
                not 0 < n_out <= 65535:
            raise TrainError("BAD_LAYERS", "layer %d sizes" % i)
        if prev is not None and prev != n_in:
            raise TrainError("BAD_LAYERS", "layer %d takes %d inputs, layer %d gives %d" % (i, n_in, i - 1, prev))
        if act not in (None, "relu") or (act == "relu" and i == len(layers) - 1):
            raise TrainError("BAD_LAYERS", "layer %d activation %r" % (i, act))
        prev = n_out
        size += n_in * n_out + n_out
    if hdr.get("size") != size:
        raise TrainError("BAD_LAYERS", "size %r, layers give %d" % (hdr.get("size"), size))
    if hdr.get("loss") != "softmax_cross_entropy":
        raise TrainError("BAD_LOSS", str(hdr.get("loss")))
    opt = hdr.get("optimizer")
    if not isinstance(opt, dict) or opt.get("kind") != "sgd":
        raise TrainError("BAD_OPTIMIZER", "only sgd")
    for k in ("lr", "momentum", "weight_decay"):
        v = opt.get(k, 0.0)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0.0 <= v < 1e6:
            raise TrainError("BAD_OPTIMIZER", "%s %r" % (k, v))
    b = hdr.get("batch_size", 16)
    if not isinstance(b, int) or not 1 <= b <= 65535:
        raise TrainError("BAD_HEADER", "batch_size %r" % (b,))
    off = 8 + hlen
    if len(blob) != off + 4 * size:
        raise TrainError("TRUNCATED", "parameters: %d bytes, want %d" % (len(blob) - off, 4 * size))
    return hdr, off


class DenseModel:
    """What both trainers take from a description before they allocate: the header, the layer shapes
    ``(in, out, relu)``, the parameter count, the batch (1..65535) and each layer's ``(weight, bias)``
    offsets in the parameter vector; ``param_offset`` is where the float32 parameters start in the blob.
    """

    def __init__(self, blob, batch=0):
        hdr, off = parse(blob)
        self.header = hdr
        self.param_offset = off
        self.layers = [(L["in"], L["out"], L.get("act") == "relu") for L in hdr["layers"]]
        self.size = hdr["size"]
        self.n_in = self.layers[0][0]
        self.n_classes = self.layers[-1][1]
        self.batch = batch or hdr.get("batch_size", 16)
        if not 1 <= self.batch <= 65535:
            raise TrainError("BAD_BATCH", str(self.batch))
        self.offsets = []
        o = 0
        for (n_in, n_out, _r) in self.layers:
            self.offsets.append((o, o + n_in * n_out))
            o += n_in * n_out + n_out
        self.steps = 0

    def reset_optimizer(self):
        """Zero the momentum (FedAvg clients start every round from a fresh optimizer state)."""
        M = self.M
        if M is not None:
            for i in range(self.size):
                M[i] = 0  # an int: stored as 0.0 in an array('f'), as the encoding of 0 in an array('i')


class Trainer(DenseModel):
    """A dense-layer model with its training step, every buffer allocated here (see the module docstring).

    ``batch`` is the largest batch :meth:`step` takes (default: the description's ``batch_size``).
    Public buffers: ``P`` (parameters, the wire vector), ``G`` (gradients), ``M`` (momentum or None),
    ``X`` (batch inputs, row-major ``batch x n_in``), ``Y`` (labels), ``loss`` (1 cell).
    """

    arith = "float"

    def __init__(self, blob, batch=0):
        super().__init__(blob, batch)
        off = self.param_offset
        opt = self.header["optimizer"]
        # hyper-parameters as float32 cells: the ONNX program holds them as float32 constants
        self.hyper = array("f", [float(opt.get("lr", 0.01)), float(opt.get("momentum", 0.0)),
                                 float(opt.get("weight_decay", 0.0))])
        self.nesterov = bool(opt.get("nesterov", False))
        self.P = f32_from(memoryview(blob)[off:off + 4 * self.size])
        self.G = zeros("f", self.size)
        self.M = zeros("f", self.size) if self.hyper[1] > 0 else None
        B = self.batch
        self.X = zeros("f", B * self.n_in)
        self.Y = zeros("H", B)
        # per layer: output (pre-activation, Relu applied in place; the last layer's logits) and its gradient
        self.H = [zeros("f", B * n_out) for (_i, n_out, _r) in self.layers]
        self.D = [zeros("f", B * n_out) for (_i, n_out, _r) in self.layers]
        self.loss = array("f", [0.0])

    def set_params(self, src):
        """Take the model from ``src`` (an ``array('f')`` the client has checked: float32, finite)."""
        P = self.P
        for i in range(self.size):
            P[i] = src[i]

    def params_f32(self):
        """The model as an ``array('f')``: ``P`` itself (the wire vector)."""
        return self.P

    def encode_inputs(self, src):
        """Input features as this trainer holds them: float32 as they are."""
        return src

    # ------------------------------------------------------------------ forward
    def _dense(self, li, A, nb):
        """H[li] = A W^T + b for the first ``nb`` rows, then Relu in place if the layer has one."""
        n_in, n_out, relu = self.layers[li]
        wo, bo = self.offsets[li]
        P = self.P
        Z = self.H[li]
        for n in range(nb):
            a0 = n * n_in
            z0 = n * n_out
            for j in range(n_out):
                w = wo + j * n_in
                s = 0.0
                for k in range(n_in):
                    s += A[a0 + k] * P[w + k]
                Z[z0 + j] = s  # x W^T rounded to float32, then + b (Gemm's C term), rounded again
                Z[z0 + j] = Z[z0 + j] + P[bo + j]
                if relu and Z[z0 + j] < 0.0:
                    Z[z0 + j] = 0.0

    def forward(self, nb):
        """Logits of the first ``nb`` rows of ``X`` in ``H[-1]``."""
        A = self.X
        for li in range(len(self.layers)):
            self._dense(li, A, nb)
            A = self.H[li]

    def _softmax_ce(self, nb):
        """Mean cross-entropy of the logits into ``loss``; its gradient (softmax - onehot) / nb into ``D[-1]``."""
        C = self.n_classes
        Z = self.H[-1]
        D = self.D[-1]
        Y = self.Y
        exp = math.exp
        total = 0.0
        for n in range(nb):
            z0 = n * C
            m = Z[z0]
            for j in range(1, C):
                if Z[z0 + j] > m:
                    m = Z[z0 + j]
            s = 0.0
            for j in range(C):
                D[z0 + j] = exp(Z[z0 + j] - m)
                s += D[z0 + j]
            y = Y[n]
            total += m + math.log(s) - Z[z0 + y]
            for j in range(C):
                D[z0 + j] = D[z0 + j] / s
                if j == y:
                    D[z0 + j] = D[z0 + j] - 1.0
                D[z0 + j] = D[z0 + j] / nb
        self.loss[0] = total / nb

    # ----------------------------------------------------------------- backward
    def _backward_layer(self, li, A, nb):
        """Gradients of layer ``li``'s W and b into G from D[li] and its input A; D[li-1] if li > 0."""
        n_in, n_out, _r = self.layers[li]
        wo, bo = self.offsets[li]
        G = self.G
        P = self.P
        dZ = self.D[li]
        for j in range(n_out):
            w = wo + j * n_in
            for k in range(n_in):
                s = 0.0
                a = k
                d = j
                for _n in range(nb):
                    s += dZ[d] * A[a]
                    a += n_in
                    d += n_out
                G[w + k] = s
            s = 0.0
            d = j
            for _n in range(nb):
                s += dZ[d]
                d += n_out
            G[bo + j] = s
        if li == 0:
            return
        dA = self.D[li - 1]
        Hp = self.H[li - 1]
        relu = self.layers[li - 1][2]
        for n in range(nb):
            d0 = n * n_out
            a0 = n * n_in
            for k in range(n_in):
                if relu and Hp[a0 + k] <= 0.0:  # Relu's gradient: zero where the input was not positive
                    dA[a0 + k] = 0.0
                    continue
                s = 0.0
                w = wo + k
                for j in range(n_out):
                    s += dZ[d0 + j] * P[w]
                    w += n_in
                dA[a0 + k] = s

    def backward(self, nb):
        """Every parameter's gradient of the mean loss into ``G``."""
        for li in range(len(self.layers) - 1, -1, -1):
            self._backward_layer(li, self.X if li == 0 else self.H[li - 1], nb)

    def sgd(self):
        """One SGD step on ``P`` (bb_edge/learn/optim.py: ``v = mu v + g``; ``p -= lr * (g + mu v | v)``)."""
        P, G, M = self.P, self.G, self.M
        h = self.hyper
        lr, mu, wd = h[0], h[1], h[2]
        nest = self.nesterov
        if M is None:
            for i in range(self.size):
                if wd:
                    G[i] = G[i] + wd * P[i]
                G[i] = lr * G[i]
                P[i] = P[i] - G[i]
            return
        for i in range(self.size):
            if wd:
                G[i] = G[i] + wd * P[i]
            M[i] = mu * M[i]
            M[i] = M[i] + G[i]
            if nest:  # d = g + mu v
                G[i] = G[i] + mu * M[i]
                G[i] = lr * G[i]
            else:
                G[i] = lr * M[i]
            P[i] = P[i] - G[i]

    def step(self, nb):
        """One training step on the first ``nb`` rows of ``X``/``Y`` (1 <= nb <= batch); returns nothing.

        The loss is in ``loss[0]``. Allocates no buffer (see the module docstring).
        """
        if not 1 <= nb <= self.batch:
            raise TrainError("BAD_BATCH", "%d rows, the buffers hold 1..%d" % (nb, self.batch))
        self.forward(nb)
        self._softmax_ce(nb)
        self.backward(nb)
        self.sgd()
        self.steps += 1
