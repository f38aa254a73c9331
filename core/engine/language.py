"""The script language as a whole: every handler table (the interpreter's and the trigger filters) and
the script keys they read, for the tools that describe the language (audit, render, tests).

Above ``effects`` and ``triggers``, which fill the tables as they load.
"""
from __future__ import annotations

from typing import Any

from .effects import AMOUNTS, CONDITIONS, FILTERS, LOCATIONS, PLACES, PLAYERS, REFS, RELATIONS, SELECTION_KEYS, \
    STATES, STATS, ZONES, Table
from .triggers import WHEN
from . import conditions, selectors  # noqa: F401 - their words register as they load

def language_tables() -> dict[str, Table[Any]]:
    """Every handler table of the script language, the trigger filters included."""
    tables: list[Table[Any]] = [FILTERS, LOCATIONS, STATES, STATS, AMOUNTS, CONDITIONS, PLAYERS, RELATIONS,
                                REFS, PLACES, ZONES, WHEN]
    return {t.name: t for t in tables}


def language_keys() -> frozenset[str]:
    """The script keys the tables read: keys of tables that list properties (filter keys, trigger
    filters) and the fields their entries read (what conditions and amounts are made of)."""
    out: set[str] = set(SELECTION_KEYS) | {"named", "min", "max"}  # {named: NAME}; the bounds of a range
    for table in language_tables().values():
        if any(pointer.endswith("/properties") for pointer in table.schema):
            out.update(table.entries)
            out.update(table.plugin)
        for fields in table.fields.values():
            out.update(fields)
    return frozenset(out)
