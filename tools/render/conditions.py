"""English for amounts (numbers, counts, stats, recorded values) and conditions (if, while,
comparisons, history this turn); mirrors the interpreter's amounts and conditions."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from riftscript.tools.render.phrases import (INTRANSITIVE, NOUNS, OPS, OPS_VALUE, PAST, PHASES, ZONES, Amt,
                                             Ctx, Node, article_for, is_int, keyword_display, mark, number_word,
                                             ordinal, plugin_word, series, state_word, third_singular)

if TYPE_CHECKING:
    from riftscript.tools.render.renderer import Renderer


def stat_phrases(self: Renderer, ctx: Ctx, stat: str, player: Node) -> tuple[str, str]:
    """(value phrase, "for each" phrase or "") of a player statistic."""
    your = {"opponent": "an opponent's", "its_controller": "its controller's"}.get(str(player), ctx.your())
    you = {"opponent": "an opponent", "its_controller": "its controller"}.get(str(player), ctx.you().text)
    have = "has" if you in ("an opponent", "its controller") else "have"
    moved = f"{ctx.self_subj.text} {ctx.self_subj.verb('have')} moved"
    table = {
        "points": (f"{your} points", f"point {you} {have}"),
        "hand_size": (f"the number of cards in {your} hand", f"card in {your} hand"),
        "trash_size": (f"the number of cards in {your} trash", f"card in {your} trash"),
        "main_deck_size": (f"the number of cards in {your} Main Deck", f"card in {your} Main Deck"),
        "runes": (f"the number of runes {you} control", f"rune {you} control"),
        "xp": (f"{your} XP", f"XP {you} {have}"),
        "victory_score": ("the Victory Score", ""),
        "highest_might": (f"the highest Might among units {you} control", ""),
        "moves_this_turn": (f"the number of times {moved} this turn", f"time {moved} this turn"),
        "cards_played_this_turn": (f"the number of cards {you} {have} played this turn",
                                   f"card {you} {have} played this turn"),
        "opponent_points_max": ("the highest score among your opponents", ""),
        "hold_points_this_turn": (f"the points {you} scored from holding this turn",
                                  f"point {you} scored from holding this turn"),
        "power_spent_this_turn": (f"the power {you} {have} spent this turn", f"power {you} spent this turn"),
    }
    return table.get(stat, (mark(f"stat {stat}"), ""))


def amount(self: Renderer, ctx: Ctx, node: Node) -> Amt:
    """An amount as a number, a "for each" phrase or a value phrase."""
    if is_int(node):
        return Amt(str(node))
    if not isinstance(node, Mapping):
        return Amt(mark(f"amount {node!r}"))
    kind = node.get("type")
    times = node.get("times", 1)
    times = times if is_int(times) else 1
    plus = node.get("plus", 0)
    plus = plus if is_int(plus) else 0
    per = ""
    if kind == "count":
        of = node.get("of")
        each = self.selection(ctx, of, mode="each").text if isinstance(of, Mapping) else self.obj(ctx, of)
        where = of.get("where") if isinstance(of, Mapping) else None
        bare = self.selection(ctx, {**of, "pick": "all"}, mode="bare").text if isinstance(of, Mapping) \
            else self.obj(ctx, of)
        if isinstance(of, Mapping) and isinstance(where, Mapping) and where.get("controller") == "you" \
                and not of.get("zone") and self.styled("control_counts"):
            # "for each gear you control" (instead of "for each of your gear"), and "the number of" the same words
            rest = {k: v for k, v in where.items() if k not in ("controller", "location", "other")}
            words = []
            for plural in (False, True):
                adjs, noun, posts, late = self.filter_words(ctx, rest, str(of.get("what", "unit")), plural)
                words.append(" ".join((["other"] if where.get("other") else []) + adjs + [noun, "you control"]
                                      + (["here"] if where.get("location") == "here" else []) + posts + late))
            each, bare = words
        equal = f"the number of {bare}"
        per = f" for each {each}"
    elif kind == "might":
        equal = f"{self.poss(ctx, node.get('of'))} Might"
    elif kind == "keyword_value":
        equal = f"{self.poss(ctx, node.get('of', 'self'))} [{keyword_display(str(node.get('keyword')))}]"
    elif kind == "energy_cost":
        equal = f"{self.poss(ctx, node.get('of'))} Energy cost"
    elif kind == "stat":
        equal, each = self.stat_phrases(ctx, str(node.get("stat")), node.get("player"))
        per = f" for each {each}" if each else ""
    elif kind == "tags_among":
        tags = [str(t) for t in node.get("tags") or []]
        among = self.selection(ctx, {**node["of"], "pick": "all"}, mode="bare").text \
            if isinstance(node.get("of"), Mapping) else self.obj(ctx, node.get("of"))
        listed = ", ".join(tags[:-1]) + (", and " + tags[-1] if len(tags) > 1 else tags[0] if tags else "")
        equal = f"the number of the following tags among {among} — {listed}"
        per = f" for each of the following tags among {among} — {listed}"
    elif kind == "history":
        event = str(node.get("event"))
        what = {"dealt_damage": "this has dealt damage", "xp": "you've gained XP",
                "died": "a unit has died"}.get(event, f"{event.replace('_', ' ')} happened")
        if node.get("only_self") and event == "dealt_damage":
            what = f"this {self.type if self.type in ('spell', 'gear') else 'card'} has dealt damage"
        equal = f"the number of times {what} this turn"
        per = f" for each time {what} this turn"
        if plus and times == 1:
            # "Deal 2 to a unit. It deals 1 additional damage for each time this spell has dealt damage"
            return Amt(str(plus), per=f". This deals 1 additional damage{per}",
                       equal=f"{plus}, plus 1 more{per}")
    elif kind == "power_cost":
        equal = f"the number of Power symbols in {self.poss(ctx, node.get('of'))} cost"
    elif kind == "variable":
        name = str(node.get("name"))
        named = {"x": ("X", ""), "keyword_value": ("X", ""),
                 "spent": ("the number of buffs spent", " for each buff spent"),
                 "killed": ("the number of units killed this way", " for each unit killed this way"),
                 "paid": ("the amount paid", ""),
                 "excess_damage": ("the excess damage you assigned to enemy units", "")}
        equal, per = named.get(name, (f"the recorded {name.replace('_', ' ')}", ""))
        if name in ("x", "keyword_value") and times == 1 and plus == 0:
            return Amt("X", equal="X")
    elif (word := plugin_word("amount", str(kind))) is not None and word.text:
        # {of}: the object ("me"); {of_is}: it with its "to be" ("I'm", "it's"); {nth}, {whose}: an ordinal
        equal = word.text.format(of=self.obj(ctx, node.get("of", "self")),
                                 of_is=self.subject(ctx, node.get("of", "self")).be(),
                                 nth="current", whose=self.whose(ctx, node))
        if "{nth}" in word.text:
            equal = f"the ordinal number of {equal}"  # "the ordinal number of your current turn"
        if equal.startswith("the number of times "):
            per = " for each time " + equal.removeprefix("the number of times ")
    else:
        return Amt(mark(f"amount type {kind!r}"))
    if times != 1:
        equal = ("twice " if times == 2 else f"{times} times ") + equal
    if plus:
        equal += f" plus {plus}" if plus > 0 else f" minus {-plus}"
    if per and not plus:
        return Amt(str(times), per=per, equal=equal, lead=kind == "variable")
    return Amt(None, equal=equal)


def whose(self: Renderer, ctx: Ctx, node: Mapping[str, Any]) -> str:
    """The possessive of an amount's ``player``: "your" for you (the default), else "their"."""
    return ctx.your() if node.get("player", "you") == "you" else "their"


