"""The per-state caches (core/engine/caches.py) and the order of static abilities: a change the caches
don't hear of fails the soak's check, the docstring names every cache key the engine uses, and the
statics are applied oldest first whatever order the objects were indexed in (issue 13)."""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

from riftscript.core import Game, load_catalog
from riftscript.core.engine import caches, layers, payment
from riftscript.core.engine.builder import Builder
from riftscript.core.engine.invariants import check

ENGINE = Path(__file__).resolve().parents[1] / "core" / "engine"


@lru_cache(maxsize=1)
def cat() -> Any:
    return load_catalog()


def _baseline(g: Game) -> tuple[set[int], Counter[str]]:
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    return cards, Counter(g.state.objs[o].code for o in cards)


def test_a_change_without_a_new_version_fails_the_check() -> None:
    """Energy put in a pool behind the game's back: the legal actions and payment plans remembered for
    this version are stale, and invariants.check (run by the soaks) says so until the game is touched."""
    b = Builder(cat())
    b.add(0, "OGN-003", zone="hand")  # a unit to play for 2 energy
    g, _ = b.build()
    cards, counts = _baseline(g)
    assert check(g, cards, counts) == []
    before = g.legal_actions()
    assert not any(a["type"] == "play" for a in before)  # no energy, nothing to play
    g.state.players[0].energy = 5  # a wrong invalidation: no event, no touch()
    problems = check(g, cards, counts)
    assert any("cached legal actions differ" in m for m in problems)
    g.touch()
    assert check(g, cards, counts) == []
    assert any(a["type"] == "play" for a in g.legal_actions())


def test_a_lasting_effect_changed_in_place_fails_the_check_until_announced() -> None:
    """The answers kept while the lasting effects are unchanged (``Game.lasting_memo``) are compared with
    a fresh copy's: an entry changed behind the game's back (its ``affects`` emptied without
    ``lasting_changed``) leaves a stale answer that invariants.check reports, the announced change doesn't."""
    b = Builder(cat())
    unit = b.add(0, "OGN-003")
    b.modify_might(unit, 2)
    g, ids = b.build()
    cards, counts = _baseline(g)
    assert check(g, cards, counts) == []
    assert layers.might(g, ids[unit]) == g.card(ids[unit]).might + 2
    g.state.lasting[0].affects = []  # a wrong invalidation: no lasting_changed()
    g.touch()  # a new state version does not make the lasting effects' answers stale
    assert any("lasting effects' answer lasting_board_reach" in m for m in check(g, cards, counts))
    g.lasting_changed()
    assert check(g, cards, counts) == []


def test_a_static_for_units_here_leaves_units_elsewhere_untouched_and_a_wrong_shortcut_fails_the_check(
        monkeypatch: Any) -> None:
    """A battlefield's static for the units there (Trifarian War Camp: +1 Might) changes those units only:
    a unit at base keeps its printed characteristics without working out the layers, the one there gets
    +1 Might; and a shortcut taken where a static applies is caught by invariants.check, which compares
    it with the characteristics worked out through every layer."""
    b = Builder(cat())
    camp = b.battlefield("OGN-294", controller=0)
    there = b.add(0, "OGN-003", at=camp)
    home = b.add(0, "OGN-003")
    g, ids = b.build()
    printed = g.card(ids[home]).might
    assert layers.might(g, ids[there]) == printed + 1 and layers.might(g, ids[home]) == printed
    assert layers.shortcut_problem(g, ids[home]) is None  # taken from the card, and right
    cards, counts = _baseline(g)
    assert check(g, cards, counts) == []
    monkeypatch.setattr(layers, "_untouched", lambda g, oid, code: True)  # a wrong shortcut
    g.touch()
    assert any("nothing should change its characteristics" in m for m in check(g, cards, counts))


