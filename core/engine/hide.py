"""Hiding a card (811, Hidden): the ``hide`` action puts a card with Hidden facedown at a battlefield
the player controls, for one power of any domain or another cost an effect offers (811.1.a).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import layers, payment
from ..errors import IllegalActionError
from .state import Decision, is_battlefield

if TYPE_CHECKING:
    from .game import Game
    from .vocabulary import EngineAction


# ---------------------------------------------------------------------- hiding (811)
def hide_actions(g: "Game", player: int, d: Decision | None = None) -> list[EngineAction]:
    out: list[EngineAction] = []
    s = g.state
    if s.chain or s.turn_player != player or s.step != "main":
        return out
    held = [bf for bf in s.battlefields if bf.controller == player]
    if not held:
        return out  # 811.1.a: hidden only at a battlefield the player controls (no card's hooks read)
    alternative: bool | None = None
    for oid in s.players[player].hand:
        if True not in layers.hook_values(g, oid, "hide"):
            continue
        if alternative is None:
            alternative = len(_hide_costs(g, player)) > 1  # a 'hide_cost' effect offers another way to pay (811.1.a)
        for bf in held:  # check_hide refuses the others (811.1.a): not worth an exception for each listing
            variants: list[EngineAction] = [{"type": "hide", "card": oid, "battlefield": bf.loc}]
            if alternative:
                variants.append({"type": "hide", "card": oid, "battlefield": bf.loc, "costs": ["hide_cost"]})
            for action in variants:
                try:
                    check_hide(g, player, action)
                except IllegalActionError:
                    continue
                out.append(action)
    return out


def check_hide(g: "Game", player: int, action: EngineAction) -> payment.Plan:
    s = g.state
    oid = action.get("card")
    loc = action.get("battlefield")
    if not isinstance(oid, int) or oid not in s.objs or g.obj(oid).zone != "hand" or g.obj(oid).owner != player:
        raise IllegalActionError(f"#{oid} is not a card in your hand")
    if True not in layers.hook_values(g, oid, "hide"):
        raise IllegalActionError(f"{g.name(oid)} doesn't have Hidden", "811")
    if s.chain or s.turn_player != player:
        raise IllegalActionError("cards are hidden only in your open state on your turn", "811.1.a")
    if not isinstance(loc, int) or not is_battlefield(loc) or loc - 10 >= len(s.battlefields):
        raise IllegalActionError(f"{loc!r} is not a battlefield")
    bf = g.bf_at(loc)
    if bf.controller != player:
        raise IllegalActionError("cards are hidden only at a battlefield you control", "811.1.a")
    room = 1 + sum(int(v) for v in layers.hook_values(g, bf.card, "extra_hidden_cards"))
    if len(bf.facedown) >= room:
        raise IllegalActionError("that battlefield already has a hidden card", "811.1.a")
    costs = _hide_costs(g, player)
    default = costs[0] if costs and costs[0] is _ONE_POWER else None
    if "hide_cost" in action.get("costs", []):
        # the player pays what a 'hide_cost' effect offers instead of the power (Swift Scout, 811.1.a)
        costs = [c for c in costs if c is not default]
    else:
        # otherwise a free way first (Guerilla Warfare: "hide ignoring costs"), then the power
        costs = sorted(costs, key=lambda c: bool(c.energy or c.power or c.other))
    for cost in costs:
        plan = payment.plan_payment(g, player, cost)
        if plan is not None:
            return plan
    raise IllegalActionError("hiding costs one power of any domain", "811.1.a")


_ONE_POWER: Final = payment.Cost(0, [payment.ANY])


def _hide_costs(g: "Game", player: int) -> list[payment.Cost]:
    """One power of any domain (811), or what a 'hide_cost' effect lets the player pay instead."""
    costs = [_ONE_POWER]
    for mod, src in layers.static_modifiers(g, "hide_cost"):
        if g.obj(src).controller == player:
            alternative = payment.ability_cost(g, player, src, mod["cost"])
            costs = costs + [alternative] if mod.get("optional") else [alternative]
    for lasting in g.active_lasting():
        if lasting.controller == player and lasting.kind == "static":
            for mod in lasting.body["modifiers"]:
                if mod["type"] == "hide_cost":
                    alternative = payment.ability_cost(g, player, lasting.source, mod["cost"])
                    costs = costs + [alternative] if mod.get("optional") else [alternative]
    return costs


def hide(g: "Game", player: int, action: EngineAction, plan: payment.Plan) -> None:
    payment.pay(g, player, plan)
    oid = int(action["card"])
    g.place(oid, "facedown", int(action["battlefield"]))
    g.obj(oid).controller = player
    g.obj(oid).hidden_turn = g.state.turn
    g.emit("hide", player=player, obj=oid, loc=action["battlefield"])
    g.state.needs_cleanup = True
