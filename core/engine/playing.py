"""Playing a card (the process of playing, 346-357): timing (308-310), where a card may be played
from and to, its choices (location, targets, optional costs), the total cost and paying it, then the
card on the chain.

Playing follows the pending steps of the rules: the card moves to the chain, choices are made
(location, targets, optional costs), the total cost is paid, legality is checked, and the item
is finalized.  Units, gear and resource-adding abilities resolve as soon as they are finalized
(337.2), through ``chain.resolve_item``.  Every check happens before anything changes, so an
illegal play raises IllegalActionError with the state untouched.
"""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from . import chain, layers, movement, payment, replacement, targeting, verbs
from ..script.cards import CardDef
from .effects import EffectContext
from ..errors import IllegalActionError
from .state import NOWHERE, ChainItem, Lasting, is_battlefield

if TYPE_CHECKING:
    from .game import Game

PlayBase = tuple[int, CardDef, int, bool]


def timing_allows(g: "Game", player: int, timing: str | None) -> tuple[bool, str, str]:
    """(allowed, reason, rule) for a play or activation with the given timing keyword."""
    s = g.state
    if s.chain:
        if timing != "reaction":
            return False, "only Reaction cards and abilities can be played while the chain is closed", "309.1.a"
        return True, "", ""
    if s.showdown is not None:
        if timing not in ("action", "reaction"):
            return False, "only Action or Reaction cards and abilities can be played in a showdown", "308.1.a"
        return True, "", ""
    if timing in ("action", "reaction") and s.step == "main":
        return True, "", ""
    if (player != s.turn_player and s.invited != player) or s.step != "main":
        # 491.8.a: an invited teammate acts with the turn player's priority, so with the turn player's timing
        return False, "by default cards are played only on your turn in your Main Phase, in a Neutral Open state", "310.1.a"
    return True, "", ""


def card_timing(g: "Game", oid: int) -> str | None:
    """Action or Reaction timing (806, 813) from the card's timing hooks.  Not remembered: a listing asks
    once per card and a play's check once more, and reading the hook (most cards: none possible) costs
    less than a memo entry for the state version."""
    values = layers.hook_values(g, oid, "timing")
    if "reaction" in values:
        return "reaction"
    if "action" in values:
        return "action"
    return None


# ---------------------------------------------------------------------- play options
@dataclass
class PlayCheck:
    """Everything decided while a play is pending, computed before any change."""

    cost: payment.Cost
    plan: payment.Plan
    location: int
    targets: list[list[int]]
    paid: list[str] = field(default_factory=list)
    other_costs: dict[str, Any] = field(default_factory=dict)
    from_hidden: bool = False
    pay_with: dict[str, Any] = field(default_factory=dict)
    mode: list[int] = field(default_factory=list)  # the options of a "Choose one —" chosen (targeting.Modes)

    # written out: a native constructor when compiled (core/engine/state.py says why)
    def __init__(self, cost: payment.Cost, plan: payment.Plan, location: int, targets: list[list[int]],
                 paid: list[str] | None = None, other_costs: dict[str, Any] | None = None, from_hidden: bool = False,
                 pay_with: dict[str, Any] | None = None, mode: list[int] | None = None) -> None:
        self.cost = cost
        self.plan = plan
        self.location = location
        self.targets = targets
        self.paid = [] if paid is None else paid
        self.other_costs = {} if other_costs is None else other_costs
        self.from_hidden = from_hidden
        self.pay_with = {} if pay_with is None else pay_with
        self.mode = [] if mode is None else mode


def playable_zones(g: "Game", player: int, oid: int) -> bool:
    obj = g.obj(oid)
    if obj.owner != player and obj.controller != player:
        return False
    if obj.zone == "trash":
        return obj.owner == player and payment.play_from_cost(g, player, oid) is not None
    return obj.zone in ("hand", "champion") or (obj.zone == "facedown" and obj.controller == player)


def trash_plays(g: "Game", player: int, skip: Callable[[int], bool] | None = None) -> list[int]:
    """The cards of the player's trash that an effect lets them play from there (play_from_cost);
    the trash is searched only when a card in it, a static on the board or a lasting effect has a
    play_from modifier, or a lasting effect gives a keyword (one whose script has it: [Flow]).  The
    cards ``skip`` names aren't looked at (the caller would not play them now anyway)."""
    s = g.state
    trash = s.players[player].trash
    objs, defs = s.objs, g.defs
    for oid in trash:
        if defs[objs[oid].code].facts.play_from:
            break
    else:
        if not (s.lasting and lasting_plays_from(g)) and not layers.statics_by_kind(g).get("play_from"):
            return []
    return [oid for oid in trash if (skip is None or not skip(oid)) and payment.play_from_cost(g, player, oid) is not None]


