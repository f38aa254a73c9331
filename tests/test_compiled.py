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


def _engine_modules() -> tuple[str, ...]:
    for node in ast.parse(SETUP.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "ENGINE_MODULES"
                                                for t in node.targets):
            value: tuple[str, ...] = ast.literal_eval(node.value)
            return value
    raise AssertionError("setup.py lists no ENGINE_MODULES")


def test_every_compiled_module_exists_and_the_hot_ones_are_listed() -> None:
    names = _engine_modules()
    assert len(set(names)) == len(names)
    assert [n for n in names if not (ROOT / "core" / "engine" / f"{n}.py").exists()] == []
    assert {"game", "decisions", "loop", "layers", "payment", "playing", "effects", "state"} <= set(names)


@pytest.mark.parametrize("name", _engine_modules())
def test_no_compiled_module_uses_what_mypyc_refuses(name: str) -> None:
    """A class inheriting a built-in type, ``__dict__`` (a compiled class has none) and ``__new__``
    without ``__init__`` each stopped or broke a compiled build."""
    path = ROOT / "core" / "engine" / f"{name}.py"
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
