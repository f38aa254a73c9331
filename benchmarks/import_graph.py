"""The import graph of ``core/`` (or any package folder): which module imports which, and the cycles.

Issue 13 layers the kernel so that a reader can follow it in dependency order; this script shows
where that holds.  Three kinds of edge, read from the source with ``ast`` (nothing is imported):

- *top*: an import at module level, run when the module loads;
- *deferred*: an import inside a function, run when it is called (how a cycle is broken today);
- *typing*: an import under ``if TYPE_CHECKING:`` (never run).

A cycle of top and deferred edges is a runtime import cycle; the report lists each strongly
connected component with its modules and the edges inside it.  Usage:

    python3 benchmarks/import_graph.py [FOLDER] [--package riftscript.core] [--dot FILE]
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

import networkx as nx


def _module_name(folder: Path, path: Path) -> str:
    rel = path.relative_to(folder).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(parts) or "__init__"


def _resolve(current: str, is_package: bool, node: ast.ImportFrom, package: str) -> list[str]:
    """Module names (relative to the folder) an ImportFrom refers to."""
    if node.level == 0:
        if node.module is None or not node.module.startswith(package + "."):
            return []
        base = node.module[len(package) + 1:]
    else:
        parts = current.split(".") if current != "__init__" else []
        if not is_package:
            parts = parts[:-1]
        parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
        base = ".".join(parts + ([node.module] if node.module else []))
    if node.module is None or (node.level and not node.module):
        return [f"{base}.{a.name}".strip(".") for a in node.names]
    return [base, *(f"{base}.{a.name}" for a in node.names)]


def build(folder: Path, package: str) -> nx.MultiDiGraph[str]:
    """The graph: a node per module, an edge per import with ``kind`` top, deferred or typing."""
    G: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    files = sorted(folder.rglob("*.py"))
    names = {_module_name(folder, f) for f in files}
    for path in files:
        current = _module_name(folder, path)
        G.add_node(current)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_nodes = {id(n) for top in tree.body if isinstance(top, ast.If)
                        and "TYPE_CHECKING" in ast.unparse(top.test) for n in ast.walk(top)}
        top_level = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                targets = _resolve(current, path.name == "__init__.py", node, package)
            elif isinstance(node, ast.Import):
                targets = [a.name[len(package) + 1:] for a in node.names if a.name.startswith(package + ".")]
            else:
                continue
            kind = "typing" if id(node) in typing_nodes else "top" if id(node) in top_level else "deferred"
            for target in {t for t in targets if t in names and t != current}:
                G.add_edge(current, target, kind=kind)
    return G


def edges(G: nx.MultiDiGraph[str]) -> list[tuple[str, str, str]]:
    """(importer, imported, kind) for every import, sorted, without repeats."""
    found: set[tuple[str, str, str]] = set()
    for a, b, data in G.edges(data=True):
        found.add((a, b, str(data["kind"])))
    return sorted(found)


def runtime_cycles(G: nx.MultiDiGraph[str]) -> list[list[str]]:
    """Strongly connected groups of modules through top and deferred imports, largest first."""
    H: nx.DiGraph[str] = nx.DiGraph()
    H.add_nodes_from(G)
    H.add_edges_from((a, b) for a, b, kind in edges(G) if kind != "typing")
    return sorted((sorted(c) for c in nx.strongly_connected_components(H) if len(c) > 1), key=lambda c: (-len(c), c))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(Path(__file__).resolve().parents[1] / "core"))
    parser.add_argument("--package", default="riftscript.core")
    parser.add_argument("--dot", help="also write the runtime graph as Graphviz DOT")
    args = parser.parse_args(argv)
    G = build(Path(args.folder), args.package)
    kinds = {k: sum(1 for *_, kind in edges(G) if kind == k) for k in ("top", "deferred", "typing")}
    print(f"{G.number_of_nodes()} modules; imports: {kinds['top']} at load, {kinds['deferred']} deferred, "
          f"{kinds['typing']} for typing only")
    cycles = runtime_cycles(G)
    print(f"runtime import cycles: {len(cycles)}")
    for group in cycles:
        inside = [(a, b, k) for a, b, k in edges(G) if a in group and b in group and k != "typing"]
        print(f"- {len(group)} modules: {', '.join(group)}")
        for a, b, k in inside:
            if k == "deferred":
                print(f"    {a} -> {b} (deferred)")
    if args.dot:
        lines = ["digraph core {"] + [f'  "{a}" -> "{b}"{" [style=dashed]" if k == "deferred" else ""};'
                                      for a, b, k in edges(G) if k != "typing"] + ["}"]
        Path(args.dot).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
