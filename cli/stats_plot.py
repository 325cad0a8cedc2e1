"""`stats --plot FILE`: the figures a picture says better than a table, drawn with matplotlib.

One figure, a panel per question: the win rate of each side per set-up
(is a seat favoured?), the spread of final scores per set-up (box and
whiskers from the exact distribution), and each family's breakdown that has
a `Chart`. matplotlib (the `plot` extra) is imported only here, with the
Agg backend (no display needed); the file's suffix picks the format.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .errors import CommandError

if TYPE_CHECKING:
    from diamonds.replay.stats import Breakdown, Distribution, Summary

__all__ = ["draw", "check_plot_target", "FORMATS", "PLOT_MISSING"]

FORMATS = {".png": "png", ".svg": "svg"}
PLOT_MISSING = 'stats --plot needs matplotlib: pip install "diamonds[plot]"'


def check_plot_target(path: str) -> str:
    """The format of `path` by its suffix, and matplotlib present; a usage error (status 2) otherwise."""
    suffix = os.path.splitext(path)[1].lower()
    found = FORMATS.get(suffix)
    if found is None:
        raise CommandError(f"--plot {path}: the file's name must end in .png or .svg (it picks the format)")
    _matplotlib()
    return found


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise CommandError(PLOT_MISSING) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _box(label: str, d: "Distribution") -> dict[str, Any]:
    """matplotlib's box statistics, from the exact distribution (quartiles by the nearest place)."""
    values: list[int] = []
    n = d.count
    places = [round(q * (n - 1)) for q in (0.25, 0.75)]
    seen = 0
    for value, count in d.counts:
        for place in places:
            if seen <= place < seen + count:
                values.append(value)
        seen += count
    q1, q3 = values if len(values) == 2 else (d.low, d.high)
    return {"label": label, "med": d.median, "q1": q1, "q3": q3, "whislo": d.low, "whishi": d.high,
            "mean": d.mean, "fliers": []}


def _bars(ax: Any, breakdown: "Breakdown") -> None:
    assert breakdown.chart is not None
    index = {name: i for i, name in enumerate(breakdown.columns)}
    labels = [" ".join(str(row[index[c]]) for c in breakdown.chart.label) for row in breakdown.rows]
    values = [row[index[breakdown.chart.value]] or 0 for row in breakdown.rows]
    ax.barh(range(len(values)), values, color="#4c72b0")
    ax.set_yticks(range(len(values)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(breakdown.chart.value)
    ax.set_title(breakdown.title, fontsize=10)


def draw(summary: "Summary", path: str) -> None:
    """Write the charts of `summary` to `path` (.png or .svg)."""
    fmt = check_plot_target(path)
    plt = _matplotlib()
    charts = [b for f in summary.families for b in f.breakdowns if b.chart is not None and b.rows]
    groups = [g for g in summary.groups if g.complete]
    panels = 2 + len(charts)
    height = max(2.5, 0.35 * len(groups) + 1.2)
    fig, axes = plt.subplots(panels, 1, figsize=(8, height * 2 + 2.6 * len(charts)), squeeze=False,
                             gridspec_kw={"height_ratios": [height, height] + [2.6] * len(charts)})
    wins_ax, scores_ax = axes[0][0], axes[1][0]
    most = max((len(g.wins) for g in groups), default=0)
    bar = 0.8 / max(1, most)
    for side in range(most):
        rates = [100 * (g.wins[side].rate or 0) if side < len(g.wins) else 0 for g in groups]
        positions = [i - 0.4 + bar * (side + 0.5) for i in range(len(groups))]
        wins_ax.barh(positions, rates, height=bar, label=f"side {side + 1}")
    wins_ax.set_yticks(range(len(groups)), [g.label for g in groups], fontsize=8)
    wins_ax.invert_yaxis()
    wins_ax.set_xlabel("win rate (%)")
    wins_ax.set_title("Win rate by side (seat, or team)", fontsize=10)
    if most:
        wins_ax.legend(fontsize=7, ncols=min(most, 6), loc="lower right")
    if groups:
        boxes = [_box(g.label, g.scores) for g in groups]
        try:  # matplotlib 3.10 names it `orientation`; 3.8 and 3.9 only know `vert`
            scores_ax.bxp(boxes, orientation="horizontal", showmeans=True)
        except TypeError:
            scores_ax.bxp(boxes, vert=False, showmeans=True)
        scores_ax.tick_params(axis="y", labelsize=8)
        scores_ax.invert_yaxis()
    scores_ax.set_xlabel("final score")
    scores_ax.set_title("Final scores (box: quartiles; whiskers: min and max; triangle: mean)", fontsize=10)
    for chart, row in zip(charts, axes[2:]):
        _bars(row[0], chart)
    fig.tight_layout()
    from diamonds.io.write import replacing

    with replacing(path, encoding=None, force_option=False) as out:  # the one writer: whole or not at all, mode kept
        fig.savefig(out, format=fmt)
    plt.close(fig)
