"""Cleanups (322-323; Core Rules, cleanup procedure), run until one changes nothing.

A cleanup is an outstanding task after state changes (open/closed, phase, chain items, objects
entering or leaving the board, status changes, completed moves).  Its tasks, in order: victory;
combat designations; lethal damage kills; empty battlefields lose control in an open state;
stray gear and hidden cards; staging showdowns and combats; beginning one in a Neutral Open state.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import combat, layers, points, scoring, verbs
from .events import Event
from .caches import Stamp
from .state import NOWHERE, Decision, Showdown, is_battlefield

if TYPE_CHECKING:
    from .game import Game


def cleanup(g: "Game") -> None:
    s = g.state
    s.needs_cleanup = False
    points.check_victory(g)
    if s.winners is not None:
        return
    sd = s.showdown
    # 2. combat designations follow the units (attackers/defenders fixed until combat cleanup)
    if sd is not None and sd.combat:
        combat.refresh_designations(g)
    # 3. lethal damage kills (Deathknell triggers are noted as they die)
    objs, defs = s.objs, g.defs
    # most cleanups find no damage on the board: then no list of the board's objects is made
    damaged = any(objs[oid].damage > 0 for p in s.players for oid in p.base) \
        or any(objs[oid].damage > 0 for bf in s.battlefields for oid in bf.here)
    lethal = [oid for oid in g.board_objects() if objs[oid].damage > 0 and defs[objs[oid].code].type == "unit"
              and (objs[oid].damage >= layers.might(g, oid) or _any_damage_lethal(g, oid))] if damaged else []
    for oid in lethal:
        # engine notes, game actions: a kill is attributed to the spell or ability that dealt the
        # damage just before the cleanup ("when you kill a unit with a spell": Immortal Phoenix)
        hit = _last_damage(g, oid)
        if hit is not None and hit.get("by") in ("spell", "ability"):
            verbs.kill(g, [oid], source=int(hit.get("source", NOWHERE)), by=str(hit["by"]),
                         killer=int(hit.get("player", NOWHERE)), lethal=True)
        else:
            verbs.kill(g, [oid], by="damage", lethal=True)
    open_state = not s.chain
    # 4. empty battlefields become uncontrolled in an open state
    for bf in s.battlefields:
        if open_state and bf.controller != NOWHERE and bf.contested_by == NOWHERE \
                and not (sd is not None and sd.bf == bf.loc) and not g.units_at(bf.loc):
            g.emit("lose_control", bf=bf.loc, player=bf.controller)
            scoring.set_controller(g, bf.loc, NOWHERE)
    # 5. unattached gear at battlefields is recalled (149.3, 436.4.a) unless it stays (Deploy, 830.1.b.3);
    #    hidden cards lost
    clear = _Clear(g)
    for bf in s.battlefields:
        if not clear.still(bf.loc):
            gear = [o for o in bf.here if defs[objs[o].code].type == "gear"]
            for oid in gear:
                obj = objs[oid]
                if obj.attached_to == NOWHERE and True not in layers.hook_values(g, oid, "stays_at_battlefield"):
                    verbs.recall(g, [oid])
            if not gear:
                clear.found(bf.loc)
        if bf.facedown:
            for oid in list(bf.facedown):
                if g.obj(oid).controller != bf.controller:
                    g.place(oid, "trash")
                    g.emit("hidden_lost", obj=oid, bf=bf.loc)
    for p in s.players:
        if not clear.still(p.index):
            foreign = [o for o in p.base if objs[o].controller != p.index]
            for oid in foreign:
                # anything in a base other than its controller's is recalled (engine notes, cleanup step 5),
                # attached or not: another player's Equipment on a unit that changed control and went to
                # its new controller's base detaches first, since an attached card is always where its
                # unit is (719.5).  At a battlefield only unattached gear is recalled, so there it stays on.
                if objs[oid].attached_to != NOWHERE:
                    verbs.detach(g, oid)
                verbs.recall(g, [oid])
            if not foreign:
                clear.found(p.index)
    # 6-7. stage showdowns and combats where contested was applied
    for bf in s.battlefields:
        if bf.contested_by == NOWHERE:
            bf.showdown_staged = bf.combat_staged = False
            continue
        # asked at every cleanup of a combat: the designations' step found them, if nothing changed since
        controllers = g.memo().get(("controllers_at", bf.loc)) or {objs[u].controller for u in g.units_at(bf.loc)}
        if bf.contested_by not in controllers:
            if not (sd is not None and sd.bf == bf.loc):
                bf.contested_by = NOWHERE
                bf.showdown_staged = bf.combat_staged = False
            continue
        others = controllers - {bf.contested_by}
        bf.showdown_staged = not (sd is not None and sd.bf == bf.loc)
        bf.combat_staged = bool(others)
        if not others and bf.controller == bf.contested_by:
            bf.contested_by = NOWHERE
            bf.showdown_staged = bf.combat_staged = False
    _becoming_mighty(g)
    _might_reaching(g)
    if s.lasting:
        # control "until I leave the board" ends when its source leaves (Akshan)
        for lasting in [l for l in s.lasting if l.kind == "control" and l.duration == "while_source_on_board"]:
            if s.objs[lasting.source].zone != "board":
                s.lasting.remove(lasting)
                verbs.end_control(g, lasting)
        # a copy "for as long as this is attached to it" ends once its source isn't attached to the object
        for lasting in [l for l in s.lasting if l.kind == "copy" and l.duration == "while_source_attached"]:
            if s.objs[lasting.source].attached_to not in (lasting.affects or []):
                verbs.end_copy(g, lasting)
    # 8-9. begin a staged showdown or combat
    if open_state and sd is None:
        staged = [bf for bf in s.battlefields if bf.showdown_staged]
        if staged:
            if len(staged) > 1:
                # the turn player chooses; on the turn of a player who conceded, the next player does
                chooser = g.next_player(s.turn_player) if s.players[s.turn_player].conceded else s.turn_player
                s.decision = Decision("showdown", chooser, "choose which showdown or combat begins first",
                                      options=[{"label": g.name(bf.card), "value": bf.loc} for bf in staged])
                return
            begin_showdown(g, staged[0].loc)
    elif open_state and sd is not None and not sd.combat:
        bf = g.bf_at(sd.bf)
        if bf.combat_staged:
            sd.combat = True  # a non-combat showdown becomes a combat when another player's units arrive
            combat.start_combat(g)


class _Clear:
    """``Caches.cleanup_clear`` as one cleanup reads and writes it: what changed since a stamp is worked
    out once per stamp and state version (the locations found clear together share one stamp), and a
    stamp is taken once per version, not once per location (same answers as ``_still_clear``)."""

    def __init__(self, g: "Game") -> None:
        self.caches = g.caches
        self.known: list[tuple[Stamp, int, tuple[set[int], bool] | None]] = []  # (stamp, version, changes since)
        self.stamp: Stamp | None = None

    def still(self, loc: int) -> bool:
        caches = self.caches
        stamp = caches.cleanup_clear.get(loc)
        if stamp is None:
            return False
        for seen, version, changes in self.known:
            if seen is stamp and version == caches.version:
                break
        else:
            changes = caches.changes_since(stamp)
            self.known.append((stamp, caches.version, changes))
        return changes is not None and loc not in changes[0]

    def found(self, loc: int) -> None:
        caches, stamp = self.caches, self.stamp
        if stamp is None or stamp.version != caches.version or stamp.lasting != caches.lasting_changes:
            stamp = self.stamp = caches.stamp()
        caches.cleanup_clear[loc] = stamp


def _still_clear(g: "Game", loc: int) -> bool:
    """Whether a battlefield found without gear, or a base without another player's objects, by an
    earlier cleanup is so still (``Caches.cleanup_clear``): nothing moved there, changed control or
    became something else since."""
    stamp = g.caches.cleanup_clear.get(loc)
    if stamp is None:
        return False
    changes = g.caches.changes_since(stamp)
    return changes is not None and loc not in changes[0]


def stale_clear(g: "Game") -> str | None:
    """Where ``Caches.cleanup_clear`` lets the cleanup skip a location that has gear at a battlefield
    or another player's object at a base (a missed invalidation), or None (for ``invariants.check``)."""
    s = g.state
    for loc in list(g.caches.cleanup_clear):
        if not _still_clear(g, loc):
            continue
        here = g.bf_at(loc).here if is_battlefield(loc) else s.players[loc].base
        for oid in here:
            obj = s.objs[oid]
            if (g.defs[obj.code].type == "gear") if is_battlefield(loc) else obj.controller != loc:
                return f"the cleanup would skip location {loc}, yet {g.name(oid)} #{oid} is there"
    return None


