"""The Match API (core/engine/match.py, 488): determinism, atomic illegal actions, secrecy of the
battlefield choice, JSON round trips, drawn games, and random matches that finish."""
from __future__ import annotations

import json
from typing import Any

import pytest

from riftscript.core.engine.agents import play_out
from riftscript.core.errors import GameOverError, IllegalActionError
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.core.engine.setup import SetupError
from riftscript.plugins.agents import RandomAgent
from riftscript.tools.pytest_plugin import catalog

ANNIE = "Annie Starter Deck"
GAREN = "Garen Starter Deck"


def new(seed: int = 1, mode: str = "match", decks: tuple[str, str] = (ANNIE, GAREN)) -> Match:
    return Match.new(catalog(), list(decks), mode=mode, seed=seed, names=["A", "B"])


def agents(seed: int) -> list[RandomAgent]:
    return [RandomAgent(seed * 2), RandomAgent(seed * 2 + 1)]


def choose(m: Match, name: str) -> None:
    """Answer the pending battlefield decision with the battlefield called ``name``."""
    d = m.pending_decision()
    assert d is not None and d.kind == "battlefield", d
    m.apply({"type": "choose", "value": next(o["value"] for o in d.options if o["label"] == name)})


def concede(m: Match, player: int) -> None:
    d = m.pending_decision()
    if d is not None and d.kind == "turn_order":
        m.apply({"type": "choose", "value": "first"})
    m.apply({"type": "concede", "player": player})


def test_same_seed_and_actions_give_the_same_log_hash() -> None:
    first, second = new(4), new(4)
    play_out(first, agents(4))
    play_out(second, agents(4))
    assert first.over and first.log_hash() == second.log_hash()
    assert first.log_hash() != new(5).log_hash()


def test_replaying_recorded_actions_reproduces_the_match() -> None:
    m = new(7, "match-bo5")
    recorded: list[dict[str, Any]] = []
    bots = agents(7)
    while not m.over:
        d = m.pending_decision()
        assert d is not None
        action = bots[d.player].choose(m.game, m.legal_actions())
        recorded.append(action)
        m.apply(action)
    again = new(7, "match-bo5")
    for action in recorded:
        again.apply(action)
    assert again.over and again.log_hash() == m.log_hash() and again.result == m.result


def test_duel_keeps_random_battlefields_and_asks_no_choice() -> None:
    g = Game.new(catalog(), [ANNIE, GAREN], mode="duel", seed=3)
    d = g.pending_decision()
    assert d is not None and d.kind == "mulligan"
    assert not any(e["t"] in ("battlefield_chosen", "battlefields_revealed") for e in g.log)


def test_the_battlefield_choice_is_secret_until_both_have_chosen() -> None:
    m = new(2)
    picked = m.pending_decision()
    assert picked is not None and picked.player == 0
    chosen = picked.options[1]["value"]
    m.apply({"type": "choose", "value": chosen})
    d = m.pending_decision()
    assert d is not None and (d.kind, d.player) == ("battlefield", 1)
    seen = json.dumps(m.observation(1))
    assert f'"id": {chosen},' not in seen and m.game.name(chosen) not in seen
    assert m.game.state.battlefields == []  # nothing placed before every player has chosen
    choose(m, d.options[0]["label"])
    placed = [bf.card for bf in m.game.state.battlefields]
    assert placed == [chosen, d.options[0]["value"]]  # revealed and placed together, in seat order
    assert m.game.name(chosen) in json.dumps(m.observation(1))


def test_an_illegal_choice_changes_nothing() -> None:
    m = new(2)
    before = m.to_json()
    other = m.game.state.players[1].battlefields_owned[0]
    for action in ({"type": "choose", "value": other}, {"type": "choose", "value": "first"},
                   {"type": "end_turn"}, {"type": "choose"}, {"type": "mulligan", "cards": []}):
        with pytest.raises(IllegalActionError):
            m.apply(action)
        assert m.to_json() == before


