"""Fixed-size encodings of a player's legal actions and of what the player sees.

Actions: one index per kind of action and *slot*, so an index means the same kind of thing in every
position.  Slots are the player's cards that can be played (``card_slots``: hand, champion zone, own
facedown cards, in that order) and the player's objects on the board (``board_slots``: legend, then
the base and the battlefields in order); locations are 0 for the player's base and 1 + i for
battlefield i.

================  =========================================  =====================================
indexes           action                                     detail
================  =========================================  =====================================
0                 pass or end the turn                       whichever is legal
1                 invite the teammate (2v2, 491.8.a)
2 + k             option k of any other decision             mulligan, choose, order, targets,
                                                             assign, showdown, battlefield,
                                                             turn order: the k-th legal action
PLAY + 8c + v     play card slot c, its v-th legal variant   variants differ in location, modes,
                                                             targets, optional and 'pay with' costs
ACTIVATE + 4b + v activate board slot b, v-th legal variant  ability, modes and targets
MOVE + 5b + l     move the unit in board slot b to location l
MOVE_ALL + l      move every unit that can go to location l
HIDE + 8c + 2i + a  hide card slot c at battlefield i        a = 1: with the alternative hide cost
================  =========================================  =====================================

Limits: at most 64 options, 16 card slots, 24 board slots, 4 battlefields, 8 play variants and 4
activation variants per slot; a legal action beyond these (or a second one mapping to an index
already taken) is left out of the mask, so an agent using the encoding can't take it.  Rune
abilities and other Add abilities are left out too: paying a cost uses them by itself.  Every legal
action reachable through the mask is exactly one legal action of ``Game.legal_actions()``.

The observation vector (``OBS_SIZE`` floats in [0, 1]) describes the game as the player sees it:
the turn and decision, then per seat (starting with the observer) points, pools and zone sizes, per
battlefield who controls it and the Might on it, per card slot the card's cost, Might and type, per
board slot the object's state.  The observer's hidden information (others' hands, every deck's
order, others' facedown cards) is never read, except as counts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from riftscript.core.engine import decisions, layers
from riftscript.core.engine.state import BF0, NOWHERE, PHASES, is_battlefield

if TYPE_CHECKING:
    from riftscript.core.engine.game import Game

from riftscript.core.engine.vocabulary import Action  # noqa: E402 - the API's action type

MAX_OPTIONS = 64
MAX_CARDS = 16
MAX_BOARD = 24
MAX_BATTLEFIELDS = 4
MAX_LOCATIONS = 1 + MAX_BATTLEFIELDS
MAX_PLAYERS = 4
PLAY_VARIANTS = 8
ACTIVATE_VARIANTS = 4

DONE = 0
INVITE = 1
CHOOSE = 2
PLAY = CHOOSE + MAX_OPTIONS
ACTIVATE = PLAY + MAX_CARDS * PLAY_VARIANTS
MOVE = ACTIVATE + MAX_BOARD * ACTIVATE_VARIANTS
MOVE_ALL = MOVE + MAX_BOARD * MAX_LOCATIONS
HIDE = MOVE_ALL + MAX_LOCATIONS
ACTION_SIZE = HIDE + MAX_CARDS * MAX_BATTLEFIELDS * 2

DECISION_KINDS = ("priority", "mulligan", "choose", "order", "targets", "assign", "showdown", "battlefield",
                  "turn_order")
CARD_TYPES = ("unit", "spell", "gear")
GLOBAL_SIZE = 4 + len(PHASES) + len(DECISION_KINDS)
PLAYER_SIZE = 14
BATTLEFIELD_SIZE = 10
CARD_SIZE = 5 + len(CARD_TYPES) + 3
BOARD_SIZE = 9 + MAX_BATTLEFIELDS
OBS_SIZE = (GLOBAL_SIZE + MAX_PLAYERS * PLAYER_SIZE + MAX_BATTLEFIELDS * BATTLEFIELD_SIZE
            + MAX_CARDS * CARD_SIZE + MAX_BOARD * BOARD_SIZE)


def card_slots(g: "Game", player: int) -> list[int]:
    """The cards the player could play, in slot order: hand, champion zone, own facedown cards."""
    s = g.state
    p = s.players[player]
    return (list(p.hand) + list(p.champion)
            + [oid for bf in s.battlefields for oid in bf.facedown if s.objs[oid].controller == player])[:MAX_CARDS]


def board_slots(g: "Game", player: int) -> list[int]:
    """The player's legend, then its objects on the board (base, then battlefields), in slot order."""
    s = g.state
    legend = [s.players[player].legend] if s.players[player].legend != NOWHERE else []
    return (legend + [oid for oid in g.board_objects() if s.objs[oid].controller == player])[:MAX_BOARD]


