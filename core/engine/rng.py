"""Seeded chance: the only source of randomness in a game.

A small SplitMix64 generator whose whole state is one integer, so it serializes with the game
and behaves identically on every Python version (``random.Random`` may not).
"""
from __future__ import annotations

from typing import Final, TypeVar

MASK: Final = (1 << 64) - 1
T = TypeVar("T")

GOLDEN: Final = 0x9E3779B97F4A7C15
MUL1: Final = 0xBF58476D1CE4E5B9
MUL2: Final = 0x94D049BB133111EB
LOW: Final = 0xFFFFFFFF
# The generator works on 64-bit values as their 32-bit halves, and multiplies only 16-bit pieces:
# compiled (setup.py), mypyc multiplies in machine integers only when both operands are under 2**30
# (a larger one is boxed into a Python integer and back, about 800 instructions a product, where
# 32-bit operands made a draw cost some 5,500), so every step stays in machine integers (measure
# with ``benchmarks/compare.py --instructions``).  The results are those of the
# plain 64-bit formulas, which tests/test_rng.py keeps as the reference.
G_HI: Final = GOLDEN >> 32
G_LO: Final = GOLDEN & LOW
M1_HI: Final = MUL1 >> 32
M1_LO: Final = MUL1 & LOW
M2_HI: Final = MUL2 >> 32
M2_LO: Final = MUL2 & LOW


def _low32(x: int, y: int) -> int:
    """(x * y) mod 2**32 for 32-bit x and y, from their 16-bit halves."""
    xl = x & 0xFFFF
    yl = y & 0xFFFF
    return (xl * yl + ((((x >> 16) * yl + xl * (y >> 16)) & 0xFFFF) << 16)) & LOW


def _mul(h: int, l: int, ch: int, cl: int) -> tuple[int, int]:
    """The halves of ((h, l) * (ch, cl)) mod 2**64; l * cl from 16-bit pieces, whose partial products
    each fit in 32 bits."""
    l0 = l & 0xFFFF
    l1 = l >> 16
    c0 = cl & 0xFFFF
    c1 = cl >> 16
    mid = l1 * c0 + l0 * c1
    s = l0 * c0 + ((mid & 0xFFFF) << 16)
    high = (s >> 32) + (mid >> 16) + l1 * c1 + _low32(h, cl) + _low32(l, ch)
    return high & LOW, s & LOW


def _mix(h: int, l: int) -> tuple[int, int]:
    """SplitMix64's output (the 64 random bits) for the halves of the advanced state."""
    l ^= ((h << 2) & LOW) | (l >> 30)  # z ^= z >> 30
    h ^= h >> 30
    h, l = _mul(h, l, M1_HI, M1_LO)
    l ^= ((h << 5) & LOW) | (l >> 27)  # z ^= z >> 27
    h ^= h >> 27
    h, l = _mul(h, l, M2_HI, M2_LO)
    return h ^ (h >> 31), l ^ (((h << 1) & LOW) | (l >> 31))  # z ^ (z >> 31)


def _advance(h: int, l: int) -> tuple[int, int]:
    """The halves of (state + GOLDEN) mod 2**64."""
    l += G_LO
    h = (h + G_HI + (l >> 32)) & LOW
    return h, l & LOW


def next_u64(state: int) -> tuple[int, int]:
    """Advance the state; return (new state, 64 random bits)."""
    h, l = _advance(state >> 32, state & LOW)
    zh, zl = _mix(h, l)
    return (h << 32) | l, (zh << 32) | zl


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) by rejection sampling (no modulo bias): a 64-bit value is kept
    when it is under the largest multiple of n that fits in 64 bits."""
    if n <= 0:
        raise ValueError("n must be positive")
    if n >= 1 << 30:
        return _below_wide(state, n)
    r32 = (1 << 32) % n
    rest = (r32 * r32) % n  # 2**64 mod n: values from 2**64 - rest up are rejected
    h, l = _advance(state >> 32, state & LOW)
    while True:
        zh, zl = _mix(h, l)
        if not rest or zh != LOW or zl < (1 << 32) - rest:
            return (h << 32) | l, ((zh % n) * r32 + zl) % n
        h, l = _advance(h, l)


def _below_wide(state: int, n: int) -> tuple[int, int]:
    """``below`` for n of 2**30 and more, with Python's integers (products of halves would not fit)."""
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
