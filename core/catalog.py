"""Loading card sets, keywords and decks: safe YAML, schema checks, integrity, compilation.

Every problem in every file is collected in one run and reported as
``file:line:col: message (json path)``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .cards import Ability, CardDef, Json
from .errors import PluginError, Problem, ScriptError
from .registry import EffectType, Plugins, SetSpec, load_plugins
from .schema import Schemas
from .suggest import did_you_mean
from .version import ENGINE_VERSION, SCHEMA_VERSION
from . import yamlio

DECIDING_EFFECTS = {"may", "choose_one", "discard", "look_at_top", "choose_player", "play", "hide", "recycle"}


@dataclass(frozen=True)
class KeywordDef:
    """A keyword as its YAML script defines it."""

    keyword: str
    name: str
    rule: str
    summary: str = ""
    parameter_kind: str | None = None
    default: int | None = None
    stacking: str = "add"
    condition: Json | None = None
    deck_limit: int | None = None
    abilities: tuple[Json, ...] = ()
    additional_cost: Json | None = None
    status: bool = False
    source: str = ""


@dataclass
class SetInfo:
    code: str
    name: str
    version: str
    plugin: str
    manifest: Json
    spec: SetSpec
    cards: list[str] = field(default_factory=list)


@dataclass
class Catalog:
    """Everything installed: cards by code, tokens by name, keywords, sets, decks, effect types."""

    cards: dict[str, CardDef] = field(default_factory=dict)
    tokens: dict[str, CardDef] = field(default_factory=dict)
    keywords: dict[str, KeywordDef] = field(default_factory=dict)
    sets: dict[str, SetInfo] = field(default_factory=dict)
    decks: dict[str, tuple[Json, str]] = field(default_factory=dict)
    effect_types: dict[str, EffectType] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    plugins: Plugins | None = None
    schemas: Schemas | None = None

    def card(self, code: str) -> CardDef:
        return self.cards[code]

    def by_name(self, name: str) -> CardDef | None:
        wanted = name.lower()
        for card in self.cards.values():
            if card.name.lower() == wanted:
                return card
        return None

    def raise_for_problems(self) -> None:
        if self.problems:
            raise ScriptError(self.problems)


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def version_satisfies(version: str, spec: str) -> bool:
    """Check a version against a comma-separated range such as '>=0.1,<1'."""
    have = _version_tuple(version)
    for clause in spec.split(","):
        clause = clause.strip()
        match = re.fullmatch(r"(>=|<=|==|>|<|!=)?\s*([0-9][0-9.]*)", clause)
        if not match:
            return False
        op, want_text = match.group(1) or "==", match.group(2)
        want = _version_tuple(want_text)
        width = max(len(have), len(want))
        a = have + (0,) * (width - len(have))
        b = want + (0,) * (width - len(want))
        ok = {">=": a >= b, "<=": a <= b, "==": a == b, ">": a > b, "<": a < b, "!=": a != b}[op]
        if not ok:
            return False
    return True


class Loader:
    """Reads and checks files; positions are found only for files that fail."""

    def __init__(self, schemas: Schemas) -> None:
        self.schemas = schemas

    def read(self, path: Path, kind: str | None = None) -> tuple[Any, str, list[Problem]]:
        """Parse and schema-check one file; returns (data, kind, problems)."""
        file = str(path)
        try:
            text = yamlio.read_text(path)
            data = yamlio.load_text(text, file)
        except yamlio.YamlProblem as exc:
            return None, kind or "card", [exc.problem]
        if not isinstance(data, dict):
            return None, kind or "card", [Problem(file, 1, 1, "expected a mapping of fields at the top level")]
        kind = kind or detect_kind(data)
        errors = self.schemas.check(kind, data)
        problems: list[Problem] = []
        for json_path, message, key in errors:
            pos = yamlio.locate_key(text, json_path, key) if key else yamlio.locate(text, json_path)
            dotted = _dotted(json_path + ([key] if key else []))
            problems.append(Problem(file, pos[0] if pos else None, pos[1] if pos else None, message, dotted))
        if problems:
            return None, kind, problems
        return data, kind, []


def detect_kind(data: Json) -> str:
    if "keyword" in data and "rule" in data:
        return "keyword"
    if "main" in data and "legend" in data:
        return "deck"
    if "requires" in data:
        return "set"
    return "card"


def _dotted(path: Iterable[str | int]) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def _walk(node: Any) -> Iterable[Json]:
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            yield cur
            stack.extend(cur.values())
        elif isinstance(cur, list):
            stack.extend(cur)


def keyword_id(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


class Compiler:
    """Turns validated card data into CardDefs, expanding keywords into abilities."""

    def __init__(self, keywords: dict[str, KeywordDef]) -> None:
        self.keywords = keywords

    def keyword_uses(self, raw: list[Any]) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        for use in raw:
            if isinstance(use, str):
                out.append((keyword_id(use), None))
            else:
                ((name, value),) = use.items()
                out.append((keyword_id(name), value))
        return out

    def compile(self, data: Json, set_code: str, source: str) -> CardDef:
        keywords = self.keyword_uses(data.get("keywords", []))
        abilities: list[Ability] = []
        for body in data.get("abilities", []):
            abilities.append(self._ability(body, len(abilities), None, None))
        for name, value in keywords:
            kw = self.keywords.get(name)
            if kw is None:
                continue
            if value is None and kw.parameter_kind == "number":
                value = kw.default if kw.default is not None else 1
            for body in kw.abilities:
                body = _substitute(body, value)
                if kw.parameter_kind == "cost" and isinstance(value, dict) and body.get("kind") == "activated":
                    body = {**body, "cost": value}
                abilities.append(self._ability(body, len(abilities), name, value))
            if kw.additional_cost is not None:
                extra = {"kind": "additional_cost", **kw.additional_cost}
                if kw.parameter_kind == "cost" and isinstance(value, dict):
                    extra["cost"] = value
                abilities.append(self._ability(extra, len(abilities), name, value))
        cost = data.get("cost", {})
        domains = tuple(data.get("domains", []))
        return CardDef(
            code=data["code"], name=data["name"], type=data["type"], set_code=set_code,
            supertype=data.get("supertype"), domains=domains,
            energy=int(cost.get("energy", 0)), power=tuple(cost.get("power", [])),
            might=int(data.get("might", 0)), might_bonus=int(data.get("might_bonus", 0)),
            tags=tuple(data.get("tags", [])), champion_tag=data.get("champion_tag"),
            equipment=bool(data.get("equipment", False)),
            token=bool(data.get("token", False) or data.get("supertype") == "token"),
            keywords=tuple(keywords), abilities=tuple(abilities), source=source, raw=data,
        )

    def _ability(self, body: Json, index: int, keyword: str | None, value: Any) -> Ability:
        body = _number_targets(body)
        slots = sum(1 for node in _walk(body) if node.get("pick") == "target")
        decides = any(
            node.get("pick") in ("choose", "random") or node.get("type") in DECIDING_EFFECTS
            or node.get("up_to") or node.get("split")
            for node in _walk(body.get("effect") or body.get("instead") or {})
        ) or bool(body.get("optional"))
        event = body["when"]["event"] if body.get("kind") == "triggered" else None
        if body.get("kind") == "replacement":
            event = body["replaces"]["event"]
        return Ability(kind=body["kind"], index=index, body=body, keyword=keyword, keyword_value=value,
                       event=event, target_slots=slots, decides=decides)


def _substitute(node: Any, value: Any) -> Any:
    """Put a keyword instance's parameter into its script."""
    if isinstance(node, dict):
        if node.get("type") == "variable" and node.get("name") == "keyword_value":
            return value
        if node.get("type") == "keyword_effect":
            return value
        return {k: _substitute(v, value) for k, v in node.items()}
    if isinstance(node, list):
        return [_substitute(v, value) for v in node]
    return node


