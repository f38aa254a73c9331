"""The interaction audit: which abilities can set off which, found from the scripts alone.

Card designers and rules engineers need to see combos, loops and dead text before players do,
and no one reads 300 scripts pairwise.  :func:`build_graph` turns every installed ability (card
abilities, keyword definitions, and the triggers and replacements that effects create) into a
node of a networkx ``MultiDiGraph``: an edge to every event its effect tree can cause, and from
every event it listens to.  The kernel's procedures are event sources too; their events are
found by reading their ``g.emit`` calls, so the audit follows the kernel as it changes.

:func:`audit` projects that graph onto abilities (A feeds B when A can cause an event B listens
to) and reports potential loops (strongly connected components, with short example cycles),
dead triggers, which keywords feed which, and script keys the engine never reads.
"""
from __future__ import annotations

import argparse
import ast
import itertools
import json
import re
import sys
from collections import Counter, deque
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, TextIO

from riftscript.core.cards import Json
from riftscript.core.catalog import Catalog, keyword_id, load_catalog
from riftscript.core.effects import language_keys, language_tables
from riftscript.core.errors import RiftScriptError
from riftscript.core.registry import EffectType
from riftscript.core.schema import raw_schema
from riftscript.core.suggest import did_you_mean
from riftscript.tools.argtypes import output_file, whole

if TYPE_CHECKING:
    # imported where used instead: every riftscript command imports this module to register
    # 'audit', and importing networkx takes about 0.4 s
    import networkx as nx

# Events the kernel turns into further events at once, in the same cleanup and without asking
# anyone: a contested battlefield stages and begins its showdown or combat (cleanup.py, steps
# 6-9), and a combat starting gives its units their attacker and defender designations
# (combat.refresh_designations).  Read by the effect walk, so 'move a unit to a battlefield'
# reaches 'when I attack'.
FOLLOW_UPS: dict[str, tuple[str, ...]] = {
    "contest": ("showdown_start", "combat_start"),
    "combat_start": ("attack", "defend"),
}

# What an effect that may kill (EffectType.may_kill: damage, negative Might) adds: the cleanup
# kills units with lethal damage (cleanup.py step 3 -> actions.kill).  No 'kill' event: that one
# is only for kills by a spell or ability (actions.kill).
LETHAL_EVENTS = ("die", "leave_board")

# Parameters that narrow what a primitive can do, read from the node itself: where a token,
# card or unit goes (a base is never contested, and tokens go to a base or a battlefield their
# controller already holds unless 'at' says otherwise), and Might changes that only raise.
DESTINATIONS = {"create_token": "at", "play": "at", "move": "to"}
BASES = frozenset({"base", "your_base", "its_base"})
CONTEST_EVENTS = frozenset({"contest", "showdown_start", "combat_start", "attack", "defend"})


def _can_lower_might(node: Json) -> bool:
    amount = node.get("amount")
    return bool(node.get("negative")) or (isinstance(amount, (int, float)) and amount < 0)


def _always(node: Json) -> bool:
    return True


KILLS_ONLY_IF: dict[str, Callable[[Json], bool]] = {"modify_might": _can_lower_might}

# How often the kernel can set off a trigger on one event kind (so a loop through it ends):
# attack and defend triggers fire once per unit per combat (Patch Notes, Oct 2025), a
# battlefield is conquered or held once per player per turn (472), and an object dies once.
EVENT_LIMITS = {"attack": "once per combat", "defend": "once per combat",
                "conquer": "once per battlefield each turn", "hold": "once per battlefield each turn"}
SELF_LIMITS = {"die": "once per object (it dies)", "leave_board": "once per object (it leaves)"}

# Non-resource costs and the events paying them emits (chain._pay_other, replacement._accept).
COST_EVENTS: dict[str, tuple[str, ...]] = {
    "exhaust_self": ("exhaust",), "exhaust": ("exhaust",), "discard": ("discard",),
    "recycle_from_trash": ("recycle",), "recycle_self": ("recycle", "leave_board"),
    "spend_buff": ("spend_buff",), "spend_buff_self": ("spend_buff",),
    "kill": ("die", "leave_board"), "kill_self": ("die", "leave_board"),
}

# Effects whose children a player can decline or avoid choosing ('you may', 'choose one').
OPTIONAL_EFFECTS = frozenset({"may", "choose_one"})

# The kernel procedures that are event sources, by module of riftscript.core.
KERNEL_PROCEDURES: dict[str, str] = {
    "turn": "the turn: awaken, beginning, channel, draw, end of turn, expiration",
    "chain": "playing cards, activating abilities, paying costs, resolving the chain",
    "combat": "showdowns and combat: designations, combat damage, combat cleanup",
    "scoring": "conquering and holding battlefields, points",
    "cleanup": "cleanups: lethal damage, control, staging showdowns and combats",
    "movement": "the standard move",
    "decisions": "other player actions: hiding cards, conceding",
}

# The keys of card and keyword files and of the kernel's own nodes (abilities, costs, static
# modifiers, keyword definitions), each with the module of riftscript.core or riftscript.plugins
# that reads it (tests/test_language.py checks that it does).  Everything else a script may say is
# read through the language's handler tables (core/effects.py: language_tables, language_keys) and
# by the effect primitives, each of which reads the fields its schema gives it (read_keys).
KERNEL_KEYS: dict[str, str] = {
    "schema_version": "core/catalog", "code": "core/catalog", "name": "core/catalog", "supertype": "core/catalog",
    "domains": "core/catalog", "tags": "core/catalog", "champion_tag": "core/catalog", "might_bonus": "core/catalog",
    "keywords": "core/catalog", "abilities": "core/catalog", "kind": "core/catalog",
    "effect_text": "core/layers", "when": "core/triggers", "once_per_turn": "core/triggers",
    "optional": "core/catalog", "if": "core/triggers", "only_while": "core/chain", "timing": "core/chain",
    "replaces": "core/replacement", "instead": "core/replacement", "while": "core/layers",
    "modifiers": "core/layers", "hook": "core/layers", "if_absent": "core/layers", "increase": "core/payment",
    "restriction": "core/actions", "to_units_here": "core/actions", "enter_ready": "core/actions",
    "additional_cost": "core/payment", "effect_on_cost": "core/payment", "reduce_energy": "core/payment",
    "reduce_power": "core/payment", "per_unit": "core/payment", "reduce_by_killed_cost": "core/payment",
    "exhaust_self": "core/chain", "kill_self": "core/chain", "recycle_self": "core/chain",
    "spend_buff_self": "core/chain", "spend_buff": "core/chain", "discard": "core/chain", "kill": "core/chain",
    "discard_what": "core/chain",
    "exhaust": "core/chain", "recycle_from_trash": "core/chain", "power_x": "plugins/effects",
    "less_power": "plugins/effects", "label": "plugins/effects", "ability": "core/chain",
    "parameter": "core/catalog", "default": "core/catalog", "stacking": "core/catalog", "status": "core/catalog",
    "printed_last": "tools/render",
    "deck_limit": "core/catalog", "rule": "core/catalog", "summary": "core/catalog",
    "banish_self": "core/chain", "recycle": "core/chain", "return_to_hand": "core/chain", "repeat": "core/chain",
    "before_turn": "core/scoring", "energy_x": "plugins/effects", "if_chooses": "core/payment",
    "ignore_energy": "core/payment", "or_power": "core/payment", "power_times": "core/payment",
    "xp": "core/chain", "controlled_by": "core/replacement",
}


