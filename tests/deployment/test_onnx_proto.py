"""A serving node reads its program without importing onnx (bb_edge/deployment/onnx_proto.py).

Oracle: onnx itself. The standalone message classes parse a file to the same message ``onnx.load`` gives, the
helpers build the messages ``onnx.helper`` builds, and a ``bb-edge node`` process that loaded its split
program and is about to serve has no ``onnx`` in ``sys.modules`` (checked in a fresh interpreter).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import onnx
import pytest
from onnx import helper

from bb_edge.deployment import onnx_proto
from bb_edge.llm.fleet import compile_gguf
from bb_edge.llm.tiny import write_tiny_gguf

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


def test_the_helpers_build_what_onnx_helper_builds() -> None:
    for shape in ([1, "seq", 576], [], None):
        assert onnx_proto.make_tensor_value_info("x", 10, shape) == helper.make_tensor_value_info("x", 10, shape)
    node = helper.make_node("Send", ["x"], [], domain="bb.wire", edge_id=3, peer="n1", shape=[1, -1, 576],
                            scale=0.5, names=["a", "b"])
    got = {a.name: onnx_proto.get_attribute_value(a) for a in node.attribute}
    assert got == {a.name: helper.get_attribute_value(a) for a in node.attribute}
    vi = helper.make_tensor_value_info("x", 1, [2])
    relu = helper.make_node("Relu", ["x"], ["y"])
    g = helper.make_graph([relu], "g", [vi], [helper.make_tensor_value_info("y", 1, [2])])
    assert onnx_proto.make_graph([relu], "g", [vi], [helper.make_tensor_value_info("y", 1, [2])]) == g
    ops = [helper.make_opsetid("", 17)]
    assert onnx_proto.make_model(g, ops, 8) == helper.make_model(g, opset_imports=ops, ir_version=8)


def test_load_parses_what_onnx_load_parses_and_leaves_external_weights(tiny_gguf: Path, tmp_path: Path) -> None:
    compile_gguf(tiny_gguf, tmp_path, nodes=2, context=32)
    path = tmp_path / "n1.onnx"
    got = onnx_proto.load(path)
    assert isinstance(got, onnx.ModelProto)  # onnx is imported here: the very same classes
    assert got == onnx.load(str(path), load_external_data=False)
    assert any(t.data_location == onnx_proto.EXTERNAL for t in got.graph.initializer)


def test_a_node_process_serves_without_importing_onnx(tiny_gguf: Path, tmp_path: Path) -> None:
    compile_gguf(tiny_gguf, tmp_path, nodes=3, context=32)
    # the real `bb-edge node` start-up (deployment, engine, OTA store, transport, telemetry) up to its loop,
    # which reports instead of serving; a serial loopback port stands in for the broker
    script = textwrap.dedent("""
        import sys
        from bb_edge.adapters.fleet import hostloop

        def run(self):
            prog = self.engine.programs[sys.argv[2]]
            print("onnx" in sys.modules, len(prog.segments), len(prog.state), flush=True)
            raise SystemExit(0)

        hostloop.HostLoop.run = run
        from bb_edge.cli import main
        main(["node", sys.argv[1], "--node", sys.argv[2], "--transport", "serial:loop://", "--threads", "1"])
    """)
    for node in ("n0", "n2"):
        out = subprocess.run([sys.executable, "-c", script, str(tmp_path), node], capture_output=True, text=True,
                             timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert out.returncode == 0, out.stderr
        onnx_loaded, segments, states = out.stdout.splitlines()[-1].split()
        assert (onnx_loaded, segments) == ("False", "1")  # its program installed, as one segment, onnx never
        assert int(states) > 0  # a KV cache pair per layer of the stage
