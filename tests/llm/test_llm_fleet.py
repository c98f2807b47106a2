"""A language model split across a fleet, KV caches kept on the nodes: exact against one ORT session.

The oracle is :class:`~bb_edge.llm.fleet.FleetReference`: one ONNX Runtime session of the whole unsplit decoder
with its KV cache fed back by hand. Every split (1, 2, 3 nodes), every transport (in process, MQTT processes,
serial ptys) must give its tokens, and in process its top candidates' logits bit for bit, step by step.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.fleet.generation import generate_many, open_stepper
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.deployment.candidates import top_candidates
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.engine.generation import Generation, GenerationError, Sampling
from bb_edge.errors import BBError
from bb_edge.llm.fleet import FleetReference, compile_decoder, compile_gguf, fleet_decoder
from bb_edge.llm.gguf_load import UnknownArchitectureError, load_gguf, smollm2_path
from bb_edge.llm.onnx_build import build_decoder
from bb_edge.llm.tiny import write_foreign_gguf

PROMPT = [1, 5, 9, 3, 17, 40, 2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``bb-edge ARGS`` in a child process (the user's view: exit code and stderr)."""
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
CONTEXT = 256


@pytest.fixture(scope="module")
def tiny_dec(tiny_gguf: Path):  # type: ignore[no-untyped-def]
    return build_decoder(load_gguf(tiny_gguf), "int4", max_context=CONTEXT)


