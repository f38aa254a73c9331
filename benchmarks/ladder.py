"""A round robin of agents on the official decks: win rates with 95% Wilson intervals, an Elo table and
the time each agent takes per decision.

Decision times are given twice: wall-clock over every decision, and processor time over the decisions
with more than one legal action (what a decision costs, whatever else runs on the machine).

Every pairing plays ``--games`` Duel games in pairs: both games of a pair have the same seed and decks
(cycling through the ordered pairs of the official preconstructed decks) and the agents swap seats, so
neither the first turn nor a deck favours one of them.  Games run in worker processes (``--workers``,
default: every core) at low priority.  With ``--out FILE`` each game is appended to FILE as a JSON line
as it finishes, and a later run with the same FILE plays only the games still missing (a long ladder
can be stopped and resumed).  Usage:

    python3 benchmarks/ladder.py [--agents random greedy mcts-easy mcts mcts-hard] [--games 200]
                                 [--seed 0] [--workers 2] [--nice 10] [--out ladder.jsonl] [--markdown]
                                 [--report]
"""
from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

OFFICIAL = ["Annie Starter Deck", "Garen Starter Deck", "Lux Starter Deck", "Master Yi Starter Deck",
            "Jinx Champion Deck", "Lee Sin Champion Deck", "Viktor Champion Deck"]
DECK_PAIRS = [pair for pair in itertools.permutations(OFFICIAL, 2)]

_CATALOG: Any = None


def _catalog() -> Any:
    global _CATALOG
    if _CATALOG is None:
        from riftscript.core.script.catalog import load_catalog

        _CATALOG = load_catalog()
    return _CATALOG


def play(a: str, b: str, index: int, seed: int) -> dict[str, Any]:
    """Game ``index`` of the pairing a-b: pair index // 2, agents swapped on odd indexes."""
    from riftscript.core.engine.game import Game

    catalog = _catalog()
    pair = index // 2
    game_seed = seed + pair
    decks = list(DECK_PAIRS[(seed + pair) % len(DECK_PAIRS)])
    seats = [a, b] if index % 2 == 0 else [b, a]
    game = Game.new(catalog, decks, seed=game_seed, names=[d.split()[0] for d in decks])
    agents = [_agent(catalog, name, game_seed * 7919 + i) for i, name in enumerate(seats)]
    times: list[list[float]] = [[], []]  # wall-clock seconds of every decision
    searched: list[list[float]] = [[], []]  # processor seconds of decisions with a choice
    actions = 0
    while not game.over and actions < 100_000:
        decision = game.pending_decision()
        if decision is None:
            break
        legal = game.legal_actions()
        started, cpu = time.perf_counter(), time.process_time()
        action = agents[decision.player].choose(game, legal)
        times[decision.player].append(time.perf_counter() - started)
        if len(legal) > 1:
            searched[decision.player].append(time.process_time() - cpu)
        game.apply(action)
        actions += 1
    s = game.state
    winner = None if not s.winners else seats[s.winners[0]]
    return {"a": a, "b": b, "index": index, "seed": game_seed, "decks": decks, "seats": seats,
            "winner": winner, "turns": s.turn, "hash": game.log_hash(),
            "times": {seats[p]: times[p] for p in range(2)}, "choices": {seats[p]: searched[p] for p in range(2)},
            "revision": revision()}


