"""Strict, compiled checks of JSON documents against the schemas of what crosses the API.

The action and saved-game schemas (``schemas/action.schema.json``, ``schemas/state.schema.json``)
use a small part of Draft 2020-12; this module compiles that part into nested closures once, and
a check returns None or the first problem as (JSON path, message).  It is stricter than JSON
Schema in one point, on purpose: an integer is a JSON integer written without a fraction (``2``,
never ``2.0``) and never a boolean.  Any other keyword is refused when compiling, so a schema
can't silently check less than it says; ``tests/test_saves.py`` compares the verdicts with
``jsonschema`` on valid and damaged documents.
"""
from __future__ import annotations

import re
from typing import Any, Callable

Path = tuple[str | int, ...]
Problem = tuple[Path, str]
Checker = Callable[[Any, Path], Problem | None]

ANNOTATIONS = {"description", "title", "$schema", "$comment", "$defs", "default", "examples"}
KINDS: dict[str, Callable[[Any], bool]] = {
    "integer": lambda x: type(x) is int,
    "string": lambda x: type(x) is str,
    "boolean": lambda x: type(x) is bool,
    "object": lambda x: type(x) is dict,
    "array": lambda x: type(x) is list,
    "null": lambda x: x is None,
}


class SchemaNotSupported(ValueError):
    """The schema uses a keyword this compiler does not implement."""


