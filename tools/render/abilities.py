"""English for abilities: static abilities and their modifiers, cost modifiers, restrictions and
hooks, replacements, triggered and activated abilities, additional costs."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from riftscript.tools.render.phrases import (ZONES, Ctx, Node, Phrase, about_the_turn, article_for, attached_givers,
                                             cap, end_sentence, installed_catalog, is_int, keyword_display, mark,
                                             norm_kw, number_word, ordinal, same_subject, series, step_condition,
                                             plugin_word, state_word, string_leaves)

from riftscript.tools.render.conditions import at_battlefield_with, attacking_with_another

if TYPE_CHECKING:
    from riftscript.tools.render.renderer import Renderer


def at_my_battlefield(self: Renderer, body: Mapping[str, Any]) -> Mapping[str, Any]:
    """'While I'm at a battlefield, units here ...' said as 'units at my battlefield ...'."""
    if self.type != "unit" or body.get("while") != {"type": "is", "subject": "self", "state": "at_battlefield"}:
        return body

    def moved(sel: Node) -> Node:
        where = sel.get("where") if isinstance(sel, Mapping) else None
        if not isinstance(where, Mapping) or where.get("location") != "here":
            return None
        return {**sel, "where": {**where, "location": "my_battlefield"}}

    rest = {k: v for k, v in body.items() if k != "while"}
    aff = body.get("affects")
    if isinstance(aff, Mapping) and (aff.get("where") or {}).get("controller") == "you":
        return body  # a keyword given to my companions while I'm at a battlefield
    affects = moved(aff)
    if affects is not None:
        return {**rest, "affects": affects}
    modifiers = body.get("modifiers")
    if body.get("affects", "self") != "self" or not isinstance(modifiers, list):
        return body
    changed = []
    for mod in modifiers:
        amount = mod.get("amount") if isinstance(mod, Mapping) else None
        counted = moved(amount.get("of")) if isinstance(amount, Mapping) and amount.get("type") == "count" else None
        if counted is None or not isinstance(amount, Mapping) or mod.get("type") != "might":
            return body
        changed.append({**mod, "amount": {**amount, "of": counted}})
    return {**rest, "modifiers": changed}


def static_subject(self: Renderer, ctx: Ctx, affects: Node) -> Phrase:
    if affects == "self":
        return ctx.self_subj
    if affects == "you":
        return ctx.you()
    if isinstance(affects, Mapping) and affects.get("what") == "spell" and \
            isinstance(affects.get("where"), Mapping) and affects["where"].get("controller") == "friendly" \
            and len(affects["where"]) == 1:
        return Phrase(f"{ctx.your()} spells", plural=True)
    return self.subject(ctx, affects)


def static_clauses(self: Renderer, ctx: Ctx, body: Mapping[str, Any], subject: Phrase | None = None) -> list[str]:
    """The sentences of a static ability or lasting effect (no final period)."""
    body = self.at_my_battlefield(body)
    affects = body.get("affects", "self")
    first = self.first_played(ctx, body)
    if first is not None and subject is None:
        subject, body = first
    subj = subject or self.static_subject(ctx, affects)
    modifiers = body.get("modifiers")
    if not isinstance(modifiers, list):
        return [mark("static ability without modifiers")]
    sentences: list[str] = []
    keywords = [m for m in modifiers if isinstance(m, Mapping) and m.get("type") == "keyword"]
    abilities_of = [m for m in modifiers if isinstance(m, Mapping) and m.get("type") == "abilities_of"]
    done_keywords = False
    done_abilities = False
    for mod in modifiers:
        if not isinstance(mod, Mapping):
            sentences.append(mark(f"modifier {mod!r}"))
            continue
        kind = mod.get("type")
        if kind == "keyword":
            if done_keywords:
                continue
            done_keywords = True
            names = series([self.keyword_use(m.get("keyword"), m.get("value"), ctx) for m in keywords])
            text = f"{subj.text} {subj.verb('have')} {names}"
            givers = attached_givers(keywords)
            if givers is not None:
                # a keyword worth one for each attached thing: those things each give it
                shown = self.selection(ctx, givers, mode="bare").text
                text = f"{shown} each give {self.keyword_use(keywords[0].get('keyword'), None)}"
            if any(m.get("if_absent") for m in keywords):
                pron = "I" if subj.person == 1 else ("they" if subj.plural else "it")
                text += f" if {pron} didn't already"
            sentences.append(text)
        elif kind == "abilities_of":
            if done_abilities:
                continue
            done_abilities = True
            origins = [self.obj(ctx, m.get("what")) for m in abilities_of]
            origins = origins[:1] + [n[4:] if n.startswith("all ") else n for n in origins[1:]]
            sources = series(origins)
            sentences.append(f"{subj.text} {subj.verb('have')} all {{Exhaust}} abilities of {sources}")
        else:
            sentences.append(self.modifier(ctx, mod, subj, affects))
    cond = body.get("while")
    if cond is not None:
        moment = all(isinstance(m, Mapping) and (m.get("type") in ("enter_ready", "enter_exhausted") or
                                                 m.get("type") in ("cost", "ability_cost") and affects == "self")
                     for m in modifiers)
        not_in_hand = cond == {"type": "not", "of": {"type": "is", "subject": "self", "state": "in_hand"}}
        if not_in_hand and all(isinstance(m, Mapping) and m.get("type") == "cost" for m in modifiers):
            # a discount for plays from any zone but the hand (Void Drone)
            return [s + " to play from anywhere other than your hand" for s in sentences]
        what = cond.get("what") if isinstance(cond, Mapping) and cond.get("type") == "exists" else None
        own_units = isinstance(what, Mapping) and (what.get("what", "unit") == "unit" and (
            what.get("where") or {}).get("controller") in ("friendly", "you")
            or bool(what.get("zone")) and what.get("whose") == "you")  # or a card of yours in a zone
        if moment and own_units and all(isinstance(m, Mapping) and m.get("type") in ("enter_ready",
                                                                                      "enter_exhausted")
                                        for m in modifiers):
            return [f"{s} if {self.condition(ctx, cond)}" for s in sentences]  # "I enter ready if ..."
        if moment and affects == "self" and self.styled("cost_if_after") \
                and all(isinstance(m, Mapping) and m.get("type") in ("cost", "ability_cost") for m in modifiers):
            return [f"{s} if {self.condition(ctx, cond)}" for s in same_subject(sentences, subj.text)]
        if isinstance(cond, Mapping) and cond.get("type") == "not" and isinstance(cond.get("of"), Mapping) \
                and self.styled("unless") and not moment:
            # "I don't deal combat damage unless I'm at a battlefield ..."
            return [f"{s} unless {self.condition(ctx, cond['of'])}" for s in same_subject(sentences, subj.text)]
        if affects == "self" and not moment and (attacking_with_another(cond) or at_battlefield_with(cond)):
            # a condition about my company is said after what I have
            return [f"{s} while {self.condition(ctx, cond)}" for s in same_subject(sentences, subj.text)]
        window = self.ordinal_window(ctx, cond)
        if window is not None:
            return [f"{s} during {window}" for s in same_subject(sentences, subj.text)]  # "... during your first turn"
        # "If you've gained XP this turn, ...": a condition about the turn so far is an 'if'
        past = isinstance(cond, Mapping) and (cond.get("type") == "history" or about_the_turn(cond))
        prefix = f"{'if' if moment or past else 'while'} {self.condition(ctx, cond)}, "
        if self.type == "battlefield" and cond == {"type": "is", "subject": "self", "state": "in_showdown"}:
            prefix = "during showdowns here, "  # a battlefield's showdowns are the ones at it
        sentences = [prefix + s for s in same_subject(sentences, subj.text)]
    return same_subject(sentences, subj.text)


