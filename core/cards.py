"""Compiled card definitions: what the kernel reads instead of raw YAML.

Scripts are compiled once at load time: keywords are expanded into their abilities, target
slots are numbered, and each triggered ability records the event it listens to so that
dispatch is a dictionary lookup by event type.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

TYPES = ("unit", "spell", "gear", "legend", "battlefield", "rune", "marker")

# The abilities a create_effect makes: their targets are chosen when they trigger or apply, not as the
# ability that creates them is played or put on the chain (engine notes, playing a card: a triggered
# ability's choices are made as it goes on the chain).
CREATED_ABILITY_KEYS = ("trigger", "replacement", "static")


def created_abilities(node: Json) -> tuple[str, ...]:
    """The keys of a script node holding abilities it creates (their targets are not this ability's)."""
    return CREATED_ABILITY_KEYS if node.get("type") == "create_effect" else ()
DOMAINS = ("fury", "calm", "mind", "body", "chaos", "order")


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card, a keyword instance, or a lasting effect."""

    kind: str
    index: int
    body: Json
    keyword: str | None = None
    keyword_value: Any = None
    event: str | None = None
    target_slots: int = 0
    decides: bool = False

    @property
    def effect(self) -> Json | None:
        eff = self.body.get("effect")
        return eff if isinstance(eff, dict) else None

    @property
    def timing(self) -> str | None:
        value = self.body.get("timing")
        return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class CardDef:
    """The facts and compiled script of a card (or token)."""

    code: str
    name: str
    type: str
    set_code: str
    supertype: str | None = None
    domains: tuple[str, ...] = ()
    energy: int = 0
    power: tuple[str, ...] = ()
    might: int = 0
    might_bonus: int = 0
    tags: tuple[str, ...] = ()
    champion_tag: str | None = None
    equipment: bool = False
    token: bool = False
    keywords: tuple[tuple[str, Any], ...] = ()
    abilities: tuple[Ability, ...] = ()
    source: str = ""
    raw: Json = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_permanent(self) -> bool:
        return self.type in ("unit", "gear")

    def has_keyword(self, name: str) -> bool:
        return any(k == name for k, _ in self.keywords)

    def abilities_of(self, kind: str) -> list[Ability]:
        return [a for a in self.abilities if a.kind == kind]
