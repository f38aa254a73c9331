"""Compiling a card's script into what the kernel reads (``CardDef``, ``Ability``): keywords expanded
into their abilities, target slots numbered, costs put into keyword abilities, and the facts the
engine asks about a card worked out once.
"""
from __future__ import annotations

from sys import intern
from typing import Any, Iterable

from .cards import (Ability, CardDef, Json, KeywordDef, TargetSlots, add_keyword, card_facts, created_abilities,
                    substitute, target_effects, walk_targets)
from .registry import EffectType


def _walk(node: Any) -> Iterable[Json]:
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            yield cur
            stack.extend(cur.values())
        elif isinstance(cur, list):
            stack.extend(cur)


def _own_nodes(node: Any) -> Iterable[Json]:
    """Every mapping of an ability's script but those inside the abilities it creates."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            yield cur
            skip = created_abilities(cur)
            stack.extend(v for k, v in cur.items() if k not in skip)
        elif isinstance(cur, list):
            stack.extend(cur)


def keyword_id(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


class Compiler:
    """Turns validated card data into CardDefs, expanding keywords into abilities.

    Whether an ability may ask a player while it resolves (``Ability.decides``: it then resolves
    guarded, from a snapshot) is read from what the language declares: ``EffectType.decides`` of
    each primitive it uses, selections chosen on resolution, and the player references and
    destinations whose handlers may ask (``Table.asks`` in ``core/engine/effects.py``)."""

    def __init__(self, keywords: dict[str, KeywordDef], effect_types: dict[str, EffectType] | None = None) -> None:
        self.keywords = keywords
        self.effect_types = effect_types or {}

    def keyword_uses(self, raw: list[Any]) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        for use in raw:
            if isinstance(use, str):
                out.append((keyword_id(use), None))
            else:
                ((name, value),) = use.items()
                out.append((keyword_id(name), value))
        return out

    def compile(self, data: Json, set_code: str, source: str) -> CardDef:
        keywords = self.keyword_uses(data.get("keywords", []))
        abilities: list[Ability] = []
        for body in data.get("abilities", []):
            abilities.append(self.ability(body, len(abilities), None, None))
        for name, value in keywords:
            kw = self.keywords.get(name)
            if kw is None:
                continue
            if value is None and kw.parameter_kind == "number":
                value = kw.default if kw.default is not None else 1
            for body in kw.abilities:
                body = substitute(body, value)
                if kw.parameter_kind == "cost" and isinstance(value, dict):
                    body = _with_cost(body, value)
                abilities.append(self.ability(body, len(abilities), name, value))
            if kw.additional_cost is not None:
                extra = {"kind": "additional_cost", **kw.additional_cost}
                if kw.parameter_kind == "cost" and isinstance(value, dict):
                    extra["cost"] = value
                taken = {a.body.get("name") for a in abilities if a.kind == "additional_cost"}
                if extra.get("name") in taken:
                    # several instances of one cost keyword are separate costs (820: "[Repeat] {1} / {A}"):
                    # the second is named repeat_2, the third repeat_3
                    extra["name"] = next(f"{extra['name']}_{n}" for n in range(2, 99) if f"{extra['name']}_{n}" not in taken)
                abilities.append(self.ability(extra, len(abilities), name, value))
        stacked: dict[str, Any] = {}
        printed: dict[str, Any] | None = stacked
        try:
            for name, value in keywords:
                add_keyword(self.keywords, stacked, name, value)
        except (TypeError, ValueError):
            printed = None  # a number keyword with an amount to work out in play (layers reads it then)
        cost = data.get("cost", {})
        domains = tuple(data.get("domains", []))
        power = tuple(cost.get("power", []))
        return CardDef(
            code=intern(data["code"]), name=data["name"], type=data["type"], set_code=set_code,
            supertype=data.get("supertype"), domains=domains,
            energy=int(cost.get("energy", 0)), power=power,
            might=int(data.get("might", 0)), might_bonus=int(data.get("might_bonus", 0)),
            tags=tuple(data.get("tags", [])), champion_tag=data.get("champion_tag"),
            equipment=bool(data.get("equipment", False)),
            token=bool(data.get("token", False) or data.get("supertype") == "token"),
            keywords=tuple(keywords), abilities=tuple(abilities), source=source, raw=data,
            facts=card_facts(tuple(abilities), power, domains, self._has_cost_keyword, printed, self._keyword_hooks),
        )

    def _granted_keyword(self, name: str) -> KeywordDef | None:
        """The keyword a modifier names (``{type: keyword, keyword: ...}``), as ``layers._compute`` finds it."""
        return self.keywords.get(str(name).lower().replace("-", "_"))

    def _has_cost_keyword(self, name: str) -> bool:
        """Whether a keyword (as a modifier names it) brings an additional cost ([Accelerate], [Repeat])."""
        kw = self._granted_keyword(name)
        return kw is not None and kw.additional_cost is not None

    def _keyword_hooks(self, name: str) -> frozenset[str] | None:
        """The hooks a granted keyword's static abilities may give (``layers._compute`` reads their hook
        modifiers only); None for an unknown keyword, or one whose modifiers its value may fill in."""
        kw = self._granted_keyword(name)
        if kw is None:
            return None
        hooks: set[str] = set()
        for ability in kw.abilities:
            if ability.get("kind") != "static":
                continue
            modifiers = ability.get("modifiers")
            if not isinstance(modifiers, list):
                return None
            for m in modifiers:
                if not isinstance(m, dict) or m.get("type") in ("variable", "keyword_effect"):
                    return None  # the keyword's value is the modifier (cards.substitute)
                if m.get("type") == "hook":
                    hook = m.get("hook")
                    if not isinstance(hook, str):
                        return None
                    hooks.add(hook)
        return frozenset(hooks)

    def ability(self, body: Json, index: int, keyword: str | None, value: Any) -> Ability:
        """Compile one ability's script (numbered ``index``; given by ``keyword`` with ``value``, if any)."""
        body = _number_targets(body)
        slots = sum(1 for node in _own_nodes(body) if node.get("pick") == "target")
        decides = any(self._decides(node) for node in _walk(body.get("effect") or body.get("instead") or {})) \
            or bool(body.get("optional"))
        event = body["when"]["event"] if body.get("kind") == "triggered" else None
        if body.get("kind") == "replacement":
            event = body["replaces"]["event"]
        return Ability(kind=body["kind"], index=index, body=body, keyword=keyword, keyword_value=value,
                       event=event, target_slots=slots, decides=decides,
                       effect_targets=TargetSlots(walk_targets(body.get("effect") or {})),
                       slot_effects=target_effects(body))


    def _decides(self, node: Json) -> bool:
        """Whether resolving this node may ask a player."""
        from ..engine.effects import PLAYERS

        etype = self.effect_types.get(node.get("type", "")) if "type" in node else None
        return bool(
            (etype is not None and etype.decides) or node.get("pick") == "choose"
            or node.get("split") or node.get("new_choices")
            or _chosen_location(node.get("to")) or _chosen_location(node.get("at"))
            or any(isinstance(node.get(key), str) and node[key] in PLAYERS.asks for key in PLAYER_KEYS)
            or (node.get("type") == "add" and "own" in node.get("power", []))
            or (node.get("type") == "create_token" and "at" not in node))


