"""The ``riptide`` effect primitive (entry point group ``riftscript.effects``).

``{type: riptide, target: SELECTOR, amount: AMOUNT}``: deal AMOUNT damage to the target; if that
kills it, its controller's opponent (you) draws a card.  It is built from built-in primitives
through ``ctx.run``, so it needs nothing from the engine beyond the documented script language.
Its parameter schema refers to the effect schema's own definitions (``#/$defs/...``), so scripts
using it are checked as precisely as the built-in effects, with the same messages.
"""
from __future__ import annotations

from typing import Any

from riftscript.core import EffectType, hookimpl

SCHEMA: dict[str, Any] = {
    "properties": {
        "target": {"$ref": "#/$defs/selector"},
        "amount": {"$ref": "#/$defs/amount"},
    },
    "required": ["target", "amount"],
}


def riptide(ctx: Any, node: dict[str, Any]) -> None:
    """Deal the damage, then draw a card if it killed the target."""
    ctx.run({"type": "deal_damage", "target": node["target"], "amount": node["amount"]})
    ctx.run({"type": "if", "condition": {"type": "did", "what": "kill"}, "then": {"type": "draw", "amount": 1}})


@hookimpl
def riftscript_effect_types() -> list[EffectType]:
    return [EffectType(name="riptide", run=riptide, schema=SCHEMA, emits=("damaged", "draw", "burn_out"),
                       may_kill=True, plugin="tidecallers-effects")]
