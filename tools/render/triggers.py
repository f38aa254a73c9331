"""English for trigger conditions: "When I attack", "At the start of your Beginning Phase", the
replacement "would" clauses; mirrors the trigger dispatcher's events and filters."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from riftscript.tools.render.phrases import (NOUNS, PHASES, Ctx, Node, Phrase, TriggerParts, article_for, is_int,
                                             DONE_TO, mark, ordinal, plugin_word)

if TYPE_CHECKING:
    from riftscript.tools.render.renderer import Renderer


def trigger_parts(self: Renderer, ctx: Ctx, t: Node, delayed: bool = False) -> TriggerParts:
    """Split a trigger into subject, verb and the rest."""
    if not isinstance(t, Mapping):
        return TriggerParts(Phrase(mark(f"trigger {t!r}")), "happen")
    event = str(t.get("event"))
    subject = t.get("subject")
    what = t.get("what")
    player = t.get("player")
    you = ctx.you()
    player_phrase = {"you": you, "opponent": Phrase("an opponent"), "any": Phrase("a player"),
                     "friendly": Phrase(f"{you.text} or an ally", plural=True),
                     "chosen": Phrase("they", plural=True)}.get(str(player), you)
    is_self = subject == "self"
    is_host = subject == "host"
    me = ctx.self_subj
    if is_host:
        me = Phrase("the equipped unit")
    prefix = "When"
    suffix = ""
    nth = t.get("nth_this_turn")
    if t.get("first_this_turn"):
        prefix, suffix = "The first time", " each turn"
    elif is_int(nth) and nth > 1 and not (event == "played" and not is_self):
        prefix, suffix = f"The {ordinal(nth)} time", " in a turn"

    def other_np(default_what: str = "unit") -> Phrase:
        where: dict[str, Any] = dict(subject) if isinstance(subject, Mapping) else {}
        if t.get("alone") and event in ("attack", "defend"):
            where.pop("alone", None)
        sel = {"pick": "target", "what": what or default_what, "where": where}
        return self.selection(ctx, sel)

    rest: list[str] = []
    if event == "played":
        if is_self or is_host:
            parts = TriggerParts(you, "play", ctx.self_obj)
            if t.get("from_hidden"):
                parts = replace(parts, rest=parts.rest + self.from_hidden())
        else:
            noun = other_np("card").text
            if is_int(nth) and nth >= 1:  # "your second card in a turn", "your first card each turn"
                kind = NOUNS.get(str(what or "card"), ("card", "cards"))[0]
                noun = f"{ctx.your() if player != 'opponent' else 'their'} {ordinal(nth)} {kind}"
                suffix = " each turn" if nth == 1 else " in a turn"  # the first, as "the first time each turn"
            if is_int(t.get("min_cost")):
                noun += " that costs {" + str(t["min_cost"]) + "} or more"
            if t.get("from_hidden"):
                noun += self.from_hidden()
            parts = TriggerParts(player_phrase, "play", noun)
            if player == "friendly" and noun == other_np("card").text and not isinstance(subject, Mapping):
                # played by you or a teammate: "a friendly spell is played"
                played = self.selection(ctx, {"pick": "target", "what": what or "card",
                                              "where": {"controller": "friendly"}})
                parts = TriggerParts(played, "be", "played")
    elif event in ("attack", "defend"):
        verb = event
        if is_self or is_host:
            parts = TriggerParts(me, verb)
        elif subject is None and player is not None:
            parts = TriggerParts(player_phrase, verb)
        else:
            where = dict(subject) if isinstance(subject, Mapping) else {}
            loc = where.pop("location", None)
            np = self.selection(ctx, {"pick": "target", "what": what or "unit", "where": where})
            target = ""
            if loc == "controlled_battlefield":
                target = f"a battlefield {you.text} control"
            elif loc is not None:
                target = self.location(ctx, loc, False)
            parts = TriggerParts(np, verb, target)
        if t.get("alone"):
            parts = replace(parts, rest=(parts.rest + " alone").strip())
    elif event == "move" and "mover" in t and not is_self:
        mover = {"you": you, "enemy": Phrase("an opponent")}.get(str(t["mover"]), Phrase("a player"))
        parts = TriggerParts(mover, "move", other_np().text)
    elif event == "move":
        if is_self or is_host:
            parts = TriggerParts(me, "move")
        elif player is not None and subject is not None:
            where = dict(subject) if isinstance(subject, Mapping) else {}
            if where.get("location") == "not_here" and t.get("to_battlefield"):
                where.pop("location")
                if player == "opponent" and where.get("controller") == "enemy":
                    where.pop("controller")
            np = self.selection(ctx, {"pick": "target", "what": what or "unit", "where": where})
            parts = TriggerParts(player_phrase, "move", np.text)
        else:
            parts = TriggerParts(other_np(), "move")
        if t.get("to_battlefield"):
            elsewhere = isinstance(subject, Mapping) and subject.get("location") == "not_here"
            rest.append("to a battlefield" + (" other than " + ("mine" if self.type in ("unit", "legend")
                                                                  else "this one") if elsewhere else ""))
        if t.get("from_here"):
            rest.append("from here" if self.type == "battlefield" else f"from {ctx.self_poss} location")
        parts = replace(parts, rest=" ".join([parts.rest] + rest).strip())
    elif event in ("buff", "ready", "stun") and is_self and player in ("you", "opponent"):
        parts = TriggerParts(player_phrase, event, ctx.self_obj)  # "When you buff me"
    elif event in ("die", "leave_board", "enter_board", "take_damage", "damaged", "ready", "stun", "buff",
                   "combat_end", "showdown_start", "burn_out") and is_self:
        verbs = {"die": ("die", ""), "leave_board": ("leave", "the board"), "enter_board": ("enter", "the board"),
                 "take_damage": ("take", "damage"), "damaged": ("take", "damage"), "ready": ("become", "ready"),
                 "stun": ("become", "stunned"), "buff": ("become", "buffed"), "combat_end": ("finish", "a combat"),
                 "showdown_start": ("start", "a showdown"), "burn_out": ("burn", "out")}
        verb, obj = verbs[event]
        parts = TriggerParts(me, verb, obj)
    elif event in ("die", "leave_board", "enter_board", "take_damage", "damaged"):
        verb, obj = {"die": ("die", ""), "leave_board": ("leave", "the board"),
                     "enter_board": ("enter", "the board"), "take_damage": ("take", "damage"),
                     "damaged": ("take", "damage")}[event]
        if subject == "any" or subject is None:
            np = Phrase(f"any {what or 'unit'}") if event == "take_damage" else Phrase(
                f"{article_for(str(what or 'unit'))} {what or 'unit'}")
        else:
            np = other_np()
        parts = TriggerParts(np, verb, obj)
    elif event in ("conquer", "hold", "score", "burn_out"):
        verb = {"burn_out": "burn"}.get(event, event)
        obj = "out" if event == "burn_out" else ""
        if is_self or is_host:
            parts = TriggerParts(me, verb, obj)
        else:
            parts = TriggerParts(player_phrase, verb, obj)
    elif event == "phase_start":
        whose = {"yours": f"{ctx.your()}", "opponents": "each opponent's", "each": "each player's"}.get(
            str(t.get("whose_turn")), "each player's")
        first = "first " if t.get("first_turn") else ""
        if "phase" not in t:
            turn = {"yours": f" of {ctx.your()} {first}turn", "opponents": f" of an opponent's {first}turn"}.get(
                str(t.get("whose_turn")), f" of each player's {first}turn" if first else "")
            return TriggerParts(Phrase(""), "", f"each phase{turn}", prefix="At the start of")
        phase = PHASES.get(str(t.get("phase")), mark(f"phase {t.get('phase')}"))
        return TriggerParts(Phrase(""), "", f"{whose} {first}{phase} Phase", prefix="At the start of")
    elif event == "turn_end":
        whose = {"yours": f"{ctx.your()} turn", "opponents": "each opponent's turn",
                 "each": "each turn"}.get(str(t.get("whose_turn")), "this turn" if delayed else "the turn")
        return TriggerParts(Phrase(""), "", whose, prefix="At the end of")
    elif event == "looked_at":
        parts = TriggerParts(you, "look", f"at or reveal {ctx.self_obj} from the top of {ctx.your()} deck")
    elif event in ("discard", "recycle", "draw", "channel", "hide", "kill", "stun", "buff", "ready",
                   "spend_buff", "chosen"):
        verb = {"spend_buff": "spend", "chosen": "choose"}.get(event, event)
        if is_self:
            obj = ctx.self_obj
        elif event == "spend_buff":
            obj = "a buff"
        elif subject is None and event in ("discard", "recycle", "draw"):
            obj = "one or more cards" if event != "draw" else "a card"
            if event == "draw" and is_int(nth) and nth > 1:  # "When you draw your second card each turn"
                obj = f"{ctx.your() if player != 'opponent' else 'their'} {ordinal(nth)} card"
                prefix, suffix = "When", " each turn"
            if event == "recycle" and what not in (None, "card"):
                obj = f"one or more {NOUNS.get(str(what), (str(what), str(what) + 's'))[1]}"
        elif subject is None and event == "channel":
            obj = "a rune"
        else:
            obj = other_np().text
        if event == "chosen" and t.get("here"):
            obj += " here"
        parts = TriggerParts(player_phrase if player or not is_self else you, verb, obj)
        if event == "stun" and subject is None and player is not None:
            parts = replace(parts, rest="one or more units")
    elif event in ("combat_end", "showdown_start"):
        noun = "a combat" if event == "combat_end" else "a showdown"
        parts = TriggerParts(Phrase(noun), "end" if event == "combat_end" else "begin")
    elif event == "win_combat":
        parts = TriggerParts(me if is_self or is_host else player_phrase, "win", "a combat")
    elif event == "equipped":
        target = ctx.self_obj if is_self else other_np().text
        parts = TriggerParts(player_phrase if player else Phrase("an Equipment"),
                             "attach" if player else "become", f"an Equipment to {target}" if player
                             else f"attached to {target}")
    elif event == "become_mighty":
        parts = TriggerParts(me if is_self else other_np(), "become", "[Mighty]")
    elif event == "activate":
        kind = NOUNS.get(str(what), (str(what), ""))[0] if what else "card"
        whose = ctx.self_obj if is_self else article_for(kind) + " " + kind
        if what or is_self or not is_int(t.get("min_cost")):
            parts = TriggerParts(player_phrase, "use", f"an activated ability of {whose}")
        else:  # "an activated ability with Energy cost {7} or more", of any card
            parts = TriggerParts(player_phrase, "use", "an activated ability that costs {" + str(t["min_cost"]) + "} or more")
    elif event == "reveal":
        parts = TriggerParts(player_phrase, "reveal", ctx.self_obj if is_self else "a card")
    elif event == "return_to_hand":
        np = Phrase(ctx.self_subj.text) if is_self else Phrase(
            f"{article_for(str(what or 'unit'))} {what or 'unit'}" + (" here" if t.get("here") else "")) \
            if not isinstance(subject, Mapping) else other_np()
        parts = TriggerParts(np, "be", "returned to a player's hand" if player in (None, "any")
                             else f"returned to {ctx.your()} hand")
    elif event == "might_reaches":
        whom = ctx.self_poss if is_self else other_np().text + "'s"
        number = t.get("at_least", 5)
        parts = TriggerParts(Phrase(f"{whom} Might"), "become", f"{number} or more")
    elif event == "lose_might":
        whom = ctx.self_obj if is_self else other_np().text
        parts = TriggerParts(Phrase("a spell or ability"), "give", f"{whom} -Might")
    elif (word := plugin_word("event", event)) is not None:
        if is_self or is_host:
            verb, _, obj = word.text.partition(" ")
            parts = TriggerParts(me, verb, obj)
        elif not word.active and subject is None and player is None:
            parts = TriggerParts(Phrase(""), "", word.text)  # no one makes it happen: "When combat starts here"
        else:
            # an event of a plugin's, about an object of any kind unless the trigger names one: "something else"
            anything = {"pick": "target", "what": "card", "zone": "in_play",
                        "where": dict(subject) if isinstance(subject, Mapping) else {}}
            noun = other_np("permanent").text if what else self.selection(ctx, anything).text
            parts = TriggerParts(player_phrase, word.active or "make", noun)
    else:
        parts = TriggerParts(Phrase(mark(f"event {event}")), "happen")
    extra: list[str] = []
    by = t.get("by")
    if by:
        extra.append({"spell": "with a spell", "ability": "with an ability", "combat": "in combat",
                      "spell_or_ability": "with a spell or ability", "attack": "after an attack"}.get(str(by), mark(f"by {by}")))
    if t.get("here") and event == "die" and not is_self and not parts.rest:
        parts = replace(parts, subject=replace(parts.subject, text=parts.subject.text + " here"))  # "a unit here dies"
    elif t.get("here") and event not in ("chosen", "return_to_hand"):
        extra.append("here")
    spent = ""
    if is_int(t.get("min_spent")):
        spent = ", if " + ("you" if player in (None, "you") else "they") + " spent {" + str(t["min_spent"]) \
            + "} or more"
    if t.get("from_battlefield"):
        extra.append("from a battlefield")
    if t.get("from_uncontrolled"):
        extra.append("a battlefield that was uncontrolled")
    whose_turn = t.get("whose_turn")
    if event not in ("phase_start", "turn_end") and whose_turn in ("yours", "opponents"):
        extra.append("on your turn" if whose_turn == "yours" else "on an opponent's turn")
    if event == "chosen" and t.get("first_this_turn"):
        prefix, suffix = "When", " for the first time each turn"
    rest_text = " ".join(x for x in [parts.rest] + extra if x)
    return replace(parts, rest=rest_text, prefix=prefix, suffix=suffix + spent)


def trigger(self: Renderer, ctx: Ctx, t: Node, delayed: bool = False) -> str:
    """'When you play me', 'At the start of your Beginning Phase', 'The first time I move each turn'."""
    parts = self.trigger_parts(ctx, t, delayed)
    if not parts.verb:
        return f"{parts.prefix} {parts.rest}{parts.suffix}"
    verb = parts.subject.verb(parts.verb)
    body = " ".join(x for x in [parts.subject.text, verb, parts.rest] if x)
    return f"{parts.prefix} {body}{parts.suffix}"


def would(self: Renderer, ctx: Ctx, t: Node) -> str:
    """A replaced event: 'a friendly unit would die'."""
    event = t.get("event") if isinstance(t, Mapping) else None
    if event in DONE_TO and t.get("subject") == "self":
        # what a spell or ability does to the object: "a spell or ability that chooses me would stun me"
        doer = f"a spell or ability that chooses {ctx.self_obj}" if t.get("by_chooser") else "a spell or ability"
        return f"{doer} would {DONE_TO[str(event)].format(ctx.self_obj)}"
    if event == "score" and t.get("player") in (None, "any"):
        return "a player would score 1 point from conquering or holding"
    parts = self.trigger_parts(ctx, t)
    if not parts.verb:
        return f"{parts.rest} would begin"
    return " ".join(x for x in [parts.subject.text, "would", parts.verb, parts.rest] if x)
