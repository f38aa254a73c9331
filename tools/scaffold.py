"""``riftscript new set CODE NAME [DIR]``: a set folder ready to write cards in.

The folder is a set as it stands (``riftscript --set DIR ...``, ``RIFTSCRIPT_SETS``, and
``pytest DIR`` runs its scenarios); its ``pyproject.toml`` makes it pip-installable as a plugin
whose only module is one line handing the folder to :func:`riftscript.core.script.folders.package_hooks`.
Nothing in it is Python a card author has to write or read.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import RiftScriptError
from riftscript.core.script.folders import MANIFEST
from riftscript.core.version import ENGINE_VERSION, SCHEMA_VERSION

CODE = re.compile(r"^[A-Z0-9]{2,5}$")
ENTRY = "from riftscript.core.script.folders import package_hooks; riftscript_sets, riftscript_keywords = package_hooks(__file__)\n"


class ScaffoldError(RiftScriptError):
    """The set folder can't be made (a bad code, or files already there)."""


def _engine_range() -> str:
    major = int(ENGINE_VERSION.split(".")[0])
    minor = ".".join(ENGINE_VERSION.split(".")[:2])
    return f">={minor},<{major + 1}"


def _schema(name: str) -> str:
    from riftscript.tools.cli import schema_dir  # imported here: cli imports this module

    return f"# yaml-language-server: $schema={schema_dir() / f'{name}.schema.json'}\n"


def files(code: str, name: str) -> dict[str, str]:
    """The scaffold's files by relative path."""
    package = f"riftscript_set_{code.lower()}"
    card = f"{code}-001"
    card_name = _yaml(f"{name} Pathfinder")
    quoted = _yaml(name)
    toml = json.dumps(f"{name}: a RiftScript card set")  # a TOML basic string is written as JSON writes it
    return {
        MANIFEST: _schema("set") + (
            f"schema_version: {SCHEMA_VERSION}\n"
            f"code: {code}\n"
            f"name: {quoted}\n"
            f"version: 0.1.0\n"
            f'requires: {{engine: "{_engine_range()}", schema_version: {SCHEMA_VERSION}}}\n'
            f"description: {_yaml(name + ': a RiftScript card set.')}\n"),
        f"cards/{card}.yaml": _schema("card") + (
            f"schema_version: {SCHEMA_VERSION}\n"
            f"code: {card}\n"
            f"name: {card_name}\n"
            f"type: unit\n"
            f"domains: [fury]\n"
            f"cost: {{energy: 2}}\n"
            f"might: 2\n"
            f"abilities:\n"
            f"  - kind: triggered\n"
            f"    when: {{event: played, subject: self}}\n"
            f"    effect: {{type: draw, amount: 1}}\n"),
        f"scenarios/{card}.yaml": (
            f"# 'pytest .' in the set folder runs every scenario of the set\n"
            f"schema_version: {SCHEMA_VERSION}\n"
            f"name: {_yaml(name + ' Pathfinder draws a card when played')}\n"
            f"cards: [{card}]\n"
            f"setup:\n"
            f"  A:\n"
            f"    hand: [{{card: {card}, as: pathfinder}}]\n"
            f"    runes: [OGN-007, OGN-007]   # two Fury Runes pay its cost\n"
            f"    deck: [OGN-052]\n"
            f"steps:\n"
            f"  - do: play   # the unit enters play; its 'when you play me' ability goes on the chain\n"
            f"    player: A\n"
            f"    card: pathfinder\n"
            f"    expect: {{zone: {{pathfinder: board}}, hand_size: {{A: 0}}}}\n"
            f"  - {{do: pass, player: A}}\n"
            f"  - do: pass   # both players passed: the ability resolves and A draws\n"
            f"    player: B\n"
            f"    expect: {{hand_size: {{A: 1}}, deck_size: {{A: 0}}}}\n"),
        "keywords/README.md": (
            "Keywords of this set, one YAML file each (`riftscript schema keyword` prints their schema);\n"
            "cards and scenarios of the set use them by name, with no code.\n"),
        "decks/README.md": "Decks of this set, one YAML file each (`riftscript schema deck` prints their schema).\n",
        "pyproject.toml": (
            f"# Makes this set folder pip-installable ('pip install .'): the package is the folder itself, and\n"
            f"# its one module hands the folder to RiftScript. Nothing here needs editing to add cards.\n"
            f"[build-system]\n"
            f'requires = ["setuptools>=61"]\n'
            f'build-backend = "setuptools.build_meta"\n'
            f"\n"
            f"[project]\n"
            f'name = "riftscript-set-{code.lower()}"\n'
            f'version = "0.1.0"\n'
            f"description = {toml}\n"
            f'requires-python = ">=3.11"\n'
            f'dependencies = ["riftscript{_engine_range()}"]\n'
            f"\n"
            f'[project.entry-points."riftscript.sets"]\n'
            f'{code.lower()} = "{package}"\n'
            f"\n"
            f"[tool.setuptools]\n"
            f'package-dir = {{"{package}" = "."}}\n'
            f'packages = ["{package}"]\n'
            f"\n"
            f"[tool.setuptools.package-data]\n"
            f'{package} = ["{MANIFEST}", "cards/*.yaml", "keywords/*.yaml", "decks/*.yaml", "scenarios/*.yaml"]\n'),
        "__init__.py": ENTRY,
    }


