"""Characteristics through layers of continuous effects (Core Rules, layers; 143.2).

Layer 1 (traits) is the card's printed facts plus control; layer 2 grants keywords and hooks;
layer 3 does Might arithmetic: increases first, then decreases (each decrease respects its own
minimum, "to a minimum of 1").  Because a layer-2 grant may depend on layer-3 Might (a unit
"with Shield while Mighty"), the computation repeats until nothing changes.

Results are cached per object and per state version, so a busy board costs nothing until a
characteristic is actually read.  The queries on the continuous effects themselves live here too
(``static_modifiers``, ``restrictions_on``, ``granted_abilities``, ``attached_to``, ...): what the
active static abilities say, read by every rules module.

Mutually recursive with ``effects`` (a genuine pair): a static's condition and its ``affects``
selection are interpreted there, and the interpreter reads characteristics here.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, cast

from ..script.cards import Ability, add_keyword
from . import effects
from .state import NOWHERE, Lasting, Obj, is_battlefield

if TYPE_CHECKING:
    from ..script.cards import CardDef
    from .game import Game


@dataclass(slots=True)
class Chars:
    might: int
    keywords: dict[str, Any] = field(default_factory=dict)
    hooks: dict[str, list[Any]] = field(default_factory=dict)
    prevent_all: bool = False
    enter_ready: bool = False

    # written out: a native constructor when compiled (core/engine/state.py says why)
    def __init__(self, might: int, keywords: dict[str, Any] | None = None, hooks: dict[str, list[Any]] | None = None,
                 prevent_all: bool = False, enter_ready: bool = False) -> None:
        self.might = might
        self.keywords = {} if keywords is None else keywords
        self.hooks = {} if hooks is None else hooks
        self.prevent_all = prevent_all
        self.enter_ready = enter_ready


def chars(g: "Game", oid: int) -> Chars:
    """The object's characteristics now (Might, keywords, hooks), computed once per state version."""
    caches = g.caches
    if caches.chars_version != caches.version:
        caches.chars = {}
        caches.chars_version = caches.version
    cached: Chars | None = caches.chars.get(oid)
    if cached is not None:
        if oid in caches.chars_reads:
            caches.chars_reads[oid] = True  # a partial result was read while it is being computed
        return cached
    obj = g.state.objs[oid]
    if obj.zone not in ("board", "legend", "bfcard") and not _reaches_off_board(g, oid):
        printed = _printed(g, obj.code)
        if printed is not None:
            return printed
    if obj.zone == "board" and _untouched(g, oid, obj.code):
        key = (obj.code, obj.buffs) if obj.buffs else obj.code  # a card's code keeps its hash (a tuple: made anew)
        result = caches.untouched.get(key)
        if result is None:  # the printed Might plus buffs and the printed keywords: one shared answer
            card = g.defs[obj.code]
            result = caches.untouched[key] = Chars(might=card.might + obj.buffs, keywords=dict(printed_keywords(g, card)))
        caches.chars[oid] = result
        return result
    caches.chars[oid] = Chars(might=g.card(oid).might)  # guard against self-reference while computing
    result = _compute(g, oid)
    caches.chars[oid] = result
    return result


def printed_only(g: "Game", oid: int) -> bool:
    """Whether the object's characteristics are its printed ones for sure: off the board, out of reach
    of other objects' statics and lasting effects, and with no conditional text of its own."""
    obj = g.state.objs[oid]
    return obj.zone not in ("board", "legend", "bfcard") and not _reaches_off_board(g, oid) \
        and _printed(g, obj.code) is not None


def _untouched(g: "Game", oid: int, code: str) -> bool:
    """Whether nothing can change this board object's printed characteristics: no static ability of its own
    card can change them now, no card is attached to it, no other object's static ability may select it (by the card
    types and the location its selector is limited to) and no lasting effect names it or selects what
    it affects.  Then ``_compute`` would find no modifier, and its result is the printed Might plus
    buffs and the printed keywords (checked once per state version, which is when the
    characteristics cache is cleared)."""
    card = g.defs[code]
    if card.facts.statics:
        # its own statics change nothing of its characteristics now: they change costs or other objects, or
        # apply only while it is an attacker or a defender and it isn't (CardFacts.chars_while); the statics
        # that may select it, its own among them, are board_reach's
        gate = card.facts.chars_while
        if gate is None or (gate and g.state.objs[oid].designation in gate):
            return False
    anything, types, local, named = board_reach(g)
    if anything or card.type in types or oid in named:
        return False
    if local:
        loc = g.state.objs[oid].loc
        return (loc, card.type) not in local and (loc, "") not in local
    return True


def shortcut_problem(g: "Game", oid: int) -> str | None:
    """For ``invariants.cache_problems``: when the board object's characteristics are taken from its card
    (``_untouched``), how they differ from those worked out through every layer, else None."""
    obj = g.state.objs[oid]
    if obj.zone != "board" or not _untouched(g, oid, obj.code):
        return None
    taken = chars(g, oid)
    saved = g.caches.chars
    g.caches.chars = {k: v for k, v in saved.items() if k != oid}
    try:
        computed = _compute(g, oid)
    finally:
        g.caches.chars = saved
    return None if computed == taken else f"{taken} taken from the card, {computed} through the layers"


Reach = tuple[bool, frozenset[str], frozenset[tuple[int, str]], frozenset[int]]


