"""English for selectors and filters: references (me, it, that unit), selections (a friendly unit
at a battlefield), locations and players; mirrors the interpreter's selectors and filter handlers."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from riftscript.tools.render.phrases import (NOUNS, ZONES, Ctx, Node, Phrase, article_for, is_int, keyword_display,
                                             mark, number_word, plugin_word, series)

if TYPE_CHECKING:
    from riftscript.tools.render.renderer import Renderer


def ref(self: Renderer, ctx: Ctx, name: Node, role: str = "obj") -> str:
    """A named reference as subject, object or possessive."""
    if isinstance(name, Mapping):
        if "named" in name:
            if self.single_named(name):
                that = f"that {self.singles[str(name['named'])]}"
                return that + ("'s" if role == "poss" else "")
            return {"subj": "they", "obj": "them", "poss": "their"}[role]
        p = self.selection(ctx, name)
        return p.text + ("'s" if role == "poss" else "")
    table: dict[str, tuple[str, str, str]] = {
        "self": (ctx.self_subj.text, ctx.self_obj, ctx.self_poss),
        "it": ("it", "it", "its"), "target": ("it", "it", "its"),
        "them": ("it", "it", "its") if ctx.single else ("they", "them", "their"),
        "targets": ("they", "them", "their"),
        "event_subject": ("it", "it", "its"), "event_source": ("its source", "its source", "its source's"),
        "event_player": ("that player", "that player", "that player's"),
        "host": ("the equipped unit", "the equipped unit", "the equipped unit's"),
        "you": (ctx.you().text, "them" if ctx.third else "you", ctx.your()),
        "controller": ("you", "you", "your"), "owner": ("its owner", "its owner", "its owner's"),
        "chosen": ("they", "them", "their"), "destination": ("its destination",) * 2 + ("its destination's",),
        "source_location": ("its original location",) * 2 + ("its original location's",),
        "this_card": (str(self.card.get("name", "this card")),) * 2 + (f"{self.card.get('name', 'this card')}'s",),
        "paid": (self.paid_unit(),) * 2 + (self.paid_unit() + "'s",),
        "affected": ("it", "it", "its"),
    }
    forms = table.get(str(name))
    if forms is None:
        return mark(f"reference {name!r}")
    return forms[{"subj": 0, "obj": 1, "poss": 2}[role]]


def single_named(self: Renderer, node: Mapping[str, Any]) -> bool:
    """Whether a named reference names one chosen object ("it"), not a group ("them")."""
    return str(node.get("named")) in self.singles


def paid_unit(self: Renderer) -> str:
    """What a cost of the card paid with: 'the killed unit', 'the unit you exhausted to pay for this ability'."""
    for ability in self.card.get("abilities") or []:
        cost = ability.get("cost") if isinstance(ability, Mapping) else None
        if isinstance(cost, Mapping) and "kill" in cost:
            return "the killed unit"
        if isinstance(cost, Mapping) and "exhaust" in cost:
            kind = "ability" if ability.get("kind") == "activated" else self.type
            return f"the unit you exhausted to pay for this {kind}"
    return "what was paid"


def subject(self: Renderer, ctx: Ctx, node: Node) -> Phrase:
    """A selector as the subject of a sentence."""
    if node == "self":
        return ctx.self_subj
    if isinstance(node, str):
        text = self.ref(ctx, node, "subj")
        plural = text == "they"
        return Phrase(text, plural=plural, person=2 if text == "you" else 3)
    if isinstance(node, Mapping) and "named" in node:
        return Phrase(self.ref(ctx, node, "subj")) if self.single_named(node) else Phrase("they", plural=True)
    if isinstance(node, Mapping):
        return self.selection(ctx, node, mode="bare")
    return Phrase(mark(f"selector {node!r}"))


def obj(self: Renderer, ctx: Ctx, node: Node) -> str:
    """A selector as an object ("me", "it", "a unit at a battlefield")."""
    if isinstance(node, str):
        return self.ref(ctx, node, "obj")
    if isinstance(node, Mapping) and "named" in node:
        return self.ref(ctx, node) if self.single_named(node) else "them"
    if isinstance(node, Mapping):
        return self.selection(ctx, node).text
    return mark(f"selector {node!r}")


def poss(self: Renderer, ctx: Ctx, node: Node) -> str:
    if isinstance(node, str):
        return self.ref(ctx, node, "poss")
    if isinstance(node, Mapping) and "named" in node:
        return self.ref(ctx, node, "poss") if self.single_named(node) else "their"
    return self.obj(ctx, node) + "'s"


def is_plural(self: Renderer, node: Node) -> bool:
    if isinstance(node, str):
        return node in ("them", "targets")
    if isinstance(node, Mapping):
        if "named" in node:
            return not self.single_named(node)
        count = node.get("count", 1)
        return node.get("pick") == "all" or bool(node.get("any_number")) or (is_int(count) and count > 1)
    return False


def location(self: Renderer, ctx: Ctx, loc: Node, plural: bool, controller: Node = None) -> str:
    """A `location` filter value as a phrase after the noun."""
    if loc == "battlefield":
        return "at battlefields" if plural else "at a battlefield"
    if loc == "base":
        if controller in ("friendly", "you"):
            return f"in {ctx.your()} base"
        if controller == "enemy":
            return "in their bases" if plural else "in its base"
        return "in bases" if plural else "in a base"
    table = {
        "here": "here", "not_here": "at other locations" if plural else "at a different location", "there": "there",
        "any": "",
        "same_as_event_subject": "at its location",
        "open_battlefield": "at open battlefields" if plural else "at an open battlefield",
        "controlled_battlefield": f"at battlefields {ctx.you().text} control" if plural
        else f"at a battlefield {ctx.you().text} control",
        "enemy_battlefield": "at enemy battlefields" if plural else "at an enemy battlefield",
        "event_location": "there" if ctx.event_there else "at that battlefield",
        "my_battlefield": f"at {ctx.self_poss} battlefield",
    }
    if isinstance(loc, str) and loc in table:
        return table[loc]
    return mark(f"location {loc!r}")


def at(self: Renderer, ctx: Ctx, node: Node) -> str:
    """The `at` filter: at a location, or at another object's location."""
    if node == "self":
        return "here" if self.type == "battlefield" else f"at {ctx.self_poss} location"
    if isinstance(node, str):
        return "there"
    if isinstance(node, Mapping) and "named" in node:
        return "there"
    if isinstance(node, Mapping):
        if node.get("what") in ("battlefield", "location"):
            return "at " + self.selection(ctx, node).text
        return "at the location of " + self.selection(ctx, node).text
    return mark(f"at {node!r}")