@functools.lru_cache(maxsize=1)
def revision() -> str:
    """The commit of the code that plays (with '+' when the checkout has uncommitted changes), kept with
    each game: a ladder resumed over weeks says which engine played which games."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def _agent(catalog: Any, name: str, seed: int) -> Any:
    """An installed agent by name, or ``mcts@N`` (``mcts@N,W``): the search agent with N iterations a
    decision (and a work budget of W)."""
    if "@" in name:
        from riftscript.plugins.mcts import MCTSAgent

        budget = name.split("@")[1].split(",")
        # seeded as make_agents seeds an installed agent (the first of its list), so mcts@N,W plays the very
        # games of an installed level with that budget
        return MCTSAgent(seed * 7919, iterations=int(budget[0]), work=int(budget[1]) if len(budget) > 1 else None)
    from riftscript.tools.play import make_agents

    return make_agents(catalog, [name], seed)[0]


def _init_worker(niceness: int) -> None:
    try:
        os.nice(niceness)
    except OSError:
        pass
    _catalog()


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (draws count half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(agents: list[str], score: dict[tuple[str, str], float], games: dict[tuple[str, str], int],
        anchor: str) -> dict[str, float]:
    """Bradley-Terry ratings by minorization-maximization, in Elo points with ``anchor`` at 0.

    A rating is undefined for an agent that won or lost everything; a tenth of a game added to both
    sides of every pairing keeps every rating finite."""
    strength = {x: 1.0 for x in agents}
    for _ in range(2000):
        new = {}
        for x in agents:
            won = sum(score.get((x, y), 0.0) + 0.1 for y in agents if y != x and games.get((x, y)))
            denominator = sum((games[(x, y)] + 0.2) / (strength[x] + strength[y])
                              for y in agents if y != x and games.get((x, y)))
            new[x] = won / denominator if denominator else strength[x]
        total = sum(new.values())
        strength = {x: v * len(agents) / total for x, v in new.items()}
    base = strength[anchor]
    return {x: 400 * math.log10(strength[x] / base) for x in agents}


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(results: list[dict[str, Any]], agents: list[str], markdown: bool) -> str:
    score: dict[tuple[str, str], float] = {}
    games: dict[tuple[str, str], int] = {}
    draws: dict[tuple[str, str], int] = {}
    times: dict[str, list[float]] = {x: [] for x in agents}
    choices: dict[str, list[float]] = {x: [] for x in agents}
    for r in results:
        a, b = r["a"], r["b"]
        for x, y in ((a, b), (b, a)):
            games[(x, y)] = games.get((x, y), 0) + 1
            score[(x, y)] = score.get((x, y), 0.0) + (1.0 if r["winner"] == x else 0.5 if r["winner"] is None else 0.0)
        if r["winner"] is None:
            draws[(a, b)] = draws.get((a, b), 0) + 1
        for x in (a, b):
            if x in times:
                times[x] += r["times"][x]
                choices[x] += r["choices"][x]
    lines: list[str] = []
    bar = "|" if markdown else " "

    def row(cells: list[str]) -> None:
        lines.append((bar + " " + " | ".join(cells) + " " + bar) if markdown else "  ".join(cells))

    def rule(n: int) -> None:
        if markdown:
            lines.append("|" + "---|" * n)

    row(["A vs B", "games", "A won", "drawn", "A's score (draw = 1/2)", "95% Wilson interval"])
    rule(6)
    for a, b in itertools.combinations(agents, 2):
        n = games.get((a, b), 0)
        if not n:
            continue
        won = score[(a, b)]
        low, high = wilson(won, n)
        wins = sum(1 for r in results if {r["a"], r["b"]} == {a, b} and r["winner"] == a)
        row([f"{a} vs {b}", str(n), str(wins), str(draws.get((a, b), 0) + draws.get((b, a), 0)),
             f"{won / n:.1%}", f"{low:.1%}-{high:.1%}"])
    lines.append("")
    # An agent that played no game has no rating: Bradley-Terry would leave it at its starting strength,
    # which reads like a measured Elo.
    played = [x for x in agents if any(games.get((x, y)) for y in agents)]
    ratings = elo(played, score, games, played[0]) if played else {}
    anchor = played[0] if played else agents[0]
    row(["agent", f"Elo ({anchor} = 0)", "wall s/decision: mean", "p95", "max",
         "CPU s/decision with a choice: mean", "p95", "max"])
    rule(8)
    for x in sorted(agents, key=lambda x: -ratings.get(x, -math.inf)):
        t, c = times[x], choices[x]
        row([x, f"{ratings[x]:.0f}" if x in ratings else "no games", f"{sum(t) / max(1, len(t)):.3f}", f"{_percentile(t, 0.95):.3f}",
             f"{max(t, default=0.0):.3f}", f"{sum(c) / max(1, len(c)):.3f}", f"{_percentile(c, 0.95):.3f}",
             f"{max(c, default=0.0):.3f}"])
    played_at: dict[str, int] = {}
    for r in results:
        if r["a"] in agents and r["b"] in agents:
            played_at[r.get("revision", "unknown")] = played_at.get(r.get("revision", "unknown"), 0) + 1
    lines.append("")
    lines.append("played at: " + ", ".join(f"{rev} ({n} games)" for rev, n in sorted(played_at.items()))
                 + ("; 'unknown': recorded before the ladder kept the revision" if "unknown" in played_at else ""))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", default=["random", "greedy", "mcts-easy", "mcts", "mcts-hard"],
                        help="installed agents, or mcts@N for the search agent with N iterations a decision")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (rounded up to an even number)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--nice", type=int, default=10, help="how much lower the workers' priority is (default 10)")
    parser.add_argument("--out", help="append each game to this JSON-lines file; resume from it")
    parser.add_argument("--markdown", action="store_true", help="print the tables in Markdown")
    parser.add_argument("--report", action="store_true",
                        help="play nothing: report every game of the listed agents in the --out file")
    args = parser.parse_args()
    if args.report:
        if not args.out:
            parser.error("--report reads the games of an --out file")
        chosen = set(args.agents)
        lines = Path(args.out).read_text().splitlines()
        print(report([r for r in map(json.loads, lines) if {r["a"], r["b"]} <= chosen], args.agents, args.markdown))
        return
    games = args.games + args.games % 2
    wanted = [(a, b, i) for a, b in itertools.combinations(args.agents, 2) for i in range(games)]
    results: list[dict[str, Any]] = []
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        expected = set(wanted)
        for line in out.read_text().splitlines():
            r = json.loads(line)
            if (r["a"], r["b"], r["index"]) in expected and r["seed"] == args.seed + r["index"] // 2:
                results.append(r)
    done = {(r["a"], r["b"], r["index"]) for r in results}
    todo = [w for w in wanted if w not in done]
    # the slowest pairings first, so the workers finish together
    todo.sort(key=lambda w: -sum(("mcts" in x) * (3 if "hard" in x else 1) for x in w[:2]))
    started = time.perf_counter()
    print(f"{len(wanted)} games, {len(done)} already played, {args.workers} workers", file=sys.stderr)
    with ProcessPoolExecutor(max_workers=args.workers, initializer=_init_worker,
                             initargs=(args.nice,)) as pool:
        futures = [pool.submit(play, a, b, i, args.seed) for a, b, i in todo]
        for k, future in enumerate(as_completed(futures), 1):
            r = future.result()
            results.append(r)
            if out is not None:
                with out.open("a") as f:
                    f.write(json.dumps(r) + "\n")
            if k % 20 == 0 or k == len(futures):
                print(f"  {k}/{len(futures)} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(report(results, args.agents, args.markdown))


if __name__ == "__main__":
    main()
