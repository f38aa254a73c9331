"""Running a scenario: its steps as players' actions, the expectations checked after each, and
``run_scenario``."""
from __future__ import annotations

import json
import re
from typing import Any, cast

from riftscript.core.engine import activation, layers, observe, targeting
from riftscript.core.script.catalog import Catalog
from riftscript.core.errors import IllegalActionError, RiftScriptError
from riftscript.core.engine.game import Game
from riftscript.core.engine.match import Match
from riftscript.core.engine.offer import complete
from riftscript.core.engine.state import NOWHERE, Zone, is_battlefield
from riftscript.core.engine.vocabulary import Action
from riftscript.tools.scenario.model import (LOCATION_FIELDS, OBJECT_FIELDS, PLAYER_FIELDS, Json, Refs,
                                              Scenario, ScenarioFailure)
from riftscript.tools.scenario.setup import plays_match, build, build_match



# ---------------------------------------------------------------------- steps
def to_action(step: Json, refs: Refs) -> dict[str, Any]:
    """The action a step writes by hand (targets None: the only legal choice), for ``complete``."""
    kind = step["do"]
    action: dict[str, Any] = {"type": kind}
    if kind == "play":
        action["card"] = refs.obj(step["card"])
        if "location" in step:
            action["location"] = refs.location(step["location"])
    elif kind == "activate":
        action["source"] = refs.obj(step["source"])
        action["ability"] = int(step.get("ability", 0))
    elif kind == "move":
        action["units"] = [refs.obj(u) for u in step["units"]]
        action["to"] = refs.location(step["to"])
    elif kind == "hide":
        action["card"] = refs.obj(step["card"])
        action["battlefield"] = refs.location(step["battlefield"])
        if "costs" in step:
            action["costs"] = list(step["costs"])  # [hide_cost]: pay a 'hide_cost' effect's cost instead
    elif kind == "mulligan":
        action["cards"] = [refs.obj(c) for c in step.get("cards", [])]
    elif kind == "invite" and "teammate" in step:
        action["teammate"] = refs.player(step["teammate"])  # 491.8.a; by default the only teammate
    elif kind == "order":
        action["order"] = list(step["order"])
    elif kind == "assign":
        action["damage"] = {str(refs.obj(k)): int(v) for k, v in step["damage"].items()}
    if kind in ("play", "activate", "targets"):
        if "targets" in step:
            action["targets"] = [[refs.any(t) for t in slot] for slot in step["targets"]]
            if any(str(t) in refs.locations for slot in step["targets"] for t in slot):
                action["targets"] = _battlefield_targets(refs, action, step["targets"])
        elif kind in ("play", "activate"):
            action["targets"] = None
    if kind == "play":
        action["costs"] = list(step.get("costs", []))
    if kind in ("play", "activate") and "pay_with" in step:
        # which object pays a 'kill a unit' / 'exhaust a unit' cost ({kill: alias})
        action["pay_with"] = {cost: [refs.obj(r) for r in ref] if isinstance(ref, list) else refs.obj(ref)
                              for cost, ref in step["pay_with"].items()}
    return action


def _battlefield_targets(refs: Refs, action: dict[str, Any], names: list[list[Any]]) -> list[list[Any]]:
    """A battlefield's alias among targets names its location, or - in a slot that chooses a battlefield
    (``what: battlefield``: the battlefield's card, as such a target is listed) - the battlefield itself."""
    game = refs.game
    slots: tuple[Any, ...] = ()
    if action["type"] == "play":
        slots = tuple(targeting.target_slots(game.card(action["card"])))
    elif action["type"] == "activate":
        abilities = activation.activated_abilities(game, action["source"])
        index = int(action.get("ability", 0))
        slots = tuple(targeting.ability_targets(abilities[index])) if 0 <= index < len(abilities) else ()
    out = []
    for i, slot in enumerate(names):
        battlefield = i < len(slots) and isinstance(slots[i], dict) and slots[i].get("what") == "battlefield"
        out.append([refs.card_obj(t) if battlefield and str(t) in refs.locations else refs.any(t) for t in slot])
    return out


def _fill_targets(game: Game, action: dict[str, Any]) -> dict[str, Any]:
    """Without explicit targets: the only legal choice, if there is exactly one."""
    if action.get("targets") is not None:
        return action
    candidates = [a for a in game.legal_actions() if a.get("type") == action["type"]
                  and a.get("card", a.get("source")) == action.get("card", action.get("source"))
                  and a.get("ability", 0) == action.get("ability", 0)
                  and a.get("costs", []) == action.get("costs", [])
                  and ("mode" not in action or a.get("mode") == action["mode"])
                  and ("location" not in action or a.get("location") == action["location"])]
    options = {json.dumps(a.get("targets", []), sort_keys=True) for a in candidates}
    result = dict(action)
    if len(options) == 1:
        result["targets"] = json.loads(options.pop())
    else:
        result.pop("targets")
    return result


