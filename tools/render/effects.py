"""English for the effect primitives, one function per primitive (``e_kill``, ``e_draw``, ...),
named after the primitive so its interpreter and its English are found together."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from riftscript.core.script.cards import CardDef
from riftscript.tools.render.phrases import (MORE_KEYWORDS, MORE_TARGETS, NOUNS, YOU, ZONES, Clause, Ctx, Node,
                                             Phrase, article_for, cap, installed_catalog, is_int, is_marked,
                                             keyword_display, mark, number_word, series)

if TYPE_CHECKING:
    from riftscript.tools.render.renderer import Renderer


def clauses(self: Renderer, ctx: Ctx, eff: Node) -> list[Clause]:
    """An effect as a list of clauses."""
    if not isinstance(eff, Mapping):
        return [Clause(mark(f"effect {eff!r}"))]
    kind = str(eff.get("type"))
    method = getattr(self, f"e_{kind}", None)
    if method is None:
        return self.plugin_effect(ctx, eff, kind)
    result: list[Clause] = method(ctx, eff)
    return result


def plugin_effect(self: Renderer, ctx: Ctx, eff: Mapping[str, Any], kind: str) -> list[Clause]:
    """A plugin's effect primitive, from the English template it registered (EffectType.text):
    selectors read as objects (``{target}``) or possessives (``{target_poss}``), durations as " this turn",
    amounts as numbers, and a field whose schema is an effect as that effect's English."""
    catalog = self.catalog if self.catalog is not None else installed_catalog()
    etype = catalog.effect_types.get(kind) if catalog is not None else None
    if etype is None or not etype.text:
        return [Clause(mark(f"unknown effect {kind!r}"))]
    fields: dict[str, str] = {"duration": self.duration(eff.get("duration"))}
    props = (etype.schema or {}).get("properties") or {}
    for key, value in eff.items():
        if key in ("type", "note", "duration"):
            continue
        if props.get(key) == {"$ref": "#/$defs/effect"}:
            fields[key] = self.text(ctx, value)  # an effect inside: its own English ("each [Add] {1}")
        elif isinstance(value, str) and is_marked(self.obj(ctx, value)):
            fields[key] = value  # not a reference: a name (a token's)
        elif isinstance(value, str) or (isinstance(value, Mapping) and ("pick" in value or "named" in value)):
            fields[key] = self.obj(ctx, value)
            fields[key + "_poss"] = self.poss(ctx, value)  # "{target_poss} base Might": "its", "a unit's"
        else:
            fields[key] = self.amount(ctx, value).value if isinstance(value, (int, Mapping)) else str(value)
    try:
        return [Clause(etype.text.format(**fields))]
    except (KeyError, IndexError):
        return [Clause(mark(f"effect {kind!r} text"))]


def text(self: Renderer, ctx: Ctx, eff: Node) -> str:
    """An effect as sentence text (first letter as rendered, no final period)."""
    return self.join(ctx, self.clauses(ctx, eff))


def join(self: Renderer, ctx: Ctx, clauses: list[Clause]) -> str:
    """Join clauses: player actions and actions on what was just chosen share a sentence;
    clauses with the same verb share it ("choose two units and two gear")."""
    merged: list[Clause] = []
    for clause in clauses:
        prev = merged[-1] if merged else None
        if prev is not None and clause.verb and clause.verb == prev.verb and not clause.subject \
                and not prev.subject and clause.obj and prev.obj:
            objs = prev.obj.split(" \x00 ") + [clause.obj]
            merged[-1] = Clause(f"{clause.verb} {series(objs)}", group=prev.group, verb=prev.verb,
                                obj=" \x00 ".join(objs))
        else:
            merged.append(clause)
    groups: list[list[Clause]] = []
    for clause in merged:
        prev = groups[-1][-1] if groups else None
        if prev is not None and clause.group and not clause.subject and not prev.subject and (
                clause.group == "ref" or clause.group == "player" and prev.group in ("player", "ref")):
            groups[-1].append(clause)
        else:
            groups.append([clause])
    sentences = []
    for i, group in enumerate(groups):
        texts = [c.text for c in group]
        given = shared_give(texts)
        if given is not None:
            sentence = given
        elif len(texts) == 2 and all(t.endswith(" this turn") and t.count("this turn") == 1 for t in texts) \
                and group[1].group == "ref" and not group[0].subject:
            # two things done for this turn, the second to the object of the first: the time once, first
            sentence = "this turn, " + " and ".join(t.removesuffix(" this turn") for t in texts)
        elif len(texts) == 2 and (texts[0].startswith(("discard", "discards")) and group[1].group == "player"
                                  or "," in texts[0]):
            sentence = f"{texts[0]}, then {texts[1]}"
        else:
            sentence = series(texts)
        if ctx.actor is not None and not group[0].subject:
            later = "they" if ctx.actor.plural else "that player"
            sentence = f"{ctx.actor.text if i == 0 else later} {sentence}"
        sentences.append(sentence if i == 0 else cap(sentence))
    return ". ".join(sentences)


