"""What the audit finds in the graph: potential loops with example cycles, dead triggers, and which
keywords feed which."""
from __future__ import annotations

from collections import deque
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

from riftscript.core.script.suggest import did_you_mean
from riftscript.tools.audit.graph import event_node_id
from riftscript.tools.audit.keys import KeyUse

if TYPE_CHECKING:
    # imported where used instead: every riftscript command imports this module to register
    # 'audit', and importing networkx takes about 0.4 s
    import networkx as nx

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
