"""Training-step programs: reverse-mode autodiff and optimizer updates in plain ONNX.

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

Optimizer state keys are those of :func:`bb_edge.learn.optim.init_state`
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

The implementation is split in four modules: :mod:`.program` (specs, layout,
:class:`TrainingProgram`), :mod:`.vjp` (the builder and the per-op VJP
rules), :mod:`.step` (loss/optimizer emission, :func:`build_training_step`,
forward helpers) and :mod:`.runtime` (sessions, :class:`Trainer`,
:class:`ForwardRunner`). Everything public is importable from here.
"""

from __future__ import annotations

from bb_edge.learn.autodiff.program import (
    MSE,
    OPSET,
    LossSpec,
    ParamLayout,
    SoftmaxCrossEntropy,
    TensorSpec,
    TrainingProgram,
)
from bb_edge.learn.autodiff.runtime import ForwardRunner, Session, Trainer, make_session
from bb_edge.learn.autodiff.step import build_training_step, parameterized_forward, with_params
from bb_edge.learn.autodiff.vjp import SUPPORTED_OPS
from bb_edge.learn.optim import OptimizerSpec

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
