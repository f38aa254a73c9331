"""Loading card sets, keywords and decks: safe YAML, schema checks, integrity, compilation.

Every problem in every file is collected in one run and reported as
``file:line:col: message (json path)``.
"""
from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from . import cardrefs, yamlio
from .validated_cache import ValidationCache
from .cards import Ability, CardDef, Json, card_facts, created_abilities
from ..errors import PluginError, Problem, ScriptError
from ..engine.effects import add_words
from .registry import (DISABLE_ENV, WORD_KINDS, EffectType, KeywordSource, LanguageWord, Plugins, PluginWarning,
                       SetSpec, load_plugins)
from .schema import SchemaProblem, Schemas, builtin_effect_names
from .suggest import closest
from ..version import ENGINE_VERSION, SCHEMA_VERSION

JsonPath = yamlio.JsonPath
Reference = tuple[JsonPath, str, str]
MAX_PROBLEMS_PER_FILE = 50


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
    printed_last: bool = False  # its line comes after the card's other text (the renderer reads it)


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
class SkippedSet:
    """An installed set plugin left out as a whole: why, where, and every problem of its files."""

    code: str
    plugin: str
    manifest: Path
    reason: str
    file: str
    problems: list[Problem] = field(default_factory=list)
    cards: set[str] = field(default_factory=set)
    decks: set[str] = field(default_factory=set)

    @property
    def warning(self) -> str:
        fix = f"{DISABLE_ENV}={self.plugin}" if self.plugin else f"removing {self.manifest}"
        return (f"skipping set plugin {self.plugin or '?'} ({self.manifest}): {self.reason} ({self.file}); "
                f"fix it, or switch the plugin off with {fix}")


