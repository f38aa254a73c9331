"""Player decisions: listing legal actions, validating an action, and performing it.

Actions are plain JSON-friendly dicts.  Validation does every check before anything changes, so
``Game.apply`` is atomic: an illegal action raises IllegalActionError naming the rule and the
state is untouched.  Decision kinds: ``priority`` (play, activate, move, hide, pass, end_turn; in 2v2
also ``invite``: the turn player lends their priority to their teammate, 491.8.a, see core/chain.py),
``mulligan``, ``choose`` (a choice while something resolves), ``order`` (triggers), ``targets``
(a trigger's targets), ``assign`` (combat damage), ``showdown`` (which battlefield first),
``battlefield`` (setup: which battlefield to present, 488.5) and ``turn_order`` (setup of a match's
later game: the previous loser plays first or second); these last two are answered with ``choose``.
"""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from . import chain, combat, layers, loops, movement, payment
from .cards import CardDef
from .errors import IllegalActionError
from .state import NOWHERE, Decision, is_battlefield

if TYPE_CHECKING:
    from .game import Game

Action = dict[str, Any]


def legal_actions(g: "Game") -> list[Action]:
    d = g.state.decision
    assert d is not None
    if d.kind == "priority":
        return priority_actions(g, d.player)
    if d.kind == "mulligan":
        return [{"type": "mulligan", "cards": o["value"]} for o in d.options]
    if d.kind in ("choose", "showdown", "battlefield", "turn_order"):
        return [{"type": "choose", "value": o["value"]} for o in d.options]
    if d.kind == "order":
        return [{"type": "order", "order": o["value"]} for o in d.options]
    if d.kind == "targets":
        return [{"type": "targets", "targets": o["value"]} for o in d.options]
    if d.kind == "assign":
        return [{"type": "assign", "damage": o["value"]} for o in d.options]
    return []


