"""Prove that two git revisions play the same games: every legal-action list and every event log.

A refactoring or a speed-up must not change behaviour.  This plays the same seeded games on each
revision (every installed mode, random agents seeded from the game seed, several deck seatings) and
fingerprints, per game, the sequence of legal-action lists offered at every decision and the event
log's hash.  Any difference is reported with the mode, seed and the first decision where it appears.

    python3 benchmarks/equivalence.py BASE [REV] [--games 40] [--modes duel skirmish ...] [--pure-base]
                                         [--decks NAME ...] [--agent random|greedy|...]

REV defaults to the working tree's HEAD.  Each revision is installed as users install it (from setup.py
on, its engine compiled with mypyc); ``--pure-base`` installs BASE in pure Python, so ``HEAD HEAD
--pure-base`` compares the compiled engine with its own source.  Revisions are built in throwaway worktrees and virtualenvs
(the same way ``benchmarks/compare.py`` builds them); the two runs can share the machine with
anything else, since nothing here is timed.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, build, isolated  # noqa: E402

DECKS = ["Jinx Champion Deck", "Viktor Champion Deck", "Annie Starter Deck", "Garen Starter Deck",
         "Lee Sin Champion Deck", "Lux Starter Deck", "Master Yi Starter Deck"]

# Runs inside each revision's virtualenv; uses only API present in every revision since the modes.
WORKER = r'''
import hashlib, json, sys, warnings
# a plugin skipped at load ("skipping ... of plugin ...") means this revision is not the one installed: fail
warnings.filterwarnings("error", message="skipping")
from riftscript.core.catalog import load_catalog  # old paths: aliases since issue 13 (core/old_paths.py)
from riftscript.core.game import Game
from riftscript.core.match import Match
modes, games, decks = json.loads(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
agent = sys.argv[4] if len(sys.argv) > 4 else "random"
catalog = load_catalog()
specs = catalog.plugins.agents()
mode_specs = catalog.plugins.modes()
out = []
for mode in modes:
    spec = mode_specs[mode]
    for seed in range(games):
        for shift in range(len(decks)):  # the first seating the mode allows (2v2 teammates share no battlefield)
            seats = [decks[(seed + shift + i * (1 + shift)) % len(decks)] for i in range(spec.players)]
            try:
                game = (Match if spec.best_of > 1 else Game).new(catalog, seats, mode=mode, seed=seed)
                break
            except Exception:
                continue
        agents = [specs[agent].factory(seed * 10 + i) for i in range(spec.players)]
        lists = []
        steps = 0
        while not game.over and steps < 20000:
            decision = game.pending_decision()
            if decision is None:
                break
            actions = game.legal_actions()
            lists.append(hashlib.sha256(json.dumps(actions, sort_keys=True, default=str).encode()).hexdigest()[:16])
            current = game.game if isinstance(game, Match) else game
            game.apply(agents[decision.player].choose(current, actions))
            steps += 1
        out.append({"mode": mode, "seed": seed, "decks": seats, "log": game.log_hash(), "lists": lists})
print(json.dumps(out))
'''


def run(python: Path, modes: list[str], games: int, cache: Path, decks: list[str] = DECKS,
        agent: str = "random") -> list[dict[str, object]]:
    env = dict(os.environ, RIFTSCRIPT_CACHE_DIR=str(cache))
    done = subprocess.run([str(python), "-c", WORKER, json.dumps(modes), str(games), json.dumps(decks), agent],
                          capture_output=True, text=True, env=env, cwd=isolated(python))
    if done.returncode != 0:
        sys.exit(f"the games failed with {python}:\n{done.stderr[-3000:]}")
    result: list[dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", metavar="BASE")
    parser.add_argument("rev", metavar="REV", nargs="?", default="HEAD")
    parser.add_argument("--games", type=int, default=40, help="seeded games per mode")
    parser.add_argument("--modes", nargs="+", default=["duel", "match", "skirmish", "war", "magma-chamber"])
    parser.add_argument("--decks", nargs="+", default=DECKS, metavar="NAME",
                        help="installed decks to seat (both revisions must have them; the default is the "
                             "seven Origins and Proving Grounds decks every revision since the modes has)")
    parser.add_argument("--agent", default="random", help="the agent every seat plays (seeded per game and seat)")
    parser.add_argument("--pure-base", action="store_true",
                        help="install BASE without compiling its engine: 'HEAD HEAD --pure-base' proves the "
                             "compiled engine plays the games of the pure-Python one")
    parser.add_argument("--workdir", type=Path, metavar="DIR",
                        help="build in DIR and keep the builds (compare.py --workdir shares them)")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    kept = args.workdir is not None
    if kept:
        args.workdir.mkdir(parents=True, exist_ok=True)
    workdir = args.workdir.resolve() if kept else Path(tempfile.mkdtemp(prefix="riftscript-equivalence-"))
    try:
        a, b = build(args.base, workdir, args.pure_base), build(args.rev, workdir)
        left = run(a.python, args.modes, args.games, workdir / f"cache-{a.sha[:12]}-a", args.decks, args.agent)
        right = run(b.python, args.modes, args.games, workdir / f"cache-{b.sha[:12]}-b", args.decks, args.agent)
    finally:
        if not kept:
            for tree in workdir.iterdir():
                if (tree / ".git").exists():
                    subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
            shutil.rmtree(workdir, ignore_errors=True)
    differ = 0
    decisions = 0
    for x, y in zip(left, right):
        decisions += len(x["lists"])  # type: ignore[arg-type]
        if x == y:
            continue
        differ += 1
        first = next((i for i, (p, q) in enumerate(zip(x["lists"], y["lists"])) if p != q),  # type: ignore[call-overload]
                     min(len(x["lists"]), len(y["lists"])))  # type: ignore[arg-type]
        print(f"DIFFERENT {x['mode']} seed {x['seed']}: first at decision {first}; "
              f"log {x['log']} vs {y['log']}")
    print(f"{len(left)} games, {decisions} decisions compared ({', '.join(args.modes)}; {len(args.decks)} decks, "
          f"{args.agent} agents): "
          f"{'identical' if differ == 0 else f'{differ} games differ'} "
          f"({args.base} = {a.sha[:12]}, {args.rev} = {b.sha[:12]})")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
