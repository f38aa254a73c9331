"""The layout of ``core/`` (issue 13): two layers a reader sees in the folder listing, imports that
follow the engine's dependency order, and the old module paths kept as aliases."""
from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _import_graph():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "benchmarks" / "import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_only_import_cycles_are_the_documented_mutual_recursions() -> None:
    """Each group named here says why in its modules' docstrings; any other cycle is a layering bug."""
    graph = _import_graph()
    G = graph.build(ROOT / "core", "riftscript.core")
    groups = graph.runtime_cycles(G)
    assert groups == [["engine.payment", "engine.replacement", "engine.verbs"],
                      ["engine.decisions", "engine.offer"], ["engine.effects", "engine.layers"]]
    for group in groups:
        for module in group:
            doc = (ROOT / "core" / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
            assert "mutually recursive" in doc.split('"""')[1].lower(), module


def test_every_module_of_the_package_can_be_imported_first() -> None:
    """A user's script may start with any module (``import riftscript.core.engine.saves``): a cycle must
    not depend on which of its modules Python meets first (``saves`` used to fail on {decisions, offer})."""
    names = sorted("riftscript." + ".".join(path.relative_to(ROOT).with_suffix("").parts)
                   for room in ("core", "plugins") for path in (ROOT / room).rglob("*.py")
                   if path.name != "__init__.py" and "__pycache__" not in path.parts)
    code = ("import importlib, sys\n"
            "failed = []\n"
            f"for name in {names!r}:\n"
            "    for loaded in [m for m in sys.modules if m.startswith('riftscript')]:\n"
            "        del sys.modules[loaded]\n"
            "    try:\n"
            "        importlib.import_module(name)\n"
            "    except ImportError as error:\n"
            "        failed.append(f'{name}: {error}')\n"
            "print('\\n'.join(failed))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert len(names) > 60 and out.strip() == ""


def test_the_script_side_needs_only_the_language_tables_of_the_engine() -> None:
    graph = _import_graph()
    G = graph.build(ROOT / "core", "riftscript.core")
    crossing = sorted({(a, b) for a, b, kind in graph.edges(G)
                       if kind != "typing" and a.startswith("script.") and b.startswith("engine.")})
    assert crossing == [("script.catalog", "engine.effects"), ("script.compiler", "engine.effects")]


def test_old_module_paths_are_the_modules_at_their_new_paths() -> None:
    from riftscript.core.engine import verbs
    from riftscript.core.script import folders

    assert importlib.import_module("riftscript.core.folders") is folders
    assert importlib.import_module("riftscript.core.actions") is verbs
    from riftscript.core.game import Game  # what older plugins and scripts wrote
    from riftscript.core.hookspecs import hookimpl

    from riftscript.core import Game as PublicGame, hookimpl as public_hookimpl
    assert Game is PublicGame and hookimpl is public_hookimpl


def test_a_plugin_import_loads_nothing_of_the_engine() -> None:
    code = ("import sys; from riftscript.core import hookimpl, SetSpec, EffectType; "
            "print(sorted(m for m in sys.modules if m.startswith('riftscript.core.engine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_no_module_reaches_into_another_modules_private_names() -> None:
    """``g._x`` (a game's private state) or ``layers._x`` (another module's private function) from
    outside their module: every such need has a public name."""
    import ast

    found = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                   and node.level > 0 for alias in node.names}
        owners = modules | {"g", "game", "fresh"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in owners \
                    and node.attr.startswith("_") and not node.attr.startswith("__"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}")
    assert found == []


def test_no_source_file_in_core_or_tools_is_over_1000_lines() -> None:
    """A module that long holds more than one idea: split it along its seams (issue 13)."""
    long = {str(path.relative_to(ROOT)): n for folder in ("core", "tools") for path in (ROOT / folder).rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 1000}
    assert long == {}