def first_played(self: Renderer, ctx: Ctx, body: Mapping[str, Any]) -> tuple[Phrase, Mapping[str, Any]] | None:
    """Cards in hand that cost less while no such card was played this turn: the first one played
    each turn costs less. (The subject, and the ability without that part of its condition.)"""
    cond = body.get("while")
    parts = cond.get("of") if isinstance(cond, Mapping) and cond.get("type") == "all" else [cond]
    affects = body.get("affects")
    modifiers = body.get("modifiers")
    if not isinstance(parts, list) or not isinstance(affects, Mapping) or affects.get("zone") != "hand" \
            or affects.get("pick") != "all" or not isinstance(modifiers, list) \
            or not all(isinstance(m, Mapping) and m.get("type") == "cost" for m in modifiers):
        return None
    where = affects.get("where") or {}
    for part in parts:
        past = part.get("of") if isinstance(part, Mapping) and part.get("type") == "not" else None
        if not isinstance(past, Mapping) or set(past) != {"type", "event", "player", "subject"} \
                or past.get("type") != "history" or past.get("event") != "played":
            continue
        played = past.get("subject")
        rest = {k: v for k, v in where.items() if k != "owner"} if isinstance(where, Mapping) else None
        player = past.get("player")
        if not isinstance(played, Mapping) or played.get("type") != affects.get("what") or rest is None \
                or {k: v for k, v in played.items() if k != "type"} != rest \
                or where.get("owner") != player or player not in ("friendly", "you"):
            continue
        adjs, noun, posts, late = self.filter_words(ctx, rest, str(affects.get("what")), False)
        if player == "friendly":
            words = ["the first", "friendly"] + adjs + [noun, "played"]
        else:
            words = ["the first"] + adjs + [noun, f"{ctx.you().text} play"]
        others = [p for p in parts if p is not part]
        left = {k: v for k, v in body.items() if k not in ("while", "affects")}
        if others:
            left["while"] = others[0] if len(others) == 1 else {"type": "all", "of": others}
        return Phrase(" ".join(words + posts + late + ["each turn"])), left
    return None