def _becoming_mighty(g: "Game") -> None:
    """Engine notes, Mighty: a unit on the board becomes Mighty when its Might rises from below 5 to 5 or
    more (143.2); one that enters already Mighty doesn't.  Watched only while an ability listens."""
    s = g.state
    if not g.index.listeners.get("become_mighty"):
        for lasting in s.lasting:
            if lasting.kind == "trigger" and lasting.body["when"]["event"] == "become_mighty":
                break
        else:
            if s.watched_units is not None or s.mighty_units:
                s.watched_units, s.mighty_units = None, []
            return
    units = [oid for oid in g.board_objects() if g.card(oid).type == "unit"]
    mighty = [oid for oid in units if layers.might(g, oid) >= 5]
    before, was = s.watched_units, set(s.mighty_units)
    s.watched_units, s.mighty_units = units, mighty
    if before is None:
        return  # just started watching: nothing has risen yet
    seen = set(before)
    for oid in mighty:
        if oid in seen and oid not in was:
            g.emit("become_mighty", obj=oid, player=g.obj(oid).controller)


def _might_reaching(g: "Game") -> None:
    """A unit's Might reaching a number ("when my Might becomes 10 or more"): the event might_reaches, for
    each number a listener asks for (trigger key at_least), when the unit's Might rises from below it to it
    or more, as become_mighty does for 5; watched only while an ability listens."""
    s = g.state
    listeners = g.index.listeners.get("might_reaches")
    if not listeners:
        s.might_seen = None
        return
    numbers = sorted({int(g.ability_of(src, index).body["when"].get("at_least", 5)) for src, index in listeners})
    now = {str(oid): layers.might(g, oid) for oid in g.board_objects() if g.card(oid).type == "unit"}
    before, s.might_seen = s.might_seen, now
    for key, might in (now.items() if before is not None else ()):
        old = before.get(key) if before is not None else None
        for number in numbers:
            if old is not None and old < number <= might:
                g.emit("might_reaches", obj=int(key), player=g.obj(int(key)).controller, at_least=number)


