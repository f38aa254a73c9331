"""The ``riftscript`` command: check card scripts and look at what is installed.

Subcommands live in the COMMANDS table below, each a small function taking the parsed arguments
and returning the exit status.  Bad input never produces a traceback: problems in script files
are printed as ``file:line:col: message (json.path)``, other errors as ``error: ...``.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import json
import os
import sys
import warnings
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from ruamel.yaml import YAML

from riftscript.tools import audit, coverage, deckcheck, interactive, mutate, play, scaffold
from riftscript.tools.argtypes import lower_choice
from riftscript.tools.lab import replay, tournament
from riftscript.tools.web import command as web_command
from riftscript.tools.render import render_lines
from riftscript.core.script import validated_cache as cachemod
from riftscript.core.script import folders
from riftscript.core.script import yamlio
from riftscript.core.script.cards import CardDef
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.compiler import keyword_id
from riftscript.core.script.loader import script_files
from riftscript.core.errors import Problem, RiftScriptError
from riftscript.core.script.discovery import load_plugins
from riftscript.core.script.schema import NAMES, Schemas, raw_schema
from riftscript.core.script.suggest import did_you_mean
from riftscript.core.version import ENGINE_VERSION, SCHEMA_VERSION

DEBUG_ENV = "RIFTSCRIPT_DEBUG"
Run = Callable[[argparse.Namespace], int]


def no_arguments(parser: argparse.ArgumentParser) -> None:
    """For subcommands without options of their own."""


@dataclass(frozen=True)
class Command:
    """A subcommand: its one-line help, what it runs, and how it adds its arguments."""

    help: str
    run: Run
    arguments: Callable[[argparse.ArgumentParser], None] = no_arguments
    description: str = ""
    epilog: str = ""


@dataclass
class Context:
    """Settings every subcommand shares (from the global options)."""

    out: TextIO | None = None
    use_cache: bool = True
    plugins: list[object] = field(default_factory=list)

    @property
    def stream(self) -> TextIO:
        return self.out or sys.stdout


CONTEXT = Context()


def _catalog(paths: Sequence[Path] = ()) -> Catalog:
    plugins = load_plugins(extra=CONTEXT.plugins) if CONTEXT.plugins else None
    return load_catalog(plugins, extra_cards=list(paths), strict=False, cache=None if CONTEXT.use_cache else False)


def load_plugin_module(spec: str) -> object:
    """A plugin given on the command line: a module name, or a ``.py`` file (inside a package
    or not), e.g. an uninstalled set's ``effects.py`` to validate cards that use its effects."""
    try:
        path = Path(spec)
        if spec.endswith(".py") or path.exists():
            path = path.resolve()
            if not path.is_file():
                raise FileNotFoundError(f"no such file: {spec}")
            package = path.parent
            parts = [path.stem]
            while (package / "__init__.py").exists():
                parts.insert(0, package.name)
                package = package.parent
            if len(parts) > 1:
                if str(package) not in sys.path:
                    sys.path.insert(0, str(package))
                return importlib.import_module(".".join(parts))
            loaded = importlib.util.spec_from_file_location(f"riftscript_cli_plugin_{path.stem}", path)
            if loaded is None or loaded.loader is None:
                raise ImportError(f"cannot import {spec}")
            module = importlib.util.module_from_spec(loaded)
            loaded.loader.exec_module(module)
            return module
        return importlib.import_module(spec)
    except Exception as exc:  # whatever the plugin's own code raised
        raise RiftScriptError(f"cannot load plugin {spec!r}: {type(exc).__name__}: {exc}") from None


def _print(*parts: object) -> None:
    print(*parts, file=CONTEXT.stream)


# --- validate ----------------------------------------------------------------------------------

def _validate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="card, keyword, deck or set files, or folders of them (default: all installed sets)")


def _with_context(paths: Sequence[Path]) -> list[Path]:
    """The files given, then what they are checked with (``folders.context``: the rest of their set
    folder, or the cards beside a scenarios folder), each file once."""
    files = [f for p in paths for f in script_files(p)]
    seen = {f.resolve() for f in files}
    for part in dict.fromkeys(part for p in paths for part in folders.context(p)):
        if part.exists():
            for f in script_files(part):
                if f.resolve() not in seen:
                    seen.add(f.resolve())
                    files.append(f)
    return files


