"""Activating abilities (the activated abilities of objects, the basic rune abilities): which can be
activated now, their costs and targets, and putting them on the chain (or resolving them at once:
an ability that adds resources is no chain item, 337.2).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from . import chain, layers, payment, playing, targeting, verbs
from ..script.cards import Ability
from .effects import EffectContext
from ..errors import IllegalActionError
from .state import NOWHERE, ChainItem, Obj

if TYPE_CHECKING:
    from .game import Game

ActivationBase = tuple[int, int, Ability, payment.Cost]


# ---------------------------------------------------------------------- abilities
def activatable(g: "Game", player: int, runes: bool = True) -> list[tuple[int, Ability]]:
    """(source, ability) pairs the player could activate, before cost and target checks; the
    runes' two abilities come last, unless ``runes`` is False."""
    out: list[tuple[int, Ability]] = []
    s = g.state
    p = s.players[player]
    objs, defs = s.objs, g.defs
    hosts = layers.attachments(g)  # units that may carry attachments
    granting = layers.may_grant_abilities(g)
    if granting:  # any object may have been given an ability
        sources = [p.legend] + [oid for oid in g.board_objects() if objs[oid].controller == player]
    else:
        # otherwise only an object with activated abilities of its own, borrowed ones or attached cards
        # has any: those the index knows (TriggerIndex.activators), in board_objects' order
        mine = _mine_on_board(objs, g.index.activators, player)
        if hosts:
            mine |= _mine_on_board(objs, hosts, player)
        sources = [p.legend] + ([oid for oid in g.board_objects() if oid in mine] if len(mine) > 1 else list(mine))
    for oid in sources:
        if oid == NOWHERE:
            continue
        obj = objs[oid]
        card = defs[obj.code]
        facts = card.facts
        own, borrows = facts.activated, facts.borrows
        if borrows or (oid in hosts and card.type == "unit" and obj.zone == "board" and layers.attached_to(g, oid)) \
                or (granting and layers.granted_abilities(g, oid)):
            for ability in activated_abilities(g, oid):
                if ability.kind == "activated" and _active_text(g, oid, ability):
                    out.append((oid, ability))
        elif own and obj.attached_to == NOWHERE:
            for ability in own:  # appended one by one: compiled, extend() copies a generator into a list first
                out.append((oid, ability))
    if not runes:
        return out
    for rune in p.runes:
        out.append((rune, payment.rune_ability(-1)))
        out.append((rune, payment.rune_ability(-2)))
    return out


def _mine_on_board(objs: dict[int, Obj], ids: dict[int, Any], player: int) -> set[int]:
    """Those of the objects that are on the board under the player's control."""
    return {oid for oid in ids if objs[oid].zone == "board" and objs[oid].controller == player}


def activated_abilities(g: "Game", oid: int) -> list[Ability]:
    """The card's own abilities, then those it borrows: 'I have all [E] abilities of ...' (Heimerdinger,
    Inventor) - numbered after its own, so an activation names them like its own."""
    card = g.card(oid)
    own = list(card.abilities)
    obj = g.state.objs.get(oid)
    if obj is None or obj.zone not in ("board", "legend"):
        return own
    granted = layers.granted_abilities(g, oid)
    if not granted and (obj.zone != "board" or not card.facts.borrows
                        and (card.type != "unit" or not layers.attached_to(g, oid))):
        return own  # nothing borrowed, granted or attached
    memo = g.caches.memo()  # listing legal actions asks this for every source in one unchanged state
    key = ("activated", oid)
    if key not in memo:
        memo[key] = own + _borrowed(g, oid, own) if obj.zone == "board" else list(own)
        memo[key] += _effect_text_activated(g, oid, len(memo[key]))
        memo[key] += _granted_activated(g, granted, len(memo[key]))
    remembered: list[Ability] = memo[key]
    return list(remembered)


def _borrowed(g: "Game", oid: int, own: list[Ability]) -> list[Ability]:
    obj = g.obj(oid)
    borrowed: list[Ability] = []
    for ability in own:
        if ability.kind != "static" or ability.body.get("affects", "self") != "self":
            continue
        for mod in ability.body.get("modifiers", []):
            if mod.get("type") != "abilities_of":
                continue
            ctx = EffectContext(g, obj.controller, oid)
            for lender in ctx.resolve(mod["what"]):
                if lender == oid:
                    continue
                for lent in g.card(lender).abilities:
                    if lent.kind == "activated" and (mod.get("ability") != "exhaust"
                                                     or lent.body.get("cost", {}).get("exhaust_self")):
                        borrowed.append(lent.renumbered(len(own) + len(borrowed),
                                                        {**lent.body, "_lent": [lender, lent.index]}))
    return borrowed


