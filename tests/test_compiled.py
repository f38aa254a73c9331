"""The engine modules setup.py compiles with mypyc stay compilable and behave as their source does.

Compiling takes minutes, so the suite (an editable, pure-Python install) doesn't compile: these tests
check, in the source, what has broken a compiled build before, and run setup.py's choice of build.
``benchmarks/equivalence.py HEAD HEAD --pure-base`` plays the same games on both builds."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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


def _wanted(setting: str, command: str) -> subprocess.CompletedProcess[str]:
    """setup.py's _wanted() for a setup command, with RIFTSCRIPT_COMPILE set as given (the top of
    setup.py only: running all of it would build)."""
    code = (f"import sys; sys.argv = ['setup.py', {command!r}]; src = open({str(SETUP)!r}).read(); "
            f"ns = {{'__file__': {str(SETUP)!r}}}; exec(src[:src.index(chr(10) + chr(10) + 'def _staged')], ns); "
            "print(ns['_wanted']())")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"RIFTSCRIPT_COMPILE": setting, "PATH": "/usr/bin:/bin"})


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
