"""The tiny random-weight llama GGUF shared by the llm tests (written once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bb_edge.llm.gguf_load import LlamaGGUF, load_gguf
from bb_edge.llm.tiny import write_tiny_gguf


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.fixture(scope="session")
def tiny(tiny_gguf: Path) -> LlamaGGUF:
    return load_gguf(tiny_gguf)
