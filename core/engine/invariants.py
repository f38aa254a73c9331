"""The kernel's invariants, checked after every action by the soak test and the soak benchmark.

- every card is in exactly one zone, and the zone lists agree with each object's ``zone`` (a conceding
  player's cards are listed in their ``removed`` zone: they left the game but still exist);
- no non-token card ever vanishes (card counts are conserved; only tokens cease to exist);
- no rune pool holds a negative amount;
- no battlefield holds units of three players (451.2, 464);
- no unit on the board has lethal damage while a player is asked to decide (cleanups ran), but for a
  question a cleanup asks about the deaths it is carrying out (``replacing_deaths``);
- every cache agrees with a fresh copy of the game (``cache_problems``): a game built anew from a copy
  of the state, with no cache filled, offers the same legal actions, computes the same
  characteristics for every object on the board and builds the same trigger dispatch index.  A
  cache invalidated too late or too seldom fails here instead of passing silently.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from . import cleanup, combat, effects, layers, loop, offer, payment, playing, targeting, trigger_index, triggers, verbs
from .state import NOWHERE, is_battlefield

if TYPE_CHECKING:
    from .game import Game


def zone_problems(g: Game) -> list[str]:
    """Cross-check the zone lists against each object's zone; each card in exactly one place."""
    s = g.state
    where: dict[int, list[tuple[str, Any]]] = {}

    def put(oid: int, zone: str, detail: Any) -> None:
        where.setdefault(oid, []).append((zone, detail))

    for p in s.players:
        for name in ("hand", "trash", "main_deck", "rune_deck", "champion", "banished", "removed"):
            for oid in getattr(p, name):
                put(oid, name, p.index)
        for oid in p.runes:
            put(oid, "runes", p.index)
        for oid in p.base:
            put(oid, "board", p.index)
        if p.legend != NOWHERE:
            put(p.legend, "legend", p.index)
    for bf in s.battlefields:
        put(bf.card, "bfcard", bf.loc)
        for oid in bf.here:
            put(oid, "board", bf.loc)
        for oid in bf.facedown:
            put(oid, "facedown", bf.loc)
    for item in s.chain:
        if item.kind == "card":
            put(item.obj, "chain", None)
    problems = []
    for oid, places in where.items():
        if len(places) != 1:
            problems.append(f"#{oid} {g.name(oid)} is in {len(places)} places: {places}")
            continue
        zone, detail = places[0]
        obj = s.objs[oid]
        if obj.zone != zone:
            problems.append(f"#{oid} {g.name(oid)} is listed in {zone} but its zone is {obj.zone}")
        elif zone in ("hand", "trash", "main_deck", "rune_deck", "champion", "banished", "removed") and \
                detail != obj.owner:
            problems.append(f"#{oid} {g.name(oid)} is in player {detail}'s {zone}, owner is {obj.owner}")
        elif zone == "runes" and detail != obj.controller:
            problems.append(f"#{oid} rune is in player {detail}'s runes, controller is {obj.controller}")
        elif zone in ("board", "facedown", "bfcard") and detail != obj.loc:
            problems.append(f"#{oid} {g.name(oid)} is listed at {detail} but its loc is {obj.loc}")
        elif zone == "board" and not is_battlefield(obj.loc) and obj.loc != obj.controller:
            problems.append(f"#{oid} {g.name(oid)} is in player {obj.loc}'s base, controller {obj.controller}")
    listed_zones = {"hand", "trash", "main_deck", "rune_deck", "champion", "banished", "runes", "board",
                    "legend", "bfcard", "facedown", "chain", "removed"}
    for oid, obj in s.objs.items():
        if obj.id != oid:  # loop.keep and loop.rewind walk the objects by their ids
            problems.append(f"the object under id {oid} says its id is {obj.id}")
        if obj.zone in listed_zones and oid not in where:
            problems.append(f"#{oid} {g.name(oid)} has zone {obj.zone} but is in no zone list")
        if obj.zone not in listed_zones | {"set_aside", "gone"}:
            problems.append(f"#{oid} {g.name(oid)} is in unexpected zone {obj.zone!r}")
        if obj.zone == "gone" and not obj.token:
            problems.append(f"#{oid} {g.name(oid)} (not a token) ceased to exist")
    return problems


