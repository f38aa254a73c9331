"""Targets (chosen objects and locations) of spells and abilities: the target slots a script has, the
legal choices for each, and recording that objects were chosen (the Dreaming Tree listens to it).
Below playing, activating and the chain, which all ask here.
"""
from __future__ import annotations

import itertools
from typing import Any, Final, Iterator, NamedTuple, Sequence, TYPE_CHECKING

from . import layers, movement
from ..errors import IllegalActionError
from ..script.cards import Ability, CardDef, TargetSlots, walk_targets
from .effects import EffectContext, Event, Node
from .state import NOWHERE, ChainItem, is_battlefield
from .vocabulary import ModeTargets

if TYPE_CHECKING:
    from .game import Game


MAX_TARGET_COMBOS: Final = 60


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
        return _closed(ctx, sel, choices, bool(choices))
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
    return _closed(ctx, sel, choices, found)


def _closed(ctx: EffectContext, sel: dict[str, Any], choices: list[list[int]],
            found: bool) -> list[list[int]] | None:
    """A one-object slot's choices made final: "up to" may also choose nothing; otherwise a slot with
    no candidate can't be filled (None)."""
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
_KEPT_LOCATIONS: Final = frozenset({"any", "battlefield", "base", "here", "not_here"})
_KEPT_RELATIONS: Final = frozenset({"you", "yours", "friendly", "enemy", "opponent", "opponents", "not_you", "any", "each"})
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


# ---------------------------------------------------------------------- modes ("Choose one —")
# Engine notes, the process of playing a card, step 2 (355): the modes are chosen as the card is played
# (the same process activates an ability), with the targets - and only the chosen modes' targets are
# chosen; no choice may knowingly lead to an illegal action later (355.4), so a mode whose targets can't
# be chosen is not offered.  The action names the options it chose (``mode``, their indexes), and the
# target slots of the options not chosen stay empty.  A triggered ability's are chosen the same way as it is
# put on the chain (ibid.: "choices of triggered abilities ... are made when that trigger is put on the chain").
class Modes(NamedTuple):
    """The modes of a spell or an ability whose effect is a "Choose one —": the choose_one,
    per option the positions (in the spell's or ability's slot list) of its 'pick: target' selections,
    and how many different options are chosen."""

    node: dict[str, Any]
    slots: tuple[frozenset[int], ...]
    number: int  # of different options chosen (the choose_one's count)

    def label(self, index: int) -> str:
        return str(self.node["options"][index].get("label", f"option {index + 1}"))


def modal_node(effect: Any) -> dict[str, Any] | None:
    """The effect's root choose_one when its player chooses the mode as it is played or activated.  A
    ``by_domain_of`` one is decided by a revealed card, one another player chooses (``chooser``) is
    theirs, and one nested inside another instruction ("for each opponent, choose one", "..., then
    choose one") is made as that instruction resolves, and so is an "X or Y" instruction that is the
    whole effect (``on_resolution``: "put a Teemo into your hand from your Champion Zone or the board"):
    these are chosen on resolution."""
    if isinstance(effect, dict) and effect.get("type") == "choose_one" and "by_domain_of" not in effect \
            and effect.get("chooser", "you") == "you" and not effect.get("on_resolution"):
        return effect
    return None


def _modes(node: dict[str, Any], slots: Sequence[dict[str, Any]]) -> Modes:
    per_option = []
    for option in node["options"]:
        inside = walk_targets(option["effect"])  # the compiled script's own selections, found by identity
        per_option.append(frozenset(i for i, sel in enumerate(slots) if any(sel is mine for mine in inside)))
    return Modes(node, tuple(per_option), int(node.get("count", 1)))


def card_modes(card: CardDef) -> Modes | None:
    """The modes of a spell whose spell ability is a "Choose one —" (None for any other card)."""
    if card.type != "spell":
        return None
    for ability in card.abilities:
        if ability.kind == "spell":
            node = modal_node(ability.body.get("effect"))
            if node is not None:
                return _modes(node, target_slots(card))
    return None


def ability_modes(ability: Ability) -> Modes | None:
    """The modes of an activated ability whose effect is a "Choose one —" (None for any other)."""
    node = modal_node(ability.body.get("effect")) if ability.kind == "activated" else None
    return None if node is None else _modes(node, ability_targets(ability))