def primitive_fields(catalog: Catalog | None = None) -> dict[str, frozenset[str]]:
    """The fields each effect primitive's schema gives it (built-in ones from effect.schema.json,
    plugin ones from their own schema fragment), documentation keys aside."""
    out: dict[str, frozenset[str]] = {}
    for branch in raw_schema("effect")["$defs"]["effect_node"]["allOf"]:
        name = branch["if"]["properties"]["type"]["const"]
        out[name] = frozenset(branch["then"].get("properties", {})) - DOCUMENTATION_KEYS - {"type"}
    if catalog is not None:
        for etype in catalog.effect_types.values():
            if etype.schema is not None:
                out[etype.name] = frozenset(etype.schema.get("properties", {})) - DOCUMENTATION_KEYS - {"type"}
    return out


def read_keys(catalog: Catalog | None = None) -> frozenset[str]:
    """Every script key the engine reads: the kernel's, the handler tables', the primitives'."""
    fields = {key for keys in primitive_fields(catalog).values() for key in keys}
    return frozenset(KERNEL_KEYS) | language_keys() | fields | {"type", "effect"}


# Keys written for people (editors, card text, notes), which no rules code is meant to read.
# (an ability's ``id`` is a name for people; ``mutation`` holds notes for riftscript mutate)
DOCUMENTATION_KEYS = frozenset({"$schema", "note", "rarity", "text", "printings", "id",
                                "mutation", "equivalent", "change", "reason"})

LISTENING = ("triggered", "replacement")
FORMATS = ("text", "json", "graphml", "dot")


# ---------------------------------------------------------------------- kernel event sources
FunctionKey = tuple[str, str]


@dataclass
class _Function:
    emits: set[str] = field(default_factory=set)
    calls: set[FunctionKey] = field(default_factory=set)


class _CoreSource:
    """The top-level functions of riftscript.core modules, parsed on first use: the events each
    emits and the core functions each calls.  Only the modules the kernel procedures reach are
    parsed (a third of the package), which keeps the audit fast."""

    def __init__(self) -> None:
        self.package = resources.files("riftscript.core")
        self.modules: dict[str, dict[str, _Function]] = {}

    def module(self, name: str) -> dict[str, _Function]:
        if name in self.modules:
            return self.modules[name]
        entry = self.package.joinpath(f"{name}.py")
        functions: dict[str, _Function] = {}
        self.modules[name] = functions
        if not entry.is_file():
            return functions
        tree = ast.parse(entry.read_text(encoding="utf-8"))
        modules: set[str] = set()
        imported: dict[str, FunctionKey] = {}
        raw: dict[str, list[tuple[str | None, str]]] = {}
        for top in tree.body:
            if isinstance(top, ast.ImportFrom):
                self._import(top, modules, imported)
            if not isinstance(top, ast.FunctionDef):
                continue
            record = functions[top.name] = _Function()
            calls = raw[top.name] = []
            for node in ast.walk(top):
                if isinstance(node, ast.ImportFrom):
                    self._import(node, modules, imported)
                elif isinstance(node, ast.Call):
                    func = node.func
                    if isinstance(func, ast.Attribute):
                        if func.attr == "emit" and node.args and isinstance(node.args[0], ast.Constant) \
                                and isinstance(node.args[0].value, str):
                            record.emits.add(node.args[0].value)
                        elif isinstance(func.value, ast.Name):
                            calls.append((func.value.id, func.attr))
                    elif isinstance(func, ast.Name):
                        calls.append((None, func.id))
        for fname, calls in raw.items():
            for owner, attr in calls:
                if owner is None and attr in functions:
                    functions[fname].calls.add((name, attr))
                elif owner is None and attr in imported:
                    functions[fname].calls.add(imported[attr])
                elif owner is not None and owner in modules:
                    functions[fname].calls.add((owner, attr))
        return functions

    @staticmethod
    def _import(node: ast.ImportFrom, modules: set[str], imported: dict[str, FunctionKey]) -> None:
        if node.level != 1:
            return
        for alias in node.names:
            if node.module is None:
                modules.add(alias.asname or alias.name)
            else:
                imported[alias.asname or alias.name] = (node.module, alias.name)

    def function(self, key: FunctionKey) -> _Function | None:
        return self.module(key[0]).get(key[1])


@lru_cache(maxsize=1)
def kernel_sources() -> dict[str, tuple[str, ...]]:
    """The events each kernel procedure can emit: its own ``g.emit`` calls and those of the game
    actions it calls (actions.kill -> die, ...).  A call into another kernel procedure belongs to
    that procedure's source."""
    source = _CoreSource()
    memo: dict[FunctionKey, frozenset[str]] = {}

    def closure(key: FunctionKey, seen: frozenset[FunctionKey]) -> frozenset[str]:
        if key in memo:
            return memo[key]
        record = source.function(key)
        if record is None or key in seen:
            return frozenset()
        events = set(record.emits)
        for call in record.calls:
            events |= closure(call, seen | {key})
        memo[key] = frozenset(events)
        return memo[key]

    out: dict[str, tuple[str, ...]] = {}
    for module in KERNEL_PROCEDURES:
        events: set[str] = set()
        for record in source.module(module).values():
            events |= record.emits
            for call in record.calls:
                if call[0] == module or call[0] not in KERNEL_PROCEDURES:
                    events |= closure(call, frozenset())
        out[module] = tuple(sorted(events))
    return out


# ---------------------------------------------------------------------- walking scripts
@dataclass(frozen=True)
class Cause:
    """One way an ability can cause an event."""

    event: str
    via: str
    optional: bool = False
    conditional: bool = False
    self_only: bool = False
    token_only: bool = False  # the event's object is a new token: never the listener itself, never a card (185)


@dataclass
class _Walk:
    """What one ability's script can do: events it causes, abilities it creates, keywords it grants."""

    causes: list[Cause] = field(default_factory=list)
    created: list[tuple[str, Json, bool, bool]] = field(default_factory=list)  # what, body, optional, uses
    grants: list[tuple[str, bool]] = field(default_factory=list)


