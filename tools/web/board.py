"""What a seat sees and may do, ready for a page.

The board is drawn from the engine's observation only (``game.observation(seat)``: what that
seat may see), so the page shows no more than the API gives.  The seat's legal actions are put in
the words of ``riftscript play`` (:func:`riftscript.tools.interactive.describe`) and grouped, rune
actions apart and collapsed.  The actions themselves never leave the server: a button sends its
index in the list and the number of actions the game had when the page was drawn.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from riftscript.core.script.catalog import Catalog
from riftscript.core.engine.decisions import is_resource_action
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.core.engine.vocabulary import Action
from riftscript.tools.interactive import describe, shown_lines
from riftscript.tools.play import match_summary, summary
from riftscript.tools.playbyplay import render
from riftscript.tools.render import render_lines

# (key, title, collapsed): the order the groups are shown in
GROUPS = (("choice", "Decide", False), ("play", "Play a card", False), ("ability", "Use an ability", False),
          ("move", "Move units", False), ("turn", "Pass or end the turn", False), ("runes", "Runes", True))
KIND_GROUP = {"play": "play", "hide": "play", "activate": "ability", "move": "move"}
NARRATION_LINES = 80


@dataclass
class Button:
    index: int
    label: str


@dataclass
class Group:
    key: str
    title: str
    collapsed: bool
    buttons: list[Button] = field(default_factory=list)


def action_groups(g: Game, legal: list[Action]) -> list[Group]:
    """The legal actions as labelled buttons, grouped; empty groups left out."""
    decision = g.state.decision
    groups = {key: Group(key, title, collapsed) for key, title, collapsed in GROUPS}
    for index, action in enumerate(legal):
        if decision is not None and decision.kind != "priority":
            key = "choice"
        elif is_resource_action(g, action):
            key = "runes"
        else:
            key = KIND_GROUP.get(str(action.get("type")), "turn")
        groups[key].buttons.append(Button(index, describe(g, action)))
    return [group for group in groups.values() if group.buttons]


def narration(g: Game, show_seed: bool = False) -> list[str]:
    """The game's play-by-play (the terminal's), which tells only what every player saw happen; the seed
    (which decides every shuffle) only once the game is over, or in a replay."""
    codes = {oid: obj.code for oid, obj in g.state.objs.items()}
    fields = {bf.loc: g.name(bf.card) for bf in g.state.battlefields}
    return render(g.catalog, g.log, [p.name for p in g.state.players], codes, fields, show_seed or g.over)


def observe(game: Game | Match, viewer: int | None) -> dict[str, Any]:
    """The observation of ``viewer``; None (a replay's "every hand") puts each player's own hand in."""
    if viewer is not None:
        return game.observation(viewer)
    seats = len(game.observation(0)["players"])
    out = game.observation(0)
    for seat in range(1, seats):
        out["players"][seat]["hand"] = game.observation(seat)["players"][seat]["hand"]
    return out


class Texts:
    """Rendered rules text of cards by code (shown when a card is pointed at), computed once; the
    texts of one catalog at a time (the catalog itself is kept to tell, never its id())."""

    def __init__(self) -> None:
        self._catalog: Catalog | None = None  # the catalog the texts were rendered from
        self._texts: dict[str, str] = {}

    def of(self, catalog: Catalog, code: str) -> str:
        if catalog is not self._catalog:  # another catalog: its cards may read otherwise
            self._catalog, self._texts = catalog, {}
        text = self._texts.get(code)
        if text is None:
            card = catalog.cards.get(code)
            text = "\n".join(render_lines(card, catalog)) if card is not None else ""
            self._texts[code] = text
        return text

    def for_observation(self, catalog: Catalog, obs: dict[str, Any]) -> dict[str, str]:
        codes: set[str] = set()

        def visit(node: Any) -> None:
            if isinstance(node, dict):
                code = node.get("code")
                if isinstance(code, str):
                    codes.add(code)
                for value in node.values():
                    visit(value)
            elif isinstance(node, list):
                for value in node:
                    visit(value)

        visit(obs)
        return {code: self.of(catalog, code) for code in sorted(codes)}


def outcome(game: Game | Match) -> str:
    """How the game (or match) ended, in one line (as ``riftscript play`` ends)."""
    if isinstance(game, Match):
        return match_summary(game)
    return summary(game)


def seat_view(game: Game | Match, seat: int | None, texts: Texts, catalog: Catalog,
              legal: bool = True) -> dict[str, Any]:
    """Everything the board template needs for one seat (or every hand, for a replay)."""
    g = game.game if isinstance(game, Match) else game
    obs = observe(game, seat)
    decision = game.pending_decision()
    mine = decision is not None and seat is not None and decision.player == seat
    names = [p["name"] for p in obs["players"]]
    lines = narration(g, show_seed=seat is None)
    return {
        "obs": obs,
        "seat": seat,
        "names": names,
        "texts": texts.for_observation(catalog, obs),
        "mine": mine,
        "waiting_for": names[decision.player] if decision is not None else "",
        "prompt": decision.prompt if mine and decision is not None else "",
        "shown": shown_lines(g, seat) if mine and seat is not None else [],
        "groups": action_groups(g, game.legal_actions()) if mine and legal else [],
        "narration": lines[-NARRATION_LINES:],
        "narration_cut": max(0, len(lines) - NARRATION_LINES),
        "over": game.over,
        "outcome": outcome(game) if game.over else "",
        "match": obs.get("match"),
    }