def board_reach(g: "Game") -> Reach:
    """What may change board objects' characteristics: (a static or lasting effect may select any board
    object; the card types some static may select anywhere; the (location, card type) pairs a static limited
    to the objects at its location may select, "" for any type; the objects a lasting effect names or a card
    is attached to).  Remembered for the state version; while no card was seen attached (``TriggerIndex.
    attached``), kept in ``Game.lasting_memo`` by the places of the statics limited to their location."""
    caches = g.caches
    if caches.memo_version == caches.version:  # the hit, inline
        found: Reach | None = caches.memo_answers.get("board_reach")
        if found is not None:
            return found
    attached = g.index.attached  # none, and no static limited to its location: the lasting memo's answer
    found = None if attached else cast("Reach | None", g.lasting_memo().get("board_reach"))
    if found is not None:
        return found
    memo = caches.memo()
    found = memo.get("board_reach")
    if found is None:
        anything, types, here, by_lasting = lasting_board_reach(g)
        objs = g.state.objs
        if attached:
            found = _reach(anything, types, here, by_lasting, objs, set(attachments(g)))
        else:
            kept = g.lasting_memo()
            key = ("board_reach", tuple((objs[src].zone, objs[src].loc) for src, _ in here)) if here else "board_reach"
            found = kept.get(key)
            if found is None:
                found = kept[key] = _reach(anything, types, here, by_lasting, objs, set())
        memo["board_reach"] = found
    return found


def _reach(anything: bool, types: frozenset[str], here: tuple[tuple[int, tuple[str, ...] | None], ...],
           by_lasting: frozenset[int], objs: dict[int, Obj], hosts: set[int]) -> Reach:
    """``board_reach`` from ``lasting_board_reach`` and the objects cards are attached to."""
    local: set[tuple[int, str]] = set()
    for src, kinds in here:  # 'here' is where the source is now
        source = objs[src]
        if source.zone in ("board", "bfcard"):
            local.update((source.loc, kind) for kind in kinds or ("",))
    return anything, types, frozenset(local), by_lasting | hosts if hosts else by_lasting


def lasting_board_reach(g: "Game") -> tuple[bool, frozenset[str], tuple[tuple[int, tuple[str, ...] | None], ...],
                                            frozenset[int]]:
    """board_reach's part that the statics and the lasting effects decide, found once while they are
    unchanged (``Game.lasting_memo``): (any board object may be selected, the card types a static may
    select anywhere, (source, card types or None for any) of the statics that select only objects at
    their source's location, the objects lasting effects name).  A static's card types are those
    ``_modifiers_for`` checks (``object_statics``); an unconditional one whose selector asks for
    ``location: here`` covers nothing elsewhere (``EffectContext.here`` is its source's location)."""
    memo = g.lasting_memo()
    found: tuple[bool, frozenset[str], tuple[tuple[int, tuple[str, ...] | None], ...], frozenset[int]] | None = \
        memo.get("lasting_board_reach")
    if found is None:
        anything = False
        types: set[str] = set()
        here: list[tuple[int, tuple[str, ...] | None]] = []
        for src, _ability, affects, board_only, kinds in object_statics(g):
            if board_only and (affects.get("where") or {}).get("location") == "here":
                here.append((src, kinds))
            elif kinds is None:
                anything = True
            else:
                types.update(kinds)
        named: set[int] = set()
        for lasting in g.active_lasting():
            if lasting.affects is None:
                anything = anything or lasting.kind == "static"
            elif lasting.kind in ("static", "grant"):
                named.update(lasting.affects)
        found = memo["lasting_board_reach"] = (anything, frozenset(types), tuple(here), frozenset(named))
    return found


def _reaches_off_board(g: "Game", oid: int) -> bool:
    """Whether another object's static or a lasting effect may change this off-board card (a unit
    giving the spells in your hand Reaction), so its printed text isn't enough; worked out once while
    the statics and the lasting effects are unchanged (``Game.lasting_memo``)."""
    found = off_board_reach(g)
    return found[0] or oid in found[1]


def off_board_reach(g: "Game") -> tuple[bool, frozenset[int]]:
    """(another object's static or a lasting effect may change any off-board card, the cards a lasting
    effect names): ``_reaches_off_board`` for every card at once."""
    memo = g.lasting_memo()
    found: tuple[bool, frozenset[int]] | None = memo.get("off_board_reach")
    if found is None:
        lasting_wide, named = _lasting_off_board(g, "lasting_off_board_reach")
        found = memo["off_board_reach"] = (statics_beyond_board(g) or lasting_wide, named)
    return found


def _lasting_off_board(g: "Game", key: str) -> tuple[bool, frozenset[int]]:
    """The lasting effects' part of ``off_board_reach`` (key ``lasting_off_board_reach``) or of
    ``off_board_touch`` (``lasting_off_board_touch``): found once while they are unchanged
    (``Game.lasting_only_memo``), whatever the statics."""
    memo = g.lasting_only_memo()
    found: tuple[bool, frozenset[int]] | None = memo.get(key)
    if found is None:
        wide = False
        named: set[int] = set()
        if key == "lasting_off_board_reach":
            for lasting in g.active_lasting():
                if lasting.kind == "static" and lasting.affects is None:
                    selector = lasting.body.get("affects", "self")
                    wide = wide or not (isinstance(selector, dict) and selector.get("zone", "board") == "board")
                elif lasting.kind in ("static", "grant") and lasting.affects:
                    named.update(lasting.affects)
        else:
            for lasting in g.state.lasting:
                if lasting.kind == "static":
                    if lasting.affects is None:
                        wide = True
                    else:
                        named.update(lasting.affects)
                elif lasting.kind == "grant" and lasting.affects:
                    named.update(lasting.affects)
        found = memo[key] = (wide, frozenset(named))
    return found


def _printed(g: "Game", code: str) -> Chars | None:
    """Characteristics of a card off the board when only its unconditional text applies: its printed
    ones and the hooks of its statics (``CardFacts.printed_hooks``, None when a static is more than
    that), made once per game (``Caches.printed_chars``)."""
    printed = g.caches.printed_chars
    if code in printed:
        return printed[code]
    card = g.defs[code]
    hooks = card.facts.printed_hooks
    result = None if hooks is None else Chars(might=card.might, keywords=dict(printed_keywords(g, card)), hooks=hooks)
    printed[code] = result
    return result