def shared_give(texts: list[str]) -> str | None:
    """Two gifts to the same object for the same time as one: "give me +2 Might and [Ganking] this turn"."""
    if len(texts) != 2 or not all(t.startswith("give ") and t.endswith(" this turn") for t in texts):
        return None
    first, second = (t.removesuffix(" this turn").split(" ") for t in texts)
    same = 0
    while same < min(len(first), len(second)) and first[same] == second[same]:
        same += 1
    gifts = [" ".join(first[same:]), " ".join(second[same:])]
    if same < 2 or not all(g.startswith(("+", "-", "[")) for g in gifts):
        return None
    return " ".join(first[:same]) + f" {gifts[0]} and {gifts[1]} this turn"


def chosen_by(self: Renderer, ctx: Ctx, target: Node) -> tuple[list[Clause], Node]:
    """A selection chosen by someone else: ("each other player chooses a unit", "those units")."""
    if not isinstance(target, Mapping) or target.get("chooser") in (None, "you"):
        return [], target
    chooser = target["chooser"]
    who = {"opponent": Phrase("an opponent"), "each_player": Phrase("each player"),
           "each_other_player": Phrase("each other player"), "its_controller": Phrase("its controller"),
           "event_player": Phrase("that player")}.get(str(chooser), Phrase(mark(f"chooser {chooser!r}")))
    rest = {k: v for k, v in target.items() if k != "chooser"}
    several = chooser in ("each_player", "each_other_player") or self.is_plural(rest)
    noun = NOUNS.get(str(rest.get("what", "card")), ("card", "cards"))[1 if several else 0]
    pre = Clause(f"{who.text} {who.verb('choose')} {self.obj(ctx, rest)}", subject=True)
    return [pre], {"named": noun} if several else "it"


def simple(self: Renderer, ctx: Ctx, eff: Mapping[str, Any], verb: str) -> list[Clause]:
    """'verb target': kill, stun, buff, ready, exhaust, heal, recall, banish, counter, ..."""
    pre, target = self.chosen_by(ctx, eff.get("target"))
    if isinstance(target, Mapping) and "named" in target and pre:
        obj = f"those {target['named']}"
    else:
        obj = self.obj(ctx, target)
    return pre + [Clause(f"{ctx.v(verb)} {obj}", group="ref" if isinstance(target, str) else "",
                         verb=ctx.v(verb), obj=obj)]


def e_kill(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "kill")


def e_stun(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "stun")


def e_buff(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "buff")


def e_ready(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "ready")


def e_exhaust(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "exhaust")


def e_heal(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "heal")


def e_recall(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "recall")


def e_banish(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "banish")