def modifier(self: Renderer, ctx: Ctx, mod: Mapping[str, Any], subj: Phrase, affects: Node) -> str:
    """One static modifier as a sentence about its subject."""
    kind = mod.get("type")
    if kind == "might":
        amount = self.amount(ctx, mod.get("amount", 0))
        sign = "-" if mod.get("negative") else "+"
        stat = isinstance(mod.get("amount"), Mapping) and mod["amount"].get("type") == "stat"
        if amount.num is not None and not stat:
            text = f"{subj.text} {subj.verb('have')} {sign}{amount.num} Might{amount.per}"
        else:
            own = "my" if subj.text == "I" else f"{subj.text}'s" if not subj.plural else "their"
            text = f"{cap(own) if own == 'my' else own} Might is {'decreased' if sign == '-' else 'increased'} " \
                   f"by {amount.equal}"
        if is_int(mod.get("minimum")):
            text += f", to a minimum of {mod['minimum']} Might"
        return text
    if kind == "cost":
        return self.cost_modifier(ctx, mod, subj)
    if kind == "enter_ready":
        return f"{subj.text} {subj.verb('enter')} ready"
    if kind == "enter_exhausted":
        return f"{subj.text} {subj.verb('enter')} exhausted"
    if kind == "restriction" and mod.get("restriction") == "cant_score_here":
        until = f" until their {ordinal(mod['before_turn'])} turn" if is_int(mod.get("before_turn")) else ""
        return f"{subj.text} can't score here{until}"
    if kind == "restriction":
        return self.restriction(ctx, str(mod.get("restriction")), subj)
    if kind == "play_location" and mod.get("location") == "only_battlefield_conquered_this_turn":
        return f"play {ctx.self_obj} only to a battlefield you conquered this turn"
    if kind == "play_location" and mod.get("location") == "battlefield_you_attack":
        return f"{ctx.self_subj.text} can be played to a battlefield you're attacking"
    if kind == "optional_cost_discount":
        which = f"[{keyword_display(str(mod['cost']))}] costs" if isinstance(mod.get("cost"), str) \
            else "optional additional costs you pay"
        less = self.resources(mod.get("energy"), None, ctx)
        if isinstance(mod.get("or_power"), list):
            less += " or " + self.power(mod["or_power"])
        return f"{which} cost {less} less"
    if kind == "ability_cost":
        which = f"[{keyword_display(str(mod['keyword']))}] costs of {subj.text}" if isinstance(mod.get("keyword"), str) \
            else f"activated abilities of {subj.text}"
        verb = "cost"
        if isinstance(mod.get("keyword"), str) and affects == "self":  # "my [Empower] ability costs {3} less"
            which, verb = f"{ctx.self_poss} [{keyword_display(str(mod['keyword']))}] ability", "costs"
        change = self.resources(mod.get("energy"), mod.get("power") if isinstance(mod.get("power"), list) else None, ctx)
        if isinstance(mod.get("or_power"), list):
            change += " or " + self.power(mod["or_power"])
        return f"{which} {verb} {change} {'more' if mod.get('increase') else 'less'}"
    if kind == "copy_text":
        return f"as {ctx.self_obj} is attached to a unit, copy that unit's text to {ctx.self_poss} effect text " \
               f"for as long as {ctx.self_obj} is attached to it"
    if kind == "play_location" and mod.get("location") == "battlefield_with_lone_enemy":
        who = f"{ctx.self_subj.text} can" if subj.text in ("I", "this") else f"{subj.text} can"
        return f"{who} be played to an occupied battlefield if an enemy unit is alone there"
    if kind == "play_from":
        cost = ", ".join(self.cost_parts(ctx, mod.get("cost") or {}, symbols=True)) or "{0}"
        zone = ZONES.get(str(mod.get("zone")), str(mod.get("zone")))
        what = ctx.self_obj if subj.text in ('I', 'this') else subj.text
        if "cost" not in mod:
            return f"you may play {what.removesuffix(' in your ' + zone)} from your {zone}"
        return f"you may play {what} from your {zone} for {cost.replace(', ', '')}"
    if kind == "show_facedown":
        return f"you can look at {self.poss(ctx, affects)} facedown cards"
    if kind == "damage_taken":
        times = mod.get("times", 2)
        how = "double" if times == 2 else f"multiply by {times}"
        return f"{how} all damage that would be dealt to {subj.text}"
    if kind == "play_location" and mod.get("location") == "here":
        if not isinstance(mod.get("cost"), Mapping) or not isinstance(affects, Mapping):
            return f"you may play {ctx.self_obj} here" if subj.text in ("I", "this") else f"{subj.text} may be played here"
        # a battlefield's optional cost for playing the units it affects there
        where_node = affects.get("where")
        found: Mapping[str, Any] = where_node if isinstance(where_node, Mapping) else {}
        adjs, noun, posts, _ = self.filter_words(ctx, found, str(affects.get("what", "unit")), False)
        if noun == "unit" and set(found) == {"tag"}:
            adjs, noun = [], str(found["tag"])  # "a Poro": the tag is the noun
        one = " ".join(adjs + [noun] + posts)
        return f"any player may {self.pay(ctx, mod['cost'])} as an additional cost to play {article_for(one)} " \
               f"{one}. If they do, it's played here"
    if kind == "play_location":
        where = {"open_battlefield": "an open battlefield", "occupied_enemy_battlefield":
                 "an occupied enemy battlefield", "battlefield_with_own_units":
                 "a battlefield where you control units", "any_battlefield": "any battlefield"}.get(
            str(mod.get("location")), mark(f"location {mod.get('location')!r}"))
        if subj.text in ("I", "this"):
            return f"you may play {ctx.self_obj} to {where}"
        plural_where = where.replace("an open battlefield", "open battlefields")
        return f"{subj.text} may be played to {plural_where if subj.plural else where}"
    if kind == "bonus_damage":
        amount = mod.get("amount", 1)
        if mod.get("to_units_here"):
            return f"spells and abilities deal {amount} Bonus Damage to units here"
        if subj.text in ("you", "they"):
            return f"{ctx.your()} spells and abilities deal {amount} Bonus Damage"
        return f"{subj.text} {subj.verb('deal')} {amount} Bonus Damage"
    if kind == "prevent_damage":
        if mod.get("from") == "spell_or_ability":
            return f"prevent all spell and ability damage to {self.obj(ctx, affects)}"
        if mod.get("from") == "enemy_spell_or_ability":
            return f"prevent all damage that enemy spells and abilities would deal to {self.obj(ctx, affects)}"
        return f"{subj.text} {subj.verb('do')}n't take damage"
    if kind == "extra_trigger" and "event" in mod:
        event = str(mod["event"])
        doing = {"conquer": "conquering", "hold": "holding"}.get(event, event)
        here = " here" if mod.get("here") else ""
        return f"{ctx.your()} {event} effects for {doing}{here} trigger an additional time"
    if kind == "extra_trigger":
        kw = self.keyword_use(mod.get("keyword"), None)
        return f"{ctx.your()} {kw} effects trigger an additional time"
    if kind == "victory_score":
        amount = mod.get("amount", 1)
        return f"increase the points needed to win the game by {amount}"
    if kind == "buff_limit":
        amount = mod.get("amount", 1)
        if is_int(amount) and amount >= 99:
            return f"{subj.text} can have any number of buffs"
        return f"{subj.text} can have up to {number_word(amount) if is_int(amount) else amount} " \
               f"buff{'' if amount == 1 else 's'}"
    if kind == "buff_bonus":
        whom = self.obj(ctx, affects) if isinstance(affects, str) else subj.text
        return f"buffs give an additional +{mod.get('amount', 1)} Might to {whom}"
    if kind == "hide_cost":
        cost = self.pay(ctx, mod.get("cost"))
        if mod.get("optional"):
            return f"{ctx.you().text} may {cost} to hide a card with [Hidden] instead of {{Any}}"
        return f"to hide cards, {ctx.you().text} {cost} instead of {{Any}}"
    if kind == "hook":
        return self.hook(ctx, mod, subj)
    if kind == "grant_ability" and isinstance(mod.get("ability"), Mapping):
        # the quoted ability speaks as the object that has it ("Ready me")
        speaker = replace(ctx, self_subj=Phrase("I", person=1), self_obj="me", self_poss="my")
        return f'{subj.text} {subj.verb("have")} "{self.activated(speaker, mod["ability"], [])}"'
    return mark(f"modifier type {kind!r}")


