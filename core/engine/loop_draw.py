"""The loop rule: how a game that would never end is settled.

Neither the Core Rules of 2026-03-30 nor the October 2026 digests contain a rule for an endless
loop (engine-notes.md, 'Endless loops').  Decision, kept in this one place so a future rule can
replace it: following the practice of other card games that the notes mention, a loop made only
of mandatory actions ends the game as a draw.  The engine detects it with a bound: more than
``Game.max_events`` events without any player decision other than passing priority (passing never
breaks a loop of mandatory triggers), or more than TURN_LIMIT turns.  The
settlement is recorded as a ``loop_draw`` event in the log.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

TURN_LIMIT = 400


def settle_runaway(g: "Game") -> None:
    """Mandatory loop: no decision for too long; the game is a draw."""
    s = g.state
    s.tasks.clear()
    s.pending_triggers.clear()
    s.chain.clear()
    s.winners = []
    s.result = "draw"
    s.decision = None
    g.emit("loop_draw", reason=f"more than {g.max_events} events without a player decision (mandatory loop)")


def check_turn_limit(g: "Game") -> None:
    s = g.state
    if s.turn >= TURN_LIMIT and s.winners is None:
        s.winners = []
        s.result = "draw"
        g.emit("loop_draw", reason=f"turn limit of {TURN_LIMIT} reached")


def decision_made(g: "Game") -> None:
    """A player decided: the mandatory-loop counter starts again."""
    g.state.loop_guard = g.state.log_count
