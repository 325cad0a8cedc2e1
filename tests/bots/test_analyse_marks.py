"""Where `diamonds analyse` writes its marks (issue 32): each marked decision once, on its own decision's item.

A Clubs victim (R14) is a decision of its own (`>Name`), which DGN writes on the card that earned the Clubs
action (`15C>hwalsh`: a Club played off-suit, or the winner of a Clubs lead) or on the `end` line (the Clubs
majority: `end >hwalsh`); a victim the record leaves unwritten (`>-`, no one to rob) stays with the card after
which it was named (the round's last card, at an end the record does not write). Its mark goes there, whether
or not a card before it is marked, and the page's reader (`cli.page_cmd.analysis_of`) reads it back as that
victim's: its player, its move, shown at the stop where the victim was due (R14, RULINGS "Clarifications (2)":
the victim is its own move, asked as soon as it is due): a Club played off-suit at its card (R9), a won Clubs
lead after the trick's last card (R10), the Clubs majority at the round's end (R16). The judgements are
`judge`'s own (one world each: where a mark goes does not depend on the verdict), marked here by choice."""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

import diamonds
from diamonds.bots.analyse import Judgement, annotate, judge
from diamonds.bots.notes import read_mark
from diamonds.cli.main import main
from diamonds.cli.page_cmd import analysis_of
from diamonds.notation.records import Comment, GameRecord
from diamonds.notation.writer import write_game
from diamonds.replay import replay_record
from diamonds.replay.steps import steps_of

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
# Chosen Clubs victims (R14): won Clubs leads, off-suit Clubs and the end's award (the league); one trick
# with three off-suit Clubs naming the same player (six in partnerships); `>-` and an end with no `end` line
# (two players, open hands).
GAMES = ["1e-3p-league.dgn", "2e-6p-partnership.dgn", "1e-2p-perfect-no-deals.dgn"]


@cache
def judged(sample: str) -> tuple[diamonds.Game, tuple[Judgement, ...]]:
    game = next(diamonds.read_games(str(SAMPLES / sample)))
    return game, tuple(judge(game, samples=1, max_samples=1, exact_nodes=0))


def with_marks(judgements: tuple[Judgement, ...], marked: set[int]) -> list[Judgement]:
    """The judgements with a mark on the decisions at `marked` (by ply) and on no other."""
    return [dataclasses.replace(j, glyph="?" if j.ply in marked else None) for j in judgements]


def written_marks(record: GameRecord) -> tuple[list[tuple[str, str, str]], dict[str, str | None]]:
    """Every mark comment of a record as read back from its text, (the item's label, the player it names, the
    move it is on), and each card's glyph by its label."""
    found: list[tuple[str, str, str]] = []
    glyphs: dict[str, str | None] = {}
    again = diamonds.Game.from_text(write_game(record)).record

    def read(comments: tuple[Comment, ...], label: str) -> None:
        for comment in comments:
            mark = read_mark(comment.text)
            if mark is not None:
                found.append((label, mark.player, mark.played))

    for rnd in again.rounds:
        r = rnd.header.number
        read(rnd.header.comments, f"R{r}.0")
        for line in rnd.hand_lines:
            read(line.comments, f"R{r}.{line.kind} {line.player}")
        for call in rnd.calls:
            read(call.comments, f"R{r}.{type(call).__name__} {call.player}")
        for trick in rnd.tricks:
            for number, play in enumerate(trick.plays, 1):
                read(play.comments, f"R{r}.{trick.number}.{number}")
                glyphs[f"R{r}.{trick.number}.{number}"] = play.annotation
        if rnd.end is not None:
            read(rnd.end.comments, f"R{r}.end")
    return found, glyphs


