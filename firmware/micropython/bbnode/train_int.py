"""The training step in small ints: :class:`IntTrainer`, bbnode/train.py's model and math on bbnode/f32int.py.

Same description (``BBT1``), same API and the same operations in the same order as
:class:`bbnode.train.Trainer`, but every buffer is an ``array('i')`` of f32int encodings and every value is
computed with f32int's int-only float32 arithmetic, so :meth:`IntTrainer.step` allocates nothing at all on
a port with boxed floats (``gc.mem_alloc()`` identical before and after a step with the GC disabled). One
difference in the math: the float trainer accumulates a dot product in a local float (double on the
WebAssembly VM) and rounds it once, this one rounds every product and every partial sum to float32.

Chosen by the ``"arith": "int"`` key of config.json's ``learn`` section (``learn_client.trainer_for``;
``bb-edge build --train-arith int`` writes it),
or by constructing ``IntTrainer(blob, batch)`` instead of ``Trainer(blob, batch)``; ``FedAvgClient`` takes
either. The model goes in and out as float32 (:meth:`IntTrainer.set_params`, :meth:`IntTrainer.params_f32`:
the same wire vector as the float trainer's ``P``). Values must stay within ``[2**-63, 2**64)`` in
magnitude (smaller flush to zero): a model beyond is refused before anything changes (TrainError RANGE), a
step that overflows raises TrainError OVERFLOW. The price is speed: see docs/learning.md.
"""
from array import array

from bbnode.f32int import (ONE, F32Overflow, add, div, dot, exp, from_bytes, from_float, from_int, into_f32, log, mul,
                           sub)
from bbnode.train import DenseModel, TrainError, zeros


def zeros_i(n):
    """A zero-filled ``array('i')`` of ``n`` items."""
    return zeros("i", n)


def encode_f32(src):
    """An ``array('i')`` of the encodings of an ``array('f')`` (at load; allocates per value)."""
    out = zeros_i(len(src))
    for i in range(len(src)):
        out[i] = from_float(src[i])
    return out


