"""Showdowns and combat (316.7-316.8, 462-468).

The attacker is the player whose units contested the battlefield (466.2.c.1).  Attack and defend
triggers fire the first time a unit gains the designation in a combat (Patch Notes, Oct 2025).
When the showdown closes, each side sums the Might of its units (stunned and negative Might add
0, 467.2.b) and, starting with the attacker, assigns it among the other side's units: lethal in
full before the next unit (467.2.c.3), Tank units first (815), Backline units last (826); all of
it is dealt at once.  The combat cleanup kills, heals everyone, recalls attackers if both sides
remain (468.1.a.2), and the last player standing establishes control, a conquer (468.5).
"""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Final, Iterator

from . import layers, replacement, scoring, verbs
from ..errors import IllegalActionError
from .state import NOWHERE, Decision, Showdown

if TYPE_CHECKING:
    from .game import Game


MAX_ORDERS: Final = 24


def start_combat(g: "Game") -> None:
    s = g.state
    sd = s.showdown
    assert sd is not None
    units = g.units_at(sd.bf)
    others = [g.obj(u).controller for u in units if g.obj(u).controller != sd.attacker]
    if others:
        sd.defender = others[0]
    g.emit("combat_start", bf=sd.bf, attacker=sd.attacker, defender=sd.defender, loc=sd.bf)
    sd.initial = True
    refresh_designations(g)


def refresh_designations(g: "Game") -> None:
    """Units at the combat's battlefield take their controller's designation; others lose it."""
    s = g.state
    sd = s.showdown
    if sd is None or not sd.combat:
        return
    caches = g.caches
    kept = caches.designations
    if kept is not None and kept[1] is sd and kept[2] == _combat_key(sd):
        changes = caches.changes_since(kept[0])
        if changes is not None and sd.bf not in changes[0]:
            # nothing moved there, changed control or left its attachment since a refresh that changed nothing
            g.memo()[("controllers_at", sd.bf)] = kept[3]
            return
    new_attackers: list[int] = []
    new_defenders: list[int] = []
    attacked, defended = set(sd.attacked), set(sd.defended)  # asked for every unit there: sets, not lists
    objs, defs = s.objs, g.defs
    controllers: set[int] = set()
    for oid in g.bf_at(sd.bf).here:  # g.units_at, inline: asked at every cleanup of a combat
        obj = objs[oid]
        if obj.attached_to != NOWHERE or defs[obj.code].type != "unit":
            continue
        controllers.add(obj.controller)
        role = "attacker" if obj.controller == sd.attacker else ("defender" if obj.controller == sd.defender else "")
        if obj.designation != role:
            obj.designation = role
            g.touch()
        if role == "attacker" and oid not in attacked:
            sd.attacked.append(oid)
            attacked.add(oid)
            new_attackers.append(oid)
        elif role == "defender" and oid not in defended:
            sd.defended.append(oid)
            defended.add(oid)
            new_defenders.append(oid)
    first_attack = new_attackers and len(sd.attacked) == len(new_attackers)
    first_defend = new_defenders and len(sd.defended) == len(new_defenders)
    if not new_attackers and not new_defenders:
        # the controllers of the units there, for the cleanup's staging step while nothing changes
        g.memo()[("controllers_at", sd.bf)] = found = frozenset(controllers)
        caches.designations = (caches.stamp(), sd, _combat_key(sd), found)
    if first_attack:
        g.emit_event({"n": 0, "t": "attack", "player": sd.attacker, "loc": sd.bf})
    for oid in new_attackers:
        g.emit_event({"n": 0, "t": "attack", "obj": oid, "player": sd.attacker, "loc": sd.bf,
                      "alone": len(new_attackers) == 1})
    if first_defend:
        g.emit_event({"n": 0, "t": "defend", "player": sd.defender, "loc": sd.bf})
    for oid in new_defenders:
        g.emit_event({"n": 0, "t": "defend", "obj": oid, "player": sd.defender, "loc": sd.bf,
                      "alone": len(new_defenders) == 1})


def _combat_key(sd: Showdown) -> tuple[int, int, int, int, int]:
    """What a refresh of the designations reads of the showdown besides which it is (``Caches.designations``)."""
    return (sd.bf, sd.attacker, sd.defender, len(sd.attacked), len(sd.defended))


