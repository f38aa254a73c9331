"""What the built-in sets bring, apart from whatever other set packages are installed next to RiftScript (a
test counting decks or cards must pass with an outside set such as Vendetta installed, and without it)."""
from __future__ import annotations

from importlib import metadata
from pathlib import Path

from riftscript.core.script.catalog import Catalog


def builtin_set_codes(catalog: Catalog) -> set[str]:
    """The codes of the sets shipped with RiftScript (their plugins are modules of the riftscript package)."""
    assert catalog.plugins is not None
    builtin = {p.name for p in catalog.plugins.loaded if p.module.startswith("riftscript.")}
    return {code for code, info in catalog.sets.items() if info.plugin in builtin}


def builtin_decks(catalog: Catalog) -> list[str]:
    """The names of the decks in the built-in sets' deck folders, sorted."""
    folders = [info.spec.decks for code, info in catalog.sets.items()
               if code in builtin_set_codes(catalog) and info.spec.decks is not None]
    return sorted(name for name, (_, file) in catalog.decks.items()
                  if any(Path(file).is_relative_to(folder) for folder in folders))


def walkthrough_set_installed() -> bool:
    """Whether the set the README walkthrough makes and installs (riftscript-set-mys) is installed."""
    try:
        metadata.distribution("riftscript-set-mys")
    except metadata.PackageNotFoundError:
        return False
    return True
