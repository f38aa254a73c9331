"""Positions several test modules start from."""
from __future__ import annotations

from riftscript.core.engine.builder import Builder
from riftscript.core.engine.game import Game
from riftscript.core.script.catalog import Catalog


def promising_future_choice(catalog: Catalog) -> Game:
    """A built position (no log to replay) waiting on A's choice while Promising Future (OGN-115) resolves:
    each player looks at their top 5 and banishes one, so the question carries the cards A looked at
    (OGN-088 then four OGN-175; B's top 5 are OGN-142 then four OGN-096)."""
    b = Builder(catalog)
    future = b.hand(0, ["OGN-115"])[0]
    b.runes(0, ["OGN-089"] * 6)
    b.deck(0, ["OGN-088", "OGN-175", "OGN-175", "OGN-175", "OGN-175", "OGN-096"])
    b.deck(1, ["OGN-142", "OGN-096", "OGN-096", "OGN-096", "OGN-096", "OGN-175"])
    b.at_turn(0, "main")
    g, ids = b.build()
    g.apply(next(a for a in g.legal_actions() if a["type"] == "play" and a["card"] == ids[future]))
    while g.pending_decision().kind == "priority":  # type: ignore[union-attr]
        g.apply(next(a for a in g.legal_actions() if a["type"] == "pass"))
    return g
