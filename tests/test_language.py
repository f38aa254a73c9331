"""No key without an effect: every key the schemas accept has one implementation, in one place.

The script language's handler tables (``core/engine/effects.py``: filters, states, stats, locations,
amounts, conditions, player references, ...) are compared with the JSON Schemas both ways; each
effect primitive must read every field its schema gives it; a primitive declares once whether it
asks a player, and the compiler reads that declaration.
"""
from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.engine.effects import AMOUNTS, CONDITIONS, EffectContext, Table
from riftscript.core.engine.language import language_tables
from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import EffectType
from riftscript.core.script.discovery import load_plugins
from riftscript.core.script.schema import raw_schema
from riftscript.tools import audit
from riftscript.tools.pytest_plugin import catalog as shared_catalog
from riftscript.core.engine.offer import complete

TABLES = language_tables()


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_table_handles_exactly_the_keys_its_schema_accepts(name: str) -> None:
    table = TABLES[name]
    accepted = table.schema_keys()
    assert accepted, f"{name}: its schema pointers {table.schema} reach nothing"
    assert sorted(accepted - set(table.entries)) == [], f"the schema accepts these {name}s, but no handler reads them"
    assert sorted(set(table.entries) - accepted) == [], f"handlers for {name}s the schema does not accept"


def _variants(pointer: str) -> dict[str, set[str]]:
    """The fields of each ``type:`` variant of a discriminated schema definition."""
    out: dict[str, set[str]] = {}
    for branch in raw_schema("effect")["$defs"][pointer]["allOf"]:
        name = branch["if"]["properties"]["type"]["const"]
        out[name] = set(branch["then"]["properties"]) - {"type", "note"}
    return out


@pytest.mark.parametrize("table, definition", [(CONDITIONS, "condition"), (AMOUNTS, "amount_expr")])
def test_conditions_and_amounts_read_the_fields_their_schema_gives_them(table: Table[Any], definition: str) -> None:
    variants = _variants(definition)
    assert sorted(variants) == sorted(table.entries)
    for name, fields in variants.items():
        assert set(table.fields[name]) == fields, f"{table.name} {name!r}"
        # the handler's own code names each field it declares (times/plus: read by EffectContext.amount)
        names = _constants(table.entries[name]) | {"times", "plus"}
        assert set(table.fields[name]) <= names, f"{table.name} {name!r} declares fields its code never reads"


def _constants(fn: Any, seen: set[types.CodeType] | None = None) -> set[str]:
    """String constants of a function, of the functions nested in it, and of the functions of its
    package it calls by name (a condition in core/engine/conditions.py may read its node through a
    helper of the interpreter, core/engine/effects.py): what it can read from a script node."""
    seen = seen if seen is not None else set()
    if not hasattr(fn, "__code__"):
        pytest.skip(f"{fn.__qualname__} is compiled (setup.py): its bytecode can't be read")
    code: types.CodeType = fn.__code__
    if code in seen:
        return set()
    seen.add(code)
    found: set[str] = set()
    stack = [code]
    while stack:
        current = stack.pop()
        for const in current.co_consts:
            if isinstance(const, str):
                found.add(const)
            elif isinstance(const, types.CodeType):
                stack.append(const)
        for name in current.co_names:
            callee = fn.__globals__.get(name)
            if isinstance(callee, types.FunctionType) \
                    and callee.__module__.rpartition(".")[0] == fn.__module__.rpartition(".")[0]:
                found |= _constants(callee, seen)
    for cell in fn.__closure__ or ():
        if isinstance(cell.cell_contents, str):
            found.add(cell.cell_contents)
    return found


def test_every_effect_primitive_reads_every_field_its_schema_gives_it() -> None:
    catalog = shared_catalog()
    unread = {name: sorted(fields - _constants(catalog.effect_types[name].run))
              for name, fields in audit.primitive_fields(catalog).items()}
    assert {name: keys for name, keys in unread.items() if keys} == {}


def test_the_audit_read_keys_come_from_the_tables() -> None:
    read = audit.read_keys()
    for table in TABLES.values():
        if any(pointer.endswith("/properties") for pointer in table.schema):
            assert set(table.entries) <= read, table.name
        for fields in table.fields.values():
            assert set(fields) <= read, table.name


# ---------------------------------------------------------------------- a plugin primitive that asks
def _oracle(decides: bool) -> object:
    """A third-party primitive that asks its controller to choose: draw a card or gain a point."""
    def foretell(ctx: EffectContext, node: dict[str, Any]) -> None:
        pick = ctx.ask(ctx.you, "foretell: draw or score?", [("draw", "draw"), ("score", "score")])
        ctx.run({"type": "draw", "amount": 1} if pick == "draw" else {"type": "gain_points", "amount": 1})

    def riftscript_effect_types(self: Any) -> list[EffectType]:
        return [EffectType("foretell", run=foretell, schema={"properties": {}}, decides=decides)]
    return type("Oracle", (), {"riftscript_effect_types": hookimpl(riftscript_effect_types)})()


def _oracle_catalog(tmp_path: Path, decides: bool) -> Catalog:
    card = tmp_path / "ORC-001.yaml"
    card.write_text("schema_version: 1\ncode: ORC-001\nname: Glimpse\ntype: spell\ncost: {energy: 0}\n"
                    "abilities:\n  - kind: spell\n    effect: {type: foretell}\n", encoding="utf-8")
    catalog = load_catalog(load_plugins(extra=[_oracle(decides)]), extra_cards=[card])
    catalog.raise_for_problems()
    return catalog


def test_a_plugin_primitive_that_asks_a_player_pauses_the_game_for_the_answer(tmp_path: Path) -> None:
    catalog = _oracle_catalog(tmp_path, decides=True)
    assert catalog.cards["ORC-001"].abilities[0].decides  # read from EffectType.decides by the compiler
    b = Builder(catalog)
    (glimpse,) = b.hand(0, ["ORC-001"])
    b.deck(0, ["OGN-001"] * 3)
    game, ids = b.build()
    game.apply(complete(game, {"type": "play", "card": ids[glimpse], "targets": []}))
    game.apply({"type": "pass"})
    game.apply({"type": "pass"})
    decision = game.pending_decision()
    assert decision is not None and decision.player == 0 and decision.prompt == "foretell: draw or score?"
    points = game.player(0).points
    game.apply(complete(game, {"type": "choose", "value": "score"}))
    assert game.player(0).points == points + 1
    assert game.state.objs[ids[glimpse]].zone == "trash"


def test_an_ability_is_guarded_only_when_something_in_it_may_ask(tmp_path: Path) -> None:
    catalog = _oracle_catalog(tmp_path, decides=False)
    assert not catalog.cards["ORC-001"].abilities[0].decides
    assert shared_catalog().cards["OGN-192"].abilities[0].decides  # discard, choose_player: they ask
