"""The compiler: pure passes from an ONNX model (or recorded Module) to per-node programs."""

from bb_edge.compiler.compile import compile_model
from bb_edge.compiler.load import load_model
from bb_edge.compiler.partition import partition
from bb_edge.compiler.placement import place_auto, place_by_annotation, place_by_cuts, place_by_map
from bb_edge.deployment.manifest import Deployment, load_deployment

__all__ = [
    "Deployment",
    "compile_model",
    "load_deployment",
    "load_model",
    "partition",
    "place_auto",
    "place_by_annotation",
    "place_by_cuts",
    "place_by_map",
]
