"""What one player may see (hidden information stays hidden).

Hands and decks of other players show only their sizes; facedown cards show as hidden to
everyone but their controller; deck order is never shown.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import layers
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
            "conceded": p.conceded, "removed": len(p.removed),  # left the game (decisions.concede)
        })
    battlefields = []
    for bf in s.battlefields:
        battlefields.append({
            "loc": bf.loc, "card": _card(g, bf.card), "controller": bf.controller,
            "units": [_card(g, c) for c in bf.here],
            "facedown": [(_card(g, c) if g.obj(c).controller == viewer else {"id": c, "hidden": True})
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
                                            "options": d.options if d.player == viewer else len(d.options)},
        "winners": s.winners,
        "at_battlefield": {c: is_battlefield(g.obj(c).loc) for bf in s.battlefields for c in bf.here},
    }
