"""The engine modules setup.py compiles with mypyc stay compilable and behave as their source does.

Compiling takes minutes, so the suite (an editable, pure-Python install) doesn't compile: these tests
check, in the source, what has broken a compiled build before, and run setup.py's choice of build.
``benchmarks/equivalence.py HEAD HEAD --pure-base`` plays the same games on both builds."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "setup.py"


def _listed(name: str) -> tuple[str, ...]:
    for node in ast.parse(SETUP.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            value: tuple[str, ...] = ast.literal_eval(node.value)
            return value
    raise AssertionError(f"setup.py lists no {name}")


def _compiled_paths() -> list[Path]:
    return [ROOT / "core" / "engine" / f"{n}.py" for n in _listed("ENGINE_MODULES")] + [
        ROOT / "core" / "script" / f"{n}.py" for n in _listed("SCRIPT_MODULES")] + [
        ROOT / "plugins" / f"{n}.py" for n in _listed("PLUGIN_MODULES")]


def test_every_compiled_module_exists_and_the_hot_ones_are_listed() -> None:
    paths = _compiled_paths()
    assert len(set(paths)) == len(paths)
    assert [p for p in paths if not p.exists()] == []
    assert {"game", "decisions", "loop", "layers", "payment", "playing", "effects", "state"} <= set(
        _listed("ENGINE_MODULES"))


@pytest.mark.parametrize("path", _compiled_paths(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_compiled_module_uses_what_mypyc_refuses(path: Path) -> None:
    """A class inheriting a built-in type, ``__dict__`` (a compiled class has none), ``__new__``
    without ``__init__`` and pluggy's hookimpl mark (set as an attribute of the function) each stopped
    or broke a compiled build."""
    tree = ast.parse(path.read_text())
    builtins = {"list", "dict", "tuple", "set", "frozenset", "str", "int", "AssertionError"}
    problems: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                base_name = base.value if isinstance(base, ast.Subscript) else base
                if isinstance(base_name, ast.Name) and base_name.id in builtins:
                    problems.append(f"{path.name}:{node.lineno}: class {node.name} inherits {base_name.id}")
        if isinstance(node, ast.Attribute) and (node.attr == "__dict__" or node.attr == "__new__" and isinstance(
                node.value, ast.Name) and node.value.id in ("object", "cls")):
            problems.append(f"{path.name}:{node.lineno}: {node.attr}")
        if isinstance(node, ast.Name) and node.id == "hookimpl":
            problems.append(f"{path.name}:{node.lineno}: hookimpl")
    assert problems == []


def _answer(function: str, variable: str, setting: str, command: str = "bdist_wheel") -> subprocess.CompletedProcess[str]:
    """What one of setup.py's choices (``_wanted``, ``_profile_wanted``) answers for a setup command with an
    environment variable set as given, in a process of its own (they read ``sys.argv`` and exit on a wrong value;
    the top of setup.py only: running all of it would build)."""
    code = (f"import sys; sys.argv = ['setup.py', {command!r}]; src = open({str(SETUP)!r}).read(); "
            f"ns = {{'__file__': {str(SETUP)!r}}}; exec(src[:src.index(chr(10) + chr(10) + 'def _staged')], ns); "
            f"print(ns[{function!r}]())")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={variable: setting, "PATH": "/usr/bin:/bin"})


def _wanted(setting: str, command: str) -> subprocess.CompletedProcess[str]:
    """setup.py's _wanted() for a setup command, with RIFTSCRIPT_COMPILE set as given."""
    return _answer("_wanted", "RIFTSCRIPT_COMPILE", setting, command)


@pytest.mark.parametrize("setting, command, expected", [
    ("", "bdist_wheel", "None"), ("", "editable_wheel", "False"), ("0", "bdist_wheel", "False"),
    ("1", "bdist_wheel", "True"), ("0", "editable_wheel", "False")])
def test_setup_compiles_a_regular_install_and_never_an_editable_one(setting: str, command: str,
                                                                     expected: str) -> None:
    done = _wanted(setting, command)
    assert done.stdout.strip() == expected, done.stderr


