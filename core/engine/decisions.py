"""Player decisions: listing legal actions, checking an action, and performing it.

Actions are plain JSON-friendly dicts.  Each type is one ActionType record (the ACTIONS table):
how it is listed, checked and performed.  ``check`` does every check before anything changes and
returns what ``perform`` uses, and an action is accepted only if it is also listed (core/engine/offer.py),
so ``Game.apply`` is atomic and exact: an illegal action raises IllegalActionError naming the rule
and the state is untouched.  Decision kinds: ``priority`` (play, activate, move, hide, pass, end_turn; in 2v2
also ``invite``: the turn player lends their priority to their teammate, 491.8.a, see core/engine/chain.py),
``mulligan``, ``choose`` (a choice while something resolves), ``order`` (triggers), ``targets``
(a trigger's targets), ``assign`` (combat damage), ``showdown`` (which battlefield first),
``battlefield`` (setup: which battlefield to present, 488.5) and ``turn_order`` (setup of a match's
later game: the previous loser plays first or second); these last two are answered with ``choose``.
Hiding a card is in ``hide``, conceding in ``concession``.

Mutually recursive with ``offer`` (a genuine pair): ``check`` accepts an action only if ``offer``
finds it in the list offered to the player, and that list is this module's ``legal_actions``.
"""
from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass
from typing import Any, Callable, cast, Final, Mapping, TYPE_CHECKING

from . import activation, chain, cleanup, combat, concession, hide, layers, loop_draw, movement, offer, payment, playing, setup, targeting, turn
from ..errors import IllegalActionError
from .vocabulary import Action, EngineAction
from .state import NOWHERE, Decision
from ..script.suggest import did_you_mean
from ..script.cards import CardDef

if TYPE_CHECKING:
    from .game import Game


def legal_actions(g: "Game") -> list[EngineAction]:
    """Every action the deciding player may take now, in the engine's ids (see Game.legal_actions
    for the list as offered to the player, with handles for what the player can't see)."""
    d = g.state.decision
    assert d is not None
    player = d.player
    if d.kind == "priority":
        # the priority types of ACTIONS in its order (checked where the table is built), called directly:
        # compiled, a call through the table's field is a generic call, its arguments parsed anew
        out = play_actions(g, player, d)
        out += activate_actions(g, player, d)
        out += move_actions(g, player, d)
        out += hide.hide_actions(g, player, d)
        out += pass_actions(g, player, d)
        out += end_turn_actions(g, player, d)
        out += invite_actions(g, player, d)
        return out
    out = []
    for action_type in BY_DECISION.get(d.kind, ()):
        out.extend(action_type.listing(g, player, d))
    return out


