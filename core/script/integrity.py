"""Integrity checks of loaded scripts: what a file refers to (keywords, tokens, cards, decks) exists,
keyword uses have the parameters their definitions ask for, and a card broken in its own file is
reported there once rather than at every reference to it.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from . import cardrefs
from ..errors import Problem
from .cards import CardDef, KeywordDef
from .compiler import keyword_id
from .loader import Document, JsonPath, Reference, references
from .suggest import closest

if TYPE_CHECKING:
    from .catalog import Catalog


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
        if doc.valid:
            for path, message in modifier_problems(doc.raw, plugin_hooks(catalog)):
                doc.problems.append(doc.problem(path, message))
    if doc.kind in ("deck", "scenario"):
        for ref, message in cardrefs.problems(cardrefs.references(doc.kind, doc.raw), catalog.cards,
                                              catalog.decks, broken):
            doc.problems.append(doc.problem(ref.path, message, at_key=ref.at_key))
            replaced.add(tuple(ref.path))  # a mistyped code: this message, with its hint, replaces the schema's
    return doc.report(replaced)


def broken_cards(documents: list[Document]) -> set[str]:
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


# The kernel hooks: the names a ``hook`` modifier may give that the engine reads (schemas/README.md, "Kernel
# hooks", says what each does and where it is read).  A set's plugin reads hooks of its own, registered as
# language words of kind ``hook``; a hook named by neither would do nothing, so scripts naming one are refused
# (``modifier_problems``).
NUMBER = "number"  # a whole number, or an amount worked out from the script ({type: variable, ...})
TEXT = "text"  # a name: a tag, a keyword, event names
KERNEL_HOOKS: dict[str, tuple[Any, ...] | str] = {
    "timing": ("action", "reaction"), "damage_assignment": ("first", "last"),
    "ignore_damage_assignment": ("first", "last"), "standard_move": ("battlefield_to_battlefield",),
    "targeting_tax": NUMBER, "ignore_targeting_tax": (True,), "hide": (True,),
    "reaction_when_played_to": ("battlefield_with_own_units",), "stays_at_battlefield": (True,),
    "extra_might_loss": NUMBER, "channel_limit": NUMBER, "moved_by": ("friendly_only",),
    "cant_be_countered": (True, "controller"), "cant_be_played": (True,), "extra_hidden_cards": NUMBER,
    "add_energy": NUMBER, "tag": TEXT, "equipment_bonus_times": NUMBER, "look_before_reveal": (True,),
    "add_when_revealed": NUMBER, "combat_damage": ("none",), "chosen_by": ("friendly_only",), "event_alias": TEXT,
    "any_damage_lethal": (True,), "keyword_doesnt_trigger": TEXT, "move_here_from": ("anywhere",),
    "move_tax": NUMBER, "named_tag": TEXT}


def _hook_value_problem(hook: str, value: Any) -> str | None:
    """What is wrong with a kernel hook's value (the kernel compares it with the values it knows)."""
    wanted = KERNEL_HOOKS[hook]
    if wanted == NUMBER:
        ok = (isinstance(value, int) and not isinstance(value, bool) and value >= 0) or isinstance(value, dict)
        return None if ok else f"the hook {hook!r} takes a number, not {value!r}"
    if wanted == TEXT:
        return None if isinstance(value, str) and value.strip() else f"the hook {hook!r} takes a name, not {value!r}"
    if any(value is v if isinstance(v, bool) else value == v for v in wanted):
        return None
    shown = " or ".join("true" if v is True else str(v) for v in wanted)
    return f"the hook {hook!r} takes {shown}, not {value!r}"

# Where the rules engine reads each kind of static modifier (a kind the schema allows anywhere a static's
# modifiers go).  A modifier placed where the engine never reads it would make a card that silently does
# nothing, so such a placement is refused with its reason; ``tests/test_modifier_placement.py`` makes every
# kind of the schema appear in one of these tables or in none on purpose.
#
# The kinds a created effect (``create_effect``'s ``static``: a lasting effect, 6xx "this turn ...") may carry:
# characteristics (layers._modifiers_for), costs (payment.cost_modifiers, play_from_cost), restrictions
# (layers.lasting_restrictions), granted abilities, facedown cards shown, Hidden's cost (hide.hide_cost),
# bonus damage and damage multiplied (verbs).
LASTING_MODIFIERS = frozenset({
    "might", "keyword", "hook", "buff_bonus", "prevent_damage", "enter_ready", "cost", "restriction",
    "play_from", "grant_ability", "show_facedown", "hide_cost", "bonus_damage", "damage_taken"})
