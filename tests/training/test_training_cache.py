"""A cached training program (bb_edge/training/cache.py) is the program a node would have built, bit for bit.

Oracle: the program ``build_setup`` builds from the same deployment; both are stepped on ONNX Runtime with the
same batches and must give identical parameters and optimizer state. A cache built from another optimizer or
model, or a damaged file, is ignored (the node builds its own).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import onnx

from bb_edge.training.cache import SerializedModel, load_program, save_program
from bb_edge.training.runtime import Trainer
from bb_edge.training.setup import build_setup, cache_key, write_learning_deployment

LEARNING = {"strategy": "fedavg", "clients": 3, "rounds": 2, "seed": 0,
            "optimizer": {"kind": "adam", "lr": 0.01}}


def _cached(tmp_path: Path) -> tuple[Path, Path]:
    d = tmp_path / "dep"
    write_learning_deployment(d, LEARNING)
    built = build_setup(LEARNING, d)
    key = cache_key(built.cfg, d)
    assert key is not None
    return d, save_program(tmp_path / "program.npz", built.program, key)


def test_cached_program_steps_exactly_like_the_built_one(tmp_path: Path) -> None:
    d, cache = _cached(tmp_path)
    built = build_setup(LEARNING, d)
    cached = build_setup(LEARNING, d, program_cache=cache)
    assert isinstance(cached.program.model, SerializedModel)  # it did not build
    assert isinstance(built.program.model, onnx.ModelProto)
    assert cached.program.model.SerializeToString() == built.program.model.SerializeToString()
    for f in dataclasses.fields(built.program):
        if f.name not in ("model", "initial_params"):
            assert getattr(cached.program, f.name) == getattr(built.program, f.name), f.name
    assert list(cached.program.initial_params) == list(built.program.initial_params)
    for k, v in built.program.initial_params.items():
        assert cached.program.initial_params[k].dtype == v.dtype and np.array_equal(cached.program.initial_params[k], v)
    a, b = Trainer(built.program), Trainer(cached.program)
    x, y = built.parts[0].x, built.parts[0].y
    for i in range(0, 64, 16):
        assert a.step(x[i:i + 16], y[i:i + 16]) == b.step(x[i:i + 16], y[i:i + 16])
    assert np.array_equal(a.vector(), b.vector())
    assert all(np.array_equal(a.state[k], b.state[k]) for k in a.state)
    assert cached.accuracy(b.vector()) == built.accuracy(a.vector())  # the evaluator loads the model when asked


def test_a_cache_of_another_program_or_a_damaged_file_is_not_used(tmp_path: Path) -> None:
    d, cache = _cached(tmp_path)
    other = {**LEARNING, "optimizer": {"kind": "adam", "lr": 0.02}}
    setup = build_setup(other, d, program_cache=cache)
    assert isinstance(setup.program.model, onnx.ModelProto)  # built: the cache names lr 0.01
    assert setup.program.optimizer == build_setup(other, d).program.optimizer
    key = cache_key(build_setup(LEARNING, d).cfg, d)
    assert key is not None and load_program(cache, key) is not None
    cache.write_bytes(cache.read_bytes()[:100])
    assert load_program(cache, key) is None
    assert load_program(tmp_path / "missing.npz", key) is None
    assert isinstance(build_setup(LEARNING, d, program_cache=cache).program.model, onnx.ModelProto)