def cmd_validate(args: argparse.Namespace) -> int:
    """Check files (or every installed set) and print each problem with its position."""
    paths: list[Path] = args.paths
    missing = [p for p in paths if not p.exists()]
    for path in missing:
        _print(Problem(str(path), None, None, "no such file or folder"))
    present = [p for p in paths if p.exists()]
    empty = [p for p in present if not script_files(p)]
    for path in empty:  # e.g. a folder named x.yaml: checking nothing is not "no problems"
        _print(Problem(str(path), None, None, "a folder with no .yaml or .yml file in it; nothing to check"))
    missing += empty
    present = [p for p in present if p not in empty]
    if paths and not present:
        return 1
    catalog = _catalog(_with_context(present))
    if paths:
        mine = {str(f) for p in present for f in script_files(p)}
        problems = [p for p in catalog.all_problems() if p.file in mine]
        checked = len(mine)
    else:
        problems = catalog.all_problems()  # a broken set plugin is left out of play, not out of this report
        checked = catalog.files
    for problem in problems:
        _print(problem)
    files = len({p.file for p in problems})
    if problems or missing:
        count = len(problems) + len(missing)
        _print(f"{count} problem{'s' if count != 1 else ''} in {files + len(missing)} "
               f"file{'s' if files + len(missing) != 1 else ''} ({checked} checked)")
        return 1
    what = f"{checked} file{'s' if checked != 1 else ''}"
    if not paths:
        what += f" in {len(catalog.sets)} set{'s' if len(catalog.sets) != 1 else ''}"
    _print(f"{what} checked: no problems")
    return 0


# --- sets --------------------------------------------------------------------------------------

def _json_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _table(rows: list[list[str]], header: list[str]) -> None:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        _print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())


def cmd_sets(args: argparse.Namespace) -> int:
    """List installed set plugins with how many of their cards are scripted."""
    catalog = _catalog()
    rows: list[dict[str, Any]] = []
    for info in sorted(catalog.sets.values(), key=lambda i: i.code):
        declared = info.manifest.get("card_count")
        folder = info.plugin[len(folders.FOLDER_PREFIX):] if info.plugin.startswith(folders.FOLDER_PREFIX) else None
        rows.append({"code": info.code, "name": info.name, "version": info.version, "plugin": info.plugin,
                     "scripted": len(info.cards), "declared": declared, "folder": folder})
    for skipped in sorted(catalog.skipped.values(), key=lambda s: s.code):
        rows.append({"code": skipped.code.split("@")[0], "name": "-", "version": "-", "plugin": skipped.plugin,
                     "scripted": 0, "declared": None, "folder": None, "skipped": f"{skipped.reason} ({skipped.file})"})
    if args.json:
        _print(json.dumps(rows, indent=2))
        return 0
    _table([[r["code"], r["name"], r["version"], r["plugin"], str(r["scripted"]),
             "-" if r["declared"] is None else str(r["declared"]),
             f"skipped: {r['skipped']}" if "skipped" in r else "loaded"] for r in rows],
           ["CODE", "NAME", "VERSION", "PLUGIN", "SCRIPTED", "DECLARED", "STATUS"])
    return 0


# --- cards -------------------------------------------------------------------------------------

def _cards_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", help="part of the card name (any case)")
    parser.add_argument("--type", type=lower_choice, choices=CARD_TYPES, help=", ".join(CARD_TYPES))
    parser.add_argument("--domain", type=lower_choice, choices=DOMAINS, help=", ".join(DOMAINS))
    parser.add_argument("--keyword", help="a keyword the card has, e.g. Assault")
    parser.add_argument("--set", dest="set_code", metavar="CODE", help="set code, e.g. OGN")
    parser.add_argument("--show", metavar="CODE|FILE",
                        help="print one card's facts, rendered text and script (a code, a name, or a card file "
                             "that need not be installed)")
    _json_argument(parser)


CARD_TYPES = tuple(raw_schema("card")["properties"]["type"]["enum"])
DOMAINS = tuple(raw_schema("effect")["$defs"]["domain"]["enum"])


def _cost(card: CardDef) -> str:
    parts = [str(card.energy)] if card.energy or not card.power else []
    parts += [p[0].upper() + p[1:] for p in card.power]
    return " ".join(parts) if card.type not in ("legend", "battlefield", "rune") else ""


def _keywords(card: CardDef) -> str:
    out = []
    for name, value in card.keywords:
        out.append(name.replace("_", "-").title() + (f" {value}" if isinstance(value, int) else ""))
    return ", ".join(out)


