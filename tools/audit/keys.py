"""Which script keys the engine reads: the kernel's own keys, the language's handler tables and
the fields each effect primitive's schema gives it; what scripts write that nothing reads, and the
language no installed script uses (untested language)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from riftscript.core.script.catalog import Catalog
from riftscript.core.engine.language import language_keys, language_tables
from riftscript.core.script.schema import raw_schema

# The keys of card and keyword files and of the kernel's own nodes (abilities, costs, static
# modifiers, keyword definitions), each with the module of riftscript.core or riftscript.plugins
# that reads it (tests/test_language.py checks that it does).  Everything else a script may say is
# read through the language's handler tables (core/engine/language.py: language_tables, language_keys) and
# by the effect primitives, each of which reads the fields its schema gives it (read_keys).
KERNEL_KEYS: dict[str, str] = {
    "schema_version": "core/script/catalog", "code": "core/script/catalog", "name": "core/script/catalog", "supertype": "core/script/compiler",
    "domains": "core/script/compiler", "tags": "core/script/compiler", "champion_tag": "core/script/compiler", "might_bonus": "core/script/compiler",
    "keywords": "core/script/compiler", "abilities": "core/script/catalog", "kind": "core/script/catalog",
    "effect_text": "core/engine/layers", "when": "core/engine/triggers", "once_per_turn": "core/engine/triggers",
    "optional": "core/script/compiler", "if": "core/engine/triggers", "only_while": "core/engine/activation", "timing": "core/engine/playing",
    "replaces": "core/engine/replacement", "instead": "core/engine/replacement", "while": "core/engine/layers",
    "modifiers": "core/engine/layers", "hook": "core/engine/layers", "if_absent": "core/engine/layers", "increase": "core/engine/payment",
    "restriction": "core/engine/verbs", "to_units_here": "core/engine/verbs", "enter_ready": "core/engine/verbs",
    "additional_cost": "core/engine/payment", "effect_on_cost": "core/engine/payment", "reduce_energy": "core/engine/payment",
    "reduce_power": "core/engine/payment", "per_unit": "core/engine/payment", "reduce_by_killed_cost": "core/engine/payment",
    "exhaust_self": "core/engine/activation", "kill_self": "core/engine/playing", "recycle_self": "core/engine/playing",
    "spend_buff_self": "core/engine/playing", "spend_buff": "core/engine/playing", "discard": "core/engine/playing", "kill": "core/engine/playing",
    "discard_what": "core/engine/playing",
    "exhaust": "core/engine/playing", "recycle_from_trash": "core/engine/playing", "power_x": "plugins/effects",
    "less_power": "plugins/effects", "label": "plugins/effects", "ability": "core/engine/activation",
    "parameter": "core/script/catalog", "default": "core/script/catalog", "stacking": "core/script/catalog", "status": "core/script/catalog",
    "printed_last": "core/script/catalog",
    "deck_limit": "core/script/catalog", "rule": "core/script/catalog", "summary": "core/script/catalog",
    "banish_self": "core/engine/playing", "recycle": "core/engine/playing", "return_to_hand": "core/engine/playing", "repeat": "core/engine/payment",
    "before_turn": "core/engine/scoring", "energy_x": "plugins/effects", "if_chooses": "core/engine/payment",
    "ignore_energy": "core/engine/payment", "or_power": "core/engine/payment", "power_times": "core/engine/payment",
    "xp": "core/engine/playing", "controlled_by": "core/engine/replacement",
}


def primitive_fields(catalog: Catalog | None = None) -> dict[str, frozenset[str]]:
    """The fields each effect primitive's schema gives it (built-in ones from effect.schema.json,
    plugin ones from their own schema fragment), documentation keys aside."""
    out: dict[str, frozenset[str]] = {}
    for branch in raw_schema("effect")["$defs"]["effect_node"]["allOf"]:
        name = branch["if"]["properties"]["type"]["const"]
        out[name] = frozenset(branch["then"].get("properties", {})) - DOCUMENTATION_KEYS - {"type"}
    if catalog is not None:
        for etype in catalog.effect_types.values():
            if etype.schema is not None:
                out[etype.name] = frozenset(etype.schema.get("properties", {})) - DOCUMENTATION_KEYS - {"type"}
    return out


def read_keys(catalog: Catalog | None = None) -> frozenset[str]:
    """Every script key the engine reads: the kernel's, the handler tables', the primitives'."""
    fields = {key for keys in primitive_fields(catalog).values() for key in keys}
    return frozenset(KERNEL_KEYS) | language_keys() | fields | {"type", "effect"}


