"""A broken third-party plugin is left out, and everything else goes on.

Each case installs a plugin through an entry-point group (a module on sys.path and a faked entry
point, as an installed package would be found).  A set plugin whose set is broken in one way (an
invalid card file, a card code that Origins already has, or a requirement this engine doesn't meet)
is skipped with one warning naming it, the file and the fix; demo, simulate and info work; sets and
info say it was skipped and why; validate reports every problem and fails; a deck that needs the
skipped set is refused naming it.  A plugin broken in any other way (it exits while imported,
implements a misspelled hook, repeats an effect type, mode or agent name, or its modes or agents hook
raises or returns something else) is skipped with one warning naming it and what is wrong, shown by
info too, and every command goes on.
"""
from __future__ import annotations

import importlib.metadata
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from clihelp import Result, run
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.discovery import load_plugins
from riftscript.core.script.registry import DISABLE_ENV, PluginWarning

CARD = "schema_version: 1\ncode: {code}\nname: {name}\ntype: unit\ndomains: [fury]\ncost: {{energy: 1}}\nmight: 1\n"
CASES = {
    "invalid card": ("BRK-002", "schema_version: 1\ncode: BRK-002\nname: Broken\ntype: unit\nmight: lots\n",
                     "'lots' is not of type 'integer'", ">=0.1,<1"),
    "duplicated code": ("OGN-001", CARD.format(code="OGN-001", name="Counterfeit Scorcher"),
                        "card code OGN-001 is also defined in", ">=0.1,<1"),
    "engine requirement": ("BRK-002", CARD.format(code="BRK-002", name="Fine Card"),
                           "set BRK needs engine >=9.0, but this is RiftScript", ">=9.0"),
}


