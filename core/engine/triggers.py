"""Trigger dispatch and putting triggered abilities on the chain (383).

Dispatch is by event type: ``Game.index.listeners``, core/engine/trigger_index.py maps each event type to the abilities that listen
to it, kept up to date as objects change zones, so an event costs only the abilities that
actually listen — never a scan of the board.  Simultaneous triggers go on the chain in turn
order, each controller ordering their own (383.3.d, Radiance patch notes); in the opening of a
combat the attacker's go first and the defender's last (466.2.d.1).
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Final, Sequence, TYPE_CHECKING

from . import activation, chain, layers, movement, payment, targeting, verbs
from ..script.cards import Ability
from .effects import RELATIONS, EffectContext, Table
from .state import NOWHERE, ChainItem, Decision, Origin, PendingTrigger, is_battlefield
from .vocabulary import ModeTargets

if TYPE_CHECKING:
    from .game import Game


PLAYER_EVENTS: Final = ("conquer", "hold", "win_combat")  # a player's event; "I ...": a unit of theirs there


def dispatch(g: "Game", event: dict[str, Any]) -> None:
    s = g.state
    etype = event["t"]
    if g.index.listeners.get(etype):
        for (oid, index) in g.index.listening(g, etype, event.get("obj", NOWHERE)):
            obj = s.objs[oid]
            ability = g.defs[obj.code].abilities[index]
            if ability.body.get("effect_text"):
                _effect_text_trigger(g, oid, index, ability, event)
                continue
            controller = _controller(obj.controller, ability, event)
            if _matches(g, oid, controller, ability, event):
                _queue(g, PendingTrigger(oid, index, controller, event), ability)
                for _ in range(_extra_triggers(g, controller, ability, oid, event) + layers.text_copies(g, oid)):
                    _queue(g, PendingTrigger(oid, index, controller, event), ability)
    if g.index.grant_sources:
        _dispatch_static_grants(g, event)
    if etype in PLAYER_EVENTS:
        _dispatch_aliases(g, event)
    if not s.lasting:
        return
    for lasting in g.active_lasting():
        if lasting.kind == "trigger" and lasting.body["when"]["event"] == etype:
            ability = g.lasting_ability(lasting)
            # a created trigger's 'self' is the object it affects ("kill it the next time it takes
            # damage", 720.2 delayed triggers): match the event's object among those it affects
            holder = lasting.source
            seen = event
            if lasting.affects is not None and ability.body["when"].get("subject") == "self":
                if etype in PLAYER_EVENTS:
                    # "this turn, that unit has 'When I conquer ...'": the affected unit is the conqueror's
                    # there; the trigger's event names it (event_subject)
                    found = [o for o in lasting.affects if o in s.objs
                             and _matches(g, o, lasting.controller, ability, event)]
                    if not found:
                        continue
                    holder, seen = found[0], {**event, "obj": found[0]}
                else:
                    holder = event.get("obj", NOWHERE)
                    if holder not in lasting.affects:
                        continue
            if _matches(g, holder, lasting.controller, ability, seen):
                if lasting.affects is not None:
                    # the objects it affects, for the reference 'affected' ("when they hold, return it")
                    seen = {**seen, "affected": list(lasting.affects)}
                _queue(g, PendingTrigger(lasting.source, 0, lasting.controller, seen, lasting=lasting.id), ability)
                g.spend_use(lasting)
        elif lasting.kind == "grant" and lasting.affects:
            for ability in g.keyword_abilities(lasting.body["keyword"], lasting.body.get("value")):
                if ability.kind != "triggered" or ability.event != etype:
                    continue
                for oid in lasting.affects:
                    granted = s.objs.get(oid)
                    if granted is None or granted.zone != "board":
                        continue
                    if _one_instance_queued(g, oid, ability, event):
                        continue
                    if _matches(g, oid, granted.controller, ability, event):
                        _queue(g, PendingTrigger(oid, ability.index, granted.controller, event, lasting=lasting.id), ability)


def lasting_listens(g: "Game", etype: str) -> bool:
    """Whether a lasting effect could trigger on an event of this type (dispatch's last part)."""
    return etype in lasting_events(g)


def lasting_events(g: "Game") -> frozenset[str]:
    """The event types a lasting effect could trigger on: those a created trigger listens to, and
    those a granted keyword's triggered ability listens to.  Most lasting effects change Might or
    keywords and listen to nothing.  Found once while the lasting effects are unchanged
    (``Game.lasting_only_memo``: ``lasting_events``), so ``Game.emit`` asks with one set lookup."""
    memo = g.lasting_only_memo()
    found: frozenset[str] | None = memo.get("lasting_events")
    if found is None:
        found = memo["lasting_events"] = _lasting_events(g)
    return found


def _lasting_events(g: "Game") -> frozenset[str]:
    found: set[str] = set()
    for lasting in g.state.lasting:
        if lasting.kind == "trigger":
            found.add(lasting.body["when"]["event"])
        elif lasting.kind == "grant" and lasting.affects:
            for ability in g.keyword_abilities(lasting.body["keyword"], lasting.body.get("value")):
                if ability.kind == "triggered" and ability.event is not None:
                    found.add(ability.event)
    return frozenset(found)




def _effect_text_trigger(g: "Game", eq: int, index: int, ability: Ability, event: dict[str, Any]) -> None:
    unit = g.state.objs[eq].attached_to
    if unit == NOWHERE:
        return
    controller = g.state.objs[unit].controller
    if _matches(g, unit, controller, ability, event, text_of=eq):
        _queue(g, PendingTrigger(unit, index, controller, event, lasting=Origin("effect_text", source=eq).code), ability)


def _dispatch_aliases(g: "Game", event: dict[str, Any]) -> None:
    """A unit whose event_alias hook pairs two events ("my hold effects are also conquer effects, and
    vice versa") also triggers its abilities - its own and its attached cards' effect text - that
    listen to the other event of the pair, as if that had happened."""
    s = g.state
    etype = event["t"]
    loc = event.get("loc")
    if not isinstance(loc, int):
        return
    here = g.bf_at(loc).here if is_battlefield(loc) else s.players[loc].base
    if not any(g.defs[s.objs[o].code].facts.declares_alias for o in here):
        return  # nothing there can carry the hook (its text or its attachments')
    for unit in g.units_at(loc):
        if s.objs[unit].controller != event.get("player"):
            continue
        for value in layers.hook_values(g, unit, "event_alias"):
            pair = str(value).split()
            if etype not in pair:
                continue
            for other in pair:
                seen = {**event, "t": other}
                for (oid, index) in sorted(g.index.listeners.get(other, ())) if other != etype else ():
                    obj = s.objs[oid]
                    ability = g.defs[obj.code].abilities[index]
                    if ability.body.get("effect_text"):
                        if obj.attached_to == unit:
                            _effect_text_trigger(g, oid, index, ability, seen)
                    elif oid == unit and _matches(g, oid, obj.controller, ability, seen):
                        _queue(g, PendingTrigger(oid, index, obj.controller, seen), ability)


# A trigger of a keyword granted by a static ability is remembered by its grant: the source, the
# static ability and the modifier, packed into the (otherwise positive) lasting field.
def granted_trigger_mods(g: "Game", ability: Ability) -> list[tuple[int, str, Any]]:
    """(modifier index, keyword, value) of a static ability's keyword grants that have triggers."""
    out: list[tuple[int, str, Any]] = []
    for i, mod in enumerate(ability.body.get("modifiers", [])):
        if mod.get("type") == "keyword" and (ability.body.get("affects", "self") != "self"
                                              or ability.body.get("effect_text")):
            name = str(mod["keyword"]).lower().replace("-", "_")
            if any(a.kind == "triggered" for a in g.keyword_abilities(name, mod.get("value"))):
                out.append((i, name, mod.get("value")))
    return out


def granted_keyword(g: "Game", origin: Origin) -> tuple[str, Any]:
    """The keyword (and its value) a static grants, for a trigger whose origin is that grant."""
    mod = g.ability_of(origin.source, origin.static).body["modifiers"][origin.modifier]
    return str(mod["keyword"]).lower().replace("-", "_"), mod.get("value")


def _dispatch_static_grants(g: "Game", event: dict[str, Any]) -> None:
    """817, 808: a keyword granted by a static ability triggers like a printed one, each instance
    separately (Gemcraft Seer: "Other friendly units have [Vision]")."""
    s = g.state
    etype = event["t"]
    for (src, index) in sorted(g.index.grant_sources):
        static = g.ability_of(src, index)
        source = s.objs[src]
        sctx = EffectContext(g, source.controller, src)
        if "condition" in static.body and not sctx.check(static.body["condition"]):
            continue
        # 435.1.e: an attached card's effect text gives its keywords to the unit it is attached to
        host = source.attached_to if static.body.get("effect_text") else NOWHERE
        for mod_index, name, value in granted_trigger_mods(g, static):
            for ability in g.keyword_abilities(name, value):
                if ability.kind != "triggered" or ability.event != etype:
                    continue
                if ability.body["when"].get("subject") == "self" and etype in PLAYER_EVENTS:
                    # "When I conquer / hold": the units of the event's player there (a granted Hunt)
                    candidates = [u for u in g.units_at(event["loc"]) if s.objs[u].controller == event.get("player")] \
                        if "loc" in event else []
                elif ability.body["when"].get("subject") == "self":
                    candidates = [event["obj"]] if event.get("obj", NOWHERE) in s.objs else []
                else:
                    candidates = list(g.board_objects())
                for oid in candidates:
                    obj = s.objs[oid]
                    # the static's selection decides: it covers its own source unless it says 'other'
                    if obj.zone != "board" or not (
                            oid == host if static.body.get("effect_text")
                            else sctx.selector_matches(static.body["affects"], oid)):
                        continue
                    if "while" in static.body and not sctx.check(static.body["while"], subject=oid):
                        continue
                    if static.body["modifiers"][mod_index].get("if_absent") and \
                            any(k == name for k, _ in g.card(oid).keywords):
                        continue
                    if _one_instance_queued(g, oid, ability, event):
                        continue
                    if _matches(g, oid, obj.controller, ability, event):
                        code = Origin("static_grant", source=src, static=index, modifier=mod_index).code
                        _queue(g, PendingTrigger(oid, ability.index, obj.controller, event, lasting=code), ability)


def _controller(owner: int, ability: Ability, event: dict[str, Any]) -> int:
    """Who controls a trigger: its object's controller, or with ``controlled_by: event_player`` the
    player who caused the event ("When a player plays a spell, they may ..." on a battlefield)."""
    if ability.body["when"].get("controlled_by") == "event_player" and isinstance(event.get("player"), int) \
            and event["player"] >= 0:
        return int(event["player"])
    return owner


def _extra_triggers(g: "Game", controller: int, ability: Ability, oid: int = NOWHERE,
                    event: dict[str, Any] | None = None) -> int:
    """A keyword's triggers doubled by a static (Karthus, Eternal, for [Deathknell]): one more trigger
    of that keyword's ability per such static ability its controller has on the board.  With
    ``event`` instead of ``keyword`` (Red Brambleback: conquer effects for this
    battlefield fire twice): one more trigger of its controller's abilities listening to that event, when the event
    happens at the modifier's source's location."""
    mods = layers.static_modifiers(g, "extra_trigger")
    if not mods:
        return 0
    extra = 0
    for mod, src in mods:
        if g.obj(src).controller != controller:
            continue
        if "keyword" in mod:
            extra += str(mod["keyword"]).lower().replace("-", "_") == ability.keyword
        elif event is not None and mod.get("event") == event["t"] and event.get("player") == controller \
                and (not mod.get("here") or event.get("loc", NOWHERE) == _here(g, src)):
            extra += 1
    return extra


def _one_instance_queued(g: "Game", oid: int, ability: Ability, event: dict[str, Any]) -> bool:
    """816: a keyword whose instances don't add up ('max' stacking: Temporary) triggers once
    however many instances the object has; a granted instance adds no second trigger."""
    kw = g.catalog.keywords.get(ability.keyword or "")
    if kw is None or kw.stacking != "max":
        return False
    for t in g.state.pending_triggers:
        if t.obj == oid and t.event is event and g.trigger_ability(t.obj, t.ability, t.lasting, t.event).keyword == ability.keyword:
            return True
    return False


def _queue(g: "Game", trigger: PendingTrigger, ability: Ability) -> None:
    if 0 <= trigger.controller and g.state.players[trigger.controller].conceded:
        return  # a player who left the game controls nothing more (concession.concede: their battlefield)
    if ability.keyword and trigger.obj in g.state.objs and g.state.objs[trigger.obj].zone == "board":
        if ability.keyword in (str(v).lower() for v in layers.hook_values(g, trigger.obj, "keyword_doesnt_trigger")):
            return  # [Temporary] triggers at its battlefield switched off (LeBlanc)
    if ability.body["when"].get("one_or_more") and any(
            t.obj == trigger.obj and t.ability == trigger.ability and t.lasting == trigger.lasting
            and t.event.get("t") == trigger.event.get("t") for t in g.state.pending_triggers):
        return  # 383: "when ... one or more ..." - one trigger for the events of one action
    g.state.pending_triggers.append(trigger)
    if ability.body.get("once_per_turn") or ability.body["when"].get("first_this_turn"):
        g.remember("fired", trigger.controller, trigger.obj, code=str(ability.index))


def _fired_this_turn(g: "Game", oid: int, index: int) -> bool:
    return any(h.kind == "fired" and h.obj == oid and h.code == str(index) for h in g.state.history)


WhenFn = Callable[["Game", int, int, Ability, dict[str, Any], Any], bool]
WHEN: Final[Table[WhenFn]] = Table("trigger filter", ("effect#/$defs/trigger/properties",),
                            "when a triggered ability triggers (`when:`)")


@WHEN.register("event", "from_zone")
def _w_indexed(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    """Read where abilities are indexed: the event type dispatches (``Game.index.listeners``, core/engine/trigger_index.py), and
    ``from_zone`` is the zone an object listens from (``Game._index``)."""
    return True


@WHEN.register("subject")
def _w_subject(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    s = g.state
    ev_obj = event.get("obj", NOWHERE)
    if want == "self":
        if event["t"] in PLAYER_EVENTS:
            obj = s.objs[oid]
            return obj.zone == "board" and obj.loc == event.get("loc") and obj.controller == event.get("player")
        return bool(ev_obj == oid)
    if want == "host":
        return bool(ev_obj != NOWHERE and ev_obj == s.objs[oid].attached_to)
    if want == "any":
        return True
    if ev_obj == NOWHERE or ev_obj not in s.objs:
        return False
    return EffectContext(g, controller, oid, event=event).matches(ev_obj, want)  # filters may name the event's player


@WHEN.register("what")
def _w_what(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    ev_obj = event.get("obj", NOWHERE)
    if ev_obj == NOWHERE or ev_obj not in g.state.objs:
        return False
    if want == "card" and g.state.objs[ev_obj].token:
        return False  # 185: tokens are not cards ("When you play a card" doesn't see a token played)
    return EffectContext(g, controller, oid).is_kind(ev_obj, want)


@WHEN.register("player")
def _w_player(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    # who did it: "you", "an opponent" (491.8.c: not a teammate); a created trigger's chosen player, by index
    if "player" not in event:
        return True
    if isinstance(want, int):
        return bool(event["player"] == want)
    return RELATIONS[want](g, controller, event["player"], event)


@WHEN.register("phase")
def _w_phase(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    return bool(event.get("phase") == want)


@WHEN.register("whose_turn")
def _w_whose_turn(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    # 491.8.c: a teammate's turn isn't yours (control and turns aren't shared in 2v2)
    return RELATIONS[want](g, controller, g.state.turn_player, event)


@WHEN.register("here")
def _w_here(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    if not want:
        return True
    here = _here(g, oid)
    where = event.get("loc", event.get("to", NOWHERE))
    if where == NOWHERE and event.get("obj", NOWHERE) != NOWHERE:
        # an event about an object that left the board (returned to a hand): where it last was
        left = [h.number for h in g.state.history if h.kind == "left_from" and h.obj == event["obj"]]
        where = left[-1] if left else NOWHERE
    return here != NOWHERE and where == here


@WHEN.register("from_here")
def _w_from_here(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    return not want or event.get("from") == _here(g, oid)


@WHEN.register("from_battlefield")
def _w_from_battlefield(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any],
                        want: Any) -> bool:
    """A move that started at a battlefield ("When I move from a battlefield")."""
    return not want or is_battlefield(int(event.get("from", NOWHERE)))


@WHEN.register("from_uncontrolled")
def _w_from_uncontrolled(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any],
                         want: Any) -> bool:
    """A conquer of a battlefield nobody controlled before ("a battlefield that was uncontrolled")."""
    return not want or any(h.kind == "took_uncontrolled" and h.player == event.get("player") and h.obj == event.get("bf")
                           for h in g.state.history)


@WHEN.register("to_battlefield")
def _w_to_battlefield(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any],
                      want: Any) -> bool:
    return not want or is_battlefield(int(event.get("to", NOWHERE)))


@WHEN.register("by")
def _w_by(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    ev_by = event.get("by", "")
    if want == "spell_or_ability":
        return ev_by in ("spell", "ability")
    return bool(ev_by == want)


@WHEN.register("from_hidden")
def _w_from_hidden(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    return not want or bool(event.get("from_hidden"))


@WHEN.register("nth_this_turn")
def _w_nth(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    nth = event.get("nth")
    if nth is None:
        # events without a count (draw): this one and the turn's history of that kind by its player
        # ("when you draw your second card each turn"); the history is written after the event
        nth = 1 + sum(1 for h in g.state.history if h.kind == event["t"] and h.player == event.get("player"))
    return bool(nth == want)


@WHEN.register("first_this_turn")
def _w_first_this_turn(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any],
                       want: Any) -> bool:
    return not want or not _fired_this_turn(g, oid, ability.index)  # _queue remembers the firing


@WHEN.register("one_or_more")
def _w_one_or_more(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    """Read by ``_queue``: the events of one action trigger it once (383)."""
    return True


@WHEN.register("first_turn")
def _w_first_turn(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    return not want or g.state.players[controller].turns_taken == 1


@WHEN.register("min_cost")
def _w_min_cost(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    """A card played, or an ability activated, with an Energy cost of at least ``want``: a play event
    carries the card's cost; an activation's is read from the ability (``activated_energy``)."""
    if event["t"] == "activate":
        return activated_energy(g, event) >= int(want)
    return int(event.get("cost", 0)) >= int(want)


def activated_energy(g: "Game", event: dict[str, Any]) -> int:
    """The Energy cost an ``activate`` event's ability states, worked out for the targets chosen when it
    depends on them ("costs {1} less for each ...").  Read here, while the trigger is checked as the
    event happens, rather than carried by the event, so the events (and every log hash) stay as they are."""
    oid = event["obj"]
    if oid not in g.state.objs:
        return 0
    abilities = activation.activated_abilities(g, oid)
    index = int(event["ability"])
    if not 0 <= index < len(abilities):
        return 0
    return activation.stated_energy(g, event["player"], oid, abilities[index], event.get("targets") or [])


@WHEN.register("min_spent")
def _w_min_spent(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    """A card played with that much energy or more spent on it ("if you spent {4} or more"): the
    energy its player paid, as ``chain`` remembers it (``spent_energy``) when the cost is paid."""
    spent = [h.number for h in g.state.history if h.kind == "spent_energy" and h.obj == event.get("obj", NOWHERE)]
    return bool(spent) and int(spent[-1]) >= int(want)


@WHEN.register("controlled_by")
def _w_controlled_by(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any],
                     want: Any) -> bool:
    """Read by ``dispatch``: the trigger is controlled by the event's player."""
    return isinstance(event.get("player"), int) and event["player"] >= 0


@WHEN.register("at_least")
def _w_at_least(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    """might_reaches: the number the unit's Might reached ("when my Might becomes 10 or more")."""
    return bool(event.get("at_least") == int(want))


@WHEN.register("by_chooser")
def _w_by_chooser(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    """The spell or ability doing it chose the object (the events a replacement of stun, return to hand or
    Might loss sees carry it; core/engine/replacement reads it there)."""
    return bool(event.get("chosen")) == bool(want)


@WHEN.register("mover")
def _w_mover(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    """Who moved the unit ("When you move an enemy unit"): the player whose action or ability moved
    it, as ``movement.move_units`` remembers it (``moved_by``)."""
    movers = [h.player for h in g.state.history if h.kind == "moved_by" and h.obj == event.get("obj", NOWHERE)]
    return bool(movers) and RELATIONS[want](g, controller, movers[-1], event)


@WHEN.register("alone")
def _w_alone(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any], want: Any) -> bool:
    ev_obj = event.get("obj", NOWHERE)
    if not want or ev_obj not in g.state.objs:
        return True
    role = "attacking_alone" if event["t"] == "attack" else "defending_alone"
    return EffectContext(g, controller, oid).state_of(ev_obj, role)


_WHEN = WHEN.entries


def _matches(g: "Game", oid: int, controller: int, ability: Ability, event: dict[str, Any],
             text_of: int | None = None) -> bool:
    """Whether the event fires the ability of ``oid``: its ``when``, once-per-turn, ``condition``
    and ``if``.  ``text_of`` is the attached card whose effect text it is (an Equipment's), which
    "this card" and ``attached_this_turn`` name, as they do when the ability resolves."""
    when: dict[str, Any] = ability.body["when"]  # typed: compiled, the dict's own iteration
    for key, want in when.items():
        # its event type is read where abilities are indexed (``_w_indexed``): no call for it
        if key != "event" and not _WHEN[key](g, oid, controller, ability, event, want):
            return False
    if "subject" not in when and "what" not in when and event["t"] in ("attack", "defend") \
            and event.get("obj", NOWHERE) != NOWHERE:
        # "When you attack/defend (here)" is the player's event, once per combat (Patch Notes,
        # Oct 2025), not one more trigger for each unit that gains the designation
        return False
    if ability.body.get("once_per_turn") and _fired_this_turn(g, oid, ability.index):
        return False
    body = ability.body
    if "condition" not in body and "if" not in body:
        return True  # most triggers: no context to make
    ctx = EffectContext(g, controller, oid, event=event)
    if text_of is not None:
        ctx.text_of = text_of
    if "condition" in body and not ctx.check(body["condition"]):
        return False
    if "if" in body and not ctx.check(body["if"]):
        return False
    return True


def _here(g: "Game", oid: int) -> int:
    obj = g.state.objs[oid]
    if obj.zone in ("board", "bfcard"):
        return obj.loc
    return NOWHERE


def put_on_chain(g: "Game") -> None:
    """Put the next pending trigger on the chain, asking for order and targets when needed."""
    s = g.state
    pending = s.pending_triggers
    sd = s.showdown
    if sd is not None and sd.combat and sd.initial:
        order = [sd.attacker, sd.defender] + [p for p in g.in_turn_order() if p not in (sd.attacker, sd.defender)]
    else:
        order = g.in_turn_order()
    player = next((p for p in order if any(t.controller == p for t in pending)), pending[0].controller)
    group = [t for t in pending if t.controller == player]
    if len(group) > 1 and not all(t.ordered for t in group):
        distinct = {(t.obj, t.ability, t.lasting) for t in group}
        if len(distinct) == 1 or len(group) > 5:
            for t in group:
                t.ordered = True
        else:
            # orders that differ only by swapping instances of one ability of one object (which the
            # line above already treats as interchangeable) are one order, offered once
            keys = [(t.obj, t.ability, t.lasting) for t in group]
            seen: set[tuple[Any, ...]] = set()
            perms = []
            for perm in itertools.permutations(range(len(group))):
                shape = tuple(keys[i] for i in perm)
                if shape not in seen:
                    seen.add(shape)
                    perms.append(perm)
            s.decision = Decision("order", player, "order your triggered abilities (first goes on the chain first)",
                                  options=[{"label": " then ".join(_label(g, group[i]) for i in perm),
                                            "value": list(perm)} for perm in perms])
            return
    trigger = group[0]
    ability = g.trigger_ability(trigger.obj, trigger.ability, trigger.lasting, trigger.event)
    slots = targeting.ability_targets(ability)
    # engine notes, playing a card, step 2: a "Choose one —" trigger's mode is chosen now, with its targets
    modes = targeting.trigger_modes(ability)
    targets: list[list[int]] = []
    if slots or modes is not None:
        if trigger.targets is None:
            if modes is None:
                combos = targeting.target_options(g, trigger.controller, trigger.obj, slots, event=trigger.event)
            else:  # only the chosen modes' targets; a mode whose targets can't be chosen is not offered (355.4)
                combos = targeting.moded_target_options(g, trigger.controller, trigger.obj, slots, modes,
                                                        event=trigger.event)
            if layers.hook_in_play(g, "targeting_tax"):  # else no choice adds Deflect's tax
                combos = [c for c in combos if _deflect_plan(g, trigger.controller, c, trigger.obj) is not False]
            if not combos:
                pending.remove(trigger)
                g.emit("trigger_skipped", obj=trigger.obj, reason="no legal targets")
                return
            if len(combos) > 1:
                s.decision = Decision("targets", trigger.controller, _targets_prompt(g, trigger, modes),
                                      options=[_targets_option(g, c, modes, slots) for c in combos])
                return
            trigger.targets = list(combos[0])
            if modes is not None:
                trigger.mode = _mode_of(combos[0])
        targets = trigger.targets
        plan = _deflect_plan(g, trigger.controller, targets, trigger.obj)
        if plan:
            payment.pay(g, trigger.controller, plan)  # 809: choosing an opponent's Deflect unit costs power
    pending.remove(trigger)
    mode = trigger.mode or []
    item = ChainItem(id=g.tick(), kind="trigger", controller=trigger.controller, obj=trigger.obj,
                     ability=trigger.ability, targets=targets, event=trigger.event, lasting=trigger.lasting,
                     mode=list(mode))
    if targets:
        targeting.note_chosen(g, trigger.controller, slots, targets, "ability", trigger.obj)  # 383: it chooses as it goes on
    for index in mode:
        g.remember("mode", trigger.controller, trigger.obj, code=str(index))  # "one that hasn't been chosen this turn"
    s.chain.append(item)
    if s.step == "expiration":
        s.expiration_chain_used = True  # 317.2.f: the expiration step repeats
    event: dict[str, Any] = {"n": 0, "t": "trigger", "player": trigger.controller, "obj": trigger.obj,
                             "ability": trigger.ability, "item": item.id, "targets": targets,
                             "code": s.objs[trigger.obj].code}
    if mode:
        event["mode"] = list(mode)
    g.emit_event(event)
    s.priority = trigger.controller
    s.passes = 0
    s.needs_cleanup = True


def _deflect_plan(g: "Game", player: int, targets: list[list[int]], source: int) -> Any:
    """809: the Deflect tax for these targets - None if there is none, False if it can't be paid."""
    tax = payment.deflect_tax(g, player, targets, source)
    if not tax:
        return None
    plan = payment.plan_payment(g, player, payment.Cost(0, tax))
    return plan if plan is not None else False


def _label(g: "Game", trigger: PendingTrigger) -> str:
    return f"{g.name(trigger.obj)} ({trigger.event['t']})"


def _targets_prompt(g: "Game", trigger: PendingTrigger, modes: targeting.Modes | None) -> str:
    if modes is None:
        return f"choose targets for {_label(g, trigger)}"
    return f"choose the mode{' and targets' if any(modes.slots) else ''} for {_label(g, trigger)}"


def _targets_option(g: "Game", combo: list[list[int]], modes: targeting.Modes | None,
                    slots: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A ``targets`` decision's option: the targets (``value``) and, for a "Choose one —" trigger, the
    modes they go with (``mode``, the options' indexes, as play and activate actions name them)."""
    if modes is None:
        return {"label": _targets_label(g, combo, slots), "value": combo}
    mode = _mode_of(combo)
    chosen = [(sel, slot) for sel, slot in zip(slots, combo) if slot]  # the slots of the options not chosen are empty
    label = ", ".join(modes.label(i) for i in mode) + (
        f": {_targets_label(g, [slot for _, slot in chosen], [sel for sel, _ in chosen])}" if chosen else "")
    return {"label": label, "value": list(combo), "mode": mode}


def _mode_of(combo: list[list[int]]) -> list[int]:
    """The modes a listed choice of targets goes with (``targeting.moded_target_options``)."""
    return list(combo.mode) if isinstance(combo, ModeTargets) else []


def _targets_label(g: "Game", combo: list[list[int]], slots: Sequence[dict[str, Any]]) -> str:
    """The targets in words: a slot may hold objects, locations (a move's destination) or players."""
    kinds = [sel.get("what") for sel in slots] + [None] * (len(combo) - len(slots))
    return "; ".join(", ".join(_target_words(g, kind, o) for o in slot) or "none" for kind, slot in zip(kinds, combo))


def _target_words(g: "Game", kind: Any, value: int) -> str:
    if kind == "location":
        return targeting.describe_loc(g, value)
    if kind == "player":
        return g.state.players[value].name if 0 <= value < len(g.state.players) else f"player {value}"
    return f"{g.name(value)} #{value}" if value in g.state.objs else str(value)
