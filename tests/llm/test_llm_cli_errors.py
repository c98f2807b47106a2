"""Bad input to ``bb-edge compile model.gguf`` and ``bb-edge generate``: one line, non-zero exit, no traceback.

Each case runs the real CLI in a child process (the user's view) on the tiny random-weight llama GGUF or a
file damaged from it, and checks the one line names the error type and what was wrong.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bb_edge.llm.fleet import compile_gguf
from bb_edge.llm.tiny import write_foreign_gguf

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``bb-edge ARGS`` in a child process."""
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def one_line_error(r: subprocess.CompletedProcess[str], kind: str, *words: str) -> None:
    """Non-zero exit, exactly one stderr line ``error: KIND: ...`` holding ``words``, no traceback."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode != 0, r
    assert len(lines) == 1 and lines[0].startswith(f"error: {kind}: "), r.stderr
    assert "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


@pytest.fixture(scope="module")
def damaged(tiny_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny GGUF cut in half, cut inside its header, and a file that is not a GGUF at all."""
    d = tmp_path_factory.mktemp("damaged")
    data = tiny_gguf.read_bytes()
    out = {"half": d / "half.gguf", "header": d / "header.gguf", "text": d / "text.gguf"}
    out["half"].write_bytes(data[: len(data) // 2])
    out["header"].write_bytes(data[:100])
    out["text"].write_text("not a model\n" * 20)
    return out


@pytest.mark.parametrize("which", ["half", "header", "text"])
def test_a_corrupt_or_truncated_gguf_is_one_line(damaged: dict[str, Path], which: str, tmp_path: Path) -> None:
    r = cli("compile", str(damaged[which]), "--nodes", "2", "-o", str(tmp_path / "o"))
    one_line_error(r, "CorruptGGUFError", str(damaged[which]), "damaged or incomplete")
    assert not (tmp_path / "o" / "deployment.json").exists()


def test_an_unknown_architecture_is_one_line(tmp_path: Path) -> None:
    path = write_foreign_gguf(tmp_path / "mamba.gguf", "mamba")
    one_line_error(cli("compile", str(path), "-o", str(tmp_path / "o")), "UnknownArchitectureError", "'mamba'", "llama")


def test_more_nodes_than_layers_and_a_bad_context_are_one_line(tiny_gguf: Path, tmp_path: Path) -> None:
    # the tiny model has 4 layers and a 256-token context
    one_line_error(cli("compile", str(tiny_gguf), "--nodes", "5", "-o", str(tmp_path / "o")), "PlacementError",
                   "--nodes 5", "only 4 decoder layers", "--nodes 1..4")
    one_line_error(cli("compile", str(tiny_gguf), "--context", "100000", "-o", str(tmp_path / "o")),
                   "PlacementError", "--context 100000", "at most 256")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("value", ["int3", "", "INT4"])
def test_bad_weights_are_one_line(tiny_gguf: Path, tmp_path: Path, value: str) -> None:
    r = cli("compile", str(tiny_gguf), "--weights", value, "-o", str(tmp_path / "o"))
    one_line_error(r, "UsageError", "--weights")
    assert r.returncode == 2


def test_a_prompt_longer_than_the_context_is_one_line(tiny_gguf: Path, tmp_path: Path) -> None:
    out = tmp_path / "dep"
    compile_gguf(tiny_gguf, out, nodes=2, context=64)
    for form in (["--prompt-ids", ",".join(["3"] * 70), "--ids"], ["--prompt-ids", ",".join(["3"] * 64)],
                 ["--prompt", "hello " * 100]):
        one_line_error(cli("generate", str(out), *form), "GenerationError", "context is 64")