def test_what_may_change_board_objects_is_kept_across_versions_until_a_card_is_attached() -> None:
    """``layers.board_reach`` (what may change a board object's characteristics, asked for every board object
    read) depends on the statics, the lasting effects and the places of the statics for units at their
    location, while no card is attached: then it is kept with the statics and lasting effects, the same
    answer after a new state version; a wrong kept answer fails invariants.check.  With a card attached (Long
    Sword) its unit is named, and the answer is worked out again for each version."""
    b = Builder(cat())
    camp = b.battlefield("OGN-294", controller=0)  # +1 Might for the units there
    b.add(0, "OGN-003", at=camp)
    g, ids = b.build()
    first = layers.board_reach(g)
    assert first == (False, frozenset(), frozenset({(camp, "unit")}), frozenset())  # the units at the camp
    g.touch()
    assert layers.board_reach(g) is first
    cards, counts = _baseline(g)
    assert check(g, cards, counts) == []
    wrong = (False, frozenset(), frozenset(), frozenset())
    for key in [key for key in g.lasting_memo() if isinstance(key, tuple) and key[0] == "board_reach"]:
        g.lasting_memo()[key] = wrong
    g.touch()
    assert layers.board_reach(g) is wrong
    assert any("lasting effects' answer board_reach" in m for m in check(g, cards, counts))

    b = Builder(cat())
    unit = b.add(0, "OGN-003")
    sword = b.add(0, "SFD-022")
    b.attach(sword, unit)
    g, ids = b.build()
    held = layers.board_reach(g)
    assert ids[unit] in held[3]
    assert layers.might(g, ids[unit]) == g.card(ids[unit]).might + 2
    g.touch()
    again = layers.board_reach(g)
    assert again == held and again is not held
    cards, counts = _baseline(g)
    assert check(g, cards, counts) == []


def test_a_printed_cost_nothing_can_change_is_one_cost_per_card_for_the_games_life() -> None:
    """``payment.shared_play_cost`` answers a card's printed cost, while nothing can change it, with one Cost per
    card code kept for the game's life (``Caches.printed_costs``): the same object in another state version,
    never handed out to be changed (``play_cost`` copies it).  With Eager Apprentice on the board (a static
    that changes the cost of spells) the cost is worked out for the state instead."""
    b = Builder(cat())
    unit = b.hand(0, ["OGN-003"])[0]
    g, ids = b.build()
    code = g.state.objs[ids[unit]].code
    shared = payment.shared_play_cost(g, 0, ids[unit], [])
    assert shared is g.caches.printed_costs[code] and shared.energy == g.card(ids[unit]).energy
    g.touch()
    assert payment.shared_play_cost(g, 0, ids[unit], []) is shared
    copy = payment.play_cost(g, 0, ids[unit], [])
    copy.energy += 5
    copy.power.append(frozenset({"fury"}))
    assert payment.shared_play_cost(g, 0, ids[unit], []) is shared and shared.energy == g.card(ids[unit]).energy
    assert len(shared.power) == len(g.card(ids[unit]).facts.power)

    b = Builder(cat())
    b.add(0, "OGN-084")  # Eager Apprentice
    unit = b.hand(0, ["OGN-003"])[0]
    g, ids = b.build()
    assert payment.cost_changes(g)
    assert payment.shared_play_cost(g, 0, ids[unit], []).energy == g.card(ids[unit]).energy
    assert not g.caches.printed_costs


def test_a_unit_whose_own_statics_change_nothing_of_it_now_keeps_its_printed_characteristics() -> None:
    """A unit's own static that changes only costs (Rhasa the Sunderer) or other objects (Heimerdinger's
    borrowed abilities) leaves its characteristics as printed, and one that applies only while it attacks
    (Jinx, Demolitionist: +2 Might) or defends (Jeweled Colossus: +1) too until it does: taken from the card
    (CardFacts.chars_while), and right (shortcut_problem compares with every layer).  An unconditional
    hook of its own (Vi, Destructive) always takes the layers."""
    b = Builder(cat())
    codes = {"rhasa": "OGN-195", "heimer": "OGN-111", "jinx": "OGN-030", "colossus": "OGN-086", "vi": "OGN-036"}
    placed = {name: b.add(0, code) for name, code in codes.items()}
    g, ids = b.build()
    oid = {name: ids[i] for name, i in placed.items()}
    for name in ("rhasa", "heimer", "jinx", "colossus"):
        assert layers._untouched(g, oid[name], g.state.objs[oid[name]].code), name
        assert layers.might(g, oid[name]) == g.card(oid[name]).might
        assert layers.shortcut_problem(g, oid[name]) is None
    assert not layers._untouched(g, oid["vi"], g.state.objs[oid["vi"]].code)
    g.state.objs[oid["jinx"]].designation = "attacker"
    g.state.objs[oid["colossus"]].designation = "attacker"  # its +1 is while it defends
    g.touch()
    assert not layers._untouched(g, oid["jinx"], g.state.objs[oid["jinx"]].code)
    assert layers.might(g, oid["jinx"]) == g.card(oid["jinx"]).might + 2
    assert layers._untouched(g, oid["colossus"], g.state.objs[oid["colossus"]].code)
    assert layers.might(g, oid["colossus"]) == g.card(oid["colossus"]).might
    g.state.objs[oid["colossus"]].designation = "defender"
    g.touch()
    assert layers.might(g, oid["colossus"]) == g.card(oid["colossus"]).might + 1
    assert all(layers.shortcut_problem(g, o) is None for o in oid.values())


