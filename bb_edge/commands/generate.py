"""``bb-edge generate DIR --prompt TEXT --max-tokens N``: decode with a language model split across a fleet.

The text streams to stdout as tokens arrive; time to first token, tokens/s and bytes per token per hop go to
stderr (as llama.cpp's tools print them). The fleet is started here as ``bb-edge run`` starts it (in process,
``--transport mqtt://...`` with ``--processes``, ``serial://pty``), or is one already running
(``--fleet URL --client K``, as ``bb-edge request``). ``--sessions N`` runs N generations of the same prompt
at once, their steps interleaved.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bb_edge.commands._args import fleet_transport, non_negative_float, non_negative_int, positive_int
from bb_edge.errors import UsageError


def _ids(text: str) -> list[int]:
    try:
        ids = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of token ids, e.g. 1,2,3") from None
    if not ids or any(i < 0 for i in ids):
        raise argparse.ArgumentTypeError(f"{text!r}: give one or more token ids >= 0, e.g. 1,2,3")
    return ids


def _fraction(text: str) -> float:
    value = non_negative_float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text}: give a number in (0, 1]")
    return value


def llm_section(dep: Any) -> dict[str, Any]:
    """The deployment's ``llm`` section; UsageError when it was not compiled from a language model."""
    llm = dep.extra.get("llm")
    if not isinstance(llm, dict):
        raise UsageError(f"{dep.directory} holds no language model; compile one with `bb-edge compile model.gguf` "
                         f"(or an ONNX decoder)")
    return llm


def load_tokenizer(dep: Any, llm: dict[str, Any]) -> Any:
    """The deployment's tokenizer (tokenizer.json beside deployment.json), None when it has none."""
    name = llm.get("tokenizer")
    if not name or dep.directory is None:
        return None
    from tokenizers import Tokenizer

    path = Path(dep.directory) / str(name)
    if not path.is_file():
        raise UsageError(f"{path} is missing; compile the model again")
    return Tokenizer.from_file(str(path))


def prompt_ids(tok: Any, llm: dict[str, Any], args: argparse.Namespace) -> list[int]:
    """The prompt as token ids: ``--prompt-ids`` as given, else ``--prompt`` through the tokenizer."""
    if args.prompt_ids is not None:
        vocab = int(llm.get("vocab", 0))
        if vocab and max(args.prompt_ids) >= vocab:
            raise UsageError(f"--prompt-ids: id {max(args.prompt_ids)} is outside the vocabulary (0..{vocab - 1})")
        return list(args.prompt_ids)
    if tok is None:
        raise UsageError("this deployment has no tokenizer: give --prompt-ids 1,2,3 (and read --ids)")
    ids: list[int] = tok.encode(args.prompt, add_special_tokens=False).ids
    bos = llm.get("bos")
    if llm.get("add_bos") and bos is not None:
        ids = [int(bos)] + ids
    return ids