def ordinal_window(self: Renderer, ctx: Ctx, cond: Node) -> str | None:
    """A plugin ordinal amount (``{nth}`` in its English: which one this is) from 1 up to 3, or equal to
    one number, in the amount's words with the ordinals listed: "your first, second, or third turn"."""
    if not isinstance(cond, Mapping):
        return None
    parts = cond.get("of") if cond.get("type") == "all" else [cond]
    if not isinstance(parts, list) or not 1 <= len(parts) <= 2 or not all(
            isinstance(p, Mapping) and p.get("type") == "compare" and is_int(p.get("right"))
            and p.get("left") == parts[0].get("left") for p in parts):
        return None
    left = parts[0]["left"]
    word = plugin_word("amount", str(left.get("type"))) if isinstance(left, Mapping) else None
    if word is None or not word.text or "{nth}" not in word.text:
        return None
    bounds = {str(p.get("op", "ge")): int(p["right"]) for p in parts}
    if set(bounds) == {"eq"}:
        low = high = bounds["eq"]
    elif set(bounds) == {"ge", "le"}:
        low, high = bounds["ge"], bounds["le"]
    else:
        return None
    if not 1 <= low <= high <= 3 or len(bounds) != len(parts):
        return None
    nth = series([ordinal(n) for n in range(low, high + 1)], "or")
    return word.text.format(nth=nth, whose=self.whose(ctx, left), of="", of_is="")