def lasting_plays_from(g: "Game") -> bool:
    """Whether a lasting effect may let a card be played from a trash (a play_from modifier, or a
    keyword given whose script has one: [Flow]), found once while the lasting effects are unchanged."""
    memo = g.lasting_only_memo()
    found: bool | None = memo.get("lasting_plays_from")
    if found is None:
        found = memo["lasting_plays_from"] = any(
            _keyword_plays_from(g, lasting.body["keyword"]) if lasting.kind == "grant" else
            lasting.kind == "static" and any(m["type"] == "play_from" or m["type"] == "keyword"
                                             and _keyword_plays_from(g, m["keyword"]) for m in lasting.body["modifiers"])
            for lasting in g.state.lasting)
    return found


def _keyword_plays_from(g: "Game", name: str) -> bool:
    """Whether a keyword's script has a play_from modifier (an unknown keyword may)."""
    keyword = g.catalog.keywords.get(str(name).lower().replace("-", "_"))
    return keyword is None or any(ability.get("kind") == "static" and any(
        m.get("type") == "play_from" for m in ability.get("modifiers", ())) for ability in keyword.abilities)


def play_locations(g: "Game", player: int, oid: int, hidden_at: int = NOWHERE) -> list[int]:
    """Where a unit or gear may be played (355.2.a, 149.2, 822, 830, 811.1.d); remembered while the
    state is unchanged, since listing legal actions asks it for every play it checks."""
    if g.card(oid).type not in ("unit", "gear"):
        return [NOWHERE]  # a spell: nothing to look up (as _play_locations answers)
    memo = g.caches.memo()
    key = ("locations", player, oid, hidden_at)
    found: list[int] | None = memo.get(key)
    if found is None:
        card = g.card(oid)
        if hidden_at == NOWHERE and g.obj(oid).zone not in ("board", "legend", "bfcard") and not card.facts.location_mods:
            # nothing of its own, and (off the board) no static ability of its own among the
            # sources: the answer is the same for every such card of its type that the same
            # other static abilities cover
            covering = tuple(src for _, src in layers.static_modifiers_affecting(g, "play_location", oid))
            shared = ("locations", player, card.type, covering)
            found = memo.get(shared)
            if found is None:
                found = memo[shared] = _play_locations(g, player, oid, hidden_at)
        else:
            found = _play_locations(g, player, oid, hidden_at)
        memo[key] = found
    return list(found)


def _play_locations(g: "Game", player: int, oid: int, hidden_at: int, priced: bool = True) -> list[int]:
    card = g.card(oid)
    if card.type not in ("unit", "gear"):
        return [NOWHERE]
    if hidden_at != NOWHERE:
        # 811.1.d.1: only where it was hidden; 464.2, 451.2: not while two other players' units or their
        # combat are there (its controller may still control the battlefield after their units left)
        return [hidden_at] if card.type != "unit" or movement.can_enter(g, hidden_at, player) else []
    locations = {player}
    extra = [m.get("location") for m in _play_location_mods(g, player, oid)]
    for bf in g.state.battlefields:
        if card.type == "unit" and bf.controller == player:
            locations.add(bf.loc)
        elif "any_battlefield" in extra:
            locations.add(bf.loc)
        elif card.type == "unit" and "open_battlefield" in extra and bf.controller == NOWHERE:
            locations.add(bf.loc)
        elif card.type == "unit" and "battlefield_with_own_units" in extra and any(
                g.obj(u).controller == player for u in g.units_at(bf.loc)):
            locations.add(bf.loc)
        elif card.type == "unit" and "battlefield_with_lone_enemy" in extra and sum(
                1 for u in g.units_at(bf.loc) if not g.friendly(g.obj(u).controller, player)) == 1:
            locations.add(bf.loc)  # "if an enemy unit is alone there"
        elif card.type == "unit" and "occupied_enemy_battlefield" in extra and bf.controller != NOWHERE \
                and not g.friendly(bf.controller, player) and g.units_at(bf.loc):  # 740.1.a: not a teammate's
            locations.add(bf.loc)
    if card.type == "unit" and priced:
        locations.update(loc for loc, _, _ in payment.location_costs(g, oid))  # any player, paying (priced_location)
    if card.type == "gear" and "any_battlefield" in extra:
        locations.discard(player)
    sd = g.state.showdown
    if card.type == "unit" and "battlefield_you_attack" in extra and sd is not None and sd.combat \
            and sd.attacker == player:
        locations.add(sd.bf)  # Rengar, Pouncing: also where its player is the attacker
    if "only_battlefield_conquered_this_turn" in extra:
        # Perched Grimwyrm: only battlefields its player conquered earlier this turn
        locations = {int(h.number) for h in g.state.history if h.kind == "conquer" and h.player == player}
    if card.type == "unit" and any(m["restriction"] == "opponents_units_only_to_base"
                                   and not g.friendly(g.obj(src).controller, player)
                                   for m, src in layers.static_modifiers(g, "restriction")):
        locations = {player}  # an opponent's effect: units only to your base (Mageseeker Warden)
    # 451.2 / 464.2: never a battlefield holding units of two other players
    # 449.2.b: nor (for units) a battlefield the player's teammate occupies - playing a unit there would
    # put teammates' units together just as a move would, and it isn't a battlefield the player controls
    unit = card.type == "unit"
    if unit:  # "Units can't be played here" (a battlefield's restriction)
        locations = {loc for loc in locations if not is_battlefield(loc)
                     or not layers.restrictions_on(g, "no_units_played_here", loc=loc)}
    return sorted(loc for loc in locations if not is_battlefield(loc) or movement.can_enter(g, loc, player, unit))


