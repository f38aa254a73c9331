"""Loading card sets, keywords and decks into a ``Catalog``: the plugins' sets and words, then every
file read (``loader``), compiled (``compiler``) and checked (``integrity``), in one run.

Every problem in every file is collected in one run and reported as
``file:line:col: message (json path)``.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from . import yamlio
from .validated_cache import ValidationCache
from .cards import CardDef, Json, KeywordDef
from .compiler import Compiler
from .integrity import broken_cards, document_problems
from .loader import Document, Loader, script_files
from ..errors import PluginError, Problem, ScriptError
from ..engine.effects import add_words
from .registry import (DISABLE_ENV, WORD_KINDS, EffectType, KeywordSource, LanguageWord, Plugins, PluginWarning,
                       SetSpec)
from .discovery import load_plugins
from .schema import Schemas, builtin_effect_names
from ..version import ENGINE_VERSION, SCHEMA_VERSION

JsonPath = yamlio.JsonPath


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
    # (set code, token name) -> the set's own token of that name, worked out on the first ``token`` call
    # from ``cards`` (not a constructor argument, so ``dataclasses.replace`` starts it afresh)
    _set_tokens: dict[tuple[str, str], CardDef] | None = field(default=None, init=False, repr=False, compare=False)
    # (``cards`` and its size when made, name -> the first card of that name in ``cards`` order): for
    # ``first_named``, which checks it is still right for the names asked (a deck is checked every game)
    _first_named: tuple[dict[str, CardDef], int, dict[str, CardDef]] | None = field(
        default=None, init=False, repr=False, compare=False)
    # core/script/decks.py's memos, for decks read and checked every game: an installed deck's file as
    # read (by name: the file's data, the deck) and the decks found legal (the deck -> which ``cards`` and
    # ``keywords``, and the cards it was found legal with); each says what makes it stale
    _decks_read: dict[str, tuple[Json, Any]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _legal_decks: dict[Any, tuple[dict[str, CardDef], int, dict[str, KeywordDef], int, tuple[CardDef, ...]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    # what ``compiled_abilities`` gives every game: the keywords and effect types it was made for (and
    # their sizes), and the two dicts
    _compiled_abilities: tuple[dict[str, KeywordDef], int, dict[str, EffectType], int, dict[Any, Any],
                               dict[Any, Any]] | None = field(default=None, init=False, repr=False, compare=False)

    def token(self, name: str, set_code: str | None = None) -> CardDef | None:
        """The token with this name (case-insensitive): the set's own when ``set_code`` names a set that
        has one - a card makes its own set's token, so two sets may each ship a "Mech" - else the first
        installed (``tokens``), or None."""
        key = name.lower()
        if set_code is not None:
            if self._set_tokens is None:
                self._set_tokens = {}
                for card in self.cards.values():
                    if card.token:
                        self._set_tokens.setdefault((card.set_code, card.name.lower()), card)
            own = self._set_tokens.get((set_code, key))
            if own is not None:
                return own
        return self.tokens.get(key)

    def first_named(self, names: Iterable[str]) -> dict[str, CardDef]:
        """The first installed card (in ``cards`` order) of each of these exact names that has one.  The
        name index is made once and kept while ``cards`` is the same dict of the same size and the cards
        it gives for these names are still installed under their codes; otherwise it is made anew (a card
        added, removed or replaced: tests and custom-card tools edit ``cards``)."""
        wanted = list(names)
        kept = self._first_named
        if kept is not None and kept[0] is self.cards and kept[1] == len(self.cards):
            index = kept[2]
            found = {name: index[name] for name in wanted if name in index}
            if len(found) == len(wanted) and all(self.cards.get(c.code) is c for c in found.values()):
                return found
        index = {}
        for card in self.cards.values():
            index.setdefault(card.name, card)
        self._first_named = (self.cards, len(self.cards), index)
        return {name: index[name] for name in wanted if name in index}

    def compiled_abilities(self) -> tuple[dict[Any, Any], dict[Any, Any]]:
        """Where games compile, once for every game of this catalog, the abilities they make in play from
        the catalog alone: a keyword given with a value (``Game.keyword_abilities``), a granted ability's
        script (``Game.granted_ability``).  A game starts with these dicts (``Caches``), so a keyword
        granted in one game is not compiled again in the next.  Made anew when ``keywords`` or
        ``effect_types`` is another dict or of another size (tests and custom-card tools edit them)."""
        kept = self._compiled_abilities
        if kept is None or kept[0] is not self.keywords or kept[1] != len(self.keywords) \
                or kept[2] is not self.effect_types or kept[3] != len(self.effect_types):
            kept = self._compiled_abilities = (self.keywords, len(self.keywords), self.effect_types,
                                               len(self.effect_types), {}, {})
        return kept[4], kept[5]

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


def _keyword_def(data: Json, source: str) -> KeywordDef:
    param = data.get("parameter", {})
    return KeywordDef(
        keyword=data["keyword"], name=data["name"], rule=data.get("rule", ""), summary=data.get("summary", ""),
        parameter_kind=param.get("kind"), default=param.get("default"), stacking=param.get("stacking", "add"),
        condition=data.get("condition"), deck_limit=data.get("deck_limit"),
        abilities=tuple(data.get("abilities", [])), additional_cost=data.get("additional_cost"),
        status=bool(data.get("status", False)), source=source, printed_last=bool(data.get("printed_last", False)),
    )


@dataclass
class _Run:
    """State of one load: the catalog being filled and every document read for it."""

    catalog: Catalog
    loader: Loader
    documents: list[Document] = field(default_factory=list)
    # the documents of installed sets: id(document) -> set code (or plugin name), and the plugin.
    # Keyed by id() on purpose and safely: it lives for one load only, and ``documents`` keeps every
    # document it names alive for as long, so no id is reused while it is read (no per-card cache)
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
    """Every record a hook returns, with its plugin's name (``Plugins.collect``: a broken one is skipped)."""
    return plugins.collect(hook, record) if plugins is not None else []


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
    _add_effect_types(catalog, plugins)
    words = _language_words(plugins)
    catalog.words = words
    plugins.modes()  # a broken mode or agent is reported now, with the other plugins' problems
    plugins.agents()
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


