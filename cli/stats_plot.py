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
    from diamonds.replay.players import League
    from diamonds.replay.ratings import Ratings
    from diamonds.replay.stats import Breakdown, Distribution, Summary

__all__ = ["draw", "draw_league", "draw_ratings", "check_plot_target", "FORMATS", "PLOT_MISSING", "FEW"]

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


def _box(label: str, d: Distribution) -> dict[str, Any]:
    """matplotlib's box statistics, from the exact distribution (quartiles by the nearest place)."""
    values = d.values_at(round(q * (d.count - 1)) for q in (0.25, 0.75))
    q1, q3 = values if len(values) == 2 else (d.low, d.high)
    return {"label": label, "med": d.median, "q1": q1, "q3": q3, "whislo": d.low, "whishi": d.high,
            "mean": d.mean, "fliers": []}


#: Figures from fewer games (or actions, tricks, hands) than this are drawn grey: too few to read much into.
FEW = 10
COLOUR, GREY = "#4c72b0", "#c8c8c8"


def _counted(label: str, count: int) -> str:
    """A label with the number of games (or items) behind its figure."""
    return f"{label} (n={count:,})"


def _bars(ax: Any, breakdown: Breakdown) -> None:
    assert breakdown.chart is not None
    index = {name: i for i, name in enumerate(breakdown.columns)}
    labels = [" ".join(str(row[index[c]]) for c in breakdown.chart.label) for row in breakdown.rows]
    values = [row[index[breakdown.chart.value]] or 0 for row in breakdown.rows]
    # The number behind each bar: the breakdown's first count column (actions, tricks, hands...).
    count_column = next((i for i, name in enumerate(breakdown.columns)
                         if name not in breakdown.chart.label and all(isinstance(r[i], int) for r in breakdown.rows)),
                        None)
    counts = [row[count_column] for row in breakdown.rows] if count_column is not None else None
    if counts is not None:
        labels = [_counted(label, int(n)) for label, n in zip(labels, counts)]  # type: ignore[arg-type]
    colours = [GREY if counts is not None and int(n) < FEW else COLOUR  # type: ignore[arg-type]
               for n in (counts or values)]
    ax.barh(range(len(values)), values, color=colours)
    ax.set_yticks(range(len(values)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(breakdown.chart.value)
    ax.set_title(breakdown.title, fontsize=10)


def draw(summary: Summary, path: str) -> None:
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
    from matplotlib.patches import Patch

    handles: list[Any] = []  # the sides' own colours, whatever bars were greyed
    for side in range(most):
        rates = [100 * (g.wins[side].rate or 0) if side < len(g.wins) else 0 for g in groups]
        positions = [i - 0.4 + bar * (side + 0.5) for i in range(len(groups))]
        drawn = wins_ax.barh(positions, rates, height=bar, label=f"side {side + 1}")
        handles.append(Patch(facecolor=drawn.patches[0].get_facecolor(), label=f"side {side + 1}"))
        for patch, g in zip(drawn.patches, groups):
            if g.complete < FEW:  # too few games: grey, whatever the side's colour
                patch.set_facecolor(GREY)
    wins_ax.set_yticks(range(len(groups)), [_counted(g.label, g.complete) for g in groups], fontsize=8)
    for tick, g in zip(wins_ax.get_yticklabels(), groups):
        if g.complete < FEW:
            tick.set_color("#888888")
    wins_ax.invert_yaxis()
    wins_ax.set_xlabel("win rate (%)")
    wins_ax.set_title(f"Win rate by side (seat, or team); n = complete games, grey: fewer than {FEW}", fontsize=10)
    if most:
        wins_ax.legend(handles=handles, fontsize=7, ncols=min(most, 6), loc="lower right")
    if groups:
        boxes = [_box(_counted(g.label, g.complete), g.scores) for g in groups]
        try:  # matplotlib 3.10 names it `orientation`; 3.8 and 3.9 only know `vert`
            drawn = scores_ax.bxp(boxes, orientation="horizontal", showmeans=True)
        except TypeError:
            drawn = scores_ax.bxp(boxes, vert=False, showmeans=True)
        for i, g in enumerate(groups):
            if g.complete < FEW:
                for part in ("boxes", "medians", "means"):
                    if i < len(drawn.get(part, [])):
                        drawn[part][i].set_color(GREY)
                for part in ("whiskers", "caps"):
                    for line in drawn.get(part, [])[2 * i:2 * i + 2]:
                        line.set_color(GREY)
        scores_ax.tick_params(axis="y", labelsize=8)
        for tick, g in zip(scores_ax.get_yticklabels(), groups):
            if g.complete < FEW:
                tick.set_color("#888888")
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


def draw_league(league: League, path: str) -> None:
    """`stats --by player --plot`: each player's win rate per rule set, with its 95% interval and its games;
    grey where fewer than `FEW` games."""
    fmt = check_plot_target(path)
    plt = _matplotlib()
    rows = list(league.rows)
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.28 * len(rows) + 1.2)))
    rates = [100 * r.win_rate for r in rows]
    low = [100 * (r.win_rate - r.interval[0]) for r in rows]
    high = [100 * (r.interval[1] - r.win_rate) for r in rows]
    colours = [GREY if r.games < FEW else COLOUR for r in rows]
    ax.barh(range(len(rows)), rates, xerr=[low, high], color=colours, ecolor="#555555", capsize=2)
    ax.set_yticks(range(len(rows)), [_counted(f"{r.player} ({r.rules})", r.games) for r in rows], fontsize=7)
    for tick, r in zip(ax.get_yticklabels(), rows):
        if r.games < FEW:
            tick.set_color("#888888")
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate (%), with its 95% Wilson interval")
    ax.set_title(f"Win rate per player and rule set; n = games, grey: fewer than {FEW}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format=fmt)
    plt.close(fig)


def draw_ratings(ratings: Ratings, path: str) -> None:
    """`ratings --plot`: each player's conservative rating (ordinal) after each of their games; a player
    of fewer than `FEW` games is drawn grey and dashed."""
    fmt = check_plot_target(path)
    plt = _matplotlib()
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for row in ratings.rows:
        points = ratings.history[row.player]
        few = row.games < FEW
        ax.plot([p.index for p in points], [p.ordinal for p in points], marker="o", markersize=3,
                linestyle="--" if few else "-", color=GREY if few else None, linewidth=1 if few else 1.6,
                label=_counted(row.player, row.games))
    ax.set_xlabel("games rated, in date order")
    ax.set_ylabel("ordinal (rating - 3 sigma)")
    ax.set_title(f"Ratings ({ratings.model}); n = games, grey dashed: fewer than {FEW}", fontsize=10)
    if ratings.rows:
        ax.legend(fontsize=6, ncols=2, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path, format=fmt)
    plt.close(fig)
