"""A decoder made ready for a fleet, and compiled into a stateful deployment (``bb-edge compile model.gguf``).

Three rewrites make a split decoder cost one small envelope per hop per token:

- **No mask on the wire.** Every layer derives GroupQueryAttention's lengths from its own KV cache (tokens
  already held) and the length of the hidden state it receives, so ``attention_mask`` is gone and no stage
  needs anything from the host but its first stage's token ids.
- **fp16 between layers.** The residual stream is rounded to float16 after every layer and widened again
  before the next (compute stays float32). A cut between any two layers then carries ``2 x hidden`` bytes
  per token, and because the unsplit model rounds at the same places, every split computes exactly what the
  unsplit model computes: 1, 2 or 3 stages give the same tokens as one ONNX Runtime session of this model.
- **Top candidates out.** The final norm and the head run on the last position only, and the last stage
  returns the ``top_k`` best next tokens of that position
  (best first; ties keep the lower id, as argmax does), not the whole vocabulary, as *one* tensor ``top``
  (float32 ``[1, 2, k]``: the logits, then the ids as float32, exact below 2^24) so that the last hop is one
  envelope per token like every other (:func:`bb_edge.engine.generation.top_candidates` reads it back).

Then :func:`compile_decoder` places whole layers on each node (embedding with the first, final norm and head
with the last), declares each layer's ``present.*`` -> ``past_key_values.*`` pair as node state (kept per
session on the node, never on the wire) and writes ``llm`` (tokenizer, context, end-of-sequence ids) into
deployment.json.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from bb_edge.deployment.candidates import TOP, top_candidates
from bb_edge.errors import PlacementError
from bb_edge.llm.onnx_build import EMBED_OUT, decoder_meta, layer_output, past_names, present_names
from bb_edge.llm.split import even_ranges

#: candidates the last stage returns (greedy needs 1; sampling draws among these)
DEFAULT_TOP_K = 64

_LAYER = re.compile(r"^/model/layers\.(\d+)/")


def to_wire(i: int) -> str:
    """The float16 residual stream after layer ``i``: what crosses a cut there."""
    return f"{layer_output(i)}/fp16"


def fleet_decoder(dec: onnx.ModelProto, top_k: int = DEFAULT_TOP_K) -> onnx.ModelProto:
    """``dec`` (from :func:`bb_edge.llm.onnx_build.build_decoder`) rewritten as the module docstring says."""
    meta = decoder_meta(dec)
    n_layers = int(meta["config"]["n_layers"])
    vocab = int(meta["config"]["vocab"])
    if vocab >= 2**24:
        raise PlacementError(f"a vocabulary of {vocab} ids does not fit float32's exact integers (2^24)")
    k = min(top_k, vocab)
    m = onnx.ModelProto()
    m.CopyFrom(dec)
    g = m.graph
    nodes = [n for n in g.node if not n.name.startswith("/model/attn_mask_reformat/")]
    new: list[onnx.NodeProto] = []
    inits = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in (
        ("/fleet/idx1", [1]), ("/fleet/idx2", [2]), ("/fleet/last", [-1]), ("/fleet/end", [np.iinfo(np.int64).max]),
        ("/fleet/k", [k]))] + [numpy_helper.from_array(np.array(1, np.int32), "/fleet/one_i32")]
    # a layer's lengths from its own cache and its input: total = held + new tokens; seqlens_k = total - 1
    for i in range(n_layers):
        p = f"/model/layers.{i}/lengths"
        h_in = EMBED_OUT if i == 0 else f"{layer_output(i - 1)}/fp32"
        pk = past_names(i)[0]
        new += [helper.make_node("Shape", [pk], [f"{p}/past_shape"], name=f"{p}/past_shape"),
                helper.make_node("Gather", [f"{p}/past_shape", "/fleet/idx2"], [f"{p}/held"], name=f"{p}/held"),
                helper.make_node("Shape", [h_in], [f"{p}/in_shape"], name=f"{p}/in_shape"),
                helper.make_node("Gather", [f"{p}/in_shape", "/fleet/idx1"], [f"{p}/new"], name=f"{p}/new"),
                helper.make_node("Add", [f"{p}/held", f"{p}/new"], [f"{p}/total64"], name=f"{p}/total64"),
                helper.make_node("Cast", [f"{p}/total64"], [f"{p}/total1"], name=f"{p}/total1",
                                 to=TensorProto.INT32),
                helper.make_node("Squeeze", [f"{p}/total1"], [f"{p}/total"], name=f"{p}/total"),
                helper.make_node("Sub", [f"{p}/total1", "/fleet/one_i32"], [f"{p}/seqlens_k"],
                                 name=f"{p}/seqlens_k")]
    for n in nodes:
        if n.op_type == "GroupQueryAttention" and n.domain == "com.microsoft":
            i = int(_LAYER.match(n.name).group(1))  # type: ignore[union-attr]
            n.input[5] = f"/model/layers.{i}/lengths/seqlens_k"
            n.input[6] = f"/model/layers.{i}/lengths/total"
    # fp16 between layers: consumers of layer i's output read it back from float16
    for i in range(n_layers - 1):
        out, wire, back = layer_output(i), to_wire(i), f"{layer_output(i)}/fp32"
        for n in nodes:
            for j, x in enumerate(n.input):
                if x == out:
                    n.input[j] = back
        new += [helper.make_node("Cast", [out], [wire], name=f"/model/layers.{i}/to_wire", to=TensorProto.FLOAT16),
                helper.make_node("Cast", [wire], [back], name=f"/model/layers.{i + 1}/from_wire",
                                 to=TensorProto.FLOAT)]
    # the head runs on the last position only: a prefill (a prompt, or a standby's replay) of n tokens then
    # costs one row of the vocabulary-wide MatMul instead of n (measured: a replay of 480 tokens through the
    # last stage of SmolLM2 took seconds, nearly all of it in logits no one reads)
    last_h = layer_output(n_layers - 1)
    for n in nodes:
        if n.name.startswith("/model/norm"):
            for j, x in enumerate(n.input):
                if x == last_h:
                    n.input[j] = "/model/norm/last_position"
    new.append(helper.make_node("Slice", [last_h, "/fleet/last", "/fleet/end", "/fleet/idx1"],
                                ["/model/norm/last_position"], name="/model/norm/last_position"))
    # the last position's best candidates
    new += [helper.make_node("Slice", ["logits", "/fleet/last", "/fleet/end", "/fleet/idx1"], ["/lm_head/last"],
                             name="/lm_head/last"),
            helper.make_node("Reshape", ["/lm_head/last", "/fleet/flat_v"], ["/lm_head/last2d"],
                             name="/lm_head/last2d"),
            helper.make_node("TopK", ["/lm_head/last2d", "/fleet/k"], ["/lm_head/top_logits", "/lm_head/top_ids"],
                             name="/lm_head/topk", axis=-1, largest=1, sorted=1),
            helper.make_node("Cast", ["/lm_head/top_ids"], ["/lm_head/top_ids_f"], name="/lm_head/top_ids_f",
                             to=TensorProto.FLOAT),
            helper.make_node("Concat", ["/lm_head/top_logits", "/lm_head/top_ids_f"], ["/lm_head/top2d"],
                             name="/lm_head/top2d", axis=0),
            helper.make_node("Unsqueeze", ["/lm_head/top2d", "/fleet/axis0"], [TOP], name="/lm_head/top")]
    inits.append(numpy_helper.from_array(np.array([0], np.int64), "/fleet/axis0"))
    inits.append(numpy_helper.from_array(np.array([1, vocab], np.int64), "/fleet/flat_v"))
    del g.node[:]
    g.node.extend(nodes + new)
    used = {x for n in g.node for x in n.input}
    kept_inits = [t for t in list(g.initializer) + inits if t.name in used]
    del g.initializer[:]
    g.initializer.extend(kept_inits)
    keep_in = [x for x in g.input if x.name != "attention_mask"]
    del g.input[:]
    g.input.extend(keep_in)
    keep_out = [x for x in g.output if x.name != "logits"]
    del g.output[:]
    g.output.extend(keep_out + [helper.make_tensor_value_info(TOP, TensorProto.FLOAT, [1, 2, k])])
    # batch 1: a session is one sequence (static dims let every stage's contract be checked)
    for vi in list(g.input) + list(g.output):
        dims = vi.type.tensor_type.shape.dim
        if dims and dims[0].dim_param == "batch_size":
            dims[0].Clear()
            dims[0].dim_value = 1
    _sort_topologically(g)
    return m


def _sort_topologically(g: onnx.GraphProto) -> None:
    """Reorder ``g``'s nodes so every input is produced earlier (the rewrites appended producers last)."""
    ready = {i.name for i in g.input} | {t.name for t in g.initializer} | {""}
    pending = list(g.node)
    ordered: list[onnx.NodeProto] = []
    while pending:
        rest = []
        for n in pending:
            if all(x in ready for x in n.input):
                ordered.append(n)
                ready.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):
            raise PlacementError(f"decoder graph has a cycle or a missing tensor near {rest[0].name!r}")
        pending = rest
    del g.node[:]
    g.node.extend(ordered)


