"""The sans-IO node engine, its typed events and the protocol context."""

from bb_edge.engine import events
from bb_edge.engine.context import Context
from bb_edge.engine.engine import ComputeCommand, Engine, EngineError, Limits, Outbound

__all__ = ["ComputeCommand", "Context", "Engine", "EngineError", "Limits", "Outbound", "events"]
