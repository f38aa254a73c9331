"""What Vendetta adds to the script language in Python (entry point group ``riftscript.effects``).

**Empowered** is a status of a unit, gear or legend, like Buffed or Stunned: it ends when the object
leaves the board.  ``{type: empower, target: SELECTOR}`` gives it (nothing happens to an object that is
already Empowered, unless a ``empower_limit`` hook of its own says it can be Empowered more times, as
Kayle can), ``{type: disempower, target: SELECTOR}`` takes it away.  It is kept as a permanent grant of
the ``Empowered`` keyword: an object that leaves the board and comes back is a new object with a later
timestamp than the grant, so the old grant no longer counts.  Conditions and
filters read it through the words this module adds: the state ``empowered`` (``{type: is, subject:
self, state: empowered}``), the filter key ``empowered: true|false``, the amount ``{type:
times_empowered, of: SELECTOR}``, and the trigger events ``empowered`` ("when I become Empowered",
"when you empower something") and ``disempowered``.

``{type: burn, amount: N, player: P}`` puts the top N cards of P's main deck into their trash, one at a
time, burning out first when the deck is empty (engine notes: burn out replaces taking more cards than
the deck holds); the cards burned are ``them``.  Predict is the language's own ``predict``.
"""
from __future__ import annotations

from typing import Any

from riftscript.core.engine import verbs, layers
from riftscript.core import EffectType, LanguageWord, hookimpl
from riftscript.core.engine.state import Lasting, is_battlefield

Node = dict[str, Any]
PLUGIN = "vendetta-effects"
KEYWORD = "empowered"
ACTIVE = ("board", "legend")


def _grants(g: Any, oid: int) -> list[Lasting]:
    """The Empowered grants of this object that still hold: made since it last entered the board (the
    clock gives both their timestamps)."""
    obj = g.state.objs[oid]
    return [lasting for lasting in g.state.lasting
            if lasting.kind == "grant" and lasting.body.get("keyword") == KEYWORD and lasting.affects
            and oid in lasting.affects and lasting.timestamp >= obj.timestamp]


def times_empowered(ctx: Any, oid: int) -> int:
    """How many times the object is Empowered now: on the board or as a legend, or, for a "when I die
    while Empowered" trigger, as it was when it died."""
    obj = ctx.g.state.objs.get(oid)
    if obj is None:
        return 0
    dying = ctx.event is not None and ctx.event.get("t") == "die" and ctx.event.get("obj") == oid
    if obj.zone not in ACTIVE and not dying:
        return 0
    return len(_grants(ctx.g, oid))


def _limit(g: Any, oid: int) -> int:
    """How many times the object can be Empowered (once, unless its own text says more)."""
    return max([1] + [int(v) for v in layers.hook_values(g, oid, "empower_limit")])


def empower(ctx: Any, node: Node) -> None:
    g = ctx.g
    done: list[int] = []
    for oid in ctx.resolve(node["target"], "empower"):
        obj = g.state.objs[oid]
        if obj.zone not in ACTIVE or g.card(oid).type not in ("unit", "gear", "legend"):
            continue
        if len(_grants(g, oid)) >= _limit(g, oid):
            continue  # "it becomes Empowered if it isn't already"
        g.state.lasting.append(Lasting(
            id=g.tick(), kind="grant", source=ctx.source, source_code=g.obj(ctx.source).code,
            controller=ctx.controller, body={"keyword": KEYWORD, "value": None},
            duration="permanent", affects=[oid], timestamp=g.state.clock))
        done.append(oid)
        g.emit("empowered", obj=oid, player=ctx.you, source=ctx.source, code=obj.code)
        g.state.needs_cleanup = True
    ctx.bindings["it"] = done
    ctx.last["succeed"] = bool(done)


def disempower(ctx: Any, node: Node) -> None:
    g = ctx.g
    done: list[int] = []
    for oid in ctx.resolve(node["target"], "disempower"):
        held = _grants(g, oid)
        stale = [lasting for lasting in g.state.lasting if lasting.kind == "grant" and lasting.affects
                 and oid in lasting.affects and lasting.body.get("keyword") == KEYWORD]
        if not stale:
            continue
        g.state.lasting = [lasting for lasting in g.state.lasting if lasting not in stale]
        if held and g.state.objs[oid].zone in ACTIVE:
            done.append(oid)
            g.emit("disempowered", obj=oid, player=ctx.you, source=ctx.source, code=g.obj(oid).code)
        else:
            g.touch()
        g.state.needs_cleanup = True
    ctx.bindings["it"] = done
    ctx.last["succeed"] = bool(done)


