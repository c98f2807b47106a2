"""Typed errors raised by bb-edge's compiler, codec and tools.

Every error carries a message that says what was wrong and how to fix it.
The engine never raises these for bytes that came off the wire: it turns
them into events (see :mod:`bb_edge.engine.events`).
"""

from __future__ import annotations


class BBError(Exception):
    """Base class of every error bb-edge raises on purpose."""

    #: how to proceed, added to a message that names no fix (bb_edge.cli.format_error)
    fix = 'see `bb-edge COMMAND --help`'


class WireError(BBError):
    """An envelope or frame could not be decoded.

    ``code`` is one of the names listed in docs/wire.md (``TRUNCATED``,
    ``BAD_MAGIC``, ...), shared with the C runtime's error codes.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


class ModelError(BBError):
    """The input model is invalid (fails onnx.checker or shape inference)."""

    fix = 'check the file with onnx.checker.check_model, or export the model again'


class InputShapeError(ModelError):
    """An ``--input-shape`` pin names no graph input or disagrees with the model's rank or fixed dims."""

    fix = "pin only graph inputs, with their rank and fixed dims (`bb-edge inspect MODEL` lists them)"


class InputValueError(ModelError):
    """An ``--input-value`` names no graph input, or its value does not fit the input's dtype or shape."""

    fix = ("freeze only graph inputs, with one value per element of their (pinned) shape in their dtype, "
           "e.g. --input-value sr=16000 (`bb-edge inspect MODEL` lists the inputs)")


class UnsupportedOpError(ModelError):
    """The model uses an operator bb-edge (or the chosen backend) cannot run."""

    fix = 'place that op on another node (bb-edge compile --place) or replace it in the model'


class PlacementError(BBError):
    """Placement is missing, inconsistent, or cannot be satisfied."""

    fix = ("list the model's ops and tensors with `bb-edge inspect MODEL.onnx --tensors` and adjust --nodes, "
           "--cut or --place")


class CutNotFoundError(PlacementError):
    """A tensor named in a cut list does not exist in the model."""


class CrossNodeCycleError(PlacementError):
    """The placement makes data flow back and forth between nodes in a cycle."""


class NoFeasiblePlacementError(PlacementError):
    """Automatic placement found no split that fits the per-node limits."""


class FitError(BBError):
    """A node does not fit its target's RAM or flash (compile-time placement or a build).

    ``resource`` is ``"ram"`` or ``"flash"`` (a build may say more); ``need`` and ``have`` are bytes
    and ``over`` = need - have. ``advice`` replaces the default advice (split further, int8, bigger target).
    """

    fix = "compile with more --nodes, or give bigger targets"

    def __init__(self, node: str, target: str, resource: str, need: int, have: int,
                 advice: str | None = None, what: str | None = None) -> None:
        self.node, self.target, self.resource = node, target, resource
        self.need, self.have, self.over = need, have, need - have
        head = what or f"node {node!r} needs {need} bytes of {resource} but target {target!r} has {have}"
        super().__init__(
            f"{head}: over by {need - have} bytes ({(need - have) / 1024:.1f} KiB). "
            + (advice or "Split the node further (`bb-edge compile --nodes N` with more nodes, or a cut "
               "earlier), use int8, or pick a bigger target.")
        )


class DeploymentError(BBError):
    """A compiled deployment directory is missing files or is inconsistent."""

    fix = 'compile the deployment again (bb-edge compile MODEL -o DIR)'


class RecordingError(BBError):
    """A Module's forward could not be recorded into ONNX."""

    fix = 'fix the Module (docs/architecture.md shows how forward is recorded)'


class InputFileError(BBError):
    """A file given on the command line (``--inputs``, ``--calib``, ``--place`` ...) is missing or malformed."""


class OutputPathError(BBError):
    """An output location cannot be written (it is a file, lies under a file, or is not writable)."""


class UsageError(BBError):
    """The command line itself is wrong (unknown option, bad option value, values that contradict each other)."""


class SessionError(BBError):
    """A step of a session was refused or its session ended at a node (docs/wire.md "Sessions"): evicted, idle,
    closed, over its state limit, a state whose shape changed, a step not the caller's."""

    fix = "start a new session (its state is gone); raise limits.state_budget or session_idle_s if it was evicted"


class BuildError(BBError):
    """A bundle or a lowering could not be built; the message says why and how to fix it."""

    fix = 'see docs/targets.md for targets, precisions and builders'


class CalibrationShapeError(BuildError):
    """Calibration arrays do not match the deployment's input contract."""