def _number_targets(body: Json) -> Json:
    """Give every 'pick: target' selection its slot number, in script order."""
    counter = [0]

    def visit(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: visit(v) for k, v in node.items()}
            if out.get("pick") == "target":
                out["_slot"] = counter[0]
                counter[0] += 1
            return out
        if isinstance(node, list):
            return [visit(v) for v in node]
        return node

    result: Json = visit(body)
    return result


def _keyword_def(data: Json, source: str) -> KeywordDef:
    param = data.get("parameter", {})
    return KeywordDef(
        keyword=data["keyword"], name=data["name"], rule=data["rule"], summary=data.get("summary", ""),
        parameter_kind=param.get("kind"), default=param.get("default"), stacking=param.get("stacking", "add"),
        condition=data.get("condition"), deck_limit=data.get("deck_limit"),
        abilities=tuple(data.get("abilities", [])), additional_cost=data.get("additional_cost"),
        status=bool(data.get("status", False)), source=source,
    )


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.exists():
        return []
    return sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def load_catalog(plugins: Plugins | None = None, extra_cards: Iterable[Path] = (),
                 strict: bool = True) -> Catalog:
    """Load every installed plugin's keywords, effect primitives and sets.

    With ``strict`` the first problem set raises ScriptError; otherwise problems are kept in
    ``catalog.problems`` for reporting (``riftscript validate``).
    """
    plugins = plugins or load_plugins()
    catalog = Catalog(plugins=plugins)
    for etype in plugins.effect_types():
        if etype.name in catalog.effect_types:
            raise PluginError(f"effect type {etype.name!r} is registered twice")
        catalog.effect_types[etype.name] = etype
    schemas = Schemas((e.name, e.schema) for e in catalog.effect_types.values() if e.schema is not None)
    catalog.schemas = schemas
    loader = Loader(schemas)
    problems = catalog.problems

    for source in plugins.keywords():
        for file in _files(source.path):
            data, _, found = loader.read(file, "keyword")
            problems.extend(found)
            if data is not None:
                kw = _keyword_def(data, str(file))
                if kw.keyword in catalog.keywords:
                    problems.append(Problem(str(file), None, None,
                                            f"keyword {kw.keyword!r} is also defined in {catalog.keywords[kw.keyword].source}"))
                catalog.keywords[kw.keyword] = kw

    compiler = Compiler(catalog.keywords)
    card_origin: dict[str, str] = {}
    for spec in plugins.sets():
        data, _, found = loader.read(spec.manifest, "set")
        problems.extend(found)
        if data is None:
            continue
        code = data["code"]
        if code in catalog.sets:
            other = catalog.sets[code]
            raise PluginError(f"set code {code} is shipped by two plugins: {other.plugin or other.spec.manifest} "
                              f"and {spec.plugin or spec.manifest}")
        req = data["requires"]
        if not version_satisfies(ENGINE_VERSION, req["engine"]):
            raise PluginError(f"set {code} ({spec.manifest}) needs engine {req['engine']}, "
                              f"but this is RiftScript {ENGINE_VERSION}")
        if req["schema_version"] != SCHEMA_VERSION:
            raise PluginError(f"set {code} ({spec.manifest}) is written for script schema version "
                              f"{req['schema_version']}, but this engine reads version {SCHEMA_VERSION}")
        info = SetInfo(code, data["name"], data["version"], spec.plugin, data, spec)
        catalog.sets[code] = info
        for file in _files(spec.cards):
            card_data, _, found = loader.read(file, "card")
            problems.extend(found)
            if card_data is None:
                continue
            _add_card(catalog, compiler, card_data, code, file, card_origin, info)
        if spec.decks is not None:
            for file in _files(spec.decks):
                deck, _, found = loader.read(file, "deck")
                problems.extend(found)
                if deck is not None:
                    catalog.decks[deck["name"]] = (deck, str(file))

    for file in extra_cards:
        for f in _files(file):
            card_data, kind, found = loader.read(f)
            problems.extend(found)
            if card_data is not None and kind == "card":
                _add_card(catalog, compiler, card_data, card_data["code"].split("-")[0], f, card_origin, None)

    problems.extend(check_integrity(catalog))
    if strict:
        catalog.raise_for_problems()
    return catalog


