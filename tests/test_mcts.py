"""The search agent: registered levels, honest determinization, reproducible decisions."""
from __future__ import annotations

import argparse
import dataclasses
import io
from typing import Callable

import pytest

from riftscript.core.engine import rng
from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.game import Game
from riftscript.core.engine.state import Lasting
from riftscript.plugins.agents import GreedyAgent
from riftscript.plugins.mcts import MAX_STEPS, WORK_PER_ACTION, Determinizer, MCTSAgent, _meaningful, action_key
from riftscript.tools.interactive import cmd_play

CATALOG = load_catalog()


def test_levels_are_installed_agents() -> None:
    assert CATALOG.plugins is not None
    specs = CATALOG.plugins.agents()
    built = {name: specs[name].factory(1) for name in ("mcts-easy", "mcts", "mcts-hard")}
    budgets = {name: getattr(agent, "iterations") for name, agent in built.items()}
    assert budgets["mcts-easy"] < budgets["mcts"] < budgets["mcts-hard"]
    # the default level is the budget the ladder and the decision times in the README measured
    assert (budgets["mcts"], getattr(built["mcts"], "work")) == (100, 120_000)
    assert "120,000 units of work" in specs["mcts"].description


def _position() -> Game:
    """Seat 1 to act in its Main Phase with several choices; seat 2 has a facedown card."""
    game = Game.new(CATALOG, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=4)
    agents = [GreedyAgent(1), GreedyAgent(2)]
    while True:
        decision = game.pending_decision()
        assert decision is not None
        actions = game.legal_actions()
        if decision.player == 0 and decision.kind == "priority" and game.state.turn >= 3 \
                and len(_meaningful(game, actions)) > 3:
            break
        game.apply(agents[decision.player].choose(game, actions))
    opponent = game.state.players[1]
    hidden = opponent.hand[-1]
    game.place(hidden, "facedown", game.state.battlefields[0].loc)
    return game


def _changed(game: Game, change: Callable[[Game], None]) -> Game:
    other = game.copy()
    change(other)
    return other


def _swap_codes(game: Game, a: int, b: int) -> None:
    objs = game.state.objs
    objs[a].code, objs[b].code = objs[b].code, objs[a].code


def _other_card(game: Game, oid: int, ids: list[int]) -> int:
    return next(x for x in ids if game.state.objs[x].code != game.state.objs[oid].code)


def _hand_card(game: Game) -> None:
    """A different card in the opponent's hand (swapped with one of its deck)."""
    p = game.state.players[1]
    _swap_codes(game, p.hand[0], _other_card(game, p.hand[0], p.main_deck))


def _hand_object(game: Game) -> None:
    """Another object in the opponent's hand: ids follow decklist order, so an id tells a card."""
    p = game.state.players[1]
    a, b = p.hand[0], p.main_deck[2]
    p.hand[0], p.main_deck[2] = b, a
    game.state.objs[a].zone, game.state.objs[b].zone = "main_deck", "hand"


def _facedown(game: Game) -> None:
    """A different card facedown."""
    (card,) = game.state.battlefields[0].facedown
    _swap_codes(game, card, _other_card(game, card, game.state.players[1].main_deck))


def _deck_orders(game: Game) -> None:
    """Every deck in another order, the agent's own included."""
    for p in game.state.players:
        p.main_deck.reverse()
        p.rune_deck.reverse()


def _chance(game: Game) -> None:
    """Another state of the game's own chance (future shuffles)."""
    game.state.rng = rng.next_u64(game.state.rng)[1]


HIDDEN = [_hand_card, _hand_object, _facedown, _deck_orders, _chance]


def _search(game: Game) -> tuple[dict[str, object], dict[str, tuple[int, float]]]:
    agent = MCTSAgent(seed=11, iterations=12)
    action = agent.choose(game, game.legal_actions())
    assert agent.last_root is not None
    return action, {key: (child.visits, child.total) for key, child in agent.last_root.children.items()}


@pytest.mark.parametrize("change", HIDDEN, ids=lambda f: f.__name__.strip("_"))
def test_hidden_information_changes_nothing_the_agent_uses(change: Callable[[Game], None]) -> None:
    game = _position()
    other = _changed(game, change)
    assert other.state != game.state  # the change is real
    assert Determinizer(other, 0).snapshot == Determinizer(game, 0).snapshot
    assert _search(other) == _search(game)  # the same choice from the same statistics


def test_what_the_agent_sees_does_change_its_determinization() -> None:
    game = _position()
    own = _changed(game, lambda g: _swap_codes(g, g.state.players[0].hand[0],
                                               _other_card(g, g.state.players[0].hand[0], g.state.players[0].main_deck)))
    assert Determinizer(own, 0).snapshot != Determinizer(game, 0).snapshot
    # and the opponent, seat 2, sees its own hand change where seat 1 sees nothing
    assert Determinizer(_changed(game, _hand_card), 1).snapshot != Determinizer(game, 1).snapshot


