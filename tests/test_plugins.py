"""Plugins: a broken one is skipped with its name and cause, conflicts name both sides, sets
written for another engine are refused, plugins can be switched off, misspelled hooks are caught."""
from __future__ import annotations

import importlib.metadata
import re
import warnings
from pathlib import Path
from typing import Any, Callable

import pytest

from clihelp import run
from riftscript.core.script.catalog import load_catalog
from riftscript.core.errors import PluginError
from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import DISABLE_ENV, EffectType, ModeSpec, PluginWarning, SetSpec
from riftscript.core.script.discovery import load_plugins


def make_set(root: Path, code: str, cards: dict[str, str] | None = None, engine: str = ">=0.1,<1",
             schema_version: int = 1) -> Path:
    """A set folder: manifest plus one file per card code."""
    root.mkdir(parents=True)
    (root / "set.yaml").write_text(f"schema_version: 1\ncode: {code}\nname: Set {code}\nversion: 1.0.0\n"
                                   f"requires: {{engine: '{engine}', schema_version: {schema_version}}}\n")
    (root / "cards").mkdir()
    for card, name in (cards or {}).items():
        (root / "cards" / f"{card}.yaml").write_text(
            f"schema_version: 1\ncode: {card}\nname: {name}\ntype: unit\nmight: 1\n")
    return root


def set_plugin(name: str, root: Path) -> object:
    """A plugin object (a class with a hook implementation) registered under ``name``."""
    def riftscript_sets(self: Any) -> list[SetSpec]:
        return [SetSpec(manifest=root / "set.yaml", cards=root / "cards")]
    return type(name, (), {"riftscript_sets": hookimpl(riftscript_sets)})()


def fake_entry_points(monkeypatch: pytest.MonkeyPatch, extra: dict[str, list[importlib.metadata.EntryPoint]]) -> None:
    """Make importlib.metadata report additional entry points for some groups."""
    real: Callable[..., Any] = importlib.metadata.entry_points

    def entry_points(**params: Any) -> Any:
        found = list(real(**params))
        return found + extra.get(params.get("group", ""), [])
    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)


