"""Numbers and conditions of the script language: player statistics (``{type: stat}``), computed amounts
(``{type: ...}`` where a number goes) and conditions (``if:``, ``condition:``, ``while:``).

The interpreter (core/engine/effects.py) reads these tables through ``EffectContext.amount`` and
``check``; the words register here as this module loads (``core/engine/game.py`` and
``core/engine/language.py`` import it).
"""
from __future__ import annotations

from typing import Any, Callable, Final

from . import layers
from ..errors import EngineError
from ..script.cards import substitute
from .effects import AMOUNTS, CONDITIONS, FILTERS, STATS, EffectContext, Node, StatFn, history_count
from .state import NOWHERE, PHASE_OF


# ---------------------------------------------------------------------- stats (STATS)
def _player_attr(read: Callable[[Any], int]) -> StatFn:
    def stat(ctx: EffectContext, player: int) -> int:
        return read(ctx.g.state.players[player])
    return stat


STATS.register("points")(_player_attr(lambda p: int(p.points)))
STATS.register("hand_size")(_player_attr(lambda p: len(p.hand)))
STATS.register("trash_size")(_player_attr(lambda p: len(p.trash)))
STATS.register("main_deck_size")(_player_attr(lambda p: len(p.main_deck)))
STATS.register("runes")(_player_attr(lambda p: len(p.runes)))
STATS.register("xp")(_player_attr(lambda p: int(p.xp)))


@STATS.register("victory_score")
def _st_victory_score(ctx: EffectContext, player: int) -> int:
    return int(ctx.g.state.victory_score)


@STATS.register("highest_might")
def _st_highest_might(ctx: EffectContext, player: int) -> int:
    g = ctx.g
    return max((layers.might(g, u) for u in g.board_objects()
                if g.obj(u).controller == player and g.card(u).type == "unit"), default=0)


@STATS.register("moves_this_turn")
def _st_moves_this_turn(ctx: EffectContext, player: int) -> int:
    return int(ctx.g.obj(ctx.source).moves_this_turn)  # this object's moves


@STATS.register("cards_played_this_turn")
def _st_cards_played(ctx: EffectContext, player: int) -> int:
    return sum(1 for h in ctx.g.state.history if h.kind == "played" and h.player == player)


@STATS.register("hold_points_this_turn")
def _st_hold_points(ctx: EffectContext, player: int) -> int:
    """Points the player scored from holding this turn (472)."""
    return sum(1 for h in ctx.g.state.history if h.kind == "points" and h.player == player and h.code == "hold")


@STATS.register("power_spent_this_turn")
def _st_power_spent(ctx: EffectContext, player: int) -> int:
    """Power the player spent this turn, of any domain ("if you've spent at least [A][A] this turn")."""
    return sum(int(h.number) for h in ctx.g.state.history if h.kind == "spent_power" and h.player == player)


@STATS.register("opponent_points_max")
def _st_opponent_points_max(ctx: EffectContext, player: int) -> int:
    g = ctx.g
    return max((g.state.players[o].points for o in g.opponents(ctx.you)), default=0)


# ---------------------------------------------------------------------- amounts (AMOUNTS)
@AMOUNTS.register("count", fields=("of", "times", "plus"))
def _a_count(ctx: EffectContext, value: Node, subject: int | None) -> int:
    saved, saved_subject = dict(ctx.bindings), ctx.subject
    if subject is not None:
        ctx.subject = subject  # a static's amount for the object it affects: event_subject is that object
    result = len(ctx.resolve(value["of"]))
    ctx.bindings, ctx.subject = saved, saved_subject
    return result


@AMOUNTS.register("keyword_value", fields=("keyword", "of", "times", "plus"))
def _a_keyword_value(ctx: EffectContext, value: Node, subject: int | None) -> int:
    """The value of a numeric keyword an object has ("damage equal to my [Assault]"), 0 without it."""
    ids = [subject] if value["of"] == "event_subject" and subject is not None else ctx.resolve(value["of"])
    if not ids or ids[0] not in ctx.g.state.objs:
        return 0
    found = layers.chars(ctx.g, ids[0]).keywords.get(str(value["keyword"]).lower().replace("-", "_"))
    return int(found) if isinstance(found, int) else 0


