"""The kernel's procedures as event sources, found by reading their ``g.emit`` calls and the events they
write out whole for ``g.emit_event`` (so the audit follows the kernel as it changes)."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources


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


# The modules (or ``module.function``) of each kernel procedure, by default the module of its name:
# playing a card and activating an ability went from chain.py to modules of their own, and the
# queued tasks of setup run from the loop's dispatch (once turn.run_task); they stay these procedures'.
KERNEL_MODULES: dict[str, tuple[str, ...]] = {"chain": ("chain", "playing", "activation", "targeting"),
                                              "turn": ("turn", "loop.run_task")}

# The subpackages of riftscript.core whose modules the reader finds by their own name.
LAYERS = ("engine", "script")

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
        """The functions of the module ``name`` (a module's own name: ``turn`` is core/engine/turn.py)."""
        if name in self.modules:
            return self.modules[name]
        entry = next((e for e in (self.package.joinpath(folder, f"{name}.py") for folder in LAYERS) if e.is_file()),
                     self.package.joinpath(f"{name}.py"))
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
                elif isinstance(node, ast.Dict):
                    emitted = _written_out_event(node)  # g.emit_event({"n": 0, "t": ..., ...})
                    if emitted is not None:
                        record.emits.add(emitted)
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
        """A relative import inside riftscript.core; modules are named by their own name (short names
        are unique across core/script and core/engine)."""
        if node.level == 0:
            return
        for alias in node.names:
            if node.module is None or node.module in LAYERS:
                modules.add(alias.asname or alias.name)
            else:
                imported[alias.asname or alias.name] = (node.module.rpartition(".")[2], alias.name)

    def function(self, key: FunctionKey) -> _Function | None:
        return self.module(key[0]).get(key[1])


@lru_cache(maxsize=1)
def kernel_sources() -> dict[str, tuple[str, ...]]:
    """The events each kernel procedure can emit: its own ``g.emit`` calls and those of the game
    actions it calls (actions.kill -> die, ...).  A call into another kernel procedure belongs to
    that procedure's source."""
    source = _CoreSource()

    def closure(key: FunctionKey, seen: set[FunctionKey]) -> set[str]:
        """The events of every function reachable from ``key`` not yet in ``seen`` (which it extends):
        a walk, not a memo, so that a cycle of calls (verbs -> replacement -> payment -> verbs) never
        leaves a function's events half counted."""
        events: set[str] = set()
        stack = [key]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            record = source.function(current)
            if record is not None:
                events |= record.emits
                stack.extend(record.calls)
        return events

    owner = {module: procedure for procedure in KERNEL_PROCEDURES
             for module in KERNEL_MODULES.get(procedure, (procedure,)) if "." not in module}
    out: dict[str, tuple[str, ...]] = {}
    for procedure in KERNEL_PROCEDURES:
        events: set[str] = set()
        reached: set[FunctionKey] = set()
        for part in KERNEL_MODULES.get(procedure, (procedure,)):
            module, _, only = part.partition(".")
            functions = source.module(module)
            for name, record in functions.items():
                if only and name != only:
                    continue
                events |= record.emits
                for call in record.calls:
                    if owner.get(call[0], procedure) == procedure:
                        events |= closure(call, reached)
        out[procedure] = tuple(sorted(events))
    return out


def _written_out_event(node: ast.Dict) -> str | None:
    """The type of an event written out whole for ``Game.emit_event``, ``{"n": 0, "t": "type", ...}`` (its
    first two keys), or None for any other dict."""
    keys = node.keys
    if len(keys) >= 2 and isinstance(keys[0], ast.Constant) and keys[0].value == "n" \
            and isinstance(keys[1], ast.Constant) and keys[1].value == "t":
        kind = node.values[1]
        if isinstance(kind, ast.Constant) and isinstance(kind.value, str):
            return kind.value
    return None
