"""More ONNX ops for the ONNX->torch converter: recurrent layers, Resize, ConvTranspose, element-wise extras.

Kept apart from :mod:`bb_edge.convert.onnx_torch` (the interpreter and the basic ops) to keep each file
short. Every function takes the node's inputs (torch tensors, or numpy arrays for the inputs the
converter reads at conversion time) and attributes, and returns the node's outputs. Shapes are static
at export, so index tables (Resize) and time loops (LSTM/GRU/RNN, unrolled) are built in numpy/Python.

Why one file: one op table (:data:`EXTRA`) and the list of inputs read as constants that must match it
(:data:`STATIC_INPUTS`); each op is a few self-contained lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from bb_edge.errors import UnsupportedOpError

Tensor = torch.Tensor
OpFn = Callable[[list[Any], dict[str, Any]], list[Tensor]]


# ---- recurrent layers (LSTM, GRU, RNN) -------------------------------------------------------------

def _activation(name: str, alpha: float | None, beta: float | None) -> Callable[[Tensor], Tensor]:
    n = name.lower()
    if n == "sigmoid":
        return torch.sigmoid
    if n == "tanh":
        return torch.tanh
    if n == "relu":
        return torch.relu
    if n == "hardsigmoid":
        a, b = alpha if alpha is not None else 0.2, beta if beta is not None else 0.5
        return lambda t: torch.clamp(a * t + b, 0, 1)
    if n == "leakyrelu":
        return lambda t: F.leaky_relu(t, alpha if alpha is not None else 0.01)
    if n == "affine":
        a, b = alpha if alpha is not None else 1.0, beta if beta is not None else 0.0
        return lambda t: a * t + b
    if n == "scaledtanh":
        a, b = alpha if alpha is not None else 1.0, beta if beta is not None else 1.0
        return lambda t: a * torch.tanh(b * t)
    if n == "thresholdedrelu":
        a = alpha if alpha is not None else 1.0
        return lambda t: torch.where(t > a, t, torch.zeros_like(t))
    if n == "elu":
        return lambda t: F.elu(t, alpha if alpha is not None else 1.0)
    if n == "softsign":
        return lambda t: t / (1 + torch.abs(t))
    if n == "softplus":
        return F.softplus
    raise UnsupportedOpError(f"recurrent activation {name} is not supported by the torch converter")


def _acts(a: dict[str, Any], per_dir: int, dirs: int, default: list[str]) -> list[list[Callable[[Tensor], Tensor]]]:
    names = [str(s) for s in a.get("activations", default * dirs)]
    if len(names) == per_dir:  # one set given for a bidirectional layer
        names = names * dirs
    al = list(a.get("activation_alpha", []))
    be = list(a.get("activation_beta", []))
    fns = [_activation(n, al[i] if i < len(al) else None, be[i] if i < len(be) else None)
           for i, n in enumerate(names)]
    return [fns[d * per_dir:(d + 1) * per_dir] for d in range(dirs)]


def _rnn_setup(x: list[Any], a: dict[str, Any], gates: int) -> tuple[Any, ...]:
    X = x[0]
    layout = int(a.get("layout", 0))
    if layout:
        X = X.transpose(0, 1)
    seq, batch = int(X.shape[0]), int(X.shape[1])
    W, R = x[1], x[2]
    dirs = int(W.shape[0])
    hidden = int(a.get("hidden_size", R.shape[-1]))
    B = x[3] if len(x) > 3 and x[3] is not None else None
    lens = x[4] if len(x) > 4 and x[4] is not None else None
    if lens is not None:
        lens = np.asarray(lens).reshape(-1)
        if (lens == seq).all():
            lens = None
        elif a.get("direction", "forward") != "forward":
            raise UnsupportedOpError("recurrent layer with unequal sequence_lens and a reverse direction is "
                                     "not supported by the torch converter")
    direction = str(a.get("direction", "forward"))
    clip = a.get("clip")
    del gates
    return X, layout, seq, batch, W, R, dirs, hidden, B, lens, direction, clip


def _state(x: list[Any], i: int, dirs: int, batch: int, hidden: int, like: Tensor, layout: int) -> Tensor:
    if len(x) > i and x[i] is not None:
        s = x[i]
        return s.transpose(0, 1) if layout else s
    return torch.zeros(dirs, batch, hidden, dtype=like.dtype)


def _steps(seq: int, d: int, direction: str) -> list[int]:
    rev = direction == "reverse" or (direction == "bidirectional" and d == 1)
    return list(reversed(range(seq))) if rev else list(range(seq))


def _masked(t: int, lens: np.ndarray | None, new: Tensor, old: Tensor) -> Tensor:
    if lens is None:
        return new
    m = torch.from_numpy((t < lens).reshape(-1, 1))
    return torch.where(m, new, old)


def _rnn_outputs(ys: list[list[Tensor]], hs: list[Tensor], cs: list[Tensor] | None, layout: int,
                 seq: int, lens: np.ndarray | None) -> list[Tensor]:
    Y = torch.stack([torch.stack(y, 0) for y in ys], 1)  # [seq, dirs, batch, hidden]
    if lens is not None:
        mask = torch.from_numpy((np.arange(seq)[:, None] < lens[None, :])[:, None, :, None])
        Y = torch.where(mask, Y, torch.zeros_like(Y))
    Yh = torch.stack(hs, 0)
    out = [Y.permute(2, 0, 1, 3) if layout else Y, Yh.transpose(0, 1) if layout else Yh]
    if cs is not None:
        Yc = torch.stack(cs, 0)
        out.append(Yc.transpose(0, 1) if layout else Yc)
    return out


def _clipped(v: Tensor, clip: Any) -> Tensor:
    return torch.clamp(v, -float(clip), float(clip)) if clip is not None else v


def lstm(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX LSTM (gates i, o, f, c; peepholes, clip, input_forget, layout, sequence_lens)."""
    X, layout, seq, batch, W, R, dirs, H, B, lens, direction, clip = _rnn_setup(x, a, 4)
    h0 = _state(x, 5, dirs, batch, H, X, layout)
    c0 = _state(x, 6, dirs, batch, H, X, layout)
    P = x[7] if len(x) > 7 and x[7] is not None else None
    acts = _acts(a, 3, dirs, ["Sigmoid", "Tanh", "Tanh"])
    coupled = bool(a.get("input_forget", 0))
    ys, hs, cs = [], [], []
    for d in range(dirs):
        f_, g_, h_ = acts[d]
        xw = torch.matmul(X, W[d].transpose(0, 1))  # [seq, batch, 4H]
        if B is not None:
            xw = xw + B[d][:4 * H] + B[d][4 * H:]
        h, c = h0[d], c0[d]
        y: list[Tensor] = [torch.zeros(0)] * seq
        for t in _steps(seq, d, direction):
            g = xw[t] + torch.matmul(h, R[d].transpose(0, 1))
            gi, go, gf, gc = g[:, :H], g[:, H:2 * H], g[:, 2 * H:3 * H], g[:, 3 * H:]
            if P is not None:
                gi = gi + P[d][:H] * c
                gf = gf + P[d][2 * H:] * c
            i = f_(_clipped(gi, clip))
            f = 1 - i if coupled else f_(_clipped(gf, clip))
            cn = f * c + i * g_(_clipped(gc, clip))
            if P is not None:
                go = go + P[d][H:2 * H] * cn
            o = f_(_clipped(go, clip))
            hn = o * h_(cn)
            h, c = _masked(t, lens, hn, h), _masked(t, lens, cn, c)
            y[t] = h
        ys.append(y)
        hs.append(h)
        cs.append(c)
    return _rnn_outputs(ys, hs, cs, layout, seq, lens)


