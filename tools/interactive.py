"""Play a game at the terminal: one seat is yours, agents play the others.

``riftscript play`` shows what happened since your last decision (the same play-by-play as the
demo), what you can see of the game (your hand, the board, every player's points), and your legal
actions as a numbered list in plain words; you answer with a number.  ``s`` shows the state again,
``concede`` leaves the game, and the end of the input stops without changing anything.
"""
from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any, Mapping, TextIO

from riftscript.core.engine import activation, observe
from riftscript.core.engine.agents import Agent
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.engine.targeting import describe_loc
from riftscript.core.errors import IllegalActionError, RiftScriptError
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.core.engine.state import NOWHERE
from riftscript.tools.play import DEMO_DECKS, make_agents, match_summary, seating, summary
from riftscript.tools.argtypes import whole
from riftscript.tools.playbyplay import Narrator

RUNE_ABILITIES = {-1: "exhaust {rune} for 1 energy", -2: "recycle {rune} for 1 {domain} power"}


def _names(g: Game, ids: Any) -> str:
    return ", ".join(g.name(int(i)) for i in ids) if isinstance(ids, list) else g.name(int(ids))


def _targets(g: Game, targets: list[list[Any]]) -> str:
    chosen = [HIDDEN if isinstance(t, str) else describe_loc(g, t) if t not in g.state.objs else g.name(t)
              for slot in targets for t in slot]
    return f" targeting {', '.join(chosen)}" if chosen else ""


def _modes(g: Game, action: Mapping[str, Any]) -> str:
    """The modes a "choose one" play or activation chose, in words: " (return a friendly unit)"."""
    chosen = action.get("mode")
    if not chosen:
        return ""
    modes = activation.action_modes(g, action)
    if modes is None or any(not 0 <= i < len(modes.node["options"]) for i in chosen):
        return f" (modes {chosen})"
    return f" ({', then '.join(modes.label(i).replace('_', ' ') for i in chosen)})"


HIDDEN = "a hidden card"  # an object the player can't see: legal actions name it by its handle


class ViewerNarrator(Narrator):
    """The play-by-play as one player may read it: a card they can't see now is 'a hidden card',
    never its name nor its id (ids follow the decklist order)."""

    def __init__(self, catalog: Catalog, players: list[str], codes: dict[int, str], battlefields: dict[int, str],
                 hidden: set[int], show_seed: bool = False) -> None:
        super().__init__(catalog, players, codes, battlefields, show_seed)
        self.hidden = hidden

    def card(self, oid: Any) -> str:
        if isinstance(oid, int) and oid in self.hidden:
            return HIDDEN
        return super().card(oid)


def narration(g: Game, viewer: int, start: int) -> list[str]:
    """The lines of the game's play-by-play from event ``start`` on, as the viewer may read them."""
    codes = {oid: obj.code for oid, obj in g.state.objs.items()}
    fields = {bf.loc: g.name(bf.card) for bf in g.state.battlefields}
    narrator = ViewerNarrator(g.catalog, [p.name for p in g.state.players], codes, fields,
                              observe.hidden_from(g, viewer), show_seed=g.over)
    return [text for text in map(narrator.line, g.log[start:]) if text is not None]


def shown_lines(g: Game, viewer: int) -> list[str]:
    """What the step now asking the viewer showed them first (``loop.shown_before``): a revealed hand,
    revealed cards, the cards they look at.  Those events enter the play-by-play only once the step
    finishes, after the answer, so the question carries them."""
    d = g.state.decision
    if d is None or d.player != viewer:
        return []
    lines: list[str] = []
    for seen in d.context.get("shown", []):
        names = ", ".join(g.defs[code].name for code in seen["cards"])
        whose = "your" if seen["player"] == viewer else f"{g.state.players[seen['player']].name}'s"
        if seen["t"] == "reveal_hand":
            lines.append(f"{whose[0].upper()}{whose[1:]} hand is revealed: {names}")
        elif seen["t"] == "reveal":
            lines.append(f"Revealed: {names}")
        elif lines and lines[-1].startswith(f"You look at {whose} cards: "):
            lines[-1] += f", {names}"
        else:
            lines.append(f"You look at {whose} cards: {names}")
    return lines


def describe(g: Game, action: Mapping[str, Any]) -> str:
    """An action in plain words, as a player would say it."""
    kind = action.get("type")
    d = g.state.decision
    if kind == "play":
        text = f"play {g.name(action['card'])}{_modes(g, action)}"
        if action.get("location", NOWHERE) != NOWHERE:
            text += f" to {describe_loc(g, action['location'])}"
        text += _targets(g, action.get("targets", []))
        if action.get("costs"):
            text += f", paying {' and '.join(str(c).replace('_', ' ') for c in action['costs'])}"
        for cost, ids in (action.get("pay_with") or {}).items():
            text += f" ({cost.replace('_', ' ')}: {_names(g, ids)})"
        return text
    if kind == "activate":
        source, index = int(action["source"]), int(action["ability"])
        if index in RUNE_ABILITIES:
            domains = g.card(source).domains
            return RUNE_ABILITIES[index].format(rune=g.name(source), domain="/".join(domains) or "any")
        return f"use {g.name(source)}'s ability {index + 1}{_modes(g, action)}{_targets(g, action.get('targets', []))}"
    if kind == "move":
        return f"move {_names(g, action['units'])} to {describe_loc(g, action['to'])}"
    if kind == "hide":
        how = " (paying the alternative cost)" if action.get("costs") else ""
        return f"hide {g.name(action['card'])} at {describe_loc(g, action['battlefield'])}{how}"
    if kind == "pass":
        return "pass"
    if kind == "end_turn":
        return "end your turn"
    if kind == "invite":
        return f"invite {g.state.players[action['teammate']].name} to act with your priority"
    if kind == "mulligan":
        return f"set aside {_names(g, action['cards'])} and draw as many" if action["cards"] else "keep your hand"
    if kind == "assign":
        return "assign damage: " + ", ".join(f"{v} to {g.name(int(k))}" for k, v in action["damage"].items())
    if d is not None and kind in ("choose", "order", "targets"):
        wanted = action.get("value", action.get("order", action.get("targets")))
        for option in d.options:
            if option["value"] == wanted and option.get("mode") == action.get("mode"):  # a trigger's modes too
                return str(option["label"])
    return str(action)


