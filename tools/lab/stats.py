"""Confidence intervals for win rates: Wilson's score interval for one proportion and Newcombe's
hybrid score interval for the difference of two (both 95% by default)."""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``wins / games``; (0, 1) when nothing was played.  Unlike the
    normal approximation it stays inside [0, 1] and is honest for small counts and rates near 0 or 1."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(wins_a: int, games_a: int, wins_b: int, games_b: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two win rates (a - b) and its interval (Newcombe 1998, method 10: from the
    two Wilson intervals)."""
    p_a = wins_a / games_a if games_a else 0.0
    p_b = wins_b / games_b if games_b else 0.0
    low_a, high_a = wilson(wins_a, games_a, z)
    low_b, high_b = wilson(wins_b, games_b, z)
    difference = p_a - p_b
    low = difference - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2)
    high = difference + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2)
    return difference, low, high


def rate(wins: int, games: int) -> float | None:
    return wins / games if games else None