def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> Path:
    """A 'brokenset' package on sys.path, found through the riftscript.sets entry point group."""
    file_name, text, _, engine = CASES[case]
    package = tmp_path / "rs_brokenset"
    root = package / "brokenset"
    (root / "cards").mkdir(parents=True)
    (root / "decks").mkdir()
    (package / "__init__.py").write_text(
        "from pathlib import Path\n"
        "from riftscript.core.script.hookspecs import hookimpl\n"
        "from riftscript.core.script.registry import SetSpec\n"
        "ROOT = Path(__file__).parent / 'brokenset'\n\n\n"
        "@hookimpl\n"
        "def riftscript_sets():\n"
        "    return [SetSpec(manifest=ROOT / 'set.yaml', cards=ROOT / 'cards', decks=ROOT / 'decks')]\n")
    (root / "set.yaml").write_text(f"schema_version: 1\ncode: BRK\nname: Broken Set\nversion: 1.0.0\n"
                                   f"requires: {{engine: '{engine}', schema_version: 1}}\n")
    (root / "cards" / "BRK-001.yaml").write_text(CARD.format(code="BRK-001", name="Good Card"))
    (root / "cards" / f"{file_name}.yaml").write_text(text)
    jinx = Path(__file__).parents[1] / "sets" / "origins" / "decks" / "jinx_champion_deck.yaml"
    deck = jinx.read_text().replace("name: Jinx Champion Deck", "name: Broken Deck") \
        .replace("{card: OGN-169, count: 3}", "{card: BRK-001, count: 3}")
    (root / "decks" / "broken.yaml").write_text(deck)
    (tmp_path / "mine.yaml").write_text(deck.replace("name: Broken Deck", "name: My Deck"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "rs_brokenset", raising=False)  # each test its own package
    ep = importlib.metadata.EntryPoint("brokenset", "rs_brokenset", "riftscript.sets")
    real: Callable[..., Any] = importlib.metadata.entry_points

    def entry_points(**params: Any) -> Any:
        found = list(real(**params))
        return found + ([ep] if params.get("group") == "riftscript.sets" else [])
    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    return root


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_broken_set_plugin_is_skipped_and_everything_else_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    root = install(tmp_path, monkeypatch, case)
    file_name, _, problem, _ = CASES[case]
    bad_file = root / ("set.yaml" if case == "engine requirement" else f"cards/{file_name}.yaml")
    warning = [line for line in run("info").err.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1, warning
    assert warning[0].startswith(f"warning: skipping set plugin brokenset ({root / 'set.yaml'}): ")
    assert problem in warning[0] and str(bad_file) in warning[0]
    assert warning[0].endswith(f"fix it, or switch the plugin off with {DISABLE_ENV}=brokenset")

    for argv in (["demo", "--seed", "3"], ["simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck",
                                           "--games", "1"], ["info"]):
        result = run(*argv)
        assert result.code == 0, (argv, result.err)

    sets = run("sets")
    row = next(line for line in sets.lines if line.startswith("BRK "))
    assert "skipped: " in row and problem in row
    assert any(line.startswith("OGN ") and line.endswith("loaded") for line in sets.lines)
    skipped = next(r for r in json.loads(run("sets", "--json").out) if r["code"] == "BRK")
    assert problem in skipped["skipped"]
    assert any("brokenset" in line and "skipped" in line and problem in line for line in run("info").lines)

    validate = run("validate")
    assert validate.code == 1 and any(line.startswith(str(bad_file)) and problem in line for line in validate.lines)

    for deck in ("Broken Deck", str(tmp_path / "mine.yaml")):
        refused = run("simulate", "--decks", deck, "Viktor Champion Deck", "--games", "1")
        assert refused.code == 1 and "set BRK (plugin brokenset), which was skipped" in refused.err, refused.err


def test_switching_the_broken_plugin_off_silences_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install(tmp_path, monkeypatch, "invalid card")
    monkeypatch.setenv(DISABLE_ENV, "brokenset")
    result = run("info")
    assert result.code == 0 and "warning" not in result.err
    assert run("validate").code == 0


def test_a_run_sees_the_plugins_installed_now_not_those_of_an_earlier_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate keeps its catalog for its worker processes, but each command starts from what is
    installed when it runs (an embedding program or a test suite runs many commands in one process)."""
    assert run("simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck", "--games", "1").code == 0
    install(tmp_path, monkeypatch, "invalid card")
    refused = run("simulate", "--decks", "Broken Deck", "Viktor Champion Deck", "--games", "1")
    assert refused.code == 1 and "set BRK (plugin brokenset), which was skipped" in refused.err, refused.err


# --- a broken plugin of any kind: skipped with a warning naming it and what is wrong ---------------------------

HOOKS = "from riftscript.core import hookimpl, EffectType, ModeSpec, AgentSpec\n\n\n"


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str, str, str], None]]:
    """``installed(group, name, source)``: a plugin module ``rs_NAME`` on sys.path, found through an entry
    point NAME of the group, as an installed package's would be."""
    found: list[importlib.metadata.EntryPoint] = []
    real: Callable[..., Any] = importlib.metadata.entry_points

    def entry_points(**params: Any) -> Any:
        return list(real(**params)) + [ep for ep in found if ep.group == params.get("group")]

    def install(group: str, name: str, source: str) -> None:
        module = "rs_" + name.replace("-", "_")
        (tmp_path / f"{module}.py").write_text(source)
        found.append(importlib.metadata.EntryPoint(name, module, group))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    yield install
    for ep in found:  # each test imports its own modules
        sys.modules.pop(ep.value, None)


def warnings_of(result: Result) -> list[str]:
    return [line[len("warning: "):] for line in result.err.splitlines() if line.startswith("warning: ")]


def info_row(result: Result, plugin: str) -> str:
    return next(line for line in result.lines if line.startswith(f"plugin {plugin} "))


def noted(warning: str) -> str:
    """How ``riftscript info`` shows a skipped record on its plugin's row."""
    match = re.fullmatch(r"skipping (.+?) of plugin \S+: (.+)", warning)
    assert match is not None, warning
    return f"({match[1]} skipped: {match[2]})"


def plays(*argv: str) -> None:
    """The command works as if the broken plugin weren't installed."""
    result = run(*argv)
    assert result.code == 0 and "error:" not in result.err, (argv, result.err)


@pytest.mark.parametrize("source, cause", [
    ("import sys\nsys.exit(3)\n", "SystemExit: it exits (status 3) while being loaded"),
    ("class Abort(BaseException):\n    pass\n\n\nraise Abort('no database')\n", "Abort: no database"),
], ids=["sys.exit", "BaseException"])
def test_a_plugin_exiting_while_it_is_imported_is_skipped(
        installed: Callable[[str, str, str], None], source: str, cause: str) -> None:
    installed("riftscript.sets", "exits", source)
    info = run("info")
    assert info.code == 0 and warnings_of(info) == [f"skipping riftscript.sets plugin exits (rs_exits): {cause}"]
    assert info_row(info, "exits").endswith(f"rs_exits  ({cause})")
    assert "OGN " in run("sets").out
    plays("demo", "--seed", "3")


def test_ctrl_c_while_a_plugin_is_imported_still_stops(installed: Callable[[str, str, str], None]) -> None:
    installed("riftscript.sets", "interrupted", "raise KeyboardInterrupt\n")
    with pytest.raises(KeyboardInterrupt):
        load_plugins()


def test_a_plugin_implementing_a_misspelled_hook_is_skipped_as_a_whole(
        installed: Callable[[str, str, str], None]) -> None:
    installed("riftscript.modes", "typo", HOOKS + "@hookimpl\ndef riftscript_mode():\n    return []\n\n\n"
                                          "@hookimpl\ndef riftscript_modes():\n"
                                          "    return [ModeSpec(name='typo-duel', players=2)]\n")
    info = run("info")
    problem = "it implements riftscript_mode, which is not a RiftScript hook; did you mean 'riftscript_modes'?"
    assert info.code == 0 and warnings_of(info) == [f"skipping riftscript.modes plugin typo (rs_typo): {problem}"]
    assert info_row(info, "typo").endswith(f"({problem})")
    modes = run("modes")
    assert "duel" in modes.out and "typo-duel" not in modes.out  # its good hook goes with it
    plays("demo", "--seed", "3")


def test_an_effect_type_whose_name_is_taken_is_skipped_and_the_first_kept(
        installed: Callable[[str, str, str], None]) -> None:
    bloom = "EffectType(name='bloom', run=lambda ctx, eff: None, schema={})"
    installed("riftscript.effects", "copycat", HOOKS + "@hookimpl\ndef riftscript_effect_types():\n"
                                                       "    return [EffectType(name='deal_damage', run=print)]\n")
    installed("riftscript.effects", "garden-a", HOOKS + f"@hookimpl\ndef riftscript_effect_types():\n"
                                                        f"    return [{bloom}]\n")
    installed("riftscript.effects", "garden-b", HOOKS + f"@hookimpl\ndef riftscript_effect_types():\n"
                                                        f"    return [{bloom}]\n")
    kept = "registers that name too, and the first one is kept (built-in plugins come first)"
    info = run("info")
    # pluggy calls the plugin registered last first: garden-b's bloom is the first
    copycat = f"skipping effect type 'deal_damage' of plugin copycat: plugin core-effects {kept}"
    assert info.code == 0 and sorted(warnings_of(info)) == [
        f"skipping effect type 'bloom' of plugin garden-a: plugin garden-b {kept}", copycat]
    assert info_row(info, "copycat").endswith(noted(copycat))
    with pytest.warns(PluginWarning):
        catalog = load_catalog(strict=False)
    assert catalog.effect_types["deal_damage"].run is not print and "bloom" in catalog.effect_types
    plays("demo", "--seed", "3")
    plays("validate")


@pytest.mark.parametrize("hook, problem", [
    ("    raise RuntimeError('mode hook exploded')\n",
     "skipping riftscript_modes of plugin modes: RuntimeError: mode hook exploded"),
    ("    return [None]\n",
     "skipping riftscript_modes of plugin modes: TypeError: expected ModeSpec records, got NoneType"),
    ("    return [ModeSpec(name='crowd', players=9), ModeSpec(name='fine-duel', players=2)]\n",
     "skipping mode 'crowd' of plugin modes: it has 9 players; Riftbound is played by 2 to 4 (487-491)"),
    ("    return [ModeSpec(name='duel', players=3), ModeSpec(name='fine-duel', players=2)]\n",
     "skipping mode 'duel' of plugin modes: plugin core-modes registers that name too, and the first one is kept "
     "(built-in plugins come first)"),
], ids=["raises", "not ModeSpec", "9 players", "name taken"])
def test_a_broken_mode_is_skipped_and_every_game_goes_on(
        installed: Callable[[str, str, str], None], hook: str, problem: str) -> None:
    installed("riftscript.modes", "modes", HOOKS + "@hookimpl\ndef riftscript_modes():\n" + hook)
    info = run("info")
    assert info.code == 0 and warnings_of(info) == [problem]
    assert info_row(info, "modes").endswith(noted(problem))
    modes = run("modes")
    assert modes.code == 0 and [line.split()[:2] for line in modes.lines if line.startswith("duel ")] == [["duel", "2"]]
    assert ("fine-duel" in modes.out) == ("fine-duel" in hook)  # the plugin's good modes stay
    plays("demo", "--seed", "3")
    plays("simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck", "--games", "1")


@pytest.mark.parametrize("hook, problem", [
    ("    raise RuntimeError('agent hook exploded')\n",
     "skipping riftscript_agents of plugin agents: RuntimeError: agent hook exploded"),
    ("    return [1, 'x']\n",
     "skipping riftscript_agents of plugin agents: TypeError: expected AgentSpec records, got int"),
    ("    return [AgentSpec('greedy', print)]\n",
     "skipping agent 'greedy' of plugin agents: plugin core-agents registers that name too, and the first one is "
     "kept (built-in plugins come first)"),
], ids=["raises", "not AgentSpec", "name taken"])
def test_a_broken_agent_is_skipped_and_every_game_goes_on(
        installed: Callable[[str, str, str], None], hook: str, problem: str) -> None:
    installed("riftscript.agents", "agents", HOOKS + "@hookimpl\ndef riftscript_agents():\n" + hook)
    info = run("info")
    assert info.code == 0 and warnings_of(info) == [problem]
    assert info_row(info, "agents").endswith(noted(problem))
    plays("demo", "--seed", "3")
    plays("demo", "--seed", "3", "--agent", "greedy")
    plays("simulate", "--decks", "Jinx Champion Deck", "Viktor Champion Deck", "--games", "1",
          "--agents", "greedy", "random")


def test_a_language_word_that_cant_be_added_is_skipped(installed: Callable[[str, str, str], None]) -> None:
    """A word redefining a built-in one (or another plugin's) used to stop every command with a PluginError."""
    installed("riftscript.effects", "wordy", "from riftscript.core import hookimpl, LanguageWord\n\n\n"
                                             "@hookimpl\ndef riftscript_language():\n"
                                             "    return [LanguageWord('filter', 'stunned', lambda *a: True)]\n")
    info = run("info")
    warning = ("skipping word 'stunned' of plugin wordy: plugin wordy adds the filter key 'stunned', but that is a "
               "built-in word of the script language")
    assert info.code == 0 and warnings_of(info) == [warning], info.err
    assert info_row(info, "wordy").endswith(noted(warning))
    plays("demo", "--seed", "3")
