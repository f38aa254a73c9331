"""The turn: phases and steps as outstanding tasks (315-317), extra turns (735-738).

Awaken readies (315.1.b); Beginning runs start-of-phase effects (315.2.a.1) and then the scoring
step holds (315.2.b.2); Channel channels 2 (315.3.b; the last player channels one more on their
first turn, 487.7/489.7); Draw draws 1 (315.4.b; burn out on an empty deck, 432); Main empties the
rune pools (167) and hands priority to the turn player; Ending runs end-of-turn effects (317.1.a)
and then the expiration step heals all units, ends "this turn" effects and empties pools
(317.2.b-d), repeating while anything went on the chain during it (317.2.f).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import layers, loop_draw, scoring, verbs
from .state import NOWHERE, ORDER, PHASE_OF, Lasting

if TYPE_CHECKING:
    from .game import Game


def begin_turn(g: "Game", player: int, extra: bool = False) -> None:
    s = g.state
    s.turn += 1
    s.turn_player = player
    if not extra:
        s.order_player = player
    s.players[player].turns_taken += 1
    s.history = []
    for bf in s.battlefields:
        bf.scored_by = []
        bf.controlled_at_scoring = []
    for oid in g.board_objects():
        g.obj(oid).moves_this_turn = 0
    s.step = "awaken"
    s.phase = "awaken"
    g.emit_event({"n": 0, "t": "turn_start", "player": player, "turn": s.turn, "extra": extra})
    # 315.1.b: the turn player readies everything they control that can be readied
    p = s.players[player]
    to_ready = [oid for oid in g.board_objects() if g.obj(oid).controller == player and g.obj(oid).exhausted]
    to_ready += [r for r in p.runes if g.obj(r).exhausted]
    if p.legend != NOWHERE and g.obj(p.legend).exhausted:
        to_ready.append(p.legend)
    listening = bool(g.index.listeners.get("ready"))
    for oid in to_ready:
        g.obj(oid).exhausted = False
        if listening:
            # each object becomes ready ("when I become ready"); the game readies it, no player's spell or
            # ability ("when you ready a friendly unit" is not about the Awaken Phase)
            g.emit_event({"n": 0, "t": "ready", "obj": oid, "player": NOWHERE, "controller": player})
    g.emit_event({"n": 0, "t": "awaken", "player": player, "readied": len(to_ready)})
    g.touch()


def advance(g: "Game") -> None:
    """Nothing is pending: move to the next step of the turn."""
    s = g.state
    if s.step == "setup":
        begin_turn(g, g.in_turn_order(s.turn_order[0])[0])  # a player who conceded in setup is skipped
        return
    step = s.step
    if s.players[s.turn_player].conceded and ORDER.index(step) < ORDER.index("main_end"):
        # concession.concede: the turn of a player who conceded ends once what is under way has
        # finished; the Ending Phase still follows (its effects expire), then the next player's turn
        s.step = "main_end"
        s.phase = "main"
        g.emit_event({"n": 0, "t": "end_turn", "player": s.turn_player, "conceded": True})
        return
    if step == "expiration":
        if s.expiration_chain_used:
            s.expiration_chain_used = False
            _expiration(g)
            return
        loop_draw.check_turn_limit(g)
        if s.winners is not None:
            return
        if s.extra_turns:
            begin_turn(g, s.extra_turns.pop(), extra=True)  # 738: the last created is taken first
        else:
            begin_turn(g, g.next_player(s.order_player))
        return
    nxt = ORDER[ORDER.index(step) + 1]
    if step == "main":
        return  # the Main Phase ends only when the turn player ends the turn
    s.step = nxt
    s.phase = PHASE_OF[nxt]
    tp = s.turn_player
    player = s.players[tp]
    mode = g.spec
    if nxt == "beginning":
        g.emit_event({"n": 0, "t": "phase_start", "phase": "beginning", "player": tp})  # 315.2.a.1
    elif nxt == "scoring":
        scoring.hold_all(g, tp)  # 315.2.b.2
    elif nxt == "channel":
        count = 2
        last = [p for p in s.turn_order if not s.players[p].conceded][-1]
        if player.turns_taken == 1 and tp == last:
            count += mode.extra_channel_last_player_first_turn  # 487.7, 489.7
        # a static's hook channel_limit: one rune per Channel Phase for every player
        count = min([count] + [int(mod["value"]) for mod, _ in layers.static_modifiers(g, "hook")
                               if mod["hook"] == "channel_limit"])
        g.emit_event({"n": 0, "t": "phase_start", "phase": "channel", "player": tp})
        verbs.channel(g, tp, count)  # 315.3.b, 431.4.a
    elif nxt == "draw":
        g.emit_event({"n": 0, "t": "phase_start", "phase": "draw", "player": tp})
        # the player going first: a player who conceded before taking a turn (in setup) didn't go first
        first = next((p for p in s.turn_order if not s.players[p].conceded or s.players[p].turns_taken), tp)
        skipped = layers.restrictions_on(g, "skip_draw_phase", player=tp)  # "skip your Draw Phase"
        if not (mode.first_player_skips_draw and tp == first and player.turns_taken == 1) and not skipped:
            verbs.draw(g, tp, 1)  # 315.4.b
    elif nxt == "main":
        verbs.empty_pools(g)  # 167: pools empty at the start of each Main Phase
        g.emit_event({"n": 0, "t": "phase_start", "phase": "main", "player": tp})
    elif nxt == "ending":
        g.emit_event({"n": 0, "t": "turn_end", "player": tp})  # 317.1.a: end-of-turn effects
        for oid in g.board_objects():
            if g.obj(oid).stunned:
                g.obj(oid).stunned = False  # stun wears off at the next ending step
                g.emit("unstun", obj=oid)
    elif nxt == "expiration":
        _expiration(g)


def _expiration(g: "Game") -> None:
    """317.2.b-d: heal all units, 'this turn' effects expire together, pools empty."""
    s = g.state
    verbs.heal_all(g)
    kept: list[Lasting] = []
    expired: list[Lasting] = []
    for lasting in s.lasting:  # one pass (``l not in expired`` compared the effects field by field)
        (expired if lasting.duration in ("this_turn", "this_combat") or lasting.uses == 0 else kept).append(lasting)
    if expired:
        s.lasting = kept
        g.emit("expire", count=len(expired))
        for lasting in expired:
            if lasting.kind == "control":
                verbs.end_control(g, lasting)
    for oid in list(g.board_objects()):
        obj = g.obj(oid)
        if obj.prevent:
            obj.prevent = 0
    verbs.empty_pools(g)
    g.emit_event({"n": 0, "t": "expiration", "player": s.turn_player})


def end_turn(g: "Game", player: int) -> None:
    g.state.step = "main_end"
    g.emit_event({"n": 0, "t": "end_turn", "player": player})
