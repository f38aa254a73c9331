"""Game actions: the closed set of verbs card text is built from (draw, kill, deal, move, ...).

Each action changes the state, records events, and flags a cleanup where the rules call for one
(322: after objects enter or leave the board, after any status change, after a move).  Moving
units is in ``movement`` (with the rules of where they may go), points in ``points``, and the
queries on continuous effects (``static_modifiers``, ``restrictions_on``, ``attached_to``) in
``layers``.

Mutually recursive with ``replacement`` and ``payment`` (the one import cycle of three modules, and
a genuine one): a verb asks ``replacement`` whether it is replaced ("if it would die, instead ..."),
a replacement may have a cost that ``payment`` pays, and paying uses verbs (a rune is recycled for
power, its energy added to the pool).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import effects, layers, points, replacement
from .state import BF0, NOWHERE, Lasting, is_battlefield

if TYPE_CHECKING:
    from .game import Game


def _cleanup(g: "Game") -> None:
    g.state.needs_cleanup = True


# ---------------------------------------------------------------------- cards between zones
def draw(g: "Game", player: int, count: int) -> list[int]:
    """Draw from the top of the main deck; an empty deck burns out first (432)."""
    drawn: list[int] = []
    p = g.state.players[player]
    for _ in range(count):
        # 432.2-432.3: burn out, and again while the trash gave nothing to draw, until a win
        while not p.main_deck and g.state.winners is None and g.opponents(player):
            burn_out(g, player)
        if g.state.winners is not None or not p.main_deck:
            break
        oid = p.main_deck[0]
        g.place(oid, "hand")
        drawn.append(oid)
        g.emit_event({"n": 0, "t": "draw", "player": player, "obj": oid})
        g.remember("draw", player, oid)
    return drawn


def burn_out(g: "Game", player: int) -> None:
    """432.2: shuffle the trash into the main deck and an opponent gains 1 point."""
    p = g.state.players[player]
    trash = list(p.trash)
    for oid in trash:
        g.place(oid, "main_deck")
    g.shuffle(p.main_deck)
    opponents = g.opponents(player)
    g.emit("burn_out", player=player, recycled=len(trash))
    if opponents:
        # 432.2.c: the burning player chooses an opponent to gain 1 point; teammates share their
        # points (491.8.d), so one opponent of each team is offered, the first in turn order
        offered: dict[int, int] = {}
        for other in g.in_turn_order(player):
            if other in opponents:
                offered.setdefault(g.state.players[other].team, other)
        chosen = g.ask(player, "burn out: choose an opponent to gain 1 point",
                       [(f"{g.state.players[o].name} gains 1 point", o) for o in offered.values()])
        points.gain_points(g, int(chosen), 1, "burn_out")
        # 432.3.a: a burn-out point that reaches the Victory Score with a lead wins at once
        points.check_victory(g)


def discard(g: "Game", player: int, ids: list[int]) -> None:
    for oid in ids:
        obj = g.obj(oid)
        if obj.zone != "hand":
            continue
        g.place(oid, "trash")
        g.emit_event({"n": 0, "t": "discard", "player": player, "obj": oid, "code": obj.code})
        g.remember("discard", player, oid, code=obj.code)


def recycle(g: "Game", ids: list[int], random_order: bool = False) -> None:
    """To the bottom of the owner's matching deck (417); several main-deck cards in random order."""
    ids = [oid for oid in ids if g.state.objs[oid].zone != "gone"]
    if random_order and len(ids) > 1:
        g.shuffle(ids)
    for oid in ids:
        obj = g.obj(oid)
        left_board = obj.zone == "board"
        if left_board:
            _leave_board(g, oid)
        target = "rune_deck" if g.card(oid).type == "rune" else "main_deck"
        g.place(oid, target)
        g.emit_event({"n": 0, "t": "recycle", "player": obj.owner, "obj": oid, "code": obj.code})
        g.remember("recycle", obj.owner, oid)
        if left_board:
            _cleanup(g)