@dataclass
class Catalog:
    """Everything installed: cards by code, tokens by name, keywords, sets, decks, effect types;
    ``skipped``: set plugins left out because one of their files is broken (by set code)."""

    cards: dict[str, CardDef] = field(default_factory=dict)
    tokens: dict[str, CardDef] = field(default_factory=dict)
    keywords: dict[str, KeywordDef] = field(default_factory=dict)
    sets: dict[str, SetInfo] = field(default_factory=dict)
    decks: dict[str, tuple[Json, str]] = field(default_factory=dict)
    effect_types: dict[str, EffectType] = field(default_factory=dict)
    words: list[LanguageWord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    plugins: Plugins | None = None
    schemas: Schemas | None = None
    files: int = 0
    skipped: dict[str, SkippedSet] = field(default_factory=dict)

    def all_problems(self) -> list[Problem]:
        """The problems of everything loaded and of the set plugins left out."""
        return self.problems + [p for skipped in self.skipped.values() for p in skipped.problems]

    def card(self, code: str) -> CardDef:
        """The compiled card with this code (KeyError if unknown)."""
        return self.cards[code]

    def by_name(self, name: str) -> CardDef | None:
        """The card with this name, case-insensitive, or None."""
        wanted = name.lower()
        for card in self.cards.values():
            if card.name.lower() == wanted:
                return card
        return None

    def raise_for_problems(self) -> None:
        """Raise ScriptError listing every problem found while loading, if there is one."""
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
    if "keyword" in data and "rule" in data:
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


def _walk(node: Any) -> Iterable[Json]:
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            yield cur
            stack.extend(cur.values())
        elif isinstance(cur, list):
            stack.extend(cur)


def _own_nodes(node: Any) -> Iterable[Json]:
    """Every mapping of an ability's script but those inside the abilities it creates."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            yield cur
            skip = created_abilities(cur)
            stack.extend(v for k, v in cur.items() if k not in skip)
        elif isinstance(cur, list):
            stack.extend(cur)


def keyword_id(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


class Compiler:
    """Turns validated card data into CardDefs, expanding keywords into abilities.

    Whether an ability may ask a player while it resolves (``Ability.decides``: it then resolves
    guarded, from a snapshot) is read from what the language declares: ``EffectType.decides`` of
    each primitive it uses, selections chosen on resolution, and the player references and
    destinations whose handlers may ask (``Table.asks`` in ``core/engine/effects.py``)."""

    def __init__(self, keywords: dict[str, KeywordDef], effect_types: dict[str, EffectType] | None = None) -> None:
        self.keywords = keywords
        self.effect_types = effect_types or {}

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
                if kw.parameter_kind == "cost" and isinstance(value, dict):
                    body = _with_cost(body, value)
                abilities.append(self._ability(body, len(abilities), name, value))
            if kw.additional_cost is not None:
                extra = {"kind": "additional_cost", **kw.additional_cost}
                if kw.parameter_kind == "cost" and isinstance(value, dict):
                    extra["cost"] = value
                taken = {a.body.get("name") for a in abilities if a.kind == "additional_cost"}
                if extra.get("name") in taken:
                    # several instances of one cost keyword are separate costs (820: "[Repeat] {1} / {A}"):
                    # the second is named repeat_2, the third repeat_3
                    extra["name"] = next(f"{extra['name']}_{n}" for n in range(2, 99) if f"{extra['name']}_{n}" not in taken)
                abilities.append(self._ability(extra, len(abilities), name, value))
        cost = data.get("cost", {})
        domains = tuple(data.get("domains", []))
        power = tuple(cost.get("power", []))
        return CardDef(
            code=data["code"], name=data["name"], type=data["type"], set_code=set_code,
            supertype=data.get("supertype"), domains=domains,
            energy=int(cost.get("energy", 0)), power=power,
            might=int(data.get("might", 0)), might_bonus=int(data.get("might_bonus", 0)),
            tags=tuple(data.get("tags", [])), champion_tag=data.get("champion_tag"),
            equipment=bool(data.get("equipment", False)),
            token=bool(data.get("token", False) or data.get("supertype") == "token"),
            keywords=tuple(keywords), abilities=tuple(abilities), source=source, raw=data,
            facts=card_facts(tuple(abilities), power, domains, self._has_cost_keyword),
        )

    def _has_cost_keyword(self, name: str) -> bool:
        """Whether a keyword (as a modifier names it) brings an additional cost ([Accelerate], [Repeat])."""
        kw = self.keywords.get(str(name).lower().replace("-", "_"))
        return kw is not None and kw.additional_cost is not None

    def _ability(self, body: Json, index: int, keyword: str | None, value: Any) -> Ability:
        body = _number_targets(body)
        slots = sum(1 for node in _own_nodes(body) if node.get("pick") == "target")
        decides = any(self._decides(node) for node in _walk(body.get("effect") or body.get("instead") or {})) \
            or bool(body.get("optional"))
        event = body["when"]["event"] if body.get("kind") == "triggered" else None
        if body.get("kind") == "replacement":
            event = body["replaces"]["event"]
        return Ability(kind=body["kind"], index=index, body=body, keyword=keyword, keyword_value=value,
                       event=event, target_slots=slots, decides=decides)


    def _decides(self, node: Json) -> bool:
        """Whether resolving this node may ask a player."""
        from ..engine.effects import PLAYERS

        etype = self.effect_types.get(node.get("type", "")) if "type" in node else None
        return bool(
            (etype is not None and etype.decides) or node.get("pick") == "choose"
            or node.get("split") or node.get("new_choices")
            or _chosen_location(node.get("to")) or _chosen_location(node.get("at"))
            or any(isinstance(node.get(key), str) and node[key] in PLAYERS.asks for key in PLAYER_KEYS)
            or (node.get("type") == "add" and "own" in node.get("power", []))
            or (node.get("type") == "create_token" and "at" not in node))


# the fields that hold player references (``PLAYERS`` in core/engine/effects.py)
PLAYER_KEYS = ("player", "chooser", "who")


def _chosen_location(spec: Any) -> bool:
    from ..engine.effects import PLACES

    return isinstance(spec, str) and spec in PLACES.asks


def _with_cost(body: Json, cost: Json) -> Json:
    """A cost keyword's parameter is the cost its script's costs stand for: an activated ability's
    ("[Equip] {1}"), and that of a static's modifiers that carry one (a ``play_from`` cost)."""
    if body.get("kind") == "activated":
        return {**body, "cost": cost}
    if body.get("kind") == "static":
        return {**body, "modifiers": [{**m, "cost": cost} if "cost" in m else m for m in body["modifiers"]]}
    return body


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
            if node.get("type") == "move" and _chosen_location(node.get("to")):
                # Move destinations are chosen as the card is played (Patch Notes, Oct 2025)
                where = {"location": "battlefield"} if node["to"] == "choose_battlefield" else {}
                target = visit(node["target"])
                dest: dict[str, Any] = {"pick": "target", "what": "location", "where": where}
                if isinstance(target, dict) and "_slot" in target:
                    dest["_move_of"] = target["_slot"]
                rest = {k: visit(v) for k, v in node.items() if k not in ("target", "to")}
                dest["_slot"] = counter[0]
                counter[0] += 1
                return {**rest, "target": target, "to": dest}
            skip = created_abilities(node)  # numbered when the created ability is compiled (lasting_ability)
            out = {k: (v if k in skip else visit(v)) for k, v in node.items()}
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
        status=bool(data.get("status", False)), source=source, printed_last=bool(data.get("printed_last", False)),
    )


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


