"""bb-edge: run one ML workload across a mixed edge fleet.

Record a Module (or import an .onnx model), place and partition it across the
nodes of a fleet, and run every node on the same sans-IO engine speaking one
wire envelope.
"""

__version__ = "0.1.0"