def might(g: "Game", oid: int) -> int:
    return chars(g, oid).might


def has_keyword(g: "Game", oid: int, keyword: str) -> bool:
    return keyword in chars(g, oid).keywords


def hook_values(g: "Game", oid: int, hook: str) -> list[Any]:
    """The values of a hook the object has now.  Where it can't have it, its characteristics are not
    computed: off the board, by ``_hook_possible``; on the board, a legend or a battlefield, while nothing
    in play could bring the hook (``hook_in_play``, answered once per state)."""
    obj = g.state.objs[oid]
    if oid not in g.caches.chars_reads:
        if obj.zone not in _ACTIVE:
            if not _hook_possible(g, oid, obj.code, obj.zone, hook):
                return []
        elif not hook_in_play(g, hook):
            return []
    return chars(g, oid).hooks.get(hook, [])


_ACTIVE: Final = ("board", "legend", "bfcard")
AFFECTED_OFF_BOARD: Final = ("hand", "champion", "chain", "facedown")


# hook_in_play's key in ``memo()`` per hook, made once (a string keeps its hash; a tuple is made and hashed anew)
_HOOK_IN_PLAY: Final[dict[str, str]] = {}


def hook_in_play(g: "Game", hook: str) -> bool:
    """Whether an object on the board, a legend or a battlefield could have the hook now: a static in
    force gives it or gives a keyword (whose abilities may bring any hook; a printed keyword is a static
    of its card, indexed like the others), a card is attached (its effect text is its unit's), or a
    lasting effect grants a keyword or has such a modifier.  When not, ``hook_values`` is empty for every
    such object, and a target search (Deflect's tax, ``chosen_by``) need not ask each candidate.  The
    statics' part is kept while the statics are unchanged (``Game.statics_memo``), the lasting effects'
    while they are (``Game.lasting_only_memo``); ``invariants.cache_problems`` compares both."""
    caches = g.caches
    key = _HOOK_IN_PLAY.get(hook)
    if key is None:
        key = _HOOK_IN_PLAY[hook] = "hook_in_play " + hook
    if caches.memo_version == caches.version:  # the answer of this state, inline: asked for each target listed
        found: bool | None = caches.memo_answers.get(key)
        if found is not None:
            return found
    memo = g.statics_memo()
    found = memo.get(("hook_statics", hook))
    if found is None:
        found = memo[("hook_statics", hook)] = hook_statics(g, hook)
    if not found and attachments(g):
        found = True
    if not found and g.state.lasting:
        lasting_memo = g.lasting_only_memo()
        found = lasting_memo.get(("hook_lasting", hook))
        if found is None:
            found = lasting_memo[("hook_lasting", hook)] = hook_lasting(g, hook)
    g.memo()[key] = found
    return found


def hook_statics(g: "Game", hook: str) -> bool:
    """``hook_in_play``'s part that the statics in force decide: one giving the hook, or a keyword whose static
    abilities give it (``_keyword_gives``; a value still to be worked out: any keyword may), or damage prevention."""
    by_kind = statics_by_kind(g)
    if hook == "prevent_damage" and "prevent_damage" in by_kind:
        return True
    return any(mod["type"] == "hook" and mod.get("hook") == hook for _, ability in by_kind.get("hook", ())
               for mod in ability.body["modifiers"]) or any(
        mod["type"] == "keyword" and (not isinstance(mod.get("value"), (int, str, type(None)))
                                      or _keyword_gives(g, mod["keyword"], mod.get("value"), hook))
        for _, ability in by_kind.get("keyword", ()) for mod in ability.body["modifiers"])


def hook_lasting(g: "Game", hook: str) -> bool:
    """``hook_in_play``'s part that the lasting effects decide: one giving the hook, or a keyword whose static
    abilities give it (a granted [Assault] brings Might, no hook), or damage prevention ("prevent_damage")."""
    for lasting in g.state.lasting:
        if lasting.kind == "grant":
            if _keyword_gives(g, lasting.body["keyword"], lasting.body.get("value"), hook):
                return True
        elif lasting.kind == "static":
            for mod in lasting.body.get("modifiers", ()):
                kind = mod["type"]
                if (kind == "hook" and mod.get("hook") == hook) or (kind == "prevent_damage" and hook == kind) or (
                        kind == "keyword" and _keyword_gives(g, mod["keyword"], mod.get("value"), hook)):
                    return True
    return False


def _keyword_gives(g: "Game", keyword: str, value: Any, hook: str) -> bool:
    """Whether a keyword granted by an effect may give the hook: ``_compute`` takes the hook modifiers of its
    static abilities (compiled with the value, ``Game.keyword_abilities``) and no others."""
    name = keyword.lower().replace("-", "_")
    return any(ability.kind == "static" and any(m.get("type") == "hook" and m.get("hook") == hook
                                                for m in ability.body.get("modifiers", ()))
               for ability in g.keyword_abilities(name, value))


def _hook_possible(g: "Game", oid: int, code: str, zone: str, hook: str) -> bool:
    """Whether a card off the board could have the hook now; when not, computing its
    characteristics (which for a card with conditional text means checking every static
    ability and lasting effect that could reach it) would only find it absent.  Off the board
    its hooks come from its own static abilities and the keywords they grant (``CardFacts.own_hooks``;
    None: a granted keyword may bring any hook) and, in the zones _modifiers_for looks at, from
    other objects' static abilities that reach beyond the board and from lasting effects that
    could affect it."""
    own = g.defs[code].facts.own_hooks
    if own is None or hook in own:
        return True
    if zone not in AFFECTED_OFF_BOARD:
        return False
    wide, named = off_board_touch(g)
    return wide or oid in named


