"""Model converters (ONNX compute models to other runtimes' source forms)."""
