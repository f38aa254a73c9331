"""Costs and paying them (131, 135.2.e, 161-167, 430-431; the process of playing a card, step 3-4).

The total cost is found in the rules' order: base cost (or its replacement), additional costs,
increases, then discounts; energy and power never go below 0.  Payment uses the rune pool first,
then the basic rune abilities (exhaust: add 1 energy; recycle: add one power of its domain, 164.2),
planned so that a rune exhausted for energy can still be recycled for power (417.1).

Mutually recursive with ``verbs`` and ``replacement`` (see core/engine/verbs.py): paying recycles
runes and adds to the pool through the verbs, which may be replaced, at a cost paid here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from ..script.cards import ANY as ANY, DOMAINS, Ability, CardDef, symbol as symbol  # re-exported: part of this API
from .state import NOWHERE, Player, is_battlefield

from . import verbs, effects, layers

if TYPE_CHECKING:
    from .game import Game


@dataclass
class Cost:
    """Energy, power symbols (each a set of allowed domains) and non-resource costs."""

    energy: int = 0
    power: list[frozenset[str]] = field(default_factory=list)
    other: dict[str, Any] = field(default_factory=dict)

    # written out: a native constructor when compiled (core/engine/state.py says why)
    def __init__(self, energy: int = 0, power: list[frozenset[str]] | None = None,
                 other: dict[str, Any] | None = None) -> None:
        self.energy = energy
        self.power = [] if power is None else power
        self.other = {} if other is None else other

    def describe(self) -> str:
        parts = [str(self.energy)] if self.energy else []
        for allowed in self.power:
            parts.append("any" if len(allowed) == len(DOMAINS) else "/".join(sorted(allowed)))
        return "+".join(parts) or "0"


@dataclass
class Plan:
    """How a cost will be paid: pool amounts used and rune abilities activated, in order."""

    pool_energy: int = 0
    pool_spell_energy: int = 0  # from the pool restricted to this kind of payment (spells, or gear)
    pool_showdown_energy: int = 0  # from the energy usable only during showdowns
    pool_power: list[str] = field(default_factory=list)
    pool_spell_power: list[str] = field(default_factory=list)
    exhaust: list[int] = field(default_factory=list)
    recycle: list[tuple[int, str]] = field(default_factory=list)
    gear: bool = False  # the restricted amounts are the gear-only pool's ("use only to play gear ...")
    unit: bool = False  # ... or the unit-only pool's ("spend this Energy only to play units ...")

    # written out: a native constructor when compiled (core/engine/state.py says why)
    def __init__(self, pool_energy: int = 0, pool_spell_energy: int = 0, pool_showdown_energy: int = 0,
                 pool_power: list[str] | None = None, pool_spell_power: list[str] | None = None,
                 exhaust: list[int] | None = None, recycle: list[tuple[int, str]] | None = None, gear: bool = False,
                 unit: bool = False) -> None:
        self.pool_energy = pool_energy
        self.pool_spell_energy = pool_spell_energy
        self.pool_showdown_energy = pool_showdown_energy
        self.pool_power = [] if pool_power is None else pool_power
        self.pool_spell_power = [] if pool_spell_power is None else pool_spell_power
        self.exhaust = [] if exhaust is None else exhaust
        self.recycle = [] if recycle is None else recycle
        self.gear = gear
        self.unit = unit


def plan_payment(g: "Game", player: int, cost: Cost, for_spell: bool = False, for_gear: bool = False,
                 for_unit: bool = False) -> Plan | None:
    """Find a way to pay ``cost`` from the pool and runes, or None if it can't be paid.

    Listing legal actions asks this many times in one unchanged state, so answers are
    remembered until the state's version changes.
    """
    key = ("plan", player, cost.energy, tuple(cost.power), for_spell, for_gear, for_unit)
    memo = g.caches.memo()
    if key in memo:
        found: Plan | None = memo[key]
        return found
    plan = _plan(g, player, cost, for_spell, for_gear, for_unit)
    memo[key] = plan
    return plan


def _plan(g: "Game", player: int, cost: Cost, for_spell: bool, for_gear: bool = False,
          for_unit: bool = False) -> Plan | None:
    p = g.state.players[player]
    need_energy = cost.energy
    take_showdown = min(p.showdown_energy, need_energy) if g.state.showdown is not None else 0
    need_energy -= take_showdown
    spell_e = p.spell_energy if for_spell else p.gear_energy if for_gear else p.unit_energy if for_unit else 0
    take_spell = min(spell_e, need_energy)
    need_energy -= take_spell
    take_pool = min(p.energy, need_energy)
    need_energy -= take_pool
    ready = _ready_runes(g, player)
    if need_energy and len(ready) < need_energy:
        return None  # not enough energy, however the power is paid (recycled runes are exhausted first)
    plan = Plan(gear=for_gear and not for_spell, unit=for_unit and not (for_spell or for_gear))
    plan.pool_spell_energy = take_spell
    plan.pool_showdown_energy = take_showdown
    plan.pool_energy = take_pool
    remaining: list[frozenset[str]] = []
    if cost.power:
        _plan_pool_power(p, cost, for_spell, plan, remaining, for_gear)
    used: set[int] = set()
    if remaining:
        # power: recycle runes of the right domain, exhausted ones first (they can't give energy), then
        # the lowest id: the first of _recycle_order whose domain is allowed
        order = _recycle_order(g, player)
        for allowed in remaining:
            for rune, domain in order:
                if domain in allowed and rune not in used:
                    break
            else:
                return None
            used.add(rune)
            plan.recycle.append((rune, domain))
    # energy: exhaust ready runes, those being recycled first (exhaust, then recycle: 417.1)
    if need_energy:
        if used:
            # ``ready`` is in id order: those being recycled, then the others, each in id order
            plan.exhaust = ([r for r in ready if r in used] + [r for r in ready if r not in used])[:need_energy]
        else:
            plan.exhaust = ready[:need_energy]
    return plan


def _recycle_order(g: "Game", player: int) -> list[tuple[int, str]]:
    """(rune, the domain its recycling adds) of the player's runes that have a domain, exhausted ones
    first, each group in id order: the order a plan picks runes to recycle for power in.  Found once
    per state version; callers must not change the list."""
    memo = g.caches.memo()
    key = _RECYCLE_ORDER[player] if player < len(_RECYCLE_ORDER) else f"recycle_order {player}"
    order: list[tuple[int, str]] | None = memo.get(key)
    if order is None:
        objs, defs = g.state.objs, g.defs
        exhausted: list[int] = []
        ready: list[int] = []
        for r in g.state.players[player].runes:
            (exhausted if objs[r].exhausted else ready).append(r)
        exhausted.sort()
        ready.sort()  # plain integer sorts: no key function called for each rune
        order = []
        for r in exhausted + ready:
            domains = defs[objs[r].code].domains
            if domains:
                order.append((r, domains[0]))
        memo[key] = order
    return order


# the per-player memo keys of _recycle_order and _ready_runes, made once: a string keeps its hash, where a
# tuple key is made and hashed anew at every ask (plans ask for every card listed)
_RECYCLE_ORDER: Final = tuple(f"recycle_order {player}" for player in range(8))
_READY_RUNES: Final = tuple(f"ready_runes {player}" for player in range(8))


def _ready_runes(g: "Game", player: int) -> list[int]:
    """The player's ready runes in id order, found once per state version (plans for every
    card in a listing of legal actions ask); callers must not change the list."""
    memo = g.caches.memo()
    key = _READY_RUNES[player] if player < len(_READY_RUNES) else f"ready_runes {player}"
    ready: list[int] | None = memo.get(key)
    if ready is None:
        objs = g.state.objs
        ready = memo[key] = [r for r in g.state.players[player].runes if not objs[r].exhausted]
        ready.sort()
    return ready


def _plan_pool_power(p: Player, cost: Cost, for_spell: bool, plan: Plan, remaining: list[frozenset[str]],
                     for_gear: bool = False) -> None:
    """Pay what power the pools can (spell-only or gear-only power first); the rest goes to ``remaining``."""
    pool_power = dict(p.power)
    spell_power = dict(p.spell_power) if for_spell else dict(p.gear_power) if for_gear else {}
    pools = [(source, record) for source, record in ((spell_power, plan.pool_spell_power),
                                                      (pool_power, plan.pool_power)) if source]
    for allowed in sorted(cost.power, key=len):
        paid = False
        for source, record in pools:
            for key in sorted(source, key=lambda k: (k == "any", k.count("|"), k)):
                if source[key] > 0 and (key == "any" or allowed & set(key.split("|"))):
                    source[key] -= 1
                    record.append(key)
                    paid = True
                    break
            if paid:
                break
        if not paid:
            remaining.append(allowed)


def pay(g: "Game", player: int, plan: Plan) -> None:
    """Carry out a plan: rune abilities add to the pool, then the cost is taken from it."""
    p = g.state.players[player]
    for rune in plan.exhaust:
        g.obj(rune).exhausted = True
        g.emit_event({"n": 0, "t": "rune_exhaust", "player": player, "obj": rune})
        verbs.add_resources(g, player, 1, [])
    for rune, domain in plan.recycle:
        g.emit_event({"n": 0, "t": "rune_recycle", "player": player, "obj": rune, "domain": domain})
        verbs.recycle(g, [rune])
        verbs.add_resources(g, player, 0, [domain])
    p.energy -= plan.pool_energy + len(plan.exhaust)
    p.showdown_energy -= plan.pool_showdown_energy
    restricted = p.gear_power if plan.gear else p.spell_power
    if plan.gear:
        p.gear_energy -= plan.pool_spell_energy
    elif plan.unit:
        p.unit_energy -= plan.pool_spell_energy
    else:
        p.spell_energy -= plan.pool_spell_energy
    for domain in plan.pool_power:
        p.power[domain] -= 1
    for domain in plan.pool_spell_power:
        restricted[domain] -= 1
    for _, domain in plan.recycle:
        p.power[domain] -= 1
    p.power = {k: v for k, v in p.power.items() if v}
    p.spell_power = {k: v for k, v in p.spell_power.items() if v}
    p.gear_power = {k: v for k, v in p.gear_power.items() if v}
    energy = plan.pool_energy + plan.pool_spell_energy + plan.pool_showdown_energy + len(plan.exhaust)
    g.emit_event({"n": 0, "t": "pay", "player": player, "energy": energy,
                  "power": plan.pool_power + plan.pool_spell_power + [d for _, d in plan.recycle]})
    spent = len(plan.pool_power) + len(plan.pool_spell_power) + len(plan.recycle)
    if spent:
        g.remember("spent_power", player, loc=spent)  # "if you've spent at least [A][A] this turn"


def play_cost(g: "Game", player: int, oid: int, paid: list[str], hidden: bool = False,
              ignore: str = "", reduction: int = 0) -> Cost:
    """The total cost of playing a card (process of playing a card, step 3); callers may change
    the returned Cost, so each call gets its own copy of the remembered answer."""
    cost = shared_play_cost(g, player, oid, paid, hidden, ignore, reduction)
    return Cost(cost.energy, list(cost.power), dict(cost.other))


def shared_play_cost(g: "Game", player: int, oid: int, paid: list[str], hidden: bool = False,
                     ignore: str = "", reduction: int = 0) -> Cost:
    """``play_cost`` as remembered for this state version, for callers that only read it; a card's printed
    cost, when nothing can change it (most), one Cost per card code for the game's life."""
    if not (paid or hidden or ignore or reduction):
        card = g.card(oid)
        facts = card.facts
        if not (facts.additional or facts.cost_statics or facts.cost_keyword) \
                and g.state.objs[oid].zone != "trash" and not cost_changes(g):
            printed = g.caches.printed_costs.get(card.code)
            if printed is None:
                printed = g.caches.printed_costs[card.code] = Cost(max(0, card.energy), list(facts.power), {})
            return printed
    key = ("cost", player, oid, tuple(paid), hidden, ignore, reduction)
    memo = g.caches.memo()
    cost: Cost | None = memo.get(key)
    if cost is None:
        cost = memo[key] = _play_cost(g, player, oid, paid, hidden, ignore, reduction)
    return cost