def play_actions(g: "Game", player: int, d: Decision | None = None) -> list[EngineAction]:
    """Plays from the hand, the champion zone and the player's hidden cards: every location,
    optional cost, target choice and way to pay that the checks accept."""
    s = g.state
    out: list[EngineAction] = []
    p = s.players[player]
    invited = s.invited == player  # 491.8.a: spells and abilities only, with the inviter's priority
    sources = p.hand + p.champion  # a new list (the trash's plays are added to it)
    for bf in s.battlefields:
        for oid in bf.facedown:
            if g.obj(oid).controller == player:
                sources.append(oid)
    objs, defs = s.objs, g.defs
    any_timing = playing.timing_allows(g, player, None)[0]  # None is the strictest timing
    # a window for Action or Reaction timing only: a card with no timing hook of its own that nothing
    # else can reach (hook_values would find none) has the strictest timing and is not played now
    wide, named = (True, frozenset()) if any_timing else layers.off_board_touch(g)
    reading = g.caches.chars_reads

    def untimed(oid: int) -> bool:
        obj = objs[oid]
        return not wide and obj.zone != "facedown" and not defs[obj.code].facts.timing_hooks and oid not in reading \
            and (oid not in named or obj.zone not in layers.AFFECTED_OFF_BOARD)
    if p.trash:
        # "you may play me from your trash"; in a window for Action or Reaction timing only, the cards
        # that are not played now (untimed) aren't asked what they would cost from there
        sources += playing.trash_plays(g, player, None if wide else untimed)
    for oid in sources:
        obj = objs[oid]
        card = defs[obj.code]
        if card.type not in ("unit", "spell", "gear") or (invited and card.type != "spell"):
            continue
        hidden = obj.zone == "facedown"
        if untimed(oid):
            continue
        if not any_timing and not playing.timing_allows(g, player, "reaction" if hidden else playing.card_timing(g, oid))[0] \
                and not (card.type == "unit" and "battlefield_with_own_units" in
                         g_hook(g, oid, "reaction_when_played_to")):
            continue
        base = payment.shared_play_cost(g, player, oid, [], hidden=hidden)
        plan = payment.plan_payment(g, player, base, for_spell=card.type == "spell", for_gear=card.type == "gear",
                                    for_unit=card.type == "unit")
        if plan is None and not card.facts.cheapening and not card.facts.chooses_discount:
            continue  # unaffordable, unless an optional cost or its targets make it cheaper (357)
        locations = playing.play_locations(g, player, oid, obj.loc if hidden else NOWHERE)
        optional = playing.optional_costs(g, oid)
        slots = targeting.target_slots(card)
        modes = targeting.card_modes(card)  # "Choose one —": the modes are chosen with the targets
        if plan is not None and not optional and not slots and not base.other and modes is None:
            # nothing to choose but the location (most plays), and its cost is the one just planned:
            # check_play_choices would find that plan again and nothing else, so play_base decides
            out.extend(_plain_plays(g, player, oid, locations, any_timing))
            continue
        # its cost reads its targets (its own text, or a static's if_chooses): each choice is checked
        discounted = payment.own_chooses_discount(card) or bool(payment.chooses_statics(g))
        # with every optional cost paid (the widest choice a filter 'paid' allows); check_play refines
        target_sets = targeting.moded_target_options(g, player, oid, slots, modes, obj.loc if hidden else NOWHERE,
                                                     paid=optional)
        single = playing.untaxed_single(g, slots)  # untaxed_targets of each one-object choice, at once
        # A play's check depends on its location only through the location being allowed (these
        # are) and its timing, which doesn't matter when every timing is: then the checks at the
        # first location decide for the others (the rest would only repeat the same reads).
        decided: list[playing.PlayCheck | None] = []
        # a battlefield's own optional cost for playing there ties a choice of costs to a location
        reuse = any_timing and not (optional and card.type == "unit" and payment.location_costs(g, oid))
        for location in locations:
            n = 0
            # check_play in its two parts, the one that doesn't read costs and targets once per location
            play: playing.PlayBase | None = None
            refused = False
            for size in range(len(optional) + 1):
                for paid in itertools.combinations(optional, size):
                    count = payment.runs(g, oid, paid) if paid else 1
                    untaxed: list[playing.PlayCheck | None] = []  # the check for targets without a tax
                    # the targets were listed for every optional cost paid: only then are they
                    # exactly what target_options gives for this choice of costs
                    listed = len(paid) == len(optional)
                    plain_listed = listed and count == 1 and len(target_sets) > 1 and not discounted
                    # 820: a repeated spell's runs each have their own targets
                    sets = target_sets if count == 1 or not (slots or modes) else targeting.moded_target_options(
                        g, player, oid, slots, modes, obj.loc if hidden else NOWHERE, runs=count)
                    check: playing.PlayCheck | None
                    i = 0
                    while i < len(sets):
                        targets = sets[i]
                        if untaxed and single and plain_listed and n >= len(decided) and len(targets[0]) == 1:
                            # a run of one-object choices after the first (most of a big board's): each
                            # is plain, so its check is the first one's (untaxed), as below
                            end = i + len(list(itertools.takewhile((1).__eq__, map(len, map(_FIRST, sets[i:])))))
                            check = untaxed[0]
                            if reuse:
                                decided.extend([check] * (end - i))
                            n += end - i
                            if check is not None:
                                run: list[EngineAction] = [targeting.with_mode(
                                    {"type": "play", "card": oid, "targets": t, "costs": [*paid]}, t) for t in sets[i:end]]
                                if location != NOWHERE:
                                    for each in run:
                                        each["location"] = location
                                if check.other_costs or check.cost.other:
                                    for each in run:
                                        out.extend(_cost_variants(g, player, oid, check, each))
                                else:
                                    out.extend(run)
                            i = end
                            continue
                        i += 1
                        action: EngineAction = targeting.with_mode(
                            {"type": "play", "card": oid, "targets": targets, "costs": list(paid)}, targets)
                        if location != NOWHERE:
                            action["location"] = location
                        if n < len(decided):
                            check = decided[n]
                        else:
                            check = None
                            if play is None and not refused:
                                try:
                                    play = playing.play_base(g, player, action)
                                except IllegalActionError:
                                    refused = True
                            if play is not None:
                                plain = plain_listed and (single and len(targets[0]) == 1
                                                          or playing.untaxed_targets(g, player, slots, targets))
                                if plain and untaxed:
                                    check = untaxed[0]
                                else:
                                    try:
                                        check = playing.check_play_choices(g, player, action, play, targets_listed=listed)
                                    except IllegalActionError:
                                        pass
                                    if plain:
                                        untaxed.append(check)
                            if reuse:
                                decided.append(check)
                        n += 1
                        if check is None:
                            continue
                        if check.other_costs or check.cost.other:
                            out.extend(_cost_variants(g, player, oid, check, action))
                        else:
                            out.append(action)  # nothing to choose to pay with (most plays)
    return out