def trigger_modes(ability: Ability) -> Modes | None:
    """The modes of a triggered ability whose effect is a "Choose one —": chosen, with its targets, as
    the trigger is put on the chain (engine notes, playing a card, step 2: "choices of triggered
    abilities of a permanent are made when that trigger is put on the chain"); None for any other."""
    node = modal_node(ability.body.get("effect")) if ability.kind == "triggered" else None
    return None if node is None else _modes(node, ability_targets(ability))


def item_modes(g: "Game", item: ChainItem) -> Modes | None:
    """The modes of what a chain item resolves, when they were chosen as it was played, activated or
    put on the chain (a trigger)."""
    if item.kind == "card":
        return card_modes(g.card(item.obj))
    if item.kind == "ability" and item.ability >= 0:
        return ability_modes(g.item_ability(item))
    if item.kind == "trigger" and item.ability >= 0:
        return trigger_modes(g.item_ability(item))
    return None


def modes_chosen_this_turn(g: "Game", source: int) -> set[int]:
    """The options of the object's "choose one" chosen this turn (history rows ``mode``)."""
    return {int(h.code) for h in g.state.history if h.kind == "mode" and h.obj == source}


def mode_choices(g: "Game", player: int, source: int, modes: Modes, taken: set[int] | None = None,
                 event: Event | None = None) -> list[list[int]]:
    """The choices of modes open now: ``count`` different options (fewer when fewer are open), each
    option's condition holding (a trigger's may read its ``event``) and, for "choose one that hasn't
    been chosen this turn", not chosen this turn nor by an earlier run of the same play (``taken``,
    820); none when no option is open (then the card can't be played, the ability not activated)."""
    node = modes.node
    ctx = EffectContext(g, player, source, event=event)
    open_options = [i for i, option in enumerate(node["options"]) if "if" not in option or ctx.check(option["if"])]
    if node.get("not_chosen_this_turn"):
        used = modes_chosen_this_turn(g, source) | (taken or set())
        open_options = [i for i in open_options if i not in used]
    size = min(modes.number, len(open_options))
    return [list(combo) for combo in itertools.combinations(open_options, size)] if size else []


def mode_runs(g: "Game", player: int, source: int, modes: Modes, runs: int,
              event: Event | None = None) -> list[list[list[int]]]:
    """Every sequence of choices of modes for the runs of a repeated spell (820: each run makes its own
    choices as it is played), capped; one run: each choice of ``mode_choices`` alone."""
    sequences: list[list[list[int]]] = [[]]
    for _ in range(runs):
        grown: list[list[list[int]]] = []
        for sequence in sequences:
            taken = {i for chunk in sequence for i in chunk}
            grown.extend(sequence + [choice] for choice in mode_choices(g, player, source, modes, taken, event)
                         if not sequence or len(choice) == len(sequence[0]))
        sequences = grown[:MAX_TARGET_COMBOS]
    return sequences


# the slot of an option not chosen: it takes no target (and looks at no candidate but the players)
_UNCHOSEN: Final[dict[str, Any]] = {"pick": "target", "what": "player", "count": 0, "up_to": True}


def mode_slots(slots: TargetSlots, modes: Modes, chosen: Sequence[int]) -> TargetSlots:
    """The slots as the chosen modes leave them: those of the options not chosen take no target."""
    active: set[int] = set()
    for index in chosen:
        active |= modes.slots[index]
    if len(active) == len(slots):
        return slots
    return TargetSlots(sel if i in active else _UNCHOSEN for i, sel in enumerate(slots))


def moded_target_options(g: "Game", player: int, source: int, slots: TargetSlots, modes: Modes | None,
                         restrict_loc: int = NOWHERE, paid: list[str] | None = None,
                         runs: int = 1, event: Event | None = None) -> list[list[list[int]]]:
    """``target_options`` (of ``runs`` runs of a repeated spell, 820: each run's choices, each as legal
    as the first run's would be) for each choice of modes open now, as ``ModeTargets``; without modes,
    the choices of targets themselves (``[[]]`` without slots).  A choice of modes whose targets can't
    be chosen gives none (355.4).  A trigger's targets and options may read its ``event``."""
    if modes is None:
        once = target_options(g, player, source, slots, restrict_loc, event, paid) if slots else [[]]
        return _combined([once] * runs)
    out: list[list[list[int]]] = []
    for sequence in mode_runs(g, player, source, modes, runs, event):
        per_run: list[list[list[list[int]]]] = [
            target_options(g, player, source, mode_slots(slots, modes, chunk), restrict_loc, event, paid)
            if slots else [[]] for chunk in sequence]
        chosen = [i for chunk in sequence for i in chunk]
        out.extend(ModeTargets(targets, chosen) for targets in _combined(per_run))
    return out


