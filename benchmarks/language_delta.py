"""Which cards of a set needed language that an older revision did not have (for docs/engine-changes.md).

Each card of the set is validated against the JSON Schemas of BASE (read with ``git show``), with the
effect primitives every installed plugin registers, so a set plugin's own primitives count as the
set's.  A card that fails names the keys or values it needed; a card that passes uses only BASE's
language (it may still have needed a kernel fix or a new hook - the ledger lists those by hand).

    python3 benchmarks/language_delta.py BASE --set UNL [--hooks move_tax,named_tag] [--format json]

``--hooks`` lists hook names new since BASE (hook names are free strings in the schema): cards whose
scripts name one are reported with it.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def old_schemas(base: str) -> dict[str, dict[str, Any]]:
    """The schema documents of BASE, by name."""
    from riftscript.core.script.schema import NAMES

    out = {}
    for name in NAMES:
        text = subprocess.run(["git", "-C", str(ROOT), "show", f"{base}:schemas/{name}.schema.json"],
                              check=True, capture_output=True, text=True).stdout
        out[name] = json.loads(text)
    return out


def hooks_named(node: Any) -> set[str]:
    """Hook names a script uses (``{type: hook, hook: NAME}``)."""
    found: set[str] = set()
    if isinstance(node, dict):
        if node.get("type") == "hook" and isinstance(node.get("hook"), str):
            found.add(node["hook"])
        for value in node.values():
            found |= hooks_named(value)
    elif isinstance(node, list):
        for value in node:
            found |= hooks_named(value)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", help="the older revision (a branch, tag or commit)")
    parser.add_argument("--set", required=True, dest="code", help="the set's code")
    parser.add_argument("--hooks", default="", help="comma-separated hook names new since BASE")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args(argv)

    from riftscript.core.script import schema
    from riftscript.core.script.catalog import load_catalog

    catalog = load_catalog()
    docs = old_schemas(args.base)
    schema.raw_schema.cache_clear()
    original = schema.raw_schema
    schema.raw_schema = lambda name: docs[name]  # type: ignore[assignment]
    try:
        old = schema.Schemas((e.name, e.schema) for e in catalog.effect_types.values() if e.schema is not None)
    finally:
        schema.raw_schema = original
    new_hooks = {h for h in args.hooks.split(",") if h}
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    rows = []
    folder = next(p for p in (ROOT / "sets").iterdir() if (p / "set.yaml").exists()
                  and yaml.load((p / "set.yaml").read_text(encoding="utf-8")).get("code") == args.code)
    for path in sorted((folder / "cards").glob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"))
        problems = old.problems("card", data)
        needs = sorted({f"{'.'.join(map(str, p.path[-2:]))}: {p.message}" for p in problems})
        hooks = sorted(hooks_named(data) & new_hooks)
        rows.append({"code": data["code"], "name": data["name"], "new_language": needs, "new_hooks": hooks})
    if args.format == "json":
        json.dump(rows, sys.stdout, indent=1)
        print()
        return 0
    keys: Counter[str] = Counter()
    for row in rows:
        if row["new_language"] or row["new_hooks"]:
            print(f"{row['code']}  {row['name']}")
            for need in row["new_language"]:
                print(f"    {need}")
                keys[need] += 1
            for hook in row["new_hooks"]:
                print(f"    hook {hook}")
    plain = sum(1 for row in rows if not row["new_language"] and not row["new_hooks"])
    print(f"{len(rows)} cards; {plain} use only {args.base}'s language and hooks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