_FIRST: Final = operator.itemgetter(0)


def _plain_plays(g: "Game", player: int, oid: int, locations: list[int], any_timing: bool) -> list[EngineAction]:
    """The plays of a card with no target, no optional cost and no cost but energy and power that
    the player can pay: one per location that check_play's first part (play_base) accepts; when
    every timing is allowed, the first location's answer holds for the others (see play_actions)."""
    out: list[EngineAction] = []
    allowed: bool | None = None
    for location in locations:
        action: EngineAction = {"type": "play", "card": oid, "targets": [], "costs": []}
        if location != NOWHERE:
            action["location"] = location
        if allowed is None or not any_timing:
            try:
                playing.play_base(g, player, action)
                allowed = True
            except IllegalActionError:
                allowed = False
        if allowed:
            out.append(action)
    return out


def activate_actions(g: "Game", player: int, d: Decision | None = None) -> list[EngineAction]:
    """Activated abilities with every target choice and way to pay, then the rune abilities."""
    s = g.state
    out: list[EngineAction] = []
    for oid, ability in activation.activatable(g, player, runes=False):
        if ability.body["cost"].get("exhaust_self") and g.obj(oid).exhausted:
            continue  # an exhausted source can't pay its exhaust cost: no need to look for targets
        if not playing.timing_allows(g, player, ability.timing)[0]:
            continue
        slots = targeting.ability_targets(ability)
        target_sets = targeting.moded_target_options(g, player, oid, slots, targeting.ability_modes(ability))
        single = playing.untaxed_single(g, slots)  # untaxed_targets of each one-object choice, at once
        base: activation.ActivationBase | None = None
        untaxed: list[playing.PlayCheck | None] = []  # the check for targets without a tax (untaxed_targets)
        for targets in target_sets:
            action = targeting.with_mode({"type": "activate", "source": oid, "ability": ability.index,
                                          "targets": targets}, targets)
            plain = False
            try:
                # check_activate in its two parts, the one that doesn't read the targets done once
                if base is None:
                    base = activation.activation_base(g, player, action)
                source, index, activated, cost = base
                plain = len(target_sets) > 1 and not isinstance(ability.body["cost"].get("energy"), dict) \
                    and (single and len(targets[0]) == 1  # a computed cost may read the targets
                         or playing.untaxed_targets(g, player, slots, targets))
                if plain and untaxed:
                    found = untaxed[0]
                    if found is None:
                        continue
                    check = found
                else:
                    own_cost = payment.Cost(cost.energy, list(cost.power), dict(cost.other))
                    check = activation.check_activation_targets(g, player, action, (source, index, activated, own_cost),
                                                            targets_listed=True)
                    if plain:
                        untaxed.append(check)
            except IllegalActionError:
                if base is None:
                    break  # the same refusal for every choice of targets
                if plain and not untaxed:
                    untaxed.append(None)
                continue
            if check.other_costs or check.cost.other:
                out.extend(_cost_variants(g, player, oid, check, action))
            else:
                out.append(action)
    # 164.2: rune abilities have Reaction and cost nothing but exhausting or recycling the rune
    append = out.append
    objs = s.objs
    for rune in s.players[player].runes:
        if not objs[rune].exhausted:
            exhaust = _RUNE_EXHAUST.copy()
            exhaust["source"] = rune
            append(exhaust)
        recycle = _RUNE_RECYCLE.copy()
        recycle["source"] = rune
        append(recycle)
    return out