@dataclass
class _Run:
    """State of one load: the catalog being filled and every document read for it."""

    catalog: Catalog
    loader: Loader
    documents: list[Document] = field(default_factory=list)
    # the documents of installed sets: id(document) -> set code (or plugin name), and the plugin
    set_of: dict[int, tuple[str, SetSpec, str]] = field(default_factory=dict)

    def skip(self, code: str, spec: SetSpec, plugin: str, reason: str, file: str | Path,
             problems: list[Problem] = ()) -> SkippedSet:  # type: ignore[assignment]
        """Leave an installed set out as a whole (the first reason is the one reported)."""
        skipped = self.catalog.skipped.get(code)
        if skipped is None:
            skipped = self.catalog.skipped[code] = SkippedSet(code, plugin, spec.manifest, reason, str(file))
        skipped.problems.extend(problems)
        return skipped

    def read(self, path: Path, kind: str | None = None) -> Document:
        doc = self.loader.document(path, kind)
        self.documents.append(doc)
        self.catalog.files += 1
        return doc


def _collect(plugins: Plugins | None, hook: str, record: type[Any]) -> list[tuple[Any, str]]:
    """Every record a hook returns, with the name of the plugin that returned it.

    Calls each implementation itself (in pluggy's order) instead of ``pm.hook.NAME()``, so that
    a plugin whose hook raises or returns something else than a list of ``record`` is skipped
    with a warning naming it and the cause, and conflicts can name the plugins involved.
    """
    if plugins is None:
        return []
    out: list[tuple[Any, str]] = []
    for impl in reversed(getattr(plugins.pm.hook, hook).get_hookimpls()):
        try:
            records = list(impl.function())
            bad = [r for r in records if not isinstance(r, record)]
            if bad:
                raise TypeError(f"expected {record.__name__} records, got {type(bad[0]).__name__}")
        except Exception as exc:  # a broken plugin must not stop the others
            warnings.warn(f"skipping {hook} of plugin {impl.plugin_name}: {type(exc).__name__}: {exc}",
                          PluginWarning, stacklevel=3)
            continue
        out.extend((r, impl.plugin_name) for r in records)
    return out


