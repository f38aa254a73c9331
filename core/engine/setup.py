"""Setting up a game (103, 115-117): zones, battlefields, turn order, opening hands, mulligans."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from . import verbs, rng
from ..script.catalog import Catalog
from ..script.decks import Deck, check, load_deck, team_violations
from ..errors import RiftScriptError, TeamDeckError
from .state import BF0, Battlefield, Decision, GameState, Player

if TYPE_CHECKING:
    from .game import Game


class SetupError(RiftScriptError):
    """The game can't be set up as asked (unknown mode, wrong number of decks)."""


@dataclass(frozen=True)
class MatchGame:
    """What a Match tells the setup of one of its games (488.5, 488.6).

    ``allowed``: per seat, the battlefield codes that player may present (None: all three);
    ``refused``: per seat, code -> [reason, rule] for the others, so a refusal names its rule;
    ``chooser``: the previous game's loser, who chooses to play first or second (rulings);
    ``first``: after a drawn game, the seat that went first in it (its order is kept).
    """

    number: int = 1
    allowed: tuple[tuple[str, ...] | None, ...] = ()
    refused: tuple[dict[str, list[str]], ...] = ()
    chooser: int | None = None
    first: int | None = None


def new_game(cls: type["Game"], catalog: Catalog, decks: list[Any], mode: str, seed: int,
             names: list[str] | None, match: MatchGame | None = None) -> "Game":
    modes = catalog.plugins.modes() if catalog.plugins is not None else {}
    spec = modes.get(mode)
    if spec is None:
        raise SetupError(f"unknown mode {mode!r}; installed modes: {', '.join(sorted(modes)) or 'none'}")
    if len(decks) != spec.players:
        raise SetupError(f"{spec.name} is played by {spec.players} players; {len(decks)} decks given")
    loaded: list[Deck] = [load_deck(catalog, d) for d in decks]
    for deck in loaded:
        check(catalog, deck)
    player_names = [names[i] if names and i < len(names) else f"P{i + 1}" for i in range(spec.players)]
    if spec.teams:
        # 491.8.h, 491.8.i: teammates may share neither their Champion Legend nor a battlefield
        shared = team_violations(catalog, loaded, spec.teams, player_names)
        if shared:
            raise TeamDeckError([message for message, _ in shared], sorted({rule for _, rule in shared}))
    teams = spec.teams or tuple((i,) for i in range(spec.players))
    team_of = {p: t for t, members in enumerate(teams) for p in members}
    players = [Player(index=i, name=(names[i] if names and i < len(names) else f"P{i + 1}"),
                      team=team_of.get(i, i)) for i in range(spec.players)]
    state = GameState(mode=mode, seed=seed, rng=rng.seed_state(seed), victory_score=spec.victory_score,
                      players=players, battlefields=[], objs={})
    g = cls(catalog, state, spec=spec)
    g.emit("setup", mode=mode, seed=seed, players=[p.name for p in players], decks=[d.name for d in loaded])
    for i, deck in enumerate(loaded):
        p = players[i]
        legend = g.new_obj(deck.legend, i, "legend")
        p.legend = legend.id
        g.index_object(legend.id)
        champion = g.new_obj(deck.champion, i, "champion")
        p.champion.append(champion.id)
        p.chosen_champion = champion.id
        for code in deck.main:
            p.main_deck.append(g.new_obj(code, i, "main_deck").id)
        for code in deck.runes:
            p.rune_deck.append(g.new_obj(code, i, "rune_deck").id)
        g.shuffle(p.main_deck)
        g.shuffle(p.rune_deck)
        for code in deck.battlefields:
            p.battlefields_owned.append(g.new_obj(code, i, "set_aside").id)
    for oid, obj in state.objs.items():
        if obj.zone in g.defs[obj.code].facts.trigger_zones:
            g.index_object(oid)  # a trigger that listens from the deck ("when you look at me", OGN-194) is live from the start
    if spec.battlefield_choice == "choose":
        _choose_battlefields(g, match)  # 488.5: chosen, then revealed, then the turn order
        return g
    if spec.first_player_battlefields_unused:
        _turn_order(g)  # 490.4.b, 491.5.a: who goes first is known before the battlefields
        g.emit("battlefields_unused", player=state.turn_order[0])  # 490.4.b: the first player's aren't used
    for i, p in enumerate(players):
        if spec.first_player_battlefields_unused and i == state.turn_order[0]:
            continue
        # 487.5, 489.5, 490.5: each player's battlefield is picked at random from their three
        chosen = p.battlefields_owned[g.random_below(len(p.battlefields_owned))]
        _put_battlefield(g, i, chosen)
    if not spec.first_player_battlefields_unused:
        _turn_order(g)
    for i in state.turn_order:
        verbs.draw(g, i, 4)  # 116
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
    g.index_object(card)
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
    verbs.draw(g, player, len(cards))
    verbs.recycle(g, cards, random_order=True)
    p.mulliganed = True


