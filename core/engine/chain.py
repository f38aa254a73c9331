"""Timing, playing cards, activating abilities, priority, focus and the chain (308-348).

Playing follows the pending steps of the rules: the card moves to the chain, choices are made
(location, targets, optional costs), the total cost is paid, legality is checked, and the item
is finalized.  Units, gear and resource-adding abilities resolve as soon as they are finalized
(337.2); everything else waits for every player to pass priority in a row (339.1), then the
newest item resolves (340.1).  Every check happens before anything changes, so an illegal play
raises IllegalActionError with the state untouched.
"""
from __future__ import annotations

import dataclasses

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import layers, movement, payment, verbs
from ..script.cards import Ability, CardDef, created_abilities
from .effects import EffectContext
from ..errors import IllegalActionError
from .state import EFFECT_TEXT, NOWHERE, ChainItem, Decision, Lasting, is_battlefield

if TYPE_CHECKING:
    from .game import Game

MAX_TARGET_COMBOS = 60


# ---------------------------------------------------------------------- timing (308-310)
def state_name(g: "Game") -> str:
    s = g.state
    mode = "Showdown" if s.showdown is not None else "Neutral"
    return f"{mode} {'Closed' if s.chain else 'Open'}"


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
    """Action or Reaction timing (806, 813) from the card's timing hooks."""
    memo = g.caches.memo()
    key = ("timing", oid)
    if key not in memo:
        memo[key] = _timing(g, oid)
    found: str | None = memo[key]
    return found


def _timing(g: "Game", oid: int) -> str | None:
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


def playable_zones(g: "Game", player: int, oid: int) -> bool:
    obj = g.obj(oid)
    if obj.owner != player and obj.controller != player:
        return False
    if obj.zone == "trash":
        return obj.owner == player and payment.play_from_cost(g, player, oid) is not None
    return obj.zone in ("hand", "champion") or (obj.zone == "facedown" and obj.controller == player)


def trash_plays(g: "Game", player: int) -> list[int]:
    """The cards of the player's trash that an effect lets them play from there (play_from_cost);
    the trash is searched only when a card in it, a static on the board or a lasting effect has a
    play_from modifier, or a lasting effect gives a keyword (one whose script has it: [Flow])."""
    s = g.state
    trash = s.players[player].trash
    objs, defs = s.objs, g.defs
    for oid in trash:
        if defs[objs[oid].code].facts.play_from:
            break
    else:
        for lasting in s.lasting:
            if lasting.kind == "grant" or lasting.kind == "static" and any(
                    m["type"] in ("play_from", "keyword") for m in lasting.body["modifiers"]):
                break
        else:
            if not layers.statics_by_kind(g).get("play_from"):
                return []
    return [oid for oid in trash if payment.play_from_cost(g, player, oid) is not None]


_SLOTS: dict[int, tuple[Any, list[dict[str, Any]]]] = {}


def target_slots(card: CardDef) -> list[dict[str, Any]]:
    """The 'pick: target' selections of a card's spell abilities, in slot order."""
    hit = _SLOTS.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    slots: list[dict[str, Any]] = []
    for ability in card.abilities:
        if ability.kind == "spell":
            slots.extend(target_nodes(ability.body))
    _SLOTS[id(card)] = (card, slots)
    return slots


def target_nodes(node: Any) -> list[dict[str, Any]]:
    """Scripts are immutable once compiled, so the walk is done once per script node."""
    hit = _SLOTS.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    out = _walk_targets(node)
    _SLOTS[id(node)] = (node, out)
    return out


