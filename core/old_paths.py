"""Documented aliases for the module paths ``riftscript.core`` had before it was layered (issue 13).

``core/`` was one flat folder; its modules now live in ``core/script/`` (reading and compiling
scripts) and ``core/engine/`` (the rules).  Set packages made by ``riftscript new set`` before the
move import ``riftscript.core.folders``, and plugins written against older releases import
``riftscript.core.hookspecs``, ``riftscript.core.registry`` or ``riftscript.core.state``; those
imports keep working: each old path below resolves to the very module object at its new path (one
module, never a copy).  The alias is for the module only: a function that moved to another module
(``actions.attached_to`` is ``layers.attached_to`` now) is found at its new home.  New code imports
``riftscript.core`` (the public API) or the new paths.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Sequence

# old path (under riftscript.core) -> new path (under riftscript.core)
MOVED: dict[str, str] = {
    **{name: f"script.{name}" for name in ("yamlio", "schema", "catalog", "cards", "cardrefs", "decks", "registry",
                                           "hookspecs", "folders", "suggest")},
    "fastcheck": "script.schema_fastpath", "cache": "script.validated_cache",
    **{name: f"engine.{name}" for name in ("state", "events", "rng", "layers", "effects", "replacement", "payment",
                                           "triggers", "chain", "combat", "movement", "scoring", "cleanup", "turn",
                                           "setup", "decisions", "offer", "observe", "game", "match", "builder",
                                           "saves", "invariants", "agents", "jsonshape")},
    "actions": "engine.verbs", "loops": "engine.loop_draw",
}
PACKAGE = __name__.rpartition(".")[0]


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``riftscript.core.<old>`` and loads it as the module at its new path."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        prefix, _, name = fullname.rpartition(".")
        if prefix != PACKAGE or name not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(f"{PACKAGE}.{MOVED[spec.name.rpartition('.')[2]]}")

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module was loaded at its new path."""


def install() -> None:
    """Put the alias finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.append(OldPaths())