def _play_cost(g: "Game", player: int, oid: int, paid: list[str], hidden: bool, ignore: str,
               reduction: int) -> Cost:
    card = g.card(oid)
    facts = card.facts  # a printed cost nothing can change never comes here (shared_play_cost answers it)
    energy = card.energy
    power = list(facts.power)
    used: list[int] = []  # limited effects the play uses up (Lasting ids)
    if g.obj(oid).zone == "trash":
        instead = play_from_cost(g, player, oid)  # "play me from your trash for {3}{Fury}"
        if instead is not None:
            energy = int(instead.get("energy", 0))
            power = [symbol(s, card.domains) for s in instead.get("power", [])]
            used = list(instead.get("_use_lasting", []))
    if hidden or ignore == "all":
        energy, power = 0, []
    elif ignore == "energy":
        energy = 0
    extra_energy = 0
    extra_power: list[frozenset[str]] = []
    other: dict[str, Any] = {"_use_lasting": used} if used else {}
    reduce_energy = reduction
    for ability in additional_costs(g, oid):
        name = ability.body["name"]
        optional = ability.body.get("optional", False)
        if optional and name not in paid:
            continue
        ctx = effects.EffectContext(g, player, oid)
        if "condition" in ability.body and not ctx.check(ability.body["condition"]):
            continue
        body_cost = ability.body["cost"]
        cost_energy = ctx.amount(body_cost.get("energy", 0))
        cost_power = [symbol(s, card.domains) for s in body_cost.get("power", [])]
        if optional:
            cost_energy, cost_power = _optional_cost_discounts(g, player, name, cost_energy, cost_power)
        extra_energy += cost_energy
        extra_power += cost_power
        for key, value in body_cost.items():
            if key not in ("energy", "power"):
                other[key] = value
        effect = ability.body.get("effect_on_cost", {})
        if effect.get("ignore_cost"):
            energy, power = 0, []
        if "reduce_energy" in effect:
            reduce_energy += ctx.amount(effect["reduce_energy"])
        for sym in effect.get("reduce_power", []):
            # "reduce my cost by [Order]" (Commander Ledros); per_unit: the first unit here, the
            # others in per_unit_reduction once the player's pay_with is known
            wanted = symbol(sym, card.domains)
            if wanted in power:
                power = list(power)
                power.remove(wanted)
    # discounts and increases from static effects (own, board, lasting).  A card played for {0} from Hidden
    # (811) or ignoring its cost still pays the increases: engine notes, process of playing a card, step 3
    # (base-cost replacements, then additional costs, then increases, then discounts); a discount has
    # nothing left to take and a limited one is not used up.
    replaced = hidden or ignore == "all"
    for mod, floor, src_lasting in cost_modifiers(g, player, oid):
        if "if_chooses" in mod:
            continue  # depends on the targets: applied by chooses_discounts once they are known
        if replaced and not mod.get("increase"):
            continue
        mctx = effects.EffectContext(g, player, oid)
        amount = mctx.amount(mod.get("energy", 0))
        # power symbols less or more ("{1}{Any} less", "{2}{Calm} less for each ..."), power_times times
        symbols = [symbol(s, card.domains) for s in mod.get("power", [])] * mctx.amount(mod.get("power_times", 1))
        if mod.get("ignore_energy"):
            energy = 0  # "you may play a gear ... this turn, ignoring its Energy cost" (Jayce)
        if mod.get("increase"):
            extra_energy += amount
            extra_power += symbols
        else:
            if floor:
                # "to a minimum of N" holds against the cost as already reduced (three Heralds of
                # Scales take a 5-cost Dragon to 1, not 0)
                amount = max(0, min(amount, energy - reduce_energy - floor))
            reduce_energy += amount
            power = _less_power(power, symbols)
        if src_lasting is not None and src_lasting.uses > 0:
            other.setdefault("_use_lasting", []).append(src_lasting.id)
    energy = max(0, energy - reduce_energy) + extra_energy
    return Cost(energy=energy, power=power + extra_power, other=other)