class ScriptWalker:
    """Derives the events an effect tree can cause from the installed effect primitives."""

    def __init__(self, effect_types: dict[str, EffectType]) -> None:
        self.effect_types = effect_types

    def events_of(self, etype: str, node: Json) -> list[tuple[str, str]]:
        """(event, how) for one effect node: the primitive's ``emits``, lethal damage, follow-ups."""
        spec = self.effect_types.get(etype)
        if spec is None:
            return []
        if etype == "trigger_abilities" and isinstance(node.get("event"), str):
            base = [node["event"]]  # the script names the one event it re-triggers
        else:
            base = list(spec.emits)
        key = DESTINATIONS.get(etype)
        if key is not None:
            dest = node.get(key)
            if dest is None or (isinstance(dest, str) and dest in BASES):
                base = [e for e in base if e not in CONTEST_EVENTS]
        out = [(e, etype) for e in base]
        if spec.may_kill and KILLS_ONLY_IF.get(etype, _always)(node):
            out += [(e, f"{etype} (may kill)") for e in LETHAL_EVENTS if e not in base]
        queue = deque(out)
        seen = {e for e, _ in out}
        while queue:
            event, how = queue.popleft()
            for follow in FOLLOW_UPS.get(event, ()):
                if follow not in seen:
                    seen.add(follow)
                    item = (follow, f"{how} -> {event}")
                    out.append(item)
                    queue.append(item)
        return out

    def cost(self, cost: Any, optional: bool, found: _Walk, via: str = "cost") -> None:
        if not isinstance(cost, dict):
            return
        for key in cost:
            for event in COST_EVENTS.get(key, ()):
                found.causes.append(Cause(event, f"{via}: {key}", optional))

    def walk(self, node: Any, found: _Walk, optional: bool = False, conditional: bool = False) -> None:
        """Every effect node below ``node`` (lists, nested steps, options, branches)."""
        if isinstance(node, list):
            for item in node:
                self.walk(item, found, optional, conditional)
            return
        if not isinstance(node, dict):
            return
        etype = node.get("type")
        is_effect = isinstance(etype, str) and etype in self.effect_types
        if is_effect:
            assert isinstance(etype, str)
            self_only = node.get("target") == "self" or node.get("card") == "self"
            for event, how in self.events_of(etype, node):
                token_only = etype == "create_token" and event in ("played", "enter_board")
                found.causes.append(Cause(event, how, optional, conditional, self_only, token_only))
            if etype == "grant_keyword" and isinstance(node.get("keyword"), str):
                found.grants.append((node["keyword"], optional))
            if etype == "create_token" and isinstance(node.get("keywords"), list):
                found.grants.extend((k, optional) for k in node["keywords"] if isinstance(k, str))
            optional = optional or etype in OPTIONAL_EFFECTS
            conditional = conditional or etype == "if"
        for key, value in node.items():
            if key == "modifiers":
                self.modifiers(value, found, optional)
            elif is_effect and etype == "create_effect" and key in ("trigger", "replacement"):
                if isinstance(value, dict):
                    body = {"kind": "triggered" if key == "trigger" else "replacement", **value}
                    found.created.append((key, body, optional, "uses" in node))
            elif is_effect and etype == "may" and key == "cost":
                self.cost(value, True, found, "may cost")
            elif isinstance(value, (dict, list)):
                self.walk(value, found, optional, conditional)

    def modifiers(self, mods: Any, found: _Walk, optional: bool) -> None:
        """Static modifiers cause no events, but 'gains Deathknell' or 'Deathknell triggers an
        additional time' installs a keyword's abilities."""
        if not isinstance(mods, list):
            return
        for mod in mods:
            if isinstance(mod, dict) and mod.get("type") in ("keyword", "extra_trigger") \
                    and isinstance(mod.get("keyword"), str):
                found.grants.append((mod["keyword"], optional))

    def ability(self, body: Json) -> _Walk:
        found = _Walk()
        kind = body.get("kind")
        if kind == "replacement":
            self.walk(body.get("instead"), found)
        else:
            self.walk(body.get("effect"), found)
        if kind == "additional_cost":
            self.cost(body.get("cost"), bool(body.get("optional")), found)
        elif kind in ("activated", "replacement"):
            self.cost(body.get("cost"), kind == "replacement", found)
        if kind == "static":
            self.modifiers(body.get("modifiers"), found, False)
        return found


def describe_condition(cond: Any) -> str:
    """A short reading of a condition: 'keyword legion', 'history played', 'all(is attacker, ...)'."""
    if not isinstance(cond, dict):
        return str(cond)
    ctype = str(cond.get("type", "?"))
    if ctype in ("all", "any"):
        return f"{ctype}({', '.join(describe_condition(c) for c in cond.get('of', []))})"
    if ctype == "not":
        return f"not {describe_condition(cond.get('of'))}"
    for key in ("keyword", "event", "state", "what", "whose"):
        if isinstance(cond.get(key), str):
            return f"{ctype} {cond[key]}"
    return ctype


def _filters(pattern: Json) -> str:
    parts = []
    for key, value in pattern.items():
        if key == "event":
            continue
        shown = value if isinstance(value, (str, int, bool)) else json.dumps(value, sort_keys=True)
        parts.append(f"{key}={shown}")
    return ", ".join(parts)


def _limit(body: Json, uses: bool, pattern: Json) -> str:
    """Why this listener can't fire again and again on one kind of event ('' if nothing limits it)."""
    when = body.get("when") if isinstance(body.get("when"), dict) else {}
    assert isinstance(when, dict)
    event = pattern.get("event")
    if event in SELF_LIMITS and pattern.get("subject") == "self":
        return SELF_LIMITS[str(event)]
    if event in EVENT_LIMITS:
        return EVENT_LIMITS[str(event)]
    if body.get("once_per_turn"):
        return "once per turn"
    if when.get("first_this_turn"):
        return "first time each turn"
    if "nth_this_turn" in when:
        return f"only the {when['nth_this_turn']}th time each turn"
    if uses:
        return "limited uses"
    return ""


# ---------------------------------------------------------------------- the graph
def ability_node_id(card: str, index: int) -> str:
    return f"{card}#{index}"


def keyword_node_id(keyword: str, index: int) -> str:
    return f"keyword:{keyword}#{index}"


def event_node_id(event: str) -> str:
    return f"event:{event}"


def kernel_node_id(module: str) -> str:
    return f"kernel:{module}"


