"""Playing games from the command line: a demo with a play-by-play, and batch simulation."""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from riftscript.core.agents import Agent, play_out
from riftscript.core.catalog import Catalog, load_catalog
from riftscript.core.errors import RiftScriptError
from riftscript.core.game import Game
from riftscript.core.match import Match
from riftscript.core.registry import ModeSpec
from riftscript.tools.argtypes import output_file, whole
from riftscript.tools.playbyplay import render

DEMO_DECKS = ("Jinx Champion Deck", "Viktor Champion Deck")


def make_agents(catalog: Catalog, names: list[str], seed: int) -> list[Agent]:
    assert catalog.plugins is not None
    specs = catalog.plugins.agents()
    agents: list[Agent] = []
    for i, name in enumerate(names):
        spec = specs.get(name)
        if spec is None:
            raise RiftScriptError(f"unknown agent {name!r}; installed: {', '.join(sorted(specs))}")
        agents.append(spec.factory(seed * 7919 + i))
    return agents


def play_one(catalog: Catalog, decks: list[str], seed: int, agents: list[str], mode: str = "duel") -> Game:
    game = Game.new(catalog, list(decks), mode=mode, seed=seed, names=[d.split()[0] for d in decks])
    play_out(game, make_agents(catalog, agents, seed))
    return game


def seating(catalog: Catalog, mode: str, decks: list[str]) -> tuple[ModeSpec, list[str]]:
    """The installed mode named ``mode`` and the decks for its seats, or an error saying what's wrong."""
    assert catalog.plugins is not None
    modes = catalog.plugins.modes()
    spec = modes.get(mode)
    if spec is None:
        raise RiftScriptError(f"unknown mode {mode!r}; installed modes: {', '.join(sorted(modes))}")
    if len(decks) != spec.players:
        raise RiftScriptError(f"{spec.name} is played by {spec.players} players: give {spec.players} decks, "
                              f"one per seat in seat order, {len(decks)} given")
    return spec, decks


def narrate(game: Game) -> list[str]:
    codes = {oid: obj.code for oid, obj in game.state.objs.items()}
    fields = {bf.loc: game.name(bf.card) for bf in game.state.battlefields}
    return render(game.catalog, game.log, [p.name for p in game.state.players], codes, fields)


def summary(game: Game) -> str:
    s = game.state
    scores = ", ".join(f"{p.name} {p.points}" for p in s.players)
    if s.result == "draw":
        outcome = "draw"
    else:
        outcome = " and ".join(s.players[w].name for w in s.winners or []) + " won"
    return f"{outcome} after {s.turn} turns ({scores}); {len(game.log)} events, log hash {game.log_hash()[:16]}"