# Keys written for people (editors, card text, notes), which no rules code is meant to read.
# (an ability's ``id`` is a name for people; ``mutation`` holds notes for riftscript mutate)
DOCUMENTATION_KEYS = frozenset({"$schema", "note", "rarity", "text", "printings", "id",
                                "mutation", "equivalent", "change", "reason"})


@dataclass
class KeyUse:
    key: str
    count: int
    examples: list[str]


def schema_keys(catalog: Catalog | None = None) -> frozenset[str]:
    """Every property name of the card, effect and keyword schemas (and of plugin effect types)."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                names.update(props)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for name in ("card", "effect", "keyword"):
        walk(raw_schema(name))
    if catalog is not None:
        for etype in catalog.effect_types.values():
            walk(etype.schema)
    return frozenset(names)


def script_keys(catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    """(key, owner, path) for every key written in a card or keyword script.

    The keys of a card's ``keywords:`` uses (``{Assault: 2}``) are keyword names, not fields."""

    def walk(node: Any, owner: str, path: str) -> Iterator[tuple[str, str, str]]:
        if isinstance(node, dict):
            for key, value in node.items():
                yield str(key), owner, f"{path}.{key}" if path else str(key)
                yield from walk(value, owner, f"{path}.{key}" if path else str(key))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, owner, f"{path}[{i}]")

    for code in sorted(catalog.cards):
        raw = catalog.cards[code].raw
        for key, value in raw.items():
            if key == "mutation":
                continue  # notes for the mutation tool, not script
            yield key, code, key
            if key == "keywords" and isinstance(value, list):
                for i, use in enumerate(value):
                    if isinstance(use, dict):
                        for name, param in use.items():
                            yield from walk(param, code, f"keywords[{i}].{name}")
            else:
                yield from walk(value, code, key)
    for kw in sorted(catalog.keywords.values(), key=lambda k: k.keyword):
        parts = {"abilities": list(kw.abilities), "additional_cost": kw.additional_cost, "condition": kw.condition}
        yield from walk({k: v for k, v in parts.items() if v}, f"keyword {kw.name}", "")


def unread_keys(catalog: Catalog, codes: set[str] | None = None) -> tuple[list[KeyUse], list[KeyUse]]:
    """Keys scripts use that the schema accepts but no engine code reads, and documentation keys."""
    known = schema_keys(catalog)
    read = read_keys(catalog)
    unread: dict[str, KeyUse] = {}
    docs: dict[str, KeyUse] = {}
    for key, owner, path in script_keys(catalog):
        if key in read or key not in known:
            continue  # read, or a name used as a key (keyword names in 'keywords:')
        if codes is not None and owner not in codes:
            continue
        table = docs if key in DOCUMENTATION_KEYS else unread
        use = table.setdefault(key, KeyUse(key, 0, []))
        use.count += 1
        if len(use.examples) < 3:
            use.examples.append(f"{owner} {path}")
    return sorted(unread.values(), key=lambda u: u.key), sorted(docs.values(), key=lambda u: u.key)


def unused_language(catalog: Catalog) -> dict[str, list[str]]:
    """The language no installed card or keyword script uses: schema keys, effect types, and the
    values of the handler tables that list values (stats, states, conditions, references, ...).

    Unused language is untested language: no scenario of a card can prove it."""
    keys: set[str] = set()
    values: set[str] = set()
    for key, _, path in script_keys(catalog):
        keys.add(key)
    stack: list[Any] = [catalog.cards[c].raw for c in catalog.cards]
    stack += [{"a": list(kw.abilities), "c": kw.additional_cost, "d": kw.condition} for kw in catalog.keywords.values()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(v for k, v in node.items() if k != "mutation")
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str):
            values.add(node)
    props = raw_schema("keyword")["properties"]
    keyword_file = (set(props) | set(props["parameter"]["properties"])) - {"abilities", "additional_cost", "condition"}
    out: dict[str, list[str]] = {"keys": sorted(schema_keys(catalog) - keys - DOCUMENTATION_KEYS - keyword_file)}
    out["effect types"] = sorted(set(catalog.effect_types) - values)
    for name, table in language_tables().items():
        if not any(pointer.endswith("/properties") for pointer in table.schema):
            out[name + "s"] = sorted(set(table.entries) - values)
    return {name: found for name, found in out.items() if found}
