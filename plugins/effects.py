"""Built-in effect primitives (placeholder until the kernel lands)."""
from __future__ import annotations

from riftscript.core.hookspecs import hookimpl
from riftscript.core.registry import EffectType


@hookimpl
def riftscript_effect_types() -> list[EffectType]:
    return []