_UNTOUCHED: Final[tuple[bool, frozenset[int]]] = (False, frozenset())


def off_board_touch(g: "Game") -> tuple[bool, frozenset[int]]:
    """What else could change cards in the zones _modifiers_for looks at off the board: (some
    other object's static reaching beyond the board, or a lasting static selecting what it affects,
    could touch any of them; the cards a lasting static or grant names).  Found once while the statics
    and the lasting effects are unchanged (``Game.lasting_memo``; once while the statics are unchanged
    when no lasting effect is in play)."""
    if not g.state.lasting:
        return (True, _UNTOUCHED[1]) if statics_beyond_board(g) else _UNTOUCHED
    memo = g.lasting_memo()
    found: tuple[bool, frozenset[int]] | None = memo.get("off_board_touch")
    if found is None:
        lasting_wide, named = _lasting_off_board(g, "lasting_off_board_touch")
        found = memo["off_board_touch"] = (statics_beyond_board(g) or lasting_wide, named)
    return found


def statics_beyond_board(g: "Game") -> bool:
    """Whether an active static ability of another object could reach a card off the board."""
    memo = g.statics_memo()
    found: bool | None = memo.get("statics_beyond_board")
    if found is None:
        found = memo["statics_beyond_board"] = any(not board_only for _, _, _, board_only, _ in object_statics(g))
    return found


def _own_text_applies(ctx: Any, body: dict[str, Any]) -> bool:
    """A static ability of the object's own text (or its attached cards' effect text) applies when its
    condition and its 'while' hold."""
    return ("condition" not in body or bool(ctx.check(body["condition"]))) and \
        ("while" not in body or bool(ctx.check(body["while"])))


def _modifiers_for(g: "Game", oid: int) -> list[tuple[dict[str, Any], int, int, int]]:
    """(modifier, source object, controller, timestamp) of every static effect applying now."""
    obj = g.state.objs[oid]
    card = g.defs[obj.code]
    out: list[tuple[dict[str, Any], int, int, int]] = []
    # the object's own static abilities (work in every zone when they affect only itself)
    attached = obj.zone == "board" and obj.attached_to != NOWHERE
    copied = copied_units(g)  # units whose text an attached card copies (Svellsongur)
    copies = 1 + copied.count(oid) if copied else 1
    # 718.2: an attached card's rules text is inactive; effect text is the unit's (435.1.e)
    for ability in () if attached else card.facts.own_statics:
        ctx = effects.EffectContext(g, obj.controller, oid)
        if not _own_text_applies(ctx, ability.body):
            continue
        for mod in ability.body["modifiers"] * copies:
            out.append((_resolve_mod(ctx, mod), oid, obj.controller, obj.timestamp))
    if obj.zone != "board" and obj.zone not in AFFECTED_OFF_BOARD and not _reaches_off_board(g, oid):
        return out  # elsewhere (a trash, a deck) only statics reaching 'anywhere' apply
    # 150.2, 435.1.e: the effect text of the cards attached to it is part of this unit's text
    if obj.zone == "board" and card.type == "unit":
        for eq in attached_to(g, oid):
            for ability in g.card(eq).abilities:
                if ability.kind != "static" or not ability.body.get("effect_text") \
                        or ability.body.get("affects", "self") != "self":
                    continue
                ctx = effects.EffectContext(g, obj.controller, oid)
                ctx.text_of = eq  # "this card" in the unit's borrowed text is the equipment
                if not _own_text_applies(ctx, ability.body):
                    continue
                for mod in ability.body["modifiers"]:
                    out.append((_resolve_mod(ctx, mod), eq, obj.controller, g.obj(eq).timestamp))
    # static abilities that affect a selection (Captain Farron, battlefields, legends): the selection
    # decides, so it covers its own source unless it says 'other' ("other friendly units", 'your Dragons')
    on_board = obj.zone == "board"
    for src, ability, affects, board_only, kinds in object_statics(g):
        if (board_only and not on_board) or (kinds is not None and card.type not in kinds):
            continue
        source = g.obj(src)
        ctx = effects.EffectContext(g, source.controller, src)
        if "condition" in ability.body and not ctx.check(ability.body["condition"]):
            continue
        if not ctx.selector_matches(affects, oid):
            continue
        if "while" in ability.body and not ctx.check(ability.body["while"], subject=oid):
            continue
        for mod in ability.body["modifiers"] * (1 + copied.count(src) if copied else 1):
            out.append((_resolve_mod(ctx, mod, subject=oid), src, source.controller, source.timestamp))
    # lasting effects created by resolved spells and abilities
    for lasting in lasting_touching(g, oid):
        if lasting.kind == "grant":
            if lasting.affects and oid in lasting.affects:
                out.append(({"type": "keyword", "keyword": lasting.body["keyword"],
                             "value": lasting.body.get("value"), "granted": True}, lasting.source,
                            lasting.controller, lasting.timestamp))
            continue
        if lasting.kind != "static":
            continue
        if lasting.affects is not None:
            if oid not in lasting.affects:
                continue
            ctx = effects.EffectContext(g, lasting.controller, lasting.source)
        else:
            ctx = effects.EffectContext(g, lasting.controller, lasting.source)
            if not ctx.selector_matches(lasting.body.get("affects", "self"), oid):
                continue
        if "while" in lasting.body and not ctx.check(lasting.body["while"], subject=oid):
            continue
        for mod in lasting.body["modifiers"]:
            if mod["type"] == "enter_ready" and lasting.uses > 0:
                continue  # "the next unit enters ready": applied and spent once by enter_board (143.4)
            out.append((_resolve_mod(ctx, mod, subject=oid), lasting.source, lasting.controller, lasting.timestamp))
    return out