def _add_effect_types(catalog: Catalog, plugins: Plugins) -> None:
    """The plugins' effect primitives.  Conflicts are decided with the built-in plugins first: a later
    plugin repeating a name, or giving a built-in effect of the language a schema of its own, is skipped
    (``Plugins.skip``); the kept ones stay in pluggy's order, which the effect schema is built in."""
    found = plugins.collect("riftscript_effect_types", EffectType)
    builtin = set(builtin_effect_names())

    def problem(etype: EffectType, plugin: str, what: str) -> tuple[str, str] | None:
        if not isinstance(etype.name, str) or not etype.name or not callable(etype.run):
            missing = "needs a name and a run(ctx, effect) function"
            return f"it {missing}", f"plugin {plugin}: {what} {missing}"
        if etype.schema is not None and etype.name in builtin:
            return ("it gives a built-in effect of the script language a schema of its own",
                    f"plugin {plugin} registers {what} with its own schema, "
                    f"but that is a built-in effect of the script language")
        return None

    kept = plugins.keep_named(found, "effect type", problem)
    catalog.effect_types = {}
    for candidate, _ in found:  # the kept ones, in pluggy's order
        chosen = kept.get(candidate.name) if isinstance(candidate, EffectType) else None
        if chosen is not None and chosen is candidate:
            catalog.effect_types[chosen.name] = chosen


def _language_words(plugins: Plugins) -> list[LanguageWord]:
    """The plugins' words of the script language, registered in the language's tables; a word of a kind
    the language doesn't have is skipped (``Plugins.skip``)."""
    words: list[LanguageWord] = []
    for word, plugin in plugins.collect("riftscript_language", LanguageWord):
        if word.kind not in WORD_KINDS:
            plugins.skip(plugin, f"word {word.name!r}", f"its kind {word.kind!r} is none of: {', '.join(WORD_KINDS)}",
                         error=f"plugin {plugin} adds a word {word.name!r} of kind {word.kind!r}; "
                               f"the kinds are {', '.join(WORD_KINDS)}")
            continue
        word = replace(word, plugin=word.plugin or plugin)
        try:
            add_words([word])  # one at a time: a word that can't be added leaves its plugin's others in
        except PluginError as exc:
            plugins.skip(plugin, f"word {word.name!r}", str(exc), error=str(exc))
            continue
        words.append(word)
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
    for spec, plugin in plugins.builtin_first(collected) if plugins is not None else []:
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
    broken = broken_cards(run.documents)
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


