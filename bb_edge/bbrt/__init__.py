"""bbrt: lower node programs for the no-heap C runtime, build, inspect, flash and test MCU nodes.

See docs/bbrt.md. The C sources live in ``firmware/`` at the repository root.
"""

from bb_edge.bbrt.errors import BbrtError, FitError

__all__ = ["BbrtError", "FitError"]
