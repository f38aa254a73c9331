"""Every exception RiftScript raises on purpose, so callers can catch precisely."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine.state import Decision


class RiftScriptError(Exception):
    """Base class of all RiftScript errors."""


@dataclass(frozen=True)
class Problem:
    """One finding about an input file: where it is and what is wrong."""

    file: str
    line: int | None
    col: int | None
    message: str
    path: str = ""

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        suffix = f" ({self.path})" if self.path else ""
        return f"{where}: {self.message}{suffix}"


class ScriptError(RiftScriptError):
    """Card, keyword, deck or set files are invalid; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class PluginError(RiftScriptError):
    """A plugin conflicts with another or needs another engine version."""


class DeckError(RiftScriptError):
    """A deck breaks the deck-construction rules (103.*); carries each violation."""

    def __init__(self, deck: str, violations: list[str]) -> None:
        self.deck = deck
        self.violations = violations
        super().__init__(f"deck {deck!r} is not legal:\n" + "\n".join(f"  - {v}" for v in violations))


class TeamDeckError(RiftScriptError):
    """Teammates' decks break a 2v2 team rule (491.8.h, 491.8.i): a game can't start with them.

    Each violation names both teammates, the shared card and the rule; ``rules`` lists the rules."""

    def __init__(self, violations: list[str], rules: list[str]) -> None:
        self.violations = violations
        self.rules = rules
        super().__init__("teammates' decks can't be played together:\n" + "\n".join(f"  - {v}" for v in violations))


class IllegalActionError(RiftScriptError, ValueError):
    """An action a player tried is not legal now; the game state is unchanged."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} (rule {rule})" if rule else message)


class GameOverError(IllegalActionError):
    """The game has ended; no more actions are accepted."""


class CorruptStateError(RiftScriptError):
    """A saved game (or match) is damaged or was edited: it is not loaded.

    ``path`` is where in the document (``state.players[0].points``), ``problem`` what is wrong."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"corrupt saved game at {path}: {problem}")


class EngineError(RiftScriptError):
    """An internal invariant broke: a bug in the engine or in a plugin primitive."""


class BuildError(RiftScriptError):
    """A position asked of ``Builder`` can't be built (unknown card, bad location)."""


class NeedDecision(Exception):
    """Raised inside a resolving effect that needs an answer the game does not have yet.

    Not an error: the run loop catches it, records ``decision`` as the pending decision and replays
    the resolution from its snapshot once the player has answered.  It never leaves ``Game.apply``."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision
        super().__init__(decision.prompt)
