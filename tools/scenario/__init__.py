"""YAML scenarios: set up a position, act as the players would, and check what follows.

A scenario file (``schemas/scenario.schema.json``) holds one scenario or several under
``scenarios``.  Each names the rule numbers and cards it proves.  In strict mode (the default)
every decision must be scripted: a step by the wrong player fails naming the decision the game
waits for.  Failures say what was expected and what was found, with the scenario's
``file:line`` and the tail of the event log.

Deck checks (103, 161.2.a, 825.3.a ...): a scenario with ``deck:`` (an installed deck's name, or a
deck in the deck-file format without ``schema_version``) runs ``riftscript.core.script.decks.violations``
on it; ``expect_legal: true`` wants none, ``expect_violations: [text, ...]`` wants each text in
some violation, ``expect_no_violations: [text, ...]`` wants each text in none.  ``setup``/``steps``
are then optional.

Positional references: ``A.hand.0`` (first card in A's hand), ``A.deck.0`` (top of the main deck),
``A.deck.-1`` (bottom), likewise ``A.trash.N``, ``A.runes.N``, ``A.rune_deck.N``, and
``A.champion``.  They are resolved when used; a step's ``bind: {alias: ref}`` fixes them as aliases
(useful in ``setup: {decks: ...}`` games, whose cards are shuffled).  In such a game the first
step's ``events`` also see the setup's events (turn order, opening draws, battlefields).

The whole language (setup of attachments, effects, chain items, pools and mulligans; refusals by rule
number and by a player without priority; decisions the engine takes itself; split damage) is
documented in ``schemas/README.md``, section "Scenarios".

The package: ``model`` (the scenario, its references, its failure), ``setup`` (building the
position or the game) and ``runner`` (steps and expectations).
"""
from __future__ import annotations

from riftscript.tools.scenario.model import Refs, Scenario, ScenarioFailure, load_file
from riftscript.tools.scenario.runner import Runner, rule_matches, run_scenario, to_action
from riftscript.tools.scenario.setup import build, build_match

__all__ = ["Refs", "Runner", "Scenario", "ScenarioFailure", "build", "build_match", "load_file", "rule_matches",
           "run_scenario", "to_action"]