# The rune actions of every listing, copied from these (a copy of a small dict is cheaper than building
# one, key by key, and most actions listed are rune actions); the keys keep the order of the actions
# written out, ``{"type": ..., "source": ..., "ability": ...}``
_RUNE_EXHAUST: Final[dict[str, Any]] = {"type": "activate", "source": NOWHERE, "ability": -1}
_RUNE_RECYCLE: Final[dict[str, Any]] = {"type": "activate", "source": NOWHERE, "ability": -2}


MAX_MOVE_GROUPS: Final = 64


def move_actions(g: "Game", player: int, d: Decision | None = None) -> list[EngineAction]:
    """Standard moves: each unit alone, all of them together, then the other groups (144.3: any
    number of units may move together), at most MAX_MOVE_GROUPS per destination."""
    out: list[EngineAction] = []
    for dest, units in movement.destinations(g, player).items():
        for oid in units:
            out.append({"type": "move", "units": [oid], "to": dest})
        if len(units) > 1:
            out.append({"type": "move", "units": list(units), "to": dest})
        listed = len(units) + 1
        for size in range(2, len(units)):
            for group in itertools.combinations(units, size):
                if listed >= MAX_MOVE_GROUPS:
                    break
                out.append({"type": "move", "units": list(group), "to": dest})
                listed += 1
    return out


def pass_actions(g: "Game", player: int, d: Decision | None = None) -> list[EngineAction]:
    s = g.state
    if s.chain or s.showdown is not None or s.invited == player:
        return [{"type": "pass"}]  # invited: hand the priority back (491.8.a)
    return []


def end_turn_actions(g: "Game", player: int, d: Decision | None = None) -> list[EngineAction]:
    s = g.state
    if not (s.chain or s.showdown is not None or s.invited == player) and s.step == "main" \
            and player == s.turn_player:
        return [{"type": "end_turn"}]
    return []


def invite_actions(g: "Game", player: int, d: Decision | None = None) -> list[EngineAction]:
    mate = chain.can_invite(g, player)
    return [] if mate == NOWHERE else [{"type": "invite", "teammate": mate}]


MAX_COST_VARIANTS: Final = 64


def _cost_variants(g: "Game", player: int, oid: int, check: playing.PlayCheck, action: EngineAction) -> list[EngineAction]:
    """One action per way to pay a 'kill a unit', 'exhaust a unit', 'spend a buff', 'discard' or
    'recycle from your trash' cost (the player chooses; 'any number' costs: one unit or several)."""
    other = check.other_costs or check.cost.other
    if not other:
        return [action]  # nothing to choose (most plays): cost_choices would find no choices
    choices = playing.cost_choices(g, player, oid, other)
    for key, candidates in choices.items():
        spec = other.get(key)
        if spec == "any_number" or (isinstance(spec, dict) and spec.get("any_number")):
            # "kill any number of friendly units" (Commander Ledros), "spend any number of buffs" (Kraken Hunter)
            groups = [list(c) for size in range(2, len(candidates) + 1)
                      for c in itertools.combinations(candidates, size)]
            choices[key] = candidates + groups[:MAX_COST_VARIANTS]
    if not any(len(c) > 1 for c in choices.values()):
        return [action]
    out: list[EngineAction] = []
    keys = sorted(choices)
    for combo in itertools.islice(itertools.product(*(choices[k] for k in keys)), MAX_COST_VARIANTS):
        pay_with = dict(zip(keys, combo))
        recycled = choices.get("recycle_from_trash")
        if recycled and pay_with.get("recycle_from_trash") == recycled[0]:
            del pay_with["recycle_from_trash"]  # the first cards of the trash: the action says nothing
        out.append({**action, "pay_with": pay_with} if pay_with else action)
    if action["type"] == "play" and len(out) > 1 and _cost_reads_payment(g.card(oid)):
        # its cost depends on what pays it (Atakhan: less by the killed unit's cost), and the check that
        # listed it read one way to pay: each way is checked (a token killed takes nothing off)
        out = [variant for variant in out if _payable(g, player, variant)]
    return out


def _cost_reads_payment(card: CardDef) -> bool:
    return any(a.kind == "additional_cost" and "effect_on_cost" in a.body for a in card.abilities)