def lasting_touching(g: "Game", oid: int) -> list[Lasting]:
    """The active lasting effects that may change the object's characteristics (``_modifiers_for``): the
    statics and grants that name it and the statics that select what they affect, in the order of
    ``Game.active_lasting``.  With many in play (a combat of "this turn" Might changes), an index by
    the objects they name, kept while the lasting effects are unchanged (``Game.lasting_only_memo``),
    spares working out one unit's characteristics a walk over all of them; ``invariants.cache_problems``
    compares it with a fresh copy's."""
    active = g.active_lasting()
    if len(active) < 8:
        return active
    memo = g.lasting_only_memo()
    found: tuple[list[Lasting], list[int], dict[int, list[int]]] | None = memo.get("lasting_by_object")
    if found is None:
        found = memo["lasting_by_object"] = lasting_by_object(active)
    active, wide, named = found
    mine = named.get(oid)
    if not mine:
        return [active[i] for i in wide]
    return [active[i] for i in (sorted(wide + mine) if wide else mine)]


def lasting_with(g: "Game", kind: str) -> list[Lasting]:
    """The active lasting effects with a modifier of a kind, in their order, found once while the lasting
    effects are unchanged (``Game.lasting_only_memo``; callers must not change the list)."""
    if not g.state.lasting:
        return []
    memo = g.lasting_only_memo()
    found: list[Lasting] | None = memo.get(("lasting_with", kind))
    if found is None:
        found = memo[("lasting_with", kind)] = [lasting for lasting in g.active_lasting()
                                                if any(m["type"] == kind for m in lasting.body.get("modifiers", ()))]
    return found


def lasting_by_object(active: list[Lasting]) -> tuple[list[Lasting], list[int], dict[int, list[int]]]:
    """(the active lasting effects; the places among them of the statics selecting what they affect; each
    object -> the places of the statics and grants naming it)."""
    wide: list[int] = []
    named: dict[int, list[int]] = {}
    for i, lasting in enumerate(active):
        if lasting.kind not in ("static", "grant"):
            continue
        if lasting.affects is None:
            if lasting.kind == "static":
                wide.append(i)
            continue
        for o in lasting.affects:
            places = named.setdefault(o, [])
            if not places or places[-1] != i:
                places.append(i)
    return active, wide, named


def object_statics(g: "Game") -> list[tuple[int, Ability, Any, bool, tuple[str, ...] | None]]:
    """(source, ability, affects, board only, card types) of the board's static abilities that
    affect other objects, oldest first (``TriggerIndex.statics_in_order``); found once while the static sources are unchanged, since
    every object's characteristics ask.  'Board only': its selector covers only objects on the
    board and no condition needs checking first, so objects elsewhere can skip it.  Card types
    (None: any): the only types its selector can match, when no condition needs checking first,
    so objects of other types can skip it (the selector would refuse them by kind)."""
    memo = g.statics_memo()
    found: list[tuple[int, Ability, Any, bool, tuple[str, ...] | None]] | None = memo.get("object_statics")
    if found is None:
        found = []
        for (src, index) in g.index.statics_in_order(g):
            ability = g.ability_of(src, index)
            affects = ability.body.get("affects", "self")
            if affects != "self" and _affects_objects(affects):
                unconditional = "condition" not in ability.body
                board_only = isinstance(affects, dict) and affects.get("zone", "board") == "board" and unconditional
                kinds = _selected_types(affects) if unconditional else None
                found.append((src, ability, affects, board_only, kinds))
        memo["object_statics"] = found
    return found


def _selected_types(affects: Any) -> tuple[str, ...] | None:
    """The card types a static's selector can match (EffectContext.is_kind), None for any."""
    if not isinstance(affects, dict):
        return None
    what = affects.get("what", "unit")
    if what in ("card", "chain_item", "location", "player"):
        return None
    if what == "permanent":
        return ("unit", "gear")
    return (what,)


def _affects_objects(affects: Any) -> bool:
    """Statics that affect players (bonus damage, hide costs, restrictions) change no object."""
    if isinstance(affects, str):
        return affects not in ("you", "controller", "owner", "event_player")
    return bool(affects.get("what") != "player")


def _resolve_mod(ctx: Any, mod: dict[str, Any], subject: int | None = None) -> dict[str, Any]:
    """Fix computed amounts of a modifier now (e.g. 'equal to your points')."""
    amount = mod.get("amount")
    value = mod.get("value")
    if value == "own_cost" and subject is not None:
        # a cost keyword "equal to its cost" (Repeat): the affected card's own cost
        card = ctx.g.card(subject)
        return {**mod, "value": {"energy": card.energy, "power": list(card.power)}}
    if isinstance(amount, dict) or isinstance(value, dict):
        resolved = dict(mod)
        if isinstance(amount, dict):
            resolved["amount"] = ctx.amount(amount, subject=subject)
        if isinstance(value, dict) and "type" in value:  # a cost value (a cost keyword's) is kept as it is
            resolved["value"] = ctx.amount(value, subject=subject)
        return resolved
    return mod