def load_catalog(plugins: Plugins | None = None, extra_cards: Iterable[Path] = (),
                 strict: bool = True, cache: ValidationCache | bool | None = None) -> Catalog:
    """Load every installed plugin's keywords, effect primitives and sets, plus ``extra_cards``.

    ``extra_cards`` are files or folders of any script kind (cards, keywords, set manifests,
    decks) — what ``riftscript validate PATH`` checks.  They are checked against the installed
    engine: a card, keyword or set there replaces an installed one with the same code or name
    (so a working copy of an installed set can be validated), while duplicates among them are
    problems.  With ``strict`` any problem raises ScriptError; otherwise problems are kept in
    ``catalog.problems`` for reporting.  ``cache``: None uses the default validation cache
    (see :mod:`.cache`), False none, or a given :class:`ValidationCache`.
    """
    plugins = plugins or load_plugins()
    catalog = Catalog(plugins=plugins)
    owners: dict[str, str] = {}
    builtin = set(builtin_effect_names())
    for etype, plugin in _collect(plugins, "riftscript_effect_types", EffectType):
        if etype.name in catalog.effect_types:
            raise PluginError(f"effect type {etype.name!r} is registered by two plugins: "
                              f"{owners[etype.name]} and {plugin}")
        if etype.schema is not None and etype.name in builtin:
            raise PluginError(f"plugin {plugin} registers effect type {etype.name!r} with its own schema, "
                              f"but that is a built-in effect of the script language")
        owners[etype.name] = plugin
        catalog.effect_types[etype.name] = etype
    words = _language_words(plugins)
    catalog.words = words
    schemas = Schemas(((e.name, e.schema) for e in catalog.effect_types.values() if e.schema is not None),
                      ((w.kind, w.name, w.schema) for w in words))
    catalog.schemas = schemas
    store = ValidationCache.open(schemas) if cache is None or cache is True else (cache or None)
    run = _Run(catalog, Loader(schemas, store))

    extra = [run.read(f) for path in extra_cards for f in script_files(Path(path))]
    _load_keywords(run, extra)
    compiler = Compiler(catalog.keywords, catalog.effect_types)
    _load_sets(run, compiler, extra)
    _load_extra(run, compiler, extra)
    _report(run)
    if store is not None:
        store.save()
    if strict:
        catalog.raise_for_problems()
    return catalog


def _language_words(plugins: Plugins) -> list[LanguageWord]:
    """The plugins' words of the script language, registered in the language's tables."""
    words: list[LanguageWord] = []
    for word, plugin in _collect(plugins, "riftscript_language", LanguageWord):
        if word.kind not in WORD_KINDS:
            raise PluginError(f"plugin {plugin} adds a word {word.name!r} of kind {word.kind!r}; "
                              f"the kinds are {', '.join(WORD_KINDS)}")
        words.append(replace(word, plugin=word.plugin or plugin))
    add_words(words)
    return words


def _load_keywords(run: _Run, extra: list[Document]) -> None:
    """Installed keywords, then those given as paths (which replace installed ones of that name)."""
    catalog = run.catalog
    overriding = {doc.data["keyword"] for doc in extra if doc.kind == "keyword" and doc.data}
    for source, _ in _collect(catalog.plugins, "riftscript_keywords", KeywordSource):
        for file in script_files(source.path):
            doc = run.read(file, "keyword")
            if doc.data is not None and doc.data["keyword"] not in overriding:
                _add_keyword(doc, doc.data, catalog)
    for doc in extra:
        if doc.kind == "keyword" and doc.data is not None:
            _add_keyword(doc, doc.data, catalog)


def _add_keyword(doc: Document, data: Json, catalog: Catalog) -> None:
    known = catalog.keywords.get(data["keyword"])
    if known is not None:
        doc.problems.append(doc.problem(["keyword"], f"keyword {data['keyword']!r} is also defined in {known.source}"))
        return
    catalog.keywords[data["keyword"]] = _keyword_def(data, str(doc.file))


def _check_requirements(doc: Document, data: Json) -> bool:
    """Is the set written for this engine?  If not, the manifest gets a problem saying why."""
    req = data["requires"]
    code = data["code"]
    message = None
    where: JsonPath = ["requires"]
    if not version_satisfies(ENGINE_VERSION, req["engine"]):
        message = f"set {code} needs engine {req['engine']}, but this is RiftScript {ENGINE_VERSION}"
        where = ["requires", "engine"]
    elif req["schema_version"] != SCHEMA_VERSION:
        message = (f"set {code} is written for script schema version {req['schema_version']}, "
                   f"but this engine reads version {SCHEMA_VERSION}")
        where = ["requires", "schema_version"]
    if message is None:
        return True
    doc.problems.append(doc.problem(where, message))
    return False


