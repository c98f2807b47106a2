"""Learning: training-step programs in ONNX, and the roles/components of federated learning.

Submodules: :mod:`.autodiff` (training programs), :mod:`.optim` (optimizer
specs), :mod:`.models` (small ONNX models), :mod:`.roles` (protocols and the
component registry), :mod:`.aggregators`, :mod:`.attacks`, :mod:`.peers`,
:mod:`.codecs`, :mod:`.data`, :mod:`.liveness` (phi-accrual) and
:mod:`.validation`. Nothing here performs I/O or reads a clock.
"""
