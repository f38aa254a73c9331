"""The ``Renderer``: one card's English.  Its methods live in the modules named after the part of
the script they read (selectors, conditions, costs, triggers, effects, control, abilities, cards);
the class lists them all, so this file is the map."""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from riftscript.core.script.cards import CardDef
from riftscript.core.script.catalog import Catalog
from riftscript.tools.render import abilities, cards, conditions, control, costs, effects, selectors, triggers
from riftscript.tools.render.phrases import (NOUNS, Ctx, Node, Phrase, cap, end_sentence, installed_catalog,
                                             raw_script, safe)


class Renderer:
    """Renders one card's script; ``tokens`` gives token facts by lower-case name."""

    def __init__(self, card: Mapping[str, Any], catalog: Catalog | None = None, reminders: bool = False) -> None:
        self.card = card
        self.catalog = catalog
        self.reminders = reminders
        self.type = str(card.get("type", "unit"))
        domains = card.get("domains")
        self.domains = [str(d) for d in domains] if isinstance(domains, list) else []
        if self.type in ("unit", "legend"):
            self.base = Ctx(Phrase("I", person=1), "me", "my")
        else:
            self.base = Ctx(Phrase("this"), "this", "its", spell=self.type == "spell")

    def styled(self, template: str) -> bool:
        """Whether the card's set words ``template`` its own way (the set manifest's ``text_style``)."""
        catalog = self.catalog if self.catalog is not None else installed_catalog()
        info = catalog.sets.get(str(self.card.get("code", "")).split("-")[0]) if catalog is not None else None
        return info is not None and template in (info.manifest.get("text_style") or ())

    def from_hidden(self) -> str:
        """Played from a hidden card: ' from [Hidden]', or the later sets' ' from face down'."""
        return " from face down" if self.styled("from_face_down") else " from [Hidden]"

    @functools.cached_property
    def singles(self) -> dict[str, str]:
        """The names the card gives to selections of exactly one object (``as``), with their nouns."""
        found: dict[str, str] = {}
        plural: set[str] = set()

        def walk(node: Node) -> None:
            if isinstance(node, Mapping):
                name = node.get("as")
                if isinstance(name, str) and "pick" in node:
                    count = node.get("count", 1)
                    one = node.get("pick") in ("target", "choose", "random") and count == 1 \
                        and not node.get("any_number") and not node.get("up_to") and node.get("what") != "player"
                    where = node.get("where")
                    noun = "Equipment" if isinstance(where, Mapping) and where.get("tag") == "Equipment" else \
                        NOUNS.get(str(node.get("what")), (str(node.get("what")),))[0]
                    if one:
                        found[name] = noun
                    else:
                        plural.add(name)
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)
        walk(self.card.get("abilities"))
        walk(self.card.get("keywords"))
        return {k: v for k, v in found.items() if k not in plural}

    # costs.py
    power = costs.power
    resources = costs.resources
    cost_parts = costs.cost_parts
    pay = costs.pay

    # selectors.py
    ref = selectors.ref
    single_named = selectors.single_named
    paid_unit = selectors.paid_unit
    subject = selectors.subject
    obj = selectors.obj
    poss = selectors.poss
    is_plural = selectors.is_plural
    location = selectors.location
    at = selectors.at
    bound = selectors.bound
    filter_words = selectors.filter_words
    selection = selectors.selection
    player_selection = selectors.player_selection

    # conditions.py
    stat_phrases = conditions.stat_phrases
    amount = conditions.amount
    condition = conditions.condition
    whose = conditions.whose
    ordinal_window = conditions.ordinal_window
    event_name = conditions.event_name
    negated = conditions.negated
    exists = conditions.exists
    or_more = conditions.or_more
    there_are = conditions.there_are
    compare = conditions.compare
    history = conditions.history
    keyword_label = conditions.keyword_label

    # triggers.py
    trigger_parts = triggers.trigger_parts
    trigger = triggers.trigger
    would = triggers.would

    # effects.py
    clauses = effects.clauses
    plugin_effect = effects.plugin_effect
    text = effects.text
    join = effects.join
    chosen_by = effects.chosen_by
    simple = effects.simple
    e_kill = effects.e_kill
    e_stun = effects.e_stun
    e_buff = effects.e_buff
    e_ready = effects.e_ready
    e_exhaust = effects.e_exhaust
    e_heal = effects.e_heal
    e_recall = effects.e_recall
    e_banish = effects.e_banish
    e_counter = effects.e_counter
    e_reveal = effects.e_reveal
    e_detach = effects.e_detach
    e_recycle = effects.e_recycle
    e_spend_buff = effects.e_spend_buff
    e_return_to_hand = effects.e_return_to_hand
    e_take_control = effects.e_take_control
    e_deal_damage = effects.e_deal_damage
    e_mutual_damage = effects.e_mutual_damage
    e_modify_might = effects.e_modify_might
    given = effects.given
    duration = effects.duration
    keyword_use = effects.keyword_use
    e_grant_keyword = effects.e_grant_keyword
    destination = effects.destination
    e_move = effects.e_move
    player_actor = effects.player_actor
    player_clause = effects.player_clause
    e_draw = effects.e_draw
    e_discard = effects.e_discard
    e_channel = effects.e_channel
    e_add = effects.e_add
    e_ready_runes = effects.e_ready_runes
    e_create_token = effects.e_create_token
    token = effects.token
    keyword_name = effects.keyword_name
    e_gain_points = effects.e_gain_points
    e_gain_xp = effects.e_gain_xp
    rest_clause = effects.rest_clause
    e_look_at_top = effects.e_look_at_top
    e_predict = effects.e_predict
    e_reveal_until = effects.e_reveal_until
    e_put_in_hand = effects.e_put_in_hand
    e_put_in_zone = effects.e_put_in_zone
    e_play = effects.e_play
    e_mill = effects.e_mill
    e_prevent_damage = effects.e_prevent_damage
    e_extra_turn = effects.e_extra_turn
    e_win_game = effects.e_win_game
    e_turn_into_copy = effects.e_turn_into_copy
    e_attach = effects.e_attach
    e_hide = effects.e_hide
    e_reveal_hand = effects.e_reveal_hand
    e_swap_locations = effects.e_swap_locations
    e_select = effects.e_select
    e_trigger_abilities = effects.e_trigger_abilities
    e_keyword_effect = effects.e_keyword_effect
    e_record = effects.e_record

    # control.py
    e_sequence = control.e_sequence
    unless = control.unless
    e_if = control.e_if
    e_may = control.e_may
    e_choose_one = control.e_choose_one
    e_for_each = control.e_for_each
    e_for_each_player = control.e_for_each_player
    e_repeat = control.e_repeat
    e_choose_player = control.e_choose_player
    e_create_effect = control.e_create_effect
    lasting_static = control.lasting_static

    # abilities.py
    at_my_battlefield = abilities.at_my_battlefield
    static_subject = abilities.static_subject
    static_clauses = abilities.static_clauses
    first_played = abilities.first_played
    modifier = abilities.modifier
    cost_modifier = abilities.cost_modifier
    restriction = abilities.restriction
    hook = abilities.hook
    replacement_text = abilities.replacement_text
    labels = abilities.labels
    ability = abilities.ability
    superseded = abilities.superseded
    implied_trigger = abilities.implied_trigger
    triggered = abilities.triggered
    object_of_the_event = abilities.object_of_the_event
    reduction = abilities.reduction
    activated = abilities.activated
    paid_first = abilities.paid_first
    shared_only_while = abilities.shared_only_while
    additional_cost = abilities.additional_cost
    cost_effect = abilities.cost_effect

    # cards.py
    reminder = cards.reminder
    keyword_line = cards.keyword_line
    label_keywords = cards.label_keywords
    lines = cards.lines
    merged_statics = cards.merged_statics
    merged_triggers = cards.merged_triggers
    merged_replacements = cards.merged_replacements
    static_instead = cards.static_instead
    self_events = cards.self_events


def render_lines(card: CardDef | Mapping[str, Any], catalog: Catalog | None = None,
                 reminders: bool = False) -> list[str]:
    """The rendered text of a card, one line per keyword and ability."""
    return Renderer(raw_script(card), catalog, reminders).lines()


def render_card(card: CardDef | Mapping[str, Any], catalog: Catalog | None = None, reminders: bool = False) -> str:
    """English rules text of a card (a CardDef or a card script mapping), lines joined by newlines.

    ``catalog`` supplies token facts and keyword summaries (default: the installed catalog, loaded
    only when a token is created); ``reminders`` adds each keyword's summary in parentheses.
    """
    return "\n".join(render_lines(card, catalog, reminders))


def render_effect(effect: Mapping[str, Any], card_type: str = "spell", catalog: Catalog | None = None) -> str:
    """English text of one effect node, as on a card of ``card_type``."""
    renderer = Renderer({"type": card_type}, catalog)
    return safe(lambda e: end_sentence(cap(renderer.text(renderer.base, e))), effect)