class GraphBuilder:
    """Builds the interaction graph of a catalog."""

    def __init__(self, catalog: Catalog) -> None:
        import networkx as nx

        self.catalog = catalog
        self.walker = ScriptWalker(catalog.effect_types)
        self.G: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        self.keyword_nodes: dict[str, list[str]] = {}
        self.pending_grants: list[tuple[str, str, bool]] = []

    def build(self) -> nx.MultiDiGraph[str]:
        for kw in sorted(self.catalog.keywords.values(), key=lambda k: k.keyword):
            bodies = list(kw.abilities)
            if kw.additional_cost is not None:
                bodies.append({"kind": "additional_cost", **kw.additional_cost})
            ids = []
            for i, body in enumerate(bodies):
                node = keyword_node_id(kw.keyword, i)
                ids.append(node)
                self.add_ability(node, body, card="", name=kw.name, set_code="", keyword=kw.name)
            self.keyword_nodes[kw.keyword] = ids
        for code in sorted(self.catalog.cards):
            card = self.catalog.cards[code]
            for ability in card.abilities:
                label = ability.keyword or (keyword_id(ability.body["keyword"])
                                            if isinstance(ability.body.get("keyword"), str) else None)
                if label and label not in self.catalog.keywords:
                    label = re.sub(r"_\d+$", "", label)  # "[Level 6]": the Level keyword with its value
                known = self.catalog.keywords.get(label) if label else None
                self.add_ability(ability_node_id(code, ability.index), ability.body, card=code, name=card.name,
                                 set_code=card.set_code, keyword=known.name if known else (label or ""))
        for source, keyword, optional in self.pending_grants:
            for target in self.keyword_nodes.get(keyword_id(keyword), []):
                if self.G.nodes[target]["ability_kind"] in ("triggered", "replacement", "activated"):
                    self.G.add_edge(source, target, key=f"grants:{keyword_id(keyword)}", relation="grants",
                                    optional=optional, via=f"grants {keyword}")
        for module, events in kernel_sources().items():
            node = kernel_node_id(module)
            self.G.add_node(node, type="kernel", label=node, description=KERNEL_PROCEDURES[module])
            for event in events:
                self._event(event)
                self.G.add_edge(node, event_node_id(event), key=event, relation="causes", optional=False,
                                conditional=False, self_only=False, via=f"kernel {module}")
        for node, data in self.G.nodes(data=True):
            if data["type"] == "event":
                data["causers"] = self.G.in_degree(node)
                data["listeners"] = self.G.out_degree(node)
        self.G.graph.update({"name": "riftscript interaction graph", "cards": len(self.catalog.cards),
                             "sets": ",".join(sorted(self.catalog.sets))})
        return self.G

    def _event(self, event: str) -> str:
        node = event_node_id(event)
        if node not in self.G:
            self.G.add_node(node, type="event", label=event, event=event)
        return node

    def add_ability(self, node: str, body: Json, card: str, name: str, set_code: str, keyword: str,
                    parent: str = "", uses: bool = False) -> None:
        kind = str(body.get("kind", ""))
        listens = ""
        pattern: Json = {}
        if kind == "triggered" and isinstance(body.get("when"), dict):
            pattern = body["when"]
        elif kind == "replacement" and isinstance(body.get("replaces"), dict):
            pattern = body["replaces"]
        if pattern:
            listens = str(pattern.get("event", ""))
        optional = bool(body.get("optional") or (kind == "replacement" and body.get("cost")))
        conditions = []
        for key in ("condition", "if", "only_while", "while"):
            if key in body:
                conditions.append(f"{key}: {describe_condition(body[key])}")
        limit = _limit(body, uses, pattern)
        if limit:
            conditions.append(limit)
        mode = ("optional" if optional else "mandatory") if kind in LISTENING else "player" \
            if kind in ("activated", "spell", "additional_cost") else "static"
        self.G.add_node(node, type="ability", label=f"{node} {name}".strip(), card=card, name=name, set=set_code,
                        keyword=keyword, ability_kind=kind, listens=listens, mode=mode,
                        mandatory=mode == "mandatory", optional=optional, limited=limit,
                        conditions="; ".join(conditions), created=bool(parent), parent=parent)
        if listens:
            self.G.add_edge(self._event(listens), node, key=listens, relation="listens" if kind == "triggered"
                            else "replaces", filters=_filters(pattern), optional=optional, mandatory=not optional,
                            self_subject=pattern.get("subject") == "self",
                            not_token=pattern.get("what") not in (None, "unit", "gear", "permanent")
                            or bool(pattern.get("from_hidden")))
        found = self.walker.ability(body)
        merged: dict[str, list[Cause]] = {}
        for cause in found.causes:
            merged.setdefault(cause.event, []).append(cause)
        for event, causes in merged.items():
            self.G.add_edge(node, self._event(event), key=event, relation="causes",
                            optional=all(c.optional for c in causes), conditional=all(c.conditional for c in causes),
                            self_only=all(c.self_only for c in causes),
                            token_only=all(c.token_only for c in causes),
                            via="; ".join(sorted({c.via for c in causes})))
        for i, (what, child, child_optional, uses) in enumerate(found.created, start=1):
            child_id = f"{node}/{i}"
            self.add_ability(child_id, child, card, name, set_code, keyword, parent=node, uses=uses)
            self.G.add_edge(node, child_id, key="creates", relation="creates", optional=child_optional,
                            via=f"create_effect {what}")
        for keyword_name, grant_optional in found.grants:
            self.pending_grants.append((node, keyword_name, grant_optional))


def build_graph(catalog: Catalog) -> nx.MultiDiGraph[str]:
    """The interaction graph: ability, event and kernel nodes; causes/listens/grants/creates edges."""
    return GraphBuilder(catalog).build()


def ability_graph(G: nx.MultiDiGraph[str]) -> nx.DiGraph[str]:
    """Abilities only: A -> B when A can cause an event B listens to (or installs B).

    Edge attributes: ``events`` (what connects them), ``mandatory`` (some connection needs no
    'may' and sets off a mandatory, unlimited trigger), ``forced`` (the same, limits ignored).
    A cause that only affects its own object ('kill me') reaches only listeners of the same card
    that listen for their own object ('when I die').
    """
    import networkx as nx

    H: nx.DiGraph[str] = nx.DiGraph()
    nodes = G.nodes
    for node, data in G.nodes(data=True):
        if data["type"] == "ability":
            H.add_node(node)
    for a, b, key, data in G.edges(keys=True, data=True):
        if nodes[a]["type"] != "ability":
            continue
        if data["relation"] in ("grants", "creates"):
            _connect(H, a, b, key, not data["optional"] and not nodes[b]["limited"], not data["optional"])
            continue
        if data["relation"] != "causes":
            continue
        for _, listener, listen in G.out_edges(b, data=True):
            if listener == a and listen["relation"] == "replaces":
                continue  # a replacement never applies to what replaced it
            if data["self_only"] and listen.get("self_subject") and not _same_card(nodes[a], nodes[listener]):
                continue
            if data.get("token_only") and (listen.get("self_subject") or listen.get("not_token")):
                continue  # a token played is not the listener, not a card or spell, never from [Hidden] (185)
            forced = not data["optional"] and nodes[listener]["mandatory"]
            _connect(H, a, listener, key, forced and not nodes[listener]["limited"], forced)
    return H


def _same_card(a: Any, b: Any) -> bool:
    return not a["card"] or not b["card"] or a["card"] == b["card"]


def _connect(H: nx.DiGraph[str], a: str, b: str, event: str, mandatory: bool, forced: bool) -> None:
    if H.has_edge(a, b):
        data = H.edges[a, b]
        if event not in data["events"]:
            data["events"].append(event)
        data["mandatory"] = data["mandatory"] or mandatory
        data["forced"] = data["forced"] or forced
    else:
        H.add_edge(a, b, events=[event], mandatory=mandatory, forced=forced)


# ---------------------------------------------------------------------- findings
@dataclass
class Cycle:
    """One example cycle: the abilities in order (the last feeds the first), the events between
    them, and the cards needed to assemble it."""

    label: str
    abilities: list[str]
    events: list[str]
    cards: list[str]


@dataclass
class Loop:
    """A strongly connected group of abilities: each can, through events, set off the others.
    Labelled by the strongest cycle in it (see :func:`find_loops`)."""

    label: str
    abilities: list[str]
    cycles: list[Cycle]
    events: list[str]


@dataclass
class DeadTrigger:
    ability: str
    card: str
    name: str
    event: str
    hint: str


@dataclass
class KeywordCell:
    source: str
    target: str
    count: int
    potential: int
    example: list[str]


@dataclass
class KeyUse:
    key: str
    count: int
    examples: list[str]


@dataclass
class Report:
    """Everything the audit found; ``text()`` for people, ``as_json()`` for tools."""

    summary: dict[str, Any]
    loops: list[Loop]
    dead: list[DeadTrigger]
    keywords: list[KeywordCell]
    unread: list[KeyUse]
    documentation: list[KeyUse]
    unused: dict[str, list[str]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"summary": self.summary, "loops": [asdict(x) for x in self.loops],
                "dead_triggers": [asdict(x) for x in self.dead],
                "keyword_interactions": [asdict(x) for x in self.keywords],
                "unread_keys": [asdict(x) for x in self.unread],
                "documentation_keys": [asdict(x) for x in self.documentation],
                "unused_language": self.unused}


def _shortest_cycle(H: nx.DiGraph[str], start: str) -> list[str] | None:
    """The shortest cycle through ``start`` (breadth-first: linear in the edges)."""
    if H.has_edge(start, start):
        return [start]
    parent: dict[str, str] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        for nxt in sorted(H.successors(node)):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return list(reversed(path))
            if nxt not in seen:
                seen.add(nxt)
                parent[nxt] = node
                queue.append(nxt)
    return None


