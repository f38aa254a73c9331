"""The built-in effect primitives, registered through the same hook third-party sets use
(plugins/effect_types.py: this module is compiled with mypyc, and a compiled function can't carry
pluggy's hookimpl mark).

Each primitive reads its script node (schema: ``schemas/effect.schema.json``) and acts through
the game actions of ``riftscript.core.engine.verbs``.  ``emits`` lists the events a primitive can
cause, for the interaction audit.
"""
from __future__ import annotations

from typing import Any

from riftscript.core.engine import layers, movement, payment, playing, points, targeting, verbs
from riftscript.core.engine.effects import EffectContext
from riftscript.core.errors import EngineError
from riftscript.core.script.registry import EffectType
from riftscript.core.engine.state import NOWHERE, ChainItem, Lasting, Zone, is_battlefield
from riftscript.core.engine.vocabulary import ModeTargets

Node = dict[str, Any]


def _by(ctx: EffectContext) -> str:
    """Damage and kills by a spell or by an ability (808, 'kill with a spell')."""
    if ctx.item is not None and ctx.item.kind == "card":
        return "spell"
    return "ability"


def _new_choices(ctx: EffectContext, item: Any) -> None:
    """'You may make new choices for it': its new controller may pick other legal targets (355)."""
    from riftscript.core.engine.targeting import target_options, target_slots

    slots = target_slots(ctx.g.card(item.obj))
    if not slots:
        return
    combos = [c for c in target_options(ctx.g, ctx.you, item.obj, slots) if c != item.targets]
    options: list[tuple[str, Any]] = [("keep its choices", -1)] + [
        ("; ".join(", ".join(ctx.describe(o) for o in slot) for slot in combo), i) for i, combo in enumerate(combos)]
    pick = int(ctx.ask(ctx.you, f"new choices for {ctx.g.name(item.obj)}?", options))
    if pick >= 0:
        item.targets = combos[pick]


# ---------------------------------------------------------------------- control flow
def sequence(ctx: EffectContext, node: Node) -> None:
    for step in node["steps"]:
        ctx.run(step)


def if_(ctx: EffectContext, node: Node) -> None:
    if ctx.check(node["condition"]):
        ctx.run(node["then"])
    elif "else" in node:
        ctx.run(node["else"])


