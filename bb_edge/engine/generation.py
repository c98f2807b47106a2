"""Token-by-token generation over a stateful deployment, as a sans-IO state machine.

A language-model deployment (``llm`` in deployment.json, written by ``bb-edge compile model.gguf``) takes
token ids and answers each step with the top candidates of the next token (``top``: their logits and ids,
best first, computed on the last stage so that one small envelope crosses the last hop). A :class:`Generation`
turns a prompt into the steps of one session: step 0 carries the whole prompt (the prefill), every later
step the token chosen last; the stages keep the KV cache. It owns no clock, thread or socket: a driver
(in-process fleet, MQTT host endpoint, client) sends :meth:`Generation.next_step` and hands the outputs
back to :meth:`Generation.accept`.

Sampling: greedy by default (the first candidate; the model's TopK keeps the lower id first on ties, as
argmax does). With a temperature, the candidates are cut to ``top_k`` (at most the deployment's K), then to
the smallest prefix whose probability reaches ``top_p``, and one is drawn with a seeded generator, so a
seed reproduces a generation exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from bb_edge.deployment.candidates import top_candidates
from bb_edge.errors import BBError


class GenerationError(BBError):
    """A generation cannot start or go on (prompt too long for the context, bad sampling settings)."""


@dataclass(frozen=True)
class Sampling:
    """How the next token is chosen; the defaults are greedy."""

    temperature: float = 0.0
    top_k: int = 0
    top_p: float = 1.0
    seed: int = 0

    def check(self) -> None:
        """GenerationError unless every setting is a finite number in its range."""
        if not (math.isfinite(self.temperature) and self.temperature >= 0):
            raise GenerationError(f"--temperature {self.temperature}: give a finite number >= 0 (0 is greedy)")
        if not (math.isfinite(self.top_p) and 0 < self.top_p <= 1):
            raise GenerationError(f"--top-p {self.top_p}: give a number in (0, 1]")
        if self.top_k < 0:
            raise GenerationError(f"--top-k {self.top_k}: give 0 (all candidates) or a positive count")


@dataclass
class Generation:
    """One generation: the prompt's ids, then each chosen token (module docstring)."""

    prompt: list[int]
    max_tokens: int
    context: int
    eos: frozenset[int] = frozenset()
    sampling: Sampling = field(default_factory=Sampling)
    tokens: list[int] = field(default_factory=list)
    finished: str | None = None  # why it stopped: "eos", "max_tokens", "context"

    def __post_init__(self) -> None:
        self.sampling.check()
        if not self.prompt:
            raise GenerationError("the prompt has no tokens; give --prompt TEXT or --prompt-ids 1,2,3")
        if self.max_tokens < 1:
            raise GenerationError(f"--max-tokens {self.max_tokens}: give at least 1")
        if len(self.prompt) >= self.context:
            raise GenerationError(f"the prompt has {len(self.prompt)} tokens; the deployment's context is "
                                  f"{self.context} (shorten the prompt or compile with a larger --context)")
        self._rng = np.random.default_rng(self.sampling.seed)

    @property
    def step(self) -> int:
        """The index of the next step (0: the prefill)."""
        return len(self.tokens)

    @property
    def positions(self) -> int:
        """Tokens the stages' KV caches hold after the next step."""
        return len(self.prompt) + len(self.tokens)

    def next_step(self) -> dict[str, np.ndarray]:
        """The graph inputs of the next step: the prompt first, then the last chosen token."""
        if self.finished is not None:
            raise GenerationError(f"the generation is finished ({self.finished})")
        ids = self.prompt if not self.tokens else [self.tokens[-1]]
        return {"input_ids": np.asarray([ids], dtype=np.int64)}

    def accept(self, outputs: dict[str, np.ndarray]) -> int:
        """Choose the next token from one step's outputs; record it and whether the generation ends."""
        ids, logits32 = top_candidates(outputs)
        logits = logits32.astype(np.float64)
        token = int(ids[0]) if self.sampling.temperature == 0 else self._sample(ids, logits)
        self.tokens.append(token)
        if token in self.eos:
            self.finished = "eos"
        elif len(self.tokens) >= self.max_tokens:
            self.finished = "max_tokens"
        elif self.positions >= self.context:
            self.finished = "context"
        return token

    def _sample(self, ids: np.ndarray, logits: np.ndarray) -> int:
        k = len(ids) if self.sampling.top_k == 0 else min(self.sampling.top_k, len(ids))
        z = logits[:k] / self.sampling.temperature
        p = np.exp(z - z.max())
        p /= p.sum()
        keep = int(np.searchsorted(np.cumsum(p), self.sampling.top_p - 1e-12) + 1)  # smallest prefix >= top_p
        p = p[:keep] / p[:keep].sum()
        return int(ids[int(self._rng.choice(keep, p=p))])
