"""Greedy decoding with ONNX Runtime, the KV cache fed back by hand: the exactness oracle.

:class:`Decoder` runs one session of the whole unsplit model; :class:`StageChain` runs the stage programs
of :mod:`bb_edge.llm.split` one after another, each keeping its own layers' KV between steps, as the nodes
of a fleet will. Both step the same way: the prompt in one prefill step, then one token per step.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort


def make_session(model: onnx.ModelProto | str | Path, threads: int = 1) -> ort.InferenceSession:
    """A CPU ONNX Runtime session with ``threads`` intra-op threads (1: comparable with llama.cpp -t 1)."""
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    src = model.SerializeToString() if isinstance(model, onnx.ModelProto) else str(model)
    return ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])


class _Stateful:
    """One session and the state it keeps: past inputs fed from the present outputs of the previous step."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self.session = session
        self.pasts = [i for i in session.get_inputs() if i.name.startswith("past_key_values.")]
        self.state: dict[str, np.ndarray] = {}
        self.reset()

    def reset(self) -> None:
        """Empty caches (past length 0)."""
        self.state = {}
        for i in self.pasts:
            shape = [1 if isinstance(d, str) and "batch" in d else 0 if isinstance(d, str) else d for d in i.shape]
            self.state[i.name] = np.zeros(shape, np.float32)

    def run(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run one step; the presents become the next step's pasts."""
        wanted = {i.name for i in self.session.get_inputs()}
        outs = self.session.run(None, {**{k: v for k, v in feeds.items() if k in wanted}, **self.state})
        named = {o.name: v for o, v in zip(self.session.get_outputs(), outs)}
        for name in self.state:
            self.state[name] = named[name.replace("past_key_values.", "present.")]
        return named

    def kv_bytes(self) -> int:
        """Bytes of state held now."""
        return sum(int(v.nbytes) for v in self.state.values())


class Decoder:
    """Greedy decoding on one session of the whole model (``logits`` out, per-layer KV fed back)."""

    def __init__(self, model: onnx.ModelProto | str | Path, threads: int = 1) -> None:
        self.stage = _Stateful(make_session(model, threads))

    def reset(self) -> None:
        """Forget the KV cache (a new sequence)."""
        self.stage.reset()

    def step(self, ids: Sequence[int], seen: int) -> np.ndarray:
        """Feed ``ids`` after ``seen`` cached tokens; the last position's logits."""
        return self.stage.run(_feeds(ids, seen))["logits"][0, -1]

    def generate(self, prompt: Sequence[int], max_new_tokens: int, eos: int | None = None) -> list[int]:
        """Greedy tokens after ``prompt`` (stops early at ``eos``)."""
        self.reset()
        return _greedy(self.step, prompt, max_new_tokens, eos)


class StageChain:
    """Greedy decoding through stage sessions in order, each holding its own layers' KV cache."""

    def __init__(self, stages: Sequence[onnx.ModelProto | str | Path], threads: int = 1) -> None:
        self.stages = [_Stateful(make_session(s, threads)) for s in stages]
        self.hops: list[tuple[str, int]] = []  # (tensor, bytes) of the last step's hand-offs

    def reset(self) -> None:
        """Forget every stage's KV cache (a new sequence)."""
        for st in self.stages:
            st.reset()

    def step(self, ids: Sequence[int], seen: int) -> np.ndarray:
        """Feed ``ids`` through every stage; the last position's logits."""
        feeds = _feeds(ids, seen)
        self.hops = []
        named: dict[str, np.ndarray] = {}
        for k, st in enumerate(self.stages):
            named = st.run(feeds)
            if k + 1 < len(self.stages):
                out = st.session.get_outputs()[0].name
                feeds = {"attention_mask": feeds["attention_mask"], out: named[out]}
                self.hops.append((out, int(named[out].nbytes)))
        return named["logits"][0, -1]

    def generate(self, prompt: Sequence[int], max_new_tokens: int, eos: int | None = None) -> list[int]:
        """Greedy tokens after ``prompt`` (stops early at ``eos``)."""
        self.reset()
        return _greedy(self.step, prompt, max_new_tokens, eos)

    def kv_bytes(self) -> list[int]:
        """Bytes of KV state each stage holds now."""
        return [st.kv_bytes() for st in self.stages]


def _feeds(ids: Sequence[int], seen: int) -> dict[str, np.ndarray]:
    return {"input_ids": np.asarray([list(ids)], np.int64),
            "attention_mask": np.ones((1, seen + len(ids)), np.int64)}


def _greedy(step: object, prompt: Sequence[int], max_new_tokens: int, eos: int | None) -> list[int]:
    assert callable(step)
    out: list[int] = []
    logits = step(list(prompt), 0)
    seen = len(prompt)
    while len(out) < max_new_tokens:
        tok = int(np.argmax(logits))
        out.append(tok)
        if tok == eos or len(out) == max_new_tokens:
            break
        logits = step([tok], seen)
        seen += 1
    return out