def _add_card(catalog: Catalog, compiler: Compiler, data: Json, set_code: str, file: Path,
              origin: dict[str, str], info: SetInfo | None) -> None:
    code = data["code"]
    if code in origin:
        raise PluginError(f"card code {code} is defined twice: {origin[code]} and {file}")
    origin[code] = str(file)
    card = compiler.compile(data, set_code, str(file))
    catalog.cards[code] = card
    if card.token:
        catalog.tokens.setdefault(card.name.lower(), card)
    if info is not None:
        info.cards.append(code)


def check_integrity(catalog: Catalog) -> list[Problem]:
    """Every referenced keyword and token exists (with a 'did you mean' hint)."""
    problems: list[Problem] = []
    keyword_names = list(catalog.keywords)
    token_names = list(catalog.tokens)
    for card in catalog.cards.values():
        raw = card.raw
        for i, (name, _) in enumerate(card.keywords):
            if name not in catalog.keywords:
                problems.append(_raw_problem(card.source, ["keywords", i],
                                             f"unknown keyword {name!r}{did_you_mean(name, keyword_names)}"))
        for node in _walk(raw.get("abilities", [])):
            kw = None
            if node.get("type") in ("grant_keyword",) or (node.get("type") == "keyword" and "keyword" in node):
                kw = node.get("keyword")
            if kw is not None and keyword_id(kw) not in catalog.keywords:
                problems.append(Problem(card.source, None, None,
                                        f"unknown keyword {kw!r}{did_you_mean(keyword_id(kw), keyword_names)}"))
            if node.get("type") == "create_token":
                token = str(node.get("token", "")).lower()
                if token not in catalog.tokens:
                    problems.append(Problem(card.source, None, None,
                                            f"unknown token {node.get('token')!r}{did_you_mean(token, token_names)}"))
    return problems


def _raw_problem(source: str, path: list[str | int], message: str) -> Problem:
    try:
        text = Path(source).read_text(encoding="utf-8")
        pos = yamlio.locate(text, path)
    except OSError:
        pos = None
    return Problem(source, pos[0] if pos else None, pos[1] if pos else None, message, _dotted(path))