def _granted_activated(g: "Game", granted: list[tuple[dict[str, Any], int, Ability]], start: int) -> list[Ability]:
    """Activated abilities a static gives the object (its grant_ability modifiers), numbered after
    the others; each remembers where it was granted, so it resolves even if the grant ends."""
    out: list[Ability] = []
    for mod, src, static in granted:
        ability = g.granted_ability(mod)
        where = [src, static.index, static.body["modifiers"].index(mod)]
        out.append(ability.renumbered(start + len(out), {**ability.body, "_granted": where}))
    return out


def _effect_text_activated(g: "Game", oid: int, start: int) -> list[Ability]:
    """435.1.e: activated abilities in the effect text of the cards attached to a unit are the unit's,
    numbered after its own (and borrowed) ones."""
    if g.card(oid).type != "unit":
        return []
    out: list[Ability] = []
    for eq in layers.attached_to(g, oid):
        for ability in g.card(eq).abilities:
            if ability.kind == "activated" and ability.body.get("effect_text"):
                out.append(ability.renumbered(start + len(out), {**ability.body, "effect_text": False}))
    return out


def _active_text(g: "Game", oid: int, ability: Ability) -> bool:
    """718.2: an attached card's rules text is inactive; 435.1.e: effect text works only as the unit's."""
    return g.obj(oid).attached_to == NOWHERE and not ability.body.get("effect_text")


def is_add_ability(ability: Ability) -> bool:
    effect = ability.body.get("effect") or {}
    return effect.get("type") == "add"


def action_modes(g: "Game", action: Mapping[str, Any]) -> targeting.Modes | None:
    """The modes of what a play or activate action plays or activates (``targeting.Modes``), if any."""
    oid = action.get("card", action.get("source"))
    if not isinstance(oid, int) or oid not in g.state.objs:
        return None
    if action.get("type") == "play":
        return targeting.card_modes(g.card(oid))
    index = action.get("ability", 0)
    abilities = activated_abilities(g, oid) if g.obj(oid).zone in ("board", "legend") else []
    return targeting.ability_modes(abilities[index]) if isinstance(index, int) and 0 <= index < len(abilities) else None


def check_activate(g: "Game", player: int, action: dict[str, Any]) -> playing.PlayCheck:
    """Validate an activation completely; raise IllegalActionError saying why not."""
    return check_activation_targets(g, player, action, activation_base(g, player, action))


def activation_base(g: "Game", player: int, action: dict[str, Any]) -> ActivationBase:
    """The checks of an activation that don't depend on its targets: (source, ability index,
    ability, cost before the Deflect tax).  Listing legal actions makes them once per ability."""
    s = g.state
    oid = action.get("source")
    index = action.get("ability", 0)
    if not isinstance(oid, int) or oid not in s.objs or not isinstance(index, int):
        raise IllegalActionError(f"no ability {index!r} on #{oid}")
    obj = g.obj(oid)
    if obj.controller != player:
        raise IllegalActionError(f"you don't control {g.name(oid)}")
    if index < 0:
        if obj.zone != "runes":
            raise IllegalActionError(f"{g.name(oid)} is not a rune on the board")
        ability = payment.rune_ability(index)
    else:
        abilities = activated_abilities(g, oid)
        if index >= len(abilities) or abilities[index].kind != "activated":
            raise IllegalActionError(f"{g.name(oid)} has no activated ability {index}")
        if obj.zone not in ("board", "legend"):
            raise IllegalActionError(f"{g.name(oid)} is not on the board")
        ability = abilities[index]
        if not _active_text(g, oid, ability):
            raise IllegalActionError(f"{g.name(oid)}'s ability is inactive while it is attached", "718.2")
    ok, reason, rule = playing.timing_allows(g, player, ability.timing)
    if not ok:
        raise IllegalActionError(f"can't activate that ability now: {reason}", rule)
    ctx = EffectContext(g, player, oid)
    for key in ("only_while", "condition"):
        if key in ability.body and not ctx.check(ability.body[key]):
            raise IllegalActionError(f"{g.name(oid)}'s ability can't be used now (its condition doesn't hold)")
    if ability.body.get("once_per_turn") and any(h.kind == "activated" and h.obj == oid and h.code == str(index)
                                                 for h in g.state.history):
        raise IllegalActionError(f"{g.name(oid)}'s ability can be used only once each turn")
    cost_body = ability.body["cost"]
    cost = payment.ability_cost(g, player, oid, cost_body)
    if index >= 0:
        payment.ability_cost_changes(g, oid, ability, cost)  # "[Empower] costs of your units here cost {1} less"
    if cost.other.get("exhaust_self") and obj.exhausted:
        raise IllegalActionError(f"{g.name(oid)} is exhausted", "cost")
    return oid, index, ability, cost