def test_a_deal_keeps_every_pool_and_varies_what_is_hidden() -> None:
    game = _position()
    determinizer = Determinizer(game, 0)
    opponent = game.state.players[1]
    def facedown(g: Game) -> list[int]:
        return [o for bf in g.state.battlefields for o in bf.facedown if g.state.objs[o].controller == 1]

    hidden = sorted(game.state.objs[o].code for o in opponent.hand + opponent.main_deck + facedown(game))
    hands = set()
    state = 5
    for _ in range(4):
        sim, state = determinizer.deal(state)
        p = sim.state.players[1]
        assert sorted(sim.state.objs[o].code for o in p.hand + p.main_deck + facedown(sim)) == hidden
        assert [sim.state.objs[o].code for o in sim.state.players[0].hand] == \
               [game.state.objs[o].code for o in game.state.players[0].hand]  # its own hand as it is
        hands.add(tuple(sim.state.objs[o].code for o in p.hand))
    assert len(hands) > 1


def test_the_root_actions_are_the_real_ones_and_the_choice_is_one_of_them() -> None:
    game = _position()
    sim, _ = Determinizer(game, 0).deal(1)
    assert {action_key(a) for a in sim.legal_actions()} == {action_key(a) for a in game.legal_actions()}
    action = MCTSAgent(seed=3, iterations=6).choose(game, game.legal_actions())
    assert action in game.legal_actions()


def test_a_work_budget_stops_the_search_early_and_reproducibly() -> None:
    """Work (each searched action: WORK_PER_ACTION plus the objects on the board) bounds a decision's time
    without a clock: the same seed and position give the same tree."""
    game = _position()
    unbounded = MCTSAgent(seed=5, iterations=40)
    unbounded.choose(game, game.legal_actions())
    assert unbounded.last_root is not None and unbounded.last_root.visits == 40
    budget = unbounded.spent // 4
    trees = []
    for _ in range(2):
        bounded = MCTSAgent(seed=5, iterations=40, work=budget)
        action = bounded.choose(game, game.legal_actions())
        assert bounded.last_root is not None and 1 < bounded.last_root.visits < 40
        # no iteration starts past the budget: the last one may run over by at most one iteration's actions
        # (a step counts WORK_PER_ACTION plus its listed actions and board objects: a few hundred at most here)
        assert budget <= bounded.spent < budget + MAX_STEPS * (WORK_PER_ACTION + 300)
        trees.append((action, {k: (c.visits, c.total) for k, c in bounded.last_root.children.items()}))
    assert trees[0] == trees[1]


def _short_game(seed: int) -> str:
    game = Game.new(CATALOG, ["Lee Sin Champion Deck", "Annie Starter Deck"], seed=seed)
    agents = [MCTSAgent(seed, iterations=4), GreedyAgent(seed)]
    for _ in range(120):
        decision = game.pending_decision()
        if decision is None:
            break
        game.apply(agents[decision.player].choose(game, game.legal_actions()))
    return game.log_hash()


def test_a_seed_and_an_iteration_budget_reproduce_the_game() -> None:
    assert _short_game(2) == _short_game(2)


@pytest.mark.parametrize("mode,decks", [
    ("war", ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]),
    ("magma-chamber", ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]),
])
def test_the_agent_plays_every_seat_of_other_modes(mode: str, decks: list[str]) -> None:
    game = Game.new(CATALOG, decks, mode=mode, seed=1)
    agents = [MCTSAgent(i, iterations=2) for i in range(4)]
    for _ in range(90):
        decision = game.pending_decision()
        if decision is None:
            break
        game.apply(agents[decision.player].choose(game, game.legal_actions()))
    assert game.state.turn >= 2 and sum(a.failures for a in agents) == 0


def test_play_at_the_terminal_against_the_search_agent() -> None:
    args = argparse.Namespace(mode="duel", decks=None, seat=2, agent="mcts-easy", seed=3)
    out = io.StringIO()
    assert cmd_play(args, read=io.StringIO("1\n" * 4), out=out) == 0
    text = out.getvalue()
    assert "You are Viktor (seat 2)." in text and "Jinx" in text
    assert text.endswith("input ended; the game is left unfinished\n")


def test_a_copy_plays_on_like_the_game_and_leaves_it_alone() -> None:
    game = _position()
    copy = game.copy()
    assert copy.to_json() == game.to_json()
    agents = [GreedyAgent(5), GreedyAgent(6)]
    twins = [GreedyAgent(5), GreedyAgent(6)]
    before = game.to_json()
    for _ in range(40):
        decision = copy.pending_decision()
        assert decision is not None
        copy.apply(agents[decision.player].choose(copy, copy.legal_actions()))
    assert game.to_json() == before  # the copy shares nothing that changes
    for _ in range(40):
        decision = game.pending_decision()
        assert decision is not None
        game.apply(twins[decision.player].choose(game, game.legal_actions()))
    assert game.log_hash() == copy.log_hash()


def test_a_rewind_forgets_the_lasting_effects_of_the_abandoned_line() -> None:
    """Lasting effects are numbered by the clock: after a rewind, another line of play may give the
    same number to another effect, whose own script must then be used."""
    game = _position()
    snap = game.snapshot()
    first = Lasting(id=9000, kind="trigger", source=1, source_code="", controller=0, duration="this_turn",
                    body={"kind": "triggered", "when": {"event": "played"}, "effect": {"type": "draw", "amount": 1}})
    assert game.lasting_ability(first).event == "played"
    game.restore(snap)
    second = dataclasses.replace(first, body={**first.body, "when": {"event": "attack"}})
    assert game.lasting_ability(second).event == "attack"
