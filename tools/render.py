"""English rules text rendered from card scripts.

Every sentence is built from the nodes of a card's script (abilities, keywords, effects,
selectors, amounts, conditions, triggers and costs), so a card author sees what a script
means in the style of printed Riftbound text: "When you play me, draw 1.", "{Exhaust}: Ready
me.", "[Deathknell] — Draw 1.".  Nothing is copied from printed card
text.  A node the renderer does not know is shown as an explicit ``‹...›`` marker; rendering
never raises.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from riftscript.core.cards import CardDef
from riftscript.core.catalog import Catalog

Node = Any

MARK_OPEN = "‹"
MARK_CLOSE = "›"

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve")
_ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")
_NOUNS = {
    "unit": ("unit", "units"), "gear": ("gear", "gear"), "spell": ("spell", "spells"),
    "card": ("card", "cards"), "rune": ("rune", "runes"), "battlefield": ("battlefield", "battlefields"),
    "legend": ("legend", "legends"), "player": ("player", "players"),
    "chain_item": ("spell or ability", "spells and abilities"), "location": ("location", "locations"),
    "permanent": ("unit or gear", "units and gear"),
}
_ZONES = {
    "hand": "hand", "trash": "trash", "main_deck": "Main Deck", "rune_deck": "rune deck",
    "champion_zone": "Champion Zone", "banishment": "banishment", "board": "board", "chain": "chain",
    "facedown": "facedown zone",
}
_PHASES = {"awaken": "Awaken", "beginning": "Beginning", "channel": "Channel", "draw": "Draw",
           "main": "Main", "ending": "Ending"}
_STATES = {
    "attacker": "attacking", "defender": "defending", "attacking_alone": "attacking alone",
    "defending_alone": "defending alone", "at_battlefield": "at a battlefield", "at_base": "in a base",
    "buffed": "buffed", "stunned": "stunned", "mighty": "[Mighty]", "damaged": "damaged",
    "exhausted": "exhausted", "ready": "ready", "token": "a token", "in_combat": "in combat",
    "facedown": "facedown", "on_board": "on the board", "alive": "still on the board",
    "in_hand": "in a hand", "one_on_one": "in a one-on-one combat", "was_mighty": "[Mighty]",
    "in_showdown": "in a showdown", "died_alone": "alone when it died", "played_hidden": "played from face down",
    "conquered_this_turn": "a conqueror this turn",
}
_PAST = {
    "played": "played", "discard": "discarded", "die": "died", "conquer": "conquered", "hold": "held",
    "move": "moved", "attack": "attacked", "defend": "defended", "kill": "killed", "draw": "drawn",
    "channel": "channeled", "stun": "stunned", "buff": "buffed", "recycle": "recycled", "ready": "readied",
    "score": "scored", "hide": "hidden", "spend_buff": "spent a buff", "take_damage": "taken damage",
    "damaged": "taken damage",
}
_INTRANSITIVE = {"die", "move", "attack", "defend", "conquer", "hold", "score", "take_damage", "damaged"}
_CONDITION_KEYS = frozenset({"condition", "if", "while", "only_while", "of"})
_OPS = {"ge": "{}+", "gt": "more than {}", "le": "{} or fewer", "lt": "fewer than {}",
        "eq": "exactly {}", "ne": "other than {}"}
_OPS_VALUE = {"ge": "at least", "gt": "greater than", "le": "at most", "lt": "less than", "eq": "equal to",
              "ne": "not equal to"}


def _mark(text: str) -> str:
    return f"{MARK_OPEN}{text}{MARK_CLOSE}"


def _is_marked(text: str) -> bool:
    """Whether a rendering is an explicit 'could not render' marker (see _mark)."""
    return text.startswith(MARK_OPEN) and text.endswith(MARK_CLOSE)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _end(text: str) -> str:
    """A sentence with its final period (not doubled)."""
    return text if text.endswith((".", ".)", "!", "?", ".\"")) else text + "."


def _word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _ordinal(n: int) -> str:
    return _ORDINALS[n] if 0 <= n < len(_ORDINALS) else f"{n}th"


def _article(text: str) -> str:
    lower = text.lower()
    vowel = lower[:1] in ("a", "e", "i", "o", "u") and not lower.startswith(("uni", "use", "usu", "one"))
    return "an" if vowel else "a"


def _series(items: Sequence[str], word: str = "and") -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return f"{items[0]} {word} {items[1]}"
    return ", ".join(items[:-1]) + f", {word} {items[-1]}"


def _third_singular(verb: str) -> str:
    """The third-person singular of a base verb ("draw" -> "draws")."""
    head, _, tail = verb.partition(" ")
    irregular = {"have": "has", "do": "does", "be": "is", "may": "may", "can": "can", "can't": "can't",
                 "must": "must", "go": "goes"}
    if head in irregular:
        out = irregular[head]
    elif re.search(r"(s|x|z|ch|sh|o)$", head):
        out = head + "es"
    elif re.search(r"[^aeiou]y$", head):
        out = head[:-1] + "ies"
    else:
        out = head + "s"
    return out + (" " + tail if tail else "")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _keyword_display(name: str) -> str:
    """A keyword's printed name from an id or a name as written ("quick_draw" -> "Quick-Draw")."""
    if any(c.isupper() for c in name):
        return name
    return "-".join(part.capitalize() for part in re.split(r"[_\-]", name))


@dataclass(frozen=True)
class Phrase:
    """A noun phrase and how a verb agrees with it."""

    text: str
    plural: bool = False
    person: int = 3

    def verb(self, base: str) -> str:
        """The verb agreeing with this phrase ("I have", "it has", "units have")."""
        if base == "be":
            return "am" if self.person == 1 else ("are" if self.plural or self.person == 2 else "is")
        return base if self.plural or self.person != 3 else _third_singular(base)

    def be(self) -> str:
        """This phrase followed by its form of "to be" ("I'm", "it's", "units are")."""
        if self.text == "I":
            return "I'm"
        return f"{self.text} {self.verb('be')}"


YOU = Phrase("you", person=2)


@dataclass(frozen=True)
class Ctx:
    """What the words of a node depend on: who "self" is and who is acting."""

    self_subj: Phrase
    self_obj: str
    self_poss: str
    actor: Phrase | None = None
    they: bool = False
    chosen: bool = False
    single: bool = False
    zone: str = ""
    spell: bool = False
    destination: str = "its destination"  # "that battlefield" after "When I move to a battlefield"
    event_there: bool = False  # the trigger named the event's battlefield: later it is "there"
    said: str = ""  # a variable the ability's condition already named: later it is "that much"

    @property
    def third(self) -> bool:
        return self.actor is not None or self.they

    def your(self) -> str:
        return "their" if self.third else "your"

    def you(self) -> Phrase:
        return Phrase("they", plural=True) if self.third else YOU

    def base_verbs(self) -> Ctx:
        """The same point of view with verbs in the base form (after "may", "to")."""
        return replace(self, actor=None, they=self.third)

    def v(self, base: str) -> str:
        """The acting player's verb: "draw" for you, "draws" inside "each player ..."."""
        return self.actor.verb(base) if self.actor is not None else base


@dataclass
class Clause:
    """One clause of rendered effect text.

    ``subject``: the text starts with its own subject (else it is an order to the acting player);
    ``group``: "player" (acts on the player's own cards and resources), "ref" (acts on something
    already chosen) or "" — consecutive player or ref clauses are joined into one sentence.
    """

    text: str
    subject: bool = False
    group: str = ""
    verb: str = ""
    obj: str = ""


@dataclass(frozen=True)
class Amt:
    """A rendered amount: a number, "N for each ...", or a value phrase ("my Might")."""

    num: str | None
    per: str = ""
    equal: str = ""
    lead: bool = False

    @property
    def value(self) -> str:
        if self.num is not None and not self.per:
            return self.num
        if self.equal:
            return self.equal
        return f"{self.num}{self.per}"


@dataclass(frozen=True)
class TriggerParts:
    """A trigger split for "When X does Y" and "If X would do Y"."""

    subject: Phrase
    verb: str
    rest: str = ""
    prefix: str = "When"
    suffix: str = ""


