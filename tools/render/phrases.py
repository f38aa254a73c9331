"""The words and small sentence helpers every part of the renderer uses: numbers, articles,
nouns, zones, states, verb agreement (``Phrase``, ``Ctx``), clauses and amounts, and the helpers that
read a script's shape (which steps share a subject, which grant keywords, ...)."""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from riftscript.core.script.cards import CardDef
from riftscript.core.script.catalog import Catalog
from riftscript.core.engine.effects import WORDS as LANGUAGE_WORDS
from riftscript.core.script.registry import LanguageWord

Node = Any

MARK_OPEN = "‹"
MARK_CLOSE = "›"

WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve")
ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")
NOUNS = {
    "unit": ("unit", "units"), "gear": ("gear", "gear"), "spell": ("spell", "spells"),
    "card": ("card", "cards"), "rune": ("rune", "runes"), "battlefield": ("battlefield", "battlefields"),
    "legend": ("legend", "legends"), "player": ("player", "players"),
    "chain_item": ("spell or ability", "spells and abilities"), "location": ("location", "locations"),
    "permanent": ("unit or gear", "units and gear"),
}
ZONES = {
    "hand": "hand", "trash": "trash", "main_deck": "Main Deck", "rune_deck": "rune deck",
    "champion_zone": "Champion Zone", "banishment": "banishment", "board": "board", "chain": "chain",
    "facedown": "facedown zone",
}
PHASES = {"awaken": "Awaken", "beginning": "Beginning", "channel": "Channel", "draw": "Draw",
           "main": "Main", "ending": "Ending"}
STATES = {
    "attacker": "attacking", "defender": "defending", "attacking_alone": "attacking alone",
    "defending_alone": "defending alone", "at_battlefield": "at a battlefield", "at_base": "in a base",
    "buffed": "buffed", "stunned": "stunned", "mighty": "[Mighty]", "damaged": "damaged",
    "exhausted": "exhausted", "ready": "ready", "token": "a token", "in_combat": "in combat",
    "facedown": "facedown", "on_board": "on the board", "alive": "still on the board",
    "in_hand": "in a hand", "one_on_one": "in a one-on-one combat", "was_mighty": "[Mighty]",
    "in_showdown": "in a showdown", "died_alone": "alone when it died", "played_hidden": "played from face down",
    "conquered_this_turn": "a conqueror this turn",
}
PAST = {
    "played": "played", "discard": "discarded", "die": "died", "conquer": "conquered", "hold": "held",
    "move": "moved", "attack": "attacked", "defend": "defended", "kill": "killed", "draw": "drawn",
    "channel": "channeled", "stun": "stunned", "buff": "buffed", "recycle": "recycled", "ready": "readied",
    "score": "scored", "hide": "hidden", "spend_buff": "spent a buff", "take_damage": "taken damage",
    "damaged": "taken damage",
}
INTRANSITIVE = {"die", "move", "attack", "defend", "conquer", "hold", "score", "take_damage", "damaged"}
CONDITION_KEYS = frozenset({"condition", "if", "while", "only_while", "of"})
OPS = {"ge": "{}+", "gt": "more than {}", "le": "{} or fewer", "lt": "fewer than {}",
        "eq": "exactly {}", "ne": "other than {}"}
OPS_VALUE = {"ge": "at least", "gt": "greater than", "le": "at most", "lt": "less than", "eq": "equal to",
              "ne": "not equal to"}


def mark(text: str) -> str:
    return f"{MARK_OPEN}{text}{MARK_CLOSE}"


def plugin_word(kind: str, name: str) -> LanguageWord | None:
    """A word a plugin added to the script language (its English is the plugin's)."""
    return LANGUAGE_WORDS.get((kind, name))


def state_word(state: str) -> str:
    """An object state's adjective: the built-in ones', or a plugin's own English."""
    word = plugin_word("state", state)
    return STATES.get(state) or (word.text if word is not None and word.text else mark(f"state {state}"))


# replaced events a spell or ability does to an object (core/actions.replaced)
DONE_TO = {"stun": "stun {}", "lose_might": "give {} -Might", "return_to_hand": "return {} to hand"}


