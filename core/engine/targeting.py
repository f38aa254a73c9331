"""Targets (chosen objects and locations) of spells and abilities: the target slots a script has, the
legal choices for each, and recording that objects were chosen (the Dreaming Tree listens to it).
Below playing, activating and the chain, which all ask here.
"""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from . import layers, movement
from ..script.cards import Ability, CardDef, TargetSlots, walk_targets
from .effects import EffectContext, Event, Node
from .state import NOWHERE, ChainItem, is_battlefield

if TYPE_CHECKING:
    from .game import Game


MAX_TARGET_COMBOS = 60


def target_slots(card: CardDef) -> TargetSlots:
    """The 'pick: target' selections of a card's spell abilities, in slot order, with their facts
    (worked out by the compiler: ``CardFacts.target_slots``)."""
    return card.facts.target_slots


def target_nodes(node: Any) -> list[dict[str, Any]]:
    """The 'pick: target' selections in a script node, in slot order (walked each time: an ability's
    own are ``ability_targets``)."""
    return walk_targets(node)


def ability_targets(ability: Ability) -> TargetSlots:
    """The 'pick: target' selections of an ability's effect, in slot order, with their facts (worked
    out by the compiler, ``Ability.effect_targets``; walked for an ability made at run time)."""
    found = ability.effect_targets
    return found if found is not None else TargetSlots(walk_targets(ability.body.get("effect") or {}))


def choosable(g: "Game", player: int, oid: int) -> bool:
    """Whether the player's spells and abilities may choose the object: one with the hook chosen_by:
    friendly_only (Ruin Runner's protection from enemy choices) refuses its opponents."""
    obj = g.state.objs.get(oid)
    if obj is None or obj.zone != "board" or g.friendly(obj.controller, player) \
            or not layers.hook_in_play(g, "chosen_by"):
        return True
    return "friendly_only" not in layers.hook_values(g, oid, "chosen_by")


def target_options(g: "Game", player: int, source: int, slots: Sequence[dict[str, Any]],
                   restrict_loc: int = NOWHERE, event: dict[str, Any] | None = None,
                   paid: list[str] | None = None) -> list[list[list[int]]]:
    """Every legal combination of targets (capped), one list of ids per slot; a triggered ability's
    targets may name its event ("another unit you control here", not the one just played), a card's
    the optional costs paid for it (filter ``paid``).  The slots are the compiled ``TargetSlots``
    (``target_slots``, ``ability_targets``); a plain list made at run time has its facts worked out here."""
    if not isinstance(slots, TargetSlots):
        slots = TargetSlots(slots)
    ctx = EffectContext(g, player, source, event=event)
    if paid:
        ctx.item = ChainItem(id=NOWHERE, kind="card", controller=player, obj=source, paid=list(paid))
    if slots.dependent:
        return _dependent_target_options(g, ctx, slots, restrict_loc)
    per_slot: list[list[list[int]]] = []
    for sel, facedown in zip(slots, slots.facedown):
        choices = _slot_choices(g, ctx, sel, facedown, restrict_loc)
        if choices is None:
            return []
        per_slot.append(choices)
    moves = slots.moves
    linked = slots.linked
    if len(per_slot) == 1 and not moves and not linked:
        # one slot (most): its choices, each a fresh list from _slot_choices, are the combinations
        return [[choice] for choice in per_slot[0][:MAX_TARGET_COMBOS]]
    combos: list[list[list[int]]] = []
    for product in itertools.product(*per_slot):
        option: list[list[int]] = [list(p) for p in product]
        if moves and bad_destination(g, moves, option) is not None:
            continue
        if linked and not _slots_agree(ctx, slots, option, linked):
            continue
        combos.append(option)
        if len(combos) >= MAX_TARGET_COMBOS:
            break
    return combos


