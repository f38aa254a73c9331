"""Small helpers shared by the rules tests."""
from __future__ import annotations

from typing import Any

from riftscript.core.engine.game import Game
from riftscript.tools.pytest_plugin import catalog


def events(g: Game, etype: str, since: int = 0, **match: Any) -> list[dict[str, Any]]:
    """The events of one type (after log position ``since``) whose fields match."""
    return [e for e in g.log[since:] if e["t"] == etype and all(e.get(k) == v for k, v in match.items())]


def pass_(g: Game, times: int = 1) -> None:
    for _ in range(times):
        g.apply({"type": "pass"})


__all__ = ["catalog", "events", "pass_"]
