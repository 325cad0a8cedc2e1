"""`stats --plot` and `ratings --plot` draw charts a person reads (issue 34): checked on matplotlib's artists.

The figures are built from summaries made here, so each test decides which set-ups have few games and
which families' scores differ in scale, and looks at what was drawn: the bars' colours and hatching, the
panels, the ticks, the labels and the title.
"""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from matplotlib.colors import to_hex  # noqa: E402

from diamonds.cli.stats_plot import FEW, HATCH, SIDE_COLOURS, TOP, figure, ratings_figure  # noqa: E402
from diamonds.replay.ratings import RatingPoint, RatingRow, Ratings  # noqa: E402
from diamonds.replay.stats import Distribution, FamilyFigures, Group, SideWins, Summary, Ties  # noqa: E402


def group(family: str, rules: str, sides: int, complete: int, scores: dict[int, int]) -> Group:
    """A set-up of `complete` games in which side 1 won all but one and the last side won one."""
    wins = [complete - 1] + [0] * (sides - 2) + [1]
    return Group(family, rules, sides, (), complete, complete, complete,
                 tuple(SideWins(side + 1, (side + 1,), wins[side], complete) for side in range(sides)),
                 Distribution.of(scores), Distribution.of({0: complete}), Ties(complete, 0, 0, 0))


def summary(*groups: Group) -> Summary:
    families = tuple(dict.fromkeys(g.family for g in groups))
    return Summary(sum(g.games for g in groups), sum(g.valid for g in groups), sum(g.complete for g in groups), 0,
                   groups, tuple(FamilyFigures(f, f"{f.title()}'s Diamonds: figures", ()) for f in families))


FEW_KIRK = group("kirk", "kirk", 4, FEW - 7, {150: 3, 210: 6, 281: 3})
MANY_2E = group("fitzgerald", "2e", 4, FEW + 20, {20: 40, 25: 50, 31: 30})
FEW_BIDDING = group("bidding", "bidding", 3, 4, {-104: 4, -90: 4, 12: 4})


def bars_by_colour(ax) -> dict[str, list]:  # type: ignore[no-untyped-def]
    """The axes' visible bars, by their fill's colour without its alpha (a side's own colour, hatched or not)."""
    found: dict[str, list] = {}  # type: ignore[type-arg]
    for patch in ax.patches:
        if patch.get_visible():
            found.setdefault(to_hex(patch.get_facecolor()), []).append(patch)
    return found


def test_win_rate_bars_keep_their_side_s_colour_and_few_games_are_hatched() -> None:
    fig = figure(summary(MANY_2E, FEW_KIRK))
    wins = fig.axes[0]
    assert "Win rate by side" in wins.get_title()
    by_colour = bars_by_colour(wins)
    # Every side is drawn in its own colour, in both set-ups, however few their games.
    assert set(by_colour) == {SIDE_COLOURS[side] for side in range(4)}
    for side in range(4):
        bars = sorted(by_colour[SIDE_COLOURS[side]], key=lambda p: p.get_y())  # 2e first, then kirk
        assert len(bars) == 2
        assert to_hex(bars[0].get_facecolor()) == SIDE_COLOURS[side] and bars[0].get_hatch() in (None, "")
        assert bars[1].get_hatch() == HATCH  # kirk: fewer than FEW games
        assert to_hex(bars[1].get_facecolor()[:3]) == SIDE_COLOURS[side]  # paler, the same colour
    legend = [text.get_text() for text in wins.get_legend().get_texts()]
    assert legend == ["side 1", "side 2", "side 3", "side 4"]
    assert any("Hatched: fewer than" in text.get_text() for text in fig.texts)


def test_a_set_up_with_fewer_sides_draws_no_empty_bar_in_another_side_s_colour() -> None:
    fig = figure(summary(MANY_2E, FEW_BIDDING))
    by_colour = bars_by_colour(fig.axes[0])
    assert len(by_colour[SIDE_COLOURS[3]]) == 1  # side 4 only in the 2e set-up
    assert len(by_colour[SIDE_COLOURS[0]]) == 2


def test_each_family_s_scores_get_their_own_panel_and_scale() -> None:
    fig = figure(summary(MANY_2E, FEW_KIRK, FEW_BIDDING))
    panels = [ax for ax in fig.axes if ax.get_title().startswith("Final scores")]
    assert [ax.get_title() for ax in panels] == ["Final scores: Fitzgerald's Diamonds", "Final scores: Kirk's Diamonds",
                                                 "Final scores: Bidding's Diamonds"]
    ranges = [ax.get_xlim() for ax in panels]
    # Each panel's axis spans its own family's scores, not the others'.
    assert ranges[0][0] < 20 and ranges[0][1] < 100
    assert ranges[1][0] > 100 and ranges[1][1] > 281
    assert ranges[2][0] < -104 and ranges[2][1] < 100
    hatched = [[patch.get_hatch() == HATCH for patch in ax.patches] for ax in panels]
    assert hatched == [[False], [True], [True]]


def ratings(players: int) -> Ratings:
    """`players` players, each rated after the games `1 + k, 1 + k + players, ...` (k their place)."""
    rows, history = [], {}
    for k in range(players):
        name = f"P{k:02d}"
        points = tuple(RatingPoint(1 + k + players * g, None, 30.0 - k - g * (k % 3 - 1), 4.0) for g in range(3))
        history[name] = points
        rows.append(RatingRow(name, points[-1].mu, points[-1].sigma, len(points)))
    rows.sort(key=lambda row: -row.ordinal)
    return Ratings("Plackett-Luce (openskill)", 3 * players, (), tuple(rows), history)


def test_ratings_name_the_top_players_at_their_lines_ends_and_draw_the_others_faint() -> None:
    found = ratings(TOP + 5)
    fig = ratings_figure(found)
    ax = fig.axes[0]
    top = [row.player for row in found.rows[:TOP]]
    labels = {text.get_text(): text for text in ax.texts}
    assert set(labels) == set(top)  # only the top players are named
    lines = {line.get_label(): line for line in ax.lines if not line.get_label().startswith("_")}
    assert set(lines) == set(top)
    for name in top:
        line, label = lines[name], labels[name]
        assert label.get_color() == line.get_color()  # the label in its line's colour
        assert label.xy == (line.get_xdata()[-1], line.get_ydata()[-1])  # pointing at the line's last point
        assert label.get_position()[0] > max(line.get_xdata())  # written right of it
    colours = {to_hex(line.get_color()) for line in lines.values()}
    assert len(colours) == TOP
    faint = [line for line in ax.lines if line.get_label().startswith("_")]
    assert len(faint) == 5 and {to_hex(line.get_color()) for line in faint} == {"#d0d0d0"}
    heights = sorted(label.get_position()[1] for label in labels.values())
    low, high = ax.get_ylim()
    assert all(b - a >= (high - low) * 0.03 for a, b in zip(heights, heights[1:]))  # no two labels overlap


def test_ratings_ticks_are_whole_games_and_the_title_is_plain() -> None:
    fig = ratings_figure(ratings(3))
    ax = fig.axes[0]
    ticks = [tick for tick in ax.get_xticks() if ax.get_xlim()[0] <= tick <= ax.get_xlim()[1]]
    assert ticks and all(float(tick).is_integer() for tick in ticks)
    title = ax.get_title()
    assert title == "Ratings after each game"  # three players: all in colour, nothing to explain
    assert title.count("(") <= 1 and "((" not in title and "))" not in title
    many = ratings_figure(ratings(TOP + 2)).axes[0].get_title()
    assert many == f"Ratings after each game: the best {TOP} in colour, the other 2 in grey"
