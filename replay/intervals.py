"""Confidence intervals for the figures of a league and of a bots' arena, written once.

`wilson`: a rate's interval (a player's win rate, a bot's share of wins). `t_point`: Student's t two-sided
point, for the mean of paired differences over few observations (a bot's lead per duplicate deal; the
strength test's stopping rule), where the normal's point would claim too much.
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["wilson", "t_point"]

#: Student's t two-sided points for 1 to 8 degrees of freedom, where the expansion below is off by more than 0.1%.
_T_TABLE = {0.95: (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306),
            0.99: (63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355)}


def wilson(wins: float, games: int, z: float = 1.959964) -> tuple[float, float] | None:
    """The Wilson score interval of a rate of `wins` in `games` (95% by default); None without games."""
    if games <= 0:
        return None
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def t_point(df: int, level: float = 0.95) -> float:
    """Student's t two-sided `level` point with `df` degrees of freedom: the table's up to 8 (95% and 99%),
    else the Cornish-Fisher expansion about the normal's point (within 0.1% of the table from 9)."""
    if df < 1:
        raise ValueError(f"Student's t needs at least 1 degree of freedom, not {df}")
    if df <= len(_T_TABLE.get(level, ())):
        return _T_TABLE[level][df - 1]
    z = NormalDist().inv_cdf(0.5 + level / 2)
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))
