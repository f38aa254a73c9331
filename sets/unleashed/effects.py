"""Unleashed's own effect primitives (entry point group ``riftscript.effects``).

No other set does these things, so they live here, like the community example's primitive:

- ``{type: become_copy, target: SELECTOR, of: SELECTOR}`` (Reflection tokens: Keeper of Masks, Deceiver,
  Mirror Image): each target token becomes a copy of the other object - it takes that card's name,
  Might, keywords and abilities (layer 1, copy effects) and stays a token; it was already played, so it
  gets none of that card's "when you play me" effects.
- ``{type: copy_token, of: SELECTOR}`` (Zilean): play one more token that is a copy of a token just
  played, at its location, for the ability's controller.
- ``{type: name_tag}`` (The List: "As you play this, name a tag"): its controller names a tag among
  those of every installed card; the card remembers it as its ``named_tag`` hook, which the filter
  ``tag_named`` reads.
- ``{type: add_battlefield, token: NAME}`` (Baron Nashor): put that battlefield token into play as one
  more battlefield if none of that name is there; ``there`` is then that battlefield and "if you do"
  (``did: succeed``) holds.
- ``{type: replace_battlefield, token: NAME}`` / ``{type: restore_battlefield}`` (Green Father, Brush):
  the battlefield where the triggering event happened is replaced by that battlefield token, which
  keeps its control, units and hidden cards; the replaced card is set aside and remembered (the token's
  ``replaced_battlefield`` hook) so that ``restore_battlefield`` can put it back.
"""
from __future__ import annotations

from typing import Any

from riftscript.core.engine import verbs, layers
from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import EffectType
from riftscript.core.engine.state import BF0, NOWHERE, Battlefield

_PLUGIN = "unleashed-effects"


def become_copy(ctx: Any, node: dict[str, Any]) -> None:
    """Tokens on the board take the card of another object (its code); they stay tokens."""
    g = ctx.g
    targets = [o for o in ctx.resolve(node["target"]) if o in g.state.objs]  # first: choosing the model rebinds 'it'
    models = [o for o in ctx.resolve(node["of"]) if o in g.state.objs]
    ctx.bindings["it"] = targets
    if not models:
        return
    code = g.obj(models[0]).code
    for oid in targets:
        obj = g.state.objs.get(oid)
        if obj is None or obj.zone != "board" or not obj.token or oid == models[0]:
            continue
        g.unindex_object(oid)
        obj.code = code
        g.index_object(oid)
        g.emit("become_copy", obj=oid, code=code, player=obj.controller)


def _play_token_copy(g: Any, code: str, controller: int, loc: int, ready: bool) -> int:
    """A token that is a copy of a card, played where the original is (180: played as it enters)."""
    card = g.defs[code]
    obj = g.new_obj(code, controller, "limbo", token=True)
    g.emit("create_token", obj=obj.id, player=controller, code=code)
    verbs.enter_board(g, obj.id, controller, loc, ready=ready)
    g.emit("played", player=controller, obj=obj.id, code=code, type=card.type, loc=loc, token=True)
    return int(obj.id)


def copy_token(ctx: Any, node: dict[str, Any]) -> None:
    g = ctx.g
    made = []
    for oid in ctx.resolve(node["of"]):
        obj = g.state.objs.get(oid)
        if obj is None or obj.zone != "board" or not obj.token:
            continue
        made.append(_play_token_copy(g, obj.code, ctx.you, obj.loc, not obj.exhausted))
    ctx.bindings["it"] = made


def name_tag(ctx: Any, node: dict[str, Any]) -> None:
    """Ask the controller to name a tag; remember it on the source as a lasting hook."""
    g = ctx.g
    tags = sorted({tag for card in g.defs.values() for tag in card.tags})
    if not tags:
        return
    tag = str(ctx.ask(ctx.you, f"name a tag for {g.name(ctx.source)}", [(t, t) for t in tags]))
    ctx.bindings["@named_tag"] = [ctx.source]
    ctx.run({"type": "create_effect", "duration": "permanent", "affects": {"named": "named_tag"},
             "static": {"modifiers": [{"type": "hook", "hook": "named_tag", "value": tag}]}})


def _token(g: Any, name: str) -> Any:
    card = g.catalog.tokens.get(name.lower())
    if card is None:
        from riftscript.core.errors import EngineError

        raise EngineError(f"no token named {name!r} is installed")
    return card