def bound(self: Renderer, ctx: Ctx, value: Node, side: str, symbol: str = "") -> str:
    """A range bound: "no more than {4}", "less than your points", "at least 5"."""
    if is_int(value):
        shown = "{" + str(value) + "}" if symbol == "energy" else (
            "{Any}" * value if symbol == "power" else str(value))
        return ("no more than " if side == "max" else "at least ") + shown
    if isinstance(value, Mapping):
        plus = value.get("plus", 0)
        if side == "max" and plus == -1:
            return "less than " + self.amount(ctx, {**value, "plus": 0}).value
        if side == "min" and plus == 1:
            return "more than " + self.amount(ctx, {**value, "plus": 0}).value
        if side == "max" and is_int(plus) and plus > 0:
            return f"up to {plus} more than " + self.amount(ctx, {**value, "plus": 0}).value
        return ("no more than " if side == "max" else "at least ") + self.amount(ctx, value).value
    return mark(f"bound {value!r}")


def filter_words(self: Renderer, ctx: Ctx, where: Mapping[str, Any], what: str, plural: bool,
                 skip: Sequence[str] = ()) -> tuple[list[str], str, list[str], list[str]]:
    """Adjectives, noun, trailing phrases and late trailing phrases (costs) of a filter."""
    adjs: list[str] = []
    posts: list[str] = []
    late: list[str] = []
    if not isinstance(where, Mapping):
        return adjs, what, [mark(f"filter {where!r}")], late
    kind = where.get("type") if where.get("type") in NOUNS and what in ("card", "permanent") else what
    noun = NOUNS.get(str(kind), (str(kind), str(kind) + "s"))[1 if plural else 0]
    controller = where.get("controller")
    if "location" in where and "location" not in skip:
        loc = self.location(ctx, where["location"], plural, controller)
        if loc:
            posts.append(loc)
    if "at" in where:
        posts.append(self.at(ctx, where["at"]))
    for key, label in (("stunned", "stunned"), ("buffed", "buffed"), ("damaged", "damaged"),
                       ("exhausted", "exhausted"), ("ready", "ready"), ("facedown", "facedown"),
                       ("token", "token"), ("mighty", "[Mighty]"), ("champion", "champion")):
        if key in where and key not in skip:
            adjs.append(label if where[key] else f"non-{label.strip('[]')}")
    for key, label in (("attacker", "attacking"), ("defender", "defending")):
        if where.get(key):
            if where.get("alone"):
                posts.append(f"{label} alone")
            else:
                adjs.append(label)
    if where.get("alone") and not (where.get("attacker") or where.get("defender")):
        posts.append("attacking or defending alone")
    if "controller" not in skip:
        if controller == "friendly":
            if ctx.third:
                posts.append("they control")
            elif what == "battlefield":
                posts.append("you or allies control")  # a battlefield is controlled, not "friendly"
            else:
                adjs.insert(adjs.index("[Mighty]") if "[Mighty]" in adjs else len(adjs), "friendly")
        elif controller == "enemy":
            adjs.append("enemy")
        elif controller == "event_player":
            posts.append("they control")
        elif controller == "friendly_to_event_player":
            adjs.append("friendly")  # friendly to whoever acted (The Dreaming Tree)
        elif controller == "not_you":
            posts.append(f"{ctx.you().text} don't control")
        elif controller == "you" and where.get("location") != "base":  # "a unit in your base" is yours
            if posts and posts[0] == "here":
                posts.insert(0, f"{ctx.you().text} control")  # "a unit you control here"
            else:
                posts.append(f"{ctx.you().text} control")
    if where.get("owner") == "you":
        posts.append(f"{ctx.you().text} own")
    elif where.get("owner") == "friendly" and controller is None:
        adjs.append("friendly")  # cards in a hand: yours and a teammate's (491)
    elif where.get("owner") == "opponent" and controller is None and what == "spell":
        adjs.append("enemy")  # an opponent's spells: theirs to play, as a friendly one is yours or an ally's
    elif where.get("owner") == "opponent":
        posts.append("an opponent owns")
    if "not_tag" in where:
        adjs.append(f"non-{where['not_tag']}")
    if what == "permanent" and where.get("token") is True and "token" in adjs:
        adjs.remove("token")  # every token is a unit or a gear
        noun = "tokens" if plural else "token"
    if "tag" in where and where["tag"] == "Equipment" and noun in ("gear", "gear"):
        noun = "Equipment"  # "an Equipment": the tag is the noun
    elif "tag" in where:
        adjs.append(str(where["tag"]))
    for key, (yes, no) in (("attached", ("attached", "detached")), ("equipped", ("equipped", "unequipped"))):
        if key in where and not isinstance(where[key], Mapping):
            adjs.insert(0, yes if where[key] else no)
    if isinstance(where.get("equipped"), Mapping):
        worn = self.selection(ctx, {"pick": "target", "what": "gear", "where": where["equipped"]}).text
        posts.append("equipped with " + worn)
    if "same_controller_as" in where:
        posts.append("with the same controller" + ("" if where["same_controller_as"] == "target"
                                                   else f" as {self.obj(ctx, where['same_controller_as'])}"))
    if "attached_to" in where:
        posts.append(f"attached to {self.obj(ctx, where['attached_to'])}")
    if "banished_with" in where:
        posts.append(f"banished with {self.obj(ctx, where['banished_with'])}")
    if "in_hand" in where:
        posts.append("in a hand" if where["in_hand"] else "played from anywhere other than a player's hand")
    chooses = where.get("chooses")
    if isinstance(chooses, Mapping):
        posts.append("that chooses " + self.selection(ctx, {"pick": "target", "what": "permanent",
                                                             "where": chooses}).text)
    only = where.get("chooses_only")
    if isinstance(only, Mapping):
        text = "that chooses " + self.obj(ctx, only.get("of"))
        if isinstance(only.get("no_other"), Mapping):
            other = self.selection(ctx, {"pick": "target", "what": "permanent", "where": only["no_other"]}).text
            text += " and no other " + other.removeprefix("a ").removeprefix("an ")
        else:
            text += " and nothing else"
        posts.append(text)
    if where.get("chosen_champion"):
        noun = "Chosen Champion"
    if "name" in where:
        posts.append(f"named {where['name']}")
    if "keyword" in where:
        posts.append(f"with [{keyword_display(str(where['keyword']))}]")
    if "not_keyword" in where:
        posts.append(f"without [{keyword_display(str(where['not_keyword']))}]")
    if where.get("occupied_by") == "enemy" and where.get("controller") == "enemy" and what == "battlefield":
        adjs.insert(0, "occupied")  # "an occupied enemy battlefield"
    elif "occupied_by" in where:
        posts.append("where you have units" if where["occupied_by"] in ("you", "friendly")
                     else "where there are enemy units" if where["occupied_by"] == "enemy" else "with units")
    if "not_at" in where and what == "battlefield":
        adjs.append("different")
    elif "not_at" in where:
        posts.append("at a different location")
    if isinstance(where.get("units_total_might"), Mapping):
        rng = where["units_total_might"]
        rel = {"enemy": "enemy units", "friendly": "friendly units"}.get(str(rng.get("controller")), "units")
        bounds = [self.bound(ctx, rng[s], s) for s in ("min", "max") if s in rng]
        posts.append(f"where the total Might of {rel} there is " + " and ".join(bounds))
    if "paid" in where:
        posts.append("(if you paid the additional cost)")
    if "tag_named" in where:
        posts.append("with the named tag")
    might = where.get("might")
    if isinstance(might, Mapping):
        if is_int(might.get("max")) and "min" not in might:
            posts.append(f"with {might['max']} Might or less")
        elif is_int(might.get("min")) and "max" not in might:
            posts.append(f"with {might['min']}+ Might")
        elif len(might) == 1 and isinstance(next(iter(might.values())), Mapping) \
                and next(iter(might.values())).get("type") == "might" \
                and next(iter(might.values())).get("plus") == (-1 if "max" in might else 1) \
                and set(next(iter(might.values()))) == {"type", "of", "plus"}:
            # "with less Might than me", "with more Might than it"
            than = self.obj(ctx, next(iter(might.values()))["of"])
            posts.append(f"with {'less' if 'max' in might else 'more'} Might than {than}")
        else:
            parts = [self.bound(ctx, might[s], s) for s in ("min", "max") if s in might]
            posts.append("with Might " + " and ".join(parts))
    cost_parts = []
    computed = False
    for key, symbol in (("energy_cost", "energy"), ("power_cost", "power")):
        rng = where.get(key)
        if isinstance(rng, Mapping):
            computed = computed or any(isinstance(v, Mapping) for v in rng.values())
            cost_parts += [self.bound(ctx, rng[s], s, symbol) for s in ("min", "max") if s in rng]
    ranges = [where.get(k) for k in ("energy_cost", "power_cost")]
    ofs = [r.get("max") if isinstance(r, Mapping) and set(r) == {"max"} else None for r in ranges]
    if all(isinstance(m, Mapping) and m.get("type") == key and set(m) == {"type", "of"}
           for m, key in zip(ofs, ("energy_cost", "power_cost"))) and ofs[0]["of"] == ofs[1]["of"]:  # type: ignore[index]
        # "that costs no more Energy and no more Power than the killed unit"
        other = self.obj(ctx, ofs[0]["of"])  # type: ignore[index]
        late.append(f"that {'cost' if plural else 'costs'} no more Energy and no more Power than {other}")
    elif cost_parts and computed:
        # a computed bound: "at most my Might" (the sets that word costs 'with': "no more than my Might")
        late.append("with Energy cost " + " and ".join(cost_parts).replace(
            "no more than", "no more than" if self.styled("cost_with") else "at most"))
    elif cost_parts and self.styled("cost_with"):
        energy, power = (isinstance(where.get(k), Mapping) for k in ("energy_cost", "power_cost"))
        if power and not energy and set(where["power_cost"]) == {"min"}:
            late.append(f"with Power cost {cost_parts[0].replace('at least ', '')} or more")
        elif energy and not power:
            late.append("with Energy cost " + " and ".join(cost_parts))
        else:
            posts.append("with cost " + " and ".join(cost_parts))
    elif cost_parts:
        posts.append(("that cost " if plural else "that costs ") + " and ".join(cost_parts))
    total = where.get("total_might")
    if isinstance(total, Mapping) and "max" in total:
        posts.append(f"with total Might {total['max']} or less")
    if where.get("in_combat"):
        posts.append("in combat")
    if where.get("not_chosen_this_turn"):
        posts.append("that hasn't been chosen this turn")
    known = {"stunned", "buffed", "damaged", "exhausted", "ready", "facedown", "token", "mighty", "champion",
             "attacker", "defender", "alone", "controller", "owner", "not_tag", "tag", "chosen_champion", "name",
             "keyword", "might", "energy_cost", "power_cost", "total_might", "in_combat", "location", "at",
             "not_chosen_this_turn", "other", "distinct_from", "any_of", "type", "attached", "equipped",
             "same_controller_as", "attached_to", "banished_with", "in_hand", "chooses", "chooses_only", "not_keyword",
             "occupied_by", "not_at", "units_total_might", "paid", "tag_named"}
    for key in where:
        word = plugin_word("filter", key)
        if key in known:
            continue
        if word is None or not word.text:
            posts.append(mark(f"filter {key}"))
        elif where[key] is True:
            # a one-word state is an adjective ("an [Empowered] unit"), a phrase comes after the noun
            # ("a battlefield you control", "a unit in a showdown")
            (posts if " " in word.text.strip() else adjs).append(word.text)
        elif where[key] is False:
            adjs.append(f"non-{word.text.strip('[]')}")
        elif word.text == "{value}":
            adjs.append(str(where[key]).capitalize())  # the value itself is the adjective ("an enemy Chaos unit")
        else:
            posts.append(word.text.format(value=where[key]))
    return adjs, noun, posts, late