def _payable(g: "Game", player: int, action: EngineAction) -> bool:
    try:
        playing.check_play(g, player, action)
    except IllegalActionError:
        return False
    return True


def g_hook(g: "Game", oid: int, hook: str) -> list[Any]:
    return layers.hook_values(g, oid, hook)


def is_resource_action(g: "Game", action: Mapping[str, Any]) -> bool:
    """Rune abilities and other Add abilities: they only fill the pool (payment does that too)."""
    if action.get("type") != "activate":
        return False
    index = int(action.get("ability", 0))
    if index < 0:
        return True
    source = int(action["source"])
    own = g.card(source).abilities
    if index < len(own):  # its own abilities come first (activation.activated_abilities): read from the card
        return activation.is_add_ability(own[index])
    return activation.is_add_ability(activation.activated_abilities(g, source)[index])


# ---------------------------------------------------------------------- the action table
# Each action type is listed, checked and performed by the functions of one ActionType record.
# ``check`` does every check before anything changes and returns what ``perform`` needs, so an
# action is performed exactly as it was checked; Game.apply accepts an action only if it is also
# one of the listed actions (core/engine/offer.py), so what apply accepts and what legal_actions lists
# are the same set (concede aside: any player may concede at any time, and it is never listed).
Listing = Callable[["Game", int, Decision], list[EngineAction]]
Check = Callable[["Game", int, EngineAction, Decision], Any]
Perform = Callable[["Game", int, EngineAction, Any, Decision], None]


@dataclass(frozen=True)
class ActionType:
    """One type of player action: the decisions it answers, how it is listed, checked, performed."""

    name: str
    answers: tuple[str, ...]
    listing: Listing
    check: Check
    perform: Perform


def _check_play(g: "Game", player: int, action: EngineAction, d: Decision) -> playing.PlayCheck:
    _check_invited(g, player, action)
    return playing.check_play(g, player, action)


def _check_activate(g: "Game", player: int, action: EngineAction, d: Decision) -> playing.PlayCheck:
    return activation.check_activate(g, player, action)


def _check_move(g: "Game", player: int, action: EngineAction, d: Decision) -> tuple[list[int], int]:
    _check_invited(g, player, action)
    return movement.check_move(g, player, action)  # the units and the destination


def _check_hide(g: "Game", player: int, action: EngineAction, d: Decision) -> payment.Plan:
    _check_invited(g, player, action)
    return hide.check_hide(g, player, action)


def _check_pass(g: "Game", player: int, action: EngineAction, d: Decision) -> bool:
    """Whether the pass hands an invitation back (491.8.a) instead of passing priority."""
    s = g.state
    if s.invited == player:
        return True
    if not s.chain and s.showdown is None:
        raise IllegalActionError("nothing to pass in a Neutral Open state; end your turn instead", "310.1")
    return False


def _check_end_turn(g: "Game", player: int, action: EngineAction, d: Decision) -> None:
    _check_invited(g, player, action)
    s = g.state
    if s.chain or s.showdown is not None or s.step != "main" or player != s.turn_player:
        raise IllegalActionError("you can end your turn only in your Main Phase in a Neutral Open state", "316.5")


def _check_invite(g: "Game", player: int, action: EngineAction, d: Decision) -> int:
    _check_invited(g, player, action)
    mate = chain.can_invite(g, player)
    if mate == NOWHERE or action.get("teammate", mate) != mate:
        raise IllegalActionError("you may invite your teammate only on your turn while you hold priority, "
                                 "once until something else happens", "491.8.a")
    return mate


def _check_invited(g: "Game", player: int, action: EngineAction) -> None:
    """491.8.a: an invited teammate plays spells and activates abilities, or hands priority back."""
    if g.state.invited != player:
        return
    kind = action["type"]
    if kind == "play":
        oid = action.get("card")
        if oid in g.state.objs and g.card(oid).type != "spell":
            raise IllegalActionError("an invited teammate may play spells and activate abilities only", "491.8.a")
    elif kind not in ("activate", "pass"):
        raise IllegalActionError(f"an invited teammate may play spells, activate abilities or pass back, not {kind}",
                                 "491.8.a")


def _perform_play(g: "Game", player: int, action: EngineAction, check: playing.PlayCheck, d: Decision) -> None:
    playing.play_card(g, player, action, check)


