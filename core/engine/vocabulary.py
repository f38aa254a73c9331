"""What crosses the public API as JSON, as types: the player actions ``Game.legal_actions`` lists and
``Game.apply`` takes (``Action``), and the event rows of the log and the observation (``Event``).

Actions are a closed vocabulary (``schemas/action.schema.json`` gives each type its keys), so they
are a ``TypedDict``.  Events are not typed field by field, on purpose: their vocabulary is open -
a plugin's effects emit events of their own with fields of their own, and scripts name the event
fields they read (``when: {event: ..., where: ...}``), so the engine reads events by names it only
learns from scripts.  A ``TypedDict`` (Python 3.11 has no open ones: PEP 728) would refuse a
plugin's fields and every read by a name held in a variable; so an event is a ``dict`` whose
``n`` (its number in the log) and ``t`` (its type) every event has (``events.py``).
"""
# no ``from __future__ import annotations``: the keys' types are read at run time (``Required``)
from typing import Any, Literal, Required, TypedDict, Union

# The action types (core/engine/decisions.py lists, checks and performs each)
ActionKind = Literal["play", "activate", "move", "hide", "pass", "end_turn", "invite", "concede", "mulligan",
                     "choose", "order", "targets", "assign"]
# an object's id, or a handle for one the deciding player can't see (core/engine/observe.py)
Target = Union[int, str]


class PayWith(TypedDict, total=False):
    """The objects an action pays a cost with beyond energy and power, by how (one id or a list)."""

    kill: int | list[int]
    exhaust: int | list[int]
    spend_buff: int | list[int]
    discard: int | list[int]
    recycle_from_trash: int | list[int]
    recycle: int | list[int]
    return_to_hand: int | list[int]


class Action(TypedDict, total=False):
    """A player action as it crosses the API: a JSON object whose ``type`` says which of the other
    keys it has, exactly as ``schemas/action.schema.json`` says (``Game.apply`` checks that at run
    time, since an action may come from anywhere).  One flat record for every type, so that
    ``action.get("card")`` type-checks without first narrowing ``type``; the keys of each type:

    - play: ``card``, and ``targets`` (one list per target slot), ``costs`` (optional costs paid, by
      name), ``location``, ``pay_with``, ``mode``;
    - activate: ``source``, and ``ability`` (its index), ``targets``, ``pay_with``, ``mode``;
    - ``mode`` (play, activate): a "Choose one —" spell's or ability's modes, chosen as it is played or
      activated (engine notes, playing a card, step 2; 355): the indexes of the options chosen, in the
      card's order; the target slots of the options not chosen are ``[]`` (``targeting.Modes``);
    - move: ``units``, ``to``; hide: ``card``, ``battlefield``, and ``costs``;
    - pass, end_turn: nothing else; invite: ``teammate``; concede: ``player``;
    - mulligan: ``cards`` (to set aside); choose: ``value`` (one of the options' values); order:
      ``order`` (the triggers' indexes); targets: ``targets``, and ``mode`` for a "Choose one —"
      trigger (chosen as it is put on the chain); assign: ``damage`` (an object's id as a string ->
      the damage it is dealt).
    """

    type: Required[ActionKind]
    card: int
    targets: list[list[Target]]
    mode: list[int]
    costs: list[str]
    location: int
    pay_with: PayWith
    source: int
    ability: int
    units: list[int]
    to: int
    battlefield: int
    teammate: int
    player: int
    cards: list[int]
    value: Any
    order: list[int]
    damage: dict[str, int]


# An action inside the engine: a plain dict of the same shape, objects hidden from the player as their
# ids (``offer.resolve``), or listed before the player's view is put on it (``offer.to_player``).  Here,
# not in ``offer``, so that ``decisions`` can name it without importing ``offer`` first: whichever engine
# module is imported first, the pair {decisions, offer} initialises.
EngineAction = dict[str, Any]


class ModeTargets(list[list[int]]):
    """A choice of targets that goes with a choice of modes (``mode``, the options' indexes), as the
    listing of legal actions makes it (``targeting.with_mode`` puts both in the action).  Here, with the
    types, because a class inheriting a built-in type can't be compiled (setup.py compiles targeting)."""

    mode: list[int]

    def __init__(self, targets: list[list[int]], mode: list[int]) -> None:
        super().__init__(targets)
        self.mode = mode
