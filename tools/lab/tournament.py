"""``riftscript tournament``: every pairing of a list of decks in every seat order, and answers a
designer can read: a win-rate matrix with 95% Wilson intervals, first-player advantage, game length,
draws, per-card statistics, and an A/B comparison against a baseline deck.

How decks are seated: a *pairing* is a set of P distinct decks, P being the mode's players (2 in
Duel and the best-of modes, 3 in Skirmish, 4 in War and Magma Chamber); every set of P of the decks
given is a pairing.  A pairing's ``--games`` games cycle through every seat order of its decks (in 2v2
modes only the seatings whose teammates may play together, 491.8.h and 491.8.i), so each deck sits in
each seat equally often when the games are a multiple of the orders (2 in Duel, 6 in Skirmish, 24 in
War).  Game j of pairing t is seeded ``seed + t * games + j``.  In multiplayer modes the matrix cell
(A, B) is A's win rate in the games where B was at the table too (in 2v2, A's team won).

``--vs-baseline FILE`` plays the pairings of the first deck again with FILE in its place, with the same
opponents, seats and seeds, and compares the two win rates (Newcombe's interval of the difference).
"""
from __future__ import annotations

import argparse
import csv
import itertools
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from riftscript.core.script.catalog import Catalog
from riftscript.core.script.decks import Deck, load_deck, team_violations
from riftscript.core.errors import RiftScriptError
from riftscript.core.script.registry import ModeSpec
from riftscript.tools.lab import heatmap
from riftscript.tools.lab.engine import GameSpec, Job, Record, catalog_for
from riftscript.tools.lab.records import Writer, open_writer
from riftscript.tools.lab.run import INTERRUPTED, Outcome, add_options, count, options_of, run, source_of
from riftscript.tools.lab.simulate import agents_for
from riftscript.tools.lab.stats import newcombe, rate, wilson


@dataclass(frozen=True)
class Table:
    """A pairing: its decks (entry numbers), the seat orders its games cycle through, the block of
    seeds it plays (a baseline table plays its original's) and whether it is a baseline table."""

    decks: tuple[int, ...]
    orders: tuple[tuple[int, ...], ...]
    block: int
    baseline: bool = False


