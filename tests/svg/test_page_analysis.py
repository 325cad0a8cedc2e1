"""The page's analysis (issue 32 item 5): marks, the per-player summary and the loss chart, read from the
annotated record's comments (`bots/notes.py`) and nothing else; a page of an unannotated game has none.
Without a browser (tests/svg/test_page_layout.py looks at the page in one)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from analysed import analysed
from test_page import LEAGUE, SAMPLES, page_data, parsed, write_page

from diamonds.bots.analyse import Judgement, accuracy
from diamonds.bots.notes import mark_comment, read_mark, read_summary, summary_comment, with_summary
from diamonds.notation.records import Comment, GameRecord
from diamonds.svg.page import PageMark, PagePlayer, loss_chart


@pytest.fixture(scope="module")
def annotated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Judgement], Any]:
    return analysed(tmp_path_factory.mktemp("analysed"))


@pytest.fixture(scope="module")
def shown(annotated: tuple[Path, list[Judgement], Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    status, page, err = write_page(tmp_path_factory.mktemp("page"), annotated[0])
    assert status == 0, err
    game: dict[str, Any] = page_data(page)["games"][0]
    return game


# --------------------------------------------------------------------------- the comments' form


@pytest.mark.parametrize("method", ["est", "exact", "double dummy"])
def test_a_marks_comment_reads_back_as_written(method: str) -> None:
    low, high = (1.24, 2.76) if method == "est" else (2.0, 2.0)
    j = Judgement(7, 0, 3, "pass", "Ines_B", "pass 1D 14D", "pass 1D 2H", -1.0, 1.0, low, high, 96, 12, 45, method, "?")
    mark = read_mark(mark_comment(j).text)
    assert mark is not None
    assert (mark.glyph, mark.played, mark.best, mark.method) == ("?", "pass 1D 14D", "pass 1D 2H", method)
    assert (mark.played_value, mark.best_value, mark.loss) == (-1.0, 1.0, 2.0)
    assert (mark.low, mark.high) == ((1.2, 2.8) if method == "est" else (2.0, 2.0))  # one decimal, as written
    assert mark.player == "Ines_B"  # a double-dummy comment names the player too: an end line names no one


def test_an_older_double_dummy_comment_reads_back_with_no_player() -> None:
    """As `analyse` wrote it before a double-dummy comment named the player: still a mark (the page takes the
    player from the move)."""
    mark = read_mark("? best: >Kofi (+1.0) vs >Ines_B (-1.0), loses 2.0 pts; double dummy: every hand seen")
    assert mark is not None
    assert (mark.glyph, mark.played, mark.best, mark.loss, mark.method, mark.player) == \
        ("?", ">Ines_B", ">Kofi", 2.0, "double dummy", "")


@pytest.mark.parametrize("text", ["wins with the 2S", "? best: 5S", "?! a comment of a person's", "",
                                  "after R1 (Showroom/Vault): hwalsh 0/3"])
def test_other_comments_are_no_marks_and_no_summary(text: str) -> None:
    assert read_mark(text) is None and read_summary(text) is None


def test_the_summary_comment_reads_back_and_replaces_an_older_one() -> None:
    from diamonds.bots.analyse import PlayerSummary

    rows = [PlayerSummary("hwalsh", 59, 3, 4, 0, 0.55, 86.3), PlayerSummary("Kofi", 63, 9, 2, 1, 0.64, 84.25)]
    assert read_summary(summary_comment(rows).text) == [rows[0], PlayerSummary("Kofi", 63, 9, 2, 1, 0.64, 84.2)]
    record = GameRecord(comments=(Comment("a person's", True), summary_comment(rows[:1])))
    again = with_summary(record, rows)
    assert [c.text for c in again.comments][0] == "a person's"
    assert [read_summary(c.text) is not None for c in again.comments] == [False, True]  # one summary: the new one
    assert len(read_summary(again.comments[1].text) or []) == 2


# --------------------------------------------------------------------------- the page's data


def _expected_label(game: Any, judgement: Judgement) -> str:
    """Where a mark belongs: a card's own position; a victim's, the position where it was due (R14: asked as soon
    as it is due; for a won Clubs lead once the trick is complete, R10, though its `>Name` is written on the
    winner's card; R2.end for the Clubs majority's); another decision, R<k>.0."""
    round_ = game.record.rounds[judgement.round_index]
    index = judgement.play_index
    if judgement.kind == "victim":
        return judgement.at
    if index is None:
        return f"R{round_.header.number}.0"
    for trick in round_.tricks:
        if index < len(trick.plays):
            return f"R{round_.header.number}.{trick.number}.{index + 1}"
        index -= len(trick.plays)
    raise AssertionError("no such card")


def test_each_mark_is_at_its_position_with_its_player_and_loss(annotated: tuple[Path, list[Judgement], Any],
                                                               shown: dict[str, Any]) -> None:
    _, judgements, game = annotated
    labels = [stop["label"] for stop in shown["stops"]]
    got = sorted((labels[m["stop"]], m["seat"], m["glyph"], m["played"], m["best"], m["loss"], m["low"], m["high"],
                  m["method"]) for m in shown["marks"])
    marked = [j for j in judgements if j.glyph]
    want = sorted((_expected_label(game, j), game.players.index(j.player), j.glyph, j.played, j.best,
                   round(j.loss, 1), round(max(0.0, j.loss_low), 1), round(j.loss_high, 1), j.method) for j in marked)
    assert got == want
    assert {m["method"] for m in shown["marks"]} == {"est", "double dummy"}
    assert {labels[m["stop"]].endswith(".0") for m in shown["marks"]} == {True, False}
    # a double-dummy mark on an end line (which names no player) is shown, with the chooser's seat
    assert any(labels[m["stop"]].endswith(".end") and m["method"] == "double dummy" for m in shown["marks"])
    # a won Clubs lead's victim is shown after the trick's last card, not at the winner's card it is written on
    [won] = [j for j in marked if j.kind == "victim" and not j.at.endswith(".end")]
    [trick] = [t for t in game.record.rounds[won.round_index].tricks if t.number == int(won.at.split(".")[1])]
    last = trick.plays[-1].choice
    assert won.at.endswith(f".{len(trick.plays)}") and (last is None or last.player != won.played[1:])


def test_the_summary_is_the_analysis_per_player(annotated: tuple[Path, list[Judgement], Any],
                                                shown: dict[str, Any]) -> None:
    _, judgements, game = annotated
    rows = accuracy(judgements, game.players, game.rules)
    assert shown["summary"] == [{"player": r.player, "judged": r.judged, "inaccuracies": r.inaccuracies,
                                 "mistakes": r.mistakes, "blunders": r.blunders, "mean_loss": round(r.mean_loss, 2),
                                 "accuracy": round(r.accuracy, 1)} for r in rows]
    assert sum(row["judged"] for row in shown["summary"]) == len(judgements)
    assert sum(row["blunders"] for row in shown["summary"]) == 1


def test_the_loss_chart_has_a_lane_per_player_and_a_link_per_mark(shown: dict[str, Any]) -> None:
    chart = shown["loss_chart"]
    labels = [stop["label"] for stop in shown["stops"]]
    links = re.findall(r'<a href="#g1/([^"]+)" class="mark">', chart)
    assert sorted(links) == sorted(labels[m["stop"]] for m in shown["marks"])
    lanes = re.findall(r'<text [^>]*class="name">([^<]*)</text>', chart)
    assert [lane.split(" · ")[0] for lane in lanes] == shown["players"]
    assert all("accuracy" in lane for lane in lanes)


def test_the_move_list_knows_who_played_each_card(shown: dict[str, Any], annotated: tuple[Path, list[Judgement], Any]
                                                  ) -> None:
    from diamonds.replay import replay_record
    from diamonds.replay.steps import steps_of

    _, _, game = annotated
    steps = steps_of(replay_record(game.record))
    assert [stop.get("seat") for stop in shown["stops"]] == [s.actor if s.kind == "card" else None for s in steps]
    # the analysis's comments are shown as marks, not again as the move's comment
    assert not any("worlds from" in stop["note"] for stop in shown["stops"])
    assert any(stop["note"] == "wins with the 2S" for stop in shown["stops"])  # a person's comment stays


def test_an_unannotated_game_has_no_marks_no_summary_no_chart(tmp_path: Path) -> None:
    _, page, _ = write_page(tmp_path, LEAGUE)
    game = page_data(page)["games"][0]
    assert (game["marks"], game["summary"], game["loss_chart"]) == ([], [], "")
    assert "1S!?" in [stop["move"] for stop in game["stops"]]  # a person's annotation is the move's, not a mark


# --------------------------------------------------------------------------- text from input is text


HOSTILE = '<img src=x onerror=alert(1)></script><script>alert(2)</script>'


def test_text_in_a_marks_comment_never_reaches_the_page_as_code(tmp_path: Path) -> None:
    path, _, _ = analysed(tmp_path, best=HOSTILE)
    status, page, err = write_page(tmp_path, path)
    assert status == 0, err
    assert [tag for tag, _ in parsed(page).tags].count("script") == 2 and "<img" not in page
    game = page_data(page)["games"][0]
    assert {m["best"] for m in game["marks"]} == {HOSTILE}  # read as it was written, then escaped where drawn
    assert "<img" not in game["loss_chart"] and "&lt;img src=x onerror=alert(1)&gt;" in game["loss_chart"]


def test_the_loss_chart_escapes_names_and_moves() -> None:
    mark = PageMark(1, 0, "??", "<b>5S", "</svg><script>", 3.0, 2.0, 4.0, "est")
    chart = loss_chart(("A&B",), (mark,), ["start", "R1.0", "end"], 1, (PagePlayer("A&B", 1, 0, 0, 1, 3.0, 12.5),))
    assert "<script>" not in chart and "<b>" not in chart and "A&amp;B" in chart
    assert chart.count("<svg") == 1 and chart.endswith("</svg>")


# --------------------------------------------------------------------------- size (KB = 1,000 bytes)


def budget(games: int) -> int:
    """Issue 32: at most 80 KB for one game and 20 KB for each more game of the page."""
    return 80_000 + 20_000 * (games - 1)


@pytest.mark.slow  # every sample's page built whole (up to some 20 s each on a loaded machine)
@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.dgn")))
def test_every_samples_page_keeps_to_the_size_budget(sample: str, tmp_path: Path) -> None:
    _, page, _ = write_page(tmp_path, SAMPLES / sample)
    games = len(page_data(page)["games"])
    assert len(page.encode("utf-8")) <= budget(games), (sample, games, len(page.encode("utf-8")))


def test_an_analysed_games_page_keeps_to_the_size_budget(shown: dict[str, Any],
                                                         annotated: tuple[Path, list[Judgement], Any],
                                                         tmp_path: Path) -> None:
    _, page, _ = write_page(tmp_path, annotated[0])
    _, plain, _ = write_page(tmp_path, LEAGUE)
    size = len(page.encode("utf-8"))
    assert size <= budget(1), size
    marked = sum(1 for j in annotated[1] if j.glyph)
    assert len(shown["marks"]) == marked and size > len(plain.encode("utf-8"))  # the analysis is in it, and counted
