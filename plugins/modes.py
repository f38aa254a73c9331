"""Built-in modes of play, registered like any third-party mode (487-491)."""
from __future__ import annotations

from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import ModeSpec


@hookimpl
def riftscript_modes() -> list[ModeSpec]:
    return [
        # 487: two players, Victory Score 8, each player's battlefield picked at random from their
        # three; the player going second channels one extra rune on their first turn (487.7).
        ModeSpec(name="duel", players=2, victory_score=8, extra_channel_last_player_first_turn=1, rule="487",
                 description="1v1 Duel: one game to 8 points, battlefields picked at random"),
        # 488: Duel's game played as a best-of-three match; each player chooses their battlefield
        # (488.5), the battlefields of a won game are removed (488.6); first turn as in Duel (488.7).
        ModeSpec(name="match", players=2, victory_score=8, battlefield_choice="choose",
                 extra_channel_last_player_first_turn=1, best_of=3, rule="488",
                 description="1v1 Match: best of 3, battlefields chosen"),
        # 488 with the best-of-five option: games 4 and 5 may reuse a removed battlefield (Vendetta
        # patch notes, July 2026).
        ModeSpec(name="match-bo5", players=2, victory_score=8, battlefield_choice="choose",
                 extra_channel_last_player_first_turn=1, best_of=5, rule="488",
                 description="1v1 Match: best of 5, battlefields chosen"),
        # 489: three players for themselves to 8; the first player skips their first draw and the
        # last player channels an extra rune on their first turn (489.7).
        ModeSpec(name="skirmish", players=3, victory_score=8, extra_channel_last_player_first_turn=1,
                 first_player_skips_draw=True, rule="489",
                 description="3-player free-for-all to 8 points"),
        # 490: four players for themselves to 8; the first player's battlefields are not used
        # (490.4.b); first turn as in Skirmish (490.7).
        ModeSpec(name="war", players=4, victory_score=8, first_player_battlefields_unused=True,
                 extra_channel_last_player_first_turn=1, first_player_skips_draw=True, rule="490",
                 description="4-player free-for-all to 8 points"),
        # 491: two teams of two to 11 (491.3); seats 1 and 3 against seats 2 and 4, so turns
        # alternate between the teams (491.5.c.1); the first player's battlefields are not used
        # (491.5.a); first turn as in War (491.7).
        ModeSpec(name="magma-chamber", players=4, victory_score=11, teams=((0, 2), (1, 3)),
                 first_player_battlefields_unused=True, extra_channel_last_player_first_turn=1,
                 first_player_skips_draw=True, rule="491",
                 description="2v2 Magma Chamber: two teams of two to 11 points"),
    ]
