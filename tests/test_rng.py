"""The generator on 32-bit halves (core/engine/rng.py) gives exactly the numbers of the plain 64-bit
SplitMix64 formulas it replaced: saved games, seeds and golden logs depend on every one of them."""
from __future__ import annotations

import random

import pytest

from riftscript.core.engine import rng

MASK = (1 << 64) - 1


def reference_next(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def reference_below(state: int, n: int) -> tuple[int, int]:
    limit = (MASK + 1) - ((MASK + 1) % n)
    while True:
        state, value = reference_next(state)
        if value < limit:
            return state, value % n


def _unshift(z: int, k: int) -> int:
    """The inverse of z ^ (z >> k) on 64 bits."""
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x


def state_giving(value: int) -> int:
    """A state whose next 64 random bits are ``value`` (the output function is a bijection)."""
    z = _unshift(value, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z = _unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) & MASK


STATES = [0, 1, MASK, MASK - 1, 1 << 63, (1 << 32) - 1, 1 << 32, 0x9E3779B97F4A7C15,
          (-0x9E3779B97F4A7C15) & MASK] + [random.Random(7).getrandbits(64) for _ in range(2000)]


def test_next_u64_is_splitmix64() -> None:
    for state in STATES:
        assert rng.next_u64(state) == reference_next(state), hex(state)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 10, 26, 40, 52, 64, 100, 255, 1000, 65535, 65537,
                               (1 << 30) - 1, 1 << 30, (1 << 30) + 3, (1 << 40) + 7, 1 << 63])
def test_below_is_the_rejection_sampling_of_splitmix64(n: int) -> None:
    for state in STATES:
        assert rng.below(state, n) == reference_below(state, n), (hex(state), n)


@pytest.mark.parametrize("n", [3, 6, 7, 1000, (1 << 30) - 1, (1 << 30) + 3])
def test_below_rejects_the_values_past_the_last_multiple_of_n_as_before(n: int) -> None:
    """A state whose next value is the largest 64-bit one: rejected for these n (2**64 is not a multiple),
    so the number comes from the value after it, in both versions."""
    for value in (MASK, MASK - ((MASK + 1) % n) + 1, MASK - ((MASK + 1) % n)):
        state = state_giving(value)
        assert reference_next(state)[1] == value
        assert rng.below(state, n) == reference_below(state, n), (n, hex(value))
    assert rng.below(state_giving(MASK), n) != (reference_next(state_giving(MASK))[0], MASK % n)


def test_shuffle_is_unchanged() -> None:
    for seed in range(50):
        items, expected = list(range(40)), list(range(40))
        state = rng.seed_state(seed)
        ref = state
        for i in range(len(expected) - 1, 0, -1):
            ref, j = reference_below(ref, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert rng.shuffle(state, items) == ref and items == expected


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        rng.below(0, 0)
