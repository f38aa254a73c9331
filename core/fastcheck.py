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


TYPES: dict[str, Check] = {
    "string": lambda x: isinstance(x, str),
    "integer": _is_int,
    "number": _is_number,
    "boolean": lambda x: isinstance(x, bool),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "null": lambda x: x is None,
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
    def __init__(self) -> None:
        self.done: dict[int, Check] = {}
        self.cells: dict[int, list[Check]] = {}

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return lambda x: True
        if schema is False:
            return lambda x: False
        if not isinstance(schema, dict):
            raise Unsupported(f"schema {schema!r}")
        key = id(schema)
        if key in self.done:
            return self.done[key]
        if key in self.cells:  # a cycle through a linked $ref: call through a cell filled later
            cell = self.cells[key]
            return lambda x: cell[0](x)
        self.cells[key] = cell = []
        check = self._build(schema)
        cell.append(check)
        self.done[key] = check
        return check

    def _build(self, s: dict[str, Any]) -> Check:
        checks: list[Check] = []
        obj: list[Check] = []
        arr: list[Check] = []
        txt: list[Check] = []
        num: list[Check] = []
        for word, value in s.items():
            if word in ANNOTATIONS or word in ("then", "else"):
                continue
            if word == "type":
                names = value if isinstance(value, list) else [value]
                tests = [TYPES[n] for n in names]
                checks.append(lambda x, t=tests: any(f(x) for f in t))
            elif word == "enum":
                if all(isinstance(v, str) for v in value):
                    options = frozenset(value)
                    checks.append(lambda x, o=options: isinstance(x, str) and x in o)
                else:
                    checks.append(lambda x, o=list(value): any(equal(x, v) for v in o))
            elif word == "const":
                checks.append(lambda x, c=value: equal(x, c))
            elif word == "properties":
                props = {k: self.compile(v) for k, v in value.items()}
                obj.append(lambda x, p=props: all(p[k](v) for k, v in x.items() if k in p))
            elif word == "required":
                obj.append(lambda x, r=list(value): all(k in x for k in r))
            elif word == "patternProperties":
                pats = [(re.compile(p), self.compile(v)) for p, v in value.items()]
                obj.append(lambda x, ps=pats: all(c(v) for k, v in x.items() for r, c in ps if r.search(k)))
            elif word == "additionalProperties":
                known = set(s.get("properties", {}))
                pats2 = [re.compile(p) for p in s.get("patternProperties", {})]
                extra = self.compile(value)
                obj.append(lambda x, k=known, ps=pats2, e=extra: all(
                    e(v) for key, v in x.items() if key not in k and not any(r.search(key) for r in ps)))
            elif word in ("minProperties", "maxProperties"):
                obj.append((lambda x, n=value: len(x) >= n) if word == "minProperties"
                           else (lambda x, n=value: len(x) <= n))
            elif word == "items":
                item = self.compile(value)
                arr.append(lambda x, c=item: all(c(v) for v in x))
            elif word in ("minItems", "maxItems"):
                arr.append((lambda x, n=value: len(x) >= n) if word == "minItems" else (lambda x, n=value: len(x) <= n))
            elif word in ("minLength", "maxLength"):
                txt.append((lambda x, n=value: len(x) >= n) if word == "minLength" else (lambda x, n=value: len(x) <= n))
            elif word == "pattern":
                txt.append(lambda x, r=re.compile(value): r.search(x) is not None)
            elif word in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                ops: dict[str, Check] = {
                    "minimum": lambda x, n=value: x >= n, "maximum": lambda x, n=value: x <= n,
                    "exclusiveMinimum": lambda x, n=value: x > n, "exclusiveMaximum": lambda x, n=value: x < n}
                num.append(ops[word])
            elif word in ("anyOf", "oneOf", "allOf"):
                subs = [self.compile(v) for v in value]
                if word == "anyOf":
                    checks.append(lambda x, ss=subs: any(c(x) for c in ss))
                elif word == "allOf":
                    checks.append(lambda x, ss=subs: all(c(x) for c in ss))
                else:
                    checks.append(lambda x, ss=subs: sum(1 for c in ss if c(x)) == 1)
            elif word == "not":
                sub = self.compile(value)
                checks.append(lambda x, c=sub: not c(x))
            elif word == "if":
                cond = self.compile(value)
                then = self.compile(s.get("then", True))
                other = self.compile(s.get("else", True))
                checks.append(lambda x, i=cond, t=then, e=other: t(x) if i(x) else e(x))
            elif word == SWITCH:
                cases = {k: self.compile(v) for k, v in value["cases"].items()}
                loose = [cases[k] for k in value["loose"]]
                field = value["field"]

                def switch(x: Any, cs: dict[str, Check] = cases, lo: list[Check] = loose, f: str = field) -> bool:
                    if not isinstance(x, dict):
                        return all(c(x) for c in lo)
                    tag = x.get(f)
                    return not isinstance(tag, str) or tag not in cs or cs[tag](x)

                checks.append(switch)
            elif word == REF:
                checks.append(self.compile(value))
            else:
                raise Unsupported(word)
        if obj:
            checks.append(lambda x, cs=obj: not isinstance(x, dict) or all(c(x) for c in cs))
        if arr:
            checks.append(lambda x, cs=arr: not isinstance(x, list) or all(c(x) for c in cs))
        if txt:
            checks.append(lambda x, cs=txt: not isinstance(x, str) or all(c(x) for c in cs))
        if num:
            checks.append(lambda x, cs=num: not _is_number(x) or all(c(x) for c in cs))
        if not checks:
            return lambda x: True
        if len(checks) == 1:
            return checks[0]
        return lambda x, cs=checks: all(c(x) for c in cs)


def compile_check(schema: Any) -> Check | None:
    """A function telling whether a document is valid, or None if the schema is unsupported."""
    try:
        return _Compiler().compile(schema)
    except (Unsupported, KeyError, TypeError, re.error):
        return None
