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
from .suggest import did_you_mean
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
                except KeyboardInterrupt:
                    raise
                except BaseException as exc:  # SystemExit too: a broken plugin must not stop the others
                    if pm.has_plugin(ep.name):  # pluggy keeps the hooks it added before the one it refused
                        pm.unregister(name=ep.name)
                    _skip(record, _cause(exc))
                    continue
                unknown = _unknown_hooks(pm, module)
                if unknown:  # pm.check_pending() would refuse every command for it
                    pm.unregister(module)
                    _skip(record, unknown)
        for folder in folder_plugins():  # set folders (RIFTSCRIPT_SETS, riftscript --set PATH)
            loaded.append(LoadedPlugin(folder.name, "folder", str(folder.root)))
            pm.register(folder, name=folder.name)
    for obj in extra or []:
        if pm.is_registered(obj):  # given twice, or installed too: it is loaded once
            continue
        name = getattr(obj, "__name__", None) or type(obj).__name__
        pm.register(obj, name=name)
        loaded.append(LoadedPlugin(name, "extra", name))
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"a plugin implements an unknown hook: {exc}") from exc
    return Plugins(pm, loaded)


def _skip(record: LoadedPlugin, error: str) -> None:
    record.error = error
    warnings.warn(f"skipping {record.group} plugin {record.name} ({record.module}): {error}",
                  PluginWarning, stacklevel=3)


def _cause(exc: BaseException) -> str:
    """``Type: message``; an exit says so, as its message is only the exit status."""
    if isinstance(exc, SystemExit):
        return f"SystemExit: it exits (status {exc.code!r}) while being loaded"
    return f"{type(exc).__name__}: {exc}"


def _unknown_hooks(pm: pluggy.PluginManager, plugin: object) -> str:
    """What is wrong with the hooks ``plugin`` implements that RiftScript doesn't have (a misspelled
    name, say), or ''."""
    hooks = [name for name in vars(hookspecs) if name.startswith("riftscript_")]
    problems = [f"it implements {caller.name}, which is not a RiftScript hook{did_you_mean(caller.name, hooks)}"
                for caller in pm.get_hookcallers(plugin) or []
                if not caller.has_spec()
                and any(impl.plugin is plugin and not impl.optionalhook for impl in caller.get_hookimpls())]
    return "; ".join(problems)


def import_plugin(module: str) -> object:
    """Import a plugin module by name (for tests and ``--plugin`` options)."""
    return importlib.import_module(module)