def priority_actions(g: "Game", player: int, resources: bool = True) -> list[Action]:
    s = g.state
    out: list[Action] = []
    p = s.players[player]
    invited = s.invited == player  # 491.8.a: spells and abilities only, with the inviter's priority
    sources = list(p.hand) + list(p.champion) + [oid for bf in s.battlefields for oid in bf.facedown
                                                 if g.obj(oid).controller == player]
    sources += [oid for oid in p.trash if chain.play_from_cost(g, player, oid) is not None]  # "from your trash"
    objs, defs = s.objs, g.defs
    any_timing = chain.timing_allows(g, player, None)[0]  # None is the strictest timing
    for oid in sources:
        obj = objs[oid]
        card = defs[obj.code]
        if card.type not in ("unit", "spell", "gear") or (invited and card.type != "spell"):
            continue
        hidden = obj.zone == "facedown"
        if not any_timing and not chain.timing_allows(g, player, "reaction" if hidden else chain.card_timing(g, oid))[0] \
                and not (card.type == "unit" and "battlefield_with_own_units" in
                         g_hook(g, oid, "reaction_when_played_to")):
            continue
        base = payment.shared_play_cost(g, player, oid, [], hidden=hidden)
        if payment.plan_payment(g, player, base, for_spell=card.type == "spell", for_gear=card.type == "gear") is None \
                and not _cheapening_option(card) and not payment.own_chooses_discount(card):
            continue  # unaffordable, unless an optional cost or its targets make it cheaper (357)
        locations = chain.play_locations(g, player, oid, obj.loc if hidden else NOWHERE)
        optional = chain.optional_costs(g, oid)
        slots = chain.target_slots(card)
        # with every optional cost paid (the widest choice a filter 'paid' allows); check_play refines
        target_sets = chain.target_options(g, player, oid, slots, obj.loc if hidden else NOWHERE,
                                           paid=optional) if slots else [[]]
        # A play's check depends on its location only through the location being allowed (these
        # are) and its timing, which doesn't matter when every timing is: then the checks at the
        # first location decide for the others (the rest would only repeat the same reads).
        decided: list[chain.PlayCheck | None] = []
        for location in locations:
            n = 0
            # check_play in its two parts, the one that doesn't read costs and targets once per location
            play: chain.PlayBase | None = None
            refused = False
            for size in range(len(optional) + 1):
                for paid in itertools.combinations(optional, size):
                    count = chain.runs(g, oid, paid)
                    # 820: a repeated spell's runs each have their own targets
                    for targets in target_sets if count == 1 or not slots else chain.play_target_options(
                            g, player, oid, slots, count, obj.loc if hidden else NOWHERE):
                        action: Action = {"type": "play", "card": oid, "targets": targets, "costs": list(paid)}
                        if location != NOWHERE:
                            action["location"] = location
                        check: chain.PlayCheck | None
                        if n < len(decided):
                            check = decided[n]
                        else:
                            check = None
                            if play is None and not refused:
                                try:
                                    play = chain.play_base(g, player, action)
                                except IllegalActionError:
                                    refused = True
                            if play is not None:
                                try:
                                    check = chain.check_play_choices(g, player, action, play)
                                except IllegalActionError:
                                    pass
                            if any_timing:
                                decided.append(check)
                        n += 1
                        if check is None:
                            continue
                        if check.other_costs or check.cost.other:
                            out.extend(_cost_variants(g, player, oid, check, action))
                        else:
                            out.append(action)  # nothing to choose to pay with (most plays)
    for oid, ability in chain.activatable(g, player, runes=False):
        if not resources and chain.is_add_ability(ability):
            continue
        if ability.body["cost"].get("exhaust_self") and g.obj(oid).exhausted:
            continue  # an exhausted source can't pay its exhaust cost: no need to look for targets
        if not chain.timing_allows(g, player, ability.timing)[0]:
            continue
        slots = chain._target_nodes(ability.body.get("effect", {}))
        target_sets = chain.target_options(g, player, oid, slots) if slots else [[]]
        activation: chain.ActivationBase | None = None
        for targets in target_sets:
            action = {"type": "activate", "source": oid, "ability": ability.index, "targets": targets}
            try:
                # check_activate in its two parts, the one that doesn't read the targets done once
                if activation is None:
                    activation = chain.activation_base(g, player, action)
                source, index, activated, cost = activation
                own_cost = payment.Cost(cost.energy, list(cost.power), dict(cost.other))
                check = chain.check_activation_targets(g, player, action, (source, index, activated, own_cost))
            except IllegalActionError:
                if activation is None:
                    break  # the same refusal for every choice of targets
                continue
            if check.other_costs or check.cost.other:
                out.extend(_cost_variants(g, player, oid, check, action))
            else:
                out.append(action)
    if resources:
        # 164.2: rune abilities have Reaction and cost nothing but exhausting or recycling the rune
        append = out.append
        for rune in p.runes:
            if not objs[rune].exhausted:
                append({"type": "activate", "source": rune, "ability": -1})
            append({"type": "activate", "source": rune, "ability": -2})
    for dest, units in movement.destinations(g, player).items():
        for oid in units:
            out.append({"type": "move", "units": [oid], "to": dest})
        if len(units) > 1:
            out.append({"type": "move", "units": list(units), "to": dest})
    out.extend(hide_actions(g, player))
    if s.chain or s.showdown is not None or invited:
        out.append({"type": "pass"})  # invited: hand the priority back (491.8.a)
    elif s.step == "main" and player == s.turn_player:
        out.append({"type": "end_turn"})
    mate = chain.can_invite(g, player)
    if mate != NOWHERE:
        out.append({"type": "invite", "teammate": mate})
    return out


_CHEAPENING: dict[int, tuple[CardDef, bool]] = {}


def _cheapening_option(card: CardDef) -> bool:
    """Whether an optional additional cost of the card makes it cheaper (Brazen Buccaneer, 357);
    worked out once per card, since scripts are immutable once compiled."""
    hit = _CHEAPENING.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    found = any(a.kind == "additional_cost" and a.body.get("optional") and a.body.get("effect_on_cost", {}).keys()
                & {"reduce_energy", "reduce_power", "ignore_cost", "per_unit"} for a in card.abilities)
    _CHEAPENING[id(card)] = (card, found)
    return found


def _cost_variants(g: "Game", player: int, oid: int, check: chain.PlayCheck, action: Action) -> list[Action]:
    """One action per way to pay a 'kill a unit' or 'exhaust a unit' cost (the player chooses)."""
    other = check.other_costs or check.cost.other
    if not other:
        return [action]  # nothing to choose (most plays): cost_choices would find no choices
    choices = chain.cost_choices(g, player, oid, other)
    if not any(len(c) > 1 for c in choices.values()):
        return [action]
    out: list[Action] = []
    keys = sorted(choices)
    for combo in itertools.product(*(choices[k] for k in keys)):
        out.append({**action, "pay_with": dict(zip(keys, combo))})
    return out


def g_hook(g: "Game", oid: int, hook: str) -> list[Any]:
    return layers.hook_values(g, oid, hook)


