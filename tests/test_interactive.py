"""`riftscript play`: a person plays a seat at the terminal by picking numbered actions."""
from __future__ import annotations

import argparse
import io
import random
import re

import pytest

from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.game import Game
from riftscript.plugins.agents import RandomAgent
from riftscript.tools.interactive import cmd_play, describe

from positions import promising_future_choice


def play(answers: str, **options: object) -> str:
    args = argparse.Namespace(mode="duel", decks=None, seat=1, agent="greedy", seed=3)
    for key, value in options.items():
        setattr(args, key, value)
    out = io.StringIO()
    assert cmd_play(args, read=io.StringIO(answers), out=out) == 0
    return out.getvalue()


def test_picking_numbers_plays_a_whole_game() -> None:
    text = play("1\n" * 3000)
    assert "You are Jinx (seat 1)." in text
    assert re.search(r"You decide: mulligan: set aside up to 2 cards\n +1\. keep your hand\n", text)
    assert "    1. end your turn" in text or "end your turn" in text
    assert re.search(r"won after \d+ turns? \(Jinx \d, Viktor \d\); \d+ events, log hash [0-9a-f]{16}\n$", text)


def test_a_wrong_answer_is_explained_and_asked_again() -> None:
    text = play("x\n999\n1\n", seat=1)
    assert text.count("answer with a number from 1 to 11, 's' for the state, or 'concede'") == 2
    assert "Jinx keeps their hand" in text
    assert text.endswith("input ended; the game is left unfinished\n")


def test_conceding_ends_the_game_for_the_other_player() -> None:
    text = play("concede\n", seat=2)
    assert "You are Viktor (seat 2)." in text
    assert re.search(r"Jinx won after \d+ turns?", text)


def test_status_on_request_and_other_modes() -> None:
    text = play("s\n", mode="skirmish", decks=["Annie Starter Deck", "Garen Starter Deck", "Lux Starter Deck"])
    assert text.count("Your hand:") == 2  # once with the decision, once on request
    assert "Annie's base: empty" in text and "Lux's base: empty" in text


@pytest.mark.parametrize("mode,decks", [
    ("duel", ["Jinx Champion Deck", "Viktor Champion Deck"]),
    ("magma-chamber", ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]),
])
def test_every_listed_action_reads_as_words(mode: str, decks: list[str]) -> None:
    """No action is shown as raw data: plays, rune abilities, moves, hides, choices, orders, targets,
    damage assignments and invitations all have words."""
    catalog = load_catalog()
    g = Game.new(catalog, decks, mode=mode, seed=12)
    bots = [RandomAgent(i) for i in range(len(decks))]
    kinds: set[str] = set()
    rnd = random.Random(1)
    while not g.over:
        legal = g.legal_actions()
        for action in rnd.sample(legal, min(6, len(legal))):
            text = describe(g, action)
            assert "{" not in text and "'" not in text.replace("'s ", ""), (action, text)
            kinds.add(action["type"])
        d = g.pending_decision()
        assert d is not None
        g.apply(bots[d.player].choose(g, legal))
    assert {"play", "activate", "move", "pass", "end_turn", "mulligan"} <= kinds


def test_a_player_decides_seeing_the_cards_the_step_showed_them_and_only_those() -> None:
    """Promising Future (OGN-115): each player looks at their top 5 and chooses one.  The look happens
    inside the step that asks, whose events enter the log only after the answers; the question
    itself carries what the asked player saw (core/engine/loop.py, ``shown_before``): for the
    terminal, the browser view and the observation.  The other player's look stays private."""
    from riftscript.tools.interactive import shown_lines

    catalog = load_catalog()
    g = promising_future_choice(catalog)
    assert g.pending_decision().player == 0  # type: ignore[union-attr]
    names = [catalog.cards[c].name for c in ("OGN-088", "OGN-175")]
    assert shown_lines(g, 0) == [f"You look at your cards: {names[0]}, {', '.join([names[1]] * 4)}"]
    assert shown_lines(g, 1) == []
    from riftscript.tools.web import board
    assert board.seat_view(g, 0, board.Texts(), catalog)["shown"] == shown_lines(g, 0)  # the browser's page
    assert board.seat_view(g, 1, board.Texts(), catalog)["shown"] == []
    assert [s["cards"] for s in g.observation(0)["decision"]["shown"]] == [["OGN-088"]] + [["OGN-175"]] * 4
    assert g.observation(1)["decision"]["shown"] == []
    g.apply(g.legal_actions()[0])
    decision = g.pending_decision()
    assert decision is not None and decision.player == 1
    seen = [code for s in g.observation(1)["decision"]["shown"] for code in s["cards"]]
    assert seen == ["OGN-142"] + ["OGN-096"] * 4  # B's own five, none of A's
    assert [s["cards"] for s in g.observation(0)["decision"]["shown"]] == []


def test_the_seed_stays_hidden_while_playing_and_is_told_at_the_end() -> None:
    """The seed decides every shuffle, so a player who read it could rebuild the opponent's hand and deck: it is
    not in the play-by-play of a game still going; without --seed a random one is used, told once it is over."""
    unfinished = play("1\n")
    assert "(seed" not in unfinished and "Setup: duel: Jinx" in unfinished
    finished = play("concede\n", seed=None)
    seed = int(re.search(r"\nseed (\d+): the same deal again with --seed \1\n", finished).group(1))  # type: ignore[union-attr]
    assert "(seed" not in finished.split("\nseed ")[0]
    again = play("concede\n", seed=seed)
    assert again.split("\n", 3)[:3] == finished.split("\n", 3)[:3]
