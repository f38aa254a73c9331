"""English for symbols and costs: energy and power, additional costs, "pay" clauses."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from riftscript.tools.render.phrases import Ctx, Node, cap, is_int, mark, number_word, series

if TYPE_CHECKING:
    from riftscript.tools.render.renderer import Renderer


def power(self: Renderer, symbols: Node) -> str:
    if not isinstance(symbols, list):
        return mark(f"power {symbols!r}")
    out = []
    for s in symbols:
        if s == "own":
            out.append("{" + ("/".join(d.capitalize() for d in self.domains) or "Own") + "}")
        else:
            out.append("{" + str(s).capitalize() + "}")
    return "".join(out)


def resources(self: Renderer, energy: Node, power: Node, ctx: Ctx) -> str:
    """Energy and power as symbols: "{1}{Fury}"."""
    text = ""
    if energy is not None:
        if is_int(energy):
            text += "{" + str(energy) + "}"
        else:
            text += "{" + self.amount(ctx, energy).value + "}"
    if power:
        text += self.power(power)
    return text


def cost_parts(self: Renderer, ctx: Ctx, cost: Node, *, symbols: bool) -> list[str]:
    """The parts of a cost: symbols for an ability's cost ("{1}", "{Exhaust}"), or verb
    phrases for paying it inside an effect ("pay {1}", "exhaust me")."""
    if not isinstance(cost, Mapping):
        return [mark(f"cost {cost!r}")]
    parts: list[str] = []
    if "kill" in cost:
        parts.append("kill " + self.obj(ctx, cost["kill"]))
    if cost.get("kill_self"):
        parts.append(f"kill {ctx.self_obj}")
    if cost.get("recycle_self"):
        parts.append(f"recycle {ctx.self_obj}")
    if "discard" in cost and isinstance(cost.get("discard_what"), Mapping):
        noun = self.selection(ctx, {"pick": "choose", "what": "card", "where": cost["discard_what"]}).text
        parts.append(f"discard {noun}" if cost["discard"] == 1 else f"discard {cost['discard']} x {noun}")
    elif "discard" in cost:
        parts.append(f"discard {cost['discard']}")
    if "recycle_from_trash" in cost:
        parts.append(f"recycle {cost['recycle_from_trash']} from {ctx.your()} trash")
    if cost.get("spend_buff_self"):
        parts.append(f"spend {ctx.self_poss} buff")
    if "spend_buff" in cost:
        n = cost["spend_buff"]
        parts.append("spend a buff" if n == 1 else "spend any number of buffs" if n == "any_number"
                     else f"spend {number_word(n) if is_int(n) else n} buffs")
    if "exhaust" in cost:
        parts.append("exhaust " + self.obj(ctx, cost["exhaust"]))
    if "recycle" in cost:
        parts.append("recycle " + self.obj(ctx, cost["recycle"]))
    if "return_to_hand" in cost:
        parts.append(f"return {self.obj(ctx, cost['return_to_hand'])} to its owner's hand")
    if cost.get("banish_self"):
        parts.append(f"banish {ctx.self_obj}")
    if is_int(cost.get("xp")):
        parts.append(f"spend {cost['xp']} XP")
    resources = self.resources(cost.get("energy"), cost.get("power"), ctx)
    if cost.get("power_x"):
        parts.append("pay any amount of {Any}" if not symbols else "{X}")
    if cost.get("energy_x"):
        parts.append("pay any amount of Energy" if not symbols else "{X}")
    if resources:
        parts.append(resources if symbols else f"pay {resources}")
    if cost.get("exhaust_self"):
        parts.append("{Exhaust}" if symbols else f"exhaust {ctx.self_obj}")
    if symbols and cost.get("kill_self") and resources and parts and parts[0] == f"kill {ctx.self_obj}":
        parts = parts[1:] + parts[:1]  # "{1}{Calm}, {Exhaust}, Kill this"
    known = {"kill", "kill_self", "recycle_self", "discard", "discard_what", "recycle_from_trash", "spend_buff_self",
             "spend_buff", "exhaust", "energy", "power", "power_x", "exhaust_self", "recycle", "return_to_hand", "banish_self",
             "energy_x", "xp"}
    parts += [mark(f"cost {k}") for k in cost if k not in known]
    if symbols:
        parts = [cap(p) for p in parts]
    return parts


def pay(self: Renderer, ctx: Ctx, cost: Node) -> str:
    """A cost paid inside an effect: "pay {1}{Fury} and exhaust me"."""
    return series(self.cost_parts(ctx, cost, symbols=False))
