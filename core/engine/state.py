"""The game state: plain, serializable data with no behaviour.

Everything a game needs to continue lives here, so that ``to_json``/``from_json`` lose nothing
and a snapshot is a copy of this tree.  Card definitions are referenced by code, never copied.

Locations are small integers: a player's base is the player's index (0-3); battlefield ``i``
is ``BF0 + i`` (rule 198.1: the locations are the bases and the battlefields).

The records' constructors are written out, not left to ``dataclasses``: compiled (setup.py), a written
``__init__`` is a native constructor, while the generated one runs as Python (about 6,000 machine
instructions a record; a guarded step's copy makes a dozen, every decision one).  The same goes for the
hot records elsewhere (``payment.Cost``, ``payment.Plan``, ``playing.PlayCheck``, ``layers.Chars``);
tests/test_api.py checks that each follows its fields.
"""
from __future__ import annotations

import copy
import dataclasses
import functools
import sys
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Final, get_args, Iterable, Literal, NamedTuple

BF0: Final = 10
NOWHERE: Final = -1

PHASES: Final = ("awaken", "beginning", "channel", "draw", "main", "ending")


class Zone(StrEnum):
    """Where an object is (``Obj.zone``).  Members are strings, so ``obj.zone == "hand"`` holds; the
    three zones scripts name otherwise are translated here and only here (``script_name``,
    ``from_script``)."""

    BOARD = "board"
    HAND = "hand"
    TRASH = "trash"
    MAIN_DECK = "main_deck"
    RUNE_DECK = "rune_deck"
    RUNES = "runes"
    CHAMPION = "champion"  # the Champion Zone (scripts: champion_zone)
    LEGEND = "legend"
    BFCARD = "bfcard"  # a battlefield card in play (scenarios: battlefield)
    FACEDOWN = "facedown"
    CHAIN = "chain"
    BANISHED = "banished"  # banishment (scripts: banishment)
    SET_ASIDE = "set_aside"
    LIMBO = "limbo"  # a card being created, before it enters its zone
    REMOVED = "removed"  # left the game with its owner's concession
    GONE = "gone"  # a token that ceased to exist (180)

    @property
    def script_name(self) -> str:
        """The name card scripts and scenarios use for the zone."""
        return _SCRIPT_NAMES.get(self, self.value)

    @classmethod
    def from_script(cls, name: str) -> Zone:
        """The zone a script or scenario names (``champion_zone`` is ``CHAMPION``); ValueError if none."""
        return _FROM_SCRIPT.get(name) or cls(name)


_SCRIPT_NAMES = {Zone.CHAMPION: "champion_zone", Zone.BANISHED: "banishment", Zone.BFCARD: "battlefield"}
_FROM_SCRIPT = {name: zone for zone, name in _SCRIPT_NAMES.items()}


def is_battlefield(loc: int) -> bool:
    return loc >= BF0


@dataclass(slots=True)
class Obj:
    """A card or token anywhere in the game (rule 180 for tokens)."""

    id: int
    code: str
    owner: int
    controller: int
    zone: str
    loc: int = NOWHERE
    exhausted: bool = False
    damage: int = 0
    buffs: int = 0
    stunned: bool = False
    attached_to: int = NOWHERE
    token: bool = False
    designation: str = ""
    timestamp: int = 0
    hidden_turn: int = -1
    moves_this_turn: int = 0
    played_turn: int = -1
    prevent: int = 0

    def __init__(self, id: int, code: str, owner: int, controller: int, zone: str, loc: int = NOWHERE,
                 exhausted: bool = False, damage: int = 0, buffs: int = 0, stunned: bool = False,
                 attached_to: int = NOWHERE, token: bool = False, designation: str = "", timestamp: int = 0,
                 hidden_turn: int = -1, moves_this_turn: int = 0, played_turn: int = -1, prevent: int = 0) -> None:
        # Written out (the dataclass keeps it): compiled, a direct constructor; the one dataclasses
        # generates is Python, and a restore or a game copy makes every object anew through it.
        # tests/test_api.py checks every field survives a snapshot.
        self.id = id
        self.code = code
        self.owner = owner
        self.controller = controller
        self.zone = zone
        self.loc = loc
        self.exhausted = exhausted
        self.damage = damage
        self.buffs = buffs
        self.stunned = stunned
        self.attached_to = attached_to
        self.token = token
        self.designation = designation
        self.timestamp = timestamp
        self.hidden_turn = hidden_turn
        self.moves_this_turn = moves_this_turn
        self.played_turn = played_turn
        self.prevent = prevent



