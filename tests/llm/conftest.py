"""The tiny random-weight llama GGUF shared by the llm tests (written once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bb_edge.llm.fleet import FleetReference, fleet_decoder
from bb_edge.llm.gguf_load import LlamaGGUF, load_gguf
from bb_edge.llm.onnx_build import build_decoder
from bb_edge.llm.tiny import write_tiny_gguf
from tests.support.llm_failover import CONTEXT, PROMPTS, TOKENS


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.fixture(scope="session")
def tiny(tiny_gguf: Path) -> LlamaGGUF:
    return load_gguf(tiny_gguf)


@pytest.fixture(scope="session")
def kill_reference(tiny_gguf: Path) -> dict[int, list[int]]:
    """The kill tests' oracle: each prompt's greedy tokens from one ORT session of the unsplit decoder."""
    ref = FleetReference(fleet_decoder(build_decoder(load_gguf(tiny_gguf), "int4", max_context=CONTEXT)))
    return {s: ref.generate(p, TOKENS) for s, p in PROMPTS.items()}