def _matches(card: CardDef, args: argparse.Namespace) -> bool:
    return ((not args.name or args.name.lower() in card.name.lower())
            and (not args.type or card.type == args.type.lower())
            and (not args.domain or args.domain.lower() in card.domains)
            and (not args.keyword or card.has_keyword(keyword_id(args.keyword)))
            and (not args.set_code or card.set_code.upper() == args.set_code.upper()))


def cmd_cards(args: argparse.Namespace) -> int:
    """Search installed cards, or show one card with --show CODE (or --show FILE.yaml)."""
    if args.show and Path(args.show).suffix in (".yaml", ".yml"):
        return _show_file(Path(args.show))
    if args.set_code and (Path(args.set_code) / folders.MANIFEST).is_file():
        raise RiftScriptError(f"'cards --set' takes a set code; to load the set folder {args.set_code}, put --set "
                              f"before the command: riftscript --set {args.set_code} cards")
    catalog = _catalog()
    if args.show:
        return _show(catalog, args.show)
    found = sorted((c for c in catalog.cards.values() if _matches(c, args)), key=lambda c: c.code)
    if args.json:
        _print(json.dumps([_facts(c) for c in found], indent=2))
        return 0
    _table([[c.code, c.name, c.type + (f" ({c.supertype})" if c.supertype else ""), ", ".join(c.domains),
             _cost(c), str(c.might) if c.type == "unit" else "", _keywords(c)] for c in found],
           ["CODE", "NAME", "TYPE", "DOMAINS", "COST", "MIGHT", "KEYWORDS"])
    _print(f"{len(found)} card{'s' if len(found) != 1 else ''}")
    return 0


def _facts(card: CardDef) -> dict[str, Any]:
    facts: dict[str, Any] = {"code": card.code, "name": card.name, "set": card.set_code, "type": card.type}
    if card.supertype:
        facts["supertype"] = card.supertype
    facts.update({"domains": list(card.domains), "energy": card.energy, "power": list(card.power)})
    if card.type == "unit":
        facts["might"] = card.might
    if card.might_bonus:
        facts["might_bonus"] = card.might_bonus
    if card.tags:
        facts["tags"] = list(card.tags)
    facts["keywords"] = _keywords(card)
    facts["abilities"] = len(card.abilities)
    facts["file"] = card.source
    return facts


def _show_file(path: Path) -> int:
    """``cards --show FILE.yaml``: a card that is not installed, read with the rest of its set folder
    (its keywords, tokens and set manifest) when it sits in one."""
    if not path.is_file():
        _print(Problem(str(path), None, None, "no such file"))
        return 1
    catalog = _catalog(_with_context([path]))
    problems = [p for p in catalog.problems if Path(p.file).resolve() == path.resolve()]
    for problem in problems:
        _print(problem)
    if problems:
        return 1
    card = next((c for c in catalog.cards.values() if Path(c.source).resolve() == path.resolve()), None)
    if card is None:
        _print(Problem(str(path), 1, 1, "not a card file"))
        return 1
    return _show(catalog, card.code)


def _show(catalog: Catalog, code: str) -> int:
    card = catalog.cards.get(code.upper()) or catalog.by_name(code)
    if card is None:
        hint = did_you_mean(code.upper(), list(catalog.cards)) or did_you_mean(
            code, [c.name for c in catalog.cards.values()])
        hint = hint or ("; a card file that is not installed is shown with 'cards --show FILE.yaml', a card of a "
                        "set folder with 'riftscript --set FOLDER cards --show CODE'")
        raise RiftScriptError(f"no installed card {code!r}{hint}")
    for key, value in _facts(card).items():
        if value in ([], ""):
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, list) else value
        _print(f"{key + ':':<11}{shown}")
    _print("Text:")
    lines = render_lines(card, catalog, reminders=True)
    for line in lines or ["(no rules text)"]:
        for part in line.split("\n"):
            _print(f"  {part}")
    _print("--- script")
    yaml = YAML(typ="rt", pure=True)
    yaml.default_flow_style = None
    yaml.indent(mapping=2, sequence=4, offset=2)
    buffer = io.StringIO()
    yaml.dump(card.raw, buffer)
    CONTEXT.stream.write(buffer.getvalue())
    return 0


# --- keywords ----------------------------------------------------------------------------------