def _combined(per_run: list[list[list[list[int]]]]) -> list[list[list[int]]]:
    """The combinations of each run's choices of targets, in order (capped)."""
    combos = per_run[0]
    for once in per_run[1:]:
        combos = [a + b for a in combos for b in once][:MAX_TARGET_COMBOS]
    return combos


def with_mode(action: dict[str, Any], targets: list[list[int]]) -> dict[str, Any]:
    """The action with the modes its listed targets go with (``ModeTargets``), if any."""
    if isinstance(targets, ModeTargets):
        action["targets"] = list(targets)
        action["mode"] = list(targets.mode)
    return action


def check_modes(g: "Game", player: int, source: int, modes: Modes | None, action: dict[str, Any],
                slots: TargetSlots, runs: int = 1) -> tuple[list[int], list[TargetSlots]]:
    """The modes an action chose (each run's in turn, 820), checked (engine notes, playing a card, step
    2; 355), and each run's slots as they leave them; raises IllegalActionError when they can't be chosen
    now, or a target slot of an option not chosen is not empty."""
    given = action.get("mode")
    name = g.name(source)
    if modes is None:
        if given is not None:
            raise IllegalActionError(f"{name} has no modes to choose ('mode' is for a \"choose one\" "
                                     "spell or ability)", "355")
        return [], [slots] * runs
    options = modes.node["options"]
    named = ", ".join(f"{i} ({modes.label(i)})" for i in range(len(options)))
    if given is None:
        raise IllegalActionError(f"choose {name}'s mode as it is played or activated: 'mode' lists "
                                 f"{modes.number} of {named}{' for each run' if runs > 1 else ''}", "355")
    if not isinstance(given, list) or any(type(i) is not int or not 0 <= i < len(options) for i in given):
        raise IllegalActionError(f"'mode' lists options of {name} by index: {named}; got {given!r}", "355")
    chunks: list[list[int]] = []
    taken: set[int] = set()
    pos = 0
    for run in range(runs):
        legal = mode_choices(g, player, source, modes, taken)
        size = len(legal[0]) if legal else modes.number
        chunk = given[pos:pos + size]
        pos += size
        if chunk not in legal:
            raise IllegalActionError(f"{name} can't choose the mode(s) {chunk!r}"
                                     f"{f' for run {run + 1}' if runs > 1 else ''}: "
                                     f"{_mode_refusal(g, source, modes, chunk, legal, taken)}", "355")
        taken |= set(chunk)
        chunks.append(chunk)
    if pos != len(given):
        raise IllegalActionError(f"choose {pos} option(s) of {name}{' in all' if runs > 1 else ''}, "
                                 f"not {len(given)}", "355")
    targets = action.get("targets") or []
    run_slots: list[TargetSlots] = []
    for run, chunk in enumerate(chunks):
        masked = mode_slots(slots, modes, chunk)
        for i, sel in enumerate(masked):
            at = run * len(slots) + i
            if sel is _UNCHOSEN and isinstance(targets, list) and at < len(targets) and targets[at]:
                owner = next(k for k, inside in enumerate(modes.slots) if i in inside)
                raise IllegalActionError(f"target slot {at} of {name} belongs to the mode {modes.label(owner)!r}, "
                                         "which was not chosen: leave it empty ([])", "355")
        run_slots.append(masked)
    return given, run_slots


def _mode_refusal(g: "Game", source: int, modes: Modes, chunk: list[int], legal: list[list[int]],
                  taken: set[int]) -> str:
    """Why a choice of modes is not one of those open (``mode_choices``)."""
    used = modes_chosen_this_turn(g, source) | taken if modes.node.get("not_chosen_this_turn") else set()
    again = [i for i in chunk if i in used]
    if again:
        return f"{modes.label(again[0])!r} was already chosen this turn"
    if len(set(chunk)) != len(chunk):
        return "the options chosen must be different"
    if not legal:
        return "no option is open now"
    if len(chunk) != len(legal[0]):
        return f"choose {len(legal[0])} option(s), not {len(chunk)}"
    if sorted(chunk) in legal:
        return "list the options in the card's order"
    return f"the open choices are {', '.join(str(c) for c in legal)}"
