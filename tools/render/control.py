"""English for the control effects: sequences, if, may, choose one, for each, repeat, and created
lasting effects."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from riftscript.tools.render.phrases import (Clause, Ctx, Node, Phrase, cap, chosen_inline, did_kill_after_kill,
                                             end_sentence, granted_tag, hoist_named_locations, is_int, is_unless,
                                             keywords_only, mark, merge_gives, merge_grants, number_word, series,
                                             third_singular, type_cases)

if TYPE_CHECKING:
    from riftscript.tools.render.renderer import Renderer


def e_sequence(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    steps = eff.get("steps")
    if not isinstance(steps, list):
        return [Clause(mark("sequence without steps"))]
    out: list[Clause] = []
    steps = merge_grants(steps)
    i = 0
    while i < len(steps):
        same = 1
        while i + same < len(steps) and steps[i + same] == steps[i]:
            same += 1
        typed = type_cases(steps[i:])
        if len(typed) >= 2:
            # "Then, do the following based on its type: • Spell — Draw 1. • Gear — ..."
            cases = "".join(f"\n• {what.capitalize()} — {end_sentence(cap(self.text(ctx, then)))}" for what, then in typed)
            out.append(Clause(f"do the following based on {self.poss(ctx, steps[i]['condition']['what']['among'])}"
                              f" type:{cases}", subject=True))
            i += len(typed)
            continue
        if same >= 3:
            once = self.clauses(ctx, steps[i])
            once[-1] = replace(once[-1], text=once[-1].text + f" ({number_word(same)} times)", verb="")
            out += once
        elif is_unless(steps[i:]):
            # "X unless its controller pays N": another player's "may", then X if they didn't
            out += self.unless(ctx, steps[i], steps[i + 1])
            i += 2
            continue
        else:
            for k, step in enumerate(steps[i:i + same], i):
                step = did_kill_after_kill(steps[k - 1] if k else None, step)
                chosen, step = hoist_named_locations(step)
                for sel in chosen:
                    obj = self.obj(ctx, sel)
                    out.append(Clause(f"{ctx.v('choose')} {obj}", verb=ctx.v("choose"), obj=obj))
                out += self.clauses(ctx, step)
        i += same
    return chosen_inline(merge_gives(out), steps)


def unless(self: Renderer, ctx: Ctx, may: Mapping[str, Any], step: Mapping[str, Any]) -> list[Clause]:
    """An effect that happens unless another player chooses to do something (see is_unless)."""
    who = {"its_controller": "its controller", "opponent": "an opponent"}[str(may["chooser"])]
    if "effect" in may:
        action = f"has you {self.text(ctx.base_verbs(), may['effect'])}"
    else:
        action = series([third_singular(p) for p in self.cost_parts(ctx, may.get("cost"), symbols=False)])
    return [Clause(f"{self.text(ctx, step['then'])} unless {who} {action}")]


def e_if(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    cond = eff.get("condition")
    then = self.text(ctx, eff.get("then"))
    first, other = eff.get("then"), eff.get("else")
    if isinstance(first, Mapping) and isinstance(other, Mapping) and first.get("type") == other.get("type") \
            and first.get("type") != "sequence":
        # alternatives of one effect type: "X. If C, Y instead." (the second names only what changes)
        rest = f"{self.keyword_label(cond)} — {cap(then)}" if isinstance(cond, Mapping) and \
            cond.get("type") == "keyword" else f"if {self.condition(ctx, cond)}, {then}"
        return [Clause(self.text(ctx, other), subject=True), Clause(rest + " instead", subject=True)]
    if isinstance(cond, Mapping) and cond.get("type") == "keyword":
        head = f"{self.keyword_label(cond)} — {cap(then)}"
    else:
        head = f"if {self.condition(ctx, cond)}, {then}"
    out = [Clause(head, subject=True)]
    if "else" in eff:
        out.append(Clause(f"otherwise, {self.text(ctx, eff['else'])}", subject=True))
    return out


def e_may(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    cost = eff.get("cost")
    if "effect" not in eff:
        who = {"its_controller": "its controller", "opponent": "an opponent"}.get(str(eff.get("chooser")))
        what = self.pay(ctx.base_verbs(), cost) if cost else "choose to"
        return [Clause(f"{who or ctx.you().text} may {what}", subject=True)]
    chooser = eff.get("chooser")
    effect = eff.get("effect")
    if isinstance(cost, Mapping) and set(cost) <= {"energy", "power"} and self.type == "spell" \
            and isinstance(effect, Mapping) and effect.get("type") == "play" and effect.get("card") == "self" \
            and effect.get("ignore_cost") == "all":
        # a spell played again as it resolves, for a power of any domain (Dancing Grenade)
        who = {"its_controller": "its controller", "opponent": "an opponent"}.get(str(chooser), ctx.you().text)
        price = self.resources(cost.get("energy"), cost.get("power"), ctx)
        return [Clause(f"{who} may play this spell again for {price}", subject=True)]
    steps = effect.get("steps") if isinstance(effect, Mapping) and effect.get("type") == "sequence" else None
    if chooser in (None, "you") and ctx.actor is None and isinstance(steps, list) and len(steps) > 1 \
            and isinstance(steps[0], Mapping) and steps[0].get("type") == "select" \
            and isinstance(steps[0].get("target"), Mapping) and steps[0]["target"].get("zone") == "hand":
        # "You may choose a unit from it. If you do, they play it there ..."
        rest = self.text(ctx, {"type": "sequence", "steps": steps[1:]})
        head = self.pay(ctx.base_verbs(), cost) + " and choose" if cost else "choose"
        return [Clause(f"{ctx.you().text} may {head} {self.obj(ctx, steps[0].get('target'))}. "
                       f"If {ctx.you().text} do, {rest}", subject=True)]
    parts = self.clauses(ctx.base_verbs(), effect)
    inner = self.join(ctx.base_verbs(), parts)
    if cost and chooser in (None, "you") and ctx.actor is None and parts and parts[0].subject \
            and not parts[0].text.startswith(("you ", "[")):
        # "You may spend 2 XP. If you do, they discard a card of your choice and draw 1."
        return [Clause(f"{ctx.you().text} may {self.pay(ctx.base_verbs(), cost)}. "
                       f"If {ctx.you().text} do, {inner}", subject=True)]
    body = f"{self.pay(ctx.base_verbs(), cost)} to {inner.removeprefix(ctx.you().text + ' ')}" if cost else inner
    if chooser in ("its_controller", "opponent"):
        who = "its controller" if chooser == "its_controller" else "an opponent"
        return [Clause(f"{who} may have you {inner}" if not cost else f"{who} may {body}", subject=True)]
    if ctx.actor is not None:
        return [Clause(f"may {body}")]
    return [Clause(f"{ctx.you().text} may {body}", subject=True)]


def e_choose_one(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    options = eff.get("options")
    if not isinstance(options, list):
        return [Clause(mark("choose_one without options"))]
    count = eff.get("count", 1)
    tags = [granted_tag(o.get("effect")) for o in options if isinstance(o, Mapping)]
    if len(tags) > 1 and all(tags) and count == 1 and eff.get("chooser") in (None, "you"):
        # each option gives this object a tag: "choose Bird, Cat, Dog, or Poro. I gain that tag"
        gains = f"{ctx.self_subj.text} {ctx.self_subj.verb('gain')}"
        return [Clause(f"{ctx.v('choose')} {series([str(t) for t in tags], 'or')}. {cap(gains)} that tag")]
    by_domain = eff.get("by_domain_of")
    chooser = eff.get("chooser")
    grants: list[Mapping[str, Any]] = [o["effect"] for o in options if isinstance(o, Mapping)
                                       and set(o) <= {"label", "effect"} and isinstance(o.get("effect"), Mapping)]
    if len(grants) == len(options) > 1 and count == 1 and chooser in (None, "you") and all(
            g.get("type") == "grant_keyword" and set(g) <= {"type", "target", "keyword", "value", "duration"}
            and (g.get("target"), g.get("duration")) == (grants[0].get("target"), grants[0].get("duration"))
            for g in grants):
        # each option gives the same object one keyword for the same time: the object and time once, then the list
        kws = "".join(f"\n• {self.keyword_use(g.get('keyword'), g.get('value'))}" for g in grants)
        whom = self.given(ctx, grants[0].get("target"))
        return [Clause(f"{ctx.v('choose')} one to give {whom}{self.duration(grants[0].get('duration'))} —{kws}")]
    labelled = ctx.third or chooser not in (None, "you")
    plain = [o for o in options if isinstance(o, Mapping) and set(o) <= {"label", "effect"}]
    each_player = all(isinstance(o.get("effect"), Mapping) and o["effect"].get("type") == "for_each_player"
                      for o in plain)  # options that each player carries out are listed
    if len(plain) == 2 == len(options) and count == 1 and not labelled and by_domain is None \
            and not eff.get("not_chosen_this_turn") and not ctx.spell and not each_player:
        # an ability's two simple options: "draw 2 or channel 1", "stun or ready a unit" (a spell lists them)
        texts = [self.text(ctx, o.get("effect")) for o in plain]
        if not any(". " in t or "\n" in t or ", " in t for t in texts):
            first, second = (t.split(" ", 1) for t in texts)
            if len(first) == len(second) == 2 and first[1] == second[1]:
                return [Clause(f"{first[0]} or {second[0]} {first[1]}")]
            return [Clause(f"{texts[0]} or {texts[1]}")]
    lines = []
    inner = replace(ctx, actor=Phrase("they", plural=True)) if ctx.third else ctx
    for opt in options:
        if not isinstance(opt, Mapping):
            continue
        body = end_sentence(cap(self.text(inner, opt.get("effect"))))
        label = str(opt.get("label", "")).replace("_", " ")
        if by_domain is not None:
            body = "{" + label.capitalize() + "} — " + body
        elif labelled and label:
            body = f"{label.capitalize()} — {body}"
        if "if" in opt:
            body += f" (Only if {self.condition(ctx, opt['if'])}.)"
        lines.append("\n• " + body)
    if by_domain is not None:
        head = f"do one of the following based on {self.poss(ctx, by_domain)} domain:"
        return [Clause(head + "".join(lines), subject=True)]
    n = "one" if count == 1 else number_word(count) if is_int(count) else str(count)
    who = {"opponent": "an opponent chooses", "its_controller": "its controller chooses",
           "event_player": "that player chooses"}.get(str(chooser))
    head = f"{who} {n}" if who else f"{ctx.v('choose')} {n}"
    if eff.get("not_chosen_this_turn"):
        head += " you haven't chosen this turn"
    return [Clause(head + " —" + "".join(lines), subject=bool(who))]


def e_for_each(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    of = eff.get("of")
    each = self.selection(ctx, of, mode="each").text if isinstance(of, Mapping) else self.obj(ctx, of)
    inner = self.text(ctx, eff.get("effect"))
    return [Clause(f"for each {each}, {inner}", subject=True)]


def e_for_each_player(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    who = {"each": "each player", "each_other": "each other player", "opponents": "each opponent",
           "starting_next": "starting with the next player, each player"}.get(
        str(eff.get("players", "each")), mark(f"players {eff.get('players')!r}"))
    inner = replace(ctx, actor=Phrase(who))
    return [Clause(self.join(inner, self.clauses(inner, eff.get("effect"))), subject=True)]


def e_repeat(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    times = self.amount(ctx, eff.get("times", 1)).value
    return [Clause(f"do this {times} times: {self.text(ctx, eff.get('effect'))}", subject=True)]


def e_choose_player(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    who = "an opponent" if eff.get("who", "opponent") == "opponent" else "a player"
    inner = replace(ctx, chosen=True)
    return [Clause(f"{ctx.v('choose')} {who}")] + self.clauses(inner, eff.get("effect"))


def e_create_effect(self: Renderer, ctx: Ctx, eff: Mapping[str, Any]) -> list[Clause]:
    duration = eff.get("duration")
    uses = eff.get("uses")
    affects = eff.get("affects")
    out: list[Clause] = []
    inner = ctx
    static = eff.get("static")
    given = keywords_only({"kind": "static", **static}) if isinstance(static, Mapping) and set(static) == {
        "modifiers"} else None
    if given is not None and isinstance(affects, Mapping) and affects.get("pick") == "target" \
            and "named" not in affects and not affects.get("count") and duration in ("this_turn", "this_combat"):
        # keywords for a while to one object chosen now: "give a spell in your trash [Flow] ... this turn"
        chosen = self.obj(ctx, affects)
        its = replace(ctx, self_subj=Phrase("it"), self_obj="it", self_poss="its")
        names = series([self.keyword_use(k, v, its) for k, v in given])
        return [Clause(f"{ctx.v('give')} {chosen} {names} {'this turn' if duration == 'this_turn' else 'this combat'}")]
    mods = static.get("modifiers") if isinstance(static, Mapping) else None
    if (affects == "it" or isinstance(affects, Mapping) and set(affects) == {"named"}) and duration == "this_turn" \
            and isinstance(static, Mapping) and set(static) == {"modifiers"} and isinstance(mods, list) \
            and len(mods) == 1 and isinstance(mods[0], Mapping) and mods[0].get("type") == "grant_ability" \
            and isinstance(mods[0].get("ability"), Mapping):
        # an ability for this turn to an object named before: "give it "{1}: Ready me." this turn"
        speaker = replace(ctx, self_subj=Phrase("I", person=1), self_obj="me", self_poss="my")
        quoted = self.activated(speaker, mods[0]["ability"], [])
        return [Clause(f'{ctx.v("give")} {self.obj(ctx, affects)} "{quoted}" this turn', group="ref")]
    if affects is not None and affects != "self":
        if isinstance(affects, Mapping) and affects.get("what") == "player":
            it = self.subject(ctx, affects)  # "its controller can't play spells this turn"
        elif isinstance(affects, Mapping) and "named" not in affects:
            chosen = self.obj(ctx, affects)
            out.append(Clause(f"{ctx.v('choose')} {chosen}", verb=ctx.v("choose"), obj=chosen))
            it = Phrase("it")
        else:
            it = self.subject(ctx, affects)
        inner = replace(ctx, self_subj=it, self_obj="them" if it.plural else "it",
                        self_poss="their" if it.plural else "its")
    when = " this turn" if duration == "this_turn" else " this combat" if duration == "this_combat" else ""
    if isinstance(eff.get("static"), Mapping):
        out += self.lasting_static(inner, eff["static"], uses, when)
    elif isinstance(eff.get("trigger"), Mapping):
        body = eff["trigger"]
        t = body.get("when")
        delayed = isinstance(t, Mapping) and t.get("event") == "turn_end" and not t.get("whose_turn")
        if delayed and "if" not in body:
            effect = self.text(inner, body.get("effect"))
            out.append(Clause(f"{effect} at the end of {'this turn' if duration == 'this_turn' else 'the turn'}",
                              subject=True))
            return out
        if delayed:
            head = f"at the end of {'this turn' if duration == 'this_turn' else 'the turn'}"
        else:
            parts = self.trigger_parts(inner, t)
            head = " ".join(x for x in [parts.subject.text, parts.subject.verb(parts.verb), parts.rest] if x)
            if not parts.verb:  # "at the start of your next Main Phase"
                rest = re.sub(r"^(your|each|their) ", r"\1 next ", parts.rest) if uses == 1 else parts.rest
                head = f"{parts.prefix.lower()} {rest}{parts.suffix}"
            else:
                head = ("the next time " if uses == 1 else "when ") + head + when
        cond = f"if {self.condition(inner, body['if'])}, " if "if" in body else ""
        effect = self.text(inner, body.get("effect"))
        if body.get("optional"):
            effect = f"you may {effect}"
        out.append(Clause(f"{head}, {cond}{effect}", subject=True))
    elif isinstance(eff.get("replacement"), Mapping):
        body = eff["replacement"]
        head = ("the next time " if uses == 1 else "if ") + self.would(inner, body.get("replaces")) + when
        out.append(Clause(self.replacement_text(inner, body, head), subject=True))
    else:
        out.append(Clause(mark("lasting effect without static, trigger or replacement")))
    return out


def lasting_static(self: Renderer, ctx: Ctx, body: Mapping[str, Any], uses: Node, when: str) -> list[Clause]:
    """A static effect for a while: 'the next spell you play this turn costs {5} less'."""
    affects = body.get("affects", "self")
    subject: Phrase | None = None
    modifiers = body.get("modifiers")
    on_play = isinstance(modifiers, list) and all(
        isinstance(m, Mapping) and m.get("type") in ("enter_ready", "enter_exhausted", "cost", "bonus_damage")
        or isinstance(m, Mapping) and m.get("type") == "keyword" and uses == 1 for m in modifiers)
    if on_play and isinstance(affects, Mapping) and affects.get("what") in ("unit", "spell", "card", "gear") \
            and affects.get("pick") == "all":
        where = affects.get("where") or {}
        what = str(affects["what"])
        entering = isinstance(modifiers, list) and all(isinstance(m, Mapping) and m.get("type") == "enter_ready"
                                                       for m in modifiers)
        # "units you play" are yours alone; friendly ones are a teammate's too, said as such
        if isinstance(where, Mapping) and (where.get("controller") == "you" or where.get("owner") == "you"
                                           or where.get("controller") == "friendly" and not entering):
            rest = {k: v for k, v in where.items() if k not in ("controller", "owner")}
            single = uses == 1
            adjs, noun, posts, late = self.filter_words(ctx, rest, what, not single)
            if not single and where.get("owner") == "you" and isinstance(modifiers, list) and all(
                    isinstance(m, Mapping) and m.get("type") == "cost" for m in modifiers):
                # "your non-token units cost {1} more to play this turn"
                subject = Phrase(" ".join([ctx.your()] + adjs + [noun] + posts + late), plural=True)
                when = " to play" + when
            elif single and not when and not posts and not late:
                subject = Phrase(" ".join([ctx.your(), "next"] + adjs + [noun]))  # no time limit: "your next card"
            else:
                words = adjs + [noun, f"{ctx.you().text} play"] + posts + late
                subject = Phrase(" ".join((["the next"] if single else []) + words) + when, plural=not single)
                when = ""
    sentences = self.static_clauses(ctx, body, subject)
    return [Clause(s + when, subject=True) for s in sentences]