def burn(ctx: Any, node: Node) -> None:
    g = ctx.g
    chosen = ctx.bindings.get("chosen") if node.get("player") == "chosen" else None
    player = chosen[0] if chosen else ctx.player(node.get("player"))  # "choose a player. They burn 1"
    deck = g.state.players[player].main_deck
    burned: list[int] = []
    for _ in range(max(0, ctx.amount(node["amount"]))):
        while not deck and g.state.winners is None and g.opponents(player):
            verbs.burn_out(g, player)
        if g.state.winners is not None or not deck:
            break
        oid = deck[0]
        g.place(oid, "trash")
        burned.append(oid)
        g.emit("burn", player=player, obj=oid, code=g.obj(oid).code)
    ctx.bindings["it"] = list(burned)
    ctx.bindings["them"] = list(burned)


TARGET = {"properties": {"target": {"$ref": "#/$defs/selector"}}, "required": ["target"]}


@hookimpl
def riftscript_effect_types() -> list[EffectType]:
    return [
        EffectType("empower", empower, TARGET, emits=("empowered",), plugin=PLUGIN, text="empower {target}"),
        EffectType("disempower", disempower, TARGET, emits=("disempowered",), plugin=PLUGIN,
                   text="disempower {target}"),
        EffectType("burn", burn, {"properties": {"amount": {"$ref": "#/$defs/amount"},
                                                "player": {"enum": ["you", "opponent", "chosen", "event_player",
                                                                    "its_controller"]}},
                                 "required": ["amount"]},
                   emits=("burn", "burn_out"), decides=True, plugin=PLUGIN, text="[Burn {amount}]"),
        EffectType("name_card", name_card, {"properties": {"what": {"enum": ["spell", "unit", "gear", "card"]}}},
                   decides=True, plugin=PLUGIN, text="name a {what}"),
        EffectType("give_control", give_control, TARGET, emits=("control",), plugin=PLUGIN,
                   text="they gain control of {target}"),
        EffectType("base_might_becomes", base_might_becomes,
                   {"properties": {"target": {"$ref": "#/$defs/selector"}, "amount": {"$ref": "#/$defs/amount"},
                                   "duration": {"$ref": "#/$defs/duration"}}, "required": ["target", "amount"]},
                   emits=("lasting",), may_kill=True, plugin=PLUGIN,
                   text="{target_poss} base Might becomes {amount}{duration}"),
        EffectType("each_combatant", each_combatant, {"properties": {"effect": {"$ref": "#/$defs/effect"}},
                                                     "required": ["effect"]},
                   plugin=PLUGIN, text="the attacker and the defender each {effect}"),
    ]


def _state(ctx: Any, oid: int, obj: Any) -> bool:
    return times_empowered(ctx, oid) > 0


def _fully(ctx: Any, oid: int, obj: Any) -> bool:
    """Empowered as many times as it can be: once, or its ``empower_limit`` (Kayle); the Empower keyword's
    ability is usable only while this is false."""
    return times_empowered(ctx, oid) >= _limit(ctx.g, oid)


