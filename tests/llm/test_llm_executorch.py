"""A decoder stage on ExecuTorch: a split fleet with one stage exported to a .pte gives the unsplit tokens.

The tiny random-weight llama is split in process; one stage (whole decoder layers: GroupQueryAttention with
its KV cache kept per session on the node, RMSNormalization, the MLP; the embedding or the head and its top
candidates) runs on the ExecuTorch backend, exported once with dynamic sequence and past lengths; the others
on ONNX Runtime. The
oracle is one ONNX Runtime session of the whole unsplit decoder (:class:`~bb_edge.llm.fleet.FleetReference`):
greedy tokens equal for 16 new tokens over 3 prompts, and every step's top logits within float rounding
(ExecuTorch's kernels sum in another order than ONNX Runtime's, so not bit for bit).
"""

from __future__ import annotations

import numpy as np
import pytest

from bb_edge.adapters.fleet.generation import InprocStepper
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.deployment.candidates import top_candidates
from bb_edge.engine.engine import Engine
from bb_edge.engine.generation import Generation
from bb_edge.llm.fleet import FleetReference, compile_decoder, fleet_decoder
from bb_edge.llm.gguf_load import LlamaGGUF
from bb_edge.llm.onnx_build import build_decoder

CONTEXT = 256
PROMPTS = [[1, 5, 9, 3, 17, 40, 2], [7, 8], [100, 200, 30, 4, 250, 6]]


@pytest.mark.parametrize("weights,nodes,stage", [("fp32", 4, "n0"), ("fp16", 3, "n2")])
def test_a_stage_on_executorch_gives_the_unsplit_sessions_tokens(tiny: LlamaGGUF, weights: str, nodes: int,
                                                                 stage: str) -> None:
    """fp32: the first stage (embedding, layer 0) of 4; fp16: the last (layer 3, norm, head, top candidates)."""
    dec = build_decoder(tiny, weights, max_context=CONTEXT)
    dep, programs = compile_decoder(dec, None, nodes=nodes, llm={"eos": []})
    layer = dep.extra["placement"]["nodes"][stage]["layers"][0]
    ref = FleetReference(fleet_decoder(dec))
    et = Engine.for_node(dep, stage, programs, backend="executorch")
    assert type(et.backend).__name__ == "ExecuTorchBackend"
    with InProcFleet(dep, programs, engines={stage: et}) as fleet:
        stepper = InprocStepper(fleet)
        for s, prompt in enumerate(PROMPTS):
            gen = Generation(prompt, 16, CONTEXT)
            ref.reset()
            while gen.finished is None:
                step = gen.next_step()
                want = ref.step(step["input_ids"][0].tolist())
                out = stepper.wait(stepper.submit(step, s + 1, gen.step), 120)
                np.testing.assert_allclose(top_candidates(out)[1][None][:, :8], want["top_logits"][:, :8],
                                           rtol=1e-3, atol=1e-3)
                gen.accept(out)
            assert gen.tokens == ref.generate(prompt, 16)
        # the ExecuTorch stage kept each session's cache on its node: its prompt and 15 fed-back tokens
        held = {x.session: x.state[f"present.{layer}.key"].shape for x in fleet.engines[stage].sessions}
        assert held == {s + 1: (1, 2, len(p) + 15, 16) for s, p in enumerate(PROMPTS)}
