"""The public API promised by ``riftscript.core``: every listed name imports, is documented, and the
imports the README and the community example use resolve (issue 13: the API stays while modules move)."""
from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import riftscript.core as api
from riftscript.core import errors

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", ROOT / "schemas" / "README.md",
             *sorted((ROOT / "examples").rglob("*.py")), *sorted((ROOT / "examples").rglob("*.md"))]
IMPORT = re.compile(r"from (riftscript\.core(?:\.\w+)*) import ([\w, ]+)")


def _public_methods(cls: type) -> list[tuple[str, object]]:
    out = []
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, (classmethod, staticmethod)):
            member = member.__func__
        if isinstance(member, property):
            member = member.fget
        if inspect.isfunction(member):
            out.append((name, member))
    return out


def test_every_listed_name_imports() -> None:
    namespace: dict[str, object] = {}
    exec("from riftscript.core import *", namespace)  # noqa: S102 - the star import users write
    assert set(api.__all__) <= set(namespace)
    assert {"Game", "Match", "Builder", "load_catalog", "hookimpl", "EffectType", "SetSpec", "IllegalActionError",
            "NeedDecision", "BuildError"} <= set(api.__all__)
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        api.Nothing  # noqa: B018


@pytest.mark.parametrize("name", api.__all__)
def test_every_listed_callable_is_documented(name: str) -> None:
    value = getattr(api, name)
    if not (inspect.isclass(value) or inspect.isfunction(value)):
        return
    if str(getattr(sys.modules.get(value.__module__), "__file__", "")).endswith(".so"):
        pytest.skip(f"{name} is compiled (setup.py: mypyc keeps no docstrings); its source documents it")
    assert inspect.getdoc(value), f"{name} has no docstring"
    if inspect.isclass(value) and value.__module__.startswith("riftscript"):
        undocumented = [m for m, f in _public_methods(value) if not (f.__doc__ or "").strip()]  # type: ignore[attr-defined]
        assert undocumented == [], f"{name}: public methods without a docstring"


def test_imports_in_documents_resolve() -> None:
    seen = 0
    for path in DOCUMENTS:
        for module, names in IMPORT.findall(path.read_text(encoding="utf-8")):
            target = __import__(module, fromlist=["_"])
            for name in (n.strip() for n in names.split(",")):
                assert hasattr(target, name), f"{path.name}: from {module} import {name}"
                seen += 1
    assert seen >= 5


def test_errors_live_in_one_module() -> None:
    assert api.BuildError is errors.BuildError and issubclass(errors.BuildError, errors.RiftScriptError)
    assert api.NeedDecision is errors.NeedDecision
    assert not issubclass(errors.NeedDecision, errors.RiftScriptError)  # control flow, never escapes apply


def test_a_plugin_import_does_not_load_the_engine() -> None:
    """``from riftscript.core import hookimpl`` (every plugin's first line) stays cheap."""
    code = ("import sys; from riftscript.core import hookimpl, SetSpec; "
            "print('riftscript.core.game' in sys.modules, 'riftscript.core.chain' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_builder_docstring_example_runs() -> None:
    """The example at the top of core/builder.py is real code."""
    from riftscript.core import builder

    catalog = api.load_catalog()
    example = "\n".join(line[4:] for line in builder.__doc__.splitlines() if line.startswith("    "))
    namespace = {"Builder": api.Builder, "catalog": catalog}
    exec(example, namespace)  # noqa: S102
    game, ids = namespace["game"], namespace["ids"]
    assert isinstance(game, api.Game) and game.obj(ids[0]).code == "OGN-030" and not game.over


def test_zone_names_are_translated_in_one_place() -> None:
    """Every zone a scenario may expect is a Zone by its script name, and back (issue 13: one translation)."""
    import json

    schema = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text(encoding="utf-8"))
    names = _zone_enum(schema)
    assert "champion_zone" in names and "banishment" in names
    for name in names:
        assert api.Zone.from_script(name).script_name == name
    assert api.Zone.from_script("champion_zone") == "champion" and api.Zone.BANISHED.script_name == "banishment"
    with pytest.raises(ValueError):
        api.Zone.from_script("graveyard")


def _zone_enum(node: object) -> list[str]:
    """The scenario schema's list of zone names (the enum titled 'zone')."""
    if isinstance(node, dict):
        if node.get("title") == "zone" and "enum" in node:
            return list(node["enum"])
        for value in node.values():
            found = _zone_enum(value)
            if found:
                return found
    elif isinstance(node, list):
        for value in node:
            found = _zone_enum(value)
            if found:
                return found
    return []


def test_the_action_type_names_every_key_the_action_schema_allows() -> None:
    """``Action`` (the TypedDict of legal_actions and apply) and schemas/action.schema.json agree: the
    same action types, every key a type may have typed, ``type`` the only key every action needs."""
    import json
    import typing
    from pathlib import Path

    schema = json.loads((Path(__file__).resolve().parents[1] / "schemas" / "action.schema.json").read_text())
    kinds = schema["properties"]["type"]["enum"]
    assert list(typing.get_args(api.ActionKind)) == kinds
    keys = {key for case in schema["allOf"] for key in case["then"].get("properties", {})}
    assert set(api.Action.__annotations__) == keys
    assert api.Action.__required_keys__ == frozenset({"type"})
    pay = {key for case in schema["allOf"] for key in case["then"].get("properties", {}).get("pay_with", {})
           .get("properties", {})}
    assert set(api.PayWith.__annotations__) == pay
    game = api.Game.new(api.load_catalog(), ["Jinx Champion Deck", "Viktor Champion Deck"], seed=3)
    assert all(set(action) <= keys for action in game.legal_actions())
