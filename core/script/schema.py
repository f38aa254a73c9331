"""The JSON Schemas of ``schemas/``, held in one local ``referencing`` registry.

No ``$ref`` is ever fetched from the network: every schema is a resource of the registry.
Effect primitives contributed by plugins extend the effect schema at run time with their own
parameter schemas, so their scripts are checked as precisely as the built-in ones.
"""
from __future__ import annotations

import copy
import json
import re
import reprlib
from functools import cached_property
from functools import lru_cache
from importlib import resources
from dataclasses import dataclass
from typing import Any, Iterable

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from .schema_fastpath import Check, compile_check
from .suggest import did_you_mean

# Schemas name each other by file name ("effect.schema.json#/$defs/..."), relative to the file, so an
# editor following a $ref from a local schema reads the file beside it and never the network; the
# registry holds every schema under its file name.
BASE = ""
NAMES = ("effect", "card", "keyword", "deck", "set", "scenario")
MAX_ERRORS = 100
JSON_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "object": dict,
              "array": list, "null": type(None)}


@dataclass(frozen=True)
class SchemaProblem:
    """One schema violation: where (JSON path), what, and the offending key for unknown keys."""

    path: tuple[str | int, ...]
    message: str
    key: str | None = None
    validator: str = ""


@lru_cache(maxsize=None)
def raw_schema(name: str) -> dict[str, Any]:
    """The schema as shipped in ``schemas/NAME.schema.json``."""
    text = resources.files("riftscript.schemas").joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def builtin_effect_names() -> list[str]:
    return list(raw_schema("effect")["$defs"]["effect_node"]["properties"]["type"]["enum"])


def extend_effect_schema(extra: Iterable[tuple[str, dict[str, Any]]],
                         words: Iterable[tuple[str, str, dict[str, Any] | None]] = ()) -> dict[str, Any]:
    """Add plugin primitives (name, parameter schema) and plugin words of the language (kind, name,
    schema: filter keys, states, amounts, trigger events) to the effect language."""
    schema = copy.deepcopy(raw_schema("effect"))
    defs = schema["$defs"]
    for kind, name, params in words:
        if kind == "filter":
            defs["filter"]["properties"][name] = params or {"type": "boolean"}
        elif kind == "state":
            for branch in defs["condition"]["allOf"]:
                states = branch["then"]["properties"].get("state")
                if states is not None:
                    states["enum"].append(name)
        elif kind == "amount":
            defs["amount_expr"]["properties"]["type"]["enum"].append(name)
            properties: dict[str, Any] = {"type": {"const": name}, "times": {"type": "integer"},
                                          "plus": {"type": "integer"}}
            properties.update((params or {}).get("properties", {}))
            defs["amount_expr"]["allOf"].append({
                "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                "then": {"properties": properties, "required": ["type", *(params or {}).get("required", [])],
                         "additionalProperties": False}})
        elif kind == "event":
            defs["event_name"]["enum"].append(name)
    node = defs["effect_node"]
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


SWITCH = "x-riftscript-switch"
OBJECT_ONLY = {"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
               "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "description",
               "title", "$comment"}


def _discriminated(item: Any) -> tuple[str, str, Any] | None:
    """(field, value, then) for ``{if: {properties: {F: {const: V}}, required: [F]}, then: S}``."""
    if not isinstance(item, dict) or set(item) != {"if", "then"}:
        return None
    cond = item["if"]
    if not isinstance(cond, dict) or set(cond) != {"properties", "required"}:
        return None
    props = cond["properties"]
    if not isinstance(props, dict) or len(props) != 1:
        return None
    ((name, test),) = props.items()
    if cond["required"] != [name] or not isinstance(test, dict) or set(test) != {"const"} \
            or not isinstance(test["const"], str):
        return None
    return name, test["const"], item["then"]


