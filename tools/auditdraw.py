"""Pictures of one card's or keyword's neighbourhood in the interaction graph.

The layout is layered left to right: what feeds the focus, the focus, what it feeds, with the
events between abilities, so a reader follows cause and effect like text.  SVG is written here
without any dependency (the picture works on every install and the output is deterministic, so
it can be committed and diffed); PNG needs a rasteriser, so it uses matplotlib when the optional
``[audit]`` extra is installed.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import networkx as nx

from riftscript.core.errors import RiftScriptError

COLUMN = 250
ROW = 46
MARGIN = 30
TITLE = 40
LEGEND = 50
MAX_PER_COLUMN = 16
SIZES = {"ability": (210, 34), "event": (130, 24), "kernel": (150, 24)}
FILLS = {"focus": "#ffe9a8", "ability": "#f4f4f4", "event": "#dbe9f6", "kernel": "#e3e3e3"}
COLOURS = {"causes": "#b22222", "listens": "#4682b4", "replaces": "#800080", "grants": "#2e7d32",
           "creates": "#2e7d32"}


@dataclass
class Box:
    """A placed node: centre, size, and the lines of its label."""

    node: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    lines: list[str]
    focus: bool = False
    dashed: bool = False


@dataclass
class Arrow:
    a: str
    b: str
    relation: str
    dashed: bool
    loop: bool = False


@dataclass
class Layout:
    boxes: dict[str, Box]
    arrows: list[Arrow]
    width: float
    height: float
    title: str
    notes: list[str]


def _columns(G: nx.MultiDiGraph[str], focus: list[str], depth: int) -> dict[str, int]:
    """Signed distance from the focus: negative for what feeds it, positive for what it feeds."""
    column = {n: 0 for n in focus}
    for sign, step in ((1, G.successors), (-1, G.predecessors)):
        frontier = set(focus)
        seen = set(focus)
        for hop in range(1, 2 * depth + 1):
            frontier = {m for n in frontier for m in step(n)} - seen
            seen |= frontier
            for node in frontier:
                if node not in column or abs(column[node]) > hop:
                    column[node] = sign * hop
    return column


def _label(G: nx.MultiDiGraph[str], node: str) -> list[str]:
    data = G.nodes[node]
    if data["type"] == "event":
        return [data["event"]]
    if data["type"] == "kernel":
        return [node]
    name = data["name"] if len(data["name"]) <= 30 else data["name"][:29] + "…"
    extra = f" ({data['keyword']})" if data["keyword"] else ""
    return [f"{node}{extra}", name]


def layout(G: nx.MultiDiGraph[str], focus: list[str], depth: int, title: str) -> Layout:
    """Place the neighbourhood in columns, ordered to keep edges short (barycentre sweeps)."""
    column = _columns(G, focus, depth)
    by_col: dict[int, list[str]] = {}
    for node, col in column.items():
        by_col.setdefault(col, []).append(node)
    notes = []
    for col, nodes in by_col.items():
        if len(nodes) > MAX_PER_COLUMN:
            nodes.sort(key=lambda n: (-G.degree(n), n))
            notes.append(f"column {col:+d}: {len(nodes) - MAX_PER_COLUMN} more not drawn")
            del nodes[MAX_PER_COLUMN:]
        nodes.sort(key=lambda n: (G.nodes[n]["type"], n))
    keep = {n for nodes in by_col.values() for n in nodes}
    cols = sorted(by_col)
    position = {n: float(i) for c in cols for i, n in enumerate(by_col[c])}
    for _ in range(4):
        for sweep in (cols, list(reversed(cols))):
            for col in sweep:
                def centre(n: str) -> float:
                    near = [position[m] for m in nx.all_neighbors(G, n) if m in keep and column[m] != col]
                    return sum(near) / len(near) if near else position[n]
                by_col[col].sort(key=lambda n: (centre(n), n))
                for i, n in enumerate(by_col[col]):
                    position[n] = float(i)
    tallest = max(len(nodes) for nodes in by_col.values())
    height = TITLE + tallest * ROW + LEGEND + 2 * MARGIN
    width = len(cols) * COLUMN + 2 * MARGIN
    boxes: dict[str, Box] = {}
    for i, col in enumerate(cols):
        nodes = by_col[col]
        top = TITLE + MARGIN + (tallest - len(nodes)) * ROW / 2
        for j, node in enumerate(nodes):
            kind = G.nodes[node]["type"]
            w, h = SIZES[kind]
            boxes[node] = Box(node, kind, MARGIN + i * COLUMN + COLUMN / 2, top + j * ROW + ROW / 2, w, h,
                              _label(G, node), focus=node in focus,
                              dashed=kind == "ability" and G.nodes[node]["mode"] == "optional")
    # Only edges along the reading direction (one column to the next), and those from what the
    # focus feeds back to what it listens to, which close a loop through it; the others (what a
    # feeder also causes elsewhere) would only cross the picture.
    arrows = []
    for a, b, d in sorted(G.edges(data=True), key=lambda e: (e[0], e[1])):
        if a not in boxes or b not in boxes:
            continue
        loop = column[a] > 0 > column[b]
        if column[b] == column[a] + 1 or loop:
            arrows.append(Arrow(a, b, d["relation"], bool(d.get("optional")), loop))
    return Layout(boxes, arrows, width, height, title, notes)


def _path(lay: Layout, arrow: Arrow) -> tuple[float, float, float, float, float, float, float, float]:
    a, b = lay.boxes[arrow.a], lay.boxes[arrow.b]
    if b.x > a.x:
        x1, y1, x2, y2 = a.x + a.w / 2, a.y, b.x - b.w / 2, b.y
        bend = (x2 - x1) / 2
        return x1, y1, x1 + bend, y1, x2 - bend, y2, x2, y2
    # a back edge (a loop) or within a column: leave right, come round below, enter left
    x1, y1, x2, y2 = a.x + a.w / 2, a.y + a.h / 4, b.x - b.w / 2, b.y + b.h / 4
    drop = max(a.y, b.y) + ROW * 0.9
    return x1, y1, x1 + COLUMN * 0.45, drop, x2 - COLUMN * 0.45, drop, x2, y2


def to_svg(lay: Layout) -> str:
    """The picture as a standalone SVG document."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width:.0f}" height="{lay.height:.0f}" '
           f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" font-family="Helvetica, Arial, sans-serif">',
           "<defs>"]
    for relation, colour in sorted(COLOURS.items()):
        out.append(f'<marker id="arrow-{relation}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
                   f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/>'
                   f"</marker>")
    out.append("</defs>")
    out.append('<rect width="100%" height="100%" fill="white"/>')
    out.append(f'<text x="{MARGIN}" y="{MARGIN + 6}" font-size="16" font-weight="bold">{escape(lay.title)}</text>')
    for arrow in lay.arrows:
        x1, y1, c1x, c1y, c2x, c2y, x2, y2 = _path(lay, arrow)
        dash = ' stroke-dasharray="5,3"' if arrow.dashed else ""
        width = 2.4 if arrow.loop else 1.3
        out.append(f'<path d="M{x1:.1f},{y1:.1f} C{c1x:.1f},{c1y:.1f} {c2x:.1f},{c2y:.1f} {x2:.1f},{y2:.1f}" '
                   f'fill="none" stroke="{COLOURS[arrow.relation]}" stroke-width="{width}"{dash} '
                   f'marker-end="url(#arrow-{arrow.relation})"/>')
    for box in lay.boxes.values():
        fill = FILLS["focus"] if box.focus else FILLS[box.kind]
        rx = box.h / 2 if box.kind == "event" else 4
        dash = ' stroke-dasharray="4,3"' if box.dashed else ""
        out.append(f'<rect x="{box.x - box.w / 2:.1f}" y="{box.y - box.h / 2:.1f}" width="{box.w}" '
                   f'height="{box.h}" rx="{rx}" fill="{fill}" stroke="#555"{dash}/>')
        for i, line in enumerate(box.lines):
            dy = (i - (len(box.lines) - 1) / 2) * 13 + 4
            weight = ' font-weight="bold"' if i == 0 and box.kind == "ability" else ""
            out.append(f'<text x="{box.x:.1f}" y="{box.y + dy:.1f}" font-size="11" text-anchor="middle"{weight}>'
                       f"{escape(line)}</text>")
    y = lay.height - MARGIN
    x = float(MARGIN)
    for relation, colour in sorted(COLOURS.items()):
        out.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 24}" y2="{y - 4}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{x + 30}" y="{y}" font-size="11">{relation}</text>')
        x += 110
    out.append(f'<text x="{x}" y="{y}" font-size="11">dashed: optional ("may"); thick: closes a loop '
               f'through the focus</text>')
    for i, note in enumerate(lay.notes):
        out.append(f'<text x="{MARGIN}" y="{y - 18 - 14 * i}" font-size="10" fill="#777">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_svg(G: nx.MultiDiGraph[str], focus: list[str], depth: int, path: Path, title: str) -> None:
    path.write_text(to_svg(layout(G, focus, depth, title)), encoding="utf-8")


def _matplotlib() -> tuple[Any, Any, Any]:
    """pyplot, patches and path, imported only when a PNG is asked for (an optional extra)."""
    try:
        importlib.import_module("matplotlib").use("Agg")
        load = importlib.import_module
        return load("matplotlib.pyplot"), load("matplotlib.patches"), load("matplotlib.path")
    except ImportError:
        raise RiftScriptError("--png needs matplotlib: pip install 'riftscript[audit]' "
                              "(or draw an SVG with --svg, which needs nothing)") from None


def write_png(G: nx.MultiDiGraph[str], focus: list[str], depth: int, path: Path, title: str) -> None:
    """The same layout rasterised by matplotlib."""
    plt, patches, mpath = _matplotlib()
    lay = layout(G, focus, depth, title)
    fig = plt.figure(figsize=(lay.width / 100, lay.height / 100), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, lay.width)
    ax.set_ylim(lay.height, 0)
    ax.axis("off")
    ax.text(MARGIN, MARGIN + 6, lay.title, fontsize=12, fontweight="bold")
    for arrow in lay.arrows:
        x1, y1, c1x, c1y, c2x, c2y, x2, y2 = _path(lay, arrow)
        code = mpath.Path
        curve = code([(x1, y1), (c1x, c1y), (c2x, c2y), (x2, y2)],
                     [code.MOVETO, code.CURVE4, code.CURVE4, code.CURVE4])
        ax.add_patch(patches.FancyArrowPatch(path=curve, arrowstyle="-|>", mutation_scale=10,
                                             color=COLOURS[arrow.relation], lw=2.0 if arrow.loop else 1.1,
                                             linestyle="--" if arrow.dashed else "-"))
    for box in lay.boxes.values():
        fill = FILLS["focus"] if box.focus else FILLS[box.kind]
        style = f"round,pad=0,rounding_size={box.h / 2 if box.kind == 'event' else 4}"
        ax.add_patch(patches.FancyBboxPatch((box.x - box.w / 2, box.y - box.h / 2), box.w, box.h,
                                            boxstyle=style, facecolor=fill, edgecolor="#555",
                                            linestyle="--" if box.dashed else "-"))
        ax.text(box.x, box.y, "\n".join(box.lines), ha="center", va="center", fontsize=7.5)
    y = lay.height - MARGIN
    x = float(MARGIN)
    for relation, colour in sorted(COLOURS.items()):
        ax.plot([x, x + 24], [y - 4, y - 4], color=colour, lw=2)
        ax.text(x + 30, y, relation, fontsize=8, va="bottom")
        x += 110
    ax.text(x, y, 'dashed: optional ("may"); thick: closes a loop through the focus', fontsize=8, va="bottom")
    for i, note in enumerate(lay.notes):
        ax.text(MARGIN, y - 18 - 14 * i, note, fontsize=7, color="#777", va="bottom")
    fig.savefig(str(path), dpi=100)
    plt.close(fig)