def stale_designations(g: "Game") -> str | None:
    """Why a refresh of the designations that ``Caches.designations`` lets be skipped now would change
    something (a missed invalidation), or None (for ``invariants.check``)."""
    kept, sd = g.caches.designations, g.state.showdown
    if kept is None or sd is None or not sd.combat or kept[1] is not sd or kept[2] != _combat_key(sd):
        return None
    changes = g.caches.changes_since(kept[0])
    if changes is None or sd.bf in changes[0]:
        return None
    units = [oid for oid in g.units_at(sd.bf) if g.obj(oid).attached_to == NOWHERE]
    for oid in units:
        obj = g.obj(oid)
        role = "attacker" if obj.controller == sd.attacker else ("defender" if obj.controller == sd.defender else "")
        if obj.designation != role or role == "attacker" and oid not in sd.attacked \
                or role == "defender" and oid not in sd.defended:
            return f"unit {oid} at the combat's battlefield is not designated {role or 'nothing'}"
    if {g.obj(oid).controller for oid in units} != kept[3]:
        return f"the kept controllers of the units there ({sorted(kept[3])}) are not theirs"
    return None


def showdown_end(g: "Game") -> None:
    """Every player passed in a row with focus: the showdown closes."""
    s = g.state
    sd = s.showdown
    assert sd is not None
    g.emit("showdown_end", bf=sd.bf, combat=sd.combat)
    if sd.combat:
        s.tasks.append(["combat_cleanup", sd.bf])
        s.tasks.append(["combat_damage"])
        return
    # a non-combat showdown: the player whose units remain establishes control (316.8, 468.5)
    bf = g.bf_at(sd.bf)
    s.showdown = None
    controllers = {g.obj(u).controller for u in g.units_at(sd.bf)}
    bf.contested_by = NOWHERE
    if len(controllers) == 1:
        (player,) = controllers
        if bf.controller != player:
            scoring.establish_control(g, player, sd.bf)
    s.needs_cleanup = True


def _sides(g: "Game") -> tuple[list[int], list[int]]:
    sd = g.state.showdown
    assert sd is not None
    units = g.units_at(sd.bf)
    attackers = [u for u in units if g.obj(u).controller == sd.attacker]
    defenders = [u for u in units if g.obj(u).controller == sd.defender]
    return attackers, defenders


def lethal(g: "Game", oid: int) -> int:
    """Damage still needed to kill it, counting damage already marked and prevention."""
    obj = g.obj(oid)
    return max(1, layers.might(g, oid) - obj.damage) + obj.prevent


def groups(g: "Game", units: list[int]) -> list[list[int]]:
    """Assignment order groups: Tank first, then the rest, then Backline (815, 826)."""
    first, middle, last = [], [], []
    waived = _waived_orders(g, units)
    for oid in units:
        if layers.chars(g, oid).prevent_all:
            continue  # 467.2.c.10: a unit that can't be dealt damage is exempt
        values = [v for v in layers.hook_values(g, oid, "damage_assignment") if v not in waived]
        if "first" in values:
            first.append(oid)
        elif "last" in values:
            last.append(oid)
        else:
            middle.append(oid)
    return [grp for grp in (first, middle, last) if grp]


def _waived_orders(g: "Game", units: list[int]) -> set[str]:
    """The assignment orders the side assigning damage to these units ignores: the values of the
    ``ignore_damage_assignment`` hook of its units in the combat (a battlefield whose combats skip the
    [Tank] order: ``first``)."""
    if g.state.showdown is None or not units:
        return set()
    attackers, defenders = _sides(g)
    assigning = defenders if units[0] in attackers else attackers
    return {str(v) for oid in assigning for v in layers.hook_values(g, oid, "ignore_damage_assignment")}


def _orders(grps: list[list[int]]) -> "Iterator[list[int]]":
    """Every order of the units that keeps the groups in sequence, one at a time."""
    if not grps:
        yield []
        return
    for head in itertools.permutations(grps[0]):
        for rest in _orders(grps[1:]):
            yield list(head) + rest