def _slot_choices(g: "Game", ctx: EffectContext, sel: dict[str, Any], facedown: bool,
                  restrict_loc: int) -> list[list[int]] | None:
    """Every choice of objects for one target slot (capped), or None when it can't be filled;
    ``facedown``: the selection may pick facedown cards (``TargetSlots.facedown``)."""
    if int(sel.get("count", 1)) == 1 and not sel.get("any_number") and ("zone" in sel or not facedown):
        return _single_choices(g, ctx, sel, restrict_loc)  # most slots: one object, no facedown card
    candidates = ctx.candidates(sel)
    if "zone" not in sel and facedown:
        # a selection that may pick facedown cards ("a friendly gear, unit or facedown card", Pack
        # of Wonders): they are at battlefields, not on the board, so add them
        candidates = candidates + [oid for bf in g.state.battlefields for oid in bf.facedown
                                   if oid not in candidates and ctx.matches_selection(sel, oid)]
    if restrict_loc != NOWHERE and sel.get("what") != "location":
        candidates = [c for c in candidates if g.obj(c).zone != "board" or g.obj(c).loc == restrict_loc]
    if sel.get("what") not in ("location", "player"):
        candidates = [c for c in candidates if choosable(g, ctx.you, c)]  # chosen_by: friendly_only
    count = int(sel.get("count", 1))
    choices: list[list[int]] = []
    low = 0 if sel.get("up_to") or sel.get("any_number") else min(count, len(candidates))
    high = len(candidates) if sel.get("any_number") else min(count, len(candidates))
    if not candidates and not (sel.get("up_to") or sel.get("any_number")):
        return None
    for size in range(high, low - 1, -1):
        for combo in itertools.combinations(candidates, size):
            if not ctx.fits_group(sel, list(combo)):
                continue  # "units with total Might 4 or less"
            choices.append(list(combo))
            if len(choices) >= MAX_TARGET_COMBOS:
                break
    return choices


def _dependent_target_options(g: "Game", ctx: EffectContext, slots: TargetSlots,
                              restrict_loc: int) -> list[list[list[int]]]:
    """Target choices slot by slot, each later slot's candidates found with the earlier choices
    made (355: targets are chosen in order, a later one may refer to an earlier one)."""
    prefixes: list[list[list[int]]] = [[]]
    saved = ctx.targets
    try:
        for i, sel in enumerate(slots):
            grown: list[list[list[int]]] = []
            for prefix in prefixes:
                ctx.targets = prefix + [[] for _ in slots[i:]]
                choices = _slot_choices(g, ctx, sel, slots.facedown[i], restrict_loc)
                for choice in choices or []:
                    grown.append(prefix + [choice])
                    if len(grown) >= MAX_TARGET_COMBOS:
                        break
                if len(grown) >= MAX_TARGET_COMBOS:
                    break
            prefixes = grown
    finally:
        ctx.targets = saved
    moves = slots.moves
    return [option for option in prefixes if not moves or bad_destination(g, moves, option) is None]


def _slots_agree(ctx: EffectContext, slots: TargetSlots, option: list[list[int]],
                 linked: tuple[int, ...]) -> bool:
    """A later slot that refers to earlier targets (distinct_from: [target]) still matches them (355)."""
    saved, ctx.targets = ctx.targets, option
    try:
        return all(ctx.matches_selection(slots[i], oid) for i in linked for oid in option[i])
    finally:
        ctx.targets = saved


def move_pairs(slots: Sequence[dict[str, Any]]) -> tuple[tuple[int, int], ...]:
    """(unit slot, destination slot) of move steps whose destination is chosen as played
    (``TargetSlots.moves``; worked out here for a plain list made at run time)."""
    return (slots if isinstance(slots, TargetSlots) else TargetSlots(slots)).moves


def bad_destination(g: "Game", moves: Sequence[tuple[int, int]], targets: list[list[int]]) -> tuple[str, str] | None:
    """(why, rule) when a chosen move destination is one the unit can't go to (355.4, 144.4, 171, 449.2,
    451.2: ``movement.move_refusal``), else None."""
    for unit_slot, dest_slot in moves:
        if dest_slot >= len(targets) or unit_slot >= len(targets):
            continue
        for dest in targets[dest_slot]:
            for unit in targets[unit_slot]:
                refusal = movement.move_refusal(g, unit, dest)
                if refusal is not None:
                    return refusal
    return None


