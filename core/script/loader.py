"""Reading script files: safe YAML, schema checks (through the validation cache), the kind of each
document, and the keyword and token names it refers to.

Every problem in a file is collected and reported as ``file:line:col: message (json path)``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import yamlio
from ..errors import Problem
from .cards import Json
from .schema import SchemaProblem, Schemas
from .validated_cache import ValidationCache

JsonPath = yamlio.JsonPath


@dataclass
class Document:
    """One script file as read: its parsed data (valid or not) and what is wrong with it.

    Schema problems are kept as JSON paths until :meth:`report`, so that the keyword-aware checks
    can replace generic messages and positions are looked up with a single re-parse.
    """

    file: Path
    kind: str
    raw: Any = None
    valid: bool = False
    problems: list[Problem] = field(default_factory=list)
    schema: list[SchemaProblem] = field(default_factory=list)
    text: str | None = None
    refs: list[Reference] | None = None
    _positions: yamlio.Positions | None = field(default=None, repr=False)

    @property
    def data(self) -> Json | None:
        """The validated data, or None if the file has problems of its own."""
        return self.raw if self.valid and isinstance(self.raw, dict) else None

    def positions(self) -> yamlio.Positions:
        if self._positions is None:
            text = self.text
            if text is None:
                try:
                    text = yamlio.read_text(self.file)
                except yamlio.YamlProblem:
                    text = ""
            self._positions = yamlio.Positions(text)
        return self._positions

    def problem(self, path: JsonPath, message: str, key: str | None = None, at_key: bool = False) -> Problem:
        """A problem at ``path`` (at the key itself with ``at_key``, e.g. an unknown key)."""
        positions = self.positions()
        if key is not None:
            pos = positions.of_key(path, key)
            path = path + [key]
        elif at_key and path and isinstance(path[-1], str):
            pos = positions.of_key(path[:-1], path[-1])
        else:
            pos = positions.of(path)
        return Problem(str(self.file), pos[0] if pos else None, pos[1] if pos else None, message, _dotted(path))

    def report(self, replaced: set[tuple[str | int, ...]] | None = None) -> list[Problem]:
        """Every problem of this file, schema ones located, sorted by position, capped."""
        out = list(self.problems)
        for sp in self.schema:
            if replaced and sp.path in replaced:
                continue
            if sp.validator == "limit":
                out.append(Problem(str(self.file), None, None, sp.message))
                continue
            out.append(self.problem(list(sp.path), sp.message, sp.key))
        out.sort(key=lambda p: (p.line or 0, p.col or 0))
        if len(out) > MAX_PROBLEMS_PER_FILE:
            hidden = len(out) - MAX_PROBLEMS_PER_FILE
            out = out[:MAX_PROBLEMS_PER_FILE]
            out.append(Problem(str(self.file), None, None, f"... and {hidden} more problems in this file"))
        return out


class Loader:
    """Reads and checks files; positions are found only for files that fail.

    With a cache, a file whose exact bytes were validated before (under the same schemas and
    engine) is neither parsed nor validated again.
    """

    def __init__(self, schemas: Schemas, cache: ValidationCache | None = None) -> None:
        self.schemas = schemas
        self.cache = cache

    def document(self, path: Path, kind: str | None = None) -> Document:
        """Parse and schema-check one file, never raising for bad input."""
        file = str(path)
        fallback = kind or "card"
        try:
            content = yamlio.read_bytes(path)
            if self.cache is not None:
                hit = self.cache.get(content, kind)
                if hit is not None:
                    return Document(path, hit[0], hit[1], valid=True, refs=hit[2])
            text = yamlio.decode(content, file)
            raw = yamlio.load_text(text, file)
        except yamlio.YamlProblem as exc:
            return Document(path, fallback, problems=[exc.problem])
        if not isinstance(raw, dict):
            found = "an empty file" if raw is None else f"a {type(raw).__name__}"
            return Document(path, fallback, raw, text=text,
                            problems=[Problem(file, 1, 1, f"expected a mapping of fields at the top level, found {found}")])
        detected = kind or detect_kind(raw)
        doc = Document(path, detected, raw, text=text, schema=self.schemas.problems(detected, raw))
        doc.valid = not doc.schema
        if doc.valid and self.cache is not None:
            doc.refs = references(raw)
            self.cache.put(content, kind, detected, raw, doc.refs)
        return doc

    def read(self, path: Path, kind: str | None = None) -> tuple[Any, str, list[Problem]]:
        """Parse and schema-check one file; returns (data, kind, problems)."""
        doc = self.document(path, kind)
        return doc.data, doc.kind, doc.report()


def detect_kind(data: Json) -> str:
    """What a script file is, from its keys (a card has ``keywords``, a keyword file ``keyword`` and no ``code``)."""
    if "keyword" in data and ("rule" in data or "code" not in data):
        return "keyword"
    if "main" in data and "legend" in data:
        return "deck"
    if "requires" in data:
        return "set"
    if "steps" in data or "scenarios" in data or "setup" in data or "deck" in data:
        return "scenario"
    return "card"


def _dotted(path: Iterable[str | int]) -> str:
    return yamlio.dotted(list(path))


def script_files(path: Path) -> list[Path]:
    """The YAML files at ``path``: the file itself (whatever its name), or every ``*.yaml`` and
    ``*.yml`` file below a folder (hidden folders such as ``.git`` are skipped, and so are the
    copies ``pip install`` leaves in a set folder: ``build``, ``dist``, ``*.egg-info``)."""
    if not path.is_dir():
        return [path] if path.exists() else []
    found: list[Path] = []
    for folder, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("build", "dist")
                         and not d.endswith(".egg-info"))
        found.extend(Path(folder, n) for n in names if n.endswith((".yaml", ".yml")))
    return sorted(found)


def references(raw: Any) -> list[Reference]:
    """Every keyword and token name a script refers to, as (path, "keyword" | "token", name).

    Looks at ``grant_keyword``, modifiers and conditions of ``type: keyword``, ``extra_trigger``,
    selection filters (``where: {keyword: ...}``) and ``create_token`` (its ``token`` and
    ``keywords``); a keyword file's own name and abilities' display labels are not references,
    nor is a card's ``keywords:`` list (see keyword_use_problems).  Depends on the data alone,
    so it is stored in the validation cache with it.
    """
    out: list[Reference] = []
    stack: list[tuple[Any, JsonPath]] = [(raw, [])]
    while stack:
        node, path = stack.pop()
        if isinstance(node, list):
            stack.extend((v, path + [i]) for i, v in enumerate(node) if isinstance(v, (dict, list)))
            continue
        if not isinstance(node, dict):
            continue
        name = node.get("keyword")
        if path and isinstance(name, str) and "kind" not in node:
            out.append((path + ["keyword"], "keyword", name))
        if node.get("type") == "create_token":
            token = node.get("token")
            if isinstance(token, str):
                out.append((path + ["token"], "token", token))
            granted = node.get("keywords")
            if isinstance(granted, list):
                out.extend((path + ["keywords", i], "keyword", kw) for i, kw in enumerate(granted)
                           if isinstance(kw, str))
        stack.extend((v, path + [k]) for k, v in node.items() if isinstance(v, (dict, list)))
    return sorted(out, key=lambda item: [str(x) for x in item[0]])


Reference = tuple[JsonPath, str, str]


MAX_PROBLEMS_PER_FILE = 50