def test_a_granted_keyword_brings_only_the_hooks_its_abilities_give() -> None:
    """hook_in_play: a lasting grant of [Assault] (Might while attacking) brings no hook, so a hook's value is
    read without working out anyone's characteristics; [Ganking] brings the standard-move hook, [Deflect] the
    targeting tax, each to the unit granted it and only that hook."""
    b = Builder(cat())
    assault = b.add(0, "OGN-003")
    b.grant(assault, "Assault", 2)
    g, ids = b.build()
    for hook in ("standard_move", "targeting_tax", "combat_damage", "prevent_damage"):
        assert not layers.hook_in_play(g, hook), hook
    assert layers.might(g, ids[assault]) == g.card(ids[assault]).might  # Assault adds Might only in an attack
    for keyword, hook, other in (("Ganking", "standard_move", "targeting_tax"), ("Deflect", "targeting_tax", "standard_move")):
        b = Builder(cat())
        unit = b.add(0, "OGN-003")
        b.grant(unit, keyword)
        g, ids = b.build()
        assert layers.hook_in_play(g, hook) and not layers.hook_in_play(g, other), keyword
        assert layers.hook_values(g, ids[unit], hook) != [], keyword
        cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
        counts = Counter(g.state.objs[o].code for o in cards)
        assert check(g, cards, counts) == []


def test_a_static_granting_a_keyword_brings_only_the_hooks_its_abilities_give() -> None:
    """hook_statics: a static ability granting [Assault] (Rumble, Hotheaded: to your Mechs) makes no hook possible,
    so hook values are read without working out characteristics; one granting [Deflect] (Petricite Monument: to
    friendly units) brings the targeting tax and no other hook."""
    b = Builder(cat())
    rumble = b.add(0, "SFD-026")
    g, ids = b.build()
    assert "keyword" in layers.statics_by_kind(g)
    for hook in ("standard_move", "targeting_tax", "combat_damage"):
        assert not layers.hook_in_play(g, hook), hook
    assert layers.hook_values(g, ids[rumble], "standard_move") == []
    b = Builder(cat())
    b.add(0, "SFD-104")
    unit = b.add(0, "OGN-003")
    g, ids = b.build()
    assert layers.hook_in_play(g, "targeting_tax") and not layers.hook_in_play(g, "standard_move")
    assert layers.hook_values(g, ids[unit], "targeting_tax") != []
    cards = {oid for oid, obj in g.state.objs.items() if not obj.token}
    counts = Counter(g.state.objs[o].code for o in cards)
    assert check(g, cards, counts) == []


def test_the_modifiers_that_change_characteristics_are_those_the_layers_read() -> None:
    """CardFacts.chars_while leaves a static out when none of its modifiers is one layers._compute reads: the
    two lists must agree (a new kind of modifier read there and not listed would be skipped by the shortcut)."""
    import inspect

    from riftscript.core.script.cards import CHARS_MODIFIERS

    source = inspect.getsource(layers._compute)
    read = set(re.findall(r'kind == "(\w+)"', source)) | set(re.findall(r'm\["type"\] == "(\w+)"', source))
    assert read and read <= CHARS_MODIFIERS
    assert CHARS_MODIFIERS - read == set()


def test_the_caches_docstring_names_every_key_the_engine_remembers() -> None:
    """Every memo key the engine writes is listed (with what invalidates it) in ``Caches``'s docstring."""
    doc = caches.Caches.__doc__ or ""
    keys: set[str] = set()
    for path in ENGINE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'memo\[\(?"(\w+)"', text)) | set(re.findall(r'memo\.get\("(\w+)"', text))
        keys |= set(re.findall(r'key = \("(\w+)"', text))
    assert keys, "no memo keys found: the pattern above is out of date"
    assert sorted(k for k in keys if k not in doc) == []