def attacking_with_another(cond: Node) -> bool:
    """The condition "<it>'s attacking with another unit" (an attacker not attacking alone)."""
    parts = cond.get("of") if isinstance(cond, Mapping) and cond.get("type") == "all" else None
    return isinstance(parts, list) and len(parts) == 2 and isinstance(parts[0], Mapping) and parts[0] == {
        "type": "is", "subject": parts[0].get("subject"), "state": "attacker"} and parts[1] == {
        "type": "not", "of": {"type": "is", "subject": parts[0].get("subject"), "state": "attacking_alone"}}


def at_battlefield_with(cond: Node) -> bool:
    """The condition "I'm at a battlefield with exactly N <units>" (at a battlefield, and so many there)."""
    parts = cond.get("of") if isinstance(cond, Mapping) and cond.get("type") == "all" else None
    if not isinstance(parts, list) or len(parts) != 2 or parts[0] != {
            "type": "is", "subject": "self", "state": "at_battlefield"} or not isinstance(parts[1], Mapping):
        return False
    found = parts[1].get("what")
    return parts[1].get("type") == "exists" and parts[1].get("at_least", 1) == parts[1].get("at_most") \
        and isinstance(found, Mapping) and isinstance(found.get("where"), Mapping) \
        and found["where"].get("location") == "here" and set(found) <= {"pick", "what", "where"}