@AMOUNTS.register("might", fields=("of", "times", "plus"))
def _a_might(ctx: EffectContext, value: Node, subject: int | None) -> int:
    ids = [subject] if value["of"] == "event_subject" and subject is not None else ctx.resolve(value["of"])
    if isinstance(value["of"], dict) and value["of"].get("pick") == "all":
        return sum(layers.might(ctx.g, oid) for oid in ids)  # "your other units have total Might 5+"
    if ids and ctx.g.obj(ids[0]).zone != "board":
        # a unit that died: its last known Might ("then, if it had 3 Might or less")
        last = [h.number for h in ctx.g.state.history if h.kind == "died_with_might" and h.obj == ids[0]]
        if last:
            return int(last[-1])
    return layers.might(ctx.g, ids[0]) if ids else 0


@AMOUNTS.register("energy_cost", fields=("of", "times", "plus"))
def _a_energy_cost(ctx: EffectContext, value: Node, subject: int | None) -> int:
    ids = ctx.resolve(value["of"])
    return ctx.g.card(ids[0]).energy if ids else 0


@AMOUNTS.register("power_cost", fields=("of", "times", "plus"))
def _a_power_cost(ctx: EffectContext, value: Node, subject: int | None) -> int:
    """How many power symbols the object's card costs."""
    ids = ctx.resolve(value["of"])
    return len(ctx.g.card(ids[0]).power) if ids else 0


@AMOUNTS.register("stat", fields=("stat", "player", "times", "plus"))
def _a_stat(ctx: EffectContext, value: Node, subject: int | None) -> int:
    return ctx.stat(value["stat"], value.get("player", "you"))


@AMOUNTS.register("variable", fields=("name", "times", "plus"))
def _a_variable(ctx: EffectContext, value: Node, subject: int | None) -> int:
    name = value["name"]
    if name in ctx.variables:
        return ctx.variables[name]
    recorded = [h.number for h in ctx.g.state.history if h.kind == "var:" + name and h.player == ctx.you]
    return int(recorded[-1]) if recorded else 0


@AMOUNTS.register("history", fields=("event", "player", "only_self", "times", "plus"))
def _a_history(ctx: EffectContext, value: Node, subject: int | None) -> int:
    """How many times something happened this turn ("for each time this spell has dealt damage this
    turn": event dealt_damage, only_self)."""
    entries = [h for h in ctx.g.state.history if h.kind == value["event"]
               and ctx.relation(value.get("player", "any"), h.player)]
    if value.get("only_self"):
        entries = [h for h in entries if h.obj == ctx.source]
    return len(entries)


@AMOUNTS.register("tags_among", fields=("of", "tags", "times", "plus"))
def _a_tags_among(ctx: EffectContext, value: Node, subject: int | None) -> int:
    """How many of the listed tags the selected objects have among them ("for each of the following
    tags among your units - Bird, Cat, Dog and Poro")."""
    ids = [o for o in ctx.resolve(value["of"]) if o in ctx.g.state.objs]
    return sum(1 for tag in value["tags"]
               if any(FILTERS["tag"](ctx, o, ctx.g.obj(o), ctx.g.card(o), tag) for o in ids))