def priced_location(g: "Game", player: int, oid: int, location: int, paid: list[str] | tuple[str, ...]) -> bool:
    """Whether the location agrees with the optional costs a battlefield gives for being played there
    (payment.location_costs): paying one plays the unit to that battlefield, and that battlefield takes
    one paid unless the unit may be played there anyway (355.2.a: one its player controls)."""
    priced = payment.location_costs(g, oid) if g.card(oid).type == "unit" else []
    if not priced:
        return True
    tied = {loc for loc, name, _ in priced if name in paid}
    if tied:
        return location in tied
    return location not in {loc for loc, _, _ in priced} \
        or location in _play_locations(g, player, oid, NOWHERE, priced=False)


def _play_location_mods(g: "Game", player: int, oid: int) -> list[dict[str, Any]]:
    mods: list[dict[str, Any]] = []
    for ability in g.card(oid).abilities:
        if ability.kind == "static" and ability.body.get("affects", "self") == "self":
            mods.extend(m for m in ability.body["modifiers"] if m["type"] == "play_location")
    # another object's static ability covers the card only as its 'affects' says (a champion letting
    # the other friendly units go to open battlefields); 'affects: self' is for that object alone (Sai Scout, Ambush)
    for mod, src in layers.static_modifiers_affecting(g, "play_location", oid):
        if src != oid:
            mods.append(mod)
    return mods


def _covers(g: "Game", controller: int, source: int, affects: Any, oid: int, player: int) -> bool:
    """Whether a created static's 'affects' selection covers a card being played (where it is
    aside); without one, it covers the cards its controller plays."""
    if not isinstance(affects, dict):
        return controller == player
    ctx = EffectContext(g, controller, source)
    where = {k: v for k, v in (affects.get("where") or {}).items() if k != "location"}
    return ctx.is_kind(oid, affects.get("what", "card")) and ctx.matches(oid, where)


def optional_costs(g: "Game", oid: int) -> list[str]:
    """The names of the card's optional additional costs (those of keywords given to it too); callers
    must not change the list."""
    costs = payment.additional_costs(g, oid)
    facts = g.card(oid).facts
    if costs is facts.additional:  # its own, as payment.additional_costs answers for most cards
        return facts.optional_costs  # worked out by the compiler
    return [a.body["name"] for a in costs if a.body.get("optional")]


def check_play(g: "Game", player: int, action: dict[str, Any]) -> PlayCheck:
    """Validate a play action completely; raise IllegalActionError saying why not."""
    return check_play_choices(g, player, action, play_base(g, player, action))


def play_base(g: "Game", player: int, action: dict[str, Any]) -> PlayBase:
    """The checks of a play that don't depend on its optional costs and targets: (card, its
    definition, location, whether it was hidden).  Listing legal actions makes them once per
    card and location."""
    s = g.state
    oid = action.get("card")
    if not isinstance(oid, int) or oid not in s.objs:
        raise IllegalActionError(f"no card #{oid}")
    obj = s.objs[oid]
    card = g.defs[obj.code]
    if card.type not in ("unit", "spell", "gear"):
        raise IllegalActionError(f"{card.name} is a {card.type}; only main deck cards are played", "133")
    if not playable_zones(g, player, oid):
        raise IllegalActionError(f"{card.name} is not in your hand or champion zone", "355")
    if True in layers.hook_values(g, oid, "cant_be_played"):
        # 355: a card whose own text forbids playing it now ("I can't be played on your first turn")
        raise IllegalActionError(f"{card.name} can't be played now", "355")
    from_hidden = obj.zone == "facedown"
    if from_hidden and obj.hidden_turn >= s.turn:
        raise IllegalActionError(f"{card.name} was hidden this turn; it can be played from the next turn", "811.1.c")
    if from_hidden and any(m["restriction"] == "hidden_cant_be_revealed"
                           for m, src in layers.static_modifiers_affecting(g, "restriction", oid)):
        # 811.1.d: playing a hidden card reveals it; an opponent's effect here forbids that (Noxus Saboteur)
        raise IllegalActionError(f"{card.name} can't be revealed here", "811.1.d")
    # None is the strictest timing: when it is allowed every timing is, and the card's own
    # timing (and Ambush's) needn't be worked out
    timing_free = timing_allows(g, player, None)[0]
    location = action.get("location", NOWHERE)
    if card.type in ("unit", "gear"):
        allowed = play_locations(g, player, oid, obj.loc if from_hidden else NOWHERE)
        if location == NOWHERE and len(allowed) == 1:
            location = allowed[0]
        if location not in allowed:
            # 811.1.d.1: a hidden card only where it was hidden; 149.2: gear only to a base
            rule = "811.1.d.1" if from_hidden else "149.2" if card.type == "gear" else "355.2.a"
            if card.type == "unit" and is_battlefield(location) and movement.in_others_combat(g, location, player):
                # 464.2: players outside a combat (or a two-player showdown) can't play units there
                raise IllegalActionError(f"{card.name} can't be played to {targeting.describe_loc(g, location)}: a combat "
                                         "or showdown of two other players is going on there", "464.2")
            raise IllegalActionError(f"{card.name} can't be played to {targeting.describe_loc(g, location)}", rule)
    if not timing_free:
        timing: str | None = "reaction" if from_hidden else card_timing(g, oid)
        if card.type in ("unit", "gear"):
            ambush = layers.hook_values(g, oid, "reaction_when_played_to")
            if "battlefield_with_own_units" in ambush and is_battlefield(location) \
                    and any(g.obj(u).controller == player for u in g.units_at(location)):
                timing = "reaction"  # 822: "as a [Reaction] to a battlefield where you have units" (held too)
        ok, reason, rule = timing_allows(g, player, timing)
        if not ok:
            raise IllegalActionError(f"can't play {card.name} now: {reason}", rule)
    if _opponents_cant_play(g, player):
        raise IllegalActionError("an effect stops you from playing cards this turn")
    if card.type == "spell" and layers.restrictions_on(g, "cant_play_spells", player=player):
        raise IllegalActionError("an effect stops you from playing spells this turn")
    return oid, card, location, from_hidden


