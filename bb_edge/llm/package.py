"""GGUF -> a directory the rest of bb-edge deploys: decoder, stage programs, tokenizer, and a fit report.

``compile_gguf`` is what ``bb-edge compile model.gguf --nodes N --weights W --context C`` is meant to call:
it writes ``decoder.onnx`` (the unsplit oracle), ``stage{k}.onnx``, ``tokenizer.json`` and ``llm.json``
(config, per stage: layers, hand-off tensors, state pairs, weight bytes and KV bytes at ``context``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import onnx

from bb_edge.llm.gguf_load import LlamaConfig, load_gguf, write_tokenizer
from bb_edge.llm.onnx_build import build_decoder
from bb_edge.llm.split import Stage, split_decoder


@dataclass(frozen=True)
class StageReport:
    """What one stage needs on its node."""

    index: int
    layers: tuple[int, int]
    takes: str
    gives: str
    state: tuple[tuple[str, str], ...]
    weight_bytes: int
    kv_bytes: int
    path: str


def weight_bytes(m: onnx.ModelProto) -> int:
    """Bytes of ``m``'s initializers as stored."""
    return sum(len(t.raw_data) or onnx.numpy_helper.to_array(t).nbytes for t in m.graph.initializer)


def stage_report(stage: Stage, cfg: LlamaConfig, context: int, path: str = "") -> StageReport:
    """The fit numbers of ``stage`` at ``context`` tokens of KV (float32 cache, batch 1)."""
    return StageReport(stage.index, (stage.layers.start, stage.layers.stop), stage.takes, stage.gives, stage.state,
                       weight_bytes(stage.model), stage.kv_bytes(context, cfg.n_kv_heads, cfg.head_dim), path)


def compile_gguf(gguf_path: str | Path, out_dir: str | Path, *, weights: str = "int4", n_stages: int = 1,
                 context: int | None = None, tokenizer: bool = True) -> list[StageReport]:
    """Write the deployment files for ``gguf_path`` into ``out_dir``; the per-stage reports."""
    model = load_gguf(gguf_path)
    cfg = model.config
    ctx = context or cfg.context_length
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dec = build_decoder(model, weights, max_context=ctx)
    onnx.save(dec, str(out / "decoder.onnx"))
    reports = []
    for st in split_decoder(dec, n_stages):
        name = f"stage{st.index}.onnx"
        onnx.save(st.model, str(out / name))
        reports.append(stage_report(st, cfg, ctx, name))
    if tokenizer:
        write_tokenizer(gguf_path, out)
    doc = {"source": Path(gguf_path).name, "weights": weights, "context": ctx, "config": cfg.__dict__,
           "tokenizer": "tokenizer.json" if tokenizer else None, "stages": [r.__dict__ for r in reports]}
    (out / "llm.json").write_text(json.dumps(doc, indent=1))
    return reports