def banish(g: "Game", ids: list[int]) -> None:
    for oid in ids:
        obj = g.obj(oid)
        if obj.zone == "board":
            _leave_board(g, oid)
        g.place(oid, "banished")
        g.emit("banish", obj=oid, code=obj.code)
        _cleanup(g)


def spend_xp(g: "Game", player: int, amount: int) -> None:
    """Spend XP as a cost ("Spend 2 XP: ..."): XP is the player's own (732)."""
    p = g.state.players[player]
    p.xp -= amount
    g.emit("spend_xp", player=player, amount=amount)


def replaced(g: "Game", event: str, oid: int, player: int, cause: dict[str, Any] | None, **info: Any) -> bool:
    """Whether a replacement took the place of a spell's or ability's stun, return to hand or Might loss
    (a stun by a spell or ability that chose it, replaced): the replaced event names its
    source and whether that spell or ability chose the object (``cause``: source, chosen)."""
    if cause is None:
        return False
    return replacement.replace(g, event, oid, {"source": cause["source"], "player": player,
                                               "chosen": oid in cause["chosen"], **info})


def return_to_hand(g: "Game", ids: list[int], cause: dict[str, Any] | None = None, player: int = NOWHERE) -> None:
    for oid in ids:
        obj = g.obj(oid)
        if obj.zone == "gone" or replaced(g, "return_to_hand", oid, player, cause):
            continue
        if obj.zone == "board":
            _leave_board(g, oid)
        obj.controller = obj.owner
        g.place(oid, "hand")
        g.emit("return_to_hand", obj=oid, player=obj.owner)
        _cleanup(g)


def put_in_hand(g: "Game", ids: list[int]) -> None:
    for oid in ids:
        obj = g.obj(oid)
        if obj.zone == "board":
            _leave_board(g, oid)
        g.place(oid, "hand")
        g.emit("put_in_hand", obj=oid, player=obj.owner)


def put_in_zone(g: "Game", oid: int, zone: str, top: bool = False) -> None:
    """Put a card in a zone by an effect ("put it on top of its owner's Main Deck"): from the board it
    leaves the board first, as every other move off it does (its gear detaches, 436.4; its statuses end)."""
    obj = g.obj(oid)
    left_board = obj.zone == "board" and zone != "board"
    if left_board:
        _leave_board(g, oid)
    g.place(oid, zone, obj.owner if zone == "board" else NOWHERE, top=top)
    event: dict[str, Any] = {"n": 0, "t": "put_in_zone", "obj": oid, "zone": zone, "player": obj.owner}
    if top:
        event["top"] = True
    g.emit_event(event)
    if left_board:
        _cleanup(g)


def _leave_board(g: "Game", oid: int) -> None:
    """Statuses end when an object leaves the board; attached gear detaches (436.4); a copy effect on it ends."""
    obj = g.obj(oid)
    for lasting in [l for l in g.state.lasting if l.kind == "copy" and l.affects == [oid]]:
        end_copy(g, lasting)
    for other in layers.attached_to(g, oid):
        detach(g, other)  # 719.5, 436.4.b: it stays where the unit was
    obj.exhausted = False
    obj.damage = 0
    obj.buffs = 0
    obj.stunned = False
    obj.designation = ""
    obj.attached_to = NOWHERE
    obj.prevent = 0
    g.remember("left_from", obj.controller, oid, loc=obj.loc)  # where it was: "a unit here is returned"
    g.emit_event({"n": 0, "t": "leave_board", "obj": oid, "loc": obj.loc, "player": obj.controller, "code": obj.code})


