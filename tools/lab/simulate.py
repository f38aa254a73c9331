"""``riftscript simulate``: many seeded games (or matches) of the same decks on every core, with
progress, per-game records and a summary that survives Ctrl-C."""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from riftscript.core.script.catalog import Catalog
from riftscript.core.script.decks import load_deck
from riftscript.core.errors import RiftScriptError
from riftscript.tools.lab.engine import FixedPlan, Job, Record, catalog_for, new_game, winner_key
from riftscript.tools.lab.records import Writer, open_writer
from riftscript.tools.lab.run import INTERRUPTED, Outcome, add_options, options_of, run, source_of
from riftscript.tools.play import seating


def add_simulate_options(parser: argparse.ArgumentParser) -> None:
    """The lab's options of 'simulate' (its decks, games, seed, agents, --log and --json are older)."""
    parser.add_argument("--records", metavar="FILE",
                        help="write one record per game (seed, decks, winner, turns, log hash, cards played) "
                             "to FILE: JSON lines, or Parquet when FILE ends in .parquet (pip install "
                             "'riftscript[data]'); 'riftscript replay FILE --index K' replays game K")
    add_options(parser)


def agents_for(catalog: Catalog, names: list[str] | None, players: int) -> tuple[str, ...]:
    """One agent per seat: the names given, or one name for every seat (default: random)."""
    agents = list(names) if names else ["random"]
    if len(agents) == 1:
        agents *= players
    if len(agents) != players:
        raise RiftScriptError(f"give one agent for every player or one for all: {players} players, "
                              f"{len(agents)} agents given")
    assert catalog.plugins is not None
    installed = catalog.plugins.agents()
    for name in agents:
        if name not in installed:
            raise RiftScriptError(f"unknown agent {name!r}; installed: {', '.join(sorted(installed))}")
    return tuple(agents)


class Tally:
    """What the summary says, counted record by record."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.count = self.turns = self.actions = self.games = self.draws = 0
        self.wins: Counter[str] = Counter()
        self.game_wins = [0] * seats
        self.errors: list[Record] = []

    def add(self, record: Record) -> None:
        self.count += 1
        self.wins[winner_key(record)] += 1
        self.turns += record["turns"]
        self.actions += record["actions"]
        self.games += record["games"]
        self.draws += record["draws"]
        self.game_wins = [a + b for a, b in zip(self.game_wins, record["wins"])]
        if record.get("error"):
            self.errors.append(record)

    def status(self) -> str:
        return ", ".join(f"{key.split(' (seat')[0]} {count}" for key, count in self.wins.most_common(4))


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play many seeded games between decks with agents, in any installed mode, and report the results."""
    source = source_of(args)
    catalog = catalog_for(source, fresh=True)
    spec, refs = seating(catalog, args.mode, list(args.decks))
    decks = tuple(load_deck(catalog, ref) for ref in refs)
    agents = agents_for(catalog, args.agents, spec.players)
    options = options_of(args)
    plan = FixedPlan(spec.name, decks, tuple(refs), agents, args.seed, args.games)
    if args.games > 0:
        new_game(catalog, plan.spec(0))  # decks that can't sit together fail here, once, with their reason
    tally = Tally(spec.players)
    matches = spec.best_of > 1
    with ExitStack() as files:
        log_file: TextIO | None = None
        if args.log:
            log_file = files.enter_context(_open(args.log))
        writer: Writer | None = open_writer(args.records) if args.records else None
        if writer is not None:
            files.callback(writer.close)

        def consume(record: Record) -> None:
            text = record.pop("log", None)
            if log_file is not None and text is not None:
                unit = "match" if matches else "game"
                print(f"=== {unit} {record['index'] + 1}, seed {record['seed']} ===\n{text}\n", file=log_file)
            if writer is not None:
                writer.write(record)
            if args.json:
                print(json.dumps(record), file=sys.stdout)
            tally.add(record)

        outcome = run(Job(plan, narrate=bool(args.log)), source, options, consume, tally.status,
                      label=f"simulate {spec.name}", quiet=args.quiet, unit="matches" if matches else "games")
    out = sys.stderr if args.json else sys.stdout
    unit = "matches" if matches else "games"
    if outcome.interrupted:
        print(outcome.interruption(unit), file=out)
    if not args.json:
        title = (f"{tally.count} {spec.name} {unit}" + (f" (best of {spec.best_of})" if matches else "")
                 + f" of {' vs '.join(refs)} ({' vs '.join(agents)} agents), "
                 f"seeds {args.seed}..{args.seed + args.games - 1}")
        print(title, file=out)
        (_match_lines if matches else _game_lines)(tally, [d.name.split()[0] for d in decks], out)
        print(f"  {tally.actions} actions, {outcome.rate:.1f} {unit}/s{_where(outcome, options.backend)}", file=out)
    _errors(tally, args.records, sys.stderr)
    if outcome.interrupted:
        return INTERRUPTED
    return 1 if tally.errors else 0


def _open(path: str) -> TextIO:
    try:
        return Path(path).open("w", encoding="utf-8")
    except OSError as exc:
        raise RiftScriptError(f"cannot write {path}: {exc.strerror}") from None


def _game_lines(tally: Tally, names: list[str], out: TextIO) -> None:
    for key, count in tally.wins.most_common():
        print(f"  {key}: {count}", file=out)
    print(f"  average {tally.turns / max(1, tally.count):.1f} turns", file=out)


def _match_lines(tally: Tally, names: list[str], out: TextIO) -> None:
    """488: match wins, game wins and drawn games."""
    print("  match wins:", file=out)
    for key, count in tally.wins.most_common():
        print(f"    {key}: {count}", file=out)
    print("  game wins: " + ", ".join(f"{names[p]} (seat {p + 1}) {tally.game_wins[p]}" for p in range(tally.seats))
          + f"; drawn games: {tally.draws}; {tally.games} games in all", file=out)


def _where(outcome: Outcome, backend: str) -> str:
    if backend == "ray":
        return f" on Ray ({len(outcome.pids)} worker processes)"
    if len(outcome.pids) <= 1 and not outcome.rss:
        return " in 1 process"
    memory = f", up to {outcome.rss / 1024:.0f} MB resident each" if outcome.rss else ""
    return f" on {len(outcome.pids)} workers{memory}"


def _errors(tally: Tally, records: str | None, out: TextIO) -> None:
    """Failed games, each with how to replay it."""
    if not tally.errors:
        return
    print(f"{len(tally.errors)} game{'s' if len(tally.errors) != 1 else ''} failed:", file=out)
    for record in tally.errors[:10]:
        hint = f" (riftscript replay {records} --index {record['index']})" if records else ""
        print(f"  game {record['index']} seed {record['seed']}: {record['error']}{hint}", file=out)
