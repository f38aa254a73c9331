"""English for a whole card: keyword lines with reminders, the card's lines in order, triggers
merged where a card prints them as one."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from riftscript.tools.render.phrases import (CONDITION_KEYS, Ctx, Node, Phrase, cap, end_sentence, is_effect_text,
                                             is_int, keyword_display, keywords_only, mark, norm_kw, safe,
                                             same_but_trigger, same_while, series)

if TYPE_CHECKING:
    from riftscript.tools.render.renderer import Renderer


def reminder(self: Renderer, keyword: str, value: Node) -> str:
    if not self.reminders or self.catalog is None:
        return ""
    kw = self.catalog.keywords.get(re.sub(r"[^a-z0-9]+", "_", keyword.lower()).strip("_"))
    if kw is None or not kw.summary:
        return ""
    if value is None and kw.parameter_kind == "number" and kw.default is not None:
        value = kw.default  # a bare [Shield] is [Shield 1]: its reminder says the number it means
    summary = re.sub(r"\bX\b", str(value), kw.summary) if is_int(value) else kw.summary
    return f" ({summary.rstrip('.')}.)"


def keyword_line(self: Renderer, entry: Node) -> str:
    if isinstance(entry, str):
        return f"[{keyword_display(entry)}]" + self.reminder(entry, None)
    if isinstance(entry, Mapping) and len(entry) == 1:
        name, value = next(iter(entry.items()))
        shown = keyword_display(str(name))
        if is_int(value):
            return f"[{shown} {value}]" + self.reminder(str(name), value)
        if isinstance(value, Mapping) and "type" in value:
            if self.type != "unit" and any(
                    isinstance(a, Mapping) and a.get("kind") == "triggered" and a.get("effect") == value
                    and a.get("when") == {"event": "played", "subject": "self"} and "if" not in a
                    for a in self.card.get("abilities") or []):
                # the same instructions as its own "When you play this": "Repeat this gear's play effect."
                return f"[{shown}] — Repeat this {self.type}'s play effect." + self.reminder(str(name), None)
            return f"[{shown}] — {end_sentence(cap(self.text(self.base, value)))}" + self.reminder(str(name), None)
        if isinstance(value, Mapping):
            value, note = self.reduction(self.base, value)
            cost = ", ".join(self.cost_parts(self.base, value, symbols=True)) or "{0}"
            return f"[{shown}] {cost}" + (f". {note}" if note else "") + self.reminder(str(name), None)
    return mark(f"keyword {entry!r}")


def label_keywords(self: Renderer) -> set[str]:
    """Keywords that label abilities ([Legion] — ...) and need no line of their own."""
    found: set[str] = set()

    def walk(node: Node, key: str = "") -> None:
        if isinstance(node, Mapping):
            if key in CONDITION_KEYS and node.get("type") == "keyword" and isinstance(node.get("keyword"), str):
                found.add(norm_kw(node["keyword"]))
            label = node.get("keyword")
            if "kind" in node and isinstance(label, str):
                found.add(norm_kw(label))
            for child_key, value in node.items():
                walk(value, str(child_key))
        elif isinstance(node, list):
            for value in node:
                walk(value, key)
    walk(self.card.get("abilities"))
    return found


def lines(self: Renderer) -> list[str]:
    """The card's text, one line per keyword and ability."""
    out: list[str] = []
    labels = self.label_keywords()
    keywords = self.card.get("keywords")
    last: list[str] = []  # keywords whose parameter is an effect (Deathknell) are printed after the abilities
    keys = list(self.card)  # a card file listing its abilities first prints its keyword lines after them
    after = "abilities" in keys and "keywords" in keys and keys.index("abilities") < keys.index("keywords")
    for entry in keywords if isinstance(keywords, list) else []:
        name = entry if isinstance(entry, str) else next(iter(entry), "") if isinstance(entry, Mapping) else ""
        if isinstance(entry, str) and norm_kw(name) in labels:
            continue
        effect_param = isinstance(entry, Mapping) and isinstance(next(iter(entry.values()), None), Mapping) \
            and "type" in next(iter(entry.values()))
        kw = self.catalog.keywords.get(norm_kw(name)) if self.catalog is not None else None
        printed_last = after or effect_param or (kw is not None and kw.printed_last)
        (last if printed_last else out).append(safe(self.keyword_line, entry))
    abilities = self.card.get("abilities")
    abilities = abilities if isinstance(abilities, list) else []
    last_activated: int | None = None  # the line of the last activated ability
    i = 0
    while i < len(abilities):
        ability = abilities[i]
        group = [ability]
        while i + len(group) < len(abilities) and same_but_trigger(ability, abilities[i + len(group)]) \
                and is_effect_text(abilities[i + len(group)]) == is_effect_text(ability):
            group.append(abilities[i + len(group)])
        while i + len(group) < len(abilities) and same_while(ability, abilities[i + len(group)]):
            group.append(abilities[i + len(group)])
        pair = instead_pair(abilities[i:i + 2])
        if pair:
            out.append(safe(self.static_instead, pair))
            i += 2
            continue
        replaced = replaced_together(abilities[i:])
        if len(replaced) > 1:
            out.append(safe(self.merged_replacements, replaced))
            i += len(replaced)
            continue
        if len(group) > 1 and ability.get("kind") == "static":
            out.append(safe(self.merged_statics, group))
            i += len(group)
            continue
        if is_effect_text(ability):
            # 150.2: effect text, written for the unit the card is attached to ("I" is that unit)
            unit = type(self)({**self.card, "type": "unit"}, self.catalog, self.reminders)
            label = "[Equipped unit gets:] " if self.card.get("equipment") else "Effect text: "
            keywords = keywords_only(ability)
            if keywords is not None:
                out.append(label + " ".join(self.keyword_use(k, v) for k, v in keywords))
            elif len(group) > 1:
                out.append(label + safe(unit.merged_triggers, group))
            else:
                out.append(label + safe(unit.ability, ability))
            i += len(group)
            continue
        if len(group) > 1:
            out.append(safe(self.merged_triggers, group))
        else:
            out.append(safe(self.ability, ability))
            if isinstance(ability, Mapping) and ability.get("kind") == "activated":
                last_activated = len(out) - 1
        i += len(group)
    shared = self.shared_only_while()
    if shared is not None and last_activated is not None:
        owner = self.base.self_poss if self.type in ("unit", "legend") else "its"
        when = safe(lambda c: self.condition(self.base, c), shared)
        out[last_activated] += f" Use {owner} abilities only while {when}."
    return out + last