def become_copy(g: "Game", oid: int, code: str, source: int, controller: int) -> None:
    """The object becomes a copy of a card (its card is that one) for as long as the source stays attached to
    it (Shady Spectacles' copy, which ends when the Equipment comes off): a lasting
    effect of kind copy remembers its own card, which ``end_copy`` gives back."""
    obj = g.obj(oid)
    g.state.lasting.append(Lasting(id=g.tick(), kind="copy", source=source, source_code=g.obj(source).code,
                                   controller=controller, body={"code": code, "original": obj.code},
                                   duration="while_source_attached", affects=[oid], timestamp=g.state.clock))
    g.unindex_object(oid)
    obj.code = code
    g.index_object(oid)
    g.emit("become_copy", obj=oid, code=code, player=obj.controller)
    _cleanup(g)


def end_copy(g: "Game", lasting: "Lasting") -> None:
    """A copy effect ended (its source is no longer attached, or the object leaves the board): the object is
    its own card again."""
    oid = (lasting.affects or [NOWHERE])[0]
    copies = [other for other in g.state.lasting if other.kind == "copy" and other.affects == [oid]]
    g.state.lasting.remove(lasting)
    obj = g.state.objs.get(oid)
    if obj is None:
        return
    newer = copies[copies.index(lasting) + 1:] if lasting in copies else []
    if newer:
        # a newer copy of the same object still applies: it now stands on what this one stood on, and the
        # object stays what the newest copy makes it (two Shady Spectacles: the first one off changes nothing)
        newer[0].body["original"] = lasting.body["original"]
    else:
        g.unindex_object(oid)
        obj.code = str(lasting.body["original"])
        g.index_object(oid)
    g.emit("copy_ends", obj=oid, code=obj.code)
    _cleanup(g)


def attach(g: "Game", eq: int, unit: int, player: int = NOWHERE) -> None:
    """435.1.c-e: the card goes to the unit's location (not a move) and attaches to it;
    its rules text goes inactive (718.2) and its effect text becomes the unit's (150.2, 435.1.e).
    ``player``: who attaches it (the controller of the spell or ability doing it; by default the
    Equipment's controller): "when you attach an Equipment to me" is theirs, not an opponent's
    Angle Shot attaching your Equipment."""
    if g.obj(eq).attached_to != NOWHERE:
        detach(g, eq)  # attached to one unit at a time (Core Rules, attachment)
    obj = g.obj(eq)
    obj.attached_to = unit
    g.place(eq, "board", g.obj(unit).loc)  # re-indexes its abilities as attached
    who = obj.controller if player == NOWHERE else player
    g.emit("attach", obj=eq, unit=unit, player=who)
    g.remember("attach", who, eq, loc=unit)  # "if this was attached to me this turn"
    g.emit("equipped", obj=unit, source=eq, player=who)  # "When you attach an Equipment to me"
    g.state.needs_cleanup = True


def detach(g: "Game", eq: int) -> None:
    """436.4.b: the card stays at its location; its rules text is active again (718.2)."""
    obj = g.obj(eq)
    unit = obj.attached_to
    if unit == NOWHERE:
        return
    obj.attached_to = NOWHERE
    g.unindex_object(eq)
    g.index_object(eq)
    g.touch()
    g.emit("detach", obj=eq, unit=unit)
    g.state.needs_cleanup = True  # 436.4.a: recalled from a battlefield at the next cleanup


def carry_attached(g: "Game", unit: int, cards: list[int]) -> None:
    """Attached cards are always at the unit's location and are not moved themselves (Core Rules, attachment)."""
    for eq in cards:
        if g.obj(eq).zone == "board" and g.obj(eq).attached_to == unit:
            g.place(eq, "board", g.obj(unit).loc)


