"""riftscript.env: the PettingZoo AEC environment and the Gymnasium single-seat environment."""
from __future__ import annotations

import re
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from riftscript.core.script.catalog import load_catalog  # noqa: E402
from riftscript.core.errors import IllegalActionError, RiftScriptError  # noqa: E402
from riftscript.env import ACTION_SIZE, RiftboundEnv, SingleAgentEnv, env  # noqa: E402
from riftscript.env import encoding  # noqa: E402

CATALOG = load_catalog()
README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation (vector + mask) is PettingZoo's own pattern
        api_test(env(catalog=CATALOG), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(catalog=CATALOG), num_cycles=60)


def test_gymnasium_env_checker_and_illegal_actions() -> None:
    single = SingleAgentEnv(catalog=CATALOG, opponent="greedy")
    check_env(single, skip_render_check=True)
    obs, info = single.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    *_, terminated, truncated, info = single.step(illegal)
    assert terminated and info["illegal"]
    strict = SingleAgentEnv(catalog=CATALOG, illegal="raise")
    obs, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="not in the action mask"):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def _random_game(mode: str, decks: list[str] | None, seed: int) -> RiftboundEnv:
    aec = RiftboundEnv(mode=mode, decks=decks, catalog=CATALOG, render_mode="ansi")
    aec.reset(seed=seed)
    chance = np.random.default_rng(seed)
    for agent in aec.agent_iter(20_000):
        obs, reward, terminated, truncated, info = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(info["legal_actions"]) > 0
        legal = aec.game.legal_actions() if aec.game is not None else []
        assert all(action in legal for action in info["legal_actions"].values())  # each index is one legal action
        aec.step(int(chance.choice(np.flatnonzero(mask))))
    return aec


@pytest.mark.parametrize("mode,decks", [
    ("duel", None),
    ("magma-chamber", ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]),
])
def test_a_random_policy_plays_whole_games_with_rewards_at_the_end(mode: str, decks: list[str] | None) -> None:
    aec = _random_game(mode, decks, seed=2)
    assert aec.game is not None and aec.game.over and not aec.agents
    winners = set(aec.game.state.winners or [])
    text = aec.render()
    assert text is not None
    assert aec.game.state.result == "draw" or re.search(r"\*\*\* .* wins? ", text)
    if mode == "magma-chamber" and winners:
        assert len(winners) == 2  # a team of two wins together (491)


def test_rewards_go_to_the_winners_and_render_prints_the_play_by_play(capsys: pytest.CaptureFixture[str]) -> None:
    aec = RiftboundEnv(catalog=CATALOG, render_mode="human")
    aec.reset(seed=4)
    chance = np.random.default_rng(4)
    finals: dict[str, float] = {}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            finals[agent] = reward
            aec.step(None)
        else:
            aec.step(int(chance.choice(np.flatnonzero(obs["action_mask"]))))
    assert aec.game is not None
    (winner,) = aec.game.state.winners or [-1]
    assert finals == {f"player_{winner}": 1.0, f"player_{1 - winner}": -1.0}
    out = capsys.readouterr().out
    assert out.startswith("Setup: duel (seed 4): Jinx (Jinx Champion Deck) vs Viktor")
    assert f"*** {aec.game.state.players[winner].name} wins" in out


def test_the_observation_never_reads_hidden_cards() -> None:
    aec = RiftboundEnv(catalog=CATALOG)
    aec.reset(seed=5)
    game = aec.game
    assert game is not None
    seat = game.state.decision.player if game.state.decision else 0
    before = aec.observe(aec.possible_agents[seat])["observation"]
    other = game.state.players[1 - seat]
    objs = game.state.objs
    # another card in the other player's hand, and every deck in another order
    swap = next(o for o in other.main_deck if objs[o].code != objs[other.hand[0]].code)
    objs[other.hand[0]].code, objs[swap].code = objs[swap].code, objs[other.hand[0]].code
    for p in game.state.players:
        p.main_deck.reverse()
    assert np.array_equal(aec.observe(aec.possible_agents[seat])["observation"], before)


def test_the_encoding_keeps_slots_and_drops_what_it_cannot_hold() -> None:
    aec = RiftboundEnv(catalog=CATALOG)
    aec.reset(seed=6)
    game = aec.game
    assert game is not None
    decision = game.state.decision
    assert decision is not None and decision.kind == "mulligan"
    table = encoding.encode_actions(game, decision.player, game.legal_actions())
    assert sorted(table) == list(range(encoding.CHOOSE, encoding.CHOOSE + len(game.legal_actions())))
    many = [{"type": "choose", "value": i} for i in range(100)]
    assert len(encoding.encode_actions(game, decision.player, many)) == encoding.MAX_OPTIONS
    assert encoding.ACTION_SIZE == ACTION_SIZE


def test_unknown_modes_and_wrong_decks_are_refused() -> None:
    with pytest.raises(RiftScriptError, match="unknown mode"):
        RiftboundEnv(mode="chess", catalog=CATALOG)
    with pytest.raises(RiftScriptError, match="played by 4 players"):
        RiftboundEnv(mode="war", decks=["Jinx Champion Deck"], catalog=CATALOG)


def test_the_readme_example_runs() -> None:
    blocks = [b for b in re.findall(r"```python\n(.*?)```", README, re.S) if "riftscript.env" in b]
    code = textwrap.dedent(blocks[0])
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)  # the README's own example, as written
    assert namespace["steps"]
