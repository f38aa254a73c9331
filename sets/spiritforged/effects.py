"""Spiritforged's own effect primitive (entry point group ``riftscript.effects``).

``{type: swap_might, a: SELECTOR, b: SELECTOR, duration: this_turn}`` (Switcheroo): each of the two
units gets the other's current Might for the duration.  No other set swaps Might, so it lives here,
built from the built-in ``modify_might`` through ``ctx.run`` like the community example's primitive.
"""
from __future__ import annotations

from typing import Any

from riftscript.core.engine import layers
from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import EffectType

SCHEMA: dict[str, Any] = {
    "properties": {
        "a": {"$ref": "#/$defs/selector"},
        "b": {"$ref": "#/$defs/selector"},
        "duration": {"$ref": "#/$defs/duration"},
    },
    "required": ["a", "b"],
}


def swap_might(ctx: Any, node: dict[str, Any]) -> None:
    """Read both Mights first, then give each unit the difference as a lasting Might change."""
    g = ctx.g
    a = [o for o in ctx.resolve(node["a"]) if g.obj(o).zone == "board"]
    b = [o for o in ctx.resolve(node["b"]) if g.obj(o).zone == "board"]
    if not a or not b:
        return
    might_a, might_b = layers.might(g, a[0]), layers.might(g, b[0])
    for unit, delta in ((a[0], might_b - might_a), (b[0], might_a - might_b)):
        if delta:
            ctx.bindings["@swap_might"] = [unit]
            ctx.run({"type": "modify_might", "target": {"named": "swap_might"}, "amount": abs(delta),
                     "negative": delta < 0, "duration": node.get("duration", "this_turn")})


@hookimpl
def riftscript_effect_types() -> list[EffectType]:
    return [EffectType(name="swap_might", run=swap_might, schema=SCHEMA, emits=("lasting",),
                       plugin="spiritforged-effects", text="swap the Might of {a} and {b}{duration}")]