def status(g: Game, seat: int) -> list[str]:
    """What the seat can see: points, pools, hand, and what stands where."""
    s = g.state
    me = s.players[seat]
    power = "".join(f", {n} {d} power" for d, n in sorted(me.power.items()) if n)  # "2 fury power", not a dict
    lines = [f"You are {me.name} (seat {seat + 1}).  Points: " + ", ".join(f"{p.name} {p.points}" for p in s.players)
             + f"  |  your pool: {me.energy} energy{power}"]
    lines.append("Your hand: " + (", ".join(g.name(c) for c in me.hand) or "empty"))
    ready = sum(1 for r in me.runes if not g.obj(r).exhausted)
    lines.append(f"Your runes: {ready} ready of {len(me.runes)}")
    for p in s.players:
        units = ", ".join(g.name(u) + (" (exhausted)" if g.obj(u).exhausted else "") for u in p.base)
        lines.append(f"{p.name}'s base: {units or 'empty'}")
    for bf in s.battlefields:
        here = ", ".join(f"{g.name(u)} ({s.players[g.obj(u).controller].name})" for u in bf.here)
        holder = s.players[bf.controller].name if bf.controller != NOWHERE else "nobody"
        lines.append(f"{g.name(bf.card)}, held by {holder}: {here or 'no units'}")
    return lines


def play_interactive(game: Game | Match, seat: int, agents: list[Agent], read: TextIO, out: TextIO) -> int:
    """Play until the game (or match) ends or the input does; returns the number of actions you took."""
    shown = 0
    current: Game | None = None
    taken = 0
    while not game.over:
        g = game.game if isinstance(game, Match) else game
        if g is not current:
            current, shown = g, 0
        d = game.pending_decision()
        if d is None:
            break
        legal = game.legal_actions()
        if d.player != seat:
            game.apply(agents[d.player].choose(g, legal))
            continue
        for line in narration(g, seat, shown):
            print(line, file=out)
        shown = len(g.log)
        print("", *status(g, seat), *shown_lines(g, seat), f"You decide: {d.prompt}", sep="\n", file=out)
        for n, action in enumerate(legal, 1):
            print(f"  {n:>3}. {describe(g, action)}", file=out)
        while True:
            print("> ", end="", file=out, flush=True)
            answer = read.readline()
            if not answer:
                print("\ninput ended; the game is left unfinished", file=out)
                return taken
            answer = answer.strip().lower()
            if answer in ("s", "status"):
                print(*status(g, seat), sep="\n", file=out)
                continue
            if answer == "concede":
                game.apply({"type": "concede", "player": seat})
                taken += 1
                break
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                game.apply(legal[int(answer) - 1])
                taken += 1
                break
            print(f"answer with a number from 1 to {len(legal)}, 's' for the state, or 'concede'", file=out)
    final = game.game if isinstance(game, Match) else game
    for line in narration(final, seat, shown if final is current else 0):
        print(line, file=out)
    seed = game.state.seed if isinstance(game, Match) else final.state.seed
    print(f"\nseed {seed}: the same deal again with --seed {seed}", file=out)
    print(match_summary(game) if isinstance(game, Match) else summary(game), file=out)
    return taken


def cmd_play(args: argparse.Namespace, read: TextIO | None = None, out: TextIO | None = None) -> int:
    """Play one game (or match) against agents at the terminal."""
    catalog = load_catalog()
    spec, decks = seating(catalog, args.mode, list(args.decks or DEMO_DECKS))
    if not 1 <= args.seat <= spec.players:
        raise RiftScriptError(f"--seat is a seat from 1 to {spec.players}")
    names = [d.split()[0] for d in decks]
    seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 31)
    game: Game | Match = (Match.new(catalog, decks, mode=spec.name, seed=seed, names=names)
                          if spec.best_of > 1 else Game.new(catalog, decks, mode=spec.name, seed=seed, names=names))
    agents = make_agents(catalog, [args.agent] * spec.players, seed)
    try:
        play_interactive(game, args.seat - 1, agents, read or sys.stdin, out or sys.stdout)
    except IllegalActionError as exc:  # a listed action is always legal; this would be an engine bug
        raise RiftScriptError(f"the engine refused a listed action: {exc}") from exc
    return 0


def add_commands(sub: Any) -> None:
    """Register 'play' on an argparse subparsers object."""
    play = sub.add_parser("play", help="play a game against agents at the terminal",
                          description="Play one game (or match) against agents: pick your actions by number.")
    play.add_argument("--mode", default="duel", help="an installed mode (default: duel)")
    play.add_argument("--decks", nargs="+", metavar="DECK", help="decks in seat order (default: the demo decks)")
    play.add_argument("--seat", type=whole(1), default=1, help="your seat, from 1 (default: 1)")
    play.add_argument("--agent", default="greedy",
                      help="the agent playing the other seats: random, greedy, mcts-easy, mcts, mcts-hard or another "
                           "installed one (default: greedy)")
    play.add_argument("--seed", type=int, default=None,
                      help="the game's seed (default: a random one, told when the game is over; the seed decides "
                           "every shuffle, so it stays hidden while you play)")
    play.set_defaults(func=cmd_play)