# An object's fields in order: snapshots keep objects as these tuples.  ``obj_values`` is spelled out
# rather than an ``operator.attrgetter``, which looks up every name through the type (a third of a
# snapshot's cost compiled, twice the time pure).  ``obj_from_values`` is the direct call of the compiled
# constructor; pure Python it would be one more Python call per object, so a pure build makes objects
# with ``Obj(*fields)`` (``COMPILED``; 35 against 53 us for 120 objects).  tests/test_api.py checks that
# every field survives a snapshot and a copy.
ObjValues = tuple[int, str, int, int, str, int, bool, int, int, bool, int, bool, str, int, int, int, int, int]
COMPILED: Final = not __file__.endswith(".py")


def obj_values(o: Obj) -> ObjValues:
    """The object's fields in order (the inverse of ``obj_from_values``)."""
    return (o.id, o.code, o.owner, o.controller, o.zone, o.loc, o.exhausted, o.damage, o.buffs, o.stunned,
            o.attached_to, o.token, o.designation, o.timestamp, o.hidden_turn, o.moves_this_turn, o.played_turn,
            o.prevent)


def obj_clone(o: Obj) -> Obj:
    """A copy of the object.  Compiled, the fields go from one native record to the next without being
    made Python objects (a guarded step's copy of the board: ``loop.keep``)."""
    return Obj(o.id, o.code, o.owner, o.controller, o.zone, o.loc, o.exhausted, o.damage, o.buffs, o.stunned,
               o.attached_to, o.token, o.designation, o.timestamp, o.hidden_turn, o.moves_this_turn,
               o.played_turn, o.prevent)


def obj_same(a: Obj, b: Obj) -> bool:
    """Whether two objects have the same values in every field (``obj_values(a) == obj_values(b)``
    without making the tuples: compiled, each field is compared in the native records).
    tests/test_state_copy.py checks that a difference in any one field is seen."""
    return a.id == b.id and a.code == b.code and a.zone == b.zone and a.loc == b.loc and a.controller == b.controller \
        and a.exhausted == b.exhausted and a.damage == b.damage and a.buffs == b.buffs and a.stunned == b.stunned \
        and a.attached_to == b.attached_to and a.designation == b.designation and a.timestamp == b.timestamp \
        and a.moves_this_turn == b.moves_this_turn and a.played_turn == b.played_turn and a.prevent == b.prevent \
        and a.hidden_turn == b.hidden_turn and a.owner == b.owner and a.token == b.token


def obj_from_values(v: ObjValues) -> Obj:
    """The object whose fields these are (a direct call of the compiled constructor, not ``Obj(*v)``)."""
    return Obj(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14],
               v[15], v[16], v[17])