# the fields that hold player references (``PLAYERS`` in core/engine/effects.py)
PLAYER_KEYS = ("player", "chooser", "who")


def _chosen_location(spec: Any) -> bool:
    from ..engine.effects import PLACES

    return isinstance(spec, str) and spec in PLACES.asks


def _with_cost(body: Json, cost: Json) -> Json:
    """A cost keyword's parameter is the cost its script's costs stand for: an activated ability's
    ("[Equip] {1}"), and that of a static's modifiers that carry one (a ``play_from`` cost)."""
    if body.get("kind") == "activated":
        return {**body, "cost": cost}
    if body.get("kind") == "static":
        return {**body, "modifiers": [{**m, "cost": cost} if "cost" in m else m for m in body["modifiers"]]}
    return body


def _number_targets(body: Json) -> Json:
    """Give every 'pick: target' selection its slot number, in script order; every key and string of
    the copy is interned.  A script read from YAML or JSON holds strings of its own, equal to the
    engine's literals but not the same objects: each lookup such as ``body["effect"]`` then compares
    the strings' characters, where an interned key is found by identity (about a third of a game's
    dictionary lookups were of that kind)."""
    counter = [0]

    def visit(node: Any) -> Any:
        if isinstance(node, dict):
            if node.get("type") == "move" and _chosen_location(node.get("to")):
                # Move destinations are chosen as the card is played (Patch Notes, Oct 2025)
                where = {"location": "battlefield"} if node["to"] == "choose_battlefield" else {}
                target = visit(node["target"])
                dest: dict[str, Any] = {"pick": "target", "what": "location", "where": where}
                if isinstance(target, dict) and "_slot" in target:
                    dest["_move_of"] = target["_slot"]
                rest = {intern(k): visit(v) for k, v in node.items() if k not in ("target", "to")}
                dest["_slot"] = counter[0]
                counter[0] += 1
                return {**rest, "target": target, "to": dest}
            skip = created_abilities(node)  # numbered when the created ability is compiled (lasting_ability)
            out = {intern(k): (v if k in skip else visit(v)) for k, v in node.items()}
            if out.get("pick") == "target":
                out["_slot"] = counter[0]
                counter[0] += 1
            return out
        if isinstance(node, list):
            return [visit(v) for v in node]
        if isinstance(node, str):
            return intern(node)
        return node

    result: Json = visit(body)
    return result
