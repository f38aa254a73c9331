"""Setting up a game (103, 115-117): zones, battlefields, turn order, opening hands, mulligans."""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from . import actions, rng
from .catalog import Catalog
from .decks import Deck, check, load_deck
from .errors import RiftScriptError
from .state import BF0, Battlefield, Decision, GameState, Player

if TYPE_CHECKING:
    from .game import Game


class SetupError(RiftScriptError):
    """The game can't be set up as asked (unknown mode, wrong number of decks)."""


def new_game(cls: type["Game"], catalog: Catalog, decks: list[Any], mode: str, seed: int,
             names: list[str] | None) -> "Game":
    modes = catalog.plugins.modes() if catalog.plugins is not None else {}
    spec = modes.get(mode)
    if spec is None:
        raise SetupError(f"unknown mode {mode!r}; installed modes: {', '.join(sorted(modes)) or 'none'}")
    if len(decks) != spec.players:
        raise SetupError(f"{spec.name} is played by {spec.players} players; {len(decks)} decks given")
    loaded: list[Deck] = [load_deck(catalog, d) for d in decks]
    for deck in loaded:
        check(catalog, deck)
    teams = spec.teams or tuple((i,) for i in range(spec.players))
    team_of = {p: t for t, members in enumerate(teams) for p in members}
    players = [Player(index=i, name=(names[i] if names and i < len(names) else f"P{i + 1}"),
                      team=team_of.get(i, i)) for i in range(spec.players)]
    state = GameState(mode=mode, seed=seed, rng=rng.seed_state(seed), victory_score=spec.victory_score,
                      players=players, battlefields=[], objs={})
    g = cls(catalog, state)
    g.emit("setup", mode=mode, seed=seed, players=[p.name for p in players], decks=[d.name for d in loaded])
    for i, deck in enumerate(loaded):
        p = players[i]
        legend = g.new_obj(deck.legend, i, "legend")
        p.legend = legend.id
        g._index(legend.id)
        champion = g.new_obj(deck.champion, i, "champion")
        p.champion.append(champion.id)
        for code in deck.main:
            p.main_deck.append(g.new_obj(code, i, "main_deck").id)
        for code in deck.runes:
            p.rune_deck.append(g.new_obj(code, i, "rune_deck").id)
        g.shuffle(p.main_deck)
        g.shuffle(p.rune_deck)
        for code in deck.battlefields:
            p.battlefields_owned.append(g.new_obj(code, i, "set_aside").id)
    if spec.first_player_battlefields_unused:
        _turn_order(g)  # 490.4.b, 491.5.a: who goes first is known before the battlefields
    for i, p in enumerate(players):
        if spec.first_player_battlefields_unused and i == state.turn_order[0]:
            g.emit("battlefields_unused", player=i)  # 490.4.b: the first player's battlefields are not used
            continue
        # 487.5, 489.5, 490.5: each player's battlefield is picked at random from their three
        chosen = p.battlefields_owned[g.random_below(len(p.battlefields_owned))]
        _put_battlefield(g, i, chosen)
    if not spec.first_player_battlefields_unused:
        _turn_order(g)
    for i in state.turn_order:
        actions.draw(g, i, 4)  # 116
    for i in reversed(state.turn_order):
        state.tasks.append(["mulligan", i])  # 117: in turn order
    g.run()
    return g


def _put_battlefield(g: "Game", player: int, card: int) -> None:
    state = g.state
    bf = Battlefield(index=len(state.battlefields), card=card, owner=player)
    state.battlefields.append(bf)
    obj = g.obj(card)
    obj.zone = "bfcard"
    obj.loc = BF0 + bf.index
    g._index(card)
    g.emit("battlefield", player=player, obj=card, code=obj.code, loc=obj.loc)


def _turn_order(g: "Game") -> None:
    """115: the first player by a fair random method (seeded); the others follow in seat order,
    which alternates the teams in 2v2 (491.5.c.1)."""
    count = len(g.state.players)
    first = g.random_below(count)
    g.state.turn_order = [(first + k) % count for k in range(count)]
    g.emit("turn_order", order=g.state.turn_order)


def ask_mulligan(g: "Game", player: int) -> None:
    hand = g.state.players[player].hand
    options: list[dict[str, Any]] = [{"label": "keep", "value": []}]
    for size in (1, 2):
        for combo in combinations(hand, size):
            options.append({"label": "set aside " + ", ".join(g.name(c) for c in combo), "value": list(combo)})
    g.state.decision = Decision("mulligan", player, "mulligan: set aside up to 2 cards", options=options)


def mulligan(g: "Game", player: int, cards: list[int]) -> None:
    """117.1-117.3: set aside, draw as many, then recycle the set-aside cards."""
    p = g.state.players[player]
    for oid in cards:
        g.place(oid, "set_aside")
    g.emit("mulligan", player=player, count=len(cards))
    actions.draw(g, player, len(cards))
    actions.recycle(g, cards, random_order=True)
    p.mulliganed = True
