"""A card that the pass lines hand from one seat to another is not a third seat's to pass or play (R6).

Without deal lines the recorder and the server play the round on a stand-in deal (`replay_record(stand_in=True)`),
drawn from what the record proves each seat was dealt: what it passed, and what it played that was not passed
to it. A card passed by Ann to Bob that Cat plays would be drawn in two hands, and the engine would refuse the
deal ("11D is dealt twice", R5): at the right token, but in the deal's words. The refusal speaks of the pass
instead. `validate` uses no stand-in deal: without hands it says nothing of the round, as before."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from diamonds.cli.record_cmd import run_lines
from diamonds.notation import parse_game
from diamonds.replay.recorder import Recorder
from diamonds.replay.validate import replay_record, validate_record

#: 2e, dealer Ann: each passes to the left (R6), so Ann to Bob, Bob to Cat, Cat to Ann; Bob leads (R7).
PASSES = ["pass 2", "pass Ann 11D 6S", "pass Bob 1D 14D", "pass Cat 13S 4C"]


def recorder(lines: list[str]) -> Recorder:
    rec = Recorder.new("2e", ["Ann", "Bob", "Cat"], dealer="Ann")
    for line in lines:
        outcome = rec.enter(line)
        assert outcome.refusal is None and outcome.accepted, (line, outcome)
    return rec


def test_a_card_passed_to_another_seat_is_refused_in_the_words_of_the_pass(tmp_path: Path) -> None:
    """What a user typing sees: the refusal at the card played, about the pass, with R6."""
    out, err = io.StringIO(), io.StringIO()
    rec = recorder(PASSES)
    run_lines(rec, str(tmp_path / "rec.dgn"), ["3H 11D\n"], out, err)
    line = rec.text.splitlines().index("1. 3H") + 1  # 3H was taken; 11D stood beside it
    assert err.getvalue().replace(f"{tmp_path}/", "").splitlines()[:3] == [
        f"rec.dgn:{line}:7: Cat does not hold 11D: Ann passed it to Bob (R6)",
        "    1. 3H 11D",
        "          ^^^",
    ]
    assert "dealt twice" not in err.getvalue()


@pytest.mark.parametrize("lines,item,card,message", [
    # the third seat plays it, leading or following
    (PASSES, "3H 11D", "11D", "Cat does not hold 11D: Ann passed it to Bob"),
    (PASSES, "3H 5H 14D", "14D", "Ann does not hold 14D: Bob passed it to Cat"),
    # the third seat passes it, or its target passes it on
    (PASSES[:2], "pass Cat 11D 2C", "11D", "Cat cannot pass 11D: Ann passes it to Bob"),
    (PASSES[:2], "pass Bob 2C 11D", "11D",
     "Bob cannot pass 11D: Ann passes it to Bob (a card received is not passed on)"),
])
def test_the_recorder_refuses_a_passed_card_at_its_token(lines: list[str], item: str, card: str, message: str) -> None:
    rec = recorder(lines)
    before = rec.text
    outcome = rec.enter(item)
    refusal = outcome.refusal
    assert refusal is not None
    assert (refusal.message, refusal.code, refusal.rule) == (message, "card-not-held", "R6")
    assert refusal.source_line[refusal.column - 1:refusal.column - 1 + refusal.length] == card
    assert outcome.accepted == (() if item.startswith("pass") else tuple(item.split()[:-1]))
    assert rec.text.count(card) == before.count(card)  # the card is not recorded


def test_the_target_may_play_a_card_passed_to_it() -> None:
    rec = recorder(PASSES)
    assert rec.enter("11D").refusal is None  # Bob leads the card Ann passed him
    assert rec.enter("1D").refusal is None  # Cat follows with the card Bob passed her


HEAD = '[Rules "2e"]\n[Players "Ann Bob Cat"]\n[Dealer "Ann"]\n[Result "*"]\n\nR1 dealer Ann pass 2\n'
#: The record the recorder refused: Cat plays 11D, which Ann passed to Bob (line 10, column 7).
CONFLICT = HEAD + "pass Ann 11D 6S\npass Bob 1D 14D\npass Cat 13S 4C\n1. 3H 11D\n"


def test_the_stand_in_replay_refuses_the_play_in_the_words_of_the_pass() -> None:
    replayed = replay_record(parse_game(CONFLICT), stand_in=True)
    assert [(p.pos.line, p.pos.column, p.length, p.message, p.code, p.rule) for p in replayed.problems] == [
        (10, 7, 3, "Cat does not hold 11D: Ann passed it to Bob", "card-not-held", "R6")]


def test_validate_uses_no_stand_in_deal_and_says_nothing_of_the_conflict() -> None:
    """Without hands an unfinished round is checked only card against card: validate's output is as before."""
    for replayed in (validate_record(parse_game(CONFLICT)), replay_record(parse_game(CONFLICT))):
        assert replayed.problems == [] and replayed.drawn_round is None
        assert replayed.notes == ["round 1 is unfinished and has no deal line for Ann: its hands are unknown, so its "
                                  "cards are checked only against each other"]


#: The hunt's round: the pass count, then the cards, with no pass line (Bob leads, R7).
NO_PASS_LINES = HEAD + "1. 3H 5H 14D\n"


def test_a_card_before_the_pass_lines_is_refused_at_once_not_at_the_rounds_last_card() -> None:
    """Without deal lines a round's deal is inferred from its pass lines and plays (DGN.md), and pass lines come
    before its first trick: a round whose tricks start with a pass line missing can never be checked when
    complete. The recorder took every card of such a round and refused its last; it now refuses the first card,
    naming whose pass line is due (R6), and takes it once the pass lines are written."""
    rec = recorder(["pass 2"])
    assert rec.where() == "round 1, Bob's `pass` line"  # what the screen says is due
    outcome = rec.enter("3H")
    refusal = outcome.refusal
    assert refusal is not None and (refusal.code, refusal.rule) == ("missing-deal", "R6")
    assert refusal.message == ("round 1 has no deal line for Bob, and without Bob's pass line the deal cannot be "
                               "inferred; pass lines come before a round's first trick")
    assert refusal.source_line[refusal.column - 1:refusal.column - 1 + refusal.length] == "3H"
    assert "3H" not in rec.text.split("pass 2", 1)[1]
    for line in PASSES[1:]:  # a missing line names the next seat whose deal still cannot be inferred
        assert rec.enter("3H").refusal is not None
        assert rec.enter(line).refusal is None
    assert rec.enter("3H 5H 9H").accepted == ("3H", "5H", "9H")


def test_validate_still_reads_a_cut_round_without_pass_lines_as_unfinished() -> None:
    """`validate` uses no stand-in deal: a record cut inside such a round is incomplete, as before (its round
    is refused at the header when complete)."""
    replayed = validate_record(parse_game(NO_PASS_LINES))
    assert replayed.problems == [] and not replayed.complete
    live = replay_record(parse_game(NO_PASS_LINES), stand_in=True)
    assert [(p.pos.line, p.pos.column, p.code, p.rule) for p in live.problems] == [(7, 4, "missing-deal", "R6")]
