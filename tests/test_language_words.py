"""Plugins add words to the script language (hook ``riftscript_language``): a filter key, an object
state, an amount and a trigger event, each checked by the schema, run by the engine and worded by the
renderer like the built-in words; a word may not redefine a built-in one nor another plugin's."""
from __future__ import annotations

from typing import Any

import pytest

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import load_catalog
from riftscript.core.engine.effects import EffectContext
from riftscript.core.errors import PluginError
from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import EffectType, LanguageWord
from riftscript.core.script.discovery import load_plugins
from riftscript.tools.render import render_card

MARK = "marked"


def _marked(ctx: Any, oid: int) -> bool:
    return any(entry[0] == MARK and entry[2] == oid for entry in ctx.g.state.history)


def _mark(ctx: Any, node: dict[str, Any]) -> None:
    for oid in ctx.resolve(node["target"]):
        ctx.g.remember(MARK, ctx.you, oid)
        ctx.g.emit(MARK, obj=oid, player=ctx.you)


class Words:
    """A plugin marking units: a primitive, and the words that read the mark."""

    @hookimpl
    def riftscript_effect_types(self) -> list[EffectType]:
        return [EffectType("mark", _mark, {"properties": {"target": {"$ref": "#/$defs/selector"}},
                                           "required": ["target"]}, emits=(MARK,), text="mark {target}"),
                EffectType("each_marker", lambda ctx, node: None, {"properties": {"effect": {"$ref": "#/$defs/effect"}},
                                                                   "required": ["effect"]},
                           text="each player who marked a unit this turn does this: {effect}")]

    @hookimpl
    def riftscript_language(self) -> list[LanguageWord]:
        return [
            LanguageWord("state", MARK, lambda ctx, oid, obj: _marked(ctx, oid), text="marked"),
            LanguageWord("state", "in_marked_combat", lambda ctx, oid, obj: False, text="in that combat"),
            LanguageWord("filter", MARK, lambda ctx, oid, obj, card, want: _marked(ctx, oid) == want,
                         {"type": "boolean"}, text="marked"),
            LanguageWord("amount", "marks", lambda ctx, node, subject: sum(
                1 for e in ctx.g.state.history if e[0] == MARK and e[1] == ctx.you),
                {"properties": {}}, text="the number of marks you made"),
            LanguageWord("amount", "times_marked", lambda ctx, node, subject: 1,
                         {"properties": {"of": {"$ref": "#/$defs/selector"}}}, text="the number of times {of_is} marked"),
            LanguageWord("amount", "mark_round", lambda ctx, node, subject: 1,
                         {"properties": {"player": {"enum": ["you", "event_player"]}}}, text="{whose} {nth} marking round"),
            LanguageWord("filter", "bracket_marked", lambda ctx, oid, obj, card, want: _marked(ctx, oid) == want,
                         {"type": "boolean"}, text="[Marked]"),
            LanguageWord("filter", "marked_by_you", lambda ctx, oid, obj, card, want: _marked(ctx, oid) == want,
                         {"type": "boolean"}, text="marked by you"),
            LanguageWord("filter", "marked_and_mine", lambda ctx, oid, obj, card, want: False,
                         {"type": "boolean"}, text="you control"),
            LanguageWord("filter", "mark_colour", lambda ctx, oid, obj, card, want: False,
                         {"enum": ["red", "blue"]}, text="{value}"),
            LanguageWord("event", MARK, text="become marked", active="mark"),
            LanguageWord("event", "marks_fade", text="the marks fade"),
            LanguageWord("hook", "mark_limit", text="{subject} can be marked {value} times"),
        ]


MARKER = {  # marks a unit when played; +1 Might for each mark while marked; draws when marked
    "schema_version": 1, "code": "TST-001", "name": "Marker", "type": "unit", "cost": {"energy": 1}, "might": 1,
    "abilities": [
        {"kind": "activated", "cost": {"energy": 0},
         "effect": {"type": "mark", "target": {"pick": "target", "what": "unit", "where": {MARK: False}}}},
        {"kind": "static", "while": {"type": "is", "subject": "self", "state": MARK},
         "modifiers": [{"type": "might", "amount": {"type": "marks"}}]},
        {"kind": "triggered", "when": {"event": MARK, "subject": "self"}, "effect": {"type": "draw", "amount": 1}},
        {"kind": "static", "modifiers": [{"type": "hook", "hook": "mark_limit", "value": 2}]},
    ]}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("words")
    import json

    (folder / "TST-001.yaml").write_text(json.dumps(MARKER))
    return load_catalog(load_plugins(extra=[Words()]), extra_cards=[folder], cache=False)