def gru(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX GRU (gates z, r, h; linear_before_reset, clip, layout, sequence_lens)."""
    X, layout, seq, batch, W, R, dirs, H, B, lens, direction, clip = _rnn_setup(x, a, 3)
    h0 = _state(x, 5, dirs, batch, H, X, layout)
    acts = _acts(a, 2, dirs, ["Sigmoid", "Tanh"])
    lbr = bool(a.get("linear_before_reset", 0))
    ys, hs = [], []
    for d in range(dirs):
        f_, g_ = acts[d]
        xw = torch.matmul(X, W[d].transpose(0, 1))  # [seq, batch, 3H]
        wb = B[d][:3 * H] if B is not None else None
        rb = B[d][3 * H:] if B is not None else None
        if wb is not None:
            xw = xw + wb
        Rz, Rr, Rh = R[d][:H], R[d][H:2 * H], R[d][2 * H:]
        h = h0[d]
        y: list[Tensor] = [torch.zeros(0)] * seq
        for t in _steps(seq, d, direction):
            xz, xr, xh = xw[t][:, :H], xw[t][:, H:2 * H], xw[t][:, 2 * H:]
            hz = torch.matmul(h, Rz.transpose(0, 1))
            hr = torch.matmul(h, Rr.transpose(0, 1))
            if rb is not None:
                hz, hr = hz + rb[:H], hr + rb[H:2 * H]
            z = f_(_clipped(xz + hz, clip))
            r = f_(_clipped(xr + hr, clip))
            if lbr:
                hh = torch.matmul(h, Rh.transpose(0, 1))
                if rb is not None:
                    hh = hh + rb[2 * H:]
                n = g_(_clipped(xh + r * hh, clip))
            else:
                hh = torch.matmul(r * h, Rh.transpose(0, 1))
                if rb is not None:
                    hh = hh + rb[2 * H:]
                n = g_(_clipped(xh + hh, clip))
            hn = (1 - z) * n + z * h
            h = _masked(t, lens, hn, h)
            y[t] = h
        ys.append(y)
        hs.append(h)
    return _rnn_outputs(ys, hs, None, layout, seq, lens)


def rnn(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX RNN (one activation, default Tanh)."""
    X, layout, seq, batch, W, R, dirs, H, B, lens, direction, clip = _rnn_setup(x, a, 1)
    h0 = _state(x, 5, dirs, batch, H, X, layout)
    acts = _acts(a, 1, dirs, ["Tanh"])
    ys, hs = [], []
    for d in range(dirs):
        xw = torch.matmul(X, W[d].transpose(0, 1))
        if B is not None:
            xw = xw + B[d][:H] + B[d][H:]
        h = h0[d]
        y: list[Tensor] = [torch.zeros(0)] * seq
        for t in _steps(seq, d, direction):
            hn = acts[d][0](_clipped(xw[t] + torch.matmul(h, R[d].transpose(0, 1)), clip))
            h = _masked(t, lens, hn, h)
            y[t] = h
        ys.append(y)
        hs.append(h)
    return _rnn_outputs(ys, hs, None, layout, seq, lens)


# ---- Resize ---------------------------------------------------------------------------------------

def _resize_plan(shape: list[int], a: dict[str, Any], roi: Any, scales: Any, sizes: Any
                 ) -> tuple[list[float], list[int], list[int], list[float] | None]:
    """(scale per dim, output size per dim, resized axes, roi over all dims or None), as onnx's reference."""
    r = len(shape)
    axes = [int(v) % r for v in a["axes"]] if "axes" in a else list(range(r))
    roi_l = None if roi is None or np.size(roi) == 0 else [float(v) for v in np.asarray(roi).reshape(-1)]
    sc = None if scales is None or np.size(scales) == 0 else [float(v) for v in np.asarray(scales).reshape(-1)]
    sz = None if sizes is None or np.size(sizes) == 0 else [int(v) for v in np.asarray(sizes).reshape(-1)]
    if sc is None and sz is None:
        raise UnsupportedOpError("Resize needs scales or sizes")
    if "axes" in a:
        if sc is not None:
            full = [1.0] * r
            for i, d in enumerate(axes):
                full[d] = sc[i]
            sc = full
        if sz is not None:
            fs = list(shape)
            for i, d in enumerate(axes):
                fs[d] = sz[i]
            sz = fs
        if roi_l is not None:
            nr = [0.0] * r + [1.0] * r
            for i, d in enumerate(axes):
                nr[d], nr[r + d] = roi_l[i], roi_l[len(axes) + i]
            roi_l = nr
    if sz is not None:
        sc = [sz[i] / shape[i] for i in range(r)]
        policy = a.get("keep_aspect_ratio_policy", "stretch")
        if policy != "stretch":
            pick = min if policy == "not_larger" else max
            s = pick(sc[i] for i in axes)
            sc = [s if i in axes else 1.0 for i in range(r)]
            sz = [int(s * shape[i] + 0.5) if i in axes else shape[i] for i in range(r)]
    else:
        assert sc is not None
        sz = [int(v) for v in (np.array(sc) * np.array(shape)).astype(int)]
    return sc, sz, axes, roi_l


def _resize_matrix(n_in: int, scale: float, n_out: int, a: dict[str, Any], roi: list[float] | None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(M [n_out, n_in], bias [n_out]) with resize_1d(v) == M @ v + bias (onnx reference semantics)."""
    from onnx.reference.ops import op_resize as ref

    mode = a.get("mode", "nearest")
    anti = bool(a.get("antialias", 0))
    if mode == "nearest":
        nm = a.get("nearest_mode", "round_prefer_floor")

        def fct(x: float, s: float) -> np.ndarray:
            return ref._nearest_coeffs(x, mode=nm)  # type: ignore[no-any-return]
    elif mode == "linear":
        fct = ref._linear_coeffs_antialias if anti else ref._linear_coeffs  # type: ignore[assignment]
    elif mode == "cubic":
        ca = float(a.get("cubic_coeff_a", -0.75))
        cf = ref._cubic_coeffs_antialias if anti else ref._cubic_coeffs

        def fct(x: float, s: float) -> np.ndarray:
            return cf(x, s, A=ca)  # type: ignore[no-any-return]
    else:
        raise UnsupportedOpError(f"Resize mode={mode} is not supported by the torch converter")
    kw = {"roi": roi, "coordinate_transformation_mode": a.get("coordinate_transformation_mode", "half_pixel"),
          "exclude_outside": bool(a.get("exclude_outside", 0))}
    M = ref._interpolate_1d_along_axis(np.eye(n_in), 0, scale, n_out, fct, extrapolation_value=0.0, **kw)
    b = ref._interpolate_1d_along_axis(np.zeros((n_in, 1)), 0, scale, n_out, fct,
                                       extrapolation_value=float(a.get("extrapolation_value", 0.0)), **kw)
    return np.asarray(M, np.float64), np.asarray(b, np.float64).reshape(-1)


def resize(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX Resize / Upsample: separable per-axis index tables (nearest) or interpolation matrices."""
    t = x[0]
    shape = [int(s) for s in t.shape]
    if len(x) == 2:  # Resize-10 / Upsample: (X, scales)
        roi, scales, sizes = None, x[1], None
    else:
        roi = x[1] if len(x) > 1 else None
        scales = x[2] if len(x) > 2 else None
        sizes = x[3] if len(x) > 3 else None
    sc, sz, axes, roi_l = _resize_plan(shape, a, roi, scales, sizes)
    r = len(shape)
    out = t
    for ax in axes:
        same_roi = roi_l is None or (math.isclose(roi_l[ax], 0.0) and math.isclose(roi_l[ax + r], 1.0))
        if math.isclose(sc[ax], 1.0) and sz[ax] == shape[ax] and same_roi:
            continue
        M, b = _resize_matrix(shape[ax], sc[ax], sz[ax], a, None if roi_l is None else [roi_l[ax], roi_l[ax + r]])
        onehot = (np.count_nonzero(M, axis=1) == 1) & np.isclose(M.max(axis=1), 1.0) & (b == 0)
        if onehot.all():
            out = torch.index_select(out, ax, torch.from_numpy(M.argmax(axis=1).astype(np.int64)))
            continue
        if not out.dtype.is_floating_point:
            raise UnsupportedOpError(f"Resize mode={a.get('mode')} on {out.dtype} is not supported by the "
                                     "torch converter")
        moved = out.movedim(ax, -1)
        # contiguous: a transposed numpy constant becomes a dim_order ExecuTorch cannot map
        res = torch.matmul(moved, torch.from_numpy(np.ascontiguousarray(M.T, np.float32)).to(out.dtype))
        if b.any():
            res = res + torch.from_numpy(np.ascontiguousarray(b, np.float32)).to(out.dtype)
        out = res.movedim(-1, ax)
    return [out]


# ---- ConvTranspose --------------------------------------------------------------------------------

def conv_transpose(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX ConvTranspose (pads, auto_pad, output_padding, output_shape, groups, dilations)."""
    X, W = x[0], x[1]
    rank = W.dim() - 2
    ins = [int(s) for s in X.shape[2:]]
    k = [int(s) for s in a.get("kernel_shape", W.shape[2:])]
    st = [int(s) for s in a.get("strides", [1] * rank)]
    dil = [int(s) for s in a.get("dilations", [1] * rank)]
    op = [int(s) for s in a.get("output_padding", [0] * rank)]
    full = [st[i] * (ins[i] - 1) + (k[i] - 1) * dil[i] + 1 for i in range(rank)]
    auto = a.get("auto_pad", "NOTSET")
    if "output_shape" in a:
        outs = [int(s) for s in a["output_shape"]][-rank:]
        total = [full[i] + op[i] - outs[i] for i in range(rank)]
        if auto == "SAME_UPPER":
            begin = [tp // 2 for tp in total]
        else:
            begin = [tp - tp // 2 for tp in total]
    elif auto in ("SAME_UPPER", "SAME_LOWER"):
        outs = [ins[i] * st[i] for i in range(rank)]
        total = [full[i] + op[i] - outs[i] for i in range(rank)]
        begin = [tp // 2 if auto == "SAME_UPPER" else tp - tp // 2 for tp in total]
    else:
        pads = [int(p) for p in a.get("pads", [0] * 2 * rank)] if auto == "NOTSET" else [0] * 2 * rank
        begin = pads[:rank]
        outs = [full[i] + op[i] - pads[i] - pads[rank + i] for i in range(rank)]
    fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}.get(rank)
    if fn is None:
        raise UnsupportedOpError(f"ConvTranspose over {rank} spatial dims is not supported by the torch converter")
    y = fn(X, W, None, stride=st, padding=0, dilation=dil, groups=int(a.get("group", 1)))
    grow: list[tuple[int, int]] = []
    for i in range(rank):  # crop by slicing (ExecuTorch's pad kernel takes no negative pads), grow by padding
        lo, hi = -begin[i], outs[i] + begin[i] - full[i]
        if lo < 0 or hi < 0:
            y = y.narrow(2 + i, max(0, -lo), int(y.shape[2 + i]) - max(0, -lo) - max(0, -hi))
        grow.append((max(0, lo), max(0, hi)))
    fpad = [p for i in reversed(range(rank)) for p in grow[i]]
    if any(fpad):
        y = F.pad(y, fpad)
    if len(x) > 2 and x[2] is not None:
        y = y + x[2].reshape(1, -1, *([1] * rank))
    return [y]


def same_pads(a: dict[str, Any], in_shape: list[int], k: list[int]) -> dict[str, Any]:
    """Attributes with auto_pad SAME_UPPER/SAME_LOWER replaced by explicit pads (static input shape)."""
    auto = a.get("auto_pad", "NOTSET")
    if auto not in ("SAME_UPPER", "SAME_LOWER"):
        return a
    rank = len(k)
    st = [int(s) for s in a.get("strides", [1] * rank)]
    dil = [int(s) for s in a.get("dilations", [1] * rank)]
    begin, end = [], []
    for i in range(rank):
        out = -(-in_shape[i] // st[i])
        total = max((out - 1) * st[i] + (k[i] - 1) * dil[i] + 1 - in_shape[i], 0)
        lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
        begin.append(lo)
        end.append(total - lo)
    b = dict(a)
    b["auto_pad"] = "NOTSET"
    b["pads"] = begin + end
    return b


# ---- element-wise and small ops -------------------------------------------------------------------

def _isinf(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    pos, neg = a.get("detect_positive", 1), a.get("detect_negative", 1)
    t = x[0]
    if pos and neg:
        return [torch.isinf(t)]
    if pos:
        return [torch.isposinf(t)]
    if neg:
        return [torch.isneginf(t)]
    return [torch.zeros_like(t, dtype=torch.bool)]


def _shrink(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    lam, bias = float(a.get("lambd", 0.5)), float(a.get("bias", 0.0))
    t = x[0]
    return [torch.where(t < -lam, t + bias, torch.where(t > lam, t - bias, torch.zeros_like(t)))]


def _argm(fn: Callable[..., Tensor]) -> OpFn:
    def run(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
        t = x[0]
        ax = int(a.get("axis", 0)) % t.dim()
        keep = bool(a.get("keepdims", 1))
        if a.get("select_last_index", 0):
            n = t.shape[ax]
            idx = fn(torch.flip(t, [ax]), dim=ax, keepdim=keep)
            return [(n - 1) - idx]
        return [fn(t, dim=ax, keepdim=keep)]
    return run


def _cumsum(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    ax = int(np.asarray(x[1]).reshape(-1)[0]) % t.dim()
    if a.get("reverse", 0):
        t = torch.flip(t, [ax])
    y = torch.cumsum(t, dim=ax).to(t.dtype)
    if a.get("exclusive", 0):
        y = y - t
    if a.get("reverse", 0):
        y = torch.flip(y, [ax])
    return [y]


def _tile(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    return [x[0].repeat(*[int(v) for v in np.asarray(x[1]).reshape(-1)])]


def _depth_to_space(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    b = int(a["blocksize"])
    n, c, hh, ww = (int(s) for s in t.shape)
    if a.get("mode", "DCR") == "DCR":
        y = t.reshape(n, b, b, c // (b * b), hh, ww).permute(0, 3, 4, 1, 5, 2)
    else:
        y = t.reshape(n, c // (b * b), b, b, hh, ww).permute(0, 1, 4, 2, 5, 3)
    return [y.reshape(n, c // (b * b), hh * b, ww * b)]


def _space_to_depth(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    b = int(a["blocksize"])
    n, c, hh, ww = (int(s) for s in t.shape)
    y = t.reshape(n, c, hh // b, b, ww // b, b).permute(
        (0, 1, 3, 5, 2, 4) if a.get("mode", "DCR") == "CRD" else (0, 3, 5, 1, 2, 4))
    return [y.reshape(n, c * b * b, hh // b, ww // b)]


def _instance_norm(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    return [F.instance_norm(x[0], weight=x[1], bias=x[2], eps=float(a.get("epsilon", 1e-5)))]


def _log_softmax(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    return [torch.log_softmax(x[0], dim=int(a.get("axis", -1)))]


def _hardmax(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    ax = int(a.get("axis", -1)) % t.dim()
    idx = torch.argmax(t, dim=ax, keepdim=True)
    return [torch.zeros_like(t).scatter(ax, idx, 1.0)]


def _lp_norm(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    p = int(a.get("p", 2))
    t = x[0]
    n = torch.sum(torch.abs(t) ** p, dim=int(a.get("axis", -1)), keepdim=True) ** (1.0 / p)
    return [torch.where(n == 0, torch.zeros_like(t), t / n)]


def _mvn(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    axes = [int(v) for v in a.get("axes", [0, 2, 3])]
    t = x[0]
    mu = torch.mean(t, dim=axes, keepdim=True)
    var = torch.mean((t - mu) ** 2, dim=axes, keepdim=True)
    return [(t - mu) / (torch.sqrt(var) + 1e-9)]


def _reduce_with(fn: Callable[[Tensor, list[int], bool], Tensor]) -> OpFn:
    def run(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
        if "axes" in a:
            axes = [int(v) for v in a["axes"]]
        else:
            axes = [int(v) for v in np.asarray(x[1]).reshape(-1)] if len(x) > 1 and x[1] is not None else []
        if not axes and a.get("noop_with_empty_axes", 0):
            return [x[0]]
        return [fn(x[0], axes or list(range(x[0].dim())), bool(a.get("keepdims", 1)))]
    return run


def _constant_of_shape(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    v = np.asarray(a.get("value", np.zeros(1, np.float32))).reshape(-1)
    shape = [int(s) for s in np.asarray(x[0]).reshape(-1)]
    return [torch.full(shape, v[0].item(), dtype=torch.from_numpy(v).dtype)]


def _range(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    s, lim, d = (np.asarray(v).reshape(()) for v in x[:3])
    return [torch.from_numpy(np.arange(s, lim, d).astype(s.dtype))]  # type: ignore[call-overload]


def _gather_elements(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    ax = int(a.get("axis", 0)) % t.dim()
    idx = x[1].long()
    idx = torch.where(idx < 0, idx + t.shape[ax], idx)
    return [torch.gather(t, ax, idx)]


def _einsum(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    return [torch.einsum(str(a["equation"]).replace(" ", ""), *x)]


def _eye_like(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    n, m = int(t.shape[0]), int(t.shape[1])
    dt = a.get("dtype")
    from bb_edge.convert.onnx_torch import _TORCH_DTYPES

    dtype = _TORCH_DTYPES[int(dt)] if dt is not None else t.dtype
    e = np.eye(n, m, k=int(a.get("k", 0)))
    return [torch.from_numpy(e).to(dtype)]


def _unary(fn: Callable[[Tensor], Tensor]) -> OpFn:
    return lambda x, a: [fn(x[0])]


def _celu(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    return [F.celu(x[0], float(a.get("alpha", 1.0)))]


def _thresholded_relu(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    al = float(a.get("alpha", 1.0))
    return [torch.where(x[0] > al, x[0], torch.zeros_like(x[0]))]


def _mean(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    out = x[0]
    for t in x[1:]:
        out = out + t
    return [out / len(x)]


EXTRA: dict[str, OpFn] = {
    "LSTM": lstm,
    "GRU": gru,
    "RNN": rnn,
    "Resize": resize,
    "Upsample": resize,
    "ConvTranspose": conv_transpose,
    "Sin": _unary(torch.sin), "Cos": _unary(torch.cos), "Tan": _unary(torch.tan),
    "Asin": _unary(torch.asin), "Acos": _unary(torch.acos), "Atan": _unary(torch.atan),
    "Sinh": _unary(torch.sinh), "Cosh": _unary(torch.cosh), "Asinh": _unary(torch.asinh),
    "Acosh": _unary(torch.acosh), "Atanh": _unary(torch.atanh),
    "Floor": _unary(torch.floor), "Ceil": _unary(torch.ceil), "Round": _unary(torch.round),
    "Sign": _unary(torch.sign), "Softsign": _unary(lambda t: t / (1 + torch.abs(t))),
    "IsNaN": _unary(torch.isnan), "IsInf": _isinf, "Mish": _unary(lambda t: t * torch.tanh(F.softplus(t))),
    "Celu": _celu, "ThresholdedRelu": _thresholded_relu, "Shrink": _shrink,
    "BitwiseNot": _unary(torch.bitwise_not),
    "BitwiseAnd": lambda x, a: [torch.bitwise_and(x[0], x[1])],
    "BitwiseOr": lambda x, a: [torch.bitwise_or(x[0], x[1])],
    "BitwiseXor": lambda x, a: [torch.bitwise_xor(x[0], x[1])],
    "Xor": lambda x, a: [torch.logical_xor(x[0], x[1])],
    "LessOrEqual": lambda x, a: [torch.le(x[0], x[1])],
    "GreaterOrEqual": lambda x, a: [torch.ge(x[0], x[1])],
    "Mean": _mean,
    "ArgMax": _argm(torch.argmax), "ArgMin": _argm(torch.argmin),
    "CumSum": _cumsum, "Tile": _tile,
    "DepthToSpace": _depth_to_space, "SpaceToDepth": _space_to_depth,
    "InstanceNormalization": _instance_norm, "LogSoftmax": _log_softmax, "Hardmax": _hardmax,
    "LpNormalization": _lp_norm, "MeanVarianceNormalization": _mvn,
    "ReduceProd": _reduce_with(lambda t, ax, k: _prod(t, ax, k)),
    "ReduceL1": _reduce_with(lambda t, ax, k: torch.sum(torch.abs(t), dim=ax, keepdim=k)),
    "ReduceL2": _reduce_with(lambda t, ax, k: torch.sqrt(torch.sum(t * t, dim=ax, keepdim=k))),
    "ReduceSumSquare": _reduce_with(lambda t, ax, k: torch.sum(t * t, dim=ax, keepdim=k)),
    "ReduceLogSum": _reduce_with(lambda t, ax, k: torch.log(torch.sum(t, dim=ax, keepdim=k))),
    "ReduceLogSumExp": _reduce_with(lambda t, ax, k: torch.logsumexp(t, dim=ax, keepdim=k)),
    "ConstantOfShape": _constant_of_shape, "Range": _range,
    "GatherElements": _gather_elements, "Einsum": _einsum, "EyeLike": _eye_like,
}

#: inputs of EXTRA ops read as numpy values at conversion time
STATIC_INPUTS: dict[str, set[int]] = {
    "LSTM": {4}, "GRU": {4}, "RNN": {4}, "Resize": {1, 2, 3}, "Upsample": {1}, "CumSum": {1}, "Tile": {1},
    "ReduceProd": {1}, "ReduceL1": {1}, "ReduceL2": {1}, "ReduceSumSquare": {1}, "ReduceLogSum": {1},
    "ReduceLogSumExp": {1}, "ConstantOfShape": {0}, "Range": {0, 1, 2}, "TopK": {1},
}


def _prod(t: Tensor, axes: list[int], keep: bool) -> Tensor:
    for ax in sorted((v % t.dim() for v in axes), reverse=True):
        t = torch.prod(t, dim=ax, keepdim=keep)
    return t


# ---- losses, normalisation, sampling, scatter, quantisation ---------------------------------------

def _nll(logp: Tensor, target: Tensor, weight: Tensor | None, a: dict[str, Any]) -> Tensor:
    red = str(a.get("reduction", "mean"))
    ii = a.get("ignore_index")
    return F.nll_loss(logp, target.long(), weight=weight, ignore_index=int(ii) if ii is not None else -100,
                      reduction=red)


def rms_norm(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX RMSNormalization."""
    t = x[0]
    ax = int(a.get("axis", -1)) % t.dim()
    dims = list(range(ax, t.dim()))
    tf = t.float()
    y = tf * torch.rsqrt(torch.mean(tf * tf, dim=dims, keepdim=True) + float(a.get("epsilon", 1e-5)))
    return [(y * x[1].float()).to(t.dtype)]


def grid_sample(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    """ONNX GridSample on 4-D inputs (torch's grid_sample: same modes, padding and align_corners)."""
    if x[0].dim() not in (4, 5) or (x[0].dim() == 5 and a.get("mode") in ("cubic", "bicubic")):
        raise UnsupportedOpError("GridSample beyond 4-D (or cubic in 5-D) is not supported by the torch converter")
    mode = {"linear": "bilinear", "bilinear": "bilinear", "nearest": "nearest", "cubic": "bicubic",
            "bicubic": "bicubic"}[str(a.get("mode", "linear"))]
    return [F.grid_sample(x[0], x[1], mode=mode, padding_mode=str(a.get("padding_mode", "zeros")),
                          align_corners=bool(a.get("align_corners", 0)))]


def _lp_pool(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    from bb_edge.convert.onnx_torch import _pool_general

    p = float(a.get("p", 2))
    k = [int(v) for v in a["kernel_shape"]]
    b = same_pads(a, [int(s) for s in x[0].shape[2:]], k)
    b = dict(b)
    b["count_include_pad"] = 1
    dil = [int(d) for d in b.get("dilations", [1] * len(k))]
    avg = _pool_general("avg", torch.abs(x[0]) ** p, b, k, dil)
    return [(avg * float(np.prod(k))) ** (1.0 / p)]


def _scatter_elements(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t, idx, upd = x[0], x[1].long(), x[2]
    ax = int(a.get("axis", 0)) % t.dim()
    idx = torch.where(idx < 0, idx + t.shape[ax], idx)
    red = str(a.get("reduction", "none"))
    if red == "none":
        return [torch.scatter(t, ax, idx, upd)]
    return [torch.scatter_reduce(t, ax, idx, upd, {"add": "sum", "mul": "prod", "max": "amax",
                                                   "min": "amin"}[red], include_self=True)]


def _axis_shape(t: Tensor, scale: Tensor, a: dict[str, Any]) -> Tensor:
    if scale.dim() == 0 or scale.numel() == 1:
        return scale.reshape(())
    if scale.dim() == 1 and "block_size" not in a or int(a.get("block_size", 0)) == 0:
        ax = int(a.get("axis", 1)) % t.dim()
        return scale.reshape([-1 if i == ax else 1 for i in range(t.dim())])
    raise UnsupportedOpError("blocked (De)QuantizeLinear is not supported by the torch converter")


_Q_RANGE = {torch.int8: (-128, 127), torch.uint8: (0, 255), torch.int16: (-32768, 32767), torch.uint16: (0, 65535),
            torch.int32: (-(2 ** 31), 2 ** 31 - 1)}


def _dequantize(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    if t.dtype not in _Q_RANGE:
        raise UnsupportedOpError(f"DequantizeLinear of {t.dtype} is not supported by the torch converter")
    s = _axis_shape(t, x[1], a)
    zp = _axis_shape(t, x[2], a).float() if len(x) > 2 and x[2] is not None else 0.0
    return [((t.float() - zp) * s.float()).to(x[1].dtype)]


def _quantize(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    zp_t = x[2] if len(x) > 2 and x[2] is not None else None
    dt = zp_t.dtype if zp_t is not None else torch.uint8
    if "output_dtype" in a and int(a["output_dtype"]):
        from bb_edge.convert.onnx_torch import _TORCH_DTYPES

        dt = _TORCH_DTYPES.get(int(a["output_dtype"]), torch.float32)
    if dt not in _Q_RANGE:
        raise UnsupportedOpError(f"QuantizeLinear to {dt} is not supported by the torch converter")
    lo, hi = _Q_RANGE[dt]
    s = _axis_shape(t, x[1], a).float()
    zp = _axis_shape(t, zp_t, a).float() if zp_t is not None else 0.0
    q = torch.round(t.float() / s) + zp
    return [torch.clamp(q, lo, hi).to(dt)]


def _onehot(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    idx = x[0].long()
    depth = int(np.asarray(x[1]).reshape(-1)[0])
    vals = x[2]
    idx = torch.where(idx < 0, idx + depth, idx)
    ax = int(a.get("axis", -1))
    oh = F.one_hot(torch.clamp(idx, 0, depth - 1), depth) * ((idx >= 0) & (idx < depth)).long().unsqueeze(-1)
    if ax != -1:
        oh = oh.movedim(-1, ax % (idx.dim() + 1))
    return [torch.where(oh.bool(), vals[1], vals[0])]


def _compress(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    cond = np.asarray(x[1]).astype(bool).reshape(-1)
    t = x[0]
    if "axis" not in a:
        t = t.reshape(-1)
        ax = 0
    else:
        ax = int(a["axis"]) % t.dim()
    keep = np.nonzero(cond[: t.shape[ax]])[0].astype(np.int64)
    return [torch.index_select(t, ax, torch.from_numpy(keep))]


EXTRA.update({
    "RMSNormalization": rms_norm, "GridSample": grid_sample, "LpPool": _lp_pool,
    "ScatterElements": _scatter_elements,
    "Swish": lambda x, a: [x[0] * torch.sigmoid(float(a.get("alpha", 1.0)) * x[0])],
    "DequantizeLinear": _dequantize, "QuantizeLinear": _quantize, "OneHot": _onehot, "Compress": _compress,
})
STATIC_INPUTS.update({"CumProd": {1}, "ScatterND": {1}, "OneHot": {1}, "Compress": {1}})

from bb_edge.convert.torch_ops_more import MORE, MORE_STATIC  # noqa: E402 - newer-opset ops, their own module

EXTRA.update(MORE)
STATIC_INPUTS.update(MORE_STATIC)

from bb_edge.convert.torch_exact import EXACT  # noqa: E402 - exact forms replace entries above

EXTRA.update(EXACT)

from bb_edge.convert.torch_dynamic import DYNAMIC, DYNAMIC_STATIC  # noqa: E402 - data-dependent output shapes

EXTRA.update(DYNAMIC)
STATIC_INPUTS.update(DYNAMIC_STATIC)