def replacing_deaths(g: Game) -> bool:
    """Whether the pending question was asked by a cleanup that is killing units (a combat's, 468.1.a, or
    a state-based one), rewound until the answer: an optional death replacement ("you may pay ...
    instead", Altar of Blood) is decided as the death would happen, so the units it concerns - and
    the others the same cleanup kills at once - still have lethal damage while it is asked."""
    s = g.state
    d = s.decision
    if d is None or not d.context.get("replay"):
        return False
    if s.tasks:
        return bool(s.tasks[-1][0] == "combat_cleanup")
    return s.needs_cleanup


def check(g: Game, cards: set[int], counts: Counter[str], caches: bool = True) -> list[str]:
    """Every broken invariant, as readable messages (empty when all hold); with ``caches``, also every
    cache that disagrees with a fresh copy of the game (a game just loaded has none to compare)."""
    s = g.state
    problems = zone_problems(g)
    now = {oid for oid, obj in s.objs.items() if not obj.token}
    if now != cards:
        problems.append(f"non-token cards changed: lost {sorted(cards - now)}, new {sorted(now - cards)}")
    if own_codes(g, now) != counts:
        problems.append("the card codes of the game changed")
    for p in s.players:
        amounts = [p.energy, p.spell_energy, p.gear_energy, p.showdown_energy, p.unit_energy, *p.power.values(), *p.spell_power.values(),
                   *p.gear_power.values()]
        if any(a < 0 for a in amounts):
            problems.append(f"player {p.index} has a negative pool: {p.energy} {p.power} {p.spell_energy} {p.spell_power}")
    for bf in s.battlefields:
        players = {s.objs[u].controller for u in g.units_at(bf.loc)}
        if len(players) > 2:
            # 451.2, 464: no battlefield ever holds units of three players
            problems.append(f"battlefield {g.name(bf.card)} holds units of {len(players)} players: {sorted(players)}")
    decision = g.pending_decision()
    if decision is not None:
        killing = replacing_deaths(g)
        for oid in g.board_objects():
            obj = s.objs[oid]
            if g.card(oid).type == "unit" and obj.attached_to == NOWHERE and obj.damage > 0 and not killing \
                    and obj.damage >= layers.might(g, oid):
                problems.append(f"#{oid} {g.name(oid)} has lethal damage {obj.damage} >= {layers.might(g, oid)} "
                                f"while {decision.kind} is asked")
            if obj.attached_to != NOWHERE:
                host = s.objs.get(obj.attached_to)
                if host is None or host.zone != "board" or host.loc != obj.loc or g.card(host.id).type != "unit":
                    # 719.5; Core Rules, attachment: an attached card is with a unit on the board, or detached
                    problems.append(f"#{oid} {g.name(oid)} is attached to #{obj.attached_to}, which is not a unit "
                                    f"with it on the board")
    return problems + cache_problems(g) if caches else problems