def cost_modifier(self: Renderer, ctx: Ctx, mod: Mapping[str, Any], subj: Phrase) -> str:
    more = "more" if mod.get("increase") else "less"
    energy = mod.get("energy")
    power = mod.get("power")
    parts = []
    if energy is not None:
        amount = self.amount(ctx, energy)
        if amount.num is not None:
            parts.append("{" + amount.num + "}" + f" {more}{amount.per}")
        else:
            poss = "this spell's" if subj.text == "this" and self.type == "spell" else (
                "my" if subj.text == "I" else f"{subj.text}'s")
            verb = "increased" if more == "more" else "reduced"
            text = f"{poss} Energy cost is {verb} by {amount.equal}"
            if is_int(mod.get("minimum")):
                text += ", to a minimum of {" + str(mod["minimum"]) + "}"
            return text
    if power:
        times = self.amount(ctx, mod["power_times"]) if "power_times" in mod else None
        per = times.per if times is not None else ""
        if parts and per and parts[0].endswith(f" {more}{per}"):  # "{2}{Calm} less for each point ..."
            parts[0] = parts[0].split(" ", 1)[0] + f"{self.power(power)} {more}{per}"
        elif parts and not per and parts[0].endswith(f" {more}") and "power_times" not in mod:
            parts[0] = parts[0].split(" ", 1)[0] + f"{self.power(power)} {more}"  # "I cost {2}{Calm} less"
        else:
            parts.append(f"{self.power(power)} {more}{per}")
    if isinstance(mod.get("or_power"), list) and parts:
        parts[0] = parts[0].replace(f" {more}", f" or {self.power(mod['or_power'])} {more}", 1)
    if mod.get("ignore_energy"):
        return f"{subj.text} {subj.verb('cost')} nothing in Energy (ignoring {'their' if subj.plural else 'its'} " \
               "Energy cost; the Power cost is still paid)"
    if not parts:
        return mark("cost modifier without energy or power")
    chooses = mod.get("if_chooses")
    if isinstance(chooses, Mapping) and subj.text in ("this", "I") and chooses.get("pick") == "all":
        # a cost cut when the card chooses certain objects: "this costs {N} less if you choose <selection>"
        sel = {k: v for k, v in chooses.items() if k != "zone"}
        return f"{subj.text} {subj.verb('cost')} " + " and ".join(parts) + \
            f" if you choose {self.obj(ctx, {**sel, 'pick': 'target'})}"
    if isinstance(chooses, Mapping) and chooses.get("pick") == "all":
        chosen = self.obj(ctx, chooses)
        subj = Phrase(f"{subj.text} that choose one or more {chosen.removeprefix('all ')}", plural=True)
    elif "if_chooses" in mod:
        subj = Phrase(f"{subj.text} that choose {self.obj(ctx, mod['if_chooses'])}", plural=True)
    if subj.plural and energy is not None and not power and parts and "if_chooses" not in mod \
            and "or_power" not in mod and is_int(mod.get("minimum")) and not self.styled("cost_less_to_minimum"):
        amount = self.amount(ctx, energy)
        owner = subj.text + ("'" if subj.text.endswith("s") else "'s")
        verb = "increased" if more == "more" else "reduced"
        text = f"{owner} Energy costs are {verb} by {{{amount.num}}}{amount.per}"
    else:
        text = f"{subj.text} {subj.verb('cost')} " + " and ".join(parts)
    if is_int(mod.get("minimum")):
        text += ", to a minimum of {" + str(mod["minimum"]) + "}"
    return text


