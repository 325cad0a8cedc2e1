"""Pictures of the table as SVG: pure functions from a replay stop to SVG text (no rich, no terminal).

Each family draws its own table (`Family.picture`, a `draw.Picture`); `draw`
holds what every picture shares. As python-chess's `chess.svg.board`, the
result is plain text: write it to a file, embed it in a page, or let a
notebook show it (`Step._repr_svg_`, `Game._repr_svg_`).
"""

from __future__ import annotations

from typing import Any

from diamonds.core import family_of

from .draw import WIDTH, Picture

__all__ = ["step_svg", "picture_of"]


def picture_of(rules: str) -> Picture:
    """The picture part of the family a `Rules` tag names."""
    picture: Picture = family_of(rules).part("picture")
    return picture


def step_svg(step: Any, as_player: int | None = None, *, size: int = WIDTH, for_page: bool = False) -> str:
    """The table at a replay stop as SVG text.

    `as_player` (a seat): only what that player may see is in the picture
    (others' hands as backs, and in Fitzgerald's games others' Vaults and
    scores); None shows everything. `for_page`: every private thing twice,
    `<g class="private" data-seat="N">` and `<g class="concealed" data-seat="N">`,
    for a page's CSS to choose; at the game's end nothing is private.
    """
    return picture_of(step.table.config.rules).svg(step, as_player, size=size, for_page=for_page)
