"""Plugin discovery: the installed entry points, set folders and extra plugin objects, registered on
one pluggy manager.

Entry points are iterated one by one (not ``load_setuptools_entrypoints``) so that one broken
plugin is reported with its name and cause while the others still load.  Above ``registry`` (the
records plugins return) and ``folders`` (sets as folders, which return those records).
"""
from __future__ import annotations

import importlib
import importlib.metadata
import os
import warnings

import pluggy

from . import hookspecs
from ..errors import PluginError
from .folders import folder_plugins
from .registry import DISABLE_ENV, GROUPS, LoadedPlugin, Plugins, PluginWarning


def _disabled() -> set[str]:
    raw = os.environ.get(DISABLE_ENV, "")
    return {name.strip() for name in raw.split(",") if name.strip()}


def load_plugins(extra: list[object] | None = None, entry_points: bool = True) -> Plugins:
    """Discover plugins from the entry-point groups, plus ``extra`` plugin objects (tests)."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    loaded: list[LoadedPlugin] = []
    disabled = _disabled()
    for name in disabled:
        pm.set_blocked(name)
    if entry_points:
        seen: set[str] = set()
        for group in GROUPS:
            for ep in sorted(importlib.metadata.entry_points(group=group), key=lambda e: e.name):
                if ep.name in seen:
                    continue
                seen.add(ep.name)
                record = LoadedPlugin(ep.name, group, ep.value)
                loaded.append(record)
                if ep.name in disabled:
                    record.error = f"disabled by {DISABLE_ENV}"
                    continue
                try:
                    module = ep.load()
                    pm.register(module, name=ep.name)
                except Exception as exc:  # a broken plugin must not stop the others
                    record.error = f"{type(exc).__name__}: {exc}"
                    warnings.warn(f"skipping {group} plugin {ep.name} ({ep.value}): {record.error}",
                                  PluginWarning, stacklevel=2)
        for folder in folder_plugins():  # set folders (RIFTSCRIPT_SETS, riftscript --set PATH)
            loaded.append(LoadedPlugin(folder.name, "folder", str(folder.root)))
            pm.register(folder, name=folder.name)
    for obj in extra or []:
        name = getattr(obj, "__name__", None) or type(obj).__name__
        pm.register(obj, name=name)
        loaded.append(LoadedPlugin(name, "extra", name))
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"a plugin implements an unknown hook: {exc}") from exc
    return Plugins(pm, loaded)


def import_plugin(module: str) -> object:
    """Import a plugin module by name (for tests and ``--plugin`` options)."""
    return importlib.import_module(module)