def merged_statics(self: Renderer, group: list[Mapping[str, Any]]) -> str:
    """Static abilities under one condition: 'While C, A, and B.'"""
    ctx = self.base
    clauses = [s for a in group for s in self.static_clauses(ctx, {k: v for k, v in a.items() if k != "while"})]
    return end_sentence(f"While {self.condition(ctx, group[0]['while'])}, {series(clauses)}")


def instead_pair(abilities: list[Any]) -> list[Mapping[str, Any]]:
    """Two statics alike but for their modifiers' numbers, the first while a condition doesn't hold and the
    second while it does ("X. If C, Y instead."); [] otherwise."""
    if len(abilities) != 2 or not all(isinstance(a, Mapping) and a.get("kind") == "static" for a in abilities):
        return []
    a, b = abilities
    if b.get("while") is None or a.get("while") != {"type": "not", "of": b["while"]}:
        return []
    strip = ("while", "modifiers")
    mods_a, mods_b = a.get("modifiers"), b.get("modifiers")
    if not (isinstance(mods_a, list) and isinstance(mods_b, list)) or \
            {k: v for k, v in a.items() if k not in strip} != {k: v for k, v in b.items() if k not in strip} or \
            [m.get("type") if isinstance(m, Mapping) else m for m in mods_a] != \
            [m.get("type") if isinstance(m, Mapping) else m for m in mods_b]:
        return []
    return [a, b]


def static_instead(self: Renderer, pair: list[Mapping[str, Any]]) -> str:
    """The first static's sentence, then "If <the second's condition>, <its sentence about 'they'/'it'> instead"."""
    ctx = self.base
    plain, instead = ({k: v for k, v in a.items() if k != "while"} for a in pair)
    subj = self.static_subject(ctx, plain.get("affects", "self"))
    again = subj if subj.person != 3 or subj.text == "this" else Phrase("they" if subj.plural else "it", subj.plural)
    first = ". ".join(cap(s) for s in self.static_clauses(ctx, plain))
    second = " and ".join(self.static_clauses(ctx, instead, subject=again))
    return end_sentence(f"{first}. If {self.condition(ctx, pair[1]['while'])}, {second} instead")