def example_cycles(H: nx.DiGraph[str], members: Iterable[str], limit: int = 3,
                   prefer: set[str] | None = None) -> list[list[str]]:
    """A few short, distinct cycles inside one strongly connected component.

    Enumerating simple cycles is exponential in a dense component (39 s on a 2,000-node graph
    even with a length bound); a shortest cycle through each of a few members costs one
    breadth-first search each and gives the most readable examples.  Cycles go through the
    ``prefer`` abilities first (those a filtered report is about), then the best connected.
    """
    sub = H.subgraph(members)
    found: list[list[str]] = []
    seen: set[frozenset[str]] = set()
    for start in sorted(sub.nodes, key=lambda n: (n not in (prefer or ()), -sub.degree(n), n)):
        cycle = _shortest_cycle(sub, start)
        if cycle is None:
            continue
        k = cycle.index(min(cycle))
        cycle = cycle[k:] + cycle[:k]
        if frozenset(cycle) in seen:
            continue
        seen.add(frozenset(cycle))
        found.append(cycle)
        if len(found) >= limit:
            break
    return sorted(found, key=lambda c: (len(c), c))


def _cycle_events(H: nx.DiGraph[str], cycle: list[str]) -> list[str]:
    out: list[str] = []
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        out.extend(e for e in H.edges[a, b]["events"] if e not in out)
    return out


def find_loops(G: nx.MultiDiGraph[str], H: nx.DiGraph[str], examples: int = 3,
               prefer: set[str] | None = None) -> list[Loop]:
    """Strongly connected components of the ability graph, with a few example cycles each.

    A cycle is 'mandatory' when no choice breaks it and nothing limits how often its triggers
    fire: it repeats without end.  'bounded' is mandatory too, but a trigger in it fires at most
    once per turn, per combat or per object, so it stops.  'optional' needs a 'may' or an
    optional trigger, so a player can break it.  A loop takes the label of its strongest cycle.
    """
    import networkx as nx

    levels = [("mandatory", H.edge_subgraph([(a, b) for a, b, d in H.edges(data=True) if d["mandatory"]])),
              ("bounded", H.edge_subgraph([(a, b) for a, b, d in H.edges(data=True) if d["forced"]])),
              ("optional", H)]
    loops: list[Loop] = []
    for component in nx.strongly_connected_components(H):
        members = sorted(component)
        if len(members) == 1 and not H.has_edge(members[0], members[0]):
            continue
        cycles: list[Cycle] = []
        seen: set[frozenset[str]] = set()

        def add(label: str, cycle: list[str]) -> None:
            if frozenset(cycle) not in seen:
                seen.add(frozenset(cycle))
                cycles.append(Cycle(label, cycle, _cycle_events(H, cycle), sorted({_card_label(G, n) for n in cycle})))

        for label, sub in levels:
            inner = sub.subgraph(component)
            parts = [p for p in sorted(nx.strongly_connected_components(inner), key=min)
                     if len(p) > 1 or inner.has_edge(next(iter(p)), next(iter(p)))]
            # every separate mandatory loop gets an example; weaker ones only up to the limit
            for part in parts:
                if label == "mandatory" or len(cycles) < examples:
                    for cycle in example_cycles(inner, part, 1, prefer):
                        add(label, cycle)
            for part in parts:
                for cycle in example_cycles(inner, part, examples, prefer):
                    if len(cycles) < examples:
                        add(label, cycle)
            if len(cycles) >= examples:
                break
        events = sorted({e for a in members for b in H.successors(a) if b in component
                         for e in H.edges[a, b]["events"]})
        loops.append(Loop(cycles[0].label, members, cycles, events))
    order = {"mandatory": 0, "bounded": 1, "optional": 2}
    return sorted(loops, key=lambda l: (order[l.label], len(l.abilities), l.abilities))


def _card_label(G: nx.MultiDiGraph[str], node: str) -> str:
    data = G.nodes[node]
    if data["card"]:
        return f"{data['card']} {data['name']}"
    return f"any card with {data['keyword']}"


def find_dead(G: nx.MultiDiGraph[str]) -> list[DeadTrigger]:
    """Listening abilities whose event nothing installed (no ability, no kernel procedure) causes."""
    causable = sorted(G.nodes[e]["event"] for e in G if G.nodes[e]["type"] == "event" and G.in_degree(e))
    dead = []
    for node, data in G.nodes(data=True):
        if data["type"] != "ability" or not data["listens"]:
            continue
        if G.in_degree(event_node_id(data["listens"])) == 0:
            dead.append(DeadTrigger(node, data["card"], data["name"], data["listens"],
                                    did_you_mean(data["listens"], causable).lstrip("; ")))
    return sorted(dead, key=lambda d: d.ability)


def keyword_interactions(G: nx.MultiDiGraph[str], H: nx.DiGraph[str]) -> list[KeywordCell]:
    """For each pair of keywords: how many abilities of the first feed one of the second on the
    installed cards (``count``), and how many more links exist through a keyword's definition,
    i.e. with any card that has or gains it (``potential``); with an example, cards first."""
    cells: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for a, b in H.edges:
        ka, kb = G.nodes[a]["keyword"], G.nodes[b]["keyword"]
        if ka and kb:
            cells.setdefault((ka, kb), []).append((a, b))
    out = []
    for (ka, kb), pairs in cells.items():
        real = [p for p in pairs if G.nodes[p[0]]["card"] and G.nodes[p[1]]["card"]]
        example = min(real) if real else min(pairs)
        out.append(KeywordCell(ka, kb, len(real), len(pairs) - len(real), list(example)))
    return sorted(out, key=lambda c: (-c.count, -c.potential, c.source, c.target))


def schema_keys(catalog: Catalog | None = None) -> frozenset[str]:
    """Every property name of the card, effect and keyword schemas (and of plugin effect types)."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                names.update(props)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for name in ("card", "effect", "keyword"):
        walk(raw_schema(name))
    if catalog is not None:
        for etype in catalog.effect_types.values():
            walk(etype.schema)
    return frozenset(names)


def script_keys(catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    """(key, owner, path) for every key written in a card or keyword script.

    The keys of a card's ``keywords:`` uses (``{Assault: 2}``) are keyword names, not fields."""

    def walk(node: Any, owner: str, path: str) -> Iterator[tuple[str, str, str]]:
        if isinstance(node, dict):
            for key, value in node.items():
                yield str(key), owner, f"{path}.{key}" if path else str(key)
                yield from walk(value, owner, f"{path}.{key}" if path else str(key))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, owner, f"{path}[{i}]")

    for code in sorted(catalog.cards):
        raw = catalog.cards[code].raw
        for key, value in raw.items():
            if key == "mutation":
                continue  # notes for the mutation tool, not script
            yield key, code, key
            if key == "keywords" and isinstance(value, list):
                for i, use in enumerate(value):
                    if isinstance(use, dict):
                        for name, param in use.items():
                            yield from walk(param, code, f"keywords[{i}].{name}")
            else:
                yield from walk(value, code, key)
    for kw in sorted(catalog.keywords.values(), key=lambda k: k.keyword):
        parts = {"abilities": list(kw.abilities), "additional_cost": kw.additional_cost, "condition": kw.condition}
        yield from walk({k: v for k, v in parts.items() if v}, f"keyword {kw.name}", "")


def unread_keys(catalog: Catalog, codes: set[str] | None = None) -> tuple[list[KeyUse], list[KeyUse]]:
    """Keys scripts use that the schema accepts but no engine code reads, and documentation keys."""
    known = schema_keys(catalog)
    read = read_keys(catalog)
    unread: dict[str, KeyUse] = {}
    docs: dict[str, KeyUse] = {}
    for key, owner, path in script_keys(catalog):
        if key in read or key not in known:
            continue  # read, or a name used as a key (keyword names in 'keywords:')
        if codes is not None and owner not in codes:
            continue
        table = docs if key in DOCUMENTATION_KEYS else unread
        use = table.setdefault(key, KeyUse(key, 0, []))
        use.count += 1
        if len(use.examples) < 3:
            use.examples.append(f"{owner} {path}")
    return sorted(unread.values(), key=lambda u: u.key), sorted(docs.values(), key=lambda u: u.key)