class IntTrainer(DenseModel):
    """bbnode.train.Trainer in f32int encodings (see the module docstring); same attributes and methods.

    ``P`` (parameters), ``G``, ``M``, ``X``, ``H``, ``D`` hold encodings (``array('i')``); ``Y`` labels
    (``array('H')``); ``loss`` is an ``array('f')`` cell (written from the encoding's bits, no float made) and
    ``loss_i`` the same value encoded.
    """

    arith = "int"

    def __init__(self, blob, batch=0):
        super().__init__(blob, batch)
        off = self.param_offset
        opt = self.header["optimizer"]
        try:
            # the ONNX program holds the hyper-parameters as float32 constants
            self.hyper = array("i", [from_float(float(opt.get("lr", 0.01))),
                                     from_float(float(opt.get("momentum", 0.0))),
                                     from_float(float(opt.get("weight_decay", 0.0)))])
        except F32Overflow:
            raise TrainError("BAD_OPTIMIZER", "beyond the int mode's range") from None
        self.nesterov = bool(opt.get("nesterov", False))
        self.P = zeros_i(self.size)
        self.Pf = zeros("f", self.size)  # the model as float32 for the wire and the round record
        try:
            for i in range(self.size):
                self.P[i] = from_bytes(blob, off + 4 * i)
        except F32Overflow:
            raise TrainError("RANGE", "a parameter beyond 2**64 or not finite") from None
        self.G = zeros_i(self.size)
        self.M = zeros_i(self.size) if self.hyper[1] > 0 else None
        B = self.batch
        self.X = zeros_i(B * self.n_in)
        self.Y = zeros("H", B)
        self.H = [zeros_i(B * n_out) for (_i, n_out, _r) in self.layers]
        self.D = [zeros_i(B * n_out) for (_i, n_out, _r) in self.layers]
        self.loss = array("f", [0.0])
        self.loss_i = zeros_i(1)  # the same loss as an encoding (a client sums it without making floats)
        self.nbf = zeros_i(1)  # the batch size as an encoding (the mean's divisor)

    # ------------------------------------------------------ model in and out
    def set_params(self, src):
        """Take the model from ``src`` (an ``array('f')`` of finite values): every value is checked first,
        TrainError RANGE (nothing changed) if one is at or beyond 2**64 in magnitude."""
        lim = 1.8446744073709552e19  # 2**64
        for i in range(self.size):
            v = src[i]
            if v >= lim or v <= -lim:
                raise TrainError("RANGE", "parameter %d is %r" % (i, v))
        P = self.P
        for i in range(self.size):
            P[i] = from_float(src[i])

    def params_f32(self):
        """The model as an ``array('f')`` (the wire vector; a buffer kept for this, rewritten per call)."""
        P, Pf = self.P, self.Pf
        for i in range(self.size):
            into_f32(Pf, i, P[i])
        return Pf

    def encode_inputs(self, src):
        """Encodings of input features (an ``array('f')``), for the shard (at load)."""
        return encode_f32(src)

    # ------------------------------------------------------------------ forward
    def _dense(self, li, A, nb):
        """H[li] = A W^T + b for the first ``nb`` rows, then Relu in place if the layer has one."""
        n_in, n_out, relu = self.layers[li]
        wo, bo = self.offsets[li]
        P = self.P
        Z = self.H[li]
        _add = add
        _dot = dot
        for n in range(nb):
            a0 = n * n_in
            z0 = n * n_out
            for j in range(n_out):
                s = _dot(0, A, a0, 1, P, wo + j * n_in, 1, n_in)  # add(s, mul(a, w)) term by term
                s = _add(s, P[bo + j])  # x W^T rounded to float32, then + b (Gemm's C term), rounded again
                if relu and s < 0:
                    s = 0
                Z[z0 + j] = s

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
        nbf = self.nbf[0]
        total = 0
        for n in range(nb):
            z0 = n * C
            m = Z[z0]
            for j in range(1, C):
                if Z[z0 + j] > m:
                    m = Z[z0 + j]
            s = 0
            for j in range(C):
                D[z0 + j] = exp(sub(Z[z0 + j], m))
                s = add(s, D[z0 + j])
            y = Y[n]
            total = add(total, sub(add(m, log(s)), Z[z0 + y]))
            for j in range(C):
                d = div(D[z0 + j], s)
                if j == y:
                    d = sub(d, ONE)
                D[z0 + j] = div(d, nbf)
        total = div(total, nbf)
        self.loss_i[0] = total
        into_f32(self.loss, 0, total)

    # ----------------------------------------------------------------- backward
    def _backward_layer(self, li, A, nb):
        """Gradients of layer ``li``'s W and b into G from D[li] and its input A; D[li-1] if li > 0."""
        n_in, n_out, _r = self.layers[li]
        wo, bo = self.offsets[li]
        G = self.G
        P = self.P
        dZ = self.D[li]
        _add = add
        _dot = dot
        for j in range(n_out):
            w = wo + j * n_in
            for k in range(n_in):
                G[w + k] = _dot(0, dZ, j, n_out, A, k, n_in, nb)  # sum over the batch of dZ[n, j] A[n, k]
            s = 0
            d = j
            for _n in range(nb):
                s = _add(s, dZ[d])
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
                if relu and Hp[a0 + k] <= 0:  # Relu's gradient: zero where the input was not positive
                    dA[a0 + k] = 0
                    continue
                dA[a0 + k] = _dot(0, dZ, d0, 1, P, wo + k, n_in, n_out)  # sum over j of dZ[n, j] W[j, k]

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
        _add = add
        _mul = mul
        if M is None:
            for i in range(self.size):
                g = G[i]
                if wd:
                    g = _add(g, _mul(wd, P[i]))
                g = _mul(lr, g)
                G[i] = g
                P[i] = sub(P[i], g)
            return
        for i in range(self.size):
            g = G[i]
            if wd:
                g = _add(g, _mul(wd, P[i]))
            v = _add(_mul(mu, M[i]), g)
            M[i] = v
            if nest:  # d = g + mu v
                g = _mul(lr, _add(g, _mul(mu, v)))
            else:
                g = _mul(lr, v)
            G[i] = g
            P[i] = sub(P[i], g)

    def step(self, nb):
        """One training step on the first ``nb`` rows of ``X``/``Y`` (1 <= nb <= batch); returns nothing.

        The loss is in ``loss[0]``. Allocates nothing (see the module docstring); TrainError OVERFLOW if
        a value leaves f32int's range (the step's buffers are then partly updated).
        """
        if not 1 <= nb <= self.batch:
            raise TrainError("BAD_BATCH", "%d rows, the buffers hold 1..%d" % (nb, self.batch))
        self.nbf[0] = from_int(nb)
        try:
            self.forward(nb)
            self._softmax_ce(nb)
            self.backward(nb)
            self.sgd()
        except F32Overflow as exc:
            raise TrainError("OVERFLOW", str(exc)) from None
        self.steps += 1