def _compute(g: "Game", oid: int) -> Chars:
    obj = g.state.objs[oid]
    card = g.defs[obj.code]
    base = card.might
    keywords = printed_keywords(g, card)
    if obj.zone == "board" and card.type == "unit" and card.keywords and text_copies(g, oid):
        keywords = dict(keywords)
        for _ in range(text_copies(g, oid)):  # its text copied: its keywords once more
            for name, value in card.keywords:
                _add_keyword(g, keywords, name, value)
    result = Chars(might=base + obj.buffs, keywords=dict(keywords))
    for _ in range(3):
        g.caches.chars[oid] = result
        g.caches.chars_reads[oid] = False
        mods = _modifiers_for(g, oid)
        kw = dict(keywords)
        hooks: dict[str, list[Any]] = {}
        plus = 0
        decreases: list[tuple[int, int]] = []
        prevent_all = False
        enter_ready = False
        granted: list[tuple[str, Any]] = []
        for mod, _src, _ctl, _ts in (sorted(mods, key=operator.itemgetter(3)) if len(mods) > 1 else mods):
            kind: str = mod["type"]  # a str: compiled, compared as one (an Any: rich comparison)
            if kind == "might":
                amount = int(mod["amount"])
                if mod.get("negative"):
                    decreases.append((amount, int(mod.get("minimum", -999))))
                else:
                    plus += amount
            elif kind == "buff_bonus":
                plus += obj.buffs * int(mod.get("amount", 1))
            elif kind == "keyword":
                name = mod["keyword"].lower().replace("-", "_")
                if mod.get("if_absent") and name in kw:
                    continue
                _add_keyword(g, kw, name, mod.get("value"))
                granted.append((name, mod.get("value")))
            elif kind == "hook":
                hooks.setdefault(mod["hook"], []).append(mod["value"])
            elif kind == "prevent_damage":
                if mod.get("from", "any") == "any":
                    prevent_all = True
                else:  # only some damage ("that enemy spells and abilities would deal"): read as it is dealt
                    hooks.setdefault("prevent_damage", []).append(mod["from"])
            elif kind == "enter_ready":
                enter_ready = True
        for name, value in granted:
            for ability in g.keyword_abilities(name, value):
                if ability.kind != "static":
                    continue
                ctx = effects.EffectContext(g, obj.controller, oid)
                if "while" in ability.body and not ctx.check(ability.body["while"]):
                    continue
                for m in ability.body["modifiers"]:
                    m = _resolve_mod(ctx, m)
                    if m["type"] == "hook":
                        hooks.setdefault(m["hook"], []).append(m["value"])
                    elif m["type"] == "might":
                        plus += int(m["amount"])
        doubled = hooks.get("equipment_bonus_times")  # Gearhead: double (a call of max only then)
        times = max([int(v) for v in doubled]) if doubled else 1
        might = base + obj.buffs + plus + _equipment_bonus(g, oid) * times
        for amount, minimum in decreases:
            floor = min(might, minimum) if minimum > -999 else -999
            might = max(might - amount, floor)
        new = Chars(might=might, keywords=kw, hooks=hooks, prevent_all=prevent_all, enter_ready=enter_ready)
        if not g.caches.chars_reads[oid]:
            result = new
            break  # nothing read the partial result, so another pass would find the same
        # read while being worked out: another pass unless it reads the same (compared only then: a
        # dataclass's == runs as Python and compares every field, a sixth of _compute in a greedy game)
        if new == result:
            break
        result = new
    del g.caches.chars_reads[oid]
    return result


def printed_keywords(g: "Game", card: CardDef) -> dict[str, Any]:
    """The card's own keywords with their values (worked out by the compiler: ``CardFacts.printed_keywords``;
    callers copy it before changing it)."""
    found = card.facts.printed_keywords
    if found is None:  # a value the compiler could not stack: as it stands (an error if it is no number)
        found = {}
        for name, value in card.keywords:
            _add_keyword(g, found, name, value)
    return found


def given_keyword_abilities(g: "Game", oid: int, kind: str) -> list[Ability]:
    """The abilities of one kind of the keywords an effect gave an object off the board beyond its printed
    ones: such a keyword works as a printed one does (a spell in a trash given [Flow] may be played from
    there and is banished once it has resolved)."""
    if printed_only(g, oid):
        return []
    printed = printed_keywords(g, g.card(oid))
    return [ability for name, value in chars(g, oid).keywords.items() if name not in printed
            for ability in g.keyword_abilities(name, value) if ability.kind == kind]


def _equipment_bonus(g: "Game", oid: int) -> int:
    """150.2, 137.3: each card attached to this unit adds its Might bonus (layer 3, arithmetic)."""
    if g.state.objs[oid].zone != "board":
        return 0
    return sum(g.card(other).might_bonus for other in attachments(g).get(oid, ()))


def _add_keyword(g: "Game", keywords: dict[str, Any], name: str, value: Any) -> None:
    add_keyword(g.catalog.keywords, keywords, name, value)


def combat_might(g: "Game", oid: int) -> int:
    """467.2.b, 424.1.b: stunned units add no Might; negative Might adds 0; a unit that "doesn't deal
    combat damage" (the hook combat_damage: none) adds 0 too."""
    if g.obj(oid).stunned or "none" in hook_values(g, oid, "combat_damage"):
        return 0
    return max(0, might(g, oid))


def attached_to(g: "Game", unit: int) -> list[int]:
    """The cards attached to a unit (they are at its location: Core Rules, attachment), in the order
    they are there."""
    if g.state.objs[unit].zone != "board":
        return []
    return list(attachments(g).get(unit, ()))


def attachments(g: "Game") -> dict[int, list[int]]:
    """Each object something on the board is attached to -> the cards attached to it that are at its
    location (``attached_to``), in their order there; found once per state version from the objects the
    index saw attached (``TriggerIndex.attached``), not by a walk over the board: characteristics ask
    it for every unit they work out."""
    index = g.index.attached
    if not index:
        return _NO_ATTACHMENTS
    memo = g.caches.memo()
    found: dict[int, list[int]] | None = memo.get("attachments")
    if found is None:
        found = {}
        objs = g.state.objs
        for oid in index:
            obj = objs[oid]
            if obj.zone == "board" and obj.attached_to != NOWHERE:
                found.setdefault(obj.attached_to, []).append(oid)
        for host, cards in found.items():
            unit = objs[host]
            here = (g.bf_at(unit.loc).here if is_battlefield(unit.loc) else g.state.players[unit.loc].base) \
                if unit.zone == "board" and unit.loc != NOWHERE else []
            cards[:] = sorted((c for c in cards if c in here), key=here.index)
        memo["attachments"] = found
    return found