def test_statics_are_ordered_by_timestamp_not_by_indexing() -> None:
    """Two Might floors from statics ("to a minimum of N") depend on their order; a loaded game indexes
    objects by id, a live one as they came: both apply them oldest first."""
    b = Builder(cat())
    b.add(0, "OGN-011")  # Magma Wurm: a static affecting other objects
    b.add(1, "OGN-011")
    g, _ = b.build()
    order = [key for key in g.index.statics_in_order(g)]
    assert order == sorted(order, key=lambda k: (g.state.objs[k[0]].timestamp, k[0], k[1]))
    # index the same objects the other way round: the order of the statics does not change
    reordered = dict(reversed(list(g.index.static_sources.items())))
    g.index.static_sources = reordered
    g.index.order_changed(order[0][0])
    assert g.index.statics_in_order(g) == order
    assert [src for src, _ in layers.statics_by_kind(g)["enter_ready"]] == [src for src, _ in order]
    loaded = Game.from_json(cat(), g.to_json(), replay=False)
    assert loaded.index.statics_in_order(loaded) == order


def test_a_new_timestamp_is_a_new_statics_generation_only_for_a_source_of_statics() -> None:
    """The statics are ordered by their sources' timestamps (``statics_in_order``): a unit with no static
    ability entering the board or changing control (``order_changed``) leaves what was worked out from
    them (``Game.statics_memo``) valid; Magma Wurm, a source, makes a new generation."""
    b = Builder(cat())
    wurm = b.add(0, "OGN-011")
    plain = b.add(0, "OGN-001")  # Blazing Scorcher: no static ability
    g, ids = b.build()
    generation = g.index.statics_generation
    g.index.order_changed(ids[plain])
    assert g.index.statics_generation == generation
    g.index.order_changed(ids[wurm])
    assert g.index.statics_generation == generation + 1


def test_per_card_facts_are_worked_out_by_the_compiler() -> None:
    """What was remembered per card in module-level dicts keyed by id() is on the compiled card now."""
    from riftscript.core.engine import playing, targeting

    catalog = cat()
    game = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=1)
    spells = [c for c in catalog.cards.values() if c.type == "spell" and c.facts.target_slots]
    keyworded = [c for c in catalog.cards.values() if c.keywords]
    assert spells and keyworded
    assert targeting.target_slots(spells[0]) is spells[0].facts.target_slots
    assert layers.printed_keywords(game, keyworded[0]) is keyworded[0].facts.printed_keywords
    assert set(keyworded[0].facts.printed_keywords) == {name for name, _ in keyworded[0].keywords}
    some = next(iter(game.state.objs))
    own = game.card(some)
    assert playing.optional_costs(game, some) == [a.body["name"] for a in own.facts.additional if a.body.get("optional")]
    plain = next(c for c in catalog.cards.values() if c.type == "unit" and not c.facts.statics)
    assert plain.facts.printed_hooks == {}
    deck = next(oid for oid, obj in game.state.objs.items() if obj.zone == "main_deck" and game.card(oid).type == "unit"
                and game.card(oid).facts.printed_hooks is not None)
    assert layers.chars(game, deck).might == game.card(deck).might
    assert game.caches.printed_chars[game.card(deck).code] is layers.chars(game, deck)  # once per game
    for card in catalog.cards.values():
        for ability in card.abilities:
            assert ability.effect_targets is not None
            assert targeting.ability_targets(ability) is ability.effect_targets
            assert ability.slot_effects is not None


# Where id() may key a map: only maps that live for one load or one compile, while the objects they
# name are kept alive by it (the docstring or comment at each says so).  A per-card or per-state
# answer keyed by id() would outlive its object, and a new object allocated at the same address
# would get the old one's answer; per-card facts are worked out by the compiler instead.
ID_KEYED_ALLOWED = {
    ("core/engine/jsonshape.py", "compile_schema.build"),  # one schema compile
    ("core/script/schema_fastpath.py", "_Compiler.compile"),  # one schema compile
    ("core/script/yamlio.py", "_plain"),  # one document's node tree
    ("core/script/yamlio.py", "_self_reference"),  # an identity set for one walk down a loaded document
    ("core/script/yamlio.py", "Positions._step"),  # a key index per mapping node of one tree, kept by Positions
    ("core/script/catalog.py", "_load_sets"),  # _Run.set_of: one load, documents kept by the run
    ("core/script/catalog.py", "_file_problems"),
    ("core/script/catalog.py", "_drop_broken_sets"),
    ("core/engine/state.py", "copy_value"),  # a memo for one copy of one state, its originals alive meanwhile
}