def cmd_modes(args: argparse.Namespace) -> int:
    """List installed modes of play: players, teams, Victory Score, games and the rule defining them."""
    catalog = _catalog()
    assert catalog.plugins is not None
    rows = sorted(catalog.plugins.modes().values(), key=lambda m: (m.players, m.best_of, m.name))
    if args.json:
        _print(json.dumps([{"mode": m.name, "players": m.players, "teams": [list(t) for t in m.teams],
                            "victory_score": m.victory_score, "best_of": m.best_of,
                            "battlefields": m.battlefield_choice, "rule": m.rule, "description": m.description}
                           for m in rows], indent=2))
        return 0
    _table([[m.name, str(m.players), " vs ".join("+".join(str(s + 1) for s in t) for t in m.teams) or "-",
             str(m.victory_score), str(m.best_of), m.rule, m.description] for m in rows],
           ["MODE", "PLAYERS", "TEAMS (SEATS)", "VICTORY", "BEST OF", "RULE", "DESCRIPTION"])
    return 0


def cmd_keywords(args: argparse.Namespace) -> int:
    """List installed keywords: what parameter they take and the rule defining them."""
    catalog = _catalog()
    rows = sorted(catalog.keywords.values(), key=lambda k: k.name)
    if args.json:
        _print(json.dumps([{"keyword": k.keyword, "name": k.name, "rule": k.rule, "parameter": k.parameter_kind,
                            "summary": k.summary, "file": k.source} for k in rows], indent=2))
        return 0
    _table([[k.name, k.parameter_kind or "", k.rule, k.summary] for k in rows],
           ["KEYWORD", "PARAMETER", "RULE", "SUMMARY"])
    return 0


# --- schema ------------------------------------------------------------------------------------

def _schema_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", choices=NAMES, help="print the path of this schema file")
    parser.add_argument("--path", action="store_true", help="print the folder holding the installed schemas")
    parser.add_argument("--dump", action="store_true",
                        help="print the schema NAME as JSON, with the effect types of installed plugins added")


def schema_dir() -> Path:
    """The folder of the installed ``*.schema.json`` files (for editor settings)."""
    return Path(str(resources.files("riftscript.schemas")))


def cmd_schema(args: argparse.Namespace) -> int:
    """Where the JSON Schemas for card, keyword, deck and set files are installed."""
    folder = schema_dir()
    if args.dump:
        if not args.name:
            raise RiftScriptError("--dump needs a schema NAME, e.g. 'riftscript schema card --dump'")
        catalog = _catalog()
        schemas = catalog.schemas or Schemas()
        _print(json.dumps(schemas.documents[args.name], indent=1))
        return 0
    if args.path:
        _print(folder)
        return 0
    if args.name:
        _print(folder / f"{args.name}.schema.json")
        return 0
    for name in NAMES:
        _print(f"{name + ':':<9}{folder / f'{name}.schema.json'}")
    return 0


def engine_build() -> str:
    """How the kernel runs here: its modules compiled to C by mypyc (a regular install, setup.py) or
    pure Python (an editable install, or RIFTSCRIPT_COMPILE=0): what a speed report must name."""
    from riftscript.core.engine import decisions

    if decisions.__file__.endswith(".py"):
        return "pure Python"
    # setup.py's note of how it compiled (profile-guided or not); a build from before the note: plain
    note = Path(decisions.__file__).with_name("build.txt")
    return note.read_text().strip() if note.is_file() else "compiled with mypyc"


def cmd_info(args: argparse.Namespace) -> int:
    """Versions, parser, cache and plugin status: what to paste into a bug report."""
    catalog = _catalog()
    _print(f"riftscript {ENGINE_VERSION} (script schema version {SCHEMA_VERSION}), Python {sys.version.split()[0]}")
    _print(f"engine: {engine_build()}")
    _print(f"YAML parser: {'C (ruamel.yaml.clib)' if yamlio.use_c_parser() else 'pure Python'}")
    cache_state = "off" if not (CONTEXT.use_cache and cachemod.enabled()) else str(cachemod.default_dir())
    _print(f"validation cache: {cache_state}")
    _print(f"schemas: {schema_dir()}")
    if catalog.plugins is not None:
        skipped = {s.plugin: s for s in catalog.skipped.values()}
        for plugin in catalog.plugins.loaded:
            state = f"  ({plugin.error})" if plugin.error else ""
            if plugin.name in skipped:
                state += f"  (set {skipped[plugin.name].code.split('@')[0]} skipped: {skipped[plugin.name].reason} " \
                         f"({skipped[plugin.name].file}))"
            _print(f"plugin {plugin.name:<20} {plugin.group:<22} {plugin.module}{state}")
        for entry in catalog.skipped.values():
            if entry.plugin not in {p.name for p in catalog.plugins.loaded}:
                _print(f"set {entry.code.split('@')[0]} of plugin {entry.plugin} skipped: {entry.reason} ({entry.file})")
    return 0