def check_play_choices(g: "Game", player: int, action: dict[str, Any], base: PlayBase,
                       targets_listed: bool = False) -> PlayCheck:
    """The rest of check_play: optional costs, targets, cost and payment.  ``targets_listed``: the
    targets are one of ``target_options``, which chose each among the legal ones (with the slots'
    links, groups and move destinations), so only their number is checked again."""
    oid, card, location, from_hidden = base
    obj = g.state.objs[oid]
    paid = list(action.get("costs", []))
    for name in paid:
        if name not in optional_costs(g, oid):
            raise IllegalActionError(f"{card.name} has no optional cost {name!r}")
    for ability in payment.additional_costs(g, oid) if paid else ():
        # a conditional optional cost (after a spell this turn): offered only while its condition holds
        if ability.body["name"] in paid and "condition" in ability.body \
                and not EffectContext(g, player, oid).check(ability.body["condition"]):
            raise IllegalActionError(f"{card.name}'s optional cost {ability.body['name']!r} can't be paid now")
    if (paid or not from_hidden) and not priced_location(g, player, oid, location, paid):
        raise IllegalActionError(f"{card.name} is played to {targeting.describe_loc(g, location)} only with that "
                                 "battlefield's additional cost paid, and paying it plays it there", "355.2.a")
    count = payment.runs(g, oid, paid) if paid else 1
    # engine notes, playing a card, step 2 (355): the modes are chosen now, and only their targets
    slots = targeting.target_slots(card)
    mode, run_slots = targeting.check_modes(g, player, oid, targeting.card_modes(card), action, slots, count)
    targets = action.get("targets", [[] for _ in range(len(slots) * count)])
    if not isinstance(targets, list) or len(targets) != len(slots) * count:
        raise IllegalActionError(f"expected {len(slots) * count} target list(s), got {targets!r}", "355")
    for run, masked in enumerate(run_slots):  # 820: each run's choices are checked on their own
        chosen = targets if count == 1 else targets[run * len(slots):(run + 1) * len(slots)]
        if targets_listed:  # chosen by target_options: only the number of targets can be short
            check_target_counts(masked, chosen)
            continue
        check_targets(g, player, oid, masked, chosen, obj.loc if from_hidden else NOWHERE, paid)
        bad = targeting.bad_destination(g, targeting.move_pairs(masked), chosen)
        if bad is not None:
            raise IllegalActionError(*bad)
    cost = payment.play_cost(g, player, oid, paid, hidden=from_hidden)
    if targets:
        objects = object_targets([sel for masked in run_slots for sel in masked], targets)
        if card.facts.chooses_discount or payment.chooses_statics(g):  # "... cost less if you choose ..."
            payment.chooses_discounts(g, player, oid, [t for slot in objects for t in slot], cost)
        cost.power += payment.deflect_tax(g, player, objects, oid)
    other = dict(cost.other)
    check_other_costs(g, player, oid, other)
    pay_with = read_pay_with(g, player, oid, other, action)
    for key in ("kill", "spend_buff"):
        if isinstance(pay_with.get(key), list):  # each unit beyond the first reduces again (Kraken Hunter)
            payment.per_unit_reduction(g, oid, paid, cost, len(pay_with[key]) - 1)
    if pay_with.get("kill") is not None:
        killed = pay_with["kill"] if isinstance(pay_with["kill"], list) else [pay_with["kill"]]
        payment.killed_cost_reduction(g, oid, paid, cost, [int(k) for k in killed])
    plan = payment.plan_payment(g, player, cost, for_spell=card.type == "spell", for_gear=card.type == "gear",
                                for_unit=card.type == "unit")
    if plan is None:
        raise IllegalActionError(f"you can't pay {cost.describe()} for {card.name}", "135")
    return PlayCheck(cost, plan, location, targets, paid, other, from_hidden, pay_with, mode)