def _walk_targets(node: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            if cur.get("pick") == "target":
                out.append(cur)
            skip = created_abilities(cur)  # a created trigger's targets are chosen as it triggers
            stack.extend(reversed([v for k, v in cur.items() if k not in skip]))
        elif isinstance(cur, list):
            stack.extend(reversed(cur))
    out.sort(key=lambda n: int(n.get("_slot", 0)))
    return out


def choosable(g: "Game", player: int, oid: int) -> bool:
    """Whether the player's spells and abilities may choose the object: one with the hook chosen_by:
    friendly_only ("I can't be chosen by enemy spells and abilities") refuses its opponents."""
    obj = g.state.objs.get(oid)
    if obj is None or obj.zone != "board" or g.friendly(obj.controller, player):
        return True
    return "friendly_only" not in layers.hook_values(g, oid, "chosen_by")


def target_options(g: "Game", player: int, source: int, slots: list[dict[str, Any]],
                   restrict_loc: int = NOWHERE, event: dict[str, Any] | None = None,
                   paid: list[str] | None = None) -> list[list[list[int]]]:
    """Every legal combination of targets (capped), one list of ids per slot; a triggered ability's
    targets may name its event ("another unit you control here", not the one just played), a card's
    the optional costs paid for it (filter ``paid``)."""
    ctx = EffectContext(g, player, source, event=event)
    if paid:
        ctx.item = ChainItem(id=NOWHERE, kind="card", controller=player, obj=source, paid=list(paid))
    if any(_sel_facts(sel)[1] for sel in slots[1:]):
        return _dependent_target_options(g, ctx, slots, restrict_loc)
    per_slot: list[list[list[int]]] = []
    for sel in slots:
        choices = _slot_choices(g, ctx, sel, restrict_loc)
        if choices is None:
            return []
        per_slot.append(choices)
    combos: list[list[list[int]]] = []
    moves = _move_pairs(slots)
    linked = _linked_slots(slots)
    for product in itertools.product(*per_slot):
        option: list[list[int]] = [list(p) for p in product]
        if moves and _bad_destination(g, moves, option) is not None:
            continue
        if linked and not _slots_agree(ctx, slots, option, linked):
            continue
        combos.append(option)
        if len(combos) >= MAX_TARGET_COMBOS:
            break
    return combos


def _slot_choices(g: "Game", ctx: EffectContext, sel: dict[str, Any], restrict_loc: int) -> list[list[int]] | None:
    """Every choice of objects for one target slot (capped), or None when it can't be filled."""
    candidates = ctx.candidates(sel)
    if "zone" not in sel and _sel_facts(sel)[0]:
        # a selection that may pick facedown cards ("a friendly gear, unit or facedown card", Pack
        # of Wonders): they are at battlefields, not on the board, so add them
        candidates = candidates + [oid for bf in g.state.battlefields for oid in bf.facedown
                                   if oid not in candidates and ctx.matches_selection(sel, oid)]
    if restrict_loc != NOWHERE and sel.get("what") != "location":
        candidates = [c for c in candidates if g.obj(c).zone != "board" or g.obj(c).loc == restrict_loc]
    if sel.get("what") not in ("location", "player"):
        candidates = [c for c in candidates if choosable(g, ctx.you, c)]  # chosen_by: friendly_only
    count = int(sel.get("count", 1))
    choices: list[list[int]] = []
    low = 0 if sel.get("up_to") or sel.get("any_number") else min(count, len(candidates))
    high = len(candidates) if sel.get("any_number") else min(count, len(candidates))
    if not candidates and not (sel.get("up_to") or sel.get("any_number")):
        return None
    for size in range(high, low - 1, -1):
        for combo in itertools.combinations(candidates, size):
            if not ctx.fits_group(sel, list(combo)):
                continue  # "units with total Might 4 or less"
            choices.append(list(combo))
            if len(choices) >= MAX_TARGET_COMBOS:
                break
    return choices


_FACTS: dict[int, tuple[dict[str, Any], bool, bool]] = {}


def _sel_facts(sel: dict[str, Any]) -> tuple[bool, bool]:
    """(the slot may pick facedown cards, its choices depend on earlier targets), worked out once
    per selection of the compiled scripts."""
    hit = _FACTS.get(id(sel))
    if hit is not None and hit[0] is sel:
        return hit[1], hit[2]
    facedown, depends = _mentions_facedown(sel), _depends_on_targets(sel)
    _FACTS[id(sel)] = (sel, facedown, depends)
    return facedown, depends


def _mentions_facedown(node: Any) -> bool:
    if isinstance(node, dict):
        return "facedown" in node or any(_mentions_facedown(v) for k, v in node.items() if k in ("where", "any_of"))
    if isinstance(node, list):
        return any(_mentions_facedown(v) for v in node)
    return False


def _depends_on_targets(sel: dict[str, Any]) -> bool:
    """Whether a slot's choices depend on earlier targets ('an enemy unit there', 'units at the
    chosen battlefield'): its selection refers to 'target' or holds a target selection."""
    stack: list[Any] = [v for k, v in sel.items() if k != "_slot"]
    while stack:
        node = stack.pop()
        if node == "target" or (isinstance(node, dict) and "_slot" in node):
            return True
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _dependent_target_options(g: "Game", ctx: EffectContext, slots: list[dict[str, Any]],
                              restrict_loc: int) -> list[list[list[int]]]:
    """Target choices slot by slot, each later slot's candidates found with the earlier choices
    made (355: targets are chosen in order, a later one may refer to an earlier one)."""
    prefixes: list[list[list[int]]] = [[]]
    saved = ctx.targets
    try:
        for i, sel in enumerate(slots):
            grown: list[list[list[int]]] = []
            for prefix in prefixes:
                ctx.targets = prefix + [[] for _ in slots[i:]]
                choices = _slot_choices(g, ctx, sel, restrict_loc)
                for choice in choices or []:
                    grown.append(prefix + [choice])
                    if len(grown) >= MAX_TARGET_COMBOS:
                        break
                if len(grown) >= MAX_TARGET_COMBOS:
                    break
            prefixes = grown
    finally:
        ctx.targets = saved
    moves = _move_pairs(slots)
    return [option for option in prefixes if not moves or _bad_destination(g, moves, option) is None]


_LINKED: dict[int, tuple[list[dict[str, Any]], list[int]]] = {}


def _linked_slots(slots: list[dict[str, Any]]) -> list[int]:
    """Later slots that refer to earlier targets (distinct_from); the slot lists are the compiled
    scripts' own (target_slots, target_nodes), so this is worked out once per list."""
    hit = _LINKED.get(id(slots))
    if hit is not None and hit[0] is slots:
        return hit[1]
    linked = [i for i, sel in enumerate(slots) if i and "distinct_from" in repr(sel)]
    _LINKED[id(slots)] = (slots, linked)
    return linked


def _slots_agree(ctx: EffectContext, slots: list[dict[str, Any]], option: list[list[int]],
                 linked: list[int]) -> bool:
    """A later slot that refers to earlier targets (distinct_from: [target]) still matches them (355)."""
    saved, ctx.targets = ctx.targets, option
    try:
        return all(ctx.matches_selection(slots[i], oid) for i in linked for oid in option[i])
    finally:
        ctx.targets = saved


_MOVES: dict[int, tuple[list[dict[str, Any]], list[tuple[int, int]]]] = {}


def _move_pairs(slots: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(unit slot, destination slot) of move steps whose destination is chosen as played; the
    slot lists are the compiled scripts' own (target_slots, target_nodes), so this is worked out
    once per list (callers must not change the answer)."""
    hit = _MOVES.get(id(slots))
    if hit is not None and hit[0] is slots:
        return hit[1]
    pairs: list[tuple[int, int]] = []
    for sel in slots:
        parent = sel.get("_move_of")
        if parent is not None:
            pairs.append((int(parent), int(sel["_slot"])))
    _MOVES[id(slots)] = (slots, pairs)
    return pairs


def _bad_destination(g: "Game", moves: list[tuple[int, int]], targets: list[list[int]]) -> tuple[str, str] | None:
    """(why, rule) when a chosen move destination is one the unit can't go to (355.4, 144.4, 171, 449.2,
    451.2: ``movement.move_refusal``), else None."""
    for unit_slot, dest_slot in moves:
        if dest_slot >= len(targets) or unit_slot >= len(targets):
            continue
        for dest in targets[dest_slot]:
            for unit in targets[unit_slot]:
                refusal = movement.move_refusal(g, unit, dest)
                if refusal is not None:
                    return refusal
    return None


def play_locations(g: "Game", player: int, oid: int, hidden_at: int = NOWHERE) -> list[int]:
    """Where a unit or gear may be played (355.2.a, 149.2, 822, 830, 811.1.d); remembered while the
    state is unchanged, since listing legal actions asks it for every play it checks."""
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


def _play_locations(g: "Game", player: int, oid: int, hidden_at: int) -> list[int]:
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
    if card.type == "gear" and "any_battlefield" in extra:
        locations.discard(player)
    sd = g.state.showdown
    if card.type == "unit" and "battlefield_you_attack" in extra and sd is not None and sd.combat \
            and sd.attacker == player:
        locations.add(sd.bf)  # "I can be played to a battlefield you're attacking"
    if "only_battlefield_conquered_this_turn" in extra:
        # "Play me only to a battlefield you conquered this turn (you can't play me anywhere else)"
        locations = {int(h[4]) for h in g.state.history if h[0] == "conquer" and h[1] == player}
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


def _play_location_mods(g: "Game", player: int, oid: int) -> list[dict[str, Any]]:
    mods: list[dict[str, Any]] = []
    for ability in g.card(oid).abilities:
        if ability.kind == "static" and ability.body.get("affects", "self") == "self":
            mods.extend(m for m in ability.body["modifiers"] if m["type"] == "play_location")
    # another object's static ability covers the card only as its 'affects' says ("Friendly units may
    # be played to open battlefields"); 'affects: self' is for that object alone (Sai Scout, Ambush)
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


_OPTIONAL: dict[int, tuple[tuple[Ability, ...], list[str]]] = {}


def optional_costs(g: "Game", oid: int) -> list[str]:
    """The names of the card's optional additional costs (those of keywords given to it too), found
    once per list of costs; callers must not change the list."""
    costs = payment.additional_costs(g, oid)
    hit = _OPTIONAL.get(id(costs))
    if hit is not None and hit[0] is costs:
        return hit[1]
    names = [a.body["name"] for a in costs if a.body.get("optional")]
    if costs is payment.own_additional_costs(g.card(oid)):
        _OPTIONAL[id(costs)] = (costs, names)  # a card's own costs live as long as its script
    return names


def runs(g: "Game", oid: int, paid: list[str] | tuple[str, ...]) -> int:
    """820: how many times a spell's instructions are carried out - once, and once more for each
    paid additional cost that repeats them (Repeat)."""
    if not paid:
        return 1
    return 1 + sum(1 for a in payment.additional_costs(g, oid) if a.body["name"] in paid
                   and a.body.get("effect_on_cost", {}).get("repeat"))


def play_target_options(g: "Game", player: int, oid: int, slots: list[dict[str, Any]], count: int,
                        restrict_loc: int = NOWHERE) -> list[list[list[int]]]:
    """820: each run of a repeated spell has its own choices made as it is played, each as legal as
    the first run's would be; the combinations of the runs' choices (capped)."""
    once = target_options(g, player, oid, slots, restrict_loc)
    combos = once
    for _ in range(count - 1):
        combos = [a + b for a in combos for b in once][:MAX_TARGET_COMBOS]
    return combos


def check_play(g: "Game", player: int, action: dict[str, Any]) -> PlayCheck:
    """Validate a play action completely; raise IllegalActionError saying why not."""
    return check_play_choices(g, player, action, play_base(g, player, action))


PlayBase = tuple[int, CardDef, int, bool]


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
                raise IllegalActionError(f"{card.name} can't be played to {describe_loc(g, location)}: a combat "
                                         "or showdown of two other players is going on there", "464.2")
            raise IllegalActionError(f"{card.name} can't be played to {describe_loc(g, location)}", rule)
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
        raise IllegalActionError(f"an effect stops you from playing cards this turn")
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
        # "If you've played a spell this turn, you may pay ...": an optional cost only while its condition holds
        if ability.body["name"] in paid and "condition" in ability.body \
                and not EffectContext(g, player, oid).check(ability.body["condition"]):
            raise IllegalActionError(f"{card.name}'s optional cost {ability.body['name']!r} can't be paid now")
    slots = target_slots(card)
    count = runs(g, oid, paid) if paid else 1
    targets = action.get("targets", [[] for _ in range(len(slots) * count)])
    if not isinstance(targets, list) or len(targets) != len(slots) * count:
        raise IllegalActionError(f"expected {len(slots) * count} target list(s), got {targets!r}", "355")
    for run in range(count):  # 820: each run's choices are checked on their own
        chosen = targets if count == 1 else targets[run * len(slots):(run + 1) * len(slots)]
        if targets_listed:  # chosen by target_options: only the number of targets can be short
            _check_target_counts(slots, chosen)
            continue
        _check_targets(g, player, oid, slots, chosen, obj.loc if from_hidden else NOWHERE, paid)
        bad = _bad_destination(g, _move_pairs(slots), chosen)
        if bad is not None:
            raise IllegalActionError(*bad)
    cost = payment.play_cost(g, player, oid, paid, hidden=from_hidden)
    if targets:
        objects = _object_targets(slots * count if count > 1 else slots, targets)
        if card.facts.chooses_discount or payment.chooses_statics(g):  # "... cost less if you choose ..."
            payment.chooses_discounts(g, player, oid, [t for slot in objects for t in slot], cost)
        cost.power += payment.deflect_tax(g, player, objects, oid)
    other = dict(cost.other)
    _check_other_costs(g, player, oid, other)
    pay_with = _pay_with(g, player, oid, other, action)
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
    return PlayCheck(cost, plan, location, targets, paid, other, from_hidden, pay_with)


def _object_targets(slots: list[dict[str, Any]], targets: list[list[int]]) -> list[list[int]]:
    """Target slots that hold objects (location slots hold location numbers)."""
    return [chosen for sel, chosen in zip(slots, targets) if sel.get("what") != "location"]


def _opponents_cant_play(g: "Game", player: int) -> bool:
    if not g.state.lasting:
        return False
    for lasting in g.active_lasting():
        if lasting.kind == "static" and not g.friendly(lasting.controller, player):
            for mod in lasting.body["modifiers"]:
                if mod["type"] == "restriction" and mod["restriction"] == "opponents_cant_play":
                    return True
    return False


def untaxed_targets(g: "Game", player: int, slots: list[dict[str, Any]], targets: list[list[int]]) -> bool:
    """Whether targets from ``target_options`` have the number each slot needs and add no Deflect tax
    (809).  check_play_choices and check_activation_targets read listed targets for nothing else, so
    their answer is the same for every such choice of targets: listing checks one and reuses it."""
    try:
        _check_target_counts(slots, targets)
    except IllegalActionError:
        return False
    return not payment.deflect_tax(g, player, _object_targets(slots, targets))


def _check_target_counts(slots: list[dict[str, Any]], targets: list[list[int]]) -> None:
    """The number of targets in each slot (``target_options`` may offer fewer than a slot needs when
    fewer are legal; such a choice is refused, 355)."""
    for sel, chosen in zip(slots, targets):
        count = int(sel.get("count", 1))
        optional = sel.get("up_to") or sel.get("any_number")
        if len(chosen) > (99 if sel.get("any_number") else count) or (not optional and len(chosen) != count):
            raise IllegalActionError(f"choose {'up to ' if optional else ''}{count} target(s), not {len(chosen)}", "355")


def _check_targets(g: "Game", player: int, source: int, slots: list[dict[str, Any]],
                   targets: Any, restrict_loc: int, paid: list[str] | None = None) -> None:
    if not isinstance(targets, list) or len(targets) != len(slots):
        raise IllegalActionError(f"expected {len(slots)} target list(s), got {targets!r}", "355")
    if not slots:
        return
    ctx = EffectContext(g, player, source)
    if paid:  # "If you paid the additional cost, choose any enemy unit ... instead" (filter paid)
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
            raise IllegalActionError(f"these targets together don't meet '{describe_selection(sel)}'", "355")
        for oid in chosen:
            if sel.get("what") == "location":
                if not ctx.matches_selection(sel, oid):
                    raise IllegalActionError(f"{oid!r} is not a legal destination", "355.4")
                continue
            if not isinstance(oid, int) or not ctx.offers(sel, oid):  # 355: where the selection looks, too
                raise IllegalActionError(f"#{oid} is not a legal target ({describe_selection(sel)})", "355")
            if not choosable(g, player, oid):
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
                                                                        MAX_TARGET_COMBOS)]
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


def _pay_with(g: "Game", player: int, oid: int, other: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
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


def _check_other_costs(g: "Game", player: int, oid: int, other: dict[str, Any]) -> None:
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


def describe_selection(sel: dict[str, Any]) -> str:
    where = sel.get("where", {})
    words = [f"{k}={v}" for k, v in sorted(where.items())]
    return f"{sel.get('what', 'object')}" + (f" with {', '.join(words)}" if words else "")


def describe_loc(g: "Game", loc: int) -> str:
    if loc == NOWHERE:
        return "nowhere"
    if is_battlefield(loc):
        return g.name(g.bf_at(loc).card)
    return f"{g.state.players[loc].name}'s base"


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
        lasting.affects = [oid]  # "give the next spell you play [Repeat]": this one keeps it, no other gets it
    item = ChainItem(id=g.tick(), kind="card", controller=player, obj=oid, targets=check.targets,
                     paid=check.paid, location=check.location, from_hidden=check.from_hidden)
    s.chain.append(item)
    if s.step == "expiration":
        s.expiration_chain_used = True  # 317.2.f: the expiration step repeats
    g.emit("play", player=player, obj=oid, code=card.code, **{"from": origin}, location=check.location,
           targets=check.targets, paid=check.paid)
    payment.pay(g, player, check.plan)
    _pay_other(g, player, oid, check.other_costs, item, check.pay_with)
    for lid in check.cost.other.get("_use_lasting", []):
        _use_lasting(g, lid)
    if card.type == "spell":
        for lasting in g.active_lasting():
            # "the next spell you play deals Bonus Damage" (Ravenborn Tome): bound to this spell
            if lasting.kind == "static" and lasting.uses > 0 and lasting.affects is None and \
                    any(m["type"] == "bonus_damage" for m in lasting.body["modifiers"]) and \
                    _covers(g, lasting.controller, lasting.source, lasting.body.get("affects"), oid, player):
                lasting.affects = [oid]
    g.remember("spent_energy", player, oid, code=card.code, loc=check.cost.energy)  # "if you spent {4} or more"
    g.remember("played", player, oid, code=card.code)
    note_chosen(g, player, target_slots(card) * runs(g, oid, check.paid), check.targets, "spell")
    g.emit("finalize", player=player, obj=oid, item=item.id)
    g.state.needs_cleanup = True
    if card.type in ("unit", "gear"):
        _after_add(g, player, discretionary=True)
        resolve_item(g, item)  # 337.2: permanents resolve as soon as they're finalized
        sd = s.showdown
        if sd is not None and sd.acted and not s.chain and not s.pending_triggers:
            # 347.1: the chain its focus holder started (just this permanent) is over, so focus
            # passes; with a "when you play me" trigger pending it passes once that resolves
            sd.focus = g.next_player(sd.focus)
            sd.passes = 0
            sd.acted = False
    else:
        _after_add(g, player, discretionary=True)


def _next_card_grants(g: "Game", player: int, oid: int) -> list[Lasting]:
    """The player's one-use lasting effects giving keywords to a card as they play it (the next one
    they play), which the played card now has for good."""
    out: list[Lasting] = []
    for lasting in g.active_lasting() if g.state.lasting else ():
        if lasting.kind == "static" and lasting.uses > 0 and lasting.affects is None and lasting.controller == player \
                and any(m["type"] == "keyword" for m in lasting.body["modifiers"]) \
                and EffectContext(g, player, lasting.source).selector_matches(lasting.body.get("affects", "self"), oid):
            out.append(lasting)
    return out


def note_chosen(g: "Game", player: int, slots: list[dict[str, Any]], targets: list[list[int]], by: str,
            source: int = NOWHERE) -> None:
    """A spell or ability chose these objects as targets (The Dreaming Tree listens to this); the
    history remembers whether a spell, a unit's ability or another ability chose ("if you've chosen
    enemy units twice this turn with spells or unit abilities")."""
    kind = by if by == "spell" or source not in g.state.objs else (
        "unit_ability" if g.card(source).type == "unit" else "ability")
    for sel, chosen in zip(slots, targets):
        if sel.get("what") in ("location", "chain_item"):
            continue  # a chain item (a spell or an ability, named by its source) isn't an object chosen
        for oid in chosen:
            obj = g.state.objs.get(oid)
            if obj is not None:
                g.emit("chosen", obj=oid, player=player, by=by, loc=obj.loc, controller=obj.controller)
                g.remember("chosen", player, oid, code=kind)