EPILOG_VALIDATE = """\
examples:
  riftscript validate                      check every installed set
  riftscript validate my-set/cards/        check a folder of card files
  riftscript validate my-card.yaml         check one file
exit status: 0 when every file is valid, 1 otherwise."""

# The subcommands, in the order ``riftscript --help`` lists them.  Game commands (demo,
# simulate, play) come from the kernel's tools: add them as entries here, or register a whole
# module's parsers through MODULE_COMMANDS.
COMMANDS: dict[str, Command] = {
    "validate": Command("check card, keyword, deck and set files; print every problem as file:line:col",
                        cmd_validate, _validate_arguments, epilog=EPILOG_VALIDATE),
    "sets": Command("list installed card sets and set folders, and how many cards each has scripted", cmd_sets,
                    _json_argument),
    "cards": Command("search installed cards, or --show one card's facts and script", cmd_cards, _cards_arguments),
    "keywords": Command("list installed keywords", cmd_keywords, _json_argument),
    "modes": Command("list installed modes of play (for 'simulate --mode')", cmd_modes, _json_argument),
    "schema": Command("print where the JSON Schemas are installed (for editor settings)", cmd_schema,
                      _schema_arguments),
    "info": Command("print versions, YAML parser, cache folder and plugin status", cmd_info),
}

# Functions ``add_commands(subparsers)`` that register several subcommands at once (each parser
# calling ``set_defaults(func=...)`` with a function returning the exit status).
MODULE_COMMANDS: list[Callable[[Any], None]] = [play.add_commands, interactive.add_commands, coverage.add_commands,
                                                 audit.add_commands, deckcheck.add_commands, scaffold.add_commands,
                                                 web_command.add_commands, mutate.add_commands, tournament.add_commands,
                                                 replay.add_commands]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="riftscript", description="RiftScript: the Riftbound rules engine and card-scripting framework.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"Run 'riftscript COMMAND --help' for a command's options. Set {cachemod.NO_CACHE_ENV}=1 "
               f"to bypass the validation cache, {DEBUG_ENV}=1 to see tracebacks of internal errors.")
    parser.add_argument("--version", action="version", version=f"riftscript {ENGINE_VERSION}")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the validation cache")
    parser.add_argument("--plugin", action="append", default=[], metavar="MODULE_OR_FILE",
                        help="also load this plugin (a module name or a .py file), e.g. the effects of a set "
                             "that is not installed yet; may be repeated")
    parser.add_argument("--set", dest="set_folders", action="append", default=[], type=_set_folder, metavar="PATH",
                        help=f"also load the set folder PATH (set.yaml, cards/, keywords/, decks/) with every "
                             f"command; may be repeated (or list folders in {folders.SETS_ENV})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in COMMANDS.items():
        child = sub.add_parser(name, help=command.help, description=command.description or command.help,
                               epilog=command.epilog or None, formatter_class=argparse.RawDescriptionHelpFormatter)
        command.arguments(child)
        child.set_defaults(func=command.run)
    for register in MODULE_COMMANDS:
        register(sub)
    return parser


def _set_folder(text: str) -> Path:
    """``--set PATH``: a folder holding set.yaml (or the set.yaml itself); anything else is a usage error."""
    try:
        return folders.set_root(Path(text))
    except folders.SetFolderError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: TextIO | None = None, line: str | None = None) -> None:
    print(f"warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``riftscript`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Run | None = getattr(args, "func", None)
    if func is None:
        parser.print_help(CONTEXT.stream)
        return 0
    CONTEXT.use_cache = not args.no_cache
    warnings.showwarning = _show_warning
    try:
        CONTEXT.plugins = [load_plugin_module(spec) for spec in args.plugin]
        with folders.added(args.set_folders):
            return func(args)
    except RiftScriptError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # output piped into 'head': not an error
        return 0
    except OSError as exc:  # a file that can't be read or written: the user's environment, not a bug
        print(f"error: {exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""), file=sys.stderr)
        return 1
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        print(f"internal error (a bug in RiftScript or a plugin): {type(exc).__name__}: {exc}\n"
              f"run with {DEBUG_ENV}=1 to see the traceback", file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
