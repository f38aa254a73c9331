"""An information-set Monte Carlo tree search agent that plays honestly.

Each iteration of the search plays on a *determinization*: a copy of the game in which everything the
agent can't see (the other players' hands, every deck's order including its own, the other players'
facedown cards) is re-dealt at random from the agent's own seeded chance.  The cards dealt are the
multiset of the hidden cards, sorted by card code before shuffling, and the hidden objects are given
their ids in a canonical order too (ids follow decklist order, so an id would tell a card), so a
determinization is a function of what the agent sees and its own seed only (``Determinizer``).

The tree holds the agent's own decisions (single-observer ISMCTS: a child's availability counts the
iterations in which its action was legal); the other players' decisions, while descending and in the
rollouts, are made by the greedy agent.  Rollouts stop at the horizon, the agent's next Main Phase
after the current turn (so holds were scored), and are scored by a heuristic of points, battlefields,
Might on the board and cards (``evaluate``); a finished game scores 1 (won), 0 (draw) or -1 (lost).

Budgets are iterations (deterministic: the same seed and position give the same choice), work, or
milliseconds per decision.  Work bounds the time deterministically: each action the search plays counts
``WORK_PER_ACTION`` plus the number of legal actions listed before it and of objects on the board, and no
iteration starts once the decision's total reaches the budget.  Measured on ladder positions, a step costs
0.35-0.65 ms whether 20 or 70 actions are listed and 8 or 27 objects are on the board (a small board with a
full hand lists as slowly as a big one), so the constant part dominates: a budget of W bounds a decision to
about W / WORK_PER_ACTION steps.

What the agent is assumed to know: the contents of every deck (the multiset of each player's hidden
cards, as with the official decklists), the cards its own decision shows it, and its own earlier answers
in a step being replayed.  What it forgets: a card revealed and then put back into a hidden zone is dealt
like any other hidden card.  An iteration whose determinization can't replay a step (another player's
earlier answer named a card that is now dealt elsewhere) stops with an engine error and is dropped
(``failures`` counts them).
"""
from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from riftscript.core.engine import layers, observe, rng, verbs
from riftscript.core.errors import RiftScriptError
from riftscript.core.engine.state import NOWHERE, GameState, Obj
from riftscript.plugins.policies import GreedyAgent, _single_or_all

if TYPE_CHECKING:
    from riftscript.core.engine.game import Game, Snapshot

from riftscript.core.engine.vocabulary import Action  # noqa: E402 - the vocabulary's, for this module's signatures

# the zones of a player that others can't see, and the pool each deals from: a hand, a main deck and
# facedown cards hold main-deck cards; a rune deck holds runes; 'removed' is a conceded player's
PLAYER_ZONES = {"hand": "main", "main_deck": "main", "rune_deck": "rune", "removed": "removed"}
OWN_VISIBLE = ("hand", "removed")  # a player sees their own hand, never a deck's order