def object_targets(slots: Sequence[dict[str, Any]], targets: list[list[int]]) -> list[list[int]]:
    """Target slots that hold objects (location slots hold location numbers)."""
    return [chosen for sel, chosen in zip(slots, targets) if sel.get("what") != "location"]


def _opponents_cant_play(g: "Game", player: int) -> bool:
    return bool(g.state.lasting) and any(not g.friendly(controller, player) for controller in forbidding_players(g))


def forbidding_players(g: "Game") -> list[int]:
    """The controllers of the lasting effects in force that keep their opponents from playing cards,
    found once while the lasting effects are unchanged (``Game.lasting_only_memo``)."""
    memo = g.lasting_only_memo()
    found: list[int] | None = memo.get("forbidding_players")
    if found is None:
        found = memo["forbidding_players"] = [
            lasting.controller for lasting in g.active_lasting() if lasting.kind == "static"
            and any(mod["type"] == "restriction" and mod["restriction"] == "opponents_cant_play"
                    for mod in lasting.body["modifiers"])]
    return found


def untaxed_targets(g: "Game", player: int, slots: Sequence[dict[str, Any]], targets: list[list[int]]) -> bool:
    """Whether targets from ``target_options`` have the number each slot needs and add no Deflect tax
    (809).  check_play_choices and check_activation_targets read listed targets for nothing else, so
    their answer is the same for every such choice of targets: listing checks one and reuses it."""
    if len(slots) == 1 and len(targets) == 1:  # one slot (most): asked for each of its listed targets
        sel, chosen = slots[0], targets[0]
        return _count_fits(sel, chosen) and (sel.get("what") == "location" or not layers.hook_in_play(
            g, "targeting_tax") or not payment.deflect_tax(g, player, [chosen]))
    for sel, chosen in zip(slots, targets):
        if not _count_fits(sel, chosen):
            return False
    return not payment.deflect_tax(g, player, object_targets(slots, targets))


def untaxed_single(g: "Game", slots: Sequence[dict[str, Any]]) -> bool:
    """Whether ``untaxed_targets`` holds for every choice of one object for a single slot: one object is
    the number the slot needs, and no object could add Deflect's tax (``layers.hook_in_play``)."""
    return len(slots) == 1 and _count_fits(slots[0], [NOWHERE]) and (
        slots[0].get("what") == "location" or not layers.hook_in_play(g, "targeting_tax"))


def check_target_counts(slots: Sequence[dict[str, Any]], targets: list[list[int]]) -> None:
    """The number of targets in each slot (``target_options`` may offer fewer than a slot needs when
    fewer are legal; such a choice is refused, 355)."""
    for sel, chosen in zip(slots, targets):
        if not _count_fits(sel, chosen):
            count = int(sel.get("count", 1))
            optional = sel.get("up_to") or sel.get("any_number")
            raise IllegalActionError(f"choose {'up to ' if optional else ''}{count} target(s), not {len(chosen)}", "355")


def check_targets(g: "Game", player: int, source: int, slots: Sequence[dict[str, Any]],
                   targets: Any, restrict_loc: int, paid: list[str] | None = None) -> None:
    if not isinstance(targets, list) or len(targets) != len(slots):
        raise IllegalActionError(f"expected {len(slots)} target list(s), got {targets!r}", "355")
    if not slots:
        return
    ctx = EffectContext(g, player, source)
    if paid:  # a wider choice once the additional cost is paid (filter paid)
        ctx.item = ChainItem(id=NOWHERE, kind="card", controller=player, obj=source, paid=list(paid))
    ctx.targets = targets  # a later slot may refer to an earlier one (distinct_from: [target]), 355
    for sel, chosen in zip(slots, targets):
        if not isinstance(chosen, list) or len(set(chosen)) != len(chosen):
            raise IllegalActionError(f"targets must be a list of distinct ids, got {chosen!r}")
        count = int(sel.get("count", 1))
        optional = sel.get("up_to") or sel.get("any_number")
        limit = 99 if sel.get("any_number") else count
        if len(chosen) > limit or (not optional and len(chosen) != count):
            raise IllegalActionError(f"choose {'up to ' if optional else ''}{count} target(s), not {len(chosen)}", "355")
        if not ctx.fits_group(sel, [oid for oid in chosen if isinstance(oid, int) and oid in g.state.objs]):
            raise IllegalActionError(f"these targets together don't meet '{targeting.describe_selection(sel)}'", "355")
        for oid in chosen:
            if sel.get("what") == "location":
                if not ctx.matches_selection(sel, oid):
                    raise IllegalActionError(f"{oid!r} is not a legal destination", "355.4")
                continue
            if not isinstance(oid, int) or not ctx.offers(sel, oid):  # 355: where the selection looks, too
                raise IllegalActionError(f"#{oid} is not a legal target ({targeting.describe_selection(sel)})", "355")
            if not targeting.choosable(g, player, oid):
                raise IllegalActionError(f"{g.name(oid)} can't be chosen by your spells and abilities", "355")
            if restrict_loc != NOWHERE and g.obj(oid).zone == "board" and g.obj(oid).loc != restrict_loc:
                raise IllegalActionError("a card played from Hidden may only choose targets at its battlefield", "811.1.d")