def condition(self: Renderer, ctx: Ctx, cond: Node) -> str:
    """A condition as a clause after "if" or "while"."""
    if not isinstance(cond, Mapping):
        return mark(f"condition {cond!r}")
    window = self.ordinal_window(ctx, cond)
    if window is not None:
        return f"it's {window}"  # "it's their first or second turn"
    kind = cond.get("type")
    parts = cond.get("of")
    if attacking_with_another(cond) and isinstance(parts, list):
        return f"{self.subject(ctx, parts[0]['subject']).be()} attacking with another unit"
    if at_battlefield_with(cond) and isinstance(parts, list):
        # "I'm at a battlefield with exactly one other unit you control"
        found = parts[1]["what"]
        rest = {k: v for k, v in found["where"].items() if k != "location"}
        count = parts[1]["at_most"]
        noun = self.there_are(ctx, {**found, "where": rest}, f"exactly {number_word(count) if count == 1 else count}")
        mine = noun.startswith(f"{ctx.you().text} have ")
        noun = noun.removeprefix(f"{ctx.you().text} have ").removeprefix("there are ").removeprefix("there is ")
        return f"{ctx.self_subj.be()} at a battlefield with {noun}" + (f" {ctx.you().text} control" if mine else "")
    if kind == "all" and isinstance(parts, list) and len(parts) > 1 and all(
            isinstance(p, Mapping) and p.get("type") == "history" and set(p) <= {"type", "event", "player", "subject"}
            and p.get("event") == parts[0].get("event") and p.get("player") == parts[0].get("player") for p in parts):
        # "you've played a non-token unit, a non-token gear, and a spell this turn"
        said = [self.condition(ctx, p) for p in parts]
        head = said[0].split(" ", 2)[:2]
        if all(t.endswith(" this turn") and t.split(" ", 2)[:2] == head for t in said):
            return " ".join(head) + " " + series([t.split(" ", 2)[2].removesuffix(" this turn") for t in said]) \
                + " this turn"
    if kind in ("all", "any") and isinstance(parts, list):
        word = "and" if kind == "all" else "or"
        subjects = {p.get("subject") for p in parts if isinstance(p, Mapping) and p.get("type") == "is"}
        if len(subjects) == 1 and all(isinstance(p, Mapping) and p.get("type") == "is" for p in parts):
            subject = self.subject(ctx, next(iter(subjects)))
            states = [state_word(str(p.get("state"))) for p in parts]
            last = {s.rsplit(" ", 1)[-1] for s in states}
            if len(last) == 1 and all(" " in s for s in states):
                tail = last.pop()
                return f"{subject.be()} {series([s.rsplit(' ', 1)[0] for s in states], word)} {tail}"
            return f"{subject.be()} {series(states, word)}"
        return series([self.condition(ctx, p) for p in parts], word)
    if kind == "not":
        return self.negated(ctx, parts)
    if kind == "is":
        subject = self.subject(ctx, cond.get("subject", "self"))
        state = str(cond.get("state"))
        if state == "controlled":
            what = "this battlefield" if self.type == "battlefield" and subject.text == "this" else subject.text
            return f"{ctx.you().text} control {what}"
        if state == "at_base":
            owner = "my" if subject.text == "I" else "their" if subject.plural else "its"
            return f"{subject.be()} in {owner} base"
        if state == "conquered_this_turn":
            return f"{subject.text} conquered this turn"
        if state == "died_alone":
            return f"{subject.text} died alone"
        return f"{subject.be()} {state_word(state)}"
    if kind == "exists":
        return self.exists(ctx, cond)
    if kind == "compare":
        return self.compare(ctx, cond)
    if kind == "history":
        return self.history(ctx, cond)
    if kind == "keyword":
        return f"{self.keyword_label(cond)} is active"
    if kind == "did":
        return {"kill": "this kills it", "pay": "you paid", "succeed": "you do", "fail": "you can't",
                "they_succeed": "they do", "they_fail": "they don't",
                "choose": "you chose to"}.get(str(cond.get("what")), mark(f"did {cond.get('what')}"))
    if kind == "paid":
        return "you paid the additional cost"
    if kind == "turn":
        if "phase" in cond:
            phase = PHASES.get(str(cond["phase"]), str(cond["phase"]))
            return f"it's your {phase} Phase" if cond.get("whose") == "yours" else \
                f"it's an opponent's {phase} Phase"
        return "it's your turn" if cond.get("whose") == "yours" else "it's an opponent's turn"
    if kind == "showdown":
        return "a showdown is under way"
    if kind == "attached_this_turn":
        return f"this was attached to {ctx.self_obj} this turn"
    if kind == "same":
        right = self.subject(ctx, cond.get("right")).text
        if cond.get("left") == "event_source":  # what the event is about: "When an Equipment ..., if it's X"
            return f"it's {right}"
        return f"{self.subject(ctx, cond.get('left')).text} is {right}"
    if kind == "first_time":
        return f"this is the first time this turn ({self.event_name(cond.get('event'))})"
    return mark(f"condition type {kind!r}")


