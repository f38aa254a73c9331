"""What one game of a run is, how a run numbers its games, and playing one game to a compact record.

Game *i* of a run depends on the run's plan and *i* alone (its seed, decks, seats and agents come from
``plan.spec(i)``), so a run gives the same records whichever worker plays which game.
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Protocol

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.decks import Deck
from riftscript.core.engine.game import Game
from riftscript.core.engine.invariants import InvariantError, baseline, check
from riftscript.core.engine.match import Match
from riftscript.core.version import ENGINE_VERSION
from riftscript.tools.play import make_agents, match_summary, narrate, narrate_match, summary

Record = dict[str, Any]
Stop = Callable[[], bool]


def never() -> bool:
    return False


@dataclass(frozen=True)
class Source:
    """Where a run's catalog comes from, so every worker loads the same one: the installed plugins
    plus these (module names or ``.py`` files, as given to ``--plugin``), through the cache or not."""

    plugins: tuple[str, ...] = ()
    cache: bool = True


_CATALOGS: dict[Source, Catalog] = {}


def catalog_for(source: Source, fresh: bool = False) -> Catalog:
    """The catalog of a source, loaded once per process (a forked worker inherits its parent's).

    A command starts with ``fresh=True``: the installed plugins, set folders and disabled plugins
    may have changed since an earlier command in the same process (an embedding program, the
    tests), and a run must see what is installed now; its workers then reuse that catalog."""
    found = None if fresh else _CATALOGS.get(source)
    if found is None:
        from riftscript.core.script.discovery import load_plugins
        from riftscript.tools.cli import load_plugin_module

        plugins = load_plugins(extra=[load_plugin_module(s) for s in source.plugins]) if source.plugins else None
        found = _CATALOGS[source] = load_catalog(plugins, strict=False, cache=None if source.cache else False)
    return found


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one game: with the same catalog, the same spec plays the same game."""

    index: int
    seed: int
    mode: str
    decks: tuple[Deck, ...]
    refs: tuple[str, ...]  # the decks as given (installed names or deck files), for the record and replay
    agents: tuple[str, ...]

    @property
    def names(self) -> list[str]:
        return [d.name.split()[0] if d.name.split() else f"P{i + 1}" for i, d in enumerate(self.decks)]


class Plan(Protocol):
    """The games of a run, numbered 0 .. total-1."""

    @property
    def total(self) -> int: ...

    def spec(self, index: int) -> GameSpec: ...


@dataclass(frozen=True)
class FixedPlan:
    """``games`` games of the same decks and agents; game i is seeded ``seed + i``."""

    mode: str
    decks: tuple[Deck, ...]
    refs: tuple[str, ...]
    agents: tuple[str, ...]
    seed: int
    games: int

    @property
    def total(self) -> int:
        return self.games

    def spec(self, index: int) -> GameSpec:
        return GameSpec(index, self.seed + index, self.mode, self.decks, self.refs, self.agents)


@dataclass(frozen=True)
class Job:
    """A plan and how to play it."""

    plan: Plan
    checked: bool = False  # invariants after every action (core/engine/invariants.py): the soak
    narrate: bool = False  # each record carries its play-by-play under "log" (simulate --log)
    max_actions: int = 100_000
    time_limit: float = 0.0  # CPU seconds one game may take before it is recorded as stuck (0: no limit)


class Stuck(Exception):
    """A game that does not end, or waits for nobody."""


class Abandoned(Exception):
    """The run was stopped while this game was being played: it has no result."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise Stuck in the game when it has used ``seconds`` of CPU time (SIGPROF: a busy machine or a
    paused process does not count; main thread only)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise Stuck(f"still playing after {seconds:g} CPU s")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def new_game(catalog: Catalog, spec: GameSpec) -> Game | Match:
    """A fresh game (or match, in a best-of mode) of the spec, and nothing played yet."""
    assert catalog.plugins is not None
    mode = catalog.plugins.modes().get(spec.mode)
    if mode is not None and mode.best_of > 1:
        return Match.new(catalog, list(spec.decks), mode=spec.mode, seed=spec.seed, names=spec.names)
    return Game.new(catalog, list(spec.decks), mode=spec.mode, seed=spec.seed, names=spec.names)


def drive(game: Game | Match, agents: list[Any], job: Job, stop: Stop, counter: list[int]) -> None:
    """Let the agents play to the end; ``counter[0]`` counts the actions applied.  Checks the stop
    flag every 32 actions (a stopped run abandons the game) and, for a checked job, every invariant
    after each action, against each game's own cards (a match starts new games)."""
    current: Game | None = None
    cards: set[int] = set()
    counts: Any = None
    while not game.over:
        if counter[0] % 32 == 0 and stop():
            raise Abandoned()
        if counter[0] >= job.max_actions:
            raise Stuck(f"no end after {counter[0]} actions")
        now = game.game if isinstance(game, Match) else game
        if job.checked and now is not current:
            current = now
            cards, counts = baseline(now)
            problems = check(now, cards, counts)
            if problems:
                raise InvariantError(f"after setup: {problems[:3]}")
        decision = game.pending_decision()
        if decision is None:
            raise Stuck("the game waits for nothing but is not over")
        legal = game.legal_actions()
        if not legal:
            raise Stuck(f"no legal action for {decision.kind}")
        action = agents[decision.player].choose(now, legal)
        game.apply(action)
        counter[0] += 1
        if job.checked and current is not None and (game.game if isinstance(game, Match) else game) is current:
            problems = check(current, cards, counts)
            if problems:
                raise InvariantError(f"action {counter[0]} {action}: {problems[:3]}")


def plays(log: list[dict[str, Any]], seats: int) -> list[dict[str, list[int]]]:
    """For each seat, the cards it played and on which of its own turns (0: before its first turn;
    in a match the count starts again with each game)."""
    out: list[dict[str, list[int]]] = [{} for _ in range(seats)]
    own = [0] * seats
    for event in log:
        kind = event["t"]
        if kind == "turn_start":
            own[event["player"]] += 1
        elif kind == "play":
            player = event["player"]
            out[player].setdefault(event["code"], []).append(own[player])
        elif kind == "game_start" and event.get("match"):
            own = [0] * seats
    return out


def _first(log: list[dict[str, Any]]) -> int | None:
    return next((int(e["order"][0]) for e in log if e["t"] == "turn_order"), None)


def play(catalog: Catalog, job: Job, spec: GameSpec, stop: Stop = never) -> Record:
    """Play the game of a spec to its record.  A game that raises, breaks an invariant or never ends
    is recorded with an ``error`` (and the log hash so far, which its replay must reach again)."""
    record: Record = {"index": spec.index, "seed": spec.seed, "mode": spec.mode, "decks": list(spec.refs),
                      "names": spec.names, "agents": list(spec.agents)}
    counter = [0]
    game: Game | Match | None = None
    try:
        with _time_limit(job.time_limit):
            game = new_game(catalog, spec)
            drive(game, make_agents(catalog, list(spec.agents), spec.seed), job, stop, counter)
    except Abandoned:
        raise
    except Stuck as exc:
        record["error"] = f"stuck: {exc}"
    except Exception as exc:  # a run reports a crashing game instead of stopping
        record["error"] = f"{type(exc).__name__}: {exc}"
    record.update(outcome(game, len(spec.decks)))
    record["actions"] = counter[0]
    record["engine"] = ENGINE_VERSION
    if job.narrate and game is not None:
        lines = narrate_match(game) if isinstance(game, Match) else narrate(game)
        ending = record.get("error") or (match_summary(game) if isinstance(game, Match) else summary(game))
        record["log"] = "\n".join([*lines, ending])
    return record


def outcome(game: Game | Match | None, seats: int) -> Record:
    """Winners, turns, games and log hash of a played game or match, and the cards each seat played."""
    if game is None:  # setup itself failed
        return {"result": "error", "winners": [], "first": None, "turns": 0, "games": 0, "wins": [0] * seats,
                "draws": 0, "events": 0, "hash": "", "plays": [{} for _ in range(seats)]}
    if isinstance(game, Match):
        s = game.state
        finished = list(game.games)
        return {"result": s.result or "unfinished", "winners": [] if s.winner is None else [s.winner],
                "first": _first(game.log), "turns": sum(g.state.turn for g in finished), "games": len(s.games),
                "wins": list(s.wins), "draws": s.draws, "events": len(game.log), "hash": game.log_hash(),
                "plays": plays(game.log, seats)}
    state = game.state
    winners = list(state.winners or [])
    return {"result": state.result or "unfinished", "winners": winners, "first": _first(game.log),
            "turns": state.turn, "games": 1, "wins": [1 if p in winners else 0 for p in range(seats)],
            "draws": 1 if state.result == "draw" else 0, "events": len(game.log), "hash": game.log_hash(),
            "plays": plays(game.log, seats)}


def play_range(catalog: Catalog, job: Job, start: int, end: int, stop: Stop = never) -> list[Record]:
    """Games start .. end-1 of the job's plan; a stop keeps the games finished so far."""
    out: list[Record] = []
    for index in range(start, end):
        if stop():
            break
        try:
            out.append(play(catalog, job, job.plan.spec(index), stop))
        except Abandoned:
            break
    return out


def winner_key(record: Record) -> str:
    """How the summary names a record's outcome: the winning seats with their names, or draw/error."""
    if record.get("error"):
        return "error"
    if not record["winners"]:
        return "draw"
    return " & ".join(f"{record['names'][w]} (seat {w + 1})" for w in record["winners"])
