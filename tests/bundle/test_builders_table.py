"""The one dispatch table of bundle builders agrees with the builders target profiles may name."""

from __future__ import annotations

import importlib

from bb_edge.bundle import BUILDERS
from bb_edge.targets import BUILDERS as PROFILE_BUILDERS


def test_every_profile_builder_has_an_inference_and_a_learning_entry_that_imports() -> None:
    assert {b for b, _ in BUILDERS} == set(PROFILE_BUILDERS)
    assert set(BUILDERS) == {(b, learning) for b in PROFILE_BUILDERS for learning in (False, True)}
    for where in BUILDERS.values():
        mod, fn = where.split(":")
        assert callable(getattr(importlib.import_module(mod), fn)), where