def _short(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def compile_schema(root: dict[str, Any]) -> Checker:
    """The check of a whole schema (its ``$ref``s point into its own ``$defs``)."""
    # each sub-schema's checker, by id(): local to one compile, while ``root`` keeps every sub-schema
    # alive (so no id is reused); it lets a $ref cycle call through a cell filled later
    done: dict[int, Checker] = {}

    def resolve(ref: str) -> dict[str, Any]:
        if not ref.startswith("#/$defs/"):
            raise SchemaNotSupported(f"$ref {ref!r}")
        target: dict[str, Any] = root["$defs"][ref[len("#/$defs/"):]]
        return target

    def build(schema: dict[str, Any]) -> Checker:
        key = id(schema)
        if key in done:
            return done[key]
        cell: list[Checker] = []

        def later(x: Any, path: Path) -> Problem | None:
            return cell[0](x, path)
        done[key] = later
        checker = _build(schema)
        cell.append(checker)
        done[key] = checker
        return checker

    def _build(s: dict[str, Any]) -> Checker:
        unknown = set(s) - ANNOTATIONS - {"$ref", "type", "enum", "const", "anyOf", "properties", "required",
                                           "additionalProperties", "patternProperties", "propertyNames",
                                           "maxProperties", "items", "prefixItems", "minItems", "maxItems",
                                           "minimum", "maximum", "maxLength", "pattern"}
        if unknown:
            raise SchemaNotSupported(", ".join(sorted(unknown)))
        if "$ref" in s:
            return build(resolve(s["$ref"]))
        parts: list[Checker] = []
        if "type" in s:
            parts.append(_type(s["type"]))
        if "enum" in s or "const" in s:
            parts.append(_enum(s["enum"] if "enum" in s else [s["const"]]))
        if "anyOf" in s:
            parts.append(_any_of([build(sub) for sub in s["anyOf"]]))
        if {"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
                "maxProperties"} & set(s):
            parts.append(_object(s))
        if {"items", "prefixItems", "minItems", "maxItems"} & set(s):
            parts.append(_array(s))
        if {"minimum", "maximum"} & set(s):
            parts.append(_bounds(s.get("minimum"), s.get("maximum")))
        if {"maxLength", "pattern"} & set(s):
            parts.append(_text(s.get("maxLength"), s.get("pattern")))
        return _all(parts)

    def _object(s: dict[str, Any]) -> Checker:
        props = {k: build(v) for k, v in s.get("properties", {}).items()}
        required = list(s.get("required", []))
        patterns = [(re.compile(p), build(v)) for p, v in s.get("patternProperties", {}).items()]
        extra = s.get("additionalProperties", True)
        extra_check = build(extra) if isinstance(extra, dict) else None
        names = set(s["propertyNames"]["enum"]) if "propertyNames" in s else None
        most = s.get("maxProperties")

        def check(x: Any, path: Path) -> Problem | None:
            if type(x) is not dict:
                return None
            if most is not None and len(x) > most:
                return path, f"too many keys ({len(x)}); at most {most}"
            for name in required:
                if name not in x:
                    return path, f"missing key {name!r}"
            for name, value in x.items():
                if names is not None and name not in names:
                    return path, f"unknown key {_short(name)}"
                sub = props.get(name)
                if sub is None:
                    sub = next((c for rx, c in patterns if rx.search(name)), None)
                if sub is None:
                    if extra is False:
                        return path, f"unknown key {_short(name)}"
                    sub = extra_check
                if sub is not None:
                    found = sub(value, path + (name,))
                    if found:
                        return found
            return None
        return check

    def _array(s: dict[str, Any]) -> Checker:
        items = build(s["items"]) if "items" in s else None
        prefix = [build(p) for p in s.get("prefixItems", [])]
        fewest, most = s.get("minItems", 0), s.get("maxItems")

        def check(x: Any, path: Path) -> Problem | None:
            if type(x) is not list:
                return None
            if len(x) < fewest:
                return path, f"needs at least {fewest} item{'s' if fewest != 1 else ''}"
            if most is not None and len(x) > most:
                return path, f"too many items ({len(x)}); at most {most}"
            for i, value in enumerate(x):
                sub = prefix[i] if i < len(prefix) else items
                if sub is not None:
                    found = sub(value, path + (i,))
                    if found:
                        return found
            return None
        return check

    return build(root)


def _all(parts: list[Checker]) -> Checker:
    if len(parts) == 1:
        return parts[0]

    def check(x: Any, path: Path) -> Problem | None:
        for part in parts:
            found = part(x, path)
            if found:
                return found
        return None
    return check


def _type(kind: str | list[str]) -> Checker:
    names = [kind] if isinstance(kind, str) else list(kind)
    tests = [KINDS[n] for n in names]

    def check(x: Any, path: Path) -> Problem | None:
        if any(t(x) for t in tests):
            return None
        return path, f"{_short(x)} is not {' or '.join(_A.get(n, n) for n in names)}"
    return check


_A = {"integer": "a whole number", "string": "a text", "boolean": "true or false", "object": "an object",
      "array": "a list", "null": "null"}


def _enum(options: list[Any]) -> Checker:
    def check(x: Any, path: Path) -> Problem | None:
        for option in options:
            if type(option) is type(x) and option == x:
                return None
        shown = ", ".join(repr(o) for o in options[:12]) + (" ..." if len(options) > 12 else "")
        return path, f"{_short(x)} is not one of {shown}"
    return check


def _any_of(subs: list[Checker]) -> Checker:
    def check(x: Any, path: Path) -> Problem | None:
        first: Problem | None = None
        for sub in subs:
            found = sub(x, path)
            if found is None:
                return None
            # the deepest problem says most (a wrong key inside an object, not "not null")
            if first is None or len(found[0]) > len(first[0]):
                first = found
        return first
    return check


def _bounds(low: int | None, high: int | None) -> Checker:
    def check(x: Any, path: Path) -> Problem | None:
        if type(x) is not int:
            return None
        if low is not None and x < low:
            return path, f"{_short(x)} is less than the minimum of {low}"
        if high is not None and x > high:
            return path, f"{_short(x)} is more than the maximum of {high}"
        return None
    return check


def _text(longest: int | None, pattern: str | None) -> Checker:
    rx = re.compile(pattern) if pattern is not None else None

    def check(x: Any, path: Path) -> Problem | None:
        if type(x) is not str:
            return None
        if longest is not None and len(x) > longest:
            return path, f"text is too long ({len(x):,} characters); at most {longest}"
        if rx is not None and rx.search(x) is None:
            return path, f"{_short(x)} does not match the pattern {pattern!r}"
        return None
    return check


def dotted(path: Path) -> str:
    """A JSON path as people write it: ``state.players[0].points``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (("." if out else "") + str(part))
    return out or "(the document)"