def cost_choices(g: "Game", player: int, oid: int, other: dict[str, Any]) -> dict[str, list[Any]]:
    """What the player may choose to pay costs with: objects for kill, exhaust, spend-a-buff and discard-1
    costs, lists of cards for discard-N costs."""
    out: dict[str, list[Any]] = {}
    if not other:
        return out
    for key in ("kill", "exhaust", "recycle", "return_to_hand"):
        if key in other:
            ctx = EffectContext(g, player, oid)
            out[key] = [c for c in ctx.candidates(other[key]) if key != "exhaust" or not g.obj(c).exhausted]
    if other.get("spend_buff") in (1, "any_number"):
        # "spend a buff" as a cost (Call to Glory): the player picks a friendly unit with a buff;
        # "any number of buffs" (Kraken Hunter): a list of them in pay_with
        out["spend_buff"] = [c for c in g.board_objects() if g.obj(c).controller == player and g.obj(c).buffs > 0]
    recycled = other.get("recycle_from_trash")
    if isinstance(recycled, int) and recycled >= 1:
        # "recycle N from your trash" (Garbage Grabber): the player picks which cards
        trash = g.state.players[player].trash
        out["recycle_from_trash"] = [list(c) for c in itertools.islice(itertools.combinations(trash, recycled),
                                                                        targeting.MAX_TARGET_COMBOS)]
    count = other.get("discard")
    if isinstance(count, int) and count >= 1:
        # "discard N" as a cost (Brazen Buccaneer, Unlicensed Armory): the player picks the cards
        hand = discardable(g, player, oid, other)
        out["discard"] = hand if count == 1 else [list(c) for c in itertools.combinations(hand, count)]
    return out


def discardable(g: "Game", player: int, oid: int, other: dict[str, Any]) -> list[int]:
    """The cards of the player's hand (the card being played aside) a discard cost may take: with
    ``discard_what``, only those that meet that filter ("discard a spell")."""
    hand = [c for c in g.state.players[player].hand if c != oid]
    if "discard_what" not in other:
        return hand
    ctx = EffectContext(g, player, oid)
    return [c for c in hand if ctx.matches(c, other["discard_what"])]


