"""A readable play-by-play of a game's event log."""
from __future__ import annotations

from typing import Any, Callable, Iterable

from riftscript.core.script.catalog import Catalog
from riftscript.core.engine.targeting import Modes, ability_modes, card_modes, target_slots, trigger_modes
from riftscript.core.engine.state import BF0
from riftscript.tools.render import Renderer

Event = dict[str, Any]
# events that are no change to the game: what happens between the last pass and a chain item's
# 'resolve' event, other than these, is what the item did
BOOKKEEPING = {"action", "pass", "resolve"}


def listing(names: list[str]) -> str:
    """Names as one list: 'a, b, c', or 'Jinx, Demolitionist; Vi, Destructive' when a name has a comma."""
    return ("; " if any("," in name for name in names) else ", ").join(names)


class Narrator:
    """Turns events into English lines; events of no interest to a reader are skipped."""

    def __init__(self, catalog: Catalog, players: list[str], codes: dict[int, str],
                 battlefields: dict[int, str] | None = None, show_seed: bool = True) -> None:
        self.catalog = catalog
        # the seed decides every shuffle: a player in a game still going must not read it (it would tell the
        # order of every deck and every hand), so a player's view leaves it out until the game is over
        self.show_seed = show_seed
        self.players = players
        self.codes = codes
        self.battlefields = battlefields or {}
        self.triggered: dict[int, Event] = {}  # chain item -> its 'trigger' event
        self.changed = False  # whether anything but passing happened since the last pass
        self.chose = False  # whether a player answered a choice since the last pass

    def card(self, oid: Any) -> str:
        code = self.codes.get(int(oid)) if oid is not None else None
        if code is None or code not in self.catalog.cards:
            return f"#{oid}"
        return self.catalog.cards[code].name

    def who(self, player: Any) -> str:
        try:
            return self.players[int(player)]
        except (TypeError, ValueError, IndexError):
            return "?"

    def where(self, loc: Any) -> str:
        try:
            loc = int(loc)
        except (TypeError, ValueError):
            return "?"
        if loc >= BF0:
            return self.battlefields.get(loc, f"battlefield {loc - BF0 + 1}")
        if loc < 0:
            return "nowhere"
        return f"{self.who(loc)}'s base"

    def line(self, e: Event) -> str | None:
        t = e["t"]
        handler: Callable[[Event], str | None] | None = getattr(self, "e_" + t, None)
        text = handler(e) if handler is not None else None
        if t == "pass":
            self.changed = self.chose = False
        elif t not in BOOKKEEPING:
            self.changed = True
        elif t == "action" and e.get("action", {}).get("type") == "choose":
            self.chose = True
        return text

    def objects(self, slots: Any, code: Any) -> list[str]:
        """The targets of a play, by slot: a location slot names places, a player slot players."""
        card = self.catalog.cards.get(str(code))
        kinds = [slot.get("what") for slot in target_slots(card)] if card is not None else []
        out: list[str] = []
        for i, slot in enumerate(slots or []):
            what = kinds[i] if i < len(kinds) else None
            for value in slot:
                out.append(self.where(value) if what == "location" else self.who(value) if what == "player"
                           else self.card(value))
        return out

    # one method per event type worth showing
    def e_setup(self, e: Event) -> str:
        seed = f" (seed {e['seed']})" if self.show_seed else ""
        return f"Setup: {e['mode']}{seed}: " + " vs ".join(
            f"{p} {d}" if str(d).startswith("(") else f"{p} ({d})" for p, d in zip(e["players"], e["decks"]))

    def e_battlefield(self, e: Event) -> str:
        self.battlefields[int(e["loc"])] = self.card(e["obj"])
        return f"  {self.who(e['player'])} brings {self.card(e['obj'])} into play"

    def e_battlefields_unused(self, e: Event) -> str:
        return f"  {self.who(e['player'])} goes first, so their battlefields are not used"

    def e_turn_order(self, e: Event) -> str:
        first = self.who(e['order'][0])
        if "chosen_by" in e:
            return (f"  {self.who(e['chosen_by'])}, who lost the previous game, chooses to play {e['choice']}: "
                    f"{first} goes first")
        if e.get("kept"):
            return f"  {first} goes first again (the previous game was a draw)"
        return f"  {first} goes first"

    def e_battlefield_chosen(self, e: Event) -> str:
        return f"  {self.who(e['player'])} chooses a battlefield in secret"

    def e_battlefields_revealed(self, e: Event) -> str:
        shown = ", ".join(f"{self.who(p)} {self.catalog.cards[c].name if c in self.catalog.cards else c}"
                          for p, c in zip(e["players"], e["cards"]))
        return f"  Battlefields revealed: {shown}"

    # match events (core/engine/match.py)
    def e_match_start(self, e: Event) -> str:
        return f"Match, best of {e['best_of']} ({e['mode']}, seed {e['seed']}): " + " vs ".join(
            f"{p} {d}" if str(d).startswith("(") else f"{p} ({d})" for p, d in zip(e["players"], e["decks"]))

    def e_game_start(self, e: Event) -> str:
        return f"\n===== Game {e['game']} of the match ====="

    def e_game_end(self, e: Event) -> str:
        score = ", ".join(f"{self.who(p)} {w}" for p, w in enumerate(e["wins"]))
        if e.get("winner") is None:
            return f"Game {e['game']} is a draw: no game win (match score {score})"
        return f"Game {e['game']}: {self.who(e['winner'])} earns a game win (match score {score})"

    def e_match_over(self, e: Event) -> str:
        score = "-".join(str(w) for w in e["wins"])
        if e.get("winner") is None:
            return f"\n##### The match is a draw, {score} #####"
        return f"\n##### {self.who(e['winner'])} wins the match, {score} #####"

    def e_mulligan(self, e: Event) -> str:
        if not e["count"]:
            return f"  {self.who(e['player'])} keeps their hand"
        return f"  {self.who(e['player'])} mulligans {e['count']} card(s)"

    def e_turn_start(self, e: Event) -> str:
        extra = " (extra turn)" if e.get("extra") else ""
        return f"\n== Turn {e['turn']}: {self.who(e['player'])}{extra} =="

    def e_draw(self, e: Event) -> str:
        return f"    {self.who(e['player'])} draws a card"

    def e_points(self, e: Event) -> str:
        return f"  {self.who(e['player'])} has {e['total']} point{'' if e['total'] == 1 else 's'}"

    def e_lasting(self, e: Event) -> str | None:
        effect = e.get("effect", {})
        mods = effect.get("modifiers", [])
        until = {"this_turn": " this turn", "this_combat": " this combat"}.get(str(e.get("duration")), "")
        if e.get("kind") == "static" and mods and mods[0].get("type") == "might" and e.get("affects"):
            names = listing([self.card(a) for a in e["affects"]])
            if not mods[0].get("amount"):
                # e.g. "-1 Might, to a minimum of 1" on a 1 Might unit
                return f"    {names}: Might unchanged (a change of 0)"
            sign = "-" if mods[0].get("negative") else "+"
            return f"    {names} gets {sign}{mods[0]['amount']} Might{until}"
        if e.get("kind") == "grant" and e.get("affects"):
            names = listing([self.card(a) for a in e["affects"]])
            return f"    {names} gains {effect.get('keyword', '?').title()}{until}"
        return None

    def e_ready(self, e: Event) -> str | None:
        return f"    {self.card(e['obj'])} readies" if e.get("player", -1) >= 0 else None

    def e_burn_out(self, e: Event) -> str:
        return f"  {self.who(e['player'])} burns out: trash shuffled into the deck"

    def e_channel(self, e: Event) -> str:
        return f"  {self.who(e['player'])} channels {self.card(e['obj'])}"

    def e_play(self, e: Event) -> str:
        targets = self.objects(e.get("targets"), e.get("code"))
        to = f" to {self.where(e['location'])}" if e.get("location", -1) not in (-1, None) else ""
        extra = f" targeting {listing(targets)}" if targets else ""
        paid = f" (paying {', '.join(self.cost_name(str(p)) for p in e['paid'])})" if e.get("paid") else ""
        return f"  {self.who(e['player'])} plays {self.card(e['obj'])}{self.modes(e)}{to}{extra}{paid}"

    def cost_name(self, name: str) -> str:
        """An additional cost paid, as a reader knows it: a keyword's ([Accelerate]), else its name in words."""
        kw = self.catalog.keywords.get(name.lower().replace("-", "_"))
        return f"[{kw.name}]" if kw is not None else name.replace("_", " ")

    def e_activate(self, e: Event) -> str:
        return f"  {self.who(e['player'])} activates {self.card(e['obj'])}{self.modes(e)}"

    def modes(self, e: Event) -> str:
        """The modes a "choose one" play, activation or trigger chose, in words: " (return a friendly unit)"."""
        chosen = e.get("mode")
        code = self.codes.get(int(e["obj"]))
        if not chosen or code not in self.catalog.cards:
            return ""
        card = self.catalog.cards[code]
        modes: Modes | None = None
        if e["t"] == "play":
            modes = card_modes(card)
        elif e["t"] == "trigger":  # chosen as the trigger went on the chain
            index = int(e.get("ability", -1))
            modes = trigger_modes(card.abilities[index]) if 0 <= index < len(card.abilities) else None
        else:
            own = [a for a in card.abilities if a.kind == "activated"]
            index = int(e.get("ability", -1))
            modes = ability_modes(own[index]) if 0 <= index < len(own) else None
        if modes is None or any(not 0 <= int(i) < len(modes.node["options"]) for i in chosen):
            return f" (modes {', '.join(str(i) for i in chosen)})"
        return f" ({', then '.join(modes.label(int(i)).replace('_', ' ') for i in chosen)})"

    def e_trigger(self, e: Event) -> str:
        if "item" in e:
            self.triggered[int(e["item"])] = e
        return f"    {self.card(e['obj'])} triggers{self.modes(e)}"

    def e_resolve(self, e: Event) -> str | None:
        """A triggered ability that changed nothing says so, with the condition it acts on, if any: such
        an ability goes on the chain anyway and its condition is checked as it resolves (rulings-faq:
        Jinx's legend enters the chain every turn, whatever the hand size, so Gust can answer it)."""
        trigger = self.triggered.pop(int(e.get("item", -1)), None)
        if trigger is None or self.changed:
            return None
        name = self.card(trigger["obj"])
        card = self.catalog.cards.get(str(trigger.get("code")))
        index = int(trigger.get("ability", -1))
        if card is None or not 0 <= index < len(card.abilities):
            return f"    {name} does nothing"
        body = card.abilities[index].body
        effect = body.get("effect") or {}
        who = self.who(trigger.get("player"))
        if self.chose and effect.get("type") == "may":
            return f"    {name} does nothing: {who} declines"
        if effect.get("type") == "may" and "cost" in effect:
            return f"    {name} does nothing: {who} can't pay its cost"
        condition = body.get("if") or (effect.get("condition") if effect.get("type") == "if" else None)
        if condition is None:
            return f"    {name} does nothing"
        renderer = Renderer(card.raw, self.catalog)
        return f"    {name} does nothing (it acts only if {renderer.condition(renderer.base, condition)})"

    def e_decline(self, e: Event) -> str:
        return f"    {self.card(e['obj'])}: {self.who(e['player'])} declines"

    def e_hide(self, e: Event) -> str:
        return f"  {self.who(e['player'])} hides a card at {self.where(e['loc'])}"

    def e_standard_move(self, e: Event) -> str:
        names = listing([self.card(u) for u in e["units"]])
        return f"  {self.who(e['player'])} moves {names} to {self.where(e['to'])}"

    def e_move(self, e: Event) -> str | None:
        if e.get("standard"):
            return None
        return f"    {self.card(e['obj'])} moves to {self.where(e['to'])}"

    def e_recall(self, e: Event) -> str:
        return f"    {self.card(e['obj'])} is recalled to base"

    def e_showdown_start(self, e: Event) -> str | None:
        if e.get("combat"):
            return None  # the combat_start line says it
        return f"  Showdown at {self.where(e['bf'])} ({self.who(e['player'])} contests)"

    def e_combat_start(self, e: Event) -> str:
        return f"  Combat at {self.where(e['bf'])}: {self.who(e['attacker'])} attacks, {self.who(e['defender'])} defends"

    def e_damaged(self, e: Event) -> str:
        return f"    {self.card(e['obj'])} takes {e['amount']} damage"

    def e_die(self, e: Event) -> str:
        return f"    {self.card(e['obj'])} dies"

    def e_stun(self, e: Event) -> str:
        return f"    {self.card(e['obj'])} is stunned"

    def e_buff(self, e: Event) -> str:
        return f"    {self.card(e['obj'])} gets a buff"

    def e_discard(self, e: Event) -> str:
        return f"    {self.who(e['player'])} discards {self.card(e['obj'])}"

    def e_return_to_hand(self, e: Event) -> str:
        return f"    {self.card(e['obj'])} returns to hand"

    def e_create_token(self, e: Event) -> str:
        return f"    {self.who(e['player'])} gets a {self.card(e['obj'])} token"

    def e_counter(self, e: Event) -> str:
        return f"    {self.card(e['obj'])} is countered"

    def e_left_chain(self, e: Event) -> str:
        return f"    {self.card(e['obj'])} leaves the chain without resolving"

    def e_combat_end(self, e: Event) -> str:
        if e.get("winner", -1) >= 0:
            return f"  {self.who(e['winner'])} wins the combat at {self.where(e['bf'])}"
        return f"  Combat at {self.where(e['bf'])} ends with no result"

    def e_conquer(self, e: Event) -> str:
        return f"  {self.who(e['player'])} conquers {self.where(e['loc'])}"

    def e_hold(self, e: Event) -> str:
        return f"  {self.who(e['player'])} holds {self.where(e['loc'])}"

    def e_final_point_denied(self, e: Event) -> str:
        return f"  {self.who(e['player'])} needs every battlefield scored for the final point: draws instead"

    def e_score_denied(self, e: Event) -> str:
        return (f"  {self.who(e['player'])} takes {self.where(e['loc'])} but can't score it: "
                f"the team can't score it this turn ({e['rule']})")

    def e_invite(self, e: Event) -> str:
        return f"  {self.who(e['player'])} invites {self.who(e['teammate'])} to act with their priority"

    def e_invite_back(self, e: Event) -> str:
        return f"  {self.who(e['player'])} hands priority back to {self.who(e['inviter'])}"

    def e_extra_turn(self, e: Event) -> str:
        return f"  {self.who(e['player'])} will take an extra turn"

    def e_concede(self, e: Event) -> str:
        return f"  {self.who(e['player'])} concedes"

    def e_left_game(self, e: Event) -> str:
        return f"  {self.who(e['player'])} leaves the game, and {len(e['objects'])} card(s) with them"

    def e_loop_draw(self, e: Event) -> str:
        return f"  The game is a draw: {e['reason']}"

    def e_game_over(self, e: Event) -> str:
        names = " and ".join(self.who(w) for w in e["winners"])
        return f"\n*** {names} win{'s' if len(e['winners']) == 1 else ''} ({e['reason']}) ***"


def render(catalog: Catalog, log: Iterable[Event], players: list[str], codes: dict[int, str],
           battlefields: dict[int, str] | None = None, show_seed: bool = True) -> list[str]:
    narrator = Narrator(catalog, players, codes, battlefields, show_seed)
    lines = []
    for event in log:
        text = narrator.line(event)
        if text is not None:
            lines.append(text)
    return lines
