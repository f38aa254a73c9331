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

With GCC the compile is guided by a profile (``PROFILE_USE``): the engine is compiled instrumented, plays the
training games of ``tools/profile_training.py`` from the build folder, and is compiled again with what they
counted.  ``RIFTSCRIPT_PGO=0`` compiles once; ``1`` makes a failure of any of those steps an error, where
otherwise it leaves a plain compiled build with a warning.  ``riftscript info`` reads the note the build leaves (``BUILD_NOTE``).

mypyc names a module after its path, and the source folders (``core/``, ``plugins/``) are mapped to
``riftscript.*`` by ``package-dir``: so the compiled modules are built from a copy laid out as the
installed package (``build/mypyc-src/riftscript/...``).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
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


# Profile-guided optimization (GCC): the engine is compiled once instrumented, plays the training games of
# tools/profile_training.py (not the benchmark's), and is compiled again with the branch and call counts
# they left, so GCC lays out and inlines for the paths games take.  Measured (benchmarks/compare.py): about
# 1.15-1.2 times the actions per second of the same engine compiled without them, for twice the compile
# time.  ``-fprofile-partial-training`` keeps the code the games never ran optimized as usual, not for size.
PGO_ENV = "RIFTSCRIPT_PGO"
PROFILE_GENERATE = "-fprofile-generate={}"
# mypyc compiles with -Werror: a function whose profile doesn't match (none should: both compiles take the same
# flags but these) is then compiled without one instead of failing the build
PROFILE_USE = ("-fprofile-use={}", "-fprofile-partial-training", "-Wno-missing-profile", "-Wno-error=coverage-mismatch")
# what setup.py leaves in the compiled package to say how it was built (riftscript info reads it)
BUILD_NOTE = "riftscript/core/engine/build.txt"


def _profile_wanted() -> bool | None:
    """True: a profile-guided build or fail; False: a plain one; None: profile-guided with GCC, else plain."""
    asked = os.environ.get(PGO_ENV, "").strip()
    if asked not in ("", "0", "1"):
        sys.exit(f"{PGO_ENV}={asked!r}: use 1 (a profile-guided build, GCC) or 0 (compile once, without a profile)")
    return None if not asked else asked == "1"


def _is_gcc() -> bool:
    """Whether the C compiler distutils will call is GCC (Clang answers to ``gcc`` on macOS, and takes other
    profile flags)."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    try:
        version = subprocess.run([compiler[0], "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in version and "clang" not in version.lower()


def plugin_modules() -> list[str]:
    """The modules pyproject.toml's entry points name: the built-in plugins the training games load
    (before the install there are no entry points to find them by)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return sorted({value.split(":")[0] for group, points in project["entry-points"].items()
                   if group.startswith("riftscript.") for value in points.values()})


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
    """build_ext that leaves the engine in pure Python when compiling wasn't asked for and fails, and
    compiles it guided by a profile of training games where it can (see PROFILE_USE)."""

    def run(self) -> None:
        try:
            profiled = _profile_wanted()
            if self.extensions and not self.inplace and profiled is not False and (profiled or _is_gcc()):
                self._run_profiled(bool(profiled))
            else:
                super().run()
        except Exception as error:  # a missing or failing C compiler, whatever distutils raises
            if _wanted():
                raise
            warnings.warn(f"RiftScript's engine stays pure Python (compiling it failed: {error})")
            self.extensions = []

    def _run_profiled(self, required: bool) -> None:
        """Compile instrumented, play the training games on that build, compile again with their profile.
        A step that fails (the instrumented compile, the training, the guided compile) leaves a plain build
        with a warning; with RIFTSCRIPT_PGO=1 it is an error."""
        profile = Path(self.build_temp).resolve() / "profile"
        shutil.rmtree(profile, ignore_errors=True)
        compiler = self.compiler  # run() replaces the compiler's name with the compiler it made
        flags = [(ext, list(ext.extra_compile_args), list(ext.extra_link_args)) for ext in self.extensions]

        def build(compile_extra: list[str], link_extra: list[str]) -> None:
            for ext, compile_args, link_args in flags:
                ext.extra_compile_args, ext.extra_link_args = [*compile_args, *compile_extra], [*link_args, *link_extra]
            self.compiler, self.force = compiler, True  # every object again, with these flags
            super(_OptionalBuildExt, self).run()

        generate = [PROFILE_GENERATE.format(profile)]
        try:
            build(generate, generate)
            failure = _train(Path(self.build_lib).resolve())
            if not failure:
                build([flag.format(profile) for flag in PROFILE_USE], [])
        except Exception as error:  # whatever distutils raises for a compile GCC refused
            failure = f"{type(error).__name__}: {error}"
        if failure and required:
            raise RuntimeError(f"{PGO_ENV}=1: the profile-guided build failed: {failure}")
        if failure:
            warnings.warn(f"RiftScript's engine is compiled without a profile (the profile-guided build failed: "
                          f"{failure})")
            build([], [])
        note = Path(self.build_lib) / BUILD_NOTE
        note.parent.mkdir(parents=True, exist_ok=True)
        note.write_text("compiled with mypyc, profile-guided (GCC)\n" if not failure else "compiled with mypyc\n")


def _train(build_lib: Path) -> str:
    """Play tools/profile_training.py's games on the instrumented build in ``build_lib``; what went wrong, or
    "" (its profile is then written, when the process exits).  The games are the same whatever the hash seed,
    but the branches taken in reading sets of strings are not: a fixed seed keeps the profile, and so the
    build, from varying with it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(build_lib), os.environ.get("PYTHONPATH")])),
           "PYTHONHASHSEED": "0"}
    try:
        done = subprocess.run([sys.executable, "-m", "riftscript.tools.profile_training", "--require-compiled",
                               *plugin_modules()],
                              cwd=build_lib, env=env, capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return lines[-1] if lines else f"exit status {done.returncode}"
    print(done.stdout.strip())
    return ""


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
