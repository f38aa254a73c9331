"""Load test of ``riftscript serve`` on loopback: many games played to the end at once, through HTTP.

Starts the server in a subprocess on 127.0.0.1 (a free port, a temporary data folder), then
``--games`` clients at once each start a Duel (their seat against an agent) and play it to the
end as a browser would: post the chosen button, follow the redirect, read the page's buttons.
Each client picks among its buttons at random (seeded) but prefers ending its turn now and then,
so games end.  Reports games finished, errors, wall time, requests per second, the server's
resident memory (before, at its peak, after) and memory per game, and the saved files' size.

    python3 benchmarks/load_web.py [--games 50] [--agent greedy] [--seed 1]

Only 127.0.0.1 is contacted; every loop is bounded in count and time.
"""
from __future__ import annotations

import argparse
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

DECKS = ["Jinx Champion Deck", "Viktor Champion Deck", "Lee Sin Champion Deck", "Annie Starter Deck",
         "Garen Starter Deck", "Lux Starter Deck", "Master Yi Starter Deck"]
BUTTON = re.compile(r'name="n" value="(\d+)" class="action">(.*?)</button>')
VERSION = re.compile(r'name="v" value="(\d+)"')
MAX_REQUESTS_PER_GAME = 4000
DEADLINE = 900.0  # seconds for the whole run


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def play_one(base: str, n: int, agent: str, seed: int, stop: float, counts: dict[str, int], lock: threading.Lock) -> str:
    """One game to the end; returns "" or what went wrong."""
    rng = random.Random(seed * 1000 + n)
    with httpx.Client(base_url=base, timeout=120) as client:
        form = {"mode": "duel", "deck0": DECKS[n % len(DECKS)], "deck1": DECKS[(n + 3) % len(DECKS)],
                "seat0": "person", "seat1": agent, "seed": str(seed + n)}
        answer = client.post("/play", data=form)
        requests = 1
        if answer.status_code != 303:
            return f"game {n}: starting answered {answer.status_code}"
        url = answer.headers["location"]
        page = client.get(url)
        requests += 1
        while requests < MAX_REQUESTS_PER_GAME and time.monotonic() < stop:
            if page.status_code != 200:
                return f"game {n}: the page answered {page.status_code}"
            if 'id="outcome"' in page.text:
                with lock:
                    counts["requests"] += requests
                return ""
            buttons = BUTTON.findall(page.text)
            version = VERSION.search(page.text)
            if not buttons or version is None:
                return f"game {n}: no buttons and no outcome on the page"
            ending = [i for i, label in buttons if label in ("end your turn", "pass")]
            choice = rng.choice(ending) if ending and rng.random() < 0.5 else rng.choice(buttons)[0]
            answer = client.post(url + "/act", data={"n": choice, "v": version.group(1)})
            requests += 2
            if answer.status_code != 303 or "note=" in answer.headers.get("location", ""):
                return f"game {n}: acting answered {answer.status_code} {answer.headers.get('location', '')}"
            page = client.get(answer.headers["location"])
        return f"game {n}: not over after {requests} requests"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="riftscript-load-") as folder:
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "riftscript.tools.cli", "serve", "--port", str(port),
                                   "--data-dir", folder], stderr=subprocess.PIPE, text=True)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base + "/", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    print("the server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.2)
            httpx.get(base + "/play")
            before = rss_kb(server.pid)
            peak = [before]
            done = threading.Event()

            def sample() -> None:
                while not done.wait(0.2):
                    peak[0] = max(peak[0], rss_kb(server.pid))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            counts = {"requests": 0}
            lock = threading.Lock()
            started = time.monotonic()
            stop = started + DEADLINE
            with ThreadPoolExecutor(max_workers=args.games) as pool:
                results = list(pool.map(lambda n: play_one(base, n, args.agent, args.seed, stop, counts, lock),
                                        range(args.games)))
            elapsed = time.monotonic() - started
            done.set()
            sampler.join()
            after = rss_kb(server.pid)
        finally:
            server.terminate()
            server.wait(30)
        errors = [r for r in results if r]
        sizes = [p.stat().st_size for p in (Path(folder) / "games").glob("*.json")]
    for error in errors[:10]:
        print("error:", error)
    finished = len(results) - len(errors)
    print(f"{args.games} concurrent Duel games against '{args.agent}' agents through HTTP on 127.0.0.1: "
          f"{finished} finished, {len(errors)} errors, {elapsed:.1f} s, "
          f"{counts['requests']} requests ({counts['requests'] / elapsed:.0f}/s)")
    print(f"server memory: {before / 1024:.0f} MiB before, {peak[0] / 1024:.0f} MiB at peak, {after / 1024:.0f} MiB after; "
          f"{(peak[0] - before) / max(1, args.games):.0f} KiB per game at peak")
    if sizes:
        print(f"saved games: {sum(sizes) / len(sizes) / 1024:.0f} KiB each on average, {max(sizes) / 1024:.0f} KiB the largest")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