def _filter(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    return (times_empowered(ctx, oid) > 0) == bool(want)


def _times(ctx: Any, node: Node, subject: int | None) -> int:
    found = [subject] if node.get("of") == "event_subject" and subject is not None else ctx.resolve(node["of"])
    return times_empowered(ctx, found[0]) if found else 0


def _fought(ctx: Any, oid: int, obj: Any) -> bool:
    """It attacked or defended in the combat that ended last ("when a combat that I was in ends")."""
    fought: set[int] | None = None
    for event in reversed(ctx.g.log):
        if event["t"] == "combat_end" and fought is None:
            fought = set()
        elif fought is not None and event["t"] in ("attack", "defend") and "obj" in event:
            fought.add(event["obj"])
        elif fought is not None and event["t"] == "combat_start":
            break
    return fought is not None and oid in fought


def _dealt_damage_this_turn(ctx: Any, oid: int, obj: Any) -> bool:
    for event in reversed(ctx.g.log):
        if event["t"] == "turn_start":
            return False
        if event["t"] == "damaged" and event.get("obj") == oid:
            return True
    return False


def _domain(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``domain: calm``: a card of that domain ("an enemy Calm unit")."""
    return str(want) in card.domains


def _activations_this_turn(ctx: Any, node: Node, subject: int | None) -> int:
    """``{type: activations_this_turn, player: RELATION, where: FILTER}``: how many activated abilities players of
    that relation to you (default friendly) played this turn on objects that meet the filter (Piltovan Forge:
    a discount for the first such ability of each turn)."""
    count = 0
    for event in reversed(ctx.g.log):
        if event["t"] == "turn_start":
            break
        if event["t"] == "activate" and ctx.relation(node.get("player", "friendly"), event.get("player", -1)) \
                and event.get("obj") in ctx.g.state.objs and ctx.matches(event["obj"], node.get("where")):
            count += 1
    return count


def _unit_count(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``units: N``: a battlefield with exactly N units there (Keeper of Law)."""
    g = ctx.g
    return obj.zone == "bfcard" and len(g.units_at(obj.loc)) == int(want)


def _held(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``held: true``: a battlefield you control."""
    return (obj.zone == "bfcard" and ctx.g.bf_at(obj.loc).controller == ctx.you) == bool(want)


def give_control(ctx: Any, node: Node) -> None:
    """``{type: give_control, target: SELECTOR}``: the player chosen earlier in this resolution (else
    you) gains control of the target (Glowstone: "choose a player. They gain control of this")."""
    chosen = ctx.bindings.get("chosen") or [ctx.you]
    targets = [oid for oid in ctx.resolve(node["target"], "give control of") if ctx.g.obj(oid).zone == "board"]
    for oid in targets:
        if ctx.g.obj(oid).controller != chosen[0]:
            verbs.take_control(ctx.g, oid, chosen[0])
    ctx.bindings["it"] = targets


def _in_showdown(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``in_showdown: true``: at the battlefield of the showdown or combat going on."""
    sd = ctx.g.state.showdown
    return (sd is not None and obj.zone == "board" and obj.loc == sd.bf) == bool(want)


def each_combatant(ctx: Any, node: Node) -> None:
    """``{type: each_combatant, effect: EFFECT}``: the attacker, then the defender, of the combat this
    ability's event is about each do the effect ("the attacker and defender each add {1}")."""
    event = ctx.event or {}
    saved = ctx.you
    for player in (event.get("attacker", -1), event.get("defender", -1)):
        if 0 <= player < len(ctx.g.state.players):
            ctx.you = player
            ctx.run(node["effect"])
    ctx.you = saved


def base_might_becomes(ctx: Any, node: Node) -> None:
    """``{type: base_might_becomes, target: SELECTOR, amount: AMOUNT, duration: D}``: the target's base Might
    is set to that number for the duration (Dragon Form), as a Might change by the difference from its printed
    Might, so every other change still applies on top of the new base."""
    targets = ctx.resolve(node["target"], "change the base Might of")
    for oid in targets:
        difference = int(ctx.amount(node["amount"])) - int(ctx.g.card(oid).might or 0)
        if difference:
            ctx.bindings["it"] = [oid]
            ctx.run({"type": "modify_might", "target": "it", "amount": abs(difference), "negative": difference < 0,
                     "duration": node.get("duration", "this_turn")})
    ctx.bindings["it"] = targets


def _in_trash(ctx: Any, oid: int, obj: Any) -> bool:
    """In its owner's trash (Flow: the Flow cost is paid for a card played from there)."""
    return bool(obj.zone == "trash")


def _in_trash_filter(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``in_trash: true``: a card in a trash (Stargazer: "spells with Flow you play from your trash")."""
    return (obj.zone == "trash") == bool(want)


def play_origin(g: Any, oid: int) -> str | None:
    """The zone this object was last played from (the ``play`` event of its play says it)."""
    for event in reversed(g.log):
        if event["t"] == "play" and event.get("obj") == oid:
            return str(event.get("from"))
    return None


def _played_from_trash(ctx: Any, oid: int, obj: Any) -> bool:
    """This spell was played from the trash (Flow: "then banish it")."""
    return play_origin(ctx.g, oid) == "trash"


def _has_units(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``has_units: you``: a battlefield where that player has units ("a battlefield where you have units")."""
    g = ctx.g

    return obj.zone == "bfcard" and any(ctx.relation(str(want), g.obj(unit).controller) for unit in g.units_at(obj.loc))


def _damage(ctx: Any, node: Node, subject: int | None) -> int:
    """``{type: damage, of: SELECTOR}``: the damage marked on it (Morgana: "damage equal to the damage
    marked on it")."""
    found = ctx.resolve(node["of"])
    return int(ctx.g.obj(found[0]).damage) if found else 0


def _moved_between(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``moved_between: true``: at a battlefield this ability's object left or reached in its latest move
    ("a unit at a battlefield I moved to or from"; read from the log, since a trigger's targets are chosen
    before it has an event to look at)."""
    event = next((e for e in reversed(ctx.g.log) if e["t"] == "move" and e.get("obj") == ctx.source), {})
    at = obj.zone == "board" and is_battlefield(obj.loc) and obj.loc in (event.get("from"), event.get("to"))
    return at == bool(want)


def _played_from_elsewhere(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``played_from_elsewhere: true``: a card played from anywhere other than its player's hand (the champion
    zone, a battlefield where it was hidden, a trash)."""
    return (play_origin(ctx.g, oid) != "hand") == bool(want)


def _fighting_domain(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``fighting_domain: fury``: in a combat with an enemy unit of that domain (Decree of Focus)."""
    g = ctx.g
    sd = g.state.showdown
    if sd is None or not sd.combat or obj.zone != "board" or obj.loc != sd.bf:
        return False
    return any(str(want) in g.card(unit).domains and g.obj(unit).controller != obj.controller
               and ctx.relation("enemy", g.obj(unit).controller) for unit in g.units_at(sd.bf))


def _chosen_by_domain(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``chosen_by_domain: fury``: chosen by an enemy spell of that domain on the chain (Decree of Focus:
    "being chosen by an enemy Fury spell")."""
    g = ctx.g
    return any(item.kind == "card" and g.card(item.obj).type == "spell" and str(want) in g.card(item.obj).domains
               and ctx.relation("enemy", item.controller) and any(oid in slot for slot in item.targets)
               for item in g.state.chain)


def name_card(ctx: Any, node: Node) -> None:
    """``{type: name_card, what: spell}``: the controller names a card of that type (any installed card's
    name); the name is remembered on the source as its ``named_card`` hook, for the filter ``name_named``."""
    g = ctx.g
    names = sorted({card.name for card in g.defs.values() if card.type == node.get("what", "spell") and not card.token})
    if not names:
        return
    name = str(ctx.ask(ctx.you, f"name a {node.get('what', 'spell')} for {g.name(ctx.source)}", [(n, n) for n in names]))
    ctx.bindings["@named_card"] = [ctx.source]
    ctx.run({"type": "create_effect", "duration": "permanent", "affects": {"named": "named_card"},
             "static": {"modifiers": [{"type": "hook", "hook": "named_card", "value": name}]}})


def _name_named(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``name_named: self``: a card with the name that object named last ("spells with that name")."""
    named = [v for src in ctx.resolve(want) for v in layers.hook_values(ctx.g, src, "named_card")[-1:]]
    return card.name in named


def _name_of(ctx: Any, oid: int, obj: Any, card: Any, want: Any) -> bool:
    """``name_of: self``: a card whose name is that object's (Shadow Assassin's trash, Spiderling's neighbours)."""
    return card.name in {ctx.g.card(src).name for src in ctx.resolve(want)}


def _turn_number(ctx: Any, node: Node, subject: int | None) -> int:
    """``{type: turn_number, player: P}``: which of that player's turns this is (their first is 1), 0 while it
    is another player's turn (Otterpus: "during their first or second turn"; Ol' Poro: "your first, second, or third
    turns"). Its English names the turn ("{whose} {nth} turn"): compared from 1 up to 3 it reads "their first or
    second turn"."""
    player = ctx.player(node.get("player", "you"))
    state = ctx.g.state
    return int(state.players[player].turns_taken) if state.turn_player == player else 0


AMOUNT = {"$ref": "#/$defs/amount"}


@hookimpl
def riftscript_language() -> list[LanguageWord]:
    return [
        LanguageWord("state", "empowered", _state, text="[Empowered]", plugin=PLUGIN),
        LanguageWord("state", "fully_empowered", _fully, text="fully [Empowered]", plugin=PLUGIN),
        LanguageWord("state", "fought_in_ended_combat", _fought, text="in that combat", plugin=PLUGIN),
        LanguageWord("state", "dealt_damage_this_turn", _dealt_damage_this_turn, text="dealt damage this turn",
                     plugin=PLUGIN),
        LanguageWord("state", "in_trash", _in_trash, text="in your trash", plugin=PLUGIN),
        LanguageWord("state", "played_from_trash", _played_from_trash, text="played from your trash", plugin=PLUGIN),
        LanguageWord("filter", "domain", _domain, {"$ref": "#/$defs/domain"}, text="{value}", plugin=PLUGIN),
        LanguageWord("filter", "units", _unit_count, {"type": "integer", "minimum": 0, "maximum": 99},
                     text="with exactly {value} units there", plugin=PLUGIN),
        LanguageWord("filter", "in_showdown", _in_showdown, {"type": "boolean"}, text="in a showdown",
                     plugin=PLUGIN),
        LanguageWord("filter", "held", _held, {"type": "boolean"}, text="you control", plugin=PLUGIN),
        LanguageWord("filter", "has_units", _has_units, {"enum": ["you", "enemy"]}, text="where {value} have units",
                     plugin=PLUGIN),
        LanguageWord("filter", "moved_between", _moved_between, {"type": "boolean"},
                     text="at a battlefield I moved to or from", plugin=PLUGIN),
        LanguageWord("filter", "played_from_elsewhere", _played_from_elsewhere, {"type": "boolean"},
                     text="from anywhere other than your hand", plugin=PLUGIN),
        LanguageWord("filter", "fighting_domain", _fighting_domain, {"$ref": "#/$defs/domain"},
                     text="in combat with an enemy {value} unit", plugin=PLUGIN),
        LanguageWord("filter", "chosen_by_domain", _chosen_by_domain, {"$ref": "#/$defs/domain"},
                     text="being chosen by an enemy {value} spell", plugin=PLUGIN),
        LanguageWord("filter", "name_of", _name_of, {"$ref": "#/$defs/selector"}, text="with my name", plugin=PLUGIN),
        LanguageWord("filter", "name_named", _name_named, {"$ref": "#/$defs/selector"}, text="with that name",
                     plugin=PLUGIN),
        LanguageWord("hook", "named_card", text="{subject} named {value}", plugin=PLUGIN),
        LanguageWord("filter", "in_trash", _in_trash_filter, {"type": "boolean"}, text="in your trash", plugin=PLUGIN),
        LanguageWord("filter", "empowered", _filter, {"type": "boolean"}, text="[Empowered]", plugin=PLUGIN),
        LanguageWord("amount", "times_empowered", _times, {"properties": {"of": {"$ref": "#/$defs/selector"}},
                                                          "required": ["of"]},
                     text="the number of times {of_is} [Empowered]", plugin=PLUGIN),
        LanguageWord("amount", "activations_this_turn", _activations_this_turn,
                     {"properties": {"player": {"enum": ["you", "friendly", "opponent", "any"]},
                                     "where": {"$ref": "#/$defs/filter"}}},
                     text="the number of such activated abilities played this turn", plugin=PLUGIN),
        LanguageWord("amount", "damage", _damage, {"properties": {"of": {"$ref": "#/$defs/selector"}},
                                                  "required": ["of"]},
                     text="the damage marked on {of}", plugin=PLUGIN),
        LanguageWord("amount", "turn_number", _turn_number,
                     {"properties": {"player": {"enum": ["you", "event_player"]}}},
                     text="{whose} {nth} turn", plugin=PLUGIN),
        LanguageWord("hook", "empower_limit", text="{subject} can be [Empowered] up to {value} times", plugin=PLUGIN),
        LanguageWord("event", "empowered", text="become [Empowered]", active="empower", plugin=PLUGIN),
        LanguageWord("event", "disempowered", text="stop being [Empowered]", active="disempower", plugin=PLUGIN),
        LanguageWord("event", "banish", text="am banished", active="banish", plugin=PLUGIN),
        LanguageWord("event", "combat_start", text="combat starts", plugin=PLUGIN),
        LanguageWord("event", "burn", text="am burned", active="burn", plugin=PLUGIN),
    ]