def test_no_cache_is_keyed_by_id() -> None:
    """No module keeps answers keyed by id() beyond a load or a compile (issue 13: the per-card
    caches in targeting and the greedy agent were module-level dicts keyed by id())."""
    import ast

    root = ENGINE.parents[1]
    found: set[tuple[str, str]] = set()
    for top in ("core", "plugins", "tools", "sets"):
        for path in sorted((root / top).rglob("*.py")):
            where = path.relative_to(root).as_posix()

            def visit(node: ast.AST, names: tuple[str, ...]) -> None:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        visit(child, names + (child.name,))
                        continue
                    if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "id":
                        found.add((where, ".".join(names) or "<module>"))
                    visit(child, names)
            visit(ast.parse(path.read_text(encoding="utf-8")), ())
    assert ("core/script/catalog.py", "_load_sets") in found, "the scan finds nothing: it is out of date"
    assert sorted(found - ID_KEYED_ALLOWED) == []


def test_target_facts_are_worked_out_for_slots_made_at_run_time() -> None:
    """A slot list that never went through the compiler (a plain list, an ability made at run time)
    has its facts worked out when asked, whatever object once lived at its address: the compiled
    card's target slots and a copy of them give the same choices."""
    from riftscript.core.engine import targeting
    from riftscript.core.script.cards import Ability, TargetSlots

    catalog = cat()
    mover = next(c for _, c in sorted(catalog.cards.items()) if c.facts.target_slots.moves)
    compiled = mover.facts.target_slots
    copied = [dict(sel) for sel in compiled]
    assert targeting.move_pairs(copied) == compiled.moves != ()
    made = Ability(kind="activated", index=0, body={"kind": "activated", "effect": {"type": "sequence", "steps": copied}})
    assert isinstance(targeting.ability_targets(made), TargetSlots)
    assert list(targeting.ability_targets(made)) == copied
    b = Builder(catalog)
    spell = b.add(0, mover.code, zone="hand")
    field = b.battlefield(next(c.code for _, c in sorted(catalog.cards.items()) if c.type == "battlefield"))
    b.add(1, "OGN-003")  # units of the opponent's to move
    b.add(1, "OGN-003", at=field)
    g, ids = b.build()
    options = targeting.target_options(g, 0, ids[spell], compiled)
    assert options and targeting.target_options(g, 0, ids[spell], copied) == options


def _gust_position() -> tuple[Game, dict[int, int], int, list[int]]:
    """Three 3-Might enemy units (Crackshot Corsair, no static) at a battlefield, and Gust ("return a unit
    at a battlefield with 3 Might or less") in the turn player's hand with the runes to play it."""
    b = Builder(cat(), seed=1)
    bf = b.battlefield("OGN-276", controller=1, owner=1)
    enemies = [b.add(1, "OGN-130", at=bf) for _ in range(3)]
    b.hand(0, ["OGN-169"])
    b.runes(0, ["OGN-007", "OGN-166"])
    b.at_turn(0)
    g, ids = b.build()
    return g, ids, bf, enemies


def test_kept_target_candidates_outlive_quiet_events_only_and_a_stale_list_fails_the_check() -> None:
    """A target selection's candidates are kept between listings (``Caches.kept``) while only quiet events
    (a pass, an object chosen, a trigger put on the chain) bump the version: a unit grown past Gust's
    "3 Might or less" behind the game's back, followed by such an event alone, leaves a stale list that
    invariants.check reports; any other change (here ``touch``) drops it, and the unit is no longer offered."""
    g, ids, bf, enemies = _gust_position()
    cards, counts = _baseline(g)

    def gust_targets() -> list[int]:
        return [a["targets"][0][0] for a in g.legal_actions() if a["type"] == "play" and a["targets"]]
    assert sorted(gust_targets()) == sorted(ids[e] for e in enemies)
    assert any(key != "might_fixed" for key in g.caches.kept_candidates())
    g.emit("chosen", obj=ids[enemies[1]], player=0, by="spell")  # a quiet event: the list is kept
    assert any(key != "might_fixed" for key in g.caches.kept_candidates())
    assert check(g, cards, counts) == []
    g.obj(ids[enemies[0]]).buffs = 1  # 4 Might: a wrong invalidation, no event but a quiet one
    g.emit("chosen", obj=ids[enemies[1]], player=0, by="spell")
    assert any("kept candidates" in m for m in check(g, cards, counts))
    g.touch()
    assert check(g, cards, counts) == []
    assert sorted(gust_targets()) == sorted(ids[e] for e in enemies[1:])


