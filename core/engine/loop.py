"""The run loop's dispatch: the tasks a game has queued (``GameState.tasks``) and which module runs
each, with the rule for whether a task may ask a player mid-way (then the game runs it guarded, so
a paused choice can be replayed from a snapshot).

Tasks are named work the rules leave for later: ``resolve`` (the chain's top item), ``showdown_end``,
``combat_damage``, ``combat_cleanup``, and the setup tasks (``mulligan``, ``battlefield``,
``reveal_battlefields``, ``turn_order``, ``opening_hands``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import chain, combat, setup
from ..errors import EngineError

if TYPE_CHECKING:
    from .game import Game


def may_ask(g: "Game", task: list[Any]) -> bool:
    """Whether a task could need a player's answer mid-way (then it runs guarded)."""
    if task[0] == "resolve":
        item = g.state.chain[-1] if g.state.chain else None
        if item is None:
            return False
        if item.kind == "card":
            return any(a.decides for a in g.card(item.obj).abilities if a.kind == "spell") or g.optional_replacements()
        ability = g.item_ability(item) if item.ability >= 0 else None
        return ability is not None and (ability.decides or g.optional_replacements())
    return task[0] in ("combat_cleanup", "showdown_end") and g.optional_replacements()


def run_task(g: "Game", task: list[Any]) -> None:
    """Run one queued task (popped by the caller)."""
    name = task[0]
    if name == "resolve":
        chain.resolve_top(g)
    elif name == "showdown_end":
        combat.showdown_end(g)
    elif name == "combat_damage":
        combat.damage_step(g)
    elif name == "combat_cleanup":
        combat.combat_cleanup(g, int(task[1]))
    elif name == "mulligan":
        setup.ask_mulligan(g, int(task[1]))
    elif name in ("battlefield", "reveal_battlefields", "turn_order", "opening_hands"):
        setup.run_task(g, task)  # 488.5: chosen battlefields, then the turn order, then hands
    else:
        raise EngineError(f"unknown task {name!r}")
