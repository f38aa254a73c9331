"""Every kind of static modifier the schema allows is read by the engine where a script may put it: the
placement tables of ``core/script/integrity.py`` classify each kind, and a kind a created effect or a static
affecting other objects can't carry is refused there (``tests/bad_cards/modifier_placement.yaml``), so no card
silently does nothing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from riftscript.core.script import integrity

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def _schema_kinds() -> set[str]:
    modifier = json.loads((SCHEMAS / "card.schema.json").read_text())["$defs"]["modifier"]
    return set(modifier["properties"]["type"]["enum"])


def test_every_modifier_kind_is_placed_once() -> None:
    kinds = _schema_kinds()
    lasting, static_only = integrity.LASTING_MODIFIERS, integrity.STATIC_ONLY_MODIFIERS
    assert not lasting & static_only
    assert lasting | static_only == kinds, "classify every modifier kind in core/script/integrity.py"
    assert integrity.OWN_ONLY_MODIFIERS <= static_only


def test_a_static_affecting_itself_may_carry_an_own_only_kind() -> None:
    raw = {"abilities": [{"kind": "static", "modifiers": [{"type": "enter_exhausted"}]},
                         {"kind": "static", "affects": "self", "modifiers": [{"type": "buff_limit", "amount": 2}]}]}
    assert integrity.modifier_problems(raw) == []


def test_a_created_effect_nested_in_a_sequence_is_checked() -> None:
    raw = {"abilities": [{"kind": "spell", "effect": {"type": "sequence", "steps": [
        {"type": "draw", "amount": 1},
        {"type": "create_effect", "duration": "this_turn",
         "static": {"modifiers": [{"type": "extra_trigger", "event": "conquer"}]}}]}}]}
    problems = integrity.modifier_problems(raw)
    assert [(path, message.split(":")[0]) for path, message in problems] == [
        (["abilities", 0, "effect", "steps", 1, "static", "modifiers", 0, "type"],
         "a created effect can't carry the modifier 'extra_trigger'")]


ENGINE = Path(__file__).resolve().parent.parent


def test_every_kernel_hook_is_read_by_the_engine_and_documented() -> None:
    from riftscript.core.script.integrity import KERNEL_HOOKS

    sources = "".join(p.read_text() for folder in ("core/engine", "plugins") for p in (ENGINE / folder).glob("*.py")
                      if p.name != "layers.py") + (ENGINE / "core/engine/layers.py").read_text().split("def hook_values")[1]
    unread = sorted(h for h in KERNEL_HOOKS if f'"{h}"' not in sources)
    assert unread == [], "kernel hooks nothing reads"
    readme = (ENGINE / "schemas/README.md").read_text().split("### Kernel hooks")[1].split("\n## ")[0]
    documented = {line.split("`")[1] for line in readme.splitlines() if line.startswith("| `")}
    assert documented == set(KERNEL_HOOKS)


def test_a_hook_no_one_reads_is_refused_with_a_hint() -> None:
    raw = {"abilities": [{"kind": "static", "modifiers": [{"type": "hook", "hook": "any_damage_letal", "value": True}]}]}
    assert integrity.modifier_problems(raw) == [(
        ["abilities", 0, "modifiers", 0, "hook"],
        "unknown hook 'any_damage_letal'; did you mean 'any_damage_lethal'? (the kernel hooks are listed in "
        "schemas/README.md; a plugin's own are its language words of kind 'hook')")]
    assert integrity.modifier_problems(raw, frozenset({"any_damage_letal"})) == []


@pytest.mark.parametrize(("hook", "value", "message"), [
    ("timing", "actoin", "the hook 'timing' takes action or reaction, not 'actoin'"),
    ("hide", "yes", "the hook 'hide' takes true, not 'yes'"),
    ("move_tax", -1, "the hook 'move_tax' takes a number, not -1"),
    ("move_tax", True, "the hook 'move_tax' takes a number, not True"),
    ("tag", 3, "the hook 'tag' takes a name, not 3"),
])
def test_a_kernel_hook_value_the_kernel_never_compares_with_is_refused(hook: str, value: object, message: str) -> None:
    raw = {"abilities": [{"kind": "static", "modifiers": [{"type": "hook", "hook": hook, "value": value}]}]}
    assert integrity.modifier_problems(raw) == [(["abilities", 0, "modifiers", 0, "value"], message)]


def test_the_values_the_built_in_scripts_use_are_accepted() -> None:
    raw = {"abilities": [{"kind": "static", "modifiers": [
        {"type": "hook", "hook": "targeting_tax", "value": {"type": "variable", "name": "keyword_value"}},
        {"type": "hook", "hook": "cant_be_countered", "value": "controller"},
        {"type": "hook", "hook": "cant_be_countered", "value": True},
        {"type": "hook", "hook": "event_alias", "value": "conquer hold"}]}]}
    assert integrity.modifier_problems(raw) == []
