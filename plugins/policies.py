"""The built-in agents that play without searching: uniform random, first legal action and greedy.

Apart from their registration (plugins/agents.py), because setup.py compiles this module with mypyc
(the greedy agent's scoring is a third of a greedy game) and a compiled function can't carry pluggy's
hookimpl mark."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from riftscript.core.engine import activation, chain, combat, decisions, layers, rng
from riftscript.core.script.cards import Ability, effects_on_targets
from riftscript.core.engine.state import NOWHERE, is_battlefield
from riftscript.core.engine.vocabulary import Action, Target

if TYPE_CHECKING:
    from riftscript.core.engine.game import Game


class RandomAgent:
    """Picks uniformly among the legal actions, with its own seeded chance.

    Rune and other Add abilities are left out when anything else is possible: playing a card
    already pays through them, so a random agent would otherwise mostly empty its runes into a
    pool that expires.  Moves are chosen among each unit alone and all of them together: the
    other groups of units (listed too, 144.3) would otherwise outnumber every other action.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.state = rng.seed_state(seed ^ 0x5EED)

    def choose(self, game: "Game", actions: list[Action]) -> Action:
        meaningful = _single_or_all(actions, game, resources=False) or actions
        self.state, i = rng.below(self.state, len(meaningful))
        return meaningful[i]


def _single_or_all(actions: list[Action], game: "Game | None" = None,
                   resources: bool = True) -> list[Action]:
    """The actions without the moves of some but not all of the units that may go somewhere,
    without the combat assignments that split excess damage among several units, and recycling
    the first cards of the trash when a cost recycles some; without ``resources``, also without
    rune and other Add abilities (decisions.is_resource_action: playing a card pays through them)."""
    d = game.pending_decision() if game is not None else None
    if d is not None and d.kind == "assign" and "whole" in d.context:
        whole = actions[:int(d.context["whole"])]
        return whole if resources or game is None else [a for a in whole if not decisions.is_resource_action(game, a)]
    # one pass over the actions, each one's type read once (most listed are rune abilities, dropped
    # first without ``resources``); the moves of some units are dropped once the biggest group is known
    pools = None if resources else game  # the game whose Add abilities are dropped
    kept: list[Action] = []
    biggest: dict[Any, int] = {}
    for a in actions:
        if pools is not None:
            # only an activation has an ability index (schemas/action.schema.json): a rune's (negative),
            # most of a listing, is dropped on this one read
            ability = a.get("ability")
            if isinstance(ability, int) and (ability < 0 or decisions.is_resource_action(pools, a)):
                continue
        kind = a["type"]
        if kind == "move":
            units, to = len(a["units"]), a["to"]
            if units > biggest.get(to, 0):
                biggest[to] = units
        elif (kind == "play" or kind == "activate") and "pay_with" in a and "recycle_from_trash" in a["pay_with"]:
            continue  # only plays and activations say what pays
        kept.append(a)
    if not biggest:
        return kept
    return [a for a in kept if a["type"] != "move" or len(a["units"]) in (1, biggest[a["to"]])]