def _mode_indexes(game: Game, action: dict[str, Any], wanted: Any) -> list[int]:
    """A step's ``mode`` (a label, a part of one as ``choose ... option`` matches, an index, or a list
    of them: each run's of a repeated spell in turn) as the option indexes the action names."""
    modes = activation.action_modes(game, action)
    if modes is None:
        oid = action.get("card", action.get("source"))
        raise ScenarioFailure(f"mode: {game.name(oid) if oid in game.state.objs else oid} has no \"choose one\" "
                              "modes chosen as it is played or activated")
    return _label_indexes(modes, wanted)


def _trigger_mode_indexes(game: Game, wanted: Any) -> list[int]:
    """A targets step's ``mode``: the option indexes of the "Choose one" trigger going on the chain now."""
    decision = game.pending_decision()
    trigger = next((t for t in game.state.pending_triggers
                    if decision is not None and t.controller == decision.player), None)
    modes = None if trigger is None else targeting.trigger_modes(
        game.trigger_ability(trigger.obj, trigger.ability, trigger.lasting, trigger.event))
    if trigger is None or modes is None:
        raise ScenarioFailure("mode: the trigger going on the chain has no \"choose one\" modes chosen as it is "
                              "put on the chain")
    return _label_indexes(modes, wanted)


def _label_indexes(modes: targeting.Modes, wanted: Any) -> list[int]:
    """Labels (or parts of them), or indexes, as the option indexes of the modes."""
    labels = [modes.label(i) for i in range(len(modes.node["options"]))]
    out: list[int] = []
    for one in wanted if isinstance(wanted, list) else [wanted]:
        if isinstance(one, int):
            out.append(one)  # an index, even one the card doesn't have (a step written to be refused)
            continue
        found = [i for i, label in enumerate(labels) if label == one] or \
            [i for i, label in enumerate(labels) if str(one) in label]
        if not found:
            raise ScenarioFailure(f"no mode {one!r}; the modes are: {'; '.join(labels)}")
        out.append(found[0])
    return out


def _choose_value(game: Game, step: Json, refs: Refs) -> Any:
    decision = game.pending_decision()
    assert decision is not None
    if "option" in step:
        for option in decision.options:
            if str(option["label"]) == step["option"] or str(step["option"]) in str(option["label"]):
                return option["value"]
        labels = "; ".join(str(o["label"]) for o in decision.options)
        raise ScenarioFailure(f"no option {step['option']!r}; the options are: {labels}")
    value = step.get("value")
    if isinstance(value, str):
        for option in decision.options:
            if option["value"] == value:
                return value
        try:
            return refs.any(value)
        except ScenarioFailure:
            return value
    return value


SPLIT_PROMPT = re.compile(r"^assign point \d+ of \d+ damage$")
# the decisions a step answers: do -> decision kinds
ANSWERS = {"choose": ("choose", "showdown", "battlefield", "turn_order"), "targets": ("targets",),
           "assign": ("assign",), "order": ("order",), "mulligan": ("mulligan",)}
DISCRETIONARY = ("play", "activate", "move", "hide", "pass", "end_turn", "invite")


def rule_matches(actual: str | None, wanted: str) -> bool:
    """``rule: "811"`` matches a refusal citing 811 or any of its sub-rules (811.1.d), not 8110."""
    return actual is not None and (actual == wanted or actual.startswith(wanted + "."))


def _not_deciding(refs: Refs, decision: Any, player: int, kind: str) -> IllegalActionError:
    """The refusal of a step by a player who is not deciding now."""
    who, other = refs.players[player], refs.players[decision.player]
    if decision.kind == "priority" and kind in DISCRETIONARY:
        # 312.1: priority is the singular exclusive right to take discretionary actions
        return IllegalActionError(f"{who} can't {kind} now: {other} has priority ({decision.prompt}), and only "
                                  f"the player with priority may act", "312.1")
    return IllegalActionError(f"{who} can't {kind} now: the game waits for {other}'s {decision.kind} decision "
                              f"({decision.prompt})")


def _shown(refs: Refs, kind: str, value: Any) -> str:
    if value is None:
        return "nothing the runner can compare"
    if kind == "targets":
        return "; ".join(", ".join(refs.name_of_obj(o) for o in slot) or "none" for slot in value) or "none"
    return ", ".join(f"{refs.name_of_obj(o)}: {n}" for o, n in sorted(value.items()))