def test_scripts_using_the_words_are_checked_and_run(catalog: Any) -> None:
    b = Builder(catalog)
    index = b.add(0, "TST-001")
    b.deck(0, ["OGN-052"])
    g, ids = b.build()
    marker = ids[index]
    activate = {"type": "activate", "source": marker, "ability": 0, "targets": [[marker]]}
    assert activate in g.legal_actions()  # the unmarked marker is a legal target of its own ability
    g.apply(activate)
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert {"type": "activate", "source": marker, "ability": 0, "targets": [[marker]]} not in g.legal_actions()
    ctx = EffectContext(g, 0, marker)
    assert ctx.state_of(marker, MARK)
    assert ctx.matches(marker, {MARK: True}) and not ctx.matches(marker, {MARK: False})
    assert ctx.amount({"type": "marks"}) == 1
    assert [item.obj for item in g.state.chain] == [marker]  # the event triggered "when I become marked"
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert len(g.state.players[0].hand) == 1


def test_the_renderer_words_them(catalog: Any) -> None:
    lines = render_card(catalog.cards["TST-001"], catalog).splitlines()
    assert lines[0] == "{0}: Mark a non-marked unit."
    assert lines[1].startswith("While I'm marked,") and lines[1].endswith("by the number of marks you made.")
    assert lines[2] == "When I become marked, draw 1."
    assert lines[3] == "I can be marked 2 times."  # a hook name the plugin reads, in its own English


def test_a_script_with_a_word_no_plugin_adds_is_refused() -> None:
    schemas = load_catalog(cache=False).schemas
    assert schemas is not None
    problems = schemas.check("card", {**MARKER, "abilities": MARKER["abilities"][1:2]})
    assert "'marked' is not a known state; did you mean 'damaged'?" in [message for _, message, _ in problems]


def test_a_word_may_not_redefine_a_built_in_one() -> None:
    class Bad:
        @hookimpl
        def riftscript_language(self) -> list[LanguageWord]:
            return [LanguageWord("filter", "stunned", lambda *a: True)]

    with pytest.raises(PluginError, match="built-in word"):
        load_catalog(load_plugins(extra=[Bad()]), cache=False)


def test_two_plugins_may_not_add_the_same_word() -> None:
    class Other:
        @hookimpl
        def riftscript_language(self) -> list[LanguageWord]:
            return [LanguageWord("state", MARK, lambda *a: False, plugin="other")]

    with pytest.raises(PluginError, match="two plugins"):
        load_catalog(load_plugins(extra=[Words(), Other()]), cache=False)


def test_a_plugin_step_on_itself_first_reads_as_part_of_the_cost(catalog: Any) -> None:
    """An ability usable only while its object has a state, whose first step is a plugin's primitive
    acting on that object, words that step before the cost; any other first step stays in the text."""
    ability = {"kind": "activated", "cost": {"energy": 1, "exhaust_self": True},
               "only_while": {"type": "is", "subject": "self", "state": MARK},
               "effect": {"type": "sequence", "steps": [{"type": "mark", "target": "self"},
                                                        {"type": "draw", "amount": 1}]}}
    card = {**MARKER, "abilities": [ability]}
    assert render_card(card, catalog) == "Mark me, {1}, {Exhaust}: Draw 1."
    built_in = {**ability, "effect": {"type": "sequence", "steps": [{"type": "stun", "target": "self"},
                                                                    {"type": "draw", "amount": 1}]}}
    assert render_card({**MARKER, "abilities": [built_in]}, catalog).startswith("{1}, {Exhaust}: Stun me")


def test_an_amount_word_counting_times_reads_per_time(catalog: Any) -> None:
    """A plugin amount 'the number of times {of_is} ...' words its subject ("I'm") and gives "for each time"."""
    static = {"kind": "static", "modifiers": [{"type": "might", "amount": {"type": "times_marked", "of": "self"}}]}
    text = render_card({**MARKER, "abilities": [static]}, catalog)
    assert text.startswith("I have +1 Might") and text.endswith("Might for each time I'm marked.")


def test_a_filter_word_that_is_a_phrase_follows_the_noun(catalog: Any) -> None:
    """A one-word state is an adjective ("a non-marked unit" above); a phrase comes after the noun."""
    kill = {"kind": "spell", "effect": {"type": "kill", "target": {"pick": "target", "what": "unit",
                                                                    "where": {"marked_by_you": True}}}}
    assert render_card({**MARKER, "type": "spell", "abilities": [kill]}, catalog) == "Kill a unit marked by you."


def test_a_filter_word_that_is_its_value_is_an_adjective(catalog: Any) -> None:
    """A filter word whose English is its value alone reads as an adjective ("a Red unit")."""
    kill = {"kind": "spell", "effect": {"type": "kill", "target": {"pick": "target", "what": "unit",
                                                                    "where": {"mark_colour": "red"}}}}
    assert render_card({**MARKER, "type": "spell", "abilities": [kill]}, catalog) == "Kill a Red unit."