def choice_item(game: diamonds.Game, victim: Judgement) -> str:
    """Where the record writes a victim's choice (docs/dgn.md, "Victims"), told from the record and the
    position the victim was named at (`Position.label`): the named card if it carries `>Name`, else the one
    card of its trick that does (a won Clubs lead's winner); at the round's end, the `end` line; unwritten:
    the card it was named after."""
    rnd = game.record.rounds[victim.round_index]
    r, name = rnd.header.number, victim.played[1:]
    if victim.at == f"R{r}.end":
        if rnd.end is not None:
            return victim.at
        return f"R{r}.{rnd.tricks[-1].number}.{len(rnd.tricks[-1].plays)}"
    _, trick_no, card_no = victim.at.split(".")
    [trick] = [t for t in rnd.tricks if t.number == int(trick_no)]
    names = [play.choice.player if play.choice is not None else None for play in trick.plays[:int(card_no)]]
    if names[-1] != name and name in names:
        assert names.count(name) == 1, (victim.at, names)
        return f"R{r}.{trick_no}.{names.index(name) + 1}"
    return victim.at


def due_where(game: diamonds.Game, victim: Judgement) -> str:
    """Where a victim whose choice the record writes was due, told from the record and the rules alone: at the
    round's end for the `end` line's (R16); else at the card carrying its `>Name` where that card is a Club
    played off-suit (R9: at once), or after the trick's last card where the trick was led in Clubs (R10: the
    winner's action, after the whole trick)."""
    item = choice_item(game, victim)
    rnd = game.record.rounds[victim.round_index]
    if item.endswith(".end"):
        return item
    _, trick_no, card_no = item.split(".")
    [trick] = [t for t in rnd.tricks if t.number == int(trick_no)]
    play = trick.plays[int(card_no) - 1]
    assert play.choice is not None and play.choice.player == victim.played[1:], (victim, item)
    if str(trick.plays[0].card).endswith("C"):  # a Clubs lead: its winner's action
        return f"R{rnd.header.number}.{trick_no}.{len(trick.plays)}"
    assert str(play.card).endswith("C") and card_no != "1", (victim, item)  # a Club played off-suit
    return item


def page_marks(record: GameRecord, *, method: bool = False) -> list[tuple[str | int, ...]]:
    """The marks as the page reads them: (the stop's label, the seat, the move, the glyph[, the method])."""
    replayed = replay_record(record)
    steps = steps_of(replayed)
    marks, _ = analysis_of(replayed, steps)
    return [(steps[m.stop].label, m.seat, m.played, m.glyph, *([m.method] if method else [])) for m in marks]


@pytest.mark.parametrize("sample", GAMES)
def test_judge_says_where_each_decision_was_due(sample: str) -> None:
    game, judgements = judged(sample)
    labels = [position.label for position in game.positions()]
    assert [j.at for j in judgements] == [labels[j.ply] for j in judgements]


@pytest.mark.parametrize("sample", GAMES)
def test_a_victim_is_due_where_the_rules_say(sample: str) -> None:
    """Where a victim whose choice the record writes was due (`at`) is where R9, R10 and R16 put it
    (`due_where`); in each sample some won Clubs lead's victim was due after a later card than the one its
    `>Name` is written on."""
    game, judgements = judged(sample)
    written = [j for j in judgements if j.kind == "victim" and j.played != ">-"
               and (game.record.rounds[j.round_index].end is not None or not j.at.endswith(".end"))]
    assert [j.at for j in written] == [due_where(game, j) for j in written]
    assert any(choice_item(game, j) != j.at and not j.at.endswith(".end") for j in written)


@pytest.mark.parametrize("sample", GAMES)
def test_a_victims_mark_is_on_its_choices_item_with_no_card_marked(sample: str) -> None:
    """Every victim decision marked, no card: each mark on the item that carries its choice (none dropped), and
    shown by the page at the stop where the victim was due (`at`), not at that item's: a won Clubs lead's card
    comes before its trick is complete (R10), and the round's end after its last card."""
    game, judgements = judged(sample)
    victims = [j for j in judgements if j.kind == "victim"]
    assert len(victims) >= 10
    record = annotate(game.record, with_marks(judgements, {j.ply for j in victims}))
    want = [(choice_item(game, j), j.player, j.played) for j in victims]
    written, glyphs = written_marks(record)
    assert Counter(written) == Counter(want)
    assert glyphs == written_marks(game.record)[1]  # no card marked: the players' own glyphs stand (1S!?)
    assert Counter(page_marks(record)) == Counter((j.at, game.players.index(j.player), j.played, "?")
                                                  for j in victims)
    assert any(choice_item(game, j) != j.at for j in victims)  # some are shown elsewhere than written