def restriction(self: Renderer, ctx: Ctx, name: str, subj: Phrase) -> str:
    table = {
        "opponents_units_only_to_base": "opponents can only play units to their base",
        "cant_ready_enemy": "spells and abilities can't ready enemy units and gear",
        "cant_move_to_base": (f"{subj.text[:-5]} can't move from here to base" if subj.text.endswith(" here")
                              else f"{subj.text} can't move to base"),
        "opponents_cant_play": "opponents can't play cards",
        "hidden_cant_be_revealed": f"{subj.text} can't be revealed",
        "no_move": f"{subj.text} can't move",
        "cant_gain_points": f"{subj.text} can't gain points",
        "no_units_played_here": "units can't be played here",
        "cant_be_readied": f"{subj.text} can't be readied",
        "cant_play_spells": f"{subj.text} can't play spells",
        "skip_draw_phase": f"{'skip your' if subj.text == 'you' else subj.text + ' skip their'} Draw Phase",
        "banish_instead_of_trash": f"if a card would go to {'your' if subj.text == 'you' else subj.text + chr(39) + 's'} "
                                   "trash from anywhere other than a Main Deck, banish it instead",
    }
    return table.get(name, mark(f"restriction {name!r}"))


def hook(self: Renderer, ctx: Ctx, mod: Mapping[str, Any], subj: Phrase) -> str:
    hook, value = str(mod.get("hook")), mod.get("value")
    if hook == "damage_assignment":
        return f"{subj.text} must be assigned combat damage {'first' if value == 'first' else 'last'}"
    if hook == "ignore_damage_assignment":
        return f"you ignore [{'Tank' if value == 'first' else 'Backline'}] while assigning combat damage here"
    if hook == "timing":
        return f"{subj.text} {subj.verb('have')} [{str(value).capitalize()}]"
    if hook == "standard_move":
        return f"{subj.text} can move from battlefield to battlefield"
    if hook == "targeting_tax":
        return f"opponents must pay {{Any}} x{value} more to choose {ctx.self_obj} with a spell or ability"
    if hook == "hide":
        return f"{subj.text} can be hidden"
    if hook == "reaction_when_played_to":
        return f"{subj.text} can be played with Reaction timing to a battlefield where you control units"
    if hook == "stays_at_battlefield":
        return f"{subj.text} {subj.verb('stay')} at its battlefield"
    if hook == "look_before_reveal":
        return "before you reveal cards from your deck, you may look at its top card and recycle it"
    if hook == "add_when_revealed":
        return f"as {ctx.self_obj} is revealed from your deck, [Add] {{{value}}}"
    if hook == "equipment_bonus_times":
        times = "double" if value == 2 else f"{value} times"
        return f"each Equipment attached to {ctx.self_obj} gives {times} its base Might bonus"
    if hook == "tag":
        return f"{subj.text} {subj.verb('be')} {article_for(str(value))} {value}"
    if hook == "chosen_by":
        return f"{subj.text} can't be chosen by enemy spells and abilities"
    if hook == "extra_might_loss":
        return f"if a spell or ability you control would give -Might to a unit it chooses, it gives an additional " \
               f"-{value} Might"
    if hook == "channel_limit":
        n = int(value) if is_int(value) else 1
        return f"players only channel {n} rune{'' if n == 1 else 's'} at the start of their Channel Phase"
    if hook == "moved_by":
        return f"{subj.text} can't be moved by enemy spells and abilities"
    if hook == "event_alias":
        events = str(value).split()
        if len(events) == 2:
            return f"{ctx.self_poss} {events[1]} effects are also {events[0]} effects, and vice versa"
        return f"{ctx.self_poss} {' and '.join(events)} effects are also each other's"
    if hook == "add_energy":
        return f"{subj.text} [Add] an additional {{{value}}}"
    if hook == "combat_damage":
        return f"{subj.text} {subj.verb('do')}n't deal combat damage" if value == "none" else \
            f"{subj.text} {subj.verb('deal')} {value} combat damage"
    if hook == "move_tax":
        each = "{Any}" if value == 1 else "{Any}" * int(value) if is_int(value) else "{Any}"
        return f"opponents must pay {each} for each unit beyond the first to move multiple units to " \
               f"{ctx.self_poss} battlefield at the same time"
    if hook == "any_damage_lethal":
        return f"any amount of your damage is enough to kill {subj.text}"
    if hook == "keyword_doesnt_trigger":
        where = " at my battlefield" if subj.text.endswith(" here") or "here" in subj.text else ""
        return f"your [{keyword_display(str(value))}] effects{where} don't trigger"
    if hook == "move_here_from":
        return "units can move here from anywhere"
    if hook == "named_tag":
        return f"{subj.text} named the {value} tag"
    if hook == "replaced_battlefield":
        return f"{subj.text} replaced another battlefield"
    if hook == "extra_hidden_cards":
        n = value if is_int(value) else 1
        return "you may hide an additional card here" if n == 1 else f"you may hide {n} additional cards here"
    if hook == "cant_be_countered":
        if value == "controller":
            return f"{ctx.your()} spells and abilities can't be countered"
        return f"{subj.text} can't be countered"
    if hook == "cant_be_played":
        if subj.plural and subj.text.startswith("enemy "):
            return f"opponents can't play {subj.text.removeprefix('enemy ')}"  # the players who would play them
        return f"{subj.text} can't be played"
    if hook == "ignore_targeting_tax":
        if ctx.spell:
            return "[Deflect] adds nothing to this spell's cost"
        return "[Deflect] adds nothing to the cost of spells and abilities choosing something here"
    word = plugin_word("hook", hook)
    if word is not None and word.text:
        return word.text.format(subject=subj.text, value=value)
    return mark(f"hook {hook}={value!r}")