def read_pay_with(g: "Game", player: int, oid: int, other: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The player's choice of what pays kill/exhaust costs (process of playing a card, step 4)."""
    wanted = action.get("pay_with") or {}
    if not isinstance(wanted, dict):
        raise IllegalActionError(f"pay_with maps a cost ('kill', 'exhaust') to an object id, got {wanted!r}")
    chosen: dict[str, Any] = {}
    if not other:
        return chosen  # nothing to choose (most plays)
    if "recycle_from_trash" in other and "recycle_from_trash" in wanted:
        # "Recycle 3 from your trash" (Garbage Grabber): the player picks which cards
        picked, trash = wanted["recycle_from_trash"], g.state.players[player].trash
        if not isinstance(picked, list) or len(picked) != int(other["recycle_from_trash"]) \
                or len(set(picked)) != len(picked) or any(c not in trash for c in picked):
            raise IllegalActionError(f"recycle {other['recycle_from_trash']} different cards from your trash", "cost")
    for key, candidates in cost_choices(g, player, oid, other).items():
        pick = wanted.get(key, candidates[0] if candidates else None)
        spec = other.get(key)
        any_number = spec == "any_number" or (isinstance(spec, dict) and spec.get("any_number"))  # Kraken Hunter
        if isinstance(pick, list) and any_number \
                and pick and len(set(pick)) == len(pick) and all(p in candidates for p in pick):
            chosen[key] = pick  # "kill any number of friendly units" (Commander Ledros): several objects
            continue
        if key in ("discard", "recycle_from_trash") and isinstance(pick, list):
            pick = next((c for c in candidates if isinstance(c, list) and sorted(c) == sorted(pick)), pick)
        if pick not in candidates:
            raise IllegalActionError(f"{pick!r} can't pay the '{key}' cost", "cost")
        chosen[key] = pick
    return chosen


def check_other_costs(g: "Game", player: int, oid: int, other: dict[str, Any]) -> None:
    if not other:
        return
    p = g.state.players[player]
    if "discard" in other and len(discardable(g, player, oid, other)) < int(other["discard"]):
        raise IllegalActionError(f"you can't discard {other['discard']} card(s) to pay the cost", "cost")
    if "recycle_from_trash" in other and len(p.trash) < int(other["recycle_from_trash"]):
        raise IllegalActionError(f"you need {other['recycle_from_trash']} card(s) in your trash", "cost")
    if other.get("exhaust_self") and g.obj(oid).exhausted:
        raise IllegalActionError(f"{g.name(oid)} is exhausted", "cost")
    if "xp" in other and p.xp < int(other["xp"]):
        raise IllegalActionError(f"you need {other['xp']} XP to spend, and have {p.xp}", "cost")
    if other.get("spend_buff_self") and g.obj(oid).buffs <= 0:
        raise IllegalActionError(f"{g.name(oid)} has no buff to spend", "cost")
    if other.get("spend_buff") in (1, "any_number") and not cost_choices(g, player, oid, other)["spend_buff"]:
        raise IllegalActionError("you have no buff to spend", "cost")
    if "kill" in other or "exhaust" in other or "recycle" in other or "return_to_hand" in other:
        ctx = EffectContext(g, player, oid)
        for key in ("kill", "exhaust", "recycle", "return_to_hand"):
            # an exhausted unit can't pay an exhaust cost
            if key in other and not [c for c in ctx.candidates(other[key])
                                     if key != "exhaust" or not g.obj(c).exhausted]:
                raise IllegalActionError(f"nothing to {key.replace('_', ' ')} to pay the cost", "cost")


def play_card(g: "Game", player: int, action: dict[str, Any], check: PlayCheck) -> None:
    """Perform a validated play: to the chain, pay, finalize (and resolve permanents at once)."""
    s = g.state
    oid = action["card"]
    obj = g.obj(oid)
    card = g.card(oid)
    origin = obj.zone
    bound = _next_card_grants(g, player, oid)
    g.place(oid, "chain")
    for lasting in bound:
        # "give the next spell you play [Repeat]": this one keeps it, no other gets it.  With uses left
        # after this one ("the next two spells"), this card keeps a copy bound to it and the effect
        # goes on for the next ones, one use fewer
        if lasting.uses > 1:
            s.lasting.append(dataclasses.replace(lasting, id=g.tick(), affects=[oid], uses=1,
                                                 body=dict(lasting.body)))
            g.spend_use(lasting)
        else:
            lasting.affects = [oid]
            g.lasting_changed()
    item = ChainItem(id=g.tick(), kind="card", controller=player, obj=oid, targets=check.targets,
                     paid=check.paid, location=check.location, from_hidden=check.from_hidden, mode=list(check.mode))
    s.chain.append(item)
    if s.step == "expiration":
        s.expiration_chain_used = True  # 317.2.f: the expiration step repeats
    event: dict[str, Any] = {"n": 0, "t": "play", "player": player, "obj": oid, "code": card.code, "from": origin,
                             "location": check.location, "targets": check.targets, "paid": check.paid}
    event.update(chose_modes(g, player, oid, check.mode))
    g.emit_event(event)
    payment.pay(g, player, check.plan)
    pay_other(g, player, oid, check.other_costs, item, check.pay_with)
    for lid in check.cost.other.get("_use_lasting", []):
        _use_lasting(g, lid)
    if card.type == "spell":
        for lasting in g.active_lasting():
            # "the next spell you play deals Bonus Damage" (Ravenborn Tome): bound to this spell
            if lasting.kind == "static" and lasting.uses > 0 and lasting.affects is None and \
                    any(m["type"] == "bonus_damage" for m in lasting.body["modifiers"]) and \
                    _covers(g, lasting.controller, lasting.source, lasting.body.get("affects"), oid, player):
                lasting.affects = [oid]
                g.lasting_changed()
    g.remember("spent_energy", player, oid, code=card.code, loc=check.cost.energy)  # "if you spent {4} or more"
    g.remember("played", player, oid, code=card.code)
    targeting.note_chosen(g, player, targeting.target_slots(card) * payment.runs(g, oid, check.paid), check.targets, "spell")
    g.emit_event({"n": 0, "t": "finalize", "player": player, "obj": oid, "item": item.id})
    g.state.needs_cleanup = True
    if card.type in ("unit", "gear"):
        after_add(g, player, discretionary=True)
        chain.resolve_item(g, item)  # 337.2: permanents resolve as soon as they're finalized
        sd = s.showdown
        if sd is not None and sd.acted and not s.chain and not s.pending_triggers:
            # 347.1: the chain its focus holder started (just this permanent) is over, so focus
            # passes; with a "when you play me" trigger pending it passes once that resolves
            sd.focus = g.next_player(sd.focus)
            sd.passes = 0
            sd.acted = False
    else:
        after_add(g, player, discretionary=True)


def _next_card_grants(g: "Game", player: int, oid: int) -> list[Lasting]:
    """The player's one-use lasting effects giving keywords to a card as they play it (the next one
    they play), which the played card now has for good."""
    out: list[Lasting] = []
    for lasting in g.active_lasting() if g.state.lasting else []:
        if lasting.kind == "static" and lasting.uses > 0 and lasting.affects is None and lasting.controller == player \
                and any(m["type"] == "keyword" for m in lasting.body["modifiers"]) \
                and EffectContext(g, player, lasting.source).selector_matches(lasting.body.get("affects", "self"), oid):
            out.append(lasting)
    return out


def _use_lasting(g: "Game", lid: int) -> None:
    lasting = g.find_lasting(lid)
    if lasting is not None:
        g.spend_use(lasting)


def kill_cost(g: "Game", victims: list[int], source: int, player: int) -> None:
    """Kill units or gear to pay a cost.  A replacement may save one (engine notes, process of playing,
    step 4: the cost still counts as paid), and one that asks its controller ("you may pay ... instead",
    The Boss) can't ask in the middle of an action, which is not replayed from a snapshot: then the
    deaths are a task of their own, carried out guarded as soon as the action is done, before anything
    else happens (core/engine/loop.py)."""
    info = {"source": source, "by": "cost", "killer": player}
    if any(replacement.would_ask(g, "die", v, info) for v in victims):
        g.state.tasks.append(["kill_cost", source, player, *victims])
    else:
        verbs.kill(g, victims, source=source, by="cost", killer=player)


def pay_other(g: "Game", player: int, oid: int, other: dict[str, Any], item: ChainItem,
               pay_with: dict[str, Any]) -> None:
    """Non-resource costs: exhaust, kill, discard, recycle from trash, spend a buff."""
    p = g.state.players[player]
    if other.get("exhaust_self"):
        verbs.exhaust(g, [oid])
    if "xp" in other:
        verbs.spend_xp(g, player, int(other["xp"]))
    if "discard" in other:
        count = int(other["discard"])
        given = pay_with.get("discard")
        picked = [int(c) for c in given] if isinstance(given, list) else [int(given)] if given is not None else None
        verbs.discard(g, player, picked or discardable(g, player, oid, other)[:count])
    if "recycle_from_trash" in other:
        picked = pay_with.get("recycle_from_trash") or p.trash[:int(other["recycle_from_trash"])]
        verbs.recycle(g, [int(c) for c in picked], random_order=True)
    if other.get("spend_buff_self"):
        verbs.spend_buff(g, oid, player)
    if other.get("spend_buff") in (1, "any_number") and pay_with.get("spend_buff") is not None:
        spent = pay_with["spend_buff"]
        for unit in (spent if isinstance(spent, list) else [spent]):
            verbs.spend_buff(g, int(unit), player)
    for key in ("kill", "exhaust", "recycle", "return_to_hand"):
        if key in other and pay_with.get(key) is not None:  # remembered for the reference 'paid'
            given = pay_with[key] if isinstance(pay_with[key], list) else [pay_with[key]]
            for n, paid_obj in enumerate(given):
                item.variables[f"_paid_{key}_{n}"] = int(paid_obj)
    if "kill" in other and pay_with.get("kill") is not None:
        victims = [int(v) for v in pay_with["kill"]] if isinstance(pay_with["kill"], list) else [int(pay_with["kill"])]
        item.variables["killed_might"] = layers.might(g, victims[0])
        kill_cost(g, victims, oid, player)
    if "exhaust" in other and pay_with.get("exhaust") is not None:
        verbs.exhaust(g, [int(pay_with["exhaust"])])  # step 4: the unit the player chose
    if "recycle" in other and pay_with.get("recycle") is not None:
        verbs.recycle(g, [int(pay_with["recycle"])])  # "recycle a unit from your trash"
    if "return_to_hand" in other and pay_with.get("return_to_hand") is not None:
        verbs.return_to_hand(g, [int(pay_with["return_to_hand"])])  # "return a friendly gear to its owner's hand"
    if other.get("kill_self"):
        kill_cost(g, [oid], oid, player)
    if other.get("recycle_self"):
        verbs.recycle(g, [oid])
    if other.get("banish_self"):
        verbs.banish(g, [oid])


def chose_modes(g: "Game", player: int, source: int, mode: list[int]) -> dict[str, Any]:
    """Remember the modes chosen as a spell is played or an ability activated (they are chosen then,
    even if it is countered: "choose one that hasn't been chosen this turn" reads them); the event
    field that says them (none without modes)."""
    for index in mode:
        g.remember("mode", player, source, code=str(index))
    return {"mode": list(mode)} if mode else {}


def after_add(g: "Game", player: int, discretionary: bool) -> None:
    s = g.state
    s.priority = player
    s.passes = 0
    if s.showdown is not None and discretionary and len(s.chain) == 1:
        s.showdown.acted = True
        s.showdown.initial = False


def _count_fits(sel: dict[str, Any], chosen: list[int]) -> bool:
    """check_target_counts for one slot, as a yes or no."""
    count = int(sel.get("count", 1))
    if sel.get("any_number"):
        return len(chosen) <= 99
    return len(chosen) <= count if sel.get("up_to") else len(chosen) == count