def is_resource_action(g: "Game", action: Action) -> bool:
    """Rune abilities and other Add abilities: they only fill the pool (payment does that too)."""
    if action.get("type") != "activate":
        return False
    index = int(action.get("ability", 0))
    if index < 0:
        return True
    return chain.is_add_ability(chain.activated_abilities(g, int(action["source"]))[index])


# ---------------------------------------------------------------------- hiding (811)
def hide_actions(g: "Game", player: int) -> list[Action]:
    out: list[Action] = []
    s = g.state
    if s.chain or s.turn_player != player or s.step != "main":
        return out
    alternative: bool | None = None
    for oid in s.players[player].hand:
        if True not in g_hook(g, oid, "hide"):
            continue
        if alternative is None:
            alternative = len(_hide_costs(g, player)) > 1  # a 'hide_cost' effect offers another way to pay (811.1.a)
        for bf in s.battlefields:
            variants: list[Action] = [{"type": "hide", "card": oid, "battlefield": bf.loc}]
            if alternative:
                variants.append({"type": "hide", "card": oid, "battlefield": bf.loc, "costs": ["hide_cost"]})
            for action in variants:
                try:
                    check_hide(g, player, action)
                except IllegalActionError:
                    continue
                out.append(action)
    return out


def check_hide(g: "Game", player: int, action: Action) -> payment.Plan:
    s = g.state
    oid = action.get("card")
    loc = action.get("battlefield")
    if not isinstance(oid, int) or oid not in s.objs or g.obj(oid).zone != "hand" or g.obj(oid).owner != player:
        raise IllegalActionError(f"#{oid} is not a card in your hand")
    if True not in g_hook(g, oid, "hide"):
        raise IllegalActionError(f"{g.name(oid)} doesn't have Hidden", "811")
    if s.chain or s.turn_player != player:
        raise IllegalActionError("cards are hidden only in your open state on your turn", "811.1.a")
    if not isinstance(loc, int) or not is_battlefield(loc) or loc - 10 >= len(s.battlefields):
        raise IllegalActionError(f"{loc!r} is not a battlefield")
    bf = g.bf_at(loc)
    if bf.controller != player:
        raise IllegalActionError("cards are hidden only at a battlefield you control", "811.1.a")
    room = 1 + sum(int(v) for v in g_hook(g, bf.card, "extra_hidden_cards"))
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


_ONE_POWER = payment.Cost(0, [payment.ANY])


def _hide_costs(g: "Game", player: int) -> list[payment.Cost]:
    """One power of any domain (811), or what a 'hide_cost' effect lets the player pay instead."""
    from . import actions

    costs = [_ONE_POWER]
    for mod, src in actions.static_modifiers(g, "hide_cost"):
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


def hide(g: "Game", player: int, action: Action, plan: payment.Plan) -> None:
    payment.pay(g, player, plan)
    oid = int(action["card"])
    g.place(oid, "facedown", int(action["battlefield"]))
    g.obj(oid).controller = player
    g.obj(oid).hidden_turn = g.state.turn
    g.emit("hide", player=player, obj=oid, loc=action["battlefield"])
    g.state.needs_cleanup = True