def replacement_text(self: Renderer, ctx: Ctx, body: Mapping[str, Any], head: str) -> str:
    window = self.ordinal_window(ctx, body.get("if"))
    if window is not None:
        head += f" during {window}"  # "If a player would score ... during their first or second turn"
    elif "if" in body:
        head += f" and {self.condition(ctx, body['if'])}"
    instead = self.text(ctx, body.get("instead"))
    cost = body.get("cost")
    who = "its controller" if body.get("controlled_by") == "its_controller" else "you"
    if cost:
        action = f"{self.pay(ctx.base_verbs(), cost)} to {instead}"
        action = f"{who} may {action}" if body.get("optional") else action
    else:
        action = f"you may {instead}" if body.get("optional") else instead
    return f"{head}, {action} instead"


def labels(self: Renderer, ability: Mapping[str, Any]) -> list[str]:
    out = []
    cond = step_condition(ability.get("condition"))
    label = ability.get("keyword")
    if isinstance(cond, Mapping) and cond.get("type") == "keyword":
        out.append(self.keyword_label(cond))
        if isinstance(label, str) and ability.get("kind") == "triggered" and self.implied_trigger(ability):
            out.append(f"[{keyword_display(label)}]")  # its keyword says when: "[Empowered], [Deathknell] — ..."
    elif isinstance(label, str):
        out.append(f"[{keyword_display(label)}]")
    return out


def ability(self: Renderer, ability: Node, head: str = "") -> str:
    """One ability as a line of text (``head``: a trigger text to use instead of its own)."""
    if not isinstance(ability, Mapping):
        return mark(f"ability {ability!r}")
    kind = ability.get("kind")
    ctx = self.base
    labels = self.labels(ability)
    label = ability.get("keyword")
    for key in ("while", "only_while"):
        said = ability.get(key)
        if isinstance(label, str) and isinstance(said, Mapping) and said.get("type") == "keyword" \
                and set(said) == {"type", "keyword"} and norm_kw(str(said["keyword"])) == norm_kw(label):
            ability = {k: v for k, v in ability.items() if k != key}  # "[Empowered] — ...": the label says it
    cond = step_condition(ability.get("condition"))
    prefix = ""
    if isinstance(cond, Mapping) and cond.get("type") != "keyword":
        prefix = f"While {self.condition(ctx, cond)}: "
    if kind == "spell":
        text = end_sentence(cap(self.text(ctx, ability.get("effect"))))
    elif kind == "triggered" and not head and self.implied_trigger(ability):
        # "[Deathknell] — Draw 1.": the keyword's label says when (808)
        cond = f"if {self.condition(ctx, ability['if'])}, " if "if" in ability else ""
        effect = self.text(ctx, ability.get("effect"))
        text = end_sentence(cap(cond + (f"you may {effect}" if ability.get("optional") else effect)))
    elif kind == "triggered":
        text = self.triggered(ctx, ability, head)
    elif kind == "activated":
        return prefix + self.activated(ctx, ability, labels)
    elif kind == "static":
        text = end_sentence(". ".join(cap(s) for s in self.static_clauses(ctx, ability)))
        mods = ability.get("modifiers")
        if prefix and ability.get("affects", "self") == "self" and self.type == "unit" \
                and cond == {"type": "is", "subject": "self", "state": "at_battlefield"} \
                and isinstance(mods, list) and all(isinstance(m, Mapping) and m.get("type") == "enter_ready"
                                                   for m in mods):
            rest = text if text.startswith("I ") else text[0].lower() + text[1:]
            text, prefix = f"If you play {ctx.self_obj} to a battlefield, {rest}", ""
    elif kind == "replacement":
        head = head or "If " + self.would(ctx, ability.get("replaces"))
        text = end_sentence(cap(self.replacement_text(ctx, ability, head)))
    elif kind == "additional_cost":
        text = self.additional_cost(ctx, ability)
        if prefix:  # "If you've played a spell this turn, you may pay {Chaos} as an additional cost ..."
            text, prefix = f"If {self.condition(ctx, cond)}, {text[0].lower()}{text[1:]}", ""
    else:
        text = mark(f"unknown ability kind {kind!r}")
    if isinstance(cond, Mapping) and cond.get("type") == "keyword" and self.superseded(cond) \
            and text.endswith("."):
        text = text[:-1] + " instead."  # "[Level 6] — I cost {4} less instead." (a lower level's step ends)
    if labels:
        text = ", ".join(labels) + " — " + text
    return prefix + text


def superseded(self: Renderer, cond: Mapping[str, Any]) -> bool:
    """Whether another ability of the card holds only until this keyword condition holds (a step of
    a [Level] ladder: "[Level 3] ... [Level 6] ... instead")."""
    for other in self.card.get("abilities") or []:
        step = other.get("condition") if isinstance(other, Mapping) else None
        if isinstance(step, Mapping) and step.get("type") == "all" and step_condition(step) is not step \
                and {"type": "not", "of": dict(cond)} in step.get("of", []):
            return True
    return False


def implied_trigger(self: Renderer, ability: Mapping[str, Any]) -> bool:
    """Whether a labelled triggered ability's trigger is its keyword's own (Deathknell: 'when I die')."""
    label = ability.get("keyword")
    catalog = self.catalog if self.catalog is not None else installed_catalog()
    kw = catalog.keywords.get(norm_kw(label)) if isinstance(label, str) and catalog is not None else None
    return kw is not None and any(isinstance(a, Mapping) and a.get("kind") == "triggered"
                                  and a.get("when") == ability.get("when") for a in kw.abilities)