def add_battlefield(ctx: Any, node: dict[str, Any]) -> None:
    g = ctx.g
    card = _token(g, node["token"])
    ctx.last["succeed"] = False
    if any(g.obj(bf.card).code == card.code for bf in g.state.battlefields):
        return  # "if it's not there already"
    obj = g.new_obj(card.code, ctx.you, "limbo", token=True)
    bf = Battlefield(index=len(g.state.battlefields), card=obj.id, owner=ctx.you)
    g.state.battlefields.append(bf)
    obj.zone = "bfcard"
    obj.loc = BF0 + bf.index
    g.index_object(obj.id)
    g.emit("battlefield", player=ctx.you, obj=obj.id, code=card.code, loc=obj.loc)
    ctx.bindings["there"] = [obj.loc]
    ctx.last["succeed"] = True


def _swap_battlefield(g: Any, loc: int, new: int) -> int:
    """Put the object ``new`` in play as the battlefield at ``loc``; the old card is set aside."""
    bf = g.bf_at(loc)
    old = bf.card
    before = g.obj(old)
    g.unindex_object(old)
    before.zone, before.loc = "set_aside", NOWHERE
    incoming = g.obj(new)
    incoming.zone, incoming.loc, incoming.controller = "bfcard", loc, before.controller
    bf.card = new
    g.index_object(new)
    g.emit("battlefield_replaced", obj=new, replaced=old, loc=loc, code=incoming.code)
    return int(old)


def replace_battlefield(ctx: Any, node: dict[str, Any]) -> None:
    g = ctx.g
    loc = ctx.place(node.get("at", "event_location"))
    if loc < BF0:
        return
    card = _token(g, node["token"])
    token = g.new_obj(card.code, g.bf_at(loc).owner, "limbo", token=True)
    old = _swap_battlefield(g, loc, token.id)
    ctx.bindings["@replaced_battlefield"] = [token.id]
    ctx.run({"type": "create_effect", "duration": "permanent", "affects": {"named": "replaced_battlefield"},
             "static": {"modifiers": [{"type": "hook", "hook": "replaced_battlefield", "value": old}]}})


def restore_battlefield(ctx: Any, node: dict[str, Any]) -> None:
    g = ctx.g
    source = g.obj(ctx.source)
    replaced = [int(v) for v in layers.hook_values(g, ctx.source, "replaced_battlefield")]
    if source.zone != "bfcard" or not replaced or g.obj(replaced[-1]).zone != "set_aside":
        return
    loc = source.loc
    _swap_battlefield(g, loc, replaced[-1])
    source.zone = "gone"  # 185.3.b: a token that leaves play ceases to exist


SELECTOR = {"$ref": "#/$defs/selector"}
TOKEN = {"type": "string", "minLength": 1, "maxLength": 200}
PRIMITIVES = [
    EffectType(name="become_copy", run=become_copy, plugin=_PLUGIN, emits=("become_copy",),
               schema={"properties": {"target": SELECTOR, "of": SELECTOR}, "required": ["target", "of"]},
               text="{target} becomes a copy of {of}"),
    EffectType(name="copy_token", run=copy_token, plugin=_PLUGIN, emits=("create_token", "enter_board", "played"),
               schema={"properties": {"of": SELECTOR}, "required": ["of"]},
               text="play an additional copy of {of}"),
    EffectType(name="name_tag", run=name_tag, plugin=_PLUGIN, emits=("lasting",), decides=True,
               schema={"properties": {}}, text="name a tag"),
    EffectType(name="add_battlefield", run=add_battlefield, plugin=_PLUGIN, emits=("battlefield",),
               schema={"properties": {"token": TOKEN}, "required": ["token"]},
               text="add the {token} battlefield token to the board if it's not there already"),
    EffectType(name="replace_battlefield", run=replace_battlefield, plugin=_PLUGIN,
               emits=("battlefield_replaced", "lasting"),
               schema={"properties": {"token": TOKEN, "at": {"$ref": "#/$defs/location"}}, "required": ["token"]},
               text="replace that battlefield with a {token} battlefield token"),
    EffectType(name="restore_battlefield", run=restore_battlefield, plugin=_PLUGIN, emits=("battlefield_replaced",),
               schema={"properties": {}}, text="replace this with the battlefield it replaced"),
]


@hookimpl
def riftscript_effect_types() -> list[EffectType]:
    return list(PRIMITIVES)
