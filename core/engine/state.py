"""The game state: plain, serializable data with no behaviour.

Everything a game needs to continue lives here, so that ``to_json``/``from_json`` lose nothing
and a snapshot is a copy of this tree.  Card definitions are referenced by code, never copied.

Locations are small integers: a player's base is the player's index (0-3); battlefield ``i``
is ``BF0 + i`` (rule 198.1: the locations are the bases and the battlefields).
"""
from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

BF0 = 10
NOWHERE = -1

PHASES = ("awaken", "beginning", "channel", "draw", "main", "ending")


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



# An object's fields in order, read at C speed: snapshots keep objects as these tuples (Obj(*values)).
obj_values = operator.attrgetter(*(f.name for f in dataclasses.fields(Obj)))


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
    gear_energy: int = 0  # "use only to play gear or use gear abilities" (Fire Below the Mountain)
    gear_power: dict[str, int] = field(default_factory=dict)
    showdown_energy: int = 0  # "spend this Energy only during showdowns" (Scorn of the Moon)
    unit_energy: int = 0  # "spend this Energy only to play units or activated abilities of units"
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
    lasting: int = NOWHERE


@dataclass(slots=True)
class PendingTrigger:
    """A triggered ability waiting to go on the chain (383.3)."""

    obj: int
    ability: int
    controller: int
    event: dict[str, Any]
    lasting: int = NOWHERE
    ordered: bool = False
    targets: list[list[int]] | None = None


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


@dataclass(slots=True)
class Decision:
    """What the game waits for: who must decide, and what kind of decision."""

    kind: str
    player: int
    prompt: str
    options: list[dict[str, Any]] = field(default_factory=list)
    context: dict[str, Any] = field(default_factory=dict)


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
    history: list[list[Any]] = field(default_factory=list)
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


def to_jsonable(state: GameState) -> dict[str, Any]:
    data = dataclasses.asdict(state)
    data["objs"] = {str(k): v for k, v in data["objs"].items()}
    return data


def from_jsonable(data: dict[str, Any]) -> GameState:
    d = dict(data)
    d["players"] = [Player(**p) for p in d["players"]]
    d["battlefields"] = [Battlefield(**b) for b in d["battlefields"]]
    d["objs"] = {int(k): Obj(**v) for k, v in d["objs"].items()}
    d["chain"] = [ChainItem(**c) for c in d["chain"]]
    d["showdown"] = Showdown(**d["showdown"]) if d["showdown"] else None
    d["pending_triggers"] = [PendingTrigger(**p) for p in d["pending_triggers"]]
    d["lasting"] = [Lasting(**l) for l in d["lasting"]]
    d["decision"] = Decision(**d["decision"]) if d["decision"] else None
    return GameState(**d)


# The steps of a turn in order, and the phase each belongs to (core/engine/turn.py plays them)
ORDER = ("awaken", "beginning", "scoring", "channel", "draw", "main", "main_end", "ending", "expiration")
PHASE_OF = {"awaken": "awaken", "beginning": "beginning", "scoring": "beginning", "channel": "channel",
            "draw": "draw", "main": "main", "main_end": "main", "ending": "ending", "expiration": "ending"}

# An attached card's effect-text trigger is the unit's ability (435.1.e): it triggers for the unit, and
# its chain item (core/engine/triggers.py) names the unit and remembers the attached card in the lasting field.
EFFECT_TEXT = -(1 << 40)


def is_id(value: Any) -> bool:
    """An object or player id as JSON gives it: an integer, never a boolean."""
    return isinstance(value, int) and not isinstance(value, bool)