def test_a_plugin_that_fails_to_import_is_skipped_with_its_name_and_cause(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rs_broken_plugin.py").write_text("raise RuntimeError('the database is on fire')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = importlib.metadata.EntryPoint("broken-set", "rs_broken_plugin", "riftscript.sets")
    fake_entry_points(monkeypatch, {"riftscript.sets": [ep]})
    with pytest.warns(PluginWarning) as caught:
        plugins = load_plugins()
    assert [str(w.message) for w in caught] == [
        "skipping riftscript.sets plugin broken-set (rs_broken_plugin): RuntimeError: the database is on fire"]
    assert {p.name: p.error for p in plugins.loaded}["broken-set"] == "RuntimeError: the database is on fire"
    catalog = load_catalog(plugins)
    assert {"OGN", "OGS"} <= set(catalog.sets)


def test_the_cli_shows_the_warning_and_carries_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ep = importlib.metadata.EntryPoint("ghost", "rs_module_that_does_not_exist", "riftscript.keywords")
    fake_entry_points(monkeypatch, {"riftscript.keywords": [ep]})
    result = run("sets")
    assert result.err.startswith("warning: skipping riftscript.keywords plugin ghost "
                                 "(rs_module_that_does_not_exist): ModuleNotFoundError")
    assert result.code == 0 and "Origins" in result.out


def test_a_plugin_whose_hook_raises_is_skipped(tmp_path: Path) -> None:
    class ExplodingSets:
        @hookimpl
        def riftscript_sets(self) -> list[SetSpec]:
            raise OSError("disk not found")

    with pytest.warns(PluginWarning, match="skipping riftscript_sets of plugin ExplodingSets: OSError: disk not found"):
        catalog = load_catalog(load_plugins(extra=[ExplodingSets()]))
    assert "OGN" in catalog.sets


def test_a_hook_returning_the_wrong_records_is_skipped() -> None:
    class Confused:
        @hookimpl
        def riftscript_keywords(self) -> list[str]:
            return ["plugins/keywords"]

    with pytest.warns(PluginWarning, match="skipping riftscript_keywords of plugin Confused: TypeError: "
                                           "expected KeywordSource records, got str"):
        catalog = load_catalog(load_plugins(extra=[Confused()]))
    assert "tank" in catalog.keywords


def test_same_set_code_from_two_plugins_skips_the_one_loaded_later_naming_both(tmp_path: Path) -> None:
    one = make_set(tmp_path / "one", "DUP", {"DUP-001": "First"})
    two = make_set(tmp_path / "two", "DUP", {"DUP-002": "Second"})
    # pluggy calls the plugin registered last first: Original's set is loaded, then Repeats'
    plugins = load_plugins(entry_points=False, extra=[set_plugin("Repeats", two), set_plugin("Original", one)])
    with pytest.warns(PluginWarning) as caught:
        catalog = load_catalog(plugins)
    assert [str(w.message) for w in caught] == [
        f"skipping set plugin Repeats ({two / 'set.yaml'}): set code DUP is also shipped by plugin Original "
        f"({one / 'set.yaml'}) ({two / 'set.yaml'}); fix it, or switch the plugin off with {DISABLE_ENV}=Repeats"]
    assert "DUP-001" in catalog.cards and "DUP-002" not in catalog.cards and "OGN-001" not in catalog.cards


def test_a_card_code_of_a_loaded_set_skips_the_set_repeating_it(tmp_path: Path) -> None:
    one = make_set(tmp_path / "one", "AAA", {"AAA-001": "Original"})
    two = make_set(tmp_path / "two", "BBB", {"BBB-001": "Fine"})
    (two / "cards" / "copy.yaml").write_text((one / "cards" / "AAA-001.yaml").read_text())
    plugins = load_plugins(entry_points=False, extra=[set_plugin("SetB", two), set_plugin("SetA", one)])
    with pytest.warns(PluginWarning, match="skipping set plugin SetB .*: card code AAA-001 is also defined in "
                                           f"{re.escape(str(one / 'cards' / 'AAA-001.yaml'))} "):
        catalog = load_catalog(plugins)
    assert catalog.cards["AAA-001"].name == "Original" and "BBB-001" not in catalog.cards  # the whole set is out
    assert set(catalog.skipped) == {"BBB"} and catalog.skipped["BBB"].file == str(two / "cards" / "copy.yaml")


@pytest.mark.parametrize("engine, schema_version, message", [
    (">=2.0", 1, "set OLD needs engine >=2.0, but this is RiftScript 0.1.0"),
    (">=0.1", 2, "set OLD is written for script schema version 2, but this engine reads version 1"),
])
def test_a_set_for_another_engine_or_schema_is_skipped(tmp_path: Path, engine: str, schema_version: int,
                                                        message: str) -> None:
    root = make_set(tmp_path / "old", "OLD", {"OLD-001": "Ancient"}, engine=engine, schema_version=schema_version)
    with pytest.warns(PluginWarning, match=re.escape(f"skipping set plugin OldSet ({root / 'set.yaml'}): {message}")):
        catalog = load_catalog(load_plugins(entry_points=False, extra=[set_plugin("OldSet", root)]))
    assert "OLD-001" not in catalog.cards and catalog.skipped["OLD"].reason == message
    result = run("validate", str(root))
    where = "5:20" if schema_version == 1 else "5:45"
    field = "requires.engine" if schema_version == 1 else "requires.schema_version"
    assert result.lines[0] == f"{root / 'set.yaml'}:{where}: {message} ({field})"


def test_disabling_plugins_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # Spiritforged plays Origins' Recruit token, Unleashed Origins' Sprite and Spiritforged's Gold: they go too
    monkeypatch.setenv(DISABLE_ENV, "origins, proving-grounds, spiritforged, unleashed")
    plugins = load_plugins()
    errors = {p.name: p.error for p in plugins.loaded}
    assert errors["origins"] == errors["proving-grounds"] == f"disabled by {DISABLE_ENV}"
    assert errors["core-keywords"] is None
    catalog = load_catalog(plugins)
    assert not {"OGN", "OGS"} & set(catalog.sets) and "tank" in catalog.keywords
    assert not any(code.startswith(("OGN-", "OGS-")) for code in catalog.cards)
    assert not {"OGN", "OGS"} & {line.split()[0] for line in run("sets").lines}


def test_a_misspelled_hook_is_caught() -> None:
    class Typo:
        @hookimpl
        def riftscript_set(self) -> list[SetSpec]:
            return []

    with pytest.raises(PluginError, match="a plugin implements an unknown hook: .*riftscript_set.*Typo"):
        load_plugins(entry_points=False, extra=[Typo()])


def bloom(name: str, schema: dict[str, Any] | None) -> object:
    def riftscript_effect_types(self: Any) -> list[EffectType]:
        return [EffectType("bloom", run=lambda ctx, eff: None, schema=schema)]
    return type(name, (), {"riftscript_effect_types": hookimpl(riftscript_effect_types)})()


def test_an_effect_type_from_two_plugins_names_both() -> None:
    plugins = load_plugins(extra=[bloom("GardenA", {}), bloom("GardenB", {})])
    with pytest.raises(PluginError, match="effect type 'bloom' is registered by two plugins: GardenB and GardenA"):
        load_catalog(plugins)


def test_a_plugin_cannot_redefine_a_builtin_effect() -> None:
    class Shadow:
        @hookimpl
        def riftscript_effect_types(self) -> list[EffectType]:
            return [EffectType("draw", run=lambda ctx, eff: None, schema={"properties": {}})]

    with pytest.raises(PluginError, match="plugin Shadow registers effect type 'draw' with its own schema"):
        load_catalog(load_plugins(extra=[Shadow()]))


def test_plugin_effect_schema_checks_scripts(tmp_path: Path) -> None:
    schema = {"properties": {"amount": {"$ref": "#/$defs/amount"}, "target": {"$ref": "#/$defs/selector"}},
              "required": ["target"]}
    plugins = load_plugins(extra=[bloom("Garden", schema)])
    card = tmp_path / "c.yaml"
    card.write_text("schema_version: 1\ncode: GRD-001\nname: Gardener\ntype: spell\nabilities:\n"
                    "  - kind: spell\n    effect: {type: bloom, amount: two, colour: red}\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        catalog = load_catalog(plugins, extra_cards=[card], strict=False)
    assert [str(p).split(": ", 1)[1] for p in catalog.problems] == [
        "bloom is missing required key 'target' (abilities[0].effect)",
        "'two' is not of type 'integer' or 'object' (abilities[0].effect.amount)",
        "unknown key 'colour' (abilities[0].effect.colour)",
    ]


def mode_plugin(name: str, *specs: ModeSpec) -> object:
    def riftscript_modes(self: Any) -> list[ModeSpec]:
        return list(specs)
    return type(name, (), {"riftscript_modes": hookimpl(riftscript_modes)})()


def test_a_third_party_mode_plays_like_a_builtin_one() -> None:
    """A mode is only data registered through riftscript_modes: here three players racing to 4."""
    from riftscript.core.engine.game import Game
    from riftscript.plugins.agents import RandomAgent

    race = ModeSpec(name="three-way-race", players=3, victory_score=4, first_player_skips_draw=True,
                    description="three players to 4 points")
    catalog = load_catalog(load_plugins(extra=[mode_plugin("Races", race)]))
    assert catalog.plugins is not None and catalog.plugins.modes()["three-way-race"] == race
    g = Game.new(catalog, ["Jinx Champion Deck", "Viktor Champion Deck", "Annie Starter Deck"],
                 mode="three-way-race", seed=4)
    assert len(g.state.battlefields) == 3 and g.spec.victory_score == 4
    agents = [RandomAgent(i) for i in range(3)]
    while not g.over:
        d = g.pending_decision()
        assert d is not None
        g.apply(agents[d.player].choose(g, g.legal_actions()))
    assert g.state.winners and g.state.players[g.state.winners[0]].points >= 4


def test_the_modes_kept_between_games_follow_plugins_registered_and_unregistered() -> None:
    """``Plugins.modes`` is kept between games (each asks when it starts) while the hook's implementations
    are the same: a mode plugin registered later is playable at once, and gone once unregistered."""
    from riftscript.core.engine.game import Game
    from riftscript.core.engine.setup import SetupError

    catalog = load_catalog()
    assert catalog.plugins is not None
    decks = ["Jinx Champion Deck", "Viktor Champion Deck"]
    Game.new(catalog, decks, mode="duel", seed=1)  # the modes are found and kept
    first = catalog.plugins.modes()
    first.pop("duel")  # the caller's copy: the kept answer is not changed through it
    assert "duel" in catalog.plugins.modes()
    with pytest.raises(SetupError, match="unknown mode 'quick-duel'"):
        Game.new(catalog, decks, mode="quick-duel", seed=1)
    plugin = mode_plugin("Quick", ModeSpec(name="quick-duel", players=2, victory_score=3))
    catalog.plugins.pm.register(plugin, name="quick")
    assert Game.new(catalog, decks, mode="quick-duel", seed=1).spec.victory_score == 3
    catalog.plugins.pm.unregister(name="quick")
    with pytest.raises(SetupError, match="unknown mode 'quick-duel'"):
        Game.new(catalog, decks, mode="quick-duel", seed=1)


def test_a_mode_name_from_two_plugins_names_both() -> None:
    plugins = load_plugins(extra=[mode_plugin("RacesA", ModeSpec(name="duel", players=2))])
    with pytest.raises(PluginError, match="mode 'duel' is registered by two plugins: (RacesA and core-modes|core-modes and RacesA)$"):
        plugins.modes()


@pytest.mark.parametrize("spec,problem", [
    (ModeSpec(name="crowd", players=6), "has 6 players; Riftbound is played by 2 to 4"),
    (ModeSpec(name="lopsided", players=4, teams=((0, 1, 2), (2, 3))), "don't seat each of its 4 players"),
    (ModeSpec(name="even", players=2, best_of=4), "best of 4; a match is best of an odd number"),
    (ModeSpec(name="drafted", players=2, battlefield_choice="draft"), "chooses battlefields by 'draft'"),
])
def test_a_mode_that_cannot_be_played_is_refused(spec: ModeSpec, problem: str) -> None:
    plugins = load_plugins(extra=[mode_plugin("Odd", spec)])
    with pytest.raises(PluginError, match=f"plugin Odd: mode '{spec.name}' .*{re.escape(problem)}"):
        plugins.modes()
