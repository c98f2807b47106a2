"""The next-token candidates a language-model deployment returns: the contract between the compiled model
(bb_edge/llm/fleet.py writes it) and generation (bb_edge/engine/generation.py reads it)."""

from __future__ import annotations

import numpy as np

#: the last stage's one graph output: float32 [1, 2, k], the k best logits, then their token ids as float32
#: (exact below 2**24), best first; one envelope on the last hop
TOP = "top"


def top_candidates(outputs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(ids int64, logits float32) of one step, best first: from ``top`` or from ``top_ids`` and ``top_logits``."""
    if TOP in outputs:
        top = np.asarray(outputs[TOP], dtype=np.float32).reshape(2, -1)
        return top[1].astype(np.int64), top[0]
    return (np.asarray(outputs["top_ids"]).reshape(-1).astype(np.int64),
            np.asarray(outputs["top_logits"], dtype=np.float32).reshape(-1))
