"""Golden playthroughs: seeded demo games recorded as event-log hashes with readable logs.

A replay that no longer matches shows up as a diff of the play-by-play, so a reviewer can read
what changed.  Regenerate after an intended change of behaviour:

    python3 -m riftscript.tools.golden tests/golden
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from riftscript.core.engine.agents import play_out
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.engine.match import Match
from riftscript.tools.play import make_agents, narrate, narrate_match, play_one

# (decks in seat order, seed, agent for every seat, mode): five Duels, then one game of every other mode
GAMES: list[tuple[list[str], int, str, str]] = [
    (["Jinx Champion Deck", "Viktor Champion Deck"], 1, "greedy", "duel"),
    (["Lee Sin Champion Deck", "Jinx Champion Deck"], 2, "greedy", "duel"),
    (["Annie Starter Deck", "Lux Starter Deck"], 3, "random", "duel"),
    (["Garen Starter Deck", "Master Yi Starter Deck"], 4, "random", "duel"),
    (["Viktor Champion Deck", "Lee Sin Champion Deck"], 5, "greedy", "duel"),
    (["Jinx Champion Deck", "Lee Sin Champion Deck"], 6, "greedy", "match"),
    (["Lux Starter Deck", "Viktor Champion Deck", "Garen Starter Deck"], 7, "greedy", "skirmish"),
    (["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"], 8, "random", "war"),
    (["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"], 9, "greedy",
     "magma-chamber"),
]


@dataclass
class Golden:
    name: str
    decks: list[str]
    seed: int
    agent: str
    mode: str
    hash: str
    events: int
    log: list[str]


def record(catalog: Catalog, index: int) -> Golden:
    decks, seed, agent, mode = GAMES[index]
    name = f"game{index + 1}"
    spec = catalog.plugins.modes()[mode] if catalog.plugins else None
    if spec is not None and spec.best_of > 1:
        match = Match.new(catalog, decks, mode=mode, seed=seed, names=[d.split()[0] for d in decks])
        play_out(match, make_agents(catalog, [agent] * len(decks), seed))
        return Golden(name, decks, seed, agent, mode, match.log_hash(), len(match.log), narrate_match(match))
    game = play_one(catalog, decks, seed, [agent] * len(decks), mode=mode)
    return Golden(name, decks, seed, agent, mode, game.log_hash(), len(game.log), narrate(game))


def write(folder: Path, catalog: Catalog) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(len(GAMES)):
        golden = record(catalog, i)
        meta = {"decks": golden.decks, "seed": golden.seed, "agent": golden.agent, "hash": golden.hash,
                "events": golden.events, **({"mode": golden.mode} if golden.mode != "duel" else {})}
        (folder / f"{golden.name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        (folder / f"{golden.name}.log").write_text("\n".join(golden.log) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "tests/golden")
    write(folder, load_catalog())
    print(f"recorded {len(GAMES)} golden games in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
