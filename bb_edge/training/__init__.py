"""The build wing's training programs: reverse-mode autodiff and optimizer updates in plain ONNX.

:func:`build_training_step` takes a recorded forward ``onnx.ModelProto``
(standard ops, parameters stored as initializers), the name of the output to
train, a loss spec and an optimizer spec, and returns a
:class:`TrainingProgram` whose model computes one training step with standard
ONNX ops only (opset 17, default domain). The program runs unchanged on
``onnxruntime.InferenceSession`` and ``onnx.reference.ReferenceEvaluator``.

Program interface (all names are fixed by the rules below):

============================  ===============================================
inputs                        outputs
============================  ===============================================
forward data inputs (``x``)   ``loss`` (scalar, when a loss is given)
``labels`` (loss given)       the forward output (e.g. logits)
``grad/<out>`` (no loss)      ``next/<p>`` per parameter (optimizer given)
``<p>`` per parameter         ``grad/<p>`` per parameter (no optimizer)
``global/<p>`` (FedProx mu)   ``next/opt/<k>`` per optimizer state key
``opt/<k>`` optimizer state   ``grad/<x>`` for inputs listed in ``input_grads``
============================  ===============================================

Optimizer state keys are those of :func:`bb_edge.training.optim.init_state`
(``m/<p>``, ``v/<p>``, ``step``). A program without a loss takes the upstream
gradient of the output as ``grad/<out>`` (client side of split learning); a
program with ``input_grads`` returns the gradient of a data input (server
side). ``proximal_mu > 0`` adds the FedProx term ``mu/2 * ||p - global/p||^2``.

Supported ops: Gemm, MatMul (rank >= 2), Add, Sub, Mul, Div (with
broadcasting), Relu, LeakyRelu, Sigmoid, Tanh, Softmax, LogSoftmax, Conv
(weight gradient for ``group == 1``), MaxPool, AveragePool, GlobalAveragePool,
Flatten, Reshape, Squeeze, Unsqueeze, Transpose, Identity, Dropout
(inference), plus constant-only subgraphs. Anything else on a differentiable
path raises :class:`bb_edge.errors.UnsupportedOpError`.

The implementation is split in small modules: :mod:`.program` (specs, layout,
:class:`TrainingProgram`), :mod:`.vjp` (the builder and the per-op VJP
rules), :mod:`.step` (loss/optimizer emission, :func:`build_training_step`,
forward helpers), :mod:`.runtime` (sessions, :class:`Trainer`,
:class:`ForwardRunner`), :mod:`.optim` (optimizer specs), :mod:`.models`
(small ONNX models), :mod:`.split` (split learning's three programs) and
:mod:`.setup` (a learning deployment's program and data). Everything public
of the first five is importable from here. The run wing (:mod:`bb_edge.strategies`)
drives the programs built here; it never imports this package at run time.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bb_edge.training.optim import OptimizerSpec
from bb_edge.training.program import (
    MSE,
    OPSET,
    LossSpec,
    ParamLayout,
    SoftmaxCrossEntropy,
    TensorSpec,
    TrainingProgram,
)
from bb_edge.training.runtime import ForwardRunner, Session, Trainer, make_session

if TYPE_CHECKING:
    from bb_edge.training.step import build_training_step, parameterized_forward, with_params
    from bb_edge.training.vjp import SUPPORTED_OPS

#: the builder's names load on first use: the builder needs onnx (~0.6 s with ml_dtypes), a node running a
#: cached program (bb_edge.training.cache) does not
_LAZY = {"build_training_step": "step", "parameterized_forward": "step", "with_params": "step",
         "SUPPORTED_OPS": "vjp"}


def __getattr__(name: str) -> Any:
    """The builder's names (:mod:`.step`, :mod:`.vjp`), imported when first asked for."""
    if name in _LAZY:
        return getattr(importlib.import_module(f"bb_edge.training.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "SoftmaxCrossEntropy",
    "MSE",
    "LossSpec",
    "TensorSpec",
    "ParamLayout",
    "TrainingProgram",
    "build_training_step",
    "parameterized_forward",
    "with_params",
    "Session",
    "make_session",
    "Trainer",
    "ForwardRunner",
    "OPSET",
    "SUPPORTED_OPS",
    "OptimizerSpec",
]