def test_kept_target_candidates_outlive_a_move_elsewhere_and_a_might_change_drops_only_lists_reading_might() -> None:
    """What drops a kept candidate list is what it reads: a unit without statics entering a base leaves
    Gust's list (units at a battlefield) kept, and a constant Might change on a named unit drops the lists
    that filter by Might (Gust's) but not the others; invariants.check finds each kept list right, and the
    unit grown past "3 Might or less" is no longer offered."""
    from riftscript.core.engine import verbs
    from riftscript.core.engine.state import Lasting

    g, ids, bf, enemies = _gust_position()
    cards, counts = _baseline(g)

    def gust_targets() -> list[int]:
        return [a["targets"][0][0] for a in g.legal_actions() if a["type"] == "play" and a["targets"]]
    assert sorted(gust_targets()) == sorted(ids[e] for e in enemies)
    gust = [key for key in g.caches.kept_candidates() if key != "might_fixed"]
    everywhere = ("unit",)
    g.caches.kept_candidates()[everywhere] = "a list that looks at every location"
    token = g.new_obj("OGN-130", 0, "limbo")  # no static ability
    verbs.enter_board(g, token.id, 0, 0)  # a unit entering player 0's base
    kept = g.caches.kept_candidates()
    assert all(key in kept for key in gust) and everywhere not in kept
    assert check(g, cards | {token.id}, counts + Counter(["OGN-130"])) == []
    kept[("gear",)] = "a list that doesn't read Might"
    g.state.lasting.append(Lasting(id=g.tick(), kind="static", source=ids[enemies[0]], source_code="OGN-130",
                                   controller=1, body={"modifiers": [{"type": "might", "amount": 1}]},
                                   duration="this_turn", affects=[ids[enemies[0]]]))
    g.emit("lasting", kind="static", affects=[ids[enemies[0]]], duration="this_turn",
           effect=g.state.lasting[-1].body)
    kept = g.caches.kept_candidates()
    assert ("gear",) in kept and not any(key in kept for key in gust)
    del kept[("gear",)]
    assert sorted(gust_targets()) == sorted(ids[e] for e in enemies[1:])
    assert check(g, cards | {token.id}, counts + Counter(["OGN-130"])) == []


def test_a_combat_refresh_is_skipped_while_nothing_moved_there_and_a_stale_skip_fails_the_check() -> None:
    """The cleanup's refresh of the combat designations is skipped while nothing moved to or from the
    combat's battlefield since one that changed nothing (``Caches.designations``): a unit entering there
    is designated at once; a designation lost behind the game's back, followed by a quiet event alone,
    is what invariants.check reports, and any other change (here ``touch``) makes the refresh run again."""
    from riftscript.core.engine import combat, verbs

    b = Builder(cat(), seed=1)
    b.battlefield("OGN-276", controller=0)
    b.battlefield("OGN-276", controller=1, owner=1)
    mine = b.add(0, "OGN-130")  # Crackshot Corsair, no static
    theirs = b.add(1, "OGN-130", at=11)
    b.at_turn(0)
    g, ids = b.build()
    g.apply({"type": "move", "units": [ids[mine]], "to": 11})
    cards, counts = _baseline(g)
    assert g.state.showdown is not None and g.state.showdown.combat and g.caches.designations is not None
    token = g.new_obj("OGN-130", 0, "limbo")
    verbs.enter_board(g, token.id, 0, 11)  # a located move to the combat's battlefield
    combat.refresh_designations(g)
    assert token.designation == "attacker" and token.id in g.state.showdown.attacked
    combat.refresh_designations(g)  # changes nothing now: kept
    cards.add(token.id)
    counts["OGN-130"] += 1
    assert check(g, cards, counts) == []
    g.obj(ids[theirs]).designation = ""  # a wrong invalidation: no event but a quiet one
    g.emit("chosen", obj=ids[theirs], player=0, by="spell")
    assert any("combat designations" in m for m in check(g, cards, counts))
    g.touch()
    combat.refresh_designations(g)
    assert g.obj(ids[theirs]).designation == "defender"