def layer_placement(m: onnx.ModelProto, names: Sequence[str], layer_ranges: Sequence[range]) -> dict[str, str]:
    """Op name -> node: each layer's ops on its range's node, the embedding first, the head last."""
    stage_of = {i: names[k] for k, r in enumerate(layer_ranges) for i in r}
    out: dict[str, str] = {}
    for n in m.graph.node:
        hit = _LAYER.match(n.name)
        if hit:
            out[n.name] = stage_of[int(hit.group(1))]
        elif n.name.startswith("/model/embed_tokens"):
            out[n.name] = names[0]
        elif n.name.startswith(("/model/norm", "/lm_head")):
            out[n.name] = names[-1]
        else:
            raise PlacementError(f"decoder op {n.name!r} belongs to no layer, the embedding or the head")
    return out


def state_pairs(layers: range) -> list[dict[str, str]]:
    """The deployment's state entries of a node running ``layers``: present -> past, key and value."""
    out = []
    for i in layers:
        for present, past in zip(present_names(i), past_names(i)):
            out.append({"output": present, "input": past})
    return out


def compile_decoder(dec: onnx.ModelProto, out_dir: str | Path | None, *, nodes: int = 1,
                    node_names: Sequence[str] | None = None, context: int | None = None,
                    top_k: int = DEFAULT_TOP_K, llm: dict[str, Any] | None = None,
                    max_sessions: int = 4, standby: Mapping[str, str | Sequence[str]] | None = None,
                    memory_limits: Mapping[str, int] | None = None,
                    rebuild: str = "replicate") -> tuple[Any, dict[str, onnx.ModelProto]]:
    """A deployment of ``dec`` split by layers over ``nodes`` nodes, KV caches as node state.

    Each node's limits hold ``max_sessions`` sessions of its layers' KV cache at ``context`` tokens
    (``state_budget``) and one such session (``session_bytes``); the fit report (``placement.nodes``) lists
    weight and KV bytes per node. ``standby`` (stage -> standby node(s)) adds nodes that run a stage's
    program and keep a replica of every session of it (docs/failover.md): each counts the replicated KV of
    the ``max_sessions`` sessions it would inherit in its own budget. ``memory_limits`` (node -> bytes) refuses
    a node, stage or standby, whose weights plus KV budget do not fit, with the bytes. ``rebuild`` is how a
    standby rebuilds its sessions (docs/llm.md "Failover"): ``replicate`` (state deltas from the primary) or
    ``replay``: the stage before a standby's stage keeps each session's inputs to it (``replay_bytes``: the
    hidden states of ``context`` tokens) and counts them in its budget.
    """
    from bb_edge.compiler.compile import default_names
    from bb_edge.compiler.partition import partition
    from bb_edge.deployment.manifest import InvalidDeploymentError, validate_manifest
    from bb_edge.names import check_name

    meta = decoder_meta(dec)
    cfg = meta["config"]
    ctx = int(context or meta.get("max_context") or cfg["context_length"])
    names = list(node_names) if node_names else default_names(nodes)
    for n in names:
        check_name(n, "node")
    ranges = even_ranges(int(cfg["n_layers"]), len(names))
    model = fleet_decoder(dec, top_k)
    for r in ranges[:-1]:
        _wire_2d(model, r.stop - 1)
    # the decoder is ours and uses ONNX Runtime's contrib ops (GroupQueryAttention, MatMulNBits), which the
    # generic loader refuses for portability: it is partitioned as built, its crossing tensors typed here
    model.graph.value_info.extend(
        helper.make_tensor_value_info(to_wire(r.stop - 1), TensorProto.FLOAT16, ["sequence_length", cfg["hidden"]])
        for r in ranges[:-1])
    name = re.sub(r"[^A-Za-z0-9_]", "_", Path(str(meta.get("source", "llm"))).stem)
    dep, programs = partition(model, layer_placement(model, names, ranges), name=name, node_order=names,
                              allow_cycles=False)
    dep.extra["pipeline"] = True
    dep.extra["backend"] = "ort"  # contrib ops: ONNX Runtime by default; ExecuTorch converts them too (docs/llm.md)
    state = {name: state_pairs(r) for name, r in zip(names, ranges)}
    state_names = {e[k] for pairs in state.values() for e in pairs for k in ("output", "input")}
    dep.inputs = [i for i in dep.inputs if i.name not in state_names]
    dep.outputs = [o for o in dep.outputs if o.name not in state_names]
    for spec in dep.nodes:
        spec.inputs = [x for x in spec.inputs if x not in state_names]
        spec.outputs = [x for x in spec.outputs if x not in state_names]
    dep.extra["state"] = state
    kv_per_token = 2 * int(cfg["n_kv_heads"]) * (int(cfg["hidden"]) // int(cfg["n_heads"])) * 4
    report: dict[str, dict[str, Any]] = {}
    for spec, r in zip(dep.nodes, ranges):
        kv = len(r) * kv_per_token * ctx
        wbytes = sum(len(t.raw_data) or numpy_helper.to_array(t).nbytes for t in programs[spec.name].graph.initializer)
        spec.limits = {**spec.limits, "state_budget": max_sessions * kv, "session_bytes": kv,
                       "max_sessions": max_sessions}
        report[spec.name] = {"layers": [r.start, r.stop], "weight_bytes": wbytes, "kv_bytes_at_context": kv,
                             "kv_bytes_per_token": len(r) * kv_per_token}
    if rebuild not in ("replicate", "replay"):
        raise PlacementError(f"--rebuild {rebuild!r}: give replicate or replay")
    for stage, sbs in (standby or {}).items():
        if stage not in report:
            raise PlacementError(f"--standby {stage}=...: {stage!r} is not a stage; stages: {', '.join(names)}")
        if rebuild == "replay" and stage != names[0]:  # the previous stage keeps the hidden states into this one
            # (the first stage's inputs are token ids, which the session's owner keeps)
            up = names[names.index(stage) - 1]
            keep = ctx * 2 * int(cfg["hidden"]) + 4096  # fp16 rows of the context, and room for the last step
            spec_up = dep.node(up)
            spec_up.limits = {**spec_up.limits, "replay_bytes": keep}
            report[up]["replay_log_bytes"] = max_sessions * keep
        for sb in [sbs] if isinstance(sbs, str) else sbs:
            dep.add_standby(stage, sb)  # same program and limits: the stage's sessions fit it as they fit the stage
            programs[sb] = programs[stage]  # one file, <stage>.onnx, named by both
            own = report[stage]
            report[sb] = {**own, "standby_of": stage, "replica_bytes": max_sessions * own["kv_bytes_at_context"]}
    for node, est in report.items():
        est["kv_budget_bytes"] = max_sessions * est["kv_bytes_at_context"] + est.get("replay_log_bytes", 0)
        _check_fit(node, est, max_sessions, ctx, (memory_limits or {}).get(node))
    unknown = sorted(set(memory_limits or {}) - set(report))
    if unknown:
        raise PlacementError(f"--memory-limit for {', '.join(unknown)}: no such node; nodes: {', '.join(report)}")
    dep.extra["placement"] = {"method": "layers", "context": ctx, "max_sessions": max_sessions, "nodes": report}
    if standby:
        dep.extra["rebuild"] = rebuild
    dep.extra["llm"] = {"context": ctx, "vocab": int(cfg["vocab"]), "top_k": min(top_k, int(cfg["vocab"])),
                        "weights": meta.get("weights"), "source": meta.get("source"), **(llm or {})}
    problems = validate_manifest(dep.to_json())
    if problems:
        raise InvalidDeploymentError(f"the deployment compiled from {name}", problems)
    if out_dir is not None:
        write_programs(dep, programs, Path(out_dir))
    return dep, programs


def _wire_2d(m: onnx.ModelProto, i: int) -> None:
    """The cut after layer ``i`` carries ``[tokens, hidden]`` (batch 1 dropped) instead of ``[1, tokens, hidden]``.

    Why: an envelope's header is 64 bytes plus 8 per two dims (docs/wire.md), so rank 2 instead of 3 is 8
    bytes less on every hop of every token (1232 -> 1224 for SmolLM2). The values are the same: layer ``i``
    squeezes the batch axis, layer ``i + 1`` puts it back before widening to float32.
    """
    wire = to_wire(i)
    wide = f"{wire}/3d"
    for n in m.graph.node:
        n.output[:] = [wide if x == wire else x for x in n.output]
        if n.op_type == "Cast" and n.name == f"/model/layers.{i + 1}/from_wire":
            n.input[:] = [f"{wire}/back3d" if x == wire else x for x in n.input]
    m.graph.node.extend([
        helper.make_node("Squeeze", [wide, "/fleet/axis0"], [wire], name=f"/model/layers.{i}/to_wire_2d"),
        helper.make_node("Unsqueeze", [wire, "/fleet/axis0"], [f"{wire}/back3d"],
                         name=f"/model/layers.{i + 1}/from_wire_3d")])
    _sort_topologically(m.graph)


def write_programs(dep: Any, programs: Mapping[str, onnx.ModelProto], out_dir: Path) -> None:
    """``<node>.onnx`` with its weights beside it in ``<node>.onnx.data`` (ONNX external data), and
    deployment.json with each program's digest (``program_sha256``, of the program whole).

    Why external data: a node's ONNX Runtime session then maps the weights file instead of copying every
    weight out of the program (the engine loads the program without them, :meth:`Deployment.program`), so a
    node holds its weights once, as the memory goal (weights + KV budget + 80 MB) counts them. Every other
    reader (``onnx.load``) gets the program whole, equal to the one compiled.
    """
    import hashlib

    out_dir.mkdir(parents=True, exist_ok=True)
    digests: dict[str, str] = {}
    written: dict[str, str] = {}
    for spec in dep.nodes:
        if spec.program in written:  # a standby names its stage's file
            digests[spec.name] = written[spec.program]
            continue
        data = out_dir / f"{Path(spec.program).name}.data"
        data.unlink(missing_ok=True)  # onnx appends to an existing data file: a recompile would grow it
        copy = onnx.ModelProto()
        copy.CopyFrom(programs[spec.name])  # saving as external data rewrites the model it is given
        onnx.save(copy, str(out_dir / spec.program), save_as_external_data=True, all_tensors_to_one_file=True,
                  location=data.name, size_threshold=1024)
        # the digest of the program as every reader loads it back (onnx.load marks each tensor's data location,
        # which the compiled proto leaves unset: the two serialise differently)
        # (bb_edge.engine.engine.program_digest's rule, which the compiler may not import)
        whole = onnx.load(str(out_dir / spec.program))
        digest = hashlib.sha256(whole.SerializeToString(deterministic=True)).hexdigest()
        written[spec.program] = digests[spec.name] = digest
    dep.extra["program_sha256"] = digests
    dep.save(out_dir)


def _check_fit(node: str, est: dict[str, Any], max_sessions: int, ctx: int, limit: int | None) -> None:
    """PlacementError with the bytes when ``node``'s weights and KV budget pass its memory limit.

    A standby is held to the sessions it would inherit (its replicas), so a fleet whose standby cannot take
    over is refused here, not at failover.
    """
    need = int(est["weight_bytes"]) + int(est["kv_budget_bytes"])
    if limit is None or need <= limit:
        return
    role = f"standby {node} of {est['standby_of']}" if "standby_of" in est else f"node {node}"
    held = "replicas of the sessions it would inherit" if "standby_of" in est else "sessions"
    raise PlacementError(f"{role} does not fit its memory limit: {est['weight_bytes']} bytes of weights + "
                         f"{max_sessions} x {est['kv_bytes_at_context']} bytes of KV ({held} at {ctx} tokens) = "
                         f"{need} bytes > {limit} bytes; give it more memory, fewer sessions or a shorter context")


class FleetReference:
    """One ONNX Runtime session of the whole (unsplit) fleet decoder, its KV cache fed back by hand.

    The oracle of the split fleet: a greedy generation of a split deployment must give its tokens exactly.
    """

    def __init__(self, model: onnx.ModelProto, threads: int = 1) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
        self._past = [i for i in self.session.get_inputs() if i.name.startswith("past_key_values.")]
        self.reset()

    def reset(self) -> None:
        """Forget the cache (a new sequence)."""
        self.cache = {i.name: np.zeros([0 if not isinstance(d, int) else d for d in i.shape], np.float32)
                      for i in self._past}

    def step(self, ids: Sequence[int]) -> dict[str, np.ndarray]:
        """Run ``ids`` after what the cache holds; the step's ``top`` and, read from it, ``top_ids`` and
        ``top_logits`` ([1, k] each)."""
        feeds = {"input_ids": np.asarray([list(ids)], np.int64), **self.cache}
        names = [o.name for o in self.session.get_outputs()]
        outs = dict(zip(names, self.session.run(names, feeds)))
        self.cache = {n: outs[n.replace("past_key_values.", "present.")] for n in self.cache}
        top_ids, top_logits = top_candidates(outs)
        return {TOP: outs[TOP], "top_ids": top_ids[None], "top_logits": top_logits[None]}

    def generate(self, prompt: Sequence[int], max_new_tokens: int) -> list[int]:
        """Greedy tokens after ``prompt``."""
        self.reset()
        out: list[int] = []
        ids = list(prompt)
        for _ in range(max_new_tokens):
            out.append(int(self.step(ids)["top_ids"][0, 0]))
            ids = [out[-1]]
        return out


def compile_gguf(path: str | Path, out_dir: str | Path, *, nodes: int = 1, node_names: Sequence[str] | None = None,
                 weights: str = "int4", context: int | None = None, top_k: int = DEFAULT_TOP_K,
                 max_sessions: int = 4, standby: Mapping[str, str | Sequence[str]] | None = None,
                 memory_limits: Mapping[str, int] | None = None,
                 rebuild: str = "replicate") -> tuple[Any, dict[str, onnx.ModelProto]]:
    """``bb-edge compile model.gguf``: the decoder (gguf package + ONNX Runtime ops) split by layers over
    ``nodes`` nodes into ``out_dir``, with the GGUF's tokenizer (tokenizer.json) beside deployment.json;
    ``standby``, ``memory_limits`` and ``rebuild`` as :func:`compile_decoder`."""
    from bb_edge.llm.gguf_load import load_gguf, write_tokenizer
    from bb_edge.llm.onnx_build import WEIGHTS, build_decoder

    if weights not in WEIGHTS:
        raise PlacementError(f"--weights {weights!r}: give one of {', '.join(WEIGHTS)}")
    model = load_gguf(path)
    cfg = model.config
    ctx = context or cfg.context_length
    if not 1 <= ctx <= cfg.context_length:
        raise PlacementError(f"--context {ctx}: the model was trained for at most {cfg.context_length} tokens; "
                             f"give --context 1..{cfg.context_length}")
    if nodes > cfg.n_layers:
        raise PlacementError(f"--nodes {nodes}: the model has only {cfg.n_layers} decoder layers to split; "
                             f"give --nodes 1..{cfg.n_layers} (whole layers per node)")
    dec = build_decoder(model, weights, max_context=ctx)
    out = Path(out_dir)
    write_tokenizer(path, out)
    eos = [cfg.eos_token_id] if cfg.eos_token_id is not None else []
    llm = {"tokenizer": "tokenizer.json", "eos": eos, "bos": cfg.bos_token_id,
           "add_bos": bool(model.metadata.get("tokenizer.ggml.add_bos_token", False)),
           "architecture": "llama", "layers": cfg.n_layers, "hidden": cfg.hidden}
    return compile_decoder(dec, out, nodes=nodes, node_names=node_names, context=ctx, top_k=top_k, llm=llm,
                           max_sessions=max_sessions, standby=standby, memory_limits=memory_limits,
                           rebuild=rebuild)