def location_index(player: int, loc: int) -> int:
    """0 for the player's base, 1 + i for battlefield i (-1 for anything else)."""
    if is_battlefield(loc):
        return 1 + loc - BF0 if loc - BF0 < MAX_BATTLEFIELDS else -1
    return 0 if loc == player else -1


def encode_actions(g: "Game", player: int, actions: list[Action]) -> dict[int, Action]:
    """Each reachable index and the legal action it stands for (the mask is its keys)."""
    decision = g.state.decision
    table: dict[int, Action] = {}
    if decision is None:
        return table
    if decision.kind != "priority":
        for k, action in enumerate(actions[:MAX_OPTIONS]):
            table[CHOOSE + k] = action
        return table
    cards = {oid: i for i, oid in enumerate(card_slots(g, player))}
    board = {oid: i for i, oid in enumerate(board_slots(g, player))}
    variants: dict[tuple[str, int], int] = {}
    for action in actions:
        kind = action["type"]
        index = -1
        if kind in ("pass", "end_turn"):
            index = DONE
        elif kind == "invite":
            index = INVITE
        elif kind == "play" and action["card"] in cards:
            slot = cards[action["card"]]
            v = variants[(kind, slot)] = variants.get((kind, slot), -1) + 1
            index = PLAY + slot * PLAY_VARIANTS + v if v < PLAY_VARIANTS else -1
        elif kind == "activate" and action["source"] in board and not decisions.is_resource_action(g, action):
            slot = board[action["source"]]
            v = variants[(kind, slot)] = variants.get((kind, slot), -1) + 1
            index = ACTIVATE + slot * ACTIVATE_VARIANTS + v if v < ACTIVATE_VARIANTS else -1
        elif kind == "move":
            where = location_index(player, int(action["to"]))
            units = action["units"]
            if where < 0:
                index = -1
            elif len(units) == 1 and units[0] in board:
                index = MOVE + board[units[0]] * MAX_LOCATIONS + where
            elif len(units) > 1:
                index = MOVE_ALL + where
        elif kind == "hide" and action["card"] in cards:
            where = location_index(player, int(action["battlefield"])) - 1
            if 0 <= where < MAX_BATTLEFIELDS:
                alternative = 1 if "hide_cost" in action.get("costs", []) else 0
                index = HIDE + cards[action["card"]] * MAX_BATTLEFIELDS * 2 + where * 2 + alternative
        if index >= 0 and index not in table:
            table[index] = action
    return table


def action_mask(table: dict[int, Action]) -> np.ndarray:
    mask = np.zeros(ACTION_SIZE, dtype=np.int8)
    for index in table:
        mask[index] = 1
    return mask


def _unit(value: float, scale: float) -> float:
    return min(1.0, max(0.0, value / scale))


