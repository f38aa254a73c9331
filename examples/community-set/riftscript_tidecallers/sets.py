"""The Tidecallers set: its manifest and card folder (entry point group ``riftscript.sets``)."""
from __future__ import annotations

from riftscript.core import SetSpec, hookimpl

from . import HERE


@hookimpl
def riftscript_sets() -> list[SetSpec]:
    return [SetSpec(manifest=HERE / "set.yaml", cards=HERE / "cards", scenarios=HERE / "scenarios",
                    plugin="tidecallers")]
