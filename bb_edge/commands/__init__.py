"""Subcommands of the ``bb-edge`` CLI, one module each (see :mod:`bb_edge.cli`)."""
