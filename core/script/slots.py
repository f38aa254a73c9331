"""The target slots of a script: a tuple of selections with facts worked out as it is made.

Apart from ``cards.py`` because a class inheriting a built-in type can't be compiled, and setup.py
compiles the card definitions (``cards.py``) with the engine.
"""
from __future__ import annotations

from typing import Any, Iterable

Json = dict[str, Any]


class TargetSlots(tuple[Json, ...]):
    """The 'pick: target' selections of a spell or an ability, in slot order, with what targeting
    asks of them worked out once as the tuple is made (by the compiler for every script; by
    ``targeting`` for a slot list made at run time).  Immutable, so the facts can't go stale; the
    selections inside are the compiled script's own and must not be changed either."""

    facedown: tuple[bool, ...]  # per slot: it may pick facedown cards (they are off the board)
    dependent: bool  # a later slot's choices depend on earlier targets ("an enemy unit there", 355)
    linked: tuple[int, ...]  # the later slots that refer to earlier targets (distinct_from)
    moves: tuple[tuple[int, int], ...]  # (unit slot, destination slot) of moves whose destination is chosen

    def __new__(cls, selections: Iterable[Json] = ()) -> "TargetSlots":
        self = super().__new__(cls, selections)
        self.facedown = tuple(_mentions_facedown(sel) for sel in self)
        self.dependent = any(_depends_on_targets(sel) for sel in self[1:])
        self.linked = tuple(i for i, sel in enumerate(self) if i and "distinct_from" in repr(sel))
        self.moves = tuple((int(sel["_move_of"]), int(sel["_slot"])) for sel in self if sel.get("_move_of") is not None)
        return self


def _mentions_facedown(node: Any) -> bool:
    """Whether a selection may pick facedown cards ("a friendly gear, unit or facedown card")."""
    if isinstance(node, dict):
        return "facedown" in node or any(_mentions_facedown(v) for k, v in node.items() if k in ("where", "any_of"))
    if isinstance(node, list):
        return any(_mentions_facedown(v) for v in node)
    return False


def _depends_on_targets(sel: Json) -> bool:
    """Whether a slot's choices depend on earlier targets ('an enemy unit there', 'units at the
    chosen battlefield'): its selection refers to 'target' or holds a target selection."""
    stack: list[Any] = [v for k, v in sel.items() if k != "_slot"]
    while stack:
        node = stack.pop()
        if node == "target" or (isinstance(node, dict) and "_slot" in node):
            return True
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False