def _less_power(power: list[frozenset[str]], symbols: list[frozenset[str]]) -> list[frozenset[str]]:
    """A cost's power symbols with some taken away: [A] takes any symbol, a domain only its own."""
    out = list(power)
    for wanted in symbols:
        match = next((p for p in out if wanted == ANY or p == wanted), None)
        if match is not None:
            out.remove(match)
    return out


def _optional_cost_discounts(g: "Game", player: int, name: str, energy: int,
                             power: list[frozenset[str]]) -> tuple[int, list[frozenset[str]]]:
    """A discount on every optional additional cost paid (Ezreal, Prodigy), 'friendly [Repeat]
    costs cost {1} less' (Marai Spire): static optional_cost_discount modifiers of the player's objects.
    "{1} or {Any}": one energy if the cost has energy, else one power."""
    for mod, src in layers.static_modifiers(g, "optional_cost_discount"):
        if g.obj(src).controller != player or mod.get("cost", name) != name:
            continue
        less = int(mod.get("energy", 0))
        if energy > 0 or not mod.get("or_power"):
            energy = max(0, energy - less)
        else:
            power = _less_power(power, [symbol(s, ()) for s in mod["or_power"]])
    return energy, power


def chooses_statics(g: "Game") -> list[tuple[int, Ability, str, dict[str, Any]]]:
    """The board's cost statics with if_chooses modifiers (found once while the statics are unchanged)."""
    memo = g.statics_memo()
    statics: list[tuple[int, Ability, str, dict[str, Any]]] | None = memo.get("chooses_statics")
    if statics is None:
        statics = memo["chooses_statics"] = [s for s in _cost_statics(g)
                                             if any("if_chooses" in m for m in s[1].body["modifiers"])]
    return statics


