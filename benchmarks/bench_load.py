"""Benchmark: load and validate 1,000 generated card files, cold (empty cache) and warm.

Usage: ``python3 benchmarks/bench_load.py [--cards 1000] [--repeat 3]``

Each measurement runs in a fresh Python process, so import-time state (caches in memory,
compiled validators) never flatters the numbers; the time reported is ``load_catalog`` alone
(plugin discovery, parsing, validation, compilation, reference checks, cache read/write), not
interpreter start-up.  Runs with the C parser (``ruamel.yaml.clib``) when it is installed, and
with the pure-Python parser (``RIFTSCRIPT_PURE_YAML=1``).  Not a test: nothing here asserts.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DOMAINS = ["fury", "calm", "mind", "body", "chaos", "order"]
TAGS = ["Zaun", "Piltover", "Noxus", "Demacia", "Ionia", "Freljord", "Shurima", "Targon", "Bilgewater"]
NUMBER_KEYWORDS = ["Assault", "Shield", "Deflect", "Hunt"]
PLAIN_KEYWORDS = ["Tank", "Ganking", "Backline", "Hidden", "Ambush", "Accelerate", "Deploy"]
ENEMY_UNIT = "{pick: target, what: unit, where: {controller: enemy, location: battlefield}}"
FRIENDLY_UNIT = "{pick: target, what: unit, where: {controller: friendly}}"
WORDS = ["Iron", "Storm", "Ember", "Shadow", "Glacial", "Gilded", "Vile", "Radiant", "Hollow", "Feral",
         "Sentinel", "Raider", "Oracle", "Warden", "Hexcaller", "Duelist", "Scout", "Brute", "Seer", "Knight"]


def _effect(rng: random.Random) -> str:
    """One effect in flow style, drawn from common shapes."""
    n = rng.randint(1, 4)
    return rng.choice([
        f"{{type: draw, amount: {n}}}",
        f"{{type: deal_damage, amount: {n}, target: {ENEMY_UNIT}}}",
        f"{{type: stun, target: {ENEMY_UNIT}}}",
        f"{{type: buff, target: {FRIENDLY_UNIT}}}",
        f"{{type: channel, amount: 1}}",
        f"{{type: create_token, token: Bench Recruit, count: {rng.randint(1, 2)}, at: base}}",
        f"{{type: modify_might, target: {FRIENDLY_UNIT}, amount: {n}, duration: this_turn}}",
        f"{{type: gain_points, amount: 1}}",
    ])


def card_text(code: str, rng: random.Random) -> str:
    """A plausible card: a unit, spell or gear with keywords and abilities of varied shapes."""
    kind = rng.choices(["unit", "spell", "gear"], weights=[6, 3, 1])[0]
    domain = rng.choice(DOMAINS)
    name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {code[-3:]}"
    lines = [
        "# yaml-language-server: $schema=../../schemas/card.schema.json",
        "schema_version: 1",
        f"code: {code}",
        f"name: {name}",
        f"type: {kind}",
        f"domains: [{domain}]",
        f"cost: {{energy: {rng.randint(1, 8)}{', power: [' + domain + ']' if rng.random() < 0.4 else ''}}}",
        f"rarity: {rng.choice(['common', 'uncommon', 'rare', 'epic'])}",
    ]
    if kind == "unit":
        lines.append(f"might: {rng.randint(1, 9)}")
        lines.append(f"tags: [{rng.choice(TAGS)}]")
        uses = []
        if rng.random() < 0.5:
            uses.append(f"  - {rng.choice(NUMBER_KEYWORDS)}: {rng.randint(1, 3)}")
        if rng.random() < 0.4:
            uses.append(f"  - {rng.choice(PLAIN_KEYWORDS)}")
        if rng.random() < 0.2:
            uses.append(f"  - Deathknell: {_effect(rng)}")
        if uses:
            lines.append("keywords:")
            lines.extend(uses)
    lines.append("abilities:")
    if kind == "spell":
        lines += ["  - kind: spell", "    effect:", "      type: sequence", "      steps:"]
        for _ in range(rng.randint(1, 3)):
            lines.append(f"        - {_effect(rng)}")
        if rng.random() < 0.5:
            lines += ["        - type: if", "          condition: {type: did, what: kill}",
                      f"          then: {_effect(rng)}"]
    elif kind == "gear":
        lines += ["  - kind: activated", f"    cost: {{energy: {rng.randint(0, 3)}, exhaust_self: true}}",
                  f"    effect: {_effect(rng)}",
                  "  - kind: static", "    affects: {pick: all, what: unit, where: {controller: friendly}}",
                  f"    modifiers: [{{type: might, amount: {rng.randint(1, 2)}}}]"]
    else:
        event = rng.choice(["played", "attack", "defend", "conquer", "hold", "move"])
        lines += ["  - kind: triggered", f"    when: {{event: {event}, subject: self}}"]
        if rng.random() < 0.4:
            lines.append("    optional: true")
        lines.append(f"    effect: {_effect(rng)}")
        if rng.random() < 0.3:
            lines += ["  - kind: static", "    while: {type: is, subject: self, state: attacker}",
                      f"    modifiers: [{{type: might, amount: {rng.randint(1, 3)}}}]"]
    return "\n".join(lines) + "\n"


def generate(root: Path, count: int, seed: int = 7) -> Path:
    """Write ``count`` card files and a set manifest under ``root``; returns the cards folder."""
    rng = random.Random(seed)
    cards = root / "cards"
    cards.mkdir(parents=True, exist_ok=True)
    (root / "set.yaml").write_text("schema_version: 1\ncode: BEN\nname: Benchmark\nversion: 1.0.0\n"
                                   f"card_count: {count}\nrequires: {{engine: '>=0.1', schema_version: 1}}\n")
    (cards / "BEN-000.yaml").write_text("schema_version: 1\ncode: BEN-000\nname: Bench Recruit\ntype: unit\n"
                                        "supertype: token\ntoken: true\nmight: 1\n")
    for i in range(1, count):
        prefix = "BEN" if i < 1000 else f"BE{i // 1000}"
        code = f"{prefix}-{i % 1000:03d}"
        (cards / f"{code}.yaml").write_text(card_text(code, rng))
    return cards


WORKER = """
import json, sys, time
from pathlib import Path
from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import SetSpec
from riftscript.core.script.discovery import load_plugins
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script import yamlio