def cmd_demo(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """The main job: one seeded game between two built-in decks, as a readable play-by-play."""
    out = out or sys.stdout  # looked up per call, so a redirected stdout is honoured
    catalog = load_catalog()
    decks = args.decks or list(DEMO_DECKS)
    game = play_one(catalog, decks, args.seed, [args.agent, args.agent])
    for line in narrate(game):
        print(line, file=out)
    print("\n" + summary(game), file=out)
    return 0


def _write_log(log_file: TextIO, title: str, lines: list[str], result: str) -> None:
    """One game's (or match's) play-by-play in a simulate --log file."""
    print(f"=== {title} ===", *lines, result + "\n", sep="\n", file=log_file)


def cmd_simulate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play many seeded games between decks with agents, in any installed mode, and report the results."""
    out = out or sys.stdout  # looked up per call, so a redirected stdout is honoured
    catalog = load_catalog()
    spec, decks = seating(catalog, args.mode, list(args.decks))
    agent_names = list(args.agents) if args.agents else ["random"]
    if len(agent_names) == 1:
        agent_names *= spec.players
    if len(agent_names) != spec.players:
        raise RiftScriptError(f"give one agent for every player or one for all: {spec.players} players, "
                              f"{len(agent_names)} agents given")
    args.agents = agent_names
    if spec.best_of > 1:
        return simulate_matches(args, catalog, spec.name, decks, out)
    wins: Counter[str] = Counter()
    turns = 0
    actions = 0
    started = time.perf_counter()
    log_file = Path(args.log).open("w", encoding="utf-8") if args.log else None
    try:
        for i in range(args.games):
            seed = args.seed + i
            game = Game.new(catalog, decks, mode=spec.name, seed=seed, names=[d.split()[0] for d in decks])
            actions += play_out(game, make_agents(catalog, args.agents, seed))
            s = game.state
            turns += s.turn
            key = "draw" if s.result == "draw" else " & ".join(f"{s.players[w].name} (seat {w + 1})"
                                                               for w in s.winners or [])
            wins[key] += 1
            if log_file is not None:
                _write_log(log_file, f"game {i + 1}, seed {seed}", narrate(game), summary(game))
            if args.json:
                print(json.dumps({"seed": seed, "result": s.result, "winners": s.winners, "turns": s.turn,
                                  "hash": game.log_hash()}), file=out)
    finally:
        if log_file is not None:
            log_file.close()
    elapsed = time.perf_counter() - started
    if not args.json:
        print(f"{args.games} {spec.name} games of {' vs '.join(decks)} ({' vs '.join(args.agents)} agents), "
              f"seeds {args.seed}..{args.seed + args.games - 1}", file=out)
        for key, count in wins.most_common():
            print(f"  {key}: {count}", file=out)
        print(f"  average {turns / max(1, args.games):.1f} turns, {actions} actions, "
              f"{args.games / elapsed:.1f} games/s", file=out)
    return 0


def narrate_match(match: Match) -> list[str]:
    """The match's play-by-play: its own events (games, game wins, result) around each game's."""
    games = list(match.games) + ([] if match.over or match.game in match.games else [match.game])
    segments: list[list[dict[str, Any]]] = [[]]
    for event in match.log:
        if event["t"] == "game_start" and event.get("match") and any(e["t"] == "game_start" for e in segments[-1]):
            segments.append([])
        segments[-1].append(event)
    lines: list[str] = []
    for k, segment in enumerate(segments):
        game = games[k] if k < len(games) else None
        codes = {oid: obj.code for oid, obj in game.state.objs.items()} if game is not None else {}
        fields = {bf.loc: game.name(bf.card) for bf in game.state.battlefields} if game is not None else {}
        lines.extend(render(match.catalog, segment, list(match.state.names), codes, fields))
    return lines


def match_summary(match: Match) -> str:
    s = match.state
    games = "; ".join(f"game {g['game']}: " + ("draw" if g["winner"] is None else f"{s.names[g['winner']]} won")
                      for g in s.games)
    outcome = "drawn match" if s.result == "draw" else f"{s.names[s.winner or 0]} won the match"
    return (f"{outcome} {'-'.join(map(str, s.wins))} ({games}); {len(match.log)} events, "
            f"log hash {match.log_hash()[:16]}")


def simulate_matches(args: argparse.Namespace, catalog: Catalog, mode: str, decks: list[str], out: TextIO) -> int:
    """488: play matches (best of 3 or 5) and report match wins, game wins and drawn games."""
    names = [d.split()[0] for d in decks]
    match_wins: Counter[str] = Counter()
    game_wins = [0, 0]
    draws = games = actions = 0
    best_of = 0
    started = time.perf_counter()
    log_file = Path(args.log).open("w", encoding="utf-8") if args.log else None
    try:
        for i in range(args.games):
            seed = args.seed + i
            match = Match.new(catalog, decks, mode=mode, seed=seed, names=names)
            best_of = match.state.best_of
            actions += play_out(match, make_agents(catalog, args.agents, seed))
            s = match.state
            match_wins["draw" if s.winner is None else f"{names[s.winner]} (seat {s.winner + 1})"] += 1
            game_wins = [game_wins[p] + s.wins[p] for p in range(2)]
            draws += s.draws
            games += len(s.games)
            if log_file is not None:
                _write_log(log_file, f"match {i + 1}, seed {seed}", narrate_match(match), match_summary(match))
            if args.json:
                print(json.dumps({"seed": seed, "result": s.result, "winner": s.winner, "wins": s.wins,
                                  "draws": s.draws, "games": s.games, "hash": match.log_hash()}), file=out)
    finally:
        if log_file is not None:
            log_file.close()
    elapsed = time.perf_counter() - started
    if not args.json:
        print(f"{args.games} {mode} matches (best of {best_of}) of {' vs '.join(decks)} "
              f"({' vs '.join(args.agents)} agents), seeds {args.seed}..{args.seed + args.games - 1}", file=out)
        print("  match wins:", file=out)
        for key, count in match_wins.most_common():
            print(f"    {key}: {count}", file=out)
        print(f"  game wins: " + ", ".join(f"{names[p]} (seat {p + 1}) {game_wins[p]}" for p in range(2))
              + f"; drawn games: {draws}; {games} games in all", file=out)
        print(f"  {actions} actions, {args.games / elapsed:.1f} matches/s", file=out)
    return 0


def add_commands(sub: Any) -> None:
    """Register 'demo' and 'simulate' on an argparse subparsers object."""
    demo = sub.add_parser("demo", help="play a demo game between built-in decks and show the play-by-play",
                          description="Play one seeded game between two built-in decks and print it.")
    demo.add_argument("--decks", nargs=2, metavar=("A", "B"), help=f"deck names (default: {', '.join(DEMO_DECKS)})")
    demo.add_argument("--seed", type=int, default=2026)
    demo.add_argument("--agent", default="greedy", help="agent for both players (default: greedy)")
    demo.set_defaults(func=cmd_demo)
    sim = sub.add_parser("simulate", help="play many games between decks with agents, in any mode",
                         description="Play seeded games AI against AI and print the results.")
    sim.add_argument("--mode", default="duel", help="an installed mode (see 'riftscript modes'; default: duel)")
    sim.add_argument("--decks", nargs="+", required=True, metavar="DECK",
                     help="deck names or deck files, one per player in seat order")
    sim.add_argument("--games", type=whole(1), default=10, help="games to play (matches, in match and match-bo5)")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--agents", nargs="+", metavar="AGENT",
                     help="one agent per player, or one for all (default: random)")
    sim.add_argument("--log", type=output_file, help="write the play-by-play of every game to this file")
    sim.add_argument("--json", action="store_true", help="one JSON line per game")
    sim.set_defaults(func=cmd_simulate)
