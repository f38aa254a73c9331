"""The 2v2 mode's API promises: team deck checks, invitations as real actions (listed, atomic,
serializable), and team scores that stay equal through random games."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest

from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import IllegalActionError, TeamDeckError
from riftscript.core.engine.game import Game
from riftscript.plugins.agents import RandomAgent

# seats 1+3 (Jinx, Viktor) and 2+4 (Lee Sin, Annie): teammates share no legend and no battlefield
TEAMS = ["Jinx Champion Deck", "Lee Sin Champion Deck", "Viktor Champion Deck", "Annie Starter Deck"]


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def main_phase(seed: int) -> Game:
    """A 2v2 game after the mulligans: the first player's Main Phase."""
    g = Game.new(cat(), TEAMS, mode="magma-chamber", seed=seed)
    while g.pending_decision() is not None and g.pending_decision().kind == "mulligan":  # type: ignore[union-attr]
        g.apply({"type": "mulligan", "cards": []})
    return g


def test_teammates_sharing_a_battlefield_are_refused_with_both_names_the_card_and_the_rule() -> None:
    decks = ["Jinx Champion Deck", "Lee Sin Champion Deck", "Annie Starter Deck", "Viktor Champion Deck"]
    with pytest.raises(TeamDeckError) as info:
        Game.new(cat(), decks, mode="magma-chamber", seed=1, names=["Ann", "Bo", "Cy", "Di"])
    assert info.value.rules == ["491.8.i"]
    assert "Ann and Cy are teammates" in str(info.value) and "Zaun Warrens" in str(info.value)


def test_the_same_decks_as_opponents_are_fine_in_war() -> None:
    decks = ["Jinx Champion Deck", "Lee Sin Champion Deck", "Annie Starter Deck", "Viktor Champion Deck"]
    assert Game.new(cat(), decks, mode="war", seed=1).spec.name == "war"  # no teams, no team check


def test_invite_is_listed_validated_atomically_and_round_trips() -> None:
    g = main_phase(1)
    tp = g.state.turn_player
    mate = next(p.index for p in g.state.players if p.team == g.state.players[tp].team and p.index != tp)
    assert {"type": "invite", "teammate": mate} in g.legal_actions()
    before = g.to_json()
    with pytest.raises(IllegalActionError) as info:
        g.apply({"type": "invite", "teammate": (mate + 1) % 4})  # an opponent can't be invited
    assert info.value.rule == "491.8.a" and g.to_json() == before
    g.apply({"type": "invite", "teammate": mate})
    assert g.pending_decision().player == mate  # type: ignore[union-attr]
    copy = Game.from_json(cat(), g.to_json())
    assert copy.legal_actions() == g.legal_actions() and {"type": "pass"} in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply({"type": "end_turn"})
    g.apply({"type": "pass"})
    copy.apply({"type": "pass"})
    assert g.log_hash() == copy.log_hash()
    assert g.pending_decision().player == tp  # type: ignore[union-attr]
    assert not any(a["type"] == "invite" for a in g.legal_actions())  # once per priority window


def test_no_invitations_outside_team_modes() -> None:
    g = Game.new(cat(), ["Jinx Champion Deck", "Viktor Champion Deck"], seed=3)
    for _ in range(2):
        g.apply({"type": "mulligan", "cards": []})
    assert not any(a["type"] == "invite" for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.apply({"type": "invite"})


@pytest.mark.parametrize("seed", [2, 9])
def test_teammates_always_show_the_same_score_and_win_together(seed: int) -> None:
    g = Game.new(cat(), TEAMS, mode="magma-chamber", seed=seed)
    agents = [RandomAgent(seed * 8 + i) for i in range(4)]
    for _ in range(30_000):
        if g.over:
            break
        d = g.pending_decision()
        assert d is not None
        g.apply(agents[d.player].choose(g, g.legal_actions()))
        points = [p.points for p in g.state.players]
        assert points[0] == points[2] and points[1] == points[3], points  # 491.8.d.1
    assert g.state.winners in ([0, 2], [1, 3]) or g.state.result == "draw"
