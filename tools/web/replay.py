"""Replays: a game log or record opened in the browser and stepped through, forwards and backwards.

A file is read by the first of :data:`READERS` that recognises it; each gives one or more
:class:`Recording` (how the game was set up and the actions taken, or how to find them).  Readers:

* a game saved by ``riftscript serve`` (``{"format": "riftscript-web-game", ...}``);
* a ``Game.to_json()`` or ``Match.to_json()`` document (the decks are installed ones, by name, for
  a game; a match carries its deck lists);
* game records, one JSON object per line or a JSON list: ``{"seed", "mode", "decks", "agents",
  "names", "hash"}`` (only ``seed`` and ``decks`` are required; agents default to ``random``); the
  game is played again with those agents and, when the record has a hash, checked against it;
* a ``riftscript simulate --log`` file: its play-by-play names mode, seed and decks, and each game
  ends with the start of its log hash, so the game is played again with each installed agent in
  turn until one gives that hash.  When none does, the text is stepped through turn by turn.

To support another format, add a function ``(cards, text) -> list[Recording] | None`` to READERS.
A step is one player action: step 0 is the game as set up, step k the game after k actions.

An upload is untrusted.  What would fail when its game is opened is refused as it is uploaded
(:func:`check`: JSON nested deeper than any save, decks that are not deck lists, a mode or agent
that is not installed, a game that can't be set up); playing a record's game again to find its
actions is bounded in time (:data:`SECONDS_PER_RECORD`), and a failure is kept, not tried again.
"""
from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from riftscript.core.script.catalog import Catalog
from riftscript.core.script.schema import shallow
from riftscript.core.script.decks import load_deck
from riftscript.core.errors import RiftScriptError
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.core.engine.vocabulary import Action
from riftscript.tools.interactive import describe
from riftscript.tools.play import make_agents
from riftscript.tools.web.games import FORMAT as GAME_FORMAT
from riftscript.tools.web.games import deck_data, deck_from_data
from riftscript.tools.web.workshop import CardCatalogs

MAX_RECORDINGS = 200
MAX_ACTIONS = 100_000
MAX_DEPTH = 64  # nesting of an uploaded JSON document (a save nests about 10 deep)
SEED_LIMIT = 2 ** 63  # seeds are 64-bit numbers in records; a bigger one is no game RiftScript played
SECONDS_PER_GUESS = 10.0  # playing a text log's game again with one installed agent
SECONDS_PER_RECORD = 60.0  # playing a record's game again with its own agents (MCTS ones are slow)
DECK_TEXT = ("name", "legend", "champion")
DECK_LISTS = ("main", "runes", "battlefields")


class ReplayError(RiftScriptError):
    """The file can't be replayed: what is wrong with it, in words."""


