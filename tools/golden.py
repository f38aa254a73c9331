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

from riftscript.core.catalog import Catalog, load_catalog
from riftscript.tools.play import narrate, play_one

GAMES = [
    ("Jinx Champion Deck", "Viktor Champion Deck", 1, "greedy"),
    ("Lee Sin Champion Deck", "Jinx Champion Deck", 2, "greedy"),
    ("Annie Starter Deck", "Lux Starter Deck", 3, "random"),
    ("Garen Starter Deck", "Master Yi Starter Deck", 4, "random"),
    ("Viktor Champion Deck", "Lee Sin Champion Deck", 5, "greedy"),
]


@dataclass
class Golden:
    name: str
    decks: list[str]
    seed: int
    agent: str
    hash: str
    events: int
    log: list[str]


def record(catalog: Catalog, index: int) -> Golden:
    a, b, seed, agent = GAMES[index]
    game = play_one(catalog, [a, b], seed, [agent, agent])
    return Golden(f"game{index + 1}", [a, b], seed, agent, game.log_hash(), len(game.log), narrate(game))


def write(folder: Path, catalog: Catalog) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(len(GAMES)):
        golden = record(catalog, i)
        meta = {"decks": golden.decks, "seed": golden.seed, "agent": golden.agent, "hash": golden.hash,
                "events": golden.events}
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
