"""How much of a game's time Python's cyclic garbage collector takes, by generation, in the installed engine.

    python3 benchmarks/gc_share.py [--agent random] [--games 150] [--rounds 3]

Plays the seeded Jinx-Viktor duels ``benchmarks/compare.py`` plays (seeds 0 ..), with the collector as it is,
timing each collection (``gc.callbacks``), and, in the same sitting and alternating, with the collector off
and with every object of the loaded catalog frozen out of it (``gc.freeze``): the last two are what a
process-wide setting would give, which the engine, a library, doesn't make.  Each run is a fresh process.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

WORKER = r'''
import gc, json, sys, time
from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.agents import play_out
from riftscript.core.engine.game import Game
agent, games, setting = sys.argv[1], int(sys.argv[2]), sys.argv[3]
catalog = load_catalog()
specs = catalog.plugins.agents()
if setting == "off":
    gc.disable()
elif setting == "frozen":
    gc.freeze()
spent = {0: [0, 0.0], 1: [0, 0.0], 2: [0, 0.0]}
started = {}
def timed(phase, info):
    if phase == "start":
        started["t"] = time.perf_counter()
    else:
        spent[info["generation"]][0] += 1
        spent[info["generation"]][1] += time.perf_counter() - started["t"]
gc.callbacks.append(timed)
actions = 0
cpu = time.process_time()
for seed in range(games):
    game = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=seed)
    actions += play_out(game, [specs[agent].factory(seed), specs[agent].factory(seed + 1)])
cpu = time.process_time() - cpu
print(json.dumps({"cpu": cpu, "actions": actions, "tracked": len(gc.get_objects()),
                  "collections": {g: n for g, (n, _) in spent.items()},
                  "seconds": {g: s for g, (_, s) in spent.items()}}))
'''

SETTINGS = ("on", "off", "frozen")


def run(agent: str, games: int, setting: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", WORKER, agent, str(games), setting], capture_output=True, text=True,
                          check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="random")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rates: dict[str, list[float]] = {s: [] for s in SETTINGS}
    shares: list[dict[str, float]] = []
    for round_ in range(args.rounds):
        order = SETTINGS if round_ % 2 == 0 else tuple(reversed(SETTINGS))
        for setting in order:
            result = run(args.agent, args.games, setting)
            cpu = float(result["cpu"])  # type: ignore[arg-type]
            rates[setting].append(int(result["actions"]) / cpu)  # type: ignore[call-overload]
            if setting == "on":
                seconds: dict[str, float] = result["seconds"]  # type: ignore[assignment]
                shares.append({g: s / cpu for g, s in seconds.items()})
                print(f"round {round_ + 1}: collections {result['collections']}, "
                      + ", ".join(f"generation {g} {100 * s:.1f}%" for g, s in shares[-1].items())
                      + f" of the CPU time; {result['tracked']} objects tracked at the end")
    on = statistics.median(rates["on"])
    for setting in SETTINGS:
        print(f"{setting:>6}: {statistics.median(rates[setting]):,.0f} actions per CPU second (x{statistics.median(rates[setting]) / on:.3f})")
    for g in ("0", "1", "2"):
        print(f"generation {g}: {100 * statistics.median(s[g] for s in shares):.1f}% of the CPU time (median)")


if __name__ == "__main__":
    main()