def unused_language(catalog: Catalog) -> dict[str, list[str]]:
    """The language no installed card or keyword script uses: schema keys, effect types, and the
    values of the handler tables that list values (stats, states, conditions, references, ...).

    Unused language is untested language: no scenario of a card can prove it."""
    keys: set[str] = set()
    values: set[str] = set()
    for key, _, path in script_keys(catalog):
        keys.add(key)
    stack: list[Any] = [catalog.cards[c].raw for c in catalog.cards]
    stack += [{"a": list(kw.abilities), "c": kw.additional_cost, "d": kw.condition} for kw in catalog.keywords.values()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(v for k, v in node.items() if k != "mutation")
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str):
            values.add(node)
    props = raw_schema("keyword")["properties"]
    keyword_file = (set(props) | set(props["parameter"]["properties"])) - {"abilities", "additional_cost", "condition"}
    out: dict[str, list[str]] = {"keys": sorted(schema_keys(catalog) - keys - DOCUMENTATION_KEYS - keyword_file)}
    out["effect types"] = sorted(set(catalog.effect_types) - values)
    for name, table in language_tables().items():
        if not any(pointer.endswith("/properties") for pointer in table.schema):
            out[name + "s"] = sorted(set(table.entries) - values)
    return {name: found for name, found in out.items() if found}


# ---------------------------------------------------------------------- selection
@dataclass
class Selection:
    """Which abilities a filtered report is about (None: all)."""

    nodes: set[str] | None = None
    codes: set[str] | None = None
    what: str = "all installed sets"

    def has(self, node: str) -> bool:
        return self.nodes is None or node in self.nodes


def select(G: nx.MultiDiGraph[str], catalog: Catalog, set_code: str | None = None, card: str | None = None,
           keyword: str | None = None) -> Selection:
    """The abilities matching --set, --card and --keyword (all of those given)."""
    nodes = {n for n, d in G.nodes(data=True) if d["type"] == "ability"}
    codes = set(catalog.cards)
    what = []
    if set_code:
        wanted = set_code.upper()
        if wanted not in catalog.sets and not any(c.set_code == wanted for c in catalog.cards.values()):
            raise RiftScriptError(f"no installed set {set_code!r}{did_you_mean(wanted, list(catalog.sets))}")
        nodes = {n for n in nodes if G.nodes[n]["set"] == wanted}
        codes = {c for c in codes if catalog.cards[c].set_code == wanted}
        what.append(f"set {wanted}")
    if card:
        code = resolve_card(catalog, card)
        nodes = {n for n in nodes if G.nodes[n]["card"] == code}
        codes &= {code}
        what.append(f"card {code} {catalog.cards[code].name}")
    if keyword:
        kw = resolve_keyword(catalog, keyword)
        nodes = {n for n in nodes if G.nodes[n]["keyword"] == kw}
        codes = {c for c in codes if catalog.cards[c].has_keyword(keyword_id(kw))
                 or any(G.nodes[n]["card"] == c for n in nodes)}
        what.append(f"keyword {kw}")
    if not what:
        return Selection()
    return Selection(nodes, codes, ", ".join(what))


def resolve_card(catalog: Catalog, text: str) -> str:
    if text.upper() in catalog.cards:
        return text.upper()
    card = catalog.by_name(text)
    if card is None:
        hint = did_you_mean(text.upper(), list(catalog.cards)) or did_you_mean(
            text, [c.name for c in catalog.cards.values()])
        raise RiftScriptError(f"no installed card {text!r}{hint}")
    return card.code


def resolve_keyword(catalog: Catalog, text: str) -> str:
    kw = catalog.keywords.get(keyword_id(text))
    if kw is None:
        raise RiftScriptError(f"unknown keyword {text!r}{did_you_mean(keyword_id(text), list(catalog.keywords))}")
    return kw.name


def neighbourhood(G: nx.MultiDiGraph[str], focus: Iterable[str], depth: int) -> set[str]:
    """Nodes within ``depth`` ability steps of ``focus`` (2 hops each: ability-event-ability),
    forward and backward, plus the abilities they create or grant and the kernel sources of their events."""
    focus = set(focus)
    found = set(focus)
    for neighbours in (G.successors, G.predecessors):
        frontier = set(focus)
        seen = set(focus)
        for _ in range(2 * depth):
            frontier = {m for n in frontier for m in neighbours(n)} - seen
            seen |= frontier
        found |= seen
    found |= {k for e in list(found) if G.nodes[e]["type"] == "event"
              for k in G.predecessors(e) if G.nodes[k]["type"] == "kernel"}
    return found


# ---------------------------------------------------------------------- the report
def audit(catalog: Catalog, G: nx.MultiDiGraph[str] | None = None, selection: Selection | None = None) -> Report:
    """Analyse the interaction graph (all of it, or what a selection picks)."""
    G = G if G is not None else build_graph(catalog)
    sel = selection or Selection()
    H = ability_graph(G)
    loops = [l for l in find_loops(G, H, prefer=sel.nodes) if any(sel.has(n) for n in l.abilities)]
    dead = [d for d in find_dead(G) if sel.has(d.ability)]
    cells = [c for c in keyword_interactions(G, H)
             if sel.nodes is None or any(sel.has(n) for n in c.example)
             or any(sel.has(a) and sel.has(b) for a, b in H.edges
                    if G.nodes[a]["keyword"] == c.source and G.nodes[b]["keyword"] == c.target)]
    unread, docs = unread_keys(catalog, sel.codes)
    unused = unused_language(catalog) if sel.codes is None else {}
    abilities = [n for n, d in G.nodes(data=True) if d["type"] == "ability"]
    kinds = Counter(G.nodes[n]["ability_kind"] for n in abilities)
    summary = {
        "scope": sel.what, "cards": len(catalog.cards), "sets": sorted(catalog.sets),
        "keywords": len(catalog.keywords), "abilities": len(abilities),
        "listening": kinds["triggered"] + kinds["replacement"],
        "events": sum(1 for _, d in G.nodes(data=True) if d["type"] == "event"),
        "kernel_sources": sum(1 for _, d in G.nodes(data=True) if d["type"] == "kernel"),
        "edges": G.number_of_edges(), "ability_edges": H.number_of_edges(),
        "loops": dict(Counter(l.label for l in loops)),
    }
    return Report(summary, loops, dead, cells, unread, docs, unused)


def _name(G: nx.MultiDiGraph[str], node: str) -> str:
    data = G.nodes[node]
    if data["card"]:
        return f"{node} {data['name']}"
    if data["type"] == "ability":
        return f"{node} (any card with {data['keyword']})"
    return node


def _cycle_text(G: nx.MultiDiGraph[str], H: nx.DiGraph[str], cycle: list[str]) -> str:
    parts = []
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        parts.append(f"{_name(G, a)} -({'|'.join(H.edges[a, b]['events'])})->")
    return " ".join(parts) + (f" {cycle[0]}" if len(cycle) > 1 else " itself")