def test_won_game_removes_both_battlefields_and_the_loser_picks_the_order() -> None:
    m = new(3)
    choose(m, "Void Gate")
    choose(m, "Altar to Unity")
    concede(m, 1)
    s = m.state
    assert s.wins == [1, 0] and s.removed == [["OGN-296"], ["OGN-275"]]
    assert m.number == 2
    # 488.6: the removed battlefield is not offered again, and choosing it is refused naming the rule
    d = m.pending_decision()
    assert d is not None and [o["label"] for o in d.options] == ["Zaun Warrens", "The Candlelit Sanctum"]
    void_gate = next(o for o in m.game.state.players[0].battlefields_owned if m.game.name(o) == "Void Gate")
    before = m.to_json()
    with pytest.raises(IllegalActionError) as refused:
        m.apply({"type": "choose", "value": void_gate})
    assert refused.value.rule == "488.6" and m.to_json() == before
    choose(m, "Zaun Warrens")
    choose(m, "Navori Fighting Pit")
    d = m.pending_decision()
    assert d is not None and (d.kind, d.player) == ("turn_order", 1)  # B lost game 1
    assert len(m.game.state.battlefields) == 2  # the order is chosen after the reveal
    m.apply({"type": "choose", "value": "second"})
    assert m.game.state.turn_order == [0, 1]


def test_a_drawn_game_gives_no_win_removes_nothing_and_keeps_the_order() -> None:
    m = new(3)
    choose(m, "Void Gate")
    choose(m, "Altar to Unity")
    first = m.game.state.turn_order[0]
    while m.pending_decision() is not None and m.pending_decision().kind == "mulligan":  # type: ignore[union-attr]
        m.apply({"type": "mulligan", "cards": []})
    m.game.max_events = 0  # the next action's events settle the game as a loop draw (core/engine/loop_draw.py)
    m.apply({"type": "end_turn"})
    s = m.state
    assert s.games[0]["result"] == "draw" and s.wins == [0, 0] and s.draws == 1
    assert s.removed == [[], []] and s.presented == [{"OGN-296": 1}, {"OGN-275": 1}]
    d = m.pending_decision()
    assert d is not None and "Void Gate" in [o["label"] for o in d.options]
    choose(m, "Void Gate")
    choose(m, "Altar to Unity")
    assert m.game.state.turn_order[0] == first  # ruling: after a draw the starting order is kept
    assert any(e["t"] == "turn_order" and e.get("kept") for e in m.game.log)


def test_best_of_three_ends_at_two_wins_and_refuses_more_actions() -> None:
    m = new(5)
    for game in range(2):
        choose(m, m.pending_decision().options[0]["label"])  # type: ignore[union-attr]
        choose(m, m.pending_decision().options[0]["label"])  # type: ignore[union-attr]
        concede(m, 1)
    assert m.over and m.result == {"result": "win", "winner": 0, "wins": [2, 0], "draws": 0, "games": 2}
    assert m.log[-1]["t"] == "match_over" and m.pending_decision() is None and m.legal_actions() == []
    with pytest.raises(GameOverError):
        m.apply({"type": "end_turn"})


def test_a_one_one_match_with_a_drawn_game_is_a_drawn_match() -> None:
    m = new(6)
    for loser in (1, None, 0):
        d = m.pending_decision()
        if d is not None and d.kind == "turn_order":
            m.apply({"type": "choose", "value": "first"})
        choose(m, m.pending_decision().options[0]["label"])  # type: ignore[union-attr]
        choose(m, m.pending_decision().options[0]["label"])  # type: ignore[union-attr]
        d = m.pending_decision()
        if d is not None and d.kind == "turn_order":
            m.apply({"type": "choose", "value": "first"})
        if loser is None:
            while m.pending_decision().kind == "mulligan":  # type: ignore[union-attr]
                m.apply({"type": "mulligan", "cards": []})
            m.game.max_events = 0
            m.apply({"type": "end_turn"})
        else:
            concede(m, loser)
    assert m.over and m.result == {"result": "draw", "winner": None, "wins": [1, 1], "draws": 1, "games": 3}


def test_best_of_five_reuse_of_removed_battlefields() -> None:
    m = new(8, "match-bo5")
    plan = [("Void Gate", 0), ("Zaun Warrens", 1), ("The Candlelit Sanctum", 0), ("Void Gate", 1)]
    for number, (annie, loser) in enumerate(plan, start=1):
        d = m.pending_decision()
        assert d is not None and d.kind == "battlefield"
        labels = [o["label"] for o in d.options]
        if number <= 3:
            assert annie in labels and len(labels) == 4 - number  # removed ones are not offered yet
        else:
            assert labels == ["Void Gate", "Zaun Warrens", "The Candlelit Sanctum"]  # each presented once
        choose(m, annie)
        choose(m, m.pending_decision().options[0]["label"])  # type: ignore[union-attr]
        if m.pending_decision().kind == "turn_order":  # type: ignore[union-attr]
            m.apply({"type": "choose", "value": "first"})
        concede(m, loser)
    assert m.state.wins == [2, 2] and m.state.presented[0]["OGN-296"] == 2
    d = m.pending_decision()
    assert d is not None and [o["label"] for o in d.options] == ["Zaun Warrens", "The Candlelit Sanctum"]
    void_gate = next(o for o in m.game.state.players[0].battlefields_owned if m.game.name(o) == "Void Gate")
    with pytest.raises(IllegalActionError, match="at most twice") as refused:
        m.apply({"type": "choose", "value": void_gate})
    assert refused.value.rule == "488.6"


