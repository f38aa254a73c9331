"""Sets as folders: ``set.yaml`` + ``cards/`` + ``keywords/`` + ``decks/`` + ``scenarios/`` is a set.

A card author never writes Python or packaging to use a set.  A folder is loaded like any set
plugin when it is named by ``riftscript --set PATH`` or listed in ``RIFTSCRIPT_SETS`` (paths
separated by ``os.pathsep``); its YAML keywords load with it.  The same folder becomes a
pip-installable plugin through a one-line module (``riftscript new set`` writes it)::

    from riftscript.core.script.folders import package_hooks; riftscript_sets, riftscript_keywords = package_hooks(__file__)

so every set, folder or package, is read by this one module.
"""
from __future__ import annotations

import os
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import RiftScriptError
from .hookspecs import hookimpl
from .registry import KeywordSource, PluginWarning, SetSpec

SETS_ENV = "RIFTSCRIPT_SETS"
MANIFEST = "set.yaml"
FOLDER_PREFIX = "folder:"


class SetFolderError(RiftScriptError):
    """A path given as a set folder holds no ``set.yaml``."""


def set_root(path: Path) -> Path:
    """The set folder a path names: the folder itself or its ``set.yaml``, resolved."""
    path = Path(path).expanduser()
    root = path.parent if path.name == MANIFEST and path.is_file() else path
    if not (root / MANIFEST).is_file():
        why = "no such folder" if not root.exists() else f"no {MANIFEST} in it"
        raise SetFolderError(f"{path} is not a set folder ({why}); a set folder holds {MANIFEST}, cards/, "
                             f"and optionally keywords/, decks/ and scenarios/")
    return root.resolve()


def find_root(path: Path) -> Path | None:
    """The set folder a file or folder belongs to: the nearest folder holding ``set.yaml``, if any."""
    path = Path(path).resolve()
    for parent in [path, *path.parents] if path.is_dir() else path.parents:
        if (parent / MANIFEST).is_file():
            return parent
    return None


def parts(root: Path) -> list[Path]:
    """What a set folder loads, as paths for ``load_catalog(extra_cards=...)``: its manifest,
    keywords, cards, tokens with no printed card and decks (not its scenarios, which are run, not loaded)."""
    return [p for p in (root / MANIFEST, root / "keywords", root / "cards", root / "tokens", root / "decks")
            if p.exists()]


def context(path: Path) -> list[Path]:
    """What a file is checked and run with besides the installed sets: the rest of its set folder,
    or, for a scenario outside any set folder, the ``cards/`` folder beside its ``scenarios/``
    folder (test-only cards such as ``tests/rules/cards``)."""
    root = find_root(path)
    if root is not None:
        return parts(root)
    path = Path(path).resolve()
    for parent in [path, *path.parents] if path.is_dir() else path.parents:
        if parent.name == "scenarios":
            cards = parent.parent / "cards"
            return [cards] if cards.is_dir() else []
    return []


def spec_of(root: Path, plugin: str) -> SetSpec:
    """The SetSpec of a set folder; missing subfolders simply hold nothing."""
    decks = root / "decks"
    scenarios = root / "scenarios"
    tokens = root / "tokens"
    return SetSpec(manifest=root / MANIFEST, cards=root / "cards", decks=decks if decks.is_dir() else None,
                   scenarios=scenarios if scenarios.is_dir() else None, plugin=plugin,
                   tokens=tokens if tokens.is_dir() else None)


def keyword_sources(root: Path, plugin: str) -> list[KeywordSource]:
    folder = root / "keywords"
    return [KeywordSource(folder, plugin)] if folder.is_dir() else []


@dataclass(frozen=True)
class FolderSet:
    """The plugin object of one set folder (registered under ``folder:PATH``)."""

    root: Path

    @property
    def name(self) -> str:
        return FOLDER_PREFIX + str(self.root)

    @hookimpl
    def riftscript_sets(self) -> list[SetSpec]:
        return [spec_of(self.root, self.name)]

    @hookimpl
    def riftscript_keywords(self) -> list[KeywordSource]:
        return keyword_sources(self.root, self.name)


def configured() -> list[Path]:
    """The set folders named by ``RIFTSCRIPT_SETS``, each once; a bad entry is skipped with a warning."""
    out: list[Path] = []
    for entry in os.environ.get(SETS_ENV, "").split(os.pathsep):
        if not entry.strip():
            continue
        try:
            root = set_root(Path(entry.strip()))
        except SetFolderError as exc:
            warnings.warn(f"skipping {SETS_ENV} entry: {exc}", PluginWarning, stacklevel=2)
            continue
        if root not in out:
            out.append(root)
    return out


def folder_plugins() -> list[FolderSet]:
    """A plugin object for each configured set folder."""
    return [FolderSet(root) for root in configured()]


@contextmanager
def added(paths: Iterable[Path]) -> Iterator[list[Path]]:
    """Load these set folders too while the block runs (``riftscript --set PATH``): they are put in
    front of ``RIFTSCRIPT_SETS``, so worker processes started meanwhile see them as well."""
    roots = [set_root(p) for p in paths]
    old = os.environ.get(SETS_ENV)
    if roots:
        os.environ[SETS_ENV] = os.pathsep.join([str(r) for r in roots] + ([old] if old else []))
    try:
        yield roots
    finally:
        if roots:
            if old is None:
                os.environ.pop(SETS_ENV, None)
            else:
                os.environ[SETS_ENV] = old


def package_hooks(module_file: str) -> tuple[Callable[[], list[SetSpec]], Callable[[], list[KeywordSource]]]:
    """The ``riftscript_sets`` and ``riftscript_keywords`` hooks of an installed package whose
    ``set.yaml`` sits next to ``module_file`` (the one line of a packaged set folder)."""
    root = Path(module_file).resolve().parent

    @hookimpl
    def riftscript_sets() -> list[SetSpec]:
        return [spec_of(root, "")]

    @hookimpl
    def riftscript_keywords() -> list[KeywordSource]:
        return keyword_sources(root, "")

    return riftscript_sets, riftscript_keywords
