"""The Undertow keyword, scripted in YAML (entry point group ``riftscript.keywords``)."""
from __future__ import annotations

from riftscript.core import KeywordSource, hookimpl

from . import HERE


@hookimpl
def riftscript_keywords() -> list[KeywordSource]:
    return [KeywordSource(HERE / "keywords", plugin="tidecallers-keywords")]