def test_a_cleanup_skips_a_base_found_clear_until_something_moves_there_and_a_stale_skip_fails_the_check() -> None:
    """A base where a cleanup found no other player's object isn't walked again while nothing moved there
    (``Caches.cleanup_clear``): a unit whose control changed behind the game's back, followed by a quiet
    event alone, is what invariants.check reports; any other change (here ``touch``) makes the cleanup
    look again, and the unit goes to its controller's base (recalled)."""
    from riftscript.core.engine import cleanup

    b = Builder(cat(), seed=1)
    unit = b.add(0, "OGN-130")
    b.at_turn(0)
    g, ids = b.build()
    cards, counts = _baseline(g)
    cleanup.cleanup(g)
    assert 0 in g.caches.cleanup_clear and check(g, cards, counts) == []
    g.obj(ids[unit]).controller = 1  # a wrong invalidation: no event but a quiet one
    g.emit("chosen", obj=ids[unit], player=0, by="spell")
    assert any("would skip location 0" in m for m in check(g, cards, counts))
    g.touch()
    cleanup.cleanup(g)
    assert ids[unit] in g.state.players[1].base


def test_the_event_types_lasting_effects_listen_to_are_compared_and_a_stale_set_fails_the_check() -> None:
    """``Game.emit`` dispatches an event to the lasting effects only when its type is in the kept set
    ``lasting_events``: a set left stale (here, one naming an event no lasting effect listens to) fails
    invariants.check; the set worked out afresh passes."""
    b = Builder(cat())
    unit = b.add(0, "OGN-003")
    b.modify_might(unit, 2)
    g, _ = b.build()
    cards, counts = _baseline(g)
    assert check(g, cards, counts) == []
    assert g.lasting_only_memo().get("lasting_events") == frozenset()  # a Might change listens to nothing
    g.lasting_only_memo()["lasting_events"] = frozenset({"die"})  # a wrong invalidation
    assert any("lasting_events" in m for m in check(g, cards, counts))
    g.lasting_changed()
    assert check(g, cards, counts) == []


def test_a_rewind_keeps_an_index_nothing_edited_and_a_wrongly_kept_index_fails_the_check() -> None:
    """A guarded step that asks before anything moved is rewound keeping the dispatch index (and so the
    statics' answers: the generation stays); kept after a step that did edit it (a unit with a trigger
    left the board), the index would be stale, and invariants.check says so."""
    from riftscript.core.engine import loop

    b = Builder(cat())
    unit = b.add(0, "OGN-003")  # a unit with a triggered ability: indexed while on the board
    g, ids = b.build()
    cards, counts = _baseline(g)
    generation, decision = g.index.statics_generation, g.state.decision
    g.state.decision = None
    loop.guarded(g, lambda: g.ask(0, "which?", [("one", 1), ("two", 2)]))
    assert g.state.decision is not None and g.state.decision.prompt == "which?"
    assert g.index.statics_generation == generation
    g.state.decision = decision
    assert check(g, cards, counts) == []
    snap, index = g.snapshot(), g.index.copy()
    g.place(ids[unit], "trash")  # the step edits the index: put back, the copy is right
    loop.restore(g, snap, index, in_place=True, index_kept=False)
    assert check(g, cards, counts) == []
    snap, index = g.snapshot(), g.index.copy()
    g.place(ids[unit], "trash")
    loop.restore(g, snap, index, in_place=True, index_kept=True)  # a wrong keep
    assert any("dispatch index differs" in m for m in check(g, cards, counts))