def own_chooses_discount(card: CardDef) -> bool:
    """Whether the card's own static abilities make it cheaper when it chooses certain objects."""
    return card.facts.chooses_discount


def chooses_discounts(g: "Game", player: int, oid: int, targets: list[int], cost: Cost) -> None:
    """Cost changes for a card that chooses certain objects (a discount for spells aimed at the card:
    cost modifiers with if_chooses), once its targets are known; "{1} or {Any}": energy first."""
    if not targets:
        return
    ctx = effects.EffectContext(g, player, oid)
    for ability in g.card(oid).abilities:
        # the card's own discount when its choice names one of some tags (Undying Loyalty)
        if ability.kind != "static" or ability.body.get("affects", "self") != "self":
            continue
        for mod in ability.body["modifiers"]:
            if mod["type"] == "cost" and "if_chooses" in mod and \
                    any(ctx.selector_matches(mod["if_chooses"], t) for t in targets if t in g.state.objs):
                cost.energy = max(0, cost.energy - ctx.amount(mod.get("energy", 0)))
    for src, ability, what, where in chooses_statics(g):
        source = g.obj(src)
        ctx = effects.EffectContext(g, source.controller, src)
        if not ctx.is_kind(oid, what) or ("while" in ability.body and not ctx.check(ability.body["while"])) \
                or not ctx.matches(oid, where):
            continue
        # what it chooses is judged from the side of the card's player ("units here that are friendly to it")
        chooser = effects.EffectContext(g, player, src)
        for mod in ability.body["modifiers"]:
            if mod["type"] != "cost" or "if_chooses" not in mod \
                    or not set(chooser.resolve(mod["if_chooses"])) & set(targets):
                continue
            less = ctx.amount(mod.get("energy", 0))
            if cost.energy > 0 or not mod.get("or_power"):
                cost.energy = max(0, cost.energy - less)
            else:
                cost.power = _less_power(cost.power, [symbol(s, ()) for s in mod["or_power"]])
            cost.power = _less_power(cost.power, [symbol(s, ()) for s in mod.get("power", [])])  # "{Any} less"