# ---------------------------------------------------------------------- validate / perform
def validate(g: "Game", action: Any) -> None:
    d = g.state.decision
    assert d is not None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalActionError(f"an action is a mapping with a 'type', got {action!r}")
    kind = action["type"]
    if kind == "concede":
        conceder(g, action)
        return
    player = d.player
    if d.kind == "priority":
        check_shape(g, action)
        if g.state.invited == player:
            _check_invited(g, action)
        if kind == "play":
            g._pending_check = chain.check_play(g, player, action)
        elif kind == "activate":
            g._pending_check = chain.check_activate(g, player, action)
        elif kind == "move":
            g._pending_check = movement.check_move(g, player, action)  # the units and the destination
        elif kind == "hide":
            g._pending_plan = check_hide(g, player, action)
        elif kind == "invite":
            mate = chain.can_invite(g, player)
            if mate == NOWHERE or action.get("teammate", mate) != mate:
                raise IllegalActionError("you may invite your teammate only on your turn while you hold priority, "
                                         "once until something else happens", "491.8.a")
        elif kind == "pass":
            if not g.state.chain and g.state.showdown is None and g.state.invited != player:
                raise IllegalActionError("nothing to pass in a Neutral Open state; end your turn instead", "310.1")
        elif kind == "end_turn":
            s = g.state
            if s.chain or s.showdown is not None or s.step != "main" or player != s.turn_player:
                raise IllegalActionError("you can end your turn only in your Main Phase in a Neutral Open state",
                                         "316.5")
        else:
            raise IllegalActionError(f"{kind!r} is not possible now; {d.prompt}")
        return
    expected = {"mulligan": "mulligan", "choose": "choose", "showdown": "choose", "order": "order",
                "targets": "targets", "assign": "assign", "battlefield": "choose", "turn_order": "choose"}[d.kind]
    if kind != expected:
        raise IllegalActionError(f"the game waits for a {d.kind} decision ({d.prompt}); got {kind!r}")
    if d.kind == "assign":
        damage = action.get("damage")
        if not isinstance(damage, dict):
            raise IllegalActionError("an assignment maps unit ids to damage")
        try:
            parsed = {int(k): v for k, v in damage.items()}
        except (TypeError, ValueError):
            raise IllegalActionError("an assignment maps unit ids to damage") from None
        combat.check_assignment(g, int(d.context["total"]), list(d.context["units"]), parsed)
        return
    field = {"mulligan": "cards", "choose": "value", "order": "order", "targets": "targets"}[kind]
    values = [o["value"] for o in d.options]
    if d.kind == "targets" and _target_option(values, action.get(field)) is not None:
        return  # 355: the chosen objects, in any order within a slot
    if action.get(field) not in values:
        if d.kind == "battlefield":
            from . import setup

            raise IllegalActionError(*setup.battlefield_refusal(g, player, action.get(field)))
        if d.kind == "mulligan":
            cards = action.get("cards")
            if isinstance(cards, list) and len(cards) > 2:
                raise IllegalActionError("set aside at most 2 cards", "117.1")
            raise IllegalActionError(f"{cards!r} are not cards in your hand", "117.1")
        raise IllegalActionError(f"{action.get(field)!r} is not one of the options: {d.prompt}")


def _target_option(options: list[Any], targets: Any) -> Any:
    """The option naming the same objects as ``targets``, slot by slot, whatever their order in a slot."""
    if not isinstance(targets, list) or not all(isinstance(slot, list) for slot in targets):
        return None
    wanted = [sorted(map(str, slot)) for slot in targets]
    for option in options:
        if isinstance(option, list) and [sorted(map(str, slot)) for slot in option] == wanted:
            return option
    return None


def _check_invited(g: "Game", action: Action) -> None:
    """491.8.a: an invited teammate plays spells and activates abilities, or hands priority back."""
    kind = action["type"]
    if kind == "play":
        oid = action.get("card")
        if oid in g.state.objs and g.card(oid).type != "spell":
            raise IllegalActionError("an invited teammate may play spells and activate abilities only", "491.8.a")
    elif kind not in ("activate", "pass"):
        raise IllegalActionError(f"an invited teammate may play spells, activate abilities or pass back, not {kind}",
                                 "491.8.a")


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_shape(g: "Game", action: Action) -> None:
    """Wrongly typed fields make an illegal action, never a crash (Game.apply's promise)."""
    kind = action["type"]
    s = g.state

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise IllegalActionError(f"malformed {kind} action: {what}")

    if kind in ("play", "hide"):
        need(_is_id(action.get("card")), "'card' must be an object id")
    if kind == "activate":
        need(_is_id(action.get("source")) and _is_id(action.get("ability", 0)),
             "'source' and 'ability' must be whole numbers")
    if kind in ("play", "activate") and "targets" in action:
        targets = action["targets"]
        need(isinstance(targets, list) and all(isinstance(slot, list) and all(_is_id(t) for t in slot)
                                               for slot in targets), "'targets' must be lists of object ids")
    if kind == "play":
        costs = action.get("costs", [])
        need(isinstance(costs, list) and all(isinstance(c, str) for c in costs), "'costs' must be a list of names")
        location = action.get("location", NOWHERE)
        need(_is_id(location) and (location == NOWHERE or 0 <= location < len(s.players)
                                   or any(bf.loc == location for bf in s.battlefields)),
             "'location' must be a base or a battlefield")
    if kind == "move":
        units = action.get("units")
        need(isinstance(units, list) and all(_is_id(u) for u in units), "'units' must be a list of object ids")
        need(_is_id(action.get("to")), "'to' must be a location")
    if kind == "hide":
        need(_is_id(action.get("battlefield")), "'battlefield' must be a location")
        costs = action.get("costs", [])
        need(isinstance(costs, list) and all(isinstance(c, str) for c in costs), "'costs' must be a list of names")