def event_name(self: Renderer, event: Node) -> str:
    return str(event).replace("_", " ")


def negated(self: Renderer, ctx: Ctx, cond: Node) -> str:
    if isinstance(cond, Mapping):
        kind = cond.get("type")
        if kind == "exists":
            return self.exists(ctx, cond, negate=True)
        if kind == "is":
            subject = self.subject(ctx, cond.get("subject", "self"))
            state = str(cond.get("state"))
            if state == "died_alone":
                return f"{subject.text} didn't die alone"
            if state == "played_hidden":
                return f"{ctx.you().text} played {'this' if subject.text in ('I', 'this') else subject.text} " \
                       f"from {ctx.your()} hand"
            if state == "conquered_this_turn":
                return f"{subject.text} didn't conquer this turn"
            return f"{subject.be()} not {state_word(state)}"
        if kind == "did":
            return {"succeed": "you don't", "fail": "you can", "kill": "this doesn't kill it",
                    "pay": "you didn't pay", "choose": "you didn't choose to"}.get(
                str(cond.get("what")), mark(f"did {cond.get('what')}"))
        if kind == "paid":
            return "you didn't pay the additional cost"
        if kind == "history":
            return self.history(ctx, cond, negate=True)
        if kind == "turn":
            return "it's not your turn" if cond.get("whose") == "yours" else "it's not an opponent's turn"
        if kind == "keyword":
            return f"{self.keyword_label(cond)} is not active"
        said = self.compare(ctx, cond) if kind == "compare" else ""
        if " is within " in said:
            return said.replace(" is within ", " is not within ", 1)  # "your score is not within 3 points of ..."
        flipped = {"ge": "lt", "gt": "le", "le": "gt", "lt": "ge", "eq": "ne", "ne": "eq"}
        if kind == "compare" and cond.get("op", "ge") in flipped:
            return self.compare(ctx, {**cond, "op": flipped[str(cond.get("op", "ge"))]})
    return f"it's not true that {self.condition(ctx, cond)}"


def exists(self: Renderer, ctx: Ctx, cond: Mapping[str, Any], negate: bool = False) -> str:
    at_least = cond.get("at_least", 1)
    at_least = at_least if is_int(at_least) else 1
    at_most = cond.get("at_most")
    if negate or at_most == 0:
        return self.there_are(ctx, cond.get("what"), None)
    if at_most is not None:
        # 'exists' counts one or more: at_most 1 is exactly one
        word = "exactly" if at_most == at_least else "at most"
        return self.there_are(ctx, cond.get("what"), f"{word} {number_word(at_most) if at_most <= 3 else at_most}")
    return self.there_are(ctx, cond.get("what"), self.or_more(at_least) if at_least > 1 else "")


def or_more(self: Renderer, n: int) -> str:
    """A lower bound on a count: '2+', or in words ('two or more', the set style ``or_more``)."""
    if self.styled("or_more_numerals"):
        return f"{n} or more"
    return f"{number_word(n)} or more" if self.styled("or_more") else f"{n}+"


