"""The Core Rules keywords, shipped as YAML scripts in ``plugins/keywords/``."""
from __future__ import annotations

from pathlib import Path

from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import KeywordSource


@hookimpl
def riftscript_keywords() -> list[KeywordSource]:
    return [KeywordSource(Path(__file__).parent / "keywords", plugin="core-keywords")]