def test_an_editable_install_asked_to_compile_is_refused_with_the_reason() -> None:
    done = _wanted("1", "editable_wheel")
    assert done.returncode != 0 and "an editable install is never compiled" in done.stderr
    bad = _wanted("yes", "bdist_wheel")
    assert bad.returncode != 0 and "RIFTSCRIPT_COMPILE='yes'" in bad.stderr


@pytest.mark.skipif(not sys.platform.startswith(("linux", "darwin")), reason="setup.py hides symbols on Linux and macOS")
def test_a_compiled_engine_exports_only_its_init_function() -> None:
    """setup.py builds the engine with hidden symbols (LOCAL_CALLS): its functions call each other directly,
    not through the procedure linkage table.  Checked on the library a compiled install loaded: the module's
    init function is found by name, a compiled engine function isn't."""
    import ctypes
    import importlib.util

    from riftscript.core.engine import state

    if not state.COMPILED:
        pytest.skip("this install runs the engine as pure Python (an editable install); nothing is compiled")
    assert _listed("LOCAL_CALLS") == ("-fvisibility=hidden", "-fno-plt")
    spec = importlib.util.find_spec("riftscript_engine__mypyc")
    assert spec is not None and spec.origin is not None
    library = ctypes.CDLL(spec.origin)
    assert hasattr(library, "PyInit_riftscript_engine__mypyc")
    assert not hasattr(library, "CPyDef_game___Game___apply")


def _setup_top() -> dict[str, Any]:
    """The definitions at the top of setup.py (running all of it would build)."""
    src = SETUP.read_text()
    ns: dict[str, Any] = {"__file__": str(SETUP)}
    exec(src[:src.index("\n\ndef _staged")], ns)
    return ns


def _profile_wanted(setting: str) -> subprocess.CompletedProcess[str]:
    """setup.py's _profile_wanted(), with RIFTSCRIPT_PGO set as given."""
    return _answer("_profile_wanted", "RIFTSCRIPT_PGO", setting)


@pytest.mark.parametrize("setting, expected", [("", "None"), ("0", "False"), ("1", "True")])
def test_the_profile_guided_build_is_chosen_by_riftscript_pgo(setting: str, expected: str) -> None:
    done = _profile_wanted(setting)
    assert done.stdout.strip() == expected, done.stderr


def test_a_wrong_riftscript_pgo_is_refused_with_the_values_it_takes() -> None:
    done = _profile_wanted("yes")
    assert done.returncode != 0 and "RIFTSCRIPT_PGO='yes'" in done.stderr and "use 1" in done.stderr


def test_the_training_loads_exactly_the_plugins_the_entry_points_name() -> None:
    """Before the install there are no entry points: setup.py names their modules to the training games, read
    from pyproject.toml, so a plugin added there is trained on too."""
    import importlib.metadata

    modules = _setup_top()["plugin_modules"]()
    installed = {ep.value.split(":")[0] for group in ("riftscript.keywords", "riftscript.effects", "riftscript.sets",
                                                      "riftscript.agents", "riftscript.modes")
                 for ep in importlib.metadata.entry_points(group=group) if ep.dist and ep.dist.name == "riftscript"}
    assert set(modules) == installed and "riftscript.sets.origins" in modules


def test_the_training_games_play_every_mode_with_both_agents(capsys: pytest.CaptureFixture[str]) -> None:
    from riftscript.tools import profile_training

    modules = _setup_top()["plugin_modules"]()
    assert profile_training.main(["--games", "1", *modules]) == 0
    out = capsys.readouterr().out
    # one game per mode and agent: four modes, two agents; each played to its end (a game is well over 50 actions)
    found = re.fullmatch(r"profile training: 8 games, (\d+) actions\n", out)
    assert found is not None and int(found.group(1)) > 8 * 50, out