@dataclass(slots=True)
class Player:
    index: int
    name: str
    team: int
    legend: int = NOWHERE
    points: int = 0
    xp: int = 0
    energy: int = 0
    power: dict[str, int] = field(default_factory=dict)
    spell_energy: int = 0
    spell_power: dict[str, int] = field(default_factory=dict)
    gear_energy: int = 0  # gear-only energy (Fire Below the Mountain)
    gear_power: dict[str, int] = field(default_factory=dict)
    showdown_energy: int = 0  # showdown-only energy (Scorn of the Moon)
    unit_energy: int = 0  # unit-only energy: units and their activated abilities (Butcher of the Sands)
    main_deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    trash: list[int] = field(default_factory=list)
    rune_deck: list[int] = field(default_factory=list)
    runes: list[int] = field(default_factory=list)
    champion: list[int] = field(default_factory=list)
    chosen_champion: int = NOWHERE  # 103.3: the champion unit chosen for the deck (it starts in 'champion')
    banished: list[int] = field(default_factory=list)
    base: list[int] = field(default_factory=list)
    battlefields_owned: list[int] = field(default_factory=list)
    # objects that left the game with their owner's concession (zone "removed"; see concession.concede)
    removed: list[int] = field(default_factory=list)
    turns_taken: int = 0
    conceded: bool = False
    mulliganed: bool = False

    def __init__(self, index: int, name: str, team: int, legend: int = NOWHERE, points: int = 0, xp: int = 0,
                 energy: int = 0, power: dict[str, int] | None = None, spell_energy: int = 0,
                 spell_power: dict[str, int] | None = None, gear_energy: int = 0,
                 gear_power: dict[str, int] | None = None, showdown_energy: int = 0, unit_energy: int = 0,
                 main_deck: list[int] | None = None, hand: list[int] | None = None, trash: list[int] | None = None,
                 rune_deck: list[int] | None = None, runes: list[int] | None = None,
                 champion: list[int] | None = None, chosen_champion: int = NOWHERE, banished: list[int] | None = None,
                 base: list[int] | None = None, battlefields_owned: list[int] | None = None,
                 removed: list[int] | None = None, turns_taken: int = 0, conceded: bool = False,
                 mulliganed: bool = False) -> None:
        self.index = index
        self.name = name
        self.team = team
        self.legend = legend
        self.points = points
        self.xp = xp
        self.energy = energy
        self.power = {} if power is None else power
        self.spell_energy = spell_energy
        self.spell_power = {} if spell_power is None else spell_power
        self.gear_energy = gear_energy
        self.gear_power = {} if gear_power is None else gear_power
        self.showdown_energy = showdown_energy
        self.unit_energy = unit_energy
        self.main_deck = [] if main_deck is None else main_deck
        self.hand = [] if hand is None else hand
        self.trash = [] if trash is None else trash
        self.rune_deck = [] if rune_deck is None else rune_deck
        self.runes = [] if runes is None else runes
        self.champion = [] if champion is None else champion
        self.chosen_champion = chosen_champion
        self.banished = [] if banished is None else banished
        self.base = [] if base is None else base
        self.battlefields_owned = [] if battlefields_owned is None else battlefields_owned
        self.removed = [] if removed is None else removed
        self.turns_taken = turns_taken
        self.conceded = conceded
        self.mulliganed = mulliganed


@dataclass(slots=True)
class Battlefield:
    index: int
    card: int
    owner: int
    controller: int = NOWHERE
    here: list[int] = field(default_factory=list)
    facedown: list[int] = field(default_factory=list)
    contested_by: int = NOWHERE
    showdown_staged: bool = False
    combat_staged: bool = False
    scored_by: list[int] = field(default_factory=list)
    controlled_at_scoring: list[int] = field(default_factory=list)

    def __init__(self, index: int, card: int, owner: int, controller: int = NOWHERE, here: list[int] | None = None,
                 facedown: list[int] | None = None, contested_by: int = NOWHERE, showdown_staged: bool = False,
                 combat_staged: bool = False, scored_by: list[int] | None = None,
                 controlled_at_scoring: list[int] | None = None) -> None:
        self.index = index
        self.card = card
        self.owner = owner
        self.controller = controller
        self.here = [] if here is None else here
        self.facedown = [] if facedown is None else facedown
        self.contested_by = contested_by
        self.showdown_staged = showdown_staged
        self.combat_staged = combat_staged
        self.scored_by = [] if scored_by is None else scored_by
        self.controlled_at_scoring = [] if controlled_at_scoring is None else controlled_at_scoring

    @property
    def loc(self) -> int:
        return BF0 + self.index


