"""Built-in modes of play, registered like any third-party mode."""
from __future__ import annotations

from riftscript.core.hookspecs import hookimpl
from riftscript.core.registry import ModeSpec


@hookimpl
def riftscript_modes() -> list[ModeSpec]:
    return [
        # 487: two players, Victory Score 8, each player's battlefield picked at random from their
        # three; the player going second channels one extra rune on their first turn (487.7).
        ModeSpec(name="duel", players=2, victory_score=8, extra_channel_last_player_first_turn=1, rule="487",
                 description="1v1 Duel"),
    ]