# ---------------------------------------------------------------------- conditions (CONDITIONS)
@CONDITIONS.register("all", fields=("of",))
def _c_all(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return all(ctx.check(c, subject) for c in cond["of"])


@CONDITIONS.register("any", fields=("of",))
def _c_any(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return any(ctx.check(c, subject) for c in cond["of"])


@CONDITIONS.register("not", fields=("of",))
def _c_not(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return not ctx.check(cond["of"], subject)


@CONDITIONS.register("exists", fields=("what", "at_least", "at_most"))
def _c_exists(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    saved = dict(ctx.bindings)
    count = len(ctx.resolve(cond["what"]))
    ctx.bindings = saved
    if count < int(cond.get("at_least", 1)):
        return False
    return "at_most" not in cond or count <= int(cond["at_most"])


@CONDITIONS.register("is", fields=("subject", "state"))
def _c_is(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    ids = [subject] if cond["subject"] == "event_subject" and subject is not None else ctx.resolve(cond["subject"])
    return bool(ids) and all(ctx.state_of(oid, cond["state"]) for oid in ids)


_COMPARE: Final[dict[str, Callable[[int, int], bool]]] = {
    "ge": lambda a, b: a >= b, "gt": lambda a, b: a > b, "le": lambda a, b: a <= b,
    "lt": lambda a, b: a < b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


@CONDITIONS.register("compare", fields=("left", "op", "right"))
def _c_compare(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return _COMPARE[cond["op"]](ctx.amount(cond["left"], subject), ctx.amount(cond["right"], subject))


@CONDITIONS.register("history", fields=("event", "player", "at_least", "exclude_self", "subject", "by", "during",
                                        "min_value"))
def _c_history(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return history_count(ctx, cond) >= int(cond.get("at_least", 1))


@CONDITIONS.register("keyword", fields=("keyword", "value"))
def _c_keyword(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    kw = ctx.g.catalog.keywords.get(cond["keyword"].lower())
    if kw is None or kw.condition is None:
        raise EngineError(f"keyword {cond['keyword']!r} defines no condition")
    return ctx.check(substitute(kw.condition, cond.get("value")), subject)


@CONDITIONS.register("did", fields=("what",))
def _c_did(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return bool(ctx.last.get(cond["what"], False))


@CONDITIONS.register("same", fields=("left", "right"))
def _c_same(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    """Both selectors name the same objects, at least one: a trigger of effect text on "an Equipment
    is attached to me" that is about this Equipment only (Shady Spectacles: event_source, this_card)."""
    saved = dict(ctx.bindings)
    left, right = ctx.resolve(cond["left"]), ctx.resolve(cond["right"])
    ctx.bindings = saved
    return bool(left) and set(left) == set(right)


@CONDITIONS.register("paid", fields=("cost",))
def _c_paid(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    if ctx.item is not None and cond["cost"] in ctx.item.paid:
        return True
    # a "when you play me" trigger: the additional costs paid for the card (357)
    event = ctx.event
    return bool(event and event.get("t") == "played" and cond["cost"] in event.get("paid", []))


@CONDITIONS.register("turn", fields=("whose", "phase"))
def _c_turn(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    # 491.8.c: "your turn" is yours alone; a teammate's turn is no opponent's turn either
    if "phase" in cond and PHASE_OF.get(ctx.g.state.step) != cond["phase"]:
        return False  # "if it's your Beginning Phase"
    return ctx.relation(cond["whose"], ctx.g.state.turn_player)


@CONDITIONS.register("showdown")
def _c_showdown(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    """A showdown (a combat's too) is under way ("when you play a unit during a showdown")."""
    return ctx.g.state.showdown is not None


@CONDITIONS.register("attached_this_turn")
def _c_attached_this_turn(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    """This card was attached to the unit it is attached to this turn (its effect text: "if this was
    attached to me this turn")."""
    g = ctx.g
    card = g.state.objs.get(ctx.text_of)
    if card is None or card.attached_to == NOWHERE:
        return False
    return any(h.kind == "attach" and h.obj == ctx.text_of and h.number == card.attached_to for h in g.state.history)


@CONDITIONS.register("first_time", fields=("event",))
def _c_first_time(ctx: EffectContext, cond: Node, subject: int | None) -> bool:
    return history_count(ctx, {"event": cond["event"], "player": "you"}) <= 1