# ---------------------------------------------------------------------- chosen battlefields (488.5)
def _choose_battlefields(g: "Game", match: MatchGame | None) -> None:
    """488.5: each player chooses a battlefield in secret; the choices are revealed and placed
    together, then the turn order is decided (rulings: reveal the battlefields, then the turn
    order), then the opening hands (116) and mulligans (117).  Each part is a task, so the game
    waits for every answer as plain, serializable data."""
    s = g.state
    m = match or MatchGame()
    s.tasks.append(["opening_hands"])
    s.tasks.append(["turn_order", -1 if m.chooser is None else m.chooser, -1 if m.first is None else m.first])
    s.tasks.append(["reveal_battlefields", {}])
    for i in reversed(range(len(s.players))):
        allowed = m.allowed[i] if i < len(m.allowed) else None
        refused = m.refused[i] if i < len(m.refused) else {}
        s.tasks.append(["battlefield", i, None if allowed is None else list(allowed), dict(refused)])
    g.run()


def run_task(g: "Game", task: list[Any]) -> None:
    name = task[0]
    if name == "battlefield":
        ask_battlefield(g, int(task[1]), task[2], task[3])
    elif name == "reveal_battlefields":
        reveal_battlefields(g, task[1])
    elif name == "turn_order":
        decide_turn_order(g, int(task[1]), int(task[2]))
    elif name == "opening_hands":
        opening_hands(g)


def ask_battlefield(g: "Game", player: int, allowed: list[str] | None, refused: dict[str, list[str]]) -> None:
    """488.5: the player chooses one of their battlefields still available in the match."""
    owned = g.state.players[player].battlefields_owned
    options: list[dict[str, Any]] = [{"label": g.name(oid), "value": oid} for oid in owned
                                     if allowed is None or g.obj(oid).code in allowed]
    if not options:
        raise SetupError(f"{g.state.players[player].name} has no battlefield left to present")
    reasons = {str(oid): list(refused[g.obj(oid).code]) for oid in owned if g.obj(oid).code in refused}
    g.state.decision = Decision("battlefield", player, "choose your battlefield for this game "
                                "(secret until every player has chosen)", options=options,
                                context={"refused": reasons})


def battlefield_refusal(g: "Game", player: int, value: Any) -> tuple[str, str]:
    """Why a battlefield is not among the options: the match's reason, or not the player's own."""
    d = g.state.decision
    assert d is not None
    reason = d.context.get("refused", {}).get(str(value))
    if reason:
        return str(reason[0]), str(reason[1])
    return f"{value!r} is not one of your battlefields", "488.5"


def battlefield_chosen(g: "Game", player: int, oid: int) -> None:
    """The choice waits, unrevealed, in the reveal task until every player has chosen (488.5)."""
    for task in reversed(g.state.tasks):
        if task[0] == "reveal_battlefields":
            task[1][str(player)] = oid
            break
    g.emit("battlefield_chosen", player=player)  # which one stays secret until the reveal


def reveal_battlefields(g: "Game", chosen: dict[str, int]) -> None:
    """487.5, 488.5: the chosen battlefields are revealed and placed simultaneously."""
    placed = sorted((int(k), int(v)) for k, v in chosen.items())
    g.emit("battlefields_revealed", cards=[g.obj(oid).code for _, oid in placed],
           players=[player for player, _ in placed])
    for player, oid in placed:
        _put_battlefield(g, player, oid)


def decide_turn_order(g: "Game", chooser: int, first: int) -> None:
    """After the reveal: the previous game's loser chooses to play first or second (rulings:
    previous loser picks, reveal before turn order); after a drawn game the previous first
    player goes first again (ruling: 'after a draw the starting order is maintained');
    otherwise, as in game 1, a fair random method decides (115)."""
    if chooser >= 0:
        options = [{"label": "play first", "value": "first"}, {"label": "play second", "value": "second"}]
        g.state.decision = Decision("turn_order", chooser, "you lost the previous game: play first or second?",
                                    options=options)
    elif first >= 0:
        _order_from(g, first, kept=True)
    else:
        _turn_order(g)


def turn_order_chosen(g: "Game", player: int, choice: str) -> None:
    count = len(g.state.players)
    _order_from(g, player if choice == "first" else (player - 1) % count, chosen_by=player, choice=choice)


def _order_from(g: "Game", first: int, **why: Any) -> None:
    count = len(g.state.players)
    g.state.turn_order = [(first + k) % count for k in range(count)]
    g.emit("turn_order", order=g.state.turn_order, **why)


def opening_hands(g: "Game") -> None:
    """116, 117: four cards each in turn order, then the mulligans in turn order."""
    state = g.state
    for i in state.turn_order:
        verbs.draw(g, i, 4)  # 116
    for i in reversed(state.turn_order):
        state.tasks.append(["mulligan", i])  # 117: in turn order