def cache_problems(g: Game) -> list[str]:
    """Where the game's caches disagree with a fresh copy of it: the legal actions offered (the offered
    list, per-version memos and plans, play locations), the characteristics of each object on the
    board (``layers.chars``, and its shortcut for untouched objects against the layers themselves) and
    the dispatch index."""
    if g.over:
        return []
    fresh = g.fresh_copy()
    problems = []
    if g.state.decision is not None:
        mine, theirs = offer.offered(g), offer.offered(fresh)
        if mine != theirs:
            problems.append(f"cached legal actions differ from a fresh copy's: {len(mine)} vs {len(theirs)}, "
                            f"first difference {next((a, b) for a, b in zip(mine + [None], theirs + [None]) if a != b)}")
    for oid in g.board_objects():
        cached, computed = layers.chars(g, oid), layers.chars(fresh, oid)
        if cached != computed:
            problems.append(f"#{oid} {g.name(oid)}: cached characteristics {cached} differ from a fresh copy's {computed}")
        missed = [hook for hook in cached.hooks if not layers.hook_in_play(g, hook)]
        if missed:  # hook_values would answer [] for them without reading the characteristics
            problems.append(f"#{oid} {g.name(oid)} has the hooks {missed}, yet hook_in_play says none could be")
        shortcut = layers.shortcut_problem(g, oid)
        if shortcut:
            problems.append(f"#{oid} {g.name(oid)}: nothing should change its characteristics, yet {shortcut}")
    if {e: set(t) for e, t in g.index.listeners.items() if t} != {e: set(t) for e, t in fresh.index.listeners.items() if t} \
            or set(g.index.static_sources) != set(fresh.index.static_sources) or set(g.index.grant_sources) != set(fresh.index.grant_sources):
        problems.append("the trigger dispatch index differs from one built anew")
    if layers.attachments(g) != layers.attachments(fresh):
        problems.append(f"the attachments found from the index ({layers.attachments(g)}) differ from a fresh copy's "
                        f"({layers.attachments(fresh)})")
    for name in ("with_statics", "activators"):
        kept = {oid for oid in getattr(g.index, name) if g.state.objs[oid].zone == "board"}
        anew = set(getattr(fresh.index, name))
        if kept != anew:
            problems.append(f"the index's {name} ({sorted(kept)}) differ from one built anew ({sorted(anew)})")
    for etype, split in list(g.index.listening_split.items()):
        if split != trigger_index.split_listeners(fresh, etype, fresh.index.listeners.get(etype, {})):
            problems.append(f"the kept split of the {etype} listeners ({split}) differs from one made anew")
    for name, (cached, computed) in _statics_indexes(g, fresh).items():
        if cached != computed:
            problems.append(f"the statics index {name} ({cached}) differs from a fresh copy's ({computed})")
    problems += _kept_problems(g, fresh)
    stale = combat.stale_designations(g)
    if stale is not None:
        problems.append(f"a refresh of the combat designations would be skipped, yet {stale}")
    stale = cleanup.stale_clear(g)
    if stale is not None:
        problems.append(stale)
    for memo, name, work_out in ((g.statics_memo(), "hook_statics", layers.hook_statics),
                                 (g.lasting_only_memo(), "hook_lasting", layers.hook_lasting)):
        for key, kept in list(memo.items()):
            if isinstance(key, tuple) and key[0] == name and kept != work_out(fresh, key[1]):
                problems.append(f"the kept answer {key} ({kept}) differs from a fresh copy's")
    for name, (cached, computed) in _lasting_answers(g, fresh).items():
        if cached != computed:
            problems.append(f"the lasting effects' answer {name} ({cached}) differs from a fresh copy's ({computed})")
    live = loop.kept_copies_in_play(g)
    if live:  # a guarded step's kept copy made the game's own: the next keep could hand it out changed
        problems.append(f"kept copies of objects {live} are objects of the game (Caches.kept_objs)")
    return problems


def _kept_problems(g: Game, fresh: Game) -> list[str]:
    """Where a kept candidate list (``Caches.kept``, still valid) differs from the candidates a fresh copy
    finds for the same selection, player and source: a missed invalidation may list the same actions
    (the list is capped), so the lists are compared themselves, as far as each was worked out."""
    problems = []
    for key, entry in g.caches.kept_candidates().items():
        if not isinstance(entry, targeting.KeptCandidates):
            if entry != targeting.might_fixed(fresh):
                problems.append(f"the kept answer {key} ({entry}) differs from a fresh copy's")
            continue
        computed = effects.EffectContext(fresh, entry.you, entry.source, event=entry.event).candidates(entry.selector)
        expected = computed if entry.search is None else computed[:len(entry.found)]
        if entry.found != expected:
            problems.append(f"the kept candidates {key} ({entry.found}) differ from a fresh copy's ({expected})")
    return problems