@dataclass(frozen=True)
class TournamentPlan:
    mode: str
    entries: tuple[Deck, ...]
    refs: tuple[str, ...]
    agents: tuple[str, ...]
    seed: int
    games: int  # per pairing
    tables: tuple[Table, ...]
    unseatable: tuple[tuple[int, ...], ...] = ()  # pairings no seat order allows (2v2 teammates)

    @property
    def total(self) -> int:
        return self.games * len(self.tables)

    def seats(self, index: int) -> tuple[Table, tuple[int, ...]]:
        """The table of game ``index`` and the entry sitting in each seat."""
        table = self.tables[index // self.games]
        return table, table.orders[(index % self.games) % len(table.orders)]

    def spec(self, index: int) -> GameSpec:
        table, order = self.seats(index)
        seed = self.seed + table.block * self.games + index % self.games
        return GameSpec(index, seed, self.mode, tuple(self.entries[e] for e in order),
                        tuple(self.refs[e] for e in order), self.agents)


def allowed(catalog: Catalog, mode: ModeSpec, entries: tuple[Deck, ...], order: tuple[int, ...]) -> bool:
    """Whether the mode lets these decks sit in this order (teammates: 491.8.h, 491.8.i)."""
    return not mode.teams or not team_violations(catalog, [entries[e] for e in order], mode.teams,
                                                  [str(e) for e in order])


def make_plan(catalog: Catalog, mode: ModeSpec, entries: tuple[Deck, ...], refs: tuple[str, ...],
              agents: tuple[str, ...], seed: int, games: int, baseline: bool) -> TournamentPlan:
    """Every pairing of the entries (the last one is the baseline when ``baseline``), in order."""
    playing = len(entries) - (1 if baseline else 0)
    tables: list[Table] = []
    unseatable: list[tuple[int, ...]] = []
    for block, decks in enumerate(itertools.combinations(range(playing), mode.players)):
        orders = tuple(o for o in itertools.permutations(decks) if allowed(catalog, mode, entries, o))
        if orders:
            tables.append(Table(decks, orders, block))
        else:
            unseatable.append(decks)
    if not tables:
        raise RiftScriptError(f"no pairing of these decks can be seated in {mode.name}: teammates may not share "
                              f"a legend or battlefield (491.8.h, 491.8.i)")
    if baseline:
        for table in list(tables):
            if 0 in table.decks:
                swapped = tuple(tuple(playing if e == 0 else e for e in order) for order in table.orders)
                orders = tuple(o for o in swapped if allowed(catalog, mode, entries, o))
                if orders:
                    tables.append(Table(tuple(sorted(orders[0])), orders, table.block, baseline=True))
    return TournamentPlan(mode.name, entries, refs, agents, seed, games, tuple(tables), tuple(unseatable))


@dataclass
class CardStat:
    played: int = 0  # games in which the deck's seat played it
    wins: int = 0  # of those, games the seat won
    plays: int = 0
    turns: int = 0  # sum of the seat's own turn numbers over its plays


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0


@dataclass
class PairingTally:
    games: int = 0
    draws: int = 0
    turns: int = 0
    actions: int = 0
    wins: dict[int, int] = field(default_factory=dict)


class Standings:
    """The tournament's counts, record by record."""

    def __init__(self, plan: TournamentPlan) -> None:
        self.plan = plan
        n = len(plan.entries)
        self.decks = [Tally() for _ in range(n)]
        self.pairs = [[Tally() for _ in range(n)] for _ in range(n)]
        self.first = Tally()
        self.pairings: dict[tuple[int, ...], PairingTally] = {}
        self.cards: list[dict[str, CardStat]] = [
            {code: CardStat() for code in sorted(set(deck.main) | {deck.champion})} for deck in plan.entries]
        self.errors: list[Record] = []
        self.played = 0

    def add(self, record: Record) -> None:
        self.played += 1
        if record.get("error"):
            self.errors.append(record)
            return
        table, order = self.plan.seats(record["index"])
        winners = set(record["winners"])
        draw = not winners
        if not table.baseline:
            pairing = self.pairings.setdefault(table.decks, PairingTally(wins={e: 0 for e in table.decks}))
            pairing.games += 1
            pairing.draws += draw
            pairing.turns += record["turns"]
            pairing.actions += record["actions"]
            if record["first"] is not None:
                self.first.games += 1
                self.first.wins += record["first"] in winners
                self.first.draws += draw
        for seat, entry in enumerate(order):
            won = seat in winners
            tally = self.decks[entry]
            tally.games += 1
            tally.wins += won
            tally.draws += draw
            if not table.baseline:
                self.pairings[table.decks].wins[entry] += won
                for other_seat, other in enumerate(order):
                    if other_seat != seat:
                        pair = self.pairs[entry][other]
                        pair.games += 1
                        pair.wins += won
                        pair.draws += draw
            cards = self.cards[entry]
            for code, turns in record["plays"][seat].items():
                stat = cards.setdefault(code, CardStat())
                stat.played += 1
                stat.wins += won
                stat.plays += len(turns)
                stat.turns += sum(turns)


def labels(entries: tuple[Deck, ...], refs: tuple[str, ...], baseline: bool) -> list[str]:
    """Deck names, or the arguments as given where two decks share a name; the baseline is marked."""
    names = [d.name for d in entries]
    out = [ref if names.count(name) > 1 else name for name, ref in zip(names, refs)]
    if baseline:
        out[-1] += " (baseline)"
    return out


def _interval(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": rate(wins, games), "low": low, "high": high}


def report(standings: Standings, catalog: Catalog, names: list[str], outcome: Outcome) -> dict[str, Any]:
    """Everything the tournament found, as plain data (the source of the tables, CSV, JSON and picture)."""
    plan = standings.plan
    baseline = any(t.baseline for t in plan.tables)
    playing = len(plan.entries) - (1 if baseline else 0)
    players = len(plan.tables[0].decks)
    assert catalog.plugins is not None
    mode = catalog.plugins.modes().get(plan.mode)
    sides = len(mode.teams) if mode is not None and mode.teams else players  # a 2v2 team wins together
    decks = [{"deck": names[e], "ref": plan.refs[e], **_interval(t.wins, t.games), "draws": t.draws}
             for e, t in enumerate(standings.decks)]
    matrix = [{"deck": names[a], "opponent": names[b], **_interval(cell.wins, cell.games), "draws": cell.draws}
              for a in range(playing) for b in range(playing) if a != b
              for cell in [standings.pairs[a][b]]]
    pairings = [{"decks": [names[e] for e in decks_], "games": p.games, "draws": p.draws,
                 "wins": {names[e]: w for e, w in p.wins.items()},
                 "mean_turns": p.turns / p.games if p.games else None,
                 "mean_actions": p.actions / p.games if p.games else None}
                for decks_, p in standings.pairings.items()]
    cards = []
    for entry, stats in enumerate(standings.cards):
        total = standings.decks[entry]
        for code, stat in sorted(stats.items(), key=lambda item: (-item[1].played, item[0])):
            card = catalog.cards.get(code)
            cards.append({"deck": names[entry], "code": code, "card": card.name if card else code,
                          "games": total.games, "games_played": stat.played,
                          "win_rate_played": rate(stat.wins, stat.played),
                          "win_rate_not_played": rate(total.wins - stat.wins, total.games - stat.played),
                          "plays": stat.plays, "average_turn": stat.turns / stat.plays if stat.plays else None})
    first = {**_interval(standings.first.wins, standings.first.games), "draws": standings.first.draws,
             "even": 1 / sides}
    out: dict[str, Any] = {
        "mode": plan.mode, "players": players, "games_per_pairing": plan.games, "seed": plan.seed,
        "agents": list(plan.agents), "pairings_played": len(standings.pairings), "games_planned": outcome.total,
        "games_played": standings.played, "interrupted": outcome.interrupted, "decks": decks, "matrix": matrix,
        "pairings": pairings, "first_player": first, "cards": cards,
        "unseatable": [[names[e] for e in decks_] for decks_ in plan.unseatable],
        "errors": [{"index": r["index"], "seed": r["seed"], "decks": r["decks"], "error": r["error"]}
                   for r in standings.errors]}
    if baseline:
        mine, base = standings.decks[0], standings.decks[-1]
        difference, low, high = newcombe(mine.wins, mine.games, base.wins, base.games)
        moved = "up" if low > 0 else "down" if high < 0 else None
        out["baseline"] = {"deck": names[0], "baseline": names[-1], "deck_result": _interval(mine.wins, mine.games),
                           "baseline_result": _interval(base.wins, base.games), "difference": difference,
                           "low": low, "high": high, "moved": moved}
    return out


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _cell(row: dict[str, Any]) -> str:
    if not row["games"]:
        return "-"
    return f"{_pct(row['win_rate'])} [{100 * row['low']:.0f}-{100 * row['high']:.0f}]"


def show(data: dict[str, Any], out: TextIO, cards: int) -> None:
    """The report as rich tables."""
    from rich.console import Console
    from rich.table import Table as RichTable

    console = Console(file=out, width=None if out.isatty() else 200, markup=False, highlight=False)
    players = data["players"]
    head = (f"{data['mode']} tournament: {len(data['pairings'])} pairings x {data['games_per_pairing']} games, "
            f"{data['games_played']} of {data['games_planned']} games played, "
            f"{' vs '.join(data['agents'])} agents, seed {data['seed']}")
    console.print(head, soft_wrap=True)
    if data["interrupted"]:
        console.print(f"interrupted after {data['games_played']} of {data['games_planned']} games")
    names = [d["deck"] for d in data["decks"] if d["deck"] in {m["deck"] for m in data["matrix"]}]
    cells = {(m["deck"], m["opponent"]): m for m in data["matrix"]}
    matrix = RichTable(title="win rate of the row deck against the column deck, 95% Wilson interval"
                             + ("" if players == 2 else " (games with both at the table)"))
    matrix.add_column("deck")
    for name in names:
        matrix.add_column(heatmap.short(name), justify="right")
    matrix.add_column("overall", justify="right")
    overall = {d["deck"]: d for d in data["decks"]}
    for row in names:
        matrix.add_row(row, *[_cell(cells[(row, col)]) if row != col else "" for col in names], _cell(overall[row]))
    console.print(matrix)
    pairings = RichTable(title="pairings")
    for column in ("decks", "games", "wins", "draws", "mean turns", "mean actions"):
        pairings.add_column(column, justify="left" if column in ("decks", "wins") else "right")
    for p in data["pairings"]:
        wins = ", ".join(f"{heatmap.short(k)} {v}" for k, v in p["wins"].items())
        pairings.add_row(" vs ".join(map(heatmap.short, p["decks"])), str(p["games"]), wins, str(p["draws"]),
                         f"{p['mean_turns'] or 0:.1f}", f"{p['mean_actions'] or 0:.0f}")
    console.print(pairings)
    for decks in data["unseatable"]:
        console.print(f"not played: {' vs '.join(decks)} (in every seat order, teammates would share a legend or "
                      f"battlefield: 491.8.h, 491.8.i)", soft_wrap=True)
    first = data["first_player"]
    console.print(f"first player won {_cell(first)} of {first['games']} games "
                  f"(no advantage: {100 * first['even']:.0f}%{', the team wins together' if first['even'] > 1 / players else ''}); "
                  f"{first['draws']} draws", soft_wrap=True)
    if cards:
        table = RichTable(title=f"cards (the {cards} most played of each deck)")
        for column in ("deck", "card", "played in", "win% played", "win% not", "avg turn"):
            table.add_column(column, justify="left" if column in ("deck", "card") else "right")
        shown: dict[str, int] = {}
        for c in data["cards"]:
            shown[c["deck"]] = shown.get(c["deck"], 0) + 1
            if shown[c["deck"]] > cards:
                continue
            table.add_row(c["deck"], f"{c['card']} ({c['code']})", f"{c['games_played']}/{c['games']}",
                          _pct(c["win_rate_played"]), _pct(c["win_rate_not_played"]),
                          "-" if c["average_turn"] is None else f"{c['average_turn']:.1f}")
        console.print(table)
    if "baseline" in data:
        console.print(ab_sentence(data["baseline"]), soft_wrap=True)
    if data["errors"]:
        console.print(f"{len(data['errors'])} games failed (see --records): "
                      + "; ".join(f"game {e['index']}: {e['error']}" for e in data["errors"][:3]), soft_wrap=True)


def ab_sentence(ab: dict[str, Any]) -> str:
    """The answer to a designer's A/B question, in one sentence."""
    mine, base = ab["deck_result"], ab["baseline_result"]
    verdict = (f"the change moved the win rate {ab['moved']}" if ab["moved"]
               else "no change in win rate shown at 95% (the interval includes 0)")
    return (f"{ab['deck']} won {_cell(mine)} of {mine['games']} games; {ab['baseline']} won {_cell(base)} "
            f"of {base['games']} games with the same opponents, seats and seeds; difference "
            f"{100 * ab['difference']:+.1f} points [{100 * ab['low']:+.1f}, {100 * ab['high']:+.1f}]: {verdict}")


def write_csv(data: dict[str, Any], folder: Path) -> None:
    """decks.csv, matrix.csv, pairings.csv and cards.csv in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    rows: dict[str, list[dict[str, Any]]] = {
        "decks": data["decks"], "matrix": data["matrix"], "cards": data["cards"],
        "pairings": [{**{k: v for k, v in p.items() if k != "wins"}, "decks": " vs ".join(p["decks"]),
                      "wins": "; ".join(f"{k} {v}" for k, v in p["wins"].items())} for p in data["pairings"]]}
    for name, table in rows.items():
        with (folder / f"{name}.csv").open("w", encoding="utf-8", newline="") as stream:
            if not table:
                continue
            writer = csv.DictWriter(stream, fieldnames=list(table[0]))
            writer.writeheader()
            writer.writerows(table)


def add_commands(sub: Any) -> None:
    """Register 'tournament' on an argparse subparsers object."""
    parser = sub.add_parser(
        "tournament", help="every pairing of decks in every seat order: win-rate matrix, cards, A/B",
        description="Play every pairing of the decks in every seat order and report a win-rate matrix with "
                    "95% Wilson intervals, first-player advantage, game length, draws and per-card statistics.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="A pairing is a set of as many decks as the mode has players; its games cycle through every seat\n"
               "order (in 2v2, only seatings whose teammates may play together).\n\n"
               "examples:\n"
               "  riftscript tournament --decks Jinx Viktor Annie --games 100 --png heat.png\n"
               "  riftscript tournament --decks mine.yaml Viktor Lee --games 400 --vs-baseline base.yaml")
    parser.add_argument("--decks", nargs="+", required=True, metavar="DECK",
                        help="deck names or deck files (at least as many as the mode has players)")
    parser.add_argument("--mode", default="duel", help="an installed mode (default: duel)")
    parser.add_argument("--games", type=count, default=100, help="games per pairing (default: 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", nargs="+", metavar="AGENT",
                        help="one agent per seat, or one for all (default: random)")
    parser.add_argument("--vs-baseline", metavar="DECK",
                        help="also play the first deck's pairings with this deck in its place (same seeds) and "
                             "say whether the change moved the win rate")
    parser.add_argument("--csv", metavar="DIR", help="write decks.csv, matrix.csv, pairings.csv, cards.csv here")
    parser.add_argument("--json", metavar="FILE", help="write the whole report as JSON ('-': standard output)")
    parser.add_argument("--png", metavar="FILE", help="draw the win-rate heatmap as PNG (pip install 'riftscript[plot]')")
    parser.add_argument("--svg", metavar="FILE", help="draw the win-rate heatmap as SVG (pip install 'riftscript[plot]')")
    parser.add_argument("--records", metavar="FILE", help="per-game records, as for 'simulate --records'")
    parser.add_argument("--cards", type=int, default=8, metavar="N",
                        help="cards shown per deck in the table (default 8; 0: none; all are in --csv/--json)")
    add_options(parser)
    parser.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    source = source_of(args)
    catalog = catalog_for(source, fresh=True)
    assert catalog.plugins is not None
    modes = catalog.plugins.modes()
    mode = modes.get(args.mode)
    if mode is None:
        raise RiftScriptError(f"unknown mode {args.mode!r}; installed modes: {', '.join(sorted(modes))}")
    refs = list(args.decks)
    for ref in refs:
        if refs.count(ref) > 1:
            raise RiftScriptError(f"deck {ref!r} is given twice: a deck never meets itself in a tournament")
    if len(refs) < mode.players:
        raise RiftScriptError(f"{mode.name} is played by {mode.players} players: give at least {mode.players} "
                              f"decks, {len(refs)} given")
    if args.vs_baseline:
        refs.append(args.vs_baseline)
    entries = tuple(load_deck(catalog, ref) for ref in refs)
    agents = agents_for(catalog, args.agents, mode.players)
    plan = make_plan(catalog, mode, entries, tuple(refs), agents, args.seed, args.games, bool(args.vs_baseline))
    names = labels(entries, tuple(refs), bool(args.vs_baseline))
    standings = Standings(plan)
    for picture in (args.png, args.svg):
        if picture:
            heatmap.check(picture)
    writer: Writer | None = open_writer(args.records) if args.records else None

    def consume(record: Record) -> None:
        if writer is not None:
            writer.write(record)
        standings.add(record)

    def status() -> str:
        played = [e for e in range(len(names)) if standings.decks[e].games]
        leaders = sorted(played, key=lambda e: -standings.decks[e].wins / standings.decks[e].games)[:3]
        return ", ".join(f"{names[e]} {standings.decks[e].wins}/{standings.decks[e].games}" for e in leaders)

    try:
        outcome = run(Job(plan), source, options_of(args), consume, status, label=f"{mode.name} tournament",
                      quiet=args.quiet, unit="matches" if mode.best_of > 1 else "games")
    finally:
        if writer is not None:
            writer.close()
    data = report(standings, catalog, names, outcome)
    if args.json:
        text = json.dumps(data, indent=1)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    if args.csv:
        write_csv(data, Path(args.csv))
    for picture in (args.png, args.svg):
        if picture:
            heatmap.draw(data, picture)
    if args.json != "-":
        show(data, sys.stdout, args.cards)
    elif outcome.interrupted:
        print(outcome.interruption(), file=sys.stderr)
    if outcome.interrupted:
        return INTERRUPTED
    return 1 if standings.errors else 0