@pytest.fixture(scope="module")
def tiny_dirs(tiny_dec, tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:  # type: ignore[no-untyped-def]
    out = {}
    for n in (1, 2, 3):
        out[n] = tmp_path_factory.mktemp(f"tiny{n}")
        compile_decoder(tiny_dec, out[n], nodes=n, llm={"eos": []})
    return out


def reference_run(dec, prompt: list[int], n: int, sampling: Sampling) -> tuple[list[int], list[np.ndarray]]:  # type: ignore[no-untyped-def]
    """Tokens and per-step top logits of the unsplit decoder, the same sampling rule applied."""
    ref = FleetReference(fleet_decoder(dec))
    gen = Generation(prompt, n, CONTEXT, sampling=sampling)
    logits = []
    while gen.finished is None:
        out = ref.step(gen.next_step()["input_ids"][0].tolist())
        logits.append(out["top_logits"])
        gen.accept(out)
    return gen.tokens, logits


@pytest.mark.parametrize("nodes", [1, 2, 3])
def test_split_decoder_in_process_equals_the_unsplit_session_bit_for_bit(
        tiny_dec, tiny_dirs: dict[int, Path], nodes: int) -> None:  # type: ignore[no-untyped-def]
    dep = load_deployment(tiny_dirs[nodes])
    assert dep.stateful and len(dep.edges) == nodes - 1
    assert [i.name for i in dep.inputs] == ["input_ids"]  # the KV caches are node state, not inputs
    for greedy in (True, False):
        sampling = Sampling() if greedy else Sampling(temperature=1.0, top_k=20, top_p=0.9, seed=3)
        want, want_logits = reference_run(tiny_dec, PROMPT, 40, sampling)
        gen = Generation(PROMPT, 40, CONTEXT, sampling=sampling)
        with open_stepper(dep) as stepper:
            got_logits = []
            while gen.finished is None:
                handle = stepper.submit(gen.next_step(), 7, gen.step)
                out = stepper.wait(handle, 60)
                got_logits.append(top_candidates(out)[1][None])
                gen.accept(out)
        assert gen.tokens == want
        for a, b in zip(got_logits, want_logits, strict=True):
            np.testing.assert_array_equal(a, b)


def test_four_sessions_interleave_and_each_equals_its_own_reference(tiny_dec, tiny_dirs) -> None:  # type: ignore[no-untyped-def]
    dep = load_deployment(tiny_dirs[3])
    prompts = {s: PROMPT[: 3 + s] for s in range(1, 5)}
    samplings = {s: Sampling(temperature=0.8, seed=s) for s in prompts}
    gens = {s: Generation(prompts[s], 24, CONTEXT, sampling=samplings[s]) for s in prompts}
    with open_stepper(dep) as stepper:
        order = [ev.session for ev in generate_many(stepper, gens)]
    assert len(set(order[:8])) == 4  # every session's steps ran before any finished: interleaved
    for s in prompts:
        assert gens[s].tokens == reference_run(tiny_dec, prompts[s], 24, samplings[s])[0]


def test_over_mqtt_processes_and_serial_the_tokens_are_the_same(tiny_dec, tiny_dirs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dep = load_deployment(tiny_dirs[3])
    want = reference_run(tiny_dec, PROMPT, 32, Sampling())[0]
    broker = Broker(write_broker_files(tmp_path / "broker", dep)).start()
    try:
        gens = {1: Generation(PROMPT, 32, CONTEXT), 2: Generation(PROMPT[:4], 32, CONTEXT)}
        # one ORT thread per node process (bb-edge node --threads, as bench/bench_llm_split.py runs them)
        with open_stepper(dep, broker.files.url(), processes=True, node_args=["--threads", "1"]) as stepper:
            threads: list[str] = []
            submit = stepper.submit

            def recorded(*a: object) -> int:
                threads.append(threading.current_thread().name)
                return submit(*a)  # type: ignore[arg-type]

            stepper.submit = recorded  # type: ignore[method-assign]
            events = []
            for ev in generate_many(stepper, gens):
                events.append(ev)
                time.sleep(0.02)  # a slow consumer: the sessions run ahead of it, every token still comes
        assert sorted(e.session for e in events) == [1] * 32 + [2] * 32
        # each session's first step is sent here, every later one from the host's network thread that
        # received the answer before it (chained: no hand-over to this thread and back per token)
        assert threads[:2] == [threading.current_thread().name] * 2, threads[:3]
        assert set(threads[2:]) == {"paho-mqtt-client-_host"} and len(threads) == 64, set(threads)
        assert gens[1].tokens == want
        assert gens[2].tokens == reference_run(tiny_dec, PROMPT[:4], 32, Sampling())[0]
    finally:
        broker.stop()
    gen = Generation(PROMPT, 32, CONTEXT)
    with open_stepper(dep, "serial://pty") as stepper:
        list(generate_many(stepper, {1: gen}))
    assert gen.tokens == want


def test_a_client_generates_on_a_running_fleet_and_cannot_touch_another_clients_session(
        tiny_dec, tiny_dirs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from bb_edge.adapters.fleet.client import Client
    from bb_edge.adapters.fleet.generation import EndpointStepper
    from bb_edge.adapters.fleet.mqtt_fleet import spawn_node, stop_process

    dep = load_deployment(tiny_dirs[2])
    broker = Broker(write_broker_files(tmp_path / "broker", dep)).start()
    procs = [spawn_node(tiny_dirs[2], n, broker.files.url(), stdout=subprocess.DEVNULL) for n in dep.node_names]
    try:
        with Client(dep, broker.files.url(), client=1) as c1, Client(dep, broker.files.url(), client=2) as c2:
            c1.wait_for_nodes(60)

            async def tokens() -> list[int]:
                return [t async for t in c1.generate(PROMPT, 16, session=42)]

            assert asyncio.run(tokens()) == reference_run(tiny_dec, PROMPT, 16, Sampling())[0]
            # client 1 opens session 43 and takes one step; client 2 naming 43 opens its own, never client 1's
            one = EndpointStepper(c1.endpoint)
            one.wait(one.submit({"input_ids": np.array([PROMPT], np.int64)}, 43, 0), 60)
            two = EndpointStepper(c2.endpoint)
            with pytest.raises(BBError, match="SessionRefused.*not open"):
                two.wait(two.submit({"input_ids": np.array([[5]], np.int64)}, 43, 1), 60)
            out = one.wait(one.submit({"input_ids": np.array([[5]], np.int64)}, 43, 1), 60)
            ref = FleetReference(fleet_decoder(tiny_dec))
            ref.step(PROMPT)
            np.testing.assert_array_equal(top_candidates(out)[1][None], ref.step([5])["top_logits"])
    finally:
        for p in procs:
            stop_process(p)
        broker.stop()


def test_bad_generations_are_one_typed_error(tiny_dirs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(GenerationError, match="context is 256"):
        Generation(list(range(300)), 4, CONTEXT)
    r = run_cli("generate", str(tiny_dirs[1]), "--prompt-ids", ",".join(["5"] * 300), "--ids")
    assert r.returncode != 0 and "context is 256" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("generate", str(tiny_dirs[1]), "--prompt-ids", "1,2", "--temperature", "nan")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF" + b"\x00" * 64)
    r = run_cli("compile", str(bad), "--nodes", "2", "-o", str(tmp_path / "o"))
    assert r.returncode != 0 and r.stderr.count("\n") <= 2 and "Traceback" not in r.stderr


def test_an_unknown_architecture_is_refused(tmp_path: Path) -> None:
    path = write_foreign_gguf(tmp_path / "m.gguf", "mamba")
    with pytest.raises(UnknownArchitectureError, match="mamba"):
        load_gguf(path)


@pytest.fixture(scope="module")
def smollm2_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("smollm2")
    compile_gguf(smollm2_path(), out, nodes=3, context=CONTEXT)
    return out


def test_smollm2_split_three_ways_answers_paris_with_the_unsplit_tokens(smollm2_dir: Path, tmp_path: Path) -> None:
    from tokenizers import Tokenizer

    dep: Deployment = load_deployment(smollm2_dir)
    tok = Tokenizer.from_file(str(smollm2_dir / "tokenizer.json"))
    prompt = tok.encode("The capital of France is", add_special_tokens=False).ids
    dec = build_decoder(load_gguf(smollm2_path()), "int4", max_context=CONTEXT)
    ref = FleetReference(fleet_decoder(dec))
    want = ref.generate(prompt, 32)
    assert tok.decode(want).startswith(" Paris")
    for transport, processes in (("inproc", False), (None, True), ("serial://pty", False)):
        broker = None
        if transport is None:
            broker = Broker(write_broker_files(tmp_path / "broker", dep)).start()
            transport = broker.files.url()
        try:
            gen = Generation(prompt, 32, CONTEXT)
            with open_stepper(dep, transport, processes=processes) as stepper:
                list(generate_many(stepper, {1: gen}))
            assert gen.tokens == want, transport
        finally:
            if broker is not None:
                broker.stop()


def test_a_snapshot_mid_generation_restores_every_stage_and_the_tokens_go_on(tiny_dec, tiny_dirs) -> None:  # type: ignore[no-untyped-def]
    import itertools

    from bb_edge.adapters.fleet.generation import InprocStepper
    from bb_edge.adapters.transports.inproc import InProcFleet

    dep = load_deployment(tiny_dirs[3])
    want = reference_run(tiny_dec, PROMPT, 24, Sampling())[0]
    gen = Generation(PROMPT, 24, CONTEXT)
    with InProcFleet(dep) as fleet:
        stepper = InprocStepper(fleet)
        for _ in range(10):
            gen.accept(stepper.wait(stepper.submit(gen.next_step(), 9, gen.step), 60))
        blobs = {n: e.snapshot() for n, e in fleet.engines.items()}
    assert all(len(e.sessions) == 1 for e in fleet.engines.values())
    with InProcFleet(dep) as fresh:  # every node restarted from its --state
        for n, e in fresh.engines.items():
            e.restore(blobs[n])
        stepper = InprocStepper(fresh)
        stepper._rid = itertools.count(1000)  # request ids never reused within a fleet's life
        while gen.finished is None:
            gen.accept(stepper.wait(stepper.submit(gen.next_step(), 9, gen.step), 60))
    assert gen.tokens == want
