"""The audit as a report: a selection of the graph (a set, a card, a keyword), the findings about it,
the text people read, and the exports (JSON, GraphML, DOT)."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, TextIO

from riftscript.core.script.catalog import Catalog
from riftscript.core.script.compiler import keyword_id
from riftscript.core.errors import RiftScriptError
from riftscript.core.script.suggest import did_you_mean
from riftscript.tools.audit.findings import Report, find_dead, find_loops, keyword_interactions
from riftscript.tools.audit.graph import ability_graph, build_graph
from riftscript.tools.audit.keys import unread_keys, unused_language

if TYPE_CHECKING:
    # imported where used instead: every riftscript command imports this module to register
    # 'audit', and importing networkx takes about 0.4 s
    import networkx as nx

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