def there_are(self: Renderer, ctx: Ctx, sel: Node, quantity: str | None) -> str:
    """'you control a Poro unit', 'there is a ready enemy unit here', 'your Champion Zone is empty'.

    ``quantity``: "" for one, None for none, else a phrase such as "3 or more" or "exactly 1".
    """
    if not isinstance(sel, Mapping):
        return mark("exists without a selection")
    if quantity == "" and sel.get("among") in ("it", "them") and set(sel) <= {"pick", "what", "among", "zone"} \
            and sel.get("what") in NOUNS and (sel["among"] == "it" or ctx.single):
        return f"it's {article_for(str(sel['what']))} {sel['what']}"  # "if it's a spell"
    where = sel.get("where") or {}
    where = where if isinstance(where, Mapping) else {}
    if quantity == "" and sel.get("among") in ("it", "target") and set(sel) <= {"pick", "what", "among", "where"} \
            and sel.get("what") in NOUNS and where and not ({"other", "distinct_from"} & set(where)):
        # the one object chosen is of a kind: "if it's an enemy unit", "if it's a spell"
        return "it's " + self.selection(ctx, {"pick": "target", "what": sel["what"], "where": where}).text
    if quantity == "" and sel.get("among") == "targets" and set(where) == {"keyword"}:
        return f"at least one of them has [{keyword_display(str(where['keyword']))}]"  # of the chosen ones
    if quantity == "" and where.get("alone") and not (where.get("attacker") or where.get("defender")) \
            and where.get("location", "here") == "here":
        rest = {k: v for k, v in where.items() if k not in ("alone", "location")}
        one = self.selection(ctx, {**sel, "pick": "target", "where": rest}).text
        return f"{one} is alone" + (" here" if "location" in where else "")  # "an enemy unit is alone here"
    controller = where.get("controller")
    zone = sel.get("zone")
    if quantity is None and zone and not where and sel.get("what") == "card":
        return f"{ctx.your()} {ZONES.get(str(zone), str(zone))} is empty"
    located = any(k in where for k in ("location", "at"))
    owned = controller in ("friendly", "you") or (controller == "enemy" and not located)
    base = {**sel, "pick": "all"}
    if zone == "in_play" and quantity == "":
        zone = None  # "you control something that's stunned"
    if owned and not zone:
        base = {**base, "where": {k: v for k, v in where.items() if k != "controller"}}
    noun = self.selection(ctx, base, mode="each" if quantity and quantity.endswith(" one") else "bare").text
    if owned and not zone and where.get("location") == "base" and controller in ("friendly", "you"):
        noun = re.sub(r" in (a base|bases)\b", f" in {ctx.your()} base", noun)  # your units in a base are in yours
    if quantity is None:
        phrase, plural = "no " + noun, True
    elif quantity:
        phrase, plural = f"{quantity} {noun}", not quantity.endswith(" one")
    else:
        phrase, plural = self.selection(ctx, {**base, "pick": "target"}).text, False
    if zone and sel.get("whose") == "you" and quantity == "" and f" from {ctx.your()} " in f"{phrase} ":
        # one card of yours in a zone: "you have a <card> in your trash", not "there is a <card> from your trash"
        return f"{ctx.you().text} have {phrase.replace(f' from {ctx.your()} ', f' in {ctx.your()} ')}"
    if owned and not zone and controller in ("friendly", "you") and quantity == "exactly one" \
            and phrase.endswith(" here"):
        # "there is exactly one other unit you control here" (one, not a count of yours)
        return f"there is {phrase.removesuffix(' here')} {ctx.you().text} control here"
    if owned and not zone:
        verb = "have" if quantity and not (self.styled("control_counts") and quantity.endswith("or more")) \
            else "control"
        who = f"{ctx.you().text} {verb}" if controller in ("friendly", "you") \
            else f"an opponent {third_singular(verb)}"
        return f"{who} {phrase}"
    mine = re.fullmatch(r"(an? \S+) you control\b(.*)", phrase)
    if mine is not None and not plural:
        return f"you control {mine.group(1)}{mine.group(2)}"  # "you control a battlefield with ..."
    return f"there {'are' if plural else 'is'} {phrase}"