def _perform_activate(g: "Game", player: int, action: EngineAction, check: playing.PlayCheck, d: Decision) -> None:
    activation.activate(g, player, action, check)


def _perform_move(g: "Game", player: int, action: EngineAction, check: tuple[list[int], int], d: Decision) -> None:
    units, dest = check
    movement.standard_move(g, player, units, dest)


def _perform_hide(g: "Game", player: int, action: EngineAction, plan: payment.Plan, d: Decision) -> None:
    hide.hide(g, player, action, plan)


def _perform_pass(g: "Game", player: int, action: EngineAction, hands_back: bool, d: Decision) -> None:
    if hands_back:
        chain.hand_back(g, player)  # 491.8.a: back to the inviter; not a pass
    else:
        chain.pass_priority(g, player)


def _perform_end_turn(g: "Game", player: int, action: EngineAction, check: None, d: Decision) -> None:
    turn.end_turn(g, player)


def _perform_invite(g: "Game", player: int, action: EngineAction, mate: int, d: Decision) -> None:
    chain.invite(g, player, mate)


def _listed_options(kind: str, field: str) -> Listing:
    """Decisions with options: one action per option, its value under ``field``."""
    def listing(g: "Game", player: int, d: Decision) -> list[EngineAction]:
        return [{"type": kind, field: o["value"]} for o in d.options]
    return listing


def _option_value(field: str) -> Check:
    """The answer must be one of the decision's option values; returns it."""
    def check(g: "Game", player: int, action: EngineAction, d: Decision) -> Any:
        value = action.get(field)
        for option in d.options:
            if offer.same(option["value"], value):
                return option["value"]
        if d.kind == "battlefield":
            raise IllegalActionError(*setup.battlefield_refusal(g, player, value))
        if d.kind == "mulligan":
            if isinstance(value, list) and len(value) > 2:
                raise IllegalActionError("set aside at most 2 cards", "117.1")
            raise IllegalActionError(f"{offer.short(value)} are not cards in your hand", "117.1")
        raise IllegalActionError(f"{offer.short(value)} is not one of the options: {d.prompt}")
    return check


def _perform_mulligan(g: "Game", player: int, action: EngineAction, cards: list[int], d: Decision) -> None:
    setup.mulligan(g, player, list(cards))


def _perform_choose(g: "Game", player: int, action: EngineAction, value: Any, d: Decision) -> None:
    if d.kind == "battlefield":
        setup.battlefield_chosen(g, player, int(value))  # 488.5
    elif d.kind == "turn_order":
        setup.turn_order_chosen(g, player, str(value))
    elif d.kind == "showdown":
        cleanup.begin_showdown(g, int(value))
    elif d.context.get("replay"):
        g.state.answers.append(value)


def _perform_order(g: "Game", player: int, action: EngineAction, order: list[int], d: Decision) -> None:
    s = g.state
    group = [t for t in s.pending_triggers if t.controller == player]
    ordered = [group[i] for i in order]
    for t in ordered:
        t.ordered = True
    rest = [t for t in s.pending_triggers if t.controller != player]
    s.pending_triggers = ordered + rest


def _list_targets(g: "Game", player: int, d: Decision) -> list[EngineAction]:
    """A trigger's choices of targets; a "Choose one —" trigger's each with the modes it goes with
    (``mode``, as play and activate actions name them: engine notes, playing a card, step 2)."""
    return [{"type": "targets", "targets": o["value"], "mode": o["mode"]} if "mode" in o
            else {"type": "targets", "targets": o["value"]} for o in d.options]


def _check_targets(g: "Game", player: int, action: EngineAction, d: Decision) -> dict[str, Any]:
    """The option the action answers: its targets and, for a "Choose one —" trigger, its modes (355)."""
    value, mode = action.get("targets"), action.get("mode")
    for option in d.options:
        if offer.same(option["value"], value) and option.get("mode") == mode:
            return option
    if mode is None and any("mode" in o for o in d.options):
        raise IllegalActionError(f"choose the mode with the targets: 'mode' lists the options' indexes; {d.prompt}",
                                 "355")
    if mode is not None and not any("mode" in o for o in d.options):
        raise IllegalActionError(f"this trigger has no modes to choose ('mode' is for a \"choose one\"); "
                                 f"{d.prompt}", "355")
    raise IllegalActionError(f"{offer.short(value)}{f' with the mode(s) {mode!r}' if mode is not None else ''} "
                             f"is not one of the options: {d.prompt}")