def perform(g: "Game", action: Action) -> None:
    s = g.state
    d = s.decision
    assert d is not None
    player = d.player
    kind = action["type"]
    s.decision = None
    if kind != "pass":
        loops.decision_made(g)  # passing priority never breaks a mandatory loop (core/loops.py)
    if kind == "concede":
        concede(g, conceder(g, action), d)
        return
    if d.kind == "priority":
        if kind == "play":
            chain.play_card(g, player, action, g._pending_check)
        elif kind == "activate":
            chain.activate(g, player, action, g._pending_check)
        elif kind == "move":
            units, dest = g._pending_check  # validate's check_move
            movement.standard_move(g, player, units, dest)
        elif kind == "hide":
            hide(g, player, action, g._pending_plan)
        elif kind == "pass" and s.invited == player:
            chain.hand_back(g, player)  # 491.8.a: back to the inviter; not a pass
        elif kind == "pass":
            chain.pass_priority(g, player)
        elif kind == "invite":
            chain.invite(g, player, chain.teammate(g, player))  # validated: can_invite
        elif kind == "end_turn":
            from . import turn

            turn.end_turn(g, player)
        return
    if d.kind == "mulligan":
        from . import setup

        setup.mulligan(g, player, list(action["cards"]))
    elif d.kind in ("battlefield", "turn_order"):
        from . import setup

        if d.kind == "battlefield":
            setup.battlefield_chosen(g, player, int(action["value"]))  # 488.5
        else:
            setup.turn_order_chosen(g, player, str(action["value"]))
    elif d.kind == "choose" and d.context.get("replay"):
        s.answers.append(action["value"])
    elif d.kind == "showdown":
        from . import cleanup

        cleanup.begin_showdown(g, int(action["value"]))
    elif d.kind == "order":
        group = [t for t in s.pending_triggers if t.controller == player]
        ordered = [group[i] for i in action["order"]]
        for t in ordered:
            t.ordered = True
        rest = [t for t in s.pending_triggers if t.controller != player]
        s.pending_triggers = ordered + rest
    elif d.kind == "targets":
        group = [t for t in s.pending_triggers if t.controller == player]
        group[0].targets = _target_option([o["value"] for o in d.options], action["targets"]) or action["targets"]
    elif d.kind == "assign":
        from .combat import _store

        _store(g, str(d.context["side"]), {int(k): v for k, v in action["damage"].items()})


# ---------------------------------------------------------------------- concession
# The rules files don't say what becomes of a conceding player's cards (only that 2v2 partners lose
# together: 491.6.a and the Oct 2025 patch note "one player conceding has their partner lose as well").
# Decision (how-to-play.md: you win "if you're the last player left in the game"): a player who concedes
# leaves the game.  Everything they own leaves it with them (zone "removed"; tokens cease to exist),
# whatever they control but don't own goes back to its owner, their chain items, pending triggers and
# lasting effects end, and the battlefields they brought stay in play as locations, controlled by
# nobody.  The game goes on around them: focus and priority skip them, a showdown or combat they were
# in carries on as if their units had left it, and on their own turn the turn ends once what is under
# way has finished (core/turn.py).  The last player or team standing wins.
_SETUP_DECISIONS = ("mulligan", "battlefield", "turn_order")


def conceder(g: "Game", action: Action) -> int:
    """Who concedes: any player still in the game, at any time, even while another player decides."""
    s = g.state
    d = s.decision
    who = action.get("player", d.player if d is not None else NOWHERE)
    if not _is_id(who) or not 0 <= who < len(s.players):
        raise IllegalActionError(f"{who!r} is not a player of this game")
    if s.players[who].conceded:
        raise IllegalActionError(f"{s.players[who].name} has already left the game")
    return int(who)


def concede(g: "Game", player: int, pending: Decision | None = None) -> None:
    """A conceding player leaves the game (with their team, 491.6.a); if one team remains it wins."""
    s = g.state
    team = s.players[player].team
    # 491.6.a: teammates win or lose together, so a concession takes the whole team out
    leaving = [p.index for p in s.players if p.team == team and not p.conceded] if g.spec.teams else [player]
    for who in leaving:
        _adjust_passes(g, who)
        s.players[who].conceded = True
    g.emit("concede", player=player, team=leaving)
    teams = {p.team for p in s.players if not p.conceded}
    if len(teams) <= 1:
        s.winners = [p.index for p in s.players if p.team in teams]
        s.result = "concession"
        s.decision = None
        g.emit("game_over", winners=s.winners, reason="concession")
        return
    for who in leaving:
        _leave_game(g, who)
    s.decision = None
    if pending is not None:
        if pending.kind in _SETUP_DECISIONS and pending.player not in leaving:
            s.decision = pending  # another player's setup choice still waits for its answer
        elif pending.context.get("replay"):
            s.answers = []  # the paused step runs again from its start in the changed game
        if pending.kind == "assign" and s.showdown is not None:
            s.showdown.assignments = {}
    s.needs_cleanup = True
    g.touch()