class Runner:
    match: Match | None = None  # a best-of match (488) when the setup plays one; ``game`` is its current game

    def __init__(self, catalog: Catalog, scenario: Scenario) -> None:
        self.catalog = catalog
        self.scenario = scenario
        self.strict = bool(scenario.data.get("strict", True))
        self.setup_error = ""
        if "setup" not in scenario.data:
            return  # a deck check only
        if "expect_setup_error" in scenario.data:
            try:
                build(catalog, scenario)
            except RiftScriptError as exc:
                self.setup_error = f"{type(exc).__name__}: {exc}"
            return  # the game must not start; run() checks the error
        try:
            if plays_match(catalog, scenario.data["setup"]):
                self.match, self.refs = build_match(catalog, scenario)
                self.game = self.match.game
            else:
                self.game, self.refs = build(catalog, scenario)
        except RiftScriptError as exc:
            raise ScenarioFailure(f"{scenario.where(['setup'])}: the setup can't be built: {exc}") from None
        # a real game from its start: the first step may check the setup's events too
        self.mark = 0 if "decks" in scenario.data["setup"] else len(self.game.log)

    def fail(self, index: int, message: str, field_name: str | None = None) -> None:
        path: list[str | int] = ["steps", index]
        if field_name:
            path += ["expect", field_name]
        tail = self.tail()
        raise ScenarioFailure(f"{self.scenario.where(path)}: step {index + 1}: {message}\n"
                              f"last events:\n{tail}")

    def tail(self, count: int = 12) -> str:
        from riftscript.tools.play import narrate

        lines = narrate(self.game)
        return "\n".join("  " + line.strip() for line in lines[-count:] if line.strip()) or "  (none)"

    def run(self) -> Game | None:
        if "deck" in self.scenario.data:
            self.check_deck()
        if "setup" not in self.scenario.data:
            return None
        if "expect_setup_error" in self.scenario.data:
            self.check_setup_error()
            return None
        for index, step in enumerate(self.scenario.data.get("steps", [])):
            if "bind" in step:
                try:
                    for alias, ref in step["bind"].items():
                        self.refs.aliases[alias] = self.refs.obj(ref)
                except ScenarioFailure as exc:
                    self.fail(index, str(exc))
            if "do" in step:
                self.mark = len(self.events())
                self.act(index, step)
            if "expect" in step:
                self.expect(index, step["expect"])
        return self.game

    def act(self, index: int, step: Json) -> None:
        game = self.game
        kind = step["do"]
        if kind == "advance":
            self.advance(index, step)
            return
        decision = game.pending_decision()
        if decision is None:
            self.fail(index, f"the game is over; nothing to {kind}")
        assert decision is not None
        player = self.refs.player(step["player"]) if "player" in step else decision.player
        refused = "illegal" in step or "rule" in step
        if kind == "concede" and not refused:
            self.apply({"type": "concede", "player": player})  # any player, whoever decides now
            return
        if player != decision.player and kind != "concede":
            if refused:
                # the game takes actions from the deciding player only (Game.apply acts for them)
                self.check_refusal(index, step, kind, _not_deciding(self.refs, decision, player, kind))
                return
            if self.strict:
                self.fail(index, f"unscripted decision: {self.refs.players[decision.player]} must decide "
                                 f"({decision.kind}: {decision.prompt}) before {self.refs.players[player]} can {kind}")
        if kind == "assign" and decision.kind == "choose" and SPLIT_PROMPT.match(decision.prompt):
            self.split(index, step)
            return
        if kind in ANSWERS and decision.kind not in ANSWERS[kind] and not refused:
            self.answered_already(index, step, kind, decision)
            return
        try:
            if kind == "concede":
                action: dict[str, Any] = {"type": "concede", "player": player}
            elif kind == "choose":
                action = {"type": "choose", "value": _choose_value(game, step, self.refs)}
            elif kind == "targets":
                action = {"type": "targets"}
                if "targets" in step:
                    action["targets"] = [[self.refs.any(t) for t in slot] for slot in step["targets"]]
                if "mode" in step:  # a "Choose one" trigger's modes, chosen with its targets
                    action["mode"] = _trigger_mode_indexes(game, step["mode"])  # complete() fills the targets
            else:
                action = to_action(step, self.refs)
                if "mode" in step and kind not in ("play", "activate"):
                    raise ScenarioFailure(f"'mode' goes with a play, an activate or a targets step, not {kind}")
                if kind in ("play", "activate") and "mode" in step:
                    action["mode"] = _mode_indexes(game, action, step["mode"])
                if kind in ("play", "activate"):
                    action = _fill_targets(game, action)
        except ScenarioFailure as exc:
            self.fail(index, str(exc))
            return
        if refused:
            before = self.driver().to_json()
            try:
                self.driver().apply(cast(Action, action))  # written to be refused: apply checks its shape
            except IllegalActionError as exc:
                self.check_refusal(index, step, kind, exc)
                if self.driver().to_json() != before:
                    self.fail(index, "the illegal action changed the game state")
                return
            wanted = f" ({step['illegal']!r})" if step.get("illegal") else ""
            self.fail(index, f"expected {kind} to be refused{wanted}"
                             f"{' under rule ' + step['rule'] if 'rule' in step else ''}, but it was accepted")
        try:
            self.apply(complete(self.driver(), action))  # the listed action the step stands for
        except IllegalActionError as exc:
            self.fail(index, f"{kind} was refused: {exc}")

    def check_refusal(self, index: int, step: Json, kind: str, exc: IllegalActionError) -> None:
        """``illegal: text`` (the error mentions it) and ``rule: "811"`` (the error names that rule or
        one of its sub-rules, e.g. 811.1.d)."""
        text = step.get("illegal")
        if text and text.lower() not in str(exc).lower():
            self.fail(index, f"expected the refusal to mention {text!r}, got: {exc}")
        if "rule" in step and not rule_matches(exc.rule, str(step["rule"])):
            self.fail(index, f"expected {kind} to be refused under rule {step['rule']}, the refusal names "
                             f"{exc.rule or 'no rule'}: {exc}")

    def split(self, index: int, step: Json) -> None:
        """``{do: assign, damage: {a: 2, b: 3}}`` answering a split of damage ("deal 5 damage split among
        ..."): one answer per point, in the order given, for the engine's 'assign point N of M' choices."""
        try:
            points = [self.refs.obj(name) for name, amount in step["damage"].items() for _ in range(int(amount))]
        except ScenarioFailure as exc:
            self.fail(index, str(exc))
            return
        for number, oid in enumerate(points, 1):
            decision = self.game.pending_decision()
            if decision is None or decision.kind != "choose" or not SPLIT_PROMPT.match(decision.prompt):
                self.fail(index, f"the split took {number - 1} point(s) from this step, {len(points)} were given: each "
                                 f"chosen target gets at least 1, and the engine gives the points that can go to "
                                 f"one target only itself")
                return
            if not any(o["value"] == oid for o in decision.options):
                allowed = ", ".join(str(o["label"]) for o in decision.options)
                self.fail(index, f"point {number} can't go to {self.refs.name_of_obj(oid)} ({decision.prompt}: "
                                 f"{allowed}); each chosen target gets at least 1")
            try:
                self.apply({"type": "choose", "value": oid})
            except IllegalActionError as exc:
                self.fail(index, f"point {number} of the split was refused: {exc}")
        decision = self.game.pending_decision()
        if decision is not None and decision.kind == "choose" and SPLIT_PROMPT.match(decision.prompt):
            self.fail(index, f"the split is not complete after {len(points)} point(s): {decision.prompt}")

    def answered_already(self, index: int, step: Json, kind: str, decision: Any) -> None:
        """A step answering a decision the engine took itself (one legal option): accepted when it gives
        the answer the engine gave, reported otherwise (see 'Decisions the engine takes itself')."""
        given = self._given(step, kind)
        taken = self._taken(kind, given)
        if given is not None and taken is not None and given == taken:
            return
        waiting = f"the game waits for {self.refs.players[decision.player]}'s {decision.kind} decision " \
                  f"({decision.prompt})"
        if taken is not None:
            self.fail(index, f"no {kind} decision is pending: the engine took it itself, as it had one legal "
                             f"option ({_shown(self.refs, kind, taken)}), and this step answers "
                             f"{_shown(self.refs, kind, given)}; {waiting}")
        self.fail(index, f"no {kind} decision is pending: {waiting}. A decision with one legal option is "
                         f"taken by the engine itself (schemas/README.md, 'Decisions the engine takes itself'); "
                         f"remove this step")

    def _given(self, step: Json, kind: str) -> Any:
        try:
            if kind == "targets" and "targets" in step:
                return [[self.refs.any(t) for t in slot] for slot in step["targets"]]
            if kind == "assign" and "damage" in step:
                return {self.refs.obj(k): int(v) for k, v in step["damage"].items() if int(v)}
        except ScenarioFailure:
            return None
        return None

    def _taken(self, kind: str, given: Any) -> Any:
        """What the engine chose itself before this step: the newest trigger's targets, or the
        damage the last combat dealt to the units the step names."""
        earlier = self.events()[:self.mark]
        if kind == "targets":
            found = next((e for e in reversed(earlier) if e["t"] in ("trigger", "play", "activate")), None)
            return found.get("targets") if found is not None else None
        if kind == "assign" and isinstance(given, dict):
            combat = [e for e in earlier if e["t"] == "damaged" and e.get("by") == "combat" and e["obj"] in given]
            dealt: dict[int, int] = {}
            for e in combat:
                dealt[e["obj"]] = dealt.get(e["obj"], 0) + int(e["amount"])
            return dealt or None
        return None

    def check_setup_error(self) -> None:
        """``expect_setup_error: text`` (or a list of texts): the game refuses to start, and its error
        mentions each text (a rule number, a card, a player ...)."""
        wanted = self.scenario.data["expect_setup_error"]
        texts = [wanted] if isinstance(wanted, str) else list(wanted)
        where = self.scenario.where(["expect_setup_error"])
        if not self.setup_error:
            raise ScenarioFailure(f"{where}: expected the game to refuse to start ({', '.join(texts)}), but it started")
        for text in texts:
            if text.lower() not in self.setup_error.lower():
                raise ScenarioFailure(f"{where}: expected the setup error to mention {text!r}, got: {self.setup_error}")

    def check_deck(self) -> None:
        """The deck-construction rules: ``violations()`` against the scenario's expectations."""
        from riftscript.core.script.decks import Deck, load_deck, violations

        data = self.scenario.data
        spec = data["deck"]
        where = self.scenario.where(["deck"])
        try:
            if isinstance(spec, str):
                deck = load_deck(self.catalog, spec)
            else:
                deck = Deck.from_data({"name": self.scenario.name, **spec}, self.catalog)
        except RiftScriptError as exc:
            raise ScenarioFailure(f"{where}: the deck can't be read: {exc}") from None
        found = violations(self.catalog, deck)
        shown = "\n".join("  " + v for v in found) or "  (none)"
        if data.get("expect_legal") and found:
            raise ScenarioFailure(f"{where}: expected a legal deck; violations:\n{shown}")
        for text in data.get("expect_violations", []):
            if not any(text.lower() in v.lower() for v in found):
                raise ScenarioFailure(f"{where}: expected a violation mentioning {text!r}; violations:\n{shown}")
        for text in data.get("expect_no_violations", []):
            hits = [v for v in found if text.lower() in v.lower()]
            if hits:
                raise ScenarioFailure(f"{where}: expected no violation mentioning {text!r}, got: {hits[0]}")

    def advance(self, index: int, step: Json) -> None:
        """Pass (and end turns) until the named step of the named player's turn is reached."""
        game = self.game
        until = step.get("until", "main")
        who = self.refs.player(step["player"]) if "player" in step else None
        for _ in range(500):
            s = game.state
            if game.over:
                return
            decision = game.pending_decision()
            if decision is None:
                return
            if s.step == until and (who is None or s.turn_player == who) and s.turn >= 1 \
                    and len(self.events()) > self.mark and decision.kind == "priority" and not s.chain \
                    and s.showdown is None:
                return
            if decision.kind != "priority":
                self.fail(index, f"while advancing, {self.refs.players[decision.player]} must decide "
                                 f"({decision.kind}: {decision.prompt}); script it")
            if s.chain or s.showdown is not None:
                self.apply({"type": "pass"})
            else:
                self.apply({"type": "end_turn"})
        self.fail(index, f"could not reach step {until!r}")

    def driver(self) -> Game | Match:
        """What steps act on: the match when one is played, else the game."""
        return self.match if self.match is not None else self.game

    def events(self) -> list[dict[str, Any]]:
        """The log steps' ``events`` look at: a match's log holds its own events and its games'."""
        return self.match.log if self.match is not None else self.game.log

    def apply(self, action: Action) -> None:
        """Apply an action; in a match a finished game is followed by the next one (488.6)."""
        self.driver().apply(action)
        if self.match is not None and self.match.game is not self.game:
            self.game = self.match.game
            self.refs.game = self.game

    def _check_match(self, wanted: Json) -> None:
        """``match: {game, wins, draws, removed_battlefields, presented, winner, over}`` (488.6)."""
        match = self.match
        if match is None:
            raise ScenarioFailure("'match' expectations need a setup in a best-of mode (match, match-bo5)")
        s = match.state
        refs = self.refs
        cards = self.catalog.cards

        def name(code: str) -> str:
            return cards[code].name if code in cards else code

        def named(value: str) -> str:
            return name(value) if value in cards else value

        if "game" in wanted and match.number != wanted["game"]:
            raise ScenarioFailure(f"expected game {wanted['game']} of the match, it is game {match.number}")
        for who, count in wanted.get("wins", {}).items():
            if s.wins[refs.player(who)] != count:
                raise ScenarioFailure(f"expected {who} to have {count} game win(s), got {s.wins[refs.player(who)]}")
        if "draws" in wanted and s.draws != wanted["draws"]:
            raise ScenarioFailure(f"expected {wanted['draws']} drawn game(s), got {s.draws}")
        for who, fields in wanted.get("removed_battlefields", {}).items():
            actual = sorted(name(c) for c in s.removed[refs.player(who)])
            if actual != sorted(named(f) for f in fields):
                raise ScenarioFailure(f"expected {who}'s removed battlefields {sorted(fields)}, got {actual}")
        for who, counts in wanted.get("presented", {}).items():
            actual_counts = {name(c): n for c, n in s.presented[refs.player(who)].items()}
            for field_name, count in counts.items():
                if actual_counts.get(named(field_name), 0) != count:
                    raise ScenarioFailure(f"expected {who} to have presented {field_name} {count} time(s); "
                                          f"presented: {actual_counts}")
        if "over" in wanted and match.over != wanted["over"]:
            raise ScenarioFailure(f"expected the match {'over' if wanted['over'] else 'still going'}; "
                                  f"result: {s.result or 'playing'}")
        if "winner" in wanted:
            value = wanted["winner"]
            if value == "none":
                if match.over:
                    raise ScenarioFailure(f"expected no match result yet, got {s.result}")
            elif value == "draw":
                if s.result != "draw":
                    raise ScenarioFailure(f"expected a drawn match, got {s.result or 'no result yet'}")
            elif s.winner != refs.player(value):
                got = refs.players[s.winner] if s.winner is not None else (s.result or "no result yet")
                raise ScenarioFailure(f"expected {value} to win the match, got {got}")

    # ------------------------------------------------------------------ expectations
    def expect(self, index: int, exp: Json) -> None:
        game = self.game
        refs = self.refs
        for key, wanted in exp.items():
            try:
                self._check(key, wanted, game, refs)
            except ScenarioFailure as exc:
                self.fail(index, str(exc), key)

    def _check(self, key: str, wanted: Any, game: Game, refs: Refs) -> None:
        s = game.state
        per_object = {"zone", "location", "might", "damage", "exhausted", "buffs", "stunned", "keywords", "attached"}
        if key in per_object:
            for name, value in wanted.items():
                oid = refs.obj(name)
                obj = game.obj(oid)
                actual: Any
                if key == "zone":
                    actual = Zone(obj.zone).script_name
                    if value == "gone" and obj.zone == "gone":
                        continue
                elif key == "location":
                    actual = obj.loc if obj.zone == "board" else None
                    value = refs.location(value) if value is not None else None  # null: not on the board
                elif key == "attached":
                    actual = obj.attached_to if obj.attached_to != NOWHERE else None
                    value = refs.obj(value) if value is not None else None  # null: attached to nothing
                elif key == "might":
                    actual = layers.might(game, oid)
                elif key == "keywords":
                    # a list: it has these keywords ([]: none at all); a mapping: these values (null: not at all)
                    have = layers.chars(game, oid).keywords
                    actual = sorted(have)
                    if isinstance(value, dict):
                        # null: it doesn't have the keyword at all (a keyword without a number has the value None)
                        keys = {k: k.lower().replace("-", "_") for k in value}
                        wrong = {k: have.get(keys[k]) for k, v in value.items()
                                 if (keys[k] in have if v is None else have.get(keys[k]) != v)}
                        if wrong:
                            raise ScenarioFailure(f"expected {name}'s keywords {value}; it has {dict(have)}")
                        continue
                    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
                        raise ScenarioFailure(f"keywords of {name}: a list names keywords ([Tank, Assault]); to check "
                                              f"a keyword's number write a mapping, {{{name}: {{assault: 2}}}}")
                    missing = [k for k in value if k.lower().replace("-", "_") not in actual]
                    if missing or (not value and actual):
                        raise ScenarioFailure(f"expected {name} to have {missing or 'no keywords'}; it has {actual}")
                    continue
                else:
                    actual = getattr(obj, key)
                if actual != value:
                    raise ScenarioFailure(f"expected {key} of {name} = {value!r}, got {actual!r}")
        elif key == "seen_by":
            # {card: [A, B]}: exactly these players may see which card it is (core/engine/observe.py)
            for name, value in wanted.items():
                oid = refs.obj(name)
                seers = [refs.players[p.index] for p in s.players if observe.visible(game, p.index, oid)]
                if sorted(seers) != sorted(value):
                    raise ScenarioFailure(f"expected {name} to be seen by {sorted(value)}, it is seen by {seers}")
        elif key == "controller":
            for name, value in wanted.items():
                try:
                    loc = refs.location(name)
                    actual_p = game.bf_at(loc).controller if is_battlefield(loc) else NOWHERE
                except ScenarioFailure:
                    actual_p = game.obj(refs.obj(name)).controller
                expected_p = NOWHERE if value in (None, "none") else refs.player(value)
                if actual_p != expected_p:
                    raise ScenarioFailure(f"expected controller of {name} = {value}, got "
                                          f"{refs.players[actual_p] if actual_p != NOWHERE else 'none'}")
        elif key in ("points", "xp", "hand_size", "deck_size", "trash_size", "runes", "rune_deck_size"):
            for name, value in wanted.items():
                p = game.player(refs.player(name))
                actual = {"points": p.points, "xp": p.xp, "hand_size": len(p.hand), "deck_size": len(p.main_deck),
                          "trash_size": len(p.trash), "runes": len(p.runes),
                          "rune_deck_size": len(p.rune_deck)}[key]
                if actual != value:
                    raise ScenarioFailure(f"expected {key} of {name} = {value}, got {actual}")
        elif key == "objects_at":
            # {A.base: 3, plaza: 2}: units and gear at that location, tokens included
            for name, value in wanted.items():
                loc = refs.location(name)
                here = [oid for oid, o in s.objs.items() if o.zone == "board" and o.loc == loc]
                if len(here) != value:
                    raise ScenarioFailure(f"expected {value} units and gear at {name}, found {len(here)}: "
                                          f"{[refs.name_of_obj(o) for o in here]}")
        elif key == "bottom":
            # {A.deck: [x, y]}: the bottom cards of that deck are these, in any order
            for name, value in wanted.items():
                who, _, zone = str(name).partition(".")
                attr = {"deck": "main_deck", "rune_deck": "rune_deck"}.get(zone)
                if attr is None:
                    raise ScenarioFailure(f"bottom: use A.deck or A.rune_deck, not {name!r}")
                cards = getattr(game.player(refs.player(who)), attr)
                expected_ids = sorted(refs.obj(v) for v in value)
                actual_ids = sorted(cards[len(cards) - len(value):]) if value else []
                if actual_ids != expected_ids:
                    raise ScenarioFailure(f"expected the bottom of {name} to be {value}, got "
                                          f"{[refs.name_of_obj(o) for o in cards[-max(len(value), 1):]]}")
        elif key == "card":
            # {ref: {type: unit, supertype: token, domains: [], energy: 0, ...}}: the card's facts as compiled
            for name, fields in wanted.items():
                card = game.card(refs.obj(name))
                for attr, value in fields.items():
                    actual = getattr(card, attr, None)
                    if isinstance(actual, tuple):
                        actual = list(actual)
                    if actual != value:
                        raise ScenarioFailure(f"expected {attr} of {name} = {value!r}, got {actual!r}")
        elif key == "pool":
            for name, value in wanted.items():
                p = game.player(refs.player(name))
                actual_pool = {"energy": p.energy, "power": dict(p.power)}
                for part, amount in value.items():
                    if actual_pool.get(part) != amount:
                        raise ScenarioFailure(f"expected {name}'s pool {part} = {amount}, got {actual_pool.get(part)}")
        elif key == "winner":
            if wanted == "none":
                if s.winners is not None:
                    raise ScenarioFailure(f"expected no winner yet, got {s.winners}")
            elif wanted == "draw":
                if s.result != "draw":
                    raise ScenarioFailure(f"expected a draw, got {s.result or 'no result yet'}")
            elif s.winners is None or sorted(s.winners) != sorted(
                    refs.player(w) for w in (wanted if isinstance(wanted, list) else [wanted])):
                # a list names a winning team (491.6.a: teammates win together)
                got = [refs.players[w] for w in s.winners] if s.winners is not None else "none yet"
                raise ScenarioFailure(f"expected {wanted} to win, winners: {got}")
        elif key == "turn_player":
            if s.turn_player != refs.player(wanted):
                raise ScenarioFailure(f"expected it to be {wanted}'s turn, it is {refs.players[s.turn_player]}'s")
        elif key in ("step", "phase", "turn"):
            actual = getattr(s, key)
            if actual != wanted:
                raise ScenarioFailure(f"expected {key} {wanted!r}, got {actual!r}")
        elif key == "decision":
            d = game.pending_decision()
            if d is None:
                raise ScenarioFailure(f"expected a {wanted.get('kind', '')} decision, but none is pending")
            if "kind" in wanted and d.kind != wanted["kind"]:
                raise ScenarioFailure(f"expected a {wanted['kind']} decision, got {d.kind} ({d.prompt})")
            if "player" in wanted and d.player != refs.player(wanted["player"]):
                raise ScenarioFailure(f"expected {wanted['player']} to decide, {refs.players[d.player]} decides")
            if "prompt" in wanted and wanted["prompt"].lower() not in d.prompt.lower():
                raise ScenarioFailure(f"expected a prompt mentioning {wanted['prompt']!r}, got {d.prompt!r}")
            if "options" in wanted and [str(o["label"]) for o in d.options] != wanted["options"]:
                raise ScenarioFailure(f"expected the options {wanted['options']}, got "
                                      f"{[str(o['label']) for o in d.options]}")
            if "shown" in wanted:
                shown = [code for seen in d.context.get("shown", []) for code in seen["cards"]]
                if shown != wanted["shown"]:
                    raise ScenarioFailure(f"expected the decision to show the cards {wanted['shown']}, it shows {shown}")
        elif key == "legal":
            actions = game.legal_actions()
            for pattern in wanted.get("contains", []):
                want = self._pattern(pattern)
                if not any(_matches(a, want) for a in actions):
                    raise ScenarioFailure(f"expected a legal action like {pattern}; legal: {self._show(actions)}")
            for pattern in wanted.get("not_contains", []):
                want = self._pattern(pattern)
                hits = [a for a in actions if _matches(a, want)]
                if hits:
                    raise ScenarioFailure(f"expected no legal action like {pattern}; found {hits[0]}")
        elif key in ("events", "no_events"):
            recent = self.events()[self.mark:]
            if key == "no_events":
                for pattern in wanted:
                    want = self._event(pattern)
                    if any(_matches(e, want) for e in recent):
                        raise ScenarioFailure(f"expected no event like {pattern}")
                return
            position = 0
            for pattern in wanted:
                want = self._event(pattern)
                while position < len(recent) and not _matches(recent[position], want):
                    position += 1
                if position >= len(recent):
                    seen = ", ".join(e["t"] for e in recent[-25:])
                    raise ScenarioFailure(f"expected event {pattern} (in order) after this step; events: {seen}")
                position += 1
        elif key == "chain":
            actual_chain = [item.obj for item in s.chain]
            expected_chain = [refs.obj(n) for n in wanted]
            if actual_chain != expected_chain:
                raise ScenarioFailure(f"expected chain {wanted}, got {[refs.name_of_obj(o) for o in actual_chain]}")
        elif key == "showdown":
            sd = s.showdown
            if wanted is None:
                if sd is not None:
                    raise ScenarioFailure(f"expected no showdown, one is open at {sd.bf}")
                return
            if sd is None:
                raise ScenarioFailure("expected a showdown, none is open")
            if "at" in wanted and sd.bf != refs.location(wanted["at"]):
                raise ScenarioFailure(f"expected the showdown at {wanted['at']}, it is at {sd.bf}")
            if "combat" in wanted and sd.combat != wanted["combat"]:
                raise ScenarioFailure(f"expected combat={wanted['combat']}, got {sd.combat}")
            for role in ("attacker", "defender", "focus"):
                if role in wanted and getattr(sd, role) != refs.player(wanted[role]):
                    raise ScenarioFailure(f"expected {role} {wanted[role]}, got {refs.players[getattr(sd, role)]}")
        elif key == "match":
            self._check_match(wanted)
        elif key == "turn_order":
            # [B, A]: the players in turn order, first player first
            if [refs.players[p] for p in s.turn_order] != list(wanted):
                raise ScenarioFailure(f"expected turn order {wanted}, got {[refs.players[p] for p in s.turn_order]}")
        elif key == "battlefields":
            # {A: name, B: name}: the battlefield each player has in play ({A: none}: none)
            for who, value in wanted.items():
                player = refs.player(who)
                actual_names = [game.name(bf.card) for bf in s.battlefields if bf.owner == player]
                expected_names = [] if value in (None, "none") else [
                    self.catalog.cards[value].name if value in self.catalog.cards else str(value)]
                if actual_names != expected_names:
                    raise ScenarioFailure(f"expected {who}'s battlefield in play {expected_names}, got {actual_names}")
        else:
            raise ScenarioFailure(f"unknown expectation {key!r}")

    def _pattern(self, pattern: Json) -> Json:
        out: Json = {}
        for key, value in pattern.items():
            if key in ("card", "source"):
                out[key] = self.refs.obj(value)
            elif key in ("to", "location", "battlefield"):
                out[key] = self.refs.location(value)
            elif key == "units":
                out[key] = [self.refs.obj(u) for u in value]
            elif key == "do":
                out["type"] = value
            elif key == "targets":
                out[key] = [[self.refs.any(t) for t in slot] for slot in value]
            elif key == "pay_with" and isinstance(value, dict):
                out[key] = {cost: [self.refs.obj(r) for r in ref] if isinstance(ref, list) else self.refs.obj(ref)
                            for cost, ref in value.items()}
            elif key == "damage" and isinstance(value, dict):
                out[key] = {str(self.refs.obj(k)): v for k, v in value.items()}  # an assign action's split
            else:
                out[key] = value
        return out

    def _event(self, pattern: Json) -> Json:
        out: Json = {}
        for key, value in pattern.items():
            if key in OBJECT_FIELDS and not isinstance(value, int):
                out[key] = self.refs.card_obj(value)
            elif key in PLAYER_FIELDS and isinstance(value, str):
                out[key] = self.refs.player(value)
            elif key in LOCATION_FIELDS and isinstance(value, str):
                out[key] = self.refs.location(value)
            elif key == "winners":
                out[key] = [self.refs.player(v) for v in value]
            elif key == "targets" and isinstance(value, list):
                out[key] = [[self.refs.any(t) if isinstance(t, str) else t for t in slot] for slot in value]
            else:
                out[key] = value
        return out

    def _show(self, actions: list[Action]) -> str:
        return "; ".join(json.dumps(a, sort_keys=True) for a in actions[:12]) + (" ..." if len(actions) > 12 else "")


def _matches(actual: Any, want: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(actual, dict) and all(k in actual and _matches(actual[k], v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(actual, list) and len(actual) == len(want) and all(_matches(a, w) for a, w in zip(actual, want))
    return bool(actual == want)


def run_scenario(catalog: Catalog, scenario: Scenario) -> Game | None:
    """Run one scenario; raises ScenarioFailure with a readable report when it fails.

    Returns the game, or None for a deck check without a game."""
    return Runner(catalog, scenario).run()
