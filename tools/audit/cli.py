"""``riftscript audit``: the command line of the interaction audit and of ``audit text``."""
from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any, Callable, TextIO

from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import RiftScriptError
from riftscript.tools.argtypes import output_file, whole
from riftscript.tools.audit.graph import build_graph
from riftscript.tools.audit.report import (audit, neighbourhood, render_card, render_text, resolve_card, select,
                                           to_dot, to_graphml, to_json)

FORMATS = ("text", "json", "graphml", "dot")


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