def _perform_targets(g: "Game", player: int, action: EngineAction, option: dict[str, Any], d: Decision) -> None:
    group = [t for t in g.state.pending_triggers if t.controller == player]
    group[0].targets = [list(slot) for slot in option["value"]]
    if "mode" in option:
        group[0].mode = list(option["mode"])


def _check_assign(g: "Game", player: int, action: EngineAction, d: Decision) -> dict[int, int]:
    damage = action["damage"]
    parsed = {int(k): v for k, v in damage.items()}
    combat.check_assignment(g, int(d.context["total"]), list(d.context["units"]), parsed)
    return parsed


def _perform_assign(g: "Game", player: int, action: EngineAction, parsed: dict[int, int], d: Decision) -> None:
    combat.store_assignment(g, str(d.context["side"]), parsed)


def _no_listing(g: "Game", player: int, d: Decision) -> list[EngineAction]:
    return []


def _check_concede(g: "Game", player: int, action: EngineAction, d: Decision) -> int:
    return concession.conceder(g, action)


def _perform_concede(g: "Game", player: int, action: EngineAction, who: int, d: Decision) -> None:
    concession.concede(g, who, d)


_PRIORITY: Final = ("priority",)
_CHOICES = ("choose", "showdown", "battlefield", "turn_order")
# In listing order: legal_actions lists the types answering the pending decision in this order.
ACTIONS: Final[dict[str, ActionType]] = {t.name: t for t in (
    ActionType("play", _PRIORITY, play_actions, _check_play, _perform_play),
    ActionType("activate", _PRIORITY, activate_actions, _check_activate, _perform_activate),
    ActionType("move", _PRIORITY, move_actions, _check_move, _perform_move),
    ActionType("hide", _PRIORITY, hide.hide_actions, _check_hide, _perform_hide),
    ActionType("pass", _PRIORITY, pass_actions, _check_pass, _perform_pass),
    ActionType("end_turn", _PRIORITY, end_turn_actions, _check_end_turn, _perform_end_turn),
    ActionType("invite", _PRIORITY, invite_actions, _check_invite, _perform_invite),
    ActionType("mulligan", ("mulligan",), _listed_options("mulligan", "cards"), _option_value("cards"),
               _perform_mulligan),
    ActionType("choose", _CHOICES, _listed_options("choose", "value"), _option_value("value"), _perform_choose),
    ActionType("order", ("order",), _listed_options("order", "order"), _option_value("order"), _perform_order),
    ActionType("targets", ("targets",), _list_targets, _check_targets, _perform_targets),
    ActionType("assign", ("assign",), _listed_options("assign", "damage"), _check_assign, _perform_assign),
    # any player, at any time; never listed (an agent choosing uniformly would concede at random)
    ActionType("concede", ("priority", "mulligan", "order", "targets", "assign") + _CHOICES, _no_listing,
               _check_concede, _perform_concede),
)}
BY_DECISION: Final[dict[str, tuple[ActionType, ...]]] = {}
for _type in ACTIONS.values():
    if _type.listing is not _no_listing:
        for _kind in _type.answers:
            BY_DECISION[_kind] = BY_DECISION.get(_kind, ()) + (_type,)
# legal_actions calls the priority listings directly, in this order
_PRIORITY_LISTINGS = (play_actions, activate_actions, move_actions, hide.hide_actions, pass_actions, end_turn_actions,
                      invite_actions)
if tuple(t.listing for t in BY_DECISION["priority"]) != _PRIORITY_LISTINGS:
    raise ImportError("decisions.legal_actions lists the priority actions of ACTIONS directly: keep the two alike")


class Checked:
    """An action that passed every check: its type, who takes it, the action in the engine's ids
    and what its check returned for perform to use.  A plain class, not a NamedTuple: compiled, its
    constructor is native (a NamedTuple's runs as Python, once per action)."""

    def __init__(self, type: ActionType, player: int, action: EngineAction, result: Any) -> None:
        self.type = type
        self.player = player
        self.action = action
        self.result = result


MAX_ACTION_ITEMS: Final = 10_000  # more values than any action of any game position has


