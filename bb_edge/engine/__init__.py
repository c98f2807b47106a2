"""The sans-IO node engine, its typed events, the duplicate filter and the protocol context."""

from bb_edge.engine import events
from bb_edge.engine.context import Context
from bb_edge.engine.dedup import SeqFilter
from bb_edge.engine.engine import DEFAULT_DEADLINE_S, ComputeCommand, Engine, EngineError, Limits, Outbound

__all__ = ["DEFAULT_DEADLINE_S", "ComputeCommand", "Context", "Engine", "EngineError", "Limits", "Outbound",
           "SeqFilter", "events"]
