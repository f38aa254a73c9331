"""The standard move (144) and where units may go (448-460).

A standard move exhausts each unit as its cost (144.2), in the turn player's Main Phase outside
showdowns with an empty chain (144.1), from base to a battlefield or back (144.4.a-b), and between
battlefields with Ganking (810).  Several units may move together to one destination (144.3).
Moves don't use the chain (448.3.c).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import layers, payment, verbs
from ..errors import IllegalActionError
from .state import NOWHERE, is_battlefield

if TYPE_CHECKING:
    from .game import Game


def can_move_to(g: "Game", oid: int, dest: int, no_base: set[int] | None = None,
                no_move: set[int] | None = None) -> bool:
    """Whether a standard move may take the unit there; ``no_base`` is the units that
    ``kept_from_base`` says can't move to base, and ``no_move`` those a "can't move" restriction covers,
    when the caller has them already."""
    obj = g.obj(oid)
    if obj.loc == dest:
        return False
    from_bf, to_bf = is_battlefield(obj.loc), is_battlefield(dest)
    if from_bf and to_bf:
        if "battlefield_to_battlefield" not in layers.hook_values(g, oid, "standard_move") and \
                "anywhere" not in layers.hook_values(g, g.bf_at(dest).card, "move_here_from"):
            return False  # 144.4 / 810 (Ganking); a battlefield "units can move here from anywhere"
    elif not to_bf and dest != obj.controller:
        return False
    if not from_bf and not to_bf:
        return False
    if from_bf and not to_bf:
        if no_base is None:
            no_base = kept_from_base(g)
        if oid in no_base:
            return False
    blocked = oid in no_move if no_move is not None else bool(layers.restrictions_on(g, "no_move", unit=oid))
    if blocked:
        return False  # "They can't move it this turn": no standard move
    return True


def move_refusal(g: "Game", oid: int, dest: int) -> tuple[str, str] | None:
    """Why an effect can't move the unit to ``dest`` now, as (why, rule), or None: the one definition
    that both a move destination chosen as a card is played (355.4: no choice may knowingly lead to an
    action that can't happen) and the move itself as it resolves (``move_units``) follow."""
    obj = g.obj(oid)
    if obj.zone == "board" and obj.loc == dest:
        return "a move's destination must be somewhere other than where the unit is", "355.4"
    if not is_battlefield(dest) and dest != obj.controller:
        return "units are moved only to their controller's base or a battlefield", "144.4"
    if obj.zone == "board" and is_battlefield(obj.loc) and not is_battlefield(dest) and oid in kept_from_base(g):
        return f"{g.name(oid)} can't move to base", "171"
    if is_battlefield(dest) and teammate_occupies(g, dest, obj.controller):
        return "no move takes units to a battlefield their controller's teammate occupies", "449.2.b"
    if is_battlefield(dest) and not can_enter(g, dest, obj.controller):
        if in_others_combat(g, dest, obj.controller) and \
                len({g.obj(u).controller for u in g.units_at(dest)} - {obj.controller}) < 2:
            return "no move takes units to a battlefield with a combat or showdown its controller isn't in", "449.2.a"
        return "no move takes units to a battlefield holding units of two other players", "451.2"
    return None


def kept_from_base(g: "Game") -> set[int]:
    """The units a 'can't move to base' restriction covers, as its 'affects' says (Vilemaw's Lair:
    units here)."""
    return {oid for mod, src, covered in layers.restricted(g, "cant_move_to_base") for oid in covered}


def destinations(g: "Game", player: int) -> dict[int, list[int]]:
    """For each destination, the units that could make a standard move there now."""
    s = g.state
    out: dict[int, list[int]] = {}
    if s.step != "main" or s.chain or s.showdown is not None or s.turn_player != player:
        return out
    objs, defs = s.objs, g.defs
    units = [oid for oid in g.board_objects()
             if objs[oid].controller == player and defs[objs[oid].code].type == "unit" and not objs[oid].exhausted]
    targets = [player] + [bf.loc for bf in s.battlefields if can_enter(g, bf.loc, player)]
    # asked once here instead of for every unit that could leave a battlefield for its base
    no_base = kept_from_base(g) if any(is_battlefield(g.obj(u).loc) for u in units) else set()
    no_move = {u for u in units if layers.restrictions_on(g, "no_move", unit=u)}  # once a unit, not a destination
    for dest in targets:
        movers = [u for u in units if can_move_to(g, u, dest, no_base, no_move)]
        if movers:
            out[dest] = movers
    return out


def check_move(g: "Game", player: int, action: dict[str, Any]) -> tuple[list[int], int]:
    s = g.state
    units = action.get("units")
    dest = action.get("to")
    if not isinstance(units, list) or not units or not isinstance(dest, int):
        raise IllegalActionError("a move names one or more units and a destination")
    if len(set(units)) != len(units):
        raise IllegalActionError("a unit can be named only once in a move")
    if s.turn_player != player or s.step != "main":
        raise IllegalActionError("the standard move is only possible in your Main Phase", "144.1.a")
    if s.showdown is not None:
        raise IllegalActionError("no standard moves during a showdown or combat", "144.1.c")
    if s.chain:
        raise IllegalActionError("no standard moves while the chain is closed", "144.1.a")
    valid_dest = dest == player or any(bf.loc == dest for bf in s.battlefields)
    if not valid_dest:
        raise IllegalActionError(f"{dest} is not your base or a battlefield", "144.4")
    for oid in units:
        if not isinstance(oid, int) or oid not in s.objs:
            raise IllegalActionError(f"no unit #{oid}")
        obj = g.obj(oid)
        if obj.zone != "board" or g.card(oid).type != "unit":
            raise IllegalActionError(f"{g.name(oid)} is not a unit on the board")
        if obj.controller != player:
            # 491.8.c: control isn't shared, so not even a teammate's unit gets your standard move
            raise IllegalActionError(f"you don't control {g.name(oid)}",
                                     "491.8.c" if g.friendly(obj.controller, player) else None)
        if obj.exhausted:
            raise IllegalActionError(f"{g.name(oid)} is exhausted; exhausting it is the cost of moving", "144.2")
        if not can_move_to(g, oid, dest):
            if is_battlefield(obj.loc) and is_battlefield(dest):
                raise IllegalActionError(f"{g.name(oid)} can't move between battlefields without Ganking", "144.4.c")
            raise IllegalActionError(f"{g.name(oid)} can't move there", "144.4")
    if is_battlefield(dest) and teammate_occupies(g, dest, player):
        raise IllegalActionError("your teammate's units are at that battlefield; you can't move there", "449.2.b")
    if is_battlefield(dest) and not can_enter(g, dest, player):
        raise IllegalActionError("that battlefield already holds units of two other players", "451.2")
    tax = move_tax(g, player, units, dest)
    if tax and payment.plan_payment(g, player, payment.Cost(0, [payment.ANY] * tax)) is None:
        raise IllegalActionError(f"moving {len(units)} units there together costs {tax} power of any domain")
    return units, dest


def move_tax(g: "Game", player: int, units: list[int], dest: int) -> int:
    """Power of any domain a player must pay to move several units to a battlefield at once: each enemy
    unit there with the hook move_tax asks that much for each unit beyond the first (Mageseeker Investigator's
    toll on opponents moving several units there at once)."""
    if len(units) < 2 or not is_battlefield(dest):
        return 0
    return sum(int(v) * (len(units) - 1) for u in g.units_at(dest) if not g.friendly(g.obj(u).controller, player)
               for v in layers.hook_values(g, u, "move_tax"))


def standard_move(g: "Game", player: int, units: list[int], dest: int) -> None:
    tax = move_tax(g, player, units, dest)
    if tax:
        plan = payment.plan_payment(g, player, payment.Cost(0, [payment.ANY] * tax))
        if plan is not None:
            payment.pay(g, player, plan)
    for oid in units:
        g.obj(oid).exhausted = True  # 144.2: the cost
    g.emit_event({"n": 0, "t": "standard_move", "player": player, "units": units, "to": dest})
    move_units(g, units, dest, player, standard=True)


def move_units(g: "Game", ids: list[int], to: int, player: int, standard: bool = False) -> list[int]:
    """Move units (448-455); a move to a destination it can't go becomes a recall (449.2.c)."""
    moved: list[int] = []
    for oid in ids:
        obj = g.obj(oid)
        if obj.zone != "board" or obj.loc == to:
            continue
        dest = to
        if not is_battlefield(dest) and dest != obj.controller:
            dest = obj.controller  # units are never moved to another player's base
        refusal = move_refusal(g, oid, dest)  # the same rules as a destination chosen as a card is played
        if refusal is not None:
            # "can't move from here to base" stops every move, not only the standard one (171); a
            # battlefield the unit can't enter recalls it instead (449.2.c)
            if refusal[1] in ("449.2.a", "449.2.b", "451.2"):
                verbs.recall(g, [oid])
            continue
        if not standard and not g.friendly(obj.controller, player) \
                and "friendly_only" in layers.hook_values(g, oid, "moved_by"):
            continue  # "I can't be moved by enemy spells and abilities"
        origin = obj.loc
        carried = layers.attached_to(g, oid)
        g.place(oid, "board", dest)
        verbs.carry_attached(g, oid, carried)
        obj.moves_this_turn += 1
        if not is_battlefield(dest):
            obj.designation = ""
        g.remember("moved_by", player, oid, loc=dest)  # "when you move an enemy unit": read as it triggers
        g.emit_event({"n": 0, "t": "move", "obj": oid, "player": obj.controller, "from": origin, "to": dest,
                      "standard": standard, "nth": obj.moves_this_turn})
        g.remember("move", obj.controller, oid, loc=dest)
        moved.append(oid)
        if is_battlefield(dest):
            verbs.contest(g, dest, obj.controller)
    if moved:
        g.emit_event({"n": 0, "t": "move_done", "player": player, "units": moved, "to": to})
        g.state.needs_cleanup = True  # 322: after a move
    return moved


def can_enter(g: "Game", loc: int, player: int, units: bool = True) -> bool:
    """451.2: no move takes units to a battlefield holding units of two other players; 449.2.b: nor
    (for units; ``units=False`` asks for gear) to one the player's teammate occupies."""
    if len(g.state.players) > 2:  # with two players, no other two players' units can be there
        objs = g.state.objs
        others = {objs[u].controller for u in g.units_at(loc)} - {player}
        if len(others) >= 2:
            return False
    return not in_others_combat(g, loc, player) and not (units and teammate_occupies(g, loc, player))


def teammate_occupies(g: "Game", loc: int, player: int) -> bool:
    """449.2.b, 491.8.c: in 2v2 a battlefield with units of the player's teammate is closed to the
    player's units (control isn't shared, so teammates never stand at one battlefield together)."""
    if not g.spec.teams:
        return False
    return any(g.obj(u).controller != player and g.friendly(g.obj(u).controller, player) for u in g.units_at(loc))


def in_others_combat(g: "Game", loc: int, player: int) -> bool:
    """449.2.a, 464.1: with more than two players, a battlefield with an ongoing combat or a showdown
    of two players is off-limits to players who aren't in it (a staged one holds both sides' units,
    which 451.2 already covers)."""
    sd = g.state.showdown
    if sd is None or sd.bf != loc:
        return False
    if sd.combat:
        return player not in (sd.attacker, sd.defender)
    # 464, 464.1: a showdown not yet a combat belongs to the player who contested (they stay its contester
    # even after their units leave) and to whoever else has units there; once that is two players, a
    # third can't come in until every player has passed in a row (ruling:no-third-player-into-showdown)
    party = {p for p in {sd.attacker} | {g.obj(u).controller for u in g.units_at(loc)}
             if p != NOWHERE and not g.state.players[p].conceded}  # a player who left the game is in nothing
    return player not in party and len(party) >= 2
