"""The built-in effect primitives' registration (entry point ``core-effects``): the primitives live in
plugins/effects.py, which setup.py compiles with mypyc; a compiled function can't carry pluggy's
hookimpl mark, so the hook is here, as plugins/agents.py registers the agents of plugins/policies.py."""
from __future__ import annotations

from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import EffectType
from riftscript.plugins.effects import PRIMITIVES


@hookimpl
def riftscript_effect_types() -> list[EffectType]:
    return list(PRIMITIVES)