def hop_bytes(dep: Any) -> list[tuple[str, int]]:
    """Bytes of one decode step's envelope on every cross-node edge (dynamic dims of 1 token)."""
    import numpy as np

    from bb_edge.wire.envelope import data_offset

    out = []
    for e in dep.edges:
        n = int(np.prod([1 if d < 0 else d for d in e.shape])) * np.dtype(e.dtype).itemsize
        out.append((f"{e.src}->{e.dst}", data_offset(len(e.shape)) + n))
    return out


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from bb_edge.adapters.fleet.generation import EndpointStepper, GenerationStats, generate_many, open_stepper
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.engine.generation import Generation, Sampling

    if (args.prompt is None) == (args.prompt_ids is None):
        raise UsageError("give exactly one of --prompt TEXT and --prompt-ids 1,2,3")
    if args.fleet and (args.transport != "inproc" or args.processes):
        raise UsageError("--fleet reaches a fleet that is already running; leave out --transport and --processes")
    dep = load_deployment(args.dir)
    llm = llm_section(dep)
    tok = load_tokenizer(dep, llm)
    ids = prompt_ids(tok, llm, args)
    sampling = Sampling(args.temperature, args.top_k, args.top_p, args.seed)
    context = int(llm.get("context", 0)) or 2048
    eos = frozenset(int(x) for x in llm.get("eos", []))
    gens = {sid: Generation(ids, args.max_tokens, context, eos, Sampling(sampling.temperature, sampling.top_k,
                                                                         sampling.top_p, sampling.seed + sid - 1))
            for sid in range(1, args.sessions + 1)}
    err = Console(stderr=True)
    stats = GenerationStats()
    text_of = {sid: "" for sid in gens}
    show_ids = args.ids or tok is None

    def stream(stepper: Any) -> None:
        for ev in generate_many(stepper, gens, timeout=args.timeout, stats=stats):
            if ev.session != 1:
                continue  # session 1 streams; the others are reported at the end
            if show_ids:
                sys.stdout.write(f"{ev.token} ")
            else:
                full = tok.decode(gens[1].tokens, skip_special_tokens=True)
                sys.stdout.write(full[len(text_of[1]):])
                text_of[1] = full
            sys.stdout.flush()

    if args.fleet:
        from bb_edge.adapters.fleet.client import Client

        with Client(dep, args.fleet, client=args.client) as client:
            client.wait_for_nodes(args.wait_nodes)
            stream(EndpointStepper(client.endpoint))
    else:
        with open_stepper(dep, args.transport, args.backend, args.processes) as stepper:
            stream(stepper)
    sys.stdout.write("\n")
    for sid, gen in gens.items():
        if sid != 1:
            body = " ".join(map(str, gen.tokens)) if show_ids else tok.decode(gen.tokens, skip_special_tokens=True)
            sys.stdout.write(f"[session {sid}] {body}\n")
    sys.stdout.flush()  # the text before the figures when both go to one file
    n = len(gens[1].tokens)
    hops = ", ".join(f"{name} {b} B" for name, b in hop_bytes(dep)) or "none (one node)"
    err.print(f"prompt {len(ids)} tokens; generated {n} tokens in {args.sessions} session(s) "
              f"(stop: {gens[1].finished}); time to first token {stats.ttft(1) * 1e3:.1f} ms; "
              f"decode {stats.decode_rate(1):.1f} tokens/s; bytes per token per hop: {hops}",
              markup=False, highlight=False)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``generate`` subcommand."""
    from bb_edge.commands.request import _client_slot, _mqtt_url

    p = sub.add_parser("generate", help="generate text with a language model compiled from a GGUF or ONNX decoder")
    p.add_argument("dir", help="compiled deployment directory (bb-edge compile model.gguf)")
    p.add_argument("--prompt", help="prompt text (tokenized with the deployment's tokenizer)")
    p.add_argument("--prompt-ids", type=_ids, default=None, metavar="1,2,3", help="prompt as token ids")
    p.add_argument("--ids", action="store_true", help="print token ids instead of text")
    p.add_argument("--max-tokens", type=positive_int, default=64, help="tokens to generate at most (default 64)")
    p.add_argument("--temperature", type=non_negative_float, default=0.0, help="0 (default): greedy")
    p.add_argument("--top-k", type=non_negative_int, default=0, help="sample among the best K (0: all the model "
                                                                   "keeps)")
    p.add_argument("--top-p", type=_fraction, default=1.0, help="nucleus sampling threshold (default 1)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="sampling seed (reproducible)")
    p.add_argument("--sessions", type=positive_int, default=1, help="generations at once, steps interleaved")
    p.add_argument("--backend", default="ort", choices=["ort", "reference", "executorch"])
    p.add_argument("--transport", default="inproc", type=fleet_transport,
                   help="inproc (default), mqtt://HOST:PORT[?creds=FILE] or serial://pty")
    p.add_argument("--processes", action="store_true", help="one OS process per node (network transports)")
    p.add_argument("--fleet", type=_mqtt_url, default=None, metavar="URL",
                   help="a fleet already running (bb-edge node processes): generate as a client")
    p.add_argument("--client", type=_client_slot, default=1, help="client slot with --fleet (default 1)")
    p.add_argument("--wait-nodes", type=non_negative_float, default=30.0, help="seconds to wait for the nodes")
    p.add_argument("--timeout", type=non_negative_float, default=120.0, help="seconds one step may take")
    p.set_defaults(func=_run)