def observe(g: "Game", viewer: int, legal: list[Action] | None = None) -> np.ndarray:
    """The observation vector of ``viewer`` (see the module's description); ``legal``, the viewer's
    legal actions when it is deciding, marks the cards it can play."""
    s = g.state
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    d = s.decision
    values: list[float] = [_unit(s.turn, 50), float(s.turn_player == viewer), float(d is not None and d.player == viewer),
                           _unit(len(s.chain), 10)]
    values += [float(s.phase == phase) for phase in PHASES]
    values += [float(d is not None and d.kind == kind) for kind in DECISION_KINDS]
    k = 0
    out[k:k + GLOBAL_SIZE] = values
    k += GLOBAL_SIZE
    n = len(s.players)
    seats = [(viewer + i) % n for i in range(n)]
    objs, defs = s.objs, g.defs
    for seat in seats[:MAX_PLAYERS]:
        p = s.players[seat]
        units = [oid for oid in g.board_objects() if objs[oid].controller == seat and defs[objs[oid].code].type == "unit"]
        values = [1.0, _unit(p.points, max(1, s.victory_score)), _unit(p.energy, 12), _unit(sum(p.power.values()), 6),
                  _unit(len(p.hand), 12), _unit(len(p.main_deck), 40), _unit(len(p.rune_deck), 12),
                  _unit(sum(1 for r in p.runes if not objs[r].exhausted), 12), _unit(len(p.runes), 12),
                  _unit(len(p.trash), 40), _unit(len(units), 12),
                  _unit(sum(max(0, layers.might(g, u)) for u in units), 40),
                  float(g.friendly(seat, viewer)), float(p.conceded)]
        out[k:k + PLAYER_SIZE] = values
        k += PLAYER_SIZE
    k = GLOBAL_SIZE + MAX_PLAYERS * PLAYER_SIZE
    for bf in s.battlefields[:MAX_BATTLEFIELDS]:
        here = [u for u in bf.here if defs[objs[u].code].type == "unit" and objs[u].attached_to == NOWHERE]
        mine = [u for u in here if g.friendly(objs[u].controller, viewer)]
        theirs = [u for u in here if not g.friendly(objs[u].controller, viewer)]
        values = [1.0, float(bf.controller != NOWHERE and g.friendly(bf.controller, viewer)),
                  float(bf.controller != NOWHERE and not g.friendly(bf.controller, viewer)),
                  _unit(sum(max(0, layers.might(g, u)) for u in mine), 20),
                  _unit(sum(max(0, layers.might(g, u)) for u in theirs), 20),
                  _unit(len(mine), 8), _unit(len(theirs), 8),
                  _unit(sum(1 for c in bf.facedown if objs[c].controller == viewer), 2),
                  _unit(sum(1 for c in bf.facedown if objs[c].controller != viewer), 2),
                  float(s.showdown is not None and s.showdown.bf == bf.loc)]
        out[k:k + BATTLEFIELD_SIZE] = values
        k += BATTLEFIELD_SIZE
    k = GLOBAL_SIZE + MAX_PLAYERS * PLAYER_SIZE + MAX_BATTLEFIELDS * BATTLEFIELD_SIZE
    playable = {a["card"] for a in legal or [] if a["type"] == "play"}
    for oid in card_slots(g, viewer):
        card = defs[objs[oid].code]
        zone = objs[oid].zone
        values = [1.0, _unit(card.energy, 12), _unit(len(card.power), 4), _unit(card.might, 12),
                  float(oid in playable)]
        values += [float(card.type == t) for t in CARD_TYPES]
        values += [float(zone == "hand"), float(zone == "champion"), float(zone == "facedown")]
        out[k:k + CARD_SIZE] = values
        k += CARD_SIZE
    k = OBS_SIZE - MAX_BOARD * BOARD_SIZE
    for oid in board_slots(g, viewer):
        obj = objs[oid]
        card = defs[obj.code]
        unit = card.type == "unit" and obj.zone == "board"
        at = location_index(viewer, obj.loc) if obj.zone == "board" else -1
        values = [1.0, float(card.type == "legend"), float(card.type == "unit"), float(card.type == "gear"),
                  _unit(layers.might(g, oid), 12) if unit else 0.0, _unit(obj.damage, 12), float(obj.exhausted),
                  float(obj.stunned), float(at == 0)]
        values += [float(at == 1 + i) for i in range(MAX_BATTLEFIELDS)]
        out[k:k + BOARD_SIZE] = values
        k += BOARD_SIZE
    return out