def is_marked(text: str) -> bool:
    """Whether a rendering is an explicit 'could not render' marker (see mark)."""
    return text.startswith(MARK_OPEN) and text.endswith(MARK_CLOSE)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def end_sentence(text: str) -> str:
    """A sentence with its final period (not doubled)."""
    return text if text.endswith((".", ".)", "!", "?", ".\"")) else text + "."


def number_word(n: int) -> str:
    return WORDS[n] if 0 <= n < len(WORDS) else str(n)


def ordinal(n: int) -> str:
    return ORDINALS[n] if 0 <= n < len(ORDINALS) else f"{n}th"


def article_for(text: str) -> str:
    lower = text.lower()
    vowel = lower[:1] in ("a", "e", "i", "o", "u") and not lower.startswith(("uni", "use", "usu", "one"))
    return "an" if vowel else "a"


def series(items: Sequence[str], word: str = "and") -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return f"{items[0]} {word} {items[1]}"
    return ", ".join(items[:-1]) + f", {word} {items[-1]}"


def third_singular(verb: str) -> str:
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


def is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def keyword_display(name: str) -> str:
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
        return base if self.plural or self.person != 3 else third_singular(base)

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


MORE_KEYWORDS = "\x00more_keywords"
MORE_TARGETS = "\x00more_targets"


def type_cases(steps: Sequence[Node]) -> list[tuple[str, Node]]:
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