def _load_sets(run: _Run, compiler: Compiler, extra: list[Document]) -> None:
    catalog = run.catalog
    plugins = catalog.plugins
    shadow_sets = {doc.data["code"] for doc in extra if doc.kind == "set" and doc.data}
    shadow_cards = {doc.data["code"] for doc in extra if doc.kind == "card" and doc.data}
    origin: dict[str, str] = {}
    # the built-in sets first: a third-party set repeating one of their codes is the one left out
    collected = _collect(plugins, "riftscript_sets", SetSpec)
    for spec, plugin in sorted(collected, key=lambda found: not _builtin(plugins, found[1])):
        manifest = run.read(spec.manifest, "set")
        data = manifest.data
        code = data["code"] if data is not None else plugin
        run.set_of[id(manifest)] = (code, spec, plugin)
        if data is None:
            continue  # its problems leave the set out (_drop_broken_sets)
        if code in shadow_sets:
            continue
        blocked = False  # left out before its cards are read: they are read for the report only
        if code in catalog.sets:
            other = catalog.sets[code]
            reason = f"set code {code} is also shipped by plugin {other.plugin} ({other.spec.manifest})"
            code = code + "@" + plugin
            run.set_of[id(manifest)] = (code, spec, plugin)
            run.skip(code, spec, plugin, reason, spec.manifest, [manifest.problem(["code"], reason)])
            blocked = True
        elif not _check_requirements(manifest, data):
            run.skip(code, spec, plugin, manifest.problems[-1].message, spec.manifest)
            blocked = True
        info = SetInfo(code, data["name"], data["version"], plugin, data, spec)
        if not blocked:
            catalog.sets[code] = info
        folders = [(spec.cards, info)] + ([(spec.tokens, None)] if spec.tokens is not None else [])
        for folder, counted in folders:
            for file in script_files(folder):
                doc = run.read(file, "card")
                run.set_of[id(doc)] = (code, spec, plugin)
                card = doc.data
                if card is None or blocked:
                    continue
                if card["code"] in origin:
                    reason = f"card code {card['code']} is also defined in {origin[card['code']]}"
                    doc.problems.append(doc.problem(["code"], reason))
                    continue
                origin[card["code"]] = str(file)
                if counted is None and not card.get("token"):
                    doc.problems.append(doc.problem(["token"], "a set's tokens folder holds only tokens (token: true)"))
                elif card["code"] not in shadow_cards:
                    _add_card(run, compiler, doc, card, code, counted)
        if spec.decks is not None:
            for file in script_files(spec.decks):
                doc = run.read(file, "deck")
                run.set_of[id(doc)] = (code, spec, plugin)
                deck = doc.data
                if deck is not None and not blocked:
                    catalog.decks[deck["name"]] = (deck, str(file))


def _builtin(plugins: Plugins | None, name: str) -> bool:
    module = plugins.pm.get_plugin(name) if plugins is not None else None
    return getattr(module, "__name__", "").startswith("riftscript.")


def _load_extra(run: _Run, compiler: Compiler, extra: list[Document]) -> None:
    catalog = run.catalog
    for doc in extra:
        data = doc.data
        if doc.kind == "set" and data is not None:
            if data["code"] in catalog.sets:
                doc.problems.append(doc.problem(["code"], f"set code {data['code']} is also used by "
                                                          f"{catalog.sets[data['code']].spec.manifest}"))
            elif _check_requirements(doc, data):
                spec = SetSpec(manifest=doc.file, cards=doc.file.parent)
                catalog.sets[data["code"]] = SetInfo(data["code"], data["name"], data["version"], "", data, spec)
    seen: dict[str, Document] = {}
    for doc in extra:
        data = doc.data
        if doc.kind == "card":
            if data is None:
                continue
            code = data["code"]
            if code in seen:
                doc.problems.append(doc.problem(["code"], f"card code {code} is also defined in {seen[code].file}"))
                continue
            seen[code] = doc
            catalog.cards.pop(code, None)
            set_code = code.split("-")[0]
            _add_card(run, compiler, doc, data, set_code, catalog.sets.get(set_code))
        elif doc.kind == "deck" and data is not None:
            catalog.decks[data["name"]] = (data, str(doc.file))


def _add_card(run: _Run, compiler: Compiler, doc: Document, data: Json, set_code: str,
              info: SetInfo | None) -> None:
    catalog = run.catalog
    try:
        card = compiler.compile(data, set_code, str(doc.file))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        doc.problems.append(Problem(str(doc.file), None, None, f"cannot compile this card: {type(exc).__name__}: {exc}"))
        return
    catalog.cards[card.code] = card
    if card.token:
        catalog.tokens.setdefault(card.name.lower(), card)
    if info is not None and card.code not in info.cards:
        info.cards.append(card.code)