def triggered(self: Renderer, ctx: Ctx, ability: Mapping[str, Any], head: str = "") -> str:
    t = ability.get("when")
    zone = t.get("from_zone") if isinstance(t, Mapping) and t.get("event") != "discard" else None
    inner = replace(ctx, zone=str(zone)) if isinstance(zone, str) else ctx
    if isinstance(t, Mapping) and t.get("to_battlefield"):
        inner = replace(inner, destination="that battlefield")
    if not head and isinstance(t, Mapping) and t.get("event") in ("attack", "defend") and t.get("player") \
            and "subject" not in t and not t.get("here") and "event_location" in string_leaves(ability.get("effect")):
        # the battlefield of a player's attack or defence, used by the effect: named in the trigger
        head = self.trigger(inner, t) + " at a battlefield"
        inner = replace(inner, event_there=True)
    head = head or self.trigger(inner, t)
    if isinstance(t, Mapping) and t.get("controlled_by") == "event_player":
        inner = replace(inner, they=True)  # the acting player controls it: "they may give a unit they control"
    cond = f"if {self.condition(inner, ability['if'])}, " if "if" in ability else ""
    head, cond = self.object_of_the_event(inner, ability.get("if"), head, cond)
    left = ability["if"].get("left") if isinstance(ability.get("if"), Mapping) else None
    if isinstance(left, Mapping) and left.get("type") == "variable" and set(left) == {"type", "name"}:
        inner = replace(inner, said=str(left["name"]))  # a later "deal that much" refers back to it
    if ability.get("if") == {"type": "showdown"}:
        head, cond = f"{head} during a showdown", ""  # "When you play a unit during a showdown, ..."
    if ability.get("if") == {"type": "is", "subject": "self", "state": "controlled"}:
        # "While you control this battlefield, when you play a spell, ..."
        head, cond = f"While {self.condition(inner, ability['if'])}, {head[0].lower()}{head[1:]}", ""
    if cond and isinstance(t, Mapping) and t.get("event") == "phase_start" and head.startswith("At the start") \
            and self.styled("condition_first"):
        # "If <condition> at the start of <phase>, ..." (the condition before the moment)
        head, cond = f"If {cond[3:-2]} a{head[1:]}", ""
    effect = self.text(inner, ability.get("effect"))
    if ability.get("optional"):
        effect = f"{inner.you().text} may {effect}"
    text = end_sentence(f"{head}, {cond}{effect}")
    if ability.get("once_per_turn"):
        text = "Once each turn, " + (text if text.startswith(("I ", "I'")) else text[0].lower() + text[1:])
    return text


def object_of_the_event(self: Renderer, ctx: Ctx, cond: Node, head: str, said: str) -> tuple[str, str]:
    """A trigger on "a combat" ending whose condition is first that I'm "in that combat" (a state of my own
    whose English names the event's noun) reads "When a combat that I was in ends, ..." (the rest of the
    condition, if any, stays an "if")."""
    parts = cond.get("of") if isinstance(cond, Mapping) and cond.get("type") == "all" else [cond]
    first = parts[0] if isinstance(parts, list) and parts else None
    if not isinstance(first, Mapping) or set(first) != {"type", "subject", "state"} or first["type"] != "is" \
            or first["subject"] != "self":
        return head, said
    state = state_word(str(first["state"]))
    match = re.fullmatch(r"When (an?) (\w+) (\w+)", head)
    if not state.startswith("in that ") or match is None or state.removeprefix("in that ") != match.group(2):
        return head, said
    rest = parts[1:] if isinstance(parts, list) else []
    head = f"When {match.group(1)} {match.group(2)} that {ctx.self_subj.text} was in {match.group(3)}"
    if not rest:
        return head, ""
    return head, f"if {self.condition(ctx, rest[0] if len(rest) == 1 else {**cond, 'of': rest})}, "


def reduction(self: Renderer, ctx: Ctx, cost: Node) -> tuple[Node, str]:
    """An ability cost whose Energy shrinks ({4} minus 1 for each ...): the cost as printed and
    the sentence that says how it shrinks ("This ability costs {1} less for each ...")."""
    energy = cost.get("energy") if isinstance(cost, Mapping) else None
    if not isinstance(energy, Mapping) or not is_int(energy.get("times")) or energy["times"] >= 0 \
            or not is_int(energy.get("plus")) or energy["plus"] <= 0:
        return cost, ""
    assert isinstance(cost, Mapping)
    less = self.amount(ctx, {k: v for k, v in energy.items() if k not in ("times", "plus")})
    step = -int(energy["times"])
    if less.per and less.num is not None:
        note = f"This ability costs {{{step}}} less{less.per}."
    else:
        note = f"This ability's Energy cost is reduced by {('twice ' if step == 2 else '') + less.equal}."
    return {**cost, "energy": energy["plus"]}, note