_NO_ATTACHMENTS: Final[dict[int, list[int]]] = {}


def static_modifiers(g: "Game", kind: str) -> list[tuple[dict[str, Any], int]]:
    """Player-level modifiers (bonus damage, cost changes, restrictions) of active static abilities."""
    if not _sources_with(g, kind):
        return []
    return [(mod, src) for mod, src, _ in active_modifiers(g, kind)]


def _sources_with(g: "Game", kind: str) -> list[tuple[int, Ability]]:
    """The static sources with modifiers of a kind (statics_by_kind)."""
    return statics_by_kind(g).get(kind, _NONE)


def statics_by_kind(g: "Game") -> dict[str, list[tuple[int, Ability]]]:
    """The static sources (source, ability) with modifiers of each kind, oldest first: the index that
    lets a board without restrictions, cost changes or granted abilities pay nothing for them.  Kept in
    ``Caches.by_kind``: built in one pass over ``static_sources`` and invalidated whenever they
    change (``TriggerIndex.statics_generation``); invariants.cache_problems compares it with a fresh copy's."""
    caches, generation = g.caches, g.index.statics_generation
    if caches.by_kind_generation == generation:  # the hit, inline: asked ~10 times an action
        return caches.by_kind
    by_kind: dict[str, list[tuple[int, Ability]]] = {}
    for (src, index) in g.index.statics_in_order(g):
        ability = g.ability_of(src, index)
        seen: list[str] = []  # each kind once per ability (a loop, not dict.fromkeys of a generator)
        for mod in ability.body["modifiers"]:
            mod_kind: str = mod["type"]
            if mod_kind in seen:
                continue
            seen.append(mod_kind)
            entries = by_kind.get(mod_kind)
            if entries is None:
                by_kind[mod_kind] = [(src, ability)]
            else:
                entries.append((src, ability))
    caches.by_kind, caches.by_kind_generation = by_kind, generation
    return by_kind


_NONE: Final[list[Any]] = []  # no static source has modifiers of the kind (callers must not change it)


def active_modifiers(g: "Game", kind: str) -> list[tuple[dict[str, Any], int, Ability]]:
    """(modifier, source, its static ability) of the active static abilities with modifiers of a kind."""
    out: list[tuple[dict[str, Any], int, Ability]] = []
    for src, ability in _sources_with(g, kind):
        for mod in ability.body["modifiers"]:
            if mod["type"] != kind:
                continue
            ctx = effects.EffectContext(g, g.obj(src).controller, src)
            if "condition" in ability.body and not ctx.check(ability.body["condition"]):
                break
            if "while" in ability.body and not ctx.check(ability.body["while"]):
                break
            out.append((mod, src, ability))
    return out


def restricted(g: "Game", restriction: str) -> list[tuple[dict[str, Any], int, list[int]]]:
    """(modifier, source, the objects on the board its 'affects' covers) of the active restrictions of one kind,
    once per state version (listing moves asks for every unit and destination; callers must not change the
    list).  Not kept while characteristics are being worked out: a selection read then may see a partial result."""
    if not lasting_with(g, "restriction") and not _sources_with(g, "restriction"):
        return []  # none anywhere: most states, asked for every unit and location listed (no memo entry)
    memo = g.memo() if not g.caches.chars_reads else None
    key = ("restricted", restriction)
    if memo is not None:
        hit: list[tuple[dict[str, Any], int, list[int]]] | None = memo.get(key)
        if hit is not None:
            return hit
    out: list[tuple[dict[str, Any], int, list[int]]] = []
    for mod, src, ability in active_modifiers(g, "restriction"):
        if mod["restriction"] == restriction:
            affects = ability.body.get("affects", "self")
            covered = [src] if affects == "self" else \
                effects.EffectContext(g, g.obj(src).controller, src).resolve(affects)
            out.append((mod, src, covered))
    if g.state.lasting:
        # created effects: "They can't move it this turn", "Its controller can't play spells this turn"
        out += [(mod, source, list(affects)) for mod, source, affects in lasting_restrictions(g, restriction)]
    if memo is not None:
        memo[key] = out
    return out


def lasting_restrictions(g: "Game", restriction: str) -> list[tuple[dict[str, Any], int, list[int]]]:
    """(modifier, source, the objects it covers) of the lasting effects in force with a restriction of one
    kind.  Those naming their objects are found once while the lasting effects are unchanged
    (``Game.lasting_only_memo``); one that selects them ("this turn, enemy units can't move") is read now."""
    memo = g.lasting_only_memo()
    key = ("lasting_restrictions", restriction)
    found: list[tuple[dict[str, Any], int, list[int]]] | None = memo.get(key)
    if found is None:
        found = memo[key] = [(mod, lasting.source, lasting.affects) for lasting in g.active_lasting()
                             if lasting.kind == "static" and lasting.affects is not None
                             for mod in lasting.body["modifiers"]
                             if mod["type"] == "restriction" and mod["restriction"] == restriction]
    selecting = [lasting for lasting in lasting_with(g, "restriction") if lasting.kind == "static" and lasting.affects is None]
    if not selecting:
        return found
    out = list(found)
    for lasting in selecting:
        mods = [mod for mod in lasting.body["modifiers"] if mod["type"] == "restriction" and mod["restriction"] == restriction]
        if mods:
            covered = lasting_selection(g, lasting)
            out += [(mod, lasting.source, covered) for mod in mods]
    return out