def test_a_copy_of_the_game_carries_the_counters_and_starts_every_answer_afresh() -> None:
    """Caches.for_copy copies fields by name (a compiled class has no __dict__): every field is either
    carried or started afresh, and a field added to Caches without a decision fails here."""
    fresh = {"chars", "chars_reads", "memo_answers", "statics_answers", "lasting_answers", "lasting_of", "kept",
             "kept_stamp", "moves_at", "designations", "cleanup_clear", "lasting_only_answers", "lasting_only_of",
             "kept_objs", "kept_list", "by_kind", "by_kind_generation"}  # a copy keeps its own objects: the first keep copies them all
    fields = set(getattr(caches.Caches, "__mypyc_attrs__", ()) or vars(caches.Caches()))  # compiled, or not
    assert fields == set(caches.CARRIED) | fresh and not fresh & set(caches.CARRIED)
    game = Game.new(cat(), ["Jinx Champion Deck", "Viktor Champion Deck"], seed=4)
    for _ in range(30):
        game.apply(game.legal_actions()[0])
    game.caches.memo_answers["probe"] = 1
    other = game.copy()
    assert other.caches.version > game.caches.version and "probe" not in other.caches.memo_answers  # restore bumps it
    assert other.caches.moves_at == game.caches.moves_at and other.caches.moves_at is not game.caches.moves_at
    assert other.legal_actions() == game.legal_actions() and other.to_json() == game.to_json()


def test_abilities_compiled_in_play_are_shared_by_the_games_of_a_catalog_until_its_keywords_change() -> None:
    """A keyword given with a value and a granted ability's script are compiled once for every game of a
    catalog (``Catalog.compiled_abilities``): a second game finds the first one's; a catalog whose
    keywords are another dict compiles them again, from its own keywords."""
    import dataclasses

    catalog = dataclasses.replace(cat())
    first = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=1)
    second = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=2)
    given = first.keyword_abilities("assault", 3)
    assert second.keyword_abilities("assault", 3) is given
    script = {"cost": {"exhaust_self": True}, "effect": {"type": "draw", "amount": 1}}
    assert second.granted_ability({"ability": script}) is first.granted_ability({"ability": script})
    assert first.copy().keyword_abilities("assault", 3) is given

    catalog.keywords = dict(catalog.keywords)  # edited: another dict
    third = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=3)
    again = third.keyword_abilities("assault", 3)
    assert again is not given and again == given


def test_scripts_and_codes_are_interned_so_lookups_find_keys_by_identity() -> None:
    """A script read from YAML or JSON holds strings of its own; the compiler interns every key and string of
    a compiled ability, and a card's code, and an object's code is interned as it is made (also from a save),
    so ``body["effect"]`` and ``Game.card`` find their keys by identity instead of comparing characters."""
    import sys

    from riftscript.core.script.cards import created_abilities

    catalog = cat()
    game = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=1)
    keys = {code: code for code in catalog.cards}
    for obj in game.state.objs.values():
        assert keys[obj.code] is obj.code
    strings = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            strings.extend(k for k in node if isinstance(k, str))
            skip = created_abilities(node)  # compiled (and interned) when the ability is made in play
            for key, value in node.items():
                if key not in skip:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str):
            strings.append(node)

    for oid in game.state.objs:
        for ability in game.card(oid).abilities:
            walk(ability.body)
    assert len(strings) > 1000
    assert all(sys.intern(s) is s for s in strings)
    loaded = Game.from_json(catalog, game.to_json(), replay=False)
    assert all(keys[obj.code] is obj.code for obj in loaded.state.objs.values())


def test_the_hooks_a_granted_keyword_may_give_are_those_its_compiled_statics_give() -> None:
    """``CardFacts.own_hooks`` counts the hooks of the keywords a card's own statics grant, so that a card in
    hand that grants itself [Ganking] is not worked out through every layer to find it has no timing hook:
    for every keyword, the hooks the compiler expects are exactly the hook modifiers of the statics it
    compiles to (what ``layers._compute`` reads of a granted keyword)."""
    catalog = cat()
    game = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck"], seed=1)
    compiler = game._compiler
    checked = 0
    for name, kw in catalog.keywords.items():
        expected = compiler._keyword_hooks(name)
        if expected is None:
            continue
        value = kw.default if kw.default is not None else 1 if kw.parameter_kind == "number" else None
        abilities = game.keyword_abilities(name, value)
        given = {m["hook"] for a in abilities if a.kind == "static" for m in a.body["modifiers"] if m["type"] == "hook"}
        assert given == set(expected), name
        checked += 1
    assert checked >= 20
    soul = next(c for c in catalog.cards.values() if c.name == "Raging Soul")
    assert soul.facts.own_hooks is not None and "timing" not in soul.facts.own_hooks