root = Path(sys.argv[1])

class BenchSet:
    @hookimpl
    def riftscript_sets(self):
        return [SetSpec(manifest=root / "set.yaml", cards=root / "cards", plugin="bench")]

start = time.perf_counter()
catalog = load_catalog(load_plugins(extra=[BenchSet()]))
elapsed = time.perf_counter() - start
print(json.dumps({"ms": elapsed * 1000, "cards": len(catalog.cards), "files": catalog.files,
                  "c_parser": yamlio.use_c_parser()}))
"""


def measure(root: Path, cache_dir: Path, pure: bool, alone: bool) -> dict[str, float]:
    env = dict(os.environ, RIFTSCRIPT_CACHE_DIR=str(cache_dir))
    env.pop("RIFTSCRIPT_NO_CACHE", None)
    if alone:  # only the generated set (and the core keywords): exactly the requested number of cards
        env["RIFTSCRIPT_DISABLE_PLUGINS"] = "origins,proving-grounds,spiritforged"
    else:
        env.pop("RIFTSCRIPT_DISABLE_PLUGINS", None)
    if pure:
        env["RIFTSCRIPT_PURE_YAML"] = "1"
    else:
        env.pop("RIFTSCRIPT_PURE_YAML", None)
    out = subprocess.run([sys.executable, "-c", WORKER, str(root)], env=env, check=True,
                         capture_output=True, text=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000, help="number of card files (default 1000)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per measurement; the median and the best are shown")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="riftscript-bench-") as tmp:
        root = Path(tmp) / "set"
        generate(root, args.cards)
        size = sum(p.stat().st_size for p in (root / "cards").iterdir())
        print(f"{args.cards} card files, {size / 1024:.0f} KiB in total")
        for alone, pure in ((True, False), (True, True), (False, False)):
            label = "pure-Python parser" if pure else "C parser (ruamel.yaml.clib)"
            cold: list[float] = []
            warm: list[float] = []
            used_c = False
            files = cards = 0.0
            for run in range(args.repeat):
                cache = Path(tmp) / f"cache-{alone}-{pure}-{run}"
                first = measure(root, cache, pure, alone)
                cold.append(first["ms"])
                used_c = bool(first["c_parser"])
                files, cards = first["files"], first["cards"]
                warm.append(measure(root, cache, pure, alone)["ms"])
            if not pure and not used_c:
                label = "C parser requested but not installed; pure-Python parser"
            scope = "generated set only" if alone else "plus installed sets"
            print(f"{label:>28}, {scope:<20} ({cards:4.0f} cards, {files:4.0f} files): "
                  f"cold {statistics.median(cold):5.0f} ms (best {min(cold):4.0f})   "
                  f"warm {statistics.median(warm):4.0f} ms (best {min(warm):4.0f})")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import riftscript.core.script.catalog"], check=True)
        print(f"python start-up + imports (not included above): {1000 * (time.perf_counter() - started):.0f} ms")


if __name__ == "__main__":
    main()
