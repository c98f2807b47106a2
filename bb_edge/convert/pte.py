"""ExecuTorch programs (.pte) from standard-ONNX compute models.

Route: ONNX -> :mod:`bb_edge.convert.onnx_torch` (torch only, no torchvision)
-> ``torch.export`` -> optional PT2E int8 (XNNPACKQuantizer, calibrated on the
node's samples) -> ``to_edge_transform_and_lower`` with the XNNPACK
partitioner -> ``.pte`` bytes. Needs ``pip install bb-edge[executorch]``.

A decoder stage (ONNX Runtime's GroupQueryAttention, :mod:`bb_edge.convert.torch_contrib`) exports with its
symbolic input dims dynamic (sequence and past lengths), so one program serves every step of a session.
"""

from __future__ import annotations

import re

import numpy as np
import onnx

from bb_edge.errors import BuildError, UnsupportedOpError


class PteExportError(BuildError):
    """A compute model could not be exported to an ExecuTorch program."""


def example_inputs(model: onnx.ModelProto) -> list[np.ndarray]:
    """Zero arrays of the program's inputs (symbolic dims = 1, a decoder stage's dynamic dims 2, 3, ...; see
    :class:`~bb_edge.convert.onnx_torch.ProgramIO`:
    no zero-size inputs, unsigned 16/32/64-bit as the wider signed type, a sequence as its pinned elements)."""
    from bb_edge.convert.onnx_torch import ProgramIO
    from bb_edge.convert.torch_contrib import dynamic_dims
    from bb_edge.convert.torch_exact import to_program

    io = ProgramIO(model)
    taken = set(io.inputs)
    # a dynamic dim's example is >= 2 and differs from every other's (torch.export specializes 0/1 and may
    # take two dims of one size for one)
    sizes = {name: 2 + k for k, name in enumerate(dynamic_dims(model))}
    out = []
    for i in model.graph.input:
        if i.name not in taken:
            continue
        if i.name in io.sequences:  # a pinned sequence: one array per element
            out += [to_program(np.zeros(s, d)) for d, s in io.sequences[i.name]]
            continue
        dims = [d.dim_value if d.HasField("dim_value") else sizes.get(d.dim_param, 1)
                for d in i.type.tensor_type.shape.dim]
        out.append(to_program(np.zeros(dims, dtype=onnx.helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type))))
    return out


def export_pte(compute: onnx.ModelProto, int8: bool = False,
               samples: list[dict[str, np.ndarray]] | None = None) -> bytes:
    """The .pte bytes of a compute model, lowered to XNNPACK (PT2E int8 when ``int8``)."""
    try:
        import torch
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
        from executorch.exir import to_edge_transform_and_lower
    except ImportError as exc:
        raise PteExportError(f".pte export needs `pip install bb-edge[executorch]` ({exc})") from exc
    from bb_edge.convert.onnx_torch import to_torch

    module = to_torch(compute)
    ex = tuple(torch.from_numpy(a) for a in example_inputs(compute))
    try:
        if int8:
            from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
                XNNPACKQuantizer,
                get_symmetric_quantization_config,
            )
            from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

            if not samples:
                raise PteExportError("PT2E int8 needs calibration data: pass --calib FILE.npz")
            graph = torch.export.export(module, ex).module()
            quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
            prepared = prepare_pt2e(graph, quantizer)  # type: ignore[arg-type]
            for s in samples:
                prepared(*(torch.from_numpy(np.asarray(s[n])) for n in module.input_names))
            module_q = convert_pt2e(prepared)
            ep = torch.export.export(module_q, ex)
        else:
            ep = torch.export.export(module, ex, dynamic_shapes=_dynamic_shapes(compute, module.input_names))
        # XNNPACK takes tensors of rank <= 6 and fails at load on more: such programs run on portable kernels
        parts = [] if _max_rank(compute) > 6 else [XnnpackPartitioner()]
        prog = to_edge_transform_and_lower(ep, partitioner=parts).to_executorch()
    except (UnsupportedOpError, PteExportError):
        raise
    except Exception as exc:
        at = f" at op {module.current[0]} ({module.current[1]!r})" if module.current is not None else ""
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise PteExportError(f"ExecuTorch export failed{at}: {type(exc).__name__}: {first}; "
                             f"build this node for an ONNX Runtime target (or run with --backend ort)") from exc
    return bytes(prog.buffer)


def _dynamic_shapes(model: onnx.ModelProto, names: list[str]) -> tuple[tuple[dict[int, object], ...]] | None:
    """torch.export's dynamic_shapes for a decoder stage (one ``Dim`` per symbolic dim name, shared by every
    input naming it), None for a static program."""
    from torch.export import Dim

    from bb_edge.convert.torch_contrib import dynamic_dims

    ranges = dynamic_dims(model)
    if not ranges:
        return None
    dims = {n: Dim(f"d{k}_" + re.sub(r"\W", "_", n), min=lo, max=hi) for k, (n, (lo, hi)) in enumerate(ranges.items())}
    by_name = {i.name: i for i in model.graph.input}
    # forward(*inputs): one entry, the tuple of every input's dims
    return (tuple({ax: dims[d.dim_param] for ax, d in enumerate(by_name[n].type.tensor_type.shape.dim)
                   if d.dim_param in dims} for n in names),)


def _max_rank(model: onnx.ModelProto) -> int:
    """The largest tensor rank shape inference finds in the model (0 if it finds none)."""
    try:
        g = onnx.shape_inference.infer_shapes(model).graph
    except Exception:  # noqa: BLE001 - declared shapes then
        g = model.graph
    ranks = [len(vi.type.tensor_type.shape.dim) for vi in list(g.input) + list(g.value_info) + list(g.output)
             if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape")]
    return max(ranks, default=0)
