"""Over-the-air program updates (interim: the protocol is being split into modules)."""

from bb_edge.engine.ota.node import *  # noqa: F401,F403