class FirstAgent:
    """Takes the first legal action (cheap and deterministic; useful for benchmarks)."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: "Game", actions: list[Action]) -> Action:
        for action in actions:
            if not decisions.is_resource_action(game, action):
                return action
        return actions[0]


class GreedyAgent:
    """A one-ply player: takes the legal action it likes best, by a cheap reading of the board.

    On its turn it plays its most expensive card, then attacks battlefields it can win (its Might
    against the defenders'), conquers empty ones and reinforces the battlefields it holds when the
    other side could take them, and never retreats to its base.  Like the random agent, it moves
    units one at a time or all together.  Spells and abilities go where they help: harm at enemy
    units (at those they kill first), help to its own units (in a showdown, to those fighting),
    and a play that would only hurt its own side is left alone.  Combat damage goes where it kills
    the most Might.  Ties are broken by its own seeded chance, so games stay reproducible.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.state = rng.seed_state(seed ^ 0x6EED)

    def score(self, game: "Game", player: int, action: Action) -> float:
        """How eager it is to take the action (higher first); search agents use it as a prior."""
        return self.scores(game, player, [action])[0]

    def scores(self, game: "Game", player: int, actions: list[Action]) -> list[float]:
        """``score`` of every action, reading the board once."""
        board = _Board(game, player)
        return [board.score(action) for action in actions]

    def choose(self, game: "Game", actions: list[Action]) -> Action:
        decision = game.pending_decision()
        player = decision.player if decision is not None else 0
        meaningful = _single_or_all(actions, game, resources=False) or actions
        if len(meaningful) == 1 or (decision is not None and decision.kind == "mulligan"):
            return meaningful[0]
        if decision is not None and decision.kind == "choose":
            answers = [a for a in meaningful if a.get("value") not in (-1, False)]
            return (answers or meaningful)[0]
        scored = self.scores(game, player, meaningful)
        best = max(scored)
        top = [i for i, score in enumerate(scored) if score == best]
        self.state, pick = rng.below(self.state, len(top))
        return meaningful[top[pick]]


HARMFUL: Final = {"deal_damage", "kill", "stun", "return_to_hand", "banish", "counter", "mutual_damage",
                  "recycle", "discard"}
# what a selection names: objects (the rest, locations and players, are not scored as targets)
OBJECT_PICKS: Final = {"unit", "permanent", "card", "gear", "object"}


class _Intent:
    """What a target slot of a script does to what it names: harm (-1) or help (+1), the damage it
    deals when it says, and whether only for this turn (a combat trick).  Made for every scored target:
    a plain class (compiled, setup.py, a native record made by a native call; a NamedTuple's constructor
    runs as Python, and a frozen dataclass is several times slower still in pure Python)."""

    def __init__(self, sign: int, damage: int, this_turn: bool, objects: bool) -> None:
        self.sign = sign
        self.damage = damage
        self.this_turn = this_turn
        self.objects = objects


def _intent(effect: dict[str, Any], selection: dict[str, Any]) -> _Intent:
    """The intent of a target slot, from the effect acting on what it picks (``Ability.slot_effects``:
    worked out by the compiler, so scoring an action reads a few keys)."""
    kind = effect.get("type")
    harm = kind in HARMFUL or bool(effect.get("negative")) or (
        kind == "grant_keyword" and effect.get("keyword") == "Temporary") or (
        kind == "move" and effect.get("to") == "its_base")
    amount = effect.get("amount")
    return _Intent(-1 if harm else 1, amount if kind == "deal_damage" and isinstance(amount, int) else 0,
                   effect.get("duration") == "this_turn", selection.get("what", "unit") in OBJECT_PICKS)


class _Board:
    """One reading of the board for one player's decision: Might at every location, who controls
    the battlefields, how much the other side could bring against each."""

    def __init__(self, game: "Game", player: int) -> None:
        self.game = game
        self.player = player
        s = game.state
        self.fight = s.showdown.bf if s.showdown is not None else NOWHERE
        self.read = False  # Might is read on the first question that needs it (most decisions don't)
        self.mine: dict[int, int] = {}
        self.theirs: dict[int, int] = {}
        self.count: dict[int, int] = {}  # enemy units at each location
        self.threat = 0
        # per unit, what it brings to a fight it moves to (the moves of a listing share their units), and
        # per location, the player's units there: read once per decision
        self.strength: dict[int, int] = {}
        self.friends_at: dict[int, int] = {}

    def might(self) -> None:
        """Reads the Might at every location and what the other side could bring to a battlefield
        on its turn (the units at its bases)."""
        self.read = True
        game, player = self.game, self.player
        objs, defs = game.state.objs, game.defs
        for oid in game.board_objects():
            obj = objs[oid]
            if defs[obj.code].type != "unit" or obj.attached_to != NOWHERE:
                continue
            loc = obj.loc
            # what it would fight with: a defender at a battlefield with its Shield, an attacker
            # from a base with its Assault (814, 807)
            at_battlefield = is_battlefield(loc)
            value = combat.fighting_might(game, oid, "shield" if at_battlefield else "assault")
            if not at_battlefield:
                self.strength[oid] = value  # what it brings moving out of its base (``move``)
            if game.friendly(obj.controller, player):
                self.mine[loc] = self.mine.get(loc, 0) + value
            else:
                self.theirs[loc] = self.theirs.get(loc, 0) + value
                self.count[loc] = self.count.get(loc, 0) + 1
        self.threat = sum(m for loc, m in self.theirs.items() if not is_battlefield(loc))

    def score(self, action: Action) -> float:
        kind = action.get("type")
        if kind == "play":
            return self.play(action)
        if kind == "move":
            return self.move(action)
        if kind == "hide":
            return 20
        if kind == "activate":
            ability = activation.activated_abilities(self.game, int(action["source"]))[int(action.get("ability", 0))]
            return 30 + self.aim(ability, action.get("targets", []))
        if kind == "assign":
            return self.assign(action["damage"])
        if kind == "targets":
            return self.trigger_targets(action["targets"])
        return 0

    def play(self, action: Action) -> float:
        game = self.game
        oid = int(action["card"])
        card = game.card(oid)
        costs = action.get("costs")
        value = float(100 + card.energy * 5 + len(card.power) * 3 + (len(costs) if costs else 0))
        pay_with = action.get("pay_with")
        for paid in pay_with.values() if pay_with else ():  # a unit killed or exhausted to pay
            for unit in paid if isinstance(paid, list) else [paid]:
                if isinstance(unit, int) and unit in game.state.objs:
                    value -= 2 + layers.might(game, unit)
        location = action.get("location", NOWHERE)
        if card.type == "unit" and is_battlefield(location):
            if not self.read:
                self.might()
            # a unit played to a battlefield held defends it at once
            value += 2 if self.mine.get(location, 0) <= self.threat else -1
        if card.type == "spell":
            aim = 0.0
            for ability in card.abilities:
                if ability.kind == "spell":
                    aim += self.aim(ability, action.get("targets", []))
            if aim < 0:
                return -50 + aim  # it would only hurt its own side
            value += aim
        return value

    def aim(self, ability: Ability, targets: list[list[Target]]) -> float:
        """How much the chosen targets suit what the ability does to them."""
        if not targets:
            return 0.0
        acting = effects_on_targets(ability)
        total = 0.0
        for slot, chosen in enumerate(targets):
            found = acting.get(slot) if chosen else None
            if found is None:
                continue
            intent = _intent(found[0], found[1])  # not *found: compiled, a star call is a generic one
            if not intent.objects:
                continue
            for oid in chosen:
                total += self.target(oid, intent)
        return total

    def target(self, oid: Target, intent: _Intent) -> float:
        if not isinstance(oid, int):
            return 0.0  # a handle: an object the player can't see
        game = self.game
        obj = game.state.objs.get(oid)
        if obj is None or game.defs[obj.code].type != "unit" or obj.zone != "board":
            return 0.0
        friendly = game.friendly(obj.controller, self.player)
        might = max(0, layers.might(game, oid))
        if intent.sign < 0:
            kills = intent.damage == 0 or intent.damage >= might - obj.damage
            value = 2.0 * (might + 1) if kills else (1.0 if obj.loc == self.fight else 0.2)
            return -1.5 * value if friendly else value
        value = 3.0 if obj.loc == self.fight else (0.2 if intent.this_turn else 1.0)
        return value if friendly else -value

    def move(self, action: Action) -> float:
        game = self.game
        dest = int(action["to"])
        units = [int(u) for u in action["units"]]
        if not is_battlefield(dest):
            return -5  # back to base: gives up a battlefield and wastes the move
        if not self.read:
            self.might()
        strength = self.strength
        moving = 0
        leaving: dict[int, int] = {}
        for u in units:
            brings = strength.get(u)
            if brings is None:
                brings = strength[u] = combat.fighting_might(game, u, "assault")
            moving += brings
            loc = game.obj(u).loc
            if is_battlefield(loc):
                leaving[loc] = leaving.get(loc, 0) + 1
        penalty = 0.0
        for loc, n in leaving.items():
            if n >= self.friends(loc) and self.controls(loc):
                penalty += 50  # abandons a battlefield it holds
        here = self.mine.get(dest, 0)
        enemy = self.theirs.get(dest, 0)
        if self.count.get(dest, 0):
            if moving + here > enemy:
                return 90 + enemy - 0.1 * moving - penalty  # a fight it should win
            return -20 - penalty
        if not self.controls(dest):
            held = 10 if moving + here > self.threat else 0
            return 80 + held - 0.1 * moving - penalty  # conquer
        if here <= self.threat:
            return 40 - 0.1 * moving - penalty  # reinforce a battlefield the other side could take
        return -5

    def friends(self, loc: int) -> int:
        """How many of the units at the location are the player's or a teammate's."""
        found = self.friends_at.get(loc)
        if found is None:
            game = self.game
            found = self.friends_at[loc] = len([u for u in game.units_at(loc)
                                                if game.friendly(game.obj(u).controller, self.player)])
        return found

    def controls(self, loc: int) -> bool:
        controller = self.game.bf_at(loc).controller
        return controller != NOWHERE and self.game.friendly(controller, self.player)

    def assign(self, damage: dict[str, int]) -> float:
        """Combat damage: the Might it kills."""
        game = self.game
        killed = 0.0
        for key, amount in damage.items():
            oid = int(key)
            obj = game.state.objs.get(oid)
            if obj is not None and amount >= max(1, layers.might(game, oid) - obj.damage):
                killed += 1 + layers.might(game, oid)
        return killed

    def trigger_targets(self, targets: list[list[Target]]) -> float:
        s = self.game.state
        for trigger in s.pending_triggers:
            if trigger.controller == self.player and trigger.targets is None:
                ability = self.game.ability_of(trigger.obj, trigger.ability, trigger.lasting)
                return self.aim(ability, targets)
        return 0.0