class Renderer:
    """Renders one card's script; ``tokens`` gives token facts by lower-case name."""

    def __init__(self, card: Mapping[str, Any], catalog: Catalog | None = None, reminders: bool = False) -> None:
        self.card = card
        self.catalog = catalog
        self.reminders = reminders
        self.type = str(card.get("type", "unit"))
        domains = card.get("domains")
        self.domains = [str(d) for d in domains] if isinstance(domains, list) else []
        if self.type in ("unit", "legend"):
            self.base = Ctx(Phrase("I", person=1), "me", "my")
        else:
            self.base = Ctx(Phrase("this"), "this", "its", spell=self.type == "spell")

    def styled(self, template: str) -> bool:
        """Whether the card's set words ``template`` its own way (the set manifest's ``text_style``)."""
        catalog = self.catalog if self.catalog is not None else _installed_catalog()
        info = catalog.sets.get(str(self.card.get("code", "")).split("-")[0]) if catalog is not None else None
        return info is not None and template in (info.manifest.get("text_style") or ())

    def from_hidden(self) -> str:
        """Played from a hidden card: ' from [Hidden]', or the later sets' ' from face down'."""
        return " from face down" if self.styled("from_face_down") else " from [Hidden]"

    # --- symbols ---------------------------------------------------------------------------

    def power(self, symbols: Node) -> str:
        if not isinstance(symbols, list):
            return _mark(f"power {symbols!r}")
        out = []
        for s in symbols:
            if s == "own":
                out.append("{" + ("/".join(d.capitalize() for d in self.domains) or "Own") + "}")
            else:
                out.append("{" + str(s).capitalize() + "}")
        return "".join(out)

    def resources(self, energy: Node, power: Node, ctx: Ctx) -> str:
        """Energy and power as symbols: "{1}{Fury}"."""
        text = ""
        if energy is not None:
            if _is_int(energy):
                text += "{" + str(energy) + "}"
            else:
                text += "{" + self.amount(ctx, energy).value + "}"
        if power:
            text += self.power(power)
        return text

    # --- references and selections ----------------------------------------------------------

    def ref(self, ctx: Ctx, name: Node, role: str = "obj") -> str:
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
            return _mark(f"reference {name!r}")
        return forms[{"subj": 0, "obj": 1, "poss": 2}[role]]

    def single_named(self, node: Mapping[str, Any]) -> bool:
        """Whether a named reference names one chosen object ("it"), not a group ("them")."""
        return str(node.get("named")) in self.singles

    @functools.cached_property
    def singles(self) -> dict[str, str]:
        """The names the card gives to selections of exactly one object (``as``), with their nouns."""
        found: dict[str, str] = {}
        plural: set[str] = set()

        def walk(node: Node) -> None:
            if isinstance(node, Mapping):
                name = node.get("as")
                if isinstance(name, str) and "pick" in node:
                    count = node.get("count", 1)
                    one = node.get("pick") in ("target", "choose", "random") and count == 1 \
                        and not node.get("any_number") and not node.get("up_to") and node.get("what") != "player"
                    where = node.get("where")
                    noun = "Equipment" if isinstance(where, Mapping) and where.get("tag") == "Equipment" else \
                        _NOUNS.get(str(node.get("what")), (str(node.get("what")),))[0]
                    if one:
                        found[name] = noun
                    else:
                        plural.add(name)
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)
        walk(self.card.get("abilities"))
        walk(self.card.get("keywords"))
        return {k: v for k, v in found.items() if k not in plural}

    def paid_unit(self) -> str:
        """What a cost of the card paid with: 'the killed unit', 'the unit you exhausted to pay for this ability'."""
        for ability in self.card.get("abilities") or []:
            cost = ability.get("cost") if isinstance(ability, Mapping) else None
            if isinstance(cost, Mapping) and "kill" in cost:
                return "the killed unit"
            if isinstance(cost, Mapping) and "exhaust" in cost:
                kind = "ability" if ability.get("kind") == "activated" else self.type
                return f"the unit you exhausted to pay for this {kind}"
        return "what was paid"

    def subject(self, ctx: Ctx, node: Node) -> Phrase:
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
        return Phrase(_mark(f"selector {node!r}"))

    def obj(self, ctx: Ctx, node: Node) -> str:
        """A selector as an object ("me", "it", "a unit at a battlefield")."""
        if isinstance(node, str):
            return self.ref(ctx, node, "obj")
        if isinstance(node, Mapping) and "named" in node:
            return self.ref(ctx, node) if self.single_named(node) else "them"
        if isinstance(node, Mapping):
            return self.selection(ctx, node).text
        return _mark(f"selector {node!r}")

    def poss(self, ctx: Ctx, node: Node) -> str:
        if isinstance(node, str):
            return self.ref(ctx, node, "poss")
        if isinstance(node, Mapping) and "named" in node:
            return self.ref(ctx, node, "poss") if self.single_named(node) else "their"
        return self.obj(ctx, node) + "'s"

    def is_plural(self, node: Node) -> bool:
        if isinstance(node, str):
            return node in ("them", "targets")
        if isinstance(node, Mapping):
            if "named" in node:
                return not self.single_named(node)
            count = node.get("count", 1)
            return node.get("pick") == "all" or bool(node.get("any_number")) or (_is_int(count) and count > 1)
        return False

    def location(self, ctx: Ctx, loc: Node, plural: bool, controller: Node = None) -> str:
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
        return _mark(f"location {loc!r}")

    def at(self, ctx: Ctx, node: Node) -> str:
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
        return _mark(f"at {node!r}")

    def bound(self, ctx: Ctx, value: Node, side: str, symbol: str = "") -> str:
        """A range bound: "no more than {4}", "less than your points", "at least 5"."""
        if _is_int(value):
            shown = "{" + str(value) + "}" if symbol == "energy" else (
                "{Any}" * value if symbol == "power" else str(value))
            return ("no more than " if side == "max" else "at least ") + shown
        if isinstance(value, Mapping):
            plus = value.get("plus", 0)
            if side == "max" and plus == -1:
                return "less than " + self.amount(ctx, {**value, "plus": 0}).value
            if side == "min" and plus == 1:
                return "more than " + self.amount(ctx, {**value, "plus": 0}).value
            if side == "max" and _is_int(plus) and plus > 0:
                return f"up to {plus} more than " + self.amount(ctx, {**value, "plus": 0}).value
            return ("no more than " if side == "max" else "at least ") + self.amount(ctx, value).value
        return _mark(f"bound {value!r}")

    def filter_words(self, ctx: Ctx, where: Mapping[str, Any], what: str, plural: bool,
                     skip: Sequence[str] = ()) -> tuple[list[str], str, list[str], list[str]]:
        """Adjectives, noun, trailing phrases and late trailing phrases (costs) of a filter."""
        adjs: list[str] = []
        posts: list[str] = []
        late: list[str] = []
        if not isinstance(where, Mapping):
            return adjs, what, [_mark(f"filter {where!r}")], late
        kind = where.get("type") if where.get("type") in _NOUNS and what in ("card", "permanent") else what
        noun = _NOUNS.get(str(kind), (str(kind), str(kind) + "s"))[1 if plural else 0]
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
            if key in where:
                adjs.insert(0, yes if where[key] else no)
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
            posts.append(f"with [{_keyword_display(str(where['keyword']))}]")
        if "not_keyword" in where:
            posts.append(f"without [{_keyword_display(str(where['not_keyword']))}]")
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
            if _is_int(might.get("max")) and "min" not in might:
                posts.append(f"with {might['max']} Might or less")
            elif _is_int(might.get("min")) and "max" not in might:
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
            late.append("with Energy cost " + " and ".join(cost_parts).replace("no more than", "at most"))
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
            if key not in known:
                posts.append(_mark(f"filter {key}"))
        return adjs, noun, posts, late

    def selection(self, ctx: Ctx, sel: Mapping[str, Any], mode: str = "default") -> Phrase:
        """A selection as a noun phrase.

        ``mode``: "default" ("a unit", "all units"), "bare" (plural without "all", for subjects:
        "friendly units have ..."), "each" (singular without article: "for each card ...").
        """
        if not isinstance(sel, Mapping):
            return Phrase(_mark(f"selection {sel!r}"))
        what = str(sel.get("what", "card"))
        pick = sel.get("pick", "target")
        count = sel.get("count", 1)
        count = count if _is_int(count) else 1
        where = sel.get("where") or {}
        if not isinstance(where, Mapping):
            where = {}
        any_number = bool(sel.get("any_number"))
        plural = mode != "each" and (pick == "all" or count > 1 or any_number)
        among = sel.get("among")
        filters = {k: v for k, v in where.items() if k not in ("other", "distinct_from")}
        other = bool(where.get("other") or where.get("distinct_from"))
        if what == "player":
            return self.player_selection(ctx, sel, plural)
        if among is not None and what == "card" and not filters:
            if ctx.single and among == "them":
                return Phrase("it")
            if pick == "all":
                return Phrase("all of them", plural=True)
            if any_number:
                return Phrase("any number of them", plural=True)
            text = ("up to " if sel.get("up_to") else "") + (_word(count) if count > 1 else "one") + " of them"
            return Phrase(text, plural=count > 1)
        # "one of their units" (inside "each player ...") and "one of your runes"
        mine = (filters.get("controller") in ("friendly", "you") and pick == "choose" and not any_number
                and mode == "default"
                and not other and (ctx.third or what == "rune") and set(filters) == {"controller"})
        if mine:
            noun = _NOUNS.get(what, (what, what + "s"))[1]
            quant = ("up to " if sel.get("up_to") else "") + (_word(count) if count > 1 else "one")
            return Phrase(f"{quant} of {ctx.your()} {noun}", plural=count > 1)
        if filters.get("controller") == "you" and any_number and pick == "choose" and mode == "default" \
                and not ctx.third and not sel.get("zone") and what in _NOUNS and "location" not in filters:
            # the player's own, any number of them: "any number of your ready units"
            mine_adjs, mine_noun, mine_posts, mine_late = self.filter_words(ctx, filters, what, True,
                                                                            skip=("controller",))
            return Phrase(" ".join(["any number of", ctx.your()] + (["other"] if other else []) + mine_adjs
                                   + [mine_noun] + mine_posts + mine_late), plural=True)
        if filters.get("controller") == "you" and other and pick in ("target", "choose") and count == 1 \
                and not any_number and mode == "default" and not ctx.third and what in _NOUNS \
                and set(filters) == {"controller", "location"} and filters["location"] == "here":
            # "one of your other units here"
            return Phrase(f"{'up to ' if sel.get('up_to') else ''}one of your other {_NOUNS[what][1]} here")
        if what == "legend" and filters == {"controller": "you"} and not other and not ctx.third \
                and not any_number and count == 1 and mode != "each":
            return Phrase(f"{ctx.your()} legend")  # a player has one legend: a legend you control, or all, is it
        alternatives = where.get("any_of")
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
                    words = f"{_article(words)} {words}"
                alt_texts.append(" ".join([words] + a_posts + a_late))
            noun = _series(alt_texts, "or" if not plural else "and") + (" units" if tags_only and plural else "")
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
                zname = _ZONES.get(zone, zone)
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
            single = " ".join(adjs + [_NOUNS.get(what, (what, what))[0]])
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
            words = " ".join([ctx.your()] + (["other"] if other else []) + adjs + [noun])
            return Phrase(" ".join([words] + posts), plural=plural)
        if mode == "each" and yours and not ctx.third and not sel.get("zone") and what in _NOUNS \
                and noun in _NOUNS[what]:
            # "for each of your units with [Temporary] here"
            rest = [p for p in posts if p != f"{ctx.you().text} control"]
            words = " ".join([ctx.your()] + (["other"] if other else []) + adjs + [_NOUNS[what][1]])
            return Phrase(" ".join(["of", words] + rest))
        words = " ".join(adjs + [noun])
        if mode == "each":
            quant = "other" if other else ""
        elif pick == "all":
            quant = ("" if mode == "bare" else "all") + (" other" if other else "")
        elif pick == "random":
            quant = ("a random" if count == 1 else f"{_word(count)} random") + (" other" if other else "")
        elif any_number:
            quant = "any number of" + (" other" if other else "")
        elif count > 1:
            quant = ("up to " if sel.get("up_to") else "") + _word(count) + (" other" if other else "")
        elif sel.get("up_to"):
            quant = "up to one" + (" other" if other else "")
        else:
            quant = "another" if other else _article(words)
        text = " ".join(x for x in [quant.strip(), words] + posts if x)
        return Phrase(text, plural=plural)

    def player_selection(self, ctx: Ctx, sel: Mapping[str, Any], plural: bool) -> Phrase:
        where = sel.get("where") or {}
        controller = where.get("controller") if isinstance(where, Mapping) else None
        noun = "opponent" if controller == "enemy" else "player"
        same = where.get("same_controller_as") if isinstance(where, Mapping) else None
        if same is not None and set(where) == {"same_controller_as"}:
            return Phrase(f"{self.poss(ctx, same)} controller")  # the player who controls it
        if sel.get("pick") == "all":
            return Phrase(f"each {noun}")
        return Phrase(f"{_article(noun)} {noun}")

    # --- amounts -------------------------------------------------------------------------------

    def stat_phrases(self, ctx: Ctx, stat: str, player: Node) -> tuple[str, str]:
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
        return table.get(stat, (_mark(f"stat {stat}"), ""))

    def amount(self, ctx: Ctx, node: Node) -> Amt:
        """An amount as a number, a "for each" phrase or a value phrase."""
        if _is_int(node):
            return Amt(str(node))
        if not isinstance(node, Mapping):
            return Amt(_mark(f"amount {node!r}"))
        kind = node.get("type")
        times = node.get("times", 1)
        times = times if _is_int(times) else 1
        plus = node.get("plus", 0)
        plus = plus if _is_int(plus) else 0
        per = ""
        if kind == "count":
            of = node.get("of")
            each = self.selection(ctx, of, mode="each").text if isinstance(of, Mapping) else self.obj(ctx, of)
            bare = self.selection(ctx, {**of, "pick": "all"}, mode="bare").text if isinstance(of, Mapping) \
                else self.obj(ctx, of)
            equal = f"the number of {bare}"
            per = f" for each {each}"
        elif kind == "might":
            equal = f"{self.poss(ctx, node.get('of'))} Might"
        elif kind == "keyword_value":
            equal = f"{self.poss(ctx, node.get('of', 'self'))} [{_keyword_display(str(node.get('keyword')))}]"
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
        else:
            return Amt(_mark(f"amount type {kind!r}"))
        if times != 1:
            equal = ("twice " if times == 2 else f"{times} times ") + equal
        if plus:
            equal += f" plus {plus}" if plus > 0 else f" minus {-plus}"
        if per and not plus:
            return Amt(str(times), per=per, equal=equal, lead=kind == "variable")
        return Amt(None, equal=equal)

    # --- conditions ----------------------------------------------------------------------------

    def condition(self, ctx: Ctx, cond: Node) -> str:
        """A condition as a clause after "if" or "while"."""
        if not isinstance(cond, Mapping):
            return _mark(f"condition {cond!r}")
        kind = cond.get("type")
        parts = cond.get("of")
        if kind == "all" and isinstance(parts, list) and len(parts) == 2 and parts[0] == {
                "type": "is", "subject": parts[0].get("subject"), "state": "attacker"} and parts[1] == {
                "type": "not", "of": {"type": "is", "subject": parts[0].get("subject"), "state": "attacking_alone"}}:
            return f"{self.subject(ctx, parts[0]['subject']).be()} attacking with another unit"
        if kind in ("all", "any") and isinstance(parts, list):
            word = "and" if kind == "all" else "or"
            subjects = {p.get("subject") for p in parts if isinstance(p, Mapping) and p.get("type") == "is"}
            if len(subjects) == 1 and all(isinstance(p, Mapping) and p.get("type") == "is" for p in parts):
                subject = self.subject(ctx, next(iter(subjects)))
                states = [_STATES.get(str(p.get("state")), _mark(f"state {p.get('state')}")) for p in parts]
                last = {s.rsplit(" ", 1)[-1] for s in states}
                if len(last) == 1 and all(" " in s for s in states):
                    tail = last.pop()
                    return f"{subject.be()} {_series([s.rsplit(' ', 1)[0] for s in states], word)} {tail}"
                return f"{subject.be()} {_series(states, word)}"
            return _series([self.condition(ctx, p) for p in parts], word)
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
            return f"{subject.be()} {_STATES.get(state, _mark(f'state {state}'))}"
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
                    "choose": "you chose to"}.get(str(cond.get("what")), _mark(f"did {cond.get('what')}"))
        if kind == "paid":
            return "you paid the additional cost"
        if kind == "turn":
            if "phase" in cond:
                phase = _PHASES.get(str(cond["phase"]), str(cond["phase"]))
                return f"it's your {phase} Phase" if cond.get("whose") == "yours" else \
                    f"it's an opponent's {phase} Phase"
            return "it's your turn" if cond.get("whose") == "yours" else "it's an opponent's turn"
        if kind == "showdown":
            return "a showdown is under way"
        if kind == "attached_this_turn":
            return f"this was attached to {ctx.self_obj} this turn"
        if kind == "first_time":
            return f"this is the first time this turn ({self.event_name(cond.get('event'))})"
        return _mark(f"condition type {kind!r}")

    def event_name(self, event: Node) -> str:
        return str(event).replace("_", " ")

    def negated(self, ctx: Ctx, cond: Node) -> str:
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
                return f"{subject.be()} not {_STATES.get(state, _mark(f'state {state}'))}"
            if kind == "did":
                return {"succeed": "you don't", "fail": "you can", "kill": "this doesn't kill it",
                        "pay": "you didn't pay", "choose": "you didn't choose to"}.get(
                    str(cond.get("what")), _mark(f"did {cond.get('what')}"))
            if kind == "paid":
                return "you didn't pay the additional cost"
            if kind == "history":
                return self.history(ctx, cond, negate=True)
            if kind == "turn":
                return "it's not your turn" if cond.get("whose") == "yours" else "it's not an opponent's turn"
            if kind == "keyword":
                return f"{self.keyword_label(cond)} is not active"
            flipped = {"ge": "lt", "gt": "le", "le": "gt", "lt": "ge", "eq": "ne", "ne": "eq"}
            if kind == "compare" and cond.get("op", "ge") in flipped:
                return self.compare(ctx, {**cond, "op": flipped[str(cond.get("op", "ge"))]})
        return f"it's not true that {self.condition(ctx, cond)}"

    def exists(self, ctx: Ctx, cond: Mapping[str, Any], negate: bool = False) -> str:
        at_least = cond.get("at_least", 1)
        at_least = at_least if _is_int(at_least) else 1
        at_most = cond.get("at_most")
        if negate or at_most == 0:
            return self.there_are(ctx, cond.get("what"), None)
        if at_most is not None:
            # 'exists' counts one or more: at_most 1 is exactly one
            word = "exactly" if at_most == at_least else "at most"
            return self.there_are(ctx, cond.get("what"), f"{word} {_word(at_most) if at_most == 1 else at_most}")
        return self.there_are(ctx, cond.get("what"), self.or_more(at_least) if at_least > 1 else "")

    def or_more(self, n: int) -> str:
        """A lower bound on a count: '2+', or in words ('two or more', the set style ``or_more``)."""
        return f"{_word(n)} or more" if self.styled("or_more") else f"{n}+"

    def there_are(self, ctx: Ctx, sel: Node, quantity: str | None) -> str:
        """'you control a Poro unit', 'there is a ready enemy unit here', 'your Champion Zone is empty'.

        ``quantity``: "" for one, None for none, else a phrase such as "3 or more" or "exactly 1".
        """
        if not isinstance(sel, Mapping):
            return _mark("exists without a selection")
        if quantity == "" and sel.get("among") in ("it", "them") and set(sel) <= {"pick", "what", "among", "zone"} \
                and sel.get("what") in _NOUNS and (sel["among"] == "it" or ctx.single):
            return f"it's {_article(str(sel['what']))} {sel['what']}"  # "if it's a spell"
        where = sel.get("where") or {}
        where = where if isinstance(where, Mapping) else {}
        if quantity == "" and sel.get("among") in ("it", "target") and set(sel) <= {"pick", "what", "among", "where"} \
                and sel.get("what") in _NOUNS and where and not ({"other", "distinct_from"} & set(where)):
            # the one object chosen is of a kind: "if it's an enemy unit", "if it's a spell"
            return "it's " + self.selection(ctx, {"pick": "target", "what": sel["what"], "where": where}).text
        if quantity == "" and sel.get("among") == "targets" and set(where) == {"keyword"}:
            return f"at least one of them has [{_keyword_display(str(where['keyword']))}]"  # of the chosen ones
        if quantity == "" and where.get("alone") and not (where.get("attacker") or where.get("defender")) \
                and where.get("location", "here") == "here":
            rest = {k: v for k, v in where.items() if k not in ("alone", "location")}
            one = self.selection(ctx, {**sel, "pick": "target", "where": rest}).text
            return f"{one} is alone" + (" here" if "location" in where else "")  # "an enemy unit is alone here"
        controller = where.get("controller")
        zone = sel.get("zone")
        if quantity is None and zone and not where and sel.get("what") == "card":
            return f"{ctx.your()} {_ZONES.get(str(zone), str(zone))} is empty"
        located = any(k in where for k in ("location", "at"))
        owned = controller in ("friendly", "you") or (controller == "enemy" and not located)
        base = {**sel, "pick": "all"}
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
        if owned and not zone:
            verb = "have" if quantity else "control"
            who = f"{ctx.you().text} {verb}" if controller in ("friendly", "you") \
                else f"an opponent {_third_singular(verb)}"
            return f"{who} {phrase}"
        return f"there {'are' if plural else 'is'} {phrase}"

    def compare(self, ctx: Ctx, cond: Mapping[str, Any]) -> str:
        left, right, op = cond.get("left"), cond.get("right"), str(cond.get("op", "ge"))
        have_stats = {"points": "points", "hand_size": "cards in {your} hand", "trash_size": "cards in {your} trash",
                      "runes": "runes", "xp": "XP", "main_deck_size": "cards in {your} Main Deck"}
        if isinstance(left, Mapping) and _is_int(right) and op in _OPS:
            kind = left.get("type")
            number = _word(right) if op in ("le", "lt") and right <= 3 else str(right)
            quantity = _OPS[op].format(number)
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
                who = {"opponent": "an opponent has", "its_controller": "its controller has"}.get(
                    str(player), f"{ctx.you().text} have")
                what = have_stats[str(left["stat"])].format(your=ctx.your() if who.endswith("have") else "their")
                return f"{who} {quantity} {what}"
            if kind == "stat" and left.get("stat") == "power_spent_this_turn" and op == "ge" \
                    and not left.get("plus") and not left.get("times"):
                return f"{ctx.you().text}'ve spent at least {'{Any}' * right} this turn"
            if kind == "stat" and left.get("stat") == "moves_this_turn":
                subject = ctx.self_subj
                times = {2: "twice", 1: "once"}.get(right, f"{right} times") if op == "ge" else f"{quantity} times"
                return f"{subject.text} {subject.verb('have')} moved {times} this turn"
            if kind == "count" and not left.get("times") and not left.get("plus"):
                word = _word(right) if right <= 3 else str(right)
                quantity = {"ge": self.or_more(right), "gt": f"more than {word}", "le": f"at most {word}",
                            "lt": f"fewer than {word}", "eq": f"exactly {word}", "ne": f"other than {word}"}[op]
                return self.there_are(ctx, left.get("of"), None if right == 0 and op in ("le", "eq") else quantity)
        if op in ("lt", "gt") and isinstance(left, Mapping) and isinstance(right, Mapping) \
                and set(left) == set(right) == {"type", "of"} and left["type"] == right["type"] == "might" \
                and isinstance(left["of"], str):
            subject = self.subject(ctx, left["of"])  # "it has more Might than that unit"
            than = self.obj(ctx, right["of"])
            return f"{subject.text} {subject.verb('have')} {'less' if op == 'lt' else 'more'} Might than {than}"
        if op == "ge" and isinstance(left, Mapping) and isinstance(right, Mapping) and left.get("type") == "stat" \
                and left.get("stat") in ("points", "opponent_points_max") and _is_int(right.get("plus")) \
                and right["plus"] < 0 and not left.get("plus"):
            who = "an opponent's score" if left.get("stat") == "opponent_points_max" else f"{ctx.your()} score"
            target = self.amount(ctx, {**right, "plus": 0}).value
            return f"{who} is within {-right['plus']} points of {target}"
        return f"{self.amount(ctx, left).value} is {_OPS_VALUE.get(op, op)} {self.amount(ctx, right).value}"

    def history(self, ctx: Ctx, cond: Mapping[str, Any], negate: bool = False) -> str:
        event = str(cond.get("event"))
        during = f" during {ctx.your()} {_PHASES.get(str(cond['during']), str(cond['during']))} Phase" \
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
        at_least = at_least if _is_int(at_least) else 1
        subject = cond.get("subject")
        what = "card"
        where: Mapping[str, Any] = {}
        if isinstance(subject, Mapping):
            where = {k: v for k, v in subject.items() if k != "type"}
            what = str(subject.get("type", "unit" if event in _INTRANSITIVE else "card"))
        elif event in _INTRANSITIVE:
            what = "unit"
        if cond.get("exclude_self"):
            where = {**where, "other": True}
        sel = {"pick": "target", "what": what, "where": where}
        if at_least > 1:
            obj = f"{at_least} or more {self.selection(ctx, {**sel, 'pick': 'all'}, mode='bare').text}"
        else:
            obj = self.selection(ctx, sel).text
        past = _PAST.get(event, event.replace("_", " "))
        if event in _INTRANSITIVE:
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
            with_what = " with " + _series([names.get(str(b), str(b)) for b in by], "or")
        return f"{who} {past} {obj} this turn{with_what}"

    def keyword_label(self, cond: Mapping[str, Any]) -> str:
        name = _keyword_display(str(cond.get("keyword", "")))
        value = cond.get("value")
        return f"[{name} {value}]" if _is_int(value) else f"[{name}]"

    # --- costs ---------------------------------------------------------------------------------

    def cost_parts(self, ctx: Ctx, cost: Node, *, symbols: bool) -> list[str]:
        """The parts of a cost: symbols for an ability's cost ("{1}", "{Exhaust}"), or verb
        phrases for paying it inside an effect ("pay {1}", "exhaust me")."""
        if not isinstance(cost, Mapping):
            return [_mark(f"cost {cost!r}")]
        parts: list[str] = []
        if "kill" in cost:
            parts.append("kill " + self.obj(ctx, cost["kill"]))
        if cost.get("kill_self"):
            parts.append(f"kill {ctx.self_obj}")
        if cost.get("recycle_self"):
            parts.append(f"recycle {ctx.self_obj}")
        if "discard" in cost:
            parts.append(f"discard {cost['discard']}")
        if "recycle_from_trash" in cost:
            parts.append(f"recycle {cost['recycle_from_trash']} from {ctx.your()} trash")
        if cost.get("spend_buff_self"):
            parts.append(f"spend {ctx.self_poss} buff")
        if "spend_buff" in cost:
            n = cost["spend_buff"]
            parts.append("spend a buff" if n == 1 else "spend any number of buffs" if n == "any_number"
                         else f"spend {_word(n) if _is_int(n) else n} buffs")
        if "exhaust" in cost:
            parts.append("exhaust " + self.obj(ctx, cost["exhaust"]))
        if "recycle" in cost:
            parts.append("recycle " + self.obj(ctx, cost["recycle"]))
        if "return_to_hand" in cost:
            parts.append(f"return {self.obj(ctx, cost['return_to_hand'])} to its owner's hand")
        if cost.get("banish_self"):
            parts.append(f"banish {ctx.self_obj}")
        if _is_int(cost.get("xp")):
            parts.append(f"spend {cost['xp']} XP")
        resources = self.resources(cost.get("energy"), cost.get("power"), ctx)
        if cost.get("power_x"):
            parts.append("pay any amount of {Any}" if not symbols else "{X}")
        if cost.get("energy_x"):
            parts.append("pay any amount of Energy" if not symbols else "{X}")
        if resources:
            parts.append(resources if symbols else f"pay {resources}")
        if cost.get("exhaust_self"):
            parts.append("{Exhaust}" if symbols else f"exhaust {ctx.self_obj}")
        if symbols and cost.get("kill_self") and resources and parts and parts[0] == f"kill {ctx.self_obj}":
            parts = parts[1:] + parts[:1]  # "{1}{Calm}, {Exhaust}, Kill this"
        known = {"kill", "kill_self", "recycle_self", "discard", "recycle_from_trash", "spend_buff_self", "spend_buff",
                 "exhaust", "energy", "power", "power_x", "exhaust_self", "recycle", "return_to_hand", "banish_self",
                 "energy_x", "xp"}
        parts += [_mark(f"cost {k}") for k in cost if k not in known]
        if symbols:
            parts = [_cap(p) for p in parts]
        return parts

    def pay(self, ctx: Ctx, cost: Node) -> str:
        """A cost paid inside an effect: "pay {1}{Fury} and exhaust me"."""
        return _series(self.cost_parts(ctx, cost, symbols=False))

    # --- triggers ------------------------------------------------------------------------------

    def trigger_parts(self, ctx: Ctx, t: Node, delayed: bool = False) -> TriggerParts:
        """Split a trigger into subject, verb and the rest."""
        if not isinstance(t, Mapping):
            return TriggerParts(Phrase(_mark(f"trigger {t!r}")), "happen")
        event = str(t.get("event"))
        subject = t.get("subject")
        what = t.get("what")
        player = t.get("player")
        you = ctx.you()
        player_phrase = {"you": you, "opponent": Phrase("an opponent"), "any": Phrase("a player"),
                         "friendly": Phrase(f"{you.text} or an ally", plural=True)}.get(str(player), you)
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
        elif _is_int(nth) and nth > 1 and not (event == "played" and not is_self):
            prefix, suffix = f"The {_ordinal(nth)} time", " in a turn"

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
                if _is_int(nth) and nth > 1:
                    kind = _NOUNS.get(str(what or "card"), ("card", "cards"))[0]
                    noun = f"{ctx.your() if player != 'opponent' else 'their'} {_ordinal(nth)} {kind}"
                    suffix = " in a turn"
                if _is_int(t.get("min_cost")):
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
                    f"{_article(str(what or 'unit'))} {what or 'unit'}")
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
            phase = _PHASES.get(str(t.get("phase")), _mark(f"phase {t.get('phase')}"))
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
                if event == "draw" and _is_int(nth) and nth > 1:  # "When you draw your second card each turn"
                    obj = f"{ctx.your() if player != 'opponent' else 'their'} {_ordinal(nth)} card"
                    prefix, suffix = "When", " each turn"
                if event == "recycle" and what not in (None, "card"):
                    obj = f"one or more {_NOUNS.get(str(what), (str(what), str(what) + 's'))[1]}"
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
            kind = _NOUNS.get(str(what), (str(what), ""))[0] if what else "card"
            whose = ctx.self_obj if is_self else _article(kind) + " " + kind
            parts = TriggerParts(player_phrase, "use", f"an activated ability of {whose}")
        elif event == "reveal":
            parts = TriggerParts(player_phrase, "reveal", ctx.self_obj if is_self else "a card")
        elif event == "return_to_hand":
            np = Phrase(ctx.self_subj.text) if is_self else Phrase(
                f"{_article(str(what or 'unit'))} {what or 'unit'}" + (" here" if t.get("here") else "")) \
                if not isinstance(subject, Mapping) else other_np()
            parts = TriggerParts(np, "be", "returned to a player's hand" if player in (None, "any")
                                 else f"returned to {ctx.your()} hand")
        else:
            parts = TriggerParts(Phrase(_mark(f"event {event}")), "happen")
        extra: list[str] = []
        by = t.get("by")
        if by:
            extra.append({"spell": "with a spell", "ability": "with an ability", "combat": "in combat",
                          "spell_or_ability": "with a spell or ability", "attack": "after an attack"}.get(str(by), _mark(f"by {by}")))
        if t.get("here") and event not in ("chosen", "return_to_hand"):
            extra.append("here")
        spent = ""
        if _is_int(t.get("min_spent")):
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

    def trigger(self, ctx: Ctx, t: Node, delayed: bool = False) -> str:
        """'When you play me', 'At the start of your Beginning Phase', 'The first time I move each turn'."""
        parts = self.trigger_parts(ctx, t, delayed)
        if not parts.verb:
            return f"{parts.prefix} {parts.rest}{parts.suffix}"
        verb = parts.subject.verb(parts.verb)
        body = " ".join(x for x in [parts.subject.text, verb, parts.rest] if x)
        return f"{parts.prefix} {body}{parts.suffix}"

    def would(self, ctx: Ctx, t: Node) -> str:
        """A replaced event: 'a friendly unit would die'."""
        parts = self.trigger_parts(ctx, t)
        if not parts.verb:
            return f"{parts.rest} would begin"
        return " ".join(x for x in [parts.subject.text, "would", parts.verb, parts.rest] if x)

    # --- effects -------------------------------------------------------------------------------

    def clauses(self, ctx: Ctx, eff: Node) -> list[Clause]:
        """An effect as a list of clauses."""
        if not isinstance(eff, Mapping):
            return [Clause(_mark(f"effect {eff!r}"))]
        kind = str(eff.get("type"))
        method = getattr(self, f"e_{kind}", None)
        if method is None:
            return self.plugin_effect(ctx, eff, kind)
        result: list[Clause] = method(ctx, eff)
        return result

    def plugin_effect(self, ctx: Ctx, eff: Mapping[str, Any], kind: str) -> list[Clause]:
        """A plugin's effect primitive, from the English template it registered (EffectType.text):
        selectors read as objects, durations as " this turn", amounts as numbers."""
        catalog = self.catalog if self.catalog is not None else _installed_catalog()
        etype = catalog.effect_types.get(kind) if catalog is not None else None
        if etype is None or not etype.text:
            return [Clause(_mark(f"unknown effect {kind!r}"))]
        fields: dict[str, str] = {"duration": self.duration(eff.get("duration"))}
        for key, value in eff.items():
            if key in ("type", "note", "duration"):
                continue
            if isinstance(value, str) and _is_marked(self.obj(ctx, value)):
                fields[key] = value  # not a reference: a name (a token's)
            elif isinstance(value, str) or (isinstance(value, Mapping) and ("pick" in value or "named" in value)):
                fields[key] = self.obj(ctx, value)
            else:
                fields[key] = self.amount(ctx, value).value if isinstance(value, (int, Mapping)) else str(value)
        try:
            return [Clause(etype.text.format(**fields))]
        except (KeyError, IndexError):
            return [Clause(_mark(f"effect {kind!r} text"))]

    def text(self, ctx: Ctx, eff: Node) -> str:
        """An effect as sentence text (first letter as rendered, no final period)."""
        return self.join(ctx, self.clauses(ctx, eff))

    def join(self, ctx: Ctx, clauses: list[Clause]) -> str:
        """Join clauses: player actions and actions on what was just chosen share a sentence;
        clauses with the same verb share it ("choose two units and two gear")."""
        merged: list[Clause] = []
        for clause in clauses:
            prev = merged[-1] if merged else None
            if prev is not None and clause.verb and clause.verb == prev.verb and not clause.subject \
                    and not prev.subject and clause.obj and prev.obj:
                objs = prev.obj.split(" \x00 ") + [clause.obj]
                merged[-1] = Clause(f"{clause.verb} {_series(objs)}", group=prev.group, verb=prev.verb,
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
            if len(texts) == 2 and (texts[0].startswith(("discard", "discards")) and group[1].group == "player"
                                    or "," in texts[0]):
                sentence = f"{texts[0]}, then {texts[1]}"
            else:
                sentence = _series(texts)
            if ctx.actor is not None and not group[0].subject:
                later = "they" if ctx.actor.plural else "that player"
                sentence = f"{ctx.actor.text if i == 0 else later} {sentence}"
            sentences.append(sentence if i == 0 else _cap(sentence))
        return ". ".join(sentences)

    def chosen_by(self, ctx: Ctx, target: Node) -> tuple[list[Clause], Node]:
        """A selection chosen by someone else: ("each other player chooses a unit", "those units")."""
        if not isinstance(target, Mapping) or target.get("chooser") in (None, "you"):
            return [], target
        chooser = target["chooser"]
        who = {"opponent": Phrase("an opponent"), "each_player": Phrase("each player"),
               "each_other_player": Phrase("each other player"), "its_controller": Phrase("its controller"),
               "event_player": Phrase("that player")}.get(str(chooser), Phrase(_mark(f"chooser {chooser!r}")))
        rest = {k: v for k, v in target.items() if k != "chooser"}
        several = chooser in ("each_player", "each_other_player") or self.is_plural(rest)
        noun = _NOUNS.get(str(rest.get("what", "card")), ("card", "cards"))[1 if several else 0]
        pre = Clause(f"{who.text} {who.verb('choose')} {self.obj(ctx, rest)}", subject=True)
        return [pre], {"named": noun} if several else "it"

    def simple(self, ctx: Ctx, eff: Mapping[str, Any], verb: str) -> list[Clause]:
        """'verb target': kill, stun, buff, ready, exhaust, heal, recall, banish, counter, ..."""
        pre, target = self.chosen_by(ctx, eff.get("target"))
        if isinstance(target, Mapping) and "named" in target and pre:
            obj = f"those {target['named']}"
        else:
            obj = self.obj(ctx, target)
        return pre + [Clause(f"{ctx.v(verb)} {obj}", group="ref" if isinstance(target, str) else "",
                             verb=ctx.v(verb), obj=obj)]

    def e_kill(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "kill")

    def e_stun(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "stun")

    def e_buff(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "buff")

    def e_ready(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "ready")

    def e_exhaust(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "exhaust")

    def e_heal(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "heal")

    def e_recall(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "recall")

    def e_banish(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "banish")

    def e_counter(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        out = self.simple(ctx, eff, "counter")
        if eff.get("to") == "hand":
            out.append(Clause("return it to its owner's hand instead of putting it in their trash", subject=True))
        return out

    def e_reveal(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return self.simple(ctx, eff, "reveal")

    def e_detach(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        if eff.get("target") == "this_card":  # said by the equipped unit: "unattach this"
            return [Clause(f"{ctx.v('unattach')} this", group="ref")]
        return self.simple(ctx, eff, "detach")

    def e_recycle(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        target = eff.get("target")
        if isinstance(target, Mapping) and target.get("zone") == "trash" and target.get("what") == "card" \
                and not target.get("where") and target.get("pick") == "choose":
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

    def e_spend_buff(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        target = eff.get("target")
        if isinstance(target, str):
            return [Clause(f"{ctx.v('spend')} {self.poss(ctx, target)} buff", group="ref")]
        if isinstance(target, Mapping) and target.get("any_number"):
            return [Clause(f"{ctx.v('spend')} any number of buffs")]
        plural = self.is_plural(target)
        return [Clause(f"{ctx.v('spend')} the {'buffs' if plural else 'buff'} of {self.obj(ctx, target)}")]

    def e_return_to_hand(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        target = eff.get("target")
        if isinstance(target, Mapping) and target.get("zone") in ("trash", "main_deck", "banishment"):
            return [Clause(f"{ctx.v('return')} {self.obj(ctx, target)} to {ctx.your()} hand")]
        if target == "self" and ctx.zone and ctx.zone != "board":
            return [Clause(f"{ctx.v('return')} {ctx.self_obj} from {ctx.your()} {_ZONES.get(ctx.zone, ctx.zone)} "
                           f"to {ctx.your()} hand", group="ref")]
        more = eff.get(_MORE_TARGETS)
        if more:  # several targets returned together: "return A and B to their owners' hands"
            objs = _series([self.obj(ctx, t) for t in [target] + list(more)])
            return [Clause(f"{ctx.v('return')} {objs} to their owners' hands")]
        plural = self.is_plural(target)
        owner = "their owners' hands" if plural else (
            f"{ctx.self_poss} owner's hand" if target == "self" else "its owner's hand")
        return [Clause(f"{ctx.v('return')} {self.obj(ctx, target)} to {owner}",
                       group="ref" if isinstance(target, str) else "")]

    def e_take_control(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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

    def e_deal_damage(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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
        elif amount.num is not None:
            each = "each of " if isinstance(target, Mapping) and target.get("pick") != "all" and (
                self.is_plural(target)) and not target.get("one_per_location") else ""
            dmg = f"{amount.num} to {each}{self.obj(ctx, target)}"
        else:
            dmg = f"damage equal to {amount.equal} to {self.obj(ctx, target)}"
        return [Clause(f"{subject}{verb} {dmg}", subject=bool(subject))]

    def e_mutual_damage(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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

    def e_modify_might(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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
        if amount.num is not None and eff.get(_MORE_KEYWORDS):
            grants = _series([f"{sign}{amount.num} Might"] + [self.keyword_use(k, v) for k, v in eff[_MORE_KEYWORDS]])
            change = f"{grants}{duration}"
        elif amount.num is not None:
            change = f"{sign}{amount.num} Might{duration}{amount.per}"
        else:
            change = f"{sign}Might equal to {amount.equal}{duration}"
        minimum = eff.get("minimum")
        if _is_int(minimum):
            change += f", to a minimum of {minimum} Might"
        return [Clause(f"{ctx.v('give')} {self.given(ctx, target)} {change}",
                       group="ref" if isinstance(target, str) else "")]

    def given(self, ctx: Ctx, target: Node) -> str:
        """The object of "give": plural selections without "all" ("give friendly units +1 Might")."""
        if isinstance(target, Mapping) and target.get("pick") == "all" and "named" not in target:
            return self.selection(ctx, target, mode="bare").text
        return self.obj(ctx, target)

    def duration(self, value: Node) -> str:
        return {"this_turn": " this turn", "this_combat": " this combat", "permanent": "", None: ""}.get(
            value, f" {_mark(f'duration {value!r}')}") if value is None or isinstance(value, str) else ""

    def keyword_use(self, name: Node, value: Node, ctx: Ctx | None = None) -> str:
        shown = _keyword_display(str(name))
        if value == "own_cost":
            return f"[{shown}] equal to its cost"
        if isinstance(value, Mapping) and "type" not in value:  # a cost: "[Repeat] {2}{Chaos}"
            return f"[{shown}] " + (", ".join(self.cost_parts(ctx or self.base, value, symbols=True)) or "{0}")
        if isinstance(value, Mapping):
            return f"[{shown}] equal to {self.amount(ctx or self.base, value).equal}"
        return f"[{shown} {value}]" if _is_int(value) else f"[{shown}]"

    def e_grant_keyword(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        target = eff.get("target")
        grants = [(eff.get("keyword"), eff.get("value"))] + list(eff.get(_MORE_KEYWORDS) or [])
        kw = _series([self.keyword_use(k, v) for k, v in grants])
        if "keywords_of" in eff:
            kw = f"{self.poss(ctx, eff['keywords_of'])} keywords"
        return [Clause(f"{ctx.v('give')} {self.given(ctx, target)} {kw}{self.duration(eff.get('duration'))}",
                       group="ref" if isinstance(target, str) else "")]

    def destination(self, ctx: Ctx, to: Node, plural: bool = False, subject: Node = None) -> str:
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
        table = {
            "base": f"to {ctx.your()} base", "here": "here", "there": "there",
            "its_base": ("to base" if plural else (f"to {ctx.self_poss} base" if subject == "self"
                                                    else "to its base")),
            "your_base": f"to {ctx.your()} base", "destination": f"to {ctx.destination}",
            "choose_battlefield": "to a battlefield", "choose_location": "",
            "source_location": "to its original location",
            "event_location": "there" if ctx.event_there else "to that battlefield",
            "origin": "to where it was", "event_subject_location": "to that battlefield",
        }
        if to is None:
            return ""
        return table.get(str(to), _mark(f"destination {to!r}"))

    def e_move(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        target = eff.get("target")
        dest = self.destination(ctx, eff.get("to"), self.is_plural(target), target)
        if eff.get("to") == "choose_location" and self.is_plural(target):
            dest = "to a single location"  # one destination chosen for them all
        text = " ".join(x for x in [ctx.v("move"), self.obj(ctx, target), dest] if x)
        out = [Clause(text, group="ref" if isinstance(target, str) else "")]
        if eff.get("ready"):
            out.append(Clause(f"{ctx.v('ready')} {'them' if self.is_plural(target) else 'it'}", group="ref"))
        return out

    def player_actor(self, ctx: Ctx, player: Node) -> Phrase | None:
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
                "opponents": Phrase("each opponent")}.get(str(player), Phrase(_mark(f"player {player!r}")))

    def player_clause(self, ctx: Ctx, player: Node, verb: str, rest: str) -> Clause:
        actor = self.player_actor(ctx, player)
        if actor is None:
            return Clause(f"{ctx.v(verb)} {rest}".strip(), group="player")
        return Clause(f"{actor.text} {actor.verb(verb)} {rest}".strip(), subject=True)

    def e_draw(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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

    def e_discard(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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

    def e_channel(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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

    def e_add(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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
        return out

    def e_ready_runes(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        count = eff.get("count", 1)
        up_to = "up to " if self.styled("ready_up_to") and count != 1 else ""  # the same: exhausted ones only
        return [Clause(f"{ctx.v('ready')} {up_to}{count} rune{'s' if count != 1 else ''}", group="player")]

    def e_create_token(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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
        quant = _word(int(count.num)) if count.num and count.num.isdigit() and not count.per else count.value
        if not plural:
            head = f"{ready}{might_text}{noun}"
            quant = _article(head)
        by_controller = eff.get("player") == "controller" and ctx.third  # "you play ..." inside "each player ..."
        text = f"{'you play' if by_controller else ctx.v('play')} {quant} {ready}{might_text}{noun}"
        if keywords:
            shown = [k if k.startswith("[") else self.keyword_use(k, None) for k in keywords]
            text += " with " + _series(shown)
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
                text += (" " + where.get(str(at), _mark(f"location {at!r}"))).rstrip()
        return [Clause(text)]

    def token(self, name: str) -> CardDef | None:
        catalog = self.catalog if self.catalog is not None else _installed_catalog()
        if catalog is None:
            return None
        return catalog.tokens.get(name.lower())

    def keyword_name(self, keyword_id: str) -> str:
        catalog = self.catalog if self.catalog is not None else _installed_catalog()
        if catalog is not None and keyword_id in catalog.keywords:
            return catalog.keywords[keyword_id].name
        return _keyword_display(keyword_id)

    def e_gain_points(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        amount = self.amount(ctx, eff.get("amount", 1))
        points = "point" if amount.value == "1" else "points"
        actor = self.player_actor(ctx, eff.get("player"))
        who = actor or ctx.you()
        return [Clause(f"{who.text} {who.verb('score')} {amount.value} {points}", subject=True)]

    def e_gain_xp(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        amount = self.amount(ctx, eff.get("amount", 1))
        if amount.per and amount.num is not None:  # "gain 1 XP for each friendly unit"
            return [Clause(f"{ctx.v('gain')} {amount.num} XP{amount.per}", group="player")]
        return [Clause(f"{ctx.v('gain')} {amount.value} XP", group="player")]

    def rest_clause(self, ctx: Ctx, rest: Node) -> list[Clause]:
        if rest is None:
            return []
        text = {"recycle": "recycle the rest", "back_any_order": "put the rest back in any order",
                "keep_order": "put the rest back in the same order", "trash": "trash the rest"}.get(
            str(rest), _mark(f"rest {rest!r}"))
        verb, _, tail = text.partition(" ")
        return [Clause(f"{ctx.v(verb)} {tail}", group="ref")]

    def e_look_at_top(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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

    def e_predict(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        count = self.amount(ctx, eff.get("count", 1))
        return [Clause("[Predict]" if count.value == "1" else f"[Predict {count.value}]", subject=True)]

    def e_reveal_until(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        sel = {"pick": "target", "what": eff.get("what", "card"), "where": eff.get("where") or {}}
        whose = "an opponent's" if eff.get("player") == "opponent" else ctx.your()
        out = [Clause(f"{ctx.v('reveal')} cards from the top of {whose} Main Deck until "
                      f"{ctx.you().text} reveal {self.selection(ctx, sel).text}")]
        if "then" in eff:
            out += self.clauses(ctx, eff["then"])
        return out + self.rest_clause(ctx, eff.get("rest"))

    def e_put_in_hand(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        target = eff.get("target")
        if target == "affected":  # a card the effect was created for: not necessarily yours
            return [Clause(f"{ctx.v('return')} it to its owner's hand", group="ref")]
        return [Clause(f"{ctx.v('put')} {self.obj(ctx, target)} into {ctx.your()} hand",
                       group="ref" if isinstance(target, str) else "")]

    def e_put_in_zone(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        zone = str(eff.get("zone"))
        position = {"top": "on the top of", "bottom": "on the bottom of",
                    "top_or_bottom": "on the top or bottom of"}.get(str(eff.get("position")))
        target = eff.get("target")
        whose = ctx.your()
        if isinstance(target, Mapping) and (target.get("where") or {}).get("controller") == "enemy":
            whose = "their owners'" if self.is_plural(target) else "its owner's"  # a card goes to its owner's zone
        return [Clause(f"{ctx.v('put')} {self.obj(ctx, target)} {position or 'into'} {whose} "
                       f"{_ZONES.get(zone, zone)}")]

    def e_play(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        card = eff.get("card")
        plural = self.is_plural(card)
        if card == "self" and ctx.zone and ctx.zone not in ("board", "main_deck"):
            what = f"{ctx.self_obj} from {ctx.your()} {_ZONES.get(ctx.zone, ctx.zone)}"
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
            if _is_int(eff["cost_reduction"]):
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

    def e_mill(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        amount = self.amount(ctx, eff.get("amount", 1))
        n = amount.num if amount.num is not None else amount.equal
        cards = "the top card" if n == "1" else f"the top {n} cards"
        actor = self.player_actor(ctx, eff.get("player"))
        whose = f"{actor.text}'s" if actor is not None else ctx.your()
        return [Clause(f"{ctx.v('put')} {cards} of {whose} Main Deck into {'their' if actor else ctx.your()} trash")]

    def e_prevent_damage(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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
        return [Clause(f"{ctx.v('prevent')} {what}{to}{self.duration(eff.get('duration'))}")]

    def e_extra_turn(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return [Clause(f"{ctx.v('take')} a turn after this one", group="player")]

    def e_win_game(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        who = ctx.you()
        return [Clause(f"{who.text} {who.verb('win')} the game", subject=True)]

    def e_attach(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return [Clause(f"{ctx.v('attach')} {self.obj(ctx, eff.get('equipment'))} to {self.obj(ctx, eff.get('to'))}")]

    def e_hide(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        text = f"{ctx.v('hide')} {self.obj(ctx, eff.get('card'))}"
        if eff.get("ignore_cost"):
            text += ", ignoring its cost"
        return [Clause(text)]

    def e_reveal_hand(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        who = "they reveal" if eff.get("player") == "chosen_opponent" or ctx.chosen else "an opponent reveals"
        return [Clause(f"{who} their hand", subject=True)]

    def e_swap_locations(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
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

    def e_select(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        target = eff.get("target")
        if isinstance(target, Mapping) and target.get("pick") == "all" and "as" in target:
            return []  # names what is there now for a later step ("that battlefield"): nothing is chosen
        obj = self.obj(ctx, target)
        return [Clause(f"{ctx.v('choose')} {obj}", verb=ctx.v("choose"), obj=obj)]

    def e_trigger_abilities(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        event = str(eff.get("event"))
        return [Clause(f"{ctx.v('activate')} the {self.event_name(event)} effects of "
                       f"{self.selection(ctx, eff.get('of') or {}, mode='bare').text}")]

    def e_keyword_effect(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return [Clause(f"{ctx.v('do')} the keyword's effect")]

    def e_record(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        return [Clause(f"note {self.amount(ctx, eff.get('amount', 0)).value} "
                       f"as {str(eff.get('name')).replace('_', ' ')}")]

    # --- control -------------------------------------------------------------------------------

    def e_sequence(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        steps = eff.get("steps")
        if not isinstance(steps, list):
            return [Clause(_mark("sequence without steps"))]
        out: list[Clause] = []
        steps = _merge_grants(steps)
        i = 0
        while i < len(steps):
            same = 1
            while i + same < len(steps) and steps[i + same] == steps[i]:
                same += 1
            typed = _type_cases(steps[i:])
            if len(typed) >= 2:
                # "Then, do the following based on its type: • Spell — Draw 1. • Gear — ..."
                cases = "".join(f"\n• {what.capitalize()} — {_end(_cap(self.text(ctx, then)))}" for what, then in typed)
                out.append(Clause(f"do the following based on {self.poss(ctx, steps[i]['condition']['what']['among'])}"
                                  f" type:{cases}", subject=True))
                i += len(typed)
                continue
            if same >= 3:
                once = self.clauses(ctx, steps[i])
                once[-1] = replace(once[-1], text=once[-1].text + f" ({_word(same)} times)", verb="")
                out += once
            elif _unless(steps[i:]):
                # "X unless its controller pays N": another player's "may", then X if they didn't
                out += self.unless(ctx, steps[i], steps[i + 1])
                i += 2
                continue
            else:
                for k, step in enumerate(steps[i:i + same], i):
                    step = _did_kill_after_kill(steps[k - 1] if k else None, step)
                    chosen, step = _hoist_named_locations(step)
                    for sel in chosen:
                        obj = self.obj(ctx, sel)
                        out.append(Clause(f"{ctx.v('choose')} {obj}", verb=ctx.v("choose"), obj=obj))
                    out += self.clauses(ctx, step)
            i += same
        return _chosen_inline(_merge_gives(out), steps)

    def unless(self, ctx: Ctx, may: Mapping[str, Any], step: Mapping[str, Any]) -> list[Clause]:
        """An effect that happens unless another player chooses to do something (see _unless)."""
        who = {"its_controller": "its controller", "opponent": "an opponent"}[str(may["chooser"])]
        if "effect" in may:
            action = f"has you {self.text(ctx.base_verbs(), may['effect'])}"
        else:
            action = _series([_third_singular(p) for p in self.cost_parts(ctx, may.get("cost"), symbols=False)])
        return [Clause(f"{self.text(ctx, step['then'])} unless {who} {action}")]

    def e_if(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        cond = eff.get("condition")
        then = self.text(ctx, eff.get("then"))
        first, other = eff.get("then"), eff.get("else")
        if isinstance(first, Mapping) and isinstance(other, Mapping) and first.get("type") == other.get("type") \
                and first.get("type") != "sequence":
            # alternatives of one effect type: "X. If C, Y instead." (the second names only what changes)
            rest = f"{self.keyword_label(cond)} — {_cap(then)}" if isinstance(cond, Mapping) and \
                cond.get("type") == "keyword" else f"if {self.condition(ctx, cond)}, {then}"
            return [Clause(self.text(ctx, other), subject=True), Clause(rest + " instead", subject=True)]
        if isinstance(cond, Mapping) and cond.get("type") == "keyword":
            head = f"{self.keyword_label(cond)} — {_cap(then)}"
        else:
            head = f"if {self.condition(ctx, cond)}, {then}"
        out = [Clause(head, subject=True)]
        if "else" in eff:
            out.append(Clause(f"otherwise, {self.text(ctx, eff['else'])}", subject=True))
        return out

    def e_may(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        cost = eff.get("cost")
        if "effect" not in eff:
            who = {"its_controller": "its controller", "opponent": "an opponent"}.get(str(eff.get("chooser")))
            what = self.pay(ctx.base_verbs(), cost) if cost else "choose to"
            return [Clause(f"{who or ctx.you().text} may {what}", subject=True)]
        chooser = eff.get("chooser")
        effect = eff.get("effect")
        if isinstance(cost, Mapping) and set(cost) <= {"energy", "power"} and self.type == "spell" \
                and isinstance(effect, Mapping) and effect.get("type") == "play" and effect.get("card") == "self" \
                and effect.get("ignore_cost") == "all":
            # a spell played again as it resolves: "Its controller may play this spell again for {Any}"
            who = {"its_controller": "its controller", "opponent": "an opponent"}.get(str(chooser), ctx.you().text)
            price = self.resources(cost.get("energy"), cost.get("power"), ctx)
            return [Clause(f"{who} may play this spell again for {price}", subject=True)]
        steps = effect.get("steps") if isinstance(effect, Mapping) and effect.get("type") == "sequence" else None
        if chooser in (None, "you") and ctx.actor is None and isinstance(steps, list) and len(steps) > 1 \
                and isinstance(steps[0], Mapping) and steps[0].get("type") == "select" \
                and isinstance(steps[0].get("target"), Mapping) and steps[0]["target"].get("zone") == "hand":
            # "You may choose a unit from it. If you do, they play it there ..."
            rest = self.text(ctx, {"type": "sequence", "steps": steps[1:]})
            head = self.pay(ctx.base_verbs(), cost) + " and choose" if cost else "choose"
            return [Clause(f"{ctx.you().text} may {head} {self.obj(ctx, steps[0].get('target'))}. "
                           f"If {ctx.you().text} do, {rest}", subject=True)]
        parts = self.clauses(ctx.base_verbs(), effect)
        inner = self.join(ctx.base_verbs(), parts)
        if cost and chooser in (None, "you") and ctx.actor is None and parts and parts[0].subject \
                and not parts[0].text.startswith(("you ", "[")):
            # "You may spend 2 XP. If you do, they discard a card of your choice and draw 1."
            return [Clause(f"{ctx.you().text} may {self.pay(ctx.base_verbs(), cost)}. "
                           f"If {ctx.you().text} do, {inner}", subject=True)]
        body = f"{self.pay(ctx.base_verbs(), cost)} to {inner}" if cost else inner
        if chooser in ("its_controller", "opponent"):
            who = "its controller" if chooser == "its_controller" else "an opponent"
            return [Clause(f"{who} may have you {inner}" if not cost else f"{who} may {body}", subject=True)]
        if ctx.actor is not None:
            return [Clause(f"may {body}")]
        return [Clause(f"{ctx.you().text} may {body}", subject=True)]

    def e_choose_one(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        options = eff.get("options")
        if not isinstance(options, list):
            return [Clause(_mark("choose_one without options"))]
        count = eff.get("count", 1)
        tags = [_granted_tag(o.get("effect")) for o in options if isinstance(o, Mapping)]
        if len(tags) > 1 and all(tags) and count == 1 and eff.get("chooser") in (None, "you"):
            # each option gives this object a tag: "choose Bird, Cat, Dog, or Poro. I gain that tag"
            gains = f"{ctx.self_subj.text} {ctx.self_subj.verb('gain')}"
            return [Clause(f"{ctx.v('choose')} {_series([str(t) for t in tags], 'or')}. {_cap(gains)} that tag")]
        by_domain = eff.get("by_domain_of")
        chooser = eff.get("chooser")
        labelled = ctx.third or chooser not in (None, "you")
        plain = [o for o in options if isinstance(o, Mapping) and set(o) <= {"label", "effect"}]
        if len(plain) == 2 == len(options) and count == 1 and not labelled and by_domain is None \
                and not eff.get("not_chosen_this_turn") and not ctx.spell:
            # an ability's two simple options: "draw 2 or channel 1", "stun or ready a unit" (a spell lists them)
            texts = [self.text(ctx, o.get("effect")) for o in plain]
            if not any(". " in t or "\n" in t or ", " in t for t in texts):
                first, second = (t.split(" ", 1) for t in texts)
                if len(first) == len(second) == 2 and first[1] == second[1]:
                    return [Clause(f"{first[0]} or {second[0]} {first[1]}")]
                return [Clause(f"{texts[0]} or {texts[1]}")]
        lines = []
        inner = replace(ctx, actor=Phrase("they", plural=True)) if ctx.third else ctx
        for opt in options:
            if not isinstance(opt, Mapping):
                continue
            body = _end(_cap(self.text(inner, opt.get("effect"))))
            label = str(opt.get("label", "")).replace("_", " ")
            if by_domain is not None:
                body = "{" + label.capitalize() + "} — " + body
            elif labelled and label:
                body = f"{label.capitalize()} — {body}"
            if "if" in opt:
                body += f" (Only if {self.condition(ctx, opt['if'])}.)"
            lines.append("\n• " + body)
        if by_domain is not None:
            head = f"do one of the following based on {self.poss(ctx, by_domain)} domain:"
            return [Clause(head + "".join(lines), subject=True)]
        n = "one" if count == 1 else _word(count) if _is_int(count) else str(count)
        who = {"opponent": "an opponent chooses", "its_controller": "its controller chooses",
               "event_player": "that player chooses"}.get(str(chooser))
        head = f"{who} {n}" if who else f"{ctx.v('choose')} {n}"
        if eff.get("not_chosen_this_turn"):
            head += " you haven't chosen this turn"
        return [Clause(head + " —" + "".join(lines), subject=bool(who))]

    def e_for_each(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        of = eff.get("of")
        each = self.selection(ctx, of, mode="each").text if isinstance(of, Mapping) else self.obj(ctx, of)
        inner = self.text(ctx, eff.get("effect"))
        return [Clause(f"for each {each}, {inner}", subject=True)]

    def e_for_each_player(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        who = {"each": "each player", "each_other": "each other player", "opponents": "each opponent",
               "starting_next": "starting with the next player, each player"}.get(
            str(eff.get("players", "each")), _mark(f"players {eff.get('players')!r}"))
        inner = replace(ctx, actor=Phrase(who))
        return [Clause(self.join(inner, self.clauses(inner, eff.get("effect"))), subject=True)]

    def e_repeat(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        times = self.amount(ctx, eff.get("times", 1)).value
        return [Clause(f"do this {times} times: {self.text(ctx, eff.get('effect'))}", subject=True)]

    def e_choose_player(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        who = "an opponent" if eff.get("who", "opponent") == "opponent" else "a player"
        inner = replace(ctx, chosen=True)
        return [Clause(f"{ctx.v('choose')} {who}")] + self.clauses(inner, eff.get("effect"))

    def e_create_effect(self, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
        duration = eff.get("duration")
        uses = eff.get("uses")
        affects = eff.get("affects")
        out: list[Clause] = []
        inner = ctx
        if affects is not None and affects != "self":
            if isinstance(affects, Mapping) and affects.get("what") == "player":
                it = self.subject(ctx, affects)  # "its controller can't play spells this turn"
            elif isinstance(affects, Mapping) and "named" not in affects:
                chosen = self.obj(ctx, affects)
                out.append(Clause(f"{ctx.v('choose')} {chosen}", verb=ctx.v("choose"), obj=chosen))
                it = Phrase("it")
            else:
                it = self.subject(ctx, affects)
            inner = replace(ctx, self_subj=it, self_obj="them" if it.plural else "it",
                            self_poss="their" if it.plural else "its")
        when = " this turn" if duration == "this_turn" else " this combat" if duration == "this_combat" else ""
        if isinstance(eff.get("static"), Mapping):
            out += self.lasting_static(inner, eff["static"], uses, when)
        elif isinstance(eff.get("trigger"), Mapping):
            body = eff["trigger"]
            t = body.get("when")
            delayed = isinstance(t, Mapping) and t.get("event") == "turn_end" and not t.get("whose_turn")
            if delayed and "if" not in body:
                effect = self.text(inner, body.get("effect"))
                out.append(Clause(f"{effect} at the end of {'this turn' if duration == 'this_turn' else 'the turn'}",
                                  subject=True))
                return out
            if delayed:
                head = f"at the end of {'this turn' if duration == 'this_turn' else 'the turn'}"
            else:
                parts = self.trigger_parts(inner, t)
                head = " ".join(x for x in [parts.subject.text, parts.subject.verb(parts.verb), parts.rest] if x)
                if not parts.verb:  # "at the start of your next Main Phase"
                    rest = re.sub(r"^(your|each|their) ", r"\1 next ", parts.rest) if uses == 1 else parts.rest
                    head = f"{parts.prefix.lower()} {rest}{parts.suffix}"
                else:
                    head = ("the next time " if uses == 1 else "when ") + head + when
            cond = f"if {self.condition(inner, body['if'])}, " if "if" in body else ""
            effect = self.text(inner, body.get("effect"))
            if body.get("optional"):
                effect = f"you may {effect}"
            out.append(Clause(f"{head}, {cond}{effect}", subject=True))
        elif isinstance(eff.get("replacement"), Mapping):
            body = eff["replacement"]
            head = ("the next time " if uses == 1 else "if ") + self.would(inner, body.get("replaces")) + when
            out.append(Clause(self.replacement_text(inner, body, head), subject=True))
        else:
            out.append(Clause(_mark("lasting effect without static, trigger or replacement")))
        return out

    def lasting_static(self, ctx: Ctx, body: Mapping[str, Any], uses: Node, when: str) -> list[Clause]:
        """A static effect for a while: 'the next spell you play this turn costs {5} less'."""
        affects = body.get("affects", "self")
        subject: Phrase | None = None
        modifiers = body.get("modifiers")
        on_play = isinstance(modifiers, list) and all(
            isinstance(m, Mapping) and m.get("type") in ("enter_ready", "enter_exhausted", "cost", "bonus_damage")
            or isinstance(m, Mapping) and m.get("type") == "keyword" and uses == 1 for m in modifiers)
        if on_play and isinstance(affects, Mapping) and affects.get("what") in ("unit", "spell", "card", "gear") \
                and affects.get("pick") == "all":
            where = affects.get("where") or {}
            what = str(affects["what"])
            entering = isinstance(modifiers, list) and all(isinstance(m, Mapping) and m.get("type") == "enter_ready"
                                                           for m in modifiers)
            # "units you play" are yours alone; friendly ones are a teammate's too, said as such
            if isinstance(where, Mapping) and (where.get("controller") == "you" or where.get("owner") == "you"
                                               or where.get("controller") == "friendly" and not entering):
                rest = {k: v for k, v in where.items() if k not in ("controller", "owner")}
                single = uses == 1
                adjs, noun, posts, late = self.filter_words(ctx, rest, what, not single)
                if not single and where.get("owner") == "you" and isinstance(modifiers, list) and all(
                        isinstance(m, Mapping) and m.get("type") == "cost" for m in modifiers):
                    # "your non-token units cost {1} more to play this turn"
                    subject = Phrase(" ".join([ctx.your()] + adjs + [noun] + posts + late), plural=True)
                    when = " to play" + when
                else:
                    words = adjs + [noun, f"{ctx.you().text} play"] + posts + late
                    subject = Phrase(" ".join((["the next"] if single else []) + words) + when, plural=not single)
                    when = ""
        sentences = self.static_clauses(ctx, body, subject)
        return [Clause(s + when, subject=True) for s in sentences]

    # --- abilities -----------------------------------------------------------------------------

    def at_my_battlefield(self, body: Mapping[str, Any]) -> Mapping[str, Any]:
        """'While I'm at a battlefield, units here ...' said as 'units at my battlefield ...'."""
        if self.type != "unit" or body.get("while") != {"type": "is", "subject": "self", "state": "at_battlefield"}:
            return body

        def moved(sel: Node) -> Node:
            where = sel.get("where") if isinstance(sel, Mapping) else None
            if not isinstance(where, Mapping) or where.get("location") != "here":
                return None
            return {**sel, "where": {**where, "location": "my_battlefield"}}

        rest = {k: v for k, v in body.items() if k != "while"}
        aff = body.get("affects")
        if isinstance(aff, Mapping) and (aff.get("where") or {}).get("controller") == "you":
            return body  # "While I'm at a battlefield, your other units here have [Deflect]"
        affects = moved(aff)
        if affects is not None:
            return {**rest, "affects": affects}
        modifiers = body.get("modifiers")
        if body.get("affects", "self") != "self" or not isinstance(modifiers, list):
            return body
        changed = []
        for mod in modifiers:
            amount = mod.get("amount") if isinstance(mod, Mapping) else None
            counted = moved(amount.get("of")) if isinstance(amount, Mapping) and amount.get("type") == "count" else None
            if counted is None or not isinstance(amount, Mapping) or mod.get("type") != "might":
                return body
            changed.append({**mod, "amount": {**amount, "of": counted}})
        return {**rest, "modifiers": changed}

    def static_subject(self, ctx: Ctx, affects: Node) -> Phrase:
        if affects == "self":
            return ctx.self_subj
        if affects == "you":
            return ctx.you()
        if isinstance(affects, Mapping) and affects.get("what") == "spell" and \
                isinstance(affects.get("where"), Mapping) and affects["where"].get("controller") == "friendly" \
                and len(affects["where"]) == 1:
            return Phrase(f"{ctx.your()} spells", plural=True)
        return self.subject(ctx, affects)

    def static_clauses(self, ctx: Ctx, body: Mapping[str, Any], subject: Phrase | None = None) -> list[str]:
        """The sentences of a static ability or lasting effect (no final period)."""
        body = self.at_my_battlefield(body)
        affects = body.get("affects", "self")
        first = self.first_played(ctx, body)
        if first is not None and subject is None:
            subject, body = first
        subj = subject or self.static_subject(ctx, affects)
        modifiers = body.get("modifiers")
        if not isinstance(modifiers, list):
            return [_mark("static ability without modifiers")]
        sentences: list[str] = []
        keywords = [m for m in modifiers if isinstance(m, Mapping) and m.get("type") == "keyword"]
        abilities_of = [m for m in modifiers if isinstance(m, Mapping) and m.get("type") == "abilities_of"]
        done_keywords = False
        done_abilities = False
        for mod in modifiers:
            if not isinstance(mod, Mapping):
                sentences.append(_mark(f"modifier {mod!r}"))
                continue
            kind = mod.get("type")
            if kind == "keyword":
                if done_keywords:
                    continue
                done_keywords = True
                names = _series([self.keyword_use(m.get("keyword"), m.get("value"), ctx) for m in keywords])
                text = f"{subj.text} {subj.verb('have')} {names}"
                givers = _attached_givers(keywords)
                if givers is not None:
                    # a keyword worth one for each attached thing: those things each give it
                    shown = self.selection(ctx, givers, mode="bare").text
                    text = f"{shown} each give {self.keyword_use(keywords[0].get('keyword'), None)}"
                if any(m.get("if_absent") for m in keywords):
                    pron = "I" if subj.person == 1 else ("they" if subj.plural else "it")
                    text += f" if {pron} didn't already"
                sentences.append(text)
            elif kind == "abilities_of":
                if done_abilities:
                    continue
                done_abilities = True
                origins = [self.obj(ctx, m.get("what")) for m in abilities_of]
                origins = origins[:1] + [n[4:] if n.startswith("all ") else n for n in origins[1:]]
                sources = _series(origins)
                sentences.append(f"{subj.text} {subj.verb('have')} all {{Exhaust}} abilities of {sources}")
            else:
                sentences.append(self.modifier(ctx, mod, subj, affects))
        cond = body.get("while")
        if cond is not None:
            moment = all(isinstance(m, Mapping) and (m.get("type") in ("enter_ready", "enter_exhausted") or
                                                     m.get("type") == "cost" and affects == "self")
                         for m in modifiers)
            not_in_hand = cond == {"type": "not", "of": {"type": "is", "subject": "self", "state": "in_hand"}}
            if not_in_hand and all(isinstance(m, Mapping) and m.get("type") == "cost" for m in modifiers):
                # "I cost {2} less to play from anywhere other than your hand"
                return [s + " to play from anywhere other than your hand" for s in sentences]
            what = cond.get("what") if isinstance(cond, Mapping) and cond.get("type") == "exists" else None
            own_units = isinstance(what, Mapping) and what.get("what", "unit") == "unit" and \
                (what.get("where") or {}).get("controller") in ("friendly", "you")
            if moment and own_units and all(isinstance(m, Mapping) and m.get("type") in ("enter_ready",
                                                                                          "enter_exhausted")
                                            for m in modifiers):
                return [f"{s} if {self.condition(ctx, cond)}" for s in sentences]  # "I enter ready if ..."
            if moment and affects == "self" and self.styled("cost_if_after") \
                    and all(isinstance(m, Mapping) and m.get("type") == "cost" for m in modifiers):
                return [f"{s} if {self.condition(ctx, cond)}" for s in _same_subject(sentences, subj.text)]
            # "If you've gained XP this turn, ...": a condition about the turn so far is an 'if'
            past = isinstance(cond, Mapping) and (cond.get("type") == "history" or _about_the_turn(cond))
            prefix = f"{'if' if moment or past else 'while'} {self.condition(ctx, cond)}, "
            sentences = [prefix + s for s in _same_subject(sentences, subj.text)]
        return _same_subject(sentences, subj.text)

    def first_played(self, ctx: Ctx, body: Mapping[str, Any]) -> tuple[Phrase, Mapping[str, Any]] | None:
        """Cards in hand that cost less while no such card was played this turn: the first one played
        each turn costs less. (The subject, and the ability without that part of its condition.)"""
        cond = body.get("while")
        parts = cond.get("of") if isinstance(cond, Mapping) and cond.get("type") == "all" else [cond]
        affects = body.get("affects")
        modifiers = body.get("modifiers")
        if not isinstance(parts, list) or not isinstance(affects, Mapping) or affects.get("zone") != "hand" \
                or affects.get("pick") != "all" or not isinstance(modifiers, list) \
                or not all(isinstance(m, Mapping) and m.get("type") == "cost" for m in modifiers):
            return None
        where = affects.get("where") or {}
        for part in parts:
            past = part.get("of") if isinstance(part, Mapping) and part.get("type") == "not" else None
            if not isinstance(past, Mapping) or set(past) != {"type", "event", "player", "subject"} \
                    or past.get("type") != "history" or past.get("event") != "played":
                continue
            played = past.get("subject")
            rest = {k: v for k, v in where.items() if k != "owner"} if isinstance(where, Mapping) else None
            player = past.get("player")
            if not isinstance(played, Mapping) or played.get("type") != affects.get("what") or rest is None \
                    or {k: v for k, v in played.items() if k != "type"} != rest \
                    or where.get("owner") != player or player not in ("friendly", "you"):
                continue
            adjs, noun, posts, late = self.filter_words(ctx, rest, str(affects.get("what")), False)
            if player == "friendly":
                words = ["the first", "friendly"] + adjs + [noun, "played"]
            else:
                words = ["the first"] + adjs + [noun, f"{ctx.you().text} play"]
            others = [p for p in parts if p is not part]
            left = {k: v for k, v in body.items() if k not in ("while", "affects")}
            if others:
                left["while"] = others[0] if len(others) == 1 else {"type": "all", "of": others}
            return Phrase(" ".join(words + posts + late + ["each turn"])), left
        return None

    def modifier(self, ctx: Ctx, mod: Mapping[str, Any], subj: Phrase, affects: Node) -> str:
        """One static modifier as a sentence about its subject."""
        kind = mod.get("type")
        if kind == "might":
            amount = self.amount(ctx, mod.get("amount", 0))
            sign = "-" if mod.get("negative") else "+"
            stat = isinstance(mod.get("amount"), Mapping) and mod["amount"].get("type") == "stat"
            if amount.num is not None and not stat:
                text = f"{subj.text} {subj.verb('have')} {sign}{amount.num} Might{amount.per}"
            else:
                own = "my" if subj.text == "I" else f"{subj.text}'s" if not subj.plural else "their"
                text = f"{_cap(own) if own == 'my' else own} Might is {'decreased' if sign == '-' else 'increased'} " \
                       f"by {amount.equal}"
            if _is_int(mod.get("minimum")):
                text += f", to a minimum of {mod['minimum']} Might"
            return text
        if kind == "cost":
            return self.cost_modifier(ctx, mod, subj)
        if kind == "enter_ready":
            return f"{subj.text} {subj.verb('enter')} ready"
        if kind == "enter_exhausted":
            return f"{subj.text} {subj.verb('enter')} exhausted"
        if kind == "restriction" and mod.get("restriction") == "cant_score_here":
            until = f" until their {_ordinal(mod['before_turn'])} turn" if _is_int(mod.get("before_turn")) else ""
            return f"{subj.text} can't score here{until}"
        if kind == "restriction":
            return self.restriction(ctx, str(mod.get("restriction")), subj)
        if kind == "play_location" and mod.get("location") == "only_battlefield_conquered_this_turn":
            return f"play {ctx.self_obj} only to a battlefield you conquered this turn"
        if kind == "play_location" and mod.get("location") == "battlefield_you_attack":
            return f"{ctx.self_subj.text} can be played to a battlefield you're attacking"
        if kind == "optional_cost_discount":
            which = f"[{_keyword_display(str(mod['cost']))}] costs" if isinstance(mod.get("cost"), str) \
                else "optional additional costs you pay"
            less = self.resources(mod.get("energy"), None, ctx)
            if isinstance(mod.get("or_power"), list):
                less += " or " + self.power(mod["or_power"])
            return f"{which} cost {less} less"
        if kind == "copy_text":
            return f"as {ctx.self_obj} is attached to a unit, copy that unit's text to {ctx.self_poss} effect text " \
                   f"for as long as {ctx.self_obj} is attached to it"
        if kind == "play_location" and mod.get("location") == "battlefield_with_lone_enemy":
            who = f"{ctx.self_subj.text} can" if subj.text in ("I", "this") else f"{subj.text} can"
            return f"{who} be played to an occupied battlefield if an enemy unit is alone there"
        if kind == "play_from":
            cost = ", ".join(self.cost_parts(ctx, mod.get("cost") or {}, symbols=True)) or "{0}"
            zone = _ZONES.get(str(mod.get("zone")), str(mod.get("zone")))
            return f"you may play {ctx.self_obj if subj.text in ('I', 'this') else subj.text} from your {zone} " \
                   f"for {cost.replace(', ', '')}"
        if kind == "show_facedown":
            return f"you can look at {self.poss(ctx, affects)} facedown cards"
        if kind == "damage_taken":
            times = mod.get("times", 2)
            how = "double" if times == 2 else f"multiply by {times}"
            return f"{how} all damage that would be dealt to {subj.text}"
        if kind == "play_location":
            where = {"open_battlefield": "an open battlefield", "occupied_enemy_battlefield":
                     "an occupied enemy battlefield", "battlefield_with_own_units":
                     "a battlefield where you control units", "any_battlefield": "any battlefield"}.get(
                str(mod.get("location")), _mark(f"location {mod.get('location')!r}"))
            if subj.text in ("I", "this"):
                return f"you may play {ctx.self_obj} to {where}"
            plural_where = where.replace("an open battlefield", "open battlefields")
            return f"{subj.text} may be played to {plural_where if subj.plural else where}"
        if kind == "bonus_damage":
            amount = mod.get("amount", 1)
            if mod.get("to_units_here"):
                return f"spells and abilities deal {amount} Bonus Damage to units here"
            if subj.text in ("you", "they"):
                return f"{ctx.your()} spells and abilities deal {amount} Bonus Damage"
            return f"{subj.text} {subj.verb('deal')} {amount} Bonus Damage"
        if kind == "prevent_damage":
            if mod.get("from") == "spell_or_ability":
                return f"prevent all spell and ability damage to {self.obj(ctx, affects)}"
            return f"{subj.text} {subj.verb('do')}n't take damage"
        if kind == "extra_trigger" and "event" in mod:
            event = str(mod["event"])
            doing = {"conquer": "conquering", "hold": "holding"}.get(event, event)
            here = " here" if mod.get("here") else ""
            return f"{ctx.your()} {event} effects for {doing}{here} trigger an additional time"
        if kind == "extra_trigger":
            kw = self.keyword_use(mod.get("keyword"), None)
            return f"{ctx.your()} {kw} effects trigger an additional time"
        if kind == "victory_score":
            amount = mod.get("amount", 1)
            return f"increase the points needed to win the game by {amount}"
        if kind == "buff_limit":
            amount = mod.get("amount", 1)
            if _is_int(amount) and amount >= 99:
                return f"{subj.text} can have any number of buffs"
            return f"{subj.text} can have up to {_word(amount) if _is_int(amount) else amount} " \
                   f"buff{'' if amount == 1 else 's'}"
        if kind == "buff_bonus":
            whom = self.obj(ctx, affects) if isinstance(affects, str) else subj.text
            return f"buffs give an additional +{mod.get('amount', 1)} Might to {whom}"
        if kind == "hide_cost":
            cost = self.pay(ctx, mod.get("cost"))
            if mod.get("optional"):
                return f"{ctx.you().text} may {cost} to hide a card with [Hidden] instead of {{Any}}"
            return f"to hide cards, {ctx.you().text} {cost} instead of {{Any}}"
        if kind == "hook":
            return self.hook(ctx, mod, subj)
        if kind == "grant_ability" and isinstance(mod.get("ability"), Mapping):
            return f'{subj.text} {subj.verb("have")} "{self.activated(ctx, mod["ability"], [])}"'
        return _mark(f"modifier type {kind!r}")

    def cost_modifier(self, ctx: Ctx, mod: Mapping[str, Any], subj: Phrase) -> str:
        more = "more" if mod.get("increase") else "less"
        energy = mod.get("energy")
        power = mod.get("power")
        parts = []
        if energy is not None:
            amount = self.amount(ctx, energy)
            if amount.num is not None:
                parts.append("{" + amount.num + "}" + f" {more}{amount.per}")
            else:
                poss = "this spell's" if subj.text == "this" and self.type == "spell" else (
                    "my" if subj.text == "I" else f"{subj.text}'s")
                verb = "increased" if more == "more" else "reduced"
                text = f"{poss} Energy cost is {verb} by {amount.equal}"
                if _is_int(mod.get("minimum")):
                    text += ", to a minimum of {" + str(mod["minimum"]) + "}"
                return text
        if power:
            times = self.amount(ctx, mod["power_times"]) if "power_times" in mod else None
            per = times.per if times is not None else ""
            if parts and per and parts[0].endswith(f" {more}{per}"):  # "{2}{Calm} less for each point ..."
                parts[0] = parts[0].split(" ", 1)[0] + f"{self.power(power)} {more}{per}"
            elif parts and not per and parts[0].endswith(f" {more}") and "power_times" not in mod:
                parts[0] = parts[0].split(" ", 1)[0] + f"{self.power(power)} {more}"  # "I cost {2}{Calm} less"
            else:
                parts.append(f"{self.power(power)} {more}{per}")
        if isinstance(mod.get("or_power"), list) and parts:
            parts[0] = parts[0].replace(f" {more}", f" or {self.power(mod['or_power'])} {more}", 1)
        if mod.get("ignore_energy"):
            return f"{subj.text} {subj.verb('cost')} nothing in Energy (ignoring {'their' if subj.plural else 'its'} " \
                   "Energy cost; the Power cost is still paid)"
        if not parts:
            return _mark("cost modifier without energy or power")
        chooses = mod.get("if_chooses")
        if isinstance(chooses, Mapping) and subj.text in ("this", "I") and chooses.get("pick") == "all":
            # a cost cut when the card chooses certain objects: "this costs {N} less if you choose <selection>"
            sel = {k: v for k, v in chooses.items() if k != "zone"}
            return f"{subj.text} {subj.verb('cost')} " + " and ".join(parts) + \
                f" if you choose {self.obj(ctx, {**sel, 'pick': 'target'})}"
        if "if_chooses" in mod:
            subj = Phrase(f"{subj.text} that choose {self.obj(ctx, mod['if_chooses'])}", plural=True)
        if subj.plural and energy is not None and not power and parts and "if_chooses" not in mod \
                and "or_power" not in mod and _is_int(mod.get("minimum")):
            amount = self.amount(ctx, energy)
            owner = subj.text + ("'" if subj.text.endswith("s") else "'s")
            verb = "increased" if more == "more" else "reduced"
            text = f"{owner} Energy costs are {verb} by {{{amount.num}}}{amount.per}"
        else:
            text = f"{subj.text} {subj.verb('cost')} " + " and ".join(parts)
        if _is_int(mod.get("minimum")):
            text += ", to a minimum of {" + str(mod["minimum"]) + "}"
        return text

    def restriction(self, ctx: Ctx, name: str, subj: Phrase) -> str:
        table = {
            "opponents_units_only_to_base": "opponents can only play units to their base",
            "cant_ready_enemy": "spells and abilities can't ready enemy units and gear",
            "cant_move_to_base": (f"{subj.text[:-5]} can't move from here to base" if subj.text.endswith(" here")
                                  else f"{subj.text} can't move to base"),
            "opponents_cant_play": "opponents can't play cards",
            "hidden_cant_be_revealed": f"{subj.text} can't be revealed",
            "no_move": f"{subj.text} can't move",
            "cant_gain_points": f"{subj.text} can't gain points",
            "no_units_played_here": "units can't be played here",
            "cant_be_readied": f"{subj.text} can't be readied",
            "cant_play_spells": f"{subj.text} can't play spells",
        }
        return table.get(name, _mark(f"restriction {name!r}"))

    def hook(self, ctx: Ctx, mod: Mapping[str, Any], subj: Phrase) -> str:
        hook, value = str(mod.get("hook")), mod.get("value")
        if hook == "damage_assignment":
            return f"{subj.text} must be assigned combat damage {'first' if value == 'first' else 'last'}"
        if hook == "timing":
            return f"{subj.text} {subj.verb('have')} [{str(value).capitalize()}]"
        if hook == "standard_move":
            return f"{subj.text} can move from battlefield to battlefield"
        if hook == "targeting_tax":
            return f"opponents must pay {{Any}} x{value} more to choose {ctx.self_obj} with a spell or ability"
        if hook == "hide":
            return f"{subj.text} can be hidden"
        if hook == "reaction_when_played_to":
            return f"{subj.text} can be played with Reaction timing to a battlefield where you control units"
        if hook == "stays_at_battlefield":
            return f"{subj.text} {subj.verb('stay')} at its battlefield"
        if hook == "look_before_reveal":
            return "before you reveal cards from your deck, you may look at its top card and recycle it"
        if hook == "add_when_revealed":
            return f"as {ctx.self_obj} is revealed from your deck, [Add] {{{value}}}"
        if hook == "equipment_bonus_times":
            times = "double" if value == 2 else f"{value} times"
            return f"each Equipment attached to {ctx.self_obj} gives {times} its base Might bonus"
        if hook == "tag":
            return f"{subj.text} {subj.verb('be')} {_article(str(value))} {value}"
        if hook == "chosen_by":
            return f"{subj.text} can't be chosen by enemy spells and abilities"
        if hook == "event_alias":
            events = str(value).split()
            if len(events) == 2:
                return f"{ctx.self_poss} {events[1]} effects are also {events[0]} effects, and vice versa"
            return f"{ctx.self_poss} {' and '.join(events)} effects are also each other's"
        if hook == "add_energy":
            return f"{subj.text} [Add] an additional {{{value}}}"
        if hook == "combat_damage":
            return f"{subj.text} {subj.verb('do')}n't deal combat damage" if value == "none" else \
                f"{subj.text} {subj.verb('deal')} {value} combat damage"
        if hook == "move_tax":
            each = "{Any}" if value == 1 else "{Any}" * int(value) if _is_int(value) else "{Any}"
            return f"opponents must pay {each} for each unit beyond the first to move multiple units to " \
                   f"{ctx.self_poss} battlefield at the same time"
        if hook == "any_damage_lethal":
            return f"any amount of your damage is enough to kill {subj.text}"
        if hook == "keyword_doesnt_trigger":
            where = " at my battlefield" if subj.text.endswith(" here") or "here" in subj.text else ""
            return f"your [{_keyword_display(str(value))}] effects{where} don't trigger"
        if hook == "move_here_from":
            return "units can move here from anywhere"
        if hook == "named_tag":
            return f"{subj.text} named the {value} tag"
        if hook == "replaced_battlefield":
            return f"{subj.text} replaced another battlefield"
        if hook == "extra_hidden_cards":
            n = value if _is_int(value) else 1
            return "you may hide an additional card here" if n == 1 else f"you may hide {n} additional cards here"
        return _mark(f"hook {hook}={value!r}")

    def replacement_text(self, ctx: Ctx, body: Mapping[str, Any], head: str) -> str:
        if "if" in body:
            head += f" and {self.condition(ctx, body['if'])}"
        instead = self.text(ctx, body.get("instead"))
        cost = body.get("cost")
        who = "its controller" if body.get("controlled_by") == "its_controller" else "you"
        if cost:
            action = f"{self.pay(ctx.base_verbs(), cost)} to {instead}"
            action = f"{who} may {action}" if body.get("optional") else action
        else:
            action = f"you may {instead}" if body.get("optional") else instead
        return f"{head}, {action} instead"

    def labels(self, ability: Mapping[str, Any]) -> list[str]:
        out = []
        cond = _step_condition(ability.get("condition"))
        label = ability.get("keyword")
        if isinstance(cond, Mapping) and cond.get("type") == "keyword":
            out.append(self.keyword_label(cond))
        elif isinstance(label, str):
            out.append(f"[{_keyword_display(label)}]")
        return out

    def ability(self, ability: Node, head: str = "") -> str:
        """One ability as a line of text (``head``: a trigger text to use instead of its own)."""
        if not isinstance(ability, Mapping):
            return _mark(f"ability {ability!r}")
        kind = ability.get("kind")
        ctx = self.base
        labels = self.labels(ability)
        cond = _step_condition(ability.get("condition"))
        prefix = ""
        if isinstance(cond, Mapping) and cond.get("type") != "keyword":
            prefix = f"While {self.condition(ctx, cond)}: "
        if kind == "spell":
            text = _end(_cap(self.text(ctx, ability.get("effect"))))
        elif kind == "triggered" and not head and self.implied_trigger(ability):
            # "[Deathknell] — Draw 1.": the keyword's label says when (808)
            cond = f"if {self.condition(ctx, ability['if'])}, " if "if" in ability else ""
            effect = self.text(ctx, ability.get("effect"))
            text = _end(_cap(cond + (f"you may {effect}" if ability.get("optional") else effect)))
        elif kind == "triggered":
            text = self.triggered(ctx, ability, head)
        elif kind == "activated":
            return prefix + self.activated(ctx, ability, labels)
        elif kind == "static":
            text = _end(". ".join(_cap(s) for s in self.static_clauses(ctx, ability)))
            mods = ability.get("modifiers")
            if prefix and ability.get("affects", "self") == "self" and self.type == "unit" \
                    and cond == {"type": "is", "subject": "self", "state": "at_battlefield"} \
                    and isinstance(mods, list) and all(isinstance(m, Mapping) and m.get("type") == "enter_ready"
                                                       for m in mods):
                rest = text if text.startswith("I ") else text[0].lower() + text[1:]
                text, prefix = f"If you play {ctx.self_obj} to a battlefield, {rest}", ""
        elif kind == "replacement":
            head = "If " + self.would(ctx, ability.get("replaces"))
            text = _end(_cap(self.replacement_text(ctx, ability, head)))
        elif kind == "additional_cost":
            text = self.additional_cost(ctx, ability)
            if prefix:  # "If you've played a spell this turn, you may pay {Chaos} as an additional cost ..."
                text, prefix = f"If {self.condition(ctx, cond)}, {text[0].lower()}{text[1:]}", ""
        else:
            text = _mark(f"unknown ability kind {kind!r}")
        if isinstance(cond, Mapping) and cond.get("type") == "keyword" and self.superseded(cond) \
                and text.endswith("."):
            text = text[:-1] + " instead."  # "[Level 6] — I cost {4} less instead." (a lower level's step ends)
        if labels:
            text = ", ".join(labels) + " — " + text
        return prefix + text

    def superseded(self, cond: Mapping[str, Any]) -> bool:
        """Whether another ability of the card holds only until this keyword condition holds (a step of
        a [Level] ladder: "[Level 3] ... [Level 6] ... instead")."""
        for other in self.card.get("abilities") or []:
            step = other.get("condition") if isinstance(other, Mapping) else None
            if isinstance(step, Mapping) and step.get("type") == "all" and _step_condition(step) is not step \
                    and {"type": "not", "of": dict(cond)} in step.get("of", []):
                return True
        return False

    def implied_trigger(self, ability: Mapping[str, Any]) -> bool:
        """Whether a labelled triggered ability's trigger is its keyword's own (Deathknell: 'when I die')."""
        label = ability.get("keyword")
        catalog = self.catalog if self.catalog is not None else _installed_catalog()
        kw = catalog.keywords.get(_norm_kw(label)) if isinstance(label, str) and catalog is not None else None
        return kw is not None and any(isinstance(a, Mapping) and a.get("kind") == "triggered"
                                      and a.get("when") == ability.get("when") for a in kw.abilities)

    def triggered(self, ctx: Ctx, ability: Mapping[str, Any], head: str = "") -> str:
        t = ability.get("when")
        zone = t.get("from_zone") if isinstance(t, Mapping) and t.get("event") != "discard" else None
        inner = replace(ctx, zone=str(zone)) if isinstance(zone, str) else ctx
        if isinstance(t, Mapping) and t.get("to_battlefield"):
            inner = replace(inner, destination="that battlefield")
        if not head and isinstance(t, Mapping) and t.get("event") in ("attack", "defend") and t.get("player") \
                and "subject" not in t and not t.get("here") and "event_location" in _leaves(ability.get("effect")):
            # the battlefield of a player's attack or defence, used by the effect: named in the trigger
            head = self.trigger(inner, t) + " at a battlefield"
            inner = replace(inner, event_there=True)
        head = head or self.trigger(inner, t)
        if isinstance(t, Mapping) and t.get("controlled_by") == "event_player":
            inner = replace(inner, they=True)  # the acting player controls it: "they may give a unit they control"
        cond = f"if {self.condition(inner, ability['if'])}, " if "if" in ability else ""
        left = ability["if"].get("left") if isinstance(ability.get("if"), Mapping) else None
        if isinstance(left, Mapping) and left.get("type") == "variable" and set(left) == {"type", "name"}:
            inner = replace(inner, said=str(left["name"]))  # a later "deal that much" refers back to it
        if ability.get("if") == {"type": "showdown"}:
            head, cond = f"{head} during a showdown", ""  # "When you play a unit during a showdown, ..."
        if ability.get("if") == {"type": "is", "subject": "self", "state": "controlled"}:
            # "While you control this battlefield, when you play a spell, ..."
            head, cond = f"While {self.condition(inner, ability['if'])}, {head[0].lower()}{head[1:]}", ""
        effect = self.text(inner, ability.get("effect"))
        if ability.get("optional"):
            effect = f"{inner.you().text} may {effect}"
        text = _end(f"{head}, {cond}{effect}")
        if ability.get("once_per_turn"):
            text = "Once each turn, " + (text if text.startswith(("I ", "I'")) else text[0].lower() + text[1:])
        return text

    def reduction(self, ctx: Ctx, cost: Node) -> tuple[Node, str]:
        """An ability cost whose Energy shrinks ({4} minus 1 for each ...): the cost as printed and
        the sentence that says how it shrinks ("This ability costs {1} less for each ...")."""
        energy = cost.get("energy") if isinstance(cost, Mapping) else None
        if not isinstance(energy, Mapping) or not _is_int(energy.get("times")) or energy["times"] >= 0 \
                or not _is_int(energy.get("plus")) or energy["plus"] <= 0:
            return cost, ""
        assert isinstance(cost, Mapping)
        less = self.amount(ctx, {k: v for k, v in energy.items() if k not in ("times", "plus")})
        step = -int(energy["times"])
        if less.per and less.num is not None:
            note = f"This ability costs {{{step}}} less{less.per}."
        else:
            note = f"This ability's Energy cost is reduced by {('twice ' if step == 2 else '') + less.equal}."
        return {**cost, "energy": energy["plus"]}, note

    def activated(self, ctx: Ctx, ability: Mapping[str, Any], labels: list[str]) -> str:
        cost, note = self.reduction(ctx, ability.get("cost") or {})
        parts = self.cost_parts(ctx, cost, symbols=True)
        head = ", ".join(parts) if parts else "{0}"
        timing = ability.get("timing")
        tags = ([f"[{str(timing).capitalize()}]"] if timing in ("action", "reaction") else []) + labels
        effect = _end(_cap(self.text(ctx, ability.get("effect"))))
        if tags and self.styled("labels_before_cost"):  # "[Level 6] — [Reaction] — {Exhaust}: ..."
            head = " — ".join(labels + tags[:len(tags) - len(labels)]) + " — " + head
        elif tags:
            effect = ", ".join(tags) + " — " + effect
        extra = [note] if note else []
        short = self.styled("use_only")
        if "only_while" in ability and ability["only_while"] != self.shared_only_while():
            cond = ability["only_while"]
            # a condition about what happened this turn is an "if", a state is a "while"
            word = "if" if short and isinstance(cond, Mapping) and cond.get("type") == "history" else "while"
            extra.append(f"Use {'' if short else 'this ability '}only {word} {self.condition(ctx, cond)}.")
        if ability.get("once_per_turn"):
            extra.append("Use only once per turn." if short else "Use this ability only once each turn.")
        return " ".join([f"{head}: {effect}"] + extra)

    def shared_only_while(self) -> Node:
        """The condition every activated ability of the card is limited by, when it has two or more
        and they share it: said once for all of them, after the last, else None."""
        activated = [a for a in self.card.get("abilities") or []
                     if isinstance(a, Mapping) and a.get("kind") == "activated"]
        conds = [a.get("only_while") for a in activated]
        if len(conds) < 2 or conds[0] is None or any(c != conds[0] for c in conds):
            return None
        return conds[0]

    def additional_cost(self, ctx: Ctx, ability: Mapping[str, Any]) -> str:
        cost = ability.get("cost")
        pay = self.pay(ctx, cost)
        what = "this" if self.type == "spell" else ctx.self_obj
        if not ability.get("optional"):
            return f"As an additional cost to play {what}, {pay}."
        eoc = ability.get("effect_on_cost")
        if eoc == {"ignore_cost": True} and isinstance(cost, Mapping) and set(cost) <= {"energy", "power"}:
            return f"You may play {what} for {''.join(self.cost_parts(ctx, cost, symbols=True))}."
        if self.styled("additional_cost_to_play"):
            text = f"You may {pay} as an additional cost to play {what}."
        else:
            text = f"As you play {what}, you may {pay} as an additional cost."
        eoc = ability.get("effect_on_cost")
        if isinstance(eoc, Mapping) and eoc:
            text += f" If you do, {self.cost_effect(ctx, eoc, cost)}."
        return text

    def cost_effect(self, ctx: Ctx, eoc: Mapping[str, Any], cost: Node) -> str:
        parts = []
        mine = "this spell's" if self.type == "spell" else ctx.self_poss
        per = ""
        if eoc.get("per_unit") and isinstance(cost, Mapping):
            per = " for each buff you spend" if "spend_buff" in cost else " for each unit killed this way"
        less = self.styled("additional_cost_to_play")
        for key, amount in (("reduce_energy", "energy"), ("reduce_power", "power")):
            if not eoc.get(key):
                continue
            shown = self.resources(eoc[key], None, ctx) if amount == "energy" else self.power(eoc[key])
            if less:
                subj = "this" if self.type == "spell" else ctx.self_subj.text
                parts.append(f"{subj} {'costs' if subj == 'this' else 'cost'} {shown} less{per}")
            else:
                parts.append(f"reduce {mine} cost by {shown}{per}")
        if eoc.get("reduce_by_killed_cost"):
            subj = "this" if self.type == "spell" else ctx.self_subj.text
            parts.append(f"{subj} {'costs' if subj == 'this' else 'cost'} {{1}} less for each Energy it costs and "
                         f"{self.power(eoc['reduce_by_killed_cost'])} less for each Power it costs")
        if eoc.get("ignore_cost"):
            parts.append(f"ignore {mine} cost")
        if eoc.get("enter_ready"):
            parts.append(f"{ctx.self_subj.text} {ctx.self_subj.verb('enter')} ready")
        return _series(parts) or _mark("additional cost without effect")

    # --- keywords and cards ----------------------------------------------------------------------

    def reminder(self, keyword: str, value: Node) -> str:
        if not self.reminders or self.catalog is None:
            return ""
        kw = self.catalog.keywords.get(re.sub(r"[^a-z0-9]+", "_", keyword.lower()).strip("_"))
        if kw is None or not kw.summary:
            return ""
        summary = re.sub(r"\bX\b", str(value), kw.summary) if _is_int(value) else kw.summary
        return f" ({summary.rstrip('.')}.)"

    def keyword_line(self, entry: Node) -> str:
        if isinstance(entry, str):
            return f"[{_keyword_display(entry)}]" + self.reminder(entry, None)
        if isinstance(entry, Mapping) and len(entry) == 1:
            name, value = next(iter(entry.items()))
            shown = _keyword_display(str(name))
            if _is_int(value):
                return f"[{shown} {value}]" + self.reminder(str(name), value)
            if isinstance(value, Mapping) and "type" in value:
                if self.type != "unit" and any(
                        isinstance(a, Mapping) and a.get("kind") == "triggered" and a.get("effect") == value
                        and a.get("when") == {"event": "played", "subject": "self"} and "if" not in a
                        for a in self.card.get("abilities") or []):
                    # the same instructions as its own "When you play this": "Repeat this gear's play effect."
                    return f"[{shown}] — Repeat this {self.type}'s play effect." + self.reminder(str(name), None)
                return f"[{shown}] — {_end(_cap(self.text(self.base, value)))}" + self.reminder(str(name), None)
            if isinstance(value, Mapping):
                value, note = self.reduction(self.base, value)
                cost = ", ".join(self.cost_parts(self.base, value, symbols=True)) or "{0}"
                return f"[{shown}] {cost}" + (f". {note}" if note else "") + self.reminder(str(name), None)
        return _mark(f"keyword {entry!r}")

    def label_keywords(self) -> set[str]:
        """Keywords that label abilities ([Legion] — ...) and need no line of their own."""
        found: set[str] = set()

        def walk(node: Node, key: str = "") -> None:
            if isinstance(node, Mapping):
                if key in _CONDITION_KEYS and node.get("type") == "keyword" and isinstance(node.get("keyword"), str):
                    found.add(_norm_kw(node["keyword"]))
                label = node.get("keyword")
                if "kind" in node and isinstance(label, str):
                    found.add(_norm_kw(label))
                for child_key, value in node.items():
                    walk(value, str(child_key))
            elif isinstance(node, list):
                for value in node:
                    walk(value, key)
        walk(self.card.get("abilities"))
        return found

    def lines(self) -> list[str]:
        """The card's text, one line per keyword and ability."""
        out: list[str] = []
        labels = self.label_keywords()
        keywords = self.card.get("keywords")
        last: list[str] = []  # keywords whose parameter is an effect (Deathknell) are printed after the abilities
        for entry in keywords if isinstance(keywords, list) else []:
            name = entry if isinstance(entry, str) else next(iter(entry), "") if isinstance(entry, Mapping) else ""
            if isinstance(entry, str) and _norm_kw(name) in labels:
                continue
            effect_param = isinstance(entry, Mapping) and isinstance(next(iter(entry.values()), None), Mapping) \
                and "type" in next(iter(entry.values()))
            (last if effect_param else out).append(_safe(self.keyword_line, entry))
        abilities = self.card.get("abilities")
        abilities = abilities if isinstance(abilities, list) else []
        last_activated: int | None = None  # the line of the last activated ability
        i = 0
        while i < len(abilities):
            ability = abilities[i]
            group = [ability]
            while i + len(group) < len(abilities) and _same_but_trigger(ability, abilities[i + len(group)]) \
                    and _is_effect_text(abilities[i + len(group)]) == _is_effect_text(ability):
                group.append(abilities[i + len(group)])
            while i + len(group) < len(abilities) and _same_while(ability, abilities[i + len(group)]):
                group.append(abilities[i + len(group)])
            if len(group) > 1 and ability.get("kind") == "static":
                out.append(_safe(self.merged_statics, group))
                i += len(group)
                continue
            if _is_effect_text(ability):
                # 150.2: effect text, written for the unit the card is attached to ("I" is that unit)
                unit = Renderer({**self.card, "type": "unit"}, self.catalog, self.reminders)
                label = "[Equipped unit gets:] " if self.card.get("equipment") else "Effect text: "
                keywords = _keywords_only(ability)
                if keywords is not None:
                    out.append(label + " ".join(self.keyword_use(k, v) for k, v in keywords))
                elif len(group) > 1:
                    out.append(label + _safe(unit.merged_triggers, group))
                else:
                    out.append(label + _safe(unit.ability, ability))
                i += len(group)
                continue
            if len(group) > 1:
                out.append(_safe(self.merged_triggers, group))
            else:
                out.append(_safe(self.ability, ability))
                if isinstance(ability, Mapping) and ability.get("kind") == "activated":
                    last_activated = len(out) - 1
            i += len(group)
        shared = self.shared_only_while()
        if shared is not None and last_activated is not None:
            owner = self.base.self_poss if self.type in ("unit", "legend") else "its"
            when = _safe(lambda c: self.condition(self.base, c), shared)
            out[last_activated] += f" Use {owner} abilities only while {when}."
        return out + last

    def merged_statics(self, group: list[Mapping[str, Any]]) -> str:
        """Static abilities under one condition: 'While C, A, and B.'"""
        ctx = self.base
        clauses = [s for a in group for s in self.static_clauses(ctx, {k: v for k, v in a.items() if k != "while"})]
        return _end(f"While {self.condition(ctx, group[0]['while'])}, {_series(clauses)}")

    def merged_triggers(self, group: list[Mapping[str, Any]]) -> str:
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
            middle = _series([" ".join(t[:len(t) - suffix]) for t in tails], "or")
            head = " ".join(x for x in [" ".join(words[0][:common]), middle, ends] if x)
        else:
            head = self.self_events(ctx, [a.get("when") for a in group]) or (
                heads[0] + "".join(" or " + h[:1].lower() + h[1:] for h in heads[1:]))
        return self.ability(group[0], head=head)

    def self_events(self, ctx: Ctx, triggers: list[Node]) -> str:
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
        return "When " + _series(shown, "or")

_MORE_KEYWORDS = "\x00more_keywords"
_MORE_TARGETS = "\x00more_targets"


def _type_cases(steps: Sequence[Node]) -> list[tuple[str, Node]]:
    """Leading steps "if it is a spell, X", "if it is a gear, Y", ... about one object: (type, effect)."""
    cases: list[tuple[str, Node]] = []
    among = None
    for step in steps:
        cond = step.get("condition") if isinstance(step, Mapping) and step.get("type") == "if" \
            and "else" not in step else None
        what = cond.get("what") if isinstance(cond, Mapping) and cond.get("type") == "exists" \
            and set(cond) == {"type", "what"} else None
        if not isinstance(what, Mapping) or set(what) - {"pick", "what", "zone", "among"} \
                or not isinstance(what.get("among"), str) or (among is not None and what["among"] != among):
            break
        among = what["among"]
        cases.append((str(what.get("what")), step["then"]))
    return cases


def _attached_givers(keywords: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """One keyword whose value counts what is attached to the unit that has it: what is counted
    (without the 'attached to it'), else None."""
    value = keywords[0].get("value") if len(keywords) == 1 else None
    of = value.get("of") if isinstance(value, Mapping) and value.get("type") == "count" \
        and set(value) == {"type", "of"} else None
    where = of.get("where") if isinstance(of, Mapping) and of.get("pick") == "all" else None
    if not isinstance(where, Mapping) or where.get("attached_to") != "event_subject":
        return None
    assert isinstance(of, Mapping)
    return {**of, "where": {k: v for k, v in where.items() if k != "attached_to"}}


def _granted_tag(eff: Node) -> str | None:
    """The tag an effect gives its own source for good ("I'm a Bird"), else None."""
    if not isinstance(eff, Mapping) or eff.get("type") != "create_effect" or eff.get("affects") != "self" \
            or eff.get("duration") != "permanent":
        return None
    mods = (eff.get("static") or {}).get("modifiers")
    if isinstance(mods, list) and len(mods) == 1 and isinstance(mods[0], Mapping) \
            and mods[0].get("type") == "hook" and mods[0].get("hook") == "tag":
        return str(mods[0].get("value"))
    return None


def _step_condition(cond: Node) -> Node:
    """A keyword condition that holds until another does ([Level 3] but not [Level 6]: a step of a
    ladder) is labelled by its first keyword; any other condition is itself."""
    parts = cond.get("of") if isinstance(cond, Mapping) and cond.get("type") == "all" else None
    if isinstance(parts, list) and len(parts) >= 2 and isinstance(parts[0], Mapping) \
            and parts[0].get("type") == "keyword" \
            and all(isinstance(p, Mapping) and p.get("type") == "not" and isinstance(p.get("of"), Mapping)
                    and p["of"].get("type") == "keyword" for p in parts[1:]):
        return parts[0]
    return cond


def _chosen_inline(out: list[Clause], steps: list[Node]) -> list[Clause]:
    """'Choose a unit. Deal 2 to it.' said as 'Deal 2 to a unit.' (the chosen object named where it's used)."""
    first = steps[0] if steps else None
    if len(out) < 2 or not isinstance(first, Mapping) or first.get("type") != "select" or not out[0].obj \
            or out[0].verb not in ("choose", "chooses") or out[1].text.startswith(("if ", "it ", "choose")):
        return out
    match = re.search(r"\bit\b", out[1].text)
    if match is None or match.start() == 0 or out[1].text[match.end():].startswith(" and no other"):
        return out  # "chooses it and no other friendly unit": the chosen one is named first
    text = out[1].text[:match.start()] + out[0].obj + out[1].text[match.end():]
    return [replace(out[1], text=text)] + out[2:]


def _leaves(node: Node) -> set[str]:
    """Every string value inside a script node."""
    if isinstance(node, str):
        return {node}
    if isinstance(node, Mapping):
        return set().union(*(_leaves(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_leaves(v) for v in node)) if node else set()
    return set()


def _about_the_turn(cond: Mapping[str, Any]) -> bool:
    """A comparison of something done so far this turn (read with 'if', not 'while')."""
    left = cond.get("left")
    return cond.get("type") == "compare" and isinstance(left, Mapping) and left.get("type") == "stat" \
        and left.get("stat") in ("power_spent_this_turn", "cards_played_this_turn", "moves_this_turn",
                                 "hold_points_this_turn")


def _unless(steps: Sequence[Node]) -> bool:
    """Whether the steps begin with another player's "may" (a cost or an effect, not both) followed by
    an effect done only if they didn't."""
    if len(steps) < 2 or not isinstance(steps[0], Mapping) or not isinstance(steps[1], Mapping):
        return False
    may, step = steps[0], steps[1]
    return may.get("type") == "may" and may.get("chooser") in ("its_controller", "opponent") \
        and ("effect" in may) != ("cost" in may) and step.get("type") == "if" and "else" not in step \
        and step.get("condition") == {"type": "not", "of": {"type": "did", "what": "succeed"}}


def _merge_gives(clauses: list[Clause]) -> list[Clause]:
    """Two things given in a row to the same object for the same time, said in one clause
    ("give a unit A this turn", "give it B this turn" -> "give a unit A and B this turn")."""
    out: list[Clause] = []
    for clause in clauses:
        prev = out[-1] if out else None
        duration = next((d for d in (" this turn", " this combat") if clause.text.endswith(d)), "")
        verb = clause.text.split(" ", 1)[0]
        if prev is not None and duration and verb in ("give", "gives") and clause.group == "ref" \
                and clause.text.startswith(f"{verb} it ") and prev.text.startswith(f"{verb} ") \
                and prev.text.endswith(duration) and not prev.subject and ", where" not in prev.text:
            added = clause.text[len(f"{verb} it "):]
            out[-1] = replace(prev, text=f"{prev.text[:-len(duration)]} and {added}", verb="", obj="")
        else:
            out.append(clause)
    return out


def _same_subject(sentences: list[str], subject: str) -> list[str]:
    """'I cost {2} less. I enter ready.' said as 'I cost {2} less and enter ready'."""
    head = subject + " "
    if len(sentences) < 2 or not all(s.startswith(head) and ", " not in s for s in sentences):
        return sentences
    rests = [s[len(head):] for s in sentences]
    verb = rests[0].split(" ")[0] + " "
    return [head + _series(rests[:1] + [r[len(verb):] if r.startswith(verb) else r for r in rests[1:]])]


def _did_kill_after_kill(prev: Any, step: Any) -> Any:
    """"Kill a unit. If you do, ...": right after a kill, 'did kill' reads as the printed "If you do"
    (after damage it stays "if this kills it"); after another player's "may", "if they do / don't"."""
    if isinstance(prev, Mapping) and prev.get("type") == "kill" and isinstance(step, Mapping) \
            and step.get("type") == "if" and step.get("condition") == {"type": "did", "what": "kill"}:
        return {**step, "condition": {"type": "did", "what": "succeed"}}
    if isinstance(prev, Mapping) and prev.get("type") == "may" and prev.get("chooser") in ("its_controller", "opponent") \
            and isinstance(step, Mapping) and step.get("type") == "if":
        cond = step.get("condition")
        if cond == {"type": "did", "what": "succeed"}:
            return {**step, "condition": {"type": "did", "what": "they_succeed"}}
        if cond == {"type": "not", "of": {"type": "did", "what": "succeed"}}:
            return {**step, "condition": {"type": "did", "what": "they_fail"}}
    return step


def _merge_grants(steps: list[Node]) -> list[Node]:
    """Keywords given one after the other to the same object: 'give a unit [Shield 3] and [Tank] this turn'."""
    out: list[Node] = []
    for step in steps:
        prev = out[-1] if out else None
        if isinstance(step, Mapping) and isinstance(prev, Mapping) and step.get("type") == prev.get("type") == \
                "grant_keyword" and step.get("target") in ("target", "it") and \
                step.get("duration") == prev.get("duration") and set(step) <= {"type", "target", "keyword", "value",
                                                                                 "duration", "note"}:
            more = list(prev.get(_MORE_KEYWORDS) or []) + [(step.get("keyword"), step.get("value"))]
            out[-1] = {**prev, _MORE_KEYWORDS: more}
        elif isinstance(step, Mapping) and isinstance(prev, Mapping) and step.get("type") == prev.get("type") == \
                "return_to_hand" and set(step) == set(prev) == {"type", "target"} and \
                isinstance(step["target"], Mapping) and isinstance(prev["target"], Mapping) and \
                not {step["target"].get("zone"), prev["target"].get("zone")} - {None, "board"}:
            out[-1] = {**prev, _MORE_TARGETS: list(prev.get(_MORE_TARGETS) or []) + [step["target"]]}
        elif isinstance(step, Mapping) and isinstance(prev, Mapping) and step.get("type") == "grant_keyword" and \
                prev.get("type") == "modify_might" and _is_int(prev.get("amount")) and \
                step.get("target") in ("target", "it") and step.get("duration") == prev.get("duration") and \
                set(step) <= {"type", "target", "keyword", "value", "duration", "note"} and \
                set(prev) <= {"type", "target", "amount", "negative", "duration", "note"}:
            # "give one of your other units here +3 Might and [Tank] this turn"
            more = list(prev.get(_MORE_KEYWORDS) or []) + [(step.get("keyword"), step.get("value"))]
            out[-1] = {**prev, _MORE_KEYWORDS: more}
        else:
            out.append(step)
    return out


def _hoist_named_locations(step: Node) -> tuple[list[Mapping[str, Any]], Node]:
    """Named target locations inside a step's selections ("at a battlefield, as: x"), to be chosen
    in a sentence of their own ("Choose a battlefield. ... there")."""
    if not isinstance(step, Mapping):
        return [], step
    chosen: list[Mapping[str, Any]] = []
    out = dict(step)
    for key in ("target", "card", "a", "b", "of"):
        sel = step.get(key)
        where = sel.get("where") if isinstance(sel, Mapping) else None
        at = where.get("at") if isinstance(where, Mapping) else None
        if isinstance(sel, Mapping) and isinstance(where, Mapping) and isinstance(at, Mapping) \
                and isinstance(at.get("as"), str) and at.get("pick") == "target":
            chosen.append(at)
            out[key] = {**sel, "where": {**where, "at": {"named": at["as"]}}}
    return chosen, out


def _norm_kw(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _same_while(a: Node, b: Node) -> bool:
    """Two static abilities of the card's own under the same 'while' condition (and nothing else)."""
    plain = {"kind", "affects", "modifiers", "while", "id"}
    return isinstance(a, Mapping) and isinstance(b, Mapping) and a.get("kind") == b.get("kind") == "static" \
        and "while" in a and a.get("while") == b.get("while") and set(a) <= plain and set(b) <= plain


def _same_but_trigger(a: Node, b: Node) -> bool:
    if not (isinstance(a, Mapping) and isinstance(b, Mapping)):
        return False
    if a.get("kind") != "triggered" or b.get("kind") != "triggered":
        return False
    strip = ("when", "id")
    return {k: v for k, v in a.items() if k not in strip} == {k: v for k, v in b.items() if k not in strip} \
        and a.get("when") != b.get("when")


def _safe(func: Any, node: Node) -> str:
    """Render one line; an unexpected shape becomes an explicit marker, never an exception."""
    try:
        result = func(node)
        return str(result)
    except Exception as exc:  # the renderer must never crash on a script
        return _mark(f"could not render: {type(exc).__name__}: {exc}")


@functools.lru_cache(maxsize=1)
def _installed_catalog() -> Catalog | None:
    """The installed catalog, for token facts when the caller gave none."""
    try:
        from riftscript.core.catalog import load_catalog
        return load_catalog(strict=False)
    except Exception:  # token facts are optional: render without them
        return None


def _raw(card: CardDef | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(card, CardDef):
        return card.raw
    return card


def _keywords_only(ability: Mapping[str, Any]) -> list[tuple[Node, Node]] | None:
    """The keywords of a static ability that only gives its own object keywords ("[Equipped unit
    gets:] [Tank]"), else None."""
    mods = ability.get("modifiers")
    if ability.get("kind") != "static" or ability.get("affects", "self") != "self" or "while" in ability \
            or "condition" in ability or not isinstance(mods, list) or not mods:
        return None
    if not all(isinstance(m, Mapping) and m.get("type") == "keyword" and set(m) <= {"type", "keyword", "value"}
               for m in mods):
        return None
    return [(m.get("keyword"), m.get("value")) for m in mods]


def _is_effect_text(ability: Any) -> bool:
    return isinstance(ability, Mapping) and bool(ability.get("effect_text"))


def render_lines(card: CardDef | Mapping[str, Any], catalog: Catalog | None = None,
                 reminders: bool = False) -> list[str]:
    """The rendered text of a card, one line per keyword and ability."""
    return Renderer(_raw(card), catalog, reminders).lines()


def render_card(card: CardDef | Mapping[str, Any], catalog: Catalog | None = None, reminders: bool = False) -> str:
    """English rules text of a card (a CardDef or a card script mapping), lines joined by newlines.

    ``catalog`` supplies token facts and keyword summaries (default: the installed catalog, loaded
    only when a token is created); ``reminders`` adds each keyword's summary in parentheses.
    """
    return "\n".join(render_lines(card, catalog, reminders))


def render_effect(effect: Mapping[str, Any], card_type: str = "spell", catalog: Catalog | None = None) -> str:
    """English text of one effect node, as on a card of ``card_type``."""
    renderer = Renderer({"type": card_type}, catalog)
    return _safe(lambda e: _end(_cap(renderer.text(renderer.base, e))), effect)