def test_an_ordinal_amount_word_in_a_range_reads_the_ordinals(catalog: Any) -> None:
    """A plugin amount whose English names an ordinal ({nth}, {whose}) compared from 1 to 3 lists the ordinals:
    after a static ability's effect and in a replacement, "during your first, second, or third ..."."""
    def window(player: str, high: int) -> dict[str, Any]:
        left = {"type": "mark_round", "player": player}
        return {"type": "all", "of": [{"type": "compare", "left": left, "op": "ge", "right": 1},
                                      {"type": "compare", "left": left, "op": "le", "right": high}]}
    static = {"kind": "static", "while": window("you", 3),
              "modifiers": [{"type": "hook", "hook": "cant_be_played", "value": True}]}
    assert render_card({**MARKER, "abilities": [static]}, catalog) == \
        "I can't be played during your first, second, or third marking round."
    replacement = {"kind": "replacement", "replaces": {"event": "score"}, "if": window("event_player", 2),
                   "instead": {"type": "draw", "amount": 1, "player": "event_player"}}
    assert "would score 1 point from conquering or holding during their first or second marking round, " in \
        render_card({**MARKER, "abilities": [replacement]}, catalog)
    one = {"kind": "triggered", "when": {"event": MARK, "subject": "self"}, "effect": {"type": "draw", "amount": 1},
           "if": {"type": "compare", "left": {"type": "mark_round"}, "op": "eq", "right": 1}}
    assert render_card({**MARKER, "abilities": [one]}, catalog) == \
        "When I become marked, if it's your first marking round, draw 1."


def test_a_state_naming_the_events_object_reads_inside_the_trigger(catalog: Any) -> None:
    """A trigger on "a combat" ending whose condition starts with a state "in that combat" names the combat:
    "When a combat that I was in ends, ..."; the rest of the condition stays an "if"."""
    mine = {"type": "is", "subject": "self", "state": "in_marked_combat"}
    alone = {"kind": "triggered", "when": {"event": "combat_end"}, "if": mine, "effect": {"type": "draw", "amount": 1}}
    assert render_card({**MARKER, "abilities": [alone]}, catalog) == "When a combat that I was in ends, draw 1."
    both = {**alone, "if": {"type": "all", "of": [mine, {"type": "is", "subject": "self", "state": MARK}]}}
    assert render_card({**MARKER, "abilities": [both]}, catalog) == \
        "When a combat that I was in ends, if I'm marked, draw 1."


def test_one_object_a_filter_word_says_you_control_reads_you_control_it(catalog: Any) -> None:
    """A plugin filter worded "you control" (a battlefield, which has no controller key) in "if there is one"
    reads "if you control a battlefield ..." rather than "if there is a battlefield you control ..."."""
    held = {"type": "exists", "what": {"pick": "all", "what": "battlefield", "where": {"marked_and_mine": True}}}
    cheaper = {"kind": "static", "affects": "self", "while": held, "modifiers": [{"type": "cost", "energy": 2}]}
    assert render_card({**MARKER, "abilities": [cheaper]}, catalog) == \
        "If you control a battlefield, I cost {2} less."


def test_an_effect_inside_a_plugin_primitive_reads_as_its_english(catalog: Any) -> None:
    """A primitive's field whose schema is an effect is worded by that effect's English in the template."""
    ability = {"kind": "triggered", "when": {"event": MARK, "subject": "self"},
               "effect": {"type": "each_marker", "effect": {"type": "draw", "amount": 1}}}
    assert render_card({**MARKER, "abilities": [ability]}, catalog) == \
        "When I become marked, each player who marked a unit this turn does this: draw 1."


def test_an_event_no_player_makes_reads_alone(catalog: Any) -> None:
    """A plugin event with no ``active`` verb, in a trigger naming no subject or player, is its English alone."""
    ability = {"kind": "triggered", "when": {"event": "marks_fade", "here": True}, "effect": {"type": "draw", "amount": 1}}
    assert render_card({**MARKER, "abilities": [ability]}, catalog) == "When the marks fade here, draw 1."


def test_a_chosen_unit_of_one_kind_or_another_reads_thats(catalog: Any) -> None:
    """Alternatives that only add a phrase after the noun, under an adjective of the whole selection, read
    "a friendly unit that's marked by you or that's in a base" (not "friendly a unit marked by you or ...")."""
    target = {"pick": "target", "what": "unit",
              "where": {"controller": "friendly", "any_of": [{"marked_by_you": True}, {"location": "base"}]}}
    spell = {"kind": "triggered", "when": {"event": "conquer", "subject": "self"},
             "effect": {"type": "kill", "target": target}}
    assert render_card({**MARKER, "abilities": [spell]}, catalog) == \
        "When I conquer, kill a friendly unit that's marked by you or that's in a base."


def test_your_units_in_a_bracketed_plugin_state_read_that_are(catalog: Any) -> None:
    """A plugin filter worded like a keyword ("[Marked]") on all of your units reads after the noun:
    "Your units that are [Marked] have +1 Might"."""
    static = {"kind": "static", "affects": {"pick": "all", "what": "unit",
                                            "where": {"controller": "you", "bracket_marked": True}},
              "modifiers": [{"type": "might", "amount": 1}]}
    assert render_card({**MARKER, "abilities": [static]}, catalog) == "Your units that are [Marked] have +1 Might."
