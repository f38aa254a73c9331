"""A 1v1 Match (488): games of Duel played in a row until one player has a majority of game wins.

``Match`` has the surface of ``Game`` (``pending_decision``, ``legal_actions``, ``apply``, ``over``,
``observation``, ``to_json``/``from_json``, ``log``/``log_hash``), so agents and
``agents.play_out`` drive it the same way; ``match.game`` is the game being played.

What the match adds, and where it comes from:

* 488.5: every game's battlefields are chosen (``battlefield`` decisions in the game's setup).
* 488.6: a won game gives its winner one game win; the battlefields in play in a won game are
  removed for the rest of the match, and new ones are chosen from those set aside; the first to a
  majority of game wins (2 of 3, 3 of 5) wins the match.
* 115: game 1's first player is chosen at random.  From game 2 the loser of the previous game
  chooses to play first or second, after the battlefields are revealed (rulings-faq: "the loser of
  the previous game chooses who plays first", "reveal the battlefield first, then determine turn
  order", "the loser ... chooses first or last; if the previous game was a draw, the starting play
  from the previous game is maintained").
* Best of 5 (Vendetta patch notes, July 2026, quoted in game-modes.md): in games 4 and 5 a player
  may present a removed battlefield, but only once they have presented each of their battlefields
  at least once, and no battlefield is presented more than twice in the match.

Decisions where the rules are silent, each with its source:

* A drawn game (loop rule, core/engine/loop_draw.py) gives no game win and removes no battlefield: 488.6 and
  game-modes.md remove battlefields only "after a game that someone wins".  It still counts as one
  of the match's games, so a best of 3 plays at most three games (488.6 "Best of 3").
* After the last game, or once no game is left, the player with more game wins wins the match;
  equal game wins make a drawn match (rulings-faq: "The match ends as a 1-1 tie (draw). Each game
  win counts separately").
* Best of 5, "present a battlefield at most twice in a given match": every presentation in the
  match counts, drawn games included (a battlefield is presented when it is revealed).  Games are
  numbered with drawn games included ("games 4 and 5 of the match").
* A concession ends the game, not the match: the other player wins that game (a player who wants
  to leave the match concedes each game).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from . import rng, saves
from ..script.catalog import Catalog
from ..script.decks import Deck, load_deck
from ..errors import GameOverError
from .events import Event, log_hash
from .game import Game
from ..script.registry import ModeSpec
from .setup import MatchGame, SetupError
from .state import Decision
from .vocabulary import Action

MATCH_EVENTS = frozenset({"match_start", "game_start", "game_end", "match_over"})


@dataclass
class MatchState:
    """Everything a match remembers between its games (plain data: it round-trips through JSON)."""

    mode: str
    seed: int
    best_of: int
    names: list[str]
    rng: int
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    removed: list[list[str]] = field(default_factory=lambda: [[], []])  # battlefield codes, per seat
    presented: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])  # code -> times presented
    games: list[dict[str, Any]] = field(default_factory=list)  # one record per finished game
    winner: int | None = None
    result: str = ""  # "" while playing, then "win" or "draw"
    count: int = 0  # match events emitted


class Match:
    """A best-of-N match of 1v1 games (488)."""

    def __init__(self, catalog: Catalog, spec: ModeSpec, decks: list[Deck], state: MatchState,
                 game: Game, log: list[Event]) -> None:
        self.catalog = catalog
        self.spec = spec
        self.decks = decks
        self.state = state
        self.game = game
        self.log = log
        self.games: list[Game] = []  # the finished games of this session (not serialized)
        self._synced = len(game.log)

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, catalog: Catalog, decks: list[Any], mode: str = "match", seed: int = 0,
            names: list[str] | None = None) -> "Match":
        """Start a match between two decks (names or ``Deck`` objects) in a best-of mode."""
        spec = _spec(catalog, mode)
        if len(decks) != 2:
            raise SetupError(f"a {spec.name} is played by 2 players; {len(decks)} decks given")
        loaded = [load_deck(catalog, d) for d in decks]
        names = [names[i] if names and i < len(names) else f"P{i + 1}" for i in range(2)]
        state = MatchState(mode=mode, seed=seed, best_of=spec.best_of, names=names, rng=rng.seed_state(seed))
        log: list[Event] = []
        match = cls.__new__(cls)
        match.catalog, match.spec, match.decks, match.state, match.log = catalog, spec, loaded, state, log
        match.games = []
        match._emit("match_start", mode=mode, seed=seed, best_of=spec.best_of, players=names,
                    decks=[d.name for d in loaded])
        match._start_game()
        return match

    # ------------------------------------------------------------------ the Game-like surface
    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self.state.result != ""

    @property
    def number(self) -> int:
        """The current game's number in the match (drawn games count)."""
        return len(self.state.games) + (0 if self.over else 1)

    def pending_decision(self) -> Decision | None:
        """Who must decide what in the current game (None once the match is over)."""
        return None if self.over else self.game.pending_decision()

    def legal_actions(self) -> list[Action]:
        """The current game's legal actions (none once the match is over)."""
        return [] if self.over else self.game.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply an action in the current game; a finished game starts the next one (488.6).
        Atomic like ``Game.apply``: an illegal action changes neither the game nor the match."""
        if self.over:
            raise GameOverError("the match is over")
        self.game.apply(action)
        self._sync()
        if self.game.over:
            self._finish_game()

    def observation(self, player: int) -> dict[str, Any]:
        """The current game as the player sees it, plus the match's public record."""
        out = self.game.observation(player)
        out["match"] = self.summary()
        return out

    def summary(self) -> dict[str, Any]:
        """The match's public record: game number, wins, draws, removed battlefields, result."""
        s = self.state
        return {"mode": s.mode, "best_of": s.best_of, "game": self.number, "wins": list(s.wins), "draws": s.draws,
                "removed": [list(r) for r in s.removed], "presented": [dict(p) for p in s.presented],
                "games": [dict(g) for g in s.games], "winner": s.winner, "result": s.result}

    @property
    def result(self) -> dict[str, Any]:
        """How the match ended (or stands): winner seat or None, game wins per seat, draws."""
        s = self.state
        return {"result": s.result or "playing", "winner": s.winner, "wins": list(s.wins), "draws": s.draws,
                "games": len(s.games)}

    def to_json(self) -> str:
        """The whole match (its record, decks, log and the current game) as JSON;
        ``Match.from_json`` reads it back, checked."""
        return json.dumps({"match": asdict(self.state), "decks": [_deck_data(d) for d in self.decks],
                           "log": self.log, "game": json.loads(self.game.to_json())}, sort_keys=True)

    @classmethod
    def from_json(cls, catalog: Catalog, text: str | bytes, replay: bool = True) -> "Match":
        """A saved match, checked like a saved game (core/engine/saves.py); else CorruptStateError."""
        return saves.load_match(cls, catalog, text, replay, Game, MatchState, _spec)

    def log_hash(self) -> str:
        """The hash of the whole match: match events and every game's events, in order."""
        return log_hash(self.log)

    # ------------------------------------------------------------------ between games
    def _emit(self, etype: str, **fields: Any) -> Event:
        self.state.count += 1
        event: Event = {"n": self.state.count, "t": etype, "match": True}
        event.update(fields)
        self.log.append(event)
        return event

    def _sync(self) -> None:
        """Copy the game's new events into the match log (references, not copies)."""
        self.log.extend(self.game.log[self._synced:])
        self._synced = len(self.game.log)

    def _start_game(self) -> None:
        s = self.state
        number = len(s.games) + 1
        s.rng, seed = rng.next_u64(s.rng)
        seed &= (1 << 62) - 1
        previous = s.games[-1] if s.games else None
        chooser = first = None
        if previous is not None:
            if previous["winner"] is not None:
                chooser = 1 - int(previous["winner"])  # rulings: the loser chooses first or second
            elif previous["first"] is not None:
                first = int(previous["first"])  # ruling: after a draw the starting order is kept
        allowed, refused = zip(*(self._available(p, number) for p in range(2)))
        options = MatchGame(number=number, allowed=tuple(allowed), refused=tuple(refused), chooser=chooser,
                            first=first)
        self._emit("game_start", game=number, seed=seed, chooser=chooser, first=first,
                   available=[list(a) for a in allowed])
        self.game = Game.new(self.catalog, list(self.decks), mode=s.mode, seed=seed, names=s.names, match=options)
        self._synced = 0
        self._sync()
        if self.game.over:
            self._finish_game()

    def _available(self, player: int, number: int) -> tuple[tuple[str, ...], dict[str, list[str]]]:
        """The battlefields a player may present in game ``number``, and why the others are not."""
        s = self.state
        codes = list(dict.fromkeys(self.decks[player].battlefields))
        presented = s.presented[player]
        removed = set(s.removed[player])
        bo5 = s.best_of >= 5
        # Vendetta patch notes: in games 4 and 5 of a best of 5, a removed battlefield may be presented
        # again once each of the player's battlefields has been presented at least once
        reuse = bo5 and number >= 4 and all(presented.get(c, 0) >= 1 for c in codes)
        allowed: list[str] = []
        refused: dict[str, list[str]] = {}
        for code in codes:
            if bo5 and presented.get(code, 0) >= 2:
                refused[code] = ["a battlefield may be presented at most twice in a best-of-5 match "
                                 "(Vendetta patch notes)", "488.6"]
            elif code in removed and not reuse:
                why = ("until each of your battlefields has been presented once (Vendetta patch notes)"
                       if bo5 and number >= 4 else "for the rest of the match")
                refused[code] = [f"{self.catalog.cards[code].name} was removed after a won game {why}", "488.6"]
            else:
                allowed.append(code)
        return tuple(allowed), refused

    def _finish_game(self) -> None:
        """488.6: record the game; the winner earns a game win; the battlefields of a won game are
        removed; the match ends at a majority of game wins, or when its games are played."""
        s = self.state
        g = self.game.state
        winner = g.winners[0] if g.winners else None
        in_play = [[self.game.obj(bf.card).code for bf in g.battlefields if bf.owner == p] for p in range(2)]
        for p in range(2):
            for code in in_play[p]:
                s.presented[p][code] = s.presented[p].get(code, 0) + 1
        if winner is None:
            s.draws += 1
        else:
            s.wins[winner] += 1
            for p in range(2):
                s.removed[p].extend(c for c in in_play[p] if c not in s.removed[p])
        record = {"game": len(s.games) + 1, "seed": g.seed, "winner": winner, "result": g.result,
                  "first": g.turn_order[0] if g.turn_order else None, "battlefields": in_play,
                  "turns": g.turn, "hash": self.game.log_hash()}
        s.games.append(record)
        self._emit("game_end", **record, wins=list(s.wins))
        self.games.append(self.game)
        majority = s.best_of // 2 + 1
        leader = max(range(2), key=lambda p: s.wins[p])
        if s.wins[leader] >= majority:
            self._end(leader)
        elif len(s.games) >= s.best_of:
            self._end(leader if s.wins[leader] > s.wins[1 - leader] else None)
        else:
            self._start_game()

    def _end(self, winner: int | None) -> None:
        s = self.state
        s.winner = winner
        s.result = "win" if winner is not None else "draw"
        self._emit("match_over", winner=winner, result=s.result, wins=list(s.wins), draws=s.draws,
                   games=len(s.games))


def _spec(catalog: Catalog, mode: str) -> ModeSpec:
    modes = catalog.plugins.modes() if catalog.plugins is not None else {}
    spec = modes.get(mode)
    if spec is None:
        raise SetupError(f"unknown mode {mode!r}; installed modes: {', '.join(sorted(modes)) or 'none'}")
    if spec.players != 2 or spec.best_of < 2:
        raise SetupError(f"{mode} is not a 1v1 best-of mode; a Match needs one (match, match-bo5)")
    if spec.battlefield_choice != "choose":
        raise SetupError(f"{mode}: a match's battlefields are chosen (488.5); the mode chooses them at random")
    return spec


def _deck_data(deck: Deck) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(deck).items()}
