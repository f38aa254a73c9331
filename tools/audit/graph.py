"""The interaction graph: every ability a node, with an edge to each event its effect tree can cause
and from each event it listens to; and its projection onto abilities (A feeds B)."""
from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from riftscript.core.script.cards import Json
from riftscript.core.script.catalog import Catalog
from riftscript.core.script.compiler import keyword_id
from riftscript.core.script.registry import EffectType
from riftscript.tools.audit.kernel import KERNEL_PROCEDURES, kernel_sources

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

# Non-resource costs and the events paying them emits (playing.pay_other, replacement._accept).
COST_EVENTS: dict[str, tuple[str, ...]] = {
    "exhaust_self": ("exhaust",), "exhaust": ("exhaust",), "discard": ("discard",),
    "recycle_from_trash": ("recycle",), "recycle_self": ("recycle", "leave_board"),
    "spend_buff": ("spend_buff",), "spend_buff_self": ("spend_buff",),
    "kill": ("die", "leave_board"), "kill_self": ("die", "leave_board"),
}

# Effects whose children a player can decline or avoid choosing ('you may', 'choose one').
OPTIONAL_EFFECTS = frozenset({"may", "choose_one"})


LISTENING = ("triggered", "replacement")


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
                            other_subject=isinstance(pattern.get("subject"), dict)
                            and pattern["subject"].get("other") is True,
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
    that listen for their own object ('when I die'), and no listener of that card that listens for
    another object ('when another unit of yours is buffed').
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
            if data["self_only"] and listen.get("other_subject") and nodes[a]["card"] \
                    and nodes[a]["card"] == nodes[listener]["card"]:
                continue  # what it does to its own card is no event about "another" object for that card
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