def e_counter(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    out = self.simple(ctx, eff, "counter")
    if eff.get("to") == "hand":
        out.append(Clause("it goes to its owner's hand rather than their trash", subject=True))
    return out


def e_reveal(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return self.simple(ctx, eff, "reveal")


def e_detach(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    if eff.get("target") == "this_card":  # said by the equipped unit: "unattach this"
        return [Clause(f"{ctx.v('unattach')} this", group="ref")]
    return self.simple(ctx, eff, "detach")


def e_recycle(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    if isinstance(target, Mapping) and target.get("zone") == "trash" and target.get("what") == "card" \
            and not target.get("where") and target.get("pick") in ("choose", "target"):
        count = target.get("count", 1)
        up_to = "up to " if target.get("up_to") else ""
        whose = target.get("whose", "you")
        if whose == "opponent":  # others' cards go to their owners' decks
            cards = "card" if count == 1 else "cards"
            return [Clause(f"{ctx.v('choose')} {up_to}{count} {cards} from opponents' trashes. "
                           f"Their owners recycle them")]
        source = "trashes" if whose == "any" else f"{ctx.your()} trash"
        return [Clause(f"{ctx.v('recycle')} {up_to}{count} from {source}", group="player")]
    obj = self.obj(ctx, target)
    if eff.get("random_order"):
        obj += " in a random order"
    return [Clause(f"{ctx.v('recycle')} {obj}", group="ref" if isinstance(target, str) else "",
                   verb=ctx.v("recycle"), obj=obj)]


def e_spend_buff(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    if isinstance(target, str):
        return [Clause(f"{ctx.v('spend')} {self.poss(ctx, target)} buff", group="ref")]
    if isinstance(target, Mapping) and target.get("any_number"):
        return [Clause(f"{ctx.v('spend')} any number of buffs")]
    plural = self.is_plural(target)
    return [Clause(f"{ctx.v('spend')} the {'buffs' if plural else 'buff'} of {self.obj(ctx, target)}")]


def e_return_to_hand(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    if isinstance(target, Mapping) and target.get("zone") in ("trash", "main_deck", "banishment"):
        if target.get("whose", "you") != "you":  # cards of any player go back to their owners
            owners = "their owners' hands" if self.is_plural(target) else "its owner's hand"
            return [Clause(f"{ctx.v('return')} {self.obj(ctx, target)} to {owners}")]
        return [Clause(f"{ctx.v('return')} {self.obj(ctx, target)} to {ctx.your()} hand")]
    if target == "self" and ctx.zone and ctx.zone != "board":
        return [Clause(f"{ctx.v('return')} {ctx.self_obj} from {ctx.your()} {ZONES.get(ctx.zone, ctx.zone)} "
                       f"to {ctx.your()} hand", group="ref")]
    more = eff.get(MORE_TARGETS)
    if more:  # several targets returned together: "return A and B to their owners' hands"
        objs = series([self.obj(ctx, t) for t in [target] + list(more)])
        return [Clause(f"{ctx.v('return')} {objs} to their owners' hands")]
    plural = self.is_plural(target)
    owner = "their owners' hands" if plural else (
        f"{ctx.self_poss} owner's hand" if target == "self" else "its owner's hand")
    return [Clause(f"{ctx.v('return')} {self.obj(ctx, target)} to {owner}",
                   group="ref" if isinstance(target, str) else "")]


def e_take_control(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    out = [Clause(f"{ctx.v('take')} control of {self.obj(ctx, eff.get('target'))}")]
    if eff.get("duration") == "while_source_on_board":
        out.append(Clause(f"{ctx.you().text} control it until {ctx.self_subj.text} leave the board"
                          .replace("I leave", "I leave").replace(" it leave", " it leaves"), subject=True))
    elif eff.get("duration") == "this_turn":
        then = " and recall it" if eff.get("then") == "recall" else ""
        out.append(Clause(f"lose control of that unit{then} at end of turn", subject=True))
    if eff.get("new_choices"):
        out.append(Clause(f"{ctx.you().text} may make new choices for it", subject=True))
    return out


def e_deal_damage(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    amount = self.amount(ctx, eff.get("amount", 0))
    source = eff.get("source")
    subject = ""
    verb = ctx.v("deal")
    if source is not None and source != "self":
        sub = self.subject(ctx, source)
        subject, verb = sub.text + " ", sub.verb("deal")
    if eff.get("split"):
        value = f"{amount.num} damage" if amount.num is not None and not amount.per \
            else f"damage equal to {amount.equal}"
        dmg = f"{value} split among {self.obj(ctx, target)}"
    elif isinstance(eff.get("amount"), Mapping) and eff["amount"].get("type") == "variable" \
            and eff["amount"].get("name") == "x" and len(eff["amount"]) == 2:
        dmg = f"that much damage to {self.obj(ctx, target)}"
    elif eff.get("amount") == {"type": "variable", "name": ctx.said}:
        dmg = f"that much to {self.obj(ctx, target)}"
    elif amount.num is not None and amount.per:
        dmg = f"{amount.num} to {self.obj(ctx, target)}{amount.per}"
    elif isinstance(raw := eff.get("amount"), Mapping) and raw.get("type") == "count" and is_int(raw.get("plus")) \
            and raw["plus"] > 0 and raw.get("times", 1) == 1 and not subject:
        # a count plus N: N damage, then 1 Bonus Damage per counted object
        per = self.amount(ctx, {**raw, "plus": 0}).per
        dmg = f"{raw['plus']} to {self.obj(ctx, target)}. This deals 1 Bonus Damage{per}"
    elif amount.num is not None:
        each = "each of " if isinstance(target, Mapping) and target.get("pick") != "all" and (
            self.is_plural(target)) and not target.get("one_per_location") else ""
        dmg = f"{amount.num} to {each}{self.obj(ctx, target)}"
    elif isinstance(raw := eff.get("amount"), Mapping) and raw.get("of") == "target" and not subject:
        dmg = f"damage to {self.obj(ctx, target)} equal to {amount.equal}"  # the amount names it: said after it
    else:
        dmg = f"damage equal to {amount.equal} to {self.obj(ctx, target)}"
    return [Clause(f"{subject}{verb} {dmg}", subject=bool(subject))]


def e_mutual_damage(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    a, b = eff.get("a"), eff.get("b")
    out: list[Clause] = []
    chosen = [x for x in (a, b) if isinstance(x, Mapping) and "named" not in x]
    if chosen:
        objs = [self.obj(ctx, x) for x in chosen]
        shown = "two units" if objs == ["a unit", "another unit"] else " and ".join(objs)
        out.append(Clause(f"{ctx.v('choose')} {shown}"))
    if a == "self" or b == "self":
        first = "we" if ctx.self_subj.text == "I" else "they"
        poss = "our" if first == "we" else "their"
    else:
        first, poss = "they", "their"
    out.append(Clause(f"{first} deal damage equal to {poss} Mights to each other", subject=True))
    return out


def e_modify_might(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    duration = self.duration(eff.get("duration"))
    if eff.get("double"):
        return [Clause(f"{ctx.v('double')} {self.poss(ctx, target)} Might{duration}",
                       group="ref" if isinstance(target, str) else "")]
    if "raise_to" in eff:
        pre: list[Clause] = []
        if isinstance(target, Mapping) and "named" not in target:
            chosen = self.obj(ctx, target)
            pre, target = [Clause(f"{ctx.v('choose')} {chosen}", verb=ctx.v("choose"), obj=chosen)], "it"
        raise_to = eff["raise_to"]
        if isinstance(raise_to, Mapping) and raise_to.get("type") == "might" and isinstance(raise_to.get("of"),
                                                                                             Mapping):
            value = "the Might of " + self.obj(ctx, raise_to["of"])
        else:
            value = self.amount(ctx, raise_to).value
        return pre + [Clause(f"{duration.strip() + ', ' if duration else ''}{ctx.v('increase')} "
                             f"{self.poss(ctx, target)} Might to {value}", subject=bool(duration))]
    amount = self.amount(ctx, eff.get("amount", 0))
    sign = "-" if eff.get("negative") else "+"
    if amount.num is not None and eff.get(MORE_KEYWORDS):
        grants = series([f"{sign}{amount.num} Might"] + [self.keyword_use(k, v) for k, v in eff[MORE_KEYWORDS]])
        change = f"{grants}{duration}"
    elif amount.num is not None:
        change = f"{sign}{amount.num} Might{duration}{amount.per}"
    else:
        change = f"{sign}Might equal to {amount.equal}{duration}"
    minimum = eff.get("minimum")
    if is_int(minimum):
        change += f", to a minimum of {minimum} Might"
    return [Clause(f"{ctx.v('give')} {self.given(ctx, target)} {change}",
                   group="ref" if isinstance(target, str) else "")]


def given(self: Renderer, ctx: Ctx, target: Node) -> str:
    """The object of "give": plural selections without "all" ("give friendly units +1 Might")."""
    if isinstance(target, Mapping) and target.get("pick") == "all" and "named" not in target:
        return self.selection(ctx, target, mode="bare").text
    return self.obj(ctx, target)


def duration(self: Renderer, value: Node) -> str:
    return {"this_turn": " this turn", "this_combat": " this combat", "permanent": "", None: ""}.get(
        value, f" {mark(f'duration {value!r}')}") if value is None or isinstance(value, str) else ""


def keyword_use(self: Renderer, name: Node, value: Node, ctx: Ctx | None = None) -> str:
    shown = keyword_display(str(name))
    if value == "own_cost":
        return f"[{shown}] equal to its cost"
    if isinstance(value, Mapping) and "type" not in value:  # a cost: "[Repeat] {2}{Chaos}"
        return f"[{shown}] " + (", ".join(self.cost_parts(ctx or self.base, value, symbols=True)) or "{0}")
    if isinstance(value, Mapping):
        return f"[{shown}] equal to {self.amount(ctx or self.base, value).equal}"
    return f"[{shown} {value}]" if is_int(value) else f"[{shown}]"


def e_grant_keyword(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    grants = [(eff.get("keyword"), eff.get("value"))] + list(eff.get(MORE_KEYWORDS) or [])
    kw = series([self.keyword_use(k, v) for k, v in grants])
    if "keywords_of" in eff:
        kw = f"{self.poss(ctx, eff['keywords_of'])} keywords"
    return [Clause(f"{ctx.v('give')} {self.given(ctx, target)} {kw}{self.duration(eff.get('duration'))}",
                   group="ref" if isinstance(target, str) else "")]


def destination(self: Renderer, ctx: Ctx, to: Node, plural: bool = False, subject: Node = None) -> str:
    """Where something is moved or played: 'to its base', 'here', 'to a battlefield'."""
    if isinstance(to, Mapping):
        if "named" in to:
            return "there"
        where = to.get("where")
        if to.get("what") in ("battlefield", "location") and isinstance(where, Mapping) and set(where) == {"at"} \
                and isinstance(where["at"], str):
            return f"to {self.poss(ctx, where['at'])} {to['what']}"
        if to.get("what") == "location" and isinstance(where, Mapping) and set(where) == {"location"}:
            place = self.location(ctx, where["location"], False)  # "at an open battlefield"
            if place.startswith("at "):
                return "to " + place[3:]
        if to.get("what") == "unit" and isinstance(to.get("among"), str) and set(to) <= {"pick", "what", "among"}:
            return f"to the location of {self.obj(ctx, to['among'])}"  # where that unit is
        return "to " + self.selection(ctx, to).text
    # enemy units go to their own base ("to their base"); yours, or anyone's, just "to base"
    enemy = isinstance(subject, Mapping) and (subject.get("where") or {}).get("controller") == "enemy"
    table = {
        "base": f"to {ctx.your()} base", "here": "here", "there": "there",
        "its_base": (("to their base" if enemy else "to base") if plural else (f"to {ctx.self_poss} base" if subject == "self"
                                                else "to its base")),
        "your_base": f"to {ctx.your()} base", "destination": f"to {ctx.destination}",
        "choose_battlefield": "to a battlefield", "choose_location": "",
        "source_location": "to its original location",
        "event_location": "there" if ctx.event_there else "to that battlefield",
        "origin": "to where it was", "event_subject_location": "to that battlefield",
    }
    if to is None:
        return ""
    return table.get(str(to), mark(f"destination {to!r}"))


def e_move(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    dest = self.destination(ctx, eff.get("to"), self.is_plural(target), target)
    if eff.get("to") == "choose_location" and self.is_plural(target):
        dest = "to a single location"  # one destination chosen for them all
    text = " ".join(x for x in [ctx.v("move"), self.obj(ctx, target), dest] if x)
    out = [Clause(text, group="ref" if isinstance(target, str) else "")]
    if eff.get("ready"):
        out.append(Clause(f"{ctx.v('ready')} {'them' if self.is_plural(target) else 'it'}", group="ref"))
    return out


def player_actor(self: Renderer, ctx: Ctx, player: Node) -> Phrase | None:
    """Who does a player action, when it is not the acting player."""
    if player in (None, "you"):
        return None
    if player == "controller":
        return YOU if ctx.third else None
    if player == "opponent":
        return Phrase("they", plural=True) if ctx.chosen else Phrase("an opponent")
    return {"its_controller": Phrase("its controller"), "event_player": Phrase("that player"),
            "chosen": Phrase("they", plural=True),
            "owner": Phrase("its owner"), "each": Phrase("each player"),
            "opponents": Phrase("each opponent")}.get(str(player), Phrase(mark(f"player {player!r}")))


def player_clause(self: Renderer, ctx: Ctx, player: Node, verb: str, rest: str) -> Clause:
    actor = self.player_actor(ctx, player)
    if actor is None:
        return Clause(f"{ctx.v(verb)} {rest}".strip(), group="player")
    return Clause(f"{actor.text} {actor.verb(verb)} {rest}".strip(), subject=True)


def e_draw(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    if "cards" in eff:  # "draw any you didn't banish": those cards, from wherever they are in the deck
        cards = eff["cards"]
        rest = "any of them still in your deck" if isinstance(cards, Mapping) and cards.get("among") == "them" \
            and cards.get("pick") == "all" else self.obj(ctx, cards)
        clause = self.player_clause(ctx, eff.get("player"), "draw", rest)
        # "reveal a unit from among them and draw it"
        return [replace(clause, group="ref") if isinstance(cards, str) and clause.group else clause]
    amount = self.amount(ctx, eff.get("amount", 1))
    rest = f"{amount.num}{amount.per}" if amount.num is not None else f"cards equal to {amount.equal}"
    return [self.player_clause(ctx, eff.get("player"), "draw", rest)]


def e_discard(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    player = eff.get("player")
    actor = self.player_actor(ctx, player)
    if eff.get("whole_hand"):
        rest = f"{ctx.your() if actor is None else 'their'} hand"
    else:
        amount = self.amount(ctx, eff.get("amount", 1))
        rest = amount.value
        if eff.get("chooser") == "you" and actor is not None:
            rest = ("a card" if amount.num == "1" else f"{amount.value} cards") + " of your choice"
    return [self.player_clause(ctx, player, "discard", rest)]


def e_channel(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    amount = self.amount(ctx, eff.get("amount", 1))
    runes = "rune" if amount.num == "1" else "runes"
    exhausted = " exhausted" if eff.get("exhausted") else ""
    if amount.num is not None and amount.lead:
        clause = self.player_clause(ctx, eff.get("player"), "channel", f"{amount.num} {runes}{exhausted}")
        return [Clause(f"{amount.per.strip()}, {clause.text}", subject=True)]
    if amount.num is not None:
        rest = f"{amount.num} {runes}{exhausted}{amount.per}"
    else:
        rest = f"runes equal to {amount.equal}{exhausted}"
    return [self.player_clause(ctx, eff.get("player"), "channel", rest)]


def e_add(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    paid = {"type": "variable", "name": "x"}
    if eff.get("energy") == paid and not eff.get("power"):
        text = "[Add] that much Energy"  # as much as was paid
    elif eff.get("times") == paid and eff.get("energy") is None:
        text = "[Add] that much " + self.power(eff.get("power"))
    else:
        text = "[Add] " + self.resources(eff.get("energy"), eff.get("power"), ctx)
    out = [Clause(text.strip())]
    if eff.get("only_for") == "spells":
        out.append(Clause("use only to play spells", subject=True))
    elif eff.get("only_for") == "gear":
        out.append(Clause("use only to play gear or use gear abilities", subject=True))
    elif eff.get("only_for") == "showdowns":
        out.append(Clause("spend this Energy only during showdowns", subject=True))
    elif eff.get("only_for") == "units":
        out.append(Clause("this Energy can pay only for units or units' activated abilities", subject=True))
    return out


def e_ready_runes(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    count = eff.get("count", 1)
    up_to = "up to " if self.styled("ready_up_to") and count != 1 else ""  # the same: exhausted ones only
    return [Clause(f"{ctx.v('ready')} {up_to}{count} rune{'s' if count != 1 else ''}", group="player")]


def e_create_token(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    name = str(eff.get("token", "token"))
    might = eff.get("might")
    keywords = list(eff.get("keywords") or [])
    token = self.token(name)
    if token is not None:
        might = might if might is not None or token.type != "unit" else token.might
        keywords = keywords or [self.keyword_use(self.keyword_name(k), v) for k, v in token.keywords]
    count = self.amount(ctx, eff.get("count", 1))
    plural = count.num != "1"
    ready = "ready " if eff.get("ready") else ""
    might_text = f"{might} Might " if might is not None else ""
    kind = token.type if token is not None else "unit"
    noun = f"{name} {kind} token{'s' if plural else ''}"
    quant = number_word(int(count.num)) if count.num and count.num.isdigit() and not count.per else count.value
    if not plural:
        head = f"{ready}{might_text}{noun}"
        quant = article_for(head)
    by_controller = eff.get("player") == "controller" and ctx.third  # "you play ..." inside "each player ..."
    text = f"{'you play' if by_controller else ctx.v('play')} {quant} {ready}{might_text}{noun}"
    if keywords:
        shown = [k if k.startswith("[") else self.keyword_use(k, None) for k in keywords]
        text += " with " + series(shown)
    if not plural and count.per:
        text += count.per
    if eff.get("exhausted"):
        text += " exhausted"
    at = eff.get("at")
    if at is not None:
        where = {"base": f"to {ctx.your()} base", "your_base": f"to {ctx.your()} base", "here": "here",
                 "there": "there", "its_base": "in its base", "destination": "at its destination",
                 "choose_battlefield": "at a battlefield", "choose_location": "",
                 "source_location": "at its original location", "event_location": "at that battlefield",
                 "origin": "there", "event_subject_location": "at that battlefield"}
        if isinstance(at, Mapping):
            text += " " + ("there" if "named" in at else "at " + self.selection(ctx, at).text)
        else:
            text += (" " + where.get(str(at), mark(f"location {at!r}"))).rstrip()
    return [Clause(text)]


def token(self: Renderer, name: str) -> CardDef | None:
    catalog = self.catalog if self.catalog is not None else installed_catalog()
    if catalog is None:
        return None
    return catalog.tokens.get(name.lower())


def keyword_name(self: Renderer, keyword_id: str) -> str:
    catalog = self.catalog if self.catalog is not None else installed_catalog()
    if catalog is not None and keyword_id in catalog.keywords:
        return catalog.keywords[keyword_id].name
    return keyword_display(keyword_id)


def e_gain_points(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    amount = self.amount(ctx, eff.get("amount", 1))
    points = "point" if amount.value == "1" else "points"
    actor = self.player_actor(ctx, eff.get("player"))
    who = actor or ctx.you()
    return [Clause(f"{who.text} {who.verb('score')} {amount.value} {points}", subject=True)]


def e_gain_xp(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    amount = self.amount(ctx, eff.get("amount", 1))
    if amount.per and amount.num is not None:  # "gain 1 XP for each friendly unit"
        return [Clause(f"{ctx.v('gain')} {amount.num} XP{amount.per}", group="player")]
    return [Clause(f"{ctx.v('gain')} {amount.value} XP", group="player")]


def rest_clause(self: Renderer, ctx: Ctx, rest: Node) -> list[Clause]:
    if rest is None:
        return []
    text = {"recycle": "recycle the rest", "back_any_order": "put the rest back in any order",
            "keep_order": "put the rest back in the same order", "trash": "trash the rest"}.get(
        str(rest), mark(f"rest {rest!r}"))
    verb, _, tail = text.partition(" ")
    return [Clause(f"{ctx.v(verb)} {tail}", group="ref")]


def e_look_at_top(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    count = self.amount(ctx, eff.get("count", 1))
    rune = eff.get("deck") == "rune_deck"
    noun = ("rune" if rune else "card") if count.value == "1" else ("runes" if rune else "cards")
    deck = "rune deck" if rune else "Main Deck"
    top = f"the top {noun}" if count.value == "1" else f"the top {count.value} {noun}"
    player = eff.get("player", "you")
    verb = "reveal" if eff.get("reveal") else "look at"
    if player in ("each", "opponents"):
        who = Phrase("each player" if player == "each" else "each opponent")
        first = Clause(f"{who.text} {who.verb(verb.split()[0])}{' at' if verb == 'look at' else ''} {top} of "
                       f"their {deck}", subject=True)
    else:
        first = Clause(f"{ctx.v(verb.split()[0])}{' at' if verb == 'look at' else ''} {top} of "
                       f"{ctx.your()} {deck}")
    inner = replace(ctx, single=count.value == "1" and player not in ("each", "opponents"))
    body = [first] + (self.clauses(inner, eff["then"]) if "then" in eff else [])
    if inner.single and eff.get("rest", "keep_order") == "keep_order":
        return body  # one card looked at stays where it was: nothing to say
    return body + self.rest_clause(ctx, eff.get("rest"))


def e_predict(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    count = self.amount(ctx, eff.get("count", 1))
    return [Clause("[Predict]" if count.value == "1" else f"[Predict {count.value}]", subject=True)]


def e_reveal_until(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    sel = {"pick": "target", "what": eff.get("what", "card"), "where": eff.get("where") or {}}
    whose = "an opponent's" if eff.get("player") == "opponent" else ctx.your()
    out = [Clause(f"{ctx.v('reveal')} cards from the top of {whose} Main Deck until "
                  f"{ctx.you().text} reveal {self.selection(ctx, sel).text}")]
    if "then" in eff:
        out += self.clauses(ctx, eff["then"])
    return out + self.rest_clause(ctx, eff.get("rest"))


def e_put_in_hand(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    if target == "affected":  # a card the effect was created for: not necessarily yours
        return [Clause(f"{ctx.v('return')} it to its owner's hand", group="ref")]
    return [Clause(f"{ctx.v('put')} {self.obj(ctx, target)} into {ctx.your()} hand",
                   group="ref" if isinstance(target, str) else "")]


def e_put_in_zone(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    zone = str(eff.get("zone"))
    position = {"top": "on the top of", "bottom": "on the bottom of",
                "top_or_bottom": "on the top or bottom of"}.get(str(eff.get("position")))
    target = eff.get("target")
    whose = ctx.your()
    if isinstance(target, Mapping) and (target.get("where") or {}).get("controller") == "enemy":
        whose = "their owners'" if self.is_plural(target) else "its owner's"  # a card goes to its owner's zone
    return [Clause(f"{ctx.v('put')} {self.obj(ctx, target)} {position or 'into'} {whose} "
                   f"{ZONES.get(zone, zone)}")]


def e_play(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    card = eff.get("card")
    plural = self.is_plural(card)
    if card == "self" and ctx.zone and ctx.zone not in ("board", "main_deck"):
        what = f"{ctx.self_obj} from {ctx.your()} {ZONES.get(ctx.zone, ctx.zone)}"
    else:
        what = self.obj(ctx, card)
    at = eff.get("at")
    if at in ("base", "its_base", "your_base") and eff.get("player") == "owner":
        dest = "to their base"
    else:
        dest = self.destination(ctx, at, plural)
    text = " ".join(x for x in [what, dest] if x)
    its = "their" if plural else "its"
    ignore = eff.get("ignore_cost")
    if card == "self":
        its = ctx.self_poss
    if ignore == "all":
        text += f", ignoring {its} cost{'s' if plural else ''}"
    elif ignore == "energy":
        text += f", ignoring {its} Energy cost{'s' if plural else ''}"
    if "cost_reduction" in eff:
        if is_int(eff["cost_reduction"]):
            text += f", reducing {its} cost by {self.resources(eff['cost_reduction'], None, ctx)}"
        else:  # a value, not a symbol: "reducing its Energy cost by the recorded Might"
            text += f", reducing {its} Energy cost by {self.amount(ctx, eff['cost_reduction']).value}"
    if eff.get("player") == "owner":
        return [Clause(f"{'their owners play' if plural else 'its owner plays'} {text}", subject=True)]
    out = [Clause(f"{ctx.v('play')} {text}", group="ref" if isinstance(card, str) else "")]
    if "also_at" in eff:
        out.append(Clause(f"if it is a unit, {ctx.you().text} may play it {self.destination(ctx, eff['also_at'])}"
                          .replace(" to here", " here"), subject=True))
    if eff.get("afterwards") == "recycle":
        out.append(Clause(f"then {ctx.v('recycle')} {'them' if plural else 'it'}"))
    return out


def e_mill(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    amount = self.amount(ctx, eff.get("amount", 1))
    n = amount.num if amount.num is not None else amount.equal
    cards = "the top card" if n == "1" else f"the top {n} cards"
    actor = self.player_actor(ctx, eff.get("player"))
    whose = f"{actor.text}'s" if actor is not None else ctx.your()
    return [Clause(f"{ctx.v('put')} {cards} of {whose} Main Deck into {'their' if actor else ctx.your()} trash")]


def e_prevent_damage(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    source = {"spell_or_ability": "spell and ability damage", "any": "damage"}.get(
        str(eff.get("from", "any")), "damage")
    if "amount" in eff:
        what = f"the next {self.amount(ctx, eff['amount']).value} {source}"
    else:
        what = f"all {source}"
    target = eff.get("target")
    if eff.get("next") and target is not None:
        return [Clause(f"the next time {self.obj(ctx, target)} would be dealt damage"
                       f"{self.duration(eff.get('duration'))}, prevent it", subject=True)]
    to = f" to {self.obj(ctx, target)}" if target is not None else ""
    if "amount" in eff and target is not None and source == "damage":
        to = f" that would be dealt to {self.obj(ctx, target)}"  # "the next 3 damage that would be dealt to it"
    return [Clause(f"{ctx.v('prevent')} {what}{to}{self.duration(eff.get('duration'))}")]


def e_extra_turn(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return [Clause(f"{ctx.v('take')} a turn after this one", group="player")]


def e_win_game(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    who = ctx.you()
    return [Clause(f"{who.text} {who.verb('win')} the game", subject=True)]


def e_turn_into_copy(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    subj = self.subject(ctx, eff.get("target", "self"))
    whom = ctx.self_obj if eff.get("target", "self") == "self" else "it"
    return [Clause(f"{subj.text} {subj.verb('become')} a copy of {self.obj(ctx, eff.get('of'))} for as long as this "
                   f"is attached to {whom}")]


def e_attach(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return [Clause(f"{ctx.v('attach')} {self.obj(ctx, eff.get('equipment'))} to {self.obj(ctx, eff.get('to'))}")]


def e_hide(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    text = f"{ctx.v('hide')} {self.obj(ctx, eff.get('card'))}"
    if eff.get("ignore_cost"):
        text += ", ignoring its cost"
    return [Clause(text)]


def e_reveal_hand(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    who = "they reveal" if eff.get("player") == "chosen_opponent" or ctx.chosen else "an opponent reveals"
    return [Clause(f"{who} their hand", subject=True)]


def e_swap_locations(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    a, b = eff.get("a"), eff.get("b")
    out: list[Clause] = []
    if isinstance(b, Mapping) and "named" not in b:
        out.append(Clause(f"{ctx.v('choose')} {self.obj(ctx, b)}"))
        b = "it"
    if a == "target" and isinstance(b, Mapping) and "named" in b:
        out.append(Clause(f"{ctx.v('move')} each to the other's location"))  # the two chosen units
        return out
    a_obj = self.obj(ctx, a)
    a_poss = self.poss(ctx, a)
    out.append(Clause(f"{ctx.v('move')} {a_obj} to {self.poss(ctx, b)} location and {self.obj(ctx, b)} to "
                      f"{a_poss} original location"))
    return out


def e_select(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    target = eff.get("target")
    if isinstance(target, Mapping) and target.get("pick") == "all" and "as" in target:
        return []  # names what is there now for a later step ("that battlefield"): nothing is chosen
    obj = self.obj(ctx, target)
    if ctx.third and isinstance(target, Mapping) and obj.startswith("one of their ") and target.get("what") in NOUNS:
        noun = NOUNS[str(target["what"])][0]  # "each player chooses a unit they control"
        obj = f"{article_for(noun)} {noun} {ctx.you().text} control"
    return [Clause(f"{ctx.v('choose')} {obj}", verb=ctx.v("choose"), obj=obj)]


def e_trigger_abilities(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    event = str(eff.get("event"))
    return [Clause(f"{ctx.v('activate')} the {self.event_name(event)} effects of "
                   f"{self.selection(ctx, eff.get('of') or {}, mode='bare').text}")]


def e_keyword_effect(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return [Clause(f"{ctx.v('do')} the keyword's effect")]


def e_record(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    return [Clause(f"note {self.amount(ctx, eff.get('amount', 0)).value} "
                   f"as {str(eff.get('name')).replace('_', ' ')}")]
