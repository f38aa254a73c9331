"""The JSON Schemas of ``schemas/``, held in one local ``referencing`` registry.

No ``$ref`` is ever fetched from the network: every schema is a resource of the registry.
Effect primitives contributed by plugins extend the effect schema at run time with their own
parameter schemas, so their scripts are checked as precisely as the built-in ones.
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE = "https://riftscript.dev/schemas/"
NAMES = ("effect", "card", "keyword", "deck", "set")


@lru_cache(maxsize=None)
def raw_schema(name: str) -> dict[str, Any]:
    """The schema as shipped in ``schemas/NAME.schema.json``."""
    text = resources.files("riftscript.schemas").joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def builtin_effect_names() -> list[str]:
    return list(raw_schema("effect")["$defs"]["effect_node"]["properties"]["type"]["enum"])


def extend_effect_schema(extra: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Add plugin primitives (name, parameter schema) to the effect language."""
    schema = copy.deepcopy(raw_schema("effect"))
    node = schema["$defs"]["effect_node"]
    for name, params in extra:
        properties = {"type": {"const": name}, "note": {"type": "string", "maxLength": 300}}
        properties.update(params.get("properties", {}))
        node["properties"]["type"]["enum"].append(name)
        node["allOf"].append({
            "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
            "then": {"properties": properties, "required": ["type", *params.get("required", [])],
                     "additionalProperties": False},
        })
    node["properties"]["type"]["enum"].sort()
    return schema


class Schemas:
    """Validators for every document kind, built once and reused (validation is a hot path)."""

    def __init__(self, plugin_effects: Iterable[tuple[str, dict[str, Any]]] = ()) -> None:
        docs = {name: raw_schema(name) for name in NAMES}
        docs["effect"] = extend_effect_schema(plugin_effects)
        registry: Registry[Any] = Registry().with_resources(
            (BASE + f"{name}.schema.json", Resource(contents=doc, specification=DRAFT202012))
            for name, doc in docs.items()
        )
        self.documents = docs
        self.validators = {name: Draft202012Validator(doc, registry=registry) for name, doc in docs.items()}

    def effect_names(self) -> list[str]:
        return list(self.documents["effect"]["$defs"]["effect_node"]["properties"]["type"]["enum"])

    def check(self, kind: str, data: Any) -> list[tuple[list[str | int], str, str | None]]:
        """All errors as (path, message, offending key) sorted by path; empty when valid."""
        out: list[tuple[list[str | int], str, str | None]] = []
        for error in self.validators[kind].iter_errors(data):
            for leaf in _leaves(error):
                path = list(leaf.absolute_path)
                key = None
                message = leaf.message
                if leaf.validator == "additionalProperties" and isinstance(leaf.instance, dict):
                    allowed = set(leaf.schema.get("properties", {}))
                    extra = sorted(k for k in leaf.instance if k not in allowed)
                    if extra:
                        key = extra[0]
                        from .suggest import did_you_mean
                        hint = did_you_mean(key, allowed)
                        message = f"unknown key {key!r}{hint}"
                elif leaf.validator == "enum":
                    from .suggest import did_you_mean
                    options = [str(v) for v in leaf.validator_value]
                    hint = did_you_mean(str(leaf.instance), options)
                    if len(options) > 12:
                        message = f"{leaf.instance!r} is not a known value{hint}"
                    else:
                        message = f"{leaf.instance!r} is not one of {', '.join(options)}{hint}"
                out.append((path, message, key))
        unique = {(tuple(map(str, p)), m): (p, m, k) for p, m, k in out}
        return sorted(unique.values(), key=lambda item: [str(x) for x in item[0]])


def _leaves(error: Any) -> list[Any]:
    """Errors under if/then and anyOf are nested; report the most specific ones."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        deepest = max(len(e.absolute_path) for e in error.context)
        best = [e for e in error.context if len(e.absolute_path) == deepest]
        if deepest > len(error.absolute_path):
            return [leaf for e in best for leaf in _leaves(e)]
        return [error]
    return [error]