def _use_lasting(g: "Game", lid: int) -> None:
    lasting = g.find_lasting(lid)
    if lasting is not None:
        g.spend_use(lasting)


def _pay_other(g: "Game", player: int, oid: int, other: dict[str, Any], item: ChainItem,
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
        verbs.kill(g, victims, source=oid, by="cost", killer=player)
    if "exhaust" in other and pay_with.get("exhaust") is not None:
        verbs.exhaust(g, [int(pay_with["exhaust"])])  # step 4: the unit the player chose
    if "recycle" in other and pay_with.get("recycle") is not None:
        verbs.recycle(g, [int(pay_with["recycle"])])  # "recycle a unit from your trash"
    if "return_to_hand" in other and pay_with.get("return_to_hand") is not None:
        verbs.return_to_hand(g, [int(pay_with["return_to_hand"])])  # "return a friendly gear to its owner's hand"
    if other.get("kill_self"):
        verbs.kill(g, [oid], source=oid, by="cost", killer=player)
    if other.get("recycle_self"):
        verbs.recycle(g, [oid])
    if other.get("banish_self"):
        verbs.banish(g, [oid])


def _after_add(g: "Game", player: int, discretionary: bool) -> None:
    s = g.state
    s.priority = player
    s.passes = 0
    if s.showdown is not None and discretionary and len(s.chain) == 1:
        s.showdown.acted = True
        s.showdown.initial = False


# ---------------------------------------------------------------------- abilities
def activatable(g: "Game", player: int, runes: bool = True) -> list[tuple[int, Ability]]:
    """(source, ability) pairs the player could activate, before cost and target checks; the
    runes' two abilities come last, unless ``runes`` is False."""
    out: list[tuple[int, Ability]] = []
    s = g.state
    p = s.players[player]
    objs, defs = s.objs, g.defs
    sources = [p.legend]
    hosts: set[int] = set()  # units that may carry attachments
    for here in [q.base for q in s.players] + [bf.here for bf in s.battlefields]:  # board_objects' order
        for oid in here:
            obj = objs[oid]
            if obj.controller == player:
                sources.append(oid)
            if obj.attached_to != NOWHERE:
                hosts.add(obj.attached_to)
    granting = layers.may_grant_abilities(g)
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
            out.extend((oid, ability) for ability in own)
    if not runes:
        return out
    for rune in p.runes:
        out.append((rune, _RUNE_EXHAUST))
        out.append((rune, _RUNE_RECYCLE))
    return out


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
                        borrowed.append(dataclasses.replace(lent, index=len(own) + len(borrowed),
                                                            body={**lent.body, "_lent": [lender, lent.index]}))
    return borrowed


def _granted_activated(g: "Game", granted: list[tuple[dict[str, Any], int, Ability]], start: int) -> list[Ability]:
    """Activated abilities a static gives the object (its grant_ability modifiers), numbered after
    the others; each remembers where it was granted, so it resolves even if the grant ends."""
    out: list[Ability] = []
    for mod, src, static in granted:
        ability = g.granted_ability(mod)
        where = [src, static.index, static.body["modifiers"].index(mod)]
        out.append(dataclasses.replace(ability, index=start + len(out), body={**ability.body, "_granted": where}))
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
                out.append(dataclasses.replace(ability, index=start + len(out),
                                               body={**ability.body, "effect_text": False}))
    return out


def _active_text(g: "Game", oid: int, ability: Ability) -> bool:
    """718.2: an attached card's rules text is inactive; 435.1.e: effect text works only as the unit's."""
    return g.obj(oid).attached_to == NOWHERE and not ability.body.get("effect_text")


_RUNE_EXHAUST = Ability(kind="activated", index=-1, body={"kind": "activated", "cost": {"exhaust_self": True},
                                                          "timing": "reaction", "effect": {"type": "add", "energy": 1}})
_RUNE_RECYCLE = Ability(kind="activated", index=-2, body={"kind": "activated", "cost": {"recycle_self": True},
                                                          "timing": "reaction", "effect": {"type": "add", "power": ["own"]}})


def rune_ability(index: int) -> Ability:
    """164.2: every basic rune has '[E]: Add 1' and 'Recycle this: Add one power of its domain'."""
    return _RUNE_EXHAUST if index == -1 else _RUNE_RECYCLE


def is_add_ability(ability: Ability) -> bool:
    effect = ability.body.get("effect") or {}
    return effect.get("type") == "add"


def check_activate(g: "Game", player: int, action: dict[str, Any]) -> PlayCheck:
    """Validate an activation completely; raise IllegalActionError saying why not."""
    return check_activation_targets(g, player, action, activation_base(g, player, action))


ActivationBase = tuple[int, int, Ability, payment.Cost]


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
        ability = rune_ability(index)
    else:
        abilities = activated_abilities(g, oid)
        if index >= len(abilities) or abilities[index].kind != "activated":
            raise IllegalActionError(f"{g.name(oid)} has no activated ability {index}")
        if obj.zone not in ("board", "legend"):
            raise IllegalActionError(f"{g.name(oid)} is not on the board")
        ability = abilities[index]
        if not _active_text(g, oid, ability):
            raise IllegalActionError(f"{g.name(oid)}'s ability is inactive while it is attached", "718.2")
    ok, reason, rule = timing_allows(g, player, ability.timing)
    if not ok:
        raise IllegalActionError(f"can't activate that ability now: {reason}", rule)
    ctx = EffectContext(g, player, oid)
    for key in ("only_while", "condition"):
        if key in ability.body and not ctx.check(ability.body[key]):
            raise IllegalActionError(f"{g.name(oid)}'s ability can't be used now (its condition doesn't hold)")
    if ability.body.get("once_per_turn") and any(h[0] == "activated" and h[2] == oid and h[3] == str(index)
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
                             targets_listed: bool = False) -> PlayCheck:
    """The rest of check_activate: targets, Deflect tax, other costs and payment.  The base's cost
    gets the Deflect tax added, so each call needs a base of its own (or a copy of its cost).
    ``targets_listed`` as for check_play_choices."""
    oid, index, ability, cost = base
    slots = target_nodes(ability.body.get("effect", {}))
    targets = action.get("targets", [[] for _ in slots])
    if targets_listed:
        _check_target_counts(slots, targets)
    else:
        _check_targets(g, player, oid, slots, targets, NOWHERE)
    energy = ability.body["cost"].get("energy")
    if targets and isinstance(energy, dict):
        # a computed cost may read the targets ("reduced by the Might of the unit you choose")
        ctx = EffectContext(g, player, oid)
        ctx.targets = targets
        cost.energy = max(0, ctx.amount(energy))
    if targets:
        cost.power += payment.deflect_tax(g, player, _object_targets(slots, targets), oid)
    _check_other_costs(g, player, oid, cost.other)
    kind = g.card(oid).type if oid in g.state.objs else ""
    plan = payment.plan_payment(g, player, cost, for_gear=kind == "gear", for_unit=kind == "unit")
    if plan is None:
        raise IllegalActionError(f"you can't pay {cost.describe()} for that ability", "135")
    if index < 0 and plan.exhaust + [r for r, _ in plan.recycle]:
        raise IllegalActionError("rune abilities cost no energy")
    return PlayCheck(cost, plan, NOWHERE, targets, pay_with=_pay_with(g, player, oid, cost.other, action))


def activate(g: "Game", player: int, action: dict[str, Any], check: PlayCheck) -> None:
    oid = action["source"]
    index = action.get("ability", 0)
    ability = rune_ability(index) if index < 0 else activated_abilities(g, oid)[index]
    item = ChainItem(id=g.tick(), kind="ability", controller=player, obj=oid, ability=index, targets=check.targets)
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
    g.emit("activate", player=player, obj=oid, ability=index, targets=check.targets)
    if ability.body.get("once_per_turn"):
        g.remember("activated", player, oid, code=str(index))  # "use only once per turn"
    note_chosen(g, player, target_nodes(ability.body.get("effect", {})), check.targets, "ability", oid)
    if is_add_ability(ability):
        # add_energy hooks of the source as it is before its costs are paid (a Gold killed to pay)
        extra = sum(int(v) for v in layers.hook_values(g, oid, "add_energy"))
        if extra:
            item.variables["_add_energy"] = extra
    payment.pay(g, player, check.plan)
    _pay_other(g, player, oid, check.cost.other, item, check.pay_with)
    if is_add_ability(ability):
        ctx = EffectContext(g, player, oid, item)
        ctx.run(ability.body["effect"])  # 337.2: resolves at once, passes neither priority nor focus
        g.state.needs_cleanup = True
        return
    g.state.chain.append(item)
    if g.state.step == "expiration":
        g.state.expiration_chain_used = True  # 317.2.f: the expiration step repeats
    g.emit("finalize", player=player, obj=oid, item=item.id)
    g.state.needs_cleanup = True
    _after_add(g, player, discretionary=True)


def _rune(g: "Game", player: int, oid: int, index: int) -> None:
    if index == -1:
        g.obj(oid).exhausted = True
        g.emit("rune_exhaust", player=player, obj=oid)
        verbs.add_resources(g, player, 1, [])
    else:
        domain = g.card(oid).domains[0]
        g.emit("rune_recycle", player=player, obj=oid, domain=domain)
        verbs.recycle(g, [oid])
        verbs.add_resources(g, player, 0, [domain])


# ---------------------------------------------------------------------- priority
def offer_priority(g: "Game") -> bool:
    """Give priority or focus to whoever may act now; False when the game should move on."""
    s = g.state
    players = s.players
    active = 0  # players still in the game
    for p in s.turn_order:
        if not players[p].conceded:
            active += 1
    if s.chain:
        if s.passes >= active:
            s.passes = 0
            s.tasks.append(["resolve"])
            return True
        s.decision = Decision("priority", s.priority, f"{state_name(g)}: play a Reaction or pass")
        _invited_instead(g)
        return True
    if s.showdown is not None:
        sd = s.showdown
        if sd.passes >= active:
            s.tasks.append(["showdown_end"])
            return True
        s.priority = sd.focus
        s.decision = Decision("priority", sd.focus, f"Showdown at {describe_loc(g, sd.bf)}: you have focus")
        _invited_instead(g)
        return True
    if s.step == "main" and not s.players[s.turn_player].conceded:
        s.priority = s.turn_player
        s.decision = Decision("priority", s.turn_player, "Main Phase: your move")
        _invited_instead(g)
        return True
    return False


# ---------------------------------------------------------------------- invitations (491.8.a)
# On your turn, while you hold priority, you may invite your teammate to play spells and activate
# abilities using your priority: the priority decision goes to the teammate, who acts with your timing
# (a spell without Action in your Neutral Open Main Phase) paying with their own resources, or passes it
# back.  Passing back is not a pass (no chain item resolves, focus doesn't move) and closes the
# invitation for that priority window: the turn player may invite again only after something else
# happened, so agents never loop on invitations.  Once the teammate puts something on the chain the
# invitation is spent and priority follows the chain as usual (the teammate, then the table in turn
# order).  Rune and other Add abilities keep the invitation open (they pay for a later play).
def can_invite(g: "Game", player: int) -> int:
    """The teammate the player may invite now (NOWHERE if none)."""
    s = g.state
    d = s.decision
    if not g.spec.teams or player != s.turn_player or s.invited != NOWHERE or s.log_count == s.invite_closed_at:
        return NOWHERE
    if d is None or d.kind != "priority" or d.player != player:
        return NOWHERE
    return teammate(g, player)


def teammate(g: "Game", player: int) -> int:
    """The player's teammate still in the game (NOWHERE without one)."""
    s = g.state
    team = s.players[player].team
    mates = [p.index for p in s.players if p.team == team and p.index != player and not p.conceded]
    return mates[0] if len(mates) == 1 else NOWHERE


def invite(g: "Game", player: int, mate: int) -> None:
    """491.8.a: hand the priority decision to the teammate (validated by can_invite)."""
    g.state.invited = mate
    g.emit("invite", player=player, teammate=mate)


def hand_back(g: "Game", player: int) -> None:
    """The invited teammate passes: priority returns to the turn player, and it isn't a pass."""
    s = g.state
    s.invited = NOWHERE
    g.emit("invite_back", player=player, inviter=s.turn_player)
    s.invite_closed_at = s.log_count


def _invited_instead(g: "Game") -> None:
    """While an invitation stands and the turn player would decide, the invited teammate decides."""
    s = g.state
    if s.invited == NOWHERE:
        return
    d = s.decision
    if d is None or d.player != s.turn_player or s.players[s.invited].conceded:
        s.invited = NOWHERE  # priority moved on (something went on the chain): the invitation is spent
        return
    inviter = s.players[s.turn_player].name
    s.decision = Decision("priority", s.invited, f"{d.prompt} - {inviter} invites you to play spells and "
                          "activate abilities with their priority; pass to hand it back",
                          context={"invited_by": s.turn_player})


def pass_priority(g: "Game", player: int) -> None:
    s = g.state
    if s.chain:
        s.passes += 1
        s.priority = g.next_player(player)
        g.emit("pass", player=player)
    elif s.showdown is not None:
        # 347.2: passing with focus moves focus to the next player
        s.showdown.passes += 1
        s.showdown.focus = g.next_player(player)
        g.emit("pass_focus", player=player)


def resolve_top(g: "Game") -> None:
    item = g.state.chain[-1]
    resolve_item(g, item)
    s = g.state
    if not s.chain:
        sd = s.showdown
        if sd is not None:
            if sd.acted and not sd.initial:
                sd.focus = g.next_player(sd.focus)  # 347.1.b: focus passes once the chain finishes
            sd.passes = 0
            sd.acted = False
            sd.initial = False
    else:
        s.priority = s.chain[-1].controller
        s.passes = 0


def resolve_item(g: "Game", item: ChainItem) -> None:
    """340.1: the item resolves completely, then leaves the chain."""
    s = g.state
    if item.kind == "card":
        card = g.card(item.obj)
        if card.type in ("unit", "gear"):
            if item in s.chain:
                s.chain.remove(item)
            ready = _paid_enter_ready(g, item.obj, item.paid)
            verbs.enter_board(g, item.obj, item.controller, item.location, ready=ready)
            g.emit("played", player=item.controller, obj=item.obj, code=card.code, type=card.type,
                   loc=item.location, from_hidden=item.from_hidden, cost=card.energy,
                   nth=_played_count(g, item.controller), paid=list(item.paid))
        else:
            width = len(target_slots(card))
            for run in range(runs(g, item.obj, item.paid)):
                # 820: a repeated spell's instructions are carried out once more, with their own targets
                ctx = EffectContext(g, item.controller, item.obj, item)
                ctx.targets = item.targets[run * width:(run + 1) * width]
                for ability in card.abilities + tuple(layers.given_keyword_abilities(g, item.obj, "spell")):
                    if ability.kind == "spell":
                        if "condition" in ability.body and not ctx.check(ability.body["condition"]):
                            continue
                        ctx.run(ability.body["effect"])
            if item in s.chain:
                s.chain.remove(item)
            if any(other.obj == item.obj for other in s.chain):
                pass  # played again while it resolved ("its controller may play this spell again"): still on the chain
            elif g.obj(item.obj).zone == "chain" and item.variables.get("_afterwards_recycle"):
                verbs.recycle(g, [item.obj])  # played by an effect that recycles it afterwards (Fizz)
            elif g.obj(item.obj).zone == "chain":
                g.place(item.obj, "trash")
            g.emit("played", player=item.controller, obj=item.obj, code=card.code, type=card.type,
                   from_hidden=item.from_hidden, cost=card.energy, nth=_played_count(g, item.controller))
    else:
        if item in s.chain:
            s.chain.remove(item)
        ability = g.item_ability(item) if item.ability >= 0 else rune_ability(item.ability)
        ctx = EffectContext(g, item.controller, item.obj, item, item.event)
        if item.lasting <= EFFECT_TEXT:
            ctx.text_of = EFFECT_TEXT - item.lasting  # the attached card whose effect text this is
        condition = ability.body.get("if")
        if item.kind == "trigger" and condition is not None and not ctx.check(condition):
            g.emit("fizzle", obj=item.obj, item=item.id, reason="its condition no longer holds")
        elif ability.body.get("optional") and not _accept_optional(ctx, ability):
            g.emit("decline", obj=item.obj, item=item.id, player=item.controller)
        else:
            effect = ability.body.get("effect") or {}
            if effect:
                ctx.run(effect)
    g.emit("resolve", item=item.id, obj=item.obj)
    s.needs_cleanup = True


def _accept_optional(ctx: EffectContext, ability: Ability) -> bool:
    answer = ctx.ask(ctx.controller, f"use {ctx.g.name(ctx.source)}'s optional ability?",
                     [("yes", True), ("no", False)])
    return bool(answer)


def _paid_enter_ready(g: "Game", oid: int, paid: list[str]) -> bool:
    """805: an optional cost such as Accelerate that makes the unit enter ready."""
    return bool(paid) and any(a.body["name"] in paid and a.body.get("effect_on_cost", {}).get("enter_ready")
                              for a in payment.additional_costs(g, oid))


def _played_count(g: "Game", player: int) -> int:
    return sum(1 for h in g.state.history if h[0] == "played" and h[1] == player)