def additional_costs(g: "Game", oid: int) -> tuple[Ability, ...]:
    """The card's additional costs: its own (found once per card), then those of the keywords an
    effect gave it that it doesn't print ("friendly units played from anywhere other than a hand
    have [Accelerate]", "give the next spell you play [Repeat]" - 805, 820)."""
    card = g.card(oid)
    facts = card.facts
    priced = card.type == "unit" and any(mod.get("location") == "here" for _, ability in
                                         layers.statics_by_kind(g).get("play_location", ())
                                         for mod in ability.body["modifiers"])
    if not (facts.cost_keyword or priced or cost_keywords_given(g)) or (not priced and layers.printed_only(g, oid)):
        return facts.additional  # nothing gives it a keyword with a cost: its printed ones are in there
    memo = g.caches.memo()
    key = ("additional_costs", oid)
    if key not in memo:
        costs = _with_granted(g, oid, card, facts.additional)
        names = {a.body["name"] for a in costs}
        for _, name, mod in location_costs(g, oid) if priced else ():
            if name not in names:  # two battlefields of one name give one cost, paid for either
                names.add(name)
                costs += (Ability(kind="additional_cost", index=-1,
                                  body={"name": name, "optional": True, "cost": mod["cost"]}),)
        memo[key] = costs
    found: tuple[Ability, ...] = memo[key]
    return found


def location_costs(g: "Game", oid: int) -> list[tuple[int, str, dict[str, Any]]]:
    """(location, cost name, modifier) of the battlefields whose static lets the unit be played there
    for an optional additional cost (``play_location`` ``here`` with a ``cost``): open to every player,
    and the unit paid for goes to that battlefield (Dragon Roost)."""
    return [(g.obj(src).loc, str(mod.get("name") or g.card(src).name), mod)
            for mod, src in layers.static_modifiers_affecting(g, "play_location", oid)
            if mod.get("location") == "here" and "cost" in mod and g.obj(src).zone == "bfcard"]


def cost_keywords_given(g: "Game") -> bool:
    """Whether a static or a lasting effect in play gives keywords that bring an additional cost
    ([Accelerate], [Repeat]): the statics' part found once while they are unchanged
    (``Game.statics_memo``), the lasting effects' once while they are (``Game.lasting_only_memo``)."""
    if _cost_keyword_statics(g) or not g.state.lasting:
        return _cost_keyword_statics(g)
    memo = g.lasting_only_memo()
    given: bool | None = memo.get("lasting_cost_keywords")
    if given is None:
        given = memo["lasting_cost_keywords"] = _lasting_cost_keywords(g)
    return given


