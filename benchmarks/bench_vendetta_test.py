"""Time tests/test_vendetta.py against the version of it at another revision, side by side.

Each round runs both versions once, alternating, and prints wall time and the CPU time of pytest and
the processes it waited for (pip, the fresh virtual environment's runs).  On a busy machine the wall
times are noise; the CPU times are the steadier figure.

    python benchmarks/bench_vendetta_test.py --against e251b44 --rounds 2
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/test_vendetta.py"


def run(path: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, children included) of one pytest run of the file."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
                          cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{path} failed:\n{done.stdout[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the revision whose tests/test_vendetta.py is compared")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    old = ROOT / "tests" / "test_vendetta_bench_old.py"
    old.write_text(subprocess.run(["git", "show", f"{args.against}:{TEST}"], cwd=ROOT, check=True,
                                  capture_output=True, text=True).stdout)
    try:
        for round_ in range(args.rounds):
            for name, path in ((args.against, old), ("this tree", ROOT / TEST)):
                wall, cpu = run(path)
                print(f"round {round_ + 1}  {name:>10}: wall {wall:6.1f} s  cpu {cpu:6.1f} s", flush=True)
    finally:
        old.unlink()


if __name__ == "__main__":
    main()
