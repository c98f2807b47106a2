"""Language-model decoders: GGUF in, an ONNX decoder with per-layer KV state out, split by decoder layers.

Build wing. :mod:`gguf_load` reads a llama GGUF (and converts its tokenizer), :mod:`quant_blocks` maps its
blocks to MatMulNBits, :mod:`onnx_build` writes the decoder, :mod:`split` cuts it into stage programs,
:mod:`package` writes a deployment directory with a fit report, :mod:`reference` decodes greedily with one
ONNX Runtime session (the exactness oracle) or a chain of stage sessions, :mod:`tiny` writes a small
random-weight llama GGUF for tests.
"""
