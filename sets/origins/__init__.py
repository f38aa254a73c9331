"""Origins (OGN): registered through the ``riftscript.sets`` entry point."""
from __future__ import annotations

from pathlib import Path

from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import SetSpec

HERE = Path(__file__).parent


@hookimpl
def riftscript_sets() -> list[SetSpec]:
    return [SetSpec(manifest=HERE / "set.yaml", cards=HERE / "cards", decks=HERE / "decks",
                    scenarios=HERE / "scenarios", plugin="origins")]