def plain_action(action: dict[Any, Any]) -> dict[str, Any]:
    """A copy of an action made of plain JSON values only (dict, list, str, int, float, bool, None), read from
    the caller's object once; anything else, or more than ``MAX_ACTION_ITEMS`` values, is refused."""
    result: dict[str, Any] = _plain(action, 0, _Budget())
    return result


class _Budget:
    """The values an action may still hold (``MAX_ACTION_ITEMS``): a field of a native object, where a
    one-item list made every count a boxed integer."""

    def __init__(self) -> None:
        self.left = MAX_ACTION_ITEMS


def _plain(value: Any, depth: int, budget: _Budget) -> Any:
    budget.left -= 1
    if budget.left < 0:
        raise IllegalActionError(f"an action holds at most {MAX_ACTION_ITEMS} values")
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None or kind is float:
        return value
    if depth > offer.MAX_DEPTH:
        raise IllegalActionError(f"an action nests lists or mappings deeper than {offer.MAX_DEPTH} levels")
    if kind is list:
        items: list[Any] = value
        return [_plain(item, depth + 1, budget) for item in items]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        if kind is dict:  # typed: compiled, the dict's own iteration (a generic one calls items() and iterates)
            exact: dict[Any, Any] = value
            for key, item in exact.items():
                _plain_item(out, key, item, depth, budget)
        else:  # dict.items, not value.items(): a subclass's own items() is not asked
            for key, item in dict.items(value):
                _plain_item(out, key, item, depth, budget)
        return out
    if isinstance(value, list):
        return [_plain(item, depth + 1, budget) for item in list.__iter__(value)]
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, float):
        return float.__float__(value)
    raise IllegalActionError(f"an action holds plain values (text, numbers, lists, mappings), not {kind.__name__}")


def _plain_item(out: dict[str, Any], key: Any, item: Any, depth: int, budget: _Budget) -> None:
    if type(key) is not str:
        raise IllegalActionError(f"an action's keys are text, not {offer.short(key)}")
    out[key] = _plain(item, depth + 1, budget)


def check(g: "Game", action: Any) -> Checked:
    """Every check of an action, before anything changes; raises IllegalActionError saying why not."""
    d = g.state.decision
    assert d is not None
    if not isinstance(action, dict):
        raise IllegalActionError(f"an action is a mapping with a 'type', got {offer.short(action)}")
    # the engine's own copy, as plain data: the action checked is the one performed and logged, whatever the
    # caller's object does later (a mapping that answers differently on a second read, a dict edited after)
    given = action
    action = plain_action(action)
    kind = action.get("type")
    action_type = ACTIONS.get(kind) if isinstance(kind, str) else None
    if action_type is None:
        hint = did_you_mean(kind, list(ACTIONS)) if isinstance(kind, str) else ""
        raise IllegalActionError(f"{offer.short(kind)} is not an action type{hint}; the types are {', '.join(ACTIONS)}")
    problem = offer.shape_problem(action)
    if problem:
        raise IllegalActionError(f"malformed {kind} action: {problem}")
    if d.kind not in action_type.answers:
        if d.kind == "priority":
            raise IllegalActionError(f"{kind!r} is not possible now; {d.prompt}")
        raise IllegalActionError(f"the game waits for a {d.kind} decision ({d.prompt}); got {kind!r}")
    if action_type.listing is _no_listing:
        who = action_type.check(g, d.player, action, d)
        return Checked(action_type, who, action, who)
    player = d.player
    shaped = cast(Action, action)  # it has the closed shape of its type (shape_problem)
    internal = offer.resolve(g, player, shaped)
    result = action_type.check(g, player, internal, d)
    if not offer.is_offered(g, action_type, player, d, shaped, given):
        raise IllegalActionError(f"{offer.short(action)} is not one of the legal actions now: "
                                 f"{offer.not_listed_hint(g, action_type, player, d, shaped)}")
    return Checked(action_type, player, internal, result)


def perform(g: "Game", checked: Checked) -> None:
    """Carry out a checked action (the decision it answers is then settled)."""
    s = g.state
    d = s.decision
    assert d is not None
    s.decision = None
    if checked.type.name != "pass":
        loop_draw.decision_made(g)  # passing priority never breaks a mandatory loop (core/engine/loop_draw.py)
    checked.type.perform(g, d.player if checked.type.name != "concede" else checked.player,
                         checked.action, checked.result, d)