def render_text(report: Report, G: nx.MultiDiGraph[str], out: TextIO, limit: int = 25) -> None:
    """The readable report."""
    H = ability_graph(G)
    s = report.summary
    p: Callable[..., None] = lambda *parts: print(*parts, file=out)
    p(f"Interaction audit of {s['scope']}: {s['cards']} cards in sets {', '.join(s['sets'])}, "
      f"{s['keywords']} keywords")
    p(f"graph: {s['abilities']} abilities ({s['listening']} listening), {s['events']} events, "
      f"{s['kernel_sources']} kernel sources, {s['edges']} edges; {s['ability_edges']} ability-to-ability links")
    p()
    counts = Counter(l.label for l in report.loops)
    p(f"Potential loops: {len(report.loops)}"
      + (f" ({', '.join(f'{counts[k]} {k}' for k in ('mandatory', 'bounded', 'optional') if counts[k])})"
         if report.loops else ""))
    notes = {"mandatory": "no choice breaks it: it repeats without end",
             "bounded": "mandatory, but a trigger in it fires once per turn, combat or object, so it stops",
             "optional": "a 'may' or an optional trigger breaks it"}
    for i, loop in enumerate(report.loops[:limit], start=1):
        p(f"  {i}. {loop.label} ({notes[loop.label]}): {len(loop.abilities)} "
          f"abilit{'ies' if len(loop.abilities) != 1 else 'y'}, "
          f"events {', '.join(loop.events)}")
        for cycle in loop.cycles:
            p(f"     {cycle.label} cycle: {_cycle_text(G, H, cycle.abilities)}")
            p(f"       cards needed: {'; '.join(cycle.cards)}")
    if len(report.loops) > limit:
        p(f"  ... and {len(report.loops) - limit} more (narrow with --set, --card or --keyword)")
    p()
    p(f"Dead triggers: {len(report.dead)} (listening to events nothing installed can cause)")
    for d in report.dead:
        hint = f" ({d.hint})" if d.hint else ""
        p(f"  {_name(G, d.ability)}: listens to '{d.event}'{hint}")
    p()
    p(f"Keyword interactions: {len(report.keywords)} pairs (an ability of the row's keyword can set off one "
      f"of the column's; ~: only with a card that has or gains both)")
    if report.keywords:
        names = sorted({c.source for c in report.keywords} | {c.target for c in report.keywords})
        table = {(c.source, c.target): str(c.count) if c.count else "~" for c in report.keywords}
        width = max(len(n) for n in names)
        col = max(4, min(10, width))
        p("  " + " " * width + "  " + " ".join(f"{n[:col]:>{col}}" for n in names))
        for row in names:
            p(f"  {row:<{width}}  " + " ".join(f"{table.get((row, c), '.'):>{col}}" for c in names))
        p("  densest:")
        for cell in report.keywords[:limit]:
            a, b = cell.example
            more = f" (+{cell.potential} through keyword definitions)" if cell.potential else ""
            p(f"    {cell.source} -> {cell.target}: {cell.count}{more}, e.g. {_name(G, a)} -> {_name(G, b)} "
              f"via {', '.join(H.edges[a, b]['events'])}")
    p()
    p(f"Script keys nothing in the engine reads: {len(report.unread)}")
    for use in report.unread:
        p(f"  {use.key}: {use.count} use{'s' if use.count != 1 else ''}, e.g. {'; '.join(use.examples)}")
    if report.documentation:
        p("  documentation only (for people, as intended): "
          + ", ".join(f"{u.key} ({u.count})" for u in report.documentation))
    if report.unused:
        p()
        p(f"Unused language (accepted, but no installed script uses it): {sum(map(len, report.unused.values()))}")
        for name, found in report.unused.items():
            p(f"  {name}: {', '.join(found)}")


def render_card(G: nx.MultiDiGraph[str], catalog: Catalog, code: str, depth: int, out: TextIO,
                limit: int = 12) -> None:
    """One card: what each ability listens to, what it can cause, and its neighbours up to ``depth``."""
    H = ability_graph(G)
    card = catalog.cards[code]
    p: Callable[..., None] = lambda *parts: print(*parts, file=out)
    p(f"{code} {card.name} ({card.type}, set {card.set_code})")
    mine = sorted(n for n, d in G.nodes(data=True) if d["type"] == "ability" and d["card"] == code)
    for node in mine:
        data = G.nodes[node]
        tags = [data["ability_kind"]] + ([data["keyword"]] if data["keyword"] else []) + \
               ([data["mode"]] if data["mode"] in ("mandatory", "optional") else [])
        p(f"  {node} [{', '.join(tags)}]" + (f" created by {data['parent']}" if data["parent"] else ""))
        if data["conditions"]:
            p(f"    conditions: {data['conditions']}")
        for event, _, e in G.in_edges(node, data=True):
            if e["relation"] in ("listens", "replaces"):
                kernel = sorted(k.split(":", 1)[1] for k in G.predecessors(event) if G.nodes[k]["type"] == "kernel")
                p(f"    {e['relation']} to: {G.nodes[event]['event']}" + (f" ({e['filters']})" if e["filters"] else "")
                  + (f"; the kernel causes it in: {', '.join(kernel)}" if kernel else ""))
        causes = [(G.nodes[t]["event"], e) for _, t, e in G.out_edges(node, data=True) if e["relation"] == "causes"]
        if causes:
            p("    can cause: " + ", ".join(f"{ev}{' (may)' if e['optional'] else ''}" for ev, e in sorted(causes)))
        for _, t, e in G.out_edges(node, data=True):
            if e["relation"] in ("grants", "creates"):
                p(f"    {e['relation']}: {t}")
        own = [f"{b} via {', '.join(H.edges[node, b]['events'])}" for b in sorted(H.successors(node)) if b in mine]
        if own:
            p(f"    sets off on this card: {'; '.join(own)}")
    for title, forward in (("feeds", True), ("fed by", False)):
        levels = _levels(set(mine), H.successors if forward else H.predecessors, depth)
        p(f"  {title} (up to {depth} step{'s' if depth != 1 else ''}):" + ("" if levels else " nothing"))
        previous = set(mine)
        for d, level in enumerate(levels, start=1):
            groups: dict[str, list[str]] = {}
            for node in sorted(level):
                links = [(a, node) if forward else (node, a) for a in previous]
                events = sorted({e for a, b in links if H.has_edge(a, b) for e in H.edges[a, b]["events"]})
                groups.setdefault(", ".join(events), []).append(node)
            for events_text, nodes in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
                names = [_name(G, n) for n in nodes]
                shown = "; ".join(names[:limit]) + (f"; ... and {len(names) - limit} more" if len(names) > limit else "")
                p(f"    step {d}, via {events_text} ({len(nodes)}): {shown}")
            previous = level


def _levels(start: set[str], step: Callable[[str], Iterator[str]], depth: int) -> list[set[str]]:
    seen = set(start)
    frontier = set(start)
    levels = []
    for _ in range(depth):
        frontier = {m for n in frontier for m in step(n)} - seen
        if not frontier:
            break
        seen |= frontier
        levels.append(frontier)
    return levels


# ---------------------------------------------------------------------- exports
def flat_graph(G: nx.MultiDiGraph[str]) -> nx.MultiDiGraph[str]:
    """A copy whose attributes are all strings, numbers or booleans (what GraphML accepts)."""
    import networkx as nx

    F: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    F.graph.update({k: _flat(v) for k, v in G.graph.items()})
    for node, data in G.nodes(data=True):
        F.add_node(node, **{k: _flat(v) for k, v in data.items()})
    for a, b, key, data in G.edges(keys=True, data=True):
        F.add_edge(a, b, key=key, **{k: _flat(v) for k, v in data.items()})
    return F