# The kinds read only from a static ability of a card in play or in its own zone: player-level effects the
# engine gathers from the statics in force (victory score, extra triggers, ability costs, optional cost
# discounts, where cards may be played, copied text).
STATIC_ONLY_MODIFIERS = frozenset({
    "abilities_of", "ability_cost", "buff_limit", "copy_text", "enter_exhausted", "extra_trigger",
    "optional_cost_discount", "play_location", "victory_score"})
# The kinds read only from the card's own static abilities, so their ``affects`` must be the card itself:
# borrowed abilities (activation), how many buffs it may have (verbs.buff), a gear entering exhausted.
OWN_ONLY_MODIFIERS = frozenset({"abilities_of", "buff_limit", "enter_exhausted"})


def plugin_hooks(catalog: Catalog) -> frozenset[str]:
    """The hook names the installed plugins' own code reads (language words of kind ``hook``)."""
    return frozenset(word.name for word in catalog.words if word.kind == "hook")


def modifier_problems(raw: Any, plugin_hooks: frozenset[str] = frozenset()) -> list[tuple[JsonPath, str]]:
    """What a card or keyword script says that the engine would never read: a hook no one reads (neither the
    kernel, ``KERNEL_HOOKS``, nor an installed plugin), a player-level modifier in a created (lasting) effect,
    a modifier read from the card's own text only in a static affecting other objects, or a trigger of the card
    itself listening to 'the chosen player' (only a created trigger has one)."""
    out: list[tuple[JsonPath, str]] = []
    known_hooks = set(KERNEL_HOOKS) | plugin_hooks

    def visit(node: Any, path: JsonPath) -> None:
        if isinstance(node, list):
            for i, item in enumerate(node):
                visit(item, path + [i])
            return
        if not isinstance(node, dict):
            return
        if node.get("type") == "hook" and isinstance(node.get("hook"), str) and node["hook"] not in known_hooks:
            match = closest(node["hook"], known_hooks)
            hint = f"; did you mean {match!r}?" if match else ""
            out.append((path + ["hook"], f"unknown hook {node['hook']!r}{hint} (the kernel hooks are listed in "
                                         f"schemas/README.md; a plugin's own are its language words of kind 'hook')"))
        elif node.get("type") == "hook" and node.get("hook") in KERNEL_HOOKS and "value" in node:
            problem = _hook_value_problem(str(node["hook"]), node["value"])
            if problem:
                out.append((path + ["value"], problem))
        if node.get("type") == "create_effect" and isinstance(node.get("static"), dict):
            for i, mod in enumerate(node["static"].get("modifiers") or ()):
                kind = mod.get("type") if isinstance(mod, dict) else None
                if kind in STATIC_ONLY_MODIFIERS:
                    out.append((path + ["static", "modifiers", i, "type"],
                                f"a created effect can't carry the modifier {kind!r}: the engine reads it only "
                                f"from a static ability of a card (kinds a created effect may carry: "
                                f"{', '.join(sorted(LASTING_MODIFIERS))})"))
        when = node.get("when")
        if node.get("kind") == "triggered" and isinstance(when, dict) and when.get("player") == "chosen":
            out.append((path + ["when", "player"], "'player: chosen' is for a trigger a create_effect makes (the "
                                                   "player chosen as it was created); an ability of a card has none"))
        if node.get("kind") == "static" and node.get("affects", "self") != "self":
            for i, mod in enumerate(node.get("modifiers") or ()):
                kind = mod.get("type") if isinstance(mod, dict) else None
                if kind in OWN_ONLY_MODIFIERS:
                    out.append((path + ["modifiers", i, "type"],
                                f"the modifier {kind!r} applies only to the card whose ability it is: "
                                f"this static affects other objects (write it without 'affects')"))
        for key, value in node.items():
            if key != "mutation":
                visit(value, path + [key])

    visit(raw, [])
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
        for path, message in modifier_problems(card.raw, plugin_hooks(catalog)):
            problems.append(doc.problem(path, message))
    return problems