def _report(run: _Run) -> None:
    """Check references across files, then turn every document's findings into problems; a file
    of an installed set with problems leaves its whole set out (_drop_broken_sets)."""
    broken = _broken_cards(run.documents)
    for doc in run.documents:
        _file_problems(run, doc, document_problems(run.catalog, doc, broken))
    _drop_broken_sets(run)


def _file_problems(run: _Run, doc: Document, problems: list[Problem]) -> None:
    owner = run.set_of.get(id(doc))
    if owner is None or not problems:
        run.catalog.problems.extend(problems)
        return
    code, spec, plugin = owner
    first = problems[0]
    run.skip(code, spec, plugin, f"{first.message}" + (f" ({first.path})" if first.path else ""), doc.file,
             problems)


def _drop_broken_sets(run: _Run) -> None:
    """Take every card and deck of a skipped set out of the catalog, and say so once per set."""
    catalog = run.catalog
    for key, skipped in catalog.skipped.items():
        for doc in run.documents:
            owner = run.set_of.get(id(doc))
            if owner is None or owner[0] != key or not isinstance(doc.raw, dict):
                continue
            code = doc.raw.get("code") if doc.kind == "card" else None
            if isinstance(code, str):
                skipped.cards.add(code)
                card = catalog.cards.get(code)
                if card is not None and card.source == str(doc.file):
                    del catalog.cards[code]
                    if card.token and catalog.tokens.get(card.name.lower()) is card:
                        del catalog.tokens[card.name.lower()]
            name = doc.raw.get("name") if doc.kind == "deck" else None
            if isinstance(name, str):
                skipped.decks.add(name)
                if catalog.decks.get(name, (None, ""))[1] == str(doc.file):
                    del catalog.decks[name]
        info = catalog.sets.get(key)
        if info is not None and info.spec.manifest == skipped.manifest:
            del catalog.sets[key]
        warnings.warn(skipped.warning, PluginWarning, stacklevel=4)


def document_problems(catalog: Catalog, doc: Document, broken: Iterable[str] = ()) -> list[Problem]:
    """Every problem of one document read by a :class:`Loader`, with its references (keywords,
    tokens, and the cards and decks of deck and scenario files) checked against ``catalog``: what
    ``validate`` reports for that file (the web workshop checks a card typed in a browser this way).
    ``broken``: codes and names of card files that have problems of their own (not reported again)."""
    if not isinstance(doc.raw, dict):
        return doc.report()
    replaced: set[tuple[str | int, ...]] = set()
    if doc.kind == "card":
        for path, message, at_key in keyword_use_problems(doc.raw.get("keywords"), catalog.keywords):
            doc.problems.append(doc.problem(path, message, at_key=at_key))
            replaced.update((tuple(path), tuple(path[:2])))  # the schema's generic message there
    if doc.kind in ("card", "keyword"):
        refs = doc.refs if doc.refs is not None else references(doc.raw)
        for path, message in reference_problems(refs, catalog.keywords, catalog.tokens):
            doc.problems.append(doc.problem(path, message))
    if doc.kind in ("deck", "scenario"):
        for ref, message in cardrefs.problems(cardrefs.references(doc.kind, doc.raw), catalog.cards,
                                              catalog.decks, broken):
            doc.problems.append(doc.problem(ref.path, message, at_key=ref.at_key))
            replaced.add(tuple(ref.path))  # a mistyped code: this message, with its hint, replaces the schema's
    return doc.report(replaced)


def _broken_cards(documents: list[Document]) -> set[str]:
    """Codes and names of card files that failed their own checks: references to them are not
    reported again as unknown cards."""
    out: set[str] = set()
    for doc in documents:
        if doc.kind == "card" and not doc.valid and isinstance(doc.raw, dict):
            out.update(str(doc.raw[key]) for key in ("code", "name") if isinstance(doc.raw.get(key), str))
    return out


KEYWORD_NAME = re.compile(r"^[A-Za-z][A-Za-z-]{0,30}$")