def cost_changes(g: "Game") -> bool:
    """Whether something in play may change the cost of cards other than through their own text: a
    static ability with cost modifiers for other cards, a keyword with an additional cost given by a
    static or lasting effect, or a lasting effect with a cost modifier.  While none does, a card with
    no additional cost and no cost static of its own costs what it prints (_play_cost)."""
    found = statics_change_costs(g)
    if found or not g.state.lasting:
        return found
    if cost_keywords_given(g):
        return True
    memo = g.lasting_only_memo()
    lasting_found: bool | None = memo.get("lasting_cost_mods")
    if lasting_found is None:
        lasting_found = memo["lasting_cost_mods"] = any(
            lasting.kind == "static" and any(m["type"] == "cost" for m in lasting.body["modifiers"])
            for lasting in g.state.lasting)
    return lasting_found


def statics_change_costs(g: "Game") -> bool:
    """cost_changes' part that only the static abilities decide: one with cost modifiers for other cards
    or one giving a keyword with an additional cost.  Kept in ``Game.statics_memo`` (invalidated when
    the static sources change); invariants.cache_problems compares it with a fresh copy's."""
    statics = g.statics_memo()
    found: bool | None = statics.get("cost_changes")
    if found is None:
        found = statics["cost_changes"] = bool(_cost_statics(g)) or _cost_keyword_statics(g)
    return found


def _gives_cost_keyword(keywords: dict[str, Any], body: dict[str, Any]) -> bool:
    return any(m["type"] == "keyword" and _keyword_cost(keywords, m["keyword"]) for m in body.get("modifiers", ()))


def _lasting_cost_keywords(g: "Game") -> bool:
    """Whether a lasting effect in play gives keywords that bring an additional cost ([Accelerate],
    [Repeat]); cost_keywords_given adds the statics' part."""
    keywords = g.catalog.keywords
    return any(
        _gives_cost_keyword(keywords, lasting.body) if lasting.kind == "static" else
        lasting.kind == "grant" and _keyword_cost(keywords, lasting.body["keyword"]) for lasting in g.state.lasting)


def _cost_keyword_statics(g: "Game") -> bool:
    """Whether an active static ability gives keywords that bring an additional cost (found once
    while the statics are unchanged)."""
    statics = g.statics_memo()
    found: bool | None = statics.get("cost_keyword_statics")
    if found is None:
        keywords = g.catalog.keywords
        found = statics["cost_keyword_statics"] = any(_gives_cost_keyword(keywords, g.ability_of(src, index).body)
                                                      for (src, index) in list(g.index.static_sources))
    return found


def _keyword_cost(keywords: dict[str, Any], name: str) -> bool:
    kw = keywords.get(str(name).lower().replace("-", "_"))
    return kw is not None and kw.additional_cost is not None


def _with_granted(g: "Game", oid: int, card: CardDef, own: tuple[Ability, ...]) -> tuple[Ability, ...]:
    keywords = layers.chars(g, oid).keywords
    printed = layers.printed_keywords(g, card)
    if keywords is printed or keywords.keys() <= printed.keys():
        return own
    names = {a.body["name"] for a in own}
    extra: list[Ability] = []
    for name, value in keywords.items():
        if name in printed:
            continue
        for ability in g.keyword_abilities(name, value):
            if ability.kind == "additional_cost" and ability.body["name"] not in names:
                names.add(ability.body["name"])
                extra.append(ability)
    return own + tuple(extra)


def per_unit_reduction(g: "Game", oid: int, paid: list[str], cost: Cost, extra: int) -> None:
    """A per_unit reduction for each unit beyond the first that paid the cost (Commander Ledros:
    an [Order] less for each unit killed to pay); the first is in play_cost already."""
    card = g.card(oid)
    for ability in card.abilities:
        effect = ability.body.get("effect_on_cost", {}) if ability.kind == "additional_cost" else {}
        if not effect.get("per_unit") or (ability.body.get("optional") and ability.body["name"] not in paid):
            continue
        for _ in range(extra):
            for sym in effect.get("reduce_power", []):
                wanted = symbol(sym, card.domains)
                if wanted in cost.power:
                    cost.power.remove(wanted)


def killed_cost_reduction(g: "Game", oid: int, paid: list[str], cost: Cost, killed: list[int]) -> None:
    """A discount by the killed unit's Energy cost and one power symbol per power symbol of its cost
    (Atakhan): an additional cost's reduce_by_killed_cost, once the player's pay_with names the unit."""
    card = g.card(oid)
    for ability in card.abilities:
        effect = ability.body.get("effect_on_cost", {}) if ability.kind == "additional_cost" else {}
        if "reduce_by_killed_cost" not in effect or (ability.body.get("optional") and ability.body["name"] not in paid):
            continue
        for victim in killed:
            dead = g.card(victim)
            cost.energy = max(0, cost.energy - dead.energy)
            for _ in dead.power:
                for sym in effect["reduce_by_killed_cost"]:
                    wanted = symbol(sym, card.domains)
                    if wanted in cost.power:
                        cost.power.remove(wanted)