def _yaml(text: str) -> str:
    """A YAML scalar holding exactly ``text`` (single-quoted: only ' needs escaping, as '')."""
    return "'" + text.replace("'", "''") + "'"


def new_set(code: str, name: str, folder: Path, taken: dict[str, str] | None = None) -> list[Path]:
    """Write the scaffold into ``folder`` (new or empty); returns the files written.  ``taken``: the
    codes of installed sets, with their names, which a new set can't reuse."""
    if not CODE.match(code):
        raise ScaffoldError(f"set code {code!r}: use 2 to 5 capital letters or digits, e.g. MYS")
    if taken and code in taken:
        raise ScaffoldError(f"set code {code} is the code of the installed set {taken[code]}; choose another")
    if not name.strip() or len(name) > 80 or not name.isprintable():
        raise ScaffoldError("the set name must be 1 to 80 printable characters")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not an empty folder; choose another DIR")
    written: list[Path] = []
    for relative, text in files(code, name).items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def cmd_new_set(args: argparse.Namespace) -> int:
    from riftscript.tools.cli import CONTEXT  # imported here: cli imports this module

    code = args.code.upper()
    folder = args.dir if args.dir is not None else Path(f"{code.lower()}-set")
    installed = load_catalog(strict=False).sets
    new_set(code, args.name, folder, {c: info.name for c, info in installed.items()})
    out = CONTEXT.stream
    print(f"created the set folder {folder} ({code}, {args.name}): {MANIFEST}, cards/{code}-001.yaml, "
          f"scenarios/{code}-001.yaml, keywords/, decks/, pyproject.toml", file=out)
    steps = [(f"riftscript validate {folder}", "check every file of the set"),
             (f"riftscript --set {folder} cards --show {code}-001", "see the first card's text"),
             (f"pytest {folder}", "run the set's scenarios"),
             (f"pip install ./{folder}", "optional: install the set as a plugin")]
    width = max(len(command) for command, _ in steps)
    print("next:", file=out)
    for command, what in steps:
        print(f"  {command:<{width}}  {what}", file=out)
    return 0


def add_commands(sub: Any) -> None:
    """Register 'new' (with 'set') on an argparse subparsers object."""
    new = sub.add_parser("new", help="start a new set folder (riftscript new set CODE NAME [DIR])",
                         description="Create new things from templates.")

    def usage(args: argparse.Namespace) -> int:
        new.print_help(sys.stdout)
        return 0

    new.set_defaults(func=usage)
    kinds = new.add_subparsers(dest="new_command", metavar="WHAT")
    parser = kinds.add_parser(
        "set", help="a set folder: set.yaml, a first card, a first scenario, keywords/, decks/, pyproject.toml",
        description="Create a set folder that loads with 'riftscript --set DIR' (or RIFTSCRIPT_SETS) and "
                    "'pytest DIR', and installs as a plugin with 'pip install ./DIR'.",
        epilog="example: riftscript new set MYS \"My Set\" my-set")
    parser.add_argument("code", metavar="CODE", help="the set code: 2 to 5 capital letters or digits, e.g. MYS")
    parser.add_argument("name", metavar="NAME", help="the set's name, e.g. \"My Set\"")
    parser.add_argument("dir", nargs="?", type=Path, metavar="DIR",
                        help="the folder to create (new or empty; default: CODE-set in lower case)")
    parser.set_defaults(func=cmd_new_set)
