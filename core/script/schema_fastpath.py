"""A compiled yes/no check for the JSON Schema subset RiftScript's schemas use.

``jsonschema`` is the authority: it produces every message.  But it interprets the schema for
each document, which made validating 1,000 cards cost about a second; nearly every card is
valid, so a yes/no answer is all that is needed for most files.  This module turns a schema
into nested Python closures once; a document it accepts is valid, and only the rest go through
``jsonschema`` for their messages.  Semantics follow Draft 2020-12 as ``jsonschema`` implements
it (``2.0`` is an integer, ``true`` is not, ``format`` is not asserted).  A schema using any
keyword outside the supported set compiles to None and is always checked by ``jsonschema``;
``tests/test_fastcheck.py`` compares both verdicts on valid and mutated documents.
"""
from __future__ import annotations

import re
from typing import Any, Callable

Check = Callable[[Any], bool]

SWITCH = "x-riftscript-switch"
REF = "x-riftscript-ref"
ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples",
               "deprecated", "readOnly", "writeOnly", "format"}


class Unsupported(Exception):
    """The schema uses a keyword this compiler does not implement."""


def _is_int(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _false(x: Any) -> bool:
    return False


def _of(kind: type | tuple[type, ...]) -> Check:
    def check(x: Any) -> bool:
        return isinstance(x, kind)
    return check


def _is_null(x: Any) -> bool:
    return x is None


TYPES: dict[str, Check] = {
    "string": _of(str), "integer": _is_int, "number": _is_number, "boolean": _of(bool),
    "object": _of(dict), "array": _of(list), "null": _is_null,
}


def equal(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, and containers compare element-wise."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    return type(a) is type(b) and bool(a == b)


class _Compiler:
    """One compile of one schema.  Its checkers are remembered by the sub-schema's id(): the compiler
    lives for one compile while the schema keeps every sub-schema alive, so no id is reused."""

    def __init__(self) -> None:
        self.done: dict[int, Check] = {}
        self.cells: dict[int, list[Check]] = {}

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return _true
        if schema is False:
            return _false
        if not isinstance(schema, dict):
            raise Unsupported(f"schema {schema!r}")
        key = id(schema)
        if key in self.done:
            return self.done[key]
        if key in self.cells:  # a cycle through a linked $ref: call through a cell filled later
            cell = self.cells[key]

            def later(x: Any) -> bool:
                return cell[0](x)
            return later
        self.cells[key] = cell = []
        check = self._build(schema)
        cell.append(check)
        self.done[key] = check
        return check

    def _build(self, s: dict[str, Any]) -> Check:
        checks: list[Check] = []
        by_type: dict[str, list[Check]] = {"object": [], "array": [], "string": [], "number": []}
        for word, value in s.items():
            if word in ANNOTATIONS or word in ("then", "else"):
                continue
            if word in KEYWORDS:
                applies, check = KEYWORDS[word](self, value, s)
                (checks if applies == "any" else by_type[applies]).append(check)
            else:
                raise Unsupported(word)
        for name, group in by_type.items():
            if group:
                checks.append(_guard(TYPES[name], group))
        return _all(checks)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _true
    if len(checks) == 1:
        return checks[0]

    def every(x: Any) -> bool:
        return all(c(x) for c in checks)
    return every


def _true(x: Any) -> bool:
    return True


def _guard(is_type: Check, group: list[Check]) -> Check:
    """Keywords such as ``required`` or ``maxLength`` only constrain values of their type."""
    inner = _all(group)

    def guarded(x: Any) -> bool:
        return not is_type(x) or inner(x)
    return guarded


Built = tuple[str, Check]


def _type(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    tests = [TYPES[n] for n in (value if isinstance(value, list) else [value])]

    def check(x: Any) -> bool:
        return any(t(x) for t in tests)
    return "any", check


def _enum(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    if all(isinstance(v, str) for v in value):
        options = frozenset(value)

        def check(x: Any) -> bool:
            return isinstance(x, str) and x in options
        return "any", check
    items = list(value)

    def check_any(x: Any) -> bool:
        return any(equal(x, v) for v in items)
    return "any", check_any


def _const(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    def check(x: Any) -> bool:
        return equal(x, value)
    return "any", check


def _properties(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    props = {k: c.compile(v) for k, v in value.items()}

    def check(x: Any) -> bool:
        return all(props[k](v) for k, v in x.items() if k in props)
    return "object", check


def _required(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    names = list(value)

    def check(x: Any) -> bool:
        return all(k in x for k in names)
    return "object", check


def _pattern_properties(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    pats = [(re.compile(p), c.compile(v)) for p, v in value.items()]

    def check(x: Any) -> bool:
        return all(sub(v) for k, v in x.items() for rx, sub in pats if rx.search(k))
    return "object", check


def _additional(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    known = set(s.get("properties", {}))
    pats = [re.compile(p) for p in s.get("patternProperties", {})]
    extra = c.compile(value)

    def check(x: Any) -> bool:
        return all(extra(v) for k, v in x.items() if k not in known and not any(rx.search(k) for rx in pats))
    return "object", check


def _items(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    sub = c.compile(value)

    def check(x: Any) -> bool:
        return all(sub(v) for v in x)
    return "array", check


def _size(applies: str, at_least: bool) -> Callable[[_Compiler, Any, dict[str, Any]], Built]:
    def build(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
        def check(x: Any) -> bool:
            return bool(len(x) >= value) if at_least else bool(len(x) <= value)
        return applies, check
    return build


def _pattern(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    rx = re.compile(value)

    def check(x: Any) -> bool:
        return rx.search(x) is not None
    return "string", check


def _bound(op: str) -> Callable[[_Compiler, Any, dict[str, Any]], Built]:
    def build(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
        def check(x: Any) -> bool:
            if op == "minimum":
                return bool(x >= value)
            if op == "maximum":
                return bool(x <= value)
            if op == "exclusiveMinimum":
                return bool(x > value)
            return bool(x < value)
        return "number", check
    return build


def _combine(word: str) -> Callable[[_Compiler, Any, dict[str, Any]], Built]:
    def build(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
        subs = [c.compile(v) for v in value]

        def check(x: Any) -> bool:
            if word == "anyOf":
                return any(sub(x) for sub in subs)
            if word == "allOf":
                return all(sub(x) for sub in subs)
            return sum(1 for sub in subs if sub(x)) == 1
        return "any", check
    return build


def _not(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    sub = c.compile(value)

    def check(x: Any) -> bool:
        return not sub(x)
    return "any", check


def _if(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    cond, then, other = c.compile(value), c.compile(s.get("then", True)), c.compile(s.get("else", True))

    def check(x: Any) -> bool:
        return then(x) if cond(x) else other(x)
    return "any", check


def _switch(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    cases = {k: c.compile(v) for k, v in value["cases"].items()}
    loose = [cases[k] for k in value["loose"]]
    field = value["field"]

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return all(sub(x) for sub in loose)
        tag = x.get(field)
        return not isinstance(tag, str) or tag not in cases or cases[tag](x)
    return "any", check


def _ref(c: _Compiler, value: Any, s: dict[str, Any]) -> Built:
    return "any", c.compile(value)


KEYWORDS: dict[str, Callable[[_Compiler, Any, dict[str, Any]], Built]] = {
    "type": _type, "enum": _enum, "const": _const, "properties": _properties, "required": _required,
    "patternProperties": _pattern_properties, "additionalProperties": _additional, "items": _items,
    "minProperties": _size("object", True), "maxProperties": _size("object", False),
    "minItems": _size("array", True), "maxItems": _size("array", False),
    "minLength": _size("string", True), "maxLength": _size("string", False), "pattern": _pattern,
    "minimum": _bound("minimum"), "maximum": _bound("maximum"),
    "exclusiveMinimum": _bound("exclusiveMinimum"), "exclusiveMaximum": _bound("exclusiveMaximum"),
    "anyOf": _combine("anyOf"), "allOf": _combine("allOf"), "oneOf": _combine("oneOf"), "not": _not,
    "if": _if, SWITCH: _switch, REF: _ref,
}


def compile_check(schema: Any) -> Check | None:
    """A function telling whether a document is valid, or None if the schema is unsupported."""
    try:
        return _Compiler().compile(schema)
    except (Unsupported, KeyError, TypeError, re.error):
        return None