def lasting_covers(g: "Game", lasting: Lasting, oid: int) -> bool:
    """Whether a lasting static covers an object now: one of the objects it names, or one its selection
    matches (its ``while`` checked), read from the side of the effect's controller."""
    if lasting.affects is not None:
        return oid in lasting.affects
    ctx = effects.EffectContext(g, lasting.controller, lasting.source)
    if "while" in lasting.body and not ctx.check(lasting.body["while"], subject=oid):
        return False
    return ctx.selector_matches(lasting.body.get("affects", "self"), oid)


def lasting_selection(g: "Game", lasting: Lasting) -> list[int]:
    """The objects or players a lasting static that selects what it affects covers now (its ``while``
    checked): read from the side of the effect's controller, as its source's static would be."""
    ctx = effects.EffectContext(g, lasting.controller, lasting.source)
    if "while" in lasting.body and not ctx.check(lasting.body["while"]):
        return []
    return ctx.resolve(lasting.body.get("affects", "self"))


def static_modifiers_affecting(g: "Game", kind: str, oid: int) -> list[tuple[dict[str, Any], int]]:
    """The active static modifiers of a kind whose ``affects`` covers an object in any zone (a card
    being played from hand): ``self`` (the default) covers only the ability's own object, a
    selection an object of its kind that meets its filter (where it is, only on the board)."""
    if not _sources_with(g, kind):
        return []
    return [(mod, src) for mod, src, _ in _covering(g, kind, oid)]


def modifiers_applying(g: "Game", oid: int, kind: str) -> list[tuple[dict[str, Any], int]]:
    """(modifier, controller) of every modifier of a kind applying to the object now: its own and
    affecting statics and the lasting effects, each with the player who controls it (the hook a modifier
    gives may read whose it is: "any amount of *your* damage")."""
    return [(mod, ctl) for mod, _src, ctl, _ts in _modifiers_for(g, oid) if mod["type"] == kind]


def text_copies(g: "Game", unit: int) -> int:
    """How many cards attached to the unit copy its text into their effect text ("copy that unit's
    text to this Equipment's effect text"): each is one more instance of the unit's own abilities
    and keywords (435.1.e: effect text is the unit's)."""
    copied = copied_units(g)
    return copied.count(unit) if copied else 0


def copied_units(g: "Game") -> list[int]:
    """The units whose text an attached card copies, once per such card (worked out once per state)."""
    if not _sources_with(g, "copy_text"):
        return []
    memo = g.caches.memo()
    found: list[int] | None = memo.get("copied_units")
    if found is None:
        copiers = static_modifiers(g, "copy_text")
        found = memo["copied_units"] = [g.state.objs[src].attached_to for _, src in copiers] if copiers else []
    return found


def granted_abilities(g: "Game", oid: int) -> list[tuple[dict[str, Any], int, Ability]]:
    """(grant_ability modifier, source, its static ability) of the statics giving the object an
    activated ability ("friendly legends have '{Exhaust}: ...'"), then of the created effects on it
    ("this turn, give it '{Any}{Any}: Ready me'": the static is the created effect's, its index minus
    the effect's id)."""
    out = _covering(g, "grant_ability", oid) if _sources_with(g, "grant_ability") else []
    for lasting in granting_lasting(g):
        if lasting_covers(g, lasting, oid):
            static = Ability(kind="static", index=-lasting.id, body=lasting.body)
            out += [(mod, lasting.source, static) for mod in lasting.body["modifiers"] if mod["type"] == "grant_ability"]
    return out


def granting_lasting(g: "Game") -> list["Lasting"]:
    """The lasting effects in force that give objects activated abilities, found once while the
    lasting effects are unchanged (``Game.lasting_only_memo``; callers must not change the list)."""
    if not g.state.lasting:
        return []
    memo = g.lasting_only_memo()
    found: list["Lasting"] | None = memo.get("granting_lasting")
    if found is None:
        found = memo["granting_lasting"] = [
            lasting for lasting in g.active_lasting() if lasting.kind == "static"
            and any(mod["type"] == "grant_ability" for mod in lasting.body["modifiers"])]
    return found


def may_grant_abilities(g: "Game") -> bool:
    """Whether a static on the board or a created effect could give an object an activated ability (grant_ability)."""
    return bool(_sources_with(g, "grant_ability")) or bool(granting_lasting(g))


def _covering(g: "Game", kind: str, oid: int) -> list[tuple[dict[str, Any], int, Ability]]:
    obj = g.obj(oid)
    out: list[tuple[dict[str, Any], int, Ability]] = []
    for mod, src, ability in active_modifiers(g, kind):
        affects = ability.body.get("affects", "self")
        ctx = effects.EffectContext(g, g.obj(src).controller, src)
        if affects == "self":
            covered = src == oid
        elif isinstance(affects, dict):
            where = {k: v for k, v in (affects.get("where") or {}).items()
                     if k != "location" or obj.zone in ("board", "facedown")}
            covered = ctx.is_kind(oid, affects.get("what", "unit")) and ctx.matches(oid, where) \
                and ctx.whose_covers(affects, oid)
        else:
            covered = oid in ctx.resolve(affects)
        if covered:
            out.append((mod, src, ability))
    return out


def restrictions_on(g: "Game", restriction: str, player: int | None = None, unit: int | None = None,
                    loc: int | None = None) -> list[dict[str, Any]]:
    """The active restrictions of that name that apply: to a player or a unit their 'affects' covers
    (without either, all of them), or - with loc - those of the battlefield at that location ("Units
    can't be played here")."""
    out: list[dict[str, Any]] = []
    who = player if player is not None else unit
    for mod, src, covered in restricted(g, restriction):
        source = g.obj(src)
        if loc is not None and not (source.zone == "bfcard" and source.loc == loc):
            continue
        if who is not None and who not in covered:
            continue
        out.append(mod)
    return out