def _keyword_hint(name: str, keywords: dict[str, KeywordDef]) -> str:
    """A hint written the way the user writes keywords: 'shield' for 'shiled', 'Shield' for 'Shiled'."""
    match = closest(keyword_id(name), keywords)
    if match is None:
        return ""
    return f"; did you mean {match if name.islower() else keywords[match].name!r}?"


def keyword_use_problems(uses: Any, keywords: dict[str, KeywordDef]) -> list[tuple[JsonPath, str, bool]]:
    """Problems of a card's ``keywords:`` list as (path, message, at key): unknown names and
    parameters that do not fit the keyword (``Assault: many``, ``Tank: 2``, a bare Deathknell)."""
    if not isinstance(uses, list):
        return []
    out: list[tuple[JsonPath, str, bool]] = []
    path: JsonPath
    for i, use in enumerate(uses):
        if isinstance(use, str):
            name, value, has_value, path = use, None, False, ["keywords", i]
        elif isinstance(use, dict) and len(use) == 1 and isinstance(next(iter(use)), str):
            ((name, value),) = use.items()
            has_value, path = True, ["keywords", i, name]
        elif isinstance(use, dict) and use:
            out.append((["keywords", i], f"write one keyword per list item (found {len(use)}: "
                                         f"{', '.join(map(str, use))})", False))
            continue
        else:
            out.append((["keywords", i], f"{_short(use)} is not a keyword; write a name (Tank) or a name "
                                         f"with its parameter (Assault: 2)", False))
            continue
        kw = keywords.get(keyword_id(name))
        if kw is None:
            out.append((path, f"unknown keyword {name!r}{_keyword_hint(name, keywords)}", has_value))
            continue
        if not KEYWORD_NAME.match(name):
            out.append((path, f"write keyword {name!r} as {kw.name!r}", has_value))
            continue
        message = _parameter_problem(kw, value, has_value)
        if message:
            out.append((path, message, False))
    return out


def _parameter_problem(kw: KeywordDef, value: Any, has_value: bool) -> str | None:
    kind = kw.parameter_kind
    example = {"number": f"'{kw.name}: 2'", "effect": f"'{kw.name}: {{type: draw, amount: 1}}'",
               "cost": f"'{kw.name}: {{energy: 1}}'"}.get(kind or "", "")
    if not has_value:
        if kind in ("effect", "cost"):
            return f"{kw.name} needs {'an effect' if kind == 'effect' else 'a cost'}, e.g. {example}"
        return None
    if kind is None:
        return f"{kw.name} takes no parameter; write just '{kw.name}'"
    if kind == "number" and not (type(value) is int and 0 <= value <= 99):
        return f"{kw.name} takes a number from 0 to 99, e.g. {example}, not {_short(value)}"
    if kind in ("effect", "cost") and not isinstance(value, dict):
        return f"{kw.name} takes {'an effect' if kind == 'effect' else 'a cost'}, e.g. {example}, not {_short(value)}"
    return None


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


def reference_problems(refs: list[Reference], keywords: dict[str, KeywordDef],
                       tokens: dict[str, CardDef]) -> list[tuple[JsonPath, str]]:
    """The references that name no installed keyword or token, with 'did you mean' hints."""
    out: list[tuple[JsonPath, str]] = []
    for path, what, name in refs:
        if what == "keyword":
            if keyword_id(name) not in keywords:
                out.append((path, f"unknown keyword {name!r}{_keyword_hint(name, keywords)}"))
        elif name.lower() not in tokens:
            match = closest(name.lower(), tokens)
            hint = f"; did you mean {tokens[match].name!r}?" if match else ""
            known = "" if tokens else " (no token cards are installed)"
            out.append((path, f"unknown token {name!r}{hint}{known}"))
    return out


def check_integrity(catalog: Catalog) -> list[Problem]:
    """Every keyword and token the loaded cards refer to exists (with a 'did you mean' hint)."""
    problems: list[Problem] = []
    for card in catalog.cards.values():
        doc = Document(Path(card.source), "card", card.raw, valid=True)
        for path, message, at_key in keyword_use_problems(card.raw.get("keywords"), catalog.keywords):
            problems.append(doc.problem(path, message, at_key=at_key))
        for path, message in reference_problems(references(card.raw), catalog.keywords, catalog.tokens):
            problems.append(doc.problem(path, message))
    return problems