def cost_modifiers(g: "Game", player: int, oid: int) -> list[tuple[dict[str, Any], int, Any]]:
    out: list[tuple[dict[str, Any], int, Any]] = []
    for ability in g.card(oid).facts.cost_statics:
        ctx = effects.EffectContext(g, player, oid)
        if "condition" in ability.body and not ctx.check(ability.body["condition"]):
            continue
        if "while" in ability.body and not ctx.check(ability.body["while"]):
            continue
        for mod in ability.body["modifiers"]:
            if mod["type"] == "cost":
                out.append((mod, int(mod.get("minimum", 0)), None))
    for src, ability, what, where in _cost_statics(g):
        source = g.obj(src)
        ctx = effects.EffectContext(g, source.controller, src)
        if not ctx.is_kind(oid, what):
            continue  # the card isn't of the kind it affects (a cheap check, so before its condition)
        if "while" in ability.body and not ctx.check(ability.body["while"]):
            continue
        if not ctx.matches(oid, where):
            continue
        for mod in ability.body["modifiers"]:
            if mod["type"] == "cost":
                out.append((mod, int(mod.get("minimum", 0)), None))
    for lasting in g.active_lasting() if g.state.lasting else []:
        if lasting.kind != "static" or not any(m["type"] == "cost" for m in lasting.body["modifiers"]):
            continue
        ctx = effects.EffectContext(g, lasting.controller, lasting.source)
        selection = lasting.body.get("affects")
        if isinstance(selection, dict):
            # its selection says whose cards ("the next spell you play": controller you, not a teammate's)
            if not ctx.is_kind(oid, selection.get("what", "card")) or not ctx.matches(oid, _card_filter(selection)):
                continue
        elif lasting.controller != player:
            continue  # without a selection: the cards its controller plays
        for mod in lasting.body["modifiers"]:
            if mod["type"] == "cost":
                out.append((mod, int(mod.get("minimum", 0)), lasting))
    return out


def _cost_statics(g: "Game") -> list[tuple[int, Ability, str, dict[str, Any]]]:
    """(source, ability, kind of card affected, card filter) of the board's static abilities that
    change other cards' costs, oldest first; found once while the static sources are unchanged
    (every card's cost asks)."""
    memo = g.statics_memo()
    found: list[tuple[int, Ability, str, dict[str, Any]]] | None = memo.get("cost_statics")
    if found is None:
        found = []
        for (src, index) in g.index.statics_in_order(g):
            ability = g.ability_of(src, index)
            affects = ability.body.get("affects", "self")
            if isinstance(affects, dict) and any(m["type"] == "cost" for m in ability.body["modifiers"]):
                found.append((src, ability, affects.get("what", "card"), _card_filter(affects)))
        memo["cost_statics"] = found
    return found


def _card_filter(selection: dict[str, Any]) -> dict[str, Any]:
    """Location criteria don't apply to a card being played from hand."""
    where = dict(selection.get("where", {}))
    where.pop("location", None)
    return where


def ability_cost(g: "Game", player: int, oid: int, cost: dict[str, Any]) -> Cost:
    card = g.card(oid)
    ctx = effects.EffectContext(g, player, oid)
    energy = max(0, ctx.amount(cost.get("energy", 0)))  # "costs {1} less for each ...": never below 0
    power = [symbol(s, card.domains) for s in cost.get("power", [])]
    other = {k: v for k, v in cost.items() if k not in ("energy", "power")}
    return Cost(energy=energy, power=power, other=other)


def ability_cost_changes(g: "Game", oid: int, ability: Ability, cost: Cost) -> None:
    """Static ability_cost modifiers of the objects whose 'affects' covers the ability's object: its
    activated abilities (only those of a keyword, with ``keyword``) cost less or more (Risen Altar's discount on
    Empower costs; "{1} or {Any}": the energy first, the power when it has none)."""
    card = g.card(oid)
    for mod, src in layers.static_modifiers_affecting(g, "ability_cost", oid):
        if "keyword" in mod and ability.keyword != str(mod["keyword"]).lower().replace("-", "_"):
            continue
        amount = effects.EffectContext(g, g.obj(src).controller, src).amount(mod.get("energy", 0))
        symbols = [symbol(s, card.domains) for s in mod.get("power", [])]
        if mod.get("increase"):
            cost.energy += amount
            cost.power = cost.power + symbols
            continue
        if amount and (cost.energy > 0 or not mod.get("or_power")):
            cost.energy = max(0, cost.energy - amount)
        elif mod.get("or_power"):
            cost.power = _less_power(cost.power, [symbol(s, ()) for s in mod["or_power"]])
        cost.power = _less_power(cost.power, symbols)