def compare(self: Renderer, ctx: Ctx, cond: Mapping[str, Any]) -> str:
    left, right, op = cond.get("left"), cond.get("right"), str(cond.get("op", "ge"))
    have_stats = {"points": "points", "hand_size": "cards in {your} hand", "trash_size": "cards in {your} trash",
                  "runes": "runes", "xp": "XP", "main_deck_size": "cards in {your} Main Deck"}
    if isinstance(left, Mapping) and is_int(right) and op in OPS:
        kind = left.get("type")
        number = number_word(right) if op in ("le", "lt") and right <= 3 else str(right)
        quantity = OPS[op].format(number)
        if kind == "variable" and left.get("name") == "excess_damage" and op == "ge" and not left.get("plus"):
            whom = "" if self.styled("excess_damage_unqualified") else " to enemy units"
            return f"{ctx.you().text} assigned {right} or more excess damage{whom}"
        if kind == "tags_among" and op == "ge" and right == len(left.get("tags") or []):
            tags = [str(t) for t in left["tags"]]
            among = self.selection(ctx, {**left["of"], "pick": "all"}, mode="bare").text \
                if isinstance(left.get("of"), Mapping) else "they"
            listed = ", ".join(tags[:-1]) + ", and " + tags[-1] if len(tags) > 1 else tags[0]
            return f"{among} have all of the following tags among them — {listed}"
        if kind == "might" and isinstance(left.get("of"), Mapping) and left["of"].get("pick") == "all" \
                and op == "ge":
            among = self.selection(ctx, {**left["of"]}, mode="bare").text
            return f"{among} have total Might {right} or more"
        if kind == "might" and isinstance(left.get("of"), str) and op in ("le", "ge") \
                and set(left) == {"type", "of"}:
            subject = self.subject(ctx, left["of"])  # "it has 3 Might or less"
            return f"{subject.text} {subject.verb('have')} {right} Might or {'less' if op == 'le' else 'more'}"
        if kind == "stat" and left.get("stat") in have_stats and not left.get("plus") and not left.get("times"):
            player = left.get("player")
            mine = "control" if left["stat"] == "runes" and self.styled("control_counts") else "have"
            who = {"opponent": "an opponent has", "its_controller": "its controller has"}.get(
                str(player), f"{ctx.you().text} {mine}")
            if op == "ge" and mine == "control":
                quantity = self.or_more(right)
            what = have_stats[str(left["stat"])].format(your=ctx.your() if who.endswith(("have", "control"))
                                                         else "their")
            return f"{who} {quantity} {what}"
        if kind == "stat" and left.get("stat") == "power_spent_this_turn" and op == "ge" \
                and not left.get("plus") and not left.get("times"):
            return f"{ctx.you().text}'ve spent at least {'{Any}' * right} this turn"
        if kind == "stat" and left.get("stat") == "moves_this_turn":
            subject = ctx.self_subj
            times = {2: "twice", 1: "once"}.get(right, f"{right} times") if op == "ge" else f"{quantity} times"
            return f"{subject.text} {subject.verb('have')} moved {times} this turn"
        if kind == "count" and not left.get("times") and not left.get("plus"):
            word = number_word(right) if right <= 3 else str(right)
            quantity = {"ge": self.or_more(right), "gt": f"more than {word}", "le": f"at most {word}",
                        "lt": f"fewer than {word}", "eq": f"exactly {word}", "ne": f"other than {word}"}[op]
            return self.there_are(ctx, left.get("of"), None if right == 0 and op in ("le", "eq") else quantity)
    if op in ("lt", "gt") and isinstance(left, Mapping) and isinstance(right, Mapping) \
            and left.get("type") == right.get("type") == "stat" and left.get("stat") == right.get("stat") == "runes" \
            and set(left) == {"type", "stat"} and set(right) == {"type", "stat", "player"} \
            and right["player"] == "opponent":
        # your runes against an opponent's: "you have fewer runes than ..." (control_counts: "control")
        verb = "control" if self.styled("control_counts") else "have"
        return f"{ctx.you().text} {verb} {'fewer' if op == 'lt' else 'more'} runes than an opponent"
    if op in ("lt", "gt") and isinstance(left, Mapping) and isinstance(right, Mapping) \
            and set(left) == set(right) == {"type", "of"} and left["type"] == right["type"] == "might" \
            and isinstance(left["of"], str):
        subject = self.subject(ctx, left["of"])  # "it has more Might than that unit"
        than = self.obj(ctx, right["of"])
        return f"{subject.text} {subject.verb('have')} {'less' if op == 'lt' else 'more'} Might than {than}"
    if op == "ge" and isinstance(left, Mapping) and isinstance(right, Mapping) and left.get("type") == "stat" \
            and left.get("stat") in ("points", "opponent_points_max") and is_int(right.get("plus")) \
            and right["plus"] < 0 and not left.get("plus"):
        who = "an opponent's score" if left.get("stat") == "opponent_points_max" else f"{ctx.your()} score"
        target = self.amount(ctx, {**right, "plus": 0}).value
        return f"{who} is within {-right['plus']} points of {target}"
    return f"{self.amount(ctx, left).value} is {OPS_VALUE.get(op, op)} {self.amount(ctx, right).value}"


