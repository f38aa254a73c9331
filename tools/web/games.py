"""Games played in the browser: a table of seats (people and agents), saved as JSON after every change.

A table is set up from plain data (mode, seed, deck lists, seat names, and the workshop card it
plays with, if any) and holds the engine's ``Game`` or ``Match``.  It is written to
``DATA_DIR/games/ID.json`` after every change, atomically, so a game survives a restart of the
server; only a few tables stay in memory.  Ids and seat tokens come from :mod:`secrets`: the id
names the game, and each person's seat has its own token, kept only as a hash, so one player's
page can't act for another seat.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
import threading
from collections import OrderedDict
import weakref
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator

from riftscript.core.engine.agents import Agent
from riftscript.core.script.catalog import Catalog
from riftscript.core.script.decks import Deck
from riftscript.core.errors import IllegalActionError, RiftScriptError
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.tools.web.workshop import CardCatalogs

FORMAT = "riftscript-web-game"
PERSON = "person"
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
MAX_AGENT_ACTIONS = 20_000  # agents' actions in one request; a game always ends long before (loops.py)


class NotFound(RiftScriptError):
    """No game with that id, or not that seat's token (the two are not told apart)."""


class Stale(RiftScriptError):
    """The page acted on an older position than the game's (another tab, or a double click)."""


@dataclass
class Table:
    """One game being played: how it was set up, who sits where, and the engine's game."""

    id: str
    mode: str
    seed: int
    decks: list[dict[str, Any]]
    names: list[str]
    seats: list[str]  # PERSON, or the name of the agent playing that seat
    tokens: list[str]  # per seat: the SHA-256 of a person's token, "" for an agent
    game: Game | Match
    card: str | None = None  # a workshop card's YAML the decks play with
    moves: int = 0  # actions applied so far: the version a page acts on

    @property
    def current(self) -> Game:
        """The game being played (a match's current game)."""
        return self.game.game if isinstance(self.game, Match) else self.game

    def seat_of(self, token: str) -> int:
        digest = _digest(token)
        for seat, stored in enumerate(self.tokens):
            if stored and hmac.compare_digest(stored, digest):
                return seat
        raise NotFound("no such game")

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": 1, "id": self.id, "mode": self.mode, "seed": self.seed,
                           "decks": self.decks, "names": self.names, "seats": self.seats, "tokens": self.tokens,
                           "card": self.card, "moves": self.moves, "game": json.loads(self.game.to_json())})


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def deck_data(deck: Deck) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(deck).items()}


def deck_from_data(data: dict[str, Any]) -> Deck:
    return Deck(name=str(data["name"]), legend=str(data["legend"]), champion=str(data["champion"]),
                main=tuple(map(str, data["main"])), runes=tuple(map(str, data["runes"])),
                battlefields=tuple(map(str, data["battlefields"])))


def make_agent(catalog: Catalog, name: str, seed: int) -> Agent:
    assert catalog.plugins is not None
    spec = catalog.plugins.agents().get(name)
    if spec is None:
        raise RiftScriptError(f"unknown agent {name!r}; installed: {', '.join(sorted(catalog.plugins.agents()))}")
    return spec.factory(seed)


def advance(table: Table, catalog: Catalog) -> int:
    """Let the agents act until a person must decide or the game ends; returns their actions.

    Each agent is seeded from the game's seed, its seat and the number of actions so far, so the
    same decisions replay to the same game whether or not the server was restarted in between."""
    game = table.game
    agents: dict[int, Agent] = {}
    done = 0
    while not game.over and done < MAX_AGENT_ACTIONS:
        decision = game.pending_decision()
        if decision is None or table.seats[decision.player] == PERSON:
            break
        seat = decision.player
        if seat not in agents:
            agents[seat] = make_agent(catalog, table.seats[seat], table.seed * 7919 + seat * 104729 + table.moves)
        game.apply(agents[seat].choose(table.current, game.legal_actions()))
        table.moves += 1
        done += 1
    return done


