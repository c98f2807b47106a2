"""A decoder node holds its weights once: ONNX Runtime maps the program's weights file, nothing else copies it.

``bb-edge compile model.gguf`` writes each node's weights beside its program (ONNX external data); the engine
installs the program without them and hands ONNX Runtime the file to map. What the node computes, the hash
it announces and the program an OTA delta applies to must stay those of the program whole (``onnx.load``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx

from bb_edge.backends.ort import OrtBackend
from bb_edge.deployment.manifest import has_external_weights, load_deployment
from bb_edge.engine import Engine
from bb_edge.engine.engine import program_digest
from bb_edge.llm.fleet import compile_gguf
from bb_edge.wire.dtypes import CODE_TO_NUMPY


def _feeds(model: onnx.ModelProto, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A 3-token first step: random activations or ids, empty KV caches."""
    feeds = {}
    for vi in model.graph.input:
        tt = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
        if vi.name.startswith("past_key_values."):
            shape = [1 if d < 0 else d for d in dims]
            shape[2] = 0
            feeds[vi.name] = np.zeros(shape, CODE_TO_NUMPY[tt.elem_type])
        elif vi.name == "input_ids":
            feeds[vi.name] = rng.integers(0, 50, [1, 3]).astype(np.int64)
        else:
            feeds[vi.name] = rng.standard_normal([3 if d < 0 else d for d in dims]).astype(CODE_TO_NUMPY[tt.elem_type])
    return feeds


def test_a_node_maps_its_weights_file_and_computes_hashes_and_rebuilds_the_whole_program(
        tiny_gguf: Path, tmp_path: Path) -> None:
    compile_gguf(tiny_gguf, tmp_path, nodes=3, context=64)
    dep = load_deployment(tmp_path)
    rng = np.random.default_rng(0)
    for node in dep.node_names:
        path = tmp_path / dep.node(node).program
        assert (tmp_path / f"{path.name}.data").stat().st_size > path.stat().st_size  # most weights beside
        whole = onnx.load(str(path))
        assert not has_external_weights(whole)
        lean = Engine.for_node(dep, node, backend=OrtBackend(intra_op_threads=1))
        full = Engine.for_node(dep, node, programs={node: whole}, backend=OrtBackend(intra_op_threads=1))
        prog = lean.programs[node]
        # no weight bytes in the installed program or its segments: only the session (the mapped file) has them
        assert has_external_weights(prog.model)
        assert all(not t.raw_data for s in prog.segments for t in s.model.graph.initializer
                   if t.data_location == onnx.TensorProto.EXTERNAL)
        assert lean.program_hash == full.program_hash == program_digest(whole)
        assert lean.program_model(node).SerializeToString(deterministic=True) == \
            whole.SerializeToString(deterministic=True)
        feeds = _feeds(prog.segments[0].model, rng)
        got = prog.prepared[0].run(feeds)
        want = full.programs[node].prepared[0].run(feeds)
        assert got.keys() == want.keys()
        for k in got:
            np.testing.assert_array_equal(got[k], want[k])