def paid_first(self: Renderer, ability: Mapping[str, Any]) -> tuple[Node, Node] | None:
    """An ability usable only while its object has a state, whose instructions begin by having a plugin's
    primitive act on that object (a status it ends): that step reads as part of the cost, before it
    ("Disempower me, {1}, {Exhaust}: Draw 1.").  (the step, the rest of the instructions), else None."""
    cond, effect = ability.get("only_while"), ability.get("effect")
    if not isinstance(cond, Mapping) or set(cond) != {"type", "subject", "state"} or cond.get("type") != "is" \
            or cond.get("subject") != "self" or not isinstance(effect, Mapping) or effect.get("type") != "sequence":
        return None
    steps = effect.get("steps")
    if not isinstance(steps, list) or len(steps) < 2 or not isinstance(steps[0], Mapping) \
            or set(steps[0]) != {"type", "target"} or steps[0].get("target") != "self":
        return None
    kind = str(steps[0]["type"])
    catalog = self.catalog if self.catalog is not None else installed_catalog()
    etype = catalog.effect_types.get(kind) if catalog is not None else None
    if etype is None or not etype.text or getattr(self, f"e_{kind}", None) is not None:
        return None  # a built-in primitive (worded by the renderer's own method) stays in the text
    rest = steps[1] if len(steps) == 2 else {**effect, "steps": steps[1:]}
    return steps[0], rest


def activated(self: Renderer, ctx: Ctx, ability: Mapping[str, Any], labels: list[str]) -> str:
    cost, note = self.reduction(ctx, ability.get("cost") or {})
    parts = self.cost_parts(ctx, cost, symbols=True)
    paid = self.paid_first(ability)
    if paid is not None:
        parts = [cap(self.text(ctx, paid[0]))] + parts
        ability = {k: v for k, v in ability.items() if k != "only_while"} | {"effect": paid[1]}
    head = ", ".join(parts) if parts else "{0}"
    timing = ability.get("timing")
    tags = ([f"[{str(timing).capitalize()}]"] if timing in ("action", "reaction") else []) + labels
    effect = end_sentence(cap(self.text(ctx, ability.get("effect"))))
    if tags and self.styled("labels_before_cost"):  # "[Level 6] — [Reaction] — {Exhaust}: ..."
        head = " — ".join(labels + tags[:len(tags) - len(labels)]) + " — " + head
    elif tags:
        effect = ", ".join(tags) + " — " + effect
    extra = [note] if note else []
    short = self.styled("use_only")
    if "only_while" in ability and ability["only_while"] != self.shared_only_while():
        cond = ability["only_while"]
        # a condition about what happened this turn is an "if", a state is a "while"
        word = "if" if short and isinstance(cond, Mapping) and cond.get("type") == "history" else "while"
        extra.append(f"Use {'' if short else 'this ability '}only {word} {self.condition(ctx, cond)}.")
    if ability.get("once_per_turn"):
        extra.append("Use only once per turn." if short else "Use this ability only once each turn.")
    return " ".join([f"{head}: {effect}"] + extra)


def shared_only_while(self: Renderer) -> Node:
    """The condition every activated ability of the card is limited by, when it has two or more
    and they share it: said once for all of them, after the last, else None."""
    activated = [a for a in self.card.get("abilities") or []
                 if isinstance(a, Mapping) and a.get("kind") == "activated"]
    conds = [a.get("only_while") for a in activated]
    if len(conds) < 2 or conds[0] is None or any(c != conds[0] for c in conds):
        return None
    return conds[0]


def additional_cost(self: Renderer, ctx: Ctx, ability: Mapping[str, Any]) -> str:
    cost = ability.get("cost")
    pay = self.pay(ctx, cost)
    what = "this" if self.type == "spell" else ctx.self_obj
    if not ability.get("optional"):
        return f"As an additional cost to play {what}, {pay}."
    eoc = ability.get("effect_on_cost")
    if eoc == {"ignore_cost": True} and isinstance(cost, Mapping) and set(cost) <= {"energy", "power"}:
        return f"You may play {what} for {''.join(self.cost_parts(ctx, cost, symbols=True))}."
    if self.styled("additional_cost_to_play"):
        text = f"You may {pay} as an additional cost to play {what}."
    else:
        text = f"As you play {what}, you may {pay} as an additional cost."
    eoc = ability.get("effect_on_cost")
    if isinstance(eoc, Mapping) and eoc:
        text += f" If you do, {self.cost_effect(ctx, eoc, cost)}."
    return text


def cost_effect(self: Renderer, ctx: Ctx, eoc: Mapping[str, Any], cost: Node) -> str:
    parts = []
    mine = "this spell's" if self.type == "spell" else ctx.self_poss
    per = ""
    if eoc.get("per_unit") and isinstance(cost, Mapping):
        per = " for each buff you spend" if "spend_buff" in cost else " for each unit killed this way"
    less = self.styled("additional_cost_to_play")
    for key, amount in (("reduce_energy", "energy"), ("reduce_power", "power")):
        if not eoc.get(key):
            continue
        shown = self.resources(eoc[key], None, ctx) if amount == "energy" else self.power(eoc[key])
        if less:
            subj = "this" if self.type == "spell" else ctx.self_subj.text
            parts.append(f"{subj} {'costs' if subj == 'this' else 'cost'} {shown} less{per}")
        else:
            parts.append(f"reduce {mine} cost by {shown}{per}")
    if eoc.get("reduce_by_killed_cost"):
        subj = "this" if self.type == "spell" else ctx.self_subj.text
        parts.append(f"{subj} {'costs' if subj == 'this' else 'cost'} {{1}} less for each Energy it costs and "
                     f"{self.power(eoc['reduce_by_killed_cost'])} less for each Power it costs")
    if eoc.get("ignore_cost"):
        parts.append(f"ignore {mine} cost")
    if eoc.get("enter_ready"):
        parts.append(f"{ctx.self_subj.text} {ctx.self_subj.verb('enter')} ready")
    return series(parts) or mark("additional cost without effect")