class _GameLock:
    """One game's lock (a class of our own, so the store can hold it weakly)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()


class GameStore:
    """Tables on disk under ``root``, a few of them in memory.

    Changes to one game are serialised by a lock per game id that lives as long as someone holds
    it, so a table dropped from memory and read again can't be changed twice at once."""

    def __init__(self, root: Path, cards: CardCatalogs, keep: int = 64) -> None:
        self.root = root
        self.cards = cards
        self.keep = keep
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, _GameLock] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()
        root.mkdir(parents=True, exist_ok=True, mode=0o700)

    @contextmanager
    def locked(self, gid: str) -> Iterator[Table]:
        """The table of game ``gid``, locked against other changes while the block runs."""
        with self._lock:
            held = self._locks.get(gid)
            if held is None:
                held = self._locks[gid] = _GameLock()
        with held.lock:
            yield self.get(gid)

    def catalog(self, table: Table) -> Catalog:
        return self.cards.catalog(table.card)

    def create(self, mode: str, decks: list[Deck], seats: list[str], seed: int, names: list[str],
               card: str | None = None) -> tuple[Table, dict[int, str]]:
        """A new game; returns it with the token of each person's seat (shown once, in their link)."""
        catalog = self.cards.catalog(card)
        assert catalog.plugins is not None
        spec = catalog.plugins.modes().get(mode)
        if spec is None:
            raise RiftScriptError(f"unknown mode {mode!r}")
        if PERSON not in seats:
            raise RiftScriptError("at least one seat is yours: the others are played by agents")
        for name in seats:
            if name != PERSON:
                make_agent(catalog, name, 0)  # an unknown agent is refused before the game starts
        game: Game | Match = (Match.new(catalog, list(decks), mode=mode, seed=seed, names=names)
                              if spec.best_of > 1 else Game.new(catalog, list(decks), mode=mode, seed=seed, names=names))
        tokens = {seat: secrets.token_urlsafe(18) for seat, kind in enumerate(seats) if kind == PERSON}
        table = Table(id=secrets.token_urlsafe(15), mode=mode, seed=seed, decks=[deck_data(d) for d in decks],
                      names=list(names), seats=list(seats),
                      tokens=[_digest(tokens[s]) if s in tokens else "" for s in range(len(seats))],
                      game=game, card=card)
        advance(table, catalog)
        self.save(table)
        self._remember(table)
        return table, tokens

    def get(self, gid: str) -> Table:
        if not ID_PATTERN.match(gid):
            raise NotFound("no such game")
        with self._lock:
            table = self._tables.get(gid)
            if table is not None:
                self._tables.move_to_end(gid)
                return table
        table = self._load(gid)
        return self._remember(table)

    def act(self, gid: str, token: str, index: int, moves: int) -> None:
        """The seat of ``token`` takes its ``index``-th legal action on the position after ``moves`` actions."""
        with self.locked(gid) as table:
            seat = table.seat_of(token)
            if moves != table.moves:
                raise Stale("the game has moved on since this page was shown")
            decision = table.game.pending_decision()
            if decision is None or decision.player != seat:
                raise IllegalActionError("it is not your decision")
            legal = table.game.legal_actions()
            if not 0 <= index < len(legal):
                raise IllegalActionError("no such action")
            table.game.apply(legal[index])
            table.moves += 1
            advance(table, self.catalog(table))
            self.save(table)

    def concede(self, gid: str, token: str) -> None:
        """The seat of ``token`` leaves the game (any time, 491.6.a's concession; core/engine/decisions.py)."""
        with self.locked(gid) as table:
            seat = table.seat_of(token)
            if table.game.over or table.game.pending_decision() is None:
                return
            table.game.apply({"type": "concede", "player": seat})
            table.moves += 1
            advance(table, self.catalog(table))
            self.save(table)

    def save(self, table: Table) -> None:
        """Write the table atomically: a crash leaves the old file or the new one, never half."""
        folder = self.root
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(table.to_json())
            os.replace(tmp, folder / f"{table.id}.json")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _remember(self, table: Table) -> Table:
        with self._lock:
            table = self._tables.setdefault(table.id, table)
            self._tables.move_to_end(table.id)
            while len(self._tables) > self.keep:
                self._tables.popitem(last=False)
        return table

    def _load(self, gid: str) -> Table:
        try:
            data = json.loads((self.root / f"{gid}.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise NotFound("no such game") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise NotFound("no such game")
        card = data.get("card")
        catalog = self.cards.catalog(card)
        text = json.dumps(data["game"])
        game: Game | Match = Match.from_json(catalog, text) if "match" in data["game"] else Game.from_json(catalog, text)
        return Table(id=gid, mode=data["mode"], seed=int(data["seed"]), decks=data["decks"], names=data["names"],
                     seats=data["seats"], tokens=data["tokens"], game=game, card=card, moves=int(data["moves"]))