@dataclass
class Recording:
    """One game (or match) to step through: its setup and actions (or how to find the actions)."""

    title: str
    mode: str = "duel"
    seed: int = 0
    decks: list[dict[str, Any]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    actions: list[Action] | None = None  # None: not found yet (played again when opened)
    agents: list[str] = field(default_factory=list)  # a record's agents, to find the actions
    hash: str = ""  # the log hash (or its start) the game must reach
    card: str | None = None  # a workshop card the decks play with
    text: list[str] = field(default_factory=list)  # a text log's lines (stepped through when nothing else works)
    note: str = ""  # what the reader found out (e.g. which agent reproduced the log)
    problem: str = ""  # why the game can't be rebuilt, once found (it is not played again on every view)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Recording":
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _actions(log: list[Any]) -> list[Action]:
    return [e["action"] for e in log if isinstance(e, dict) and e.get("t") == "action" and "action" in e]


def _json(text: str) -> Any:
    """The JSON document, or None if the text is not JSON; hostile JSON is refused as such."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    except RecursionError:
        raise ReplayError("the file's JSON is nested too deeply to be a game") from None
    except ValueError:  # json reads every integer, and one of over 4,300 digits can't be converted
        raise ReplayError(f"the file holds a number with more than {sys.get_int_max_str_digits():,} digits, "
                          f"which no game has") from None
    if not shallow(data, MAX_DEPTH):
        raise ReplayError(f"the file's JSON nests more than {MAX_DEPTH} levels deep, which no game does")
    return data


def _deck(data: Any) -> dict[str, Any]:
    """A deck list from the file, with every field and of the right kind (a malformed one would be
    stored, and fail only when its game is opened)."""
    if not isinstance(data, dict):
        raise ReplayError(f"a deck in the file is {type(data).__name__}, not a deck list (a JSON object)")
    name = data.get("name")
    what = f"deck {name!r}" if isinstance(name, str) else "a deck in the file"
    for key in DECK_TEXT:
        if not isinstance(data.get(key), str):
            raise ReplayError(f"{what}: {key!r} must be text (a deck list has a name, legend and champion, "
                              f"and lists of main, runes and battlefields card codes)")
    for key in DECK_LISTS:
        cards = data.get(key)
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise ReplayError(f"{what}: {key!r} must be a list of card codes")
    return data


def _installed_decks(catalog: Catalog, names: list[Any]) -> list[dict[str, Any]]:
    out = []
    for name in names:
        if isinstance(name, dict):
            out.append(_deck(name))
            continue
        try:
            out.append(deck_data(load_deck(catalog, str(name))) if str(name) in catalog.decks else {})
        except RiftScriptError:
            out.append({})
        if not out[-1]:
            raise ReplayError(f"deck {name!r} is not an installed deck, and the file doesn't list its cards")
    return out


def read_web_game(cards: CardCatalogs, text: str) -> list[Recording] | None:
    data = _json(text)
    if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
        return None
    try:
        game = data["game"]
        card = data.get("card")
        if card is not None and not isinstance(card, str):
            raise TypeError("the card is YAML text")
        return [Recording(f"{data['mode']} game, seed {data['seed']}", str(data["mode"]), int(data["seed"]),
                          [_deck(d) for d in data["decks"]], [str(n) for n in data["names"]], _actions(game["log"]),
                          card=card)]
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"a saved game, but {type(exc).__name__}: {exc}") from None


def read_engine_save(cards: CardCatalogs, text: str) -> list[Recording] | None:
    data = _json(text)
    if not isinstance(data, dict) or not isinstance(data.get("log"), list) or not ("state" in data or "match" in data):
        return None
    log = data["log"]
    first = log[0] if log and isinstance(log[0], dict) else {}
    try:
        if "match" in data:
            decks = [_deck(d) for d in data["decks"]]
        else:
            decks = _installed_decks(cards.base, list(first["decks"]))
        return [Recording(f"{first['mode']} game, seed {first['seed']}", str(first["mode"]), int(first["seed"]),
                          decks, [str(p) for p in first["players"]], _actions(log))]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ReplayError(f"a saved game, but its first event is not its setup ({type(exc).__name__}: {exc})") from None


def read_records(cards: CardCatalogs, text: str) -> list[Recording] | None:
    data = _json(text)
    if isinstance(data, dict):
        items: list[Any] = [data]
    elif isinstance(data, list):
        items = data
    else:
        items = [_json(line) for line in text.splitlines() if line.strip()]
    if not items or not all(isinstance(i, dict) and "seed" in i and "decks" in i for i in items):
        return None
    out = []
    for n, item in enumerate(items[:MAX_RECORDINGS], 1):
        try:
            decks = _installed_decks(cards.base, list(item["decks"]))
            mode = str(item.get("mode", "duel"))
            agents = item.get("agents") or ["random"]
            agents = [str(agents)] if isinstance(agents, str) else [str(a) for a in agents]
            if len(agents) == 1:
                agents = agents * len(decks)
            names = item.get("names") or item.get("players") or [str(d["name"]).split()[0] for d in decks]
            out.append(Recording(f"record {n}: {mode}, seed {item['seed']}", mode, int(item["seed"]), decks,
                                 [str(x) for x in names], None, agents, str(item.get("hash") or item.get("log_hash") or "")))
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"record {n}: {type(exc).__name__}: {exc}") from None
    return out


SECTION = re.compile(r"^=== (?:game|match) \d+, seed -?\d+ ===$")
SETUP = re.compile(r"^(?:Setup: (?P<mode>\S+) \(seed (?P<seed>-?\d+)\)"
                   r"|Match, best of \d+ \((?P<mmode>\S+), seed (?P<mseed>-?\d+)\)): (?P<seats>.*)$")
SEAT = re.compile(r"^(?P<name>.+?) \((?P<deck>.+)\)$")
HASH = re.compile(r"log hash (?P<hash>[0-9a-f]{8,64})\s*$")


def read_simulate_log(cards: CardCatalogs, text: str) -> list[Recording] | None:
    lines = text.splitlines()
    if not lines or not SECTION.match(lines[0]):
        return None
    sections: list[list[str]] = []
    for line in lines:
        if SECTION.match(line):
            sections.append([line])
        elif sections:
            sections[-1].append(line)
    out = []
    for section in sections[:MAX_RECORDINGS]:
        setup = next((SETUP.match(line) for line in section[1:3] if SETUP.match(line)), None)
        if setup is None:
            raise ReplayError(f"{section[0]}: no 'Setup:' line naming the mode, seed and decks")
        seats = [SEAT.match(part) for part in setup["seats"].split(" vs ")]
        if not all(seats):
            raise ReplayError(f"{section[0]}: can't read the players and decks from {setup['seats']!r}")
        ending = next((HASH.search(line) for line in reversed(section) if HASH.search(line)), None)
        out.append(Recording(section[0].strip("= "), setup["mode"] or setup["mmode"],
                             int(setup["seed"] or setup["mseed"]),
                             _installed_decks(cards.base, [s["deck"] for s in seats if s]),
                             [s["name"] for s in seats if s], None, [],
                             ending["hash"] if ending else "", text=section))
    return out


Reader = Callable[[CardCatalogs, str], "list[Recording] | None"]
READERS: list[Reader] = [read_web_game, read_engine_save, read_records, read_simulate_log]


def read(cards: CardCatalogs, text: str) -> list[Recording]:
    """The recordings in an uploaded file, each checked, or a ReplayError saying why there are none."""
    for reader in READERS:
        found = reader(cards, text)
        if found is not None:
            if not found:
                raise ReplayError("the file holds no games")
            for rec in found:
                check(cards, rec)
            return found
    raise ReplayError("not a game RiftScript can replay: expected a saved game (JSON), game records "
                      "(JSON lines with seed and decks) or a 'riftscript simulate --log' file")


def check(cards: CardCatalogs, rec: Recording) -> None:
    """Refuse a recording now rather than when its game is opened: its seed, its actions (JSON
    objects), its agents (installed, one per seat) and its game (set up from its mode and decks)."""
    if not -SEED_LIMIT <= rec.seed < SEED_LIMIT:
        raise ReplayError(f"a game's seed has {rec.seed.bit_length()} bits; seeds are 64-bit numbers")
    if rec.actions is not None:
        if len(rec.actions) > MAX_ACTIONS:
            raise ReplayError(f"{rec.title}: {len(rec.actions):,} actions; a replay holds at most {MAX_ACTIONS:,}")
        odd = next((i for i, action in enumerate(rec.actions) if not isinstance(action, dict)), None)
        if odd is not None:
            raise ReplayError(f"{rec.title}: action {odd + 1} is {type(rec.actions[odd]).__name__}, "
                              f"not an action (a JSON object)")
    catalog = cards.catalog(rec.card)
    if rec.agents:
        assert catalog.plugins is not None
        installed = catalog.plugins.agents()
        unknown = [a for a in rec.agents if a not in installed]
        if unknown:
            raise ReplayError(f"{rec.title}: unknown agent {unknown[0]!r}; installed: {', '.join(sorted(installed))}")
        if len(rec.agents) != len(rec.decks):
            raise ReplayError(f"{rec.title}: {len(rec.agents)} agents for {len(rec.decks)} players")
    try:
        new_game(catalog, rec)
    except RiftScriptError as exc:
        raise ReplayError(f"{rec.title}: {exc}") from None


def new_game(catalog: Catalog, rec: Recording) -> Game | Match:
    spec = catalog.plugins.modes().get(rec.mode) if catalog.plugins is not None else None
    if spec is None:
        raise ReplayError(f"mode {rec.mode!r} is not installed")
    decks = [deck_from_data(d) for d in rec.decks]
    if spec.best_of > 1:
        return Match.new(catalog, decks, mode=rec.mode, seed=rec.seed, names=rec.names)
    return Game.new(catalog, decks, mode=rec.mode, seed=rec.seed, names=rec.names)


def _hash_matches(game: Game | Match, wanted: str) -> bool:
    return not wanted or game.log_hash().startswith(wanted)


def _play(game: Game | Match, agents: list[Any], seconds: float) -> bool:
    """``agents.play_out`` within a time limit; False if the time ran out."""
    stop = time.monotonic() + seconds
    for _ in range(MAX_ACTIONS):
        decision = game.pending_decision()
        if game.over or decision is None:
            return True
        if time.monotonic() > stop:
            return False
        current = game.game if isinstance(game, Match) else game
        game.apply(agents[decision.player].choose(current, game.legal_actions()))
    return True


def find_actions(cards: CardCatalogs, rec: Recording) -> None:
    """Fill ``rec.actions`` by playing the game again with its agents (or, for a text log, with
    each installed agent until one reproduces the log hash); leaves them None if none does.
    A record whose game can't be rebuilt raises a ReplayError, kept in ``rec.problem``."""
    if rec.problem:
        raise ReplayError(rec.problem)
    if rec.actions is not None or (rec.note and not rec.agents):
        return  # found, or a text log no agent reproduces (looked for once: up to a minute)
    catalog = cards.catalog(rec.card)
    assert catalog.plugins is not None
    # simulate's default agent first; a slow agent that is not the one gives up after a few seconds
    names = sorted(catalog.plugins.agents(), key=lambda name: (name != "random", name))
    candidates = [rec.agents] if rec.agents else [[name] * len(rec.decks) for name in names]
    for agents in candidates:
        game = new_game(catalog, rec)
        seconds = SECONDS_PER_RECORD if rec.agents else SECONDS_PER_GUESS
        if not _play(game, make_agents(catalog, agents, rec.seed), seconds):
            if rec.agents:
                rec.problem = (f"{rec.title}: playing the game again with {' vs '.join(agents)} agents takes more "
                               f"than {SECONDS_PER_RECORD:g} s, the most a replay is given here; replay the record "
                               f"on the command line instead: riftscript replay RECORDS")
                raise ReplayError(rec.problem)
            continue
        if _hash_matches(game, rec.hash):
            rec.actions = _actions(game.log)
            rec.note = f"played again with {' vs '.join(agents)} agents" + (", same log hash" if rec.hash else "")
            return
    if rec.agents:
        rec.problem = (f"{rec.title}: played again with {', '.join(rec.agents)} agents, the game doesn't reach "
                       f"the recorded log hash {rec.hash}")
        raise ReplayError(rec.problem)
    rec.note = ("no installed agent reproduces this log (its log hash), so the board can't be rebuilt: "
                "the play-by-play is shown turn by turn")


def text_steps(rec: Recording) -> list[list[str]]:
    """A text-only replay's steps: the play-by-play cut at each turn."""
    steps: list[list[str]] = [[]]
    for line in rec.text[1:]:
        if line.startswith("== Turn") or line.startswith("===== Game"):
            steps.append([])
        steps[-1].append(line)
    return steps


class Stepper:
    """A recording's game at any step; steps forward from the last one shown, backward from the start."""

    def __init__(self, catalog: Catalog, rec: Recording) -> None:
        self.catalog = catalog
        self.rec = rec
        self.game = new_game(catalog, rec)
        self.step = 0
        self.labels: list[str] = []  # what the action of each step was, in words

    @property
    def steps(self) -> int:
        return len(self.rec.actions or [])

    def goto(self, step: int) -> None:
        step = max(0, min(step, self.steps))
        if step < self.step:
            self.game = new_game(self.catalog, self.rec)
            self.step = 0
        actions = self.rec.actions or []
        while self.step < step:
            current = self.game.game if isinstance(self.game, Match) else self.game
            decision = self.game.pending_decision()
            label = self._describe(current, actions[self.step])
            who = current.state.players[decision.player].name if decision is not None else "?"
            if len(self.labels) == self.step:
                self.labels.append(f"{who}: {label}")
            try:
                self.game.apply(actions[self.step])
            except RiftScriptError as exc:
                raise ReplayError(f"step {self.step + 1} can't be replayed: {exc}") from None
            self.step += 1

    def _describe(self, game: Game, action: Action) -> str:
        """The action in words; one that names no object of the game is no action of it (an
        uploaded file's action can be anything), and describing it would fail."""
        try:
            return describe(game, action)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            if action in self.game.legal_actions():
                return str(action.get("type", "an action"))
            raise ReplayError(f"step {self.step + 1} can't be replayed: the file's action is not one the game "
                              f"allows there") from None
