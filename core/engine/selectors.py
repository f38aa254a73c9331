"""What a selection can pick, and how it is narrowed: the zones it looks in (``zone:``), the filter keys
of ``where:``, the states ``{type: is, state: ...}`` asks about, and where an object is (``location``).

The interpreter (core/engine/effects.py) reads these tables as it finds a selection's candidates; the
words register here as this module loads (``core/engine/game.py`` and ``core/engine/language.py``
import it).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import layers
from .effects import FILTERS, LOCATIONS, RELATIONS, STATES, ZONES, EffectContext, FilterFn, Node, StateFn, ZoneFn, rune_pools
from .state import NOWHERE, Obj, Zone, is_battlefield

if TYPE_CHECKING:
    from ..script.cards import CardDef


# ---------------------------------------------------------------------- zones (ZONES)
def _players_zone(attr: str) -> ZoneFn:
    def ids(ctx: EffectContext, selector: Node) -> list[int]:
        players = ctx.players(selector.get("whose", "you"))
        return [oid for p in players for oid in getattr(ctx.g.state.players[p], attr)]
    return ids


for _zone in (Zone.HAND, Zone.TRASH, Zone.MAIN_DECK, Zone.RUNE_DECK, Zone.CHAMPION, Zone.BANISHED):
    ZONES.register(_zone.script_name)(_players_zone(_zone.value))  # the Player field is named after the zone


@ZONES.register("board")
def _zone_board(ctx: EffectContext, selector: Node) -> list[int]:
    """The board; with ``whose``, what those players control ("they move a unit they control")."""
    if "whose" not in selector:
        return ctx.g.board_objects()
    players = ctx.players(selector["whose"])
    return [oid for oid in ctx.g.board_objects() if ctx.g.obj(oid).controller in players]


@ZONES.register("chain")
def _chain_cards(ctx: EffectContext, selector: Node) -> list[int]:
    """The spells on the chain; for what: chain_item, the sources of its abilities too ("counter a spell
    or ability": an ability is chosen by its source, the newest of its items counts)."""
    if selector.get("what") == "chain_item":
        return list(dict.fromkeys(item.obj for item in ctx.g.state.chain))
    return [item.obj for item in ctx.g.state.chain if item.kind == "card"]


@ZONES.register("anywhere")
def _zone_anywhere(ctx: EffectContext, selector: Node) -> list[int]:
    """Every object in the game, wherever it is ("Your Equipment everywhere have ...")."""
    return [oid for oid, obj in ctx.g.state.objs.items() if obj.zone not in ("gone", "removed")]


@ZONES.register("facedown")
def _zone_facedown(ctx: EffectContext, selector: Node) -> list[int]:
    return [oid for bf in ctx.g.state.battlefields for oid in bf.facedown]




@ZONES.register("in_play")
def _zone_in_play(ctx: EffectContext, selector: Node) -> list[int]:
    # every card on the table: units and gear, runes, legends ("ready something else", Miss Fortune)
    g = ctx.g
    return g.board_objects() + rune_pools(ctx) + [p.legend for p in g.state.players if p.legend != NOWHERE]


# ---------------------------------------------------------------------- filters (FILTERS)
@FILTERS.register("controller")
def _f_controller(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    controller = obj.controller
    if obj.zone == "bfcard":
        # a battlefield is controlled by whoever controls it now; an uncontrolled one by nobody
        controller = ctx.g.bf_at(obj.loc).controller
        if controller == NOWHERE:
            return bool(want == "any")
    return RELATIONS[want](ctx.g, ctx.you, controller, ctx.event)


@FILTERS.register("owner")
def _f_owner(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return RELATIONS[want](ctx.g, ctx.you, obj.owner, ctx.event)


@FILTERS.register("any_of")
def _f_any_of(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return any(ctx.matches(oid, alternative) for alternative in want)


@FILTERS.register("at")
def _f_at(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    # a battlefield card is 'at' its own battlefield (198.1), so "that unit's battlefield"
    # (Zenith Blade's destination) is found like a unit there
    where = ctx.location_of(want)
    return where != NOWHERE and obj.zone in ("board", "bfcard") and obj.loc == where


@FILTERS.register("alone")
def _f_alone(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    role = "attacking_alone" if obj.designation == "attacker" else "defending_alone"
    return bool(ctx.state_of(oid, role) == want)


@FILTERS.register("location")
def _f_location(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return LOCATIONS[want](ctx, obj.zone, obj.loc)


@FILTERS.register("other")
def _f_other(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return not want or oid != ctx.source


@FILTERS.register("distinct_from")
def _f_distinct_from(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return not any(oid in ctx.resolve(ref) for ref in want)


def _flag(read: Callable[[EffectContext, int, Obj], bool]) -> FilterFn:
    def check(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
        return bool(read(ctx, oid, obj) == want)
    return check


@FILTERS.register("champion")
def _f_champion(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return bool((card.supertype == "champion") == want)


@FILTERS.register("chosen_champion")
def _f_chosen_champion(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    # 103.3: the champion unit its owner chose for their deck (it started in the Champion Zone)
    return bool((oid == ctx.g.state.players[obj.owner].chosen_champion) == want)


@FILTERS.register("tag")
def _f_tag(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    # a tag an effect gives it on the board ("I am a Mech"): the declarative hook 'tag'
    return want in card.tags or want == card.champion_tag or (
        obj.zone == "board" and want in layers.hook_values(ctx.g, oid, "tag"))


@FILTERS.register("not_tag")
def _f_not_tag(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return want not in card.tags


@FILTERS.register("name")
def _f_name(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return bool(card.name == want)


@FILTERS.register("type")
def _f_type(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return ctx.is_kind(oid, want)


@FILTERS.register("keyword")
def _f_keyword(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    kw = want.lower().replace("-", "_")
    if obj.zone == "board" or (obj.zone in ("trash", "chain", "hand") and not layers.printed_only(ctx.g, oid)):
        return layers.has_keyword(ctx.g, oid, kw)  # off the board too, a keyword an effect gave it
    return card.has_keyword(kw)


@FILTERS.register("paid")
def _f_paid(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """The card being played or resolving paid that optional additional cost ("If you paid the
    additional cost, choose any enemy unit instead": ``any_of: [{might: ...}, {paid: NAME}]``)."""
    return ctx.item is not None and want in ctx.item.paid


@FILTERS.register("tag_named")
def _f_tag_named(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """Has the tag that object named as it was played (its ``named_tag`` hook: "a unit with the named tag")."""
    named = [str(v) for src in ctx.resolve(want) if src in ctx.g.state.objs
             for v in layers.hook_values(ctx.g, src, "named_tag")]
    return any(_f_tag(ctx, oid, obj, card, tag) for tag in named)


@FILTERS.register("not_keyword")
def _f_not_keyword(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """Without that keyword ("a friendly unit without [Temporary]")."""
    return not _f_keyword(ctx, oid, obj, card, want)


@FILTERS.register("occupied_by")
def _f_occupied_by(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A battlefield (or a location) where units of players standing so to you are ("a battlefield
    where you have units")."""
    g = ctx.g
    loc = obj.loc if obj.zone in ("board", "bfcard", "facedown") else NOWHERE
    return loc != NOWHERE and any(ctx.relation(want, g.obj(u).controller) for u in g.units_at(loc))


@FILTERS.register("not_at")
def _f_not_at(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """On the board somewhere else than that location, or the location of that object ("at a
    different location")."""
    where = ctx.location_of(want)
    return obj.zone in ("board", "bfcard") and obj.loc != where


@FILTERS.register("units_total_might")
def _f_units_total_might(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A location whose units (those of players the ``controller`` relation accepts) have a total
    Might in range (Maduli: its Might against the enemy total there)."""
    g = ctx.g
    loc = obj.loc if obj.zone in ("board", "bfcard") else NOWHERE
    rel = want.get("controller", "any")
    total = sum(layers.might(g, u) for u in g.units_at(loc) if ctx.relation(rel, g.obj(u).controller))
    return _in_range(ctx, total, want)


def _in_range(ctx: EffectContext, value: int, want: Node) -> bool:
    if "min" in want:
        low = want["min"]
        if value < (low if type(low) is int else ctx.amount(low)):  # a constant bound as it is (most)
            return False
    if "max" in want:
        high = want["max"]
        return not value > (high if type(high) is int else ctx.amount(high))
    return True


@FILTERS.register("might")
def _f_might(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return _in_range(ctx, layers.might(ctx.g, oid) if obj.zone == "board" else card.might, want)


@FILTERS.register("energy_cost")
def _f_energy_cost(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return _in_range(ctx, card.energy, want)


@FILTERS.register("power_cost")
def _f_power_cost(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    return _in_range(ctx, len(card.power), want)


@FILTERS.register("total_might")
def _f_total_might(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    # one object alone must fit; what is chosen together is checked by EffectContext.fits_group
    return _in_range(ctx, layers.might(ctx.g, oid) if obj.zone == "board" else card.might, {"max": want["max"]})


@FILTERS.register("same_controller_as")
def _f_same_controller_as(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """Controlled by the controller of the object a selector names ("an Equipment with the same controller")."""
    others = [o for o in ctx.resolve(want) if o in ctx.g.state.objs]
    return bool(others) and obj.controller == ctx.g.obj(others[0]).controller


@FILTERS.register("attached_to")
def _f_attached_to(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """Attached to an object a selector names ("one of its Equipment", 150.2)."""
    return obj.zone == "board" and obj.attached_to != NOWHERE and obj.attached_to in ctx.resolve(want)


@FILTERS.register("attached")
def _f_attached(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A card attached to a unit (an attached Equipment) or not (a detached one)."""
    return bool((obj.zone == "board" and obj.attached_to != NOWHERE) == want)


@FILTERS.register("equipped")
def _f_equipped(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A unit with at least one card attached to it ("an equipped unit"), or (a filter) with one
    such card that matches it: "your Equipment each give ..." reaches a unit wearing one of yours,
    whoever controls the unit."""
    if isinstance(want, dict):
        return obj.zone == "board" and any(ctx.matches(a, want) for a in layers.attached_to(ctx.g, oid))
    return bool(bool(obj.zone == "board" and layers.attached_to(ctx.g, oid)) == want)


@FILTERS.register("chooses")
def _f_chooses(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A spell or ability on the chain that chose an object matching a filter (355: its targets)."""
    g = ctx.g
    return any(item.obj == oid and any(t in g.state.objs and ctx.matches(t, want)
                                       for slot in item.targets for t in slot if isinstance(t, int))
               for item in g.state.chain)


@FILTERS.register("chooses_only", fields=("of", "no_other"))
def _f_chooses_only(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A spell or ability on the chain that chose every object a selector names and no other object
    matching a filter ("that chooses it and no other friendly unit"; without ``no_other``, nothing
    else at all). 355: what an item chooses are its targets."""
    g = ctx.g
    named = {o for o in ctx.resolve(want["of"]) if o in g.state.objs}
    if not named:
        return False  # "it" is gone or no longer a legal choice: nothing chooses it
    others = want.get("no_other")
    for item in g.state.chain:
        if item.obj != oid:
            continue
        chosen = {t for slot in item.targets for t in slot if isinstance(t, int) and t in g.state.objs}
        if named <= chosen and not any(others is None or ctx.matches(t, others) for t in chosen - named):
            return True
    return False


@FILTERS.register("banished_with")
def _f_banished_with(ctx: EffectContext, oid: int, obj: Obj, card: "CardDef", want: Any) -> bool:
    """A card banished "with" an object (The Zero Drive): remembered by the banishing effect."""
    holders = ctx.resolve(want)
    return obj.zone == "banished" and any(h in ctx.g.state.banished_with.get(str(oid), []) for h in holders)


# ---------------------------------------------------------------------- states (STATES)
@STATES.register("attacker")
def _s_attacker(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board" and obj.designation == "attacker"


@STATES.register("defender")
def _s_defender(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board" and obj.designation == "defender"


def _alone(role: str) -> StateFn:
    def state(ctx: EffectContext, oid: int, obj: Obj) -> bool:
        if obj.zone != "board" or obj.designation != role:
            return False
        g = ctx.g
        mates = [u for u in g.units_at(obj.loc) if g.obj(u).designation == role
                 and g.obj(u).controller == obj.controller]
        return len(mates) == 1
    return state


STATES.register("attacking_alone")(_alone("attacker"))
STATES.register("defending_alone")(_alone("defender"))


@STATES.register("at_battlefield")
def _s_at_battlefield(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board" and is_battlefield(obj.loc)


@STATES.register("at_base")
def _s_at_base(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board" and not is_battlefield(obj.loc)


@STATES.register("buffed")
def _s_buffed(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.buffs > 0


@STATES.register("stunned")
def _s_stunned(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return bool(obj.stunned)


@STATES.register("mighty")
def _s_mighty(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return layers.might(ctx.g, oid) >= 5


@STATES.register("damaged")
def _s_damaged(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.damage > 0


@STATES.register("exhausted")
def _s_exhausted(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return bool(obj.exhausted)


@STATES.register("ready")
def _s_ready(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return not obj.exhausted


@STATES.register("token")
def _s_token(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return bool(obj.token)


@STATES.register("in_combat")
def _s_in_combat(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    sd = ctx.g.state.showdown
    return sd is not None and sd.combat and obj.zone == "board" and obj.loc == sd.bf


@STATES.register("in_showdown")
def _s_in_showdown(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """At the battlefield of the showdown under way (a combat's showdown too)."""
    sd = ctx.g.state.showdown
    return sd is not None and obj.zone in ("board", "bfcard") and obj.loc == sd.bf


@STATES.register("died_alone")
def _s_died_alone(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """It died with no other friendly unit at its location (Deathknell "if I didn't die alone");
    judged as it died (``verbs.kill`` remembers it), units dying with it counting as there."""
    return any(h.kind == "died_alone" and h.obj == oid for h in ctx.g.state.history)


@STATES.register("conquered_this_turn")
def _s_conquered_this_turn(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """It conquered this turn: it was one of its controller's units at a battlefield they conquered."""
    return any(h.kind == "conquered_with" and h.obj == oid for h in ctx.g.state.history)


@STATES.register("played_hidden")
def _s_played_hidden(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """A card on the chain that was played from facedown (Hidden, 811) rather than from a hand."""
    return any(item.kind == "card" and item.obj == oid and item.from_hidden for item in ctx.g.state.chain)


@STATES.register("facedown")
def _s_facedown(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "facedown"


@STATES.register("on_board", "alive")
def _s_on_board(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    return obj.zone == "board"


@STATES.register("in_hand")
def _s_in_hand(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """In its owner's hand (a discount that holds only off the hand)."""
    return obj.zone == "hand"


@STATES.register("one_on_one")
def _s_one_on_one(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """Attacking or defending alone against a single enemy unit in that combat ("one on one")."""
    if obj.zone != "board" or obj.designation not in ("attacker", "defender"):
        return False
    g = ctx.g
    here = [g.obj(u) for u in g.units_at(obj.loc)]
    mine = [u for u in here if u.designation == obj.designation and u.controller == obj.controller]
    theirs = [u for u in here if u.designation not in ("", obj.designation) and u.controller != obj.controller]
    return len(mine) == 1 and len(theirs) == 1


@STATES.register("was_mighty")
def _s_was_mighty(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """Mighty as it was last on the board: a unit that died is judged by its Might when it died
    (Deathknell "if I was Mighty"); on the board, by its Might now."""
    if obj.zone == "board":
        return layers.might(ctx.g, oid) >= 5
    return any(h.kind == "died_mighty" and h.obj == oid for h in ctx.g.state.history)


@STATES.register("controlled")
def _s_controlled(ctx: EffectContext, oid: int, obj: Obj) -> bool:
    """Controlled by you: a battlefield you control ("while you control this battlefield"), or your object."""
    if obj.zone == "bfcard":
        return ctx.g.bf_at(obj.loc).controller == ctx.you
    return obj.controller == ctx.you


# the boolean filter keys that ask the same as a state ({stunned: true} = {type: is, state: stunned})
for _key in ("stunned", "buffed", "damaged", "exhausted", "ready", "mighty", "token", "facedown", "in_combat",
             "in_hand"):
    FILTERS.register(_key)(_flag(STATES.entries[_key]))
FILTERS.register("attacker")(_flag(lambda ctx, oid, obj: obj.designation == "attacker"))
FILTERS.register("defender")(_flag(lambda ctx, oid, obj: obj.designation == "defender"))


# ---------------------------------------------------------------------- locations (LOCATIONS, PLACES)
def _located(zone: str) -> bool:
    """Objects in these zones are at a location: on the board, or hidden facedown at a battlefield (811)."""
    return zone in ("board", "facedown")


@LOCATIONS.register("any")
def _l_any(ctx: EffectContext, zone: str, loc: int) -> bool:
    return True


@LOCATIONS.register("battlefield")
def _l_battlefield(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and is_battlefield(loc)


@LOCATIONS.register("base")
def _l_base(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and not is_battlefield(loc)


@LOCATIONS.register("here")
def _l_here(ctx: EffectContext, zone: str, loc: int) -> bool:
    here = ctx.here()
    return _located(zone) and loc == here and here != NOWHERE


@LOCATIONS.register("not_here")
def _l_not_here(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and loc != ctx.here()


@LOCATIONS.register("there")
def _l_there(ctx: EffectContext, zone: str, loc: int) -> bool:
    there = ctx.bindings.get("there") or []
    return _located(zone) and bool(there) and loc == there[0]


@LOCATIONS.register("event_location")
def _l_event_location(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and ctx.event is not None and loc == ctx.event.get("loc", NOWHERE)


@LOCATIONS.register("same_as_event_subject")
def _l_same_as_event_subject(ctx: EffectContext, zone: str, loc: int) -> bool:
    subj = ctx.ref("event_subject")
    return _located(zone) and bool(subj) and ctx.g.obj(subj[0]).loc == loc


@LOCATIONS.register("open_battlefield")
def _l_open_battlefield(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and is_battlefield(loc) and ctx.g.bf_at(loc).controller == NOWHERE


@LOCATIONS.register("controlled_battlefield")
def _l_controlled_battlefield(ctx: EffectContext, zone: str, loc: int) -> bool:
    return _located(zone) and is_battlefield(loc) and ctx.g.bf_at(loc).controller == ctx.you


@LOCATIONS.register("enemy_battlefield")
def _l_enemy_battlefield(ctx: EffectContext, zone: str, loc: int) -> bool:
    # 740.1.a, 491.8.e: a battlefield a teammate controls is friendly, not an enemy's
    if not _located(zone) or not is_battlefield(loc):
        return False
    controller = ctx.g.bf_at(loc).controller
    return controller != NOWHERE and not ctx.g.friendly(controller, ctx.you)