def _single_choices(g: "Game", ctx: EffectContext, sel: dict[str, Any], restrict_loc: int) -> list[list[int]] | None:
    """``_slot_choices`` for a slot of one object (most): the first MAX_TARGET_COMBOS candidates
    that pass, then the empty choice when the slot is "up to one"; the candidates past the cap are
    never tested, so a big board costs no more than a small one."""
    by_loc = restrict_loc != NOWHERE and sel.get("what") != "location"
    # chosen_by: friendly_only (asked of each enemy candidate only while some object could have the hook)
    guarded = sel.get("what") not in ("location", "player") and layers.hook_in_play(g, "chosen_by")
    # of fits_group's criteria only a total Might can refuse a single object ("a unit with Might 4 or less")
    totalled = "total_might" in (sel.get("where") or {})
    choices: list[list[int]]
    if not by_loc and not guarded and not totalled:
        # nothing to test a candidate for (most): the first MAX_TARGET_COMBOS of them, as they come
        choices = [[c] for c in kept_first(ctx, sel, MAX_TARGET_COMBOS)]
        if sel.get("up_to"):
            if ctx.fits_group(sel, []):
                choices.append([])
        elif not choices:
            return None
        return choices
    choices = []
    found = False
    objs, players = g.state.objs, g.state.players
    team = players[ctx.you].team
    for c in kept_candidates(ctx, sel):
        if by_loc and g.obj(c).zone == "board" and g.obj(c).loc != restrict_loc:
            continue
        if guarded:
            obj = objs.get(c)  # choosable, with its common answer (not an enemy's on the board) inline
            if obj is not None and obj.zone == "board" and players[obj.controller].team != team \
                    and not choosable(g, ctx.you, c):
                continue  # chosen_by: friendly_only
        found = True
        if not totalled or ctx.fits_group(sel, [c]):
            choices.append([c])
            if len(choices) >= MAX_TARGET_COMBOS:
                break
    if sel.get("up_to"):
        if ctx.fits_group(sel, []):
            choices.append([])
    elif not found:
        return None
    return choices


def describe_selection(sel: dict[str, Any]) -> str:
    where = sel.get("where", {})
    words = [f"{k}={v}" for k, v in sorted(where.items())]
    return f"{sel.get('what', 'object')}" + (f" with {', '.join(words)}" if words else "")


def describe_loc(g: "Game", loc: int) -> str:
    if loc == NOWHERE:
        return "nowhere"
    if is_battlefield(loc):
        return g.name(g.bf_at(loc).card)
    return f"{g.state.players[loc].name}'s base"


def note_chosen(g: "Game", player: int, slots: Sequence[dict[str, Any]], targets: list[list[int]], by: str,
            source: int = NOWHERE) -> None:
    """A spell or ability chose these objects as targets (The Dreaming Tree listens to this); the
    history remembers whether a spell, a unit's ability or another ability chose ("if you've chosen
    enemy units twice this turn with spells or unit abilities")."""
    kind = by if by == "spell" or source not in g.state.objs else (
        "unit_ability" if g.card(source).type == "unit" else "ability")
    for sel, chosen in zip(slots, targets):
        if sel.get("what") in ("location", "chain_item"):
            continue  # a chain item (a spell or an ability, named by its source) isn't an object chosen
        for oid in chosen:
            obj = g.state.objs.get(oid)
            if obj is not None:
                g.emit("chosen", obj=oid, player=player, by=by, loc=obj.loc, controller=obj.controller)
                g.remember("chosen", player, oid, code=kind)


# ---------------------------------------------------------------------- kept candidate lists
_KEPT_KINDS = ("unit", "gear", "permanent")
_KEPT_KEYS = frozenset({"pick", "what", "where", "_slot", "count", "up_to"})
_KEPT_LOCATIONS = frozenset({"any", "battlefield", "base", "here", "not_here"})
_KEPT_RELATIONS = frozenset({"you", "yours", "friendly", "enemy", "opponent", "opponents", "not_you", "any", "each"})
_PLAIN_MIGHT_KEYS = frozenset({"type", "amount", "negative"})


def _kept_key(ctx: EffectContext, selector: Node) -> tuple[Any, ...] | None:
    """The key a selection's candidate list is kept under (``Caches.kept``), or None when the selection
    reads more than an object's card type, controller (relative to the player), location (relative
    to the source's) and Might between constant bounds."""
    what = selector.get("what", "unit")
    if what not in _KEPT_KINDS or not _KEPT_KEYS.issuperset(selector):
        return None
    where = selector.get("where")
    if not where:
        return (what,)
    parts: list[Any] = [what]
    for name, want in sorted(where.items()) if len(where) > 1 else where.items():
        if name == "location" and want in _KEPT_LOCATIONS:
            parts.append((name, want, ctx.here() if want in ("here", "not_here") else NOWHERE))
        elif name == "controller" and want in _KEPT_RELATIONS:
            parts.append((name, want, ctx.you))
        elif name == "might" and isinstance(want, dict) and set(want) <= {"min", "max"} \
                and all(type(v) is int for v in want.values()):
            parts.append((name, want.get("min"), want.get("max")))
        else:
            return None
    return tuple(parts)