def _any_damage_lethal(g: "Game", oid: int) -> bool:
    """A unit with the hook any_damage_lethal dies to any amount of damage dealt it last by the controller
    of the static or lasting effect giving it the hook ("any amount of your damage" kills: that player's
    damage only - in 2v2 not a teammate's, 491)."""
    if True not in layers.hook_values(g, oid, "any_damage_lethal"):
        return False
    hit = _last_damage(g, oid)
    dealer = int(hit.get("player", NOWHERE)) if hit is not None else NOWHERE
    return dealer != NOWHERE and any(
        mod.get("hook") == "any_damage_lethal" and controller == dealer
        for mod, controller in layers.modifiers_applying(g, oid, "hook"))


def _last_damage(g: "Game", oid: int) -> "Event | None":
    """The latest 'damaged' event of a unit, searched back from the end of the log."""
    for event in reversed(g.log):
        if event["t"] == "damaged" and event.get("obj") == oid:
            return event
    return None


def begin_showdown(g: "Game", loc: int) -> None:
    s = g.state
    bf = g.bf_at(loc)
    bf.showdown_staged = False
    attacker = bf.contested_by
    others = [g.obj(u).controller for u in g.units_at(loc) if g.obj(u).controller != attacker]
    defender = others[0] if others else (bf.controller if bf.controller != NOWHERE else attacker)
    s.showdown = Showdown(bf=loc, combat=bf.combat_staged, attacker=attacker, defender=defender, focus=attacker)
    g.emit("showdown_start", bf=loc, player=attacker, combat=bf.combat_staged, loc=loc)
    if bf.combat_staged:
        bf.combat_staged = False
        combat.start_combat(g)
    s.needs_cleanup = True

