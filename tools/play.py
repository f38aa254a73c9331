"""Playing games from the command line: a demo with a play-by-play, and batch simulation."""
from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from riftscript.core.engine.agents import Agent, play_out
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.errors import RiftScriptError
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.core.script.registry import ModeSpec
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
    turns = f"{s.turn} turn{'' if s.turn == 1 else 's'}"
    return f"{outcome} after {turns} ({scores}); {len(game.log)} events, log hash {game.log_hash()[:16]}"


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


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play many seeded games between decks with agents (tools/lab/simulate.py)."""
    from riftscript.tools.lab.simulate import cmd_simulate as simulate

    return simulate(args)


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
    from riftscript.tools.lab.simulate import add_simulate_options

    add_simulate_options(sim)
    sim.set_defaults(func=cmd_simulate)