def assignment_options(g: "Game", total: int, units: list[int]) -> tuple[list[dict[int, int]], list[dict[int, int]]]:
    """Legal assignments: (one per order of the units within their groups, all of any excess on
    one unit; those followed by the ways to split the excess among the units), both capped."""
    grps = groups(g, units)
    # 467.2.c: orders are generated lazily and capped -- listing every permutation of a big
    # combat (a dozen units) would not fit in memory
    orders: list[list[int]] = list(itertools.islice(_orders(grps), MAX_ORDERS))
    options: list[dict[int, int]] = []
    excess: list[tuple[dict[int, int], list[int], int]] = []
    # every candidate has the units' keys in the units' order (each is the zero assignment with values
    # changed), so its values tell it from another, as its sorted items would
    seen: set[tuple[int, ...]] = set()
    lethal_of: dict[int, int] = {}
    for order in orders or [[]]:
        left = total
        assignment: dict[int, int] = {u: 0 for u in units}
        for oid in order:
            need = lethal_of.get(oid)
            if need is None:
                need = lethal_of[oid] = lethal(g, oid)
            give = min(left, need)
            assignment[oid] += give
            left -= give
        candidates = [assignment]
        if left and order:
            # 467.2.c.4: once every unit has lethal, the excess may go to any of them
            candidates = [{**assignment, oid: assignment[oid] + left} for oid in order]
        for candidate in candidates:
            key = tuple(candidate.values())
            if key not in seen:
                seen.add(key)
                options.append(candidate)
        if left and len(order) > 1:
            excess.append((assignment, order, left))
    # 467.2.c.4: the excess may also be split among the units (listed after the others, capped)
    splits: list[dict[int, int]] = []
    for assignment, order, left in excess:
        for shares in _splits(left, len(order)):
            candidate = {**assignment}
            for oid, share in zip(order, shares):
                candidate[oid] += share
            key = tuple(candidate.values())
            if key not in seen:
                seen.add(key)
                splits.append(candidate)
            if len(splits) >= MAX_SPLITS:
                return options, options + splits
    return options, options + splits


MAX_SPLITS: Final = 64


def _splits(amount: int, units: int) -> "Iterator[tuple[int, ...]]":
    """Ways to share ``amount`` among ``units`` with at least two of them getting some."""
    if amount < 2:
        return  # one damage can't be shared (each of a big combat's orders looked through every way)
    for bars in itertools.combinations(range(amount + units - 1), units - 1):
        shares = tuple(b - a - 1 for a, b in zip((-1,) + bars, bars + (amount + units - 1,)))
        if units - shares.count(0) > 1:
            yield shares


def check_assignment(g: "Game", total: int, units: list[int], assignment: dict[int, int]) -> None:
    """Raise IllegalActionError unless the assignment follows 467.2.c."""
    if set(assignment) - set(units):
        raise IllegalActionError("damage may only be assigned to the other side's units", "467.2.c")
    if any((not isinstance(v, int)) or v < 0 for v in assignment.values()):
        raise IllegalActionError("assigned damage must be whole, non-negative amounts", "467.2.c")
    if sum(assignment.values()) != total:
        raise IllegalActionError(f"assign exactly {total} damage, not {sum(assignment.values())}", "467.2.c")
    grps = groups(g, units)
    need = {u: lethal(g, u) for grp in grps for u in grp}
    partial = [u for u in need if 0 < assignment.get(u, 0) < need[u]]
    short = [u for u in need if assignment.get(u, 0) < need[u]]
    if len(partial) > 1:
        raise IllegalActionError("each unit must be assigned lethal damage in full before the next gets any", "467.2.c.3")
    if short and any(assignment.get(u, 0) > need[u] for u in need):
        raise IllegalActionError("no unit may be assigned more than lethal while another still lacks it", "467.2.c.4")
    for i, grp in enumerate(grps):
        later = [u for later_grp in grps[i + 1:] for u in later_grp]
        if any(assignment.get(u, 0) > 0 for u in later) and any(assignment.get(u, 0) < need[u] for u in grp):
            rule = "815.1.b" if i == 0 and "first" in layers.hook_values(g, grp[0], "damage_assignment") else "826.3"
            raise IllegalActionError("Tank units must be assigned lethal damage first and Backline units last", rule)


def damage_step(g: "Game") -> None:
    s = g.state
    sd = s.showdown
    assert sd is not None
    attackers, defenders = _sides(g)
    if not attackers or not defenders:
        return
    for side, (own, other, player) in (("atk", (attackers, defenders, sd.attacker)),
                                        ("def", (defenders, attackers, sd.defender))):
        if _assigned(g, side) is not None:
            continue
        total = sum(layers.combat_might(g, u) for u in own)
        if total == 0:
            store_assignment(g, side, {})
            continue
        whole, options = assignment_options(g, total, other)
        if len(options) == 1:
            store_assignment(g, side, options[0])
            continue
        s.tasks.append(["combat_damage"])
        # "whole": agents choose among the options giving all of the excess to one unit
        s.decision = Decision("assign", player, f"assign {total} combat damage",
                              options=[{"label": _label(g, o), "value": {str(k): v for k, v in o.items()}}
                                       for o in options],
                              context={"side": side, "total": total, "units": other, "whole": len(whole)})
        return
    # excess damage is what was assigned beyond lethal, which counts damage already marked (467.2.c.4);
    # worked out before the damage is dealt, as the assignment was
    excess = _excess(g, _assigned(g, "atk") or {})
    dealt_any = False
    for side in ("atk", "def"):
        assignment = _assigned(g, side) or {}
        source_player = sd.attacker if side == "atk" else sd.defender
        for oid, amount in sorted(assignment.items()):
            if amount > 0:
                dealt = verbs.deal_damage(g, [oid], amount, NOWHERE, source_player, "combat")
                dealt_any = dealt_any or bool(dealt)
    g.emit("combat_damage", bf=sd.bf, attacker_excess=excess)
    g.record("excess_damage", sd.attacker, excess)
    _clear(g)


