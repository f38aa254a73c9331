"""Compare the game speed of git revisions side by side, interleaved, in one sitting.

A figure measured on another day, or on a machine doing something else, says nothing about a change:
this machine varies 20-30% from minute to minute.  So each revision is built in its own temporary git
worktree and virtualenv, and every round plays the same seeded games on every revision, one after the
other, alternating which goes first.  The report is per-round figures and the median ratio of each
revision against the first one named.

    python3 benchmarks/compare.py d7e525c HEAD [--rounds 5] [--games 40] [--agents random greedy]
    python3 benchmarks/compare.py d7e525c HEAD --instructions --games 10   # valgrind: counts, not times

Each revision is installed as users install it (``pip install .``), so from setup.py on its engine is
compiled with mypyc (``--pure`` measures the pure-Python modules instead).  Each measurement is a fresh process on one core (``taskset`` when available) that loads the catalog
(not timed), then plays games ``seed = 0 .. games-1`` between the two decks with the agent seeded from
the game seed, and reports wall time, CPU time, actions and turns.  Same seeds and the same behaviour give the
same games on both sides; the script prints a warning when the action counts differ, because then the
revisions did not play the same games and the ratio mixes speed with behaviour.  It also gives the ratio
of actions and of games per CPU second of the measuring process: on a machine shared with other jobs the
wall time of a round swings with their load, the CPU time much less (all are medians over the rounds).
When an agent changed between the revisions they play other games; then compare games per CPU second.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs inside each revision's virtualenv; uses only API present since the first benchmarks.
WORKER = r'''
import json, sys, time, warnings
# a plugin skipped at load ("skipping ... of plugin ...") means this revision is not the one installed: fail
warnings.filterwarnings("error", message="skipping")
from riftscript.core.catalog import load_catalog  # old path: an alias since issue 13 (core/old_paths.py)
from riftscript.core.game import Game
decks, agent, games = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3])
catalog = load_catalog()
specs = catalog.plugins.agents()
actions = turns = 0
started, cpu = time.perf_counter(), time.process_time()
for seed in range(games):
    game = Game.new(catalog, decks, seed=seed)
    agents = [specs[agent].factory(seed), specs[agent].factory(seed + 1)]
    while not game.over:
        decision = game.pending_decision()
        if decision is None:
            break
        game.apply(agents[decision.player].choose(game, game.legal_actions()))
        actions += 1
    turns += game.state.turn
elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
print(json.dumps({"seconds": elapsed, "cpu": cpu, "actions": actions, "turns": turns, "games": games}))
'''


@dataclass
class Build:
    """One revision checked out and installed in a throwaway worktree and virtualenv."""

    rev: str
    sha: str
    python: Path


def sh(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(args, cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def build(rev: str, workdir: Path, pure: bool = False) -> Build:
    """The revision installed as users install it (``pip install .``: since setup.py, its engine compiled
    with mypyc when a C compiler works); ``pure`` keeps every module in Python (RIFTSCRIPT_COMPILE=0)."""
    sha = sh("git", "rev-parse", "--verify", f"{rev}^{{commit}}", cwd=ROOT)
    tree = workdir / sha[:12]
    if not tree.exists():
        sh("git", "worktree", "add", "--detach", str(tree), sha, cwd=ROOT)
    venv = workdir / f"venv-{sha[:12]}{'-pure' if pure else ''}"
    if not venv.exists():
        sh(sys.executable, "-m", "venv", str(venv))
        print(f"installing {rev} ({sha[:12]}{', pure Python' if pure else ''}) ...", file=sys.stderr)
        # a revision that can be compiled must be (1: a failure is an error, not a silent pure build)
        env = dict(os.environ, RIFTSCRIPT_COMPILE="0" if pure else "1" if (tree / "setup.py").exists() else "")
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", f"{tree}[fast]"], check=True,
                       capture_output=True, text=True, env=env)
    return Build(rev, sha, venv / "bin" / "python")


def built_as(python: Path) -> str:
    """How the revision's engine was built: the note setup.py leaves since its profile-guided build (issue 17,
    stop 41), else whether a compiled library is installed."""
    site = next(python.parent.parent.glob("lib/python*/site-packages"), None)
    if site is None:
        return "unknown"
    note = site / "riftscript" / "core" / "engine" / "build.txt"
    if note.is_file():
        return note.read_text().strip()
    return "compiled with mypyc" if any(site.glob("riftscript_engine__mypyc*")) else "pure Python"


def isolated(python: Path) -> Path:
    """The folder a revision's worker runs in: its virtualenv.  ``python -c`` puts the working folder first
    on ``sys.path``, and an ``*.egg-info`` there (the repository's own, left by an editable install) would give
    the revision the entry points of another: a plugin it doesn't have, skipped, and games that break."""
    return python.parent.parent


def measure(b: Build, decks: list[str], agent: str, games: int, cache: Path) -> dict[str, float]:
    cmd = [str(b.python), "-c", WORKER, json.dumps(decks), agent, str(games)]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    env = dict(os.environ, RIFTSCRIPT_CACHE_DIR=str(cache / b.sha[:12]))
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd=isolated(b.python))
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def instructions(b: Build, decks: list[str], agent: str, games: int, cache: Path) -> int:
    """Machine instructions of playing the games (valgrind's cachegrind, less those of a run that
    only loads the catalog): a count that the machine's load doesn't change, for comparing revisions
    on a busy machine.  The validation cache is warmed first, so both runs load it the same way."""
    env = dict(os.environ, RIFTSCRIPT_CACHE_DIR=str(cache / b.sha[:12]), PYTHONHASHSEED="0")
    worker = [str(b.python), "-c", WORKER, json.dumps(decks), agent]
    subprocess.run(worker + ["0"], check=True, capture_output=True, env=env, cwd=isolated(b.python))

    def count(n: int) -> int:
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                               *worker, str(n)], capture_output=True, text=True, env=env, cwd=isolated(b.python))
        if done.returncode:
            tail = "\n".join(line for line in done.stderr.splitlines()[-30:] if not line.startswith("=="))
            raise SystemExit(f"{b.rev}: the measured games failed (exit {done.returncode}):\n{tail}")
        refs = [line for line in done.stderr.splitlines() if "I   refs:" in line or "I refs:" in line]
        return int(refs[-1].split(":")[1].replace(",", ""))
    return count(games) - count(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="+", metavar="REV", help="git revisions; the first is the baseline")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="seeded games per measurement")
    parser.add_argument("--agents", nargs="+", default=["random", "greedy"])
    parser.add_argument("--decks", nargs=2, default=["Jinx Champion Deck", "Viktor Champion Deck"])
    parser.add_argument("--keep", action="store_true", help="keep the worktrees and virtualenvs")
    parser.add_argument("--workdir", type=Path, metavar="DIR",
                        help="build in DIR and keep the builds there, so that a later run in the same sitting "
                             "(--instructions, then timed rounds) reuses them instead of building again")
    parser.add_argument("--pure", action="store_true",
                        help="install every revision without compiling its engine (RIFTSCRIPT_COMPILE=0)")
    parser.add_argument("--instructions", action="store_true",
                        help="count machine instructions with valgrind instead of timing rounds (deterministic: "
                             "one count per revision and agent; about 50 times slower than a round)")
    args = parser.parse_args()
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games must be at least 1")
    if args.instructions and not shutil.which("valgrind"):
        parser.error("--instructions needs valgrind (apt-get install valgrind)")

    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        args.keep = True
    workdir = (args.workdir.resolve() if args.workdir is not None
               else Path(tempfile.mkdtemp(prefix="riftscript-compare-")))
    try:
        builds = [build(rev, workdir, args.pure) for rev in args.revs]
        for b in builds:  # a ratio depends on how each revision was built, so the report says it
            print(f"{b.rev} ({b.sha[:12]}): {built_as(b.python)}")
        if args.instructions:
            for agent in args.agents:
                counts = [instructions(b, args.decks, agent, args.games, workdir) for b in builds]
                for b, n in zip(builds, counts):
                    print(f"{agent:>7} {b.rev:>12}: {n / 1e6:9.1f} M instructions for {args.games} games, "
                          f"x{counts[0] / n:.3f} games per instruction against {builds[0].rev}", flush=True)
            return
        runs: dict[tuple[str, str], list[dict[str, float]]] = {}
        for rnd in range(args.rounds):
            order = builds if rnd % 2 == 0 else list(reversed(builds))
            for agent in args.agents:
                for b in order:
                    r = measure(b, args.decks, agent, args.games, workdir)
                    runs.setdefault((b.sha, agent), []).append(r)
                    print(f"round {rnd + 1} {agent:>7} {b.rev:>12}: {r['games'] / r['seconds']:7.1f} games/s "
                          f"{r['actions'] / r['seconds']:8.0f} actions/s", flush=True)
        report(builds, args.agents, runs)
    finally:
        if not args.keep:
            for b in (workdir / name for name in os.listdir(workdir)):
                if b.is_dir() and not b.name.startswith("venv-") and (b / ".git").exists():
                    subprocess.run(["git", "worktree", "remove", "--force", str(b)], cwd=ROOT,
                                   capture_output=True)
            shutil.rmtree(workdir, ignore_errors=True)