def with_switches(node: Any) -> Any:
    """A copy of a schema whose ``allOf`` lists of if/then variants keyed on one field (the
    effect, condition, modifier and ability ``type``/``kind``) become a single dictionary lookup.

    Same verdicts and error paths as the if/then chain, whose every ``if`` jsonschema would
    otherwise evaluate for every node: that made validation ten times slower.  The shipped
    schema files keep the standard form that editors understand.
    """
    if isinstance(node, list):
        return [with_switches(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: with_switches(v) for k, v in node.items()}
    items = out.get("allOf")
    if isinstance(items, list):
        field: str | None = None
        cases: dict[str, Any] = {}
        rest: list[Any] = []
        for item in items:
            found = _discriminated(item)
            if found is None or (field is not None and found[0] != field) or found[1] in cases:
                rest.append(item)
                continue
            field, cases[found[1]] = found[0], found[2]
        if len(cases) >= 2:
            loose = [value for value, then in cases.items()
                     if not (isinstance(then, dict) and set(then) <= OBJECT_ONLY)]
            out[SWITCH] = {"field": field, "cases": cases, "loose": loose}
            if rest:
                out["allOf"] = rest
            else:
                del out["allOf"]
    return out


def _switch(validator: Validator, spec: Any, instance: Any, schema: Any) -> Any:
    """Apply the variant named by the instance's discriminator field (see with_switches)."""
    cases = spec["cases"]
    if not isinstance(instance, dict):
        for value in spec["loose"]:  # an if/then chain applies every 'then' to a non-object
            yield from validator.descend(instance, cases[value], schema_path=value)  # type: ignore[attr-defined]
        return
    value = instance.get(spec["field"])
    if isinstance(value, str) and value in cases:
        yield from validator.descend(instance, cases[value], schema_path=value)  # type: ignore[attr-defined]


REF = "x-riftscript-ref"


def link_refs(docs: dict[str, Any]) -> None:
    """Replace every ``$ref`` in these (already copied) schemas by a direct link to its target.

    The target is the very same dictionary, so validation follows a pointer instead of asking
    the ``referencing`` registry to parse a URI and walk a JSON pointer at every step (a third
    of validation time).  The linked schemas contain cycles and are used only for validation.
    """
    by_uri = {BASE + f"{name}.schema.json": doc for name, doc in docs.items()}
    for name, doc in docs.items():
        base = BASE + f"{name}.schema.json"
        holders: list[dict[str, Any]] = []
        stack: list[Any] = [doc]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if isinstance(node.get("$ref"), str):
                    holders.append(node)
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        for node in holders:
            uri, _, pointer = node["$ref"].partition("#")
            target: Any = by_uri[uri or base]
            for part in pointer.split("/")[1:]:
                part = part.replace("~1", "/").replace("~0", "~")
                target = target[int(part)] if isinstance(target, list) else target[part]
            node[REF] = target
            del node["$ref"]


def _ref(validator: Validator, target: Any, instance: Any, schema: Any) -> Any:
    yield from validator.descend(instance, target)  # type: ignore[attr-defined]


FastValidator = extend(Draft202012Validator, {SWITCH: _switch, REF: _ref})  # type: ignore[no-untyped-call]


class Schemas:
    """Validators for every document kind, built once and reused (validation is a hot path)."""

    def __init__(self, plugin_effects: Iterable[tuple[str, dict[str, Any]]] = (),
                 words: Iterable[tuple[str, str, dict[str, Any] | None]] = ()) -> None:
        docs = {name: raw_schema(name) for name in NAMES}
        docs["effect"] = extend_effect_schema(plugin_effects, words)
        self.documents = docs

    # Built on first use: a warm load served from the validation cache validates nothing.
    @cached_property
    def _fast_documents(self) -> dict[str, Any]:
        fast = {name: with_switches(doc) for name, doc in self.documents.items()}
        link_refs(fast)
        return fast

    @cached_property
    def validators(self) -> dict[str, Any]:
        """jsonschema validators (if/then chains switched, $refs linked): every error message."""
        fast = self._fast_documents
        registry: Registry[Any] = Registry().with_resources(
            (BASE + f"{name}.schema.json", DRAFT202012.create_resource(doc)) for name, doc in fast.items())
        return {name: FastValidator(doc, registry=registry) for name, doc in fast.items()}

    @cached_property
    def gates(self) -> dict[str, Check | None]:
        """Compiled yes/no checks (core/script/schema_fastpath.py): most documents need nothing more."""
        return {name: compile_check(doc) for name, doc in self._fast_documents.items()}

    @cached_property
    def reference(self) -> dict[str, Draft202012Validator]:
        """Plain Draft 2020-12 validators of the unmodified schemas, to compare verdicts in tests."""
        registry: Registry[Any] = Registry().with_resources(
            (BASE + f"{name}.schema.json", DRAFT202012.create_resource(doc)) for name, doc in self.documents.items())
        return {name: Draft202012Validator(doc, registry=registry) for name, doc in self.documents.items()}

    @cached_property
    def _fragments(self) -> dict[str, Any]:
        return {}

    def fragment_problems(self, ref: str, data: Any) -> list[str]:
        """The problems of ``data`` against one definition of a schema (``card.schema.json#/$defs/static_body``),
        each as ``path: message`` (a saved game's lasting effect is a card script's part)."""
        validator = self._fragments.get(ref)
        if validator is None:
            registry: Registry[Any] = Registry().with_resources(
                (BASE + f"{name}.schema.json", DRAFT202012.create_resource(doc))
                for name, doc in self._fast_documents.items())
            validator = self._fragments[ref] = FastValidator({"$ref": BASE + ref}, registry=registry)
        out: list[str] = []
        for count, error in enumerate(validator.iter_errors(data)):
            if count >= MAX_ERRORS:
                break
            for leaf in _leaves(error):
                for problem in _describe(leaf):
                    where = ".".join(str(x) for x in problem.path)
                    out.append(f"{where}: {problem.message}" if where else problem.message)
        return sorted(set(out))

    def effect_names(self) -> list[str]:
        return list(self.documents["effect"]["$defs"]["effect_node"]["properties"]["type"]["enum"])

    def problems(self, kind: str, data: Any) -> list[SchemaProblem]:
        """Every violation in ``data`` with a readable message, sorted by path; empty when valid."""
        gate = self.gates[kind]
        if gate is not None and gate(data):
            return []
        found: dict[tuple[tuple[str, ...], str], SchemaProblem] = {}
        for count, error in enumerate(self.validators[kind].iter_errors(data)):
            if count >= MAX_ERRORS:  # a document with 100,000 bad items: the first ones suffice
                found[(("~",), "")] = SchemaProblem((), f"more than {MAX_ERRORS} schema errors; "
                                                        f"only the first ones are reported", None, "limit")
                break
            for leaf in _leaves(error):
                for problem in _describe(leaf):
                    found.setdefault((tuple(map(str, problem.path)), problem.message), problem)
        typed = {p.path for p in found.values() if p.validator == "type"}
        kept = [p for p in found.values() if p.validator == "type" or p.path not in typed]
        return sorted(kept, key=lambda p: ([str(x) for x in p.path], p.message))

    def check(self, kind: str, data: Any) -> list[tuple[list[str | int], str, str | None]]:
        """All errors as (path, message, offending key) sorted by path; empty when valid."""
        return [(list(p.path), p.message, p.key) for p in self.problems(kind, data)]


def _short(value: Any, limit: int = 60) -> str:
    """A value's repr, cut short: a 5000-digit number, a long list or a list nested 10,000 deep
    (an action given to Game.apply) must not flood the report nor exhaust the stack."""
    text = repr(value) if shallow(value, 20) else _REPR.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_REPR = reprlib.Repr()
_REPR.maxlevel = 4


def shallow(value: Any, depth: int) -> bool:
    """Whether lists and mappings nest at most ``depth`` levels in the value (without recursing)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (list, tuple, dict)):
            if level >= depth:
                return False
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return True


def _describe(error: ValidationError) -> list[SchemaProblem]:
    """Rewrite jsonschema's messages so they name the field and never dump a whole document."""
    path = tuple(error.absolute_path)
    value: Any = error.validator_value
    instance: Any = error.instance
    schema: Any = error.schema
    kind = str(error.validator)

    def one(message: str, key: str | None = None) -> list[SchemaProblem]:
        return [SchemaProblem(path, message, key, kind)]

    if kind == "additionalProperties" and isinstance(instance, dict):
        allowed = list(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        extra = sorted(k for k in instance if k not in allowed and not any(re.search(p, k) for p in patterns))
        return [SchemaProblem(path, f"unknown key {k!r}{did_you_mean(k, allowed)}", k, kind) for k in extra]
    if kind == "required" and isinstance(instance, dict):
        missing = [k for k in value if k not in instance]
        owner = instance.get("type") if isinstance(instance.get("type"), str) else None
        if owner is None and isinstance(instance.get("kind"), str):
            owner = f"{instance['kind']} ability"
        return [SchemaProblem(path, f"{owner + ' is ' if owner else ''}missing required key {k!r}", None, kind)
                for k in missing]
    if kind == "enum":
        options = [str(v) for v in value]
        hint = did_you_mean(str(instance), options)
        if len(options) > 12:
            # a schema's "title" names what its values are (a zone), else the key holding the value
            what = schema.get("title") or (path[-1] if path and isinstance(path[-1], str) else "value")
            return one(f"{_short(instance)} is not a known {what}{hint}")
        return one(f"{_short(instance)} is not one of {', '.join(options)}{hint}")
    if kind == "const":
        if path and path[-1] == "schema_version":
            return one(f"schema_version {_short(instance)} is not supported; this engine reads schema version {value!r}")
        return one(f"{_short(instance)} is not allowed here; expected {value!r}")
    if kind == "type":
        names = value if isinstance(value, list) else [value]
        return one(f"{_short(instance)} is not of type {' or '.join(repr(n) for n in names)}")
    if kind in ("maximum", "minimum"):
        word = "greater than the maximum" if kind == "maximum" else "less than the minimum"
        return one(f"{_short(instance)} is {word} of {value}")
    if kind == "maxItems":
        return one(f"too many items ({len(instance)}); at most {value}")
    if kind == "minItems":
        return one(f"needs at least {value} item{'s' if value != 1 else ''}")
    if kind == "maxLength":
        return one(f"text is too long ({len(instance):,} characters); at most {value}")
    if kind == "minLength":
        return one("must not be empty" if value == 1 else f"text is too short; at least {value} characters")
    if kind == "maxProperties":
        return one(f"too many keys ({len(instance)}); at most {value}")
    if kind == "minProperties":
        return one(f"needs at least {value} key{'s' if value != 1 else ''}")
    if kind == "pattern":
        return one(f"{_short(instance)} does not match the pattern {value!r}")
    if kind in ("anyOf", "oneOf"):
        types = _branch_types(error)
        if types:
            return one(f"{_short(instance)} is not of type {' or '.join(repr(t) for t in types)}")
        return one(f"{_short(instance)} is not valid here")
    return one(error.message if len(error.message) <= 200 else error.message[:197] + "...")


def _mismatch(error: ValidationError) -> bool:
    """The error only says the value has the wrong JSON type for this branch of an anyOf."""
    value: Any = error.validator_value
    if error.validator == "type":
        return True
    if error.validator in ("enum", "const"):
        options = value if error.validator == "enum" else [value]
        return not any(type(v) is type(error.instance) for v in options)
    return False


def _branch_types(error: ValidationError) -> list[str]:
    """The JSON types an anyOf accepts, when every branch failed only on type."""
    out: list[str] = []
    for sub in error.context or []:
        if not _mismatch(sub):
            return []
        value: Any = sub.validator_value
        names: list[str]
        if sub.validator == "type":
            names = value if isinstance(value, list) else [value]
        else:
            options = value if sub.validator == "enum" else [value]
            names = sorted({next((n for n, t in JSON_TYPES.items() if type(v) is t), "value") for v in options})
        out.extend(n for n in names if n not in out)
    return out


def _leaves(error: ValidationError) -> list[ValidationError]:
    """Errors under if/then and anyOf are nested; report the most specific ones.

    Branches of an anyOf that fail only because the value has another JSON type are ignored;
    if the remaining errors come from a single branch, that branch's errors are reported.
    """
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    relevant = [e for e in error.context if not _mismatch(e)]
    branches = {e.relative_schema_path[0] for e in relevant if e.relative_schema_path}
    if relevant and len(branches) == 1:
        return [leaf for e in relevant for leaf in _leaves(e)]
    deepest = max(len(e.absolute_path) for e in error.context)
    if deepest > len(error.absolute_path):
        best = [e for e in error.context if len(e.absolute_path) == deepest]
        return [leaf for e in best for leaf in _leaves(e)]
    return [error]
