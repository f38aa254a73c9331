"""The engine's hot paths compiled to C with mypyc (part of mypy), when that is asked for or natural.

Everything else about the package is in ``pyproject.toml``; this file only adds the compiled modules.
The rules kernel is plain typed Python, ``mypy --strict`` clean, and mypyc turns its modules into C
extensions that play the same games about twice as fast (``benchmarks/compare.py`` measures it;
``benchmarks/equivalence.py`` proves the games identical).  The pure-Python modules are always
installed as well, and a compiled module takes precedence over its source when both are present.

A regular install (``pip install .``, a wheel) compiles; an editable one (``pip install -e .``) never
does, because a compiled module would hide every later edit of its source until the next install.
``RIFTSCRIPT_COMPILE=0`` installs pure Python; ``1`` makes a failure to compile an error, where
otherwise a build that can't compile (no C compiler) falls back to pure Python with a warning.

mypyc names a module after its path, and the source folders (``core/``, ``plugins/``) are mapped to
``riftscript.*`` by ``package-dir``: so the compiled modules are built from a copy laid out as the
installed package (``build/mypyc-src/riftscript/...``).
"""
from __future__ import annotations

import os
import shutil
import sys
import warnings
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# source folder -> package, as package-dir in pyproject.toml maps them
FOLDERS = {"core": "core", "plugins": "plugins", "sets": "sets", "tools": "tools"}
# The modules compiled: the event-and-trigger kernel and what a game runs through on every action.
# Game (game.py) is compiled too: the kernel calls its methods on every step, and left in Python it
# costs a third of the gain; compiled, it takes no attributes but its own and mypyc keeps no
# docstrings (help() shows signatures; the source documents them).  Left out: modules mypyc can't
# compile (a class inheriting a built-in type: invariants.InvariantError; Match's construction through
# __new__; a loop over an Any-typed sequence in setup); those that run once a game or less (saves,
# builder, observe's JSON shapes, the agents' registry).
ENGINE_MODULES = (
    "activation", "caches", "chain", "cleanup", "combat", "concession", "conditions", "decisions",
    "effects", "events", "game", "hide", "jsonshape", "layers", "loop", "loop_draw", "movement", "offer",
    "payment", "playing", "points", "replacement", "rng", "scoring", "selectors", "state", "targeting",
    "trigger_index", "triggers", "turn", "verbs")
# the card definitions, whose fields the kernel reads on every step (compiled, a field is a read of the
# record; in Python, a lookup through the class); the target-slot tuple lives apart (core/script/slots.py)
SCRIPT_MODULES = ("cards",)
# and the agents that play without searching (the greedy agent's scoring is a third of a greedy game), and
# the built-in effect primitives, which every resolution runs (their hooks are in plugins/agents.py and
# plugins/effect_types.py: a compiled function can't carry pluggy's hookimpl mark)
PLUGIN_MODULES = ("policies", "effects")
# The engine's compiled functions call each other (and mypyc's runtime helpers, built into the same C
# file) millions of times a game.  Left visible outside the extension, every such call may be interposed by
# another library, so the C compiler routes it through the procedure linkage table and never inlines it;
# hidden, the calls are direct and small callees are inlined (measured: 4% fewer instructions a game,
# ``benchmarks/compare.py --instructions``).  Only the module's init function is used from outside (the
# per-module shims reach the rest through capsules), and Python's headers keep it visible.  ``-fno-plt``
# calls into libpython through the global offset table directly.  GCC and Clang take both.
LOCAL_CALLS = ("-fvisibility=hidden", "-fno-plt")
COMPILED = ([f"core/engine/{name}.py" for name in ENGINE_MODULES] + [f"core/script/{name}.py" for name in SCRIPT_MODULES]
            + [f"plugins/{name}.py" for name in PLUGIN_MODULES])


def _wanted() -> bool | None:
    """True: compile or fail; False: don't; None: compile if a C compiler works (see the docstring)."""
    asked = os.environ.get("RIFTSCRIPT_COMPILE", "").strip()
    if asked not in ("", "0", "1"):
        sys.exit(f"RIFTSCRIPT_COMPILE={asked!r}: use 1 (compile the engine with mypyc) or 0 (pure Python)")
    if "editable_wheel" in sys.argv:
        if asked == "1":
            sys.exit("RIFTSCRIPT_COMPILE=1: an editable install is never compiled (a compiled module would hide "
                     "the edits of its source); install with 'pip install .' to compile")
        return False
    return None if not asked else asked == "1"


def _staged() -> list[str]:
    """Copy the sources into build/mypyc-src/riftscript/ and return the compiled modules' paths there."""
    stage = ROOT / "build" / "mypyc-src"
    if stage.exists():
        shutil.rmtree(stage)
    package = stage / "riftscript"
    for folder, name in FOLDERS.items():
        shutil.copytree(ROOT / folder, package / name, ignore=shutil.ignore_patterns(
            "__pycache__", "*.so", "*.yaml", "*.json", "*.html", "static", "tests"))
    (package / "__init__.py").write_text("")
    return [str((package / path).relative_to(ROOT)) for path in COMPILED]


class _OptionalBuildExt(build_ext):
    """build_ext that leaves the engine in pure Python when compiling wasn't asked for and fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a missing or failing C compiler, whatever distutils raises
            if _wanted():
                raise
            warnings.warn(f"RiftScript's engine stays pure Python (compiling it failed: {error})")
            self.extensions = []


def _extensions() -> list[object]:
    wanted = _wanted()
    if wanted is False:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if wanted:
            raise
        warnings.warn("RiftScript's engine stays pure Python (mypyc is not installed)")
        return []
    paths = _staged()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        extensions = list(mypycify(["--ignore-missing-imports", "--follow-imports=silent", *paths],
                                   opt_level="3", group_name="riftscript_engine"))
    except (Exception, SystemExit) as error:  # mypyc exits on a type error it can't compile
        if wanted:
            raise
        warnings.warn(f"RiftScript's engine stays pure Python (mypyc refused it: {error!r})")
        return []
    finally:
        os.chdir(cwd)
    if sys.platform.startswith(("linux", "darwin")):  # GCC or Clang, making ELF or Mach-O libraries
        for extension in extensions:
            extension.extra_compile_args = [*extension.extra_compile_args, *LOCAL_CALLS]
    return extensions


# setuptools packs whatever build/lib holds: a module compiled by an earlier build (or one no longer
# compiled) would ship with this one, so every build starts from an empty build folder
shutil.rmtree(ROOT / "build", ignore_errors=True)
setup(ext_modules=_extensions(), cmdclass={"build_ext": _OptionalBuildExt})
