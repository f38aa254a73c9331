"""What a game works out from its state and keeps, and exactly what makes each answer stale.

Every per-state cache of the engine is held by one ``Caches`` object (``Game.caches``), so that the
rules for forgetting are written in one place.  ``invariants.cache_problems`` (run by the soaks)
compares the cached answers with those of a fresh copy of the game, so a change that should have
made an answer stale and did not fails a soak.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import BF0

if TYPE_CHECKING:
    from ..script.cards import Ability
    from .layers import Chars
    from .payment import Cost
    from .state import Decision, Obj
    from .vocabulary import Action


class Stamp:
    """The counters of ``Caches.stamp``, for ``changes_since``.  A class, not a tuple: compiled (setup.py), a
    tuple of ints is unpacked into machine integers when read and packed into a new tuple when stored or
    compared by identity, so ``_Clear`` never found a stamp it had seen and each read boxed five integers."""

    def __init__(self, version: int, quiet: int, lasting: int, located: int, might: int,
                 moves_at: dict[int, int]) -> None:
        self.version = version
        self.quiet = quiet  # quiet bumps
        self.lasting = lasting  # lasting changes
        self.located = located  # located bumps
        self.might = might  # Might bumps
        self.moves_at = moves_at  # located moves by location


NO_STAMP: Stamp = Stamp(-1, -1, -1, -1, -1, {})


class Caches:
    """The caches of one game, by what invalidates them.  What a card's script says is no cache of a
    game: the compiler works it out once and keeps it on the compiled card (``CardFacts``, and on each
    ``Ability`` its ``effect_targets`` - a ``TargetSlots`` with the facts targeting asks - and its
    ``slot_effects``); no module keeps answers keyed by ``id()`` (``tests/test_state_caches.py``).

    **version** - a counter bumped by every change of the state: each event (``Game.emit``), each
    move of an object (``Game.place``), each change of the dispatch index (``TriggerIndex.add`` and
    ``remove``), each ``restore``, and ``Game.touch()`` for the changes the rules make without an
    event or a move (a combat designation, a concession's bookkeeping, a scoring record, the Awaken
    Phase's readying, a detach's index change, a plugin's direct change of an object).  Valid while
    it is unchanged:

    - ``memo()``: answers keyed by name - ``board_reach``, ``copied_units`` (layers), and keys such as
      ``("restricted", name)`` (layers),
      ``("plan", ...)``, ``("cost", ...)``, ``"recycle_order P"``, ``"ready_runes P"`` (P a player),
      ``("additional_costs", oid)`` (payment), ``("locations", ...)`` (playing),
      ``("activated", oid)`` (activation), ``attachments``, ``"hook_in_play " + hook`` (layers),
      ``("controllers_at", loc)`` (combat's designations, read by the cleanup's staging step);
    - ``chars``: each object's characteristics (``layers.chars``), dropped when ``chars_version``
      falls behind ``version``; ``chars_reads`` marks the objects being computed (was a partial
      result read?) and is empty between two computations;
    - ``offered``: the legal actions last offered, with the version and the decision they were
      offered for (``offer.offered``).

    **quiet bumps** - ``kept``: the candidates of a target selection (``targeting.kept_candidates``,
    read by ``targeting._single_choices``: a Reaction spell's and each trigger's target choices),
    keyed by the selection's kind and filter and the player and location it is read for.  Only a
    selection that reads nothing but an object's card type, controller, location and Might (with
    constant bounds) is kept, the last only while no static ability but a victory score and no
    lasting effect but a constant Might change on named objects is in play.  Valid while every
    version bump since it was kept came from an event of ``QUIET_EVENTS`` (a player's action logged,
    a pass, an object chosen, a trigger put on the chain, damage marked, a resolution noted: they change
    neither where an object is nor who controls it nor, without a conditional static, its Might) and
    ``lasting_changes`` is unchanged: ``quiet_bumps`` counts those events' bumps.  Two kinds of bump
    drop only the lists that read what they changed: a *located move* (``Game.place`` of an object that
    is not attached and brings or takes no static ability: ``located_bumps`` counts its bumps, ``moved_at``
    gathers the locations it left and entered) drops the lists looking at those locations (a selection
    of battlefields, of bases, of the source's location, or of anywhere); a lasting constant Might change
    on named objects (``targeting.plain_might``, counted by ``might_bumps``) drops the lists filtered by
    Might.  Any other bump (an event, a move, ``touch``, an index change, a ``restore``) empties it.  A list is worked out only as far as it
    was read (the rest of the search is kept with it); the entry ``might_fixed`` keeps whether the
    Might condition above holds (``targeting.might_fixed``).  ``invariants.cache_problems`` compares each
    kept list, and ``might_fixed``, with a fresh copy's.

    **changes since a stamp** (``Caches.stamp``, ``changes_since``: the counters above, with the located
    moves by location) - ``designations``: the stamp, the showdown and what a refresh of the combat
    designations read of it, and the controllers of the units at its battlefield, kept by a refresh that
    changed nothing (``combat.refresh_designations``).  The next refresh is skipped while the showdown
    is the same and every bump since came from a quiet event, a constant Might change or a located move
    elsewhere (nothing moved there, changed control or was attached).  ``invariants.check`` checks that a
    refresh skipped now would change nothing (``combat.stale_designations``).  ``cleanup_clear``: by
    location, the stamp at which a cleanup found no gear at that battlefield, or no other player's
    object at that base; the cleanup doesn't look there again while every bump since came from a quiet
    event, a constant Might change or a located move elsewhere (``invariants.check``: ``cleanup.stale_clear``).

    **statics generation** (``TriggerIndex.statics_generation``) - bumped whenever the static
    abilities in force (``TriggerIndex.static_sources``) change, and when an object's timestamp does
    (it entered the board, changed control: the statics are ordered by it).  Valid while it is unchanged:
    ``by_kind`` (``layers.statics_by_kind``, read ~10 times an action: a field with its own
    ``by_kind_generation``, not a memo entry), and ``statics_memo()``: ``object_statics``,
    ``statics_beyond_board``, ``("hook_statics", hook)`` (layers), ``cost_statics``, ``chooses_statics``
    (payment): what depends
    only on which statics are in force, never on the state they read.

    **lasting key** (``Game.lasting_memo``) - the statics generation with what tells the lasting effects
    in play apart: their list (the object) and its length, its last entry (the object: entries are only
    appended or removed, never put back, so within a line of play these name its contents) and
    ``lasting_changes``, bumped when an entry itself changes (``Game.spend_use``, ``Game.lasting_changed``
    for a bound effect's ``affects``) and at every ``restore`` - but one in place (a guarded step rewound)
    that finds the lasting effects with the values put back keeps the game's own list, its entries and
    the key (``loop._installed``).  Valid while it is unchanged:
    ``lasting_memo()``: ``off_board_touch``, ``off_board_reach``, ``lasting_board_reach`` (layers):
    what depends only on the lasting effects and the statics in force, never on the rest of the state;
    ``("board_reach", places)`` (layers.board_reach while no card was seen attached: it depends on the
    places of the statics limited to their location too, which its key names).
    ``invariants.cache_problems`` compares them with a fresh copy's.

    **lasting-only key** (``Game.lasting_only_memo``) - the lasting key without the statics
    generation: what depends on the lasting effects alone is kept while a token enters the board or a
    unit changes control (each bumps the generation).  Valid while it is unchanged:
    ``lasting_only_memo()``: ``active_lasting`` (game), ``lasting_cost_keywords``, ``lasting_cost_mods``
    (payment), ``granting_lasting``, ``("lasting_restrictions", name)`` (layers), ``lasting_plays_from``,
    ``forbidding_players`` (playing), ``lasting_events`` (triggers: the event types a lasting effect listens to),
    ``plain_might_lasting`` (targeting.might_fixed), ``optional_lasting_replacements`` (loop),
    ``lasting_off_board_reach``, ``lasting_off_board_touch`` (layers: the lasting part of ``off_board_reach``,
    ``off_board_touch``), ``("hook_lasting", hook)`` (layers: the lasting part of ``hook_in_play``),
    ``lasting_by_object`` (``layers.lasting_touching``: the lasting effects by the objects they name),
    ``("lasting_with", kind)`` (``layers.lasting_with``: those with a modifier of a kind).
    ``invariants.cache_problems`` compares them with a fresh copy's.

    **Compiled once** (valid for the game's life; they depend on the catalog only):
    ``keyword_abilities`` (a keyword's abilities for a value), ``granted_abilities`` (a
    ``grant_ability`` modifier's ability, keyed by the JSON text of the ability it gives: the same
    text compiles to the same ability, whichever card's script or lasting effect's body holds it) -
    these two are the catalog's (``Catalog.compiled_abilities``), shared by every game of it;
    ``printed_chars`` (a card's characteristics off the board when only its unconditional text
    applies, by code: ``layers.chars``), ``printed_costs`` (a card's printed cost, by code: what
    ``payment.shared_play_cost`` answers while nothing can change it; its readers never change it).
    ``lasting_abilities`` (a lasting effect's ability, by its id) is dropped at every ``restore`` (but for
    the effects an in-place one keeps, as above): ids come from the clock, so another
    line of play may reuse one; ``lasting_scripts`` (the same abilities by the keyword and the JSON text
    of the effect's body, which alone decide what compiles) is kept.

    **Checked at each use** - ``kept_objs``: the copies of the objects the last guarded step kept
    (``loop.keep``), by id, and ``kept_list``, the same in the dict's order.  They are never made the
    game's own (``loop.rewind`` puts back fresh copies of them), so nothing changes them; the next
    ``keep`` takes the copy at the same place in the list instead of making a new one when it has the
    object's values in every field, its id too (``state.obj_same``), and the whole dict again when every
    one does, so nothing can make one stale.  ``invariants.cache_problems`` checks that none of them is
    an object of the game.

    **Shared answers** (valid for the game's life): ``untouched``, the characteristics of a board
    object nothing can change (``layers._untouched``): its printed Might plus its buffs and its printed
    keywords, keyed by (card code, buffs), or the code alone without buffs; one answer shared by every such object, which no reader
    changes; ``invariants.cache_problems`` compares each board object's with a fresh copy's and with
    the layers worked out in full.
    """

    def __init__(self) -> None:
        self.version = 0
        self.chars: dict[int, Any] = {}
        self.chars_version = -1
        self.chars_reads: dict[int, bool] = {}
        self.offered: tuple[int, "Decision", list["Action"]] | None = None
        self.keyword_abilities: dict[tuple[str, Any], tuple["Ability", ...]] = {}
        self.lasting_abilities: dict[int, "Ability"] = {}
        self.lasting_scripts: dict[tuple[str | None, str], "Ability"] = {}
        self.granted_abilities: dict[str, "Ability"] = {}
        self.printed_chars: dict[str, "Chars | None"] = {}
        self.printed_costs: dict[str, "Cost"] = {}
        self.memo_answers: dict[Any, Any] = {}
        self.memo_version = -1
        self.statics_answers: dict[Any, Any] = {}
        self.statics_memo_generation = -1
        self.by_kind: dict[str, list[Any]] = {}
        self.by_kind_generation = -1
        self.untouched: dict[str | tuple[str, int], Any] = {}
        self.lasting_answers: dict[Any, Any] = {}
        self.lasting_of: list[Any] | None = None  # the lasting effects' list, its length and last entry
        self.lasting_len = -1
        self.lasting_last: Any = None
        self.lasting_stamp = (-1, -1)
        self.lasting_changes = 0
        self.lasting_only_answers: dict[Any, Any] = {}
        self.lasting_only_of: list[Any] | None = None
        self.lasting_only_len = -1
        self.lasting_only_last: Any = None
        self.lasting_only_changes = -1
        self.quiet_bumps = 0
        self.located_bumps = 0
        self.might_bumps = 0
        self.moves_at: dict[int, int] = {}  # location -> located moves that left or entered it
        self.kept: dict[Any, Any] = {}
        self.kept_stamp: Stamp = NO_STAMP
        self.designations: tuple[Stamp, Any, tuple[int, ...], frozenset[int]] | None = None
        self.cleanup_clear: dict[int, Stamp] = {}
        self.kept_objs: dict[int, "Obj"] = {}
        self.kept_list: list["Obj"] = []  # the same copies, in the dict's order

    def memo(self) -> dict[Any, Any]:
        """A dict valid only while the state is unchanged (``version``).  ``Game.memo`` reads
        ``memo_answers`` itself while ``memo_version`` is current (a call saved on a hot path)."""
        if self.memo_version != self.version:
            self.memo_answers = {}
            self.memo_version = self.version
        return self.memo_answers

    def statics_memo(self, generation: int) -> dict[Any, Any]:
        """A dict valid while the static abilities in force are unchanged (their ``generation``)."""
        if self.statics_memo_generation != generation:
            self.statics_answers = {}
            self.statics_memo_generation = generation
        return self.statics_answers

    def lasting_memo(self, lasting: list[Any], generation: int) -> dict[Any, Any]:
        """A dict valid while the lasting effects in play and the statics in force (their
        ``generation``) are unchanged: the lasting key, see ``Game.lasting_memo``."""
        stamp = (generation, self.lasting_changes)
        if not (self.lasting_of is lasting and self.lasting_len == len(lasting) and self.lasting_stamp == stamp
                and (not lasting or self.lasting_last is lasting[-1])):
            self.lasting_answers = {}
            self.lasting_of, self.lasting_len, self.lasting_stamp = lasting, len(lasting), stamp
            self.lasting_last = lasting[-1] if lasting else None
        return self.lasting_answers

    def lasting_only_memo(self, lasting: list[Any]) -> dict[Any, Any]:
        """A dict valid while the lasting effects in play are unchanged (the lasting-only key)."""
        if not (self.lasting_only_of is lasting and self.lasting_only_len == len(lasting)
                and self.lasting_only_changes == self.lasting_changes
                and (not lasting or self.lasting_only_last is lasting[-1])):
            self.lasting_only_answers = {}
            self.lasting_only_of, self.lasting_only_len = lasting, len(lasting)
            self.lasting_only_changes = self.lasting_changes
            self.lasting_only_last = lasting[-1] if lasting else None
        return self.lasting_only_answers

    def kept_candidates(self) -> dict[Any, Any]:
        """The kept candidate lists, emptied when a bump other than a quiet event's came since they
        were kept (see **quiet bumps** above)."""
        stamp = self.kept_stamp
        if stamp.version == self.version and stamp.lasting == self.lasting_changes:
            return self.kept
        changes = self.changes_since(stamp)
        if changes is None:
            self.kept = {}
        else:
            moved_at, might = changes
            if moved_at or might:
                self.kept = {key: entry for key, entry in self.kept.items()
                             if not (moved_at and _moved_in_scope(key, moved_at) or might and _reads_might(key))}
        self.kept_stamp = self.stamp()
        return self.kept

    def stamp(self) -> Stamp:
        """The counters as they are now, for ``changes_since``."""
        return Stamp(self.version, self.quiet_bumps, self.lasting_changes, self.located_bumps, self.might_bumps,
                     dict(self.moves_at))

    def changes_since(self, stamp: Stamp) -> tuple[set[int], bool] | None:
        """What changed since the stamp was taken, when every bump since came from a quiet event, a
        located move or a constant Might change on named objects: (the locations moved at, whether a
        Might changed); None when any other bump came or a lasting effect changed in place."""
        located, might = self.located_bumps - stamp.located, self.might_bumps - stamp.might
        if self.version - stamp.version != self.quiet_bumps - stamp.quiet + located + might \
                or stamp.lasting != self.lasting_changes:
            return None
        before = stamp.moves_at
        return {loc for loc, n in self.moves_at.items() if before.get(loc) != n} if located else set(), might > 0

    def state_replaced(self, lasting_kept: frozenset[int] | None = None) -> None:
        """The game went back to a snapshot: forget the characteristics and the lasting effects'
        abilities, and start a new version and a new lasting key.  ``lasting_kept``: the game kept its
        lasting effects, which have the snapshot's values (``loop._installed``), so the lasting key stays
        (what depends on them alone is still right) and so do their abilities, those of these ids."""
        self.chars = {}
        self.version += 1
        if lasting_kept is None:
            self.lasting_abilities = {}
            self.lasting_changes += 1
        elif any(i not in lasting_kept for i in self.lasting_abilities):  # of effects since ended: dropped
            self.lasting_abilities = {i: a for i, a in self.lasting_abilities.items() if i in lasting_kept}

    def for_copy(self) -> "Caches":
        """The caches of an independent copy of the game: the counters carried on, every answer worked
        out from the state dropped, the compiled abilities shared (they depend on the catalog only)."""
        other = Caches()
        for name in CARRIED:  # by name: a compiled class (setup.py) has no __dict__ to copy
            setattr(other, name, getattr(self, name))
        other.moves_at = dict(self.moves_at)
        return other


def _moved_in_scope(key: Any, moved_at: set[int]) -> bool:
    """Whether a kept list (its ``targeting._kept_key``) looks at a location where an object moved: a
    selection of the board's battlefields, bases, or the source's location (``here``); any other one
    (no location, ``any``, ``not_here``) looks everywhere.  ``might_fixed`` (a name) looks at none."""
    if not isinstance(key, tuple):
        return False
    for part in key[1:]:
        if part[0] == "location":
            want, here = part[1], part[2]
            if want == "battlefield":
                return any(loc >= BF0 for loc in moved_at)
            if want == "base":
                return any(loc < BF0 for loc in moved_at)
            if want == "here":
                return here in moved_at
            return True
    return True


def _reads_might(key: Any) -> bool:
    """Whether a kept list (its ``targeting._kept_key``) filters by Might."""
    return isinstance(key, tuple) and any(part[0] == "might" for part in key[1:])


# What an independent copy of the game keeps of the caches (Caches.for_copy): the counters, so that
# stamps taken before the copy stay comparable, and what depends on the catalog only; every other
# field starts empty, as Caches() makes it (tests/test_mcts.py checks that the two cover every field).
CARRIED = ("version", "chars_version", "offered", "keyword_abilities", "lasting_abilities", "lasting_scripts",
           "granted_abilities",
           "printed_chars", "printed_costs", "memo_version", "statics_memo_generation", "untouched", "lasting_len",
           "lasting_last",
           "lasting_stamp", "lasting_changes", "lasting_only_len", "lasting_only_last", "lasting_only_changes",
           "quiet_bumps", "located_bumps", "might_bumps")
