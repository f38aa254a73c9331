"""The interaction audit: which abilities can set off which, found from the scripts alone.

Card designers and rules engineers need to see combos, loops and dead text before players do,
and no one reads 300 scripts pairwise.  :func:`build_graph` turns every installed ability (card
abilities, keyword definitions, and the triggers and replacements that effects create) into a
node of a networkx ``MultiDiGraph``: an edge to every event its effect tree can cause, and from
every event it listens to.  The kernel's procedures are event sources too; their events are
found by reading their ``g.emit`` calls and ``g.emit_event`` events, so the audit follows the kernel as it
changes.

:func:`audit` projects that graph onto abilities (A feeds B when A can cause an event B listens
to) and reports potential loops (strongly connected components, with short example cycles),
dead triggers, which keywords feed which, and script keys the engine never reads.

The package reads in the order of the work: ``kernel`` (the kernel's procedures as event sources),
``graph`` (walking scripts into the graph), ``findings`` (loops, dead triggers, keyword cells),
``keys`` (which script keys the engine reads), ``report`` (selection, text and exports) and ``cli``.
"""
from __future__ import annotations

from riftscript.tools.audit.cli import FORMATS, add_arguments, add_commands, cmd_audit, main
from riftscript.tools.audit.findings import (Cycle, DeadTrigger, KeywordCell, Loop, Report, example_cycles,
                                             find_dead, find_loops, keyword_interactions)
from riftscript.tools.audit.graph import (Cause, GraphBuilder, ScriptWalker, ability_graph, ability_node_id,
                                          build_graph, describe_condition, event_node_id, kernel_node_id,
                                          keyword_node_id)
from riftscript.tools.audit.kernel import KERNEL_PROCEDURES, kernel_sources
from riftscript.tools.audit.keys import (DOCUMENTATION_KEYS, KERNEL_KEYS, KeyUse, primitive_fields, read_keys,
                                         schema_keys, script_keys, unread_keys, unused_language)
from riftscript.tools.audit.report import (Selection, audit, flat_graph, neighbourhood, render_card, render_text,
                                           resolve_card, resolve_keyword, select, to_dot, to_graphml, to_json)

__all__ = ["DOCUMENTATION_KEYS", "FORMATS", "KERNEL_KEYS", "KERNEL_PROCEDURES", "Cause", "Cycle", "DeadTrigger",
           "GraphBuilder", "KeyUse", "KeywordCell", "Loop", "Report", "ScriptWalker", "Selection", "ability_graph",
           "ability_node_id", "add_arguments", "add_commands", "audit", "build_graph", "cmd_audit",
           "describe_condition", "event_node_id", "example_cycles", "find_dead", "find_loops", "flat_graph",
           "kernel_node_id", "kernel_sources", "keyword_interactions", "keyword_node_id", "main", "neighbourhood",
           "primitive_fields", "read_keys", "render_card", "render_text", "resolve_card", "resolve_keyword",
           "schema_keys", "script_keys", "select", "to_dot", "to_graphml", "to_json", "unread_keys", "unused_language"]
