"""How listing legal actions and a triggered combat scale with the size of the board.

A cost that grows with the square of the board hides in small games and shows in big ones, so this
builds one position per size N (N units a side) and measures, on one core:

- ``legal_actions()`` in the turn player's Main Phase: both players hold N units (half at their base,
  half at a battlefield each, the attacker's with triggers), five real cards in hand and six ready
  runes.  Reported per listing and per listed action; the target is a cost per listed action
  roughly constant across sizes.
- a triggered combat: the attacker's N units at its base, each with an attack trigger dealing 1 to an
  enemy unit at that battlefield (Crackshot Corsair), move together to a battlefield held by the
  defender's N units, each with a 'when I defend' trigger (Ahri, Inquisitive); both players have
  Viktor, Leader out of the combat, who makes a Recruit token whenever another of their units dies.
  Every decision is answered with the first listed action (passes where a pass is listed), each
  listing is made as a player would.  Timed from the move until the combat is over; the target at
  N = 80 is under 100 ms (linear in the triggers, not in triggers x board).

    python3 benchmarks/bench_board.py [--sizes 5 20 80] [--repeat 3]
    python3 benchmarks/bench_board.py --instructions [--sizes 20 80]   # valgrind: the combat's instructions

Times are the process's CPU time (on an idle machine the same as the wall time of one core; on a
busy one much steadier), medians of ``--repeat`` runs; compare revisions side by side and report
ratios.  ``--instructions`` counts the machine instructions of each combat with valgrind's cachegrind
(a run that plays it less one that only builds the position): a count the machine's load doesn't
change, for comparing revisions on a busy machine.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.engine.game import Game

HAND = ["OGN-169", "OGN-168", "OGN-003", "OGN-185", "OGN-006"]  # Jinx Champion Deck cards
RUNES = ["OGN-007"] * 3 + ["OGN-166"] * 3
ATTACKER = "OGN-130"  # Crackshot Corsair (an attack trigger: 1 damage to an enemy unit at its battlefield)
DEFENDER = "OGN-119"  # Ahri, Inquisitive (a combat trigger: -2 Might to an enemy unit there)
PLAIN = "OGN-003"  # Chemtech Enforcer
VIKTOR = "OGN-246"  # Viktor, Leader: when another unit of yours dies, make a Recruit


def position(catalog: Catalog, n: int, combat: bool) -> tuple[Game, list[int]]:
    """N units a side; for ``combat`` the attacker's are all at its base, ready to move."""
    b = Builder(catalog, seed=n)
    bf_attacker = b.battlefield("OGN-276", controller=0)
    bf_defender = b.battlefield("OGN-276", controller=1, owner=1)
    attackers: list[int] = []
    for i in range(n):
        at: Any = "base" if combat or i % 2 == 0 else bf_attacker
        attackers.append(b.add(0, ATTACKER if combat or i % 2 == 0 else PLAIN, at=at))
        b.add(1, DEFENDER if combat or i % 2 == 0 else PLAIN, at=bf_defender)
    b.add(0, VIKTOR, at=bf_attacker)  # not among the units that move
    b.add(1, VIKTOR)
    b.hand(0, HAND)
    b.hand(1, HAND)
    b.runes(0, RUNES)
    b.runes(1, RUNES)
    b.at_turn(0)
    game, ids = b.build()
    return game, [ids[i] for i in attackers]


def time_listing(catalog: Catalog, n: int, repeat: int) -> tuple[float, int]:
    """(seconds per legal_actions() in a fresh position, actions listed)."""
    times = []
    listed = 0
    for _ in range(repeat):
        game, _ = position(catalog, n, combat=False)
        started = time.process_time()
        listed = len(game.legal_actions())
        times.append(time.process_time() - started)
    return statistics.median(times), listed


def _answer(game: Game) -> dict[str, Any]:
    actions = game.legal_actions()
    for action in actions:
        if action["type"] == "pass":
            return action
    return actions[0]


def time_combat(catalog: Catalog, n: int, repeat: int) -> tuple[float, int, int, int]:
    """(seconds from the move to the end of the combat, decisions, triggers, tokens made)."""
    times = []
    decisions = triggers = tokens = 0
    for _ in range(repeat):
        game, attackers = position(catalog, n, combat=True)
        before = len(game.log)
        started = time.process_time()
        decisions = play_combat(game, attackers)
        times.append(time.process_time() - started)
        new = game.log[before:]
        triggers = sum(1 for e in new if e["t"] == "trigger")
        tokens = sum(1 for e in new if e["t"] == "create_token")
    return statistics.median(times), decisions, triggers, tokens


def play_combat(game: Game, attackers: list[int]) -> int:
    """Move the attackers in and answer every decision until the combat is over: the decisions made."""
    game.apply({"type": "move", "units": attackers, "to": 10 + 1})
    decisions = 0
    while not game.over and (game.state.showdown is not None or game.state.chain
                             or game.state.pending_triggers or game.state.decision.kind != "priority"):
        game.apply(_answer(game))
        decisions += 1
    return decisions


def count_instructions(n: int) -> int:
    """Machine instructions of the triggered combat at N units a side (cachegrind, less a run that only
    builds the position; hash seed fixed so that both runs do the same work besides the combat)."""
    env = dict(os.environ, PYTHONHASHSEED="0")

    def count(play: bool) -> int:
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                               sys.executable, __file__, "--worker", str(n), str(int(play))],
                              check=True, capture_output=True, text=True, env=env)
        refs = [line for line in done.stderr.splitlines() if "I   refs:" in line or "I refs:" in line]
        return int(refs[-1].split(":")[1].replace(",", ""))
    return count(True) - count(False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 20, 80])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--instructions", action="store_true",
                        help="count the combat's machine instructions with valgrind instead of timing")
    parser.add_argument("--worker", type=int, nargs=2, help=argparse.SUPPRESS)  # N, play: one counted run
    args = parser.parse_args()
    if args.worker:
        game, attackers = position(load_catalog(), args.worker[0], combat=True)
        if args.worker[1]:
            play_combat(game, attackers)
        return
    if args.instructions:
        if not shutil.which("valgrind"):
            parser.error("--instructions needs valgrind (apt-get install valgrind)")
        for n in args.sizes:
            print(f"{n:>4} units a side: triggered combat {count_instructions(n) / 1e6:9.1f} M instructions")
        return
    catalog = load_catalog()
    print(f"{'units a side':>12} {'legal_actions':>14} {'listed':>7} {'per action':>11} "
          f"{'combat':>10} {'decisions':>9} {'triggers':>8} {'tokens':>6}")
    for n in args.sizes:
        listing, listed = time_listing(catalog, n, args.repeat)
        combat, decisions, triggers, tokens = time_combat(catalog, n, args.repeat)
        print(f"{n:>12} {listing * 1e3:>11.2f} ms {listed:>7} {listing / max(1, listed) * 1e6:>8.1f} us "
              f"{combat * 1e3:>7.0f} ms {decisions:>9} {triggers:>8} {tokens:>6}")


if __name__ == "__main__":
    main()