# ---------------------------------------------------------------------- permanents
def enter_board(g: "Game", oid: int, controller: int, loc: int, ready: bool = False,
                exhausted: bool = False) -> None:
    """Units enter exhausted (143.4), gear ready (149.1), unless an effect says otherwise ("play a
    Gold gear token exhausted"); an effect making it enter ready ("Your tokens enter ready") wins."""
    obj = g.obj(oid)
    obj.controller = controller
    card = g.card(oid)
    g.place(oid, "board", loc)
    obj.timestamp = g.tick()
    g.index.order_changed(oid)
    obj.played_turn = g.state.turn
    obj.moves_this_turn = 0
    enters_ready = ready or (card.type != "unit" and not exhausted) or layers.chars(g, oid).enter_ready
    if card.type != "unit" and any(m["type"] == "enter_exhausted" for a in card.abilities
                                   if a.kind == "static" and a.body.get("affects", "self") == "self"
                                   for m in a.body["modifiers"]):
        enters_ready = False
    if not enters_ready:
        enters_ready = _enter_ready_effect(g, oid)
    obj.exhausted = not enters_ready
    g.emit_event({"n": 0, "t": "enter_board", "obj": oid, "player": controller, "loc": loc, "code": obj.code,
                  "ready": not obj.exhausted})
    if is_battlefield(loc) and card.type == "unit":
        contest(g, loc, controller)  # 452: units contest a battlefield; gear played there (Deploy) doesn't
    _cleanup(g)


def _enter_ready_effect(g: "Game", oid: int) -> bool:
    """Lasting and static 'enter ready' effects that cover other units (Confront, Magma Wurm)."""
    for src, ability in list(layers.statics_by_kind(g).get("enter_ready", ())):  # any of them will do
        if ability.body.get("affects", "self") == "self":
            continue
        ctx = effects.EffectContext(g, g.obj(src).controller, src)
        if any(key in ability.body and not ctx.check(ability.body[key]) for key in ("condition", "while")):
            continue  # "[Level 11] Your units enter ready": only while the condition holds
        if ctx.matches_selection(ability.body["affects"], oid) if isinstance(ability.body["affects"], dict) else False:
            return True
    for lasting in layers.lasting_with(g, "enter_ready"):
        if lasting.kind == "static":
            ctx = effects.EffectContext(g, lasting.controller, lasting.source)
            affects = lasting.body.get("affects")
            if lasting.affects is not None and oid not in lasting.affects:
                continue
            # the effect's own selection says whose units ("units you play": controller you, 740.1.a)
            if isinstance(affects, dict) and not ctx.matches_selection(affects, oid):
                continue
            g.spend_use(lasting)
            return True
    return False


def contest(g: "Game", loc: int, player: int) -> None:
    """452-455: units arriving at a battlefield their controller doesn't control contest it."""
    bf = g.bf_at(loc)
    if bf.controller != player and bf.contested_by == NOWHERE:
        bf.contested_by = player
        g.emit("contest", bf=loc, player=player)


def _alone_at_death(g: "Game", ids: list[int]) -> set[int]:
    """The units among ``ids`` with no other friendly unit at their location: the units at each location
    counted once per team (a combat killing a whole side asked every dying unit about every other)."""
    s = g.state
    objs, players = s.objs, s.players
    per_loc: dict[int, tuple[set[int], dict[int, int]]] = {}
    alone: set[int] = set()
    for oid in ids:
        obj = objs.get(oid)
        if obj is None or obj.zone != "board" or g.card(oid).type != "unit":
            continue
        found = per_loc.get(obj.loc)
        if found is None:
            there = g.units_at(obj.loc)
            counts: dict[int, int] = {}
            for u in there:
                team = players[objs[u].controller].team
                counts[team] = counts.get(team, 0) + 1
            found = per_loc[obj.loc] = (set(there), counts)
        units, teams = found
        friends = teams.get(players[obj.controller].team, 0) - (1 if oid in units else 0)
        if not friends:
            alone.add(oid)
    return alone