def _label(g: "Game", assignment: dict[int, int]) -> str:
    return ", ".join(f"{v} to {g.name(k)} #{k}" for k, v in sorted(assignment.items()) if v) or "nothing"


def _assigned(g: "Game", side: str) -> dict[int, int] | None:
    sd = g.state.showdown
    assert sd is not None
    found = sd.assignments.get(side)
    return None if found is None else {int(k): v for k, v in found.items()}


def store_assignment(g: "Game", side: str, assignment: dict[int, int]) -> None:
    """Record a side's assignment until both are made and dealt at once."""
    sd = g.state.showdown
    assert sd is not None
    sd.assignments[side] = {str(k): v for k, v in assignment.items()}


def _clear(g: "Game") -> None:
    sd = g.state.showdown
    assert sd is not None
    sd.assignments = {}


def _excess(g: "Game", assignment: dict[int, int]) -> int:
    """Damage assigned beyond lethal: ``lethal`` counts the damage a unit already has and its
    prevention, as the assignment rules do (467.2.c.3-4)."""
    return sum(max(0, amount - (lethal(g, oid) if g.obj(oid).zone == "board" else amount))
               for oid, amount in assignment.items())


def combat_cleanup(g: "Game", loc: int) -> None:
    """468: kill, heal all, recall attackers if both sides remain, establish control."""
    s = g.state
    sd = s.showdown
    lethal_units = [oid for oid in g.board_objects() if g.card(oid).type == "unit"
                    and g.obj(oid).damage > 0 and g.obj(oid).damage >= layers.might(g, oid)]
    verbs.kill(g, lethal_units, by="combat", lethal=True)
    verbs.heal_all(g)  # 468.1.a.1
    attacker = sd.attacker if sd else NOWHERE
    defender = sd.defender if sd else NOWHERE
    units = g.units_at(loc)
    present = {g.obj(u).controller for u in units}
    recalled = False
    if attacker in present and len(present) > 1:
        # 468.1.a.2; a replacement may change what the tie does (Symbol of the Solari: recall all)
        if not replacement.replace(g, "combat_end", NOWHERE, {"loc": loc, "bf": loc, "attacker": attacker}):
            verbs.recall(g, [u for u in units if g.obj(u).controller == attacker])
        recalled = True
    units = g.units_at(loc)
    present = {g.obj(u).controller for u in units}
    winner = NOWHERE
    if not recalled and len(present) == 1:
        (winner,) = present
    for oid in g.board_objects():
        g.obj(oid).designation = ""
    s.lasting = [lasting for lasting in s.lasting if lasting.duration != "this_combat"]  # 'this combat' ends
    bf = g.bf_at(loc)
    bf.contested_by = NOWHERE
    s.showdown = None
    g.emit("combat_end", bf=loc, winner=winner, attacker=attacker, defender=defender,
           result="win" if winner != NOWHERE else "no result", loc=loc)
    if winner != NOWHERE:
        # 468.3.a, Spiritforged FAQ: a combat is won by the player whose units alone remain there, on
        # offense or defense ("When I win a combat": a unit of theirs still there, like conquer)
        g.emit("win_combat", player=winner, loc=loc, bf=loc)
    if len(present) == 1:
        (player,) = present
        if bf.controller != player:
            # 468.5; designations are gone by now, so the event says the conqueror was the attacker
            scoring.establish_control(g, player, loc, by="attack" if player == attacker else "")
    elif not present and bf.controller != NOWHERE:
        g.emit("lose_control", bf=loc, player=bf.controller)
        scoring.set_controller(g, loc, NOWHERE)
    s.needs_cleanup = True


def fighting_might(g: "Game", oid: int, keyword: str) -> int:
    """A board unit's combat Might plus the value of a number keyword it has (Shield defending, Assault
    attacking: 814, 807), from one reading of its characteristics: what the greedy agent counts a unit
    bringing to a fight, for every unit of a board.  The same as ``layers.combat_might`` plus the keyword's
    value, since a hook an object has is in its characteristics (``layers.hook_in_play`` only spares reading them)."""
    found = layers.chars(g, oid)
    fights = 0 if g.state.objs[oid].stunned or "none" in found.hooks.get("combat_damage", ()) else max(0, found.might)
    value = found.keywords.get(keyword)
    return fights + value if isinstance(value, int) else fights