def _adjust_passes(g: "Game", player: int) -> None:
    """Passes in a row that counted the leaving player's own pass count one fewer; a leaving
    holder of priority or focus hands it to the next player (347.1.b, 347.2.b)."""
    s = g.state
    if player not in s.turn_order:
        return  # conceding in setup before the turn order is known (488.5 choices): nobody has passed
    active = g.in_turn_order(player)
    sd = s.showdown
    if s.chain:
        s.passes = _passes_without(g, s.passes, s.priority, player, active)
        if s.priority == player:
            s.priority = g.next_player(player)
    if sd is not None:
        sd.passes = _passes_without(g, sd.passes, sd.focus, player, active)
        if sd.focus == player:
            sd.focus = g.next_player(player)


def _passes_without(g: "Game", passes: int, holder: int, player: int, active: list[int]) -> int:
    """The passes in a row are the ``passes`` players just before the holder in turn order."""
    if holder not in active or passes <= 0 or holder == player:
        return passes
    i = active.index(holder)
    passed = {active[(i - k) % len(active)] for k in range(1, passes + 1)}
    return passes - 1 if player in passed else passes


def _leave_game(g: "Game", player: int) -> None:
    """Everything the player owns leaves the game; what they control but don't own returns to its owner."""
    from . import actions, scoring

    s = g.state
    p = s.players[player]
    top = s.chain[-1] if s.chain else None
    gone_items = [i for i in s.chain if i.controller == player or (i.kind == "card" and g.obj(i.obj).owner == player)]
    s.chain = [i for i in s.chain if i not in gone_items]
    if top is not None and top in gone_items:
        s.tasks = [t for t in s.tasks if t[0] != "resolve"]  # the item being resolved is gone
        s.answers = []
        if s.chain:
            # a new item is on top: as after a resolution, its controller gets priority and the
            # passes start again (passes given while the old top was there were about that one)
            s.priority = s.chain[-1].controller
            s.passes = 0
    if gone_items and not s.chain:
        s.passes = 0
    for item in gone_items:
        if item.kind == "card" and g.obj(item.obj).owner != player:
            g.place(item.obj, "trash")  # a card of another owner goes to its owner's trash
    s.pending_triggers = [t for t in s.pending_triggers if t.controller != player]
    s.lasting = [lasting for lasting in s.lasting if lasting.controller != player]
    s.extra_turns = [who for who in s.extra_turns if who != player]
    s.tasks = [t for t in s.tasks if not (t[0] == "mulligan" and t[1] == player)]
    p.energy = p.spell_energy = p.gear_energy = p.showdown_energy = 0
    p.power = {}
    p.spell_power = {}
    p.gear_power = {}
    for bf in s.battlefields:
        if bf.controller == player:
            g.emit("lose_control", bf=bf.loc, player=player)
            scoring.set_controller(g, bf.loc, NOWHERE)
    leaving: list[int] = []
    for oid, obj in s.objs.items():
        if obj.owner == player and obj.zone not in ("gone", "removed", "set_aside", "bfcard"):
            leaving.append(oid)
    for oid in leaving:
        g.place(oid, "removed")
    p.legend = NOWHERE
    for oid in list(g.board_objects()):
        obj = g.obj(oid)
        if obj.attached_to != NOWHERE and g.obj(obj.attached_to).zone != "board":
            obj.attached_to = NOWHERE  # its unit left the game: the card is detached (Core Rules, attachment)
        if obj.controller == player:
            obj.controller = obj.owner
            actions.recall(g, [oid])
    for bf in s.battlefields:
        for oid in list(bf.facedown):
            if g.obj(oid).controller == player:
                g.place(oid, "trash")
    for oid in list(p.runes):
        g.place(oid, "rune_deck")  # a rune of another owner goes to the bottom of its owner's rune deck
        g.obj(oid).controller = g.obj(oid).owner
    g.emit("left_game", player=player, objects=sorted(leaving))