def kill(g: "Game", ids: list[int], source: int = NOWHERE, by: str = "", killer: int = NOWHERE,
         lethal: bool = False) -> list[int]:
    """Kill permanents: Deathknell and 'when dies' triggers see them before they move (808)."""
    killed: list[int] = []
    alone = _alone_at_death(g, ids)  # units dying together were there too
    for oid in ids:
        obj = g.state.objs.get(oid)
        if obj is None or obj.zone != "board":
            continue
        if replacement.replace(g, "die", oid, {"source": source, "by": by, "killer": killer}):
            continue
        loc = obj.loc
        if oid in alone:
            g.remember("died_alone", obj.controller, oid)  # Deathknell "if I didn't die alone"
        g.emit_event({"n": 0, "t": "die", "obj": oid, "loc": loc, "player": obj.controller, "code": obj.code,
                      "source": source, "by": by, "killer": killer, "buffed": obj.buffs > 0, "stunned": obj.stunned,
                      "token": obj.token})
        g.remember("died", obj.controller, oid, code=obj.code, loc=loc)
        if g.card(oid).type == "unit":
            last = layers.might(g, oid)
            g.remember("died_with_might", obj.controller, oid, loc=last)  # "if it had 3 Might or less"
            if last >= 5:
                g.remember("died_mighty", obj.controller, oid)  # last known Might ("if I was Mighty")
        if killer != NOWHERE and by in ("spell", "ability"):
            g.emit("kill", obj=oid, player=killer, by=by, code=obj.code, stunned=obj.stunned)
        _leave_board(g, oid)
        obj.controller = obj.owner
        g.place(oid, "trash")
        killed.append(oid)
        _cleanup(g)
    return killed


def deal_damage(g: "Game", targets: list[int], amount: int, source: int, controller: int,
                by: str) -> dict[int, int]:
    """Deal damage (only whole amounts of at least 1, after bonuses and prevention)."""
    dealt: dict[int, int] = {}
    for oid in targets:
        obj = g.state.objs.get(oid)
        if obj is None or obj.zone != "board" or g.card(oid).type != "unit":
            continue
        total = amount
        if by in ("spell", "ability"):
            total += bonus_damage(g, controller, obj.loc, source)
        total *= damage_taken_times(g, oid)
        total = prevent(g, oid, total, by, controller)
        if total < 1:
            continue
        obj.damage += total
        dealt[oid] = total
        g.remember("dealt_damage", controller, source, loc=total)  # "each time this spell has dealt damage"
        g.emit_event({"n": 0, "t": "damaged", "obj": oid, "amount": total, "source": source, "by": by,
                      "player": controller, "loc": obj.loc})
        _cleanup(g)
    return dealt


def damage_taken_times(g: "Game", oid: int) -> int:
    """What multiplies the damage a unit is dealt (Lotus Trap's doubling for a turn: damage_taken times 2):
    each static ability or lasting effect covering it with a damage_taken modifier, named or by selection,
    applying once."""
    if not layers.lasting_with(g, "damage_taken") and not layers.statics_by_kind(g).get("damage_taken"):
        return 1
    times = 1
    for mod, _controller in layers.modifiers_applying(g, oid, "damage_taken"):
        times *= int(mod["times"])
    return times


def bonus_damage(g: "Game", controller: int, loc: int, source: int = NOWHERE) -> int:
    """Static 'Bonus Damage' effects of the damaging player's objects or of the battlefield."""
    total = 0
    for mod, src in layers.static_modifiers(g, "bonus_damage"):
        holder = g.obj(src)
        if mod.get("to_units_here"):
            if holder.zone == "bfcard" and g.state.battlefields[holder.loc - BF0].loc == loc:
                total += int(mod["amount"])
        elif holder.controller == controller:
            total += int(mod["amount"])
    for lasting in g.active_lasting():
        if lasting.kind == "static" and lasting.controller == controller:
            if lasting.uses > 0 and (lasting.affects is None or source not in lasting.affects):
                continue  # a "next spell" bonus only for the spell it was bound to when played
            for mod in lasting.body["modifiers"]:
                if mod["type"] == "bonus_damage":
                    total += int(mod["amount"])
    return total