def deflect_tax(g: "Game", player: int, targets: list[list[int]], source: int = NOWHERE) -> list[frozenset[str]]:
    """809: each time an opponent's spell or ability chooses a Deflect unit, X more any-domain power.
    The ``ignore_targeting_tax`` hook waives it: on the spell or the ability's object, for everything it
    chooses (a spell that waives the Deflect tax on its own choices); on a battlefield, for what it chooses there."""
    extra: list[frozenset[str]] = []
    if not layers.hook_in_play(g, "targeting_tax"):
        return extra  # no object on the board could have Deflect
    for slot in targets:
        for oid in slot:
            obj = g.state.objs.get(oid)
            if obj is None or obj.zone != "board" or g.friendly(obj.controller, player):
                continue
            values = layers.hook_values(g, oid, "targeting_tax")
            if values and is_battlefield(obj.loc) \
                    and True in layers.hook_values(g, g.bf_at(obj.loc).card, "ignore_targeting_tax"):
                continue
            for value in values:
                extra += [ANY] * int(value)
    if extra and source in g.state.objs and True in layers.hook_values(g, source, "ignore_targeting_tax"):
        return []
    return extra


def play_from_cost(g: "Game", player: int, oid: int) -> dict[str, Any] | None:
    """The cost of playing a card from its owner's trash when an effect allows it ("You may play me
    from your trash for {3}{Fury}": a play_from modifier of its own static abilities, or of a created
    effect on it - "you may play this from your trash for {A}"), else None."""
    obj = g.obj(oid)
    if obj.zone != "trash":
        return None
    card = g.card(oid)
    own = card.facts.play_from
    if not own and not g.state.lasting and layers.printed_only(g, oid):
        return None
    for ability in card.abilities if own else ():
        if ability.kind != "static" or ability.body.get("affects", "self") != "self":
            continue
        ctx = effects.EffectContext(g, player, oid)
        if any(key in ability.body and not ctx.check(ability.body[key]) for key in ("condition", "while")):
            continue
        for mod in ability.body["modifiers"]:
            if mod["type"] == "play_from" and mod["zone"] == obj.zone:
                return dict(mod["cost"])
    for lasting in layers.lasting_with(g, "play_from"):
        if lasting.kind != "static" or lasting.controller != player:
            continue
        if not layers.lasting_covers(g, lasting, oid):
            continue  # named, or a selection ("this turn you may play spells from your trash") read now
        for mod in lasting.body["modifiers"]:
            if mod["type"] == "play_from" and mod["zone"] == obj.zone:
                cost = dict(mod.get("cost") or {"energy": card.energy, "power": list(card.power)})
                # a limited one ("uses: 1": Death from Below's replay) is used up by the play it allows
                return {**cost, "_use_lasting": [lasting.id]} if lasting.uses > 0 else cost
    for mod, _ in layers.static_modifiers_affecting(g, "play_from", oid):  # "you may play cards from your trash"
        if mod["zone"] == obj.zone:
            return dict(mod.get("cost") or {"energy": card.energy, "power": list(card.power)})
    for ability in layers.given_keyword_abilities(g, oid, "static"):  # a keyword an effect gave it ([Flow])
        if "while" in ability.body and not effects.EffectContext(g, player, oid).check(ability.body["while"]):
            continue
        for mod in ability.body["modifiers"]:
            if mod["type"] == "play_from" and mod["zone"] == obj.zone:
                return dict(mod["cost"])
    return None


def runs(g: "Game", oid: int, paid: list[str] | tuple[str, ...]) -> int:
    """820: how many times a spell's instructions are carried out - once, and once more for each
    paid additional cost that repeats them (Repeat)."""
    if not paid:
        return 1
    return 1 + sum(1 for a in additional_costs(g, oid) if a.body["name"] in paid
                   and a.body.get("effect_on_cost", {}).get("repeat"))


_RUNE_EXHAUST = Ability(kind="activated", index=-1, body={"kind": "activated", "cost": {"exhaust_self": True},
                                                          "timing": "reaction", "effect": {"type": "add", "energy": 1}})


_RUNE_RECYCLE = Ability(kind="activated", index=-2, body={"kind": "activated", "cost": {"recycle_self": True},
                                                          "timing": "reaction", "effect": {"type": "add", "power": ["own"]}})


def rune_ability(index: int) -> Ability:
    """164.2: every basic rune has '[E]: Add 1' and 'Recycle this: Add one power of its domain'."""
    return _RUNE_EXHAUST if index == -1 else _RUNE_RECYCLE
