"""Replacement effects (Core Rules, replacement effects): 'if X would happen, Y instead'.

A replacement applies at most once to an event.  Optional ones (a cost, or 'you may') ask their
controller; several applying to one event are applied in the affected object's owner's order
(here: printed abilities by timestamp, then lasting effects by creation).

Mutually recursive with ``verbs`` and ``payment`` (see core/engine/verbs.py): the verbs ask here
whether they are replaced, and a replacement's cost is paid with them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from . import payment, verbs
from .effects import EffectContext
from .state import NOWHERE

if TYPE_CHECKING:
    from .game import Game


_APPLYING: list[tuple[str, int, int]] = []


def replace(g: "Game", event: str, oid: int, info: dict[str, Any]) -> bool:
    """Apply the first applicable replacement of ``event`` for object ``oid``; True if replaced.

    Each replacement applies at most once to an event and to whatever replaced it (Core Rules,
    replacement effects): one already applying is skipped (Zhonya's Hourglass kills itself
    instead of the unit; that kill is not replaced by the Hourglass again)."""
    for src, body, ctx, lasting, key in _applicable(g, event, oid, info):
        if body.get("optional") or body.get("cost"):
            if not _accept(g, ctx, body, oid):
                continue
        if lasting is not None:
            g.spend_use(lasting)
        g.emit("replaced", event=event, obj=oid, by=src)
        _APPLYING.append(key)
        try:
            ctx.run(body["instead"])
        finally:
            _APPLYING.remove(key)
        g.state.needs_cleanup = True
        return True
    return False


def would_ask(g: "Game", event: str, oid: int, info: dict[str, Any]) -> bool:
    """Whether a replacement that asks its controller (optional, or with a cost) applies to the event
    now: a step that is not replayed from a snapshot must not carry the event out itself."""
    return any(body.get("optional") or body.get("cost") for _, body, _, _, _ in _applicable(g, event, oid, info))


def _applicable(g: "Game", event: str, oid: int, info: dict[str, Any]
                ) -> Iterator[tuple[int, dict[str, Any], EffectContext, Any, tuple[str, int, int]]]:
    """The replacements that apply to the event, in order: (source, body, context, lasting effect, key)."""
    s = g.state
    candidates: list[tuple[int, dict[str, Any], int, Any, int]] = []
    # sorted: the index's insertion order is not part of the saved state (to_json, rewinds)
    for (src, index) in sorted(g.index.listeners.get("replace:" + event, {})):
        body = g.defs[s.objs[src].code].abilities[index].body
        holder = src
        if body.get("effect_text"):
            holder = s.objs[src].attached_to  # 435.1.e: an attached card's effect text is the unit's
            if holder == NOWHERE:
                continue
        candidates.append((holder, body, s.objs[holder].controller, None, src))
    for effect in g.active_lasting():
        if effect.kind == "replacement" and effect.body["replaces"]["event"] == event:
            candidates.append((effect.source, effect.body, effect.controller, effect, effect.source))
    for src, body, controller, lasting, text_of in candidates:
        if body.get("controlled_by") == "its_controller" and s.objs[oid].controller >= 0:
            controller = s.objs[oid].controller  # "its controller may pay ... instead" (a battlefield's)
        ctx = EffectContext(g, controller, src, event={"t": event, "obj": oid, **info})
        ctx.text_of = text_of
        ctx.bindings["it"] = [oid]
        if lasting is not None and lasting.affects is not None and oid not in lasting.affects:
            continue
        key = (event, src, lasting.id if lasting is not None else -1)
        if key in _APPLYING:
            continue
        if not _applies(g, ctx, body["replaces"], oid, src, lasting):
            continue
        if "condition" in body and not ctx.check(body["condition"]):
            continue  # every ability works only while its condition holds ("[Empowered] If ... would ...")
        if "if" in body and not ctx.check(body["if"]):
            continue
        yield src, body, ctx, lasting, key


def _applies(g: "Game", ctx: EffectContext, pattern: dict[str, Any], oid: int, src: int,
             lasting: Any = None) -> bool:
    what = pattern.get("what")
    if what is not None and not ctx.is_kind(oid, what):
        return False  # "if a friendly unit would die": not gear
    if pattern.get("by_chooser") and not (ctx.event or {}).get("chosen"):
        return False  # by_chooser: only what the choosing spell or ability does to it
    subject = pattern.get("subject")
    if subject == "self":
        if lasting is not None and lasting.affects is not None:
            return oid in lasting.affects  # a created effect's "it" is the object it affects
        return oid == src
    if subject == "host":
        return g.obj(src).attached_to == oid
    if isinstance(subject, dict):
        return ctx.matches(oid, subject)
    return True


def _accept(g: "Game", ctx: EffectContext, body: dict[str, Any], oid: int) -> bool:
    if body.get("cost"):
        cost = payment.ability_cost(g, ctx.controller, ctx.source, body["cost"])
        plan = payment.plan_payment(g, ctx.controller, cost)
        if plan is None:
            return False
        other = cost.other
        if other.get("exhaust_self") and g.obj(ctx.source).exhausted:
            return False
        if other.get("spend_buff") and g.obj(oid).buffs <= 0:
            return False
        if "xp" in other and g.state.players[ctx.controller].xp < int(other["xp"]):
            return False
        answer = ctx.ask(ctx.controller, f"pay {cost.describe()} to use {g.name(ctx.source)} for {g.name(oid)}?",
                         [("yes", True), ("no", False)])
        if not answer:
            return False
        payment.pay(g, ctx.controller, plan)
        if other.get("exhaust_self"):
            verbs.exhaust(g, [ctx.source])
        if other.get("spend_buff"):
            verbs.spend_buff(g, oid, ctx.controller)
        if other.get("kill_self"):
            verbs.kill(g, [ctx.source], source=ctx.source, by="cost", killer=ctx.controller)
        if "xp" in other:
            verbs.spend_xp(g, ctx.controller, int(other["xp"]))
        return True
    return bool(ctx.ask(ctx.controller, f"use {g.name(ctx.source)} for {g.name(oid)}?",
                        [("yes", True), ("no", False)]))