def prevent(g: "Game", oid: int, amount: int, by: str, controller: int = NOWHERE) -> int:
    """The damage left once prevention took its share: a static prevent_damage of the unit (all of it, or
    only a spell's or ability's - an enemy's, for ``enemy_spell_or_ability``), created prevention effects,
    then its prevention shield."""
    obj = g.obj(oid)
    if layers.chars(g, oid).prevent_all:
        return 0
    if by in ("spell", "ability"):
        froms = layers.hook_values(g, oid, "prevent_damage")
        if "spell_or_ability" in froms or ("enemy_spell_or_ability" in froms and controller != NOWHERE
                                           and not g.friendly(controller, obj.controller)):
            return 0
    for lasting in g.active_lasting():
        if lasting.kind == "prevent":
            if lasting.body.get("from") == "spell_or_ability" and by not in ("spell", "ability"):
                continue
            if lasting.affects is not None and oid not in lasting.affects:
                continue
            if lasting.body.get("next"):
                g.spend_use(lasting)  # "the next time it would be dealt damage": this instance only
            return 0
    if obj.prevent > 0:
        used = min(obj.prevent, amount)
        obj.prevent -= used
        amount -= used
    return amount


def heal(g: "Game", ids: list[int]) -> None:
    for oid in ids:
        obj = g.obj(oid)
        if obj.damage:
            obj.damage = 0
            g.emit_event({"n": 0, "t": "heal", "obj": oid})


def heal_all(g: "Game") -> None:
    """317.2.b, 468.1: all units heal."""
    healed = [oid for oid in g.board_objects() if g.obj(oid).damage]
    for oid in healed:
        g.obj(oid).damage = 0
    if healed:
        g.emit("heal_all", count=len(healed))


def stun(g: "Game", ids: list[int], player: int, cause: dict[str, Any] | None = None) -> None:
    """A stunned unit can't be stunned again (424)."""
    for oid in ids:
        obj = g.obj(oid)
        if obj.zone != "board" or obj.stunned or g.card(oid).type != "unit" or replaced(g, "stun", oid, player, cause):
            continue
        obj.stunned = True
        g.emit("stun", obj=oid, player=player, controller=obj.controller)
        g.remember("stun", player, oid)
        _cleanup(g)


def buff(g: "Game", ids: list[int], player: int) -> None:
    """Put a +1 Might buff on a unit that has none (427); some units may have more."""
    for oid in ids:
        obj = g.obj(oid)
        if obj.zone != "board" or g.card(oid).type != "unit":
            continue
        limit = 1 + sum(int(m.get("amount", 1)) - 1 for m in _own_modifiers(g, oid, "buff_limit"))
        if obj.buffs >= limit:
            continue
        obj.buffs += 1
        g.emit_event({"n": 0, "t": "buff", "obj": oid, "player": player})
        g.remember("buff", player, oid)
        _cleanup(g)