def might_fixed(g: "Game") -> bool:
    """Whether every board object's Might is its printed Might, its buffs and constant changes that
    lasting effects name it for: no static ability but a victory score, no card with static
    abilities or attached cards on the board, no lasting effect but a constant Might change on
    named objects (then the Might changes only with an event: a buff, a lasting effect, a move)."""
    if any(kind != "victory_score" for kind in layers.statics_by_kind(g)):
        return False
    objs = g.state.objs
    if layers.attachments(g) or any(objs[oid].zone == "board" for oid in g.index.with_statics):
        return False
    if not g.state.lasting:
        return True
    memo = g.lasting_only_memo()
    plain: bool | None = memo.get("plain_might_lasting")
    if plain is None:
        plain = memo["plain_might_lasting"] = all(
            plain_might(lasting.kind, lasting.affects, lasting.body) for lasting in g.state.lasting)
    return plain


def plain_might(kind: str, affects: list[int] | None, body: Node) -> bool:
    """Whether a lasting effect is a constant Might change on named objects (all it changes is their Might)."""
    return kind == "static" and affects is not None and list(body) == ["modifiers"] \
        and all(mod["type"] == "might" and _PLAIN_MIGHT_KEYS.issuperset(mod) and type(mod["amount"]) is int
                for mod in body["modifiers"])


def kept_candidates(ctx: EffectContext, selector: Node) -> Iterator[int]:
    """``ctx.each_candidate(selector)``, kept between listings while nothing it reads can have changed
    (``Caches.kept``: a Reaction spell's targets listed for each player in turn, the same trigger's
    targets for each of its instances); worked out only as far as a caller reads."""
    entry = _kept_entry(ctx, selector)
    if entry is None:
        return ctx.each_candidate(selector)
    return iter(entry.found) if entry.search is None else _read_on(entry)


def kept_first(ctx: EffectContext, selector: Node, n: int) -> list[int]:
    """The first ``n`` of ``kept_candidates`` (a capped listing's): a slice of the kept list when it holds them."""
    entry = _kept_entry(ctx, selector)
    if entry is None:
        return list(itertools.islice(ctx.each_candidate(selector), n))
    if entry.search is None or len(entry.found) >= n:
        return entry.found[:n]
    return list(itertools.islice(_read_on(entry), n))


def _kept_entry(ctx: EffectContext, selector: Node) -> "KeptCandidates | None":
    """The kept list of a selection (made, with nothing found yet, when there is none), or None when
    the selection's candidates are not kept (``_kept_key``, ``might_fixed``)."""
    key = _kept_key(ctx, selector)
    if key is None:
        return None
    g = ctx.g
    kept = g.caches.kept_candidates()
    entry: KeptCandidates | None = kept.get(key)
    if entry is None:
        if "might" in (selector.get("where") or {}):
            fixed = kept.get("might_fixed")
            if fixed is None:
                # its answer changes only with a bump that empties kept (not a located move, nor a
                # constant Might change on named objects: see Caches)
                fixed = kept["might_fixed"] = might_fixed(g)
            if not fixed:
                return None
        entry = kept[key] = KeptCandidates(selector, ctx.you, ctx.source, ctx.event, [], ctx.each_candidate(selector))
    return entry


def _read_on(entry: "KeptCandidates") -> Iterator[int]:
    """A kept list's candidates, the search carried on past those found so far as a caller reads."""
    found = entry.found
    pos = 0
    while True:
        while pos < len(found):
            yield found[pos]
            pos += 1
        search = entry.search
        if search is None:
            return
        for oid in search:
            found.append(oid)
            pos += 1
            yield oid
            if pos != len(found):
                break  # another reader carried the search on meanwhile: read what it found first
        else:
            entry.search = None
            return


class KeptCandidates:
    """A kept candidate list: the selection and the context it was read for (for the comparison with
    a fresh copy), the candidates found so far, and the rest of the search (None when done)."""

    __slots__ = ("selector", "you", "source", "event", "found", "search")

    def __init__(self, selector: Node, you: int, source: int, event: Event | None, found: list[int],
                 search: Iterator[int] | None) -> None:
        self.selector, self.you, self.source, self.event = selector, you, source, event
        self.found, self.search = found, search