def attached_givers(keywords: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
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


def granted_tag(eff: Node) -> str | None:
    """The tag an effect gives its own source for good ("I'm a Bird"), else None."""
    if not isinstance(eff, Mapping) or eff.get("type") != "create_effect" or eff.get("affects") != "self" \
            or eff.get("duration") != "permanent":
        return None
    mods = (eff.get("static") or {}).get("modifiers")
    if isinstance(mods, list) and len(mods) == 1 and isinstance(mods[0], Mapping) \
            and mods[0].get("type") == "hook" and mods[0].get("hook") == "tag":
        return str(mods[0].get("value"))
    return None


def step_condition(cond: Node) -> Node:
    """A keyword condition that holds until another does ([Level 3] but not [Level 6]: a step of a
    ladder) is labelled by its first keyword; any other condition is itself."""
    parts = cond.get("of") if isinstance(cond, Mapping) and cond.get("type") == "all" else None
    if isinstance(parts, list) and len(parts) >= 2 and isinstance(parts[0], Mapping) \
            and parts[0].get("type") == "keyword" \
            and all(isinstance(p, Mapping) and p.get("type") == "not" and isinstance(p.get("of"), Mapping)
                    and p["of"].get("type") == "keyword" for p in parts[1:]):
        return parts[0]
    return cond


def chosen_inline(out: list[Clause], steps: list[Node]) -> list[Clause]:
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


def string_leaves(node: Node) -> set[str]:
    """Every string value inside a script node."""
    if isinstance(node, str):
        return {node}
    if isinstance(node, Mapping):
        return set().union(*(string_leaves(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(string_leaves(v) for v in node)) if node else set()
    return set()


def about_the_turn(cond: Mapping[str, Any]) -> bool:
    """A comparison of something done so far this turn (read with 'if', not 'while')."""
    left = cond.get("left")
    return cond.get("type") == "compare" and isinstance(left, Mapping) and left.get("type") == "stat" \
        and left.get("stat") in ("power_spent_this_turn", "cards_played_this_turn", "moves_this_turn",
                                 "hold_points_this_turn")


def is_unless(steps: Sequence[Node]) -> bool:
    """Whether the steps begin with another player's "may" (a cost or an effect, not both) followed by
    an effect done only if they didn't."""
    if len(steps) < 2 or not isinstance(steps[0], Mapping) or not isinstance(steps[1], Mapping):
        return False
    may, step = steps[0], steps[1]
    return may.get("type") == "may" and may.get("chooser") in ("its_controller", "opponent") \
        and ("effect" in may) != ("cost" in may) and step.get("type") == "if" and "else" not in step \
        and step.get("condition") == {"type": "not", "of": {"type": "did", "what": "succeed"}}


def merge_gives(clauses: list[Clause]) -> list[Clause]:
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


def same_subject(sentences: list[str], subject: str) -> list[str]:
    """'I cost {2} less. I enter ready.' said as 'I cost {2} less and enter ready'."""
    head = subject + " "
    if len(sentences) < 2 or not all(s.startswith(head) and ", " not in s for s in sentences):
        return sentences
    rests = [s[len(head):] for s in sentences]
    verb = rests[0].split(" ")[0] + " "
    return [head + series(rests[:1] + [r[len(verb):] if r.startswith(verb) else r for r in rests[1:]])]


def did_kill_after_kill(prev: Any, step: Any) -> Any:
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


def merge_grants(steps: list[Node]) -> list[Node]:
    """Keywords given one after the other to the same object: one 'give' and both keywords, then the duration."""
    out: list[Node] = []
    for step in steps:
        prev = out[-1] if out else None
        if isinstance(step, Mapping) and isinstance(prev, Mapping) and step.get("type") == prev.get("type") == \
                "grant_keyword" and step.get("target") in ("target", "it") and \
                step.get("duration") == prev.get("duration") and set(step) <= {"type", "target", "keyword", "value",
                                                                                 "duration", "note"}:
            more = list(prev.get(MORE_KEYWORDS) or []) + [(step.get("keyword"), step.get("value"))]
            out[-1] = {**prev, MORE_KEYWORDS: more}
        elif isinstance(step, Mapping) and isinstance(prev, Mapping) and step.get("type") == prev.get("type") == \
                "return_to_hand" and set(step) == set(prev) == {"type", "target"} and \
                isinstance(step["target"], Mapping) and isinstance(prev["target"], Mapping) and \
                not {step["target"].get("zone"), prev["target"].get("zone")} - {None, "board"}:
            out[-1] = {**prev, MORE_TARGETS: list(prev.get(MORE_TARGETS) or []) + [step["target"]]}
        elif isinstance(step, Mapping) and isinstance(prev, Mapping) and step.get("type") == "grant_keyword" and \
                prev.get("type") == "modify_might" and is_int(prev.get("amount")) and \
                step.get("target") in ("target", "it") and step.get("duration") == prev.get("duration") and \
                set(step) <= {"type", "target", "keyword", "value", "duration", "note"} and \
                set(prev) <= {"type", "target", "amount", "negative", "duration", "note"}:
            # "give one of your other units here +3 Might and [Tank] this turn"
            more = list(prev.get(MORE_KEYWORDS) or []) + [(step.get("keyword"), step.get("value"))]
            out[-1] = {**prev, MORE_KEYWORDS: more}
        else:
            out.append(step)
    return out


def hoist_named_locations(step: Node) -> tuple[list[Mapping[str, Any]], Node]:
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


def norm_kw(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def same_while(a: Node, b: Node) -> bool:
    """Two static abilities of the card's own under the same 'while' condition (and nothing else)."""
    plain = {"kind", "affects", "modifiers", "while", "id"}
    return isinstance(a, Mapping) and isinstance(b, Mapping) and a.get("kind") == b.get("kind") == "static" \
        and "while" in a and a.get("while") == b.get("while") and set(a) <= plain and set(b) <= plain


def same_but_trigger(a: Node, b: Node) -> bool:
    if not (isinstance(a, Mapping) and isinstance(b, Mapping)):
        return False
    if a.get("kind") != "triggered" or b.get("kind") != "triggered":
        return False
    strip = ("when", "id")
    return {k: v for k, v in a.items() if k not in strip} == {k: v for k, v in b.items() if k not in strip} \
        and a.get("when") != b.get("when")


def safe(func: Any, node: Node) -> str:
    """Render one line; an unexpected shape becomes an explicit marker, never an exception."""
    try:
        result = func(node)
        return str(result)
    except Exception as exc:  # the renderer must never crash on a script
        return mark(f"could not render: {type(exc).__name__}: {exc}")


@functools.lru_cache(maxsize=1)


def installed_catalog() -> Catalog | None:
    """The installed catalog, for token facts when the caller gave none."""
    try:
        from riftscript.core.script.catalog import load_catalog
        return load_catalog(strict=False)
    except Exception:  # token facts are optional: render without them
        return None


def raw_script(card: CardDef | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(card, CardDef):
        return card.raw
    return card


def keywords_only(ability: Mapping[str, Any]) -> list[tuple[Node, Node]] | None:
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


def is_effect_text(ability: Any) -> bool:
    return isinstance(ability, Mapping) and bool(ability.get("effect_text"))