def _own_modifiers(g: "Game", oid: int, kind: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for ability in g.card(oid).abilities:
        if ability.kind == "static" and ability.body.get("affects", "self") == "self":
            out.extend(m for m in ability.body["modifiers"] if m["type"] == kind)
    return out


def spend_buff(g: "Game", oid: int, player: int) -> bool:
    obj = g.obj(oid)
    if obj.buffs <= 0:
        return False
    obj.buffs -= 1
    g.emit("spend_buff", obj=oid, player=player)
    g.remember("spend_buff", player, oid)
    _cleanup(g)
    return True


def ready(g: "Game", ids: list[int], player: int = NOWHERE) -> None:
    """Ready by a spell or ability; an enemy's "can't ready" restriction stops units and gear."""
    blockers = [g.obj(src).controller for m, src in layers.static_modifiers(g, "restriction")
                if m["restriction"] == "cant_ready_enemy"]
    for oid in ids:
        obj = g.obj(oid)
        if blockers and g.card(oid).type in ("unit", "gear") and \
                any(not g.friendly(b, obj.controller) for b in blockers):
            continue
        if layers.restrictions_on(g, "cant_be_readied", unit=oid):
            continue  # "I can't be readied"
        if obj.exhausted and obj.zone in ("board", "runes", "legend"):
            obj.exhausted = False
            g.emit_event({"n": 0, "t": "ready", "obj": oid, "player": player, "controller": obj.controller})
            _cleanup(g)


def exhaust(g: "Game", ids: list[int]) -> None:
    for oid in ids:
        obj = g.obj(oid)
        if not obj.exhausted and obj.zone in ("board", "runes", "legend"):
            obj.exhausted = True
            g.emit_event({"n": 0, "t": "exhaust", "obj": oid})
            _cleanup(g)


def recall(g: "Game", ids: list[int]) -> None:
    """457: relocate to its controller's base without moving; its state is unchanged."""
    for oid in ids:
        obj = g.obj(oid)
        if obj.zone != "board" or obj.loc == obj.controller:
            continue
        origin = obj.loc
        carried = layers.attached_to(g, oid)
        g.place(oid, "board", obj.controller)
        carry_attached(g, oid, carried)
        obj.designation = ""
        g.emit("recall", obj=oid, loc=origin, player=obj.controller)
        _cleanup(g)


# ---------------------------------------------------------------------- resources
def channel(g: "Game", player: int, count: int, exhausted: bool = False) -> int:
    """Channel the top runes of the rune deck; fewer if the deck runs out (431.3)."""
    p = g.state.players[player]
    done = 0
    for _ in range(count):
        if not p.rune_deck:
            break
        oid = p.rune_deck[0]
        g.obj(oid).controller = player
        g.place(oid, "runes")
        g.obj(oid).exhausted = exhausted
        g.emit_event({"n": 0, "t": "channel", "player": player, "obj": oid, "exhausted": exhausted})
        done += 1
    return done


def add_resources(g: "Game", player: int, energy: int, power: list[str], only_for: str = "") -> None:
    """Add to the rune pool (166); only_for "spells" or "gear": a part of the pool usable only to pay
    for spells, or to play gear and pay gear abilities' costs."""
    p = g.state.players[player]
    if only_for == "spells":
        p.spell_energy += energy
        for domain in power:
            p.spell_power[domain] = p.spell_power.get(domain, 0) + 1
    elif only_for == "gear":
        p.gear_energy += energy
        for domain in power:
            p.gear_power[domain] = p.gear_power.get(domain, 0) + 1
    elif only_for == "units":
        p.unit_energy += energy  # unit-only energy (Butcher of the Sands)
        for domain in power:
            p.power[domain] = p.power.get(domain, 0) + 1
    elif only_for == "showdowns":
        p.showdown_energy += energy  # "spend this Energy only during showdowns"
        for domain in power:
            p.power[domain] = p.power.get(domain, 0) + 1
    else:
        p.energy += energy
        for domain in power:
            p.power[domain] = p.power.get(domain, 0) + 1
    event: dict[str, Any] = {"n": 0, "t": "add", "player": player, "energy": energy, "power": list(power),
                             "spells_only": only_for == "spells"}
    if only_for in ("gear", "showdowns", "units"):
        event[f"{only_for}_only"] = True
    g.emit_event(event)


def empty_pools(g: "Game") -> None:
    """167: every rune pool empties."""
    for p in g.state.players:
        if p.energy or p.power or p.spell_energy or p.spell_power or p.gear_energy or p.gear_power \
                or p.showdown_energy or p.unit_energy:
            p.energy = p.showdown_energy = p.unit_energy = 0
            p.power = {}
            p.spell_energy = p.gear_energy = 0
            p.spell_power = {}
            p.gear_power = {}
            g.emit("pool_empty", player=p.index)


# ---------------------------------------------------------------------- tokens, control, chain
def create_token(g: "Game", name: str, controller: int, loc: int, ready: bool, count: int,
                 exhausted: bool = False, set_code: str | None = None) -> list[int]:
    """Play tokens (180): each is played as it enters the board, so its "when you play me" abilities
    trigger (Weaponmaster on a Sand Soldier); tokens aren't cards (185), so no "cards played" count sees them.
    ``set_code``: the set of the card making them, whose own token of that name it is (``Catalog.token``)."""
    card = g.catalog.token(name, set_code)
    if card is None:
        from ..errors import EngineError

        raise EngineError(f"no token named {name!r} is installed")
    made = []
    for _ in range(count):
        obj = g.new_obj(card.code, controller, "limbo", token=True)
        g.emit("create_token", obj=obj.id, player=controller, code=card.code)
        enter_board(g, obj.id, controller, loc, ready=ready, exhausted=exhausted)
        g.emit_event({"n": 0, "t": "played", "player": controller, "obj": obj.id, "code": card.code, "type": card.type,
                      "loc": loc, "token": True})
        made.append(obj.id)
    return made


def take_control(g: "Game", oid: int, player: int) -> None:
    obj = g.obj(oid)
    if obj.controller == player:
        return
    obj.controller = player
    obj.timestamp = g.tick()
    g.index.order_changed(oid)
    g.emit("control", obj=oid, player=player)
    if obj.zone == "board" and is_battlefield(obj.loc) and g.card(oid).type == "unit":
        # a unit becoming its new controller's at a battlefield they don't control contests it, as one arriving
        # would (452; Hostile Takeover: "start a combat if other enemies are there, otherwise conquer")
        contest(g, obj.loc, player)
    _cleanup(g)


def end_control(g: "Game", lasting: "Lasting") -> None:
    """A 'take control for a while' effect ended: its former controller controls it again (and it is
    recalled when the effect says so, as Hostile Takeover's does at end of turn)."""
    for oid in lasting.affects or []:
        obj = g.state.objs.get(oid)
        if obj is None or obj.zone != "board":
            continue
        take_control(g, oid, int(lasting.body["back_to"]))
        if lasting.body.get("then") == "recall":
            recall(g, [oid])


def _uncounterable_by(g: "Game", player: int) -> bool:
    """Whether an active static gives the player's spells and abilities the cant_be_countered hook."""
    return any(mod["hook"] == "cant_be_countered" and mod["value"] == "controller" and g.obj(src).controller == player
               for mod, src in layers.static_modifiers(g, "hook"))


def counter(g: "Game", card_obj: int, to: str = "trash") -> bool:
    """The item does nothing and leaves the chain; a countered card was not played and goes to its
    owner's trash (or, ``to="hand"``, back to their hand instead).  An object that is no card on the
    chain names its newest ability there (its source stays where it is).  What the ``cant_be_countered``
    hook covers stays: a card whose text gives it the hook (``true``: "this can't be countered"), and
    every card and ability of the controller of a static that has it (``controller``: "your spells and
    abilities can't be countered")."""
    for item in list(g.state.chain):
        if item.kind == "card" and item.obj == card_obj:
            if True in layers.hook_values(g, card_obj, "cant_be_countered") or _uncounterable_by(g, item.controller):
                return False
            g.state.chain.remove(item)
            g.emit("counter", obj=card_obj, item=item.id)
            g.obj(card_obj).controller = g.obj(card_obj).owner
            g.place(card_obj, to)
            _cleanup(g)
            return True
    for item in reversed(g.state.chain):
        if item.kind != "card" and item.obj == card_obj:
            if _uncounterable_by(g, item.controller):
                return False
            g.state.chain.remove(item)
            g.emit("counter", obj=card_obj, item=item.id)
            _cleanup(g)
            return True
    return False