def report(builds: list[Build], agents: list[str], runs: dict[tuple[str, str], list[dict[str, float]]]) -> None:
    base = builds[0]
    print(f"\nmedian ratios against {base.rev} ({base.sha[:12]}), per round then the median:")
    for agent in agents:
        base_runs = runs[(base.sha, agent)]
        for b in builds[1:]:
            mine = runs[(b.sha, agent)]
            if any(m["actions"] != o["actions"] for m, o in zip(mine, base_runs)):
                print(f"  WARNING {agent}: {b.rev} played other games than {base.rev} "
                      f"({mine[0]['actions']:.0f} vs {base_runs[0]['actions']:.0f} actions)")
            per_round = [(o["seconds"] / m["seconds"]) for m, o in zip(mine, base_runs)]
            apt = [(m["actions"] / m["turns"]) / (o["actions"] / o["turns"]) for m, o in zip(mine, base_runs)]
            games_r = statistics.median(per_round)
            actions_r = statistics.median((m["actions"] / m["seconds"]) / (o["actions"] / o["seconds"])
                                          for m, o in zip(mine, base_runs))
            cpu_rounds = [(m["actions"] / m["cpu"]) / (o["actions"] / o["cpu"]) for m, o in zip(mine, base_runs)]
            # the same games take the same CPU whatever their length: the figure to read when the
            # revisions' agents play other games (a changed agent), where actions per second mislead
            cpu_games = [o["cpu"] / m["cpu"] for m, o in zip(mine, base_runs)]
            print(f"  {agent:>7} {b.rev}: games/s x{games_r:.2f}, actions/s x{actions_r:.2f}, "
                  f"actions per game-turn x{statistics.median(apt):.2f}  "
                  f"(rounds: {', '.join(f'{x:.2f}' for x in per_round)}); "
                  f"actions per CPU second x{statistics.median(cpu_rounds):.2f} "
                  f"(rounds: {', '.join(f'{x:.2f}' for x in cpu_rounds)}); "
                  f"games per CPU second x{statistics.median(cpu_games):.2f}")


if __name__ == "__main__":
    main()