@dataclass(slots=True)
class ChainItem:
    """A card or ability on the chain (rules 328-340)."""

    id: int
    kind: str
    controller: int
    obj: int
    ability: int = -1
    targets: list[list[int]] = field(default_factory=list)
    paid: list[str] = field(default_factory=list)
    location: int = NOWHERE
    event: dict[str, Any] | None = None
    from_hidden: bool = False
    mode: list[int] = field(default_factory=list)
    variables: dict[str, int] = field(default_factory=dict)
    lasting: int = NOWHERE  # where an ability comes from, as a number: see ``Origin``

    def __init__(self, id: int, kind: str, controller: int, obj: int, ability: int = -1,
                 targets: list[list[int]] | None = None, paid: list[str] | None = None, location: int = NOWHERE,
                 event: dict[str, Any] | None = None, from_hidden: bool = False, mode: list[int] | None = None,
                 variables: dict[str, int] | None = None, lasting: int = NOWHERE) -> None:
        self.id = id
        self.kind = kind
        self.controller = controller
        self.obj = obj
        self.ability = ability
        self.targets = [] if targets is None else targets
        self.paid = [] if paid is None else paid
        self.location = location
        self.event = event
        self.from_hidden = from_hidden
        self.mode = [] if mode is None else mode
        self.variables = {} if variables is None else variables
        self.lasting = lasting

    @property
    def origin(self) -> "Origin":
        """Where the ability comes from (what ``lasting`` encodes)."""
        return Origin.of(self.lasting)


@dataclass(slots=True)
class PendingTrigger:
    """A triggered ability waiting to go on the chain (383.3)."""

    obj: int
    ability: int
    controller: int
    event: dict[str, Any]
    lasting: int = NOWHERE  # where the ability comes from, as a number: see ``Origin``
    ordered: bool = False
    targets: list[list[int]] | None = None
    mode: list[int] | None = None  # a "Choose one —" trigger's options, chosen with its targets (targeting.Modes)

    def __init__(self, obj: int, ability: int, controller: int, event: dict[str, Any], lasting: int = NOWHERE,
                 ordered: bool = False, targets: list[list[int]] | None = None,
                 mode: list[int] | None = None) -> None:
        self.obj = obj
        self.ability = ability
        self.controller = controller
        self.event = event
        self.lasting = lasting
        self.ordered = ordered
        self.targets = targets
        self.mode = mode

    @property
    def origin(self) -> "Origin":
        """Where the ability comes from (what ``lasting`` encodes)."""
        return Origin.of(self.lasting)


@dataclass(slots=True)
class Showdown:
    """A showdown or combat at one battlefield (316.7-316.8, 345-348)."""

    bf: int
    combat: bool
    attacker: int
    defender: int
    focus: int
    passes: int = 0
    initial: bool = True
    acted: bool = False
    attacked: list[int] = field(default_factory=list)
    defended: list[int] = field(default_factory=list)
    assignments: dict[str, dict[str, int]] = field(default_factory=dict)

    def __init__(self, bf: int, combat: bool, attacker: int, defender: int, focus: int, passes: int = 0,
                 initial: bool = True, acted: bool = False, attacked: list[int] | None = None,
                 defended: list[int] | None = None, assignments: dict[str, dict[str, int]] | None = None) -> None:
        self.bf = bf
        self.combat = combat
        self.attacker = attacker
        self.defender = defender
        self.focus = focus
        self.passes = passes
        self.initial = initial
        self.acted = acted
        self.attacked = [] if attacked is None else attacked
        self.defended = [] if defended is None else defended
        self.assignments = {} if assignments is None else assignments


@dataclass(slots=True)
class Lasting:
    """An effect created by a resolving ability: "this turn", "the next time ...", delayed triggers."""

    id: int
    kind: str
    source: int
    source_code: str
    controller: int
    body: dict[str, Any]
    duration: str
    affects: list[int] | None = None
    uses: int = -1
    timestamp: int = 0
    keyword: str | None = None

    def __init__(self, id: int, kind: str, source: int, source_code: str, controller: int, body: dict[str, Any],
                 duration: str, affects: list[int] | None = None, uses: int = -1, timestamp: int = 0,
                 keyword: str | None = None) -> None:
        self.id = id
        self.kind = kind
        self.source = source
        self.source_code = source_code
        self.controller = controller
        self.body = body
        self.duration = duration
        self.affects = affects
        self.uses = uses
        self.timestamp = timestamp
        self.keyword = keyword


