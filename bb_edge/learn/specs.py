"""A component from its spec in a learning config: ``{"type": <type_id>, **config}`` or a bare type id."""

from __future__ import annotations

from typing import Any

from bb_edge.learn.roles import ConfigError, create

__all__ = ["component"]


def component(spec: Any) -> Any:
    """A component from ``{"type": id, **config}`` (or a bare type id); ``None`` stays ``None``.

    ``malicious`` and ``knowledge`` belong to the attack's placement in the run, not to the component.
    """
    if spec is None:
        return None
    if isinstance(spec, str):
        return create(spec)
    if not isinstance(spec, dict) or "type" not in spec:
        raise ConfigError(f"component spec needs a 'type': {spec!r}")
    return create(spec["type"], **{k: v for k, v in spec.items() if k not in ("type", "malicious", "knowledge")})
