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
    from diamonds.replay.stats import Breakdown, Distribution, Group, Summary

__all__ = ["draw", "figure", "draw_league", "draw_ratings", "ratings_figure", "check_plot_target", "FORMATS", "PLOT_MISSING",
           "FEW"]

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


#: Figures from fewer games (or actions, tricks, hands) than this are hatched: too few to read much into.
FEW = 10
COLOUR = "#4c72b0"
#: One colour per side, the same in every panel and whatever the count (matplotlib's tab10, colour-blind aware).
SIDE_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
HATCH = "////"
FEW_NOTE = f"Hatched: fewer than {FEW} games (or actions, tricks, hands) behind the figure, too few to read much into"


def _counted(label: str, count: int) -> str:
    """A label with the number of games (or items) behind its figure."""
    return f"{label} (n={count:,})"


def _mark_few(patch: Any, colour: str) -> None:
    """A figure from too few: its own colour kept, paler and hatched (the figure note says why)."""
    patch.set_facecolor((*_rgb(colour), 0.35))
    patch.set_edgecolor(colour)
    patch.set_hatch(HATCH)


def _rgb(colour: str) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb

    return tuple(to_rgb(colour))  # type: ignore[return-value]


def _bars(ax: Any, breakdown: Breakdown) -> None:
    assert breakdown.chart is not None
    index = {name: i for i, name in enumerate(breakdown.columns)}
    labels = [" ".join(str(row[index[c]]) for c in breakdown.chart.label) for row in breakdown.rows]
    values = [row[index[breakdown.chart.value]] or 0 for row in breakdown.rows]
    # The number behind each bar: the breakdown's first count column (actions, tricks, hands...).
    count_column = next((i for i, name in enumerate(breakdown.columns)
                         if name not in breakdown.chart.label and all(isinstance(r[i], int) for r in breakdown.rows)),
                        None)
    counts = [int(row[count_column]) for row in breakdown.rows] if count_column is not None else None  # type: ignore[arg-type]
    if counts is not None:
        labels = [_counted(label, n) for label, n in zip(labels, counts)]
    drawn = ax.barh(range(len(values)), values, color=COLOUR)
    for patch, n in zip(drawn.patches, counts or ()):
        if n < FEW:
            _mark_few(patch, COLOUR)
    ax.set_yticks(range(len(values)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(breakdown.chart.value)
    ax.set_title(breakdown.title, fontsize=10)


def _wins(ax: Any, groups: list[Group]) -> None:
    """Win rate per set-up, a bar per side in that side's colour; a set-up of few games hatched."""
    from matplotlib.patches import Patch

    most = max((len(g.wins) for g in groups), default=0)
    bar = 0.8 / max(1, most)
    handles: list[Any] = []
    for side in range(most):
        colour = SIDE_COLOURS[side % len(SIDE_COLOURS)]
        rates = [100 * (g.wins[side].rate or 0) if side < len(g.wins) else 0 for g in groups]
        positions = [i - 0.4 + bar * (side + 0.5) for i in range(len(groups))]
        drawn = ax.barh(positions, rates, height=bar, color=colour)
        handles.append(Patch(facecolor=colour, label=f"side {side + 1}"))
        for patch, g in zip(drawn.patches, groups):
            if side >= len(g.wins):
                patch.set_visible(False)  # this set-up has fewer sides
            elif g.complete < FEW:
                _mark_few(patch, colour)
    ax.set_yticks(range(len(groups)), [_counted(g.label, g.complete) for g in groups], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate (%)")
    ax.set_title("Win rate by side (a seat, or a team's seats); n = complete games", fontsize=10)
    if most:
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))


def _scores(ax: Any, groups: list[Group], title: str) -> None:
    """One family's final scores per set-up: box and whiskers, on the family's own scale."""
    boxes = [_box(_counted(g.label, g.complete), g.scores) for g in groups]
    try:  # matplotlib 3.10 names it `orientation`; 3.8 and 3.9 only know `vert`
        drawn = ax.bxp(boxes, orientation="horizontal", showmeans=True, patch_artist=True)
    except TypeError:
        drawn = ax.bxp(boxes, vert=False, showmeans=True, patch_artist=True)
    for box, g in zip(drawn["boxes"], groups):
        box.set_facecolor((*_rgb(COLOUR), 0.55))
        box.set_edgecolor(COLOUR)
        if g.complete < FEW:
            _mark_few(box, COLOUR)
    ax.tick_params(axis="y", labelsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("final score (box: quartiles; whiskers: min and max; triangle: mean)", fontsize=9)
    ax.set_title(f"Final scores: {title}", fontsize=10)


def figure(summary: Summary) -> Any:
    """The charts of `summary` as one matplotlib figure: the win rates; the final scores, a panel per family
    (their scales differ: Kirk's run to hundreds, the bidding game's below zero); each family's breakdowns."""
    plt = _matplotlib()
    charts = [b for f in summary.families for b in f.breakdowns if b.chart is not None and b.rows]
    groups = [g for g in summary.groups if g.complete]
    titles = {f.family: f.title.split(":")[0] for f in summary.families}  # "Kirk's Diamonds: tricks and ..."
    families = list(dict.fromkeys(g.family for g in groups))  # in the summary's order
    by_family = [[g for g in groups if g.family == family] for family in families]
    heights = ([max(2.2, 0.35 * len(groups) + 1.2)] + [max(1.6, 0.4 * len(gs) + 1.0) for gs in by_family]
               + [2.6] * len(charts))
    height = sum(heights) + 0.6
    fig, axes = plt.subplots(len(heights), 1, figsize=(8, height), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    _wins(axes[0][0], groups)
    for family, family_groups, row in zip(families, by_family, axes[1:]):
        _scores(row[0], family_groups, titles.get(family, family))
    for chart, row in zip(charts, axes[1 + len(families):]):
        _bars(row[0], chart)
    fig.text(0.02, 0.12 / height, FEW_NOTE, fontsize=8, color="#555555")
    fig.tight_layout(rect=(0, 0.4 / height, 1, 1))
    return fig


def draw(summary: Summary, path: str) -> None:
    """Write the charts of `summary` to `path` (.png or .svg)."""
    _write(figure, summary, path)


def _write(make: Any, data: Any, path: str) -> None:
    """`make(data)`'s figure written to `path` through the one writer, then closed: every chart's last step."""
    fmt = check_plot_target(path)
    plt = _matplotlib()
    fig = make(data)
    _save(fig, path, fmt)
    plt.close(fig)


def _save(fig: Any, path: str, fmt: str) -> None:
    from diamonds.io.write import replacing

    with replacing(path, encoding=None, force_option=False) as out:  # the one writer: whole or not at all, mode kept
        fig.savefig(out, format=fmt)


def draw_league(league: League, path: str) -> None:
    """`stats --by player --plot`: each player's win rate per rule set, with its 95% interval and its games;
    hatched where fewer than `FEW` games."""
    fmt = check_plot_target(path)
    plt = _matplotlib()
    rows = list(league.rows)
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.28 * len(rows) + 1.2)))
    rates = [100 * r.win_rate for r in rows]
    low = [100 * (r.win_rate - r.interval[0]) for r in rows]
    high = [100 * (r.interval[1] - r.win_rate) for r in rows]
    drawn = ax.barh(range(len(rows)), rates, xerr=[low, high], color=COLOUR, ecolor="#555555", capsize=2)
    for patch, r in zip(drawn.patches, rows):
        if r.games < FEW:
            _mark_few(patch, COLOUR)
    ax.set_yticks(range(len(rows)), [_counted(f"{r.player}, {r.rules}", r.games) for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate (%), with its 95% Wilson interval")
    ax.set_title(f"Win rate per player and rule set; n = games, hatched: fewer than {FEW}", fontsize=10)
    fig.tight_layout()
    _save(fig, path, fmt)
    plt.close(fig)


#: The players drawn in colour and named at their line's end; the others are faint.
TOP = 8
FAINT = "#d0d0d0"


def ratings_figure(ratings: Ratings) -> Any:
    """Each player's conservative rating (ordinal) after each of their games: the `TOP` best in colour, each
    named at its line's end, the others faint behind them."""
    plt = _matplotlib()
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(9, 5.5))
    top = [row.player for row in ratings.rows[:TOP]]
    for row in ratings.rows[TOP:]:  # first, so the top players' lines lie over them
        points = ratings.history[row.player]
        ax.plot([p.index for p in points], [p.ordinal for p in points], color=FAINT, linewidth=0.8, marker="o",
                markersize=1.5, zorder=1)
    ends: list[tuple[float, float, str, str]] = []
    for place, player in enumerate(top):
        points = ratings.history[player]
        colour = SIDE_COLOURS[place % len(SIDE_COLOURS)]
        ax.plot([p.index for p in points], [p.ordinal for p in points], color=colour, linewidth=1.8, marker="o",
                markersize=3, zorder=2, label=player)
        ends.append((points[-1].index, points[-1].ordinal, player, colour))
    _label_ends(ax, ends)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("games rated, in date order")
    ax.set_ylabel(f"ordinal: rating - 3 sigma ({ratings.model})")
    others = len(ratings.rows) - len(top)
    ax.set_title(f"Ratings after each game: the best {len(top)} in colour, the other {others} in grey" if others
                 else "Ratings after each game", fontsize=10)
    fig.tight_layout()
    return fig


def _label_ends(ax: Any, ends: list[tuple[float, float, str, str]]) -> None:
    """Each name just right of its line's last point, nudged apart so that no two overlap."""
    if not ends:
        return
    low, high = ax.get_ylim()
    gap = (high - low) * 0.035
    right = max(x for x, _, _, _ in ends)
    placed: list[float] = []
    for x, y, name, colour in sorted(ends, key=lambda end: end[1]):
        at = max(y, placed[-1] + gap) if placed else y
        placed.append(at)
        ax.annotate(name, (x, y), xytext=(right + 0.6, at), textcoords="data", color=colour, fontsize=8,
                    va="center", arrowprops={"arrowstyle": "-", "color": colour, "linewidth": 0.5, "alpha": 0.6})
    ax.set_xlim(right=right + 0.6 + max(1.0, 0.12 * right))


def draw_ratings(ratings: Ratings, path: str) -> None:
    """`ratings --plot`: `ratings_figure` written to `path` (.png or .svg)."""
    _write(ratings_figure, ratings, path)