def history(self: Renderer, ctx: Ctx, cond: Mapping[str, Any], negate: bool = False) -> str:
    event = str(cond.get("event"))
    during = f" during {ctx.your()} {PHASES.get(str(cond['during']), str(cond['during']))} Phase" \
        if "during" in cond else ""
    if event == "spent_energy":
        spent = "{" + str(cond.get("min_value", 1)) + "} or more" if "min_value" in cond else "energy"
        return f"{ctx.you().text}'ve spent {spent} to play a spell{during} this turn"
    if event == "xp":
        return f"{ctx.you().text}'ve gained XP{during} this turn"
    if event == "died" and during:
        died: Mapping[str, Any] = cond["subject"] if isinstance(cond.get("subject"), Mapping) else {}
        noun = self.selection(ctx, {"pick": "target", "what": str(died.get("type", "unit")),
                                    "where": {k: v for k, v in died.items() if k != "type"}}).text
        return f"{noun} died{during} this turn"
    if event == "died":
        event = "die"
    player = cond.get("player", "you")
    at_least = cond.get("at_least", 1)
    at_least = at_least if is_int(at_least) else 1
    subject = cond.get("subject")
    what = "card"
    where: Mapping[str, Any] = {}
    if isinstance(subject, Mapping):
        where = {k: v for k, v in subject.items() if k != "type"}
        what = str(subject.get("type", "unit" if event in INTRANSITIVE else "card"))
    elif event in INTRANSITIVE:
        what = "unit"
    if cond.get("exclude_self"):
        where = {**where, "other": True}
    sel = {"pick": "target", "what": what, "where": where}
    if at_least > 1:
        obj = f"{at_least} or more {self.selection(ctx, {**sel, 'pick': 'all'}, mode='bare').text}"
    else:
        obj = self.selection(ctx, sel).text
    past = PAST.get(event, event.replace("_", " "))
    if event in INTRANSITIVE:
        return f"{obj} {'have' if at_least > 1 else 'has'}{' not' if negate else ''} {past} this turn"
    if negate:
        who = {"you": f"{ctx.you().text} haven't", "friendly": f"neither {ctx.you().text} nor an ally has",
               "opponent": "no opponent has", "any": "no player has"}.get(str(player), f"{ctx.you().text} haven't")
    else:
        who = {"you": f"{ctx.you().text}'ve", "friendly": f"{ctx.you().text} or an ally have",
               "opponent": "an opponent has", "any": "a player has"}.get(str(player), f"{ctx.you().text}'ve")
    by = cond.get("by")
    with_what = ""
    if isinstance(by, list) and by:
        names = {"spell": "spells", "unit_ability": "unit abilities", "ability": "other abilities"}
        with_what = " with " + series([names.get(str(b), str(b)) for b in by], "or")
    return f"{who} {past} {obj} this turn{with_what}"


def keyword_label(self: Renderer, cond: Mapping[str, Any]) -> str:
    name = keyword_display(str(cond.get("keyword", "")))
    value = cond.get("value")
    return f"[{name} {value}]" if is_int(value) else f"[{name}]"