# The kinds of decision a game waits for (core/engine/decisions.py says which actions answer each):
# priority (play, activate, move, hide, pass, end_turn, invite), mulligan, choose (a choice while
# something resolves), order (triggers), targets (a trigger's targets), assign (combat damage),
# showdown (which battlefield first), battlefield and turn_order (setup; answered with choose).
DecisionKind = Literal["priority", "mulligan", "choose", "order", "targets", "assign", "showdown", "battlefield",
                       "turn_order"]
DECISION_KINDS: tuple[DecisionKind, ...] = get_args(DecisionKind)
# The tasks a game queues (GameState.tasks holds [name, *arguments]; core/engine/loop.py runs them)
TaskName = Literal["resolve", "showdown_end", "combat_damage", "combat_cleanup", "kill_cost", "mulligan", "battlefield",
                   "reveal_battlefields", "turn_order", "opening_hands"]
TASK_NAMES: tuple[TaskName, ...] = get_args(TaskName)


@dataclass(slots=True)
class Decision:
    """What the game waits for: who must decide, and what kind of decision (``DecisionKind``)."""

    kind: DecisionKind
    player: int
    prompt: str
    options: list[dict[str, Any]] = field(default_factory=list)
    context: dict[str, Any] = field(default_factory=dict)

    def __init__(self, kind: DecisionKind, player: int, prompt: str, options: list[dict[str, Any]] | None = None,
                 context: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.player = player
        self.prompt = prompt
        self.options = [] if options is None else options
        self.context = {} if context is None else context


class HistoryRow(NamedTuple):
    """One thing that happened this turn, for 'this turn' conditions (``Game.remember``), or a number a
    script recorded (``Game.record``: ``kind`` is ``var:NAME``, ``number`` its value).  Saved as a JSON
    list in this order; a recorded number's row has no phase there (its five items, as always)."""

    kind: str  # what happened: an event type or a kernel word ("played", "died_alone", "fired", ...)
    player: int
    obj: int = NOWHERE
    code: str = ""  # a card code or a word about it ("hold", the ability index of "fired", ...)
    number: int = NOWHERE  # a location or an amount, as the kind says
    phase: str = ""  # the phase it happened in ("during your Beginning Phase")


# A HistoryRow from a tuple of its fields, without a Python call (the NamedTuple's own ``__new__`` is
# one): for the rows of every remembered event and of every snapshot restored
history_row: Callable[[Iterable[Any]], HistoryRow] = functools.partial(tuple.__new__, HistoryRow)


@dataclass(slots=True)
class GameState:
    mode: str
    seed: int
    rng: int
    victory_score: int
    players: list[Player]
    battlefields: list[Battlefield]
    objs: dict[int, Obj]
    next_id: int = 1
    clock: int = 0
    turn: int = 0
    turn_player: int = 0
    order_player: int = 0
    turn_order: list[int] = field(default_factory=list)
    extra_turns: list[int] = field(default_factory=list)
    phase: str = "setup"
    step: str = "setup"
    chain: list[ChainItem] = field(default_factory=list)
    showdown: Showdown | None = None
    priority: int = NOWHERE
    passes: int = 0
    # 491.8.a: the teammate the turn player invited to act with their priority (NOWHERE: nobody),
    # and the event count when the last invitation was handed back (one invitation per window)
    invited: int = NOWHERE
    invite_closed_at: int = -1
    tasks: list[list[Any]] = field(default_factory=list)
    pending_triggers: list[PendingTrigger] = field(default_factory=list)
    lasting: list[Lasting] = field(default_factory=list)
    decision: Decision | None = None
    winners: list[int] | None = None
    result: str = ""
    needs_cleanup: bool = False
    history: list[HistoryRow] = field(default_factory=list)
    expiration_chain_used: bool = False
    log_count: int = 0
    loop_guard: int = 0
    answers: list[Any] = field(default_factory=list)
    # units on the board at the last cleanup and those of them that were Mighty, kept only while
    # something listens to become_mighty (None: not being watched)
    watched_units: list[int] | None = None
    mighty_units: list[int] = field(default_factory=list)
    # unit id (as text) -> its Might at the last cleanup, kept only while something listens to might_reaches
    # (None: not being watched)
    might_seen: dict[str, int] | None = None
    # banished card id (as text) -> the objects it was banished "with" (The Zero Drive)
    banished_with: dict[str, list[int]] = field(default_factory=dict)

    def __init__(self, mode: str, seed: int, rng: int, victory_score: int, players: list[Player],
                 battlefields: list[Battlefield], objs: dict[int, Obj], next_id: int = 1, clock: int = 0,
                 turn: int = 0, turn_player: int = 0, order_player: int = 0, turn_order: list[int] | None = None,
                 extra_turns: list[int] | None = None, phase: str = "setup", step: str = "setup",
                 chain: list[ChainItem] | None = None, showdown: Showdown | None = None, priority: int = NOWHERE,
                 passes: int = 0, invited: int = NOWHERE, invite_closed_at: int = -1,
                 tasks: list[list[Any]] | None = None, pending_triggers: list[PendingTrigger] | None = None,
                 lasting: list[Lasting] | None = None, decision: Decision | None = None,
                 winners: list[int] | None = None, result: str = "", needs_cleanup: bool = False,
                 history: list[HistoryRow] | None = None, expiration_chain_used: bool = False, log_count: int = 0,
                 loop_guard: int = 0, answers: list[Any] | None = None, watched_units: list[int] | None = None,
                 mighty_units: list[int] | None = None, might_seen: dict[str, int] | None = None,
                 banished_with: dict[str, list[int]] | None = None) -> None:
        self.mode = mode
        self.seed = seed
        self.rng = rng
        self.victory_score = victory_score
        self.players = players
        self.battlefields = battlefields
        self.objs = objs
        self.next_id = next_id
        self.clock = clock
        self.turn = turn
        self.turn_player = turn_player
        self.order_player = order_player
        self.turn_order = [] if turn_order is None else turn_order
        self.extra_turns = [] if extra_turns is None else extra_turns
        self.phase = phase
        self.step = step
        self.chain = [] if chain is None else chain
        self.showdown = showdown
        self.priority = priority
        self.passes = passes
        self.invited = invited
        self.invite_closed_at = invite_closed_at
        self.tasks = [] if tasks is None else tasks
        self.pending_triggers = [] if pending_triggers is None else pending_triggers
        self.lasting = [] if lasting is None else lasting
        self.decision = decision
        self.winners = winners
        self.result = result
        self.needs_cleanup = needs_cleanup
        self.history = [] if history is None else history
        self.expiration_chain_used = expiration_chain_used
        self.log_count = log_count
        self.loop_guard = loop_guard
        self.answers = [] if answers is None else answers
        self.watched_units = watched_units
        self.mighty_units = [] if mighty_units is None else mighty_units
        self.might_seen = might_seen
        self.banished_with = {} if banished_with is None else banished_with


# ---------------------------------------------------------------------- copies for a guarded step
# A guarded step (core/engine/loop.py) keeps the state as it was before the step in case the step asks a
# player and must be rewound.  The kept copy is used at most once, so it is a plain copy of the records,
# field by field (compiled: a field read each), instead of a pickle written and read back (about a
# third of the instructions).  Objects are not copied here: the caller keeps them as ``obj_values``.
# ``tests/test_state_copy.py`` checks that every field of every record is copied and that no mutable
# value is shared with the original.

def copy_value(x: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of plain data (the ``Any`` parts of the state: events, lasting bodies, tasks,
    decision options, answers).  ``memo`` (one per state copied) keeps what the state shares shared,
    as a pickle would: the triggers of one event, the pieces of a script two lasting effects share.
    What is not plain data is copied as ``copy.deepcopy`` copies it."""
    t = type(x)
    if t is str or t is int or t is bool or x is None or t is float or t is frozenset:
        return x
    copied = memo.get(id(x))
    if copied is not None:
        return copied
    if t is dict:
        copied = memo[id(x)] = {}
        for k, v in x.items():
            copied[k] = copy_value(v, memo)
    elif t is list:
        copied = memo[id(x)] = []
        for v in x:
            copied.append(copy_value(v, memo))
    elif t is tuple:
        copied = memo[id(x)] = tuple([copy_value(v, memo) for v in x])
    else:
        copied = memo[id(x)] = copy.deepcopy(x)
    return copied


def _ints(values: list[int] | None) -> list[int] | None:
    return None if values is None else list(values)


def _slots(values: list[list[int]] | None) -> list[list[int]] | None:
    return None if values is None else [list(v) for v in values]


def copy_player(p: Player) -> Player:
    return Player(p.index, p.name, p.team, p.legend, p.points, p.xp, p.energy, dict(p.power), p.spell_energy,
                  dict(p.spell_power), p.gear_energy, dict(p.gear_power), p.showdown_energy, p.unit_energy,
                  list(p.main_deck), list(p.hand), list(p.trash), list(p.rune_deck), list(p.runes),
                  list(p.champion), p.chosen_champion, list(p.banished), list(p.base),
                  list(p.battlefields_owned), list(p.removed), p.turns_taken, p.conceded, p.mulliganed)


def copy_battlefield(b: Battlefield) -> Battlefield:
    return Battlefield(b.index, b.card, b.owner, b.controller, list(b.here), list(b.facedown), b.contested_by,
                       b.showdown_staged, b.combat_staged, list(b.scored_by), list(b.controlled_at_scoring))


def copy_chain_item(c: ChainItem, memo: dict[int, Any]) -> ChainItem:
    return ChainItem(c.id, c.kind, c.controller, c.obj, c.ability, [list(t) for t in c.targets], list(c.paid),
                     c.location, None if c.event is None else copy_value(c.event, memo), c.from_hidden,
                     list(c.mode), dict(c.variables), c.lasting)


def copy_pending(t: PendingTrigger, memo: dict[int, Any]) -> PendingTrigger:
    return PendingTrigger(t.obj, t.ability, t.controller, copy_value(t.event, memo), t.lasting, t.ordered,
                          _slots(t.targets), _ints(t.mode))


def copy_showdown(sd: Showdown) -> Showdown:
    return Showdown(sd.bf, sd.combat, sd.attacker, sd.defender, sd.focus, sd.passes, sd.initial, sd.acted,
                    list(sd.attacked), list(sd.defended),
                    {side: dict(units) for side, units in sd.assignments.items()})


def copy_lasting(e: Lasting, memo: dict[int, Any]) -> Lasting:
    return Lasting(e.id, e.kind, e.source, e.source_code, e.controller, copy_value(e.body, memo), e.duration,
                   _ints(e.affects), e.uses, e.timestamp, e.keyword)


def copy_decision(d: Decision, memo: dict[int, Any]) -> Decision:
    return Decision(d.kind, d.player, d.prompt, copy_value(d.options, memo), copy_value(d.context, memo))


def copy_state(s: GameState) -> GameState:
    """The state with every record and container copied, but ``objs`` (empty in the copy) and the
    history rows (immutable tuples, shared); what the state shares stays shared (``copy_value``)."""
    memo: dict[int, Any] = {}
    return GameState(
        s.mode, s.seed, s.rng, s.victory_score, [copy_player(p) for p in s.players],
        [copy_battlefield(b) for b in s.battlefields], {}, s.next_id, s.clock, s.turn, s.turn_player,
        s.order_player, list(s.turn_order), list(s.extra_turns), s.phase, s.step,
        [copy_chain_item(c, memo) for c in s.chain], None if s.showdown is None else copy_showdown(s.showdown),
        s.priority, s.passes, s.invited, s.invite_closed_at, copy_value(s.tasks, memo),
        [copy_pending(t, memo) for t in s.pending_triggers], [copy_lasting(e, memo) for e in s.lasting],
        None if s.decision is None else copy_decision(s.decision, memo), _ints(s.winners), s.result,
        s.needs_cleanup, list(s.history), s.expiration_chain_used, s.log_count, s.loop_guard,
        copy_value(s.answers, memo), _ints(s.watched_units), list(s.mighty_units),
        None if s.might_seen is None else dict(s.might_seen),
        {k: list(v) for k, v in s.banished_with.items()})


def to_jsonable(state: GameState) -> dict[str, Any]:
    data = dataclasses.asdict(state)
    data["objs"] = {str(k): v for k, v in data["objs"].items()}
    data["history"] = [list(h[:5]) if h.kind.startswith("var:") else list(h) for h in state.history]
    return data


def from_jsonable(data: dict[str, Any]) -> GameState:
    d = dict(data)
    d["players"] = [Player(**p) for p in d["players"]]
    d["battlefields"] = [Battlefield(**b) for b in d["battlefields"]]
    d["objs"] = {int(k): Obj(**{**v, "code": sys.intern(v["code"])}) for k, v in d["objs"].items()}  # as Game.new_obj
    d["chain"] = [ChainItem(**c) for c in d["chain"]]
    d["showdown"] = Showdown(**d["showdown"]) if d["showdown"] else None
    d["pending_triggers"] = [PendingTrigger(**p) for p in d["pending_triggers"]]
    d["lasting"] = [Lasting(**l) for l in d["lasting"]]
    d["decision"] = Decision(**d["decision"]) if d["decision"] else None
    d["history"] = [HistoryRow(*h) for h in d["history"]]
    return GameState(**d)


# The steps of a turn in order, and the phase each belongs to (core/engine/turn.py plays them)
ORDER: Final = ("awaken", "beginning", "scoring", "channel", "draw", "main", "main_end", "ending", "expiration")
PHASE_OF: Final = {"awaken": "awaken", "beginning": "beginning", "scoring": "beginning", "channel": "channel",
            "draw": "draw", "main": "main", "main_end": "main", "ending": "ending", "expiration": "ending"}



def is_id(value: Any) -> bool:
    """An object or player id as JSON gives it: an integer, never a boolean."""
    return isinstance(value, int) and not isinstance(value, bool)


# Where the ability of a pending trigger or a chain item comes from is one number in their ``lasting``
# field (saved games keep it so); ``Origin`` is what the number says.
EFFECT_TEXT: Final = -(1 << 40)  # EFFECT_TEXT - card: an attached card's effect text, acting as the unit's (435.1.e)
STATIC_GRANT: Final = -1000  # STATIC_GRANT - packed: a keyword's trigger given by a static ability


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a pending trigger's or a chain item's ability comes from - what its ``lasting`` number
    encodes (``Origin.of``; ``code`` gives the number back):

    - ``own``: the object's own ability (``NOWHERE``; an index past its card's abilities is one it
      borrows);
    - ``lasting``: a lasting effect's (``lasting`` is its id, above 0): a created trigger, or a keyword's
      trigger the effect grants;
    - ``static_grant``: a keyword's trigger that a static ability gives ("other units have [Vision]"):
      the static's object (``source``), its ability index (``static``) and its modifier (``modifier``);
    - ``effect_text``: an attached card's effect-text trigger, acting as the unit's (435.1.e):
      ``source`` is the attached card.
    """

    kind: Literal["own", "lasting", "static_grant", "effect_text"]
    lasting: int = NOWHERE
    source: int = NOWHERE
    static: int = 0
    modifier: int = 0

    @staticmethod
    def of(code: int) -> "Origin":
        """What a ``lasting`` number says."""
        if code <= EFFECT_TEXT:
            return Origin("effect_text", source=EFFECT_TEXT - code)
        if code <= STATIC_GRANT:
            src, rest = divmod(STATIC_GRANT - code, 4096)
            static, modifier = divmod(rest, 64)
            return Origin("static_grant", source=src, static=static, modifier=modifier)
        if code != NOWHERE:
            return Origin("lasting", lasting=code)
        return Origin("own")

    @property
    def code(self) -> int:
        """The ``lasting`` number for this origin."""
        if self.kind == "effect_text":
            return EFFECT_TEXT - self.source
        if self.kind == "static_grant":
            return STATIC_GRANT - ((self.source * 64 + self.static) * 64 + self.modifier)
        return self.lasting if self.kind == "lasting" else NOWHERE
