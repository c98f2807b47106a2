"""Backends: compute for a node program's segments (ONNX Runtime, onnx.reference)."""

from bb_edge.backends.base import Backend, PreparedSegment, get_backend

__all__ = ["Backend", "PreparedSegment", "get_backend"]
