"""Seeded chance: the only source of randomness in a game.

A small SplitMix64 generator whose whole state is one integer, so it serializes with the game
and behaves identically on every Python version (``random.Random`` may not).
"""
from __future__ import annotations

from typing import Final, TypeVar

MASK: Final = (1 << 64) - 1
T = TypeVar("T")


def next_u64(state: int) -> tuple[int, int]:
    """Advance the state; return (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) by rejection sampling (no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (MASK + 1) - ((MASK + 1) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: list[T]) -> int:
    """Fisher-Yates shuffle in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    return (seed * 0x2545F4914F6CDD1D + 0x1234567) & MASK