def action_key(action: Action) -> str:
    """A hashable name of an action, the same in every copy of the game."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def _ints(value: Any, out: set[int]) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        out.add(value)
    elif isinstance(value, list):
        for item in value:
            _ints(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _ints(item, out)


def shown_to(s: GameState, viewer: int) -> set[int]:
    """Objects the viewer is shown while something resolves, which stay as they are: those in the
    options of its own decision (the top of its deck it looks at), and those of its own zones that
    answered earlier questions of the same step (the step is replayed with its answers; an answer
    naming another player's hidden card stays hidden)."""
    out: set[int] = set()
    decision = s.decision
    if decision is not None and decision.player == viewer:
        for option in decision.options:
            _ints(option.get("value"), out)
    answered: set[int] = set()
    _ints(s.answers, answered)
    if answered:
        p = s.players[viewer]
        own = set(p.hand) | set(p.main_deck) | set(p.rune_deck)
        out |= answered & own
    return out


@dataclass
class _Pool:
    indexes: list[int]  # positions in the snapshot's object list, in the canonical order of the slots
    codes: list[str]    # the hidden cards, sorted by code


@dataclass
class _Slot:
    where: list[int]  # the zone list of the copy
    pos: int
    public: Obj       # what anyone knows of the object there (its id and card are not known)


class Determinizer:
    """Copies of a game as one player may imagine it: what the player can't see re-dealt at random.

    Construction reads the hidden objects only for the multiset of their card codes; their ids,
    order and every other field are replaced by public facts (the slot they are in, whose it is,
    a facedown card's controller and when it was hidden), and hidden ids are handed out in slot
    order.  ``deal`` restores the copy with the pools dealt by the caller's chance.
    """

    def __init__(self, game: "Game", viewer: int) -> None:
        sim = game.copy()
        s = sim.state
        shown = shown_to(s, viewer)
        slots: dict[tuple[int, str], list[_Slot]] = {}
        for p in s.players:
            for zone, pool in PLAYER_ZONES.items():
                if zone in OWN_VISIBLE and p.index == viewer:
                    continue
                ids: list[int] = getattr(p, zone)
                for pos, oid in enumerate(ids):
                    if oid not in shown:
                        public = Obj(id=0, code="", owner=p.index, controller=p.index, zone=zone)
                        slots.setdefault((p.index, pool), []).append(_Slot(ids, pos, public))
        looked = observe.facedown_shown_to(sim, viewer)  # facedown cards an effect lets the viewer see
        for bf in s.battlefields:
            for pos, oid in enumerate(bf.facedown):
                obj = s.objs[oid]
                if obj.controller != viewer and obj.controller not in looked and oid not in shown:
                    public = Obj(id=0, code="", owner=obj.owner, controller=obj.controller, zone="facedown",
                                 loc=bf.loc, hidden_turn=obj.hidden_turn, timestamp=obj.timestamp)
                    slots.setdefault((obj.owner, "main"), []).append(_Slot(bf.facedown, pos, public))
        hidden: list[tuple[list[int], list[str]]] = []
        for key in sorted(slots):
            places = slots[key]
            old = [place.where[place.pos] for place in places]
            codes = sorted(s.objs[oid].code for oid in old)  # the only hidden fact read: the multiset
            ids = sorted(old)
            for place, oid in zip(places, ids):
                place.where[place.pos] = oid
                s.objs[oid] = dataclasses.replace(place.public, id=oid, code=codes[0])
            hidden.append((ids, codes))
        s.objs = dict(sorted(s.objs.items()))
        gone = {oid for ids, _ in hidden for oid in ids}
        s.history = [entry._replace(obj=NOWHERE) if entry.obj in gone else entry  # 'drew #12 this turn':
                     for entry in s.history]  # which object was drawn is not public
        s.rng = s.seed = 0
        sim.log = []
        self.game = sim
        self.snapshot: Snapshot = sim.snapshot()
        position = {oid: i for i, oid in enumerate(self.snapshot[1])}
        self.pools = [_Pool([position[oid] for oid in ids], codes) for ids, codes in hidden]

    def deal(self, state: int) -> tuple["Game", int]:
        """The copy restored with a fresh deal of every pool and fresh chance; returns the game and
        the caller's new chance."""
        rest, ids, template = self.snapshot
        values = list(template)
        for pool in self.pools:
            codes = list(pool.codes)
            state = rng.shuffle(state, codes)
            for i, code in zip(pool.indexes, codes):
                old = values[i]
                values[i] = (old[0], code) + old[2:]
        self.game.restore((rest, ids, values))
        state, self.game.state.rng = rng.next_u64(state)
        return self.game, state


# ---------------------------------------------------------------------- evaluation
POINT = 1.0        # a point scored
BATTLEFIELD = 0.6  # a battlefield controlled: likely a point when it is held
MIGHT = 0.12       # a point of Might of a unit on the board
CARD = 0.2         # a card in hand
RUNE = 0.1         # a rune in play
SCALE = 3.0        # tanh(difference / SCALE): a lead of three points is worth about 0.76


def evaluate(g: "Game", me: int) -> float:
    """How good the position is for ``me`` (and teammates), in [-1, 1]: 1 won, -1 lost, 0 drawn;
    an unfinished game by the difference with the strongest other team."""
    s = g.state
    if s.winners is not None:
        if not s.winners:
            return 0.0
        return 1.0 if any(g.friendly(w, me) for w in s.winners) else -1.0
    teams: dict[int, float] = {}
    points: dict[int, int] = {}
    for p in s.players:
        if p.conceded:
            continue
        points[p.team] = max(points.get(p.team, 0), p.points)  # teammates share one total (491.8.d)
        teams[p.team] = teams.get(p.team, 0.0) + CARD * len(p.hand) + RUNE * len(p.runes)
    objs, defs = s.objs, g.defs
    for bf in s.battlefields:
        if bf.controller != NOWHERE:
            team = s.players[bf.controller].team
            if team in teams:
                teams[team] += BATTLEFIELD
    for oid in g.board_objects():
        obj = objs[oid]
        team = s.players[obj.controller].team
        if team in teams and defs[obj.code].type == "unit" and obj.attached_to == NOWHERE:
            teams[team] += MIGHT * max(0, layers.might(g, oid))
    for team in teams:
        teams[team] += POINT * points[team]
    mine = teams.pop(s.players[me].team, 0.0)
    best = max(teams.values(), default=0.0)
    return math.tanh((mine - best) / SCALE)


# ---------------------------------------------------------------------- search
@dataclass
class _Node:
    """A decision of the searching player reached by a sequence of its own actions (open loop)."""

    action: Action | None = None
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[str, "_Node"] = field(default_factory=dict)


EXPLORE = 0.7       # UCB exploration constant (values are in [-1, 1])
WIDEN = 1.5         # below the root a node tries 1 + WIDEN * sqrt(visits) actions at most
MAX_STEPS = 400     # actions in one iteration, whatever the horizon (a bound on runaway rollouts)
WORK_PER_ACTION = 100  # the work of one searched action, plus one per action listed and per object on the board


class MCTSAgent:
    """Information-set MCTS with greedy rollouts cut at the agent's next Main Phase (see the module).

    ``iterations`` bounds the search, ``work`` its work (both deterministic); ``millis`` bounds it by
    time instead (or as well).  Decisions with one meaningful action, and mulligans, are not searched.
    """

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int | None = 100, millis: float | None = None,
                 work: int | None = None) -> None:
        if iterations is None and millis is None and work is None:
            raise ValueError("give the search a budget: iterations, work, milliseconds or several")
        self.state = rng.seed_state(seed ^ 0x3C75)
        self.iterations = iterations
        self.millis = millis
        self.work = work
        self.spent = 0  # the work of the current (or last) decision's search
        self.searched = 0  # the iterations of the current (or last) decision's search
        self.failures = 0  # iterations that hit an engine error in a determinization (and were dropped)
        self.last_root: _Node | None = None  # the tree of the last search, for inspection

    def choose(self, game: "Game", actions: list[Action]) -> Action:
        decision = game.pending_decision()
        if decision is None:
            return actions[0]
        me = decision.player
        self.state, seed = rng.next_u64(self.state)
        policy = GreedyAgent(seed)
        meaningful = _meaningful(game, actions)
        if len(meaningful) == 1 or decision.kind == "mulligan":
            return policy.choose(game, actions)
        self.state, seed = rng.next_u64(self.state)
        root = self.last_root = self._search(game, me, meaningful, policy, seed)
        best = max(root.children.values(), key=lambda c: (c.visits, c.total / max(1, c.visits)), default=None)
        if best is None or best.visits == 0 or best.action is None:
            return policy.choose(game, actions)
        wanted = action_key(best.action)
        return next(a for a in meaningful if action_key(a) == wanted)

    def _search(self, game: "Game", me: int, candidates: list[Action], policy: GreedyAgent, seed: int) -> _Node:
        determinizer = Determinizer(game, me)
        allowed = {action_key(a) for a in candidates}
        scores = policy.scores(game, me, candidates)
        prior = {action_key(a): i for i, (_, a) in enumerate(sorted(
            zip(scores, candidates), key=lambda pair: -pair[0]))}
        root = _Node()
        turn = game.state.turn
        deadline = None if self.millis is None else time.perf_counter() + self.millis / 1000
        state = seed
        done = 0
        self.spent = 0
        while (self.iterations is None or done < self.iterations) and \
                (self.work is None or done == 0 or self.spent < self.work) and \
                (deadline is None or done == 0 or time.perf_counter() < deadline):
            done += 1
            sim, state = determinizer.deal(state)
            path = [root]
            try:
                self._iterate(sim, me, turn, root, path, allowed, prior, policy)
            except RiftScriptError:
                self.failures += 1
                if len(path) > 1 and path[-1].visits == 0:
                    parent = path[-2]
                    for key, child in list(parent.children.items()):
                        if child is path[-1]:
                            del parent.children[key]
                continue
            value = evaluate(sim, me)
            for node in path:
                node.visits += 1
                node.total += value
        self.searched = done
        return root

    def _iterate(self, sim: "Game", me: int, turn: int, root: _Node, path: list[_Node], allowed: set[str],
                 prior: dict[str, int], policy: GreedyAgent) -> None:
        """Descend the tree, expand one of the agent's actions, then play on to the horizon."""
        node: _Node | None = root
        s = sim.state
        for _ in range(MAX_STEPS):
            s = sim.state
            if s.winners is not None or (s.turn > turn and s.turn_player == me and s.phase == "main"):
                return
            decision = s.decision
            if decision is None:
                return
            legal = sim.legal_actions()
            # the work of this step: listing and choosing grow with the actions listed, working out
            # characteristics with the objects on the board
            self.spent += WORK_PER_ACTION + len(legal) + sum(len(p.base) for p in s.players) \
                + sum(len(bf.here) for bf in s.battlefields)
            if node is None or decision.player != me:
                sim.apply(policy.choose(sim, legal))
                continue
            options = _meaningful(sim, legal)
            if node is root:
                options = [a for a in options if action_key(a) in allowed]
            if not options:  # none of the root's actions is legal in this deal
                sim.apply(policy.choose(sim, legal))
                node = None
                continue
            if len(options) == 1 and node is not root:
                sim.apply(options[0])  # forced: no node for it
                continue
            keys = [action_key(a) for a in options]
            untried: list[tuple[float, int, str, Action]] = []
            known: list[_Node] = []
            ranks: list[float] | None = None
            for i, (key, action) in enumerate(zip(keys, options)):
                child = node.children.get(key)
                if child is None:
                    # the greedy agent's favourites first
                    if node is not root and ranks is None:
                        ranks = [-score for score in policy.scores(sim, me, options)]
                    rank = prior.get(key, i) if ranks is None else ranks[i]
                    untried.append((rank, i, key, action))
                else:
                    child.available += 1
                    known.append(child)
            if untried and (node is root or not known or len(node.children) < 1 + WIDEN * math.sqrt(node.visits)):
                _, _, key, action = min(untried, key=lambda t: (t[0], t[1]))
                child = node.children[key] = _Node(action=action, available=1)
                path.append(child)
                sim.apply(action)
                node = None  # expanded: the rest is the rollout
                continue
            pick = max(known, key=lambda c: _ucb(c))
            path.append(pick)
            assert pick.action is not None
            sim.apply(pick.action)
            node = pick


def _ucb(node: _Node) -> float:
    if node.visits == 0:
        return math.inf
    return node.total / node.visits + EXPLORE * math.sqrt(math.log(max(1, node.available)) / node.visits)


def _meaningful(game: "Game", actions: list[Action]) -> list[Action]:
    """The actions worth searching: rune and other Add abilities only fill the pool, which paying
    for a card does by itself; units move one at a time or all together, as the greedy agent
    moves them (the other groups would multiply the branches of a move)."""
    return _single_or_all(actions, game, resources=False) or actions
