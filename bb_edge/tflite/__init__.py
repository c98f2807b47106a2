"""``bb-edge compile MODEL.tflite``: read a TFLite flatbuffer and translate it to ONNX QDQ for bbrt's int8 lowering.

:mod:`bb_edge.tflite.reader` decodes and checks the file, :mod:`bb_edge.tflite.to_onnx` translates it,
:mod:`bb_edge.tflite.errors` has the typed errors of both.
"""

from bb_edge.tflite.errors import TfliteError, TfliteFormatError, TfliteQuantError, TfliteUnsupportedError
from bb_edge.tflite.to_onnx import SUPPORTED, load_tflite, tflite_to_onnx

__all__ = ["SUPPORTED", "TfliteError", "TfliteFormatError", "TfliteQuantError", "TfliteUnsupportedError",
           "load_tflite", "tflite_to_onnx"]
