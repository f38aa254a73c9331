"""The Vendetta set folder and its YAML keywords (entry point group ``riftscript.sets``)."""
from riftscript.core.script.folders import package_hooks

riftscript_sets, riftscript_keywords = package_hooks(__file__)