def may(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    chooser = ctx.player(node.get("chooser", "you"))
    name = g.name(ctx.source)
    if node.get("cost", {}).get("power_x") or node.get("cost", {}).get("energy_x"):
        _pay_x(ctx, chooser, node)
        return
    if "cost" in node:
        cost = payment.ability_cost(g, chooser, ctx.source, node["cost"])
        plan = payment.plan_payment(g, chooser, cost)
        if plan is None or not _other_cost_possible(ctx, node["cost"]):
            ctx.last["pay"] = ctx.last["succeed"] = False
            return
        if not ctx.ask(chooser, f"pay {cost.describe()} for {name}'s effect?", [("yes", True), ("no", False)]):
            ctx.last["pay"] = ctx.last["succeed"] = False
            return
        payment.pay(g, chooser, plan)
        pay_other(ctx, node["cost"])
    elif not ctx.ask(chooser, f"do {name}'s optional effect?", [("yes", True), ("no", False)]):
        ctx.last["pay"] = ctx.last["succeed"] = False
        return
    ctx.last["pay"] = True
    if "effect" in node:  # without one, only the payment ("unless its controller pays {2}")
        ctx.run(node["effect"])
    ctx.last["succeed"] = True


def _pay_x(ctx: EffectContext, chooser: int, node: Node) -> None:
    """'Pay any amount of power of any domain' (or 'any amount of energy'): the amount paid is the variable x."""
    g = ctx.g
    energy = bool(node["cost"].get("energy_x"))

    def cost(n: int) -> payment.Cost:
        return payment.Cost(n, []) if energy else payment.Cost(0, [payment.ANY] * n)

    affordable = 0
    while affordable < 12 and payment.plan_payment(g, chooser, cost(affordable + 1)):
        affordable += 1
    x = int(ctx.ask(chooser, f"how much {'energy' if energy else 'power'} to pay for {g.name(ctx.source)}?",
                    [(str(n), n) for n in range(affordable + 1)]))
    ctx.variables["x"] = x
    if x == 0:
        ctx.last["pay"] = ctx.last["succeed"] = False
        return
    plan = payment.plan_payment(g, chooser, cost(x))
    assert plan is not None
    payment.pay(g, chooser, plan)
    ctx.last["pay"] = ctx.last["succeed"] = True
    if "effect" in node:
        ctx.run(node["effect"])


def _other_cost_possible(ctx: EffectContext, cost: Node) -> bool:
    from riftscript.core.engine import chain

    g = ctx.g
    if cost.get("exhaust_self") and g.obj(ctx.source).exhausted:
        return False
    if cost.get("spend_buff") and sum(g.obj(u).buffs for u in _buffed(ctx)) < _buffs_to_spend(cost):
        return False
    if "discard" in cost and len(playing.discardable(g, ctx.you, NOWHERE, cost)) < int(cost["discard"]):
        return False
    if "xp" in cost and g.player(ctx.you).xp < int(cost["xp"]):
        return False
    if "kill" in cost and len(ctx.candidates(cost["kill"])) < _needed(cost["kill"]):
        return False  # as a cost it must be fully possible (engine notes, game actions): kill 3 needs 3
    return True


def _needed(selection: Node) -> int:
    """How many objects a cost's selection must find: its count, or one when it says "up to" or "any number"."""
    if selection.get("up_to") or selection.get("any_number"):
        return 1
    return max(1, int(selection.get("count", 1)))


def pay_other(ctx: EffectContext, cost: Node) -> None:
    from riftscript.core.engine import chain

    g = ctx.g
    if cost.get("exhaust_self"):
        verbs.exhaust(g, [ctx.source])
    if cost.get("kill_self"):
        verbs.kill(g, [ctx.source], source=ctx.source, by="cost", killer=ctx.you)
    if "xp" in cost:
        verbs.spend_xp(g, ctx.you, int(cost["xp"]))
    if "kill" in cost:
        victims = ctx.choose_from(cost["kill"], ctx.candidates(cost["kill"]), "kill")
        verbs.kill(g, victims, source=ctx.source, by="cost", killer=ctx.you)
    if "discard" in cost:
        chosen = ctx.choose_from({"what": "card", "count": int(cost["discard"])},
                                 playing.discardable(g, ctx.you, NOWHERE, cost), "discard")
        verbs.discard(g, ctx.you, chosen)
    for _ in range(_buffs_to_spend(cost) if cost.get("spend_buff") else 0):
        chosen = ctx.choose_from({"what": "unit", "count": 1}, _buffed(ctx), "spend a buff from")
        for oid in chosen:
            verbs.spend_buff(g, oid, ctx.you)


def _buffed(ctx: EffectContext) -> list[int]:
    """Your units with a buff to spend."""
    g = ctx.g
    return [u for u in g.board_objects() if g.obj(u).controller == ctx.you and g.obj(u).buffs]


def _buffs_to_spend(cost: Node) -> int:
    """'spend N buffs' (a number; 'any_number' asks for at least one)."""
    value = cost["spend_buff"]
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def choose_one(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    if "by_domain_of" in node:
        cards = ctx.resolve(node["by_domain_of"])
        domains = set(g.card(cards[0]).domains) if cards else set()
        for opt in node["options"]:
            if str(opt.get("label", "")).lower() in domains:
                ctx.run(opt["effect"])
        return
    item = ctx.item
    if item is not None and item.mode and not node.get("on_resolution"):  # an "X or Y" is chosen here
        modes = targeting.item_modes(g, item)
        if modes is not None and modes.node is node:
            # its modes were chosen as it was played or activated (engine notes, playing a card, step 2; 355),
            # each run of a repeated spell its own (820)
            size = len(item.mode) // (payment.runs(g, item.obj, item.paid) if item.kind == "card" else 1)
            run = ctx.variables.get("_run", 0)
            for pick in item.mode[run * size:(run + 1) * size]:
                ctx.run(node["options"][pick]["effect"])
            return
    chooser = ctx.player(node.get("chooser", "you"))
    options = [(opt.get("label", f"option {i + 1}"), i) for i, opt in enumerate(node["options"])
               if "if" not in opt or ctx.check(opt["if"])]
    if node.get("not_chosen_this_turn"):
        used = {h.code for h in g.state.history if h.kind == "mode" and h.obj == ctx.source}
        options = [(label, i) for label, i in options if str(i) not in used]
    chosen: list[int] = []
    for _ in range(int(node.get("count", 1))):
        left = [(label, i) for label, i in options if i not in chosen]
        if not left:
            break
        pick = int(ctx.ask(chooser, f"choose one for {g.name(ctx.source)}", left))
        chosen.append(pick)
        g.remember("mode", chooser, ctx.source, code=str(pick))
    for pick in chosen:
        ctx.run(node["options"][pick]["effect"])


def for_each(ctx: EffectContext, node: Node) -> None:
    items = ctx.resolve(node["of"])
    for oid in items:
        ctx.bindings["it"] = [oid]
        ctx.run(node["effect"])


def for_each_player(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    which = node.get("players", "each")
    start = g.next_player(ctx.you) if which in ("starting_next", "each_other") else ctx.you
    members = ctx.players(which)
    saved = ctx.you
    for p in [p for p in g.in_turn_order(start) if p in members]:
        ctx.you = p
        ctx.run(node["effect"])
    ctx.you = saved


def repeat(ctx: EffectContext, node: Node) -> None:
    for _ in range(max(0, min(99, ctx.amount(node["times"])))):
        ctx.run(node["effect"])


def choose_player(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    pool = ctx.players(node.get("who", "opponent"))
    if not pool:
        return
    chosen = int(ctx.ask(ctx.you, "choose a player", [(g.player(p).name, p) for p in pool]))
    ctx.bindings["chosen"] = [chosen]
    ctx.run(node["effect"])


def record(ctx: EffectContext, node: Node) -> None:
    ctx.variables[node["name"]] = ctx.amount(node["amount"])


def keyword_effect(ctx: EffectContext, node: Node) -> None:
    raise EngineError("keyword_effect is a placeholder inside keyword definitions and never runs")


# ---------------------------------------------------------------------- damage and death
def deal_damage(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    # the amount first: it may name what the previous step affected ("discard 1. Deal its cost ...")
    amount = ctx.amount(node["amount"])
    targets = ctx.resolve(node["target"], "deal damage to")
    source = ctx.resolve(node["source"])[0] if "source" in node and ctx.resolve(node["source"]) else ctx.source
    if node.get("split") and len(targets) > 1:
        shares = {oid: 0 for oid in targets}
        for i in range(amount):
            # each chosen target gets at least 1 (engine notes, playing a card: split damage), so once
            # the points left are as many as the targets still at 0, only those are offered
            empty = [oid for oid in targets if not shares[oid]]
            offered = empty if len(empty) >= amount - i else targets
            pick = int(ctx.ask(ctx.you, f"assign point {i + 1} of {amount} damage",
                               [(ctx.describe(oid), oid) for oid in offered]))
            shares[pick] += 1
        for oid, share in shares.items():
            if share:
                verbs.deal_damage(g, [oid], share, source, ctx.controller, _by(ctx))
    elif amount > 0:
        verbs.deal_damage(g, targets, amount, source, ctx.controller, _by(ctx))
    ctx.bindings["it"] = targets
    lethal = [t for t in targets
              if g.obj(t).zone == "board" and g.obj(t).damage >= layers.might(g, t) and g.obj(t).damage > 0]
    ctx.last["kill"] = bool(lethal)
    ctx.variables["killed"] = len(lethal)  # "for each unit this kills" (they die in the next cleanup)


def mutual_damage(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    a = ctx.resolve(node["a"])
    b = ctx.resolve(node["b"])
    if not a or not b:
        return
    ua, ub = a[0], b[0]
    if g.obj(ua).zone != "board" or g.obj(ub).zone != "board":
        return
    might_a, might_b = layers.might(g, ua), layers.might(g, ub)
    if might_a > 0:
        verbs.deal_damage(g, [ub], might_a, ua, ctx.controller, _by(ctx))
    if might_b > 0:
        verbs.deal_damage(g, [ua], might_b, ub, ctx.controller, _by(ctx))


def kill(ctx: EffectContext, node: Node) -> None:
    targets = ctx.resolve(node["target"], "kill")
    killed = verbs.kill(ctx.g, targets, source=ctx.source, by=_by(ctx), killer=ctx.controller)
    ctx.last["kill"] = bool(killed)
    ctx.bindings["it"] = targets


def prevent_damage(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    affects = ctx.resolve(node["target"]) if "target" in node else None
    if "amount" in node and affects is not None and not node.get("all"):
        amount = ctx.amount(node["amount"])
        for oid in affects:
            g.obj(oid).prevent += amount
        return
    if node.get("next"):
        # "the next time it would be dealt damage this turn, prevent it": all of one instance, once
        _lasting(ctx, "prevent", {"from": node.get("from", "any"), "next": True}, node.get("duration", "this_turn"),
                 affects, uses=1)
        return
    _lasting(ctx, "prevent", {"from": node.get("from", "any")}, node.get("duration", "this_turn"), affects)


# ---------------------------------------------------------------------- statuses
def _cause(ctx: EffectContext) -> dict[str, Any]:
    """The spell or ability doing this, for replacements of what it does: its source and what it chose."""
    return {"source": ctx.source, "chosen": {t for slot in ctx.targets for t in slot}}


def _simple(name: str) -> Any:
    def run(ctx: EffectContext, node: Node) -> None:
        g = ctx.g
        targets = ctx.resolve(node["target"], name.replace("_", " "))
        cause = _cause(ctx)
        if name == "stun":
            verbs.stun(g, targets, ctx.controller, cause)
        elif name == "buff":
            verbs.buff(g, targets, ctx.controller)
        elif name == "ready":
            verbs.ready(g, targets, ctx.controller)
        elif name == "exhaust":
            verbs.exhaust(g, targets)
        elif name == "heal":
            verbs.heal(g, targets)
        elif name == "recall":
            verbs.recall(g, targets)
        elif name == "return_to_hand":
            there = [oid for oid in targets if g.obj(oid).zone == "board"]
            verbs.return_to_hand(g, targets, cause, ctx.controller)
            # "If you do" after a return: a unit went back; a token counts though it stops existing in the
            # hand (185.3.b), as a recycled token is still "the unit you recycled" (Spiritforged FAQ)
            ctx.last["succeed"] = any(g.obj(oid).zone in ("hand", "gone") for oid in there)
        elif name == "banish":
            verbs.banish(g, targets)
            if "with" in node:
                # "banish me with this" (The Zero Drive): remembered for 'where: {banished_with: ...}'
                holders = ctx.resolve(node["with"])
                for oid in targets:
                    g.state.banished_with[str(oid)] = list(holders)
        elif name == "put_in_hand":
            verbs.put_in_hand(g, targets)
        elif name == "counter":
            for oid in targets:
                verbs.counter(g, oid, node.get("to", "trash"))  # "return it to its owner's hand instead"
        elif name == "take_control":
            for oid in targets:
                if g.obj(oid).zone == "chain":
                    for item in g.state.chain:
                        if item.obj == oid:
                            item.controller = ctx.you  # the spell's effects now act for its new controller
                            if node.get("new_choices") and item.kind == "card":
                                _new_choices(ctx, item)
                    g.obj(oid).controller = ctx.you
                    g.emit("control", obj=oid, player=ctx.you)
                else:
                    before = g.obj(oid).controller
                    verbs.take_control(g, oid, ctx.you)
                    if node.get("duration", "permanent") != "permanent" and before != ctx.you:
                        # "until end of turn" / "until I leave the board": then control goes back (and,
                        # with then: recall, it is recalled - "lose control of it and recall it")
                        _lasting(ctx, "control", {"back_to": before, "then": node.get("then", "")},
                                 node["duration"], [oid])
        elif name == "detach":
            for oid in targets:
                verbs.detach(g, oid)  # 436.4.b
        elif name == "reveal":
            for oid in targets:
                g.emit("reveal", obj=oid, code=g.obj(oid).code, player=g.obj(oid).owner)
        ctx.bindings["it"] = targets
    run.__name__ = name
    return run


def spend_buff(ctx: EffectContext, node: Node) -> None:
    targets = ctx.resolve(node["target"], "spend a buff from")
    spent = [oid for oid in targets if verbs.spend_buff(ctx.g, oid, ctx.controller)]
    ctx.variables["spent"] = ctx.variables.get("spent", 0) + len(spent)
    ctx.last["pay"] = bool(spent)
    ctx.bindings["it"] = targets


def recycle(ctx: EffectContext, node: Node) -> None:
    targets = ctx.resolve(node["target"], "recycle")
    verbs.recycle(ctx.g, targets, random_order=bool(node.get("random_order", len(targets) > 1)))
    ctx.bindings["it"] = targets
    # "Recycle me. If you do, ..." (Ekko, Recurrent): it did if every card reached a deck
    ctx.last["succeed"] = bool(targets) and all(ctx.g.obj(t).zone in ("main_deck", "rune_deck") for t in targets)


def modify_might(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    targets = [t for t in ctx.resolve(node["target"], "change the Might of") if g.obj(t).zone == "board"]
    for oid in targets:
        if node.get("double"):
            amount = layers.might(g, oid)
        elif "raise_to" in node:
            amount = max(0, ctx.amount(node["raise_to"]) - layers.might(g, oid))
        else:
            amount = ctx.amount(node.get("amount", 1))
        if node.get("negative") and any(oid in slot for slot in ctx.targets):
            # extra_might_loss: -Might given by the player's own spells and abilities to a unit they chose grows
            amount += sum(int(mod["value"]) for mod, src in layers.static_modifiers(g, "hook")
                          if mod["hook"] == "extra_might_loss" and g.obj(src).controller == ctx.controller)
        mod: Node = {"type": "might", "amount": max(0, amount)}
        if node.get("negative") and verbs.replaced(g, "lose_might", oid, ctx.controller, _cause(ctx), amount=amount,
                                                     duration=node.get("duration", "this_turn")):
            continue  # "if a spell that chooses me would give me -Might, give me +3 Might instead"
        if node.get("negative"):
            mod["negative"] = True
            if "minimum" in node:
                # the limit is fixed when the effect first applies (Core Rules, layers)
                current = layers.might(g, oid)
                floor = min(current, int(node["minimum"]))
                mod["amount"] = max(0, current - max(floor, current - amount))
        _lasting(ctx, "static", {"modifiers": [mod]}, node.get("duration", "this_turn"), [oid])
    ctx.bindings["it"] = targets


def grant_keyword(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    targets = [t for t in ctx.resolve(node["target"], "give a keyword to") if g.obj(t).zone == "board"]
    if "keywords_of" in node:
        # "give it my keywords": every keyword that object has now, with its value
        holders = [o for o in ctx.resolve(node["keywords_of"]) if g.obj(o).zone == "board"]
        grants = list(layers.chars(g, holders[0]).keywords.items()) if holders else []
    else:
        keyword = node["keyword"].lower().replace("-", "_")
        value = node.get("value")
        if value is None:
            kw = g.catalog.keywords.get(keyword)
            value = kw.default if kw is not None and kw.parameter_kind == "number" else None
        grants = [(keyword, value)]
    for keyword, value in grants:
        _lasting(ctx, "grant", {"keyword": keyword, "value": value}, node.get("duration", "this_turn"), targets)
    ctx.bindings["it"] = targets


def _lasting(ctx: EffectContext, kind: str, body: Node, duration: str, affects: list[int] | None,
             uses: int = -1) -> Lasting:
    g = ctx.g
    lasting = Lasting(id=g.tick(), kind=kind, source=ctx.source, source_code=g.obj(ctx.source).code,
                      controller=ctx.controller, body=body, duration=duration, affects=affects, uses=uses,
                      timestamp=g.state.clock)
    g.state.lasting.append(lasting)
    g.emit_event({"n": 0, "t": "lasting", "kind": kind, "source": ctx.source, "affects": affects, "duration": duration,
                  "effect": body})
    g.state.needs_cleanup = True
    return lasting


def create_effect(ctx: EffectContext, node: Node) -> None:
    affects = ctx.resolve(node["affects"]) if "affects" in node else None
    uses = int(node.get("uses", -1))
    duration = node["duration"]
    if "static" in node:
        _lasting(ctx, "static", dict(node["static"]), duration, affects, uses)
    if "trigger" in node:
        body = {"kind": "triggered", **node["trigger"]}
        if body["when"].get("player") == "chosen":
            # "choose an opponent ... when they hold": the player chosen now, kept as that player's index
            body["when"] = {**body["when"], "player": ctx.player("chosen")}
        _lasting(ctx, "trigger", body, duration, affects, uses)
    if "replacement" in node:
        body = {"kind": "replacement", **node["replacement"]}
        _lasting(ctx, "replacement", body, duration, affects, uses)


# ---------------------------------------------------------------------- movement
def move(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    targets = [t for t in ctx.resolve(node["target"], "move") if g.obj(t).zone == "board"]
    ctx.last["succeed"] = False  # "If you do" / "Then do this" after a move (Dragon's Rage)
    if not targets:
        return
    dest = ctx.place(node["to"], targets[0])
    if dest == NOWHERE:
        return
    before = {oid: g.obj(oid).loc for oid in targets}
    if node["to"] in ("base", "its_base"):
        for oid in targets:
            movement.move_units(g, [oid], g.obj(oid).controller, ctx.you)
    else:
        movement.move_units(g, targets, dest, ctx.you)
    ctx.last["succeed"] = any(g.obj(oid).zone == "board" and g.obj(oid).loc != loc for oid, loc in before.items())
    if node.get("ready"):
        verbs.ready(g, targets, ctx.controller)
    ctx.bindings["it"] = targets
    ctx.bindings["there"] = [dest]


def swap_locations(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    a = ctx.resolve(node["a"])
    b = ctx.resolve(node["b"])
    if not a or not b:
        return
    la, lb = g.obj(a[0]).loc, g.obj(b[0]).loc
    movement.move_units(g, [a[0]], lb, ctx.you)
    movement.move_units(g, [b[0]], la, ctx.you)


# ---------------------------------------------------------------------- cards and resources
def draw(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    if "cards" in node:
        # "draw one (of the cards looked at)": those cards, from wherever they are in the main deck
        for oid in ctx.resolve(node["cards"], "draw"):
            obj = g.obj(oid)
            if obj.zone == "main_deck":
                g.place(oid, "hand")
                g.emit_event({"n": 0, "t": "draw", "player": obj.owner, "obj": oid})
                g.remember("draw", obj.owner, oid)
        return
    player = ctx.player(node.get("player"))
    verbs.draw(g, player, ctx.amount(node.get("amount", 1)))


def mill(ctx: EffectContext, node: Node) -> None:
    """Put the top cards of a main deck into its owner's trash (not a discard, not a draw)."""
    g = ctx.g
    player = ctx.player(node.get("player"))
    for oid in list(g.player(player).main_deck[:ctx.amount(node.get("amount", 1))]):
        g.place(oid, "trash")
        g.emit("mill", player=player, obj=oid, code=g.obj(oid).code)


def discard(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    player = ctx.player(node.get("player"))
    hand = list(g.player(player).hand)
    if node.get("whole_hand"):
        chosen = hand
    else:
        count = min(len(hand), ctx.amount(node.get("amount", 1)))
        chooser = ctx.player(node["chooser"]) if "chooser" in node else player
        saved = ctx.you
        ctx.you = chooser
        chosen = ctx.choose_from({"what": "card", "count": count}, hand, "discard") if count else []
        ctx.you = saved
    verbs.discard(g, player, chosen)
    ctx.bindings["it"] = chosen
    ctx.variables["discarded"] = len(chosen)


def channel(ctx: EffectContext, node: Node) -> None:
    player = ctx.player(node.get("player"))
    wanted = ctx.amount(node.get("amount", 1))
    done = verbs.channel(ctx.g, player, wanted, exhausted=bool(node.get("exhausted", False)))
    ctx.last["fail"] = done < wanted
    ctx.last["succeed"] = done == wanted


def add(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    domains = g.card(ctx.source).domains
    power: list[str] = []
    for sym in node.get("power", []):
        if sym == "own":
            # one power of any of the card's domains: kept open until it is spent (135.2.e.6)
            power.append("|".join(sorted(domains)) if domains else "any")
        else:
            power.append(sym)
    power *= ctx.amount(node["times"]) if "times" in node else 1  # "add that much [A]"
    # add_energy hooks on the source ("your Gold add an additional {1}"), as it was when activated
    extra = ctx.variables.get("_add_energy", 0)
    verbs.add_resources(g, ctx.you, ctx.amount(node.get("energy", 0)) + extra, power,
                          only_for=str(node.get("only_for", "")))


def ready_runes(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    exhausted = [r for r in g.player(ctx.you).runes if g.obj(r).exhausted][: int(node["count"])]
    verbs.ready(g, exhausted, ctx.you)


def create_token(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    at = node.get("at")
    player = ctx.player(node.get("player"))  # "you play a Gold" inside for_each_player: player: controller
    count = ctx.amount(node.get("count", 1))
    # each_location: "you may play them to different locations" - one choice per token
    batches = [1] * count if node.get("each_location") and at is None else [count]
    made: list[int] = []
    # the token of the maker's own set ("Mech" is Spiritforged's for its cards, Vendetta's for its own)
    maker = g.card(ctx.source).set_code if ctx.source in g.state.objs else None
    token = g.catalog.token(str(node["token"]), maker)
    for batch in batches:
        if at is None and token is not None and token.type != "unit":
            loc = player  # 149.2: gear is played to its controller's base
        elif at is None:
            # played where a unit could normally be played: base or a battlefield you control (355.2.a)
            options = [(f"{g.player(player).name}'s base", player)] + [
                (g.name(bf.card), bf.loc) for bf in g.state.battlefields if bf.controller == player]
            loc = int(ctx.ask(player, f"where to play the {node['token']} token", options))
        else:
            loc = ctx.place(at)
        if loc == NOWHERE or (is_battlefield(loc) and not movement.can_enter(g, loc, player)):
            loc = player
        made += verbs.create_token(g, node["token"], player, loc, bool(node.get("ready", False)), batch,
                                     exhausted=bool(node.get("exhausted", False)), set_code=maker)
    ctx.bindings["it"] = made


def gain_points(ctx: EffectContext, node: Node) -> None:
    points.gain_points(ctx.g, ctx.player(node.get("player")), ctx.amount(node.get("amount", 1)), "effect")


def gain_xp(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    amount = ctx.amount(node.get("amount", 1))
    g.player(ctx.you).xp += amount
    g.emit("xp", player=ctx.you, amount=amount)
    if amount > 0:
        g.remember("xp", ctx.you, ctx.source, loc=amount)  # "if you've gained XP this turn"


def look_at_top(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    attr = "rune_deck" if node.get("deck") == "rune_deck" else "main_deck"
    who = node.get("player", "you")
    owners = g.opponents(ctx.you) if who == "opponents" else (
        g.in_turn_order(ctx.you) if who == "each" else [ctx.you])
    count = ctx.amount(node["count"])
    if node.get("reveal") and attr == "main_deck":
        for p in owners:
            _before_reveal(ctx, p)
    seen = [oid for p in owners for oid in getattr(g.player(p), attr)[:count]]
    g.emit("look", player=ctx.you, count=len(seen), reveal=bool(node.get("reveal")),
           cards=[g.obj(c).code for c in seen] if node.get("reveal") else None)
    for oid in seen:
        if node.get("reveal"):
            _revealed_from_deck(ctx, oid)
        g.emit("looked_at", obj=oid, player=ctx.you, owner=g.obj(oid).owner)
    ctx.bindings["them"] = list(seen)
    ctx.bindings["it"] = list(seen)
    mark = len(g.log)
    if "then" in node:
        ctx.run(node["then"])
    rest = [c for c in seen if g.obj(c).zone == attr]
    if node.get("rest") == "back_any_order":  # those recycled by 'then' aren't put back
        rest = [c for c in rest if not any(e["t"] == "recycle" and e.get("obj") == c for e in g.log[mark:])]
    _dispose(ctx, rest, node.get("rest", "keep_order"))


def predict(ctx: EffectContext, node: Node) -> None:
    """Predict N: the top N cards of your Main Deck are looked at, any of them recycled and the others
    returned in an order of your choice (a keyword action of later sets; engine-notes: it never burns out)."""
    look_at_top(ctx, {"count": node.get("count", 1), "rest": "back_any_order",
                      "then": {"type": "recycle",
                               "target": {"pick": "choose", "what": "card", "among": "them", "any_number": True}}})


def play(ctx: EffectContext, node: Node) -> None:
    """Play a card from wherever the selector finds it, with its cost ignored or reduced."""
    from riftscript.core.engine import chain

    g = ctx.g
    # 185.3.b: a token that left the board (banished by Portal Rescue) no longer exists to be played
    cards = [oid for oid in ctx.resolve(node["card"], "play") if g.obj(oid).zone != "gone"]
    saved = ctx.you
    played: list[int] = []
    for oid in cards:
        who = node.get("player", "you")
        ctx.you = g.obj(oid).owner if who == "owner" else saved if who == "you" else ctx.player(who)
        card = g.card(oid)
        at = NOWHERE
        if card.type in ("unit", "gear") and "at" in node:
            at = ctx.place(node["at"])  # chosen before paying (engine notes, playing a card: choices, then costs)
            if at == NOWHERE:
                g.emit("cant_play", obj=oid, reason="location")  # "play it to a battlefield you control": none
                continue
            if is_battlefield(at) and not movement.can_enter(g, at, ctx.you, card.type == "unit"):
                # 451.2, 464.2, 449.2.b: not into two other players' combat or showdown, nor beside a third player's
                # or a teammate's units (ruling:third-player-move-fails): the play doesn't happen, the card stays
                g.emit("cant_play", obj=oid, reason="location")
                continue
        ignore = node.get("ignore_cost", "")
        reduction = ctx.amount(node.get("cost_reduction", 0))
        paid = _optional_costs_paid(ctx, oid, ignore, reduction) if card.type in ("unit", "gear") else []
        cost = payment.play_cost(g, ctx.you, oid, paid, ignore=ignore, reduction=reduction)
        plan = payment.plan_payment(g, ctx.you, cost, for_spell=card.type == "spell", for_gear=card.type == "gear",
                                    for_unit=card.type == "unit")
        if plan is None:
            g.emit("cant_play", obj=oid, reason="cost")
            continue
        payment.pay(g, ctx.you, plan)
        g.remember("played", ctx.you, oid, code=card.code)
        played.append(oid)
        if card.type in ("unit", "gear"):
            if "at" in node:
                loc = at
            else:
                options = [loc for loc in playing.play_locations(g, ctx.you, oid)
                           if playing.priced_location(g, ctx.you, oid, loc, paid)]
                if card.type == "unit" and "also_at" in node:
                    # a unit may also go to also_at - besides where units may be played
                    extra = ctx.place(node["also_at"])
                    if extra != NOWHERE and extra not in options and movement.can_enter(g, extra, ctx.you):
                        options = options + [extra]
                loc = int(ctx.ask(ctx.you, f"where to play {card.name}",
                                  [(targeting.describe_loc(g, l), l) for l in options])) if options else ctx.you
            item = ChainItem(id=g.tick(), kind="card", controller=ctx.you, obj=oid, location=loc, paid=paid)
            g.place(oid, "chain")
            g.emit("play", player=ctx.you, obj=oid, code=card.code, location=loc, by="effect")
            chain.resolve_item(g, item)
        else:
            slots = targeting.target_slots(card)
            # engine notes, playing a card, step 2: a "Choose one —" spell's modes are chosen as it is
            # played, with their targets only (a mode whose targets can't be chosen is not offered, 355.4)
            modes = targeting.card_modes(card)
            targets: list[list[int]] = []
            mode: list[int] = []
            if slots or modes is not None:
                combos = targeting.moded_target_options(g, ctx.you, oid, slots, modes)
                if not combos:
                    g.emit("cant_play", obj=oid, reason="no legal targets")
                    continue
                pick = int(ctx.ask(ctx.you, f"{'mode and ' if modes is not None else ''}targets for {card.name}",
                                   [(_choice_label(c, modes), i) for i, c in enumerate(combos)]))
                chosen = combos[pick]
                targets = list(chosen)
                mode = list(chosen.mode) if isinstance(chosen, ModeTargets) else []
            g.place(oid, "chain")
            g.obj(oid).controller = ctx.you  # played by another player ("its controller may play this again")
            item = ChainItem(id=g.tick(), kind="card", controller=ctx.you, obj=oid, targets=targets, mode=mode)
            if node.get("afterwards") == "recycle":
                item.variables["_afterwards_recycle"] = 1  # "then recycle it": recycled, not trashed, once played
            g.state.chain.insert(max(0, len(g.state.chain) - 1), item)
            g.emit("play", player=ctx.you, obj=oid, code=card.code, by="effect", targets=targets,
                   **playing.chose_modes(g, ctx.you, oid, mode))
    ctx.you = saved
    ctx.bindings["it"] = played  # "... If you do, attach it to me"
    ctx.last["succeed"] = bool(played)


def _choice_label(combo: list[list[int]], modes: targeting.Modes | None) -> str:
    """A choice of targets (the slots' object ids), and for a "Choose one —" spell the modes' labels first."""
    if modes is None or not isinstance(combo, ModeTargets):
        return str(combo)
    chosen = [slot for slot in combo if slot]  # the slots of the options not chosen are empty
    return ", ".join(modes.label(i) for i in combo.mode) + (f": {chosen}" if chosen else "")


def _optional_costs_paid(ctx: EffectContext, oid: int, ignore: str, reduction: int) -> list[str]:
    """Step 3 of playing (engine notes): a permanent an effect plays may still have its optional
    additional costs paid ([Accelerate], 805) - those paid with energy and power alone, offered
    one by one while the player can afford them."""
    from riftscript.core.engine import chain

    g = ctx.g
    paid: list[str] = []
    names = playing.optional_costs(g, oid)
    if not names:
        return paid
    card = g.card(oid)
    base = payment.play_cost(g, ctx.you, oid, [], ignore=ignore, reduction=reduction)
    for name in names:
        trial = payment.play_cost(g, ctx.you, oid, paid + [name], ignore=ignore, reduction=reduction)
        if trial.other != base.other or payment.plan_payment(g, ctx.you, trial, for_gear=card.type == "gear",
                                                             for_unit=card.type == "unit") is None:
            continue
        if ctx.ask(ctx.you, f"pay {name} as you play {card.name}?", [("yes", True), ("no", False)]):
            paid.append(name)
    return paid


def extra_turn(ctx: EffectContext, node: Node) -> None:
    """735-738: an extra turn is inserted right after the current one."""
    player = ctx.player(node.get("player"))
    ctx.g.state.extra_turns.append(player)
    ctx.g.emit("extra_turn", player=player)


def win_game(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    team = g.player(ctx.you).team
    g.state.winners = [p.index for p in g.state.players if p.team == team]
    g.state.result = "card"
    g.state.decision = None
    g.emit("game_over", winners=g.state.winners, reason=f"{g.name(ctx.source)} says so")


def attach(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    equipment = ctx.resolve(node["equipment"], "attach")
    units = ctx.resolve(node["to"], "attach to")
    if not equipment or not units:
        return
    eq, unit = equipment[0], units[0]
    if g.obj(unit).zone != "board" or g.obj(eq).zone != "board" or g.card(unit).type != "unit":
        return  # 818.1.b: attach to a unit on the board
    if "equip_cost" in node and not _pay_equip_cost(ctx, eq, int(node["equip_cost"].get("less_power", 0))):
        return  # 821: Weaponmaster attaches only by paying the Equip cost (less one power of any domain)
    verbs.attach(g, eq, unit, ctx.controller)  # 435.1.c: not a move; it goes to the unit's location


def turn_into_copy(ctx: EffectContext, node: Node) -> None:
    """The target becomes a copy of the other unit for as long as the card whose text this is (an
    Equipment's effect text) stays attached to it (the copy ends when the
    Equipment comes off); once only while it stays attached."""
    g = ctx.g
    holder = ctx.text_of
    models = [o for o in ctx.resolve(node["of"], "copy") if o in g.state.objs and g.obj(o).zone == "board"]
    targets = [o for o in ctx.resolve(node["target"], "turn into a copy") if g.obj(o).zone == "board"]
    if not models or not targets or g.obj(holder).attached_to != targets[0] or models[0] == targets[0] \
            or any(l.kind == "copy" and l.source == holder for l in g.state.lasting):
        return
    verbs.become_copy(g, targets[0], g.obj(models[0]).code, holder, ctx.controller)


def _pay_equip_cost(ctx: EffectContext, eq: int, less_power: int) -> bool:
    """Pay the cheapest payable Equip cost of the equipment (818.1.b: each instance is its own)."""
    g = ctx.g
    options = []
    for ability in g.card(eq).abilities:
        if ability.kind == "activated" and ability.keyword == "equip":
            cost = payment.ability_cost(g, ctx.you, eq, ability.body["cost"])
            cost.power = cost.power[less_power:]
            plan = payment.plan_payment(g, ctx.you, cost, for_gear=True)  # Equip is a gear ability
            if plan is not None and not cost.other:
                options.append((cost.energy + len(cost.power), cost, plan))
    if not options:
        return False
    _, cost, plan = min(options, key=lambda o: o[0])
    payment.pay(g, ctx.you, plan)
    return True


def hide(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    cards = ctx.resolve(node["card"], "hide")
    spots = [bf.loc for bf in g.state.battlefields if bf.controller == ctx.you and not bf.facedown]
    for oid in cards:
        if not spots:
            return
        loc = int(ctx.ask(ctx.you, "hide it where", [(g.name(g.bf_at(l).card), l) for l in spots]))
        spots.remove(loc)
        g.place(oid, "facedown", loc)
        g.obj(oid).controller = ctx.you
        g.obj(oid).hidden_turn = g.state.turn
        g.emit("hide", player=ctx.you, obj=oid, loc=loc)


def reveal_hand(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    player = ctx.player(node.get("player", "opponent"))
    g.emit("reveal_hand", player=player, cards=[g.obj(c).code for c in g.player(player).hand])


def select(ctx: EffectContext, node: Node) -> None:
    """Choose objects now and act on them in later steps ('it', or their 'as' name)."""
    ctx.resolve(node["target"], "choose")


def reveal_until(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    player = ctx.player(node.get("player", "you"))
    _before_reveal(ctx, player)
    deck = g.player(player).main_deck
    revealed: list[int] = []
    found: list[int] = []
    for oid in list(deck):
        revealed.append(oid)
        _revealed_from_deck(ctx, oid)
        g.emit("looked_at", obj=oid, player=ctx.you, owner=player)
        if ctx.is_kind(oid, node.get("what", "card")) and ctx.matches(oid, node.get("where")):
            found = [oid]
            break
    ctx.bindings["them"] = revealed
    ctx.bindings["it"] = found
    if found and "then" in node:
        ctx.run(node["then"])
    _dispose(ctx, [c for c in revealed if g.obj(c).zone == "main_deck"], node.get("rest", "recycle"))


def _before_reveal(ctx: EffectContext, owner: int) -> None:
    """A peek at the top card, which may be recycled, before a deck reveals cards
    (Void Hatchling): the hook look_before_reveal on an object the revealing player controls."""
    g = ctx.g
    deck = g.player(owner).main_deck
    if not deck or not any(True in layers.hook_values(g, oid, "look_before_reveal") for oid in g.board_objects()
                           if g.obj(oid).controller == ctx.you):
        return
    top = deck[0]
    g.emit("look", player=ctx.you, count=1, reveal=False, cards=None)
    g.emit("looked_at", obj=top, player=ctx.you, owner=owner)
    if ctx.ask(ctx.you, f"recycle the top card of {g.player(owner).name}'s deck before the reveal?",
               [("yes", True), ("no", False)]):
        verbs.recycle(g, [top])


def _revealed_from_deck(ctx: EffectContext, oid: int) -> None:
    """A card revealed from a main deck; 'as I'm revealed from your deck, add ...' (the hook
    add_when_revealed on the card, read as it is revealed, before anything else happens)."""
    g = ctx.g
    obj = g.obj(oid)
    g.emit("reveal", obj=oid, code=obj.code, player=obj.owner)
    energy = sum(int(v) for v in layers.hook_values(g, oid, "add_when_revealed"))
    if energy:
        verbs.add_resources(g, obj.owner, energy, [])


def _dispose(ctx: EffectContext, rest: list[int], how: str) -> None:
    """What happens to looked-at or revealed cards nobody took: recycled, trashed, or left."""
    if how == "recycle" and rest:
        verbs.recycle(ctx.g, rest, random_order=True)
    elif how == "trash":
        for oid in rest:
            ctx.g.place(oid, "trash")
    elif how == "back_any_order" and len(rest) > 1:
        # "put the rest back in any order": the player picks the top card, then the next (The Candlelit Sanctum)
        deck = ctx.g.player(ctx.g.obj(rest[0]).owner).main_deck
        left = [oid for oid in deck if oid in rest]
        kept = list(left)
        order: list[int] = []
        while len(left) > 1:
            top = ctx.ask(ctx.you, "which card goes on top?", [(f"{ctx.g.name(o)} #{o}", o) for o in left])
            order.append(int(top))
            left.remove(int(top))
        deck[:] = order + left + [oid for oid in deck if oid not in kept]


def put_in_zone(ctx: EffectContext, node: Node) -> None:
    g = ctx.g
    zone = Zone.from_script(node["zone"]).value
    position = node.get("position", "bottom")
    for oid in ctx.resolve(node["target"], "move"):
        obj = g.obj(oid)
        top = position == "top"
        if position == "top_or_bottom":  # "put a card on the top or bottom of your Main Deck": its owner chooses
            top = bool(ctx.ask(obj.owner, f"put {g.name(oid)} on top of the deck or at the bottom?",
                               [("top", True), ("bottom", False)]))
        verbs.put_in_zone(g, oid, zone, top=top)


def trigger_abilities(ctx: EffectContext, node: Node) -> None:
    """The selected objects' abilities for an event trigger as if it had happened to them."""
    from riftscript.core.engine.state import PendingTrigger

    g = ctx.g
    event_type = node["event"]
    for oid in ctx.resolve(node["of"]):
        obj = g.obj(oid)
        for ability in g.card(oid).abilities:
            if ability.kind == "triggered" and ability.event == event_type:
                event = {"t": event_type, "obj": oid, "player": obj.controller, "loc": obj.loc, "n": -1}
                g.state.pending_triggers.append(PendingTrigger(oid, ability.index, obj.controller, event))


# Each primitive declares once what the audit and the compiler need to know of it: the events it
# may cause (``emits``), whether it may kill (``may_kill``: damage, negative Might), and whether it
# may ask a player while it resolves (``decides``: then its ability resolves guarded, from a snapshot).
_PLUGIN = "core-effects"


def _primitive(name: str, run: Any, emits: tuple[str, ...] = (), may_kill: bool = False,
               decides: bool = False) -> EffectType:
    return EffectType(name=name, run=run, schema=None, emits=emits, may_kill=may_kill, decides=decides,
                      plugin=_PLUGIN)


PRIMITIVES: list[EffectType] = [
    _primitive("sequence", sequence), _primitive("if", if_), _primitive("may", may, decides=True),
    _primitive("choose_one", choose_one, decides=True), _primitive("for_each", for_each),
    _primitive("for_each_player", for_each_player), _primitive("repeat", repeat),
    _primitive("choose_player", choose_player, decides=True), _primitive("record", record),
    _primitive("keyword_effect", keyword_effect),
    _primitive("deal_damage", deal_damage, ("damaged",), may_kill=True),
    _primitive("mutual_damage", mutual_damage, ("damaged",), may_kill=True),
    _primitive("kill", kill, ("die", "kill", "leave_board"), may_kill=True),
    _primitive("prevent_damage", prevent_damage, ("lasting",)),
    _primitive("stun", _simple("stun"), ("stun",)), _primitive("buff", _simple("buff"), ("buff",)),
    _primitive("ready", _simple("ready"), ("ready",)), _primitive("exhaust", _simple("exhaust"), ("exhaust",)),
    _primitive("heal", _simple("heal"), ("heal",)), _primitive("recall", _simple("recall"), ("recall",)),
    _primitive("return_to_hand", _simple("return_to_hand"), ("return_to_hand", "leave_board")),
    _primitive("banish", _simple("banish"), ("banish", "leave_board")),
    _primitive("put_in_hand", _simple("put_in_hand"), ("put_in_hand",)),
    _primitive("counter", _simple("counter"), ("counter",)),
    _primitive("take_control", _simple("take_control"), ("control",)),
    _primitive("detach", _simple("detach"), ("detach",)), _primitive("reveal", _simple("reveal"), ("reveal",)),
    _primitive("spend_buff", spend_buff, ("spend_buff",)),
    _primitive("recycle", recycle, ("recycle", "leave_board")),
    _primitive("modify_might", modify_might, ("lasting",), may_kill=True),
    _primitive("grant_keyword", grant_keyword, ("lasting",)),
    _primitive("create_effect", create_effect, ("lasting",)),
    _primitive("move", move, ("move", "contest", "showdown_start", "combat_start")),
    _primitive("swap_locations", swap_locations, ("move",)),
    _primitive("draw", draw, ("draw", "burn_out")), _primitive("discard", discard, ("discard",), decides=True),
    _primitive("channel", channel, ("channel",)), _primitive("add", add, ("add",)),
    _primitive("ready_runes", ready_runes, ("ready",)),
    _primitive("create_token", create_token, ("create_token", "enter_board", "contest", "played")),
    _primitive("gain_points", gain_points, ("points",)), _primitive("gain_xp", gain_xp, ("xp",)),
    _primitive("look_at_top", look_at_top, ("look", "looked_at", "reveal", "add", "recycle"), decides=True),
    _primitive("predict", predict, ("look", "looked_at", "recycle"), decides=True),
    _primitive("play", play, ("play", "played", "enter_board"), decides=True),
    _primitive("extra_turn", extra_turn, ("extra_turn",)), _primitive("win_game", win_game, ("game_over",)),
    _primitive("attach", attach, ("attach", "equipped")),
    _primitive("turn_into_copy", turn_into_copy, ("become_copy",)), _primitive("hide", hide, ("hide",), decides=True),
    _primitive("reveal_hand", reveal_hand, ("reveal_hand",)),
    _primitive("select", select, decides=True),
    _primitive("reveal_until", reveal_until, ("reveal", "looked_at", "add", "recycle"), decides=True),
    _primitive("put_in_zone", put_in_zone, ("put_in_zone",), decides=True),
    _primitive("mill", mill, ("mill",)),
    _primitive("trigger_abilities", trigger_abilities, ("conquer", "hold", "attack", "defend", "played", "die")),
]