def test_json_round_trip_mid_match_continues_identically() -> None:
    m = new(9)
    bots = agents(9)
    while m.number < 2 or m.game.state.turn < 3:
        d = m.pending_decision()
        assert d is not None and not m.over
        m.apply(bots[d.player].choose(m.game, m.legal_actions()))
    copy = Match.from_json(catalog(), m.to_json())
    assert copy.to_json() == m.to_json()
    twins = agents(10), agents(10)
    play_out(m, twins[0])
    play_out(copy, twins[1])
    assert copy.over and copy.log_hash() == m.log_hash()


def test_a_game_in_setup_round_trips_through_json() -> None:
    g = Game.new(catalog(), [ANNIE, GAREN], mode="match", seed=11)
    g.apply(g.legal_actions()[2])
    copy = Game.from_json(catalog(), g.to_json())
    for game in (g, copy):
        game.apply(game.legal_actions()[1])
    assert copy.to_json() == g.to_json()


@pytest.mark.parametrize("seed", range(4))
def test_random_matches_finish(seed: int) -> None:
    decks = sorted(catalog().decks)
    pair = (decks[seed % len(decks)], decks[(seed + 3) % len(decks)])
    m = new(100 + seed, "match-bo5" if seed % 2 else "match", pair)
    play_out(m, agents(seed))
    s = m.state
    assert m.over and len(s.games) <= s.best_of
    majority = s.best_of // 2 + 1
    if s.winner is not None:
        assert s.wins[s.winner] >= majority or len(s.games) == s.best_of
    for record in s.games:
        assert record["winner"] is not None or record["result"] == "draw"
    assert [e["t"] for e in m.log if e.get("match")][-1] == "match_over"


def test_a_match_needs_a_best_of_mode() -> None:
    with pytest.raises(SetupError):
        Match.new(catalog(), [ANNIE, GAREN], mode="duel")


def draw_game(m: Match) -> None:
    """End the current game as a loop draw (core/engine/loop_draw.py) once its setup is done."""
    while m.pending_decision().kind == "mulligan":  # type: ignore[union-attr]
        m.apply({"type": "mulligan", "cards": []})
    m.game.max_events = 0
    m.apply({"type": "end_turn"})


def test_best_of_five_reuse_needs_every_battlefield_presented_once() -> None:
    m = new(12, "match-bo5")
    choose(m, "Void Gate")
    choose(m, "Altar to Unity")
    concede(m, 1)  # game 1 won by A: Void Gate removed
    for _ in range(2):  # games 2 and 3 drawn with Zaun Warrens: presented twice, never removed
        choose(m, "Zaun Warrens")
        choose(m, "Navori Fighting Pit")
        d = m.pending_decision()
        if d is not None and d.kind == "turn_order":
            m.apply({"type": "choose", "value": "first"})
        draw_game(m)
    assert m.number == 4 and m.state.removed[0] == ["OGN-296"] and m.state.presented[0]["OGN-298"] == 2
    d = m.pending_decision()
    assert d is not None and [o["label"] for o in d.options] == ["The Candlelit Sanctum"]
    owned = {m.game.name(o): o for o in m.game.state.players[0].battlefields_owned}
    with pytest.raises(IllegalActionError, match="presented once") as refused:
        m.apply({"type": "choose", "value": owned["Void Gate"]})
    assert refused.value.rule == "488.6"
    with pytest.raises(IllegalActionError, match="at most twice"):
        m.apply({"type": "choose", "value": owned["Zaun Warrens"]})


def test_conceding_during_the_battlefield_choice_loses_that_game_only() -> None:
    m = new(13)
    choose(m, "Void Gate")  # A has chosen; B concedes before choosing: nothing was presented
    m.apply({"type": "concede", "player": 1})
    assert m.state.wins == [1, 0] and m.state.removed == [[], []] and m.number == 2
    d = m.pending_decision()
    assert d is not None and d.kind == "battlefield" and len(d.options) == 3
    choose(m, "Void Gate")
    choose(m, "Altar to Unity")
    d = m.pending_decision()
    assert d is not None and (d.kind, d.player) == ("turn_order", 1)
    m.apply({"type": "concede", "player": 1})  # conceding before the turn order is decided
    assert m.over and m.result["winner"] == 0