def test_the_training_refuses_to_train_a_build_that_is_not_compiled(capsys: pytest.CaptureFixture[str]) -> None:
    from riftscript.core.engine import state
    from riftscript.tools import profile_training

    if state.COMPILED:
        pytest.skip("this install runs the compiled engine")
    assert profile_training.main(["--require-compiled", "riftscript.sets.origins"]) == 1
    assert "is not compiled" in capsys.readouterr().err


def test_riftscript_info_names_the_build_setup_py_noted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from riftscript.core.engine import decisions
    from riftscript.tools.cli import engine_build

    if not decisions.__file__.endswith(".py"):
        pytest.skip("this install runs the compiled engine")
    assert engine_build() == "pure Python"
    library = tmp_path / "decisions.cpython-311-x86_64-linux-gnu.so"
    monkeypatch.setattr(decisions, "__file__", str(library))
    assert engine_build() == "compiled with mypyc"  # a build from before the note
    (tmp_path / "build.txt").write_text("compiled with mypyc, profile-guided (GCC)\n")
    assert engine_build() == "compiled with mypyc, profile-guided (GCC)"


class _Builds:
    """Stands in for setuptools' build_ext.run in the tests of the profile-guided build: records each compile's
    flags and fails the compiles it is told to."""

    def __init__(self, failing: set[int]) -> None:
        self.flags: list[list[str]] = []
        self.failing = failing

    def run(self, command: Any) -> None:
        self.flags.append(list(command.extensions[0].extra_compile_args))
        if len(self.flags) in self.failing:
            raise RuntimeError(f"compile {len(self.flags)} refused")


def _profiled_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: set[int], training: str,
                    required: bool = False) -> tuple[_Builds, str]:
    """setup.py's _run_profiled with the compiles and the training games stood in for (a real build takes
    minutes): the flags of each compile, and the note the build leaves."""
    from setuptools import Distribution, Extension

    src = SETUP.read_text()
    ns: dict[str, Any] = {"__file__": str(SETUP)}
    exec(src[:src.index("# setuptools packs whatever build/lib holds")], ns)
    builds = _Builds(failing)
    monkeypatch.setattr(ns["build_ext"], "run", lambda command: builds.run(command))
    ns["_train"] = lambda build_lib: training
    extension = Extension("engine", ["engine.c"], extra_compile_args=["-O3"])
    command = ns["_OptionalBuildExt"](Distribution({"name": "riftscript", "ext_modules": [extension]}))
    command.extensions, command.build_temp, command.build_lib = [extension], str(tmp_path / "temp"), str(tmp_path / "lib")
    command._run_profiled(required)
    return builds, (tmp_path / "lib" / ns["BUILD_NOTE"]).read_text().strip()


def test_a_profile_guided_build_compiles_instrumented_then_with_the_profile(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    builds, note = _profiled_build(tmp_path, monkeypatch, set(), "")
    profile = tmp_path.resolve() / "temp" / "profile"
    assert builds.flags == [["-O3", f"-fprofile-generate={profile}"],
                            ["-O3", f"-fprofile-use={profile}", "-fprofile-partial-training", "-Wno-missing-profile",
                             "-Wno-error=coverage-mismatch"]]
    assert note == "compiled with mypyc, profile-guided (GCC)"


@pytest.mark.parametrize("failing, training", [(set(), "no game could be made"), ({2}, ""), ({1}, "")],
                         ids=["training fails", "guided compile fails", "instrumented compile fails"])
def test_a_profile_guided_build_that_fails_leaves_a_plain_build_with_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: set[int], training: str) -> None:
    with pytest.warns(UserWarning, match="compiled without a profile"):
        builds, note = _profiled_build(tmp_path, monkeypatch, failing, training)
    assert builds.flags[-1] == ["-O3"]  # the last compile: plain, no instrumentation left in the engine
    assert note == "compiled with mypyc"


def test_riftscript_pgo_1_makes_a_failed_profile_guided_build_an_error(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RuntimeError, match="RIFTSCRIPT_PGO=1: the profile-guided build failed: no game"):
        _profiled_build(tmp_path, monkeypatch, set(), "no game could be made", required=True)
