"""What one player may see (hidden information stays hidden).

Hands and decks of other players show only their sizes; facedown cards show as hidden to
everyone but their controller (and a player an effect lets look at them, ``show_facedown``); deck
order is never shown.  A pending question's options, and the cards its step showed first (revealed,
or looked at by the one asked: ``loop.shown_before``, as codes), go to the player asked only.

An object the viewer can't see is never shown by its id (ids follow the decklist order, so an id
would tell which card it is): where one must be named - a facedown card in an observation, a
target in a legal action - it is written as a *handle*, ``"hidden-"`` and ten hex digits.  A
handle is a keyed hash of the viewer, the game's seed and only what the viewer knows anyway: for
a facedown card its battlefield, when it was hidden (the event count) and its place there; for a card in a hand
or a deck its zone, owner and position, and the number of events so far (so it is drawn anew after
every event, a shuffle or a draw included).  It therefore carries no information about the card,
two games that differ only in a hidden card give the same handles, and a card hidden again gets a
handle unrelated to the one it had.
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from . import verbs, layers, rng
from .effects import EffectContext
from .state import NOWHERE, is_battlefield

if TYPE_CHECKING:
    from .game import Game


def _card(g: "Game", oid: int) -> dict[str, Any]:
    obj = g.obj(oid)
    out: dict[str, Any] = {"id": oid, "code": obj.code, "name": g.name(oid), "controller": obj.controller}
    if obj.zone == "board" and g.card(oid).type == "unit":
        out.update(might=layers.might(g, oid), damage=obj.damage, exhausted=obj.exhausted, buffs=obj.buffs,
                   stunned=obj.stunned, designation=obj.designation,
                   keywords=sorted(layers.chars(g, oid).keywords))
    elif obj.zone in ("board", "runes", "legend"):
        out["exhausted"] = obj.exhausted
    return out


def observation(g: "Game", viewer: int) -> dict[str, Any]:
    s = g.state
    players = []
    for p in s.players:
        mine = p.index == viewer
        players.append({
            "index": p.index, "name": p.name, "points": p.points, "xp": p.xp,
            "pool": {"energy": p.energy, "power": dict(p.power)},
            "hand": [_card(g, c) for c in p.hand] if mine else len(p.hand),
            "main_deck": len(p.main_deck), "rune_deck": len(p.rune_deck),
            "trash": [_card(g, c) for c in p.trash],
            "runes": [_card(g, r) for r in p.runes],
            "champion": [_card(g, c) for c in p.champion],
            "legend": _card(g, p.legend) if p.legend != NOWHERE else None,  # built positions may have none
            "base": [_card(g, c) for c in p.base],
            "conceded": p.conceded, "removed": len(p.removed),  # left the game (concession.concede)
        })
    battlefields = []
    for bf in s.battlefields:
        battlefields.append({
            "loc": bf.loc, "card": _card(g, bf.card), "controller": bf.controller,
            "units": [_card(g, c) for c in bf.here],
            "facedown": [(_card(g, c) if visible(g, viewer, c) else {"id": handle(g, viewer, c), "hidden": True})
                         for c in bf.facedown],
        })
    d = s.decision
    return {
        "viewer": viewer, "turn": s.turn, "turn_player": s.turn_player, "phase": s.phase, "step": s.step,
        "players": players, "battlefields": battlefields,
        "chain": [{"id": i.id, "kind": i.kind, "controller": i.controller, "card": _card(g, i.obj)} for i in s.chain],
        "showdown": None if s.showdown is None else {"bf": s.showdown.bf, "combat": s.showdown.combat,
                                                       "attacker": s.showdown.attacker,
                                                       "defender": s.showdown.defender, "focus": s.showdown.focus},
        "decision": None if d is None else {"kind": d.kind, "player": d.player, "prompt": d.prompt,
                                            "options": d.options if d.player == viewer else len(d.options),
                                            # what the step revealed, or let the decider look at, before asking
                                            "shown": d.context.get("shown", []) if d.player == viewer else []},
        "winners": s.winners,
        "at_battlefield": {c: is_battlefield(g.obj(c).loc) for bf in s.battlefields for c in bf.here},
    }


# ---------------------------------------------------------------------- handles
_PRIVATE = frozenset({"hand", "set_aside", "removed"})  # seen by their owner only
_SECRET = frozenset({"main_deck", "rune_deck"})  # seen by nobody


def visible(g: "Game", viewer: int, oid: int) -> bool:
    """Whether the viewer may know which card the object is."""
    obj = g.state.objs[oid]
    zone = obj.zone
    if zone == "facedown":
        return obj.controller == viewer or obj.controller in facedown_shown_to(g, viewer)
    if zone in _PRIVATE:
        return obj.owner == viewer
    return zone not in _SECRET


def hidden_from(g: "Game", viewer: int) -> set[int]:
    """Every object the viewer can't see."""
    s = g.state
    out: set[int] = set()
    for p in s.players:
        out.update(p.main_deck)
        out.update(p.rune_deck)
        if p.index != viewer:
            out.update(p.hand)
            out.update(p.removed)
            out.update(oid for oid in p.battlefields_owned if s.objs[oid].zone == "set_aside")
    shown = facedown_shown_to(g, viewer) if any(bf.facedown for bf in s.battlefields) else set()
    for bf in s.battlefields:
        out.update(oid for oid in bf.facedown if s.objs[oid].controller != viewer
                   and s.objs[oid].controller not in shown)
    return out


def handle(g: "Game", viewer: int, oid: int) -> str:
    """The viewer's name for an object they can't see (see the module's docstring)."""
    s = g.state
    obj = s.objs[oid]
    where: tuple[Any, ...]
    if obj.zone == "facedown":
        where = ("facedown", obj.loc, obj.timestamp, g.bf_at(obj.loc).facedown.index(oid))
    else:
        held = g.zone_list(obj)
        if held is None and obj.zone == "set_aside":
            held = s.players[obj.owner].battlefields_owned
        position = held.index(oid) if held is not None and oid in held else -1
        where = (obj.zone, obj.owner, position, s.log_count)
    key = rng.seed_state(s.seed).to_bytes(8, "little")
    digest = hashlib.blake2b(repr((viewer, where)).encode(), key=key, digest_size=5).hexdigest()
    return "hidden-" + digest


def facedown_shown_to(g: "Game", viewer: int) -> set[int]:
    """The players whose facedown cards the viewer may look at: the players a show_facedown modifier
    of the viewer's covers (a created effect for the rest of a turn; 811: hidden cards are
    seen by their controller alone otherwise)."""
    out: set[int] = set()
    for _, src, ability in layers.active_modifiers(g, "show_facedown"):
        if g.obj(src).controller == viewer:
            out.update(EffectContext(g, viewer, src).resolve(ability.body.get("affects", "you")))
    for lasting in layers.lasting_with(g, "show_facedown"):
        if lasting.kind == "static" and lasting.controller == viewer:
            out.update(lasting.affects if lasting.affects is not None else layers.lasting_selection(g, lasting))
    out.discard(viewer)
    return out