def _lasting_answers(g: Game, fresh: Game) -> dict[str, tuple[Any, Any]]:
    """What ``Game.lasting_memo`` and ``Game.lasting_only_memo`` keep (valid while the lasting effects, and
    for the first the statics, are unchanged),
    as the game has it and as a fresh copy works it out: a missed invalidation may list the same
    actions, so the answers are compared themselves."""
    keys = [key for key in [*g.lasting_memo(), *g.lasting_only_memo()] if isinstance(key, tuple)]
    restrictions = sorted(key[1] for key in keys if key[0] == "lasting_restrictions")
    with_kinds = sorted(key[1] for key in keys if key[0] == "lasting_with")
    by_object = "lasting_by_object" in g.lasting_only_memo()

    def views(game: Game) -> dict[str, Any]:
        found: dict[str, Any] = {
            "active_lasting": [lasting.id for lasting in game.active_lasting()],
            "off_board_touch": layers.off_board_touch(game),
            "off_board_reach": layers.off_board_reach(game),
            "lasting_board_reach": layers.lasting_board_reach(game),
            "board_reach": layers.board_reach(game),
            "cost_changes": payment.cost_changes(game),
            "cost_keywords_given": payment.cost_keywords_given(game),
            "lasting_plays_from": playing.lasting_plays_from(game),
            "granting_lasting": [lasting.id for lasting in layers.granting_lasting(game)],
            "forbidding_players": playing.forbidding_players(game),
            "might_fixed": targeting.might_fixed(game),
            "optional_replacements": loop.optional_replacements(game),
        }
        found["lasting_events"] = sorted(triggers.lasting_events(game))
        for kind in with_kinds:
            found[f"lasting_with {kind}"] = [lasting.id for lasting in layers.lasting_with(game, kind)]
        if by_object:
            kept = game.lasting_only_memo().get("lasting_by_object") or layers.lasting_by_object(game.active_lasting())
            found["lasting_by_object"] = ([lasting.id for lasting in kept[0]], kept[1], kept[2])
        for name in restrictions:
            found[f"lasting_restrictions {name}"] = [(mod, source, list(affects)) for mod, source, affects
                                                     in layers.lasting_restrictions(game, name)]
        return found
    mine, theirs = views(g), views(fresh)
    return {name: (mine[name], theirs[name]) for name in mine}


def _statics_indexes(g: Game, fresh: Game) -> dict[str, tuple[Any, Any]]:
    """The indexes kept while the static abilities are unchanged (``Game.statics_memo``), as the game
    has them and as a fresh copy builds them; listing legal actions reads them, but a wrong one can
    still list the same actions, so they are compared themselves - in order, since the statics are
    ordered by timestamp (``TriggerIndex.statics_in_order``), not by the order objects were indexed."""
    def views(game: Game) -> dict[str, Any]:
        by_kind = layers.statics_by_kind(game)
        return {"statics_by_kind": {kind: [(src, a.index, repr(a.body)) for src, a in found]
                                    for kind, found in by_kind.items()},
                "object_statics": [(src, a.index, board_only, kinds)
                                   for src, a, _, board_only, kinds in layers.object_statics(game)],
                "statics_beyond_board": layers.statics_beyond_board(game),
                "statics_change_costs": payment.statics_change_costs(game)}
    mine, theirs = views(g), views(fresh)
    return {name: (mine[name], theirs[name]) for name in mine}


def baseline(g: Game) -> tuple[set[int], Counter[str]]:
    """The non-token cards of a game and their codes, to check conservation against."""
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    return cards, own_codes(g, cards)


def own_codes(g: Game, cards: set[int]) -> Counter[str]:
    """The cards' own codes: an object that is a copy of another card for now (a lasting effect of kind
    ``copy``, Shady Spectacles) counts as the card it is (``verbs.become_copy`` keeps the original)."""
    original: dict[int, str] = {}
    for lasting in g.state.lasting:  # oldest first: a copy of a copy keeps the first copy's original
        if lasting.kind == "copy":
            for oid in lasting.affects or ():
                original.setdefault(oid, str(lasting.body["original"]))
    objs = g.state.objs
    return Counter(original.get(o, objs[o].code) for o in cards)


class InvariantError(AssertionError):
    """A soak found the kernel breaking one of its invariants (or a game that never ends)."""


def play_checked(g: Game, agents: list[Any], label: str, max_actions: int, cache_every: int = 1) -> int:
    """Let agents play the game to its end, checking every invariant after each action (the caches
    against a fresh copy after every ``cache_every``-th: that check costs about as much as the
    action); returns the number of actions.  Raises InvariantError naming the game (``label``), the
    action and the problem."""
    cards, counts = baseline(g)
    problems = check(g, cards, counts)
    if problems:
        raise InvariantError(f"{label} after setup: {problems[:5]}")
    applied = 0
    while not g.over:
        if applied >= max_actions:
            raise InvariantError(f"{label}: no end after {max_actions} actions")
        decision = g.pending_decision()
        if decision is None:
            raise InvariantError(f"{label}: the game waits for nothing but is not over")
        legal = g.legal_actions()
        if not legal:
            raise InvariantError(f"{label}: no legal action for {decision.kind} ({decision.prompt})")
        action = agents[decision.player].choose(g, legal)
        g.apply(action)
        applied += 1
        problems = check(g, cards, counts, caches=applied % cache_every == 0)
        if problems:
            raise InvariantError(f"{label} action {applied} {action}: {problems[:5]}")
    return applied