@pytest.mark.parametrize("sample", GAMES)
def test_every_marked_decision_is_on_its_own_item_once(sample: str) -> None:
    """Every decision judged is marked, so the cards before each victim are marked too: the victim's mark is
    still on its choice's item, each card's on its own card with its glyph (a card the scorer annotated keeps
    the scorer's: the comment gives the analysis's), and every mark is there once."""
    game, judgements = judged(sample)
    labels = [position.label for position in game.positions()]
    record = annotate(game.record, with_marks(judgements, {j.ply for j in judgements}))
    written, glyphs = written_marks(record)
    _, scorers = written_marks(game.record)
    assert Counter((player, played) for _, player, played in written) == \
        Counter((j.player, j.played) for j in judgements)
    for j in judgements:
        if j.kind == "victim":
            assert (choice_item(game, j), j.player, j.played) in written, j
        elif j.kind == "card":  # the position after a card is its own: R2.7.3
            label = labels[j.ply + 1]
            assert (label, j.player, j.played) in written and glyphs[label] == (scorers[label] or "?"), j
    shown = page_marks(record)
    assert len(shown) == len(judgements)
    for j in judgements:
        if j.kind == "victim":  # where it was due, though a card's mark shares its item
            assert (j.at, game.players.index(j.player), j.played, "?") in shown, j
        elif j.kind == "card":  # the card's own mark stays at its card
            assert (labels[j.ply + 1], game.players.index(j.player), j.played, "?") in shown, j


@pytest.mark.parametrize("form", ["names the player", "older, names no one"])
@pytest.mark.parametrize("sample", ["1e-3p-league.dgn", "2e-6p-partnership.dgn"])
def test_a_double_dummy_mark_on_the_end_line_is_shown(sample: str, form: str) -> None:
    """The Clubs majority's victims judged double dummy (R16): their marks, on `end` lines (which name no
    player), are shown at the round's end with the chooser's seat, whether the comment names the player (as
    `mark_comment` writes it now) or not (as it was written before: the victim decision's player stands)."""
    game, judgements = judged(sample)
    ends = {j.ply for j in judgements if j.kind == "victim" and j.at.endswith(".end")}
    assert len(ends) >= 2
    judgements = tuple(dataclasses.replace(j, method="double dummy", samples=1, loss_low=j.loss, loss_high=j.loss)
                       if j.ply in ends else j for j in judgements)
    text = write_game(annotate(game.record, with_marks(judgements, ends)))
    for j in judgements:
        if j.ply in ends:
            assert f"double dummy: every hand seen, {j.player}'s move" in text
    if form != "names the player":
        text = re.sub(r"(double dummy: every hand seen), \S+'s move", r"\1", text)
    assert text.count("double dummy: every hand seen") == len(ends)
    shown = page_marks(diamonds.Game.from_text(text).record, method=True)
    assert Counter(shown) == Counter((j.at, game.players.index(j.player), j.played, "?", "double dummy")
                                     for j in judgements if j.ply in ends)


def test_the_json_report_says_where_each_decision_was_due(tmp_path: Path) -> None:
    """`analyse --format json`: each judgement's `at` is the label of the position it was due at (as `replay
    --at` names it), a victim's too: after the trick for a won Clubs lead (R10), R2.end for the majority's (R16)."""
    sample = "1e-2p-perfect-no-deals.dgn"
    out = tmp_path / "report.json"
    assert main(["analyse", str(SAMPLES / sample), "--format", "json", "-o", str(out), "--samples", "1",
                 "--max-samples", "1", "--exact-nodes", "0"]) == 0
    [entry] = json.loads(out.read_text(encoding="utf-8"))["games"]
    game = next(diamonds.read_games(str(SAMPLES / sample)))
    labels = [position.label for position in game.positions()]
    assert entry["judgements"] and all(j["at"] == labels[j["ply"]] for j in entry["judgements"])
    victims = [j["at"] for j in entry["judgements"] if j["kind"] == "victim"]
    assert any(at.endswith(".end") for at in victims) and any(not at.endswith(".end") for at in victims)