def check_activation_targets(g: "Game", player: int, action: dict[str, Any], base: ActivationBase,
                             targets_listed: bool = False) -> playing.PlayCheck:
    """The rest of check_activate: targets, Deflect tax, other costs and payment.  The base's cost
    gets the Deflect tax added, so each call needs a base of its own (or a copy of its cost).
    ``targets_listed`` as for check_play_choices."""
    oid, index, ability, cost = base
    # engine notes, playing a card, step 2 (355), as the same process activates an ability: its modes now
    mode, (slots,) = targeting.check_modes(g, player, oid, targeting.ability_modes(ability) if index >= 0 else None,
                                           action, targeting.ability_targets(ability))
    targets = action.get("targets", [[] for _ in slots])
    if targets_listed:
        playing.check_target_counts(slots, targets)
    else:
        playing.check_targets(g, player, oid, slots, targets, NOWHERE)
    if targets and isinstance(ability.body["cost"].get("energy"), dict):
        # a computed cost may read the targets ("reduced by the Might of the unit you choose")
        cost.energy = stated_energy(g, player, oid, ability, targets)
    if targets:
        cost.power += payment.deflect_tax(g, player, playing.object_targets(slots, targets), oid)
    playing.check_other_costs(g, player, oid, cost.other)
    kind = g.card(oid).type if oid in g.state.objs else ""
    plan = payment.plan_payment(g, player, cost, for_gear=kind == "gear", for_unit=kind == "unit")
    if plan is None:
        raise IllegalActionError(f"you can't pay {cost.describe()} for that ability", "135")
    if index < 0 and plan.exhaust + [r for r, _ in plan.recycle]:
        raise IllegalActionError("rune abilities cost no energy")
    return playing.PlayCheck(cost, plan, NOWHERE, targets, pay_with=playing.read_pay_with(g, player, oid, cost.other, action),
                             mode=mode)


def stated_energy(g: "Game", player: int, oid: int, ability: Ability, targets: list[Any]) -> int:
    """The Energy cost an activated ability states, worked out for the chosen targets when it is computed
    (cost discounts and taxes aside): what paying it starts from, and what "an ability with Energy cost
    {7} or more" reads (``triggers.activated_energy``)."""
    energy = ability.body.get("cost", {}).get("energy", 0)
    if isinstance(energy, dict):
        ctx = EffectContext(g, player, oid)
        ctx.targets = targets
        return max(0, ctx.amount(energy))
    return int(energy)


def activate(g: "Game", player: int, action: dict[str, Any], check: playing.PlayCheck) -> None:
    oid = action["source"]
    index = action.get("ability", 0)
    ability = payment.rune_ability(index) if index < 0 else activated_abilities(g, oid)[index]
    item = ChainItem(id=g.tick(), kind="ability", controller=player, obj=oid, ability=index, targets=check.targets,
                     mode=list(check.mode))
    if index >= 0 and "_lent" in ability.body:
        # a borrowed ability stays on the chain even if the borrower or the lender leaves the board
        item.variables["_lent_by"], item.variables["_lent_index"] = ability.body["_lent"]
    if index >= 0 and "_granted" in ability.body:
        # likewise a granted one: its source, static ability and modifier
        item.variables["_granted_by"], item.variables["_granted_static"], item.variables["_granted_mod"] = \
            ability.body["_granted"]
    if index < 0:
        _rune(g, player, oid, index)
        return
    g.emit("activate", player=player, obj=oid, ability=index, targets=check.targets,
           **playing.chose_modes(g, player, oid, check.mode))
    if ability.body.get("once_per_turn"):
        g.remember("activated", player, oid, code=str(index))  # "use only once per turn"
    targeting.note_chosen(g, player, targeting.ability_targets(ability), check.targets, "ability", oid)
    if is_add_ability(ability):
        # add_energy hooks of the source as it is before its costs are paid (a Gold killed to pay)
        extra = sum(int(v) for v in layers.hook_values(g, oid, "add_energy"))
        if extra:
            item.variables["_add_energy"] = extra
    payment.pay(g, player, check.plan)
    playing.pay_other(g, player, oid, check.cost.other, item, check.pay_with)
    if is_add_ability(ability):
        ctx = EffectContext(g, player, oid, item)
        ctx.run(ability.body["effect"])  # 337.2: resolves at once, passes neither priority nor focus
        g.state.needs_cleanup = True
        return
    g.state.chain.append(item)
    if g.state.step == "expiration":
        g.state.expiration_chain_used = True  # 317.2.f: the expiration step repeats
    g.emit_event({"n": 0, "t": "finalize", "player": player, "obj": oid, "item": item.id})
    g.state.needs_cleanup = True
    playing.after_add(g, player, discretionary=True)


def _rune(g: "Game", player: int, oid: int, index: int) -> None:
    if index == -1:
        g.obj(oid).exhausted = True
        g.emit_event({"n": 0, "t": "rune_exhaust", "player": player, "obj": oid})
        verbs.add_resources(g, player, 1, [])
    else:
        domain = g.card(oid).domains[0]
        g.emit_event({"n": 0, "t": "rune_recycle", "player": player, "obj": oid, "domain": domain})
        verbs.recycle(g, [oid])
        verbs.add_resources(g, player, 0, [domain])