def selection(self: Renderer, ctx: Ctx, sel: Mapping[str, Any], mode: str = "default") -> Phrase:
    """A selection as a noun phrase.

    ``mode``: "default" ("a unit", "all units"), "bare" (plural without "all", for subjects:
    "friendly units have ..."), "each" (singular without article: "for each card ...").
    """
    if not isinstance(sel, Mapping):
        return Phrase(mark(f"selection {sel!r}"))
    what = str(sel.get("what", "card"))
    pick = sel.get("pick", "target")
    count = sel.get("count", 1)
    count = count if is_int(count) else 1
    where = sel.get("where") or {}
    if not isinstance(where, Mapping):
        where = {}
    any_number = bool(sel.get("any_number"))
    plural = mode != "each" and (pick == "all" or count > 1 or any_number)
    among = sel.get("among")
    filters = {k: v for k, v in where.items() if k not in ("other", "distinct_from")}
    other = bool(where.get("other") or where.get("distinct_from"))
    apart = where.get("distinct_from")
    if pick == "all" and mode == "default" and set(where) == {"distinct_from"} and set(sel) <= {"pick", "what", "where"} \
            and isinstance(apart, list) and apart and all(isinstance(d, Mapping) and set(d) == {"named"} for d in apart):
        return Phrase("the rest", plural=True)  # all but the ones named (chosen) before: "Kill the rest."
    if what == "player":
        return self.player_selection(ctx, sel, plural)
    if among is not None and what == "card" and not filters:
        if ctx.single and among == "them":
            return Phrase("it")
        if pick == "all":
            return Phrase("all of them", plural=True)
        if any_number:
            return Phrase("any number of them", plural=True)
        text = ("up to " if sel.get("up_to") else "") + (number_word(count) if count > 1 else "one") + " of them"
        return Phrase(text, plural=count > 1)
    # "one of their units" (inside "each player ...") and "one of your runes"
    mine = (filters.get("controller") in ("friendly", "you") and pick == "choose" and not any_number
            and mode == "default"
            and not other and (ctx.third or what == "rune") and set(filters) == {"controller"})
    if mine:
        noun = NOUNS.get(what, (what, what + "s"))[1]
        quant = ("up to " if sel.get("up_to") else "") + (number_word(count) if count > 1 else "one")
        return Phrase(f"{quant} of {ctx.your()} {noun}", plural=count > 1)
    if filters.get("controller") == "you" and any_number and pick == "choose" and mode == "default" \
            and not ctx.third and not sel.get("zone") and what in NOUNS and "location" not in filters:
        # the player's own, any number of them: "any number of your ready units"
        mine_adjs, mine_noun, mine_posts, mine_late = self.filter_words(ctx, filters, what, True,
                                                                        skip=("controller",))
        return Phrase(" ".join(["any number of", ctx.your()] + (["other"] if other else []) + mine_adjs
                               + [mine_noun] + mine_posts + mine_late), plural=True)
    if filters.get("controller") == "you" and other and pick in ("target", "choose") and count == 1 \
            and not any_number and mode == "default" and not ctx.third and what in NOUNS \
            and set(filters) == {"controller", "location"} and filters["location"] == "here":
        # "one of your other units here"
        return Phrase(f"{'up to ' if sel.get('up_to') else ''}one of your other {NOUNS[what][1]} here")
    if what == "legend" and filters == {"controller": "you"} and not other and not ctx.third \
            and not any_number and count == 1 and mode != "each":
        return Phrase(f"{ctx.your()} legend")  # a player has one legend: a legend you control, or all, is it
    alternatives = where.get("any_of")
    if what == "card" and sel.get("zone") == "in_play" and pick in ("target", "choose") and count == 1 \
            and not any_number and mode == "default" and not alternatives:
        # a card in play of any kind (unit, gear, rune, legend): "something else that's exhausted"
        kinds, _, after, costs = self.filter_words(ctx, filters, what, False)
        head = ("up to one thing" if sel.get("up_to") else "something") + (" else" if other else "")
        return Phrase(" ".join([head] + after + costs + ([f"that's {series(kinds)}"] if kinds else [])))
    late: list[str] = []
    paid = [a for a in alternatives if isinstance(a, Mapping) and set(a) == {"paid"}] \
        if isinstance(alternatives, list) and len(alternatives) == 2 else []
    if paid and isinstance(alternatives, list):
        # "an enemy unit with 3 Might or less (if you paid the additional cost, any enemy unit instead)"
        rest = next(a for a in alternatives if a is not paid[0])
        plain = {k: v for k, v in where.items() if k != "any_of"}
        narrow = self.selection(ctx, {**sel, "where": {**plain, **rest}}, mode)
        wide = self.selection(ctx, {**sel, "where": plain}, mode="bare")
        bare = wide.text.split(" ", 1)[1] if wide.text.startswith(("a ", "an ")) else wide.text
        return Phrase(f"{narrow.text} (if you paid the additional cost, any {bare} instead)",
                      plural=narrow.plural)
    if isinstance(alternatives, list) and alternatives:
        adjs, noun, posts, late = self.filter_words(ctx, filters, what, plural)
        alt_texts = []
        full = any(self.filter_words(ctx, a, what, plural)[2] for a in alternatives if isinstance(a, Mapping))
        tags_only = what == "unit" and all(isinstance(a, Mapping) and set(a) == {"tag"} for a in alternatives)
        for alt in alternatives:
            if not isinstance(alt, Mapping):
                continue
            a_adjs, a_noun, a_posts, a_late = self.filter_words(ctx, alt, what, plural)
            if tags_only:  # "a Bird, Cat, Dog, or Poro", "Bird, Cat, and Dog units"
                a_noun = ""
            words = " ".join(a_adjs + ([a_noun] if a_noun else []))
            if full and not plural:
                words = f"{article_for(words)} {words}"
            alt_texts.append(" ".join([words] + a_posts + a_late))
        noun = series(alt_texts, "or" if not plural else "and") + (" units" if tags_only and plural else "")
        shapes = [self.filter_words(ctx, alt, what, plural) for alt in alternatives if isinstance(alt, Mapping)]
        if full and not plural and adjs and all(not s_adjs and not s_late and s_posts
                                                for s_adjs, _, s_posts, s_late in shapes):
            # "a friendly unit that's in combat with ... or that's being chosen by ...": one noun, its kinds after
            one = " ".join((["another"] if other else []) + adjs + [NOUNS.get(what, (what, what))[0]])
            alt_that = series([f"that's {' '.join(s_posts)}" for _, _, s_posts, _ in shapes], "or")
            said = " ".join(x for x in [one if other else f"{article_for(one)} {one}", alt_that] + posts + late if x)
            return Phrase(said, plural=plural)
        if full and not plural:
            head = " ".join(adjs)
            quant = "another " if other else ""
            text = " ".join(x for x in [quant + head, noun] + posts + late if x)
            return Phrase(text.strip(), plural=plural)
    else:
        adjs, noun, posts, late = self.filter_words(ctx, filters, what, plural)
        tag = filters.get("tag")
        if what == "unit" and not plural and isinstance(tag, str) and tag in adjs and noun == "unit" \
                and mode != "bare":
            adjs.remove(tag)  # "another Dragon", "a Mech": a tag names a unit
            noun = tag
    zone = sel.get("zone")
    whose = sel.get("whose", "you")
    if zone == "hand" and "owner" in filters:
        zone = None  # "spells you own", "spells an opponent owns": the cards they play
        if filters["owner"] == "you" and pick == "all" and mode == "bare" and not ctx.third \
                and f"{ctx.you().text} own" in posts and what in ("spell", "unit", "gear", "card"):
            posts.remove(f"{ctx.you().text} own")  # "your spells"
            adjs.insert(0, ctx.your())
    if isinstance(zone, str) and zone not in ("board", "chain", "in_play"):
        prep = "in" if pick == "all" else "from"
        if zone == "facedown":
            adjs.insert(0, "facedown")
        elif zone == "anywhere" and pick == "all" and filters.get("owner") == "you" and what in ("spell", "unit") \
                and f"{ctx.you().text} own" in posts:
            # "your spells", "your non-token units": cards you own, wherever they are
            posts.remove(f"{ctx.you().text} own")
            adjs.insert(0, ctx.your())
        elif zone == "anywhere" and pick == "all" and filters.get("owner") == "you" and not ctx.third \
                and f"{ctx.you().text} own" in posts:
            posts.remove(f"{ctx.you().text} own")  # "your gear everywhere"
            adjs.insert(0, ctx.your())
            posts.append("everywhere")
        elif zone == "anywhere":
            posts.append("everywhere")
        elif zone == "banishment":
            if "banished_with" not in where:  # "banished with me" says where they are
                posts.append(f"{prep} banishment")
        else:
            opponent = "their" if ctx.chosen else "an opponent's"
            owner = {"you": ctx.your(), "opponent": opponent, "each": "each player's",
                     "its_controller": "its controller's"}.get(str(whose))
            zname = ZONES.get(zone, zone)
            if whose == "any":
                posts.append(f"{prep} any {zname}" if zone != "trash" else f"{prep} trashes")
            else:
                posts.append(f"{prep} {owner} {zname}")
    posts += late
    if among is not None:
        posts.append("from among them")
    if sel.get("same_location"):
        posts.append("at the same location")
    if sel.get("same_controller"):
        posts = ["with the same controller"] + [p.replace("with total Might", "and a total Might of", 1)
                                                 for p in posts]
    if sel.get("one_per_location") and any_number and mode == "default":
        # "up to one enemy unit at each location"
        single = " ".join(adjs + [NOUNS.get(what, (what, what))[0]])
        return Phrase(" ".join(["up to one", single] + posts + ["at each location"]))
    chooser = sel.get("chooser")
    chooser_text = {"opponent": "an opponent", "each_player": "each player",
                    "each_other_player": "each other player", "its_controller": "its controller",
                    "event_player": "that player"}.get(str(chooser))
    if chooser_text:
        posts.append(f"chosen by {chooser_text}")
    if noun == "Chosen Champion":
        head = " ".join([f"{ctx.your()}"] + adjs + [noun])
        return Phrase(" ".join([head] + posts))
    yours = where.get("controller") == "you" and f"{ctx.you().text} control" in posts
    if pick == "all" and mode != "each" and not ctx.third and (yours or where.get("controller") == "friendly"
                                                               and "friendly" in adjs
                                                               and isinstance(filters.get("tag"), str)
                                                               and what == "unit") \
            and not sel.get("zone") and "at" not in filters and filters.get("location", "here") == "here":
        # "your Mechs", "your other units (here)": everything of yours, said the short way
        adjs = [a for a in adjs if a != "friendly"]
        posts = [p for p in posts if p != f"{ctx.you().text} control"]
        tag = filters.get("tag")
        if isinstance(tag, str) and what == "unit" and tag in adjs and noun in ("units", "unit"):
            adjs.remove(tag)
            noun = tag + "s"
        # a plugin's keyword-like state ("[Empowered]") follows: "your units that are [Empowered]"
        bracketed = {word.text for k, v in filters.items()
                     if v is True and (word := plugin_word("filter", str(k))) is not None and word.text.startswith("[")}
        states = [a for a in adjs if a in bracketed]
        adjs = [a for a in adjs if a not in states]
        words = " ".join([ctx.your()] + (["other"] if other else []) + adjs + [noun])
        that = [f"that {'are' if plural else 'is'} {series(states)}"] if states else []
        return Phrase(" ".join([words] + that + posts), plural=plural)
    if mode == "each" and yours and not ctx.third and not sel.get("zone") and what in NOUNS \
            and noun in NOUNS[what]:
        # "for each of your units with [Temporary] here"
        rest = [p for p in posts if p != f"{ctx.you().text} control"]
        words = " ".join([ctx.your()] + (["other"] if other else []) + adjs + [NOUNS[what][1]])
        return Phrase(" ".join(["of", words] + rest))
    words = " ".join(adjs + [noun])
    if mode == "each":
        quant = "other" if other else ""
    elif pick == "all":
        quant = ("" if mode == "bare" else "all") + (" other" if other else "")
    elif pick == "random":
        quant = ("a random" if count == 1 else f"{number_word(count)} random") + (" other" if other else "")
    elif any_number:
        quant = "any number of" + (" other" if other else "")
    elif count > 1:
        quant = ("up to " if sel.get("up_to") else "") + number_word(count) + (" other" if other else "")
    elif sel.get("up_to"):
        quant = "up to one" + (" other" if other else "")
    else:
        quant = "another" if other else article_for(words)
    text = " ".join(x for x in [quant.strip(), words] + posts if x)
    return Phrase(text, plural=plural)


def player_selection(self: Renderer, ctx: Ctx, sel: Mapping[str, Any], plural: bool) -> Phrase:
    where = sel.get("where") or {}
    controller = where.get("controller") if isinstance(where, Mapping) else None
    noun = "opponent" if controller == "enemy" else "player"
    same = where.get("same_controller_as") if isinstance(where, Mapping) else None
    if same is not None and set(where) == {"same_controller_as"}:
        return Phrase(f"{self.poss(ctx, same)} controller")  # the player who controls it
    if sel.get("pick") == "all":
        return Phrase(f"each {noun}")
    return Phrase(f"{article_for(noun)} {noun}")
