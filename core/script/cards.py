"""Compiled card definitions: what the kernel reads instead of raw YAML.

Scripts are compiled once at load time: keywords are expanded into their abilities, target
slots are numbered, and each triggered ability records the event it listens to so that
dispatch is a dictionary lookup by event type.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Final

from .slots import Json as Json, TargetSlots as TargetSlots  # re-exported: the kernel and plugins import them from here

TYPES = ("unit", "spell", "gear", "legend", "battlefield", "rune", "marker")
DOMAINS = ("fury", "calm", "mind", "body", "chaos", "order")
ANY: Final = frozenset(DOMAINS)

# The abilities a create_effect makes: their targets are chosen when they trigger or apply, not as the
# ability that creates them is played or put on the chain (engine notes, playing a card: a triggered
# ability's choices are made as it goes on the chain).
CREATED_ABILITY_KEYS = ("trigger", "replacement", "static")


def created_abilities(node: Json) -> tuple[str, ...]:
    """The keys of a script node holding abilities it creates (their targets are not this ability's)."""
    return CREATED_ABILITY_KEYS if node.get("type") == "create_effect" else ()


def symbol(sym: str, card_domains: tuple[str, ...]) -> frozenset[str]:
    """A power symbol as the set of domains that can pay it (135.2.e.5-6)."""
    if sym == "any":
        return ANY
    if sym == "own":
        return frozenset(card_domains) if card_domains else ANY
    return frozenset([sym])


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card, a keyword instance, or a lasting effect."""

    kind: str
    index: int
    body: Json
    keyword: str | None = None
    keyword_value: Any = None
    event: str | None = None
    target_slots: int = 0
    decides: bool = False
    # the 'pick: target' selections of its effect, in slot order, with their facts (worked out by the
    # compiler; None for an ability made at run time, whose targets are walked when asked:
    # targeting.ability_targets)
    effect_targets: "TargetSlots | None" = field(default=None, compare=False)
    # for each target slot of its script, (the effect acting on what it picks, its selection)
    # (``target_effects``, worked out by the compiler; None for an ability made at run time:
    # ``effects_on_targets``)
    slot_effects: dict[int, tuple[Json, Json]] | None = field(default=None, compare=False)

    def renumbered(self, index: int, body: Json) -> "Ability":
        """This ability with another index and body (a borrowed, granted or attached ability, numbered
        after its holder's own): every other field kept.  Written out, since ``dataclasses.replace``
        reads the fields anew on every call (about 32,000 instructions a copy, compiled)."""
        return Ability(self.kind, index, body, self.keyword, self.keyword_value, self.event, self.target_slots,
                       self.decides, self.effect_targets, self.slot_effects)

    @property
    def effect(self) -> Json | None:
        eff = self.body.get("effect")
        return eff if isinstance(eff, dict) else None

    @property
    def timing(self) -> str | None:
        value = self.body.get("timing")
        return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the kernel asks of a card's script again and again, worked out once by the compiler
    (scripts are immutable once compiled).  Most are flags that let a hot path skip a general check
    for a card whose own text can't need it; what other objects do to the card is checked apart."""

    power: tuple[frozenset[str], ...] = ()  # the printed power symbols, each as the domains paying it
    additional: tuple[Ability, ...] = ()  # its additional costs, in ability order
    cost_statics: tuple[Ability, ...] = ()  # its own statics (affecting itself) with cost modifiers
    statics: bool = False  # it has a static ability
    play_from: bool = False  # a static of its own may let it be played from a zone (play_from)
    chooses_discount: bool = False  # its own statics make it cheaper when it chooses certain objects
    cheapening: bool = False  # an optional additional cost makes it cheaper (357)
    cost_keyword: bool = False  # a static of its own gives a keyword that brings an additional cost
    own_statics: tuple[Ability, ...] = ()  # its statics affecting only itself, outside its effect text
    # the hooks its own statics (outside its effect text, affecting itself) may give it; None when one
    # gives it a keyword, whose abilities may bring any hook
    own_hooks: frozenset[str] | None = frozenset()
    activated: tuple[Ability, ...] = ()  # its own activated abilities outside its effect text
    borrows: bool = False  # a static of its own gives it other cards' abilities (abilities_of)
    location_mods: bool = False  # a static of its own changes where it may be played (play_location)
    trigger_zones: frozenset[str] = frozenset()  # the zones off the board its triggers listen from
    # its own keywords with their values (numbers stacked as the keyword table says): layers.printed_keywords;
    # None when a value is no number where the keyword takes one (a keyword granted with an amount to
    # work out in play: such a pseudo-card's printed keywords are never read)
    printed_keywords: dict[str, Any] | None = field(default_factory=dict)
    # the 'pick: target' selections of its spell abilities, in slot order (targeting.target_slots);
    # callers must not change the list
    target_slots: "TargetSlots" = field(default_factory=lambda: TargetSlots())
    declares_alias: bool = False  # a static of its own declares an event_alias hook (triggers)
    optional_costs: list[str] = field(default_factory=list)  # its optional additional costs' names
    # its own text may give it a hook that decides when it may be played (timing, reaction_when_played_to)
    timing_hooks: bool = False
    # the hooks its statics give it when all of them are unconditional hooks on itself, by hook: off the
    # board its characteristics are then its printed ones and these (layers.chars); None otherwise
    printed_hooks: dict[str, list[Any]] | None = None
    # when its own statics may change its characteristics (layers._untouched): the designations (attacker,
    # defender) while which the only ones that can apply do ("I have +2 Might while I'm an attacker"); empty
    # when none can (they change costs, or other objects); None when one may apply otherwise
    chars_while: frozenset[str] | None = frozenset()


@dataclass(frozen=True, slots=True)
class CardDef:
    """The facts and compiled script of a card (or token)."""

    code: str
    name: str
    type: str
    set_code: str
    supertype: str | None = None
    domains: tuple[str, ...] = ()
    energy: int = 0
    power: tuple[str, ...] = ()
    might: int = 0
    might_bonus: int = 0
    tags: tuple[str, ...] = ()
    champion_tag: str | None = None
    equipment: bool = False
    token: bool = False
    keywords: tuple[tuple[str, Any], ...] = ()
    abilities: tuple[Ability, ...] = ()
    source: str = ""
    raw: Json = field(default_factory=dict, compare=False, repr=False)
    facts: CardFacts = field(default_factory=CardFacts, compare=False, repr=False)

    @property
    def is_permanent(self) -> bool:
        return self.type in ("unit", "gear")

    def has_keyword(self, name: str) -> bool:
        return any(k == name for k, _ in self.keywords)

    def abilities_of(self, kind: str) -> list[Ability]:
        return [a for a in self.abilities if a.kind == kind]


_CHEAPER = frozenset({"reduce_energy", "reduce_power", "ignore_cost", "per_unit", "reduce_by_killed_cost"})


def _own_hooks(mods: list[Json], keyword_hooks: Callable[[str], frozenset[str] | None]) -> frozenset[str] | None:
    """The hooks a card's own text may give it off the board: its statics' hook modifiers and those of the
    keywords they grant (``layers._compute`` reads no other; None when a granted keyword may give any)."""
    hooks = {m["hook"] for m in mods if m["type"] == "hook"}
    for m in mods:
        if m["type"] == "keyword":
            given = keyword_hooks(m["keyword"])
            if given is None:
                return None
            hooks |= given
    return frozenset(hooks)


def card_facts(abilities: tuple[Ability, ...], power: tuple[str, ...], domains: tuple[str, ...],
               has_cost_keyword: Callable[[str], bool], printed_keywords: dict[str, Any] | None,
               keyword_hooks: Callable[[str], frozenset[str] | None]) -> CardFacts:
    """The CardFacts of a compiled script; ``has_cost_keyword`` says whether a keyword (by the name a
    modifier gives) brings an additional cost in the catalog's keyword table, ``keyword_hooks`` which hooks
    its static abilities may give (None: any), ``printed_keywords`` are the card's own keywords as the
    keyword table stacks them (``add_keyword``)."""
    statics = [a for a in abilities if a.kind == "static"]
    own = [a for a in statics if a.body.get("affects", "self") == "self"]
    own_text = [a for a in own if not a.body.get("effect_text")]
    mods = [m for a in own_text for m in a.body["modifiers"]]
    return CardFacts(
        power=tuple(symbol(s, domains) for s in power),
        additional=tuple(a for a in abilities if a.kind == "additional_cost"),
        cost_statics=tuple(a for a in own if any(m["type"] == "cost" for m in a.body["modifiers"])),
        statics=bool(statics),
        play_from=any(m["type"] == "play_from" for a in statics for m in a.body["modifiers"]),
        chooses_discount=any("if_chooses" in m for a in statics for m in a.body["modifiers"]),
        cheapening=any(a.kind == "additional_cost" and a.body.get("optional")
                       and a.body.get("effect_on_cost", {}).keys() & _CHEAPER for a in abilities),
        cost_keyword=any(m["type"] == "keyword" and has_cost_keyword(m["keyword"])
                         for a in statics for m in a.body.get("modifiers", ())),
        own_statics=tuple(own_text),
        own_hooks=_own_hooks(mods, keyword_hooks),
        activated=tuple(a for a in abilities if a.kind == "activated" and not a.body.get("effect_text")),
        borrows=any(m.get("type") == "abilities_of" for a in own for m in a.body.get("modifiers", [])),
        location_mods=any(m["type"] == "play_location" for a in own for m in a.body["modifiers"]),
        timing_hooks=any(m["type"] == "keyword" or (m["type"] == "hook" and m["hook"] in (
            "timing", "reaction_when_played_to")) for m in mods),
        trigger_zones=frozenset(a.body["when"]["from_zone"] for a in abilities if a.kind == "triggered"
                                and a.body["when"].get("from_zone") and not a.body.get("effect_text")),
        printed_keywords=printed_keywords,
        target_slots=TargetSlots(slot for a in abilities if a.kind == "spell" for slot in walk_targets(a.body)),
        declares_alias=any(m.get("type") == "hook" and m.get("hook") == "event_alias"
                           for a in statics for m in a.body.get("modifiers", [])),
        optional_costs=[a.body["name"] for a in abilities if a.kind == "additional_cost" and a.body.get("optional")],
        printed_hooks=_printed_hooks(abilities),
        chars_while=_chars_while(own_text),
    )


# The modifier types layers._compute reads into characteristics (Might, keywords, hooks, damage prevention,
# entering ready); a static's other modifiers (costs, play locations, borrowed abilities) leave them as printed.
# tests/test_state_caches.py checks this against _compute's own branches.
CHARS_MODIFIERS: Final = frozenset({"might", "buff_bonus", "keyword", "hook", "prevent_damage", "enter_ready"})
# the designations a static's 'while' may name for ``CardFacts.chars_while``: the object is the subject, so the
# condition is its designation (selectors: the states 'attacker' and 'defender' of an object on the board)
_DESIGNATIONS: Final = frozenset({"attacker", "defender"})


def _chars_while(own_text: list[Ability]) -> frozenset[str] | None:
    """``CardFacts.chars_while`` from the statics of the card's own text that affect only itself."""
    found: set[str] = set()
    for ability in own_text:
        body = ability.body
        if not any(m.get("type") in CHARS_MODIFIERS for m in body.get("modifiers", ())):
            continue  # its modifiers leave the characteristics as printed
        gate = body.get("while")
        if "condition" in body or not isinstance(gate, dict) or set(gate) != {"type", "subject", "state"} \
                or gate["type"] != "is" or gate["subject"] != "self" or gate["state"] not in _DESIGNATIONS:
            return None
        found.add(gate["state"])
    return frozenset(found)


def _printed_hooks(abilities: tuple[Ability, ...]) -> dict[str, list[Any]] | None:
    """``CardFacts.printed_hooks``: the hooks of a card whose statics are all unconditional hooks on itself."""
    simple = all(a.kind != "static" or (a.body.get("affects", "self") == "self" and "while" not in a.body
                                        and "condition" not in a.body
                                        and all(m["type"] == "hook" and not isinstance(m["value"], dict)
                                                for m in a.body["modifiers"]))
                 for a in abilities)
    if not simple:
        return None
    hooks: dict[str, list[Any]] = {}
    for a in abilities:
        if a.kind == "static":
            for m in a.body["modifiers"]:
                hooks.setdefault(m["hook"], []).append(m["value"])
    return hooks


def target_effects(node: Any) -> dict[int, tuple[Json, Json]]:
    """For each target slot of a script, (the effect acting on what the slot picks: the nearest
    enclosing node with a type that picks nothing itself, the slot's selection): what an agent reads
    to tell harm from help."""
    out: dict[int, tuple[Json, Json]] = {}
    stack: list[tuple[Any, Json | None]] = [(node, None)]
    while stack:
        cur, effect = stack.pop()
        if isinstance(cur, dict):
            if "_slot" in cur and effect is not None and int(cur["_slot"]) not in out:
                out[int(cur["_slot"])] = (effect, cur)
            inner = cur if "type" in cur and cur.get("pick") is None else effect
            stack.extend((value, inner) for value in cur.values())
        elif isinstance(cur, list):
            stack.extend((value, effect) for value in cur)
    return out


def effects_on_targets(ability: Ability) -> dict[int, tuple[Json, Json]]:
    """``Ability.slot_effects``, walked for an ability made at run time (callers must not change it)."""
    found = ability.slot_effects
    return found if found is not None else target_effects(ability.body)


def walk_targets(node: Any) -> list[Json]:
    """The 'pick: target' selections in a script node, in slot order (a created trigger's targets are
    chosen as it triggers, so they are not the node's)."""
    out: list[Json] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            if cur.get("pick") == "target":
                out.append(cur)
            skip = created_abilities(cur)
            stack.extend(reversed([v for k, v in cur.items() if k not in skip]))
        elif isinstance(cur, list):
            stack.extend(reversed(cur))
    out.sort(key=lambda n: int(n.get("_slot", 0)))
    return out


def add_keyword(table: dict[str, "KeywordDef"], keywords: dict[str, Any], name: str, value: Any) -> None:
    """Add one keyword instance to a card's keywords: a number keyword stacks as its definition says
    (``stacking``: add or max), any other keeps its first value."""
    kw = table.get(name)
    if kw is not None and kw.parameter_kind == "number":
        amount = int(value if value is not None else (kw.default or 1))
        if name in keywords and kw.stacking == "add":
            keywords[name] = int(keywords[name]) + amount
        elif name in keywords and kw.stacking == "max":
            keywords[name] = max(int(keywords[name]), amount)
        else:
            keywords[name] = amount
    else:
        keywords.setdefault(name, value)


def substitute(node: Any, value: Any) -> Any:
    """Put a keyword instance's parameter into its script."""
    if isinstance(node, dict):
        if node.get("type") == "variable" and node.get("name") == "keyword_value":
            return value
        if node.get("type") == "keyword_effect":
            return value
        return {k: substitute(v, value) for k, v in node.items()}
    if isinstance(node, list):
        return [substitute(v, value) for v in node]
    return node


@dataclass(frozen=True)
class KeywordDef:
    """A keyword as its YAML script defines it."""

    keyword: str
    name: str
    rule: str
    summary: str = ""
    parameter_kind: str | None = None
    default: int | None = None
    stacking: str = "add"
    condition: Json | None = None
    deck_limit: int | None = None
    abilities: tuple[Json, ...] = ()
    additional_cost: Json | None = None
    status: bool = False
    source: str = ""
    printed_last: bool = False  # its line comes after the card's other text (the renderer reads it)