def _flat(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)):
        return value
    if value is None:
        return ""
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(v) for v in value)
    return json.dumps(value, sort_keys=True)


def to_json(G: nx.MultiDiGraph[str], report: Report | None = None) -> str:
    """D3-style node-link JSON; the report rides along in the graph attributes."""
    import networkx as nx

    data = nx.node_link_data(G, edges="links")
    if report is not None:
        data["graph"] = {**data.get("graph", {}), "report": report.as_json()}
    return json.dumps(data, indent=1, sort_keys=True)


def to_graphml(G: nx.MultiDiGraph[str]) -> str:
    import networkx as nx

    return "\n".join(nx.generate_graphml(flat_graph(G))) + "\n"


def _dot_id(node: str) -> str:
    """A quoted DOT id without colons (a colon would be read as a port)."""
    return '"' + node.replace(":", "/").replace('"', "'") + '"'


def to_dot(G: nx.MultiDiGraph[str]) -> str:
    lines = ["digraph riftscript {", "  rankdir=LR;", "  node [fontname=Helvetica, fontsize=10];"]
    shapes = {"ability": "box", "event": "ellipse", "kernel": "hexagon"}
    for node in sorted(G.nodes):
        data = G.nodes[node]
        label = data["label"] if data["type"] != "ability" else f"{node}\\n{data['name']}"
        style = ", style=dashed" if data["type"] == "ability" and data["mode"] == "optional" else ""
        lines.append(f'  {_dot_id(node)} [label="{label.replace(chr(34), chr(39))}", '
                     f'shape={shapes[data["type"]]}{style}];')
    colours = {"causes": "firebrick", "listens": "steelblue", "replaces": "purple", "grants": "darkgreen",
               "creates": "darkgreen"}
    for a, b, key in sorted(G.edges(keys=True)):
        data = G.edges[a, b, key]
        style = ", style=dashed" if data.get("optional") else ""
        lines.append(f"  {_dot_id(a)} -> {_dot_id(b)} [color={colours[data['relation']]}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--set", dest="set_code", metavar="CODE", help="only abilities of this set's cards")
    parser.add_argument("--card", metavar="CODE", help="one card (code or name): what it listens to, "
                                                       "what it can cause, its neighbours")
    parser.add_argument("--keyword", metavar="NAME", help="only abilities of this keyword")
    parser.add_argument("--depth", type=whole(0), default=1, metavar="N",
                        help="how many ability steps of neighbours to show or export (default 1)")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text report (default), or the graph as JSON (node-link), GraphML or DOT")
    parser.add_argument("--output", "-o", type=output_file, metavar="FILE",
                        help="write to FILE instead of standard output")
    parser.add_argument("--svg", type=output_file, metavar="FILE",
                        help="draw the neighbourhood of --card or --keyword as SVG")
    parser.add_argument("--png", type=output_file, metavar="FILE", help="draw it as PNG (needs matplotlib: pip install "
                                                     "'riftscript[audit]')")
    parser.add_argument("--paths", nargs="*", type=Path, default=[], metavar="PATH",
                        help="card, keyword or set files to audit with the installed ones")


def add_commands(sub: Any) -> None:
    """Register 'audit' (and its sub-actions) on an argparse subparsers object."""
    parser = sub.add_parser(
        "audit", help="interaction audit: potential loops, dead triggers, keyword interactions, unread keys",
        description="Build the interaction graph of every installed ability from the scripts and report "
                    "potential loops, dead triggers, which keywords feed which, and script keys nothing reads.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    add_arguments(parser)
    parser.set_defaults(func=cmd_audit)
    actions = parser.add_subparsers(dest="audit_action", metavar="ACTION")
    for name, (help_text, arguments, run) in SUB_ACTIONS.items():
        child = actions.add_parser(name, help=help_text, description=help_text)
        arguments(child)
        child.set_defaults(func=run)


EPILOG = """\
examples:
  riftscript audit                          the whole report for every installed set
  riftscript audit --set OGS                only Proving Grounds
  riftscript audit --card OGN-003 --depth 2 one card and two steps of neighbours
  riftscript audit --keyword Deathknell --svg deathknell.svg
  riftscript audit --format json -o graph.json
  riftscript audit text --reference cards.json   rendered card text against a reference"""

def _text_arguments(parser: argparse.ArgumentParser) -> None:
    from riftscript.tools import textaudit

    textaudit.add_arguments(parser)


def _text_run(args: argparse.Namespace) -> int:
    from riftscript.tools import textaudit

    return textaudit.run(args, _stream())


# Sub-actions of 'audit' besides the default graph report: name -> (help, add_arguments, run).
SUB_ACTIONS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "text": ("compare the card text rendered from each script with an official reference (a JSON file)",
             _text_arguments, _text_run),
}


def _stream() -> TextIO:
    from riftscript.tools import cli

    return cli.CONTEXT.stream


def cmd_audit(args: argparse.Namespace) -> int:
    """The graph report, an export, or a picture."""
    from riftscript.tools import cli

    catalog = load_catalog(extra_cards=list(args.paths), strict=False,
                           cache=None if cli.CONTEXT.use_cache else False)
    G = build_graph(catalog)
    selection = select(G, catalog, args.set_code, args.card, args.keyword)
    depth = max(0, int(args.depth))
    if args.svg or args.png:
        if not (args.card or args.keyword):
            raise RiftScriptError("a picture shows a neighbourhood: give --card CODE or --keyword NAME")
        from riftscript.tools import auditdraw

        focus = sorted(selection.nodes or ())
        if not focus:
            raise RiftScriptError(f"{selection.what} has no abilities to draw")
        title = f"Interactions of {selection.what}"
        if args.svg:
            auditdraw.write_svg(G, focus, max(1, depth), Path(args.svg), title)
            print(f"wrote {args.svg}", file=_stream())
        if args.png:
            auditdraw.write_png(G, focus, max(1, depth), Path(args.png), title)
            print(f"wrote {args.png}", file=_stream())
        return 0
    target = open(args.output, "w", encoding="utf-8") if args.output else None
    out = target or _stream()
    try:
        if args.format == "text":
            if args.card:
                render_card(G, catalog, resolve_card(catalog, args.card), max(1, depth), out)
            else:
                render_text(audit(catalog, G, selection), G, out)
            return 0
        sub = G
        if selection.nodes is not None:
            if args.card or args.keyword:
                keep = neighbourhood(G, selection.nodes, depth)
            else:  # a set: its abilities, their events and those events' kernel sources
                keep = neighbourhood(G, selection.nodes, 0)
                keep |= {e for n in selection.nodes for e in itertools.chain(G.successors(n), G.predecessors(n))}
                keep |= {k for e in list(keep) if G.nodes[e]["type"] == "event"
                         for k in G.predecessors(e) if G.nodes[k]["type"] == "kernel"}
            sub = G.subgraph(keep).copy()
            sub.graph["scope"] = selection.what
        if args.format == "json":
            out.write(to_json(sub, audit(catalog, G, selection)) + "\n")
        elif args.format == "graphml":
            out.write(to_graphml(sub))
        else:
            out.write(to_dot(sub))
        return 0
    finally:
        if target is not None:
            target.close()
            print(f"wrote {args.output}", file=_stream())


def main(argv: list[str] | None = None) -> int:
    """``python -m riftscript.tools.audit``: the same as ``riftscript audit``."""
    from riftscript.tools import cli

    return cli.main(["audit", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