def replaced_together(abilities: list[Any]) -> list[Mapping[str, Any]]:
    """The replacement abilities at the head of the list that differ only in the event they replace."""
    def rest(a: Any) -> Any:
        if not isinstance(a, Mapping) or a.get("kind") != "replacement" or not isinstance(a.get("replaces"), Mapping):
            return None
        return {**a, "replaces": {k: v for k, v in a["replaces"].items() if k != "event"}}
    first = rest(abilities[0]) if abilities else None
    group = []
    for a in abilities:
        if first is None or rest(a) != first:
            break
        group.append(a)
    return group


def merged_replacements(self: Renderer, group: list[Mapping[str, Any]]) -> str:
    """Replacements differing only in their event: one sentence, the replaced events listed with "or"."""
    woulds = [self.would(self.base, a["replaces"]).split() for a in group]
    common = 0
    while all(len(w) > common + 1 and w[common] == woulds[0][common] for w in woulds):
        common += 1
    head = "If " + " ".join(woulds[0][:common] + [series([" ".join(w[common:]) for w in woulds], "or")])
    return str(self.ability(group[0], head=head))


def merged_triggers(self: Renderer, group: list[Mapping[str, Any]]) -> str:
    """Triggered abilities differing only in their trigger: 'When I attack or defend, ...'."""
    ctx = self.base
    heads = [self.trigger(ctx, a.get("when")) for a in group]
    words = [h.split() for h in heads]
    common = 0
    while all(len(w) > common + 1 and w[common] == words[0][common] for w in words):
        common += 1
    if common >= 2:
        tails = [w[common:] for w in words]
        suffix = 0
        while all(len(t) > suffix + 1 and t[-1 - suffix] == tails[0][-1 - suffix] for t in tails):
            suffix += 1
        ends = " ".join(tails[0][len(tails[0]) - suffix:]) if suffix else ""
        middle = series([" ".join(t[:len(t) - suffix]) for t in tails], "or")
        head = " ".join(x for x in [" ".join(words[0][:common]), middle, ends] if x)
    else:
        head = self.self_events(ctx, [a.get("when") for a in group]) or (
            heads[0] + "".join(" or " + h[:1].lower() + h[1:] for h in heads[1:]))
    return self.ability(group[0], head=head)


def self_events(self: Renderer, ctx: Ctx, triggers: list[Node]) -> str:
    """Several events of this object as one trigger: 'When this is played, discarded, or dies',
    'When I defend or I'm played from [Hidden]'."""
    passive = {"played": "played", "discard": "discarded", "recycle": "recycled", "hide": "hidden",
               "chosen": "chosen", "buff": "buffed", "stun": "stunned", "ready": "readied"}
    phrases: list[tuple[bool, str]] = []
    for t in triggers:
        if not isinstance(t, Mapping) or t.get("subject") != "self" or set(t) - {"event", "subject", "from_zone",
                                                                               "from_hidden"}:
            return ""
        event = str(t["event"])
        if event in passive:
            phrases.append((True, passive[event] + (self.from_hidden() if t.get("from_hidden") else "")))
        else:
            parts = self.trigger_parts(ctx, t)
            if parts.subject != ctx.self_subj:
                return ""
            phrases.append((False, " ".join(x for x in [parts.subject.verb(parts.verb), parts.rest] if x)))
    subject = ctx.self_subj
    if phrases and phrases[0] == (True, "played") and len(phrases) == 2 and not phrases[1][0] \
            and subject.person == 1 and self.styled("when_you_play_me"):
        return f"When {ctx.you().text} play {ctx.self_obj} or when {subject.text} {phrases[1][1]}"  # "... I hold"
    shown = []
    for i, (is_passive, phrase) in enumerate(phrases):
        same = i > 0 and phrases[i - 1][0] == is_passive
        if same:
            shown.append(phrase)
        elif is_passive:
            shown.append(f"{subject.be()} {phrase}")
        else:
            shown.append(f"{subject.text} {phrase}" if i == 0 or subject.person == 1 else phrase)
    return "When " + series(shown, "or")
